"""Fonts of the map: Noto Sans as shipped with pygame-gui (a pinned dependency).

``font(px, bold=False)`` returns a cached ``pygame.font.Font``; when the Noto
files cannot be found (a stripped install) pygame's own default font is used,
so text still shows. ``text(...)`` caches rendered label surfaces: the map
draws the same few hundred labels (``XXYY`` names, levels) again and again.
"""

from __future__ import annotations

import importlib.util
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pygame

# Labels rendered and kept; far more than a map ever shows at one zoom.
_TEXT_CACHE_LIMIT = 4096
_text_cache: dict[tuple[str, int, bool, tuple[int, ...], tuple[int, ...] | None], pygame.Surface]
_text_cache = {}
# The words of each cached label, by the label's surface (what ``blit`` records).
_labels: dict[int, str] = {}


@cache
def _font_dir() -> Path | None:
    spec = importlib.util.find_spec("pygame_gui")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "data"
    return folder if (folder / "NotoSans-Regular.ttf").is_file() else None


def font_path(bold: bool = False) -> Path | None:
    """The Noto Sans file used for map text, or None when it is not installed."""
    folder = _font_dir()
    if folder is None:
        return None
    return folder / ("NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf")


_fonts: dict[tuple[int, bool], pygame.font.Font] = {}


def font(px: int, bold: bool = False) -> pygame.font.Font:
    """A font of ``px`` pixels (at least 6), cached; made again after pygame was
    shut down and restarted (a font of the old session cannot render)."""
    if not pygame.font.get_init():
        pygame.font.init()
    key = (max(6, int(px)), bool(bold))
    f = _fonts.get(key)
    if f is not None:
        try:
            f.get_height()
            return f
        except pygame.error:
            _fonts.clear()
    path = font_path(bold)
    f = pygame.font.Font(str(path) if path else None, key[0])
    if path is None and bold:
        f.set_bold(True)
    _fonts[key] = f
    return f


def text(
    label: str,
    px: int,
    colour: tuple[int, ...],
    bold: bool = False,
    halo: tuple[int, ...] | None = None,
) -> pygame.Surface:
    """A rendered label (anti-aliased, transparent background), cached.

    ``halo`` draws a one-pixel outline of that colour around the letters, which
    keeps small labels readable over woods, water and roads.
    """
    key = (label, int(px), bold, tuple(colour), tuple(halo) if halo else None)
    surf = _text_cache.get(key)
    if surf is not None:
        return surf
    f = font(px, bold)
    glyphs = f.render(label, True, colour)
    if halo is None:
        surf = glyphs
    else:
        ring = f.render(label, True, halo)
        w, h = glyphs.get_size()
        surf = pygame.Surface((w + 2, h + 2), pygame.SRCALPHA)
        for dx, dy in ((0, 1), (2, 1), (1, 0), (1, 2), (0, 0), (2, 2), (0, 2), (2, 0)):
            surf.blit(ring, (dx, dy))
        surf.blit(glyphs, (1, 1))
    if len(_text_cache) >= _TEXT_CACHE_LIMIT:
        _text_cache.clear()
        _labels.clear()
    _text_cache[key] = surf
    _labels[id(surf)] = label
    return surf


# --- where text lands on the screen ---------------------------------------------------------
#
# Every piece of text the window draws goes through ``blit`` (a rendered label onto a
# surface) and every surface holding text goes onto the screen through ``place``. While a
# ``TextRecorder`` is on (the layout test, the screenshot script), these calls note where
# each label lands in screen coordinates and which panel holds it; when none is on, they
# are plain blits.


@dataclass(frozen=True)
class PlacedText:
    """One label as seen on the screen: its rectangle, the panel holding it (``panel`` and
    ``panel_rect``, None for text straight on the window), the overlay ``layer`` it was
    drawn in (each veil over the screen starts a new one), and ``cut`` when part of it
    fell outside a surface it was drawn on."""

    text: str
    rect: pygame.Rect
    panel: str | None
    panel_rect: pygame.Rect | None
    layer: int
    order: int
    cut: bool = False
    clipped: bool = False  # its panel cuts text at its edge on purpose (the map's view)


@dataclass(frozen=True)
class PlacedPanel:
    """A panel (or a pygame-gui element) on the screen: an obstacle for map labels."""

    name: str
    rect: pygame.Rect
    layer: int
    order: int


@dataclass
class _Mark:
    text: str
    rect: pygame.Rect
    order: int
    scope: tuple[str, pygame.Rect, bool] | None


@dataclass
class _Placement:
    dest: pygame.Surface
    offset: tuple[int, int]
    name: str | None
    clips: bool
    order: int
    area: pygame.Rect | None = None


@dataclass
class _Region:
    dest: pygame.Surface
    name: str
    rect: pygame.Rect
    order: int


