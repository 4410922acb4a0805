"""Barrage: hex-map artillery simulator.

``python main.py`` will open the game window; ``python main.py validate FILE...``
checks scenario and sheet files. Heavy modules are imported inside the
subcommands so that start-up stays light.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

SUBCOMMANDS = {
    "validate": "check scenario files (maps/*.toml) and sheet files (maps/sheets/*.toml)",
}


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
    validate.set_defaults(run=run_validate)
    return parser


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


def run_default() -> int:
    """No subcommand: the game window belongs here once it exists."""
    lines = [
        "Barrage: the game window is not built yet.",
        "Available commands:",
        *(f"  python main.py {name:<9} {text}" for name, text in SUBCOMMANDS.items()),
        "Run python main.py COMMAND --help for details.",
    ]
    print("\n".join(lines))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None:
        return run_default()
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
