"""The weapon-attack phase of BATTLESYSTEM, Warhammer and toy-soldier units in the engine
(BS-*, WH-*, WHC-1, TS-*, ART-35), and the four scenarios that put them on the board.

Small games are built from scenario dicts on one sheet, played to the attack phase by
the engine, then scripted dice replace ``state.dice`` so every roll is known.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from game.artillery.flight import range_refusal
from game.dice import Dice, ScriptedDice
from game.hexmath import Hex, neighbor, step
from game.rules import toysoldiers as ts
from game.scenario import load_scenario, scenario_from_dict, validate_file
from game.state import (
    Answer,
    Attack,
    EndPhase,
    GunAction,
    Hold,
    IllegalCommand,
    Move,
    PlotFire,
    acting_side,
    apply,
    game_log,
    legal_commands,
    moving,
    new_game,
    replay,
    state_hash,
    systems,
)
from game.state import combat as cs
from game.state.board import battery_sheet
from game.state.model import ATTACK, MOVEMENT, SETUP, TARGETING, GameState

MAPS = Path(__file__).resolve().parents[1] / "maps"
NEW_SCENARIOS = ("hold_the_ford", "burning_bridge", "fort_pewter", "strike_on_market_town")

BOWMEN = {
    "system": "battlesystem",
    "type": "infantry",
    "figures": 12,
    "frontage": 6,
    "ad": "6*4",
    "ar": 8,
    "hits_per_figure": 2,
    "move": 6,
    "missile_ranges": [7, 14, 21],
}
FOOT = {
    "system": "battlesystem",
    "type": "infantry",
    "figures": 12,
    "frontage": 6,
    "ad": "8",
    "ar": 7,
    "hits_per_figure": 3,
    "move": 6,
}
ARCHERS = {
    "system": "warhammer",
    "type": "infantry",
    "models": 10,
    "move": 4,
    "bs": 3,
    "t": 3,
    "w": 1,
    "weapon_range": 24,
    "weapon_strength": 3,
}
ORCS = {
    "system": "warhammer",
    "type": "infantry",
    "models": 20,
    "move": 4,
    "bs": 3,
    "t": 4,
    "w": 1,
    "armour": "light",
    "shield": True,
    "ld": 7,
}
ALL_GUNS = ["cannon", "howitzer", "mortar", "machine gun"]


def unit(uid: str, side: str, hex_: str, facing: int, profile: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": uid,
        "side": side,
        "sheet": [0, 0],
        "hex": hex_,
        "facing": facing,
        "profile": profile,
    }


def game(
    units: list[dict[str, Any]],
    *,
    artillery: list[dict[str, Any]] | None = None,
    predesignated: list[dict[str, Any]] | None = None,
    seed: int = 1,
    sheet: str = "farmland",
    options: dict[str, Any] | None = None,
) -> GameState:
    """A one-sheet game (farmland unless told, north against south) of these units."""
    data: dict[str, Any] = {
        "scenario": {
            "name": "Test",
            "briefing": "A test.",
            "home_edges": "north-south",
            "turns": 6,
        },
        "options": {"predesignated_hexes": bool(predesignated), **(options or {})},
        "layout": [{"position": [0, 0], "sheet": sheet}],
        "units": units,
    }
    if artillery:
        data["artillery"] = artillery
    if predesignated:
        data["predesignated"] = predesignated
    return new_game(scenario_from_dict(data, "<test>"), seed)


def to_attack_phase(state: GameState, opening: ScriptedDice | None = None) -> None:
    """End set-up, hold every unit and end targeting; ``opening`` becomes the dice just
    before the attack phase opens (the rolls of TS-1)."""
    while state.phase != ATTACK:
        side = acting_side(state)
        assert side is not None
        if state.phase == MOVEMENT:
            mover = next(u for u in state.living(side) if moving.can_move(u) and not u.moved)
            apply(state, Hold(side, mover.id))
            continue
        if state.phase == TARGETING and len(state.done) == 1 and opening is not None:
            state.dice = opening
        apply(state, EndPhase(side))
    if state.questions and state.questions[0]["topic"] == cs.ORDER_OF_FIRE:
        # TS-1: the initiative winner chooses to fire first.
        apply(state, Answer(state.questions[0]["side"], cs.FIRE_FIRST))


def place(state: GameState, uid: str, at: Hex, facing: int | None = None) -> None:
    u = state.units[uid]
    u.hex = at
    if facing is not None:
        u.facing = facing


def last(state: GameState, kind: str):
    return next(e for e in reversed(state.log) if e.kind == kind)


def fingerprint(state: GameState) -> str:
    """The state hash with the dice left out (scripted dice have no saved form)."""
    dice = state.dice
    state.dice = Dice(0)
    try:
        return state_hash(state)
    finally:
        state.dice = dice


def refused(state: GameState, command, match: str) -> None:
    """The command is refused with a reason before any die is rolled, and nothing in
    the game changes."""
    before = fingerprint(state)
    left = getattr(state.dice, "remaining", None)
    with pytest.raises(IllegalCommand, match=match):
        apply(state, command)
    assert fingerprint(state) == before
    assert getattr(state.dice, "remaining", None) == left


# --- BATTLESYSTEM ------------------------------------------------------------------------


def bowmen_and_foot(distance: int) -> GameState:
    state = game(
        [
            unit("bows", "north", "0507", 4, BOWMEN),
            unit("foot", "south", "0512", 1, FOOT),
        ]
    )
    bows = state.units["bows"]
    place(state, "foot", step(bows.hex, 4, distance))
    to_attack_phase(state)
    return state


def test_BS_13_BS_18_missile_volley_from_two_ranks_at_short_range() -> None:
    """BS-13: both ranks of the bowmen have the foot in their front arc; short range,
    so one AD per figure (BS-18): 12 d6. BS-2: a 4 scores 1 hit; BS-3: d10 below
    AR 7 stands; BS-4: 10 hits on 3-hit figures remove 3 and carry 1."""
    state = bowmen_and_foot(5)
    volley = Attack("south", "foot", "bows", cs.MISSILE)
    assert volley not in legal_commands(state, "south")  # foot have no missiles
    plan = cs.missile_plan(state, state.units["bows"], state.units["foot"])
    assert not isinstance(plan, str)
    assert (plan.band, len(plan.direct), plan.dice_count) == ("short", 12, 12)
    side = acting_side(state)
    if side == "south":
        apply(state, EndPhase("south"))
    assert Attack("north", "bows", "foot", cs.MISSILE) in legal_commands(state, "north")
    state.dice = ScriptedDice([(6, 4)] * 12 + [(10, 1)] * 10 + [(10, 9)] * 2)
    events = apply(state, Attack("north", "bows", "foot", cs.MISSILE))
    assert state.dice.remaining == 0
    foot = systems.damage_state(state.units["foot"])
    assert (foot.figures, foot.carried_hits) == (9, 1)
    text = events[-1].text
    assert "12 AD d6" in text and "short range" in text and "10 stand" in text
    assert "3 figures removed (12 -> 9), 1 hit carried (BS-4)" in text
    assert [r.sides for r in events[-1].rolls] == [6, 10]
    bows = state.units["bows"]
    assert bows.attacked and cs.MISSILE in bows.weapons_fired  # ART-18
    # BS-9: the figures that fired are marked and do not melee this turn.
    assert all(ch in "F." for ch in "".join(systems.damage_state(bows).ranks[:2]))
    refused(state, Attack("north", "bows", "foot", cs.MISSILE), "already loosed")


def test_BS_18_medium_range_halves_the_attack_dice_and_long_range_thirds_them() -> None:
    """BS-18: medium range x0.5, long range x0.33, rounded up (BS-7)."""
    for distance, band, divisor in ((10, "medium", 2), (16, "long", 3)):
        state = bowmen_and_foot(distance)
        plan = cs.missile_plan(state, state.units["bows"], state.units["foot"])
        assert not isinstance(plan, str)
        assert plan.band == band
        assert plan.dice_count == -(-len(plan.direct) // divisor)


def test_BS_13_no_volley_beyond_long_range_or_at_an_enemy_in_melee_with_friends() -> None:
    """BS-13: beyond long range no fire; nor at an enemy in melee with a friendly unit."""
    state = game(
        [
            unit("bows", "north", "0507", 4, {**BOWMEN, "missile_ranges": [3, 4, 5]}),
            unit("foot", "south", "0512", 1, FOOT),
        ]
    )
    place(state, "foot", step(state.units["bows"].hex, 4, 9))
    to_attack_phase(state)
    assert Attack("north", "bows", "foot", cs.MISSILE) not in legal_commands(state, "north")
    reason = cs.missile_plan(state, state.units["bows"], state.units["foot"])
    assert isinstance(reason, str) and "out of range" in reason

    state = game(
        [
            unit("bows", "north", "0507", 4, BOWMEN),
            unit("foot", "south", "0512", 1, FOOT),
            unit("friends", "north", "0812", 4, FOOT),
        ]
    )
    foot = state.units["foot"]
    place(state, "friends", neighbor(foot.hex, 3))
    to_attack_phase(state)
    reason = cs.missile_plan(state, state.units["bows"], foot)
    assert isinstance(reason, str) and "in melee with a friendly unit (BS-13)" in reason


def test_BS_17_figures_fire_over_a_friendly_regiment_at_half_dice() -> None:
    """BS-15/BS-17: a friendly counter on a figure's line, nearer the shooter than the
    target, is fired over indirectly (x0.5 AD); an enemy counter there blocks."""
    for side, indirect in (("north", True), ("south", False)):
        state = game(
            [
                unit("bows", "north", "0507", 4, BOWMEN),
                unit("foot", "south", "0512", 1, FOOT),
                unit("between", side, "0903", 1, FOOT),
            ]
        )
        bows = state.units["bows"]
        place(state, "between", step(bows.hex, 4, 2))
        place(state, "foot", step(bows.hex, 4, 6))
        to_attack_phase(state)
        plan = cs.missile_plan(state, bows, state.units["foot"])
        assert not isinstance(plan, str)
        if indirect:
            assert plan.indirect and plan.band == "short"
            assert plan.dice_count == len(plan.direct) + -(-len(plan.indirect) // 2)
        else:
            assert not plan.indirect and len(plan.direct) < 12


def test_BS_9_melee_both_regiments_strike_at_once_with_their_figures_before_the_round() -> None:
    """BS-9: no advantage (same weapons, same size), so both attack simultaneously and
    casualties come off after both: the defender strikes with all its 11 figures in
    contact (the front rank and the zig-zag's second-rank figures that touch, plus
    one either side, regular formation) although the attacker's blows remove 2 of
    them. BS-4: hits carry over."""
    state = game(
        [
            unit("red", "north", "0507", 4, FOOT),
            unit("blue", "south", "0510", 1, FOOT),
        ]
    )
    red = state.units["red"]
    place(state, "blue", neighbor(red.hex, 4))
    to_attack_phase(state)
    side = acting_side(state)
    attacker, defender = ("red", "blue") if side == "north" else ("blue", "red")
    assert Attack(side, attacker, defender, cs.MELEE) in legal_commands(state, side)
    plan = cs.melee_plan(state, state.units[attacker], state.units[defender])
    assert not isinstance(plan, str) and plan.advantage is None
    # Regular 6-wide regiments face to face: 11 AD d8 each.
    state.dice = ScriptedDice(
        [
            *[(8, 6)] * 3,  # attacker: 3 x 2 hits = 6 hits (BS-2)
            *[(8, 1)] * 8,
            *[(10, 1)] * 6,  # all 6 stand against AR 7: 2 figures of the defender
            *[(8, 4)] * 6,  # defender: 6 x 1 hit
            *[(8, 3)] * 5,
            *[(10, 1)] * 4,  # 4 stand, 2 saved: 1 figure removed, 1 hit carried
            *[(10, 8)] * 2,
        ]
    )
    events = apply(state, Attack(side, attacker, defender, cs.MELEE))
    assert state.dice.remaining == 0
    hit_defender = systems.damage_state(state.units[defender])
    hit_attacker = systems.damage_state(state.units[attacker])
    assert (hit_defender.figures, hit_defender.carried_hits) == (10, 0)
    assert (hit_attacker.figures, hit_attacker.carried_hits) == (11, 1)
    assert "both strike at once (BS-9)" in events[-1].text
    refused(state, Attack(side, attacker, defender, cs.MELEE), "already led a melee")
    if side == state.active:
        apply(state, EndPhase(side))
    other = state.other(side)
    refused(state, Attack(other, defender, attacker, cs.MELEE), "already fought their melee")


def test_BS_10_BS_12_charging_lances_strike_first_and_double_their_dice() -> None:
    """BS-12: cavalry that moved into contact charges (x2 AD); BS-10: lances against no
    long weapons hold the advantage and strike first."""
    knights = {
        **FOOT,
        "type": "cavalry",
        "figures": 4,
        "frontage": 4,
        "ad": "[12]8",
        "weapon": "lance",
        "hits_per_figure": 4,
        "move": 12,
    }
    state = game(
        [
            unit("knights", "north", "0507", 4, knights),
            unit("foot", "south", "0510", 1, FOOT),
        ]
    )
    place(state, "foot", neighbor(state.units["knights"].hex, 4))
    to_attack_phase(state)
    state.units["knights"].charged = ["foot"]  # it rode into contact this turn (BS-12)
    plan = cs.melee_plan(state, state.units["knights"], state.units["foot"])
    assert not isinstance(plan, str)
    assert plan.advantage == "knights"
    assert plan.attacker.dice_multipliers == (2,)
    assert any("charged into contact" in n for n in plan.notes)
    assert any("melee advantage (lances against no long weapons)" in n for n in plan.notes)


def test_BS_4_the_last_figure_removed_destroys_the_regiment() -> None:
    """BS-4: hits past the last figure are lost and the regiment is destroyed."""
    state = bowmen_and_foot(5)
    foot = state.units["foot"]
    regiment = systems.damage_state(foot)
    systems.store_damage(foot, regiment.with_cells(regiment.figure_cells()[1:], "."))
    if acting_side(state) == "south":
        apply(state, EndPhase("south"))
    plan = cs.missile_plan(state, state.units["bows"], foot)
    assert not isinstance(plan, str)
    n = plan.dice_count
    state.dice = ScriptedDice([(6, 6)] * n + [(10, 1)] * (2 * n))
    events = apply(state, Attack("north", "bows", "foot", cs.MISSILE))
    assert foot.destroyed
    assert "foot is destroyed" in events[-1].text
    assert events[-1].data["destroyed"] == ["foot"]


# --- Warhammer ---------------------------------------------------------------------------


def archers_and_orcs(distance: int = 6) -> GameState:
    state = game(
        [unit("archers", "north", "0507", 4, ARCHERS), unit("orcs", "south", "0512", 1, ORCS)]
    )
    place(state, "orcs", step(state.units["archers"].hex, 4, distance))
    to_attack_phase(state)
    if acting_side(state) == "south":
        apply(state, EndPhase("south"))
    return state


def test_WH_2_WH_6_WH_7_WH_8_shooting_the_worked_example_rolls() -> None:
    """WH-1: the front rank of five fires. WH-6: BS3 rolls 1,2,2,4,6 -> two hits. WH-7:
    S3 against T4 wounds on 5+. WH-8: light armour and shield save on 5+; a 2 fails."""
    state = archers_and_orcs()
    state.dice = ScriptedDice([1, 2, 2, 4, 6, 5, 3, 2])
    events = apply(state, Attack("north", "archers", "orcs", cs.SHOOTING))
    assert state.dice.remaining == 0
    assert systems.damage_state(state.units["orcs"]).models == 19
    text = events[-1].text
    assert "need 4+ to hit; rolled 1, 2, 2, 4, 6: 2 hits" in text
    assert "S3 vs T4: need 5+" in text and "1 model removed (20 -> 19)" in text
    refused(state, Attack("north", "archers", "orcs", cs.SHOOTING), "already shot")


def test_WH_3_WH_6_moved_shooters_hit_one_less_with_the_same_rolls() -> None:
    """WH-3/WH-6: moved -1: the same rolls 1,2,2,4,6 now make one hit (5+)."""
    state = archers_and_orcs()
    state.units["archers"].movement_mode = "walked"
    state.dice = ScriptedDice([1, 2, 2, 4, 6, 6, 1])
    events = apply(state, Attack("north", "archers", "orcs", cs.SHOOTING))
    assert "moved -1: need 5+ to hit; rolled 1, 2, 2, 4, 6: 1 hit" in events[-1].text


def test_WH_3_long_range_and_soft_cover_are_modifiers_of_the_plan() -> None:
    """WH-3: beyond half the weapon's range -1 (WH-5: its own batch); woods about the
    target give soft cover -1."""
    state = archers_and_orcs(distance=14)
    plan = cs.shooting_plan(state, state.units["archers"], state.units["orcs"])
    assert not isinstance(plan, str)
    assert len(plan.firing.long_range) == 5 and plan.firing.short_range == ()
    state.units["orcs"].hex = state.area.hex_at((0, 0), "1403")  # light woods
    state.units["archers"].hex = state.area.hex_at((0, 0), "1408")
    state.units["archers"].facing = 1
    plan = cs.shooting_plan(state, state.units["archers"], state.units["orcs"])
    assert not isinstance(plan, str) and plan.cover == "soft"


def test_WH_1_no_shooting_into_close_combat() -> None:
    """WH-1: no firing at a unit in close combat with the shooter's side."""
    state = game(
        [
            unit("archers", "north", "0507", 4, ARCHERS),
            unit("orcs", "south", "0512", 1, ORCS),
            unit("friends", "north", "0811", 4, ORCS),
        ]
    )
    place(state, "friends", neighbor(state.units["orcs"].hex, 2))
    to_attack_phase(state)
    reason = cs.shooting_plan(state, state.units["archers"], state.units["orcs"])
    assert isinstance(reason, str) and "no firing into close combat (WH-1)" in reason


