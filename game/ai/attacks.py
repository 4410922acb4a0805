"""Weapon attacks: every legal direct attack scored by its exact odds.

The odds are the query ``game.state.queries`` asked of the side's own
view: the engine's plan of each attack and its system's exact distributions.
An attack is worth what the target is expected to lose times the target's value,
counted in points of BattleTech damage (the unit of the personality's spotter
threshold): a BattleTech shot (ART-32a) its expected damage; an attack of another
system the expected share of the target it takes, a whole unit counting
``WHOLE_UNIT`` points, less the share of the attacker's own unit it is expected to
lose back (a round of melee or close combat, a lost fight for a gun). A gun taken
counts twice, the enemy's loss and one's own gain (TS-10). A unit spotting for a
shell this turn attacks only for a large enough gain, because its own attack
worsens the number of the shell its side fires this turn (ART-18). Attacks are
made best first, so a target destroyed early frees the later weapons for another.

The rules' questions are answered from the same odds where the choice turns on
them: standing and shooting at a charger (WH-3) is worth the volley's odds, and
firing right after a manoeuvre (TS-13) the shot's, against the fight for a gun
the unit would give up by it.
"""

from __future__ import annotations

from dataclasses import replace

import game.ai.objectives as objectives
from game.ai.candidates import Board, Candidate, unit_value
from game.hexmath import distance
from game.rules import toysoldiers as ts
from game.rules.battlesystem import RANGE_BANDS
from game.state import combat as cs
from game.state.combat.battlesystem import magical_plan
from game.state.combat.toysoldiers import ToyField
from game.state.commands import Answer, Attack, Command, EndPhase, GunAction
from game.state.queries import (
    AttackOdds,
    attack_odds_of,
    fastest_move,
    shooting_odds,
    shot_odds,
)
from game.state.spotting import spotting_this_turn
from game.state.view import SeenUnit

# A whole unit of a system with figures, in points of BattleTech damage: as much as
# two medium-laser hits, so a regiment's volley that takes a tenth of its target is
# worth about a laser shot at an even chance.
WHOLE_UNIT = 10.0
# What an answer to a rules question is worth when the odds do not decide it. Spears
# set against a charge only add dice (BS-12), so they beat holding; the winner of the
# shooting initiative fires first, so its shooters are not thinned before they fire
# (TS-1).
ANSWER_WORTH = {
    cs.SET_SPEARS: 1.0,
    cs.FIRE_FIRST: 1.0,
    cs.FIRE_SECOND: 0.0,
    cs.HOLD: 0.0,
}
# Having the last fight for a gun before the end phase decides the hex it stands on
# (TS-10): worth more to its guards than firing first (``_last_word``).
LAST_FIGHT_WORTH = 2 * ANSWER_WORTH[cs.FIRE_FIRST]
# Crewing a gun or repairing one (TS-9, TS-11) lets it fire in later turns; the
# levels that weigh what an action risks score a repair by its odds instead.
GUN_CARE_WORTH = 1.0
# How much more a hit is worth on an enemy unit that can reach a hex the side guards
# by its next move (hard's look-ahead, ``_threat``).
THREAT_WEIGHT = 6.0
# A gun repaired (TS-9) as a share of a whole unit: it fires again, from next turn.
REPAIRED_SHARE = 0.5
# What a unit broken in close combat (WHC-1) loses, as a share of the whole unit: its
# ground and its contact (it falls back a hex); more on or next to a hex a scenario
# asks to hold, which it gives up.
BREAK_WORTH = 0.3
# Taking a hex the side must hold (a gun captured on it, TS-10), in points: five whole
# units, more than any other attack of the turn.
HOLD_WORTH = 5 * WHOLE_UNIT
BREAK_WORTH_BY_OBJECTIVE = {0: 1.0, 1: 0.6}
# How many times a regiment that waits out the clock counts its own losses in a melee
# round it would call (``_own_weight``).
CLOCK_CAUTION = 3.0
# A fight for a gun put off until the shots at its guards are made (hard): still
# worth more than ending the phase.
DEFERRED_FIGHT = 0.01


