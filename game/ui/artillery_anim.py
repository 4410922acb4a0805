"""Arrivals, one shell at a time (ART-11, ART-12, ART-25, ART-34).

Every shell that lands is played in the order the engine resolved it: the
aimed hex first; then, if it scattered, an arrow along its straight path to
where it landed, labelled with the roll, the margin of failure and the
direction on the scatter diagram; then the blast with its damage rings and
their values; then the damage floating over each unit hit. Beside the map
the log entry of the shell is shown with every roll. After the show the
landing hex keeps a crater and the aimed hex a thin ring with an arrow to
the crater for the rest of the turn, so the map always shows where a shell
landed, not only where it was aimed.

Only the view is read: arrivals come from the "arrival" events of the side
on screen (redacted for the side that did not fire, principle 6). Each side
sees each arrival once; a side first seen (a loaded game) does not replay
its history.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pygame

from game.dice import RollRecord
from game.hexmath import DIRECTION_NAMES, Hex, ring
from game.state import Event, PlayerView
from game.state.model import hex_from
from game.ui import labels, theme
from game.ui import widgets as ui
from game.ui.artillery_plot import (
    dash_line,
    draw_disk_outline,
    heat,
    hex_points,
    ring_labels,
)
from game.ui.context import UiContext

# Seconds into one shell's show.
AIM_END = 0.8
SCATTER_END = 1.8
BLAST_END = 3.0
DAMAGE_END = 4.2
SHOW_END = 5.0
FLOAT_RISE = 1.4  # hex sizes a damage number rises


@dataclass(frozen=True)
class ShellShow:
    """One arrival as the side on screen saw it."""

    plot_id: int | None
    side: str | None  # the firing side
    weapon: str
    aimed: Hex
    landing: Hex
    path: tuple[Hex, ...]
    hit: bool
    lost: bool
    roll: int | None
    to_hit: int | None
    margin: int
    direction: int | None
    automatic: str | None
    rings: tuple[int, ...]
    damage: tuple[dict[str, Any], ...]
    text: str
    rolls: tuple[RollRecord, ...]
    turn: int

    @property
    def scattered(self) -> bool:
        return not self.hit and self.margin > 0

    def verdict(self) -> str:
        """The roll in words: "2d6 = 4 vs 11: miss by 7, d6 = 1 north"."""
        if self.automatic:
            return f"Automatic hit ({self.automatic})"
        head = f"2d6 = {self.roll} vs {self.to_hit}"
        if self.hit:
            return f"{head}: HIT"
        where = DIRECTION_NAMES.get(self.direction or 0, "?")
        tail = ", lost off the map" if self.lost else ""
        return f"{head}: miss by {self.margin}, d6 = {self.direction} {where}{tail}"


def shell_show(event: Event) -> ShellShow:
    """A ``ShellShow`` from an "arrival" event of the view's log."""
    if event.kind != "arrival":
        raise ValueError(f"a shell show needs an arrival event, not {event.kind!r}")
    d = event.data
    aimed = hex_from(d.get("aimed"))
    landing = hex_from(d.get("landing"))
    if aimed is None or landing is None:
        raise ValueError(f"arrival event of turn {event.turn} has no aimed or landing hex")
    plot = d.get("plot") or {}
    to_hit = d.get("to_hit") or {}
    return ShellShow(
        plot_id=None if plot.get("id") is None else int(plot["id"]),
        side=plot.get("side"),
        weapon=str(d.get("weapon", "")),
        aimed=aimed,
        landing=landing,
        path=tuple(Hex(int(q), int(r)) for q, r in d.get("path", [])),
        hit=bool(d.get("hit")),
        lost=bool(d.get("lost")),
        roll=d.get("roll"),
        to_hit=to_hit.get("total"),
        margin=int(d.get("margin") or 0),
        direction=d.get("direction"),
        automatic=d.get("automatic"),
        rings=tuple(int(v) for v in d.get("rings", [])),
        damage=tuple(d.get("damage", [])),
        text=event.text,
        rolls=tuple(event.rolls),
        turn=event.turn,
    )


@dataclass
class _Playing:
    show: ShellShow
    t: float = 0.0
    index: int = 1
    of: int = 1


