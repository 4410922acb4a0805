"""The one gate of hidden information: ``player_view(state, side)`` (ART-4, ART-9, ART-24).

A view holds only what one side may know. Never in it for the other side:
off-board positions (direction, distance, sheet, hex), plots and ammunition
before arrival, pre-designated hexes, hidden units, auto-hit hexes, the sheet
pile, and the dice state. Events are redacted per side. The UI and the AI see
nothing else.

A view is typed and frozen, and has the state's shape for what it exposes:
``units`` maps ids to ``Unit`` objects, ``area`` is the play area, ``queue``
is a ``FireQueue`` of the side's own shells, ``log`` holds events; ``turn``,
``phase``, ``options``, ``initiative`` and ``building_cf`` read as on the
state. So one query (``game.state.queries``) runs over a state or a view
alike. A view shares no live object with the engine: its units, queue and
area are copies, and nothing in it can be changed.
"""

from __future__ import annotations

import copy
import operator
import os
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields, replace
from functools import partial
from typing import Any

from game.artillery.plots import Arrival, FireQueue, Plot
from game.board.area import PlayArea
from game.hexmath import Hex
from game.secrecy import PUBLIC, UMPIRE
from game.state.board import knows_unit
from game.state.engine import acting_side
from game.state.mobile import allowed_sheets
from game.state.model import (
    Announcement,
    Battery,
    Event,
    GameState,
    Result,
    Unit,
    hex_list,
    plain_copy,
)

# How much of a unit a view shows (``SeenUnit.seen_as``).
OWN = "own"
TABLE = "table"
ENEMY = "enemy"


# A unit's profile never changes after set-up and its damage is replaced whole when
# it changes, never written into (game/state/systems.py): one copy of each serves
# every view until the engine gives the unit a new one. Keyed by the engine's
# object, held here so that its id is not reused while the copy is kept.
_COPIES: dict[int, tuple[Any, Any]] = {}
_COPIES_KEPT = 4096


def _copy_of(data: Any, written_into: bool = False) -> Any:
    """One copy of the engine's ``data`` for every view. ``written_into``: the engine
    may change it in place (its options, the initiative), so the copy is shared only
    while it equals the engine's, and made again once either was written into."""
    held = _COPIES.get(id(data))
    if held is not None and held[0] is data and not (written_into and held[1] != data):
        if _CHECK_COPIES and held[1] != data:
            raise AssertionError("a unit's profile or damage was written into in place")
        return held[1]
    if len(_COPIES) >= _COPIES_KEPT:
        _COPIES.clear()
    copied = plain_copy(data)
    _COPIES[id(data)] = (data, copied)
    return copied


# Set by the tests: every shared copy is compared with the engine's object.
_CHECK_COPIES = os.environ.get("BARRAGE_CHECK_VIEW_COPIES") == "1"


_UNIT_FIELDS = tuple(f.name for f in fields(Unit))


