"""Headless tests of the game window, driven by real pygame events (SDL dummy driver).

The main path: the menu, a new solo game against the AI, selecting a unit,
moving it by clicks, ending the phases until the next turn; then the map
controls, help, pause, save and load, the end screen, resizing and the
``--screenshot`` command line. Screenshots go to the test's own game home
(``BARRAGE_HOME``, a tmp folder), under ``screenshots``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.hexmath import Hex
from game.state import DEFAULT_SCENARIO, EndPhase, Hold, Move, acting_side, apply, new_game
from game.state.model import PHASES, TARGETING
from game.ui.app import App
from game.ui.camera import ZOOM_SIZES
from game.ui.game_screen import GameScreen
from game.ui.menu import MainMenu
from game.ui.screens import EndScreen, HelpOverlay, LoadDialog, PauseMenu, SaveDialog
from game.ui.seats import HOTSEAT, SOLO, Seats
from game.ui.widgets import ConfirmDialog

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "maps" / "long_tom_hunt.toml"


# --- posting real events -----------------------------------------------------------------


def post(event_type: int, **attrs) -> None:
    pygame.event.post(pygame.event.Event(event_type, **attrs))


def move_mouse(app: App, pos: tuple[int, int], frames: int = 1) -> None:
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    app.run_frames(frames)


def click(app: App, pos: tuple[int, int], button: int = 1, frames: int = 2) -> None:
    pos = (int(pos[0]), int(pos[1]))
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
    post(pygame.MOUSEBUTTONUP, pos=pos, button=button)
    app.run_frames(frames)


def press(app: App, key: int, mod: int = 0, frames: int = 2) -> None:
    post(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)
    post(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0)
    app.run_frames(frames)


def type_text(app: App, text: str) -> None:
    for ch in text:
        post(pygame.TEXTINPUT, text=ch)
    app.run_frames(2)


def button_named(manager, text: str):
    """The pygame-gui button of a manager showing ``text``."""
    for element in manager.get_sprite_group().sprites():
        if getattr(element, "text", None) == text and hasattr(element, "check_pressed"):
            return element
    names = [getattr(e, "text", "") for e in manager.get_sprite_group().sprites()]
    raise AssertionError(f"no button {text!r}; buttons: {names}")


def click_button(app: App, manager, text: str, frames: int = 3) -> None:
    click(app, button_named(manager, text).rect.center, frames=frames)


def confirm_if_asked(app: App, game: GameScreen) -> bool:
    """Enter on the "End movement" question, when units had not moved yet."""
    dialogs = game.ctx.dialogs
    if dialogs is None or dialogs.showing(ConfirmDialog) is None:
        return False
    press(app, pygame.K_RETURN, frames=3)
    return True


def run_until(app: App, condition, limit: int = 600) -> None:
    for _ in range(limit):
        if condition():
            return
        app.run_frames(1)
    raise AssertionError("the game did not get there in time")


def shots_dir() -> Path:
    """The screenshots of a test: in its game home (``BARRAGE_HOME``, set by the
    ``home`` fixture to a tmp folder), never in the repository."""
    return Path(os.environ["BARRAGE_HOME"]) / "screenshots"


def shot(app: App, name: str) -> Path:
    return app.screenshot(shots_dir() / name)


def played_game(turns: int, seed: int = 3):
    """A game of the default scenario played by the easy AI on both sides until
    north's first move of turn ``turns`` (any new sheet already laid)."""
    from game.ai import make_policy
    from game.dice import Dice
    from game.state import legal_commands, player_view

    state = new_game(SCENARIO, seed)
    policies = {side: make_policy("easy") for side in state.sides}
    dice = {side: Dice(seed * 10 + k) for k, side in enumerate(state.sides)}
    while state.result is None and not (
        state.turn == turns
        and state.phase == "movement"
        and acting_side(state) == "north"
        and state.pending_sheet is None
    ):
        side = acting_side(state)
        view = player_view(state, side)
        apply(state, policies[side].choose(view, legal_commands(state, side), dice[side]))
    return state


# --- the main path ---------------------------------------------------------------------------


