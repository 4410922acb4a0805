"""The line-of-sight tool (MAP-5): with a unit selected, L shows the line to the
hovered hex, green while sight holds and red from the hex that stops it, with
that hex marked and the reason in words (``game.board.los.line_of_sight``, the
one LOS rule of the game).

The viewer's eye is its hex level plus its height; the target's is the level
of the hovered hex plus the height of the unit standing there when the view
shows one, else one level (a ground target). Answers are cached per
(unit, its hex, hex) until the play area changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from game.board.los import DEFAULT_TARGET_HEIGHT, Sight, line_of_sight
from game.hexmath import Hex
from game.state.model import Unit
from game.ui import labels, theme
from game.ui import widgets as ui
from game.ui.artillery_plot import hex_points
from game.ui.context import LOS, SELECT, UiContext

CLEAR = (70, 220, 110)
BLOCKED = (236, 60, 48)


def _on_segment(
    a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]
) -> tuple[float, float]:
    """The point of the segment a-b nearest to p (where the line enters the blocking hex)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return a
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return a[0] + t * dx, a[1] + t * dy


def target_height(units: Mapping[str, Unit], h: Hex) -> int:
    """Height of what stands in ``h`` as the view shows it (MAP-5): a unit's, or a hex's."""
    for u in units.values():
        if u.hex == h and not u.destroyed:
            return u.height
    return DEFAULT_TARGET_HEIGHT