def close_combat_game() -> tuple[GameState, str, str, str]:
    state = game([unit("men", "north", "0507", 4, ORCS), unit("orcs", "south", "0512", 1, ORCS)])
    place(state, "orcs", neighbor(state.units["men"].hex, 4))
    to_attack_phase(state)
    side = acting_side(state)
    assert side is not None
    attacker, defender = ("men", "orcs") if side == "north" else ("orcs", "men")
    return state, side, attacker, defender


def test_WHC_1_close_combat_result_and_the_loser_falls_back() -> None:
    """Both front ranks strike (5 attacks, WS 3 vs 3: 4+). The attacker wounds twice,
    the defender not at all; WHC-1: 2 wounds + 4 full ranks (+3, the most) = 5
    against 3 ranks left (+2) = 2: the attacker wins by 3; the loser fails its break
    test (2d6 12 above Ld 7 - 3) and falls back one hex straight away."""
    state, side, attacker, defender = close_combat_game()
    before = state.units[defender].hex
    state.dice = ScriptedDice(
        [
            *(6, 6, 5, 1, 1),  # attacker to hit, 4+: 3 hits
            *(6, 5, 1),  # to wound S3 vs T4, 5+: 2 wounds
            *(2, 3),  # saves 5+ (light armour, shield): both fail
            *(1, 1, 2, 2, 3),  # defender to hit: none
            *(6, 6),  # break test 2d6 = 12
        ]
    )
    events = apply(state, Attack(side, attacker, defender, cs.CLOSE_COMBAT))
    assert state.dice.remaining == 0
    text = events[-1].text
    assert "wins 5 to 2, by 3 (WHC-1)" in text
    assert "break test 2d6 12 against Ld 7 - 3 = 4: it breaks and falls back" in text
    loser = state.units[defender]
    assert systems.damage_state(loser).models == 18
    assert loser.hex == neighbor(before, 4 if defender == "orcs" else 1)
    assert events[-1].data["result"]["margin"] == 3


