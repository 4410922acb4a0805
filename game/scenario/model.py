"""A scenario as plain data, and the schemas its file is checked against.

The file format is described in ``docs/scenarios.md``. Positions of sheets
are sheet-grid positions ``(i, j)`` (MAP-2): ``i`` grows to the east, ``j`` to
the south, so north is up the map. Hexes stay ``XXYY`` names on a sheet here;
turning them into lattice hexes is the play area's job (``build_area``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.artillery.deployment import position_beyond
from game.artillery.predesignated import predesignated_limit
from game.artillery.weapons import WEAPONS
from game.board.area import EDGES, HOME_EDGES, half_line_side, middle_line2, sheet_bounds
from game.board.area import FLANKS as FLANKS  # re-exported for the callers that read scenarios
from game.limits import TURNS_LIMIT
from game.scenario.schema import (
    Field,
    choice,
    flag,
    hex_name,
    is_whole,
    locations,
    nearest,
    parsed,
    position,
    table,
    text,
    whole,
)

if TYPE_CHECKING:
    from game.board.area import PlayArea

Position = tuple[int, int]

EDGE_NAMES = EDGES

# ART-3: every artillery weapon the game knows, with its maximum range in sheets.
WEAPON_RANGES: dict[str, int] = {w.id: w.max_range_sheets for w in WEAPONS.values()}

SHEET_TABLE_RULES = ("free", "similar", "pile")  # MAP-9 free/similar, MAP-8 pile
CONTROLLERS = ("any", "human", "ai")
FACING_HINT = "1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW"

# --------------------------------------------------------------------------
# Schemas of the file's tables (docs/scenarios.md). One line per key.

SCENARIO_FIELDS: dict[str, Field] = {
    "name": text(required=True),
    "briefing": text(required=True),
    "home_edges": choice(*HOME_EDGES, required=True),
    "turns": whole(1, TURNS_LIMIT, required=True, hint="the turn limit"),
}

OPTIONS_FIELDS: dict[str, Field] = {
    "mobile_maps": flag(default=False),  # MAP-6
    "sheet_table": choice(*SHEET_TABLE_RULES, default="free"),  # MAP-8, MAP-9
    "predesignated_hexes": flag(default=False),  # ART-20
    "fire_after_manoeuvre": flag(default=False),  # TS-13, by agreement of both sides
}

LAYOUT_FIELDS: dict[str, Field] = {
    "position": position(required=True),
    "sheet": text(required=True, hint="a sheet id: a file name in maps/sheets without .toml"),
}

SIDE_FIELDS: dict[str, Field] = {
    "name": choice(*EDGE_NAMES, required=True),
    "label": text(),
    "controller": choice(*CONTROLLERS, default="any"),
}

UNIT_FIELDS: dict[str, Field] = {
    "id": text(required=True),
    "side": choice(*EDGE_NAMES, required=True),
    "name": text(),
    "sheet": position(required=True),
    "hex": hex_name(required=True),
    "facing": whole(1, 6, required=True, hint=FACING_HINT),
    "profile": table(required=True, hint="the unit's system profile, e.g. system = ..."),
}

ARTILLERY_FIELDS: dict[str, Field] = {
    "id": text(required=True),
    "side": choice(*EDGE_NAMES, required=True),
    "name": text(),
    "weapon": choice(*WEAPON_RANGES, required=True),
    "pieces": whole(1, 12, default=1),
    "gunnery": whole(0, 8, required=True),
    "direction": choice(*EDGE_NAMES, required=True),
    "along": whole(
        -99,
        99,
        required=True,
        hint="the sheet column i (behind a north or south edge) or row j (west or east)",
    ),
    "distance": whole(1, 200, required=True, hint="sheets beyond the edge; 1 = the first sheet"),
    "sheet": text(required=True, hint="the sheet id the battery stands on"),
    "hex": hex_name(required=True),
}

PREDESIGNATED_FIELDS: dict[str, Field] = {
    "side": choice(*EDGE_NAMES, required=True),
    "sheet": position(required=True),
    "hex": hex_name(required=True),
}

# Victory conditions: one schema per type. A new type is one entry here (and
# its check in the game's end phase).
_VICTORY_COMMON: dict[str, Field] = {
    "type": text(required=True),
    "side": choice(*EDGE_NAMES, required=True),
    "description": text(),
}
VICTORY_TYPES: dict[str, dict[str, Field]] = {
    # The side wins when every artillery unit of the other side is destroyed.
    "destroy_artillery": {**_VICTORY_COMMON},
    # The side wins when it has destroyed `count` enemy units (default: all of them).
    "destroy_units": {**_VICTORY_COMMON, "count": whole(1, 999)},
    # The side wins when it holds the hex at the end of `turns` turns in a row.
    "hold_hex": {
        **_VICTORY_COMMON,
        "sheet": position(required=True),
        "hex": hex_name(required=True),
        "turns": whole(1, 999, default=1),
    },
    # The side wins when the turn limit is reached and no other condition was met.
    "survive": {**_VICTORY_COMMON},
    # At the turn limit, with no other result, the side scoring more victory points
    # wins: each destroyed enemy unit scores its points, each damaged one 1.
    "points": {**_VICTORY_COMMON},
}

# --------------------------------------------------------------------------
# System profiles (ART-35: each unit carries a profile from one system).
# Names and choices follow the resolvers in game/rules (tests keep them in step);
# location names are the resolver's with "_" for " " ("centre_torso").

BATTLETECH_TYPES = ("mech", "vehicle", "infantry", "aerospace")
# ART-32: mech locations; the torsos also have rear armour.
MECH_LOCATIONS = (
    "head",
    "centre_torso",
    "left_torso",
    "right_torso",
    "left_arm",
    "right_arm",
    "left_leg",
    "right_leg",
)
MECH_TORSOS = ("centre_torso", "left_torso", "right_torso")
VEHICLE_LOCATIONS = ("front", "left_side", "right_side", "rear")
VEHICLE_OPTIONAL = ("turret",)  # a vehicle without a turret has no turret location
WEIGHT_CLASSES = ("light", "medium", "heavy", "assault")  # the resolver's standard units
BATTLESYSTEM_TROOPS = ("infantry", "cavalry")
BATTLESYSTEM_WEAPONS = ("other", "spear", "pike", "polearm", "halberd", "lance")
WARHAMMER_TYPES = ("infantry", "cavalry", "monster", "war_machine", "character")
TOY_TYPES = ("warrior", "gun", "vehicle")  # vehicle: a battle machine or tank (TS-5)
GUN_TYPES = ("cannon", "howitzer", "mortar", "machine gun")


def _attack_dice(value: Any) -> None:
    """BS-1, BS-6: attack dice notations, read by the BATTLESYSTEM resolver itself."""
    from game.rules.battlesystem import parse_attack_dice

    parse_attack_dice(value)


def _terrain_names(value: Any) -> None:
    """BS-11: the terrain a regiment's creatures prefer, by the maps' terrain names."""
    from game.board.terrain import TERRAIN_NAMES

    names = sorted(TERRAIN_NAMES.values())
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"must be a list of terrain names ({', '.join(names)})")
    unknown = [v for v in value if v not in names]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not a terrain (terrains: {', '.join(names)})")


def _shooter(value: Any) -> None:
    """TS-3: the shooter profile ``R/C - N [flags]``, read by the toy-soldier resolver."""
    from game.rules.toysoldiers import parse_profile

    parse_profile(value)


def _direct_fire_weapons(value: Any) -> None:
    """ART-32a: direct-fire weapons by the BattleTech resolver's ids."""
    from game.rules.battletech import DIRECT_FIRE_WEAPONS

    _known_words(value, DIRECT_FIRE_WEAPONS, "weapon")


