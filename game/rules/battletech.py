"""BattleTech-style resolver: to-hit on 2d6, hit locations, damage (ART-26, ART-27,
ART-32, ART-32a).

Plain numbers in, results out: nothing here knows the board beyond the hex
geometry needed to say which side of a hex an attack enters through. Every
random step takes a dice object; beside each resolver sits its exact odds
(design principle 7): ``hit_chance``/``hit_probability`` and
``location_distribution``. ``batch_hits`` and ``batch_locations`` sample the
same tables with numpy for Monte Carlo work.

Decisions where the rules are silent are listed in ``docs/battletech.md``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Literal

import numpy as np

from game.dice import DiceBase, RollRecord, batch_roll
from game.hexmath import DIRECTIONS, Hex, side_toward
from game.rules.core import TargetNumber, probability_at_least, sum_distribution

AttackDirection = Literal["front", "left", "right", "rear"]
ATTACK_DIRECTIONS: tuple[str, ...] = ("front", "left", "right", "rear")
UNIT_KINDS: tuple[str, ...] = ("mech", "vehicle", "infantry")

# --- locations --------------------------------------------------------------------

HEAD = "head"
CENTRE_TORSO = "centre torso"
LEFT_TORSO = "left torso"
RIGHT_TORSO = "right torso"
LEFT_ARM = "left arm"
RIGHT_ARM = "right arm"
LEFT_LEG = "left leg"
RIGHT_LEG = "right leg"
MECH_LOCATIONS: tuple[str, ...] = (
    HEAD,
    CENTRE_TORSO,
    LEFT_TORSO,
    RIGHT_TORSO,
    LEFT_ARM,
    RIGHT_ARM,
    LEFT_LEG,
    RIGHT_LEG,
)
# ART-32: torsos also carry rear armour.
MECH_TORSOS: tuple[str, ...] = (CENTRE_TORSO, LEFT_TORSO, RIGHT_TORSO)
# ART-32: damage past structure transfers inward. The head and the centre
# torso have nowhere further in: either one's loss destroys the mech.
MECH_INWARD: dict[str, str] = {
    LEFT_ARM: LEFT_TORSO,
    LEFT_LEG: LEFT_TORSO,
    RIGHT_ARM: RIGHT_TORSO,
    RIGHT_LEG: RIGHT_TORSO,
    LEFT_TORSO: CENTRE_TORSO,
    RIGHT_TORSO: CENTRE_TORSO,
}

# Standard BattleTech: an arm is mounted on its side torso and goes with it.
ARM_OF_TORSO: dict[str, str] = {LEFT_TORSO: LEFT_ARM, RIGHT_TORSO: RIGHT_ARM}

VEHICLE_FRONT = "front"
VEHICLE_LEFT = "left side"
VEHICLE_RIGHT = "right side"
VEHICLE_REAR = "rear"
VEHICLE_TURRET = "turret"
VEHICLE_LOCATIONS: tuple[str, ...] = (
    VEHICLE_FRONT,
    VEHICLE_LEFT,
    VEHICLE_RIGHT,
    VEHICLE_REAR,
    VEHICLE_TURRET,
)
# A turret result on a vehicle without a turret strikes the armour facing the
# attack (docs/battletech.md).
VEHICLE_FACING_LOCATION: dict[str, str] = {
    "front": VEHICLE_FRONT,
    "left": VEHICLE_LEFT,
    "right": VEHICLE_RIGHT,
    "rear": VEHICLE_REAR,
}

PLATOON = "platoon"


def _table(*rows: tuple[Sequence[int], str]) -> dict[int, str]:
    out: dict[int, str] = {}
    for rolls, location in rows:
        for roll in rolls:
            out[roll] = location
    if sorted(out) != list(range(2, 13)):  # pragma: no cover - guards the tables below
        raise AssertionError(f"a hit location table must cover 2..12, not {sorted(out)}")
    return out


_MECH_FRONT = _table(
    ((2,), CENTRE_TORSO),
    ((3, 4), RIGHT_ARM),
    ((5,), RIGHT_LEG),
    ((6,), RIGHT_TORSO),
    ((7,), CENTRE_TORSO),
    ((8,), LEFT_TORSO),
    ((9,), LEFT_LEG),
    ((10, 11), LEFT_ARM),
    ((12,), HEAD),
)
_MECH_LEFT = _table(
    ((2,), LEFT_TORSO),
    ((3,), LEFT_LEG),
    ((4, 5), LEFT_ARM),
    ((6,), LEFT_LEG),
    ((7,), LEFT_TORSO),
    ((8,), CENTRE_TORSO),
    ((9,), RIGHT_TORSO),
    ((10,), RIGHT_ARM),
    ((11,), RIGHT_LEG),
    ((12,), HEAD),
)
_MIRROR = {
    LEFT_TORSO: RIGHT_TORSO,
    RIGHT_TORSO: LEFT_TORSO,
    LEFT_ARM: RIGHT_ARM,
    RIGHT_ARM: LEFT_ARM,
    LEFT_LEG: RIGHT_LEG,
    RIGHT_LEG: LEFT_LEG,
}

# ART-32: 2d6 hit location tables by attack direction. Rear attacks use the
# front column but strike the torsos' rear armour.
MECH_HIT_TABLE: dict[str, dict[int, str]] = {
    "front": _MECH_FRONT,
    "rear": dict(_MECH_FRONT),
    "left": _MECH_LEFT,
    "right": {roll: _MIRROR.get(loc, loc) for roll, loc in _MECH_LEFT.items()},
}

# ART-32 decision: the standard ground vehicle table. The side struck opposite
# the "5" and "9" results is the one a glancing shot would reach.
VEHICLE_HIT_TABLE: dict[str, dict[int, str]] = {
    "front": _table(
        ((2, 3, 4), VEHICLE_FRONT),
        ((5,), VEHICLE_RIGHT),
        ((6, 7, 8), VEHICLE_FRONT),
        ((9,), VEHICLE_LEFT),
        ((10, 11, 12), VEHICLE_TURRET),
    ),
    "rear": _table(
        ((2, 3, 4), VEHICLE_REAR),
        ((5,), VEHICLE_LEFT),
        ((6, 7, 8), VEHICLE_REAR),
        ((9,), VEHICLE_RIGHT),
        ((10, 11, 12), VEHICLE_TURRET),
    ),
    "left": _table(
        ((2, 3, 4), VEHICLE_LEFT),
        ((5,), VEHICLE_FRONT),
        ((6, 7, 8), VEHICLE_LEFT),
        ((9,), VEHICLE_REAR),
        ((10, 11, 12), VEHICLE_TURRET),
    ),
    "right": _table(
        ((2, 3, 4), VEHICLE_RIGHT),
        ((5,), VEHICLE_FRONT),
        ((6, 7, 8), VEHICLE_RIGHT),
        ((9,), VEHICLE_REAR),
        ((10, 11, 12), VEHICLE_TURRET),
    ),
}


def _check_kind(kind: str) -> None:
    if kind not in UNIT_KINDS:
        raise ValueError(f"unit kind must be one of {', '.join(UNIT_KINDS)}, not {kind!r}")


def _check_direction(direction: str) -> None:
    if direction not in ATTACK_DIRECTIONS:
        raise ValueError(
            f"attack direction must be one of {', '.join(ATTACK_DIRECTIONS)}, not {direction!r}"
        )


def location_names(kind: str, has_turret: bool = True) -> tuple[str, ...]:
    """Every location a unit of this kind has, in a fixed order (batch indices)."""
    _check_kind(kind)
    if kind == "mech":
        return MECH_LOCATIONS
    if kind == "vehicle":
        return VEHICLE_LOCATIONS if has_turret else VEHICLE_LOCATIONS[:-1]
    return (PLATOON,)


def hit_location(kind: str, direction: str, roll: int, has_turret: bool = True) -> str:
    """ART-32: the location a 2d6 ``roll`` strikes on a unit attacked from ``direction``.

    Infantry has no locations: every hit lands on the platoon.
    """
    _check_kind(kind)
    _check_direction(direction)
    if isinstance(roll, bool) or not isinstance(roll, int | np.integer) or not 2 <= roll <= 12:
        raise ValueError(f"a hit location roll is 2d6, 2..12, not {roll!r}")
    if kind == "mech":
        return MECH_HIT_TABLE[direction][roll]
    if kind == "vehicle":
        location = VEHICLE_HIT_TABLE[direction][roll]
        if location == VEHICLE_TURRET and not has_turret:
            return VEHICLE_FACING_LOCATION[direction]
        return location
    return PLATOON


def location_distribution(
    kind: str, direction: str, has_turret: bool = True
) -> dict[str, Fraction]:
    """Exact chance of each location for one hit from ``direction`` (2d6, ART-32)."""
    _check_kind(kind)
    _check_direction(direction)
    out: dict[str, Fraction] = {}
    for roll, p in sum_distribution(2, 6).items():
        location = hit_location(kind, direction, roll, has_turret)
        out[location] = out.get(location, Fraction(0)) + p
    return out


def _location_index_table(kind: str, direction: str, has_turret: bool) -> np.ndarray:
    names = location_names(kind, has_turret)
    table = np.full(13, -1, dtype=np.int8)
    for roll in range(2, 13):
        table[roll] = names.index(hit_location(kind, direction, roll, has_turret))
    return table


def batch_locations(
    rng: np.random.Generator,
    kind: str,
    direction: str,
    count: int,
    has_turret: bool = True,
) -> np.ndarray:
    """``count`` hit locations sampled with numpy, as indices into ``location_names``.

    Uses the same table as ``hit_location``; for Monte Carlo forecasts.
    """
    table = _location_index_table(kind, direction, has_turret)
    rolls = batch_roll(rng, (count, 2), 6).sum(axis=1, dtype=np.int8)
    return table[rolls]


# --- to hit ------------------------------------------------------------------------


def hit_chance(target_number: TargetNumber | int) -> Fraction:
    """Exact P(2d6 >= target number): 1 at 2 or below, 0 above 12."""
    return probability_at_least(2, 6, _total(target_number))


def hit_probability(target_number: TargetNumber | int) -> float:
    """P(2d6 >= target number) as a float: 0.0 above 12, 1.0 at 2 or below."""
    return float(hit_chance(target_number))


def _total(target_number: TargetNumber | int) -> int:
    if isinstance(target_number, TargetNumber):
        return target_number.total
    if isinstance(target_number, bool) or not isinstance(target_number, int | np.integer):
        raise TypeError(
            f"a target number is an int or a TargetNumber, not {type(target_number).__name__}"
        )
    return int(target_number)


@dataclass(frozen=True)
class ToHitResult:
    """One 2d6 to-hit roll against a target number; ``margin`` = roll - target."""

    record: RollRecord
    target_number: int
    target: TargetNumber | None = None

    @property
    def roll(self) -> int:
        return self.record.total

    @property
    def hit(self) -> bool:
        return self.roll >= self.target_number

    @property
    def margin(self) -> int:
        """Margin of success (>= 0 on a hit); a miss's margin of failure is ``-margin``."""
        return self.roll - self.target_number

    def __str__(self) -> str:
        verdict = f"hit by {self.margin}" if self.hit else f"miss by {-self.margin}"
        return f"2d6 = {self.roll} vs {self.target_number}: {verdict}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record.to_dict(),
            "target_number": self.target_number,
            "target": self.target.to_dict() if self.target is not None else None,
            "hit": self.hit,
            "margin": self.margin,
        }


