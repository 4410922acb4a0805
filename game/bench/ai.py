"""Benchmark: the scripted opponents' decision time and the simulate runner's speed.

Prints, for every AI level, the time per decision and per turn (a side's
decisions in one turn added up), median and 95th percentile (target: 100 ms or
less per turn), over seeded games of the default scenario (hard against normal,
easy against random, sides swapped); then games per second of ``simulate``,
normal against normal, on one worker process (target: 3 or more).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from game.sim import simulate
from game.state import DEFAULT_SCENARIO

GAMES = 4
MATCHES = ({"north": "hard", "south": "normal"}, {"north": "easy", "south": "random"})


def _run(levels: dict[str, str], out: str, swap: bool) -> dict:
    simulate(
        DEFAULT_SCENARIO, GAMES, 11, levels, out, workers=1,
        swap_sides=swap, logs=0, plots=False, progress=None,
    )  # fmt: skip
    return json.loads((Path(out) / "timing.json").read_text(encoding="utf-8"))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        timings = [_run(m, f"{tmp}/m{k}", True) for k, m in enumerate(MATCHES)]
        equal = _run({"north": "normal", "south": "normal"}, f"{tmp}/equal", False)
    print(f"AI decision time, Long Tom Hunt, {GAMES} games per match, sides swapped:")
    for t in timings:
        for level, d in t["ai"].items():
            print(
                f"  {level:<7} per decision: median {d['decision_ms_median']:7.1f} ms, "
                f"p95 {d['decision_ms_p95']:7.1f} ms ({d['decisions']} decisions); "
                f"per turn: median {d['turn_ms_median']:7.1f} ms, "
                f"p95 {d['turn_ms_p95']:7.1f} ms (target <= 100 ms)"
            )
    print(
        f"simulate, normal vs normal, one worker: {equal['games_per_second']:.3f} games/s "
        f"({equal['wall_seconds']:.1f} s for {GAMES} games; target >= 3)"
    )
