"""Hot-seat hand-overs per turn in Long Tom Hunt: prints the figures.

Both sides are played by the easy AI through a hot-seat ``GameSession``, as the
window drives it: after every command, a hand-over when the session wants a
side's own view on screen, else the table. Counted per turn against the rule
the game had before the table view: a hand-over whenever the acting side
changes. Usage: ``python -m game.bench handovers`` (5 games of 6 turns).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from game.dice import Dice
from game.state import DEFAULT_SCENARIO, acting_side, new_game, player_view
from game.ui.session import HUMAN, TABLE, GameSession


@dataclass
class HandOvers:
    """One scripted hot-seat game: its turns, hand-overs now and by the old rule."""

    turns: int
    handovers: int
    by_side_changes: int

    @property
    def per_turn(self) -> float:
        return self.handovers / max(1, self.turns)

    @property
    def old_per_turn(self) -> float:
        return self.by_side_changes / max(1, self.turns)


def scripted_hot_seat(seed: int, turns: int = 6, level: str = "easy") -> HandOvers:
    """Play ``turns`` turns of Long Tom Hunt in hot-seat, each side's commands chosen
    by the AI from its own view; count the hand-overs the session asks for."""
    from game.ai import make_policy

    state = new_game(DEFAULT_SCENARIO, seed)
    session = GameSession(state, {s: HUMAN for s in state.sides})
    policy = {s: make_policy(level) for s in state.sides}
    dice = {s: Dice(seed * 17 + n) for n, s in enumerate(state.sides)}
    changes = 0
    last = None
    while state.result is None and state.turn <= turns:
        session.settle_table()
        if session.needs_handover():
            session.accept_handover()
        side = acting_side(state)
        assert side is not None
        if side != last:
            changes += 1  # the old rule: every change of the acting human
            last = side
        assert session.reader() in (TABLE, side)
        command = policy[side].choose(player_view(state, side), session.legal(), dice[side])
        session.submit(command)
    played = min(state.turn, turns) if state.result is None else state.turn
    return HandOvers(played, len(session.handovers), changes)


def main() -> None:
    games, turns = 5, 6
    start = time.perf_counter()
    results = [scripted_hot_seat(seed, turns) for seed in range(1, games + 1)]
    total_turns = sum(r.turns for r in results)
    now = sum(r.handovers for r in results) / total_turns
    before = sum(r.by_side_changes for r in results) / total_turns
    print(
        f"Long Tom Hunt hot-seat, {games} scripted games, {total_turns} turns (easy AI both sides)"
    )
    for seed, r in enumerate(results, 1):
        print(
            f"  seed {seed}: {r.turns} turns, {r.handovers} hand-overs "
            f"({r.per_turn:.2f} a turn); a hand-over at every change of side: "
            f"{r.by_side_changes} ({r.old_per_turn:.2f} a turn)"
        )
    print(f"hand-overs per turn: {now:.2f} (goal <= 3); before the table view: {before:.2f}")
    print(f"  {time.perf_counter() - start:.1f} s")
