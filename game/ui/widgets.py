"""The widget kit of the window: text, panels, buttons, the modal dialog host, and
the conventions every layer of the game screen follows to share the screen.

Screen conventions shared by the game screen's layers:

- ``map_rect(ctx)``: where the map lies on the screen. ``ctx.map_rect``
  (a ``pygame.Rect``) when the game screen sets it, else the camera's
  viewport at the top-left corner. Mouse positions are screen positions;
  ``draw_world`` surfaces are in camera space (the camera's own coordinates).
- ``ctx.hud``: the game screen's panels (phase bar, unit panel, log);
  ``ctx.panels``: ``{name: Rect}`` of these layers' panels drawn in
  the last frame. The mouse over either hovers no hex (``hex_under``).
  ``ctx.cards``: information cards (previews, the arrival's log
  entry), which do not stop hovering. ``place_box`` finds room for a new
  panel or card clear of all three.
- Clicks act on the button's release (``MOUSEBUTTONUP``): the game screen
  pans the map on a drag and delivers a press and release without a drag as a
  click. A panel takes the press too, so no drag starts on it.
- ``DialogLayer`` (``ctx.dialogs``) hosts one modal dialog at a time;
  while it is open it takes every mouse and key event.

Colours and sizes come from ``game.ui.theme``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame
import pygame_gui

from game.hexmath import SQRT3, Hex
from game.rules.core import percent as percent  # the widget kit's way to show a chance
from game.ui import fonts
from game.ui.context import UiContext
from game.ui.theme import (
    ACCENT,
    BACKDROP,
    BACKDROP_GLOW,
    BACKDROP_GRID,
    BODY,
    BUTTON,
    BUTTON_FIRE,
    BUTTON_FIRE_HOT,
    BUTTON_HOT,
    GOOD,
    HEAD,
    MUTED,
    PANEL,
    PANEL_ALPHA,
    PANEL_EDGE,
    PANEL_HEAD,
    PANEL_RADIUS,
    SHADE,
    SHADE_ALPHA,
    TEXT,
    TITLE_HEIGHT,
    Colour,
)

# --- screen helpers -------------------------------------------------------------------------


def map_rect(ctx: UiContext) -> pygame.Rect:
    """Where the map lies on the screen (see the module docstring)."""
    if ctx.map_rect is not None:
        return ctx.map_rect
    return pygame.Rect(0, 0, *ctx.camera.viewport)


def hud_rects(ctx: UiContext) -> dict[str, pygame.Rect]:
    """The game screen's own panels (phase bar, unit panel, log), when it names them."""
    return {k: r for k, r in ctx.hud.items() if r.w and r.h}


def over_panel(ctx: UiContext, pos: tuple[int, int]) -> bool:
    return any(r.collidepoint(pos) for r in [*ctx.panels.values(), *hud_rects(ctx).values()])


def top_of_map(ctx: UiContext) -> int:
    """The first free row under the game screen's top bar."""
    bar = hud_rects(ctx).get("phase_bar")
    return (bar.bottom if bar is not None else map_rect(ctx).y) + 10


def place_box(
    ctx: UiContext,
    size: tuple[int, int],
    name: str,
    rows: Sequence[str] = ("bottom", "top"),
    avoid: Sequence[tuple[float, float]] = (),
) -> pygame.Rect:
    """Room for a panel of ``size``: along the map's bottom or top row, as near the
    middle as possible, clear of every other panel and of the ``avoid`` points."""
    rect = map_rect(ctx)
    others = [r for k, r in [*ctx.panels.items(), *ctx.cards.items()] if k != name] + list(
        hud_rects(ctx).values()
    )
    box = pygame.Rect(0, 0, min(size[0], rect.w - 20), min(size[1], rect.h - 20))
    best: tuple[int, pygame.Rect] | None = None
    for row in rows:
        box.y = rect.bottom - box.h - 10 if row == "bottom" else top_of_map(ctx)
        for k in range(0, rect.w, 20):
            for sign in (1, -1):
                box.centerx = rect.centerx + sign * k
                if box.left < rect.left + 10 or box.right > rect.right - 10:
                    continue
                clash = sum(
                    box.clip(o).w * box.clip(o).h for o in others if box.colliderect(o)
                ) + sum(100_000 for p in avoid if box.collidepoint(p))
                if clash == 0:
                    return box.copy()
                if best is None or clash < best[0]:
                    best = (clash, box.copy())
    if best is None:
        box.midbottom = (rect.centerx, rect.bottom - 10)
        return box
    return best[1]


