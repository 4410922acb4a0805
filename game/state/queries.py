"""Questions a player or the AI asks, worked out once for the engine, the window
and the AI alike.

Every function here takes a ``GameState`` or a side's own ``PlayerView`` (the
view has the state's shape for what it shows: its units, its area, its queue of
the side's own shells), reads only what both hold, and is the function the
engine itself calls when the command is played. So the preview a player reads
and the number the AI weighs are the engine's own.

The plot preview (ART-3 .. ART-21, ART-37): where a battery fires from, why it
may not fire at a hex, the flight, the spotters, the to-hit number with its
breakdown and the exact forecast.

Movement (MOV-1 .. MOV-3, MAP-6): ``movement_reach`` (where a unit can end its
move this phase, with the cost and route to each hex, exits onto new sheets
included), ``reach_for`` (the same from where a unit stands, moved or not, with
any MP to spend), ``can_move``, ``fastest_move``, ``allowance_text``,
``movement_class`` and ``crossing_cost`` (what a sheet costs a unit to cross,
for choosing new sheets). Unit strength: ``strength``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import game.state.aircraft as aircraft
import game.state.counter_battery as counter_battery
from game.artillery.counter_battery import (
    CandidateOdds,
    counter_battery_target_number,
    forecast_positions,
)
from game.artillery.damage import WarhammerTroops
from game.artillery.flight import flight_time, range_refusal, sheet_distance
from game.artillery.forecast import Forecast, forecast
from game.artillery.tohit import artillery_target_number, spotter_modifier
from game.artillery.weapons import Weapon
from game.artillery.weapons import weapon as weapon_spec
from game.board.area import PlayArea
from game.board.movement import MovementError, Reach, mean_entry_cost
from game.board.sheet import available_sheets
from game.hexmath import Hex
from game.rules import battlesystem as bs
from game.rules import toysoldiers as ts
from game.rules.core import TargetNumber, probability_at_least
from game.state.board import battery_sheet, seeing_units
from game.state.model import GameState, Unit
from game.state.moving import can_move, mover, reach
from game.state.systems import damage_state, initial_damage, strength_text

if TYPE_CHECKING:  # the view imports the engine, which imports this module
    from game.state.view import PlayerView

SheetPosition = tuple[int, int]
Sight = Callable[[Unit, Hex], bool]  # does this unit see that hex (MAP-5)

# ART-2, ART-5: the sheet position a battery fires from, off the board or on it.
firing_position = battery_sheet


def artillery_units(board: GameState | PlayerView, side: str) -> list[Unit]:
    """The side's artillery units still in the game, in the board's order."""
    return [u for u in board.units.values() if u.side == side and u.battery is not None and u.alive]


def free_pieces(board: GameState | PlayerView, unit: Unit) -> list[int]:
    """ART-8: the battery's pieces without a target this turn (each is aimed once a turn)."""
    assert unit.battery is not None
    busy = {
        p.piece for p in board.queue.plots if p.battery == unit.id and p.fired_turn == board.turn
    }
    return [n for n in range(1, unit.battery.pieces + 1) if n not in busy]


def predesignated_hexes(board: GameState | PlayerView, side: str) -> tuple[Hex, ...]:
    """ART-20: the hexes ``side`` pre-designated (a view holds its own side's only)."""
    if isinstance(board, GameState):
        return tuple(board.predesignated.get(side, ()))
    return board.predesignated if side == board.side else ()


def on_predesignated_hex(board: GameState | PlayerView, unit: Unit, target: Hex) -> bool:
    """ART-21: a shot at a pre-designated hex hits automatically. An aircraft fires at
    no pre-designated hex (ART-20 is for off-board artillery, ART-36)."""
    return not aircraft.is_aircraft(unit) and target in predesignated_hexes(board, unit.side)


