"""Every command of main.py answers a mistake the same way: a usage error exits with 2,
argparse's usage line and ``main.py COMMAND: error: ...``; a file that is not valid
exits with 1 and one line naming the file. Both on standard error, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from main import main

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = str(ROOT / "maps" / "long_tom_hunt.toml")
SWEEP = str(ROOT / "maps" / "sweeps" / "long_tom_distance.toml")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)


# (arguments, the program named in the message, words the message must hold)
USAGE_ERRORS = [
    (["--zoom", "9"], "main.py", "argument --zoom: '9': zoom levels are 0 (far) to 6"),
    (["--zoom", "near"], "main.py", "argument --zoom: 'near': zoom levels are 0"),
    (["--size", "abc"], "main.py", "argument --size: 'abc': give the window size as WIDTHxHEIGHT"),
    (["--size", "0x600"], "main.py", "width and height must be positive"),
    (["--size", "100000x100000"], "main.py", "the window is at most 16384x16384 pixels"),
    (["--frames", "0"], "main.py", "argument --frames: must be 1 or more, not 0"),
    (["--seed", "x"], "main.py", "argument --seed: invalid int value: 'x'"),
    (["--mode", "duel"], "main.py", "argument --mode: invalid choice: 'duel'"),
    (["--level", "insane"], "main.py", "argument --level: invalid choice: 'insane'"),
    (["--colour", "red"], "main.py", "unrecognized arguments: --colour red"),
    (
        ["--scenario", SCENARIO, "--side", "west", "--frames", "1"],
        "main.py",
        "--side 'west' is not a side of this scenario (sides: north, south)",
    ),
    (["validate"], "main.py validate", "the following arguments are required: FILE"),
    (["simulate"], "main.py simulate", "the following arguments are required: SCENARIO"),
    (
        ["simulate", SCENARIO, "--games", "0"],
        "main.py simulate",
        "argument --games: must be 1 or more, not 0",
    ),
    (["simulate", SCENARIO, "--games", "abc"], "main.py simulate", "give a whole number"),
    (["simulate", SCENARIO, "--workers", "0"], "main.py simulate", "--workers: must be 1 or"),
    (["simulate", SCENARIO, "--logs", "-1"], "main.py simulate", "must be 0 or more, not -1"),
    (["simulate", SCENARIO, "--dask-local", "0"], "main.py simulate", "must be 1 or more"),
    (
        ["simulate", SCENARIO, "--dask-local", "2", "--workers", "3"],
        "main.py simulate",
        "with a Dask cluster leave it out",
    ),
    (["simulate", SCENARIO, "--west", "easy"], "main.py simulate", "--west does not apply"),
    (["simulate", SCENARIO, "--north", "superb"], "main.py simulate", "invalid choice"),
    (
        ["simulate", SCENARIO, "--personality", "west=steady"],
        "main.py simulate",
        "--personality takes SIDE=NAME with SIDE north or south",
    ),
    (
        ["simulate", SCENARIO, "--personality", "north=bold"],
        "main.py simulate",
        "--personality: no personality 'bold'",
    ),
    (["sweep"], "main.py sweep", "the following arguments are required: SPEC"),
    (["sweep", SWEEP, "--workers", "0"], "main.py sweep", "--workers: must be 1 or more"),
    (["sweep", SWEEP, "--dask-local", "-2"], "main.py sweep", "must be 1 or more, not -2"),
    (
        ["sweep", SWEEP, "--scheduler", "tcp://x:8786", "--workers", "2"],
        "main.py sweep",
        "with a Dask cluster leave it out",
    ),
    (["replay"], "main.py replay", "the following arguments are required: FILE"),
    (["replay", "x.log.json", "--side", "up"], "main.py replay", "argument --side: invalid"),
    (["replay", "x.log.json", "--turn", "two"], "main.py replay", "invalid int value: 'two'"),
    (["replay", "x.log.json", "--frames", "0"], "main.py replay", "must be 1 or more, not 0"),
]


@pytest.mark.parametrize(("argv", "prog", "message"), USAGE_ERRORS, ids=" ".join)
def test_a_usage_error_exits_with_2_and_argparse_s_message(argv, prog, message, capsys):
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.startswith(f"usage: {prog} "), out.err
    last = out.err.strip().splitlines()[-1]
    assert last.startswith(f"{prog}: error: ") and message in last, last


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_file_that_is_not_valid_exits_with_1_and_one_line_naming_it(tmp_path, capsys):
    broken = write(tmp_path, "broken.toml", "this is = = not toml\n")
    save = write(tmp_path, "broken.json", "{not json")
    log = write(tmp_path, "broken.log.json", '{"format": "something-else", "version": 1}')
    cases = [
        (["--scenario", broken, "--frames", "1"], "main.py: cannot start: "),
        (["--scenario", "nowhere.toml", "--frames", "1"], "main.py: cannot start: "),
        (["--load", save, "--frames", "1"], "main.py: cannot start: "),
        (["simulate", broken, "--quiet"], "simulate: cannot load the scenario: "),
        (["simulate", "nowhere.toml"], "simulate: cannot load the scenario: "),
        (["replay", log], "replay: "),
        (["replay", "nowhere.log.json"], "replay: "),
    ]
    for argv, start in cases:
        assert main(argv) == 1, argv
        out = capsys.readouterr()
        lines = out.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(start), (argv, out.err)
        assert Path(argv[1]).name in lines[0], (argv, lines)
        assert "Traceback" not in out.err


def test_a_sweep_or_validate_file_that_is_not_valid_exits_with_1(tmp_path, capsys):
    broken = write(tmp_path, "broken.toml", "this is = = not toml\n")
    assert main(["sweep", broken, "--out", str(tmp_path / "out"), "--quiet"]) == 1
    assert "broken.toml" in capsys.readouterr().err
    assert main(["validate", broken]) == 1
    assert "broken.toml" in capsys.readouterr().out  # validate's report of problems


def test_the_process_exit_codes_match_what_main_returns(tmp_path):
    """The same codes reach the shell: ``--zoom 9`` and ``--size abc`` are both 2."""
    env = dict(os.environ, BARRAGE_HOME=str(tmp_path / "home"), SDL_VIDEODRIVER="dummy")
    for argv, code in ((["--zoom", "9"], 2), (["--size", "abc"], 2), (["--load", "no.json"], 1)):
        done = subprocess.run(
            [sys.executable, str(ROOT / "main.py"), *argv, "--frames", "1"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=120,
        )
        assert done.returncode == code, (argv, done.stderr)
        assert "Traceback" not in done.stderr and done.stderr.strip(), argv