def clicked(event: pygame.event.Event) -> bool:
    """A left click, as the game screen delivers it (the release)."""
    return event.type == pygame.MOUSEBUTTONUP and event.button == 1


def pressed(event: pygame.event.Event) -> bool:
    return event.type == pygame.MOUSEBUTTONDOWN and event.button == 1


def plain_key(event: pygame.event.Event, key: int) -> bool:
    """``key`` pressed without Ctrl or Alt (Ctrl+L loads a game, for one)."""
    return (
        event.type == pygame.KEYDOWN
        and event.key == key
        and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT)
    )


def hex_under(ctx: UiContext, pos: tuple[int, int]) -> Hex | None:
    """The hex under a screen point, None over a panel or outside the map."""
    rect = map_rect(ctx)
    if not rect.collidepoint(pos) or over_panel(ctx, pos):
        return None
    return ctx.camera.screen_to_hex(pos[0] - rect.x, pos[1] - rect.y)


def track_hover(ctx: UiContext, event: pygame.event.Event) -> None:
    """Keep ``ctx.hovered`` on the hex under the mouse."""
    if event.type == pygame.MOUSEMOTION:
        ctx.hovered = hex_under(ctx, event.pos)


def text(
    surface: pygame.Surface,
    label: str,
    pos: tuple[float, float],
    px: int = BODY,
    colour: tuple[int, ...] = TEXT,
    bold: bool = False,
    anchor: str = "topleft",
    halo: tuple[int, ...] | None = None,
) -> pygame.Rect:
    """Draw one line of text; ``anchor`` names the point of its rectangle at ``pos``."""
    image = fonts.text(label, px, colour, bold=bold, halo=halo)
    rect = image.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    fonts.blit(surface, image, rect)
    return rect


def text_width(label: str, px: int = BODY, bold: bool = False) -> int:
    return fonts.font(px, bold).size(label)[0]


def wrap(label: str, width: int, px: int = BODY, bold: bool = False) -> list[str]:
    """Break text into lines no wider than ``width`` pixels (words kept whole)."""
    out: list[str] = []
    f = fonts.font(px, bold)
    for paragraph in label.split("\n"):
        indent = paragraph[: len(paragraph) - len(paragraph.lstrip())]
        words = paragraph.split()
        line = indent
        for word in words:
            trial = f"{line} {word}" if line.strip() else f"{indent}{word}"
            if f.size(trial)[0] <= width or not line.strip():
                line = trial
            else:
                out.append(line)
                # Indented lines (log details) keep a hanging indent.
                line = f"{indent}  {word}" if indent else word
        out.append(line)
    return out


def panel_surface(
    size: tuple[int, int],
    radius: int = PANEL_RADIUS,
    title_bar: bool = False,
    accent: Colour | None = None,
    alpha: int = PANEL_ALPHA,
    edge: int = 1,
) -> pygame.Surface:
    """A translucent dark panel with an edge ``edge`` pixels wide (in ``accent`` when
    given); with ``title_bar``, a darker band along its top, marked at its left in
    the accent."""
    surf = pygame.Surface(size, pygame.SRCALPHA)
    rect = surf.get_rect()
    pygame.draw.rect(surf, (*PANEL, alpha), rect, 0, radius)
    if title_bar:
        head = pygame.Rect(0, 0, rect.w, TITLE_HEIGHT)
        pygame.draw.rect(
            surf,
            (*PANEL_HEAD, alpha),
            head,
            border_top_left_radius=radius,
            border_top_right_radius=radius,
        )
        if accent is not None:
            mark = pygame.Rect(0, 0, 5, TITLE_HEIGHT)
            pygame.draw.rect(surf, accent, mark, border_top_left_radius=radius)
    pygame.draw.rect(surf, accent or PANEL_EDGE, rect, edge, radius)
    return surf


