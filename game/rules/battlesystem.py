"""AD&D BATTLESYSTEM combat on the hex board (RULES.md section 3, BS-1..BS-20).

Both kinds of attack run the same procedure: one attack die (AD) per eligible
figure, hits read from the battle results table (BS-2), one d10 armour check
per hit (BS-3), and figures removed per full ``hits_per_figure`` hits with the
rest carried on the unit (BS-4). Melee (BS-9..BS-12) and missile fire
(BS-13..BS-19) decide who attacks, with how many dice and against what armour
rating; the hex board supplies the geometry (one hex = one inch, BS-20).

Three layers sit side by side (design principle 7):

* the resolver proper, rolling through a dice object passed in
  (``attack``, ``armor_check``, ``resolve_melee``, ``resolve_missile_fire``);
* exact odds with ``fractions.Fraction`` (``hits_distribution``,
  ``surviving_hits_distribution``, ``figures_removed_distribution``);
* a vectorized resolver for Monte Carlo work (``resolve_attacks_batch``) that
  rolls every die of many attacks in a handful of numpy calls.

Units are plain frozen data (``BattleUnit``) with ``to_dict``/``from_dict``;
every state change returns a new unit. docs/battlesystem.md describes the
representation and the decisions taken where the source is silent.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

import numpy as np

from game.board.terrain import HEAVY_WOODS, LIGHT_WOODS
from game.dice import DiceBase, batch_roll
from game.hexmath import DIRECTIONS, Hex, distance, neighbors, opposite, step
from game.rules.core import (
    Distribution,
    Modifier,
    TargetNumber,
    convolve,
    power,
)

# --- BS-1, BS-2: attack dice and the battle results table ------------------------------------

DIE_TYPES: tuple[int, ...] = (4, 6, 8, 10, 12)

# BS-2: hits per AD roll, indexed by the roll (index 0 is never rolled).
_HITS_BY_ROLL: tuple[int, ...] = (0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 4)
HITS_TABLE: np.ndarray = np.array(_HITS_BY_ROLL, dtype=np.int8)
HITS_TABLE.setflags(write=False)


def hits_for_roll(roll: int) -> int:
    """BS-2: hits scored by one attack die showing ``roll`` (1-3: 0, 4-5: 1,
    6-9: 2, 10-11: 3, 12: 4)."""
    if isinstance(roll, bool) or not isinstance(roll, int | np.integer):
        raise ValueError(f"an attack die roll is a whole number 1..12, not {roll!r}")
    if not 1 <= roll <= 12:
        raise ValueError(f"an attack die roll is 1..12 (the table stops at 12), not {roll}")
    return _HITS_BY_ROLL[roll]


def _check_sides(sides: int, where: str = "attack die") -> int:
    if isinstance(sides, bool) or not isinstance(sides, int | np.integer) or sides not in DIE_TYPES:
        raise ValueError(
            f"{where}: BATTLESYSTEM attack dice are d4, d6, d8, d10 or d12, not {sides!r}"
        )
    return int(sides)


# --- BS-6: attack dice notation --------------------------------------------------------------


@dataclass(frozen=True)
class AttackDice:
    """A unit's attack dice as written on its roster (BS-6).

    ``melee`` and ``missile`` are the dice rolled per attacking figure (more
    than one die for the ``12+8`` notation); ``first_round`` is the bracketed
    set of ``[12]8``, used in the first melee round against a unit.
    """

    text: str
    melee: tuple[int, ...]
    missile: tuple[int, ...]
    first_round: tuple[int, ...] | None = None

    def dice_for(self, *, missile: bool = False, melee_round: int = 1) -> tuple[int, ...]:
        """The dice one figure rolls: for missile fire, or in the given
        consecutive melee round against the same enemy unit (1 = first round of
        a new contact)."""
        if missile:
            return self.missile
        if isinstance(melee_round, bool) or not isinstance(melee_round, int) or melee_round < 1:
            raise ValueError(
                f"melee_round counts consecutive rounds from 1, not {melee_round!r} "
                f"(attack dice {self.text!r})"
            )
        if self.first_round is not None and melee_round == 1:
            return self.first_round
        return self.melee

    def describe(self) -> str:
        """The notation in words (BS-6), e.g. ``6*4``: "d6 shooting, d4 in melee"."""

        def dice(sides: tuple[int, ...]) -> str:
            if len(sides) == 1:
                return f"d{sides[0]}"
            return " and ".join(f"a d{s}" for s in sides) + " (hits added)"

        if self.first_round is None and self.missile == self.melee:
            return f"{dice(self.melee)} per attacking figure"
        melee = f"{dice(self.melee)} in melee"
        if self.first_round is not None:
            melee = (
                f"{dice(self.first_round)} in the first melee round against a unit, "
                f"then {dice(self.melee)}"
            )
        return f"{dice(self.missile)} shooting, {melee}"

    def __str__(self) -> str:
        return self.text


def _parse_die_set(text: str, whole: str) -> tuple[int, ...]:
    if not text:
        raise ValueError(f"attack dice {whole!r}: a die is missing (expected e.g. 12 or d12)")
    dice = []
    for part in text.split("+"):
        token = part.strip()
        if not token:
            raise ValueError(f"attack dice {whole!r}: a die is missing around '+'")
        if token[:1] in ("d", "D"):
            token = token[1:]
        if not token.isdigit():
            raise ValueError(
                f"attack dice {whole!r}: {part.strip()!r} is not a die (expected 4, 6, 8, 10 "
                f"or 12, optionally written d12)"
            )
        sides = int(token)
        if sides not in DIE_TYPES:
            raise ValueError(
                f"attack dice {whole!r}: d{sides} is not an attack die (d4, d6, d8, d10, d12)"
            )
        dice.append(sides)
    return tuple(dice)


def parse_attack_dice(text: str) -> AttackDice:
    """Read the BS-6 notations: ``12`` or ``d12`` (one die), ``6*4`` (d6 when
    shooting, d4 in melee), ``[12]8`` (d12 in the first melee round against a
    unit, then d8), ``12+8`` (both dice per attack, hits added). A starred
    missile part may precede any melee part, e.g. ``6*[12]8``."""
    if not isinstance(text, str):
        raise ValueError(f"attack dice are written as text such as '12' or '6*4', not {text!r}")
    whole = text.strip()
    if not whole:
        raise ValueError("attack dice: empty text (expected e.g. '12', '6*4', '[12]8', '12+8')")
    body = whole.replace(" ", "")
    missile_part: str | None = None
    if "*" in body:
        if body.count("*") > 1:
            raise ValueError(f"attack dice {whole!r}: only one '*' (missile die) is allowed")
        missile_part, body = body.split("*")
        if "[" in missile_part or "]" in missile_part:
            raise ValueError(
                f"attack dice {whole!r}: the bracketed first-round die belongs after the '*'"
            )
    first_round: tuple[int, ...] | None = None
    if body.startswith("["):
        close = body.find("]")
        if close < 0:
            raise ValueError(f"attack dice {whole!r}: '[' without a closing ']'")
        first_round = _parse_die_set(body[1:close], whole)
        body = body[close + 1 :]
        if not body:
            raise ValueError(
                f"attack dice {whole!r}: '[..]' must be followed by the die used from the "
                f"second melee round on, e.g. '[12]8'"
            )
    if "[" in body or "]" in body:
        raise ValueError(f"attack dice {whole!r}: brackets only around the first-round die")
    melee = _parse_die_set(body, whole)
    missile = _parse_die_set(missile_part, whole) if missile_part is not None else melee
    return AttackDice(whole, melee, missile, first_round)


def _die_spec(die_spec: int | str | Sequence[int] | AttackDice) -> tuple[int, ...]:
    """The dice per attack from an int, a plain notation, or a sequence of sides."""
    if isinstance(die_spec, AttackDice):
        die_spec = die_spec.text
    if isinstance(die_spec, str):
        parsed = parse_attack_dice(die_spec)
        if parsed.first_round is not None or parsed.missile != parsed.melee:
            raise ValueError(
                f"attack dice {die_spec!r} depend on the situation; pick them with "
                f"parse_attack_dice(...).dice_for(missile=..., melee_round=...)"
            )
        return parsed.melee
    if isinstance(die_spec, int | np.integer) and not isinstance(die_spec, bool):
        return (_check_sides(int(die_spec)),)
    if isinstance(die_spec, Sequence) and die_spec:
        return tuple(_check_sides(s) for s in die_spec)
    raise ValueError(f"attack dice must be a die such as 12, '12+8' or (12, 8), not {die_spec!r}")


# --- BS-7, BS-12, BS-18: attack dice multipliers ---------------------------------------------

MultiplierLike = Fraction | int | float | str

X2 = Fraction(2)
X1_5 = Fraction(3, 2)
HALF = Fraction(1, 2)
THIRD = Fraction(1, 3)

# The source writes one third as 0.33 ("one AD per three figures", BS-18).
_WRITTEN_MULTIPLIERS: dict[str, Fraction] = {
    "2": X2,
    "1.5": X1_5,
    "1": Fraction(1),
    "0.5": HALF,
    "0.33": THIRD,
    "0.333": THIRD,
    "1/3": THIRD,
    "1/2": HALF,
    "3/2": X1_5,
}


def as_multiplier(value: MultiplierLike) -> Fraction:
    """An AD multiplier as an exact fraction; 0.33 (as the source writes it)
    is one third, so x0.33 means exactly one AD per three figures."""
    if isinstance(value, bool):
        raise ValueError(f"an AD multiplier is a number such as 1.5 or 1/3, not {value!r}")
    if isinstance(value, Fraction | int):
        result = Fraction(value)
    elif isinstance(value, float):
        result = THIRD if abs(value - 1 / 3) < 0.005 else Fraction(str(value))
    elif isinstance(value, str):
        # "x", "×" or the Cyrillic "х" the Russian text writes (BS-7: "х1,5").
        text = value.strip().lower().lstrip("x×х").replace(",", ".").strip()
        if text in _WRITTEN_MULTIPLIERS:
            result = _WRITTEN_MULTIPLIERS[text]
        else:
            try:
                result = Fraction(text)
            except ValueError:
                raise ValueError(
                    f"AD multiplier {value!r} is not a number (expected e.g. 'x1.5', '0.33')"
                ) from None
    else:
        raise ValueError(f"an AD multiplier is a number such as 1.5 or 1/3, not {value!r}")
    if result <= 0:
        raise ValueError(f"an AD multiplier must be positive, not {value!r}")
    return result


def attack_dice_count(figures: int, multiplier: MultiplierLike = 1, *more: MultiplierLike) -> int:
    """BS-7: the number of AD for ``figures`` attackers under a multiplier,
    fractions always rounded up (7 x 1.5 = 11, 5 x 1.5 = 8, 7 x 0.33 = 3).

    Further multipliers apply in turn to the rounded count, as a player
    counts at the table; for the 1/k multipliers of missile fire this is the
    same as multiplying them first."""
    if isinstance(figures, bool) or not isinstance(figures, int | np.integer) or figures < 0:
        raise ValueError(f"the number of attacking figures is a whole number >= 0, not {figures!r}")
    count = int(figures)
    for m in (multiplier, *more):
        count = math.ceil(count * as_multiplier(m))
    return count


# --- BS-8, BS-11, BS-19: armour rating -------------------------------------------------------

AR_BEST = 2
AR_WORST = 10


def _as_modifier(m: Modifier | int | tuple[str, int]) -> Modifier:
    if isinstance(m, Modifier):
        return m
    if isinstance(m, tuple) and len(m) == 2:
        return Modifier(str(m[0]), int(m[1]))
    if isinstance(m, int) and not isinstance(m, bool):
        return Modifier("modifier", m)
    raise ValueError(f"an AR modifier is an int or a Modifier(name, value), not {m!r}")


def armor_target(
    base: int,
    modifiers: Iterable[Modifier | int | tuple[str, int]] = (),
    missile: bool = False,
) -> TargetNumber:
    """The modified armour rating with its breakdown, e.g. ``"AR 6, flank +2 = 8"``.

    BS-8: modifiers are cumulative and the result stays within 2..10. BS-19:
    against missile fire the penalties (+) add up but of the bonuses (-) only
    the best one counts."""
    if isinstance(base, bool) or not isinstance(base, int) or not AR_BEST <= base <= AR_WORST:
        raise ValueError(f"a unit's armour rating is 2..10 (10 = no armour), not {base!r}")
    mods = [_as_modifier(m) for m in modifiers]
    if missile:
        penalties = [m for m in mods if m.value > 0]
        bonuses = [m for m in mods if m.value < 0]
        mods = penalties + ([min(bonuses, key=lambda m: m.value)] if bonuses else [])
    target = TargetNumber("AR", base)
    for m in mods:
        target = target.plus(m.name, m.value)
    raw = target.total
    clamped = min(AR_WORST, max(AR_BEST, raw))
    if clamped != raw:
        target = target.plus("limit 2..10", clamped - raw)
    return target


def modified_armor_rating(
    base: int,
    modifiers: Iterable[Modifier | int | tuple[str, int]] = (),
    missile: bool = False,
) -> int:
    """BS-8/BS-19: the armour rating after modifiers (see ``armor_target``)."""
    return armor_target(base, modifiers, missile).total


def melee_armor_modifiers(
    *,
    higher_ground: bool = False,
    preferred_terrain: bool = False,
    behind_cover: bool = False,
    lower_ground: bool = False,
    flank: bool = False,
    rear: bool = False,
) -> tuple[Modifier, ...]:
    """BS-11: the modifiers to a melee target's AR. Cover (wall, parapet,
    doorway, window) protects both sides, so pass it for both units."""
    if higher_ground and lower_ground:
        raise ValueError("a melee target cannot be both higher and lower than its attacker")
    mods = []
    if higher_ground:
        mods.append(Modifier("higher ground", -2))
    if preferred_terrain:
        mods.append(Modifier("preferred terrain", -2))
    if behind_cover:
        mods.append(Modifier("behind cover", -2))
    if lower_ground:
        mods.append(Modifier("lower ground", +2))
    if flank:
        mods.append(Modifier("attacked in flank", +2))
    if rear:
        mods.append(Modifier("attacked in rear", +4))
    return tuple(mods)


COVER_MODIFIERS: dict[str, int] = {"wall": -2, "arrow slits": -4}


def missile_armor_modifiers(
    *,
    target_lower: bool = False,
    target_large: bool = False,
    screened: bool = False,
    cover: str | None = None,
) -> tuple[Modifier, ...]:
    """BS-19: the modifiers to a missile target's AR. ``cover`` is ``"wall"``
    (wall, parapet, doorway, window: -2) or ``"arrow slits"`` (-4); screened
    (darkness, fog, smoke, hedge, low obstacle, thin woods) is -3."""
    mods = []
    if target_lower:
        mods.append(Modifier("target lower", +1))
    if target_large:
        mods.append(Modifier("target larger than man-size", +1))
    if screened:
        mods.append(Modifier("screened", -3))
    if cover is not None:
        if cover not in COVER_MODIFIERS:
            raise ValueError(
                f"missile cover is one of {sorted(COVER_MODIFIERS)} or None, not {cover!r}"
            )
        mods.append(Modifier(f"behind {cover}", COVER_MODIFIERS[cover]))
    return tuple(mods)


# --- BS-20: scale ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Scale:
    """BS-20: how the source's inches map onto the board. Default: one hex is
    one inch, and one board level is one inch of height."""

    inches_per_hex: Fraction = Fraction(1)
    inches_per_level: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        for name in ("inches_per_hex", "inches_per_level"):
            value = Fraction(getattr(self, name))
            if value <= 0:
                raise ValueError(f"scale: {name} must be positive, not {value}")
            object.__setattr__(self, name, value)

    def inches(self, hexes: int | Fraction) -> Fraction:
        return Fraction(hexes) * self.inches_per_hex

    def height_inches(self, levels: int | Fraction) -> Fraction:
        return Fraction(levels) * self.inches_per_level


# --- units on the hex board ------------------------------------------------------------------

FIGURE = "O"
FIRED = "F"  # BS-9: a figure that fired this turn does not melee
EMPTY = "."

FORMATIONS = ("regular", "irregular")
SIZES = ("small", "man", "large")
TROOPS = ("infantry", "cavalry")
STATUSES = ("good", "shaken", "retreating", "routed")
# BS-9, BS-12: weapons long enough for the second rank (pikes also the third).
REACH_WEAPONS = frozenset({"spear", "pike", "polearm", "halberd"})
# BS-10 condition 2.
LONG_WEAPONS = frozenset({"pike", "halberd", "polearm", "spear", "lance"})

ORIGIN = Hex(0, 0)
Cell = tuple[int, int]  # (rank, file): rank 0 is the front, file 0 the left end


def _has_figure(ranks: tuple[str, ...], cell: Cell) -> bool:
    """A figure stands at place ``cell`` (rank, file) of a unit of these ranks."""
    r, f = cell
    return 0 <= r < len(ranks) and 0 <= f < len(ranks[0]) and ranks[r][f] != EMPTY


def _cell_hex(anchor: Hex, facing: int, cell: Cell) -> Hex:
    """The hex of place ``cell`` (rank, file) of a unit whose front rank's left place
    is ``anchor``, facing ``facing`` (``BattleUnit.cell_hex``)."""
    rank, file = cell
    right_a = facing % 6 + 1
    right_b = (facing + 1) % 6 + 1
    h = step(anchor, right_a, (file + 1) // 2)
    h = step(h, right_b, file // 2)
    return step(h, opposite(facing), rank)


@lru_cache(maxsize=8192)
def _figure_hexes(ranks: tuple[str, ...], anchor: Hex, facing: int) -> tuple[tuple[Cell, Hex], ...]:
    """Every figure's place and hex, front rank first, left to right: read again for
    every melee round, volley and move weighed where the regiment stands."""
    return tuple(
        ((r, f), _cell_hex(anchor, facing, (r, f)))
        for r, rank in enumerate(ranks)
        for f, ch in enumerate(rank)
        if ch != EMPTY
    )


@dataclass(frozen=True)
class BattleUnit:
    """A BATTLESYSTEM unit on the hex board, one figure per hex.

    ``ranks`` draws the unit from the front rank back, one character per file:
    ``O`` a figure, ``F`` a figure that fired this turn, ``.`` an empty place.
    The front rank's left figure stands on ``anchor``; the unit faces
    ``facing`` (1..6, 1 north, clockwise) and its ranks run to its right in a
    zig-zag of steps facing+1, facing+2 (see docs/battlesystem.md).
    """

    unit_id: str
    side: str
    attack_dice: str
    armor_rating: int
    hits_per_figure: int
    ranks: tuple[str, ...]
    anchor: Hex = ORIGIN
    facing: int = 1
    formation: str = "regular"
    weapon: str = "other"
    size: str = "man"
    troops: str = "infantry"
    status: str = "good"
    missile_ranges: tuple[int, int, int] | None = None
    carried_hits: int = 0
    magical_volleys: int = 0
    melee_opponent: str = ""
    melee_round: int = 0
    name: str = ""

    def __post_init__(self) -> None:
        who = f"unit {self.unit_id!r}"
        if not isinstance(self.unit_id, str) or not self.unit_id:
            raise ValueError(f"a unit needs a non-empty text unit_id, not {self.unit_id!r}")
        try:
            parse_attack_dice(self.attack_dice)
        except ValueError as exc:
            raise ValueError(f"{who}: {exc}") from None
        if (
            isinstance(self.armor_rating, bool)
            or not isinstance(self.armor_rating, int)
            or not AR_BEST <= self.armor_rating <= AR_WORST
        ):
            raise ValueError(f"{who}: armor_rating must be 2..10, not {self.armor_rating!r}")
        if not isinstance(self.hits_per_figure, int) or self.hits_per_figure < 1:
            raise ValueError(
                f"{who}: hits_per_figure must be 1 or more, not {self.hits_per_figure!r}"
            )
        # One string would pass as ranks one figure wide ("OOOO" -> four ranks of "O").
        if isinstance(self.ranks, str) or not isinstance(self.ranks, tuple | list):
            raise ValueError(
                f"{who}: ranks are a list of strings, front rank first, such as "
                f"['OOOOOO', 'OOOOOO'], not {self.ranks!r}"
            )
        ranks = tuple(self.ranks)
        object.__setattr__(self, "ranks", ranks)
        if not ranks or not all(isinstance(r, str) and r for r in ranks):
            raise ValueError(f"{who}: ranks must be non-empty strings such as 'OOOOOO'")
        if len({len(r) for r in ranks}) != 1:
            raise ValueError(f"{who}: every rank must be as wide as the front rank: {ranks!r}")
        bad = {ch for r in ranks for ch in r} - {FIGURE, FIRED, EMPTY}
        if bad:
            raise ValueError(
                f"{who}: ranks use 'O' (figure), 'F' (fired this turn) and '.' (empty), "
                f"not {''.join(sorted(bad))!r}"
            )
        object.__setattr__(self, "anchor", Hex(*self.anchor))
        if self.facing not in DIRECTIONS:
            raise ValueError(
                f"{who}: facing must be 1..6 (1 north, clockwise), not {self.facing!r}"
            )
        for attr, allowed in (
            ("formation", FORMATIONS),
            ("size", SIZES),
            ("troops", TROOPS),
            ("status", STATUSES),
        ):
            if getattr(self, attr) not in allowed:
                raise ValueError(
                    f"{who}: {attr} must be one of {allowed}, not {getattr(self, attr)!r}"
                )
        if not isinstance(self.weapon, str) or not self.weapon:
            raise ValueError(f"{who}: weapon must be a name such as 'spear', not {self.weapon!r}")
        if self.missile_ranges is not None:
            rng = tuple(self.missile_ranges)
            if len(rng) != 3 or not all(isinstance(v, int) and v > 0 for v in rng):
                raise ValueError(
                    f"{who}: missile_ranges are three positive inches (short, medium, long), "
                    f"not {self.missile_ranges!r}"
                )
            if not rng[0] <= rng[1] <= rng[2]:
                raise ValueError(f"{who}: missile_ranges must grow short <= medium <= long: {rng}")
            object.__setattr__(self, "missile_ranges", rng)
        for attr in ("carried_hits", "magical_volleys", "melee_round"):
            value = getattr(self, attr)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{who}: {attr} must be a whole number >= 0, not {value!r}")
        if self.carried_hits >= self.hits_per_figure:
            raise ValueError(
                f"{who}: carried_hits ({self.carried_hits}) must be below hits_per_figure "
                f"({self.hits_per_figure}); full hits remove figures (BS-4)"
            )

    # --- figures

    @property
    def width(self) -> int:
        return len(self.ranks[0])

    @property
    def figures(self) -> int:
        return sum(len(r) - r.count(EMPTY) for r in self.ranks)

    @property
    def dice(self) -> AttackDice:
        return parse_attack_dice(self.attack_dice)

    def figure_cells(self) -> tuple[Cell, ...]:
        """Every figure's (rank, file), front rank first, left to right."""
        return tuple(
            (r, f) for r, rank in enumerate(self.ranks) for f, ch in enumerate(rank) if ch != EMPTY
        )

    def has_figure(self, cell: Cell) -> bool:
        return _has_figure(self.ranks, cell)

    def cell_hex(self, cell: Cell) -> Hex:
        """The hex of a place in the unit (figure or not)."""
        return _cell_hex(self.anchor, self.facing, cell)

    def figure_hexes(self) -> dict[Cell, Hex]:
        return dict(_figure_hexes(self.ranks, self.anchor, self.facing))

    def with_cells(self, cells: Iterable[Cell], mark: str) -> BattleUnit:
        """This unit with the given places set to ``mark`` ('O', 'F' or '.')."""
        rows = [list(r) for r in self.ranks]
        for r, f in cells:
            rows[r][f] = mark
        return replace(self, ranks=tuple("".join(r) for r in rows))

    def start_turn(self) -> BattleUnit:
        """A new turn: figures that fired last turn may melee again (BS-9)."""
        return replace(self, ranks=tuple(r.replace(FIRED, FIGURE) for r in self.ranks))

    # --- serialization

    def to_dict(self) -> dict[str, Any]:
        return {
            "unit_id": self.unit_id,
            "name": self.name,
            "side": self.side,
            "attack_dice": self.attack_dice,
            "armor_rating": self.armor_rating,
            "hits_per_figure": self.hits_per_figure,
            "ranks": list(self.ranks),
            "anchor": [self.anchor.q, self.anchor.r],
            "facing": self.facing,
            "formation": self.formation,
            "weapon": self.weapon,
            "size": self.size,
            "troops": self.troops,
            "status": self.status,
            "missile_ranges": list(self.missile_ranges) if self.missile_ranges else None,
            "carried_hits": self.carried_hits,
            "magical_volleys": self.magical_volleys,
            "melee_opponent": self.melee_opponent,
            "melee_round": self.melee_round,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BattleUnit:
        required = ("unit_id", "side", "attack_dice", "armor_rating", "hits_per_figure", "ranks")
        missing = [k for k in required if k not in data]
        if missing:
            raise ValueError(
                f"BATTLESYSTEM unit {data.get('unit_id', '?')!r}: missing {', '.join(missing)}"
            )
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"BATTLESYSTEM unit {data['unit_id']!r}: unknown field(s) {', '.join(unknown)}"
            )
        kwargs = dict(data)
        if isinstance(data["ranks"], list):
            kwargs["ranks"] = tuple(data["ranks"])
        if "anchor" in data:
            kwargs["anchor"] = Hex(*data["anchor"])
        if data.get("missile_ranges") is not None:
            kwargs["missile_ranges"] = tuple(data["missile_ranges"])
        return cls(**kwargs)


