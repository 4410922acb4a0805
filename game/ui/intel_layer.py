"""Counter-battery intelligence and mobile maps on the screen (ART-23, ART-24, MAP-6 .. MAP-10).

``IntelLayer``: every direction the enemy had to announce (ART-24) is drawn on
the aimed hex: an arrow through the announced hex side, labelled with the
turn, and the 60-degree sector that side stands for, reaching across the map
(the guns lie somewhere in it; two sectors from different hexes narrow the
search). The intel panel (I) lists what this side has learned and what the
enemy has learned of this side's guns. The minimap (M) shows the sheet grid:
the sheets in play, the new sheet being laid, the side's own off-board
batteries at their direction and distance, the announced sectors and the
camera's view; a click on it moves the camera there.

``MobileMapLayer``: with a unit selected in the movement phase, the exits
across the area's edge that its move can take are drawn beyond the edge
hexes, with the new sheet position and who picks its sheet (MAP-7); a click
on an exit moves the unit out. When the side on screen must pick the new
sheet the sheet picker opens (thumbnails of the sheets the table allows,
MAP-9, MAP-10); the new sheet flashes on the map and the minimap.

Everything comes from the view: announcements are the side's own
intelligence log, batteries its own units, exits a movement search over the
view's units (hidden enemies are not in it and do not block, as in the engine).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import pygame

from game.board.area import SheetPosition
from game.board.movement import MovementError, Reach, Route
from game.hexmath import DIRECTION_NAMES, Hex, hex_to_pixel, pixel_to_hex
from game.state import Move, PlaceSheet, PlayerView
from game.state.model import hex_from
from game.state.queries import movement_reach
from game.state.view import SeenPendingSheet
from game.ui import dialogs, fonts, labels, theme
from game.ui import widgets as ui
from game.ui.artillery_plot import draw_badge, on_map, own_batteries, pulse
from game.ui.context import SELECT, UiContext
from game.ui.map_layer import edge_corners, sheet_geometry, world_bounds

# The screen angle (radians, y down) of the outward normal of hex side 1..6.
SIDE_ANGLES = {d: math.radians(-90 + 60 * (d - 1)) for d in range(1, 7)}
SECTOR_HALF = math.radians(30)
CATEGORY_COLOURS: dict[str, tuple[int, int, int]] = {
    "flat": (176, 190, 128),
    "hills": (196, 168, 116),
    "woods": (96, 136, 80),
    "urban": (168, 128, 116),
    "water": (104, 150, 196),
    "mixed": (160, 168, 124),
}
FLASH_SECONDS = 6.0


@dataclass(frozen=True)
class Bearing:
    """One announced direction (ART-24) as the detecting side knows it."""

    turn: int
    aimed: Hex
    side: int

    @property
    def angle(self) -> float:
        return SIDE_ANGLES[self.side]

    def describe(self, view: PlayerView) -> str:
        return (
            f"Turn {self.turn}: a shell aimed at {view.area.label(self.aimed)}; "
            f"the guns lie to the {DIRECTION_NAMES[self.side]}"
        )


def bearings(view: PlayerView) -> list[Bearing]:
    """The side's announced directions, oldest first (ART-24)."""
    return [Bearing(a.turn, a.aimed, a.side) for a in view.announcements]


def their_knowledge(view: PlayerView) -> list[str]:
    """ART-24 from the other end: the directions this side had to announce."""
    ours = {(a.turn, a.target) for a in view.arrivals if a.side == view.side}
    out = []
    for e in view.log:
        if e.kind != "detection" or "side" not in e.data:
            continue
        aimed = hex_from(e.data.get("aimed"))
        if aimed is not None and (e.turn, aimed) in ours:
            out.append(
                f"Turn {e.turn}: they saw our shell at {view.area.label(aimed)}; they know our "
                f"guns lie to the {DIRECTION_NAMES[int(e.data['side'])]}"
            )
    return out


