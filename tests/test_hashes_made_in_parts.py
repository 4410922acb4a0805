"""The game's hashes are made from parts kept between commands (the sheets' JSON, each
logged event's JSON), and must be the very digests of the whole plain data: a save,
a log or a replay check written before reads the same."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest

from game.dice import RollRecord
from game.secrecy import PUBLIC, UMPIRE, owners
from game.state import new_game, state_hash
from game.state.checks import COMMAND_CHECK_DIGITS, position_hash
from game.state.model import (
    Event,
    canonical_json,
    digest,
    event_json,
    plain_copy,
    queue_json,
    units_json,
)
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
    # Events with secrets and without, with rolls and without, each written as whole.
    assert {(e.secret, bool(e.rolls)) for e in state.log} == {
        (True, True),
        (True, False),
        (False, True),
        (False, False),
    }
    assert all(event_json(e) == canonical_json(e.to_dict()) for e in state.log)


def test_an_event_written_with_no_secret_reads_as_one_read_anew() -> None:
    """An event's JSON written straight from its fields notes that it holds no
    secret (ART-4, ART-9): after every command of a random game, each event's owners
    of secrets are those worked out anew, and each reader's copy is the copy of the
    same event never written."""
    state = new_game(HUNT, 9)
    player = RandomPlayer(9)
    while state.result is None and state.turn <= 4:
        random_step(state, player)
    plain = 0
    for event in state.log:
        event_json(event)
        assert event._known()[1] == owners([event.parts, event.data, event.rolls])
        plain += not event._known()[1]
        fresh = Event.from_dict(event.to_dict())
        for reader in (*state.sides, PUBLIC, UMPIRE):
            seen, anew = event.visible_to(reader), fresh.visible_to(reader)
            assert (seen is None) == (anew is None)
            assert seen is None or anew is None or seen.to_dict() == anew.to_dict()
    assert 0 < plain < len(state.log)


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


def test_the_units_json_kept_between_turn_checks_follows_every_change() -> None:
    """Each unit's JSON, and its profile's and damage's, is kept from one turn check to
    the next: the units' JSON is still exactly their canonical JSON after moves,
    damage replaced whole or written into in place, a profile changed in place and
    a unit given a new battery state; a state hash too."""
    state = new_game(HUNT, 11)
    player = RandomPlayer(11)
    while state.result is None and state.turn <= 3:
        random_step(state, player)
        whole = canonical_json([u.to_dict() for u in state.units.values()]).encode("utf-8")
        assert units_json(state.units) == whole
    unit = next(u for u in state.units.values() if u.battery is None)
    gun = next(u for u in state.units.values() if u.battery is not None)
    changes = [
        lambda: unit.damage.update(kept="written into in place"),
        lambda: setattr(unit, "damage", {**unit.damage, "replaced": 1}),
        lambda: unit.profile.update(walk=99),
        lambda: unit.profile["weapons"].append("medium_laser"),
        lambda: setattr(unit, "mp_spent", unit.mp_spent + 3),
        lambda: unit.weapons_fired.append("medium_laser"),
        lambda: gun.battery.ammunition.update(standard=1),  # type: ignore[union-attr]
    ]
    for change in changes:
        before = units_json(state.units)
        change()
        after = units_json(state.units)
        assert after == canonical_json([u.to_dict() for u in state.units.values()]).encode()
        assert after != before
        assert position_hash(state) == digest(state.to_dict(history=False))
        assert state_hash(state) == digest(state.to_dict())


def test_a_string_that_reads_like_a_made_parts_mark_changes_nothing() -> None:
    """The made parts go into the JSON in the place of marks no game data holds; a
    unit's name or a scenario text that reads like one leaves the hashes the digests
    of the whole plain data (written the long way then)."""
    state = new_game(HUNT, 3)
    random_step(state, RandomPlayer(3))
    unit = next(iter(state.units.values()))
    for text in ("\u0000made before: profile\u0000", "\u0000made before: units\u0000"):
        unit.name = text
        state.options["name"] = text
        assert units_json(state.units) == canonical_json(
            [u.to_dict() for u in state.units.values()]
        ).encode("utf-8")
        assert position_hash(state) == digest(state.to_dict(history=False))
        assert state_hash(state) == digest(state.to_dict())


def test_a_plain_copy_is_a_deep_copy_that_shares_nothing() -> None:
    """``plain_copy`` (the kept JSON's and the views' copies of profiles and damage)
    equals ``copy.deepcopy`` for every unit's profile and damage and the scenario of a
    game played some turns, and for awkward values, with values of the same types
    and no list or dict shared with the original."""

    def shared(a: object, b: object) -> bool:
        if isinstance(a, dict) and isinstance(b, dict):
            return a is b or any(shared(a[k], b[k]) for k in a)
        if isinstance(a, list) and isinstance(b, list):
            return a is b or any(shared(x, y) for x, y in zip(a, b, strict=True))
        return False

    def same_types(a: object, b: object) -> bool:
        if type(a) is not type(b):
            return False
        if isinstance(a, dict) and isinstance(b, dict):
            return all(same_types(a[k], b[k]) for k in a)
        if isinstance(a, list | tuple) and isinstance(b, list | tuple):
            return all(same_types(x, y) for x, y in zip(a, b, strict=True))
        return True

    state = new_game(HUNT, 4)
    player = RandomPlayer(4)
    while state.result is None and state.turn <= 3:
        random_step(state, player)
    samples: list[object] = [state.scenario, state.options, state.initiative]
    samples += [u.profile for u in state.units.values()] + [u.damage for u in state.units.values()]
    samples += [{"a": (1, [2, {"b": (3,)}]), 4: [None, True, 1.5, "é"]}, [[], {}], (1, 2), "x"]
    for data in samples:
        made = plain_copy(data)
        assert made == copy.deepcopy(data) and same_types(made, data)
        assert not shared(made, data)