def test_menu_new_solo_game_select_move_and_end_phases_change_the_engine_state(app):
    """Menu -> new solo game as north -> select a unit -> move it -> end the phases: the
    engine state changes only through the commands the clicks send."""
    app.open_menu()
    app.run_frames(3)
    menu = app.top
    assert isinstance(menu, MainMenu)
    names = [e.name for e in menu.entries]
    assert "Long Tom Hunt" in names
    # Pick the scenario in the list, the mode, the side and the AI level by clicking.
    listing = menu.scenario_list
    item = next(i for i in listing.item_list if i["text"] == "Long Tom Hunt")
    click(app, item["button_element"].rect.center, frames=3)
    assert menu.entry.name == "Long Tom Hunt"
    app.run_frames(2)
    assert menu.entry.thumbnail is not None, "the chosen scenario's map thumbnail is drawn"
    shot(app, "menu.png")
    click_button(app, menu.manager, "Solo against the AI")
    click_button(app, menu.manager, "North: Highland Lancers")
    click_button(app, menu.manager, "Easy")
    click(app, menu.seed_entry.rect.center)
    type_text(app, "7")
    assert menu.seats() == Seats(SOLO, "north", "easy", None)
    click_button(app, menu.manager, "Start", frames=3)

    game = app.top
    assert isinstance(game, GameScreen), f"the game screen opens, not {app.top}"
    state = game.session.state
    assert state.seed == 7 and state.phase == "setup"
    assert game.ctx.view.side == "north"

    # Set-up: accept the scenario's deployment; the AI sets up south.
    click_button(app, game.ui_manager, "Accept deployment")
    assert state.commands[0] == EndPhase("north").to_dict()
    run_until(app, lambda: state.phase == "movement" and acting_side(state) == "north")
    app.run_frames(2)

    # Select a unit with Tab (centres on it), then click it like a player.
    press(app, pygame.K_TAB)
    uid = game.ctx.selected
    assert uid is not None and game.units.can_move_now(game.ctx, uid)
    start = game.ctx.view.units[uid].hex
    click(app, game.hex_to_screen(start))
    assert game.ctx.selected == uid
    reach = game.units.reach(game.ctx)
    assert reach is not None and len(reach) > 3
    w, h = app.size
    targets = [
        hx
        for hx, cost in reach.costs().items()
        if 0 < cost <= 3
        and hx != start
        and 340 < game.hex_to_screen(hx)[0] < w - 340
        and 120 < game.hex_to_screen(hx)[1] < h - 240
    ]
    assert targets, "a reachable hex on screen"
    target = targets[-1]
    move_mouse(app, game.hex_to_screen(target))
    assert game.ctx.hovered == target
    game.set_zoom(4)
    game.camera.centre_on(target)
    app.run_frames(2)
    move_mouse(app, game.hex_to_screen(target), frames=2)
    shot(app, "battle_near_path.png")
    click(app, game.hex_to_screen(target))
    assert game.units.plan is not None and game.units.plan.to == target
    facing = game.units.plan.facing
    commands = len(state.commands)
    click(app, game.hex_to_screen(target))  # the second click moves
    moved = state.units[uid]
    assert moved.hex == target and moved.moved and moved.facing == facing
    assert state.commands[commands] == Move("north", uid, target, facing).to_dict()
    shot(app, "battle_after_move.png")

    # End movement: the other units hold as their turns come; then the phases end.
    run_until(app, lambda: acting_side(state) == "north" or state.phase != "movement")
    if state.phase == "movement":
        click_button(app, game.ui_manager, "End movement")
        assert confirm_if_asked(app, game), "three units had not moved: the player is asked"
    run_until(app, lambda: state.phase == "targeting" and acting_side(state) == "north")
    holds = [c for c in state.commands if c["kind"] == "hold" and c["side"] == "north"]
    assert len(holds) == 3, "the three other north units held"
    app.run_frames(2)
    click_button(app, game.ui_manager, "End targeting")
    run_until(
        app, lambda: (state.phase == "attack" and acting_side(state) == "north") or state.turn > 1
    )
    if state.turn == 1:
        app.run_frames(2)
        click_button(app, game.ui_manager, "End attacks")
    run_until(app, lambda: state.turn == 2)
    assert state.phase == "movement" and state.result is None
    assert state.units[uid].hex == target
    # The log panel shows the side's log.
    app.run_frames(2)
    assert game.log_panel._lines, "the log lists what happened"


