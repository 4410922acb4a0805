"""Placing a new sheet (MAP-6 .. MAP-10): slow the enemy's hunters, speed one's own.

The picker chooses among the sheets the engine allows (MAP-9 "similar" or
"free", MAP-8 pile, MAP-10 the guns' own sheet). Each sheet is rated by what
it costs the unit entering it to cross (MOV-1, MOV-2: the engine's cost of
every step on it, climbing included, ground the unit cannot enter counting
heavily: ``game.state.queries.crossing_cost``), by how broken its ground is
(``relief``) and by how much woods and hills block sight (MAP-5), which shields
hidden guns from the hunters' eyes (ART-4). An enemy unit gets the slowest,
most blinding sheet; an own unit the quickest.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from game.ai.candidates import Board, Candidate
from game.board.sheet import Sheet
from game.board.terrain import BUILDING, HEAVY_WOODS, LIGHT_WOODS
from game.state.commands import Command, PlaceSheet
from game.state.queries import crossing_cost, movement_class


@lru_cache(maxsize=256)
def sight_cover(sheet: Sheet) -> float:
    """Share of the sheet's hexes that block or thin out sight (woods, buildings, hills)."""
    blocking = np.isin(sheet.terrain, (LIGHT_WOODS, HEAVY_WOODS, BUILDING))
    return float(blocking.mean()) + 0.1 * float(np.std(sheet.level))


@lru_cache(maxsize=256)
def relief(sheet: Sheet) -> float:
    """How broken the sheet's ground is: the mean rise between neighbouring rows plus
    that between neighbouring columns of its hexes. Not a movement cost (the climb
    is in ``crossing_cost``): a weight of the AI's own, since hills also channel a
    hunter's way and hide the guns (measured: without it the hard level won 70% of
    40 Long Tom Hunt games against normal, with it 82.5%)."""
    level = sheet.level.astype(np.float64)
    return float(np.abs(np.diff(level, axis=0)).mean() + np.abs(np.diff(level, axis=1)).mean())


def sheet_candidates(board: Board, legal: list[Command]) -> list[Candidate]:
    view = board.view
    options = [c for c in legal if isinstance(c, PlaceSheet)]
    if len(options) <= 1:
        return [Candidate(c, 0.0, "the only sheet allowed (MAP-10)") for c in legal]
    pending = view.pending_sheet
    mover = None if pending is None or pending.unit is None else view.units.get(pending.unit)
    if mover is None:
        return [Candidate(c, 0.0, "an unseen unit enters") for c in options]
    movement = movement_class(mover)
    if movement is None:
        return [Candidate(c, 0.0, f"{mover.name} does not cross the ground") for c in options]
    enemy = mover.side != view.side
    catalogue = view.area.catalogue  # the game's own sheets, kept in its saves
    out = []
    for c in options:
        sheet = catalogue[c.sheet]
        cost = crossing_cost(sheet, movement) + relief(sheet)
        if not board.level.slows_hunters:
            out.append(Candidate(c, 0.0, "any sheet will do"))
        elif enemy:
            score = cost + 2.0 * sight_cover(sheet)
            out.append(Candidate(c, score, f"slows {mover.name}: {cost:.1f} MP a hex"))
        else:
            out.append(Candidate(c, -cost, f"quick going for {mover.name}: {cost:.1f} MP"))
    return out
