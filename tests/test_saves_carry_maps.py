"""Saves and game logs carry their maps, and check every command and turn.

A game keeps the sheets it was started with: those of its area and the whole
catalogue its dice draw new sheets from (MAP-7, MAP-8 pile, MAP-9 table). Saves
and logs store them, so a sheet file added, renamed or edited on disk afterwards
changes no saved game: the old log replays and the old save loads to the same
state hash. The checks recorded as the game was played name the turn and the
command where a replay parts from it. Files of version 1 (sheet ids only) load
with the sheet files on disk, or give a clear message.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

import main
from game.board.sheet import (
    SHEETS_ENV,
    Sheet,
    available_sheets,
    catalogue_from_dict,
    catalogue_to_dict,
    load_sheet,
    sheet_to_dict,
)
from game.board.terrain import CLEAR, HEAVY_WOODS
from game.scenario import load_scenario, scenario_from_dict
from game.state import (
    GameState,
    SaveError,
    load_game,
    new_game,
    player_view,
    replay,
    save_game,
    save_log,
    state_hash,
)
from game.state.checks import position_hash
from game.state.model import MAPLESS_VERSION, digest, mapless_hash
from game.state.sealing import Seal
from game.state.timeline import ReplayTimeline
from tests.engine_fixtures import play_random

ROOT = Path(__file__).resolve().parents[1]
HUNT = ROOT / "maps" / "long_tom_hunt.toml"
DATA = Path(__file__).resolve().parent / "data"
SEED = 8


def sheet_file_text(sheet: Sheet) -> str:
    """A sheet file (docs/sheets.md) holding ``sheet``."""
    data = sheet_to_dict(sheet)
    lines = [
        f"id = {json.dumps(data['id'])}",
        f"name = {json.dumps(data['name'])}",
        f"category = {json.dumps(data['category'])}",
        f"description = {json.dumps(data['description'])}",
        f"hexes = '''\n{data['hexes']}\n'''",
        "[buildings]",
    ]
    for xxyy, spec in data["buildings"].items():
        lines.append(f'"{xxyy}" = {{ cf = {spec["cf"]}, height = {spec["height"]} }}')
    return "\n".join(lines) + "\n"


def copy_sheets(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


def use_sheets(monkeypatch, folder: Path) -> None:
    monkeypatch.setenv(SHEETS_ENV, str(folder))


def change_the_files(folder: Path) -> None:
    """What a player or a maintainer may do to the sheet folder between two sessions:
    a new sheet that sorts first (so every index of the sheet table moves), one sheet
    of the game edited (its clear ground grown over with heavy woods: other sight
    lines and moves) and another renamed."""
    farmland = load_sheet(folder / "farmland.toml")
    added = dataclasses.replace(farmland, id="aaa_added", name="Added sheet")
    (folder / "aaa_added.toml").write_text(sheet_file_text(added), encoding="utf-8")
    wooded = farmland.terrain.copy()
    wooded[wooded == CLEAR] = HEAVY_WOODS
    edited = dataclasses.replace(farmland, terrain=wooded)
    (folder / "farmland.toml").write_text(sheet_file_text(edited), encoding="utf-8")
    creek = load_sheet(folder / "creek_meadows.toml")
    (folder / "creek_meadows.toml").unlink()
    renamed = dataclasses.replace(creek, id="creek_renamed")
    (folder / "creek_renamed.toml").write_text(sheet_file_text(renamed), encoding="utf-8")


def pile_hunt() -> GameState:
    """The Long Tom hunt with the MAP-8 pile: both sides' piles are drawn from the
    sheet table as the game is set up, so the catalogue decides the dice from the start."""
    data = load_scenario(HUNT).to_dict()
    data["options"]["sheet_table"] = "pile"
    return new_game(scenario_from_dict(data, str(HUNT)), SEED)


@pytest.fixture
def played(tmp_path, monkeypatch) -> tuple[GameState, Path, Path]:
    """A game of three turns played with a copy of the shipped sheets, its save and log."""
    use_sheets(monkeypatch, copy_sheets(ROOT / "maps" / "sheets", tmp_path / "sheets_then"))
    state = pile_hunt()
    play_random(state, SEED, max_turns=3, invariants=False)
    assert state.turn >= 3 and len(state.checks.turns) == state.turn
    save, log = tmp_path / "game.json", tmp_path / "game.log.json"
    save_game(state, save)
    save_log(state, log)
    return state, save, log


@pytest.fixture
def files_changed(played, tmp_path, monkeypatch) -> Path:
    """The sheet folder in use now: a copy of the old one, with sheets added, edited, renamed."""
    folder = copy_sheets(tmp_path / "sheets_then", tmp_path / "sheets_now")
    change_the_files(folder)
    use_sheets(monkeypatch, folder)
    return folder


def test_an_old_log_and_save_reach_the_same_hash_after_the_sheet_files_change(
    played, files_changed
) -> None:
    """MAP-7, MAP-8: a sheet file added (the sheet table's draws move), one edited and
    one renamed: the log replays and the save loads to the game that was played."""
    state, save, log = played
    assert "aaa_added" in available_sheets() and "creek_meadows" not in available_sheets()
    assert state_hash(replay(log)) == state_hash(state)
    loaded = load_game(save)
    assert state_hash(loaded) == state_hash(state)
    # The loaded game goes on with its own sheets, not today's files.
    assert "aaa_added" not in loaded.area.catalogue
    assert loaded.area.catalogue["farmland"].terrain.tolist() == (
        state.area.catalogue["farmland"].terrain.tolist()
    )
    # The scenario itself, read now, names a sheet that is gone.
    with pytest.raises(ValueError, match='"creek_meadows": no such sheet'):
        pile_hunt()


def test_a_game_started_now_takes_the_sheets_on_disk(
    played, files_changed, tmp_path, monkeypatch
) -> None:
    """MAP-8: the catalogue is captured when a game starts. A sheet file added moves
    the sheet table under the dice: the same scenario and seed, started with today's
    folder, draws other piles; which is what an old log replayed with today's files
    (instead of its own sheets) would have met."""
    renamed = files_changed / "creek_renamed.toml"
    text = renamed.read_text(encoding="utf-8").replace('"creek_renamed"', '"creek_meadows"')
    renamed.unlink()
    (files_changed / "creek_meadows.toml").write_text(text, encoding="utf-8")
    now = pile_hunt()
    assert "aaa_added" in now.area.catalogue
    assert now.area.catalogue["farmland"].terrain.tolist() != (
        played[0].area.catalogue["farmland"].terrain.tolist()
    )
    use_sheets(monkeypatch, tmp_path / "sheets_then")
    then = pile_hunt()
    assert "aaa_added" not in then.area.catalogue
    assert now.piles != then.piles


def version_1(path: Path) -> None:
    """Rewrite a save or log as version 1 wrote it: sheet ids only, no checks, the
    hash of the game without them (``mapless_hash``). The save and log of
    tests/data, written by version 1 itself, have that shape byte for byte."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if "state" in data:
        state = data["state"]
        del state["sheets"], state["checks"]
        state["version"] = MAPLESS_VERSION
        data["hash"] = digest(state)
    else:
        data["hash"] = mapless_hash(replay(data))  # a version 2 log needs no file
        del data["sheets"], data["checks"]
    data["version"] = MAPLESS_VERSION
    path.write_text(json.dumps(data), encoding="utf-8")


def test_a_version_1_log_and_save_of_the_old_game_load_with_the_files_on_disk() -> None:
    """Files written by version 1 (before games kept their sheets; tests/data, a short
    game of the Long Tom hunt) load with the sheet files of maps/sheets."""
    log = DATA / "version1_hunt.log.json"
    save = DATA / "version1_hunt.json"
    assert json.loads(log.read_text(encoding="utf-8"))["version"] == MAPLESS_VERSION
    from_log = replay(log)
    from_save = load_game(save)
    assert state_hash(from_log) == state_hash(from_save)
    assert from_save.turn == 3 and len(from_save.commands) == 26
    # From now on the game carries the sheets it was loaded with.
    assert from_save.area.catalogue.keys() == available_sheets().keys()


def test_a_version_1_save_after_the_files_changed_gives_a_clear_message(
    played, files_changed, tmp_path
) -> None:
    """A version 1 save whose sheet files changed since cannot be replayed: a SaveError
    says why, never a traceback."""
    _, save, log = played
    version_1(save)
    version_1(log)
    for path, load in ((save, load_game), (log, replay)):
        with pytest.raises(SaveError) as caught:
            load(path)
        message = str(caught.value)
        assert str(path) in message
        assert "no such sheet" in message and "creek_meadows" in message


def test_a_version_1_log_replayed_with_edited_sheets_names_the_cause(
    played, tmp_path, monkeypatch
) -> None:
    """Only a sheet added and one edited (no id missing): the old log is replayed with
    today's files, does not reach its game, and the message says that the files are
    the likely cause."""
    state, _, log = played
    folder = copy_sheets(tmp_path / "sheets_then", tmp_path / "sheets_edited")
    change_the_files(folder)
    (folder / "creek_renamed.toml").unlink()
    shutil.copy(tmp_path / "sheets_then" / "creek_meadows.toml", folder)
    version_1(log)
    assert state_hash(replay(log)) == state_hash(state)  # with the old files, it replays
    use_sheets(monkeypatch, folder)
    with pytest.raises(SaveError) as caught:
        replay(log)
    message = str(caught.value)
    assert "older version of the game that kept only the names of its sheets" in message
    assert str(folder) in message


def tampered(log: Path, change) -> Path:
    data = json.loads(log.read_text(encoding="utf-8"))
    change(data)
    log.write_text(json.dumps(data), encoding="utf-8")
    return log


def test_a_changed_command_names_the_turn_and_the_command(played) -> None:
    """A log with one command changed (a move in turn 2 or later, to another facing)
    names the first turn and command where the replay parts from the game."""
    state, _, log = played
    commands = state.commands
    k = next(
        n for n, c in enumerate(commands) if c["kind"] == "move" and replay(log, upto=n).turn >= 2
    )
    turn = replay(log, upto=k).turn

    def change(data) -> None:
        data["commands"][k]["facing"] = data["commands"][k]["facing"] % 6 + 1

    tampered(log, change)
    with pytest.raises(SaveError) as caught:
        replay(log)
    message = str(caught.value)
    moved = commands[k]
    facing = moved["facing"] % 6 + 1
    # The command is named in words: side, unit, hex and facing, not a dictionary.
    q, r = moved["to"]
    words = f"({moved['side']}: move {moved['unit']} to hex ({q}, {r}), facing {facing})"
    assert f"the log diverges at turn {turn}, command {k + 1} {words}" in message
    assert "{" not in message
    assert str(log) in message


def test_a_changed_turn_check_names_the_command_that_began_the_turn(played) -> None:
    """The hash recorded at the start of turn 2 was altered: the replay stops at the
    command that began turn 2 and says the game there differs."""
    state, _, log = played
    check = state.checks.turns[1]
    assert check.turn == 2

    def change(data) -> None:
        data["checks"]["turns"][1]["hash"] = "0" * 64

    tampered(log, change)
    with pytest.raises(SaveError) as caught:
        replay(log)
    message = str(caught.value)
    assert f"diverges at turn 1, command {check.commands} (" in message
    assert ": end the phase)" in message
    assert "the game at the start of turn 2 differs from the one recorded" in message


def test_a_log_whose_carried_sheet_was_edited_diverges_where_the_game_starts(played) -> None:
    """The sheets a log carries are part of the game: one hex of a sheet in play edited
    inside the log shows at the first turn check (the end of set-up)."""
    state, _, log = played
    first = state.checks.turns[0]

    def change(data) -> None:
        sheet = data["sheets"]["farmland"]
        rows = sheet["hexes"].split("\n")
        tokens = rows[0].split(" ")
        tokens[0] = "5r"
        rows[0] = " ".join(tokens)
        sheet["hexes"] = "\n".join(rows)

    tampered(log, change)
    with pytest.raises(SaveError) as caught:
        replay(log)
    assert f"diverges at turn 0, command {first.commands} (" in str(caught.value)
    assert ": end the phase)" in str(caught.value)
    assert "start of turn 1 differs" in str(caught.value)


def test_a_log_with_a_damaged_sheet_gives_a_clear_message(played) -> None:
    _, _, log = played
    tampered(log, lambda d: d["sheets"]["farmland"].update(hexes="0. 0."))
    with pytest.raises(SaveError) as caught:
        replay(log)
    assert "its sheets: sheet 'farmland': hexes has 1 rows; a sheet has 17" in str(caught.value)
    tampered(log, lambda d: d.pop("sheets"))
    with pytest.raises(SaveError, match="the game log has no 'sheets' table"):
        replay(log)


def test_a_sealed_save_carries_its_sheets_too(played, tmp_path, monkeypatch) -> None:
    """Hot-seat saves (game/state/sealing.py) are sealed whole, sheets and checks inside."""
    state, _, _ = played
    words = {"north": "amber", "south": "slate"}
    seal = Seal.from_passphrases(state.sides, words)
    path = tmp_path / "sealed.json"
    save_game(state, path, seal)
    assert "farmland" not in path.read_text(encoding="utf-8")  # nothing readable outside
    folder = copy_sheets(tmp_path / "sheets_then", tmp_path / "sheets_sealed")
    change_the_files(folder)
    use_sheets(monkeypatch, folder)
    loaded = load_game(path, words)
    assert state_hash(loaded) == state_hash(state)


def test_a_state_rebuilt_from_plain_data_reads_no_sheet_file(played, tmp_path, monkeypatch):
    """GameState.from_dict takes the sheets from the data (an empty folder on disk)."""
    state, _, _ = played
    empty = tmp_path / "no_sheets"
    empty.mkdir()
    use_sheets(monkeypatch, empty)
    assert available_sheets() == {}
    assert state_hash(GameState.from_dict(state.to_dict())) == state_hash(state)


def test_the_replay_window_holds_a_log_to_its_checks_and_opens_version_1(played, capsys):
    """``main.py replay FILE`` (the replay window's timeline) names the turn and the
    command where a changed log parts from its game, in one line with exit code 1,
    and opens a log of version 1."""
    state, _, log = played
    check = state.checks.turns[1]
    tampered(log, lambda d: d["checks"]["turns"][1].update(hash="0" * 64))
    assert main.main(["replay", str(log)]) == 1
    out = capsys.readouterr()
    (line,) = [line for line in (out.out + out.err).splitlines() if line]
    assert str(log) in line and f"diverges at turn 1, command {check.commands} " in line
    old = ReplayTimeline.from_file(DATA / "version1_hunt.log.json")
    assert old.last == 26 and old.state_at(old.last).turn == 3


def test_every_shipped_sheet_travels_in_a_save_exactly() -> None:
    """``catalogue_to_dict`` / ``catalogue_from_dict`` give back every array of every
    shipped sheet (levels, terrain, water, roads, buildings) and its words."""
    shipped = available_sheets(ROOT / "maps" / "sheets")
    back = catalogue_from_dict(json.loads(json.dumps(catalogue_to_dict(shipped))))
    assert back.keys() == shipped.keys()
    for sheet_id, sheet in shipped.items():
        again = back[sheet_id]
        for name in ("level", "terrain", "water_depth", "road", "building_cf", "building_height"):
            assert getattr(again, name).tolist() == getattr(sheet, name).tolist(), (sheet_id, name)
        assert (again.name, again.category, again.description) == (
            sheet.name,
            sheet.category,
            sheet.description,
        )


def test_a_sides_view_reads_the_games_sheets_not_the_files(played, files_changed) -> None:
    """The window and the AI see only ``player_view``: its area carries the game's
    own catalogue (the sheet table of MAP-7 .. MAP-9 is public), so what they show or
    rate of a sheet is the sheet of the game, whatever the files say now."""
    _, save, _ = played
    loaded = load_game(save)
    for side in loaded.sides:
        seen = player_view(loaded, side).area.catalogue
        assert seen.keys() == loaded.area.catalogue.keys()
        assert "creek_meadows" in seen and "aaa_added" not in seen
        assert seen["farmland"] is loaded.area.catalogue["farmland"]


def test_a_turn_check_is_the_digest_of_the_position_with_its_sheets_written_once() -> None:
    """The turn check (``position_hash``) keeps the JSON of a game's sheets from turn
    to turn: it is still exactly the digest of the position without its history,
    turn after turn, as sheets are laid, and for a state rebuilt from plain data
    (other sheet objects, the same sheets)."""
    state = pile_hunt()
    area_sizes = set()
    for turns in range(1, 13):
        play_random(state, SEED + turns, max_turns=turns, invariants=False)
        area_sizes.add(len(state.area.positions))
        assert position_hash(state) == digest(state.to_dict(history=False))
        if state.result is not None:
            break
    rebuilt = GameState.from_dict(state.to_dict())
    assert position_hash(rebuilt) == position_hash(state)
    assert len(area_sizes) > 1
