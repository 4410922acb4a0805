"""The turn sequence and the one way to change a game: ``apply`` (ART-33).

A turn: initiative (2d6 per side, ties rerolled; the loser moves first);
movement, units alternating; targeting (each side plots its artillery in
secret); weapon attacks; the indirect artillery phase (every arrival in firing
order, then detection rolls, then this turn's shells leave the guns); the end
phase (victory, bookkeeping). The artillery and end phases run by themselves
after the last side ends its attacks.

``apply(state, command)`` validates the command completely before it changes
anything, so an ``IllegalCommand`` leaves the state untouched.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

import game.state.aircraft as aircraft
import game.state.artillery_phase as artillery_phase
import game.state.combat as combat
import game.state.counter_battery as counter_battery
import game.state.mobile as mobile
import game.state.moving as moving
import game.state.queries as queries
import game.state.victory as victory
from game.artillery.deployment import deployment_refusals, off_board_position
from game.artillery.plots import Plot
from game.artillery.predesignated import predesignation_refusal
from game.artillery.weapons import ammunition as ammunition_spec
from game.artillery.weapons import weapon as weapon_spec
from game.board.area import PlayArea
from game.hexmath import Hex, distance
from game.state.board import (
    knows_unit,
    log_event,
    reveal,
    shot_number,
    told_name,
)
from game.state.checks import record_checks
from game.state.commands import (
    Answer,
    Attack,
    Command,
    Deploy,
    EndPhase,
    Fly,
    GunAction,
    Hold,
    IllegalCommand,
    Move,
    PlaceSheet,
    PlotFire,
    Predesignate,
    checked,
)
from game.state.model import (
    ATTACK,
    MOVEMENT,
    OVER,
    SETUP,
    TARGETING,
    Event,
    GameState,
    OffBoard,
    Unit,
)
from game.state.setup import lattice_hex, side_pile

if TYPE_CHECKING:
    from game.state.view import PlayerView


def check_side(state: GameState, side: str) -> None:
    """ValueError for a side that is not in this game."""
    if side not in state.sides:
        raise ValueError(f"{side!r} is not a side in this game (sides: {', '.join(state.sides)})")


def acting_side(state: GameState) -> str | None:
    """The side that must act now (None once the game is over)."""
    if state.result is not None:
        return None
    if state.pending_sheet is not None:
        return state.pending_sheet.picker
    if state.questions:
        return str(state.questions[0]["side"])
    return state.active


# --- apply ---------------------------------------------------------------------------


def apply(state: GameState, command: Command) -> list[Event]:
    """Validate and carry out one command; return the events it caused.

    Raises ``IllegalCommand`` (and changes nothing) when the rules forbid it.
    """
    command = checked(command)
    if command.side not in state.sides:
        raise IllegalCommand(
            f"{command.side!r} is not a side in this game (sides: {', '.join(state.sides)})"
        )
    if state.result is not None:
        raise IllegalCommand(f"the game is over: {state.result.reason}")
    actor = acting_side(state)
    if command.side != actor:
        if state.pending_sheet is not None:
            raise IllegalCommand(f"{actor} must first place the new sheet")
        if state.questions:
            # A question put to the other side (a charge reaction, BS-12, WH-3) holds play.
            raise IllegalCommand(f"{actor} must first answer: {state.questions[0]['text']}")
        raise IllegalCommand(f"it is {actor}'s turn to act in the {state.phase} phase")
    handler = _HANDLERS.get((state.phase, type(command)))
    if state.questions and state.pending_sheet is None:
        handler = _answer if isinstance(command, Answer) else None
        if handler is None:
            raise IllegalCommand(f"first answer: {state.questions[0]['text']}")
    if state.pending_sheet is not None:
        handler = _place_sheet if isinstance(command, PlaceSheet) else None
        if handler is None:
            raise IllegalCommand("a new sheet must be placed before anything else happens")
    if handler is None and isinstance(command, Answer):
        raise IllegalCommand("there is no question to answer now")
    if handler is None:
        what = command.kind.replace("_", " ")
        article = "an" if what[0] in "aeiou" else "a"
        raise IllegalCommand(f"{article} {what} is not possible in the {state.phase} phase")
    start = len(state.log)
    turn = state.turn
    handler(state, command)
    state.commands.append(command.to_dict())
    leftover = state.dice.take_records()
    events = state.log[start:]
    if leftover and events:
        events[-1].rolls.extend(leftover)
    record_checks(state, events, turn)
    return events


# --- set-up (ART-1, ART-2, ART-20 .. ART-22) -------------------------------------------


def _battery_of(state: GameState, side: str, battery_id: str) -> Unit:
    unit = _own_unit(state, side, battery_id)
    if unit.battery is None:
        raise IllegalCommand(f"{unit.name} is not an artillery unit")
    return unit


def deployment_refusal(state: GameState | PlayerView, side: str, cmd: Deploy) -> str | None:
    """Why an off-board position is illegal (ART-1, ART-2, ART-3), or None. Over a side's
    view it is the set-up screen's check: it reads only the side's own batteries."""
    unit = state.units.get(cmd.battery)
    weapon = unit.battery.weapon if unit is not None and unit.battery is not None else None
    reasons = _area_refusals(state.area, side, cmd, weapon)
    if not reasons:
        reasons = _shared_position_refusals(state, side, cmd)
    return "; ".join(reasons) if reasons else None


# The area's part of a deployment's refusals reads only the sheets in play, which
# change only with the map (``PlayArea.revision``); the set-up's legal commands ask it
# of every position of every battery for each command of the set-up.
_AREA_REFUSALS: weakref.WeakKeyDictionary[PlayArea, tuple[int, dict[tuple, list[str]]]] = (
    weakref.WeakKeyDictionary()
)


def _area_refusals(area: PlayArea, side: str, cmd: Deploy, weapon: str | None) -> list[str]:
    """``deployment_refusals`` (ART-1, ART-2, ART-3) of ``cmd`` on ``area``, kept per map."""
    kept = _AREA_REFUSALS.get(area)
    if kept is None or kept[0] != area.revision:
        kept = _AREA_REFUSALS[area] = (area.revision, {})
    key = (side, cmd.direction, cmd.distance, cmd.sheet, cmd.xxyy, cmd.along, weapon)
    # Kept only for fields of their own kinds (a float or a bool is refused by name).
    plain = (
        type(cmd.distance) is int
        and type(cmd.along) is int
        and all(type(v) is str for v in (side, cmd.direction, cmd.sheet, cmd.xxyy))
    )
    reasons = kept[1].get(key) if plain else None
    if reasons is None:
        reasons = deployment_refusals(
            area,
            side,
            cmd.direction,
            cmd.distance,
            cmd.sheet,
            cmd.xxyy,
            cmd.along,
            sheets=area.catalogue,
            weapon_=weapon,
        )
        if plain:
            kept[1][key] = reasons
    return list(reasons)


def _shared_position_refusals(state: GameState | PlayerView, side: str, cmd: Deploy) -> list[str]:
    """MAP-10: batteries at one sheet position stand on one sheet, in different hexes."""
    others = [
        (other, off)
        for other in state.living(side)
        if other.id != cmd.battery
        and other.battery is not None
        and (off := other.battery.offboard) is not None
    ]
    if not others:
        return []  # the side's only battery off the board shares no position
    pos = off_board_position(state.area, cmd.direction, cmd.distance, cmd.along)
    for other, off in others:
        if off.position != pos:
            continue
        if off.sheet != cmd.sheet:
            return [
                f"{other.name} already stands at sheet position ({pos[0]},{pos[1]}) on sheet "
                f"{off.sheet!r}; one position holds one sheet (MAP-10)"
            ]
        if off.hex == lattice_hex(pos, cmd.xxyy):  # places, not names (MAP-10)
            return [f"{other.name} already stands in hex {cmd.xxyy} of that sheet"]
    return []


def _deploy(state: GameState, cmd: Command) -> None:
    assert isinstance(cmd, Deploy)
    unit = _battery_of(state, cmd.side, cmd.battery)
    battery = unit.battery
    assert battery is not None
    if battery.offboard is None:
        raise IllegalCommand(f"{unit.name} stands on the board")
    reason = deployment_refusal(state, cmd.side, cmd)
    if reason:
        raise IllegalCommand(reason)
    pos = off_board_position(state.area, cmd.direction, cmd.distance, cmd.along)
    battery.offboard = OffBoard(
        cmd.direction, cmd.along, cmd.distance, pos, cmd.sheet, cmd.xxyy, lattice_hex(pos, cmd.xxyy)
    )
    if state.options.get("sheet_table") == "pile":
        # MAP-8: the pile holds the declared sheet and as many as it takes to get there.
        state.piles[cmd.side] = side_pile(state, cmd.side)
        state.dice.take_records()
    log_event(
        state,
        "deploy",
        f"{unit.name} deployed {cmd.distance} sheets to the {cmd.direction} "
        f"(sheet ({pos[0]},{pos[1]}), {cmd.sheet} {cmd.xxyy})",
        side=cmd.side,
    )


def _predesignate(state: GameState, cmd: Command) -> None:
    assert isinstance(cmd, Predesignate)
    if not state.options.get("predesignated_hexes"):
        raise IllegalCommand("this scenario does not allow pre-designated hexes (ART-20)")
    chosen = state.predesignated.setdefault(cmd.side, [])
    name = state.area.label(cmd.hex) if state.area.contains(cmd.hex) else str(cmd.hex)
    if cmd.remove:
        if cmd.hex not in chosen:
            raise IllegalCommand(f"{name} is not one of your pre-designated hexes")
        chosen.remove(cmd.hex)
        log_event(state, "predesignate", f"pre-designated hex {name} removed", side=cmd.side)
        return
    if not state.area.contains(cmd.hex):
        raise IllegalCommand("pre-designated hexes must lie in the play area (ART-20)")
    if cmd.hex in chosen:
        raise IllegalCommand(f"{name} is already pre-designated")
    batteries = sum(1 for u in state.living(cmd.side) if u.battery is not None)
    trial = [state.area.position_of(h) for h in [*chosen, cmd.hex]]
    reason = predesignation_refusal(trial, batteries, state.area.sheet_count)
    if reason:
        raise IllegalCommand(f"{reason} (ART-22)")
    chosen.append(cmd.hex)
    log_event(state, "predesignate", f"pre-designated hex {name}", side=cmd.side)


def _side_done(state: GameState, side: str, what: str) -> bool:
    """A side ends a phase both sides play in turn: the other side acts next,
    or, when both are done, True so the phase can close."""
    log_event(state, "end_phase", f"{side} has finished {what}")
    state.done.append(side)
    if len(state.done) < 2:
        state.active = state.other(side)
        return False
    return True


def _end_setup(state: GameState, cmd: Command) -> None:
    if not _side_done(state, cmd.side, "setting up"):
        return
    _start_turn(state)


# --- turn start: initiative (ART-33) ----------------------------------------------------


def _start_turn(state: GameState) -> None:
    state.turn += 1
    state.phase = MOVEMENT
    state.done = []
    state.detected_this_turn = []
    for unit in state.units.values():
        unit.moved = False
        unit.movement_mode = "stood"
        unit.hexes_moved = 0
        unit.mp_spent = 0
        unit.attacked = False
        unit.weapons_fired = []
        unit.turned = False
        unit.charged = []
        unit.reactions = {}
    a, b = state.sides
    rolls: list = []
    while True:
        ra = state.dice.roll(2, 6, f"{a} initiative")
        rb = state.dice.roll(2, 6, f"{b} initiative")
        rolls += [ra, rb]
        if ra.total != rb.total:
            break
    winner, loser = (a, b) if ra.total > rb.total else (b, a)
    state.initiative = {"winner": winner, "loser": loser, a: ra.total, b: rb.total}
    log_event(
        state,
        "initiative",
        f"Turn {state.turn}: initiative {a} {ra.total}, {b} {rb.total}; "
        f"{winner} wins, {loser} moves first",
        rolls=rolls,
    )
    state.dice.take_records()
    movers = {s: sum(1 for u in state.living(s) if moving.can_move(u)) for s in state.sides}
    order: list[str] = []
    left = dict(movers)
    turn_of = loser
    while left[a] or left[b]:
        if left[turn_of]:
            order.append(turn_of)
            left[turn_of] -= 1
        turn_of = state.other(turn_of)
    state.move_order = order
    _next_mover(state)


def _next_mover(state: GameState) -> None:
    """Give the move to the next side in the alternation that still has a unit to move."""
    while state.move_order:
        side = state.move_order[0]
        if any(moving.can_move(u) and not u.moved for u in state.living(side)):
            state.active = side
            return
        state.move_order.pop(0)
    _end_movement(state)


def _end_movement(state: GameState) -> None:
    state.phase = TARGETING
    state.done = []
    state.active = state.initiative["loser"]


# --- movement (MOV-1 .. MOV-3, MAP-6) ------------------------------------------------------


def no_such_unit(unit_id: str) -> str:
    """The one refusal for a unit the side does not know of: one that does not
    exist and an enemy unit it cannot see read alike (ART-4)."""
    return f"there is no unit {unit_id!r}"


def _own_unit(state: GameState, side: str, unit_id: str) -> Unit:
    unit = state.units.get(unit_id)
    if unit is None or not knows_unit(state, side, unit):
        raise IllegalCommand(no_such_unit(unit_id))
    if unit.side != side:
        raise IllegalCommand(f"{unit.name} belongs to {unit.side}")
    if unit.destroyed:
        raise IllegalCommand(f"{unit.name} has been destroyed")
    return unit


def _mover_unit(state: GameState, cmd: Move | Hold | Fly) -> Unit:
    unit = _own_unit(state, cmd.side, cmd.unit)
    if unit.hidden and unit.hex is not None:
        raise IllegalCommand(f"{unit.name} is hidden: it holds its position until found (ART-4)")
    if not moving.can_move(unit):
        raise IllegalCommand(f"{unit.name} cannot move")
    if unit.moved:
        raise IllegalCommand(f"{unit.name} has already moved this turn")
    return unit


def _move(state: GameState, cmd: Command) -> None:
    assert isinstance(cmd, Move)
    unit = _mover_unit(state, cmd)
    route = moving.route(state, unit, cmd.to, cmd.facing)
    if isinstance(route, str):
        raise IllegalCommand(route)
    stop = moving.stop_at_hidden(state, unit, route.steps)
    if stop is not None:
        _stop_short(state, unit, stop)
        return
    if route.exit_to is not None:
        if not state.options.get("mobile_maps"):
            raise IllegalCommand("the mobile-maps option is off: units cannot leave the play area")
        mobile.begin_exit(state, unit, route)
        if state.pending_sheet is not None and state.pending_sheet.picker is None:
            mobile.place(state, mobile.draw_sheet(state))
            finish_pending_move(state)
        return
    _finish_move(state, unit, cmd.to, cmd.facing, route.mp_spent, route.mode, route.hexes_moved)


def _finish_move(
    state: GameState,
    unit: Unit,
    to: Hex,
    facing: int,
    cost: int,
    mode: str,
    hexes: int,
    note: str = "",
) -> None:
    start = unit.hex
    unit.turned = unit.turned or facing != unit.facing
    unit.hex = to
    unit.facing = facing
    unit.moved = True
    unit.mp_spent = cost
    unit.movement_mode = mode
    unit.hexes_moved = hexes
    where = state.area.label(to)
    text = f"{unit.name} moves to {where}" if start != to else f"{unit.name} turns in place"
    if note:
        text = f"{unit.name} {note} in {where}"
    extra = ""
    if unit.battery is not None and cost > 0 and unit.battery.auto_hit.earned:
        unit.battery.auto_hit.lose_all()  # ART-19
        extra = "; its auto-hit hexes are lost"
    hidden_mover = unit.hidden
    log_event(
        state,
        "move",
        f"{text} ({mode}, {cost} MP){extra}",
        side=unit.side if hidden_mover else None,
        data={"unit": unit.id, "to": [to.q, to.r], "facing": facing},
    )
    _reveal_adjacent(state, unit)
    combat.end_of_move(state, unit, start)
    state.move_order.pop(0)
    _next_mover(state)


def _stop_short(state: GameState, unit: Unit, stop: moving.Stop) -> None:
    """ART-4: the unit ran into a hidden enemy; it ends its move short and finds it."""
    assert stop.found is not None
    reveal(state, stop.found, f"{unit.name} runs into it")
    _finish_move(
        state,
        unit,
        stop.hex,
        stop.facing,
        stop.mp_spent,
        stop.mode,
        stop.hexes_moved,
        "stops short",
    )


def _reveal_adjacent(state: GameState, mover: Unit) -> None:
    """ART-4 decision: a hidden unit is revealed when an enemy ends its move adjacent."""
    assert mover.hex is not None
    for other in state.living():
        if other.side == mover.side or other.hex is None:
            continue
        if other.hidden and distance(other.hex, mover.hex) <= 1:
            reveal(state, other, f"{mover.name} finds it")
        if mover.hidden and distance(other.hex, mover.hex) <= 1:
            reveal(state, mover, ["it ended its move next to ", told_name(state, other)])


def _fly(state: GameState, cmd: Command) -> None:
    assert isinstance(cmd, Fly)
    unit = _mover_unit(state, cmd)
    if not aircraft.is_aircraft(unit):
        raise IllegalCommand(f"{unit.name} does not fly: it moves over the ground")
    reason = aircraft.fly_refusal(state, unit, cmd.to, cmd.altitude)
    if reason:
        raise IllegalCommand(reason)
    aircraft.fly(state, unit, cmd.to, cmd.altitude)
    state.move_order.pop(0)
    _next_mover(state)


def _hold(state: GameState, cmd: Command) -> None:
    assert isinstance(cmd, Hold)
    unit = _mover_unit(state, cmd)
    unit.moved = True
    log_event(
        state,
        "hold",
        f"{unit.name} holds its position",
        side=unit.side if unit.hidden else None,
        data={"unit": unit.id},
    )
    state.move_order.pop(0)
    _next_mover(state)


def _place_sheet(state: GameState, cmd: Command) -> None:
    assert isinstance(cmd, PlaceSheet)
    pending = state.pending_sheet
    assert pending is not None
    reason = mobile.placement_refusal(state, cmd.sheet)
    if reason:
        raise IllegalCommand(reason)
    mobile.place(state, cmd.sheet)
    finish_pending_move(state)


def finish_pending_move(state: GameState) -> None:
    """The new sheet lies in place: the unit that left the area enters it (MAP-6)."""
    pending = state.pending_sheet
    assert pending is not None
    state.pending_sheet = None
    unit = state.units[pending.unit]
    # MAP-10: the new sheet may bring a hidden battery onto the hex the unit enters.
    stop = moving.stop_at_hidden(state, unit, moving.steps_from(pending.steps))
    if stop is not None:
        _stop_short(state, unit, stop)
        return
    _finish_move(
        state, unit, pending.destination, pending.facing, pending.cost, pending.mode, pending.hexes
    )


# --- targeting (ART-8 .. ART-10) -------------------------------------------------------------


def rounds_left(state: GameState, unit: Unit, ammunition: str) -> int | None:
    """Rounds of ``ammunition`` a battery may still plot this turn (None: unlimited,
    ART-10). Shells are spent when they leave the guns in the artillery phase, so
    this turn's plots are counted against what the battery holds."""
    assert unit.battery is not None
    held = unit.battery.ammunition.get(ammunition)
    if held is None:
        return None
    plotted = sum(
        1
        for p in state.queue.plots
        if p.battery == unit.id and p.fired_turn == state.turn and p.ammunition == ammunition
    )
    return held - plotted