def roll_to_hit(
    dice: DiceBase, target_number: TargetNumber | int, purpose: str = "to hit"
) -> ToHitResult:
    """Roll 2d6 against a target number (ART-11, ART-32a): hit on roll >= number.

    The roll is made whatever the number (above 12 it cannot hit, but
    artillery still needs the margin for scatter, ART-12).
    """
    total = _total(target_number)
    target = target_number if isinstance(target_number, TargetNumber) else None
    return ToHitResult(dice.roll(2, 6, purpose), total, target)


def batch_hits(
    rng: np.random.Generator, target_number: TargetNumber | int, count: int
) -> np.ndarray:
    """``count`` to-hit rolls sampled with numpy: a boolean array of hits."""
    total = _total(target_number)
    rolls = batch_roll(rng, (count, 2), 6).sum(axis=1, dtype=np.int8)
    return rolls >= total


# --- attack direction (ART-27, ART-32) ------------------------------------------------

# Offset of the entering side from the facing side, clockwise (0 = the side
# the unit faces) -> attack direction. Mechs: the facing side and its two
# neighbours are the front; the rear-side hexsides are the sides. Vehicles:
# only the facing side is the front; both hexsides on each flank are sides.
_MECH_ARCS: dict[int, AttackDirection] = {
    0: "front",
    1: "front",
    2: "right",
    3: "rear",
    4: "left",
    5: "front",
}
_VEHICLE_ARCS: dict[int, AttackDirection] = {
    0: "front",
    1: "right",
    2: "right",
    3: "rear",
    4: "left",
    5: "left",
}


