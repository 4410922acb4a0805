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
from game.ai.manoeuvre import hexes_within
from game.dice import Dice
from game.hexmath import Hex
from game.state import DEFAULT_SCENARIO, acting_side, apply, legal_commands, new_game, player_view
from game.state.commands import Command
from game.state.legal import LegalCommands
from game.state.queries import shot_numbers


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


def test_an_automatic_hit_at_hex_0_0_keeps_its_own_to_hit_numbers_ART_19_ART_13() -> None:
    """Aims that share their numbers are those of one sheet with the same adjusted fire
    (ART-17); an automatic hit (ART-19) is asked alone, even at the hex (0, 0), which
    as a tuple equals sheet 0 with no adjusted fire. Every aim's numbers are those
    ``shot_numbers`` gives it asked alone."""
    state = new_game(DEFAULT_SCENARIO, 11)
    policies = {"north": Policy("normal"), "south": Policy("normal")}
    dice = {"north": Dice(1), "south": Dice(2)}
    while not (state.phase == "targeting" and acting_side(state) == "south"):
        side = acting_side(state)
        view = player_view(state, side)
        apply(state, policies[side].choose(view, legal_commands(state, side), dice[side]))
    battery_id = LegalCommands.read(legal_commands(state, "south")).first_piece().battery
    state.units[battery_id].battery.auto_hit.earned[Hex(0, 0)] = state.turn
    view = player_view(state, "south")
    policy = policies["south"]
    policy.memory.observe(view)
    board = Board.read(view, policy.memory, policy.level, policy.personality)
    auto = fire._automatic_hexes(board, battery_id)
    assert Hex(0, 0) in auto
    aims = sorted(h for h in hexes_within(Hex(1, 1), 2) if view.area.index_of(h) >= 0)
    indices = [view.area.index_of(h) for h in aims]
    battery = view.units[battery_id]
    got = fire._possible_numbers(view, battery, aims, indices, auto)
    alone = [shot_numbers(view, battery, [h], [i])[0] for h, i in zip(aims, indices, strict=True)]
    assert got == alone
    assert len(set(map(tuple, alone))) > 1  # the automatic hit's numbers differ
