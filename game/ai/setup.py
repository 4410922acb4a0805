"""Set-up: where to hide the guns (ART-1, ART-2) and which hexes to pre-designate
(ART-20 .. ART-22).

Guns: behind the own home edge (the enemy must cross the whole play area
before the hunt even starts), at the level's distance in sheets; within eight
sheets of every starting sheet each shell flies one turn (ART-6). The column
behind the edge is drawn with the policy's own dice, so the position says
nothing the enemy could guess from the level alone.

Pre-designated hexes: where the enemy will pass on the way to the guns and to
the own units: roads (fast going), fords (shallow water on a road or between
deeper water), passes (a hex lower than the ground on two opposite sides),
within reach of the enemy's first turns of movement, out of the own units'
rings, spread apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np

import game.ai.objectives as objectives
from game.ai.candidates import Board, Candidate, Scored
from game.artillery.deployment import off_board_position
from game.artillery.weapons import weapon
from game.board.area import PlayArea
from game.board.terrain import WATER
from game.dice import DiceBase
from game.hexmath import DIRECTIONS, Hex, distances, neighbors
from game.state import combat as cs
from game.state.commands import Command, Deploy, EndPhase, Predesignate
from game.state.queries import fastest_move, flights_to_area


def setup_candidates(board: Board, legal: list[Command], dice: DiceBase) -> Sequence[Candidate]:
    view = board.view
    # One pass over the list: the hexes of every sheet in play are offered.
    deploys: list[Deploy] = []
    adds: list[Predesignate] = []
    for c in legal:
        if isinstance(c, Predesignate):
            if not c.remove:
                adds.append(c)
        elif isinstance(c, Deploy):
            deploys.append(c)
    deploy = _deployment(board, deploys, dice)
    if deploy is not None:
        return [deploy]
    out = _predesignations(board, adds) if adds else Scored([], [], [])
    out.commands.append(EndPhase(view.side))
    out.scores.append(0.0)
    out.reasons.append("set-up done")
    return out


def _deployment(board: Board, deploys: list[Deploy], dice: DiceBase) -> Candidate | None:
    """ART-1/ART-2: move each battery once, behind the home edge at the level's distance."""
    view = board.view
    distance = board.level.deploy_distance
    if distance <= 0 or not deploys:
        return None
    done: set[str] = board.memory.notes.setdefault("deployed", set())
    for battery in sorted({c.battery for c in deploys}):
        if battery in done:
            continue
        unit = view.units[battery]
        off = unit.battery.offboard if unit.battery is not None else None
        home = [c for c in deploys if c.battery == battery and c.direction == view.side]
        if board.level.quickest_unhunted and not view.options.get("mobile_maps"):
            distance = _quickest(board, unit.battery.weapon, home, distance)
        wanted = [c for c in home if c.distance == distance]
        if not wanted:
            # Already there, or the edge is too short for that distance: keep it.
            done.add(battery)
            continue
        alongs = sorted({c.along for c in wanted})
        along = alongs[0]
        if len(alongs) > 1:
            along = alongs[dice.roll(1, len(alongs), "deployment column").total - 1]
            dice.take_records()
        done.add(battery)
        if off is not None and (off.direction, off.along, off.distance) == (
            view.side,
            along,
            distance,
        ):
            continue
        pick = next(c for c in wanted if c.along == along)
        return Candidate(
            pick, 1.0, f"guns {distance} sheets behind the {view.side} edge (ART-1, ART-2)"
        )
    return None


def _quickest(board: Board, weapon_id: str, home: list[Deploy], distance: int) -> int:
    """The distance behind the home edge whose shells reach the farthest sheet of the
    area soonest (ART-5, ART-6): the level's own if it is among them, else the
    farthest of them. Without mobile maps (MAP-6) no hunter reaches the guns, so
    standing deep gains nothing and a cruise missile (one turn more per five
    sheets) loses turns of flight."""
    w = weapon(weapon_id)
    area = board.view.area
    worst: dict[int, int] = {}
    for c in home:
        position = off_board_position(area, c.direction, c.distance, c.along)
        distances, flights = flights_to_area(w, position, area)
        if len(flights) == len(distances):  # every sheet within reach (ART-3)
            worst[c.distance] = max(worst.get(c.distance, 0), *flights)
    if not worst:
        return distance
    soonest = min(worst.values())
    if worst.get(distance) == soonest:
        return distance
    return max(d for d, f in worst.items() if f == soonest)