def attack_direction(facing: int, entering_side: int, kind: str = "mech") -> AttackDirection:
    """ART-32: "front", "left", "right" or "rear" from the unit's facing and the
    hex side the attack enters through (both scatter-diagram directions 1..6,
    1 north, clockwise).

    Mechs (and infantry, for whom it decides nothing): front = the facing side
    and its two neighbours; right = the rear-right side; rear = the side
    opposite the facing; left = the rear-left side. Vehicles: front = the
    facing side only; the two sides on each flank are that flank; rear = the
    opposite side.
    """
    _check_kind(kind)
    for name, value in (("facing", facing), ("entering side", entering_side)):
        if value not in DIRECTIONS:
            raise ValueError(f"{name} must be a direction 1..6 (1 north, clockwise), not {value!r}")
    offset = (entering_side - facing) % 6
    return (_VEHICLE_ARCS if kind == "vehicle" else _MECH_ARCS)[offset]


def entering_side(target: Hex, attacker: Hex) -> int:
    """The side (1..6) of ``target`` an attack from ``attacker`` enters through.

    It is the direction of the neighbour on the exact hex line from the target
    toward the attacker; the line's nudge settles a line along a hex corner the
    same way everywhere. For ART-27 pass the attack's origin: the centre hex
    of the play-area edge for off-board artillery on the hit hex, the hit hex
    for units in the ring hexes, the firing unit otherwise.
    """
    if target == attacker:
        raise ValueError(
            f"an attack from the target's own hex {target} enters through no side; "
            "ART-27 attacks units in the hit hex from the edge or the attacker"
        )
    return side_toward(target, attacker)


def attack_direction_from(
    target: Hex, facing: int, attacker: Hex, kind: str = "mech"
) -> AttackDirection:
    """ART-27 + ART-32: the attack direction for a unit in ``target`` facing
    ``facing``, attacked from ``attacker`` (a hex)."""
    return attack_direction(facing, entering_side(target, attacker), kind)


# --- damage state -----------------------------------------------------------------