def worth(
    odds: AttackOdds,
    attacker: SeenUnit,
    target: SeenUnit,
    *,
    return_blows: bool = True,
    stakes: tuple[float, float] | None = None,
    own_weight: float = 1.0,
) -> float:
    """What an attack is worth to the attacker's side (see the module docstring);
    without ``return_blows`` (the easy level) only what it takes from the enemy, and
    the blows struck back counted ``own_weight`` times (``_own_weight``). With
    ``stakes`` (what a break costs the attacker's unit and the target, as shares of a
    whole unit, ``break_stake``) a round of close combat also counts its break test
    (WHC-1): the loser gives up its ground, or all it has left when cut down."""
    if odds.share is None:  # BattleTech: damage points
        return odds.expected * unit_value(target)
    taken = odds.share * unit_value(target)
    if odds.weapon == cs.CAPTURE:
        taken *= 2
    lost = own_weight * odds.cost * unit_value(attacker) if return_blows else 0.0
    if stakes is not None:
        own, theirs = stakes
        taken += unit_value(target) * (
            odds.breaks * theirs + odds.cut_down * max(0.0, 1.0 - odds.share - theirs)
        )
        lost += unit_value(attacker) * (
            odds.broken * own + odds.cut_down_own * max(0.0, 1.0 - odds.cost - own)
        )
    return WHOLE_UNIT * (taken - lost)


def break_stake(board: Board, unit: SeenUnit) -> float:
    """What breaking costs ``unit`` as a share of the whole unit (WHC-1): its ground,
    which is worth most on or next to a hex the scenario asks a side to hold."""
    if unit.hex is None:
        return BREAK_WORTH
    goals = objectives.read(board.view)
    holds = [h.hex for h in (*goals.take, *goals.guard)]
    near = min((distance(unit.hex, h) for h in holds), default=99)
    return BREAK_WORTH_BY_OBJECTIVE.get(near, BREAK_WORTH)


def break_stakes(board: Board, unit: SeenUnit, target: SeenUnit) -> tuple[float, float] | None:
    """Both units' break stakes when the level weighs break tests (WHC-1)."""
    if not board.level.weighs_break_tests:
        return None
    return break_stake(board, unit), break_stake(board, target)


def _question_worth(board: Board, choice: str) -> float:
    """An answer to the open question, by the odds it brings where they decide it."""
    view = board.view
    question = view.question
    assert question is not None
    if question["topic"] == cs.ORDER_OF_FIRE and choice == cs.FIRE_SECOND and _last_word(board):
        return LAST_FIGHT_WORTH
    unit = view.units.get(question["unit"])
    if unit is None or unit.hex is None:
        return ANSWER_WORTH.get(choice, 0.0)
    if question["topic"] == cs.STAND_AND_SHOOT:
        charger = view.units.get(question["about"])
        if choice != cs.STAND_AND_SHOOT or charger is None or charger.hex is None:
            return 0.0
        return worth(shooting_odds(view, unit, charger, stand_and_shoot=True), unit, charger)
    if question["topic"] == cs.FIRE_AFTER_MANOEUVRE:
        if choice == cs.HOLD_FIRE:
            # TS-13: a unit that fires now may not fight for a gun this turn.
            return max((_gun_fight(board, unit, gun) for gun in _enemy_guns(board)), default=0.0)
        target = cs.manoeuvre_targets(view, unit).get(choice)
        if target is None:
            return 0.0
        return worth(shot_odds(view, unit, target, after_manoeuvre=True), unit, target)
    return ANSWER_WORTH.get(choice, 0.0)


def _last_word(board: Board) -> bool:
    """The level that fights last for its guns (normal, hard): guarding a hex whose own
    gun has an enemy warrior and one of its own guards within a step of it (TS-10), the
    side makes the enemy fire first (TS-1). The last fight for the gun before the end
    phase, which decides the hex, is then the guards': a gun the enemy takes they fight
    for again at once."""
    if not board.level.fights_last_for_guns:
        return False
    view = board.view
    guarded = {g.hex for g in objectives.read(view).guard}
    if not guarded:
        return False
    field = ToyField(view)
    for gun_unit, _gun in field.gun_units(view.side):
        here = gun_unit.hex
        if here in guarded and all(
            any(distance(u.hex, here) <= ts.CLOSE_DISTANCE for u, _w in field.standing(side))
            for side in (view.side, view.enemy)
        ):
            return True
    return False


