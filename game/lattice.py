"""The one adapter around hexalattice, and matplotlib overviews of a play area.

hexalattice 1.3.0 (``create_hex_grid``) gives hex centres only, pointy-top rows
by default. A flat-top, column-offset sheet (MAP-1) is its 17 x 15 grid turned
90 degrees: its rows become our columns, each column listed from the bottom;
shifting 0101 to the origin and flipping y (screen y grows down) gives our
layout, with odd 0-based columns half a hex lower. ``min_diam`` is the distance
between neighbouring centres, sqrt(3) times our ``size`` (centre to corner).

Guard rails: hexalattice imports matplotlib (slow, so it is imported only
inside these functions, never on the game's start-up path), calls ``exit()``
on arguments it dislikes (so arguments are checked and cast to plain float/int
here first), and its ``do_plot=True`` breaks on numpy 2.4 (never used: pictures
are drawn here with a matplotlib PolyCollection).
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from game.board.area import PlayArea, sheet_hex
from game.board.sheet import SHEET_COLS, SHEET_ROWS
from game.board.terrain import BUILDING, HEAVY_WOODS, LIGHT_WOODS, ROUGH, WATER
from game.hexmath import DIRECTIONS, hex_to_pixel

if TYPE_CHECKING:
    from matplotlib.axes import Axes

# Terrain colours (RGB 0..1).
_COLOURS = {
    "clear": (0.91, 0.89, 0.78),
    "light woods": (0.62, 0.80, 0.48),
    "heavy woods": (0.25, 0.50, 0.23),
    "rough": (0.74, 0.72, 0.46),
    "building": (0.52, 0.52, 0.55),
    "road": (0.45, 0.30, 0.15),
}
_WATER = [(0.62, 0.80, 0.92), (0.36, 0.62, 0.85), (0.18, 0.42, 0.70), (0.10, 0.27, 0.52)]
_HILL = np.array((0.48, 0.33, 0.17))
_LOW = np.array((0.20, 0.20, 0.25))

# Flat-top corners k at 60k degrees (y down); the edge facing direction d runs
# between these two corners.
_EDGE_CORNERS = {3: (0, 1), 4: (1, 2), 5: (2, 3), 6: (3, 4), 1: (4, 5), 2: (5, 0)}


def _check_size(size: float) -> float:
    if isinstance(size, bool) or not isinstance(size, int | float | np.floating | np.integer):
        raise ValueError(f"hex size must be a number (centre to corner), not {size!r}")
    value = float(size)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"hex size must be a positive finite number, not {size!r}")
    return value


@lru_cache(maxsize=16)
def _sheet_centres(size: float) -> np.ndarray:
    from hexalattice.hexalattice import create_hex_grid  # imports matplotlib: keep lazy

    grid, _ = create_hex_grid(
        nx=int(SHEET_ROWS),
        ny=int(SHEET_COLS),
        min_diam=float(size * math.sqrt(3.0)),
        rotate_deg=90.0,
        align_to_origin=False,
        do_plot=False,
    )
    grid = np.asarray(grid, dtype=np.float64)
    if grid.shape != (SHEET_COLS * SHEET_ROWS, 2):  # pragma: no cover - library contract
        raise RuntimeError(f"hexalattice returned {grid.shape} centres for one sheet")
    # hexalattice order: column by column (its rows), each from the bottom up.
    x = grid[:, 0] - grid[0, 0]
    y = grid[0, 1] - grid[:, 1]
    by_col_row = np.stack([x, y], axis=1).reshape(SHEET_COLS, SHEET_ROWS, 2)
    # Our order: like a sheet's arrays, row by row.
    centres = by_col_row.transpose(1, 0, 2).reshape(SHEET_COLS * SHEET_ROWS, 2)
    centres.flags.writeable = False
    return centres


def sheet_centres(size: float = 1.0) -> np.ndarray:
    """Centres of one sheet's 255 hexes, ``(255, 2)`` (x, y with y down), 0101 at (0, 0).

    Row by row like a sheet's arrays: entry ``r * 15 + c`` is local 0-based
    (column c, row r). ``size`` is the hex's centre-to-corner radius.
    """
    return _sheet_centres(_check_size(size)).copy()


def area_centres(area: PlayArea, size: float = 1.0) -> np.ndarray:
    """Centres of every area hex, ``(len(area), 2)``, aligned with ``area.q`` / ``area.r``.

    Each sheet is the adapter's sheet picture moved to the place of its 0101 on
    the global lattice (the same as ``hexmath.hex_to_pixel``).
    """
    size = _check_size(size)
    one = _sheet_centres(size)
    parts = []
    for pos in area.positions:
        ox, oy = hex_to_pixel(sheet_hex(pos, 0, 0), size)
        parts.append(one + np.array([ox, oy]))
    return np.concatenate(parts)


def _mix(colour: np.ndarray, toward: np.ndarray, amount: np.ndarray) -> np.ndarray:
    return colour + (toward - colour) * amount[:, None]


def terrain_colours(area: PlayArea) -> np.ndarray:
    """RGB per area hex: terrain colour, water by depth, shaded by elevation."""
    n = len(area)
    rgb = np.tile(np.array(_COLOURS["clear"]), (n, 1))
    terrain = area.terrain
    for code, name in (
        (LIGHT_WOODS, "light woods"),
        (HEAVY_WOODS, "heavy woods"),
        (ROUGH, "rough"),
        (BUILDING, "building"),
    ):
        rgb[terrain == code] = _COLOURS[name]
    tall = (terrain == BUILDING) & (area.terrain_height > 1)
    rgb[tall] = _mix(rgb[tall], _LOW, np.minimum(0.12 * area.terrain_height[tall], 0.5))
    water = terrain == WATER
    depth = np.clip(area.water_depth[water].astype(int), 1, len(_WATER)) - 1
    rgb[water] = np.array(_WATER)[depth]
    level = area.level.astype(float)
    high = ~water & (level > 0)
    rgb[high] = _mix(rgb[high], _HILL, np.minimum(0.13 * level[high], 0.65))
    low = ~water & (level < 0)
    rgb[low] = _mix(rgb[low], _LOW, np.minimum(-0.15 * level[low], 0.6))
    return np.clip(rgb, 0.0, 1.0)


def _corner_offsets(size: float) -> np.ndarray:
    angles = np.radians(60.0 * np.arange(6))
    return np.stack([size * np.cos(angles), size * np.sin(angles)], axis=1)


def _sheet_border_segments(area: PlayArea, centres: np.ndarray, size: float) -> np.ndarray:
    """Hex edges between different sheets or facing off the area: the sheet borders."""
    corners = _corner_offsets(size)
    segments = []
    for d, (k0, k1) in _EDGE_CORNERS.items():
        step = DIRECTIONS[d]
        idx = area.indices_of(area.q + step.q, area.r + step.r)
        other = np.where(idx >= 0, area.sheet_index[np.maximum(idx, 0)], -1)
        border = other != area.sheet_index
        c = centres[border]
        segments.append(np.stack([c + corners[k0], c + corners[k1]], axis=1))
    return np.concatenate(segments)


def _road_segments(area: PlayArea, centres: np.ndarray) -> np.ndarray:
    out = []
    for d in (2, 3, 4):  # each pair of neighbours once
        step = DIRECTIONS[d]
        idx = area.indices_of(area.q + step.q, area.r + step.r)
        both = area.road & (idx >= 0) & area.road[np.maximum(idx, 0)]
        out.append(np.stack([centres[both], centres[idx[both]]], axis=1))
    return np.concatenate(out) if out else np.zeros((0, 2, 2))


def draw_area(
    ax: Axes,
    area: PlayArea,
    values: np.ndarray | None = None,
    *,
    size: float = 1.0,
    cmap: str = "viridis",
    value_label: str | None = None,
    sheet_labels: bool = True,
    roads: bool = True,
) -> Any:
    """Draw the play area on matplotlib axes; return the hex PolyCollection.

    Without ``values``: terrain colours (clear, light/heavy woods, rough, water
    by depth, buildings darker by height, roads as lines) shaded by elevation.
    With ``values`` (one number per area hex, aligned with ``area.q``; NaN
    leaves a hex grey): a heatmap with a colour bar. Sheet borders are drawn
    and, with ``sheet_labels``, each sheet's position and id at its centre.
    North is up.
    """
    import matplotlib
    from matplotlib.collections import LineCollection, PolyCollection

    size = _check_size(size)
    centres = area_centres(area, size)
    polygons = centres[:, None, :] + _corner_offsets(size)[None, :, :]
    if values is None:
        hexes = PolyCollection(
            polygons, facecolors=terrain_colours(area), edgecolors=(0, 0, 0, 0.18), linewidths=0.3
        )
        ax.add_collection(hexes)
        if roads:
            segs = _road_segments(area, centres)
            if len(segs):
                ax.add_collection(
                    LineCollection(segs, colors=[_COLOURS["road"]], linewidths=1.2, zorder=2)
                )
    else:
        data = np.asarray(values, dtype=float)
        if data.shape != (len(area),):
            raise ValueError(
                f"values must hold one number per area hex ({len(area)}), not shape {data.shape}"
            )
        try:
            colormap = matplotlib.colormaps[cmap].with_extremes(bad=(0.8, 0.8, 0.8))
        except KeyError:
            raise ValueError(f"unknown colour map {cmap!r} (see matplotlib.colormaps)") from None
        hexes = PolyCollection(
            polygons, array=np.ma.masked_invalid(data), cmap=colormap, edgecolors=(0, 0, 0, 0.15)
        )
        hexes.set_linewidth(0.3)
        ax.add_collection(hexes)
        bar = ax.figure.colorbar(hexes, ax=ax, shrink=0.8)
        if value_label:
            bar.set_label(value_label)
    ax.add_collection(
        LineCollection(
            _sheet_border_segments(area, centres, size), colors="black", linewidths=1.4, zorder=3
        )
    )
    if sheet_labels:
        for pos in area.positions:
            x, y = hex_to_pixel(area.hex_0909(pos), size)
            ax.text(
                x,
                y,
                f"({pos[0]},{pos[1]})\n{area.sheet_at(pos).id}",
                ha="center",
                va="center",
                fontsize=7,
                zorder=4,
                bbox={"boxstyle": "round", "facecolor": "white", "alpha": 0.6, "linewidth": 0},
            )
    lo = polygons.reshape(-1, 2).min(axis=0)
    hi = polygons.reshape(-1, 2).max(axis=0)
    ax.set_xlim(lo[0] - size, hi[0] + size)
    ax.set_ylim(hi[1] + size, lo[1] - size)  # y grows down on the board: north up
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    return hexes


def overview_png(
    area: PlayArea,
    path: str | Path,
    values: np.ndarray | None = None,
    title: str | None = None,
    *,
    cmap: str = "viridis",
    value_label: str | None = None,
    dpi: int = 110,
) -> Path:
    """Save a picture of the play area (terrain, or a heatmap of ``values``) as PNG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    out = Path(path)
    if not out.parent.is_dir():
        raise ValueError(f"cannot write {out}: folder {out.parent} does not exist")
    if out.suffix.lower() != ".png":
        raise ValueError(f"an overview is saved as .png, not {out.name!r}")
    # Width and height of the area in hex sizes, for the figure's proportions.
    centres = area_centres(area, 1.0)
    span = centres.max(axis=0) - centres.min(axis=0) + 2.0
    scale = min(14.0 / span[0], 12.0 / span[1], 0.2)
    extra = 1.6 if values is not None else 0.0
    fig = Figure(figsize=(max(4.0, span[0] * scale + extra), max(3.0, span[1] * scale + 0.6)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    draw_area(ax, area, values, cmap=cmap, value_label=value_label)
    if title:
        ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out, dpi=int(dpi))
    return out
