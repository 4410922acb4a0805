"""Movement in the engine: the board's movement rules applied to the engine's units
(MOV-1 .. MOV-3, MAP-6). One unit per hex; hidden enemies do not block (a unit
that blunders into one finds it, ART-4)."""

from __future__ import annotations

from game.board.movement import (
    MovementError,
    Mover,
    Reach,
    Route,
    mover_for,
    reachable,
    validate_move,
)
from game.hexmath import Hex
from game.state.model import GameState, Unit


def mover(unit: Unit) -> Mover:
    return mover_for(unit.system, unit.profile, unit.name, unit.height)


def can_move(unit: Unit) -> bool:
    """Alive, on the board and with a movement allowance (a toy-soldier gun has none)."""
    if unit.destroyed or unit.hex is None:
        return False
    try:
        return mover(unit).mp > 0
    except MovementError:
        return False


def _blocking(state: GameState, unit: Unit) -> tuple[list[Hex], list[Hex]]:
    enemies = [
        u.hex for u in state.living(state.other(unit.side)) if u.hex is not None and not u.hidden
    ]
    friends = [u.hex for u in state.living(unit.side) if u.hex is not None and u.id != unit.id]
    return enemies, friends  # type: ignore[return-value]


def reach(state: GameState, unit: Unit) -> Reach:
    """Every hex the unit can end its move in this phase, with the best route."""
    assert unit.hex is not None
    enemies, friends = _blocking(state, unit)
    return reachable(
        state.area,
        unit.hex,
        unit.facing,
        mover(unit),
        enemy_hexes=enemies,
        friendly_hexes=friends,
        exits=bool(state.options.get("mobile_maps")),
    )


def route(state: GameState, unit: Unit, to: Hex, facing: int) -> Route | str:
    """The route of a requested move, or the reason it is illegal."""
    assert unit.hex is not None
    enemies, friends = _blocking(state, unit)
    check = validate_move(
        state.area,
        unit.hex,
        unit.facing,
        mover(unit),
        to,
        facing,
        enemy_hexes=enemies,
        friendly_hexes=friends,
        exits=bool(state.options.get("mobile_maps")),
    )
    if not check:
        return check.reason
    assert check.route is not None
    return check.route