class SeenUnit(Unit):
    """A unit as one side sees it: a copy that cannot be changed.

    ``seen_as`` says how much of it the side knows: ``own`` (everything),
    ``table`` (a unit on the open table: what its moves and attacks told both
    sides, MP spent and weapons fired, but no ammunition or auto-hit hexes) or
    ``enemy``. An enemy's secrets read as neutral values: its battery shows
    weapon and pieces only (no position off the board, no ammunition, no
    auto-hit hexes), and in a side's own view no MP spent and no weapon fired.
    """

    seen_as: str

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get("_sealed"):
            raise FrozenInstanceError(f"a unit of a view cannot be changed ({name})")
        object.__setattr__(self, name, value)

    @classmethod
    def seen(cls, unit: Unit, seen_as: str) -> SeenUnit:
        fields_of = unit.__dict__  # read directly: a view is made for every decision
        # An engine's unit holds its fields and nothing else: copied whole.
        values = (
            dict(fields_of)
            if len(fields_of) == len(_UNIT_FIELDS)
            else {name: fields_of[name] for name in _UNIT_FIELDS}
        )
        values["profile"], values["damage"] = _copy_of(unit.profile), _copy_of(unit.damage)
        for name in ("weapons_fired", "charged", "in_combat_with"):
            values[name] = list(values[name])
        values["reactions"] = dict(unit.reactions)
        gun = unit.battery
        if gun is not None and seen_as == OWN:
            values["battery"] = Battery.from_dict(gun.to_dict())
        elif gun is not None:
            values["battery"] = Battery(gun.weapon, gun.pieces, None, {})
        if seen_as == ENEMY:
            values["weapons_fired"], values["mp_spent"] = [], 0
        # Every field is given: filled in directly, past the sealed ``__setattr__``
        # (a view is made for every decision, a unit of it field by field).
        seen = object.__new__(cls)
        seen.__dict__.update(values, seen_as=seen_as, _sealed=True)
        return seen

    def record(self) -> dict[str, Any]:
        """The unit as plain data, with only what the side knows (no key for a secret)."""
        data = self.to_dict()
        if self.seen_as != OWN and self.battery is not None:
            data["battery"] = {"weapon": self.battery.weapon, "pieces": self.battery.pieces}
        if self.seen_as == ENEMY:
            del data["weapons_fired"], data["mp_spent"]
        return data


@dataclass(frozen=True)
class SeenArrival:
    """A shell that has landed, as one side knows it (ART-9, ART-37).

    Every landing is public once it happens, but of an enemy shell a side never
    learns the battery, the plot or whether a spotter watched it: those read
    None. Nobody sees where a counter-battery shell comes down, the firer
    included: ``landing`` and ``hit`` read None."""

    side: str
    turn: int
    target: Hex
    fired_turn: int
    ammunition: str
    off_board: bool
    landing: Hex | None
    hit: bool | None
    plot_id: int | None  # own shells only, numbered among the side's own plots
    battery: str | None
    spotted: bool | None

    def record(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "target": hex_list(self.target),
            "turn": self.turn,
            "off_board": self.off_board,
            "side": self.side,
            "fired_turn": self.fired_turn,
            "ammunition": self.ammunition,
        }
        if self.landing is not None:
            data["landing"], data["hit"] = hex_list(self.landing), self.hit
        if self.plot_id is not None:
            data.update(plot_id=self.plot_id, battery=self.battery, spotted=self.spotted)
        return data


@dataclass(frozen=True)
class SeenPendingSheet:
    """A sheet waiting to be laid (MAP-7, MAP-9): where, and who picks it. ``unit``
    is None when the side does not know the unit that left; ``allowed`` is None
    unless the side is the picker and may see the choices."""

    position: tuple[int, int]
    picker: str | None
    unit: str | None
    allowed: tuple[str, ...] | None

    def record(self) -> dict[str, Any]:
        data: dict[str, Any] = {"position": list(self.position), "picker": self.picker}
        if self.unit is not None:
            data["unit"] = self.unit
        if self.allowed is not None:
            data["allowed"] = list(self.allowed)
        return data


@dataclass(frozen=True)
class UmpireSight:
    """What only the replay's umpire view adds: both sides' shells in flight (each
    numbered as its own side numbers it) and both sides' pre-designated hexes."""

    plots: tuple[Plot, ...]
    predesignated: Mapping[str, tuple[Hex, ...]]


