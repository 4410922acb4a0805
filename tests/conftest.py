"""Headless settings for every test: no window, no sound, no GUI backend; and the
folder screenshots go to."""

import os
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("MPLBACKEND", "Agg")
# Every view built in the tests checks that no unit's profile or damage was written
# into in place, which the views' shared copies rely on (game/state/view.py).
os.environ.setdefault("BARRAGE_CHECK_VIEW_COPIES", "1")

# Property tests check answers, never time: no per-example deadline, so a loaded
# machine cannot fail them.
settings.register_profile("barrage", deadline=None)
settings.load_profile("barrage")


ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where a test saves its screenshots: ``BARRAGE_SCREENSHOTS`` (e.g.
    docs/screenshots, for the documentation's pictures) or the test's own folder."""
    folder = os.environ.get("BARRAGE_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path / "shots"
    if not path.is_absolute():
        path = ROOT / path
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The game's home folder (``BARRAGE_HOME``) for one test: saves and autosaves
    land in the test's tmp folder, never in the repo or ``~``."""
    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def app(home: Path):
    """The real game window at 1280x800, headless, the AI without delay, autosave on."""
    import pygame

    from game.ui.app import App

    window = App((1280, 800), ai_delay=0.0)
    pygame.event.clear()
    yield window
    window.shutdown()


@pytest.fixture
def window(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``open(state, size)``: the real game window at ``size``, headless, with north
    (human) against a standing AI; its home folder in the test's tmp folder."""
    import pygame

    from game.ui.app import App
    from game.ui.game_screen import GameScreen, StandingController
    from game.ui.seats import Seats
    from game.ui.session import GameSession

    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    apps: list[App] = []

    def open_window(state, size: tuple[int, int]):
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