def on_auto_hit_hex(unit: Unit, target: Hex, fired_turn: int) -> bool:
    """ART-19: a shot fired at one of the battery's auto-hit hexes hits automatically;
    an aircraft moves every turn and never keeps auto-hit hexes (ART-36)."""
    gun = unit.battery
    return (
        gun is not None
        and not aircraft.is_aircraft(unit)
        and gun.auto_hit.covers(target, fired_turn)
    )


def aim_refusal(board: GameState | PlayerView, unit: Unit, target: Hex) -> str | None:
    """Why the battery cannot aim at ``target`` at all, or None: an aircraft fires at
    the sheet under it (ART-14), counter-battery fire not at its own position (ART-37),
    and every other gun within its reach (ART-3)."""
    assert unit.battery is not None
    if aircraft.is_aircraft(unit):
        return aircraft.plot_refusal(board, unit, target)
    off_board = counter_battery.is_counter_battery(board, target)
    if off_board:
        reason = counter_battery.refusal(board, unit, target)
        if reason:
            return reason
    name = counter_battery.where(board, target) if off_board else board.area.name_of(target)[1]
    return range_refusal(
        unit.battery.weapon, battery_sheet(board, unit), board.area.position_of(target), name
    )


def shot_flight(board: GameState | PlayerView, unit: Unit, target: Hex) -> tuple[int, int]:
    """Sheets to the target and turns of flight (ART-5, ART-6); an aircraft's from
    its altitude (ART-14). The target must be one ``aim_refusal`` allows."""
    assert unit.battery is not None
    if aircraft.is_aircraft(unit):
        launch = aircraft.launch(unit)
        assert not isinstance(launch, str), launch
        return launch.sheets, launch.flight_time
    sheets = sheet_distance(battery_sheet(board, unit), board.area.position_of(target))
    return sheets, flight_time(unit.battery.weapon, sheets)


def spotters_at(
    board: GameState | PlayerView, side: str, target: Hex, sees: Sight | None = None
) -> list[Unit]:
    """ART-16: the side's units that see ``target`` (its spotters if a shot is fired
    now); none for counter-battery fire, no unit sees a hex off the map (ART-37).
    ``sees``: line of sight answered from sight worked out beforehand
    (``seeing_units``)."""
    if counter_battery.is_counter_battery(board, target):
        return []
    return seeing_units(board, side, target, sees)


def best_spotter(spotters: Iterable[Unit], attacking: Collection[str]) -> Unit | None:
    """The spotter whose skill (ART-13) and own attacks in the firing turn (ART-18)
    help the shot most; ties go to the first id."""
    ranked = sorted(
        spotters, key=lambda u: (spotter_modifier(u.gunnery) + (u.id in attacking), u.id)
    )
    return ranked[0] if ranked else None


def shot_to_hit(
    unit: Unit,
    spotters: Iterable[Unit],
    adjustments: int,
    attacking: Collection[str],
    direct: bool = False,
    air: tuple[str, int] | None = None,
) -> tuple[TargetNumber, Unit | None]:
    """The to-hit number of a shell with its breakdown, and the spotter it counts
    (ART-11, ART-13, ART-14, ART-16 .. ART-18, ART-38). ``spotters``: the units
    watching it land; ``adjustments``: the spotted arrivals counted when it left
    the gun (ART-17), which apply only with a spotter; ``attacking``: the spotters
    that made their own attacks in the firing turn (ART-18); ``air``: the altitude
    map and altitude of an aircraft's launch."""
    spotter = best_spotter(spotters, attacking)
    tn = artillery_target_number(
        unit.gunnery,
        spotter_gunnery=None if spotter is None else spotter.gunnery,
        adjustments=adjustments if spotter is not None else 0,
        spotter_attacking=spotter is not None and spotter.id in attacking,
        direct=direct,
    )
    if air is not None:
        tn = aircraft.air_target_number(unit, air, tn)
    return tn, spotter