@dataclass(frozen=True)
class PlayerView:
    """Everything one side may know (see the module docstring)."""

    side: str
    enemy: str
    turn: int
    phase: str
    acting: str | None
    turn_limit: int
    area: PlayArea
    units: Mapping[str, SeenUnit]
    queue: FireQueue  # the side's own shells, numbered among its own plots (ART-9)
    arrivals: tuple[SeenArrival, ...]  # every arrived shell: public once it lands
    predesignated: tuple[Hex, ...]
    announcements: tuple[Announcement, ...]
    revealed: tuple[str, ...]
    initiative: Mapping[str, Any]
    building_cf: Mapping[Hex, int]
    log: tuple[Event, ...]
    pending_sheet: SeenPendingSheet | None
    pile: tuple[str, ...]
    options: Mapping[str, Any]
    result: Result | None
    scenario_name: str = ""
    briefing: str = ""
    # The open question the rules put to a side (a charge reaction, the order of
    # fire, TS-1): public, so both sides see what is being asked.
    question: Mapping[str, Any] | None = None
    table: bool = False  # the open table both sides share (``table_view``)
    umpire: UmpireSight | None = None  # the replay's view of both sides
    sides: tuple[str, str] = field(default=("north", "south"))

    @property
    def plots(self) -> list[Plot]:
        """The side's own shells in flight, by arrival turn then firing order."""
        return self.queue.in_flight()

    def other(self, side: str) -> str:
        """The other side (as ``GameState.other``)."""
        if side not in self.sides:
            raise ValueError(f"unknown side {side!r}; the sides are {', '.join(self.sides)}")
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def living(self, side: str | None = None) -> list[SeenUnit]:
        """Units not destroyed (of ``side``), as ``GameState.living``."""
        if side is None:
            return [u for u in self.units.values() if not u.destroyed]
        return [u for u in self.units.values() if u.side == side and not u.destroyed]

    def units_at(self, h: Hex) -> list[SeenUnit]:
        return [u for u in self.units.values() if u.hex == h and not u.destroyed]

    def own_units(self) -> list[SeenUnit]:
        return [u for u in self.units.values() if u.side == self.side]

    def enemy_units(self) -> list[SeenUnit]:
        return [u for u in self.units.values() if u.side != self.side]

    def to_dict(self) -> dict[str, Any]:
        """The view as plain data: what a side may know, nothing more."""
        data = {
            "side": self.side,
            "enemy": self.enemy,
            "turn": self.turn,
            "phase": self.phase,
            "acting": self.acting,
            "turn_limit": self.turn_limit,
            "area": self.area.to_dict(),
            "units": {uid: u.record() for uid, u in self.units.items()},
            "plots": [p.to_dict() for p in self.plots],
            "arrivals": [a.record() for a in self.arrivals],
            "predesignated": [hex_list(h) for h in self.predesignated],
            "announcements": [a.to_dict() for a in self.announcements],
            "revealed": list(self.revealed),
            "initiative": copy.deepcopy(dict(self.initiative)),
            "building_cf": [[h.q, h.r, cf] for h, cf in sorted(self.building_cf.items())],
            "log": [e.to_dict() for e in self.log],
            "pending_sheet": None if self.pending_sheet is None else self.pending_sheet.record(),
            "pile": list(self.pile),
            "options": copy.deepcopy(dict(self.options)),
            "result": None if self.result is None else self.result.to_dict(),
            "scenario_name": self.scenario_name,
            "briefing": self.briefing,
            "question": copy.deepcopy(self.question),
        }
        if self.umpire is not None:
            data["umpire"] = {
                "plots": [p.to_dict() for p in self.umpire.plots],
                "predesignated": {
                    s: [hex_list(h) for h in hexes]
                    for s, hexes in self.umpire.predesignated.items()
                },
            }
        return data


def player_view(state: GameState, side: str) -> PlayerView:
    """What ``side`` may know of the game now."""
    state.other(side)  # ValueError for a side not in the game
    return _gate(state, side)


def table_view(state: GameState, seat: str | None = None) -> PlayerView:
    """What both sides know: the open board, the public events and what was
    announced; no side's secrets. Hot-seat shows it while the acting side needs
    none of its secrets, and watch mode shows it.

    ``seat``: the side that acts from the table (hot-seat): the view is labelled
    with it, so the screen offers it its commands, and holds nothing more."""
    view = _gate(state, PUBLIC)
    if seat is None:
        return view
    pending = view.pending_sheet
    if pending is not None and pending.picker == seat and not sheet_pick_is_secret(state):
        # The new sheet's choices, when they hide no battery of the picker (MAP-9).
        pending = replace(pending, allowed=tuple(allowed_sheets(state)))
    return replace(view, side=seat, enemy=state.other(seat), pending_sheet=pending)


