"""``legal_commands(state, side)``: what a side may do now (the AI and the soak
tests choose from this list; every command in it passes ``apply``).

Deployments are listed with each battery's declared sheet and hex (any other
sheet or hex is legal too and checked by ``apply``); moves are listed with the
best final facing of each reachable hex, plus every facing in place.
Counter-battery fire (ART-37) is listed at hex 0909 of every off-board position
the side's announced directions allow (ART-24); any other hex of any position
beyond the play area is legal too and checked by ``apply``.

``legal_options(state, side)`` is the same list worked out a group at a time
(``LegalCommands``): a unit's moves, a piece's plots. The AI asks only for the
groups it weighs (the one unit it moves, the first piece it aims), so a
decision no longer pays for every reach and every plot of the side.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import (
    Callable,
    Collection,
    Hashable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import astuple
from functools import cached_property, lru_cache, partial
from itertools import compress, groupby
from typing import Protocol, overload

import game.state.aircraft as aircraft
import game.state.combat as combat
import game.state.counter_battery as counter_battery
import game.state.moving as moving
from game.artillery.counter_battery import announced_positions
from game.artillery.flight import range_refusal
from game.artillery.predesignated import predesignation_refusal
from game.artillery.weapons import weapon as weapon_spec
from game.board.area import SHEET_HEXES, PlayArea
from game.hexmath import Hex, disk, neighbors
from game.scenario.model import FLANKS
from game.state.board import battery_sheet
from game.state.commands import (
    Answer,
    Attack,
    Command,
    Deploy,
    EndPhase,
    Fly,
    GunAction,
    Hold,
    Move,
    PlaceSheet,
    PlotFire,
    Predesignate,
)
from game.state.engine import (
    acting_side,
    check_side,
    deployment_refusal,
    rounds_left,
)
from game.state.mobile import allowed_sheets
from game.state.model import ATTACK, MOVEMENT, SETUP, TARGETING, GameState, Unit


def legal_commands(state: GameState, side: str) -> list[Command]:
    """Every command ``side`` may give now; empty when it is not its turn or the game is over."""
    return list(legal_options(state, side))


def legal_options(state: GameState, side: str) -> LegalCommands:
    """``legal_commands(state, side)``, each group of it worked out only when read.

    Read it before the state changes: the groups not yet read are worked out
    from the state as it is when they are read."""
    check_side(state, side)
    if acting_side(state) != side:
        return LegalCommands.of([])
    if state.pending_sheet is not None:
        return LegalCommands.of([PlaceSheet(side, s) for s in allowed_sheets(state)])
    if state.questions:
        return LegalCommands.of([Answer(side, c) for c in state.questions[0]["choices"]])
    if state.phase == SETUP:
        return LegalCommands.of(_setup(state, side))
    if state.phase == MOVEMENT:
        # Every unit listed may at least hold.
        return LegalCommands(_movement(state, side), none_empty=True)
    if state.phase == TARGETING:
        groups, pieces = _targeting(state, side)
        legal = LegalCommands(groups)
        legal._pieces = pieces
        return legal
    if state.phase == ATTACK:
        return LegalCommands.of(_attacks(state, side))
    return LegalCommands.of([])


def group_of(command: Command) -> Hashable:
    """The group a legal command is listed in: a unit's moves, a piece's plots, or
    every other command of its kind."""
    listed = _LISTED_BY.get(type(command))
    if listed == "unit":
        return ("unit", command.unit)  # type: ignore[attr-defined]
    if listed == "piece":
        return ("piece", command.battery, command.piece)  # type: ignore[attr-defined]
    return ("kind", command.kind)


# Asked of every command the AI weighs: by the command's class, not a chain of tests.
_LISTED_BY: dict[type, str] = {Move: "unit", Hold: "unit", Fly: "unit", PlotFire: "piece"}


class LegalCommands(Sequence[Command]):
    """The legal commands of one decision, in ``legal_commands`` order, made of
    groups (``group_of``) each worked out at its first reading."""

    def __init__(
        self,
        groups: Iterable[tuple[Hashable, Callable[[], list[Command]]]],
        none_empty: bool = False,
    ) -> None:
        """``none_empty``: every group holds a command (so the list is empty only
        when it has no group, known without working any out)."""
        self._makers = dict(groups)
        self._none_empty = none_empty
        # Pieces whose plots are answered hex by hex (``first_piece``, ``in``) before,
        # or instead of, being listed.
        self._pieces: dict[Hashable, _PieceAims] = {}
        # Wall clock spent working out groups: the engine's time, not the reader's.
        self.seconds = 0.0
        # Each group read: its commands, and the ids of those very objects (a
        # candidate is most often one of them, known without hashing it).
        self._groups: dict[Hashable, tuple[list[Command], set[int]]] = {}
        self._members: dict[Hashable, set[Command]] = {}
        self._all: list[Command] | None = None
        # The ids of the group a command was last found in: the commands asked
        # about one after another are most often that group's own objects.
        self._last_ids: set[int] = set()

    @classmethod
    def of(cls, commands: list[Command]) -> LegalCommands:
        """A list already worked out, grouped."""
        groups: dict[Hashable, list[Command]] = {}
        # Listed in runs of one kind (the set-up's hundreds of pre-designations): a
        # run of a kind grouped by kind goes in whole.
        for kind, run in groupby(commands, type):
            if kind in _LISTED_BY:
                for c in run:
                    groups.setdefault(group_of(c), []).append(c)
            else:
                groups.setdefault(("kind", kind.kind), []).extend(run)
        made = cls(((key, group.copy) for key, group in groups.items()), none_empty=True)
        made._all = list(commands)
        return made

    @classmethod
    def read(cls, legal: Sequence[Command]) -> LegalCommands:
        """``legal`` itself when it is a ``LegalCommands``; a list, grouped."""
        return legal if isinstance(legal, LegalCommands) else cls.of(list(legal))

    def group(self, key: Hashable) -> list[Command]:
        """The commands of one group (empty for a group that has none)."""
        if key not in self._makers:
            return []
        if key not in self._groups:
            started = time.perf_counter()
            commands = self._makers[key]()
            self._groups[key] = (commands, set(map(id, commands)))
            self.seconds += time.perf_counter() - started
        return self._groups[key][0]

    def by_unit(self) -> Mapping[str, list[Command]]:
        """Each unit's moves (``Move``, ``Hold``, ``Fly``), by unit id in list order;
        a unit's are worked out when read."""
        return _UnitMoves(self)

    def first_piece(self) -> PiecePlots | None:
        """The plots of the first piece that has any (the piece of the list's first
        ``PlotFire``), or None."""
        for key in self._makers:
            if key[0] != "piece":  # type: ignore[index]
                continue
            aims = self._pieces.get(key)
            if aims is None:
                plots = self.group(key)
                if plots:
                    return ListedPlots(plots)  # type: ignore[arg-type]
                continue
            started = time.perf_counter()
            found = aims.any()
            self.seconds += time.perf_counter() - started
            if found:
                return aims
        return None

    def _every(self) -> list[Command]:
        if self._all is None:
            self._all = [c for key in self._makers for c in self.group(key)]
        return self._all

    def __contains__(self, command: object) -> bool:
        if id(command) in self._last_ids:
            return True
        if not isinstance(command, Command):
            return False
        key = group_of(command)
        if key not in self._makers:
            return False
        if key in self._pieces and key not in self._groups:
            return self._pieces[key].allows(command)  # type: ignore[arg-type]
        self.group(key)
        commands, ids = self._groups[key]
        if id(command) in ids:
            self._last_ids = ids
            return True
        members = self._members.get(key)
        if members is None:
            members = self._members[key] = set(commands)
        return command in members

    def holds_all(self, commands: Sequence[Command]) -> bool:
        """Whether every one of ``commands`` is legal: at once when they are the very
        objects listed here (a unit's moves, scored), else one by one."""
        if commands and commands[0] in self and self._last_ids.issuperset(map(id, commands)):
            return True
        return all(c in self for c in commands)

    def __bool__(self) -> bool:
        if self._none_empty:
            return bool(self._makers)
        return any(self.group(key) for key in self._makers)

    def __iter__(self) -> Iterator[Command]:
        return iter(self._every())

    def __len__(self) -> int:
        return len(self._every())

    @overload
    def __getitem__(self, index: int) -> Command: ...
    @overload
    def __getitem__(self, index: slice) -> list[Command]: ...
    def __getitem__(self, index: int | slice) -> Command | list[Command]:
        return self._every()[index]


