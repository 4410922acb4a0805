"""Artillery: a million shells vectorized against the scalar path, and one exact forecast.

``python -m game.bench artillery`` prints:

* one million shells at one aimed hex of a 20-sheet play area (5 x 4 sheets),
  to-hit number 9: hit or scatter and the landing hex with
  ``resolve_shells``, then on-area or lost through the area's index grid
  (``PlayArea.indices_of``); target 1 s or less. Beside it a 20,000-shell
  sample through the scalar ``resolve_shell`` with ``Dice`` and
  ``PlayArea.contains``, scaled per shell for the ratio;
* one full ``forecast`` with expected damage on the same area (a Long Tom at
  to-hit number 10 and a Cruise Missile/120 at 12, aimed in the middle of the
  area and near its edge), median of repeated runs; target 2 ms or less. The
  first forecast for a to-hit number and weapon builds the landing pattern
  and its ring matrix; the median is the steady state of a turn's planning.

The play area is built from generated sheets (varied levels, woods, water and
buildings), so the figures do not depend on the shipped map files.
"""

from __future__ import annotations

import time

import numpy as np

from game.artillery.forecast import forecast
from game.artillery.scatter import resolve_shell, resolve_shells
from game.bench.timing import fmt_ms, median_seconds
from game.board.area import PlayArea
from game.board.sheet import SHEET_COLS, SHEET_ROWS, Sheet, parse_sheet
from game.dice import Dice
from game.hexmath import Hex

VECTOR_SHELLS = 1_000_000
SCALAR_SHELLS = 20_000
TO_HIT = 9
COLS, ROWS = 5, 4


def _sheet(seed: int) -> Sheet:
    """A varied sheet: rolling levels, some woods, a pond and a few buildings."""
    rng = np.random.default_rng(seed)
    rows = []
    buildings = {}
    for r in range(SHEET_ROWS):
        tokens = []
        for c in range(SHEET_COLS):
            level = int(rng.integers(0, 3))
            pick = rng.random()
            name = f"{c + 1:02d}{r + 1:02d}"
            if pick < 0.1:
                tokens.append(f"{level}w")
            elif pick < 0.15:
                tokens.append(f"{level}W")
            elif pick < 0.18:
                tokens.append("0~2")
            elif pick < 0.21:
                tokens.append(f"{level}#")
                buildings[name] = (int(rng.integers(10, 80)), int(rng.integers(1, 4)))
            else:
                tokens.append(f"{level}.")
        rows.append(" ".join(tokens))
    text = f'id = "bench{seed}"\nname = "bench {seed}"\ncategory = "mixed"\n'
    text += "hexes = '''\n" + "\n".join(rows) + "\n'''\n[buildings]\n"
    text += "".join(f'"{n}" = {{ cf = {cf}, height = {h} }}\n' for n, (cf, h) in buildings.items())
    return parse_sheet(text, f"bench sheet {seed}")


def bench_area() -> PlayArea:
    """The 20-sheet benchmark area: 5 sheets wide, 4 deep."""
    layout = {(i, j): _sheet(10 * j + i) for i in range(COLS) for j in range(ROWS)}
    return PlayArea.from_layout(layout)


def _vectorized(area: PlayArea, aimed: Hex, seed: int) -> float:
    rng = Dice(seed).generator()
    batch = resolve_shells(rng, aimed, TO_HIT, VECTOR_SHELLS)
    on_area = area.indices_of(batch.landing_q, batch.landing_r) >= 0
    return float(on_area.mean())


def _scalar(area: PlayArea, aimed: Hex, seed: int) -> float:
    dice = Dice(seed)
    landed = 0
    for _ in range(SCALAR_SHELLS):
        shell = resolve_shell(dice, aimed, TO_HIT, area.contains)
        dice.records.clear()  # the benchmark keeps no log
        landed += not shell.lost
    return landed / SCALAR_SHELLS


def main() -> None:
    area = bench_area()
    aimed = area.hex_at((0, 1), "0404")  # near the west edge: long misses are lost
    print(f"play area: {area}")

    start = time.perf_counter()
    on_area = _vectorized(area, aimed, 1)
    first = time.perf_counter() - start
    vector = median_seconds(lambda: _vectorized(area, aimed, 2), repeat=5)
    start = time.perf_counter()
    on_area_scalar = _scalar(area, aimed, 3)
    scalar = (time.perf_counter() - start) / SCALAR_SHELLS * VECTOR_SHELLS
    print(
        f"{VECTOR_SHELLS:,} shells vectorized (hit/scatter, landing, on-area): "
        f"{fmt_ms(vector)} median of 5 (first run {fmt_ms(first)}); target 1000 ms"
    )
    print(
        f"scalar resolve_shell with Dice: {fmt_ms(scalar)} per {VECTOR_SHELLS:,} "
        f"(from a {SCALAR_SHELLS:,}-shell sample); vectorized is {scalar / vector:.0f}x faster"
    )
    print(
        f"share landing on the area: vectorized {on_area:.4f}, scalar sample {on_area_scalar:.4f}"
    )

    exact = 1.0 - forecast(area, aimed, TO_HIT, "long_tom").lost
    print(f"exact forecast of the same share: {exact:.4f}")

    interior = area.hex_at((2, 1), "0808")
    for where, hex_ in (("interior", interior), ("edge", aimed)):
        for weapon_id, tn in (("long_tom", 10), ("cruise_120", 12)):
            fc = forecast(area, hex_, tn, weapon_id)
            took = median_seconds(
                lambda w=weapon_id, t=tn, h=hex_: forecast(area, h, t, w), repeat=50
            )
            print(
                f"forecast {weapon_id} at to-hit {tn}, {where} hex, {len(area)} hexes: "
                f"{fmt_ms(took)} median of 50; target 2 ms ({len(fc.landing)} landing hexes, "
                f"lost {fc.lost:.4f}, {len(fc.expected_damage)} hexes with expected damage)"
            )


if __name__ == "__main__":
    main()
