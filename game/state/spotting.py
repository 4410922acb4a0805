"""Who actually spots for artillery this turn (ART-16, ART-18), for the engine
and, from a side's own view, for the AI and the window.

A unit that spots makes its own attacks at +1 (ART-18). It spots when it is a
spotter of one of its side's shells fired or arriving this turn, still sees
the target hex, and the hex needs a spotter at all (a pre-designated or
auto-hit hex does not, ART-19, ART-21).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.artillery.plots import Plot, spots_this_turn
from game.board.los import line_of_sight
from game.state.model import GameState, Unit

if TYPE_CHECKING:  # the view imports the engine, which imports this module
    from game.state.view import PlayerView


def spotting_this_turn(board: GameState | PlayerView, unit: Unit) -> bool:
    """ART-18: the unit spots for a shell of its side this turn. ``board`` is the
    game state (the engine) or the unit's own side's view (the window and the AI):
    both hold the side's shells in ``queue`` and its batteries' auto-hit hexes."""
    if unit.hex is None:
        return False
    here = unit.hex

    def auto_hit(p: Plot) -> bool:
        gun = board.units[p.battery].battery
        return gun is not None and gun.auto_hit.covers(p.target, p.fired_turn)

    # Only the shells it spotted when they were fired may have it spot now (ART-16): the
    # rest of the queue, most of it, is passed over in one look each.
    side, unit_id = unit.side, unit.id
    return spots_this_turn(
        unit_id,
        board.turn,
        [p for p in board.queue.plots if unit_id in p.spotters_at_firing and p.side == side],
        lambda h: bool(line_of_sight(board.area, here, h, unit.height)),
        auto_hit,
    )