def _gun_types(value: Any) -> None:
    """TS-11: the gun types a warrior is qualified to crew."""
    _known_words(value, GUN_TYPES, "gun type")


def _known_words(value: Any, known: Any, what: str) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"must be a list of {what}s in quotes")
    for word in value:
        if word not in known:
            raise ValueError(
                f'unknown {what} "{word}"{nearest(word, known)} (known: {", ".join(known)})'
            )


def _range_bands(value: Any) -> None:
    """Short, medium and long range in hexes, growing (BS-13)."""
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not all(is_whole(v) and v >= 1 for v in value)
    ):
        raise ValueError("must be three whole numbers [short, medium, long]")
    if not value[0] < value[1] < value[2]:
        raise ValueError("short < medium < long")


def _profile(system_types: tuple[str, ...], fields: dict[str, Field]) -> dict[str, Field]:
    return {
        "system": text(required=True),
        "type": choice(*system_types, required=True),
        "template": text(),
        "model": text(),
        "points": whole(0, 999, hint="victory points for destroying the unit"),
        **fields,
    }


PROFILE_FIELDS: dict[str, dict[str, Field]] = {
    "battletech": _profile(
        BATTLETECH_TYPES,
        {
            "gunnery": whole(0, 8, required=True),
            "piloting": whole(0, 8, required_for=("mech", "vehicle")),
            "walk": whole(0, 20, required=True, hint="walking MP (MOV-1)"),
            "tonnage": whole(1, 200, types=("mech", "vehicle")),
            "height": whole(1, 3, hint="levels the unit stands above its hex (MAP-5)"),
            "motive": choice("tracked", "wheeled", "hover", default="tracked", types=("vehicle",)),
            "weight_class": choice(*WEIGHT_CLASSES, types=("mech", "vehicle")),
            "armour": locations(
                {"mech": MECH_LOCATIONS, "vehicle": VEHICLE_LOCATIONS},
                0,
                200,
                required=True,
                optional={"vehicle": VEHICLE_OPTIONAL},
                unless="weight_class",
            ),
            "rear_armour": locations(
                {"mech": MECH_TORSOS}, 0, 200, required=True, unless="weight_class"
            ),
            "structure": locations(
                {"mech": MECH_LOCATIONS, "vehicle": VEHICLE_LOCATIONS},
                1,
                200,
                required=True,
                optional={"vehicle": VEHICLE_OPTIONAL},
                unless="weight_class",
            ),
            "troopers": whole(1, 30, default=28, types=("infantry",)),
            "weapons": parsed(_direct_fire_weapons, 'e.g. ["medium_laser", "srm2"]'),
            # ART-14, ART-36: an aircraft carrying Arrow IV; its walk is its velocity.
            "arrow_iv": choice(
                "arrow_iv_is", "arrow_iv_clan", types=("aerospace",), required_for=("aerospace",)
            ),
            "altitude": whole(
                0, 10, default=3, types=("aerospace",), hint="starting altitude, or row if high"
            ),
            "altitude_map": choice("low", "high", default="low", types=("aerospace",)),
            "shots": whole(1, 99, types=("aerospace",), hint="Arrow IV missiles carried"),
        },
    ),
    "battlesystem": _profile(
        BATTLESYSTEM_TROOPS,
        {
            "figures": whole(1, 500, required=True),
            "frontage": whole(1, 100, hint="figures in the front rank"),
            "ad": parsed(
                _attack_dice,
                'attack dice in quotes: "8", "6*4", "[12]8", "12+8" (BS-6)',
                required=True,
            ),
            "ar": whole(2, 10, required=True, hint="armor rating (BS-8)"),
            "hits_per_figure": whole(1, 20, required=True),
            "move": whole(0, 30, required=True, hint="hexes per turn (MOV-2)"),
            "size": choice("small", "man", "large", default="man"),
            "formation": choice("regular", "irregular", default="regular"),
            "weapon": choice(*BATTLESYSTEM_WEAPONS, default="other"),
            "missile_ranges": parsed(_range_bands, "in hexes, e.g. [7, 14, 21]"),
            "magical_volleys": whole(0, 99, hint="BS-14"),
            "magical_ad": parsed(
                _attack_dice, 'the magical missiles\' attack dice, e.g. "12" (BS-14)'
            ),
            "preferred_terrain": parsed(
                _terrain_names, 'e.g. ["light woods", "heavy woods"] (BS-11)'
            ),
        },
    ),
    "warhammer": _profile(
        WARHAMMER_TYPES,
        {
            "models": whole(1, 200, required=True),
            "move": whole(0, 20, required=True, hint="hexes per turn (MOV-2)"),
            "ws": whole(1, 10),
            "bs": whole(0, 10, required=True),
            "s": whole(1, 10),
            "t": whole(1, 10, required=True),
            "w": whole(1, 10, required=True),
            "i": whole(1, 10),
            "a": whole(1, 10),
            "ld": whole(2, 10),
            "armour": choice("none", "light", "heavy", default="none"),  # WH-8
            "shield": flag(default=False),
            "mount": flag(default=False),
            "ward": whole(2, 6, hint="ward save, never modified (WH-9)"),
            "weapon_strength": whole(1, 10),
            "weapon_range": whole(1, 72),
            "shots": whole(1, 10),
            # WHC-1: the unit's command, each +1 to the combat result (a musician
            # breaks ties).
            "standard": flag(default=False),
            "battle_standard": flag(default=False),
            "musician": flag(default=False),
        },
    ),
    "toysoldiers": _profile(
        TOY_TYPES,
        {
            "figures": whole(1, 20, default=1),
            "armour": whole(0, 6, default=0, hint="a vehicle's is its remaining armour (TS-5)"),
            "move": whole(
                0, 20, required_for=("warrior", "vehicle"), hint="steps (hexes) per turn"
            ),
            "shooter": parsed(_shooter, "TS-3", types=("warrior", "gun"), required_for=("gun",)),
            "gun_type": choice(*GUN_TYPES, types=("gun",), required_for=("gun",)),
            "qualified": parsed(_gun_types, "TS-11", types=("warrior",)),
        },
    ),
}
SYSTEMS = tuple(PROFILE_FIELDS)


