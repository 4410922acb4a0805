"""The logs of finished games that the menu's Replays lists (``$BARRAGE_HOME/logs``).

Every game played to its end in the window leaves its game log there (``keep_log``,
called by the session when the result is known). A log is named after its scenario
and the hash of the game's last state, so the same game is kept once however often
it is finished or loaded. Finished games are kept unsealed, hot-seat ones too: the
result is known and a replay shows both sides anyway; the sealing of a hot-seat game
(game/state/sealing.py) guards its saves while it is played.

``list_logs`` reads every log of the folder, newest first, with what the list shows:
scenario, date, turns, result. A log that does not read (damaged, sealed, of a newer
version) is listed with its problem rather than left out. No pygame here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.state import GameState, SaveError, save_log, state_hash
from game.state.saves import load_log

LOG_SUFFIX = ".log.json"


@dataclass
class LogEntry:
    """One game log as the Replays list shows it."""

    path: Path
    scenario: str
    written: float  # when the file was written (seconds since the epoch)
    turns: int | None
    result: str  # "North won", "Draw", "not finished"
    reason: str = ""  # why the game ended, as the engine said it
    sides: dict[str, str] = field(default_factory=dict)  # side -> its label
    problem: str = ""  # why the log cannot be replayed (empty when it can)

    @property
    def date(self) -> str:
        when = time.localtime(self.written)
        return f"{when.tm_mday} {time.strftime('%b %Y %H:%M', when)}"

    def line(self) -> str:
        """The log's row in the list."""
        if self.problem:
            return f"{self.path.name}: cannot be replayed"
        turns = f"{self.turns} turn{'s' if self.turns != 1 else ''}" if self.turns else "no turn"
        return f"{self.scenario}  ·  {self.date}  ·  {turns}  ·  {self.result}"


def log_name(state: GameState) -> str:
    """The file name of a game's log: its scenario and the hash of where it ended."""
    scenario = str(state.options.get("id") or "game")
    return f"{scenario}-{state_hash(state)[:12]}{LOG_SUFFIX}"


def keep_log(state: GameState, folder: Path) -> Path:
    """Write a finished game's log into ``folder`` (once: a log already there is the
    same game) and return its path; OSError when it cannot be written."""
    path = folder / log_name(state)
    if not path.is_file():
        save_log(state, path)
    return path


def _side_labels(scenario: object) -> dict[str, str]:
    sides = scenario.get("sides") if isinstance(scenario, dict) else None
    out: dict[str, str] = {}
    for s in sides if isinstance(sides, list) else []:
        if isinstance(s, dict) and isinstance(s.get("name"), str):
            label = s.get("label")
            out[s["name"]] = str(label).strip() if isinstance(label, str) and label else s["name"]
    return out


def _turns(log: dict[str, Any]) -> int | None:
    turn = log.get("turn")
    if isinstance(turn, int) and not isinstance(turn, bool) and turn >= 0:
        return turn
    checks = log.get("checks")
    marks = checks.get("turns") if isinstance(checks, dict) else None
    if isinstance(marks, list) and marks and isinstance(marks[-1], dict):
        last = marks[-1].get("turn")
        if isinstance(last, int) and not isinstance(last, bool):
            return last
    return None


def _result(log: dict[str, Any]) -> tuple[str, str]:
    result = log.get("result")
    if not isinstance(result, dict):
        return "not finished", ""
    winner = result.get("winner")
    reason = result.get("reason")
    reason = reason if isinstance(reason, str) else ""
    if winner is None:
        return "Draw", reason
    if isinstance(winner, str):
        return f"{winner.capitalize()} won", reason
    return "not finished", ""


def read_log_entry(path: Path) -> LogEntry:
    """What the list shows of one log file (its problem when it does not read)."""
    try:
        written = path.stat().st_mtime
    except OSError:
        written = 0.0
    try:
        log = load_log(path)
    except SaveError as exc:
        return LogEntry(path, path.name, written, None, "", problem=str(exc))
    scenario = log["scenario"]
    head = scenario.get("scenario")
    name = head.get("name") if isinstance(head, dict) else None
    sides = _side_labels(scenario)
    result, reason = _result(log)
    return LogEntry(
        path=path,
        scenario=name if isinstance(name, str) and name else str(log.get("scenario_id") or "?"),
        written=written,
        turns=_turns(log),
        result=result,
        reason=reason,
        sides=sides,
    )


def list_logs(folder: Path) -> list[LogEntry]:
    """Every game log in ``folder``, the newest first."""
    try:
        paths = [p for p in folder.glob(f"*{LOG_SUFFIX}") if p.is_file()]
    except OSError:
        return []
    entries = [read_log_entry(p) for p in paths]
    entries.sort(key=lambda e: (-e.written, e.path.name))
    return entries
