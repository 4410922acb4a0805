"""Map drawing: cached sheet surfaces vs redrawing every visible hex each frame.

``python -m game.bench ui_map`` (headless: SDL's dummy video driver) builds a
20-sheet area (5 x 4 sheet positions filled from the shipped sheets in turn),
a 1600 x 900 screen, 20 unit-sized circles and 10 highlighted plot hexes, and
pans a few pixels every frame. For two zoom levels it prints the frame time
(median and 95th percentile) with the cached map layer and with every visible
hex painted directly, and their ratio; then the one-off cost of rendering the
caches, and the start-up cost of importing the UI modules in a fresh process
(which must not pull in matplotlib or hexalattice).

A frame here is the drawing work (clear, terrain, sides, highlights, unit
stand-ins) without the display flip, which the dummy driver does not do.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

SCREEN = (1600, 900)
SHEETS_WIDE, SHEETS_HIGH = 5, 4
ZOOMS = (1, 4)  # zoom levels measured (hex sizes 8 and 26 px)
CACHED_FRAMES = 300
DIRECT_FRAMES = 25
PAN_STEP = 3  # screen pixels per frame
UNITS = 20
PLOTS = 10


def _headless() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def import_cost() -> tuple[float, list[str]]:
    """Seconds to import the map layer in a fresh interpreter, and which heavy
    plotting modules came along (should be none)."""
    code = (
        "import time, sys\n"
        "t = time.perf_counter()\n"
        "import game.ui.camera, game.ui.map_layer\n"
        "print(time.perf_counter() - t)\n"
        "print(','.join(m for m in ('matplotlib', 'hexalattice') if m in sys.modules))\n"
    )
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env=env, check=True
    ).stdout.split("\n")
    return float(out[0]), [m for m in out[1].split(",") if m]


class _Scene:
    """One benchmark scene: a map layer, a camera, unit and plot stand-ins."""

    def __init__(self, screen, layer, camera, units, plots, start) -> None:  # type: ignore[no-untyped-def]
        self.screen = screen
        self.layer = layer
        self.camera = camera
        self.units = units
        self.plots = plots
        self.start = start

    def frame(self, n: int, cached: bool) -> None:
        import pygame

        from game.ui import theme

        screen, layer, camera = self.screen, self.layer, self.camera
        # Pan back and forth so the view stays over the area.
        step = PAN_STEP if n % 160 < 80 else -PAN_STEP
        camera.pan(step, step / 2)
        screen.fill(theme.BACKGROUND)
        layer.draw(screen, camera, cached=cached)
        layer.draw_sides(screen, camera)
        layer.draw_highlight(screen, camera, self.plots, (230, 60, 40), 110, outline=(160, 30, 20))
        radius = max(3, camera.size // 2)
        width, height = screen.get_size()
        for h in self.units:
            x, y = camera.hex_to_screen(h)
            if -radius <= x <= width + radius and -radius <= y <= height + radius:
                pygame.draw.circle(screen, (40, 60, 150), (x, y), radius)
                pygame.draw.circle(screen, (250, 250, 250), (x, y), radius, 2)

    def run(self, frames: int, cached: bool) -> list[float]:
        """Frame times in seconds, panning from the same start every run."""
        self.camera.centre_on_world(*self.start)
        times = []
        for n in range(frames):
            t = time.perf_counter()
            self.frame(n, cached)
            times.append(time.perf_counter() - t)
        return times


def main() -> None:
    _headless()
    seconds, heavy = import_cost()

    import pygame

    from game.board.area import PlayArea
    from game.board.sheet import available_sheets
    from game.ui.camera import ZOOM_SIZES, Camera
    from game.ui.map_layer import MapLayer

    pygame.init()
    screen = pygame.display.set_mode(SCREEN)
    catalogue = available_sheets()
    if not catalogue:
        raise SystemExit(
            "no map sheets found in maps/sheets: the benchmark needs the shipped sheets"
        )
    ids = sorted(catalogue)
    layout = {
        (i, j): ids[(j * SHEETS_WIDE + i) % len(ids)]
        for j in range(SHEETS_HIGH)
        for i in range(SHEETS_WIDE)
    }
    area = PlayArea.from_layout(layout)
    hexes = area.hexes()
    # Units and plots spread over the whole area (fixed picks, not dice).
    units = [hexes[(k * 997 + 131) % len(hexes)] for k in range(UNITS)]
    plots = [hexes[(k * 1543 + 611) % len(hexes)] for k in range(PLOTS)]

    print(
        f"map drawing at {SCREEN[0]}x{SCREEN[1]}: {area.sheet_count} sheets "
        f"({SHEETS_WIDE}x{SHEETS_HIGH}, {len(ids)} distinct shipped sheets), "
        f"{len(area)} hexes, {UNITS} units, {PLOTS} plots, panning {PAN_STEP} px a frame"
    )
    print(
        f"import game.ui.camera + game.ui.map_layer: {seconds * 1000:.0f} ms in a fresh process"
        f"; heavy modules pulled in: {', '.join(heavy) or 'none'}"
    )

    for zoom in ZOOMS:
        layer = MapLayer(area)
        camera = Camera(SCREEN, zoom)
        bounds = layer.world_bounds()
        camera.set_bounds(bounds)
        start = (
            (bounds[0] + bounds[2]) / 2 - 40 * PAN_STEP / camera.size,
            (bounds[1] + bounds[3]) / 2 - 20 * PAN_STEP / camera.size,
        )

        scene = _Scene(screen, layer, camera, units, plots, start)
        camera.centre_on_world(*start)
        t = time.perf_counter()
        made = layer.prerender(camera)
        render_cost = time.perf_counter() - t
        scene.run(160, True)  # every sheet the pan reaches is cached before timing
        cached = scene.run(CACHED_FRAMES, True)
        direct = scene.run(DIRECT_FRAMES, False)
        c_med, c_p95 = statistics.median(cached), _percentile(cached, 0.95)
        d_med, d_p95 = statistics.median(direct), _percentile(direct, 0.95)
        visible = len(layer.visible_positions(camera))
        print(
            f"zoom {zoom} (hex {ZOOM_SIZES[zoom]} px, {visible} sheets visible): "
            f"cached median {c_med * 1000:.2f} ms, p95 {c_p95 * 1000:.2f} ms "
            f"({CACHED_FRAMES} frames); every hex redrawn median {d_med * 1000:.1f} ms, "
            f"p95 {d_p95 * 1000:.1f} ms ({DIRECT_FRAMES} frames); "
            f"ratio {d_med / c_med:.0f}x"
        )
        print(
            f"  rendering the {made} visible sheet caches once: {render_cost * 1000:.0f} ms "
            f"({render_cost / max(made, 1) * 1000:.1f} ms a sheet); "
            f"cache {layer.cache_bytes / 2**20:.1f} MiB after the run, "
            f"{layer.stats.total_renders} renders, {layer.stats.hits} hits"
        )
    pygame.quit()


if __name__ == "__main__":
    main()
