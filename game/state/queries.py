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
any MP to spend), ``ground_reach`` (over the ground alone, for a look several
turns ahead), ``can_move``, ``fastest_move``, ``allowance_text``,
``movement_class`` and ``crossing_cost`` (what a sheet costs a unit to cross,
for choosing new sheets), ``route_taken`` (the hexes a move passed, as a board
that watched it knows them). Unit strength: ``strength``.

The odds of every direct attack in all four systems (ART-32a; BS-3 .. BS-19;
WH-2 .. WH-8, WHC-1; TS-4 .. TS-10): each attack planned by the engine's own plan
of it (``target_number``, ``missile_plan``, ``melee_plan``, ``shooting_plan``,
``combat_plan``, ``shot_plan``, ``capture_plan``) over what the asker knows, its
odds from the system's exact distributions. The attack dialog shows them; the AI
scores its attacks and its answers to the rules' questions by them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import game.state.aircraft as aircraft
import game.state.combat as cs
import game.state.counter_battery as counter_battery
from game.artillery.counter_battery import (
    CandidateOdds,
    counter_battery_target_number,
    forecast_positions,
)
from game.artillery.damage import WarhammerTroops
from game.artillery.flight import flight_time, range_refusal, sheet_distance
from game.artillery.forecast import Forecast, forecast
from game.artillery.plots import Plot, valid_spotters
from game.artillery.tohit import artillery_target_number, spotter_modifier
from game.artillery.weapons import Weapon
from game.artillery.weapons import weapon as weapon_spec
from game.board.area import SHEET_HEXES, PlayArea
from game.board.movement import MovementError, Reach, Route, mean_entry_cost, reachable
from game.board.sheet import Sheet
from game.hexmath import Hex, distance
from game.rules import battlesystem as bs
from game.rules import battletech as bt
from game.rules import toysoldiers as ts
from game.rules import warhammer as wh
from game.rules.core import (
    Distribution,
    TargetNumber,
    binomial,
    mean,
    percent,
    probability_at_least,
)
from game.state.board import battery_sheet, seeing_units
from game.state.combat.battletech import target_number
from game.state.combat.warhammer import DEFAULT_STRENGTH
from game.state.model import GameState, Unit
from game.state.moving import can_move, mover, reach
from game.state.moving import route as move_route
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
    origin, aimed = battery_sheet(board, unit), board.area.position_of(target)
    if range_refusal(unit.battery.weapon, origin, aimed) is None:
        return None
    name = counter_battery.where(board, target) if off_board else board.area.name_of(target)[1]
    return range_refusal(unit.battery.weapon, origin, aimed, name)


def flights_to_area(
    weapon: Weapon, position: SheetPosition, area: PlayArea
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """ART-3, ART-5, ART-6 from a firing position: the distance in sheets to each
    sheet of the area, and the flight time to each sheet within range."""
    distances = tuple(sheet_distance(position, p) for p in area.positions)
    flights = tuple(flight_time(weapon, d) for d in distances if d <= weapon.max_range_sheets)
    return distances, flights


def flight_fits(weapon: Weapon, flight: int, firing: SheetPosition, aimed: SheetPosition) -> bool:
    """ART-5, ART-6: guns at ``firing`` reach the ``aimed`` sheet in ``flight`` turns
    (what a landed enemy shell says of where its guns may stand)."""
    return _flight_fits(weapon, flight, sheet_distance(firing, aimed))


@lru_cache(maxsize=1024)
def _flight_fits(weapon: Weapon, flight: int, dist: int) -> bool:
    return dist <= weapon.max_range_sheets and flight_time(weapon, dist) == flight


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
    board: GameState | PlayerView,
    side: str,
    target: Hex,
    sees: Sight | None = None,
    among: Sequence[Unit] | None = None,
) -> list[Unit]:
    """ART-16: the side's units that see ``target`` (its spotters if a shot is fired
    now); none for counter-battery fire, no unit sees a hex off the map (ART-37).
    ``sees`` and ``among``: line of sight answered from sight worked out beforehand,
    and the side's units on the board when the caller has them (``seeing_units``)."""
    if counter_battery.is_counter_battery(board, target):
        return []
    return seeing_units(board, side, target, sees, among)


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


@dataclass(frozen=True)
class ArrivingShot:
    """How a shell arriving now is rolled (``arriving_shot``)."""

    spotters: list[str]  # its spotters now (ART-16), in firing-list order
    automatic: str | None  # why it hits automatically, or None: it rolls
    to_hit: TargetNumber | None  # the number it rolls against, with its breakdown
    spotter: Unit | None  # the spotter the number counts