def approach_scores(board: Board) -> np.ndarray:
    """Score of each area hex as a pre-designated hex: roads, fords and passes the
    enemy will cross in its first turns, away from the own units."""
    view = board.view
    area = view.area
    score = np.zeros(len(area), dtype=np.float64)
    score += np.where(area.road, 2.0, 0.0)
    shallow = (area.terrain == WATER) & (area.water_depth <= 1)
    score += np.where(shallow & area.road, 3.0, np.where(shallow, 1.0, 0.0))
    score += 2.0 * _passes(area)
    if not board.level.smart_predesignation:
        score = np.where(area.road, 1.0, 0.0)
    reach = np.zeros(len(area), dtype=np.float64)
    for uid in sorted(board.enemies):
        u = board.enemies[uid]
        mp = max(4, fastest_move(u))
        d = distances(u.hex, area.q, area.r)
        # Where the unit may stand after one to three turns of movement.
        reach = np.maximum(reach, np.where((d >= 2) & (d <= 3 * mp), 1.0 - d / (4 * mp), 0.0))
    score = score * (0.3 + reach) + reach
    for u in board.own.values():
        d = distances(u.hex, area.q, area.r)
        score = np.where(d <= 2, -1.0, score)
    return score


def _where_the_guards_fight(board: Board) -> set[Hex]:
    """The level that ranges its guns on the guards (hard): the hexes next to a
    toy-soldier gun of an enemy that only has to hold out, on a hex the side must take.
    That enemy crosses no road to anywhere; its warriors stand next to the gun to guard
    it (TS-10), and a shell on a pre-designated hex hits it (ART-21)."""
    if not board.level.ranges_the_guards:
        return set()
    view = board.view
    goals = objectives.read(view)
    if not goals.enemy_survives:
        return set()
    guns = {
        u.hex for u in view.living(view.enemy) if u.system == cs.TOY_SOLDIERS and u.kind == "gun"
    }
    held = [h.hex for h in goals.take if h.hex in guns]
    return {n for h in held for n in neighbors(h) if view.area.contains(n)}


def _passes(area: PlayArea) -> np.ndarray:
    """1 where a hex is lower than the ground on two opposite sides (a saddle)."""
    out = np.zeros(len(area), dtype=np.float64)
    level = area.level.astype(np.int32)
    for d in (1, 2, 3):
        a = DIRECTIONS[d]
        b = DIRECTIONS[d + 3]
        ia = area.indices_of(area.q + a.q, area.r + a.r)
        ib = area.indices_of(area.q + b.q, area.r + b.r)
        ok = (ia >= 0) & (ib >= 0)
        higher = ok & (level[np.maximum(ia, 0)] > level) & (level[np.maximum(ib, 0)] > level)
        out = np.maximum(out, higher.astype(np.float64))
    return out


# Why a hex is pre-designated.
GUARDS_FIGHT = "next to the gun the enemy must guard (ART-20, TS-10)"
ON_THE_WAY = "a road, ford or pass the enemy will cross (ART-20)"


def _predesignations(board: Board, adds: list[Predesignate]) -> Scored:
    view = board.view
    area = view.area
    chosen = list(view.predesignated)
    score = _kept_approach_scores(board)
    ring = _where_the_guards_fight(board)
    # Every hex of the sheets in play is offered: scored all at once.
    hexes = [c.hex for c in adds]
    flat = np.fromiter(chain.from_iterable(hexes), dtype=np.int64, count=2 * len(hexes))
    q, r = flat.reshape(-1, 2).T
    index = area.indices_of(q, r)
    scores = score[np.maximum(index, 0)]
    near = np.zeros(len(adds), dtype=bool)
    for h in chosen:
        near |= np.abs(q - h.q) + np.abs(r - h.r) + np.abs(-q - r - h.s) < 8
    # Spread: one shell's rings should not cover two of them.
    scores = np.where(near, scores - 5.0, scores)
    # The hexes worth it, in the order offered.
    keep = ((index >= 0) & (scores > 0.5)).tolist()
    guards = [h in ring and h not in chosen for h in hexes] if ring else [False] * len(adds)
    out = Scored([], [], [])
    for c, s, worth, by_the_guards in zip(adds, scores.tolist(), keep, guards, strict=True):
        if by_the_guards:
            out.commands.append(c)
            out.scores.append(10.0)
            out.reasons.append(GUARDS_FIGHT)
        elif worth:
            out.commands.append(c)
            out.scores.append(s)
            out.reasons.append(ON_THE_WAY)
    return out


def _kept_approach_scores(board: Board) -> np.ndarray:
    """``approach_scores``, kept while the area, the units and the level are as they
    were: the pre-designations of a set-up are chosen one after another with nothing
    else changing (read-only)."""
    view = board.view
    key = (
        view.area,
        view.area.revision,
        board.level.smart_predesignation,
        tuple((uid, u.hex, fastest_move(u)) for uid, u in sorted(board.enemies.items())),
        tuple(u.hex for u in board.own.values()),
    )
    kept = board.memory.notes.get("approach scores")
    if kept is not None and kept[0] == key:
        return kept[1]
    score = approach_scores(board)
    score.flags.writeable = False
    board.memory.notes["approach scores"] = (key, score)
    return score