@dataclass
class ArrivalAnimation:
    """Plays each new arrival of the side on screen, then keeps its crater on the map."""

    speed: float = 1.0
    queue: list[ShellShow] = field(default_factory=list)
    playing: _Playing | None = None
    played_plots: list[int] = field(default_factory=list)  # plot ids shown, in order
    played: list[ShellShow] = field(default_factory=list)
    follow_camera: bool = True
    _view: PlayerView | None = None
    _seen: dict[str, int] = field(default_factory=dict)
    _recent: list[ShellShow] = field(default_factory=list)
    _batch: int = 0

    def keys(self) -> list[tuple[str, str]]:
        return [
            ("Space", "arrivals: next shell"),
            ("Esc", "arrivals: skip the rest"),
        ]

    @property
    def busy(self) -> bool:
        return self.playing is not None or bool(self.queue)

    def progress(self, ctx: UiContext) -> tuple[int, int, int] | None:
        """(turn, shell, of) of the arrivals on show, caught up with the view (the
        phase bar names them, and the AI waits while they land); None when none is."""
        self._sync(ctx)
        if self.playing is not None:
            return self.playing.show.turn, self.playing.index, self.playing.of
        if self.queue:
            return self.queue[0].turn, self._batch - len(self.queue) + 1, self._batch
        return None

    def log_shown(self, ctx: UiContext) -> int:
        """How many of the view's log events the screen shows: while shells land,
        the log stops before the first shell not yet shown and before the next
        turn, as the top bar does; else the whole log."""
        progress = self.progress(ctx)
        log = ctx.view.log
        if progress is None:
            return len(log)
        cut = len(log)
        if self.queue:
            # The last ``len(queue)`` arrivals of the log are still to come.
            arrivals = [n for n, e in enumerate(log) if e.kind == "arrival"]
            cut = arrivals[-len(self.queue)]
        turn = progress[0]
        return next((n for n, e in enumerate(log[:cut]) if e.turn > turn), cut)

    # --- following the view ----------------------------------------------------------------

    def _sync(self, ctx: UiContext) -> None:
        view = ctx.view
        if view is self._view:
            return
        self._view = view
        arrivals = [e for e in view.log if e.kind == "arrival"]
        seen = self._seen.get(view.side)
        self._seen[view.side] = len(arrivals)
        shows = [shell_show(e) for e in arrivals]
        # Craters stay for the turn after the artillery phase that made them.
        self._recent = [s for s in shows if s.turn >= view.turn - 1]
        if seen is None or len(arrivals) <= seen:
            if seen is None:
                self.queue.clear()
                self.playing = None
            return
        fresh = shows[seen:]
        self.queue.extend(fresh)
        self._batch = len(self.queue) + (1 if self.playing else 0)

    def _start_next(self, ctx: UiContext) -> None:
        if not self.queue:
            self.playing = None
            return
        show = self.queue.pop(0)
        index = self._batch - len(self.queue)
        self.playing = _Playing(show, 0.0, index, self._batch)
        if self.follow_camera:
            # The shell in the upper part of the map: the log card takes the lower part.
            cam = ctx.camera
            a = cam.hex_to_screen(show.aimed)
            b = cam.hex_to_screen(show.landing)
            wx, wy = cam.screen_to_world((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            cam.centre_on_world(wx, wy + 0.17 * cam.viewport[1] / cam.size)

    def _finish(self) -> None:
        assert self.playing is not None
        show = self.playing.show
        self.played.append(show)
        if show.plot_id is not None:
            self.played_plots.append(show.plot_id)
        self.playing = None

    def skip(self, everything: bool = False) -> None:
        """End the shell on show (and with ``everything`` the rest: they count as seen)."""
        if self.playing is not None:
            self._finish()
        if everything:
            for show in self.queue:
                self.played.append(show)
                if show.plot_id is not None:
                    self.played_plots.append(show.plot_id)
            self.queue.clear()

    # --- the layer ------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        if not self.busy or event.type != pygame.KEYDOWN:
            return False
        if event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.skip()
            return True
        if event.key == pygame.K_ESCAPE:
            self.skip(everything=True)
            return True
        return False

    def reset(self, ctx: UiContext) -> None:
        """A hot-seat hand-over: the shells shown to the side that left stop; the next
        side sees its own arrivals (each side keeps its own count of what it saw)."""
        self.queue.clear()
        self.playing = None
        self._view = None

    def update(self, dt: float, ctx: UiContext) -> None:
        self._sync(ctx)
        if ctx.animation_speed <= 0:
            self.skip(everything=True)  # animations off: the shells have landed
            return
        if self.playing is None:
            if self.queue:
                self._start_next(ctx)
            return
        self.playing.t += dt * self.speed * ctx.animation_speed
        if self.playing.t >= SHOW_END:
            self._finish()
            if self.queue:
                self._start_next(ctx)

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        self._sync(ctx)
        busy = {show_key(s) for s in self.queue}
        if self.playing is not None:
            busy.add(show_key(self.playing.show))
        for show in self._recent:
            if show_key(show) not in busy:
                self._draw_crater(surface, ctx, show)
        if self.playing is not None:
            self._draw_show(surface, ctx, self.playing.show, self.playing.t)

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        if self.playing is None:
            ctx.cards.pop("arrival", None)
            return
        show = self.playing.show
        rect = ui.map_rect(ctx)
        width = min(560, rect.w - 40)
        lines: list[tuple[str, tuple[int, int, int], bool]] = []
        for n, line in enumerate(show.text.split("\n")):
            for part in ui.wrap(line, width - 24, theme.SMALL):
                lines.append((part, theme.TEXT if n == 0 else theme.MUTED, False))
        for roll in show.rolls:
            lines.append((f"roll  {roll}", theme.ACCENT, False))
        room = max(4, (int(rect.h * 0.42) - 82) // 17)
        if len(lines) > room:
            more = len(lines) - room + 1
            lines = [*lines[: room - 1], (f"... {more} more lines in the log", theme.MUTED, False)]
        # Clear of the panels, the aimed hex, the scatter path and the blast.
        cam = ctx.camera
        keep = [show.aimed, *show.path, *ring(show.landing, 2)]
        avoid = [(x + rect.x, y + rect.y) for x, y in (cam.hex_to_screen(h) for h in keep)]
        box = ui.place_box(ctx, (width, 40 + 18 + 17 * len(lines) + 24), "arrival", avoid=avoid)
        title = f"Shell {self.playing.index} of {self.playing.of} lands"
        colour = theme.GOOD if show.hit else theme.INCOMING
        inner = ui.draw_panel(surface, box, title, colour)
        ui.text(surface, show.verdict(), (inner.x, inner.y), theme.BODY, colour, True)
        y = inner.y + 20
        for part, c, bold in lines:
            ui.text(surface, part, (inner.x, y), theme.SMALL, c, bold)
            y += 17
        ui.text(
            surface,
            "Space: next shell   Esc: skip all",
            (inner.right, box.bottom - 20),
            theme.SMALL,
            theme.MUTED,
            anchor="topright",
        )
        ctx.cards["arrival"] = box

    # --- drawing one show -----------------------------------------------------------------

    def _draw_show(
        self, surface: pygame.Surface, ctx: UiContext, show: ShellShow, t: float
    ) -> None:
        cam = ctx.camera
        size = max(cam.size, 12)
        ax, ay = cam.hex_to_screen(show.aimed)
        lx, ly = cam.hex_to_screen(show.landing)
        # 1. The aimed hex: a reticle closing in, a shell falling onto it.
        closing = min(1.0, t / AIM_END)
        ring = size * (2.6 - 1.6 * closing)
        pygame.draw.polygon(surface, (255, 255, 255), hex_points(ctx, show.aimed), 3)
        pygame.draw.circle(surface, (0, 0, 0), (round(ax), round(ay)), round(ring), 6)
        pygame.draw.circle(surface, theme.INCOMING, (round(ax), round(ay)), round(ring), 3)
        if t < AIM_END or show.landing != show.aimed:
            # Below the hex: above it the damage floats up over a unit hit there.
            spots = labels.around(ring + 4, "below")
            labels.post_badge(
                ctx, surface, "AIMED HERE", (ax, ay), (60, 60, 70), 12, labels.ARRIVAL, spots
            )
        if t < AIM_END:
            fall = t / AIM_END
            sy = ay - (1 - fall) * size * 8
            pygame.draw.line(surface, (255, 240, 200), (ax, sy - size), (ax, sy), 3)
            pygame.draw.circle(surface, (255, 250, 230), (round(ax), round(sy)), 4)
            return
        # 2. Hit, or the scatter arrow along the straight path (ART-12).
        if show.scattered:
            grow = min(1.0, (t - AIM_END) / (SCATTER_END - AIM_END))
            tip = (ax + (lx - ax) * grow, ay + (ly - ay) * grow)
            pygame.draw.line(surface, (0, 0, 0), (ax, ay), tip, 8)
            pygame.draw.line(surface, theme.ACCENT, (ax, ay), tip, 4)
            angle = math.atan2(ly - ay, lx - ax)
            head = [
                (tip[0] + 12 * math.cos(angle), tip[1] + 12 * math.sin(angle)),
                (tip[0] + 12 * math.cos(angle + 2.5), tip[1] + 12 * math.sin(angle + 2.5)),
                (tip[0] + 12 * math.cos(angle - 2.5), tip[1] + 12 * math.sin(angle - 2.5)),
            ]
            pygame.draw.polygon(surface, theme.ACCENT, head)
            pygame.draw.polygon(surface, (0, 0, 0), head, 2)
            mid = ((ax + tip[0]) / 2, (ay + tip[1]) / 2)
            label = f"2d6 {show.roll} vs {show.to_hit}: miss by {show.margin}, d6 {show.direction}"
            spots = labels.around(10, "above")
            labels.post_badge(ctx, surface, label, mid, (150, 96, 0), 13, labels.ARRIVAL, spots)
            if grow < 1.0:
                return
        elif t < SCATTER_END:
            label = f"HIT: 2d6 {show.roll} vs {show.to_hit}" if not show.automatic else "AUTO HIT"
            spots = labels.around(size * 1.0, "below")
            labels.post_badge(
                ctx, surface, label, (ax, ay), (30, 130, 60), 14, labels.ARRIVAL, spots
            )
        # 3. The blast: damage rings with their values (ART-25).
        if show.lost:
            spots = labels.around(size * 0.9, "below")
            labels.post_badge(
                ctx, surface, "LOST off the map", (lx, ly), (90, 90, 100), 14, labels.ARRIVAL, spots
            )
            return
        blast = min(1.0, (t - SCATTER_END) / (BLAST_END - SCATTER_END)) if t > SCATTER_END else 0
        if t >= SCATTER_END or not show.scattered:
            self._draw_rings(surface, ctx, show, max(blast, 0.15))
        self._draw_crater(surface, ctx, show, arrow=False)
        # 4. Damage floating over the units hit.
        if t >= BLAST_END - 0.6:
            rise = min(1.0, (t - (BLAST_END - 0.6)) / (DAMAGE_END - BLAST_END + 0.6))
            for entry in show.damage:
                h = hex_from(entry.get("hex"))
                if h is None:
                    continue
                ux, uy = cam.hex_to_screen(h)
                y = uy - size * (0.3 + FLOAT_RISE * rise)
                amount = entry.get("damage")
                label = f"-{amount}" if amount is not None else "hit"
                if entry.get("destroyed"):
                    label += "\nDESTROYED"
                spots = (labels.Spot(0, 0), *labels.around(size * 0.5, "above"))
                px = max(14, size // 2) if "\n" not in label else 13
                labels.post_badge(
                    ctx, surface, label, (ux, y), (200, 20, 20), px, labels.ALERT, spots
                )

    def _draw_rings(
        self, surface: pygame.Surface, ctx: UiContext, show: ShellShow, grow: float
    ) -> None:
        """The rings of the landed shell, growing out from the hit hex, with their damage."""
        cam = ctx.camera
        size = cam.size
        lx, ly = cam.hex_to_screen(show.landing)
        rings = show.rings or (0,)
        reach = len(rings) - 1
        shown = min(reach, int(grow * (reach + 1)))
        base = max(rings[0], 1)
        for radius in range(shown, -1, -1):
            hexes = _ring_hexes(show.landing, radius)
            share = rings[radius] / base
            ctx.map_layer.draw_highlight(
                surface, cam, hexes, heat(share), alpha=50 + int(80 * share)
            )
        for radius in range(shown + 1):
            draw_disk_outline(surface, ctx, show.landing, radius, (90, 0, 0), 2)
        ring_labels(surface, ctx, show.landing, rings, 12, labels.ARRIVAL, shown)
        flash = max(0.0, 1.0 - grow * 2)
        if flash > 0:
            pygame.draw.circle(
                surface, (255, 246, 200), (round(lx), round(ly)), round(size * (0.6 + 2 * grow))
            )

    def _draw_crater(
        self, surface: pygame.Surface, ctx: UiContext, show: ShellShow, arrow: bool = True
    ) -> None:
        """Where the shell landed, and (``arrow``) a thin arrow from where it was aimed."""
        cam = ctx.camera
        size = max(cam.size, 10)
        lx, ly = cam.hex_to_screen(show.landing)
        if arrow and show.landing != show.aimed:
            ax, ay = cam.hex_to_screen(show.aimed)
            pygame.draw.circle(
                surface, (255, 255, 255), (round(ax), round(ay)), round(size * 0.5), 2
            )
            dash_line(surface, (250, 250, 250), (ax, ay), (lx, ly), 2, 6)
        if show.lost:
            return
        # A burst in the hex's lower corner, so a unit standing there stays in view.
        cx, cy = lx + size * 0.42, ly + size * 0.42
        points = []
        for k in range(16):
            r = size * (0.3 if k % 2 == 0 else 0.14)
            ang = math.pi * 2 * k / 16
            points.append((cx + r * math.cos(ang), cy + r * math.sin(ang)))
        pygame.draw.polygon(surface, (40, 30, 24), points)
        pygame.draw.polygon(surface, (255, 150, 40), points, 2)
        pygame.draw.polygon(surface, (255, 150, 40), hex_points(ctx, show.landing, 0.96), 2)


def show_key(show: ShellShow) -> tuple[int, int | None, Hex, Hex]:
    return show.turn, show.plot_id, show.aimed, show.landing


def _ring_hexes(centre: Hex, radius: int) -> list[Hex]:
    return [centre] if radius == 0 else ring(centre, radius)