def draw_panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    title: str | None = None,
    accent: Colour | None = None,
    alpha: int = PANEL_ALPHA,
) -> pygame.Rect:
    """A panel with an optional title bar at ``rect``; returns the content rectangle."""
    surface.blit(panel_surface(rect.size, PANEL_RADIUS, title is not None, accent, alpha), rect)
    fonts.panel_region(surface, title or "panel", rect)
    if title is None:
        return pygame.Rect(rect.x + 10, rect.y + 8, rect.w - 20, rect.h - 16)
    text(surface, title, (rect.x + 14, rect.y + 14), HEAD, TEXT, bold=True, anchor="midleft")
    top = TITLE_HEIGHT + 6
    return pygame.Rect(rect.x + 10, rect.y + top, rect.w - 20, rect.h - top - 8)


def dim(surface: pygame.Surface, alpha: int = SHADE_ALPHA) -> None:
    """Veil the whole surface (under an overlay or a modal dialog)."""
    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((*SHADE, alpha))
    surface.blit(veil, (0, 0))
    recorder = fonts.recorder()
    if recorder is not None:
        recorder.veil(surface)


def chance_bar(surface: pygame.Surface, rect: pygame.Rect, p: float, colour: Colour = GOOD) -> None:
    """A small bar filled to probability ``p`` with the percentage beside it."""
    pygame.draw.rect(surface, (50, 56, 64), rect, border_radius=3)
    filled = rect.copy()
    filled.w = round(rect.w * max(0.0, min(1.0, p)))
    if filled.w:
        pygame.draw.rect(surface, colour, filled, border_radius=3)


@dataclass
class Button:
    """A clickable label."""

    rect: pygame.Rect
    label: str
    enabled: bool = True
    danger: bool = False

    def draw(self, surface: pygame.Surface, mouse: tuple[int, int] | None = None) -> None:
        hot = self.enabled and mouse is not None and self.rect.collidepoint(mouse)
        if self.danger and self.enabled:
            colour = BUTTON_FIRE_HOT if hot else BUTTON_FIRE
        else:
            colour = BUTTON_HOT if hot else BUTTON
        pygame.draw.rect(surface, colour, self.rect, border_radius=6)
        pygame.draw.rect(surface, PANEL_EDGE, self.rect, 1, border_radius=6)
        text(
            surface,
            self.label,
            self.rect.center,
            BODY,
            TEXT if self.enabled else MUTED,
            bold=True,
            anchor="center",
        )

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.enabled and self.rect.collidepoint(pos)


def gui_button(
    rect: pygame.Rect,
    label: str,
    manager: pygame_gui.UIManager,
    style: str | None = None,
    tip: str | None = None,
) -> pygame_gui.elements.UIButton:
    """A pygame-gui button in the theme of assets/theme.json; ``style`` names one of its
    looks: "primary" (amber: the thing to do next), "menu_item", "choice"."""
    object_id = pygame_gui.core.ObjectID(object_id=f"#{style}") if style else None
    return pygame_gui.elements.UIButton(
        rect, label, manager, tool_tip_text=tip, object_id=object_id
    )


