"""A screen of the window's stack (the menu, the game, the hand-over, an overlay...),
and the input a screen drops when it takes over from the one before.

``game.ui.app.App`` holds the stack; a screen reaches it through ``self.app``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui

if TYPE_CHECKING:
    from game.ui.app import App

INPUT_EVENTS = (
    pygame.MOUSEBUTTONDOWN,
    pygame.MOUSEBUTTONUP,
    pygame.KEYDOWN,
    pygame.KEYUP,
    pygame.MOUSEWHEEL,
    pygame.TEXTINPUT,
    # A click on a button arrives a frame later as the button's own event.
    pygame_gui.UI_BUTTON_START_PRESS,
    pygame_gui.UI_BUTTON_PRESSED,
    pygame_gui.UI_BUTTON_DOUBLE_CLICKED,
)


def drop_queued_input() -> None:
    """Forget every input event still queued: it was meant for the screen before."""
    pygame.event.clear(INPUT_EVENTS)


class Screen:
    """One screen of the stack. Opaque screens hide every screen below them."""

    opaque = True

    def __init__(self, app: App) -> None:
        self.app = app

    def handle_event(self, event: pygame.event.Event) -> None:
        """Called for each event while this screen is on top."""

    def update(self, dt: float) -> None:
        """Called once a frame while this screen is on top."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the screen (every frame in which it is visible)."""

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size."""

    def close(self) -> None:
        """The screen leaves the stack: release what it holds."""
