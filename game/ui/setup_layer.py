"""The set-up phase in the game window: off-board batteries (ART-1, ART-2) and
pre-designated hexes (ART-20 .. ART-22).

``SetupLayer`` shows, while the side on screen sets up, the set-up panel in the
right-hand column with two tabs:

- **Batteries** (``B``): each own off-board battery with where it stands, its
  secret sheet and hex, and its reach to the play area; **Re-deploy** opens the
  ``DeployDialog``.
- **Pre-designated hexes** (``R``): map clicks pick a hex or, on a chosen one,
  remove it (``ctx.mode == PREDESIGNATE``). The panel shows the allowance
  (ART-22: in all and per sheet), the chosen hexes, and the last refusal with
  the engine's reason; on the map every chosen hex is marked, each sheet shows
  how many it holds and the hovered hex shows whether a click adds, removes or
  is refused.

``DeployDialog`` edits a draft position: the direction (the own home edge or
a flank), the distance in sheets, the sheet column or row along the edge
(buttons, or a click on the sheet-grid diagram), the sheet it stands on (the
sheet catalogue as a list with thumbnails and categories) and its exact
``XXYY`` hex (a click on the chosen sheet's picture, the arrow keys, or four
typed digits). The draft's legality is the engine's own reasons
(``game.state.engine.deployment_refusal`` run over the view), shown as they
change, with the range and flight time from the draft position to every sheet
of the play area (ART-3, ART-5, ART-6). **Deploy** sends the ``Deploy``
command; the engine decides, and a refusal is shown in the dialog.

Everything comes from ``ctx.view`` (the view of the side on screen): only the
own batteries and pre-designated hexes are in it (ART-4), and in hot-seat the
panel appears only after the hand-over. Commands go through ``ctx.submit``.
``make_layers(ctx)`` registers the layer as ``ctx.setup``; the
dialog opens in the screen's dialog host, which takes every event while it is
open.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pygame

from game.artillery.deployment import default_along, flanks, off_board_position
from game.artillery.predesignated import (
    PER_SHEET_CAP,
    predesignated_limit,
    predesignation_refusal,
)
from game.artillery.weapons import weapon as weapon_spec
from game.board.area import PlayArea, SheetPosition
from game.board.sheet import SHEET_COLS, SHEET_ROWS, Sheet, format_xxyy
from game.board.sheet import parse_xxyy as read_xxyy
from game.board.terrain import BUILDING, TERRAIN_NAMES, WATER
from game.hexmath import Hex, pixel_to_hex
from game.state import Deploy, PlayerView, Predesignate
from game.state.engine import deployment_refusal
from game.state.queries import flights_to_area
from game.state.view import SeenUnit
from game.ui import dialogs, fonts, labels, theme
from game.ui import widgets as ui
from game.ui.artillery_plot import dash_line, hex_points, on_map, own_batteries
from game.ui.context import SELECT, Layer, UiContext
from game.ui.intel_layer import CATEGORY_COLOURS
from game.ui.map_layer import SHEET_LABEL_MAX_SIZE, paint_sheet, sheet_geometry
from game.ui.panels import side_label
from game.ui.session import HUMAN

PREDESIGNATE = "predesignate"  # ctx.mode while map clicks pick pre-designated hexes
PANEL_WIDTH = 392
SHEET_ASPECT = 22.5 / 29.4  # width / height of a sheet (15 x 17 flat-top hexes)
PD_COLOUR = (255, 220, 90)

# --- from the view (no drawing) -------------------------------------------------------------


def setting_up(ctx: UiContext) -> bool:
    """The side on screen is a human player setting up now."""
    view = ctx.view
    session = ctx.session
    return (
        view.phase == "setup"
        and view.result is None
        and view.pending_sheet is None
        and view.acting == view.side
        and session.viewer() == view.side
        and session.controllers.get(view.side) == HUMAN
    )


def offboard_batteries(view: PlayerView) -> list[SeenUnit]:
    """The side's batteries that stand off the board (the ones set-up may move)."""
    return [u for u in own_batteries(view) if u.battery.offboard is not None]


def directions(view: PlayerView) -> list[tuple[str, str]]:
    """ART-1: (edge, label) of the directions a battery of the side may stand in."""
    out = [(view.side, f"{view.side.capitalize()} (home)")]
    out += [(edge, f"{edge.capitalize()} flank") for edge in flanks(view.area)]
    return out


def axis_word(direction: str) -> str:
    """Behind a north or south edge ``along`` is a sheet column, else a sheet row."""
    return "column" if direction in ("north", "south") else "row"


@dataclass(frozen=True)
class Draft:
    """An off-board position being edited (the fields of ``Deploy``)."""

    battery: str
    direction: str
    along: int
    distance: int
    sheet: str
    xxyy: str

    def command(self, side: str) -> Deploy:
        return Deploy(
            side, self.battery, self.direction, self.along, self.distance, self.sheet, self.xxyy
        )

    def position(self, area: PlayArea) -> SheetPosition:
        """ART-2: the sheet position ``distance`` sheets beyond the edge."""
        return off_board_position(area, self.direction, self.distance, self.along)

    def describe(self) -> str:
        return (
            f"{self.distance} sheet{'s' if self.distance != 1 else ''} beyond the "
            f"{self.direction} edge, sheet {axis_word(self.direction)} {self.along}"
        )


def draft_of(unit: SeenUnit) -> Draft:
    """The draft of a battery as it stands now (off the board)."""
    assert unit.battery is not None and unit.battery.offboard is not None
    off = unit.battery.offboard
    return Draft(unit.id, off.direction, off.along, off.distance, off.sheet, off.xxyy)


def draft_towards(area: PlayArea, draft: Draft, direction: str, committed: Draft) -> Draft:
    """The draft turned to another direction: the committed column or row when the
    battery already stands that way, else the middle of that edge."""
    along = committed.along if committed.direction == direction else default_along(area, direction)
    return replace(draft, direction=direction, along=along)


def draft_at(area: PlayArea, draft: Draft, pos: SheetPosition) -> Draft | None:
    """The draft moved to a sheet position outside the area (a click on the sheet grid):
    the edge it lies beyond, how far and where along it; None inside the area's extent."""
    i, j = pos
    i_min, i_max, j_min, j_max = area.sheet_bounds()
    if i_min <= i <= i_max and j_min <= j <= j_max:
        return None
    edge = area.edge_beyond(pos)
    if edge == "north":
        return replace(draft, direction=edge, distance=j_min - j, along=i)
    if edge == "south":
        return replace(draft, direction=edge, distance=j - j_max, along=i)
    if edge == "west":
        return replace(draft, direction=edge, distance=i_min - i, along=j)
    return replace(draft, direction=edge, distance=i - i_max, along=j)


def deployment_reasons(view: PlayerView, draft: Draft) -> list[str]:
    """The engine's reasons against the draft (ART-1, ART-2, ART-3, MAP-10), worked out
    by the engine's own rule over the view; empty when the engine would accept it."""
    reason = deployment_refusal(view, view.side, draft.command(view.side))
    return [] if reason is None else [reason]


@dataclass(frozen=True)
class AreaReach:
    """ART-3, ART-5, ART-6: what a battery at a sheet position reaches of the play area."""

    weapon: str
    max_range: int
    position: SheetPosition
    distances: tuple[int, ...]  # sheets to each sheet of the area (ART-5)
    flights: tuple[int, ...]  # flight times to the sheets in range (ART-6)

    @property
    def in_range(self) -> int:
        return sum(1 for d in self.distances if d <= self.max_range)

    def lines(self) -> list[str]:
        near, far = min(self.distances), max(self.distances)
        count = len(self.distances)
        span = f"{near} sheets" if near == far else f"{near} to {far} sheets"
        where = f"From sheet ({self.position[0]},{self.position[1]}) the play area is {span} away"
        if self.in_range == count:
            reach = f"{self.weapon} reaches {self.max_range}: every sheet in range"
        elif self.in_range == 0:
            reach = f"{self.weapon} reaches {self.max_range}: no sheet in range"
        else:
            reach = f"{self.weapon} reaches {self.max_range}: {self.in_range} of {count} in range"
        out = [f"{where}; {reach} (ART-3, ART-5)."]
        if self.flights:
            lo, hi = min(self.flights), max(self.flights)
            turns = "turn" if hi == 1 else "turns"
            if lo == hi:
                out.append(f"Flight time {lo} {turns} to every sheet in range (ART-6).")
            else:
                out.append(f"Flight time {lo} to {hi} {turns}, nearest to farthest (ART-6).")
        return out


