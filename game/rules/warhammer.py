"""Warhammer shooting (WH-1..WH-10) and the close-combat result (WHC-1, WHC-2).

Shooting runs the edition's steps: roll to hit per firing model (WH-2..WH-6),
to wound by Strength against Toughness (WH-7), armour saves worsened by
Strength (WH-8), then ward saves that Strength never touches (WH-9). Automatic
hits (WH-10) start at the to-wound step.

The decisions on the dice are made by three small functions,
``hits_from_rolls``, ``wounds_from_rolls`` and ``saves_from_rolls``, that take
the needed number and the dice faces, as plain ints or as numpy arrays. The
resolver applies them to the dice it rolls; the exact odds beside it
(design principle 7) are derived from the same thresholds, and the tests check
the two against a vectorized sample that calls the very same functions.

Odds are ``fractions.Fraction``; ``hit_probability`` is the float the UI shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from game.dice import DiceBase
from game.hexmath import DIRECTIONS, Hex, distance, neighbor, neighbors
from game.rules.core import Distribution, Modifier, binomial, convolve

# --- modifiers (WH-3) -----------------------------------------------------------

MOVED = Modifier("moved", -1)
LONG_RANGE = Modifier("long range", -1)
STAND_AND_SHOOT = Modifier("stand and shoot", -1)
SOFT_COVER = Modifier("soft cover", -1)
HARD_COVER = Modifier("hard cover", -2)

COVER = {"none": None, "soft": SOFT_COVER, "hard": HARD_COVER}

# What callers may pass as to-hit modifiers: a total, one named modifier, a list
# of named modifiers or (name, value) pairs, or a mapping name -> value.
Modifiers = int | Modifier | Sequence[Modifier | tuple[str, int]] | Mapping[str, int]

# Armour: a named kind or a base save number (e.g. 4 for a 4+ save).
Armour = str | int

ARMOUR_SAVES: dict[str, int | None] = {"none": None, "light": 6, "heavy": 5}


def _whole(value: object, name: str, where: str, minimum: int | None = None) -> int:
    """``value`` as an int, or a ValueError naming what, where and why."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{where}: {name} must be a whole number, not {value!r}")
    number = int(value)
    if minimum is not None and number < minimum:
        raise ValueError(f"{where}: {name} must be at least {minimum}, not {number}")
    return number


