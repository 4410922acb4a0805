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

import itertools
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
    MARGIN,
    MUTED,
    PANEL,
    PANEL_ALPHA,
    PANEL_EDGE,
    PANEL_HEAD,
    PANEL_RADIUS,
    SHADE,
    SHADE_ALPHA,
    SMALL,
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


# --- docking -------------------------------------------------------------------------------
#
# One rule places every panel and card of the game screen. Panels dock in the columns
# along the map's left and right edges, under the top bar (``dock``): each slides from
# its corner along its column past the panels that outrank it. Cards (previews, the
# arrival's entry, the legend...) find room along the map's bottom or top row, as near
# the middle as they can (``place_box``). A panel keeps clear of those ranked before it
# in ``DOCK_RANK`` and of the game screen's own (``ctx.hud``); one not named there keeps
# clear of all. So two panels never fight over a place (the lower rank moves), and
# when a column runs out of room the lower-ranked panel is cut to what is left (never
# less than its title strip) or, failing that, is placed as a card.

DOCK_RANK = (
    "phase_bar",
    "seat_banner",
    "messages",
    "unit_panel",
    "log",
    "tutorial",
    "minimap",
    "setup",
    "batteries",
    "fire_queue",
    "intel",
    "legend",
    "incoming_banner",
    "arrival",
    "plot_card",
    "los",
    "attack_hint",
)
GAP = 8  # pixels between two docked panels
LABEL_ROW = 44  # pixels kept along the top of the map for an edge's name (``place_box``)
STRIP_HEIGHT = 28  # a folded panel: its title strip (or a tab)
CORNERS = ("top-left", "bottom-left", "top-right", "bottom-right")


def dock_rank(name: str) -> int:
    return DOCK_RANK.index(name) if name in DOCK_RANK else len(DOCK_RANK)


def outranking(ctx: UiContext, name: str) -> list[pygame.Rect]:
    """The rectangles a panel or card named ``name`` keeps clear of (see above); the
    modal dialog's veil is not one: nothing docks around a dialog."""
    rank = dock_rank(name)
    out = []
    for k, r in {**ctx.panels, **ctx.cards, **hud_rects(ctx)}.items():
        if k in (name, "dialog") or not (r.w and r.h):
            continue
        if dock_rank(k) < rank or rank == len(DOCK_RANK):
            out.append(r)
    return out


def dock(ctx: UiContext, name: str, size: tuple[int, int], corner: str) -> pygame.Rect:
    """Where the panel ``name`` of ``size`` goes: in ``corner`` ("top-left",
    "bottom-left", "top-right", "bottom-right") of the map under the top bar, in the
    first gap of its column, from that corner, clear of every panel that outranks it
    and tall enough for it; when no gap is, the tallest one, the panel cut to it."""
    if corner not in CORNERS:
        raise ValueError(f"no corner {corner!r}; one of {', '.join(CORNERS)}")
    area = map_rect(ctx)
    top, bottom = top_of_map(ctx), area.bottom - MARGIN
    w = min(size[0], area.w - 2 * MARGIN)
    x = area.left + MARGIN if corner.endswith("left") else area.right - MARGIN - w
    column = pygame.Rect(x, top, w, max(0, bottom - top))
    others = [o for o in outranking(ctx, name) if o.colliderect(column)]
    # The gaps of the column between the panels in it, from the corner on.
    edges = sorted({top, bottom, *(o.bottom + GAP for o in others), *(o.top - GAP for o in others)})
    gaps: list[pygame.Rect] = []
    for a, b in itertools.pairwise(edges):
        piece = pygame.Rect(x, a, w, b - a)
        if piece.h <= 0 or any(piece.colliderect(o) for o in others):
            continue
        if gaps and gaps[-1].bottom == piece.top:
            gaps[-1].h += piece.h  # one gap, cut by the margin of a panel beside it
        else:
            gaps.append(piece)
    downward = corner.startswith("top")
    gaps.sort(key=lambda g: g.top if downward else -g.bottom)
    whole = next((g for g in gaps if g.h >= size[1]), None)
    if whole is None:
        tallest = max(gaps, key=lambda g: g.h, default=None)
        if tallest is None or tallest.h < min(STRIP_HEIGHT, size[1]):
            return place_box(ctx, (w, min(size[1], STRIP_HEIGHT * 4)), name)
        return tallest
    box = pygame.Rect(x, 0, w, size[1])
    if downward:
        box.top = whole.top
    else:
        box.bottom = whole.bottom
    return box


# Panels open by default; every other panel starts folded to its title strip or tab.
# The selected unit's card opens on selection (a hovered unit shows its strip), and
# the set-up panel is open in the set-up phase, whose whole task it holds.
OPEN_BY_DEFAULT = frozenset({"unit_panel", "setup"})


def panel_open(ctx: UiContext, name: str) -> bool:
    """Whether the panel ``name`` shows in full: the player's choice, else its default."""
    return ctx.panel_open.get(name, name in OPEN_BY_DEFAULT)