def test_WHC_1_a_broken_unit_with_nowhere_to_flee_is_cut_down() -> None:
    """Decision (docs/engine-systems.md): a broken unit whose three fall-back hexes are
    taken is destroyed."""
    state, side, attacker, defender = close_combat_game()
    loser, winner = state.units[defender], state.units[attacker]
    from game.hexmath import side_toward

    away = side_toward(winner.hex, loser.hex)
    blockers = [neighbor(loser.hex, d) for d in (away, away % 6 + 1, (away + 4) % 6 + 1)]
    for n, h in enumerate(blockers):
        state.units[f"wall{n}"] = type(loser)(**{**vars(loser), "id": f"wall{n}", "hex": h})
    state.dice = ScriptedDice([6, 6, 5, 1, 1, 6, 5, 1, 2, 3, 1, 1, 2, 2, 3, 6, 6])
    events = apply(state, Attack(side, attacker, defender, cs.CLOSE_COMBAT))
    assert "nowhere to flee and is cut down" in events[-1].text
    assert loser.destroyed


# --- toy soldiers --------------------------------------------------------------------------


def rifles(figures: int = 4, **extra: Any) -> dict[str, Any]:
    return {
        "system": "toysoldiers",
        "type": "warrior",
        "figures": figures,
        "move": 4,
        "shooter": "6/3 - 1",
        **extra,
    }