def test_battle_screenshots_at_far_and_near_zoom(app):
    """Screenshots of a battle: far zoom (whole area), near zoom with a selected unit
    and its reachable hexes."""
    state = played_game(turns=4)
    game = app.open_game(state, Seats(SOLO, "north", "easy"))
    run_until(app, lambda: acting_side(state) == "north")
    assert state.queue.arrivals, "shells have landed in the first turns"
    game.set_zoom(1)
    game.camera.fit(game.map_layer.world_bounds())
    app.run_frames(3)
    shot(app, "battle_far.png")
    on_board = {u.id for u in state.units.values() if u.side == "north" and u.hex is not None}
    assert set(game.units.drawn) >= on_board
    # Near: the Wolfhound selected by a click, the mouse resting on a hex it can reach.
    unit = state.units["n-hunter-1"]
    game.set_zoom(4)
    game.camera.centre_on(unit.hex)
    app.run_frames(2)
    click(app, game.hex_to_screen(unit.hex))
    assert game.ctx.selected == unit.id
    reach = game.units.reach(game.ctx)
    assert reach is not None
    target = max(
        (h for h, c in reach.costs().items() if c <= 6 and h.r > unit.hex.r),
        key=lambda h: (reach.cost(h), h),
    )
    move_mouse(app, game.hex_to_screen(target), frames=30)
    shot(app, "battle_near.png")
    assert game.unit_panel.shown == unit.id
    assert game.tooltip.lines and game.tooltip.lines[0].startswith("Sheet (")
    assert f"Move here: {reach.cost(target)} MP" in game.tooltip.lines
    move_mouse(app, game.hex_to_screen(unit.hex), frames=30)
    assert any(unit.name in line for line in game.tooltip.lines)


# --- map controls, overlays, saves ---------------------------------------------------------------


def test_wheel_zooms_around_the_mouse_drag_and_keys_pan(app):
    state = new_game(SCENARIO, 4)
    game = app.open_game(state, Seats(SOLO, "north"))
    app.run_frames(2)
    camera = game.camera
    camera.set_zoom(3)
    app.run_frames(1)
    spot = (700, 420)
    under = camera.screen_to_hex(*spot)
    move_mouse(app, spot)
    post(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0)
    app.run_frames(1)
    assert camera.zoom_index == 4
    assert camera.screen_to_hex(*spot) == under, "the hex under the mouse stays there"
    for _ in range(4):
        post(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0, precise_y=-1.0)
    app.run_frames(1)
    assert camera.zoom_index == 0
    assert len(ZOOM_SIZES) >= 5
    camera.set_zoom(3)
    before = (camera.cx, camera.cy)
    # Drag with the left button: the map follows the mouse and no click happens.
    post(pygame.MOUSEBUTTONDOWN, pos=(600, 400), button=1)
    post(pygame.MOUSEMOTION, pos=(640, 400), rel=(40, 0), buttons=(1, 0, 0))
    post(pygame.MOUSEMOTION, pos=(700, 430), rel=(60, 30), buttons=(1, 0, 0))
    post(pygame.MOUSEBUTTONUP, pos=(700, 430), button=1)
    app.run_frames(1)
    assert camera.cx == pytest.approx(before[0] - 100 / camera.size, abs=1e-6)
    assert camera.cy == pytest.approx(before[1] - 30 / camera.size, abs=1e-6)
    assert game.ctx.selected is None
    # Arrow keys pan while held.
    before = (camera.cx, camera.cy)
    post(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0)
    app.run_frames(10)
    post(pygame.KEYUP, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0)
    app.run_frames(1)
    assert camera.cx > before[0] and camera.cy == pytest.approx(before[1])


