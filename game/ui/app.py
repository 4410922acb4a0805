"""The game window: a stack of screens, the main loop and the command line of the window.

``run(argv)`` is what ``python main.py [options]`` does: open a resizable
window (1280x800 at first, then as the settings keep it) on the main menu, or
straight on a battle with ``--scenario FILE``; with ``--screenshot PATH`` it
renders without a display, saves a PNG after ``--frames N`` frames and exits.

An ``App`` holds a stack of ``Screen`` objects (the menu, the game screen,
the hand-over screen, the pause menu, dialogs...). Every frame the top screen
gets the events and ``update``; the screens are drawn from the topmost opaque
one upward, so an overlay (the pause menu) shows the game beneath it while an
opaque screen (the hot-seat hand-over) hides everything below it.

Tests drive the window with real pygame events: post them with
``pygame.event.post`` and call ``App.run_frames(n)``, which runs ``n`` frames of
fixed length exactly as the main loop does (events, update, draw).

User data (saves, the autosave, screenshots) lives in ``$BARRAGE_HOME`` or
``~/.barrage`` (``game.ui.home``).

This module is the top of the window: it imports the screens (the menu, the
game screen, the replay, the screens over the game); they import the layers
and panels; and those the theme, the widget kit and the context. Nothing
imports back up (``tests/test_ui_import_graph.py``): a screen reaches the app
only through ``self.app``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import pygame
import pygame_gui

from game.cli import UsageError, add_screenshot_options, invalid_file, parse, usage_error
from game.state import GameState, SaveError, Seal, autosave, load_game, new_game
from game.state.saves import clean_stale_temp_files
from game.state.timeline import ReplayTimeline
from game.ui import theme
from game.ui.game_screen import GameScreen, make_session
from game.ui.home import autosave_dir, logs_dir, saves_dir
from game.ui.menu import MainMenu
from game.ui.replay import BOTH, ReplayScreen
from game.ui.screen import Screen
from game.ui.seats import HOTSEAT, LEVELS, MODES, SOLO, WATCH, Seats, read_seats, write_seats
from game.ui.settings import load_settings, save_settings
from game.ui.sound import SoundBoard
from game.ui.tutorial import open_tutorial

ROOT = Path(__file__).resolve().parents[2]
THEME = ROOT / "assets" / "theme.json"
DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (960, 600)
MAX_SIZE = (16384, 16384)
FPS = 60

# Sizes pygame-gui uses with the theme in assets/theme.json; loaded up front so
# no element has to load a font on the fly (and warn about it).
_GUI_FONTS = [
    {"name": "noto_sans", "point_size": size, "style": style, "antialiased": "1"}
    for size in (13, 14, 15, 16, 17, 19)
    for style in ("regular", "bold", "italic", "bold_italic")
]


# --- the application --------------------------------------------------------------------


class App:
    """The window and its screens (see the module docstring)."""

    def __init__(
        self,
        size: tuple[int, int] | None = DEFAULT_SIZE,
        ai_delay: float = 0.25,
        autosave: bool = True,
    ) -> None:
        """``size``: the window's size, or None for the size (and fullscreen) kept in
        the settings; ``ai_delay``: seconds between the AI's commands, so a player can
        follow them (0 in tests); ``autosave``: write the autosave every turn (and keep
        the settings and the logs of finished games)."""
        started = time.perf_counter()
        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat(300, 40)
        # The player's settings and last menu choices (game/ui/settings.py); a file that
        # cannot be used is reported once, by the menu.
        self.settings, self.settings_problem = load_settings()
        self.screens: list[Screen] = []
        self.size = DEFAULT_SIZE
        if size is None:
            self.set_window(self.settings.window, self.settings.fullscreen)
        else:
            self.set_window(size)
        pygame.display.set_caption("Barrage")
        self.ai_delay = float(ai_delay)
        self.autosave = autosave
        self.running = True
        self.clock = pygame.time.Clock()
        self.frames = 0
        # The sound board (game/ui/sound.py): made when first wanted (``sound_board``),
        # kept with its volume and mute for the games after it.
        self.sound: SoundBoard | None = None
        self.first_frame_seconds: float | None = None
        self._started = started
        self._gui_fonts_loaded = False
        for folder in (saves_dir(), autosave_dir()):
            clean_stale_temp_files(folder)

    # --- settings -----------------------------------------------------------------------

    def set_window(self, size: Sequence[int], fullscreen: bool = False) -> None:
        """Open the window at ``size`` (no smaller than ``MIN_SIZE``), or fullscreen at
        the desktop's size, and lay every screen out again."""
        if fullscreen:
            self.window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            w, h = self.window.get_size()
        else:
            w, h = max(MIN_SIZE[0], int(size[0])), max(MIN_SIZE[1], int(size[1]))
            self.window = pygame.display.set_mode((w, h), pygame.RESIZABLE)
        if (w, h) != self.size:
            self.size = (w, h)
            for screen in self.screens:
                screen.resize(self.size)

    def sound_board(self) -> SoundBoard:
        """The window's sound board, made on first use with the settings' sound and
        volume (silent where no audio device exists)."""
        if self.sound is None:
            settings = self.settings
            self.sound = SoundBoard(settings.volume, muted=not settings.sound)
        return self.sound

    def save_settings(self) -> str | None:
        """Keep the settings for the next run; the reason when they cannot be written.
        An app without autosave (screenshots, the replay command) keeps nothing."""
        if not self.autosave:
            return None
        return save_settings(self.settings)

    # --- the stack ------------------------------------------------------------------

    @property
    def top(self) -> Screen | None:
        return self.screens[-1] if self.screens else None

    def push(self, screen: Screen) -> Screen:
        self.screens.append(screen)
        return screen

    def pop(self, screen: Screen | None = None) -> None:
        """Remove the top screen (or ``screen`` wherever it is) and close it."""
        if not self.screens:
            return
        target = self.screens[-1] if screen is None else screen
        if target in self.screens:
            self.screens.remove(target)
            target.close()

    def replace_all(self, screen: Screen) -> Screen:
        """Close every screen and show ``screen`` alone."""
        while self.screens:
            self.pop()
        return self.push(screen)

    def find(self, kind: type) -> Any:
        """The topmost screen of a class, or None."""
        for screen in reversed(self.screens):
            if isinstance(screen, kind):
                return screen
        return None

    @property
    def game(self) -> GameScreen | None:
        """The game screen on the stack, if a game is open."""
        return self.find(GameScreen)

    # --- pygame-gui -------------------------------------------------------------------

    def ui_manager(self) -> pygame_gui.UIManager:
        """A pygame-gui manager with the game's theme, its fonts loaded."""
        manager = pygame_gui.UIManager(self.size, str(THEME), enable_live_theme_updates=False)
        loaded = manager.get_theme().get_font_dictionary()
        missing = []
        for spec in _GUI_FONTS:
            style = str(spec["style"])
            font_id = loaded.create_font_id(
                int(spec["point_size"]), str(spec["name"]), "bold" in style, "italic" in style
            )
            if not loaded.check_font_preloaded(font_id):
                missing.append(spec)
        if missing:
            manager.preload_fonts(missing)
        return manager

    # --- moving between screens ----------------------------------------------------------

    def open_menu(self) -> None:
        self.replace_all(MainMenu(self))

    def start_game(self, scenario: str | Path, seats: Seats, seed: int | None = None) -> GameScreen:
        """A new game of a scenario file: replaces every screen with the game screen."""
        seed = int(time.time() * 1000) % 1_000_000_007 if seed is None else int(seed)
        state = new_game(scenario, seed)
        return self.open_game(state, seats)

    def open_game(self, state: GameState, seats: Seats) -> GameScreen:
        """Play ``state`` with these seats (a new or loaded game)."""
        seats.check(state.sides)
        folder = autosave_dir() if self.autosave else None
        session = make_session(state, seats, folder)
        session.logs_dir = logs_dir() if self.autosave else None
        if folder is not None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                write_seats(folder / "autosave.json", seats)
            except OSError as exc:  # reported on the game screen; the game is played all the same
                session.autosave_problem = (
                    f"No autosave in {folder} ({exc.strerror or exc}); "
                    "the game goes on, Ctrl+S saves it"
                )
        screen = GameScreen(self, session, seats)
        self.replace_all(screen)
        return screen

    def load_game(self, path: str | Path, passphrases: dict[str, str] | None = None) -> GameScreen:
        """Open a save (``SaveError`` with the reason when it cannot be read); a sealed
        hot-seat save with both sides' ``passphrases``, and its game goes on sealed."""
        path = Path(path)
        state = load_game(path, passphrases)
        screen = self.open_game(state, read_seats(path, state))
        if passphrases:
            screen.session.seal = Seal.from_passphrases(state.sides, passphrases)
            screen.passphrases = None
        return screen

    def open_replay(
        self, source: str | Path | ReplayTimeline, side: str = "both", position: int = 0
    ) -> ReplayScreen:
        """Step through a saved game (a game log or a save, or its timeline) from
        ``side``'s view or both (``SaveError`` when the file does not replay)."""
        if not isinstance(source, ReplayTimeline):
            source = ReplayTimeline.from_file(source)
        screen = ReplayScreen(self, source, side, position)
        self.replace_all(screen)
        return screen

    def quit(self) -> None:
        self.running = False

    # --- the loop ----------------------------------------------------------------------

    def frame(self, dt: float) -> None:
        """One frame: events to the top screen, its update, drawing, flip."""
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.quit()
                continue
            if event.type == pygame.VIDEORESIZE:
                self._resize((event.w, event.h))
                continue
            top = self.top
            if top is not None:
                top.handle_event(event)
        top = self.top
        if top is not None:
            top.update(dt)
        self.draw()
        pygame.display.flip()
        self.frames += 1
        if self.first_frame_seconds is None:
            self.first_frame_seconds = time.perf_counter() - self._started

    def draw(self) -> None:
        surface = self.window
        if not self.screens:
            surface.fill(theme.BACKGROUND)
            return
        start = 0
        for k in range(len(self.screens) - 1, -1, -1):
            if self.screens[k].opaque:
                start = k
                break
        for screen in self.screens[start:]:
            screen.draw(surface)

    def run_frames(self, n: int, dt: float = 1 / FPS) -> None:
        """Run ``n`` frames of ``dt`` seconds each, as the main loop would (tests,
        screenshots). Stops early when the app quits."""
        for _ in range(int(n)):
            if not self.running:
                break
            self.frame(dt)

    def run(self) -> int:
        """The main loop, until the window is closed or Quit is chosen."""
        while self.running and self.screens:
            dt = self.clock.tick(FPS) / 1000.0
            self.frame(min(dt, 0.1))
        self.save_on_exit()
        if self.sound is not None:  # switched by Ctrl+M in a game, or in Settings
            self.settings.sound = not self.sound.muted
        problem = self.save_settings()
        if problem:
            print(problem, file=sys.stderr)
        self.shutdown()
        return 0

    def save_on_exit(self) -> Path | None:
        """Closing the window mid-game writes the autosave, so Continue resumes there."""
        game = self.game
        if game is None or not self.autosave or game.session.over:
            return None
        # The tutorial keeps its game apart from the ordinary autosave (game/ui/tutorial.py).
        folder = game.session.autosave_dir or autosave_dir()
        try:
            return autosave(game.session.state, folder, game.session.seal)
        except OSError as exc:
            print(f"could not write the autosave into {folder}: {exc}")
            return None

    def screenshot(self, path: str | Path) -> Path:
        """Save the window as it is now (PNG)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.window, str(path))
        return path

    def shutdown(self) -> None:
        while self.screens:
            self.pop()
        pygame.display.quit()

    def _resize(self, size: tuple[int, int]) -> None:
        w, h = max(MIN_SIZE[0], int(size[0])), max(MIN_SIZE[1], int(size[1]))
        if (w, h) != tuple(size):
            self.window = pygame.display.set_mode((w, h), pygame.RESIZABLE)
        else:
            self.window = pygame.display.get_surface() or self.window
        self.size = (w, h)
        self.settings.window = self.size  # a window made larger opens so the next time
        for screen in self.screens:
            screen.resize(self.size)


# --- the command line --------------------------------------------------------------------


def build_parser(prog: str = "main.py", epilog: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Barrage: hex-map artillery simulator. Without options it opens the "
        "game window on the main menu.",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--scenario", metavar="FILE", help="skip the menu: play this scenario file (maps/*.toml)"
    )
    parser.add_argument(
        "--load", metavar="SAVE", help="skip the menu: open a saved game (a .json save)"
    )
    parser.add_argument(
        "--tutorial",
        action="store_true",
        help="skip the menu: learn the game by playing (resumes an unfinished tutorial)",
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        default=SOLO,
        help="solo: you against the AI; hotseat: two players at one screen; "
        "watch: AI against AI (default solo)",
    )
    parser.add_argument(
        "--side", metavar="SIDE", help="your side in solo play, the watched side in watch mode"
    )
    parser.add_argument(
        "--level", choices=LEVELS, default="normal", help="the AI's level (default normal)"
    )
    parser.add_argument(
        "--sealed",
        action="store_true",
        help="hot-seat: seal the saves with a passphrase per side, asked at each side's "
        "first hand-over",
    )
    parser.add_argument("--seed", type=int, help="dice seed of a new game (default: the clock)")
    parser.add_argument(
        "--size",
        type=_size,
        metavar="WxH",
        help="window size in pixels (default: the size set in Settings, at first "
        f"{DEFAULT_SIZE[0]}x{DEFAULT_SIZE[1]})",
    )
    parser.add_argument(
        "--zoom", type=_zoom, metavar="LEVEL", help="starting zoom level of the map, 0 (far) to 6"
    )
    add_screenshot_options(parser)
    return parser


def _size(text: str) -> tuple[int, int]:
    """Argparse type of --size: WIDTHxHEIGHT within what SDL can open."""
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give the window size as WIDTHxHEIGHT, e.g. 1600x900"
        ) from None
    if w < 1 or h < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: width and height must be positive")
    if w > MAX_SIZE[0] or h > MAX_SIZE[1]:
        # SDL cannot make a window (nor its surface) much larger than this.
        raise argparse.ArgumentTypeError(
            f"{text!r}: the window is at most {MAX_SIZE[0]}x{MAX_SIZE[1]} pixels"
        )
    return w, h


def _zoom(text: str) -> int:
    """Argparse type of --zoom: a zoom level of the camera."""
    try:
        level = int(text)
    except ValueError:
        level = -1
    if not 0 <= level <= 6:
        raise argparse.ArgumentTypeError(f"{text!r}: zoom levels are 0 (far) to 6 (near)")
    return level


def run(argv: Sequence[str] | None = None, prog: str = "main.py", epilog: str | None = None) -> int:
    """Open the game window as the command line asks; returns the exit code: 1 for a
    scenario or save that is not valid, 2 for a usage error (game/cli.py)."""
    parser = build_parser(prog, epilog)
    args = parse(parser, list(sys.argv[1:] if argv is None else argv))
    if isinstance(args, int):
        return args
    if args.tutorial and (args.scenario or args.load):
        problem = "--tutorial plays its own battle: leave out --scenario and --load"
        return usage_error(parser, problem)
    if args.screenshot:
        # No display needed: SDL reads these when the video system starts.
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    headless = bool(args.screenshot) or args.frames is not None
    # Without --size the window opens as the settings keep it (a screenshot: the default).
    size = args.size or (DEFAULT_SIZE if headless else None)
    app = App(size, ai_delay=0.0 if headless else 0.25)
    try:
        seats = Seats(
            args.mode,
            human=args.side if args.mode == SOLO else None,
            level=args.level,
            watch=args.side if args.mode == WATCH else None,
            sealed=args.sealed and args.mode == HOTSEAT,
        )
        if args.tutorial:
            screen = open_tutorial(app)
        elif args.scenario:
            screen = app.start_game(args.scenario, seats, args.seed)
        elif args.load:
            screen = app.load_game(args.load)
        else:
            screen = None
            app.open_menu()
        if screen is not None and args.zoom is not None:
            screen.set_zoom(args.zoom)
    except UsageError as exc:
        # A --side the scenario does not have: the option is wrong, not the file.
        app.shutdown()
        return usage_error(parser, str(exc))
    except (OSError, ValueError) as exc:
        # ScenarioError and SaveError are ValueErrors whose text names the file and the fix.
        app.shutdown()
        return invalid_file(prog, f"cannot start: {exc}")
    if headless:
        app.run_frames(args.frames or 3)
        if args.screenshot:
            saved = app.screenshot(args.screenshot)
            print(f"screenshot saved to {saved}")
        app.shutdown()
        return 0
    return app.run()


def run_replay(
    path: str | Path,
    side: str = BOTH,
    turn: int | None = None,
    screenshot: str | Path | None = None,
    frames: int | None = None,
    size: Sequence[int] = DEFAULT_SIZE,
    err: TextIO | None = None,
) -> int:
    """``python main.py replay FILE``: open the window on the replay; with
    ``screenshot`` render without a display, save a PNG after ``frames`` frames and
    exit. Returns the exit code: 1 when the file cannot be replayed (game/cli.py);
    raises UsageError for a side or turn the game does not have."""
    if frames is not None and frames < 1:
        raise UsageError(f"--frames must be 1 or more, not {frames}")
    try:
        timeline = ReplayTimeline.from_file(path)
    except SaveError as exc:
        return invalid_file("replay", exc, err)
    if side != BOTH and side not in timeline.sides:
        raise UsageError(
            f"--side {side}: the sides of this game are {timeline.sides[0]} and "
            f"{timeline.sides[1]}, or {BOTH} for both"
        )
    position = 0
    if turn is not None:
        try:
            position = timeline.turn_start(turn)
        except ValueError as exc:
            raise UsageError(f"--turn {turn}: {exc}") from None
    if screenshot:
        # No display needed: SDL reads these when the video system starts.
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    headless = bool(screenshot) or frames is not None
    app = App((int(size[0]), int(size[1])), ai_delay=0.0, autosave=False)
    app.open_replay(timeline, side, position)
    if headless:
        app.run_frames(frames or 3)
        if screenshot:
            print(f"screenshot saved to {app.screenshot(screenshot)}")
        app.shutdown()
        return 0
    return app.run()
