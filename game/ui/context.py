"""What every part of the game screen shares: the session, the camera, the map,
the view of the side on screen, the selection and the current tool.

The game screen owns one ``UiContext`` and refreshes ``view`` after every
command (and on a hand-over). Layers and panels read it and change the game
only through ``submit``, which shows the engine's reason when a command is
illegal. Nothing here decides a rule.

A ``Layer`` is one piece of the screen (units, artillery overlays, intel,
dialogs). The game screen calls, every frame, ``update`` then ``draw_world``
(map-space overlays, after the terrain and units) then ``draw_hud``
(screen-space panels); events go to the layers topmost first, and a layer
that consumes an event returns True.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from game.hexmath import Hex
from game.state import Command, IllegalCommand, PlayerView
from game.state.view import SeenUnit

if TYPE_CHECKING:
    import pygame

    from game.ui.artillery_layers import ArtilleryLayers
    from game.ui.camera import Camera
    from game.ui.labels import LabelPlacer
    from game.ui.map_layer import MapLayer
    from game.ui.session import GameSession
    from game.ui.setup_layer import SetupLayer
    from game.ui.sound import SoundBoard
    from game.ui.units_layer import UnitsLayer
    from game.ui.widgets import DialogLayer

SELECT = "select"  # pick and move units
PLOT = "plot"  # aim artillery (plot mode)
LOS = "los"  # line-of-sight tool
ATTACK = "attack"  # direct attacks


@dataclass
class Toast:
    text: str
    until: float
    error: bool = False


@dataclass
class UiContext:
    """Shared state of the game screen (see the module docstring).

    Where things lie on the screen (the conventions of ``game.ui.widgets``):

    - ``map_rect``: where the map lies on the screen, kept by the game screen to the
      camera's viewport (None: the viewport at the top-left corner; ``map_rect(ctx)``).
    - ``hud``: the game screen's own panels by name (phase bar, unit panel, log).
    - ``panels``: the layers' panels drawn in the last frame, by name; the mouse
      over one of them, or over the ``hud``, hovers no hex.
    - ``cards``: information cards of the last frame (previews, the arrival's log
      entry): other panels keep clear of them, but they do not stop hovering.
    - ``mouse``: the last mouse position over the window, (-1, -1) before any.
    - ``panel_open``: the panels the player opened or folded (see ``widgets.dock``).

    The layers of the screen that others reach (None until they are made):

    - ``units_layer``: the units on the map (reach and paths of the selected unit).
    - ``dialogs``: the host of the modal dialogs (``dialog_layer(ctx)`` makes it).
    - ``artillery``: the artillery, intelligence and attack layers by name.
    - ``setup``: the set-up layer (deployment, pre-designated hexes).
    - ``sound``: the window's sound board (its mute and volume last from game to game).
    - ``labels``: the placer of the map's labels for the frame being drawn
      (``game.ui.labels``; None outside the game screen: labels are drawn as posted).
    """

    session: GameSession
    camera: Camera
    map_layer: MapLayer
    view: PlayerView
    screen_size: tuple[int, int] = (1280, 800)
    selected: str | None = None  # unit id of the side on screen
    inspected: str | None = None  # unit id of a unit shown in the unit panel, not selected
    hovered: Hex | None = None
    mode: str = SELECT
    plot_battery: str | None = None
    ammunition: str = "standard"
    toasts: list[Toast] = field(default_factory=list)
    ui_manager: Any = None  # pygame_gui.UIManager of the game screen
    map_rect: pygame.Rect | None = None
    hud: dict[str, pygame.Rect] = field(default_factory=dict)
    panels: dict[str, pygame.Rect] = field(default_factory=dict)
    cards: dict[str, pygame.Rect] = field(default_factory=dict)
    mouse: tuple[int, int] = (-1, -1)
    # Which panels the player opened or folded, by name (the settings' ``panels``, so
    # the choice lasts); a panel not named keeps its default (``widgets.panel_open``).
    panel_open: dict[str, bool] = field(default_factory=dict)
    units_layer: UnitsLayer | None = None
    dialogs: DialogLayer | None = None
    artillery: ArtilleryLayers | None = None
    setup: SetupLayer | None = None
    sound: SoundBoard | None = None
    labels: LabelPlacer | None = None
    # The pace of every animation (shell arrivals, moves), as Settings set it: a factor
    # on their speed (2.0 plays them in half the time; 0, "Off", shows them at once).
    animation_speed: float = 1.0

    def refresh(self) -> None:
        """Take a fresh view of the side on screen (after commands and hand-overs)."""
        self.view = self.session.view()
        if self.selected is not None and self.selected not in self.view.units:
            self.selected = None

    def notify(self, text: str, seconds: float = 4.0, error: bool = False) -> None:
        """A short message at the top of the screen."""
        self.toasts.append(Toast(text, time.monotonic() + seconds, error))
        del self.toasts[:-4]

    def submit(self, command: Command) -> bool:
        """Send a command to the engine; an illegal one shows its reason."""
        try:
            self.session.submit(command)
        except IllegalCommand as exc:
            self.notify(str(exc), error=True)
            return False
        self.refresh()
        return True

    @property
    def side(self) -> str:
        return self.view.side

    def may_act(self) -> bool:
        """The side on screen is the acting side and a human plays it: only then does
        the screen offer commands (never for an AI side, as when watching AI play)."""
        session = self.session
        side = self.view.side
        return session.acting() == side and session.viewer() == side and session.human_to_act()

    def own_unit(self, unit_id: str | None) -> SeenUnit | None:
        if unit_id is None:
            return None
        unit = self.view.units.get(unit_id)
        return unit if unit is not None and unit.side == self.view.side else None


class Layer(Protocol):
    """One piece of the game screen."""

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool: ...

    def update(self, dt: float, ctx: UiContext) -> None: ...

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None: ...

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None: ...


@runtime_checkable
class MarksUnder(Protocol):
    """A layer with hex markers drawn under the counters (pre-designated and auto-hit
    hexes), so that a marker never hides the unit standing on its hex."""

    def draw_under(self, surface: pygame.Surface, ctx: UiContext) -> None: ...
