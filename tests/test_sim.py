"""The headless runner: output files and their schema, determinism across worker
counts, replayable logs, the statistics and the ``simulate`` command."""

from __future__ import annotations

import gc
import io
import json
import re
from pathlib import Path

import pytest

from game.sim import derived_seed, runner, simulate
from game.sim.outdir import RunError
from game.sim.stats import mean_interval, percentile, wilson_interval
from game.state import DEFAULT_SCENARIO, load_log, replay, state_hash
from main import main


class StopAt(io.StringIO):
    """A progress stream that presses Ctrl+C once the bar shows ``games`` games done."""

    def __init__(self, games: int) -> None:
        super().__init__()
        self.games = games

    def write(self, text: str) -> int:
        if f"] {self.games}/" in text:
            raise KeyboardInterrupt
        return super().write(text)


def steps_shown(progress: str) -> list[int]:
    """The game counts a progress bar showed, in order."""
    return [int(n) for n in re.findall(r"\] (\d+)/\d+ games", progress)]


@pytest.fixture(scope="module")
def short_scenario(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The default scenario cut to four turns, so that a test game is quick."""
    text = Path(DEFAULT_SCENARIO).read_text(encoding="utf-8")
    assert "turns = 40" in text
    path = tmp_path_factory.mktemp("scenario") / "short_hunt.toml"
    path.write_text(text.replace("turns = 40", "turns = 4"), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def one_worker(short_scenario: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("one")
    simulate(
        short_scenario, 3, 5, {"north": "normal", "south": "easy"}, out, workers=1,
        swap_sides=True, logs=2, progress=None,
    )  # fmt: skip
    return out


def test_runner_writes_every_output(one_worker: Path) -> None:
    games = sorted((one_worker / "games").glob("game-*.json"))
    assert [g.name for g in games] == ["game-0000.json", "game-0001.json", "game-0002.json"]
    for name in ("summary.json", "summary.md", "timing.json"):
        assert (one_worker / name).is_file()
    for name in ("impacts.png", "win_rates.png", "game_length.png"):
        data = (one_worker / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
    assert sorted(p.name for p in (one_worker / "logs").iterdir()) == [
        "game-0000.log.json",
        "game-0001.log.json",
    ]


def test_game_record_and_summary_schema(one_worker: Path) -> None:
    record = json.loads((one_worker / "games" / "game-0001.json").read_text(encoding="utf-8"))
    assert record["levels"] == {"north": "easy", "south": "normal"}  # odd games swap
    for key, kind in {
        "index": int, "seed": int, "winner": (str, type(None)), "reason": str, "turns": int,
        "commands": int, "damage": dict, "shells": dict, "detections": dict,
        "sheets_added": int, "batteries": dict, "impacts": list, "hash": str,
    }.items():  # fmt: skip
        assert isinstance(record[key], kind), key
    for side in ("north", "south"):
        assert set(record["shells"][side]) == {"fired", "hit", "scattered", "lost"}
        assert set(record["damage"][side]) == {"artillery", "direct"}
        assert set(record["batteries"][side]) == {"found", "destroyed"}
        s = record["shells"][side]
        assert s["hit"] + s["scattered"] + s["lost"] <= s["fired"]
    summary = json.loads((one_worker / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == 3
    assert set(summary["wins_by_level"]) == {"easy", "normal"}
    rates = [*summary["wins_by_side"].values(), summary["draws"]]
    assert sum(r["wins"] for r in rates) == 3
    for r in rates:
        lo, hi = r["ci95"]
        assert 0.0 <= lo <= r["rate"] <= hi <= 1.0
    turns = summary["figures"]["turns"]
    assert turns["n"] == 3 and turns["ci95"] >= 0
    assert "Wilson" in (one_worker / "summary.md").read_text(encoding="utf-8")
    timing = json.loads((one_worker / "timing.json").read_text(encoding="utf-8"))
    assert timing["ai"]["normal"]["decisions"] > 0


def test_same_seed_same_results_on_any_worker_count(
    short_scenario: str, one_worker: Path, tmp_path: Path
) -> None:
    """Design 4/5: per-game seeds come from (seed, index): 1 and 2 workers agree."""
    simulate(
        short_scenario, 3, 5, {"north": "normal", "south": "easy"}, tmp_path, workers=2,
        swap_sides=True, logs=2, progress=None,
    )  # fmt: skip
    for name in ["summary.json", "summary.md", *(f"games/game-000{i}.json" for i in range(3))]:
        assert (tmp_path / name).read_bytes() == (one_worker / name).read_bytes(), name
    for i in range(2):
        name = f"logs/game-000{i}.log.json"
        assert (tmp_path / name).read_bytes() == (one_worker / name).read_bytes(), name


def test_saved_logs_replay_to_the_same_hash_design_5(one_worker: Path) -> None:
    """Design 5: a saved game log replays with game.state.replay to the recorded hash."""
    for i in range(2):
        log = load_log(one_worker / "logs" / f"game-000{i}.log.json")
        state = replay(log)
        record = json.loads((one_worker / "games" / f"game-000{i}.json").read_text("utf-8"))
        assert state_hash(state) == log["hash"] == record["hash"]
        assert state.result is not None and state.result.winner == record["winner"]


def test_game_seeds_depend_on_seed_and_index_only() -> None:
    assert derived_seed(5, 0) == derived_seed(5, 0)
    assert len({derived_seed(5, i) for i in range(50)}) == 50
    assert derived_seed(5, 0) != derived_seed(6, 0)
    assert 0 <= derived_seed(1, 2) < 2**63


def test_wilson_interval_and_mean_interval() -> None:
    lo, hi = wilson_interval(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(160, 200)
    assert lo == pytest.approx(0.7391, abs=1e-4) and hi == pytest.approx(0.8495, abs=1e-4)
    m, half = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and half == pytest.approx(3.182 * (1.6666667 / 4) ** 0.5, rel=1e-4)
    assert mean_interval([]) == (0.0, 0.0)
    assert percentile([1, 2, 3, 4, 5], 50) == 3
    assert percentile([1, 2, 3, 4, 5], 95) == pytest.approx(4.8)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_simulate_command(short_scenario: str, tmp_path: Path, capsys) -> None:
    out = tmp_path / "cli"
    code = main(
        ["simulate", short_scenario, "--games", "1", "--seed", "3", "--north", "random",
         "--south", "easy", "--out", str(out), "--quiet", "--no-plots", "--logs", "1"]
    )  # fmt: skip
    assert code == 0
    assert (out / "games" / "game-0000.json").is_file() and (out / "summary.md").is_file()
    assert "north (random) wins" in capsys.readouterr().out
    assert main(["simulate", short_scenario, "--west", "easy", "--out", str(out)]) == 2
    assert "--west does not apply (use --north and --south)" in capsys.readouterr().err
    assert main(["simulate", short_scenario, "--personality", "north=brave"]) == 2
    assert "no personality 'brave'" in capsys.readouterr().err
    assert main(["simulate", str(tmp_path / "missing.toml")]) == 1
    assert "cannot load the scenario" in capsys.readouterr().err


def _run(scenario: str, out: Path, games: int = 2, **options) -> dict:
    options = {"plots": False, "progress": None, **options}
    return simulate(
        scenario, games, 7, {"north": "random", "south": "random"}, out, logs=1, **options
    )


def test_a_crashed_run_keeps_the_last_results_and_files_it_did_not_write(
    short_scenario: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """simulate plays into a work folder and swaps it in at the end: a run that
    fails halfway leaves the previous run's games and logs whole, and files no
    run wrote (in games/, logs/ or beside them) are never deleted."""
    out = tmp_path / "out"
    _run(short_scenario, out)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    for name in ("games/notes.txt", "logs/keep.txt", "mine.txt"):
        (out / name).write_text("not written by simulate", encoding="utf-8")
    import game.sim.batch as batch

    real = batch.play_game

    def crashes_on_game_1(spec):
        if spec.index == 1:
            raise RuntimeError("the engine failed in game 1")
        return real(spec)

    monkeypatch.setattr(batch, "play_game", crashes_on_game_1)
    with pytest.raises(RuntimeError, match="game 1"):
        _run(short_scenario, out, games=3)
    for rel, data in before.items():
        assert (out / rel).read_bytes() == data, rel  # the last complete run, untouched
    for name in ("games/notes.txt", "logs/keep.txt", "mine.txt"):
        assert (out / name).is_file(), name
    kept = out / ".barrage-work" / "games" / "game-0000.json"
    assert kept.is_file()  # the new run's finished game waits for --resume
    monkeypatch.setattr(batch, "play_game", real)
    err = io.StringIO()
    _run(short_scenario, out, games=1, progress=err)  # no --resume: a fresh run
    assert "removed the 1 games of an unfinished run" in err.getvalue()
    assert not (out / ".barrage-work").exists()
    # game-0001 and its summary were written by the earlier run: this shorter run
    # removes the game; the files no run wrote stay.
    assert sorted(p.name for p in (out / "games").iterdir()) == ["game-0000.json", "notes.txt"]
    assert sorted(p.name for p in (out / "logs").iterdir()) == ["game-0000.log.json", "keep.txt"]
    assert (out / "mine.txt").is_file()


def test_a_run_removes_only_listed_files_inside_its_folder(
    short_scenario: str, tmp_path: Path
) -> None:
    """The list of files a run wrote cannot send a later run outside its folder; a
    temporary file of that list left by a killed run is cleaned on start."""
    out = tmp_path / "out"
    outside = tmp_path / "outside.txt"
    outside.write_text("keep", encoding="utf-8")
    out.mkdir()
    (out / ".barrage-files.json").write_text(
        json.dumps(["../outside.txt", str(outside), "games/../../outside.txt"]), encoding="utf-8"
    )
    stale = out / "..barrage-files.json.4242-0a1b2c3d.tmp"  # left by a killed run
    stale.write_text("[", encoding="utf-8")
    _run(short_scenario, out, games=1)
    assert outside.read_text(encoding="utf-8") == "keep"
    assert not stale.exists()


def test_resume_goes_on_without_playing_finished_games_again(
    short_scenario: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    straight = tmp_path / "straight"
    _run(short_scenario, straight, games=4)
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        _run(short_scenario, out, games=4, progress=StopAt(2))
    assert not (out / "games").exists()
    import game.sim.batch as batch

    played: list[int] = []
    real = batch.play_game
    monkeypatch.setattr(batch, "play_game", lambda spec: played.append(spec.index) or real(spec))
    with pytest.raises(RunError, match="other settings"):
        _run(short_scenario, out, games=4, resume=True, swap_sides=True)
    progress = io.StringIO()
    _run(short_scenario, out, games=4, resume=True, progress=progress)
    assert played == [2, 3]
    assert "2 of 4 games were played before" in progress.getvalue()
    assert steps_shown(progress.getvalue()) == [3, 4]
    for rel in ["summary.json", "summary.md", "logs/game-0000.log.json"] + [
        f"games/game-000{i}.json" for i in range(4)
    ]:
        assert (out / rel).read_bytes() == (straight / rel).read_bytes(), rel
    with pytest.raises(RunError, match="no interrupted run to resume"):
        _run(short_scenario, out, games=4, resume=True)


def test_simulate_command_run_errors(short_scenario: str, tmp_path: Path, capsys) -> None:
    out = tmp_path / "cli"
    args = ["simulate", short_scenario, "--games", "1", "--out", str(out), "--quiet"]
    assert main([*args, "--resume"]) == 1
    assert "no interrupted run to resume" in capsys.readouterr().err
    assert main([*args, "--workers", "2", "--dask-local", "2"]) == 2
    assert "with a Dask cluster leave it out" in capsys.readouterr().err
    assert main([*args, "--dask-local", "0"]) == 2
    assert "argument --dask-local: must be 1 or more" in capsys.readouterr().err


def test_a_run_refuses_a_folder_another_live_run_writes_into(tmp_path: Path) -> None:
    """Two runs into one folder would mix their games: the second is refused."""
    import os
    import socket

    from game.sim.outdir import WorkFolder

    work = WorkFolder(tmp_path)
    work.path.mkdir()
    owner = {"pid": os.getppid(), "host": socket.gethostname()}  # a live process
    (work.path / "owner.json").write_text(json.dumps(owner), encoding="utf-8")
    refused = pytest.raises(RunError, match=f"another run \\(process {os.getppid()}\\)")
    with refused, work.opened({"games": 1}):
        pass
    owner["pid"] = 2**22 + 1  # above the kernel's pid limit: no such process
    (work.path / "owner.json").write_text(json.dumps(owner), encoding="utf-8")
    with work.opened({"games": 1}):
        assert json.loads((work.path / "owner.json").read_text("utf-8"))["pid"] == os.getpid()
    assert not (work.path / "owner.json").exists()  # free for the next run


def test_a_game_is_played_with_the_collectors_game_threshold_and_puts_it_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cycle collector looks at young objects every GAME_COLLECTOR_THRESHOLD new
    ones while a game is played (docs/simulate.md), and as before after it, also when
    the game fails."""
    during: list[tuple[int, int, int]] = []

    def played(spec: object) -> None:
        during.append(gc.get_threshold())
        raise RuntimeError("the game broke")

    before = gc.get_threshold()
    monkeypatch.setattr(runner, "_play_game", played)
    with pytest.raises(RuntimeError, match="the game broke"):
        runner.play_game(None)  # type: ignore[arg-type]
    assert during == [(runner.GAME_COLLECTOR_THRESHOLD, *before[1:])]
    assert gc.get_threshold() == before


def test_a_scenario_checked_once_sets_up_each_game_as_checked_anew(tmp_path: Path) -> None:
    """The runner checks a scenario once for the games it plays of it, from its file
    or from the tables a run hands each game: each game's opening is the one the
    scenario checked anew sets up, a file or tables changed between games are
    checked again, and a game that changes its units changes no later game."""
    from game.scenario import scenario_from_dict
    from game.sim.batch import scenario_tables
    from game.state import new_game

    path = tmp_path / "hunt.toml"
    text = Path(DEFAULT_SCENARIO).read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    tables = scenario_tables(str(path))[0]
    levels = (("north", "normal"), ("south", "normal"))
    by_file = runner.GameSpec(str(path), 0, 5, levels)
    by_tables = runner.GameSpec(str(path), 1, 5, levels, scenario_data=tables)

    def anew(spec: runner.GameSpec) -> str:
        if spec.scenario_data is None:
            return state_hash(new_game(spec.scenario, spec.seed))
        state = new_game(scenario_from_dict(spec.scenario_data, spec.scenario), spec.seed)
        state.scenario_path = spec.scenario
        return state_hash(state)

    for spec in (by_file, by_tables, by_file):
        first = runner.start_game(spec)
        assert state_hash(first) == anew(spec)
        for unit in first.units.values():
            unit.profile.setdefault("weapons", []).append("medium_laser")
        again = runner.start_game(spec)
        assert state_hash(again) == anew(spec) and again.turn_limit == 40
    path.write_text(text.replace("turns = 40", "turns = 4"), encoding="utf-8")
    edited = runner.start_game(by_file)
    assert edited.turn_limit == 4 and state_hash(edited) == anew(by_file)
    assert runner.start_game(by_tables).turn_limit == 40
    tables["scenario"]["turns"] = 6  # the same tables, changed in place
    changed = runner.start_game(by_tables)
    assert changed.turn_limit == 6 and state_hash(changed) == anew(by_tables)


def test_simulate_checks_its_scenario_once_for_every_game_it_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``simulate`` checks the scenario before the first game and hands the runner what
    it checked: the games played in this process are not checked again, and they
    are the games a runner that checks the scenario itself plays."""
    import game.sim.batch as batch

    checked: list[str] = []
    real = batch.scenario_from_dict

    def counted(tables: dict, name: str) -> object:
        checked.append(name)
        return real(tables, name)

    levels = {"north": "random", "south": "random"}
    path = tmp_path / "hunt.toml"
    path.write_text(Path(DEFAULT_SCENARIO).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(batch, "scenario_from_dict", counted)
    monkeypatch.setattr(runner, "scenario_from_dict", counted)
    simulate(str(path), 3, 4, levels, tmp_path / "primed", logs=3, plots=False, progress=None)
    assert checked == [str(path)]

    # The same run with the runner checking the scenario for its first game.
    monkeypatch.setattr(batch, "keep_checked_scenario", lambda *held: None)
    runner._SCENARIOS.clear()
    simulate(str(path), 3, 4, levels, tmp_path / "anew", logs=3, plots=False, progress=None)
    assert checked == [str(path)] * 3
    for name in ("summary.json", *(f"logs/game-{k:04d}.log.json" for k in range(3))):
        primed = (tmp_path / "primed" / name).read_text(encoding="utf-8")
        assert primed == (tmp_path / "anew" / name).read_text(encoding="utf-8"), name
