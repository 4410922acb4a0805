"""Where the guns stand and what they reach: off-board deployment (ART-1, ART-2,
ART-4, ART-5), homing fire beyond range (ART-15) and air-launched Arrow IV (ART-14).

An off-board battery stands on a sheet-grid position outside the play area
(ART-2 decision): ``distance`` sheets beyond one edge of the area (1 = the
first sheet beyond it), at sheet column ``along`` (behind a north or south
edge) or sheet row ``along`` (behind a west or east edge); ``along`` defaults
to the middle of the area's span along that edge. The edge is the owner's own
home edge ("behind") or one of the two flanks; a flank position must lie on
the owner's side of the half-line (MAP-3: a sheet whose centre is on the line
belongs to neither side). The owner also declares, in secret, the sheet id
the battery stands on and its exact hex there (ART-2); the opponent sees none
of it (ART-4) until the sheet comes into play and the battery with it (MAP-10).

The position is fixed when the battery is deployed: the play area may grow
later (MAP-6) but the battery does not move with its edges.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal, Protocol

from game.artillery.flight import flight_time, sheet_distance
from game.artillery.scatter import ShellLanding, resolve_shell
from game.artillery.tohit import artillery_target_number
from game.artillery.weapons import Weapon, ammunition, weapon
from game.board.area import EDGES, FLANKS, edge_beyond_bounds, sheet_hex
from game.board.sheet import Sheet, available_sheets, parse_xxyy
from game.dice import DiceBase
from game.hexmath import Hex
from game.limits import SHEET_POSITION_LIMIT, position_refusal
from game.rules.core import TargetNumber

SheetPosition = tuple[int, int]

BEHIND = "behind"


class DeploymentError(ValueError):
    """An off-board deployment breaks ART-1/ART-2; the message gives every reason."""


class SheetGrid(Protocol):
    """What deployment reads of a play area (``game.board.area.PlayArea``)."""

    home_edges: str
    sides: tuple[str, str]

    def sheet_bounds(self) -> tuple[int, int, int, int]: ...

    def has_sheet(self, pos: SheetPosition) -> bool: ...

    def side_of_position(self, pos: SheetPosition) -> str | None: ...

    def position_of(self, h: Hex) -> SheetPosition: ...


def _fmt(pos: SheetPosition) -> str:
    return f"({pos[0]},{pos[1]})"


def flanks(area: SheetGrid) -> tuple[str, str]:
    """The two flank edges: the edges that are nobody's home edge."""
    return FLANKS[area.home_edges]


def _span(area: SheetGrid, direction: str) -> tuple[int, int]:
    i_min, i_max, j_min, j_max = area.sheet_bounds()
    return (i_min, i_max) if direction in ("north", "south") else (j_min, j_max)


def default_along(area: SheetGrid, direction: str) -> int:
    """The sheet column (north/south) or row (west/east) in the middle of the
    area's span along that edge; with an even count, the western (northern) of
    the two middle ones."""
    lo, hi = _span(area, _check_edge(direction))
    return (lo + hi) // 2


def position_beyond(
    bounds: tuple[int, int, int, int], direction: str, distance: int, along: int
) -> SheetPosition:
    """ART-2: the sheet position ``distance`` sheets beyond the ``direction`` edge of
    sheet bounds ``(i_min, i_max, j_min, j_max)``; 1 = the first sheet beyond it."""
    i_min, i_max, j_min, j_max = bounds
    direction = _check_edge(direction)
    if direction == "north":
        return (along, j_min - distance)
    if direction == "south":
        return (along, j_max + distance)
    if direction == "west":
        return (i_min - distance, along)
    return (i_max + distance, along)


def off_board_position(area: SheetGrid, direction: str, distance: int, along: int) -> SheetPosition:
    """ART-2: the sheet position ``distance`` sheets beyond ``direction``; 1 = the first."""
    return position_beyond(area.sheet_bounds(), direction, distance, along)


