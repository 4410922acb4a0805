"""Headless tests of the map layer: camera, picking, sheet caches, colours, overlays, tooltip."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pygame
import pytest

from game.board.area import PlayArea, sheet_hex
from game.board.sheet import SHEET_COLS, SHEET_ROWS, parse_sheet, parse_xxyy
from game.hexmath import Hex, hex_to_pixel, neighbor
from game.ui import theme
from game.ui.camera import ZOOM_SIZES, Camera
from game.ui.map_layer import (
    COLOUR_KEY,
    ROAD_DETAIL_SIZE,
    MapLayer,
    _local_neighbours,
    hover_lines,
    road_links,
    sheet_geometry,
)

ROOT = Path(__file__).resolve().parents[1]
SCREEN = (800, 600)


def make_sheet(sheet_id: str, special: dict[str, str] | None = None, buildings: str = "") -> object:
    """A clear level-0 sheet with some hexes given other tokens ({"XXYY": token})."""
    grid = [["0." for _ in range(SHEET_COLS)] for _ in range(SHEET_ROWS)]
    for name, token in (special or {}).items():
        col, row = parse_xxyy(name)
        grid[row][col] = token
    hexes = "\n".join(" ".join(row) for row in grid)
    text = (
        f'id = "{sheet_id}"\nname = "Test {sheet_id}"\ncategory = "mixed"\n'
        f"hexes = '''\n{hexes}\n'''\n"
    )
    if buildings:
        text += f"[buildings]\n{buildings}\n"
    return parse_sheet(text, f"<{sheet_id}>")


# A sheet with one of each terrain at known hexes, and a north-south road in column 05.
FEATURES = {
    "0303": "0~2",
    "0304": "0~1",
    "1010": "0W",
    "1011": "0w",
    "1203": "2.",
    "1204": "3r",
    "0708": "0#",
}
for _row in range(1, SHEET_ROWS + 1):
    FEATURES[f"05{_row:02d}"] = "0="
FEATURES["0509"] = "0~2="  # a bridge
FEATURES["0508"] = "0~1"  # water beside the bridge, so the bridge spans water


@pytest.fixture(scope="module")
def display() -> pygame.Surface:
    pygame.init()
    screen = pygame.display.set_mode(SCREEN)
    yield screen
    pygame.quit()


@pytest.fixture
def sheets() -> dict[str, object]:
    return {
        "features": make_sheet("features", FEATURES, '"0708" = { cf = 40, height = 2 }'),
        "plain": make_sheet("plain"),
    }


@pytest.fixture
def area(sheets: dict[str, object]) -> PlayArea:
    layout = {(0, 0): "features", (1, 0): "plain", (0, 1): "plain", (1, 1): "features"}
    return PlayArea.from_layout(layout, sheets=sheets)


def render(layer: MapLayer, camera: Camera, screen: pygame.Surface, cached: bool = True) -> None:
    screen.fill(theme.BACKGROUND)
    layer.draw(screen, camera, cached=cached)


# --- camera -----------------------------------------------------------------------------


def test_zoom_levels_are_at_least_six_and_grow() -> None:
    assert len(ZOOM_SIZES) >= 6
    assert list(ZOOM_SIZES) == sorted(set(ZOOM_SIZES))


@pytest.mark.parametrize("zoom", range(len(ZOOM_SIZES)))
def test_camera_round_trips_world_screen_and_hex(zoom: int) -> None:
    camera = Camera(SCREEN, zoom, centre=(-37.3, 21.9))
    for wx, wy in ((0.0, 0.0), (-55.25, 13.5), (12.75, -40.125)):
        sx, sy = camera.world_to_screen(wx, wy)
        bx, by = camera.screen_to_world(sx, sy)
        assert math.isclose(bx, wx, abs_tol=1e-9) and math.isclose(by, wy, abs_tol=1e-9)
    for h in (Hex(0, 0), Hex(-25, 7), Hex(-3, -30), Hex(40, -12)):
        sx, sy = camera.hex_to_screen(h)
        assert camera.screen_to_hex(sx, sy) == h


@pytest.mark.parametrize("zoom", range(len(ZOOM_SIZES)))
def test_picking_finds_the_hex_near_its_corners_including_negative_coordinates(zoom: int) -> None:
    camera = Camera(SCREEN, zoom, centre=(-20.0, -15.0))
    size = camera.size
    for h in (Hex(-14, -3), Hex(-13, -4), Hex(-1, -1), Hex(-20, 2), Hex(3, -22)):
        cx, cy = camera.hex_to_screen(h)
        for k in range(6):
            angle = math.radians(60 * k + 30)
            # 80 % of the way to the side: still well inside this hex.
            px = cx + 0.8 * size * math.sqrt(3) / 2 * math.cos(angle)
            py = cy + 0.8 * size * math.sqrt(3) / 2 * math.sin(angle)
            assert camera.screen_to_hex(px, py) == h, (h, k, zoom)


def test_zooming_around_the_cursor_keeps_the_point_under_the_cursor() -> None:
    camera = Camera(SCREEN, 3, centre=(-10.0, 5.0))
    for anchor in ((0, 0), (123, 456), (799, 1), (400, 300)):
        for steps in (1, 1, 1, -2, -1, 3, -4):
            before_world = camera.screen_to_world(*anchor)
            before_hex = camera.screen_to_hex(*anchor)
            camera.zoom_at(steps, anchor)
            after = camera.world_to_screen(*before_world)
            # The world point stays under the cursor to within half a pixel.
            assert abs(after[0] - anchor[0]) <= 0.5 and abs(after[1] - anchor[1]) <= 0.5
            assert camera.screen_to_hex(*anchor) == before_hex


def test_zoom_stops_at_the_nearest_and_farthest_levels() -> None:
    camera = Camera(SCREEN, 0)
    assert not camera.zoom_at(-1)
    assert camera.zoom_at(100)
    assert camera.zoom_index == len(ZOOM_SIZES) - 1
    assert not camera.zoom_at(1)
    with pytest.raises(ValueError, match="zoom level"):
        camera.set_zoom(len(ZOOM_SIZES))


def test_centre_on_puts_the_hex_in_the_middle_of_the_view() -> None:
    camera = Camera(SCREEN, 5)
    h = Hex(-17, 9)
    camera.centre_on(h)
    x, y = camera.hex_to_screen(h)
    assert abs(x - SCREEN[0] / 2) <= 0.5 and abs(y - SCREEN[1] / 2) <= 0.5


def test_pan_moves_by_screen_pixels_and_keyboard_pans_by_speed() -> None:
    camera = Camera(SCREEN, 4)
    h = Hex(2, 3)
    x0, y0 = camera.hex_to_screen(h)
    camera.pan(30, -12)
    x1, y1 = camera.hex_to_screen(h)
    assert abs((x0 - x1) - 30) <= 1 and abs((y0 - y1) + 12) <= 1
    cx = camera.cx
    camera.pan_by_keys(left=False, right=True, up=False, down=False, seconds=0.1)
    assert camera.cx > cx


def test_panning_is_clamped_so_the_area_stays_in_view(area: PlayArea) -> None:
    camera = Camera(SCREEN, 3)
    layer = MapLayer(area)
    bounds = layer.world_bounds()
    camera.set_bounds(bounds)
    camera.pan(1e6, 1e6)
    x0, y0, x1, y1 = camera.visible_world_rect()
    # A few hexes of the area's far corner are still on screen.
    assert x0 <= bounds[2] - 2.9 and y0 <= bounds[3] - 2.9
    camera.pan(-1e7, -1e7)
    x0, y0, x1, y1 = camera.visible_world_rect()
    assert x1 >= bounds[0] + 2.9 and y1 >= bounds[1] + 2.9


def test_visible_world_rect_matches_the_screen_corners() -> None:
    camera = Camera(SCREEN, 2, centre=(5.0, -3.0))
    x0, y0, x1, y1 = camera.visible_world_rect()
    assert (x0, y0) == camera.screen_to_world(0, 0)
    assert (x1, y1) == camera.screen_to_world(*SCREEN)


def test_camera_rejects_bad_input_with_reasons() -> None:
    with pytest.raises(ValueError, match="viewport"):
        Camera((0, 10))
    with pytest.raises(ValueError, match="bounds"):
        Camera(SCREEN).set_bounds((5, 0, 1, 1))


# --- caches -----------------------------------------------------------------------------


def test_cached_sheets_are_reused_between_frames(display: pygame.Surface, area: PlayArea) -> None:
    layer = MapLayer(area)
    camera = Camera(SCREEN, 1)
    camera.fit(layer.world_bounds())
    render(layer, camera, display)
    first = dict(layer.stats.renders)
    assert set(first) == {(pos, camera.zoom_index) for pos in area.positions}
    assert all(count == 1 for count in first.values())
    for _ in range(3):
        camera.pan(2, 1)
        render(layer, camera, display)
    assert dict(layer.stats.renders) == first
    assert layer.stats.hits >= 3 * len(area.positions)


def test_MAP_6_adding_a_sheet_renders_only_the_new_sheet(
    display: pygame.Surface, area: PlayArea
) -> None:
    """MAP-6: the area grows; the other sheets keep their cached surfaces."""
    layer = MapLayer(area)
    camera = Camera(SCREEN, 0)
    camera.fit(layer.world_bounds())
    camera.set_zoom(0)
    render(layer, camera, display)
    before = dict(layer.stats.renders)
    area.add_sheet((2, 0), "plain")
    camera.fit(layer.world_bounds())
    camera.set_zoom(0)
    render(layer, camera, display)
    new = {key: n for key, n in layer.stats.renders.items() if before.get(key) != n}
    assert new == {((2, 0), 0): 1}


def test_invalidating_a_sheet_re_renders_only_that_sheet(
    display: pygame.Surface, area: PlayArea
) -> None:
    layer = MapLayer(area)
    camera = Camera(SCREEN, 0)
    camera.fit(layer.world_bounds())
    render(layer, camera, display)
    assert layer.invalidate_sheet((1, 1)) == 1
    render(layer, camera, display)
    assert layer.stats.renders[((1, 1), camera.zoom_index)] == 2
    others = [n for (pos, _), n in layer.stats.renders.items() if pos != (1, 1)]
    assert others == [1, 1, 1]


def test_destroying_a_building_re_renders_its_sheet_and_shows_rubble(
    display: pygame.Surface, area: PlayArea
) -> None:
    layer = MapLayer(area)
    camera = Camera(SCREEN, 5)
    building = area.hex_at((1, 1), "0708")
    camera.centre_on(building)
    render(layer, camera, display)
    x, y = camera.hex_to_screen(building)
    roof = display.get_at((round(x), round(y - camera.size * 0.25)))[:3]
    changed = layer.set_building_cf({building: 0})
    assert changed == {(1, 1)}
    render(layer, camera, display)
    assert layer.stats.renders[((1, 1), 5)] == 2
    assert all(n == 1 for (pos, _), n in layer.stats.renders.items() if pos != (1, 1))
    assert display.get_at((round(x), round(y - camera.size * 0.25)))[:3] != roof
    # The same values again change nothing.
    assert layer.set_building_cf({building: 0}) == set()


def test_the_cache_memory_is_bounded_least_recently_used_first(
    display: pygame.Surface, area: PlayArea
) -> None:
    camera = Camera(SCREEN, 6)
    probe = MapLayer(area)
    camera.centre_on(area.hex_at((0, 0), "0808"))
    render(probe, camera, display)
    one_frame = probe.cache_bytes
    layer = MapLayer(area, cache_limit=one_frame + 1)
    render(layer, camera, display)
    camera.centre_on(area.hex_at((1, 1), "0808"))
    render(layer, camera, display)
    assert layer.stats.evictions >= 1
    assert layer.cache_bytes <= max(one_frame + 1, layer.cache_bytes)
    # What the current frame uses is never evicted.
    visible = {(pos, 6) for pos in layer.visible_positions(camera)}
    assert visible <= set(layer.cached_keys())


def test_MAP_2_a_sheet_surface_holds_exactly_its_own_hexes(
    display: pygame.Surface, area: PlayArea
) -> None:
    """MAP-2: the odd-i sheet's surface has the half-hex saw-toothed edge: its own hexes
    are opaque, the neighbouring sheets' hexes inside its bounding box are transparent."""
    layer = MapLayer(area)
    camera = Camera(SCREEN, 4)
    camera.centre_on(area.hex_at((1, 0), "0809"))
    layer.prerender(camera)
    entry = layer._cache[((1, 0), 4)]
    surf, (ox, oy) = entry.surface, entry.origin
    size = ZOOM_SIZES[4]
    w, h = surf.get_size()
    own = set(sheet_geometry((1, 0)).hexes)
    checked_other = 0
    for q in range(-5, 40):
        for r in range(-30, 30):
            x, y = hex_to_pixel(Hex(q, r), size)
            px, py = round(x - ox), round(y - oy)
            if not (0 <= px < w and 0 <= py < h):
                continue
            colour = tuple(surf.get_at((px, py)))[:3]
            if Hex(q, r) in own:
                assert colour != COLOUR_KEY, Hex(q, r)
            else:
                assert colour == COLOUR_KEY, Hex(q, r)
                checked_other += 1
    assert checked_other > 10  # the saw-tooth leaves neighbours' hexes inside the box


