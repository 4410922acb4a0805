"""BATTLESYSTEM, Warhammer and toy soldiers in play: the situations the engine hands
the resolvers (who charged, who fights whom, what a line of fire crosses, which figures
are in sight) and the input spellings of the sources (BS-*, WH-*, WHC-1, TS-*).

Each test states its own numbers; the games are built and moved through ``apply``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from game.board.area import PlayArea
from game.dice import Dice, ScriptedDice
from game.hexmath import Hex, distance, neighbor, step
from game.rules import battlesystem as bs
from game.rules import toysoldiers as ts
from game.state import (
    Answer,
    Attack,
    EndPhase,
    Hold,
    IllegalCommand,
    Move,
    acting_side,
    apply,
    legal_commands,
    moving,
    systems,
)
from game.state import combat as cs
from game.state.model import ATTACK, MOVEMENT, SETUP, TARGETING, GameState
from tests.sheet_factory import make_sheet
from tests.test_engine_systems import (
    ARCHERS,
    BOWMEN,
    FOOT,
    ORCS,
    bowmen_and_foot,
    game,
    place,
    to_attack_phase,
    unit,
)

RIFLES = {"system": "toysoldiers", "type": "warrior", "figures": 1, "move": 4, "shooter": "6/3 - 1"}
KNIGHTS = {
    **FOOT,
    "type": "cavalry",
    "figures": 4,
    "frontage": 4,
    "ad": "8",
    "hits_per_figure": 4,
    "move": 12,
}


def play_moves(state: GameState, moves: dict[str, tuple[Hex, int]]) -> None:
    """Play the movement phase: the named units move to (hex, facing) in their turn,
    every other unit holds; then on to the attack phase. Stops early at a question the
    rules put to a side (a charge reaction), for the test to answer."""
    while state.phase == SETUP:
        apply(state, EndPhase(acting_side(state)))  # type: ignore[arg-type]
    while state.phase == MOVEMENT:
        if state.questions:
            return
        side = acting_side(state)
        assert side is not None
        ready = [u for u in state.living(side) if moving.can_move(u) and not u.moved]
        mover = next((u for u in ready if u.id in moves), ready[0])
        if mover.id in moves:
            to, facing = moves[mover.id]
            apply(state, Move(side, mover.id, to, facing))
        else:
            apply(state, Hold(side, mover.id))
        if state.questions:
            return
    to_attack_phase(state)


def acting_first(state: GameState, side: str) -> None:
    """In the attack phase, let the other side end its attacks until ``side`` acts."""
    assert state.phase == ATTACK
    if acting_side(state) != side:
        apply(state, EndPhase(acting_side(state)))  # type: ignore[arg-type]
    assert acting_side(state) == side


def knights_charge_foot() -> GameState:
    """Knights (north) three hexes from the foot (south) ride into contact, facing it."""
    state = game(
        [unit("knights", "north", "0505", 4, KNIGHTS), unit("foot", "south", "0510", 1, FOOT)]
    )
    knights = state.units["knights"]
    place(state, "foot", step(knights.hex, 4, 4), facing=1)
    play_moves(state, {"knights": (step(knights.hex, 4, 3), 4)})
    return state


# --- the charge belongs to the charger (BS-12, WHC-1) -------------------------------------


def test_BS_12_the_charge_is_recorded_when_contact_is_made() -> None:
    """BS-12: the knights moved three hexes into contact: the state records that they
    charged the foot, and the log says so."""
    state = knights_charge_foot()
    assert state.units["knights"].charged == ["foot"]
    assert state.units["foot"].charged == []
    assert [e.text for e in state.log if e.kind == "charge"] == ["knights charges foot (BS-12)"]


def test_BS_12_a_defender_who_strikes_first_does_not_cancel_the_charge() -> None:
    """BS-12: the foot (which stood) starts the melee against the knights that charged
    it. The knights still strike with x2 AD (4 figures -> 8 AD) and the foot with
    none: before the fix the bonus went to the unit giving the command if it moved,
    so the knights lost their charge and struck with 4 AD."""
    state = knights_charge_foot()
    acting_first(state, "south")
    plan = cs.melee_plan(state, state.units["foot"], state.units["knights"])
    assert not isinstance(plan, str)
    assert plan.attacker.dice_multipliers == ()
    assert plan.defender.dice_multipliers == (bs.X2,)
    knights = plan.defender.unit
    contact = bs.contact_cells(knights, plan.attacker.unit)
    assert bs.melee_attackers(knights, contact).dice_count(*plan.defender.dice_multipliers) == 8
    assert any("knights charged into contact: AD x2 (BS-12)" in n for n in plan.notes)


def test_WHC_1_the_charger_keeps_its_plus_one_when_the_charged_unit_starts_the_round() -> None:
    """WHC-1: orcs (south) charge the men; the men start the close combat. The orcs'
    side scores the charge +1, the men's none (before the fix the men, who gave the
    command but did not move, scored nothing and the orcs nothing either)."""
    state = game([unit("men", "north", "0505", 4, ORCS), unit("orcs", "south", "0510", 1, ORCS)])
    men = state.units["men"]
    place(state, "orcs", step(men.hex, 4, 3), facing=1)
    play_moves(state, {"orcs": (neighbor(men.hex, 4), 1)})
    assert state.units["orcs"].charged == ["men"]
    acting_first(state, "north")
    plan = cs.combat_plan(state, state.units["men"], state.units["orcs"])
    assert not isinstance(plan, str)
    assert plan.charges == ("none", "charge")
    # Every attack misses and nobody is wounded: 20 models each, 4 full ranks (+3 each,
    # the most); the orcs win 4 to 3 by their charge alone.
    state.dice = ScriptedDice([1] * 10 + [6, 6])
    events = apply(state, Attack("north", "men", "orcs", cs.CLOSE_COMBAT))
    result = events[-1].data["result"]
    assert {s["name"]: s["total"] for s in result["scores"]} == {"men": 3, "orcs": 4}
    assert ["charge", 1] in result["scores"][1]["items"]


# --- a charge happens once (WHC-1) --------------------------------------------------------


def test_WHC_1_no_fresh_charge_in_a_combat_that_goes_on() -> None:
    """WHC-1: after the first round the two are in combat. Next turn the orcs turn in
    place and the men shuffle to another hex still touching them: neither charges, so
    neither side scores a charge (before the fix the mover scored +1 every turn)."""
    state = game([unit("men", "north", "0505", 4, ORCS), unit("orcs", "south", "0510", 1, ORCS)])
    men = state.units["men"]
    place(state, "orcs", neighbor(men.hex, 4), facing=1)
    to_attack_phase(state)
    side = acting_side(state)
    attacker, defender = ("men", "orcs") if side == "north" else ("orcs", "men")
    apply(state, Attack(side, attacker, defender, cs.CLOSE_COMBAT))  # type: ignore[arg-type]
    assert state.units["men"].in_combat_with == ["orcs"]
    assert state.units["orcs"].in_combat_with == ["men"]
    while state.phase == ATTACK:
        apply(state, EndPhase(acting_side(state)))  # type: ignore[arg-type]
    orcs = state.units["orcs"]
    beside = next(
        h
        for h in (neighbor(orcs.hex, d) for d in range(1, 7))
        if h != men.hex and distance(h, men.hex) == 1
    )
    play_moves(state, {"men": (beside, 4), "orcs": (orcs.hex, 2)})
    assert state.units["men"].charged == [] and state.units["orcs"].charged == []
    plan = cs.combat_plan(state, state.units["men"], state.units["orcs"])
    assert not isinstance(plan, str)
    assert plan.charges == ("none", "none")


def test_WHC_1_units_that_part_and_meet_again_charge_afresh() -> None:
    """WHC-1: the orcs fall back out of contact; when the men move into contact again the
    combat is new and the men charge."""
    state = game([unit("men", "north", "0505", 4, ORCS), unit("orcs", "south", "0510", 1, ORCS)])
    men = state.units["men"]
    place(state, "orcs", neighbor(men.hex, 4), facing=1)
    state.units["men"].in_combat_with = ["orcs"]
    state.units["orcs"].in_combat_with = ["men"]
    orcs = state.units["orcs"]
    away = step(men.hex, 4, 3)
    play_moves(state, {"orcs": (away, 1)})
    assert state.units["men"].in_combat_with == [] and state.units["orcs"].in_combat_with == []
    while state.phase == ATTACK:
        apply(state, EndPhase(acting_side(state)))  # type: ignore[arg-type]
    play_moves(state, {"men": (neighbor(orcs.hex, 1), 4)})
    assert state.units["men"].charged == ["orcs"]


# --- input spellings (BS-7, TS-3) ---------------------------------------------------------


@pytest.mark.parametrize("written", ["х1,5", "Х1.5", "x1,5", "×1.5", "х 1,5"])
def test_BS_7_multipliers_written_with_the_cyrillic_x(written: str) -> None:
    """BS-7: the Russian text writes multipliers with the Cyrillic х ("х1,5"): 7 figures
    x1.5 = 11 AD."""
    assert bs.as_multiplier(written) == bs.X1_5
    assert bs.attack_dice_count(7, written) == 11


@pytest.mark.parametrize(
    "dash", ["\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015", "\u2212"]
)
def test_TS_3_every_unicode_hyphen_and_dash_reads_in_a_profile(dash: str) -> None:
    """TS-3: "4/3 - 2" may come with any hyphen or dash (U+2010 .. U+2015, U+2212)."""
    profile = ts.parse_profile(f"4/3 {dash} 2 ББ")
    assert (profile.range, profile.chance, profile.shots, profile.armour_piercing) == (
        4,
        3,
        2,
        True,
    )


# --- screening by figure groups (BS-3, BS-19) and casualties in sight (BS-15) -------------


def bowmen_over(cells: dict[Hex, str], buildings: dict[Hex, tuple[int, int]] | None = None):
    """Bowmen (north, 12 figures in two ranks of six) 6 hexes from the foot (south) on an
    open sheet with these terrain tokens; north acts."""
    state = bowmen_and_foot(6)
    name = lambda h: state.area.name_of(h)[1]  # noqa: E731
    sheet = make_sheet(
        "test",
        {name(h): t for h, t in cells.items()},
        {name(h): v for h, v in (buildings or {}).items()},
    )
    state.area = PlayArea.from_layout({(0, 0): sheet}, home_edges="north-south")
    acting_first(state, "north")
    return state


def test_BS_19_BS_3_woods_on_some_lines_screen_only_those_figures_dice() -> None:
    """BS-19: light woods in 0309 lie on the lines of the two left-hand bowmen only. Those
    two roll their 2 AD as a group against the screened AR 7 - 3 = 4; the other ten
    roll 10 AD against AR 7. All 12 AD score a hit (a 4); the ten clear hits all stand
    (d10 1s), of the two screened hits a 5 saves and a 3 stands: 11 hits stand, 3 foot
    removed (3 hits each), 2 carried. Before the fix one screened line screened the
    whole volley: 12 AD against AR 4."""
    state = bowmen_over({Hex(2, 7): "0w"})
    plan = cs.missile_plan(state, state.units["bows"], state.units["foot"])
    assert not isinstance(plan, str)
    assert [(g.dice_count, g.armor.total) for g in plan.groups] == [(10, 7), (2, 4)]
    state.dice = ScriptedDice([(6, 4)] * 10 + [(10, 1)] * 10 + [(6, 4)] * 2 + [(10, 5), (10, 3)])
    events = apply(state, Attack("north", "bows", "foot", cs.MISSILE))
    assert state.dice.remaining == 0
    foot = systems.damage_state(state.units["foot"])
    assert (foot.figures, foot.carried_hits) == (9, 2)
    assert "2 figures screened by woods: 2 AD (BS-19)" in events[-1].text


def test_BS_15_casualties_only_among_figures_in_sight_and_excess_hits_lost() -> None:
    """BS-15: a tall building stands in front of the foot's right-hand file (7,8)/(7,9):
    no bowman sees those two figures, 10 are in sight. The foot here take one hit a
    figure. Twelve d6 of 6 score 24 hits, all stand: the 10 figures in sight go, the
    14 hits beyond them are lost and the two hidden figures stay. Before the fix 12
    figures could be removed and the regiment destroyed."""
    wall = [Hex(6, 8), Hex(7, 7), Hex(8, 7), Hex(6, 9), Hex(8, 8)]
    state = bowmen_over({h: "0#" for h in wall}, {h: (40, 3) for h in wall})
    bows, foot = state.units["bows"], state.units["foot"]
    systems.store_damage(foot, replace(systems.damage_state(foot), hits_per_figure=1))
    plan = cs.missile_plan(state, bows, foot)
    assert not isinstance(plan, str) and plan.dice_count == 12
    in_sight = cs.figures_in_sight(state, bows, foot, plan)
    assert sorted(set(cs.battle_unit(foot).figure_cells()) - set(in_sight)) == [(0, 5), (1, 5)]
    state.dice = ScriptedDice([(6, 6)] * 12 + [(10, 1)] * 24)
    events = apply(state, Attack("north", "bows", "foot", cs.MISSILE))
    regiment = systems.damage_state(foot)
    assert regiment.figures == 2 and not foot.destroyed
    assert set(regiment.figure_cells()) == {(0, 5), (1, 5)}
    assert "10 figures of foot in sight" in events[-1].text and "14 lost" in events[-1].text


# --- Warhammer shooting: units in the way (WH-1, WH-3), a turn is a move (WH-3) -----------


def archers_at(orcs: Hex | None = None, extra: list[dict] = ()) -> GameState:
    """Archers (north, BS 3, five in the front rank) facing south; the orcs 6 hexes south
    unless told where."""
    state = game(
        [
            unit("archers", "north", "0505", 4, ARCHERS),
            unit("orcs", "south", "0512", 1, ORCS),
            *extra,
        ]
    )
    archers = state.units["archers"]
    place(state, "orcs", orcs or step(archers.hex, 4, 6))
    return state


@pytest.mark.parametrize("side", ["north", "south"])
def test_WH_3_a_unit_on_the_line_of_fire_gives_the_target_hard_cover(side: str) -> None:
    """WH-3: another unit (of either side) standing on the line of fire partly covers the
    target: hard cover, -2. BS 3 needs 4+, so 6+ now: the rolls 1, 2, 2, 4, 6 hit
    once (twice in the open). Before the fix the unit in the way was ignored."""
    state = archers_at(extra=[unit("between", side, "0909", 1, ORCS)])
    place(state, "between", step(state.units["archers"].hex, 4, 3))
    to_attack_phase(state)
    acting_first(state, "north")
    plan = cs.shooting_plan(state, state.units["archers"], state.units["orcs"])
    assert not isinstance(plan, str) and plan.cover == "hard"
    state.dice = ScriptedDice([1, 2, 2, 4, 6, 1])
    events = apply(state, Attack("north", "archers", "orcs", cs.SHOOTING))
    assert "hard cover -2: need 6+ to hit; rolled 1, 2, 2, 4, 6: 1 hit" in events[-1].text


def test_WH_1_a_taller_unit_on_the_line_hides_the_target() -> None:
    """WH-1: a unit standing taller than the target on the line of fire hides it: no
    model can fire. Before the fix the archers shot through it."""
    state = archers_at(extra=[unit("ogres", "south", "0909", 1, ORCS)])
    place(state, "ogres", step(state.units["archers"].hex, 4, 3))
    state.units["ogres"].height = 2  # two levels tall (MAP-5), the orcs and archers one
    to_attack_phase(state)
    reason = cs.shooting_plan(state, state.units["archers"], state.units["orcs"])
    assert reason == "archers cannot shoot at orcs: ogres hides it (WH-1)"
    assert all(getattr(c, "target", None) != "orcs" for c in legal_commands(state, "north"))


def test_WH_3_a_turn_in_place_counts_as_moving() -> None:
    """WH-3: "even a reform or a turn" is a move, -1 to hit. The archers turn from facing
    south to south-east (the orcs, 30 degrees off both, stay in their front arc) and
    need 5+: the rolls 1, 2, 2, 4, 6 hit once. Before the fix a turn in place counted
    as standing (4+, two hits)."""
    archers_hex = game([unit("a", "north", "0505", 4, ARCHERS)]).units["a"].hex
    orcs = step(step(archers_hex, 4, 3), 3, 3)
    state = archers_at(orcs)
    play_moves(state, {"archers": (archers_hex, 3)})
    archers = state.units["archers"]
    assert archers.turned and archers.movement_mode == "stood"
    acting_first(state, "north")
    state.dice = ScriptedDice([1, 2, 2, 4, 6, 1])
    events = apply(state, Attack("north", "archers", "orcs", cs.SHOOTING))
    assert "moved -1: need 5+ to hit; rolled 1, 2, 2, 4, 6: 1 hit" in events[-1].text


# --- reactions to a charge: set spears (BS-12), stand and shoot (WH-3) --------------------

SPEARMEN = {**FOOT, "weapon": "spear"}


@pytest.mark.parametrize("choice", ["set spears", "hold"])
def test_BS_12_setting_spears_against_a_charge_is_the_defenders_choice(choice: str) -> None:
    """BS-12: "если играющий ими объявил" — the spearmen's player is asked when the
    knights charge their front. Set: the spearmen strike the charger with x2 AD; hold:
    with x1. Before, spears were set without asking whenever a charge hit their front."""
    state = game(
        [unit("knights", "north", "0505", 4, KNIGHTS), unit("spears", "south", "0510", 1, SPEARMEN)]
    )
    knights = state.units["knights"]
    place(state, "spears", step(knights.hex, 4, 4), facing=1)
    play_moves(state, {"knights": (step(knights.hex, 4, 3), 4)})
    assert acting_side(state) == "south"
    assert legal_commands(state, "south") == [
        Answer("south", "set spears"),
        Answer("south", "hold"),
    ]
    refusal = "first answer: knights charges spears in front"
    with pytest.raises(IllegalCommand, match=refusal):
        apply(state, EndPhase("south"))
    apply(state, Answer("south", choice))
    assert state.units["spears"].reactions == {"knights": choice}
    play_moves(state, {})
    plan = cs.melee_plan(state, state.units["knights"], state.units["spears"])
    assert not isinstance(plan, str)
    assert plan.attacker.dice_multipliers == (bs.X2,)  # the knights' charge
    assert plan.defender.dice_multipliers == ((bs.X2,) if choice == "set spears" else ())


def test_WH_3_stand_and_shoot_at_the_charger_at_minus_one() -> None:
    """WH-3: the orcs charge the archers; the archers' player chooses to stand and shoot:
    five archers (BS 3) at -1 need 5+: 1, 2, 2, 4, 6 hit once; S3 against T4 wounds on
    5+ (a 6); the orcs' save 5+ (light armour, shield) fails on a 1: one orc falls."""
    state = game(
        [unit("archers", "north", "0505", 4, ARCHERS), unit("orcs", "south", "0510", 1, ORCS)]
    )
    archers = state.units["archers"]
    place(state, "orcs", step(archers.hex, 4, 3), facing=1)
    play_moves(state, {"orcs": (neighbor(archers.hex, 4), 1)})
    assert state.questions[0]["text"] == (
        "orcs charges archers: stand and shoot at it, -1 to hit (WH-3)?"
    )
    state.dice = ScriptedDice([1, 2, 2, 4, 6, 6, 1])
    events = apply(state, Answer("north", "stand and shoot"))
    assert state.dice.remaining == 0
    text = events[-1].text
    assert text.startswith("archers stands and shoots at the charging orcs")
    assert "stand and shoot -1: need 5+ to hit; rolled 1, 2, 2, 4, 6: 1 hit" in text
    assert systems.damage_state(state.units["orcs"]).models == 19
    assert cs.SHOOTING in state.units["archers"].weapons_fired  # its shot of the turn


