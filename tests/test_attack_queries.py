"""The exact odds of every direct attack, worked out once (``game.state.queries``)
over the game state or a side's view alike, and the AI that scores its attacks and its
answers to the rules' questions by them (ART-32a, BS-4, BS-14, WH-3, WHC-1, TS-10, TS-13).

Each test states its own numbers; the games are built and moved through ``apply``.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from game.ai.attacks import WHOLE_UNIT, answer_candidates, attack_candidates, worth
from game.ai.candidates import Board, best, unit_value
from game.ai.memory import Memory
from game.ai.personality import level, personality
from game.ai.policy import make_policy
from game.board.terrain import BUILDING
from game.dice import Dice
from game.hexmath import neighbor, step
from game.rules import battletech as bt
from game.state import Attack, GunAction, acting_side, apply, legal_commands, new_game, player_view
from game.state import combat as cs
from game.state.combat.battletech import target_number
from game.state.model import ATTACK, GameState
from game.state.queries import attack_odds, attack_odds_of, shooting_odds
from tests.test_engine_systems import (
    ARCHERS,
    ORCS,
    game,
    place,
    to_attack_phase,
    unit,
)
from tests.test_figures_in_play import (
    RIFLES,
    acting_first,
    bowmen_with_magical_volleys_facing_foot,
    play_moves,
)
from tests.test_ui_artillery import attack_duel

ROOT = Path(__file__).resolve().parents[1]
FIGURE_SCENARIOS = ["hold_the_ford", "burning_bridge", "fort_pewter"]


def board_of(state: GameState, side: str) -> Board:
    view = player_view(state, side)
    memory = Memory()
    memory.observe(view)
    return Board.read(view, memory, level("normal"), personality("steady"))


def test_ART_32a_the_engine_the_window_and_the_ai_read_one_to_hit_number() -> None:
    """ART-32a: the mech's to-hit number, its breakdown and its chance are the engine's
    ``target_number`` whether asked of the state or of north's view, and the engine
    logs the same breakdown when the shot is fired."""
    state = attack_duel()
    view = player_view(state, "north")
    shooter, aimed = state.units["n-close"], state.units["s-mech"]
    tn = target_number(state, shooter, aimed, "medium_laser")
    assert not isinstance(tn, str) and tn is not None
    seen = attack_odds_of(view, view.units["n-close"], view.units["s-mech"], "medium_laser")
    assert seen == attack_odds_of(state, shooter, aimed, "medium_laser")
    assert seen.chance == pytest.approx(bt.hit_probability(tn))
    assert seen.expected == pytest.approx(bt.hit_probability(tn) * 5)  # a medium laser does 5
    assert seen.share is None  # BattleTech damage lands on locations
    events = apply(state, Attack("north", "n-close", "s-mech", "medium_laser"))
    assert f"[{tn.breakdown()}]" in events[-1].text
    assert tn.breakdown() in seen.lines[0]


def test_ART_32a_weapons_that_share_a_units_sight_read_as_each_asked_alone() -> None:
    """ART-32a, ART-18: the listed attacks ask every weapon of a unit with the line of
    sight, woods and spotting its weapons share worked out once; each answer is the
    one ``target_number`` gives asked alone (a shot, or a weapon not carried) before
    and after a weapon has fired, and a pair is listed where that answer is a shot."""
    state = attack_duel()
    shooter = state.units["n-close"]
    weapons = ["medium_laser", "machine_gun", "lrm5", "large_laser"]
    shooter.profile = {**shooter.profile, "weapons": [*weapons, "machine_gun"]}
    enemies = [u for u in state.living("south") if u.hex is not None]
    asked = [(e, w) for e in enemies for w in [*weapons, "ppc"]]  # no PPC carried

    def alone() -> list:
        return [target_number(state, shooter, e, w) for e, w in asked]

    shared: dict = {}
    before = alone()
    assert [target_number(state, shooter, e, w, shared) for e, w in asked] == before
    assert {e.id for e in enemies} <= set(shared)
    assert [target_number(state, shooter, e, w, shared) for e, w in asked] == before
    assert len({isinstance(tn, str) for tn in before}) == 2  # shots and refusals
    assert cs.attack_options(state, shooter) == [
        (e.id, w) for (e, w), tn in zip(asked, before, strict=True) if not isinstance(tn, str)
    ]
    apply(state, Attack("north", "n-close", "s-mech", "medium_laser"))
    assert [target_number(state, shooter, e, w, {}) for e, w in asked] == alone()


def test_ART_32a_MAP_5_sight_kept_for_the_attacks_follows_a_demolished_building() -> None:
    """ART-32a, MAP-5: the line of sight and woods of a shot are kept while the map
    stands; a building demolished on the line (rubble blocks nothing, ART-29) lets
    the shot through at once, on the state and on a side's view alike."""
    state = attack_duel()
    area = state.area
    shooter, aimed = state.units["n-close"], state.units["s-mech"]
    for building in area.hexes():
        ends = (neighbor(building, 4), neighbor(building, 1))
        if int(area.terrain[area.index_of(building)]) == BUILDING and all(
            area.index_of(h) >= 0 for h in ends
        ):
            break
    # A shot across the building, both eyes on the ground.
    shooter.hex, aimed.hex = ends
    shooter.height = aimed.height = 0

    def on_the_state() -> object:
        return target_number(state, shooter, aimed, "medium_laser")

    def on_the_view() -> object:
        seen = player_view(state, "north")
        return target_number(seen, seen.units["n-close"], seen.units["s-mech"], "medium_laser")

    for _ in range(2):  # worked out, then kept (the state's area asked last)
        assert "is higher than both ends" in str(on_the_view())
        assert "is higher than both ends" in str(on_the_state())
    assert area.demolish(building)
    shot = on_the_state()
    assert not isinstance(shot, str) and shot == on_the_view()


