"""Damage of one landed shell (ART-25 .. ART-31, ART-35).

Two steps, both pure:

``blast`` works out, without dice, how much damage every unit hex and every
building hex within the shell's rings takes and why: the ring (ART-25),
vertical damage in the hit hex (ART-28), buildings standing in the way or
around a unit (ART-29), hills (ART-30) and water (ART-31).

``apply_shell`` then hands that damage to each unit's own system: BattleTech
style units through ``game.rules.battletech.apply_damage`` in 5-point groups
from the ART-27 attack direction, the other systems through the ART-35
conversions of ``game.rules.conversions``. It returns new states and never
changes the ones it was given.

The rules as implemented, with every decision, are in docs/artillery.md.
In short:

* A unit's *bottom* is its hex level (the water surface for water), minus the
  water depth when it stands on the bottom of a water hex, plus its altitude
  when airborne; its *top* is bottom + height (a standing mech is 2 levels
  high, as for line of sight, MAP-5). A building's top is its hex level plus
  its height.
* "Higher than both" (ART-29, ART-30): an intervening hex's top (its level
  for a hill, level + height for a standing building) is greater than the hit
  hex's level and greater than the top of the unit or building behind it.
* The intervening hexes are those of ``game.hexmath.line`` between the hit
  hex and the unit's hex, both ends excluded; hexes outside the play area are
  open level-0 ground. Several buildings on the line act in order from the
  hit hex, each passing on its share of what reached it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from game.artillery.weapons import Weapon, airborne_damage, ring_damage, weapon
from game.board.los import unit_height
from game.board.terrain import BUILDING, WATER
from game.dice import DiceBase, RollRecord
from game.hexmath import DIRECTION_NAMES, Hex, distance, line, ring, side_toward
from game.rules import battlesystem as bs
from game.rules import toysoldiers as ts
from game.rules.battletech import (
    UNIT_KINDS,
    InfantryDamage,
    MechDamage,
    VehicleDamage,
    apply_damage,
    attack_direction,
)
from game.rules.conversions import (
    ConversionTables,
    artillery_on_battle_unit,
    load_conversion_tables,
    toysoldier_ring_damage,
    warhammer_ring_damage,
)

SheetPosition = tuple[int, int]

SYSTEMS: tuple[str, ...] = ("battletech", "battlesystem", "warhammer", "toysoldiers")
GROUP_SIZE = 5  # ART-26


class AreaLike(Protocol):
    """What the damage rules read of a play area (``game.board.area.PlayArea``)."""

    level: np.ndarray
    terrain: np.ndarray
    water_depth: np.ndarray
    building_cf: np.ndarray
    terrain_height: np.ndarray

    def index_of(self, h: Hex) -> int: ...

    def label(self, h: Hex) -> str: ...

    def hex_0909(self, pos: SheetPosition) -> Hex: ...

    def edge_beyond(self, pos: SheetPosition) -> str: ...

    def edge_centre(self, edge: str) -> Hex: ...


# --- the shielding formula (ART-29) ------------------------------------------------------


def shielded_damage(building_damage: int, building_cf: int, unit_hex_damage: int) -> int:
    """ART-29: what a building standing between the hit hex and a unit lets through.

    A building the shell does not destroy (damage below its current CF)
    absorbs everything: 0. A destroyed one lets through
    ``floor(unabsorbed / building_damage * unit_hex_damage)`` where unabsorbed is
    the damage beyond its CF. Worked example: 40 against CF 19 destroys it, and
    a unit whose ring damage is 15 takes ``floor(21 / 40 * 15) = 7``.
    A building already at CF 0 is rubble and lets everything through.
    """
    for name, value in (
        ("building damage", building_damage),
        ("building CF", building_cf),
        ("unit hex damage", unit_hex_damage),
    ):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
            raise ValueError(f"{name} must be a whole number 0 or more, not {value!r}")
    if building_damage < building_cf:
        return 0
    if building_damage == 0:
        return int(unit_hex_damage)
    unabsorbed = building_damage - building_cf
    return int(unabsorbed * unit_hex_damage // building_damage)


# --- who stands where ----------------------------------------------------------------------


@dataclass(frozen=True)
class DamageTarget:
    """A unit under a shell, as the damage rules see it.

    ``system`` picks the resolver (ART-35); ``kind`` is the BattleTech unit
    kind (mech, vehicle, infantry) or the other system's own type. ``height``
    is in levels (default: 2 for a mech, 1 otherwise). ``submerged``: None
    works it out (a unit in a water hex stands on the bottom and is fully
    submerged when the depth is at least its height); False keeps a unit in a
    water hex on the surface (a hovercraft, a boat); True puts it under water
    on the bottom. ``altitude`` is for airborne units: levels above the hex's
    level, None on the ground (ART-28). ``extra_hexes`` are further hexes the
    unit occupies (a BATTLESYSTEM unit stands one figure per hex); each is
    damaged on its own.
    """

    id: str
    hex: Hex
    system: str = "battletech"
    kind: str = "mech"
    facing: int = 1
    height: int | None = None
    name: str = ""
    submerged: bool | None = None
    altitude: int | None = None
    extra_hexes: tuple[Hex, ...] = ()

    def __post_init__(self) -> None:
        who = f"damage target {self.id!r}"
        if not isinstance(self.id, str) or not self.id:
            raise ValueError(f"a damage target needs a non-empty text id, not {self.id!r}")
        if self.system not in SYSTEMS:
            raise ValueError(
                f"{who}: system must be one of {', '.join(SYSTEMS)}, not {self.system!r}"
            )
        if self.system == "battletech" and self.kind not in UNIT_KINDS:
            raise ValueError(
                f"{who}: a BattleTech unit is one of {', '.join(UNIT_KINDS)}, not {self.kind!r}"
            )
        if self.facing not in range(1, 7):
            raise ValueError(
                f"{who}: facing must be 1..6 (1 north, clockwise), not {self.facing!r}"
            )
        if self.height is not None and (
            isinstance(self.height, bool) or not isinstance(self.height, int) or self.height < 1
        ):
            raise ValueError(f"{who}: height is a whole number of levels, 1 or more")
        if self.altitude is not None and (
            isinstance(self.altitude, bool)
            or not isinstance(self.altitude, int)
            or self.altitude < 0
        ):
            raise ValueError(f"{who}: altitude is levels above the hex, 0 or more, or None")
        object.__setattr__(self, "hex", Hex(int(self.hex[0]), int(self.hex[1])))
        object.__setattr__(
            self, "extra_hexes", tuple(Hex(int(h[0]), int(h[1])) for h in self.extra_hexes)
        )

    @property
    def levels(self) -> int:
        """The unit's height in levels."""
        return self.height if self.height is not None else unit_height(self.kind)

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """Every hex the unit occupies, its own first, without repeats."""
        return tuple(dict.fromkeys((self.hex, *self.extra_hexes)))

    @property
    def label(self) -> str:
        return self.name or self.id

    @classmethod
    def for_battle_unit(cls, unit: bs.BattleUnit, height: int = 1) -> DamageTarget:
        """A BATTLESYSTEM unit: its anchor hex and every hex a figure stands on."""
        hexes = tuple(dict.fromkeys(unit.figure_hexes().values()))
        return cls(
            id=unit.unit_id,
            hex=hexes[0] if hexes else unit.anchor,
            system="battlesystem",
            kind=unit.troops,
            facing=unit.facing,
            height=height,
            name=unit.name,
            extra_hexes=hexes[1:],
        )


