"""Warhammer units on the board (WH-1 .. WH-10, WHC-1): shooting, close combat with
its combat result and break test, charges and standing to shoot at a charger, each
checked completely before any die is rolled (``game.rules.warhammer`` rolls them).

Commands (``Attack(side, unit, target, weapon)``): ``weapon="shooting"``
(WH-1 .. WH-10); ``"close combat"``, one round against an adjacent unit, the combat
result (WHC-1) and a break test. docs/engine-systems.md gives every decision.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from game.artillery.damage import WarhammerTroops
from game.board.los import Sight, line_of_sight
from game.board.movement import entry_cost
from game.board.terrain import BUILDING, HEAVY_WOODS, LIGHT_WOODS
from game.hexmath import Hex, distance, neighbor, side_toward
from game.rules import battlesystem as bs
from game.rules import warhammer as wh
from game.rules.conversions import models_removed_by_wounds
from game.rules.core import Modifier
from game.state.board import log_event
from game.state.combat.common import (
    SystemRules,
    ask,
    by_weapon,
    ground_level,
    mark_destroyed,
    plural,
    terrain_at,
)
from game.state.combat.contact import (
    HOLD,
    charge,
    charger_of,
    contact_refusal,
    engaged,
    fought,
    log_reaction,
    moved_into_contact,
    reaction,
)
from game.state.commands import IllegalCommand
from game.state.model import GameState, Unit
from game.state.moving import mover
from game.state.systems import damage_state, has_missile_weapons, store_damage

if TYPE_CHECKING:  # the view imports the engine, which imports this package
    from game.state.view import PlayerView

WARHAMMER = "warhammer"
SHOOTING = "shooting"
CLOSE_COMBAT = "close combat"
WARHAMMER_WEAPONS = (SHOOTING, CLOSE_COMBAT)
# A full rank is five models: the front rank shoots and fights, and every further full
# rank adds to the combat result (WHC-1).
RANK_WIDTH = 5
# Profile values the scenario may leave out.
DEFAULT_WS = 3
DEFAULT_STRENGTH = 3
DEFAULT_ATTACKS = 1
DEFAULT_LEADERSHIP = 7


def troops(unit: Unit) -> WarhammerTroops:
    state = damage_state(unit)
    if not isinstance(state, WarhammerTroops):
        raise IllegalCommand(f"{unit.name} is not a Warhammer unit")
    return state


def _stat(unit: Unit, key: str, default: int) -> int:
    return int(unit.profile.get(key, default))


def _top(state: GameState | PlayerView, unit: Unit) -> int:
    """The level of the top of a unit's counter: its hex's ground level plus its height."""
    assert unit.hex is not None
    return ground_level(state, unit.hex) + unit.height


def _cover(state: GameState | PlayerView, sight: Sight, target: Unit) -> str:
    """WH-3: hard cover behind or in a building, soft cover behind or in woods."""
    assert target.hex is not None
    codes = {terrain_at(state, h) for h in (*sight.path[1:-1], target.hex)}
    if BUILDING in codes:
        return "hard"
    if codes & {LIGHT_WOODS, HEAVY_WOODS}:
        return "soft"
    return "none"


def _units_in_the_way(
    state: GameState | PlayerView, shooter: Unit, target: Unit, sight: Sight
) -> list[Unit]:
    """WH-1, WH-3: the units whose counters stand on the line of fire and reach into it:
    not lower than both the firer's eyes and the target's top (the MAP-5 rule for a
    hill, turned round). Hidden enemies the firer cannot know of are left out (ART-4)."""
    between = set(sight.path[1:-1])
    lowest = min(_top(state, shooter), _top(state, target))
    return [
        other
        for other in state.living()
        if other.hex in between
        and other.id not in (shooter.id, target.id)
        and not (other.hidden and other.side != shooter.side)
        and _top(state, other) >= lowest
    ]


@dataclass(frozen=True)
class ShootingPlan:
    """WH-1 .. WH-5: the models that fire, in batches, with their modifiers."""

    firing: wh.FiringPlan
    modifiers: tuple[Modifier, ...]
    distance: int
    strength: int
    shots: int
    cover: str

    def batches(self) -> list[tuple[int, tuple[Modifier, ...]]]:
        return self.firing.groups(self.modifiers)


def shooting_plan(
    state: GameState | PlayerView, unit: Unit, target: Unit, *, stand_and_shoot: bool = False
) -> ShootingPlan | str:
    """The volley ``unit`` could shoot at ``target`` now, or why not. With
    ``stand_and_shoot`` it is the charged unit's reaction to ``target``'s charge
    (WH-3, -1): it fires at the charger that has just reached it, at any range."""
    assert unit.hex is not None and target.hex is not None
    if not has_missile_weapons(unit):
        return f"{unit.name} has no missile weapons"
    if SHOOTING in unit.weapons_fired:
        return f"{unit.name} has already shot this turn"
    # A charger has just reached the unit that stands and shoots: that contact alone
    # does not stop the volley; any other enemy in contact does, on either of them (WH-1).
    fighting = [u for u in engaged(state, unit) if not (stand_and_shoot and u is target)]
    if fighting:
        return f"{unit.name} is fighting in close combat and cannot shoot"
    if any(u.side == unit.side and u is not unit for u in engaged(state, target)):
        return f"{target.name} is in close combat: no firing into close combat (WH-1)"
    shooter = troops(unit)
    if shooter.models == 0:
        return f"{unit.name} has no models left"
    rng = distance(unit.hex, target.hex)
    arc = bs.in_front_arc(unit.hex, unit.facing, target.hex)
    sight = line_of_sight(state.area, unit.hex, target.hex, unit.height, target.height)
    front_rank = min(shooter.models, RANK_WIDTH)
    # The source lets a unit stand and shoot at a charger beyond its maximum range.
    reach = max(rng, _stat(unit, "weapon_range", 1)) if stand_and_shoot else None
    firing = wh.firing_plan(
        [(rng, arc, sight.visible)] * front_rank, reach or _stat(unit, "weapon_range", 1)
    )
    if firing.firing == 0:
        why = firing.not_firing[0][1]
        if not sight.visible:
            why += f" ({sight.reason})"
        return f"{unit.name} cannot shoot at {target.name}: {why} (WH-1)"
    # WH-1: a unit standing taller than the target on the line hides it; WH-3: any other
    # unit on the line partly covers it, which counts as hard cover.
    in_the_way = _units_in_the_way(state, unit, target, sight) if sight.visible else []
    top = _top(state, target)
    hiding = [u for u in in_the_way if _top(state, u) > top]
    if hiding:
        return f"{unit.name} cannot shoot at {target.name}: {hiding[0].name} hides it (WH-1)"
    cover = "hard" if in_the_way else _cover(state, sight, target)
    # WH-3: "even a reform or a turn" counts as moving.
    moved = unit.movement_mode != "stood" or unit.turned
    modifiers = wh.shooting_modifiers(moved=moved, cover=cover, stand_and_shoot=stand_and_shoot)
    plan = ShootingPlan(
        firing,
        modifiers,
        rng,
        _stat(unit, "weapon_strength", _stat(unit, "s", DEFAULT_STRENGTH)),
        _stat(unit, "shots", 1),
        cover,
    )
    skill = _stat(unit, "bs", 3)
    if all(
        wh.to_hit_needed(skill, sum(m.value for m in mods)) is None for _, mods in plan.batches()
    ):
        return f"{unit.name} cannot hit {target.name}: it would need 10 or more (WH-4)"
    return plan


def _rolled(result: wh.ShootingResult, target: Unit) -> dict[str, Any]:
    """A volley's or a side's blows' rolls and what they were read against (WH-2 ..
    WH-9), and the target's models before, as plain data."""
    before = troops(target)
    return {
        **{k: v for k, v in result.to_dict().items() if k != "account"},
        "save_profile": _hit_profile(target),
        "models": before.models,
        "wounds_per_model": before.wounds_per_model,
        "carried_wounds": before.carried_wounds,
    }