def choice_row(
    manager: pygame_gui.UIManager,
    rect: pygame.Rect,
    options: Sequence[tuple[object, str]],
    chosen: object = None,
    widest: int | None = None,
    gap: int = 8,
) -> dict[pygame_gui.elements.UIButton, object]:
    """A row of "choice" buttons (value, label) sharing ``rect``'s width, each at most
    ``widest`` wide, the button of the ``chosen`` value marked; each button's value."""
    count = max(1, len(options))
    w = (rect.width - gap * (count - 1)) // count
    w = min(w, widest) if widest is not None else w
    row = {}
    for k, (value, label) in enumerate(options):
        place = pygame.Rect(rect.x + k * (w + gap), rect.y, w, rect.height)
        button = gui_button(place, label, manager, "choice")
        if value == chosen:
            button.select()
        row[button] = value
    return row


def draw_gui(manager: pygame_gui.UIManager, surface: pygame.Surface) -> None:
    """Draw a screen's pygame-gui elements; while text is recorded, each visible element
    that shows words is noted (a button too narrow for its words is ``cut``)."""
    manager.draw_ui(surface)
    recorder = fonts.recorder()
    if recorder is None:
        return
    for element in manager.get_sprite_group().sprites():
        words = getattr(element, "text", None)
        if not words or not isinstance(words, str) or not element.visible:
            continue
        font = getattr(element, "font", None)
        cut = False
        if font is not None and isinstance(
            element, pygame_gui.elements.UIButton | pygame_gui.elements.UILabel
        ):
            cut = font.size(words)[0] > element.rect.w - 4
        recorder.gui_text(words, element.rect, cut)


# --- the modal host ---------------------------------------------------------------------------

_MODAL_EVENTS = {
    pygame.MOUSEBUTTONDOWN,
    pygame.MOUSEBUTTONUP,
    pygame.MOUSEMOTION,
    pygame.MOUSEWHEEL,
    pygame.KEYDOWN,
    pygame.KEYUP,
    pygame.TEXTINPUT,
}


class Dialog:
    """A modal window: ``layout`` places it on the screen, ``draw`` shows it,
    ``handle_event`` reacts; setting ``closed`` removes it."""

    title = ""

    def __init__(self) -> None:
        self.closed = False
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.mouse: tuple[int, int] | None = None

    def size(self, screen: pygame.Rect) -> tuple[int, int]:
        return 420, 240

    def layout(self, screen: pygame.Rect) -> None:
        w, h = self.size(screen)
        self.rect = pygame.Rect(0, 0, min(w, screen.w - 20), min(h, screen.h - 20))
        self.rect.center = screen.center

    def draw(self, surface: pygame.Surface, ctx: UiContext) -> None:
        draw_panel(surface, self.rect, self.title, ACCENT)

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos

    def update(self, dt: float, ctx: UiContext) -> None:
        return None


class ConfirmDialog(Dialog):
    """A question with Confirm and Cancel: Enter confirms, Esc cancels; ``on_confirm``
    runs only on Confirm."""

    def __init__(self, title: str, question: str, on_confirm: Callable[[], object]) -> None:
        super().__init__()
        self.title = title
        self.question = question
        self.on_confirm = on_confirm
        self.confirm_button = Button(pygame.Rect(0, 0, 0, 0), "Confirm")
        self.cancel_button = Button(pygame.Rect(0, 0, 0, 0), "Cancel")
        self.confirmed = False

    def size(self, screen: pygame.Rect) -> tuple[int, int]:
        return 440, 34 + 20 * len(wrap(self.question, 400)) + 16 + 60

    def layout(self, screen: pygame.Rect) -> None:
        super().layout(screen)
        bottom = self.rect.bottom - 52
        self.confirm_button.rect = pygame.Rect(self.rect.right - 232, bottom, 104, 38)
        self.cancel_button.rect = pygame.Rect(self.rect.right - 118, bottom, 104, 38)

    def confirm(self) -> None:
        self.confirmed = True
        self.closed = True
        self.on_confirm()

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> None:
        super().handle_event(event, ctx)
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.confirm()
            elif event.key == pygame.K_ESCAPE:
                self.closed = True
        elif clicked(event):
            if self.confirm_button.hit(event.pos):
                self.confirm()
            elif self.cancel_button.hit(event.pos):
                self.closed = True

    def draw(self, surface: pygame.Surface, ctx: UiContext) -> None:
        inner = draw_panel(surface, self.rect, self.title, ACCENT)
        y = inner.y
        for line in wrap(self.question, inner.w):
            text(surface, line, (inner.x, y), BODY, TEXT)
            y += 20
        self.confirm_button.draw(surface, self.mouse)
        self.cancel_button.draw(surface, self.mouse)


