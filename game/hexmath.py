"""Hex mathematics on one global flat-top lattice (MAP-1, MAP-2).

Inside the game every hex is an axial coordinate ``Hex(q, r)`` (cube ``x = q``,
``z = r``, ``y = -q - r``). Files and players name hexes by sheet and ``XXYY``;
that conversion lives in ``game.board``. The global offset layout is odd-q:
0-based odd global columns sit half a hex lower than even ones.

Directions are numbered as on the artillery scatter diagram (ART-12), map
relative: 1 north, 2 north-east, 3 south-east, 4 south, 5 south-west,
6 north-west.

Everything here is exact integer arithmetic except the pixel conversions:
the hex line uses rational interpolation with an infinitesimal nudge, so a
line never depends on float rounding and never rounds toward zero on negative
coordinates.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import NamedTuple

import numpy as np

SQRT3 = math.sqrt(3.0)


class Hex(NamedTuple):
    """An axial hex on the global lattice: hashable and ordered."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate."""
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:  # type: ignore[override]
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scaled(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    def __str__(self) -> str:
        return f"({self.q},{self.r})"


# ART-12: scatter diagram numbering, map relative (flat-top hexes).
DIRECTIONS: dict[int, Hex] = {
    1: Hex(0, -1),  # north
    2: Hex(1, -1),  # north-east
    3: Hex(1, 0),  # south-east
    4: Hex(0, 1),  # south
    5: Hex(-1, 1),  # south-west
    6: Hex(-1, 0),  # north-west
}
DIRECTION_NAMES: dict[int, str] = {
    1: "north",
    2: "north-east",
    3: "south-east",
    4: "south",
    5: "south-west",
    6: "north-west",
}
DIRECTION_SHORT: dict[int, str] = {1: "N", 2: "NE", 3: "SE", 4: "S", 5: "SW", 6: "NW"}


def opposite(direction: int) -> int:
    """The direction pointing the other way (1 <-> 4, 2 <-> 5, 3 <-> 6)."""
    _check_direction(direction)
    return (direction + 2) % 6 + 1


def _check_direction(direction: int) -> None:
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be 1..6 (1 north, clockwise), not {direction!r}")


# --- offset <-> axial --------------------------------------------------------


def from_offset(col: int, row: int) -> Hex:
    """Global odd-q offset (column, row) to axial. Negative values allowed."""
    return Hex(col, row - (col - (col & 1)) // 2)


def to_offset(h: Hex) -> tuple[int, int]:
    """Axial to global odd-q offset (column, row)."""
    return h.q, h.r + (h.q - (h.q & 1)) // 2


# --- distance, neighbours, runs -----------------------------------------------


def distance(a: Hex, b: Hex) -> int:
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbor(h: Hex, direction: int) -> Hex:
    """The adjacent hex in scatter-diagram direction 1..6."""
    _check_direction(direction)
    d = DIRECTIONS[direction]
    return Hex(h.q + d.q, h.r + d.r)


def neighbors(h: Hex) -> list[Hex]:
    """The six adjacent hexes, in direction order 1..6."""
    return [Hex(h.q + d.q, h.r + d.r) for d in DIRECTIONS.values()]


def side_toward(origin: Hex, toward: Hex) -> int:
    """The hex side (1..6) of ``origin`` that the straight line to ``toward`` crosses.

    The first step of the exact hex line is the neighbour behind that side;
    the line's nudge settles a line through a hex corner the same way
    everywhere. Used for announced directions (ART-24) and attack directions
    (ART-27).
    """
    if origin == toward:
        raise ValueError(f"no side of {origin} points toward itself")
    first = _line_point(origin, toward, distance(origin, toward), 1)
    delta = Hex(first.q - origin.q, first.r - origin.r)
    for direction, d in DIRECTIONS.items():
        if d == delta:
            return direction
    raise AssertionError(f"hex line step {delta} is not a neighbour")  # pragma: no cover


def straight_run(start: Hex, direction: int, n: int) -> list[Hex]:
    """The n hexes after ``start`` going straight in one direction (start excluded).

    This is the path of a scattering shell (ART-12): exact cube steps, so the
    last hex is always ``start + n * direction`` whatever the signs.
    """
    _check_direction(direction)
    if n < 0:
        raise ValueError(f"a run has a non-negative length, not {n}")
    d = DIRECTIONS[direction]
    return [Hex(start.q + d.q * k, start.r + d.r * k) for k in range(1, n + 1)]


def step(start: Hex, direction: int, n: int) -> Hex:
    """The hex n steps from ``start`` in one direction (n may be 0)."""
    _check_direction(direction)
    d = DIRECTIONS[direction]
    return Hex(start.q + d.q * n, start.r + d.r * n)


# --- the hex line -------------------------------------------------------------

# The nudge added to every interpolated cube point, as multiples of an
# infinitesimal epsilon (x, y, z); it sums to zero so points stay in the plane.
# A positive x/y nudge and negative z nudge breaks ties the same way everywhere.
_NUDGE = (1, 2, -3)


def _round_component(num: int, n: int, nudge: int) -> int:
    """Nearest integer to num/n + nudge*eps, exactly."""
    base, rem = divmod(num, n)  # floor division: correct for negatives
    twice = 2 * rem
    if twice > n:
        return base + 1
    if twice < n:
        return base
    return base + 1 if nudge > 0 else base


def _round_error(rounded: int, num: int, n: int, nudge: int) -> tuple[int, int]:
    """|rounded - (num/n + nudge*eps)| as a comparable (numerator, eps) pair."""
    diff = rounded * n - num
    if diff > 0:
        return diff, -nudge
    if diff < 0:
        return -diff, nudge
    return 0, abs(nudge)


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the line from a to b, both ends included (distance + 1 hexes).

    Cube interpolation with exact rational arithmetic and a consistent nudge
    (MAP-5): each hex is adjacent to the one before, and the same pair always
    gives the same line.
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    # Lines are the same under translation (the rounding below shifts with ``a``
    # by whole hexes), so each relative line is worked out once and kept.
    key = (b.q - a.q, b.r - a.r)
    steps = _RELATIVE_LINES.get(key)
    if steps is None:
        if len(_RELATIVE_LINES) >= _RELATIVE_LINES_KEPT:
            _RELATIVE_LINES.clear()
        origin, end = Hex(0, 0), Hex(*key)
        steps = _RELATIVE_LINES[key] = tuple(_line_point(origin, end, n, i) for i in range(n + 1))
    aq, ar = a.q, a.r
    return [Hex(aq + q, ar + r) for q, r in steps]


# ``line`` from (0, 0) to each relative hex asked, kept while they are few.
_RELATIVE_LINES: dict[tuple[int, int], tuple[Hex, ...]] = {}
_RELATIVE_LINES_KEPT = 4096


def _line_point(a: Hex, b: Hex, n: int, i: int) -> Hex:
    """The ``i``-th hex of the line from a to b, ``n`` hexes apart."""
    ax, az = a.q, a.r
    ay = -ax - az
    dx, dz = b.q - ax, b.r - az
    # _round_component inlined (this runs for every hex of every line): a tie
    # goes up for x and y (nudges +1, +2), down for z (nudge -3).
    numx, numy, numz = ax * n + dx * i, ay * n - (dx + dz) * i, az * n + dz * i
    rx, remx = divmod(numx, n)
    ry, remy = divmod(numy, n)
    rz, remz = divmod(numz, n)
    rx += 2 * remx >= n
    ry += 2 * remy >= n
    rz += 2 * remz > n
    if rx + ry + rz == 0:
        return Hex(rx, rz)
    ex = _round_error(rx, numx, n, _NUDGE[0])
    ey = _round_error(ry, numy, n, _NUDGE[1])
    ez = _round_error(rz, numz, n, _NUDGE[2])
    if ex > ey and ex > ez:
        rx = -ry - rz
    elif ey > ez:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return Hex(rx, rz)


# --- rings and disks ------------------------------------------------------------


def ring(center: Hex, radius: int) -> list[Hex]:
    """The 6 * radius hexes at exactly ``radius`` from center (radius 0: the centre)."""
    if radius < 0:
        raise ValueError(f"a ring has a non-negative radius, not {radius}")
    if radius == 0:
        return [center]
    out: list[Hex] = []
    # Start at the south-west corner and walk the six sides clockwise-from-north.
    h = step(center, 5, radius)
    for direction in (1, 2, 3, 4, 5, 6):
        for _ in range(radius):
            out.append(h)
            h = neighbor(h, direction)
    return out


def disk(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` of center (centre first, then ring by ring)."""
    return [h for _, h in spiral(center, radius)]


def spiral(center: Hex, radius: int) -> Iterator[tuple[int, Hex]]:
    """(distance, hex) for every hex within radius, nearest first."""
    # A negative radius is a mistake, as for ``ring``, not an empty disk.
    if radius < 0:
        raise ValueError(f"a disk has a non-negative radius, not {radius}")
    for k in range(radius + 1):
        for h in ring(center, k):
            yield k, h


# --- pixels (flat-top) ----------------------------------------------------------


def hex_to_pixel(h: Hex, size: float) -> tuple[float, float]:
    """Centre of a hex in pixels; size is the centre-to-corner radius; y grows down."""
    return size * 1.5 * h.q, size * SQRT3 * (h.r + h.q / 2.0)


def pixel_to_hex(x: float, y: float, size: float) -> Hex:
    """The hex containing a pixel (mouse picking)."""
    fq = (2.0 / 3.0 * x) / size
    fr = (-1.0 / 3.0 * x + SQRT3 / 3.0 * y) / size
    return cube_round(fq, fr)


def cube_round(fq: float, fr: float) -> Hex:
    """Nearest hex to fractional axial coordinates."""
    fs = -fq - fr
    q = math.floor(fq + 0.5)
    r = math.floor(fr + 0.5)
    s = math.floor(fs + 0.5)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def hex_corners(h: Hex, size: float) -> list[tuple[float, float]]:
    """The six corner points of a flat-top hex, starting east, clockwise (y down)."""
    cx, cy = hex_to_pixel(h, size)
    return [
        (cx + size * math.cos(math.radians(60 * k)), cy + size * math.sin(math.radians(60 * k)))
        for k in range(6)
    ]


# --- numpy versions for many hexes at once ----------------------------------------


def as_arrays(hexes: Iterable[Hex]) -> tuple[np.ndarray, np.ndarray]:
    """Split hexes into int32 arrays of q and r."""
    pairs = list(hexes)
    if not pairs:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    arr = np.asarray(pairs, dtype=np.int32)
    return arr[:, 0].copy(), arr[:, 1].copy()


def distances(center: Hex, q: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Distance from one hex to arrays of hexes (same shape as q and r)."""
    dq = q - center.q
    dr = r - center.r
    if not isinstance(dq, np.ndarray) or not isinstance(dr, np.ndarray) or dq.shape != dr.shape:
        return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    # The largest of the three cube differences (half their sum): fewer passes,
    # and no array made beyond the three differences.
    ds = dq + dr
    np.abs(dq, out=dq)
    np.maximum(dq, np.abs(dr, out=dr), out=dq)
    return np.maximum(dq, np.abs(ds, out=ds), out=dq)


def ring_mask(center: Hex, q: np.ndarray, r: np.ndarray, radius: int) -> np.ndarray:
    """Boolean mask of the hexes at exactly ``radius`` from center."""
    return distances(center, q, r) == radius


def disk_mask(center: Hex, q: np.ndarray, r: np.ndarray, radius: int) -> np.ndarray:
    """Boolean mask of the hexes within ``radius`` of center."""
    return distances(center, q, r) <= radius


def offsets_to_axial(cols: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorized ``from_offset``."""
    cols = np.asarray(cols)
    rows = np.asarray(rows)
    return cols, rows - (cols - (cols & 1)) // 2


def axial_to_offsets(q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorized ``to_offset``."""
    q = np.asarray(q)
    r = np.asarray(r)
    return q, r + (q - (q & 1)) // 2
