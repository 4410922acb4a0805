"""Headless tests of where the game screen's panels and messages go (SDL dummy driver,
real events), at 1024x700, 1280x800 and 1920x1080: the messages stack in one place and
never cover a modal dialog, the top bar takes no click while a dialog is open, its
tooltips are wide enough to read; the panels dock without overlapping in every phase,
leave at least 60% of the map free at 1280x800 as they open at first, and the
player's choice of open panels lasts."""

from __future__ import annotations

import pygame
import pytest

from game.state import DEFAULT_SCENARIO, new_game
from game.ui.screens import HelpOverlay
from game.ui.session import GameSession
from game.ui.widgets import ConfirmDialog, Dialog
from tests.test_ui_phase_bar import click, hover, to_phase

SIZES = [(1024, 700), (1280, 800), (1920, 1080)]


def end_movement_question(app, screen) -> ConfirmDialog:
    """North in its movement with every unit still to move: "End movement" asks first."""
    to_phase(app, screen, "movement")
    app.run_frames(2)
    click(screen.phase_bar.buttons["end_movement"].rect.center)
    app.run_frames(4)
    dialog = screen.ctx.dialogs.showing(ConfirmDialog)
    assert dialog is not None
    return dialog


class TallDialog(Dialog):
    """A dialog as tall as the window allows: no room for messages above or below it."""

    title = "Tall"

    def size(self, screen: pygame.Rect) -> tuple[int, int]:
        return 600, screen.h


@pytest.mark.parametrize("size", SIZES)
def test_messages_stack_clear_of_an_open_dialog_or_wait_for_it(window, shots, size):
    """Four long messages stack at the top centre under the bar; with the "End
    movement" question open none of them touches the dialog; with a dialog the height
    of the window they are not drawn at all, their time does not run, and they come
    back in the same place once it closes."""
    app, screen = window(new_game(DEFAULT_SCENARIO, 3), size)
    dialog = end_movement_question(app, screen)
    ctx = screen.ctx
    for k in range(4):
        ctx.notify(f"message {k}: " + "a long line of words that wraps " * 3, error=k == 2)
    app.run_frames(3)
    assert len(screen.shown_toasts) == 4
    for rect in screen.shown_toasts:
        assert not rect.colliderect(dialog.rect), (rect, dialog.rect)
        assert pygame.Rect(0, 0, *size).contains(rect)
        assert rect.top >= screen.phase_bar.rect.bottom
    app.screenshot(shots / f"messages_and_dialog_{size[0]}x{size[1]}.png")
    press_escape(app)
    assert ctx.dialogs.top is None
    app.run_frames(2)
    free = list(screen.shown_toasts)
    assert len(free) == 4 and free[0].top == screen.phase_bar.rect.bottom + 10

    tall = ctx.dialogs.open(TallDialog())
    app.run_frames(3)
    assert screen.toasts_held and screen.shown_toasts == []
    assert "messages" not in ctx.cards
    # Well past their four seconds: held messages do not time out behind the dialog.
    app.run_frames(300, dt=1 / 30)
    assert len(ctx.toasts) == 4
    tall.closed = True
    app.run_frames(2)
    assert screen.shown_toasts == free and not screen.toasts_held


def press_escape(app) -> None:
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    )
    app.run_frames(3)


@pytest.mark.parametrize("size", SIZES)
def test_the_top_bars_buttons_take_no_click_under_a_dialog(window, size):
    """With the "End movement" question open, clicks on Help, Menu and "H hold" do
    nothing (the buttons are disabled and no help or pause screen opens); the question
    is still there, and once it is cancelled the same Help click opens the help."""
    app, screen = window(new_game(DEFAULT_SCENARIO, 3), size)
    dialog = end_movement_question(app, screen)
    bar = screen.phase_bar
    moved_before = [u.id for u in screen.ctx.view.own_units() if u.moved]
    for ident in ("help", "menu", "hold"):
        assert not bar.buttons[ident].is_enabled, ident
        click(bar.buttons[ident].rect.center)
        app.run_frames(4)
        assert app.top is screen, ident
        assert screen.ctx.dialogs.top is dialog, ident
    assert [u.id for u in screen.ctx.view.own_units() if u.moved] == moved_before
    press_escape(app)
    assert screen.ctx.dialogs.top is None
    assert bar.buttons["help"].is_enabled
    click(bar.buttons["help"].rect.center)
    app.run_frames(4)
    assert isinstance(app.top, HelpOverlay)


def test_the_bars_tooltips_are_wide_enough_to_read(window, shots):
    """Resting on "End movement" shows its tooltip in lines of at least 300 pixels, so
    the sentence takes two lines at most, inside the window."""
    app, screen = window(new_game(DEFAULT_SCENARIO, 3), (1024, 700))
    to_phase(app, screen, "movement")
    app.run_frames(2)
    button = screen.phase_bar.buttons["end_movement"]
    hover(button.rect.center)
    app.run_frames(90)
    tip = button.tool_tip
    assert tip is not None
    assert tip.rect.width >= 300
    assert tip.rect.height <= 70  # two lines of text and the padding
    assert pygame.Rect(0, 0, 1024, 700).contains(tip.rect)
    app.screenshot(shots / "bar_tooltip_1024x700.png")