def sector_points(
    origin: tuple[float, float], angle: float, reach: float, half: float = SECTOR_HALF
) -> list[tuple[float, float]]:
    """A wedge from ``origin`` around ``angle``, ``reach`` long."""
    pts = [origin]
    for k in range(9):
        a = angle - half + 2 * half * k / 8
        pts.append((origin[0] + reach * math.cos(a), origin[1] + reach * math.sin(a)))
    return pts


class Minimap:
    """The sheet grid in a small box: a linear map of world space."""

    def __init__(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.bounds = (0.0, 0.0, 1.0, 1.0)
        self.scale = 1.0
        self.origin = (0.0, 0.0)

    def fit(self, rect: pygame.Rect, bounds: tuple[float, float, float, float]) -> None:
        x0, y0, x1, y1 = bounds
        pad = 8
        w, h = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
        self.scale = min((rect.w - 2 * pad) / w, (rect.h - 2 * pad) / h)
        self.rect = rect
        self.bounds = bounds
        self.origin = (
            rect.centerx - (x0 + x1) / 2 * self.scale,
            rect.centery - (y0 + y1) / 2 * self.scale,
        )

    def point(self, wx: float, wy: float) -> tuple[float, float]:
        return self.origin[0] + wx * self.scale, self.origin[1] + wy * self.scale

    def world(self, sx: float, sy: float) -> tuple[float, float]:
        return (sx - self.origin[0]) / self.scale, (sy - self.origin[1]) / self.scale

    def box(self, world_rect: tuple[float, float, float, float]) -> pygame.Rect:
        a = self.point(world_rect[0], world_rect[1])
        b = self.point(world_rect[2], world_rect[3])
        return pygame.Rect(round(a[0]), round(a[1]), round(b[0] - a[0]), round(b[1] - a[1]))


class IntelLayer:
    """Announced directions on the map, the intel panel and the minimap."""

    # The titles of the two panels, which are also their tabs when folded.
    MINIMAP_TITLE = "Sheet grid (M)"
    INTEL_TITLE = "Intelligence (I)"

    def __init__(self) -> None:
        # Where each panel or its tab was drawn (a click on a tab or a title toggles it).
        self.tabs: dict[str, pygame.Rect] = {}
        self.minimap = Minimap()
        self._sectors: tuple[object, pygame.Surface] | None = None
        self.flash: dict[SheetPosition, float] = {}
        self._positions: set[SheetPosition] | None = None
        self._view: PlayerView | None = None
        self._serial = 0  # counts views: the minimap is painted again for a new one
        self._mini: tuple[Any, pygame.Surface] | None = None
        self.minimap_paints = 0

    def keys(self) -> list[tuple[str, str]]:
        return [
            ("I, click its tab", "intel panel: detected directions (open / fold to a tab)"),
            ("M, click its tab", "minimap of the sheet grid (open / fold to a tab)"),
            ("Click the minimap", "centre the map there"),
        ]

    # --- events -------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        if ui.plain_key(event, pygame.K_i):
            return ui.toggle_panel(ctx, "intel")
        if ui.plain_key(event, pygame.K_m):
            return ui.toggle_panel(ctx, "minimap")
        if event.type not in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            return False
        for name, rect in self.tabs.items():
            if not rect.collidepoint(event.pos):
                continue
            title = pygame.Rect(rect.x, rect.y, rect.w, ui.STRIP_HEIGHT + 4)
            if ui.clicked(event) and (
                title.collidepoint(event.pos) or not ui.panel_open(ctx, name)
            ):
                ui.toggle_panel(ctx, name)
            elif ui.clicked(event) and name == "minimap":
                ctx.camera.centre_on_world(*self.minimap.world(*event.pos))
            return True
        return False

    def tooltip_lines(self, h: Hex, ctx: UiContext) -> list[str]:
        """Announced directions from a hex, for the hover tooltip."""
        return [
            f"Turn {b.turn}: their guns lie to the {DIRECTION_NAMES[b.side]} (ART-24)"
            for b in bearings(ctx.view)
            if b.aimed == h
        ]

    def reset(self, ctx: UiContext) -> None:
        self._sectors = None
        self._mini = None
        self._view = None
        self.flash.clear()
        self._positions = None

    def update(self, dt: float, ctx: UiContext) -> None:
        if ctx.view is not self._view:
            self._view = ctx.view
            self._serial += 1
        positions = set(ctx.view.area.positions)
        if self._positions is not None:
            for pos in positions - self._positions:
                self.flash[pos] = time.monotonic()
        self._positions = positions
        now = time.monotonic()
        self.flash = {p: t for p, t in self.flash.items() if now - t < FLASH_SECONDS}

    # --- the map ------------------------------------------------------------------------

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        found = bearings(ctx.view)
        if not found:
            return
        surface.blit(self._sector_surface(ctx, found), (0, 0))
        cam = ctx.camera
        size = max(cam.size, 12)
        for b in found:
            x, y = cam.hex_to_screen(b.aimed)
            c, s = math.cos(b.angle), math.sin(b.angle)
            edge = size * math.sqrt(3) / 2
            start = (x + c * edge * 0.2, y + s * edge * 0.2)
            tip = (x + c * (edge + size * 2.6), y + s * (edge + size * 2.6))
            # The announced side itself, thick.
            corners = [
                (
                    x + cam.size * math.cos(math.radians(60 * k)),
                    y + cam.size * math.sin(math.radians(60 * k)),
                )
                for k in range(6)
            ]
            a, bk = edge_corners(b.side)
            pygame.draw.line(surface, theme.INTEL, corners[a], corners[bk], 6)
            pygame.draw.line(surface, (0, 30, 60), start, tip, 7)
            pygame.draw.line(surface, theme.INTEL, start, tip, 4)
            head = [
                (tip[0] + 14 * c, tip[1] + 14 * s),
                (tip[0] + 12 * math.cos(b.angle + 2.4), tip[1] + 12 * math.sin(b.angle + 2.4)),
                (tip[0] + 12 * math.cos(b.angle - 2.4), tip[1] + 12 * math.sin(b.angle - 2.4)),
            ]
            pygame.draw.polygon(surface, theme.INTEL, head)
            pygame.draw.polygon(surface, (0, 30, 60), head, 2)
            # Beyond the arrow's tip, then farther out along it, then beside it.
            first = (34 * c, 22 * s + 4)
            line = [(first[0] + k * 24 * c, first[1] + k * 24 * s) for k in range(5)]
            side = [(dx - 18 * s * sign, dy + 18 * c * sign) for dx, dy in line for sign in (1, -1)]
            spots = labels.along(line[:1]) + labels.along([*line[1:], *side], leader=True)
            labels.post_badge(
                ctx,
                surface,
                f"T{b.turn}: guns {DIRECTION_NAMES[b.side]}",
                tip,
                (0, 80, 130),
                12,
                labels.INTEL,
                spots,
            )

    def _sector_surface(self, ctx: UiContext, found: list[Bearing]) -> pygame.Surface:
        """The translucent sectors, drawn once per camera position and announcement list."""
        cam = ctx.camera
        key = (cam.offset, cam.size, cam.viewport, tuple(found))
        if self._sectors is not None and self._sectors[0] == key:
            return self._sectors[1]
        layer = pygame.Surface(cam.viewport, pygame.SRCALPHA)
        reach = 2.0 * (cam.viewport[0] + cam.viewport[1])
        for b in found:
            origin = cam.hex_to_screen(b.aimed)
            pygame.draw.polygon(layer, (*theme.INTEL, 52), sector_points(origin, b.angle, reach))
            for edge in (-SECTOR_HALF, SECTOR_HALF):
                end = (
                    origin[0] + reach * math.cos(b.angle + edge),
                    origin[1] + reach * math.sin(b.angle + edge),
                )
                pygame.draw.line(layer, (*theme.INTEL, 170), origin, end, 2)
        self._sectors = (key, layer)
        return layer

    # --- panels ---------------------------------------------------------------------------

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """The minimap and the intel panel, docked at the bottom right, the intel panel
        over the minimap; each folded to a tab unless the player opened it."""
        registry = ctx.panels
        if ui.panel_open(ctx, "minimap"):
            registry["minimap"] = self._draw_minimap(surface, ctx)
        else:
            registry["minimap"] = self._draw_tab(surface, ctx, "minimap", self.MINIMAP_TITLE)
            self.minimap.rect = pygame.Rect(0, 0, 0, 0)
        if ui.panel_open(ctx, "intel"):
            registry["intel"] = self._draw_panel(surface, ctx)
        else:
            registry["intel"] = self._draw_tab(surface, ctx, "intel", self.INTEL_TITLE)
        self.tabs = {name: registry[name] for name in ("minimap", "intel")}

    def _draw_tab(
        self, surface: pygame.Surface, ctx: UiContext, name: str, title: str
    ) -> pygame.Rect:
        """A folded panel: a tab with its title; a click (or its key) opens it."""
        size = (ui.text_width(title, theme.BODY, bold=True) + 44, ui.STRIP_HEIGHT)
        tab = ui.dock(ctx, name, size, "bottom-right")
        ui.draw_strip(surface, tab, title, accent=theme.INTEL if name == "intel" else None)
        return tab

    def _draw_panel(self, surface: pygame.Surface, ctx: UiContext) -> pygame.Rect:
        view = ctx.view
        width = 420
        ours = [b.describe(view) for b in bearings(view)]
        found = [
            view.units[u].name + (" (destroyed)" if view.units[u].destroyed else "")
            for u in view.revealed
            if u in view.units
        ]
        theirs = their_knowledge(view)
        blocks: list[tuple[str, list[str], tuple[int, int, int]]] = [
            ("What we know of their guns", ours or ["No direction announced yet."], theme.INTEL),
            ("Enemy units found", found or ["None yet."], theme.TEXT),
            (
                "What they know of ours",
                theirs or ["Nothing: no detection yet."],
                theme.INTEL_THEIRS,
            ),
        ]
        lines: list[tuple[str, tuple[int, int, int], bool]] = []
        for head, items, colour in blocks:
            lines.append((head, colour, True))
            for item in items:
                lines += [
                    (part, theme.MUTED, False) for part in ui.wrap(item, width - 36, theme.SMALL)
                ]
        box = ui.dock(ctx, "intel", (width, 42 + 17 * len(lines)), "bottom-right")
        inner = ui.draw_panel(surface, box, self.INTEL_TITLE, theme.INTEL)
        y = inner.y
        clip = surface.get_clip()
        surface.set_clip(box)  # cut to the room its column leaves
        for part, colour, bold in lines:
            ui.text(surface, part, (inner.x + (0 if bold else 10), y), theme.SMALL, colour, bold)
            y += 17
        surface.set_clip(clip)
        return box

    def minimap_bounds(self, view: PlayerView) -> tuple[float, float, float, float]:
        """World bounds of the area, the pending sheet and the side's off-board batteries."""
        x0, y0, x1, y1 = world_bounds(view.area)
        extra: list[SheetPosition] = []
        for unit in own_batteries(view):
            off = unit.battery.offboard
            if off is not None:
                extra.append(off.position)
        if view.pending_sheet is not None:
            extra.append(view.pending_sheet.position)
        for pos in extra:
            bx0, by0, bx1, by1 = sheet_geometry(pos).bounds
            x0, y0, x1, y1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
        return x0, y0, x1, y1

    def _draw_minimap(self, surface: pygame.Surface, ctx: UiContext) -> pygame.Rect:
        """The minimap, painted once per view (and while a new sheet flashes); only the
        camera's rectangle is drawn every frame."""
        view = ctx.view
        bounds = self.minimap_bounds(view)
        bw, bh = bounds[2] - bounds[0], bounds[3] - bounds[1]
        inner_w = 220
        inner_h = max(120, min(250, round(inner_w * bh / max(bw, 1e-6))))
        box = ui.dock(ctx, "minimap", (inner_w + 20, inner_h + 44), "bottom-right")
        flashing = (frozenset(self.flash), round(pulse() * 4)) if self.flash else None
        key = (self._serial, box.size, bounds, flashing)
        if self._mini is None or self._mini[0] != key:
            image = pygame.Surface(box.size, pygame.SRCALPHA)
            self._paint_minimap(image, ctx, image.get_rect(), bounds)
            self._mini = (key, image)
            self.minimap_paints += 1
        fonts.place(surface, self._mini[1], box, "minimap")
        inner = pygame.Rect(box.x + 10, box.y + 34, box.w - 20, box.h - 42)
        self.minimap.fit(inner, bounds)
        clip = surface.get_clip()
        surface.set_clip(inner)
        view_rect = self.minimap.box(ctx.camera.visible_world_rect())
        pygame.draw.rect(surface, (255, 255, 255), view_rect, 1)
        surface.set_clip(clip)
        return box

    def _paint_minimap(
        self,
        surface: pygame.Surface,
        ctx: UiContext,
        box: pygame.Rect,
        bounds: tuple[float, float, float, float],
    ) -> None:
        view = ctx.view
        inner = ui.draw_panel(surface, box, self.MINIMAP_TITLE, theme.PANEL_EDGE)
        mm = Minimap()
        mm.fit(inner, bounds)
        clip = surface.get_clip()
        surface.set_clip(inner)
        # The sheet grid itself, so distances read in sheets (ART-5).
        i0, j0 = view.area.position_of(pixel_to_hex(bounds[0], bounds[1], 1.0))
        i1, j1 = view.area.position_of(pixel_to_hex(bounds[2], bounds[3], 1.0))
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                pygame.draw.rect(surface, (52, 58, 66), mm.box(sheet_geometry((i, j)).bounds), 1)
        for pos in view.area.positions:
            sheet = view.area.sheet_at(pos)
            r = mm.box(sheet_geometry(pos).bounds)
            pygame.draw.rect(surface, CATEGORY_COLOURS.get(sheet.category, (150, 150, 150)), r)
            pygame.draw.rect(surface, (40, 44, 50), r, 1)
            if pos in self.flash:
                pygame.draw.rect(surface, theme.ACCENT, r.inflate(4, 4), 2 + round(2 * pulse()))
        if view.pending_sheet is not None:
            r = mm.box(sheet_geometry(view.pending_sheet.position).bounds)
            pygame.draw.rect(surface, theme.ACCENT, r, 2)
            ui.text(surface, "?", r.center, theme.HEAD, theme.ACCENT, True, "center")
        # Announced sectors (ART-24).
        layer = pygame.Surface(inner.size, pygame.SRCALPHA)
        for b in bearings(view):
            ox, oy = mm.point(*hex_to_pixel(b.aimed, 1.0))
            origin = (ox - inner.x, oy - inner.y)
            pygame.draw.polygon(
                layer, (*theme.INTEL, 80), sector_points(origin, b.angle, inner.w * 3)
            )
            pygame.draw.circle(layer, (*theme.INTEL, 255), (round(origin[0]), round(origin[1])), 3)
        surface.blit(layer, inner.topleft)
        # Units on the board.
        for u in view.units.values():
            if u.hex is None or u.destroyed:
                continue
            px, py = mm.point(*hex_to_pixel(u.hex, 1.0))
            centre = (round(px), round(py))
            pygame.draw.circle(surface, theme.side_colour(u.side), centre, 3)
            if u.side == view.side:
                pygame.draw.circle(surface, theme.OWN_FRAME, centre, 5, 1)
        # Own off-board batteries at their direction and distance (ART-1, ART-2).
        for unit in own_batteries(view):
            off = unit.battery.offboard
            if off is None:
                continue
            px, py = mm.point(*hex_to_pixel(off.hex, 1.0))
            tri = [(px, py - 7), (px - 6, py + 5), (px + 6, py + 5)]
            pygame.draw.polygon(surface, theme.side_colour(view.side), tri)
            pygame.draw.polygon(surface, (255, 255, 255), tri, 1)
            label = f"{unit.name.split()[-1]} {off.distance} {off.direction[0].upper()}"
            ui.text(
                surface,
                label,
                (px + 8, py),
                theme.SMALL,
                theme.TEXT,
                True,
                "midleft",
                halo=(0, 0, 0),
            )
        surface.set_clip(clip)
        legend = ", ".join(sorted({view.area.sheet_at(p).category for p in view.area.positions}))
        ui.text(
            surface,
            legend,
            (box.right - 10, box.y + 14),
            theme.SMALL,
            theme.MUTED,
            False,
            "midright",
        )


# --- mobile maps -----------------------------------------------------------------------------


def picker_of(view: PlayerView, position: SheetPosition) -> str:
    """Who lays the sheet at a new position (MAP-7), in words."""
    side = view.area.side_of_position(position)
    if side is None:
        return "drawn from the sheet table"
    return "you pick it" if side == view.side else f"{side} picks it"


class MobileMapLayer:
    """Exits at the area's edge, the sheet picker and the new sheet's flash (MAP-6 .. MAP-10)."""

    def __init__(self, dialogs: ui.DialogLayer) -> None:
        self.dialogs = dialogs
        self._reach: tuple[object, str, Reach | None] | None = None
        self._positions: set[SheetPosition] | None = None
        self._revision: int | None = None
        self.flash: dict[SheetPosition, float] = {}
        self.picked: list[str] = []

    def keys(self) -> list[tuple[str, str]]:
        return [("Click an exit arrow", "move the selected unit off the map: a sheet is laid")]

    def exits(self, ctx: UiContext) -> dict[Hex, Route]:
        """The selected unit's exits this movement phase (none when it cannot move now)."""
        view = ctx.view
        unit = ctx.own_unit(ctx.selected)
        if (
            unit is None
            or ctx.mode != SELECT
            or view.phase != "movement"
            or not view.options.get("mobile_maps")
            or not ctx.may_act()
        ):
            return {}
        units_layer = ctx.units_layer
        shared = getattr(units_layer, "reach", None)
        if callable(shared):
            # The game screen's units layer already keeps this search.
            reach = shared(ctx)
        else:
            key = (view, unit.id)
            if self._reach is None or (self._reach[0], self._reach[1]) != key:
                try:
                    found = movement_reach(view, unit)
                except MovementError:
                    found = None
                self._reach = (view, unit.id, found)
            reach = self._reach[2]
        return {} if reach is None else reach.exits()

    # --- events ----------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        """Exits are taken like any move (the units layer plans it; ``take_exit``
        sends one directly); this layer only shows them."""
        return False

    def take_exit(self, ctx: UiContext, h: Hex) -> bool:
        """Move the selected unit out through exit hex ``h`` (MAP-6)."""
        route = self.exits(ctx).get(h)
        if route is None or ctx.selected is None:
            ctx.notify("that is not an exit the selected unit can take now", error=True)
            return False
        return ctx.submit(Move(ctx.view.side, ctx.selected, h, route.facing))

    def reset(self, ctx: UiContext) -> None:
        self._reach = None
        self.flash.clear()

    def update(self, dt: float, ctx: UiContext) -> None:
        view = ctx.view
        area = view.area
        if self._revision != area.revision:
            positions = set(area.positions)
            if self._positions is not None:
                for pos in positions - self._positions:
                    self.flash[pos] = time.monotonic()
                ctx.camera.set_bounds(ctx.map_layer.world_bounds())
            self._positions = positions
            self._revision = area.revision
        now = time.monotonic()
        self.flash = {p: t for p, t in self.flash.items() if now - t < FLASH_SECONDS}
        pending = view.pending_sheet
        if (
            pending is not None
            and pending.picker == view.side
            and pending.allowed
            and ctx.may_act()
            and self.dialogs.showing(dialogs.SheetPicker) is None
        ):
            self._open_picker(ctx, pending)

    def _open_picker(self, ctx: UiContext, pending: SeenPendingSheet) -> None:
        view = ctx.view
        unit = view.units.get(pending.unit) if pending.unit is not None else None
        catalogue = view.area.catalogue  # the game's own sheets, kept in its saves

        def place(sheet_id: str) -> None:
            if ctx.submit(PlaceSheet(view.side, sheet_id)):
                self.picked.append(sheet_id)
                ctx.notify(f"Sheet {catalogue[sheet_id].name} laid")

        self.dialogs.open(
            dialogs.SheetPicker(
                pending.position,
                list(pending.allowed or ()),
                dialogs.picker_rule_text(view),
                place,
                catalogue,
                "" if unit is None else unit.name,
            )
        )

    # --- drawing ---------------------------------------------------------------------------

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        cam = ctx.camera
        size = cam.size
        now = time.monotonic()
        for pos, since in self.flash.items():
            if not ctx.view.area.has_sheet(pos):
                continue
            x0, y0, x1, y1 = sheet_geometry(pos).bounds
            a = cam.world_to_screen(x0, y0)
            b = cam.world_to_screen(x1, y1)
            r = pygame.Rect(round(a[0]), round(a[1]), round(b[0] - a[0]), round(b[1] - a[1]))
            fade = 1.0 - (now - since) / FLASH_SECONDS
            pygame.draw.rect(surface, theme.ACCENT, r, max(2, round(6 * fade * (0.5 + pulse()))))
            name = ctx.view.area.sheet_at(pos).name
            spots = labels.along((0, dy) for dy in (0, r.h / 4, r.h / 2, 3 * r.h / 4))
            labels.post_badge(
                ctx,
                surface,
                f"New sheet: {name}",
                (r.centerx, r.y + 24),
                (150, 100, 0),
                15,
                labels.INTEL,
                spots,
            )
        exits = self.exits(ctx)
        if not exits:
            return
        by_position: dict[SheetPosition, list[Hex]] = {}
        for h, route in exits.items():
            assert route.exit_to is not None
            by_position.setdefault(route.exit_to, []).append(h)
            x, y = cam.hex_to_screen(h)
            if not on_map(ctx, h, size):
                continue
            inside = route.path[-2] if len(route.path) > 1 else route.start
            ix, iy = cam.hex_to_screen(inside)
            angle = math.atan2(y - iy, x - ix)
            tip = (x + math.cos(angle) * size * 0.3, y + math.sin(angle) * size * 0.3)
            tail = (ix + math.cos(angle) * size * 0.5, iy + math.sin(angle) * size * 0.5)
            pygame.draw.line(surface, (0, 0, 0), tail, tip, 6)
            pygame.draw.line(surface, theme.ACCENT, tail, tip, 3)
            head = [
                (tip[0] + 8 * math.cos(angle), tip[1] + 8 * math.sin(angle)),
                (tip[0] + 8 * math.cos(angle + 2.4), tip[1] + 8 * math.sin(angle + 2.4)),
                (tip[0] + 8 * math.cos(angle - 2.4), tip[1] + 8 * math.sin(angle - 2.4)),
            ]
            pygame.draw.polygon(surface, theme.ACCENT, head)
        for pos, hexes in by_position.items():
            xs = [cam.hex_to_screen(h) for h in hexes]
            cx = sum(p[0] for p in xs) / len(xs)
            cy = sum(p[1] for p in xs) / len(xs)
            w, hgt = cam.viewport
            if not (0 <= cx <= w and 0 <= cy <= hgt):
                continue
            labels.post_badge(
                ctx,
                surface,
                f"Exit: new sheet ({pos[0]},{pos[1]}), {picker_of(ctx.view, pos)}",
                (cx, cy),
                (120, 84, 0),
                12,
                labels.INTEL,
                labels.around(size * 0.9, "below"),
            )

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        pending = ctx.view.pending_sheet
        if pending is None or pending.picker == ctx.view.side:
            return
        rect = ui.map_rect(ctx)
        who = pending.picker or "the sheet table"
        draw_badge(
            surface,
            f"A new sheet is being laid at ({pending.position[0]},{pending.position[1]}) by {who}",
            (rect.centerx, rect.y + 58),
            (120, 84, 0),
            14,
        )