def _check_edge(direction: str) -> str:
    if direction not in EDGES:
        raise DeploymentError(
            f'direction "{direction}" must be an edge ({", ".join(EDGES)}) or "{BEHIND}"'
        )
    return direction


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class OffBoardPosition:
    """A deployed off-board battery (ART-1, ART-2): secret to its side (ART-4)."""

    battery: str
    side: str
    direction: str
    distance: int
    along: int
    sheet_id: str
    hex: str  # XXYY on the declared sheet
    position: SheetPosition  # fixed at deployment

    @property
    def battery_hex(self) -> Hex:
        """ART-2 + MAP-2: the global hex of the battery (its sheet is not in play)."""
        return sheet_hex(self.position, *parse_xxyy(self.hex))

    def sheets_to(self, area: SheetGrid, target: Hex) -> int:
        """ART-5: sheets between the battery's sheet and the sheet holding ``target``."""
        return sheet_distance(self.position, area.position_of(target))

    def flight_time_to(self, area: SheetGrid, weapon_: str | Weapon, target: Hex) -> int:
        """ART-6: turns a shell of ``weapon_`` flies from here to ``target``."""
        return flight_time(weapon_, self.sheets_to(area, target))

    def range_refusal(self, area: SheetGrid, weapon_: str | Weapon, target: Hex) -> str | None:
        """ART-3: why ``weapon_`` cannot reach ``target`` from here, or None."""
        w = weapon(weapon_)
        sheets = self.sheets_to(area, target)
        if sheets > w.max_range_sheets:
            where = _fmt(area.position_of(target))
            return (
                f"{w.name} reaches {w.max_range_sheets} sheets; the target's sheet {where} is "
                f"{sheets} sheets from the battery"
            )
        return None

    def on_board(self, area: SheetGrid) -> bool:
        """MAP-10: the battery's sheet position is in play; it is an on-board unit now."""
        return area.has_sheet(self.position)

    def placement_refusal(self, pos: SheetPosition, sheet_id: str) -> str | None:
        """MAP-10: a sheet placed at the battery's position must be its declared sheet."""
        if tuple(pos) == self.position and sheet_id != self.sheet_id:
            return (
                f"sheet position {_fmt(self.position)} holds a battery of this side: the sheet "
                f'placed there must be its declared sheet "{self.sheet_id}", not "{sheet_id}"'
            )
        return None

    def view_for(self, viewer: str) -> dict[str, Any] | None:
        """ART-4: its owner sees everything; the opponent sees nothing at all."""
        return self.to_dict() if viewer == self.side else None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["position"] = [self.position[0], self.position[1]]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OffBoardPosition:
        keys = ("battery", "side", "direction", "distance", "along", "sheet_id", "hex", "position")
        missing = [k for k in keys if k not in data]
        if missing:
            raise DeploymentError(f"saved off-board position: missing {', '.join(missing)}")
        pos = data["position"]
        if not isinstance(pos, list | tuple) or len(pos) != 2 or not all(_whole(v) for v in pos):
            raise DeploymentError(f"saved off-board position: position must be [i, j], not {pos!r}")
        parse_xxyy(str(data["hex"]))
        return cls(
            battery=str(data["battery"]),
            side=str(data["side"]),
            direction=str(data["direction"]),
            distance=int(data["distance"]),
            along=int(data["along"]),
            sheet_id=str(data["sheet_id"]),
            hex=str(data["hex"]),
            position=(int(pos[0]), int(pos[1])),
        )