def test_escape_pauses_f1_lists_every_layers_keys_and_the_log_folds(app):
    state = new_game(SCENARIO, 5)
    game = app.open_game(state, Seats(SOLO, "north"))
    app.run_frames(2)
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.top, PauseMenu)
    shot(app, "pause.png")
    click_button(app, app.top.manager, "Resume (Esc)")
    assert app.top is game
    press(app, pygame.K_F1)
    assert isinstance(app.top, HelpOverlay)
    shot(app, "help.png")
    titles = [title for title, _ in app.top.sections]
    assert {"Map", "Game", "Units", "Log", "Phase bar"} <= set(titles)
    for layer in game.other_layers:
        if hasattr(layer, "keys") and list(layer.keys()):
            assert any(keys == list(layer.keys()) for _, keys in app.top.sections)
    press(app, pygame.K_F1)
    assert app.top is game
    assert not game.log_panel.open  # folded to its last line at first
    press(app, pygame.K_F2)
    assert game.log_panel.open
    press(app, pygame.K_F2)
    assert not game.log_panel.open


def test_save_with_ctrl_s_and_load_with_ctrl_l(app, tmp_path):
    state = new_game(SCENARIO, 6)
    apply(state, EndPhase("north"))
    game = app.open_game(state, Seats(HOTSEAT))
    app.run_frames(2)
    from tests.test_ui_hotseat import take_seat

    take_seat(app)  # the hand-over to the acting player (set-up needs its secrets)
    assert app.top is game
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    dialog = app.top
    assert isinstance(dialog, SaveDialog)
    dialog.entry.set_text("")
    type_text(app, "my battle")
    shot(app, "save_dialog.png")
    click_button(app, dialog.manager, "Save")
    saved = tmp_path / "home" / "saves" / "my battle.json"
    assert saved.is_file() and (tmp_path / "home" / "saves" / "my battle.seats.json").is_file()
    assert app.top is game
    press(app, pygame.K_l, mod=pygame.KMOD_CTRL)
    dialog = app.top
    assert isinstance(dialog, LoadDialog)
    entry = next(i for i in dialog.listing.item_list if i["text"].startswith("my battle"))
    click(app, entry["button_element"].rect.center)
    click_button(app, dialog.manager, "Load", frames=3)
    loaded = app.game
    assert loaded is not None and loaded is not game
    assert loaded.seats.mode == HOTSEAT
    from game.state import state_hash

    assert state_hash(loaded.session.state) == state_hash(state)


def test_a_save_whose_seats_file_names_another_games_side_still_loads(app, tmp_path):
    """The seats beside a save are a convenience: seats that do not fit the game (a side
    it does not have, a broken file) give way to the scenario's own, never a refusal
    that speaks of a command-line option."""
    import json

    from game.state import save_game
    from game.ui.seats import read_seats, seats_path

    state = new_game(SCENARIO, 14)
    path = tmp_path / "odd.json"
    save_game(state, path)
    seats_path(path).write_text(json.dumps({"mode": "solo", "human": "east"}), encoding="utf-8")
    seats = read_seats(path, state)
    assert seats.mode == SOLO and seats.human in state.sides
    game = app.load_game(path)
    assert app.game is game and game.seats.human in state.sides
    seats_path(path).write_text(json.dumps({"mode": "watch", "watch": 3}), encoding="utf-8")
    assert read_seats(path, state).watch is None


def test_an_illegal_command_shows_the_engines_reason(app):
    state = new_game(SCENARIO, 8)
    game = app.open_game(state, Seats(SOLO, "north"))
    app.run_frames(2)
    unit = state.units["n-hunter-1"]
    far = Hex(unit.hex.q, unit.hex.r + 30)
    assert not game.ctx.submit(Move("north", unit.id, far, 1))
    assert game.ctx.toasts and game.ctx.toasts[-1].error
    assert "movement" in game.ctx.toasts[-1].text or "phase" in game.ctx.toasts[-1].text
    app.run_frames(1)
    assert state.commands == []


