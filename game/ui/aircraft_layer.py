"""Aircraft on the map (ART-14, ART-28, ART-36): each one drawn with its altitude
and the path of its last flight, and flown by the player.

An aircraft is drawn as a plane above its hex, raised by its altitude, on a
thin line down to the hex it flies over (while a flight is shown, over its
sliding counter: game/ui/unit_motion.py), with a badge "ALT 3" (or "ROW 2" on
the high-altitude map); its last flight (from the log's ``fly`` events) is a
dashed line with an arrow. With an own aircraft selected in the movement
phase, a click on another hex flies it there (a hex beyond the map's edge takes
it off the map) at the planned altitude, which ``[`` and ``]`` change; the
engine refuses what the rules do not allow, with the reason.
"""

from __future__ import annotations

import math

import pygame

from game.hexmath import Hex
from game.state import Fly, Unit
from game.state.aircraft import altitude_map, is_aircraft
from game.state.model import hex_from
from game.ui import labels
from game.ui import widgets as ui
from game.ui.artillery_plot import dash_line
from game.ui.context import SELECT, UiContext

PLANE = (120, 200, 255)


def aircraft_in_view(ctx: UiContext) -> list[Unit]:
    return [u for u in ctx.view.units.values() if is_aircraft(u) and not u.destroyed]


def last_flight(ctx: UiContext, unit_id: str) -> tuple[Hex | None, Hex] | None:
    """The last flight of the aircraft the side has read of in its log."""
    for event in reversed(ctx.view.log):
        if event.kind == "fly" and event.data.get("unit") == unit_id:
            to = hex_from(event.data["to"])
            assert to is not None
            return hex_from(event.data.get("from")), to
    return None


class AircraftLayer:
    """Aircraft, their altitude and flight path; flying the own aircraft (ART-36)."""

    def __init__(self) -> None:
        self.planned: dict[str, int] = {}  # unit id -> altitude for the next flight

    def keys(self) -> list[tuple[str, str]]:
        return [
            ("Click (aircraft selected)", "fly there at the planned altitude (ART-36)"),
            ("[ / ]", "aircraft: plan a lower / higher altitude"),
        ]

    def _flying(self, ctx: UiContext) -> Unit | None:
        unit = ctx.own_unit(ctx.selected)
        if unit is None or not is_aircraft(unit) or ctx.mode != SELECT:
            return None
        if ctx.view.phase != "movement" or ctx.view.acting != ctx.view.side or unit.moved:
            return None
        return unit

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        unit = self._flying(ctx)
        if unit is None:
            return False
        uid = unit.id
        altitude = self.planned.get(uid, int(unit.altitude or 0))
        for key, step in ((pygame.K_LEFTBRACKET, -1), (pygame.K_RIGHTBRACKET, 1)):
            if ui.plain_key(event, key):
                self.planned[uid] = max(0, altitude + step)
                ctx.notify(f"{unit.name}: next flight at altitude {self.planned[uid]}")
                return True
        if ui.clicked(event):
            h = ui.hex_under(ctx, event.pos)
            if h is None or h == unit.hex:
                return False
            if ctx.submit(Fly(ctx.view.side, uid, h, altitude)):
                self.planned.pop(uid, None)
            return True
        return False

    def update(self, dt: float, ctx: UiContext) -> None:
        return None

    def reset(self, ctx: UiContext) -> None:
        self.planned.clear()

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        size = ctx.camera.size
        for unit in aircraft_in_view(ctx):
            flight = last_flight(ctx, unit.id)
            if flight is not None and flight[0] is not None:
                a = ctx.camera.hex_to_screen(flight[0])
                b = ctx.camera.hex_to_screen(flight[1])
                dash_line(surface, (0, 0, 0), a, b, 5, 10)
                dash_line(surface, PLANE, a, b, 3, 10)
                angle = math.atan2(b[1] - a[1], b[0] - a[0])
                tip = (b[0] - math.cos(angle) * size * 0.5, b[1] - math.sin(angle) * size * 0.5)
                wing = size * 0.35
                left = (
                    tip[0] - wing * math.cos(angle - 0.5),
                    tip[1] - wing * math.sin(angle - 0.5),
                )
                right = (
                    tip[0] - wing * math.cos(angle + 0.5),
                    tip[1] - wing * math.sin(angle + 0.5),
                )
                pygame.draw.polygon(surface, PLANE, [tip, left, right])
            # While its flight is shown the plane rides over its sliding counter.
            units = ctx.units_layer
            sliding = units.drawn_at.get(unit.id) if units is not None else None
            if sliding is not None and units is not None and units.motion.showing(unit.id):
                x, y = sliding
            elif unit.hex is not None:
                x, y = ctx.camera.hex_to_screen(unit.hex)
            else:
                continue
            altitude = int(unit.altitude or 0)
            lift = max(size * 0.6, 10) + altitude * max(3.0, size * 0.12)
            pygame.draw.line(surface, (20, 30, 40), (x, y), (x, y - lift), 3)
            pygame.draw.circle(surface, (20, 30, 40), (round(x), round(y)), 4)
            s = max(size * 0.45, 9)
            body = [
                (x, y - lift - s),
                (x + s * 0.9, y - lift + s * 0.5),
                (x, y - lift + s * 0.15),
                (x - s * 0.9, y - lift + s * 0.5),
            ]
            pygame.draw.polygon(surface, (0, 0, 0), body, 0)
            pygame.draw.polygon(surface, PLANE, [(px, py - 2) for px, py in body], 0)
            word = "ROW" if altitude_map(unit) == "high" else "ALT"
            planned = self.planned.get(unit.id)
            label = f"{word} {altitude}" + (f" -> {planned}" if planned is not None else "")
            spots = labels.around(4, "above")
            px = max(11, size // 3)
            labels.post_badge(
                ctx, surface, label, (x, y - lift - s), (30, 80, 140), px, labels.HINT, spots
            )

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        return None
