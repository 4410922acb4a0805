"""The units layer: counters on the map, selection, reachable hexes and moving by click.

Counters show the side's colour, a type symbol in a NATO-style frame (mech,
vehicle, hover vehicle, infantry, artillery, aircraft; for figures foot, missile
troops, cavalry, monsters and guns), a notch on the side the unit faces and a
strength bar; from hex size ``NAME_SIZE`` on, the short name of the unit on top
is written under it. Only units in the view of the side on screen are drawn: the
layer reads ``ctx.view`` and nothing else (principle 6), and it records the ids
it drew in ``drawn`` so tests can check exactly that.

Moving (SELECT mode, the acting side's own movement): click an own unit to
select it; the hexes it can reach this phase are tinted (blue walking, orange
running, violet off the map edge onto a new sheet) with their MP cost; the hex
under the mouse shows the path and cost. A click on a reachable hex plans the
move: the destination gets six facing handles (greyed where the unit cannot
end with that facing). Click a handle to move with that facing, or click the
destination again (Enter) to move with the facing shown; Q/E turn the planned
facing, right click or Esc drops the plan, H holds the unit where it is.
Until it is sent a planned move can be undone (Backspace, Ctrl+Z or the Undo
button beside the path's label): the unit stays selected, ready for another
plan. A move sent to the engine is final (the log is the game).
Clicking the unit's own hex plans a turn in place. Every move goes to the
engine as a ``Move`` or ``Hold``; the engine's reason shows when it refuses.

Moves are shown, not jumped: when a unit moves (an own move as it is sent, an
enemy's as the side saw it) its counter slides hex by hex along its route, and
the last move of each enemy unit stays on the map as a thin trail in its side's
colour that fades over about a turn (``game.ui.unit_motion`` decides what plays
and what a side saw; a click or a key ends the moves on show at once).

Reachable hexes, their costs and routes are the engine's own
(``game.state.queries.movement_reach`` over the view, the search the legal
moves come from), asked once per selection and view (``reach``), never per
frame; a counter's strength bar is ``game.state.queries.strength``. Counters
are pre-rendered per zoom, facing and strength.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

from game.board.movement import MovementError, Reach
from game.hexmath import DIRECTION_NAMES, Hex, hex_to_pixel
from game.state import Hold, Move, Unit
from game.state.queries import Strength, can_move, movement_reach, strength
from game.state.systems import has_missile_weapons
from game.ui import fonts, labels, theme
from game.ui.context import SELECT, UiContext
from game.ui.unit_motion import MoveShow, UnitMotion, trail_fade
from game.ui.widgets import Button, clicked, text_width

WALK_TINT = (70, 160, 235)
RUN_TINT = (245, 150, 45)
EXIT_TINT = (170, 90, 220)
PATH_CASING = (25, 28, 32)
PATH_LINE = (255, 236, 150)
HANDLE_OK = (250, 250, 245)
HANDLE_OFF = (120, 120, 120)
COUNTER_EDGE = (18, 22, 28)
SYMBOL_INK = (250, 250, 250)
READY_DOT = (255, 200, 60)
WRECK = (84, 84, 84)
NEUTRAL = (120, 120, 130)

UNDO_LABEL = "Undo move (Backspace)"

# Hex sizes (px) from which costs are written in reachable hexes and facing handles show.
COST_LABEL_SIZE = 18
HANDLE_SIZE = 12
# Hex size (px) from which a counter carries its unit's short name.
NAME_SIZE = 36


def facing_angle(direction: int) -> float:
    """Screen angle in radians of hex direction 1..6 (1 north, clockwise; y down)."""
    return math.radians(-90 + 60 * (direction - 1))


def unit_symbol(unit: Unit) -> str:
    """Which type symbol a counter shows: the unit's type in its own system's words
    (BattleTech's profile type and motive, BATTLESYSTEM's and Warhammer's troop type,
    the toy soldiers' type), missile troops by the missile weapons the engine shoots
    with (``has_missile_weapons``)."""
    kind = unit.kind
    if kind == "aerospace":  # an aircraft stays an aircraft with a battery aboard (ART-36)
        return "aerospace"
    if unit.battery is not None:
        return "artillery"
    if unit.system == "battletech":
        if kind == "vehicle" and unit.profile.get("motive") == "hover":
            return "hover"
        return kind if kind in ("mech", "vehicle", "infantry") else "vehicle"
    if kind in ("gun", "vehicle", "cavalry", "monster"):
        return kind
    return "missile" if has_missile_weapons(unit) else "foot"


SYMBOL_NAMES = {
    "mech": "mech",
    "vehicle": "vehicle",
    "hover": "hover vehicle",
    "infantry": "infantry",
    "artillery": "artillery",
    "aerospace": "aircraft",
    "foot": "foot",
    "missile": "missile troops",
    "cavalry": "cavalry",
    "monster": "monster",
    "gun": "gun",
}

# Words left out of a counter's short name when it has to be shortened.
_SMALL_WORDS = {"of", "the", "and", "de", "von"}


def short_name(name: str, px: int, width: int) -> str:
    """The unit's name as it fits under its counter in ``width`` pixels at font size
    ``px``: a note in brackets dropped, then the words after the first cut to their
    initials ("Highland Long Tom" -> "Highland LT"), then letters cut off."""
    base = name.split("(")[0].strip() or name

    def fits(text: str) -> bool:
        return fonts.text(text, px, SYMBOL_INK, bold=True).get_width() <= width

    if fits(base):
        return base
    words = base.split()
    first, rest = words[0], [w for w in words[1:] if w.lower() not in _SMALL_WORDS]
    short = f"{first} {''.join(w[0].upper() for w in rest)}".strip()
    while len(short) > 1 and not fits(short):
        short = short[:-2] + "."
    return short


def strength_colour(fraction: float) -> tuple[int, int, int]:
    if fraction >= 0.66:
        return (90, 200, 90)
    if fraction >= 0.33:
        return (235, 200, 60)
    return (225, 70, 50)


# --- counters ------------------------------------------------------------------------


def _draw_symbol(
    surf: pygame.Surface, symbol: str, box: pygame.Rect, ink: tuple[int, int, int]
) -> None:
    """A NATO-style type symbol in its frame."""
    w = max(1, round(box.height / 9))
    pygame.draw.rect(surf, ink, box, w)
    inner = box.inflate(-2 * w - 2, -2 * w - 2)
    cx, cy = inner.center
    if symbol == "infantry":
        pygame.draw.line(surf, ink, box.topleft, box.bottomright, w)
        pygame.draw.line(surf, ink, box.bottomleft, box.topright, w)
    elif symbol in ("vehicle", "hover"):
        track = inner.inflate(-inner.width * 0.25, -inner.height * 0.35)
        pygame.draw.ellipse(surf, ink, track, w)
        if symbol == "hover":
            y = inner.bottom - 1
            pygame.draw.line(surf, ink, (track.left, y), (track.right, y), w)
    elif symbol == "mech":
        # A walker: body and two legs.
        top = inner.top + inner.height * 0.18
        hip = inner.top + inner.height * 0.5
        foot = inner.bottom - inner.height * 0.08
        half = inner.width * 0.22
        pygame.draw.rect(
            surf, ink, pygame.Rect(cx - half, top, 2 * half, hip - top), 0, max(1, w // 2)
        )
        pygame.draw.line(surf, ink, (cx - half * 0.6, hip), (cx - half * 1.5, foot), w + 1)
        pygame.draw.line(surf, ink, (cx + half * 0.6, hip), (cx + half * 1.5, foot), w + 1)
    elif symbol == "artillery":
        pygame.draw.circle(surf, ink, (cx, cy), max(2, inner.height * 0.28))
    elif symbol == "gun":
        pygame.draw.circle(surf, ink, (cx - inner.width * 0.15, cy), max(2, inner.height * 0.22))
        pygame.draw.line(surf, ink, (cx, cy), (inner.right - 1, inner.top + 1), w + 1)
    elif symbol == "aerospace":
        # NATO fixed wing: a bow tie of two wings on the fuselage.
        dx, dy = inner.width * 0.42, inner.height * 0.38
        pygame.draw.polygon(surf, ink, [(cx, cy), (cx - dx, cy - dy), (cx - dx, cy + dy)])
        pygame.draw.polygon(surf, ink, [(cx, cy), (cx + dx, cy - dy), (cx + dx, cy + dy)])
    elif symbol == "cavalry":
        # NATO cavalry: one slash across the frame.
        pygame.draw.line(surf, ink, box.bottomleft, box.topright, w + 1)
    elif symbol == "missile":
        # A drawn bow with its arrow.
        bow = pygame.Rect(0, 0, inner.width * 0.5, inner.height * 0.95)
        bow.midright = (cx + inner.width * 0.05, cy)
        pygame.draw.arc(surf, ink, bow, -math.pi / 2, math.pi / 2, w)
        pygame.draw.line(surf, ink, (bow.centerx, bow.top), (bow.centerx, bow.bottom - 1), 1)
        pygame.draw.line(surf, ink, (inner.left + 1, cy), (inner.right - 1, cy), w)
        head = inner.right - 1
        pygame.draw.polygon(
            surf,
            ink,
            [(head + 1, cy), (head - w * 2 - 2, cy - w - 2), (head - w * 2 - 2, cy + w + 2)],
        )
    elif symbol == "monster":
        # Claws: three strokes raking down.
        for k in (-1, 0, 1):
            x = cx + k * inner.width * 0.25
            pygame.draw.line(
                surf,
                ink,
                (x + inner.width * 0.1, inner.top),
                (x - inner.width * 0.1, inner.bottom),
                w + 1,
            )
    else:  # foot: crossed blades
        pygame.draw.line(surf, ink, box.topleft, box.bottomright, w)
        pygame.draw.line(surf, ink, box.bottomleft, box.topright, w)
        pygame.draw.line(surf, ink, (cx, box.top), (cx, box.bottom), w)


def render_counter(
    size: int,
    colour: tuple[int, int, int],
    symbol: str,
    facing: int | None,
    strength: float,
    ready: bool = False,
    hidden: bool = False,
    wreck: bool = False,
    own: bool = False,
) -> pygame.Surface:
    """One counter for hex size ``size``; the surface is centred on the hex centre.
    ``own``: a unit of the side watching, framed in white; its colour stays its side's."""
    side = max(16, round(size * 1.25))
    extent = side + max(6, round(size * 0.5))
    surf = pygame.Surface((extent, extent), pygame.SRCALPHA)
    c = extent / 2
    fill = WRECK if wreck else colour
    if size < 12:
        # Far zooms: a disc with a facing tick.
        radius = max(4, round(size * 0.8))
        pygame.draw.circle(surf, fill, (c, c), radius)
        pygame.draw.circle(surf, COUNTER_EDGE, (c, c), radius, 1)
        if own and not wreck:
            pygame.draw.circle(surf, theme.OWN_FRAME, (c, c), radius + 2, 2)
        if facing is not None and not wreck:
            a = facing_angle(facing)
            tip = (c + math.cos(a) * (radius + 2), c + math.sin(a) * (radius + 2))
            pygame.draw.line(surf, SYMBOL_INK, (c, c), tip, 2)
        if hidden:
            surf.set_alpha(150)
        return surf
    rect = pygame.Rect(0, 0, side, side)
    rect.center = (round(c), round(c))
    radius = max(2, side // 8)
    if facing is not None and not wreck:
        # The notch: a wedge on the side the unit faces, under the counter's edge.
        a = facing_angle(facing)
        reach = side * 0.5 + max(3, size * 0.2)
        spread = math.radians(28)
        base = side * 0.36
        tip = (c + math.cos(a) * reach, c + math.sin(a) * reach)
        left = (c + math.cos(a - spread) * base, c + math.sin(a - spread) * base)
        right = (c + math.cos(a + spread) * base, c + math.sin(a + spread) * base)
        pygame.draw.polygon(surf, COUNTER_EDGE, [tip, left, right])
        inner_tip = (c + math.cos(a) * (reach - 2.5), c + math.sin(a) * (reach - 2.5))
        pygame.draw.polygon(surf, (255, 240, 200), [inner_tip, left, right])
    shade = theme.mix(fill, (0, 0, 0), 0.35)
    pygame.draw.rect(surf, shade, rect.move(0, max(1, side // 24)), 0, radius)
    pygame.draw.rect(surf, fill, rect, 0, radius)
    pygame.draw.rect(surf, COUNTER_EDGE, rect, max(1, side // 22), radius)
    if own and not wreck:
        pygame.draw.rect(surf, theme.OWN_FRAME, rect.inflate(4, 4), 2, radius + 2)
    box = pygame.Rect(0, 0, round(side * 0.64), round(side * 0.42))
    box.center = (rect.centerx, rect.top + round(side * 0.38))
    _draw_symbol(surf, symbol, box, (200, 200, 200) if wreck else SYMBOL_INK)
    if not wreck:
        bar = pygame.Rect(0, 0, round(side * 0.7), max(2, round(side * 0.1)))
        bar.midbottom = (rect.centerx, rect.bottom - max(2, round(side * 0.1)))
        pygame.draw.rect(surf, (20, 20, 20), bar.inflate(2, 2))
        filled = bar.copy()
        filled.width = max(0, round(bar.width * min(max(strength, 0.0), 1.0)))
        pygame.draw.rect(surf, strength_colour(strength), filled)
    if ready:
        r = max(2, round(side * 0.1))
        pygame.draw.circle(surf, COUNTER_EDGE, (rect.right - r, rect.top + r), r + 1)
        pygame.draw.circle(surf, READY_DOT, (rect.right - r, rect.top + r), r)
    if hidden:
        surf.set_alpha(140)
    return surf


# --- trails ----------------------------------------------------------------------------


def trail_width(size: int) -> int:
    return max(3, size // 7)


def _trail_lines(
    surface: pygame.Surface,
    runs: list[list[tuple[float, float]]],
    side: str,
    size: int,
) -> None:
    """A thin line in the side's colour through the hexes a unit was seen on, a dot
    in each, a ring where it started."""
    colour = theme.mix(theme.SIDE_COLOURS.get(side, NEUTRAL), (255, 255, 255), 0.15)
    width = trail_width(size)
    dot = max(2, width)
    for points in runs:
        if len(points) > 1:
            pygame.draw.lines(surface, PATH_CASING, False, points, width + 2)
            pygame.draw.lines(surface, colour, False, points, width)
        for p in points[1:]:
            pygame.draw.circle(surface, PATH_CASING, p, dot + 1)
            pygame.draw.circle(surface, colour, p, dot)
    if runs and runs[0]:
        pygame.draw.circle(surface, PATH_CASING, runs[0][0], dot + 3, 2)
        pygame.draw.circle(surface, colour, runs[0][0], dot + 2, 1)


def draw_trail_swatch(surface: pygame.Surface, rect: pygame.Rect, side: str) -> None:
    """A trail of ``side`` across ``rect``, as the map draws one (the legend's sample)."""
    y = rect.centery
    _trail_lines(surface, [[(rect.left + 6, y), (rect.right, y)]], side, 12)


def _render_trail(show: MoveShow, size: int) -> tuple[pygame.Surface, tuple[float, float]]:
    """A trail drawn once per zoom on its own surface, and where that surface lies
    from the centre of the trail's first hex (so it is faded by one alpha)."""
    origin = hex_to_pixel(show.nodes[0][0], size)
    runs = [[hex_to_pixel(h, size) for h in run] for run in show.runs()]
    xs = [p[0] for run in runs for p in run]
    ys = [p[1] for run in runs for p in run]
    pad = trail_width(size) + 8
    left, top = min(xs) - pad, min(ys) - pad
    image = pygame.Surface((max(xs) - left + pad, max(ys) - top + pad), pygame.SRCALPHA)
    local = [[(x - left, y - top) for x, y in run] for run in runs]
    _trail_lines(image, local, show.side, size)
    return image, (left - origin[0], top - origin[1])


# --- the layer -------------------------------------------------------------------------


@dataclass
class Plan:
    """A move waiting for its facing and confirmation."""

    unit: str
    to: Hex
    facing: int


@dataclass
class _Drawn:
    """A unit of the current view with what drawing it needs."""

    unit: Unit
    hex: Hex | None
    colour: tuple[int, int, int]
    symbol: str
    strength: Strength


class UnitsLayer:
    """Counters, selection, reachable hexes and moves (see the module docstring)."""

    def __init__(self, ctx: UiContext | None = None) -> None:
        self.plan: Plan | None = None
        self.drawn: list[str] = []  # unit ids drawn in the last frame
        self._view_seen: object = None  # the view the tables below were built from
        self._side: str | None = None
        self._units: list[_Drawn] = []
        self._by_hex: dict[Hex, list[_Drawn]] = {}
        # Units of the view on no hex (an aircraft off the map): drawn only on their way out.
        self._elsewhere: list[_Drawn] = []
        self.trails_drawn: dict[str, int] = {}  # unit id -> alpha of its trail, last frame
        self._counters: dict[tuple[Any, ...], pygame.Surface] = {}
        self._reach_key: tuple[Any, ...] | None = None
        self._reach: Reach | None = None
        self._movable: tuple[object, list[str]] = (None, [])
        # The selected unit's reach split for drawing: (reach, costs, walked, ran, exits).
        self._parts: tuple[Any, ...] = (None, {}, [], [], set())
        # Beside the planned path's label while a plan waits (placed each frame).
        self.undo_button = Button(pygame.Rect(0, 0, 0, 0), UNDO_LABEL)
        self._label_rect: pygame.Rect | None = None  # the planned path's label, last drawn
        # Moves on show and the enemy units' trails (game/ui/unit_motion.py).
        self.motion = UnitMotion()
        if ctx is not None:
            self.motion.follow(ctx.view)  # the game as it opens: what comes after it plays
        self.drawn_at: dict[str, tuple[int, int]] = {}  # unit id -> counter centre, last frame
        self._trail_images: dict[tuple[Any, ...], tuple[pygame.Surface, Hex]] = {}

    # --- help ----------------------------------------------------------------------

    def keys(self) -> list[tuple[str, str]]:
        return [
            ("Left click unit", "select it (own units show where they can move)"),
            ("Left click hex", "plan a move there; click again or Enter to move"),
            ("Click a facing handle", "move and end facing that way"),
            ("Q / E", "turn the planned facing left / right"),
            ("Backspace / Ctrl+Z", "undo the planned move before it is sent"),
            ("Right click / Esc", "drop the planned move, then the selection"),
            ("H", "hold: the selected unit stays where it is"),
            ("Tab / Shift+Tab", "next / previous own unit"),
            ("C", "centre the map on the selected unit"),
            ("Click / any key (units moving)", "end the moves on show at once"),
        ]

    # --- what the view holds ---------------------------------------------------------

    def _sync(self, ctx: UiContext) -> None:
        """Rebuild the per-view tables when the view changed (after a command or a
        hand-over); a new side on screen drops everything of the old one."""
        if ctx.view is self._view_seen:
            return
        if ctx.view.side != self._side:
            self.reset(ctx)
            self._side = ctx.view.side
        self._view_seen = ctx.view
        self._units = []
        self._by_hex = {}
        self._elsewhere = []
        for unit in ctx.view.units.values():
            h = unit.hex
            colour = theme.SIDE_COLOURS.get(unit.side, NEUTRAL)
            drawn = _Drawn(unit, h, colour, unit_symbol(unit), strength(unit))
            if h is None:
                if not unit.destroyed:
                    self._elsewhere.append(drawn)
                continue
            self._units.append(drawn)
            self._by_hex.setdefault(h, []).append(drawn)
        # Living units above wrecks in the same hex.
        for group in self._by_hex.values():
            group.sort(key=lambda d: not d.unit.destroyed)
        if self.plan is not None and not self.can_move_now(ctx, self.plan.unit):
            self.plan = None
        self.motion.follow(ctx.view)

    @property
    def busy(self) -> bool:
        """A move is on show or waits its turn (the AI waits for it, as for arrivals)."""
        return self.motion.busy

    def reset(self, ctx: UiContext) -> None:
        """Forget the selection, plan and caches (a hand-over to the other side)."""
        self.plan = None
        self._reach = None
        self._reach_key = None
        self._units = []
        self._by_hex = {}
        self._view_seen = None
        self.drawn = []
        self.motion.reset()

    def units_at(self, ctx: UiContext, h: Hex) -> list[Unit]:
        """Units of the view in a hex (wrecks last)."""
        self._sync(ctx)
        return [d.unit for d in self._by_hex.get(h, [])]

    def living_at(self, ctx: UiContext, h: Hex) -> Unit | None:
        for unit in self.units_at(ctx, h):
            if not unit.destroyed:
                return unit
        return None

    def strength_of(self, ctx: UiContext, unit_id: str) -> Strength:
        """What is left of a unit of the view (``game.state.queries.strength``)."""
        self._sync(ctx)
        for d in self._units:
            if d.unit.id == unit_id:
                return d.strength
        unit = ctx.view.units.get(unit_id)
        return strength(unit) if unit is not None else Strength(0.0, "")

    def can_move_now(self, ctx: UiContext, unit_id: str | None) -> bool:
        """The side on screen may move this unit now (its movement turn, played by a human)."""
        view = ctx.view
        unit = ctx.own_unit(unit_id)
        if unit is None or view.phase != "movement" or view.acting != view.side:
            return False
        if view.pending_sheet is not None or not ctx.session.human_to_act():
            return False
        # The engine's own test (alive, on the board, not hidden, with an allowance).
        return not unit.moved and can_move(unit)

    def movable_units(self, ctx: UiContext) -> list[str]:
        """Own units that may still move now, in the view's order (worked out once a view)."""
        if self._movable[0] is not ctx.view:
            movable = [uid for uid in ctx.view.units if self.can_move_now(ctx, uid)]
            self._movable = (ctx.view, movable)
        return list(self._movable[1])

    def reach(self, ctx: UiContext) -> Reach | None:
        """Where the selected unit can go now, computed once per selection and view."""
        uid = ctx.selected
        if not self.can_move_now(ctx, uid):
            return None
        assert uid is not None
        view = ctx.view
        key = (uid, view)
        if key != self._reach_key:
            self._reach_key = key
            self._reach = None
            try:
                self._reach = movement_reach(view, view.units[uid])
            except MovementError as exc:
                ctx.notify(str(exc), error=True)
        return self._reach

    # --- input -----------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        self._sync(ctx)
        if event.type == pygame.MOUSEMOTION:
            return False
        if ctx.mode != SELECT:
            return False
        if clicked(event) and self.plan is not None and self.undo_button.hit(event.pos):
            return self.undo_plan(ctx)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            return self._click(ctx, event.pos)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 3:
            if self.plan is not None:
                self.plan = None
                return True
            if ctx.selected is not None or ctx.inspected:
                ctx.selected = None
                ctx.inspected = None
                return True
            return False
        if event.type == pygame.KEYDOWN:
            return self._key(ctx, event)
        return False

    def _key(self, ctx: UiContext, event: pygame.event.Event) -> bool:
        key = event.key
        if key == pygame.K_ESCAPE and self.plan is not None:
            self.plan = None
            return True
        if key == pygame.K_BACKSPACE or (key == pygame.K_z and event.mod & pygame.KMOD_CTRL):
            if self.plan is not None:
                return self.undo_plan(ctx)
            if self.reach(ctx) is not None:
                ctx.notify("no planned move to undo: a move already made is final")
                return True
            return False
        if key in (pygame.K_q, pygame.K_e) and self.plan is not None:
            step = -1 if key == pygame.K_q else 1
            for k in range(1, 7):
                facing = (self.plan.facing - 1 + step * k) % 6 + 1
                if self._facing_possible(ctx, facing):
                    self.plan.facing = facing
                    break
            return True
        if (
            key in (pygame.K_RETURN, pygame.K_KP_ENTER)
            and self.plan is not None
            and not event.mod & pygame.KMOD_CTRL
        ):
            self.commit(ctx)
            return True
        if key == pygame.K_h and ctx.selected is not None:
            self.hold(ctx)
            return True
        if key == pygame.K_TAB:
            self.cycle(ctx, -1 if event.mod & pygame.KMOD_SHIFT else 1)
            return True
        if key == pygame.K_c and ctx.selected is not None:
            unit = ctx.view.units.get(ctx.selected)
            if unit is not None and unit.hex is not None:
                ctx.camera.centre_on(unit.hex)
            return True
        return False

    def _click(self, ctx: UiContext, pos: tuple[int, int]) -> bool:
        h = ctx.camera.screen_to_hex(*pos)
        if self.plan is not None:
            facing = self._handle_at(ctx, pos)
            if facing is not None:
                if self._facing_possible(ctx, facing):
                    self.plan.facing = facing
                    self.commit(ctx)
                else:
                    ctx.notify(f"cannot end this move facing {DIRECTION_NAMES[facing]}", error=True)
                return True
            if h == self.plan.to:
                self.commit(ctx)
                return True
        unit = self.living_at(ctx, h)
        selected = ctx.selected
        if unit is not None and unit.side == ctx.side and unit.id != selected:
            self.select(ctx, unit.id)
            return True
        reach = self.reach(ctx)
        if reach is not None and selected is not None:
            if h == reach.start:
                turn = next((f for f in range(1, 7) if reach.route(h, f) is not None), None)
                if turn is not None:
                    self.plan = Plan(selected, h, reach.facing)
                    return True
            elif h in reach:
                self.plan = Plan(selected, h, reach[h].facing)
                return True
        if unit is not None:
            # An enemy (or an own unit that cannot move now): show it in the unit panel.
            ctx.inspected = unit.id
            if unit.side == ctx.side:
                self.select(ctx, unit.id)
            return True
        if self.plan is not None:
            self.plan = None
            return True
        if selected is not None or ctx.inspected:
            ctx.selected = None
            ctx.inspected = None
            return True
        return False

    def select(self, ctx: UiContext, unit_id: str | None) -> None:
        ctx.selected = unit_id
        ctx.inspected = None
        self.plan = None

    def cycle(self, ctx: UiContext, step: int = 1) -> None:
        """Select the next own unit (those that may move now first), centring on it."""
        candidates = self.movable_units(ctx) or [
            u.id for u in ctx.view.own_units() if u.hex is not None and not u.destroyed
        ]
        if not candidates:
            return
        if ctx.selected in candidates:
            k = (candidates.index(ctx.selected) + step) % len(candidates)
        else:
            k = 0 if step > 0 else len(candidates) - 1
        self.select(ctx, candidates[k])
        h = ctx.view.units[candidates[k]].hex
        if h is not None:
            ctx.camera.centre_on(h)

    def _facing_possible(self, ctx: UiContext, facing: int) -> bool:
        if self.plan is None:
            return False
        reach = self.reach(ctx)
        return reach is not None and reach.route(self.plan.to, facing) is not None

    def undo_plan(self, ctx: UiContext) -> bool:
        """Drop the planned move before it is sent; the unit stays selected."""
        if self.plan is None:
            return False
        self.plan = None
        ctx.notify("planned move undone")
        return True

    def commit(self, ctx: UiContext) -> bool:
        """Send the planned move to the engine."""
        plan = self.plan
        if plan is None:
            return False
        self.plan = None
        reach = self.reach(ctx)
        route = reach.route(plan.to, plan.facing) if reach is not None else None
        if route is not None:
            self.motion.plan(plan.unit, route)  # the counter slides along the planned path
        if ctx.submit(Move(ctx.side, plan.unit, plan.to, plan.facing)):
            return True
        self.motion.planned.pop(plan.unit, None)
        return False

    def hold(self, ctx: UiContext) -> bool:
        """The selected unit holds its position this movement phase."""
        if not self.can_move_now(ctx, ctx.selected):
            ctx.notify("no unit of yours to hold now: select one that has not moved", error=True)
            return False
        self.plan = None
        return ctx.submit(Hold(ctx.side, ctx.selected))  # type: ignore[arg-type]

    def _handle_centres(self, ctx: UiContext) -> dict[int, tuple[float, float]]:
        if self.plan is None or ctx.camera.size < HANDLE_SIZE:
            return {}
        x, y = ctx.camera.hex_to_screen(self.plan.to)
        r = ctx.camera.size * 0.62
        return {
            d: (x + math.cos(facing_angle(d)) * r, y + math.sin(facing_angle(d)) * r)
            for d in range(1, 7)
        }

    def _handle_at(self, ctx: UiContext, pos: tuple[int, int]) -> int | None:
        grab = max(6.0, ctx.camera.size * 0.26)
        for d, (x, y) in self._handle_centres(ctx).items():
            if (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= grab * grab:
                return d
        return None

    # --- frame -----------------------------------------------------------------------

    def update(self, dt: float, ctx: UiContext) -> None:
        self._sync(ctx)
        self.motion.advance(dt, ctx.animation_speed)
        if self.plan is not None and self.plan.unit != ctx.selected:
            self.plan = None
        if ctx.selected is not None and ctx.mode == SELECT:
            # The selected unit has moved and the side's next move has come: the next
            # unit that may move is selected, ready for its orders.
            movable = self.movable_units(ctx)
            own = ctx.own_unit(ctx.selected)
            if movable and ctx.selected not in movable and own is not None and own.moved:
                self.select(ctx, movable[0])

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        self._sync(ctx)
        camera = ctx.camera
        reach = self.reach(ctx)
        if ctx.selected is not None:
            unit = ctx.view.units.get(ctx.selected)
            h = unit.hex if unit is not None else None
            if h is not None:
                ctx.map_layer.draw_highlight(
                    surface,
                    camera,
                    [h],
                    theme.HIGHLIGHT,
                    50,
                    outline=theme.HIGHLIGHT,
                    outline_width=3,
                )
        inspected = ctx.inspected
        if inspected and inspected in ctx.view.units:
            h = ctx.view.units[inspected].hex
            if h is not None:
                ctx.map_layer.draw_highlight(
                    surface, camera, [h], (255, 255, 255), 30, outline=(255, 255, 255)
                )
        if reach is not None and ctx.mode == SELECT:
            self._draw_reach(surface, ctx, reach)
        self._draw_trails(surface, ctx)
        self._draw_counters(surface, ctx)
        if reach is not None and ctx.mode == SELECT:
            self._draw_path(surface, ctx, reach)

    def _draw_reach(self, surface: pygame.Surface, ctx: UiContext, reach: Reach) -> None:
        camera = ctx.camera
        if self._parts[0] is not reach:
            costs = reach.costs()
            walk = reach.mover.walk_mp
            exits = set(reach.exits()) if len(costs) else set()
            costs.pop(reach.start, None)  # the unit's own hex: under its counter
            walked = [h for h, c in costs.items() if c <= walk and h not in exits]
            ran = [h for h, c in costs.items() if c > walk and h not in exits]
            self._parts = (reach, costs, walked, ran, exits)
        _, costs, walked, ran, exits = self._parts
        layer = ctx.map_layer
        layer.draw_highlight(surface, camera, walked, WALK_TINT, 64, outline=None)
        layer.draw_highlight(surface, camera, ran, RUN_TINT, 72, outline=None)
        if exits:
            layer.draw_highlight(surface, camera, exits, EXIT_TINT, 110, outline=EXIT_TINT)
        if camera.size >= COST_LABEL_SIZE:
            px = max(11, camera.size // 2)
            w, hgt = camera.viewport
            for h, c in costs.items():
                x, y = camera.hex_to_screen(h)
                if -20 <= x <= w + 20 and -20 <= y <= hgt + 20:
                    label = fonts.text(str(c), px, (255, 255, 255), bold=True, halo=(30, 30, 30))
                    at = label.get_rect(center=(round(x), round(y)))
                    fonts.blit(surface, label, at, belongs_to=fonts.HEX_MARKS)

    def _draw_counters(self, surface: pygame.Surface, ctx: UiContext) -> None:
        camera = ctx.camera
        size = camera.size
        w, h = camera.viewport
        movable = set(self.movable_units(ctx))
        drawn: list[str] = []
        at: dict[str, tuple[int, int]] = {}
        moving: list[tuple[_Drawn, tuple[MoveShow, int, float]]] = []
        for d in self._elsewhere:
            shown = self.motion.showing(d.unit.id)
            if shown is not None:
                moving.append((d, shown))
        for hx, group in self._by_hex.items():
            standing = []
            for d in group:
                shown = self.motion.showing(d.unit.id)
                if shown is None:
                    standing.append(d)
                else:
                    moving.append((d, shown))
            x, y = camera.hex_to_screen(hx)
            if not standing or not (
                -2 * size <= x <= w + 2 * size and -2 * size <= y <= h + 2 * size
            ):
                continue
            for k, d in enumerate(reversed(standing)):
                facing = d.unit.facing
                if self.plan is not None and d.unit.id == self.plan.unit and self.plan.to == hx:
                    facing = self.plan.facing  # turning in place: show the planned facing
                image = self._counter(ctx, d, facing, d.unit.id in movable)
                shift = k * max(2, size // 8)  # a wreck under a living unit peeks out
                centre = (round(x + shift), round(y - shift))
                counter = surface.blit(image, image.get_rect(center=centre))
                drawn.append(d.unit.id)
                at[d.unit.id] = centre
                # The map's labels stand clear of the counters where they can.
                labels.keep_clear(ctx, counter)
            if size >= NAME_SIZE:
                self._draw_name(surface, standing[0].unit, size, (x, y))
                name = pygame.Rect(0, 0, round(size * 1.9), max(10, size // 3) + 6)
                name.midtop = (round(x), round(y + max(16, size * 1.25) / 2))
                labels.keep_clear(ctx, name)
        # Units on the move (or waiting for their turn to be shown), over the others.
        for d, (show, k, share) in moving:
            here, facing = show.nodes[k]
            there = show.nodes[min(k + 1, len(show.nodes) - 1)][0]
            (xa, ya), (xb, yb) = camera.hex_to_screen(here), camera.hex_to_screen(there)
            x, y = xa + (xb - xa) * share, ya + (yb - ya) * share
            if share > 0:
                facing = show.nodes[k + 1][1]  # the facing it enters the next hex with
            image = self._counter(ctx, d, facing, False)
            centre = (round(x), round(y))
            surface.blit(image, image.get_rect(center=centre))
            drawn.append(d.unit.id)
            at[d.unit.id] = centre
            if size >= NAME_SIZE:
                self._draw_name(surface, d.unit, size, (x, y))
        self.drawn = drawn
        self.drawn_at = at

    def _counter(self, ctx: UiContext, d: _Drawn, facing: int, ready: bool) -> pygame.Surface:
        """The counter of a unit of the view, pre-rendered per zoom, facing and strength."""
        unit = d.unit
        key = (
            ctx.camera.size,
            d.colour,
            d.symbol,
            facing,
            round(d.strength.share * 20),
            ready,
            unit.hidden,
            unit.destroyed,
            unit.side == ctx.view.side,
        )
        image = self._counters.get(key)
        if image is None:
            if len(self._counters) > 2000:
                self._counters.clear()
            image = render_counter(key[0], d.colour, d.symbol, facing, d.strength.share, *key[5:])
            self._counters[key] = image
        return image

    # --- trails --------------------------------------------------------------------------

    def _draw_trails(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """The last move of each enemy unit the side saw, fading over about a turn;
        the move on show leaves its trail behind the counter as it goes."""
        view, camera = ctx.view, ctx.camera
        shown: set[tuple[Any, ...]] = set()
        self.trails_drawn = {}
        for show in self.motion.trails_for(view):
            fade = trail_fade(show, view)
            if fade <= 0:
                continue
            key = (show, camera.size)
            shown.add(key)
            cached = self._trail_images.get(key)
            if cached is None:
                cached = _render_trail(show, camera.size)
                self._trail_images[key] = cached
            image, (dx, dy) = cached
            x, y = camera.hex_to_screen(show.nodes[0][0])
            alpha = round(40 + 200 * fade)
            image.set_alpha(alpha)
            self.trails_drawn[show.unit] = alpha
            surface.blit(image, (round(x + dx), round(y + dy)))
        for key in [k for k in self._trail_images if k not in shown]:
            del self._trail_images[key]
        playing = self.motion.playing
        if playing is not None and (view.table or playing.side != view.side):
            k, share = playing.at(self.motion.t)
            points = [camera.hex_to_screen(h) for h in playing.hexes[: k + 1]]
            if k + 1 < len(playing.nodes):
                (xa, ya), (xb, yb) = points[-1], camera.hex_to_screen(playing.nodes[k + 1][0])
                points.append((xa + (xb - xa) * share, ya + (yb - ya) * share))
            _trail_lines(surface, [points], playing.side, camera.size)

    def _draw_name(
        self, surface: pygame.Surface, unit: Unit, size: int, centre: tuple[float, float]
    ) -> None:
        """The short name of the unit on top of a hex, under its counter."""
        px = max(10, size // 3)
        name = short_name(unit.name, px, round(size * 1.9))
        colour = (190, 190, 190) if unit.destroyed else SYMBOL_INK
        label = fonts.text(name, px, colour, bold=True, halo=COUNTER_EDGE)
        side = max(16, round(size * 1.25))
        top = round(centre[1] + side / 2 + max(2, size * 0.12))
        at = label.get_rect(midtop=(round(centre[0]), top))
        fonts.blit(surface, label, at, belongs_to=fonts.HEX_MARKS)

    def _draw_path(self, surface: pygame.Surface, ctx: UiContext, reach: Reach) -> None:
        camera = ctx.camera
        self._label_rect = None
        if self.plan is not None:
            route = reach.route(self.plan.to, self.plan.facing)
        else:
            hovered = ctx.hovered
            route = reach.get(hovered) if hovered not in (None, reach.start) else None
        if route is None:
            if self.plan is not None:
                self._draw_handles(surface, ctx, reach)
            return
        pts = [camera.hex_to_screen(h) for h in route.path]
        width = max(3, camera.size // 6)
        if len(pts) > 1:
            pygame.draw.lines(surface, PATH_CASING, False, pts, width + 3)
            pygame.draw.lines(surface, PATH_LINE, False, pts, width)
            for p in pts[1:-1]:
                pygame.draw.circle(surface, PATH_LINE, p, width)
        end = pts[-1]
        a = facing_angle(route.facing)
        s = camera.size
        tip = (end[0] + math.cos(a) * s * 0.75, end[1] + math.sin(a) * s * 0.75)
        left = (end[0] + math.cos(a - 2.5) * s * 0.3, end[1] + math.sin(a - 2.5) * s * 0.3)
        right = (end[0] + math.cos(a + 2.5) * s * 0.3, end[1] + math.sin(a + 2.5) * s * 0.3)
        pygame.draw.polygon(surface, PATH_CASING, [tip, left, right])
        pygame.draw.polygon(surface, PATH_LINE, [tip, left, right], max(1, width - 1))
        if self.plan is not None:
            self._draw_handles(surface, ctx, reach)
        mode = {"walked": "walk", "ran": "run", "stood": "turn"}.get(route.mode, route.mode)
        text = f"{route.mp_spent} MP, {mode}, facing {DIRECTION_NAMES[route.facing]}"
        if route.exit_to is not None:
            text += f"; leaves the map: new sheet at {route.exit_to[0]},{route.exit_to[1]}"
        label = fonts.text(text, 14, (255, 255, 255), bold=True, halo=(20, 20, 20))
        rect = label.get_rect(midbottom=(round(end[0]), round(end[1] - s * 0.95)))
        rect.clamp_ip(surface.get_rect())
        fonts.blit(surface, label, rect)
        self._label_rect = rect

    def _draw_handles(self, surface: pygame.Surface, ctx: UiContext, reach: Reach) -> None:
        assert self.plan is not None
        s = ctx.camera.size
        for d, (x, y) in self._handle_centres(ctx).items():
            possible = reach.route(self.plan.to, d) is not None
            chosen = d == self.plan.facing
            a = facing_angle(d)
            r = max(4.0, s * 0.2)
            tip = (x + math.cos(a) * r, y + math.sin(a) * r)
            left = (x + math.cos(a + 2.3) * r, y + math.sin(a + 2.3) * r)
            right = (x + math.cos(a - 2.3) * r, y + math.sin(a - 2.3) * r)
            colour = theme.HIGHLIGHT if chosen else HANDLE_OK if possible else HANDLE_OFF
            pygame.draw.polygon(surface, PATH_CASING, [tip, left, right])
            pygame.draw.polygon(surface, colour, [tip, left, right], 0 if possible else 2)

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """The Undo button by a planned move (the unit panel shows the selected unit)."""
        button = self.undo_button
        if self.plan is None or ctx.mode != SELECT:
            button.rect = pygame.Rect(0, 0, 0, 0)
            return
        # Beside the path's label above the destination: off the path and the handles.
        x, y = ctx.camera.hex_to_screen(self.plan.to)
        button.rect = pygame.Rect(0, 0, text_width(UNDO_LABEL, bold=True) + 20, 28)
        label = self._label_rect
        if label is not None:
            button.rect.midleft = (label.right + 8, label.centery)
        else:
            button.rect.midbottom = (round(x), round(y - ctx.camera.size * 0.95))
        button.rect.clamp_ip(surface.get_rect())
        button.draw(surface, ctx.mouse)

    def plan_marks(self) -> list[pygame.Rect]:
        """The planned move's label and its Undo button as last drawn: the hover
        tooltip keeps clear of them."""
        marks = [self._label_rect, self.undo_button.rect]
        return [r for r in marks if r is not None and r.w and r.h]

    # --- tooltip -----------------------------------------------------------------------

    def tooltip_lines(self, h: Hex, ctx: UiContext) -> list[str]:
        """Lines for the hover tooltip: the units in the hex, as the view shows them."""
        lines = []
        for unit in self.units_at(ctx, h):
            who = "your" if unit.side == ctx.side else unit.side
            model = unit.profile.get("model") or SYMBOL_NAMES[unit_symbol(unit)]
            if unit.destroyed:
                lines.append(f"Wreck of {unit.name} ({who})")
                continue
            text = self.strength_of(ctx, unit.id).text
            facing = DIRECTION_NAMES.get(unit.facing, "?")
            lines.append(f"{unit.name}: {who} {model}, facing {facing}")
            lines.append(f"  {text}")
        reach = self.reach(ctx)
        if reach is not None and ctx.selected is not None and h != reach.start:
            cost = reach.cost(h)
            if cost is not None:
                lines.append(f"Move here: {cost} MP")
        return lines
