"""BATTLESYSTEM attack dice with armour checks: vectorized batch vs the scalar resolver.

``python -m game.bench battlesystem`` resolves one million d12 attack dice
(100,000 attacks of 10 AD against AR 6, one d10 per hit) with
``resolve_attacks_batch``, and a 20,000-die sample of the same attacks with
the scalar ``attack`` + ``armor_check`` through ``Dice``; the scalar time is
scaled per die to a million for the ratio.
"""

from __future__ import annotations

import time

from game.bench.timing import fmt_ms, median_seconds
from game.dice import Dice
from game.rules.battlesystem import (
    armor_check,
    attack,
    resolve_attacks_batch,
    surviving_hits_distribution,
)
from game.rules.core import mean

DICE_PER_ATTACK = 10
SIDES = 12
ARMOR = 6
VECTOR_DICE = 1_000_000
SCALAR_DICE = 20_000


def _vectorized(seed: int) -> float:
    rng = Dice(seed).generator()
    batch = resolve_attacks_batch(
        rng, VECTOR_DICE // DICE_PER_ATTACK, DICE_PER_ATTACK, SIDES, ARMOR
    )
    return float(batch.standing.mean())


def _scalar(seed: int) -> float:
    dice = Dice(seed)
    standing = 0
    attacks = SCALAR_DICE // DICE_PER_ATTACK
    for _ in range(attacks):
        roll = attack(dice, DICE_PER_ATTACK, SIDES)
        standing += armor_check(dice, roll.hits, ARMOR).standing
        dice.records.clear()  # a game log would take these; the benchmark drops them
    return standing / attacks


def main() -> None:
    exact = float(mean(surviving_hits_distribution(DICE_PER_ATTACK, SIDES, ARMOR)))
    print(
        f"BATTLESYSTEM: attacks of {DICE_PER_ATTACK} d{SIDES} against AR {ARMOR} "
        f"(one d10 armour check per hit)"
    )
    start = time.perf_counter()
    _vectorized(1)
    first = time.perf_counter() - start
    vector = median_seconds(lambda: _vectorized(2), repeat=7)
    scalar = median_seconds(lambda: _scalar(3), repeat=3)
    scalar_per_million = scalar * VECTOR_DICE / SCALAR_DICE
    rows = [
        (f"vectorized, {VECTOR_DICE:,} AD", f"{fmt_ms(vector)} (first run {fmt_ms(first)})"),
        (f"scalar, {SCALAR_DICE:,} AD sample", fmt_ms(scalar)),
        (f"scalar, scaled to {VECTOR_DICE:,} AD", fmt_ms(scalar_per_million)),
        ("ratio scalar / vectorized", f"{scalar_per_million / vector:.1f}x"),
    ]
    for label, value in rows:
        print(f"  {label + ':':<36} {value}")
    print(
        f"  vectorized per AD: {vector / VECTOR_DICE * 1e9:.1f} ns; "
        f"scalar per AD: {scalar / SCALAR_DICE * 1e9:.0f} ns"
    )
    print(
        f"  standing hits per attack: exact {exact:.4f}, vectorized {_vectorized(4):.4f}, "
        f"scalar sample {_scalar(5):.4f}"
    )


if __name__ == "__main__":
    main()
