"""A loaded game shows and rates its own sheets, whatever the sheet files say now.

A game keeps the sheets it started with (``PlayArea.catalogue``; saves carry them,
tests/test_saves_carry_maps.py). The window and the AI read them from the side's
view too: the set-up screen's sheet names and pictures (ART-1, ART-2), the sheet
picker (MAP-7 .. MAP-9) and the AI's rating of the sheets it may lay (MOV-1,
``crossing_cost``). Here a game is saved in set-up and again with a sheet to pick,
the sheet files are changed (one sheet of the game edited, one renamed, one added:
``change_the_files``), and the saves are loaded and played in the window (SDL dummy
driver) and by the AI.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from game.ai.candidates import Board
from game.ai.memory import Memory
from game.ai.personality import level, personality
from game.ai.sheets import relief, sheet_candidates, sight_cover
from game.board.sheet import Sheet, available_sheets, load_sheet, sheets_dir
from game.state import (
    GameState,
    Hold,
    Move,
    acting_side,
    apply,
    legal_commands,
    load_game,
    player_view,
    save_game,
)
from game.state.queries import crossing_cost, movement_class
from game.ui.dialogs import SheetPicker
from tests.engine_fixtures import battery, duel, end_setup, game, mech
from tests.test_saves_carry_maps import ROOT, change_the_files, use_sheets
from tests.test_ui_setup import _panel_text, open_dialog, press, setup_layer, solo

FLAT = ["airfield", "creek_meadows", "farmland"]  # MAP-9 "similar": the flat sheets


def scout_duel() -> GameState:
    """The mobile duel on farmland (0,0) and creek meadows (0,1), the similar sheet
    table, a fast north scout, and north's Long Tom standing on creek meadows."""
    data = duel(
        mobile_maps=True,
        sheet_table="similar",
        north_battery=battery("n-gun", "north", "north", 0, 3, "creek_meadows", "0807"),
        extra_units=[mech("n-scout", "north", (0, 0), "1405", 3, walk=6)],
    )
    return game(data, seed=2)


@pytest.fixture
def saves(tmp_path, monkeypatch) -> tuple[dict[str, Sheet], Path, Path]:
    """The game's sheets, a save in set-up and a save where north must pick the sheet
    its scout drove onto (MAP-6, MAP-7); then the sheet files change."""
    then = shutil.copytree(ROOT / "maps" / "sheets", tmp_path / "sheets_then")
    use_sheets(monkeypatch, then)
    state = scout_duel()
    in_setup, picking = tmp_path / "setup.json", tmp_path / "picking.json"
    save_game(state, in_setup)
    end_setup(state)
    while acting_side(state) != "north":
        side = acting_side(state)
        apply(state, next(c for c in legal_commands(state, side) if isinstance(c, Hold)))
    apply(
        state,
        next(
            c
            for c in legal_commands(state, "north")
            if isinstance(c, Move) and c.unit == "n-scout" and not state.area.contains(c.to)
        ),
    )
    pending = player_view(state, "north").pending_sheet
    assert pending is not None and list(pending.allowed or ()) == FLAT
    save_game(state, picking)
    now = shutil.copytree(then, tmp_path / "sheets_now")
    change_the_files(now)
    use_sheets(monkeypatch, now)
    return state.area.catalogue, in_setup, picking


def same_sheet(a: Sheet, b: Sheet) -> bool:
    return a.id == b.id and a.name == b.name and a.terrain.tolist() == b.terrain.tolist()


def test_files_changed_as_the_tests_below_need(saves) -> None:
    """The sheet folder now: farmland's clear ground is heavy woods, creek meadows is
    gone (renamed creek_renamed), aaa_added is new; the game's sheets are the old ones."""
    sheets, _, _ = saves
    files = available_sheets()
    assert "creek_meadows" not in files and "creek_renamed" in files and "aaa_added" in files
    assert not same_sheet(files["farmland"], sheets["farmland"])


def test_MAP_7_MAP_9_the_sheet_picker_and_the_ai_read_the_saved_sheets(saves, app, shots) -> None:
    """MAP-7, MAP-9: the loaded game's sheet picker offers the flat sheets of the game
    (creek meadows, renamed on disk since, and farmland as it was, not as edited; not
    the sheet added since), and laying farmland lays the game's farmland. MOV-1: the
    AI rates the sheets by what the game's own sheets cost its scout to cross."""
    sheets, _, picking = saves
    loaded = load_game(picking)
    view = player_view(loaded, "north")
    scout = view.units["n-scout"]
    movement = movement_class(scout)
    assert movement is not None
    board = Board.read(view, Memory(), level("normal"), personality("steady"))
    rated = sheet_candidates(board, legal_commands(loaded, "north"))
    assert [c.command.sheet for c in rated] == FLAT
    for c in rated:
        sheet = sheets[c.command.sheet]
        assert c.score == -(crossing_cost(sheet, movement) + relief(sheet))
    edited = load_sheet(sheets_dir() / "farmland.toml")
    assert crossing_cost(edited, movement) > crossing_cost(sheets["farmland"], movement)
    assert sight_cover(edited) > sight_cover(sheets["farmland"])

    screen = solo(app, loaded)
    app.run_frames(2)
    picker = screen.ctx.artillery.dialogs.top
    assert isinstance(picker, SheetPicker)
    assert [s.id for s in picker.sheets] == FLAT
    for shown in picker.sheets:
        assert same_sheet(shown, sheets[shown.id])
    pygame.image.save(app.window, str(shots / "saved_sheets_picker.png"))
    picker.selected = FLAT.index("farmland")
    press(app, pygame.K_RETURN)
    assert loaded.pending_sheet is None
    laid = loaded.area.sheet_at((1, 0))
    assert laid is not None and same_sheet(laid, sheets["farmland"])


def test_ART_1_ART_2_the_setup_screen_names_and_paints_the_saved_sheets(saves, app, shots) -> None:
    """ART-1, ART-2: in a loaded set-up the panel names the sheet north's gun stands on
    (creek meadows, renamed on disk since) and the deploy dialog lists and paints the
    game's sheets, its status naming the gun's sheet."""
    sheets, in_setup, _ = saves
    loaded = load_game(in_setup)
    screen = solo(app, loaded)
    layer = setup_layer(screen)
    creek = sheets["creek_meadows"]
    lines = _panel_text(layer, screen.ctx)
    assert f"Stands on {creek.name} ({creek.category}), hex 0807 (secret)" in lines
    dialog = open_dialog(app, layer, "n-gun")
    app.run_frames(2)
    assert dialog.draft.sheet == "creek_meadows" and not dialog.reasons(screen.ctx.view)
    assert sorted(s.id for s in dialog.sheets) == sorted(sheets)
    for shown in dialog.sheets:
        assert same_sheet(shown, sheets[shown.id])
    pygame.image.save(app.window, str(shots / "saved_sheets_deploy.png"))
