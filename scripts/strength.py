"""Strength of the scripted opponents on the default scenario: prints the figures.

Two matches of seeded games, each level playing both sides in turn (the levels
swap sides every other game): normal against easy, and easy against the
random-legal policy. A draw (turn limit) counts as not a win. Usage:

    python scripts/strength.py [--games 200] [--workers 2] [--seed 7] [--out DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MATCHES = (("normal", "easy"), ("easy", "random"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per match (default 200)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=7, help="run seed (default 7)")
    parser.add_argument("--out", default=None, help="keep the runs' files in this folder")
    parser.add_argument("--target", type=float, default=0.8, help="win rate aimed at")
    args = parser.parse_args(argv)

    from game.sim import simulate
    from game.state import DEFAULT_SCENARIO

    out_root = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="barrage-strength-"))
    print(f"Long Tom Hunt, {args.games} games per match, seed {args.seed}, sides swapped")
    for strong, weak in MATCHES:
        folder = out_root / f"{strong}-vs-{weak}"
        summary = simulate(
            DEFAULT_SCENARIO,
            args.games,
            args.seed,
            {"north": strong, "south": weak},
            folder,
            workers=args.workers,
            swap_sides=True,
            logs=0,
            plots=False,
            progress=sys.stderr,
        )
        won = summary["wins_by_level"][strong]
        lost = summary["wins_by_level"][weak]
        draws = summary["draws"]
        lo, hi = won["ci95"]
        verdict = "meets" if won["rate"] >= args.target else "misses"
        print(
            f"{strong} vs {weak}: {strong} wins {won['wins']}/{won['games']} = "
            f"{100 * won['rate']:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%), "
            f"{weak} wins {100 * lost['rate']:.1f}%, draws {100 * draws['rate']:.1f}%: "
            f"{verdict} the {100 * args.target:.0f}% target"
        )
        for side, rate in summary["wins_by_side"].items():
            print(f"    won by the {side} side: {rate['wins']}")
        turns = summary["figures"]["turns"]
        print(f"    turns {turns['mean']:.1f} ± {turns['ci95']:.1f}; files in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