def _flag(value: object, name: str, where: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{where}: {name} must be True or False, not {value!r}")
    return bool(value)


def as_modifiers(modifiers: Modifiers, where: str = "modifiers") -> tuple[Modifier, ...]:
    """Normalise the accepted modifier forms to named modifiers (zeros dropped)."""
    if isinstance(modifiers, Modifier):
        items: list[Modifier] = [modifiers]
    elif isinstance(modifiers, tuple) and len(modifiers) == 2 and isinstance(modifiers[0], str):
        items = [Modifier(modifiers[0], _whole(modifiers[1], f"modifier {modifiers[0]!r}", where))]
    elif isinstance(modifiers, (int, np.integer)) and not isinstance(modifiers, bool):
        items = [Modifier("modifiers", int(modifiers))]
    elif isinstance(modifiers, Mapping):
        items = [
            Modifier(str(name), _whole(value, f"modifier {name!r}", where))
            for name, value in modifiers.items()
        ]
    elif isinstance(modifiers, Sequence) and not isinstance(modifiers, str):
        items = []
        for entry in modifiers:
            if isinstance(entry, Modifier):
                items.append(Modifier(entry.name, _whole(entry.value, entry.name, where)))
            elif isinstance(entry, Sequence) and not isinstance(entry, str) and len(entry) == 2:
                name, value = entry
                items.append(Modifier(str(name), _whole(value, f"modifier {name!r}", where)))
            else:
                raise ValueError(
                    f"{where}: a modifier is a Modifier or a (name, value) pair, not {entry!r}"
                )
    else:
        raise ValueError(
            f"{where}: modifiers are a number, a Modifier, a list of them or of "
            f"(name, value) pairs, or a dict name -> value; got {modifiers!r}"
        )
    return tuple(m for m in items if m.value != 0)


def modifier_total(modifiers: Modifiers) -> int:
    return sum(m.value for m in as_modifiers(modifiers))


def describe_modifiers(modifiers: Iterable[Modifier]) -> str:
    parts = [str(m) for m in modifiers]
    return ", ".join(parts) if parts else "no modifiers"


def shooting_modifiers(
    *,
    moved: bool = False,
    long_range: bool = False,
    stand_and_shoot: bool = False,
    cover: str = "none",
) -> tuple[Modifier, ...]:
    """WH-3: the cumulative to-hit modifiers of one batch of shots."""
    where = "shooting_modifiers"
    if cover not in COVER:
        raise ValueError(f"{where}: cover is one of {', '.join(COVER)}, not {cover!r}")
    chosen = [
        MOVED if _flag(moved, "moved", where) else None,
        LONG_RANGE if _flag(long_range, "long_range", where) else None,
        STAND_AND_SHOOT if _flag(stand_and_shoot, "stand_and_shoot", where) else None,
        COVER[cover],
    ]
    return tuple(m for m in chosen if m is not None)


def is_long_range(target_distance: float, max_range: float) -> bool:
    """WH-3: more than half the weapon's maximum range is long range (-1)."""
    if max_range <= 0:
        raise ValueError(f"is_long_range: a weapon's maximum range is positive, not {max_range}")
    if target_distance < 0:
        raise ValueError(f"is_long_range: a distance is not negative, not {target_distance}")
    return 2 * target_distance > max_range


# --- who fires (WH-1) -------------------------------------------------------------


class ModelSight(NamedTuple):
    """What one model of the firing unit sees of the (single) target."""

    distance: float
    in_front_arc: bool
    line_of_sight: bool


def model_can_fire(
    target_distance: float,
    max_range: float,
    in_front_arc: bool,
    line_of_sight: bool,
    *,
    target_in_close_combat: bool = False,
    stand_and_shoot: bool = False,
) -> tuple[bool, str]:
    """WH-1: whether one model fires, and why not when it does not.

    A unit declaring stand and shoot may fire at the charger beyond maximum
    range (the source: the charger is taken to come into range).
    """
    if target_in_close_combat:
        return False, "no firing into close combat"
    if not in_front_arc:
        return False, "target outside the front arc"
    if not line_of_sight:
        return False, "no line of sight"
    if target_distance > max_range and not stand_and_shoot:
        return False, f"out of range ({target_distance} > {max_range})"
    return True, "fires"


@dataclass(frozen=True)
class FiringPlan:
    """WH-1 and WH-5: the models of one unit that fire at its one target, split
    into batches that roll separately (short range and long range)."""

    short_range: tuple[int, ...]
    long_range: tuple[int, ...]
    not_firing: tuple[tuple[int, str], ...]
    stand_and_shoot: bool = False

    @property
    def firing(self) -> int:
        return len(self.short_range) + len(self.long_range)

    def groups(self, modifiers: Modifiers = ()) -> list[tuple[int, tuple[Modifier, ...]]]:
        """(models, modifiers) batches for ``shoot``; ``modifiers`` apply to all."""
        common = as_modifiers(modifiers, "FiringPlan.groups")
        if self.stand_and_shoot:
            common = (*common, STAND_AND_SHOOT)
        out = []
        if self.short_range:
            out.append((len(self.short_range), common))
        if self.long_range:
            out.append((len(self.long_range), (*common, LONG_RANGE)))
        return out

    def describe(self) -> str:
        parts = [f"{self.firing} fire"]
        if self.long_range:
            parts.append(f"{len(self.long_range)} of them at long range")
        reasons: dict[str, int] = {}
        for _, why in self.not_firing:
            reasons[why] = reasons.get(why, 0) + 1
        parts.extend(f"{n} do not fire: {why}" for why, n in reasons.items())
        return "; ".join(parts)


def firing_plan(
    models: Sequence[ModelSight | tuple[float, bool, bool]],
    max_range: float,
    *,
    target_in_close_combat: bool = False,
    stand_and_shoot: bool = False,
) -> FiringPlan:
    """WH-1: which models of a unit fire at its target (one target for the whole
    unit, so every entry of ``models`` looks at the same target); WH-3/WH-5:
    those beyond half the maximum range form their own long-range batch."""
    where = "firing_plan"
    if max_range <= 0:
        raise ValueError(f"{where}: a weapon's maximum range is positive, not {max_range}")
    short: list[int] = []
    long: list[int] = []
    out: list[tuple[int, str]] = []
    for index, entry in enumerate(models):
        try:
            sight = ModelSight(*entry)
        except TypeError as exc:
            raise ValueError(
                f"{where}: model {index} must be (distance, in_front_arc, line_of_sight), "
                f"not {entry!r}"
            ) from exc
        if sight.distance < 0:
            raise ValueError(f"{where}: model {index} has a negative distance {sight.distance}")
        fires, why = model_can_fire(
            sight.distance,
            max_range,
            _flag(sight.in_front_arc, f"model {index} in_front_arc", where),
            _flag(sight.line_of_sight, f"model {index} line_of_sight", where),
            target_in_close_combat=target_in_close_combat,
            stand_and_shoot=stand_and_shoot,
        )
        if not fires:
            out.append((index, why))
        elif is_long_range(sight.distance, max_range):
            long.append(index)
        else:
            short.append(index)
    return FiringPlan(tuple(short), tuple(long), tuple(out), stand_and_shoot)


def single_target(targets: Iterable[str]) -> str:
    """WH-1: all models of a unit fire at one target; the one target, or an error."""
    distinct = sorted(set(targets))
    if len(distinct) != 1:
        named = ", ".join(distinct) if distinct else "none"
        raise ValueError(f"WH-1: all models of a unit fire at one target; this unit named {named}")
    return distinct[0]


# --- target numbers ----------------------------------------------------------------


def to_hit_needed(bs: int, modifier_total: int) -> int | None:
    """WH-2/WH-4: the roll needed to hit, 7 - BS - modifiers (modifiers are
    negative numbers such as -1 for moved).

    7, 8 and 9 mean the two-roll rule (a 6, then 4+, 5+, 6+); 10 or more means
    the shot cannot hit (None). Values below 2 are 2: a natural 1 always misses.
    """
    bs = _whole(bs, "BS", "to_hit_needed", 0)
    modifier_total = _whole(modifier_total, "modifier_total", "to_hit_needed")
    needed = 7 - bs - modifier_total
    if needed >= 10:
        return None
    return max(needed, 2)


def to_wound_needed(strength: int, toughness: int) -> int:
    """WH-7: Strength against Toughness (4+ when equal, one better or worse per
    point of difference, never better than 2+ nor worse than 6+)."""
    strength = _whole(strength, "Strength", "to_wound_needed", 1)
    toughness = _whole(toughness, "Toughness", "to_wound_needed", 1)
    return min(6, max(2, 4 - (strength - toughness)))


def _armour_base(armour: Armour, where: str) -> int | None:
    if isinstance(armour, str):
        if armour not in ARMOUR_SAVES:
            raise ValueError(
                f"{where}: armour is 'none', 'light', 'heavy' or a save number 1..6, not {armour!r}"
            )
        return ARMOUR_SAVES[armour]
    return _check_save_number(armour, "armour save", where)


def _check_save_number(value: object, name: str, where: str) -> int:
    number = _whole(value, name, where)
    if not 1 <= number <= 6:
        raise ValueError(f"{where}: {name} is a roll of 1..6 (e.g. 4 for 4+), not {number}")
    return number


def armour_save_needed(armour: Armour, shield: bool, mount: bool, strength: int) -> int | None:
    """WH-8: the armour save after shield, mount and the hit's Strength.

    Light armour 6+, heavy 5+, or a base save number; a shield and a mount
    each improve it by 1; Strength 4 worsens it by 1, S5 by 2, S6 by 3. Never
    better than 1+ (a rolled 1 still fails, so 1 rolls like 2+); None when no
    save is left (worse than 6+). Decision: no armour counts as a 7+ save, so
    a shield alone or a mount alone gives 6+ and both give 5+.
    """
    where = "armour_save_needed"
    base = _armour_base(armour, where)
    shield = _flag(shield, "shield", where)
    mount = _flag(mount, "mount", where)
    strength = _whole(strength, "Strength", where, 0)
    needed = (7 if base is None else base) - shield - mount + max(0, strength - 3)
    if needed > 6:
        return None
    return max(needed, 1)


def armour_save_breakdown(armour: Armour, shield: bool, mount: bool, strength: int) -> str:
    """The save in words, e.g. "heavy armour 5+, shield +1, Strength 4 -1 = 5+"."""
    needed = armour_save_needed(armour, shield, mount, strength)
    base = _armour_base(armour, "armour_save_breakdown")
    if isinstance(armour, str):
        parts = ["no armour" if base is None else f"{armour} armour {base}+"]
    else:
        parts = [f"armour {base}+"]
    if shield:
        parts.append("shield +1")
    if mount:
        parts.append("mount +1")
    if strength > 3:
        parts.append(f"Strength {strength} -{strength - 3}")
    if needed is None:
        return f"{', '.join(parts)} = no save"
    note = " (a 1 still fails)" if needed == 1 else ""
    return f"{', '.join(parts)} = {needed}+{note}"


def ward_save_needed(ward: int | None) -> int | None:
    """WH-9: a ward save is what it says, whatever the Strength of the hit."""
    if ward is None:
        return None
    return _check_save_number(ward, "ward save", "ward_save_needed")


# --- decisions on the dice (ints or numpy arrays) ------------------------------------


def hits_from_rolls(needed: int | None, first: Any, second: Any = 0) -> Any:
    """WH-2/WH-4: which shots hit, given the first d6 and (for 7+) the second.

    A natural 1 always misses; needing 7, 8 or 9 takes a 6 and then 4+, 5+, 6+
    on the second die (``second`` is only read where the first die shows 6).
    """
    first = np.asarray(first)
    if needed is None:
        return np.zeros(first.shape, dtype=bool)
    if needed <= 6:
        return (first != 1) & (first >= needed)
    return (first == 6) & (np.asarray(second) >= needed - 3)


def wounds_from_rolls(needed: int, rolls: Any) -> Any:
    """WH-7: a 1 always fails, a 6 always wounds, otherwise the roll must reach
    the needed number (2..6, so both hold by construction)."""
    rolls = np.asarray(rolls)
    return (rolls != 1) & ((rolls == 6) | (rolls >= needed))


def saves_from_rolls(needed: int | None, rolls: Any) -> Any:
    """WH-8/WH-9: a save holds when the roll reaches it; a 1 always fails."""
    rolls = np.asarray(rolls)
    if needed is None:
        return np.zeros(rolls.shape, dtype=bool)
    return (rolls != 1) & (rolls >= needed)


# --- exact odds (design principle 7) ---------------------------------------------------


def _at_least(needed: int) -> Fraction:
    """P(d6 >= needed) with a 1 always failing."""
    return Fraction(7 - min(6, max(2, needed)), 6)


def hit_chance(bs: int, modifier_total: int) -> Fraction:
    """WH-2/WH-4: exact chance that one shot hits."""
    needed = to_hit_needed(bs, modifier_total)
    if needed is None:
        return Fraction(0)
    if needed <= 6:
        return _at_least(needed)
    return Fraction(1, 6) * _at_least(needed - 3)


def hit_probability(bs: int, modifier_total: int) -> float:
    """WH-2/WH-4: the chance that one shot hits, as a float for display."""
    return float(hit_chance(bs, modifier_total))


def wound_chance(strength: int, toughness: int) -> Fraction:
    """WH-7: exact chance that one hit wounds."""
    return _at_least(to_wound_needed(strength, toughness))


def save_chance(needed: int | None) -> Fraction:
    """WH-8/WH-9: exact chance that a save of ``needed`` holds (None: no save)."""
    if needed is None:
        return Fraction(0)
    return _at_least(needed)


def unsaved_chance(
    strength: int,
    toughness: int,
    armour: Armour = "none",
    *,
    shield: bool = False,
    mount: bool = False,
    ward: int | None = None,
) -> Fraction:
    """Exact chance that one hit wounds and gets through armour and ward saves."""
    armour_needed = armour_save_needed(armour, shield, mount, strength)
    return (
        wound_chance(strength, toughness)
        * (1 - save_chance(armour_needed))
        * (1 - save_chance(ward_save_needed(ward)))
    )


def shot_chance(
    bs: int,
    modifier_total: int,
    strength: int,
    toughness: int,
    armour: Armour = "none",
    *,
    shield: bool = False,
    mount: bool = False,
    ward: int | None = None,
) -> Fraction:
    """Exact chance that one shot hits, wounds and is saved neither by armour nor ward."""
    return hit_chance(bs, modifier_total) * unsaved_chance(
        strength, toughness, armour, shield=shield, mount=mount, ward=ward
    )


def _groups(models: int | Sequence[tuple[int, Modifiers]], modifiers: Modifiers, where: str):
    """(models, modifiers) batches: the common modifiers plus each batch's own (WH-5)."""
    common = as_modifiers(modifiers, f"{where}: modifiers")
    if isinstance(models, (int, np.integer)) and not isinstance(models, bool):
        return [(_whole(models, "models", where, 0), common)]
    if not isinstance(models, Sequence) or isinstance(models, str):
        raise ValueError(
            f"{where}: models is a number of models or a list of (models, modifiers) "
            f"batches, not {models!r}"
        )
    out = []
    for index, batch in enumerate(models):
        if not (isinstance(batch, Sequence) and len(batch) == 2):
            raise ValueError(
                f"{where}: batch {index} must be a (models, modifiers) pair, not {batch!r}"
            )
        count, own = batch
        out.append(
            (
                _whole(count, f"models of batch {index}", where, 0),
                (*common, *as_modifiers(own, f"{where}: modifiers of batch {index}")),
            )
        )
    return out


def unsaved_wounds_distribution(
    models: int | Sequence[tuple[int, Modifiers]],
    bs: int,
    modifiers: Modifiers,
    strength: int,
    toughness: int,
    armour: Armour = "none",
    *,
    shield: bool = False,
    mount: bool = False,
    ward: int | None = None,
    shots_per_model: int = 1,
) -> Distribution:
    """Exact distribution of unsaved wounds from one volley, as ``shoot`` resolves
    it: a binomial per batch of shots (WH-5), convolved over the batches."""
    where = "unsaved_wounds_distribution"
    shots = _whole(shots_per_model, "shots_per_model", where, 1)
    through = unsaved_chance(strength, toughness, armour, shield=shield, mount=mount, ward=ward)
    dist: Distribution = {0: Fraction(1)}
    for count, mods in _groups(models, modifiers, where):
        p = hit_chance(bs, sum(m.value for m in mods)) * through
        dist = convolve(dist, binomial(count * shots, p))
    return dist


def automatic_hits_distribution(
    hits: int,
    strength: int,
    toughness: int,
    armour: Armour = "none",
    *,
    shield: bool = False,
    mount: bool = False,
    ward: int | None = None,
) -> Distribution:
    """WH-10: exact distribution of unsaved wounds from ``hits`` automatic hits."""
    hits = _whole(hits, "hits", "automatic_hits_distribution", 0)
    p = unsaved_chance(strength, toughness, armour, shield=shield, mount=mount, ward=ward)
    return binomial(hits, p)


# --- the resolver -----------------------------------------------------------------------


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _faces(rolls: Sequence[int]) -> str:
    return ", ".join(str(r) for r in rolls) if rolls else "no dice"


@dataclass(frozen=True)
class HitBatch:
    """One batch of to-hit dice (WH-5): models with the same modifiers."""

    models: int
    shots: int
    bs: int
    modifiers: tuple[Modifier, ...]
    needed: int | None
    rolls: tuple[int, ...]
    second_rolls: tuple[int, ...]
    hits: int

    def describe(self) -> str:
        head = (
            f"{_plural(self.models, 'model')}, {_plural(self.shots, 'shot')}, BS {self.bs}, "
            f"{describe_modifiers(self.modifiers)}"
        )
        hits = _plural(self.hits, "hit")
        if self.needed is None:
            return f"{head}: would need 10+ to hit: cannot hit, no dice rolled (WH-4)"
        if self.needed <= 6:
            return f"{head}: need {self.needed}+ to hit; rolled {_faces(self.rolls)}: {hits}"
        again = f"then {_faces(self.second_rolls)}" if self.second_rolls else "no 6 to roll again"
        return (
            f"{head}: need {self.needed}+ to hit, i.e. a 6 then {self.needed - 3}+; "
            f"rolled {_faces(self.rolls)}, {again}: {hits}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "models": self.models,
            "shots": self.shots,
            "bs": self.bs,
            "modifiers": [[m.name, m.value] for m in self.modifiers],
            "needed": self.needed,
            "rolls": list(self.rolls),
            "second_rolls": list(self.second_rolls),
            "hits": self.hits,
        }


def roll_to_hit(
    dice: DiceBase,
    models: int | Sequence[tuple[int, Modifiers]],
    bs: int,
    modifiers: Modifiers = 0,
    *,
    shots_per_model: int = 1,
) -> tuple[HitBatch, ...]:
    """WH-2..WH-6: one d6 per shot, each batch of modifiers rolled on its own.

    Needing 7+ rolls the sixes again (WH-4); needing 10+ rolls nothing.
    """
    where = "roll_to_hit"
    bs = _whole(bs, "BS", where, 0)
    shots = _whole(shots_per_model, "shots_per_model", where, 1)
    out = []
    for count, mods in _groups(models, modifiers, where):
        total = sum(m.value for m in mods)
        needed = to_hit_needed(bs, total)
        n = count * shots
        rolls: tuple[int, ...] = ()
        second: tuple[int, ...] = ()
        if needed is not None and n:
            label = f"to hit (BS {bs}, {describe_modifiers(mods)}): need {needed}+"
            rolls = dice.roll(n, 6, label).dice
            sixes = sum(1 for r in rolls if r == 6)
            if needed >= 7 and sixes:
                second = dice.roll(sixes, 6, f"to hit, again for the 6s: need {needed - 3}+").dice
        again = iter(second)
        second_faces = [next(again) if r == 6 else 0 for r in rolls] if second else [0] * n
        hits = int(np.count_nonzero(hits_from_rolls(needed, rolls, second_faces))) if rolls else 0
        out.append(HitBatch(count, n, bs, tuple(mods), needed, rolls, second, hits))
    return tuple(out)


@dataclass(frozen=True)
class ShootingResult:
    """Everything one volley rolled and caused, with the account players read."""

    shooter: str
    target: str
    batches: tuple[HitBatch, ...]
    automatic: bool
    hits: int
    strength: int
    toughness: int
    wound_needed: int
    wound_rolls: tuple[int, ...]
    wounds: int
    armour_needed: int | None
    armour_rolls: tuple[int, ...]
    armour_saved: int
    ward_needed: int | None
    ward_rolls: tuple[int, ...]
    ward_saved: int
    unsaved: int
    account: tuple[str, ...] = field(default=())

    def text(self) -> str:
        return "\n".join(self.account)

    def to_dict(self) -> dict[str, Any]:
        return {
            "shooter": self.shooter,
            "target": self.target,
            "batches": [b.to_dict() for b in self.batches],
            "automatic": self.automatic,
            "hits": self.hits,
            "strength": self.strength,
            "toughness": self.toughness,
            "wound_needed": self.wound_needed,
            "wound_rolls": list(self.wound_rolls),
            "wounds": self.wounds,
            "armour_needed": self.armour_needed,
            "armour_rolls": list(self.armour_rolls),
            "armour_saved": self.armour_saved,
            "ward_needed": self.ward_needed,
            "ward_rolls": list(self.ward_rolls),
            "ward_saved": self.ward_saved,
            "unsaved": self.unsaved,
            "account": list(self.account),
        }


@dataclass(frozen=True)
class _HitProfile:
    """What the hits meet, checked before any die is rolled."""

    strength: int
    toughness: int
    wound_needed: int
    armour_needed: int | None
    armour_words: str
    ward_needed: int | None


def _hit_profile(
    strength: int,
    toughness: int,
    armour: Armour,
    shield: bool,
    mount: bool,
    ward: int | None,
    where: str,
) -> _HitProfile:
    strength = _whole(strength, "Strength", where, 1)
    toughness = _whole(toughness, "Toughness", where, 1)
    _armour_base(armour, where)
    shield = _flag(shield, "shield", where)
    mount = _flag(mount, "mount", where)
    ward_needed = None if ward is None else _check_save_number(ward, "ward save", where)
    return _HitProfile(
        strength=strength,
        toughness=toughness,
        wound_needed=to_wound_needed(strength, toughness),
        armour_needed=armour_save_needed(armour, shield, mount, strength),
        armour_words=armour_save_breakdown(armour, shield, mount, strength),
        ward_needed=ward_needed,
    )


def _resolve_hits(
    dice: DiceBase,
    profile: _HitProfile,
    batches: tuple[HitBatch, ...],
    automatic: bool,
    hits: int,
    shooter: str,
    target: str,
) -> ShootingResult:
    """WH-7..WH-9: to wound, armour saves, ward saves for ``hits`` hits."""
    s, t = profile.strength, profile.toughness
    account = [f"{shooter} at {target}:"]
    if automatic:
        account.append(f"{_plural(hits, 'automatic hit')}, no roll to hit (WH-10)")
    else:
        account.extend(f"  {b.describe()}" for b in batches)
        account.append(f"{_plural(hits, 'hit')} in all")

    wound_needed = profile.wound_needed
    wound_rolls: tuple[int, ...] = ()
    if hits:
        purpose = f"to wound (S{s} vs T{t}): need {wound_needed}+"
        wound_rolls = dice.roll(hits, 6, purpose).dice
    wounds = int(np.count_nonzero(wounds_from_rolls(wound_needed, wound_rolls)))
    if hits:
        account.append(
            f"to wound S{s} vs T{t}: need {wound_needed}+; rolled "
            f"{_faces(wound_rolls)}: {_plural(wounds, 'wound')}"
        )

    armour_needed = profile.armour_needed
    armour_rolls: tuple[int, ...] = ()
    armour_saved = 0
    if wounds:
        if armour_needed is None:
            account.append(f"armour save: {profile.armour_words}")
        else:
            armour_rolls = dice.roll(wounds, 6, f"armour save: need {armour_needed}+").dice
            armour_saved = int(np.count_nonzero(saves_from_rolls(armour_needed, armour_rolls)))
            account.append(
                f"armour save: {profile.armour_words}; rolled {_faces(armour_rolls)}: "
                f"{armour_saved} saved"
            )

    # WH-9: the ward save is rolled for each wound the armour did not stop.
    left = wounds - armour_saved
    ward_needed = profile.ward_needed
    ward_rolls: tuple[int, ...] = ()
    ward_saved = 0
    if left and ward_needed is not None:
        ward_rolls = dice.roll(left, 6, f"ward save: need {ward_needed}+").dice
        ward_saved = int(np.count_nonzero(saves_from_rolls(ward_needed, ward_rolls)))
        account.append(
            f"ward save {ward_needed}+ (never modified by Strength): rolled "
            f"{_faces(ward_rolls)}: {ward_saved} saved"
        )
    unsaved = left - ward_saved
    account.append(f"{target}: {_plural(unsaved, 'unsaved wound')}")
    return ShootingResult(
        shooter=shooter,
        target=target,
        batches=batches,
        automatic=automatic,
        hits=hits,
        strength=s,
        toughness=t,
        wound_needed=wound_needed,
        wound_rolls=wound_rolls,
        wounds=wounds,
        armour_needed=armour_needed,
        armour_rolls=armour_rolls,
        armour_saved=armour_saved,
        ward_needed=ward_needed,
        ward_rolls=ward_rolls,
        ward_saved=ward_saved,
        unsaved=unsaved,
        account=tuple(account),
    )


def shoot(
    dice: DiceBase,
    models: int | Sequence[tuple[int, Modifiers]],
    bs: int,
    modifiers: Modifiers,
    strength: int,
    toughness: int,
    armour: Armour = "none",
    *,
    shield: bool = False,
    mount: bool = False,
    ward: int | None = None,
    shots_per_model: int = 1,
    shooter: str = "shooters",
    target: str = "target",
) -> ShootingResult:
    """One volley of a unit at its one target (WH-1..WH-9).

    ``models`` is the number of firing models, or a list of (models, modifiers)
    batches that roll separately (WH-5); ``modifiers`` apply to every batch.
    Rolls, in order: to hit per batch (and the second die for 7+), to wound for
    all hits, armour saves for all wounds, ward saves for the wounds left.
    Every input is checked before the first die is rolled.
    """
    profile = _hit_profile(strength, toughness, armour, shield, mount, ward, "shoot")
    batches = roll_to_hit(dice, models, bs, modifiers, shots_per_model=shots_per_model)
    hits = sum(b.hits for b in batches)
    return _resolve_hits(dice, profile, batches, False, hits, shooter, target)


def automatic_hits(
    dice: DiceBase,
    hits: int,
    strength: int,
    toughness: int,
    armour: Armour = "none",
    *,
    shield: bool = False,
    mount: bool = False,
    ward: int | None = None,
    shooter: str = "automatic hits",
    target: str = "target",
) -> ShootingResult:
    """WH-10: hits that need no roll to hit (spells, magic missiles) go straight
    to the to-wound roll and the saves."""
    hits = _whole(hits, "hits", "automatic_hits", 0)
    profile = _hit_profile(strength, toughness, armour, shield, mount, ward, "automatic_hits")
    return _resolve_hits(dice, profile, (), True, hits, shooter, target)


# --- close-combat result (WHC-1) -----------------------------------------------------------

ATTACK_FACES = ("front", "flank", "rear")
CHARGES = {"none": 0, "charge": 1, "downhill": 2}
MAX_OVERKILL = 3
MAX_RANK_BONUS = 3


@dataclass(frozen=True)
class CombatUnit:
    """One unit of a side in a close combat, as the result needs it.

    ``ranks`` counts full ranks, the first included (what makes a rank full is
    the army's formation rule, e.g. five models wide). ``attacking`` is the
    face of the enemy this unit fights: front, flank or rear.
    """

    name: str
    ranks: int = 1
    standard: bool = False
    battle_standard: bool = False
    musician: bool = False
    attacking: str = "front"

    def __post_init__(self) -> None:
        where = f"combat unit {self.name!r}"
        _whole(self.ranks, "ranks", where, 0)
        for name in ("standard", "battle_standard", "musician"):
            _flag(getattr(self, name), name, where)
        if self.attacking not in ATTACK_FACES:
            raise ValueError(
                f"{where}: attacking is one of {', '.join(ATTACK_FACES)}, not {self.attacking!r}"
            )

    @property
    def rank_bonus(self) -> int:
        return min(MAX_RANK_BONUS, max(0, self.ranks - 1))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "ranks": self.ranks,
            "standard": self.standard,
            "battle_standard": self.battle_standard,
            "musician": self.musician,
            "attacking": self.attacking,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CombatUnit:
        return cls(**dict(data))


@dataclass(frozen=True)
class CombatSide:
    """One side of a close combat this round.

    ``wounds_caused``: unsaved wounds this side caused this round, counting
    those on enemy units that fell out of the combat or died. ``overkill``:
    excess wounds in a challenge. ``charge``: none, charge, or downhill (the
    charge bonus belongs to the first round only; later rounds pass none).
    """

    name: str
    units: tuple[CombatUnit, ...] = ()
    wounds_caused: int = 0
    overkill: int = 0
    charge: str = "none"

    def __post_init__(self) -> None:
        where = f"combat side {self.name!r}"
        _whole(self.wounds_caused, "wounds_caused", where, 0)
        _whole(self.overkill, "overkill", where, 0)
        if self.charge not in CHARGES:
            raise ValueError(f"{where}: charge is one of {', '.join(CHARGES)}, not {self.charge!r}")
        object.__setattr__(self, "units", tuple(self.units))
        for unit in self.units:
            if not isinstance(unit, CombatUnit):
                raise ValueError(f"{where}: units must be CombatUnit entries, not {unit!r}")

    @property
    def musician(self) -> bool:
        return any(u.musician for u in self.units)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "units": [u.to_dict() for u in self.units],
            "wounds_caused": self.wounds_caused,
            "overkill": self.overkill,
            "charge": self.charge,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CombatSide:
        fields = dict(data)
        fields["units"] = tuple(CombatUnit.from_dict(u) for u in fields.get("units", ()))
        return cls(**fields)


@dataclass(frozen=True)
class SideScore:
    """A side's combat result, item by item."""

    name: str
    items: tuple[tuple[str, int], ...]
    musician: bool

    @property
    def total(self) -> int:
        return sum(v for _, v in self.items)

    def describe(self) -> str:
        parts = [f"{label} {value:+d}" for label, value in self.items]
        return f"{self.name}: {', '.join(parts) if parts else 'nothing'} = {self.total}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "items": [[label, value] for label, value in self.items],
            "musician": self.musician,
            "total": self.total,
        }


