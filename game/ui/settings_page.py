"""The menu's Settings page: window size, fullscreen, sound on or off, its volume, and
the pace of the animations. Each change applies at once (the window is opened again
at its new size; the sound board, game/ui/sound.py, takes the volume and plays a
sample of it; games read the pace every frame) and is kept in the settings file
(game/ui/settings.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from game.ui import fonts
from game.ui.home import shown_path
from game.ui.settings import ANIMATION_SPEEDS, WINDOW_SIZES, settings_path
from game.ui.theme import ERROR, MUTED, TEXT
from game.ui.widgets import choice_row, wrap

if TYPE_CHECKING:
    from game.ui.app import App

ROW_STEP = 56
LABEL_WIDTH = 150
SAMPLE_GAP = 0.25  # seconds between two volume samples while the slider moves


class SettingsPage:
    """The Settings page in the menu's panel ``rect`` (widgets in ``manager``)."""

    title = "Settings"

    def __init__(self, app: App, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.app = app
        self.manager = manager
        self.rect = rect
        self.message = ""
        self._sample_wait = 0.0
        self.choices: dict[Any, tuple[str, Any]] = {}
        self.rows: list[tuple[str, int]] = []
        self.build()

    def build(self) -> None:
        for button in self.choices:
            button.kill()
        self.choices = {}
        kept = self.app.settings
        rows: list[tuple[str, str, list[tuple[Any, str]], Any]] = [
            ("window", "Window size", [(s, f"{s[0]} x {s[1]}") for s in WINDOW_SIZES], None),
            ("fullscreen", "Fullscreen", [(False, "Off"), (True, "On")], kept.fullscreen),
            ("sound", "Sound", [(True, "On"), (False, "Off")], kept.sound),
            ("volume", "Volume", [], None),
            ("animation_speed", "Animations", list(ANIMATION_SPEEDS.items()), None),
        ]
        window = None if kept.fullscreen else self.app.size
        self.rows = []
        x0 = self.rect.x + LABEL_WIDTH
        width = self.rect.right - x0
        y = self.rect.y + 60
        for key, label, options, current in rows:
            self.rows.append((label, y))
            if key == "window":
                current = window
            elif key == "animation_speed":
                current = kept.animation_speed
            row = pygame.Rect(x0, y, width, 36)
            for button, value in choice_row(self.manager, row, options, current, 190).items():
                self.choices[button] = (key, value)
            y += ROW_STEP
        volume_y = dict(self.rows)["Volume"]
        if not hasattr(self, "volume"):
            self.volume = pygame_gui.elements.UIHorizontalSlider(
                pygame.Rect(x0, volume_y + 2, min(390, width - 70), 32),
                round(kept.volume * 100),
                (0, 100),
                self.manager,
                click_increment=5,
            )
        self.notes_top = y + 4

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.choices:
            key, value = self.choices[event.ui_element]
            self.change(key, value)
        elif (
            event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and event.ui_element is self.volume
        ):
            self.change("volume", self.volume.get_current_value() / 100)

    def change(self, key: str, value: Any) -> None:
        """Apply one setting at once and keep it."""
        app = self.app
        kept = app.settings
        if key == "window":
            kept.window, kept.fullscreen = value, False
        else:
            setattr(kept, key, value)
        if key in ("sound", "volume"):
            board = app.sound_board()
            board.muted = not kept.sound
            board.set_volume(kept.volume)
            if self._sample_wait <= 0 and board.play("impact"):
                self._sample_wait = SAMPLE_GAP
        self.message = app.save_settings() or ""
        if key in ("window", "fullscreen"):
            # The menu is laid out again for the new size, this page with it.
            app.set_window(kept.window, kept.fullscreen)
        elif key != "volume":
            self.build()

    def update(self, dt: float) -> None:
        self._sample_wait = max(0.0, self._sample_wait - dt)

    def draw(self, surface: pygame.Surface) -> None:
        for label, y in self.rows:
            fonts.blit(surface, fonts.text(label, 15, TEXT, bold=True), (self.rect.x, y + 8))
        slider = self.volume.rect
        value = f"{round(self.app.settings.volume * 100)}%"
        fonts.blit(surface, fonts.text(value, 15, TEXT), (slider.right + 14, slider.y + 6))
        notes: list[tuple[str, tuple[int, int, int]]] = []
        board = self.app.sound
        if board is not None and board.problem:
            silent = f"No sound on this computer ({board.problem}): the game runs silently."
            notes.append((silent, MUTED))
        notes.append(("Ctrl+M mutes and unmutes the sound during a game.", MUTED))
        pace = "Animations: the pace of moves and shells landing; Off shows them at once."
        notes.append((pace, MUTED))
        notes.append((f"Kept in {shown_path(settings_path())} for the next time.", MUTED))
        if self.message:
            notes.append((self.message, ERROR))
        y = self.notes_top
        for text, colour in notes:
            for line in wrap(text, self.rect.width, 13):
                if y + 17 > self.rect.bottom:
                    return
                fonts.blit(surface, fonts.text(line, 13, colour), (self.rect.x, y))
                y += 17
