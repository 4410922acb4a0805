"""Fonts of the map: Noto Sans as shipped with pygame-gui (a pinned dependency).

``font(px, bold=False)`` returns a cached ``pygame.font.Font``; when the Noto
files cannot be found (a stripped install) pygame's own default font is used,
so text still shows. ``text(...)`` caches rendered label surfaces: the map
draws the same few hundred labels (``XXYY`` names, levels) again and again.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

import pygame

# Labels rendered and kept; far more than a map ever shows at one zoom.
_TEXT_CACHE_LIMIT = 4096
_text_cache: dict[tuple[str, int, bool, tuple[int, ...], tuple[int, ...] | None], pygame.Surface]
_text_cache = {}


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
    _text_cache[key] = surf
    return surf
