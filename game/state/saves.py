"""Saves, game logs and replays (design principle 5).

A save is the whole state as versioned JSON with its hash, written atomically
(a temporary file in the same folder, flushed to disk, then renamed over the
old one), so a crash never leaves half a save. A corrupt, truncated, altered
or newer-version file raises ``SaveError`` and loads nothing.

A game log is (scenario, seed, sheets, commands, checks): ``replay`` rebuilds
the game from it and must reach the same ``state_hash``. Saves and logs carry
the sheets of their game (every sheet of the catalogue its dice draw from, once,
by id; the area names them by id), so a sheet file added, renamed or edited on
disk changes no saved game. The checks (``game.state.checks``) name the first
turn and command where a replay parts from the game recorded. Files of version 1
kept sheet ids only: they are replayed with the sheet files on disk.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from game.board.sheet import (
    Sheet,
    SheetError,
    available_sheets,
    catalogue_from_dict,
    catalogue_to_dict,
    sheets_dir,
)
from game.limits import NESTING_LIMIT, SAVE_FILE_BYTES, nesting_refusal, read_bytes
from game.scenario import ScenarioError, scenario_from_dict
from game.state.checks import ReplayChecker, describe
from game.state.commands import IllegalCommand, command_from_dict
from game.state.engine import apply
from game.state.model import (
    MAPLESS_VERSION,
    SAVE_VERSION,
    Checks,
    GameState,
    canonical_json,
    mapless_hash,
    state_hash,
)
from game.state.sealing import Seal, SealError, open_box, sealed_sides
from game.state.setup import new_game

SAVE_FORMAT = "barrage-save"
LOG_FORMAT = "barrage-log"


class SaveError(ValueError):
    """A save or log file cannot be loaded; the message names the file and the problem."""


class SealedSaveError(SaveError):
    """A hot-seat save or log needs its sides' passphrases (``sides``), or one is wrong."""

    def __init__(self, message: str, sides: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.sides = tuple(sides)


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, flushed to disk, then rename
    it over ``path``: a crash leaves the old file or the new one, never half of one."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# A temporary file of ``write_atomically`` older than this was left by a game that
# was killed while writing (a write takes milliseconds).
STALE_TEMP_SECONDS = 60.0


def clean_stale_temp_files(folder: str | Path) -> list[Path]:
    """Remove the temporary files (``.NAME.XXXX.tmp``) a killed game left in
    ``folder``; those younger than ``STALE_TEMP_SECONDS`` may be being written by a
    game running now and stay. Returns the files removed."""
    removed = []
    limit = time.time() - STALE_TEMP_SECONDS
    try:
        found = sorted(Path(folder).glob(".*.tmp"))
    except OSError:
        return removed
    for path in found:
        try:
            if path.is_file() and path.stat().st_mtime < limit:
                path.unlink()
                removed.append(path)
        except OSError:
            continue  # gone meanwhile, or not ours to remove
    return removed


def _sealed_text(data: dict[str, Any], fmt: str, seal: Seal | None) -> str:
    text = canonical_json(data)
    if seal is None:
        return text
    box = seal.seal(text.encode("utf-8"))
    return canonical_json({"format": fmt, "version": SAVE_VERSION, "sealed": box})


def save_game(state: GameState, path: str | Path, seal: Seal | None = None) -> None:
    """Write the whole game to ``path`` atomically; with ``seal`` (a hot-seat game)
    sealed with both sides' passphrases."""
    data = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "hash": state_hash(state),
        "state": state.to_dict(),
    }
    write_atomically(path, _sealed_text(data, SAVE_FORMAT, seal))


def _no_constant(name: str) -> float:
    """JSON's Infinity and NaN are no numbers a game holds."""
    raise ValueError(f"{name} is not a number a game holds")