def arriving_shot(board: GameState | PlayerView, plot: Plot) -> ArrivingShot:
    """How a shell arriving now is rolled, over the state or its side's own view.
    ART-16: its spotters are the units that spotted it when it was fired and still
    see the aimed hex. It hits automatically for its plot's reason, or on an
    auto-hit hex its battery earned since it was fired (ART-19); else it rolls
    against its to-hit number with the best of those spotters."""
    unit = board.units[plot.battery]
    fired_with = set(plot.spotters_at_firing)
    may_spot = [u for u in board.living(plot.side) if u.hex is not None and u.id in fired_with]
    seeing = [u.id for u in seeing_units(board, plot.side, plot.target, among=may_spot)]
    spotters = valid_spotters(plot.spotters_at_firing, seeing)
    automatic = plot.automatic
    if automatic is None and on_auto_hit_hex(unit, plot.target, plot.fired_turn):
        automatic = "auto-hit hex"
    if automatic is not None:
        return ArrivingShot(spotters, automatic, None, None)
    tn, spotter = shot_to_hit(
        unit,
        [board.units[s] for s in spotters],
        plot.adjustments,
        plot.attacking_spotters,
        direct=plot.arrival_turn == plot.fired_turn,
        air=plot.air,
    )
    return ArrivingShot(spotters, None, tn, spotter)


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
    return shots_now(board, unit, [target], sees)[0]


class KeptSight:
    """A ``Sight`` worked out beforehand, unit by unit: ``seen_by(unit)`` gives the
    hexes the unit sees (MAP-5) among those that will be asked about, worked out at
    the first question about that unit. ``shots_now`` reads each unit's hexes whole
    rather than asking hex by hex. ``seen_among(unit, hexes)``, when given, gives
    the hexes the unit sees among ``hexes`` alone, working out no other."""

    def __init__(
        self,
        seen_by: Callable[[Unit], Collection[Hex]],
        seen_among: Callable[[Unit, Sequence[Hex]], Collection[Hex]] | None = None,
    ) -> None:
        self._seen_by = seen_by
        self._seen_among = seen_among
        # By the unit object itself (a view's units never change), held so that
        # its id is not reused.
        self._kept: dict[int, tuple[Unit, Collection[Hex]]] = {}

    def hexes(self, unit: Unit) -> Collection[Hex]:
        """The hexes ``unit`` sees among those asked about."""
        held = self._kept.get(id(unit))
        if held is None or held[0] is not unit:
            held = self._kept[id(unit)] = (unit, self._seen_by(unit))
        return held[1]

    def among(self, unit: Unit, hexes: Sequence[Hex]) -> Collection[Hex]:
        """The hexes of ``hexes`` that ``unit`` sees."""
        if self._seen_among is not None:
            return self._seen_among(unit, hexes)
        seen = self.hexes(unit)
        return [h for h in hexes if h in seen]

    def __call__(self, unit: Unit, target: Hex) -> bool:
        return target in self.hexes(unit)


