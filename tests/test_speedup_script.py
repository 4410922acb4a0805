"""scripts/speedup.py: the speed of simulate against an earlier commit on the same machine."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.script_module import script_module

ROOT = Path(__file__).resolve().parents[1]


def test_rates_are_games_per_cpu_second_and_cpu_ms_per_turn_and_command() -> None:
    r = script_module("speedup").rates({"cpu": 8.0, "games": 4, "turns": 100, "commands": 1600})
    assert r == {"games_per_s": 0.5, "ms_per_turn": 80.0, "ms_per_command": 5.0}


def test_no_rounds_is_refused_before_anything_is_played(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as stop:
        script_module("speedup").main(["--rounds", "0"])
    assert stop.value.code == 2
    assert "--rounds and --games must be 1 or more" in capsys.readouterr().err


def _in_git_history() -> bool:
    if shutil.which("git") is None:
        return False
    done = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "HEAD"], capture_output=True
    )
    return done.returncode == 0


@pytest.mark.skipif(not _in_git_history(), reason="needs the project's git history")
def test_an_earlier_commit_is_read_out_of_the_history_whole(tmp_path: Path) -> None:
    tree = script_module("speedup").unpack("HEAD", tmp_path)
    assert (tree / "game" / "sim" / "batch.py").is_file()
    assert (tree / "maps" / "long_tom_hunt.toml").is_file()


@pytest.mark.skipif(not _in_git_history(), reason="needs the project's git history")
def test_an_unknown_commit_gets_a_message_not_a_traceback(
    capsys: pytest.CaptureFixture,
) -> None:
    assert script_module("speedup").main(["--against", "no-such-commit-here", "--rounds", "1"]) == 2
    assert "cannot read commit 'no-such-commit-here'" in capsys.readouterr().out
