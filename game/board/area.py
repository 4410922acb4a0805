"""The play area: map sheets joined on one global hex lattice (MAP-2, MAP-3, MAP-6).

A sheet stands at a sheet-grid position ``(i, j)``: ``i`` grows east, ``j``
grows south, negative values are allowed and positions are never re-indexed
when the area grows west or north. MAP-2 fixes where its hexes land: local
0-based ``(c, r)`` of the sheet at ``(i, j)`` is the global odd-q offset hex
``(15*i + c, 17*j + r + (c & 1) * (i & 1))``. The shift for odd ``i`` keeps
every sheet's own odd columns half a hex low (15 is odd, so without it the
global parity would flip), which makes that sheet's outer edge saw-toothed by
half a hex and every join seamless. The mapping covers the whole lattice: every
hex belongs to exactly one sheet position, in the area or not (``locate``).

Sides (MAP-3). The half-line is fixed by the starting layout: it runs across
the middle of the starting sheets, parallel to the home edges, and extends past
the area in both directions. It does not move when mobile maps add sheets;
otherwise hexes would change sides during play. It is kept as ``half_line``, a
sheet-grid coordinate along the axis between the home edges (``j`` for
north-south, ``i`` for west-east) that is a whole or half number: a sheet at
``j`` spans ``[j, j + 1)`` and its centre is ``j + 0.5``. A sheet belongs to the
side its centre lies on; a sheet whose centre lies on the line belongs to
neither. For hexes the line is drawn along sheet rows (columns for
west-east): with ``half_line`` a whole number it runs between two rows of
sheets; with a half number it runs along the middle row of hexes (row ``09``,
or column ``08`` for west-east) of the sheets whose centre it crosses, and the
hexes of that row belong to neither side. So every hex of a side's sheet is on
that side, and a sheet on the line splits into its two halves.

Whole-area terrain lives in numpy arrays aligned with ``q`` and ``r`` (one
entry per area hex, sheet by sheet in the order the sheets were placed, each
sheet row by row like its own arrays), and a dense index grid over the
axial bounding box of the area (q columns and r rows, one cell of margin) maps
a hex to its index in one lookup. ``add_sheet`` appends the new sheet's hexes,
so the hexes in play keep their indices when a sheet is laid (MAP-6); a
demolished building changes ground, not indices.
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from game.board.sheet import (
    SHEET_COLS,
    SHEET_ROWS,
    Sheet,
    available_sheets,
    format_xxyy,
    parse_xxyy,
)
from game.board.terrain import (
    BUILDING,
    HEAVY_WOODS,
    LIGHT_WOODS,
    ROUGH,
    WOODS_COUNT,
    WOODS_HEIGHT,
)
from game.hexmath import Hex, axial_to_offsets, from_offset, to_offset
from game.limits import (
    AREA_SHEETS_LIMIT,
    AREA_SPAN_LIMIT,
    SHEET_POSITION_LIMIT,
    area_refusal,
    position_refusal,
)

SheetPosition = tuple[int, int]

EDGES = ("north", "south", "west", "east")
# MAP-3: the two home edges are opposite; the side names are the edge names.
HOME_EDGES: dict[str, tuple[str, str]] = {
    "north-south": ("north", "south"),
    "west-east": ("west", "east"),
}
# ART-1: the edges that are nobody's home edge, where either side may place
# artillery on its own side of the half-line.
FLANKS: dict[str, tuple[str, str]] = {
    "north-south": ("west", "east"),
    "west-east": ("north", "south"),
}
# Sheet-grid step from a sheet to its neighbour beyond each edge.
EDGE_STEPS: dict[str, SheetPosition] = {
    "north": (0, -1),
    "south": (0, 1),
    "west": (-1, 0),
    "east": (1, 0),
}
SHEET_HEXES = SHEET_COLS * SHEET_ROWS

# ART-24: the reference hex of a sheet.
_HEX_0909 = parse_xxyy("0909")
# Hex 0909 of each sheet position asked about (pure geometry, as ``locate``).
_HEXES_0909: dict[SheetPosition, Hex] = {}


class AreaError(ValueError):
    """A play area cannot be built or changed as asked; the message says why."""


# --- the MAP-2 mapping, for any sheet position -----------------------------------


def global_offset(pos: SheetPosition, col: int, row: int) -> tuple[int, int]:
    """MAP-2: local 0-based (col, row) of the sheet at ``pos`` -> global odd-q offset."""
    i, j = pos
    return SHEET_COLS * i + col, SHEET_ROWS * j + row + (col & 1) * (i & 1)


def sheet_hex(pos: SheetPosition, col: int, row: int) -> Hex:
    """MAP-2: the global hex of local 0-based (col, row) on the sheet at ``pos``.

    Pure geometry: ``pos`` need not hold a sheet (off-board batteries stand on
    sheet positions outside the play area).
    """
    if not (0 <= col < SHEET_COLS and 0 <= row < SHEET_ROWS):
        raise ValueError(
            f"local hex ({col}, {row}) is outside a sheet "
            f"(columns 0-{SHEET_COLS - 1}, rows 0-{SHEET_ROWS - 1}, 0-based)"
        )
    return from_offset(*global_offset(pos, col, row))


# ``locate`` is pure geometry, asked of the same few thousand hexes many times a
# decision (the sheet position of every aim, every label): each is worked out once.
_LOCATED: dict[Hex, tuple[SheetPosition, int, int]] = {}
_LOCATED_KEPT = 1 << 16


def locate(h: Hex) -> tuple[SheetPosition, int, int]:
    """MAP-2: the sheet position whose sheet holds ``h`` and its local 0-based (col, row).

    Defined for every hex of the lattice, in the play area or not.
    """
    if type(h) is Hex:
        held = _LOCATED.get(h)
        if held is not None:
            return held
    h = Hex(int(h[0]), int(h[1]))
    gc, gr = to_offset(h)
    i, c = divmod(gc, SHEET_COLS)
    shifted = gr - (c & 1) * (i & 1)
    j, r = divmod(shifted, SHEET_ROWS)
    if len(_LOCATED) >= _LOCATED_KEPT:
        _LOCATED.clear()
    found = _LOCATED[h] = ((i, j), c, r)
    return found


def locate_positions(q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorized ``locate(h)[0]``: the sheet positions ``(i, j)`` of arrays of hexes."""
    gc, gr = axial_to_offsets(np.asarray(q, dtype=np.int64), np.asarray(r, dtype=np.int64))
    i, c = np.divmod(gc, SHEET_COLS)
    return i, (gr - (c & 1) * (i & 1)) // SHEET_ROWS


