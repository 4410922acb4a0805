"""Aircraft carrying Arrow IV (ART-14, ART-19, ART-28; the decisions are ART-36 in
docs/artillery.md).

An aerospace unit flies over the play area at an altitude: on the low-altitude
map levels 1-10, on the high-altitude map hex rows 0 (the ground row) to 5.
The source gives its artillery attack, not its flight; the game decides simply:

- in the movement phase it flies to any hex within its ``walk`` (its velocity,
  hexes a turn) whatever the terrain below, and climbs or dives by up to 2
  levels (1 row on the high-altitude map); it may circle over its hex (hold);
- it leaves the play area by flying to a hex beyond an edge (it is then off the
  map, out of the fight until it comes back) and enters by flying to a hex on
  the edge of the play area; the scenario starts it over its entry hex;
- it launches Arrow IV at a hex of the sheet under it (ART-14), with the
  altitude's modifier and flight time; it moves every turn, so it never keeps
  auto-hit hexes (ART-19), and fires at no pre-designated hex (ART-20 is for
  off-board artillery);
- a shell bursting in the hex under it reaches it by ART-28 on the
  low-altitude map; on the high-altitude map it is out of reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.artillery.deployment import (
    AirLaunch,
    air_target_refusal,
    high_altitude_launch,
    low_altitude_launch,
)
from game.hexmath import Hex, distance, neighbors
from game.rules.core import TargetNumber
from game.state.board import log_event
from game.state.model import GameState, Unit

if TYPE_CHECKING:  # the view imports the engine, which imports this module
    from game.state.view import PlayerView

AEROSPACE = "aerospace"
LOW, HIGH = "low", "high"
CEILING = {LOW: 10, HIGH: 5}  # highest altitude (level) or row it may fly at
FLOOR = {LOW: 1, HIGH: 0}
CLIMB = {LOW: 2, HIGH: 1}  # altitude change a turn


def is_aircraft(unit: Unit | dict) -> bool:
    kind = unit.get("kind") if isinstance(unit, dict) else unit.kind
    return kind == AEROSPACE


def altitude_map(unit: Unit) -> str:
    return str(unit.profile.get("altitude_map", LOW))


def velocity(unit: Unit) -> int:
    return int(unit.profile.get("walk", 0))


def altitudes(unit: Unit) -> range:
    """The altitudes it may fly at after this turn's move."""
    mode = altitude_map(unit)
    now = int(unit.altitude or FLOOR[mode])
    return range(max(FLOOR[mode], now - CLIMB[mode]), min(CEILING[mode], now + CLIMB[mode]) + 1)


def edge_hexes(state: GameState) -> list[Hex]:
    """Hexes of the play area with a neighbour beyond it: where aircraft come in."""
    area = state.area
    return [h for h in area.hexes() if any(not area.contains(n) for n in neighbors(h))]


def fly_refusal(state: GameState, unit: Unit, to: Hex, altitude: int) -> str | None:
    """Why the aircraft may not fly to ``to`` at ``altitude`` now (ART-36), or None."""
    mode = altitude_map(unit)
    if altitude not in altitudes(unit):
        span = altitudes(unit)
        word = "altitude" if mode == LOW else "row"
        return (
            f"{unit.name} flies at {word} {span.start}-{span.stop - 1} this turn "
            f"(from {unit.altitude}, {CLIMB[mode]} a turn), not {altitude}"
        )
    inside = state.area.contains(to)
    if unit.hex is None:
        if not inside or all(state.area.contains(n) for n in neighbors(to)):
            return f"{unit.name} comes back by a hex on the edge of the play area"
        return None
    far = distance(unit.hex, to)
    if far > velocity(unit):
        return f"{unit.name} flies {velocity(unit)} hexes a turn; {state.area.label(to)} is {far}"
    return None


def fly(state: GameState, unit: Unit, to: Hex, altitude: int) -> None:
    """Carry out a flight checked by ``fly_refusal``: over a hex, or off the map."""
    start = unit.hex
    leaves = not state.area.contains(to)
    unit.hex = None if leaves else to
    unit.altitude = altitude
    unit.moved = True
    unit.movement_mode = "flew"
    unit.hexes_moved = 0 if start is None else distance(start, to)
    unit.mp_spent = unit.hexes_moved
    if unit.battery is not None:
        unit.battery.auto_hit.lose_all()  # ART-19: an aircraft never keeps them
    word = "altitude" if altitude_map(unit) == LOW else "row"
    if leaves:
        text = f"{unit.name} flies off the map at {word} {altitude}"
    elif start is None:
        text = f"{unit.name} comes in over {state.area.label(to)} at {word} {altitude}"
    else:
        text = f"{unit.name} flies to {state.area.label(to)} at {word} {altitude}"
    log_event(
        state,
        "fly",
        text + " (ART-36)",
        data={
            "unit": unit.id,
            "from": None if start is None else [start.q, start.r],
            "to": [to.q, to.r],
            "altitude": altitude,
            "left": leaves,
        },
    )


def launch(unit: Unit, **spotting: object) -> AirLaunch | str:
    """ART-14: the Arrow IV attack from the aircraft's altitude now, or why none."""
    assert unit.battery is not None
    try:
        if altitude_map(unit) == HIGH:
            return high_altitude_launch(
                unit.battery.weapon, unit.gunnery, int(unit.altitude or 0), **spotting
            )  # type: ignore[arg-type]
        return low_altitude_launch(
            unit.battery.weapon, unit.gunnery, int(unit.altitude or 1), **spotting
        )  # type: ignore[arg-type]
    except ValueError as exc:
        return str(exc)


def air_target_number(unit: Unit, air: tuple[str, int], tn: TargetNumber) -> TargetNumber:
    """ART-14: the shot's number as it lands: the ground number with the altitude's
    modifier (low map) or +3 and any sheets beyond range (high map), taken from the
    altitude or row it was fired from."""
    assert unit.battery is not None
    mode, height = air
    if mode == HIGH:
        found = high_altitude_launch(unit.battery.weapon, unit.gunnery, height)
    else:
        found = low_altitude_launch(unit.battery.weapon, unit.gunnery, height)
    extra = [m for m in found.to_hit.modifiers if m.name not in ("indirect",)]
    for m in extra:
        tn = tn.plus(m.name, m.value)
    return tn


def plot_refusal(state: GameState | PlayerView, unit: Unit, target: Hex) -> str | None:
    """ART-14: an aircraft over the map fires at a hex of the sheet under it."""
    if unit.hex is None:
        return f"{unit.name} is off the map"
    if not state.area.contains(target):
        return "an air-launched Arrow IV fires at a hex of the sheet under the aircraft (ART-14)"
    found = launch(unit)
    if isinstance(found, str):
        return found
    return air_target_refusal(state.area.position_of(unit.hex), state.area.position_of(target))
