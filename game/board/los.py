"""Line of sight (MAP-5): the one rule used by spotters, detection, direct fire, AI and UI.

The rule (docs/line-of-sight.md):

- The line is the exact hex line between the two hex centres
  (``game.hexmath.line``); the intervening hexes are its hexes without both ends.
- Eye level of an end = its hex level + the height of what stands there
  (``viewer_height`` default 2: a standing mech; ``target_height`` default 1:
  a hex, ground target or one-level unit).
- An intervening hex blocks when its level plus its terrain height (woods 2,
  a building its height) is higher than both eye levels.
- Woods that do not block that way add to a woods count, light woods 1 and
  heavy woods 2; a count of 3 or more blocks.
- Hexes outside the play area are open level-0 ground (a line between two
  area hexes can cut across a notch of a grown area or the half-hex
  saw-tooth of an edge).

``line_of_sight`` explains one line; ``visible_from`` answers every area hex
from one viewer at once with numpy and gives exactly the same answers.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass

import numpy as np

from game.board.area import PlayArea
from game.board.terrain import (
    BUILDING,
    HEAVY_WOODS,
    LIGHT_WOODS,
    TERRAIN_NAMES,
    WOODS_COUNT_BLOCKS,
)
from game.hexmath import Hex, distances, line

DEFAULT_VIEWER_HEIGHT = 2  # a standing mech
DEFAULT_TARGET_HEIGHT = 1  # a hex, a ground target, a one-level unit


def unit_height(kind: str) -> int:
    """MAP-5: levels a unit stands above its hex unless its profile says otherwise:
    a standing mech spans two levels, every other unit one."""
    return DEFAULT_VIEWER_HEIGHT if kind == "mech" else DEFAULT_TARGET_HEIGHT


@dataclass(frozen=True)
class Sight:
    """The answer for one line: truthy when the target is visible."""

    visible: bool
    viewer: Hex
    target: Hex
    path: tuple[Hex, ...]  # the whole line, both ends included
    blocking_hex: Hex | None  # first hex along the line where sight is lost
    reason: str
    woods_count: int  # woods on the intervening hexes that do not block outright
    woods_hexes: tuple[Hex, ...]
    viewer_eye: int
    target_eye: int

    def __bool__(self) -> bool:
        return self.visible


def _check_heights(viewer_height: int, target_height: int) -> None:
    if type(viewer_height) is int and type(target_height) is int:
        return
    for name, value in (("viewer_height", viewer_height), ("target_height", target_height)):
        if not isinstance(value, int | np.integer) or isinstance(value, bool):
            raise ValueError(f"{name} must be a whole number of levels, not {value!r}")


def line_of_sight(
    area: PlayArea,
    a: Hex,
    b: Hex,
    viewer_height: int = DEFAULT_VIEWER_HEIGHT,
    target_height: int = DEFAULT_TARGET_HEIGHT,
) -> Sight:
    """MAP-5: can a viewer in hex ``a`` see hex ``b``? With the hex that stops it and why."""
    _check_heights(viewer_height, target_height)
    a = Hex(int(a[0]), int(a[1]))
    b = Hex(int(b[0]), int(b[1]))
    path = tuple(line(a, b))
    index_of = area.index_of
    levels, tops, woods_of = area.sight_terrain()
    at_a, at_b = index_of(a), index_of(b)
    viewer_eye = (levels[at_a] if at_a >= 0 else 0) + int(viewer_height)
    target_eye = (levels[at_b] if at_b >= 0 else 0) + int(target_height)
    above = max(viewer_eye, target_eye)
    woods_total = 0
    woods_hexes: list[Hex] = []
    blocking: Hex | None = None
    reason = ""
    for h in path[1:-1]:
        idx = index_of(h)
        if idx >= 0:
            top = tops[idx]
            woods = woods_of[idx]
        else:
            top, woods = 0, 0
        if top > above:
            if blocking is None:
                blocking = h
                reason = (
                    f"{_obstacle(area, h, idx)} is higher than both ends "
                    f"(eye levels {viewer_eye} and {target_eye})"
                )
        elif woods:
            woods_total += woods
            woods_hexes.append(h)
            if blocking is None and woods_total >= WOODS_COUNT_BLOCKS:
                blocking = h
                reason = f"woods add up to {woods_total} ({_names(area, woods_hexes)})"
    visible = blocking is None
    if visible:
        reason = "nothing between is higher than both ends"
        if woods_total:
            reason += f"; woods count {woods_total} ({_names(area, woods_hexes)}), below 3"
    return Sight(
        visible=visible,
        viewer=a,
        target=b,
        path=path,
        blocking_hex=blocking,
        reason=reason,
        woods_count=woods_total,
        woods_hexes=tuple(woods_hexes),
        viewer_eye=viewer_eye,
        target_eye=target_eye,
    )


def _obstacle(area: PlayArea, h: Hex, idx: int) -> str:
    if idx < 0:
        return f"open ground at level 0 in {area.label(h)}"
    level = int(area.level[idx])
    code = int(area.terrain[idx])
    where = area.label(h)
    if code == BUILDING:
        height = int(area.terrain_height[idx])
        return f"a building {height} levels high at level {level} in {where} (top {level + height})"
    if code in (LIGHT_WOODS, HEAVY_WOODS):
        return f"{TERRAIN_NAMES[code]} at level {level} in {where} (top {level + 2})"
    if level > 0:
        return f"hill at level {level} in {where}"
    return f"ground at level {level} in {where}"


def _names(area: PlayArea, hexes: list[Hex]) -> str:
    located = [area.name_of(h) if area.contains(h) else None for h in hexes]
    positions = {loc[0] for loc in located if loc is not None}
    if len(positions) == 1 and all(loc is not None for loc in located):
        (pos,) = positions
        return f"{', '.join(loc[1] for loc in located if loc)} on sheet ({pos[0]},{pos[1]})"
    return ", ".join(area.label(h) for h in hexes)


# --- many lines at once ------------------------------------------------------------------


def line_steps(
    bq: np.ndarray, br: np.ndarray, steps: int, first: int = 1
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hexes first..first+steps-1 of ``line(Hex(0, 0), Hex(bq, br))`` for arrays of
    ends, exactly.

    ``game.hexmath.line`` rounds the point ``b * i / n`` nudged by
    ``eps * (1, 2, -3)`` (cube x, y, z) to the hex whose centre is nearest. The
    hex around centre ``h`` is where ``|u - u_h|``, ``|v - v_h|`` and
    ``|w - w_h|`` are all below 1, for the differences ``u = x - y``,
    ``v = y - z``, ``w = z - x``; the nudge moves them by ``-eps``, ``+5 eps``,
    ``-4 eps``, so the point is never on an edge. Then ``floor(u) - floor(w)``
    is ``3 * h.x`` give or take 1, and ``floor(w) - floor(v)`` is ``3 * h.z``:
    three floors per hex (``_line_hexes``), no rounding of each component and
    fixing of the worst (the tests compare it with ``line`` on every line out to
    30 hexes and on far random ones). Lines are translation invariant, so
    ``a + line(0, b - a)`` is ``line(a, b)``. Returns ``(q, r, valid)`` of shape
    ``(len(bq), steps)``; ``valid`` is False past the end of a line
    (step >= distance).
    """
    return _line_hexes(_line_ends(bq, br), first, steps)


