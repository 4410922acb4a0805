"""What every command of ``main.py`` shares: its two kinds of mistake and their exit codes.

A usage error (an option the command cannot take, or a value it cannot use) exits
with 2 and argparse's own form: the usage line, then ``main.py COMMAND: error: ...``.
A file that is not valid (a scenario, a save, a game log, a sweep file) exits with 1
and one line ``COMMAND: FILE: problem``. Both go to standard error; no traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

USAGE_ERROR = 2
INVALID_FILE = 1


class UsageError(ValueError):
    """An option value the command cannot use; the text names the option and the fix.

    A ValueError, so that code which only knows "this value is wrong" still catches it."""


def usage_error(parser: argparse.ArgumentParser, problem: str, err: TextIO | None = None) -> int:
    """Print ``problem`` as argparse prints its own usage errors; returns the exit code."""
    err = err or sys.stderr
    parser.print_usage(err)
    print(f"{parser.prog}: error: {problem}", file=err)
    return USAGE_ERROR


def invalid_file(command: str, problem: object, err: TextIO | None = None) -> int:
    """Print the one line of a file that is not valid; returns the exit code."""
    print(f"{command}: {problem}", file=err or sys.stderr)
    return INVALID_FILE


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace | int:
    """The parsed options, or the exit code argparse chose (2 for a usage error, 0 for
    ``--help``) so that callers return it instead of the process ending under them."""
    try:
        return parser.parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else USAGE_ERROR


def count(minimum: int) -> Callable[[str], int]:
    """Argparse type of a count of ``minimum`` or more (games, workers, frames, logs)."""

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"give a whole number, not {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, not {value}")
        return value

    return read


def add_screenshot_options(command: argparse.ArgumentParser) -> None:
    """``--screenshot`` and ``--frames``, which the game window and the replay window share."""
    command.add_argument(
        "--screenshot",
        metavar="PATH",
        help="render without a display, save a PNG of the window and exit",
    )
    command.add_argument(
        "--frames",
        type=count(1),
        metavar="N",
        help="with --screenshot: frames to run first (default 3); alone: exit after N frames",
    )