def test_WH_3_stand_and_shoot_odds_and_the_ai_stands_and_shoots() -> None:
    """WH-3: five archers (BS 3) standing and shooting at the charging orcs need 5+ (1/3),
    wound T4 with S3 on 5+ (1/3), and the orcs' 5+ save (light armour, shield) fails 2/3:
    2/27 a shot, 10/27 unsaved wounds expected from five shots, at least one with
    1 - (25/27)^5. The AI answers the charge by standing and shooting: worth a share of
    the orcs, where holding is worth nothing."""
    state = game(
        [unit("archers", "north", "0505", 4, ARCHERS), unit("orcs", "south", "0510", 1, ORCS)]
    )
    archers = state.units["archers"]
    place(state, "orcs", step(archers.hex, 4, 3), facing=1)
    play_moves(state, {"orcs": (neighbor(archers.hex, 4), 1)})
    assert state.questions[0]["topic"] == cs.STAND_AND_SHOOT
    view = player_view(state, "north")
    odds = shooting_odds(view, view.units["archers"], view.units["orcs"], stand_and_shoot=True)
    assert odds.expected == pytest.approx(float(Fraction(10, 27)))
    assert odds.chance == pytest.approx(float(1 - Fraction(25, 27) ** 5))
    assert odds.share == pytest.approx(float(Fraction(10, 27) / 20))
    board = board_of(state, "north")
    found = answer_candidates(board, legal_commands(state, "north"))
    scores = {c.command.choice: c.score for c in found}
    assert scores[cs.HOLD] == 0.0
    orcs = unit_value(view.units["orcs"])  # foot counts half a unit
    assert scores[cs.STAND_AND_SHOOT] == pytest.approx(
        WHOLE_UNIT * orcs * float(Fraction(10, 27)) / 20
    )
    assert best(found).command.choice == cs.STAND_AND_SHOOT


def test_WHC_1_close_combat_odds_count_the_blows_both_ways() -> None:
    """WHC-1: two units of orcs side by side, five in each front rank, one attack each:
    WS 3 against WS 3 hits on 4+ (1/2), S3 wounds T4 on 5+ (1/3), the 5+ save fails 2/3:
    5/9 unsaved wounds expected each way. Even blows are worth nothing to the normal AI,
    so it does not start the round; the easy AI does not weigh the blows struck back
    and starts it."""
    state = game([unit("men", "north", "0505", 4, ORCS), unit("orcs", "south", "0510", 1, ORCS)])
    place(state, "orcs", neighbor(state.units["men"].hex, 4), facing=1)
    to_attack_phase(state)
    acting_first(state, "north")
    view = player_view(state, "north")
    [odds] = [o for o in attack_odds(view, "men", "orcs") if o.weapon == cs.CLOSE_COMBAT]
    assert odds.refusal is None and odds.chance is None
    assert odds.expected == pytest.approx(5 / 9)
    assert odds.share == pytest.approx(5 / 9 / 20) and odds.cost == pytest.approx(5 / 9 / 20)
    assert "0.56 dealt, 0.56 taken" in odds.lines[1]
    men, orcs = view.units["men"], view.units["orcs"]
    assert worth(odds, men, orcs) == pytest.approx(0.0)
    found = attack_candidates(board_of(state, "north"), legal_commands(state, "north"))
    assert best(found).command == found[0].command  # ends its attacks
    easy = replace(board_of(state, "north"), level=level("easy"))
    fight = Attack("north", "men", "orcs", cs.CLOSE_COMBAT)
    assert best(attack_candidates(easy, legal_commands(state, "north"))).command == fight