class LosTool:
    """L: line of sight from the selected unit to the hovered hex."""

    def __init__(self) -> None:
        self._cache: dict[tuple[Any, ...], Sight] = {}
        self._revision: int | None = None
        self._box: pygame.Rect | None = None
        self.computations = 0

    def keys(self) -> list[tuple[str, str]]:
        return [("L", "line of sight from the selected unit to the hovered hex")]

    def sight(self, ctx: UiContext, target: Hex | None = None) -> Sight | None:
        """The selected unit's line to ``target`` (default the hovered hex), cached."""
        unit = ctx.own_unit(ctx.selected)
        target = ctx.hovered if target is None else target
        if unit is None or target is None:
            return None
        start = unit.hex
        if start is None:
            return None
        area = ctx.view.area
        if area.revision != self._revision:
            self._cache.clear()
            self._revision = area.revision
        tall = target_height(ctx.view.units, target)
        key = (unit.id, start, unit.height, target, tall)
        found = self._cache.get(key)
        if found is None:
            found = line_of_sight(area, start, target, unit.height, tall)
            self.computations += 1
            if len(self._cache) > 512:
                self._cache.clear()
            self._cache[key] = found
        return found

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        ui.track_hover(ctx, event)
        if event.type != pygame.KEYDOWN:
            return False
        if ui.plain_key(event, pygame.K_l):
            if ctx.mode == LOS:
                ctx.mode = SELECT
            elif ctx.own_unit(ctx.selected) is None:
                ctx.notify("Select one of your units first, then press L for its line of sight")
            else:
                ctx.mode = LOS
            return True
        if event.key == pygame.K_ESCAPE and ctx.mode == LOS:
            ctx.mode = SELECT
            return True
        return False

    def update(self, dt: float, ctx: UiContext) -> None:
        if ctx.mode == LOS and ctx.own_unit(ctx.selected) is None:
            ctx.mode = SELECT

    def reset(self, ctx: UiContext) -> None:
        self._cache.clear()

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        if ctx.mode != LOS:
            return
        sight = self.sight(ctx)
        if sight is None:
            return
        cam = ctx.camera
        size = cam.size
        a = cam.hex_to_screen(sight.viewer)
        b = cam.hex_to_screen(sight.target)
        for h in sight.path[1:-1]:
            pygame.draw.polygon(surface, (250, 250, 250), hex_points(ctx, h, 0.92), 1)
        for n, h in enumerate(sight.woods_hexes, start=1):
            x, y = cam.hex_to_screen(h)
            pygame.draw.circle(surface, (30, 80, 30), (round(x), round(y)), max(5, size // 5))
            pygame.draw.circle(surface, (200, 240, 200), (round(x), round(y)), max(5, size // 5), 1)
            if size >= 26:
                spots = labels.around(size * 0.4, "below")
                text = f"woods {n}"
                labels.post_badge(ctx, surface, text, (x, y), (40, 90, 40), 10, labels.HINT, spots)
        if sight.visible:
            pygame.draw.line(surface, (0, 0, 0), a, b, 7)
            pygame.draw.line(surface, CLEAR, a, b, 4)
            pygame.draw.polygon(surface, CLEAR, hex_points(ctx, sight.target), 3)
        else:
            assert sight.blocking_hex is not None
            stop = _on_segment(a, b, cam.hex_to_screen(sight.blocking_hex))
            pygame.draw.line(surface, (0, 0, 0), a, b, 7)
            pygame.draw.line(surface, CLEAR, a, stop, 4)
            pygame.draw.line(surface, BLOCKED, stop, b, 4)
            pygame.draw.polygon(surface, BLOCKED, hex_points(ctx, sight.blocking_hex), 4)
            r = size * 0.4
            x, y = cam.hex_to_screen(sight.blocking_hex)
            pygame.draw.line(surface, BLOCKED, (x - r, y - r), (x + r, y + r), 4)
            pygame.draw.line(surface, BLOCKED, (x - r, y + r), (x + r, y - r), 4)
            pygame.draw.polygon(surface, BLOCKED, hex_points(ctx, sight.target), 3)
        pygame.draw.circle(surface, (255, 255, 255), (round(a[0]), round(a[1])), 5)

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        if ctx.mode != LOS:
            ctx.cards.pop("los", None)
            return
        unit = ctx.own_unit(ctx.selected)
        sight = self.sight(ctx)
        if unit is None:
            return
        area = ctx.view.area
        if sight is None:
            lines = [(f"Line of sight from {unit.name}: hover a hex", theme.TEXT)]
        else:
            where = area.label(sight.target)
            if sight.visible:
                head = (f"{unit.name} sees {where}", CLEAR)
            else:
                assert sight.blocking_hex is not None
                head = (f"{unit.name} cannot see {where}", BLOCKED)
            lines = [
                head,
                (sight.reason[0].upper() + sight.reason[1:], theme.TEXT),
                (
                    f"Eye levels: {sight.viewer_eye} (viewer) and {sight.target_eye} (target);"
                    f" woods count {sight.woods_count} (3 blocks)",
                    theme.MUTED,
                ),
            ]
        # Two fifths of a small window: at 1024x700 a wider card finds no room clear
        # of the line, the log and the tabs.
        width = min(520, max(380, ui.map_rect(ctx).w * 2 // 5))
        wrapped = [(p, c) for t, c in lines for p in ui.wrap(t, width - 24, theme.SMALL)]
        size = (width, 40 + 17 * len(wrapped) + 18)
        if sight is not None:
            # Clear of the line itself; while the mouse is over the card it stays put.
            rect = ui.map_rect(ctx)
            avoid = [ctx.camera.hex_to_screen(h) for h in sight.path]
            avoid = [(x + rect.x, y + rect.y) for x, y in avoid]
            self._box = ui.place_box(ctx, size, "los", avoid=avoid)
        elif self._box is None or self._box.size != size:
            self._box = ui.place_box(ctx, size, "los")
        box = self._box
        inner = ui.draw_panel(surface, box, "Line of sight (L)", CLEAR)
        y = inner.y
        for part, colour in wrapped:
            ui.text(surface, part, (inner.x, y), theme.SMALL, colour, y == inner.y)
            y += 17
        ui.text(
            surface,
            "L or Esc: close",
            (inner.right, box.bottom - 22),
            theme.SMALL,
            theme.MUTED,
            anchor="topright",
        )
        ctx.cards["los"] = box
