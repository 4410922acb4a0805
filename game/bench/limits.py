"""The largest play area the limits allow (game/limits.py), and what it costs.

Builds an area of ``AREA_SHEETS_LIMIT`` sheets filling as much of the
``AREA_SPAN_LIMIT`` bounding box as it can (an L of two full edges, then rows),
runs the movement search of every movement class from two far corners and line
of sight from both, and prints the hexes, the time and the peak resident memory
of the process.

Run: ``python -m game.bench limits``.
"""

from __future__ import annotations

import resource
import time

from game.board.area import PlayArea
from game.board.los import visible_from
from game.board.movement import mover_for, reachable
from game.board.sheet import available_sheets
from game.limits import AREA_SHEETS_LIMIT, AREA_SPAN_LIMIT

PROFILES = (
    ("battletech", {"type": "mech", "walk": 5}),
    ("battletech", {"type": "vehicle", "walk": 5}),
    ("battletech", {"type": "vehicle", "walk": 5, "motive": "hover"}),
    ("battletech", {"type": "infantry", "walk": 1}),
    ("warhammer", {"move": 6}),
)


def largest_layout() -> list[tuple[int, int]]:
    """The full north row and west column of the bounding box, then rows below."""
    span = AREA_SPAN_LIMIT
    positions = [(i, 0) for i in range(span)] + [(0, j) for j in range(1, span)]
    row = 1
    while len(positions) < AREA_SHEETS_LIMIT:
        positions += [(i, row) for i in range(1, span)][: AREA_SHEETS_LIMIT - len(positions)]
        row += 1
    return positions


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    sheets = list(available_sheets().values())
    positions = largest_layout()
    before = peak_mb()
    started = time.perf_counter()
    area = PlayArea.from_layout(
        {p: sheets[(7 * p[0] + p[1]) % len(sheets)] for p in positions}, "north-south"
    )
    far = AREA_SPAN_LIMIT - 1
    for viewer in (area.hex_at((far, 0), "0809"), area.hex_at((0, far), "0809")):
        for system, profile in PROFILES:
            reachable(area, viewer, 1, mover_for(system, profile), exits=True)
        visible_from(area, viewer)
    seconds = time.perf_counter() - started
    print(
        f"largest area: {area.sheet_count} sheets ({len(area):,} hexes) in a "
        f"{AREA_SPAN_LIMIT}x{AREA_SPAN_LIMIT}-sheet box"
    )
    print(f"  movement search of {len(PROFILES)} classes and sight from 2 hexes: {seconds:.1f} s")
    print(f"  peak resident memory: {peak_mb():.0f} MB (before the area: {before:.0f} MB)")
