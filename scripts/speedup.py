"""Speed of ``simulate`` against an earlier version of the code, on this machine, now.

Games per second depend on the machine as much as on the code: the same code's
figure moves by a factor of three between machines, and by two on one shared
machine within an hour. This script measures the code in this checkout and the
code of an earlier commit (by default the one whose speed docs/ai.md records as
"0.25-0.30 games/s", before the work on headless speed) the same way, in
alternate rounds, so that both meet the same machine and the same load; it
prints each round's figures and the ratio of the medians.

A round plays the benchmark's match in a fresh process per version: Long Tom
Hunt, normal against normal, seed 11, four games, one worker, as the last line of
``python -m game.bench ai``. The versions play different games (rules, scenario
and AI changed between them), so the figures are given per game, per turn and
per command, in CPU seconds of the worker (not wall time). Usage:

    python scripts/speedup.py [--against c3e8c35] [--rounds 3] [--games 4]

It reads the earlier version out of this checkout's git history
(``git archive``) into a temporary folder and needs nothing else.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The commit whose simulate speed docs/ai.md recorded before the speed work:
# "0.25-0.30 games/s of 20 turns" on the machine of that day.
REFERENCE = "c3e8c35"

# Runs in the measured tree's own Python path: times simulate's CPU seconds and
# reads the games' turns and commands from the records it wrote.
_ROUND = """
import json, sys, tempfile, time
from pathlib import Path
from game.sim import simulate
from game.state import DEFAULT_SCENARIO
games = int(sys.argv[1])
with tempfile.TemporaryDirectory() as out:
    started = time.process_time()
    simulate(DEFAULT_SCENARIO, games, 11, {"north": "normal", "south": "normal"}, out,
             workers=1, logs=0, plots=False, progress=None)
    cpu = time.process_time() - started
    records = [json.loads(p.read_text(encoding="utf-8"))
               for p in sorted(Path(out, "games").glob("game-*.json"))]
print(json.dumps({"cpu": cpu, "games": len(records),
                  "turns": sum(r["turns"] for r in records),
                  "commands": sum(r["commands"] for r in records)}))
"""


def unpack(commit: str, into: Path) -> Path:
    """The tree of ``commit`` from this checkout's history, written under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
        check=True,
        capture_output=True,
    ).stdout
    tree = into / commit
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    return tree


def play_round(tree: Path, games: int) -> dict[str, float]:
    """One round of the benchmark's match in a fresh process of ``tree``'s code."""
    done = subprocess.run(
        [sys.executable, "-c", _ROUND, str(games)],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def rates(figures: dict[str, float]) -> dict[str, float]:
    """Games per CPU second, and CPU milliseconds per turn and per command."""
    cpu = figures["cpu"]
    return {
        "games_per_s": figures["games"] / cpu,
        "ms_per_turn": 1000 * cpu / figures["turns"],
        "ms_per_command": 1000 * cpu / figures["commands"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=REFERENCE, help=f"earlier commit ({REFERENCE})")
    parser.add_argument("--rounds", type=int, default=3, help="alternate rounds (default 3)")
    parser.add_argument("--games", type=int, default=4, help="games a round (default 4)")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.games < 1:
        parser.error("--rounds and --games must be 1 or more")

    measured: dict[str, list[dict[str, float]]] = {"this checkout": [], args.against: []}
    with tempfile.TemporaryDirectory(prefix="barrage-speedup-") as tmp:
        try:
            earlier = unpack(args.against, Path(tmp))
        except subprocess.CalledProcessError as err:
            print(f"cannot read commit {args.against!r} from git: {err.stderr.decode().strip()}")
            return 2
        trees = {"this checkout": ROOT, args.against: earlier}
        print(
            f"Long Tom Hunt, normal vs normal, seed 11, {args.games} games a round, one worker; "
            "CPU time of the worker"
        )
        for k in range(args.rounds):
            for name, tree in trees.items():
                figures = play_round(tree, args.games)
                r = rates(figures)
                measured[name].append(r)
                print(
                    f"  round {k + 1}, {name:<14}: {r['games_per_s']:6.3f} games/s, "
                    f"{r['ms_per_turn']:7.1f} ms a turn, {r['ms_per_command']:6.2f} ms a command "
                    f"({figures['turns']} turns, {figures['commands']} commands)",
                    flush=True,
                )
    print("medians, and this checkout's speed-up:")
    now, then = measured["this checkout"], measured[args.against]
    for key, label, faster_is_higher in (
        ("games_per_s", "games/s", True),
        ("ms_per_turn", "ms a turn", False),
        ("ms_per_command", "ms a command", False),
    ):
        a = statistics.median(r[key] for r in now)
        b = statistics.median(r[key] for r in then)
        ratio = a / b if faster_is_higher else b / a
        print(f"  {label:<13} this checkout {a:8.3f}, {args.against} {b:8.3f}: {ratio:5.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