# --------------------------------------------------------------------------
# The scenario itself.


@dataclass(frozen=True)
class SheetPlacement:
    """One sheet of the starting play area (MAP-2)."""

    position: Position
    sheet: str


@dataclass(frozen=True)
class Options:
    mobile_maps: bool = False  # MAP-6
    sheet_table: str = "free"  # MAP-8 "pile", MAP-9 "free" / "similar"
    predesignated_hexes: bool = False  # ART-20
    fire_after_manoeuvre: bool = False  # TS-13


@dataclass(frozen=True)
class Side:
    """A player's side; its name is its home edge (MAP-3)."""

    name: str
    label: str
    controller: str = "any"


@dataclass(frozen=True)
class Unit:
    """A unit on the board at the start. ``profile`` is its checked system profile."""

    id: str
    side: str
    name: str
    sheet: Position
    hex: str
    facing: int
    profile: dict[str, Any]

    @property
    def system(self) -> str:
        return str(self.profile["system"])

    @property
    def type(self) -> str:
        return str(self.profile["type"])


@dataclass(frozen=True)
class Battery:
    """An off-board artillery unit (ART-1, ART-2), hidden at the start (ART-4).

    It stands ``distance`` sheets beyond the play area's ``direction`` edge,
    at sheet column (north/south) or row (west/east) ``along``, on a sheet
    ``sheet`` at hex ``hex``.
    """

    id: str
    side: str
    name: str
    weapon: str
    pieces: int
    gunnery: int
    direction: str
    along: int
    distance: int
    sheet: str
    hex: str


