"""Games as tasks on a Dask cluster: ``--scheduler ADDRESS`` or ``--dask-local N``.

This is the one module that imports Dask (``distributed``), and only
``play_each`` imports it, when a run is given a cluster; ``main.py`` and a run
without those options never load it.

Each game is one task. The task carries everything the game needs (the
scenario's tables, the seeds, the levels), so a worker on another machine
needs the same Barrage code and sheet catalogue, not the run's files; it
checks that its code is the same as the client's before it plays
(``code_fingerprint``). Outcomes come back to this process, which writes every
file, so the result files are those of the same run with ``--workers 1``.

A worker that dies takes its running games with it; the scheduler gives them
to another worker (up to its ``allowed-failures``, 3 by default, for one game).
Each outcome is handed on once, as it arrives; an interrupted run cancels the
games still queued.
"""

from __future__ import annotations

import logging
import socket
import uuid
from collections.abc import Callable

from distributed import Client, LocalCluster, as_completed
from distributed.scheduler import KilledWorker

from game.sim.outdir import RunError
from game.sim.runner import GameOutcome, GameSpec, code_fingerprint, play_game

CONNECT_TIMEOUT = "20s"


def play_checked(spec: GameSpec, code: str) -> GameOutcome:
    """The task: play one game, if this worker runs the client's code."""
    mine = code_fingerprint()
    if mine != code:
        raise RunError(
            f"the Dask worker on {socket.gethostname()} runs other Barrage code or sheets "
            f"than the machine that started the run ({mine[:12]} here, {code[:12]} there); "
            "install the same version on every worker"
        )
    return play_game(spec)


def local_cluster(workers: int) -> LocalCluster:
    """``workers`` processes on this machine, one game at a time each (a game is pure
    Python), reachable on the loopback interface only, without a dashboard."""
    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        # The scheduler's own HTTP endpoint (health, metrics): loopback, any free port.
        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.ERROR,
    )


def task_key(run: str, spec: GameSpec) -> str:
    """Unique on a shared scheduler: another run's game of the same number is another task."""
    where = "" if spec.cell is None else f"cell{spec.cell}-"
    return f"barrage-{run}-{where}game{spec.index}"


def play_on_cluster(
    specs: list[GameSpec],
    on_outcome: Callable[[GameOutcome], None],
    scheduler: str | None = None,
    local_workers: int | None = None,
) -> None:
    """Play every game on the scheduler at ``scheduler``, or on a local cluster of
    ``local_workers`` processes on the loopback interface started for this run."""
    if (scheduler is None) == (local_workers is None):
        raise ValueError("give a scheduler address or a number of local workers, not both")
    if not specs:
        return
    cluster = None
    if local_workers is not None:
        if local_workers < 1:
            raise ValueError(f"a local cluster needs 1 worker or more, not {local_workers}")
        cluster = local_cluster(local_workers)
    try:
        try:
            client = Client(cluster if cluster is not None else scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise RunError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        with client:
            _play(client, specs, on_outcome)
    finally:
        if cluster is not None:
            cluster.close()


def _play(client: Client, specs: list[GameSpec], on_outcome: Callable[[GameOutcome], None]) -> None:
    run = uuid.uuid4().hex[:12]
    code = code_fingerprint()
    futures = [
        client.submit(play_checked, spec, code, key=task_key(run, spec), pure=False)
        for spec in specs
    ]
    pending = set(futures)
    try:
        for future in as_completed(futures):
            pending.discard(future)
            try:
                outcome = future.result()
            except KilledWorker as exc:
                raise RunError(
                    f"a game was lost with every worker that played it ({exc}); "
                    "the games finished so far are kept: run again with --resume"
                ) from None
            future.release()
            on_outcome(outcome)
    finally:
        if pending:  # interrupted, or a game failed: the queued games are not wanted
            client.cancel(list(pending))
