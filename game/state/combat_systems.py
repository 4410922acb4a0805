"""Weapon attacks of the BATTLESYSTEM, Warhammer and toy-soldier units (ART-35).

Each system fights its own kind through its own resolver (``game.rules``);
artillery hits every system through the ART-35 conversions. This module
registers three ``AttackRules`` into ``game.state.combat.SYSTEM_RULES``, two
phase openings (``PHASE_OPENINGS``) and the toy-soldier gun actions
(``GUN_ACTIONS``, ``GUN_ACTION_OPTIONS``); ``game.state.combat`` imports it,
so the rules are always registered.

Commands (``Attack(side, unit, target, weapon)``):

* BATTLESYSTEM: ``weapon="missile"``, a volley (BS-13 .. BS-19);
  ``weapon="melee"``, one melee round against an adjacent regiment, both
  striking (BS-9 .. BS-12).
* Warhammer: ``"shooting"`` (WH-1 .. WH-10); ``"close combat"``, one round
  against an adjacent unit, the combat result (WHC-1) and a break test.
* Toy soldiers: ``"shot"``, one virtual shot of the unit's next shooter,
  paid from the side's shooting bonus (TS-1 .. TS-7). ``GunAction`` with
  ``"crew"``, ``"repair"`` or ``"capture"`` (TS-9 .. TS-11).

Every attack is checked completely before any die is rolled; a refused one
raises ``IllegalCommand`` and changes nothing. docs/engine-systems.md gives
every decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from game.artillery.damage import WarhammerTroops
from game.board.los import Sight, line_of_sight, line_steps
from game.board.movement import entry_cost
from game.board.terrain import BUILDING, CLEAR, HEAVY_WOODS, LIGHT_WOODS, TERRAIN_NAMES
from game.hexmath import Hex, distance, line, neighbor, opposite, side_toward
from game.rules import battlesystem as bs
from game.rules import toysoldiers as ts
from game.rules import warhammer as wh
from game.rules.conversions import models_removed_by_wounds
from game.rules.core import Modifier
from game.state import moving, systems
from game.state.board import log_event
from game.state.combat import (
    ANSWERS,
    GUN_ACTION_OPTIONS,
    GUN_ACTIONS,
    MOVE_ENDINGS,
    PHASE_OPENINGS,
    SYSTEM_RULES,
    AttackRules,
    ask,
)
from game.state.commands import IllegalCommand
from game.state.model import GameState, Unit

BATTLESYSTEM = "battlesystem"
WARHAMMER = "warhammer"
TOY_SOLDIERS = "toysoldiers"

# --- the board, as the three systems read it -----------------------------------------------


def _level(state: GameState, h: Hex) -> int:
    i = state.area.index_of(h)
    return int(state.area.level[i]) if i >= 0 else 0


def _terrain(state: GameState, h: Hex) -> int:
    i = state.area.index_of(h)
    return int(state.area.terrain[i]) if i >= 0 else CLEAR


def _building_height(state: GameState, h: Hex) -> int:
    i = state.area.index_of(h)
    if i < 0 or int(state.area.terrain[i]) != BUILDING:
        return 0
    return int(state.area.terrain_height[i])


def _top(state: GameState, unit: Unit) -> int:
    """The level of the top of a unit's counter: its hex's ground level plus its height."""
    assert unit.hex is not None
    return _level(state, unit.hex) + unit.height


def _foes(state: GameState, unit: Unit, system: str) -> list[Unit]:
    """Enemy units of ``system`` on the board that ``unit``'s side can see (not hidden)."""
    return [
        u
        for u in state.living(state.other(unit.side))
        if u.hex is not None and not u.hidden and u.system == system
    ]


def _engaged(state: GameState, unit: Unit) -> list[Unit]:
    """Enemies of the unit's own system whose counters stand next to its counter: the
    units it is in melee or close combat with (contact is counter adjacency)."""
    assert unit.hex is not None
    return [
        u
        for u in state.living(state.other(unit.side))
        if u.hex is not None and u.system == unit.system and distance(u.hex, unit.hex) == 1
    ]


# --- contact: who charged whom, who fights whom (BS-12, WHC-1) ------------------------------


def _note_charges(state: GameState, unit: Unit, start: Hex | None) -> None:
    """A BATTLESYSTEM or Warhammer unit whose move brings it into contact with an enemy
    of its own system charges that enemy (BS-12, WHC-1). The charge is a fact of the
    move, the charger's whoever strikes first; it is made once: an enemy the unit
    stood next to before moving, or is already fighting, is not charged."""
    if unit.system not in (BATTLESYSTEM, WARHAMMER) or unit.hex is None or unit.hex == start:
        return
    _part_combats(state, unit)
    met = _newly_met(state, unit, start)
    if unit.system == BATTLESYSTEM and len(met) > 1:
        # BS-12: the charge has one declared target; a second enemy the charger happens
        # to touch "в конце своей ураганной атаки" is not charged. Its player says which.
        names = ", ".join(foe.name for foe in met)
        ask(
            state,
            unit.side,
            CHARGE_TARGET,
            f"{unit.name} reaches {names}: which one did it charge (BS-12)?",
            [_foe_label(state, foe) for foe in met],
            unit.id,
        )
        return
    for foe in met:
        _charge(state, unit, foe)


CHARGE_TARGET = "charge target"


def _newly_met(state: GameState, unit: Unit, start: Hex | None) -> list[Unit]:
    """The enemies the unit's move brought it into contact with: not one it stood next
    to before moving, is already fighting or has charged."""
    met = []
    for foe in _engaged(state, unit):
        assert foe.hex is not None
        if foe.id in unit.in_combat_with or foe.id in unit.charged:
            continue
        if start is not None and distance(foe.hex, start) == 1:
            continue
        met.append(foe)
    return met


def _foe_label(state: GameState, foe: Unit) -> str:
    """An enemy as a choice: its name, with its id when two of its side share the name."""
    twins = sum(1 for other in state.living(foe.side) if other.name == foe.name)
    return foe.name if twins == 1 else f"{foe.name} ({foe.id})"


def _charge(state: GameState, unit: Unit, foe: Unit) -> None:
    unit.charged.append(foe.id)
    rule = "BS-12" if unit.system == BATTLESYSTEM else "WHC-1"
    log_event(
        state,
        "charge",
        f"{unit.name} charges {foe.name} ({rule})",
        data={"unit": unit.id, "target": foe.id},
    )
    _ask_reaction(state, unit, foe)


def _declare_charge(state: GameState, question: dict[str, Any], choice: str) -> None:
    """BS-12: the charger's player named the enemy it charged among those it reached."""
    charger = state.units[question["unit"]]
    foe = next(foe for foe in _engaged(state, charger) if _foe_label(state, foe) == choice)
    _charge(state, charger, foe)


SET_SPEARS, STAND_AND_SHOOT, HOLD = "set spears", "stand and shoot", "hold"


def _ask_reaction(state: GameState, charger: Unit, charged: Unit) -> None:
    """The charged unit's player chooses its reaction when the charge arrives: a
    BATTLESYSTEM regiment with spears, pikes or polearms charged in front may set
    them against the charge (BS-12: "если играющий ими объявил"); a Warhammer unit
    with missiles that can fire at the charger may stand and shoot (WH-3)."""
    assert charger.hex is not None
    if charged.system == BATTLESYSTEM:
        weapon = battle_unit(charged).weapon
        if weapon not in bs.REACH_WEAPONS or facing_side(charged, charger.hex) != "front":
            return
        ask(
            state,
            charged.side,
            SET_SPEARS,
            f"{charger.name} charges {charged.name} in front: set its {weapon}s against the "
            "charge, x2 AD against the charger (BS-12)?",
            [SET_SPEARS, HOLD],
            charged.id,
            charger.id,
        )
    elif charged.system == WARHAMMER:
        if isinstance(shooting_plan(state, charged, charger, stand_and_shoot=True), str):
            return
        ask(
            state,
            charged.side,
            STAND_AND_SHOOT,
            f"{charger.name} charges {charged.name}: stand and shoot at it, -1 to hit (WH-3)?",
            [STAND_AND_SHOOT, HOLD],
            charged.id,
            charger.id,
        )


def _react(state: GameState, question: dict[str, Any], choice: str) -> None:
    """A charged unit's answer: recorded for this turn's first round (set spears), or
    carried out at once (stand and shoot)."""
    charged, charger = state.units[question["unit"]], state.units[question["about"]]
    charged.reactions[charger.id] = choice
    if choice == STAND_AND_SHOOT:
        _shoot(state, charged, charger, stand_and_shoot=True)
        return
    text = (
        f"{charged.name} sets its spears against the charge of {charger.name} (BS-12)"
        if choice == SET_SPEARS
        else f"{charged.name} holds against the charge of {charger.name}"
    )
    log_event(
        state, "reaction", text, data={"unit": charged.id, "charger": charger.id, "choice": choice}
    )


def charger_of(unit: Unit, target: Unit) -> Unit | None:
    """Which of the two charged the other this turn (BS-12, WHC-1), if either did."""
    if target.id in unit.charged:
        return unit
    if unit.id in target.charged:
        return target
    return None


def _fought(unit: Unit, target: Unit, weapon: str) -> None:
    """Bookkeeping of a hand-to-hand round: one round per unit and per pair each turn,
    and the two are in combat until they part (WHC-1)."""
    unit.attacked = True  # ART-18
    unit.weapons_fired += [weapon, f"{weapon}:{target.id}"]
    target.weapons_fired.append(f"{weapon}:{unit.id}")
    for a, b in ((unit, target), (target, unit)):
        if b.id not in a.in_combat_with:
            a.in_combat_with.append(b.id)


def _part_combats(state: GameState, *units: Unit) -> None:
    """Units (all, when none is named) no longer next to an enemy they fought are out
    of that combat, on both sides: meeting it again is a new charge. Run after each
    move and at the start of the attack phase."""
    for unit in units or state.living():
        for foe_id in list(unit.in_combat_with):
            foe = state.units.get(foe_id)
            if (
                foe is None
                or foe.destroyed
                or foe.hex is None
                or unit.hex is None
                or distance(foe.hex, unit.hex) != 1
            ):
                unit.in_combat_with.remove(foe_id)
                if foe is not None and unit.id in foe.in_combat_with:
                    foe.in_combat_with.remove(unit.id)


