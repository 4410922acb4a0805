"""Screens over the game: the hot-seat hand-over, the pause menu, help, the end
screen, and the save and load dialogs.

The hand-over screen is opaque and draws nothing of either side's view: it
stands between the players in hot-seat play whenever a side must see its
secrets (principle 6), and no input crosses it. The others are overlays that
dim the screen beneath them.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pygame
import pygame_gui

from game.state import SaveError, SealedSaveError, player_view, save_game
from game.ui import fonts, theme
from game.ui.home import autosave_dir, saves_dir
from game.ui.panels import PHASE_NAMES, side_label
from game.ui.screen import INPUT_EVENTS, Screen, drop_queued_input
from game.ui.seats import write_seats
from game.ui.settings_page import SettingsPage
from game.ui.theme import ACCENT, ERROR, MUTED, TEXT
from game.ui.widgets import backdrop, dim, draw_gui, gui_button, panel_surface, wrap

if TYPE_CHECKING:
    from game.ui.app import App
    from game.ui.game_screen import GameScreen


def _centred_box(size: tuple[int, int], screen: tuple[int, int]) -> pygame.Rect:
    rect = pygame.Rect(0, 0, *size)
    rect.center = (screen[0] // 2, screen[1] // 2)
    return rect


class _Overlay(Screen):
    """A dimming overlay with a pygame-gui manager of its own."""

    opaque = False
    BOX = (420, 400)

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.manager = app.ui_manager()
        self.box = _centred_box(self.BOX, app.size)
        self.build()

    def build(self) -> None:
        """Create the widgets (again after a resize)."""

    def resize(self, size: tuple[int, int]) -> None:
        self.manager.set_window_resolution(size)
        self.manager.clear_and_reset()
        self.box = _centred_box(self.BOX, size)
        self.build()

    def handle_event(self, event: pygame.event.Event) -> None:
        self.manager.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            self.pressed(event.ui_element)
        elif event.type == pygame.KEYDOWN:
            self.key(event)

    def pressed(self, element: Any) -> None:
        """A button of this overlay was pressed."""

    def key(self, event: pygame.event.Event) -> None:
        if event.key == pygame.K_ESCAPE:
            self.app.pop(self)

    def update(self, dt: float) -> None:
        self.manager.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        dim(surface)
        fonts.place(surface, panel_surface(self.box.size, 12), self.box, type(self).__name__)
        self.draw_content(surface)
        draw_gui(self.manager, surface)

    def draw_content(self, surface: pygame.Surface) -> None:
        """Text of the overlay, under its widgets."""

    def close(self) -> None:
        self.manager.clear_and_reset()

    def button(self, text: str, y: int, primary: bool = False, width: int | None = None) -> Any:
        w = width or self.box.width - 80
        rect = pygame.Rect(self.box.centerx - w // 2, y, w, 40)
        return gui_button(rect, text, self.manager, "primary" if primary else None)


# --- the hand-over ----------------------------------------------------------------------


class HandOverScreen(Screen):
    """Hot-seat: "South to play: press Space", on a blank screen.

    No input crosses it: every input event queued before it appeared is
    dropped, it takes none for ``GUARD`` seconds, and then only a deliberate
    action takes the seat: a press and release of Space begun after the guard
    (a key held from before, repeating, does not count), or its own button. A
    click anywhere else does nothing."""

    opaque = True
    GUARD = 0.5  # seconds

    def __init__(self, app: App, game: GameScreen, side: str) -> None:
        super().__init__(app)
        self.game = game
        self.side = side
        self.guard = self.GUARD
        self._space = "idle"  # idle / held (from before, or in the guard) / armed
        self._backdrop: pygame.Surface | None = None
        drop_queued_input()
        self.manager = app.ui_manager()
        self.take = gui_button(
            self._button_rect(app.size),
            f"Take the seat ({side.capitalize()})",
            self.manager,
            "primary",
        )

    @staticmethod
    def _button_rect(size: tuple[int, int]) -> pygame.Rect:
        rect = pygame.Rect(0, 0, 260, 42)
        rect.center = (size[0] // 2, size[1] // 2 + 190)
        return rect

    def resize(self, size: tuple[int, int]) -> None:
        self.manager.set_window_resolution(size)
        self.take.set_relative_position(self._button_rect(size).topleft)

    def handle_event(self, event: pygame.event.Event) -> None:
        space = event.type in (pygame.KEYDOWN, pygame.KEYUP) and event.key == pygame.K_SPACE
        if event.type in INPUT_EVENTS and self.guard > 0:
            if space:
                self._space = "held" if event.type == pygame.KEYDOWN else "idle"
            return
        if space:
            if event.type == pygame.KEYDOWN:
                self._space = "armed" if self._space == "idle" else self._space
            else:
                armed = self._space == "armed"
                self._space = "idle"
                if armed:
                    self.accept()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.push(PauseMenu(self.app, self.game))
            return
        self.manager.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.take:
            self.accept()

    def update(self, dt: float) -> None:
        self.guard = max(0.0, self.guard - dt)
        self.manager.update(dt)

    def accept(self) -> None:
        if self not in self.app.screens:
            return
        self.app.pop(self)
        self.game.accept_handover(self.side)

    def close(self) -> None:
        self.manager.clear_and_reset()

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        if self._backdrop is None or self._backdrop.get_size() != (w, h):
            self._backdrop = backdrop((w, h))
        surface.blit(self._backdrop, (0, 0))
        colour = theme.SIDE_COLOURS.get(self.side, ACCENT)
        session = self.game.session
        card = pygame.Rect(0, 0, min(760, w - 80), 300)
        card.center = (w // 2, h // 2)
        fonts.place(surface, panel_surface(card.size, 14), card, "hand-over")
        pygame.draw.rect(surface, colour, pygame.Rect(card.x, card.y, card.width, 8), 0, 4)
        name = self.side.capitalize()
        title = fonts.text(f"{name} to play", 52, TEXT, bold=True)
        fonts.blit(surface, title, title.get_rect(center=(card.centerx, card.y + 72)))
        label = fonts.text(side_label(session, self.side), 22, theme.mix(colour, TEXT, 0.3), True)
        fonts.blit(surface, label, label.get_rect(center=(card.centerx, card.y + 128)))
        state = session.state
        phase = PHASE_NAMES.get(state.phase, state.phase)
        where = f"Turn {state.turn}, {phase.lower()}" if state.turn else "Set-up"
        if state.pending_sheet is not None:
            where += ": a new sheet must be placed"
        info = fonts.text(where, 18, MUTED)
        fonts.blit(surface, info, info.get_rect(center=(card.centerx, card.y + 166)))
        prompt = fonts.text("Press Space to take the seat", 22, ACCENT, bold=True)
        fonts.blit(surface, prompt, prompt.get_rect(center=(card.centerx, card.y + 220)))
        note = fonts.text(f"Only {name}'s player should see the next screen", 15, MUTED)
        fonts.blit(surface, note, note.get_rect(center=(card.centerx, card.y + 258)))
        draw_gui(self.manager, surface)


# --- pause, help ----------------------------------------------------------------------------


class PauseMenu(_Overlay):
    """Esc during play: resume, help, save, load, settings, main menu, quit."""

    BOX = (380, 470)

    def __init__(self, app: App, game: GameScreen) -> None:
        self.game = game
        super().__init__(app)

    def build(self) -> None:
        y = self.box.top + 70
        self.buttons = {}
        for ident, text in (
            ("resume", "Resume (Esc)"),
            ("help", "Help and keys (F1)"),
            ("save", "Save game (Ctrl+S)"),
            ("load", "Load game (Ctrl+L)"),
            ("settings", "Settings"),
            ("menu", "Main menu"),
            ("quit", "Quit"),
        ):
            self.buttons[self.button(text, y, primary=ident == "resume")] = ident
            y += 52

    def draw_content(self, surface: pygame.Surface) -> None:
        title = fonts.text("Paused", 26, ACCENT, bold=True)
        fonts.blit(surface, title, title.get_rect(midtop=(self.box.centerx, self.box.top + 18)))

    def pressed(self, element: Any) -> None:
        ident = self.buttons.get(element)
        if ident == "resume":
            self.app.pop(self)
        elif ident == "help":
            self.app.pop(self)
            self.app.push(HelpOverlay(self.app, self.game))
        elif ident == "save":
            self.app.pop(self)
            self.app.push(SaveDialog(self.app, self.game))
        elif ident == "load":
            self.app.pop(self)
            self.app.push(LoadDialog(self.app))
        elif ident == "settings":
            self.app.pop(self)
            self.app.push(SettingsOverlay(self.app))
        elif ident == "menu":
            self.app.open_menu()
        elif ident == "quit":
            self.app.quit()


class SettingsOverlay(_Overlay):
    """Settings during a game: the main menu's Settings page over the game, so the
    volume, the sound and the animations' pace change while it is played."""

    BOX = (780, 540)

    def build(self) -> None:
        self.page = SettingsPage(self.app, self.manager, self.box.inflate(-40, -40))
        back = pygame.Rect(self.box.right - 240, self.box.bottom - 60, 220, 40)
        self.back = gui_button(back, "Back to the game", self.manager, "primary")

    def handle_event(self, event: pygame.event.Event) -> None:
        super().handle_event(event)
        if self in self.app.screens:
            self.page.handle_event(event)

    def pressed(self, element: Any) -> None:
        if element is self.back:
            self.app.pop(self)

    def update(self, dt: float) -> None:
        super().update(dt)
        self.page.update(dt)

    def draw_content(self, surface: pygame.Surface) -> None:
        inner = self.box.inflate(-40, -40)
        fonts.blit(surface, fonts.text(self.page.title, 22, ACCENT, bold=True), inner.topleft)
        self.page.draw(surface)


