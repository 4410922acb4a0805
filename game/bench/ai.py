"""Benchmark: the scripted opponents' decision time and the simulate runner's speed.

Prints, for each AI level, the time per decision and per turn (a side's
decisions in one turn added up), median and 95th percentile, over seeded
games of the default scenario; then games per second of ``simulate`` on 1
and 2 worker processes (same games, same results).
"""

from __future__ import annotations

import tempfile

from game.sim import simulate
from game.state import DEFAULT_SCENARIO

GAMES = 4
MATCH = {"north": "normal", "south": "easy"}


def _run(workers: int, out: str) -> dict:
    import json
    from pathlib import Path

    simulate(
        DEFAULT_SCENARIO, GAMES, 11, MATCH, out, workers=workers,
        swap_sides=True, logs=0, plots=False, progress=None,
    )  # fmt: skip
    return json.loads((Path(out) / "timing.json").read_text(encoding="utf-8"))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        one = _run(1, f"{tmp}/w1")
        two = _run(2, f"{tmp}/w2")
    print(f"AI decision time, {GAMES} games of Long Tom Hunt, normal vs easy, sides swapped:")
    for level, t in one["ai"].items():
        print(
            f"  {level:<7} per decision: median {t['decision_ms_median']:7.1f} ms, "
            f"p95 {t['decision_ms_p95']:7.1f} ms ({t['decisions']} decisions); "
            f"per turn: median {t['turn_ms_median']:7.1f} ms, p95 {t['turn_ms_p95']:7.1f} ms"
        )
    print("simulate throughput (engine and AI together):")
    for name, t in (("1 worker", one), ("2 workers", two)):
        print(
            f"  {name:<9}: {t['games_per_second']:.3f} games/s "
            f"({t['wall_seconds']:.1f} s for {GAMES} games)"
        )
    ratio = two["games_per_second"] / one["games_per_second"]
    print(f"  2 workers / 1 worker: {ratio:.2f}x")