def gun(gun_type: str = "mortar", shooter: str = "12/2 - 1 Н") -> dict[str, Any]:
    return {"system": "toysoldiers", "type": "gun", "gun_type": gun_type, "shooter": shooter}


def toy_game(opening: list[int] | None, extra: list[dict[str, Any]] = ()) -> GameState:
    state = game(
        [
            unit("n-rifles", "north", "0505", 4, rifles()),
            unit("s-rifles", "south", "0508", 1, rifles()),
            *extra,
        ]
    )
    to_attack_phase(state, None if opening is None else ScriptedDice(opening))
    return state


def test_TS_1_shooting_initiative_bonuses_and_the_winner_fires_first() -> None:
    """TS-1: each side rolls the game's two d6; the sums are the shooting bonuses and the
    higher one (south, 11 against 5) has the initiative and, by its choice, fires first."""
    state = toy_game([2, 3, 6, 5])
    phase = cs.shooting_phase(state)
    assert phase is not None
    assert phase.bonuses == {"north": 5, "south": 11}
    assert phase.order == ("south", "north")
    assert last(state, "order_of_fire").text == (
        "south chooses to fire first: south fires first (TS-1)"
    )
    assert state.active == "south"
    event = last(state, "shooting_initiative")
    assert "north 2+3 = 5, south 6+5 = 11 -> south has the initiative" in event.text
    assert [r.dice for r in event.rolls] == [(2,), (3,), (6,), (5,)]


