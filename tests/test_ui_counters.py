"""Counters a wargamer can read: a symbol per unit type, the short name from a zoom level
on, and markers under the counters."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pygame
import pytest

from game.state.setup import new_game
from game.state.systems import has_missile_weapons
from game.ui import units_layer
from game.ui.app import App
from game.ui.camera import ZOOM_SIZES
from game.ui.units_layer import (
    NAME_SIZE,
    SYMBOL_NAMES,
    UnitsLayer,
    render_counter,
    short_name,
    unit_symbol,
)
from tests.engine_fixtures import end_setup
from tests.test_ui_artillery import SIZE, Harness

MAPS = sorted(Path("maps").glob("*.toml"))


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.init()
    yield pygame.display.set_mode(SIZE)
    pygame.quit()


def shipped_units():
    for path in MAPS:
        yield from new_game(path, 1).units.values()


def test_each_unit_type_of_the_shipped_scenarios_has_its_own_symbol():
    """One symbol per type in the system's own words; missile troops apart from foot."""
    seen: dict[tuple, set[str]] = {}
    for u in shipped_units():
        if u.kind == "aerospace":
            what = ("aerospace",)
        elif u.battery is not None:
            what = ("artillery",)
        elif u.system == "battletech":
            what = ("battletech", u.kind)
        else:
            what = ("figures", u.kind, has_missile_weapons(u))
        seen.setdefault(what, set()).add(unit_symbol(u))
    assert all(len(symbols) == 1 for symbols in seen.values()), seen
    expected = {
        ("aerospace",): "aerospace",
        ("artillery",): "artillery",
        ("battletech", "mech"): "mech",
        ("battletech", "vehicle"): "vehicle",
        ("battletech", "infantry"): "infantry",
        ("figures", "infantry", False): "foot",
        ("figures", "warrior", False): "foot",
        ("figures", "infantry", True): "missile",
        ("figures", "warrior", True): "missile",
        ("figures", "cavalry", False): "cavalry",
        ("figures", "cavalry", True): "cavalry",  # Wolf Riders: mounted bows
        ("figures", "monster", False): "monster",
        ("figures", "gun", True): "gun",
    }
    assert {k: next(iter(v)) for k, v in seen.items()} == expected


@pytest.mark.parametrize("size", [18, 36])
def test_every_symbol_draws_differently(size):
    drawn = {
        s: pygame.image.tobytes(render_counter(size, (40, 90, 200), s, None, 1.0), "RGBA")
        for s in SYMBOL_NAMES
    }
    for a, b in combinations(SYMBOL_NAMES, 2):
        assert drawn[a] != drawn[b], (a, b)


def test_a_short_name_fits_its_width():
    assert short_name("Lancer Eye (spotter)", 30, 2000) == "Lancer Eye"
    assert short_name("Knights of the Blazing Sun", 12, 70) == "Knights BS"
    assert short_name("Strike Command Cruise Battery", 12, 40).endswith(".")


def names_written(h: Harness, layer: UnitsLayer, zoom: int, monkeypatch) -> set[str]:
    written: list[str] = []
    real = units_layer.fonts.text

    def text(label, *args, **kwargs):
        written.append(label)
        return real(label, *args, **kwargs)

    monkeypatch.setattr(units_layer.fonts, "text", text)
    h.camera.set_zoom(zoom)
    h.camera.centre_on(h.state.units["w-halberds"].hex)
    layer.draw_world(h.surface, h.ctx)
    monkeypatch.setattr(units_layer.fonts, "text", real)
    return set(written)


def test_the_name_is_on_the_counter_from_its_zoom_level_on(monkeypatch):
    state = new_game("maps/burning_bridge.toml", 1)
    end_setup(state)
    h = Harness(state, "west")
    layer = UnitsLayer(h.ctx)
    level = ZOOM_SIZES.index(NAME_SIZE)
    below = names_written(h, layer, level - 1, monkeypatch)
    at = names_written(h, layer, level, monkeypatch)
    assert "Halberdiers" not in below
    assert "Halberdiers" in at
    assert "Wolf R" in at or "Wolf Riders" in at


def test_ART_20_a_pre_designated_marker_on_a_units_hex_leaves_its_counter_visible(
    tmp_path, monkeypatch
):
    """The marker goes under the counters: the counter's pixels are the same with and
    without a pre-designated hex under it."""
    from game.state import DEFAULT_SCENARIO, Predesignate, apply
    from tests.test_ui_setup import SIZE as SCREEN
    from tests.test_ui_setup import solo

    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    app = App(SCREEN, ai_delay=0.0, autosave=False)
    try:
        state = new_game(DEFAULT_SCENARIO, 1)
        screen = solo(app, state, "north")
        assert screen.ctx.view.options.get("predesignated_hexes")
        unit = next(u for u in state.units.values() if u.side == "north" and u.hex is not None)
        screen.set_zoom(4)
        screen.camera.centre_on(unit.hex)

        def counter_pixels() -> bytes:
            screen.ctx.refresh()
            surface = pygame.Surface(SCREEN)
            screen.draw(surface)
            x, y = screen.hex_to_screen(unit.hex)
            side = round(screen.camera.size * 1.25 * 0.8)
            box = pygame.Rect(0, 0, side, side)
            box.center = (round(x), round(y))
            return pygame.image.tobytes(surface.subsurface(box), "RGB")

        before = counter_pixels()
        apply(state, Predesignate("north", unit.hex))
        assert unit.hex in state.predesignated["north"]
        assert counter_pixels() == before
    finally:
        app.shutdown()


def test_figures_counters_screenshot(tmp_path, monkeypatch):
    """Burning Bridge's regiments at the name zoom: foot, missile troops, cavalry and a
    monster each with its symbol and name (``counters_figures.png``; with
    ``BARRAGE_SCREENSHOTS=docs/screenshots`` it goes there)."""
    import os

    from tests.test_ui_setup import ROOT, solo

    folder = Path(os.environ.get("BARRAGE_SCREENSHOTS") or tmp_path)
    folder = folder if folder.is_absolute() else ROOT / folder
    folder.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    app = App(SIZE, ai_delay=0.0, autosave=False)
    try:
        state = new_game("maps/burning_bridge.toml", 1)
        end_setup(state)
        screen = solo(app, state, "west")
        screen.set_zoom(ZOOM_SIZES.index(NAME_SIZE))
        screen.camera.centre_on(state.units["w-knights"].hex)
        app.run_frames(2)
        assert {"w-halberds", "w-knights"} <= set(screen.units.drawn)
        assert app.screenshot(folder / "counters_figures.png").exists()
    finally:
        app.shutdown()