def _wound_models(target: Unit, unsaved: int) -> tuple[WarhammerTroops, int, int]:
    """Unsaved wounds remove whole models, the rest carried (the ART-35 decision)."""
    return _after_wounds(troops(target), unsaved)


# The odds of a round (``game.state.queries``) ask the same casualties and combat units
# of every pair of wounds dealt and taken: both are pure, so they are kept.
@functools.lru_cache(maxsize=4096)
def _after_wounds(before: WarhammerTroops, unsaved: int) -> tuple[WarhammerTroops, int, int]:
    removed, carried = models_removed_by_wounds(
        unsaved, before.wounds_per_model, before.carried_wounds, before.models
    )
    return replace(before, models=before.models - removed, carried_wounds=carried), removed, carried


def _hit_profile(target: Unit) -> dict[str, Any]:
    t = troops(target)
    return {"armour": t.armour, "shield": t.shield, "mount": t.mount, "ward": t.ward}


def _shoot(state: GameState, unit: Unit, target: Unit, *, stand_and_shoot: bool = False) -> None:
    plan = shooting_plan(state, unit, target, stand_and_shoot=stand_and_shoot)
    if isinstance(plan, str):
        raise IllegalCommand(plan)
    aimed = troops(target)
    result = wh.shoot(
        state.dice,
        plan.batches(),
        _stat(unit, "bs", 3),
        0,
        plan.strength,
        aimed.toughness,
        **_hit_profile(target),
        shots_per_model=plan.shots,
        shooter=unit.name,
        target=target.name,
    )
    rolled = _rolled(result, target)  # the target as the rolls found it
    after, removed, _ = _wound_models(target, result.unsaved)
    store_damage(target, after)
    unit.attacked = True  # ART-18
    unit.weapons_fired.append(SHOOTING)
    how = "stands and shoots at the charging" if stand_and_shoot else "shoots at"
    lines = [
        f"{unit.name} {how} {target.name}, {plan.distance} hexes: {plan.firing.describe()} (WH-1)",
        *(f"  {line_}" for line_ in result.account[1:]),
        f"  {target.name}: {plural(removed, 'model')} removed ({aimed.models} -> {after.models})",
    ]
    gone = mark_destroyed([target], lines)
    log_event(
        state,
        "attack",
        "\n".join(lines),
        data={
            "attacker": unit.id,
            "target": target.id,
            "weapon": SHOOTING,
            "hits": result.hits,
            "unsaved": result.unsaved,
            "removed": removed,
            # What the rolls were read against, so each volley can be checked again.
            "rolled": rolled,
            "destroyed": gone,
        },
        rolls=state.dice.take_records(),
    )