def test_BS_14_the_ai_looses_the_magical_volley_when_its_dice_are_better() -> None:
    """BS-14, BS-4: the bowmen's magical volley rolls d12 where the ordinary one rolls
    d6: more figures of the foot removed on average, so the AI looses it. Each volley's
    chance is that of at least one figure removed, and its share the figures removed
    over the foot's twelve."""
    state = bowmen_with_magical_volleys_facing_foot()
    view = player_view(state, "north")
    odds = {o.weapon: o for o in attack_odds(view, "bows", "foot")}
    magical, missile = odds[cs.MAGICAL], odds[cs.MISSILE]
    assert magical.expected > missile.expected > 0
    for o in (magical, missile):
        assert 0 < o.chance < 1 and o.share == pytest.approx(o.expected / 12)
    found = attack_candidates(board_of(state, "north"), legal_commands(state, "north"))
    assert best(found).command == Attack("north", "bows", "foot", cs.MAGICAL)


def test_TS_10_the_ai_takes_an_unguarded_gun_for_sure() -> None:
    """TS-10: a warrior within 1 step of an enemy gun no enemy warrior guards takes it
    without a fight: the query says so for certain, and the AI counts the gun twice
    (the enemy's loss, its own gain)."""
    gun = {"system": "toysoldiers", "type": "gun", "gun_type": "cannon", "shooter": "7/3 - 1"}
    state = game([unit("rifles", "north", "0505", 4, RIFLES), unit("gun", "south", "0512", 1, gun)])
    place(state, "gun", neighbor(state.units["rifles"].hex, 4))
    to_attack_phase(state)
    acting_first(state, "north")
    view = player_view(state, "north")
    rifles, aimed = view.units["rifles"], view.units["gun"]
    odds = attack_odds_of(view, rifles, aimed, cs.CAPTURE)
    assert (odds.chance, odds.share, odds.cost) == (1.0, 1.0, 0.0)
    take = GunAction("north", "rifles", "gun", cs.CAPTURE)
    found = attack_candidates(board_of(state, "north"), legal_commands(state, "north"))
    assert best(found).command == take
    assert best(found).score == worth(odds, rifles, aimed) == 2 * WHOLE_UNIT * unit_value(aimed)


def test_TS_13_the_ai_fires_after_its_manoeuvre_by_the_shots_odds() -> None:
    """TS-13: the rifles have manoeuvred and may fire at once (chance 3 at the enemy
    rifles: hit 1/2, one warrior of one): the shot is worth half the enemy unit; holding
    fire keeps a fight for a gun, and there is none in reach, so it is worth nothing."""
    state = game(
        [unit("n", "north", "0505", 4, RIFLES), unit("s", "south", "0512", 1, RIFLES)],
        options={"fire_after_manoeuvre": True},
    )
    n = state.units["n"]
    play_moves(state, {"n": (step(n.hex, 4, 2), 4)})
    found = answer_candidates(board_of(state, "north"), legal_commands(state, "north"))
    scores = {c.command.choice: c.score for c in found}
    assert scores == {"hold fire": 0.0, "fire at s": pytest.approx(WHOLE_UNIT / 2)}


@pytest.mark.parametrize("name", FIGURE_SCENARIOS)
def test_odds_from_a_view_are_the_engines_odds_when_nothing_is_hidden(name: str) -> None:
    """Principle 6: the odds a side reads from its own view are those the engine's plans
    give over the whole state, for every attack the AI may make in a game of the
    scenario, whenever the side knows of every enemy unit on the board."""
    state = new_game(ROOT / "maps" / f"{name}.toml", 3)
    policies = {s: make_policy("normal") for s in state.sides}
    dice = {s: Dice(n) for n, s in enumerate(state.sides)}
    compared = 0
    for _ in range(2500):
        if state.result is not None or compared >= 40:
            break
        side = acting_side(state)
        assert side is not None
        legal = legal_commands(state, side)
        view = player_view(state, side)
        hidden = any(u.hidden and u.hex is not None for u in state.living(state.other(side)))
        if state.phase == ATTACK and not hidden:
            for c in legal:
                if isinstance(c, Attack):
                    seen = attack_odds_of(view, view.units[c.unit], view.units[c.target], c.weapon)
                    whole = attack_odds_of(
                        state, state.units[c.unit], state.units[c.target], c.weapon
                    )
                    assert seen == whole, c
                    assert seen.refusal is None, c
                    compared += 1
        apply(state, policies[side].choose(view, legal, dice[side]))
    assert compared > 0


