"""Where things stand and who sees what: the queries every phase shares."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from game.board.los import in_sight
from game.hexmath import Hex
from game.secrecy import Secret, secret
from game.state.model import Event, GameState, Unit

if TYPE_CHECKING:  # the view imports the engine, which imports this module
    from game.state.view import PlayerView


def log_event(state: GameState, kind: str, text: str, **extra: object) -> Event:
    """Append an event of the current turn and phase to the log."""
    event = Event(state.turn, state.phase, kind, text, **extra)  # type: ignore[arg-type]
    state.log.append(event)
    return event


def knows_unit(state: GameState, side: str, unit: Unit) -> bool:
    """Whether ``side`` knows of ``unit``: its own, or an enemy on the board and not
    hidden (ART-4), or an aircraft it saw fly off the map (ART-36). The same test
    decides what ``player_view`` shows, what an event may name and which refusals
    may name a unit."""
    on_board = unit.hex is not None or unit.altitude is not None
    return unit.side == side or (on_board and not unit.hidden)


def seeing_units(
    state: GameState | PlayerView,
    side: str,
    target: Hex,
    sees: Callable[[Unit, Hex], bool] | None = None,
    among: Sequence[Unit] | None = None,
) -> list[Unit]:
    """Units of ``side`` on the board with ``target`` in line of sight (MAP-5); over
    a side's own view, its own units. ``sees`` answers the line of sight instead,
    for a caller that keeps the same answers worked out over the whole area;
    ``among``: the living units of ``side`` on the board, for a caller that asks
    about many targets (in the order ``living`` gives them)."""
    if sees is None:
        area = state.area

        def sees(u: Unit, h: Hex) -> bool:
            return in_sight(area, u.hex, h, u.height + (u.altitude or 0))  # type: ignore[arg-type]

    if among is None:
        among = [u for u in state.living(side) if u.hex is not None]
    return [u for u in among if sees(u, target)]


def battery_sheet(state: GameState | PlayerView, unit: Unit) -> tuple[int, int]:
    """The sheet position a battery fires from (off the board or on it, ART-2, ART-5);
    over a side's own view as over the state (``queries.firing_position``)."""
    assert unit.battery is not None
    if unit.battery.offboard is not None:
        return unit.battery.offboard.position
    assert unit.hex is not None
    return state.area.position_of(unit.hex)


def told_name(state: GameState, unit: Unit) -> str | Secret:
    """A unit's name in an event: a hidden unit's name is its side's secret (ART-4);
    anyone else reads "an unseen enemy unit"."""
    return secret(unit.side, unit.name, "an unseen enemy unit") if unit.hidden else unit.name


def reveal(state: GameState, unit: Unit, why: str | list[str | Secret]) -> None:
    """Make a hidden unit known to the enemy (ART-4)."""
    if not unit.hidden:
        return
    unit.hidden = False
    enemy = state.other(unit.side)
    if unit.id not in state.intel[enemy].revealed:
        state.intel[enemy].revealed.append(unit.id)
    where = state.area.label(unit.hex) if unit.hex is not None else "off the board"
    reason = [why] if isinstance(why, str) else why
    log_event(state, "reveal", [f"{unit.name} is revealed in {where}: ", *reason])


def shot_number(state: GameState, plot_id: int) -> int:
    """A plot's number among its own side's plots (1, 2, 3 ... in firing order).

    Plot ids count both sides' shells; a side is only ever shown its own
    numbers, so gaps never tell it how often the enemy fired (ART-9).
    """
    plots = state.queue.plots
    side = next(p.side for p in plots if p.id == plot_id)
    number = 0
    for p in plots:
        if p.side == side:
            number += 1
        if p.id == plot_id:
            return number
    raise ValueError(f"no plot {plot_id}")  # pragma: no cover - found above


def plot_for_side(state: GameState, plot_id: int) -> dict:
    """A side's own plot as its view shows it: numbered among its own plots."""
    plot = next(p for p in state.queue.plots if p.id == plot_id)
    data = plot.to_dict()
    data["id"] = shot_number(state, plot_id)
    return data
