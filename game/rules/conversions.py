"""Artillery damage against units of the other systems (ART-35).

A ring of artillery damage (ART-25) is counted in the BattleTech-style points
of the artillery. Units of the other systems on the board take it through one
small table per system (``conversions.toml``, described in
docs/artillery-conversions.md), and then through their own system's rules:

* BATTLESYSTEM: each full 5-point group is one hit; the unit rolls its armor
  checks (BS-3) and loses a figure per full hits-per-figure, carrying the rest
  (BS-4).
* Warhammer: each full 5-point group is one automatic hit (WH-10) of Strength
  ``min(10, ring_damage // 5)``, then to wound (WH-7) and armour saves with the
  Strength modifier (WH-8), and ward saves (WH-9).
* Toy soldiers: every figure in the hex is hit on a d6 <= ``ring_damage // 5 -
  armour``, killed or wounded by the halves of TS-7; a gun in the hit hex is
  disabled (TS-9).

The rules of each system are not repeated here: the BATTLESYSTEM, Warhammer
and toy-soldier resolvers are called for them. Each conversion takes dice and
plain numbers and returns every roll and a readable account; beside each
stands its exact odds (design principle 7).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from game.dice import DiceBase
from game.rules import battlesystem as bs
from game.rules import toysoldiers as ts
from game.rules import warhammer as wh
from game.rules.core import Distribution, binomial, mean

TABLES_PATH = Path(__file__).with_name("conversions.toml")

# The ring damages of the standard weapons (ART-25), for the printed tables.
STANDARD_RING_DAMAGES: tuple[int, ...] = (5, 10, 15, 20, 25, 40, 45, 50, 65, 70, 90, 95, 120)


# ---------------------------------------------------------------------------
# The tables, as data


@dataclass(frozen=True)
class BattlesystemTable:
    group_size: int
    hits_per_group: int

    def hits(self, ring_damage: int) -> int:
        """ART-35: BATTLESYSTEM hits of one ring (full groups only)."""
        return _check_damage(ring_damage) // self.group_size * self.hits_per_group


@dataclass(frozen=True)
class WarhammerTable:
    group_size: int
    hits_per_group: int
    strength_divisor: int
    strength_max: int

    def hits(self, ring_damage: int) -> int:
        """ART-35: automatic hits of one ring (full groups only)."""
        return _check_damage(ring_damage) // self.group_size * self.hits_per_group

    def strength(self, ring_damage: int) -> int:
        """ART-35: the Strength of every hit, ``min(10, ring_damage // 5)``."""
        return min(self.strength_max, _check_damage(ring_damage) // self.strength_divisor)


@dataclass(frozen=True)
class ToySoldierTable:
    chance_divisor: int
    split: ts.Split
    gun_disabled_within: int

    def base_chance(self, ring_damage: int) -> int:
        """ART-35: the chance before armour, ``ring_damage // 5``."""
        return _check_damage(ring_damage) // self.chance_divisor

    def chance(self, ring_damage: int, armour: int) -> int:
        """ART-35: a figure is hit on d6 <= this (0: it cannot be hurt)."""
        if isinstance(armour, bool) or not isinstance(armour, int) or armour < 0:
            raise ValueError(f"a toy soldier's armour is a whole number 0 or more, not {armour!r}")
        return max(0, self.base_chance(ring_damage) - armour)


@dataclass(frozen=True)
class ConversionTables:
    battlesystem: BattlesystemTable
    warhammer: WarhammerTable
    toysoldiers: ToySoldierTable


def _check_damage(ring_damage: int) -> int:
    if isinstance(ring_damage, bool) or not isinstance(ring_damage, int) or ring_damage < 0:
        raise ValueError(f"ring damage is a whole number of points 0 or more, not {ring_damage!r}")
    return ring_damage


def _table_int(source: str, data: Mapping[str, Any], section: str, key: str, minimum: int) -> int:
    where = f"{source}: [{section}] {key}"
    if key not in data:
        raise ValueError(f"{where} is missing; add e.g. `{key} = 5` to the [{section}] table")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{where} must be a whole number {minimum} or more, not {value!r}")
    return value


def parse_conversion_tables(text: str, source: str = "conversions.toml") -> ConversionTables:
    """Read the ART-35 tables from TOML text, with errors naming file, table and key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{source}: not valid TOML: {exc}") from None
    for section in ("battlesystem", "warhammer", "toysoldiers"):
        if not isinstance(data.get(section), dict):
            raise ValueError(
                f"{source}: the [{section}] table is missing (ART-35 needs one table per system)"
            )
    b, w, t = data["battlesystem"], data["warhammer"], data["toysoldiers"]
    split = t.get("split", "example")
    if split not in ts.SPLITS:
        raise ValueError(
            f'{source}: [toysoldiers] split must be "example" or "text" (TS-7), not {split!r}'
        )
    return ConversionTables(
        BattlesystemTable(
            _table_int(source, b, "battlesystem", "group_size", 1),
            _table_int(source, b, "battlesystem", "hits_per_group", 1),
        ),
        WarhammerTable(
            _table_int(source, w, "warhammer", "group_size", 1),
            _table_int(source, w, "warhammer", "hits_per_group", 1),
            _table_int(source, w, "warhammer", "strength_divisor", 1),
            _table_int(source, w, "warhammer", "strength_max", 1),
        ),
        ToySoldierTable(
            _table_int(source, t, "toysoldiers", "chance_divisor", 1),
            split,
            _table_int(source, t, "toysoldiers", "gun_disabled_within", 0),
        ),
    )


@cache
def _default_tables() -> ConversionTables:
    return parse_conversion_tables(TABLES_PATH.read_text(encoding="utf-8"), str(TABLES_PATH.name))


def load_conversion_tables(path: str | Path | None = None) -> ConversionTables:
    """The ART-35 tables from ``path`` (default: game/rules/conversions.toml)."""
    if path is None:
        return _default_tables()
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read the conversion tables {path}: {exc.strerror}") from None
    return parse_conversion_tables(text, str(path))


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def _faces(rolls: Sequence[int]) -> str:
    return ",".join(str(r) for r in rolls) if rolls else "none"


# ---------------------------------------------------------------------------
# BATTLESYSTEM


@dataclass(frozen=True)
class BattlesystemRingResult:
    """One ring of artillery on a BATTLESYSTEM unit: hits, armor checks, figures."""

    ring_damage: int
    hits: int
    armor_rating: int
    armor_rolls: tuple[int, ...]
    standing: int
    figures_removed: int
    carried: int
    account: str


def battlesystem_ring_damage(
    dice: DiceBase,
    ring_damage: int,
    armor_rating: int,
    hits_per_figure: int,
    carried: int = 0,
    figures: int | None = None,
    *,
    armor_modifiers: Iterable[Any] = (),
    weapon: str = "artillery",
    target: str = "the unit",
    tables: ConversionTables | None = None,
) -> BattlesystemRingResult:
    """ART-35: one ring of ``ring_damage`` on a BATTLESYSTEM unit.

    Each full 5-point group is a hit; one d10 armor check per hit, a roll >= the
    AR cancels it (BS-3); every full ``hits_per_figure`` removes a figure and
    the rest is carried on the unit's counter (BS-4). ``armor_modifiers`` are
    BS-8 modifiers the scenario wants on the AR (Decision: artillery uses the
    plain AR by default; cover against shells is ART-29/ART-30's business).
    """
    table = (tables or load_conversion_tables()).battlesystem
    hits = table.hits(ring_damage)
    ar = bs.modified_armor_rating(armor_rating, armor_modifiers)
    # Validate the BS-4 numbers before any die is rolled.
    bs.figures_removed_by_hits(0, hits_per_figure, carried, figures)
    rolls: tuple[int, ...] = ()
    standing = 0
    if hits:
        check = bs.armor_check(dice, hits, ar, purpose=f"{weapon} ring {ring_damage}: armor check")
        rolls, standing = check.rolls, check.standing
    removed, left = bs.figures_removed_by_hits(standing, hits_per_figure, carried, figures)
    head = f"{weapon} ring {ring_damage} on {target}: {_plural(hits, 'hit')}"
    if hits:
        verb = "stands" if standing == 1 else "stand"
        head += f", armor checks {_faces(rolls)} vs AR {ar} -> {_plural(standing, 'hit')} {verb}"
    else:
        head += f" (less than {table.group_size} points)"
    tail = f"; {_plural(removed, 'figure')} removed, {_plural(left, 'hit')} carried"
    if carried:
        tail += f" (with {carried} carried before)"
    return BattlesystemRingResult(
        ring_damage, hits, ar, rolls, standing, removed, left, head + tail
    )


@dataclass(frozen=True)
class BattleUnitRingResult:
    """``battlesystem_ring_damage`` applied to a ``BattleUnit`` (BS-5 removal)."""

    ring: BattlesystemRingResult
    removal: bs.CasualtyRemoval

    @property
    def unit(self) -> bs.BattleUnit:
        return self.removal.unit


def artillery_on_battle_unit(
    dice: DiceBase,
    ring_damage: int,
    unit: bs.BattleUnit,
    *,
    weapon: str = "artillery",
    preference: bs.RemovalPreference = "rear",
    armor_modifiers: Iterable[Any] = (),
    tables: ConversionTables | None = None,
) -> BattleUnitRingResult:
    """ART-35 on a ``BattleUnit``: its AR, hits per figure, carried hits and
    figures; the casualties leave by the owner's ``preference`` (BS-5)."""
    ring = battlesystem_ring_damage(
        dice,
        ring_damage,
        unit.armor_rating,
        unit.hits_per_figure,
        unit.carried_hits,
        unit.figures,
        armor_modifiers=armor_modifiers,
        weapon=weapon,
        target=unit.name or unit.unit_id,
        tables=tables,
    )
    removal = bs.take_hits(unit, ring.standing, preference)
    return BattleUnitRingResult(ring, removal)


@dataclass(frozen=True)
class RingOdds:
    """Exact odds of one ring on one unit: ``through`` is the hits standing
    (BATTLESYSTEM) or unsaved wounds (Warhammer); ``casualties`` the figures or
    models removed."""

    through: Distribution
    casualties: Distribution

    @property
    def expected_casualties(self) -> Fraction:
        return mean(self.casualties)

    @property
    def expected_through(self) -> Fraction:
        return mean(self.through)


def battlesystem_ring_odds(
    ring_damage: int,
    armor_rating: int,
    hits_per_figure: int,
    carried: int = 0,
    figures: int | None = None,
    *,
    armor_modifiers: Iterable[Any] = (),
    tables: ConversionTables | None = None,
) -> RingOdds:
    """Exact companion of ``battlesystem_ring_damage``: the hits are fixed, each
    stands with the BS-3 chance, figures follow BS-4."""
    table = (tables or load_conversion_tables()).battlesystem
    hits = table.hits(ring_damage)
    ar = bs.modified_armor_rating(armor_rating, armor_modifiers)
    standing = binomial(hits, bs.hit_stands_probability(ar))
    removed: Distribution = {}
    for k, p in standing.items():
        n, _ = bs.figures_removed_by_hits(k, hits_per_figure, carried, figures)
        removed[n] = removed.get(n, Fraction(0)) + p
    return RingOdds({k: p for k, p in standing.items() if p}, removed)


# ---------------------------------------------------------------------------
# Warhammer


@dataclass(frozen=True)
class WarhammerRingResult:
    """One ring of artillery on a Warhammer unit: the automatic hits through
    the Warhammer resolver (``shooting`` holds every roll), then models lost."""

    ring_damage: int
    hits: int
    strength: int
    shooting: wh.ShootingResult | None
    unsaved: int
    models_removed: int
    wounds_carried: int
    account: str


def _check_models(wounds_per_model: int, carried: int, models: int | None) -> None:
    for name, value, least in (("wounds_per_model", wounds_per_model, 1), ("carried", carried, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"{name} must be a whole number {least} or more, not {value!r}")
    if carried >= wounds_per_model:
        raise ValueError(
            f"carried wounds ({carried}) must be fewer than the wounds of one model "
            f"({wounds_per_model}); full wounds remove a model"
        )
    if models is not None and (
        isinstance(models, bool) or not isinstance(models, int) or models < 0
    ):
        raise ValueError(f"models must be a whole number 0 or more, not {models!r}")


def models_removed_by_wounds(
    unsaved: int, wounds_per_model: int = 1, carried: int = 0, models: int | None = None
) -> tuple[int, int]:
    """(models removed, wounds carried). Decision (the rules digest is silent):
    unsaved wounds remove whole models of ``wounds_per_model`` wounds, the rest
    stays on the unit; once every model is gone the excess is lost."""
    _check_models(wounds_per_model, carried, models)
    removed, left = divmod(unsaved + carried, wounds_per_model)
    if models is not None and removed >= models:
        return models, 0
    return removed, left


def warhammer_ring_damage(
    dice: DiceBase,
    ring_damage: int,
    toughness: int,
    armour: wh.Armour = "none",
    *,
    shield: bool = False,
    mount: bool = False,
    ward: int | None = None,
    wounds_per_model: int = 1,
    carried: int = 0,
    models: int | None = None,
    weapon: str = "artillery",
    target: str = "the unit",
    tables: ConversionTables | None = None,
) -> WarhammerRingResult:
    """ART-35: one ring of ``ring_damage`` on a Warhammer unit.

    Each full 5-point group is one automatic hit (WH-10) of Strength
    ``min(10, ring_damage // 5)``; the Warhammer resolver rolls to wound (WH-7),
    armour saves worsened by the Strength (WH-8) and ward saves (WH-9).
    """
    table = (tables or load_conversion_tables()).warhammer
    hits = table.hits(ring_damage)
    strength = table.strength(ring_damage)
    _check_models(wounds_per_model, carried, models)
    head = f"{weapon} ring {ring_damage} on {target}: "
    if hits == 0:
        removed, left = models_removed_by_wounds(0, wounds_per_model, carried, models)
        account = head + f"no hit (less than {table.group_size} points)"
        return WarhammerRingResult(ring_damage, 0, strength, None, 0, removed, left, account)
    shooting = wh.automatic_hits(
        dice,
        hits,
        strength,
        toughness,
        armour,
        shield=shield,
        mount=mount,
        ward=ward,
        shooter=f"{weapon} ring {ring_damage}",
        target=target,
    )
    removed, left = models_removed_by_wounds(shooting.unsaved, wounds_per_model, carried, models)
    lines = [head + f"{_plural(hits, 'hit')} of Strength {strength}"]
    # The Warhammer account's first line repeats who fires at whom.
    lines.extend(f"  {line.strip()}" for line in shooting.account[1:])
    outcome = f"  {_plural(removed, 'model')} removed"
    if wounds_per_model > 1:
        outcome += f", {_plural(left, 'wound')} carried"
    lines.append(outcome)
    return WarhammerRingResult(
        ring_damage, hits, strength, shooting, shooting.unsaved, removed, left, "\n".join(lines)
    )


def warhammer_ring_odds(
    ring_damage: int,
    toughness: int,
    armour: wh.Armour = "none",
    *,
    shield: bool = False,
    mount: bool = False,
    ward: int | None = None,
    wounds_per_model: int = 1,
    carried: int = 0,
    models: int | None = None,
    tables: ConversionTables | None = None,
) -> RingOdds:
    """Exact companion of ``warhammer_ring_damage`` (unsaved wounds and models)."""
    table = (tables or load_conversion_tables()).warhammer
    hits = table.hits(ring_damage)
    _check_models(wounds_per_model, carried, models)
    if hits == 0:
        unsaved: Distribution = {0: Fraction(1)}
    else:
        unsaved = wh.automatic_hits_distribution(
            hits,
            table.strength(ring_damage),
            toughness,
            armour,
            shield=shield,
            mount=mount,
            ward=ward,
        )
    removed: Distribution = {}
    for k, p in unsaved.items():
        n, _ = models_removed_by_wounds(k, wounds_per_model, carried, models)
        removed[n] = removed.get(n, Fraction(0)) + p
    return RingOdds(
        {k: p for k, p in unsaved.items() if p}, {k: p for k, p in removed.items() if p}
    )


# ---------------------------------------------------------------------------
# Toy soldiers


@dataclass(frozen=True)
class FigureHit:
    """One toy soldier under the shell: its chance, its roll (None: no roll,
    it could not be hurt) and the TS-7 result."""

    name: str
    armour: int
    chance: int
    roll: int | None
    result: ts.VirtualResult


@dataclass(frozen=True)
class ToySoldierRingResult:
    """One ring of artillery on a hex of toy soldiers."""

    ring_damage: int
    distance: int
    figures: tuple[FigureHit, ...]
    warriors_after: tuple[ts.Warrior, ...]
    guns_after: tuple[ts.Gun, ...]
    guns_disabled: tuple[str, ...]
    account: str

    @property
    def killed(self) -> int:
        return sum(1 for f in self.figures if f.result == "killed")

    @property
    def wounded(self) -> int:
        return sum(1 for f in self.figures if f.result == "wounded")


def _figure_entries(figures: Sequence[ts.Warrior | int]) -> list[tuple[str, int]]:
    out = []
    for index, fig in enumerate(figures, start=1):
        if isinstance(fig, ts.Warrior):
            if not fig.on_board:
                raise ValueError(f"{fig.name} is {fig.status} and not on the board to be hit")
            out.append((fig.name, fig.armour))
        elif isinstance(fig, int) and not isinstance(fig, bool) and fig >= 0:
            out.append((f"figure {index}", fig))
        else:
            raise ValueError(
                f"figure {index}: give a Warrior or its armour (a whole number 0 or more), "
                f"not {fig!r}"
            )
    return out


def toysoldier_ring_damage(
    dice: DiceBase,
    ring_damage: int,
    figures: Sequence[ts.Warrior | int],
    guns: Sequence[ts.Gun] = (),
    *,
    distance: int = 0,
    weapon: str = "artillery",
    split: ts.Split | None = None,
    tables: ConversionTables | None = None,
) -> ToySoldierRingResult:
    """ART-35: one ring of ``ring_damage`` on the toy soldiers of one hex,
    ``distance`` hexes from the hit hex.

    Every figure (a ``Warrior`` or just its armour) is hit on a d6 <=
    ``ring_damage // 5 - armour`` and killed or wounded by the halves of TS-7
    (``split`` overrides the table's). A figure that cannot be hurt rolls
    nothing. Guns in the hit hex are disabled (TS-9); guns farther out are
    untouched.
    """
    table = (tables or load_conversion_tables()).toysoldiers
    split = table.split if split is None else split
    if split not in ts.SPLITS:
        raise ValueError(f"split must be 'example' or 'text', not {split!r}")
    if isinstance(distance, bool) or not isinstance(distance, int) or distance < 0:
        raise ValueError(f"distance from the hit hex is 0 or more hexes, not {distance!r}")
    entries = _figure_entries(figures)
    base = table.base_chance(ring_damage)
    hits: list[FigureHit] = []
    parts: list[str] = []
    for name, armour in entries:
        chance = table.chance(ring_damage, armour)
        if chance == 0:
            hits.append(FigureHit(name, armour, 0, None, "miss"))
            parts.append(f"{name} (armour {armour}) cannot be hurt")
            continue
        roll = dice.d6(f"{weapon} ring {ring_damage} on {name}")
        result = ts.virtual_hit_result(chance, roll, split)
        hits.append(FigureHit(name, armour, chance, roll, result))
        parts.append(f"{name} (armour {armour}) needs {chance} or less, d6 {roll}: {result}")
    warriors_after = tuple(
        replace(fig, status=h.result) if h.result != "miss" else fig
        for fig, h in zip(figures, hits, strict=True)
        if isinstance(fig, ts.Warrior)
    )
    guns_after: list[ts.Gun] = []
    disabled: list[str] = []
    for gun in guns:
        # TS-9: a ready gun, or one under repair, goes (back) on its side.
        if distance <= table.gun_disabled_within and gun.status in ("ready", "repairing"):
            guns_after.append(ts.disable_gun(gun))
            disabled.append(gun.name)
        else:
            guns_after.append(gun)
    where = "hit hex" if distance == 0 else f"{distance} from the hit hex"
    account = f"{weapon} ring {ring_damage} ({where}): chance {base} - armour"
    account += "; " + "; ".join(parts) if parts else "; no figures"
    if disabled:
        account += "; disabled: " + ", ".join(disabled)
    return ToySoldierRingResult(
        ring_damage,
        distance,
        tuple(hits),
        warriors_after,
        tuple(guns_after),
        tuple(disabled),
        account,
    )


@dataclass(frozen=True)
class ToySoldierRingOdds:
    """Exact odds of one ring on a hex of toy soldiers: the joint distribution
    of (killed, wounded) and each figure's own odds."""

    joint: dict[tuple[int, int], Fraction]
    per_figure: tuple[ts.ShotOdds, ...]

    @property
    def killed(self) -> Distribution:
        out: Distribution = {}
        for (k, _), p in self.joint.items():
            out[k] = out.get(k, Fraction(0)) + p
        return out

    @property
    def wounded(self) -> Distribution:
        out: Distribution = {}
        for (_, w), p in self.joint.items():
            out[w] = out.get(w, Fraction(0)) + p
        return out

    @property
    def expected_killed(self) -> Fraction:
        return sum((o.killed for o in self.per_figure), Fraction(0))

    @property
    def expected_wounded(self) -> Fraction:
        return sum((o.wounded for o in self.per_figure), Fraction(0))


def toysoldier_ring_odds(
    ring_damage: int,
    armours: Sequence[int],
    *,
    split: ts.Split | None = None,
    tables: ConversionTables | None = None,
) -> ToySoldierRingOdds:
    """Exact companion of ``toysoldier_ring_damage`` (figures given by armour)."""
    table = (tables or load_conversion_tables()).toysoldiers
    split = table.split if split is None else split
    per = tuple(ts.shot_odds(table.chance(ring_damage, a), split) for a in armours)
    joint: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for odds in per:
        step = {(1, 0): odds.killed, (0, 1): odds.wounded, (0, 0): odds.miss}
        nxt: dict[tuple[int, int], Fraction] = {}
        for (k, w), p in joint.items():
            for (dk, dw), q in step.items():
                if q:
                    key = (k + dk, w + dw)
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
        joint = nxt
    return ToySoldierRingOdds(joint, per)


# ---------------------------------------------------------------------------
# The tables in print


def conversion_rows(
    system: str,
    ring_damages: Sequence[int] = STANDARD_RING_DAMAGES,
    tables: ConversionTables | None = None,
) -> list[tuple[int, ...]]:
    """The ART-35 table of one system for the given ring damages:
    battlesystem (ring, hits); warhammer (ring, hits, Strength); toysoldiers
    (ring, chance before armour)."""
    t = tables or load_conversion_tables()
    if system == "battlesystem":
        return [(d, t.battlesystem.hits(d)) for d in ring_damages]
    if system == "warhammer":
        return [(d, t.warhammer.hits(d), t.warhammer.strength(d)) for d in ring_damages]
    if system == "toysoldiers":
        return [(d, t.toysoldiers.base_chance(d)) for d in ring_damages]
    raise ValueError(f"no conversion table for {system!r} (battlesystem, warhammer, toysoldiers)")


def conversion_markdown(
    system: str,
    ring_damages: Sequence[int] = STANDARD_RING_DAMAGES,
    tables: ConversionTables | None = None,
) -> str:
    """The table as docs/artillery-conversions.md prints it."""
    heads = {
        "battlesystem": ("Ring damage", "Hits"),
        "warhammer": ("Ring damage", "Hits", "Strength"),
        "toysoldiers": ("Ring damage", "Chance before armour"),
    }
    rows = conversion_rows(system, ring_damages, tables)
    head = heads[system]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines.extend("| " + " | ".join(str(v) for v in row) + " |" for row in rows)
    return "\n".join(lines)