def _check_points(what: str, values: Mapping[str, int], expected: Sequence[str]) -> dict[str, int]:
    if not isinstance(values, Mapping):
        raise TypeError(f"{what} must map locations to points, not {type(values).__name__}")
    missing = [loc for loc in expected if loc not in values]
    if missing:
        raise ValueError(f"{what} is missing {', '.join(repr(m) for m in missing)}")
    unknown = [loc for loc in values if loc not in expected]
    if unknown:
        raise ValueError(
            f"{what} has unknown location {', '.join(repr(u) for u in unknown)}; "
            f"the locations are {', '.join(expected)}"
        )
    out: dict[str, int] = {}
    for loc in expected:
        v = values[loc]
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{what} of {loc!r} must be a whole number >= 0, not {v!r}")
        out[loc] = v
    return out


@dataclass
class MechDamage:
    """A mech's armour and internal structure per location (ART-32).

    Build one from a weight-class template (``MechDamage.template("medium")``)
    or from given numbers; missing or unknown locations are refused.
    """

    armour: dict[str, int]
    rear_armour: dict[str, int]
    structure: dict[str, int]
    kind: ClassVar[str] = "mech"

    def __post_init__(self) -> None:
        self.armour = _check_points("mech armour", self.armour, MECH_LOCATIONS)
        self.rear_armour = _check_points("mech rear armour", self.rear_armour, MECH_TORSOS)
        self.structure = _check_points("mech structure", self.structure, MECH_LOCATIONS)

    @classmethod
    def template(cls, weight_class: str) -> MechDamage:
        """A fresh mech of a standard weight class (see ``MECH_TEMPLATES``)."""
        if weight_class not in MECH_TEMPLATES:
            raise ValueError(
                f"no mech template {weight_class!r}; choose {', '.join(MECH_TEMPLATES)}"
            )
        return copy.deepcopy(MECH_TEMPLATES[weight_class])

    @property
    def destroyed_reason(self) -> str | None:
        if self.structure[HEAD] == 0:
            return "head structure gone"
        if self.structure[CENTRE_TORSO] == 0:
            return "centre torso structure gone"
        return None

    @property
    def destroyed(self) -> bool:
        """ART-32: destroyed when its head or centre torso structure is gone."""
        return self.destroyed_reason is not None

    def location_destroyed(self, location: str) -> bool:
        return self.structure[location] == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "armour": dict(self.armour),
            "rear_armour": dict(self.rear_armour),
            "structure": dict(self.structure),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MechDamage:
        _check_saved_kind(data, cls.kind)
        return cls(dict(data["armour"]), dict(data["rear_armour"]), dict(data["structure"]))


@dataclass
class VehicleDamage:
    """A vehicle's armour and structure per location; a vehicle without a
    turret simply has no "turret" location."""

    armour: dict[str, int]
    structure: dict[str, int]
    kind: ClassVar[str] = "vehicle"

    def __post_init__(self) -> None:
        has_turret = isinstance(self.armour, Mapping) and VEHICLE_TURRET in self.armour
        expected = VEHICLE_LOCATIONS if has_turret else VEHICLE_LOCATIONS[:-1]
        self.armour = _check_points("vehicle armour", self.armour, expected)
        self.structure = _check_points("vehicle structure", self.structure, expected)

    @property
    def has_turret(self) -> bool:
        return VEHICLE_TURRET in self.armour

    @classmethod
    def template(cls, weight_class: str, has_turret: bool = True) -> VehicleDamage:
        """A fresh vehicle of a standard weight class (see ``VEHICLE_TEMPLATES``)."""
        if weight_class not in VEHICLE_TEMPLATES:
            raise ValueError(
                f"no vehicle template {weight_class!r}; choose {', '.join(VEHICLE_TEMPLATES)}"
            )
        armour, structure = VEHICLE_TEMPLATES[weight_class]
        keep = VEHICLE_LOCATIONS if has_turret else VEHICLE_LOCATIONS[:-1]
        return cls({k: armour[k] for k in keep}, {k: structure for k in keep})

    @property
    def destroyed_reason(self) -> str | None:
        for location in self.structure:
            if self.structure[location] == 0:
                return f"{location} structure gone"
        return None

    @property
    def destroyed(self) -> bool:
        """ART-32: destroyed when any location's structure is gone."""
        return self.destroyed_reason is not None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "armour": dict(self.armour), "structure": dict(self.structure)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> VehicleDamage:
        _check_saved_kind(data, cls.kind)
        return cls(dict(data["armour"]), dict(data["structure"]))


@dataclass
class InfantryDamage:
    """An infantry platoon: each damage point removes a trooper (ART-32)."""

    troopers: int = 28
    full_strength: int | None = None
    kind: ClassVar[str] = "infantry"

    def __post_init__(self) -> None:
        if isinstance(self.troopers, bool) or not isinstance(self.troopers, int):
            raise ValueError(f"troopers must be a whole number, not {self.troopers!r}")
        if self.full_strength is None:
            self.full_strength = self.troopers
        if self.troopers < 0 or self.full_strength < self.troopers:
            raise ValueError(f"a platoon has 0..{self.full_strength} troopers, not {self.troopers}")

    @classmethod
    def platoon(cls, troopers: int = 28) -> InfantryDamage:
        """A full-strength foot platoon (28 troopers by default)."""
        if troopers < 1:
            raise ValueError(f"a platoon starts with at least 1 trooper, not {troopers}")
        return cls(troopers, troopers)

    @property
    def destroyed_reason(self) -> str | None:
        return "no trooper left" if self.troopers == 0 else None

    @property
    def destroyed(self) -> bool:
        return self.troopers == 0

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "troopers": self.troopers, "full_strength": self.full_strength}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InfantryDamage:
        _check_saved_kind(data, cls.kind)
        return cls(int(data["troopers"]), int(data["full_strength"]))


