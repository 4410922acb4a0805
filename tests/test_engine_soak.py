"""Soak: random legal games of every shipped scenario played to a result, with the
engine's invariants checked after every command (``tests.engine_fixtures.Invariants``):
no negative armour or structure, units on valid hexes (on the board inside the area,
off it only batteries), enemies never sharing a hex, every shell resolved exactly in
its arrival turn and none lost, and the turn never beyond the limit.

The default plays a few games per scenario; ``BARRAGE_SOAK=full`` plays 200.
"""

from __future__ import annotations

import pytest

from game.state import game_log, new_game, replay, state_hash
from tests.engine_fixtures import FULL, battery, duel, game, mech, play_random, shipped_scenarios

GAMES = 200 if FULL else 2


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_random_games_of_every_scenario_run_to_a_result(path) -> None:
    """Every game ends with a result within its turn limit, no exception, every
    invariant holding after every command; the first replays to the same hash."""
    results = []
    for n in range(GAMES):
        state = new_game(path, 1000 + n)
        counts = play_random(state, n)
        assert state.result is not None
        assert state.result.turn == state.turn <= state.turn_limit
        assert state.phase == "over"
        results.append(state.result.winner)
        if n == 0:
            assert state_hash(replay(game_log(state))) == state_hash(state)
        assert counts.get("end_phase", 0) >= 3


def test_random_hunts_with_batteries_on_the_board_run_to_a_result() -> None:
    """The small hunt: batteries one sheet out, scouts at the edges, mobile maps and
    piles: sheets are placed, batteries appear, are found and shot at."""
    games = 60 if FULL else 6
    kinds: dict[str, int] = {}
    for n in range(games):
        data = duel(
            mobile_maps=True,
            sheet_table=("free", "similar", "pile")[n % 3],
            predesignated_hexes=True,
            north_battery=battery("n-gun", "north", "north", 0, 1, "airfield", "0809"),
            south_battery=battery("s-gun", "south", "east", 1, 1, "farmland", "0505"),
            extra_units=[
                mech("s-scout", "south", (0, 0), "0803", 1, walk=6),
                mech("n-scout", "north", (0, 1), "1409", 2, walk=6),
            ],
            turns=8,
        )
        state = game(data, 500 + n)
        for kind, count in play_random(state, n).items():
            kinds[kind] = kinds.get(kind, 0) + count
        assert state.result is not None
    assert kinds.get("place_sheet", 0) > 0
    assert kinds.get("plot_fire", 0) > 0 and kinds.get("attack", 0) > 0


def test_a_finished_game_leaves_nothing_behind_in_a_long_run():
    """Headless runs play hundreds of games in one process: once a game and its
    views are dropped, their play areas (and the movement searches and sight grids
    kept for them) go too, so memory does not grow game by game."""
    import gc
    import weakref

    from game.state import DEFAULT_SCENARIO, new_game, player_view
    from game.state.moving import reach

    state = new_game(DEFAULT_SCENARIO, 5)
    view = player_view(state, "north")
    unit = next(u for u in state.living("north") if u.hex is not None and u.profile)
    # (Counted outside the asserts, which would hold the searches for their report.)
    found = [len(reach(state, unit)), len(reach(view, view.units[unit.id]))]
    assert min(found) > 0
    areas = [weakref.ref(state.area), weakref.ref(view.area)]
    del state, view, unit
    # Twice: the view's area is let go when the engine's area is collected.
    gc.collect()
    gc.collect()
    assert [a() for a in areas] == [None, None]