def sheet_bounds(positions: Iterable[SheetPosition]) -> tuple[int, int, int, int]:
    """``(i_min, i_max, j_min, j_max)`` of some sheet positions (at least one)."""
    listed = list(positions)
    i_values = [p[0] for p in listed]
    j_values = [p[1] for p in listed]
    return min(i_values), max(i_values), min(j_values), max(j_values)


def middle_line2(bounds: tuple[int, int, int, int], home_edges: str) -> int:
    """MAP-3: twice the sheet-grid coordinate of the half-line across the middle of
    sheet bounds, parallel to the home edges (doubled, so that it is whole)."""
    i_min, i_max, j_min, j_max = bounds
    return j_min + j_max + 1 if home_edges == "north-south" else i_min + i_max + 1


def half_line_side(line2: int, home_edges: str, pos: SheetPosition) -> str | None:
    """MAP-3: the side whose half the centre of the sheet at ``pos`` lies in, the
    half-line standing at ``line2 / 2``; None for a sheet whose centre is on it."""
    first, second = HOME_EDGES[home_edges]
    x = pos[1] if home_edges == "north-south" else pos[0]
    # A sheet at x spans [x, x + 1): its centre, doubled, is 2x + 1.
    centre2 = 2 * x + 1
    if centre2 < line2:
        return first
    if centre2 > line2:
        return second
    return None


def edge_beyond_bounds(
    bounds: tuple[int, int, int, int], home_edges: str, pos: SheetPosition
) -> str | None:
    """ART-27: the edge of sheet bounds ``(i_min, i_max, j_min, j_max)`` beyond which
    ``pos`` lies, or None for a position within their extent.

    The axis on which ``pos`` lies farther out wins; on a diagonal tie the edge
    on the home-edge axis is taken (a battery behind a home edge and beside the
    area attacks across the home edge). Scenario files are checked with it
    before any play area exists.
    """
    i, j = pos
    i_min, i_max, j_min, j_max = bounds
    di = i_min - i if i < i_min else (i - i_max if i > i_max else 0)
    dj = j_min - j if j < j_min else (j - j_max if j > j_max else 0)
    if di == 0 and dj == 0:
        return None
    ns = "north" if j < j_min else "south"
    we = "west" if i < i_min else "east"
    if dj > di:
        return ns
    if di > dj:
        return we
    return ns if home_edges == "north-south" else we


def _check_position(pos: object, what: str = "sheet position") -> SheetPosition:
    if type(pos) is tuple and len(pos) == 2:
        # The common case, asked many times a decision: a pair of ints within the limits.
        i, j = pos
        if type(i) is int and type(j) is int and max(abs(i), abs(j)) <= SHEET_POSITION_LIMIT:
            return (i, j)
    if (
        not isinstance(pos, tuple | list)
        or len(pos) != 2
        or not all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in pos)
    ):
        raise AreaError(f"{what} must be a pair of whole numbers (i, j), not {pos!r}")
    checked = int(pos[0]), int(pos[1])
    too_far = position_refusal(checked)
    if too_far:
        raise AreaError(f"{what}: {too_far}")
    return checked


def _fmt(pos: SheetPosition) -> str:
    return f"({pos[0]},{pos[1]})"


def _connected(positions: Iterable[SheetPosition]) -> bool:
    todo = set(positions)
    if not todo:
        return True
    start = next(iter(todo))
    seen = {start}
    queue = deque([start])
    while queue:
        i, j = queue.popleft()
        for di, dj in EDGE_STEPS.values():
            n = (i + di, j + dj)
            if n in todo and n not in seen:
                seen.add(n)
                queue.append(n)
    return len(seen) == len(todo)