@dataclass(frozen=True)
class CombatResult:
    """WHC-1: who won the round, by how much, and why."""

    scores: tuple[SideScore, SideScore]
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    margin: int
    reason: str

    @property
    def tie(self) -> bool:
        return self.scores[0].total == self.scores[1].total

    def won(self, side: str) -> bool:
        return side in self.winners

    def text(self) -> str:
        return "\n".join([*(s.describe() for s in self.scores), self.reason])

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": [s.to_dict() for s in self.scores],
            "winners": list(self.winners),
            "losers": list(self.losers),
            "margin": self.margin,
            "reason": self.reason,
        }


def side_score(side: CombatSide) -> SideScore:
    """WHC-1: one side's combat result with every bonus and its cap."""
    items: list[tuple[str, int]] = [("wounds caused", side.wounds_caused)]
    if side.overkill:
        capped = min(MAX_OVERKILL, side.overkill)
        label = "overkill in a challenge"
        if side.overkill > MAX_OVERKILL:
            label += f" ({side.overkill} excess wounds, at most +{MAX_OVERKILL})"
        items.append((label, capped))
    if side.charge != "none":
        items.append(
            (
                "charge down from a hill" if side.charge == "downhill" else "charge",
                CHARGES[side.charge],
            )
        )
    if side.units:
        best = max(side.units, key=lambda u: u.rank_bonus)
        if best.rank_bonus:
            label = f"ranks ({best.name}, {best.ranks} ranks"
            label += f", at most +{MAX_RANK_BONUS})" if best.ranks - 1 > MAX_RANK_BONUS else ")"
            items.append((label, best.rank_bonus))
    # The battle standard gives its own +1 and is not also a unit standard.
    if any(u.standard for u in side.units):
        items.append(("standard", 1))
    if any(u.battle_standard for u in side.units):
        items.append(("army battle standard", 1))
    flankers = [u for u in side.units if u.attacking == "flank"]
    if flankers:
        ranked = any(u.ranks >= 1 for u in flankers)
        items.append(("flank attack with a full rank" if ranked else "flank attack", 1 + ranked))
    rear = [u for u in side.units if u.attacking == "rear"]
    if rear:
        ranked = any(u.ranks >= 1 for u in rear)
        items.append(("rear attack with a full rank" if ranked else "rear attack", 2 + ranked))
    return SideScore(side.name, tuple(items), side.musician)


