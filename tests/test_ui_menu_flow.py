"""The main menu's flow, driven headless with real clicks (SDL dummy driver): the first
run offers the README's first game, the choices are remembered across runs in the
settings file, a damaged settings file gives the defaults and one message, Replays
lists the log of a game played to its end and opens it (so does the end screen),
Settings change the window, the sound and the animations' pace at once and keep
them; nothing of the menu is cut off at 1024x700 or 1280x800.

Screenshots of each page at both sizes go to the ``shots`` folder
(``BARRAGE_SCREENSHOTS=docs/screenshots`` for the documentation's).
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pygame
import pygame_gui
import pytest

from game.scenario import scenario_from_dict
from game.state import DEFAULT_SCENARIO, EndPhase, Hold, acting_side, apply, autosave, new_game
from game.ui.app import App
from game.ui.game_logs import list_logs
from game.ui.game_screen import GameScreen
from game.ui.home import autosave_dir, logs_dir
from game.ui.menu import REPLAYS, SETTINGS, MainMenu
from game.ui.replay import ReplayScreen
from game.ui.screens import EndScreen
from game.ui.seats import SOLO, Seats
from game.ui.settings import Settings, load_settings, settings_path
from tests.test_ui_app import button_named, click, click_button, run_until


def open_app(size: tuple[int, int] | None = (1280, 800)) -> App:
    """A fresh window on the main menu, as ``python main.py`` opens it."""
    app = App(size, ai_delay=0.0)
    pygame.event.clear()
    app.open_menu()
    app.run_frames(3)
    return app


@pytest.fixture
def window(home: Path):
    apps: list[App] = []

    def make(size: tuple[int, int] | None = (1280, 800)) -> App:
        app = open_app(size)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.shutdown()


def menu_of(app: App) -> MainMenu:
    menu = app.top
    assert isinstance(menu, MainMenu), f"the main menu is on top, not {menu}"
    return menu


def selected(manager: pygame_gui.UIManager) -> list[str]:
    """The texts of the buttons shown chosen."""
    return [
        e.text
        for e in manager.get_sprite_group().sprites()
        if isinstance(e, pygame_gui.elements.UIButton) and e.is_selected
    ]


def cut_off(app: App, manager: pygame_gui.UIManager) -> list[str]:
    """Every widget that leaves the window or whose text does not fit its button."""
    window = pygame.Rect(0, 0, *app.size)
    out = []
    for e in manager.get_sprite_group().sprites():
        if not e.visible or e.rect.w == 0:
            continue
        if not window.contains(e.rect):
            name = f"{type(e).__name__} {getattr(e, 'text', '')!r}"
            out.append(f"{name} at {e.rect} leaves the window")
        # (A one-letter button is a scroll bar's arrow, drawn without padding.)
        if isinstance(e, pygame_gui.elements.UIButton) and len(e.text) > 1:
            padding = 2 * 6 + (18 if e.text_horiz_alignment == "left" else 0)
            if e.font.size(e.text)[0] + padding > e.rect.w:
                out.append(f"button {e.text!r} ({e.font.size(e.text)[0]} px) is cut in {e.rect}")
    return out


def one_turn_scenario():
    """The default scenario, one turn long: a game the engine plays to its end fast."""
    data = tomllib.loads(Path(DEFAULT_SCENARIO).read_text(encoding="utf-8"))
    data["scenario"]["turns"] = 1
    return scenario_from_dict(data, Path(DEFAULT_SCENARIO).name)


def before_the_end(seed: int = 4):
    """A one-turn game played by the rules until north's last attack phase, so that
    ending it (End attacks) ends the game."""
    state = new_game(one_turn_scenario(), seed)
    apply(state, EndPhase("north"))
    apply(state, EndPhase("south"))
    while not (state.phase == "attack" and acting_side(state) == "north"):
        side = acting_side(state)
        if state.phase == "movement":
            unit = next(u for u in state.living(side) if u.hex is not None and not u.moved)
            apply(state, Hold(side, unit.id))
        else:
            apply(state, EndPhase(side))
    return state


def finish_in_the_window(app: App) -> GameScreen:
    """Play the last phase of a one-turn game in the window: its end screen shows."""
    game = app.open_game(before_the_end(), Seats(SOLO, "north", "easy"))
    app.run_frames(3)
    click_button(app, game.ui_manager, "End attacks")
    run_until(app, lambda: isinstance(app.top, EndScreen))
    return game


# --- the first run and the choices kept -------------------------------------------------------


def test_the_first_run_offers_the_readmes_first_game_long_tom_hunt_against_easy(window, home):
    app = window()
    menu = menu_of(app)
    assert menu.entry is not None and menu.entry.path.name == "long_tom_hunt.toml"
    assert menu.entry.path.name == Path(DEFAULT_SCENARIO).name
    assert menu.scenario_list.get_single_selection() == "Long Tom Hunt"
    assert menu.seats() == Seats(SOLO, "north", "easy")
    assert {"New game", "Solo against the AI", "North: Highland Lancers", "Easy"} <= set(
        selected(menu.manager)
    )
    assert not menu.message
    # The README's first game says so too.
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "*Long Tom Hunt* as north against the easy AI" in readme


def test_the_menus_choices_are_remembered_after_a_restart(window, home):
    app = window()
    menu = menu_of(app)
    listing = menu.scenario_list
    item = next(i for i in listing.item_list if i["text"] == "Hold the Ford")
    click(app, item["button_element"].rect.center, frames=3)
    assert menu.entry.name == "Hold the Ford"
    sides = menu.entry.sides
    second = f"{sides[1][0].capitalize()}: {sides[1][1]}"
    click_button(app, menu.manager, second)
    click_button(app, menu.manager, "Hard")
    assert menu.seats() == Seats(SOLO, sides[1][0], "hard")
    kept = json.loads(settings_path().read_text(encoding="utf-8"))
    assert kept["scenario"] == "hold_the_ford.toml" and kept["level"] == "hard"
    app.shutdown()

    again = menu_of(window())
    assert again.entry.name == "Hold the Ford"
    assert again.seats() == Seats(SOLO, sides[1][0], "hard")
    assert {"Hold the Ford", second, "Hard"} <= {
        *selected(again.manager),
        again.scenario_list.get_single_selection(),
    }
    # Watch mode, kept as well.
    click_button(again.app, again.manager, "Watch AI against AI")
    assert load_settings()[0].mode == "watch"


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"\xff\xfe\x00garbage", b"[1, 2, 3]", b'{"volume": "loud", "level": 7}'],
    ids=["not-json", "not-text", "not-a-table", "wrong-values"],
)
def test_a_damaged_settings_file_gives_the_defaults_and_one_message(window, home, content):
    home.mkdir(parents=True, exist_ok=True)
    settings_path().write_bytes(content)
    app = window()
    menu = menu_of(app)
    assert menu.seats() == Seats(SOLO, "north", "easy"), "the defaults"
    assert app.settings == Settings()
    assert str(settings_path()) in menu.message
    assert "default" in menu.message
    if content.startswith(b'{"volume"'):
        assert '"volume" must be a number from 0 to 1' in menu.message
        assert '"level" must be one of easy, normal, hard' in menu.message
    # Said once: the menu opened again says nothing more.
    app.open_menu()
    app.run_frames(2)
    assert menu_of(app).message == ""


def test_a_settings_path_that_cannot_be_read_is_reported_not_raised(home):
    settings_path().mkdir(parents=True)  # a folder where the file should be
    settings, problem = load_settings()
    assert settings == Settings()
    assert problem is not None and str(settings_path()) in problem


# --- nothing cut off -----------------------------------------------------------------------


@pytest.mark.parametrize("size", [(1024, 700), (1280, 800)], ids=["1024x700", "1280x800"])
def test_no_page_of_the_menu_is_cut_off(window, home, shots, size):
    app = window(size)
    finish_in_the_window(app)  # a log for the Replays page
    autosave(before_the_end(), autosave_dir())  # and Continue in the menu
    app.open_menu()
    app.run_frames(3)
    menu = menu_of(app)
    for page in ("New game", "Replays", "Settings"):
        click_button(app, menu.manager, page)
        if page == "New game":
            click_button(app, menu.manager, "Watch AI against AI")
            assert not cut_off(app, menu.manager)
            click_button(app, menu.manager, "Hot-seat")
            assert not cut_off(app, menu.manager)
            click_button(app, menu.manager, "Solo against the AI")
        assert not cut_off(app, menu.manager), page
        assert "Continue (autosave)" in [b.text for b in menu.menu_buttons]
        assert page in selected(menu.manager), "the page shown is the item marked"
        name = {"New game": "menu", "Replays": "menu_replays", "Settings": "menu_settings"}[page]
        small = "" if size == (1280, 800) else f"_{size[0]}x{size[1]}"
        app.screenshot(shots / f"{name}{small}.png")


def test_new_game_shows_its_page_again(window, home):
    app = window()
    menu = menu_of(app)
    click_button(app, menu.manager, "Settings")
    assert menu.page == SETTINGS
    click_button(app, menu.manager, "New game")
    assert menu.page == "new" and button_named(menu.manager, "Start").visible


# --- replays ------------------------------------------------------------------------------


def test_replays_lists_the_log_of_a_game_played_to_its_end_and_opens_it(window, home):
    app = window()
    game = finish_in_the_window(app)
    state = game.session.state
    assert state.result is not None
    kept = game.session.finished_log
    assert kept is not None and kept.parent == logs_dir() and kept.is_file()
    older = logs_dir() / "older-game.log.json"
    older.write_text(kept.read_text(encoding="utf-8"), encoding="utf-8")
    past = kept.stat().st_mtime - 3600
    os.utime(older, (past, past))
    (logs_dir() / "damaged.log.json").write_text("{", encoding="utf-8")

    app.open_menu()
    app.run_frames(2)
    menu = menu_of(app)
    click_button(app, menu.manager, "Replays")
    page = menu.page_view
    assert menu.page == REPLAYS and page is not None
    entries = page.entries
    assert entries[0].path.name in (kept.name, "damaged.log.json")
    newest = next(e for e in entries if e.path == kept)
    assert entries.index(newest) < [e.path for e in entries].index(older), "newest first"
    assert newest.scenario == "Long Tom Hunt" and newest.turns == 1
    assert newest.result == "Draw" or newest.result.endswith(" won")
    assert newest.line() in page.rows
    damaged = next(e for e in entries if e.path.name == "damaged.log.json")
    assert damaged.problem and "damaged" in damaged.problem
    # Pick the game by clicking its row, its side's view, then Watch.
    item = next(i for i in page.listing.item_list if i["text"] == newest.line())
    click(app, item["button_element"].rect.center, frames=3)
    assert page.chosen is newest
    click_button(app, menu.manager, "South")
    click_button(app, menu.manager, "Watch", frames=4)
    replay = app.top
    assert isinstance(replay, ReplayScreen), f"the replay opens, not {replay}"
    assert replay.timeline.sides == state.sides
    assert replay.session.viewer() == "south"
    final = replay.timeline.state_at(replay.timeline.last)
    assert final.result == state.result


def test_a_damaged_log_in_the_list_says_why_and_watch_is_off(window, home):
    logs_dir().mkdir(parents=True)
    (logs_dir() / "cut.log.json").write_text('{"format": "barrage-log"', encoding="utf-8")
    app = window()
    menu = menu_of(app)
    click_button(app, menu.manager, "Replays")
    page = menu.page_view
    assert len(page.entries) == 1 and "truncated" in page.entries[0].problem
    assert not button_named(menu.manager, "Watch").is_enabled


def test_the_end_screen_opens_this_games_replay(window, home, shots):
    app = window()
    game = finish_in_the_window(app)
    end = app.top
    assert isinstance(end, EndScreen)
    app.screenshot(shots / "end_screen.png")
    assert not cut_off(app, end.manager)
    click_button(app, end.manager, "Watch the replay", frames=4)
    replay = app.top
    assert isinstance(replay, ReplayScreen)
    assert replay.timeline.state_at(replay.timeline.last).result == game.session.state.result
    assert [e.path for e in list_logs(logs_dir())] == [game.session.finished_log]


# --- settings ------------------------------------------------------------------------------


def test_settings_change_the_volume_at_once_and_keep_it(window, home, shots):
    app = window()
    menu = menu_of(app)
    click_button(app, menu.manager, "Settings")
    page = menu.page_view
    board = app.sound_board()
    assert board.volume == pytest.approx(0.6)
    # Click the slider's right arrow a few times (5% a step while it is held).
    arrow = page.volume.right_button.rect.center
    for _ in range(3):
        click(app, arrow, frames=2)
    app.run_frames(10)
    volume = page.volume.get_current_value() / 100
    assert volume > 0.6
    assert app.settings.volume == pytest.approx(volume)
    assert board.volume == pytest.approx(volume), "the sound board plays at the new volume"
    click_button(app, menu.manager, "Off")  # the first "Off": fullscreen's, already off
    assert not app.settings.fullscreen
    sound_off = [b for b, (key, value) in page.choices.items() if key == "sound" and not value]
    click(app, sound_off[0].rect.center, frames=3)
    assert board.muted and not app.settings.sound
    click_button(app, menu.manager, "Fast")
    assert app.settings.animation_speed == 2.0
    kept = json.loads(settings_path().read_text(encoding="utf-8"))
    assert kept["volume"] == pytest.approx(volume) and kept["sound"] is False
    assert kept["animation_speed"] == 2.0
    app.shutdown()

    again = window()
    assert again.settings.volume == pytest.approx(volume)
    assert again.sound_board().volume == pytest.approx(volume) and again.sound_board().muted
    click_button(again, menu_of(again).manager, "Settings")
    assert {"Off", "Fast"} <= set(selected(menu_of(again).manager))


def test_the_window_size_applies_at_once_and_opens_so_next_time(window, home):
    app = window(None)  # as main.py opens it: the size kept in the settings
    assert app.size == (1280, 800)
    menu = menu_of(app)
    click_button(app, menu.manager, "Settings")
    click_button(app, menu.manager, "1024 x 700", frames=3)
    assert app.size == (1024, 700) and app.window.get_size() == (1024, 700)
    menu = menu_of(app)
    assert menu.page == SETTINGS and "1024 x 700" in selected(menu.manager)
    assert not cut_off(app, menu.manager), "the menu is laid out for the new size"
    app.shutdown()
    assert window(None).size == (1024, 700)


def test_the_animation_pace_of_settings_speeds_the_arrival_of_shells(window, home):
    """A shell's arrival show runs twice as far in the same time at "Fast", in a game
    already open when the setting changes."""
    from game.ui.artillery_anim import _Playing

    app = window()
    game = app.open_game(before_the_end(), Seats(SOLO, "north", "easy"))
    app.run_frames(2)
    assert game.ctx.animation_speed == 1.0
    app.settings.animation_speed = 2.0
    app.run_frames(1)
    assert game.ctx.animation_speed == 2.0
    animation = game.ctx.artillery.animation
    animation.playing = _Playing(show=object())  # a shell on show (its picture aside)
    animation.update(0.5, game.ctx)
    assert animation.playing.t == pytest.approx(1.0)


def test_fullscreen_applies_at_once_and_off_brings_the_window_back(window, home):
    app = window(None)
    menu = menu_of(app)
    click_button(app, menu.manager, "Settings")
    fullscreen_on = next(
        b
        for b, (key, value) in menu_of(app).page_view.choices.items()
        if key == "fullscreen" and value
    )
    click(app, fullscreen_on.rect.center, frames=3)
    desktop = pygame.display.get_desktop_sizes()[0]
    assert app.settings.fullscreen and app.size == desktop
    assert load_settings()[0].fullscreen
    assert not cut_off(app, menu_of(app).manager)
    fullscreen_off = next(
        b
        for b, (key, value) in menu_of(app).page_view.choices.items()
        if key == "fullscreen" and not value
    )
    click(app, fullscreen_off.rect.center, frames=3)
    assert not app.settings.fullscreen and app.size == (1280, 800)


def test_a_sealed_hot_seat_game_keeps_its_finished_log_plain(home):
    """The seal guards a hot-seat game's saves while it is played; once it is over its
    log is kept open, so Replays can show it without the passphrases."""
    from game.state import Seal
    from game.state.saves import load_log
    from game.ui.session import HUMAN, GameSession

    state = before_the_end()
    session = GameSession(
        state,
        {side: HUMAN for side in state.sides},
        seal=Seal.from_passphrases(state.sides, {"north": "oak", "south": "elm"}),
        logs_dir=logs_dir(),
    )
    while state.result is None:
        session.submit(EndPhase(acting_side(state)))
    assert session.finished_log is not None
    assert load_log(session.finished_log)["result"] == state.result.to_dict()
    assert [e.path for e in list_logs(logs_dir())] == [session.finished_log]


def test_settings_from_the_pause_menu_change_a_game_in_play(window, home, shots):
    from game.ui.screens import PauseMenu, SettingsOverlay
    from tests.test_ui_app import press

    app = window((1024, 700))
    game = app.open_game(before_the_end(), Seats(SOLO, "north", "easy"))
    app.run_frames(3)
    press(app, pygame.K_ESCAPE, frames=3)
    pause = app.top
    assert isinstance(pause, PauseMenu)
    click_button(app, pause.manager, "Settings")
    overlay = app.top
    assert isinstance(overlay, SettingsOverlay)
    assert not cut_off(app, overlay.manager)
    app.screenshot(shots / "settings_in_game_1024x700.png")
    click_button(app, overlay.manager, "Very fast")
    sound_off = next(
        b for b, (key, value) in overlay.page.choices.items() if key == "sound" and not value
    )
    click(app, sound_off.rect.center, frames=3)
    click_button(app, overlay.manager, "Back to the game")
    assert app.top is game
    app.run_frames(2)
    assert game.ctx.animation_speed == 4.0
    assert game.ctx.sound is app.sound and app.sound.muted
    assert load_settings()[0].animation_speed == 4.0


def test_a_menu_on_a_folder_without_scenarios_names_that_folder(window, home, tmp_path):
    """The briefing of a menu opened on a folder with no scenario files names the
    folder it looked in, not the shipped maps folder."""
    app = window()
    empty = tmp_path / "no scenarios here"
    empty.mkdir()
    menu = MainMenu(app, empty)
    assert menu.entries == []
    assert menu._briefing_html() == f"No scenario files in {empty}."
