"""simulate and sweep on a Dask cluster: a local cluster of two worker processes on
the loopback interface, started by the tests. Results equal those of one worker;
a killed worker's games are played again and every game is reported once; an
interrupted run resumes without playing its finished games again."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from game.sim import simulate
from game.sim.batch import Cluster
from game.state import DEFAULT_SCENARIO
from main import main
from tests.test_sim import StopAt, steps_shown

distributed = pytest.importorskip("distributed")
ROOT = Path(__file__).resolve().parents[1]
RESULT_FILES = ("games", "logs", "cells", "summary.json", "summary.md", "report")


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes, one game at a time each, loopback only, no dashboard."""
    from game.sim.cluster import local_cluster

    local = local_cluster(2)
    client = distributed.Client(local)
    yield client
    client.close()
    local.close()


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> str:
    text = Path(DEFAULT_SCENARIO).read_text(encoding="utf-8")
    path = tmp_path_factory.mktemp("scenario") / "short_hunt.toml"
    path.write_text(text.replace("turns = 40", "turns = 4"), encoding="utf-8")
    return str(path)


def results(out: Path) -> dict[str, bytes]:
    """Every result file of a run (all but timing.json), by path."""
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.name not in ("timing.json", ".barrage-files.json")
    }


@pytest.fixture(scope="module")
def spec(scenario: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("spec") / "spec.toml"
    path.write_text(
        f'[sweep]\nscenario = "{scenario}"\ngames = 3\nseed = 11\nlogs = 1\n'
        '[ai.north]\nlevel = "random"\n[ai.south]\nlevel = "easy"\n'
        '[[grid]]\nkey = "scenario.turns"\nvalues = [2, 4]\n',
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def alone(spec: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The result files of the sweep with one worker."""
    out = tmp_path_factory.mktemp("alone") / "out"
    assert main(["sweep", str(spec), "--out", str(out), "--quiet", "--no-plots"]) == 0
    return results(out)


def test_a_sweep_on_the_cluster_equals_one_worker(
    cluster, spec: Path, alone: dict[str, bytes], tmp_path: Path, capsys
) -> None:
    address = cluster.scheduler.address
    assert address.startswith("tcp://127.0.0.1:")
    out = tmp_path / "dask"
    assert main(["sweep", str(spec), "--out", str(out), "--scheduler", address, "--no-plots"]) == 0
    bar = capsys.readouterr().err
    assert steps_shown(bar) == list(range(1, 7))  # games of every cell, across the cluster
    got = results(out)
    assert "report.html" in got and "cells/cell-001/games/game-0002.json" in got
    assert got == alone


def test_simulate_on_a_local_cluster_equals_one_worker(scenario: str, tmp_path: Path) -> None:
    """--dask-local starts (and stops) a cluster of its own for the run."""
    levels = {"north": "easy", "south": "random"}
    on_dask, alone = tmp_path / "dask", tmp_path / "one"
    simulate(scenario, 3, 5, levels, on_dask, logs=2, progress=None, cluster=Cluster(None, 2))
    simulate(scenario, 3, 5, levels, alone, logs=2, progress=None)
    assert results(on_dask) == results(alone)


def test_an_interrupted_run_on_the_cluster_resumes(
    cluster, spec: Path, alone: dict[str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    on = ["sweep", str(spec), "--out", str(out), "--scheduler", cluster.scheduler.address]
    on.append("--no-plots")
    monkeypatch.setattr(sys, "stderr", StopAt(2))
    assert main(on) == 1  # Ctrl+C after the second game: the two games are kept
    monkeypatch.undo()
    kept = sorted((out / ".barrage-work" / "cells").rglob("game-*[0-9].json"))
    assert len(kept) == 2 and not (out / "report.md").exists()
    progress = io.StringIO()
    monkeypatch.setattr(sys, "stderr", progress)
    assert main([*on, "--resume"]) == 0
    monkeypatch.undo()
    assert "2 of 6 games were played before" in progress.getvalue()
    assert steps_shown(progress.getvalue()) == [3, 4, 5, 6]
    assert results(out) == alone


def test_a_killed_worker_has_its_games_played_again_and_each_reported_once(
    cluster, scenario: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import game.sim.batch as batch

    reported: Counter[tuple[int, int]] = Counter()
    save = batch._save
    monkeypatch.setattr(batch, "_save", lambda work, o: reported.update([o.key]) or save(work, o))
    pids = cluster.run(os.getpid)
    killed: list[str] = []
    out = tmp_path / "out"

    def kill_a_busy_worker() -> None:
        """Once the first game is in, kill a worker in the middle of its game."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not killed:
            if any((out / ".barrage-work" / "games").glob("game-*.json")):
                for worker, keys in cluster.processing().items():
                    if keys and worker in pids:
                        os.kill(pids[worker], signal.SIGKILL)
                        killed.append(worker)
                        return
            time.sleep(0.005)

    watcher = threading.Thread(target=kill_a_busy_worker)
    watcher.start()
    progress = io.StringIO()
    games = 6
    levels = {"north": "normal", "south": "normal"}
    address = cluster.scheduler.address
    simulate(
        scenario, games, 9, levels, out, logs=0, plots=False, progress=progress,
        cluster=Cluster(address),
    )  # fmt: skip
    watcher.join()
    assert killed, "no worker was busy once the first game was in"
    assert reported == Counter({(-1, i): 1 for i in range(games)})
    assert steps_shown(progress.getvalue()) == list(range(1, games + 1))
    alone = tmp_path / "one"
    simulate(scenario, games, 9, levels, alone, logs=0, plots=False, progress=None)
    assert results(out) == results(alone)


def test_nothing_of_dask_is_imported_without_its_options(scenario: str, tmp_path: Path) -> None:
    """main.py's start-up and a run without --scheduler/--dask-local never load Dask."""
    code = (
        "import sys, main\n"
        "main.build_parser()\n"
        f"assert main.main(['simulate', {scenario!r}, '--games', '1', '--north', 'random', "
        f"'--south', 'random', '--out', {str(tmp_path / 'o')!r}, '--quiet', '--no-plots']) == 0\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed'))\n"
        "print('DASK', loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "DASK []" in done.stdout


def test_an_unreachable_scheduler_is_one_line(
    scenario: str, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    import game.sim.cluster

    monkeypatch.setattr(game.sim.cluster, "CONNECT_TIMEOUT", "2s")
    args = ["simulate", scenario, "--games", "1", "--out", str(tmp_path / "o"), "--quiet"]
    assert main([*args, "--scheduler", "tcp://127.0.0.1:9"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("simulate: cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert "Traceback" not in err