# --- toy soldiers: the order of fire (TS-1), fire after a manoeuvre (TS-13) ----------------


def test_TS_1_the_initiative_winner_may_make_the_enemy_fire_first() -> None:
    """TS-1: "может либо начать стрельбу первой, либо обязать начать стрельбу
    противника". South wins 11 to 5 and chooses to fire second: north acts first in
    the attack phase. Before, the winner always fired first."""
    state = game([unit("n", "north", "0505", 4, RIFLES), unit("s", "south", "0508", 1, RIFLES)])
    while state.phase != ATTACK:
        side = acting_side(state)
        if state.phase == MOVEMENT:
            apply(state, Hold(side, next(u.id for u in state.living(side) if not u.moved)))
            continue
        if state.phase == TARGETING and len(state.done) == 1:
            state.dice = ScriptedDice([2, 3, 6, 5])
        apply(state, EndPhase(side))  # type: ignore[arg-type]
    assert acting_side(state) == "south"
    assert legal_commands(state, "south") == [
        Answer("south", "fire first"),
        Answer("south", "fire second"),
    ]
    apply(state, Answer("south", "fire second"))
    assert cs.shooting_phase(state).order == ("north", "south")
    assert acting_side(state) == "north"
    assert Attack("north", "n", "s", cs.SHOT) in legal_commands(state, "north")


