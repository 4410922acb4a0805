"""Loading checks the game, not only the bytes: a save is replayed from its scenario,
seed and commands, and must reach the game it holds. Every problem of a save or log
is a SaveError naming the file, from the API and from ``main.py``."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.limits import SAVE_FILE_BYTES
from game.state import SaveError, game_log, load_game, new_game, replay, save_game, state_hash
from game.state.model import canonical_json
from tests.engine_fixtures import play_random

ROOT = Path(__file__).resolve().parents[1]
HUNT = ROOT / "maps" / "long_tom_hunt.toml"


@pytest.fixture(scope="module")
def played():
    state = new_game(HUNT, 8)
    play_random(state, 8, max_turns=2, invariants=False)
    return state


@pytest.fixture
def save(played, tmp_path) -> Path:
    path = tmp_path / "game.json"
    save_game(played, path)
    return path


def forge(path: Path, change) -> None:
    """Edit the state in a save and write its checksum anew, as a forger would."""
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data["state"])
    data["hash"] = hashlib.sha256(canonical_json(data["state"]).encode("utf-8")).hexdigest()
    path.write_text(json.dumps(data), encoding="utf-8")


def first_unit(state: dict, **changes) -> None:
    state["units"][0].update(changes)


def first_battery(state: dict, **changes) -> None:
    next(u for u in state["units"] if u["battery"])["battery"].update(changes)


FORGERIES = {
    "a unit of side purple": lambda s: first_unit(s, side="purple"),
    "turn 500 of 20": lambda s: s.update(turn=500),
    "negative armour": lambda s: s["units"][0]["damage"].update(armour=-5),
    "unknown system": lambda s: first_unit(s, system="chess"),
    "unknown weapon": lambda s: first_battery(s, weapon="trebuchet"),
    "a plot nobody fired": lambda s: s["queue"]["plots"].append(
        {"id": 99, "side": "north", "battery": "nobody"}
    ),
    "no phase": lambda s: s.update(phase="lunch"),
    "active side gone": lambda s: s.update(active="purple"),
    "a position of 1e30": lambda s: s["area"]["sheets"][0].update(position=[1e30, 0]),
    "a game already won": lambda s: s.update(result={"winner": "north", "reason": "", "turn": 1}),
    "more ammunition": lambda s: first_battery(s, ammunition={"standard": 1000}),
}


@pytest.mark.parametrize("name", FORGERIES)
def test_a_forged_save_with_a_new_checksum_is_refused(save, name) -> None:
    """Forged saves: the checksum is unkeyed, so 87 edited saves with checksums written
    anew loaded (29 crashed later, 46 silently). Now the commands are replayed and
    must reach the saved game."""
    forge(save, FORGERIES[name])
    with pytest.raises(SaveError) as caught:
        load_game(save)
    assert str(save) in str(caught.value)
    assert "does not hold a game this engine plays" in str(caught.value)


def test_a_forged_command_list_is_refused_with_the_command(save) -> None:
    forge(save, lambda s: s["commands"].insert(0, {"kind": "end_phase", "side": "purple"}))
    with pytest.raises(SaveError, match="command 1 does not replay"):
        load_game(save)


def test_a_sound_save_loads_as_the_game_it_holds(played, save) -> None:
    loaded = load_game(save)
    assert state_hash(loaded) == state_hash(played)
    assert loaded.commands == played.commands


def damaged(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_infinity_in_a_save_is_a_save_error(save) -> None:
    """ "turn": Infinity escaped as OverflowError."""
    damaged(save, '"turn":', '"turn":Infinity,"x":')
    with pytest.raises(SaveError, match="Infinity is not a number a game holds"):
        load_game(save)


def test_deep_nesting_in_a_save_is_a_save_error(save) -> None:
    """1,000-deep nesting escaped as RecursionError; 100 deep is refused too."""
    for depth in (100, 100_000):
        damaged(save, '"turn":', f'"deep":{"[" * depth}{"]" * depth},"turn":')
        with pytest.raises(SaveError, match="nest more than 32 levels deep"):
            load_game(save)
        damaged(save, f'"deep":{"[" * depth}{"]" * depth},', "")


def test_a_huge_integer_in_a_save_is_a_save_error(save) -> None:
    """A 4,300-digit integer escaped as ValueError from int()."""
    damaged(save, '"turn":', f'"turn":{"9" * 4400},"x":')
    with pytest.raises(SaveError, match="the save is damaged"):
        load_game(save)


def test_version_true_is_no_version(save) -> None:
    """ "version": true loaded as version 1 (a bool is an int in Python)."""
    data = json.loads(save.read_text(encoding="utf-8"))
    data["version"] = True
    save.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match="no version number"):
        load_game(save)


def test_a_save_over_the_size_limit_is_refused(tmp_path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(SAVE_FILE_BYTES + 1)
    with pytest.raises(SaveError, match="larger than 64,000,000 bytes"):
        load_game(path)


def test_replay_of_a_fifo_is_refused_without_waiting(tmp_path) -> None:
    """replay on a FIFO hung, waiting for a writer."""
    fifo = tmp_path / "game.log.json"
    os.mkfifo(fifo)
    with pytest.raises(SaveError, match="not a plain file"):
        replay(fifo)


def test_a_log_with_a_far_sheet_position_is_a_save_error(played) -> None:
    """A layout position of 1e30 escaped replay as a traceback; 200,000,000 overflowed."""
    for far in (1e30, 200_000_000):
        log = game_log(played)
        log["scenario"] = json.loads(json.dumps(log["scenario"]))
        log["scenario"]["layout"][0]["position"] = [far, 0]
        with pytest.raises(SaveError, match="its scenario does not load"):
            replay(log)


def test_a_log_with_a_3000_sheet_area_is_refused_before_play(played) -> None:
    """A 3,000-sheet log exhausted memory in replay."""
    log = game_log(played)
    log["scenario"] = json.loads(json.dumps(log["scenario"]))
    sheet = log["scenario"]["layout"][0]["sheet"]
    log["scenario"]["layout"] = [
        {"position": [i % 60, i // 60], "sheet": sheet} for i in range(3000)
    ]
    with pytest.raises(SaveError, match="a play area holds at most 256 sheets"):
        replay(log)


def test_main_load_of_a_forged_save_is_a_message_not_a_traceback(save, tmp_path) -> None:
    """main.py --load showed a traceback where replay said "hash mismatch"."""
    forge(save, FORGERIES["a unit of side purple"])
    env = dict(os.environ, BARRAGE_HOME=str(tmp_path / "home"), SDL_VIDEODRIVER="dummy")
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--load", str(save), "--frames", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.startswith(f"main.py: cannot start: {save}: the save does not hold a game")
    assert "Traceback" not in done.stderr


def test_replay_keeps_few_states_and_none_holds_the_event_log(played, monkeypatch) -> None:
    """Replay memory grew with the square of the game: every kept state held the whole
    event log (a 7,482-command game needed 3.7 GB). Kept states now hold no log or
    commands, and a long game keeps about KEPT_STATES of them; every position still
    gives the state of a plain replay."""
    from game.state import timeline as timeline_module

    monkeypatch.setattr(timeline_module, "KEPT_STATES", 4)
    log = game_log(played)
    timeline = timeline_module.ReplayTimeline(log)
    assert timeline.kept_states <= 2 * 4 + 1
    for text in timeline._snapshots.values():
        state = json.loads(text)
        assert "log" not in state and "commands" not in state
    last = timeline.last
    for k in (last, 0, last // 2, last // 2 + 1, 1, last - 1, last // 3):
        assert state_hash(timeline.state_at(k)) == state_hash(replay(log, upto=k)), k


def test_the_replay_window_refuses_a_fifo_and_deep_nesting_cleanly(tmp_path) -> None:
    """main.py replay read a file a second time to tell a save from a log: a FIFO hung
    there and 1,000-deep nesting escaped as RecursionError."""
    from game.state.timeline import read_replay

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 1000 + "]" * 1000, encoding="utf-8")
    for path, words in ((fifo, "not a plain file"), (deep, "nest more than 32 levels deep")):
        with pytest.raises(SaveError, match=words):
            read_replay(path)