# --- BS-1..BS-4: rolling an attack -----------------------------------------------------------


@dataclass(frozen=True)
class AttackRoll:
    """One attack: ``rolls[k]`` are the results of the ``d{sides[k]}``, one
    per attacking figure (``12+8`` rolls a d12 and a d8 per figure)."""

    sides: tuple[int, ...]
    rolls: tuple[tuple[int, ...], ...]

    @property
    def count(self) -> int:
        return len(self.rolls[0]) if self.rolls else 0

    @property
    def hits_per_attack(self) -> tuple[int, ...]:
        # BS-6: with several dice per attack, hits are read per die and added.
        return tuple(sum(_HITS_BY_ROLL[die[i]] for die in self.rolls) for i in range(self.count))

    @property
    def hits(self) -> int:
        return sum(_HITS_BY_ROLL[v] for die in self.rolls for v in die)

    def __str__(self) -> str:
        label = "+".join(f"d{s}" for s in self.sides)
        shown = "; ".join(" ".join(str(v) for v in die) for die in self.rolls)
        return f"{self.count} AD {label}: {shown} -> {self.hits} hits"


def attack(
    dice: DiceBase,
    count: int,
    die_spec: int | str | Sequence[int] | AttackDice,
    *,
    purpose: str = "attack",
) -> AttackRoll:
    """BS-1/BS-2: roll exactly ``count`` attacks; each scores hits per die by
    the battle results table. With ``12+8`` all the d12 are rolled first,
    then all the d8 (one roll record per die type)."""
    sides = _die_spec(die_spec)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"the number of attack dice is a whole number >= 0, not {count!r}")
    rolls = tuple(dice.roll(count, s, f"{purpose} d{s}").dice for s in sides)
    return AttackRoll(sides, rolls)