class _UnitMoves(Mapping[str, list[Command]]):
    def __init__(self, legal: LegalCommands) -> None:
        self._legal = legal
        self._units = [k[1] for k in legal._makers if k[0] == "unit"]  # type: ignore[index]

    def __getitem__(self, unit: str) -> list[Command]:
        if unit not in self._units:
            raise KeyError(unit)
        return self._legal.group(("unit", unit))

    def __contains__(self, unit: object) -> bool:
        return unit in self._units  # without working out its moves

    def __iter__(self) -> Iterator[str]:
        return iter(self._units)

    def __len__(self) -> int:
        return len(self._units)


def _setup(state: GameState, side: str) -> list[Command]:
    out: list[Command] = [EndPhase(side), *_deployments(state, side)]
    if state.options.get("predesignated_hexes"):
        chosen = state.predesignated.get(side, [])
        out += [Predesignate(side, h, remove=True) for h in chosen]
        batteries = sum(1 for u in state.living(side) if u.battery is not None)
        base = [state.area.position_of(h) for h in chosen]
        for pos, group in state.area.sheet_hexes().items():
            if predesignation_refusal([*base, pos], batteries, state.area.sheet_count) is None:
                every = _sheet_predesignations(side, tuple(group))
                out += [c for c in every if c.hex not in chosen] if chosen else every
    return out


