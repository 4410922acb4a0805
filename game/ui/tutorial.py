"""The tutorial: the battle of ``maps/tutorial.toml`` with a card that teaches one
lesson at a time (``python main.py --tutorial``, or Tutorial in the main menu).

``open_tutorial(app)`` opens the game screen on the tutorial's game (the one left
unfinished, or a new one) and adds a ``TutorialCard`` layer to it. The lessons,
their checks and the opponent are in ``game.ui.lessons`` (no pygame): the card
only asks ``Progress.advance`` after every change of the player's view, and
never decides from the screen whether a lesson is done.

The card lies at the left edge, under the unit panel (or the top bar) and above
the log (clicking its title folds it away); its buttons: Back (the lesson before),
Skip step (or Next, once a lesson to read has been shown), Leave tutorial (saves
and returns to the menu), and once every lesson is done Start over. The
tutorial's game and progress are kept in ``tutorial/`` of the user's data folder,
apart from the autosave of ordinary games: the game is written every turn and with
the progress whenever a lesson changes, and again when the window closes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.state import SaveError, load_game, new_game
from game.ui import fonts, theme
from game.ui.context import UiContext
from game.ui.game_screen import GameScreen
from game.ui.home import data_home
from game.ui.lessons import (
    LESSONS,
    OPPONENT,
    PLAYER,
    SCENARIO,
    SEED,
    PicketCommander,
    Progress,
    load_progress,
    save_progress,
)
from game.ui.seats import SOLO, Seats
from game.ui.session import HUMAN, GameSession
from game.ui.theme import ACCENT, BODY, GOOD, HEAD, MARGIN, MUTED, SMALL, TEXT, TITLE_HEIGHT
from game.ui.widgets import Button, DialogLayer, clicked, dock, panel_surface, pressed, text
from game.ui.widgets import wrap as wrap_text

if TYPE_CHECKING:
    from game.state import GameState
    from game.ui.app import App

CARD_WIDTH = 460  # the log's width: the left column lines up
PAD = 14
CARD_ALPHA = 248
BUTTON_HEIGHT = 30
LINE = 19


def tutorial_dir() -> Path:
    """Where the tutorial's game and progress are kept."""
    return data_home() / "tutorial"


def _saved_game(folder: Path) -> GameState | None:
    """The tutorial left unfinished, if it can be read."""
    path = folder / "autosave.json"
    if not path.is_file():
        return None
    try:
        state = load_game(path)
    except (SaveError, ValueError, OSError):
        return None  # a save that does not load: the tutorial starts again
    return state if state.result is None else None


def open_tutorial(app: App, fresh: bool = False) -> GameScreen:
    """Open the tutorial on ``app``: the unfinished one where it was left, or (with
    ``fresh``, or when there is none) a new one."""
    folder = tutorial_dir()
    state = None if fresh else _saved_game(folder)
    progress = load_progress(folder) if state is not None else Progress()
    if state is None or progress.finished:
        state = new_game(SCENARIO, SEED)
        progress = Progress()
    session = GameSession(
        state,
        {PLAYER: HUMAN, OPPONENT: PicketCommander()},
        autosave_dir=folder if app.autosave else None,
        ai_seed=SEED,
    )
    screen = GameScreen(app, session, Seats(SOLO, PLAYER, level="easy"))
    card = TutorialCard(screen, progress, folder if app.autosave else None)
    # Under the dialog host, which must see events first while a dialog is open.
    at = next(
        (i for i, layer in enumerate(screen.layers) if isinstance(layer, DialogLayer)),
        len(screen.layers),
    )
    screen.layers.insert(at, card)
    screen.other_layers.append(card)  # its resize and close hooks
    app.replace_all(screen)
    card.save()
    return screen