def _line_ends(
    bq: np.ndarray, br: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What ``_line_hexes`` reads of the lines from (0, 0) to ``(bq, br)``: the
    cube differences ``u``, ``v``, ``w`` of the far end and the distance."""
    bq = np.asarray(bq, dtype=np.int32)
    br = np.asarray(br, dtype=np.int32)
    n = (np.abs(bq) + np.abs(br) + np.abs(bq + br)) // 2
    return 2 * bq + br, -bq - 2 * br, br - bq, n


# ``_line_hexes`` works in single precision while n * (4 * (first + steps) + 2) is no
# more than this (a quarter of the 2**22 its exactness needs).
_SINGLE_EXACT = 2**20


def _line_hexes(
    ends: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], first: int, steps: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``line_steps`` of the lines ``_line_ends`` describes."""
    # Worked out step by step over all the lines (long rows for numpy), handed
    # back as transposed views: one row per line.
    du, dv, dw, n = (a[None, :] for a in ends)
    i = np.arange(first, first + steps, dtype=np.int32)[:, None]
    # floor(t - eps) of a multiple t of 1/n is floor((t * n - 1) / n). Floors of
    # x / n for whole x, in floating point (faster than whole-number division):
    # x + lift * n + 1/2 is positive (|u|, |v|, |w| are 2n at most) and exact, and
    # its quotient by n lies at least 1/(2n) from a whole number, more than the
    # rounding of 1/n and of the product, so truncating it gives floor(x / n) + lift.
    # Every floor carries the same lift, which the differences below cancel.
    # The quotient is below 4s + 2 (s = first + steps) and the two roundings miss
    # it by 2**-23 of that at most in single precision: exact while
    # n * (4s + 2) < 2**22, taken with four times that margin (every line of the
    # table, and every step of lines out to some 500 hexes), a third cheaper than
    # double precision, which serves the longer lines (its roundings: below 1e-11).
    single = int(_most(ends[3], initial=0)) * (4 * (first + steps) + 2) <= _SINGLE_EXACT
    real = np.float32 if single else np.float64
    nf = np.maximum(n, 1).astype(real)
    per = real(1.0) / nf
    lifted = real(2 * (first + steps) + 1) * nf
    at = i.astype(real)
    floor_u = ((du.astype(real) * at + (lifted - 0.5)) * per).astype(np.int32)
    floor_v = ((dv.astype(real) * at + (lifted + 0.5)) * per).astype(np.int32)
    floor_w = ((dw.astype(real) * at + (lifted - 0.5)) * per).astype(np.int32)
    # The nearest whole number to k / 3 (never a tie) is floor((k + 1) / 3).
    q = (floor_u - floor_w + 1) // 3
    r = (floor_w - floor_v + 1) // 3
    return q.T, r.T, np.broadcast_to(i < n, q.shape).T


# The sight grid: obstacle top and woods of each cell packed in one int32
# (top * _PACK + woods) so one gather serves both sums. Cells are axial (q, r)
# with a fixed stride per q column, so a line's relative hexes are the same
# deltas for every viewer on every area: one table of relative lines serves
# them all and survives mobile-map growth (lines are translation invariant).
_PACK = 1024
# A power of two (run keys split deltas by shifts); half of it, the rows an area
# may span in the grid, holds every area game/limits.py allows (about 1,180 at
# most: docs/line-of-sight.md). Taller areas are answered line by line.
_STRIDE = 4096
# Table padding points half a column below the viewer, into the unused cells
# of its column, which hold a top far below any eye level and no woods.
_PAD = _STRIDE // 2
_NEVER_BLOCKS = -20_000 * _PACK
# Steps of the lines gathered at once: after each chunk the lines already
# blocked drop out, so the work follows what the viewer can see along a line.
CHUNK_STEPS = 16
# Lines drawn at once: their work arrays stay in the processor's cache (about
# twice as fast per step as 4,096 at once).
_BLOCK = 1024
# Up to this many lines, a chunk's runs are summed line by line: finding the runs
# the lines share costs more than it saves.
_SHARED_RUNS = 512
_NONE = np.empty(0, dtype=np.int64)
# The reductions called straight (``ndarray.max`` and ``sum`` go through Python first).
_most = np.maximum.reduce
_total = np.add.reduce
# Up to this many hexes asked (``among``), the lines are read in two goes, the
# first chunk of steps and then the rest of the open lines (``_few_asked``); more
# are read chunk by chunk, the blocked lines dropped after each.
_FEW_LINES = 1024
# Up to this many lines times chunks of steps, a few hexes' lines are read whole at once
# (``_few_asked``): fewer numpy calls than two goes, for little more reading.
_AT_ONCE_LINES = 512
# Line steps at most (lines times steps) drawn at once for the lines still open
# past the chunks the table holds, instead of chunk by chunk.
_REST_AT_ONCE = 65_536
# The relative-line table grows on demand toward the farthest line a viewer asks
# about, ring by ring, at most about GROW_ENTRIES line steps per call (about
# 5 ms): neither a new process nor a mobile map growing sheet by sheet waits for
# a whole table. Lines beyond what is built are meanwhile drawn on the spot, with
# the same answers.
GROW_ENTRIES = 100_000
# Largest table radius (hexes), room reserved but filled only as far as some
# viewer needed (5 MB at radius 244, the far corner of a 10 x 10 sheet area).
TABLE_RADIUS = 256
# Chunks of steps the table holds of each line (64 hexes); farther steps are
# drawn on the spot. Lines are blocked one after another as they go: in four
# Long Tom Hunt games viewers asked for a first chunk of 2.0 million lines, a
# second of 250,000, a third of 55,000 and all later ones of 36,000 together,
# yet every chunk of a far ring costs the table as much to build as its first.
TABLE_CHUNKS = 4


def _ring_start(d: int) -> int:
    """Row of the first hex at distance ``d`` in ring order (6 hexes per step out)."""
    return 3 * d * (d - 1)


def _chunk_start(c: int) -> int:
    """First row with a step in chunk ``c``: the lines with at least
    ``c * CHUNK_STEPS + 1`` intervening hexes, so distance ``c * CHUNK_STEPS + 2``."""
    return _ring_start(c * CHUNK_STEPS + 2)


def _ring_of(row: int) -> int:
    """The ring (distance) of table row ``row``: the largest ``d`` with
    ``_ring_start(d) <= row``."""
    d = (3 + math.isqrt(9 + 12 * row)) // 6
    while _ring_start(d + 1) <= row:
        d += 1
    while _ring_start(d) > row:
        d -= 1
    return d


def _ring(d: int) -> tuple[np.ndarray, np.ndarray]:
    """Relative axial ``(q, r)`` of the hexes at distance ``d`` (1 or more), by q
    then r: the two ends of each column, the whole of the first and last."""
    q = np.arange(-d, d + 1, dtype=np.int32)
    low = np.maximum(-d, -q - d)
    high = np.minimum(d, d - q)
    edge = np.abs(q) == d
    count = np.where(edge, d + 1, 2)
    step = np.where(edge, 1, high - low)
    cols = np.repeat(np.arange(q.size), count)
    k = np.arange(cols.size) - np.repeat(np.cumsum(count) - count, count)
    return q[cols], (low[cols] + k * step[cols]).astype(np.int32)


def _ring_hexes(first: int, last: int) -> tuple[np.ndarray, np.ndarray]:
    """Relative axial ``(q, r)`` of every hex at distance first..last, ring by ring
    (the order the table rows follow)."""
    rings = [_ring(d) for d in range(first, last + 1)]
    if not rings:
        return np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int32)
    return np.concatenate([q for q, _ in rings]), np.concatenate([r for _, r in rings])


