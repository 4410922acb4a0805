"""The map camera: zoom levels, panning and screen <-> world <-> hex conversions.

World space is the flat-top pixel space of ``hexmath.hex_to_pixel`` at hex size
1 (a hex's centre-to-corner radius is one world unit; y grows down). At zoom
level ``k`` a world point ``(x, y)`` lands on the screen at
``(x * size - offset_x, y * size - offset_y)`` where ``size = ZOOM_SIZES[k]``
and the offset is a whole number of pixels, so cached sheet surfaces rendered at
``hex_to_pixel(h, size)`` line up with each other to the pixel.

The camera keeps the world point at the centre of the viewport. Zooming around
a screen point keeps the world point under that point fixed (to within half a
pixel), so the hex under the mouse stays under the mouse. Panning is clamped
loosely: the centre stays within the area's bounds plus half a viewport less
three hex sizes, so the map can be pushed to an edge of the window but never
lost off it.

No pygame here: the camera is plain arithmetic and is tested headless.
"""

from __future__ import annotations

import math

from game.hexmath import SQRT3, Hex, hex_to_pixel, pixel_to_hex

# Hex sizes (centre-to-corner, in screen pixels) of the zoom levels, far to near.
# Even sizes keep a sheet's width (22.5 hex sizes per sheet column step) whole.
ZOOM_SIZES: tuple[int, ...] = (6, 8, 12, 18, 26, 36, 50)
DEFAULT_ZOOM = 3
# Hex sizes of the area that panning always leaves in view.
KEEP_IN_VIEW = 3.0
# Screen pixels per second of keyboard panning.
KEY_PAN_SPEED = 900.0

WorldRect = tuple[float, float, float, float]  # x0, y0, x1, y1