DamageState = MechDamage | VehicleDamage | InfantryDamage
_STATE_CLASSES: dict[str, type[MechDamage] | type[VehicleDamage] | type[InfantryDamage]] = {
    "mech": MechDamage,
    "vehicle": VehicleDamage,
    "infantry": InfantryDamage,
}


def _check_saved_kind(data: Mapping[str, Any], kind: str) -> None:
    if data.get("kind") != kind:
        raise ValueError(f"saved damage state is of kind {data.get('kind')!r}, expected {kind!r}")


def damage_state_from_dict(data: Mapping[str, Any]) -> DamageState:
    """Any saved damage state, by its "kind"."""
    kind = data.get("kind")
    if kind not in _STATE_CLASSES:
        raise ValueError(
            f"saved damage state has kind {kind!r}; expected one of {', '.join(_STATE_CLASSES)}"
        )
    return _STATE_CLASSES[kind].from_dict(data)


def _mech(
    head: int,
    ct: tuple[int, int],
    side: tuple[int, int],
    arm: int,
    leg: int,
    structure: tuple[int, int, int, int, int],
) -> MechDamage:
    """Armour (torsos as front, rear) and structure (head, CT, side torso, arm, leg)."""
    s_head, s_ct, s_side, s_arm, s_leg = structure
    return MechDamage(
        armour={
            HEAD: head,
            CENTRE_TORSO: ct[0],
            LEFT_TORSO: side[0],
            RIGHT_TORSO: side[0],
            LEFT_ARM: arm,
            RIGHT_ARM: arm,
            LEFT_LEG: leg,
            RIGHT_LEG: leg,
        },
        rear_armour={CENTRE_TORSO: ct[1], LEFT_TORSO: side[1], RIGHT_TORSO: side[1]},
        structure={
            HEAD: s_head,
            CENTRE_TORSO: s_ct,
            LEFT_TORSO: s_side,
            RIGHT_TORSO: s_side,
            LEFT_ARM: s_arm,
            RIGHT_ARM: s_arm,
            LEFT_LEG: s_leg,
            RIGHT_LEG: s_leg,
        },
    )


# Decision (docs/battletech.md): one representative mech per weight class,
# standard internal structure for its tonnage (light 35 t, medium 55 t,
# heavy 70 t, assault 100 t) and armour within the usual maximum.
MECH_TEMPLATES: dict[str, MechDamage] = {
    "light": _mech(8, (14, 4), (11, 3), 8, 12, (3, 11, 8, 6, 8)),
    "medium": _mech(9, (26, 8), (20, 6), 16, 24, (3, 18, 13, 9, 13)),
    "heavy": _mech(9, (35, 9), (22, 8), 22, 30, (3, 22, 15, 11, 15)),
    "assault": _mech(9, (47, 14), (32, 10), 34, 41, (3, 31, 21, 17, 21)),
}

# Decision: armour per location and structure (one value, every location;
# tonnage / 10) for light 20 t, medium 50 t, heavy 70 t, assault 100 t.
VEHICLE_TEMPLATES: dict[str, tuple[dict[str, int], int]] = {
    "light": (dict(zip(VEHICLE_LOCATIONS, (12, 9, 9, 6, 8), strict=True)), 2),
    "medium": (dict(zip(VEHICLE_LOCATIONS, (24, 18, 18, 12, 16), strict=True)), 5),
    "heavy": (dict(zip(VEHICLE_LOCATIONS, (40, 30, 30, 20, 28), strict=True)), 7),
    "assault": (dict(zip(VEHICLE_LOCATIONS, (60, 45, 45, 30, 45), strict=True)), 10),
}


# --- applying damage (ART-26, ART-32) ---------------------------------------------------


