"""The game window: frame times of the game screen and start-up time to the menu.

``python -m game.bench ui`` (headless: SDL's dummy video driver) builds, in
code, a scenario on a 20-sheet area (5 x 4 sheet positions filled from the
shipped sheets in turn) with 20 units and two batteries of five pieces; plays
it through commands to north's targeting phase and plots 10 shells, so the
game screen shows 20 units and 10 plots. It opens that game in a 1600 x 900
window as north, selects a unit (its reachable hexes drawn), rests the mouse
on a hex (tooltip) and measures whole frames (events, update, drawing, flip):

- the camera standing still (the usual frame: the composed map is one blit),
- the camera panning every frame (the composed map scrolled, the uncovered
  strips drawn from the sheet caches),
- every visible hex painted each frame instead (``MapLayer.draw(...,
  cached=False)``): the baseline,

at a far zoom that shows the whole area and at a near one. Then the start-up
time to the first frame of the menu: in a fresh interpreter from the first
import to the first frame shown, and the wall time of the whole
``python main.py --frames 1`` process; and whether matplotlib or hexalattice
came along (they must not).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SCREEN = (1600, 900)
SHEETS_WIDE, SHEETS_HIGH = 5, 4
UNITS_PER_SIDE = 10
PLOTS = 10
ZOOMS = (0, 4)  # the whole area in view (the fitted zoom), and hex size 26 px
FRAMES = 240
BASELINE_FRAMES = 20
PAN_STEP = 3
ROOT = Path(__file__).resolve().parents[2]


def _headless() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def bench_scenario() -> dict[str, Any]:
    """A 5 x 4 scenario as the data of a scenario file: 20 units, 2 five-piece batteries."""
    from game.board.sheet import available_sheets

    ids = sorted(available_sheets())
    if not ids:
        raise SystemExit("no map sheets in maps/sheets: the benchmark needs the shipped sheets")
    layout = [
        {"position": [i, j], "sheet": ids[(j * SHEETS_WIDE + i) % len(ids)]}
        for j in range(SHEETS_HIGH)
        for i in range(SHEETS_WIDE)
    ]
    units = []
    profile = {
        "system": "battletech",
        "type": "mech",
        "model": "Wolfhound WLF-1",
        "tonnage": 35,
        "gunnery": 4,
        "piloting": 5,
        "walk": 6,
        "weapons": ["large_laser", "medium_laser"],
        "weight_class": "light",
    }
    for side, row in (("north", 0), ("south", SHEETS_HIGH - 1)):
        for k in range(UNITS_PER_SIDE):
            i = k % SHEETS_WIDE
            hex_name = f"{3 + 8 * (k // SHEETS_WIDE):02d}{5 if side == 'north' else 12:02d}"
            units.append(
                {
                    "id": f"{side[0]}-{k + 1}",
                    "side": side,
                    "name": f"{side.capitalize()} {k + 1}",
                    "sheet": [i, row],
                    "hex": hex_name,
                    "facing": 4 if side == "north" else 1,
                    "profile": dict(profile),
                }
            )
    artillery = [
        {
            "id": f"{side[0]}-guns-{n}",
            "side": side,
            "name": f"{side.capitalize()} guns {n}",
            "weapon": "thumper",
            "pieces": PLOTS // 2,
            "gunnery": 4,
            "direction": side,
            "along": n + 1,
            "distance": 2,
            "sheet": ids[n],
            "hex": "0808",
        }
        for side in ("north", "south")
        for n in range(2)
    ]
    return {
        "scenario": {
            "name": "Benchmark Field",
            "briefing": "Twenty sheets, twenty units, ten shells in the air.",
            "home_edges": "north-south",
            "turns": 20,
        },
        "options": {"mobile_maps": False, "sheet_table": "free", "predesignated_hexes": False},
        "layout": layout,
        "sides": [
            {"name": "north", "label": "North", "controller": "human"},
            {"name": "south", "label": "South", "controller": "ai"},
        ],
        "units": units,
        "artillery": artillery,
        "victory": [{"type": "destroy_units", "side": "north"}],
    }


def bench_state() -> Any:
    """The benchmark game at north's targeting phase with 10 plots filed."""
    from game.scenario import scenario_from_dict
    from game.state import EndPhase, Hold, PlotFire, acting_side, apply, new_game

    scenario = scenario_from_dict(bench_scenario(), "<benchmark>")
    state = new_game(scenario, 1)
    apply(state, EndPhase("north"))
    apply(state, EndPhase("south"))
    while state.phase == "movement":
        side = acting_side(state)
        unit = next(u for u in state.living(side) if u.hex is not None and not u.moved)
        apply(state, Hold(side, unit.id))
    if acting_side(state) == "south":
        apply(state, EndPhase("south"))
    targets = [u.hex for u in state.units.values() if u.side == "south" and u.hex is not None]
    plots = 0
    for battery in ("n-guns-0", "n-guns-1"):
        for piece in range(1, PLOTS // 2 + 1):
            target = targets[plots % len(targets)]
            apply(state, PlotFire("north", battery, piece, target, "standard"))
            plots += 1
    assert acting_side(state) == "north"
    return state


def startup_cost() -> tuple[float, float, list[str]]:
    """(seconds from the first import to the menu's first frame, in a fresh interpreter;
    wall seconds of ``python main.py --frames 1``; heavy modules imported)."""
    code = (
        "import time, sys, os\n"
        "t = time.perf_counter()\n"
        "from game.ui.app import App\n"
        "app = App()\n"
        "app.open_menu()\n"
        "app.run_frames(1)\n"
        "print(time.perf_counter() - t)\n"
        "print(','.join(m for m in ('matplotlib', 'hexalattice') if m in sys.modules))\n"
        "app.shutdown()\n"
    )
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env["BARRAGE_HOME"] = str(Path(os.environ.get("TMPDIR", "/tmp")) / "barrage-bench-home")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True
    ).stdout.split("\n")
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--frames", "1"],
        capture_output=True,
        cwd=ROOT,
        env=env,
        check=True,
    )
    wall = time.perf_counter() - start
    return float(out[0]), wall, [m for m in out[1].split(",") if m]