@dataclass(frozen=True)
class WarhammerTroops:
    """A Warhammer unit's numbers as ART-35 needs them (WH-7 .. WH-9)."""

    name: str
    toughness: int
    models: int
    wounds_per_model: int = 1
    armour: str | int = "none"
    shield: bool = False
    mount: bool = False
    ward: int | None = None
    carried_wounds: int = 0

    @property
    def destroyed(self) -> bool:
        return self.models == 0


# --- the pure blast ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Exposure:
    """The damage one hex of a unit takes from a shell, before any dice."""

    hex: Hex
    distance: int
    ring_damage: int  # ART-25 for this distance, before cover
    damage: int  # after ART-28 .. ART-31
    reason: str
    shielded_by: tuple[Hex, ...] = ()


@dataclass(frozen=True)
class BuildingHit:
    """A building hex within the rings (ART-29: it takes the damage like a unit)."""

    hex: Hex
    distance: int
    ring_damage: int
    damage: int
    cf_before: int
    cf_after: int
    height: int
    reason: str

    @property
    def destroyed(self) -> bool:
        return self.cf_before > 0 and self.cf_after == 0


@dataclass(frozen=True)
class Blast:
    """Every exposure of one shell: per unit id its hexes in reach, and the buildings."""

    landing: Hex
    weapon: str
    lost: bool
    hit_water: bool
    units: dict[str, tuple[Exposure, ...]]
    buildings: tuple[BuildingHit, ...]


