"""Targeting: plot each gun at the hex where the shell is worth most (ART-8 .. ART-19, ART-25).

For every hex a piece may aim at, the expected damage to each enemy unit is
the shell's landing distribution (hit with P(2d6 >= TN), else scatter by the
margin in one of six directions, ART-11, ART-12) spread over the damage rings
(ART-25), weighed by where the unit will probably stand when the shell
arrives: its observed movement carried over the flight time (ART-6, ART-14).
The flight and the to-hit number are the engine's own (``queries.shots_now``):
the best spotter that sees the hex (ART-13, ART-16), the adjusted shots
already made at it (ART-17), an aircraft's altitude (ART-14); auto-hit and
pre-designated hexes hit for sure (ART-19, ART-21). A hex whose rings would threaten own
units beyond the personality's tolerance is never chosen, and every enemy
unit that will see the aimed hex costs the shot a little: it may detect the
fire and learn the guns' direction (ART-23, ART-24). The best few hexes are
then checked with the exact forecast (``game.artillery.forecast``), which also
knows that shells landing off the map are lost.

A sheet that probably holds the hidden enemy guns is worth shelling too: its
unsearched hexes share the guns' value.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache, partial
from itertools import compress
from types import MappingProxyType

import numpy as np

import game.ai.objectives as objectives
from game.ai.candidates import Board, Candidate, unit_value
from game.ai.counter_battery import counter_battery_candidates
from game.ai.hunt import beliefs, search_hexes
from game.ai.manoeuvre import hexes_within, predicted_hexes
from game.ai.shell_damage import KERNEL_RADIUS, damage_kernel, is_blast
from game.artillery.forecast import expected_damage_at
from game.artillery.weapons import airborne_damage, weapon
from game.board.area import SHEET_HEXES, PlayArea
from game.hexmath import Hex, distance
from game.rules import battletech as bt
from game.rules.core import probability_at_least
from game.state import combat as cs
from game.state.aircraft import HIGH, altitude_map
from game.state.combat.battletech import mounts, target_number
from game.state.commands import Command, EndPhase, PlotFire
from game.state.legal import LegalCommands
from game.state.model import Unit
from game.state.queries import (
    KeptSight,
    attack_odds_of,
    attack_weapons,
    fastest_move,
    on_auto_hit_hex,
    on_predesignated_hex,
    shot_numbers,
    shots_now,
)
from game.state.spotting import spotting_this_turn
from game.state.view import PlayerView


class _Weighed:
    """Lists of weighted hexes (where enemy units may stand, where own units stay)
    as arrays, for the expected damage of shells aimed at many hexes."""

    def __init__(self, *weighed: list[tuple[Hex, float]]) -> None:
        every = [p for points in weighed for p in points]
        self.sizes = [len(points) for points in weighed]
        self.hq = np.array([h.q for h, _ in every], dtype=np.int64)[:, None]
        self.hr = np.array([h.r for h, _ in every], dtype=np.int64)[:, None]
        self.w = np.array([w for _, w in every], dtype=np.float64)[:, None]
        self._in_area: tuple[PlayArea, np.ndarray, np.ndarray, int] | None = None

    def in_area(self, area: PlayArea) -> tuple[np.ndarray, np.ndarray, int]:
        """The area indices of the first list's points in ``area``, then of the
        second's; the first's weights there, and how many of them (kept: asked of
        each aim checked with the exact forecast)."""
        kept = self._in_area
        if kept is None or kept[0] is not area:
            n = self.sizes[0]
            at = area.indices_of(self.hq[:, 0], self.hr[:, 0]).astype(np.int64)
            first = at[:n] >= 0
            second = at[n : n + self.sizes[1]]
            inside = np.concatenate([at[:n][first], second[second >= 0]])
            kept = self._in_area = (area, inside, self.w[:n, 0][first], int(first.sum()))
        return kept[1], kept[2], kept[3]

    def expected(self, kernel: np.ndarray, tq: np.ndarray, tr: np.ndarray) -> list[np.ndarray]:
        """Expected weighted damage at every aimed hex (tq, tr) over each list
        (``kernel``: ``_rimmed_kernel``)."""
        if not self.w.size:
            return [np.zeros(tq.shape[0], dtype=np.float64) for _ in self.sizes]
        # Offsets beyond the kernel read its rim of zeros.
        reach = KERNEL_RADIUS + 1
        dq = np.clip(self.hq - tq[None, :], -reach, reach)
        dr = np.clip(self.hr - tr[None, :], -reach, reach)
        dq *= _RIMMED_SIDE
        dq += dr
        dq += reach * _RIMMED_SIDE + reach
        weighed = self.w * kernel.take(dq)
        out = []
        start = 0
        for size in self.sizes:
            if not size:
                out.append(np.zeros(tq.shape[0], dtype=np.float64))
                continue
            # Added point after point (a running sum): the same figures whatever the count.
            out.append(np.cumsum(weighed[start : start + size], axis=0)[-1])
            start += size
        return out


# The side of a kernel with a rim of zeros (``_rimmed_kernel``).
_RIMMED_SIDE = 2 * KERNEL_RADIUS + 3


@lru_cache(maxsize=64)
def _rimmed_kernel(weapon_id: str, to_hit_number: int | None) -> np.ndarray:
    """``damage_kernel`` with a rim of zeros one hex wide all round, flattened: an
    offset clipped to the rim reads no damage, as every offset beyond the kernel
    does."""
    rimmed = np.zeros((_RIMMED_SIDE, _RIMMED_SIDE), dtype=np.float64)
    rimmed[1:-1, 1:-1] = damage_kernel(weapon_id, to_hit_number)
    flat = rimmed.ravel()
    flat.flags.writeable = False
    return flat


def targeting_candidates(board: Board, legal: Sequence[Command]) -> list[Candidate]:
    view = board.view
    end = Candidate(EndPhase(view.side), board.personality.fire_threshold, "hold fire")
    # The first piece to aim; the others are aimed in the decisions after this one.
    # Its plots are checked at the hexes worth aiming at, not listed.
    aims = LegalCommands.read(legal).first_piece()
    if aims is None:
        return [end]
    ammo = "standard" if "standard" in aims.ammunition else aims.ammunition[0]
    targets = aims.targets(ammo)
    battery = view.units[aims.battery]
    if board.level.hides_battery and battery.hidden and battery.hex is not None:
        at = np.array([view.area.index_of(battery.hex)], dtype=np.int64)
        if board.enemy_sight_at(battery.height, at)[0] > 0:
            end = Candidate(end.command, 1e9, "an enemy sees the guns' hex: firing reveals them")
            return [end]
    scored = _score_targets(board, aims.battery, targets, partial(aims.aimed_among, ammo))
    # ART-37: a detected gun may be shot at where it is believed to stand.
    return [end, *scored, *counter_battery_candidates(board, aims.beyond(ammo, view.area))]


def _automatic_hexes(board: Board, battery_id: str) -> set[Hex]:
    """The hexes where this battery's shot fired now hits automatically (ART-19, ART-21)."""
    view = board.view
    unit = view.units[battery_id]
    assert unit.battery is not None
    hexes = [*unit.battery.auto_hit.earned, *view.predesignated]
    return {
        h
        for h in hexes
        if on_predesignated_hex(view, unit, h) or on_auto_hit_hex(unit, h, view.turn)
    }