def _fires_for_nobody(board: Board, field: ToyField | None, gun: SeenUnit) -> bool:
    """A gun disabled or under repair (TS-9) fires for nobody, and a warrior who crews
    it shoots no more himself (TS-11): the levels that crew only guns that fire leave
    it uncrewed until it is ready."""
    if not board.level.crews_ready_guns or field is None:
        return False
    found = field.guns.get(gun.id)
    return found is not None and found.status != "ready"


def _crew_worth(field: ToyField, unit: SeenUnit) -> float:
    """Crewing a gun lets it fire (TS-11); the fewer gun types the unit's warriors are
    qualified for, the sooner it crews: a mechanic qualified on all four (the only one
    who repairs, TS-9) is left free while a narrower crew is at hand."""
    types = {t for w in field.warriors.get(unit.id, ()) if w.on_board for t in w.qualified}
    return GUN_CARE_WORTH / max(1, len(types))


def _enemy_guns(board: Board) -> list[SeenUnit]:
    return [
        u
        for u in board.view.living(board.view.enemy)
        if u.system == cs.TOY_SOLDIERS and u.kind == "gun" and u.hex is not None
    ]


def _gun_fight(board: Board, unit: SeenUnit, gun: SeenUnit) -> float:
    """The worth of taking ``gun`` this turn, 0 when ``unit`` cannot (TS-10). A gun
    standing on a hex the side must hold is worth ``HOLD_WORTH`` more: taken, it holds
    the hex for its captor (TS-10: "the gun then belongs to the captor"). The level that
    weighs gun fights (hard) counts it on a hex the enemy must hold too: its gun taken
    back before the end phase, the hex is not the enemy's."""
    odds = attack_odds_of(board.view, unit, gun, cs.CAPTURE)
    if odds.refusal:
        return 0.0
    gain = worth(odds, unit, gun, return_blows=board.level.weighs_return_blows)
    goals = objectives.read(board.view)
    holds = goals.take + goals.guard if board.level.weighs_gun_fights else goals.take
    if gun.hex in {h.hex for h in holds}:
        gain += HOLD_WORTH * float(odds.share or 0.0)
    return gain


def _threat(board: Board, target: SeenUnit) -> float:
    """Look-ahead (hard): an enemy unit that can reach a hex the side guards by its next
    move (its fastest move and a step) threatens to take it, and a regiment standing on
    a hex the side must take keeps it from being taken (units never enter an enemy's
    hex): hitting either is worth ``THREAT_WEIGHT`` times as much."""
    if target.hex is None or target.battery is not None:
        return 1.0
    goals = objectives.read(board.view)
    if _holds_the_hex(goals, target):
        return THREAT_WEIGHT  # none is taken while it stands there
    reach = fastest_move(target) + 1
    guarded = goals.guard
    near = any(distance(target.hex, g.hex) <= reach for g in guarded)
    return THREAT_WEIGHT if near and fastest_move(target) > 0 else 1.0


def idle_gun(field: ToyField, target: SeenUnit) -> bool:
    """A toy-soldier gun that fires no more: no warrior of its side left on the board is
    qualified for its type, so none can crew it (TS-11)."""
    gun = field.guns.get(target.id)
    if gun is None:
        return False
    return not any(gun.gun_type in w.qualified for _u, w in field.standing(gun.owner))


def _fight_odds(captors: int, guards: int) -> float:
    """TS-10: the captors' chance to take a gun; unguarded it is taken, without
    captors nobody fights."""
    if captors <= 0:
        return 0.0
    if guards <= 0:
        return 1.0
    return float(ts.gun_fight_odds(captors, guards))