def facing_side(unit: Unit, attacker_hex: Hex) -> str:
    """Which side of ``unit``'s counter an attacker in ``attacker_hex`` meets: front
    within 45 degrees either side of its facing (the arc of BS-13), rear within 45
    degrees of its back, flank otherwise. Next door that is one front hex, one rear
    hex and four flank hexes."""
    assert unit.hex is not None
    if bs.in_front_arc(unit.hex, unit.facing, attacker_hex):
        return "front"
    if bs.in_front_arc(unit.hex, opposite(unit.facing), attacker_hex):
        return "rear"
    return "flank"


def _mark_destroyed(units: list[Unit], lines: list[str]) -> list[str]:
    """Mark units with nothing left as destroyed; the ids newly destroyed."""
    gone = []
    for u in units:
        if not u.destroyed and systems.is_destroyed(u):
            u.destroyed = True
            gone.append(u.id)
            lines.append(f"{u.name} is destroyed")
    return gone


def _frozen(data: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A unit's plain damage data as a hashable key: the resolvers' frozen values read
    from equal data are equal, so each is read once (``lru_cache``)."""
    return tuple((k, tuple(v) if type(v) is list else v) for k, v in data.items())


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def _inches(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):g}"


# =============================================================================================
# BATTLESYSTEM (BS-1 .. BS-20)
# =============================================================================================

MISSILE = "missile"
MAGICAL = "magical missile"
MELEE = "melee"
BATTLESYSTEM_WEAPONS = (MISSILE, MAGICAL, MELEE)
# BS-11: "не стоящих выше на склоне обычного холма" - a step of one level between
# two counters is an ordinary hill slope; the higher-ground modifiers need a steeper
# edge (the lip of a gorge or an escarpment): this many levels or more.
HIGHER_GROUND_STEP = 2
# BS-5: the owner removes casualties from the rear ranks (rightmost file first), so a
# regiment stays a compact block and its counter's figure is the last to fall.
REMOVAL = "rear"
LARGE_KINDS = frozenset({"mech", "vehicle", "monster", "war_machine", "gun"})


def counter_cell(regiment: bs.BattleUnit) -> bs.Cell:
    """The figure that stands on the regiment's counter: the middle figure of its
    front rank (of the foremost rank that still has figures)."""
    cells = regiment.figure_cells()
    if not cells:
        return (0, (regiment.width - 1) // 2)
    rank = cells[0][0]
    files = [f for r, f in cells if r == rank]
    return rank, files[(len(files) - 1) // 2]


def battle_unit(unit: Unit) -> bs.BattleUnit:
    """The regiment as its resolver sees it, standing where its counter stands: the
    middle figure of its front rank on the counter's hex, the front rank running
    across the facing to both sides of it and the ranks behind, facing the
    counter's facing (BS-13 measures range from that figure)."""
    if unit.damage.get("kind") != "battlesystem":
        raise IllegalCommand(f"{unit.name} is not a BATTLESYSTEM regiment")
    assert unit.hex is not None
    return _placed(_frozen(unit.damage["unit"]), unit.hex, unit.facing)


@lru_cache(maxsize=4096)
def _placed(data: tuple[tuple[str, Any], ...], counter: Hex, facing: int) -> bs.BattleUnit:
    at_origin = replace(bs.BattleUnit.from_dict(dict(data)), anchor=Hex(0, 0), facing=facing)
    offset = at_origin.cell_hex(counter_cell(at_origin))
    return replace(at_origin, anchor=Hex(counter.q - offset.q, counter.r - offset.r))


def _size(unit: Unit) -> str:
    """BS-16: small, man-sized or large, for looking over a unit in the way."""
    if unit.system == BATTLESYSTEM:
        return str(unit.profile.get("size", "man"))
    return "large" if unit.kind in LARGE_KINDS else "man"


class _SightLines:
    """BS-15 .. BS-17: what lies on each firing figure's line to the target's counter.

    The lines are MAP-5's exact hex lines (``game.board.los.line_steps``, the
    vectorized ``line_of_sight`` path), drawn for all the figures of the first two
    ranks at once."""

    def __init__(
        self, state: GameState, shooter: Unit, target: Unit, aim: Hex | None = None
    ) -> None:
        self.state = state
        self.shooter = shooter
        self.target = target
        # The lines run to the target's counter, or to one of its figures (BS-15).
        assert target.hex is not None
        self.aim = aim or target.hex
        self.seen: dict[Hex, bs.SightLine] = {}

    def __call__(self, figure_hex: Hex, figures: list[Hex]) -> bs.SightLine:
        if figure_hex not in self.seen:
            self._draw([figure_hex, *(h for h in figures if h not in self.seen)])
        return self.seen[figure_hex]

    def _draw(self, figures: list[Hex]) -> None:
        state, shooter, target = self.state, self.shooter, self.target
        area = state.area
        aim = self.aim
        figures = list(dict.fromkeys(figures))
        fq = np.array([h.q for h in figures], dtype=np.int32)
        fr = np.array([h.r for h in figures], dtype=np.int32)
        longest = max(distance(h, aim) for h in figures)
        q, r, valid = line_steps(aim.q - fq, aim.r - fr, max(1, longest - 1))
        hq, hr = q + fq[:, None], r + fr[:, None]
        idx = area.indices_of(hq, hr)
        inside = idx >= 0
        at = np.where(inside, idx, 0)
        level = np.where(inside, area.level[at], 0)
        terrain = np.where(inside, area.terrain[at], CLEAR)
        building_top = np.where(terrain == BUILDING, level + area.terrain_height[at], level)
        eyes = np.array([_level(state, h) for h in figures]) + shooter.height
        above = np.maximum(eyes, _level(state, aim) + target.height)[:, None]
        # A hill or building higher than both ends blocks, as in MAP-5 (BS-15).
        hill = (valid & (level > above)).any(axis=1)
        wall = (valid & (building_top > above)).any(axis=1)
        dense = (valid & (terrain == HEAVY_WOODS)).sum(axis=1)
        light = (valid & (terrain == LIGHT_WOODS)).sum(axis=1)
        # Counters in the way: every unit but the two, hidden enemies excepted (the
        # shooter cannot know of them, ART-4).
        crossing: list[tuple[Unit, np.ndarray]] = []
        for other in state.living():
            if (
                other.hex is None
                or other.id in (shooter.id, target.id)
                or (other.hidden and other.side != shooter.side)
            ):
                continue
            on_line = (valid & (hq == other.hex.q) & (hr == other.hex.r)).any(axis=1)
            if on_line.any():
                crossing.append((other, on_line))
        high = _level(state, aim)
        for i, h in enumerate(figures):
            if hill[i]:
                self.seen[h] = bs.SightLine(hill_between=True)
                continue
            if wall[i]:
                self.seen[h] = bs.SightLine(wall_between=True)
                continue
            in_the_way = tuple(
                bs.InterveningUnit(
                    friendly=other.side == shooter.side,
                    size=_size(other),
                    distance_to_shooter=Fraction(distance(h, other.hex)),  # type: ignore[arg-type]
                    distance_to_target=Fraction(distance(other.hex, aim)),  # type: ignore[arg-type]
                )
                for other, on_line in crossing
                if on_line[i]
            )
            self.seen[h] = bs.SightLine(
                shooter_on_high_ground=_level(state, h) > high,
                dense_woods=Fraction(int(dense[i])),
                light_woods=Fraction(int(light[i])),
                units_between=in_the_way,
            )


@dataclass(frozen=True)
class Volley:
    """A volley as it will be loosed (BS-13 .. BS-19): one fire plan per group of
    figures whose lines meet the same armour modifiers. When woods screen only some
    figures' lines, those figures roll their AD as a group of their own against the
    screened AR (BS-3, BS-19: a modifier that touches only some figures applies to
    their dice alone)."""

    groups: tuple[bs.FirePlan, ...]

    @property
    def band(self) -> str | None:
        return self.groups[0].band

    @property
    def distance(self) -> Fraction:
        return self.groups[0].distance

    @property
    def direct(self) -> tuple[bs.Cell, ...]:
        return tuple(c for g in self.groups for c in g.direct)

    @property
    def indirect(self) -> tuple[bs.Cell, ...]:
        return tuple(c for g in self.groups for c in g.indirect)

    @property
    def dice_count(self) -> int:
        return sum(g.dice_count for g in self.groups)


def magical_plan(state: GameState, unit: Unit, target: Unit) -> Volley | str:
    """BS-14: a volley of the regiment's magical missiles (their own attack dice,
    ``magical_ad``, else its ordinary ones), while it has magical volleys left."""
    return missile_plan(state, unit, target, magical=True)


def missile_plan(
    state: GameState, unit: Unit, target: Unit, *, magical: bool = False
) -> Volley | str:
    """BS-13 .. BS-19: the volley ``unit`` could loose at ``target`` now, or why not."""
    assert unit.hex is not None and target.hex is not None
    if unit.profile.get("missile_ranges") is None:
        return f"{unit.name} has no missile weapons"
    if MISSILE in unit.weapons_fired:
        return f"{unit.name} has already loosed its volley this turn"
    if magical and not unit.damage["unit"].get("magical_volleys", 0):
        return f"{unit.name} has no magical volleys left (BS-14)"
    ranges = unit.profile["missile_ranges"]
    # A cheap bound first: no figure of either regiment stands farther from its
    # counter than its frontage plus its depth.
    spread = sum(
        len(u.damage["unit"]["ranks"][0]) + len(u.damage["unit"]["ranks"]) for u in (unit, target)
    )
    if distance(unit.hex, target.hex) - spread > int(ranges[-1]) + bs.MAX_ELEVATION_BONUS:
        return (
            f'{unit.name} cannot fire at {target.name}: out of range (long range is {ranges[-1]}")'
        )
    shooter, aimed = _shooting_regiment(unit, magical), battle_unit(target)
    lines = _SightLines(state, unit, target)
    front_ranks = [h for (rank, _), h in shooter.figure_hexes().items() if rank <= 1]

    def sight_of(cell: bs.Cell) -> bs.SightLine:
        return lines(shooter.cell_hex(cell), front_ranks)

    in_woods = _terrain(state, target.hex) in (LIGHT_WOODS, HEAVY_WOODS)
    height = _level(state, unit.hex) - _level(state, target.hex)
    cover = "wall" if _terrain(state, target.hex) == BUILDING else None
    in_melee = bool(_engaged(state, unit))
    friends_fighting = any(u.side == unit.side for u in _engaged(state, target))

    def plan(sight: Callable[[bs.Cell], bs.SightLine]) -> bs.FirePlan:
        return bs.plan_missile_fire(
            shooter,
            aimed,
            sight_of=sight,
            height_difference=height,
            shooter_in_melee=in_melee,
            target_in_melee_with_friend=friends_fighting,
            screened=in_woods,
            cover=cover,
            magical=magical,
        )

    def only(group: set[bs.Cell]) -> Callable[[bs.Cell], bs.SightLine]:
        """The lines of ``group``'s figures; the others' blocked (they fire apart)."""
        return lambda cell: sight_of(cell) if cell in group else bs.SightLine(wall_between=True)

    whole = plan(sight_of)
    if not whole.allowed:
        return f"{unit.name} cannot fire at {target.name}: {whole.reason}"
    firing = (*whole.direct, *whole.indirect)
    screened = {c for c in firing if bs.sight(sight_of(c), shooter_size=shooter.size).screened}
    if in_woods or not screened or len(screened) == len(firing):
        return Volley((whole,))
    clear = {c for c in firing if c not in screened}
    return Volley(bs.share_missile_dice((plan(only(clear)), plan(only(screened)))))


def _shooting_regiment(unit: Unit, magical: bool) -> bs.BattleUnit:
    """The regiment as it shoots: with its magical missiles' attack dice when it
    looses a magical volley (BS-14: before and after, its ordinary weapons)."""
    regiment = battle_unit(unit)
    if magical and unit.profile.get("magical_ad"):
        return replace(regiment, attack_dice=str(unit.profile["magical_ad"]))
    return regiment


def figures_in_sight(state: GameState, unit: Unit, target: Unit, volley: Volley) -> list[bs.Cell]:
    """BS-15: the target's figures that at least one firing figure can see; casualties
    come only from these, and hits beyond them are lost."""
    shooter, aimed = battle_unit(unit), battle_unit(target)
    firing = [shooter.cell_hex(c) for c in (*volley.direct, *volley.indirect)]
    seen = []
    for cell, h in aimed.figure_hexes().items():
        lines = _SightLines(state, unit, target, h)
        if any(bs.sight(lines(f, firing), shooter_size=shooter.size).visible for f in firing):
            seen.append(cell)
    return seen


def _casualty_text(name: str, casualties: bs.CasualtyRemoval | None, before: int) -> str:
    if casualties is None:
        return f"{name}: no hits"
    after = casualties.unit
    text = (
        f"{name}: {_plural(len(casualties.removed), 'figure')} removed "
        f"({before} -> {after.figures}), {_plural(after.carried_hits, 'hit')} carried (BS-4)"
    )
    if casualties.hits_lost:
        text += f", {casualties.hits_lost} lost"
    return text


def _magical_volley(state: GameState, unit: Unit, target: Unit) -> None:
    _volley(state, unit, target, magical=True)


def _volley(state: GameState, unit: Unit, target: Unit, *, magical: bool = False) -> None:
    plan = missile_plan(state, unit, target, magical=magical)
    if isinstance(plan, str):
        raise IllegalCommand(plan)
    shooter, aimed = _shooting_regiment(unit, magical), battle_unit(target)
    in_sight = figures_in_sight(state, unit, target, plan)
    result = bs.resolve_grouped_fire(
        state.dice, plan.groups, shooter, aimed, in_sight=in_sight, removal=REMOVAL
    )
    # The magical missiles' dice were for this volley only (BS-14).
    systems.store_damage(unit, replace(result.shooter, attack_dice=battle_unit(unit).attack_dice))
    systems.store_damage(target, result.target)
    unit.attacked = True  # ART-18
    unit.weapons_fired.append(MISSILE)
    who = _plural(len(plan.direct), "figure") + " direct"
    if plan.indirect:
        who += f", {len(plan.indirect)} indirect over friends (BS-17)"
    what = "a volley"
    if magical:
        left = result.shooter.magical_volleys
        what = f"a magical volley ({_plural(left, 'magical volley')} left, BS-14)"
    lines = [
        f"{unit.name} looses {what} at {target.name}: {who}, {plan.band} range "
        f'({_inches(plan.distance)}"), {plan.dice_count} AD (BS-18)',
    ]
    for group, strike in zip(plan.groups, result.strikes, strict=True):
        assert group.armor is not None
        head = "  "
        if len(plan.groups) > 1:
            screened = any(m.value == -3 for m in group.armor.modifiers)
            what = "screened by woods" if screened else "with clear lines"
            lines.append(
                f"  {_plural(len(group.direct) + len(group.indirect), 'figure')} {what}: "
                f"{group.dice_count} AD (BS-19)"
            )
            head = "    "
        lines += [f"{head}{strike.roll}", f"{head}{strike.check} [{group.armor.breakdown()}]"]
    if len(in_sight) < aimed.figures:
        lines.append(
            f"  {_plural(len(in_sight), 'figure')} of {target.name} in sight: casualties "
            "only among them, further hits lost (BS-15)"
        )
    lines.append(f"  {_casualty_text(target.name, result.casualties, aimed.figures)}")
    gone = _mark_destroyed([target], lines)
    log_event(
        state,
        "attack",
        "\n".join(lines),
        data={
            "attacker": unit.id,
            "target": target.id,
            "weapon": MAGICAL if magical else MISSILE,
            "dice": plan.dice_count,
            # What the rolls were read against, so each volley can be checked again.
            "groups": [
                {"dice": s.dice_count, "sides": list(s.roll.sides), "ar": s.check.armor_rating}
                for s in result.strikes
            ],
            "hits_per_figure": aimed.hits_per_figure,
            "carried": aimed.carried_hits,
            "hits": sum(s.roll.hits for s in result.strikes),
            "standing": sum(s.standing for s in result.strikes),
            "in_sight": len(in_sight),
            "removed": len(result.casualties.removed),
            "destroyed": gone,
        },
        rolls=state.dice.take_records(),
    )


@dataclass(frozen=True)
class MeleePlan:
    """One melee round as it will be fought: both sides with their BS-11 armour
    modifiers and BS-12 multipliers, the BS-10 advantage, and notes for the log."""

    attacker: bs.MeleeSide
    defender: bs.MeleeSide
    advantage: str | None
    notes: tuple[str, ...]


def _contact_refusal(
    unit: Unit, target: Unit, weapon: str, fight: str, who: str, started: str
) -> str | None:
    """Why ``unit`` cannot start a hand-to-hand round (``weapon``) with ``target``:
    the counters must stand side by side, one round started per unit and one per
    pair each turn; None when it can."""
    assert unit.hex is not None and target.hex is not None
    if distance(unit.hex, target.hex) != 1:
        return (
            f"{unit.name} is not in contact with {target.name}: {fight} is fought between "
            f"{who} whose counters stand side by side"
        )
    if weapon in unit.weapons_fired:
        return f"{unit.name} has already {started} this turn"
    if f"{weapon}:{target.id}" in unit.weapons_fired:
        return f"{unit.name} and {target.name} have already fought their {fight} round this turn"
    return None


def _on_preferred_terrain(state: GameState, unit: Unit) -> bool:
    """BS-11: the regiment stands on terrain its creatures prefer (-2 AR): its
    counter's hex is of a terrain named in the profile's ``preferred_terrain``."""
    assert unit.hex is not None
    preferred = unit.profile.get("preferred_terrain") or ()
    return TERRAIN_NAMES[_terrain(state, unit.hex)] in preferred


def melee_plan(state: GameState, unit: Unit, target: Unit) -> MeleePlan | str:
    """BS-9 .. BS-12: the melee round ``unit`` could start against ``target``, or why not."""
    refusal = _contact_refusal(unit, target, MELEE, "melee", "regiments", "led a melee")
    if refusal:
        return refusal
    a, b = battle_unit(unit), battle_unit(target)
    attackers = bs.melee_attackers(a, bs.contact_cells(a, b))
    if attackers.base_dice == 0:
        return (
            f"no figure of {unit.name} can strike {target.name}: routed units and figures "
            "that fired this turn do not melee (BS-9)"
        )
    hit_a = facing_side(unit, target.hex)  # where the defender strikes the attacker
    hit_b = facing_side(target, unit.hex)  # where the attacker strikes the defender
    level_a, level_b = _level(state, unit.hex), _level(state, target.hex)
    cover = BUILDING in (_terrain(state, unit.hex), _terrain(state, target.hex))
    # BS-12: the regiment that moved into contact this turn charged, whichever of the
    # two starts the round; the charge counts in the first round against this enemy.
    charger = charger_of(unit, target)
    a_charges = charger is unit
    b_charges = charger is target
    # Spears set against the charge, by the player's choice when it came, meet a
    # charger that hits their front (BS-12).
    a_braced = b_charges and hit_a == "front" and unit.reactions.get(target.id) == SET_SPEARS
    b_braced = a_charges and hit_b == "front" and target.reactions.get(unit.id) == SET_SPEARS
    notes: list[str] = []
    for who, regiment in ((unit, a), (target, b)):
        if charger is who:
            x = "2" if regiment.troops == "cavalry" else "1.5"
            notes.append(f"{who.name} charged into contact: AD x{x} (BS-12)")
    for who, regiment, braced in ((unit, a, a_braced), (target, b, b_braced)):
        if braced:
            notes.append(
                f"{who.name} sets its {regiment.weapon}s against the charge: AD x2 (BS-12)"
            )
    if hit_b != "front":
        notes.append(f"{unit.name} attacks {target.name} in the {hit_b} (BS-11)")
    step = level_a - level_b  # BS-11: a steep edge, not a hill slope
    side_a = bs.MeleeSide(
        a,
        bs.melee_armor_modifiers(
            higher_ground=step >= HIGHER_GROUND_STEP,
            lower_ground=-step >= HIGHER_GROUND_STEP,
            preferred_terrain=_on_preferred_terrain(state, unit),
            behind_cover=cover,
            flank=hit_a == "flank",
            rear=hit_a == "rear",
        ),
        bs.melee_dice_multipliers(a, charged=a_charges, set_against_charge=a_braced),
        REMOVAL,
    )
    side_b = bs.MeleeSide(
        b,
        bs.melee_armor_modifiers(
            higher_ground=-step >= HIGHER_GROUND_STEP,
            lower_ground=step >= HIGHER_GROUND_STEP,
            preferred_terrain=_on_preferred_terrain(state, target),
            behind_cover=cover,
            flank=hit_b == "flank",
            rear=hit_b == "rear",
        ),
        bs.melee_dice_multipliers(b, charged=b_charges, set_against_charge=b_braced),
        REMOVAL,
    )
    a_faces = bs.in_front_arc(unit.hex, unit.facing, target.hex)
    b_faces = bs.in_front_arc(target.hex, target.facing, unit.hex)
    advantage = bs.advantage_holder(
        a,
        b,
        a_facing=a_faces,
        b_facing=b_faces,
        a_from_rear=hit_b == "rear",
        b_from_rear=hit_a == "rear",
    )
    if advantage is not None:
        first, second, faces, rear = (
            (a, b, a_faces, hit_b == "rear")
            if advantage == a.unit_id
            else (b, a, b_faces, hit_a == "rear")
        )
        why = bs.melee_advantage(first, second, facing_enemy=faces, all_from_rear=rear)
        holder = unit.name if advantage == a.unit_id else target.name
        notes.append(f"{holder} has the melee advantage ({why}) and strikes first (BS-10)")
    return MeleePlan(side_a, side_b, advantage, tuple(notes))


def _melee(state: GameState, unit: Unit, target: Unit) -> None:
    plan = melee_plan(state, unit, target)
    if isinstance(plan, str):
        raise IllegalCommand(plan)
    regiments = {unit.id: plan.attacker.unit, target.id: plan.defender.unit}
    before = {k: v.figures for k, v in regiments.items()}
    result = bs.resolve_melee(state.dice, plan.attacker, plan.defender, advantage=plan.advantage)
    systems.store_damage(unit, result.a)
    systems.store_damage(target, result.b)
    _fought(unit, target, MELEE)
    names = {unit.id: unit.name, target.id: target.name}
    mode = (
        f"{names[plan.advantage]} strikes first" if plan.advantage else "both strike at once (BS-9)"
    )
    lines = [f"{unit.name} and {target.name} melee: {mode}", *(f"  {n}" for n in plan.notes)]
    for strike in result.strikes:
        lines += [
            f"  {names[strike.attacker_id]} strikes {names[strike.defender_id]}: {strike.roll}",
            f"    {strike.check} [{strike.armor.breakdown()}]",
            "    "
            + _casualty_text(
                names[strike.defender_id], strike.casualties, before[strike.defender_id]
            ),
        ]
    if not result.in_contact:
        lines.append("  the regiments are no longer in contact (BS-5)")
    gone = _mark_destroyed([target, unit], lines)
    log_event(
        state,
        "attack",
        "\n".join(lines),
        data={
            "attacker": unit.id,
            "target": target.id,
            "weapon": MELEE,
            "advantage": plan.advantage,
            "strikes": [_strike_data(s, regiments[s.defender_id]) for s in result.strikes],
            "destroyed": gone,
        },
        rolls=state.dice.take_records(),
    )


def _strike_data(strike: bs.Strike, struck: bs.BattleUnit) -> dict[str, Any]:
    """One melee strike as plain data: what its rolls were read against and what they
    did, so each strike can be checked again from the recorded rolls."""
    assert strike.casualties is not None
    return {
        "attacker": strike.attacker_id,
        "defender": strike.defender_id,
        "dice": strike.dice_count,
        "sides": list(strike.roll.sides),
        "ar": strike.check.armor_rating,
        "hits": strike.roll.hits,
        "standing": strike.standing,
        "hits_per_figure": struck.hits_per_figure,
        "carried": struck.carried_hits,
        "figures": struck.figures,
        "removed": len(strike.casualties.removed),
    }


def _battlesystem_opening(state: GameState) -> None:
    """Each attack phase: figures that fired last turn may melee again (BS-9), and a
    regiment no longer next to last round's enemy starts afresh with it (BS-6)."""
    for unit in state.living():
        if unit.system != BATTLESYSTEM or unit.hex is None:
            continue
        regiment = battle_unit(unit).start_turn()
        foe = state.units.get(regiment.melee_opponent) if regiment.melee_opponent else None
        if regiment.melee_opponent and (
            foe is None or foe.destroyed or foe.hex is None or distance(foe.hex, unit.hex) != 1
        ):
            regiment = bs.break_contact(regiment)
        systems.store_damage(unit, regiment)


# =============================================================================================
# Warhammer (WH-1 .. WH-10, WHC-1)
# =============================================================================================

SHOOTING = "shooting"
CLOSE_COMBAT = "close combat"
WARHAMMER_WEAPONS = (SHOOTING, CLOSE_COMBAT)
# A full rank is five models: the front rank shoots and fights, and every further full
# rank adds to the combat result (WHC-1).
RANK_WIDTH = 5
# Profile values the scenario may leave out.
DEFAULT_WS = 3
DEFAULT_STRENGTH = 3
DEFAULT_ATTACKS = 1
DEFAULT_LEADERSHIP = 7


def troops(unit: Unit) -> WarhammerTroops:
    state = systems.damage_state(unit)
    if not isinstance(state, WarhammerTroops):
        raise IllegalCommand(f"{unit.name} is not a Warhammer unit")
    return state


def _stat(unit: Unit, key: str, default: int) -> int:
    return int(unit.profile.get(key, default))


def _cover(state: GameState, sight: Sight, target: Unit) -> str:
    """WH-3: hard cover behind or in a building, soft cover behind or in woods."""
    assert target.hex is not None
    codes = {_terrain(state, h) for h in (*sight.path[1:-1], target.hex)}
    if BUILDING in codes:
        return "hard"
    if codes & {LIGHT_WOODS, HEAVY_WOODS}:
        return "soft"
    return "none"


def _units_in_the_way(state: GameState, shooter: Unit, target: Unit, sight: Sight) -> list[Unit]:
    """WH-1, WH-3: the units whose counters stand on the line of fire and reach into it:
    not lower than both the firer's eyes and the target's top (the MAP-5 rule for a
    hill, turned round). Hidden enemies the firer cannot know of are left out (ART-4)."""
    between = set(sight.path[1:-1])
    lowest = min(_top(state, shooter), _top(state, target))
    return [
        other
        for other in state.living()
        if other.hex in between
        and other.id not in (shooter.id, target.id)
        and not (other.hidden and other.side != shooter.side)
        and _top(state, other) >= lowest
    ]


@dataclass(frozen=True)
class ShootingPlan:
    """WH-1 .. WH-5: the models that fire, in batches, with their modifiers."""

    firing: wh.FiringPlan
    modifiers: tuple[Modifier, ...]
    distance: int
    strength: int
    shots: int
    cover: str

    def batches(self) -> list[tuple[int, tuple[Modifier, ...]]]:
        return self.firing.groups(self.modifiers)


def shooting_plan(
    state: GameState, unit: Unit, target: Unit, *, stand_and_shoot: bool = False
) -> ShootingPlan | str:
    """The volley ``unit`` could shoot at ``target`` now, or why not. With
    ``stand_and_shoot`` it is the charged unit's reaction to ``target``'s charge
    (WH-3, -1): it fires at the charger that has just reached it, at any range."""
    assert unit.hex is not None and target.hex is not None
    if "weapon_range" not in unit.profile:
        return f"{unit.name} has no missile weapons"
    if SHOOTING in unit.weapons_fired:
        return f"{unit.name} has already shot this turn"
    # A charger has just reached the unit that stands and shoots: that contact alone
    # does not stop the volley; any other enemy in contact does, on either of them (WH-1).
    fighting = [u for u in _engaged(state, unit) if not (stand_and_shoot and u is target)]
    if fighting:
        return f"{unit.name} is fighting in close combat and cannot shoot"
    if any(u.side == unit.side and u is not unit for u in _engaged(state, target)):
        return f"{target.name} is in close combat: no firing into close combat (WH-1)"
    shooter = troops(unit)
    if shooter.models == 0:
        return f"{unit.name} has no models left"
    rng = distance(unit.hex, target.hex)
    arc = bs.in_front_arc(unit.hex, unit.facing, target.hex)
    sight = line_of_sight(state.area, unit.hex, target.hex, unit.height, target.height)
    front_rank = min(shooter.models, RANK_WIDTH)
    # The source lets a unit stand and shoot at a charger beyond its maximum range.
    reach = max(rng, _stat(unit, "weapon_range", 1)) if stand_and_shoot else None
    firing = wh.firing_plan(
        [(rng, arc, sight.visible)] * front_rank, reach or _stat(unit, "weapon_range", 1)
    )
    if firing.firing == 0:
        why = firing.not_firing[0][1]
        if not sight.visible:
            why += f" ({sight.reason})"
        return f"{unit.name} cannot shoot at {target.name}: {why} (WH-1)"
    # WH-1: a unit standing taller than the target on the line hides it; WH-3: any other
    # unit on the line partly covers it, which counts as hard cover.
    in_the_way = _units_in_the_way(state, unit, target, sight) if sight.visible else []
    top = _top(state, target)
    hiding = [u for u in in_the_way if _top(state, u) > top]
    if hiding:
        return f"{unit.name} cannot shoot at {target.name}: {hiding[0].name} hides it (WH-1)"
    cover = "hard" if in_the_way else _cover(state, sight, target)
    # WH-3: "even a reform or a turn" counts as moving.
    moved = unit.movement_mode != "stood" or unit.turned
    modifiers = wh.shooting_modifiers(moved=moved, cover=cover, stand_and_shoot=stand_and_shoot)
    plan = ShootingPlan(
        firing,
        modifiers,
        rng,
        _stat(unit, "weapon_strength", _stat(unit, "s", DEFAULT_STRENGTH)),
        _stat(unit, "shots", 1),
        cover,
    )
    skill = _stat(unit, "bs", 3)
    if all(
        wh.to_hit_needed(skill, sum(m.value for m in mods)) is None for _, mods in plan.batches()
    ):
        return f"{unit.name} cannot hit {target.name}: it would need 10 or more (WH-4)"
    return plan


def _rolled(result: wh.ShootingResult, target: Unit) -> dict[str, Any]:
    """A volley's or a side's blows' rolls and what they were read against (WH-2 ..
    WH-9), and the target's models before, as plain data."""
    before = troops(target)
    return {
        **{k: v for k, v in result.to_dict().items() if k != "account"},
        "save_profile": _hit_profile(target),
        "models": before.models,
        "wounds_per_model": before.wounds_per_model,
        "carried_wounds": before.carried_wounds,
    }


def _wound_models(target: Unit, unsaved: int) -> tuple[WarhammerTroops, int, int]:
    """Unsaved wounds remove whole models, the rest carried (the ART-35 decision)."""
    before = troops(target)
    removed, carried = models_removed_by_wounds(
        unsaved, before.wounds_per_model, before.carried_wounds, before.models
    )
    return replace(before, models=before.models - removed, carried_wounds=carried), removed, carried


def _hit_profile(target: Unit) -> dict[str, Any]:
    t = troops(target)
    return {"armour": t.armour, "shield": t.shield, "mount": t.mount, "ward": t.ward}


def _shoot(state: GameState, unit: Unit, target: Unit, *, stand_and_shoot: bool = False) -> None:
    plan = shooting_plan(state, unit, target, stand_and_shoot=stand_and_shoot)
    if isinstance(plan, str):
        raise IllegalCommand(plan)
    aimed = troops(target)
    result = wh.shoot(
        state.dice,
        plan.batches(),
        _stat(unit, "bs", 3),
        0,
        plan.strength,
        aimed.toughness,
        **_hit_profile(target),
        shots_per_model=plan.shots,
        shooter=unit.name,
        target=target.name,
    )
    rolled = _rolled(result, target)  # the target as the rolls found it
    after, removed, _ = _wound_models(target, result.unsaved)
    systems.store_damage(target, after)
    unit.attacked = True  # ART-18
    unit.weapons_fired.append(SHOOTING)
    how = "stands and shoots at the charging" if stand_and_shoot else "shoots at"
    lines = [
        f"{unit.name} {how} {target.name}, {plan.distance} hexes: {plan.firing.describe()} (WH-1)",
        *(f"  {line_}" for line_ in result.account[1:]),
        f"  {target.name}: {_plural(removed, 'model')} removed ({aimed.models} -> {after.models})",
    ]
    gone = _mark_destroyed([target], lines)
    log_event(
        state,
        "attack",
        "\n".join(lines),
        data={
            "attacker": unit.id,
            "target": target.id,
            "weapon": SHOOTING,
            "hits": result.hits,
            "unsaved": result.unsaved,
            "removed": removed,
            # What the rolls were read against, so each volley can be checked again.
            "rolled": rolled,
            "destroyed": gone,
        },
        rolls=state.dice.take_records(),
    )


def close_combat_to_hit(ws: int, enemy_ws: int) -> int:
    """The roll to hit in close combat. Decision (the edition's table; the digest is
    silent): 3+ against a lower Weapon Skill, 5+ when the enemy's is more than twice
    ours, 4+ otherwise."""
    if ws > enemy_ws:
        return 3
    if enemy_ws > 2 * ws:
        return 5
    return 4


@dataclass(frozen=True)
class CombatPlan:
    """One round of close combat as it will be fought (WHC-1)."""

    attacks: tuple[int, int]  # attacker's, defender's
    to_hit: tuple[int, int]
    charges: tuple[str, str]  # each side's charge bonus: "none", "charge" or "downhill"
    faces: tuple[str, str]  # the face of the enemy each unit fights


def combat_plan(state: GameState, unit: Unit, target: Unit) -> CombatPlan | str:
    """The round of close combat ``unit`` could start against ``target``, or why not."""
    refusal = _contact_refusal(
        unit, target, CLOSE_COMBAT, "close combat", "units", "started a close combat"
    )
    if refusal:
        return refusal
    a, b = troops(unit), troops(target)
    attacks = (
        min(a.models, RANK_WIDTH) * _stat(unit, "a", DEFAULT_ATTACKS),
        min(b.models, RANK_WIDTH) * _stat(target, "a", DEFAULT_ATTACKS),
    )
    ws_a, ws_b = _stat(unit, "ws", DEFAULT_WS), _stat(target, "ws", DEFAULT_WS)
    # WHC-1: the unit that moved into contact this turn charged (+1, +2 charging down
    # from higher ground), whichever of the two starts the round.
    charger = charger_of(unit, target)
    charges = ["none", "none"]
    if charger is not None:
        foe = target if charger is unit else unit
        assert charger.hex is not None and foe.hex is not None
        downhill = _level(state, charger.hex) > _level(state, foe.hex)
        charges[0 if charger is unit else 1] = "downhill" if downhill else "charge"
    return CombatPlan(
        attacks,
        (close_combat_to_hit(ws_a, ws_b), close_combat_to_hit(ws_b, ws_a)),
        (charges[0], charges[1]),
        (
            wh.attacked_face(unit.hex, target.hex, target.facing),
            wh.attacked_face(target.hex, unit.hex, unit.facing),
        ),
    )


def _strikes(
    state: GameState, striker: Unit, struck: Unit, attacks: int, needed: int
) -> tuple[dict[str, Any], wh.ShootingResult, str]:
    """One side's blows: to hit, then to wound and saves (WH-7 .. WH-9)."""
    ws, enemy_ws = _stat(striker, "ws", DEFAULT_WS), _stat(struck, "ws", DEFAULT_WS)
    rolls: tuple[int, ...] = ()
    if attacks:
        rolls = state.dice.roll(
            attacks, 6, f"{striker.name} close combat to hit (WS {ws} vs {enemy_ws}): {needed}+"
        ).dice
    hits = int(np.count_nonzero(wh.hits_from_rolls(needed, rolls))) if rolls else 0
    wounds = wh.automatic_hits(
        state.dice,
        hits,
        _stat(striker, "s", DEFAULT_STRENGTH),
        troops(struck).toughness,
        **_hit_profile(struck),
        shooter=striker.name,
        target=struck.name,
    )
    shown = ", ".join(map(str, rolls)) if rolls else "no dice"
    text = (
        f"{striker.name}: {_plural(attacks, 'attack')}, WS {ws} vs {enemy_ws} hits on "
        f"{needed}+: {shown} -> {_plural(hits, 'hit')}"
    )
    blows = {
        "attacks": attacks,
        "ws": [ws, enemy_ws],
        "needed": needed,
        "rolls": list(rolls),
        "hits": hits,
        **_rolled(wounds, struck),
    }
    return blows, wounds, text


def _fall_back(state: GameState, loser: Unit, winner: Unit) -> Hex | None:
    """A broken unit falls back one hex straight away from the winner (or the hex to
    either side of it); None when every one is taken or impassable."""
    assert loser.hex is not None and winner.hex is not None
    away = side_toward(winner.hex, loser.hex)
    for direction in (away, away % 6 + 1, (away + 4) % 6 + 1):
        h = neighbor(loser.hex, direction)
        if not state.area.contains(h) or state.units_at(h):
            continue
        if entry_cost(state.area, loser.hex, h, moving.mover(loser)).open:
            return h
    return None


def _close_combat(state: GameState, unit: Unit, target: Unit) -> None:
    plan = combat_plan(state, unit, target)
    if isinstance(plan, str):
        raise IllegalCommand(plan)
    # Both strike at once with the models they had before the round; casualties
    # come off after both have struck.
    blows_a, by_a, text_a = _strikes(state, unit, target, plan.attacks[0], plan.to_hit[0])
    blows_b, by_b, text_b = _strikes(state, target, unit, plan.attacks[1], plan.to_hit[1])
    a_before, b_before = troops(unit).models, troops(target).models
    b_after, b_removed, _ = _wound_models(target, by_a.unsaved)
    a_after, a_removed, _ = _wound_models(unit, by_b.unsaved)
    systems.store_damage(target, b_after)
    systems.store_damage(unit, a_after)
    _fought(unit, target, CLOSE_COMBAT)
    lines = [f"{unit.name} fights {target.name} in close combat"]
    for text, result in ((text_a, by_a), (text_b, by_b)):
        lines.append(f"  {text}")
        lines += [f"    {line_}" for line_ in result.account[2:]]
    lines.append(
        f"  {unit.name} loses {_plural(a_removed, 'model')} ({a_before} -> {a_after.models}), "
        f"{target.name} {_plural(b_removed, 'model')} ({b_before} -> {b_after.models})"
    )
    name_a = unit.name if unit.name != target.name else f"{unit.name} ({unit.side})"
    name_b = target.name if unit.name != target.name else f"{target.name} ({target.side})"
    result = wh.combat_result(
        wh.CombatSide(
            name_a,
            (_combat_unit(unit, name_a, a_after, plan.faces[0]),),
            wounds_caused=by_a.unsaved,
            charge=plan.charges[0],
        ),
        wh.CombatSide(
            name_b,
            (_combat_unit(target, name_b, b_after, plan.faces[1]),),
            wounds_caused=by_b.unsaved,
            charge=plan.charges[1],
        ),
    )
    lines += [f"  {line_}" for line_ in result.text().splitlines()]
    lines[-1] += " (WHC-1)"
    data: dict[str, Any] = {
        "attacker": unit.id,
        "target": target.id,
        "weapon": CLOSE_COMBAT,
        "result": result.to_dict(),
        "blows": [blows_a, blows_b],
    }
    if len(result.losers) == 1:
        loser, winner = (unit, target) if result.losers[0] == name_a else (target, unit)
        if troops(loser).models > 0:
            lines += _break_test(state, loser, winner, result.margin, data)
    data["destroyed"] = _mark_destroyed([target, unit], lines)
    log_event(state, "attack", "\n".join(lines), data=data, rolls=state.dice.take_records())


COMMAND = ("standard", "battle_standard", "musician")


def _combat_unit(unit: Unit, name: str, after: WarhammerTroops, face: str) -> wh.CombatUnit:
    """WHC-1: the unit in the combat result: its full ranks after casualties and its
    command from the profile (standard +1, army battle standard +1, a musician breaks
    ties), carried while a model is left to carry them."""
    alive = after.models > 0
    command = {key: alive and bool(unit.profile.get(key, False)) for key in COMMAND}
    return wh.CombatUnit(name, after.models // RANK_WIDTH, attacking=face, **command)


def standing_scores(unit: Unit, target: Unit, plan: CombatPlan) -> tuple[wh.SideScore, ...]:
    """WHC-1: each side's combat result before any blow lands (charge, ranks, command,
    flank or rear): what the wounds of the round will be added to."""
    return tuple(
        wh.side_score(
            wh.CombatSide(
                u.name, (_combat_unit(u, u.name, troops(u), face),), wounds_caused=0, charge=charge
            )
        )
        for u, face, charge in zip((unit, target), plan.faces, plan.charges, strict=True)
    )


def _break_test(
    state: GameState, loser: Unit, winner: Unit, margin: int, data: dict[str, Any]
) -> list[str]:
    """Decision: the loser tests its Leadership less the margin on 2d6; above it, the
    unit breaks and falls back one hex, or is cut down when it has nowhere to go."""
    leadership = _stat(loser, "ld", DEFAULT_LEADERSHIP)
    need = leadership - margin
    roll = state.dice.roll(2, 6, f"{loser.name} break test: Ld {leadership} - {margin}")
    head = (
        f"  {loser.name} lost by {margin}: break test 2d6 {roll.total} against Ld "
        f"{leadership} - {margin} = {need}"
    )
    if roll.total <= need:
        data["broken"] = None
        return [f"{head}: it holds"]
    data["broken"] = loser.id
    to = _fall_back(state, loser, winner)
    if to is None:
        systems.store_damage(loser, replace(troops(loser), models=0, carried_wounds=0))
        data["fell_back"] = None
        return [f"{head}: it breaks, has nowhere to flee and is cut down"]
    loser.hex = to
    data["fell_back"] = [to.q, to.r]
    return [f"{head}: it breaks and falls back to {state.area.label(to)}"]


# =============================================================================================
# Toy soldiers (TS-1 .. TS-11)
# =============================================================================================

SHOT = "shot"
CREW, REPAIR, CAPTURE = "crew", "repair", "capture"
# TS-1: "all the game's dice". Decision: the engine's toy-soldier games use two d6.
GAME_DICE: tuple[int, ...] = (6, 6)
# TS-7: the example's reading of an odd chance (the rules' default).
SPLIT: ts.Split = "example"
# TS-5: a toy soldier in a building hex stands on a fortress wall; a building this
# many levels high or more is a tower.
TOWER_HEIGHT = 3
# The shooting phase of the turn lives in ``state.initiative`` under this key: it is
# rolled afresh every turn, as the turn's initiative is.
SHOOTING_PHASE = "shooting"


@lru_cache(maxsize=4096)
def _gun_from(key: tuple[tuple[str, Any], ...]) -> ts.Gun:
    return ts.Gun.from_dict(dict(key))


@lru_cache(maxsize=4096)
def _warrior_from(key: tuple[tuple[str, Any], ...]) -> ts.Warrior:
    return ts.Warrior.from_dict(dict(key))


def _gun(unit: Unit) -> ts.Gun | None:
    # Frozen values read from the same plain data are the same: read each once.
    if unit.damage.get("kind") != "gun":
        return None
    return _gun_from(_frozen(unit.damage["gun"]))


def _warriors(unit: Unit) -> tuple[ts.Warrior, ...]:
    if unit.damage.get("kind") != "warriors":
        return ()
    return tuple(_warrior_from(_frozen(w)) for w in unit.damage["warriors"])


class ToyField:
    """The toy soldiers on the board, read once for a batch of questions: each
    unit's warriors and guns, who stands and who crews what."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.units = [u for u in state.living() if u.system == TOY_SOLDIERS and u.hex is not None]
        self.warriors: dict[str, tuple[ts.Warrior, ...]] = {}
        self.guns: dict[str, ts.Gun] = {}
        self.vehicles: dict[str, ts.Vehicle] = {}
        for u in self.units:
            gun = _gun(u)
            if gun is not None:
                self.guns[u.id] = gun
            elif u.damage.get("kind") == "toy_vehicle":
                self.vehicles[u.id] = ts.Vehicle.from_dict(u.damage["vehicle"])
            else:
                self.warriors[u.id] = _warriors(u)

    def standing(self, side: str) -> list[tuple[Unit, ts.Warrior]]:
        """Every warrior of ``side`` on the board, with his unit."""
        return [
            (u, w)
            for u in self.units
            if u.side == side
            for w in self.warriors.get(u.id, ())
            if w.on_board
        ]

    def gun_units(self, side: str | None = None) -> list[tuple[Unit, ts.Gun]]:
        return [
            (u, self.guns[u.id])
            for u in self.units
            if u.id in self.guns and (side is None or u.side == side)
        ]

    def crew_of(self, gun: ts.Gun) -> tuple[Unit, ts.Warrior] | None:
        if gun.crew is None:
            return None
        for unit, warrior in self.standing(gun.owner):
            if warrior.warrior_id == gun.crew:
                return unit, warrior
        return None

    def crew_ready(self, gun_unit: Unit, gun: ts.Gun) -> tuple[Unit, ts.Warrior] | None:
        """The gun's crew when he stands within 1 step of it, fit to serve."""
        crew = self.crew_of(gun)
        if crew is None or crew[0].hex is None or gun_unit.hex is None:
            return None
        return crew if distance(crew[0].hex, gun_unit.hex) <= ts.CLOSE_DISTANCE else None

    def serving(self, side: str) -> set[str]:
        """Warriors of ``side`` who crew one of its guns."""
        return {g.crew for _, g in self.gun_units(side) if g.crew is not None}

    def has_shooters(self, side: str) -> bool:
        """A gun still on the board, or a standing warrior with a shooting profile."""
        if any(g.status != "lost" for _, g in self.gun_units(side)):
            return True
        return any(w.profile is not None for _, w in self.standing(side))


def shooting_phase(state: GameState) -> ts.ShootingPhase | None:
    """This turn's toy-soldier shooting phase (TS-1, TS-2), or None when none was rolled."""
    data = state.initiative.get(SHOOTING_PHASE)
    return None if data is None else ts.ShootingPhase.from_dict(data)


def _toy_opening(state: GameState) -> None:
    """TS-1: at the start of the attack phase each side with toy-soldier shooters rolls
    all the game's dice; the sum is its shooting bonus. When both sides shoot, the
    higher sum has the initiative and chooses to fire first or to make the other side
    fire first (a question to its player); the side firing first acts first in the
    attack phase."""
    field = ToyField(state)
    shooters = [s for s in state.sides if field.has_shooters(s)]
    if not shooters:
        return
    if len(shooters) == 2:
        roll = ts.roll_shooting_initiative(state.dice, state.sides, GAME_DICE)
        phase = ts.ShootingPhase.from_initiative(roll, _manoeuvre_shots(state))
        text = f"Toy-soldier shooting (TS-1): {roll.account}"
    else:
        (side,) = shooters
        faces = [state.dice.roll(1, s, f"shooting bonus of {side}").total for s in GAME_DICE]
        bonuses = {s: 0 for s in state.sides}
        bonuses[side] = sum(faces)
        phase = ts.ShootingPhase(
            players=state.sides,
            bonuses=bonuses,
            initiative_winner=side,
            spent=dict.fromkeys(state.sides, 0),
            shots=_manoeuvre_shots(state),
        )
        phase.choose_order(side, fire_first=state.active == side)
        text = (
            f"Toy-soldier shooting (TS-1): only {side} has shooters; shooting bonus "
            f"{'+'.join(map(str, faces))} = {sum(faces)}"
        )
    state.initiative[SHOOTING_PHASE] = phase.to_dict()
    log_event(
        state,
        "shooting_initiative",
        text + " (TS-2: each shot costs 1 point)",
        data={"bonuses": dict(phase.bonuses), "order": list(phase.order or ())},
        rolls=state.dice.take_records(),
    )
    if phase.order is None:
        winner = phase.initiative_winner
        ask(
            state,
            winner,
            ORDER_OF_FIRE,
            f"{winner} won the shooting initiative: fire first, or make "
            f"{state.other(winner)} fire first (TS-1)?",
            [FIRE_FIRST, FIRE_SECOND],
        )


ORDER_OF_FIRE, FIRE_FIRST, FIRE_SECOND = "order of fire", "fire first", "fire second"


def _choose_order(state: GameState, question: dict[str, Any], choice: str) -> None:
    """TS-1: the initiative winner's choice; the side firing first acts first."""
    phase = shooting_phase(state)
    assert phase is not None
    winner = question["side"]
    phase.choose_order(winner, fire_first=choice == FIRE_FIRST)
    assert phase.order is not None
    state.initiative[SHOOTING_PHASE] = phase.to_dict()
    state.active = phase.order[0]
    log_event(
        state,
        "order_of_fire",
        f"{winner} chooses to {choice}: {phase.order[0]} fires first (TS-1)",
        data={"order": list(phase.order)},
    )


def _fortress(state: GameState, h: Hex) -> tuple[bool, bool]:
    """TS-5: (on a fortress wall, on a tower) for a toy soldier in ``h``."""
    height = _building_height(state, h)
    return height > 0, height >= TOWER_HEIGHT


def _obstacle_heights(state: GameState, a: Hex, b: Hex) -> list[int]:
    """TS-3: how many steps each hex between shooter and target rises above the
    higher of them (a figure on a wall or tower stands on its top)."""
    eye = max(_level(state, h) + _building_height(state, h) for h in (a, b))
    out = []
    for h in line(a, b)[1:-1]:
        i = state.area.index_of(h)
        if i >= 0:
            out.append(max(0, int(state.area.obstacle_top[i]) - eye))
    return out


@dataclass(frozen=True)
class ShotPlan:
    """A virtual shot ready to roll: the phase it is paid from, the shooter, the aim."""

    phase: ts.ShootingPhase
    shooter: ts.Gun | ts.Warrior
    aim: ts.Aim


def _shooter(
    field: ToyField, unit: Unit, phase: ts.ShootingPhase
) -> tuple[ts.Gun | ts.Warrior, ts.Warrior | None] | str:
    """The gun (with its crew), or the unit's next warrior with shots left."""
    assert unit.hex is not None
    gun = field.guns.get(unit.id)
    if gun is not None:
        crew = field.crew_of(gun)
        if crew is not None and distance(crew[0].hex, unit.hex) > ts.CLOSE_DISTANCE:  # type: ignore[arg-type]
            return (
                f"the crew of the {gun.name}, {crew[1].name}, is not within "
                f"{ts.CLOSE_DISTANCE} step of the gun (TS-11)"
            )
        return gun, None if crew is None else crew[1]
    armed = [w for w in field.warriors.get(unit.id, ()) if w.on_board and w.profile is not None]
    if not armed:
        return f"no warrior of {unit.name} has a shooting profile (TS-3)"
    serving = field.serving(unit.side)
    free = [w for w in armed if w.warrior_id not in serving]
    if not free:
        return f"every shooter of {unit.name} is serving a gun"
    ready = [w for w in free if phase.shots_fired(w.warrior_id) < w.profile.shots]  # type: ignore[union-attr]
    if not ready:
        return f"every shooter of {unit.name} has fired all his shots this phase (TS-2)"
    return ready[0], None


def _manoeuvre_shots(state: GameState) -> dict[str, int]:
    """TS-13: shots fired right after manoeuvres this turn, by shooter."""
    return dict(state.initiative.get(MANOEUVRE_SHOTS, {}))


def shot_plan(
    state: GameState,
    unit: Unit,
    target: Unit,
    field: ToyField | None = None,
    *,
    after_manoeuvre: bool = False,
) -> ShotPlan | str:
    """TS-2 .. TS-7, TS-11: the virtual shot ``unit`` could fire at ``target`` now. With
    ``after_manoeuvre`` it is TS-13's shot right after the unit's manoeuvre (a scenario
    option): not paid from a shooting bonus, counted against the shooter's shots."""
    assert unit.hex is not None and target.hex is not None
    if after_manoeuvre:
        if not state.options.get(FIRE_AFTER_MANOEUVRE):
            return "this scenario does not allow fire right after a manoeuvre (TS-13)"
        # Only the shots each shooter fired so far count here: no bonus is spent.
        phase = ts.ShootingPhase(
            players=state.sides,
            bonuses=dict.fromkeys(state.sides, 0),
            initiative_winner=unit.side,
            spent=dict.fromkeys(state.sides, 0),
            shots=_manoeuvre_shots(state),
        )
    else:
        found_phase = shooting_phase(state)
        if found_phase is None or found_phase.order is None:
            return "no shooting bonus was rolled this turn, so toy soldiers cannot shoot (TS-1)"
        phase = found_phase
        # The engine's turn order of the attack phase is the firing order (TS-1).
        assert phase.order is not None
        phase.firing_index = phase.order.index(unit.side)
    field = field or ToyField(state)
    found = _shooter(field, unit, phase)
    if isinstance(found, str):
        return found
    shooter, crew = found
    aimed_at: ts.Target
    if target.id in field.guns:
        aimed_at = field.guns[target.id]
    elif target.id in field.vehicles:
        aimed_at = field.vehicles[target.id]
    else:
        standing = [w for w in field.warriors.get(target.id, ()) if w.on_board]
        if not standing:
            return f"{target.name} has no warrior left on the board"
        aimed_at = standing[0]
    steps = distance(unit.hex, target.hex)
    profile = shooter.profile
    assert profile is not None
    wall, tower = _fortress(state, unit.hex)
    # Out of reach: say so before measuring anything else on the line.
    reach = ts.effective_range(profile, tower=tower, wall=wall)
    if steps > reach:
        return f"{target.name} is {steps} steps away; {unit.name} reaches {reach} steps"
    near = [distance(unit.hex, u.hex) for u, _ in field.standing(state.other(unit.side))]  # type: ignore[arg-type]
    try:
        if not after_manoeuvre:
            phase.check_shot(unit.side, shooter)
        aim = ts.aim(
            shooter,
            aimed_at,
            steps,
            crew=crew,
            enemy_distances=near,
            obstacle_heights=_obstacle_heights(state, unit.hex, target.hex),
            tower=tower,
            wall=wall,
            target_on_wall=_fortress(state, target.hex)[0],
            turn=state.turn,
        )
    except ts.IllegalAction as exc:
        return str(exc)
    return ShotPlan(phase, shooter, aim)


def _virtual_shot(
    state: GameState, unit: Unit, target: Unit, *, after_manoeuvre: bool = False
) -> None:
    plan = shot_plan(state, unit, target, after_manoeuvre=after_manoeuvre)
    if isinstance(plan, str):
        raise IllegalCommand(plan)
    if after_manoeuvre:
        # TS-13: counted against the shooter's shots of the turn, and no melee this turn.
        shots = _manoeuvre_shots(state)
        shooter = plan.shooter
        shooter_id = shooter.gun_id if isinstance(shooter, ts.Gun) else shooter.warrior_id
        shots[shooter_id] = shots.get(shooter_id, 0) + 1
        state.initiative[MANOEUVRE_SHOTS] = shots
        if NO_MELEE not in unit.weapons_fired:
            unit.weapons_fired.append(NO_MELEE)
    else:
        plan.phase.record_shot(unit.side, plan.shooter)
        state.initiative[SHOOTING_PHASE] = plan.phase.to_dict()
    shot = ts.resolve_virtual_shot(plan.aim, state.dice, SPLIT)
    after = shot.target_after
    if isinstance(after, ts.Gun | ts.Vehicle):
        systems.store_damage(target, after)
    else:
        _store_warrior(target, after)
    unit.attacked = True  # ART-18
    unit.weapons_fired.append(SHOT)
    left = plan.phase.remaining(unit.side)
    lines = [
        f"{shot.account} (TS-4, TS-7)",
        f"  fired right after {unit.name}'s manoeuvre: no melee for it this turn (TS-13)"
        if after_manoeuvre
        else f"  {unit.side} has {_plural(left, 'shooting point')} left (TS-2)",
    ]
    gone = _mark_destroyed([target], lines)
    log_event(
        state,
        "attack",
        "\n".join(lines),
        data={
            "attacker": unit.id,
            "target": target.id,
            "weapon": SHOT,
            "chance": plan.aim.chance,
            "roll": shot.roll,
            "result": shot.result,
            "points_left": left,
            "after_manoeuvre": after_manoeuvre,
            "destroyed": gone,
        },
        rolls=state.dice.take_records(),
    )


# TS-13: the scenario option, the turn's record of shots fired so, and the mark of a
# unit that fired so and may not go into melee this turn.
FIRE_AFTER_MANOEUVRE = "fire_after_manoeuvre"
MANOEUVRE_SHOTS = "manoeuvre_shots"
NO_MELEE = "fired after manoeuvre"
HOLD_FIRE = "hold fire"


def _manoeuvre_targets(state: GameState, unit: Unit) -> dict[str, Unit]:
    """TS-13: the targets ``unit`` could fire at right after its manoeuvre, by the
    words of the choice ("fire at <name>", with the id when names repeat)."""
    field = ToyField(state)
    targets = [
        t
        for t in _foes(state, unit, TOY_SOLDIERS)
        if not isinstance(shot_plan(state, unit, t, field, after_manoeuvre=True), str)
    ]
    names = [t.name for t in targets]
    return {
        f"fire at {t.name}" + (f" ({t.id})" if names.count(t.name) > 1 else ""): t for t in targets
    }


def _offer_manoeuvre_fire(state: GameState, unit: Unit, start: Hex | None) -> None:
    """TS-13 (a scenario option): a toy-soldier unit that has just manoeuvred may fire
    at once; its player is asked."""
    if (
        unit.system != TOY_SOLDIERS
        or not state.options.get(FIRE_AFTER_MANOEUVRE)
        or unit.hex is None
        or unit.hex == start
        or unit.destroyed
    ):
        return
    targets = _manoeuvre_targets(state, unit)
    if targets:
        ask(
            state,
            unit.side,
            FIRE_AFTER_MANOEUVRE,
            f"{unit.name} has manoeuvred: fire now, and so declare no melee this turn (TS-13)?",
            [HOLD_FIRE, *targets],
            unit.id,
        )


def _fire_after_manoeuvre(state: GameState, question: dict[str, Any], choice: str) -> None:
    unit = state.units[question["unit"]]
    if choice == HOLD_FIRE:
        log_event(state, "reaction", f"{unit.name} holds its fire after its manoeuvre")
        return
    target = _manoeuvre_targets(state, unit).get(choice)
    if target is None:
        raise IllegalCommand(f"{unit.name} can no longer {choice}")
    _virtual_shot(state, unit, target, after_manoeuvre=True)
    _offer_manoeuvre_fire(state, unit, None)


def _toy_options(state: GameState, unit: Unit) -> list[tuple[str, str]]:
    phase = shooting_phase(state)
    if phase is None or phase.remaining(unit.side) < 1:
        return []
    field = ToyField(state)
    return [
        (target.id, SHOT)
        for target in _foes(state, unit, TOY_SOLDIERS)
        if not isinstance(shot_plan(state, unit, target, field), str)
    ]


def _toy_resolve(state: GameState, unit: Unit, target: Unit, weapon: str) -> None:
    if weapon != SHOT:
        raise IllegalCommand(
            f"toy soldiers fire virtual shots: the weapon is 'shot', not {weapon!r}"
        )
    _virtual_shot(state, unit, target)


# --- gun actions (TS-9 .. TS-11) ---------------------------------------------------------------


def _gun_unit(state: GameState, unit: Unit, gun_id: str) -> Unit:
    if unit.system != TOY_SOLDIERS or _gun(unit) is not None:
        raise IllegalCommand(f"{unit.name} is not a toy-soldier warrior: only warriors tend guns")
    if unit.hex is None:
        raise IllegalCommand(f"{unit.name} is off the board")
    target = state.units.get(gun_id)
    gun = None if target is None else _gun(target)
    if (
        target is None
        or gun is None
        or target.hex is None
        or (target.hidden and target.side != unit.side)
    ):
        raise IllegalCommand(f"there is no gun {gun_id!r} on the board")
    if target.destroyed:
        raise IllegalCommand(f"the {gun.name} is lost")
    return target


def crew_plan(
    state: GameState, unit: Unit, gun_unit: Unit, field: ToyField | None = None
) -> tuple[ts.Gun, ts.Warrior] | str:
    """TS-11: the gun crewed by the first qualified warrior of ``unit``, or why not."""
    field = field or ToyField(state)
    gun = field.guns[gun_unit.id]
    assert unit.hex is not None and gun_unit.hex is not None
    if gun.owner != unit.side:
        return f"the {gun.name} belongs to {gun.owner}; capture it first (TS-10)"
    if gun.status == "lost":
        return f"the {gun.name} is lost"
    current = field.crew_ready(gun_unit, gun)
    if current is not None:
        return f"the {gun.name} is already crewed by {current[1].name}"
    serving = field.serving(unit.side)
    free = [w for w in field.warriors.get(unit.id, ()) if w.on_board]
    free = [w for w in free if w.warrior_id not in serving]
    if not free:
        return f"every warrior of {unit.name} on the board already serves a gun"
    chosen = next((w for w in free if gun.gun_type in w.qualified), free[0])
    try:
        return ts.assign_crew(gun, chosen, distance(unit.hex, gun_unit.hex)), chosen
    except ts.IllegalAction as exc:
        return str(exc)


def repair_plan(
    state: GameState, unit: Unit, gun_unit: Unit, field: ToyField | None = None
) -> ts.Warrior | str:
    """TS-9: the mechanic of ``unit`` who would roll for the gun's repair, or why not.
    The checks are those of ``repair_gun``, made before any die is rolled."""
    field = field or ToyField(state)
    gun = field.guns[gun_unit.id]
    assert unit.hex is not None and gun_unit.hex is not None
    if gun.owner != unit.side:
        return f"the {gun.name} belongs to {gun.owner}"
    if gun.status not in ("disabled", "repairing"):
        return f"the {gun.name} is {gun.status}, not disabled: nothing to repair"
    if REPAIR in gun_unit.weapons_fired:
        return f"the {gun.name} has had its repair roll this turn (TS-9)"
    standing = [w for w in field.warriors.get(unit.id, ()) if w.on_board]
    if not standing:
        return f"{unit.name} has no warrior on the board"
    mechanic = next((w for w in standing if ts.can_repair(w)), standing[0])
    if not ts.can_repair(mechanic):
        missing = [t for t in ts.DEFAULT_GUN_TYPES if t not in mechanic.qualified]
        return (
            f"{mechanic.name} cannot repair guns: a mechanic must be qualified on all "
            f"{len(ts.DEFAULT_GUN_TYPES)} gun types, and is not on {', '.join(missing)} (TS-9)"
        )
    steps = distance(unit.hex, gun_unit.hex)
    if steps > ts.CLOSE_DISTANCE:
        return (
            f"{mechanic.name} is {steps} steps from the {gun.name}; repair needs him "
            f"within {ts.CLOSE_DISTANCE} step"
        )
    return mechanic


@dataclass(frozen=True)
class CapturePlan:
    """TS-10: a gun taken: the gun as it will be, and when guards stand within 1 step
    of it, the melee to win first (the warriors on each side and the captors' odds)."""

    gun: ts.Gun
    captors: int
    guards: tuple[tuple[Unit, ts.Warrior], ...] = ()

    @property
    def odds(self) -> Fraction:
        if not self.guards:
            return Fraction(1)
        return ts.gun_fight_odds(self.captors, len(self.guards))


def capture_plan(
    state: GameState, unit: Unit, gun_unit: Unit, field: ToyField | None = None
) -> CapturePlan | str:
    """TS-10: the gun after ``unit`` takes it, and the melee it must win first if the
    gun is guarded; or why it cannot."""
    field = field or ToyField(state)
    gun = field.guns[gun_unit.id]
    assert unit.hex is not None and gun_unit.hex is not None
    standing = [w for w in field.warriors.get(unit.id, ()) if w.on_board]
    if not standing:
        return f"{unit.name} has no warrior on the board"
    guards = tuple(
        (u, w)
        for u, w in field.standing(gun.owner)
        if distance(gun_unit.hex, u.hex) <= ts.CLOSE_DISTANCE  # type: ignore[arg-type]
    )
    if guards and CAPTURE in unit.weapons_fired:
        return f"{unit.name} has already fought for a gun this turn (TS-10)"
    if guards and NO_MELEE in unit.weapons_fired:
        return (
            f"{unit.name} fired right after its manoeuvre and may not go into melee this "
            f"turn, so it cannot take the guarded {gun.name} (TS-13)"
        )
    try:
        taken = ts.capture_gun(
            gun, standing[0], distance(unit.hex, gun_unit.hex), {}, won_melee=bool(guards)
        )
    except ts.IllegalAction as exc:
        return str(exc)
    return CapturePlan(taken, len(standing), guards)


def _crew(state: GameState, unit: Unit, gun_id: str) -> None:
    gun_unit = _gun_unit(state, unit, gun_id)
    plan = crew_plan(state, unit, gun_unit)
    if isinstance(plan, str):
        raise IllegalCommand(plan)
    crewed, warrior = plan
    systems.store_damage(gun_unit, crewed)
    log_event(
        state,
        "gun",
        f"{warrior.name} of {unit.name} crews the {crewed.name} ({crewed.gun_type}, TS-11)",
        data={"unit": unit.id, "gun": gun_unit.id, "action": CREW, "crew": warrior.warrior_id},
    )


def _repair(state: GameState, unit: Unit, gun_id: str) -> None:
    gun_unit = _gun_unit(state, unit, gun_id)
    plan = repair_plan(state, unit, gun_unit)
    if isinstance(plan, str):
        raise IllegalCommand(plan)
    assert unit.hex is not None and gun_unit.hex is not None
    gun = _gun(gun_unit)
    assert gun is not None
    try:
        attempt = ts.repair_gun(gun, plan, state.dice, state.turn, distance(unit.hex, gun_unit.hex))
    except ts.IllegalAction as exc:
        raise IllegalCommand(str(exc)) from None
    systems.store_damage(gun_unit, attempt.gun)
    gun_unit.weapons_fired.append(REPAIR)
    lines = [f"{attempt.account} (TS-9)"]
    gone = _mark_destroyed([gun_unit], lines)
    log_event(
        state,
        "gun",
        "\n".join(lines),
        data={
            "unit": unit.id,
            "gun": gun_unit.id,
            "action": REPAIR,
            "outcome": attempt.outcome,
            "destroyed": gone,
        },
        rolls=state.dice.take_records(),
    )


def _store_warrior(unit: Unit, warrior: ts.Warrior) -> None:
    """Store one warrior of ``unit`` as it now is; its comrades stay as they were."""
    systems.store_damage(
        unit, tuple(warrior if w.warrior_id == warrior.warrior_id else w for w in _warriors(unit))
    )


def _wound(unit: Unit, warrior: ts.Warrior) -> None:
    """A warrior beaten in the melee for a gun goes to the hospital (off the board)."""
    _store_warrior(unit, replace(warrior, status="wounded"))


def _capture(state: GameState, unit: Unit, gun_id: str) -> None:
    gun_unit = _gun_unit(state, unit, gun_id)
    plan = capture_plan(state, unit, gun_unit)
    if isinstance(plan, str):
        raise IllegalCommand(plan)
    old = gun_unit.side
    gun = plan.gun
    data: dict[str, Any] = {"unit": unit.id, "gun": gun_unit.id, "action": CAPTURE, "from": old}
    lines = []
    if plan.guards:
        # TS-10: guarded, so a melee first (the procedure is a decision, fight_for_gun).
        unit.weapons_fired.append(CAPTURE)  # one fight for a gun a turn
        fight = ts.fight_for_gun(state.dice, plan.captors, len(plan.guards), gun.name)
        lines.append(f"{unit.name} {fight.account(unit.name, gun.name)}")
        data.update(captors=plan.captors, guards=len(plan.guards), won=fight.won)
        if fight.won:
            guard_unit, guard = plan.guards[0]
            _wound(guard_unit, guard)
            lines.append(f"  {guard.name} of {guard_unit.name} is wounded, to the hospital")
        else:
            captor = next(w for w in _warriors(unit) if w.on_board)
            _wound(unit, captor)
            lines.append(f"  {captor.name} of {unit.name} is wounded, to the hospital")
            lines.append(f"  the {gun.name} stays with {old}")
    if not plan.guards or data["won"]:
        systems.store_damage(gun_unit, gun)
        gun_unit.side = unit.side  # TS-10: the gun now belongs to the captor
        lines.append(
            f"{unit.name} captures the {gun.name} from {old}: it is {gun.status} and "
            "uncrewed (TS-10)"
        )
    data["destroyed"] = _mark_destroyed([unit, *(u for u, _ in plan.guards)], lines)
    log_event(state, "gun", "\n".join(lines), data=data, rolls=state.dice.take_records())


_GUN_PLANS: dict[str, Callable[[GameState, Unit, Unit, ToyField], object]] = {
    CREW: crew_plan,
    REPAIR: repair_plan,
    CAPTURE: capture_plan,
}


def _gun_options(state: GameState, unit: Unit) -> list[tuple[str, str]]:
    if unit.system != TOY_SOLDIERS or unit.hex is None or unit.damage.get("kind") != "warriors":
        return []
    field = ToyField(state)
    out = []
    for gun_unit, _ in field.gun_units():
        if gun_unit.hidden and gun_unit.side != unit.side:
            continue
        if distance(gun_unit.hex, unit.hex) > ts.CLOSE_DISTANCE:  # type: ignore[arg-type]
            continue
        for action, plan in _GUN_PLANS.items():
            if not isinstance(plan(state, unit, gun_unit, field), str):
                out.append((gun_unit.id, action))
    return out


# --- registration ---------------------------------------------------------------------------


def _two_attacks(
    system: str,
    unit_word: str,
    attacks: dict[str, tuple[Callable[..., object], Callable[[GameState, Unit, Unit], None]]],
) -> AttackRules:
    """The attack rules of a system whose units have two kinds of attack, each a
    plan (a plan object, or the reason it is refused) and a resolution."""

    def options(state: GameState, unit: Unit) -> list[tuple[str, str]]:
        return [
            (target.id, weapon)
            for target in _foes(state, unit, system)
            for weapon, (plan, _) in attacks.items()
            if not isinstance(plan(state, unit, target), str)
        ]

    def resolve(state: GameState, unit: Unit, target: Unit, weapon: str) -> None:
        if weapon not in attacks:
            words = " or ".join(f"'{w}'" for w in attacks)
            raise IllegalCommand(f"{unit_word} attacks with {words}, not {weapon!r}")
        attacks[weapon][1](state, unit, target)

    return AttackRules(options, resolve)


SYSTEM_RULES[BATTLESYSTEM] = _two_attacks(
    BATTLESYSTEM,
    "a BATTLESYSTEM regiment",
    {
        MISSILE: (missile_plan, _volley),
        MAGICAL: (magical_plan, _magical_volley),
        MELEE: (melee_plan, _melee),
    },
)
SYSTEM_RULES[WARHAMMER] = _two_attacks(
    WARHAMMER,
    "a Warhammer unit",
    {SHOOTING: (shooting_plan, _shoot), CLOSE_COMBAT: (combat_plan, _close_combat)},
)
SYSTEM_RULES[TOY_SOLDIERS] = AttackRules(_toy_options, _toy_resolve)
for _opening in (_part_combats, _battlesystem_opening, _toy_opening):
    if _opening not in PHASE_OPENINGS:
        PHASE_OPENINGS.append(_opening)
ANSWERS.update(
    {
        CHARGE_TARGET: _declare_charge,
        SET_SPEARS: _react,
        STAND_AND_SHOOT: _react,
        ORDER_OF_FIRE: _choose_order,
        FIRE_AFTER_MANOEUVRE: _fire_after_manoeuvre,
    }
)
for _ending in (_note_charges, _offer_manoeuvre_fire):
    if _ending not in MOVE_ENDINGS:
        MOVE_ENDINGS.append(_ending)
GUN_ACTIONS.update({CREW: _crew, REPAIR: _repair, CAPTURE: _capture})
if _gun_options not in GUN_ACTION_OPTIONS:
    GUN_ACTION_OPTIONS.append(_gun_options)