def _sight(board: Board, aims: list[Hex], indices: list[int]) -> KeptSight:
    """Line of sight (MAP-5) to the aimed hexes (``Board.sight_among``; ``indices``:
    theirs in the area arrays, -1 off the area): the same answers as the engine's,
    on the aimed hexes alone (asked about any other hex, it answers that the unit
    does not see it)."""
    area = board.area
    index = {h: i for h, i in zip(aims, indices, strict=True) if i >= 0}
    hexes, at = list(index), np.array(list(index.values()), dtype=np.int64)
    wanted = np.zeros(len(area), dtype=bool)
    wanted[at] = True
    seen: dict[tuple[Hex, int], frozenset[Hex]] = {}

    def seen_by(unit: Unit) -> frozenset[Hex]:
        assert unit.hex is not None
        height = unit.height + (unit.altitude or 0)
        key = (unit.hex, height)
        sight = seen.get(key)
        if sight is None:
            mask = board.sight_among(unit.hex, height, wanted)
            sight = seen[key] = frozenset(compress(hexes, mask[at].tolist()))
        return sight

    def seen_among(unit: Unit, asked: Sequence[Hex]) -> list[Hex]:
        assert unit.hex is not None
        height = unit.height + (unit.altitude or 0)
        inside = [h for h in asked if h in index]
        where = np.array([index[h] for h in inside], dtype=np.int64)
        some = np.zeros(len(area), dtype=bool)
        some[where] = True
        mask = board.sight_among(unit.hex, height, some)
        return list(compress(inside, mask[where].tolist()))

    return KeptSight(seen_by, seen_among)