def test_WHC_1_the_close_combat_odds_are_those_of_the_engines_blows() -> None:
    """WHC-1: 400 seeded rounds of the orcs' close combat resolved by the engine deal
    and take on average what the query expects (5/9 unsaved wounds each way), within
    four standard errors."""
    state = game([unit("men", "north", "0505", 4, ORCS), unit("orcs", "south", "0510", 1, ORCS)])
    place(state, "orcs", neighbor(state.units["men"].hex, 4), facing=1)
    to_attack_phase(state)
    acting_first(state, "north")
    odds = attack_odds_of(state, state.units["men"], state.units["orcs"], cs.CLOSE_COMBAT)
    rounds = 400
    dealt, taken = [], []
    for seed in range(rounds):
        fought = copy.deepcopy(state)
        fought.dice = Dice(seed)
        blows = apply(fought, Attack("north", "men", "orcs", cs.CLOSE_COMBAT))[-1].data["blows"]
        dealt.append(blows[0]["unsaved"])
        taken.append(blows[1]["unsaved"])
    # Five attacks at 1/9 each: a binomial's variance.
    se = (5 * (1 / 9) * (8 / 9) / rounds) ** 0.5
    assert abs(sum(dealt) / rounds - odds.expected) < 4 * se
    assert abs(sum(taken) / rounds - odds.cost * 20) < 4 * se


def _standard_bearers_against_small_orcs() -> GameState:
    """Twenty orcs with a standard and a musician (four full ranks: +3, +1) facing
    ten plain orcs (two ranks: +1) side by side: even blows, the combat result leans
    to the bigger unit."""
    banner = {**ORCS, "standard": True, "musician": True}
    state = game(
        [
            unit("men", "north", "0505", 4, banner),
            unit("orcs", "south", "0510", 1, {**ORCS, "models": 10}),
        ]
    )
    place(state, "orcs", neighbor(state.units["men"].hex, 4), facing=1)
    to_attack_phase(state)
    acting_first(state, "north")
    return state


def test_WHC_1_break_odds_are_those_of_the_engines_break_tests() -> None:
    """WHC-1: 400 seeded rounds resolved by the engine break the loser (2d6 above its
    Leadership less the margin) as often as the query's exact break odds say, within
    four standard errors; a unit cornered against the map edge is cut down."""
    state = _standard_bearers_against_small_orcs()
    odds = attack_odds_of(state, state.units["men"], state.units["orcs"], cs.CLOSE_COMBAT)
    assert odds.breaks > 0.3 > odds.broken
    assert odds.cut_down == 0.0 and odds.cut_down_own == 0.0
    assert any("breaks" in line for line in odds.lines)
    rounds = 400
    broke = {"men": 0, "orcs": 0}
    for seed in range(rounds):
        fought = copy.deepcopy(state)
        fought.dice = Dice(seed)
        data = apply(fought, Attack("north", "men", "orcs", cs.CLOSE_COMBAT))[-1].data
        if data.get("broken"):
            broke[data["broken"]] += 1
    for uid, p in (("orcs", odds.breaks), ("men", odds.broken)):
        se = (p * (1 - p) / rounds) ** 0.5
        assert abs(broke[uid] / rounds - p) < 4 * se + 1e-9, (uid, broke[uid], p)


def test_WHC_1_a_broken_unit_with_nowhere_to_flee_is_cut_down_in_the_odds() -> None:
    """WHC-1: with every hex behind it taken, the loser that breaks is cut down: the
    odds count it whole, and the normal AI's worth of the round grows by it."""
    state = _standard_bearers_against_small_orcs()
    orcs, men = state.units["orcs"], state.units["men"]
    assert orcs.hex is not None and men.hex is not None
    free = attack_odds_of(state, men, orcs, cs.CLOSE_COMBAT)
    away = [neighbor(orcs.hex, d) for d in range(1, 7)]
    blockers = [h for h in away if h != men.hex and state.area.contains(h)]
    for k, h in enumerate(blockers):
        uid = f"wall{k}"
        state.units[uid] = replace(copy.deepcopy(orcs), id=uid, hex=h)
    cornered = attack_odds_of(state, men, orcs, cs.CLOSE_COMBAT)
    assert cornered.breaks == pytest.approx(free.breaks)
    assert cornered.cut_down == pytest.approx(cornered.breaks) and cornered.cut_down > 0
    stakes = (0.3, 0.3)
    assert worth(cornered, men, orcs, stakes=stakes) > worth(free, men, orcs, stakes=stakes)


