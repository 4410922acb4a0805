"""Toy soldiers on the board (TS-1 .. TS-13): the shooting initiative and bonus,
virtual shots, fire right after a manoeuvre, and the gun actions, each checked
completely before any die is rolled (``game.rules.toysoldiers`` rolls them).

Commands: ``Attack(side, unit, target, "shot")``, one virtual shot of the unit's
next shooter, paid from the side's shooting bonus (TS-1 .. TS-7);
``GunAction`` with ``"crew"``, ``"repair"`` or ``"capture"`` (TS-9 .. TS-11).
docs/engine-systems.md gives every decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from game.board.terrain import BUILDING
from game.hexmath import Hex, distance, line
from game.rules import toysoldiers as ts
from game.state.board import log_event
from game.state.combat.common import (
    SystemRules,
    ask,
    foes_in_sight,
    frozen,
    ground_level,
    mark_destroyed,
    plural,
)
from game.state.commands import IllegalCommand
from game.state.model import GameState, Unit
from game.state.systems import store_damage

if TYPE_CHECKING:  # the view imports the engine, which imports this package
    from game.state.view import PlayerView


TOY_SOLDIERS = "toysoldiers"
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
    return _gun_from(frozen(unit.damage["gun"]))


def _warriors(unit: Unit) -> tuple[ts.Warrior, ...]:
    if unit.damage.get("kind") != "warriors":
        return ()
    return tuple(_warrior_from(frozen(w)) for w in unit.damage["warriors"])


class ToyField:
    """The toy soldiers on the board, read once for a batch of questions: each
    unit's warriors and guns, who stands and who crews what."""

    def __init__(self, state: GameState | PlayerView) -> None:
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


def shooting_phase(state: GameState | PlayerView) -> ts.ShootingPhase | None:
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


def _building_height(state: GameState | PlayerView, h: Hex) -> int:
    i = state.area.index_of(h)
    if i < 0 or int(state.area.terrain[i]) != BUILDING:
        return 0
    return int(state.area.terrain_height[i])


def _fortress(state: GameState | PlayerView, h: Hex) -> tuple[bool, bool]:
    """TS-5: (on a fortress wall, on a tower) for a toy soldier in ``h``."""
    height = _building_height(state, h)
    return height > 0, height >= TOWER_HEIGHT


def _obstacle_heights(state: GameState | PlayerView, a: Hex, b: Hex) -> list[int]:
    """TS-3: how many steps each hex between shooter and target rises above the
    higher of them (a figure on a wall or tower stands on its top)."""
    eye = max(ground_level(state, h) + _building_height(state, h) for h in (a, b))
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


def _manoeuvre_shots(state: GameState | PlayerView) -> dict[str, int]:
    """TS-13: shots fired right after manoeuvres this turn, by shooter."""
    return dict(state.initiative.get(MANOEUVRE_SHOTS, {}))


def shot_plan(
    state: GameState | PlayerView,
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
        store_damage(target, after)
    else:
        _store_warrior(target, after)
    unit.attacked = True  # ART-18
    unit.weapons_fired.append(SHOT)
    left = plan.phase.remaining(unit.side)
    lines = [
        f"{shot.account} (TS-4, TS-7)",
        f"  fired right after {unit.name}'s manoeuvre: no melee for it this turn (TS-13)"
        if after_manoeuvre
        else f"  {unit.side} has {plural(left, 'shooting point')} left (TS-2)",
    ]
    gone = mark_destroyed([target], lines)
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


def manoeuvre_targets(state: GameState | PlayerView, unit: Unit) -> dict[str, Unit]:
    """TS-13: the targets ``unit`` could fire at right after its manoeuvre, by the
    words of the choice ("fire at <name>", with the id when names repeat)."""
    field = ToyField(state)
    targets = [
        t
        for t in foes_in_sight(state, unit, TOY_SOLDIERS)
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
    targets = manoeuvre_targets(state, unit)
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
    target = manoeuvre_targets(state, unit).get(choice)
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
        for target in foes_in_sight(state, unit, TOY_SOLDIERS)
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
    state: GameState | PlayerView, unit: Unit, gun_unit: Unit, field: ToyField | None = None
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
    store_damage(gun_unit, crewed)
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
    store_damage(gun_unit, attempt.gun)
    gun_unit.weapons_fired.append(REPAIR)
    lines = [f"{attempt.account} (TS-9)"]
    gone = mark_destroyed([gun_unit], lines)
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
    store_damage(
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
        store_damage(gun_unit, gun)
        gun_unit.side = unit.side  # TS-10: the gun now belongs to the captor
        lines.append(
            f"{unit.name} captures the {gun.name} from {old}: it is {gun.status} and "
            "uncrewed (TS-10)"
        )
    data["destroyed"] = mark_destroyed([unit, *(u for u, _ in plan.guards)], lines)
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


RULES = SystemRules(
    TOY_SOLDIERS,
    _toy_options,
    _toy_resolve,
    opening=_toy_opening,
    move_ending=_offer_manoeuvre_fire,
    answers={ORDER_OF_FIRE: _choose_order, FIRE_AFTER_MANOEUVRE: _fire_after_manoeuvre},
    gun_actions={CREW: _crew, REPAIR: _repair, CAPTURE: _capture},
    gun_action_options=_gun_options,
)