def test_TS_13_fire_right_after_a_manoeuvre_is_a_scenario_option() -> None:
    """TS-13: with the option agreed, the north rifles move and their player may fire at
    once: one shot (6/3 - 1 at armour 0, chance 3, 1 kills, d6 1), not paid from a
    bonus, counted against the shooter's one shot; the unit then declares no melee
    this turn, and its shooter has no shot left in the shooting phase."""
    state = game(
        [unit("n", "north", "0505", 4, RIFLES), unit("s", "south", "0512", 1, RIFLES)],
        options={"fire_after_manoeuvre": True},
    )
    n = state.units["n"]
    play_moves(state, {"n": (step(n.hex, 4, 2), 4)})
    question = state.questions[0]
    assert question["choices"] == ["hold fire", "fire at s"]
    state.dice = ScriptedDice([1])
    events = apply(state, Answer("north", "fire at s"))
    assert "d6 1 -> killed" in events[-1].text and "(TS-13)" in events[-1].text
    assert state.initiative[cs.MANOEUVRE_SHOTS] == {"n#1": 1}
    assert cs.NO_MELEE in state.units["n"].weapons_fired
    state.dice = Dice(3)
    play_moves(state, {})
    phase = cs.shooting_phase(state)
    assert phase.shots_fired("n#1") == 1