class TextRecorder:
    """Notes every label drawn while it is on, and resolves them to the screen.

    Labels on a surface are kept as long as that surface lives (a cached panel keeps its
    text); placements, panels and veils are those of the last frame (``new_frame``).
    Text drawn on a surface that never reached the screen in the last frame is not seen.
    """

    def __init__(self) -> None:
        self.marks: weakref.WeakKeyDictionary[pygame.Surface, list[_Mark]]
        self.marks = weakref.WeakKeyDictionary()
        self.order = 0
        self.scopes: list[tuple[str, pygame.Rect, bool]] = []
        self.new_frame()

    def new_frame(self) -> None:
        screen = pygame.display.get_surface()
        if screen is not None:
            self.marks.pop(screen, None)
        self.placements: weakref.WeakKeyDictionary[pygame.Surface, list[_Placement]]
        self.placements = weakref.WeakKeyDictionary()
        self.regions: list[_Region] = []
        self.veils: list[int] = []
        # Surfaces drawn on or placed in this frame, kept until the next (a panel's
        # picture is often made for one frame and dropped once on the screen).
        self.kept: list[pygame.Surface] = []
        self.gui: list[tuple[str, pygame.Rect, int, bool]] = []

    def _next(self) -> int:
        self.order += 1
        return self.order

    def text(
        self, dest: pygame.Surface, label: str, rect: pygame.Rect, belongs_to: str | None = None
    ) -> None:
        scope = self.scopes[-1] if self.scopes else None
        if belongs_to is not None:
            where = scope[1] if scope is not None else dest.get_rect()
            scope = (belongs_to, where, True)
        self.kept.append(dest)
        self.marks.setdefault(dest, []).append(_Mark(label, rect.copy(), self._next(), scope))

    def place(
        self,
        dest: pygame.Surface,
        src: pygame.Surface,
        offset: tuple[int, int],
        name: str | None,
        clips: bool,
        area: pygame.Rect | None = None,
    ) -> None:
        placement = _Placement(dest, offset, name, clips, self._next(), area)
        self.kept.append(src)
        self.placements.setdefault(src, []).append(placement)
        if name is not None and not clips:
            shown = area if area is not None else src.get_rect()
            self.regions.append(_Region(dest, name, shown.move(offset), placement.order))

    def copy_marks(self, src: pygame.Surface, dest: pygame.Surface, box: pygame.Rect) -> None:
        """``dest`` is a copy of ``box`` of ``src``: its labels moved along."""
        marks = [
            _Mark(m.text, m.rect.move(-box.x, -box.y), m.order, m.scope)
            for m in self.marks.get(src, [])
            if box.colliderect(m.rect)
        ]
        if marks:
            self.marks[dest] = marks

    def forget(self, surface: pygame.Surface) -> None:
        self.marks.pop(surface, None)

    def region(self, dest: pygame.Surface, name: str, rect: pygame.Rect) -> None:
        self.regions.append(_Region(dest, name, rect.copy(), self._next()))

    def veil(self, dest: pygame.Surface) -> None:
        if dest is pygame.display.get_surface():
            self.veils.append(self._next())

    def gui_text(self, label: str, rect: pygame.Rect, cut: bool) -> None:
        self.gui.append((label, rect.copy(), self._next(), cut))

    # --- read back --------------------------------------------------------------------------

    def layer(self, order: int) -> int:
        return sum(1 for v in self.veils if v < order)

    def _to_screen(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        holder: tuple[str, pygame.Rect, bool] | None = None,
        cut: bool = False,
        order: int = 0,
        depth: int = 0,
    ) -> Iterator[tuple[pygame.Rect, tuple[str, pygame.Rect, bool] | None, bool, int]]:
        """(screen rect, holder (name, rect, clips), cut, order on screen) of a rect on
        ``surface``, once for each way it reached the screen this frame."""
        if surface is pygame.display.get_surface():
            yield rect, holder, cut, order
            return
        if depth > 8:
            return
        for p in self.placements.get(surface, []):
            bounds = p.area if p.area is not None else surface.get_rect()
            if p.clips and not bounds.colliderect(rect):
                continue
            held = holder
            if held is None and p.name is not None:
                held = (p.name, bounds, p.clips)
            lost = cut or (not bounds.contains(rect) and not (held is not None and held[2]))
            if held is not None:
                held = (held[0], held[1].move(p.offset), held[2])
            yield from self._to_screen(p.dest, rect.move(p.offset), held, lost, p.order, depth + 1)

    def texts(self) -> list[PlacedText]:
        """Every label on the screen in the last frame."""
        screen = pygame.display.get_surface()
        out: list[PlacedText] = []
        for surface, marks in list(self.marks.items()):
            for mark in marks:
                for rect, holder, cut, order in self._to_screen(surface, mark.rect):
                    order = order or mark.order
                    if holder is None and mark.scope is not None:
                        holder = mark.scope
                    if holder is None and surface is screen:
                        region = self._region_under(surface, rect, mark.order)
                        if region is not None:
                            holder = (region.name, region.rect, False)
                    name, held, clips = holder if holder is not None else (None, None, False)
                    if holder is not None and not clips and not held.contains(rect):
                        cut = True
                    layer = self.layer(order)
                    out.append(PlacedText(mark.text, rect, name, held, layer, order, cut, clips))
        for label, rect, order, cut in self.gui:
            out.append(PlacedText(label, rect, "gui", None, self.layer(order), order, cut))
        out.sort(key=lambda t: t.order)
        return out

    def _region_under(self, dest: pygame.Surface, rect: pygame.Rect, order: int) -> _Region | None:
        """The panel last drawn under a label put straight on ``dest`` (its holder)."""
        under = [
            r
            for r in self.regions
            if r.dest is dest and r.order < order and r.rect.collidepoint(rect.center)
        ]
        return under[-1] if under else None

    def panels(self) -> list[PlacedPanel]:
        """The panels on the screen in the last frame (pygame-gui elements among them)."""
        screen = pygame.display.get_surface()
        out = [
            PlacedPanel(r.name, r.rect, self.layer(r.order), r.order)
            for r in self.regions
            if r.dest is screen
        ]
        out += [PlacedPanel(f"button {t!r}", r, self.layer(o), o) for t, r, o, _ in self.gui]
        return out


