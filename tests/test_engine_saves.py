"""Determinism, saves and replays (design principles 2, 4, 5), and bad files.

A game is (scenario, seed, commands): the same three give the same
``state_hash``; the log replays to it; a save loads back to it at every phase.
A corrupt, truncated, wrong-version or altered save or log raises ``SaveError``
with a message that names the file and the problem, and loads nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.sim.runner import GameSpec, start_game
from game.state import (
    DEFAULT_SCENARIO,
    GameState,
    SaveError,
    apply,
    autosave,
    command_from_dict,
    game_log,
    load_game,
    load_log,
    new_game,
    replay,
    save_game,
    save_log,
    state_hash,
)
from game.state.model import SAVE_VERSION, canonical_json
from tests.engine_fixtures import (
    RandomPlayer,
    battery,
    duel,
    end_setup,
    finish_turn,
    game,
    mech,
    play_random,
    random_step,
    shipped_scenarios,
)

ROOT = Path(__file__).resolve().parents[1]


def hunt(seed: int) -> GameState:
    """A small game where mobile maps, hidden batteries and every phase come up fast."""
    data = duel(
        mobile_maps=True,
        predesignated_hexes=True,
        sheet_table="pile",
        north_battery=battery("n-gun", "north", "north", 0, 1, "airfield", "0809"),
        extra_units=[mech("s-scout", "south", (0, 0), "0803", 1, walk=6)],
        turns=6,
    )
    return game(data, seed)


# --- determinism -------------------------------------------------------------------------


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_same_scenario_seed_and_commands_give_the_same_state(path) -> None:
    """Principle 5: replaying one game's commands on a new game of the same scenario
    and seed reaches the same state hash after every command."""
    first = new_game(path, 21)
    play_random(first, 3, max_turns=3, invariants=False)
    second = new_game(path, 21)
    assert state_hash(second) == state_hash(new_game(path, 21))
    for raw in first.commands:
        apply(second, command_from_dict(raw))
    assert state_hash(second) == state_hash(first)
    assert second.log == first.log


def test_another_seed_gives_another_game() -> None:
    """Principle 4: the seed is the game's dice: a different seed rolls differently."""
    a, b = new_game(DEFAULT_SCENARIO, 1), new_game(DEFAULT_SCENARIO, 2)
    end_setup(a)
    end_setup(b)
    assert a.initiative != b.initiative or state_hash(a) != state_hash(b)


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_replaying_the_game_log_reproduces_the_game(path, tmp_path) -> None:
    """Principle 5: game_log -> replay reaches the same hash, from a dict and from a
    log file written by save_log."""
    state = new_game(path, 5)
    play_random(state, 5, max_turns=3, invariants=False)
    log = game_log(state)
    assert state_hash(replay(log)) == state_hash(state) == log["hash"]
    save_log(state, tmp_path / "game.log.json")
    assert load_log(tmp_path / "game.log.json") == json.loads(canonical_json(log))
    assert state_hash(replay(tmp_path / "game.log.json")) == state_hash(state)
    # A partial replay stops where it is told to.
    half = len(state.commands) // 2
    partial = replay(log, upto=half)
    assert partial.commands == state.commands[:half]


def test_a_finished_game_replays_to_its_result() -> None:
    """Principle 5: a whole game, to its result, replays to the same result and hash."""
    state = hunt(8)
    play_random(state, 8)
    assert state.result is not None
    again = replay(game_log(state))
    assert again.result == state.result
    assert state_hash(again) == state_hash(state)