def _fight_ahead(
    board: Board, field: ToyField, target: SeenUnit, chance: float
) -> tuple[float, bool]:
    """Look-ahead in the fight for a gun (hard): each side adds its warriors to a d6
    (TS-10), so a figure of ``target`` shot off the board before the fight moves its
    odds. Worth the shot's chance times that move times ``HOLD_WORTH``, for a gun on
    a hex the scenario names: as the side that must take the hex, against a guard of
    the gun (an enemy warrior within a step of it), the largest own unit that can be at
    the gun by its next move fighting; guarding the hex, against an enemy unit that can
    be next to the gun by its next move, every own warrior within two steps of it
    guarding (the garrison steps next to the gun, ``manoeuvre.py``). Also whether the
    shot thins the guards of a gun the side must take."""
    view = board.view
    if target.hex is None or target.id not in field.warriors:
        return 0.0, False
    goals = objectives.read(view)
    take = {h.hex for h in goals.take}
    guard = {h.hex for h in goals.guard}
    figures = {uid: sum(1 for w in ws if w.on_board) for uid, ws in field.warriors.items()}
    best, thins = 0.0, False
    for gun_unit, _gun in field.gun_units():
        here = gun_unit.hex
        assert here is not None
        if gun_unit.side == view.enemy and here in take and distance(target.hex, here) <= 1:
            guards = sum(1 for u, _w in field.standing(view.enemy) if distance(u.hex, here) <= 1)
            captors = max(
                (
                    figures[u.id]
                    for u in field.units
                    if u.side == view.side
                    and u.id in figures
                    and distance(u.hex, here) <= fastest_move(u) + 1
                ),
                default=0,
            )
            gain = _fight_odds(captors, guards - 1) - _fight_odds(captors, guards)
            thins = thins or gain > 0
        elif gun_unit.side == view.side and here in guard:
            if distance(target.hex, here) > fastest_move(target) + 1:
                continue
            guards = sum(1 for u, _w in field.standing(view.side) if distance(u.hex, here) <= 2)
            captors = figures[target.id]
            gain = _fight_odds(captors, guards) - _fight_odds(captors - 1, guards)
        else:
            continue
        best = max(best, chance * gain * HOLD_WORTH)
    return best, thins


def _repair_worth(board: Board, gun: SeenUnit) -> float:
    """TS-9's repair roll by its odds: a third of the time the gun fires again from
    next turn (``REPAIRED_SHARE`` of a unit), a third it is lost, which destroys it
    (a destroyed unit for the enemy's count) and, on a hex the side guards, gives the
    hex up (``HOLD_WORTH``)."""
    odds = ts.repair_odds()
    lost = WHOLE_UNIT * unit_value(gun)
    if gun.hex in {h.hex for h in objectives.read(board.view).guard}:
        lost += HOLD_WORTH
    return float(odds.repaired) * REPAIRED_SHARE * WHOLE_UNIT - float(odds.lost) * lost


def answer_candidates(board: Board, legal: list[Command]) -> list[Candidate]:
    """Every answer to the question the rules put now, scored by its odds."""
    return [
        Candidate(c, _question_worth(board, c.choice), f"answer: {c.choice}")
        for c in legal
        if isinstance(c, Answer)
    ]


def attack_candidates(board: Board, legal: list[Command]) -> list[Candidate]:
    view = board.view
    out = [Candidate(EndPhase(view.side), 0.0, "no attack worth making")]
    goals = objectives.read(view, board.level.reads_turn_limit)
    field = ToyField(view) if any(u.system == cs.TOY_SOLDIERS for u in view.living()) else None
    thinning = False  # a shot left that thins the guards of a gun the side must take
    first = objectives.first_to_destroy(view, goals) if board.level.toughest_first else None
    for c in legal:
        if isinstance(c, GunAction):
            unit, gun = view.units[c.unit], view.units.get(c.gun)
            if c.action == cs.CAPTURE and gun is not None:
                out.append(Candidate(c, _gun_fight(board, unit, gun), f"take gun {c.gun}"))
            elif c.action == cs.REPAIR and gun is not None and board.level.weighs_return_blows:
                out.append(Candidate(c, _repair_worth(board, gun), f"repair gun {c.gun}"))
            elif gun is not None and _fires_for_nobody(board, field, gun):
                continue
            elif c.action == cs.CREW and field is not None and board.level.keeps_gun_crews:
                out.append(Candidate(c, _crew_worth(field, unit), f"crew gun {c.gun}"))
            else:
                out.append(Candidate(c, GUN_CARE_WORTH, f"{c.action} gun {c.gun}"))
            continue
        if not isinstance(c, Attack):
            continue
        unit, target = view.units[c.unit], view.units.get(c.target)
        if target is None or target.hex is None or unit.hex is None:
            continue
        odds = attack_odds_of(view, unit, target, c.weapon)
        if odds.refusal is not None:
            continue
        if field is not None and board.level.spares_idle_guns and idle_gun(field, target):
            continue
        if c.weapon == cs.MAGICAL and not _spends_magic(board, goals, unit, target):
            continue
        gain = worth(
            odds,
            unit,
            target,
            return_blows=board.level.weighs_return_blows and not _presses(board, goals, unit),
            stakes=break_stakes(board, unit, target) if c.weapon == cs.CLOSE_COMBAT else None,
            own_weight=_own_weight(board, goals, unit, c.weapon),
        )
        if odds.share is None:  # BattleTech: a share of what is left, when destroying wins
            gain += objectives.finishing_worth(goals, target, odds.expected)
        if board.level.reach_ahead and gain > 0:
            gain *= _threat(board, target)
        if first is not None and target.id != first:
            # While the unit that would hold out longest stands (``toughest_first``).
            gain *= objectives.OTHERS_WEIGHT
        if field is not None and board.level.weighs_gun_fights and odds.chance:
            ahead, thins = _fight_ahead(board, field, target, odds.chance)
            gain += ahead
            thinning = thinning or thins
        if spotting_this_turn(view, unit) and gain < board.personality.spotter_fire_threshold:
            continue
        out.append(Candidate(c, gain, f"{c.weapon} at {c.target}: {_told(odds)}"))
    if thinning:
        # Shots first, then the fight: a guard shot off the board before it is one
        # fewer in the melee (TS-10), and a fight costs no shooting bonus (TS-2).
        out = [
            replace(k, score=min(k.score, DEFERRED_FIGHT))
            if isinstance(k.command, GunAction) and k.command.action == cs.CAPTURE
            else k
            for k in out
        ]
    return out


