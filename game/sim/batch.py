"""A run of many headless games: workers, progress bar, and every output file.

``simulate`` plays the games (in worker processes when ``workers`` > 1),
sorts the records by game index and writes into the output folder:

- ``games/game-NNNN.json``: one record per game;
- ``summary.json`` and ``summary.md``: win rates with Wilson intervals, other
  figures as mean ± 95% CI;
- ``impacts.png``, ``win_rates.png``, ``game_length.png``;
- ``logs/game-NNNN.log.json``: replayable game logs of the first games
  (``game.state.replay`` rebuilds them to the same hash);
- ``timing.json``: wall-clock figures, the only file that differs between
  two runs with the same settings.
"""

from __future__ import annotations

import json
import multiprocessing
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from game.sim.report import summarize, summary_markdown, write_plots
from game.sim.runner import GameOutcome, GameSpec, game_specs, play_game
from game.sim.stats import percentile


def _json(data: Any) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


class ProgressBar:
    """``[#####.....] 12/50 games`` on one line of a stream."""

    def __init__(self, total: int, stream: TextIO | None, width: int = 30) -> None:
        self.total = total
        self.stream = stream
        self.width = width
        self.done = 0
        self.started = time.perf_counter()

    def step(self) -> None:
        self.done += 1
        if self.stream is None:
            return
        filled = int(self.width * self.done / max(1, self.total))
        rate = self.done / max(1e-9, time.perf_counter() - self.started)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] "
            f"{self.done}/{self.total} games, {rate:.2f} games/s"
        )
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def play_all(
    specs: list[GameSpec], workers: int, on_done: Callable[[], None] | None = None
) -> list[GameOutcome]:
    """Play every game; outcomes sorted by game index whatever the worker count."""
    if workers < 1:
        raise ValueError(f"workers must be 1 or more, not {workers}")
    outcomes: list[GameOutcome] = []
    if workers == 1 or len(specs) <= 1:
        for spec in specs:
            outcomes.append(play_game(spec))
            if on_done:
                on_done()
    else:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with ctx.Pool(processes=workers) as pool:
            for outcome in pool.imap_unordered(play_game, specs):
                outcomes.append(outcome)
                if on_done:
                    on_done()
    outcomes.sort(key=lambda o: o.record["index"])
    return outcomes


def _timing(outcomes: list[GameOutcome], wall: float, workers: int) -> dict[str, Any]:
    per_level: dict[str, dict[str, list[float]]] = {}
    for o in outcomes:
        for side, level in o.timing["levels"].items():
            bucket = per_level.setdefault(level, {"decisions": [], "turns": []})
            bucket["decisions"] += o.timing["decisions"][side]
            bucket["turns"] += o.timing["turns"][side]
    levels = {}
    for level, b in sorted(per_level.items()):
        levels[level] = {
            "decisions": len(b["decisions"]),
            "decision_ms_median": 1000 * percentile(b["decisions"], 50),
            "decision_ms_p95": 1000 * percentile(b["decisions"], 95),
            "turn_ms_median": 1000 * percentile(b["turns"], 50),
            "turn_ms_p95": 1000 * percentile(b["turns"], 95),
        }
    return {
        "wall_seconds": wall,
        "workers": workers,
        "games_per_second": len(outcomes) / wall if wall > 0 else 0.0,
        "game_seconds": [o.timing["seconds"] for o in outcomes],
        "ai": levels,
    }


def simulate(
    scenario: str,
    games: int,
    seed: int,
    levels: dict[str, str],
    out: str | Path,
    workers: int = 1,
    personalities: dict[str, str] | None = None,
    swap_sides: bool = False,
    logs: int = 3,
    plots: bool = True,
    progress: TextIO | None = sys.stderr,
) -> dict[str, Any]:
    """Run ``games`` games and write every output into ``out``; return the summary."""
    if games < 1:
        raise ValueError(f"games must be 1 or more, not {games}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for folder in ("games", "logs"):
        if (out / folder).is_dir():
            shutil.rmtree(out / folder)
        (out / folder).mkdir()
    specs = game_specs(scenario, games, seed, levels, personalities, swap_sides, out / "logs", logs)
    bar = ProgressBar(games, progress)
    started = time.perf_counter()
    outcomes = play_all(specs, workers, bar.step)
    wall = time.perf_counter() - started
    records = [o.record for o in outcomes]
    for r in records:
        (out / "games" / f"game-{r['index']:04d}.json").write_text(_json(r), encoding="utf-8")
    from game.scenario import load_scenario

    settings = {
        "scenario": str(scenario),
        "scenario_name": load_scenario(scenario).name,
        "games": games,
        "seed": seed,
        "levels": dict(levels),
        "personalities": dict(personalities or {}),
        "swap_sides": swap_sides,
    }
    summary = summarize(records, settings)
    (out / "summary.json").write_text(_json(summary), encoding="utf-8")
    (out / "summary.md").write_text(summary_markdown(summary), encoding="utf-8")
    if plots:
        write_plots(records, summary, scenario, out)
    (out / "timing.json").write_text(_json(_timing(outcomes, wall, workers)), encoding="utf-8")
    return summary