def test_the_hash_does_not_depend_on_how_the_scenario_file_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Principle 5: the same scenario, seed and commands give the same hash however
    the path to the scenario file is written. A shipped scenario is named
    ``maps/<file>`` from any folder and checkout, relative or absolute; any other
    file by its path tidied, so that ``./x.toml`` and ``x.toml`` are one game. A
    log keeps the name it was played under: it replays to its own hash."""
    shipped = ROOT / "maps" / "long_tom_hunt.toml"

    def played(path: str) -> GameState:
        state = new_game(path, 41)
        play_random(state, 41, max_turns=1, invariants=False)
        return state

    monkeypatch.chdir(ROOT)
    first = played("maps/long_tom_hunt.toml")
    assert first.scenario_path == "maps/long_tom_hunt.toml"
    # A headless run's games (``simulate``, ``sweep``) are named the same way.
    levels = (("north", "normal"), ("south", "normal"))
    hashes = {
        state_hash(start_game(GameSpec(named, 0, 41, levels)))
        for named in ("maps/long_tom_hunt.toml", str(shipped), DEFAULT_SCENARIO)
    }
    assert len(hashes) == 1
    monkeypatch.chdir(tmp_path)
    relative = os.path.relpath(shipped, tmp_path)
    for named in (str(shipped), DEFAULT_SCENARIO, relative, f"./{relative}"):
        assert state_hash(played(named)) == state_hash(first), named
    own = tmp_path / "mine" / "hunt.toml"
    own.parent.mkdir()
    own.write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(own.parent)
    mine = played("hunt.toml")
    assert mine.scenario_path == "hunt.toml"
    assert state_hash(played("./hunt.toml")) == state_hash(mine)
    assert state_hash(replay(game_log(mine))) == state_hash(mine)


def test_the_hash_does_not_depend_on_the_python_process() -> None:
    """Principle 5: the same game in two processes with different string hashing
    (PYTHONHASHSEED) reaches the same hash: no set order leaks into the rules."""
    script = (
        "from game.state import new_game, state_hash, DEFAULT_SCENARIO\n"
        "from tests.engine_fixtures import play_random\n"
        "s = new_game(DEFAULT_SCENARIO, 77)\n"
        "play_random(s, 77, max_turns=2, invariants=False)\n"
        "print(state_hash(s))\n"
    )
    hashes = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        )
        hashes.add(out.stdout.strip().splitlines()[-1])
    assert len(hashes) == 1


# --- saves ---------------------------------------------------------------------------------


def test_save_and_load_round_trip_at_every_phase(tmp_path) -> None:
    """Principle 2: at every phase of a game (set-up, movement, a sheet waiting to be
    placed, targeting, attacks, game over) a save loads back to the same hash, and the
    loaded game goes on exactly like the original."""
    state = hunt(3)
    player = RandomPlayer(3, exit_bias=0.3)
    seen: set[str] = set()
    path = tmp_path / "save.json"
    last = None
    for _ in range(3000):
        where = "pending" if state.pending_sheet is not None else state.phase
        if (state.turn, where) != last:
            last = (state.turn, where)
            seen.add(where)
            save_game(state, path)
            loaded = load_game(path)
            assert state_hash(loaded) == state_hash(state)
            assert loaded.to_dict() == json.loads(canonical_json(state.to_dict()))
            if state.result is None:
                twin = RandomPlayer(0, exit_bias=player.exit_bias)
                twin.rng.setstate(player.rng.getstate())
                random_step(loaded, twin)
                random_step(state, player)
                assert state_hash(loaded) == state_hash(state)
                continue
        if state.result is not None:
            break
        random_step(state, player)
    assert seen >= {"setup", "movement", "pending", "targeting", "attack", "over"}


def test_autosave_writes_a_save_and_a_log(tmp_path) -> None:
    """Principle 5: autosave leaves a full save and the game log, both loadable."""
    state = hunt(1)
    end_setup(state)
    finish_turn(state)
    path = autosave(state, tmp_path / "auto")
    assert state_hash(load_game(path)) == state_hash(state)
    assert state_hash(replay(tmp_path / "auto" / "autosave.log.json")) == state_hash(state)
    assert sorted(p.name for p in (tmp_path / "auto").iterdir()) == [
        "autosave.json",
        "autosave.log.json",
    ]


# --- bad files -------------------------------------------------------------------------------


@pytest.fixture
def saved(tmp_path) -> tuple[GameState, Path]:
    state = hunt(2)
    end_setup(state)
    finish_turn(state)
    path = tmp_path / "save.json"
    save_game(state, path)
    return state, path


def rewrite(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def bad_saves():
    """(name, how to spoil the file, words the message must hold)."""

    def truncate(p: Path) -> None:
        text = p.read_text(encoding="utf-8")
        p.write_text(text[: len(text) // 2], encoding="utf-8")

    def garbage(p: Path) -> None:
        p.write_bytes(b"\x00\x01 this is not a save \xff")

    return [
        ("truncated", truncate, "truncated"),
        ("corrupt bytes", garbage, "cannot read the save"),
        ("not json", lambda p: p.write_text("{save: yes}", encoding="utf-8"), "not valid JSON"),
        ("empty", lambda p: p.write_text("  \n", encoding="utf-8"), "empty"),
        ("a list", lambda p: p.write_text("[1, 2]", encoding="utf-8"), "expected a JSON object"),
        (
            "newer version",
            lambda p: rewrite(p, lambda d: d.update(version=SAVE_VERSION + 1)),
            "newer than this game",
        ),
        ("version 0", lambda p: rewrite(p, lambda d: d.update(version=0)), "impossible version"),
        ("no version", lambda p: rewrite(p, lambda d: d.pop("version")), "no version number"),
        (
            "another format",
            lambda p: rewrite(p, lambda d: d.update(format="barrage-log")),
            "not a Barrage save",
        ),
        (
            "altered unit",
            lambda p: rewrite(p, lambda d: d["state"]["units"][0].update(facing=3)),
            "do not match its checksum",
        ),
        (
            "altered dice",
            lambda p: rewrite(p, lambda d: d["state"]["dice"].update(state=12345)),
            "do not match its checksum",
        ),
        ("altered hash", lambda p: rewrite(p, lambda d: d.update(hash="0" * 64)), "checksum"),
        (
            "missing table",
            lambda p: rewrite(p, lambda d: d["state"].pop("queue")),
            "the save is damaged",
        ),
        (
            "wrong kind of value",
            lambda p: rewrite(p, lambda d: d["state"].update(turn="three")),
            "the save is damaged",
        ),
        (
            "unknown sheet",
            lambda p: rewrite(
                p, lambda d: d["state"]["area"]["sheets"][0].update(sheet="atlantis")
            ),
            "the save is damaged",
        ),
    ]


@pytest.mark.parametrize("name, spoil, words", bad_saves(), ids=[b[0] for b in bad_saves()])
def test_a_bad_save_raises_save_error_naming_the_file_and_loads_nothing(
    saved, name, spoil, words
) -> None:
    """Bad input: every spoiled save gives SaveError with the file's name and the problem."""
    _, path = saved
    spoil(path)
    with pytest.raises(SaveError) as err:
        load_game(path)
    message = str(err.value)
    assert str(path) in message
    assert words in message
    assert "Traceback" not in message


