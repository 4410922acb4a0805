"""A long game: what loading a save and opening the replay window cost.

Plays random-vs-random Long Tom Hunt with the turn limit raised to 999 (seed 1)
until 7,500 commands, writes its save and log into a temporary folder, then in
fresh processes (so that each peak is its own) loads the save (``load_game``
replays every command) and opens the replay timeline, printing time and peak
resident memory of each. It also loads the save of the game's first 500
commands (about a 20-turn game). Takes a few minutes.

Run: ``python -m game.bench long_game``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

from game.bench.engine import _choose
from game.dice import Dice
from game.scenario import scenario_from_dict
from game.state import acting_side, apply, legal_commands, new_game, replay, save_game, save_log
from game.state.setup import DEFAULT_SCENARIO

COMMANDS = 7_500
SHORT = 500

_MEASURE = """
import resource, sys, time
from game.state import load_game, load_log
kind, path = sys.argv[1], sys.argv[2]
if kind != "load":
    from game.state.timeline import ReplayTimeline
started = time.perf_counter()
if kind == "load":
    load_game(path)
else:
    ReplayTimeline(load_log(path), path)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{time.perf_counter() - started:.1f} s, peak resident memory {peak:.0f} MB")
"""


def _measure(kind: str, path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, kind, str(path)],
        env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def main() -> None:
    data = tomllib.loads(Path(DEFAULT_SCENARIO).read_text(encoding="utf-8"))
    data["scenario"]["turns"] = 999
    scenario = scenario_from_dict(data, Path(DEFAULT_SCENARIO).name)
    state = new_game(scenario, 1)
    dice = Dice(1)
    started = time.perf_counter()
    while state.result is None and len(state.commands) < COMMANDS:
        apply(state, _choose(dice, legal_commands(state, acting_side(state))))
    print(
        f"played {len(state.commands):,} commands (turn {state.turn}) in "
        f"{time.perf_counter() - started:.0f} s"
    )
    with tempfile.TemporaryDirectory() as folder:
        save, log = Path(folder) / "long.json", Path(folder) / "long.log.json"
        save_game(state, save)
        save_log(state, log)
        print(f"  save {save.stat().st_size:,} bytes, log {log.stat().st_size:,} bytes")
        print(f"  load_game: {_measure('load', save)}")
        print(f"  replay window timeline: {_measure('timeline', log)}")
        short = Path(folder) / "short.json"
        save_game(replay(log, upto=SHORT), short)
        print(f"  load_game of its first {SHORT} commands: {_measure('load', short)}")