def test_end_screen_shows_the_result_and_statistics(app):
    state = new_game(SCENARIO, 9)
    state.turn_limit = 1
    state.units["s-long-tom"].destroyed = True  # the north wins in the end phase of turn 1
    apply(state, EndPhase("north"))
    apply(state, EndPhase("south"))
    while state.phase == "movement":
        side = acting_side(state)
        unit = next(u for u in state.living(side) if u.hex is not None and not u.moved)
        apply(state, Hold(side, unit.id))
    while state.result is None:
        apply(state, EndPhase(acting_side(state)))
    game = app.open_game(state, Seats(SOLO, "north"))
    app.run_frames(3)
    end = app.top
    assert isinstance(end, EndScreen)
    assert end.result.winner == "north"
    stats = {s.side: s for s in end.stats}
    assert stats["south"].lost == 1 and stats["north"].lost == 0
    assert stats["north"].units == 5
    shot(app, "end_screen.png")
    click_button(app, end.manager, "Look at the map")
    assert app.top is game
    app.run_frames(2)
    assert app.top is game, "the end screen is shown once"


def test_the_end_screen_waits_until_the_last_shells_have_been_shown(app):
    """A game that ends in the artillery phase plays its last arrivals first: the end
    screen would otherwise freeze them under it, unseen."""
    from game.state import PlotFire

    state = new_game(SCENARIO, 5)
    state.turn_limit = 2
    apply(state, EndPhase("north"))
    apply(state, EndPhase("south"))
    while state.turn < 2 or state.phase != "attack" or acting_side(state) != "north":
        side = acting_side(state)
        if state.phase == "movement":
            unit = next(u for u in state.living(side) if u.hex is not None and not u.moved)
            apply(state, Hold(side, unit.id))
            continue
        if state.phase == "targeting" and state.turn == 1 and side == "north":
            target = state.units["s-spotter"].hex
            apply(state, PlotFire("north", "n-long-tom", 1, target, "standard"))
        apply(state, EndPhase(side))
    game = app.open_game(state, Seats(SOLO, "north", "easy"))
    app.run_frames(3)
    press(app, pygame.K_RETURN, mod=pygame.KMOD_CTRL, frames=10)
    assert state.result is not None
    animation = game.ctx.artillery.animation
    assert animation.busy, "the shell landing in the last turn is on show"
    assert app.top is game
    press(app, pygame.K_ESCAPE, frames=3)  # skip the rest of the arrivals
    assert isinstance(app.top, EndScreen)


def test_resizing_the_window_relays_out_the_game_screen(app):
    state = new_game(SCENARIO, 10)
    game = app.open_game(state, Seats(SOLO, "north"))
    app.run_frames(2)
    post(pygame.VIDEORESIZE, w=1600, h=900, size=(1600, 900))
    app.run_frames(2)
    assert app.size == (1600, 900)
    assert game.camera.viewport == (1600, 900)
    menu_button = button_named(game.ui_manager, "Menu")
    assert menu_button.rect.right <= 1600 and menu_button.rect.right > 1400


def test_shrinking_the_window_under_the_pause_menu_redraws_the_game_beneath(app):
    """The game is drawn under an overlay without its update: a resize must still move
    what it draws (a shell in flight aimed off screen crashed the frame)."""
    from game.state import PlotFire

    state = new_game(SCENARIO, 12)
    apply(state, EndPhase("north"))
    apply(state, EndPhase("south"))
    while state.phase == "movement":
        side = acting_side(state)
        unit = next(u for u in state.living(side) if u.hex is not None and not u.moved)
        apply(state, Hold(side, unit.id))
    if acting_side(state) != "north":
        apply(state, EndPhase(acting_side(state)))
    target = state.units["s-spotter"].hex
    apply(state, PlotFire("north", "n-long-tom", 1, target, "standard"))
    game = app.open_game(state, Seats(SOLO, "north"))
    game.camera.set_zoom(6)
    game.camera.centre_on(state.units["n-spotter"].hex)
    app.run_frames(2)
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.top, PauseMenu)
    # The window manager shrinks the window, then SDL reports it.
    pygame.display.set_mode((960, 600), pygame.RESIZABLE)
    post(pygame.VIDEORESIZE, w=960, h=600, size=(960, 600))
    app.run_frames(3)
    assert app.window.get_size() == (960, 600) == game.camera.viewport