def deployment_refusals(
    area: SheetGrid,
    side: str,
    direction: str,
    distance: int,
    sheet_id: str,
    hex_name: str,
    along: int | None = None,
    *,
    sheets: Mapping[str, Sheet] | None = None,
    weapon_: str | Weapon | None = None,
) -> list[str]:
    """Every reason an off-board deployment is illegal (ART-1, ART-2, ART-3); empty when legal."""
    reasons: list[str] = []
    if side not in area.sides:
        return [f'side "{side}" is not one of this area\'s sides ({", ".join(area.sides)})']
    if direction == BEHIND:
        direction = side
    side_flanks = flanks(area)
    if direction not in EDGES:
        return [f'direction "{direction}" must be "{BEHIND}" or an edge: {", ".join(EDGES)}']
    if direction != side and direction not in side_flanks:
        reasons.append(
            f"ART-1: a battery of {side} stands behind its own home edge ({side}) or on a flank "
            f"({' or '.join(side_flanks)}), never behind the {direction} edge, the enemy's"
        )
    if not _whole(distance) or distance < 1:
        reasons.append(
            f"distance is a whole number of sheets, 1 or more (1 = the first sheet beyond the "
            f"edge), not {distance!r}"
        )
    if along is not None and not _whole(along):
        reasons.append(f"along is a sheet column or row (a whole number), not {along!r}")
    # Positions beyond the limits are refused before any search along the edge.
    for name, value in (("distance", distance), ("along", along)):
        if _whole(value) and abs(value) > SHEET_POSITION_LIMIT:
            reasons.append(
                f"{name} {value} puts the battery too far out: sheet positions lie within "
                f"-{SHEET_POSITION_LIMIT}..{SHEET_POSITION_LIMIT}"
            )
    try:
        parse_xxyy(hex_name)
    except (ValueError, TypeError) as exc:
        reasons.append(f"ART-2: the battery's hex: {exc}")
    known = sheets if sheets is not None else available_sheets()
    if sheet_id not in known:
        names = ", ".join(sorted(known)) or "none: no sheet files were found"
        reasons.append(f'ART-2: there is no sheet "{sheet_id}" to stand on (known: {names})')
    if reasons:
        return reasons
    if along is None:
        along = default_along(area, direction)
    pos = off_board_position(area, direction, distance, along)
    too_far = position_refusal(pos)
    if too_far:
        return [too_far]
    wrong_edge = along_refusal(area.sheet_bounds(), area.home_edges, direction, distance, along)
    if wrong_edge is not None:
        reasons.append(wrong_edge)
    if direction in side_flanks:
        half = area.side_of_position(pos)
        if half != side:
            now = (
                "on the half-line, which belongs to neither side"
                if half is None
                else f"on {half}'s side"
            )
            reasons.append(
                f"ART-1: a battery on the {direction} flank must stand on its own side of the "
                f"half-line; {_fmt(pos)} is {now}"
            )
    if area.has_sheet(pos):
        reasons.append(f"sheet position {_fmt(pos)} holds a sheet in play: it is not off-board")
    if weapon_ is not None:
        w = weapon(weapon_)
        positions = _area_positions(area)
        nearest = min(sheet_distance(pos, p) for p in positions)
        if nearest > w.max_range_sheets:
            reasons.append(
                f"ART-3: {w.name} reaches {w.max_range_sheets} sheets but the nearest sheet of "
                f"the play area is {nearest} sheets from {_fmt(pos)}; bring the battery closer"
            )
    return reasons


def _area_positions(area: SheetGrid) -> list[SheetPosition]:
    positions = getattr(area, "positions", None)
    if positions:
        return list(positions)
    i_min, i_max, j_min, j_max = area.sheet_bounds()
    return [(i, j) for i in range(i_min, i_max + 1) for j in range(j_min, j_max + 1)]


def along_refusal(
    bounds: tuple[int, int, int, int], home_edges: str, direction: str, distance: int, along: int
) -> str | None:
    """ART-2: why ``along`` puts a battery ``distance`` sheets beyond the ``direction``
    edge of sheet bounds ``(i_min, i_max, j_min, j_max)`` beyond another edge
    instead (ART-27 measures attacks from the edge it lies beyond), or None.

    Works on bounds alone so that scenario files are checked the same way as
    deployments in play.
    """
    pos = position_beyond(bounds, direction, distance, along)
    beyond = edge_beyond_bounds(bounds, home_edges, pos)
    if beyond == direction:
        return None
    i_min, i_max, j_min, j_max = bounds
    lo, hi = (i_min, i_max) if direction in ("north", "south") else (j_min, j_max)
    fits = [
        a
        for a in range(lo - distance, hi + distance + 1)
        if edge_beyond_bounds(bounds, home_edges, position_beyond(bounds, direction, distance, a))
        == direction
    ]
    axis = "column" if direction in ("north", "south") else "row"
    return (
        f"sheet {axis} {along} at distance {distance} puts the battery at {_fmt(pos)}, "
        f"beyond the {beyond} edge rather than the {direction} edge; at this distance "
        f"choose a {axis} from {min(fits)} to {max(fits)}"
    )


