"""BATTLESYSTEM regiments on the board (BS-1 .. BS-20): missile and magical volleys,
melee rounds, charges and the turn's bookkeeping, each checked completely before any
die is rolled (``game.rules.battlesystem`` rolls them).

Commands (``Attack(side, unit, target, weapon)``): ``weapon="missile"``, a volley
(BS-13 .. BS-19); ``"magical missile"``, a volley of the regiment's magical missiles
(BS-14); ``"melee"``, one melee round against an adjacent regiment, both striking
(BS-9 .. BS-12). docs/engine-systems.md gives every decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from game.board.los import line_steps
from game.board.terrain import BUILDING, CLEAR, HEAVY_WOODS, LIGHT_WOODS, TERRAIN_NAMES
from game.hexmath import Hex, distance
from game.rules import battlesystem as bs
from game.state.board import log_event
from game.state.combat.common import (
    SystemRules,
    ask,
    by_weapon,
    frozen,
    ground_level,
    mark_destroyed,
    plural,
    terrain_at,
)
from game.state.combat.contact import (
    HOLD,
    charge,
    charger_of,
    contact_refusal,
    engaged,
    facing_side,
    fought,
    log_reaction,
    moved_into_contact,
    reaction,
)
from game.state.commands import IllegalCommand
from game.state.model import GameState, Unit
from game.state.systems import has_missile_weapons, store_damage

if TYPE_CHECKING:  # the view imports the engine, which imports this package
    from game.state.view import PlayerView


BATTLESYSTEM = "battlesystem"
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
    return _placed(frozen(unit.damage["unit"]), unit.hex, unit.facing)


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

    def __init__(self, state: GameState | PlayerView, shooter: Unit, target: Unit) -> None:
        self.state = state
        self.shooter = shooter
        self.target = target
        assert target.hex is not None
        self.aim = target.hex
        self.seen: dict[Hex, bs.SightLine] = {}

    def __call__(self, figure_hex: Hex, figures: list[Hex]) -> bs.SightLine:
        if figure_hex not in self.seen:
            self._draw([figure_hex, *(h for h in figures if h not in self.seen)])
        return self.seen[figure_hex]

    def _draw(self, figures: list[Hex]) -> None:
        figures = list(dict.fromkeys(figures))
        lines = sight_lines(
            self.state, self.shooter, self.target, figures, [self.aim] * len(figures)
        )
        self.seen.update(zip(figures, lines, strict=True))


def sight_lines(
    state: GameState | PlayerView, shooter: Unit, target: Unit, figures: list[Hex], aims: list[Hex]
) -> list[bs.SightLine]:
    """BS-15 .. BS-17: what lies on the line from each of ``figures`` to the hex of
    ``aims`` beside it (the target's counter or one of its figures), all drawn at once."""
    area = state.area
    fq = np.array([h.q for h in figures], dtype=np.int32)
    fr = np.array([h.r for h in figures], dtype=np.int32)
    aq = np.array([h.q for h in aims], dtype=np.int32)
    ar = np.array([h.r for h in aims], dtype=np.int32)
    longest = max(distance(h, aim) for h, aim in zip(figures, aims, strict=True))
    q, r, valid = line_steps(aq - fq, ar - fr, max(1, longest - 1))
    hq, hr = q + fq[:, None], r + fr[:, None]
    idx = area.indices_of(hq, hr)
    inside = idx >= 0
    at = np.where(inside, idx, 0)
    level = np.where(inside, area.level[at], 0)
    terrain = np.where(inside, area.terrain[at], CLEAR)
    building_top = np.where(terrain == BUILDING, level + area.terrain_height[at], level)
    eyes = np.array([ground_level(state, h) for h in figures]) + shooter.height
    highs = {aim: ground_level(state, aim) for aim in aims}
    aimed = np.array([highs[aim] for aim in aims]) + target.height
    above = np.maximum(eyes, aimed)[:, None]
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
    out = []
    for i, (h, aim) in enumerate(zip(figures, aims, strict=True)):
        if hill[i]:
            out.append(bs.SightLine(hill_between=True))
            continue
        if wall[i]:
            out.append(bs.SightLine(wall_between=True))
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
        out.append(
            bs.SightLine(
                shooter_on_high_ground=ground_level(state, h) > highs[aim],
                dense_woods=Fraction(int(dense[i])),
                light_woods=Fraction(int(light[i])),
                units_between=in_the_way,
            )
        )
    return out


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


def magical_plan(state: GameState | PlayerView, unit: Unit, target: Unit) -> Volley | str:
    """BS-14: a volley of the regiment's magical missiles (their own attack dice,
    ``magical_ad``, else its ordinary ones), while it has magical volleys left."""
    return missile_plan(state, unit, target, magical=True)


def missile_plan(
    state: GameState | PlayerView, unit: Unit, target: Unit, *, magical: bool = False
) -> Volley | str:
    """BS-13 .. BS-19: the volley ``unit`` could loose at ``target`` now, or why not."""
    assert unit.hex is not None and target.hex is not None
    if not has_missile_weapons(unit):
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

    in_woods = terrain_at(state, target.hex) in (LIGHT_WOODS, HEAVY_WOODS)
    height = ground_level(state, unit.hex) - ground_level(state, target.hex)
    cover = "wall" if terrain_at(state, target.hex) == BUILDING else None
    in_melee = bool(engaged(state, unit))
    friends_fighting = any(u.side == unit.side for u in engaged(state, target))

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


def figures_in_sight(
    state: GameState | PlayerView, unit: Unit, target: Unit, volley: Volley
) -> list[bs.Cell]:
    """BS-15: the target's figures that at least one firing figure can see; casualties
    come only from these, and hits beyond them are lost."""
    shooter, aimed = battle_unit(unit), battle_unit(target)
    firing = [shooter.cell_hex(c) for c in (*volley.direct, *volley.indirect)]
    targets = aimed.figure_hexes()
    if not firing:
        return []
    # Every firing figure's line to every figure of the target, drawn at once.
    lines = sight_lines(
        state,
        unit,
        target,
        [f for _ in targets for f in firing],
        [h for h in targets.values() for _ in firing],
    )
    return [
        cell
        for k, cell in enumerate(targets)
        if any(
            bs.sight(line, shooter_size=shooter.size).visible
            for line in lines[k * len(firing) : (k + 1) * len(firing)]
        )
    ]


def _inches(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):g}"