# --- what a frame shows ------------------------------------------------------------------


def _pixel(screen: pygame.Surface, camera: Camera, h: Hex, dx: float = 0, dy: float = 0):
    x, y = camera.hex_to_screen(h)
    return tuple(screen.get_at((round(x + dx), round(y + dy))))[:3]


@pytest.mark.parametrize("zoom", [1, 3, 5])
def test_a_frame_shows_terrain_colours_at_known_hexes(
    display: pygame.Surface, area: PlayArea, zoom: int
) -> None:
    layer = MapLayer(area)
    camera = Camera(SCREEN, zoom)
    camera.centre_on(area.hex_at((1, 1), "0707"))
    render(layer, camera, display)
    pos = (1, 1)
    water = _pixel(display, camera, area.hex_at(pos, "0303"), dx=camera.size * 0.4)
    assert water[2] > water[0] + 30, water  # blue-ish
    woods = _pixel(display, camera, area.hex_at(pos, "1010"))
    assert woods[1] > woods[0] and woods[1] > woods[2] and sum(woods) < sum(theme.ground(0)), woods
    clear = _pixel(display, camera, area.hex_at(pos, "0905"))
    assert clear == theme.ground(0)
    hill = _pixel(display, camera, area.hex_at(pos, "1203"))
    assert hill == theme.ground(2)
    deep, shallow = (
        _pixel(display, camera, area.hex_at(pos, name), dx=camera.size * 0.45)
        for name in ("0303", "0304")
    )
    assert sum(deep) < sum(shallow)  # depth 2 darker than depth 1
    road = _pixel(display, camera, area.hex_at(pos, "0506"))
    assert road == (theme.ROAD_FILL if camera.size >= ROAD_DETAIL_SIZE else theme.ROAD_FAR)


