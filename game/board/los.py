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
    for name, value in (("viewer_height", viewer_height), ("target_height", target_height)):
        if not isinstance(value, int | np.integer) or isinstance(value, bool):
            raise ValueError(f"{name} must be a whole number of levels, not {value!r}")


def _level_at(area: PlayArea, h: Hex) -> int:
    idx = area.index_of(h)
    return int(area.level[idx]) if idx >= 0 else 0


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
    viewer_eye = _level_at(area, a) + int(viewer_height)
    target_eye = _level_at(area, b) + int(target_height)
    above = max(viewer_eye, target_eye)
    woods_total = 0
    woods_hexes: list[Hex] = []
    blocking: Hex | None = None
    reason = ""
    for h in path[1:-1]:
        idx = area.index_of(h)
        if idx >= 0:
            top = int(area.obstacle_top[idx])
            woods = int(area.woods[idx])
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

# Nudges per cube component (x, y, z), as in game.hexmath.line.
_NUDGE = (1, 2, -3)


def line_steps(
    bq: np.ndarray, br: np.ndarray, steps: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hexes 1..steps of ``line(Hex(0, 0), Hex(bq, br))`` for arrays of ends, exactly.

    The same rational rounding and nudge as ``game.hexmath.line``, vectorized
    (lines are translation invariant, so ``a + line(0, b - a)`` is ``line(a, b)``):
    returns ``(q, r, valid)`` of shape ``(len(bq), steps)``; ``valid`` is False
    past the end of a line (step >= distance).
    """
    bq = np.asarray(bq, dtype=np.int32)[:, None]
    br = np.asarray(br, dtype=np.int32)[:, None]
    bs = -bq - br
    n = (np.abs(bq) + np.abs(br) + np.abs(bs)) // 2
    ns = np.maximum(n, 1)
    i = np.arange(1, steps + 1, dtype=np.int32)[None, :]
    rounded = []
    keys = []
    for b_comp, nudge in zip((bq, bs, br), _NUDGE, strict=True):
        base, rem = np.divmod(b_comp * i, ns)
        twice = 2 * rem
        # Nearest integer to b*i/n + nudge*eps: a tie goes up when the nudge is positive.
        up = (twice >= ns) if nudge > 0 else (twice > ns)
        rounded.append(base + up)
        # |rounded - point| as one integer: the distance in 1/n first, then the
        # eps term (-nudge above the point, +nudge below, |nudge| when exact).
        err = np.where(up, ns - rem, rem)
        eps = np.where(rem == 0, abs(nudge), np.where(up, -nudge, nudge))
        keys.append(err * 8 + (eps + 4))
    rx, ry, rz = rounded
    ex, ey, ez = keys
    fix_x = (ex > ey) & (ex > ez)
    fix_z = ~fix_x & (ey <= ez)
    q = np.where(fix_x, -ry - rz, rx)
    r = np.where(fix_z, -rx - ry, rz)
    return q, r, np.broadcast_to(i < n, q.shape)


# The sight grid: obstacle top and woods of each cell packed in one int32
# (top * _PACK + woods) so one gather serves both sums; a fixed row stride keeps
# the relative-line tables independent of the area's shape, so one table
# serves every area and survives mobile-map growth.
_PACK = 1024
_STRIDE = 1024
# Table padding points this many rows below the viewer, into the unused rows
# of its column, which hold a top far below any eye level and no woods.
_PAD = _STRIDE // 2
_NEVER_BLOCKS = -20_000 * _PACK
# Largest relative-line table kept per column parity (entries); a larger area
# makes ``visible_from`` compute its lines per call instead (same answers).
TABLE_BUDGET = 20_000_000
# Gathered entries per slab of columns in ``visible_from`` (fits in cache).
_SLAB_ENTRIES = 32_768


class _Table:
    """Intervening hexes of every line within ``half_w`` columns and ``half_h`` rows.

    ``deltas[dc + half_w, dr + half_h, k]`` is the sight-grid delta
    (``dcol * _STRIDE + drow``) of intervening hex k + 1 on the line from a viewer
    in a column of ``parity`` to the hex ``dc`` columns and ``dr`` offset rows
    away, or ``_PAD`` past the line's end. In offset coordinates a line depends
    only on the relative position and the parity of the viewer's column.
    """

    def __init__(self, half_w: int, half_h: int, parity: int) -> None:
        self.half_w = half_w
        self.half_h = half_h
        dc, dr = np.meshgrid(
            np.arange(-half_w, half_w + 1, dtype=np.int32),
            np.arange(-half_h, half_h + 1, dtype=np.int32),
            indexing="ij",
        )
        dc = dc.ravel()
        dr = dr.ravel()
        # The target relative to a viewer at offset (parity, 0), axial (parity, 0).
        col = parity + dc
        bq = dc
        br = dr - (col - (col & 1)) // 2
        self.steps = max(int(((np.abs(bq) + np.abs(br) + np.abs(bq + br)) // 2).max()) - 1, 1)
        deltas = np.empty((dc.size, self.steps), dtype=np.int32)
        chunk = max(1, 16_384 // self.steps)  # small blocks stay in cache
        for start in range(0, dc.size, chunk):
            stop = min(start + chunk, dc.size)
            sq, sr, valid = line_steps(bq[start:stop], br[start:stop], self.steps)
            scol = parity + sq
            drow = sr + (scol - (scol & 1)) // 2
            # The gather relies on this: a line stays within its ends' columns and
            # at most one row beyond their rows (the margin of the area's grid).
            ec = dc[start:stop, None]
            er = dr[start:stop, None]
            stray = valid & (
                (sq < np.minimum(ec, 0))
                | (sq > np.maximum(ec, 0))
                | (drow < np.minimum(er, 0) - 1)
                | (drow > np.maximum(er, 0) + 1)
            )
            if stray.any():  # pragma: no cover - geometry invariant
                raise AssertionError("a hex line strays beyond the margin of the sight grid")
            deltas[start:stop] = np.where(valid, sq * _STRIDE + drow, _PAD)
        self.deltas = deltas.reshape(2 * half_w + 1, 2 * half_h + 1, self.steps)
        self.deltas.flags.writeable = False


_TABLES: dict[int, _Table] = {}


def _table_entries(half_w: int, half_h: int) -> int:
    # The longest line in the box, minus one, bounds the steps.
    return (2 * half_w + 1) * (2 * half_h + 1) * (half_w + half_h)


def _rounded(half: int) -> int:
    # Tables grow in steps of 16 so that a growing area rarely rebuilds them.
    return max(16, -(-half // 16) * 16)


def _table(half_w: int, half_h: int, parity: int) -> _Table:
    """The cached table for a column parity, rebuilt larger when an area outgrows it."""
    table = _TABLES.get(parity)
    if table is None or table.half_w < half_w or table.half_h < half_h:
        if table is not None:
            del _TABLES[parity]
            # Keep covering what the old table covered and grow by a quarter, when
            # that stays in budget: a play area growing sheet by sheet (mobile maps)
            # then rebuilds the table a few times a game, not at every new sheet.
            wide = max(half_w, _rounded(table.half_w * 5 // 4))
            tall = max(half_h, _rounded(table.half_h * 5 // 4))
            if _table_entries(wide, tall) <= TABLE_BUDGET:
                half_w, half_h = wide, tall
            elif _table_entries(max(half_w, table.half_w), max(half_h, table.half_h)) <= (
                TABLE_BUDGET
            ):
                half_w, half_h = max(half_w, table.half_w), max(half_h, table.half_h)
        table = _TABLES[parity] = _Table(half_w, half_h, parity)
    return table


@dataclass
class _Grids:
    revision: int
    width: int
    height: int
    code: np.ndarray  # (width * _STRIDE,) packed top/woods; rows >= height never block
    level: np.ndarray  # (width, height) ground level, 0 off the area
    q: np.ndarray  # (width, height) axial q of each cell
    r: np.ndarray
    cells: np.ndarray  # (width, height) flat cell of each area hex, in area order


_GRIDS: weakref.WeakKeyDictionary[PlayArea, _Grids] = weakref.WeakKeyDictionary()


def _grids(area: PlayArea) -> _Grids:
    cached = _GRIDS.get(area)
    if cached is not None and cached.revision == area.revision:
        return cached
    width, height = area.grid.shape
    c0, r0 = area.grid_origin
    col, row = np.meshgrid(
        np.arange(c0, c0 + width, dtype=np.int32),
        np.arange(r0, r0 + height, dtype=np.int32),
        indexing="ij",
    )
    code = np.full((width, _STRIDE), _NEVER_BLOCKS, dtype=np.int32)
    code[:, :height] = 0  # MAP-5 decision: off-area hexes are open level-0 ground
    x = area.col - c0
    y = area.row - r0
    code[x, y] = area.obstacle_top.astype(np.int32) * _PACK + area.woods
    level = np.zeros((width, height), dtype=np.int32)
    level[x, y] = area.level
    built = _Grids(
        revision=area.revision,
        width=width,
        height=height,
        code=code.ravel(),
        level=level,
        q=col,
        r=row - (col - (col & 1)) // 2,
        cells=x.astype(np.int64) * height + y,
    )
    _GRIDS[area] = built
    return built


def visible_from(
    area: PlayArea,
    viewer: Hex,
    max_range: int | None = None,
    viewer_height: int = DEFAULT_VIEWER_HEIGHT,
    target_height: int = DEFAULT_TARGET_HEIGHT,
) -> np.ndarray:
    """MAP-5: boolean mask over the area arrays (``area.q``, ``area.r``) of the hexes
    ``viewer`` sees; exactly ``line_of_sight(area, viewer, h, ...).visible`` for each.

    ``max_range`` (hexes) leaves farther hexes False. The viewer may stand
    outside the area (its ground is then level 0).
    """
    _check_heights(viewer_height, target_height)
    if max_range is not None and (
        not isinstance(max_range, int | np.integer) or isinstance(max_range, bool) or max_range < 0
    ):
        raise ValueError(
            f"max_range must be a whole number of hexes (0 or more) or None, not {max_range!r}"
        )
    viewer = Hex(int(viewer[0]), int(viewer[1]))
    g = _grids(area)
    c0, r0 = area.grid_origin
    vcol = viewer.q
    vrow = viewer.r + (vcol - (vcol & 1)) // 2
    x, y = vcol - c0, vrow - r0
    # The tables need the viewer inside the grid's margin, so that every line
    # stays in the grid, and padding rows below every used row.
    inside = 1 <= x < g.width - 1 and 1 <= y < g.height - 1
    # Viewer and targets lie inside the margin: at most width - 3 columns apart,
    # and within max_range columns and offset rows when a range is given.
    reach_w, reach_h = g.width - 3, g.height - 3
    if max_range is not None:
        reach_w, reach_h = min(reach_w, int(max_range)), min(reach_h, int(max_range))
    half_w, half_h = _rounded(reach_w), _rounded(reach_h)
    fits = g.height <= _PAD and _table_entries(half_w, half_h) <= TABLE_BUDGET
    if not (inside and fits):
        return _visible_from_lines(area, viewer, max_range, viewer_height, target_height)

    viewer_eye = int(g.level[x, y]) + int(viewer_height)
    # The window of cells to answer (the margin holds no area hex): the
    # whole bounding box, or the part of it within range.
    x_lo, x_hi, y_lo, y_hi = 1, g.width - 1, 1, g.height - 1
    if max_range is not None:
        x_lo, x_hi = max(x_lo, x - max_range), min(x_hi, x + max_range + 1)
        y_lo, y_hi = max(y_lo, y - max_range), min(y_hi, y + max_range + 1)
    dist = distances(viewer, g.q[x_lo:x_hi, y_lo:y_hi], g.r[x_lo:x_hi, y_lo:y_hi])
    steps = int(dist.max()) - 1
    if max_range is not None:
        steps = min(steps, max_range - 1)
    threshold = np.maximum(g.level[x_lo:x_hi, y_lo:y_hi] + int(target_height), viewer_eye)
    seen = np.ones(dist.shape, dtype=bool)
    if steps > 0:
        table = _table(half_w, half_h, vcol & 1)
        ox, oy = table.half_w - x, table.half_h - y
        base = np.int32(x * _STRIDE + y)
        # Slabs of columns small enough to stay in cache, each only as deep as
        # its own longest line.
        width = max(1, _SLAB_ENTRIES // ((y_hi - y_lo) * steps))
        for a in range(0, x_hi - x_lo, width):
            b = min(a + width, x_hi - x_lo)
            depth = min(steps, int(dist[a:b].max()) - 1)
            if depth <= 0:
                continue
            window = table.deltas[ox + x_lo + a : ox + x_lo + b, oy + y_lo : oy + y_hi, :depth]
            packed = g.code.take(window + base)
            top = packed.max(axis=2) // _PACK
            # Tops and padding add whole multiples of _PACK (summed in int64); the
            # woods sum stays below _PACK (2 per hex, lines under 512 hexes).
            woods = packed.sum(axis=2) % _PACK
            seen[a:b] = (top <= threshold[a:b]) & (woods < WOODS_COUNT_BLOCKS)
    if max_range is not None:
        seen &= dist <= max_range
    full = np.zeros((g.width, g.height), dtype=bool)
    full[x_lo:x_hi, y_lo:y_hi] = seen
    return full.ravel()[g.cells]


def _visible_from_lines(
    area: PlayArea,
    viewer: Hex,
    max_range: int | None,
    viewer_height: int,
    target_height: int,
) -> np.ndarray:
    """``visible_from`` computing each line on the spot (viewer off the grid, huge areas)."""
    n_hex = len(area)
    out = np.zeros(n_hex, dtype=bool)
    vidx = area.index_of(viewer)
    viewer_eye = (int(area.level[vidx]) if vidx >= 0 else 0) + int(viewer_height)
    dist = distances(viewer, area.q, area.r)
    todo = np.arange(n_hex) if max_range is None else np.nonzero(dist <= max_range)[0]
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
    """``bool(line_of_sight(...))``: the yes/no answer without the explanation."""
    return line_of_sight(area, a, b, viewer_height, target_height).visible


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