def close_combat_to_hit(ws: int, enemy_ws: int) -> int:
    """The roll to hit in close combat. Decision (the edition's table; the digest is
    silent): 3+ against a lower Weapon Skill, 5+ when the enemy's is more than twice
    ours, 4+ otherwise."""
    if ws > enemy_ws:
        return 3
    if enemy_ws > 2 * ws:
        return 5
    return 4


@dataclass(frozen=True)
class CombatPlan:
    """One round of close combat as it will be fought (WHC-1)."""

    attacks: tuple[int, int]  # attacker's, defender's
    to_hit: tuple[int, int]
    charges: tuple[str, str]  # each side's charge bonus: "none", "charge" or "downhill"
    faces: tuple[str, str]  # the face of the enemy each unit fights


def combat_plan(state: GameState | PlayerView, unit: Unit, target: Unit) -> CombatPlan | str:
    """The round of close combat ``unit`` could start against ``target``, or why not."""
    refusal = contact_refusal(
        unit, target, CLOSE_COMBAT, "close combat", "units", "started a close combat"
    )
    if refusal:
        return refusal
    a, b = troops(unit), troops(target)
    attacks = (
        min(a.models, RANK_WIDTH) * _stat(unit, "a", DEFAULT_ATTACKS),
        min(b.models, RANK_WIDTH) * _stat(target, "a", DEFAULT_ATTACKS),
    )
    ws_a, ws_b = _stat(unit, "ws", DEFAULT_WS), _stat(target, "ws", DEFAULT_WS)
    # WHC-1: the unit that moved into contact this turn charged (+1, +2 charging down
    # from higher ground), whichever of the two starts the round.
    charger = charger_of(unit, target)
    charges = ["none", "none"]
    if charger is not None:
        foe = target if charger is unit else unit
        assert charger.hex is not None and foe.hex is not None
        downhill = ground_level(state, charger.hex) > ground_level(state, foe.hex)
        charges[0 if charger is unit else 1] = "downhill" if downhill else "charge"
    return CombatPlan(
        attacks,
        (close_combat_to_hit(ws_a, ws_b), close_combat_to_hit(ws_b, ws_a)),
        (charges[0], charges[1]),
        (
            wh.attacked_face(unit.hex, target.hex, target.facing),
            wh.attacked_face(target.hex, unit.hex, unit.facing),
        ),
    )


