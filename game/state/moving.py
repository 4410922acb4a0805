"""Movement in the engine: the board's movement rules applied to the engine's units
(MOV-1 .. MOV-3, MAP-6). One unit per hex; hidden enemies do not block (a unit
that blunders into one finds it, ART-4).

``reach`` and ``route`` read only what a side's ``PlayerView`` shows as well
(units, area, options), so the window and the AI ask them over their view
(``game.state.queries``) and get the engine's own answer: a hidden enemy is in
neither a view nor the blocking hexes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.board.movement import (
    BACKWARD,
    FORWARD,
    MOVE,
    RAN,
    STOOD,
    WALKED,
    MovementError,
    Mover,
    Reach,
    Route,
    Step,
    mover_for,
    reachable,
    validate_move,
)
from game.hexmath import Hex
from game.state.model import GameState, Unit

if TYPE_CHECKING:  # the view imports the engine, which imports this module
    from game.state.view import PlayerView


def mover(unit: Unit) -> Mover:
    return mover_for(unit.system, unit.profile, unit.name, unit.height)


def can_move(unit: Unit) -> bool:
    """Alive, on the board, not hidden, and with a movement allowance (a toy-soldier
    gun has none).

    Decision (docs/engine.md): a hidden unit holds its position until it is found
    (ART-4). Units alternate in the movement phase, so a hidden unit taking a
    turn there would show the enemy that it exists, and the turn after a sheet is
    placed, that the sheet holds a battery (MAP-10).
    """
    if unit.kind == "aerospace":
        return not unit.destroyed  # ART-36: it flies every turn, over the map or off it
    if unit.destroyed or unit.hex is None or unit.hidden:
        return False
    try:
        return mover(unit).mp > 0
    except MovementError:
        return False


def _blocking(state: GameState | PlayerView, unit: Unit) -> tuple[list[Hex], list[Hex]]:
    enemies = [
        u.hex for u in state.living(state.other(unit.side)) if u.hex is not None and not u.hidden
    ]
    friends = [u.hex for u in state.living(unit.side) if u.hex is not None and u.id != unit.id]
    return enemies, friends  # type: ignore[return-value]


def reach(state: GameState | PlayerView, unit: Unit, mp: int | None = None) -> Reach:
    """Every hex the unit can end its move in this phase, with the best route;
    ``mp``: that many MP to spend instead of its whole allowance."""
    assert unit.hex is not None
    enemies, friends = _blocking(state, unit)
    return reachable(
        state.area,
        unit.hex,
        unit.facing,
        mover(unit),
        mp,
        enemy_hexes=enemies,
        friendly_hexes=friends,
        exits=bool(state.options.get("mobile_maps")),
    )


def route(state: GameState | PlayerView, unit: Unit, to: Hex, facing: int) -> Route | str:
    """The route of a requested move, or the reason it is illegal."""
    assert unit.hex is not None
    enemies, friends = _blocking(state, unit)
    exits = bool(state.options.get("mobile_maps"))
    # A legal move is one of the moves the side was offered, from the reach kept for
    # this very question (``reach``): its route is read there; ``validate_move`` asks
    # the same reach and words the reason when there is no route.
    try:
        found = reachable(
            state.area, unit.hex, unit.facing, mover(unit), None, enemies, friends, exits
        ).route(to, facing)
    except MovementError:
        found = None  # validate_move says why, in its own words
    if found is not None:
        return found
    try:
        check = validate_move(
            state.area,
            unit.hex,
            unit.facing,
            mover(unit),
            to,
            facing,
            enemy_hexes=enemies,
            friendly_hexes=friends,
            exits=exits,
        )
    except MovementError as exc:  # a facing outside 1..6 and the like
        return str(exc)
    if not check:
        return check.reason
    assert check.route is not None
    return check.route


@dataclass(frozen=True)
class Stop:
    """Where a move ends: the hex, facing and what MOV-3 records."""

    hex: Hex
    facing: int
    mp_spent: int
    mode: str
    hexes_moved: int
    found: Unit | None = None  # the hidden enemy the unit ran into, if any


def route_steps(route: Route) -> list[list[object]]:
    """A route's steps as plain data ``[q, r, facing, mp, action]`` (for a pending sheet)."""
    return [[s.hex.q, s.hex.r, s.facing, s.mp, s.action] for s in route.steps]


def steps_from(data: Sequence[Sequence[object]]) -> list[Step]:
    return [Step(str(a), Hex(int(q), int(r)), int(f), int(mp)) for q, r, f, mp, a in data]  # type: ignore[call-overload]


def stop_at_hidden(state: GameState, unit: Unit, steps: Sequence[Step]) -> Stop | None:
    """ART-4: a move that would enter the hex of a hidden enemy stops before it.

    Hidden enemies do not block the moves a side is offered (that would give them
    away), so a unit may blunder into one: it ends its move in the last hex of its
    route before that hex where it may end (not a friend's), and the hidden unit
    is found. None when the route meets no hidden enemy.
    """
    assert unit.hex is not None
    hidden = {
        u.hex: u for u in state.living(state.other(unit.side)) if u.hidden and u.hex is not None
    }
    if not hidden:
        return None
    k = next((n for n, s in enumerate(steps) if s.hex in hidden and s.hex != unit.hex), None)
    if k is None:
        return None
    found = hidden[steps[k].hex]
    friends = {u.hex for u in state.living(unit.side) if u.id != unit.id and u.hex is not None}
    j = k - 1
    while j >= 0 and steps[j].hex in friends and steps[j].hex != unit.hex:
        j -= 1
    if j < 0:
        return Stop(unit.hex, unit.facing, 0, STOOD, 0, found)
    last = steps[j]
    moved = sum(1 for s in steps[: j + 1] if s.action in (FORWARD, BACKWARD, MOVE))
    mode = STOOD if last.mp == 0 else WALKED if last.mp <= mover(unit).walk_mp else RAN
    return Stop(last.hex, last.facing, last.mp, mode, moved, found)
