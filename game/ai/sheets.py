"""Placing a new sheet (MAP-6 .. MAP-10): slow the enemy's hunters, speed one's own.

The picker chooses among the sheets the engine allows (MAP-9 "similar" or
"free", MAP-8 pile, MAP-10 the guns' own sheet). Each sheet is rated by what
it costs the unit entering it to cross (MOV-1, MOV-2: the mean cost of
entering its hexes, ground the unit cannot enter counting heavily, plus the
climbing) and by how much woods and hills block sight (MAP-5), which shields
hidden guns from the hunters' eyes (ART-4). An enemy unit gets the slowest,
most blinding sheet; an own unit the quickest.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from game.ai.candidates import Board, Candidate
from game.board.sheet import available_sheets
from game.board.terrain import BUILDING, HEAVY_WOODS, LIGHT_WOODS, ROUGH, WATER
from game.state.commands import Command, PlaceSheet

BLOCKED = 8.0  # cost counted for a hex the unit cannot enter at all


@lru_cache(maxsize=256)
def crossing_cost(sheet_id: str, kind: str) -> float:
    """Mean MP to enter a hex of the sheet for a unit of ``kind`` (mech, vehicle,
    infantry, figure), with hexes it cannot enter counted as ``BLOCKED``."""
    sheet = available_sheets()[sheet_id]
    terrain = sheet.terrain
    depth = sheet.water_depth
    cost = np.ones(terrain.shape, dtype=np.float64)
    if kind == "infantry":
        return 1.0
    double = 2.0 if kind == "figure" else None
    if double is not None:
        rough = np.isin(terrain, (LIGHT_WOODS, HEAVY_WOODS, ROUGH, WATER))
        return float(np.where(rough, double, 1.0).mean())
    cost = np.where(terrain == ROUGH, 2.0, cost)
    cost = np.where(terrain == LIGHT_WOODS, 2.0, cost)
    cost = np.where(terrain == HEAVY_WOODS, BLOCKED if kind == "vehicle" else 3.0, cost)
    cost = np.where(terrain == BUILDING, 2.0, cost)
    water_cost = np.where(depth <= 1, 2.0, 4.0)
    if kind == "vehicle":
        water_cost = np.where(depth >= 1, BLOCKED, water_cost)
    cost = np.where(terrain == WATER, water_cost, cost)
    cost = np.where(sheet.road, 1.0, cost)
    level = sheet.level.astype(np.float64)
    climb = float(np.abs(np.diff(level, axis=0)).mean() + np.abs(np.diff(level, axis=1)).mean())
    return float(cost.mean()) + climb


@lru_cache(maxsize=256)
def sight_cover(sheet_id: str) -> float:
    """Share of the sheet's hexes that block or thin out sight (woods, buildings, hills)."""
    sheet = available_sheets()[sheet_id]
    blocking = np.isin(sheet.terrain, (LIGHT_WOODS, HEAVY_WOODS, BUILDING))
    return float(blocking.mean()) + 0.1 * float(np.std(sheet.level))


def _kind(unit: dict) -> str:
    if unit["system"] != "battletech":
        return "figure"
    return str(unit["kind"])


def sheet_candidates(board: Board, legal: list[Command]) -> list[Candidate]:
    view = board.view
    options = [c for c in legal if isinstance(c, PlaceSheet)]
    if len(options) <= 1:
        return [Candidate(c, 0.0, "the only sheet allowed (MAP-10)") for c in legal]
    pending = view.pending_sheet
    mover = None if pending is None or pending.unit is None else view.units.get(pending.unit)
    if mover is None:
        return [Candidate(c, 0.0, "an unseen unit enters") for c in options]
    kind = _kind(mover)
    enemy = mover["side"] != view.side
    out = []
    for c in options:
        cost = crossing_cost(c.sheet, kind)
        if not board.level.slows_hunters:
            out.append(Candidate(c, 0.0, "any sheet will do"))
        elif enemy:
            score = cost + 2.0 * sight_cover(c.sheet)
            out.append(Candidate(c, score, f"slows {mover['name']}: {cost:.1f} MP a hex"))
        else:
            out.append(Candidate(c, -cost, f"quick going for {mover['name']}: {cost:.1f} MP"))
    return out