def _strikes(
    state: GameState, striker: Unit, struck: Unit, attacks: int, needed: int
) -> tuple[dict[str, Any], wh.ShootingResult, str]:
    """One side's blows: to hit, then to wound and saves (WH-7 .. WH-9)."""
    ws, enemy_ws = _stat(striker, "ws", DEFAULT_WS), _stat(struck, "ws", DEFAULT_WS)
    rolls: tuple[int, ...] = ()
    if attacks:
        rolls = state.dice.roll(
            attacks, 6, f"{striker.name} close combat to hit (WS {ws} vs {enemy_ws}): {needed}+"
        ).dice
    hits = int(np.count_nonzero(wh.hits_from_rolls(needed, rolls))) if rolls else 0
    wounds = wh.automatic_hits(
        state.dice,
        hits,
        _stat(striker, "s", DEFAULT_STRENGTH),
        troops(struck).toughness,
        **_hit_profile(struck),
        shooter=striker.name,
        target=struck.name,
    )
    shown = ", ".join(map(str, rolls)) if rolls else "no dice"
    text = (
        f"{striker.name}: {plural(attacks, 'attack')}, WS {ws} vs {enemy_ws} hits on "
        f"{needed}+: {shown} -> {plural(hits, 'hit')}"
    )
    blows = {
        "attacks": attacks,
        "ws": [ws, enemy_ws],
        "needed": needed,
        "rolls": list(rolls),
        "hits": hits,
        **_rolled(wounds, struck),
    }
    return blows, wounds, text


def fall_back_hex(state: GameState | PlayerView, loser: Unit, winner: Unit) -> Hex | None:
    """A broken unit falls back one hex straight away from the winner (or the hex to
    either side of it); None when every one is taken or impassable."""
    assert loser.hex is not None and winner.hex is not None
    away = side_toward(winner.hex, loser.hex)
    for direction in (away, away % 6 + 1, (away + 4) % 6 + 1):
        h = neighbor(loser.hex, direction)
        if not state.area.contains(h) or state.units_at(h):
            continue
        if entry_cost(state.area, loser.hex, h, mover(loser)).open:
            return h
    return None


@dataclass(frozen=True)
class RoundOutcome:
    """A round of close combat once its blows are known (WHC-1): both units' troops
    after the casualties, the combat result, and which of the two lost it (0 the unit
    that started the round, 1 its target, None when both won)."""

    after: tuple[WarhammerTroops, WarhammerTroops]
    result: wh.CombatResult
    loser: int | None


def round_outcome(
    unit: Unit, target: Unit, plan: CombatPlan, dealt: int, taken: int
) -> RoundOutcome:
    """WHC-1: the round ``unit`` started against ``target`` when its blows got ``dealt``
    unsaved wounds through and the target's ``taken``: casualties, then each side's
    wounds caused, charge, full ranks left and command. The engine resolves a round
    with it and the odds (``game.state.queries``) weigh every outcome with it."""
    return next(round_outcomes(unit, target, plan, (dealt,), (taken,)))[2]