def test_TS_2_a_shot_costs_a_point_and_the_budget_refuses_the_fourth() -> None:
    """TS-2: north (bonus 3, beating 2) spends one point a shot; the fourth shot is
    refused, and legal_commands stops offering shots."""
    state = toy_game([1, 2, 1, 1])
    assert state.active == "north"
    shot = Attack("north", "n-rifles", "s-rifles", cs.SHOT)
    for roll in (6, 6, 6):
        assert shot in legal_commands(state, "north")
        state.dice = ScriptedDice([roll])
        apply(state, shot)
    assert cs.shooting_phase(state).remaining("north") == 0
    assert shot not in legal_commands(state, "north")
    refused(state, shot, "no shooting points left")


def test_TS_4_TS_7_a_virtual_hit_kills_on_the_lower_half() -> None:
    """TS-4: 6/3 - 1 at armour 0 hits on 1-3; TS-7: C' 3, roll 1 kills (roll 2 wounds)."""
    state = toy_game([6, 6, 1, 1])
    state.dice = ScriptedDice([1])
    events = apply(state, Attack("north", "n-rifles", "s-rifles", cs.SHOT))
    assert "chance 3 = 3; d6 1 -> killed" in events[-1].text
    state.dice = ScriptedDice([2])
    events = apply(state, Attack("north", "n-rifles", "s-rifles", cs.SHOT))
    assert "d6 2 -> wounded" in events[-1].text
    warriors = systems.damage_state(state.units["s-rifles"])
    assert [w.status for w in warriors] == ["killed", "wounded", "fighting", "fighting"]