# --- the docking of the panels ----------------------------------------------------------------


def docked(screen) -> dict[str, pygame.Rect]:
    """Every panel and card of the last frame (the modal veil aside), by name."""
    ctx = screen.ctx
    rects = {**ctx.panels, **ctx.cards}
    return {k: r for k, r in rects.items() if k != "dialog" and r.w and r.h}


def assert_docked(screen, size, where: str) -> dict[str, pygame.Rect]:
    """No two panels overlap, each lies inside the window, and none but the top bar
    reaches under it."""
    rects = docked(screen)
    window_rect = pygame.Rect(0, 0, *size)
    names = sorted(rects)
    for k, a in enumerate(names):
        assert window_rect.contains(rects[a]), (where, a, rects[a])
        if a != "phase_bar":
            assert rects[a].top >= screen.phase_bar.rect.bottom, (where, a, rects[a])
        for b in names[k + 1 :]:
            assert not rects[a].colliderect(rects[b]), (where, a, rects[a], b, rects[b])
    return rects


def free_share(screen) -> float:
    """The share of the map not under any panel or card (their union, counted once)."""
    area = screen.ctx.map_rect
    mask = pygame.mask.Mask(area.size)
    for rect in docked(screen).values():
        part = rect.clip(area).move(-area.x, -area.y)
        if part.w and part.h:
            mask.draw(pygame.mask.Mask(part.size, fill=True), part.topleft)
    return 1 - mask.count() / (area.w * area.h)


def press_key(app, key: int, frames: int = 3) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    app.run_frames(frames)


def select_own_unit(app, screen) -> None:
    """Click north's first unit on the map (its card opens)."""
    unit = next(u for u in screen.ctx.view.own_units() if u.hex is not None)
    screen.camera.centre_on(unit.hex)
    app.run_frames(1)
    click(screen.hex_to_screen(unit.hex))
    app.run_frames(3)
    assert screen.ctx.selected == unit.id


def hover_hex(app, screen, h) -> None:
    """Bring hex ``h`` under a point of the map that no panel covers, and rest the
    mouse on it."""
    ctx = screen.ctx
    area = ctx.map_rect
    taken = [r for k, r in {**ctx.panels, **ctx.hud}.items() if k != "dialog"]
    free = next(
        (x, y)
        for y in range(area.centery, area.bottom - 40, 20)
        for x in range(area.centerx, area.left + 40, -20)
        if not any(r.inflate(40, 40).collidepoint(x, y) for r in taken)
    )
    screen.camera.centre_on(h)
    screen.camera.pan(area.centerx - free[0], area.centery - free[1])
    app.run_frames(1)
    hover(screen.hex_to_screen(h))
    app.run_frames(3)
    assert ctx.hovered == h


@pytest.mark.parametrize("size", SIZES)
def test_panels_dock_without_overlap_in_every_phase(window, shots, size):
    """At each size, in set-up, movement (a unit selected), targeting with the plot
    preview open and a shell in flight, attacks, and while the shell lands with the
    arrival card: no two panels or cards overlap, all lie inside the window under the
    top bar; first with the panels as they open by default, then with every panel
    opened (log, minimap, intel, legend, plot panel, fire queue), but at 1024x700."""
    from game.state import PlotFire
    from tests.test_ui_artillery import unit_hex_of

    tag = f"{size[0]}x{size[1]}"
    # At 1024x700 the map has no room for the panels opened together beside the plot
    # preview, which must keep clear of the aimed hex: there the default state only.
    for opened in (False, True) if size != (1024, 700) else (False,):
        state = new_game(DEFAULT_SCENARIO, 3)
        app, screen = window(state, size)
        ctx = screen.ctx
        if opened:
            names = {"log": pygame.K_F2, "minimap": pygame.K_m}
            names |= {"intel": pygame.K_i, "legend": pygame.K_k}
            for key in names.values():
                press_key(app, key)
            assert all(ctx.panel_open.get(n) for n in names)
        label = "open" if opened else "default"
        to_phase(app, screen, "setup")
        app.run_frames(3)
        assert "setup" in assert_docked(screen, size, f"setup {label}")
        app.screenshot(shots / f"dock_{tag}_{label}_setup.png")
        to_phase(app, screen, "movement")
        select_own_unit(app, screen)
        assert "unit_panel" in assert_docked(screen, size, f"movement {label}")
        app.screenshot(shots / f"dock_{tag}_{label}_movement.png")
        to_phase(app, screen, "targeting")
        target = unit_hex_of(state, "s-hunter-1")
        ctx.submit(PlotFire("north", "n-long-tom", 1, target, "standard"))
        app.run_frames(2)
        press_key(app, pygame.K_p)
        if opened:
            press_key(app, pygame.K_b)
            press_key(app, pygame.K_g)
        hover_hex(app, screen, unit_hex_of(state, "s-hunter-2"))
        app.screenshot(shots / f"dock_{tag}_{label}_targeting.png")
        rects = assert_docked(screen, size, f"targeting {label}")
        assert {"plot_card", "batteries", "fire_queue"} <= set(rects), (
            list(rects.items()),
            ctx.mouse,
            ctx.hovered,
        )
        app.screenshot(shots / f"dock_{tag}_{label}_targeting.png")
        press_key(app, pygame.K_ESCAPE)
        to_phase(app, screen, "attack")
        press_key(app, pygame.K_f)
        assert_docked(screen, size, f"attack {label}")
        app.screenshot(shots / f"dock_{tag}_{label}_attack.png")
        press_key(app, pygame.K_f)
        arts = ctx.artillery
        for _ in range(400):
            if "arrival" in ctx.cards:
                break
            if ctx.session.acting() == "north" and not screen.layers_busy():
                from tests.test_ui_phase_bar import north_passes

                north_passes(screen)
            app.run_frames(1)
        assert arts.animation.busy and "arrival" in ctx.cards
        app.run_frames(2)
        assert_docked(screen, size, f"arrivals {label}")
        app.screenshot(shots / f"dock_{tag}_{label}_arrivals.png")


