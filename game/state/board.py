"""Where things stand and who sees what: the queries every phase shares."""

from __future__ import annotations

from game.board.los import line_of_sight
from game.hexmath import Hex
from game.state.model import Event, GameState, Unit


def log_event(state: GameState, kind: str, text: str, **extra: object) -> Event:
    """Append an event of the current turn and phase to the log."""
    event = Event(state.turn, state.phase, kind, text, **extra)  # type: ignore[arg-type]
    state.log.append(event)
    return event


def seeing_units(state: GameState, side: str, target: Hex) -> list[Unit]:
    """Units of ``side`` on the board with ``target`` in line of sight (MAP-5)."""
    return [
        u
        for u in state.living(side)
        if u.hex is not None and line_of_sight(state.area, u.hex, target, u.height)
    ]


def battery_sheet(state: GameState, unit: Unit) -> tuple[int, int]:
    """The sheet position a battery fires from (off the board or on it)."""
    assert unit.battery is not None
    if unit.battery.offboard is not None:
        return unit.battery.offboard.position
    assert unit.hex is not None
    return state.area.position_of(unit.hex)


def reveal(state: GameState, unit: Unit, why: str) -> None:
    """Make a hidden unit known to the enemy (ART-4)."""
    if not unit.hidden:
        return
    unit.hidden = False
    enemy = state.other(unit.side)
    if unit.id not in state.intel[enemy].revealed:
        state.intel[enemy].revealed.append(unit.id)
    where = state.area.label(unit.hex) if unit.hex is not None else "off the board"
    log_event(state, "reveal", f"{unit.name} is revealed in {where}: {why}")