def test_TS_5_a_tower_lengthens_the_range_and_a_wall_covers_the_target() -> None:
    """TS-5: a warrior on the manor's 3-level tower (0807) shoots 3 steps farther and
    with chance +1; a target in a building hex stands on a wall (armour +1)."""
    state = game(
        [
            unit("n-rifles", "north", "0807", 4, rifles(1, shooter="4/3 - 1")),
            unit("s-rifles", "south", "1007", 1, rifles(1)),
        ],
        sheet="manor_park",
    )
    to_attack_phase(state, ScriptedDice([6, 6, 1, 1]))
    shooter, target = state.units["n-rifles"], state.units["s-rifles"]
    plan = cs.shot_plan(state, shooter, target)
    assert not isinstance(plan, str)
    assert plan.aim.number.breakdown() == "chance 3, target on a wall -1, tower +1 = 3"
    target.hex = step(shooter.hex, 4, 7)  # 4 steps + 3 from the tower
    plan = cs.shot_plan(state, shooter, target)
    assert not isinstance(plan, str) and plan.aim.distance == 7
    target.hex = step(shooter.hex, 4, 8)
    reason = cs.shot_plan(state, shooter, target)
    assert isinstance(reason, str) and "reaches 7 steps" in reason


def test_TS_6_no_shot_with_an_enemy_warrior_within_one_step() -> None:
    """TS-6: an enemy warrior one step away stops the fire of an ordinary weapon."""
    state = game(
        [
            unit("n-rifles", "north", "0505", 4, rifles()),
            unit("s-rifles", "south", "0508", 1, rifles()),
        ]
    )
    place(state, "s-rifles", neighbor(state.units["n-rifles"].hex, 4))
    to_attack_phase(state, ScriptedDice([6, 6, 1, 1]))
    reason = cs.shot_plan(state, state.units["n-rifles"], state.units["s-rifles"])
    assert isinstance(reason, str) and "(TS-6)" in reason


def test_TS_11_crew_refused_for_an_unqualified_warrior_and_a_gun_fires_only_crewed() -> None:
    """TS-11: a warrior qualified only on cannon may not crew the mortar; the gun has
    no crew and cannot fire; a qualified warrior crews it and then it fires."""
    extra = [
        unit("n-mortar", "north", "0604", 4, gun()),
        unit("n-cannoneer", "north", "0704", 4, rifles(1, qualified=["cannon"])),
        unit("n-bombers", "north", "0603", 4, rifles(1, qualified=["mortar"])),
    ]
    state = toy_game([6, 6, 1, 1], extra)
    mortar = state.units["n-mortar"]
    place(state, "n-cannoneer", neighbor(mortar.hex, 2))
    place(state, "n-bombers", neighbor(mortar.hex, 1))
    crew = GunAction("north", "n-cannoneer", "n-mortar", cs.CREW)
    assert crew not in legal_commands(state, "north")
    refused(state, crew, r"not qualified for mortar guns .*\(TS-11\)")
    refused(state, Attack("north", "n-mortar", "s-rifles", cs.SHOT), r"no crew .*\(TS-11\)")
    good = GunAction("north", "n-bombers", "n-mortar", cs.CREW)
    assert good in legal_commands(state, "north")
    apply(state, good)
    assert systems.damage_state(mortar).crew == "n-bombers#1"
    assert Attack("north", "n-mortar", "s-rifles", cs.SHOT) in legal_commands(state, "north")
    refused(state, good, "already crewed")


def disabled_gun_game() -> GameState:
    extra = [
        unit("n-gun", "north", "0604", 4, gun()),
        unit("n-mechanics", "north", "0603", 4, rifles(2, qualified=ALL_GUNS)),
    ]
    state = toy_game([6, 6, 1, 1], extra)
    place(state, "n-mechanics", neighbor(state.units["n-gun"].hex, 1))
    gun_unit = state.units["n-gun"]
    systems.store_damage(gun_unit, ts.disable_gun(systems.damage_state(gun_unit)))
    return state


def test_TS_9_a_disabled_gun_is_repaired_on_5_6_and_fires_from_the_next_turn() -> None:
    """TS-9: a mechanic qualified on all four types rolls; 5 repairs the gun, which may
    fire from the next turn; one roll per gun per turn."""
    state = disabled_gun_game()
    repair = GunAction("north", "n-mechanics", "n-gun", cs.REPAIR)
    assert repair in legal_commands(state, "north")
    state.dice = ScriptedDice([5])
    events = apply(state, repair)
    repaired = systems.damage_state(state.units["n-gun"])
    assert (repaired.status, repaired.ready_turn) == ("ready", state.turn + 1)
    assert "d6 5 -> repaired, may fire from turn" in events[-1].text
    assert [r.dice for r in events[-1].rolls] == [(5,)]
    refused(state, repair, "nothing to repair")
    apply(state, GunAction("north", "n-mechanics", "n-gun", cs.CREW))
    refused(state, Attack("north", "n-gun", "s-rifles", cs.SHOT), "just repaired")


def test_TS_9_repair_rolls_3_4_go_on_and_1_2_lose_the_gun() -> None:
    """TS-9: 3-4 the repair goes on next turn (one roll a turn); 1-2 the gun is lost."""
    state = disabled_gun_game()
    repair = GunAction("north", "n-mechanics", "n-gun", cs.REPAIR)
    state.dice = ScriptedDice([3])
    apply(state, repair)
    assert systems.damage_state(state.units["n-gun"]).status == "repairing"
    refused(state, repair, "has had its repair roll this turn")
    state = disabled_gun_game()
    state.dice = ScriptedDice([2])
    apply(state, GunAction("north", "n-mechanics", "n-gun", cs.REPAIR))
    assert state.units["n-gun"].destroyed