_recorder: TextRecorder | None = None
# What the marks drawn on hexes and counters belong to (a move's cost, a unit's name,
# a pre-designated hex's number): the map's grid, not its placed labels.
HEX_MARKS = "hex marks"


@contextmanager
def recording() -> Iterator[TextRecorder]:
    """Note where text lands while the block runs (the layout test, the screenshots)."""
    global _recorder
    before = _recorder
    _recorder = TextRecorder()
    try:
        yield _recorder
    finally:
        _recorder = before


def recorder() -> TextRecorder | None:
    return _recorder


def blit(
    dest: pygame.Surface,
    image: pygame.Surface,
    where: tuple[float, float] | pygame.Rect,
    anchor: str = "topleft",
    belongs_to: str | None = None,
) -> pygame.Rect:
    """Draw a rendered label (from ``text``) onto ``dest``; ``anchor`` names the point of
    its rectangle at ``where`` (a Rect: its top-left). Returns where it went.

    ``belongs_to`` names what the label is part of when that is not the panel it is
    drawn in: ``HEX_MARKS`` for the numbers and names drawn on every hex or counter
    (they go where their hex goes, under any panel)."""
    if isinstance(where, pygame.Rect):
        rect = image.get_rect(topleft=where.topleft)
    else:
        rect = image.get_rect(**{anchor: (round(where[0]), round(where[1]))})
    dest.blit(image, rect)
    if _recorder is not None:
        _recorder.text(dest, _labels.get(id(image), "?"), rect, belongs_to)
    return rect


def place(
    dest: pygame.Surface,
    panel: pygame.Surface,
    where: tuple[float, float] | pygame.Rect,
    name: str | None = None,
    clips: bool = False,
    anchor: str = "topleft",
    area: pygame.Rect | None = None,
) -> pygame.Rect:
    """Put a surface that holds text (a panel, a card, the composed map) onto ``dest``;
    ``name`` names the panel (its text belongs to it); ``clips``: text cut at its edge
    is meant (the map's view, a scrolled list); ``area``: only that part of it."""
    shown = area if area is not None else panel.get_rect()
    if isinstance(where, pygame.Rect):
        rect = shown.move_to(topleft=where.topleft)
    else:
        rect = shown.move_to(**{anchor: (round(where[0]), round(where[1]))})
    dest.blit(panel, rect, area)
    if _recorder is not None:
        offset = (rect.x - shown.x, rect.y - shown.y)
        _recorder.place(dest, panel, offset, name, clips, area)
    return rect


def copy_area(surface: pygame.Surface, box: pygame.Rect) -> pygame.Surface:
    """A copy of ``box`` of ``surface`` (a cached part of a scratch picture), its text
    noted with it."""
    image = surface.subsurface(box).copy()
    if _recorder is not None:
        _recorder.copy_marks(surface, image, box)
    return image


def panel_region(dest: pygame.Surface, name: str, rect: pygame.Rect) -> None:
    """A panel drawn straight onto ``dest`` at ``rect``: text drawn on it after belongs
    to it."""
    if _recorder is not None:
        _recorder.region(dest, name, rect)


@contextmanager
def panel_scope(name: str, rect: pygame.Rect, clips: bool = False) -> Iterator[None]:
    """Text drawn in the block belongs to the panel ``name`` at screen ``rect``."""
    if _recorder is None:
        yield
        return
    _recorder.scopes.append((name, pygame.Rect(rect), clips))
    screen = pygame.display.get_surface()
    if screen is not None and not clips:
        _recorder.region(screen, name, pygame.Rect(rect))
    try:
        yield
    finally:
        _recorder.scopes.pop()


def forget(surface: pygame.Surface) -> None:
    """A surface drawn afresh in place: the text noted on it is gone."""
    if _recorder is not None:
        _recorder.forget(surface)