def adjustments(
    board: GameState | PlayerView, battery_id: str, target: Hex, spotters: Collection[object]
) -> int:
    """ART-17: the adjusted-fire count of a shot leaving the gun now: the spotted
    arrivals of the battery's shells at ``target`` so far. ART-8/ART-16: a shot
    fired with no friendly unit seeing its hex (no ``spotters``) is unobserved and
    cannot be adjusted, whatever earlier shells did."""
    return board.queue.adjustments_for(battery_id, target, board.turn) if spotters else 0


def landing_first(board: GameState | PlayerView, unit: Unit, target: Hex) -> int:
    """Shells of this battery due at ``target`` this turn, fired before: they land
    before a shot plotted now leaves the gun, so each one spotted adds -1 more
    (ART-17, ART-18a)."""
    return sum(
        1
        for p in board.queue.in_flight()
        if p.battery == unit.id
        and p.target == target
        and p.arrival_turn == board.turn
        and p.fired_turn < board.turn
    )


def counter_battery_odds(
    board: GameState | PlayerView, unit: Unit, beliefs: Mapping[SheetPosition, float]
) -> list[CandidateOdds]:
    """ART-37: for every sheet position believed (``beliefs``: the share of belief
    that a gun stands there) to hold an enemy gun, this battery's odds of hurting
    it, best first."""
    assert unit.battery is not None
    return forecast_positions(
        beliefs, battery_sheet(board, unit), unit.battery.weapon, unit.gunnery
    )


@dataclass(frozen=True)
class Spotter:
    """A unit that sees the target hex now (ART-16), with its ART-13 modifier."""

    id: str
    name: str
    gunnery: int
    modifier: int
    attacking: bool  # ART-18: it made its own attacks this turn, +1 to the shot


@dataclass(frozen=True)
class PlotPreview:
    """What a shot at ``target`` would be if plotted now. The number is fixed when
    the shell lands (ART-16: the spotters then); this is it as the engine would
    work it out now."""

    battery: str
    battery_name: str
    weapon: Weapon
    gunnery: int
    target: Hex
    target_label: str
    piece: int | None  # the piece a shot would aim; None: every piece has a target
    sheets: int | None
    flight: int | None
    arrival_turn: int | None
    refusal: str | None
    automatic: str | None
    spotters: tuple[Spotter, ...]
    spotter: Spotter | None
    adjustments: int
    landing_first: int
    to_hit: TargetNumber | None
    forecast: Forecast | None
    counter_battery: bool = False  # ART-37: a shot at an off-board position

    @property
    def hit_probability(self) -> float:
        if self.forecast is None and self.counter_battery and self.to_hit is not None:
            return float(probability_at_least(2, 6, self.to_hit.total))
        return 0.0 if self.forecast is None else self.forecast.hit_probability

    @property
    def farthest_scatter(self) -> int:
        """ART-12: the farthest a miss scatters, the margin of a roll of 2 (0: it
        cannot miss)."""
        if self.automatic is not None or self.to_hit is None:
            return 0
        return max(0, self.to_hit.total - 2)

    @property
    def can_fire(self) -> bool:
        return self.refusal is None and self.piece is not None


@dataclass(frozen=True)
class Shot:
    """A shot at a hex as the engine would plot, launch and land it now: why it
    cannot be plotted, its flight, whether it hits automatically, its spotters and
    its to-hit number (None when it hits automatically or cannot be plotted)."""

    refusal: str | None
    sheets: int | None
    flight: int | None
    automatic: str | None
    spotters: tuple[Unit, ...]
    attacking: frozenset[str]
    adjustments: int
    to_hit: TargetNumber | None
    spotter: Unit | None