# --- Warhammer command: standards and musicians (WHC-1) -----------------------------------


@pytest.mark.parametrize(
    ("men", "orcs", "totals", "winner"),
    [
        ({"standard": True, "battle_standard": True}, {}, {"men": 5, "orcs": 3}, "men"),
        ({"standard": True}, {"standard": True, "musician": True}, {"men": 4, "orcs": 4}, "orcs"),
    ],
)
def test_WHC_1_standards_count_and_a_musician_wins_a_tie(
    men: dict, orcs: dict, totals: dict[str, int], winner: str
) -> None:
    """WHC-1: two units of 20 orcs in contact (no charge: they started side by side)
    miss every blow; each has 4 full ranks (+3). A standard +1, the army battle
    standard +1 more: 5 to 3. Standard against standard is a tie, 4 to 4, won by the
    side with a musician. Before, profiles could carry no command at all."""
    state = game(
        [
            unit("men", "north", "0505", 4, {**ORCS, **men}),
            unit("orcs", "south", "0510", 1, {**ORCS, **orcs}),
        ]
    )
    place(state, "orcs", neighbor(state.units["men"].hex, 4), facing=1)
    to_attack_phase(state)
    acting_first(state, "north")
    state.dice = ScriptedDice([1] * 10 + [6, 6])
    events = apply(state, Attack("north", "men", "orcs", cs.CLOSE_COMBAT))
    result = events[-1].data["result"]
    assert {s["name"]: s["total"] for s in result["scores"]} == totals
    assert result["winners"] == [winner]
    if "battle_standard" in men:
        assert ["army battle standard", 1] in result["scores"][0]["items"]