@dataclass(frozen=True)
class _Ground:
    level: int
    terrain: int
    depth: int
    cf: int  # current CF, 0 unless a standing building
    height: int  # building height, 0 unless a standing building
    hardened: bool = False  # ART-29: a hardened building shields its occupants


# ART-29 decision: a building whose CF on its sheet is 91-150 is hardened (the
# sheets' class, docs/sheets.md); the class is the sheet's, so damage does not
# change it. The sheet format has no separate fortress class.
HARDENED_CF = 91


def _ground(area: AreaLike, h: Hex, building_cf: Mapping[Hex, int]) -> _Ground | None:
    idx = area.index_of(h)
    if idx < 0:
        return None
    terrain = int(area.terrain[idx])
    cf = height = 0
    hardened = False
    if terrain == BUILDING:
        sheet_cf = int(area.building_cf[idx])
        cf = int(building_cf.get(h, sheet_cf))
        # A destroyed building is rubble: nothing stands on the hex any more.
        height = int(area.terrain_height[idx]) if cf > 0 else 0
        hardened = sheet_cf >= HARDENED_CF
    return _Ground(int(area.level[idx]), terrain, int(area.water_depth[idx]), cf, height, hardened)


def _check_cf(building_cf: Mapping[Hex, int]) -> dict[Hex, int]:
    if not isinstance(building_cf, Mapping):
        raise TypeError(f"building CFs map hexes to CF, not {type(building_cf).__name__}")
    out: dict[Hex, int] = {}
    for h, cf in building_cf.items():
        if isinstance(cf, bool) or not isinstance(cf, int | np.integer) or cf < 0:
            raise ValueError(f"building CF of {h} must be a whole number 0 or more, not {cf!r}")
        out[Hex(int(h[0]), int(h[1]))] = int(cf)
    return out


