"""The menu's Replays page: the logs of finished games (game/ui/game_logs.py), the
newest first, each with its scenario, date, turns and result; the view to watch
from (both sides, or one side as it saw the game); Watch opens the replay screen
(game/ui/replay.py). A log that does not replay is listed with its reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from game.state import SaveError
from game.ui import fonts
from game.ui.game_logs import LogEntry, list_logs
from game.ui.home import logs_dir, shown_path
from game.ui.replay import BOTH
from game.ui.theme import ERROR, MUTED, TEXT
from game.ui.widgets import choice_row, gui_button, wrap

if TYPE_CHECKING:
    from game.ui.app import App


class ReplaysPage:
    """The Replays page in the menu's panel ``rect`` (widgets in ``manager``)."""

    title = "Replays"

    def __init__(self, app: App, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.app = app
        self.manager = manager
        self.rect = rect
        self.entries = list_logs(logs_dir())
        self.message = ""
        self.view = BOTH
        self.rows = _unique([e.line() for e in self.entries])
        top = rect.y + 70
        self.listing = pygame_gui.elements.UISelectionList(
            pygame.Rect(rect.x, top, rect.width, max(120, rect.height - 70 - 150)),
            self.rows,
            manager,
            default_selection=self.rows[0] if self.rows else None,
        )
        self.chosen: LogEntry | None = self.entries[0] if self.entries else None
        self.details_top = self.listing.rect.bottom + 12
        self.watch_button = gui_button(
            pygame.Rect(rect.right - 200, rect.bottom - 46, 200, 46), "Watch", manager, "primary"
        )
        self.views: dict[Any, object] = {}
        self._build_views()

    def _build_views(self) -> None:
        """The view choices of the chosen log: both sides, or each side's own."""
        for button in self.views:
            button.kill()
        self.views = {}
        entry = self.chosen
        sides = list(entry.sides) if entry is not None and not entry.problem else []
        if self.view not in sides:
            self.view = BOTH
        options = [(BOTH, "Both sides"), *[(s, s.capitalize()) for s in sides]]
        x0 = self.rect.x + 70
        rect = pygame.Rect(x0, self.rect.bottom - 41, self.watch_button.rect.x - 20 - x0, 36)
        self.views = choice_row(self.manager, rect, options, self.view)
        for button in self.views if not sides else ():
            button.disable()
        if entry is None or entry.problem:
            self.watch_button.disable()
        else:
            self.watch_button.enable()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            if event.ui_element is self.listing and event.text in self.rows:
                self.chosen = self.entries[self.rows.index(event.text)]
                self.message = ""
                self._build_views()
        elif event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION:
            if event.ui_element is self.listing:
                self.watch()
        elif event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.watch_button:
                self.watch()
            elif event.ui_element in self.views:
                self.view = str(self.views[event.ui_element])
                self._build_views()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.watch()

    def watch(self) -> None:
        """Open the chosen log on the replay screen."""
        entry = self.chosen
        if entry is None or entry.problem:
            return
        try:
            self.app.open_replay(entry.path, self.view)
        except (SaveError, ValueError) as exc:
            entry.problem = str(exc)
            self._build_views()

    def update(self, dt: float) -> None:
        return None

    def draw(self, surface: pygame.Surface) -> None:
        rect = self.rect
        folder = f"Every game played to its end is kept in {shown_path(logs_dir())}, newest first."
        for k, line in enumerate(wrap(folder, rect.width, 13)[:2]):
            fonts.blit(surface, fonts.text(line, 13, MUTED), (rect.x, rect.y + 32 + 16 * k))
        y = self.details_top
        entry = self.chosen
        if entry is None:
            lines = [
                (
                    "No finished games yet. Play a game to its end, or copy a game log (for "
                    "one written by simulate) into that folder, to watch it here.",
                    MUTED,
                )
            ]
        elif entry.problem:
            lines = [(entry.problem, ERROR)]
        else:
            why = f": {entry.reason}" if entry.reason else ""
            lines = [(f"{entry.scenario}, {entry.date}. {entry.result}{why}", TEXT)]
        for text, colour in lines:
            for line in wrap(text, rect.width, 13)[:4]:
                fonts.blit(surface, fonts.text(line, 13, colour), (rect.x, y))
                y += 17
        label = fonts.text("View", 15, TEXT, bold=True)
        fonts.blit(surface, label, (rect.x, rect.bottom - 33))


def _unique(rows: list[str]) -> list[str]:
    """The list's rows, a repeated one numbered (the list tells rows by their text)."""
    seen: dict[str, int] = {}
    out = []
    for row in rows:
        seen[row] = seen.get(row, 0) + 1
        out.append(row if seen[row] == 1 else f"{row} ({seen[row]})")
    return out