def _casualty_text(name: str, casualties: bs.CasualtyRemoval | None, before: int) -> str:
    if casualties is None:
        return f"{name}: no hits"
    after = casualties.unit
    text = (
        f"{name}: {plural(len(casualties.removed), 'figure')} removed "
        f"({before} -> {after.figures}), {plural(after.carried_hits, 'hit')} carried (BS-4)"
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
    store_damage(unit, replace(result.shooter, attack_dice=battle_unit(unit).attack_dice))
    store_damage(target, result.target)
    unit.attacked = True  # ART-18
    unit.weapons_fired.append(MISSILE)
    who = plural(len(plan.direct), "figure") + " direct"
    if plan.indirect:
        who += f", {len(plan.indirect)} indirect over friends (BS-17)"
    what = "a volley"
    if magical:
        left = result.shooter.magical_volleys
        what = f"a magical volley ({plural(left, 'magical volley')} left, BS-14)"
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
                f"  {plural(len(group.direct) + len(group.indirect), 'figure')} {what}: "
                f"{group.dice_count} AD (BS-19)"
            )
            head = "    "
        lines += [f"{head}{strike.roll}", f"{head}{strike.check} [{group.armor.breakdown()}]"]
    if len(in_sight) < aimed.figures:
        lines.append(
            f"  {plural(len(in_sight), 'figure')} of {target.name} in sight: casualties "
            "only among them, further hits lost (BS-15)"
        )
    lines.append(f"  {_casualty_text(target.name, result.casualties, aimed.figures)}")
    gone = mark_destroyed([target], lines)
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


