"""The weapon attack phase: direct attacks resolved by each unit's own system.

Decision (docs/engine.md): units fight units of their own system directly
(BattleTech-style direct fire, BATTLESYSTEM and Warhammer shooting and melee,
toy-soldier virtual shooting); artillery hits every system through the ART-35
conversions. An attack is checked completely before any die is rolled.

Each system registers an ``AttackRules`` entry: ``options`` lists the legal
(target, weapon) pairs of a unit, ``resolve`` checks and carries out one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.board.los import line_of_sight
from game.board.terrain import HEAVY_WOODS, LIGHT_WOODS
from game.hexmath import Hex, distance
from game.rules import battletech as bt
from game.state.board import knows_unit, log_event, reveal
from game.state.commands import IllegalCommand
from game.state.model import GameState, Unit
from game.state.spotting import spotting_this_turn


@dataclass(frozen=True)
class AttackRules:
    options: Callable[[GameState, Unit], list[tuple[str, str]]]
    resolve: Callable[[GameState, Unit, Unit, str], None]


SYSTEM_RULES: dict[str, AttackRules] = {}


def begin_attack_phase(state: GameState) -> None:
    """Start of the weapon attack phase: each system's own opening (e.g. TS-1)."""
    for hook in PHASE_OPENINGS:
        hook(state)


PHASE_OPENINGS: list[Callable[[GameState], None]] = []


def _target_of(state: GameState, unit: Unit, target_id: str) -> Unit:
    target = state.units.get(target_id)
    if target is None or not knows_unit(state, unit.side, target):
        raise IllegalCommand(f"there is no enemy unit {target_id!r} in sight")
    if target.side == unit.side:
        raise IllegalCommand(f"{target.name} is on your side")
    if target.destroyed:
        raise IllegalCommand(f"{target.name} is already destroyed")
    return target


def end_of_move(state: GameState, unit: Unit, start: Hex | None) -> None:
    """A unit has ended its move (from ``start``): each system notes what the move
    did in its own terms (a charge into contact, BS-12, WHC-1)."""
    for hook in MOVE_ENDINGS:
        hook(state, unit, start)


MOVE_ENDINGS: list[Callable[[GameState, Unit, Hex | None], None]] = []


def ask(
    state: GameState,
    side: str,
    topic: str,
    text: str,
    choices: list[str],
    unit: str = "",
    about: str = "",
) -> None:
    """Put a choice to ``side`` before play goes on (answered with ``Answer``): the
    ``topic`` names the rule's handler in ``ANSWERS``; ``unit`` and ``about`` the
    units it concerns. Questions and their answers are public."""
    question = {
        "side": side,
        "topic": topic,
        "text": text,
        "choices": list(choices),
        "unit": unit,
        "about": about,
    }
    state.questions.append(question)
    record = {**question, "choices": list(choices)}  # the log's copy, apart from the state's
    log_event(state, "question", f"{side}: {text} ({' / '.join(choices)})", data=record)


def answer(state: GameState, choice: str) -> None:
    """The acting side answers the first open question (checked before any change)."""
    question = state.questions[0]
    if choice not in question["choices"]:
        given = f"{choice!r} is not one of the answers" if choice.strip() else "no answer given"
        raise IllegalCommand(
            f"{given}: answer {' or '.join(repr(c) for c in question['choices'])} to "
            f'"{question["text"]}"'
        )
    state.questions.pop(0)
    ANSWERS[question["topic"]](state, question, choice)


ANSWERS: dict[str, Callable[[GameState, dict[str, Any], str], None]] = {}


def attack(state: GameState, unit: Unit, target_id: str, weapon: str) -> None:
    """Check and resolve one direct attack (raises IllegalCommand before any change)."""
    if unit.hex is None:
        raise IllegalCommand(f"{unit.name} is off the board")
    target = _target_of(state, unit, target_id)
    if target.altitude is not None:
        raise IllegalCommand(
            f"{target.name} flies at altitude {target.altitude}: only artillery bursting "
            "under it reaches it (ART-28, ART-36)"
        )
    if target.system != unit.system:
        raise IllegalCommand(
            f"{unit.name} ({unit.system}) cannot attack {target.name} ({target.system}) "
            "directly: each system fights its own kind; artillery hits them all"
        )
    rules = SYSTEM_RULES.get(unit.system)
    if rules is None:
        raise IllegalCommand(f"{unit.system} units have no direct attacks")
    rules.resolve(state, unit, target, weapon)
    if unit.hidden:
        reveal(state, unit, "it attacked")


def attack_options(state: GameState, unit: Unit) -> list[tuple[str, str]]:
    """Every (target id, weapon) this unit may attack with now."""
    rules = SYSTEM_RULES.get(unit.system)
    if rules is None or unit.hex is None or unit.destroyed:
        return []
    return rules.options(state, unit)


