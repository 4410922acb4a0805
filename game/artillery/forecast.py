"""Exact forecast of a plotted shot: where it lands and what damage to expect.

For a to-hit number TN the shell hits the aimed hex with P(2d6 >= TN). Each
lower roll s misses by TN - s and scatters that many hexes in each of the six
directions with probability P(s) / 6 (ART-11, ART-12). A landing hex outside
the play area is lost and deals nothing. Expected damage in a hex is the sum
over landing hexes of P(landing) times the ring damage at that distance
(ART-25). Everything is exact fractions until the final floats.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
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


def forecast(
    area: AreaLike,
    target_hex: Hex,
    to_hit_number: int | None,
    weapon_: str | Weapon,
) -> Forecast:
    """The exact forecast of one shell aimed at ``target_hex`` (None: auto-hit)."""
    w = weapon(weapon_)
    dist = landing_distribution(target_hex, to_hit_number)
    landing: dict[Hex, float] = {}
    lost = Fraction(0)
    for h, p in dist.items():
        if area.contains(h):
            landing[h] = float(p)
        else:
            lost += p
    hit_p = float(dist.get(target_hex, Fraction(0)))
    damage = np.zeros(len(area.q), dtype=np.float64)
    if landing:
        reach = max(distances(target_hex, *_arrays(landing))) + w.ring_radius
        near = np.nonzero(distances(target_hex, area.q, area.r) <= reach)[0]
        table = np.array([ring_damage(w, d) for d in range(w.ring_radius + 2)], np.float64)
        nq, nr = area.q[near], area.r[near]
        acc = np.zeros(len(near), dtype=np.float64)
        for h, p in landing.items():
            d = np.minimum(distances(h, nq, nr), w.ring_radius + 1)
            acc += p * table[d]
        damage[near] = acc
    hit_idx = np.nonzero(damage > 0)[0]
    expected = {Hex(int(area.q[i]), int(area.r[i])): float(damage[i]) for i in hit_idx.tolist()}
    return Forecast(
        aimed=target_hex,
        to_hit_number=to_hit_number,
        hit_probability=hit_p,
        landing=landing,
        lost=float(lost),
        expected_damage=expected,
        damage_array=damage,
    )


def _arrays(hexes: dict[Hex, float]) -> tuple[np.ndarray, np.ndarray]:
    keys = list(hexes)
    return (
        np.fromiter((h.q for h in keys), np.int32, len(keys)),
        np.fromiter((h.r for h in keys), np.int32, len(keys)),
    )
