"""Movement on the hex board (MOV-1, MOV-2, MOV-3, MAP-6) as pure functions.

The rules as implemented, with every decision, are in ``docs/movement.md``.
In short:

- BattleTech-style units (mechs, vehicles, hover vehicles, infantry) spend MP
  entering hexes (MOV-1): clear and road 1, rough 2, light woods 2, heavy woods
  3, water depth 1 2, depth 2 or more 4 (mechs only), building 2, plus 1 per
  level changed; along a road (road hex to road hex, bridges included) every
  hex costs 1 plus the level change. Mechs turn one hexside for 1 MP, move
  forward into the hex in front or backward into the hex behind at the same
  cost; a move with a backward step stays within walking MP. Infantry pay 1 per
  hex and turn freely.
- Other systems' figures (MOV-2) move their allowance in hexes; woods, rough
  and water count double; facing is free.
- Units pass through friendly units, never through enemy units, and end in
  neither.
- ``reachable`` answers every hex a unit can reach this phase at once (a
  Dijkstra search over hex and facing with a ring of cost buckets, visiting
  only the states within the move's MP, over per-area step tables cached by
  area revision; a search is kept for the revision and serves the same unit's
  questions whatever its friends and the enemies beyond its MP);
  ``route_to``/``path_cost`` answer one hex; ``validate_move`` says in
  players' words why a move is illegal.
- A route records what MOV-3 needs: stood, walked or ran, hexes entered
  (ART-32a) and MP spent (ART-19).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from game.board.area import PlayArea, SheetPosition, locate_positions
from game.board.los import unit_height
from game.board.terrain import (
    BUILDING,
    CLEAR,
    HEAVY_WOODS,
    LIGHT_WOODS,
    ROUGH,
    TERRAIN_NAMES,
    WATER,
)
from game.hexmath import DIRECTION_NAMES, DIRECTIONS, Hex, neighbor

# --- movement classes ---------------------------------------------------------------

MECH = "mech"
VEHICLE = "vehicle"  # tracked and wheeled vehicles alike (MOV-1 gives them one set of costs)
HOVER = "hover"
INFANTRY = "infantry"
FIGURE = "figure"  # BATTLESYSTEM, Warhammer and toy-soldier units (MOV-2)
MOVEMENT_CLASSES = (MECH, VEHICLE, HOVER, INFANTRY, FIGURE)

CLASS_PLURAL: dict[str, str] = {
    MECH: "mechs",
    VEHICLE: "vehicles",
    HOVER: "hover vehicles",
    INFANTRY: "infantry",
    FIGURE: "figures",
}

# MOV-1: mechs change at most 2 levels per hex, vehicles 1. Decision: infantry
# and figures climb like mechs (2); the cost tables below rely on no limit
# exceeding 2.
LEVEL_LIMIT: dict[str, int] = {MECH: 2, VEHICLE: 1, HOVER: 1, INFANTRY: 2, FIGURE: 2}
# Which classes pay for facing changes and may move backward (MOV-1); infantry
# and figures turn freely (decision, docs/movement.md).
FACING_CLASSES = frozenset({MECH, VEHICLE, HOVER})
# Decision: stepping off the play area (MAP-6) costs this many MP whatever the
# class: the new sheet is not known yet, so it counts as clear level-0 ground.
EXIT_COST = 1

# Route modes, the words of the engine's unit state and ART-32a.
STOOD = "stood"
WALKED = "walked"
RAN = "ran"

# Step actions.
FORWARD = "forward"
BACKWARD = "backward"
TURN_RIGHT = "turn right"
TURN_LEFT = "turn left"
MOVE = "move"  # a step of a unit that turns freely (infantry, figures)


class MovementError(ValueError):
    """A movement question is malformed (bad mover, start hex, facing...); says why."""


def _whole(value: object) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _check_facing(value: object, what: str = "facing") -> int:
    if not _whole(value) or int(value) not in DIRECTIONS:  # type: ignore[call-overload]
        raise MovementError(
            f"{what} must be a direction 1..6 (1 north, 2 north-east, ... clockwise), not {value!r}"
        )
    return int(value)  # type: ignore[call-overload]


@dataclass(frozen=True)
class Mover:
    """What movement needs to know about a unit; the engine's unit stays out of it.

    ``mp`` is walking MP for BattleTech-style classes (MOV-1) and the move
    allowance in hexes for figures (MOV-2). ``may_run`` defaults by class:
    mechs, vehicles and hover vehicles run (``ceil(walk * 1.5)``), infantry and
    figures do not. ``height`` is the unit's height in levels (MAP-5 line of
    sight), default 2 for mechs and 1 otherwise; movement carries it for the
    callers and does not use it.
    """

    movement_class: str
    mp: int
    name: str = "the unit"
    may_run: bool | None = None
    height: int | None = None

    def __post_init__(self) -> None:
        if self.movement_class not in MOVEMENT_CLASSES:
            raise MovementError(
                f'movement class "{self.movement_class}" must be one of '
                f"{', '.join(MOVEMENT_CLASSES)} (tracked and wheeled vehicles are "
                f'"{VEHICLE}")'
            )
        if not _whole(self.mp) or self.mp < 0:
            raise MovementError(
                f"{self.name}: MP must be a whole number 0 or more, not {self.mp!r}"
            )
        object.__setattr__(self, "mp", int(self.mp))
        if self.may_run is None:
            object.__setattr__(self, "may_run", self.movement_class in FACING_CLASSES)
        elif not isinstance(self.may_run, bool):
            raise MovementError(f"{self.name}: may_run must be True or False, not {self.may_run!r}")
        if self.may_run and self.movement_class == FIGURE:
            raise MovementError(
                f"{self.name}: figures move their allowance in hexes (MOV-2); they have "
                "no running MP"
            )
        if self.height is None:
            object.__setattr__(self, "height", unit_height(self.movement_class))
        elif not _whole(self.height) or self.height < 1:
            raise MovementError(
                f"{self.name}: height must be a whole number of levels, 1 or more, "
                f"not {self.height!r}"
            )

    @property
    def walk_mp(self) -> int:
        return self.mp

    @property
    def run_mp(self) -> int:
        """MOV-1: ``ceil(walk * 1.5)`` for a unit that may run, its walking MP otherwise."""
        return (3 * self.mp + 1) // 2 if self.may_run else self.mp

    @property
    def turns_freely(self) -> bool:
        """Infantry and figures change facing for nothing and have no backward moves."""
        return self.movement_class not in FACING_CLASSES

    def allowance_text(self) -> str:
        """``"5 walking / 8 running MP"``, ``"3 MP"`` or ``"6 hexes"``, for messages."""
        if self.movement_class == FIGURE:
            return f"{self.mp} {'hex' if self.mp == 1 else 'hexes'}"
        if self.may_run:
            return f"{self.mp} walking / {self.run_mp} running MP"
        return f"{self.mp} MP"


def mover_for(
    system: str, profile: Mapping[str, Any], name: str = "the unit", height: int | None = None
) -> Mover:
    """The ``Mover`` of a scenario unit profile (``game.scenario`` profile tables).

    BattleTech profiles: ``type`` mech / vehicle (``motive`` tracked, wheeled
    or hover) / infantry with ``walk`` MP. Other systems: figures with
    ``move`` hexes (a toy-soldier gun without ``move`` cannot move).
    """
    if not isinstance(profile, Mapping):
        raise MovementError(f"{name}: a profile is a mapping, not {type(profile).__name__}")
    # A unit's Mover is asked for many times a phase (whether it can move, how far,
    # its reach), so it is made once for what it is made of: the values read below,
    # the numbers with their types (5 and 5.0, or True and 1, are equal keys but not
    # equal MP).
    get = profile.get
    walk, move, tall = get("walk", _ABSENT), get("move", _ABSENT), get("height", _ABSENT)
    key = (
        system,
        name,
        height,
        get("type"),
        get("motive"),
        walk,
        move,
        tall,
        type(height),
        type(walk),
        type(move),
        type(tall),
    )
    try:
        made = _MOVERS.get(key)
    except TypeError:  # a value that is no key (a list as MP...): made, and refused, anew
        return _new_mover(system, profile, name, height)
    if made is None:
        try:
            made = _new_mover(system, profile, name, height)
        except MovementError as exc:
            made = exc
        if len(_MOVERS) >= _MOVERS_KEPT:
            _MOVERS.clear()
        _MOVERS[key] = made
    if isinstance(made, MovementError):
        raise MovementError(*made.args)
    return made


# The Movers ``mover_for`` made (or the reasons it refused), by what they are made
# of, and how many it keeps (a game has some dozens of units).
_ABSENT = object()  # a profile entry that is not there
_MOVERS: dict[tuple, Mover | MovementError] = {}
_MOVERS_KEPT = 1024


def _new_mover(system: str, profile: Mapping[str, Any], name: str, height: int | None) -> Mover:
    if system == "battletech":
        kind = profile.get("type")
        if kind == "mech":
            movement_class = MECH
        elif kind == "vehicle":
            movement_class = HOVER if profile.get("motive") == "hover" else VEHICLE
        elif kind == "infantry":
            movement_class = INFANTRY
        else:
            raise MovementError(
                f'{name}: BattleTech type "{kind}" has no movement class (mech, vehicle, infantry)'
            )
        if "walk" not in profile:
            raise MovementError(f'{name}: a BattleTech profile needs "walk" (walking MP, MOV-1)')
        mp = profile["walk"]
    elif system in ("battlesystem", "warhammer", "toysoldiers"):
        movement_class = FIGURE
        mp = profile.get("move", 0)
    else:
        raise MovementError(
            f'{name}: system "{system}" is not one of battletech, battlesystem, '
            "warhammer, toysoldiers"
        )
    if height is None:
        height = profile.get("height")
    return Mover(movement_class, mp, name=name, height=height)


# --- the cost of entering one hex ----------------------------------------------------


class _Rule(NamedTuple):
    cost: int  # 0: closed
    text: str  # the breakdown ("light woods 2 + 1 level = 3") or why it is closed
    closed_by_level: bool = False


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _entry_rule(
    movement_class: str, terrain: int, depth: int, along_road: bool, levels: int
) -> _Rule:
    """MOV-1/MOV-2: entering a hex of ``terrain`` (water ``depth``), ``levels`` up or down.

    The one statement of the terrain costs: the per-area tables are built from
    it, and ``entry_cost`` explains single steps with it.
    """
    plural = CLASS_PLURAL[movement_class]
    limit = LEVEL_LIMIT[movement_class]
    if levels > limit:
        return _Rule(
            0,
            f"that is a change of {_plural(levels, 'level')}; {plural} change at most "
            f"{_plural(limit, 'level')} per hex",
            closed_by_level=True,
        )
    water_text = f"water of depth {depth}"
    is_water = terrain == WATER and depth > 0  # depth-0 water is crossed like clear ground
    if along_road:
        base, what = 1, ("bridge" if terrain == WATER else "road")
    elif movement_class == INFANTRY:
        # MOV-1: infantry pay 1 MP per hex whatever the terrain, and no level cost;
        # water of depth 2 or more is for mechs only.
        if is_water and depth >= 2:
            return _Rule(0, f"{water_text} is closed to {plural} (mechs only)")
        return _Rule(1, "1 (infantry: every hex costs 1)")
    elif movement_class == FIGURE:
        if terrain in (LIGHT_WOODS, HEAVY_WOODS, ROUGH) or is_water:
            what = water_text if is_water else TERRAIN_NAMES[terrain]
            return _Rule(2, f"{what} 2 (double)")
        what = "clear" if terrain == WATER else TERRAIN_NAMES[terrain]
        return _Rule(1, f"{what} 1")
    elif terrain == HEAVY_WOODS and movement_class in (VEHICLE, HOVER):
        return _Rule(0, f"heavy woods are closed to {plural}")
    elif is_water and movement_class == HOVER:
        base, what = 1, f"{water_text} (hover)"
    elif is_water and movement_class == VEHICLE:
        return _Rule(0, f"{water_text} is closed to {plural} (only hover vehicles cross water)")
    elif is_water:
        base, what = (2 if depth == 1 else 4), water_text
    elif terrain == WATER:
        base, what = 1, "water of depth 0 (as clear)"
    else:
        base = {CLEAR: 1, ROUGH: 2, LIGHT_WOODS: 2, HEAVY_WOODS: 3, BUILDING: 2}[terrain]
        what = TERRAIN_NAMES[terrain]
    if movement_class in (INFANTRY, FIGURE):
        # Along a road: 1 per hex, and these classes pay nothing for levels.
        return _Rule(1, f"{what} 1")
    if levels:
        return _Rule(base + levels, f"{what} {base} + {_plural(levels, 'level')} = {base + levels}")
    return _Rule(base, f"{what} {base}")


_TERRAIN_CODES = tuple(sorted(TERRAIN_NAMES))
_DEPTH_CATEGORIES = 3  # 0, 1, 2 or more
_LEVEL_CATEGORIES = 4  # 0, 1, 2, 3 or more (more than every class's limit)
if max(LEVEL_LIMIT.values()) >= _LEVEL_CATEGORIES - 1:  # pragma: no cover - table invariant
    raise AssertionError("a level limit of 3 or more needs more level categories")


def _class_table(movement_class: str) -> np.ndarray:
    """Entry costs (0: closed) by [terrain, depth category, along road, level change]."""
    table = np.zeros(
        (max(_TERRAIN_CODES) + 1, _DEPTH_CATEGORIES, 2, _LEVEL_CATEGORIES), dtype=np.int16
    )
    for terrain in _TERRAIN_CODES:
        for depth in range(_DEPTH_CATEGORIES):
            for road in (0, 1):
                for levels in range(_LEVEL_CATEGORIES):
                    table[terrain, depth, road, levels] = _entry_rule(
                        movement_class, terrain, depth, bool(road), levels
                    ).cost
    return table


_CLASS_TABLES: dict[str, np.ndarray] = {c: _class_table(c) for c in MOVEMENT_CLASSES}


@dataclass(frozen=True)
class Entry:
    """The cost of one step into a hex (MOV-1/MOV-2): ``cost`` None when it is closed."""

    cost: int | None
    text: str  # "light woods 2 + 1 level = 3", or why the hex is closed

    @property
    def open(self) -> bool:
        return self.cost is not None


def entry_cost(area: PlayArea, from_hex: Hex, to_hex: Hex, mover: Mover) -> Entry:
    """MOV-1/MOV-2: what ``mover`` pays to step from ``from_hex`` into the adjacent ``to_hex``.

    A step off the play area is the MAP-6 exit cost (1 MP); use ``reachable``
    with ``exits=True`` to know whether mobile maps allow it.
    """
    _check_mover(mover)
    a = _as_hex(from_hex, "from_hex")
    b = _as_hex(to_hex, "to_hex")
    if b not in [neighbor(a, d) for d in DIRECTIONS]:
        raise MovementError(f"{b} is not adjacent to {a}: a step enters a neighbouring hex")
    ia = area.index_of(a)
    if ia < 0:
        raise MovementError(f"{area.label(a)}: a step starts inside the play area")
    ib = area.index_of(b)
    if ib < 0:
        return Entry(EXIT_COST, f"off the play area {EXIT_COST} (the next sheet counts as clear)")
    rule = _step_rule(area, ia, ib, mover.movement_class)
    return Entry(rule.cost if rule.cost else None, rule.text)


def _step_rule(area: PlayArea, ia: int, ib: int, movement_class: str) -> _Rule:
    """The rule for a step between two area hexes given by their array indices."""
    return _entry_rule(
        movement_class,
        int(area.terrain[ib]),
        int(area.water_depth[ib]),
        bool(area.road[ia] and area.road[ib]),
        abs(int(area.level[ib]) - int(area.level[ia])),
    )


def mean_entry_cost(area: PlayArea, movement_class: str, closed: float) -> float:
    """MOV-1/MOV-2: the mean MP ``movement_class`` pays for a step between two
    neighbouring hexes of ``area`` (level changes included), a step closed to it
    counting ``closed``: how slow the ground is to cross."""
    t = _tables(area, movement_class)
    neighbours, costs = t.neighbours, t.enter[movement_class]
    return float(np.where(costs > 0, costs, closed)[neighbours >= 0].mean())


def turn_cost(from_facing: int, to_facing: int, mover: Mover) -> int:
    """MOV-1: 1 MP per hexside of facing change (0..3); free for infantry and figures."""
    a = _check_facing(from_facing, "from_facing")
    b = _check_facing(to_facing, "to_facing")
    if mover.turns_freely:
        return 0
    d = (b - a) % 6
    return min(d, 6 - d)


# --- per-area tables -------------------------------------------------------------------

# The most MP one step into a hex costs (water of depth 2 or more, 4, and 2 levels):
# the search keeps its pending states in a ring of buckets at least one longer than that.
_LONGEST_STEP = int(max(table.max() for table in _CLASS_TABLES.values()))
_RING = 8  # a power of two: the bucket of a cost is ``cost & (_RING - 1)``
if _LONGEST_STEP >= _RING:  # pragma: no cover - table invariant
    raise AssertionError("a step cost of 8 MP or more needs a longer ring of buckets")
# The MP of a search without limit (``validate_move`` asking how far a hex is).
_NO_LIMIT = 1 << 20


@dataclass
class _Tables:
    revision: int
    size: int
    q: list[int]
    r: list[int]
    neighbours: np.ndarray  # (N, 6): area index of the neighbour in direction d + 1, or -1
    exit_ok: np.ndarray  # (N, 6): that neighbour is off the area, in an exit position
    # Every step off the area across an edge of the sheet it leaves (_edge_steps): what
    # ``exit_ok`` is worked out from, and all a sheet laid changes of it besides the
    # steps into the new sheet.
    edge_steps: _EdgeSteps
    # The area arrays (_TABLE_ARRAYS) the tables were built from.
    arrays: tuple[np.ndarray, ...]
    # movement class -> (N, 6) MP to step into each neighbour (0: no step, _enter_costs)
    enter: dict[str, np.ndarray] = field(default_factory=dict)
    # The search reads the tables a step at a time: flat views of them (index 6 * hex
    # + direction - 1) that give Python ints, made on the first search without
    # copying (a copy of every hex's steps would cost more than the searches of a
    # revision): ``neighbours``, ``enter`` by class, ``exit_ok``; and the hexes with
    # an exit at all.
    _flat: dict[str, memoryview] = field(default_factory=dict)
    _exit_hexes: frozenset[int] | None = None
    _hexes: list[Hex] | None = None
    _beyond: dict[int, Hex] = field(default_factory=dict)  # ``exit_hex``, as asked

    def exit_hex(self, i: int, d: int) -> Hex:
        """The hex off the area a step from area hex ``i`` in direction ``d + 1`` enters."""
        h = self._beyond.get(6 * i + d)
        if h is None:
            h = self._beyond[6 * i + d] = Hex(self.q[i] + _STEP_Q[d], self.r[i] + _STEP_R[d])
        return h

    def hexes(self, area: PlayArea) -> list[Hex]:
        """The area hexes in array order (``area``: one the tables are of), made once:
        the answers of every search name their hexes."""
        if self._hexes is None:
            self._hexes = area.hexes()
        return self._hexes

    def _view(self, name: str, table: np.ndarray) -> memoryview:
        view = self._flat.get(name)
        if view is None:
            view = self._flat[name] = memoryview(np.ascontiguousarray(table).ravel())
        return view

    def flat_neighbours(self) -> memoryview:
        return self._view("neighbours", self.neighbours)

    def flat_enter(self, movement_class: str) -> memoryview:
        return self._view(movement_class, self.enter[movement_class])

    def flat_exits(self) -> memoryview:
        return self._view("exits", self.exit_ok)

    def exit_hexes(self) -> frozenset[int]:
        """The area hexes a step leaves by an exit (MAP-6)."""
        if self._exit_hexes is None:  # worked out on the first search only
            self._exit_hexes = frozenset(np.flatnonzero(self.exit_ok.any(axis=1)).tolist())
        return self._exit_hexes


_TABLES: weakref.WeakKeyDictionary[PlayArea, _Tables] = weakref.WeakKeyDictionary()
_DQ = np.array([DIRECTIONS[d].q for d in range(1, 7)], dtype=np.int64)
_DR = np.array([DIRECTIONS[d].r for d in range(1, 7)], dtype=np.int64)


def _tables(area: PlayArea, movement_class: str) -> _Tables:
    t = _TABLES.get(area)
    if t is None or t.revision != area.revision:
        before = t or _largest_tables(len(area))
        t = _twin_tables(area) or _grown_tables(area, before) or _build_tables(area)
        _TABLES[area] = t
    if movement_class not in t.enter:
        enter = _enter_costs(area, t.neighbours, movement_class)
        enter.flags.writeable = False
        t.enter[movement_class] = enter
    return t


# The area arrays the tables are built from.
_TABLE_ARRAYS = ("q", "r", "terrain", "level", "water_depth", "road", "sheet_i", "sheet_j")


def _twin_tables(area: PlayArea) -> _Tables | None:
    """The tables of another area holding the very same arrays at the same revision:
    a copy of it (``PlayArea.snapshot``, a side's view of the engine's area), whose
    moves are the same."""
    for other, t in list(_TABLES.items()):
        if t.revision == area.revision and all(
            getattr(other, name) is getattr(area, name) for name in _TABLE_ARRAYS
        ):
            return t
    return None


def _largest_tables(size: int) -> _Tables | None:
    """The tables of the most hexes kept, up to ``size``: those of the area a side's
    new view of the engine's area most likely grew from (``_grown_tables`` checks
    that it did)."""
    kept = [t for t in list(_TABLES.values()) if t.size <= size]
    return max(kept, key=lambda t: (t.size, t.revision), default=None)


def _build_tables(area: PlayArea) -> _Tables:
    q = area.q.astype(np.int64)
    r = area.r.astype(np.int64)
    rows = np.arange(len(q))
    neighbours = _neighbours(area, q, r, rows)
    edge_steps = _edge_steps(area, q, r, rows, neighbours)
    exit_ok = _exit_table(area, len(q), edge_steps)
    neighbours.flags.writeable = False
    exit_ok.flags.writeable = False
    return _Tables(
        revision=area.revision,
        size=len(q),
        q=area.q.tolist(),
        r=area.r.tolist(),
        neighbours=neighbours,
        exit_ok=exit_ok,
        edge_steps=edge_steps,
        arrays=tuple(getattr(area, name) for name in _TABLE_ARRAYS),
    )


def _grown_tables(area: PlayArea, before: _Tables | None) -> _Tables | None:
    """The tables of an area that only grew or changed ground since ``before`` was
    built (sheets laid, MAP-6: the hexes in play keep their place at the front of
    the arrays; buildings demolished), worked out again only for the new hexes, the
    hexes next to them and the hexes next to changed ground; None when the hexes in
    play moved in the arrays. The exits are read again from the steps across sheet
    edges: a sheet laid may close any of them (a position taken, the area's limits
    reached)."""
    if before is None:
        return None
    n0, n = before.size, len(area)
    if n < n0:
        return None
    changed = np.zeros(n0, dtype=bool)
    for name, old in zip(_TABLE_ARRAYS, before.arrays, strict=True):
        differs = getattr(area, name)[:n0] != old
        if name in ("q", "r", "sheet_i", "sheet_j") and differs.any():
            return None
        changed |= differs
    q = area.q.astype(np.int64)
    r = area.r.astype(np.int64)
    new = np.arange(n0, n)
    neighbours = np.empty((n, 6), dtype=before.neighbours.dtype)
    neighbours[:n0] = before.neighbours
    edge_steps = before.edge_steps
    beside = new
    if n > n0:
        neighbours[new] = _neighbours(area, q, r, new)
        # Only the hexes in play next to a new one have a neighbour more (hexes in
        # play keep their place, so a neighbour in play stays one).
        around = neighbours[new]
        beside = np.unique(around[(around >= 0) & (around < n0)])
        neighbours[beside] = _neighbours(area, q, r, beside)
        off = neighbours[edge_steps.rows, edge_steps.dirs] < 0
        more = _edge_steps(area, q, r, new, neighbours[new])
        edge_steps = _EdgeSteps(
            *(
                np.concatenate([kept[off], added])
                for kept, added in zip(edge_steps, more, strict=True)
            )
        )
    exit_ok = _exit_table(area, n, edge_steps)
    neighbours.flags.writeable = False
    exit_ok.flags.writeable = False
    t = _Tables(
        revision=area.revision,
        size=n,
        q=before.q + area.q[n0:].tolist(),
        r=before.r + area.r[n0:].tolist(),
        neighbours=neighbours,
        exit_ok=exit_ok,
        edge_steps=edge_steps,
        arrays=tuple(getattr(area, name) for name in _TABLE_ARRAYS),
    )
    # Every other hex has the neighbours it had, their ground unchanged: its steps are.
    ground = changed.nonzero()[0]
    near = before.neighbours[ground].ravel()
    rows = np.unique(np.concatenate([ground, near[near >= 0], beside, new]))
    codes = _step_codes(area, neighbours[rows], rows)
    for movement_class, costs in before.enter.items():
        enter = np.empty((n, 6), dtype=costs.dtype)
        enter[:n0] = costs
        enter[rows] = _FLAT_TABLES[movement_class][codes]
        enter.flags.writeable = False
        t.enter[movement_class] = enter
    return t


def _neighbours(area: PlayArea, q: np.ndarray, r: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """(K, 6): the area index of each neighbour of the area hexes ``rows`` (-1 off the area)."""
    nq = q[rows, None] + _DQ[None, :]
    nr = r[rows, None] + _DR[None, :]
    return area.indices_of(nq.ravel(), nr.ravel()).reshape(len(rows), 6)


class _EdgeSteps(NamedTuple):
    """Steps off the area (MAP-6) across an edge of the sheet they leave, by the
    area hex left and the direction - 1, with the sheet position entered."""

    rows: np.ndarray
    dirs: np.ndarray
    i: np.ndarray
    j: np.ndarray


def _edge_steps(
    area: PlayArea, q: np.ndarray, r: np.ndarray, rows: np.ndarray, neighbours: np.ndarray
) -> _EdgeSteps:
    """The steps off the area of the area hexes ``rows`` (``neighbours``: theirs) that
    cross an edge of their sheet: MAP-6 attaches the new sheet next to the sheet the
    unit leaves, so a step across a sheet corner into a diagonal position is no exit."""
    off = np.nonzero(neighbours < 0)
    src = rows[off[0]]
    pi, pj = locate_positions(q[src] + _DQ[off[1]], r[src] + _DR[off[1]])
    beside = np.flatnonzero(np.abs(pi - area.sheet_i[src]) + np.abs(pj - area.sheet_j[src]) == 1)
    return _EdgeSteps(src[beside], off[1][beside], pi[beside], pj[beside])


def _exit_table(area: PlayArea, n: int, steps: _EdgeSteps) -> np.ndarray:
    """(N, 6): whether each step off the area is an exit (MAP-6): it crosses a sheet
    edge into a position where the area may grow."""
    exit_ok = np.zeros((n, 6), dtype=bool)
    # Whether the area may grow there is asked once per sheet position (positions lie
    # well within +-2**15, game/limits.py).
    _, first, which = np.unique(
        (steps.i.astype(np.int64) << 16) + steps.j, return_index=True, return_inverse=True
    )
    positions = zip(steps.i[first].tolist(), steps.j[first].tolist(), strict=True)
    grows = [area.may_grow_to(pos) for pos in positions]
    exit_ok[steps.rows, steps.dirs] = np.array(grows, dtype=bool)[which]
    return exit_ok


def _enter_costs(
    area: PlayArea, nb: np.ndarray, movement_class: str, rows: np.ndarray | None = None
) -> np.ndarray:
    """(N, 6) MP to step from each hex into its neighbour in each direction; 0: no step.
    ``rows``: the area hexes ``nb`` gives the neighbours of (default every hex)."""
    return _FLAT_TABLES[movement_class][_step_codes(area, nb, rows)]


def _step_codes(area: PlayArea, nb: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
    """(N, 6) what decides the cost of each step of ``_enter_costs``, as an index into
    every class's flattened table (``_FLAT_TABLES``): the terrain, water depth and level
    change of the hex entered, whether the step follows a road; a step off the area
    reads the table's closing 0. One reading serves every class."""
    src = np.arange(nb.shape[0]) if rows is None else rows
    inside = nb >= 0
    dst = np.where(inside, nb, 0)
    levels = np.abs(area.level[dst].astype(np.int32) - area.level[src].astype(np.int32)[:, None])
    codes = area.terrain[dst].astype(np.int32) * _DEPTH_CATEGORIES
    codes += np.minimum(area.water_depth[dst], _DEPTH_CATEGORIES - 1)
    codes *= 2
    codes += area.road[dst] & area.road[src][:, None]
    codes *= _LEVEL_CATEGORIES
    codes += np.minimum(levels, _LEVEL_CATEGORIES - 1)
    codes[~inside] = _OFF_AREA
    return codes


