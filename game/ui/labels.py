"""Map labels placed, not piled: one placer for every label written on the map.

A layer that names something on the map (a shell's arrival turn, a ring's damage,
an announced direction, the half-line, a home edge, a sheet) does not blit its
label: it posts a ``Label`` (``post(ctx, surface, label)``) while it draws the
map, with the point it names (``at``), a ``priority`` and the ``spots`` it may
take around that point. The game screen gathers the labels while the layers
draw the map and places them all at once when the panels of the frame are down:

- The room: the map, less the top bar, the panels, the cards and the hot-seat
  banner of this frame (``ctx.hud``, ``ctx.panels``, ``ctx.cards``:
  ``frame_obstacles``), and less the marks a layer keeps clear (``keep_clear``:
  a pre-designated hex's number). Counters and their names, kept clear with
  ``keep_clear(..., soft=True)``, are avoided when another spot is free, not at
  any price. Drawn after the panels, a label never lies under one, and no leader
  line runs under one either.
- Labels go in order of priority, highest first; then top to bottom, left to
  right, by text. Each takes its first spot clear of the obstacles and of the
  labels placed before it; a spot marked ``leader`` (away from the point it
  names) is joined to that point by a thin line. So the same labels over the
  same panels are placed the same way every frame (no flicker), whatever order
  the layers posted them in, and a label never gives way to a less important one.
- A label with no room is dropped; dropped labels whose points lie near each
  other fold into one "+N" badge, placed like a label after all the others
  (and dropped in turn when even that finds no room).

Labels are drawn with ``widgets.text``, one call per line.

Outside the game screen (a layer drawn alone) no placer runs: ``post`` draws the
label at once at its first spot. The menu's map preview places its own with
``place``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pygame

from game.ui import fonts
from game.ui import widgets as ui
from game.ui.context import UiContext

Colour = tuple[int, int, int]
WHITE: Colour = (255, 255, 255)

# Priorities, highest first: what the player must see now before what the map
# always shows.
ALERT = 90  # danger close, damage on a unit, destroyed
ARRIVAL = 80  # the shell being shown: its roll, its hit, where it was aimed
SHELL = 70  # own shells in flight and their rings
INTEL = 60  # announced directions of the enemy guns, exits to new sheets
HINT = 50  # what a click on the hovered hex does, aircraft altitudes, woods in a line of sight
SETUP = 40  # pre-designated hexes left on each sheet
SIDES = 30  # home edges (MAP-3)
HALF_LINE = 20  # the half-line (MAP-3)
SHEET = 10  # sheet positions and names at far zooms

# Badges: padding around the text, in pixels.
BADGE_PAD = (14, 6)
# Dropped labels whose points lie within this many pixels share one "+N" badge.
FOLD_REACH = 48
FOLD_FILL: Colour = (60, 62, 72)
LEADER: Colour = (236, 238, 242)
LEADER_CASING: Colour = (20, 20, 24)
# Rings of spots around a point: each ring this many pixels farther out than the last.
RING_STEP = 26

# The eight directions around a point, clockwise from above: the offset of the
# spot (unit square) and the point of the label's rectangle that stands there.
COMPASS: dict[str, tuple[float, float, str]] = {
    "above": (0.0, -1.0, "midbottom"),
    "above-right": (0.7, -0.7, "bottomleft"),
    "right": (1.0, 0.0, "midleft"),
    "below-right": (0.7, 0.7, "topleft"),
    "below": (0.0, 1.0, "midtop"),
    "below-left": (-0.7, 0.7, "topright"),
    "left": (-1.0, 0.0, "midright"),
    "above-left": (-0.7, -0.7, "bottomright"),
}
_CLOCKWISE = list(COMPASS)


@dataclass(frozen=True)
class Spot:
    """A place a label may take: the point ``anchor`` of its rectangle (a
    ``pygame.Rect`` attribute: "center", "midbottom"...) at the label's point moved
    by (dx, dy); ``leader``: the label stands away from its point, so a thin line
    joins them."""

    dx: float
    dy: float
    anchor: str = "center"
    leader: bool = False


@dataclass(frozen=True)
class Label:
    """A label of the map: ``text`` (lines split by newlines) naming the point ``at``
    (screen pixels), with the ``spots`` it may take, best first. ``fill`` draws it
    as a badge (a rounded pill of that colour with a white edge); ``halo`` outlines
    the letters instead."""

    text: str
    at: tuple[float, float]
    spots: tuple[Spot, ...]
    priority: int = 0
    px: int = 12
    colour: Colour = WHITE
    fill: Colour | None = None
    halo: Colour | None = None
    bold: bool = True
    edge: Colour | None = WHITE  # the badge's edge

    def lines(self) -> list[str]:
        return self.text.split("\n")

    def size(self) -> tuple[int, int]:
        """Width and height on the screen, badge included."""
        images = [
            fonts.text(line, self.px, self.colour, self.bold, self.halo) for line in self.lines()
        ]
        w = max(image.get_width() for image in images)
        h = sum(image.get_height() for image in images)
        if self.fill is not None:
            return w + BADGE_PAD[0], h + BADGE_PAD[1]
        return w, h

    def rect_at(self, spot: Spot, size: tuple[int, int] | None = None) -> pygame.Rect:
        rect = pygame.Rect((0, 0), size or self.size())
        setattr(rect, spot.anchor, (round(self.at[0] + spot.dx), round(self.at[1] + spot.dy)))
        return rect

    def order(self) -> tuple[object, ...]:
        """The order of placement: priority, then top to bottom, left to right, text
        (then the rest, so that no two different labels tie)."""
        return (
            -self.priority,
            round(self.at[1]),
            round(self.at[0]),
            self.text,
            self.at,
            self.px,
            self.colour,
            self.fill or (),
            self.halo or (),
            self.bold,
            self.edge or (),
            tuple((s.dx, s.dy, s.anchor, s.leader) for s in self.spots),
        )


@dataclass(frozen=True)
class Placed:
    """A label where it was placed (``rect``), with a leader line or not."""

    label: Label
    rect: tuple[int, int, int, int]
    leader: bool

    @property
    def box(self) -> pygame.Rect:
        return pygame.Rect(self.rect)


@dataclass
class Placement:
    """The labels of a frame: placed, dropped (in order of placement), and the "+N"
    badges the dropped ones folded into."""

    placed: list[Placed] = field(default_factory=list)
    dropped: list[Label] = field(default_factory=list)
    folds: list[Placed] = field(default_factory=list)

    def shown(self) -> list[Placed]:
        return [*self.placed, *self.folds]


# --- spots --------------------------------------------------------------------------------


def around(gap: float, first: str = "above", rings: int = 2) -> tuple[Spot, ...]:
    """The eight spots around the point, ``gap`` pixels from it, starting with
    ``first`` (a ``COMPASS`` name) and going on by its neighbours on either side to
    the opposite; then the same again ``RING_STEP`` pixels farther out for each of
    ``rings - 1`` more rings. Every spot but the first has a leader line: a label
    moved from its usual place shows what it names."""
    start = _CLOCKWISE.index(first)
    turn = [0]
    for k in range(1, 4):
        turn += [k, -k]
    turn.append(4)
    spots = []
    for ring in range(rings):
        reach = gap + ring * RING_STEP
        for k in turn:
            ux, uy, anchor = COMPASS[_CLOCKWISE[(start + k) % 8]]
            spots.append(Spot(ux * reach, uy * reach, anchor, bool(spots)))
    return tuple(spots)


def facing(angle: float) -> str:
    """The ``COMPASS`` name nearest to a direction (radians, screen y down)."""
    turns = (math.degrees(angle) + 90) / 45
    return _CLOCKWISE[round(turns) % 8]


def along(
    offsets: Iterable[tuple[float, float]], anchor: str = "center", leader: bool = False
) -> tuple[Spot, ...]:
    """Spots at these offsets from the point, in order (a line of places, such as
    along an edge or beyond an arrow's tip)."""
    return tuple(Spot(dx, dy, anchor, leader) for dx, dy in offsets)


def spread(step: float, count: int) -> list[float]:
    """0, +step, -step, +2 step, -2 step ... (``count`` values): places along a line,
    nearest first."""
    out = [0.0]
    k = 1
    while len(out) < count:
        out.append(k * step)
        if len(out) < count:
            out.append(-k * step)
        k += 1
    return out[:count]


# --- placing ------------------------------------------------------------------------------


def place(
    labels: Iterable[Label],
    bounds: pygame.Rect,
    obstacles: Sequence[pygame.Rect] = (),
    soft: Sequence[pygame.Rect] = (),
) -> Placement:
    """Place the labels (see the module docstring): each whole inside ``bounds``,
    clear of the ``obstacles`` and of each other; clear of the ``soft`` obstacles
    when one of its spots allows it."""
    out = Placement()
    taken: list[pygame.Rect] = []
    hard = [pygame.Rect(r) for r in obstacles if r.w > 0 and r.h > 0]
    gentle = [pygame.Rect(r) for r in soft if r.w > 0 and r.h > 0]
    for label in sorted(set(labels), key=Label.order):
        found = _first_free(label, bounds, hard, gentle, taken)
        if found is None:
            out.dropped.append(label)
            continue
        taken.append(found.box)
        out.placed.append(found)
    for badge in _folds(out.dropped):
        found = _first_free(badge, bounds, hard, gentle, taken)
        if found is not None:
            taken.append(found.box)
            out.folds.append(found)
    return out


def _first_free(
    label: Label,
    bounds: pygame.Rect,
    hard: list[pygame.Rect],
    soft: list[pygame.Rect],
    taken: list[pygame.Rect],
) -> Placed | None:
    size = label.size()
    fallback: Placed | None = None
    for spot in label.spots:
        rect = label.rect_at(spot, size)
        if not bounds.contains(rect) or rect.collidelist(hard) >= 0 or rect.collidelist(taken) >= 0:
            continue
        if spot.leader and any(o.clipline(label.at, leader_end(label, rect)) for o in hard):
            continue  # no leader line runs under a panel
        placed = Placed(label, (rect.x, rect.y, rect.w, rect.h), spot.leader)
        if rect.collidelist(soft) < 0:
            return placed
        if fallback is None:
            fallback = placed
    return fallback


def _folds(dropped: list[Label]) -> list[Label]:
    """One "+N" badge for each group of dropped labels whose points lie near the
    first of the group (groups in order of placement)."""
    groups: list[list[Label]] = []
    for label in dropped:
        for group in groups:
            ax, ay = group[0].at
            if abs(label.at[0] - ax) <= FOLD_REACH and abs(label.at[1] - ay) <= FOLD_REACH:
                group.append(label)
                break
        else:
            groups.append([label])
    return [
        Label(
            f"+{len(group)}",
            group[0].at,
            around(8, "above-right"),
            priority=min(label.priority for label in group),
            px=11,
            fill=FOLD_FILL,
        )
        for group in groups
    ]


# --- drawing ------------------------------------------------------------------------------


def leader_end(label: Label, rect: pygame.Rect) -> tuple[float, float]:
    """Where a leader line from the label's point meets its ``rect``: the nearest point."""
    return (
        min(max(label.at[0], rect.left), rect.right - 1),
        min(max(label.at[1], rect.top), rect.bottom - 1),
    )


def draw_leader(surface: pygame.Surface, label: Label, rect: pygame.Rect) -> None:
    """A thin line from the label's point to the nearest edge of its ``rect``, with a
    dot on the point: light on a dark casing, so it shows over any ground."""
    x, y = leader_end(label, rect)
    dot = (round(label.at[0]), round(label.at[1]))
    pygame.draw.line(surface, LEADER_CASING, label.at, (x, y), 3)
    pygame.draw.circle(surface, LEADER_CASING, dot, 4)
    pygame.draw.line(surface, LEADER, label.at, (x, y), 1)
    pygame.draw.circle(surface, label.fill or label.colour, dot, 3)


def draw_label(surface: pygame.Surface, label: Label, rect: pygame.Rect) -> None:
    """One label in ``rect``: the badge, then the text, a ``widgets.text`` per line."""
    lines = label.lines()
    if label.fill is not None:
        radius = rect.h // 2 if len(lines) == 1 else 6
        pygame.draw.rect(surface, label.fill, rect, border_radius=radius)
        if label.edge is not None:
            pygame.draw.rect(surface, label.edge, rect, 1, border_radius=radius)
    images = [fonts.text(line, label.px, label.colour, label.bold, label.halo) for line in lines]
    y = rect.centery - sum(image.get_height() for image in images) / 2
    for line, image in zip(lines, images, strict=True):
        ui.text(
            surface,
            line,
            (rect.centerx, y),
            label.px,
            label.colour,
            label.bold,
            "midtop",
            label.halo,
        )
        y += image.get_height()


def draw_placement(surface: pygame.Surface, placement: Placement) -> None:
    """The placed labels: every leader line first, so that none crosses a label."""
    shown = placement.shown()
    for placed in shown:
        if placed.leader:
            draw_leader(surface, placed.label, placed.box)
    for placed in shown:
        draw_label(surface, placed.label, placed.box)


def frame_obstacles(ctx: UiContext) -> list[pygame.Rect]:
    """What labels keep clear of: the top bar and the panels of the game screen and of
    the layers, and the information cards (a modal dialog's veil is not one: it
    covers the whole map)."""
    rects = [r for k, r in ctx.panels.items() if k != "dialog"]
    rects += list(ui.hud_rects(ctx).values())
    rects += list(ctx.cards.values())
    return [r for r in rects if isinstance(r, pygame.Rect)]


class LabelPlacer:
    """The labels of one frame of the game screen: ``begin``; the layers ``add`` labels
    (through ``post``) and ``keep_clear`` what they drew while they draw the map;
    ``hold`` when the map is drawn; then ``finish`` places them clear of the panels
    and cards drawn since, and draws them."""

    def __init__(self) -> None:
        self.active = False
        self.labels: list[Label] = []
        self.bounds = pygame.Rect(0, 0, 0, 0)
        self.marks: list[pygame.Rect] = []
        self.soft: list[pygame.Rect] = []
        self.last = Placement()
        self.last_obstacles: list[pygame.Rect] = []
        self._memo: tuple[object, Placement] | None = None

    def begin(self, bounds: pygame.Rect) -> None:
        """A new frame: no labels yet, the map within ``bounds``."""
        self.active = True
        self.labels = []
        self.bounds = pygame.Rect(bounds)
        self.marks = []
        self.soft = []

    def add(self, label: Label) -> None:
        self.labels.append(label)

    def keep_clear(self, rect: pygame.Rect, soft: bool = False) -> None:
        """A mark drawn on the map that labels must not cover (``soft``: should not,
        when they have another spot)."""
        (self.soft if soft else self.marks).append(pygame.Rect(rect))

    def hold(self) -> None:
        """The map is drawn: what is drawn from now on (the panels) posts no label."""
        self.active = False

    def finish(self, surface: pygame.Surface, obstacles: Iterable[pygame.Rect] = ()) -> Placement:
        """Place the frame's labels clear of the ``obstacles`` (the panels) and the
        marks, and draw them; the same labels over the same obstacles are placed once
        and the placement is drawn again."""
        self.active = False
        hard = [*(pygame.Rect(r) for r in obstacles), *self.marks]
        self.last_obstacles = hard
        key = (
            tuple(sorted(set(self.labels), key=Label.order)),
            tuple(self.bounds),
            tuple(tuple(r) for r in hard),
            tuple(tuple(r) for r in self.soft),
        )
        if self._memo is not None and self._memo[0] == key:
            placement = self._memo[1]
        else:
            placement = place(self.labels, self.bounds, hard, self.soft)
            self._memo = (key, placement)
        draw_placement(surface, placement)
        self.last = placement
        return placement


def post(ctx: UiContext, surface: pygame.Surface, label: Label) -> None:
    """Ask for a label on the map: placed with the frame's others when the game
    screen runs a placer, else drawn at once at its first spot."""
    placer = ctx.labels
    if placer is not None and placer.active:
        placer.add(label)
        return
    if label.spots:
        draw_label(surface, label, label.rect_at(label.spots[0]))


def keep_clear(ctx: UiContext, rect: pygame.Rect, soft: bool = True) -> None:
    """Something drawn on the map that the frame's labels keep clear of (``soft``: when
    they have another spot); nothing outside the game screen."""
    placer = ctx.labels
    if placer is not None and placer.active:
        placer.keep_clear(rect, soft)


def post_badge(
    ctx: UiContext,
    surface: pygame.Surface,
    text: str,
    at: tuple[float, float],
    fill: Colour,
    px: int,
    priority: int,
    spots: tuple[Spot, ...],
) -> None:
    """Post a badge (white bold text on a pill of ``fill``) naming the point ``at``."""
    label = Label(text, (float(at[0]), float(at[1])), spots, priority, px, WHITE, fill)
    post(ctx, surface, label)
