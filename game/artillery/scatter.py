"""Hit or scatter (ART-11, ART-12), one shell at a time or a million at once.

A shell that misses lands ``margin of failure`` hexes from the aimed hex in the
d6 direction of the scatter diagram (1 north, clockwise), on a straight line of
exact cube steps. A landing hex outside the play area is recorded as lost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from game.dice import DiceBase, batch_roll
from game.hexmath import DIRECTION_NAMES, DIRECTIONS, Hex, straight_run
from game.rules.core import TargetNumber


@dataclass(frozen=True)
class ShellLanding:
    """Where one shell came down and why."""

    aimed: Hex
    landing: Hex
    hit: bool
    to_hit: int | None  # None: it hit automatically
    roll: int | None
    margin: int  # margin of failure, 0 on a hit
    direction: int | None  # scatter direction 1..6, None on a hit
    path: tuple[Hex, ...]  # hexes from the aimed hex to the landing hex, aimed excluded
    lost: bool  # landed outside the play area
    automatic: str | None = None  # why it hit without a roll

    def account(self, name_of: Callable[[Hex], str] = str) -> str:
        """A sentence for the log, e.g. "2d6 = 5 vs 8: miss by 3, scatter 3 hexes north-east"."""
        if self.automatic:
            return f"hits {name_of(self.aimed)} automatically ({self.automatic})"
        head = f"2d6 = {self.roll} vs {self.to_hit}"
        if self.hit:
            return f"{head}: hit on {name_of(self.aimed)}"
        where = "off the play area, lost" if self.lost else f"in {name_of(self.landing)}"
        assert self.direction is not None
        return (
            f"{head}: miss by {self.margin}, scatter {self.margin} "
            f"{'hex' if self.margin == 1 else 'hexes'} {DIRECTION_NAMES[self.direction]} "
            f"(d6 = {self.direction}), lands {where}"
        )


def resolve_shell(
    dice: DiceBase,
    aimed: Hex,
    to_hit: TargetNumber | int | None,
    on_area: Callable[[Hex], bool],
    automatic: str | None = None,
    purpose: str = "artillery",
) -> ShellLanding:
    """Roll one shell (ART-11, ART-12).

    ``automatic`` names why the shell hits without a roll (pre-designated hex,
    ART-21; auto-hit hex, ART-19); then ``to_hit`` is ignored.
    """
    if automatic:
        lost = not on_area(aimed)
        return ShellLanding(aimed, aimed, True, None, None, 0, None, (), lost, automatic)
    if to_hit is None:
        raise ValueError("a shell that does not hit automatically needs a to-hit number")
    tn = to_hit.total if isinstance(to_hit, TargetNumber) else int(to_hit)
    roll = dice.roll(2, 6, f"{purpose}: to hit (needs {tn})").total
    if roll >= tn:
        return ShellLanding(aimed, aimed, True, tn, roll, 0, None, (), not on_area(aimed))
    margin = tn - roll
    direction = dice.roll(1, 6, f"{purpose}: scatter direction").total
    path = tuple(straight_run(aimed, direction, margin))
    landing = path[-1]
    lost = not on_area(landing)
    return ShellLanding(aimed, landing, False, tn, roll, margin, direction, path, lost)


_DIR_Q = np.array([0] + [DIRECTIONS[d].q for d in range(1, 7)], dtype=np.int32)
_DIR_R = np.array([0] + [DIRECTIONS[d].r for d in range(1, 7)], dtype=np.int32)


@dataclass(frozen=True)
class ShellBatch:
    """Many shells resolved at once (Monte Carlo): arrays of equal length."""

    roll: np.ndarray  # 2d6 totals
    hit: np.ndarray  # bool
    margin: np.ndarray  # 0 on a hit
    direction: np.ndarray  # 0 on a hit, else 1..6
    landing_q: np.ndarray
    landing_r: np.ndarray


def resolve_shells(
    rng: np.random.Generator, aimed: Hex, to_hit: int | np.ndarray, count: int
) -> ShellBatch:
    """Resolve ``count`` shells at one aimed hex, vectorized (same rules as resolve_shell)."""
    dice = batch_roll(rng, (count, 2), 6).astype(np.int32)
    roll = dice.sum(axis=1)
    tn = np.broadcast_to(np.asarray(to_hit, dtype=np.int32), (count,))
    hit = roll >= tn
    margin = np.where(hit, 0, tn - roll)
    direction = np.where(hit, 0, batch_roll(rng, count, 6).astype(np.int32))
    return ShellBatch(
        roll=roll,
        hit=hit,
        margin=margin,
        direction=direction,
        landing_q=aimed.q + _DIR_Q[direction] * margin,
        landing_r=aimed.r + _DIR_R[direction] * margin,
    )