# Each class's entry costs flattened in the order of ``_step_codes`` (terrain, depth,
# road, level change), with a 0 at the end for the steps off the area.
_FLAT_TABLES: dict[str, np.ndarray] = {
    c: np.append(table.ravel(), 0).astype(np.int32) for c, table in _CLASS_TABLES.items()
}
_OFF_AREA = _CLASS_TABLES[MECH].size


# --- routes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One action of a route: the hex and facing after it and the MP spent so far."""

    action: str  # forward, backward, turn right, turn left, move
    hex: Hex
    facing: int
    mp: int


@dataclass(frozen=True)
class Route:
    """The best way to one hex (and facing) this phase, with what MOV-3 records."""

    start: Hex
    hex: Hex
    facing: int
    mp_spent: int
    mode: str  # MOV-3: stood, walked or ran
    path: tuple[Hex, ...]  # the hexes passed, start first, destination last
    steps: tuple[Step, ...]
    exit_to: SheetPosition | None = None  # MAP-6: the free sheet position an exit leads into

    @property
    def cost(self) -> int:
        return self.mp_spent

    @property
    def hexes_moved(self) -> int:
        """MOV-3/ART-32a: hexes entered (turning in place enters none)."""
        return sum(1 for s in self.steps if s.action in (FORWARD, BACKWARD, MOVE))

    @property
    def ran(self) -> bool:
        return self.mode == RAN

    @property
    def backward(self) -> bool:
        """The route has a backward step (it then stays within walking MP)."""
        return any(s.action == BACKWARD for s in self.steps)

    @property
    def is_exit(self) -> bool:
        return self.exit_to is not None

    @property
    def spends_mp(self) -> bool:
        """ART-19: an artillery unit that spends MP loses its auto-hit hexes."""
        return self.mp_spent > 0