class PlayArea:
    """Sheets at sheet-grid positions on one lattice, with whole-area terrain arrays."""

    def __init__(
        self,
        placed: Iterable[tuple[SheetPosition, Sheet]],
        home_edges: str = "north-south",
        half_line: float | None = None,
        sheets: Mapping[str, Sheet] | None = None,
    ) -> None:
        """Build from ``(position, Sheet)`` pairs in placing order.

        ``half_line`` defaults to the middle of these sheets (MAP-3);
        ``sheets`` is the catalogue used to resolve sheet ids in ``add_sheet``
        (default: the shipped sheets).
        """
        if home_edges not in HOME_EDGES:
            raise AreaError(
                f'home edges "{home_edges}" must be one of {", ".join(sorted(HOME_EDGES))}'
            )
        self.home_edges = home_edges
        self.sides: tuple[str, str] = HOME_EDGES[home_edges]
        self._catalogue = dict(sheets) if sheets is not None else None
        self._sheets: dict[SheetPosition, Sheet] = {}
        for pos, sheet in placed:
            pos = _check_position(pos)
            if pos in self._sheets:
                raise AreaError(f"sheet position {_fmt(pos)} is given twice")
            if not isinstance(sheet, Sheet):
                raise AreaError(f"sheet position {_fmt(pos)}: {sheet!r} is not a Sheet")
            self._sheets[pos] = sheet
        if not self._sheets:
            raise AreaError("a play area needs at least one sheet")
        too_large = area_refusal(list(self._sheets))
        if too_large:
            raise AreaError(too_large)
        if half_line is None:
            self._line2 = middle_line2(self.sheet_bounds(), home_edges)
        else:
            doubled = 2 * float(half_line)
            if not doubled.is_integer():
                raise AreaError(
                    f"half_line {half_line!r} must be a whole or half number "
                    "(a sheet boundary or a sheet centre)"
                )
            self._line2 = int(doubled)
        self._position_sides: dict[SheetPosition, str | None] = {}
        self.revision = 0
        self._rubble: set[Hex] = set()  # buildings destroyed in play (ART-29)
        self._rebuild()

    # --- construction ----------------------------------------------------------

    @classmethod
    def from_layout(
        cls,
        layout: Mapping[SheetPosition, str | Sheet],
        home_edges: str = "north-south",
        sheets: Mapping[str, Sheet] | None = None,
    ) -> PlayArea:
        """MAP-2: the starting area from ``{(i, j): sheet id or Sheet}``.

        Sheet ids are looked up in ``sheets`` (default: ``available_sheets()``).
        The sheets must be joined edge to edge (one connected piece). They are
        placed in row order (north to south, west to east) whatever the
        mapping's order, so the same layout always gives the same arrays.
        """
        if not isinstance(layout, Mapping) or not layout:
            raise AreaError("a layout is a non-empty mapping {(i, j): sheet id or Sheet}")
        checked = {_check_position(pos): value for pos, value in layout.items()}
        if not _connected(checked):
            raise AreaError(
                "the sheets of a layout must be joined edge to edge; these positions "
                f"fall apart: {', '.join(_fmt(p) for p in sorted(checked))}"
            )
        catalogue = dict(sheets) if sheets is not None else None
        order = sorted(checked, key=lambda p: (p[1], p[0]))
        placed = [(pos, _resolve(checked[pos], pos, catalogue)) for pos in order]
        return cls(placed, home_edges=home_edges, sheets=catalogue)

    def add_sheet(self, pos: SheetPosition, sheet: str | Sheet) -> None:
        """MAP-6: attach a sheet at a free position sharing an edge with the area."""
        pos = _check_position(pos)
        if pos in self._sheets:
            raise AreaError(
                f"sheet position {_fmt(pos)} already holds sheet {self._sheets[pos].id!r}"
            )
        if not any((pos[0] + di, pos[1] + dj) in self._sheets for di, dj in EDGE_STEPS.values()):
            free = ", ".join(_fmt(p) for p in self.free_positions())
            raise AreaError(
                f"sheet position {_fmt(pos)} does not touch the play area: a new sheet "
                f"must share an edge with a sheet in play (free positions: {free})"
            )
        too_large = area_refusal([*self._sheets, pos])
        if too_large:
            raise AreaError(f"no sheet can be laid at {_fmt(pos)}: {too_large}")
        self._sheets[pos] = _resolve(sheet, pos, self._catalogue)
        self.revision += 1
        self._rebuild(laid=True)

    def __getstate__(self) -> dict[str, object]:
        # Copies and pickles leave out the movement searches kept for this area
        # (``movement.reachable``): they belong to the area they were made on.
        state = dict(self.__dict__)
        state.pop("_reached", None)
        state["_plain"] = None  # made again when asked
        return state

    def snapshot(self) -> PlayArea:
        """A copy of the area as it is now. Laying a sheet or demolishing a building
        rebuilds the original's arrays rather than writing into them, so the copy
        shares the arrays and stays as it was."""
        twin = copy.copy(self)
        twin._sheets = dict(self._sheets)
        twin._rubble = set(self._rubble)
        return twin

    def grew_from(self, older: PlayArea) -> bool:
        """True when this area is ``older`` with sheets laid since (MAP-6) and
        nothing else changed: every sheet of ``older`` at its place, no building
        demolished since. Its hexes then keep their terrain; there are only more."""
        return (
            len(self._sheets) > len(older._sheets)
            and self._rubble == older._rubble
            and all(self._sheets.get(pos) is sheet for pos, sheet in older._sheets.items())
        )

    def demolish(self, h: Hex) -> bool:
        """A building hex destroyed in play becomes rubble: rough ground at its
        level, no height, no CF (it no longer blocks sight or shields, MAP-5,
        ART-29). False when the hex holds no standing building."""
        h = Hex(int(h[0]), int(h[1]))
        idx = self.index_of(h)
        if idx < 0 or int(self.terrain[idx]) != BUILDING:
            return False
        self._rubble.add(h)
        self.revision += 1
        self._rebuild()
        return True

    @property
    def catalogue(self) -> dict[str, Sheet]:
        """The sheets new sheets are drawn from and picked by id (MAP-7 .. MAP-9), with
        the sheets in play: the catalogue the area was built with (the shipped
        sheets when none was given)."""
        known = self._catalogue if self._catalogue is not None else available_sheets()
        return {**known, **{sheet.id: sheet for sheet in self._sheets.values()}}

    @property
    def rubble(self) -> tuple[Hex, ...]:
        """Building hexes destroyed in play, in a fixed order."""
        return tuple(sorted(self._rubble))

    # --- plain data ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain data for saves: sheets in placing order, home edges, half-line."""
        return {
            "sheets": [
                {"position": [pos[0], pos[1]], "sheet": sheet.id}
                for pos, sheet in self._sheets.items()
            ],
            "home_edges": self.home_edges,
            "half_line": self.half_line,
            "rubble": [[h.q, h.r] for h in self.rubble],
        }

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], sheets: Mapping[str, Sheet] | None = None
    ) -> PlayArea:
        """Rebuild an area saved by ``to_dict`` (sheet ids resolved like ``from_layout``)."""
        if not isinstance(data, Mapping):
            raise AreaError(f"a saved play area is a mapping, not {type(data).__name__}")
        for key in ("sheets", "home_edges", "half_line"):
            if key not in data:
                raise AreaError(f'saved play area: missing key "{key}"')
        entries = data["sheets"]
        if not isinstance(entries, list) or not entries:
            raise AreaError("saved play area: sheets must be a non-empty list")
        catalogue = dict(sheets) if sheets is not None else None
        placed = []
        for n, entry in enumerate(entries):
            if not isinstance(entry, Mapping) or "position" not in entry or "sheet" not in entry:
                raise AreaError(
                    f"saved play area: sheets[{n}] must be {{position: [i, j], sheet: id}}"
                )
            pos = _check_position(entry["position"], f"saved play area: sheets[{n}].position")
            if not isinstance(entry["sheet"], str):
                raise AreaError(f"saved play area: sheets[{n}].sheet must be a sheet id")
            placed.append((pos, _resolve(entry["sheet"], pos, catalogue)))
        half_line = data["half_line"]
        if not isinstance(half_line, int | float) or isinstance(half_line, bool):
            raise AreaError("saved play area: half_line must be a number")
        area = cls(placed, home_edges=data["home_edges"], half_line=half_line, sheets=catalogue)
        rubble = data.get("rubble", [])
        if not isinstance(rubble, list):
            raise AreaError("saved play area: rubble must be a list of [q, r] hexes")
        for n, h in enumerate(rubble):
            if (
                not isinstance(h, list | tuple)
                or len(h) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in h)
                or not area.demolish(Hex(h[0], h[1]))
            ):
                raise AreaError(f"saved play area: rubble[{n}] {h!r} is not a building hex")
        return area

    # --- sheets ------------------------------------------------------------------------

    @property
    def positions(self) -> tuple[SheetPosition, ...]:
        """Sheet positions in placing order."""
        return tuple(self._sheets)

    @property
    def sheet_count(self) -> int:
        return len(self._sheets)

    def has_sheet(self, pos: SheetPosition) -> bool:
        return tuple(pos) in self._sheets

    def may_grow_to(self, pos: SheetPosition) -> bool:
        """MAP-6: a sheet may be laid at ``pos``: it is free, and the area stays within
        the limits (game/limits.py) with it. Edges where the area may not grow are
        no exits, so no unit leaves toward a sheet that could not be laid."""
        i, j = pos
        if (i, j) in self._sheets or len(self._sheets) >= AREA_SHEETS_LIMIT:
            return False
        if position_refusal((i, j)):
            return False
        i_min, i_max, j_min, j_max = self._bounds
        return (
            max(i_max, i) - min(i_min, i) < AREA_SPAN_LIMIT
            and max(j_max, j) - min(j_min, j) < AREA_SPAN_LIMIT
        )

    def sheet_at(self, pos: SheetPosition) -> Sheet:
        """The sheet at a position; AreaError naming the positions in play otherwise."""
        pos = _check_position(pos)
        try:
            return self._sheets[pos]
        except KeyError:
            raise AreaError(
                f"no sheet at position {_fmt(pos)}; sheets are at "
                f"{', '.join(_fmt(p) for p in self._sheets)}"
            ) from None

    def sheet_bounds(self) -> tuple[int, int, int, int]:
        """``(i_min, i_max, j_min, j_max)`` of the sheets in play."""
        return sheet_bounds(self._sheets)

    def free_positions(self, edge: str | None = None) -> list[SheetPosition]:
        """MAP-6: free positions sharing an edge with a sheet in play.

        With ``edge`` ("north", "south", "west", "east"): only those beyond that
        edge of some sheet (the position a unit leaving across that edge enters).
        """
        steps = [EDGE_STEPS[_check_edge(edge)]] if edge is not None else EDGE_STEPS.values()
        out = set()
        for i, j in self._sheets:
            for di, dj in steps:
                n = (i + di, j + dj)
                if n not in self._sheets:
                    out.add(n)
        return sorted(out, key=lambda p: (p[1], p[0]))

    # --- hexes and names ------------------------------------------------------------------

    def __len__(self) -> int:
        return int(self.q.shape[0])

    def hex_at(self, pos: SheetPosition, name: str) -> Hex:
        """MAP-1/MAP-2: the hex named ``"XXYY"`` on the sheet at ``pos`` (which must be in play).

        For sheet positions outside the area use ``sheet_hex`` (pure geometry).
        """
        pos = _check_position(pos)
        if pos not in self._sheets:
            raise AreaError(
                f"hex {name} on sheet {_fmt(pos)}: there is no sheet at {_fmt(pos)} in the "
                f"play area (sheets are at {', '.join(_fmt(p) for p in self._sheets)})"
            )
        col, row = parse_xxyy(name)
        return sheet_hex(pos, col, row)

    def name_of(self, h: Hex) -> tuple[SheetPosition, str]:
        """MAP-2: ``((i, j), "XXYY")`` of a hex of the area; ValueError for other hexes."""
        pos, col, row = locate(Hex(int(h[0]), int(h[1])))
        if pos not in self._sheets:
            raise AreaError(
                f"hex {Hex(*h)} is not in the play area (it would be "
                f"{format_xxyy(col, row)} on sheet position {_fmt(pos)}, which holds no sheet)"
            )
        return pos, format_xxyy(col, row)

    def label(self, h: Hex) -> str:
        """A hex in players' words: ``"0807 on sheet (0,1)"`` (off the area: says so)."""
        pos, col, row = locate(h)
        if pos in self._sheets:
            return f"{format_xxyy(col, row)} on sheet {_fmt(pos)}"
        return f"{format_xxyy(col, row)} of sheet position {_fmt(pos)}, outside the play area"

    def position_of(self, h: Hex) -> SheetPosition:
        """The sheet position whose sheet holds (or would hold) ``h``, in the area or not."""
        return locate(h)[0]

    def hex_0909(self, pos: SheetPosition) -> Hex:
        """ART-24: hex 0909 of the sheet position ``pos``, in the area or not."""
        pos = _check_position(pos)
        held = _HEXES_0909.get(pos)
        if held is None:
            if len(_HEXES_0909) >= _LOCATED_KEPT:
                _HEXES_0909.clear()
            held = _HEXES_0909[pos] = sheet_hex(pos, *_HEX_0909)
        return held

    def contains(self, h: Hex) -> bool:
        return self.index_of(h) >= 0

    def index_of(self, h: Hex) -> int:
        """Index of ``h`` in the area arrays, -1 when it is not in the area."""
        if type(h) is not Hex:
            h = Hex(int(h[0]), int(h[1]))
        # Asked for hexes one by one everywhere: a dict (``_HexLookup``).
        table = self._lookup.index
        if table is None:
            table = self._lookup.build_index()
        return table.get(h, -1)

    def sight_terrain(self) -> tuple[list[int], list[int], list[int]]:
        """Ground level, obstacle top and woods count of every hex (MAP-5) as plain
        lists in array order, for reading hex by hex along a line; made once per
        change of the area."""
        kept = self._plain
        if kept is None:
            kept = self._plain = (
                self.level.tolist(),
                self.obstacle_top.tolist(),
                self.woods.tolist(),
            )
        return kept

    def indices_of(self, q: np.ndarray, r: np.ndarray) -> np.ndarray:
        """Vectorized ``index_of`` over arrays of axial q and r (-1 outside the area)."""
        width, height = self.grid.shape
        q0, r0 = self.grid_origin
        # A hex off the grid is moved onto its margin, which holds -1 all round.
        x = np.minimum(np.maximum(np.asarray(q, dtype=np.intp) - q0, 0), width - 1)
        y = np.minimum(np.maximum(np.asarray(r, dtype=np.intp) - r0, 0), height - 1)
        return np.asarray(self._grid_cells.take(x * height + y))

    def hexes(self) -> list[Hex]:
        """Every hex of the area, in array order."""
        return list(self._hex_tuple())

    def sheet_hexes(self) -> dict[SheetPosition, list[Hex]]:
        """Every hex of the area by sheet position, sheets in placing order, hexes
        in array order (the arrays hold each sheet's hexes together)."""
        every = self._hex_tuple()
        return {
            pos: list(every[k * SHEET_HEXES : (k + 1) * SHEET_HEXES])
            for k, pos in enumerate(self._sheets)
        }

    def _hex_tuple(self) -> tuple[Hex, ...]:
        # Callers ask for every hex many times a turn (``_HexLookup``).
        every = self._lookup.hexes
        return every if every is not None else self._lookup.build_hexes()

    # --- edges ---------------------------------------------------------------------------

    def edge_hexes(self, edge: str) -> list[Hex]:
        """Area hexes on ``edge`` of a sheet with no sheet beyond that edge.

        These are the hexes a unit leaves across to reach ``free_positions(edge)``
        (MAP-6); for a grown area they include the edges of notches.
        """
        edge = _check_edge(edge)
        di, dj = EDGE_STEPS[edge]
        out: list[Hex] = []
        for pos in self._sheets:
            if (pos[0] + di, pos[1] + dj) not in self._sheets:
                out.extend(sheet_hex(pos, c, r) for c, r in _edge_locals(edge))
        return out

    def outer_edge_hexes(self, edge: str) -> list[Hex]:
        """The outermost edge: on each sheet column (north/south) or sheet row
        (west/east), the edge hexes of the sheet farthest that way."""
        edge = _check_edge(edge)
        outer: dict[int, SheetPosition] = {}
        for pos in self._sheets:
            key, depth = (pos[0], pos[1]) if edge in ("north", "south") else (pos[1], pos[0])
            sign = -1 if edge in ("north", "west") else 1
            best = outer.get(key)
            if best is None:
                outer[key] = pos
            else:
                best_depth = best[1] if edge in ("north", "south") else best[0]
                if sign * depth > sign * best_depth:
                    outer[key] = pos
        out: list[Hex] = []
        for key in sorted(outer):
            out.extend(sheet_hex(outer[key], c, r) for c, r in _edge_locals(edge))
        return out

    def edge_centre(self, edge: str) -> Hex:
        """ART-27: the centre hex of an edge of the play area.

        Taken on the outermost edge (``outer_edge_hexes``): the hex whose place
        along the edge (global column for north/south; sheet row and local row
        for west/east) is nearest the middle of the edge's span; a tie goes to
        the western (northern) hex. One sheet: north 0801, south 0817, west 0109,
        east 1509; for a stepped edge of a grown area the middle of its whole
        span, on the sheet that is outermost there.
        """
        hexes = self.outer_edge_hexes(edge)
        along = [_along(h, edge) for h in hexes]
        mid2 = min(along) + max(along)
        best = min(range(len(hexes)), key=lambda k: (abs(2 * along[k] - mid2), along[k]))
        return hexes[best]

    def edge_beyond(self, pos: SheetPosition) -> str:
        """ART-27: the play-area edge beyond which a sheet position outside the area lies.

        Measured against the sheet bounds of the current area: the axis on
        which ``pos`` lies farther out wins; on a diagonal tie the edge on the
        home-edge axis is taken (a battery behind a home edge and beside the
        area attacks across the home edge).
        """
        pos = _check_position(pos)
        bounds = self.sheet_bounds()
        edge = edge_beyond_bounds(bounds, self.home_edges, pos)
        if edge is None:
            i_min, i_max, j_min, j_max = bounds
            raise AreaError(
                f"sheet position {_fmt(pos)} lies within the play area's extent "
                f"(i {i_min}..{i_max}, j {j_min}..{j_max}); it is beyond no edge"
            )
        return edge

    # --- sides (MAP-3) --------------------------------------------------------------------

    @property
    def half_line(self) -> float:
        """MAP-3: sheet-grid coordinate of the half-line (``j`` for north-south, ``i`` for
        west-east), fixed by the starting layout."""
        return self._line2 / 2

    def side_of_position(self, pos: SheetPosition) -> str | None:
        """MAP-3: the side whose half the sheet position's centre lies in; None on the line."""
        pos = _check_position(pos)
        # Asked of the same positions many times a decision (aims beyond the area);
        # the half-line and the home edges never change, so neither does the answer.
        held = self._position_sides.get(pos, 0)
        if held == 0:
            held = self._position_sides[pos] = half_line_side(self._line2, self.home_edges, pos)
        return held

    def free_on_side(
        self, positions: Iterable[SheetPosition], side: str | None
    ) -> list[SheetPosition]:
        """Those of ``positions`` (sheet positions within the limits) that hold no
        sheet and lie on ``side``'s half (``side_of_position``, MAP-3), in order:
        ``not has_sheet(pos) and side_of_position(pos) == side`` of each, asked of
        the thousand or so positions an announcement points to (ART-24)."""
        sheets, line2 = self._sheets, self._line2
        first, second = self.sides
        axis = 1 if self.home_edges == "north-south" else 0
        out = []
        for pos in positions:
            if pos in sheets:
                continue
            # As ``half_line_side``: a sheet at x spans [x, x + 1), its centre doubled 2x + 1.
            centre2 = 2 * pos[axis] + 1
            if (first if centre2 < line2 else second if centre2 > line2 else None) == side:
                out.append(pos)
        return out

    def side_of(self, h: Hex) -> str | None:
        """MAP-3: the side of the half-line a hex lies on (any hex); None for a hex on it."""
        (i, j), col, row = locate(h)
        if self.home_edges == "north-south":
            coord2, line2 = 2 * (SHEET_ROWS * j + row), SHEET_ROWS * self._line2 - 1
        else:
            coord2, line2 = 2 * (SHEET_COLS * i + col), SHEET_COLS * self._line2 - 1
        if coord2 < line2:
            return self.sides[0]
        if coord2 > line2:
            return self.sides[1]
        return None

    def side_mask(self, side: str | None) -> np.ndarray:
        """Boolean mask over the area arrays of the hexes on ``side`` (None: on the line)."""
        if side is not None and side not in self.sides:
            raise AreaError(
                f'side "{side}" is not one of this area\'s sides ({", ".join(self.sides)})'
            )
        if self.home_edges == "north-south":
            coord2 = 2 * (SHEET_ROWS * self.sheet_j + self.local_row)
            line2 = SHEET_ROWS * self._line2 - 1
        else:
            coord2 = 2 * (SHEET_COLS * self.sheet_i + self.local_col)
            line2 = SHEET_COLS * self._line2 - 1
        if side == self.sides[0]:
            return coord2 < line2
        if side == self.sides[1]:
            return coord2 > line2
        return coord2 == line2

    # --- arrays ----------------------------------------------------------------------------

    def _rebuild(self, laid: bool = False) -> None:
        """Make the whole-area arrays again; ``laid``: only a sheet was laid (the
        last placed), so the arrays of the others are kept and its own appended."""
        before: _HexLookup | None = self.__dict__.get("_lookup")
        self._bounds = sheet_bounds(self._sheets)
        placed = list(self._sheets.items())
        if laid:
            added = _hex_arrays(placed[-1:], len(placed) - 1, set())
            for name, values in added.items():
                setattr(self, name, np.concatenate([getattr(self, name), values]))
        else:
            for name, values in _hex_arrays(placed, 0, self._rubble).items():
                setattr(self, name, values)
        # Dense index grid over the axial bounding box (one cell of margin all round).
        q0 = int(self.q.min()) - 1
        r0 = int(self.r.min()) - 1
        width = int(self.q.max()) - q0 + 2
        height = int(self.r.max()) - r0 + 2
        self.grid_origin: tuple[int, int] = (q0, r0)
        self.grid = np.full((width, height), -1, dtype=np.int32)
        self.grid[self.q - q0, self.r - r0] = np.arange(len(self.q), dtype=np.int32)
        self._grid_cells = self.grid.ravel()
        self._lookup = _HexLookup(self.q, self.r, before)
        self._plain: tuple[list[int], list[int], list[int]] | None = None
        if int((self.grid >= 0).sum()) != len(self.q):  # pragma: no cover - MAP-2 invariant
            raise AssertionError("two area hexes share a lattice cell")
        for arr in (
            self.q,
            self.r,
            self.col,
            self.row,
            self.sheet_index,
            self.sheet_i,
            self.sheet_j,
            self.local_col,
            self.local_row,
            self.level,
            self.terrain,
            self.water_depth,
            self.road,
            self.building_cf,
            self.terrain_height,
            self.woods,
            self.obstacle_top,
            self.grid,
        ):
            arr.flags.writeable = False

    def __repr__(self) -> str:
        return (
            f"PlayArea({len(self._sheets)} sheets, {len(self)} hexes, "
            f"home edges {self.home_edges}, half-line at {self.half_line})"
        )