# --- BATTLESYSTEM: magical volleys (BS-14), preferred terrain and higher ground (BS-11) ----


def bowmen_with_magical_volleys_facing_foot() -> GameState:
    """BS-14: bowmen carrying two magical volleys of d12, foot 5 hexes off in their
    front, north to attack first."""
    state = game(
        [
            unit("bows", "north", "0507", 4, {**BOWMEN, "magical_volleys": 2, "magical_ad": "12"}),
            unit("foot", "south", "0512", 1, FOOT),
        ]
    )
    place(state, "foot", step(state.units["bows"].hex, 4, 5))
    to_attack_phase(state)
    acting_first(state, "north")
    return state


def test_BS_14_magical_volleys_use_their_own_dice_and_run_out_after_two() -> None:
    """BS-14: the bowmen carry two magical volleys of d12 arrows ("на два залпа");
    a magical volley rolls 12 d12 at short range instead of 12 d6 and spends one; the
    regiment's ordinary d6 come back after it. With none left it is refused, while
    ordinary volleys never run out."""
    state = bowmen_with_magical_volleys_facing_foot()
    bows, foot = state.units["bows"], state.units["foot"]
    assert Attack("north", "bows", "foot", cs.MAGICAL) in legal_commands(state, "north")
    state.dice = ScriptedDice([(12, 1)] * 12)
    events = apply(state, Attack("north", "bows", "foot", cs.MAGICAL))
    assert "looses a magical volley (1 magical volley left, BS-14)" in events[-1].text
    regiment = systems.damage_state(bows)
    assert (regiment.magical_volleys, regiment.attack_dice) == (1, "6*4")
    refused = cs.magical_plan(state, bows, foot)
    assert refused == "bows has already loosed its volley this turn"
    bows.weapons_fired = []
    systems.store_damage(bows, replace(systems.damage_state(bows), magical_volleys=0))
    assert cs.magical_plan(state, bows, foot) == "bows has no magical volleys left (BS-14)"
    assert not isinstance(cs.missile_plan(state, bows, foot), str)