def round_outcomes(
    unit: Unit, target: Unit, plan: CombatPlan, dealt: Iterable[int], taken: Iterable[int]
) -> Iterator[tuple[int, int, RoundOutcome]]:
    """``round_outcome`` of every pair of wounds dealt and taken, as (dealt, taken,
    outcome): each unit's casualties and its place in the combat result are worked out
    once for each count of wounds it takes."""
    name_a = unit.name if unit.name != target.name else f"{unit.name} ({unit.side})"
    name_b = target.name if unit.name != target.name else f"{target.name} ({target.side})"
    ours = {t: _in_combat(unit, name_a, t, plan.faces[0]) for t in taken}
    theirs = {d: _in_combat(target, name_b, d, plan.faces[1]) for d in dealt}
    for d, (b_after, b_unit) in theirs.items():
        for t, (a_after, a_unit) in ours.items():
            result = _combat_result(
                wh.CombatSide(name_a, (a_unit,), wounds_caused=d, charge=plan.charges[0]),
                wh.CombatSide(name_b, (b_unit,), wounds_caused=t, charge=plan.charges[1]),
            )
            loser = None
            if len(result.losers) == 1:
                loser = 0 if result.losers[0] == name_a else 1
            yield d, t, RoundOutcome((a_after, b_after), result, loser)


def _in_combat(
    unit: Unit, name: str, wounds: int, face: str
) -> tuple[WarhammerTroops, wh.CombatUnit]:
    """``unit`` after taking ``wounds`` unsaved wounds, and as the combat result counts it."""
    after = _wound_models(unit, wounds)[0]
    return after, _combat_unit(unit, name, after, face)


# WHC-1's result of one pair of sides, pure: the odds ask it of every pair of wounds.
_combat_result = functools.lru_cache(maxsize=16384)(wh.combat_result)


def break_chance(loser: Unit, margin: int) -> Fraction:
    """The chance that ``loser``, beaten by ``margin``, breaks: 2d6 above its
    Leadership less the margin (``_break_test``)."""
    need = _stat(loser, "ld", DEFAULT_LEADERSHIP) - margin
    holds = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= need)
    return Fraction(36 - holds, 36)


def _close_combat(state: GameState, unit: Unit, target: Unit) -> None:
    plan = combat_plan(state, unit, target)
    if isinstance(plan, str):
        raise IllegalCommand(plan)
    # Both strike at once with the models they had before the round; casualties
    # come off after both have struck.
    blows_a, by_a, text_a = _strikes(state, unit, target, plan.attacks[0], plan.to_hit[0])
    blows_b, by_b, text_b = _strikes(state, target, unit, plan.attacks[1], plan.to_hit[1])
    a_before, b_before = troops(unit).models, troops(target).models
    outcome = round_outcome(unit, target, plan, by_a.unsaved, by_b.unsaved)
    a_after, b_after = outcome.after
    store_damage(target, b_after)
    store_damage(unit, a_after)
    fought(unit, target, CLOSE_COMBAT)
    lines = [f"{unit.name} fights {target.name} in close combat"]
    for text, result in ((text_a, by_a), (text_b, by_b)):
        lines.append(f"  {text}")
        lines += [f"    {line_}" for line_ in result.account[2:]]
    a_removed, b_removed = a_before - a_after.models, b_before - b_after.models
    lines.append(
        f"  {unit.name} loses {plural(a_removed, 'model')} ({a_before} -> {a_after.models}), "
        f"{target.name} {plural(b_removed, 'model')} ({b_before} -> {b_after.models})"
    )
    result = outcome.result
    lines += [f"  {line_}" for line_ in result.text().splitlines()]
    lines[-1] += " (WHC-1)"
    data: dict[str, Any] = {
        "attacker": unit.id,
        "target": target.id,
        "weapon": CLOSE_COMBAT,
        "result": result.to_dict(),
        "blows": [blows_a, blows_b],
    }
    if outcome.loser is not None:
        loser, winner = (unit, target) if outcome.loser == 0 else (target, unit)
        if troops(loser).models > 0:
            lines += _break_test(state, loser, winner, result.margin, data)
    data["destroyed"] = mark_destroyed([target, unit], lines)
    log_event(state, "attack", "\n".join(lines), data=data, rolls=state.dice.take_records())


COMMAND = ("standard", "battle_standard", "musician")


