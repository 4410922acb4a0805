"""Victory points at the turn limit (scenario victory type "points")."""

from __future__ import annotations

from game.state import new_game
from game.state.setup import DEFAULT_SCENARIO
from game.state.systems import is_damaged
from game.state.victory import check, unit_points, victory_points


def test_points_decide_a_game_that_reaches_its_turn_limit() -> None:
    """At the turn limit with both guns standing, the side with more victory
    points wins: destroyed units score their value, damaged ones 1."""
    state = new_game(DEFAULT_SCENARIO, 5)
    north, south = state.sides
    assert victory_points(state, north) == victory_points(state, south) == 0
    mech = next(u for u in state.units.values() if u.side == south and u.kind == "mech")
    infantry = next(u for u in state.units.values() if u.side == south and u.kind == "infantry")
    mech.destroyed = True
    infantry.damage = {**infantry.damage, "troopers": infantry.damage["troopers"] - 3}
    assert (is_damaged(infantry) and not is_damaged(mech)) or mech.destroyed
    assert unit_points(mech) == 4
    assert victory_points(state, north) == 4 + 1
    state.turn = state.turn_limit - 1
    assert check(state) is None
    state.turn = state.turn_limit
    result = check(state)
    assert result is not None and result.winner == north
    assert result.reason == f"{north} wins on victory points ({north} 5, {south} 0)"


def test_equal_points_at_the_turn_limit_are_a_draw() -> None:
    """Victory points: equal scores at the turn limit are a draw, with the tally."""
    state = new_game(DEFAULT_SCENARIO, 5)
    state.turn = state.turn_limit
    result = check(state)
    assert result is not None and result.winner is None
    assert "on points" in result.reason