def _on_preferred_terrain(state: GameState | PlayerView, unit: Unit) -> bool:
    """BS-11: the regiment stands on terrain its creatures prefer (-2 AR): its
    counter's hex is of a terrain named in the profile's ``preferred_terrain``."""
    assert unit.hex is not None
    preferred = unit.profile.get("preferred_terrain") or ()
    return TERRAIN_NAMES[terrain_at(state, unit.hex)] in preferred


def melee_plan(state: GameState | PlayerView, unit: Unit, target: Unit) -> MeleePlan | str:
    """BS-9 .. BS-12: the melee round ``unit`` could start against ``target``, or why not."""
    refusal = contact_refusal(unit, target, MELEE, "melee", "regiments", "led a melee")
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
    level_a, level_b = ground_level(state, unit.hex), ground_level(state, target.hex)
    cover = BUILDING in (terrain_at(state, unit.hex), terrain_at(state, target.hex))
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
    store_damage(unit, result.a)
    store_damage(target, result.b)
    fought(unit, target, MELEE)
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
    gone = mark_destroyed([target, unit], lines)
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


def _open_attack_phase(state: GameState) -> None:
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
        store_damage(unit, regiment)


# --- charges (BS-12) ----------------------------------------------------------------------------

CHARGE_TARGET = "charge target"
SET_SPEARS = "set spears"


def _note_charges(state: GameState, unit: Unit, start: Hex | None) -> None:
    """A regiment whose move brings it into contact with an enemy regiment charges it
    (BS-12)."""
    met = moved_into_contact(state, unit, start)
    if len(met) > 1:
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


def _foe_label(state: GameState, foe: Unit) -> str:
    """An enemy as a choice: its name, with its id when two of its side share the name."""
    twins = sum(1 for other in state.living(foe.side) if other.name == foe.name)
    return foe.name if twins == 1 else f"{foe.name} ({foe.id})"


def _declare_charge(state: GameState, question: dict[str, Any], choice: str) -> None:
    """BS-12: the charger's player named the enemy it charged among those it reached."""
    charger = state.units[question["unit"]]
    foe = next(foe for foe in engaged(state, charger) if _foe_label(state, foe) == choice)
    _charge(state, charger, foe)


def _charge(state: GameState, unit: Unit, foe: Unit) -> None:
    """The charge arrives: a regiment with spears, pikes or polearms charged in front
    may set them against it (BS-12: "если играющий ими объявил"); its player chooses."""
    charge(state, unit, foe, "BS-12")
    assert unit.hex is not None
    weapon = battle_unit(foe).weapon
    if weapon not in bs.REACH_WEAPONS or facing_side(foe, unit.hex) != "front":
        return
    ask(
        state,
        foe.side,
        SET_SPEARS,
        f"{unit.name} charges {foe.name} in front: set its {weapon}s against the "
        "charge, x2 AD against the charger (BS-12)?",
        [SET_SPEARS, HOLD],
        foe.id,
        unit.id,
    )


def _set_spears(state: GameState, question: dict[str, Any], choice: str) -> None:
    """The charged regiment's answer, kept for this turn's first round (BS-12)."""
    charged, charger = reaction(state, question, choice)
    text = None
    if choice == SET_SPEARS:
        text = f"{charged.name} sets its spears against the charge of {charger.name} (BS-12)"
    log_reaction(state, charged, charger, choice, text)


RULES = SystemRules(
    BATTLESYSTEM,
    *by_weapon(
        BATTLESYSTEM,
        "a BATTLESYSTEM regiment",
        {
            MISSILE: (missile_plan, _volley),
            MAGICAL: (magical_plan, _magical_volley),
            MELEE: (melee_plan, _melee),
        },
    ),
    opening=_open_attack_phase,
    move_ending=_note_charges,
    answers={CHARGE_TARGET: _declare_charge, SET_SPEARS: _set_spears},
)