def test_WHC_1_normal_starts_a_round_its_combat_result_wins_easy_does_not_weigh_it() -> None:
    """WHC-1: the blows are even (5/9 unsaved wounds each way) but the ranks and the
    standard win the round: the normal AI counts the break test and fights; without
    the break test (easy) the round is worth the blows alone."""
    state = _standard_bearers_against_small_orcs()
    view = player_view(state, "north")
    [odds] = [o for o in attack_odds(view, "men", "orcs") if o.weapon == cs.CLOSE_COMBAT]
    men, orcs = view.units["men"], view.units["orcs"]
    blows_only = worth(odds, men, orcs)
    with_breaks = worth(odds, men, orcs, stakes=(0.3, 0.3))
    assert with_breaks - blows_only == pytest.approx(
        WHOLE_UNIT * 0.3 * (odds.breaks - odds.broken) * unit_value(orcs)
    )
    assert with_breaks > blows_only + 1.0
    fight = Attack("north", "men", "orcs", cs.CLOSE_COMBAT)
    found = attack_candidates(board_of(state, "north"), legal_commands(state, "north"))
    assert best(found).command == fight
    assert not level("easy").weighs_break_tests and level("hard").weighs_break_tests


def test_ART_32a_each_weapon_carried_fires_once_a_turn_two_of_a_kind_fire_twice() -> None:
    """ART-32a: a weapon fires once a turn, and each one the unit carries counts: a mech
    with two medium lasers fires a medium laser twice, and the third shot is refused
    with the reason; the legal commands and the attack odds follow the engine."""
    state = attack_duel()
    shooter = state.units["n-close"]
    shooter.profile["weapons"] = ["medium_laser", "medium_laser"]
    shot = Attack("north", "n-close", "s-mech", "medium_laser")
    assert [c for c in legal_commands(state, "north") if c == shot] == [shot]
    apply(state, shot)
    assert shooter.weapons_fired == ["medium_laser"]
    assert shot in legal_commands(state, "north")
    (odds,) = attack_odds(player_view(state, "north"), "n-close", "s-mech")
    assert odds.refusal is None and odds.chance > 0
    apply(state, shot)
    assert shot not in legal_commands(state, "north")
    refusal = target_number(state, shooter, state.units["s-mech"], "medium_laser")
    assert refusal == f"{shooter.name} has already fired all 2 of its Medium Lasers this turn"


def test_ART_32a_a_single_weapon_fires_once_a_turn() -> None:
    """ART-32a: one medium laser, one shot a turn."""
    state = attack_duel()
    shooter = state.units["n-close"]
    apply(state, Attack("north", "n-close", "s-mech", "medium_laser"))
    refusal = target_number(state, shooter, state.units["s-mech"], "medium_laser")
    assert refusal == f"{shooter.name} has already fired its Medium Laser this turn"


def test_ART_32a_offered_shots_are_those_with_a_to_hit_number_at_every_range() -> None:
    """ART-32a: the shots offered are exactly the weapons with a to-hit number at each
    target (the ones beyond long range are passed over before any line is drawn),
    for a mech carrying short- and long-ranged weapons, the target 1 to 24 hexes away."""
    from game.state.combat.battletech import _options

    state = attack_duel()
    shooter, target = state.units["n-close"], state.units["s-mech"]
    shooter.profile["weapons"] = ["small_laser", "medium_laser", "lrm5", "ppc"]
    start = target.hex
    assert shooter.hex is not None and start is not None
    offered_ranges = set()
    for steps in range(25):
        target.hex = step(start, 4, steps)  # hexes along one direction, most in the area
        if target.hex == shooter.hex:
            continue
        expected = [
            (target.id, weapon)
            for weapon in dict.fromkeys(shooter.profile["weapons"])
            if not isinstance(target_number(state, shooter, target, weapon), str)
        ]
        assert _options(state, shooter) == expected
        offered_ranges |= {steps} if expected else set()
    assert len(offered_ranges) > 3