def _frames(app: Any, game: Any, frames: int, pan: bool) -> list[float]:
    times = []
    for n in range(frames):
        if pan:
            step = PAN_STEP if n % 120 < 60 else -PAN_STEP
            game.camera.pan(step, step / 2)
        t = time.perf_counter()
        app.frame(1 / 60)
        times.append(time.perf_counter() - t)
    return times


def _breakdown(app: Any, game: Any, frames: int = 60) -> str:
    """Median milliseconds of each part of a still frame: the map, each layer's world
    and screen drawing, the tooltip, pygame-gui, the update."""
    from game.ui.labels import frame_obstacles

    parts: dict[str, list[float]] = {}
    layers = {type(layer).__name__ for layer in game.layers}

    def timed(name: str, fn: Any, *args: Any) -> None:
        t = time.perf_counter()
        fn(*args)
        parts.setdefault(name, []).append(time.perf_counter() - t)

    surface, ctx = app.window, game.ctx
    placer = game.labels
    for _ in range(frames):
        timed("update", game.update, 1 / 60)
        placer.begin(surface.get_rect())
        timed("map", lambda: (game._draw_map(surface), game.post_map_labels()))
        for layer in game.layers:
            timed(type(layer).__name__, layer.draw_world, surface, ctx)
        placer.hold()
        for layer in game.layers:
            timed(type(layer).__name__, layer.draw_hud, surface, ctx)
        timed("map labels", placer.finish, surface, frame_obstacles(ctx))
        timed("Tooltip", game.tooltip.draw_hud, surface, ctx)
        timed("pygame-gui", game.ui_manager.draw_ui, surface)
    # A layer's world and screen drawing are two timings a frame: their sum.
    medians = {
        name: statistics.median(v) * 1000 * (2 if name in layers else 1)
        for name, v in parts.items()
    }
    return ", ".join(f"{name} {ms:.2f}" for name, ms in medians.items() if ms >= 0.005)