@dataclass(frozen=True)
class ArmorCheck:
    """BS-3: one d10 per hit; each roll >= the armour rating cancels a hit."""

    armor_rating: int
    rolls: tuple[int, ...]

    @property
    def hits(self) -> int:
        return len(self.rolls)

    @property
    def saved(self) -> int:
        return sum(1 for v in self.rolls if v >= self.armor_rating)

    @property
    def standing(self) -> int:
        return self.hits - self.saved

    def __str__(self) -> str:
        shown = " ".join(str(v) for v in self.rolls)
        return (
            f"armour checks vs AR {self.armor_rating}: {shown or '-'} -> "
            f"{self.saved} saved, {self.standing} stand"
        )


def armor_check(
    dice: DiceBase, hits: int, armor_rating: int, *, purpose: str = "armour check"
) -> ArmorCheck:
    """BS-3: the defender rolls one d10 per hit against its (modified) AR."""
    if isinstance(hits, bool) or not isinstance(hits, int) or hits < 0:
        raise ValueError(f"hits to check are a whole number >= 0, not {hits!r}")
    if not isinstance(armor_rating, int) or not AR_BEST <= armor_rating <= AR_WORST:
        raise ValueError(f"an armour rating is 2..10, not {armor_rating!r}")
    record = dice.roll(hits, 10, f"{purpose} AR {armor_rating}")
    return ArmorCheck(armor_rating, record.dice)