def test_every_visible_area_hex_is_covered_across_sheet_joins(
    display: pygame.Surface, area: PlayArea
) -> None:
    layer = MapLayer(area)
    for zoom in range(len(ZOOM_SIZES)):
        camera = Camera(SCREEN, zoom)
        camera.centre_on(area.hex_at((1, 1), "0101"))  # the corner where four sheets meet
        render(layer, camera, display)
        for h in area.hexes():
            x, y = camera.hex_to_screen(h)
            if 0 <= x < SCREEN[0] and 0 <= y < SCREEN[1]:
                assert tuple(display.get_at((round(x), round(y))))[:3] != theme.BACKGROUND, h


def test_the_direct_baseline_paints_the_same_picture(
    display: pygame.Surface, area: PlayArea
) -> None:
    layer = MapLayer(area)
    camera = Camera(SCREEN, 4)
    camera.centre_on(area.hex_at((0, 0), "1410"))
    render(layer, camera, display)
    cached = display.copy()
    render(layer, camera, display, cached=False)
    same = total = 0
    for h in area.hexes():
        x, y = camera.hex_to_screen(h)
        if 0 <= x < SCREEN[0] and 0 <= y < SCREEN[1]:
            total += 1
            same += cached.get_at((round(x), round(y))) == display.get_at((round(x), round(y)))
    assert total > 100 and same == total


