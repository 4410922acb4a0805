"""Engine benchmark: random-vs-random full games of the default scenario.

Prints games per second and commands per second, and the median time of one
``legal_commands`` and one ``apply`` call (overall and per phase), of a
``player_view`` and of a ``state_hash``. The random player draws through a
seeded ``Dice`` (a command kind uniformly among those offered, then a command
of that kind), so every run plays the same games.

Run: ``python -m game.bench engine``.
"""

from __future__ import annotations

import statistics
import time

from game.dice import Dice
from game.state import (
    DEFAULT_SCENARIO,
    acting_side,
    apply,
    legal_commands,
    new_game,
    player_view,
    state_hash,
)
from game.state.commands import Command

GAMES = 5
FIRST_SEED = 100


def _choose(dice: Dice, commands: list[Command]) -> Command:
    kinds: dict[str, list[Command]] = {}
    for c in commands:
        kinds.setdefault(c.kind, []).append(c)
    names = sorted(kinds)
    kind = names[dice.roll(1, len(names), "kind").total - 1] if len(names) > 1 else names[0]
    group = kinds[kind]
    pick = group[dice.roll(1, len(group), "command").total - 1] if len(group) > 1 else group[0]
    dice.take_records()
    return pick


def main() -> None:
    legal_times: dict[str, list[float]] = {}
    apply_times: dict[str, list[float]] = {}
    view_times: list[float] = []
    hash_times: list[float] = []
    commands = 0
    turns = 0
    start = time.perf_counter()
    for n in range(GAMES):
        state = new_game(DEFAULT_SCENARIO, FIRST_SEED + n)
        chooser = Dice(FIRST_SEED + n)
        while True:
            side = acting_side(state)
            if side is None:
                break
            phase = "sheet" if state.pending_sheet is not None else state.phase
            t0 = time.perf_counter()
            offered = legal_commands(state, side)
            t1 = time.perf_counter()
            command = _choose(chooser, offered)
            t2 = time.perf_counter()
            apply(state, command)
            t3 = time.perf_counter()
            legal_times.setdefault(phase, []).append(t1 - t0)
            apply_times.setdefault(phase, []).append(t3 - t2)
            commands += 1
        turns += state.turn
    elapsed = time.perf_counter() - start
    # Views and hashes of the last game's final state (the largest log and area).
    for _ in range(20):
        t0 = time.perf_counter()
        player_view(state, "north").to_dict()
        t1 = time.perf_counter()
        state_hash(state)
        t2 = time.perf_counter()
        view_times.append(t1 - t0)
        hash_times.append(t2 - t1)

    every_legal = [t for ts in legal_times.values() for t in ts]
    every_apply = [t for ts in apply_times.values() for t in ts]

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:8.3f} ms"

    print(f"Engine: {GAMES} random-vs-random games of {DEFAULT_SCENARIO.rsplit('/', 1)[-1]}")
    print(f"  {turns} turns, {commands} commands in {elapsed:.2f} s")
    print(f"  games per second:     {GAMES / elapsed:10.3f}")
    print(f"  commands per second:  {commands / elapsed:10.1f}")
    print(f"  median legal_commands {ms(every_legal)}   (all phases, {len(every_legal)} calls)")
    print(f"  median apply          {ms(every_apply)}   (all phases)")
    for phase in sorted(legal_times):
        print(
            f"    {phase:<10} legal_commands {ms(legal_times[phase])}   apply "
            f"{ms(apply_times[phase])}   ({len(legal_times[phase])} calls)"
        )
    print(f"  median player_view    {ms(view_times)}   (final state, to_dict)")
    print(f"  median state_hash     {ms(hash_times)}   (final state)")


if __name__ == "__main__":
    main()
