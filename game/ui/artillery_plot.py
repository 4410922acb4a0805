"""Plot mode: aim a battery at a hex and see everything before firing (ART-3 .. ART-21).

Hovering a hex in plot mode shows, before anything is fired: the range in
sheets, the flight time and the arrival turn (ART-5 .. ART-7), the to-hit
number with its breakdown and the spotters who see the hex (ART-11, ART-13,
ART-16 .. ART-18), "automatic hit" on an auto-hit or pre-designated hex
(ART-19, ART-21), the scatter diagram 1-6 around the hex (ART-12) and the
exact forecast: the probability of every landing hex and the expected damage
in the rings around it (ART-25). A click confirms with the ammunition choice
(ART-10) and sends ``PlotFire``. A hex beyond the map is counter-battery fire
(ART-37): the card gives the plain number and, for every sheet position the
side believes may hold an enemy gun, the belief and the chance of a hit; those
positions are outlined on the sheet grid beyond the map.

The to-hit number of a plotted shot is decided when it arrives (ART-16: the
spotters then). ``plot_preview`` is the engine's own preview
(``game.state.queries.plot_preview``) over the side's view: the engine's rules
of plotting, launching and arrival, with the spotters of now. It is a preview,
and the card says so.

Beside plot mode: the battery panel (on/off board, weapon, ammunition,
auto-hit and pre-designated hexes), the fire-queue panel (the side's shells
by arrival turn) and the incoming markers on every own target hex, drawn so
they cannot be missed: a pulsing red target with the damage footprint, a
badge with the arrival turn, and arrows at the edge of the map for targets
out of view. Only the side's own plots are drawn (``view.plots``); the
enemy's are never in the view (principle 6).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

import pygame

import game.state.queries as queries
from game.ai.counter_battery import believed_gun_positions
from game.ai.memory import Memory
from game.artillery.counter_battery import CandidateOdds, ring_chance
from game.artillery.plots import Plot
from game.artillery.weapons import AMMUNITION
from game.artillery.weapons import weapon as weapon_spec
from game.board.area import locate, sheet_hex
from game.hexmath import DIRECTIONS, Hex, distance, hex_to_pixel, neighbor
from game.state import PlayerView, PlotFire, Unit
from game.state.view import SeenUnit
from game.ui import dialogs, fonts, labels, theme
from game.ui import widgets as ui
from game.ui.context import PLOT, SELECT, UiContext
from game.ui.map_layer import edge_corners

SheetPosition = tuple[int, int]

# Expected-damage overlay: buckets of the share of the weapon's base damage.
HEAT_BUCKETS = 8
PANEL_WIDTH = 390
HEAT_LOW = (255, 236, 120)
HEAT_HIGH = (214, 24, 16)


# --- from the view ----------------------------------------------------------------------------


def own_batteries(view: PlayerView) -> list[SeenUnit]:
    """The side's artillery units still in the game, in the view's order."""
    return queries.artillery_units(view, view.side)  # type: ignore[return-value]


def where_it_stands(view: PlayerView, unit: Unit) -> str:
    """Off board with direction and distance (the owner knows them), or its hex."""
    assert unit.battery is not None
    off = unit.battery.offboard
    if off is not None:
        pos = off.position
        return f"off board, {off.distance} sheets {off.direction} (sheet ({pos[0]},{pos[1]}))"
    return "on the board" if unit.hex is None else f"on the board at {view.area.label(unit.hex)}"


def auto_hit_hexes(unit: Unit, turn: int) -> list[Hex]:
    """ART-19: the battery's auto-hit hexes that cover a shot fired in ``turn``."""
    assert unit.battery is not None
    gun = unit.battery.auto_hit
    return [h for h in sorted(gun.earned) if queries.on_auto_hit_hex(unit, h, turn)]


@dataclass(frozen=True)
class PlotPreview(queries.PlotPreview):
    """The engine's preview of a shot (``queries.plot_preview``) with what the card
    adds: for counter-battery fire (ART-37) the odds of every candidate position."""

    candidates: tuple[CandidateOdds, ...] | None = None

    def lines(self, turn: int) -> list[tuple[str, tuple[int, int, int]]]:
        """The hover card: (text, colour) lines."""
        out: list[tuple[str, tuple[int, int, int]]] = [
            (f"{self.battery_name} -> {self.target_label}", theme.TEXT)
        ]
        if self.refusal is not None:
            return [*out, (f"Cannot fire: {self.refusal}", theme.BAD)]
        assert self.flight is not None and self.arrival_turn is not None
        when = (
            "this turn"
            if self.arrival_turn == turn
            else (
                "next turn"
                if self.arrival_turn == turn + 1
                else f"in {self.arrival_turn - turn} turns"
            )
        )
        out.append(
            (
                f"{self.sheets} sheets: flight {self.flight} turn{'s' if self.flight != 1 else ''},"
                f" lands in turn {self.arrival_turn} ({when})",
                theme.ACCENT,
            )
        )
        if self.candidates is not None:
            return out + self._counter_battery_lines()
        if self.automatic:
            out.append((f"Automatic hit ({self.automatic})", theme.GOOD))
        elif self.to_hit is not None:
            out.append(
                (
                    f"To hit {self.to_hit.total}: {self.to_hit.breakdown()}  ->  "
                    f"{ui.percent(self.hit_probability)}",
                    theme.TEXT,
                )
            )
        if self.spotters:
            names = ", ".join(
                f"{s.name} (gunnery {s.gunnery}, {s.modifier:+d})" for s in self.spotters
            )
            out.append((f"Spotters now: {names}", theme.GOOD))
        else:
            out.append(
                ("No own unit sees this hex: the fire cannot be adjusted (ART-16)", theme.MUTED)
            )
        if self.landing_first:
            out.append(
                (
                    f"{self.landing_first} shell(s) of this battery land here first this turn: "
                    "each one spotted gives -1 more (ART-17)",
                    theme.MUTED,
                )
            )
        fc = self.forecast
        if fc is not None:
            if self.farthest_scatter > 0:
                out.append(
                    (
                        f"Miss {ui.percent(1 - fc.hit_probability)}: scatter "
                        f"1-{self.farthest_scatter} hexes, "
                        "d6 direction on the diagram (ART-12)",
                        theme.TEXT,
                    )
                )
            if fc.lost > 0:
                out.append((f"Lands off the map and is lost: {ui.percent(fc.lost)}", theme.MUTED))
            here = fc.expected_damage.get(self.target, 0.0)
            out.append(
                (
                    f"Expected damage: {here:.1f} in the target hex "
                    f"(rings {'/'.join(map(str, self.weapon.rings()))} on a hit)",
                    theme.TEXT,
                )
            )
        if not self.automatic:
            out.append(("Preview: the to-hit number is fixed when the shell lands.", theme.MUTED))
        if self.piece is None:
            out.append(("Every piece of this battery already has a target this turn", theme.BAD))
        return out

    def _counter_battery_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """ART-37: the number, the chance of coming down on a gun in the aimed hex, and
        the odds of every candidate position (best first)."""
        assert self.candidates is not None and self.to_hit is not None
        rings = self.weapon.ring_radius
        near = float(ring_chance(self.to_hit.total, self.weapon))
        out: list[tuple[str, tuple[int, int, int]]] = [
            (
                f"Counter-battery (ART-37): to hit {self.to_hit.total}: "
                f"{self.to_hit.breakdown()}  ->  {ui.percent(self.hit_probability)}; "
                "no spotter, never adjusted",
                theme.TEXT,
            ),
            (
                f"Comes down within {rings} hexes (its rings "
                f"{'/'.join(map(str, self.weapon.rings()))}) of the aimed hex: "
                f"{ui.percent(near)}",
                theme.TEXT,
            ),
        ]
        if not self.candidates:
            out.append(
                (
                    "No enemy gun detected yet: no announced side points anywhere (ART-24)",
                    theme.MUTED,
                )
            )
        else:
            out.append(
                ("Where the enemy guns may stand (announced sides, shell flights):", theme.ACCENT)
            )
            aimed = self.target_position
            for row in self.candidates[:6]:
                mark = "> " if row.position == aimed else "  "
                reach = "out of range" if row.flight is None else f"flight {row.flight}"
                out.append(
                    (
                        f"{mark}sheet ({row.position[0]},{row.position[1]}), {row.sheets} sheets, "
                        f"{reach}: a gun there {ui.percent(row.belief)} -> "
                        f"chance to hit it {ui.percent(row.chance)}",
                        theme.GOOD if row.position == aimed else theme.TEXT,
                    )
                )
        out.append(("You will learn only whether an enemy battery was hit.", theme.MUTED))
        if self.piece is None:
            out.append(("Every piece of this battery already has a target this turn", theme.BAD))
        return out

    @property
    def target_position(self) -> SheetPosition:
        return locate(self.target)[0]