def out_of_reach(enemy: Unit, weapon_id: str) -> bool:
    """ART-28: a shell reaches an aircraft only in the hit hex, its damage falling by
    the weapon's falloff for each level of altitude; an aircraft high enough takes
    nothing (a Long Tom's 25 at altitude 3), and one on the high-altitude map is out
    of every shell's reach (ART-36)."""
    if enemy.altitude is None:
        return False
    if altitude_map(enemy) == HIGH:
        return True
    return airborne_damage(weapon_id, weapon(weapon_id).base_damage, enemy.altitude) == 0


def _points(board: Board, turns: int, weapon_id: str) -> list[tuple[Hex, float]]:
    points: list[tuple[Hex, float]] = []
    goals = objectives.read(board.view, board.level.reads_turn_limit)
    first = objectives.first_to_destroy(board.view, goals) if board.level.toughest_first else None
    for eid in sorted(board.enemies):
        enemy = board.enemies[eid]
        if board.level.reads_altitude and out_of_reach(enemy, weapon_id):
            continue
        value = unit_value(enemy)
        if board.level.aims_to_destroy:
            # A whole unit toward the objective, whatever its kind.
            value += objectives.finishing_share(goals, enemy)
        if first is not None:
            # The unit that would hold out longest first (hard, ``toughest_first``).
            first_weight = objectives.FIRST_TO_DESTROY_WEIGHT
            value *= first_weight if eid == first else objectives.OTHERS_WEIGHT
        points += [(h, p * value) for h, p in predicted_hexes(board, eid, turns)]
    return points


def _hidden_guns(board: Board) -> list[tuple[Hex, float]]:
    """Unsearched hexes of a sheet that probably holds the hidden enemy guns."""
    if not board.level.blanket_fire:
        return []
    out: list[tuple[Hex, float]] = []
    for b in beliefs(board.view, board.memory, board.level.reads_intelligence):
        if b.known_hex is not None:
            continue
        pos = b.best()
        if pos is None or b.weights[pos] < 0.4 or not board.area.has_sheet(pos):
            continue
        hexes = search_hexes(board.view, board.memory, pos)
        if hexes:
            share = b.weights[pos] * 12.0 / len(hexes)
            out += [(h, share) for h in hexes]
    return out