def deploy(
    area: SheetGrid,
    battery: str,
    side: str,
    direction: str,
    distance: int,
    sheet_id: str,
    hex_name: str,
    along: int | None = None,
    *,
    sheets: Mapping[str, Sheet] | None = None,
    weapon_: str | Weapon | None = None,
) -> OffBoardPosition:
    """ART-1, ART-2: place an off-board battery, or DeploymentError with every reason."""
    reasons = deployment_refusals(
        area, side, direction, distance, sheet_id, hex_name, along, sheets=sheets, weapon_=weapon_
    )
    if reasons:
        raise DeploymentError(f"battery {battery}: " + "; ".join(reasons))
    if direction == BEHIND:
        direction = side
    if along is None:
        along = default_along(area, direction)
    pos = off_board_position(area, direction, distance, along)
    return OffBoardPosition(battery, side, direction, distance, along, sheet_id, hex_name, pos)


# --- homing fire beyond range (ART-15) ----------------------------------------------------------


@dataclass(frozen=True)
class ShotFate:
    """What becomes of a shot before any die is rolled.

    ``fires`` False: the shot is spent with no effect and no scatter (ART-15).
    ``beyond_range``: sheets over the weapon's maximum range; an air-launched
    Arrow IV fires anyway at +1 per sheet (ART-14).
    """

    weapon: str
    ammunition: str
    sheets: int
    beyond_range: int
    fires: bool
    reason: str


def shot_fate(
    weapon_: str | Weapon, ammo_id: str, sheets: int, *, air_launched: bool = False
) -> ShotFate:
    """ART-15 / ART-14 / ART-3: the fate of a shot ``sheets`` sheets long.

    Homing Arrow IV beyond its maximum range misses with no effect. Other fire
    from the ground beyond maximum range cannot be plotted at all (a
    ValueError says why). Air-launched Arrow IV fires beyond range with +1 per
    sheet over.
    """
    w = weapon(weapon_)
    ammo = ammunition(w, ammo_id)
    if not _whole(sheets) or sheets < 0:
        raise ValueError(f"a shot's length is a whole number of sheets, 0 or more, not {sheets!r}")
    if air_launched and not w.air_launchable:
        raise ValueError(f"only Arrow IV can be fired from the air, not {w.name} (ART-14)")
    over = max(0, sheets - w.max_range_sheets)
    if over and ammo.homing:
        return ShotFate(
            w.id,
            ammo.id,
            sheets,
            over,
            False,
            f"homing {w.name} fired {sheets} sheets, {over} beyond its maximum range of "
            f"{w.max_range_sheets}: it misses with no effect and does not scatter (ART-15)",
        )
    if over and not air_launched:
        raise ValueError(
            f"{w.name} reaches {w.max_range_sheets} sheets; a target {sheets} sheets away is "
            "out of range (ART-3)"
        )
    if over:
        reason = f"{sheets} sheets, {over} beyond maximum range: +{over} to hit (ART-14)"
    else:
        reason = f"{sheets} sheets, within the maximum range of {w.max_range_sheets}"
    return ShotFate(w.id, ammo.id, sheets, over, True, reason)


@dataclass(frozen=True)
class ShotOutcome:
    """A shot resolved on arrival: its fate and, when it fired, where it landed."""

    fate: ShotFate
    landing: ShellLanding | None

    @property
    def no_effect(self) -> bool:
        return self.landing is None

    def account(self, name_of: Callable[[Hex], str] = str) -> str:
        if self.landing is None:
            return self.fate.reason
        return self.landing.account(name_of)


def resolve_shot(
    dice: DiceBase,
    fate: ShotFate,
    aimed: Hex,
    to_hit: TargetNumber | int | None,
    on_area: Callable[[Hex], bool],
    automatic: str | None = None,
    purpose: str = "artillery",
) -> ShotOutcome:
    """Resolve one arriving shell: a shot whose fate is no effect rolls nothing and
    lands nowhere (ART-15); any other goes to ``resolve_shell`` (ART-11, ART-12).

    ``to_hit`` should already carry the ART-14 beyond-range modifier
    (``artillery_target_number(beyond_range_sheets=fate.beyond_range)``).
    """
    if not fate.fires:
        return ShotOutcome(fate, None)
    return ShotOutcome(fate, resolve_shell(dice, aimed, to_hit, on_area, automatic, purpose))


# --- air-launched Arrow IV (ART-14) -------------------------------------------------------------