# The odds of the last view asked about, by battery: asked every frame, they change
# only with a new view.
_odds_of_view: tuple[PlayerView | None, dict[str, tuple[CandidateOdds, ...]]] = (None, {})


def counter_battery_odds(view: PlayerView, unit: Unit) -> tuple[CandidateOdds, ...]:
    """ART-37: the odds of every position the side believes may hold an enemy gun
    (announced sides, flight times of landed enemy shells, the rules of deployment),
    for this battery; empty before any gun is detected. Kept while the view is."""
    global _odds_of_view
    if _odds_of_view[0] is not view:
        _odds_of_view = (view, {})
    cache = _odds_of_view[1]
    found = cache.get(unit.id)
    if found is not None:
        return found
    weights: dict[SheetPosition, float] = {}
    if view.announcements:
        memory = Memory()
        memory.observe(view)
        weights = believed_gun_positions(view, memory, True)
    found = tuple(queries.counter_battery_odds(view, unit, weights))
    cache[unit.id] = found
    return found


def plot_preview(view: PlayerView, battery_id: str, target: Hex) -> PlotPreview:
    """The shot ``battery_id`` would make at ``target`` if plotted now, from the view."""
    shot = queries.plot_preview(view, battery_id, target)
    candidates = None
    if shot.counter_battery and shot.refusal is None:
        candidates = counter_battery_odds(view, view.units[battery_id])
    values = {f.name: getattr(shot, f.name) for f in fields(shot)}
    return PlotPreview(**values, candidates=candidates)


def fire_queue(view: PlayerView) -> list[tuple[int, list[Plot]]]:
    """The side's shells in flight grouped by arrival turn, earliest first (ART-9)."""
    groups: dict[int, list[Plot]] = {}
    for p in view.plots:  # by arrival turn, then firing order
        groups.setdefault(p.arrival_turn, []).append(p)
    return sorted(groups.items())


def fire_queue_at(view: PlayerView, h: Hex) -> list[Plot]:
    """Own shells in flight aimed at ``h``."""
    return [p for p in view.plots if p.target == h]


def plotting_now(ctx: UiContext) -> str | None:
    """Why the side on screen cannot plot now, or None when it can."""
    view = ctx.view
    if view.phase != "targeting":
        return "shells are plotted in the targeting phase"
    if not ctx.may_act():
        if view.acting == view.side:
            return f"{view.side} is played by the AI"
        return f"it is {view.acting}'s turn to plot"
    return None


def _ring_radius(view: PlayerView, plot: Plot) -> int:
    """How far the shell's damage reaches (ART-25); 0 for a battery no longer known."""
    gun = view.units.get(plot.battery)
    return 0 if gun is None or gun.battery is None else weapon_spec(gun.battery.weapon).ring_radius


# --- drawing helpers ----------------------------------------------------------------------------


@cache
def disk_outline(radius: int) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
    """World segments (hex size 1) bounding the disk of ``radius`` around Hex(0, 0).

    Axial to pixel is linear, so the outline of any centre is this one shifted by
    the centre's world position.
    """
    inside = {
        Hex(q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if distance(Hex(0, 0), Hex(q, r)) <= radius
    }
    segs = []
    corners = [(math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))) for k in range(6)]
    for h in inside:
        cx, cy = hex_to_pixel(h, 1.0)
        for d in DIRECTIONS:
            if neighbor(h, d) not in inside:
                a, b = edge_corners(d)
                segs.append(
                    (
                        (cx + corners[a][0], cy + corners[a][1]),
                        (cx + corners[b][0], cy + corners[b][1]),
                    )
                )
    return tuple(segs)