def reach_to_area(area: PlayArea, weapon_id: str, pos: SheetPosition) -> AreaReach:
    """ART-3, ART-5, ART-6 from sheet position ``pos`` to each sheet of the area."""
    w = weapon_spec(weapon_id)
    distances, flights = flights_to_area(w, pos, area)
    return AreaReach(w.name, w.max_range_sheets, (int(pos[0]), int(pos[1])), distances, flights)


@dataclass(frozen=True)
class Allowance:
    """ART-22 for the side on screen: what it has chosen and what it may still choose."""

    allowed: bool  # ART-20: the scenario allows pre-designated hexes
    chosen: tuple[Hex, ...]
    units: int  # field artillery units (every living battery of the side)
    sheets: int
    limit: int
    per_sheet: dict[SheetPosition, int]

    @property
    def used(self) -> int:
        return len(self.chosen)

    def left_on(self, pos: SheetPosition) -> int:
        """Hexes that may still be added on the sheet at ``pos``."""
        return max(0, min(PER_SHEET_CAP - self.per_sheet.get(pos, 0), self.limit - self.used))


def allowance(view: PlayerView) -> Allowance:
    """ART-22 from the view: ``5 * units * ceil(sheets / 4)`` in all, at most 5 a sheet."""
    chosen = tuple(view.predesignated)
    units = len(own_batteries(view))
    sheets = view.area.sheet_count
    per_sheet: dict[SheetPosition, int] = {}
    for h in chosen:
        pos = view.area.position_of(h)
        per_sheet[pos] = per_sheet.get(pos, 0) + 1
    return Allowance(
        bool(view.options.get("predesignated_hexes")),
        chosen,
        units,
        sheets,
        predesignated_limit(units, sheets),
        per_sheet,
    )


def predesignation_check(view: PlayerView, h: Hex) -> str | None:
    """Why adding ``h`` would be refused (ART-20, ART-22), or None when the engine
    would take it. A hex already chosen is not refused: a click removes it."""
    found = allowance(view)
    if not found.allowed:
        return "this scenario does not allow pre-designated hexes (ART-20)"
    if not view.area.contains(h):
        return "pre-designated hexes must lie in the play area (ART-20)"
    if h in found.chosen:
        return None
    trial = [view.area.position_of(x) for x in (*found.chosen, h)]
    reason = predesignation_refusal(trial, found.units, found.sheets)
    return None if reason is None else f"{reason} (ART-22)"


def hex_words(sheet: Sheet, col: int, row: int) -> str:
    """A hex of a sheet in players' words: terrain, level, road, building."""
    code = int(sheet.terrain[row, col])
    level = int(sheet.level[row, col])
    road = ", road" if sheet.road[row, col] else ""
    if code == WATER:
        return f"water, depth {int(sheet.water_depth[row, col])}{road}, level {level}"
    text = f"{TERRAIN_NAMES[code]}{road}, level {level}"
    if code == BUILDING:
        text += (
            f", building CF {int(sheet.building_cf[row, col])} "
            f"height {int(sheet.building_height[row, col])}"
        )
    return text


def sheet_catalogue(view: PlayerView) -> list[Sheet]:
    """Every sheet a battery may stand on, by category and name: the game's own sheets
    (its area's catalogue, kept in saves), not the sheet files on disk now."""
    return sorted(view.area.catalogue.values(), key=lambda s: (s.category, s.name))


# --- the sheet's picture in the dialog ------------------------------------------------------

