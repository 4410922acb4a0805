"""The game screen: the map, the units, the panels and the other layers of a battle.

It owns the ``UiContext`` (``ctx``) every layer shares and hosts the layers in
drawing order: the units layer, the unit panel, the log, the phase bar, then
the layers each of their modules makes (``make_layers(ctx)``, see
``other_layers``): the sound, the set-up layer (deployment, pre-designated
hexes), then the artillery layers (LOS tool, artillery, arrivals, intelligence,
sheet picker, attack dialog, and last the dialog host), then the tooltip.
Events go to pygame-gui first, then to the layers topmost first; what no layer
takes moves the map:

- drag with any mouse button pans (a press and release without a drag is a
  click, delivered to the layers as MOUSEBUTTONUP: layers act on the release);
  arrow keys and WASD pan; the wheel zooms around the mouse; + and - zoom;
  Home shows the whole area.
- Esc pauses, F1 shows every key (each layer's optional ``keys()``), Ctrl+S
  saves, Ctrl+L loads, F12 saves a screenshot.

The map fills the window (camera screen coordinates are window coordinates);
panels lie over it, and their rectangles are in ``ctx.hud`` so other
layers can keep clear of them. Other optional layer hooks: ``tooltip_lines(h,
ctx) -> list[str]`` adds lines to the hover tooltip; ``reset(ctx)`` is called
at a hot-seat hand-over (drop everything of the side that left the seat);
``title`` names the layer's section in the help; ``busy`` (True while it plays
something the player should watch, such as arriving shells) holds the AI and
the hot-seat hand-over until it is done.

Hidden information: ``ctx.view`` is always ``session.view()``: the view of
the side on screen, or the table view (what both sides know) in hot-seat while
the acting side needs none of its secrets, and in watch mode with no side. In
hot-seat the hand-over screen is pushed, in the very event that made it due,
when a side must see its secrets; it is opaque, drops the input queued before
it, and the view changes to that side only once its player takes the seat.
A change of the acting side at the table drops queued input too and takes no
input for ``SEAT_GUARD`` seconds.

The AI's commands are stepped in ``update``: one per frame (more when they are
quick), with ``App.ai_delay`` seconds between visible ones, so the window
stays responsive. ``run_frames`` on the app drives all of it in tests.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game.ai import make_policy
from game.dice import DiceBase
from game.hexmath import Hex, hex_to_pixel
from game.state import (
    Command,
    EndPhase,
    GameState,
    Hold,
    IllegalCommand,
    PlaceSheet,
    PlayerView,
    player_view,
)
from game.state.sealing import Passphrases
from game.ui import artillery_layers, fonts, labels, setup_layer, sound, theme
from game.ui import widgets as ui
from game.ui.camera import DEFAULT_ZOOM, Camera
from game.ui.context import Layer, MarksUnder, UiContext
from game.ui.home import data_home
from game.ui.legend import Legend
from game.ui.map_layer import MapLayer
from game.ui.panels import LogPanel, PhaseBar, Tooltip, UnitPanel
from game.ui.screen import INPUT_EVENTS, Screen, drop_queued_input
from game.ui.screens import (
    EndScreen,
    HandOverScreen,
    HelpOverlay,
    LoadDialog,
    PassphraseDialog,
    PauseMenu,
    SaveDialog,
)
from game.ui.seats import HOTSEAT, WATCH, Seats
from game.ui.session import HUMAN, TABLE, GameSession
from game.ui.theme import BAR_HEIGHT, ERROR, TEXT
from game.ui.units_layer import UnitsLayer
from game.ui.widgets import Dialog, draw_gui, panel_surface, wrap

if TYPE_CHECKING:
    from game.ui.app import App

# Hot-seat: seconds the table takes no input after the acting side changes, so a
# click meant for one side cannot act for the other.
SEAT_GUARD = 0.5
AI_BUDGET = 0.012  # seconds of AI thinking per frame before the frame is drawn
DRAG_THRESHOLD = 5  # pixels a pressed mouse moves before the press is a drag
ZOOM_RENDER_BUDGET = 0.008  # seconds a frame may spend rendering sheet caches
TOASTS_SHOWN = 4  # messages on screen at once, the newest
TOAST_WIDTH = 640  # pixels a message's text may take before it wraps
PAN_KEYS = {
    pygame.K_LEFT: "left",
    pygame.K_a: "left",
    pygame.K_RIGHT: "right",
    pygame.K_d: "right",
    pygame.K_UP: "up",
    pygame.K_w: "up",
    pygame.K_DOWN: "down",
    pygame.K_s: "down",
}


# --- opponents ----------------------------------------------------------------------------


class StandingController:
    """A stand-in opponent for an AI that offers an illegal command: it accepts its
    deployment, holds every unit and ends every phase (the first such legal command)."""

    def choose(self, view: PlayerView, legal: list[Command], dice: DiceBase) -> Command:
        if not legal:
            raise IllegalCommand(f"{view.side} has nothing it may do now")
        for kind in (PlaceSheet, EndPhase, Hold):
            for command in legal:
                if isinstance(command, kind):
                    return command
        return legal[0]


def make_session(state: GameState, seats: Seats, autosave_folder: Path | None) -> GameSession:
    """The session of a game: a controller per side as the seats say."""
    humans = seats.human_sides(state.sides)
    controllers: dict[str, object] = {
        side: HUMAN if side in humans else make_policy(seats.level) for side in state.sides
    }
    session = GameSession(
        state,
        controllers,
        autosave_dir=autosave_folder,
        watch=seats.watch if seats.mode == WATCH else None,
        ai_seed=state.seed,
    )
    if seats.mode != HOTSEAT and humans:
        session.shown = humans[0]
    return session


def other_layers(ctx: UiContext) -> list[Layer]:
    """The layers over the units and panels, in drawing order: the sound, the set-up
    layer, then the artillery layers (the dialog host last, so it sees events first)."""
    return [
        *sound.make_layers(ctx),
        *setup_layer.make_layers(ctx),
        *artillery_layers.make_layers(ctx),
    ]


# --- the screen ------------------------------------------------------------------------------


class GameScreen(Screen):
    """A battle in progress (see the module docstring)."""

    opaque = True

    def __init__(self, app: App, session: GameSession, seats: Seats) -> None:
        super().__init__(app)
        self.session = session
        self.seats = seats
        # Hot-seat: each side's passphrase for sealed saves, asked at its first hand-over.
        wanted = seats.sealed and session.hot_seat and session.seal is None
        self.passphrases = Passphrases(session.state.sides) if wanted else None
        view = session.view()
        self.map_layer = MapLayer(view.area)
        self.camera = Camera(app.size)
        self.camera.set_bounds(self.map_layer.world_bounds())
        self._area_revision = view.area.revision
        self.ui_manager = app.ui_manager()
        self.ctx = UiContext(
            session=session,
            camera=self.camera,
            map_layer=self.map_layer,
            view=view,
            screen_size=app.size,
            ui_manager=self.ui_manager,
            sound=app.sound_board(),
            # The settings' own table: a panel opened or folded stays so in the next game.
            panel_open=app.settings.panels,
        )
        self.labels = labels.LabelPlacer()
        self.ctx.labels = self.labels
        self.units = UnitsLayer(self.ctx)
        self.ctx.units_layer = self.units
        self.unit_panel = UnitPanel()
        self.log_panel = LogPanel()
        self.phase_bar = PhaseBar(self.ctx, self.open_pause, self.open_help)
        self.legend = Legend()
        self.other_layers = other_layers(self.ctx)
        self.tooltip = Tooltip(lambda: self.layers)
        self.layers: list[Any] = [
            self.units,
            self.unit_panel,
            self.log_panel,
            self.phase_bar,
            self.legend,
            *self.other_layers,
        ]
        self._keys: set[str] = set()
        self._press: tuple[int, tuple[int, int]] | None = None
        self._dragging = False
        self._ai_wait = 0.0
        self._ai_paused = False
        self._end_shown = False
        self._building_cf: dict[Hex, int] | None = None
        self._map_image: pygame.Surface | None = None
        self._terrain_image: pygame.Surface | None = None
        self._terrain_offset: tuple[int, int] | None = None
        self._composed_offset: tuple[int, int] | None = None
        self._map_key: tuple[Any, ...] | None = None
        self._seat_guard = 0.0  # seconds the table still drops input after a change of side
        # The messages: where they were drawn, held while a dialog leaves them no room.
        self.shown_toasts: list[pygame.Rect] = []
        self.toasts_held = False
        self._toast_key: tuple[Any, ...] | None = None
        self._toast_cache: list[pygame.Surface] = []
        self._banner_rect: pygame.Rect | None = None
        self._last_acting = session.acting()
        self.frame_seconds: list[float] = []
        # False: paint every visible hex each frame (the benchmark's baseline).
        self.map_cached = True
        self._sync_view()
        self._initial_camera()

    # --- camera ------------------------------------------------------------------------

    def _initial_camera(self) -> None:
        """Show the whole area when it fits at a readable zoom, else the own units."""
        self.camera.fit(self.map_layer.world_bounds())
        self.camera.set_bounds(self.map_layer.world_bounds())
        if self.camera.zoom_index < DEFAULT_ZOOM:
            self.camera.set_zoom(DEFAULT_ZOOM)
            self.centre_on_units()
        # The phase bar covers the top of the window: centre in the part below it.
        self.camera.pan(0, -BAR_HEIGHT / 2)

    def centre_on_units(self) -> None:
        view = self.ctx.view
        hexes = [u.hex for u in view.own_units() if u.hex is not None and not u.destroyed]
        if not hexes:
            return
        points = [hex_to_pixel(h, 1.0) for h in hexes]
        self.camera.centre_on_world(
            sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
        )

    def set_zoom(self, level: int) -> None:
        self.camera.set_zoom(int(level))

    def hex_to_screen(self, h: Hex) -> tuple[int, int]:
        """Window position of a hex centre (tests click there)."""
        x, y = self.camera.hex_to_screen(h)
        return round(x), round(y)

    # --- hot-seat -------------------------------------------------------------------------

    def accept_handover(self, side: str) -> None:
        """The next player has the seat: show that side's view (the camera stays
        where the table left it)."""
        self.session.accept_handover()
        if self.session.shown != side and side in self.session.state.sides:
            self.session.shown = side
        self._last_acting = self.session.acting()
        self._reset_for_new_side()
        if self.passphrases is not None and not self.passphrases.asked(side):
            self.app.push(PassphraseDialog(self.app, self, side))

    def _reset_for_new_side(self) -> None:
        ctx = self.ctx
        ctx.selected = None
        ctx.hovered = None
        ctx.mode = "select"
        ctx.plot_battery = None
        ctx.toasts.clear()
        ctx.inspected = None
        ctx.refresh()
        for layer in self.layers:
            reset = getattr(layer, "reset", None)
            if callable(reset):
                reset(ctx)
        self._sync_view()

    def layers_busy(self) -> bool:
        """A layer is playing something the player should watch (``busy``: the arrival
        of shells): the AI waits, and so does the hot-seat hand-over."""
        arts = self.ctx.artillery
        if arts is not None and arts.animation.progress(self.ctx) is not None:
            return True  # shells the view holds but the animation had not taken up yet
        return any(getattr(layer, "busy", False) is True for layer in self.other_layers)

    def _needs_handover(self) -> str | None:
        if not self.session.hot_seat or self.session.over:
            return None
        if self.layers_busy():
            return None  # the arriving shells are watched to the end first
        return self.session.acting() if self.session.needs_handover() else None

    def _watch_seat(self) -> bool:
        """Hot-seat, after every input and every frame: when the acting side has
        changed, nothing queued before reaches the screen; a hand-over comes at
        once when the next side needs its secrets, else the table shows whose
        move it is and takes no input for a moment (``SEAT_GUARD``). True when a
        hand-over was pushed."""
        session = self.session
        if not session.hot_seat:
            return False
        acting = session.acting()
        changed = acting != self._last_acting
        self._last_acting = acting
        if changed:
            drop_queued_input()
            self._press = None
            self._dragging = False
            self._keys.clear()
        if session.settle_table() or (changed and session.reader() == TABLE):
            self._reset_for_new_side()  # nothing of one side's choices follows the seat
        if changed and not session.needs_handover():
            self._seat_guard = SEAT_GUARD
        side = self._needs_handover()
        if side is not None and self.app.top is self:
            self._push_handover(side)
            return True
        return False

    def _toggle_own_view(self) -> None:
        """V in hot-seat: the acting player's own view (behind a hand-over), or back
        to the table."""
        session = self.session
        if session.shown != session.acting():
            session.ask_own_view()
        else:
            session.asked = None
        self._watch_seat()

    def seat_banner(self) -> str | None:
        """Hot-seat at the table: whose move it is, large and clear."""
        session = self.session
        side = session.acting()
        if not session.hot_seat or session.reader() != TABLE or side is None:
            return None
        phase = {"movement": "move", "attack": "attacks"}.get(session.state.phase, "turn")
        if session.state.pending_sheet is not None:
            phase = "new sheet"
        return f"{side.capitalize()}'s {phase}"

    # --- screens over this one ------------------------------------------------------------

    def open_pause(self) -> None:
        self.app.push(PauseMenu(self.app, self))

    def open_help(self) -> None:
        self.app.push(HelpOverlay(self.app, self))

    def open_save(self) -> None:
        self.app.push(SaveDialog(self.app, self))

    def open_load(self) -> None:
        self.app.push(LoadDialog(self.app))

    def help_sections(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """The help's sections: the map and game keys, then each layer's ``keys()``."""
        sections: list[tuple[str, list[tuple[str, str]]]] = [
            (
                "Map",
                [
                    ("Drag (any button)", "pan the map"),
                    ("Arrows / WASD", "pan the map"),
                    ("Mouse wheel", "zoom around the mouse"),
                    ("+ / -", "zoom in / out"),
                    ("Home", "show the whole play area"),
                ],
            ),
            (
                "Game",
                [
                    ("Esc", "pause menu"),
                    ("F1", "this help"),
                    ("Ctrl+S / Ctrl+L", "save / load a game"),
                    ("F12", "save a screenshot"),
                    ("Space (hand-over)", "the next player takes the seat"),
                    ("V (hot-seat)", "your own view, behind a hand-over; again: the table"),
                ],
            ),
        ]
        if self.seats.mode == WATCH:
            sections[1][1].append(("Space", "pause / resume the AIs"))
        for layer in [*self.layers, self.tooltip]:
            keys = getattr(layer, "keys", None)
            if not callable(keys):
                continue
            entries = list(keys())
            if not entries:
                continue
            title = getattr(layer, "title", None) or _title_of(layer)
            sections.append((str(title), entries))
        return sections

    # --- events -----------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type in INPUT_EVENTS and self._holds_input():
            return
        self._handle(event)
        if event.type in INPUT_EVENTS:
            self._watch_seat()

    def modal(self) -> Dialog | None:
        """The modal dialog open over the map, if any."""
        dialogs = self.ctx.dialogs
        return None if dialogs is None else dialogs.top

    def _holds_input(self) -> bool:
        """Input is dropped while the table shows a change of side, and while a
        hand-over is owed (it may wait for arriving shells to finish)."""
        session = self.session
        if not session.hot_seat:
            return False
        return self._seat_guard > 0 or session.needs_handover()

    def _handle(self, event: pygame.event.Event) -> None:
        ctx = self.ctx
        if event.type == pygame.KEYDOWN or (
            event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 2, 3)
        ):
            self.units.motion.finish()  # a click or a key ends the moves on show at once
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            ctx.mouse = event.pos
        if event.type == pygame.KEYUP and event.key in PAN_KEYS:
            self._keys.discard(PAN_KEYS[event.key])
        # Under a modal dialog the top bar's buttons take nothing: the dialog has it all.
        modal = event.type in INPUT_EVENTS and self.modal() is not None
        if not modal and self.ui_manager.process_events(event):
            return
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and event.button in (4, 5):
            return  # the legacy wheel buttons: MOUSEWHEEL handles the wheel
        if event.type == pygame.MOUSEMOTION:
            if self._press is not None:
                start = self._press[1]
                moved = abs(event.pos[0] - start[0]) + abs(event.pos[1] - start[1])
                if self._dragging or moved > DRAG_THRESHOLD:
                    if not self._dragging:
                        # Catch up the motion before the drag was recognised.
                        self.camera.pan(start[0] - event.pos[0], start[1] - event.pos[1])
                        self._dragging = True
                    else:
                        self.camera.pan(-event.rel[0], -event.rel[1])
                    self._set_hover(event.pos)
                    return
            self._set_hover(event.pos)
        if event.type == pygame.MOUSEBUTTONUP and self._press is not None:
            dragged = self._dragging and event.button == self._press[0]
            if event.button == self._press[0]:
                self._press = None
                self._dragging = False
            if dragged:
                return
        for layer in reversed(self.layers):
            if layer.handle_event(event, ctx):
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 2, 3):
            self._press = (event.button, event.pos)
            self._dragging = False
        elif event.type == pygame.MOUSEWHEEL:
            anchor = ctx.mouse
            if anchor[0] < 0:
                anchor = None
            self.camera.zoom_at(1 if event.y > 0 else -1, anchor)
        elif event.type == pygame.KEYDOWN:
            self._key(event)

    def _key(self, event: pygame.event.Event) -> None:
        key, mod = event.key, event.mod
        ctrl = mod & pygame.KMOD_CTRL
        if key == pygame.K_ESCAPE:
            self.open_pause()
        elif key == pygame.K_F1:
            self.open_help()
        elif key == pygame.K_s and ctrl:
            self.open_save()
        elif key == pygame.K_l and ctrl:
            self.open_load()
        elif key == pygame.K_F12:
            folder = data_home() / "screenshots"
            path = self.app.screenshot(folder / time.strftime("barrage-%Y%m%d-%H%M%S.png"))
            self.ctx.notify(f"Screenshot saved: {path}")
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.camera.zoom_at(1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.camera.zoom_at(-1)
        elif key == pygame.K_HOME:
            self.camera.fit(self.map_layer.world_bounds())
        elif key == pygame.K_v and self.session.hot_seat:
            self._toggle_own_view()
        elif key == pygame.K_SPACE and self.seats.mode == WATCH:
            self._ai_paused = not self._ai_paused
            self.ctx.notify("AIs paused" if self._ai_paused else "AIs resumed")
        elif key in PAN_KEYS and not ctrl:
            self._keys.add(PAN_KEYS[key])

    def _over_hud(self, pos: tuple[int, int]) -> bool:
        """Over a panel of this screen or of another layer (``ctx.panels``)."""
        rects = [*self.hud_rects().values(), *self.ctx.panels.values()]
        return any(r.collidepoint(pos) for r in rects if isinstance(r, pygame.Rect))

    def _set_hover(self, pos: tuple[int, int]) -> None:
        if self._over_hud(pos):
            self.ctx.hovered = None
            return
        h = self.camera.screen_to_hex(*pos)
        self.ctx.hovered = h

    def hud_rects(self) -> dict[str, pygame.Rect]:
        rects = {"phase_bar": self.phase_bar.rect, "log": self.log_panel.rect}
        if self.unit_panel.shown and self.unit_panel.rect.height:
            rects["unit_panel"] = self.unit_panel.rect
        return rects

    # --- frame --------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        started = time.perf_counter()
        ctx = self.ctx
        self.camera.pan_by_keys(
            "left" in self._keys,
            "right" in self._keys,
            "up" in self._keys,
            "down" in self._keys,
            dt,
        )
        self._seat_guard = max(0.0, self._seat_guard - dt)
        self._auto_hold()
        if self._watch_seat():
            return
        if not self.session.over:
            self._step_ai(dt)
        if self.session.autosave_problem:
            ctx.notify(self.session.autosave_problem, seconds=8.0, error=True)
            self.session.autosave_problem = None
        self._sync_view()
        self.ui_manager.update(dt)
        ctx.animation_speed = self.app.settings.animation_speed  # Settings apply at once
        for layer in [*self.layers, self.tooltip]:
            layer.update(dt, ctx)
        hud = self.hud_rects()
        ctx.hud = hud
        ctx.map_rect = pygame.Rect(0, 0, *self.camera.viewport)
        panels = self.ctx.panels
        for name in ("phase_bar", "log", "unit_panel"):
            if name in hud:
                panels[name] = hud[name]
            else:
                panels.pop(name, None)
        if self.toasts_held:
            for toast in ctx.toasts:  # held behind a dialog: their time does not run
                toast.until += dt
        now = time.monotonic()
        ctx.toasts[:] = [t for t in ctx.toasts if t.until > now]
        # The last shells of a game are shown before the end screen covers the map.
        if self.session.over and not self._end_shown and not self.layers_busy():
            self._end_shown = True
            self.app.push(EndScreen(self.app, self))
        self.frame_seconds.append(time.perf_counter() - started)
        del self.frame_seconds[:-240]

    def _auto_hold(self) -> None:
        """ "End movement": whenever a move of that side comes this turn, its next unit
        holds (in hot-seat too, without a hand-over: nothing is shown)."""
        session = self.session
        state = session.state
        for _ in range(len(state.units)):
            side = session.acting()
            if (
                side is None
                or state.phase != "movement"
                or state.pending_sheet is not None
                or self.phase_bar.auto_hold.get(side) != state.turn
                or session.controllers.get(side) != HUMAN
            ):
                return
            hold = next((c for c in session.legal() if isinstance(c, Hold)), None)
            if hold is None or not self.ctx.submit(hold):
                return

    def _push_handover(self, side: str) -> None:
        self._press = None
        self._dragging = False
        self._keys.clear()
        self.app.push(HandOverScreen(self.app, self, side))

    def _step_ai(self, dt: float) -> None:
        """Let the AI act: as many commands as fit in the frame's budget, or one per
        ``ai_delay`` seconds when its moves must be seen."""
        session = self.session
        if self._ai_paused or self.layers_busy():
            return
        if self.app.ai_delay > 0 and self.units.busy:
            return  # its last move is seen to the end first (headless runs do not wait)
        self._ai_wait -= dt
        if self._ai_wait > 0:
            return
        deadline = time.perf_counter() + AI_BUDGET
        stepped = False
        while not session.over and session.acting() is not None and not session.human_to_act():
            if session.hot_seat:
                break
            try:
                events = session.step_ai()
            except IllegalCommand as exc:
                side = session.acting()
                self.ctx.notify(f"{side} AI: {exc}; it stands down this step", error=True)
                assert side is not None
                fallback = StandingController().choose(
                    player_view(session.state, side), session.legal(), DiceBase()
                )
                events = session.submit(fallback)
            stepped = True
            if events is None:
                break
            seen = session.visible(events)
            if any(e.kind == "arrival" for e in seen):
                break  # the player sees the shells land before the AI's next command
            if self.app.ai_delay > 0 and any(e.kind in ("move", "hold", "attack") for e in seen):
                self._ai_wait = self.app.ai_delay
                break
            if time.perf_counter() > deadline:
                break
        if stepped:
            self.ctx.refresh()

    def _sync_view(self) -> None:
        """Follow the view: the area growing (mobile maps), damaged buildings."""
        view = self.ctx.view
        if view.side != self.session.view_side():
            self.ctx.refresh()
            view = self.ctx.view
        area = view.area
        if area is not self.map_layer.area:
            self.map_layer.set_area(area)
        if area.revision != self._area_revision:
            self._area_revision = area.revision
            self.camera.set_bounds(self.map_layer.world_bounds())
            self._map_key = None
        if view.building_cf != self._building_cf:
            self._building_cf = dict(view.building_cf)
            self.map_layer.set_building_cf(self._building_cf)
            self._map_key = None

    def draw(self, surface: pygame.Surface) -> None:
        ctx = self.ctx
        # The map's labels are gathered while the layers draw the map, and placed once
        # the panels, the cards and the banner of this frame are down: clear of them
        # all, so drawn after them they never lie under one (game.ui.labels).
        placer = self.labels
        placer.begin(ui.map_rect(ctx))
        # Labels on the map belong to its view: cut at its edge as the camera pans.
        with fonts.panel_scope("map", ui.map_rect(ctx), clips=True):
            self._draw_map(surface)
            self.post_map_labels()
            for layer in self.layers:
                if isinstance(layer, MarksUnder):
                    layer.draw_under(surface, ctx)
            for layer in self.layers:
                layer.draw_world(surface, ctx)
        placer.hold()
        # The dialog host comes last, over the top bar's buttons and the banner, so the
        # veil of a modal dialog covers them; the messages are placed clear of it.
        host = ctx.dialogs
        for layer in self.layers:
            if layer is not host:
                layer.draw_hud(surface, ctx)
        self._draw_banner(surface)
        banner = [self._banner_rect] if self._banner_rect is not None else []
        with fonts.panel_scope("map", ui.map_rect(ctx), clips=True):
            placer.finish(surface, [*labels.frame_obstacles(ctx), *banner])
        self.tooltip.draw_hud(surface, ctx)
        draw_gui(self.ui_manager, surface)
        if host is not None:
            host.draw_hud(surface, ctx)
        self._draw_toasts(surface)

    def post_map_labels(self) -> None:
        """The map's own labels: the home edges', the half-line's and (far out) the
        sheets' names."""
        for label in self.map_layer.side_labels(self.camera):
            self.labels.add(label)
        for label in self.map_layer.sheet_labels(self.camera):
            self.labels.add(label)

    def _draw_banner(self, surface: pygame.Surface) -> None:
        """Hot-seat at the table: whose move it is, large, in the side's colour."""
        text = self.seat_banner()
        if text is None:
            self._banner_rect = None
            self.ctx.cards.pop("seat_banner", None)
            return
        side = self.session.acting() or ""
        colour = theme.SIDE_COLOURS.get(side, TEXT)
        title = fonts.text(text, 34, TEXT, bold=True)
        note = fonts.text("The table: both players may look. V: your own view", 14, TEXT)
        w = max(title.get_width(), note.get_width()) + 48
        box = panel_surface(
            (w, title.get_height() + note.get_height() + 22), 10, accent=colour, edge=3
        )
        fonts.blit(box, title, title.get_rect(midtop=(w // 2, 8)))
        fonts.blit(box, note, note.get_rect(midtop=(w // 2, 12 + title.get_height())))
        self._banner_rect = box.get_rect(midtop=(surface.get_width() // 2, BAR_HEIGHT + 8))
        fonts.place(surface, box, self._banner_rect, "hot-seat banner")
        self.ctx.cards["seat_banner"] = self._banner_rect  # the cards keep clear of it

    def redraw_map(self) -> None:
        """The next frame draws the terrain whole and the sides straight onto it."""
        self._map_key = None

    def _draw_map(self, surface: pygame.Surface) -> None:
        """Terrain and sides, composed once while the camera stands still.

        Two pictures of the window's size: the terrain alone, and the terrain
        with the sides (half-line, home edges) drawn over it, which a still frame
        blits whole. When the camera pans, the terrain picture is scrolled by the
        pan and only the strips it uncovers are drawn from the sheet caches (a
        blit clipped to a strip costs little), and the sides, whose labels follow
        the view, are drawn straight onto the frame; the composed picture is made
        again once the camera rests. A zoom, a resize, a new sheet or a damaged
        building draws the terrain whole.
        """
        camera = self.camera
        if not self.map_cached:
            surface.fill(theme.BACKGROUND)
            self.map_layer.draw(surface, camera, cached=False)
            self.map_layer.draw_sides(surface, camera)
            return
        offset = camera.offset
        base = (camera.zoom_index, camera.viewport, self._area_revision)
        if self._map_key == base and self._terrain_offset == offset:
            image = self._map_image
            assert image is not None and self._terrain_image is not None
            if self._composed_offset != offset:
                # The camera has come to rest: compose terrain and sides once.
                image.blit(self._terrain_image, (0, 0))
                fonts.forget(image)
                self.map_layer.draw_sides(image, camera)
                self._composed_offset = offset
            fonts.place(surface, image, (0, 0), "map", clips=True)
            return
        terrain = self._terrain_image
        if terrain is None or terrain.get_size() != camera.viewport:
            terrain = self._window_surface(camera.viewport)
            self._terrain_image = terrain
            self._map_image = self._window_surface(camera.viewport)
            self._map_key = None
        w, h = camera.viewport
        strips = [pygame.Rect(0, 0, w, h)]
        if self._map_key == base and self._terrain_offset is not None:
            dx = self._terrain_offset[0] - offset[0]
            dy = self._terrain_offset[1] - offset[1]
            if abs(dx) < w and abs(dy) < h:
                terrain.scroll(dx, dy)
                strips = []
                if dx:
                    strips.append(pygame.Rect(0 if dx > 0 else w + dx, 0, abs(dx), h))
                if dy:
                    strips.append(pygame.Rect(0, 0 if dy > 0 else h + dy, w, abs(dy)))
        stand_ins = 0
        for strip in strips:
            terrain.set_clip(strip)
            terrain.fill(theme.BACKGROUND)
            stand_ins += self.map_layer.draw(terrain, camera, render_budget=ZOOM_RENDER_BUDGET)
        terrain.set_clip(None)
        # Stand-ins (sheets still rendering at this zoom) are replaced by a whole redraw.
        self._map_key = base if stand_ins == 0 else None
        self._terrain_offset = offset
        # While moving, the sides go straight onto the frame.
        self._composed_offset = None
        fonts.place(surface, terrain, (0, 0), "map", clips=True)
        self.map_layer.draw_sides(surface, camera)

    @staticmethod
    def _window_surface(size: tuple[int, int]) -> pygame.Surface:
        image = pygame.Surface(size)
        return image.convert() if pygame.display.get_surface() is not None else image

    def _toast_images(self, width: int) -> list[pygame.Surface]:
        """The messages shown, oldest first, each wrapped to ``width`` at most (painted
        once per list of messages)."""
        shown = self.ctx.toasts[-TOASTS_SHOWN:]
        key = (width, tuple((t.text, t.error) for t in shown))
        if self._toast_key == key:
            return self._toast_cache
        images = []
        for toast in shown:
            colour = ERROR if toast.error else TEXT
            lines = [
                fonts.text(line, 15, colour, bold=True)
                for line in wrap(toast.text, width, 15, bold=True)
            ]
            w = max(line.get_width() for line in lines) + 28
            h = sum(line.get_height() for line in lines) + 12
            box = panel_surface((w, h), accent=theme.BAD if toast.error else theme.PANEL_EDGE)
            y = 6
            for line in lines:
                fonts.blit(box, line, (14, y))
                y += line.get_height()
            images.append(box)
        self._toast_key, self._toast_cache = key, images
        return images

    def toast_layout(self, screen: pygame.Rect) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """Where the messages go: one stack at the top centre, under the top bar and the
        hot-seat banner. With a modal dialog open the stack goes under the dialog when
        it fits there, else nowhere (the messages wait for the dialog to close)."""
        images = self._toast_images(min(TOAST_WIDTH, screen.w - 60))
        top = BAR_HEIGHT + 10 if self._banner_rect is None else self._banner_rect.bottom + 8

        def stack(y: int) -> list[tuple[pygame.Surface, pygame.Rect]]:
            placed = []
            for image in images:
                rect = image.get_rect(midtop=(screen.centerx, y))
                placed.append((image, rect))
                y = rect.bottom + 6
            return placed

        placed = stack(top)
        dialog = self.modal()
        if dialog is not None and any(r.colliderect(dialog.rect) for _, r in placed):
            placed = stack(dialog.rect.bottom + 10)
            if placed and placed[-1][1].bottom > screen.bottom - 10:
                return []
        return placed

    def _draw_toasts(self, surface: pygame.Surface) -> None:
        """The messages (``ctx.toasts``) in their one place (``toast_layout``); while they
        cannot be shown clear of a dialog they are held, their time not running."""
        ctx = self.ctx
        placed = self.toast_layout(surface.get_rect())
        self.toasts_held = bool(ctx.toasts) and not placed
        for image, rect in placed:
            fonts.place(surface, image, rect, "message")
        self.shown_toasts = [rect for _, rect in placed]
        if placed:
            ctx.cards["messages"] = self.shown_toasts[0].unionall(self.shown_toasts)
        else:
            ctx.cards.pop("messages", None)

    def resize(self, size: tuple[int, int]) -> None:
        self.camera.resize(size)
        self.ctx.screen_size = size
        # Under an overlay (pause, help) the screen is drawn without its update.
        self.ctx.map_rect = pygame.Rect(0, 0, *self.camera.viewport)
        self.ui_manager.set_window_resolution(size)
        self._map_key = None
        self._map_image = None
        self._terrain_image = None
        self.phase_bar._key = None
        for layer in self.other_layers:
            on_resize = getattr(layer, "resize", None)
            if callable(on_resize):
                on_resize(size, self.ctx)

    def close(self) -> None:
        for layer in self.other_layers:
            on_close = getattr(layer, "close", None)
            if callable(on_close):
                on_close(self.ctx)
        self.ui_manager.clear_and_reset()


ACRONYMS = {"los": "LOS", "ai": "AI", "gui": "GUI"}


def _title_of(layer: Any) -> str:
    """A readable section name from a layer's class name ("LosLayer" -> "Los")."""
    name = type(layer).__name__.removesuffix("Layer").removesuffix("Panel")
    out = ""
    for ch in name:
        out += (" " + ch.lower()) if ch.isupper() and out else ch
    words = [ACRONYMS.get(w.lower(), w) for w in out.split(" ")]
    return " ".join(words) or "Layer"
