"""The map layer: a ``PlayArea`` drawn from cached pre-rendered sheet surfaces.

Public API (all drawing takes a target surface and a ``Camera``)::

    layer = MapLayer(area)                   # area: game.board.area.PlayArea
    camera.set_bounds(layer.world_bounds())   # again whenever the area grows
    layer.draw(screen, camera)               # terrain: blits visible cached sheets
    layer.draw(screen, camera, render_budget=0.008)  # zooming: spread new renders over frames
    layer.draw_sides(screen, camera)         # half-line and home edges (MAP-3)
    layer.side_labels(camera) / layer.sheet_labels(camera)  # their labels, for the placer
    layer.draw_highlight(screen, camera, hexes, colour, alpha=96, outline=None)
    layer.set_building_cf({hex: cf})         # damaged buildings: re-renders their sheets only
    layer.invalidate_sheet(pos) / layer.invalidate_hex(h)
    hover_lines(area, h, building_cf=None, extra=None) -> list[str]   # tooltip text

Caching (DESIGN principle 10). Each sheet has one pre-rendered surface per
zoom level, made the first time the sheet is visible at that zoom and kept in
an LRU bounded by ``cache_limit`` bytes (the surfaces the current frame shows
are never evicted, so one frame may go over the bound). A surface holds exactly that sheet's
255 hexes (MAP-2: a sheet at an odd ``i`` has its half-hex saw-toothed edge),
drawn at ``hexmath.hex_to_pixel`` positions relative to the surface origin,
which is the sheet's bounding box in zoom pixels; outside its hexes a surface is
transparent (colour key), so neighbouring sheets interlock. A frame is one
blit per visible sheet plus overlays. When the area grows (``add_sheet``
raises ``area.revision``) only the new sheet is rendered; the other sheets keep
their surfaces. ``draw(..., cached=False)`` paints every visible hex directly
instead: the benchmark baseline.

A sheet's surface depends only on that sheet (roads that reach the sheet's
edge run on to the edge, so they meet the road of a neighbouring sheet
without either surface knowing the other), which is what lets one sheet be
re-rendered alone.

What is drawn: ground shaded by level with contour lines between levels and
level numbers at near zooms; light and heavy woods as tree crowns (flat tints
at far zooms); rough as stones; water shaded by depth with waves and a shore
line; roads as continuous lines through hex centres, bridges over water;
buildings as blocks with a shadow growing with height, CF and height numbers
at near zooms; a subtle hex grid; thick sheet borders; ``XXYY`` names at the
two nearest zooms. Sheet positions and names at far zooms, the home edges' and
the half-line's names are labels (``game.ui.labels``), placed each frame clear
of the panels and of each other, not painted into the caches.
"""

from __future__ import annotations

import math
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np
import pygame

from game.board.area import PlayArea, SheetPosition, locate, sheet_hex
from game.board.sheet import SHEET_COLS, SHEET_ROWS, Sheet, format_xxyy
from game.board.terrain import (
    BUILDING,
    HEAVY_WOODS,
    LIGHT_WOODS,
    ROUGH,
    TERRAIN_NAMES,
    WATER,
)
from game.hexmath import DIRECTIONS, SQRT3, Hex, from_offset, hex_to_pixel, neighbor
from game.ui import fonts, labels, theme
from game.ui.camera import ZOOM_SIZES, Camera, WorldRect
from game.ui.labels import Label

# Columns (rows) of the half-line worked out and cached together.
_HALF_LINE_CHUNK = 48
# Transparent colour of sheet surfaces; never used by the palette.
COLOUR_KEY = (255, 0, 255)
# Default memory bound of the sheet caches (bytes of pixels).
DEFAULT_CACHE_LIMIT = 256 * 1024 * 1024
# Zoom thresholds by hex size (px).
DETAIL_SIZE = 12  # tree crowns, stones and hill shading from here on
WAVE_SIZE = 18  # wave marks on water
ROAD_DETAIL_SIZE = 18  # roads with a casing and bridges with rails from here on
LEVEL_LABEL_SIZE = 26  # level numbers and water depths
NEAR_SIZE = 36  # hex names and building numbers: the two nearest zooms
SHEET_LABEL_MAX_SIZE = 12  # sheet position labels at far zooms

# Unit corner offsets of a flat-top hex, starting east, clockwise (y down).
_CORNERS = tuple((math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))) for k in range(6))


def edge_corners(direction: int) -> tuple[int, int]:
    """Corner indices (0 east, clockwise) of the hex side facing ``direction`` 1..6."""
    return (direction + 3) % 6, (direction + 4) % 6


# --- sheet geometry ------------------------------------------------------------------


@cache
def _local_neighbours() -> tuple[tuple[tuple[int, int] | None, ...], ...]:
    """For local hex k = row * 15 + col: the local (col, row) of its neighbour in each
    direction 1..6 (tuple index 0..5), or None when the neighbour is on another sheet.

    MAP-2 keeps every sheet's internal adjacency the same wherever it lies, so
    one table serves all positions.
    """
    table = []
    for row in range(SHEET_ROWS):
        for col in range(SHEET_COLS):
            h = sheet_hex((0, 0), col, row)
            out: list[tuple[int, int] | None] = []
            for d in DIRECTIONS:
                pos, c, r = locate(neighbor(h, d))
                out.append((c, r) if pos == (0, 0) else None)
            table.append(tuple(out))
    return tuple(table)