class _Blaster:
    """Works out one shell's exposures, nearest hexes first (shielding needs them)."""

    def __init__(
        self, area: AreaLike, landing: Hex, w: Weapon, building_cf: Mapping[Hex, int]
    ) -> None:
        self.area = area
        self.landing = landing
        self.w = w
        self.cf = building_cf
        ground = _ground(area, landing, building_cf)
        self.lost = ground is None
        self.hit_level = ground.level if ground else 0
        self.hit_water = bool(ground and ground.terrain == WATER)
        self.buildings: dict[Hex, BuildingHit] = {}

    def ring(self, h: Hex) -> tuple[int, int]:
        d = distance(self.landing, h)
        return d, ring_damage(self.w, d)

    def cover(self, h: Hex, d: int, damage: int, top: int) -> tuple[int, list[str], list[Hex]]:
        """ART-29, ART-30: what of ``damage`` reaches a unit or building with top
        ``top`` in ``h``, through the hexes between it and the hit hex."""
        notes: list[str] = []
        by: list[Hex] = []
        if d < 2 or damage <= 0:
            return damage, notes, by
        for x in line(self.landing, h)[1:-1]:
            g = _ground(self.area, x, self.cf)
            if g is None:
                continue
            where = self.area.label(x)
            if g.level > self.hit_level and g.level > top:
                notes.append(
                    f"shielded by the hill in {where} (level {g.level}, higher than the hit "
                    f"hex's level {self.hit_level} and the top {top} behind it; ART-30)"
                )
                by.append(x)
                return 0, notes, by
            if g.cf > 0:
                b_top = g.level + g.height
                if b_top > self.hit_level and b_top > top:
                    hit = self.buildings[x]
                    through = shielded_damage(hit.damage, hit.cf_before, damage)
                    by.append(x)
                    if hit.cf_after > 0:
                        notes.append(
                            f"shielded by the building in {where} (top {b_top}, CF "
                            f"{hit.cf_before}, takes {hit.damage} and stands; ART-29)"
                        )
                        return 0, notes, by
                    notes.append(
                        f"the building in {where} (top {b_top}) is destroyed by {hit.damage} "
                        f"against CF {hit.cf_before} and lets through "
                        f"floor({hit.damage - hit.cf_before}/{hit.damage} x {damage}) = {through} "
                        "(ART-29)"
                    )
                    damage = through
                    if damage == 0:
                        return 0, notes, by
        return damage, notes, by

    def building(self, h: Hex, g: _Ground) -> BuildingHit:
        d, full = self.ring(h)
        top = g.level + g.height
        damage, notes, _ = self.cover(h, d, full, top)
        cf_after = max(0, g.cf - damage)
        where = "the hit hex" if d == 0 else f"ring {d}"
        reason = f"{where}, {full} damage"
        if notes:
            reason += "; " + "; ".join(notes)
        reason += f"; CF {g.cf} -> {cf_after}" + (", destroyed" if cf_after == 0 else "")
        hit = BuildingHit(h, d, full, damage, g.cf, cf_after, g.height, reason)
        self.buildings[h] = hit
        return hit

    def inside_hardened(self, h: Hex, damage: int) -> tuple[int, str]:
        """ART-29: a hardened building shields the unit inside it by the formula
        of a building on the line: nothing while it stands, the unabsorbed share
        when this shell destroys it."""
        hit = self.buildings[h]
        through = shielded_damage(hit.damage, hit.cf_before, damage)
        if hit.cf_after > 0:
            return 0, (
                f"inside a hardened building (CF {hit.cf_before}) that takes {hit.damage} "
                "and stands: shielded (ART-29)"
            )
        return through, (
            f"inside a hardened building destroyed by {hit.damage} against CF "
            f"{hit.cf_before}: floor({hit.damage - hit.cf_before}/{hit.damage} x {damage}) "
            f"= {through} (ART-29)"
        )

    def unit_hex(self, target: DamageTarget, h: Hex) -> Exposure:
        g = _ground(self.area, h, self.cf)
        if g is None:
            raise ValueError(
                f"{target.label} stands in {self.area.label(h)}; units under a shell must "
                "stand in the play area"
            )
        d, full = self.ring(h)
        height = target.levels
        in_water = g.terrain == WATER and g.depth > 0
        floating = in_water and target.submerged is False
        bottom = g.level - (g.depth if in_water and not floating else 0)
        submerged = in_water and (
            target.submerged if target.submerged is not None else g.depth >= height
        )
        # Altitude 0 is a unit down on its hex: it is hit like any ground unit.
        airborne = bool(target.altitude)
        if airborne:
            bottom = g.level + int(target.altitude or 0)
            submerged = False
        top = bottom + height
        where = "the hit hex" if d == 0 else f"ring {d}"
        if airborne:
            assert target.altitude is not None
            if d > 0:
                return Exposure(
                    h,
                    d,
                    full,
                    0,
                    f"{where}: airborne, and vertical damage reaches above the hit "
                    "hex only (ART-28)",
                )
            # ART-28: taken once at the unit's lowest level.
            damage = airborne_damage(self.w, full, target.altitude)
            return Exposure(
                h,
                d,
                full,
                damage,
                f"{where}: airborne {target.altitude} levels up, "
                f"{full} - {self.w.falloff} x {target.altitude} = {damage} (ART-28)",
            )
        if submerged and d > 0 and not self.hit_water:
            return Exposure(
                h,
                d,
                full,
                0,
                f"{where}: fully submerged in water while the shell burst on dry ground (ART-31)",
            )
        notes: list[str] = []
        if submerged:
            notes.append("under water in a water blast, full damage as inside a building (ART-31)")
        if g.cf > 0 and not g.hardened:
            notes.append("inside the building, full damage as the building takes (ART-29)")
        damage, cover_notes, by = self.cover(h, d, full, top)
        notes.extend(cover_notes)
        if g.cf > 0 and g.hardened and damage > 0:
            damage, note = self.inside_hardened(h, damage)
            notes.append(note)
            by.append(h)
        reason = f"{where}, {full} damage"
        if notes:
            reason += "; " + "; ".join(notes)
        return Exposure(h, d, full, damage, reason, tuple(by))