def _deployments(state: GameState, side: str) -> tuple[Deploy, ...]:
    """ART-1, ART-2, MAP-10: each off-board battery's other legal positions, kept per
    map while the side's batteries stand where they stood: set-up asks at every one
    of its commands, and most of them pre-designate hexes (ART-20), which moves no
    battery. What the refusals read: the sheets in play, and of the side's batteries
    their weapons and positions."""
    batteries = tuple(
        (u.id, u.battery.weapon, None if (off := u.battery.offboard) is None else astuple(off))
        for u in state.living(side)
        if u.battery is not None
    )
    area = state.area
    kept = _DEPLOYMENTS.get(area)
    if kept is None or kept[0] != area.revision:
        kept = _DEPLOYMENTS[area] = (area.revision, {})
    made = kept[1].get((side, batteries))
    if made is None:
        made = kept[1][(side, batteries)] = tuple(_deployments_anew(state, side))
    return made


_DEPLOYMENTS: weakref.WeakKeyDictionary[PlayArea, tuple[int, dict[tuple, tuple[Deploy, ...]]]] = (
    weakref.WeakKeyDictionary()
)


def _deployments_anew(state: GameState, side: str) -> list[Deploy]:
    out: list[Deploy] = []
    i_min, i_max, j_min, j_max = state.area.sheet_bounds()
    for unit in state.living(side):
        if unit.battery is None or unit.battery.offboard is None:
            continue
        off = unit.battery.offboard
        reach = weapon_spec(unit.battery.weapon).max_range_sheets
        for direction in (side, *FLANKS[state.area.home_edges]):
            span = (
                range(i_min, i_max + 1)
                if direction in ("north", "south")
                else range(j_min, j_max + 1)
            )
            for along in span:
                for dist in range(1, min(reach, 12) + 1):
                    cmd = Deploy(side, unit.id, direction, along, dist, off.sheet, off.xxyy)
                    if (direction, along, dist) == (off.direction, off.along, off.distance):
                        continue
                    if deployment_refusal(state, side, cmd) is None:
                        out.append(cmd)
    return out


