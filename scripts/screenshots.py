"""Draw the pictures of docs/screenshots again from the window's tour of its screens
(game/ui/tour.py, the catalogue the layout test draws too).

    python scripts/screenshots.py                  # every picture of docs/screenshots
    python scripts/screenshots.py menu help        # only these scenes
    python scripts/screenshots.py --all --out DIR  # every scene at every size, to DIR

A picture is named after its scene and drawn at 1280x800; a name ending in a size
(``menu_1024x700``) is drawn at that size. The window is headless (SDL's dummy
driver) and its saves, logs and settings go to a folder of its own, removed after.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "screenshots"
SIZE = (1280, 800)
SIZES = [(1024, 700), (1280, 800), (1920, 1080)]

# The pictures docs/screenshots holds (the README and docs/*.md show them).
PICTURES = [
    "menu",
    "menu_1024x700",
    "menu_replays",
    "menu_replays_1024x700",
    "menu_settings",
    "menu_settings_1024x700",
    "settings_in_game_1024x700",
    "tutorial",
    "battle_far",
    "battle_near",
    "setup_deploy",
    "setup_predesignate",
    "plot_mode_forecast",
    "arrival_rings",
    "los_tool",
    "intel_arrows",
    "map_labels_1024x700",
    "exits",
    "sheet_picker",
    "counter_battery_plot",
    "air_attack",
    "counters_figures",
    "help",
    "handover",
    "hotseat_table",
    "replay",
    "end_screen",
]


def scene_and_size(picture: str) -> tuple[str, tuple[int, int]]:
    """``menu_1024x700`` -> ("menu", (1024, 700)); a name without a size: 1280x800."""
    head, _, tail = picture.rpartition("_")
    width, x, height = tail.partition("x")
    if head and x and width.isdigit() and height.isdigit():
        return head, (int(width), int(height))
    return picture, SIZE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pictures", nargs="*", help="pictures to draw (default: all of docs)")
    parser.add_argument("--out", type=Path, default=DOCS, help="folder (default: %(default)s)")
    parser.add_argument("--all", action="store_true", help="every scene at the three sizes")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    sys.path.insert(0, str(ROOT))
    from game.ui import tour
    from game.ui.app import App

    if args.all:
        wanted = [f"{n}_{w}x{h}" for w, h in SIZES for n in tour.SCENES]
    else:
        wanted = args.pictures or PICTURES
    unknown = [p for p in wanted if scene_and_size(p)[0] not in tour.SCENES]
    if unknown:
        print(f"screenshots.py: no scene {', '.join(unknown)}; scenes: {', '.join(tour.SCENES)}")
        return 2
    by_size: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for picture in wanted:
        scene, size = scene_and_size(picture)
        by_size.setdefault(size, []).append((picture, scene))
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as home:
        os.environ["BARRAGE_HOME"] = home
        for size, pictures in by_size.items():
            app = App(size, ai_delay=0.0, autosave=False)
            try:
                for picture, scene in pictures:
                    started = time.perf_counter()
                    tour.show(app, scene)
                    tour.fresh_frame(app)
                    path = app.screenshot(args.out / f"{picture}.png")
                    took = time.perf_counter() - started
                    print(
                        f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
                        f"  ({took:.1f} s)"
                    )
            finally:
                app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
