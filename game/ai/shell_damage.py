"""The damage a shell aimed at a hex is expected to do around it (ART-11, ART-12,
ART-25): the landing distribution of the shot spread over the weapon's damage
rings, by offset from the aimed hex. Map targeting (``game.ai.fire``) and
counter-battery fire (``game.ai.counter_battery``) both weigh their shots by it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from game.artillery.forecast import landing_distribution
from game.artillery.weapons import ring_damage, weapon
from game.hexmath import Hex

KERNEL_RADIUS = 18  # largest scatter margin (2d6 from 2 against 13+) plus the rings


@lru_cache(maxsize=64)
def damage_kernel(weapon_id: str, to_hit_number: int | None) -> np.ndarray:
    """Expected damage by offset (dq, dr) from the aimed hex, as a square array
    centred on ``KERNEL_RADIUS`` (shells lost off the map not counted)."""
    w = weapon(weapon_id)
    size = 2 * KERNEL_RADIUS + 1
    kernel = np.zeros((size, size), dtype=np.float64)
    rings = w.ring_radius
    for landing, p in landing_distribution(Hex(0, 0), to_hit_number).items():
        for dq in range(-rings, rings + 1):
            for dr in range(max(-rings, -dq - rings), min(rings, -dq + rings) + 1):
                q, r = landing.q + dq, landing.r + dr
                if abs(q) > KERNEL_RADIUS or abs(r) > KERNEL_RADIUS:
                    continue
                d = max(abs(dq), abs(dr), abs(dq + dr))
                kernel[q + KERNEL_RADIUS, r + KERNEL_RADIUS] += float(p) * ring_damage(w, d)
    kernel.flags.writeable = False
    return kernel


# Ring damage (ART-25) from which a shell still does real harm: a light mech's
# location, half a rifle platoon.
HARMFUL_RING = 15


def harmful_radius(weapon_id: str) -> int:
    """The farthest ring of ``weapon_id``'s shells that does ``HARMFUL_RING`` or more."""
    rings = weapon(weapon_id).rings()
    return max((d for d, dmg in enumerate(rings) if dmg >= HARMFUL_RING), default=0)


# Harmful radius (hexes) from which a shell's rings are a blast own units must plan
# around: they step out of it before it lands, and the plot does not wait for them
# (``manoeuvre``, ``fire``). A cruise missile's reaches three hexes; the rings of
# the other guns harm one hex out at most, and the plot's own-damage check where
# own units stand covers them.
BLAST_RADIUS = 2


def is_blast(weapon_id: str) -> bool:
    """Whether ``weapon_id``'s harmful rings reach ``BLAST_RADIUS`` hexes or more."""
    return harmful_radius(weapon_id) >= BLAST_RADIUS
