"""Check hashes written as a game is played, so that a replay that goes another way
says where it parted (saves and logs carry them; ``game.state.saves``).

Two kinds, both recorded by ``apply`` and kept in ``GameState.checks``:

- every command leaves a short fingerprint of what it did (``command_check``):
  the command, the events it logged with their dice rolls, and where the dice
  stand after it. A replay compares it command by command, so the first command
  that does something else is named;
- every turn leaves the hash of the whole game at its start (``position_hash``):
  taken after the command that opened the turn, before any command of it. It
  hashes the position (units, map, sheets, fire queue, secrets, dice...), not the
  history, which the command checks cover one by one; so it costs the same in the
  last turn as in the first. It catches what changes no event: a sheet file edited
  under a game changes sight lines and shows here at the latest.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from game.state.commands import command_from_dict
from game.state.model import (
    Event,
    GameState,
    TurnCheck,
    canonical_json,
    catalogue_json,
    event_json,
    json_digest,
    queue_json,
    units_json,
)

# Hex digits kept of a command's fingerprint: a one-in-four-billion chance to miss a
# change at that command, and the turn check behind it catches it anyway.
COMMAND_CHECK_DIGITS = 8


def command_check(command: dict[str, Any], events: Sequence[Event], state: GameState) -> str:
    """The fingerprint of one command that has just been carried out in ``state``:
    ``digest([command, [e.to_dict() for e in events], state.dice.to_dict()])``, with
    the events' JSON kept for the hashes made later (``event_json``)."""
    events_json = ",".join(event_json(e) for e in events)
    done = f"[{canonical_json(command)},[{events_json}],{canonical_json(state.dice.to_dict())}]"
    return hashlib.sha256(done.encode("utf-8")).hexdigest()[:COMMAND_CHECK_DIGITS]


def position_hash(state: GameState) -> str:
    """The hash of the game as it stands, without its history (log, commands, checks):
    ``digest(state.to_dict(history=False))``, with the sheets' part of the JSON
    written once per catalogue (sheets are frozen), the scenario's once per game
    (``_scenario_json``), each shell's once (``queue_json``), each unit's profile and
    damage once while they stay the same and a unit that did not change as it was
    (``units_json``), the rest each turn."""
    data = state.to_dict(history=False, sheets=False, made=True)
    made = {
        "sheets": catalogue_json(state.area.catalogue),
        "scenario": _scenario_json(state),
        "queue": queue_json(state.queue),
        "units": units_json(state.units),
    }
    return json_digest(data, made)


# The scenario's canonical JSON, kept with the scenario it was made of and a copy of
# it: the scenario is read, never written, in play, and comparing it with the copy
# costs a fiftieth of writing it again (a Long Tom Hunt scenario: 8,600 characters).
_SCENARIO_JSON: dict[int, tuple[dict[str, Any], dict[str, Any], bytes]] = {}
_SCENARIO_JSON_KEPT = 16


def _scenario_json(state: GameState) -> bytes:
    scenario = state.scenario
    held = _SCENARIO_JSON.get(id(scenario))
    if held is None or held[0] is not scenario or held[1] != scenario:
        if len(_SCENARIO_JSON) >= _SCENARIO_JSON_KEPT:
            _SCENARIO_JSON.clear()
        made = canonical_json(scenario).encode("utf-8")
        held = _SCENARIO_JSON[id(scenario)] = (scenario, copy.deepcopy(scenario), made)
    return held[2]


def record_checks(state: GameState, events: Sequence[Event], turn_before: int) -> None:
    """After ``apply`` carried out the last of ``state.commands``: its fingerprint, and
    the turn's check when the command opened a new turn."""
    state.checks.commands.append(command_check(state.commands[-1], events, state))
    if state.turn != turn_before:
        state.checks.turns.append(TurnCheck(state.turn, len(state.commands), position_hash(state)))


@dataclass(frozen=True)
class Divergence:
    """Where a replay first parts from the game its log recorded."""

    turn: int
    command: int  # 1-based: the command after which the replay differs
    described: str
    why: str

    def __str__(self) -> str:
        return (
            f"the log diverges at turn {self.turn}, command {self.command} "
            f"({self.described}): {self.why}"
        )


class ReplayChecker:
    """Compares a replay, command by command, with the checks its log recorded.

    Logs of version 1 recorded none: nothing is compared then."""

    def __init__(self, recorded: dict[str, Any] | None) -> None:
        self.commands: list[str] = []
        self.turns: dict[int, TurnCheck] = {}
        if recorded is not None:
            self.commands = [str(c) for c in recorded.get("commands", [])]
            for t in recorded.get("turns", []):
                check = TurnCheck.from_dict(t)
                self.turns[check.commands] = check

    def after(self, state: GameState, raw: dict[str, Any], turn_before: int) -> Divergence | None:
        """The divergence found once the ``len(state.commands)``-th command (``raw``, as
        the log holds it) was replayed from turn ``turn_before``; None while the replay
        follows the game recorded (and past the commands the log checked)."""
        n = len(state.commands)
        if n > len(self.commands):
            return None
        where = (turn_before, n, describe(raw))
        if state.checks.commands[-1] != self.commands[n - 1]:
            return Divergence(
                *where,
                "it does not do what it did in the game recorded (its events or dice rolls "
                "differ, or the command was changed)",
            )
        made = state.checks.turns[-1] if state.checks.turns else None
        if made is not None and made.commands != n:
            made = None
        recorded = self.turns.get(n)
        if made is None and recorded is not None:
            return Divergence(
                *where, f"in the game recorded it began turn {recorded.turn}; here it does not"
            )
        if made is not None and recorded is None:
            return Divergence(*where, f"here it begins turn {made.turn}; in the game recorded not")
        if made is not None and recorded is not None and made.hash != recorded.hash:
            return Divergence(
                *where,
                f"the game at the start of turn {made.turn} differs from the one recorded "
                "(its units, map, sheets or secrets)",
            )
        return None


def describe(raw: dict[str, Any]) -> str:
    """A command of a log in words, as far as it can be read."""
    try:
        return command_from_dict(raw).describe()
    except (ValueError, KeyError, TypeError, AttributeError):
        return str(raw.get("kind", "unreadable command")) if isinstance(raw, dict) else repr(raw)