def test_watch_mode_plays_ai_against_ai_without_a_human(app):
    state = new_game(SCENARIO, 11)
    game = app.open_game(state, Seats("watch", level="easy"))
    assert not game.session.humans
    # On a fast machine the AIs may play a whole phase within one frame's budget, so
    # the test waits for turn 1's targeting or anything after it.
    run_until(
        app,
        lambda: (state.turn, PHASES.index(state.phase)) >= (1, PHASES.index(TARGETING)),
        limit=400,
    )
    assert state.commands, "the AIs played"


@pytest.mark.parametrize("mode", [SOLO, HOTSEAT, "watch"])
def test_the_screen_keeps_its_view_while_nothing_happens(app, monkeypatch, mode):
    """The screen takes a fresh view only when the one it holds belongs to another
    reader (a hand-over, the acting side changing): frames with nothing new,
    in watch mode too, reuse it."""
    state = new_game(SCENARIO, 11)
    game = app.open_game(state, Seats(mode, "north" if mode == SOLO else None, "easy"))
    # Hold the AIs, so nothing changes between the frames.
    monkeypatch.setattr(type(game), "_step_ai", lambda self, dt: None)
    app.run_frames(2)
    assert game.ctx.view.side == game.session.view_side()
    taken = []
    original = game.session.view
    monkeypatch.setattr(game.session, "view", lambda: taken.append(1) or original())
    app.run_frames(5)
    assert taken == []


# --- the command line ---------------------------------------------------------------------------