def shots_now(
    board: GameState | PlayerView,
    unit: Unit,
    targets: Iterable[Hex],
    sees: Sight | None = None,
    best_spotter_only: bool = False,
    indices: Sequence[int] | None = None,
) -> list[Shot]:
    """``shot_now`` at each of ``targets``. What the shots share is worked out once:
    the units of the side that may spot, the flight to each sheet (ART-5, ART-6)
    and the to-hit number of each set of spotters (ART-11 .. ART-18).

    ``best_spotter_only`` (with a ``KeptSight``): each shot's spotters are its best
    spotter alone (``best_spotter``), the one whose number the shot takes (ART-13,
    ART-16 .. ART-18): the to-hit number, flight and automatic hit are the same,
    and a unit's sight is not asked about the hexes a better spotter sees.
    ``indices``: the targets' indices in the area arrays (-1 off the area), when
    the caller has them."""
    targets = list(targets)
    watchers = [u for u in board.living(unit.side) if u.hex is not None]
    area = board.area
    if indices is None:
        indices = [area.index_of(t) for t in targets]
    positions = area.positions
    air = aircraft.is_aircraft(unit)
    # Asked for many hexes at once (the AI weighs hundreds): what depends on the
    # sheet alone is kept per sheet position, the rest read once per call.
    in_range: dict[SheetPosition, bool] = {}  # ``aim_refusal`` of an area hex: its sheet's
    flights: dict[SheetPosition, tuple[int, int]] = {}
    numbers: dict[tuple, tuple[TargetNumber, Unit | None]] = {}
    designated = () if air else predesignated_hexes(board, unit.side)
    # ART-19: the battery's auto-hit hexes that a shot fired now hits.
    gun = unit.battery
    earned = () if gun is None else gun.auto_hit.earned
    auto_hit = {h for h in earned if on_auto_hit_hex(unit, h, board.turn)}
    # The automatic hit of each hex that has one, a pre-designated hex's first.
    automatic_at = dict.fromkeys(auto_hit, "auto-hit hex")
    automatic_at.update(dict.fromkeys(designated, "pre-designated hex"))
    # ART-17 (``adjustments``): the battery's spotted arrivals so far, by hex.
    spotted = board.queue.adjustments_by_target(unit.id, board.turn)
    # Line of sight worked out beforehand is read a unit's hexes at a time: the
    # spotters of each hex (with their ids), in the order of ``watchers``.
    kept = sees if isinstance(sees, KeptSight) else None
    spotters_of: dict[Hex, tuple[tuple[Unit, ...], tuple[str, ...]]] | None = None
    # The shots at area hexes of one sheet with the same spotters, adjustments and
    # automatic hit are the same shot: made once. An area hex of a sheet already in
    # range whose shot is made is read from them alone.
    alike: dict[tuple, Shot] = {}
    quick = kept is not None and not unit.destroyed and not air
    out = []
    for target, index in zip(targets, indices, strict=True):
        inside = index >= 0
        # The area arrays hold each sheet's hexes together, sheets in placing order.
        pos = positions[index // SHEET_HEXES] if inside else area.position_of(target)
        if quick and inside and spotters_of is not None and in_range.get(pos):
            seeing, ids = spotters_of.get(target, _UNSEEN)
            shot = alike.get(
                (pos, automatic_at.get(target), ids, spotted.get(target, 0) if ids else 0)
            )
            if shot is not None:
                out.append(shot)
                continue
        if unit.destroyed:
            refusal = f"{unit.name} has been destroyed"
        elif inside and not air:
            fits = in_range.get(pos)
            if fits is None:
                refusal = aim_refusal(board, unit, target)
                in_range[pos] = refusal is None
            else:
                refusal = None if fits else aim_refusal(board, unit, target)
        else:
            refusal = aim_refusal(board, unit, target)
        automatic = automatic_at.get(target)
        # ``spotters_at``: no unit sees a hex off the map (ART-37).
        seeing: Sequence[Unit]
        if not inside:
            seeing, ids = (), ()
        elif kept is not None:
            if spotters_of is None:
                spotters_of = (
                    _best_spotters_of(kept, watchers, targets)
                    if best_spotter_only
                    else _spotters_of(kept, watchers)
                )
            seeing, ids = spotters_of.get(target, _UNSEEN)
        else:
            seeing = seeing_units(board, unit.side, target, sees, watchers)
            ids = tuple([u.id for u in seeing])
        adjusted = spotted.get(target, 0) if seeing else 0
        if refusal is None and inside:
            like = (pos, automatic, ids, adjusted)
            shot = alike.get(like)
            if shot is not None:
                out.append(shot)
                continue
        sheets = flight = None
        if refusal is None:
            if pos not in flights:
                flights[pos] = shot_flight(board, unit, target)
            sheets, flight = flights[pos]
        attacking = frozenset(u.id for u in seeing if u.attacked)
        tn = spotter = None
        if refusal is not None:
            pass  # no shot, no number (an aircraft at altitude 10 has none at all, ART-14)
        elif not inside:
            automatic, tn = None, counter_battery_target_number(unit.gunnery)
        elif automatic is None:
            key = (ids, adjusted, flight == 0)
            if key not in numbers:
                air_launch = (aircraft.altitude_map(unit), int(unit.altitude or 0))
                numbers[key] = shot_to_hit(
                    unit,
                    seeing,
                    adjusted,
                    attacking,
                    direct=flight == 0,
                    air=air_launch if air else None,
                )
            tn, spotter = numbers[key]
        shot = Shot(
            refusal, sheets, flight, automatic, tuple(seeing), attacking, adjusted, tn, spotter
        )
        if refusal is None and inside:
            alike[(pos, automatic, ids, adjusted)] = shot
        out.append(shot)
    return out


# The spotters of a hex no unit sees, with their ids.
_UNSEEN: tuple[tuple[Unit, ...], tuple[str, ...]] = ((), ())

# Nothing seen by anyone.
_NO_SIGHT = KeptSight(lambda unit: (), lambda unit, hexes: ())


def shot_numbers(
    board: GameState | PlayerView,
    unit: Unit,
    targets: Sequence[Hex],
    indices: Sequence[int] | None = None,
) -> list[list[tuple[int | None, int | None]]]:
    """Every (flight, to-hit number) the shot ``unit`` would make now at each target
    could take, whichever of the side's units see its hex (``shots_now`` told of no
    sight): with no spotter first, then with each kind of spotter as its best (its
    gunnery and its own attacks, all that the number reads of it: ART-13, ART-16 ..
    ART-18), each once. A refused shot's is (None, None); an automatic hit (ART-19,
    ART-21) and counter-battery fire (ART-37) read no spotter. ``indices``: as for
    ``shots_now``."""
    shots = shots_now(board, unit, targets, _NO_SIGHT, best_spotter_only=True, indices=indices)
    if indices is None:
        indices = [board.area.index_of(t) for t in targets]
    kinds = {(u.gunnery, u.attacked): u for u in board.living(unit.side) if u.hex is not None}
    spotted = board.queue.adjustments_by_target(unit.id, board.turn)
    air = (
        (aircraft.altitude_map(unit), int(unit.altitude or 0))
        if aircraft.is_aircraft(unit)
        else None
    )
    spotted_numbers: dict[tuple[int, bool], list[int]] = {}
    out: list[list[tuple[int | None, int | None]]] = []
    for target, index, shot in zip(targets, indices, shots, strict=True):
        numbers = [(shot.flight, None if shot.to_hit is None else shot.to_hit.total)]
        out.append(numbers)
        if shot.refusal is not None or index < 0 or shot.automatic is not None:
            continue
        adjusted, direct = spotted.get(target, 0), shot.flight == 0
        by_spotter = spotted_numbers.get((adjusted, direct))
        if by_spotter is None:
            by_spotter = spotted_numbers[(adjusted, direct)] = [
                shot_to_hit(
                    unit,
                    (s,),
                    adjusted,
                    frozenset([s.id]) if s.attacked else frozenset(),
                    direct=direct,
                    air=air,
                )[0].total
                for s in kinds.values()
            ]
        for tn in by_spotter:
            if (shot.flight, tn) not in numbers:
                numbers.append((shot.flight, tn))
    return out


def _spotters_of(
    sight: KeptSight, watchers: list[Unit]
) -> dict[Hex, tuple[tuple[Unit, ...], tuple[str, ...]]]:
    """The units of ``watchers`` that see each hex ``sight`` holds, in their order,
    with their ids."""
    seeing: dict[Hex, list[Unit]] = {}
    for u in watchers:
        for h in sight.hexes(u):
            seeing.setdefault(h, []).append(u)
    return {h: (tuple(us), tuple([u.id for u in us])) for h, us in seeing.items()}


def _best_spotters_of(
    sight: KeptSight, watchers: list[Unit], targets: Sequence[Hex]
) -> dict[Hex, tuple[tuple[Unit, ...], tuple[str, ...]]]:
    """The best spotter (``best_spotter``) among ``watchers`` of each of ``targets``
    that one of them sees, with its id: the watchers are asked best first, each
    about the hexes no better one sees."""
    # ``best_spotter``'s order: a spotter that made its own attacks counts +1 (ART-18).
    ranked = sorted(watchers, key=lambda u: (spotter_modifier(u.gunnery) + u.attacked, u.id))
    left = list(dict.fromkeys(targets))
    best: dict[Hex, tuple[tuple[Unit, ...], tuple[str, ...]]] = {}
    for u in ranked:
        if not left:
            break
        seen = sight.among(u, left)
        if not seen:
            continue
        best.update(dict.fromkeys(seen, ((u,), (u.id,))))
        left = [h for h in left if h not in best]
    return best


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


def route_taken(board: GameState | PlayerView, unit: Unit, to: Hex, facing: int) -> Route | None:
    """MOV-1 .. MOV-3, MAP-6: the route of a move of ``unit`` (as it stood before the
    move) that ended in ``to`` facing ``facing``, as ``board`` shows the units that
    block or let it pass: the engine's own route (``moving.route``, the one it
    checks a ``Move`` with). A side that watched a move reads the hexes it passed
    so; None when ``board`` shows no legal way there (a unit that moved after it
    stands in the way)."""
    if unit.hex is None:
        return None
    found = move_route(board, unit, to, facing)
    return None if isinstance(found, str) else found


def ground_reach(area: PlayArea, unit: Unit, mp: int) -> Reach | None:
    """MOV-1, MOV-2: every hex of ``area`` ``unit`` could end a move of ``mp`` MP in
    from where it stands, over the ground alone: no unit in the way and no exit off
    the area (a look several turns ahead, when the units will have moved). None
    when it does not move by these rules (it flies (ART-36), it is hidden, it has
    no allowance)."""
    if aircraft.is_aircraft(unit) or not can_move(unit) or unit.hex is None:
        return None
    return reachable(area, unit.hex, unit.facing, mover(unit), mp)


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
def crossing_cost(sheet: Sheet, movement_class: str) -> float:
    """MOV-1/MOV-2: the mean MP a unit of ``movement_class`` pays per step between
    neighbouring hexes of the sheet (climbing included), a step it may not take
    counting ``CLOSED_STEP``: how slow the sheet is to cross (MAP-6 .. MAP-10).
    ``sheet`` is one of the game's own (``board.area.catalogue[id]``), which a save
    keeps, not today's file of that id; cached per sheet."""
    area = PlayArea.from_layout({(0, 0): sheet})
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


def points_left(unit: Unit) -> float:
    """What is left of ``unit`` in its system's one measure (``_points``): for a
    BattleTech unit its armour and structure points, or its troopers (ART-32)."""
    if unit.destroyed:
        return 0.0
    try:
        return _points(damage_state(unit))
    except (KeyError, TypeError, ValueError):
        return 0.0


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


# --- the odds of direct attacks ------------------------------------------------------------

# The attacks of each system with figures, by the words of the ``Attack`` command
# (a toy-soldier warrior may also take an enemy gun: ``CAPTURE``, TS-10).
SYSTEM_WEAPONS: dict[str, tuple[str, ...]] = {
    cs.BATTLESYSTEM: (cs.MISSILE, cs.MAGICAL, cs.MELEE),
    cs.WARHAMMER: (cs.SHOOTING, cs.CLOSE_COMBAT),
    cs.TOY_SOLDIERS: (cs.SHOT,),
}


@dataclass(frozen=True)
class AttackOdds:
    """One way to attack: its exact odds, or why it cannot be made.

    ``chance``: the probability that the attack does anything to the target (a hit,
    a figure removed, an unsaved wound, the gun taken); None for a round of melee,
    whose blows go both ways. ``expected``: what the target is expected to lose, in
    its own system's count (BattleTech damage points, BATTLESYSTEM figures,
    Warhammer unsaved wounds, toy-soldier warriors, a gun disabled or taken, a
    vehicle's point of armour). ``share``: that loss as a share of what the target
    has left (None for BattleTech, whose damage lands on locations). ``cost``: the
    share of the attacker's own strength it is expected to lose in the exchange
    (the blows struck back in melee, a warrior wounded in a lost fight for a gun)."""

    weapon: str
    label: str
    chance: float | None
    lines: list[str] = field(default_factory=list)
    refusal: str | None = None
    expected: float = 0.0
    share: float | None = 0.0
    cost: float = 0.0
    # A round of close combat (WHC-1): the chance that the target, or the attacker's
    # own unit, loses the round and breaks (falls back a hex, or is cut down when it
    # has nowhere to go), and the chance that it is cut down.
    breaks: float = 0.0
    broken: float = 0.0
    cut_down: float = 0.0
    cut_down_own: float = 0.0


def attack_odds(
    board: GameState | PlayerView, attacker_id: str, target_id: str
) -> list[AttackOdds]:
    """Every attack ``attacker_id`` could make on ``target_id``, with its exact odds,
    from what ``board`` (the state, or the attacker's side's view) holds."""
    unit = board.units.get(attacker_id)
    target = board.units.get(target_id)
    if unit is None:
        raise ValueError(f"there is no unit {attacker_id!r}")
    if target is None or target.side == unit.side:
        raise ValueError(f"{target_id!r} is not an enemy unit in sight")
    if unit.system != target.system:
        return [
            AttackOdds(
                "",
                "No direct attack",
                None,
                refusal=f"{unit.name} ({unit.system}) cannot attack {target.name} "
                f"({target.system}) directly: each system fights its own kind",
            )
        ]
    if unit.hex is None or target.hex is None:
        return [AttackOdds("", "No direct attack", None, refusal="both units must be on the board")]
    return [attack_odds_of(board, unit, target, weapon) for weapon in attack_weapons(unit, target)]


def attack_weapons(unit: Unit, target: Unit) -> list[str]:
    """The attacks ``unit`` has against ``target`` (of its own system)."""
    if unit.system == cs.BATTLETECH:
        return list(dict.fromkeys(str(w) for w in unit.profile.get("weapons", [])))
    found = list(SYSTEM_WEAPONS.get(unit.system, ()))
    if unit.system == cs.TOY_SOLDIERS and target.kind == "gun" and unit.kind != "gun":
        found.append(cs.CAPTURE)  # TS-10: a warrior may take an enemy gun
    if not unit.profile.get("magical_volleys"):
        found = [w for w in found if w != cs.MAGICAL]  # BS-14: none carried
    return found


def attack_odds_of(
    board: GameState | PlayerView, unit: Unit, target: Unit, weapon: str
) -> AttackOdds:
    """The exact odds of one attack (``weapon`` in the words of the ``Attack`` or
    ``GunAction`` command) of ``unit`` on ``target``, both on the board."""
    if unit.system == cs.BATTLETECH:
        return battletech_odds(board, unit, target, weapon)
    if weapon in (cs.MISSILE, cs.MAGICAL):
        return _volley_odds(board, unit, target, weapon)
    if weapon == cs.MELEE:
        return _melee_odds(board, unit, target)
    if weapon == cs.SHOOTING:
        return shooting_odds(board, unit, target)
    if weapon == cs.CLOSE_COMBAT:
        return _close_combat_odds(board, unit, target)
    if weapon == cs.SHOT:
        return shot_odds(board, unit, target)
    if weapon == cs.CAPTURE:
        return _capture_odds(board, unit, target)
    return AttackOdds(weapon, weapon.capitalize(), None, refusal=f"no attack called {weapon!r}")


# --- BattleTech-style direct fire (ART-32a, ART-18) ------------------------------------------


def battletech_odds(
    board: GameState | PlayerView, unit: Unit, target: Unit, weapon: str
) -> AttackOdds:
    """ART-32a: the engine's to-hit number with every modifier, the exact chance of
    2d6 reaching it and the mean damage of a hit (missiles by the cluster table)."""
    try:
        spec = bt.direct_fire_weapon(weapon)
    except ValueError as exc:
        return AttackOdds(weapon, weapon, None, refusal=str(exc))
    tn = target_number(board, unit, target, weapon)
    if tn is None or isinstance(tn, str):
        return AttackOdds(weapon, spec.name, None, refusal=tn or f"{target.name} is out of range")
    assert unit.hex is not None and target.hex is not None
    p = _hit_probability(tn.total)
    damage = _mean_hit_damage(spec)
    hit = f"{damage:.1f} damage on average" if spec.missiles else f"{spec.damage} damage"
    return AttackOdds(
        weapon,
        spec.name,
        p,
        [
            f"{distance(unit.hex, target.hex)} hexes; to hit {tn.total}: {tn.breakdown()}",
            f"2d6 >= {tn.total}: {percent(p)}; a hit does {hit}",
        ],
        expected=p * damage,
        share=None,
    )


@lru_cache(maxsize=64)
def _hit_probability(total: int) -> float:
    """``bt.hit_probability`` of a to-hit total, kept: the AI asks it of every
    attack it weighs, and there are eleven totals that matter."""
    return bt.hit_probability(total)


@lru_cache(maxsize=64)
def _mean_hit_damage(spec: bt.DirectFireWeapon) -> float:
    """The mean damage of one hit of a direct-fire weapon (the cluster table for
    missiles, ART-32a), kept per weapon."""
    return float(mean(bt.cluster_distribution(spec)))


def _part(lost: float, whole: int) -> float:
    """An expected loss as a share of what the unit has left (at most all of it)."""
    return min(1.0, lost / whole) if whole > 0 else 0.0


# --- BATTLESYSTEM (BS-3 .. BS-19) ---------------------------------------------------------------


def _armor(armor: int) -> int:
    """An armour rating as the armour check reads it: BS-3's table ends at both sides."""
    return max(bs.AR_BEST, min(bs.AR_WORST, armor))


def _volley_odds(
    board: GameState | PlayerView, unit: Unit, target: Unit, weapon: str
) -> AttackOdds:
    """BS-13 .. BS-19, BS-14: a missile or magical volley's figures removed, exactly
    (hits beyond the figures in sight are lost, BS-15)."""
    magical = weapon == cs.MAGICAL
    title = "Magical volley" if magical else "Missile volley"
    plan = cs.missile_plan(board, unit, target, magical=magical)
    if isinstance(plan, str):
        return AttackOdds(weapon, title, None, refusal=plan)
    aimed = cs.battle_unit(target)
    in_sight = len(cs.figures_in_sight(board, unit, target, plan))
    lines = []
    groups = []
    for group in plan.groups:
        assert group.armor is not None
        ar = _armor(group.armor.total)
        groups.append((group.dice_count, group.sides, ar))
        hits = mean(bs.hits_distribution(group.dice_count, group.sides))
        stand = bs.hit_stands_probability(ar)
        lines.append(
            f"{group.dice_count} attack dice at {plan.band} range; {group.armor.breakdown()}: "
            f"{float(hits):.1f} hits expected, each stands {percent(stand)} (BS-3)"
        )
    removed = bs.grouped_figures_removed_distribution(
        groups, aimed.hits_per_figure, aimed.carried_hits, in_sight
    )
    expected = float(mean(removed))
    any_removed = 1 - removed.get(0, Fraction(0))
    if in_sight < aimed.figures:
        lines.append(f"{in_sight} of {aimed.figures} figures in sight (BS-15)")
    lines.append(
        f"{expected:.2f} figures removed on average; at least one {percent(any_removed)} (BS-4)"
    )
    return AttackOdds(
        weapon,
        title,
        float(any_removed),
        lines,
        expected=expected,
        share=_part(expected, aimed.figures),
    )


def _melee_odds(board: GameState | PlayerView, unit: Unit, target: Unit) -> AttackOdds:
    """BS-9 .. BS-12: the figures each regiment is expected to lose in the round, each
    striking with the figures it has in contact now (BS-6's consecutive rounds, BS-11's
    armour modifiers, BS-12's charge and set spears)."""
    plan = cs.melee_plan(board, unit, target)
    if isinstance(plan, str):
        return AttackOdds(cs.MELEE, "Melee round", None, refusal=plan)
    lines = list(plan.notes)
    names = {unit.id: unit.name, target.id: target.name}
    removed: dict[str, tuple[float, int]] = {}
    for side, other in ((plan.attacker, plan.defender), (plan.defender, plan.attacker)):
        a, b = side.unit, other.unit
        count = bs.melee_attackers(a, bs.contact_cells(a, b)).dice_count(*side.dice_multipliers)
        # BS-6: [12]8 counts consecutive rounds against the same enemy.
        round_ = a.melee_round + 1 if a.melee_opponent == b.unit_id else 1
        sides = a.dice.dice_for(melee_round=round_)
        armor = bs.armor_target(b.armor_rating, other.armor_modifiers)
        lost = float(
            bs.expected_figures_removed(
                count, sides, _armor(armor.total), b.hits_per_figure, b.carried_hits, b.figures
            )
        )
        removed[b.unit_id] = lost, b.figures
        lines.append(
            f"{names[a.unit_id]}: {count} AD vs {armor.breakdown()}: "
            f"{lost:.2f} figures removed on average"
        )
    return AttackOdds(
        cs.MELEE,
        "Melee round",
        None,
        lines,
        expected=removed[target.id][0],
        share=_part(*removed[target.id]),
        cost=_part(*removed[unit.id]),
    )


# --- Warhammer (WH-2 .. WH-8, WHC-1) -------------------------------------------------------------


def _wounds_left(unit: Unit) -> int:
    troops = cs.troops(unit)
    return troops.models * troops.wounds_per_model - troops.carried_wounds


def shooting_odds(
    board: GameState | PlayerView, unit: Unit, target: Unit, *, stand_and_shoot: bool = False
) -> AttackOdds:
    """WH-2 .. WH-8: the exact distribution of unsaved wounds of a volley, or of the
    volley a charged unit stands and shoots with (WH-3)."""
    plan = cs.shooting_plan(board, unit, target, stand_and_shoot=stand_and_shoot)
    if isinstance(plan, str):
        return AttackOdds(cs.SHOOTING, "Shooting", None, refusal=plan)
    aimed = cs.troops(target)
    dist = wh.unsaved_wounds_distribution(
        list(plan.batches()),
        int(unit.profile.get("bs", 3)),
        (),
        plan.strength,
        aimed.toughness,
        aimed.armour,
        shield=aimed.shield,
        mount=aimed.mount,
        ward=aimed.ward,
        shots_per_model=plan.shots,
    )
    some = 1 - dist.get(0, Fraction(0))
    expected = float(mean(dist))
    return AttackOdds(
        cs.SHOOTING,
        "Shooting",
        float(some),
        [
            f"{plan.firing.describe()}, {plan.distance} hexes, cover: {plan.cover}",
            f"{expected:.2f} unsaved wounds on average; at least one {percent(some)} "
            "(WH-2 .. WH-8)",
        ],
        expected=expected,
        share=_part(expected, _wounds_left(target)),
    )


def _blows(striker: Unit, struck: Unit, attacks: int, needed: int) -> Distribution:
    """WHC-1, WH-7 .. WH-9: the unsaved wounds of one side's blows: each attack hits on
    ``needed``+ and then wounds and gets through the saves as a shooting hit does."""
    aimed = cs.troops(struck)
    strength = int(striker.profile.get("s", DEFAULT_STRENGTH))
    return _blows_through(
        strength,
        aimed.toughness,
        aimed.armour,
        aimed.shield,
        aimed.mount,
        aimed.ward,
        attacks,
        needed,
    )


@lru_cache(maxsize=1024)
def _blows_through(
    strength: int,
    toughness: int,
    armour: str | int,
    shield: bool,
    mount: bool,
    ward: int | None,
    attacks: int,
    needed: int,
) -> Distribution:
    """``_blows`` by the figures it reads: the odds of every round ask them again."""
    through = wh.unsaved_chance(strength, toughness, armour, shield=shield, mount=mount, ward=ward)
    return binomial(attacks, probability_at_least(1, 6, needed) * through)


def _close_combat_odds(board: GameState | PlayerView, unit: Unit, target: Unit) -> AttackOdds:
    """WHC-1: both units strike at once; each side's unsaved wounds, exactly."""
    plan = cs.combat_plan(board, unit, target)
    if isinstance(plan, str):
        return AttackOdds(cs.CLOSE_COMBAT, "Close combat", None, refusal=plan)
    dealt = _blows(unit, target, plan.attacks[0], plan.to_hit[0])
    suffered = _blows(target, unit, plan.attacks[1], plan.to_hit[1])
    given, taken = float(mean(dealt)), float(mean(suffered))
    breaks = _break_odds(board, unit, target, plan, dealt, suffered)
    return AttackOdds(
        cs.CLOSE_COMBAT,
        "Close combat",
        None,
        [
            f"attacks {plan.attacks[0]} vs {plan.attacks[1]}, to hit "
            f"{plan.to_hit[0]}+ vs {plan.to_hit[1]}+",
            f"unsaved wounds on average: {given:.2f} dealt, {taken:.2f} taken (WH-7 .. WH-9)",
            *(
                f"before the blows, {score.name}: "
                + ", ".join(f"{label} {value:+d}" for label, value in score.items if value)
                + f" = {score.total}"
                + (", musician" if score.musician else "")
                for score in cs.standing_scores(unit, target, plan)
            ),
            "each unsaved wound adds 1; the loser tests to break (WHC-1)",
            f"{target.name} breaks {percent(breaks[0])} (cut down {percent(breaks[2])}), "
            f"{unit.name} {percent(breaks[1])} (cut down {percent(breaks[3])})",
        ],
        expected=given,
        share=_part(given, _wounds_left(target)),
        cost=_part(taken, _wounds_left(unit)),
        breaks=float(breaks[0]),
        broken=float(breaks[1]),
        cut_down=float(breaks[2]),
        cut_down_own=float(breaks[3]),
    )


_BREAKS: dict[tuple[Any, ...], list[Fraction]] = {}


def _command(unit: Unit) -> tuple[Any, ...]:
    """What of a Warhammer unit's profile its combat result and break test read."""
    return tuple(unit.profile.get(k) for k in ("standard", "battle_standard", "musician", "ld"))


def _break_odds(
    board: GameState | PlayerView,
    unit: Unit,
    target: Unit,
    plan: cs.CombatPlan,
    dealt: Distribution,
    suffered: Distribution,
) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """WHC-1's break test over every outcome of the round: (the target breaks, the
    unit breaks, the target is cut down, the unit is cut down). Each pair of wounds
    dealt and taken gives the combat result (``round_outcomes``, as the engine counts
    it); a loser with models left breaks on 2d6 above its Leadership less the margin,
    and is cut down when no hex is free to fall back to."""
    units = (unit, target)
    cornered = (
        cs.fall_back_hex(board, unit, target) is None,
        cs.fall_back_hex(board, target, unit) is None,
    )
    # The same round is asked of again at every decision of an attack phase: the
    # break chances depend only on the two units' troops and command and the plan.
    key = (
        *((u.id, u.name, u.side, cs.troops(u), _command(u)) for u in units),
        plan,
        tuple(dealt.items()),
        tuple(suffered.items()),
    )
    broke = _BREAKS.get(key)
    if broke is None:
        # The chance of each loser losing by each margin, then its break test once a margin.
        lost: dict[tuple[int, int], Fraction] = {}
        for d, t, outcome in cs.round_outcomes(unit, target, plan, dealt, suffered):
            k = outcome.loser
            if k is None or outcome.after[k].models == 0:
                continue
            margin = (k, outcome.result.margin)
            lost[margin] = lost.get(margin, Fraction(0)) + dealt[d] * suffered[t]
        broke = [Fraction(0), Fraction(0)]
        for (k, margin), p in lost.items():
            broke[k] += p * cs.break_chance(units[k], margin)
        if len(_BREAKS) > 4096:
            _BREAKS.clear()
        _BREAKS[key] = broke
    return (
        broke[1],
        broke[0],
        broke[1] if cornered[1] else Fraction(0),
        broke[0] if cornered[0] else Fraction(0),
    )


# --- toy soldiers (TS-4 .. TS-10) ----------------------------------------------------------------


def shot_odds(
    board: GameState | PlayerView, unit: Unit, target: Unit, *, after_manoeuvre: bool = False
) -> AttackOdds:
    """TS-4, TS-5, TS-7: one virtual shot: a warrior killed or wounded (either leaves
    the board), a gun disabled, a vehicle's armour lowered by 1. With
    ``after_manoeuvre`` it is TS-13's shot right after the unit's manoeuvre."""
    plan = cs.shot_plan(board, unit, target, after_manoeuvre=after_manoeuvre)
    if isinstance(plan, str):
        return AttackOdds(cs.SHOT, "Virtual shot", None, refusal=plan)
    odds = ts.shot_odds(plan.aim.chance)
    hit = float(odds.hit)
    aimed = plan.aim.target
    if isinstance(aimed, ts.Gun | ts.Vehicle):
        effect = "disabled" if isinstance(aimed, ts.Gun) else "armour -1"
        told = f"hit {percent(odds.hit)}: {effect} (TS-5)"
        whole = 1 if isinstance(aimed, ts.Gun) else aimed.armour
    else:
        told = f"killed {percent(odds.killed)}, wounded {percent(odds.wounded)} (TS-4, TS-7)"
        whole = _standing(target)
    return AttackOdds(
        cs.SHOT,
        "Virtual shot",
        hit,
        [f"chance {plan.aim.chance}: {plan.aim.number.breakdown()}", told],
        expected=hit,
        share=_part(hit, whole),
    )


def _standing(unit: Unit) -> int:
    """Warriors of a toy-soldier unit still on the board."""
    return sum(1 for w in unit.damage.get("warriors", ()) if ts.Warrior.from_dict(w).on_board)


def _capture_odds(board: GameState | PlayerView, unit: Unit, target: Unit) -> AttackOdds:
    """TS-10: taken without a fight when no guard stands within 1 step, else after a
    melee: each side d6 + its warriors; a tie or less wounds one of ours."""
    found = cs.capture_plan(board, unit, target)
    if isinstance(found, str):
        return AttackOdds(cs.CAPTURE, "Capture the gun", None, refusal=found)
    won = float(found.odds)
    if not found.guards:
        lines = ["no enemy warrior within 1 step of it: taken without a fight (TS-10)"]
    else:
        guards = len(found.guards)
        lines = [
            f"guarded by {guards} warrior{'s' if guards != 1 else ''}: melee first, each side "
            f"d6 + its warriors ({found.captors} against {guards})",
            f"won {percent(found.odds)}: the gun is taken, a guard wounded; a tie or "
            "less: held, one of ours wounded (TS-10)",
        ]
    lost = _part(1 - won, _standing(unit)) if found.guards else 0.0
    return AttackOdds(cs.CAPTURE, "Capture the gun", won, lines, expected=won, share=won, cost=lost)
