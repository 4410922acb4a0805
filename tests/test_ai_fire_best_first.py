"""Targeting works out its spotters' sight (MAP-5, ART-16) best first: each aim is
valued first at every to-hit number a spotter could give it (ART-13, ART-17,
ART-18), and sight is worked out only for the aims that could still be among the
best few. The candidates must be those of every aim valued with its own spotters."""

from __future__ import annotations

import numpy as np
import pytest

import game.ai.fire as fire
import game.ai.policy as policy_module
from game.ai import Policy
from game.ai.candidates import Board, Candidate
from game.dice import Dice
from game.hexmath import Hex
from game.state import DEFAULT_SCENARIO, acting_side, apply, legal_commands, new_game, player_view
from game.state.commands import Command


def _played(monkeypatch: pytest.MonkeyPatch, check) -> int:
    """Play Long Tom Hunt normal against normal until a dozen turns are done, calling
    ``check(board, legal)`` at every targeting decision; how many it met."""
    met = 0
    real = policy_module.targeting_candidates

    def watched(board: Board, legal: list[Command]) -> list[Candidate]:
        nonlocal met
        met += 1
        check(board, legal)
        return real(board, legal)

    monkeypatch.setattr(policy_module, "targeting_candidates", watched)
    state = new_game(DEFAULT_SCENARIO, 11)
    # Sharp-eyed spotters (gunnery 2: -1 to the shots they spot, ART-13): a shot's
    # number then hangs on whether one of them sees its hex.
    for spotter in ("n-spotter", "s-spotter"):
        state.units[spotter].gunnery = 2
    policies = {"north": Policy("normal"), "south": Policy("normal")}
    dice = {"north": Dice(1), "south": Dice(2)}
    while state.result is None and state.turn <= 12:
        side = acting_side(state)
        view = player_view(state, side)
        apply(state, policies[side].choose(view, legal_commands(state, side), dice[side]))
    return met


def _read(candidates: list[Candidate]) -> list[tuple[Command, float, str]]:
    return [(c.command, c.score, c.reason) for c in candidates]


def test_best_first_sight_gives_the_candidates_of_every_aim_valued_ART_13_ART_16(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The candidates of each targeting decision are those worked out with every aim's
    spotters known (the first look taking in every aim), to the last bit; and the
    spotters are asked about far fewer hexes."""
    asked = {"whole": 0, "best first": 0}
    counting = ["whole"]
    sight_among = Board.sight_among

    def counted(board: Board, viewer: Hex, height: int, wanted: np.ndarray) -> np.ndarray:
        asked[counting[0]] += int(wanted.sum())
        return sight_among(board, viewer, height, wanted)

    def check(board: Board, legal: list[Command]) -> None:
        with monkeypatch.context() as patched:
            patched.setattr(Board, "sight_among", counted)
            patched.setattr(fire, "_FIRST_LOOK", 10**6)
            counting[0] = "whole"
            whole = _read(fire.targeting_candidates(board, legal))
            patched.setattr(fire, "_FIRST_LOOK", 8)
            counting[0] = "best first"
            assert _read(fire.targeting_candidates(board, legal)) == whole

    assert _played(monkeypatch, check) > 10
    assert asked["whole"] > 1000
    assert asked["best first"] < asked["whole"] / 3
