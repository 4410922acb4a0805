"""The game's hashes are made from parts kept between commands (the sheets' JSON, each
logged event's JSON), and must be the very digests of the whole plain data: a save,
a log or a replay check written before reads the same."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from game.dice import RollRecord
from game.state import new_game, state_hash
from game.state.checks import COMMAND_CHECK_DIGITS, position_hash
from game.state.model import canonical_json, digest, event_json, queue_json
from tests.engine_fixtures import RandomPlayer, random_step

HUNT = Path(__file__).resolve().parents[1] / "maps" / "long_tom_hunt.toml"


def test_every_hash_is_the_digest_of_the_whole_plain_data() -> None:
    """Command checks, turn checks and the state hash, command after command of a
    random game, equal the digests of ``to_dict`` they stand for."""
    state = new_game(HUNT, 5)
    player = RandomPlayer(5)
    turns = 0
    while state.result is None and state.turn <= 3:
        start, turn = len(state.log), state.turn
        random_step(state, player)
        events = [e.to_dict() for e in state.log[start:]]
        done = [state.commands[-1], events, state.dice.to_dict()]
        assert state.checks.commands[-1] == digest(done)[:COMMAND_CHECK_DIGITS]
        assert state_hash(state) == digest(state.to_dict())
        if state.turn != turn:
            turns += 1
            assert state.checks.turns[-1].hash == digest(state.to_dict(history=False))
    assert turns >= 2
    assert position_hash(state) == digest(state.to_dict(history=False))


def test_an_events_json_follows_rolls_added_after_it_was_made() -> None:
    """The leftover rolls of a command join its last event after it was logged: the
    JSON kept for the event is made again then."""
    state = new_game(HUNT, 5)
    random_step(state, RandomPlayer(5))
    event = state.log[-1]
    before = event_json(event)
    event.rolls.append(RollRecord("scatter", 6, (3,)))
    assert event_json(event) == canonical_json(event.to_dict()) != before


def test_the_scenarios_json_kept_for_turn_checks_follows_the_scenario() -> None:
    """The turn check keeps the scenario's JSON from turn to turn: still the digest of
    the whole position, for the same scenario read again, and for a scenario changed
    in place under a game (a forged or edited state) as for a scenario of its own."""
    state = new_game(HUNT, 3)
    assert position_hash(state) == digest(state.to_dict(history=False))
    assert position_hash(state) == position_hash(state)
    state.scenario["scenario"]["briefing"] = "changed in place"
    assert position_hash(state) == digest(state.to_dict(history=False))
    state.scenario = {**state.scenario, "extra": [1, 2]}
    assert position_hash(state) == digest(state.to_dict(history=False))


def test_the_queues_json_made_of_each_shells_kept_json_is_the_queues_json() -> None:
    """Each plot's and arrival's JSON is kept with it (they are frozen): the queue's
    JSON made of them is exactly the canonical JSON of the whole queue, command after
    command of a random game, as shells are fired, replaced with their adjustments
    (ART-17) and land; a plot replaced whole is written anew."""
    state = new_game(HUNT, 7)
    player = RandomPlayer(7)
    shells = 0
    while state.result is None and state.turn <= 6:
        random_step(state, player)
        whole = canonical_json(state.queue.to_dict()).encode("utf-8")
        assert queue_json(state.queue) == whole
        shells = max(shells, len(state.queue.plots) + len(state.queue.arrivals))
    assert shells > 0 and state.queue.arrivals
    first = state.queue.plots[0]
    queue_json(state.queue)
    state.queue.plots[0] = replace(first, adjustments=first.adjustments + 1)
    assert queue_json(state.queue) == canonical_json(state.queue.to_dict()).encode("utf-8")


def test_canonical_json_is_json_dumps_with_sorted_keys() -> None:
    """The encoder made once (``canonical_json``) writes what ``json.dumps`` with the
    canonical settings writes, for a whole game and for awkward values, and a call
    that fails leaves nothing behind for the next one."""

    def dumps(data: object) -> str:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    state = new_game(HUNT, 3)
    player = RandomPlayer(3)
    while state.result is None and state.turn <= 2:
        random_step(state, player)
    awkward = [
        state.to_dict(),
        "plain text",
        'Überhöhung "quoted" \\ \n\t\u0000 ✓',
        {"b": 1, "a": [1.5, -0.0, 1e300, True, None, 2**70], "é": {"z": {}, "y": []}},
        {3: "int keys", 20: "sorted as numbers"},
        (1, 2),
        0.1 + 0.2,
    ]
    for data in awkward:
        assert canonical_json(data) == dumps(data)
    for bad in ({"set": {1, 2}}, {"nan": float("nan"), "not json": object()}):
        with pytest.raises(TypeError):
            canonical_json(bad)
    assert canonical_json(awkward[3]) == dumps(awkward[3])