_HOME = sheet_geometry((0, 0))
_LOCAL = {h: (k % SHEET_COLS, k // SHEET_COLS) for k, h in enumerate(_HOME.hexes)}
# Smallest hex size painted: smaller sizes print the sheet position on the sheet (a far
# zoom's label), which means nothing in the catalogue; smaller pictures are scaled down.
PAINT_MIN = SHEET_LABEL_MAX_SIZE + 1
_pictures: dict[tuple[Sheet, int, float], pygame.Surface] = {}


def picture_size(size: int, scale: float = 1.0) -> tuple[int, int]:
    _, _, w, h = _HOME.pixel_rect(size)
    return max(1, round(w * scale)), max(1, round(h * scale))


@dataclass(frozen=True)
class SheetPicture:
    """A sheet's picture: painted at hex size ``size``, shown at ``scale`` of that."""

    size: int
    scale: float

    @classmethod
    def fitting(cls, room: tuple[int, int], largest: int = 20) -> SheetPicture:
        """The largest picture that fits ``room`` (w, h)."""
        size = largest
        while size > PAINT_MIN and (
            picture_size(size)[0] > room[0] or picture_size(size)[1] > room[1]
        ):
            size -= 1
        w, h = picture_size(size)
        return cls(size, min(1.0, room[0] / w, room[1] / h))

    @property
    def dimensions(self) -> tuple[int, int]:
        return picture_size(self.size, self.scale)

    def image(self, sheet: Sheet) -> pygame.Surface:
        """The sheet painted (cached per sheet, size and scale; a sheet of a loaded game
        is not the file of the same id: the cache holds the sheet itself)."""
        key = (sheet, self.size, self.scale)
        image = _pictures.get(key)
        if image is None:
            x, y, w, h = _HOME.pixel_rect(self.size)
            image = pygame.Surface((w, h))
            image.fill(theme.PANEL)
            paint_sheet(image, sheet, _HOME, self.size, (x, y))
            if self.scale < 1.0:
                image = pygame.transform.smoothscale(image, self.dimensions)
            if len(_pictures) > 64:
                _pictures.clear()
            _pictures[key] = image
        return image

    def hex_at(self, point: tuple[float, float]) -> tuple[int, int] | None:
        """Local (col, row) of the hex under a point of the picture, None off the sheet."""
        x, y, _, _ = _HOME.pixel_rect(self.size)
        px, py = point[0] / self.scale + x, point[1] / self.scale + y
        return _LOCAL.get(pixel_to_hex(px, py, float(self.size)))

    def centre(self, col: int, row: int) -> tuple[float, float]:
        """The centre of a local hex in the picture's pixels."""
        x, y, _, _ = _HOME.pixel_rect(self.size)
        cx, cy = _HOME.centres[row * SHEET_COLS + col]
        return (cx * self.size - x) * self.scale, (cy * self.size - y) * self.scale

    def corners(self, col: int, row: int) -> list[tuple[float, float]]:
        """The corners of a local hex in the picture's pixels."""
        cx, cy = self.centre(col, row)
        s = self.size * self.scale
        return [
            (cx + s * math.cos(math.radians(60 * k)), cy + s * math.sin(math.radians(60 * k)))
            for k in range(6)
        ]


# --- the deployment dialog ----------------------------------------------------------------


class DeployDialog(ui.Dialog):
    """ART-1, ART-2: where one off-board battery stands (see the module docstring)."""

    title = "Deploy"

    def __init__(
        self,
        view: PlayerView,
        battery: str,
        on_deployed: Callable[[Draft], None] | None = None,
    ) -> None:
        super().__init__()
        unit = view.units.get(battery)
        if unit is None or unit.side != view.side or unit.battery is None:
            raise ValueError(f"{battery!r} is not an artillery unit of {view.side}")
        if unit.battery.offboard is None:
            raise ValueError(f"{unit.name} stands on the board: it cannot be re-deployed")
        self.battery = battery
        self.name = unit.name
        self.weapon = unit.battery.weapon
        self.committed = draft_of(unit)
        self.draft = self.committed
        self.on_deployed = on_deployed
        self.sheets = sheet_catalogue(view)
        self.title = f"Deploy {self.name}"
        self.refusal: list[str] = []  # the engine's answer to the last Deploy
        self.typed = ""
        self.message = ""
        self.scroll = 0
        self.hover_cell: SheetPosition | None = None
        self.hover_hex: tuple[int, int] | None = None
        self.deployed: Draft | None = None
        self.direction_buttons: list[tuple[ui.Button, str]] = []
        self.steps: dict[str, ui.Button] = {}
        self.deploy = ui.Button(pygame.Rect(0, 0, 0, 0), "Deploy", danger=True)
        self.cancel = ui.Button(pygame.Rect(0, 0, 0, 0), "Cancel")
        self.grid_rect = pygame.Rect(0, 0, 0, 0)
        self.list_rect = pygame.Rect(0, 0, 0, 0)
        self.picture_rect = pygame.Rect(0, 0, 0, 0)
        self.picture = SheetPicture(16, 1.0)
        self._direction_top = 0
        self._rows_top = 0
        self._view: PlayerView | None = None
        self._reasons: tuple[Any, list[str]] | None = None
        self._cells: tuple[Any, dict[SheetPosition, bool]] | None = None
        self._columns: tuple[pygame.Rect, pygame.Rect, pygame.Rect] | None = None

    # --- layout -----------------------------------------------------------------------

    ROW = 30  # a sheet in the list

    def size(self, screen: pygame.Rect) -> tuple[int, int]:
        return min(1120, screen.w - 20), min(720, screen.h - 20)

    def layout(self, screen: pygame.Rect) -> None:
        # Below the top bar: its buttons (Accept deployment) stay clear of the dialog.
        below = pygame.Rect(
            screen.x, screen.y + theme.BAR_HEIGHT, screen.w, screen.h - theme.BAR_HEIGHT
        )
        super().layout(below)
        r = self.rect
        top = r.y + 40
        bottom = r.bottom - 96
        width = r.w - 28
        left_w = round(width * 0.37)
        mid_w = round(width * 0.24)
        left = pygame.Rect(r.x + 14, top, left_w, bottom - top)
        mid = pygame.Rect(left.right + 14, top, mid_w, bottom - top)
        right = pygame.Rect(mid.right + 14, top, r.right - 14 - mid.right - 14, bottom - top)
        self._columns = (left, mid, right)
        # Direction: one button each (ART-1).
        y = left.y + 22
        self._direction_top = y
        if self._view is not None:
            self._place_direction_buttons(self._view)
        # Steps for distance and along.
        self._rows_top = y + 40
        self.steps = {}
        for n, name in enumerate(("distance", "along")):
            ry = self._rows_top + n * 34
            self.steps[f"{name}-"] = ui.Button(pygame.Rect(left.right - 72, ry, 32, 28), "-")
            self.steps[f"{name}+"] = ui.Button(pygame.Rect(left.right - 34, ry, 32, 28), "+")
        grid_top = self._rows_top + 2 * 34 + 24
        self.grid_rect = pygame.Rect(
            left.x, grid_top, left.w, max(80, left.bottom - grid_top - 110)
        )
        self.list_rect = pygame.Rect(mid.x, mid.y + 22, mid.w - 8, mid.h - 22)
        # The largest picture that fits the right column with three lines below it.
        room = pygame.Rect(right.x, right.y + 22, right.w, right.h - 22 - 56)
        self.picture = SheetPicture.fitting(room.size)
        self.picture_rect = pygame.Rect((0, 0), self.picture.dimensions)
        self.picture_rect.midtop = (room.centerx, room.y)
        self.deploy.rect = pygame.Rect(r.right - 252, r.bottom - 50, 118, 38)
        self.cancel.rect = pygame.Rect(r.right - 126, r.bottom - 50, 112, 38)
        self._keep_sheet_visible()

    def _place_direction_buttons(self, view: PlayerView) -> None:
        left = self._columns[0] if self._columns else self.rect
        options = directions(view)
        w = (left.w - 8 * (len(options) - 1)) // len(options)
        self.direction_buttons = [
            (ui.Button(pygame.Rect(left.x + k * (w + 8), self._direction_top, w, 30), label), edge)
            for k, (edge, label) in enumerate(options)
        ]

    # --- what the draft means ------------------------------------------------------------

    def _sync(self, view: PlayerView) -> None:
        if view is not self._view:
            self._view = view
            self._reasons = None
            self._cells = None
            self._place_direction_buttons(view)

    def reasons(self, view: PlayerView) -> list[str]:
        """The engine's reasons against the draft now (empty: it would be accepted)."""
        self._sync(view)
        if self._reasons is None or self._reasons[0] != self.draft:
            self._reasons = (self.draft, deployment_reasons(view, self.draft))
        return self._reasons[1]

    def grid_extent(self, view: PlayerView) -> tuple[int, int, int, int]:
        """The sheet positions the diagram shows: the area and, on the own side, as far
        out as the draft or any own battery stands (at least 3 sheets), plus one."""
        i_min, i_max, j_min, j_max = view.area.sheet_bounds()
        reach = 3
        for unit in offboard_batteries(view):
            reach = max(reach, unit.battery.offboard.distance)
        reach = max(reach, self.draft.distance) + 1
        lo_i, hi_i, lo_j, hi_j = i_min - reach, i_max + reach, j_min - reach, j_max + reach
        # The enemy's side beyond its home edge: one row, to show where it is.
        enemy_edge = view.enemy if view.enemy in ("north", "south", "west", "east") else None
        if enemy_edge == "north":
            lo_j = j_min - 1
        elif enemy_edge == "south":
            hi_j = j_max + 1
        elif enemy_edge == "west":
            lo_i = i_min - 1
        elif enemy_edge == "east":
            hi_i = i_max + 1
        return lo_i, hi_i, lo_j, hi_j

    def _grid_cells(self, view: PlayerView) -> tuple[float, float, float, float]:
        """(x0, y0, cell width, cell height) of the diagram."""
        lo_i, hi_i, lo_j, hi_j = self.grid_extent(view)
        cols, rows = hi_i - lo_i + 1, hi_j - lo_j + 1
        g = self.grid_rect
        cw = min(g.w / cols, g.h / rows * SHEET_ASPECT)
        ch = cw / SHEET_ASPECT
        x0 = g.centerx - cols * cw / 2
        y0 = g.centery - rows * ch / 2
        return x0, y0, cw, ch

    def cell_rect(self, view: PlayerView, pos: SheetPosition) -> pygame.Rect:
        lo_i, _, lo_j, _ = self.grid_extent(view)
        x0, y0, cw, ch = self._grid_cells(view)
        x = x0 + (pos[0] - lo_i) * cw
        y = y0 + (pos[1] - lo_j) * ch
        return pygame.Rect(round(x), round(y), round(x + cw) - round(x), round(y + ch) - round(y))

    def cell_at(self, view: PlayerView, point: tuple[int, int]) -> SheetPosition | None:
        if not self.grid_rect.collidepoint(point):
            return None
        lo_i, hi_i, lo_j, hi_j = self.grid_extent(view)
        x0, y0, cw, ch = self._grid_cells(view)
        i = lo_i + math.floor((point[0] - x0) / cw)
        j = lo_j + math.floor((point[1] - y0) / ch)
        if lo_i <= i <= hi_i and lo_j <= j <= hi_j:
            return (i, j)
        return None

    def legal_cells(self, view: PlayerView) -> dict[SheetPosition, bool]:
        """Each free position of the diagram: would the engine take the battery there
        (with the draft's sheet and hex)?"""
        self._sync(view)
        extent = self.grid_extent(view)
        key = (extent, self.draft.sheet, self.draft.xxyy)
        if self._cells is not None and self._cells[0] == key:
            return self._cells[1]
        lo_i, hi_i, lo_j, hi_j = extent
        cells: dict[SheetPosition, bool] = {}
        for i in range(lo_i, hi_i + 1):
            for j in range(lo_j, hi_j + 1):
                moved = draft_at(view.area, self.draft, (i, j))
                if moved is not None:
                    cells[(i, j)] = not deployment_reasons(view, moved)
        self._cells = (key, cells)
        return cells

    # --- editing -------------------------------------------------------------------------

    def set_draft(self, draft: Draft) -> None:
        self.draft = draft
        self.refusal = []
        self.message = ""

    def step(self, view: PlayerView, name: str) -> None:
        d = self.draft
        if name.startswith("distance"):
            top = weapon_spec(self.weapon).max_range_sheets
            distance = max(1, min(top, d.distance + (1 if name.endswith("+") else -1)))
            self.set_draft(replace(d, distance=distance))
        else:
            i_min, i_max, j_min, j_max = view.area.sheet_bounds()
            lo, hi = (i_min, i_max) if d.direction in ("north", "south") else (j_min, j_max)
            along = d.along + (1 if name.endswith("+") else -1)
            along = max(lo - d.distance, min(hi + d.distance, along))
            self.set_draft(replace(d, along=along))

    def choose_sheet(self, index: int) -> None:
        index %= len(self.sheets)
        self.set_draft(replace(self.draft, sheet=self.sheets[index].id))
        self._keep_sheet_visible()

    def sheet_index(self) -> int:
        return next((k for k, s in enumerate(self.sheets) if s.id == self.draft.sheet), 0)

    def _keep_sheet_visible(self) -> None:
        room = max(1, self.list_rect.h // self.ROW)
        k = self.sheet_index()
        if k < self.scroll:
            self.scroll = k
        elif k >= self.scroll + room:
            self.scroll = k - room + 1
        self.scroll = max(0, min(self.scroll, max(0, len(self.sheets) - room)))

    def choose_hex(self, col: int, row: int) -> None:
        col = max(0, min(SHEET_COLS - 1, col))
        row = max(0, min(SHEET_ROWS - 1, row))
        self.set_draft(replace(self.draft, xxyy=format_xxyy(col, row)))

    def local_hex(self) -> tuple[int, int] | None:
        try:
            return read_xxyy(self.draft.xxyy)
        except ValueError:
            return None

    def type_digit(self, digit: str) -> None:
        self.typed += digit
        if len(self.typed) < 4:
            return
        typed, self.typed = self.typed, ""
        try:
            col, row = read_xxyy(typed)
        except ValueError as exc:
            self.message = f"Hex {typed}: {exc}"
            return
        self.choose_hex(col, row)

    def confirm(self, ctx: UiContext) -> bool:
        """Send ``Deploy``; the engine decides. A refusal stays in the dialog."""
        if ctx.submit(self.draft.command(ctx.view.side)):
            self.deployed = self.draft
            self.closed = True
            if self.on_deployed is not None:
                self.on_deployed(self.draft)
            return True
        errors = [t.text for t in ctx.toasts if t.error]
        self.refusal = [errors[-1] if errors else "the engine refused the position"]
        return False

    # --- events --------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> None:
        super().handle_event(event, ctx)
        view = ctx.view
        self._sync(view)
        if event.type == pygame.MOUSEMOTION:
            self.hover_cell = self.cell_at(view, event.pos)
            self.hover_hex = self._picture_hex(event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            mouse = self.mouse or (-1, -1)
            if self.list_rect.collidepoint(mouse):
                room = max(1, self.list_rect.h // self.ROW)
                top = max(0, len(self.sheets) - room)
                self.scroll = max(0, min(top, self.scroll - event.y))
        elif event.type == pygame.KEYDOWN:
            self._key(event, ctx)
        elif ui.clicked(event):
            self._click(event.pos, ctx)

    def _picture_hex(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        if not self.picture_rect.collidepoint(pos):
            return None
        return self.picture.hex_at((pos[0] - self.picture_rect.x, pos[1] - self.picture_rect.y))

    def hex_point(self, col: int, row: int) -> tuple[float, float]:
        """Where a local hex of the chosen sheet is on the screen."""
        x, y = self.picture.centre(col, row)
        return x + self.picture_rect.x, y + self.picture_rect.y

    def _key(self, event: pygame.event.Event, ctx: UiContext) -> None:
        key = event.key
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.confirm(ctx)
        elif key == pygame.K_ESCAPE:
            self.closed = True
        elif key == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
        elif pygame.K_0 <= key <= pygame.K_9:
            self.type_digit(str(key - pygame.K_0))
        elif pygame.K_KP0 <= key <= pygame.K_KP9:
            self.type_digit(str(key - pygame.K_KP0))
        elif key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.choose_sheet(self.sheet_index() + (1 if key == pygame.K_PAGEDOWN else -1))
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            at = self.local_hex() or (8, 8)
            dc = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1}.get(key, 0)
            dr = {pygame.K_UP: -1, pygame.K_DOWN: 1}.get(key, 0)
            self.choose_hex(at[0] + dc, at[1] + dr)

    def _click(self, pos: tuple[int, int], ctx: UiContext) -> None:
        view = ctx.view
        if self.deploy.hit(pos):
            self.confirm(ctx)
            return
        if self.cancel.hit(pos):
            self.closed = True
            return
        for button, edge in self.direction_buttons:
            if button.hit(pos):
                self.set_draft(draft_towards(view.area, self.draft, edge, self.committed))
                return
        for name, button in self.steps.items():
            if button.hit(pos):
                self.step(view, name)
                return
        cell = self.cell_at(view, pos)
        if cell is not None:
            moved = draft_at(view.area, self.draft, cell)
            if moved is None:
                self.message = f"Sheet position ({cell[0]},{cell[1]}) is in play, not off-board"
            else:
                self.set_draft(moved)
            return
        if self.list_rect.collidepoint(pos):
            k = self.scroll + (pos[1] - self.list_rect.y) // self.ROW
            if 0 <= k < len(self.sheets):
                self.choose_sheet(k)
            return
        local = self._picture_hex(pos)
        if local is not None:
            self.choose_hex(*local)

    # --- drawing -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, ctx: UiContext) -> None:
        view = ctx.view
        self._sync(view)
        if self._columns is None:
            self.layout(surface.get_rect())
        assert self._columns is not None
        accent = theme.SIDE_COLOURS.get(view.side, theme.ACCENT)
        ui.draw_panel(surface, self.rect, self.title, accent)
        w = weapon_spec(self.weapon)
        ui.text(
            surface,
            f"{w.name}, reaches {w.max_range_sheets} sheets. The enemy never sees this (ART-4).",
            (self.rect.right - 14, self.rect.y + 14),
            theme.SMALL,
            theme.MUTED,
            anchor="midright",
        )
        reasons = self.refusal or self.reasons(view)
        self._draw_left(surface, view)
        self._draw_list(surface)
        self._draw_picture(surface, theme.side_colour(view.side))
        self._draw_status(surface, view, reasons)
        self.deploy.draw(surface, self.mouse)
        self.cancel.draw(surface, self.mouse)

    def _label(self, surface: pygame.Surface, label: str, pos: tuple[int, int]) -> None:
        ui.text(surface, label, pos, theme.BODY, theme.ACCENT, bold=True)

    def _draw_left(self, surface: pygame.Surface, view: PlayerView) -> None:
        assert self._columns is not None
        left = self._columns[0]
        d = self.draft
        self._label(surface, "Direction (ART-1)", (left.x, left.y))
        for button, edge in self.direction_buttons:
            button.draw(surface, self.mouse)
            if edge == d.direction:
                pygame.draw.rect(surface, theme.ACCENT, button.rect, 2, border_radius=6)
        rows = [
            ("Distance", f"{d.distance} sheet{'s' if d.distance != 1 else ''}", "beyond the edge"),
            (f"Sheet {axis_word(d.direction)}", str(d.along), f"along the {d.direction} edge"),
        ]
        room = self.steps["distance-"].rect.x - 8
        for n, (label, value, words) in enumerate(rows):
            y = self._rows_top + n * 34
            ui.text(surface, label, (left.x, y + 5), theme.BODY, theme.MUTED)
            at = ui.text(surface, value, (left.x + 110, y + 5), theme.BODY, theme.TEXT, bold=True)
            if at.right + 8 + ui.text_width(words, theme.SMALL) <= room:
                ui.text(surface, words, (at.right + 8, y + 7), theme.SMALL, theme.MUTED)
        for button in self.steps.values():
            button.draw(surface, self.mouse)
        pos = d.position(view.area)
        ui.text(
            surface,
            f"Sheet grid: the battery at ({pos[0]},{pos[1]}); click a free position",
            (left.x, self.grid_rect.y - 20),
            theme.SMALL,
            theme.MUTED,
        )
        self._draw_grid(surface, view)
        y = self.grid_rect.bottom + 4
        legend = "Green: allowed there. Blue: your home edge. Dashed: the half-line."
        for part in ui.wrap(legend, left.w, theme.SMALL):
            ui.text(surface, part, (left.x, y), theme.SMALL, theme.MUTED)
            y += 16
        y += 4
        if self.hover_cell is not None:
            y = self._hover_cell_lines(surface, view, left, y)
        for line in reach_to_area(view.area, self.weapon, pos).lines():
            for part in ui.wrap(line, left.w, theme.SMALL):
                if y > left.bottom - 14:
                    return
                ui.text(surface, part, (left.x, y), theme.SMALL, theme.TEXT)
                y += 16

    def _hover_cell_lines(
        self, surface: pygame.Surface, view: PlayerView, left: pygame.Rect, y: int
    ) -> int:
        assert self.hover_cell is not None
        moved = draft_at(view.area, self.draft, self.hover_cell)
        i, j = self.hover_cell
        if moved is None:
            line, colour = f"({i},{j}): a sheet of the play area", theme.MUTED
        else:
            why = deployment_reasons(view, moved)
            line = f"({i},{j}): {moved.describe()}" + (f": {why[0]}" if why else ": legal")
            colour = theme.BAD if why else theme.GOOD
        for part in ui.wrap(line, left.w, theme.SMALL)[:2]:
            ui.text(surface, part, (left.x, y), theme.SMALL, colour)
            y += 16
        return y + 2

    def _draw_grid(self, surface: pygame.Surface, view: PlayerView) -> None:
        area = view.area
        g = self.grid_rect
        pygame.draw.rect(surface, (16, 19, 24), g, border_radius=6)
        cells = self.legal_cells(view)
        lo_i, hi_i, lo_j, hi_j = self.grid_extent(view)
        own = theme.SIDE_COLOURS.get(view.side, theme.INTEL)
        for i in range(lo_i, hi_i + 1):
            for j in range(lo_j, hi_j + 1):
                r = self.cell_rect(view, (i, j))
                if area.has_sheet((i, j)):
                    colour = CATEGORY_COLOURS.get(area.sheet_at((i, j)).category, (150, 150, 150))
                elif (i, j) in cells:
                    colour = (52, 98, 66) if cells[(i, j)] else (36, 38, 44)
                else:
                    colour = (28, 30, 34)
                pygame.draw.rect(surface, colour, r)
                pygame.draw.rect(surface, (22, 24, 28), r, 1)
        x0, y0, cw, ch = self._grid_cells(view)
        i_min, i_max, j_min, j_max = area.sheet_bounds()
        # The half-line (MAP-3) and the own home edge.
        if area.home_edges == "north-south":
            y = y0 + (area.half_line - lo_j) * ch
            dash_line(surface, (230, 230, 230), (g.x, y), (g.right, y), 1, 5)
            edge_y = y0 + ((j_min if view.side == "north" else j_max + 1) - lo_j) * ch
            ex0, ex1 = x0 + (i_min - lo_i) * cw, x0 + (i_max + 1 - lo_i) * cw
            pygame.draw.line(surface, own, (ex0, edge_y), (ex1, edge_y), 4)
        else:
            x = x0 + (area.half_line - lo_i) * cw
            dash_line(surface, (230, 230, 230), (x, g.y), (x, g.bottom), 1, 5)
            edge_x = x0 + ((i_min if view.side == "west" else i_max + 1) - lo_i) * cw
            ey0, ey1 = y0 + (j_min - lo_j) * ch, y0 + (j_max + 1 - lo_j) * ch
            pygame.draw.line(surface, own, (edge_x, ey0), (edge_x, ey1), 4)
        # The side's other batteries, this one where it stands now, and the draft.
        for unit in offboard_batteries(view):
            r = self.cell_rect(view, unit.battery.offboard.position)
            if unit.id == self.battery:
                pygame.draw.rect(surface, own, r.inflate(-2, -2), 2)
            else:
                _triangle(surface, r.center, max(4, min(r.w, r.h) // 3), own)
        pos = self.draft.position(area)
        if lo_i <= pos[0] <= hi_i and lo_j <= pos[1] <= hi_j:
            r = self.cell_rect(view, pos)
            ok = not self.reasons(view)
            pygame.draw.rect(surface, theme.ACCENT if ok else theme.BAD, r.inflate(2, 2), 2)
            _triangle(
                surface, r.center, max(5, min(r.w, r.h) // 3), theme.ACCENT if ok else theme.BAD
            )
        if self.hover_cell is not None and (
            self.hover_cell in cells or area.has_sheet(self.hover_cell)
        ):
            pygame.draw.rect(surface, (255, 255, 255), self.cell_rect(view, self.hover_cell), 1)
        # Compass words at the area's edges.
        cx = x0 + ((i_min + i_max + 1) / 2 - lo_i) * cw
        cy = y0 + ((j_min + j_max + 1) / 2 - lo_j) * ch
        for word, at, anchor in (
            ("N", (cx, g.y + 2), "midtop"),
            ("S", (cx, g.bottom - 2), "midbottom"),
            ("W", (g.x + 4, cy), "midleft"),
            ("E", (g.right - 4, cy), "midright"),
        ):
            ui.text(surface, word, at, theme.SMALL, (200, 206, 214), True, anchor, halo=(0, 0, 0))

    def _draw_list(self, surface: pygame.Surface) -> None:
        assert self._columns is not None
        mid = self._columns[1]
        self._label(surface, "Sheet it stands on (ART-2)", (mid.x, mid.y))
        clip = surface.get_clip()
        surface.set_clip(self.list_rect)
        room = self.list_rect.h // self.ROW
        chosen = self.sheet_index()
        for row, k in enumerate(range(self.scroll, min(len(self.sheets), self.scroll + room))):
            sheet = self.sheets[k]
            r = pygame.Rect(
                self.list_rect.x, self.list_rect.y + row * self.ROW, self.list_rect.w, self.ROW - 3
            )
            hot = self.mouse is not None and r.collidepoint(self.mouse)
            fill = theme.SELECTED if k == chosen else (theme.BUTTON_HOT if hot else theme.BUTTON)
            pygame.draw.rect(surface, fill, r, border_radius=5)
            if k == chosen:
                pygame.draw.rect(surface, theme.ACCENT, r, 2, border_radius=5)
            thumb = dialogs.sheet_thumbnail(sheet, (20, r.h - 4))
            surface.blit(thumb, thumb.get_rect(midleft=(r.x + 4, r.centery)))
            chip = CATEGORY_COLOURS.get(sheet.category, (150, 150, 150))
            cat = ui.text_width(sheet.category, theme.SMALL)
            name_w = r.w - 36 - cat - 14
            name = sheet.name
            while ui.text_width(name, theme.SMALL, True) > name_w and len(name) > 4:
                name = name[:-2].rstrip() + "."
            ui.text(surface, name, (r.x + 30, r.centery), theme.SMALL, theme.TEXT, True, "midleft")
            ui.text(
                surface,
                sheet.category,
                (r.right - 8, r.centery),
                theme.SMALL,
                chip,
                anchor="midright",
            )
        surface.set_clip(clip)
        if len(self.sheets) > room:
            # A scroll bar at the list's right edge (the wheel scrolls the list).
            track = pygame.Rect(self.list_rect.right + 3, self.list_rect.y, 4, room * self.ROW)
            pygame.draw.rect(surface, (40, 44, 52), track, border_radius=2)
            thumb_h = max(12, track.h * room // len(self.sheets))
            top = track.y + (track.h - thumb_h) * self.scroll // max(1, len(self.sheets) - room)
            pygame.draw.rect(surface, theme.MUTED, (track.x, top, 4, thumb_h), border_radius=2)

    def _draw_picture(self, surface: pygame.Surface, own: theme.Colour) -> None:
        assert self._columns is not None
        right = self._columns[2]
        sheet = self.sheets[self.sheet_index()]
        self._label(surface, f"Hex on {sheet.name}", (right.x, right.y))
        ui.text(
            surface,
            "click, arrows or type XXYY",
            (right.right, right.y + 2),
            theme.SMALL,
            theme.MUTED,
            anchor="topright",
        )
        surface.blit(self.picture.image(sheet), self.picture_rect)
        pygame.draw.rect(surface, theme.PANEL_EDGE, self.picture_rect, 1)
        origin = self.picture_rect.topleft

        def shifted(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
            return [(x + origin[0], y + origin[1]) for x, y in points]

        if self.hover_hex is not None:
            pts = shifted(self.picture.corners(*self.hover_hex))
            pygame.draw.polygon(surface, (255, 255, 255), pts, 2)
        local = self.local_hex()
        y = self.picture_rect.bottom + 6
        if local is not None:
            pts = shifted(self.picture.corners(*local))
            pygame.draw.polygon(surface, (0, 0, 0), pts, 5)
            pygame.draw.polygon(surface, theme.ACCENT, pts, 3)
            cx = sum(p[0] for p in pts) / 6
            cy = sum(p[1] for p in pts) / 6
            mark = max(4, round(self.picture.size * self.picture.scale / 2))
            _triangle(surface, (round(cx), round(cy)), mark, own)
            line = f"Stands in {self.draft.xxyy}: {hex_words(sheet, *local)}"
            ui.text(surface, line, (right.x, y), theme.SMALL, theme.TEXT, True)
        y += 18
        if self.typed:
            line, colour = f"Typed: {self.typed.ljust(4, '_')}", theme.ACCENT
        elif self.message:
            line, colour = self.message, theme.BAD
        elif self.hover_hex is not None:
            at = format_xxyy(*self.hover_hex)
            line = f"Under the mouse: {at}, {hex_words(sheet, *self.hover_hex)}"
            colour = theme.MUTED
        else:
            line, colour = f"{sheet.category}: {sheet.description}", theme.MUTED
        for part in ui.wrap(line, right.w, theme.SMALL)[: max(1, (right.bottom - y) // 16)]:
            ui.text(surface, part, (right.x, y), theme.SMALL, colour)
            y += 16

    def _draw_status(self, surface: pygame.Surface, view: PlayerView, reasons: list[str]) -> None:
        box = pygame.Rect(
            self.rect.x + 14, self.rect.bottom - 88, self.deploy.rect.x - self.rect.x - 28, 78
        )
        refused = bool(self.refusal)
        colour = theme.BAD if reasons else theme.GOOD
        pygame.draw.rect(surface, (16, 19, 24), box, border_radius=6)
        pygame.draw.rect(surface, colour, box, 1, border_radius=6)
        if reasons:
            head = "The engine refused this position:" if refused else "Not allowed here:"
        else:
            pos = self.draft.position(view.area)
            sheet = view.area.catalogue[self.draft.sheet].name
            head = (
                f"Legal: ({pos[0]},{pos[1]}), {self.draft.describe()}, on {sheet} "
                f"{self.draft.xxyy}. Deploy (Enter) to place it."
            )
        lines = [(head, colour, True)]
        if not reasons:
            secret = (
                "The enemy learns none of this until the battery's sheet comes into play "
                "(ART-4, MAP-10); a shell it sees land may give away a direction (ART-24)."
            )
            lines += [
                (part, theme.MUTED, False) for part in ui.wrap(secret, box.w - 20, theme.SMALL)
            ]
        for reason in reasons:
            lines += [
                (part, theme.TEXT, False) for part in ui.wrap(reason, box.w - 20, theme.SMALL)
            ]
        y = box.y + 6
        for part, c, bold in lines[:4]:
            ui.text(
                surface,
                ui.wrap(part, box.w - 20, theme.SMALL, bold)[0],
                (box.x + 10, y),
                theme.SMALL,
                c,
                bold,
            )
            y += 17


def _triangle(
    surface: pygame.Surface, centre: tuple[int, int], r: int, colour: tuple[int, int, int]
) -> None:
    """The battery mark (the minimap's triangle)."""
    x, y = centre
    points = [(x, y - r), (x - r, y + r * 0.75), (x + r, y + r * 0.75)]
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, (255, 255, 255), points, 1)


# --- the layer ----------------------------------------------------------------------------

Action = tuple[str, Any]


class SetupLayer:
    """The set-up panel, the pre-designated hexes on the map and the deployment dialog."""

    title = "Set-up"

    def __init__(self, dialogs: ui.DialogLayer) -> None:
        self.dialogs = dialogs
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.controls: list[tuple[pygame.Rect, Action]] = []
        self.refusal: str | None = None  # the engine's last answer to a Predesignate
        self.deployed: list[Draft] = []
        self.panel_paints = 0
        self._image: tuple[Any, pygame.Surface, list[tuple[pygame.Rect, Action]]] | None = None
        self._view: PlayerView | None = None
        self._serial = 0  # counts views: the panel is painted again for a new one

    def keys(self) -> list[tuple[str, str]]:
        return [
            ("B", "set-up: re-deploy a battery, the next one each time (ART-1, ART-2)"),
            ("R", "set-up: pick pre-designated hexes on the map, click one to remove it"),
            ("Esc", "stop picking pre-designated hexes"),
            ("F3, click its title", "fold the set-up panel to its strip / open it"),
        ]

    # --- actions --------------------------------------------------------------------------

    def open_deploy(self, ctx: UiContext, battery: str | None = None) -> DeployDialog | None:
        """The deployment dialog of a battery (default: the first off-board one)."""
        batteries = offboard_batteries(ctx.view)
        if not batteries:
            ctx.notify("You have no off-board artillery to deploy", error=True)
            return None
        ids = [u.id for u in batteries]
        battery = battery if battery in ids else ids[0]
        ctx.mode = SELECT

        def done(draft: Draft) -> None:
            self.deployed.append(draft)
            name = ctx.view.units[draft.battery].name
            ctx.notify(f"{name} deployed {draft.describe()}")

        dialog = DeployDialog(ctx.view, battery, done)
        self.dialogs.open(dialog)
        return dialog

    def show_hexes(self, ctx: UiContext, on: bool = True) -> bool:
        """The pre-designated hexes tab: map clicks pick hexes (ART-20)."""
        if not on:
            ctx.mode = SELECT
            return True
        if not ctx.view.options.get("predesignated_hexes"):
            ctx.notify("This scenario does not allow pre-designated hexes (ART-20)", error=True)
        ctx.mode = PREDESIGNATE
        ctx.selected = None
        return True

    def click_hex(self, ctx: UiContext, h: Hex) -> bool:
        """Pre-designate ``h``, or remove it when it is already chosen; the engine decides."""
        chosen = h in allowance(ctx.view).chosen
        ok = ctx.submit(Predesignate(ctx.view.side, h, remove=chosen))
        if ok:
            self.refusal = None
            word = "removed" if chosen else "pre-designated"
            ctx.notify(f"{ctx.view.area.label(h)} {word}")
        else:
            errors = [t.text for t in ctx.toasts if t.error]
            self.refusal = errors[-1] if errors else "the engine refused the hex"
        self._image = None
        return ok

    # --- events ---------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        if self.dialogs.top is not None or not setting_up(ctx):
            return False
        if ui.plain_key(event, pygame.K_F3):
            return ui.toggle_panel(ctx, "setup")
        if ui.plain_key(event, pygame.K_r):
            return self.show_hexes(ctx, ctx.mode != PREDESIGNATE)
        if ui.plain_key(event, pygame.K_b):
            if ctx.mode == PREDESIGNATE:
                return self.show_hexes(ctx, False)
            self._deploy_next(ctx)
            return True
        if ctx.mode == PREDESIGNATE and ui.plain_key(event, pygame.K_ESCAPE):
            return self.show_hexes(ctx, False)
        shown = self.rect.w > 0
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEWHEEL):
            pos = getattr(event, "pos", ctx.mouse)
            return shown and self.rect.collidepoint(pos)
        if event.type != pygame.MOUSEBUTTONUP:
            return False
        if shown and self.rect.collidepoint(event.pos):
            if event.button == 1:
                for rect, action in self.controls:
                    if rect.collidepoint(event.pos):
                        self._act(ctx, action)
                        break
            return True
        if ctx.mode == PREDESIGNATE and event.button in (1, 3):
            h = ui.hex_under(ctx, event.pos)
            if h is not None and ctx.view.area.contains(h):
                ctx.hovered = h
                if event.button == 1 or h in allowance(ctx.view).chosen:
                    self.click_hex(ctx, h)
                return True
        return False

    def _deploy_next(self, ctx: UiContext) -> None:
        ids = [u.id for u in offboard_batteries(ctx.view)]
        last = self.deployed[-1].battery if self.deployed else None
        following = ids[(ids.index(last) + 1) % len(ids)] if last in ids else None
        self.open_deploy(ctx, following)

    def _act(self, ctx: UiContext, action: Action) -> None:
        kind, value = action
        if kind == "tab":
            self.show_hexes(ctx, value == "hexes")
        elif kind == "deploy":
            self.open_deploy(ctx, value)
        elif kind == "remove":
            self.click_hex(ctx, value)
        elif kind == "centre":
            ctx.camera.centre_on(value)
        elif kind == "fold":
            ui.toggle_panel(ctx, "setup")
        self._image = None

    def update(self, dt: float, ctx: UiContext) -> None:
        if ctx.view is not self._view:
            self._view = ctx.view
            self._serial += 1
        if ctx.mode == PREDESIGNATE and not setting_up(ctx):
            ctx.mode = SELECT
        if ctx.view.phase != "setup":
            self.refusal = None

    def reset(self, ctx: UiContext) -> None:
        """A hot-seat hand-over: nothing of the side that left the seat stays."""
        self.refusal = None
        self.deployed = []
        self._image = None
        self._view = None
        self.controls = []
        self.rect = pygame.Rect(0, 0, 0, 0)
        ctx.panels.pop("setup", None)
        if ctx.mode == PREDESIGNATE:
            ctx.mode = SELECT

    def tooltip_lines(self, h: Hex, ctx: UiContext) -> list[str]:
        """Pre-designation of the hovered hex, for the hover tooltip (ART-20 .. ART-22)."""
        view = ctx.view
        if view.phase != "setup" or not view.area.contains(h):
            return []
        found = allowance(view)
        if h in found.chosen:
            line = f"Pre-designated hex {found.chosen.index(h) + 1} of {found.limit} (ART-20)"
            return [line + ("; click to remove it" if ctx.mode == PREDESIGNATE else "")]
        if ctx.mode != PREDESIGNATE:
            return []
        why = predesignation_check(view, h)
        if why is not None:
            return [f"Cannot pre-designate: {why}"]
        pos = view.area.position_of(h)
        return [
            f"Click: pre-designate ({found.used + 1} of {found.limit}; "
            f"{found.per_sheet.get(pos, 0) + 1} of {PER_SHEET_CAP} on sheet ({pos[0]},{pos[1]}))"
        ]

    # --- the map ------------------------------------------------------------------------

    def draw_under(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """The pre-designated hexes chosen so far, under the counters."""
        view = ctx.view
        if view.phase != "setup":
            return
        found = allowance(view)
        size = ctx.camera.size
        if found.chosen:
            ctx.map_layer.draw_highlight(surface, ctx.camera, found.chosen, PD_COLOUR, alpha=70)
        for k, h in enumerate(found.chosen, 1):
            if not on_map(ctx, h, size):
                continue
            pygame.draw.polygon(surface, (40, 30, 0), hex_points(ctx, h, 0.8), 5)
            pygame.draw.polygon(surface, PD_COLOUR, hex_points(ctx, h, 0.8), 3)
            x, y = ctx.camera.hex_to_screen(h)
            label = f"PD {k}" if size >= 18 else str(k)
            image = fonts.text(label, max(11, size // 3), PD_COLOUR, True, (40, 30, 0))
            # The hex's own mark: it goes where the hex goes, and labels keep off it.
            mark = fonts.blit(surface, image, (x, y), "center", fonts.HEX_MARKS)
            labels.keep_clear(ctx, mark, soft=False)

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        view = ctx.view
        if view.phase != "setup":
            return
        found = allowance(view)
        size = ctx.camera.size
        if ctx.mode != PREDESIGNATE or not setting_up(ctx) or not found.allowed:
            return
        for pos in view.area.positions:
            x0, y0, x1, _ = sheet_geometry(pos).bounds
            sx, sy = ctx.camera.world_to_screen((x0 + x1) / 2, y0)
            n = found.per_sheet.get(pos, 0)
            # Green: more may go here; red: this sheet is full; dull: the total is used up.
            if found.left_on(pos):
                fill = (40, 110, 60)
            elif n >= PER_SHEET_CAP:
                fill = (140, 50, 40)
            else:
                fill = (88, 84, 70)
            label = f"Sheet ({pos[0]},{pos[1]}): {n} of {PER_SHEET_CAP} pre-designated"
            # Along the sheet's top, then lower down in it.
            width = (x1 - x0) * ctx.camera.size
            spots = labels.along(
                (dx, 20 + 26 * k) for k in range(4) for dx in labels.spread(width / 4, 3)
            )
            labels.post_badge(ctx, surface, label, (sx, sy), fill, 13, labels.SETUP, spots)
        h = ctx.hovered
        if h is None or not view.area.contains(h) or not on_map(ctx, h, size):
            return
        x, y = ctx.camera.hex_to_screen(h)
        spots = labels.around(size * 0.9, "above")
        if h in found.chosen:
            pygame.draw.polygon(surface, (255, 255, 255), hex_points(ctx, h), 3)
            hint = ("click: remove", (110, 90, 20))
        elif predesignation_check(view, h) is None:
            pygame.draw.polygon(surface, theme.GOOD, hex_points(ctx, h), 3)
            hint = (f"click: PD {found.used + 1}", (30, 110, 50))
        else:
            pygame.draw.polygon(surface, theme.BAD, hex_points(ctx, h), 3)
            r = size * 0.4
            pygame.draw.line(surface, theme.BAD, (x - r, y - r), (x + r, y + r), 3)
            pygame.draw.line(surface, theme.BAD, (x - r, y + r), (x + r, y - r), 3)
            hint = ("over the limit (ART-22)", (150, 40, 30))
        labels.post_badge(ctx, surface, hint[0], (x, y), hint[1], 12, labels.HINT, spots)

    # --- the panel ----------------------------------------------------------------------

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        self._draw_panel(surface, ctx)

    def _draw_panel(self, surface: pygame.Surface, ctx: UiContext) -> None:
        registry = ctx.panels
        if not setting_up(ctx) or ctx.mode not in (SELECT, PREDESIGNATE):
            registry.pop("setup", None)
            self.rect = pygame.Rect(0, 0, 0, 0)
            self.controls = []
            return
        if not ui.panel_open(ctx, "setup"):
            # Folded to its strip; a click on it (or F3) opens the panel again.
            self.rect = ui.dock(ctx, "setup", (PANEL_WIDTH, ui.STRIP_HEIGHT), "top-right")
            accent = theme.SIDE_COLOURS.get(ctx.view.side, theme.ACCENT)
            detail = "B batteries, R pre-designated hexes"
            ui.draw_strip(surface, self.rect, "Set-up (F3)", detail, accent)
            self.controls = [(self.rect, ("fold", None))]
            registry["setup"] = self.rect
            return
        # Docked at the top right, as tall as its column leaves room for.
        space = ui.dock(ctx, "setup", (PANEL_WIDTH, ui.map_rect(ctx).h), "top-right")
        room = space.h
        at = space.topleft
        mouse = ctx.mouse
        hot = None
        if self._image is not None:
            placed = self._image[1].get_rect(topleft=at)
            for r, action in self._image[2]:
                if r.move(placed.topleft).collidepoint(mouse):
                    hot = action
        key = (self._serial, ctx.mode, self.refusal, room, hot, ctx.screen_size)
        if self._image is None or self._image[0] != key:
            image, controls = self._paint(ctx, room, hot)
            self._image = (key, image, controls)
            self.panel_paints += 1
        _, image, controls = self._image
        self.rect = image.get_rect(topleft=at)
        fonts.place(surface, image, self.rect, "setup")
        self.controls = [(r.move(at), action) for r, action in controls]
        registry["setup"] = self.rect

    def _paint(
        self, ctx: UiContext, room: int, hot: Action | None
    ) -> tuple[pygame.Surface, list[tuple[pygame.Rect, Action]]]:
        view = ctx.view
        scratch = pygame.Surface((PANEL_WIDTH, room), pygame.SRCALPHA)
        controls: list[tuple[pygame.Rect, Action]] = []
        width = PANEL_WIDTH - 24
        x = 12
        y = 40
        hexes = ctx.mode == PREDESIGNATE
        tab_w = (width - 8) // 2
        tabs = [("batteries", "Batteries (B)"), ("hexes", "Pre-designated (R)")]
        controls.append((pygame.Rect(0, 0, PANEL_WIDTH, ui.STRIP_HEIGHT), ("fold", None)))
        items: list[tuple[str, Any]] = []  # drawn after the card, which needs the height
        for k, (name, label) in enumerate(tabs):
            r = pygame.Rect(x + k * (tab_w + 8), y, tab_w, 28)
            items.append(("button", (r, label, (name == "hexes") == hexes, ("tab", name))))
            controls.append((r, ("tab", name)))
        y += 38
        lines = self._hex_lines(ctx, width) if hexes else self._battery_lines(ctx, width)
        for kind, payload in lines:
            if kind == "gap":
                y += int(payload)
                continue
            if y > room - 40:
                items.append(("text", (x, y, "...", theme.SMALL, theme.MUTED, False)))
                y += 17
                break
            if kind == "text":
                text, px, colour, bold = payload
                items.append(("text", (x, y, text, px, colour, bold)))
                y += 19 if px == theme.BODY else 17
            elif kind == "bar":
                share, colour = payload
                items.append(("bar", (pygame.Rect(x, y + 3, width, 8), share, colour)))
                y += 16
            elif kind == "grid":
                col_w = (width + 8) // 2
                for n, (text, colour, action, button) in enumerate(payload):
                    cy = y + (n // 2) * 22
                    if cy > room - 40:
                        items.append(("text", (x, cy, "...", theme.SMALL, theme.MUTED, False)))
                        break
                    r = pygame.Rect(x - 4 + (n % 2) * col_w, cy - 2, col_w - 4, 21)
                    items.append(("row", (r, text, colour, action is not None and action == hot)))
                    if action is not None:
                        controls.append((r, action))
                    if button is not None:
                        label, button_action = button
                        b = pygame.Rect(r.right - 24, r.y + 1, 22, 19)
                        items.append(("button", (b, label, False, button_action)))
                        controls.insert(0, (b, button_action))
                y += min(((len(payload) + 1) // 2) * 22, max(0, room - 40 - y + 22))
            elif kind == "head":
                text, colour, button = payload
                items.append(("text", (x, y, text, theme.BODY, colour, True)))
                if button is not None:
                    label, action = button
                    b = pygame.Rect(x + width - 104, y - 3, 104, 26)
                    items.append(("button", (b, label, False, action)))
                    controls.append((b, action))
                y += 22
        height = min(room, y + 8)
        accent = theme.SIDE_COLOURS.get(view.side, theme.ACCENT)
        title = f"Set-up: {side_label(ctx.session, view.side)} (F3)"
        ui.draw_panel(scratch, pygame.Rect(0, 0, PANEL_WIDTH, height), title, accent)
        mouse_hot = hot
        for kind, payload in items:
            if kind == "text":
                tx, ty, text, px, colour, bold = payload
                ui.text(scratch, text, (tx, ty), px, colour, bold)
            elif kind == "bar":
                r, share, colour = payload
                ui.chance_bar(scratch, r, share, colour)
            elif kind == "row":
                r, text, colour, is_hot = payload
                if is_hot:
                    pygame.draw.rect(scratch, theme.BUTTON_HOT, r, border_radius=4)
                ui.text(scratch, text, (r.x + 4, r.y + 3), theme.SMALL, colour)
            elif kind == "button":
                r, label, chosen, action = payload
                fill = (
                    theme.SELECTED
                    if chosen
                    else (theme.BUTTON_HOT if action == mouse_hot else theme.BUTTON)
                )
                pygame.draw.rect(scratch, fill, r, border_radius=6)
                pygame.draw.rect(
                    scratch, theme.ACCENT if chosen else theme.PANEL_EDGE, r, 1, border_radius=6
                )
                px = theme.SMALL if r.h < 24 else theme.BODY
                ui.text(scratch, label, r.center, px, theme.TEXT, True, "center")
        return scratch.subsurface(pygame.Rect(0, 0, PANEL_WIDTH, height)).copy(), controls

    def _battery_lines(self, ctx: UiContext, width: int) -> list[tuple[str, Any]]:
        view = ctx.view
        out: list[tuple[str, Any]] = []

        def para(text: str, colour: tuple[int, int, int] = theme.MUTED) -> None:
            out.extend(
                ("text", (p, theme.SMALL, colour, False)) for p in ui.wrap(text, width, theme.SMALL)
            )

        batteries = own_batteries(view)
        if not batteries:
            para("No artillery on this side: nothing to deploy.")
        for unit in batteries:
            battery = unit.battery
            off = battery.offboard
            w = weapon_spec(battery.weapon)
            button = ("Re-deploy", ("deploy", unit.id)) if off is not None else None
            out.append(("head", (unit.name, theme.TEXT, button)))
            para(f"{w.name}, {battery.pieces} piece(s), reaches {w.max_range_sheets} sheets")
            if off is None:
                para("On the board now: it cannot be re-deployed.")
                out.append(("gap", 8))
                continue
            draft = draft_of(unit)
            pos = off.position
            sheet = view.area.catalogue.get(draft.sheet)
            sheet_name = f"{sheet.name} ({sheet.category})" if sheet else draft.sheet
            para(f"At ({pos[0]},{pos[1]}): {draft.describe()}", theme.TEXT)
            para(f"Stands on {sheet_name}, hex {draft.xxyy} (secret)", theme.TEXT)
            for line in reach_to_area(view.area, battery.weapon, pos).lines():
                para(line)
            out.append(("gap", 10))
        para(
            "Only you see where your guns stand (ART-4). Press Accept deployment "
            "(Ctrl+Enter) in the top bar when you are done."
        )
        return out

    def _hex_lines(self, ctx: UiContext, width: int) -> list[tuple[str, Any]]:
        view = ctx.view
        found = allowance(view)
        out: list[tuple[str, Any]] = []

        def para(text: str, colour: tuple[int, int, int] = theme.MUTED, bold: bool = False) -> None:
            out.extend(
                ("text", (p, theme.SMALL, colour, bold))
                for p in ui.wrap(text, width, theme.SMALL, bold)
            )

        if not found.allowed:
            para("This scenario does not allow pre-designated hexes (ART-20).", theme.TEXT)
            para("B or Esc: back to the batteries.")
            return out
        para(
            "Click a map hex to pre-designate it, click it again (or right-click) to remove "
            "it. Fire at one hits automatically after its flight time (ART-21)."
        )
        out.append(("gap", 6))
        colour = theme.GOOD if found.used < found.limit else theme.ACCENT
        out.append(("head", (f"Allowance: {found.used} of {found.limit} chosen", colour, None)))
        out.append(("bar", (found.used / found.limit if found.limit else 1.0, colour)))
        para(
            f"ART-22: 5 per artillery unit per four sheets ({found.units} unit(s), "
            f"{found.sheets} sheets), at most {PER_SHEET_CAP} on one sheet."
        )
        if self.refusal:
            out.append(("gap", 4))
            para(f"Refused: {self.refusal}", theme.BAD, True)
        out.append(("gap", 4))
        sheets = []
        for pos in view.area.positions:
            n = found.per_sheet.get(pos, 0)
            name = view.area.sheet_at(pos).name
            text = f"({pos[0]},{pos[1]}) {name}: {n}/{PER_SHEET_CAP}"
            sheets.append((text, theme.TEXT if n else theme.MUTED, None, None))
        out.append(("grid", sheets))
        out.append(("gap", 6))
        out.append(("head", ("Chosen hexes (click one to centre it)", theme.ACCENT, None)))
        if not found.chosen:
            para("None yet.")
        rows = []
        for k, h in enumerate(found.chosen, 1):
            pos, name = view.area.name_of(h)
            label = f"{k}. {name} on ({pos[0]},{pos[1]})"
            rows.append((label, theme.TEXT, ("centre", h), ("\u00d7", ("remove", h))))
        out.append(("grid", rows))
        out.append(("gap", 4))
        para("B or Esc: back to the batteries.")
        return out


def make_layers(ctx: UiContext) -> list[Layer]:
    """The set-up layer, kept as ``ctx.setup``. Its dialog goes to the screen's
    dialog host (``game.ui.widgets.dialog_layer``), which the artillery layers place on
    top of everything."""
    layer = SetupLayer(ui.dialog_layer(ctx))
    ctx.setup = layer
    return [layer]
