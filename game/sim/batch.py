"""A run of many headless games: workers, progress bar, and every output file.

``simulate`` plays the games (in worker processes when ``workers`` > 1, or as
tasks on a Dask cluster), sorts the records by game index and writes into the
output folder:

- ``games/game-NNNN.json``: one record per game;
- ``summary.json`` and ``summary.md``: win rates with Wilson intervals, other
  figures as mean ± 95% CI;
- ``impacts.png``, ``win_rates.png``, ``game_length.png``;
- ``logs/game-NNNN.log.json``: replayable game logs of the first games
  (``game.state.replay`` rebuilds them to the same hash);
- ``timing.json``: wall-clock figures, the only file that differs between
  two runs with the same settings.

The files are written into a work folder first and moved into place when the
run is over (``game.sim.outdir``); ``play_into`` is the part ``sweep`` shares.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from game.scenario.loader import parse_toml, read_text, scenario_from_dict
from game.scenario.model import Scenario
from game.sim.outdir import TIMING, RunError, WorkFolder, dumps
from game.sim.report import summarize, summary_markdown, write_plots
from game.sim.runner import (
    GameOutcome,
    GameSpec,
    code_fingerprint,
    game_specs,
    keep_checked_scenario,
    log_name,
    play_game,
    record_name,
)
from game.sim.stats import percentile


class ProgressBar:
    """``[#####.....] 12/50 games`` on one line of a stream; ``done`` counts games
    already finished before this session of the run (a resumed run)."""

    def __init__(self, total: int, stream: TextIO | None, width: int = 30, done: int = 0) -> None:
        self.total = total
        self.stream = stream
        self.width = width
        self.done = done
        self.resumed = done
        self.started = time.perf_counter()
        if done and stream is not None:
            stream.write(f"{done} of {total} games were played before; going on\n")

    def step(self) -> None:
        self.done += 1
        if self.stream is None:
            return
        filled = int(self.width * self.done / max(1, self.total))
        rate = (self.done - self.resumed) / max(1e-9, time.perf_counter() - self.started)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] "
            f"{self.done}/{self.total} games, {rate:.2f} games/s"
        )
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()


@dataclass(frozen=True)
class Cluster:
    """A Dask cluster to play on: a running scheduler's address, or a local
    cluster of ``local_workers`` worker processes started for the run."""

    scheduler: str | None = None
    local_workers: int | None = None

    def describe(self) -> str:
        if self.scheduler is not None:
            return f"dask scheduler {self.scheduler}"
        return f"local dask cluster of {self.local_workers} workers"


def play_each(
    specs: list[GameSpec],
    on_outcome: Callable[[GameOutcome], None],
    workers: int = 1,
    cluster: Cluster | None = None,
) -> None:
    """Play every game, handing each outcome to ``on_outcome`` as it arrives.

    One worker plays in this process; more use a pool of processes; a
    ``cluster`` sends each game to Dask as a task (``game.sim.cluster``, the
    only module that imports Dask).
    """
    if workers < 1:
        raise ValueError(f"workers must be 1 or more, not {workers}")
    if cluster is not None:
        from game.sim.cluster import play_on_cluster

        play_on_cluster(specs, on_outcome, cluster.scheduler, cluster.local_workers)
    elif workers == 1 or len(specs) <= 1:
        for spec in specs:
            on_outcome(play_game(spec))
    else:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with ctx.Pool(processes=workers) as pool:
            for outcome in pool.imap_unordered(play_game, specs):
                on_outcome(outcome)


def play_all(
    specs: list[GameSpec],
    workers: int,
    on_done: Callable[[], None] | None = None,
    cluster: Cluster | None = None,
) -> list[GameOutcome]:
    """Play every game; outcomes sorted by game index whatever the worker count."""
    outcomes: list[GameOutcome] = []

    def arrived(outcome: GameOutcome) -> None:
        outcomes.append(outcome)
        if on_done:
            on_done()

    play_each(specs, arrived, workers, cluster)
    outcomes.sort(key=lambda o: o.key)
    return outcomes


def cell_folder(cell: int | None) -> str:
    """Where a game's files go inside a run's folder: the top, or a sweep cell's folder."""
    return "" if cell is None else f"cells/cell-{cell:03d}/"


def _record_path(key: tuple[int, int]) -> str:
    cell, index = key
    return f"{cell_folder(None if cell < 0 else cell)}games/{record_name(index)}"


def _timing_path(key: tuple[int, int]) -> str:
    return f"{TIMING}/{key[0]}-{key[1]}.json"


def _save(work: WorkFolder, outcome: GameOutcome) -> None:
    """Keep a finished game in the work folder: its log first, its record last, so
    that a record there means the game and its files are complete."""
    if outcome.log is not None:
        from game.state.model import canonical_json

        folder = cell_folder(outcome.cell)
        work.write(f"{folder}logs/{log_name(outcome.key[1])}", canonical_json(outcome.log))
        outcome.log = None  # written; not held for the rest of the run
    work.write(_timing_path(outcome.key), dumps(outcome.timing))
    work.write(_record_path(outcome.key), dumps(outcome.record))


def _finished(work: WorkFolder, spec: GameSpec) -> GameOutcome | None:
    """The outcome of a game an interrupted run finished, or None."""
    record = work.read(_record_path(spec.key))
    timing = work.read(_timing_path(spec.key))
    if not isinstance(record, dict) or record.get("index") != spec.index:
        return None
    if not isinstance(timing, dict):
        return None
    log = work.path / cell_folder(spec.cell) / "logs" / log_name(spec.index)
    if spec.keep_log and not log.is_file():
        return None
    return GameOutcome(record, timing, None, spec.cell)


@dataclass
class Played:
    """The outcomes of a run's games in order, and how this session of it went."""

    outcomes: list[GameOutcome]
    wall: float
    played: int  # games played in this session (the rest were resumed)


def play_into(
    work: WorkFolder,
    specs: list[GameSpec],
    workers: int = 1,
    cluster: Cluster | None = None,
    progress: TextIO | None = None,
) -> Played:
    """Play the games the work folder does not hold yet, keeping each as it ends."""
    done: dict[tuple[int, int], GameOutcome] = {}
    for spec in specs:
        outcome = _finished(work, spec)
        if outcome is not None:
            done[spec.key] = outcome
    todo = [s for s in specs if s.key not in done]
    bar = ProgressBar(len(specs), progress, done=len(done))

    def arrived(outcome: GameOutcome) -> None:
        _save(work, outcome)
        done[outcome.key] = outcome
        bar.step()

    started = time.perf_counter()
    play_each(todo, arrived, workers, cluster)
    wall = time.perf_counter() - started
    missing = [s.key for s in specs if s.key not in done]
    if missing:
        raise RunError(f"{len(missing)} games came back without a result (first: {missing[0]})")
    return Played([done[s.key] for s in specs], wall, len(todo))


def timing_figures(played: Played, workers: int, cluster: Cluster | None) -> dict[str, Any]:
    """timing.json: wall clock of this session, seconds per game, AI decision times."""
    outcomes = played.outcomes
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
    wall = played.wall
    return {
        "wall_seconds": wall,
        "workers": workers,
        "cluster": None if cluster is None else cluster.describe(),
        "games_played": played.played,
        "games_resumed": len(outcomes) - played.played,
        "games_per_second": played.played / wall if wall > 0 else 0.0,
        "game_seconds": [o.timing["seconds"] for o in outcomes],
        "ai": levels,
    }


def scenario_tables(scenario: str) -> tuple[dict[str, Any], Scenario]:
    """A scenario file's tables, checked as ``validate`` checks them (ScenarioError)."""
    data = parse_toml(read_text(scenario), scenario)
    return data, scenario_from_dict(data, scenario)


def tables_digest(data: Any) -> str:
    """A fingerprint of scenario tables, so that a resumed run knows the file is unchanged."""
    return hashlib.sha256(dumps(data).encode("utf-8")).hexdigest()


def simulate(
    scenario: str | Path,
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
    cluster: Cluster | None = None,
    resume: bool = False,
) -> dict[str, Any]:
    """Run ``games`` games and write every output into ``out``; return the summary.

    ``resume`` goes on with the games an interrupted run with the same settings
    left in ``out`` (RunError when there is none, or its settings differ).
    """
    if games < 1:
        raise ValueError(f"games must be 1 or more, not {games}")
    scenario = str(scenario)
    data, loaded = scenario_tables(scenario)
    keep_checked_scenario(scenario, data, loaded)
    specs = game_specs(
        scenario, games, seed, levels, personalities, swap_sides, logs, scenario_data=data
    )
    settings = {
        "scenario": scenario,
        "scenario_name": loaded.name,
        "games": games,
        "seed": seed,
        "levels": dict(levels),
        "personalities": dict(personalities or {}),
        "swap_sides": swap_sides,
    }
    run = {
        **settings,
        "command": "simulate",
        "logs": min(logs, games),
        "scenario_tables": tables_digest(data),
        "code": code_fingerprint(),
    }
    work = WorkFolder(out)
    with work.opened(run, resume, progress):
        played = play_into(work, specs, workers, cluster, progress)
        records = [o.record for o in played.outcomes]
        summary = summarize(records, settings)
        work.write("summary.json", dumps(summary))
        work.write("summary.md", summary_markdown(summary))
        if plots:
            write_plots(records, summary, scenario, work.path)
        timing = timing_figures(played, workers, cluster)
        work.write("timing.json", dumps(timing))
        work.publish()
    return summary
