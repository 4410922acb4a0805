"""Barrage: hex-map artillery simulator.

``python main.py [options]`` opens the game window (``--help`` lists the window
options: ``--scenario``, ``--mode``, ``--side``, ``--level``, ``--seed``,
``--screenshot``...); ``python main.py validate FILE...`` checks scenario and
sheet files; ``python main.py simulate SCENARIO`` plays AI against AI headless;
``python main.py sweep SPEC`` plays a scenario over a grid of changed values
and writes a balance report; ``python main.py replay FILE`` steps through a
saved game in the window.
Heavy modules are imported only by the part that needs them, so that start-up
stays light.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from game.cli import UsageError, add_screenshot_options, count, invalid_file, parse, usage_error

SUBCOMMANDS = {
    "validate": "check scenario files (maps/*.toml) and sheet files (maps/sheets/*.toml)",
    "simulate": "play a scenario headless many times, AI against AI, and report statistics",
    "sweep": "play a scenario over a grid of changed values and write a balance report",
    "replay": "step through a saved game (a game log or a save) in the game window",
}
# Side names are the home edges of the scenario (MAP-3), so these are the side flags.
SIDE_FLAGS = ("north", "south", "west", "east")
AI_LEVELS = ("random", "easy", "normal", "hard")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="main.py",
        description="Barrage: hex-map artillery simulator.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    validate = commands.add_parser(
        "validate",
        help=SUBCOMMANDS["validate"],
        description="Check scenario and sheet files; print every problem found. "
        "Exit code 0 when all files are fine, 1 otherwise.",
    )
    validate.add_argument("files", nargs="+", metavar="FILE", help="a .toml file to check")
    validate.add_argument(
        "--sheets",
        metavar="DIR",
        default=None,
        help="folder of sheet files scenarios refer to (default: maps/sheets)",
    )
    validate.set_defaults(run=run_validate, parser=validate)
    simulate = commands.add_parser(
        "simulate",
        help=SUBCOMMANDS["simulate"],
        description="Play SCENARIO headless GAMES times with AI on both sides and fixed "
        "seeds; write per-game JSON, a summary (Markdown and JSON) with confidence "
        "intervals, plots and replayable game logs into DIR. Side flags take the "
        "scenario's side names: --north/--south or --west/--east. See docs/simulate.md.",
    )
    simulate.add_argument("scenario", metavar="SCENARIO", help="a scenario file (maps/*.toml)")
    simulate.add_argument("--games", type=count(1), default=20, help="games to play (default 20)")
    simulate.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
    simulate.add_argument("--out", metavar="DIR", default="sim-out", help="output folder")
    for side in SIDE_FLAGS:
        simulate.add_argument(
            f"--{side}",
            choices=AI_LEVELS,
            default=None,
            help=f"AI level of side {side} (default normal)",
        )
    simulate.add_argument(
        "--personality",
        action="append",
        default=[],
        metavar="SIDE=NAME",
        help="personality of a side: steady, aggressive or cautious (repeatable)",
    )
    simulate.add_argument(
        "--swap-sides",
        action="store_true",
        help="swap the two sides' levels every other game",
    )
    simulate.add_argument("--logs", type=count(0), default=3, help="games whose logs are saved")
    add_run_options(simulate)
    simulate.set_defaults(run=run_simulate, parser=simulate)
    sweep = commands.add_parser(
        "sweep",
        help=SUBCOMMANDS["sweep"],
        description="Play the scenario of SPEC over every combination of the values its "
        "[[grid]] axes give, AI against AI, and write a balance report (Markdown, JSON, one "
        "HTML page with the plots) into DIR. Every cell is checked as validate checks a "
        "file before any game is played. Exit code 1 when SPEC is wrong or the run fails. "
        "See docs/simulate.md.",
    )
    sweep.add_argument("spec", metavar="SPEC", help="a sweep file (maps/sweeps/*.toml)")
    sweep.add_argument("--out", metavar="DIR", default="sweep-out", help="output folder")
    add_run_options(sweep)
    sweep.set_defaults(run=run_sweep, parser=sweep)
    replay = commands.add_parser(
        "replay",
        help=SUBCOMMANDS["replay"],
        description="Open the game window on a saved game and step through it turn by "
        "turn, phase by phase or command by command, from one side's view or both. FILE "
        "is a game log (the autosave's autosave.log.json, the logs/ of simulate) or a "
        "save. Exit code 1 when the file cannot be replayed. See docs/simulate.md.",
    )
    replay.add_argument("file", metavar="FILE", help="a game log (.log.json) or a save (.json)")
    replay.add_argument(
        "--side",
        choices=(*SIDE_FLAGS, "both"),
        default="both",
        help="whose view: a side, or both (the umpire's view of both sides; default)",
    )
    replay.add_argument(
        "--turn", type=int, metavar="N", help="open at the start of turn N (0: the set-up)"
    )
    add_screenshot_options(replay)
    replay.set_defaults(run=run_replay, parser=replay)
    return parser


def add_run_options(command: argparse.ArgumentParser) -> None:
    """Options that simulate and sweep share: worker processes or a Dask cluster, resuming
    a run, plots and the progress bar."""
    command.add_argument("--workers", type=count(1), default=1, help="worker processes (default 1)")
    cluster = command.add_mutually_exclusive_group()
    cluster.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play the games on the Dask cluster of this scheduler (tcp://HOST:8786)",
    )
    cluster.add_argument(
        "--dask-local",
        type=count(1),
        metavar="N",
        help="start a Dask cluster of N worker processes on this machine for the run",
    )
    command.add_argument(
        "--resume",
        action="store_true",
        help="go on with the interrupted run in DIR without playing its finished games again",
    )
    command.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    command.add_argument("--quiet", action="store_true", help="no progress bar")


def check_run_options(args: argparse.Namespace) -> None:
    """UsageError when --workers is given with a Dask cluster, which counts its own."""
    if args.workers != 1 and (args.scheduler is not None or args.dask_local is not None):
        raise UsageError("--workers counts processes here; with a Dask cluster leave it out")


def run_sweep(args: argparse.Namespace) -> int:
    """The sweep command (game/sim/command.py)."""
    check_run_options(args)
    from game.sim.command import run_sweep as sweep

    return sweep(args)


def run_validate(args: argparse.Namespace) -> int:
    """Print "FILE: ok" or the file's problems for each file; 1 if any file has one."""
    from game.scenario import validate_file

    failed = False
    for name in args.files:
        problems = validate_file(name, args.sheets)
        if problems:
            failed = True
            for line in problems:
                print(line)
        else:
            print(f"{name}: ok")
    return 1 if failed else 0