@dataclass(frozen=True)
class SheetGeometry:
    """Where a sheet position's hexes lie in world units (hex size 1)."""

    pos: SheetPosition
    hexes: tuple[Hex, ...]  # local row-major: index row * 15 + col
    centres: tuple[tuple[float, float], ...]
    bounds: WorldRect

    def pixel_rect(self, size: int) -> tuple[int, int, int, int]:
        """(x, y, w, h) of the sheet's surface in zoom-pixel space at hex size ``size``.

        A margin all round holds the half of the sheet border that lies outside
        the outermost hexes.
        """
        x0, y0, x1, y1 = self.bounds
        pad = max(2, size // 8)
        left = math.floor(x0 * size) - pad
        top = math.floor(y0 * size) - pad
        right = math.ceil(x1 * size) + pad
        bottom = math.ceil(y1 * size) + pad
        return left, top, right - left, bottom - top


@cache
def sheet_geometry(pos: SheetPosition) -> SheetGeometry:
    """MAP-2 geometry of a sheet position (any position, in the area or not)."""
    hexes = tuple(
        sheet_hex(pos, col, row) for row in range(SHEET_ROWS) for col in range(SHEET_COLS)
    )
    centres = tuple(hex_to_pixel(h, 1.0) for h in hexes)
    xs = [c[0] for c in centres]
    ys = [c[1] for c in centres]
    half = SQRT3 / 2
    bounds = (min(xs) - 1.0, min(ys) - half, max(xs) + 1.0, max(ys) + half)
    return SheetGeometry(pos, hexes, centres, bounds)


def world_bounds(area: PlayArea) -> WorldRect:
    """The world rectangle covering every sheet of the area."""
    rects = [sheet_geometry(pos).bounds for pos in area.positions]
    return (
        min(r[0] for r in rects),
        min(r[1] for r in rects),
        max(r[2] for r in rects),
        max(r[3] for r in rects),
    )


def _overlaps(a: WorldRect, b: WorldRect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# --- decoration layouts (fixed, so a hex looks the same at every zoom and every run) ---


@cache
def _scatter(kind: str, variant: int) -> tuple[tuple[float, float, float], ...]:
    """Points (x, y, radius) in unit-hex space for tree crowns, stones and waves.

    Dart throwing with a fixed seed per (kind, variant): decoration only, never
    game randomness.
    """
    spec = {
        # count range, radius range, min spacing, max distance of a centre from the hex centre
        "light": ((5, 7), (0.15, 0.20), 0.33, 0.62),
        "heavy": ((10, 13), (0.19, 0.25), 0.24, 0.64),
        "rough": ((6, 9), (0.045, 0.085), 0.2, 0.66),
        "wave": ((2, 3), (0.0, 0.0), 0.42, 0.45),
    }[kind]
    (n_lo, n_hi), (r_lo, r_hi), spacing, reach = spec
    rng = np.random.default_rng(_seed(kind, variant))
    target = int(rng.integers(n_lo, n_hi + 1))
    points: list[tuple[float, float, float]] = []
    for _ in range(400):
        if len(points) >= target:
            break
        x, y = rng.uniform(-reach, reach, 2)
        if x * x + y * y > reach * reach:
            continue
        if any((x - px) ** 2 + (y - py) ** 2 < spacing * spacing for px, py, _ in points):
            continue
        points.append((float(x), float(y), float(rng.uniform(r_lo, r_hi))))
    points.sort(key=lambda p: p[1])  # back to front
    return tuple(points)


def _seed(kind: str, variant: int) -> int:
    return sum(ord(ch) * 131**k for k, ch in enumerate(kind)) * 7919 + variant


_VARIANTS = 8


def _variant(h: Hex) -> int:
    return (h.q * 73_856_093 ^ h.r * 19_349_663) % _VARIANTS


# --- the painter ---------------------------------------------------------------------------


@dataclass
class _Style:
    """Sizes of the strokes and labels at one zoom level."""

    size: int
    grid_t: float
    contour: int
    cliff: int
    shore: int
    border: int
    road_casing: int
    road_fill: int

    @classmethod
    def at(cls, size: int) -> _Style:
        return cls(
            size=size,
            grid_t=0.1 if size <= 6 else 0.15 if size <= 8 else 0.24,
            contour=max(1, round(size / 12)),
            cliff=max(2, round(size / 7)),
            shore=max(1, round(size / 14)),
            border=max(2, round(size / 7)),
            road_casing=max(2, round(size * 0.26)),
            road_fill=max(1, round(size * 0.16)),
        )


# Unit outline of a building block (an L-shaped footprint reads as a house).
_BLOCK: tuple[tuple[float, float], ...] = (
    (-0.50, -0.34),
    (0.18, -0.34),
    (0.18, -0.10),
    (0.50, -0.10),
    (0.50, 0.36),
    (-0.50, 0.36),
)


def paint_sheet(
    target: pygame.Surface,
    sheet: Sheet,
    geometry: SheetGeometry,
    size: int,
    origin: tuple[int, int],
    building_cf: Mapping[Hex, int] | None = None,
    only: set[int] | None = None,
) -> None:
    """Draw one sheet's hexes on ``target`` with world point (0, 0) at ``-origin``.

    ``only`` limits drawing to those local hex indices (the uncached baseline
    draws just the visible hexes). ``building_cf`` overrides the printed CF of
    damaged buildings (0: destroyed).
    """
    style = _Style.at(size)
    ox, oy = origin
    s = float(size)
    table = _local_neighbours()
    level = sheet.level.ravel().tolist()
    terrain = sheet.terrain.ravel().tolist()
    depth = sheet.water_depth.ravel().tolist()
    road = sheet.road.ravel().tolist()
    cf = sheet.building_cf.ravel().tolist()
    height = sheet.building_height.ravel().tolist()
    if building_cf:
        for k, h in enumerate(geometry.hexes):
            if terrain[k] == BUILDING and h in building_cf:
                cf[k] = int(building_cf[h])
    indices = range(len(geometry.hexes)) if only is None else sorted(only)
    centres = [(cx * s - ox, cy * s - oy) for cx, cy in geometry.centres]
    corner_cache: dict[int, list[tuple[int, int]]] = {}

    def corners(k: int) -> list[tuple[int, int]]:
        pts = corner_cache.get(k)
        if pts is None:
            x, y = centres[k]
            pts = [(round(x + s * ux), round(y + s * uy)) for ux, uy in _CORNERS]
            corner_cache[k] = pts
        return pts

    near = size >= DETAIL_SIZE
    fills: dict[int, theme.Colour] = {}
    for k in indices:
        fills[k] = _fill_colour(terrain[k], level[k], depth[k], near)
        pygame.draw.polygon(target, fills[k], corners(k))
    if near:
        _paint_relief(target, indices, table, terrain, level, fills, centres, corners)
        for k in indices:
            _paint_pattern(target, terrain[k], centres[k], s, geometry.hexes[k], depth[k])
    # Grid: each hex outlined in a darker shade of its own fill, so it stays subtle.
    for k in indices:
        pygame.draw.polygon(
            target, theme.mix(fills[k], theme.GRID_INK, style.grid_t), corners(k), 1
        )
    _paint_edges(target, indices, table, terrain, level, corners, style)
    _paint_roads(target, indices, table, terrain, road, centres, corners, style)
    for k in indices:
        if terrain[k] == BUILDING:
            _paint_building(target, centres[k], s, cf[k], height[k])
    _paint_labels(target, indices, terrain, level, depth, centres, s)
    # Sheet border: every side whose neighbour lies on another sheet.
    for k in indices:
        for d, other in enumerate(table[k], start=1):
            if other is None:
                a, b = edge_corners(d)
                pts = corners(k)
                pygame.draw.line(target, theme.SHEET_BORDER, pts[a], pts[b], style.border)


def _fill_colour(code: int, level: int, depth: int, near: bool) -> theme.Colour:
    base = theme.ground(level)
    if code == WATER:
        return theme.water(depth)
    if code == LIGHT_WOODS:
        return theme.mix(base, theme.LIGHT_WOODS_FAR, 0.3 if near else 0.75)
    if code == HEAVY_WOODS:
        return theme.mix(base, theme.HEAVY_WOODS_FLOOR, 0.55) if near else theme.HEAVY_WOODS_FAR
    if code == ROUGH:
        return theme.mix(base, theme.ROUGH_TINT, 0.45)
    return base


# Hill shading, light from the north-west: how much a slope facing each direction
# 1..6 is lit (positive) or shadowed (negative).
_SLOPE_LIGHT = {1: 0.5, 2: 0.1, 3: -0.6, 4: -0.8, 5: -0.2, 6: 0.8}
_RELIEF_DEPTH = 0.24  # how far into the higher hex the slope band reaches


def _paint_relief(
    target: pygame.Surface,
    indices: Iterable[int],
    table: tuple[tuple[tuple[int, int] | None, ...], ...],
    terrain: list[int],
    level: list[int],
    fills: dict[int, theme.Colour],
    centres: list[tuple[float, float]],
    corners: Callable[[int], list[tuple[int, int]]],
) -> None:
    """Elevation shading: inside a hex higher than its neighbour, a band along that
    side, lit or shadowed by the way the slope faces."""
    for k in indices:
        if terrain[k] == WATER:
            continue
        cx, cy = centres[k]
        pts = corners(k)
        for d, other in enumerate(table[k], start=1):
            if other is None:
                continue
            m = other[1] * SHEET_COLS + other[0]
            if level[m] >= level[k]:
                continue
            light = _SLOPE_LIGHT[d]
            tone = (
                theme.mix(fills[k], theme.RELIEF_LIGHT, 0.35 * light)
                if light > 0
                else theme.mix(fills[k], theme.RELIEF_SHADE, -0.3 * light)
            )
            a, b = edge_corners(d)
            (ax, ay), (bx, by) = pts[a], pts[b]
            t = _RELIEF_DEPTH
            band = [
                (ax, ay),
                (bx, by),
                (bx + (cx - bx) * t, by + (cy - by) * t),
                (ax + (cx - ax) * t, ay + (cy - ay) * t),
            ]
            pygame.draw.polygon(target, tone, band)


def _paint_pattern(
    target: pygame.Surface,
    code: int,
    centre: tuple[float, float],
    s: float,
    h: Hex,
    depth: int,
) -> None:
    x, y = centre
    if code in (LIGHT_WOODS, HEAVY_WOODS):
        heavy = code == HEAVY_WOODS
        crown = theme.HEAVY_WOODS_CROWN if heavy else theme.LIGHT_WOODS_CROWN
        edge = theme.HEAVY_WOODS_EDGE if heavy else theme.LIGHT_WOODS_EDGE
        light = theme.mix(crown, (255, 255, 220), 0.22)
        for ux, uy, ur in _scatter("heavy" if heavy else "light", _variant(h)):
            cx, cy, r = x + ux * s, y + uy * s, max(1.5, ur * s)
            pygame.draw.circle(target, edge, (cx, cy), r)
            pygame.draw.circle(target, crown, (cx - r * 0.12, cy - r * 0.12), r * 0.82)
            if r >= 4:
                pygame.draw.circle(target, light, (cx - r * 0.35, cy - r * 0.35), r * 0.3)
    elif code == ROUGH:
        for ux, uy, ur in _scatter("rough", _variant(h)):
            cx, cy, r = x + ux * s, y + uy * s, max(1.0, ur * s)
            pts = [
                (cx - r * 1.2, cy + r * 0.7),
                (cx - r * 0.3, cy - r * 0.9),
                (cx + r * 1.1, cy - r * 0.2),
                (cx + r * 0.9, cy + r * 0.8),
            ]
            pygame.draw.polygon(target, theme.ROUGH_STONE, pts)
            if r >= 2.5:
                pygame.draw.line(target, theme.ROUGH_STONE_LIGHT, pts[0], pts[1], 1)
    elif code == WATER and s >= WAVE_SIZE:
        colour = theme.mix(theme.water(depth), theme.WAVE, 0.55)
        for ux, uy, _ in _scatter("wave", _variant(h)):
            cx, cy = x + ux * s, y + uy * s
            half = 0.22 * s
            amp = 0.05 * s
            pts = [
                (cx - half + 2 * half * t / 8, cy + amp * math.sin(t / 8 * 2 * math.pi))
                for t in range(9)
            ]
            pygame.draw.lines(target, colour, False, pts, max(1, round(s / 22)))


def _paint_edges(
    target: pygame.Surface,
    indices: Iterable[int],
    table: tuple[tuple[tuple[int, int] | None, ...], ...],
    terrain: list[int],
    level: list[int],
    corners: Callable[[int], list[tuple[int, int]]],
    style: _Style,
) -> None:
    """Contour lines between levels (thicker for a drop of two or more) and shore lines."""
    for k in indices:
        pts = corners(k)
        for d, other in enumerate(table[k], start=1):
            if other is None:
                continue
            m = other[1] * SHEET_COLS + other[0]
            wet_k = terrain[k] == WATER
            wet_m = terrain[m] == WATER
            a, b = edge_corners(d)
            if wet_k != wet_m:
                if wet_k:  # drawn once, from the water side
                    pygame.draw.line(target, theme.SHORE, pts[a], pts[b], style.shore + 1)
            elif not wet_k and level[k] > level[m]:
                width = style.cliff if level[k] - level[m] >= 2 else style.contour
                pygame.draw.line(target, theme.CONTOUR, pts[a], pts[b], width)


def road_links(
    road: list[bool], table: tuple[tuple[tuple[int, int] | None, ...], ...]
) -> dict[int, set[int]]:
    """Directions (1..6) in which the road of each road hex of a sheet leaves it.

    A road joins every neighbouring road hex, except that in a tight cluster of
    three mutually adjacent road hexes one link is dropped: the one that runs
    straight on through the fewest of its ends (so a side road meets a main
    road once, and a bend reads as a bend). A road that ends on the sheet's
    edge runs on across it, straight on from where it came; it meets the road
    of the next sheet when that sheet has one there.
    """
    links: dict[int, set[int]] = {}
    for k, on in enumerate(road):
        if on:
            links[k] = {
                d
                for d, o in enumerate(table[k], start=1)
                if o is not None and road[o[1] * SHEET_COLS + o[0]]
            }

    def other(k: int, d: int) -> int:
        o = table[k][d - 1]
        assert o is not None
        return o[1] * SHEET_COLS + o[0]

    def straight(a: int, d: int) -> int:
        b = other(a, d)
        back = (d + 2) % 6 + 1
        return int(back in links[a]) + int(d in links[b])

    for a in sorted(links):
        for d in range(1, 7):
            d2 = d % 6 + 1
            if d not in links[a] or d2 not in links[a]:
                continue
            b = other(a, d)
            # From b the third hex of the triangle lies in direction d + 2.
            d_bc = (d + 1) % 6 + 1
            if d_bc not in links[b]:
                continue
            edges = [(a, d), (a, d2), (b, d_bc)]
            score = sorted((straight(x, dx), n) for n, (x, dx) in enumerate(edges))
            x, dx = edges[score[0][1]]
            links[x].discard(dx)
            links[other(x, dx)].discard((dx + 2) % 6 + 1)
    for k, ds in links.items():
        off = [d for d, o in enumerate(table[k], start=1) if o is None]
        if off and len(ds) <= 1:
            if ds:
                back = (next(iter(ds)) + 2) % 6 + 1
                ds.add(min(off, key=lambda d: (min((d - back) % 6, (back - d) % 6), d)))
            else:
                ds.add(off[0])
    return links


def _paint_roads(
    target: pygame.Surface,
    indices: Iterable[int],
    table: tuple[tuple[tuple[int, int] | None, ...], ...],
    terrain: list[int],
    road: list[bool],
    centres: list[tuple[float, float]],
    corners: Callable[[int], list[tuple[int, int]]],
    style: _Style,
) -> None:
    """Roads as spokes from each road hex's centre to the middle of the sides its
    road crosses; the neighbour draws the other half, so roads are continuous."""
    links = road_links(road, table)
    wanted = set(indices)
    spokes: list[tuple[int, tuple[float, float], tuple[float, float], bool]] = []
    # Sides where a bridge meets dry land on this sheet: the bridge ends there.
    land_ends: dict[int, list[tuple[float, float]]] = {}
    for k, ds in links.items():
        if k not in wanted:
            continue
        x, y = centres[k]
        pts = corners(k)
        for d in sorted(ds):
            a, b = edge_corners(d)
            mid = ((pts[a][0] + pts[b][0]) / 2, (pts[a][1] + pts[b][1]) / 2)
            spokes.append((k, (x, y), mid, terrain[k] == WATER))
            other = table[k][d - 1]
            if (
                terrain[k] == WATER
                and other is not None
                and terrain[other[1] * SHEET_COLS + other[0]] != WATER
            ):
                land_ends.setdefault(k, []).append(mid)
        if not ds:
            spokes.append((k, (x, y), (x, y), terrain[k] == WATER))
    if not spokes:
        return
    if style.size < ROAD_DETAIL_SIZE:
        width = 2 if style.size < DETAIL_SIZE else 3
        for _, p, q, bridge in spokes:
            if bridge:
                pygame.draw.line(target, theme.BRIDGE_RAIL, p, q, width + 2)
        for _, p, q, _ in spokes:
            pygame.draw.line(target, theme.ROAD_FAR, p, q, width)
        return
    casing, fill = style.road_casing, style.road_fill
    for k, p, q, bridge in spokes:
        if bridge:
            _paint_bridge_span(target, p, q, casing, land_end=q in land_ends.get(k, ()))
    for _, p, q, bridge in spokes:
        if not bridge:
            pygame.draw.line(target, theme.ROAD_CASING, p, q, casing)
            pygame.draw.circle(target, theme.ROAD_CASING, p, casing / 2)
            pygame.draw.circle(target, theme.ROAD_CASING, q, casing / 2)
    for _, p, q, _ in spokes:
        pygame.draw.line(target, theme.ROAD_FILL, p, q, fill)
        pygame.draw.circle(target, theme.ROAD_FILL, p, fill / 2)
        pygame.draw.circle(target, theme.ROAD_FILL, q, fill / 2)


def _paint_bridge_span(
    target: pygame.Surface,
    p: tuple[float, float],
    q: tuple[float, float],
    casing: int,
    land_end: bool,
) -> None:
    """Half a bridge (hex centre to side): shadow on the water, stone deck, dark
    rails, and an abutment where it reaches dry land."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    hw = casing * 0.5 + 3
    back = hw * 0.6  # overlap the other half at the centre so the deck is whole
    ends = ((p[0] - ux * back, p[1] - uy * back), q)

    def band(offset: float, half: float) -> list[tuple[float, float]]:
        (ax, ay), (bx, by) = ends
        return [
            (ax + nx * half + offset, ay + ny * half + offset),
            (bx + nx * half + offset, by + ny * half + offset),
            (bx - nx * half + offset, by - ny * half + offset),
            (ax - nx * half + offset, ay - ny * half + offset),
        ]

    pygame.draw.polygon(target, theme.SHORE, band(max(2.0, hw * 0.35), hw))
    pygame.draw.polygon(target, theme.BRIDGE_DECK, band(0.0, hw))
    rail = max(1, round(hw / 4))
    for side in (1, -1):
        (ax, ay), (bx, by) = ends
        pygame.draw.line(
            target,
            theme.BRIDGE_RAIL,
            (ax + nx * hw * side, ay + ny * hw * side),
            (bx + nx * hw * side, by + ny * hw * side),
            rail,
        )
    if land_end:
        pygame.draw.line(
            target,
            theme.BRIDGE_RAIL,
            (q[0] + nx * (hw + 3), q[1] + ny * (hw + 3)),
            (q[0] - nx * (hw + 3), q[1] - ny * (hw + 3)),
            rail + 2,
        )


def _paint_building(
    target: pygame.Surface, centre: tuple[float, float], s: float, cf: int, height: int
) -> None:
    x, y = centre
    if cf <= 0:
        # Destroyed: a heap of rubble where the block stood.
        for ux, uy, ur in _scatter("rough", int(x + y) % _VARIANTS):
            r = max(1.5, ur * s * 1.6)
            rect = pygame.Rect(0, 0, r * 2, r * 1.4)
            rect.center = (round(x + ux * s * 0.8), round(y + uy * s * 0.8))
            pygame.draw.rect(target, theme.RUBBLE, rect)
            pygame.draw.rect(target, theme.WALL, rect, 1)
        return
    block = [(x + ux * s * 1.05, y + uy * s * 1.05) for ux, uy in _BLOCK]
    # Taller buildings cast a longer shadow to the south-east.
    shift = s * (0.05 + 0.045 * min(height, 6))
    shadow = [(px + shift, py + shift) for px, py in block]
    pygame.draw.polygon(target, theme.WALL, shadow)
    for (ax, ay), (bx, by) in zip(block, block[1:] + block[:1], strict=True):
        pygame.draw.polygon(
            target,
            theme.WALL,
            [(ax, ay), (bx, by), (bx + shift, by + shift), (ax + shift, ay + shift)],
        )
    pygame.draw.polygon(target, theme.roof(height), block)
    pygame.draw.polygon(target, theme.WALL, block, max(1, round(s / 24)))
    if s >= NEAR_SIZE:
        px = max(8, round(s * 0.3))
        top = fonts.text(f"CF {cf}", px, theme.BUILDING_TEXT, bold=True, halo=theme.WALL)
        fonts.blit(target, top, top.get_rect(center=(round(x), round(y - s * 0.1))))
        low = fonts.text(f"H {height}", px, theme.BUILDING_TEXT, bold=True, halo=theme.WALL)
        fonts.blit(target, low, low.get_rect(center=(round(x), round(y + s * 0.2))))


def _paint_labels(
    target: pygame.Surface,
    indices: Iterable[int],
    terrain: list[int],
    level: list[int],
    depth: list[int],
    centres: list[tuple[float, float]],
    s: float,
) -> None:
    if s < LEVEL_LABEL_SIZE:
        return
    half = SQRT3 / 2 * s
    level_px = max(8, round(s * 0.32))
    name_px = max(8, round(s * 0.27))
    for k in indices:
        x, y = centres[k]
        if terrain[k] == WATER:
            label = f"D{depth[k]}"
            colour = theme.SHORE
        elif level[k] != 0:
            label = str(level[k])
            colour = theme.LEVEL_TEXT
        else:
            label = ""
            colour = theme.LEVEL_TEXT
        if label:
            surf = fonts.text(label, level_px, colour, bold=True, halo=theme.LABEL_HALO)
            fonts.blit(target, surf, surf.get_rect(midbottom=(round(x), round(y + half - 1))))
        if s >= NEAR_SIZE:
            col, row = k % SHEET_COLS, k // SHEET_COLS
            surf = fonts.text(
                format_xxyy(col, row), name_px, theme.HEX_LABEL, halo=theme.LABEL_HALO
            )
            fonts.blit(target, surf, surf.get_rect(midtop=(round(x), round(y - half + 1))))


# --- the layer --------------------------------------------------------------------------


@dataclass
class _Cached:
    surface: pygame.Surface
    origin: tuple[int, int]
    sheet: Sheet
    nbytes: int


@dataclass
class RenderStats:
    """What the cache did: renders per (sheet position, zoom level), hits, evictions."""

    renders: Counter[tuple[SheetPosition, int]] = field(default_factory=Counter)
    hits: int = 0
    evictions: int = 0

    @property
    def total_renders(self) -> int:
        return sum(self.renders.values())


class MapLayer:
    """Draws a play area through per-sheet, per-zoom cached surfaces."""

    def __init__(self, area: PlayArea, cache_limit: int = DEFAULT_CACHE_LIMIT) -> None:
        if not isinstance(area, PlayArea):
            raise TypeError(f"MapLayer draws a PlayArea, not {type(area).__name__}")
        if cache_limit <= 0:
            raise ValueError(f"cache_limit must be a positive number of bytes, not {cache_limit}")
        self.area = area
        self.cache_limit = int(cache_limit)
        self.stats = RenderStats()
        self._cache: OrderedDict[tuple[SheetPosition, int], _Cached] = OrderedDict()
        self._bytes = 0
        self._revision = area.revision
        self._building_cf: dict[Hex, int] = {}
        self._stamps: dict[tuple[object, ...], pygame.Surface] = {}
        self._side_cache: dict[tuple[object, ...], list[np.ndarray]] = {}
        self._side_labels: tuple[object, list[Label]] | None = None

    # --- state --------------------------------------------------------------------

    @property
    def cache_bytes(self) -> int:
        """Bytes of pixels held by the sheet caches now."""
        return self._bytes

    def cached_keys(self) -> list[tuple[SheetPosition, int]]:
        """(sheet position, zoom level) of every cached surface, least recently used first."""
        return list(self._cache)

    def set_area(self, area: PlayArea) -> None:
        """Draw another area; surfaces of sheets it shares with the old one are kept."""
        self.area = area
        self._revision = -1
        self._side_cache.clear()
        self._sync()

    def world_bounds(self) -> WorldRect:
        """World rectangle of the area (for ``Camera.set_bounds`` and ``Camera.fit``)."""
        return world_bounds(self.area)

    def invalidate_sheet(self, pos: SheetPosition) -> int:
        """Drop every cached surface of one sheet position; returns how many were dropped."""
        pos = (int(pos[0]), int(pos[1]))
        dropped = 0
        for key in [key for key in self._cache if key[0] == pos]:
            self._drop(key)
            dropped += 1
        return dropped

    def invalidate_hex(self, h: Hex) -> int:
        """Drop the cached surfaces of the sheet holding ``h``."""
        return self.invalidate_sheet(locate(Hex(int(h[0]), int(h[1])))[0])

    def set_building_cf(self, building_cf: Mapping[Hex, int]) -> set[SheetPosition]:
        """Current CF of damaged buildings (hex -> CF; 0 destroyed; missing: as printed).

        Only sheets where a value changed are re-rendered; returns their positions.
        """
        new = {Hex(int(h[0]), int(h[1])): int(v) for h, v in building_cf.items()}
        for h, v in new.items():
            if v < 0:
                raise ValueError(f"building CF of {self.area.label(h)} must be 0 or more, not {v}")
        changed = {
            h for h in set(new) | set(self._building_cf) if new.get(h) != self._building_cf.get(h)
        }
        self._building_cf = new
        positions = {locate(h)[0] for h in changed}
        for pos in positions:
            self.invalidate_sheet(pos)
        return positions

    def building_cf(self, h: Hex) -> int | None:
        """The CF override of a building hex, None when it stands as printed."""
        return self._building_cf.get(h)

    # --- drawing ---------------------------------------------------------------------

    def visible_positions(self, camera: Camera) -> list[SheetPosition]:
        view = camera.visible_world_rect()
        return [pos for pos in self.area.positions if _overlaps(sheet_geometry(pos).bounds, view)]

    def prerender(self, camera: Camera, zoom_index: int | None = None) -> int:
        """Render the sheets visible from ``camera`` (at another zoom level if given)
        now rather than on first draw; returns how many surfaces were made."""
        self._sync()
        zoom = camera.zoom_index if zoom_index is None else zoom_index
        made = 0
        for pos in self.visible_positions(camera):
            if (pos, zoom) not in self._cache:
                self._surface(pos, zoom)
                made += 1
        self._evict(keep=set())
        return made

    def draw(
        self,
        surface: pygame.Surface,
        camera: Camera,
        cached: bool = True,
        render_budget: float | None = None,
    ) -> int:
        """Draw the terrain of every visible sheet; returns how many sheets were shown
        as stand-ins (0 when the picture is final).

        ``render_budget`` (seconds) bounds the time spent rendering new sheet
        surfaces in this call, so a zoom never stalls a frame: once it is spent
        (at least one sheet is rendered per call), a sheet not yet rendered at
        this zoom is shown scaled from its surface at another zoom, if it has
        one, and is rendered in a later frame. None renders everything now.
        ``cached=False`` paints every visible hex directly each call (the
        baseline the benchmark compares against).
        """
        self._sync()
        zoom = camera.zoom_index
        ox, oy = camera.offset
        visible = self.visible_positions(camera)
        if not cached:
            self._draw_direct(surface, camera, visible)
            return 0
        deadline = None if render_budget is None else time.perf_counter() + render_budget
        keep = set()
        stand_ins = 0
        rendered = False
        for pos in visible:
            key = (pos, zoom)
            if (
                key not in self._cache
                and rendered
                and deadline is not None
                and time.perf_counter() > deadline
            ):
                stand_in = self._stand_in(pos, zoom)
                if stand_in is not None:
                    image, (x, y) = stand_in
                    surface.blit(image, (x - ox, y - oy))
                    stand_ins += 1
                    continue
            rendered = rendered or key not in self._cache
            entry = self._surface(pos, zoom)
            keep.add(key)
            origin = (entry.origin[0] - ox, entry.origin[1] - oy)
            fonts.place(surface, entry.surface, origin, "terrain", clips=True)
        self._evict(keep)
        return stand_ins

    def _stand_in(
        self, pos: SheetPosition, zoom: int
    ) -> tuple[pygame.Surface, tuple[int, int]] | None:
        """The sheet's surface at the nearest other cached zoom, scaled to this zoom."""
        others = [k for k in self._cache if k[0] == pos and k[1] != zoom]
        if not others:
            return None
        best = min(others, key=lambda k: abs(k[1] - zoom))
        entry = self._cache[best]
        ratio = ZOOM_SIZES[zoom] / ZOOM_SIZES[best[1]]
        w, h = entry.surface.get_size()
        image = pygame.transform.scale(entry.surface, (round(w * ratio), round(h * ratio)))
        return image, (round(entry.origin[0] * ratio), round(entry.origin[1] * ratio))

    def _draw_direct(
        self, surface: pygame.Surface, camera: Camera, visible: list[SheetPosition]
    ) -> None:
        size = camera.size
        origin = camera.offset
        w, h = camera.viewport
        for pos in visible:
            geom = sheet_geometry(pos)
            only = {
                k
                for k, (cx, cy) in enumerate(geom.centres)
                if -size <= cx * size - origin[0] <= w + size
                and -size <= cy * size - origin[1] <= h + size
            }
            paint_sheet(
                surface, self.area.sheet_at(pos), geom, size, origin, self._building_cf, only
            )

    def draw_highlight(
        self,
        surface: pygame.Surface,
        camera: Camera,
        hexes: Iterable[Hex],
        colour: tuple[int, int, int] = theme.HIGHLIGHT,
        alpha: int = 96,
        outline: tuple[int, int, int] | None = None,
        outline_width: int = 2,
    ) -> None:
        """Tint hexes (reachable hexes, forecasts, rings): ``alpha`` 0..255 of ``colour``
        over the map, with an optional outline of each hex."""
        if not 0 <= alpha <= 255:
            raise ValueError(f"highlight alpha must be 0..255, not {alpha}")
        stamp = self._stamp(camera.size, tuple(colour), alpha, outline, outline_width)
        w, h = camera.viewport
        half_w, half_h = stamp.get_width() / 2, stamp.get_height() / 2
        for hx in hexes:
            x, y = camera.hex_to_screen(hx)
            if -half_w <= x <= w + half_w and -half_h <= y <= h + half_h:
                surface.blit(stamp, (round(x - half_w), round(y - half_h)))

    def draw_sides(self, surface: pygame.Surface, camera: Camera) -> None:
        """MAP-3: the half-line across the whole view and each side's home edge (their
        names are labels: ``side_labels``)."""
        size = camera.size
        offset = np.array(camera.offset, dtype=float)
        w, h = camera.viewport
        line_w = max(2, round(size / 9))
        for edge in self.area.sides:
            colour = theme.SIDE_COLOURS[edge]
            for chain in self._home_edge_chains(edge):
                pts = chain * size - offset
                if _on_screen(pts, w, h):
                    pygame.draw.lines(surface, colour, False, pts.tolist(), line_w + 2)
        shown = []
        for chain in self._half_line_chains(camera):
            pts = chain * size - offset
            if _on_screen(pts, w, h):
                shown.append(pts.tolist())
        for pts in shown:
            pygame.draw.lines(surface, theme.HALF_LINE_CASING, False, pts, line_w + 3)
        for pts in shown:
            pygame.draw.lines(surface, theme.HALF_LINE, False, pts, max(1, line_w - 1))

    # --- internals --------------------------------------------------------------------

    def _sync(self) -> None:
        """Follow the area: drop surfaces of positions whose sheet is gone or replaced."""
        if self.area.revision == self._revision:
            return
        for key in list(self._cache):
            pos = key[0]
            if (
                not self.area.has_sheet(pos)
                or self.area.sheet_at(pos) is not self._cache[key].sheet
            ):
                self._drop(key)
        self._side_cache.clear()
        self._revision = self.area.revision

    def _surface(self, pos: SheetPosition, zoom: int) -> _Cached:
        key = (pos, zoom)
        entry = self._cache.get(key)
        if entry is not None:
            self._cache.move_to_end(key)
            self.stats.hits += 1
            return entry
        size = ZOOM_SIZES[zoom]
        geom = sheet_geometry(pos)
        x, y, w, h = geom.pixel_rect(size)
        surf = pygame.Surface((w, h))
        if pygame.display.get_init() and pygame.display.get_surface() is not None:
            surf = surf.convert()
        surf.fill(COLOUR_KEY)
        sheet = self.area.sheet_at(pos)
        paint_sheet(surf, sheet, geom, size, (x, y), self._building_cf)
        surf.set_colorkey(COLOUR_KEY, pygame.RLEACCEL)
        entry = _Cached(surf, (x, y), sheet, w * h * surf.get_bytesize())
        self._cache[key] = entry
        self._bytes += entry.nbytes
        self.stats.renders[key] += 1
        return entry

    def _drop(self, key: tuple[SheetPosition, int]) -> None:
        entry = self._cache.pop(key)
        self._bytes -= entry.nbytes

    def _evict(self, keep: set[tuple[SheetPosition, int]]) -> None:
        for key in list(self._cache):
            if self._bytes <= self.cache_limit:
                break
            if key not in keep:
                self._drop(key)
                self.stats.evictions += 1

    def _stamp(
        self,
        size: int,
        colour: tuple[int, ...],
        alpha: int,
        outline: tuple[int, int, int] | None,
        outline_width: int,
    ) -> pygame.Surface:
        key = (size, colour, alpha, outline, outline_width)
        stamp = self._stamps.get(key)
        if stamp is None:
            half_h = SQRT3 / 2 * size
            w, h = 2 * size + 4, math.ceil(2 * half_h) + 4
            stamp = pygame.Surface((w, h), pygame.SRCALPHA)
            pts = [(w / 2 + size * ux, h / 2 + size * uy) for ux, uy in _CORNERS]
            pygame.draw.polygon(stamp, (*colour, alpha), pts)
            if outline is not None:
                pygame.draw.polygon(stamp, (*outline, 255), pts, outline_width)
            self._stamps[key] = stamp
        return stamp

    def _home_edge_chains(self, edge: str) -> list[np.ndarray]:
        """World polylines along the outer sides of the area's outermost hexes on ``edge``."""
        key = ("home", edge)
        chains = self._side_cache.get(key)
        if chains is None:
            outward = {"north": (1, 2, 6), "south": (3, 4, 5), "west": (5, 6), "east": (2, 3)}[edge]
            segs = []
            for hx in self.area.outer_edge_hexes(edge):
                corners = _world_corners(hx)
                for d in outward:
                    if not self.area.contains(neighbor(hx, d)):
                        a, b = edge_corners(d)
                        segs.append((corners[a], corners[b]))
            chains = _chains(segs)
            self._side_cache[key] = chains
        return chains

    def _half_line_chains(self, camera: Camera) -> list[np.ndarray]:
        """World polylines of the half-line (MAP-3) over the view, in cached chunks of
        ``_HALF_LINE_CHUNK`` columns (rows for west-east home edges)."""
        col0, col1, row0, row1 = camera.visible_hex_range()
        lo, hi = (col0, col1) if self.area.home_edges == "north-south" else (row0, row1)
        out: list[np.ndarray] = []
        for chunk in range(lo // _HALF_LINE_CHUNK, hi // _HALF_LINE_CHUNK + 1):
            key = ("half-chunk", chunk, self.area.half_line)
            chains = self._side_cache.get(key)
            if chains is None:
                axis = "col" if self.area.home_edges == "north-south" else "row"
                first = chunk * _HALF_LINE_CHUNK
                segs = []
                for n in range(first, first + _HALF_LINE_CHUNK):
                    segs.extend(self._half_line_cell(axis, n))
                chains = _chains(segs)
                self._side_cache[key] = chains
            out.extend(chains)
        return out

    def _half_line_cell(self, axis: str, n: int) -> list[tuple[tuple[float, float], ...]]:
        """Sides between hexes on different sides of the half-line, owned by column
        (or row) ``n``: every side between two hexes that lie on different sides."""
        line2 = round(2 * self.area.half_line)
        segs = []
        if axis == "col":
            i, c = divmod(n, SHEET_COLS)
            # Global rows of this column near the line (sheet j spans rows 17j..17j+16).
            centre_row = SHEET_ROWS * line2 // 2 + (c & 1) * (i & 1)
            candidates = [(n, row) for row in range(centre_row - 2, centre_row + 2)]
        else:
            centre_col = SHEET_COLS * line2 // 2
            candidates = [(col, n) for col in range(centre_col - 2, centre_col + 2)]
        for col, row in candidates:
            hx = from_offset(col, row)
            side = self.area.side_of(hx)
            corners = _world_corners(hx)
            # Each side between two hexes is owned by its upper hex (directions SE, S,
            # SW), so every segment is found once, in the cell of that hex.
            for d in (3, 4, 5):
                other = neighbor(hx, d)
                if self.area.side_of(other) != side:
                    a, b = edge_corners(d)
                    segs.append((corners[a], corners[b]))
        return segs

    def side_labels(self, camera: Camera) -> list[Label]:
        """MAP-3: each home edge's name ("North home edge") beside the part of it in
        view, and "half-line" beside the half-line, as labels for the placer: along
        their line, outside the area first (inside when a panel or the top bar
        covers that side). Worked out once per camera position."""
        key = (camera.offset, camera.size, camera.viewport, self.area.revision)
        if self._side_labels is not None and self._side_labels[0] == key:
            return self._side_labels[1]
        out = self._find_side_labels(camera)
        self._side_labels = (key, out)
        return out

    def _find_side_labels(self, camera: Camera) -> list[Label]:
        size = camera.size
        offset = np.array(camera.offset, dtype=float)
        w, h = camera.viewport
        out = []
        for edge in self.area.sides:
            shown = _in_view(self._home_edge_chains(edge), size, offset, w, h)
            if shown:
                label = labels.Label(
                    f"{edge.capitalize()} home edge",
                    (0.0, 0.0),
                    (),
                    labels.SIDES,
                    14,
                    fill=theme.SIDE_COLOURS[edge],
                )
                out.append(_beside_line(label, edge, np.concatenate(shown), w, h))
        shown = _in_view(self._half_line_chains(camera), size, offset, w, h)
        if shown:
            label = labels.Label(
                "half-line",
                (0.0, 0.0),
                (),
                labels.HALF_LINE,
                13,
                theme.HALF_LINE_CASING,
                halo=theme.HALF_LINE,
            )
            edge = "north" if self.area.home_edges == "north-south" else "west"
            # Written where the line enters the area (or the view, if later).
            x0, y0, _, _ = self.world_bounds()
            ax, ay = camera.world_to_screen(x0, y0)
            start = ax if edge == "north" else ay
            pts = np.concatenate(shown)
            out.append(_beside_line(label, edge, pts, w, h, lead=(start, 60)))
        return out

    def sheet_labels(self, camera: Camera) -> list[Label]:
        """At far zooms, each visible sheet's position and name at its middle (the
        position alone where a sheet is too small for its name)."""
        s = camera.size
        if s > SHEET_LABEL_MAX_SIZE:
            return []
        ox, oy = camera.offset
        px = max(10, round(s * 1.05))
        out = []
        for pos in self.visible_positions(camera):
            x0, y0, x1, y1 = sheet_geometry(pos).bounds
            text = f"({pos[0]},{pos[1]})"
            if s >= 8:
                text += "\n" + self.area.sheet_at(pos).name
            step = (y1 - y0) * s / 6
            out.append(
                labels.Label(
                    text,
                    ((x0 + x1) / 2 * s - ox, (y0 + y1) / 2 * s - oy),
                    labels.along((0, dy) for dy in labels.spread(step, 5)),
                    labels.SHEET,
                    px,
                    theme.SHEET_LABEL_TEXT,
                    fill=theme.SHEET_LABEL_BOX,
                    edge=None,
                )
            )
        return out


def _beside_line(
    label: Label,
    edge: str,
    pts: np.ndarray,
    w: int,
    h: int,
    lead: tuple[float, float] | None = None,
) -> Label:
    """``label`` with its spots beside a line of screen points: on the ``edge`` side
    of it (above a north edge, left of a west one), then on the other, at places
    along the part of the line in view, from the middle of that part outward; with
    ``lead`` (a point along the line and a distance), from that distance past the
    point (or past the start of the part in view, if later) onward."""
    lw, lh = label.size()
    gap = 6
    across = edge in ("north", "south")  # the line runs across the screen
    coords, other = (pts[:, 0], pts[:, 1]) if across else (pts[:, 1], pts[:, 0])
    length = w if across else h
    lo, hi = max(float(coords.min()), 0.0), min(float(coords.max()), float(length))
    half = (lw if across else lh) / 2 + 4
    if lead is not None:
        first = max(lo, lead[0]) + lead[1]
        places = list(np.arange(first, hi - half, 2 * half + 12))
    else:
        # From the middle outward, half a label at a time, over the whole part in view.
        middle = (lo + hi) / 2
        count = 2 * math.ceil((hi - lo) / 2 / half) + 1
        places = [middle + d for d in labels.spread(half, count)]
    places = [p for p in places if lo <= p <= hi] or [(lo + hi) / 2]
    outward = -1 if edge in ("north", "west") else 1
    spots = []
    for sign in (outward, -outward):
        for p in places:
            near = other[np.abs(coords - p) <= half + 8]
            if not len(near):
                continue
            line = float(near.min()) if sign < 0 else float(near.max())
            beyond = line + sign * (gap + (lh if across else lw) / 2)
            spots.append((p, beyond) if across else (beyond, p))
    anchor = (float(pts[0, 0]), float(pts[0, 1])) if not spots else spots[0]
    offsets = [(x - anchor[0], y - anchor[1]) for x, y in spots]
    return replace(label, at=anchor, spots=labels.along(offsets))


def _world_corners(h: Hex) -> list[tuple[float, float]]:
    cx, cy = hex_to_pixel(h, 1.0)
    return [(cx + ux, cy + uy) for ux, uy in _CORNERS]


def _in_view(
    chains: list[np.ndarray], size: float, offset: np.ndarray, w: int, h: int
) -> list[np.ndarray]:
    """The world polylines on the screen (screen points), those in view only."""
    return [pts for chain in chains if _on_screen(pts := chain * size - offset, w, h)]


def _on_screen(pts: np.ndarray, w: int, h: int, margin: float = 8.0) -> bool:
    return bool(
        pts[:, 0].max() >= -margin
        and pts[:, 0].min() <= w + margin
        and pts[:, 1].max() >= -margin
        and pts[:, 1].min() <= h + margin
    )


def _chains(segments: Iterable[tuple[tuple[float, float], ...]]) -> list[np.ndarray]:
    """Join segments that share end points into polylines (N x 2 world arrays), so an
    overlay line is one draw call instead of one per hex side."""

    def key(p: tuple[float, float]) -> tuple[int, int]:
        return round(p[0] * 1000), round(p[1] * 1000)

    ends: dict[tuple[int, int], list[int]] = {}
    segs = list(segments)
    for n, (a, b) in enumerate(segs):
        ends.setdefault(key(a), []).append(n)
        ends.setdefault(key(b), []).append(n)
    used = [False] * len(segs)
    # Start from loose ends first so open lines come out whole.
    order = sorted(range(len(segs)), key=lambda n: -sum(len(ends[key(p)]) == 1 for p in segs[n]))
    chains: list[np.ndarray] = []
    for start in order:
        if used[start]:
            continue
        used[start] = True
        a, b = segs[start]
        if len(ends[key(b)]) == 1:
            a, b = b, a
        line = [a, b]
        tip = b
        while True:
            nxt = next((n for n in ends[key(tip)] if not used[n]), None)
            if nxt is None:
                break
            used[nxt] = True
            p, q = segs[nxt]
            tip = q if key(p) == key(tip) else p
            line.append(tip)
        chains.append(np.array(line, dtype=float))
    return chains


# --- hover information ---------------------------------------------------------------------


def hover_lines(
    area: PlayArea,
    h: Hex,
    building_cf: Mapping[Hex, int] | None = None,
    extra: Callable[[Hex], Iterable[str]] | None = None,
) -> list[str]:
    """Tooltip text of a hex, one line per entry.

    Sheet position and ``XXYY``, terrain, level, water depth (and bridge),
    road, building CF and height (``building_cf`` gives damaged CFs), the side
    of the half-line (MAP-3); then ``extra(h)`` lines (the units there).
    """
    h = Hex(int(h[0]), int(h[1]))
    pos, col, row = locate(h)
    name = format_xxyy(col, row)
    if not area.has_sheet(pos):
        lines = [f"{name} of sheet position ({pos[0]},{pos[1]})", "Outside the play area"]
    else:
        sheet = area.sheet_at(pos)
        code = int(sheet.terrain[row, col])
        level = int(sheet.level[row, col])
        road = bool(sheet.road[row, col])
        lines = [f"Sheet ({pos[0]},{pos[1]}) {sheet.name}, hex {name}"]
        if code == WATER:
            depth = int(sheet.water_depth[row, col])
            lines.append(f"Water, depth {depth}" + (", bridge" if road else ""))
            lines.append(f"Surface level {level}")
        else:
            terrain = TERRAIN_NAMES[code].capitalize() + (", road" if road else "")
            lines.append(terrain)
            lines.append(f"Level {level}")
        if code == BUILDING:
            printed = int(sheet.building_cf[row, col])
            height = int(sheet.building_height[row, col])
            cf = building_cf.get(h, printed) if building_cf else printed
            if cf <= 0:
                lines.append(f"Building destroyed (was CF {printed}, height {height})")
            elif cf != printed:
                lines.append(f"Building CF {cf} of {printed}, height {height}")
            else:
                lines.append(f"Building CF {cf}, height {height}")
        side = area.side_of(h)
        lines.append(f"{side.capitalize()} side" if side else "On the half-line")
    if extra is not None:
        lines.extend(str(line) for line in extra(h))
    return lines