def _read_json(path: str | Path, what: str) -> dict[str, Any]:
    """A save or log file as a JSON object, within the limits (game/limits.py)."""
    p = Path(path)
    try:
        text = read_bytes(p, SAVE_FILE_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise SaveError(f"{p}: no such {what} file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"{p}: cannot read the {what}: {exc}") from None
    except ValueError as exc:
        raise SaveError(f"{p}: cannot read the {what}: {exc}") from None
    return _parse_json(p, text, what)


def _parse_json(p: Path | str, text: str, what: str) -> dict[str, Any]:
    if not text.strip():
        raise SaveError(f"{p}: the {what} file is empty")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        # Saves and logs are one JSON object: one that never closes was cut short.
        body = text.strip()
        truncated = exc.pos >= len(body) - 1 or (body.startswith("{") and not body.endswith("}"))
        cut = " (the file looks truncated)" if truncated else ""
        raise SaveError(
            f"{p}: the {what} is damaged: not valid JSON at line {exc.lineno}, "
            f"column {exc.colno}{cut}"
        ) from None
    except RecursionError:
        raise SaveError(
            f"{p}: the {what} is damaged: lists and tables nest more than "
            f"{NESTING_LIMIT} levels deep"
        ) from None
    except ValueError as exc:  # Infinity, NaN, an integer of thousands of digits
        raise SaveError(f"{p}: the {what} is damaged: {exc}") from None
    too_deep = nesting_refusal(data)
    if too_deep:
        raise SaveError(f"{p}: the {what} is damaged: {too_deep}")
    if not isinstance(data, dict):
        raise SaveError(f"{p}: the {what} is damaged: expected a JSON object")
    return data


def _unsealed(
    p: Path | str, data: dict[str, Any], what: str, passphrases: Mapping[str, str] | None
) -> dict[str, Any]:
    """A hot-seat save or log opened with both sides' passphrases (game/state/sealing.py);
    a plain one as it is."""
    if "sealed" not in data:
        return data
    try:
        sides = sealed_sides(data["sealed"])
    except SealError as exc:
        raise SaveError(f"{p}: the {what} is damaged: {exc}") from None
    try:
        plain = open_box(data["sealed"], passphrases)
    except SealError as exc:
        raise SealedSaveError(
            f"{p}: the {what} of a hot-seat game is sealed with each side's passphrase: {exc}",
            sides=sides,
        ) from None
    try:
        inner = _parse_json(p, plain.decode("utf-8"), what)
    except UnicodeDecodeError:
        raise SaveError(f"{p}: the sealed {what} is damaged") from None
    if "sealed" in inner:
        raise SaveError(f"{p}: the sealed {what} is damaged: it is sealed twice")
    return inner


def file_format(path: str | Path) -> object:
    """The ``format`` a save or log file names; None when it cannot be read as one."""
    try:
        return _read_json(Path(path), "file").get("format")
    except SaveError:
        return None


def _check_header(p: Path, data: dict[str, Any], fmt: str, what: str) -> None:
    if data.get("format") != fmt:
        raise SaveError(f"{p}: not a Barrage {what} (format {data.get('format')!r})")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(f"{p}: the {what} has no version number")
    if version > SAVE_VERSION:
        raise SaveError(
            f"{p}: the {what} is version {version}, newer than this game "
            f"(version {SAVE_VERSION}); update the game to open it"
        )
    if version < 1:
        raise SaveError(f"{p}: the {what} has an impossible version {version}")


def load_game(path: str | Path, passphrases: Mapping[str, str] | None = None) -> GameState:
    """Read a save; SaveError (and nothing loaded) for any problem.

    The save is checked as a game, not only as bytes: its commands are replayed
    from its scenario and seed, and the game they reach must be the one saved
    (its hash). So every loaded game is one the engine itself played; an edited
    save, even with its checksum written anew, is refused. A sealed hot-seat save
    needs ``passphrases`` (side -> passphrase): ``SealedSaveError`` without them.
    """
    p = Path(path)
    data = _read_json(p, "save")
    _check_header(p, data, SAVE_FORMAT, "save")
    data = _unsealed(p, data, "save", passphrases)
    _check_header(p, data, SAVE_FORMAT, "save")
    saved = data.get("state")
    if not isinstance(saved, dict):
        raise SaveError(f"{p}: the save is damaged: it holds no game state")
    if hashlib.sha256(canonical_json(saved).encode("utf-8")).hexdigest() != data.get("hash"):
        raise SaveError(f"{p}: the save is damaged: its contents do not match its checksum")
    options = saved.get("options")
    log = {
        "format": LOG_FORMAT,
        "version": data["version"],
        "scenario_path": saved.get("scenario_path", ""),
        "scenario_id": options.get("id", "") if isinstance(options, dict) else "",
        "scenario": saved.get("scenario"),
        "seed": saved.get("seed"),
        "commands": saved.get("commands"),
        "hash": data["hash"],
    }
    for key in ("sheets", "checks"):  # version 2 on
        if key in saved:
            log[key] = saved[key]
    try:
        return replay(log)
    except SaveError as exc:
        reason = str(exc).removeprefix("game log: ")
        raise SaveError(f"{p}: the save does not hold a game this engine plays: {reason}") from None


def game_log(state: GameState) -> dict[str, Any]:
    """The replayable record of a game: scenario, seed, its sheets, commands, the
    checks of each command and turn, final hash; and the turn and result it stands at."""
    return {
        "format": LOG_FORMAT,
        "version": SAVE_VERSION,
        "scenario_path": state.scenario_path,
        "scenario_id": str(state.options.get("id", "")),
        "scenario": state.scenario,
        "seed": state.seed,
        "sheets": catalogue_to_dict(state.area.catalogue),
        "commands": list(state.commands),
        "checks": state.checks.to_dict(),
        "hash": state_hash(state),
        # How the game stood when the log was written, for lists of logs (not replayed).
        "turn": state.turn,
        "result": state.result.to_dict() if state.result is not None else None,
    }


def save_log(state: GameState, path: str | Path, seal: Seal | None = None) -> None:
    """Write the game log atomically (autosave writes this every turn); sealed like
    ``save_game`` with ``seal``."""
    write_atomically(path, _sealed_text(game_log(state), LOG_FORMAT, seal))


def _check_log(p: Path | str, data: dict[str, Any]) -> None:
    _check_header(Path(p), data, LOG_FORMAT, "game log")
    for key in ("scenario", "seed", "commands"):
        if key not in data:
            raise SaveError(f"{p}: the game log has no {key!r}")
    if not isinstance(data["scenario"], dict):
        raise SaveError(f"{p}: the game log's scenario is not a table")
    seed = data["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or not -(2**64) < seed < 2**64:
        raise SaveError(
            f"{p}: the game log's seed must be a whole number below 2**64 in size, not {seed!r}"
        )
    if not isinstance(data.get("scenario_path", ""), str):
        raise SaveError(f"{p}: the game log's scenario_path must be text")
    if not isinstance(data.get("scenario_id", ""), str):
        raise SaveError(f"{p}: the game log's scenario_id must be text")
    if not isinstance(data["commands"], list):
        raise SaveError(f"{p}: the game log's commands must be a list")
    if "hash" in data and not isinstance(data["hash"], str):
        raise SaveError(f"{p}: the game log's hash must be text")
    if data["version"] == MAPLESS_VERSION:
        return
    for key in ("sheets", "checks"):
        if not isinstance(data.get(key), dict):
            raise SaveError(f"{p}: the game log has no {key!r} table (a version 2 log has)")
    try:
        Checks.from_dict(data["checks"])
    except (KeyError, TypeError, ValueError, IndexError):
        raise SaveError(f"{p}: the game log's checks are damaged") from None


def _log_sheets(source: str, log: dict[str, Any]) -> dict[str, Sheet]:
    """The sheets a log's game is played with: those it carries, or for a log of
    version 1 (sheet ids only) the sheet files on disk now."""
    try:
        if log["version"] == MAPLESS_VERSION:
            return available_sheets()
        return catalogue_from_dict(log["sheets"], "its sheets")
    except SheetError as exc:
        raise SaveError(f"{source}: {exc}") from None


def mapless_note(log: dict[str, Any]) -> str:
    """Why a log of version 1 may no longer replay: its sheets came from the files."""
    if log["version"] != MAPLESS_VERSION:
        return ""
    return (
        f"; it was written by an older version of the game that kept only the names of "
        f"its sheets, so it was replayed with the sheet files in {sheets_dir()} as they "
        "are now: if they changed since, the game cannot be replayed"
    )


def load_log(path: str | Path, passphrases: Mapping[str, str] | None = None) -> dict[str, Any]:
    p = Path(path)
    data = _read_json(p, "game log")
    _check_header(p, data, LOG_FORMAT, "game log")
    data = _unsealed(p, data, "game log", passphrases)
    _check_log(p, data)
    return data


def replay(
    log: dict[str, Any] | str | Path,
    upto: int | None = None,
    passphrases: Mapping[str, str] | None = None,
) -> GameState:
    """Rebuild a game from its log (a dict or a log file); ``upto`` stops after
    that many commands. SaveError when the log does not replay, or when a whole
    replay does not reach the state hash the log recorded (an altered log)."""
    source = "game log"
    if not isinstance(log, dict):
        source = str(log)
        log = load_log(log, passphrases)
    else:
        _check_log(source, log)
    # The scenario's id is its file's stem: name the source after it so the replayed
    # game carries the same id (and hash) even when it was built without a file.
    named = log.get("scenario_path") or (
        f"{log['scenario_id']}.toml" if log.get("scenario_id") else source
    )
    sheets = _log_sheets(source, log)
    try:
        scenario = scenario_from_dict(log["scenario"], str(named), sheets=sheets)
        state = new_game(scenario, int(log["seed"]), sheets=sheets)
    except (ScenarioError, ValueError) as exc:
        raise SaveError(f"{source}: its scenario does not load: {exc}") from None
    state.scenario_path = str(log.get("scenario_path", ""))
    commands = log["commands"] if upto is None else log["commands"][:upto]
    checker = ReplayChecker(log.get("checks"))
    try:
        for raw in commands:
            replay_command(state, raw, checker, source)
    except SaveError as exc:
        raise SaveError(f"{exc}{mapless_note(log)}") from None
    recorded = log.get("hash")
    if upto is None and recorded is not None and final_hash(state, log) != recorded:
        raise SaveError(
            f"{source}: the game log is damaged: replaying its {len(commands)} commands does "
            f"not reach the state it recorded (hash mismatch){mapless_note(log)}"
        )
    return state


def replay_command(
    state: GameState, raw: dict[str, Any], checker: ReplayChecker, source: str
) -> None:
    """Carry out the next command of a log (``raw``, as the log holds it) and hold the
    game to the checks the log recorded; SaveError names the turn and the command
    where the replay parts from the game recorded."""
    n = len(state.commands) + 1
    turn = state.turn
    try:
        apply(state, command_from_dict(raw))
    except (IllegalCommand, ValueError) as exc:
        raise SaveError(
            f"{source}: command {n} does not replay: {exc} (the log diverges at turn {turn}, "
            f"command {n}: {describe(raw)})"
        ) from None
    parted = checker.after(state, raw, turn)
    if parted is not None:
        raise SaveError(f"{source}: the game log does not replay as recorded: {parted}")


def final_hash(state: GameState, log: dict[str, Any]) -> str:
    """The state's hash as the log's version wrote it, to compare with the log's ``hash``."""
    return mapless_hash(state) if log["version"] == MAPLESS_VERSION else state_hash(state)


def autosave(state: GameState, folder: str | Path, seal: Seal | None = None) -> Path:
    """Write the game log and a full save into ``folder`` (called every turn); a
    hot-seat game gives its ``seal``, and both files are sealed."""
    folder = Path(folder)
    save_game(state, folder / "autosave.json", seal)
    save_log(state, folder / "autosave.log.json", seal)
    return folder / "autosave.json"