def combat_result(first: CombatSide, second: CombatSide) -> CombatResult:
    """WHC-1: the higher total wins; a tie means both sides won, unless only
    one side has a musician (Decision: that side wins the tie, by 1)."""
    if first.name == second.name:
        raise ValueError(
            f"combat_result: the two sides need different names, both are {first.name!r}"
        )
    a, b = side_score(first), side_score(second)
    if a.total != b.total:
        win, lose = (a, b) if a.total > b.total else (b, a)
        reason = f"{win.name} wins {win.total} to {lose.total}, by {win.total - lose.total}"
        return CombatResult((a, b), (win.name,), (lose.name,), win.total - lose.total, reason)
    if a.musician != b.musician:
        win, lose = (a, b) if a.musician else (b, a)
        reason = (
            f"tie {a.total} to {b.total}; only {win.name} has a musician, so {win.name} wins by 1"
        )
        return CombatResult((a, b), (win.name,), (lose.name,), 1, reason)
    why = "both have a musician" if a.musician else "neither has a musician"
    reason = f"tie {a.total} to {b.total}, {why}: both sides won"
    return CombatResult((a, b), (a.name, b.name), (), 0, reason)


# --- falling out of contact (WHC-2) ------------------------------------------------------

# Sides of a unit in one hex, by hexside relative to its facing (directions
# 1..6 run clockwise): the front, two hexsides per flank, the rear.
UNIT_SIDES = {
    0: "front",
    1: "right flank",
    2: "right flank",
    3: "rear",
    4: "left flank",
    5: "left flank",
}
SIDE_NAMES = ("front", "right flank", "left flank", "rear", "flank")


