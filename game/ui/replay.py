"""Replays: step through a saved game in the game window (``python main.py replay FILE``).

A replay reads a game log (``save_log``: the autosave's ``autosave.log.json``,
the simulate runner's ``logs/game-NNNN.log.json``) or a whole save (whose
state carries its commands) and shows the game at any point of it: the map,
the units, the log and the panels of the game screen, drawn from a session
that takes no commands.

The game at each point comes from a ``ReplayTimeline`` (game/state/timeline.py):
it replays the log once when it is opened (a log that does not replay raises
``SaveError`` before any window opens) and gives the state after any command
without replaying the game from its start.

Views: north's, south's (``player_view``, exactly what that side saw in the
game), or both (``BOTH``): every unit, the hidden ones and the guns off the
board among them, every shell in flight and the whole log. A game never
builds that view; a replay may, because a finished record has no secrets
left, and its bar and panel say so.

Stepping forward over an artillery phase plays the arrivals with the game
screen's arrival animation; stepping back, jumping over several turns or
changing the view does not replay old shells.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import pygame
import pygame_gui

from game.artillery.plots import Plot
from game.artillery.weapons import weapon as weapon_spec
from game.hexmath import Hex
from game.state import Command, Event, IllegalCommand, PlayerView, player_view
from game.state.timeline import ReplayTimeline
from game.state.view import SeenUnit, umpire_view
from game.ui import fonts, labels, theme
from game.ui import widgets as ui
from game.ui.artillery_plot import draw_disk_outline, hex_points
from game.ui.context import UiContext
from game.ui.game_screen import GameScreen
from game.ui.panels import PHASE_NAMES, side_label
from game.ui.screen import Screen
from game.ui.screens import HelpOverlay
from game.ui.seats import HOTSEAT, Seats
from game.ui.session import GameSession
from game.ui.theme import ACCENT, BAR_HEIGHT, MARGIN, MUTED, PANEL_EDGE, TEXT

if TYPE_CHECKING:
    from game.ui.app import App
    from game.ui.artillery_anim import ArrivalAnimation

BOTH = "both"  # the viewer of both sides at once, the umpire (replays only)
REPLAY_SEAT = "replay"  # the controller of every side in a replay: nobody plays
AUTOPLAY_SECONDS = 0.35  # between commands while the replay plays by itself
UMPIRE_COLOUR = (214, 206, 190)
PANEL_WIDTH = 380
STEP_CARD_WIDTH = 500


def view_name(side: str) -> str:
    return "both sides (umpire)" if side == BOTH else f"{side}'s view"


# --- the session -----------------------------------------------------------------------------


@dataclass
class ReplaySession(GameSession):
    """The game on a replay's screen: whose view is shown. Nobody acts in it: it takes
    no commands and steps no AI; the replay screen sets ``state`` at every step."""

    def viewer(self) -> str:
        return self.shown or BOTH

    def reader(self) -> str:
        return self.viewer()

    def view(self) -> PlayerView:
        side = self.viewer()
        return umpire_view(self.state) if side == BOTH else player_view(self.state, side)

    def visible(self, events: list[Event]) -> list[Event]:
        if self.viewer() == BOTH:
            return [e.whole() for e in events]
        return super().visible(events)

    def acting(self) -> str | None:
        return None

    def legal(self) -> list[Command]:
        return []

    def submit(self, command: Command) -> list[Event]:
        raise IllegalCommand(
            "this is a replay: nothing can be changed (Menu > Save game keeps the game "
            "as it stands here, to play on from it)"
        )

    def step_ai(self) -> list[Event] | None:
        return None

    @property
    def over(self) -> bool:
        """False: for the game screen ``over`` means "show the end screen", which would
        stop the stepping; a replay shows the result in its own banner instead."""
        return False


# --- the bar ---------------------------------------------------------------------------------

# (action, full label, short label, tooltip)
STEP_BUTTONS = (
    ("previous_turn", "« Turn", "«", "Previous turn (Page Up)"),
    ("previous_phase", "‹ Phase", "‹‹", "Previous phase ([)"),
    ("previous_step", "‹ Step", "‹", "Previous command (,)"),
    ("play", "Play", "Play", "Play the replay command by command (Space)"),
    ("next_step", "Step ›", "›", "Next command (.)"),
    ("next_phase", "Phase ›", "››", "Next phase (])"),
    ("next_turn", "Turn »", "»", "Next turn (Page Down)"),
)
COMPACT_BELOW = 1200  # window width under which the step buttons take short labels


class ReplayBar:
    """The top bar of a replay, in place of the phase bar: the turn and phase, where
    the replay stands, the step buttons, the view toggle, Help and Menu."""

    title = "Replay"

    def __init__(self, screen: ReplayScreen, ctx: UiContext) -> None:
        self.screen = screen
        self.rect = pygame.Rect(0, 0, ctx.screen_size[0], BAR_HEIGHT)
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.text_right = ctx.screen_size[0]
        self._key: tuple[Any, ...] | None = None
        self._image: pygame.Surface | None = None
        self._image_key: tuple[Any, ...] | None = None
        self._image_view: object = None

    def keys(self) -> list[tuple[str, str]]:
        return [
            ("Page Down / Page Up", "next / previous turn"),
            ("] / [", "next / previous phase"),
            (". / ,", "next / previous command"),
            ("End / Ctrl+Home", "the end / the start of the game"),
            ("Space", "play / pause (while shells land: the next shell)"),
            ("V", "view: north, south, both sides (umpire)"),
        ]

    def _wanted(self) -> list[tuple[str, str, str, bool]]:
        screen = self.screen
        compact = self.rect.width < COMPACT_BELOW
        at_start = screen.position == 0
        at_end = screen.position >= screen.timeline.last
        out = []
        for action, full, short, tip in STEP_BUTTONS:
            label = short if compact and action != "play" else full
            if action == "play":
                label = "Pause" if screen.playing else "Play"
                enabled = not at_end
            else:
                enabled = not (at_start if action.startswith("previous") else at_end)
            out.append((action, label, tip, enabled))
        side = screen.session.viewer()
        view = "Both sides" if side == BOTH else side.capitalize()
        out.append(("view", f"View: {view}", "North's view, south's view or both (V)", True))
        return out

    def _rebuild(self, ctx: UiContext, wanted: list[tuple[str, str, str, bool]]) -> None:
        for button in self.buttons.values():
            button.kill()
        self.buttons = {}
        manager = ctx.ui_manager
        if manager is None:
            return
        x = ctx.screen_size[0] - MARGIN
        for ident, text in (("menu", "Menu"), ("help", "Help")):
            x -= 70
            self.buttons[ident] = ui.gui_button(pygame.Rect(x, 7, 70, 32), text, manager)
            x -= 6
        x -= 6
        for ident, text, tip, enabled in reversed(wanted):
            w = max(40, fonts.font(15, True).size(text)[0] + 22)
            x -= w
            primary = ident == "play" or ident == "view"
            button = ui.gui_button(
                pygame.Rect(x, 7, w, 32), text, manager, "primary" if primary else None, tip
            )
            if not enabled:
                button.disable()
            self.buttons[ident] = button
            x -= 10 if ident == "view" else 4
        self.text_right = x

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for ident, button in self.buttons.items():
                if event.ui_element is button:
                    self.screen.act(ident)
                    return True
            return False
        # Clicks on the bar never reach the map.
        return event.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
        ) and self.rect.collidepoint(event.pos)

    def update(self, dt: float, ctx: UiContext) -> None:
        self.rect.width = ctx.screen_size[0]
        wanted = self._wanted()
        key = (ctx.screen_size, tuple(wanted))
        if key != self._key:
            self._key = key
            self._rebuild(ctx, wanted)

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """The bar has nothing on the map."""

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        key = (ctx.screen_size, self.text_right, self.screen.position)
        if key != self._image_key or ctx.view is not self._image_view:
            self._image_key = key
            self._image_view = ctx.view
            self._image = self._render(ctx)
        if self._image is not None:
            fonts.place(surface, self._image, (0, 0), "replay_bar")

    def _render(self, ctx: UiContext) -> pygame.Surface:
        view = ctx.view
        screen = self.screen
        width = ctx.screen_size[0]
        surf = pygame.Surface((width, BAR_HEIGHT), pygame.SRCALPHA)
        surf.fill((22, 26, 30, 238))
        pygame.draw.line(surf, PANEL_EDGE, (0, BAR_HEIGHT - 1), (width, BAR_HEIGHT - 1))
        colour = theme.SIDE_COLOURS.get(view.side, UMPIRE_COLOUR)
        pygame.draw.rect(surf, colour, pygame.Rect(0, 0, 6, BAR_HEIGHT))
        right = self.text_right - 12
        x = 16
        name = view.scenario_name or "Barrage"
        title = fonts.text(ui.fit_text(name, max(40, right - x), 17, True), 17, ACCENT, bold=True)
        fonts.blit(surf, title, (x, 4))
        sub = fonts.text(ui.fit_text(where_text(view), max(40, right - x), 13), 13, MUTED)
        fonts.blit(surf, sub, (x, 26))
        x += max(title.get_width(), sub.get_width()) + 22
        if right - x < 120:
            return surf
        tag = fonts.text("REPLAY", 12, (20, 20, 20), bold=True)
        badge = tag.get_rect(topleft=(x + 6, 7)).inflate(12, 4)
        pygame.draw.rect(surf, ACCENT, badge, 0, 4)
        fonts.blit(surf, tag, tag.get_rect(center=badge.center))
        head = f"command {screen.position} of {screen.timeline.last}"
        head_x = badge.right + 8
        if fonts.font(14, True).size(head)[0] > right - head_x:
            head = f"{screen.position}/{screen.timeline.last}"
        fonts.blit(
            surf,
            fonts.text(ui.fit_text(head, right - head_x, 14, True), 14, TEXT, True),
            (head_x, 4),
        )
        seen = ui.fit_text(view_name(view.side).capitalize(), right - x, 13, True)
        fonts.blit(
            surf, fonts.text(seen, 13, theme.mix(colour, (255, 255, 255), 0.45), True), (x, 26)
        )
        return surf


def where_text(view: PlayerView) -> str:
    """ "Turn 4 of 20 · Movement", "Set-up" or "Game over"."""
    phase = PHASE_NAMES.get(view.phase, view.phase.capitalize())
    if view.turn == 0:
        return phase
    limit = f" of {view.turn_limit}" if view.turn_limit else ""
    return f"Turn {view.turn}{limit} · {phase}"


# --- the umpire's markers, panel and the end banner --------------------------------------------


class ReplayOverlay:
    """On the map in the umpire view: every shell in flight, in its side's colour,
    and a HIDDEN tag on hidden units; beside it the umpire panel (each side's guns,
    shells in flight, hidden units). In every view at the end of the log: the result."""

    title = "Replay view"

    def __init__(self, screen: ReplayScreen) -> None:
        self.screen = screen
        self._panel: tuple[object, pygame.Surface] | None = None
        self._step: tuple[tuple[object, int], pygame.Surface] | None = None
        self._end: tuple[object, pygame.Surface] | None = None

    def keys(self) -> list[tuple[str, str]]:
        return [("View: Both sides", "every unit and shell of both sides, for the replay only")]

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        return False

    def update(self, dt: float, ctx: UiContext) -> None:
        """Nothing moves by itself."""

    @staticmethod
    def umpire(ctx: UiContext) -> bool:
        return ctx.view.umpire is not None

    def tooltip_lines(self, h: Hex, ctx: UiContext) -> list[str]:
        if not self.umpire(ctx):
            return []
        view = ctx.view
        lines = []
        for p in view.umpire.plots if view.umpire else ():
            if p.target == h:
                gun = view.units.get(p.battery)
                battery = p.battery if gun is None else gun.name
                lines.append(f"{p.side} shell ({battery}) lands here in turn {p.arrival_turn}")
        for u in view.units.values():
            if u.hidden and u.hex == h and not u.destroyed:
                lines.append(f"Hidden from the enemy: {u.name} ({u.side})")
        return lines

    # --- the map --------------------------------------------------------------------------

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        if not self.umpire(ctx):
            return
        view = ctx.view
        camera = ctx.camera
        size = max(camera.size, 12)
        groups: dict[tuple[str, Hex], list[Plot]] = {}
        for p in view.umpire.plots if view.umpire else ():
            groups.setdefault((p.side, p.target), []).append(p)
        marked: set[Hex] = set()
        for (side, target), plots in sorted(groups.items()):
            colour = theme.SIDE_COLOURS.get(side, UMPIRE_COLOUR)
            reach = max(ring_radius(view, p.battery) for p in plots)
            draw_disk_outline(surface, ctx, target, reach, colour, 2, dashed=True)
            pygame.draw.polygon(surface, (0, 0, 0), hex_points(ctx, target), 5)
            pygame.draw.polygon(surface, colour, hex_points(ctx, target), 3)
            first = min(p.arrival_turn for p in plots)
            when = "this turn" if first <= view.turn else f"turn {first}"
            count = f" x{len(plots)}" if len(plots) > 1 else ""
            x, y = camera.hex_to_screen(target)
            # Both sides aiming at one hex: the second side's badge below the hex.
            first_spot = "below" if target in marked else "above"
            marked.add(target)
            spots = labels.around(size * 0.9, first_spot)
            text = f"{side} shell{count}: lands {when}"
            labels.post_badge(ctx, surface, text, (x, y), colour, 12, labels.SHELL, spots)
        for u in view.units.values():
            if u.hex is None or not u.hidden or u.destroyed:
                continue
            x, y = camera.hex_to_screen(u.hex)
            colour = theme.mix(theme.SIDE_COLOURS.get(u.side, UMPIRE_COLOUR), (0, 0, 0), 0.3)
            spots = labels.around(size * 0.7, "below")
            labels.post_badge(ctx, surface, "HIDDEN", (x, y), colour, 11, labels.HINT, spots)

    # --- the panels -----------------------------------------------------------------------

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        registry = ctx.panels
        if self.umpire(ctx):
            if self._panel is None or self._panel[0] is not ctx.view:
                self._panel = (ctx.view, self._paint_panel(ctx))
            image = self._panel[1]
            rect = ui.map_rect(ctx)
            box = image.get_rect(topright=(rect.right - 10, ui.top_of_map(ctx)))
            fonts.place(surface, image, box, "umpire")
            registry["umpire"] = box
        else:
            self._panel = None
            registry.pop("umpire", None)
        if self.screen.position >= self.screen.timeline.last:
            registry["replay_end"] = self._draw_end(surface, ctx)
        else:
            registry.pop("replay_end", None)
        animation = self.screen.animation()
        if animation is not None and animation.busy:
            # The arrival card tells the step then: one card at a time at the bottom.
            registry.pop("replay_step", None)
            return
        key = (ctx.view, self.screen.position)
        if self._step is None or self._step[0] != key:
            self._step = (key, self._paint_step(ctx))
        image = self._step[1]
        box = ui.place_box(ctx, image.get_size(), "replay_step", rows=("bottom",))
        fonts.place(surface, image, box, "replay_step")
        registry["replay_step"] = box

    def _paint_step(self, ctx: UiContext) -> pygame.Surface:
        """The card of the last step: which command, who gave it, what it did."""
        screen = self.screen
        width = STEP_CARD_WIDTH
        k = screen.position
        by = screen.timeline.marks[k].by
        head = f"Command {k} of {screen.timeline.last}" + (f" · {by}" if by else "")
        lines = ui.wrap(screen.step_text(), width - 24, theme.BODY)
        if len(lines) > 2:
            lines = [lines[0], ui.fit_text(lines[1] + " " + lines[2], width - 24, theme.BODY)]
        image = pygame.Surface((width, 40 + 18 * len(lines)), pygame.SRCALPHA)
        accent = theme.SIDE_COLOURS.get(by or "", UMPIRE_COLOUR)
        inner = ui.draw_panel(image, image.get_rect(), head, accent)
        y = inner.y
        for line in lines:
            ui.text(image, line, (inner.x, y), theme.BODY, theme.TEXT)
            y += 18
        return image

    def _draw_end(self, surface: pygame.Surface, ctx: UiContext) -> pygame.Rect:
        if self._end is None or self._end[0] is not ctx.view:
            self._end = (ctx.view, self._paint_end(ctx))
        image = self._end[1]
        box = ui.place_box(ctx, image.get_size(), "replay_end", rows=("top",))
        fonts.place(surface, image, box, "replay_end")
        return box

    def _paint_end(self, ctx: UiContext) -> pygame.Surface:
        """The result (or, for a log of an unfinished game, where it stops)."""
        result = self.screen.timeline.result
        if result is None:
            headline = "End of the log: the game was not finished"
            detail = f"it stops in {where_text(ctx.view).lower()}"
            colour = UMPIRE_COLOUR
        else:
            winner = result.winner
            headline = f"{winner.capitalize()} wins" if winner else "Draw"
            detail = f"{result.reason} (turn {result.turn})"
            colour = theme.SIDE_COLOURS.get(winner or "", ACCENT)
        title = fonts.text(headline, 26, (255, 255, 255), bold=True)
        line = fonts.text(detail, 15, TEXT)
        hint = fonts.text("Page Up steps back a turn", 12, MUTED)
        w = max(title.get_width(), line.get_width(), hint.get_width()) + 48
        card = ui.panel_surface((w, 96), 10, accent=colour, edge=2)
        pygame.draw.rect(card, colour, pygame.Rect(0, 0, w, 6), 0, 4)
        fonts.blit(card, title, title.get_rect(midtop=(w // 2, 12)))
        fonts.blit(card, line, line.get_rect(midtop=(w // 2, 50)))
        fonts.blit(card, hint, hint.get_rect(midtop=(w // 2, 74)))
        return card

    def _paint_panel(self, ctx: UiContext) -> pygame.Surface:
        view = ctx.view
        session = self.screen.session
        lines: list[tuple[str, tuple[int, int, int], bool]] = [
            ("Replay only: the game never shows both sides.", theme.MUTED, False)
        ]
        plots = view.umpire.plots if view.umpire else ()
        predesignated = view.umpire.predesignated if view.umpire else {}
        for side in session.state.sides:
            colour = theme.mix(theme.SIDE_COLOURS.get(side, UMPIRE_COLOUR), (255, 255, 255), 0.4)
            lines.append((f"{side_label(session, side)} ({side})", colour, True))
            own = [u for u in view.units.values() if u.side == side]
            for u in own:
                if u.battery is None:
                    continue
                lines.append((f"  {u.name}: {gun_place(view, u)}", theme.TEXT, False))
            flying = [p for p in plots if p.side == side]
            if flying:
                first = min(p.arrival_turn for p in flying)
                when = "this turn" if first <= view.turn else f"in turn {first}"
                text = f"  Shells in flight: {len(flying)}, the first lands {when}"
                lines.append((text, theme.TEXT, False))
            else:
                lines.append(("  No shell in flight", theme.MUTED, False))
            hidden = [u.name for u in own if u.hidden and not u.destroyed]
            if hidden:
                lines.append((f"  Hidden: {', '.join(hidden)}", theme.TEXT, False))
            marked = predesignated.get(side, [])
            if marked:
                lines.append((f"  Pre-designated hexes: {len(marked)}", theme.TEXT, False))
        width = PANEL_WIDTH
        wrapped = [
            (part, c, b)
            for text, c, b in lines
            for part in ui.wrap(text, width - 24, theme.SMALL, b)
        ]
        image = pygame.Surface((width, 42 + 17 * len(wrapped)), pygame.SRCALPHA)
        inner = ui.draw_panel(image, image.get_rect(), "Umpire view: both sides", UMPIRE_COLOUR)
        y = inner.y
        for part, colour, bold in wrapped:
            ui.text(image, part, (inner.x, y), theme.SMALL, colour, bold)
            y += 17
        return image


def gun_place(view: PlayerView, unit: SeenUnit) -> str:
    """Where a battery stands, as its own side knows it."""
    if unit.destroyed:
        return "destroyed"
    off = unit.battery.offboard if unit.battery is not None else None
    if off is not None:
        sheet = off.sheet.replace("_", " ")
        far = f"{off.distance} sheet{'s' if off.distance != 1 else ''}"
        return f"off board, {far} {off.direction} ({sheet} {off.xxyy})"
    h = unit.hex
    return "not placed" if h is None else f"on the board at {view.area.label(h)}"


def ring_radius(view: PlayerView, battery: str) -> int:
    """The damage rings' reach of a battery's shell (0 for a gun the view lacks)."""
    gun = view.units.get(battery)
    if gun is None or gun.battery is None:
        return 0
    return weapon_spec(gun.battery.weapon).ring_radius


# --- the screen ------------------------------------------------------------------------------


class ReplayScreen(Screen):
    """A saved game, step by step (see the module docstring).

    The battle is drawn by a ``GameScreen`` over a ``ReplaySession``: the replay
    bar takes the phase bar's place, and ``ReplayOverlay`` is one more layer.
    The replay's keys are read first; every other event goes to the game screen
    (panning, zooming, the log, help, the pause menu, the arrival animation)."""

    opaque = True

    def __init__(
        self, app: App, timeline: ReplayTimeline, side: str = BOTH, position: int = 0
    ) -> None:
        super().__init__(app)
        if side != BOTH and side not in timeline.sides:
            raise ValueError(
                f"--side {side!r}: the sides of this game are {timeline.sides[0]} and "
                f"{timeline.sides[1]} (or {BOTH} for the umpire's view)"
            )
        self.timeline = timeline
        self.position = max(0, min(int(position), timeline.last))
        state = timeline.state_at(self.position)
        self.session = ReplaySession(
            state, {s: REPLAY_SEAT for s in state.sides}, autosave_dir=None, shown=side
        )
        self.playing = False
        self._wait = 0.0
        self.game = GameScreen(app, self.session, Seats(HOTSEAT))
        ctx = self.game.ctx
        self.bar = ReplayBar(self, ctx)
        layers = self.game.layers
        layers[layers.index(self.game.phase_bar)] = self.bar
        # The game screen keeps clear of its phase bar's rectangle: the bar's now.
        self.game.phase_bar.rect = self.bar.rect
        self.overlay = ReplayOverlay(self)
        layers.append(self.overlay)

    @property
    def ctx(self) -> UiContext:
        return self.game.ctx

    # --- stepping --------------------------------------------------------------------------

    def animation(self) -> ArrivalAnimation | None:
        layers = self.ctx.artillery
        return getattr(layers, "animation", None)

    def go(self, position: int) -> None:
        """Show the game after ``position`` commands. Going forward over one artillery
        phase plays its arrivals; going back or jumping further does not."""
        position = max(0, min(int(position), self.timeline.last))
        if position == self.position:
            return
        before = self.timeline.marks[self.position].turn
        forward = position > self.position
        animation = self.animation()
        if animation is not None:
            animation.skip(everything=True)  # a step ends the shells still on show
        self.session.state = self.timeline.state_at(position)
        self.position = position
        self.ctx.refresh()
        turns = self.timeline.marks[position].turn - before
        if not forward or turns > 1:
            self._absorb_arrivals()

    def _absorb_arrivals(self) -> None:
        """Let the animation see the view on screen without playing what is new in it."""
        animation = self.animation()
        if animation is None:
            return
        follow = animation.follow_camera
        animation.follow_camera = False
        animation.update(0.0, self.ctx)
        animation.skip(everything=True)
        animation.follow_camera = follow

    def set_view(self, side: str) -> None:
        """Show ``side``'s view (or ``BOTH``, both sides)."""
        if side != BOTH and side not in self.timeline.sides:
            raise ValueError(f"{side!r} is not a side of this game, nor {BOTH!r}")
        if side == self.session.viewer():
            return
        animation = self.animation()
        if animation is not None:
            animation.skip(everything=True)
        self.session.shown = side
        self.ctx.refresh()
        self._absorb_arrivals()
        self.ctx.notify(f"Showing {view_name(side)}", 2.0)

    def next_view(self) -> None:
        order = [*self.timeline.sides, BOTH]
        current = self.session.viewer()
        k = order.index(current) if current in order else -1
        self.set_view(order[(k + 1) % len(order)])

    def act(self, action: str) -> None:
        """A step button, key or the view toggle."""
        timeline = self.timeline
        k = self.position
        targets = {
            "start": lambda: 0,
            "end": lambda: timeline.last,
            "previous_turn": lambda: timeline.previous_turn(k),
            "next_turn": lambda: timeline.next_turn(k),
            "previous_phase": lambda: timeline.previous_phase(k),
            "next_phase": lambda: timeline.next_phase(k),
            "previous_step": lambda: k - 1,
            "next_step": lambda: k + 1,
        }
        if action in targets:
            self.playing = False
            self.go(targets[action]())
        elif action == "play":
            self.playing = not self.playing and k < timeline.last
            self._wait = 0.0
        elif action == "view":
            self.next_view()
        elif action == "help":
            self.app.push(ReplayHelp(self.app, self))
        elif action == "menu":
            self.game.open_pause()

    def step_text(self) -> str:
        """What the command that led here did, as the view on screen saw it."""
        k = self.position
        if k == 0:
            return "The game is set up; no command yet"
        events = self.session.visible(self.timeline.step_events(self.session.state, k))
        if not events:
            by = self.timeline.marks[k].by or "a side"
            return f"{by.capitalize()} acted out of {self.session.viewer()}'s sight"
        landed = [e for e in events if e.kind == "arrival"]
        if landed:
            shells = f"{len(landed)} shell{'s' if len(landed) != 1 else ''} landed"
            now = where_text(self.ctx.view).lower()
            return f"Artillery phase of turn {landed[0].turn}: {shells}; now {now}"
        first = events[0].text.split("\n")[0]
        more = f"  (+{len(events) - 1} more in the log)" if len(events) > 1 else ""
        return f"{first}{more}"

    # --- the screen --------------------------------------------------------------------------

    KEYS: ClassVar[dict[int, str]] = {
        pygame.K_PAGEDOWN: "next_turn",
        pygame.K_PAGEUP: "previous_turn",
        pygame.K_RIGHTBRACKET: "next_phase",
        pygame.K_LEFTBRACKET: "previous_phase",
        pygame.K_PERIOD: "next_step",
        pygame.K_COMMA: "previous_step",
        pygame.K_END: "end",
        pygame.K_v: "view",
    }

    def _key(self, event: pygame.event.Event) -> bool:
        key, ctrl = event.key, event.mod & pygame.KMOD_CTRL
        if key == pygame.K_HOME and ctrl:
            self.act("start")
            return True
        if key == pygame.K_F1:
            self.act("help")
            return True
        if key == pygame.K_SPACE:
            animation = self.animation()
            if animation is not None and animation.busy:
                return False  # the animation's Space: the next shell
            self.act("play")
            return True
        action = self.KEYS.get(key)
        if action is None or ctrl:
            return False
        self.act(action)
        return True

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and self._key(event):
            return
        self.game.handle_event(event)

    def update(self, dt: float) -> None:
        if self.playing:
            animation = self.animation()
            if animation is None or not animation.busy:
                self._wait -= dt
                if self._wait <= 0:
                    if self.position >= self.timeline.last:
                        self.playing = False
                    else:
                        self.go(self.position + 1)
                        self._wait = AUTOPLAY_SECONDS
        self.game.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        self.game.draw(surface)

    def resize(self, size: tuple[int, int]) -> None:
        self.game.resize(size)
        self.bar.rect.width = size[0]
        self.bar._key = None

    def close(self) -> None:
        self.game.close()


class ReplayHelp(HelpOverlay):
    """F1 in a replay: the replay's keys first, then the map's and the game's."""

    def __init__(self, app: App, screen: ReplayScreen) -> None:
        super().__init__(app, screen.game)
        sections = [(title, keys) for title, keys in self.sections if title != screen.bar.title]
        for k, (title, keys) in enumerate(sections):
            if title == "Game":  # nobody takes a seat in a replay
                sections[k] = (title, [e for e in keys if "hand-over" not in e[0]])
        self.sections = [(screen.bar.title, screen.bar.keys()), *sections]
