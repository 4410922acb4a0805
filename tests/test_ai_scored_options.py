"""Moves scored side by side (``Scored``) and listed past the frozen setter
(``Move.listed``) are the candidates and commands they stand for."""

from __future__ import annotations

import dataclasses

import pytest

from game.ai import make_policy
from game.ai.candidates import Candidate, Scored, best, scores_of
from game.dice import Dice
from game.hexmath import Hex
from game.state import DEFAULT_SCENARIO, acting_side, apply, legal_commands, new_game, player_view
from game.state.commands import Hold, Move
from game.state.legal import LegalCommands, legal_options


def test_listed_moves_are_the_moves_they_name() -> None:
    ends = [(Hex(3, 4), 2), (Hex(-1, 7), 6), (Hex(3, 4), 5)]
    listed = Move.listed("north", "n-1", ends)
    made = [Move("north", "n-1", h, f) for h, f in ends]
    assert listed == made
    assert [hash(m) for m in listed] == [hash(m) for m in made]
    assert [m.to_dict() for m in listed] == [m.to_dict() for m in made]
    assert [m.describe() for m in listed] == [m.describe() for m in made]
    with pytest.raises(dataclasses.FrozenInstanceError):
        listed[0].facing = 3  # type: ignore[misc]


def test_scored_options_read_as_their_candidates() -> None:
    moves = Move.listed("north", "n-1", [(Hex(k, 0), 1) for k in range(6)])
    scores = [1.0, 3.0, -2.0, 3.0, 0.5, 3.0]
    reasons = ["r0", "r1", "r2", "r3", "r4", "r5"]
    scored = Scored(list(moves), list(scores), list(reasons))
    plain = [Candidate(c, s, r) for c, s, r in zip(moves, scores, reasons, strict=True)]
    assert list(scored) == plain and scored[1:3] == plain[1:3] and len(scored) == 6
    # The first of the equal best, as over the list.
    assert best(scored) == best(plain) == plain[1]
    assert scores_of(scored) == scores_of(plain) == scores
    scored[1] = Candidate(moves[1], 0.0, "lowered")
    assert best(scored) == plain[3] and scored[1].reason == "lowered"
    with pytest.raises(ValueError, match="6 commands, 5 scores"):
        Scored(list(moves), scores[:5], reasons)


def test_scored_options_keep_only_the_legal_ones_in_order() -> None:
    moves = Move.listed("north", "n-1", [(Hex(k, 0), 1) for k in range(4)])
    legal = LegalCommands.of([Hold("north", "n-1"), *moves[:3]])
    scored = Scored([*moves], [0.0, 1.0, 2.0, 3.0], ["a", "b", "c", "d"])
    kept = scored.among(legal)
    assert [c.command for c in kept] == moves[:3] and kept.scores == [0.0, 1.0, 2.0]
    # Equal commands that are not the listed objects are legal all the same.
    again = Scored([Move("north", "n-1", Hex(k, 0), 1) for k in range(3)], [0.0] * 3, ["x"] * 3)
    assert again.among(legal) is again
    assert legal.holds_all(moves[:3]) and not legal.holds_all(moves)


def test_a_policy_picks_among_scored_moves_as_among_the_candidates_listed() -> None:
    """Every decision of a few turns: the pick from the scored options is the pick
    from the same candidates made into a list, and so is the ranking an easy policy
    blunders among."""
    state = new_game(DEFAULT_SCENARIO, seed=5)
    policies = {s: make_policy("normal") for s in ("north", "south")}
    dice = {s: Dice(11 if s == "north" else 12) for s in ("north", "south")}
    weighed = 0
    for _ in range(120):
        if state.result is not None:
            break
        side = acting_side(state)
        view = player_view(state, side)
        legal = legal_options(state, side)
        found = policies[side].candidates(view, legal, Dice(1))
        listed = list(found)
        if isinstance(found, Scored):
            weighed += 1
            assert best(found) == best(listed)
            assert scores_of(found) == [c.score for c in listed]
        apply(state, policies[side].choose(view, legal_commands(state, side), dice[side]))
    assert weighed > 5
