"""The kept-answers oracle (``tests/kept_answers.py``): games played with every answer
the program keeps between commands dropped before each command play exactly as the
same games played as usual, so that no kept answer is ever stale (DESIGN: same
scenario, seed and commands, same state hash).

The default plays one game of the tutorial and of Hold the Ford each of normal
against normal and hard against easy; ``BARRAGE_SOAK=full`` plays two of each
pairing on every scenario.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.engine_fixtures import FULL

ROOT = Path(__file__).resolve().parents[1]
# Units close in on each other there: reach searches past enemy hexes, melee, rubble.
HOLD_THE_FORD = "maps/hold_the_ford.toml"


def _oracle(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m tests.kept_answers ARGS`` in a process of its own (the kept answers
    are told apart by what a fresh import leaves)."""
    return subprocess.run(
        [sys.executable, "-m", "tests.kept_answers", *args],
        cwd=ROOT,
        env={**os.environ, "BARRAGE_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=3600,
    )


def test_what_is_dropped_is_every_kept_answer_and_no_data(home: Path) -> None:
    """The oracle finds the caches of sight, movement, views, legal commands and the
    engine by what a fresh import leaves empty, and leaves the rule tables alone."""
    listed = _oracle(home, "--list")
    assert listed.returncode == 0, listed.stderr
    names = set(listed.stdout.splitlines()[1:])
    for kept in (
        "game.board.los._GRIDS",
        "game.board.movement._TABLES",
        "game.state.view._SEEN_UNITS",
        "game.state.legal._COUNTER_BATTERY_HEXES",
        "game.state.legal._sheet_plots",
        "game.state.engine._AREA_REFUSALS",
        "game.ai.fire._hit_chance",
    ):
        assert kept in names
    for data in ("game.hexmath.DIRECTIONS", "game.board.movement._CLASS_TABLES"):
        assert data not in names


def test_games_with_every_kept_answer_dropped_play_as_usual(home: Path) -> None:
    """Every command of each game made and carried out with nothing kept from the
    commands before (but what the AI did, the guns it moved): the same game, the
    same final state hash."""
    args = ["--games", "2"] if FULL else ["--games", "1", "maps/tutorial.toml", HOLD_THE_FORD]
    played = _oracle(home, *args)
    assert played.returncode == 0, played.stdout + played.stderr
    assert "different 0" in played.stdout