def test_TS_9_only_a_mechanic_of_all_four_gun_types_repairs() -> None:
    """TS-9: a warrior qualified on the mortar alone may not repair it."""
    state = disabled_gun_game()
    state.units["n-mechanics"].damage["warriors"][0]["qualified"] = ["mortar"]
    state.units["n-mechanics"].damage["warriors"][1]["qualified"] = ["mortar"]
    refused(
        state,
        GunAction("north", "n-mechanics", "n-gun", cs.REPAIR),
        r"qualified on all 4 gun types.*\(TS-9\)",
    )


def test_TS_10_an_unguarded_enemy_gun_is_captured_and_changes_side() -> None:
    """TS-10: a warrior within 1 step of an enemy gun with no guard within 1 step of it
    takes it: the gun unit now belongs to the captor, uncrewed."""
    extra = [unit("s-gun", "south", "1008", 1, gun("cannon", "7/3 - 1"))]
    state = toy_game([6, 6, 1, 1], extra)
    gun_unit = state.units["s-gun"]
    place(state, "n-rifles", neighbor(gun_unit.hex, 1))
    capture = GunAction("north", "n-rifles", "s-gun", cs.CAPTURE)
    assert capture in legal_commands(state, "north")
    events = apply(state, capture)
    assert gun_unit.side == "north"
    captured = systems.damage_state(gun_unit)
    assert (captured.owner, captured.crew) == ("north", None)
    assert "(TS-10)" in events[-1].text
    refused(state, capture, "already belongs to north")


@pytest.mark.parametrize(
    ("rolls", "won", "told"),
    [
        ((5, 2), True, "d6 5 + 4 warriors = 9 against the guards' d6 2 + 4 = 6: the captors win"),
        ((3, 3), False, "d6 3 + 4 warriors = 7 against the guards' d6 3 + 4 = 7: the guards hold"),
    ],
)
def test_TS_10_a_guarded_gun_is_taken_only_by_winning_the_melee(rolls, won, told) -> None:
    """TS-10: four south rifles stand within 1 step of the gun, so the four north rifles
    must win a melee first. The procedure (a decision): each side d6 + its warriors
    in the fight, the captors win on a higher total (odds 15/36 at four against
    four), a tie holds. 5 + 4 against 2 + 4: taken, a guard wounded. 3 + 4 against
    3 + 4: held, a captor wounded, and no second try this turn. Before, a guarded
    gun could not be taken at all."""
    extra = [unit("s-gun", "south", "1008", 1, gun("cannon", "7/3 - 1"))]
    state = toy_game([6, 6, 1, 1], extra)
    gun_unit = state.units["s-gun"]
    place(state, "n-rifles", neighbor(gun_unit.hex, 1))
    place(state, "s-rifles", neighbor(gun_unit.hex, 4))
    capture = GunAction("north", "n-rifles", "s-gun", cs.CAPTURE)
    assert capture in legal_commands(state, "north")
    plan = cs.capture_plan(state, state.units["n-rifles"], gun_unit)
    assert (plan.captors, len(plan.guards), plan.odds) == (4, 4, ts.Fraction(15, 36))
    state.dice = ScriptedDice(list(rolls))
    events = apply(state, capture)
    assert gun_unit.side == ("north" if won else "south")
    loser = state.units["s-rifles" if won else "n-rifles"]
    assert sum(w.status == "wounded" for w in systems.damage_state(loser)) == 1
    assert events[-1].data["won"] is won
    assert told in events[-1].text
    if not won:
        refused(state, capture, "already fought for a gun this turn")


def test_ART_35_TS_9_a_shell_on_a_gun_disables_it() -> None:
    """ART-35: a gun in the hit hex is disabled (TS-9). The battery fires at a
    pre-designated hex (ART-20: it lands there), one sheet away (flight 1 turn)."""
    state = game(
        [
            unit("n-rifles", "north", "0503", 4, rifles()),
            unit("s-gun", "south", "0812", 1, gun("cannon", "7/3 - 1")),
            unit("s-rifles", "south", "0514", 1, rifles()),
        ],
        artillery=[
            {
                "id": "n-arrow",
                "side": "north",
                "weapon": "arrow_iv_is",
                "gunnery": 4,
                "direction": "north",
                "along": 0,
                "distance": 1,
                "sheet": "rolling_hills",
                "hex": "0909",
            }
        ],
        predesignated=[{"side": "north", "sheet": [0, 0], "hex": "0812"}],
    )
    target = state.units["s-gun"].hex
    plotted = False
    while state.turn < 3:
        side = acting_side(state)
        assert side is not None
        if state.questions:
            apply(state, Answer(side, state.questions[0]["choices"][0]))
        elif state.phase == MOVEMENT:
            mover = next(u for u in state.living(side) if moving.can_move(u) and not u.moved)
            apply(state, Hold(side, mover.id))
        elif state.phase == TARGETING and side == "north" and not plotted:
            apply(state, PlotFire("north", "n-arrow", 1, target))
            plotted = True
        else:
            apply(state, EndPhase(side))
    arrival = last(state, "arrival").whole()
    assert arrival.turn == 2 and arrival.data["automatic"] == "pre-designated hex"
    assert "disabled: s-gun" in arrival.text
    assert systems.damage_state(state.units["s-gun"]).status == "disabled"
    assert not state.units["s-gun"].destroyed


