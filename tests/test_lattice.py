"""The hexalattice adapter and play-area pictures (MAP-1, MAP-2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game.board.area import PlayArea, sheet_hex
from game.board.sheet import SHEET_COLS, SHEET_ROWS, Sheet, format_xxyy
from game.hexmath import from_offset, hex_to_pixel
from game.lattice import area_centres, draw_area, overview_png, sheet_centres, terrain_colours
from tests.sheet_factory import make_sheet

ROOT = Path(__file__).resolve().parents[1]


def varied_sheet(sheet_id: str) -> Sheet:
    """A hill, a wood, a lake, a village on a road: every terrain the picture colours."""
    cells: dict[str, str] = {}
    for c in range(SHEET_COLS):
        for r in range(SHEET_ROWS):
            d = abs(c - 4) + abs(r - 4)
            if d < 4:
                cells[format_xxyy(c, r)] = f"{4 - d}."
            elif c > 9 and r < 7:
                cells[format_xxyy(c, r)] = "0W" if (c + r) % 3 else "0w"
            elif c > 8 and r > 11:
                cells[format_xxyy(c, r)] = f"-1~{1 + (c + r) % 3}"
            elif r == 9:
                cells[format_xxyy(c, r)] = "0.="
    cells["0609"] = "0#="
    cells["0709"] = "0#="
    cells["0314"] = "0r"
    return make_sheet(sheet_id, cells, {"0609": (40, 2), "0709": (90, 4)})


@pytest.mark.parametrize("size", [1.0, 7.5, 32.0])
def test_MAP_1_adapter_sheet_centres_match_hexmath(size: float) -> None:
    """MAP-1: hexalattice's turned grid gives our flat-top odd-q centres, 0101 at the origin."""
    got = sheet_centres(size)
    expected = np.array(
        [
            hex_to_pixel(from_offset(c, r), size)
            for r in range(SHEET_ROWS)
            for c in range(SHEET_COLS)
        ]
    )
    assert got.shape == (255, 2)
    scale = np.abs(expected).max()
    assert np.abs(got - expected).max() <= 1e-9 * scale
    assert tuple(got[0]) == (0.0, 0.0)


@pytest.mark.parametrize("pos", [(0, 0), (1, 0), (-1, 1), (3, -2)])
def test_MAP_2_area_centres_match_hexmath_on_every_sheet_position(pos: tuple[int, int]) -> None:
    """MAP-2: moved sheet pictures land on the global lattice, odd sheet columns too."""
    area = PlayArea.from_layout({pos: make_sheet("a", {})})
    got = area_centres(area, 5.0)
    expected = np.array([hex_to_pixel(h, 5.0) for h in area.hexes()])
    assert np.abs(got - expected).max() <= 1e-9 * max(1.0, np.abs(expected).max())
    assert np.allclose(got[0], hex_to_pixel(sheet_hex(pos, 0, 0), 5.0))


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), "10", True])
def test_bad_sizes_are_refused_before_hexalattice_sees_them(bad: object) -> None:
    """hexalattice calls exit() on bad arguments: the adapter refuses them first."""
    with pytest.raises(ValueError, match="hex size must be"):
        sheet_centres(bad)  # type: ignore[arg-type]


def test_importing_the_adapter_does_not_import_matplotlib() -> None:
    """The game's start-up path must not pay for matplotlib or hexalattice."""
    code = (
        "import sys; import game.lattice, game.board; "
        "bad = [m for m in ('matplotlib', 'hexalattice') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_terrain_colours_tell_terrain_apart() -> None:
    area = PlayArea.from_layout({(0, 0): varied_sheet("v")})
    rgb = terrain_colours(area)
    assert rgb.shape == (len(area), 3)
    assert ((rgb >= 0) & (rgb <= 1)).all()
    assert len({tuple(np.round(c, 3)) for c in rgb}) >= 8


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_overview_png_of_a_grown_area_is_written(tmp_path: Path) -> None:
    """A terrain picture of a non-rectangular area: a real PNG with many colours."""
    area = PlayArea.from_layout({(0, 0): varied_sheet("v"), (1, 0): varied_sheet("w")})
    area.add_sheet((1, -1), make_sheet("flat", {}))
    out = overview_png(area, tmp_path / "area.png", title="three sheets")
    width, height = _png_size(out)
    assert width > 300 and height > 300
    assert out.stat().st_size > 20_000
    from matplotlib.image import imread

    pixels = imread(out)[..., :3].reshape(-1, 3)
    assert len(np.unique(np.round(pixels, 2), axis=0)) > 30


def test_overview_png_heatmap_of_values(tmp_path: Path) -> None:
    """A per-hex heatmap (e.g. expected damage) with grey for NaN."""
    area = PlayArea.from_layout({(0, 0): varied_sheet("v"), (0, 1): varied_sheet("w")})
    values = np.linspace(0.0, 1.0, len(area))
    values[:10] = np.nan
    out = overview_png(area, tmp_path / "heat.png", values=values, value_label="damage")
    assert _png_size(out)[0] > 300
    with pytest.raises(ValueError, match="one number per area hex"):
        overview_png(area, tmp_path / "bad.png", values=np.zeros(3))
    with pytest.raises(ValueError, match="does not exist"):
        overview_png(area, tmp_path / "missing" / "x.png")
    with pytest.raises(ValueError, match=r"saved as \.png"):
        overview_png(area, tmp_path / "x.jpg")


def test_draw_area_on_given_axes_returns_one_polygon_per_hex() -> None:
    from matplotlib.figure import Figure

    area = PlayArea.from_layout({(0, 0): varied_sheet("v")})
    fig = Figure()
    ax = fig.add_subplot()
    hexes = draw_area(ax, area, sheet_labels=False)
    assert len(hexes.get_paths()) == len(area)
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    assert x1 > x0 and y0 > y1  # north up: y axis inverted
