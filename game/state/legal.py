"""``legal_commands(state, side)``: what a side may do now (the AI and the soak
tests choose from this list; every command in it passes ``apply``).

Deployments are listed with each battery's declared sheet and hex (any other
sheet or hex is legal too and checked by ``apply``); moves are listed with the
best final facing of each reachable hex, plus every facing in place.
Counter-battery fire (ART-37) is listed at hex 0909 of every off-board position
the side's announced directions allow (ART-24); any other hex of any position
beyond the play area is legal too and checked by ``apply``.
"""

from __future__ import annotations

import weakref
from functools import lru_cache

import game.state.aircraft as aircraft
import game.state.combat as combat
import game.state.counter_battery as counter_battery
import game.state.moving as moving
from game.artillery.counter_battery import announced_positions
from game.artillery.flight import range_refusal
from game.artillery.predesignated import predesignation_refusal
from game.artillery.weapons import weapon as weapon_spec
from game.board.area import PlayArea
from game.hexmath import Hex, disk, neighbors
from game.scenario.model import FLANKS
from game.state.board import battery_sheet
from game.state.commands import (
    Answer,
    Attack,
    Command,
    Deploy,
    EndPhase,
    Fly,
    GunAction,
    Hold,
    Move,
    PlaceSheet,
    PlotFire,
    Predesignate,
)
from game.state.engine import (
    acting_side,
    check_side,
    deployment_refusal,
    rounds_left,
)
from game.state.mobile import allowed_sheets
from game.state.model import ATTACK, MOVEMENT, SETUP, TARGETING, GameState, Unit
from game.state.setup import lattice_hex


def legal_commands(state: GameState, side: str) -> list[Command]:
    """Every command ``side`` may give now; empty when it is not its turn or the game is over."""
    check_side(state, side)
    if acting_side(state) != side:
        return []
    if state.pending_sheet is not None:
        return [PlaceSheet(side, s) for s in allowed_sheets(state)]
    if state.questions:
        return [Answer(side, c) for c in state.questions[0]["choices"]]
    if state.phase == SETUP:
        return _setup(state, side)
    if state.phase == MOVEMENT:
        return _movement(state, side)
    if state.phase == TARGETING:
        return _targeting(state, side)
    if state.phase == ATTACK:
        return _attacks(state, side)
    return []


def _setup(state: GameState, side: str) -> list[Command]:
    out: list[Command] = [EndPhase(side)]
    i_min, i_max, j_min, j_max = state.area.sheet_bounds()
    for unit in state.living(side):
        if unit.battery is None or unit.battery.offboard is None:
            continue
        off = unit.battery.offboard
        reach = weapon_spec(unit.battery.weapon).max_range_sheets
        for direction in (side, *FLANKS[state.area.home_edges]):
            span = (
                range(i_min, i_max + 1)
                if direction in ("north", "south")
                else range(j_min, j_max + 1)
            )
            for along in span:
                for dist in range(1, min(reach, 12) + 1):
                    cmd = Deploy(side, unit.id, direction, along, dist, off.sheet, off.xxyy)
                    if (direction, along, dist) == (off.direction, off.along, off.distance):
                        continue
                    if deployment_refusal(state, side, cmd) is None:
                        out.append(cmd)
    if state.options.get("predesignated_hexes"):
        chosen = state.predesignated.get(side, [])
        out += [Predesignate(side, h, remove=True) for h in chosen]
        batteries = sum(1 for u in state.living(side) if u.battery is not None)
        base = [state.area.position_of(h) for h in chosen]
        for pos, group in state.area.sheet_hexes().items():
            if predesignation_refusal([*base, pos], batteries, state.area.sheet_count) is None:
                out += [Predesignate(side, h) for h in group if h not in chosen]
    return out


def _movement(state: GameState, side: str) -> list[Command]:
    out: list[Command] = []
    for unit in state.living(side):
        if unit.moved or not moving.can_move(unit):
            continue
        out.append(Hold(side, unit.id))
        if aircraft.is_aircraft(unit):
            out += _flights(state, side, unit)
            continue
        reach = moving.reach(state, unit)
        for h, facing in reach.end_facings().items():
            out.append(Move(side, unit.id, h, facing))
        for facing in range(1, 7):
            if facing != unit.facing and reach.route(unit.hex, facing) is not None:  # type: ignore[arg-type]
                out.append(Move(side, unit.id, unit.hex, facing))  # type: ignore[arg-type]
    return out