def _score_targets(
    board: Board,
    battery_id: str,
    targets: Mapping[Hex, PlotFire],
    aimed_among: Callable[[Iterable[Hex]], list[Hex]],
) -> list[Candidate]:
    """The best aims among ``targets`` (``aimed_among``: those of some hexes, at once)."""
    view = board.view
    area = board.area
    battery = view.units[battery_id]
    assert battery.battery is not None
    weapon_id = battery.battery.weapon
    hidden = _hidden_guns(board)
    auto = _automatic_hexes(board, battery_id)
    # Aim points: near where enemies will be, the hidden guns' sheet, auto-hit hexes.
    wanted: set[Hex] = set()
    for eid in sorted(board.enemies):
        # The likeliest hexes: read ahead (hard), a unit's chances spread over every
        # hex it can reach, so the bar is set by its likeliest hex, not a fixed share.
        ahead = predicted_hexes(board, eid, 1)
        top = max((p for _, p in ahead), default=0.0)
        for h, p in ahead:
            if p >= min(0.2, 0.5 * top):
                wanted.update(hexes_within(h, 2))
    wanted.update(h for h, _ in hidden)
    enemy_hexes = [e.hex for e in board.enemies.values()]
    wanted.update(h for h in auto if any(distance(h, e) <= 3 for e in enemy_hexes))
    aims = aimed_among(sorted(wanted))
    if not aims:
        return []
    # ART-18 (hard, ``weighs_spotting``): what own units lose by spotting a shot.
    spotting = _spotting_costs(board)
    aims_q = np.array([h.q for h in aims], dtype=np.int64)
    aims_r = np.array([h.r for h in aims], dtype=np.int64)
    at = area.indices_of(aims_q, aims_r).astype(np.int64)
    indices = at.tolist()
    sight = _sight(board, aims, indices)
    # ART-23/ART-24: the enemy units that will see each aimed hex, at most 3 counted
    # (an aim off the area reads the last area hex, as it always has).
    detection = [0] * len(aims)
    if board.level.weighs_detection and _detection_matters(board):
        detection = np.minimum(3, board.enemy_sight_at(1, at)).tolist()
    tolerance = _tolerance(board)
    # Each aim's tolerance, read once for the numbers it is valued at.
    tolerances = [tolerance(h) for h in aims]
    detection_cost = board.personality.detection_cost
    table = _Table(board, weapon_id, hidden, aims_q, aims_r)

    def scored_at(k: int, flight: int, tn: int | None, spot_cost: float) -> _Scored | None:
        """The aim's value negated (the best least), its hex (no two aims share one),
        then its own units' risk, to-hit number, flight and place in ``aims``; None
        when it is not worth a shot (too risky, too long odds)."""
        found = table.gain_risk(flight, tn, k)
        if found is None:
            return None
        g, r = found
        if r > tolerances[k]:
            return None
        cost = detection_cost * detection[k]
        cost += spot_cost
        return (-(g - cost), aims[k], r, tn, flight, k)

    # ART-11 .. ART-21: each shot's number and flight as the engine works them out.
    n = board.level.forecast_checks
    spot_costs: dict[int, float] = {}
    scored: list[_Scored] = []
    if spotting:
        # ART-18: every spotter of a shot counts for its cost.
        shots = shots_now(view, battery, aims, sight, indices=indices)
        # Each shot's to-hit number and spotting cost (what the own units that would
        # spot it lose in their own attacks), read once for the aims sharing the shot.
        numbers: dict[int, tuple[int | None, float]] = {}
        options: list[list[tuple[int, int | None]]] = []
        for k, shot in enumerate(shots):
            number = numbers.get(id(shot))
            if number is None:
                tn = None if shot.to_hit is None else shot.to_hit.total
                cost = (
                    0.0
                    if shot.automatic is not None
                    else sum(spotting.get(u.id, 0.0) for u in shot.spotters)
                )
                number = numbers[id(shot)] = (tn, cost)
            spot_costs[k] = number[1]
            options.append([(shot.flight, number[0])])  # type: ignore[list-item]
        table.add(options)
        scored = [
            got
            for k, opts in enumerate(options)
            if (got := scored_at(k, *opts[0], spot_costs[k])) is not None
        ]
    else:
        # Each shot takes its best spotter's number alone (ART-13, ART-16): each aim
        # is valued first at every number a spotter could give it, and line of sight
        # is worked out for the aims that could be among the best few, best first,
        # until no aim left could beat the few found.
        options = _possible_numbers(view, battery, aims, indices, auto)
        table.add(options)
        pending: list[tuple[float, Hex, int]] = []
        for k, opts in enumerate(options):
            found = [got for o in opts if (got := scored_at(k, *o, 0.0)) is not None]
            if len(opts) == 1:
                scored += found
            elif found:
                pending.append((min(f[0] for f in found), aims[k], k))
        pending.sort()
        start, size = 0, _FIRST_LOOK
        while start < len(pending):
            if len(scored) >= n and pending[start][:2] > heapq.nsmallest(n, scored)[-1][:2]:
                break
            batch = [k for _, _, k in pending[start : start + size]]
            start, size = start + size, 2 * size
            shots = shots_now(
                view,
                battery,
                [aims[k] for k in batch],
                sight,
                best_spotter_only=True,
                indices=[indices[k] for k in batch],
            )
            for k, shot in zip(batch, shots, strict=True):
                tn = None if shot.to_hit is None else shot.to_hit.total
                got = scored_at(k, shot.flight, tn, 0.0)  # type: ignore[arg-type]
                if got is not None:
                    scored.append(got)
    # The best few (``sorted(...)[:n]``, each aim's hex its own: no ties left).
    best = heapq.nsmallest(board.level.forecast_checks, scored)
    out: list[Candidate] = []
    for negated, h, _, tn, flight, k in best:
        value = -negated
        if board.level.exact_forecast:
            value = _exact_value(board, weapon_id, h, tn, table.weighed[flight], tolerance)
            if value is None:
                continue
            value -= detection_cost * detection[k]
            value -= spot_costs.get(k, 0.0)
        tn_text = "automatic hit" if tn is None else f"needs {tn}"
        out.append(
            Candidate(
                targets[h],
                value,
                f"expected damage {value:.1f} at {area.label(h)} ({tn_text}, flight {flight})",
            )
        )
    return out