class Camera:
    """Where the map is seen from: a centre in world units and a zoom level."""

    def __init__(
        self,
        viewport: tuple[int, int],
        zoom_index: int = DEFAULT_ZOOM,
        centre: tuple[float, float] = (0.0, 0.0),
        bounds: WorldRect | None = None,
    ) -> None:
        """``viewport`` is the map's (width, height) in screen pixels; ``bounds`` the
        world rectangle the centre is clamped to (see ``set_bounds``)."""
        self._check_viewport(viewport)
        self.viewport = (int(viewport[0]), int(viewport[1]))
        self.zoom_index = self._check_zoom(zoom_index)
        self.cx, self.cy = float(centre[0]), float(centre[1])
        self.bounds = bounds
        self._clamp()

    # --- state -------------------------------------------------------------

    @property
    def size(self) -> int:
        """Hex size (centre-to-corner) in screen pixels at the current zoom."""
        return ZOOM_SIZES[self.zoom_index]

    @property
    def offset(self) -> tuple[int, int]:
        """Whole-pixel position of the screen's top-left corner in zoom-pixel space."""
        s = self.size
        return (
            math.floor(self.cx * s - self.viewport[0] / 2 + 0.5),
            math.floor(self.cy * s - self.viewport[1] / 2 + 0.5),
        )

    def resize(self, viewport: tuple[int, int]) -> None:
        """The window (or the map's part of it) changed size; the centre stays."""
        self._check_viewport(viewport)
        self.viewport = (int(viewport[0]), int(viewport[1]))
        self._clamp()

    def set_bounds(self, bounds: WorldRect | None) -> None:
        """Clamp the centre to ``bounds`` (world units) plus nearly half a viewport;
        None: free."""
        if bounds is not None:
            x0, y0, x1, y1 = bounds
            if not (x0 <= x1 and y0 <= y1):
                raise ValueError(f"camera bounds {bounds} must have x0 <= x1 and y0 <= y1")
        self.bounds = bounds
        self._clamp()

    # --- conversions ---------------------------------------------------------

    def world_to_screen(self, x: float, y: float) -> tuple[float, float]:
        ox, oy = self.offset
        s = self.size
        return x * s - ox, y * s - oy

    def screen_to_world(self, sx: float, sy: float) -> tuple[float, float]:
        ox, oy = self.offset
        s = self.size
        return (sx + ox) / s, (sy + oy) / s

    def hex_to_screen(self, h: Hex) -> tuple[float, float]:
        """Screen position of a hex's centre."""
        x, y = hex_to_pixel(h, self.size)
        ox, oy = self.offset
        return x - ox, y - oy

    def screen_to_hex(self, sx: float, sy: float) -> Hex:
        """The hex under a screen point (mouse picking)."""
        ox, oy = self.offset
        return pixel_to_hex(sx + ox, sy + oy, self.size)

    def visible_world_rect(self) -> WorldRect:
        """The world rectangle the viewport shows: (x0, y0, x1, y1)."""
        x0, y0 = self.screen_to_world(0, 0)
        x1, y1 = self.screen_to_world(*self.viewport)
        return x0, y0, x1, y1

    def visible_hex_range(self) -> tuple[int, int, int, int]:
        """Global offset columns and rows that may show: (col0, col1, row0, row1), inclusive."""
        x0, y0, x1, y1 = self.visible_world_rect()
        col0 = math.floor((x0 - 1.0) / 1.5)
        col1 = math.ceil((x1 + 1.0) / 1.5)
        row0 = math.floor(y0 / SQRT3 - 1.0)
        row1 = math.ceil(y1 / SQRT3 + 0.5)
        return col0, col1, row0, row1

    # --- moving --------------------------------------------------------------

    def pan(self, dx: float, dy: float) -> None:
        """Move the view by screen pixels (drag: pass the negated mouse motion)."""
        s = self.size
        self.cx += dx / s
        self.cy += dy / s
        self._clamp()

    def pan_by_keys(self, left: bool, right: bool, up: bool, down: bool, seconds: float) -> None:
        """Keyboard panning (arrows / WASD) for a frame lasting ``seconds``."""
        dx = (int(right) - int(left)) * KEY_PAN_SPEED * seconds
        dy = (int(down) - int(up)) * KEY_PAN_SPEED * seconds
        if dx or dy:
            self.pan(dx, dy)

    def centre_on_world(self, x: float, y: float) -> None:
        self.cx, self.cy = float(x), float(y)
        self._clamp()

    def centre_on(self, h: Hex) -> None:
        """Put a hex (a unit's, a plot's) at the centre of the view."""
        self.centre_on_world(*hex_to_pixel(h, 1.0))

    def set_zoom(self, zoom_index: int, anchor: tuple[float, float] | None = None) -> bool:
        """Go to a zoom level keeping the world point under ``anchor`` (a screen point;
        default the viewport centre) where it is. Returns whether the zoom changed."""
        zoom_index = self._check_zoom(zoom_index)
        if zoom_index == self.zoom_index:
            return False
        if anchor is None:
            anchor = (self.viewport[0] / 2, self.viewport[1] / 2)
        ax, ay = anchor
        wx, wy = self.screen_to_world(ax, ay)
        self.zoom_index = zoom_index
        s = self.size
        # The anchor's world point must map back onto the anchor: solve for the centre.
        self.cx = wx + (self.viewport[0] / 2 - ax) / s
        self.cy = wy + (self.viewport[1] / 2 - ay) / s
        self._clamp()
        return True

    def zoom_at(self, steps: int, anchor: tuple[float, float] | None = None) -> bool:
        """Zoom ``steps`` levels in (positive, mouse wheel up) or out, around ``anchor``.
        Stops at the nearest and farthest levels; returns whether the zoom changed."""
        target = min(max(self.zoom_index + int(steps), 0), len(ZOOM_SIZES) - 1)
        return self.set_zoom(target, anchor)

    def fit(self, bounds: WorldRect) -> None:
        """Centre on ``bounds`` at the nearest zoom that shows all of it (or the farthest)."""
        x0, y0, x1, y1 = bounds
        self.set_bounds(bounds)
        best = 0
        for k, s in enumerate(ZOOM_SIZES):
            if (x1 - x0) * s <= self.viewport[0] and (y1 - y0) * s <= self.viewport[1]:
                best = k
        self.zoom_index = best
        self.centre_on_world((x0 + x1) / 2, (y0 + y1) / 2)

    # --- checks ----------------------------------------------------------------

    def _clamp(self) -> None:
        if self.bounds is None:
            return
        x0, y0, x1, y1 = self.bounds
        s = self.size
        # Leave at least KEEP_IN_VIEW hex sizes of the area on screen.
        mx = max(0.0, self.viewport[0] / 2 / s - KEEP_IN_VIEW)
        my = max(0.0, self.viewport[1] / 2 / s - KEEP_IN_VIEW)
        self.cx = min(max(self.cx, x0 - mx), x1 + mx)
        self.cy = min(max(self.cy, y0 - my), y1 + my)

    @staticmethod
    def _check_zoom(zoom_index: int) -> int:
        if not isinstance(zoom_index, int) or not 0 <= zoom_index < len(ZOOM_SIZES):
            raise ValueError(
                f"zoom level {zoom_index!r} must be a whole number 0..{len(ZOOM_SIZES) - 1} "
                f"(hex sizes {', '.join(map(str, ZOOM_SIZES))} px)"
            )
        return zoom_index

    @staticmethod
    def _check_viewport(viewport: tuple[int, int]) -> None:
        if len(viewport) != 2 or viewport[0] < 1 or viewport[1] < 1:
            raise ValueError(f"viewport {viewport!r} must be (width, height) of at least 1 px")

    def __repr__(self) -> str:
        return (
            f"Camera(viewport={self.viewport}, zoom {self.zoom_index} ({self.size} px), "
            f"centre=({self.cx:.2f}, {self.cy:.2f}))"
        )
