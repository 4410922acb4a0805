"""BATTLESYSTEM, Warhammer and toy soldiers in play: the situations the engine hands
the resolvers (who charged, who fights whom, what a line of fire crosses, which figures
are in sight) and the input spellings of the sources (BS-*, WH-*, WHC-1, TS-*).

Each test states its own numbers; the games are built and moved through ``apply``.
"""

from __future__ import annotations

import pytest

from game.dice import ScriptedDice
from game.hexmath import Hex, neighbor, step
from game.rules import battlesystem as bs
from game.rules import toysoldiers as ts
from game.state import Attack, EndPhase, Hold, Move, acting_side, apply, moving
from game.state import combat_systems as cs
from game.state.model import ATTACK, MOVEMENT, SETUP, GameState
from tests.test_engine_systems import FOOT, ORCS, game, place, to_attack_phase, unit

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
    every other unit holds; then on to the attack phase."""
    while state.phase == SETUP:
        apply(state, EndPhase(acting_side(state)))  # type: ignore[arg-type]
    while state.phase == MOVEMENT:
        side = acting_side(state)
        assert side is not None
        ready = [u for u in state.living(side) if moving.can_move(u) and not u.moved]
        mover = next((u for u in ready if u.id in moves), ready[0])
        if mover.id in moves:
            to, facing = moves[mover.id]
            apply(state, Move(side, mover.id, to, facing))
        else:
            apply(state, Hold(side, mover.id))
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
        if h != men.hex and cs.distance(h, men.hex) == 1
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