# A valued aim: its value negated (the best least), its hex, its own units' risk, its
# to-hit number, its flight and its place among the aims.
_Scored = tuple[float, Hex, float, int | None, int, int]

# How many of the aims that could be among the best have their spotters' sight worked
# out first (twice as many each time after, while one could still be).
_FIRST_LOOK = 8


class _Table:
    """The expected damage to the enemies (gain) and to own units (risk) of a shell
    aimed at each aim, by flight and to-hit number (ART-6, ART-11, ART-12, ART-25);
    worked out a flight and a number at a time for the aims that may take them."""

    def __init__(
        self,
        board: Board,
        weapon_id: str,
        hidden: list[tuple[Hex, float]],
        aims_q: np.ndarray,
        aims_r: np.ndarray,
    ) -> None:
        self.board, self.weapon_id, self.hidden = board, weapon_id, hidden
        self.aims_q, self.aims_r = aims_q, aims_r
        # Where the enemies may stand and the own units stay, by flight.
        self.weighed: dict[int, _Weighed] = {}
        # (gain, risk) by aim, by flight and number; None: odds too long to fire.
        self._by: dict[tuple[int, int | None], dict[int, tuple[float, float]] | None] = {}

    def add(self, options: list[list[tuple[int, int | None]]]) -> None:
        """Work out each aim's gain and risk at each of its (flight, number)."""
        groups: dict[int, dict[int | None, list[int]]] = {}
        for k, opts in enumerate(options):
            for flight, tn in opts:
                groups.setdefault(flight, {}).setdefault(tn, []).append(k)
        for flight in sorted(groups):
            by_tn = groups[flight]
            for tn in sorted(by_tn, key=lambda x: -1 if x is None else x):
                self._work_out(flight, tn, by_tn[tn])

    def gain_risk(self, flight: int, tn: int | None, k: int) -> tuple[float, float] | None:
        """Aim ``k``'s gain and risk at ``flight`` and ``tn``; None when the odds are
        too long to fire (the level's ``lowest_hit_chance``)."""
        key = (flight, tn)
        found = self._by.get(key, _NONE_YET)
        if found is not None and k not in found:
            self._work_out(flight, tn, [k])
            found = self._by[key]
        return None if found is None else found[k]

    def _work_out(self, flight: int, tn: int | None, group: list[int]) -> None:
        key = (flight, tn)
        level = self.board.level
        if tn is not None and _hit_chance(tn) < level.lowest_hit_chance:
            self._by[key] = None
            return
        weighed = self.weighed.get(flight)
        if weighed is None:
            points = _points(self.board, flight, self.weapon_id) + self.hidden
            staying = _staying(self.board, self.weapon_id, flight)
            weighed = self.weighed[flight] = _Weighed(points, [(u.hex, 1.0) for u in staying])
        kernel = _rimmed_kernel(self.weapon_id, tn)
        tq, tr = self.aims_q[group], self.aims_r[group]
        # Each aim's figures are its own column's: the same whichever aims go with it.
        gain, risk = (a.tolist() for a in weighed.expected(kernel, tq, tr))
        self._by.setdefault(key, {}).update(zip(group, zip(gain, risk, strict=True), strict=True))  # type: ignore[union-attr]