def run_main(*args: str, env: dict[str, str], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``python main.py ARGS`` in a child process, its output captured as text."""
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def test_screenshot_option_renders_headless_and_saves_a_png(tmp_path):
    out = tmp_path / "shot.png"
    env = dict(os.environ, BARRAGE_HOME=str(tmp_path / "home"))
    env.pop("SDL_VIDEODRIVER", None)  # the option itself must choose the dummy driver
    done = run_main(
        "--scenario",
        str(SCENARIO),
        "--seed",
        "3",
        "--screenshot",
        str(out),
        "--frames",
        "4",
        env=env,
    )
    assert done.returncode == 0, done.stderr
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 800)
    colours = {image.get_at((x, y))[:3] for x in range(0, 1280, 40) for y in range(0, 800, 40)}
    assert len(colours) > 20, "a map, not a blank window"


def test_bad_window_options_get_a_clear_message(tmp_path):
    env = dict(os.environ, BARRAGE_HOME=str(tmp_path / "home"))
    done = run_main("--scenario", "nowhere.toml", "--frames", "1", env=env)
    assert done.returncode == 1
    assert "main.py: cannot start" in done.stderr and "nowhere.toml" in done.stderr
    assert "Traceback" not in done.stderr
    done = run_main(
        "--scenario",
        str(SCENARIO),
        "--mode",
        "solo",
        "--side",
        "west",
        "--frames",
        "1",
        env=env,
    )
    assert done.returncode == 2 and "not a side of this scenario" in done.stderr


def test_default_scenario_constant_is_a_shipped_file():
    assert Path(DEFAULT_SCENARIO).is_file()


def plan_a_move(app: App, game: GameScreen) -> tuple[str, Hex]:
    """Select north's hunter and plan a two-MP move by clicking, as a player does."""
    unit = game.session.state.units["n-hunter-1"]
    game.set_zoom(5)
    game.camera.centre_on(unit.hex)
    app.run_frames(2)
    click(app, game.hex_to_screen(unit.hex))
    reach = game.units.reach(game.ctx)
    target = next(h for h, c in reach.costs().items() if c == 2)
    click(app, game.hex_to_screen(target))
    assert game.units.plan is not None and game.units.plan.to == target
    return unit.id, target


def test_a_facing_handle_moves_the_unit_ending_with_that_facing(app):
    """MOV-1 facing: the six handles around a planned destination pick the final facing."""
    state = new_game(SCENARIO, 12)
    apply(state, EndPhase("north"))
    apply(state, EndPhase("south"))
    game = app.open_game(state, Seats(SOLO, "north", "easy"))
    run_until(app, lambda: acting_side(state) == "north")
    uid, target = plan_a_move(app, game)
    unit = state.units[uid]
    reach = game.units.reach(game.ctx)
    plan = game.units.plan
    handles = game.units._handle_centres(game.ctx)
    other = next(d for d in range(1, 7) if d != plan.facing and reach.route(target, d) is not None)
    click(app, handles[other])
    assert unit.hex == target and unit.facing == other
    assert state.commands[-1]["kind"] == "move" and state.commands[-1]["facing"] == other


def test_continue_in_the_menu_reopens_the_autosave(app):
    state = new_game(SCENARIO, 13)
    game = app.open_game(state, Seats(SOLO, "north", "easy"))
    app.run_frames(2)
    click_button(app, game.ui_manager, "Accept deployment")
    run_until(app, lambda: state.turn >= 1)  # the AI sets up; turn 1 writes the autosave
    from game.ui.home import autosave_dir

    assert (autosave_dir() / "autosave.json").is_file()
    saved_turn = state.turn
    app.open_menu()
    app.run_frames(2)
    menu = app.top
    click_button(app, menu.manager, "Continue (autosave)", frames=3)
    loaded = app.game
    assert loaded is not None and loaded is not game
    assert loaded.session.state.turn == saved_turn
    assert loaded.seats == Seats(SOLO, "north", "easy")


def test_closing_the_window_mid_game_writes_the_autosave(app):
    state = new_game(SCENARIO, 14)
    apply(state, EndPhase("north"))
    app.open_game(state, Seats(SOLO, "north", "easy"))
    app.run_frames(1)
    post(pygame.QUIT)
    app.run_frames(1)
    assert not app.running
    saved = app.save_on_exit()
    from game.state import load_game, state_hash

    assert saved is not None and state_hash(load_game(saved)) == state_hash(state)


def test_panning_scrolls_the_composed_map_and_matches_a_whole_redraw(app):
    """Principle 10: while the camera pans only the uncovered strips are drawn; the result
    is the same picture as drawing every sheet again."""
    state = new_game(SCENARIO, 15)
    game = app.open_game(state, Seats(SOLO, "north"))
    game.set_zoom(3)
    app.run_frames(3)
    for step in ((7, 0), (0, -5), (-13, 9), (4, 4), (-2, -11)):
        game.camera.pan(*step)
        app.run_frames(1)
    app.run_frames(1)  # the camera rests: terrain and sides are composed
    scrolled = pygame.image.tobytes(game._map_image, "RGB")
    game._map_key = None  # force the whole redraw
    app.run_frames(2)
    assert pygame.image.tobytes(game._map_image, "RGB") == scrolled


@pytest.mark.parametrize("size", [(1024, 700), (1280, 800), (1920, 1080)])
def test_help_scrolls_to_every_key_at_every_size(home, size):
    """F1 help shows every key at every window size: a list taller than the window
    scrolls (wheel, arrows, Page Down, End) down to its last line and back."""
    app = App(size, ai_delay=0.0)
    pygame.event.clear()
    try:
        app.open_game(new_game(SCENARIO, 5), Seats(SOLO, "north"))
        app.run_frames(2)
        press(app, pygame.K_F1)
        help_ = app.top
        assert isinstance(help_, HelpOverlay)
        body = help_._body_for(size)
        rows = sum(1 + len(keys) for _, keys in help_.sections)
        columns = 2 if size[0] >= 1100 else 1
        assert body.get_height() >= rows * help_.LINE // columns
        if help_.max_offset() == 0:
            assert help_.view_height() == body.get_height()  # all of it in sight
            shot(app, f"help_{size[0]}x{size[1]}.png")
            return
        press(app, pygame.K_PAGEDOWN)
        assert help_.offset > 0
        before = help_.offset
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1))
        app.run_frames(2)
        assert help_.offset > before or help_.offset == help_.max_offset()
        press(app, pygame.K_END)
        assert help_.offset == help_.max_offset()
        shot(app, f"help_end_{size[0]}x{size[1]}.png")
        press(app, pygame.K_HOME)
        assert help_.offset == 0 and app.top is help_
    finally:
        app.shutdown()