def _flights(state: GameState, side: str, unit: Unit) -> list[Command]:
    """ART-36: every hex it may fly to (over the map, or just beyond an edge to
    leave) at every altitude it may reach; off the map, every edge hex."""
    if unit.hex is None:
        ends = aircraft.edge_hexes(state)
    else:
        near = [
            h
            for h in disk(unit.hex, aircraft.velocity(unit))
            if state.area.contains(h) or any(state.area.contains(n) for n in neighbors(h))
        ]
        ends = near
    return [Fly(side, unit.id, h, a) for h in ends for a in aircraft.altitudes(unit)]


def _air_plots(
    state: GameState, side: str, unit: Unit, busy: set[int], ammo: list[str]
) -> list[Command]:
    """ART-14: an aircraft over the map fires at the hexes of the sheet under it."""
    if unit.hex is None or 1 in busy or aircraft.plot_refusal(state, unit, unit.hex):
        return []
    under = state.area.sheet_hexes()[state.area.position_of(unit.hex)]
    return [PlotFire(side, unit.id, 1, h, a) for h in under for a in ammo]


def _targeting(state: GameState, side: str) -> list[Command]:
    out: list[Command] = [EndPhase(side)]
    by_position = state.area.sheet_hexes()
    for unit in state.living(side):
        battery = unit.battery
        if battery is None:
            continue
        busy = {
            p.piece
            for p in state.queue.plots
            if p.battery == unit.id and p.fired_turn == state.turn
        }
        ammo = [
            a for a in battery.ammunition if (n := rounds_left(state, unit, a)) is None or n > 0
        ]
        if aircraft.is_aircraft(unit):
            out += _air_plots(state, side, unit, busy, ammo)
            continue
        origin = battery_sheet(state, unit)
        far = _counter_battery_hexes(state, side, unit) if ammo else []
        for piece in range(1, battery.pieces + 1):
            if piece in busy:
                continue
            for pos, group in by_position.items():
                if range_refusal(battery.weapon, origin, pos) is not None:
                    continue
                out += _sheet_plots(side, unit.id, piece, pos, tuple(ammo), tuple(group))
            for h in far:
                out += [PlotFire(side, unit.id, piece, h, a) for a in ammo]
    return out


@lru_cache(maxsize=512)
def _sheet_plots(
    side: str, battery: str, piece: int, pos: tuple[int, int], ammo: tuple[str, ...], group: tuple
) -> tuple[PlotFire, ...]:
    """The plots of one piece at every hex of one sheet, kept: a sheet position
    always holds the same hexes (MAP-2), so the same question recurs every turn."""
    return tuple(PlotFire(side, battery, piece, h, a) for h in group for a in ammo)


def _counter_battery_hexes(state: GameState, side: str, unit: Unit) -> list[Hex]:
    """ART-37: hex 0909 of each position the announcements point to (ART-24) that
    the battery may fire at."""
    assert unit.battery is not None
    heard = tuple((a.aimed, a.side) for a in state.intel[side].announcements)
    reach = weapon_spec(unit.battery.weapon).max_range_sheets
    origin = battery_sheet(state, unit)
    # Asked for every piece of every battery in every targeting decision: the answer
    # stands until the map or what the side has heard changes.
    key = (heard, state.other(side), origin, reach)
    kept = _COUNTER_BATTERY_HEXES.get(state.area)
    if kept is None or kept[0] != state.area.revision:
        kept = (state.area.revision, {})
        _COUNTER_BATTERY_HEXES[state.area] = kept
    if key not in kept[1]:
        positions = announced_positions(state.area, state.other(side), heard, origin, reach)
        hexes = [lattice_hex(pos, "0909") for pos in positions]
        kept[1][key] = [h for h in hexes if counter_battery.refusal(state, unit, h) is None]
    return list(kept[1][key])


_COUNTER_BATTERY_HEXES: weakref.WeakKeyDictionary[PlayArea, tuple[int, dict[tuple, list[Hex]]]] = (
    weakref.WeakKeyDictionary()
)


def _attacks(state: GameState, side: str) -> list[Command]:
    out: list[Command] = [EndPhase(side)]
    for unit in state.living(side):
        for target, weapon in combat.attack_options(state, unit):
            out.append(Attack(side, unit.id, target, weapon))
        for gun, action in combat.gun_action_options(state, unit):
            out.append(GunAction(side, unit.id, gun, action))
    return out