class TutorialCard:
    """The tutorial's card over the game screen (see the module docstring)."""

    title = "Tutorial"

    def __init__(self, screen: GameScreen, progress: Progress, folder: Path | None) -> None:
        self.screen = screen
        self.progress = progress
        self.folder = folder
        self.folded = False
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.title_rect = pygame.Rect(0, 0, 0, 0)
        self.buttons: dict[str, Button] = {}
        self.leave: Callable[[], None] = screen.app.open_menu
        self.problem: str | None = None

    @property
    def ctx(self) -> UiContext:
        return self.screen.ctx

    def keys(self) -> list[tuple[str, str]]:
        return [
            ("Click the card's title", "fold or unfold the tutorial card"),
            ("Back / Skip step", "the lesson before / the next one"),
            ("Leave tutorial", "save it and return to the menu; Tutorial resumes it"),
        ]

    # --- progress ------------------------------------------------------------------------

    def save(self) -> None:
        """Write the game and the progress together, so a resumed tutorial finds its
        lesson and the log entries that lesson has seen."""
        if self.folder is None:
            return
        try:
            save_progress(self.folder, self.progress)
            self.screen.session.write_autosave()
        except OSError as exc:
            self.problem = f"The tutorial cannot be saved in {self.folder}: {exc.strerror or exc}"

    def check(self) -> None:
        """Advance past the lessons the game now shows done."""
        ctx = self.ctx
        if ctx.view.side != PLAYER:
            return
        before = (self.progress.lesson, self.progress.seen)
        for lesson in self.progress.advance(ctx.view):
            ctx.notify(f"Lesson done: {lesson.title}", seconds=2.5)
        if (self.progress.lesson, self.progress.seen) != before:
            self.save()
            self.look()

    def look(self) -> None:
        """Show the player the hex the lesson is about (where the shell landed, where the
        bearing was announced, the guns found)."""
        lesson = self.progress.current
        if lesson is None or lesson.focus is None or (lesson.read and not self.progress.seen):
            return
        h = lesson.focus(self.ctx.view)
        if h is not None:
            self.screen.camera.centre_on(h)

    def act(self, name: str) -> None:
        view = self.ctx.view
        if name == "back":
            self.progress.back(view)
        elif name == "next":
            self.progress.next(view)
            self.look()
        elif name == "leave":
            self.save()
            self.leave()
            return
        elif name == "restart":
            open_tutorial(self.screen.app, fresh=True)
            return
        self.save()

    # --- layer ------------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        if event.type not in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            return False
        if not self.rect.collidepoint(event.pos):
            return False
        if clicked(event):
            if self.title_rect.collidepoint(event.pos):
                self.folded = not self.folded
                return True
            for name, button in self.buttons.items():
                if button.hit(event.pos):
                    self.act(name)
                    return True
        return pressed(event) or clicked(event) or event.type == pygame.MOUSEBUTTONDOWN

    def update(self, dt: float, ctx: UiContext) -> None:
        if not self.screen.layers_busy():  # shells still landing on screen: wait for them
            self.check()
        if self.problem:
            ctx.notify(self.problem, seconds=6.0, error=True)
            self.problem = None

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        pass

    def _texts(self) -> tuple[str, str, str, str, str]:
        """Head, title, body, hint and status of the card as the progress stands."""
        progress = self.progress
        lesson = progress.current
        if lesson is None:
            return (
                "Tutorial complete",
                "You have found the enemy guns",
                "That is the whole game: move, plot, watch, adjust, read the bearings and "
                "hunt. Play on to destroy the battery, or leave and pick a scenario: Long "
                "Tom Hunt against an Easy AI is a good first battle.",
                "",
                "",
            )
        status = ""
        if progress.seen:
            status = "Done: read it, then Next"
        elif lesson.read:
            status = "Waiting for the game to show it"
        head = f"Tutorial - lesson {progress.lesson + 1} of {len(LESSONS)}"
        return head, lesson.title, lesson.text, lesson.hint, status

    def place(self, ctx: UiContext, width: int, full: int, compact: int) -> tuple[int, bool]:
        """The card's top and whether it shows its text: docked at the left edge, under
        the unit card and above the log (``widgets.dock``). When the room there is
        short, it drops the lesson's text and keeps the title, hints and buttons."""
        rect = dock(ctx, "tutorial", (width, full), "top-left")
        if rect.h >= full:
            return rect.y, True
        return dock(ctx, "tutorial", (width, compact), "top-left").y, False

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        progress = self.progress
        lesson = progress.current
        head, title, body, hint, status = self._texts()
        width = min(CARD_WIDTH, surface.get_width() - 2 * MARGIN)
        inner = width - 2 * PAD
        lines = wrap_text(body, inner, BODY)
        hints = wrap_text(hint, inner - 12, SMALL) if hint else []
        compact = TITLE_HEIGHT + 6 + 22 + 17 * len(hints) + (20 if status else 0)
        compact += 6 + BUTTON_HEIGHT + 10
        full = compact + LINE * len(lines) + 4
        top, with_text = self.place(ctx, width, full, compact)
        height = TITLE_HEIGHT if self.folded else full if with_text else compact
        rect = pygame.Rect(MARGIN, top, width, height)
        self.rect = rect
        self.title_rect = pygame.Rect(rect.x, rect.y, rect.w, TITLE_HEIGHT)
        ctx.panels["tutorial"] = rect
        # Nearly opaque: the lesson is read over the map's lines and labels.
        card = panel_surface(rect.size, title_bar=True, accent=ACCENT, alpha=CARD_ALPHA)
        fonts.place(surface, card, rect, "tutorial")
        fold = "+" if self.folded else "-"
        middle = rect.y + TITLE_HEIGHT // 2
        text(surface, head, (rect.x + PAD, middle), SMALL, MUTED, True, "midleft")
        text(surface, fold, (rect.right - PAD, middle), HEAD, MUTED, True, "midright")
        self.buttons = {}
        if self.folded:
            return
        x, y = rect.x + PAD, rect.y + TITLE_HEIGHT + 6
        text(surface, title, (x, y), HEAD, ACCENT, bold=True)
        y += 22
        if with_text:
            for line in lines:
                text(surface, line, (x, y), BODY, TEXT)
                y += LINE
            y += 4
        for line in hints:
            text(surface, line, (x + 12, y), SMALL, theme.INTEL)
            y += 17
        if status:
            text(surface, status, (x, y + 2), SMALL, GOOD if progress.seen else MUTED, True)
            y += 20
        y += 6
        labels = [("back", "Back")]
        if lesson is not None:
            labels.append(("next", "Next" if progress.seen else "Skip step"))
        else:
            labels.append(("restart", "Start over"))
        labels.append(("leave", "Leave tutorial"))
        widths = {"back": 70, "next": 100, "restart": 110, "leave": 140}
        bx = x
        for name, label in labels:
            button = Button(pygame.Rect(bx, y, widths[name], BUTTON_HEIGHT), label)
            button.enabled = name != "back" or progress.lesson > 0
            button.danger = name == "next" and progress.seen
            button.draw(surface, ctx.mouse)
            self.buttons[name] = button
            bx += widths[name] + 8

    def resize(self, size: tuple[int, int], ctx: UiContext) -> None:
        pass

    def close(self, ctx: UiContext) -> None:
        """The game screen closes (the menu, a loaded game, the window shut): keep the
        progress with the game."""
        ctx.panels.pop("tutorial", None)
        self.save()