class DialogLayer:
    """Hosts the open dialog on top of everything (the last of the artillery layers)."""

    def __init__(self) -> None:
        self.stack: list[Dialog] = []
        self._screen: pygame.Rect | None = None

    def keys(self) -> list[tuple[str, str]]:
        return [("Enter / Esc", "confirm / cancel the open dialog")]

    @property
    def top(self) -> Dialog | None:
        return self.stack[-1] if self.stack else None

    def open(self, dialog: Dialog) -> Dialog:
        self.stack.append(dialog)
        if self._screen is not None:
            dialog.layout(self._screen)
        return dialog

    def showing(self, kind: type[Dialog]) -> Dialog | None:
        return next((d for d in reversed(self.stack) if isinstance(d, kind)), None)

    def reset(self, ctx: UiContext) -> None:
        """A hot-seat hand-over: the dialogs of the side that left the seat close."""
        self.stack.clear()
        ctx.panels.pop("dialog", None)

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        dialog = self.top
        if dialog is None or event.type not in _MODAL_EVENTS:
            return False
        if self._screen is not None and dialog.rect.w == 0:
            dialog.layout(self._screen)
        dialog.handle_event(event, ctx)
        self._prune(ctx)
        return True

    def update(self, dt: float, ctx: UiContext) -> None:
        for dialog in list(self.stack):
            dialog.update(dt, ctx)
        self._prune(ctx)

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        return None

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        screen = surface.get_rect()
        if screen != self._screen:
            self._screen = screen
            for dialog in self.stack:
                dialog.layout(screen)
        dialog = self.top
        if dialog is None:
            ctx.panels.pop("dialog", None)
            return
        if dialog.rect.w == 0:
            dialog.layout(screen)
        dim(surface)
        dialog.draw(surface, ctx)
        ctx.panels["dialog"] = screen

    def _prune(self, ctx: UiContext) -> None:
        self.stack = [d for d in self.stack if not d.closed]
        if not self.stack:
            ctx.panels.pop("dialog", None)


def dialog_layer(ctx: UiContext) -> DialogLayer:
    """The dialog host of this screen (made on first use)."""
    if ctx.dialogs is None:
        ctx.dialogs = DialogLayer()
    return ctx.dialogs


# --- full-screen backgrounds -------------------------------------------------------------------


def backdrop(size: tuple[int, int]) -> pygame.Surface:
    """A dark field with a faint hex grid and a warm glow in its corner: behind the
    main menu and the hot-seat hand-over."""
    surf = pygame.Surface(size)
    surf.fill(BACKDROP)
    s = 34
    cols = int(size[0] / (1.5 * s)) + 2
    rows = int(size[1] / (SQRT3 * s)) + 2
    for c in range(cols):
        for r in range(rows):
            x = c * 1.5 * s
            y = r * SQRT3 * s + (c % 2) * SQRT3 * s / 2
            pts = [
                (x + s * math.cos(math.radians(60 * k)), y + s * math.sin(math.radians(60 * k)))
                for k in range(6)
            ]
            pygame.draw.polygon(surf, BACKDROP_GRID, pts, 1)
    glow = pygame.Surface(size, pygame.SRCALPHA)
    for k in range(12):
        alpha = 10 - k * 0.8
        if alpha <= 0:
            break
        pygame.draw.circle(glow, (*BACKDROP_GLOW, int(alpha)), (0, 0), 260 + k * 40)
    surf.blit(glow, (0, 0))
    return surf