def _movement(state: GameState, side: str) -> list[tuple[Hashable, Callable[[], list[Command]]]]:
    return [
        (("unit", unit.id), partial(_moves, state, side, unit))
        for unit in state.living(side)
        if not unit.moved and moving.can_move(unit)
    ]


def _moves(state: GameState, side: str, unit: Unit) -> list[Command]:
    out: list[Command] = [Hold(side, unit.id)]
    if aircraft.is_aircraft(unit):
        return out + _flights(state, side, unit)
    reach = moving.reach(state, unit)
    out += Move.listed(side, unit.id, reach.end_facings().items())
    for facing in reach.facings(unit.hex):  # type: ignore[arg-type]
        if facing != unit.facing:
            out.append(Move(side, unit.id, unit.hex, facing))  # type: ignore[arg-type]
    return out


def _flights(state: GameState, side: str, unit: Unit) -> list[Command]:
    """ART-36: every hex it may fly to (over the map, or just beyond an edge to
    leave) at every altitude it may reach; off the map, every edge hex."""
    if unit.hex is None:
        ends = aircraft.edge_hexes(state)
    else:
        near = [
            h
            for h in disk(unit.hex, aircraft.velocity(unit))
            if state.area.contains(h) or any(state.area.contains(n) for n in neighbors(h))
        ]
        ends = near
    return [Fly(side, unit.id, h, a) for h in ends for a in aircraft.altitudes(unit)]


def _air_plots(
    state: GameState, side: str, unit: Unit, busy: set[int], ammo: list[str]
) -> list[Command]:
    """ART-14: an aircraft over the map fires at the hexes of the sheet under it."""
    if unit.hex is None or 1 in busy or aircraft.plot_refusal(state, unit, unit.hex):
        return []
    under = state.area.sheet_hexes()[state.area.position_of(unit.hex)]
    return [PlotFire(side, unit.id, 1, h, a) for h in under for a in ammo]


def _targeting(
    state: GameState, side: str
) -> tuple[list[tuple[Hashable, Callable[[], list[Command]]]], dict[Hashable, _PieceAims]]:
    """The groups of the targeting phase, and the pieces whose plots may be checked
    hex by hex."""
    groups: list[tuple[Hashable, Callable[[], list[Command]]]] = [
        (group_of(EndPhase(side)), lambda: [EndPhase(side)])
    ]
    pieces: dict[Hashable, _PieceAims] = {}
    for unit in state.living(side):
        if unit.battery is None:
            continue
        busy = {
            p.piece
            for p in state.queue.plots
            if p.battery == unit.id and p.fired_turn == state.turn
        }
        guns = _BatteryPlots(state, side, unit)
        if aircraft.is_aircraft(unit):
            groups.append((("piece", unit.id, 1), partial(guns.from_the_air, busy)))
            continue
        for piece in range(1, unit.battery.pieces + 1):
            if piece not in busy:
                key = ("piece", unit.id, piece)
                groups.append((key, partial(guns.piece, piece)))
                pieces[key] = _PieceAims(guns, piece)
    return groups, pieces