def blast(
    area: AreaLike,
    landing: Hex,
    weapon_: str | Weapon,
    targets: Iterable[DamageTarget],
    building_cf: Mapping[Hex, int] | None = None,
) -> Blast:
    """The damage of one shell landed in ``landing`` on every target and building
    within its rings, with reasons, before any dice (ART-25, ART-28 .. ART-31).

    ``building_cf`` holds the current CF of building hexes that differ from the
    sheets (0: destroyed). A shell landing outside the play area is lost and
    damages nothing (as the forecast counts it).
    """
    w = weapon(weapon_)
    landing = Hex(int(landing[0]), int(landing[1]))
    cf = _check_cf(building_cf or {})
    targets = list(targets)
    ids = [t.id for t in targets]
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"damage target ids must be unique; given twice: {', '.join(twice)}")
    blaster = _Blaster(area, landing, w, cf)
    if blaster.lost:
        return Blast(landing, w.id, True, False, {}, ())
    radius = w.ring_radius
    # Buildings first, nearest first: shielding reads what the nearer ones took.
    near = []
    for k in range(radius + 1):
        for h in ring(landing, k):
            g = _ground(area, h, cf)
            if g is not None and g.cf > 0:
                near.append((h, g))
    buildings = tuple(blaster.building(h, g) for h, g in near)
    units: dict[str, tuple[Exposure, ...]] = {}
    for t in targets:
        hexes = [h for h in t.hexes if distance(landing, h) <= radius]
        if hexes:
            units[t.id] = tuple(blaster.unit_hex(t, h) for h in hexes)
    return Blast(landing, w.id, False, blaster.hit_water, units, buildings)


# --- attack direction (ART-27) -------------------------------------------------------------------


@dataclass(frozen=True)
class BatteryOrigin:
    """Where the shell came from, for attack directions (ART-27).

    Off-board: the sheet position the battery stands on. On-board: its hex, and
    whether the battery is hidden there (ART-4): a hidden battery's hex sets the
    direction of the attack but is never named in a text (the victim learns the
    direction, as from a battery off the board; not the hex).
    """

    sheet_position: SheetPosition | None = None
    hex: Hex | None = None
    hidden: bool = False

    def __post_init__(self) -> None:
        if (self.sheet_position is None) == (self.hex is None):
            raise ValueError(
                "a battery origin is either off-board (a sheet position) or on-board (a hex)"
            )

    @classmethod
    def off_board(cls, position: SheetPosition) -> BatteryOrigin:
        return cls(sheet_position=(int(position[0]), int(position[1])))

    @classmethod
    def on_board(cls, h: Hex, *, hidden: bool = False) -> BatteryOrigin:
        return cls(hex=Hex(int(h[0]), int(h[1])), hidden=hidden)