def _deltas(bq: np.ndarray, br: np.ndarray, first: int, steps: int) -> np.ndarray:
    """Sight-grid deltas of intervening hexes first..first+steps-1 of the lines from
    (0, 0) to ``(bq, br)``, ``_PAD`` past a line's end. Each axial coordinate of
    a line stays within one of its ends' range, the margin of the sight grid
    (checked over the whole table by the tests)."""
    return _deltas_along(_line_ends(bq, br), first, steps)


def _deltas_along(
    ends: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], first: int, steps: int
) -> np.ndarray:
    """``_deltas`` of the lines ``_line_ends`` describes."""
    sq, sr, valid = _line_hexes(ends, first, steps)
    return np.where(valid, sq * _STRIDE + sr, _PAD).astype(np.int32, copy=False)


# The 3-bit code of a step along a line by the change of its sight-grid cell
# (dq + 1) * 3 + (dr + 1): 1..6 for the six neighbours, 7 for no neighbour.
_STEP_CODE = np.array([7, 1, 2, 6, 7, 3, 5, 4, 7], dtype=np.uint64)
_STRIDE_BITS = _STRIDE.bit_length() - 1


def _run_keys(deltas: np.ndarray, limit: int) -> np.ndarray:
    """One exact uint64 key per row of ``deltas`` (runs of steps of lines within
    ``limit`` hexes): the first hex, then each step as 3 bits: the neighbour it
    moves to (consecutive hexes of a line are neighbours, MAP-5) or 0 past the
    line's end. Equal keys are equal runs."""
    side = 2 * limit + 5
    if side * side * 8 ** (deltas.shape[1] - 1) > 2**64:
        raise ValueError(f"runs of {deltas.shape[1]} steps within {limit} hexes need longer keys")
    # _STRIDE is a power of two: shifts split a delta into its column and row.
    sq = (deltas[:, 0] + _PAD) >> _STRIDE_BITS
    sr = deltas[:, 0] - (sq << _STRIDE_BITS)
    first = ((sq + side // 2) * side + (sr + side // 2)).astype(np.uint64)
    step = np.diff(deltas, axis=1) + (_STRIDE + 1)
    dq = step >> _STRIDE_BITS
    code = _STEP_CODE.take(dq * 3 + (step - (dq << _STRIDE_BITS)), mode="clip")
    ended = deltas[:, 1:] == _PAD
    if np.any((code == 7) & ~ended):
        raise AssertionError("a relative line steps to a hex that is not a neighbour")
    code[ended] = 0
    shifts = np.uint64(3) * np.arange(deltas.shape[1] - 1, dtype=np.uint64)
    return (first << np.uint64(3 * (deltas.shape[1] - 1))) | (code << shifts).sum(
        axis=1, dtype=np.uint64
    )


class _RelativeLines:
    """Intervening hexes of the line from (0, 0) to every hex of the rows built.

    Rows follow the rings outward (``_ring_start``), each ring by q then r; the
    table holds every row before ``rows``, so every ring out to ``radius`` and
    the first rows of the next. Steps ``c * CHUNK_STEPS + 1 ..`` of the rows from
    ``_chunk_start(c)`` on form chunk ``c``. Lines in nearby
    directions share those steps (in the first chunk a few thousand distinct
    runs serve some 180,000 rows), so a chunk keeps each distinct run of
    sight-grid deltas once (``segments[c]``) and each row the number of its run
    (``segment_of[c]``, by row, room reserved up to ``TABLE_RADIUS``; rows that
    end before the chunk read run 0, all padding): a viewer then sums every run
    once, however many lines share it. ``row_of`` maps a relative hex
    (``(q + TABLE_RADIUS) * side + r + TABLE_RADIUS``) to its row, -1 where not
    built, and ``dist_of`` to its distance. Growing appends rows; nothing built is
    built again. Only the first ``TABLE_CHUNKS`` chunks are kept; a line's later
    steps are drawn on the spot.
    """

    def __init__(self) -> None:
        self.radius = 1
        self.rows = _ring_start(2)
        self.limit = TABLE_RADIUS
        side = 2 * self.limit + 1
        self.row_of = np.full(side * side, -1, dtype=np.int32)
        dq = np.arange(-self.limit, self.limit + 1, dtype=np.int32)
        self.dist_of = (
            (np.abs(dq)[:, None] + np.abs(dq)[None, :] + np.abs(dq[:, None] + dq[None, :])) // 2
        ).ravel()
        self._by_step: list[np.ndarray] = []  # ``runs_by_step``
        # The first chunk's steps of every line of a viewer's disk (``_disk``), by radius.
        self.disk_steps: dict[int, np.ndarray] = {}
        self.segment_of: list[np.ndarray] = []
        self.segments: list[np.ndarray] = []
        # A chunk's runs by key (``_run_keys``), sorted, and their numbers.
        self._keys: list[np.ndarray] = []
        self._key_runs: list[np.ndarray] = []

    def _add_rows(self, end: int) -> None:
        """Build the rows from ``rows`` up to ``end`` (whole rings or part of one)."""
        start = self.rows
        if end <= start:
            return
        first, last = _ring_of(start), _ring_of(end - 1)
        q, r = _ring_hexes(first, last)
        skipped = start - _ring_start(first)
        q, r = q[skipped : skipped + end - start], r[skipped : skipped + end - start]
        side = 2 * self.limit + 1
        self.row_of[(q + self.limit) * side + (r + self.limit)] = np.arange(
            start, end, dtype=np.int32
        )
        for c in range(min(-(-(last - 1) // CHUNK_STEPS), TABLE_CHUNKS)):
            if c == len(self.segment_of):
                # Reserved, not touched: memory is taken as the rings come. Rows
                # too short to reach the chunk read run 0, all padding.
                seg = np.empty(_ring_start(self.limit + 1), dtype=np.int32)
                seg[: _chunk_start(c)] = 0
                self.segment_of.append(seg)
                self.segments.append(np.full((1, CHUNK_STEPS), _PAD, dtype=np.int32))
                self._keys.append(np.empty(0, dtype=np.uint64))
                self._key_runs.append(np.empty(0, dtype=np.int32))
            skip = max(0, _chunk_start(c) - start)
            at = start
            # Blocks of lines small enough for the cache.
            deltas = [
                _deltas(q[b : b + _BLOCK], r[b : b + _BLOCK], c * CHUNK_STEPS + 1, CHUNK_STEPS)
                for b in range(skip, q.size, _BLOCK)
            ]
            if deltas:
                self.segment_of[c][at + skip : at + q.size] = self._runs_of(
                    c, np.concatenate(deltas)
                )
        self.rows = end
        self.radius = _ring_of(end) - 1

    def _runs_of(self, c: int, deltas: np.ndarray) -> np.ndarray:
        """The run numbers of these rows of chunk ``c``, new runs appended."""
        keys, first, back = np.unique(
            _run_keys(deltas, self.limit), return_index=True, return_inverse=True
        )
        known, runs = self._keys[c], self._key_runs[c]
        at = np.searchsorted(known, keys)
        seen = at < known.size
        seen[seen] = known[at[seen]] == keys[seen]
        fresh = np.flatnonzero(~seen)
        ids = np.empty(keys.size, dtype=np.int32)
        ids[seen] = runs[at[seen]]
        count = known.size + 1  # run 0 is the padding
        ids[fresh] = np.arange(count, count + fresh.size, dtype=np.int32)
        if fresh.size:
            self._keys[c] = np.insert(known, at[fresh], keys[fresh])
            self._key_runs[c] = np.insert(runs, at[fresh], ids[fresh])
            store = self.segments[c]
            if count + fresh.size > len(store):
                # Room doubles as runs are added: each run is copied a few times at most.
                grown = np.empty((max(count + fresh.size, 2 * len(store)), CHUNK_STEPS), np.int32)
                grown[:count] = store[:count]
                self.segments[c] = store = grown
            store[count : count + fresh.size] = deltas[first[fresh]]
        return ids[back.ravel()]

    def steps(self, c: int, rows: np.ndarray) -> np.ndarray:
        """Sight-grid deltas of chunk ``c``'s steps of the lines ``rows`` (built rows;
        all padding for a line that ends before the chunk), one row of
        ``CHUNK_STEPS`` per line."""
        return self.segments[c][self.segment_of[c][rows]]

    def runs_by_step(self, c: int) -> np.ndarray:
        """``segments[c]`` step-major: row ``k`` holds step ``k`` of every run."""
        store = self.segments[c]
        count = len(self._keys[c]) + 1
        kept = self._by_step[c] if c < len(self._by_step) else None
        if kept is None or kept.shape[1] != count:
            kept = np.ascontiguousarray(store[:count].T, dtype=np.intp)
            if c < len(self._by_step):
                self._by_step[c] = kept
            else:
                self._by_step.append(kept)
        return kept

    def nbytes(self) -> int:
        """Bytes of the rings built so far (the reserved rest is not in memory)."""
        rows = _ring_start(self.radius + 1)
        built = sum(max(0, rows - _chunk_start(c)) for c in range(len(self.segment_of)))
        runs = sum(len(k) for k in self._keys)
        return built * 4 + runs * CHUNK_STEPS * 4 + self.row_of.nbytes

    def grow(self, radius: int, budget: int | None = None) -> None:
        """Append rows toward every ring out to ``radius``: about ``budget`` line
        steps at most (``GROW_ENTRIES`` if None; a row of ring d has d - 1)."""
        if radius <= self.radius:
            return
        budget = GROW_ENTRIES if budget is None else budget
        radius = min(radius, self.limit)
        end = _ring_start(radius + 1)
        rows, spent = self.rows, 0
        while rows < end:
            d = _ring_of(rows)
            held = min(d - 1, TABLE_CHUNKS * CHUNK_STEPS)  # steps the table holds of a row
            # One row at least per call, so that every call moves on.
            take = min(_ring_start(d + 1), end) - rows
            take = min(take, (budget - spent) // held)
            if take <= 0:
                if spent:
                    break
                take = 1
            rows += take
            spent += take * held
        self._add_rows(rows)


_LINES = _RelativeLines()


@dataclass
class _Grids:
    revision: int
    q0: int  # axial origin of the grid (one cell of margin all round)
    r0: int
    width: int  # q columns
    height: int  # r cells used per column (<= _PAD)
    code: np.ndarray  # (width * _STRIDE,) packed top/woods; cells past height never block
    level: np.ndarray  # (width, height) ground level, 0 off the area
    # Per area hex: (level + 1) * _PACK, a target's eye level (plus one, packed)
    # less its height.
    lift: np.ndarray
    # (width * _STRIDE,) the area index of each cell, -1 off the area: a viewer's
    # disk of hexes within range is read from it without going over the area.
    # Made on the first such call (``_index_grid``).
    index: np.ndarray | None = None
    # Per area hex, ``q * side + r`` for the relative tables of that ``side``
    # (``_few_asked``), made on the first such call.
    keys: tuple[int, np.ndarray] | None = None


_GRIDS: weakref.WeakKeyDictionary[PlayArea, _Grids] = weakref.WeakKeyDictionary()


def _grids(area: PlayArea) -> _Grids:
    cached = _GRIDS.get(area)
    if cached is not None and cached.revision == area.revision:
        return cached
    q0, r0 = int(area.q.min()) - 1, int(area.r.min()) - 1
    width = int(area.q.max()) - q0 + 2
    height = int(area.r.max()) - r0 + 2
    code = np.full((width, _STRIDE), _NEVER_BLOCKS, dtype=np.int32)
    level = np.zeros((width, min(height, _PAD)), dtype=np.int32)
    if height <= _PAD:
        code[:, :height] = 0  # MAP-5 decision: off-area hexes are open level-0 ground
        x, y = area.q - q0, area.r - r0
        code[x, y] = area.obstacle_top.astype(np.int32) * _PACK + area.woods
        level[x, y] = area.level
    lift = (area.level.astype(np.int32) + 1) * _PACK
    built = _Grids(area.revision, q0, r0, width, height, code.ravel(), level, lift)
    _GRIDS[area] = built
    return built


def _index_grid(area: PlayArea, g: _Grids) -> np.ndarray:
    """``g.index``, made now if it is not yet (the grid is no taller than ``_PAD``)."""
    if g.index is None:
        index = np.full((g.width, _STRIDE), -1, dtype=np.int32)
        index[area.q - g.q0, area.r - g.r0] = np.arange(len(area), dtype=np.int32)
        g.index = index.ravel()
    return g.index


@dataclass(frozen=True)
class _Disk:
    """The hexes 1 to ``radius`` away from (0, 0) in table row order (ring by
    ring), as sight-grid deltas, with their distance: table row ``k`` is hex ``k``."""

    cells: np.ndarray
    dist: np.ndarray


_DISKS: dict[int, _Disk] = {}


def _disk(radius: int) -> _Disk:
    disk = _DISKS.get(radius)
    if disk is None:
        q, r = _ring_hexes(1, radius)
        dist = (np.abs(q) + np.abs(r) + np.abs(q + r)) // 2
        disk = _DISKS[radius] = _Disk(q.astype(np.int64) * _STRIDE + r, dist.astype(np.int32))
    return disk


def _sums(code: np.ndarray, deltas: np.ndarray, base: np.int32) -> tuple[np.ndarray, np.ndarray]:
    """Highest obstacle top and woods count along runs of sight-grid ``deltas`` (one
    run per row) from the grid cell ``base``. Tops and padding add whole multiples
    of ``_PACK``, and a run's woods (2 at most per hex) stay below it; a run's sum
    fits in int32 (``CHUNK_STEPS * |_NEVER_BLOCKS|`` is below 2**31)."""
    # Gathered step-major: the reductions then run along whole rows of runs.
    packed = code.take((deltas + base).T)
    return packed.max(axis=0) // _PACK, packed.sum(axis=0, dtype=np.int32) % _PACK


def visible_from(
    area: PlayArea,
    viewer: Hex,
    max_range: int | None = None,
    viewer_height: int = DEFAULT_VIEWER_HEIGHT,
    target_height: int = DEFAULT_TARGET_HEIGHT,
    among: np.ndarray | None = None,
) -> np.ndarray:
    """MAP-5: boolean mask over the area arrays (``area.q``, ``area.r``) of the hexes
    ``viewer`` sees; exactly ``line_of_sight(area, viewer, h, ...).visible`` for each.

    ``max_range`` (hexes) leaves farther hexes False, and so does ``among`` (a
    boolean mask over the area arrays) for the hexes it leaves out: only the
    hexes asked about are worked out. The viewer may stand outside the area
    (its ground is then level 0).
    """
    _check_heights(viewer_height, target_height)
    if max_range is not None and (
        not isinstance(max_range, int | np.integer) or isinstance(max_range, bool) or max_range < 0
    ):
        raise ValueError(
            f"max_range must be a whole number of hexes (0 or more) or None, not {max_range!r}"
        )
    if type(viewer) is not Hex:
        viewer = Hex(int(viewer[0]), int(viewer[1]))
    g = _grids(area)
    x, y = viewer.q - g.q0, viewer.r - g.r0
    # Every line from a viewer inside the grid's margin to an area hex stays in
    # the grid (``_deltas``); a taller grid than the padding allows is answered
    # line by line.
    if among is not None:
        among = np.asarray(among, dtype=bool)
        if among.shape != (len(area),):
            raise ValueError(
                f"among must be a mask of the {len(area)} area hexes, not of shape {among.shape}"
            )
    if not (1 <= x < g.width - 1 and 1 <= y < g.height - 1 and g.height <= _PAD):
        return _visible_from_lines(area, viewer, max_range, viewer_height, target_height, among)

    seen = np.zeros(len(area), dtype=bool)
    base = x * _STRIDE + y
    viewer_eye = int(g.level[x, y]) + int(viewer_height)
    if among is not None:
        if _few_asked(area, g, viewer, base, viewer_eye, target_height, max_range, among, seen):
            return seen
    elif (
        max_range is not None
        and max_range <= CHUNK_STEPS + 1
        and _ring_start(max_range + 1) <= len(area)
        and _disk_seen(area, g, base, viewer_eye, target_height, max_range, seen)
    ):
        return seen
    limit = _LINES.limit
    if among is None and max_range is not None and _ring_start(max_range + 1) <= len(area):
        # The viewer's disk, smaller than the area, read off the grid: the work
        # follows the range, not the area. Disk hex k is table row k (both go
        # ring by ring).
        disk = _disk(max_range)
        index = _index_grid(area, g)
        cells = index.take(disk.cells + base, mode="clip")  # off the grid: margin, -1
        # Hexes next to the viewer (or its own) have nothing between: always seen.
        close = cells[:6]
        seen[close[close >= 0]] = True
        own = index[base]
        if own >= 0:  # a viewer off the area stands in the grid's margin
            seen[own] = True
        rows = np.flatnonzero(cells[6:] >= 0) + 6
        todo = cells[rows]
        dist = disk.dist[rows]
        if todo.size == 0:
            return seen
        farthest = int(dist.max())
        _grow_beside(dist, farthest)
        rows[rows >= _LINES.rows] = -1  # not built yet: drawn on the spot
    else:
        asked = None if among is None else np.flatnonzero(among)
        q, r = (area.q, area.r) if asked is None else (area.q[asked], area.r[asked])
        dq, dr = q - viewer.q, r - viewer.r
        dist = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
        # Hexes next to the viewer (or its own) have nothing between: always seen.
        lined = dist >= 2
        close = ~lined
        if max_range is not None:
            within = dist <= max_range
            close &= within
            lined &= within
        seen[close.nonzero()[0] if asked is None else asked[close]] = True
        picked = np.flatnonzero(lined)
        if picked.size == 0:
            return seen
        todo = picked if asked is None else asked[picked]
        dist = dist[picked]
        farthest = int(dist.max())
        _grow_beside(dist, farthest)
        side = 2 * limit + 1
        # Rows not built yet read -1: those lines are drawn on the spot.
        near = dist <= limit
        rows = np.full(todo.size, -1, dtype=np.int64)
        rows[near] = _LINES.row_of[(dq[picked[near]] + limit) * side + (dr[picked[near]] + limit)]
    seen[todo] = True
    threshold = np.maximum(area.level[todo].astype(np.int32) + int(target_height), viewer_eye)
    top = woods = None  # along the lines so far, from the first chunk on
    base = np.int32(base)
    drawn = bool((rows < 0).any())  # some lines are beyond the table built so far
    chunk = 0
    while True:
        first = chunk * CHUNK_STEPS + 1
        rest = farthest - first  # steps left of the longest line
        if (
            chunk
            and todo.size * rest <= _REST_AT_ONCE
            and 2 * rest < _PACK  # a line's woods (2 a hex at most) stay below _PACK
            and chunk >= len(_LINES.segment_of)
        ):
            # Past the steps the table holds, the lines still open have the rest
            # of their steps drawn at once: fewer numpy calls than a chunk at a
            # time. (Within the table, reading chunk by chunk does less work:
            # most lines are blocked before the end.)
            ends = _line_ends(area.q[todo] - viewer.q, area.r[todo] - viewer.r)
            packed = g.code.take(_deltas_along(ends, first, rest) + base)
            top = np.maximum(top, packed.max(axis=1) // _PACK)
            woods += (packed.sum(axis=1, dtype=np.int64) % _PACK).astype(np.int32)
            seen[todo[(top > threshold) | (woods >= WOODS_COUNT_BLOCKS)]] = False
            return seen
        # Rows within the table, and the farther lines computed on the spot.
        if chunk >= len(_LINES.segment_of):
            far = np.arange(todo.size)
        else:
            far = np.flatnonzero(rows < 0) if drawn else _NONE
        if far.size < todo.size:
            near = np.flatnonzero(rows >= 0) if far.size else None
            ids = _LINES.segment_of[chunk][rows if near is None else rows[near]]
            runs = _LINES.segments[chunk]
            if ids.size <= _SHARED_RUNS:
                step_top, step_woods = _sums(g.code, runs[ids], base)
            else:
                # Each run of steps is summed once for all the lines that share it.
                wanted = np.zeros(len(runs), dtype=bool)
                wanted[ids] = True
                used = np.flatnonzero(wanted)
                run_top = np.empty(wanted.size, dtype=np.int32)
                run_woods = np.empty(wanted.size, dtype=np.int32)
                run_top[used], run_woods[used] = _sums(g.code, runs[used], base)
                step_top, step_woods = run_top[ids], run_woods[ids]
            if near is not None:
                step_top, step_woods = (
                    _spread(step_top, near, todo.size),
                    _spread(step_woods, near, todo.size),
                )
        else:
            step_top = np.empty(todo.size, dtype=np.int32)
            step_woods = np.empty(todo.size, dtype=np.int32)
        # Lines beyond the table, a block at a time (the work arrays stay small).
        for b in range(0, far.size, _BLOCK):
            part = far[b : b + _BLOCK]
            t = todo[part]
            ends = _line_ends(area.q[t] - viewer.q, area.r[t] - viewer.r)
            along = _deltas_along(ends, first, CHUNK_STEPS)
            step_top[part], step_woods[part] = _sums(g.code, along, base)
        if top is None:
            top, woods = step_top, step_woods
        else:
            top = np.maximum(top, step_top)
            woods += step_woods
        blocked = (top > threshold) | (woods >= WOODS_COUNT_BLOCKS)
        seen[todo[blocked]] = False
        chunk += 1
        if farthest < chunk * CHUNK_STEPS + 2:
            return seen
        going = np.flatnonzero(~blocked & (dist >= chunk * CHUNK_STEPS + 2))
        if going.size == 0:
            return seen
        todo, dist, rows, threshold, top, woods = (
            a[going] for a in (todo, dist, rows, threshold, top, woods)
        )


def _grow_beside(dist: np.ndarray, farthest: int) -> None:
    """Grow the table toward ``farthest`` by what a call's share of work (about
    ``GROW_ENTRIES`` line steps) leaves once the lines beyond the table, whose
    first chunk of steps the call draws on the spot (``dist``: the distance of each
    line asked), have taken theirs; ``GROW_ENTRIES // 8`` at least, so that the
    table always moves on. The first call of a process on a large area then does
    not both draw thousands of lines and build thousands more."""
    if farthest <= _LINES.radius:
        return
    beyond = int(np.count_nonzero(dist > _LINES.radius))
    _LINES.grow(farthest, max(GROW_ENTRIES // 8, GROW_ENTRIES - CHUNK_STEPS * beyond))


def _few_asked(
    area: PlayArea,
    g: _Grids,
    viewer: Hex,
    base: int,
    viewer_eye: int,
    target_height: int,
    max_range: int | None,
    among: np.ndarray,
    seen: np.ndarray,
) -> bool:
    """``visible_from`` of the hexes ``among`` asks about, into ``seen``, when they
    are few (``_FEW_LINES``) and the area lies within the relative tables around
    the viewer; False (``seen`` untouched) otherwise. The AI asks a few hundred
    hexes at a time: then the numpy calls, not the steps, are much of the cost,
    so a hex's line and distance are looked up in the tables rather than
    measured, and the lines are read in two goes (``_lines_open``), not chunk by
    chunk."""
    lines = _LINES
    limit = lines.limit
    if not (
        viewer.q - limit <= g.q0 + 1
        and g.q0 + g.width - 2 <= viewer.q + limit
        and viewer.r - limit <= g.r0 + 1
        and g.r0 + g.height - 2 <= viewer.r + limit
    ):
        return False
    asked = among.nonzero()[0]
    if asked.size > _FEW_LINES:
        return False
    side = 2 * limit + 1
    keys = g.keys
    if keys is None or keys[0] != side:
        keys = g.keys = (side, area.q.astype(np.int64) * side + area.r)
    key = keys[1][asked] + ((limit - viewer.q) * side + limit - viewer.r)
    dist = lines.dist_of[key]
    if asked.size == 0:
        return True
    farthest = int(_most(dist))
    if 2 * farthest >= _PACK:  # a line's woods (2 a hex at most) stay below _PACK
        return False
    near = 1 if max_range is None else min(1, max_range)
    if farthest <= near:
        seen[asked] = True  # next to the viewer (or its own): nothing between
        return True
    # The farthest line read: none beyond the range.
    reach = farthest if max_range is None else min(farthest, max_range)
    chunks = -(-(reach - 1) // CHUNK_STEPS)  # those holding an intervening hex
    if reach >= 2 and asked.size * chunks <= _AT_ONCE_LINES:
        lines.grow(reach)
        if reach <= lines.radius and chunks <= len(lines.segment_of):
            # Few short lines: every step of each read at once, with none of the work
            # of dropping the lines blocked early. A line next to the viewer is all
            # padding (nothing between, always seen), and so is the viewer's own hex,
            # read as ring 1's first line; a hex out of range is never below the
            # packed top of the padding (its line, whatever is read of it, is unseen).
            rows = np.maximum(lines.row_of[key], 0)
            above = np.maximum(g.lift[asked] + target_height * _PACK, (viewer_eye + 1) * _PACK)
            if reach < farthest:
                above[dist > reach] = _NEVER_BLOCKS
            top, woods = _table_sums(g, base, rows, 0, chunks)
            seen[asked] = _open(top, woods, above)
            return True
    lined = dist >= 2 if max_range is None else (dist >= 2) & (dist <= max_range)
    picked = lined.nonzero()[0]
    if picked.size < asked.size:
        seen[asked[dist <= near]] = True
        if picked.size == 0:
            return True
        asked, key, dist = asked[picked], key[picked], dist[picked]
        farthest = int(_most(dist))
    lines.grow(farthest)
    rows = lines.row_of[key]
    above = np.maximum(g.lift[asked] + target_height * _PACK, (viewer_eye + 1) * _PACK)
    seen[asked] = _lines_open(area, g, viewer, base, asked, rows, dist, farthest, above)
    return True


def _lines_open(
    area: PlayArea,
    g: _Grids,
    viewer: Hex,
    base: int,
    todo: np.ndarray,
    rows: np.ndarray,
    dist: np.ndarray,
    farthest: int,
    above: np.ndarray,
) -> np.ndarray:
    """Which of the lines from the viewer (grid cell ``base``) to the area hexes
    ``todo`` (table ``rows``, -1 where not built; ``dist`` of each, ``farthest``
    their most) nothing blocks: every intervening top below ``above`` (the
    higher eye level plus one, times ``_PACK``) and woods below three. The first
    chunk of steps of every line, then the rest of the table's steps of the
    lines still open at once, then the steps past the table drawn."""
    lines = _LINES
    if farthest <= lines.radius:  # the table holds every line
        tabled = None
        top, woods = _table_sums(g, base, rows, 0, 1)
    else:
        tabled = rows >= 0
        top = np.full(todo.size, _NEVER_BLOCKS, dtype=np.int32)
        woods = np.zeros(todo.size, dtype=np.int32)
        held = tabled.nonzero()[0]
        if held.size:
            top[held], woods[held] = _table_sums(g, base, rows[held], 0, 1)
        # Lines the table does not hold yet: every step drawn.
        _draw(area, g, viewer, base, todo, (~tabled).nonzero()[0], dist, 1, top, woods)
    first = CHUNK_STEPS + 1
    if farthest > first:
        going = (dist > first) & _open(top, woods, above)
        if tabled is not None:
            going &= tabled
        going = going.nonzero()[0]
        if going.size:
            reach = dist[going]
            held = min(-(-(int(_most(reach)) - 1) // CHUNK_STEPS), len(lines.segment_of))
            if held > 1:
                more_top, more_woods = _table_sums(g, base, rows[going], 1, held)
                top[going] = np.maximum(top[going], more_top)
                woods[going] += more_woods & (_PACK - 1)  # the woods: the low bits
                first = held * CHUNK_STEPS + 1
            longer = (reach > first) & _open(top[going], woods[going], above[going])
            _draw(area, g, viewer, base, todo, going[longer], dist, first, top, woods)
    return _open(top, woods, above)


def _open(top: np.ndarray, woods: np.ndarray, above: np.ndarray) -> np.ndarray:
    """Lines whose highest packed top (``top``) is below ``above`` and whose woods
    (the low bits of the packed sums ``woods``) stay below three (MAP-5)."""
    return (top < above) & ((woods & (_PACK - 1)) < WOODS_COUNT_BLOCKS)


def _table_sums(
    g: _Grids, base: int, rows: np.ndarray, start: int, end: int
) -> tuple[np.ndarray, np.ndarray]:
    """Highest packed top and packed sum along chunks ``start``..``end - 1`` of the
    table's ``rows`` from grid cell ``base`` (padding past a line's end)."""
    lines = _LINES
    steps = np.empty(((end - start) * CHUNK_STEPS, rows.size), dtype=np.intp)
    for c in range(start, end):
        lines.runs_by_step(c).take(
            lines.segment_of[c][rows],
            axis=1,
            out=steps[(c - start) * CHUNK_STEPS : (c - start + 1) * CHUNK_STEPS],
            mode="clip",  # every run number is valid; "clip" writes out unbuffered
        )
    steps += base
    # Step-major (one row per step): the reductions run along whole rows.
    packed = g.code.take(steps)
    return _most(packed, axis=0), _total(packed, axis=0, dtype=_sum_type(len(steps)))


def _sum_type(steps: int) -> type:
    """The narrowest sum that holds ``steps`` packed cells (int32 for a table's
    lines, whose padding adds ``_NEVER_BLOCKS`` a step)."""
    return np.int32 if steps * -_NEVER_BLOCKS < 2**31 else np.int64


def _draw(
    area: PlayArea,
    g: _Grids,
    viewer: Hex,
    base: int,
    todo: np.ndarray,
    which: np.ndarray,
    dist: np.ndarray,
    first: int,
    top: np.ndarray,
    woods: np.ndarray,
) -> None:
    """Steps ``first`` .. of the lines ``which`` (places in ``todo``, ``dist``)
    drawn on the spot, taken into their ``top`` and ``woods`` (packed sums)."""
    if which.size == 0:
        return
    steps = int(_most(dist[which])) - first
    per = max(1, _REST_AT_ONCE // steps)  # lines at once: the work arrays stay small
    for b in range(0, which.size, per):
        part = which[b : b + per]
        t = todo[part]
        ends = _line_ends(area.q[t] - viewer.q, area.r[t] - viewer.r)
        packed = g.code.take(_deltas_along(ends, first, steps) + base)
        top[part] = np.maximum(top[part], _most(packed, axis=1))
        # Only the woods (the sum's low bits) are read: the rest may not fit.
        woods[part] += _total(packed, axis=1, dtype=np.int64) & (_PACK - 1)


def _disk_seen(
    area: PlayArea,
    g: _Grids,
    base: int,
    viewer_eye: int,
    target_height: int,
    radius: int,
    seen: np.ndarray,
) -> bool:
    """``visible_from`` within ``radius`` (one chunk of steps at most) into
    ``seen``, reading the viewer's whole disk off the grid at once: each disk
    hex's line from the table (``disk_steps``), the lines to hexes off the area
    read too and their answers dropped (fewer numpy calls than picking the
    hexes of the area first). False (``seen`` untouched) while the table does
    not yet hold the disk."""
    lines = _LINES
    lines.grow(radius)
    if radius > lines.radius:
        return False
    steps = lines.disk_steps.get(radius)
    if steps is None:
        rows = np.arange(_ring_start(radius + 1), dtype=np.int64)
        steps = lines.disk_steps[radius] = np.ascontiguousarray(lines.steps(0, rows).T, np.intp)
    index = _index_grid(area, g)
    cells = index.take(_disk(radius).cells + base, mode="clip")  # off the grid: margin, -1
    packed = g.code.take(steps + base, mode="clip")
    above = np.maximum(g.lift.take(cells) + target_height * _PACK, (viewer_eye + 1) * _PACK)
    open_ = _open(_most(packed, axis=0), _total(packed, axis=0, dtype=np.int32), above)
    seen[cells[open_ & (cells >= 0)]] = True
    own = index[base]
    if own >= 0:  # a viewer off the area stands in the grid's margin
        seen[own] = True
    return True


def _spread(values: np.ndarray, at: np.ndarray, size: int) -> np.ndarray:
    """An array of ``size`` holding ``values`` at the places ``at`` (the rest unset)."""
    out = np.empty(size, dtype=values.dtype)
    out[at] = values
    return out


def _visible_from_lines(
    area: PlayArea,
    viewer: Hex,
    max_range: int | None,
    viewer_height: int,
    target_height: int,
    among: np.ndarray | None = None,
) -> np.ndarray:
    """``visible_from`` computing each line on the spot (viewer off the grid, huge
    areas), only to the hexes ``among`` asks about."""
    n_hex = len(area)
    out = np.zeros(n_hex, dtype=bool)
    vidx = area.index_of(viewer)
    viewer_eye = (int(area.level[vidx]) if vidx >= 0 else 0) + int(viewer_height)
    dist = distances(viewer, area.q, area.r)
    asked = np.ones(n_hex, dtype=bool) if among is None else among.copy()
    if max_range is not None:
        asked &= dist <= max_range
    todo = np.flatnonzero(asked)
    # MAP-5: index -1 reads the appended open level-0 ground.
    tops = np.append(area.obstacle_top.astype(np.int32), np.int32(0))
    woods = np.append(area.woods.astype(np.int32), np.int32(0))
    chunk = 256
    for start in range(0, todo.size, chunk):
        sel = todo[start : start + chunk]
        steps = int(dist[sel].max()) - 1
        if steps <= 0:
            out[sel] = True
            continue
        sq, sr, valid = line_steps(area.q[sel] - viewer.q, area.r[sel] - viewer.r, steps)
        idx = area.indices_of(sq + viewer.q, sr + viewer.r)
        top = np.where(valid, tops[idx], _NEVER_BLOCKS).max(axis=1)
        wsum = np.where(valid, woods[idx], 0).sum(axis=1)
        threshold = np.maximum(area.level[sel].astype(np.int32) + int(target_height), viewer_eye)
        out[sel] = (top <= threshold) & (wsum < WOODS_COUNT_BLOCKS)
    return out


def visible_hexes(
    area: PlayArea,
    viewer: Hex,
    max_range: int | None = None,
    viewer_height: int = DEFAULT_VIEWER_HEIGHT,
    target_height: int = DEFAULT_TARGET_HEIGHT,
) -> list[Hex]:
    """The area hexes ``viewer`` sees (``visible_from`` as a list of hexes)."""
    mask = visible_from(area, viewer, max_range, viewer_height, target_height)
    return [
        Hex(int(q), int(r))
        for q, r in zip(area.q[mask].tolist(), area.r[mask].tolist(), strict=True)
    ]


def in_sight(
    area: PlayArea,
    a: Hex,
    b: Hex,
    viewer_height: int = DEFAULT_VIEWER_HEIGHT,
    target_height: int = DEFAULT_TARGET_HEIGHT,
) -> bool:
    """``bool(line_of_sight(...))``: the yes/no answer without the explanation,
    read off the sight grid like ``visible_from``, along the relative line drawn
    once and kept (``_line_cells``)."""
    _check_heights(viewer_height, target_height)
    a = Hex(int(a[0]), int(a[1]))
    b = Hex(int(b[0]), int(b[1]))
    g = _grids(area)
    x, y = a.q - g.q0, a.r - g.r0
    tx, ty = b.q - g.q0, b.r - g.r0
    inside = 1 <= x < g.width - 1 and 1 <= y < g.height - 1 and g.height <= _PAD
    if not (inside and 1 <= tx < g.width - 1 and 1 <= ty < g.height - 1):
        return line_of_sight(area, a, b, viewer_height, target_height).visible
    dq, dr = b.q - a.q, b.r - a.r
    if abs(dq) + abs(dr) + abs(dq + dr) <= 2:
        return True  # next to the viewer (or its own): nothing between
    packed = g.code.take(_line_cells(dq, dr) + (x * _STRIDE + y))
    threshold = max(int(g.level[x, y]) + viewer_height, int(g.level[tx, ty]) + target_height)
    woods = int(_total(packed, dtype=np.int64)) % _PACK
    return int(_most(packed)) // _PACK <= threshold and woods < WOODS_COUNT_BLOCKS


# The sight-grid deltas of the intervening hexes of the line from (0, 0) to a
# relative hex, by relative hex (``_line_cells``); cleared when it holds this many.
_LINE_CELLS: dict[tuple[int, int], np.ndarray] = {}
_LINE_CELLS_KEPT = 4096


def _line_cells(dq: int, dr: int) -> np.ndarray:
    """Sight-grid deltas of the intervening hexes of the line from (0, 0) to
    ``(dq, dr)`` (two hexes apart or more; padding may follow): read from the
    table or drawn once, kept while few (``in_sight`` asks the same relative
    lines again and again)."""
    held = _LINE_CELLS.get((dq, dr))
    if held is None:
        n = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if len(_LINE_CELLS) >= _LINE_CELLS_KEPT:
            _LINE_CELLS.clear()
        limit = _LINES.limit
        row = -1
        if n <= limit:
            row = int(_LINES.row_of[(dq + limit) * (2 * limit + 1) + dr + limit])
        first = 1
        parts = []
        if row >= 0:  # the steps the table holds (padding past the line's end never blocks)
            held_chunks = min(-(-(n - 1) // CHUNK_STEPS), len(_LINES.segment_of))
            parts = [_LINES.steps(c, row) for c in range(held_chunks)]
            first = held_chunks * CHUNK_STEPS + 1
        if first < n:  # the rest drawn
            parts.append(_deltas(np.array([dq]), np.array([dr]), first, n - first)[0])
        held = _LINE_CELLS[(dq, dr)] = np.concatenate(parts).astype(np.intp)
    return held


__all__ = [
    "DEFAULT_TARGET_HEIGHT",
    "DEFAULT_VIEWER_HEIGHT",
    "Sight",
    "in_sight",
    "line_of_sight",
    "line_steps",
    "visible_from",
    "visible_hexes",
]