def _own_weight(
    board: Board, goals: objectives.Objectives, unit: SeenUnit, weapon_name: str
) -> float:
    """How many times the blows struck back count in a melee round (BS-9: both sides
    strike at once). The level that waits out the clock (hard) counts its own losses
    ``CLOCK_CAUTION`` times when its side guards a hex and wins at the turn limit: a
    round it does not call is a turn the enemy must still spend, while one that trades
    figures evenly wears down the side that has fewer of them and no time to win back."""
    if (
        board.level.waits_out_the_clock
        and weapon_name == cs.MELEE
        and unit.system == cs.BATTLESYSTEM
        and goals.survive
        and goals.guard
        and not goals.take
    ):
        return CLOCK_CAUTION
    return 1.0


def _spends_magic(
    board: Board, goals: objectives.Objectives, unit: SeenUnit, target: SeenUnit
) -> bool:
    """BS-14: a regiment has two magical volleys (unless the scenario says otherwise).
    The level that saves them (hard) looses one only at short range, where every
    figure's die rolls (BS-18: half the dice at medium range, a third at long), or in
    the last turn, when a volley kept is a volley lost."""
    if not board.level.saves_magical_volleys or goals.turns_left <= 1:
        return True
    plan = magical_plan(board.view, unit, target)
    return not isinstance(plan, str) and all(g.band == RANGE_BANDS[0] for g in plan.groups)


def _holds_the_hex(goals: objectives.Objectives, target: SeenUnit) -> bool:
    """A regiment standing on a hex the side must take: units never enter an enemy's
    hex, so the hex is not taken while it stands there (BATTLESYSTEM)."""
    return target.system == cs.BATTLESYSTEM and any(target.hex == t.hex for t in goals.take)


def _presses(board: Board, goals: objectives.Objectives, unit: SeenUnit) -> bool:
    """Hard: a BATTLESYSTEM regiment of a side that must take a hex before the turn
    limit makes every melee round that takes something (BS-9: both sides strike at
    once): the defender wins by waiting, so a round that trades figures evenly brings
    the side with more of them nearer the hex, and one left unfought only runs the
    clock."""
    return board.level.presses_every_round and bool(goals.take) and unit.system == cs.BATTLESYSTEM


def _told(odds: AttackOdds) -> str:
    chance = "" if odds.chance is None else f"P {odds.chance:.2f}, "
    if odds.share is None:
        return f"{chance}{odds.expected:.1f} damage expected"
    lost = f", {odds.cost:.0%} of its own lost" if odds.cost else ""
    return f"{chance}{odds.share:.0%} of the target expected{lost}"