def attack_origin(area: AreaLike, landing: Hex, origin: BatteryOrigin) -> tuple[Hex | None, str]:
    """ART-27: the hex the hit hex is attacked from, and how to say it.

    Off-board: the centre hex of the play-area edge beyond which the battery
    stands. On-board: the battery's hex (None when the battery stands in the
    hit hex itself). Units in the ring hexes are attacked from the hit hex.
    """
    if origin.hex is not None:
        if origin.hex == landing:
            return None, "a hidden battery" if origin.hidden else "the battery's own hex"
        if origin.hidden:
            return origin.hex, "a hidden battery"
        return origin.hex, f"the battery in {area.label(origin.hex)}"
    assert origin.sheet_position is not None
    try:
        edge = area.edge_beyond(origin.sheet_position)
    except ValueError:
        # A position inside the area's extent (a notch of a grown area): aim from
        # the battery sheet's centre hex instead.
        centre = area.hex_0909(origin.sheet_position)
        return centre, "hex 0909 of the battery's sheet"
    return area.edge_centre(edge), f"the centre of the {edge} edge"


def _entering(
    area: AreaLike, unit_hex: Hex, landing: Hex, origin: BatteryOrigin
) -> tuple[int | None, str]:
    """The side (1..6) the blast enters ``unit_hex`` through, or None (on-board
    battery in the hit hex: the attack counts as from the front)."""
    if unit_hex != landing:
        return side_toward(unit_hex, landing), "the hit hex"
    source, said = attack_origin(area, landing, origin)
    if source is None:
        return None, said
    if source == unit_hex:
        # The unit stands on the edge centre hex itself: the shell still comes
        # from beyond that edge, from the battery's sheet.
        assert origin.sheet_position is not None
        source = area.hex_0909(origin.sheet_position)
        said = "the battery's sheet beyond the edge"
    return side_toward(unit_hex, source), said