def test_a_missing_save_is_a_save_error(tmp_path) -> None:
    with pytest.raises(SaveError, match="no such save file"):
        load_game(tmp_path / "nothing.json")


def test_saving_never_leaves_half_a_file(saved) -> None:
    """A save is written atomically: no temporary file is left beside it, and writing
    over an old save replaces it whole."""
    state, path = saved
    finish_turn(state)
    save_game(state, path)
    assert [p.name for p in path.parent.iterdir()] == ["save.json"]
    assert state_hash(load_game(path)) == state_hash(state)


@pytest.fixture
def logged(tmp_path) -> tuple[GameState, Path]:
    state = hunt(4)
    play_random(state, 4, max_turns=2, invariants=False)
    path = tmp_path / "game.log.json"
    save_log(state, path)
    return state, path


@pytest.mark.parametrize("what", ["seed", "move"])
def test_an_altered_log_does_not_replay(logged, what) -> None:
    """Bad input: a log whose seed or a move was changed (so the game differs) gives
    SaveError: a hash mismatch, or the command that no longer replays."""
    _, path = logged
    data = json.loads(path.read_text(encoding="utf-8"))
    if what == "seed":
        data["seed"] += 1  # the same commands, other dice
    else:
        move = next(c for c in data["commands"] if c["kind"] == "move")
        move["facing"] = move["facing"] % 6 + 1
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=r"hash mismatch|does not replay"):
        replay(path)


def test_a_log_whose_hash_was_altered_is_refused(logged) -> None:
    state, path = logged
    rewrite(path, lambda d: d.update(hash="f" * 64))
    with pytest.raises(SaveError, match="hash mismatch"):
        replay(path)
    # The game in it still replays when only part of it is asked for.
    assert replay(path, upto=3).commands == state.commands[:3]


def bad_logs():
    return [
        ("newer version", lambda d: d.update(version=SAVE_VERSION + 1), "newer than this game"),
        ("no commands", lambda d: d.pop("commands"), "has no 'commands'"),
        ("commands not a list", lambda d: d.update(commands="all"), "must be a list"),
        ("bad seed", lambda d: d.update(seed="seven"), "seed must be a whole number"),
        ("no scenario", lambda d: d.pop("scenario"), "has no 'scenario'"),
        (
            "broken scenario",
            lambda d: d["scenario"]["scenario"].update(home_edges="up-down"),
            "its scenario does not load",
        ),
        (
            "unknown command",
            lambda d: d["commands"].insert(0, {"kind": "teleport", "side": "north"}),
            "command 1 does not replay: unknown command kind 'teleport'",
        ),
        (
            "malformed hex",
            lambda d: d["commands"].insert(
                0, {"kind": "predesignate", "side": "north", "hex": "0809"}
            ),
            "command 1 does not replay: predesignate command: hex must be a hex",
        ),
        (
            "illegal command",
            lambda d: d["commands"].insert(0, {"kind": "end_phase", "side": "south"}),
            "command 1 does not replay: it is north's turn",
        ),
        ("a different format", lambda d: d.update(format="barrage-save"), "not a Barrage game log"),
    ]


@pytest.mark.parametrize("name, spoil, words", bad_logs(), ids=[b[0] for b in bad_logs()])
def test_a_bad_log_raises_save_error(logged, name, spoil, words) -> None:
    """Bad input: spoiled logs give SaveError with the file and the problem."""
    _, path = logged
    rewrite(path, spoil)
    with pytest.raises(SaveError) as err:
        replay(path)
    assert words in str(err.value)
    assert str(path) in str(err.value)


def test_a_truncated_log_is_a_save_error(logged) -> None:
    _, path = logged
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:-40], encoding="utf-8")
    with pytest.raises(SaveError, match="truncated"):
        load_log(path)
    with pytest.raises(SaveError, match="truncated"):
        replay(path)


def test_a_log_given_as_a_dict_is_checked_too(logged) -> None:
    """replay(dict) checks the log like a file: a bad seed is a SaveError, not a crash."""
    state, _ = logged
    log = game_log(state)
    log["seed"] = None
    with pytest.raises(SaveError, match="seed must be a whole number"):
        replay(log)