def run_simulate(args: argparse.Namespace) -> int:
    """Run the batch; print where the results are and the headline figures. A scenario
    that does not load exits with 1; sides or personalities it does not have are usage
    errors."""
    from game.scenario import ScenarioError, load_scenario

    try:
        sides = load_scenario(args.scenario).side_names()
    except (ScenarioError, OSError) as exc:
        return invalid_file("simulate", f"cannot load the scenario: {exc}")
    check_run_options(args)
    given = {s: getattr(args, s) for s in SIDE_FLAGS if getattr(args, s) is not None}
    wrong = sorted(set(given) - set(sides))
    if wrong:
        raise UsageError(
            f"the sides of {args.scenario} are {sides[0]} and {sides[1]}; "
            f"--{wrong[0]} does not apply (use --{sides[0]} and --{sides[1]})"
        )
    personalities = {}
    for item in args.personality:
        side, _, name = item.partition("=")
        if side not in sides or not name:
            raise UsageError(
                f"--personality takes SIDE=NAME with SIDE {sides[0]} or {sides[1]}, not {item!r}"
            )
        personalities[side] = name
    from game.ai.personality import PERSONALITIES
    from game.sim.command import run_simulation

    unknown = sorted(set(personalities.values()) - set(PERSONALITIES))
    if unknown:
        raise UsageError(
            f"--personality: no personality {unknown[0]!r} (known: {', '.join(PERSONALITIES)})"
        )
    levels = {s: given.get(s, "normal") for s in sides}
    return run_simulation(args, levels, personalities)


def run_replay(args: argparse.Namespace) -> int:
    """Open the replay window; a file that does not replay exits with 1 and the reason."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game.ui.app import run_replay as replay_window

    return replay_window(args.file, args.side, args.turn, args.screenshot, args.frames)


def window_epilog() -> str:
    lines = ["other commands:"]
    lines += [f"  python main.py {name:<9} {text}" for name, text in SUBCOMMANDS.items()]
    return "\n".join(lines)


def run_window(argv: Sequence[str]) -> int:
    """No subcommand: open the game window with the window options."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game.ui.app import run

    return run(argv, prog="main.py", epilog=window_epilog())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command ``argv`` asks for; returns the exit code: 0 done, 1 a file that is
    not valid, 2 a usage error (game/cli.py)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        args = parse(build_parser(), argv)
        if isinstance(args, int):
            return args
        try:
            return int(args.run(args))
        except UsageError as exc:
            return usage_error(args.parser, str(exc))
    return run_window(argv)


if __name__ == "__main__":
    sys.exit(main())