@pytest.mark.parametrize("size", SIZES)
def test_hot_seat_table_banner_messages_and_panels_do_not_overlap(
    tmp_path, monkeypatch, shots, size
):
    """Hot-seat at the table (after set-up, both sides' move): the banner naming
    whose move it is, a message, and the panels keep clear of each other."""
    from game.ui.app import App
    from game.ui.seats import HOTSEAT, Seats
    from tests.test_ui_artillery import end_setup

    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    app = App(size, ai_delay=0.0, autosave=False)
    try:
        pygame.event.clear()
        state = new_game(DEFAULT_SCENARIO, 3)
        end_setup(state)
        screen = app.open_game(state, Seats(HOTSEAT))
        app.run_frames(3)
        assert screen.seat_banner() is not None
        screen.ctx.notify("a message at the table")
        app.run_frames(3)
        rects = assert_docked(screen, size, "hot-seat table")
        assert {"seat_banner", "messages"} <= set(rects)
        app.screenshot(shots / f"dock_{size[0]}x{size[1]}_hotseat.png")
    finally:
        app.shutdown()


def test_the_map_is_at_least_60_percent_free_at_1280x800_by_default(window, shots):
    """With the panels as they open by default, at least 60% of the map is clear of
    panels (their union, the top bar included) in set-up, in movement with a unit
    selected (its card open), and in targeting with the plot preview open."""
    from tests.test_ui_artillery import unit_hex_of

    state = new_game(DEFAULT_SCENARIO, 3)
    app, screen = window(state, (1280, 800))
    shares = {}
    to_phase(app, screen, "setup")
    app.run_frames(3)
    shares["setup"] = free_share(screen)
    to_phase(app, screen, "movement")
    app.run_frames(3)
    shares["movement"] = free_share(screen)
    select_own_unit(app, screen)
    shares["movement, a unit selected"] = free_share(screen)
    to_phase(app, screen, "targeting")
    press_key(app, pygame.K_p)
    hover_hex(app, screen, unit_hex_of(state, "s-hunter-1"))
    assert "plot_card" in screen.ctx.cards
    shares["targeting, plot preview"] = free_share(screen)
    app.screenshot(shots / "free_map_1280x800_targeting.png")
    print({k: f"{v:.0%}" for k, v in shares.items()})
    for where, share in shares.items():
        assert share >= 0.60, (where, share)


def test_the_players_choice_of_open_panels_lasts_into_the_next_game(window, tmp_path):
    """F2 opens the log and M the minimap: the choice is the settings' ``panels``, so
    the next game in the window opens them too, and it goes through the settings file
    (a value that is not a table of names and true/false is refused by name)."""
    from game.ui.game_screen import GameScreen, StandingController
    from game.ui.seats import Seats
    from game.ui.settings import load_settings, save_settings

    app, screen = window(new_game(DEFAULT_SCENARIO, 3), (1280, 800))
    assert not screen.log_panel.open and screen.ctx.panels["minimap"].h == 28
    press_key(app, pygame.K_F2)
    press_key(app, pygame.K_m)
    assert app.settings.panels == {"log": True, "minimap": True}
    session = GameSession(
        new_game(DEFAULT_SCENARIO, 4), {"north": "human", "south": StandingController()}
    )
    again = app.replace_all(GameScreen(app, session, Seats(mode="solo", human="north")))
    app.run_frames(3)
    assert again.log_panel.open and again.ctx.panels["minimap"].h > 100
    path = tmp_path / "settings.json"
    assert save_settings(app.settings, path) is None
    kept, problem = load_settings(path)
    assert problem is None and kept.panels == {"log": True, "minimap": True}
    path.write_text('{"panels": {"log": "yes"}}')
    kept, problem = load_settings(path)
    assert kept.panels == {} and problem is not None and '"panels" must be' in problem
