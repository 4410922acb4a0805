"""Exact forecast of a plotted shot: where it lands and what damage to expect.

For a to-hit number TN the shell hits the aimed hex with P(2d6 >= TN). Each
lower roll s misses by TN - s and scatters that many hexes in each of the six
directions with probability P(s) / 6 (ART-11, ART-12). A landing hex outside
the play area is lost and deals nothing. Expected damage in a hex is the sum
over landing hexes of P(landing) times the ring damage at that distance
(ART-25). The landing probabilities are exact fractions until the final
floats; the expected damage sums those floats times the whole ring damages.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Protocol

import numpy as np

from game.artillery.weapons import Weapon, ring_damage, weapon
from game.hexmath import Hex, distances, step
from game.rules.core import sum_distribution


class AreaLike(Protocol):
    """What the forecast needs of a play area."""

    q: np.ndarray
    r: np.ndarray

    def contains(self, h: Hex) -> bool: ...


@dataclass(frozen=True)
class Forecast:
    """Landing probabilities (with ``lost`` they sum to 1) and expected damage."""

    aimed: Hex
    to_hit_number: int | None  # None: the shell hits automatically
    hit_probability: float
    landing: dict[Hex, float]
    lost: float
    expected_damage: dict[Hex, float]
    damage_array: np.ndarray  # expected damage aligned with the area's q/r arrays

    @property
    def max_expected_damage(self) -> float:
        return max(self.expected_damage.values(), default=0.0)


def landing_distribution(aimed: Hex, to_hit_number: int | None) -> dict[Hex, Fraction]:
    """Exact probability of each landing hex (on or off any area)."""
    if to_hit_number is None:
        return {aimed: Fraction(1)}
    out: dict[Hex, Fraction] = {}
    for roll, p in sum_distribution(2, 6).items():
        if roll >= to_hit_number:
            out[aimed] = out.get(aimed, Fraction(0)) + p
            continue
        margin = to_hit_number - roll
        for direction in range(1, 7):
            h = step(aimed, direction, margin)
            out[h] = out.get(h, Fraction(0)) + p / 6
    return out


@dataclass(frozen=True)
class _Pattern:
    """Where one shell at to-hit number TN can land, relative to the aimed hex."""

    dq: np.ndarray
    dr: np.ndarray
    exact: tuple[Fraction, ...]
    p: np.ndarray  # float64 of ``exact``
    hit: Fraction


@lru_cache(maxsize=32)
def _pattern(to_hit_number: int | None) -> _Pattern:
    dist = landing_distribution(Hex(0, 0), to_hit_number)
    keys = list(dist)
    exact = tuple(dist[h] for h in keys)
    return _Pattern(
        np.fromiter((h.q for h in keys), np.int32, len(keys)),
        np.fromiter((h.r for h in keys), np.int32, len(keys)),
        exact,
        np.array([float(p) for p in exact], dtype=np.float64),
        dist.get(Hex(0, 0), Fraction(0)),
    )


@dataclass(frozen=True)
class _Spread:
    """Ring damage at every hex around the landings: ``damage = matrix @ landing_p``."""

    cq: np.ndarray  # hexes relative to the aimed hex that any landing's rings reach
    cr: np.ndarray
    matrix: np.ndarray  # (cells, landings) ring damage of each landing at each cell
    reach: int  # the farthest |dq| and |dr| of a cell
    rows: np.ndarray  # the cell (row of ``matrix``) at (dq + reach, dr + reach), -1 none


@lru_cache(maxsize=32)
def _spread(to_hit_number: int | None, w: Weapon) -> _Spread:
    pattern = _pattern(to_hit_number)
    table = np.array([ring_damage(w, d) for d in range(w.ring_radius + 2)], np.float64)
    reach = int(distances(Hex(0, 0), pattern.dq, pattern.dr).max()) + w.ring_radius
    span = np.arange(-reach, reach + 1, dtype=np.int32)
    gq, gr = np.meshgrid(span, span, indexing="ij")
    gq, gr = gq.ravel(), gr.ravel()
    d = np.abs(gq[:, None] - pattern.dq[None, :])
    dr = np.abs(gr[:, None] - pattern.dr[None, :])
    ds = np.abs((gq + gr)[:, None] - (pattern.dq + pattern.dr)[None, :])
    d = np.minimum((d + dr + ds) // 2, w.ring_radius + 1)
    matrix = table[d]
    keep = matrix.any(axis=1)
    rows = np.full(gq.size, -1, dtype=np.int64)
    rows[keep] = np.arange(int(keep.sum()))
    return _Spread(
        gq[keep].copy(),
        gr[keep].copy(),
        np.ascontiguousarray(matrix[keep]),
        reach,
        rows.reshape(span.size, span.size),
    )


def _indices(area: AreaLike, q: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Index of each hex in the area arrays, -1 outside (the play area's own grid
    lookup when it has one)."""
    lookup = getattr(area, "indices_of", None)
    if lookup is not None:
        return np.asarray(lookup(q, r))
    where = {(int(a), int(b)): i for i, (a, b) in enumerate(zip(area.q, area.r, strict=True))}
    out = np.full(len(q), -1, dtype=np.int64)
    for k, (a, b) in enumerate(zip(q.tolist(), r.tolist(), strict=True)):
        if area.contains(Hex(a, b)):
            out[k] = where.get((a, b), -1)
    return out


