"""The tutorial in the real window, headless (SDL dummy driver), driven by posted
events: the menu's Tutorial entry, ``python main.py --tutorial``, every lesson from
the first to the last by clicks and keys, and leaving and resuming it.

Screenshots of several lessons go to the test's folder; the README's picture of the
card (tutorial.png, the reach lesson) goes to docs/screenshots with
``BARRAGE_SCREENSHOTS=docs/screenshots``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame

from game.hexmath import Hex, distance
from game.state import acting_side
from game.state.moving import mover
from game.ui.app import App
from game.ui.dialogs import AmmunitionChoice, AttackDialog, SheetPicker
from game.ui.game_screen import GameScreen
from game.ui.lessons import LESSONS, PLAYER, load_progress
from game.ui.menu import MainMenu
from game.ui.tutorial import TutorialCard, open_tutorial, tutorial_dir
from tests.test_ui_app import (
    ROOT,
    button_named,
    click,
    click_button,
    confirm_if_asked,
    move_mouse,
    press,
    run_until,
)

KEYS = [lesson.key for lesson in LESSONS]
FRAMES = 1500  # frames the window may take for a phase (the AI, the arrivals shown)


def card_of(screen: GameScreen) -> TutorialCard:
    return next(layer for layer in screen.layers if isinstance(layer, TutorialCard))


def lesson_of(screen: GameScreen) -> str:
    current = card_of(screen).progress.current
    return "done" if current is None else current.key


def player_to_act(screen: GameScreen, phase: str) -> bool:
    state = screen.session.state
    return (
        acting_side(state) == PLAYER
        and state.phase == phase
        and state.pending_sheet is None
        and not screen.layers_busy()
    )


def click_card(app: App, screen: GameScreen, name: str) -> None:
    app.run_frames(1)
    click(app, card_of(screen).buttons[name].rect.center)


def show(app: App, screen: GameScreen, h: Hex, zoom: int = 3) -> tuple[int, int]:
    """Centre the camera on a hex and return where it lies on the window."""
    screen.set_zoom(zoom)
    screen.camera.centre_on(h)
    app.run_frames(2)
    return screen.hex_to_screen(h)


def select(app: App, screen: GameScreen, unit: str) -> None:
    if screen.ctx.selected != unit:
        click(app, show(app, screen, screen.session.state.units[unit].hex))
    assert screen.ctx.selected == unit


def move_by_clicks(app: App, screen: GameScreen, unit: str, to: Hex) -> None:
    """Select a unit and move it as a player does: click it, click the hex (the plan),
    click again (the move)."""
    select(app, screen, unit)
    pos = show(app, screen, to)
    move_mouse(app, pos)
    click(app, pos)
    assert screen.units.plan is not None and screen.units.plan.to == to
    click(app, pos)


def orange_hex(app: App, screen: GameScreen, unit: str) -> Hex:
    """Select ``unit`` and find the cheapest hex of its sheet in the running tint."""
    state = screen.session.state
    select(app, screen, unit)
    walk = mover(state.units[unit]).walk_mp
    home = state.area.position_of(state.units[unit].hex)
    costs = screen.units.reach(screen.ctx).costs()
    return min((c, h) for h, c in costs.items() if c > walk and state.area.position_of(h) == home)[
        1
    ]


def end_phase_button(app: App, screen: GameScreen, phase: str) -> None:
    label = {"movement": "End movement", "targeting": "End targeting", "attack": "End attacks"}
    run_until(app, lambda: player_to_act(screen, phase), FRAMES)
    app.run_frames(2)
    click_button(app, screen.ui_manager, label[phase])
    confirm_if_asked(app, screen)


def end_turn(app: App, screen: GameScreen) -> None:
    turn = screen.session.state.turn
    for phase in ("movement", "targeting", "attack"):
        end_phase_button(app, screen, phase)
    run_until(app, lambda: screen.session.state.turn > turn, FRAMES)


def plot_by_keys(app: App, screen: GameScreen, target: Hex, picture: Path | None = None) -> None:
    """Plot mode by P, the hex by a click, the shell by Enter (the forecast is shown)."""
    run_until(app, lambda: player_to_act(screen, "targeting"), FRAMES)
    pos = show(app, screen, target)
    press(app, pygame.K_p)
    move_mouse(app, pos, frames=2)
    if picture is not None:
        app.screenshot(picture)
    click(app, pos)
    assert isinstance(screen.ctx.artillery.dialogs.top, AmmunitionChoice)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_ESCAPE)


def test_the_whole_tutorial_by_posted_events(app, shots, tmp_path):
    """From the menu's Tutorial entry to the last lesson, each lesson reached and done in
    order by clicks and keys; the card's Next after the lessons to read."""
    app.open_menu()
    app.run_frames(2)
    menu = app.top
    assert isinstance(menu, MainMenu)
    click_button(app, menu.manager, "Tutorial")
    screen = app.top
    assert isinstance(screen, GameScreen) and app.game is screen
    state = screen.session.state
    done: list[str] = []

    def reached(key: str) -> None:
        assert lesson_of(screen) == key, f"lesson {key!r} is next, not {lesson_of(screen)!r}"
        done.append(key)

    # 1. The set-up: accept the deployment.
    app.run_frames(2)
    reached("deploy")
    app.screenshot(tmp_path / "tutorial_deploy.png")
    click_button(app, screen.ui_manager, "Accept deployment")
    run_until(app, lambda: player_to_act(screen, "movement"), FRAMES)

    # 2. Move the tank one hex; 3. run the scout into the orange tint.
    reached("move")
    move_by_clicks(app, screen, "n-tank", state.area.hex_at((0, 0), "0911"))
    run_until(app, lambda: player_to_act(screen, "movement"), FRAMES)
    reached("reach")
    run_to = orange_hex(app, screen, "n-scout")
    app.screenshot(shots / "tutorial.png")  # the README's picture
    move_by_clicks(app, screen, "n-scout", run_to)
    assert state.units["n-scout"].movement_mode == "ran"
    end_phase_button(app, screen, "movement")

    # 4. Plot a shell at the enemy tank's hex.
    reached("plot")
    plot_by_keys(app, screen, state.units["s-picket"].hex)
    assert lesson_of(screen) == "land"
    end_phase_button(app, screen, "targeting")
    end_phase_button(app, screen, "attack")

    # 5. Turn 2 ends; the shell lands: the card waits for Next.
    reached("land")
    end_turn(app, screen)
    run_until(app, lambda: card_of(screen).progress.seen, FRAMES)
    app.screenshot(tmp_path / "tutorial_land.png")
    click_card(app, screen, "next")

    # 6. The second shot at the same hex is adjusted (ART-17).
    reached("adjust")
    end_phase_button(app, screen, "movement")
    plot_by_keys(app, screen, state.units["s-picket"].hex, tmp_path / "tutorial_adjust.png")
    run_until(app, lambda: lesson_of(screen) != "adjust", FRAMES)

    # 7. The announced direction of the enemy guns (ART-24): read, then Next.
    reached("bearing")
    run_until(app, lambda: card_of(screen).progress.seen, FRAMES)
    app.screenshot(tmp_path / "tutorial_bearing.png")
    click_card(app, screen, "next")
    end_phase_button(app, screen, "targeting")
    end_phase_button(app, screen, "attack")

    # 8. Off the west edge: the player picks the new sheet (MAP-6, MAP-7).
    reached("sheet")
    run_until(app, lambda: player_to_act(screen, "movement"), FRAMES)
    scout = "n-scout"
    select(app, screen, scout)
    reach = screen.units.reach(screen.ctx)
    exits = [h for h in reach.exits() if state.area.position_of(h) == (-1, 0)]
    corner = state.area.hex_at((0, 0), "0117")
    move_by_clicks(app, screen, scout, min(exits, key=lambda h: (distance(h, corner), h)))
    run_until(app, lambda: screen.ctx.artillery.dialogs.showing(SheetPicker) is not None, FRAMES)
    app.screenshot(tmp_path / "tutorial_sheet.png")
    press(app, pygame.K_RETURN)
    run_until(app, lambda: lesson_of(screen) != "sheet", FRAMES)

    # 9. South into the enemy's sheet: its guns are found when they fire in sight.
    reached("find")
    gun = state.units["s-thumper"]
    end_turn(app, screen)
    goal = gun.battery.offboard.hex  # the card's hint: the north-east corner of that sheet
    while gun.hex is None:
        run_until(app, lambda: player_to_act(screen, "movement"), FRAMES)
        select(app, screen, scout)
        reach = screen.units.reach(screen.ctx)
        exits = [h for h in reach.exits() if state.area.position_of(h) == (-1, 1)]
        inside = [h for h in reach.costs() if state.area.contains(h)]
        options = exits or inside
        move_by_clicks(app, screen, scout, min(options, key=lambda h: (distance(h, goal), h)))
        run_until(app, lambda: state.pending_sheet is None, FRAMES)
    for _ in range(3):  # found when they fire with the scout in sight (ART-4)
        if lesson_of(screen) != "find":
            break
        end_turn(app, screen)
        run_until(app, lambda: not screen.layers_busy(), FRAMES)

    # 10. Attack the guns with the scout.
    reached("strike")
    end_phase_button(app, screen, "movement")
    end_phase_button(app, screen, "targeting")
    run_until(app, lambda: player_to_act(screen, "attack"), FRAMES)
    select(app, screen, scout)
    pos = show(app, screen, gun.hex)
    press(app, pygame.K_f)
    move_mouse(app, pos)
    click(app, pos)
    run_until(app, lambda: screen.ctx.artillery.dialogs.showing(AttackDialog) is not None, 10)
    press(app, pygame.K_RETURN)
    run_until(app, lambda: lesson_of(screen) == "done", FRAMES)
    app.screenshot(tmp_path / "tutorial_done.png")
    assert done == KEYS
    # Start over: a new battle at the first lesson.
    press(app, pygame.K_ESCAPE)  # the attack dialog closes
    click_card(app, screen, "restart")
    again = app.top
    assert isinstance(again, GameScreen) and again is not screen
    assert lesson_of(again) == "deploy" and again.session.state.phase == "setup"


