"""How normal and hard defend where easy does not: shells that reach an aircraft only
below its ceiling (ART-28), escorts that stay by the weakest unit while it hides
(Air Strike on the Pass Road), and BATTLESYSTEM regiments that face the enemy and
bowmen that stand off and shoot (Hold the Ford, BS-6, BS-11, BS-13)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import game.ai.objectives as objectives
from game.ai import Policy
from game.ai.attacks import (
    CLOCK_CAUTION,
    THREAT_WEIGHT,
    _holds_the_hex,
    _own_weight,
    _presses,
    _spends_magic,
    _threat,
    worth,
)
from game.ai.candidates import Board
from game.ai.fire import _points as fire_points
from game.ai.fire import out_of_reach
from game.ai.manoeuvre import (
    ESCORT_RADIUS,
    _archer_moves,
    _destination,
    _facing_worth,
    _fighter_moves,
    _hiding_moves,
    _stands_off,
    movement_candidates,
)
from game.ai.memory import Memory
from game.ai.personality import level, personality
from game.dice import Dice
from game.hexmath import Hex, distance
from game.state import Hold, Move, acting_side, apply, legal_commands, new_game, player_view
from game.state.combat import MELEE
from game.state.model import GameState
from game.state.queries import attack_odds_of

MAPS = Path(__file__).resolve().parents[1] / "maps"
AIR_STRIKE = str(MAPS / "air_strike.toml")
FORD = str(MAPS / "hold_the_ford.toml")


def _in_movement(path: str) -> GameState:
    """The scenario past its set-up (both sides' normal policies), in movement."""
    state = new_game(path, 3)
    policies, dice = {s: Policy("normal") for s in state.sides}, Dice(5)
    while state.phase == "setup":
        side = acting_side(state)
        view = player_view(state, side)
        apply(state, policies[side].choose(view, legal_commands(state, side), dice))
    assert state.phase == "movement"
    return state


def _moves(state: GameState, side: str, uid: str) -> list:
    """``uid``'s moves as if its side were the one to move now."""
    state.active = side
    return [c for c in legal_commands(state, side) if getattr(c, "unit", "") == uid]


def _board(state: GameState, side: str, level_name: str) -> Board:
    return Board.read(player_view(state, side), Memory(), level(level_name), personality("steady"))


def test_ART_28_a_shell_reaches_an_aircraft_only_below_its_falloff() -> None:
    """ART-28: the damage in the hit hex falls by the weapon's falloff a level of
    altitude. A Long Tom's 25 reaches a Sparrowhawk at altitude 2 (5 points) but not
    at 3; an Arrow IV's 20 not at 2. Normal leaves the aircraft at altitude 3 out of
    its Long Tom's aim points; easy aims at it as at any unit."""
    state = new_game(AIR_STRIKE, 3)
    hawk = state.units["n-sparrowhawk"]
    hawk.hex = state.area.hex_at((0, 0), "0808")
    assert hawk.altitude == 3 and out_of_reach(hawk, "long_tom")
    assert not out_of_reach(replace(hawk, altitude=2), "long_tom")
    assert out_of_reach(replace(hawk, altitude=2), "arrow_iv_is")
    assert not out_of_reach(state.units["n-wasp"], "long_tom")

    def aimed(level_name: str) -> set[Hex]:
        return {h for h, _ in fire_points(_board(state, "south", level_name), 0, "long_tom")}

    assert hawk.hex not in aimed("normal") and state.units["n-wasp"].hex in aimed("normal")
    assert hawk.hex in aimed("easy")


def test_the_escorts_stay_by_the_weakest_unit_against_the_enemy_nearest_it() -> None:
    """Surviving against an enemy that wins by destroying one unit, normal's mechs do
    not run after the enemy: they keep within ESCORT_RADIUS of the rifle platoon (the
    weakest), which the enemy has to come through their fire to reach."""
    state = _in_movement(AIR_STRIKE)
    rifles = state.units["s-rifles"]
    state.units["n-wasp"].hex = state.area.hex_at((0, 0), "0805")
    board = _board(state, "south", "normal")
    goals = objectives.read(board.view)
    options = _moves(state, "south", "s-griffin")
    here = state.units["s-griffin"].hex
    escorting = _fighter_moves(board, "s-griffin", options, goals, board.view.units["s-rifles"])
    chasing = _fighter_moves(board, "s-griffin", options, goals)

    def best(cands) -> Hex:
        return _destination(max(cands, key=lambda c: c.score).command, here)

    # Six hexes off the platoon, the Griffin draws back toward it; chasing, it would not.
    assert distance(here, rifles.hex) > ESCORT_RADIUS
    assert distance(best(escorting), rifles.hex) < distance(here, rifles.hex)
    assert distance(best(chasing), rifles.hex) >= distance(here, rifles.hex)


def test_the_weakest_unit_hides_instead_of_watching_the_enemy() -> None:
    """Normal's rifle platoon, the unit the Air Wing must destroy, never steps toward
    the enemy to watch it: its best move keeps at least its distance, and it is the
    move ``movement_candidates`` gives it."""
    state = _in_movement(AIR_STRIKE)
    wasp = state.units["n-wasp"]
    wasp.hex = state.area.hex_at((0, 1), "0805")
    board = _board(state, "south", "normal")
    here = state.units["s-rifles"].hex
    options = _moves(state, "south", "s-rifles")
    hiding = _hiding_moves(board, "s-rifles", options)
    best = max(hiding, key=lambda c: c.score)
    assert distance(_destination(best.command, here), wasp.hex) >= distance(here, wasp.hex)
    assert all(c.reason.startswith("keep the weakest") for c in hiding if c.score > -50)


def test_BS_11_BS_13_regiments_face_the_nearest_enemy_at_normal() -> None:
    """BS-11: an attack on a flank counts +2, on the rear +4 to the armour rating;
    BS-13: volleys need the front arc. Normal's guard ending its move with its front
    toward the nearest enemy scores more than with its back to it; easy does not care."""
    state = _in_movement(FORD)
    spears = state.units["s-spears"]
    state.units["n-knights"].hex = Hex(spears.hex.q, spears.hex.r - 3)  # due north
    normal = _board(state, "south", "normal")
    north, south = (Move("south", unit="s-spears", to=spears.hex, facing=f) for f in (1, 4))
    assert _facing_worth(normal, north, spears.hex) > 0 > _facing_worth(normal, south, spears.hex)
    held = Hold("south", unit="s-spears")
    assert _facing_worth(normal, held, spears.hex) > 0  # it faces north already
    easy = _board(state, "south", "easy")
    assert _facing_worth(easy, north, spears.hex) == _facing_worth(easy, south, spears.hex) == 0


def test_BS_13_bowmen_guarding_the_ford_stand_off_at_normal() -> None:
    """A regiment in melee looses no volley (BS-13) and bowmen fight it with d4 (BS-6):
    normal's Wardens' Bows are not sent to stand by the bridge but stand off, out of
    the Marchers' charge reach; the Marchers' bows (a side taking the hex) and easy's
    bows are not."""
    state = _in_movement(FORD)
    south = _board(state, "south", "normal")
    goals = objectives.read(south.view)
    assert _stands_off(south, goals, "s-bows")
    assert not _stands_off(south, goals, "s-spears")
    assert not _stands_off(_board(state, "south", "easy"), goals, "s-bows")
    north = _board(state, "north", "normal")
    assert not _stands_off(north, objectives.read(north.view), "n-bows")
    picks = movement_candidates(south, _moves(state, "south", "s-bows"))
    assert picks and all(c.reason.startswith("bowmen stand off") for c in picks)


def test_BS_13_bowmen_step_onto_the_guarded_hex_when_no_one_holds_it() -> None:
    """A hex with a unit of each side is held by neither, and no unit enters an enemy's
    hex: when the Wardens' Spears are gone from the bridge end, normal's bowmen, a move
    away, stand on it themselves."""
    state = _in_movement(FORD)
    goal = state.units["s-spears"].hex
    state.units["s-spears"].hex = None
    state.units["s-spears"].destroyed = True
    state.units["s-bows"].hex = Hex(goal.q, goal.r + 3)
    board = _board(state, "south", "normal")
    picks = _archer_moves(
        board, "s-bows", _moves(state, "south", "s-bows"), objectives.read(board.view)
    )
    best = max(picks, key=lambda c: c.score)
    assert _destination(best.command, state.units["s-bows"].hex) == goal


def test_BS_9_hard_presses_every_melee_round_taking_the_ford() -> None:
    """BS-9: both sides strike at once. The Marchers must take the bridge end before the
    limit, so hard's regiments make every melee round that takes something (the blows
    struck back are not weighed); normal weighs them, and so do the Wardens, who win by
    waiting."""
    state = _in_movement(FORD)
    north = objectives.read(player_view(state, "north"))
    south = objectives.read(player_view(state, "south"))
    hard = _board(state, "north", "hard")
    assert _presses(hard, north, state.units["n-pikes"])
    assert not _presses(_board(state, "north", "normal"), north, state.units["n-pikes"])
    assert not _presses(_board(state, "south", "hard"), south, state.units["s-spears"])


def test_hard_strikes_first_at_the_regiment_on_the_hex_to_take() -> None:
    """The Wardens' regiment standing on the bridge end keeps the Marchers from taking
    it (units never enter an enemy's hex): hard's look-ahead counts an attack on it
    THREAT_WEIGHT times its odds, one on a regiment elsewhere its odds."""
    state = _in_movement(FORD)
    north = objectives.read(player_view(state, "north"))
    assert _holds_the_hex(north, state.units["s-spears"])
    assert not _holds_the_hex(north, state.units["s-bows"])
    hard = _board(state, "north", "hard")
    assert _threat(hard, hard.view.units["s-spears"]) == THREAT_WEIGHT
    far = state.units["s-bows"]
    far.hex = Hex(far.hex.q + 6, far.hex.r + 4)
    assert _threat(_board(state, "north", "hard"), far) == 1.0


def test_BS_14_BS_18_hard_keeps_its_magical_volleys_for_short_range() -> None:
    """BS-14: the Wardens' Bows have two volleys of blessed arrows; BS-18: at medium
    range half their dice roll, at long range a third. Hard looses a magical volley
    only at short range or in the last turn; normal looses one wherever its dice take
    more than the ordinary volley's."""
    state = _in_movement(FORD)
    bows, foot = state.units["s-bows"], state.units["n-foot"]

    def spends(level_name: str, hexes_off: int, turn: int | None = None) -> bool:
        foot.hex, foot.facing = Hex(bows.hex.q, bows.hex.r - hexes_off), 4  # in front
        if turn is not None:
            state.turn = turn
        board = _board(state, "south", level_name)
        return _spends_magic(
            board,
            objectives.read(board.view),
            board.view.units["s-bows"],
            board.view.units["n-foot"],
        )

    assert spends("hard", 5)  # short range (7 hexes for a longbow)
    assert not spends("hard", 10) and not spends("hard", 16)  # medium, long
    assert spends("normal", 10) and spends("normal", 16)
    assert spends("hard", 16, turn=state.turn_limit)  # the last turn: kept is lost


def test_BS_9_hard_wardens_call_no_melee_round_that_trades_figures_evenly() -> None:
    """BS-9: in a melee round both sides strike at once. The Wardens win at the turn
    limit and the Marchers have more figures, so hard counts the Wardens' own losses
    CLOCK_CAUTION times in a round they would call: the Spears, front to front with the
    Marcher Foot on the bridge end, take about as many figures as they lose (normal
    calls that round, hard does not). The Marchers, who must take the hex, and normal's
    Wardens count their losses once."""
    state = _in_movement(FORD)
    spears, foot = state.units["s-spears"], state.units["n-foot"]
    foot.hex, foot.facing = Hex(spears.hex.q, spears.hex.r - 1), 4  # front to front

    def round_worth(side: str, level_name: str, unit: str, target: str) -> tuple[float, float]:
        board = _board(state, side, level_name)
        ours, theirs = board.view.units[unit], board.view.units[target]
        weight = _own_weight(board, objectives.read(board.view), ours, MELEE)
        return weight, worth(
            attack_odds_of(board.view, ours, theirs, MELEE), ours, theirs, own_weight=weight
        )

    assert round_worth("south", "hard", "s-spears", "n-foot") == (
        CLOCK_CAUTION,
        pytest.approx(-0.98, abs=0.01),
    )
    weight, normal = round_worth("south", "normal", "s-spears", "n-foot")
    assert weight == 1.0 and normal > 0
    assert round_worth("north", "hard", "n-foot", "s-spears")[0] == 1.0