def shot_now(
    board: GameState | PlayerView, unit: Unit, target: Hex, sees: Sight | None = None
) -> Shot:
    """The shot ``unit`` would make at ``target`` if plotted now: the engine's own
    rules of plotting (``aim_refusal``, ``shot_flight``, ``spotters_at``), of
    launching (``adjustments``, ART-18 attacking spotters) and of arrival
    (``shot_to_hit``), with the spotters of now standing in for those at arrival."""
    refusal = f"{unit.name} has been destroyed" if unit.destroyed else None
    refusal = refusal or aim_refusal(board, unit, target)
    sheets = flight = None
    if refusal is None:
        sheets, flight = shot_flight(board, unit, target)
    automatic = None
    if on_predesignated_hex(board, unit, target):
        automatic = "pre-designated hex"
    elif on_auto_hit_hex(unit, target, board.turn):
        automatic = "auto-hit hex"
    seeing = spotters_at(board, unit.side, target, sees)
    attacking = frozenset(u.id for u in seeing if u.attacked)
    adjusted = adjustments(board, unit.id, target, seeing)
    tn = spotter = None
    if refusal is not None:
        pass  # no shot, no number (an aircraft at altitude 10 has none at all, ART-14)
    elif counter_battery.is_counter_battery(board, target):
        automatic, tn = None, counter_battery_target_number(unit.gunnery)
    elif automatic is None:
        air = (aircraft.altitude_map(unit), int(unit.altitude or 0))
        tn, spotter = shot_to_hit(
            unit,
            seeing,
            adjusted,
            attacking,
            direct=flight == 0,
            air=air if aircraft.is_aircraft(unit) else None,
        )
    return Shot(refusal, sheets, flight, automatic, tuple(seeing), attacking, adjusted, tn, spotter)


def plot_preview(board: GameState | PlayerView, battery_id: str, target: Hex) -> PlotPreview:
    """The shot ``battery_id`` would make at ``target`` if plotted now (``shot_now``),
    with the piece it would aim and the exact forecast of where it lands (ART-12,
    ART-25)."""
    unit = board.units.get(battery_id)
    side = None if isinstance(board, GameState) else board.side
    if unit is None or unit.battery is None or (side is not None and unit.side != side):
        raise ValueError(f"{battery_id!r} is not an artillery unit of {side or 'the game'}")
    target = Hex(int(target[0]), int(target[1]))
    shot = shot_now(board, unit, target)
    off_board = counter_battery.is_counter_battery(board, target)
    fc = None
    if shot.refusal is None and not off_board:
        tn = None if shot.to_hit is None else shot.to_hit.total
        fc = forecast(board.area, target, tn, unit.battery.weapon)
    pieces = free_pieces(board, unit)
    return PlotPreview(
        battery=unit.id,
        battery_name=unit.name,
        weapon=weapon_spec(unit.battery.weapon),
        gunnery=unit.gunnery,
        target=target,
        target_label=counter_battery.where(board, target)
        if off_board
        else board.area.label(target),
        piece=pieces[0] if pieces else None,
        sheets=shot.sheets,
        flight=shot.flight,
        arrival_turn=None if shot.flight is None else board.turn + shot.flight,
        refusal=shot.refusal,
        automatic=shot.automatic,
        spotters=tuple(_spotter(u, shot.attacking) for u in shot.spotters),
        spotter=None if shot.spotter is None else _spotter(shot.spotter, shot.attacking),
        adjustments=shot.adjustments,
        landing_first=landing_first(board, unit, target),
        to_hit=shot.to_hit,
        forecast=fc,
        counter_battery=off_board,
    )


def _spotter(unit: Unit, attacking: Collection[str]) -> Spotter:
    return Spotter(
        unit.id, unit.name, unit.gunnery, spotter_modifier(unit.gunnery), unit.id in attacking
    )


# --- movement ------------------------------------------------------------------------------


def movement_reach(board: GameState | PlayerView, unit: Unit) -> Reach | None:
    """MOV-1 .. MOV-3, MAP-6: every hex ``unit`` can end its move in this movement
    phase, with the MP and route to each (exits onto new sheets included when
    mobile maps are on), as the engine's legal moves list them; None when it may
    not move now (it has moved, it flies (ART-36), it is hidden, it has no
    allowance)."""
    if unit.moved:
        return None
    return reach_for(board, unit)