def toggle_panel(ctx: UiContext, name: str) -> bool:
    """Open a folded panel or fold an open one (its key or a click on its strip); the
    choice lasts (``ctx.panel_open`` is the settings' ``panels``)."""
    ctx.panel_open[name] = not panel_open(ctx, name)
    return True


def draw_strip(
    surface: pygame.Surface,
    rect: pygame.Rect,
    title: str,
    detail: str = "",
    accent: Colour | None = None,
    folded: bool = True,
) -> None:
    """A panel's title strip: its title (with the key that opens it) and one line of
    what it holds, cut to the strip's width; a + when folded, a - when open."""
    surface.blit(panel_surface(rect.size, 6, accent=accent), rect)
    fonts.panel_region(surface, title, rect)
    middle = rect.y + rect.h // 2
    mark = text(
        surface, "+" if folded else "-", (rect.right - 10, middle), HEAD, MUTED, True, "midright"
    )
    head = text(surface, title, (rect.x + 12, middle), BODY, ACCENT, True, "midleft")
    room = mark.left - head.right - 18
    if detail and room > 30:
        image = fonts.text(fit_text(detail, room, SMALL), SMALL, TEXT)
        fonts.blit(surface, image, (head.right + 10, middle), "midleft")


def fit_text(label: str, width: int, px: int = BODY, bold: bool = False) -> str:
    """``label`` cut with an ellipsis to ``width`` pixels."""
    f = fonts.font(px, bold)
    if f.size(label)[0] <= width:
        return label
    while label and f.size(label + "...")[0] > width:
        label = label[:-1]
    return label.rstrip() + "..."


# The last place found for each card, with what it was found from: a card keeps its
# place from frame to frame without searching again while nothing around it changes.
_PLACED: dict[str, tuple[tuple[object, ...], pygame.Rect]] = {}


def place_box(
    ctx: UiContext,
    size: tuple[int, int],
    name: str,
    rows: Sequence[str] = ("bottom", "top"),
    avoid: Sequence[tuple[float, float]] = (),
) -> pygame.Rect:
    """Room for a card of ``size``: along the map's bottom or top row ("high": the row
    under the top one, which keeps the top row for the names of a home edge or a
    half-line just under the top bar), as near the
    middle as possible, clear of every panel that outranks it (``DOCK_RANK``) and of
    the ``avoid`` points; when the rows have no room, the clear place nearest the
    first row's middle; when none is clear, the place along the rows it overlaps
    least."""
    rect = map_rect(ctx)
    others = outranking(ctx, name)
    key = (tuple(rect), size, tuple(rows), tuple(avoid), tuple(tuple(o) for o in others))
    found = _PLACED.get(name)
    if found is not None and found[0] == key:
        return found[1].copy()
    box = pygame.Rect(0, 0, min(size[0], rect.w - 20), min(size[1], rect.h - 20))
    top, low = top_of_map(ctx), rect.bottom - box.h - 10

    def clash(at: pygame.Rect) -> int:
        return sum(at.clip(o).w * at.clip(o).h for o in others if at.colliderect(o)) + sum(
            100_000 for p in avoid if at.collidepoint(p)
        )

    best: tuple[int, pygame.Rect] | None = None
    for row in rows:
        box.y = {"bottom": low, "top": top, "high": top + LABEL_ROW}[row]
        for k in range(0, rect.w, 20):
            for sign in (1, -1):
                box.centerx = rect.centerx + sign * k
                if box.left < rect.left + 10 or box.right > rect.right - 10:
                    continue
                found = clash(box)
                if best is None or found < best[0]:
                    best = (found, box.copy())
                if found == 0:
                    break
            if best is not None and best[0] == 0:
                break
        if best is not None and best[0] == 0:
            break
    if best is not None and best[0] > 0:
        # No room along the rows: the clear places elsewhere lie against the edges of
        # the panels, the points to avoid and the map; the one nearest the first row's
        # middle is taken.
        xs = {rect.left + 10, rect.right - 10 - box.w, rect.centerx - box.w // 2}
        ys = {top, low}
        for o in others:
            xs |= {o.right + GAP, o.left - GAP - box.w}
            ys |= {o.bottom + GAP, o.top - GAP - box.h}
        for px, py in avoid:
            xs |= {round(px) + 2, round(px) - box.w - 2}
            ys |= {round(py) + 2, round(py) - box.h - 2}
        anchor = (rect.centerx, low if rows[:1] == ("bottom",) else top)
        places = sorted(
            (abs(x + box.w // 2 - anchor[0]) + abs(y - anchor[1]), x, y)
            for x in xs
            for y in ys
            if rect.left + 10 <= x <= rect.right - 10 - box.w and top <= y <= low
        )
        for _, x, y in places:
            box.topleft = (x, y)
            if clash(box) == 0:
                best = (0, box.copy())
                break
    if best is None:
        box.midbottom = (rect.centerx, rect.bottom - 10)
        best = (0, box)
    _PLACED[name] = (key, best[1])
    return best[1].copy()


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