# No aim's gain and risk worked out yet at a flight and number (never written to).
_NONE_YET: Mapping[int, tuple[float, float]] = MappingProxyType({})


@lru_cache(maxsize=16)
def _hit_chance(tn: int) -> float:
    """P(2d6 >= tn) (ART-11), kept: a table asks it of each number it works out."""
    return float(probability_at_least(2, 6, tn))


def _possible_numbers(
    view: PlayerView, battery: Unit, aims: list[Hex], indices: list[int], auto: set[Hex]
) -> list[list[tuple[int, int | None]]]:
    """Each aim's (flight, to-hit number) for every spotter it could have (none, or
    the best of the side's units that see it, whichever that is: ``shot_numbers``).
    The aims of one sheet with the same adjusted fire (ART-17) take the same numbers,
    so one of them is asked; an automatic hit (``auto``, ART-19, ART-21) and an aim
    off the area (ART-37) are asked each."""
    spotted = view.queue.adjustments_by_target(battery.id, view.turn)
    asked: dict[tuple, int] = {}
    asked_for = []
    for k, (h, i) in enumerate(zip(aims, indices, strict=True)):
        # Tagged: a hex is a tuple too, and Hex(0, 0) would be the key of sheet 0
        # with no adjusted fire.
        if i >= 0 and h not in auto:
            key: tuple = ("sheet", i // SHEET_HEXES, spotted.get(h, 0))
        else:
            key = ("hex", h)
        asked_for.append(asked.setdefault(key, k))
    firsts = list(asked.values())
    numbers = shot_numbers(view, battery, [aims[k] for k in firsts], [indices[k] for k in firsts])
    by_first = dict(zip(firsts, numbers, strict=True))
    return [by_first[k] for k in asked_for]  # type: ignore[misc]


# ART-18: a spotter pays +1 on its own attacks in the turn the shell is fired and in
# the turn it lands.
SPOTTED_TURNS = 2


def _spotting_costs(board: Board) -> dict[str, float]:
    """ART-18 (hard, ``weighs_spotting``): per own unit that shoots (BattleTech direct
    fire, ART-32a) and does not spot this turn already, what a shell it would spot
    costs its own attacks: the expected damage its weapons (each one it carries) lose
    at +1 to hit against its best target, counted as the attack phase counts it, for
    each of the turns the shell is fired and lands. A unit already spotting pays the
    +1 anyway."""
    if not board.level.weighs_spotting:
        return {}
    view = board.view
    goals = objectives.read(view, board.level.reads_turn_limit)
    # ART-36: no direct fire reaches an aircraft.
    targets = [
        e
        for e in board.enemies.values()
        if e.hex is not None and e.system == cs.BATTLETECH and e.altitude is None
    ]
    out: dict[str, float] = {}
    for u in board.own.values():
        if u.system != cs.BATTLETECH or u.battery is not None or u.hex is None:
            continue
        if u.altitude is not None or spotting_this_turn(view, u):
            continue
        best = 0.0
        for e in targets:
            lost = 0.0
            for name in attack_weapons(u, e):
                tn = target_number(view, u, e, name)
                if tn is None or isinstance(tn, str):
                    continue
                now = bt.hit_probability(tn.total)
                if now <= 0:
                    continue
                odds = attack_odds_of(view, u, e, name)
                spotting = bt.hit_probability(tn.total + bt.SPOTTING_MODIFIER)
                lost += mounts(u, name) * odds.expected * (1.0 - spotting / now)
            if lost > 0:
                share = objectives.finishing_share(goals, e) if board.level.aims_to_destroy else 0.0
                best = max(best, lost * (unit_value(e) + share))
        if best > 0:
            out[u.id] = SPOTTED_TURNS * best
    return out


def _detection_matters(board: Board) -> bool:
    """ART-23/ART-24: a detected direction helps an enemy that can act on it, by
    hunting the guns (mobile maps, MAP-6) or by counter-battery fire (ART-37,
    an enemy with artillery), and only while turns are left to do it."""
    view = board.view
    if board.level.reads_turn_limit and view.turn_limit - view.turn < 1:
        return False
    if view.options.get("mobile_maps"):
        return True
    return any(u.side != view.side and u.battery is not None for u in view.units.values())


def _exact_value(
    board: Board,
    weapon_id: str,
    aimed: Hex,
    tn: int | None,
    weighed: _Weighed,
    tolerance: Callable[[Hex], float],
) -> float | None:
    """The exact forecast's expected damage to enemies (where they may stand when the
    shell lands: ``weighed``'s first list, its points in the area); None when own
    units (its second list) are at risk."""
    at, weights, enemies = weighed.in_area(board.area)
    damage = expected_damage_at(board.area, aimed, tn, weapon_id, at)
    risk = 0.0
    for d in damage[enemies:].tolist():
        risk += d
    if risk > tolerance(aimed):
        return None
    if not enemies:
        return 0.0
    # Added point after point (a running sum), as the points are listed.
    return float(np.cumsum(weights * damage[:enemies])[-1])


def _staying(board: Board, weapon_id: str, flight: int) -> list[Unit]:
    """Own units that may still stand in a blast shell's rings (``is_blast``) when it
    lands; for a smaller shell, every own unit where it stands. A shell of a
    turn's flight or more (ART-6) lands after a movement phase (ART-7), so a unit
    out of contact that moves farther than the rings reach (ART-25) steps out of
    them (``manoeuvre``: own units keep out of own shells landing); guns, slow
    units and units in contact with the enemy stay, and direct fire (flight 0)
    lands before anyone moves."""
    if flight <= 0 or not is_blast(weapon_id):
        return list(board.own.values())
    reach = weapon(weapon_id).ring_radius + 1
    enemies = [e.hex for e in board.enemies.values() if e.hex is not None]
    out = []
    for u in board.own.values():
        free = u.battery is None and fastest_move(u) >= reach
        if free and not any(distance(u.hex, e) <= 1 for e in enemies):
            continue
        out.append(u)
    return out


def _tolerance(board: Board) -> Callable[[Hex], float]:
    """Own damage a shell aimed at a hex may threaten; five times more at revealed
    enemy guns (within two hexes), whose destruction wins the game."""
    base = board.personality.own_damage_tolerance
    guns = [e.hex for e in board.enemies.values() if e.battery is not None]
    if not guns:
        return lambda aimed: base
    near_guns = 5.0 * base
    return lambda aimed: near_guns if any(distance(g, aimed) <= 2 for g in guns) else base