def plot_refusal(state: GameState, cmd: PlotFire) -> str | None:
    """Why a plot is illegal (ART-3, ART-8, ART-10), or None."""
    unit = state.units.get(cmd.battery)
    if unit is None or not knows_unit(state, cmd.side, unit):
        return no_such_unit(cmd.battery)
    if unit.side != cmd.side:
        return f"{unit.name} belongs to {unit.side}"
    if unit.battery is None:
        return f"{unit.name} is not an artillery unit"
    if unit.destroyed:
        return f"{unit.name} has been destroyed"
    battery = unit.battery
    if not 1 <= cmd.piece <= battery.pieces:
        return f"{unit.name} has pieces 1-{battery.pieces}, not {cmd.piece}"
    if cmd.piece not in queries.free_pieces(state, unit):
        return f"piece {cmd.piece} of {unit.name} already has a target this turn"
    reason = queries.aim_refusal(state, unit, cmd.target)  # ART-3, ART-14, ART-37
    if reason:
        return reason
    w = weapon_spec(battery.weapon)
    try:
        ammunition_spec(w, cmd.ammunition)
    except ValueError as exc:
        return str(exc)
    left = rounds_left(state, unit, cmd.ammunition)
    if cmd.ammunition not in battery.ammunition or (left is not None and left <= 0):
        return f"{unit.name} has no {cmd.ammunition} ammunition left"
    return None