def test_leaving_and_resuming_keeps_the_lesson(app):
    """Leave tutorial saves the game and the lesson; Tutorial in the menu opens both
    again, and the lesson goes on from the log entries it had not seen."""
    screen = open_tutorial(app)
    app.run_frames(2)
    click_button(app, screen.ui_manager, "Accept deployment")
    run_until(app, lambda: player_to_act(screen, "movement"), FRAMES)
    assert lesson_of(screen) == "move"
    click_card(app, screen, "next")  # skip step
    assert lesson_of(screen) == "reach"
    turn, commands = screen.session.state.turn, len(screen.session.state.commands)
    click_card(app, screen, "leave")
    assert isinstance(app.top, MainMenu)
    saved = load_progress(tutorial_dir())
    assert saved.current is not None and saved.current.key == "reach"

    click_button(app, app.top.manager, "Tutorial")
    again = app.top
    assert isinstance(again, GameScreen) and again is not screen
    assert lesson_of(again) == "reach"
    assert again.session.state.turn == turn and len(again.session.state.commands) == commands
    # A walk is not a run; a run then completes the lesson resumed.
    state = again.session.state
    run_until(app, lambda: player_to_act(again, "movement"), FRAMES)
    move_by_clicks(app, again, "n-tank", state.area.hex_at((0, 0), "0911"))
    assert state.units["n-tank"].movement_mode == "walked" and lesson_of(again) == "reach"
    run_until(app, lambda: player_to_act(again, "movement"), FRAMES)
    move_by_clicks(app, again, "n-scout", orange_hex(app, again, "n-scout"))
    assert lesson_of(again) == "plot"
    click_card(app, again, "back")
    assert lesson_of(again) == "reach"
    app.shutdown()
    assert load_progress(tutorial_dir()).current.key == "reach", "closing the window saves it"