# --- applying the damage ------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitHit:
    """One unit under the shell: its exposures, what its system made of them."""

    target: str
    name: str
    exposures: tuple[Exposure, ...]
    damage: int
    entering_side: int | None
    attack_direction: str | None
    state: Any
    destroyed: bool
    rolls: tuple[RollRecord, ...]
    lines: tuple[str, ...]

    @property
    def account(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class ShellDamage:
    """Everything one shell did: new unit states and building CFs, every roll, the log."""

    landing: Hex
    weapon: str
    lost: bool
    units: tuple[UnitHit, ...]
    buildings: tuple[BuildingHit, ...]
    unit_states: dict[str, Any]
    building_cf: dict[Hex, int]
    destroyed_units: tuple[str, ...]
    destroyed_buildings: tuple[Hex, ...]
    rolls: tuple[RollRecord, ...]
    lines: tuple[str, ...] = field(default=())

    @property
    def account(self) -> str:
        return "\n".join(self.lines)

    def unit(self, target_id: str) -> UnitHit:
        for u in self.units:
            if u.target == target_id:
                return u
        raise KeyError(f"{target_id!r} took no part in this shell's damage")


def apply_shell(
    dice: DiceBase,
    area: AreaLike,
    landing: Hex,
    weapon_: str | Weapon,
    targets: Sequence[DamageTarget],
    unit_states: Mapping[str, Any],
    building_cf: Mapping[Hex, int] | None,
    battery_origin: BatteryOrigin,
    *,
    tables: ConversionTables | None = None,
) -> ShellDamage:
    """Resolve one landed shell's damage (ART-25 .. ART-31, ART-35).

    ``unit_states`` maps each target id to its damage state: BattleTech-style
    ``MechDamage``/``VehicleDamage``/``InfantryDamage``; a BATTLESYSTEM
    ``BattleUnit``; ``WarhammerTroops``; toy soldiers a ``Warrior``, a ``Gun``
    or a tuple of them in the hex. Units are resolved nearest first (then in
    the given order), so the dice are used in a fixed order (ART-34).
    """
    w = weapon(weapon_)
    landing = Hex(int(landing[0]), int(landing[1]))
    if not isinstance(battery_origin, BatteryOrigin):
        raise TypeError("battery_origin must be a BatteryOrigin (off_board(...) or on_board(...))")
    missing = [t.id for t in targets if t.id not in unit_states]
    if missing:
        raise ValueError(f"no damage state given for {', '.join(missing)}")
    cf_in = _check_cf(building_cf or {})
    found = blast(area, landing, w, targets, cf_in)
    states = dict(unit_states)
    if found.lost:
        line_ = f"{w.name} lands in {area.label(landing)}, off the play area: lost, no damage"
        return ShellDamage(landing, w.id, True, (), (), states, dict(cf_in), (), (), (), (line_,))
    start = len(dice.records)
    lines = [f"{w.name} bursts in {area.label(landing)}"]
    new_cf = dict(cf_in)
    for b in found.buildings:
        new_cf[b.hex] = b.cf_after
        lines.append(f"building in {area.label(b.hex)} ({b.reason})")
    order = sorted(
        (t for t in targets if t.id in found.units),
        key=lambda t: min(e.distance for e in found.units[t.id]),
    )
    hits: list[UnitHit] = []
    for t in order:
        first = len(dice.records)
        hit = _apply_unit(
            dice, area, landing, w, t, states[t.id], found.units[t.id], battery_origin, tables
        )
        hit = replace(hit, rolls=tuple(dice.records[first:]))
        states[t.id] = hit.state
        hits.append(hit)
        lines.extend(hit.lines)
    return ShellDamage(
        landing=landing,
        weapon=w.id,
        lost=False,
        units=tuple(hits),
        buildings=found.buildings,
        unit_states=states,
        building_cf=new_cf,
        destroyed_units=tuple(h.target for h in hits if h.destroyed),
        destroyed_buildings=tuple(b.hex for b in found.buildings if b.destroyed),
        rolls=tuple(dice.records[start:]),
        lines=tuple(lines),
    )


def _destroyed(state: Any) -> bool:
    if isinstance(state, tuple):
        return bool(state) and all(_destroyed(s) for s in state)
    if isinstance(state, ts.Warrior):
        return not state.on_board
    if isinstance(state, ts.Gun):
        return state.status == "lost"
    if isinstance(state, ts.Vehicle):
        return state.status == "knocked out"
    if isinstance(state, bs.BattleUnit):
        return state.figures == 0
    return bool(getattr(state, "destroyed", False))


def _apply_unit(
    dice: DiceBase,
    area: AreaLike,
    landing: Hex,
    w: Weapon,
    t: DamageTarget,
    state: Any,
    exposures: tuple[Exposure, ...],
    origin: BatteryOrigin,
    tables: ConversionTables | None,
) -> UnitHit:
    total = sum(e.damage for e in exposures)
    main = min(exposures, key=lambda e: e.distance)
    side, said = _entering(area, main.hex, landing, origin)
    head = f"{t.label} in {area.label(main.hex)} ({main.reason}"
    if side is not None:
        head += f"; from the {DIRECTION_NAMES[side]}, from {said})"
    else:
        head += f"; fired from {said}: attacked from the front)"
    lines = [head]
    for e in exposures[1:]:
        lines.append(f"  also in {area.label(e.hex)} ({e.reason})")
    direction: str | None = None
    was_destroyed = _destroyed(state)
    if total == 0:
        lines.append("  takes no damage")
        return UnitHit(
            t.id, t.label, exposures, 0, side, None, state, was_destroyed, (), tuple(lines)
        )
    if t.system == "battletech":
        _check_state(t, state, (MechDamage, VehicleDamage, InfantryDamage))
        if state.kind != t.kind:
            raise ValueError(f"{t.label} is a {t.kind} but its damage state is a {state.kind}")
        # ART-27: the attack direction from the facing and the side the blast enters.
        direction = "front" if side is None else attack_direction(t.facing, side, t.kind)
        result = apply_damage(state, total, direction, dice, GROUP_SIZE)
        lines.append(
            f"  {total} damage in {GROUP_SIZE}-point groups from the {direction} (ART-26):"
        )
        lines.extend(f"    {line_}" for line_ in result.lines)
        state = result.state
    elif t.system == "battlesystem":
        _check_state(t, state, (bs.BattleUnit,))
        for e in exposures:
            if e.damage == 0:
                continue
            result = artillery_on_battle_unit(dice, e.damage, state, weapon=w.name, tables=tables)
            lines.append(f"  {result.ring.account}")
            state = result.unit
    elif t.system == "warhammer":
        _check_state(t, state, (WarhammerTroops,))
        for e in exposures:
            if e.damage == 0 or state.models == 0:
                continue
            result = warhammer_ring_damage(
                dice,
                e.damage,
                state.toughness,
                state.armour,
                shield=state.shield,
                mount=state.mount,
                ward=state.ward,
                wounds_per_model=state.wounds_per_model,
                carried=state.carried_wounds,
                models=state.models,
                weapon=w.name,
                target=state.name or t.label,
                tables=tables,
            )
            lines.extend(f"  {line_}" for line_ in result.account.splitlines())
            state = replace(
                state,
                models=state.models - result.models_removed,
                carried_wounds=result.wounds_carried,
            )
    else:
        state = _toy_soldiers(dice, w, t, state, exposures, lines, tables)
    destroyed = _destroyed(state)
    if destroyed and not was_destroyed:
        lines.append(f"  {t.label} is destroyed")
    return UnitHit(
        t.id, t.label, exposures, total, side, direction, state, destroyed, (), tuple(lines)
    )


def _check_state(t: DamageTarget, state: Any, kinds: tuple[type, ...]) -> None:
    if not isinstance(state, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise TypeError(
            f"{t.label} is a {t.system} unit; its damage state must be a {names}, "
            f"not {type(state).__name__}"
        )


def _toy_vehicle(
    dice: DiceBase,
    w: Weapon,
    vehicle: ts.Vehicle,
    exposures: tuple[Exposure, ...],
    lines: list[str],
    tables: ConversionTables | None,
) -> ts.Vehicle:
    """ART-35 on a toy-soldier battle machine or tank (TS-5). Decision: a ring hits
    it as it hits a figure (d6 <= ring_damage // 5 - its armour), and a hit lowers its
    remaining armour by 1, as an armour-piercing virtual hit does."""
    table = (tables or load_conversion_tables()).toysoldiers
    for e in exposures:
        if e.damage == 0 or vehicle.status != "running":
            continue
        chance = table.chance(e.damage, vehicle.armour)
        if chance == 0:
            lines.append(f"  {w.name} ring {e.damage}: the {vehicle.name} cannot be hurt")
            continue
        roll = dice.d6(f"{w.name} ring {e.damage} on {vehicle.name}")
        told = "no hit"
        if roll <= chance:
            vehicle = vehicle.hit()
            told = f"hit, armour {vehicle.armour} left" if vehicle.armour else "knocked out"
        lines.append(
            f"  {w.name} ring {e.damage} on the {vehicle.name}: needs {chance} or less, "
            f"d6 {roll}: {told} (TS-5)"
        )
    return vehicle


def _toy_soldiers(
    dice: DiceBase,
    w: Weapon,
    t: DamageTarget,
    state: Any,
    exposures: tuple[Exposure, ...],
    lines: list[str],
    tables: ConversionTables | None,
) -> Any:
    if isinstance(state, ts.Vehicle):
        return _toy_vehicle(dice, w, state, exposures, lines, tables)
    single = not isinstance(state, tuple)
    pieces = (state,) if single else state
    for p in pieces:
        if not isinstance(p, ts.Warrior | ts.Gun):
            raise TypeError(
                f"{t.label} is a toy-soldier unit; its state is a Warrior, a Gun or a tuple of "
                f"them, not {type(p).__name__}"
            )
    for e in exposures:
        if e.damage == 0:
            continue
        figures = [p for p in pieces if isinstance(p, ts.Warrior) and p.on_board]
        guns = [p for p in pieces if isinstance(p, ts.Gun)]
        result = toysoldier_ring_damage(
            dice, e.damage, figures, guns, distance=e.distance, weapon=w.name, tables=tables
        )
        lines.append(f"  {result.account}")
        after_w = iter(result.warriors_after)
        after_g = iter(result.guns_after)
        pieces = tuple(
            next(after_w)
            if isinstance(p, ts.Warrior) and p.on_board
            else next(after_g)
            if isinstance(p, ts.Gun)
            else p
            for p in pieces
        )
    return pieces[0] if single else pieces
