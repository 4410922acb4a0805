"""Who actually spots for artillery this turn (ART-16, ART-18), for the engine
and, from a side's own view, for the AI and the window.

A unit that spots makes its own attacks at +1 (ART-18). It spots when it is a
spotter of one of its side's shells fired or arriving this turn, still sees
the target hex, and the hex needs a spotter at all (a pre-designated or
auto-hit hex does not, ART-19, ART-21).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.artillery.plots import AutoHitHexes, Plot, spots_this_turn
from game.board.los import line_of_sight
from game.hexmath import Hex
from game.state.model import GameState, Unit

if TYPE_CHECKING:  # the view imports the engine, which imports this module
    from game.state.view import PlayerView


def spotting_this_turn(state: GameState, unit: Unit) -> bool:
    """ART-18 in the engine: the unit spots for a shell of its side this turn."""
    if unit.hex is None:
        return False
    here = unit.hex

    def auto_hit(p: Plot) -> bool:
        gun = state.units[p.battery].battery
        return gun is not None and gun.auto_hit.covers(p.target, p.fired_turn)

    return spots_this_turn(
        unit.id,
        state.turn,
        (p for p in state.queue.plots if p.side == unit.side),
        lambda h: bool(line_of_sight(state.area, here, h, unit.height)),
        auto_hit,
    )


def spotting_now(view: PlayerView, unit_id: str) -> bool:
    """ART-18 from a side's own view (its own shells in flight and batteries)."""
    unit = view.units.get(unit_id)
    if unit is None or unit["hex"] is None:
        return False
    here = Hex(*unit["hex"])
    height = int(unit["height"])

    def auto_hit(p: Plot) -> bool:
        gun = (view.units.get(p.battery) or {}).get("battery") or {}
        return AutoHitHexes.from_dict(gun.get("auto_hit", [])).covers(p.target, p.fired_turn)

    return spots_this_turn(
        unit_id,
        view.turn,
        (Plot.from_dict(p) for p in view.plots),
        lambda h: bool(line_of_sight(view.area, here, h, height)),
        auto_hit,
    )