def _direction_to(position: Hex, other: Hex) -> int | None:
    for direction in DIRECTIONS:
        if neighbor(position, direction) == other:
            return direction
    return None


def _check_facing(facing: int, where: str) -> int:
    facing = _whole(facing, "facing", where)
    if facing not in DIRECTIONS:
        raise ValueError(f"{where}: facing is a direction 1..6 (1 north, clockwise), not {facing}")
    return facing


def contact_side(position: Hex, facing: int, other: Hex) -> str:
    """Which side of a unit in ``position`` facing ``facing`` touches the adjacent
    hex ``other``: front, right flank, left flank or rear."""
    facing = _check_facing(facing, "contact_side")
    direction = _direction_to(position, other)
    if direction is None:
        raise ValueError(f"contact_side: {other} is not adjacent to {position}")
    return UNIT_SIDES[(direction - facing) % 6]


def attacked_face(attacker: Hex, defender: Hex, defender_facing: int) -> str:
    """WHC-1 helper: the face of the defender an adjacent attacker fights
    (front, flank or rear), for ``CombatUnit.attacking``."""
    side = contact_side(defender, defender_facing, attacker)
    return "flank" if side.endswith("flank") else side


def _touches(position: Hex, facing: int, side: str, enemies: frozenset[Hex]) -> bool:
    for direction in DIRECTIONS:
        if neighbor(position, direction) in enemies:
            own = UNIT_SIDES[(direction - facing) % 6]
            if own == side or (side == "flank" and own.endswith("flank")):
                return True
    return False