def foot_in_contact(level_step: int, preferred: list[str] | None = None, woods: bool = False):
    """Two foot regiments face to face, the south one ``level_step`` levels higher, on
    a sheet of open ground (the south hex light woods when told)."""
    state = game(
        [
            unit("north", "north", "0505", 4, FOOT),
            unit("south", "south", "0510", 1, {**FOOT, "preferred_terrain": preferred or []}),
        ]
    )
    south_hex = neighbor(state.units["north"].hex, 4)
    place(state, "south", south_hex, facing=1)
    name = state.area.name_of(south_hex)[1]
    token = f"{level_step}{'w' if woods else '.'}"
    state.area = PlayArea.from_layout(
        {(0, 0): make_sheet("test", {name: token})}, home_edges="north-south"
    )
    to_attack_phase(state)
    acting_first(state, "north")
    plan = cs.melee_plan(state, state.units["north"], state.units["south"])
    assert not isinstance(plan, str)
    return plan


@pytest.mark.parametrize(
    ("step_", "defender", "attacker"),
    [(1, (), ()), (2, (("higher ground", -2),), (("lower ground", 2),))],
)
def test_BS_11_higher_ground_is_a_steep_edge_not_a_hill_slope(step_, defender, attacker) -> None:
    """BS-11: "не стоящих выше на склоне обычного холма" — one level up is an ordinary
    slope: no modifier (before, any higher hex gave -2/+2). Two levels (a gorge's lip,
    an escarpment) give the higher regiment -2 AR and the lower +2."""
    plan = foot_in_contact(step_)
    assert tuple((m.name, m.value) for m in plan.defender.armor_modifiers) == defender
    assert tuple((m.name, m.value) for m in plan.attacker.armor_modifiers) == attacker


def test_BS_11_preferred_terrain_improves_the_armour_rating_by_two() -> None:
    """BS-11: elves whose profile prefers light woods, standing in light woods, take
    melee hits against AR 7 - 2 = 5; the same regiment in woods it does not prefer,
    against AR 7."""
    plan = foot_in_contact(0, ["light woods"], woods=True)
    assert bs.armor_target(7, plan.defender.armor_modifiers).total == 5
    plan = foot_in_contact(0, ["heavy woods"], woods=True)
    assert bs.armor_target(7, plan.defender.armor_modifiers).total == 7