class _BatteryPlots:
    """The plots of one battery's pieces; what they share is worked out once."""

    def __init__(self, state: GameState, side: str, unit: Unit) -> None:
        assert unit.battery is not None
        self.state, self.side, self.unit, self.battery = state, side, unit, unit.battery

    @cached_property
    def ammunition(self) -> list[str]:
        """The types with rounds left (ART-10)."""
        return [
            a
            for a in self.battery.ammunition
            if (n := rounds_left(self.state, self.unit, a)) is None or n > 0
        ]

    @cached_property
    def far_aims(self) -> _FarAims:
        """ART-37: the battery's counter-battery aims (none without ammunition left)."""
        if not self.ammunition:
            return _FarAims(self.state.area.revision, ())
        return _counter_battery_aims(self.state, self.side, self.unit)

    @property
    def far(self) -> tuple[Hex, ...]:
        return self.far_aims.hexes

    @cached_property
    def origin(self) -> tuple[int, int]:
        return battery_sheet(self.state, self.unit)

    @property
    def far_set(self) -> frozenset[Hex]:
        return self.far_aims.hex_set

    @cached_property
    def aimable(self) -> list[bool]:
        """``in_range`` of each sheet of the area, in placing order (the area arrays
        hold each sheet's hexes together, so an area hex's index tells its sheet)."""
        return [self.in_range(pos) for pos in self.state.area.positions]

    def in_range(self, pos: tuple[int, int]) -> bool:
        """ART-5: the sheet at ``pos`` is within the weapon's reach (kept per position)."""
        kept = self.__dict__.setdefault("_in_range", {})
        if pos not in kept:
            kept[pos] = range_refusal(self.battery.weapon, self.origin, pos) is None
        return kept[pos]

    def from_the_air(self, busy: set[int]) -> list[Command]:
        return _air_plots(self.state, self.side, self.unit, busy, self.ammunition)

    def piece(self, piece: int) -> list[Command]:
        """Every hex of every sheet in range, then the counter-battery hexes."""
        out: list[Command] = []
        ammo = tuple(self.ammunition)
        for pos, group in self.state.area.sheet_hexes().items():
            if self.in_range(pos):
                out += _sheet_plots(self.side, self.unit.id, piece, pos, ammo, tuple(group))
        for h in self.far:
            out += [PlotFire(self.side, self.unit.id, piece, h, a) for a in ammo]
        return out


class PiecePlots(Protocol):
    """The plots of one piece, by ammunition and target hex."""

    battery: str
    piece: int

    @property
    def ammunition(self) -> tuple[str, ...]:
        """Its ammunition types, in list order."""
        ...

    def targets(self, ammunition: str) -> Mapping[Hex, PlotFire]:
        """Its plots with ``ammunition``, by target hex, in list order."""
        ...

    def aimed_among(self, ammunition: str, hexes: Iterable[Hex]) -> list[Hex]:
        """The hexes of ``hexes`` it has a plot at with ``ammunition``, in their order
        (``h in targets(ammunition)`` of each, asked at once)."""
        ...

    def beyond(self, ammunition: str, area: PlayArea) -> Sequence[PlotFire]:
        """Its plots with ``ammunition`` at hexes outside ``area`` (counter-battery
        fire, ART-37), in list order."""
        ...


class ListedPlots:
    """``PiecePlots`` read from a list of the piece's plots."""

    def __init__(self, plots: list[PlotFire]) -> None:
        self.plots = plots
        self.battery, self.piece = plots[0].battery, plots[0].piece

    @property
    def ammunition(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.ammunition for c in self.plots))

    def targets(self, ammunition: str) -> Mapping[Hex, PlotFire]:
        return {c.target: c for c in self.plots if c.ammunition == ammunition}

    def aimed_among(self, ammunition: str, hexes: Iterable[Hex]) -> list[Hex]:
        targets = self.targets(ammunition)
        return [h for h in hexes if h in targets]

    def beyond(self, ammunition: str, area: PlayArea) -> Sequence[PlotFire]:
        return [c for c in self.targets(ammunition).values() if not area.contains(c.target)]