@dataclass(frozen=True)
class PredesignatedHex:
    """A pre-designated target hex (ART-20), secret to its side."""

    side: str
    sheet: Position
    hex: str


@dataclass(frozen=True)
class VictoryCondition:
    """One way to win; ``params`` holds the type's own keys (VICTORY_TYPES)."""

    type: str
    side: str
    description: str = ""
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    """A checked scenario: plain data, built by ``load_scenario``."""

    id: str
    name: str
    briefing: str
    home_edges: str
    turns: int
    options: Options
    layout: tuple[SheetPlacement, ...]
    sides: tuple[Side, Side]
    units: tuple[Unit, ...] = ()
    artillery: tuple[Battery, ...] = ()
    predesignated: tuple[PredesignatedHex, ...] = ()
    victory: tuple[VictoryCondition, ...] = ()
    templates: dict[str, dict[str, Any]] = field(default_factory=dict)

    # -- geometry of the starting play area ---------------------------------

    @property
    def positions(self) -> list[Position]:
        return [p.position for p in self.layout]

    @property
    def sheet_count(self) -> int:
        return len(self.layout)

    def side_names(self) -> tuple[str, str]:
        return HOME_EDGES[self.home_edges]

    def side(self, name: str) -> Side:
        for s in self.sides:
            if s.name == name:
                return s
        raise KeyError(f"no side {name!r} in scenario {self.id!r}")

    def side_of_position(self, pos: Position) -> str | None:
        """MAP-3: the side whose half of the starting play area holds this sheet position."""
        return side_of_position(self.positions, self.home_edges, pos)

    def battery_position(self, battery: Battery) -> Position:
        """ART-2: the sheet-grid position where an off-board battery stands."""
        return battery_position(self.positions, battery.direction, battery.along, battery.distance)

    def predesignated_limit(self, side: str) -> int:
        """ART-22: how many pre-designated hexes ``side`` may pick in this scenario."""
        batteries = sum(1 for b in self.artillery if b.side == side)
        return predesignated_limit(batteries, self.sheet_count)

    def build_area(self, sheets_dir: str | Path | None = None) -> PlayArea:
        """The starting play area (MAP-2) built from the layout's sheets.

        ``sheets_dir`` is the folder the scenario was checked against (default
        maps/sheets). Units' hexes resolve on it with ``area.hex_at(sheet, hex)``.
        """
        # The board's arrays are only needed to play, not to check a file.
        from game.board.area import PlayArea
        from game.board.sheet import available_sheets

        catalogue = available_sheets(sheets_dir) if sheets_dir is not None else None
        return PlayArea.from_layout(
            {p.position: p.sheet for p in self.layout},
            home_edges=self.home_edges,
            sheets=catalogue,
        )

    # -- plain data ---------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The scenario in the shape of its file; ``scenario_from_dict`` reads it back."""
        data: dict[str, Any] = {
            "scenario": {
                "name": self.name,
                "briefing": self.briefing,
                "home_edges": self.home_edges,
                "turns": self.turns,
            },
            "options": {
                "mobile_maps": self.options.mobile_maps,
                "sheet_table": self.options.sheet_table,
                "predesignated_hexes": self.options.predesignated_hexes,
                "fire_after_manoeuvre": self.options.fire_after_manoeuvre,
            },
            "layout": [{"position": list(p.position), "sheet": p.sheet} for p in self.layout],
            "sides": [
                {"name": s.name, "label": s.label, "controller": s.controller} for s in self.sides
            ],
        }
        if self.templates:
            data["templates"] = {k: dict(v) for k, v in self.templates.items()}
        if self.units:
            data["units"] = [_unit_dict(u) for u in self.units]
        if self.artillery:
            data["artillery"] = [_battery_dict(b) for b in self.artillery]
        if self.predesignated:
            data["predesignated"] = [
                {"side": p.side, "sheet": list(p.sheet), "hex": p.hex} for p in self.predesignated
            ]
        if self.victory:
            data["victory"] = [_victory_dict(v) for v in self.victory]
        return data