def _plot_fire(state: GameState, cmd: Command) -> None:
    assert isinstance(cmd, PlotFire)
    reason = plot_refusal(state, cmd)
    if reason:
        raise IllegalCommand(reason)
    unit = state.units[cmd.battery]
    battery = unit.battery
    assert battery is not None
    sheets, flight = queries.shot_flight(state, unit, cmd.target)
    air = None
    if aircraft.is_aircraft(unit):
        air = (aircraft.altitude_map(unit), int(unit.altitude or 0))  # ART-14
    off_board = counter_battery.is_counter_battery(state, cmd.target)
    spotters = tuple(u.id for u in queries.spotters_at(state, cmd.side, cmd.target))
    automatic = (
        "pre-designated hex" if queries.on_predesignated_hex(state, unit, cmd.target) else None
    )
    plot = state.queue.add(
        Plot(
            id=0,
            side=cmd.side,
            battery=unit.id,
            piece=cmd.piece,
            fired_turn=state.turn,
            target=cmd.target,
            ammunition=cmd.ammunition,
            arrival_turn=state.turn + flight,
            spotters_at_firing=spotters,
            automatic=automatic,
            air=air,
            origin=unit.hex if air is not None else None,
        )
    )
    log_event(
        state,
        "plot",
        f"{unit.name} piece {cmd.piece} plots {cmd.ammunition} at "
        + (
            f"{counter_battery.where(state, cmd.target)} (counter-battery fire, ART-37)"
            if off_board
            else state.area.label(cmd.target)
        )
        + ": "
        f"{sheets} sheets, flight {flight} turn{'s' if flight != 1 else ''}, "
        f"arrives in turn {plot.arrival_turn}"
        + (f"; spotters {', '.join(spotters)}" if spotters else "; no spotter"),
        side=cmd.side,
        data={"plot": shot_number(state, plot.id)},
    )


