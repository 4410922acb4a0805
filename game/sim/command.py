"""The ``simulate`` and ``sweep`` commands after ``main.py`` has read their options:
the Dask options, the run, its messages and exit codes."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from game.sim.batch import Cluster, simulate
from game.sim.outdir import WORK, RunError


def run_cluster(args: argparse.Namespace) -> Cluster | None:
    """The Dask cluster of ``--scheduler``/``--dask-local`` (this imports no Dask); main.py
    has already refused ``--workers`` alongside one."""
    if args.scheduler is None and args.dask_local is None:
        return None
    return Cluster(args.scheduler, args.dask_local)


def finish_run(command: str, out: str, play: Callable[[], int]) -> int:
    """Run ``play``; a run that cannot start or go on, or Ctrl+C, is one line and exit 1."""
    try:
        return play()
    except RunError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
    except KeyboardInterrupt:
        print(
            f"\n{command}: interrupted; the finished games are kept in {out}/{WORK}: "
            "run the same command with --resume to go on",
            file=sys.stderr,
        )
    except OSError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
    return 1


def run_simulation(
    args: argparse.Namespace, levels: dict[str, str], personalities: dict[str, str]
) -> int:
    """``simulate`` once its scenario, sides and personalities are checked."""
    cluster = run_cluster(args)

    def play() -> int:
        summary = simulate(
            args.scenario,
            args.games,
            args.seed,
            levels,
            args.out,
            workers=args.workers,
            personalities=personalities,
            swap_sides=args.swap_sides,
            logs=args.logs,
            plots=not args.no_plots,
            progress=None if args.quiet else sys.stderr,
            cluster=cluster,
            resume=args.resume,
        )
        print(f"{summary['games']} games written to {args.out}/ (summary.md, summary.json)")
        for side, rate in summary["wins_by_side"].items():
            print(f"  {side} ({levels[side]}) wins {100 * rate['rate']:.1f}%")
        print(f"  draws {100 * summary['draws']['rate']:.1f}%")
        return 0

    return finish_run("simulate", args.out, play)


def run_sweep(args: argparse.Namespace) -> int:
    """Check the sweep file, play its cells, write the report; 1 with the problems."""
    cluster = run_cluster(args)
    from game.sim.balance import even_summary
    from game.sim.sweep import SweepError, sweep

    def play() -> int:
        try:
            report = sweep(
                args.spec,
                args.out,
                workers=args.workers,
                cluster=cluster,
                resume=args.resume,
                plots=not args.no_plots,
                progress=None if args.quiet else sys.stderr,
            )
        except SweepError as exc:
            print("\n".join(exc.lines), file=sys.stderr)
            return 1
        print(f"{len(report['cells'])} cells written to {args.out}/ (report.md, report.html)")
        print(f"  nearest to 50/50: {even_summary(report)}")
        return 0

    return finish_run("sweep", args.out, play)