def gun_action(state: GameState, unit: Unit, gun_id: str, action: str) -> None:
    """Toy soldiers: crew, repair or capture a gun (TS-9 .. TS-11)."""
    handler = GUN_ACTIONS.get(action)
    if handler is None:
        raise IllegalCommand(f"a gun can be crewed, repaired or captured, not {action!r}")
    handler(state, unit, gun_id)


GUN_ACTIONS: dict[str, Callable[[GameState, Unit, str], None]] = {}


def gun_action_options(state: GameState, unit: Unit) -> list[tuple[str, str]]:
    """Every (gun id, action) this unit may take now (TS-9 .. TS-11)."""
    if unit.hex is None or unit.destroyed:
        return []
    return [option for options in GUN_ACTION_OPTIONS for option in options(state, unit)]


GUN_ACTION_OPTIONS: list[Callable[[GameState, Unit], list[tuple[str, str]]]] = []


# --- BattleTech-style direct fire (ART-32, ART-32a, ART-18) ------------------------------


def _bt_weapons(unit: Unit) -> list[str]:
    return [str(w) for w in unit.profile.get("weapons", [])]


def _bt_target_number(state: GameState, unit: Unit, target: Unit, weapon: str):
    """The to-hit number, or the reason the shot is impossible."""
    assert unit.hex is not None and target.hex is not None
    if weapon not in _bt_weapons(unit):
        return (
            f"{unit.name} carries no {weapon!r} (it has: {', '.join(_bt_weapons(unit)) or 'none'})"
        )
    if weapon in unit.weapons_fired:
        return f"{unit.name} has already fired its {weapon} this turn"
    spec = bt.direct_fire_weapon(weapon)
    rng = distance(unit.hex, target.hex)
    refusal = bt.direct_fire_refusal(rng, spec.ranges)
    if refusal:
        return f"{spec.name} at {target.name}: {refusal}"
    sight = line_of_sight(state.area, unit.hex, target.hex, unit.height, target.height)
    if not sight:
        return f"no line of sight to {target.name}: {sight.reason}"
    woods = [*sight.woods_hexes, target.hex]
    terrain = state.area.terrain
    light = sum(
        1 for h in woods if (i := state.area.index_of(h)) >= 0 and terrain[i] == LIGHT_WOODS
    )
    heavy = sum(
        1 for h in woods if (i := state.area.index_of(h)) >= 0 and terrain[i] == HEAVY_WOODS
    )
    return bt.direct_fire_target_number(
        unit.gunnery,
        rng,
        spec.ranges,
        attacker_moved=unit.movement_mode if unit.movement_mode in ("walked", "ran") else "stood",
        target_hexes_moved=target.hexes_moved,
        light_woods=light,
        heavy_woods=heavy,
        spotting=spotting_this_turn(state, unit),
        minimum_range=spec.minimum_range,
    )


def _bt_options(state: GameState, unit: Unit) -> list[tuple[str, str]]:
    out = []
    for target in state.living(state.other(unit.side)):
        if target.hex is None or target.hidden or target.system != "battletech":
            continue
        if target.altitude is not None:
            continue  # ART-36: no direct fire reaches an aircraft

        for weapon in _bt_weapons(unit):
            if not isinstance(_bt_target_number(state, unit, target, weapon), str):
                out.append((target.id, weapon))
    return out


def _bt_resolve(state: GameState, unit: Unit, target: Unit, weapon: str) -> None:
    tn = _bt_target_number(state, unit, target, weapon)
    if isinstance(tn, str):
        raise IllegalCommand(tn)
    assert unit.hex is not None and target.hex is not None
    spec = bt.direct_fire_weapon(weapon)
    to_hit = bt.roll_to_hit(state.dice, tn, f"{unit.name} {spec.name} to hit")
    unit.attacked = True
    unit.weapons_fired.append(weapon)
    lines = [f"{unit.name} fires {spec.name} at {target.name}: {to_hit} [{tn.breakdown()}]"]
    data: dict = {"attacker": unit.id, "target": target.id, "weapon": weapon, "hit": to_hit.hit}
    if to_hit.hit:
        hit = bt.weapon_damage(spec, state.dice)
        direction = bt.attack_direction_from(target.hex, target.facing, unit.hex, target.kind)
        state_obj = bt.damage_state_from_dict(target.damage)
        result = bt.apply_damage(state_obj, hit.damage, direction, state.dice, hit.group_size)
        target.damage = result.state.to_dict()
        lines += [f"{hit.damage} damage from the {direction}:", *result.lines]
        data["damage"] = hit.damage
        if result.destroyed:
            target.destroyed = True
            lines.append(f"{target.name} is destroyed ({result.destroyed_reason})")
            data["destroyed"] = True
    log_event(state, "attack", "\n".join(lines), data=data, rolls=state.dice.take_records())


SYSTEM_RULES["battletech"] = AttackRules(_bt_options, _bt_resolve)


# The other systems' rules register themselves on import (BATTLESYSTEM, Warhammer,
# toy soldiers); importing them here keeps them registered wherever combat is used.
from game.state import combat_systems  # noqa: E402, F401