def _combat_unit(unit: Unit, name: str, after: WarhammerTroops, face: str) -> wh.CombatUnit:
    """WHC-1: the unit in the combat result: its full ranks after casualties and its
    command from the profile (standard +1, army battle standard +1, a musician breaks
    ties), carried while a model is left to carry them."""
    flags = tuple(bool(unit.profile.get(key, False)) for key in COMMAND)
    return _command_unit(name, after.models, face, flags)


@functools.lru_cache(maxsize=4096)
def _command_unit(name: str, models: int, face: str, flags: tuple[bool, ...]) -> wh.CombatUnit:
    alive = models > 0
    command = {key: alive and flag for key, flag in zip(COMMAND, flags, strict=True)}
    return wh.CombatUnit(name, models // RANK_WIDTH, attacking=face, **command)


def standing_scores(unit: Unit, target: Unit, plan: CombatPlan) -> tuple[wh.SideScore, ...]:
    """WHC-1: each side's combat result before any blow lands (charge, ranks, command,
    flank or rear): what the wounds of the round will be added to."""
    return tuple(
        wh.side_score(
            wh.CombatSide(
                u.name, (_combat_unit(u, u.name, troops(u), face),), wounds_caused=0, charge=charge
            )
        )
        for u, face, charge in zip((unit, target), plan.faces, plan.charges, strict=True)
    )


def _break_test(
    state: GameState, loser: Unit, winner: Unit, margin: int, data: dict[str, Any]
) -> list[str]:
    """Decision: the loser tests its Leadership less the margin on 2d6; above it, the
    unit breaks and falls back one hex, or is cut down when it has nowhere to go."""
    leadership = _stat(loser, "ld", DEFAULT_LEADERSHIP)
    need = leadership - margin
    roll = state.dice.roll(2, 6, f"{loser.name} break test: Ld {leadership} - {margin}")
    head = (
        f"  {loser.name} lost by {margin}: break test 2d6 {roll.total} against Ld "
        f"{leadership} - {margin} = {need}"
    )
    if roll.total <= need:
        data["broken"] = None
        return [f"{head}: it holds"]
    data["broken"] = loser.id
    to = fall_back_hex(state, loser, winner)
    if to is None:
        store_damage(loser, replace(troops(loser), models=0, carried_wounds=0))
        data["fell_back"] = None
        return [f"{head}: it breaks, has nowhere to flee and is cut down"]
    loser.hex = to
    data["fell_back"] = [to.q, to.r]
    return [f"{head}: it breaks and falls back to {state.area.label(to)}"]


# --- charges (WHC-1, WH-3) ----------------------------------------------------------------------

STAND_AND_SHOOT = "stand and shoot"


def _note_charges(state: GameState, unit: Unit, start: Hex | None) -> None:
    """A unit whose move brings it into contact with enemy units charges each (WHC-1);
    a charged unit with missiles that can fire at the charger may stand and shoot
    (WH-3): its player chooses."""
    for foe in moved_into_contact(state, unit, start):
        charge(state, unit, foe, "WHC-1")
        if isinstance(shooting_plan(state, foe, unit, stand_and_shoot=True), str):
            continue
        ask(
            state,
            foe.side,
            STAND_AND_SHOOT,
            f"{unit.name} charges {foe.name}: stand and shoot at it, -1 to hit (WH-3)?",
            [STAND_AND_SHOOT, HOLD],
            foe.id,
            unit.id,
        )


def _stand_and_shoot(state: GameState, question: dict[str, Any], choice: str) -> None:
    """The charged unit's answer, carried out at once (WH-3)."""
    charged, charger = reaction(state, question, choice)
    if choice == STAND_AND_SHOOT:
        _shoot(state, charged, charger, stand_and_shoot=True)
        return
    log_reaction(state, charged, charger, choice)


RULES = SystemRules(
    WARHAMMER,
    *by_weapon(
        WARHAMMER,
        "a Warhammer unit",
        {SHOOTING: (shooting_plan, _shoot), CLOSE_COMBAT: (combat_plan, _close_combat)},
    ),
    move_ending=_note_charges,
    answers={STAND_AND_SHOOT: _stand_and_shoot},
)