def _mode(cost: int, mover: Mover) -> str:
    if cost == 0:
        return STOOD
    return WALKED if cost <= mover.walk_mp else RAN


# --- the search ----------------------------------------------------------------------------

_ACTIONS = (FORWARD, BACKWARD, TURN_RIGHT, TURN_LEFT)
# The axial step of each direction 1..6, by direction - 1.
_STEP_Q = tuple(DIRECTIONS[d].q for d in range(1, 7))
_STEP_R = tuple(DIRECTIONS[d].r for d in range(1, 7))
# The facings (0..5) in a set of facings held as bits, each with its bit and the
# direction behind it (where a backward step goes), and the facings one turn from them.
_FACING_STEPS = tuple(
    tuple((f, 1 << f, (f + 3) % 6) for f in range(6) if mask >> f & 1) for mask in range(64)
)
_ONE_TURN = tuple(
    ((mask << 1) | (mask >> 1) | (mask << 5) | (mask >> 5)) & 63 for mask in range(64)
)
_OPPOSITE = (3, 4, 5, 0, 1, 2)


class Reach(Mapping[Hex, Route]):
    """Every hex ``mover`` can end its move in, with the best ``Route`` to it.

    A mapping hex -> Route in order of cost (ties in area order), exits (MAP-6)
    last; routes are built on first access. ``route(hex, facing)`` answers a
    particular final facing; ``costs()`` and ``cost_array()`` give costs
    without building routes.

    A search state is a number: ``(b * 6 + f) * N + i`` for units that pay for
    facing (area hex ``i`` of ``N``, the hexes in play when the search was made,
    facing ``f + 1``, ``b`` 1 once the move has had a backward step), ``i`` for
    units that turn freely. The search's answer is
    the MP of every state it reached within the move's limits (``dist``); a
    route is followed back from it (``_before``).
    """

    def __init__(
        self,
        area: PlayArea,
        start: Hex,
        facing: int,
        mover: Mover,
        budget: int,
        tables: _Tables,
        dist: dict[int, int],
        best: dict[int, int],
        costs: dict[int, int],
        exits: dict[tuple[Hex, int], tuple[int, int, int]],
        numbered: int,
        friendly: set[int],
    ) -> None:
        self.area = area
        self.start = start
        self.facing = facing
        self.mover = mover
        self.budget = budget
        self._t = tables
        self._hexes = tables.hexes(area)
        # The hexes the search's states are numbered over: the area's when it was
        # made, fewer than ``tables`` holds when it was carried over a laid sheet.
        self._n = numbered
        self._layered = mover.movement_class in FACING_CLASSES
        self._dist = dist
        # Each hex reached, with its cheapest state (ties: no backward step first,
        # then facing 1..6).
        self._best = best
        self._exits = exits
        self._revision = area.revision
        # The hexes where the unit may end, cheapest first (ties in area order), with
        # their MP: not those of friends it reaches (but its own). Without a friend
        # in reach, the search's own (no answer changes it).
        taken = {i for i in friendly if i in best}
        taken.discard(area.index_of(start))
        self._costs = {i: c for i, c in costs.items() if i not in taken} if taken else costs
        self._exit_best: dict[Hex, tuple[int, int]] = {}
        for (h, f), (cost, _, _) in sorted(exits.items(), key=lambda kv: kv[1][0]):
            if h not in self._exit_best or cost < self._exit_best[h][0]:
                self._exit_best[h] = (cost, f)
        self._routes: dict[tuple[Hex, int | None], Route] = {}

    def _index(self, h: Hex) -> int:
        """The area index of ``h`` when the unit may end there, else -1."""
        if self.area.revision != self._revision:
            raise MovementError(
                "the play area has changed since this search (a sheet was added): search again"
            )
        i = self.area.index_of(h)
        return i if i in self._costs else -1

    def _hex(self, i: int) -> Hex:
        """The hex of area index ``i``."""
        return self._hexes[i]

    # Mapping
    def __getitem__(self, h: Hex) -> Route:
        h = _as_hex(h, "hex")
        route = self._routes.get((h, None))
        if route is None:
            i = self._index(h)
            if i >= 0:
                route = self._build(self._best[i], None)
            elif h in self._exit_best:
                route = self._build_exit(h, self._exit_best[h][1], None)
            else:
                raise KeyError(h)
            self._routes[(h, None)] = route
        return route

    def __iter__(self) -> Iterator[Hex]:
        hexes = self._hexes
        for i in self._costs:
            yield hexes[i]
        yield from self._exit_best

    def __len__(self) -> int:
        return len(self._costs) + len(self._exit_best)

    def __contains__(self, h: object) -> bool:
        try:
            h = _as_hex(h, "hex")
        except MovementError:
            return False
        return self._index(h) >= 0 or h in self._exit_best

    def cost(self, h: Hex) -> int | None:
        """MP of the cheapest route to ``h`` (any facing), None when out of reach."""
        h = _as_hex(h, "hex")
        i = self._index(h)
        if i >= 0:
            return self._costs[i]
        if h in self._exit_best:
            return self._exit_best[h][0]
        return None

    def costs(self) -> dict[Hex, int]:
        """Every reachable hex with the MP of its cheapest route."""
        hexes = self._hexes
        out = {hexes[i]: c for i, c in self._costs.items()}
        out.update({h: v[0] for h, v in self._exit_best.items()})
        return out

    def end_facings(self) -> dict[Hex, int]:
        """Every reachable hex with the facing its cheapest route ends with, without
        building the routes (what a list of legal moves needs, many times a phase)."""
        hexes, best = self._hexes, self._best
        if self._layered:
            n = self._n
            out = {hexes[i]: best[i] // n % 6 + 1 for i in self._costs}
        else:
            # Figures face where they last stepped.
            out = {}
            for i in self._costs:
                before = self._before(i)
                out[hexes[i]] = self.facing if before is None else before[1] + 1
        out.update({h: v[1] for h, v in self._exit_best.items()})
        return out

    def cost_array(self) -> np.ndarray:
        """Costs over the area arrays (``area.q``, ``area.r``): -1 where the unit cannot end."""
        costs = np.full(self._t.size, -1, dtype=np.int32)
        costs[list(self._costs)] = list(self._costs.values())
        return costs

    def exits(self) -> dict[Hex, Route]:
        """MAP-6: the reachable hexes off the play area, with the sheet position each enters."""
        return {h: self[h] for h in self._exit_best}

    def route(self, h: Hex, facing: int | None = None) -> Route | None:
        """The best route to ``h`` ending with ``facing`` (None: any facing); None if out
        of reach or if ``h`` is not a legal place to end (a friendly unit is there)."""
        h = _as_hex(h, "hex")
        if facing is None:
            return self.get(h)
        facing = _check_facing(facing)
        key = (h, facing)
        if key in self._routes:
            return self._routes[key]
        route: Route | None = None
        i = self._index(h)
        if i >= 0:
            if not self._layered:
                route = self._build(i, facing)
            else:
                reached = [s for s in self._facing_states(i, facing) if s in self._dist]
                if reached:
                    route = self._build(min(reached, key=self._dist.__getitem__), None)
        elif h in self._exit_best:
            if not self._layered:
                route = self._build_exit(h, self._exit_best[h][1], facing)
            elif (h, facing) in self._exits:
                route = self._build_exit(h, facing, None)
        if route is not None:
            self._routes[key] = route
        return route

    def facings(self, h: Hex) -> list[int]:
        """The facings the unit may end with in ``h`` (those ``route(h, facing)``
        answers), without building the routes."""
        h = _as_hex(h, "hex")
        i = self._index(h)
        if i < 0:
            if h not in self._exit_best:
                return []
            if not self._layered:
                return list(DIRECTIONS)
            return [f for f in DIRECTIONS if (h, f) in self._exits]
        if not self._layered:
            return list(DIRECTIONS)
        return [f for f in DIRECTIONS if any(s in self._dist for s in self._facing_states(i, f))]

    # Route building
    def _facing_states(self, i: int, facing: int) -> tuple[int, int]:
        """The states of area hex ``i`` with ``facing``: without, then with a backward step."""
        n = self._n
        return (facing - 1) * n + i, (facing + 5) * n + i

    def _state(self, s: int) -> tuple[Hex, int]:
        """The hex and facing of a state (facing 0 for units that turn freely)."""
        n = self._n
        facing = (s // n) % 6 + 1 if self._layered else 0
        return self._hex(s % n), facing

    def _before(self, s: int) -> tuple[int, int] | None:
        """The state the best route to state ``s`` comes from and the action taken there
        (None for the start): of the moves from reached states that cost exactly its
        MP, the one from the cheapest state, then the lowest-numbered state, then the
        first action, as a search taking a state's first route at its cost finds."""
        dist = self._dist
        cost = dist[s]
        if cost == 0:
            return None
        n, neighbours = self._n, self._t.flat_neighbours()
        enter = self._t.flat_enter(self.mover.movement_class)
        row, i = divmod(s, n)
        # (MP before, state, action) of each move into ``s``.
        came: list[tuple[int, int, int]] = []
        if not self._layered:
            for d in range(6):  # a step in direction d + 1, from the hex the other way
                j = neighbours[6 * i + (d + 3) % 6]
                w = enter[6 * j + d] if j >= 0 else 0
                if w and dist.get(j) == cost - w:
                    came.append((cost - w, j, d))
            return min(came)[1:]
        f = row % 6
        for turned, a in (((f + 5) % 6, 2), ((f + 1) % 6, 3)):
            if dist.get(s + (turned - f) * n) == cost - 1:
                came.append((cost - 1, s + (turned - f) * n, a))
        behind = neighbours[6 * i + (f + 3) % 6]  # forward from there, same layer
        w = enter[6 * behind + f] if behind >= 0 else 0
        if w and dist.get(row * n + behind) == cost - w:
            came.append((cost - w, row * n + behind, 0))
        ahead = neighbours[6 * i + f]  # backward from there, from either layer
        w = enter[6 * ahead + (f + 3) % 6] if row >= 6 and ahead >= 0 else 0
        for from_row in (f, 6 + f) if w else ():
            if dist.get(from_row * n + ahead) == cost - w:
                came.append((cost - w, from_row * n + ahead, 1))
        return min(came)[1:]

    def _unwind(self, s: int) -> list[Step]:
        """Steps from the start to state ``s``, following predecessors."""
        steps: list[Step] = []
        while (came := self._before(s)) is not None:
            h, facing = self._state(s)
            before, a = came
            if self._layered:
                steps.append(Step(_ACTIONS[a], h, facing, self._dist[s]))
            else:
                steps.append(Step(MOVE, h, a + 1, self._dist[s]))
            s = before
        steps.reverse()
        return steps

    def _finish(
        self, steps: list[Step], facing: int, cost: int, exit_to: SheetPosition | None
    ) -> Route:
        path = [self.start]
        for st in steps:
            if st.hex != path[-1]:
                path.append(st.hex)
        return Route(
            start=self.start,
            hex=path[-1],
            facing=facing,
            mp_spent=cost,
            mode=_mode(cost, self.mover),
            path=tuple(path),
            steps=tuple(steps),
            exit_to=exit_to,
        )

    def _build(self, s: int, facing: int | None) -> Route:
        steps = self._unwind(s)
        if self._layered:
            final = self._state(s)[1]
        else:
            # Infantry and figures face where they last stepped, or any way asked for free.
            final = facing if facing is not None else (steps[-1].facing if steps else self.facing)
        return self._finish(steps, final, self._dist[s], None)

    def _build_exit(self, h: Hex, f: int, facing: int | None) -> Route:
        cost, from_state, a = self._exits[(h, f)]
        steps = self._unwind(from_state)
        if self._layered:
            steps.append(Step(_ACTIONS[a], h, f, cost))
            final = f
        else:
            steps.append(Step(MOVE, h, f, cost))
            final = facing if facing is not None else f
        return self._finish(steps, final, cost, self.area.position_of(h))


def _as_hex(h: object, what: str) -> Hex:
    if type(h) is Hex and type(h.q) is int and type(h.r) is int:
        return h  # already what the checks below make of it
    try:
        q, r = h  # type: ignore[misc]
        if not (_whole(q) and _whole(r)):
            raise TypeError
    except (TypeError, ValueError):
        raise MovementError(f"{what} must be a hex (q, r), not {h!r}") from None
    return Hex(int(q), int(r))


def _check_mover(mover: object) -> None:
    if not isinstance(mover, Mover):
        raise MovementError(f"mover must be a Mover, not {type(mover).__name__}")


def _indices(area: PlayArea, hexes: Iterable[Hex] | None, what: str) -> set[int]:
    if hexes is None:
        return set()
    out: set[int] = set()
    index_of = area.index_of
    for h in hexes:
        idx = index_of(h if type(h) is Hex else _as_hex(h, what))
        if idx >= 0:
            out.add(idx)
    return out


def reachable(
    area: PlayArea,
    start: Hex,
    facing: int,
    mover: Mover,
    mp: int | None = None,
    enemy_hexes: Iterable[Hex] | None = None,
    friendly_hexes: Iterable[Hex] | None = None,
    exits: bool = False,
) -> Reach:
    """MOV-1/MOV-2/MOV-3/MAP-6: every hex ``mover`` can end its move in, with its best route.

    ``mp`` is the MP (hexes, for figures) to spend; None: the mover's whole
    allowance (running MP when it may run). Routes within walking MP are
    "walked", beyond it "ran". Enemy hexes are never entered; friendly hexes
    are passed through but not ended in (pass the hexes full under the
    scenario's stacking limit). With ``exits`` (mobile maps, MAP-6) the hexes
    just off the play area beyond a sheet edge are reachable for 1 MP, the
    move ending there, each route naming the free sheet position it enters.
    """
    _check_mover(mover)
    start = _as_hex(start, "start")
    facing = _check_facing(facing)
    if mp is None:
        budget = mover.run_mp
    elif not _whole(mp) or mp < 0:
        raise MovementError(f"mp must be a whole number 0 or more, or None, not {mp!r}")
    else:
        budget = int(mp)
    if area.index_of(start) < 0:
        raise MovementError(
            f"{mover.name} starts in {area.label(start)}: a move starts in the play area"
        )
    enemy = _indices(area, enemy_hexes, "an enemy hex")
    friendly = _indices(area, friendly_hexes, "a friendly hex")
    # The same question is often asked twice in a row (the legal moves of a unit,
    # then the move chosen among them): the answer is kept until the area changes.
    key = (start, facing, mover, budget, frozenset(enemy), frozenset(friendly), exits)
    # Kept on the area itself, not in a table keyed by it: every answer holds its
    # area, so a module-level table would keep each game's areas alive for good.
    kept: _Kept | None = getattr(area, "_reached", None)
    if kept is None or kept.revision != area.revision:
        # The searches of the area's last revision, or for a new area (the next game,
        # a copy) those of the area searched over last, may be carried over.
        if kept is not None:
            carried = kept.to_carry()
        elif _LATEST:
            tables, searches, before = _LATEST
            states = sum(len(searched[0]) for searched in searches.values())
            carried = _carried_groups([(tables, searches, states), *before])
        else:
            carried = []
        kept = _Kept(area.revision, _tables(area, mover.movement_class), carried=carried)
        area._reached = kept  # type: ignore[attr-defined]
        # Not the answers: they hold the area, which would be kept alive.
        _LATEST[:] = kept.tables, kept.searches, kept.carried
    found = kept.reaches.get(key)
    if found is None:
        found = _search(area, start, facing, mover, budget, enemy, friendly, exits, kept)
        if len(kept.reaches) >= _KEPT_ANSWERS:  # a new key each time a unit moves
            kept.reaches.clear()
        kept.reaches[key] = found
    return found


@dataclass
class _Kept:
    """The searches kept for one revision of a play area: each answer asked
    (``reachable``'s question), and each search, which serves every answer whose
    unit stands and faces the same way with the same MP, whatever its friends and
    the enemies beyond its MP (``_search``).

    ``carried``: the searches of earlier revisions of the area, newest first, each
    group with the tables its exits were worked out on. A sheet laid (MAP-6) far
    from a unit changes none of the states its search reaches, so such a search
    is carried over the new sheet (``carry``) rather than made again."""

    revision: int
    tables: _Tables  # the tables of this revision
    reaches: dict[tuple, Reach] = field(default_factory=dict)
    searches: dict[tuple, _Searched] = field(default_factory=dict)
    states: int = 0  # the states the searches hold
    carried: list[tuple[_Tables, dict[tuple, _Searched], int]] = field(default_factory=list)
    # Per carried group, once asked (``_changes_since``): where the hexes differ now
    # from its area's, and the hexes of both whose exits differ.
    _changes: dict[int, _Changes] = field(default_factory=dict)

    def keep(self, key: tuple, searched: _Searched) -> None:
        if self.states + len(searched[0]) > _REACHED_STATES:
            self.reaches.clear()
            self.searches.clear()
            self.states = 0
        self.searches[key] = searched
        self.states += len(searched[0])

    def to_carry(self) -> list[tuple[_Tables, dict[tuple, _Searched], int]]:
        """The searches the next revision may carry over: this one's first, then
        those it carried (``_carried_groups``)."""
        return _carried_groups([(self.tables, self.searches, self.states), *self.carried])

    def carry(
        self,
        key: tuple,
        area: PlayArea,
        t: _Tables,
        i0: int,
        cap: int,
        walk: int,
        layered: bool,
        exits: bool,
    ) -> _Searched | None:
        """The search of ``key`` made on an earlier revision of the area, when it
        reaches what a search made now would: None when there is none, or when a hex
        that is not the same hex with the same ground at the same place in the area
        arrays (a hex laid since, or changed, or gone in the next game) lies within
        its MP + 1 of the start.

        Every step costs 1 MP or more and enters an area hex, so a hex farther than
        the MP from the start is entered by no move within it, and one more hex apart
        no hex reached is next to it (the states keep their numbers over the hexes
        there were). The exits (MAP-6) are worked out again from the states when a
        hex reached has another exit now (a sheet position no longer free)."""
        for g, (tables, searches, _) in enumerate(self.carried):
            searched = searches.get(key)
            if searched is None:
                continue
            if g not in self._changes:
                self._changes[g] = _changes_since(area, tables, t)
            changed = self._changes[g]
            if not _far_from(changed.q, changed.r, t.q[i0], t.r[i0], cap + 1):
                continue  # an earlier search, over fewer hexes, may still serve
            dist, best, costs, found, numbered = searched
            if exits and any(i in best for i in changed.exits):
                found = _search_exits(t, best, dist, cap, walk, layered, numbered)
            return dist, best, costs, found, numbered
        return None


def _carried_groups(
    groups: list[tuple[_Tables, dict[tuple, _Searched], int]],
) -> list[tuple[_Tables, dict[tuple, _Searched], int]]:
    """The groups of searches (newest first) that ``_REACHED_STATES`` bounds, each
    with its states (a search carried before counts in each group that holds it)."""
    held = []
    states = 0
    for group in groups:
        states += group[2]
        if states > _REACHED_STATES and held:
            break
        if group[1]:
            held.append(group)
    return held


class _Changes(NamedTuple):
    """What differs between two areas' hexes (``_changes_since``)."""

    q: np.ndarray  # the hexes that are not the same hex with the same ground at the
    r: np.ndarray  # same place in the arrays of both areas, where they lie in either
    exits: list[int]  # the hexes the same in both whose exits differ


def _changes_since(area: PlayArea, before: _Tables, t: _Tables) -> _Changes:
    """Where ``area`` (``t``: its tables now) differs from the area ``before`` was
    built on: every hex that is not the same hex with the same ground at the same
    place in the arrays (MAP-6: ``PlayArea.add_sheet`` appends; a building
    demolished changes its hex; the next game on the same map starts with the same
    sheets and may lay others), at its place in either area; and the hexes the same
    in both whose exits ``t`` works out otherwise (a sheet position no longer free)."""
    same = min(before.size, t.size)
    differs = np.zeros(same, dtype=bool)
    for name, old in zip(_TABLE_ARRAYS, before.arrays, strict=True):
        now = getattr(area, name)
        if now is not old and now[:same].tobytes() != old[:same].tobytes():
            differs |= now[:same] != old[:same]
    k = np.flatnonzero(differs)
    then_q, then_r = before.arrays[0], before.arrays[1]
    q = np.concatenate([area.q[k], then_q[k], area.q[same:], then_q[same:]])
    r = np.concatenate([area.r[k], then_r[k], area.r[same:], then_r[same:]])
    exits = (before.exit_ok[:same] != t.exit_ok[:same]).any(axis=1) & ~differs
    return _Changes(q.astype(np.int64), r.astype(np.int64), np.flatnonzero(exits).tolist())


def _far_from(q: np.ndarray, r: np.ndarray, q0: int, r0: int, limit: int) -> bool:
    """Every hex ``(q, r)`` lies farther than ``limit`` from ``(q0, r0)``."""
    if not q.size:
        return True
    dq = q - q0
    dr = r - r0
    far = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
    return int(far.min()) > limit


# The searches made last, on whichever area: a new area (the next game on the same
# map, a copy of an area) may carry them over (``_Kept.carry`` checks its hexes).
_LATEST: list[Any] = []  # [its tables, its searches, the groups it carried]
# Search states kept per play area: a search holds the states within its MP (about
# 1,000 for a mech running 12 MP over open ground), so some hundred searches.
_REACHED_STATES = 100_000
# Answers kept per play area: each shares its search's states, but a new one is
# made whenever a friend or a near enemy has moved, so they are bounded apart.
_KEPT_ANSWERS = 4_096
# What a search finds: the MP of every state reached, each hex's cheapest state,
# the hexes reached with their MP, cheapest first, the exits (``_search_exits``) and
# the hexes in play the states are numbered over.
_Searched = tuple[
    dict[int, int],
    dict[int, int],
    dict[int, int],
    dict[tuple[Hex, int], tuple[int, int, int]],
    int,
]


def _search(
    area: PlayArea,
    start: Hex,
    facing: int,
    mover: Mover,
    budget: int | None,
    enemy: set[int],
    friendly: set[int],
    exits: bool,
    kept: _Kept | None = None,
) -> Reach:
    """Dijkstra over the states within the MP (``Reach``), ``budget`` None: no limit;
    ``kept``: the searches of the area's revision, to look in and add to.

    Costs are small whole numbers, so the states waiting to be expanded are kept
    by cost in a ring of buckets (a step costs at most ``_LONGEST_STEP``). The
    search finds the MP of every state in order of cost; no route is kept while it
    runs. A route asked for is followed back afterwards (``Reach._before``) by the
    tie rule: the cheapest state before, among equals the lowest-numbered, then
    action order (forward, backward, turn right, turn left; directions 1..6 for
    units that turn freely). So the same question always gets the same routes
    (docs/movement.md, "How the search works, and ties"). A step beyond the budget, or a move with a
    backward step beyond walking MP, is never taken: no state reached that way
    is a place to end or leads anywhere cheaper.
    """
    t = _tables(area, mover.movement_class)
    cap = _NO_LIMIT if budget is None else budget
    walk = min(mover.walk_mp, cap)
    i0 = area.index_of(start)
    # Every step costs 1 MP or more, so enemy hexes farther than the MP block nothing.
    q, r = t.q, t.r
    blocked = frozenset(
        j
        for j in enemy
        if j != i0
        and abs(q[j] - q[i0]) + abs(r[j] - r[i0]) + abs(q[j] + r[j] - q[i0] - r[i0]) <= 2 * cap
    )
    key = (i0, facing, mover.movement_class, cap, walk, blocked, exits)
    layered = mover.movement_class in FACING_CLASSES
    searched = None
    if kept is not None:
        searched = kept.searches.get(key)
        if searched is None and kept.carried:
            searched = kept.carry(key, area, t, i0, cap, walk, layered, exits)
            if searched is not None:
                kept.keep(key, searched)
    if searched is None:
        neighbours = t.flat_neighbours()
        enter = t.flat_enter(mover.movement_class)
        if blocked:  # no step enters an enemy hex
            around = t.neighbours[sorted(blocked)]  # (K, 6)
            towards = np.broadcast_to(np.array(_OPPOSITE), around.shape)
            closed = t.enter[mover.movement_class].copy()
            closed[around[around >= 0], towards[around >= 0]] = 0
            enter = memoryview(closed.ravel())
        if layered:
            dist, best, costs = _facing_search(neighbours, enter, t.size, i0, facing, cap, walk)
        else:
            dist, costs = _free_search(neighbours, enter, i0, cap)
            best = {i: i for i in costs}
        found = _search_exits(t, best, dist, cap, walk, layered, t.size) if exits else {}
        searched = (dist, best, costs, found, t.size)
        if kept is not None:
            kept.keep(key, searched)
    return Reach(area, start, facing, mover, cap, t, *searched, friendly)


def _facing_search(
    neighbours: memoryview,
    enter: memoryview,
    n: int,
    i0: int,
    facing: int,
    cap: int,
    walk: int,
) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """Dijkstra by cost levels over the states of a unit that pays for facing (MOV-1).

    The states waiting at a cost are kept by hex and layer (key ``i``, or ``n + i``
    after a backward step), their facings as bits, so that turning in a hex is one
    step for all its facings. Answers the MP of every state reached within the
    limits, each hex's cheapest state (ties: no backward step first, then facing
    1..6) and the hexes reached with their MP, cheapest first (ties in area order).

    A state after a backward step that costs no less than the same hex and facing
    without one is left out: a move with a backward step is held to walking MP, so
    everything it leads to the other leads to as cheaply, and is preferred on ties
    (the lower state number), so no answer changes."""
    dist: dict[int, int] = {}
    best: dict[int, int] = {}
    costs: dict[int, int] = {}
    # key -> the facings whose MP is known: a list of the area's size, kept between
    # searches and cleared where this one wrote (making and freeing it anew would
    # cost a sizeable part of a short search).
    done = _DONE_LISTS.pop() if _DONE_LISTS else []
    if len(done) < 2 * n:
        done += [0] * (2 * n - len(done))
    ring: list[dict[int, int]] = [{} for _ in range(_RING)]
    ring_mask = _RING - 1
    ring[0][i0] = 1 << (facing - 1)
    # The loops below run for every state: the tables they read are locals, what
    # does not change within a cost is worked out once per cost, and each layer has
    # its own loop (after a backward step every move keeps within walking MP).
    steps_in = _FACING_STEPS
    one_turn = _ONE_TURN
    back_rows = 6 * n  # the first state after a backward step
    c = -1
    while True:
        c += 1
        waiting = ring[c & ring_mask]
        if not waiting:
            if any(ring):
                continue
            break
        ring[c & ring_mask] = {}
        # The bucket of each step cost from here (a step costs less than the ring).
        later_by = ring[c & ring_mask :] + ring[: c & ring_mask]
        turns = later_by[1]  # a hexside's turn costs 1
        fresh: list[int] = []
        ahead = cap - c  # MP left for a move without a backward step
        behind = walk - c  # MP left for a move with one
        for key, facings in waiting.items():
            was = done[key]
            if key >= n:  # after a backward step
                i = key - n
                other = done[i]
                new = facings & ~(was | other)
                if not new:
                    continue
                done[key] = was | new
                first = back_rows + i  # the state of facing 1 (f = 0)
                listed = steps_in[new]
                if not (was or other):  # the hex reached first
                    best[i] = first + listed[0][0] * n
                    fresh.append(i)
                if behind <= 0:  # no MP left for a turn or a step
                    for f, _, _ in listed:
                        dist[first + f * n] = c
                    continue
                turned = one_turn[new] & ~(was | new)
                if turned:
                    if key in turns:
                        turns[key] |= turned
                    else:
                        turns[key] = turned
                k = 6 * i
                for f, bit, o in listed:
                    dist[first + f * n] = c
                    # Forward: the step the way the unit faces, in this layer.
                    kf = k + f
                    w = enter[kf]
                    if w and w <= behind:
                        to = n + neighbours[kf]
                        if not done[to] & bit:
                            later = later_by[w]
                            if to in later:
                                later[to] |= bit
                            else:
                                later[to] = bit
                    # Backward: the step the other way, in this layer too.
                    kf = k + o
                    w = enter[kf]
                    if w and w <= behind:
                        j = neighbours[kf]
                        to = n + j
                        if not (done[to] | done[j]) & bit:
                            later = later_by[w]
                            if to in later:
                                later[to] |= bit
                            else:
                                later[to] = bit
                continue
            new = facings & ~was  # key is the hex: no backward step yet
            if not new:
                continue
            done[key] = was | new
            listed = steps_in[new]
            if not was:
                other = done[n + key]
                if not other:  # the hex reached first
                    best[key] = key + listed[0][0] * n
                    fresh.append(key)
                elif dist[best[key]] == c:
                    # Reached after a backward step for the same MP: this is the
                    # same MP without one.
                    best[key] = key + listed[0][0] * n
            if ahead <= 0:  # no MP left for a turn or a step
                for f, _, _ in listed:
                    dist[key + f * n] = c
                continue
            turned = one_turn[new] & ~(was | new)
            if turned:
                if key in turns:
                    turns[key] |= turned
                else:
                    turns[key] = turned
            k = 6 * key
            for f, bit, o in listed:
                dist[key + f * n] = c
                # Forward: the step the way the unit faces, in this layer.
                kf = k + f
                w = enter[kf]
                if w and w <= ahead:
                    to = neighbours[kf]
                    if not done[to] & bit:
                        later = later_by[w]
                        if to in later:
                            later[to] |= bit
                        else:
                            later[to] = bit
                # Backward: the step the other way, into the backward layer.
                if behind > 0:
                    kf = k + o
                    w = enter[kf]
                    if w and w <= behind:
                        j = neighbours[kf]
                        to = n + j
                        if not (done[to] | done[j]) & bit:
                            later = later_by[w]
                            if to in later:
                                later[to] |= bit
                            else:
                                later[to] = bit
        fresh.sort()
        costs.update(dict.fromkeys(fresh, c))
    for i in best:  # every key written is a hex reached, in either layer
        done[i] = done[n + i] = 0
    _DONE_LISTS.append(done)
    return dist, best, costs


# The facings known per search key (``_facing_search``), all 0, ready for the next
# search: a list is taken out while a search runs and put back cleared.
_DONE_LISTS: list[list[int]] = []


def _free_search(
    neighbours: memoryview, enter: memoryview, i0: int, cap: int
) -> tuple[dict[int, int], dict[int, int]]:
    """Dijkstra by cost levels over the hexes, for a unit that turns freely (MOV-1,
    MOV-2): the MP of every hex reached within ``cap``, and the same cheapest first
    (ties in area order)."""
    dist: dict[int, int] = {}
    costs: dict[int, int] = {}
    ring: list[list[int]] = [[] for _ in range(_RING)]
    ring[0].append(i0)
    c = -1
    top = 0
    while c < top:
        c += 1
        waiting = ring[c % _RING]
        if not waiting:
            continue
        ring[c % _RING] = []
        fresh: list[int] = []
        for i in waiting:
            if i in dist:
                continue  # reached for less, or listed twice
            dist[i] = c
            fresh.append(i)
            k = 6 * i
            for d in range(6):
                w = enter[k + d]
                if w and c + w <= cap:
                    j = neighbours[k + d]
                    if j not in dist:
                        ring[(c + w) % _RING].append(j)
                        if c + w > top:
                            top = c + w
        fresh.sort()
        costs.update(dict.fromkeys(fresh, c))
    return dist, costs


def _search_exits(
    t: _Tables,
    best: dict[int, int],
    dist: dict[int, int],
    cap: int,
    walk: int,
    layered: bool,
    n: int,
) -> dict[tuple[Hex, int], tuple[int, int, int]]:
    """MAP-6: the exits from the states reached (numbered over ``n`` hexes), (off-area
    hex, facing) -> (MP, state left from, action). Among exits of equal cost into the
    same hex and facing the first listed wins: facing units' by (backward flag,
    facing, forward or backward, hex), the others' by (direction, hex); a move with
    a backward step keeps within walking MP."""
    exit_ok = t.flat_exits()
    listed: list[tuple[tuple[int, ...], int, int, int, int, int]] = []
    for i in t.exit_hexes().intersection(best):
        k = 6 * i
        for d in range(6):
            if not exit_ok[k + d]:
                continue
            if not layered:
                spent = dist[i] + EXIT_COST
                if spent <= cap:
                    listed.append(((d, i), i, d, d + 1, spent, d))
                continue
            # Forward facing d, or backward facing the other way; either from a
            # state with or without a backward step before.
            for f, step in ((d, 0), ((d + 3) % 6, 1)):
                for back in (0, 1):
                    s = (6 * back + f) * n + i
                    mp = dist.get(s)
                    if mp is not None and mp + EXIT_COST <= (walk if back or step else cap):
                        listed.append(((back, f, step, i), s, d, f + 1, mp + EXIT_COST, step))
    found: dict[tuple[Hex, int], tuple[int, int, int]] = {}
    beyond = t.exit_hex
    for _, s, d, facing, spent, action in sorted(listed):
        key = (beyond(s % n, d), facing)
        if key not in found or spent < found[key][0]:
            found[key] = (spent, s, action)
    return found


# --- one destination ---------------------------------------------------------------------


def route_to(
    area: PlayArea,
    start: Hex,
    facing: int,
    mover: Mover,
    dest: Hex,
    dest_facing: int | None = None,
    mp: int | None = None,
    enemy_hexes: Iterable[Hex] | None = None,
    friendly_hexes: Iterable[Hex] | None = None,
    exits: bool = False,
) -> Route | None:
    """The best route to ``dest`` (ending with ``dest_facing`` when given) within ``mp``
    (default: the whole allowance); None when there is none (``validate_move`` says why)."""
    reach = reachable(area, start, facing, mover, mp, enemy_hexes, friendly_hexes, exits)
    return reach.route(_as_hex(dest, "dest"), dest_facing)


def path_cost(
    area: PlayArea,
    start: Hex,
    facing: int,
    mover: Mover,
    dest: Hex,
    dest_facing: int | None = None,
    mp: int | None = None,
    enemy_hexes: Iterable[Hex] | None = None,
    friendly_hexes: Iterable[Hex] | None = None,
    exits: bool = False,
) -> int | None:
    """MP of the best route to ``dest`` (``route_to``), None when out of reach."""
    route = route_to(
        area, start, facing, mover, dest, dest_facing, mp, enemy_hexes, friendly_hexes, exits
    )
    return None if route is None else route.mp_spent


@dataclass(frozen=True)
class MoveCheck:
    """The answer of ``validate_move``: truthy when legal, with the route or the reason."""

    legal: bool
    reason: str
    route: Route | None = None

    def __bool__(self) -> bool:
        return self.legal


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _name(area: PlayArea, h: Hex) -> str:
    if area.sheet_count == 1 and area.contains(h):
        return area.name_of(h)[1]
    return area.label(h)


def validate_move(
    area: PlayArea,
    start: Hex,
    facing: int,
    mover: Mover,
    dest: Hex,
    dest_facing: int | None = None,
    mp: int | None = None,
    enemy_hexes: Iterable[Hex] | None = None,
    friendly_hexes: Iterable[Hex] | None = None,
    exits: bool = False,
) -> MoveCheck:
    """MOV-1/MOV-2/MAP-6: is moving to ``dest`` (facing ``dest_facing``) legal this phase?

    Legal: ``MoveCheck(True, "...", route)``. Illegal: the reason in players'
    words, e.g. "The Hunchback cannot enter 0704: heavy woods are closed to
    vehicles" or "0912 is 9 MP away; the Hunchback has 5 walking / 8 running MP".
    """
    enemy_list = list(enemy_hexes or ())
    friendly_list = list(friendly_hexes or ())
    reach = reachable(area, start, facing, mover, mp, enemy_list, friendly_list, exits)
    dest = _as_hex(dest, "dest")
    if dest_facing is not None:
        dest_facing = _check_facing(dest_facing, "dest_facing")
    route = reach.route(dest, dest_facing)
    where = _name(area, dest)
    who = _capital(mover.name)
    if route is not None:
        return MoveCheck(True, _legal_text(who, where, route, mover), route)
    start = reach.start
    inside = area.contains(dest)
    if not inside:
        if not exits:
            return MoveCheck(
                False, f"{_capital(where)}: mobile maps are off, so units stay in the play area"
            )
        if not _is_exit_hex(area, dest, mover):
            return MoveCheck(
                False,
                f"{_capital(where)}: a unit leaves the play area by stepping across a sheet "
                "edge into the free sheet position beyond it (MAP-6)",
            )
    enemy = _indices(area, enemy_list, "an enemy hex")
    friendly = _indices(area, friendly_list, "a friendly hex")
    di = area.index_of(dest)
    if inside and dest != start and di in enemy:
        return MoveCheck(False, f"{who} cannot end in {where}: an enemy unit is there")
    if inside and dest != start and di in friendly:
        return MoveCheck(
            False, f"{who} cannot end in {where}: a friendly unit is already there (one per hex)"
        )
    if reach.budget == 0 and mp is None:
        return MoveCheck(False, f"{who} cannot move: it has 0 MP")
    if inside:
        closure = _closed_all_round(area, dest, mover)
        if closure is not None:
            return MoveCheck(False, f"{who} cannot enter {where}{closure}")
    free = _search(area, start, reach.facing, mover, None, enemy, set(), exits)
    needed = free.route(dest, dest_facing)
    target = where if dest_facing is None else f"{where} facing {DIRECTION_NAMES[dest_facing]}"
    if needed is not None:
        if mover.movement_class == FIGURE:
            return MoveCheck(
                False,
                f"{_capital(target)} is {needed.mp_spent} hexes' move away (woods, rough and "
                f"water count double); {mover.name} may move {mover.allowance_text()}",
            )
        has = mover.allowance_text() if mp is None else f"{reach.budget} MP to spend"
        note = " (a move with a backward step stays within walking MP)" if needed.backward else ""
        return MoveCheck(
            False, f"{_capital(target)} is {needed.mp_spent} MP away; {mover.name} has {has}{note}"
        )
    unblocked = _search(area, start, reach.facing, mover, None, set(), set(), exits)
    if unblocked.route(dest, dest_facing) is not None:
        return MoveCheck(False, f"{who} cannot reach {where}: enemy units block every way there")
    return MoveCheck(
        False,
        f"{who} cannot reach {where}: no way there is open to "
        f"{CLASS_PLURAL[mover.movement_class]} (closed terrain or cliffs all round)",
    )


def _legal_text(who: str, where: str, route: Route, mover: Mover) -> str:
    spent = (
        f"{route.mp_spent} hexes' move"
        if mover.movement_class == FIGURE
        else f"{route.mp_spent} MP, {route.mode}"
    )
    if route.mode == STOOD:
        return f"{who} stays in {where}"
    if route.hexes_moved == 0:
        return f"{who} turns to face {DIRECTION_NAMES[route.facing]} ({spent})"
    if route.exit_to is not None:
        return f"{who} leaves the play area into sheet position {route.exit_to} ({spent})"
    return f"{who} moves to {where} ({spent})"


def _is_exit_hex(area: PlayArea, h: Hex, mover: Mover) -> bool:
    """MAP-6: ``h`` is off the area, one step across a sheet edge from an area hex."""
    t = _tables(area, mover.movement_class)
    for d in DIRECTIONS:
        i = area.index_of(neighbor(h, d))
        # The step from that hex into h goes the opposite way.
        if i >= 0 and t.exit_ok[i, (d + 2) % 6]:
            return True
    return False


def _closed_all_round(area: PlayArea, h: Hex, mover: Mover) -> str | None:
    """Why no neighbour of ``h`` lets ``mover`` in (terrain first, then levels); None if
    some neighbour does."""
    ib = area.index_of(h)
    rules = []
    for d in DIRECTIONS:
        ia = area.index_of(neighbor(h, d))
        if ia >= 0:
            rules.append((_step_rule(area, ia, ib, mover.movement_class), ia))
    if not rules or any(rule.cost for rule, _ in rules):
        return None
    for rule, _ in rules:
        if not rule.closed_by_level:
            return f": {rule.text}"
    level = int(area.level[ib])
    rule, _ = min(rules, key=lambda ri: abs(level - int(area.level[ri[1]])))
    return f" from any side: {rule.text}"