def _hex_arrays(
    placed: list[tuple[SheetPosition, Sheet]], first: int, rubble: set[Hex]
) -> dict[str, np.ndarray]:
    """The whole-area arrays of the sheets ``placed`` (in placing order, the first
    the area's sheet number ``first``), hex by hex, with the buildings of
    ``rubble`` demolished (ART-29)."""
    k = np.arange(SHEET_HEXES)
    local_row, local_col = np.divmod(k, SHEET_COLS)
    count = len(placed)
    pos_arr = np.array([pos for pos, _ in placed], dtype=np.int64).reshape(count, 2)
    si = np.repeat(pos_arr[:, 0], SHEET_HEXES)
    sj = np.repeat(pos_arr[:, 1], SHEET_HEXES)
    lc = np.tile(local_col, count)
    lr = np.tile(local_row, count)
    cols = SHEET_COLS * si + lc
    rows = SHEET_ROWS * sj + lr + (lc & 1) * (si & 1)
    sheets = [sheet for _, sheet in placed]

    def stack(name: str) -> np.ndarray:
        return np.concatenate([getattr(s, name).ravel() for s in sheets])

    terrain = stack("terrain").astype(np.int8)
    building_cf = stack("building_cf").astype(np.int16)
    building_height = stack("building_height").astype(np.int16)
    if rubble:
        order = {pos: n for n, (pos, _) in enumerate(placed)}
        for h in rubble:
            pos, c, r = locate(h)
            i = order[pos] * SHEET_HEXES + r * SHEET_COLS + c
            terrain[i] = ROUGH
            building_cf[i] = 0
            building_height[i] = 0
    level = stack("level").astype(np.int16)
    woods = (terrain == LIGHT_WOODS) | (terrain == HEAVY_WOODS)
    # MAP-5: what stands on a hex for line of sight.
    terrain_height = np.where(
        woods, WOODS_HEIGHT, np.where(terrain == BUILDING, building_height, 0)
    ).astype(np.int16)
    woods_count = np.zeros(len(terrain), dtype=np.int8)
    for code, count_value in WOODS_COUNT.items():
        woods_count[terrain == code] = count_value
    return {
        "q": cols.astype(np.int32),
        "r": (rows - (cols - (cols & 1)) // 2).astype(np.int32),
        "col": cols.astype(np.int32),
        "row": rows.astype(np.int32),
        "sheet_index": np.repeat(np.arange(first, first + count, dtype=np.int32), SHEET_HEXES),
        "sheet_i": si.astype(np.int32),
        "sheet_j": sj.astype(np.int32),
        "local_col": lc.astype(np.int16),
        "local_row": lr.astype(np.int16),
        "level": level,
        "terrain": terrain,
        "water_depth": stack("water_depth").astype(np.int8),
        "road": stack("road").astype(bool),
        "building_cf": building_cf,
        "terrain_height": terrain_height,
        "woods": woods_count,
        "obstacle_top": (level + terrain_height).astype(np.int16),
    }


class _HexLookup:
    """The area hexes as ``Hex`` objects in array order (``hexes``), and the array
    index of each hex (``index``): built on first use and shared by the area's
    snapshots (they share its arrays). When the arrays before a change are the start
    of the new ones (a sheet laid, a building demolished), what was built of them
    is carried over and only the new hexes are added."""

    def __init__(self, q: np.ndarray, r: np.ndarray, before: _HexLookup | None) -> None:
        self._q, self._r = q, r
        self.hexes: tuple[Hex, ...] | None = None
        self.index: dict[tuple[int, int], int] | None = None
        if before is None or not before._extended_by(q, r):
            return
        start = len(before._q)
        if before.hexes is not None:
            self.hexes = before.hexes + tuple(Hex(a, b) for a, b in self._after(start))
        if before.index is not None:
            # A copy: the snapshots of the area before keep theirs.
            self.index = dict(before.index)
            self.index.update({qr: start + i for i, qr in enumerate(self._after(start))})

    def _extended_by(self, q: np.ndarray, r: np.ndarray) -> bool:
        """The arrays ``q``, ``r`` start with this lookup's hexes."""
        n = len(self._q)
        return n <= len(q) and np.array_equal(self._q, q[:n]) and np.array_equal(self._r, r[:n])

    def _after(self, start: int) -> zip[tuple[int, int]]:
        return zip(self._q[start:].tolist(), self._r[start:].tolist(), strict=True)

    def build_hexes(self) -> tuple[Hex, ...]:
        self.hexes = tuple(Hex(a, b) for a, b in self._after(0))
        return self.hexes

    def build_index(self) -> dict[tuple[int, int], int]:
        self.index = {qr: i for i, qr in enumerate(self._after(0))}
        return self.index


def _check_edge(edge: str | None) -> str:
    if edge not in EDGE_STEPS:
        raise AreaError(f'edge "{edge}" must be one of {", ".join(EDGES)}')
    return edge


def _edge_locals(edge: str) -> list[tuple[int, int]]:
    if edge == "north":
        return [(c, 0) for c in range(SHEET_COLS)]
    if edge == "south":
        return [(c, SHEET_ROWS - 1) for c in range(SHEET_COLS)]
    if edge == "west":
        return [(0, r) for r in range(SHEET_ROWS)]
    return [(SHEET_COLS - 1, r) for r in range(SHEET_ROWS)]


def _along(h: Hex, edge: str) -> int:
    (i, j), col, row = locate(h)
    if edge in ("north", "south"):
        return SHEET_COLS * i + col
    return SHEET_ROWS * j + row


def _resolve(
    value: str | Sheet, pos: SheetPosition, catalogue: Mapping[str, Sheet] | None
) -> Sheet:
    if isinstance(value, Sheet):
        return value
    if not isinstance(value, str):
        raise AreaError(f"sheet position {_fmt(pos)}: {value!r} is neither a sheet id nor a Sheet")
    known = catalogue if catalogue is not None else available_sheets()
    if value not in known:
        names = ", ".join(sorted(known)) or "none: no sheet files were found"
        raise AreaError(f'sheet position {_fmt(pos)}: unknown sheet id "{value}" (known: {names})')
    return known[value]
