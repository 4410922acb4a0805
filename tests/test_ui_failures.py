"""Failures that lose nothing: a save that does not load, an autosave that cannot be
written and temporary files left by a killed game, seen in the real window (SDL dummy
driver, real pygame events)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pygame

from game.state import EndPhase, apply, new_game, save_game, state_hash
from game.ui.app import App
from game.ui.home import autosave_dir, saves_dir
from game.ui.screens import LoadDialog
from game.ui.seats import Seats
from tests.test_ui_app import button_named, click, press, run_until, shot

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "maps" / "long_tom_hunt.toml"


def test_ctrl_l_on_a_damaged_save_keeps_the_game_in_progress(app, home) -> None:
    """Ctrl+L on a save 1,000 lists deep crashed the window (RecursionError) and the
    game in progress was lost. Now the dialog says why and the game stays."""
    state = new_game(SCENARIO, 6)
    apply(state, EndPhase("north"))
    bad = saves_dir() / "deep.json"
    save_game(state, bad)
    text = bad.read_text(encoding="utf-8")
    bad.write_text(text.replace('"turn":', '"x":' + "[" * 1000 + "]" * 1000 + ',"turn":', 1))
    game = app.open_game(state, Seats("solo", "south", "easy"))
    app.run_frames(2)
    press(app, pygame.K_l, mod=pygame.KMOD_CTRL)
    dialog = app.top
    assert isinstance(dialog, LoadDialog)
    entry = next(i for i in dialog.listing.item_list if i["text"].startswith("deep"))
    click(app, entry["button_element"].rect.center)
    click(app, button_named(dialog.manager, "Load").rect.center, frames=3)
    assert app.running and app.top is dialog and app.game is game
    assert dialog.message.startswith(f"{bad}: the save is damaged")
    assert "nest more than 32 levels deep" in dialog.message
    shot(app, "load_damaged_save.png")
    assert state_hash(game.session.state) == state_hash(state)


def test_an_autosave_that_cannot_be_written_is_reported_and_the_game_goes_on(app, home) -> None:
    """The autosave folder replaced by a file: FileExistsError crashed the window at the
    next turn and the game was lost. Now the screen says so and play goes on."""
    home.mkdir(parents=True, exist_ok=True)
    autosave_dir().write_text("not a folder", encoding="utf-8")
    state = new_game(SCENARIO, 13)
    game = app.open_game(state, Seats("watch"))
    app.run_frames(1)
    assert any(t.text.startswith("No autosave in") and t.error for t in game.ctx.toasts)
    run_until(app, lambda: state.turn >= 2, limit=3000)
    assert app.running and app.game is game
    assert any(t.text.startswith("Autosave failed in") for t in game.ctx.toasts)
    shot(app, "autosave_failed.png")
    assert autosave_dir().read_text(encoding="utf-8") == "not a folder"


def test_a_save_that_cannot_be_written_is_reported_in_the_dialog(app, home) -> None:
    home.mkdir(parents=True, exist_ok=True)
    saves_dir().write_text("not a folder", encoding="utf-8")
    state = new_game(SCENARIO, 6)
    game = app.open_game(state, Seats("solo", "north", "easy"))
    app.run_frames(2)
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    dialog = app.top
    assert dialog.save() is None
    assert dialog.error and dialog.message.startswith("Could not save to")
    assert app.game is game and app.running


def test_stale_temporary_files_are_removed_when_the_game_starts(home) -> None:
    """A game killed while writing left .autosave.json.XXXX.tmp files for ever."""
    folder = home / "autosave"
    folder.mkdir(parents=True)
    stale = folder / ".autosave.json.abc123.tmp"
    fresh = folder / ".autosave.json.def456.tmp"
    mine = folder / "notes.tmp"
    for path in (stale, fresh, mine):
        path.write_text("{", encoding="utf-8")
    hour_ago = time.time() - 3600
    os.utime(stale, (hour_ago, hour_ago))
    os.utime(mine, (hour_ago, hour_ago))
    window = App((1280, 800), ai_delay=0.0)
    window.shutdown()
    assert not stale.exists()
    assert fresh.exists() and mine.exists()  # one being written now; not a game's file


def test_a_huge_window_size_is_a_clear_message(capsys) -> None:
    """--size 100000x100000 gave a pygame traceback."""
    from game.ui.app import run

    assert run(["--size", "100000x100000", "--frames", "1"]) == 2
    assert "the window is at most 16384x16384 pixels" in capsys.readouterr().err