def sheet_pick_is_secret(state: GameState) -> bool:
    """MAP-7, MAP-8, MAP-10: the picker's choice of the new sheet shows a secret: a
    pile, or one of its batteries stands at that position (its declared sheet)."""
    pending = state.pending_sheet
    if pending is None or pending.picker is None:
        return False
    if state.options.get("sheet_table") == "pile":
        return True
    for unit in state.living(pending.picker):
        off = unit.battery.offboard if unit.battery is not None else None
        if off is not None and off.position == pending.position:
            return True
    return False


# One copy of the play area per map revision: views of the same map share it (so
# the window's and the sight caches keyed on the area hold), and the engine's
# own area, which grows in place (MAP-6), is never handed out.
_AREA_COPIES: weakref.WeakKeyDictionary[PlayArea, tuple[int, PlayArea]] = (
    weakref.WeakKeyDictionary()
)


# The last copy handed out, read first: a weak dictionary's look-up makes a weak
# reference every time, and a run asks for one game's area at every decision. Both
# areas are held weakly: a finished game's areas go with it.
_LAST_AREA_COPY: list[tuple[weakref.ref[PlayArea], int, weakref.ref[PlayArea]]] = []


def area_copy(area: PlayArea) -> PlayArea:
    """A copy of ``area`` as it is now, shared by every view until the map changes."""
    if _LAST_AREA_COPY:
        last, revision, copied = _LAST_AREA_COPY[0]
        if last() is area and revision == area.revision:
            snapshot = copied()
            if snapshot is not None:
                return snapshot
    held = _AREA_COPIES.get(area)
    if held is None or held[0] != area.revision:
        held = _AREA_COPIES[area] = (area.revision, area.snapshot())
    _LAST_AREA_COPY[:] = [(weakref.ref(area), held[0], weakref.ref(held[1]))]
    return held[1]


# Each side's copy of a plot or an arrival of the engine's queue, made once while
# the engine holds that object: plots and arrivals are frozen, and the engine
# replaces a plot whole when it changes one (ART-17, ART-18). Keyed by the
# engine's object and what else the copy shows, held so that its id is not reused.
_QUEUE_COPIES: dict[tuple[Any, ...], tuple[Any, Any]] = {}
_QUEUE_COPIES_KEPT = 16384