def contact_hexes(
    position: Hex,
    facing: int,
    side: str,
    enemies: Iterable[Hex],
    is_free: Callable[[Hex], bool],
    *,
    max_steps: int | None = None,
) -> list[Hex]:
    """WHC-2: the nearest hexes where a unit that fell out of contact touches an
    enemy of its combat again with the same side, keeping its facing.

    The unit moves hex by hex through free hexes only (not through other units
    or impassable ground) and ends in a free hex; nearest means fewest steps.
    ``max_steps`` defaults to the distance of the farthest enemy plus one.
    Several hexes at the same distance are all returned (the active player
    chooses), sorted by (q, r); an empty list: the unit falls out of the combat.
    """
    where = "contact_hexes"
    facing = _check_facing(facing, where)
    if side not in SIDE_NAMES:
        raise ValueError(f"{where}: side is one of {', '.join(SIDE_NAMES)}, not {side!r}")
    foes = frozenset(Hex(*e) for e in enemies)
    if not foes:
        raise ValueError(f"{where}: a unit needs at least one enemy of its combat to touch")
    if not callable(is_free):
        raise ValueError(f"{where}: is_free must be a function Hex -> bool, not {is_free!r}")
    position = Hex(*position)
    limit = max(distance(position, e) for e in foes) + 1 if max_steps is None else max_steps
    limit = _whole(limit, "max_steps", where, 0)
    if _touches(position, facing, side, foes):
        return [position]
    seen = {position}
    frontier = [position]
    for _ in range(limit):
        layer: list[Hex] = []
        for here in frontier:
            for nxt in neighbors(here):
                if nxt in seen or nxt in foes:
                    continue
                seen.add(nxt)
                if is_free(nxt):
                    layer.append(nxt)
        found = sorted(h for h in layer if _touches(h, facing, side, foes))
        if found:
            return found
        if not layer:
            break
        frontier = layer
    return []


def restore_contact(
    position: Hex,
    facing: int,
    side: str,
    enemies: Iterable[Hex],
    is_free: Callable[[Hex], bool],
    *,
    max_steps: int | None = None,
) -> Hex | None:
    """WHC-2: where the unit moves back to (its own hex if still in contact),
    or None when no free hex restores contact: it falls out of the combat."""
    found = contact_hexes(position, facing, side, enemies, is_free, max_steps=max_steps)
    return found[0] if found else None
