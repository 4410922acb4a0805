"""The secrecy oracle's long run: prints its figures (games, commands, states and
secrets checked, leaks) and the rare states the games reached.

Every shipped scenario is played to its end by random, steered and AI drivers in
turn, then steered hunts with the pile and free sheet tables; at every command
both sides' views, the table view and every copy of the command's events are
searched for the other side's secrets (``tests/secrecy_oracle.py``). Usage:

    python scripts/secrecy_oracle.py [--games 50] [--hunts 50] [--turns N] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per scenario (default 50)")
    parser.add_argument("--hunts", type=int, default=50, help="steered hunts (default 50)")
    parser.add_argument("--turns", type=int, default=None, help="stop games after N turns")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    args = parser.parse_args(argv)
    os.environ.setdefault("BARRAGE_HOME", str(Path(os.environ.get("TMPDIR", "/tmp")) / "barrage"))

    from tests.secrecy_oracle import run

    start = time.perf_counter()
    oracle, games, commands = run(args.games, args.hunts, args.turns, args.seed)
    print(oracle.report(games, commands))
    print(f"  {time.perf_counter() - start:.0f} s")
    for leak in oracle.leaks[:20]:
        print(f"LEAK {leak}")
    return 1 if oracle.leaks else 0


if __name__ == "__main__":
    raise SystemExit(main())