def test_highlighted_hexes_are_tinted_and_others_are_not(
    display: pygame.Surface, area: PlayArea
) -> None:
    layer = MapLayer(area)
    camera = Camera(SCREEN, 4)
    target = area.hex_at((0, 1), "0808")
    camera.centre_on(target)
    render(layer, camera, display)
    plain = _pixel(display, camera, target)
    layer.draw_highlight(display, camera, [target], (255, 0, 0), 128)
    tinted = _pixel(display, camera, target)
    assert tinted[0] > plain[0] + 20 and tinted[1] < plain[1]
    assert _pixel(display, camera, neighbor(target, 1)) == plain
    with pytest.raises(ValueError, match="alpha"):
        layer.draw_highlight(display, camera, [target], (255, 0, 0), 300)


def test_MAP_3_the_half_line_and_home_edges_are_drawn(
    display: pygame.Surface, area: PlayArea
) -> None:
    """MAP-3: the half-line runs between the two sheet rows and past the area; the north
    home edge is drawn in the north side's colour along the area's outer edge."""
    layer = MapLayer(area)
    camera = Camera(SCREEN, 2)
    camera.fit(layer.world_bounds())
    render(layer, camera, display)
    layer.draw_sides(display, camera)
    below = area.hex_at(
        (0, 1), "0801"
    )  # first row south of the line (even column 08? no: 0-based 7)
    x, y = camera.hex_to_screen(below)
    column = [
        tuple(display.get_at((round(x), yy)))[:3]
        for yy in range(round(y - camera.size * 1.2), round(y))
    ]
    assert theme.HALF_LINE in column
    # Past the area's west edge the line goes on over the background.
    y_line = next(
        yy
        for yy in range(round(y - camera.size * 1.2), round(y))
        if tuple(display.get_at((round(x), yy)))[:3] == theme.HALF_LINE
    )
    x_west = camera.world_to_screen(layer.world_bounds()[0], 0)[0] - 15
    strip = [
        tuple(display.get_at((round(x_west), yy)))[:3] for yy in range(y_line - 12, y_line + 12)
    ]
    assert theme.HALF_LINE in strip
    top = area.hex_at((0, 0), "0801")
    tx, ty = camera.hex_to_screen(top)
    above = [
        tuple(display.get_at((round(tx), yy)))[:3]
        for yy in range(round(ty - camera.size * 1.3), round(ty))
    ]
    assert theme.SIDE_COLOURS["north"] in above