def damage_groups(amount: int, group_size: int = 5) -> list[int]:
    """ART-26: split damage into groups of ``group_size``; the last may be smaller."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise ValueError(f"damage must be a whole number >= 0, not {amount!r}")
    if isinstance(group_size, bool) or not isinstance(group_size, int) or group_size < 1:
        raise ValueError(f"a damage group holds at least 1 point, not {group_size!r}")
    full, rest = divmod(amount, group_size)
    return [group_size] * full + ([rest] if rest else [])


@dataclass(frozen=True)
class DamageGroup:
    """One group of damage: its location roll (none for infantry) and what it did."""

    amount: int
    location: str
    rear: bool
    roll: RollRecord | None
    lines: tuple[str, ...]


@dataclass(frozen=True)
class DamageResult:
    """What ``apply_damage`` did: the new state, every group and roll, and an account.

    ``unapplied`` is damage that found nothing left to hit: past a destroyed
    head or centre torso, past a vehicle's lost structure, past the last
    trooper, or in groups never rolled because the unit was already destroyed.
    """

    state: DamageState
    direction: str
    amount: int
    groups: tuple[DamageGroup, ...]
    unapplied: int
    destroyed: bool
    destroyed_reason: str | None
    closing: tuple[str, ...] = ()

    @property
    def rolls(self) -> tuple[RollRecord, ...]:
        return tuple(g.roll for g in self.groups if g.roll is not None)

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(line for g in self.groups for line in g.lines) + self.closing

    def account(self) -> str:
        return "\n".join(self.lines)


def apply_damage(
    state: DamageState,
    amount: int,
    direction: str,
    dice: DiceBase,
    group_size: int = 5,
) -> DamageResult:
    """Apply ``amount`` damage from ``direction`` in groups (ART-26), each group
    rolling its own hit location (ART-32); armour first, then structure,
    excess transferring inward. The given state is left untouched; the
    result carries the new one.

    Direct fire passes the weapon's damage per location as ``group_size``.
    """
    _check_direction(direction)
    groups = damage_groups(amount, group_size)
    if not isinstance(state, MechDamage | VehicleDamage | InfantryDamage):
        raise TypeError(f"cannot damage a {type(state).__name__}; expected a damage state")
    new = copy.deepcopy(state)
    done: list[DamageGroup] = []
    unapplied = 0
    closing: list[str] = []
    for index, points in enumerate(groups):
        if new.destroyed:
            rest = sum(groups[index:])
            unapplied += rest
            closing.append(f"{rest} damage unapplied: the {new.kind} is already destroyed")
            break
        group, lost = _apply_group(new, points, direction, dice)
        done.append(group)
        unapplied += lost
        if new.destroyed:
            closing.append(f"{new.kind} destroyed: {new.destroyed_reason}")
    return DamageResult(
        state=new,
        direction=direction,
        amount=amount,
        groups=tuple(done),
        unapplied=unapplied,
        destroyed=new.destroyed,
        destroyed_reason=new.destroyed_reason,
        closing=tuple(closing),
    )


def _apply_group(
    state: DamageState, points: int, direction: str, dice: DiceBase
) -> tuple[DamageGroup, int]:
    if isinstance(state, InfantryDamage):
        # ART-32: each damage point removes a trooper; no location is rolled.
        before = state.troopers
        state.troopers = max(0, before - points)
        line = f"{points} to {PLATOON}: troopers {before} -> {state.troopers}"
        lost = points - (before - state.troopers)
        return DamageGroup(points, PLATOON, False, None, (line,)), lost
    record = dice.roll(2, 6, f"hit location ({direction})")
    if isinstance(state, MechDamage):
        location = hit_location("mech", direction, record.total)
        rear = direction == "rear"
        lines = [f"{record} -> {_label(location, rear)}"]
        lost = _damage_mech(state, location, rear, points, lines)
    else:
        location = hit_location("vehicle", direction, record.total, state.has_turret)
        rear = False
        lines = [f"{record} -> {location}"]
        lost = _damage_vehicle(state, location, points, lines)
    return DamageGroup(points, location, rear, record, tuple(lines)), lost


def _label(location: str, rear: bool) -> str:
    return f"{location} (rear)" if rear and location in MECH_TORSOS else location


def _soak(pool: dict[str, int], location: str, points: int, name: str) -> tuple[int, str | None]:
    """Take up to ``points`` from one pool; returns the rest and the account part."""
    before = pool[location]
    if before == 0:
        return points, None
    taken = min(before, points)
    pool[location] = before - taken
    return points - taken, f"{name} {before} -> {before - taken}"


def _damage_mech(
    state: MechDamage, location: str, rear: bool, points: int, lines: list[str]
) -> int:
    """Armour, structure, then inward (ART-32); returns the points lost past the CT/head.

    A transfer keeps the rear flag: a rear hit passing inward strikes the next
    torso's rear armour.
    """
    while points > 0:
        label = _label(location, rear)
        inward = MECH_INWARD.get(location)
        if state.structure[location] == 0:
            if inward is None:
                lines.append(f"{points} to {label}: already destroyed; {points} lost")
                return points
            lines.append(f"{points} to {label}: already destroyed; transfers to {inward}")
            location = inward
            continue
        parts: list[str] = []
        incoming = points
        use_rear = rear and location in MECH_TORSOS
        armour = state.rear_armour if use_rear else state.armour
        points, part = _soak(armour, location, points, "rear armour" if use_rear else "armour")
        if part:
            parts.append(part)
        if points > 0:
            points, part = _soak(state.structure, location, points, "structure")
            if part:
                parts.append(part)
        text = f"{incoming} to {label}: {', '.join(parts)}"
        if state.structure[location] == 0:
            text += f"; {location} destroyed"
            arm = ARM_OF_TORSO.get(location)
            if arm is not None and state.structure[arm] > 0:
                # A side torso's loss takes its arm with it (docs/battletech.md).
                state.armour[arm] = 0
                state.structure[arm] = 0
                text += f", {arm} lost with it"
            if points > 0:
                text += f"; {points} transfers to {inward}" if inward else f"; {points} lost"
        lines.append(text)
        if points > 0 and inward is None:
            return points
        if inward is not None:
            location = inward
    return 0


def _damage_vehicle(state: VehicleDamage, location: str, points: int, lines: list[str]) -> int:
    """Armour then structure; a vehicle has nothing further in (ART-32)."""
    if state.structure[location] == 0:  # pragma: no cover - a destroyed vehicle is not rolled
        lines.append(f"{points} to {location}: already destroyed; {points} lost")
        return points
    incoming = points
    parts: list[str] = []
    points, part = _soak(state.armour, location, points, "armour")
    if part:
        parts.append(part)
    if points > 0:
        points, part = _soak(state.structure, location, points, "structure")
        if part:
            parts.append(part)
    text = f"{incoming} to {location}: {', '.join(parts)}"
    if state.structure[location] == 0:
        text += f"; {location} destroyed"
        if points > 0:
            text += f"; {points} lost"
    lines.append(text)
    return points


# --- direct fire (ART-32a) ------------------------------------------------------------

ATTACKER_MOVEMENT: dict[str, int] = {"stood": 0, "walked": 1, "ran": 2}


def target_movement_modifier(hexes_moved: int) -> int:
    """ART-32a: +1 for 3-4 hexes moved, +2 for 5-6, +3 for 7-9, +4 for 10 or more."""
    if isinstance(hexes_moved, bool) or not isinstance(hexes_moved, int) or hexes_moved < 0:
        raise ValueError(f"hexes moved must be a whole number >= 0, not {hexes_moved!r}")
    if hexes_moved >= 10:
        return 4
    if hexes_moved >= 7:
        return 3
    if hexes_moved >= 5:
        return 2
    if hexes_moved >= 3:
        return 1
    return 0


def _check_ranges(weapon_ranges: Sequence[int]) -> tuple[int, int, int]:
    try:
        short, medium, long_ = (int(v) for v in weapon_ranges)
    except (TypeError, ValueError):
        raise ValueError(
            f"weapon ranges are three whole numbers (short, medium, long), not {weapon_ranges!r}"
        ) from None
    if not 1 <= short < medium < long_:
        raise ValueError(
            f"weapon ranges must rise from 1: short < medium < long, not {short}/{medium}/{long_}"
        )
    return short, medium, long_


def range_band(range_hexes: int, weapon_ranges: Sequence[int]) -> str | None:
    """ "short", "medium" or "long" for a range in hexes, or None beyond long range."""
    short, medium, long_ = _check_ranges(weapon_ranges)
    if range_hexes < 1:
        raise ValueError(f"direct fire needs a range of at least 1 hex, not {range_hexes}")
    if range_hexes <= short:
        return "short"
    if range_hexes <= medium:
        return "medium"
    if range_hexes <= long_:
        return "long"
    return None


RANGE_MODIFIERS: dict[str, int] = {"short": 0, "medium": 2, "long": 4}
# ART-18: a unit spotting for artillery this turn adds this to its own to-hit numbers.
SPOTTING_MODIFIER = 1


def direct_fire_refusal(range_hexes: int, weapon_ranges: Sequence[int]) -> str | None:
    """Why a direct-fire shot cannot be taken at this range, or None when it can."""
    if range_band(range_hexes, weapon_ranges) is None:
        long_ = _check_ranges(weapon_ranges)[2]
        return f"the target is {range_hexes} hexes away, beyond the weapon's long range of {long_}"
    return None


def _woods(kind: str, hexes: int) -> str:
    return f"{kind} woods ({hexes} hex{'es' if hexes != 1 else ''})"


def direct_fire_target_number(
    gunnery: int,
    range_hexes: int,
    weapon_ranges: Sequence[int],
    attacker_moved: str = "stood",
    target_hexes_moved: int = 0,
    light_woods: int = 0,
    heavy_woods: int = 0,
    spotting: bool = False,
    minimum_range: int = 0,
) -> TargetNumber | None:
    """ART-32a: the direct-fire to-hit number with every modifier named, or None
    when the target is beyond long range (``direct_fire_refusal`` says why).

    ``light_woods``/``heavy_woods`` count woods hexes on the line and in the
    target hex; ``spotting`` is ART-18's +1 for a unit spotting for artillery
    this turn; ``minimum_range`` adds the usual +1 at minimum range and +1 per
    hex closer.
    """
    if attacker_moved not in ATTACKER_MOVEMENT:
        raise ValueError(
            f"attacker movement must be one of {', '.join(ATTACKER_MOVEMENT)}, "
            f"not {attacker_moved!r}"
        )
    for name, count in (("light woods", light_woods), ("heavy woods", heavy_woods)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"{name} counts hexes, a whole number >= 0, not {count!r}")
    band = range_band(range_hexes, weapon_ranges)
    if band is None:
        return None
    tn = TargetNumber("gunnery", gunnery).plus(f"{band} range", RANGE_MODIFIERS[band])
    if minimum_range > 0 and range_hexes <= minimum_range:
        tn = tn.plus("minimum range", minimum_range - range_hexes + 1)
    tn = tn.plus(f"attacker {attacker_moved}", ATTACKER_MOVEMENT[attacker_moved])
    tn = tn.plus(
        f"target moved {target_hexes_moved} hexes", target_movement_modifier(target_hexes_moved)
    )
    tn = tn.plus(_woods("light", light_woods), light_woods)
    tn = tn.plus(_woods("heavy", heavy_woods), 2 * heavy_woods)
    return tn.plus("spotting", SPOTTING_MODIFIER if spotting else 0)


@dataclass(frozen=True)
class DirectFireWeapon:
    """A direct-fire weapon: damage, range bands in hexes, and how its damage lands.

    ``group_size`` is the damage per hit location (the whole damage for a
    laser or autocannon). Missile launchers (``missiles`` > 0) roll on the
    cluster table for how many missiles strike; each missile does
    ``damage // missiles``.
    """

    id: str
    name: str
    damage: int
    short: int
    medium: int
    long: int
    minimum_range: int = 0
    group_size: int = 0
    missiles: int = 0

    def __post_init__(self) -> None:
        _check_ranges((self.short, self.medium, self.long))
        if self.group_size == 0:
            object.__setattr__(self, "group_size", self.damage)
        if self.missiles and self.missiles not in CLUSTER_HITS:
            raise ValueError(f"no cluster table for a {self.missiles}-missile launcher")

    @property
    def ranges(self) -> tuple[int, int, int]:
        return self.short, self.medium, self.long


# Standard cluster hits table, columns for 2- and 5-missile launchers.
CLUSTER_HITS: dict[int, dict[int, int]] = {
    2: {2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2},
    5: {2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 3, 8: 3, 9: 4, 10: 4, 11: 5, 12: 5},
}

# Decision (docs/battletech.md): the standard direct-fire weapons the
# scenarios use.
DIRECT_FIRE_WEAPONS: dict[str, DirectFireWeapon] = {
    w.id: w
    for w in (
        DirectFireWeapon("small_laser", "Small Laser", 3, 1, 2, 3),
        DirectFireWeapon("medium_laser", "Medium Laser", 5, 3, 6, 9),
        DirectFireWeapon("large_laser", "Large Laser", 8, 5, 10, 15),
        DirectFireWeapon("ppc", "PPC", 10, 6, 12, 18, minimum_range=3),
        DirectFireWeapon("machine_gun", "Machine Gun", 2, 1, 2, 3),
        DirectFireWeapon("ac5", "AC/5", 5, 6, 12, 18, minimum_range=3),
        DirectFireWeapon("ac10", "AC/10", 10, 5, 10, 15),
        DirectFireWeapon("ac20", "AC/20", 20, 3, 6, 9),
        DirectFireWeapon("srm2", "SRM-2", 4, 3, 6, 9, group_size=2, missiles=2),
        DirectFireWeapon("lrm5", "LRM-5", 5, 7, 14, 21, minimum_range=6, group_size=5, missiles=5),
    )
}


def direct_fire_weapon(name: str | DirectFireWeapon) -> DirectFireWeapon:
    """A weapon by id ("medium_laser") or display name ("Medium Laser")."""
    if isinstance(name, DirectFireWeapon):
        return name
    if name in DIRECT_FIRE_WEAPONS:
        return DIRECT_FIRE_WEAPONS[name]
    for w in DIRECT_FIRE_WEAPONS.values():
        if w.name.lower() == str(name).lower():
            return w
    raise ValueError(
        f"unknown direct-fire weapon {name!r}; known: {', '.join(DIRECT_FIRE_WEAPONS)}"
    )


@dataclass(frozen=True)
class WeaponHit:
    """The damage one hit of a weapon delivers, and the cluster roll if any."""

    weapon: DirectFireWeapon
    damage: int
    group_size: int
    missiles_hit: int
    cluster_roll: RollRecord | None


def weapon_damage(weapon: str | DirectFireWeapon, dice: DiceBase) -> WeaponHit:
    """Damage of one hit: the full damage, or for a missile launcher the missiles
    the cluster roll lets through (2d6 on ``CLUSTER_HITS``)."""
    w = direct_fire_weapon(weapon)
    if not w.missiles:
        return WeaponHit(w, w.damage, w.group_size, 0, None)
    record = dice.roll(2, 6, f"{w.name} cluster hits")
    hits = CLUSTER_HITS[w.missiles][record.total]
    return WeaponHit(w, hits * (w.damage // w.missiles), w.group_size, hits, record)


def cluster_distribution(weapon: str | DirectFireWeapon) -> dict[int, Fraction]:
    """Exact distribution of the damage of one hit of ``weapon``."""
    w = direct_fire_weapon(weapon)
    if not w.missiles:
        return {w.damage: Fraction(1)}
    out: dict[int, Fraction] = {}
    per_missile = w.damage // w.missiles
    for roll, p in sum_distribution(2, 6).items():
        dmg = CLUSTER_HITS[w.missiles][roll] * per_missile
        out[dmg] = out.get(dmg, Fraction(0)) + p
    return out