# --- the scenarios ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NEW_SCENARIOS)
def test_new_scenario_file_validates(name: str) -> None:
    """`python main.py validate` accepts each new scenario; each has a briefing."""
    path = MAPS / f"{name}.toml"
    assert validate_file(str(path)) == []
    scenario = load_scenario(path)
    assert len(scenario.briefing) > 200 and scenario.victory


def random_command(state: GameState, rng: random.Random):
    """A random legal command. The attack phase (and sheet placement) draw from
    ``legal_commands``, a kind first and then a command of that kind; set-up ends at
    once; movement and targeting build their legal commands directly (``apply``
    checks them all the same), which keeps twenty games per scenario quick."""
    side = acting_side(state)
    assert side is not None
    if state.pending_sheet is not None or state.phase == ATTACK:
        groups: dict[tuple[str, str], list] = {}
        for c in legal_commands(state, side):
            key = (c.kind, getattr(c, "weapon", "") or getattr(c, "action", ""))
            groups.setdefault(key, []).append(c)
        return rng.choice(groups[rng.choice(sorted(groups))])
    if state.phase == SETUP:
        return EndPhase(side)
    if state.phase == MOVEMENT:
        movers = [u for u in state.living(side) if moving.can_move(u) and not u.moved]
        mover = rng.choice(movers)
        if rng.random() < 0.3:
            return Hold(side, mover.id)
        reach = moving.reach(state, mover)
        to = rng.choice(sorted(reach.costs()))
        return Move(side, mover.id, to, reach[to].facing)
    for battery in (u for u in state.living(side) if u.battery is not None):
        for piece in range(1, battery.battery.pieces + 1):  # type: ignore[union-attr]
            busy = any(
                p.battery == battery.id and p.piece == piece and p.fired_turn == state.turn
                for p in state.queue.plots
            )
            if busy or rng.random() < 0.5:
                continue
            h = rng.choice(state.area.hexes())
            weapon = battery.battery.weapon  # type: ignore[union-attr]
            if range_refusal(weapon, battery_sheet(state, battery), state.area.position_of(h)):
                continue
            return PlotFire(side, battery.id, piece, h)
    return EndPhase(side)


@pytest.mark.parametrize("name", NEW_SCENARIOS)
def test_new_scenario_plays_twenty_seeded_random_games_to_a_result(name: str) -> None:
    """Every new scenario plays to a result with random legal commands, 20 seeds; the
    last game replays from its log to the same state hash."""
    path = MAPS / f"{name}.toml"
    attacks = 0
    for seed in range(20):
        state = new_game(path, seed)
        rng = random.Random(seed)
        while state.result is None:
            command = random_command(state, rng)
            attacks += command.kind in ("attack", "gun")
            apply(state, command)
        assert state.turn <= state.turn_limit
    assert attacks > 0
    assert state_hash(replay(game_log(state))) == state_hash(state)


@pytest.mark.parametrize("name", ["long_tom_hunt", "hold_the_ford"])
def test_MOV_1_MAP_6_a_move_checked_reads_the_route_validate_move_gives(name: str) -> None:
    """MOV-1/MAP-6: the engine's check of a move (``moving.route``) reads the route
    from the reach its legal moves were made from; route and refusal are those of
    ``validate_move`` gives, through moves, new sheets and new turns."""
    from game.board.movement import MovementError, validate_move

    state = new_game(MAPS / f"{name}.toml", 3)
    rng = random.Random(3)
    checked = 0
    while state.result is None and state.turn <= 4:
        command = random_command(state, rng)
        if isinstance(command, Move):
            unit = state.units[command.unit]
            reach = moving.reach(state, unit)  # what the side was offered
            enemies = [
                u.hex
                for u in state.living(state.other(unit.side))
                if u.hex is not None and not u.hidden
            ]
            friends = [u.hex for u in state.living(unit.side) if u.hex and u.id != unit.id]
            far = Hex(unit.hex.q + 40, unit.hex.r)
            asked = [(h, f) for h in list(reach)[:: max(1, len(reach) // 6)] for f in (1, 4)]
            for to, facing in [*asked, (command.to, command.facing), (far, 2), (unit.hex, 7)]:
                try:
                    anew = validate_move(
                        state.area,
                        unit.hex,
                        unit.facing,
                        moving.mover(unit),
                        to,
                        facing,
                        enemy_hexes=enemies,
                        friendly_hexes=friends,
                        exits=bool(state.options.get("mobile_maps")),
                    )
                    expected = anew.route if anew else anew.reason
                except MovementError as exc:  # facing 7
                    expected = str(exc)
                assert moving.route(state, unit, to, facing) == expected
                checked += 1
        apply(state, command)
    assert checked > 50