class HelpOverlay(Screen):
    """F1: every key of the game screen, gathered from its layers' ``keys()``. When
    the list is taller than the window it scrolls (wheel, arrows, Page Up/Down,
    Home/End), so every key can be read at every window size."""

    opaque = False
    LINE = 21  # pixels a help line takes
    HEAD = 60  # the title row above the keys
    FOOT = 30  # the scroll note below them
    SCROLL_KEYS: ClassVar[dict[int, int]] = {
        pygame.K_DOWN: 1,
        pygame.K_UP: -1,
        pygame.K_PAGEDOWN: 12,
        pygame.K_PAGEUP: -12,
    }

    def __init__(self, app: App, game: GameScreen) -> None:
        super().__init__(app)
        self.game = game
        self.sections = game.help_sections()
        self.offset = 0  # pixels of the key list scrolled past
        self._body: pygame.Surface | None = None
        self._width = 0

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL:
            self.scroll(-event.y * 3 * self.LINE)
        elif event.type == pygame.KEYDOWN and event.key in self.SCROLL_KEYS:
            self.scroll(self.SCROLL_KEYS[event.key] * self.LINE)
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_HOME, pygame.K_END):
            self.offset = 0 if event.key == pygame.K_HOME else self.max_offset()
        elif (
            event.type == pygame.KEYDOWN
            and event.key in (pygame.K_ESCAPE, pygame.K_F1, pygame.K_SPACE, pygame.K_RETURN)
        ) or (event.type == pygame.MOUSEBUTTONUP and event.button == 1):
            self.app.pop(self)

    def scroll(self, pixels: int) -> None:
        self.offset = max(0, min(self.max_offset(), self.offset + pixels))

    def view_height(self) -> int:
        """How many pixels of the key list the window shows at once."""
        body = self._body_for(self.app.size)
        room = self.app.size[1] - 40 - self.HEAD - self.FOOT
        return max(self.LINE, min(body.get_height(), room))

    def max_offset(self) -> int:
        body = self._body_for(self.app.size)
        return max(0, body.get_height() - self.view_height())

    def draw(self, surface: pygame.Surface) -> None:
        size = surface.get_size()
        body = self._body_for(size)
        self.offset = min(self.offset, self.max_offset())
        shown = self.view_height()
        w = body.get_width()
        frame = panel_surface((w, self.HEAD + shown + self.FOOT), 12)
        fonts.blit(frame, fonts.text("Keys and mouse", 24, ACCENT, bold=True), (24, 16))
        hint = fonts.text("F1, Esc or a click closes this", 13, MUTED)
        fonts.blit(frame, hint, (w - 24 - hint.get_width(), 24))
        # The key list scrolls: a line half in sight at its top or bottom is meant.
        shown_part = pygame.Rect(0, self.offset, w, shown)
        fonts.place(frame, body, (0, self.HEAD), "keys", clips=True, area=shown_part)
        if self.max_offset():
            below = (self.max_offset() - self.offset + self.LINE - 1) // self.LINE
            note = (
                f"{below} more lines below: wheel, arrows or Page Down scroll"
                if below
                else "The end of the list: wheel, arrows or Home scroll back"
            )
            fonts.blit(frame, fonts.text(note, 13, MUTED), (24, self.HEAD + shown + 8))
        dim(surface, 170)
        fonts.place(surface, frame, frame.get_rect(center=(size[0] // 2, size[1] // 2)), "help")

    def _body_for(self, size: tuple[int, int]) -> pygame.Surface:
        columns = 2 if size[0] >= 1100 else 1
        if self._body is None or self._width != columns:
            self._width = columns
            self._body = self._render(columns)
        return self._body

    def _render(self, columns: int) -> pygame.Surface:
        """Every key, in ``columns`` columns, whole: the window shows part of it."""
        col_w = 520
        key_w = 190
        blocks: list[list[tuple[str, str, bool]]] = []
        for title, keys in self.sections:
            block = [(title, "", True)]
            for key, what in keys:
                # A long key wraps in its own column, as its words do in theirs.
                key_lines = wrap(key, key_w - 12, 14, bold=True)
                what_lines = wrap(what, col_w - key_w - 20, 14)
                for k, part in zip_longest(key_lines, what_lines, fillvalue=""):
                    block.append((k, part, False))
            blocks.append(block)
        # Fill the columns in order, each block whole.
        total = sum(len(b) + 1 for b in blocks)
        per_column = (total + columns - 1) // columns
        cols: list[list[tuple[str, str, bool]]] = [[] for _ in range(columns)]
        c = 0
        for block in blocks:
            if len(cols[c]) + len(block) > per_column + 3 and c < columns - 1:
                c += 1
            cols[c].extend([*block, ("", "", False)])
        rows = max(len(col) for col in cols)
        body = pygame.Surface((columns * col_w + 40, rows * self.LINE), pygame.SRCALPHA)
        for n, col in enumerate(cols):
            x = 24 + n * col_w
            for row, (key, what, heading) in enumerate(col):
                y = row * self.LINE
                if heading:
                    fonts.blit(body, fonts.text(key, 16, ACCENT, bold=True), (x, y))
                else:
                    if key:
                        fonts.blit(body, fonts.text(key, 14, TEXT, bold=True), (x, y))
                    if what:
                        fonts.blit(body, fonts.text(what, 14, MUTED), (x + key_w, y))
        return body


# --- the end of the game ----------------------------------------------------------------------


@dataclass
class SideStatistics:
    side: str
    label: str
    units: int
    lost: int
    shells_landed: int
    hits: int
    spotted: int
    in_flight: int
    directions_learned: int
    enemies_found: int


def game_statistics(game: GameScreen) -> list[SideStatistics]:
    """Each side's numbers, read from that side's own view (the game is over)."""
    state = game.session.state
    out = []
    for side in state.sides:
        view = player_view(state, side)
        own = view.own_units()
        landed = [a for a in view.arrivals if a.side == side]
        out.append(
            SideStatistics(
                side=side,
                label=side_label(game.session, side),
                units=len(own),
                lost=sum(1 for u in own if u.destroyed),
                shells_landed=len(landed),
                hits=sum(1 for a in landed if a.hit),
                spotted=sum(1 for a in landed if a.spotted),
                in_flight=len(view.plots),
                directions_learned=len(view.announcements),
                enemies_found=len(view.revealed),
            )
        )
    return out


class EndScreen(_Overlay):
    """The result and each side's statistics; the game's replay (its log is kept in the
    menu's Replays, game/ui/game_logs.py)."""

    BOX = (700, 490)

    def __init__(self, app: App, game: GameScreen) -> None:
        self.game = game
        self.stats = game_statistics(game)
        result = game.session.state.result
        assert result is not None
        self.result = result
        self.message = ""
        super().__init__(app)

    def build(self) -> None:
        y = self.box.bottom - 60
        items = [("map", "Look at the map"), ("menu", "Main menu"), ("quit", "Quit")]
        if self.game.session.logs_dir is not None:
            items.insert(1, ("replay", "Watch the replay"))
        gap = 10
        w = (self.box.width - 60 - gap * (len(items) - 1)) // len(items)
        self.buttons = {}
        for k, (ident, text) in enumerate(items):
            x = self.box.left + 30 + k * (w + gap)
            rect = pygame.Rect(x, y, w, 40)
            button = gui_button(rect, text, self.manager, "primary" if ident == "menu" else None)
            self.buttons[button] = ident

    def pressed(self, element: Any) -> None:
        ident = self.buttons.get(element)
        if ident == "map":
            self.app.pop(self)
        elif ident == "replay":
            self.watch_replay()
        elif ident == "menu":
            self.app.open_menu()
        elif ident == "quit":
            self.app.quit()

    def watch_replay(self) -> None:
        """Open this game's log, kept when it ended, on the replay screen."""
        session = self.game.session
        path = session.finished_log or session.keep_log()
        if path is None:
            self.message = session.autosave_problem or "The game's log could not be kept."
            return
        try:
            self.app.open_replay(path)
        except (SaveError, ValueError) as exc:
            self.message = str(exc)

    def draw_content(self, surface: pygame.Surface) -> None:
        box = self.box
        if self.message:
            for k, line in enumerate(wrap(self.message, box.width - 60, 13)[:2]):
                image = fonts.text(line, 13, ERROR)
                fonts.blit(
                    surface, image, image.get_rect(midtop=(box.centerx, box.bottom - 100 + 16 * k))
                )
        winner = self.result.winner
        game = self.game
        if winner is None:
            headline, colour = "Draw", ACCENT
        else:
            humans = game.session.humans
            if len(humans) == 1:
                headline = "Victory" if winner == humans[0] else "Defeat"
            else:
                headline = f"{winner.capitalize()} wins"
            colour = theme.SIDE_COLOURS.get(winner, ACCENT)
        title = fonts.text(headline, 40, theme.mix(colour, (255, 255, 255), 0.3), bold=True)
        fonts.blit(surface, title, title.get_rect(midtop=(box.centerx, box.top + 18)))
        y = box.top + 80
        for line in wrap(f"{self.result.reason} (turn {self.result.turn})", box.width - 60, 16):
            image = fonts.text(line, 16, TEXT)
            fonts.blit(surface, image, image.get_rect(midtop=(box.centerx, y)))
            y += 22
        y += 16
        rows = [
            ("Units fielded", "units"),
            ("Units lost", "lost"),
            ("Shells landed", "shells_landed"),
            ("On target", "hits"),
            ("Seen landing by a spotter", "spotted"),
            ("Still in flight", "in_flight"),
            ("Gun directions learned", "directions_learned"),
            ("Hidden enemies found", "enemies_found"),
        ]
        label_x = box.left + 40
        col_x = [box.left + 360, box.left + 530]
        for k, s in enumerate(self.stats):
            colour = theme.SIDE_COLOURS.get(s.side, TEXT)
            image = fonts.text(s.label, 15, theme.mix(colour, (255, 255, 255), 0.4), bold=True)
            fonts.blit(surface, image, image.get_rect(midtop=(col_x[k] + 40, y)))
        y += 28
        for label, attr in rows:
            fonts.blit(surface, fonts.text(label, 15, MUTED), (label_x, y))
            for k, s in enumerate(self.stats):
                value = fonts.text(str(getattr(s, attr)), 15, TEXT, bold=True)
                fonts.blit(surface, value, value.get_rect(midtop=(col_x[k] + 40, y)))
            y += 24
        played = self.game.session.state.turn
        turns = fonts.text(f"{played} turn{'s' if played != 1 else ''} played", 14, MUTED)
        fonts.blit(surface, turns, turns.get_rect(midtop=(box.centerx, y + 6)))


# --- saving and loading -----------------------------------------------------------------------

_SAFE_NAME = re.compile(r"[^A-Za-z0-9 _.-]+")


def save_name(text: str) -> str:
    """A file name from what the player typed (letters, digits, space, - _ .)."""
    name = _SAFE_NAME.sub("", text).strip().strip(".")
    return name.removesuffix(".json")


def list_saves(folders: list[Path] | None = None) -> list[Path]:
    """Save files, newest first (the autosave among them)."""
    folders = folders or [saves_dir(), autosave_dir()]
    found = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in folder.glob("*.json"):
            if path.name.endswith((".seats.json", ".log.json")):
                continue
            found.append(path)
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def describe_save(path: Path) -> str:
    stamp = time.strftime("%d %b %H:%M", time.localtime(path.stat().st_mtime))
    name = "Autosave" if path.parent.name == "autosave" else path.stem
    return f"{name}  ({stamp})"


class SaveDialog(_Overlay):
    """Ctrl+S: name the save; it goes to the saves folder with who plays which side."""

    BOX = (460, 250)

    def __init__(self, app: App, game: GameScreen) -> None:
        self.game = game
        self.message = ""
        self.error = False
        super().__init__(app)

    def default_name(self) -> str:
        state = self.game.session.state
        scenario = str(state.options.get("name", "game"))
        return save_name(f"{scenario} turn {state.turn}")

    def build(self) -> None:
        box = self.box
        self.entry = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(box.left + 30, box.top + 80, box.width - 60, 38), self.manager
        )
        self.entry.set_text(self.default_name())
        self.entry.focus()
        self.save_button = gui_button(
            pygame.Rect(box.left + 30, box.bottom - 60, 180, 40), "Save", self.manager, "primary"
        )
        self.cancel_button = gui_button(
            pygame.Rect(box.right - 210, box.bottom - 60, 180, 40), "Cancel", self.manager
        )

    def pressed(self, element: Any) -> None:
        if element is self.save_button:
            self.save()
        elif element is self.cancel_button:
            self.app.pop(self)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            self.save()
            return
        super().handle_event(event)

    def save(self) -> Path | None:
        name = save_name(self.entry.get_text())
        if not name:
            self.message, self.error = "Type a name for the save (letters and digits)", True
            return None
        path = saves_dir() / f"{name}.json"
        try:
            save_game(self.game.session.state, path, self.game.session.seal)
            write_seats(path, self.game.seats)
        except OSError as exc:
            self.message, self.error = f"Could not save to {path}: {exc.strerror or exc}", True
            return None
        self.game.ctx.notify(f"Saved as {path.name} in {path.parent}")
        self.app.pop(self)
        return path

    def draw_content(self, surface: pygame.Surface) -> None:
        title = fonts.text("Save game", 22, ACCENT, bold=True)
        fonts.blit(surface, title, (self.box.left + 30, self.box.top + 20))
        where = fonts.text(f"into {saves_dir()}", 13, MUTED)
        fonts.blit(surface, where, (self.box.left + 30, self.box.top + 52))
        if self.message:
            colour = ERROR if self.error else TEXT
            for k, line in enumerate(wrap(self.message, self.box.width - 60, 13)):
                image = fonts.text(line, 13, colour)
                fonts.blit(surface, image, (self.box.left + 30, self.box.top + 126 + 17 * k))


class PassphraseDialog(_Overlay):
    """Hot-seat, at a side's first hand-over: the passphrase that seals the game's
    saves (game/state/sealing.py). Typed hidden; loading the game later needs both
    sides' passphrases. Left empty, the game's saves stay plain."""

    BOX = (520, 300)

    def __init__(self, app: App, game: GameScreen, side: str) -> None:
        self.game = game
        self.side = side
        super().__init__(app)

    def build(self) -> None:
        box = self.box
        self.entry = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(box.left + 30, box.top + 130, box.width - 60, 38), self.manager
        )
        self.entry.set_text_hidden(True)
        self.entry.focus()
        self.ok_button = self.button("Seal my secrets", box.bottom - 60, primary=True, width=220)
        self.ok_button.set_relative_position((box.left + 30, box.bottom - 60))
        self.plain_button = gui_button(
            pygame.Rect(box.right - 230, box.bottom - 60, 200, 40), "Plain saves", self.manager
        )

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            self.done(self.entry.get_text())
            return
        super().handle_event(event)

    def pressed(self, element: Any) -> None:
        if element is self.ok_button:
            self.done(self.entry.get_text())
        elif element is self.plain_button:
            self.done("")

    def key(self, event: pygame.event.Event) -> None:
        """Escape does not skip the question: a button answers it."""

    def done(self, passphrase: str) -> None:
        seal = self.game.passphrases.give(self.side, passphrase) if self.game.passphrases else None
        if seal is not None:
            self.game.session.seal = seal
            self.game.ctx.notify("Both passphrases given: the game's saves are sealed")
        self.app.pop(self)

    def draw_content(self, surface: pygame.Surface) -> None:
        left, top = self.box.left + 30, self.box.top
        title = f"{self.side.capitalize()}: a passphrase for your secrets"
        fonts.blit(surface, fonts.text(title, 20, ACCENT, bold=True), (left, top + 20))
        text = (
            "Saves of this game are sealed with both players' passphrases, so neither "
            "can read the other's guns and plots in the files. Loading it needs both."
        )
        for k, line in enumerate(wrap(text, self.box.width - 60, 13)):
            fonts.blit(surface, fonts.text(line, 13, TEXT), (left, top + 56 + 17 * k))


class UnsealDialog(_Overlay):
    """A sealed hot-seat save: each player types his side's passphrase to open it."""

    BOX = (520, 360)

    def __init__(self, app: App, path: Path, sides: tuple[str, ...]) -> None:
        self.path = path
        self.sides = sides
        self.message = ""
        super().__init__(app)

    def build(self) -> None:
        box = self.box
        self.entries = {}
        for k, side in enumerate(self.sides):
            entry = pygame_gui.elements.UITextEntryLine(
                pygame.Rect(box.left + 150, box.top + 80 + 56 * k, box.width - 180, 38),
                self.manager,
            )
            entry.set_text_hidden(True)
            self.entries[side] = entry
        self.open_button = gui_button(
            pygame.Rect(box.left + 30, box.bottom - 60, 200, 40), "Open", self.manager, "primary"
        )
        self.cancel_button = gui_button(
            pygame.Rect(box.right - 230, box.bottom - 60, 200, 40), "Cancel", self.manager
        )

    def pressed(self, element: Any) -> None:
        if element is self.open_button:
            self.open()
        elif element is self.cancel_button:
            self.app.pop(self)

    def open(self) -> None:
        words = {side: entry.get_text() for side, entry in self.entries.items()}
        try:
            self.app.load_game(self.path, words)
        except (SaveError, ValueError, OSError) as exc:
            self.message = str(exc)

    def draw_content(self, surface: pygame.Surface) -> None:
        left, top = self.box.left + 30, self.box.top
        fonts.blit(
            surface, fonts.text("Sealed hot-seat game", 20, ACCENT, bold=True), (left, top + 20)
        )
        for k, side in enumerate(self.sides):
            label = fonts.text(f"{side.capitalize()}:", 15, TEXT)
            fonts.blit(surface, label, (left, top + 90 + 56 * k))
        if self.message:
            for k, line in enumerate(wrap(self.message, self.box.width - 60, 13)[:3]):
                fonts.blit(
                    surface, fonts.text(line, 13, ERROR), (left, self.box.bottom - 118 + 17 * k)
                )


class LoadDialog(_Overlay):
    """Ctrl+L (or Load game in the menu): pick a save, the autosave among them."""

    BOX = (560, 480)

    def __init__(self, app: App) -> None:
        self.saves = list_saves()
        self.message = "" if self.saves else "No saved games yet."
        super().__init__(app)

    def build(self) -> None:
        box = self.box
        self.names = {describe_save(p): p for p in self.saves}
        self.listing = pygame_gui.elements.UISelectionList(
            pygame.Rect(box.left + 30, box.top + 70, box.width - 60, box.height - 190),
            list(self.names),
            self.manager,
        )
        self.load_button = gui_button(
            pygame.Rect(box.left + 30, box.bottom - 60, 200, 40), "Load", self.manager, "primary"
        )
        self.cancel_button = gui_button(
            pygame.Rect(box.right - 230, box.bottom - 60, 200, 40), "Cancel", self.manager
        )

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION:
            self.load(event.text)
            return
        super().handle_event(event)

    def pressed(self, element: Any) -> None:
        if element is self.load_button:
            chosen = self.listing.get_single_selection()
            if chosen is None:
                self.message = "Pick a save in the list first."
            else:
                self.load(chosen)
        elif element is self.cancel_button:
            self.app.pop(self)

    def load(self, name: str) -> None:
        path = self.names.get(name)
        if path is None:
            return
        try:
            self.app.load_game(path)
        except SealedSaveError as exc:
            self.app.push(UnsealDialog(self.app, path, exc.sides))
        except (SaveError, ValueError, OSError) as exc:
            self.message = str(exc)

    def draw_content(self, surface: pygame.Surface) -> None:
        title = fonts.text("Load game", 22, ACCENT, bold=True)
        fonts.blit(surface, title, (self.box.left + 30, self.box.top + 20))
        folder = fonts.text(f"from {saves_dir()} and the autosave", 13, MUTED)
        fonts.blit(surface, folder, (self.box.left + 30, self.box.top + 48))
        if self.message:
            colour = ERROR if self.saves else MUTED
            y = self.box.bottom - 112
            for line in wrap(self.message, self.box.width - 60, 13)[:3]:
                fonts.blit(surface, fonts.text(line, 13, colour), (self.box.left + 30, y))
                y += 17