def _labels(game: Any, rounds: int = 50) -> str:
    """The map's labels of the last frame placed again from nothing (no memory of the
    frame before): how many, and what placing them costs."""
    from game.ui.labels import place

    placer = game.labels
    obstacles = [*placer.last_obstacles]
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        placement = place(placer.labels, placer.bounds, obstacles, placer.soft)
        times.append(time.perf_counter() - t)
    return (
        f"map labels: {len(placement.placed)} placed, {len(placement.dropped)} dropped "
        f"({len(placement.folds)} '+N' badges), {len(obstacles)} obstacles; placing them "
        f"anew {statistics.median(times) * 1000:.2f} ms (median of {rounds})"
    )


def _line(label: str, times: list[float]) -> str:
    return (
        f"  {label}: median {statistics.median(times) * 1000:.2f} ms, "
        f"p95 {_percentile(times, 0.95) * 1000:.2f} ms ({len(times)} frames)"
    )


def main() -> None:
    _headless()
    seconds, wall, heavy = startup_cost()

    import pygame

    from game.ui.app import App
    from game.ui.seats import SOLO, Seats

    home = Path(os.environ.get("TMPDIR", "/tmp")) / "barrage-bench-home"
    os.environ["BARRAGE_HOME"] = str(home)
    state = bench_state()
    app = App(SCREEN, ai_delay=0.0, autosave=False)
    game = app.open_game(state, Seats(SOLO, "north"))
    app.run_frames(2)
    view = game.ctx.view
    layers = [type(layer).__name__ for layer in game.other_layers]
    print(
        f"game screen at {SCREEN[0]}x{SCREEN[1]}: {state.area.sheet_count} sheets "
        f"({SHEETS_WIDE}x{SHEETS_HIGH}), {len(state.area)} hexes, "
        f"{sum(1 for u in view.units.values() if u.hex is not None)} units on the map, "
        f"{len(view.plots)} plots in north's view; layers: units, panels"
        + (f", {', '.join(layers)}" if layers else " (no artillery layers module)")
    )
    print(
        f"start-up to the menu's first frame: {seconds * 1000:.0f} ms in a fresh interpreter "
        f"(first import to first frame); `python main.py --frames 1` whole process "
        f"{wall * 1000:.0f} ms; heavy modules pulled in: {', '.join(heavy) or 'none'}"
    )
    selected = next(u for u in state.units.values() if u.side == "north" and u.hex is not None)
    game.ctx.selected = selected.id
    for zoom in ZOOMS:
        x0, y0, x1, y1 = game.map_layer.world_bounds()
        if zoom == 0:
            game.camera.fit((x0, y0, x1, y1))
        else:
            game.set_zoom(zoom)
            game.camera.centre_on_world((x0 + x1) / 2, (y0 + y1) / 2)
        mouse = (SCREEN[0] // 2 + 40, SCREEN[1] // 2 + 30)
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=mouse, rel=(0, 0), buttons=(0, 0, 0))
        )
        start = (game.camera.cx, game.camera.cy)
        t = time.perf_counter()
        app.run_frames(1)
        warm = time.perf_counter() - t
        app.run_frames(30)  # every sheet cached, the tooltip up
        visible = len(game.map_layer.visible_positions(game.camera))
        print(
            f"zoom {game.camera.zoom_index} (hex {game.camera.size} px, {visible} sheets "
            f"visible; first frame "
            f"at this zoom {warm * 1000:.0f} ms while sheet caches render):"
        )
        game.map_cached = True
        still = _frames(app, game, FRAMES, pan=False)
        print(_line("still camera", still))
        game.camera.centre_on_world(*start)
        panning = _frames(app, game, FRAMES, pan=True)
        print(_line(f"panning {PAN_STEP} px a frame", panning))
        game.map_cached = False
        game.camera.centre_on_world(*start)
        baseline = _frames(app, game, BASELINE_FRAMES, pan=True)
        game.map_cached = True
        print(_line("every visible hex redrawn each frame", baseline))
        base = statistics.median(baseline)
        print(
            f"  ratio baseline / still {base / statistics.median(still):.0f}x, "
            f"baseline / panning {base / statistics.median(panning):.0f}x"
        )
        print("  where a still frame goes (median ms): " + _breakdown(app, game))
        print("  " + _labels(game))
    app.shutdown()


if __name__ == "__main__":
    main()
