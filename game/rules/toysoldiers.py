"""Toy soldiers: virtual shooting, guns, capture and repair (RULES.md section 6, TS-1..TS-13).

The pieces, in the order a shooting phase uses them:

* ``roll_shooting_initiative`` (TS-1): every player rolls all the game's dice
  once; the sum is his shooting bonus, the higher sum chooses who fires first.
* ``ShootingPhase`` (TS-2): the bonus is a budget of shots, one point a shot;
  every shooter fires at most its N shots in the phase.
* ``parse_profile`` (TS-3), ``hit_chance`` (TS-4, TS-5), ``virtual_hit_result``
  (TS-7): the arithmetic of one virtual shot. ``aim`` checks everything that
  may forbid a shot (TS-6 enemy within 1 step, TS-11 crew, disabled guns,
  range) and ``fire_virtual_shot`` spends the point, rolls and reports.
* ``real_shot_result``, ``knocked_down_result`` (TS-8): physical fire.
* ``disable_gun``, ``repair_gun``, ``repair_result`` (TS-9); ``capture_gun``
  (TS-10); ``assign_crew`` (TS-11); ``ShooterTurn`` (TS-13).

Exact odds (design principle 7): ``shot_odds``, ``volley_odds`` (N shots at N
figures), ``one_target_odds`` (N shots at one figure, which leaves the board
at its first hit), ``shooting_bonus_distribution``, ``repair_odds``.

State is plain data: ``Gun`` and ``Warrior`` are frozen values changed with
``dataclasses.replace``; ``ShootingPhase`` and ``ShooterTurn`` are the small
mutable bookkeeping of one phase or turn. Every method validates before it
changes anything and raises ``IllegalAction`` with a reason a player reads.
Distances are in steps (one step = one hex, TS-3); the caller measures them on
the board, so nothing here depends on the map.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import ceil, comb
from typing import Any, Literal

from game.dice import DiceBase
from game.rules.core import Distribution, TargetNumber, convolve, uniform

VirtualResult = Literal["killed", "wounded", "miss"]
RealResult = Literal["killed", "wounded", "light_wound"]
RepairOutcome = Literal["lost", "continues", "repaired"]
Split = Literal["example", "text"]
Fall = Literal["face_up", "face_down", "standing", "unclear"]

SPLITS: tuple[str, ...] = ("example", "text")
FALLS: tuple[str, ...] = ("face_up", "face_down", "standing", "unclear")

# TS-5: a fortress wall or a tower lengthens the range by 3 steps.
ELEVATED_RANGE_BONUS = 3
# TS-3: indirect (Н) fire passes over obstacles up to 2 steps high.
INDIRECT_MAX_OBSTACLE = 2
# TS-6, TS-10: "within 1 step".
CLOSE_DISTANCE = 1
# TS-8: real fire kills on 1-2; an unclear fall is killed on 1-3.
REAL_KILL_MAX = 2
UNCLEAR_FALL_KILL_MAX = 3

# TS-9 speaks of "all four gun types" without naming them. Decision: these are
# the default names; a scenario that names its own four passes them in.
DEFAULT_GUN_TYPES: tuple[str, ...] = ("cannon", "howitzer", "mortar", "machine gun")

WARRIOR_STATUSES: tuple[str, ...] = ("fighting", "light_wound", "wounded", "killed")
GUN_STATUSES: tuple[str, ...] = ("ready", "disabled", "repairing", "lost")


class IllegalAction(ValueError):
    """A toy-soldier action the rules forbid; the message says why."""


# ---------------------------------------------------------------------------
# TS-3: shooter profile


@dataclass(frozen=True)
class ShooterProfile:
    """``R/C - N [flags]``: range R steps, hit chance C, N shots a turn (TS-3)."""

    range: int
    chance: int
    shots: int
    indirect: bool = False  # Н: over obstacles up to 2 steps high
    close_range: bool = False  # Б: may fire with an enemy within 1 step (TS-6)
    armour_piercing: bool = False  # ББ: target armour -1, can disable guns (TS-5)

    def __str__(self) -> str:
        flags = [letter for letter, on in (("Н", self.indirect), ("Б", self.close_range)) if on]
        if self.armour_piercing:
            flags.append("ББ")
        tail = " " + " ".join(flags) if flags else ""
        return f"{self.range}/{self.chance} - {self.shots}{tail}"

    def describe(self) -> str:
        """The profile in words, each code explained (TS-3, TS-5, TS-6)."""
        shots = "1 shot" if self.shots == 1 else f"{self.shots} shots"
        words = [f"range {self.range} steps, hit chance {self.chance}, {shots} a turn"]
        if self.indirect:
            words.append("Н indirect: fires over obstacles up to 2 steps high")
        if self.close_range:
            words.append("Б close-range weapon: fires with an enemy within 1 step")
        if self.armour_piercing:
            words.append("ББ armour piercing: the target's armour -1, can disable guns")
        return "; ".join(words)

    def to_dict(self) -> dict[str, Any]:
        return {"profile": str(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | str) -> ShooterProfile:
        if isinstance(data, str):
            return parse_profile(data)
        return parse_profile(str(data["profile"]))


# Flag spellings, Cyrillic and Latin. "H" is accepted beside "N" because the
# Cyrillic Н is typed as a Latin H more often than not.
_FLAG_SPELLINGS: dict[str, str] = {
    "н": "indirect",
    "n": "indirect",
    "h": "indirect",
    "б": "close_range",
    "b": "close_range",
    "бб": "armour_piercing",
    "bb": "armour_piercing",
}
_FLAG_LETTERS = {"indirect": "Н", "close_range": "Б", "armour_piercing": "ББ"}
# The hyphen-minus, every Unicode hyphen and dash (U+2010 .. U+2015) and the minus sign.
_DASHES = "-\u2010-\u2015\u2212"
_PROFILE_RE = re.compile(
    rf"^\s*(?P<range>\d+)\s*/\s*(?P<chance>\d+)\s*[{_DASHES}]\s*(?P<shots>\d+)(?P<flags>.*)$"
)
_EXAMPLE = "e.g. '5/3 - 1 Н' (range 5 steps, chance 3, 1 shot, indirect)"


def _profile_problem(text: str) -> str:
    """Say what is wrong with a profile text the pattern did not accept."""
    stripped = text.strip()
    if not stripped:
        return "it is empty"
    if "/" not in stripped:
        return "there is no '/' between the range and the hit chance"
    head, _, rest = stripped.partition("/")
    if not head.strip().isdigit():
        return f"the range {head.strip()!r} is not a whole number of steps"
    dash = re.search(rf"[{_DASHES}]", rest)
    if dash is None:
        return "there is no dash before the number of shots"
    chance = rest[: dash.start()].strip()
    if not chance.isdigit():
        return f"the hit chance {chance!r} is not a whole number"
    after = rest[dash.end() :].lstrip()
    if not after or not after[0].isdigit():
        return "the number of shots is missing after the dash"
    return "it does not read as 'R/C - N [flags]'"


def parse_profile(text: str) -> ShooterProfile:
    """Read a TS-3 shooter profile such as ``5/3 - 1 Н``, ``6/5 - 1 ББ`` or ``4/3-2``.

    Flags are Н (or N/H) indirect, Б (or B) close-range weapon, ББ (or BB)
    armour piercing, in either case, separated by spaces or commas. The dash
    before the shot count may be a hyphen, en dash or em dash, with or without
    spaces. Raises ``ValueError`` naming the text and what is wrong.
    """
    if not isinstance(text, str):
        raise ValueError(f"shooter profile must be text like {_EXAMPLE}, not {text!r}")
    match = _PROFILE_RE.match(text)
    if match is None:
        raise ValueError(
            f"shooter profile {text!r}: {_profile_problem(text)}; "
            f"expected 'R/C - N [flags]', {_EXAMPLE}"
        )
    rng, chance, shots = (int(match[k]) for k in ("range", "chance", "shots"))
    for value, what in ((rng, "range"), (chance, "hit chance"), (shots, "number of shots")):
        if value < 1:
            raise ValueError(
                f"shooter profile {text!r}: the {what} must be at least 1, not {value}"
            )
    flags: dict[str, bool] = {}
    for token in re.split(r"[\s,]+", match["flags"].strip()):
        if not token:
            continue
        name = _FLAG_SPELLINGS.get(token.casefold())
        if name is None:
            raise ValueError(
                f"shooter profile {text!r}: unknown flag {token!r}; flags are Н (N) indirect, "
                "Б (B) close-range weapon, ББ (BB) armour piercing, separated by spaces"
            )
        if name in flags:
            raise ValueError(
                f"shooter profile {text!r}: the flag {_FLAG_LETTERS[name]} is given twice"
            )
        flags[name] = True
    return ShooterProfile(rng, chance, shots, **flags)


# ---------------------------------------------------------------------------
# TS-4, TS-5: range and hit chance


def effective_range(profile: ShooterProfile, tower: bool = False, wall: bool = False) -> int:
    """TS-5: range +3 steps from a fortress wall or a tower.

    Decision: a tower stands on the fortress, so tower and wall together still
    give +3, not +6.
    """
    return profile.range + (ELEVATED_RANGE_BONUS if tower or wall else 0)


def chance_breakdown(
    profile: ShooterProfile, armour: int, tower: bool = False, target_on_wall: bool = False
) -> TargetNumber:
    """TS-4/TS-5: C' = C - target armour + modifiers, with every part named.

    Decision: armour piercing lowers the armour by 1 but never below 0 (an
    unarmoured target gains nothing from it).
    """
    if isinstance(armour, bool) or not isinstance(armour, int) or armour < 0:
        raise ValueError(f"target armour must be a whole number 0 or more, not {armour!r}")
    number = TargetNumber("chance", profile.chance)
    number = number.plus("armour", -armour)
    covered = armour + (1 if target_on_wall else 0)
    if target_on_wall:
        number = number.plus("target on a wall", -1)
    if profile.armour_piercing and covered > 0:
        number = number.plus("armour piercing", +1)
    if tower:
        number = number.plus("tower", +1)
    return number


def hit_chance(
    profile: ShooterProfile,
    armour: int,
    distance: int,
    tower: bool = False,
    wall: bool = False,
    target_on_wall: bool = False,
) -> int | None:
    """TS-4: the number a d6 must not exceed to hit.

    ``None``: the target is out of range; ``0``: in range but cannot be hurt.
    The value may exceed 6 (every roll hits; the kill/wound split still uses it).
    """
    if isinstance(distance, bool) or not isinstance(distance, int) or distance < 0:
        raise ValueError(f"distance must be a whole number of steps 0 or more, not {distance!r}")
    number = chance_breakdown(profile, armour, tower=tower, target_on_wall=target_on_wall)
    if distance > effective_range(profile, tower=tower, wall=wall):
        return None
    return max(0, number.total)


def kill_limit(chance: int, split: Split = "example") -> int:
    """TS-7: the highest roll that kills; rolls above it up to ``chance`` wound.

    "example" (default): floor(C'/2), so C' 3 kills on 1 only; "text":
    ceil(C'/2), so C' 3 kills on 1-2.
    """
    if split not in SPLITS:
        raise ValueError(f"split must be 'example' or 'text', not {split!r}")
    if chance <= 0:
        return 0
    return chance // 2 if split == "example" else ceil(chance / 2)


def virtual_hit_result(chance: int, roll: int, split: Split = "example") -> VirtualResult:
    """TS-4 and TS-7: a d6 ``roll`` against chance C': killed, wounded or miss."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
        raise ValueError(f"a d6 roll is 1 to 6, not {roll!r}")
    if isinstance(chance, bool) or not isinstance(chance, int):
        raise ValueError(f"the hit chance must be a whole number, not {chance!r}")
    limit = kill_limit(chance, split)
    if chance <= 0 or roll > chance:
        return "miss"
    return "killed" if roll <= limit else "wounded"


def obstacles_block(profile: ShooterProfile, obstacle_heights: Iterable[int]) -> bool:
    """TS-3: do obstacles between shooter and target stop the shot?

    Indirect (Н) fire passes over obstacles up to 2 steps high. Decision: direct
    fire needs a line free of obstacles (any height of 1 step or more blocks).
    """
    heights = list(obstacle_heights)
    if any(h < 0 for h in heights):
        raise ValueError(f"obstacle heights are 0 or more steps, not {heights}")
    limit = INDIRECT_MAX_OBSTACLE if profile.indirect else 0
    return any(h > limit for h in heights)


def blocked_by_close_enemy(profile: ShooterProfile, enemy_distances: Iterable[int]) -> bool:
    """TS-6: an enemy warrior within 1 step stops the fire, except of a Б weapon."""
    if profile.close_range:
        return False
    return any(d <= CLOSE_DISTANCE for d in enemy_distances)


# ---------------------------------------------------------------------------
# TS-8: real (physical) shooting


def real_shot_result(roll: int) -> Literal["killed", "wounded"]:
    """TS-8: result of a physical hit decided by a die: 1-2 killed, more wounded."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
        raise ValueError(f"a d6 roll is 1 to 6, not {roll!r}")
    return "killed" if roll <= REAL_KILL_MAX else "wounded"


def knocked_down_result(fall: Fall, roll: int | None = None) -> RealResult:
    """TS-8: a figure hit by physical fire.

    Face up: killed; face down: wounded (to the hospital); still standing: a
    light wound, keeps fighting; unclear: d6 ``roll`` 1-3 killed, 4-6 wounded.
    """
    if fall not in FALLS:
        raise ValueError(f"a hit figure falls {', '.join(FALLS)}, not {fall!r}")
    if fall == "face_up":
        return "killed"
    if fall == "face_down":
        return "wounded"
    if fall == "standing":
        return "light_wound"
    if roll is None:
        raise ValueError("an unclear fall needs a d6 roll (1-3 killed, 4-6 wounded)")
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
        raise ValueError(f"a d6 roll is 1 to 6, not {roll!r}")
    return "killed" if roll <= UNCLEAR_FALL_KILL_MAX else "wounded"


def roll_knocked_down(fall: Fall, dice: DiceBase, name: str = "the figure") -> RealResult:
    """TS-8 with dice: rolls the d6 only when the fall is unclear."""
    if fall == "unclear":
        return knocked_down_result(fall, dice.d6(f"unclear fall of {name}"))
    return knocked_down_result(fall)


# ---------------------------------------------------------------------------
# TS-9: repair


def repair_result(roll: int) -> RepairOutcome:
    """TS-9: d6 1-2 the gun is lost; 3-4 repair goes on next turn; 5-6 repaired."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
        raise ValueError(f"a d6 roll is 1 to 6, not {roll!r}")
    if roll <= 2:
        return "lost"
    if roll <= 4:
        return "continues"
    return "repaired"


# ---------------------------------------------------------------------------
# State: warriors and guns


def _check_status(value: str, allowed: tuple[str, ...], what: str) -> None:
    if value not in allowed:
        raise ValueError(f"{what} status must be one of {', '.join(allowed)}, not {value!r}")


@dataclass(frozen=True)
class Warrior:
    """A toy soldier: owner, armour, optional shooter profile, gun qualifications.

    ``status``: fighting; light_wound (TS-8, still fighting); wounded (in the
    hospital, off the board); killed (removed).
    """

    warrior_id: str
    name: str
    owner: str
    armour: int = 0
    profile: ShooterProfile | None = None
    qualified: tuple[str, ...] = ()
    status: str = "fighting"

    def __post_init__(self) -> None:
        _check_status(self.status, WARRIOR_STATUSES, f"warrior {self.name!r}")
        if self.armour < 0:
            raise ValueError(f"warrior {self.name!r}: armour must be 0 or more, not {self.armour}")

    @property
    def on_board(self) -> bool:
        return self.status in ("fighting", "light_wound")

    def to_dict(self) -> dict[str, Any]:
        return {
            "warrior_id": self.warrior_id,
            "name": self.name,
            "owner": self.owner,
            "armour": self.armour,
            "profile": str(self.profile) if self.profile else None,
            "qualified": list(self.qualified),
            "status": self.status,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Warrior:
        profile = data.get("profile")
        return cls(
            warrior_id=str(data["warrior_id"]),
            name=str(data["name"]),
            owner=str(data["owner"]),
            armour=int(data.get("armour", 0)),
            profile=parse_profile(profile) if profile else None,
            qualified=tuple(str(t) for t in data.get("qualified", ())),
            status=str(data.get("status", "fighting")),
        )


@dataclass(frozen=True)
class Gun:
    """A gun on the board.

    ``status``: ready; disabled (TS-9, on its side); repairing (a repair roll
    of 3-4, roll again next recovery phase); lost (removed). ``ready_turn``:
    the first turn it may fire (a gun repaired in turn t fires from t + 1).
    ``crew``: the warrior id serving it (TS-11). ``armour``: Decision: guns
    have armour 0 unless a scenario gives them some.
    """

    gun_id: str
    name: str
    owner: str
    gun_type: str
    profile: ShooterProfile
    status: str = "ready"
    ready_turn: int = 0
    crew: str | None = None
    armour: int = 0

    def __post_init__(self) -> None:
        _check_status(self.status, GUN_STATUSES, f"gun {self.name!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "gun_id": self.gun_id,
            "name": self.name,
            "owner": self.owner,
            "gun_type": self.gun_type,
            "profile": str(self.profile),
            "status": self.status,
            "ready_turn": self.ready_turn,
            "crew": self.crew,
            "armour": self.armour,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Gun:
        crew = data.get("crew")
        return cls(
            gun_id=str(data["gun_id"]),
            name=str(data["name"]),
            owner=str(data["owner"]),
            gun_type=str(data["gun_type"]),
            profile=parse_profile(str(data["profile"])),
            status=str(data.get("status", "ready")),
            ready_turn=int(data.get("ready_turn", 0)),
            crew=None if crew is None else str(crew),
            armour=int(data.get("armour", 0)),
        )


Shooter = Gun | Warrior

VEHICLE_STATUSES = ("running", "knocked out")


@dataclass(frozen=True)
class Vehicle:
    """TS-5: a battle machine or tank ("боевые машины и танки"). Only armour-piercing
    virtual fire hurts it, and each hit lowers its remaining armour by 1 ("снижают
    остаток брони на 1"). Decision (the source stops there): with no armour left it
    is knocked out."""

    vehicle_id: str
    name: str
    owner: str
    armour: int
    status: str = "running"

    def __post_init__(self) -> None:
        _check_status(self.status, VEHICLE_STATUSES, f"vehicle {self.name!r}")
        if self.armour < 0:
            raise ValueError(f"vehicle {self.name!r}: armour must be 0 or more, not {self.armour}")

    def hit(self) -> Vehicle:
        """One armour-piercing hit: a point of armour less, knocked out at none."""
        left = max(0, self.armour - 1)
        return replace(self, armour=left, status="running" if left else "knocked out")

    def to_dict(self) -> dict[str, Any]:
        return {
            "vehicle_id": self.vehicle_id,
            "name": self.name,
            "owner": self.owner,
            "armour": self.armour,
            "status": self.status,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Vehicle:
        return cls(
            str(data["vehicle_id"]),
            str(data["name"]),
            str(data["owner"]),
            int(data["armour"]),
            str(data.get("status", "running")),
        )


Target = Warrior | Gun | Vehicle


def _shooter_id(shooter: Shooter) -> str:
    return shooter.gun_id if isinstance(shooter, Gun) else shooter.warrior_id


# ---------------------------------------------------------------------------
# TS-11: crew; TS-9: disable and repair; TS-10: capture


def assign_crew(gun: Gun, warrior: Warrior, distance: int) -> Gun:
    """TS-11: only a warrior qualified for the gun's type may crew it.

    Decision: the crew stands within 1 step of the gun (the distance the rules
    use for guarding and capturing guns), belongs to the gun's owner and is
    on the board.
    """
    if warrior.owner != gun.owner:
        raise IllegalAction(f"{warrior.name} cannot crew the {gun.name}: it belongs to {gun.owner}")
    if not warrior.on_board:
        raise IllegalAction(f"{warrior.name} is {warrior.status} and cannot crew the {gun.name}")
    if gun.gun_type not in warrior.qualified:
        raise IllegalAction(
            f"{warrior.name} is not qualified for {gun.gun_type} guns and may not crew "
            f"the {gun.name} (TS-11)"
        )
    if distance > CLOSE_DISTANCE:
        raise IllegalAction(
            f"{warrior.name} is {distance} steps from the {gun.name}; a crew stands within "
            f"{CLOSE_DISTANCE} step of its gun"
        )
    return replace(gun, crew=warrior.warrior_id)


def disable_gun(gun: Gun) -> Gun:
    """TS-9: a gun hit by a shell is disabled (turned on its side); a lost gun stays lost."""
    if gun.status == "lost":
        return gun
    return replace(gun, status="disabled")


def can_repair(warrior: Warrior, gun_types: Collection[str] = DEFAULT_GUN_TYPES) -> bool:
    """TS-9: only a warrior qualified on all the game's gun types repairs guns."""
    return warrior.on_board and all(t in warrior.qualified for t in gun_types)


@dataclass(frozen=True)
class RepairAttempt:
    roll: int
    outcome: RepairOutcome
    gun: Gun
    account: str


def repair_gun(
    gun: Gun,
    mechanic: Warrior,
    dice: DiceBase,
    turn: int,
    distance: int,
    gun_types: Collection[str] = DEFAULT_GUN_TYPES,
) -> RepairAttempt:
    """TS-9: one repair roll in the recovery phase of ``turn``.

    1-2: the gun is lost; 3-4: still under repair (roll again next turn);
    5-6: repaired, fires from turn + 1. Decision: the mechanic is the gun's
    owner's warrior within 1 step of it.
    """
    if gun.status not in ("disabled", "repairing"):
        raise IllegalAction(f"the {gun.name} is {gun.status}, not disabled: nothing to repair")
    if mechanic.owner != gun.owner:
        raise IllegalAction(f"{mechanic.name} cannot repair the {gun.name}: it is {gun.owner}'s")
    if not mechanic.on_board:
        raise IllegalAction(f"{mechanic.name} is {mechanic.status} and cannot repair guns")
    if not can_repair(mechanic, gun_types):
        missing = [t for t in gun_types if t not in mechanic.qualified]
        raise IllegalAction(
            f"{mechanic.name} cannot repair guns: a mechanic must be qualified on all "
            f"{len(gun_types)} gun types, and is not on {', '.join(missing)} (TS-9)"
        )
    if distance > CLOSE_DISTANCE:
        raise IllegalAction(
            f"{mechanic.name} is {distance} steps from the {gun.name}; repair needs him "
            f"within {CLOSE_DISTANCE} step"
        )
    roll = dice.d6(f"repair of {gun.name}")
    outcome = repair_result(roll)
    if outcome == "lost":
        after = replace(gun, status="lost", crew=None)
        text = "the gun is beyond repair and removed"
    elif outcome == "continues":
        after = replace(gun, status="repairing")
        text = "repair goes on next turn"
    else:
        after = replace(gun, status="ready", ready_turn=turn + 1)
        text = f"repaired, may fire from turn {turn + 1}"
    account = f"{mechanic.name} repairs the {gun.name}: d6 {roll} -> {text}"
    return RepairAttempt(roll, outcome, after, account)


def capture_gun(
    gun: Gun,
    captor: Warrior,
    captor_distance: int,
    guard_distances: Mapping[str, int],
    won_melee: bool = False,
) -> Gun:
    """TS-10: a warrior within 1 step of an enemy gun takes it.

    ``guard_distances``: distance from the gun to each on-board warrior of the
    gun's owner (by name). If one stands within 1 step the captor must win a
    melee first (``won_melee``). The gun keeps its condition and loses its
    crew; it now belongs to the captor's side.
    """
    if gun.owner == captor.owner:
        raise IllegalAction(f"the {gun.name} already belongs to {captor.owner}")
    if gun.status == "lost":
        raise IllegalAction(f"the {gun.name} is lost (removed from the board)")
    if not captor.on_board:
        raise IllegalAction(f"{captor.name} is {captor.status} and cannot capture guns")
    if captor_distance > CLOSE_DISTANCE:
        raise IllegalAction(
            f"{captor.name} is {captor_distance} steps from the {gun.name}; he must come "
            f"within {CLOSE_DISTANCE} step to capture it"
        )
    guards = sorted(name for name, d in guard_distances.items() if d <= CLOSE_DISTANCE)
    if guards and not won_melee:
        raise IllegalAction(
            f"the {gun.name} is guarded by {', '.join(guards)} within {CLOSE_DISTANCE} step: "
            f"{captor.name} must win a melee before capturing it (TS-10)"
        )
    return replace(gun, owner=captor.owner, crew=None)


@dataclass(frozen=True)
class GunFight:
    """TS-10: the melee for a guarded gun, rolled: each side's d6, its warriors in
    the fight, the totals, and whether the captors won."""

    captor_roll: int
    guard_roll: int
    captors: int
    guards: int

    @property
    def captor_total(self) -> int:
        return self.captor_roll + self.captors

    @property
    def guard_total(self) -> int:
        return self.guard_roll + self.guards

    @property
    def won(self) -> bool:
        return self.captor_total > self.guard_total

    def account(self, captor: str, gun: str) -> str:
        verdict = "the captors win" if self.won else "the guards hold"
        return (
            f"melee for the {gun}: {captor} d6 {self.captor_roll} + {self.captors} "
            f"warrior{'s' if self.captors != 1 else ''} = {self.captor_total} against the "
            f"guards' d6 {self.guard_roll} + {self.guards} = {self.guard_total}: {verdict} (TS-10)"
        )


def _check_fighters(captors: int, guards: int) -> None:
    for value, what in ((captors, "captors"), (guards, "guards")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"a melee for a gun needs 1 or more {what}, not {value!r}")


def fight_for_gun(dice: DiceBase, captors: int, guards: int, gun: str = "gun") -> GunFight:
    """TS-10's melee for a guarded gun. The source names the melee and gives no
    procedure. Decision (docs/toysoldiers.md): each side rolls one d6 and adds the
    number of its warriors in the fight; the captors win on a higher total, a tie
    goes to the guards."""
    _check_fighters(captors, guards)
    a = dice.d6(f"captors' melee for the {gun}")
    b = dice.d6(f"guards' melee for the {gun}")
    return GunFight(a, b, captors, guards)


def gun_fight_odds(captors: int, guards: int) -> Fraction:
    """Exact chance that the captors win ``fight_for_gun``."""
    _check_fighters(captors, guards)
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a + captors > b + guards)
    return Fraction(wins, 36)


# ---------------------------------------------------------------------------
# TS-1: shooting initiative


@dataclass(frozen=True)
class InitiativeRoll:
    """TS-1: what each player rolled, his shooting bonus, and the winner.

    Decision on ties: the rolled sums stay the bonuses; both players roll all
    the game's dice again, as often as needed, and these roll-offs only decide
    who wins the initiative.
    """

    players: tuple[str, str]
    rolls: tuple[tuple[int, ...], tuple[int, ...]]
    roll_offs: tuple[tuple[int, int], ...]
    winner: str

    @property
    def bonuses(self) -> dict[str, int]:
        return {p: sum(r) for p, r in zip(self.players, self.rolls, strict=True)}

    @property
    def account(self) -> str:
        a, b = self.players
        ra, rb = self.rolls
        text = (
            f"shooting bonus: {a} {'+'.join(map(str, ra))} = {sum(ra)}, "
            f"{b} {'+'.join(map(str, rb))} = {sum(rb)}"
        )
        for sa, sb in self.roll_offs:
            text += f"; tie, roll-off {a} {sa} vs {b} {sb}"
        return f"{text} -> {self.winner} has the initiative"


def _check_game_dice(game_dice: Sequence[int]) -> None:
    if not game_dice:
        raise ValueError("the game's dice are not listed: give the sides of each die, e.g. (6, 6)")
    bad = [s for s in game_dice if isinstance(s, bool) or not isinstance(s, int) or s < 2]
    if bad:
        raise ValueError(f"a die has at least 2 sides; the game's dice list has {bad}")


def _roll_all(dice: DiceBase, game_dice: Sequence[int], purpose: str) -> tuple[int, ...]:
    return tuple(dice.roll(1, sides, purpose).total for sides in game_dice)


def roll_shooting_initiative(
    dice: DiceBase, players: tuple[str, str], game_dice: Sequence[int]
) -> InitiativeRoll:
    """TS-1: each player rolls every die the game uses once (``game_dice`` lists
    their sides); the sum is his shooting bonus; the higher sum wins."""
    _check_game_dice(game_dice)
    if len(players) != 2 or players[0] == players[1]:
        raise ValueError(f"the shooting initiative is between two players, not {players!r}")
    a, b = players
    ra = _roll_all(dice, game_dice, f"shooting bonus of {a}")
    rb = _roll_all(dice, game_dice, f"shooting bonus of {b}")
    sa, sb = sum(ra), sum(rb)
    roll_offs: list[tuple[int, int]] = []
    while sa == sb:
        sa = sum(_roll_all(dice, game_dice, f"initiative roll-off of {a}"))
        sb = sum(_roll_all(dice, game_dice, f"initiative roll-off of {b}"))
        roll_offs.append((sa, sb))
    return InitiativeRoll(players, (ra, rb), tuple(roll_offs), a if sa > sb else b)


def shooting_bonus_distribution(game_dice: Sequence[int]) -> Distribution:
    """TS-1: the exact distribution of one player's shooting bonus."""
    _check_game_dice(game_dice)
    dist: Distribution = {0: Fraction(1)}
    for sides in game_dice:
        dist = convolve(dist, uniform(sides))
    return dist


def initiative_tie_probability(game_dice: Sequence[int]) -> Fraction:
    """TS-1: chance that the first rolls tie (and a roll-off is needed)."""
    dist = shooting_bonus_distribution(game_dice)
    return sum((p * p for p in dist.values()), Fraction(0))


# ---------------------------------------------------------------------------
# TS-2: the shooting phase budget


@dataclass
class ShootingPhase:
    """TS-2 bookkeeping of one shooting phase.

    Each shot costs 1 point of the shooter's side's bonus (Decision: every
    virtual shot, of a gun or of a warrior with a profile, is paid from the
    same budget); points left over are lost. Every shooter fires at most the
    N shots of its profile, counting shots it fired after its manoeuvre this
    turn (TS-13). The winner of the initiative chooses the order; the first
    side fires until it ends its fire, then the other.
    """

    players: tuple[str, str]
    bonuses: dict[str, int]
    initiative_winner: str
    order: tuple[str, str] | None = None
    firing_index: int = 0
    spent: dict[str, int] = field(default_factory=dict)
    shots: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_initiative(
        cls, roll: InitiativeRoll, earlier_shots: Mapping[str, int] | None = None
    ) -> ShootingPhase:
        """Open the phase; ``earlier_shots`` counts shots fired after manoeuvres (TS-13)."""
        return cls(
            players=roll.players,
            bonuses=roll.bonuses,
            initiative_winner=roll.winner,
            spent=dict.fromkeys(roll.players, 0),
            shots={k: v for k, v in (earlier_shots or {}).items() if v},
        )

    def _check_player(self, player: str) -> None:
        if player not in self.players:
            raise IllegalAction(f"{player} is not a player in this shooting phase")

    def choose_order(self, player: str, fire_first: bool) -> None:
        """TS-1: the initiative winner fires first or makes the opponent fire first."""
        self._check_player(player)
        if player != self.initiative_winner:
            raise IllegalAction(
                f"only {self.initiative_winner}, who won the shooting initiative, "
                "chooses who fires first"
            )
        if self.order is not None:
            raise IllegalAction(f"the firing order is already chosen: {self.order[0]} fires first")
        other = self.players[1] if player == self.players[0] else self.players[0]
        self.order = (player, other) if fire_first else (other, player)

    @property
    def firing(self) -> str | None:
        """The side now firing; None before the order is chosen or after both are done."""
        if self.order is None or self.firing_index >= 2:
            return None
        return self.order[self.firing_index]

    @property
    def finished(self) -> bool:
        return self.order is not None and self.firing_index >= 2

    def remaining(self, player: str) -> int:
        self._check_player(player)
        return self.bonuses[player] - self.spent.get(player, 0)

    def shots_fired(self, shooter_id: str) -> int:
        return self.shots.get(shooter_id, 0)

    def check_shot(self, player: str, shooter: Shooter) -> None:
        """TS-2: may ``player`` spend a point on one more shot of ``shooter``?"""
        self._check_player(player)
        if self.order is None:
            raise IllegalAction(
                f"{self.initiative_winner} must first choose who fires first (TS-1)"
            )
        if self.finished:
            raise IllegalAction("the shooting phase is over")
        if player != self.firing:
            raise IllegalAction(f"it is {self.firing}'s turn to fire, not {player}'s")
        if shooter.owner != player:
            raise IllegalAction(f"the {shooter.name} belongs to {shooter.owner}, not {player}")
        profile = shooter.profile
        if profile is None:
            raise IllegalAction(f"{shooter.name} has no shooting profile and cannot fire")
        fired = self.shots_fired(_shooter_id(shooter))
        if fired >= profile.shots:
            if profile.shots == 1:
                raise IllegalAction(f"the {shooter.name} has already fired this phase")
            raise IllegalAction(
                f"the {shooter.name} has already fired its {profile.shots} shots this phase"
            )
        if self.remaining(player) < 1:
            raise IllegalAction(
                f"{player} has no shooting points left (bonus {self.bonuses[player]}, all spent)"
            )

    def record_shot(self, player: str, shooter: Shooter) -> None:
        """Spend one point on a shot of ``shooter`` (validated first)."""
        self.check_shot(player, shooter)
        self.spent[player] = self.spent.get(player, 0) + 1
        sid = _shooter_id(shooter)
        self.shots[sid] = self.shots.get(sid, 0) + 1

    def end_fire(self, player: str) -> int:
        """The firing side stops; its unspent points are lost (TS-2). Returns them."""
        self._check_player(player)
        if self.order is None:
            raise IllegalAction(f"{self.initiative_winner} must first choose who fires first")
        if player != self.firing:
            raise IllegalAction(f"{player} is not firing now; {self.firing} is")
        lost = self.remaining(player)
        self.firing_index += 1
        return lost

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "bonuses": dict(self.bonuses),
            "initiative_winner": self.initiative_winner,
            "order": list(self.order) if self.order else None,
            "firing_index": self.firing_index,
            "spent": dict(self.spent),
            "shots": dict(self.shots),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ShootingPhase:
        a, b = (str(p) for p in data["players"])
        order = data.get("order")
        return cls(
            players=(a, b),
            bonuses={str(k): int(v) for k, v in data["bonuses"].items()},
            initiative_winner=str(data["initiative_winner"]),
            order=(str(order[0]), str(order[1])) if order else None,
            firing_index=int(data.get("firing_index", 0)),
            spent={str(k): int(v) for k, v in data.get("spent", {}).items()},
            shots={str(k): int(v) for k, v in data.get("shots", {}).items()},
        )


# ---------------------------------------------------------------------------
# TS-13: fire right after a manoeuvre


@dataclass
class ShooterTurn:
    """One shooter's turn flags for TS-13.

    By agreement a shooter may fire right after its manoeuvre; it then may
    not declare melee that turn. Decision: these shots are not paid from the
    shooting bonus (rolled later, in the shooting phase) but count against the
    shooter's N shots for the turn (pass ``manoeuvre_shots`` to
    ``ShootingPhase.from_initiative``).
    """

    shooter_id: str
    manoeuvre_shots: int = 0
    declared_melee: bool = False

    @property
    def fired_after_manoeuvre(self) -> bool:
        return self.manoeuvre_shots > 0

    def check_manoeuvre_fire(self, shooter: Shooter, option_agreed: bool) -> None:
        if not option_agreed:
            raise IllegalAction(
                "fire right after a manoeuvre is an option both sides must agree on (TS-13); "
                "this game does not use it"
            )
        if _shooter_id(shooter) != self.shooter_id:
            raise IllegalAction(f"these turn flags are for {self.shooter_id}, not {shooter.name}")
        if self.declared_melee:
            raise IllegalAction(
                f"{shooter.name} has declared melee this turn and may not fire after "
                "the manoeuvre (TS-13)"
            )
        profile = shooter.profile
        if profile is None:
            raise IllegalAction(f"{shooter.name} has no shooting profile and cannot fire")
        if self.manoeuvre_shots >= profile.shots:
            raise IllegalAction(f"{shooter.name} has already fired all its shots this turn")

    def declare_melee(self, name: str) -> None:
        if self.fired_after_manoeuvre:
            raise IllegalAction(
                f"{name} fired right after the manoeuvre and may not declare melee this turn "
                "(TS-13)"
            )
        self.declared_melee = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "shooter_id": self.shooter_id,
            "manoeuvre_shots": self.manoeuvre_shots,
            "declared_melee": self.declared_melee,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ShooterTurn:
        return cls(
            shooter_id=str(data["shooter_id"]),
            manoeuvre_shots=int(data.get("manoeuvre_shots", 0)),
            declared_melee=bool(data.get("declared_melee", False)),
        )


# ---------------------------------------------------------------------------
# One virtual shot: aim (validate), then roll


@dataclass(frozen=True)
class Aim:
    """A legal shot: who fires at whom, and the chance C' with its breakdown."""

    shooter: Shooter
    target: Target
    distance: int
    number: TargetNumber

    @property
    def chance(self) -> int:
        return max(0, self.number.total)


def aim(
    shooter: Shooter,
    target: Target,
    distance: int,
    *,
    crew: Warrior | None = None,
    enemy_distances: Iterable[int] = (),
    obstacle_heights: Iterable[int] = (),
    tower: bool = False,
    wall: bool = False,
    target_on_wall: bool = False,
    turn: int = 1,
) -> Aim:
    """Check everything that may forbid the shot and work out C'.

    ``enemy_distances``: steps from the shooter to each on-board enemy warrior
    (TS-6). ``crew``: the warrior serving a gun (TS-11). A gun as the target
    can only be disabled by armour-piercing fire (TS-5).
    """
    profile = shooter.profile
    if profile is None:
        raise IllegalAction(f"{shooter.name} has no shooting profile and cannot fire")
    if target.owner == shooter.owner:
        raise IllegalAction(f"{target.name} is on {shooter.owner}'s own side")
    if isinstance(shooter, Warrior):
        if not shooter.on_board:
            raise IllegalAction(f"{shooter.name} is {shooter.status} and cannot fire")
    else:
        if shooter.status != "ready":
            raise IllegalAction(f"the {shooter.name} is {shooter.status} and cannot fire (TS-9)")
        if shooter.ready_turn > turn:
            raise IllegalAction(
                f"the {shooter.name} was just repaired and may fire from turn "
                f"{shooter.ready_turn} (TS-9)"
            )
        if shooter.crew is None or crew is None:
            raise IllegalAction(f"the {shooter.name} has no crew and cannot fire (TS-11)")
        if crew.warrior_id != shooter.crew:
            raise IllegalAction(f"{crew.name} is not the crew of the {shooter.name}")
        if not crew.on_board:
            raise IllegalAction(
                f"the crew of the {shooter.name}, {crew.name}, is {crew.status}; the gun "
                "cannot fire"
            )
        if shooter.gun_type not in crew.qualified:
            raise IllegalAction(
                f"{crew.name} is not qualified for {shooter.gun_type} guns; the {shooter.name} "
                "cannot fire with him as crew (TS-11)"
            )
    if isinstance(target, Warrior):
        if not target.on_board:
            raise IllegalAction(f"{target.name} is {target.status} and not on the board")
    elif isinstance(target, Vehicle):
        if not profile.armour_piercing:
            raise IllegalAction(
                f"only armour-piercing (ББ) fire hurts a battle machine or tank; "
                f"{shooter.name} is {profile} (TS-5)"
            )
        if target.status != "running":
            raise IllegalAction(f"the {target.name} is already {target.status}")
    else:
        if not profile.armour_piercing:
            raise IllegalAction(
                f"only armour-piercing (ББ) fire can disable a gun; {shooter.name} is "
                f"{profile} (TS-5)"
            )
        if target.status in ("disabled", "repairing", "lost"):
            raise IllegalAction(f"the {target.name} is already {target.status}")
    enemy_distances = list(enemy_distances)
    if blocked_by_close_enemy(profile, enemy_distances):
        near = min(enemy_distances)
        raise IllegalAction(
            f"an enemy warrior is {near} step{'s' if near != 1 else ''} from {shooter.name}; "
            "only a close-range (Б) weapon may fire then (TS-6)"
        )
    if obstacles_block(profile, obstacle_heights):
        raise IllegalAction(
            f"an obstacle blocks the line from {shooter.name} to {target.name}"
            + (
                f"; indirect fire passes only over obstacles up to {INDIRECT_MAX_OBSTACLE} steps"
                if profile.indirect
                else "; only indirect (Н) fire passes over obstacles"
            )
        )
    chance = hit_chance(
        profile, target.armour, distance, tower=tower, wall=wall, target_on_wall=target_on_wall
    )
    if chance is None:
        reach = effective_range(profile, tower=tower, wall=wall)
        raise IllegalAction(
            f"{target.name} is {distance} steps away; {shooter.name} reaches {reach} steps"
        )
    number = chance_breakdown(profile, target.armour, tower=tower, target_on_wall=target_on_wall)
    if chance == 0:
        raise IllegalAction(
            f"{shooter.name} cannot hurt {target.name}: {number.breakdown()} (TS-4)"
        )
    return Aim(shooter, target, distance, number)


@dataclass(frozen=True)
class VirtualShot:
    """A virtual shot rolled: the roll, the result, the target afterwards, the account."""

    aim: Aim
    roll: int
    result: VirtualResult
    target_after: Target
    account: str


def resolve_virtual_shot(aim_: Aim, dice: DiceBase, split: Split = "example") -> VirtualShot:
    """TS-4/TS-7 (and TS-9 for a gun target): roll one d6 and apply the result."""
    shooter, target = aim_.shooter, aim_.target
    chance = aim_.chance
    roll = dice.d6(f"{shooter.name} fires at {target.name}")
    result = virtual_hit_result(chance, roll, split)
    after: Target = target
    if isinstance(target, Gun):
        # TS-5/TS-9: an armour-piercing hit disables the gun; halves do not apply.
        if result != "miss":
            after = disable_gun(target)
        told = "miss" if result == "miss" else "hit: the gun is disabled"
    elif isinstance(target, Vehicle):
        # TS-5: an armour-piercing hit lowers the remaining armour by 1.
        told = "miss"
        if result != "miss":
            after = target.hit()
            told = (
                f"hit: armour {target.armour} -> {after.armour}"
                if after.status == "running"
                else "hit: its last armour gone, it is knocked out"
            )
    else:
        if result != "miss":
            after = replace(target, status=result)
        limit = kill_limit(chance, split)
        told = {
            "miss": "miss",
            "killed": f"killed (a roll of {limit} or less kills)",
            "wounded": "wounded, to the hospital",
        }[result]
    account = (
        f"{shooter.name} at {target.name}, {aim_.distance} steps: "
        f"{aim_.number.breakdown()}; d6 {roll} -> {told}"
    )
    return VirtualShot(aim_, roll, result, after, account)


def fire_virtual_shot(
    phase: ShootingPhase,
    shooter: Shooter,
    target: Target,
    distance: int,
    dice: DiceBase,
    *,
    crew: Warrior | None = None,
    enemy_distances: Iterable[int] = (),
    obstacle_heights: Iterable[int] = (),
    tower: bool = False,
    wall: bool = False,
    target_on_wall: bool = False,
    turn: int = 1,
    split: Split = "example",
) -> VirtualShot:
    """One shot in the shooting phase: validate everything, spend 1 point, roll."""
    phase.check_shot(shooter.owner, shooter)
    aimed = aim(
        shooter,
        target,
        distance,
        crew=crew,
        enemy_distances=enemy_distances,
        obstacle_heights=obstacle_heights,
        tower=tower,
        wall=wall,
        target_on_wall=target_on_wall,
        turn=turn,
    )
    if split not in SPLITS:
        raise ValueError(f"split must be 'example' or 'text', not {split!r}")
    phase.record_shot(shooter.owner, shooter)
    return resolve_virtual_shot(aimed, dice, split)


def fire_after_manoeuvre(
    turn_state: ShooterTurn,
    shooter: Shooter,
    target: Target,
    distance: int,
    dice: DiceBase,
    *,
    option_agreed: bool,
    crew: Warrior | None = None,
    enemy_distances: Iterable[int] = (),
    obstacle_heights: Iterable[int] = (),
    tower: bool = False,
    wall: bool = False,
    target_on_wall: bool = False,
    turn: int = 1,
    split: Split = "example",
) -> VirtualShot:
    """TS-13: a virtual shot right after the shooter's manoeuvre (no melee this turn)."""
    turn_state.check_manoeuvre_fire(shooter, option_agreed)
    aimed = aim(
        shooter,
        target,
        distance,
        crew=crew,
        enemy_distances=enemy_distances,
        obstacle_heights=obstacle_heights,
        tower=tower,
        wall=wall,
        target_on_wall=target_on_wall,
        turn=turn,
    )
    if split not in SPLITS:
        raise ValueError(f"split must be 'example' or 'text', not {split!r}")
    turn_state.manoeuvre_shots += 1
    return resolve_virtual_shot(aimed, dice, split)


# ---------------------------------------------------------------------------
# Exact odds


@dataclass(frozen=True)
class ShotOdds:
    """Exact probabilities of one shot's (or one target's) fate."""

    killed: Fraction
    wounded: Fraction
    miss: Fraction

    @property
    def hit(self) -> Fraction:
        return self.killed + self.wounded


def shot_odds(chance: int, split: Split = "example") -> ShotOdds:
    """TS-4/TS-7: exact odds of one virtual shot at chance C'."""
    limit = kill_limit(chance, split)
    hits = min(max(chance, 0), 6)
    kills = min(limit, hits)
    killed = Fraction(kills, 6)
    wounded = Fraction(hits - kills, 6)
    return ShotOdds(killed, wounded, 1 - killed - wounded)


def volley_odds(
    chance: int, shots: int, split: Split = "example"
) -> dict[tuple[int, int], Fraction]:
    """N shots at chance C', each at a different figure: the exact distribution of
    (killed, wounded) counts (multinomial)."""
    if shots < 0:
        raise ValueError(f"the number of shots is 0 or more, not {shots}")
    odds = shot_odds(chance, split)
    out: dict[tuple[int, int], Fraction] = {}
    for kills in range(shots + 1):
        for wounds in range(shots - kills + 1):
            misses = shots - kills - wounds
            ways = comb(shots, kills) * comb(shots - kills, wounds)
            p = ways * odds.killed**kills * odds.wounded**wounds * odds.miss**misses
            if p:
                out[(kills, wounds)] = p
    return out


def one_target_odds(chance: int, shots: int, split: Split = "example") -> ShotOdds:
    """N shots at one figure: the first hit decides (a wounded figure goes to the
    hospital, a killed one is removed), so later shots are not fired at it."""
    if shots < 0:
        raise ValueError(f"the number of shots is 0 or more, not {shots}")
    odds = shot_odds(chance, split)
    untouched = odds.miss**shots
    if odds.hit == 0:
        return ShotOdds(Fraction(0), Fraction(0), Fraction(1))
    hit = 1 - untouched
    return ShotOdds(hit * odds.killed / odds.hit, hit * odds.wounded / odds.hit, untouched)


def expected_kills_and_wounds(
    chance: int, shots: int, split: Split = "example"
) -> tuple[Fraction, Fraction]:
    """Expected figures killed and wounded by N shots at N figures."""
    odds = shot_odds(chance, split)
    return shots * odds.killed, shots * odds.wounded


def real_shot_odds() -> dict[str, Fraction]:
    """TS-8: a physical hit decided by a die kills 2 in 6."""
    return {"killed": Fraction(REAL_KILL_MAX, 6), "wounded": Fraction(6 - REAL_KILL_MAX, 6)}


def knocked_down_odds(fall: Fall) -> dict[str, Fraction]:
    """TS-8: the result of a knocked-down figure by how it fell."""
    if fall == "unclear":
        kill = Fraction(UNCLEAR_FALL_KILL_MAX, 6)
        return {"killed": kill, "wounded": 1 - kill}
    return {knocked_down_result(fall): Fraction(1)}


@dataclass(frozen=True)
class RepairOdds:
    """TS-9 exact odds: one roll, and repairs that go on until decided."""

    lost: Fraction
    continues: Fraction
    repaired: Fraction
    eventually_repaired: Fraction
    expected_rolls: Fraction


def repair_odds() -> RepairOdds:
    """TS-9: each roll is 1/3 lost, 1/3 continues, 1/3 repaired; if the repair
    goes on until decided, it ends repaired half the time after 1.5 rolls on
    average."""
    counts = {"lost": 0, "continues": 0, "repaired": 0}
    for roll in range(1, 7):
        counts[repair_result(roll)] += 1
    lost, cont, rep = (Fraction(counts[k], 6) for k in ("lost", "continues", "repaired"))
    return RepairOdds(lost, cont, rep, rep / (lost + rep), 1 / (1 - cont))


def repair_by_turn(turns: int) -> dict[str, Fraction]:
    """TS-9: the state of a repair after ``turns`` recovery phases of rolling."""
    if turns < 0:
        raise ValueError(f"the number of turns is 0 or more, not {turns}")
    odds = repair_odds()
    ongoing = odds.continues**turns
    decided = 1 - ongoing
    share = odds.lost + odds.repaired
    return {
        "lost": decided * odds.lost / share,
        "continues": ongoing,
        "repaired": decided * odds.repaired / share,
    }