def draw_disk_outline(
    surface: pygame.Surface,
    ctx: UiContext,
    centre: Hex,
    radius: int,
    colour: tuple[int, int, int],
    width: int = 2,
    dashed: bool = False,
) -> None:
    """The outline of all hexes within ``radius`` of ``centre`` (a damage ring)."""
    size = ctx.camera.size
    ox, oy = ctx.camera.world_to_screen(*hex_to_pixel(centre, 1.0))
    for (ax, ay), (bx, by) in disk_outline(radius):
        a = (ox + ax * size, oy + ay * size)
        b = (ox + bx * size, oy + by * size)
        if dashed:
            dash_line(surface, colour, a, b, width, max(4, size // 3))
        else:
            pygame.draw.line(surface, colour, a, b, width)


def dash_line(
    surface: pygame.Surface,
    colour: tuple[int, ...],
    a: tuple[float, float],
    b: tuple[float, float],
    width: int,
    dash: int,
) -> None:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length == 0:
        return
    steps = max(1, int(length // dash))
    for k in range(0, steps, 2):
        t0, t1 = k / steps, min(1.0, (k + 1) / steps)
        p = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
        q = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
        pygame.draw.line(surface, colour, p, q, width)


_CORNERS = tuple((math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))) for k in range(6))


def hex_points(ctx: UiContext, h: Hex, scale: float = 1.0) -> list[tuple[float, float]]:
    """The corners of a hex on the screen (flat-top, corner 0 east)."""
    x, y = ctx.camera.hex_to_screen(h)
    s = ctx.camera.size * scale
    return [(x + s * cx, y + s * cy) for cx, cy in _CORNERS]


def on_map(ctx: UiContext, h: Hex, margin: float = 0.0) -> bool:
    x, y = ctx.camera.hex_to_screen(h)
    w, hgt = ctx.camera.viewport
    return -margin <= x <= w + margin and -margin <= y <= hgt + margin


def heat(share: float) -> tuple[int, int, int]:
    t = max(0.0, min(1.0, share))
    return (
        round(HEAT_LOW[0] + (HEAT_HIGH[0] - HEAT_LOW[0]) * t),
        round(HEAT_LOW[1] + (HEAT_HIGH[1] - HEAT_LOW[1]) * t),
        round(HEAT_LOW[2] + (HEAT_HIGH[2] - HEAT_LOW[2]) * t),
    )


def pulse(period: float = 1.1) -> float:
    """0..1..0 over ``period`` seconds (the incoming markers breathe)."""
    return 0.5 - 0.5 * math.cos(2 * math.pi * (time.monotonic() % period) / period)


def draw_badge(
    surface: pygame.Surface,
    label: str,
    centre: tuple[float, float],
    fill: tuple[int, int, int],
    px: int = 13,
    colour: tuple[int, int, int] = (255, 255, 255),
) -> pygame.Rect:
    """A rounded pill with bold text (banners over the map; the map's own labels are
    placed by ``game.ui.labels``)."""
    image = fonts.text(label, px, colour, bold=True)
    rect = image.get_rect(center=(round(centre[0]), round(centre[1])))
    box = rect.inflate(*labels.BADGE_PAD)
    pygame.draw.rect(surface, fill, box, border_radius=box.h // 2)
    pygame.draw.rect(surface, (255, 255, 255), box, 1, border_radius=box.h // 2)
    ui.text(surface, label, rect.topleft, px, colour, True)
    return box


def ring_labels(
    surface: pygame.Surface,
    ctx: UiContext,
    centre: Hex,
    rings: tuple[int, ...] | list[int],
    px: int,
    priority: int,
    shown: int | None = None,
) -> None:
    """The damage of each ring around ``centre`` (ART-25), just outside the ring: on
    its east side, else around it (the first ``shown`` rings; all by default)."""
    size = ctx.camera.size
    x, y = ctx.camera.hex_to_screen(centre)
    for radius, dmg in enumerate(rings[: None if shown is None else shown + 1]):
        reach = size * (1.5 * radius + 1.3)
        spots = labels.along(
            (reach * math.cos(math.radians(a)), reach * math.sin(math.radians(a)))
            for a in (0, -30, 30, -60, 60, 180, 150, 210, 120, 240)
        )
        labels.post_badge(ctx, surface, str(dmg), (x, y), (110, 8, 0), px, priority, spots)


def _aimed_hex(surface: pygame.Surface, ctx: UiContext, target: Hex, label: str) -> None:
    """The aimed hex outlined white with its chance written in it."""
    pygame.draw.polygon(surface, (255, 255, 255), hex_points(ctx, target), 3)
    ui.text(
        surface,
        label,
        ctx.camera.hex_to_screen(target),
        max(12, ctx.camera.size // 2 - 2),
        (255, 255, 255),
        True,
        "center",
        halo=(120, 10, 0),
    )


def edge_point(ctx: UiContext, h: Hex) -> tuple[float, float, float] | None:
    """Where an arrow at the edge of the map's open part (under the top bar) points to
    an off-screen hex: its base and its angle; None for the middle of the view."""
    frame = ui.map_rect(ctx).copy()
    top = ui.top_of_map(ctx) - 10
    frame.h -= top - frame.y
    frame.y = top
    x, y = ctx.camera.hex_to_screen(h)
    cx, cy = frame.center
    dx, dy = x - cx, y - cy
    if dx == 0 and dy == 0:
        return None
    margin = 26
    scale = min(
        (frame.w / 2 - margin) / abs(dx) if dx else math.inf,
        (frame.h / 2 - margin) / abs(dy) if dy else math.inf,
    )
    return cx + dx * scale, cy + dy * scale, math.atan2(dy, dx)


def edge_arrow(
    surface: pygame.Surface,
    ctx: UiContext,
    at: tuple[float, float, float],
    colour: tuple[int, int, int],
    label: str,
) -> None:
    """An arrow at an ``edge_point``, with a label behind its tip."""
    px, py, angle = at
    tip = (px + 14 * math.cos(angle), py + 14 * math.sin(angle))
    left = (px + 12 * math.cos(angle + 2.4), py + 12 * math.sin(angle + 2.4))
    right = (px + 12 * math.cos(angle - 2.4), py + 12 * math.sin(angle - 2.4))
    pygame.draw.polygon(surface, colour, [tip, left, right])
    pygame.draw.polygon(surface, (255, 255, 255), [tip, left, right], 2)
    # Behind the tip, into the map, else around the arrow.
    spots = labels.around(14, labels.facing(angle + math.pi), rings=3)
    labels.post_badge(ctx, surface, label, (px, py), colour, 12, labels.SHELL, spots)


# --- the layer ----------------------------------------------------------------------------------


class PlotLayer:
    """Plot mode, the battery and fire-queue panels, and the incoming markers."""

    def __init__(self, dialogs: ui.DialogLayer) -> None:
        self.dialogs = dialogs
        self._view: PlayerView | None = None
        self._previews: dict[tuple[str, Hex], PlotPreview] = {}
        self.battery_rows: list[tuple[pygame.Rect, str]] = []
        self.queue_rows: list[tuple[pygame.Rect, Hex]] = []
        # The panels' title strips by name (a click on one opens or folds the panel).
        self.strips: dict[str, pygame.Rect] = {}
        self.preview_computations = 0
        self.overlay_paints = 0
        self._overlay: tuple[Any, pygame.Surface, pygame.Rect, PlotPreview] | None = None
        self._card: tuple[Any, pygame.Surface, PlotPreview] | None = None
        self._panels: dict[str, tuple[Any, pygame.Surface, list[Any]]] = {}
        self._serial = 0  # counts views: panels are painted again for a new one
        self.panel_paints = 0
        self._hot_row = -1

    def keys(self) -> list[tuple[str, str]]:
        return [
            ("P", "plot mode: aim artillery (hover a hex for the forecast, click to fire)"),
            ("P, beyond the map", "counter-battery fire at an off-board sheet position (ART-37)"),
            ("Tab", "plot mode: next battery"),
            ("Esc", "leave plot mode"),
            ("B (plot mode), click its title", "the batteries panel: open / fold to its strip"),
            ("G, click its title", "the fire queue: open / fold to its strip"),
        ]

    # --- state --------------------------------------------------------------------------

    def _sync(self, ctx: UiContext) -> None:
        if ctx.view is not self._view:
            self._view = ctx.view
            self._serial += 1
            self._previews.clear()
        if ctx.mode == PLOT:
            ids = [u.id for u in own_batteries(ctx.view)]
            if ctx.plot_battery not in ids:
                ctx.plot_battery = ids[0] if ids else None

    def preview(self, ctx: UiContext, target: Hex | None = None) -> PlotPreview | None:
        """The preview of the chosen battery at ``target`` (default the hovered hex),
        cached per (battery, hex) until the view changes."""
        self._sync(ctx)
        target = ctx.hovered if target is None else target
        if target is None or ctx.plot_battery is None:
            return None
        key = (ctx.plot_battery, target)
        found = self._previews.get(key)
        if found is None:
            found = plot_preview(ctx.view, ctx.plot_battery, target)
            self.preview_computations += 1
            if len(self._previews) > 256:
                self._previews.clear()
            self._previews[key] = found
        return found

    def enter(self, ctx: UiContext) -> bool:
        batteries = own_batteries(ctx.view)
        if not batteries:
            ctx.notify("You have no artillery", error=True)
            return False
        ctx.mode = PLOT
        self._sync(ctx)
        return True

    def cycle(self, ctx: UiContext, step: int = 1) -> None:
        ids = [u.id for u in own_batteries(ctx.view)]
        if not ids:
            return
        n = ids.index(ctx.plot_battery) if ctx.plot_battery in ids else -1
        ctx.plot_battery = ids[(n + step) % len(ids)]

    def fire_at(self, ctx: UiContext, target: Hex) -> bool:
        """Open the ammunition choice for a shot at ``target``; False (with the reason
        shown) when no shot is possible now."""
        preview = self.preview(ctx, target)
        if preview is None:
            return False
        if preview.refusal is not None:
            ctx.notify(preview.refusal, error=True)
            return False
        if preview.piece is None:
            ctx.notify(
                f"every piece of {preview.battery_name} already has a target this turn",
                error=True,
            )
            return False
        why = plotting_now(ctx)
        if why is not None:
            ctx.notify(f"Cannot fire now: {why}", error=True)
            return False
        unit = ctx.view.units[preview.battery]
        assert unit.battery is not None
        options = dialogs.ammunition_options(preview.weapon.id, unit.battery.ammunition)
        chance = (
            f"automatic hit ({preview.automatic})"
            if preview.automatic
            else f"to hit {preview.to_hit.total} now ({ui.percent(preview.hit_probability)})"
            if preview.to_hit is not None
            else ""
        )
        summary = [
            f"{preview.battery_name} piece {preview.piece} -> {preview.target_label}",
            f"Lands in turn {preview.arrival_turn} (flight {preview.flight}); {chance}",
        ]
        piece = preview.piece
        assert piece is not None

        def send(ammo: str) -> None:
            command = PlotFire(ctx.view.side, preview.battery, piece, preview.target, ammo)
            if ctx.submit(command):
                ctx.ammunition = ammo
                ctx.notify(
                    f"{preview.battery_name} piece {piece} fires at {preview.target_label}: "
                    f"lands in turn {preview.arrival_turn}"
                )

        self.dialogs.open(dialogs.AmmunitionChoice(summary, options, send, ctx.ammunition))
        return True

    # --- events ---------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        ui.track_hover(ctx, event)
        if ui.plain_key(event, pygame.K_p):
            if ctx.mode == PLOT:
                ctx.mode = SELECT
            else:
                self.enter(ctx)
            return True
        if ctx.mode == PLOT and ui.plain_key(event, pygame.K_TAB):
            self.cycle(ctx, -1 if event.mod & pygame.KMOD_SHIFT else 1)
            return True
        if ctx.mode == PLOT and ui.plain_key(event, pygame.K_ESCAPE):
            ctx.mode = SELECT
            return True
        if ctx.mode == PLOT and ui.plain_key(event, pygame.K_b):
            return ui.toggle_panel(ctx, "batteries")
        if ctx.view.plots and ui.plain_key(event, pygame.K_g):
            return ui.toggle_panel(ctx, "fire_queue")
        if ui.pressed(event):
            # A press on a panel is the panel's: no drag of the map starts there.
            rows = [*self.battery_rows, *self.queue_rows, *((r, n) for n, r in self.strips.items())]
            return any(r.collidepoint(event.pos) for r, _ in rows)
        if ui.clicked(event):
            for name, rect in self.strips.items():
                title = pygame.Rect(rect.x, rect.y, rect.w, ui.STRIP_HEIGHT + 4)
                if title.collidepoint(event.pos):
                    return ui.toggle_panel(ctx, name)
            for rect, battery in self.battery_rows:
                if rect.collidepoint(event.pos):
                    ctx.plot_battery = battery
                    ctx.mode = PLOT
                    return True
            for rect, target in self.queue_rows:
                if rect.collidepoint(event.pos):
                    ctx.camera.centre_on(target)
                    return True
            if ctx.mode == PLOT:
                h = ui.hex_under(ctx, event.pos)
                if h is not None:
                    ctx.hovered = h
                    self.fire_at(ctx, h)
                    return True
        return False

    def update(self, dt: float, ctx: UiContext) -> None:
        self._sync(ctx)

    def reset(self, ctx: UiContext) -> None:
        """A hot-seat hand-over: nothing of the side that left stays."""
        self._view = None
        self._previews.clear()
        self._overlay = self._card = None
        self._panels.clear()
        self.battery_rows, self.queue_rows = [], []
        self.strips = {}

    def tooltip_lines(self, h: Hex, ctx: UiContext) -> list[str]:
        """Own shells due at a hex, for the hover tooltip."""
        out = []
        for p in fire_queue_at(ctx.view, h):
            gun = ctx.view.units.get(p.battery)
            name = "our battery" if gun is None else gun.name
            out.append(f"Our shell ({name}) lands here in turn {p.arrival_turn}")
        return out

    # --- the map ------------------------------------------------------------------------

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        self._sync(ctx)
        if ctx.mode == PLOT:
            self._draw_candidates(surface, ctx)
            preview = self.preview(ctx)
            if preview is not None:
                self._draw_preview(surface, ctx, preview)
        self._draw_incoming(surface, ctx)
        self._draw_edge_arrows(surface, ctx)

    def draw_under(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """In plot mode: pre-designated (ART-20) and the chosen battery's auto-hit hexes
        (ART-19), under the counters."""
        if ctx.mode != PLOT:
            return
        size = ctx.camera.size
        px = max(10, size // 3)
        for h in ctx.view.predesignated:
            if on_map(ctx, h, size):
                pygame.draw.polygon(surface, (255, 220, 90), hex_points(ctx, h, 0.78), 2)
                x, y = ctx.camera.hex_to_screen(h)
                image = fonts.text("PD", px, (255, 230, 120), True, (40, 30, 0))
                mark = fonts.blit(surface, image, (x, y + size * 0.45), "center", fonts.HEX_MARKS)
                labels.keep_clear(ctx, mark, soft=False)
        unit = ctx.view.units.get(ctx.plot_battery or "")
        if unit is not None and unit.battery is not None:
            for h in auto_hit_hexes(unit, ctx.view.turn):
                if on_map(ctx, h, size):
                    pygame.draw.polygon(surface, theme.GOOD, hex_points(ctx, h, 0.7), 3)
                    x, y = ctx.camera.hex_to_screen(h)
                    image = fonts.text("AUTO", px, theme.GOOD, True, (0, 40, 0))
                    at = (x, y + size * 0.45)
                    mark = fonts.blit(surface, image, at, "center", fonts.HEX_MARKS)
                    labels.keep_clear(ctx, mark, soft=False)

    def _draw_preview(self, surface: pygame.Surface, ctx: UiContext, p: PlotPreview) -> None:
        """The preview's overlay, painted once per preview and camera position and then
        blitted whole (a few hundred hexes of forecast would cost a blit each per frame)."""
        cam = ctx.camera
        key = (id(p), cam.offset, cam.size, cam.viewport)
        if self._overlay is None or self._overlay[0] != key:
            image = self._overlay[1] if self._overlay is not None else None
            if image is None or image.get_size() != cam.viewport:
                image = pygame.Surface(cam.viewport, pygame.SRCALPHA)
            else:
                image.fill((0, 0, 0, 0), self._overlay[2])  # type: ignore[index]
                fonts.forget(image)
            self._paint_preview(image, ctx, p)
            self._overlay = (key, image, self._overlay_box(ctx, p), p)
            self.overlay_paints += 1
        _, image, bbox, _ = self._overlay
        fonts.place(surface, image, bbox.topleft, area=bbox)
        if p.refusal is None and not p.counter_battery and p.forecast is not None:
            ring_labels(surface, ctx, p.target, p.weapon.rings(), 11, labels.SHELL)

    @staticmethod
    def _overlay_box(ctx: UiContext, p: PlotPreview) -> pygame.Rect:
        """Where the overlay can have drawn: every hex it marks, with room for labels."""
        hexes = [p.target]
        if p.forecast is not None:
            hexes += list(p.forecast.expected_damage) + list(p.forecast.landing)
        points = [ctx.camera.hex_to_screen(h) for h in hexes]
        size = ctx.camera.size
        pad = size * 1.6 + 40
        x0 = min(x for x, _ in points) - pad
        y0 = min(y for _, y in points) - pad
        x1 = max(x for x, _ in points) + pad + size * 4.5  # the ring labels run east
        y1 = max(y for _, y in points) + pad
        box = pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0))
        return box.clip(pygame.Rect(0, 0, *ctx.camera.viewport))

    def _paint_preview(self, surface: pygame.Surface, ctx: UiContext, p: PlotPreview) -> None:
        camera = ctx.camera
        size = camera.size
        x, y = camera.hex_to_screen(p.target)
        if p.refusal is None and p.counter_battery:
            self._paint_counter_battery(surface, ctx, p)
            return
        if p.refusal is not None or p.forecast is None:
            pygame.draw.polygon(surface, theme.BAD, hex_points(ctx, p.target), 3)
            r = size * 0.45
            pygame.draw.line(surface, theme.BAD, (x - r, y - r), (x + r, y + r), 4)
            pygame.draw.line(surface, theme.BAD, (x - r, y + r), (x + r, y - r), 4)
            return
        fc = p.forecast
        # Expected damage (ART-25 over the landing distribution): the hottest hex red.
        top = max(fc.max_expected_damage, 1e-9)
        buckets: dict[int, list[Hex]] = {}
        for h, value in fc.expected_damage.items():
            if value < 0.05:
                continue
            k = min(HEAT_BUCKETS - 1, int(value / top * HEAT_BUCKETS))
            buckets.setdefault(k, []).append(h)
        for k, hexes in sorted(buckets.items()):
            share = (k + 1) / HEAT_BUCKETS
            colour = (*heat(share), 60 + int(120 * share))
            for h in hexes:
                if on_map(ctx, h, size):
                    # Written straight into the overlay's pixels (alpha included).
                    pygame.draw.polygon(surface, colour, hex_points(ctx, h))
        if size >= 36:
            for h, value in fc.expected_damage.items():
                if value >= 0.05 and h != p.target:
                    hx, hy = camera.hex_to_screen(h)
                    ui.text(
                        surface,
                        f"{value:.1f}",
                        (hx, hy - size * 0.5),
                        11,
                        (60, 10, 0),
                        True,
                        "midtop",
                        halo=(255, 240, 200),
                    )
        # Damage rings on a hit (ART-25), labelled each frame (``_draw_preview``).
        rings = p.weapon.rings()
        for radius in range(len(rings)):
            draw_disk_outline(surface, ctx, p.target, radius, (110, 8, 0), 2)
        # Landing probabilities: a dot per landing hex, area by probability (ART-12).
        diagram = set() if p.automatic else {neighbor(p.target, d) for d in DIRECTIONS}
        for h, prob in fc.landing.items():
            if h == p.target or prob <= 0 or h in diagram:
                continue
            hx, hy = camera.hex_to_screen(h)
            radius_px = max(2, round(size * 0.42 * math.sqrt(min(1.0, prob * 12))))
            pygame.draw.circle(surface, (30, 30, 36), (round(hx), round(hy)), radius_px + 1)
            pygame.draw.circle(surface, (240, 244, 255), (round(hx), round(hy)), radius_px)
            if size >= 36:
                ui.text(
                    surface,
                    ui.percent(prob),
                    (hx, hy + radius_px + 1),
                    11,
                    (255, 255, 255),
                    True,
                    "midtop",
                    halo=(0, 0, 0),
                )
        # The scatter diagram: the sides 1-6 of the aimed hex (ART-12).
        if not p.automatic:
            # The badges stand in the neighbours: where a miss by 1 lands.
            radius_px = max(9, round(size * 0.4))
            for d in DIRECTIONS:
                mx, my = camera.hex_to_screen(neighbor(p.target, d))
                pygame.draw.circle(surface, (20, 24, 30), (round(mx), round(my)), radius_px)
                pygame.draw.circle(surface, theme.ACCENT, (round(mx), round(my)), radius_px, 2)
                ui.text(
                    surface, str(d), (mx, my), max(11, radius_px + 3), theme.ACCENT, True, "center"
                )
        # The aimed hex with the hit chance in it.
        _aimed_hex(
            surface, ctx, p.target, "AUTO" if p.automatic else ui.percent(fc.hit_probability)
        )

    def _paint_counter_battery(
        self, surface: pygame.Surface, ctx: UiContext, p: PlotPreview
    ) -> None:
        """ART-37: the aimed hex off the map, its rings and the chance of coming down
        within them (nobody will see where it lands)."""
        for radius in range(p.weapon.ring_radius + 1):
            draw_disk_outline(surface, ctx, p.target, radius, (110, 8, 0), 2, dashed=True)
        assert p.to_hit is not None
        _aimed_hex(surface, ctx, p.target, ui.percent(float(ring_chance(p.to_hit.total, p.weapon))))

    def _draw_candidates(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """ART-37: the off-board positions that may hold an enemy gun, outlined on the
        sheet grid beyond the map, each with the belief and the chance of a hit."""
        unit = ctx.view.units.get(ctx.plot_battery or "")
        if unit is None or unit.battery is None:
            return
        rows = [r for r in counter_battery_odds(ctx.view, unit) if r.belief > 0][:12]
        if not rows:
            return
        top = max(r.chance for r in rows) or 1.0
        for row in rows:
            corners = [
                ctx.camera.hex_to_screen(sheet_hex(row.position, col, line))
                for col, line in ((0, 0), (14, 0), (14, 16), (0, 16))
            ]
            colour = heat(max(0.1, row.chance / top)) if row.flight is not None else theme.MUTED
            pygame.draw.polygon(surface, colour, corners, 3)
            # The label along the top edge, clear of the aimed hex in the middle.
            cx = sum(x for x, _ in corners) / 4
            top_y = min(y for _, y in corners)
            reach = "out of range" if row.flight is None else f"hit {ui.percent(row.chance)}"
            width = max(x for x, _ in corners) - min(x for x, _ in corners)
            spots = labels.along((dx, 0) for dx in labels.spread(width / 6, 5))
            labels.post_badge(
                ctx,
                surface,
                f"gun? {ui.percent(row.belief)}\n{reach}",
                (cx, top_y + 30),
                colour,
                12,
                labels.SHELL,
                spots,
            )

    def _draw_incoming(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """Own shells in flight: unmistakable markers on their target hexes."""
        view = ctx.view
        groups: dict[Hex, list[Plot]] = {}
        for plot in view.plots:
            groups.setdefault(plot.target, []).append(plot)
        if not groups:
            return
        size = ctx.camera.size
        glow = pulse()
        own_hexes = {u.hex for u in view.own_units() if u.hex is not None and not u.destroyed}
        danger: set[Hex] = set()  # own units within the reach of a shell landing now
        for target, plots in groups.items():
            first = min(p.arrival_turn for p in plots)
            now = first <= view.turn
            if not on_map(ctx, target, size * 4):
                continue
            reach = max(_ring_radius(view, p) for p in plots)
            colour = theme.INCOMING if now else (255, 120, 40)
            draw_disk_outline(surface, ctx, target, reach, colour, 2, dashed=True)
            # Alpha in steps of 10 keeps the map layer's stamp cache small.
            alpha = (70 + int(9 * glow) * 10) if now else 70
            ctx.map_layer.draw_highlight(surface, ctx.camera, [target], colour, alpha=alpha)
            x, y = ctx.camera.hex_to_screen(target)
            # Never smaller than a thumb, whatever the zoom.
            base = max(size, 16)
            ring = base * (0.95 + (0.35 * glow if now else 0.0))
            pygame.draw.circle(surface, (0, 0, 0), (round(x), round(y)), round(ring), 6)
            pygame.draw.circle(surface, colour, (round(x), round(y)), round(ring), 4)
            for ang in (0, 90, 180, 270):
                c, s = math.cos(math.radians(ang)), math.sin(math.radians(ang))
                a = (x + c * base * 0.45, y + s * base * 0.45)
                b = (x + c * (ring + base * 0.4), y + s * (ring + base * 0.4))
                pygame.draw.line(surface, (0, 0, 0), a, b, 6)
                pygame.draw.line(surface, colour, a, b, 4)
            mark = pygame.Rect(0, 0, round(base * 2.4), round(base * 2.4))
            mark.center = (round(x), round(y))
            labels.keep_clear(ctx, mark)
            when = "LANDS THIS TURN" if now else f"LANDS TURN {first}"
            count = f" x{len(plots)}" if len(plots) > 1 else ""
            # Placed around the widest ring of the pulse, so it stands still.
            spots = labels.around(base * 1.3 + 4, "above")
            labels.post_badge(
                ctx,
                surface,
                f"{when}{count}",
                (x, y),
                colour,
                max(12, size // 3),
                labels.SHELL,
                spots,
            )
            for h in own_hexes:
                if distance(h, target) <= reach and now:
                    danger.add(h)
        for h in sorted(danger):
            ux, uy = ctx.camera.hex_to_screen(h)
            spots = labels.around(size * 0.7, "below")
            labels.post_badge(
                ctx, surface, "DANGER CLOSE", (ux, uy), (200, 120, 0), 11, labels.ALERT, spots
            )

    # --- the panels ----------------------------------------------------------------------

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        self._sync(ctx)
        rect = ui.map_rect(ctx)
        registry = ctx.panels
        self.battery_rows = []
        self.queue_rows = []
        self.strips = {}
        # Docked at the top right (the game screen's own panels are on the left), each
        # folded to its strip unless the player opened it.
        if ctx.mode == PLOT:
            if ui.panel_open(ctx, "batteries"):
                key = (self._serial, ctx.plot_battery)
                box, self.battery_rows = self._cached_panel(
                    surface, ctx, "batteries", key, self._draw_batteries
                )
            else:
                gun = ctx.view.units.get(ctx.plot_battery or "")
                detail = f"{gun.name}; Tab: next battery" if gun is not None else "no battery"
                box = self._strip(surface, ctx, "batteries", "Plot (B)", detail, theme.INCOMING)
            registry["batteries"] = box
            self.strips["batteries"] = box
        else:
            registry.pop("batteries", None)
        if ctx.view.plots:
            if ui.panel_open(ctx, "fire_queue"):
                old = self._panels.get("fire_queue")
                at = registry.get("fire_queue")
                hot = -1
                if old is not None and at is not None:
                    hot = next(
                        (
                            n
                            for n, (r, _) in enumerate(old[2])
                            if r.move(at.topleft).collidepoint(ctx.mouse)
                        ),
                        -1,
                    )
                self._hot_row = hot
                box, self.queue_rows = self._cached_panel(
                    surface, ctx, "fire_queue", (self._serial, hot), self._draw_queue
                )
            else:
                plots = ctx.view.plots
                first = min(p.arrival_turn for p in plots)
                detail = f"{len(plots)} in flight, the first lands in turn {first}"
                box = self._strip(surface, ctx, "fire_queue", "Fire queue (G)", detail)
            registry["fire_queue"] = box
            self.strips["fire_queue"] = box
        else:
            registry.pop("fire_queue", None)
        self._draw_banner(surface, ctx, rect)
        preview = self.preview(ctx) if ctx.mode == PLOT else None
        if preview is not None:
            self._draw_card(surface, ctx, preview, rect)
        else:
            ctx.cards.pop("plot_card", None)

    @staticmethod
    def _strip(
        surface: pygame.Surface,
        ctx: UiContext,
        name: str,
        title: str,
        detail: str,
        accent: Any = None,
    ) -> pygame.Rect:
        """A folded panel's strip, docked at the top right."""
        box = ui.dock(ctx, name, (PANEL_WIDTH, ui.STRIP_HEIGHT), "top-right")
        ui.draw_strip(surface, box, title, detail, accent)
        return box

    def _cached_panel(
        self, surface: pygame.Surface, ctx: UiContext, name: str, key: Any, draw: Any
    ) -> tuple[pygame.Rect, list[Any]]:
        """A panel painted once per ``key`` (its rows with it), docked at the top right
        and blitted there, cut to the room its column leaves."""
        cached = self._panels.get(name)
        if cached is None or cached[0] != key:
            scratch = pygame.Surface(
                (PANEL_WIDTH + 4, max(1, ctx.camera.viewport[1])), pygame.SRCALPHA
            )
            self.battery_rows, self.queue_rows = [], []
            box = draw(scratch, ctx, (0, 0))
            rows = self.battery_rows if name == "batteries" else self.queue_rows
            box = box.clip(scratch.get_rect())
            cached = (key, fonts.copy_area(scratch, box), list(rows))
            self._panels[name] = cached
            self.panel_paints += 1
        _, image, rows = cached
        box = ui.dock(ctx, name, image.get_size(), "top-right")
        cut = box.size != image.get_size()
        fonts.place(surface, image, box, name, clips=cut, area=pygame.Rect((0, 0), box.size))
        moved = [(r.move(box.topleft), v) for r, v in rows]
        return box, [(r, v) for r, v in moved if box.contains(r)]

    def _draw_batteries(
        self, surface: pygame.Surface, ctx: UiContext, at: tuple[int, int]
    ) -> pygame.Rect:
        view = ctx.view
        batteries = own_batteries(view)
        rows: list[tuple[str, list[str]]] = []
        for unit in batteries:
            battery = unit.battery
            assert battery is not None
            w = weapon_spec(battery.weapon)
            ammo = ", ".join(
                f"{AMMUNITION[a].name if a in AMMUNITION else a} {'unlimited' if n is None else n}"
                for a, n in battery.ammunition.items()
            )
            free = len(queries.free_pieces(view, unit))
            auto = len(auto_hit_hexes(unit, view.turn))
            rows.append(
                (
                    unit.id,
                    [
                        unit.name,
                        f"{w.name}, {battery.pieces} piece(s), gunnery {unit.gunnery}, "
                        f"reach {w.max_range_sheets} sheets",
                        where_it_stands(view, unit).capitalize(),
                        f"Ammunition: {ammo}",
                        f"Pieces free this turn {free}/{battery.pieces}; auto-hit hexes {auto};"
                        f" pre-designated {len(view.predesignated)}",
                    ],
                )
            )
        width = PANEL_WIDTH
        height = 34 + sum(18 * len(lines) + 10 for _, lines in rows) + 24
        if not rows:
            height = 34 + 40
        box = pygame.Rect(at[0], at[1], width, height)
        inner = ui.draw_panel(surface, box, "Plot mode: batteries (B)", theme.INCOMING)
        y = inner.y
        if not rows:
            ui.text(surface, "No artillery on this side.", (inner.x, y), theme.BODY, theme.MUTED)
        for battery_id, lines in rows:
            row = pygame.Rect(inner.x - 4, y - 3, inner.w + 8, 18 * len(lines) + 6)
            if battery_id == ctx.plot_battery:
                pygame.draw.rect(surface, theme.SELECTED, row, border_radius=5)
                pygame.draw.rect(surface, theme.ACCENT, row, 1, border_radius=5)
            self.battery_rows.append((row, battery_id))
            for n, line in enumerate(lines):
                ui.text(
                    surface,
                    line,
                    (inner.x, y),
                    theme.BODY if n == 0 else theme.SMALL,
                    theme.TEXT if n == 0 else theme.MUTED,
                    bold=n == 0,
                )
                y += 18
            y += 10
        ui.text(
            surface,
            "Tab: next battery   Esc: leave plot mode",
            (inner.x, box.bottom - 22),
            theme.SMALL,
            theme.MUTED,
        )
        return box

    def _draw_queue(
        self, surface: pygame.Surface, ctx: UiContext, at: tuple[int, int]
    ) -> pygame.Rect:
        view = ctx.view
        groups = fire_queue(view)
        lines = sum(1 + len(plots) for _, plots in groups)
        box = pygame.Rect(at[0], at[1], PANEL_WIDTH, 34 + 19 * lines + 8)
        inner = ui.draw_panel(surface, box, "Fire queue: our shells in flight (G)", theme.ACCENT)
        y = inner.y
        for turn, plots in groups:
            when = (
                "lands THIS TURN"
                if turn <= view.turn
                else "next turn"
                if turn == view.turn + 1
                else f"in {turn - view.turn} turns"
            )
            colour = theme.INCOMING if turn <= view.turn else theme.ACCENT
            ui.text(surface, f"Turn {turn}: {when}", (inner.x, y), theme.BODY, colour, True)
            y += 19
            for p in plots:
                target = p.target
                gun = view.units.get(p.battery)
                name = p.battery if gun is None else gun.name
                ammo = AMMUNITION.get(p.ammunition)
                flags = f", {p.automatic}" if p.automatic else ""
                label = (
                    f"{name} p{p.piece} -> {view.area.label(target)}, "
                    f"{ammo.name if ammo else p.ammunition}{flags}"
                )
                row = pygame.Rect(inner.x - 4, y - 1, inner.w + 8, 19)
                if len(self.queue_rows) == self._hot_row:
                    pygame.draw.rect(surface, theme.BUTTON_HOT, row, border_radius=4)
                self.queue_rows.append((row, target))
                ui.text(surface, label, (inner.x + 10, y), theme.SMALL, theme.TEXT)
                y += 19
        return box

    def _draw_banner(self, surface: pygame.Surface, ctx: UiContext, rect: pygame.Rect) -> None:
        """Our shells in flight, in a badge under the top row of the map (which keeps a
        home edge's name), clear of the panels and of the messages (``widgets.place_box``)."""
        view = ctx.view
        now = [p for p in view.plots if p.arrival_turn <= view.turn]
        later = [p for p in view.plots if p.arrival_turn > view.turn]
        if now:
            glow = pulse()
            fill = (round(150 + 80 * glow), 24, 16)
            label, px = f"OUR SHELLS LAND THIS TURN: {len(now)}", 17
        elif later:
            first = min(p.arrival_turn for p in later)
            label = f"Shells in flight: {len(later)}, the first lands in turn {first}"
            fill, px = (150, 80, 20), 14
        else:
            ctx.panels.pop("incoming_banner", None)
            return
        size = fonts.text(label, px, (255, 255, 255), bold=True).get_rect().inflate(14, 6).size
        place = ui.place_box(ctx, size, "incoming_banner", rows=("high", "top"))
        ctx.panels["incoming_banner"] = draw_badge(surface, label, place.center, fill, px)

    def _draw_edge_arrows(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """Own shells due off the screen: an arrow at the edge toward their targets, one
        for the shells whose arrows would meet, with their arrival turns."""
        arrows: list[tuple[tuple[float, float, float], list[Plot]]] = []
        for p in sorted(ctx.view.plots, key=lambda p: (p.arrival_turn, p.id)):
            if on_map(ctx, p.target):
                continue
            at = edge_point(ctx, p.target)
            if at is None:
                continue
            near = next((a for a in arrows if math.dist(a[0][:2], at[:2]) < 28), None)
            if near is None:
                arrows.append((at, [p]))
            else:
                near[1].append(p)
        for at, plots in arrows:
            turns = sorted({p.arrival_turn for p in plots})
            now = turns[0] <= ctx.view.turn
            colour = theme.INCOMING if now else (230, 110, 30)
            words = " ".join("NOW" if t <= ctx.view.turn else f"T{t}" for t in turns)
            count = f" x{len(plots)}" if len(plots) > 1 else ""
            edge_arrow(surface, ctx, at, colour, words + count)

    def _draw_card(
        self, surface: pygame.Surface, ctx: UiContext, p: PlotPreview, rect: pygame.Rect
    ) -> None:
        why = plotting_now(ctx)
        key = (id(p), ctx.view.turn, why)
        if self._card is None or self._card[0] != key:
            self._card = (key, self._paint_card(ctx, p, why), p)
        image = self._card[1]
        # Clear of the panels and of the aimed hex and its nearest rings.
        avoid = [ctx.camera.hex_to_screen(p.target)] + [
            ctx.camera.hex_to_screen(step)
            for d in DIRECTIONS
            for step in (neighbor(p.target, d), neighbor(neighbor(p.target, d), d))
        ]
        avoid = [(x + rect.x, y + rect.y) for x, y in avoid]
        box = ui.place_box(ctx, image.get_size(), "plot_card", ("bottom", "top"), avoid)
        fonts.place(surface, image, box, "plot_card")
        ctx.cards["plot_card"] = box

    def _paint_card(self, ctx: UiContext, p: PlotPreview, why: str | None) -> pygame.Surface:
        lines = p.lines(ctx.view.turn)
        if p.can_fire:
            lines.append(
                (f"Click: fire piece {p.piece} (choose ammunition)", theme.GOOD)
                if why is None
                else (f"Plot later: {why}", theme.MUTED)
            )
        width = 470
        wrapped = [
            (part, c) for line, c in lines for part in ui.wrap(line, width - 24, theme.SMALL)
        ]
        image = pygame.Surface((width, 40 + 17 * len(wrapped)), pygame.SRCALPHA)
        title = "Fire mission preview"
        accent = theme.ACCENT if p.can_fire else theme.BAD
        inner = ui.draw_panel(image, image.get_rect(), title, accent, alpha=240)
        ty = inner.y
        for part, colour in wrapped:
            ui.text(image, part, (inner.x, ty), theme.SMALL, colour, bold=ty == inner.y)
            ty += 17
        return image
