"""Counter-battery fire (ART-37): a shot at an off-board sheet position that
may hold an enemy gun, and the odds a player aims it by.

The source names it only: the enemy may hunt the guns "as opposed to simply
using your own artillery for counter-battery fire". The game's rule
(docs/artillery.md, ART-37): a piece is plotted at a hex ``XXYY`` of a sheet
position outside the play area; the shell flies the flight time from the gun
to that position (ART-5, ART-6); no unit sees the hex, so it has no spotter and
is never adjusted (ART-16, ART-17): gunnery + 7. It hits or scatters as on the
map (ART-11, ART-12) and damages the batteries standing within its rings on
that position's sheet (ART-25 .. ART-31, batteries as medium vehicles).

What is pure arithmetic lives here: the positions an announced direction
allows, the chance a shell comes down close enough to hurt a gun in the aimed
hex, and the forecast rows the window shows for each candidate position.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import compress
from typing import Protocol

import numpy as np

from game.artillery.flight import flight_time, sheet_distance
from game.artillery.tohit import artillery_target_number
from game.artillery.weapons import Weapon, weapon
from game.board.los import line_steps
from game.board.sheet import SHEET_COLS, SHEET_ROWS, parse_xxyy
from game.hexmath import DIRECTIONS, Hex
from game.limits import SHEET_POSITION_LIMIT as LIMIT
from game.rules.core import TargetNumber, probability_at_least

SheetPosition = tuple[int, int]

_HEX_0909 = parse_xxyy("0909")  # ART-24: announcements point at this hex of a sheet


class Grid(Protocol):
    def hex_0909(self, position: SheetPosition) -> Hex: ...

    def has_sheet(self, position: SheetPosition) -> bool: ...

    def side_of_position(self, position: SheetPosition) -> str | None: ...

    def free_on_side(
        self, positions: Iterable[SheetPosition], side: str | None
    ) -> list[SheetPosition]: ...


def counter_battery_target_number(gunnery: int) -> TargetNumber:
    """ART-37: counter-battery fire has no spotter and is never adjusted (ART-16,
    ART-17): the plain gunnery + 7 (ART-11)."""
    return artillery_target_number(gunnery)


def ring_chance(to_hit_number: int, weapon_: str | Weapon) -> Fraction:
    """The exact chance a shell aimed at a hex comes down within its damage rings
    of that hex (ART-11, ART-12, ART-25): it hits, or misses by a margin no
    larger than the last ring (the scatter runs that many hexes in a straight
    line, so the landing lies exactly ``margin`` hexes away)."""
    w = weapon(weapon_)
    return probability_at_least(2, 6, to_hit_number - w.ring_radius)


def announced_positions(
    grid: Grid,
    enemy: str,
    announcements: Iterable[tuple[Hex, int]],
    origin: SheetPosition,
    reach: int,
) -> list[SheetPosition]:
    """Off-board positions within ``reach`` sheets of ``origin`` on the enemy's side
    of the half-line (ART-1) that agree with every announced side (ART-24):
    the side of each aimed hex toward the position's hex 0909. Empty without an
    announcement: nothing points anywhere yet. Positions beyond the limits of a
    sheet position (game/limits.py) hold no gun and are left out."""
    heard = tuple((Hex(*aimed), int(side)) for aimed, side in announcements)
    if not heard:
        return []
    agree = _agreeing(heard, (origin[0], origin[1]), reach)
    return grid.free_on_side(sorted(agree), enemy)


def _agreeing(
    heard: tuple[tuple[Hex, int], ...], origin: SheetPosition, reach: int
) -> frozenset[SheetPosition]:
    """The positions within ``reach`` of ``origin`` that agree with every announced
    side. Announcements only ever grow, so the answer for all but the last one is
    usually kept: each new one then costs one more intersection."""
    key = (heard, origin, reach)
    agree = _AGREEING.get(key)
    if agree is not None:
        return agree
    known = _AGREEING.get((heard[:-1], origin, reach))
    todo = heard if known is None else heard[-1:]
    for aimed, side in todo:
        pointed = _positions_toward(aimed, side, origin, reach)
        known = pointed if known is None else known & pointed
    assert known is not None
    if len(_AGREEING) >= _AGREEING_KEPT:
        _AGREEING.clear()
    _AGREEING[key] = known
    return known


_Heard = tuple[tuple[Hex, int], ...]
_AGREEING: dict[tuple[_Heard, SheetPosition, int], frozenset[SheetPosition]] = {}
_AGREEING_KEPT = 1024


# The side (1..6) behind which lies each neighbour (dq, dr), by (dq + 1) * 3 + dr + 1.
_SIDE_OF_STEP = np.zeros(9, dtype=np.int64)
for _side, _step in DIRECTIONS.items():
    _SIDE_OF_STEP[(_step.q + 1) * 3 + _step.r + 1] = _side


@lru_cache(maxsize=4096)
def _positions_toward(
    aimed: Hex, side: int, origin: SheetPosition, reach: int
) -> frozenset[SheetPosition]:
    """The sheet positions within ``reach`` of ``origin`` whose hex 0909 lies beyond
    ``side`` of ``aimed`` (ART-24). An announcement stays in the intel for the rest
    of the game, so the same question is asked every targeting phase.

    ``announced_side`` for every position at once: the side is the one the exact
    line from the aimed hex to hex 0909 first crosses (``side_toward``), read
    from the first step of ``line_steps`` (the same line, vectorized); a
    position whose hex 0909 is the aimed hex itself is announced as side 1."""
    square, centres = _square(origin, reach)
    if not square:
        return frozenset()
    dq, dr = centres[:, 0] - aimed.q, centres[:, 1] - aimed.r
    q1, r1, _ = line_steps(dq, dr, 1)
    sides = _SIDE_OF_STEP[(q1[:, 0] + 1) * 3 + r1[:, 0] + 1]
    sides[(dq == 0) & (dr == 0)] = 1
    return frozenset(compress(square, (sides == side).tolist()))


@lru_cache(maxsize=64)
def _square(origin: SheetPosition, reach: int) -> tuple[tuple[SheetPosition, ...], np.ndarray]:
    """The sheet positions within ``reach`` of ``origin`` (a square, inside the limits
    of game/limits.py) and their hexes 0909 (ART-24), as axial rows (q, r). Every new
    announcement is compared with the same square (a battery's origin and reach do
    not change), so it is laid out once rather than position by position each time;
    a Long Tom's square holds some 3,700 positions, their hexes worked out at once
    (``sheet_hex`` of each, MAP-2)."""
    i_values = range(max(origin[0] - reach, -LIMIT), min(origin[0] + reach, LIMIT) + 1)
    j_values = range(max(origin[1] - reach, -LIMIT), min(origin[1] + reach, LIMIT) + 1)
    square = tuple((i, j) for i in i_values for j in j_values)
    i = np.repeat(np.arange(i_values.start, i_values.stop, dtype=np.int64), len(j_values))
    j = np.tile(np.arange(j_values.start, j_values.stop, dtype=np.int64), len(i_values))
    col, row = _HEX_0909
    # ``global_offset`` then ``from_offset`` (odd-q offset to axial), for every position.
    gc = SHEET_COLS * i + col
    gr = SHEET_ROWS * j + row + (col & 1) * (i & 1)
    centres = np.stack([gc, gr - (gc - (gc & 1)) // 2], axis=1)
    centres.flags.writeable = False  # shared by every call
    return square, centres.reshape(len(square), 2)


@dataclass(frozen=True)
class CandidateOdds:
    """One candidate position as the counter-battery forecast shows it."""

    position: SheetPosition
    belief: float  # the share of the belief that a gun stands there
    sheets: int
    flight: int | None  # None: out of range (ART-3)
    ring_chance: float  # P(the shell comes down within its rings of the aimed hex)

    @property
    def chance(self) -> float:
        """P(a gun stands there and the shell comes down close enough to hurt it)."""
        return 0.0 if self.flight is None else self.belief * self.ring_chance


def forecast_positions(
    weights: Mapping[SheetPosition, float],
    origin: SheetPosition,
    weapon_: str | Weapon,
    gunnery: int,
) -> list[CandidateOdds]:
    """Every candidate position with its odds, best chance first (ties: nearer
    first, then by position)."""
    w = weapon(weapon_)
    near = float(ring_chance(counter_battery_target_number(gunnery).total, w))
    # The flight to each distance in reach (ART-6), looked up once for the many
    # positions at that distance.
    flights: dict[int, int] = {}
    rows = []
    for pos, belief in weights.items():
        sheets = sheet_distance(origin, pos)
        flight = None
        if 0 < sheets <= w.max_range_sheets:
            flight = flights.get(sheets)
            if flight is None:
                flight = flights[sheets] = flight_time(w, sheets)
        rows.append(CandidateOdds(pos, float(belief), sheets, flight, near))
    rows.sort(key=lambda r: (-r.chance, r.sheets, r.position))
    return rows