# --- roads ----------------------------------------------------------------------------------


def test_roads_join_neighbouring_road_hexes_and_run_on_across_the_sheet_edge() -> None:
    table = _local_neighbours()
    road = [False] * (SHEET_COLS * SHEET_ROWS)
    for row in range(SHEET_ROWS):
        road[row * SHEET_COLS + 4] = True  # column 05, top to bottom
    links = road_links(road, table)
    assert links[0 * SHEET_COLS + 4] == {1, 4}  # 0501: on to the north edge, and south
    assert links[8 * SHEET_COLS + 4] == {1, 4}
    assert links[16 * SHEET_COLS + 4] == {1, 4}  # 0517: on across the south edge


def test_a_tight_cluster_of_three_road_hexes_loses_its_corner_cutting_link() -> None:
    table = _local_neighbours()
    road = [False] * (SHEET_COLS * SHEET_ROWS)
    # A north-south road in column 08 and a side road arriving from the west at 0704.
    for row in range(2, 12):
        road[row * SHEET_COLS + 7] = True
    for name in ("0504", "0604", "0704"):
        col, row = parse_xxyy(name)
        road[row * SHEET_COLS + col] = True
    links = road_links(road, table)
    col, row = parse_xxyy("0704")
    side = links[row * SHEET_COLS + col]
    # 0704 (an even 0-based column 6) touches 0803 and 0804: it keeps exactly one of them.
    into_main = [d for d in side if d in (2, 3)]
    assert len(into_main) == 1
    main = [links[r * SHEET_COLS + 7] for r in range(3, 11)]
    assert all({1, 4} <= m for m in main)  # the main road stays straight