def reach_for(board: GameState | PlayerView, unit: Unit, mp: int | None = None) -> Reach | None:
    """MOV-1 .. MOV-3, MAP-6: every hex ``unit`` could end a move in from where it
    stands, whether or not it has moved this phase: with its whole allowance, or
    with ``mp`` MP to spend (a look several turns ahead, as one long move). None
    when it does not move by these rules (it flies (ART-36), it is hidden, it has
    no allowance).

    Over a side's view an enemy unit is asked about as its own side would move it,
    blocked by the units that view shows."""
    if aircraft.is_aircraft(unit) or not can_move(unit):
        return None
    return reach(board, unit, mp)


def fastest_move(unit: Unit) -> int:
    """MOV-1/MOV-2: the most MP (hexes, for figures) ``unit`` may spend in one
    movement phase (running MP for units that run), 0 when it cannot move."""
    try:
        return mover(unit).run_mp
    except MovementError:
        return 0


def allowance_text(unit: Unit) -> str:
    """``"5 walking / 8 running MP"``, ``"3 MP"``, ``"6 hexes"`` or ``"cannot move"``."""
    try:
        return mover(unit).allowance_text()
    except MovementError:
        return "cannot move"


def movement_class(unit: Unit) -> str | None:
    """The unit's movement class (mech, vehicle, hover, infantry, figure; MOV-1,
    MOV-2), None for a unit the movement rules do not move (an aircraft)."""
    try:
        return mover(unit).movement_class
    except MovementError:
        return None


# A step into ground closed to the unit counts this many MP in ``crossing_cost``.
CLOSED_STEP = 8.0


@lru_cache(maxsize=256)
def crossing_cost(sheet_id: str, movement_class: str) -> float:
    """MOV-1/MOV-2: the mean MP a unit of ``movement_class`` pays per step between
    neighbouring hexes of the sheet (climbing included), a step it may not take
    counting ``CLOSED_STEP``: how slow the sheet is to cross (MAP-6 .. MAP-10)."""
    area = PlayArea.from_layout({(0, 0): available_sheets()[sheet_id]})
    return mean_entry_cost(area, movement_class, CLOSED_STEP)


# --- unit strength -------------------------------------------------------------------------


@dataclass(frozen=True)
class Strength:
    """What is left of a unit: ``share`` of its strength at the start (0..1) in its
    system's one measure, and a short ``text`` in that system's words."""

    share: float
    text: str


def _points(state: Any) -> float:
    """What is left of a unit in the one measure its system has (ART-35): armour
    and structure points, troopers, figures, wounds, a gun's working order, a
    battle machine's armour, or the figures fighting."""
    if isinstance(state, bs.BattleUnit):
        return float(state.figures)
    if isinstance(state, WarhammerTroops):
        return float(state.models * max(1, state.wounds_per_model) - state.carried_wounds)
    if isinstance(state, ts.Gun):
        return {"ready": 2.0, "repairing": 1.0, "disabled": 1.0}.get(state.status, 0.0)
    if isinstance(state, ts.Vehicle):
        return float(state.armour)  # TS-5: each hit takes a point; none left knocks it out
    if isinstance(state, tuple):
        return float(sum(1 for w in state if w.on_board))
    if hasattr(state, "troopers"):
        return float(state.troopers)
    return float(
        sum(state.armour.values())
        + sum(getattr(state, "rear_armour", {}).values())
        + sum(state.structure.values())
    )


def strength(unit: Unit) -> Strength:
    """What is left of ``unit`` against what it started with (its profile's fresh
    damage state), for the counters' bars and the unit panel."""
    if unit.destroyed:
        return Strength(0.0, "destroyed")
    try:
        now = _points(damage_state(unit))
        fresh = initial_damage(
            unit.id, unit.side, unit.name, unit.profile, unit.hex or Hex(0, 0), unit.facing
        )
        full = _points(damage_state(replace(unit, damage=fresh)))
        text = strength_text(unit)
    except (KeyError, TypeError, ValueError):
        return Strength(1.0, "strength unknown")
    return Strength(min(1.0, now / full) if full > 0 else 0.0, text)