def test_tutorial_on_the_command_line(home):
    """``python main.py --tutorial`` opens the tutorial (here headless, with a
    screenshot); with --scenario it is a usage error (exit code 2)."""
    env = {**os.environ, "BARRAGE_HOME": str(home), "SDL_VIDEODRIVER": "dummy"}
    png = home / "tutorial.png"
    run = subprocess.run(
        [sys.executable, "main.py", "--tutorial", "--screenshot", str(png)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert png.is_file()
    wrong = subprocess.run(
        [sys.executable, "main.py", "--tutorial", "--scenario", "maps/long_tom_hunt.toml"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert wrong.returncode == 2
    assert "--tutorial plays its own battle" in wrong.stderr


def test_the_card_keeps_clear_of_the_top_bar_and_is_its_own_panel(app):
    screen = open_tutorial(app)
    app.run_frames(3)
    card = card_of(screen)
    assert screen.ctx.panels["tutorial"] == card.rect
    assert card.rect.top >= screen.phase_bar.rect.bottom
    assert card.rect.left >= 0 and card.rect.right < app.size[0] // 2
    # A click on the card does not reach the map (no unit is selected through it).
    click(app, card.rect.center)
    assert screen.ctx.selected is None
    click(app, card.title_rect.center)
    assert card.folded and card.rect.height < 40
    assert button_named(screen.ui_manager, "Accept deployment")
