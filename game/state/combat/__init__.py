"""The weapon attack phase: direct attacks resolved by each unit's own system.

Decision (docs/engine.md): units fight units of their own system directly
(BattleTech-style direct fire, BATTLESYSTEM and Warhammer shooting and melee,
toy-soldier virtual shooting); artillery hits every system through the ART-35
conversions. An attack is checked completely before any die is rolled.

Each system is a module of this package exporting its ``RULES``
(``common.SystemRules``): ``battletech``, ``battlesystem``, ``warhammer``,
``toysoldiers``; ``contact`` keeps the hand-to-hand bookkeeping BATTLESYSTEM and
Warhammer share. The table below names them all; the engine reaches them only
through the functions of this module.
"""

from __future__ import annotations

from collections.abc import Callable

from game.hexmath import Hex
from game.state.board import knows_unit, reveal
from game.state.combat import battlesystem, battletech, toysoldiers, warhammer
from game.state.combat.battlesystem import (
    BATTLESYSTEM,
    CHARGE_TARGET,
    MAGICAL,
    MELEE,
    MISSILE,
    SET_SPEARS,
    MeleePlan,
    Volley,
    battle_unit,
    figures_in_sight,
    magical_plan,
    melee_plan,
    missile_plan,
)
from game.state.combat.battletech import BATTLETECH
from game.state.combat.common import AnswerHandler, GunActionHandler, SystemRules, ask
from game.state.combat.contact import HOLD, charger_of, facing_side, part_combats
from game.state.combat.toysoldiers import (
    CAPTURE,
    CREW,
    FIRE_AFTER_MANOEUVRE,
    FIRE_FIRST,
    FIRE_SECOND,
    HOLD_FIRE,
    MANOEUVRE_SHOTS,
    NO_MELEE,
    ORDER_OF_FIRE,
    REPAIR,
    SHOT,
    TOY_SOLDIERS,
    CapturePlan,
    ShotPlan,
    ToyField,
    capture_plan,
    crew_plan,
    manoeuvre_targets,
    repair_plan,
    shooting_phase,
    shot_plan,
)
from game.state.combat.warhammer import (
    CLOSE_COMBAT,
    SHOOTING,
    STAND_AND_SHOOT,
    WARHAMMER,
    CombatPlan,
    RoundOutcome,
    ShootingPlan,
    break_chance,
    close_combat_to_hit,
    combat_plan,
    fall_back_hex,
    round_outcome,
    round_outcomes,
    shooting_plan,
    standing_scores,
    troops,
)
from game.state.commands import IllegalCommand
from game.state.model import GameState, Unit

# Every system with direct attacks. Their order is the order in which their openings
# run at the start of the attack phase (BATTLESYSTEM's turn bookkeeping, then TS-1's
# shooting initiative, which rolls dice).
SYSTEMS: tuple[SystemRules, ...] = (
    battletech.RULES,
    battlesystem.RULES,
    warhammer.RULES,
    toysoldiers.RULES,
)
SYSTEM_RULES: dict[str, SystemRules] = {rules.system: rules for rules in SYSTEMS}
# Combats whose units no longer stand side by side end before any system opens its
# phase (BS-6, WHC-1).
PHASE_OPENINGS: tuple[Callable[[GameState], None], ...] = (
    part_combats,
    *(rules.opening for rules in SYSTEMS if rules.opening is not None),
)
# The handlers of the questions the systems put to players, by topic.
ANSWERS: dict[str, AnswerHandler] = {
    topic: handler for rules in SYSTEMS for topic, handler in rules.answers.items()
}
GUN_ACTIONS: dict[str, GunActionHandler] = {
    action: handler for rules in SYSTEMS for action, handler in rules.gun_actions.items()
}

__all__ = [
    "ANSWERS",
    "BATTLESYSTEM",
    "BATTLETECH",
    "CAPTURE",
    "CHARGE_TARGET",
    "CLOSE_COMBAT",
    "CREW",
    "FIRE_AFTER_MANOEUVRE",
    "FIRE_FIRST",
    "FIRE_SECOND",
    "GUN_ACTIONS",
    "HOLD",
    "HOLD_FIRE",
    "MAGICAL",
    "MANOEUVRE_SHOTS",
    "MELEE",
    "MISSILE",
    "NO_MELEE",
    "ORDER_OF_FIRE",
    "PHASE_OPENINGS",
    "REPAIR",
    "SET_SPEARS",
    "SHOOTING",
    "SHOT",
    "STAND_AND_SHOOT",
    "SYSTEMS",
    "SYSTEM_RULES",
    "TOY_SOLDIERS",
    "WARHAMMER",
    "CapturePlan",
    "CombatPlan",
    "MeleePlan",
    "RoundOutcome",
    "ShootingPlan",
    "ShotPlan",
    "SystemRules",
    "ToyField",
    "Volley",
    "answer",
    "ask",
    "attack",
    "attack_options",
    "battle_unit",
    "begin_attack_phase",
    "break_chance",
    "capture_plan",
    "charger_of",
    "close_combat_to_hit",
    "combat_plan",
    "crew_plan",
    "end_of_move",
    "facing_side",
    "fall_back_hex",
    "figures_in_sight",
    "gun_action",
    "gun_action_options",
    "magical_plan",
    "manoeuvre_targets",
    "melee_plan",
    "missile_plan",
    "repair_plan",
    "round_outcome",
    "round_outcomes",
    "shooting_phase",
    "shooting_plan",
    "shot_plan",
    "standing_scores",
    "troops",
]


def begin_attack_phase(state: GameState) -> None:
    """Start of the weapon attack phase: each system's own opening (e.g. TS-1)."""
    for opening in PHASE_OPENINGS:
        opening(state)


def end_of_move(state: GameState, unit: Unit, start: Hex | None) -> None:
    """A unit has ended its move (from ``start``): its system notes what the move did
    in its own terms (a charge into contact, BS-12, WHC-1; fire after a manoeuvre,
    TS-13)."""
    rules = SYSTEM_RULES.get(unit.system)
    if rules is not None and rules.move_ending is not None:
        rules.move_ending(state, unit, start)


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


def _target_of(state: GameState, unit: Unit, target_id: str) -> Unit:
    target = state.units.get(target_id)
    if target is None or not knows_unit(state, unit.side, target):
        raise IllegalCommand(f"there is no enemy unit {target_id!r} in sight")
    if target.side == unit.side:
        raise IllegalCommand(f"{target.name} is on your side")
    if target.destroyed:
        raise IllegalCommand(f"{target.name} is already destroyed")
    return target


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


def gun_action_options(state: GameState, unit: Unit) -> list[tuple[str, str]]:
    """Every (gun id, action) this unit may take now (TS-9 .. TS-11)."""
    if unit.hex is None or unit.destroyed:
        return []
    return [
        option
        for rules in SYSTEMS
        if rules.gun_action_options is not None
        for option in rules.gun_action_options(state, unit)
    ]
