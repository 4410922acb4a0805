"""Headless tests of the phase bar in the game window: while shells land it names
the artillery phase and the shell on show, and the AI waits until they have been
seen (or skipped)."""

from __future__ import annotations

import pygame
import pytest

from game.state import DEFAULT_SCENARIO, EndPhase, GameState, Hold, PlotFire, new_game
from game.ui.session import GameSession
from tests.test_ui_artillery import to_targeting, unit_hex_of

SIZES = [(1024, 700), (1280, 800)]


@pytest.fixture
def window(tmp_path, monkeypatch):
    """An App at a size; ``open(state, size)`` puts north (human) against a standing AI."""
    from game.ui.app import App
    from game.ui.game_screen import GameScreen, StandingController
    from game.ui.seats import Seats

    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    apps: list[App] = []

    def open_window(state: GameState, size: tuple[int, int]) -> tuple[App, GameScreen]:
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


def post_key(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def south_moves(state: GameState, after: int) -> list[str]:
    """South's units that moved or held after the ``after``-th event of the log."""
    return [
        e.data["unit"]
        for e in state.log[after:]
        if e.kind in ("move", "hold") and state.units[e.data["unit"]].side == "south"
    ]


@pytest.mark.parametrize("size", SIZES)
def test_during_arrivals_the_bar_names_the_shell_and_the_ai_waits(window, shots, size):
    """North's shell lands at the end of its turn: the bar reads "Turn 1 · Artillery ·
    shell 1 of 1" (not the next turn's movement), south's AI, first to move in the next
    turn, makes no move while the shell is on show, and moves once Esc skips the rest."""
    state = new_game(DEFAULT_SCENARIO, 3)
    target = unit_hex_of(state, "s-hunter-1")
    to_targeting(state, "north")
    app, screen = window(state, size)
    ctx = screen.ctx
    arts = ctx.artillery
    assert arts is not None
    ctx.submit(PlotFire("north", "n-long-tom", 1, target, "standard"))
    landed_at = None
    for _ in range(400):
        if arts.animation.busy:
            break
        if landed_at is None and any(e.kind == "arrival" for e in state.log):
            landed_at = len(state.log)
        view = ctx.view
        if session_north_acts(screen):
            if view.phase == "movement":
                left = [u for u in view.own_units() if u.hex and not u.moved]
                ctx.submit(Hold("north", left[0].id))
            else:
                ctx.submit(EndPhase("north"))
        app.run_frames(1)
    assert arts.animation.busy, "no shell landed"
    arrivals = [i for i, e in enumerate(state.log) if e.kind == "arrival"]
    turn = state.log[arrivals[-1]].turn
    shells = sum(1 for i in arrivals if state.log[i].turn == turn)
    after = arrivals[-1] + 1
    for _ in range(30):
        app.run_frames(1)
        bar = screen.phase_bar
        assert bar.phase_text.startswith(f"Turn {turn}")
        assert f"Artillery  ·  shell 1 of {shells}" in bar.phase_text
        assert south_moves(state, after) == []
    # The engine is in the next turn already, and south (which lost the initiative)
    # moves first in it: only the window holds its AI back.
    assert state.turn == turn + 1 and state.initiative["loser"] == "south"
    assert set(screen.phase_bar.buttons) >= {"next_shell", "skip_arrivals"}
    rect = screen.phase_bar.buttons["skip_arrivals"].rect
    assert screen.phase_bar.rect.contains(rect)
    app.screenshot(shots / f"phase_bar_arrivals_{size[0]}x{size[1]}.png")
    post_key(pygame.K_ESCAPE)
    app.run_frames(3)
    assert not arts.animation.busy and app.game is screen  # Esc skipped, no pause menu
    assert "Artillery" not in screen.phase_bar.phase_text
    for _ in range(60):
        if south_moves(state, after):
            break
        app.run_frames(1)
    assert south_moves(state, after)


def session_north_acts(screen) -> bool:
    session: GameSession = screen.session
    return session.acting() == "north" and screen.ctx.view.side == "north"
