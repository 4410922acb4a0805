"""Strength of the scripted opponents on every scenario: prints the table with
Wilson 95% intervals.

For each scenario, three matches of seeded games with the levels swapping sides
every other game (each level plays both sides), a draw counting as not a win:
hard against normal (target 65%), normal against easy and easy against random
(target 80% each); then normal against normal, counting the games won by a
scenario objective (destroy, hold, survive), not drawn and not settled on
victory points at the turn limit (target 60%). The tutorial's battle
(``maps/tutorial.toml``) is left out: it is built for the tutorial's scripted
picket, which holds still and fires every turn so that each lesson comes up,
not for one AI against another. Usage:

    python scripts/strength.py [--games 200] [--workers 2] [--seed 7] [--out DIR]
        [--scenario maps/long_tom_hunt.toml ...] [--match hard-normal ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# (stronger, weaker, target win rate of the stronger)
MATCHES = (("hard", "normal", 0.65), ("normal", "easy", 0.80), ("easy", "random", 0.80))
OBJECTIVE_TARGET = 0.60


def _sides(scenario: str) -> tuple[str, str]:
    from game.scenario import load_scenario

    return tuple(s.name for s in load_scenario(scenario).sides)  # type: ignore[return-value]


def scenarios(root: Path) -> list[str]:
    """The scenarios of ``root/maps`` the table covers: all but the tutorial's battle,
    which is played against the tutorial's picket (``game.ui.lessons``), not an AI."""
    from game.ui.lessons import SCENARIO as TUTORIAL

    maps = sorted((root / "maps").glob("*.toml"))
    return [str(p) for p in maps if p.resolve() != TUTORIAL.resolve()]


def won_by_objective(record: dict) -> bool:
    """A game won by a scenario objective: a winner, and not on points at the limit."""
    return record["winner"] is not None and "on victory points" not in record["reason"]


def _pct(rate: float) -> str:
    return f"{100 * rate:5.1f}%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per match (default 200)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=7, help="run seed (default 7)")
    parser.add_argument("--out", default=None, help="keep the runs' files in this folder")
    parser.add_argument(
        "--scenario",
        action="append",
        default=None,
        help="a scenario (default: maps/*.toml but the tutorial's)",
    )
    parser.add_argument(
        "--match",
        action="append",
        default=None,
        help="strong-weak levels, e.g. hard-normal; normal-normal for the objective rate "
        "(default: all four)",
    )
    args = parser.parse_args(argv)

    from game.sim import simulate
    from game.sim.stats import wilson_interval

    root = Path(__file__).resolve().parents[1]
    chosen = args.scenario or scenarios(root)
    wanted = args.match or [f"{a}-{b}" for a, b, _ in MATCHES] + ["normal-normal"]
    out_root = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="barrage-strength-"))
    print(f"{args.games} games per match, seed {args.seed}, sides swapped; files in {out_root}")
    print("| scenario | match | stronger wins (95% CI) | weaker wins | draws | target |")
    print("| --- | --- | --- | --- | --- | --- |")
    for scenario in chosen:
        first, second = _sides(scenario)
        name = Path(scenario).stem
        for strong, weak, target in (*MATCHES, ("normal", "normal", OBJECTIVE_TARGET)):
            if f"{strong}-{weak}" not in wanted:
                continue
            folder = out_root / name / f"{strong}-vs-{weak}"
            summary = simulate(
                scenario,
                args.games,
                args.seed,
                {first: strong, second: weak},
                folder,
                workers=args.workers,
                swap_sides=strong != weak,
                logs=0,
                plots=False,
                progress=sys.stderr,
            )
            if strong == weak:
                records = [
                    json.loads(p.read_text(encoding="utf-8"))
                    for p in sorted((folder / "games").glob("game-*.json"))
                ]
                won = sum(1 for r in records if won_by_objective(r))
                lo, hi = wilson_interval(won, len(records))
                rate = won / len(records)
                verdict = "meets" if rate >= target else "misses"
                print(
                    f"| {name} | normal-normal, won by an objective | {won}/{len(records)} = "
                    f"{_pct(rate)} ({_pct(lo)}-{_pct(hi)}) | | "
                    f"{_pct(summary['draws']['rate'])} | >= {100 * target:.0f}%: {verdict} |"
                )
                continue
            w = summary["wins_by_level"][strong]
            lost = summary["wins_by_level"][weak]
            lo, hi = w["ci95"]
            verdict = "meets" if w["rate"] >= target else "misses"
            print(
                f"| {name} | {strong}-{weak} | {w['wins']}/{w['games']} = {_pct(w['rate'])} "
                f"({_pct(lo)}-{_pct(hi)}) | {_pct(lost['rate'])} | "
                f"{_pct(summary['draws']['rate'])} | >= {100 * target:.0f}%: {verdict} |"
            )
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