# --- toy soldiers: the melee for a guarded gun (TS-10) ------------------------------------


def test_TS_10_the_odds_of_the_melee_for_a_gun() -> None:
    """TS-10 (the decision): d6 + warriors each side, the captors win on a higher total.
    One against one: a > b, 15 of 36; two against one: a >= b, 21 of 36; one against
    four: a > b + 3, only 5-1, 6-1 and 6-2, 3 of 36."""
    assert ts.gun_fight_odds(1, 1) == ts.Fraction(15, 36)
    assert ts.gun_fight_odds(2, 1) == ts.Fraction(21, 36)
    assert ts.gun_fight_odds(1, 4) == ts.Fraction(3, 36)


def guarded_gun() -> GameState:
    """Four north rifles; a south cannon with four south rifles next to it."""
    from tests.test_engine_systems import gun, rifles

    state = game(
        [
            unit("n-rifles", "north", "0505", 4, rifles()),
            unit("s-rifles", "south", "0508", 1, rifles()),
            unit("s-gun", "south", "1008", 1, gun("cannon", "7/3 - 1")),
        ]
    )
    place(state, "s-rifles", neighbor(state.units["s-gun"].hex, 4))
    return state


def test_TS_10_the_attack_dialog_shows_the_odds_of_taking_a_guarded_gun() -> None:
    """TS-10: the attack dialog of a warrior unit against an enemy gun lists the capture
    with the melee's odds, like every other attack (four against four: 42%)."""
    from game.state import player_view
    from game.state.queries import attack_odds

    state = guarded_gun()
    place(state, "n-rifles", neighbor(state.units["s-gun"].hex, 1))
    to_attack_phase(state)
    odds = {o.weapon: o for o in attack_odds(player_view(state, "north"), "n-rifles", "s-gun")}
    capture = odds["capture"]
    assert capture.refusal is None and capture.chance == pytest.approx(15 / 36)
    assert "melee first, each side d6 + its warriors (4 against 4)" in capture.lines[0]


def test_TS_13_a_unit_that_fired_after_its_manoeuvre_may_not_fight_for_a_gun() -> None:
    """TS-13: "стрелок не может объявить рукопашный бой" — the rifles fired right after
    moving, so the melee for a guarded gun is refused this turn."""
    state = guarded_gun()
    to_attack_phase(state)
    rifles_unit = state.units["n-rifles"]
    place(state, "n-rifles", neighbor(state.units["s-gun"].hex, 1))
    rifles_unit.weapons_fired.append(cs.NO_MELEE)
    found = cs.capture_plan(state, rifles_unit, state.units["s-gun"])
    assert isinstance(found, str) and "may not go into melee this turn" in found


# --- the window speaks each system's own terms -------------------------------------------


def test_the_unit_panel_shows_each_systems_own_terms() -> None:
    """No "gunnery" on a BATTLESYSTEM, Warhammer or toy-soldier unit: its attack dice
    and armour rating (BS-6, BS-3), its characteristics and command (WHC-1), its
    shooter profile with every code in words (TS-3, TS-5)."""
    from game.state import player_view
    from game.state.queries import Strength
    from game.ui.panels import unit_facts
    from tests.test_engine_systems import gun

    state = game(
        [
            unit("bows", "north", "0503", 4, BOWMEN),
            unit("orcs", "north", "0506", 4, {**ORCS, "standard": True, "musician": True}),
            unit("guns", "north", "0509", 4, gun("cannon", "6/5 - 1 ББ")),
            unit("foot", "south", "0512", 1, FOOT),
        ]
    )
    view = player_view(state, "north")
    facts = {
        uid: dict(unit_facts(view.units[uid], True, Strength(1.0, "")))
        for uid in ("bows", "orcs", "guns")
    }
    assert all("Skills" not in f and "gunnery" not in " ".join(f.values()) for f in facts.values())
    assert facts["bows"]["Attack dice"] == "6*4: d6 shooting, d4 in melee"
    assert facts["bows"]["Armour rating"] == "AR 8: a d10 of 8+ saves a hit"
    assert facts["orcs"]["Profile"] == "BS 3, T 4, W 1, Ld 7"
    assert facts["orcs"]["Command"] == "standard +1, musician (wins ties)"
    assert facts["guns"]["Shooter"] == (
        "6/5 - 1 ББ: range 6 steps, hit chance 5, 1 shot a turn; "
        "ББ armour piercing: the target's armour -1, can disable guns"
    )


# --- toy soldiers: armour-piercing fire (TS-5) ---------------------------------------------