def _queue_copy(source: Any, shows: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    key = (id(source), *shows)
    held = _QUEUE_COPIES.get(key)
    if held is not None and held[0] is source:
        return held[1]
    if len(_QUEUE_COPIES) >= _QUEUE_COPIES_KEPT:
        _QUEUE_COPIES.clear()
    made = make()
    _QUEUE_COPIES[key] = (source, made)
    return made


def _own_queue(state: GameState, sides: tuple[str, ...]) -> tuple[FireQueue, dict[int, int]]:
    """The shells of ``sides``, each numbered among its own side's plots (ART-9), and
    the numbering (engine plot id -> number)."""
    numbers: dict[int, int] = {}
    per_side: dict[str, int] = {}
    plots = []
    for p in state.queue.plots:
        per_side[p.side] = per_side.get(p.side, 0) + 1
        if p.side in sides:
            n = numbers[p.id] = per_side[p.side]
            plots.append(_queue_copy(p, ("plot", n), partial(replace, p, id=n)))
    arrivals = [
        _queue_copy(a, ("arrival", n), partial(replace, a, plot_id=n))
        for a in state.queue.arrivals
        if (n := numbers.get(a.plot_id)) is not None
    ]
    return FireQueue(plots, arrivals, next_id=len(plots) + 1), numbers


def _arrivals(
    state: GameState,
    side: str,
    numbers: Mapping[int, int],
    arrivals: Sequence[Arrival] | None = None,
) -> tuple[SeenArrival, ...]:
    """The arrivals ``side`` knows of, as it knows them (of ``arrivals``: by default
    all the engine's)."""
    if arrivals is None:
        arrivals = state.queue.arrivals
    if not arrivals:
        return ()  # most views follow a command that landed no shell
    plots_by_id = {p.id: p for p in state.queue.plots}
    umpire = side == UMPIRE
    seen = []
    for a in arrivals:
        plot = plots_by_id[a.plot_id]
        own = umpire or plot.side == side
        if a.off_board and not own:
            continue  # ART-37: a counter-battery shot stays the firing side's secret
        shows = (
            "seen",
            plot.side,
            plot.fired_turn,
            plot.ammunition,
            umpire,
            own and numbers[a.plot_id],
        )
        seen.append(_queue_copy(a, shows, partial(_seen_arrival, a, plot, umpire, own, numbers)))
    return tuple(seen)


# What each side's last view showed of the engine's queue: its own shells and the
# arrivals as it knows them, with the engine's plots and arrivals they came from.
# Plots and arrivals are frozen and the engine only appends them or replaces a plot
# whole (ART-17, ART-18), so while every one of them is the very object it was (or
# one equal to it), the side's part is the same and is not worked out again for the
# next decision.
@dataclass(frozen=True)
class _QueueSight:
    queue: FireQueue  # the engine's queue (held so that its id is not reused)
    plots: tuple[Plot, ...]  # the engine's plots and arrivals, as they were
    arrivals: tuple[Arrival, ...]
    own: FireQueue  # the side's view of them (``_own_queue``, ``_arrivals``), never handed out
    seen: tuple[SeenArrival, ...]
    numbers: Mapping[int, int]  # the side's numbers of its own plots, by engine plot id


_QUEUE_SIGHTS: dict[tuple[int, str], _QueueSight] = {}
_QUEUE_SIGHTS_KEPT = 8  # a side or two of a game or two (a run plays one at a time)


def _same_shells(kept: tuple[Any, ...], now: list[Any]) -> bool:
    """Every plot (or arrival) is the one kept, or one equal to it: they are frozen, so
    an equal one gives equal copies. Compared as tuples, each item is first taken for
    itself (the usual case), in one pass of the interpreter's own loop."""
    return len(kept) == len(now) and kept == tuple(now)


def _begins_with(now: list[Any], kept: tuple[Any, ...]) -> bool:
    return len(now) >= len(kept) and all(map(operator.is_, kept, now))


def _replaced(kept: tuple[Plot, ...], now: list[Plot]) -> list[int] | None:
    """The places of the plots the engine replaced since ``kept`` (ART-17, ART-18: a
    shell's adjustments and attacking spotters as it leaves), when it replaced them
    with plots of the same shell and only appended others; None otherwise."""
    if len(now) < len(kept):
        return None
    places = []
    for i, (was, new) in enumerate(zip(kept, now, strict=False)):
        if was is not new:
            if (was.id, was.side, was.fired_turn, was.ammunition) != (
                new.id,
                new.side,
                new.fired_turn,
                new.ammunition,
            ):
                return None
            places.append(i)
    return places


def _extended(
    state: GameState, side: str, held: _QueueSight, replaced: Sequence[int] = ()
) -> _QueueSight:
    """``held`` with the plots and arrivals the engine appended since, and the plots
    at ``replaced`` copied again: the side's numbers of its earlier plots stand (each
    side numbers its plots in firing order, ART-9), so only the new ones are
    numbered, and only the new and replaced ones copied. A replaced plot is of the
    same shell (``_replaced``): the arrivals as the side knows them stand."""
    engine = state.queue
    numbers = dict(held.numbers)
    plots = list(held.own.plots)
    for i in replaced:
        p = engine.plots[i]
        if p.side == side:
            n = numbers[p.id]
            plots[n - 1] = _queue_copy(p, ("plot", n), partial(replace, p, id=n))
    for p in engine.plots[len(held.plots) :]:
        if p.side == side:
            n = numbers[p.id] = len(plots) + 1
            plots.append(_queue_copy(p, ("plot", n), partial(replace, p, id=n)))
    landed = engine.arrivals[len(held.arrivals) :]
    arrivals = list(held.own.arrivals)
    arrivals += [
        _queue_copy(a, ("arrival", n), partial(replace, a, plot_id=n))
        for a in landed
        if (n := numbers.get(a.plot_id)) is not None
    ]
    return _QueueSight(
        engine,
        tuple(engine.plots),
        tuple(engine.arrivals),
        FireQueue(plots, arrivals, next_id=len(plots) + 1),
        held.seen + _arrivals(state, side, numbers, landed),
        numbers,
    )


def _queue_sight(state: GameState, side: str) -> tuple[FireQueue, tuple[SeenArrival, ...]]:
    """``side``'s own queue (``_own_queue``) and the arrivals it knows (``_arrivals``),
    kept while the engine's queue holds the very same plots and arrivals."""
    engine = state.queue
    key = (id(engine), side)
    held = _QUEUE_SIGHTS.get(key)
    if held is None or held.queue is not engine:
        held = None
    elif _same_shells(held.plots, engine.plots) and _same_shells(held.arrivals, engine.arrivals):
        pass
    elif _begins_with(engine.plots, held.plots) and _begins_with(engine.arrivals, held.arrivals):
        # Shells fired or landed since, nothing else changed: the new ones are added.
        held = _QUEUE_SIGHTS[key] = _extended(state, side, held)
    elif _begins_with(engine.arrivals, held.arrivals) and (
        (replaced := _replaced(held.plots, engine.plots)) is not None
    ):
        # Shells that left the guns with their adjustments (ART-17), maybe more since.
        held = _QUEUE_SIGHTS[key] = _extended(state, side, held, replaced)
    else:
        held = None  # a plot taken out, or another shell in its place: worked out anew
    if held is None:
        queue, numbers = _own_queue(state, (side,))
        if len(_QUEUE_SIGHTS) >= _QUEUE_SIGHTS_KEPT:
            _QUEUE_SIGHTS.clear()
        held = _QUEUE_SIGHTS[key] = _QueueSight(
            engine,
            tuple(engine.plots),
            tuple(engine.arrivals),
            queue,
            _arrivals(state, side, numbers),
            numbers,
        )
    # A copy for every view: a view's lists are its own.
    own = held.own
    return FireQueue(list(own.plots), list(own.arrivals), own.next_id), held.seen


def _seen_arrival(
    a: Arrival, plot: Plot, umpire: bool, own: bool, numbers: Mapping[int, int]
) -> SeenArrival:
    # Nobody sees where a counter-battery shell comes down, the firer included;
    # of an enemy shell nobody learns the battery, the plot or its spotters.
    return SeenArrival(
        side=plot.side,
        turn=a.turn,
        target=a.target,
        fired_turn=plot.fired_turn,
        ammunition=plot.ammunition,
        off_board=a.off_board,
        landing=None if a.off_board and not umpire else a.landing,
        hit=None if a.off_board and not umpire else a.hit,
        plot_id=numbers[a.plot_id] if own else None,
        battery=a.battery if own else None,
        spotted=a.spotted if own else None,
    )


def _pending(state: GameState, side: str) -> SeenPendingSheet | None:
    ps = state.pending_sheet
    if ps is None:
        return None
    mover = state.units.get(ps.unit)
    known = mover is not None and (side == UMPIRE or knows_unit(state, side, mover))
    return SeenPendingSheet(
        position=(int(ps.position[0]), int(ps.position[1])),
        picker=ps.picker,
        unit=ps.unit if known else None,
        allowed=tuple(allowed_sheets(state)) if ps.picker == side else None,
    )


def _common(state: GameState) -> dict[str, Any]:
    """What every view reads the same way."""
    return {
        "turn": state.turn,
        "phase": state.phase,
        "acting": acting_side(state),
        "turn_limit": state.turn_limit,
        "area": area_copy(state.area),
        "initiative": _copy_of(state.initiative, written_into=True),
        "building_cf": dict(state.building_cf),
        "options": _copy_of(state.options, written_into=True),
        "result": None if (r := state.result) is None else Result(r.winner, r.reason, r.turn),
        "scenario_name": str(state.options.get("name", "")),
        "briefing": str(state.scenario.get("scenario", {}).get("briefing", "")),
        "question": copy.deepcopy(state.questions[0]) if state.questions else None,
        "sides": state.sides,
    }


# The log as each reader saw it at its last view, by log: the events logged since
# are the only ones to read again. An event is written once; only the rolls of the
# last event of a command grow, before its command is over (``engine.apply``).
_SEEN_LOGS: dict[int, tuple[list[Event], dict[str, tuple[int, Event, int, tuple[Event, ...]]]]] = {}
_SEEN_LOGS_KEPT = 4  # games whose logs are held (a run plays one at a time)


def _seen_log(log: list[Event], reader: str) -> tuple[Event, ...]:
    """``reader``'s copies of the events of ``log`` it may read, in order."""
    held = _SEEN_LOGS.get(id(log))
    if held is None or held[0] is not log:
        if len(_SEEN_LOGS) >= _SEEN_LOGS_KEPT:
            _SEEN_LOGS.clear()
        held = _SEEN_LOGS[id(log)] = (log, {})
    read, seen = 0, ()
    last = held[1].get(reader)
    if last is not None:
        count, event, rolls, before = last
        # What was read still stands: the same last event, its rolls as they were.
        if count <= len(log) and log[count - 1] is event and len(event.rolls) == rolls:
            read, seen = count, before
    if read < len(log):
        seen += tuple(e for ev in log[read:] if (e := ev.visible_to(reader)) is not None)
    if log:
        held[1][reader] = (len(log), log[-1], len(log[-1].rolls), seen)
    return seen


# Each unit's last copy for a view, with what it was made from: a decision's view
# mostly follows one command that changed one unit or none, and a ``SeenUnit`` cannot
# be changed, so the next view of a unit as it was hands out the same copy. Keyed
# by the engine's unit, held so that its id is not reused while the copy is kept.
_SEEN_UNITS: dict[tuple[int, str], tuple[Unit, dict[str, Any], SeenUnit]] = {}
_SEEN_UNITS_KEPT = 4096


def _as_read(unit: Unit, seen_as: str) -> dict[str, Any]:
    """What ``SeenUnit.seen(unit, seen_as)`` reads of the unit: its fields, of a battery
    not its own side's only weapon and pieces. Compared whole with what a copy was
    made from (``_made_from``): one comparison of two dicts, field by field."""
    fields_of = unit.__dict__
    gun = fields_of["battery"]
    if gun is None or seen_as == OWN:
        return fields_of
    return {**fields_of, "battery": (gun.weapon, gun.pieces)}


def _made_from(unit: Unit, seen_as: str, seen: SeenUnit) -> dict[str, Any]:
    """``_as_read(unit, seen_as)`` as it is now, kept apart from the unit: the lists,
    the reactions and the battery, which the engine writes into in place, copied
    (the profile and damage are replaced whole, ``_copy_of``). An own battery's copy
    is the one ``seen`` holds, made of the battery as it is now."""
    made_from = dict(_as_read(unit, seen_as))
    for name in ("weapons_fired", "charged", "in_combat_with"):
        made_from[name] = list(made_from[name])
    made_from["reactions"] = dict(made_from["reactions"])
    if seen_as == OWN and unit.battery is not None:
        made_from["battery"] = seen.battery
    return made_from


def _seen_unit(unit: Unit, seen_as: str) -> SeenUnit:
    """``SeenUnit.seen(unit, seen_as)``, the copy of the last view while the unit is as
    it was then."""
    key = (id(unit), seen_as)
    held = _SEEN_UNITS.get(key)
    if held is not None and held[0] is unit and held[1] == _as_read(unit, seen_as):
        if _CHECK_COPIES and held[2].__dict__ != SeenUnit.seen(unit, seen_as).__dict__:
            raise AssertionError(f"the view's copy of {unit.id} is not the unit as it is")
        return held[2]
    if len(_SEEN_UNITS) >= _SEEN_UNITS_KEPT:
        _SEEN_UNITS.clear()
    seen = SeenUnit.seen(unit, seen_as)
    _SEEN_UNITS[key] = (unit, _made_from(unit, seen_as, seen), seen)
    return seen


def _gate(state: GameState, side: str) -> PlayerView:
    """The one gate: what ``side`` (a side, or ``PUBLIC`` for the table) may know."""
    public = side == PUBLIC
    enemy = PUBLIC if public else state.other(side)
    units: dict[str, SeenUnit] = {}
    for unit in state.units.values():
        if unit.side == side:
            units[unit.id] = _seen_unit(unit, OWN)
        elif knows_unit(state, side, unit):
            units[unit.id] = _seen_unit(unit, TABLE if public else ENEMY)
    queue, arrivals = _queue_sight(state, side)
    # ART-24: an announced side is said aloud; the table hears every announcement.
    heard = state.sides if public else (side,)
    return _made_view(
        _common(state),
        side=side,
        enemy=enemy,
        units=units,
        queue=queue,
        arrivals=arrivals,
        predesignated=tuple(state.predesignated.get(side, ())),
        announcements=tuple(
            Announcement(a.turn, a.aimed, a.side)
            for s in heard
            for a in state.intel[s].announcements
        ),
        revealed=tuple(u for s in heard for u in state.intel[s].revealed),
        log=_seen_log(state.log, side),
        pending_sheet=_pending(state, side),
        pile=tuple(state.piles.get(side, ())),
        table=public,
    )


# The fields a view takes when not given (``umpire``, ``question``...).
_VIEW_DEFAULTS = {f.name: f.default for f in fields(PlayerView) if f.default is not MISSING}
_VIEW_FIELDS = frozenset(f.name for f in fields(PlayerView))


def _made_view(common: dict[str, Any], **values: Any) -> PlayerView:
    """``PlayerView(**common, **values)``, its fields filled in directly: a frozen
    dataclass's ``__init__`` sets each of its 27 fields through ``object.__setattr__``,
    and a view is made for every decision. The view is as frozen as one made by
    ``__init__``: its class refuses every assignment."""
    view = object.__new__(PlayerView)
    view.__dict__.update(_VIEW_DEFAULTS, **common, **values)
    if _CHECK_COPIES and view.__dict__.keys() != _VIEW_FIELDS:
        raise AssertionError("a view made without some of its fields")
    return view


def umpire_view(state: GameState) -> PlayerView:
    """Both sides at once, for replays only: every unit with everything its own side
    knows (the hidden ones and the guns off the board among them), every arrival, the
    whole log unredacted, and every shell in flight (``umpire.plots``). The game
    itself only ever shows ``player_view`` and ``table_view``."""
    units = {u.id: SeenUnit.seen(u, OWN) for u in state.units.values()}
    queue, numbers = _own_queue(state, state.sides)
    return PlayerView(
        side=UMPIRE,
        enemy=UMPIRE,
        units=units,
        # The plot layer draws a side's own plots; the replay draws both sides' itself.
        queue=FireQueue(),
        arrivals=_arrivals(state, UMPIRE, numbers),
        predesignated=(),
        announcements=(),
        revealed=(),
        log=tuple(e.whole() for e in state.log),
        pending_sheet=_pending(state, UMPIRE),
        pile=(),
        umpire=UmpireSight(
            plots=tuple(queue.in_flight()),
            predesignated={s: tuple(h) for s, h in state.predesignated.items()},
        ),
        **_common(state),
    )