def _unit_dict(u: Unit) -> dict[str, Any]:
    d: dict[str, Any] = {"id": u.id, "side": u.side}
    if u.name:
        d["name"] = u.name
    d.update(sheet=list(u.sheet), hex=u.hex, facing=u.facing, profile=_plain(u.profile))
    return d


def _battery_dict(b: Battery) -> dict[str, Any]:
    d: dict[str, Any] = {"id": b.id, "side": b.side}
    if b.name:
        d["name"] = b.name
    d.update(
        weapon=b.weapon,
        pieces=b.pieces,
        gunnery=b.gunnery,
        direction=b.direction,
        along=b.along,
        distance=b.distance,
        sheet=b.sheet,
        hex=b.hex,
    )
    return d


def _victory_dict(v: VictoryCondition) -> dict[str, Any]:
    d: dict[str, Any] = {"type": v.type, "side": v.side}
    if v.description:
        d["description"] = v.description
    d.update(_plain(v.params))
    return d


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


# --------------------------------------------------------------------------
# Sheet-grid geometry of the starting play area.


def side_of_position(positions: list[Position], home_edges: str, pos: Position) -> str | None:
    """MAP-3: which side of the half-line a sheet position lies on, None when on the line.

    The half-line runs across the middle of the starting play area parallel to
    the home edges and extends past it; a sheet belongs to the side its centre
    lies on (``game.board.area.half_line_side``).
    """
    return half_line_side(middle_line2(sheet_bounds(positions), home_edges), home_edges, pos)


def battery_position(
    positions: list[Position], direction: str, along: int, distance: int
) -> Position:
    """ART-2: ``distance`` sheets beyond the play area's ``direction`` edge; 1 = the first."""
    return position_beyond(sheet_bounds(positions), direction, distance, along)