def test_TS_5_armour_piercing_fire_disables_a_gun_and_plain_fire_cannot() -> None:
    """TS-5: "способны выводить из строя стреляющие орудия" — grenadiers 4/3 - 1 ББ at a
    cannon 3 steps away: C' = 3 (the gun's armour is 0, which ББ cannot lower); a 2
    hits and the gun is disabled (TS-9). Riflemen 6/3 - 1 without ББ cannot shoot at
    the gun at all."""
    from tests.test_engine_systems import gun, rifles

    state = game(
        [
            unit("grenadiers", "north", "0505", 4, rifles(1, shooter="4/3 - 1 ББ")),
            unit("riflemen", "north", "0605", 4, rifles(1)),
            unit("s-gun", "south", "0508", 1, gun("cannon", "7/3 - 1")),
        ]
    )
    grenadiers = state.units["grenadiers"]
    place(state, "s-gun", step(grenadiers.hex, 4, 3))
    place(state, "riflemen", neighbor(grenadiers.hex, 1))
    to_attack_phase(state)
    acting_first(state, "north")
    gun_unit = state.units["s-gun"]
    refusal = cs.shot_plan(state, state.units["riflemen"], gun_unit)
    assert (
        isinstance(refusal, str) and "only armour-piercing (ББ) fire can disable a gun" in refusal
    )
    plan = cs.shot_plan(state, grenadiers, gun_unit)
    assert not isinstance(plan, str) and plan.aim.chance == 3
    state.dice = ScriptedDice([2])
    events = apply(state, Attack("north", "grenadiers", "s-gun", cs.SHOT))
    assert "hit: the gun is disabled" in events[-1].text
    assert systems.damage_state(gun_unit).status == "disabled"


def rifles(figures: int = 4, **extra: Any) -> dict[str, Any]:
    from tests.test_engine_systems import rifles as profile

    return profile(figures, **extra)


TANKETTE = {"system": "toysoldiers", "type": "vehicle", "armour": 2, "move": 5}


def test_TS_5_armour_piercing_fire_wears_down_a_battle_machine() -> None:
    """TS-5: "способны поражать виртуальной стрельбой боевые машины и танки (снижают
    остаток брони на 1)". A tankette of armour 2: plain rifles cannot shoot at it;
    grenadiers 4/3 - 1 ББ have C' = 3 - 2 + 1 = 2: a 2 hits, armour 2 -> 1; next
    turn C' = 3 - 1 + 1 = 3, a 3 hits and the last armour is gone: knocked out
    (the decision where the source stops)."""
    state = game(
        [
            unit("grenadiers", "north", "0505", 4, rifles(1, shooter="4/3 - 1 ББ")),
            unit("riflemen", "north", "0605", 4, rifles(1)),
            unit("tank", "south", "0508", 1, TANKETTE),
        ]
    )
    grenadiers, tank = state.units["grenadiers"], state.units["tank"]
    place(state, "tank", step(grenadiers.hex, 4, 3))
    place(state, "riflemen", neighbor(grenadiers.hex, 1))
    to_attack_phase(state)
    acting_first(state, "north")
    refusal = cs.shot_plan(state, state.units["riflemen"], tank)
    assert isinstance(refusal, str) and "only armour-piercing (ББ) fire hurts" in refusal
    plan = cs.shot_plan(state, grenadiers, tank)
    assert not isinstance(plan, str) and plan.aim.chance == 2
    state.dice = ScriptedDice([2])
    events = apply(state, Attack("north", "grenadiers", "tank", cs.SHOT))
    assert "hit: armour 2 -> 1" in events[-1].text
    assert systems.damage_state(tank).armour == 1 and not tank.destroyed
    state.dice = Dice(5)
    while state.phase == ATTACK:
        apply(state, EndPhase(acting_side(state)))  # type: ignore[arg-type]
    to_attack_phase(state)
    acting_first(state, "north")
    assert cs.shot_plan(state, grenadiers, tank).aim.chance == 3
    state.dice = ScriptedDice([3])
    events = apply(state, Attack("north", "grenadiers", "tank", cs.SHOT))
    assert "knocked out" in events[-1].text and tank.destroyed


def test_ART_35_TS_5_a_shell_on_a_battle_machine_wears_its_armour() -> None:
    """ART-35 for a toy-soldier battle machine (decision): a ring hits it as it hits a
    figure, d6 <= ring_damage // 5 - armour, and a hit lowers its armour by 1 (TS-5).
    A ring of 20 on armour 2: chance 2, a 1 hits: armour 1 left."""
    from game.artillery.damage import Exposure, _toy_vehicle
    from game.artillery.weapons import weapon

    lines: list[str] = []
    before = ts.Vehicle("tank", "Tankette", "south", 2)
    exposure = Exposure(Hex(0, 0), 0, 20, 20, "hit hex")
    after = _toy_vehicle(ScriptedDice([1]), weapon("thumper"), before, (exposure,), lines, None)
    assert (after.armour, after.status) == (1, "running")
    assert "needs 2 or less, d6 1: hit, armour 1 left (TS-5)" in lines[0]