class _PieceAims:
    """``PiecePlots`` of a piece answered hex by hex from the rules that list them
    (``_BatteryPlots.piece``): an area hex on a sheet in range, or a counter-battery
    hex, with any ammunition that has rounds left."""

    def __init__(self, guns: _BatteryPlots, piece: int) -> None:
        self.guns, self.battery, self.piece = guns, guns.unit.id, piece

    @property
    def ammunition(self) -> tuple[str, ...]:
        return tuple(self.guns.ammunition)

    def any(self) -> bool:
        """Whether it has a plot at all."""
        guns = self.guns
        area = guns.state.area
        return bool(guns.ammunition) and (
            any(guns.in_range(pos) for pos in area.positions) or bool(guns.far)
        )

    def aims_at(self, target: Hex) -> bool:
        i = self.guns.state.area.index_of(target)
        if i >= 0:
            return self.guns.aimable[i // SHEET_HEXES]
        return target in self.guns.far_set

    def allows(self, command: PlotFire) -> bool:
        """``command`` (a plot of this piece) is one of its plots."""
        return (
            command.side == self.guns.side
            and command.ammunition in self.guns.ammunition
            and self.aims_at(command.target)
        )

    def targets(self, ammunition: str) -> Mapping[Hex, PlotFire]:
        return _Targets(self, ammunition)

    def aimed_among(self, ammunition: str, hexes: Iterable[Hex]) -> list[Hex]:
        # ``aims_at`` of each hex, its sheet's answer read straight from the table.
        if ammunition not in self.guns.ammunition:
            return []
        index_of, aimable, far = self.guns.state.area.index_of, self.guns.aimable, self.guns.far_set
        return [
            h
            for h in hexes
            if ((i := index_of(h)) >= 0 and aimable[i // SHEET_HEXES]) or (i < 0 and h in far)
        ]

    def listed(self) -> list[Hex]:
        """Every target hex, in list order."""
        hexes = [
            h
            for pos, group in self.guns.state.area.sheet_hexes().items()
            if self.guns.in_range(pos)
            for h in group
        ]
        return list(dict.fromkeys([*hexes, *self.guns.far]))

    def plot(self, target: Hex, ammunition: str) -> PlotFire:
        return PlotFire(self.guns.side, self.battery, self.piece, target, ammunition)

    def beyond(self, ammunition: str, area: PlayArea) -> Sequence[PlotFire]:
        if ammunition not in self.guns.ammunition:
            return ()
        far = self.guns.far_aims
        plots = far.plots(self.guns.side, self.battery, self.piece, ammunition)
        # Hex 0909 of a position lies in ``area`` when a sheet lies there: most often
        # none of the few sheets of ``area`` stands at a counter-battery position.
        if not any(pos in far.positions for pos in area.positions):
            return plots
        return tuple(c for c in plots if not area.contains(c.target))


class _Targets(Mapping[Hex, PlotFire]):
    def __init__(self, aims: _PieceAims, ammunition: str) -> None:
        self.aims, self.ammunition = aims, ammunition
        self.fires = ammunition in aims.guns.ammunition

    def __contains__(self, target: object) -> bool:
        return self.fires and isinstance(target, tuple) and self.aims.aims_at(target)  # type: ignore[arg-type]

    def __getitem__(self, target: Hex) -> PlotFire:
        if target not in self:
            raise KeyError(target)
        return self.aims.plot(target, self.ammunition)

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.aims.listed() if self.fires else [])

    def __len__(self) -> int:
        return len(self.aims.listed()) if self.fires else 0


@lru_cache(maxsize=512)
def _sheet_plots(
    side: str, battery: str, piece: int, pos: tuple[int, int], ammo: tuple[str, ...], group: tuple
) -> tuple[PlotFire, ...]:
    """The plots of one piece at every hex of one sheet, kept: a sheet position
    always holds the same hexes (MAP-2), so the same question recurs every turn."""
    return tuple(PlotFire(side, battery, piece, h, a) for h in group for a in ammo)


@lru_cache(maxsize=512)
def _sheet_predesignations(side: str, group: tuple[Hex, ...]) -> tuple[Predesignate, ...]:
    """ART-20: the pre-designations of every hex of one sheet, kept: a sheet position
    always holds the same hexes (MAP-2), and set-up asks again at every decision."""
    return tuple(Predesignate(side, h) for h in group)


def _counter_battery_aims(state: GameState, side: str, unit: Unit) -> _FarAims:
    """ART-37: hex 0909 of each position the announcements point to (ART-24) that
    the battery may fire at."""
    assert unit.battery is not None
    heard = tuple((a.aimed, a.side) for a in state.intel[side].announcements)
    reach = weapon_spec(unit.battery.weapon).max_range_sheets
    origin = battery_sheet(state, unit)
    # Asked for every piece of every battery in every targeting decision: the answer
    # stands until what the side has heard changes. A sheet laid since (MAP-6) only
    # takes its own position out: an area never loses a sheet, and its half-line
    # (MAP-3) is fixed when it is made.
    key = (state.other(side), origin, reach)
    area = state.area
    kept = _COUNTER_BATTERY_HEXES.setdefault(area, {})
    latest = kept.get(key)
    found = latest[1] if latest is not None and latest[0] == heard else None
    if found is None:
        positions = announced_positions(area, state.other(side), heard, origin, reach)
        # One more announcement only leaves positions out (ART-24): the aims kept for
        # those heard before serve for the rest, with their plots. (The refusal asks
        # only whether a position is the battery's own.)
        before = latest[1] if latest is not None else None
        if before is not None and all(pos in before.positions for pos in positions):
            found = before.only(set(positions), area.revision)
        else:
            # The rule's own refusal (ART-37: not the battery's own position), asked
            # only at the battery's own position: hex 0909 of any other lies on
            # another sheet position (MAP-2), which the rule never refuses.
            aims = ((pos, area.hex_0909(pos)) for pos in positions)
            pairs = tuple(
                (p, h)
                for p, h in aims
                if p != origin or counter_battery.refusal(state, unit, h) is None
            )
            found = _FarAims(area.revision, pairs)
    elif found.revision != area.revision:
        laid = {pos for pos in area.positions if pos in found.positions}
        if laid:
            found = found.only(found.positions - laid, area.revision)
        else:
            found.revision = area.revision  # no sheet laid at one of its positions
    # Only the latest is kept: what a side has heard only grows in a game.
    kept[key] = (heard, found)
    return found


class _FarAims:
    """The counter-battery aims of one battery for one set of announcements heard,
    as they stand on an area at ``revision``: each position with its hex 0909, in
    order."""

    def __init__(self, revision: int, pairs: tuple[tuple[tuple[int, int], Hex], ...]) -> None:
        self.revision, self.pairs = revision, pairs
        self.hexes = tuple(h for _, h in pairs)
        self.hex_set = frozenset(self.hexes)
        self.positions = frozenset(pos for pos, _ in pairs)
        # Each piece's plots at them, by (side, battery, piece, ammunition).
        self._plots: dict[tuple[str, str, int, str], tuple[PlotFire, ...]] = {}

    def plots(self, side: str, battery: str, piece: int, ammunition: str) -> tuple[PlotFire, ...]:
        """The counter-battery plots of one piece, in order, kept: the same aims are
        listed every targeting decision until what the side has heard changes."""
        key = (side, battery, piece, ammunition)
        made = self._plots.get(key)
        if made is None:
            made = self._plots[key] = tuple(
                PlotFire(side, battery, piece, h, ammunition) for h in self.hexes
            )
        return made

    def only(self, positions: Collection[tuple[int, int]], revision: int) -> _FarAims:
        """These aims at ``positions`` alone (once sheets are laid at the others,
        MAP-6, or announcements leave them out, ART-24), with the plots already
        made at them."""
        keep = [pos in positions for pos, _ in self.pairs]
        less = _FarAims(revision, tuple(compress(self.pairs, keep)))
        less._plots = {key: tuple(compress(made, keep)) for key, made in self._plots.items()}
        return less


_COUNTER_BATTERY_HEXES: weakref.WeakKeyDictionary[PlayArea, dict[tuple, tuple[tuple, _FarAims]]] = (
    weakref.WeakKeyDictionary()
)


def _attacks(state: GameState, side: str) -> list[Command]:
    out: list[Command] = [EndPhase(side)]
    for unit in state.living(side):
        for target, weapon in combat.attack_options(state, unit):
            out.append(Attack(side, unit.id, target, weapon))
        for gun, action in combat.gun_action_options(state, unit):
            out.append(GunAction(side, unit.id, gun, action))
    return out
