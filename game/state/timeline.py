"""A recorded game, step by step: the state after any of its commands (design principle 5).

``ReplayTimeline`` replays a game log (``save_log``: the autosave's
``autosave.log.json``, the simulate runner's ``logs/game-NNNN.log.json``) or a
whole save (whose state carries its commands) once forward when it is opened,
command by command as ``replay`` does (``replay_command``): it holds the game
to the log's checks and its final hash (a log that does not replay raises
``SaveError`` naming where it parts), notes where every turn and phase begins
(``Mark``), and keeps the state at each of those points (and every
``SNAPSHOT_EVERY`` commands within a long phase) as the JSON text of
``GameState.to_dict`` without the game's history (event log, commands, check
hashes) and its sheets: the history only grows, so a kept state takes it back
as the first part of the whole game's, and the sheets are read once for all
kept states. A game of more than ``KEPT_STATES * SNAPSHOT_EVERY`` commands
keeps its states farther apart (about ``KEPT_STATES`` of them), so a replay's
memory grows with the game, not with its square (a 7,500-command game took
2.9 GB before). A step forward applies the next commands to the state held; a
step back restores the nearest kept state at or before the target and applies
the few commands after it, so no step replays the game from its start.

Positions: position ``k`` is the game after its first ``k`` commands (0: the
game set up, before any command; ``last``: the whole log). ``state_at(k)`` is
the game there, ``turn_start(t)`` the first position of turn ``t`` and
``turns()`` walks the game turn by turn. The replay window (``game.ui.replay``)
shows a timeline; nothing here draws.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.state.checks import ReplayChecker
from game.state.commands import command_from_dict
from game.state.engine import acting_side, apply
from game.state.model import Checks, Event, GameState, state_hash
from game.state.saves import (
    SAVE_FORMAT,
    SaveError,
    file_format,
    final_hash,
    game_log,
    load_game,
    load_log,
    mapless_note,
    replay,
    replay_command,
)

SNAPSHOT_EVERY = 12  # commands between kept states inside one long phase
KEPT_STATES = 200  # about the most kept states of a long game


def read_replay(path: str | Path) -> dict[str, Any]:
    """The game log of a replay file: a game log as it is, or a save's commands.

    ``SaveError`` names the file and the problem (missing, damaged, newer than
    this game, neither a log nor a save)."""
    p = Path(path)
    try:
        return load_log(p)
    except SaveError:
        if file_format(p) != SAVE_FORMAT:
            raise
    # A save holds the commands of its game: the log is rebuilt from them.
    return game_log(load_game(p))


@dataclass(frozen=True)
class Mark:
    """Where the game stood after some number of its commands."""

    turn: int
    phase: str
    acting: str | None  # the side to act next
    log_length: int  # events in the game's log so far
    by: str | None  # the side whose command led here (None at the start)

    @property
    def segment(self) -> tuple[int, str]:
        return self.turn, self.phase


class ReplayTimeline:
    """A game log replayed once, with quick access to the state after any command
    (see the module docstring)."""

    def __init__(self, log: dict[str, Any], source: str = "game log") -> None:
        self.source = source
        state = replay(log, upto=0)  # checks the log and loads its scenario
        self.log = log
        self.commands: list[dict[str, Any]] = list(log["commands"])
        self.sides: tuple[str, str] = state.sides
        self.turn_limit = state.turn_limit
        self.marks: list[Mark] = [_mark(state, None)]
        self._snapshots: dict[int, str] = {0: _snapshot(state)}
        spacing = max(SNAPSHOT_EVERY, -(-len(self.commands) // KEPT_STATES))
        # A phase start is kept when it is this far from the last kept state (always
        # in games of up to KEPT_STATES * SNAPSHOT_EVERY commands).
        phase_gap = spacing - SNAPSHOT_EVERY
        since = 0
        checker = ReplayChecker(log.get("checks"))
        for n, raw in enumerate(self.commands):
            try:
                replay_command(state, raw, checker, source)
            except SaveError as exc:
                raise SaveError(f"{exc}{mapless_note(log)}") from None
            except (KeyError, TypeError, IndexError) as exc:
                raise SaveError(
                    f"{source}: command {n + 1} of {len(self.commands)} does not replay: {exc}"
                ) from None
            mark = _mark(state, raw.get("side"))
            since += 1
            if (mark.segment != self.marks[-1].segment and since > phase_gap) or since >= spacing:
                self._snapshots[n + 1] = _snapshot(state)
                since = 0
            self.marks.append(mark)
        self.final_hash = state_hash(state)
        # The whole game's events and checks: a kept state's are their first part.
        self._events: tuple[Event, ...] = tuple(state.log)
        self._checks = state.checks
        # The game's sheets, read once: kept states leave them out.
        self._sheets = state.area.catalogue
        recorded = log.get("hash")
        if recorded is not None and recorded != final_hash(state, log):
            raise SaveError(
                f"{source}: the game log is damaged: replaying its {len(self.commands)} "
                f"commands does not reach the state it recorded (hash mismatch)"
                f"{mapless_note(log)}"
            )
        self.result = state.result
        self.scenario_name = str(state.options.get("name", ""))
        self._kept = sorted(self._snapshots)
        self._state = state
        self._position = self.last
        self._turn_starts: dict[int, int] = {}
        self._segment_starts: list[int] = []
        for k, mark in enumerate(self.marks):
            self._turn_starts.setdefault(mark.turn, k)
            if k == 0 or mark.segment != self.marks[k - 1].segment:
                self._segment_starts.append(k)

    @classmethod
    def from_file(cls, path: str | Path) -> ReplayTimeline:
        """The timeline of a game log or a save file (``SaveError`` for any problem)."""
        return cls(read_replay(path), str(path))

    @property
    def last(self) -> int:
        """The position after the last command."""
        return len(self.commands)

    @property
    def kept_states(self) -> int:
        return len(self._snapshots)

    def state_at(self, position: int) -> GameState:
        """The game after ``position`` commands. The state returned is the timeline's
        own: the next call may change it (a step forward applies commands to it)."""
        if not 0 <= position <= self.last:
            raise IndexError(f"position {position} is outside the replay (0 to {self.last})")
        base = self._kept[bisect.bisect_right(self._kept, position) - 1]
        if not base <= self._position <= position:
            data = json.loads(self._snapshots[base])
            data["log"], data["commands"] = [], []  # put back below
            state = GameState.from_dict(data, self._sheets)
            if self._state.area.to_dict() == data["area"]:
                # The same sheets: the state left behind hands over its area, so a
                # screen keeps what it drew of it.
                state.area = self._state.area
            state.log = list(self._events[: self.marks[base].log_length])
            state.commands = list(self.commands[:base])
            state.checks = Checks(
                list(self._checks.commands[:base]),
                [t for t in self._checks.turns if t.commands <= base],
            )
            self._state = state
            self._position = base
        while self._position < position:
            apply(self._state, command_from_dict(self.commands[self._position]))
            self._position += 1
        return self._state

    # --- where turns and phases begin ----------------------------------------------------

    @property
    def last_turn(self) -> int:
        return self.marks[-1].turn

    def turn_start(self, turn: int) -> int:
        """The first position in ``turn`` (turn 0: the set-up); ValueError past the log."""
        if turn not in self._turn_starts:
            raise ValueError(
                f"turn {turn} is not in this game (turns 0 to {self.last_turn}; 0 is the set-up)"
            )
        return self._turn_starts[turn]

    def turns(self) -> Iterator[tuple[int, GameState]]:
        """Each turn of the game (0: the set-up) with the game at its start, in order.
        Each state is the timeline's own and changes as the walk goes on: read what
        is needed of it before taking the next."""
        for turn in sorted(self._turn_starts):
            yield turn, self.state_at(self._turn_starts[turn])

    def next_turn(self, position: int) -> int:
        """The start of the next turn, or the end of the log."""
        turn = self.marks[position].turn
        return self._turn_starts.get(turn + 1, self.last)

    def previous_turn(self, position: int) -> int:
        """The start of the turn before the one at ``position`` (the set-up: the start)."""
        turn = self.marks[position].turn
        return self._turn_starts.get(turn - 1, 0)

    def next_phase(self, position: int) -> int:
        """The start of the next phase, or the end of the log."""
        k = bisect.bisect_right(self._segment_starts, position)
        return self._segment_starts[k] if k < len(self._segment_starts) else self.last

    def previous_phase(self, position: int) -> int:
        """The start of the phase before the one at ``position``."""
        k = bisect.bisect_right(self._segment_starts, position) - 1
        return self._segment_starts[max(0, k - 1)]

    def step_events(self, state: GameState, position: int) -> list[Event]:
        """The events the command that led to ``position`` caused (``state`` is the
        game at ``position``); at the start, the events of setting the game up."""
        start = self.marks[position - 1].log_length if position > 0 else 0
        return list(state.log[start : self.marks[position].log_length])


def _mark(state: GameState, by: object) -> Mark:
    return Mark(
        state.turn,
        state.phase,
        acting_side(state),
        len(state.log),
        by if isinstance(by, str) else None,
    )


def _snapshot(state: GameState) -> str:
    """The state as JSON text without its history (log, commands, checks) and its
    sheets: ``state_at`` puts them back. Text, not the dictionary: ``to_dict`` shares
    lists and tables with the live state, which the next commands change."""
    data = state.to_dict(history=False)
    del data["sheets"]
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
