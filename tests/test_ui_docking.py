"""Headless tests of where the game screen's panels and messages go (SDL dummy driver,
real events): the messages stack in one place and never cover a modal dialog, the top
bar takes no click while a dialog is open, and the bar's tooltips are wide enough to
read."""

from __future__ import annotations

import pygame
import pytest

from game.state import DEFAULT_SCENARIO, GameState, new_game
from game.ui.screens import HelpOverlay
from game.ui.session import GameSession
from game.ui.widgets import ConfirmDialog, Dialog
from tests.test_ui_phase_bar import click, hover, to_phase

SIZES = [(1024, 700), (1280, 800), (1920, 1080)]


@pytest.fixture
def window(tmp_path, monkeypatch):
    """``open(state, size)``: the real window at ``size`` with north (human) against a
    standing AI, its home folder in the test's tmp folder."""
    from game.ui.app import App
    from game.ui.game_screen import GameScreen, StandingController
    from game.ui.seats import Seats

    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    apps: list[App] = []

    def open_window(state: GameState, size: tuple[int, int]):
        app = App(size, ai_delay=0.0, autosave=False)
        apps.append(app)
        pygame.event.clear()
        session = GameSession(
            state, {"north": "human", "south": StandingController()}, shown="north"
        )
        screen = app.replace_all(GameScreen(app, session, Seats(mode="solo", human="north")))
        app.run_frames(2)
        return app, screen

    yield open_window
    for app in apps:
        app.shutdown()


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