LOW_ALTITUDE_CEILING = 9  # altitude 10 and above: no attack
HIGH_ALTITUDE_ROWS = 4  # the ground row (0) and rows 1-4 of the high-altitude map
SHEETS_PER_ATMOSPHERIC_HEX = 6  # ART-14 worked example: row 3 -> 18 sheets
HIGH_ALTITUDE_MODIFIER = 3


@dataclass(frozen=True)
class AirLaunch:
    """An air-launched Arrow IV attack worked out before the roll (ART-14)."""

    mode: Literal["low", "high"]
    height: int  # altitude (low-altitude map) or hex row (high-altitude map)
    sheets: int
    flight_time: int
    beyond_range: int
    to_hit: TargetNumber

    @property
    def to_hit_number(self) -> int:
        return self.to_hit.total


def air_flight_time(altitude: int) -> int:
    """ART-14: from altitude 1-8 the shell arrives next turn; from 9, in two turns."""
    if not _whole(altitude) or altitude < 1:
        raise ValueError(f"an airborne attacker flies at altitude 1 or more, not {altitude!r}")
    if altitude > LOW_ALTITUDE_CEILING:
        raise ValueError(f"no artillery attack from altitude {altitude} (10 or above; ART-14)")
    return 1 if altitude <= 8 else 2


def _air_weapon(weapon_: str | Weapon) -> Weapon:
    w = weapon(weapon_)
    if not w.air_launchable:
        raise ValueError(f"only Arrow IV can be fired from the air, not {w.name} (ART-14)")
    return w


def low_altitude_launch(
    weapon_: str | Weapon,
    gunnery: int,
    altitude: int,
    spotter_gunnery: int | None = None,
    adjustments: int = 0,
    spotter_attacking: bool = False,
) -> AirLaunch:
    """ART-14, low-altitude map: +1 from altitude 4-6, +2 from 7-9; flight time by
    altitude; the target is on the sheet under the attacker, so never beyond range."""
    _air_weapon(weapon_)
    turns = air_flight_time(altitude)
    tn = artillery_target_number(
        gunnery, spotter_gunnery, adjustments, spotter_attacking, altitude=altitude
    )
    return AirLaunch("low", altitude, 0, turns, 0, tn)


def high_altitude_sheets(row: int) -> int:
    """ART-14, high-altitude map: each atmospheric hex counts as 6 sheets (row 3 ->
    18 sheets). Decision: the ground row crosses no atmospheric hex and counts
    as 1 sheet, so the shell still takes one turn to come down."""
    if not _whole(row) or not 0 <= row <= HIGH_ALTITUDE_ROWS:
        raise ValueError(
            f"attacks on ground hexes come only from the ground row (0) or rows 1-"
            f"{HIGH_ALTITUDE_ROWS} of the high-altitude map, not row {row!r} (ART-14)"
        )
    return max(1, SHEETS_PER_ATMOSPHERIC_HEX * row)


def high_altitude_launch(
    weapon_: str | Weapon,
    gunnery: int,
    row: int,
    spotter_gunnery: int | None = None,
    adjustments: int = 0,
    spotter_attacking: bool = False,
) -> AirLaunch:
    """ART-14, high-altitude map: +3 to hit whatever the row; the distance in
    sheets gives the flight time, and each sheet beyond maximum range +1 (the
    shot still scatters by its margin of failure)."""
    w = _air_weapon(weapon_)
    sheets = high_altitude_sheets(row)
    over = max(0, sheets - w.max_range_sheets)
    tn = artillery_target_number(
        gunnery, spotter_gunnery, adjustments, spotter_attacking, beyond_range_sheets=over
    ).plus("high altitude", HIGH_ALTITUDE_MODIFIER)
    return AirLaunch("high", row, sheets, flight_time(w, sheets), over, tn)


def air_target_refusal(attacker_sheet: SheetPosition, target_sheet: SheetPosition) -> str | None:
    """ART-14: the target hex must be on the sheet under the attacker."""
    if tuple(attacker_sheet) != tuple(target_sheet):
        return (
            f"an air-launched Arrow IV hits only the sheet under the attacker "
            f"{_fmt(tuple(attacker_sheet))}, not sheet {_fmt(tuple(target_sheet))} (ART-14)"
        )
    return None