def forecast(
    area: AreaLike,
    target_hex: Hex,
    to_hit_number: int | None,
    weapon_: str | Weapon,
) -> Forecast:
    """The exact forecast of one shell aimed at ``target_hex`` (None: auto-hit).

    The landing pattern and the ring damage of every landing around it depend
    only on the to-hit number and the weapon, not on where the shot is aimed,
    so they are worked out once and kept; a forecast then looks up which
    landings fall on the area and sums their rings with one matrix product.
    """
    target_hex = Hex(int(target_hex[0]), int(target_hex[1]))
    pattern = _pattern(to_hit_number)
    lq, lr, on = _landings(area, target_hex, pattern)
    landing = {
        Hex(q, r): p
        for q, r, p, keep in zip(
            lq.tolist(), lr.tolist(), pattern.p.tolist(), on.tolist(), strict=True
        )
        if keep
    }
    off = np.nonzero(~on)[0].tolist()
    lost = float(sum((pattern.exact[k] for k in off), Fraction(0)))
    damage, cq, cr, values = _rings(area, target_hex, to_hit_number, weapon(weapon_), pattern, on)
    expected = {
        Hex(q, r): v for q, r, v in zip(cq.tolist(), cr.tolist(), values.tolist(), strict=True)
    }
    return Forecast(
        aimed=target_hex,
        to_hit_number=to_hit_number,
        hit_probability=float(pattern.hit),
        landing=landing,
        lost=lost,
        expected_damage=expected,
        damage_array=damage,
    )


def expected_damage(
    area: AreaLike, target_hex: Hex, to_hit_number: int | None, weapon_: str | Weapon
) -> np.ndarray:
    """``forecast(...).damage_array`` alone: the expected damage at every area hex
    (ART-25), for a caller that weighs many aims and reads nothing else."""
    target_hex = Hex(int(target_hex[0]), int(target_hex[1]))
    pattern = _pattern(to_hit_number)
    _, _, on = _landings(area, target_hex, pattern)
    return _rings(area, target_hex, to_hit_number, weapon(weapon_), pattern, on)[0]


def expected_damage_at(
    area: AreaLike,
    target_hex: Hex,
    to_hit_number: int | None,
    weapon_: str | Weapon,
    at: np.ndarray,
) -> np.ndarray:
    """``expected_damage(...)[at]`` (``at``: area indices), worked out at those hexes
    alone: the same figures, for a caller that reads a few hexes of a large area."""
    target_hex = Hex(int(target_hex[0]), int(target_hex[1]))
    pattern = _pattern(to_hit_number)
    _, _, on = _landings(area, target_hex, pattern)
    out = np.zeros(len(at), dtype=np.float64)
    if not on.any() or not len(at):
        return out
    spread = _spread(to_hit_number, weapon(weapon_))
    values = spread.matrix @ np.where(on, pattern.p, 0.0)
    # Each hex's cell, by its offset from the aimed hex; a cell that takes no damage
    # leaves the hex at 0, as ``_rings`` leaves it.
    reach = spread.reach
    dq = area.q[at] - target_hex.q
    dr = area.r[at] - target_hex.r
    near = np.flatnonzero((np.abs(dq) <= reach) & (np.abs(dr) <= reach))
    rows = spread.rows[dq[near] + reach, dr[near] + reach]
    cell = rows >= 0
    out[near[cell]] = values[rows[cell]]
    return out


def _landings(
    area: AreaLike, target_hex: Hex, pattern: _Pattern
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every hex the shell may come down in, and which of them lie on the area."""
    lq = pattern.dq + target_hex.q
    lr = pattern.dr + target_hex.r
    return lq, lr, _indices(area, lq, lr) >= 0


def _rings(
    area: AreaLike,
    target_hex: Hex,
    to_hit_number: int | None,
    w: Weapon,
    pattern: _Pattern,
    on: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The expected damage at every area hex from the landings on the area, and the
    hexes (q, r) that take some with their damage."""
    damage = np.zeros(len(area.q), dtype=np.float64)
    if not on.any():
        nothing = np.zeros(0, dtype=np.int64)
        return damage, nothing, nothing, np.zeros(0, dtype=np.float64)
    spread = _spread(to_hit_number, w)
    values = spread.matrix @ np.where(on, pattern.p, 0.0)
    cq = spread.cq + target_hex.q
    cr = spread.cr + target_hex.r
    idx = _indices(area, cq, cr)
    hit = np.nonzero((idx >= 0) & (values > 0))[0]
    damage[idx[hit]] = values[hit]
    return damage, cq[hit], cr[hit], values[hit]