# --- hover information ----------------------------------------------------------------------


def test_hover_lines_describe_a_hex(area: PlayArea) -> None:
    bridge = area.hex_at((0, 0), "0509")
    lines = hover_lines(area, bridge)
    assert lines[0] == "Sheet (0,0) Test features, hex 0509"
    assert "Water, depth 2, bridge" in lines and "Surface level 0" in lines
    assert "North side" in lines
    hill = hover_lines(area, area.hex_at((1, 1), "1204"))
    assert "Rough" in hill and "Level 3" in hill and "South side" in hill
    building = area.hex_at((0, 0), "0708")
    assert "Building CF 40, height 2" in hover_lines(area, building)
    assert "Building CF 12 of 40, height 2" in hover_lines(area, building, {building: 12})
    assert "Building destroyed (was CF 40, height 2)" in hover_lines(area, building, {building: 0})
    road = hover_lines(area, area.hex_at((0, 0), "0512"), extra=lambda h: ["Spotter A (north)"])
    assert road[1] == "Clear, road" and road[-1] == "Spotter A (north)"


def test_hover_lines_outside_the_area_say_so(area: PlayArea) -> None:
    outside = sheet_hex((5, 0), 6, 8)
    assert hover_lines(area, outside) == ["0709 of sheet position (5,0)", "Outside the play area"]


# --- architecture ------------------------------------------------------------------------------


def test_no_module_outside_game_ui_imports_pygame() -> None:
    """DESIGN principle 1: the rules core never imports pygame.

    Benchmarks of the UI (game/bench) may import it inside their functions only,
    so importing any module outside game/ui never loads pygame.
    """
    offenders = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        parts = path.relative_to(ROOT / "game").parts
        if parts[0] == "ui":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        nodes = tree.body if parts[0] == "bench" else ast.walk(tree)
        for node in nodes:
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n == "pygame" or n.startswith(("pygame.", "pygame_gui")) for n in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_map_layer_rejects_bad_input_with_reasons(area: PlayArea) -> None:
    with pytest.raises(TypeError, match="PlayArea"):
        MapLayer("not an area")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cache_limit"):
        MapLayer(area, cache_limit=0)
    layer = MapLayer(area)
    with pytest.raises(ValueError, match="building CF"):
        layer.set_building_cf({area.hex_at((0, 0), "0708"): -1})


def test_fonts_survive_a_restart_of_pygame_font(display: pygame.Surface) -> None:
    from game.ui import fonts

    before = fonts.font(12)
    pygame.font.quit()
    pygame.font.init()
    after = fonts.font(12)
    assert after is not before
    assert after.render("0709", True, (0, 0, 0)).get_width() > 0


def test_a_render_budget_spreads_new_sheets_over_frames_with_scaled_stand_ins(
    display: pygame.Surface, area: PlayArea
) -> None:
    layer = MapLayer(area)
    camera = Camera(SCREEN, 1)
    camera.centre_on(area.hex_at((1, 1), "0101"))
    assert layer.draw(display, camera) == 0  # no budget: everything rendered at once
    camera.set_zoom(2)
    visible = layer.visible_positions(camera)
    assert len(visible) == 4
    stand_ins = layer.draw(display, camera, render_budget=0.0)
    # One sheet is rendered in this frame; the others show scaled from zoom 1.
    assert stand_ins == 3
    assert sum(1 for pos in visible if layer.stats.renders[(pos, 2)]) == 1
    # The stand-ins cover the map: no background at the hex centres.
    for h in area.hexes():
        x, y = camera.hex_to_screen(h)
        if 0 <= x < SCREEN[0] and 0 <= y < SCREEN[1]:
            assert tuple(display.get_at((round(x), round(y))))[:3] != theme.BACKGROUND
    left = [layer.draw(display, camera, render_budget=0.0) for _ in range(3)]
    assert left == [2, 1, 0]  # one more sheet each frame
    assert all(layer.stats.renders[(pos, 2)] == 1 for pos in visible)