def _end_targeting(state: GameState, cmd: Command) -> None:
    if not _side_done(state, cmd.side, "targeting"):
        return
    state.phase = ATTACK
    state.done = []
    state.active = state.initiative["loser"]
    combat.begin_attack_phase(state)


# --- weapon attacks -------------------------------------------------------------------------


def _attack(state: GameState, cmd: Command) -> None:
    assert isinstance(cmd, Attack)
    unit = _own_unit(state, cmd.side, cmd.unit)
    combat.attack(state, unit, cmd.target, cmd.weapon)


def _gun_action(state: GameState, cmd: Command) -> None:
    assert isinstance(cmd, GunAction)
    unit = _own_unit(state, cmd.side, cmd.unit)
    combat.gun_action(state, unit, cmd.gun, cmd.action)


def _answer(state: GameState, cmd: Command) -> None:
    assert isinstance(cmd, Answer)
    combat.answer(state, cmd.choice)


def _end_attacks(state: GameState, cmd: Command) -> None:
    if not _side_done(state, cmd.side, "attacking"):
        return
    artillery_phase.run(state)
    _end_phase(state)


def _end_phase(state: GameState) -> None:
    """End phase: victory, then the next turn (ART-33)."""
    result = victory.check(state)
    if result is not None:
        state.result = result
        state.phase = OVER
        state.active = None
        log_event(state, "result", f"Game over in turn {state.turn}: {result.reason}")
        return
    _start_turn(state)


_Handler = Callable[[GameState, Command], None]
_HANDLERS: dict[tuple[str, type[Command]], _Handler] = {
    (SETUP, Deploy): _deploy,
    (SETUP, Predesignate): _predesignate,
    (SETUP, EndPhase): _end_setup,
    (MOVEMENT, Move): _move,
    (MOVEMENT, Hold): _hold,
    (MOVEMENT, Fly): _fly,
    (TARGETING, PlotFire): _plot_fire,
    (TARGETING, EndPhase): _end_targeting,
    (ATTACK, Attack): _attack,
    (ATTACK, GunAction): _gun_action,
    (ATTACK, EndPhase): _end_attacks,
}