def figures_removed_by_hits(
    hits: int, hits_per_figure: int, carried: int = 0, figures: int | None = None
) -> tuple[int, int]:
    """BS-4: ``(figures removed, hits carried)`` after ``hits`` land on a unit
    already carrying ``carried`` hits. Each full ``hits_per_figure`` removes a
    figure; the rest stays on the counter. When the hits remove all
    ``figures`` (the unit, or the figures in sight, BS-15) the excess is lost
    and the counter clears."""
    for name, value in (("hits", hits), ("carried", carried)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a whole number >= 0, not {value!r}")
    if not isinstance(hits_per_figure, int) or hits_per_figure < 1:
        raise ValueError(f"hits_per_figure must be 1 or more, not {hits_per_figure!r}")
    if carried >= hits_per_figure:
        raise ValueError(
            f"carried hits ({carried}) must be below hits_per_figure ({hits_per_figure})"
        )
    removed, left = divmod(carried + hits, hits_per_figure)
    if figures is not None:
        if figures < 0:
            raise ValueError(f"figures must be >= 0, not {figures}")
        if removed >= figures:
            return figures, 0
    return removed, left


# --- BS-5: removing casualties ---------------------------------------------------------------

RemovalPreference = str | Sequence[Cell]
REMOVAL_ORDERS = ("rear", "front", "keep_contact")


def _removal_order(
    unit: BattleUnit, preference: RemovalPreference, contact: frozenset[Cell]
) -> list[Cell]:
    cells = unit.figure_cells()
    rear_first = sorted(cells, key=lambda c: (-c[0], -c[1]))
    if isinstance(preference, str):
        if preference == "rear":
            return rear_first
        if preference == "front":
            return sorted(cells, key=lambda c: (c[0], -c[1]))
        if preference == "keep_contact":
            return [c for c in rear_first if c not in contact] + [
                c for c in rear_first if c in contact
            ]
        raise ValueError(
            f"unit {unit.unit_id!r}: casualty preference is one of {REMOVAL_ORDERS} "
            f"or a list of (rank, file) places, not {preference!r}"
        )
    chosen: list[Cell] = []
    for item in preference:
        cell = (int(item[0]), int(item[1]))
        if not unit.has_figure(cell):
            raise ValueError(
                f"unit {unit.unit_id!r}: the owner chose to remove (rank {cell[0]}, file "
                f"{cell[1]}), but no figure stands there"
            )
        if cell in chosen:
            raise ValueError(
                f"unit {unit.unit_id!r}: (rank {cell[0]}, file {cell[1]}) chosen twice"
            )
        chosen.append(cell)
    return chosen


@dataclass(frozen=True)
class CasualtyRemoval:
    """BS-4/BS-5: what the hits did to a unit."""

    unit: BattleUnit
    hits: int
    removed: tuple[Cell, ...]
    hits_lost: int
    in_contact: bool

    def __str__(self) -> str:
        text = (
            f"{self.unit.unit_id}: {self.hits} hits, {len(self.removed)} figures removed, "
            f"{self.unit.carried_hits} carried"
        )
        if self.hits_lost:
            text += f", {self.hits_lost} lost (no figure left to take them)"
        return text


def remove_casualties(
    unit: BattleUnit,
    count: int,
    preference: RemovalPreference = "keep_contact",
    contact: Iterable[Cell] = (),
) -> CasualtyRemoval:
    """BS-5: remove ``count`` figures from anywhere in the unit, in the owner's
    order: ``"rear"`` (rear ranks first), ``"front"`` (front rank first),
    ``"keep_contact"`` (figures out of contact first) or an explicit list of
    (rank, file) places. ``in_contact`` tells whether any figure of
    ``contact`` survives; when none does the units are no longer in contact."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"casualties are a whole number >= 0, not {count!r}")
    contact_set = frozenset(contact)
    order = _removal_order(unit, preference, contact_set)
    count = min(count, unit.figures)
    if len(order) < count:
        raise ValueError(
            f"unit {unit.unit_id!r}: {count} figures must be removed but the owner chose "
            f"only {len(order)}"
        )
    removed = tuple(order[:count])
    after = unit.with_cells(removed, EMPTY)
    if after.figures == 0:
        after = replace(after, carried_hits=0)
    still = any(after.has_figure(c) for c in contact_set)
    return CasualtyRemoval(after, 0, removed, 0, still)


def take_hits(
    unit: BattleUnit,
    hits: int,
    preference: RemovalPreference = "keep_contact",
    contact: Iterable[Cell] = (),
    figures_in_sight: int | None = None,
) -> CasualtyRemoval:
    """BS-4/BS-5 (and BS-15 for missiles): apply standing hits to a unit,
    remove figures by the owner's preference and keep the rest on the
    counter. With ``figures_in_sight`` fewer than the unit's figures, hits
    beyond those figures are lost."""
    if figures_in_sight is not None and figures_in_sight < 0:
        raise ValueError(f"figures_in_sight must be >= 0, not {figures_in_sight}")
    cap = unit.figures if figures_in_sight is None else min(figures_in_sight, unit.figures)
    removed_n, carried = figures_removed_by_hits(hits, unit.hits_per_figure, unit.carried_hits, cap)
    # Hits beyond those that remove every reachable figure go nowhere.
    lost = max(0, unit.carried_hits + hits - cap * unit.hits_per_figure) if removed_n == cap else 0
    lost = min(lost, hits)
    removal = remove_casualties(replace(unit, carried_hits=0), removed_n, preference, contact)
    after = replace(removal.unit, carried_hits=carried if removal.unit.figures else 0)
    return CasualtyRemoval(after, hits, removal.removed, lost, removal.in_contact)


# --- BS-9: contact and melee eligibility -----------------------------------------------------


def contact_cells(unit: BattleUnit, enemy: BattleUnit) -> frozenset[Cell]:
    """The unit's figures on a hex next to an enemy figure (front, flank or rear)."""
    return _contact_cells(
        unit.ranks, unit.anchor, unit.facing, enemy.ranks, enemy.anchor, enemy.facing
    )


@lru_cache(maxsize=8192)
def _contact_cells(
    ranks: tuple[str, ...],
    anchor: Hex,
    facing: int,
    enemy_ranks: tuple[str, ...],
    enemy_anchor: Hex,
    enemy_facing: int,
) -> frozenset[Cell]:
    # The plan of a melee round, its odds and its blows ask this of the same two
    # regiments, and the AI asks it for every move it weighs: kept by where they stand.
    touched = _touched(enemy_ranks, enemy_anchor, enemy_facing)
    return frozenset(cell for cell, h in _figure_hexes(ranks, anchor, facing) if h in touched)


@lru_cache(maxsize=4096)
def _touched(ranks: tuple[str, ...], anchor: Hex, facing: int) -> frozenset[Hex]:
    """The hexes next to a figure of the unit: a figure on one is in contact with it."""
    return frozenset(n for _, h in _figure_hexes(ranks, anchor, facing) for n in neighbors(h))


def in_contact(unit: BattleUnit, enemy: BattleUnit) -> bool:
    """BS-5: two units stay in contact while any of their figures touch."""
    return bool(contact_cells(unit, enemy))


@dataclass(frozen=True)
class MeleeAttackers:
    """BS-9: who attacks in melee. ``full`` figures roll 1 AD each; ``half``
    figures (spears, pikes, polearms over the front rank) 0.5 AD each."""

    full: tuple[Cell, ...]
    half: tuple[Cell, ...] = ()

    @property
    def base_dice(self) -> int:
        return len(self.full) + attack_dice_count(len(self.half), HALF)

    def dice_count(self, *multipliers: MultiplierLike) -> int:
        """BS-7/BS-12: the AD after multipliers, rounding up at each step."""
        return attack_dice_count(self.base_dice, 1, *multipliers)


def melee_attackers(unit: BattleUnit, contact: Iterable[Cell]) -> MeleeAttackers:
    """BS-9: the figures of ``unit`` that attack, given its figures in contact.

    Routed units do not attack; figures that fired this turn do not melee.
    Irregular: only the figures in contact. Regular: also one figure either
    side of them in the same rank; with spears, pikes or polearms the second
    rank behind an attacking front-rank figure adds 0.5 AD per figure, with
    pikes the third rank too."""
    return _melee_attackers(
        unit.ranks, unit.formation, unit.weapon, unit.status, frozenset(contact)
    )


@lru_cache(maxsize=8192)
def _melee_attackers(
    ranks: tuple[str, ...], formation: str, weapon: str, status: str, contact: frozenset[Cell]
) -> MeleeAttackers:
    # A round's plan and its odds ask this for the same figures in contact, and the
    # AI for every move it weighs: kept by what it reads.
    if status == "routed":
        return MeleeAttackers(())

    def ready(cell: Cell) -> bool:
        return _has_figure(ranks, cell) and ranks[cell[0]][cell[1]] == FIGURE

    touching = {c for c in contact if _has_figure(ranks, c)}
    full = {c for c in touching if ready(c)}
    if formation == "regular":
        for r, f in touching:
            for side in ((r, f - 1), (r, f + 1)):
                if ready(side):
                    full.add(side)
    half: set[Cell] = set()
    if formation == "regular" and weapon in REACH_WEAPONS:
        front_files = {f for r, f in full if r == 0}
        depth = 3 if weapon == "pike" else 2
        for r in range(1, depth):
            for f in front_files:
                if ready((r, f)) and (r, f) not in full:
                    half.add((r, f))
    return MeleeAttackers(tuple(sorted(full)), tuple(sorted(half)))


# --- BS-10, BS-12: melee advantage and AD multipliers ----------------------------------------


def melee_advantage(
    unit: BattleUnit,
    enemy: BattleUnit,
    *,
    facing_enemy: bool = True,
    all_from_rear: bool = False,
) -> str | None:
    """BS-10: why ``unit`` has the melee advantage over ``enemy``, or None.

    Needs status "good" and some attackers facing the enemy, plus one of:
    pikes against no pikes; halberds/spears/lances against none of
    pikes/halberds/spears/lances; every attacker in the enemy's rear; the
    same weapons but larger figures."""
    if unit.status != "good" or not facing_enemy:
        return None
    if unit.weapon == "pike" and enemy.weapon != "pike":
        return "pikes against no pikes"
    if unit.weapon in LONG_WEAPONS - {"pike"} and enemy.weapon not in LONG_WEAPONS:
        return f"{unit.weapon}s against no long weapons"
    if all_from_rear:
        return "attacking from the rear"
    if unit.weapon == enemy.weapon and SIZES.index(unit.size) > SIZES.index(enemy.size):
        return "same weapons, larger figures"
    return None


def advantage_holder(
    a: BattleUnit,
    b: BattleUnit,
    *,
    a_facing: bool = True,
    b_facing: bool = True,
    a_from_rear: bool = False,
    b_from_rear: bool = False,
) -> str | None:
    """BS-10: the unit_id of the unit with the melee advantage, or None when
    neither or both qualify (then the round is simultaneous)."""
    has_a = melee_advantage(a, b, facing_enemy=a_facing, all_from_rear=a_from_rear)
    has_b = melee_advantage(b, a, facing_enemy=b_facing, all_from_rear=b_from_rear)
    if has_a and not has_b:
        return a.unit_id
    if has_b and not has_a:
        return b.unit_id
    return None


def melee_dice_multipliers(
    unit: BattleUnit,
    *,
    charged: bool = False,
    set_against_charge: bool = False,
) -> tuple[Fraction, ...]:
    """BS-12: AD multipliers of a unit in melee.

    ``charged``: the unit charged and this is the first melee round against
    the charge's declared target (x2 cavalry, x1.5 infantry).
    ``set_against_charge``: spears, pikes or polearms braced against a charge
    that hit their front (x2)."""
    out: list[Fraction] = []
    if charged:
        out.append(X2 if unit.troops == "cavalry" else X1_5)
    if set_against_charge:
        if unit.weapon not in REACH_WEAPONS:
            raise ValueError(
                f"unit {unit.unit_id!r}: only spears, pikes or polearms can be set against "
                f"a charge, not {unit.weapon!r}"
            )
        out.append(X2)
    return tuple(out)


# --- BS-9: resolving a melee round -----------------------------------------------------------


@dataclass(frozen=True)
class MeleeSide:
    """One unit in a melee round with what the situation gives it.

    ``armor_modifiers`` change this unit's AR when it is hit (BS-11);
    ``dice_multipliers`` multiply its AD (BS-12); ``removal`` is the owner's
    casualty preference (BS-5)."""

    unit: BattleUnit
    armor_modifiers: tuple[Modifier, ...] = ()
    dice_multipliers: tuple[Fraction, ...] = ()
    removal: RemovalPreference = "keep_contact"


@dataclass(frozen=True)
class Strike:
    """One unit's attack in a melee round or a volley, with its breakdown."""

    attacker_id: str
    defender_id: str
    dice_count: int
    armor: TargetNumber
    roll: AttackRoll
    check: ArmorCheck
    casualties: CasualtyRemoval | None = None

    @property
    def standing(self) -> int:
        return self.check.standing

    def __str__(self) -> str:
        text = f"{self.attacker_id} -> {self.defender_id}: {self.roll}; {self.check}"
        text += f" ({self.armor.breakdown()})"
        if self.casualties is not None:
            text += f"; {self.casualties}"
        return text


def _strike(
    dice: DiceBase,
    attacker: BattleUnit,
    defender: BattleUnit,
    dice_count: int,
    sides: tuple[int, ...],
    armor: TargetNumber,
) -> Strike:
    roll = attack(dice, dice_count, sides, purpose=f"{attacker.unit_id} attacks")
    check = armor_check(dice, roll.hits, armor.total, purpose=f"{defender.unit_id} armour")
    return Strike(attacker.unit_id, defender.unit_id, dice_count, armor, roll, check)


def _melee_round_of(unit: BattleUnit, enemy: BattleUnit) -> int:
    # BS-6: [12]8 counts consecutive rounds against the same unit.
    return unit.melee_round + 1 if unit.melee_opponent == enemy.unit_id else 1


@dataclass(frozen=True)
class MeleeResult:
    """The two units after a melee round, the strikes made, and whether the
    units are still in contact (BS-5)."""

    a: BattleUnit
    b: BattleUnit
    strikes: tuple[Strike, ...]
    in_contact: bool
    advantage: str | None = None

    def __str__(self) -> str:
        return "\n".join(str(s) for s in self.strikes)


def _melee_strike(dice: DiceBase, attacker: MeleeSide, defender: MeleeSide) -> Strike | None:
    contact = contact_cells(attacker.unit, defender.unit)
    who = melee_attackers(attacker.unit, contact)
    count = who.dice_count(*attacker.dice_multipliers)
    if count == 0:
        return None
    sides = attacker.unit.dice.dice_for(melee_round=_melee_round_of(attacker.unit, defender.unit))
    armor = armor_target(defender.unit.armor_rating, defender.armor_modifiers)
    return _strike(dice, attacker.unit, defender.unit, count, sides, armor)


def _land(
    strike: Strike | None, defender: MeleeSide, attacker: BattleUnit
) -> tuple[BattleUnit, Strike | None]:
    if strike is None:
        return defender.unit, None
    casualties = take_hits(
        defender.unit,
        strike.standing,
        defender.removal,
        contact_cells(defender.unit, attacker),
    )
    return casualties.unit, replace(strike, casualties=casualties)


def resolve_melee(
    dice: DiceBase,
    a: MeleeSide,
    b: MeleeSide,
    *,
    advantage: str | None = None,
    morale: Callable[[BattleUnit], BattleUnit] | None = None,
) -> MeleeResult:
    """BS-9: one melee round between two units in contact.

    Without advantage both attack at once and casualties are removed after
    both attacks. With ``advantage`` (the unit_id of the unit holding it,
    BS-10) that unit strikes first; its casualties are removed, ``morale``
    (the caller's morale step) may change the enemy's status, and an enemy
    that is routed or retreating does not strike back."""
    ua, ub = a.unit, b.unit
    if ua.unit_id == ub.unit_id:
        raise ValueError(f"unit {ua.unit_id!r} cannot melee itself")
    if not in_contact(ua, ub):
        raise ValueError(f"units {ua.unit_id!r} and {ub.unit_id!r} are not in contact")
    if advantage not in (None, ua.unit_id, ub.unit_id):
        raise ValueError(
            f"melee advantage must name {ua.unit_id!r} or {ub.unit_id!r}, not {advantage!r}"
        )
    strikes: list[Strike] = []
    if advantage is None:
        sa = _melee_strike(dice, a, b)
        sb = _melee_strike(dice, b, a)
        new_b, sa = _land(sa, b, ua)
        new_a, sb = _land(sb, a, ub)
        strikes = [s for s in (sa, sb) if s is not None]
    else:
        first, second = (a, b) if advantage == ua.unit_id else (b, a)
        hurt, s1 = _land(_melee_strike(dice, first, second), second, first.unit)
        if morale is not None:
            hurt = morale(hurt)
        second = replace(second, unit=hurt)
        s2 = None
        if hurt.status not in ("routed", "retreating") and in_contact(hurt, first.unit):
            struck, s2 = _land(_melee_strike(dice, second, first), first, hurt)
            first = replace(first, unit=struck)
        strikes = [s for s in (s1, s2) if s is not None]
        new_a, new_b = (first.unit, hurt) if advantage == ua.unit_id else (hurt, first.unit)
    still = in_contact(new_a, new_b)
    new_a = _after_round(new_a, ua, ub, still)
    new_b = _after_round(new_b, ub, ua, still)
    return MeleeResult(new_a, new_b, tuple(strikes), still, advantage)


def _after_round(
    unit: BattleUnit, before: BattleUnit, enemy: BattleUnit, still: bool
) -> BattleUnit:
    if not still:
        return replace(unit, melee_opponent="", melee_round=0)
    return replace(unit, melee_opponent=enemy.unit_id, melee_round=_melee_round_of(before, enemy))


def break_contact(unit: BattleUnit) -> BattleUnit:
    """BS-6: contact broken; the next melee starts with the first-round die again."""
    return replace(unit, melee_opponent="", melee_round=0)


# --- BS-13: fire arc and range ---------------------------------------------------------------


def _scaled_pixel(h: Hex) -> tuple[int, int]:
    # Flat-top pixel centres times (2, 2/sqrt3): x = 3q, y = 2r + q. Squared
    # lengths below use 3*y*y, so every comparison is exact integer arithmetic.
    return 3 * h.q, 2 * h.r + h.q


def in_front_arc(origin: Hex, facing: int, target: Hex) -> bool:
    """BS-13: ``target`` lies in the 90 degree arc in front of a figure on
    ``origin`` facing ``facing`` (45 degrees either side, edges included)."""
    if facing not in DIRECTIONS:
        raise ValueError(f"facing must be 1..6 (1 north, clockwise), not {facing!r}")
    if target == origin:
        return False
    vx, vy = _scaled_pixel(target - origin)
    fx, fy = _scaled_pixel(DIRECTIONS[facing])
    dot = vx * fx + 3 * vy * fy
    if dot <= 0:
        return False
    # cos^2(angle) >= 1/2  <=>  2 dot^2 >= |v|^2 |f|^2
    return 2 * dot * dot >= (vx * vx + 3 * vy * vy) * (fx * fx + 3 * fy * fy)


def firing_figures(shooter: BattleUnit, target: BattleUnit) -> tuple[Cell, ...]:
    """BS-13: the figures of the first two ranks with some target figure in
    their front arc. How often a unit may fire in a turn is the movement
    rules' business, so figures marked as having fired may fire again."""
    target_hexes = list(target.figure_hexes().values())
    out = []
    for cell, h in shooter.figure_hexes().items():
        if cell[0] > 1:
            continue
        if any(in_front_arc(h, shooter.facing, t) for t in target_hexes):
            out.append(cell)
    return tuple(out)


def range_to_target(shooter: BattleUnit, target: BattleUnit, scale: Scale = Scale()) -> Fraction:
    """BS-13: the range in inches, measured once from the centre of the
    shooter's front rank to the nearest target figure. With an even frontage
    the centre lies between the two middle places: the mean of their
    distances."""
    targets = list(target.figure_hexes().values())
    if not targets:
        raise ValueError(f"unit {target.unit_id!r} has no figures to measure range to")
    w = shooter.width
    middles = {(w - 1) // 2, w // 2}
    dists = [min(distance(shooter.cell_hex((0, f)), t) for t in targets) for f in middles]
    return scale.inches(Fraction(sum(dists), len(dists)))


RANGE_BANDS = ("short", "medium", "long")
MAX_ELEVATION_BONUS = 3
# BS-18: AD multipliers by range band, and for indirect fire.
BAND_MULTIPLIERS: dict[str, Fraction] = {"short": Fraction(1), "medium": HALF, "long": THIRD}
INDIRECT_MULTIPLIER = HALF


def range_band(
    distance_inches: int | Fraction,
    ranges: Sequence[int],
    height_difference: int | Fraction = 0,
) -> str | None:
    """BS-13/BS-16: "short", "medium", "long", or None beyond long range.

    Firing down, each band grows 1 inch per inch of height difference, at
    most 3 inches (longbow 7/14/21 two inches down: 9/16/23)."""
    if len(ranges) != 3:
        raise ValueError(f"missile ranges are (short, medium, long), not {ranges!r}")
    if distance_inches < 0:
        raise ValueError(f"range cannot be negative: {distance_inches}")
    bonus = min(Fraction(MAX_ELEVATION_BONUS), max(Fraction(0), Fraction(height_difference)))
    for band, limit in zip(RANGE_BANDS, ranges, strict=True):
        if distance_inches <= limit + bonus:
            return band
    return None


def missile_dice_count(direct: int, indirect: int, band: str) -> int:
    """BS-18: AD for a volley: short normal, medium x0.5, long x0.33 (one AD
    per three figures); figures firing indirectly halve their AD again."""
    if band not in BAND_MULTIPLIERS:
        raise ValueError(f"range band is one of {RANGE_BANDS}, not {band!r}")
    m = BAND_MULTIPLIERS[band]
    return attack_dice_count(direct, m) + attack_dice_count(indirect, m, INDIRECT_MULTIPLIER)


def share_missile_dice(groups: Sequence[FirePlan]) -> tuple[FirePlan, ...]:
    """BS-18 with BS-3: a volley whose figures roll in groups (a modifier touching only
    some of them) rolls the AD of all its firing figures counted together, rounded up
    once (BS-7), never more: woods on some lines must not add a die. The AD are shared
    out in proportion to each group's unrounded share; the dice left by rounding down go
    to the largest fractions, the first group first on a tie."""
    if not groups:
        raise ValueError("a volley needs at least one group of firing figures")
    band = groups[0].band
    assert band is not None
    direct = sum(len(g.direct) for g in groups)
    indirect = sum(len(g.indirect) for g in groups)
    total = missile_dice_count(direct, indirect, band)
    m = BAND_MULTIPLIERS[band]
    weights = [m * (len(g.direct) + INDIRECT_MULTIPLIER * len(g.indirect)) for g in groups]
    whole = sum(weights, Fraction(0))
    shares = [total * w / whole for w in weights]
    counts = [math.floor(s) for s in shares]
    by_fraction = sorted(range(len(groups)), key=lambda i: counts[i] - shares[i])
    for i in by_fraction[: total - sum(counts)]:
        counts[i] += 1
    return tuple(replace(g, dice_count=n) for g, n in zip(groups, counts, strict=True))


# --- BS-15..BS-17: line of sight -------------------------------------------------------------

DENSE_WOODS_BLOCK = Fraction(2)
LIGHT_WOODS_BLOCK = Fraction(6)


@dataclass(frozen=True)
class InterveningUnit:
    """A unit standing between a shooter and its target (BS-15..BS-17)."""

    friendly: bool
    size: str = "man"
    distance_to_shooter: Fraction = Fraction(1)
    distance_to_target: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        if self.size not in SIZES:
            raise ValueError(f"intervening unit size is one of {SIZES}, not {self.size!r}")


@dataclass(frozen=True)
class SightLine:
    """What lies on one firing figure's line to the target (BS-15).

    Woods are inches of woods between shooter and target; ``wall_between``
    is a building or wall with no opening the target stands behind."""

    hill_between: bool = False
    shooter_on_high_ground: bool = False
    target_on_high_ground: bool = False
    dense_woods: Fraction = Fraction(0)
    light_woods: Fraction = Fraction(0)
    wall_between: bool = False
    units_between: tuple[InterveningUnit, ...] = ()


@dataclass(frozen=True)
class SightResult:
    """Whether a figure can fire: ``visible``; ``indirect`` when it must fire
    over a friendly unit (x0.5 AD, BS-17); ``screened`` for thin woods (-3 AR,
    BS-19); ``reason`` in words when it cannot."""

    visible: bool
    indirect: bool = False
    screened: bool = False
    reason: str = ""


CLEAR_SIGHT = SightLine()


def sight(line: SightLine, *, shooter_size: str = "man") -> SightResult:
    """BS-15..BS-17: judge one line of sight.

    Hills block unless shooter or target is on the high ground; 2" of dense
    or 6" of light woods block (less screens); walls and buildings block. An
    intervening unit blocks unless the shooter is on high ground (or larger
    than the unit) and the unit is closer to the shooter than to the target
    (BS-16); a friendly unit not nearer the target than the shooter can be
    fired over indirectly (BS-17); never an enemy."""
    if shooter_size not in SIZES:
        raise ValueError(f"shooter size is one of {SIZES}, not {shooter_size!r}")
    if line.hill_between and not (line.shooter_on_high_ground or line.target_on_high_ground):
        return SightResult(False, reason="a hill blocks the line of sight")
    if line.dense_woods >= DENSE_WOODS_BLOCK:
        return SightResult(False, reason=f'{line.dense_woods}" of dense woods block the line')
    if line.light_woods >= LIGHT_WOODS_BLOCK:
        return SightResult(False, reason=f'{line.light_woods}" of light woods block the line')
    if line.wall_between:
        return SightResult(False, reason="a building or wall blocks the line")
    screened = line.dense_woods > 0 or line.light_woods > 0
    indirect = False
    for u in line.units_between:
        looks_over = line.shooter_on_high_ground or SIZES.index(shooter_size) > SIZES.index(u.size)
        if looks_over and u.distance_to_shooter < u.distance_to_target:
            continue  # BS-16
        if not u.friendly:
            return SightResult(False, reason="an enemy unit blocks the line (no indirect fire)")
        if u.distance_to_target < u.distance_to_shooter:
            return SightResult(
                False,
                reason="the friendly unit in the way is nearer the target than the shooter",
            )
        indirect = True  # BS-17
    return SightResult(True, indirect, screened)


def woods_between(terrains: Iterable[int], scale: Scale = Scale()) -> tuple[Fraction, Fraction]:
    """(dense, light) inches of woods along a line, from the terrain codes of
    the hexes strictly between shooter and target (heavy woods are dense)."""
    dense = light = 0
    for code in terrains:
        if code == HEAVY_WOODS:
            dense += 1
        elif code == LIGHT_WOODS:
            light += 1
    return scale.inches(dense), scale.inches(light)


# --- BS-13..BS-19: a volley ------------------------------------------------------------------

MAGICAL_VOLLEYS = 2  # BS-14, unless the scenario gives another number


@dataclass(frozen=True)
class FirePlan:
    """Who fires, at what range, with how many AD against what AR.
    ``reason`` says why no fire is possible when ``allowed`` is false."""

    shooter_id: str
    target_id: str
    allowed: bool
    reason: str = ""
    distance: Fraction = Fraction(0)
    band: str | None = None
    direct: tuple[Cell, ...] = ()
    indirect: tuple[Cell, ...] = ()
    dice_count: int = 0
    sides: tuple[int, ...] = ()
    armor: TargetNumber | None = None
    magical: bool = False
    figures_in_sight: int | None = None

    def __str__(self) -> str:
        if not self.allowed:
            return f"{self.shooter_id} cannot fire at {self.target_id}: {self.reason}"
        assert self.armor is not None
        return (
            f"{self.shooter_id} fires at {self.target_id}: {len(self.direct)} direct, "
            f'{len(self.indirect)} indirect, {self.band} range ({self.distance}"), '
            f"{self.dice_count} AD, {self.armor.breakdown()}"
        )


def plan_missile_fire(
    shooter: BattleUnit,
    target: BattleUnit,
    *,
    sight_of: SightLine | Callable[[Cell], SightLine] = CLEAR_SIGHT,
    height_difference: int | Fraction = 0,
    shooter_in_melee: bool = False,
    target_in_melee_with_friend: bool = False,
    screened: bool = False,
    cover: str | None = None,
    magical: bool = False,
    figures_in_sight: int | None = None,
    scale: Scale = Scale(),
) -> FirePlan:
    """BS-13..BS-19: plan a volley from ``shooter`` at ``target``.

    ``sight_of`` gives each firing figure's line (one for all, or per place);
    ``height_difference`` is board levels the shooter stands above the target,
    turned into inches by ``scale`` (BS-16, BS-20);
    ``screened`` covers darkness, fog, smoke or hedges; ``cover`` is "wall"
    or "arrow slits"; ``magical`` spends one magical volley (BS-14);
    ``figures_in_sight`` caps the casualties (BS-15)."""

    def refuse(reason: str) -> FirePlan:
        return FirePlan(shooter.unit_id, target.unit_id, False, reason)

    if shooter.side == target.side:
        return refuse("the target is on the same side")
    if shooter.missile_ranges is None:
        return refuse("the unit has no missile weapons")
    if shooter.status == "routed":
        return refuse("a routed unit does not fire")
    if shooter_in_melee:
        return refuse("a unit in melee cannot fire (BS-13)")
    if target_in_melee_with_friend:
        return refuse("the target is in melee with a friendly unit (BS-13)")
    if magical and shooter.magical_volleys == 0:
        return refuse("no magical volleys left (BS-14)")
    if target.figures == 0:
        return refuse("the target has no figures left")
    if figures_in_sight is not None and figures_in_sight <= 0:
        return refuse("no target figure is in sight (BS-15)")
    dist = range_to_target(shooter, target, scale)
    band = range_band(dist, shooter.missile_ranges, scale.height_inches(height_difference))
    if band is None:
        return refuse(f'out of range ({dist}" beyond long range)')
    direct: list[Cell] = []
    indirect: list[Cell] = []
    any_screened = False
    blocked: list[str] = []
    for cell in firing_figures(shooter, target):
        line = sight_of(cell) if callable(sight_of) else sight_of
        result = sight(line, shooter_size=shooter.size)
        if not result.visible:
            blocked.append(result.reason)
            continue
        any_screened |= result.screened
        (indirect if result.indirect else direct).append(cell)
    if not direct and not indirect:
        why = blocked[0] if blocked else "no figure of the first two ranks has it in its front arc"
        return refuse(why)
    count = missile_dice_count(len(direct), len(indirect), band)
    mods = missile_armor_modifiers(
        target_lower=Fraction(height_difference) > 0,
        target_large=target.size == "large",
        screened=screened or any_screened,
        cover=cover,
    )
    return FirePlan(
        shooter.unit_id,
        target.unit_id,
        True,
        "",
        dist,
        band,
        tuple(direct),
        tuple(indirect),
        count,
        shooter.dice.dice_for(missile=True),
        armor_target(target.armor_rating, mods, missile=True),
        magical,
        figures_in_sight,
    )


@dataclass(frozen=True)
class VolleyResult:
    """The shooter (fired figures marked, magical volley spent) and the
    target after a volley."""

    shooter: BattleUnit
    target: BattleUnit
    strike: Strike


def resolve_missile_fire(
    dice: DiceBase,
    plan: FirePlan,
    shooter: BattleUnit,
    target: BattleUnit,
    *,
    removal: RemovalPreference = "rear",
) -> VolleyResult:
    """Roll a planned volley: AD, armour checks, casualties (BS-13..BS-19)."""
    grouped = resolve_grouped_fire(dice, (plan,), shooter, target, removal=removal)
    strike = replace(grouped.strikes[0], casualties=grouped.casualties)
    return VolleyResult(grouped.shooter, grouped.target, strike)


@dataclass(frozen=True)
class GroupedVolley:
    """A volley rolled in groups: each group's strike, and the casualties of all."""

    shooter: BattleUnit
    target: BattleUnit
    strikes: tuple[Strike, ...]
    casualties: CasualtyRemoval


def resolve_grouped_fire(
    dice: DiceBase,
    plans: Sequence[FirePlan],
    shooter: BattleUnit,
    target: BattleUnit,
    *,
    in_sight: Sequence[Cell] | None = None,
    removal: RemovalPreference = "rear",
) -> GroupedVolley:
    """BS-13 .. BS-19 for one volley whose figures fire in groups: each group rolls
    its AD against its own AR (BS-3 and BS-19: a modifier touching some figures
    applies to their dice only); the hits that stand are added and removed
    together, only from the target figures ``in_sight`` (in the owner's order
    ``removal``), hits beyond them lost (BS-15)."""
    if not plans:
        raise ValueError("a volley needs at least one group of firing figures")
    strikes = []
    for plan in plans:
        if plan.shooter_id != shooter.unit_id or plan.target_id != target.unit_id:
            raise ValueError(
                f"the plan is {plan.shooter_id!r} at {plan.target_id!r}, not "
                f"{shooter.unit_id!r} at {target.unit_id!r}"
            )
        if not plan.allowed:
            raise ValueError(str(plan))
        assert plan.armor is not None
        strikes.append(_strike(dice, shooter, target, plan.dice_count, plan.sides, plan.armor))
    standing = sum(s.standing for s in strikes)
    if in_sight is None:
        casualties = take_hits(target, standing, removal, (), plans[0].figures_in_sight)
    else:
        seen = set(in_sight)
        order = [c for c in _removal_order(target, removal, frozenset()) if c in seen]
        casualties = take_hits(target, standing, order, (), len(order))
    fired = shooter.with_cells([c for p in plans for c in (*p.direct, *p.indirect)], FIRED)
    if any(p.magical for p in plans):
        fired = spend_magical_volley(fired)
    return GroupedVolley(fired, casualties.unit, tuple(strikes), casualties)


def spend_magical_volley(unit: BattleUnit) -> BattleUnit:
    """BS-14: one volley of magical missiles used; ordinary ones never run out."""
    if unit.magical_volleys == 0:
        raise ValueError(f"unit {unit.unit_id!r} has no magical volleys left")
    return replace(unit, magical_volleys=unit.magical_volleys - 1)


# --- exact odds ------------------------------------------------------------------------------


@cache
def _attack_hits(sides: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    dist: Distribution = {0: Fraction(1)}
    for s in sides:
        per_die: Distribution = {}
        for roll in range(1, s + 1):
            h = _HITS_BY_ROLL[roll]
            per_die[h] = per_die.get(h, Fraction(0)) + Fraction(1, s)
        dist = convolve(dist, per_die)
    return tuple(sorted(dist.items()))


def attack_hits_distribution(die_spec: int | str | Sequence[int]) -> Distribution:
    """Exact hits of one attacking figure (BS-2; with ``12+8`` both dice, BS-6)."""
    return dict(_attack_hits(_die_spec(die_spec)))


def _check_count(count: int) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"the number of attack dice is a whole number >= 0, not {count!r}")
    return count


@cache
def _hits(count: int, sides: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    return _fractions(_pool_weights(count, sides, 1))


# The AI asks for the odds of many rounds in a turn: the hits of a pool (and those left
# after the armour checks) are worked in whole numbers over one common denominator, and
# made into fractions once per outcome, the same exact answer as ``pool_distribution``
# (and ``compose_binomial``) summing fractions term by term.
Weights = tuple[tuple[int, ...], int]  # the weight of each count from 0, and their whole


@cache
def _pool_weights(count: int, sides: tuple[int, ...], stands: Fraction | int) -> Weights:
    """The hits of ``count`` attack dice that each stand with the chance ``stands``
    (1: every hit): one die's standing hits raised to the ``count``-th power."""
    per_die = _attack_hits(sides)
    most = per_die[-1][0]
    a, c = stands.numerator, stands.denominator
    den = math.lcm(*(p.denominator for _, p in per_die)) * c**most
    die = [0] * (most + 1)
    for h, p in per_die:
        # p C(h, k) a^k (c - a)^(h - k) / c^h over the denominator den.
        scale = p.numerator * (den // p.denominator) // c**h
        for k in range(h + 1):
            die[k] += scale * math.comb(h, k) * a**k * (c - a) ** (h - k)
    return tuple(power(die, count, _product, [1])), den**count


def _fractions(weights: Weights) -> tuple[tuple[int, Fraction], ...]:
    """Each count of nonzero chance with its chance, from 0 up."""
    counts, whole = weights
    return tuple((k, Fraction(w, whole)) for k, w in enumerate(counts) if w)


def _product(a: list[int], b: list[int]) -> list[int]:
    """The weights of the sum of two independent counts, each given by its weights."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def hits_distribution(count: int, die_spec: int | str | Sequence[int]) -> Distribution:
    """Exact distribution of the hits of ``count`` attacks (BS-1, BS-2, BS-6)."""
    return dict(_hits(_check_count(count), _die_spec(die_spec)))


def hit_stands_probability(armor_rating: int) -> Fraction:
    """BS-3: a hit stands when its d10 is below the AR: (AR - 1) / 10."""
    if not isinstance(armor_rating, int) or not AR_BEST <= armor_rating <= AR_WORST:
        raise ValueError(f"an armour rating is 2..10, not {armor_rating!r}")
    return Fraction(armor_rating - 1, 10)


@cache
def _surviving(count: int, sides: tuple[int, ...], ar: int) -> tuple[tuple[int, Fraction], ...]:
    return _fractions(_pool_weights(count, sides, hit_stands_probability(ar)))


def surviving_hits_distribution(
    count: int, die_spec: int | str | Sequence[int], armor_rating: int
) -> Distribution:
    """Exact distribution of the hits left after armour checks (BS-3)."""
    hit_stands_probability(armor_rating)
    return dict(_surviving(_check_count(count), _die_spec(die_spec), armor_rating))


def grouped_figures_removed_distribution(
    groups: Iterable[tuple[int, int | str | Sequence[int], int]],
    hits_per_figure: int,
    carried: int = 0,
    figures: int | None = None,
) -> Distribution:
    """Exact distribution of figures removed by a volley fired in groups, each
    ``(AD, die, armour rating)``: the standing hits of the groups add up (BS-3,
    BS-4), capped at ``figures`` (those in sight, BS-15)."""
    total: Distribution = {0: Fraction(1)}
    for count, die_spec, armor_rating in groups:
        total = convolve(total, surviving_hits_distribution(count, die_spec, armor_rating))
    out: Distribution = {}
    for hits, p in total.items():
        removed, _ = figures_removed_by_hits(hits, hits_per_figure, carried, figures)
        out[removed] = out.get(removed, Fraction(0)) + p
    return out


def figures_removed_distribution(
    count: int,
    die_spec: int | str | Sequence[int],
    armor_rating: int,
    hits_per_figure: int,
    carried: int = 0,
    figures: int | None = None,
) -> Distribution:
    """Exact distribution of figures removed (BS-4), counting ``carried`` hits
    already on the unit and capped at ``figures``."""
    out: Distribution = {}
    for hits, p in surviving_hits_distribution(count, die_spec, armor_rating).items():
        removed, _ = figures_removed_by_hits(hits, hits_per_figure, carried, figures)
        out[removed] = out.get(removed, Fraction(0)) + p
    return out


def expected_figures_removed(
    count: int,
    die_spec: int | str | Sequence[int],
    armor_rating: int,
    hits_per_figure: int,
    carried: int = 0,
    figures: int | None = None,
) -> Fraction:
    """The exact mean of ``figures_removed_distribution``."""
    hit_stands_probability(armor_rating)  # refuses a bad armour rating before the cache
    return _expected_removed(
        _check_count(count), _die_spec(die_spec), armor_rating, hits_per_figure, carried, figures
    )


@cache
def _expected_removed(
    count: int,
    sides: tuple[int, ...],
    armor_rating: int,
    hits_per_figure: int,
    carried: int,
    figures: int | None,
) -> Fraction:
    # The AI asks the same round's odds for many moves and attacks: kept per dice. The
    # mean of ``figures_removed_distribution``, summed in whole numbers (``Weights``).
    counts, whole = _pool_weights(count, sides, hit_stands_probability(armor_rating))
    return Fraction(
        sum(
            figures_removed_by_hits(hits, hits_per_figure, carried, figures)[0] * w
            for hits, w in enumerate(counts)
            if w
        ),
        whole,
    )


# --- vectorized resolution for Monte Carlo ---------------------------------------------------


def roll_attacks_batch(
    rng: np.random.Generator, trials: int, count: int, die_spec: int | str | Sequence[int]
) -> np.ndarray:
    """Hits of ``trials`` attacks of ``count`` AD each, all dice rolled at
    once and read through the BS-2 table; an int32 array of length trials."""
    sides = _die_spec(die_spec)
    _check_count(count)
    hits = np.zeros(trials, dtype=np.int32)
    if count == 0:
        return hits
    for s in sides:
        rolls = batch_roll(rng, (trials, count), s)
        hits += HITS_TABLE[rolls].sum(axis=1, dtype=np.int32)
    return hits


def armor_checks_batch(rng: np.random.Generator, hits: np.ndarray, armor_rating: int) -> np.ndarray:
    """BS-3 for many attacks at once: exactly one d10 per hit, a roll below
    the AR lets the hit stand; returns the standing hits per attack."""
    hit_stands_probability(armor_rating)
    hits = np.asarray(hits, dtype=np.int64)
    if hits.size and hits.min() < 0:
        raise ValueError("hits cannot be negative")
    ends = np.cumsum(hits)
    total = int(ends[-1]) if hits.size else 0
    stands = batch_roll(rng, total, 10) < armor_rating
    running = np.concatenate(([0], np.cumsum(stands, dtype=np.int64)))
    return (running[ends] - running[ends - hits]).astype(np.int32)


def figures_removed_batch(
    standing: np.ndarray, hits_per_figure: int, carried: int = 0, figures: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """BS-4 for many attacks at once: (figures removed, hits carried)."""
    figures_removed_by_hits(0, hits_per_figure, carried, figures)
    removed, left = np.divmod(np.asarray(standing, dtype=np.int64) + carried, hits_per_figure)
    if figures is not None:
        wiped = removed >= figures
        removed = np.where(wiped, figures, removed)
        left = np.where(wiped, 0, left)
    return removed, left


@dataclass(frozen=True)
class BatchResult:
    """Hits scored and hits standing after armour checks, one entry per attack."""

    hits: np.ndarray
    standing: np.ndarray = field(repr=False)


def resolve_attacks_batch(
    rng: np.random.Generator,
    trials: int,
    count: int,
    die_spec: int | str | Sequence[int],
    armor_rating: int,
) -> BatchResult:
    """``trials`` attacks of ``count`` AD against ``armor_rating``, vectorized."""
    hits = roll_attacks_batch(rng, trials, count, die_spec)
    return BatchResult(hits, armor_checks_batch(rng, hits, armor_rating))
