"""Replays in the game window (``python main.py replay FILE``), driven headless by real
pygame events: a short seeded AI-against-AI game is played and its log saved, then
opened in the replay screen and stepped through by keys and buttons.

Covered (the timeline itself: tests/test_timeline.py): stepping to the end by
keys reaches the game's final hash (the acceptance test) and shows the result; a
step back lands on the previous turn; stepping over an artillery phase plays the arrivals; the views
(hidden enemy units only in the umpire's view of both sides); a save opens like
a log; nothing can be changed; and the command line's errors (missing, corrupt,
newer, not replaying, altered) give one clear message and exit code 1.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pygame
import pytest

from game.secrecy import UMPIRE
from game.state import (
    EndPhase,
    GameState,
    load_log,
    player_view,
    replay,
    save_game,
    state_hash,
)
from game.state.timeline import ReplayTimeline
from game.state.view import umpire_view
from game.ui.app import App
from game.ui.replay import BOTH, ReplayScreen
from game.ui.screens import HelpOverlay
from main import main
from tests.test_timeline import TURNS, recorded_game
from tests.test_ui_app import button_named, click, run_main

ROOT = Path(__file__).resolve().parents[1]


def press(app: App, key: int, frames: int = 2, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0))
    app.run_frames(frames)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GameState]:
    return recorded_game(tmp_path_factory)


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    window = App((1280, 800), ai_delay=0.0, autosave=False)
    pygame.event.clear()
    yield window
    window.shutdown()


def open_replay(app: App, path: Path, side: str = BOTH, position: int = 0) -> ReplayScreen:
    screen = app.open_replay(path, side, position)
    app.run_frames(2)
    assert app.top is screen
    return screen


def first_landing(timeline: ReplayTimeline) -> int:
    """The first position reached by a command that landed shells."""
    for k in range(1, timeline.last + 1):
        state = timeline.state_at(k)
        if any(e.kind == "arrival" for e in timeline.step_events(state, k)):
            return k
    raise AssertionError("no shell lands in this game")


# --- the window ----------------------------------------------------------------------------------


def test_stepping_to_the_end_by_keys_reaches_the_games_final_hash(app, game):
    """The acceptance test: a replay stepped to its end is the game that was played."""
    path, final = game
    screen = open_replay(app, path)
    assert screen.position == 0 and screen.ctx.view.turn == 0
    turns_seen = [screen.ctx.view.turn]
    for _ in range(TURNS + 2):
        press(app, pygame.K_PAGEDOWN)
        turns_seen.append(screen.ctx.view.turn)
        if screen.position == screen.timeline.last:
            break
    assert screen.position == screen.timeline.last
    assert state_hash(screen.session.state) == state_hash(final)
    assert turns_seen[: final.turn + 1] == list(range(final.turn + 1)), "one turn a step"
    # The end: the result in a banner, and no end screen stopping the stepping.
    app.run_frames(2)
    assert "replay_end" in screen.ctx.panels
    assert app.top is screen
    # A step back lands on the start of the previous turn.
    press(app, pygame.K_PAGEUP)
    assert screen.ctx.view.turn == final.turn - 1
    assert screen.position == screen.timeline.turn_start(final.turn - 1)
    assert "replay_end" not in screen.ctx.panels
    # Finer steps: a command forward and back, a phase forward.
    at = screen.position
    press(app, pygame.K_PERIOD)
    assert screen.position == at + 1
    press(app, pygame.K_COMMA)
    assert screen.position == at
    press(app, pygame.K_RIGHTBRACKET)
    assert screen.position == screen.timeline.next_phase(at)
    marks = screen.timeline.marks
    assert marks[screen.position].segment != marks[at].segment
    # End and Ctrl+Home: the two ends of the game.
    press(app, pygame.K_END)
    assert screen.position == screen.timeline.last
    assert state_hash(screen.session.state) == state_hash(final)
    press(app, pygame.K_HOME, mod=pygame.KMOD_LCTRL)
    assert screen.position == 0
    assert state_hash(screen.session.state) == state_hash(replay(load_log(path), upto=0))


def test_the_step_buttons_step_by_mouse(app, game):
    path, _ = game
    screen = open_replay(app, path)
    manager = screen.game.ui_manager
    click(app, button_named(manager, "Turn »").rect.center)
    assert screen.position == screen.timeline.turn_start(1)
    click(app, button_named(manager, "Step ›").rect.center)
    assert screen.position == screen.timeline.turn_start(1) + 1
    click(app, button_named(manager, "« Turn").rect.center)
    assert screen.position == 0
    assert not button_named(manager, "« Turn").is_enabled  # nothing before the start


def test_stepping_forward_over_the_artillery_phase_plays_the_arrivals(app, game):
    path, _ = game
    screen = open_replay(app, path)
    landing = first_landing(screen.timeline)
    screen.go(landing - 1)
    app.run_frames(2)
    animation = screen.animation()
    assert animation is not None and not animation.busy
    press(app, pygame.K_PERIOD)
    assert screen.position == landing
    assert animation.busy and animation.playing is not None
    shown = animation.playing.show
    assert shown.turn == screen.timeline.marks[landing - 1].turn
    # Stepping on while the shells play ends them; stepping back plays nothing.
    press(app, pygame.K_COMMA)
    assert screen.position == landing - 1 and not animation.busy
    # Forward again: the shells play again, and Esc skips them.
    press(app, pygame.K_PERIOD)
    assert animation.busy
    press(app, pygame.K_ESCAPE)
    assert not animation.busy and app.top is screen
    # A jump over several turns does not play the shells of every turn.
    press(app, pygame.K_HOME, mod=pygame.KMOD_LCTRL)
    press(app, pygame.K_END)
    assert not animation.busy


def test_views_hidden_enemy_units_appear_only_in_the_view_of_both_sides(app, game):
    """ART-4: a side's view of the replay has nothing of the enemy's hidden units (its
    guns off the board); the umpire's view (both sides, replays only) has all of them."""
    path, _ = game
    screen = open_replay(app, path, position=0)
    screen.go(screen.timeline.turn_start(1))
    app.run_frames(2)
    guns = {"north": "n-long-tom", "south": "s-long-tom"}
    state = screen.session.state
    assert all(state.units[g].hidden for g in guns.values())
    assert screen.ctx.view.umpire is not None
    assert set(guns.values()) <= set(screen.ctx.view.units)
    assert "umpire" in screen.ctx.panels
    seen = []
    for _ in range(3):
        press(app, pygame.K_v)
        view = screen.ctx.view
        seen.append(view.side)
        if view.umpire is not None:
            assert set(guns.values()) <= set(view.units)
            assert "umpire" in screen.ctx.panels
            continue
        enemy = state.other(view.side)
        assert guns[enemy] not in view.units, f"{view.side} must not see {guns[enemy]}"
        assert guns[view.side] in view.units
        assert "umpire" not in screen.ctx.panels
        # Nothing of the enemy's plots or hidden units on the map either.
        assert guns[enemy] not in screen.game.units.drawn
        assert all(p.side == view.side for p in view.plots)
    assert seen == ["north", "south", UMPIRE]
    # Before shells land: the umpire's view holds every shell in flight with its side,
    # each side's view only its own (ART-9), and the map marks them only for the umpire.
    screen.go(first_landing(screen.timeline) - 1)
    app.run_frames(2)
    state = screen.session.state
    both = umpire_view(state)
    assert both.umpire is not None and both.umpire.plots and both.plots == []
    for side in state.sides:
        own = player_view(state, side).plots
        assert len(own) == sum(1 for p in both.umpire.plots if p.side == side)
        assert all(p.side == side for p in own)
    assert len(both.umpire.plots) == len(state.queue.in_flight())
    assert screen.overlay.tooltip_lines(both.umpire.plots[0].target, screen.ctx)


def test_a_replay_takes_no_commands(app, game):
    path, _ = game
    screen = open_replay(app, path)
    before = state_hash(screen.session.state)
    assert screen.ctx.submit(EndPhase("north")) is False
    assert any("replay" in t.text for t in screen.ctx.toasts)
    app.run_frames(5)
    assert state_hash(screen.session.state) == before and screen.position == 0
    # Closing the window leaves the autosave alone: a replay is not a game in progress.
    app.autosave = True
    assert app.save_on_exit() is None


def test_space_plays_the_replay_and_pauses_it(app, game):
    path, _ = game
    screen = open_replay(app, path)
    press(app, pygame.K_SPACE)
    assert screen.playing
    app.run_frames(60)  # a second: a command every 0.35 s
    played = screen.position
    assert 2 <= played <= 4
    press(app, pygame.K_SPACE)
    assert not screen.playing
    app.run_frames(60)
    assert screen.position == played


def test_help_lists_the_replay_keys_first(app, game):
    path, _ = game
    screen = open_replay(app, path)
    press(app, pygame.K_F1)
    top = app.top
    assert isinstance(top, HelpOverlay) and top is not screen
    assert top.sections[0][0] == "Replay"
    assert ("Page Down / Page Up", "next / previous turn") in top.sections[0][1]
    game_keys = dict(next(keys for title, keys in top.sections if title == "Game"))
    assert not any("hand-over" in key for key in game_keys)
    press(app, pygame.K_F1)
    assert app.top is screen


def test_a_full_save_replays_from_its_commands(app, game, tmp_path):
    _, final = game
    save = tmp_path / "finished.json"
    save_game(final, save)
    screen = open_replay(app, save, side="south")
    assert screen.ctx.view.side == "south"
    press(app, pygame.K_END)
    assert state_hash(screen.session.state) == state_hash(final)


def test_screenshot_of_the_replay(app, game, tmp_path):
    """The umpire's view while a shell lands (docs/screenshots/replay.png with
    BARRAGE_SCREENSHOTS=docs/screenshots)."""
    path, _ = game
    screen = open_replay(app, path)
    landing = first_landing(screen.timeline)
    screen.go(landing - 1)
    screen.game.set_zoom(4)
    app.run_frames(2)
    press(app, pygame.K_PERIOD, frames=150)  # well into the first shell's show
    assert screen.animation() is not None and screen.animation().busy
    folder = os.environ.get("BARRAGE_SCREENSHOTS")
    out = (ROOT / folder if folder else tmp_path) / "replay.png"
    saved = app.screenshot(out)
    assert saved.stat().st_size > 20_000


# --- the command line ----------------------------------------------------------------------------


def test_command_line_opens_a_replay_and_saves_a_screenshot(game, tmp_path, capsys):
    path, _ = game
    shot = tmp_path / "replay.png"
    args = ["--side", "north", "--turn", "2", "--screenshot", str(shot), "--frames", "2"]
    code = main(["replay", str(path), *args])
    assert code == 0, capsys.readouterr()
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_corrupt_file_exits_with_1_and_a_clear_message(game, tmp_path):
    path, _ = game
    broken = tmp_path / "broken.log.json"
    broken.write_text(path.read_text(encoding="utf-8")[:-200], encoding="utf-8")
    run = run_main("replay", str(broken), env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert run.returncode == 1
    message = run.stdout + run.stderr
    assert "Traceback" not in message
    assert str(broken) in message and "damaged" in message and "truncated" in message


def _altered(path: Path, tmp_path: Path, name: str, change) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    out = tmp_path / name
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def test_every_bad_file_gives_one_message_and_exit_code_1(game, tmp_path, capsys):
    path, _ = game

    def newer(d):
        d["version"] = 999

    def illegal(d):
        # South ends the set-up first: north acts first, so this does not replay.
        d["commands"].insert(0, {"kind": "end_phase", "side": "south"})

    def altered(d):
        d["commands"] = d["commands"][:-3]

    cases = {
        tmp_path / "missing.log.json": "no such game log file",
        _altered(path, tmp_path, "newer.log.json", newer): "newer than this game",
        _altered(path, tmp_path, "illegal.log.json", illegal): "command 1 does not replay",
        _altered(path, tmp_path, "altered.log.json", altered): "hash mismatch",
    }
    other = tmp_path / "other.json"
    other.write_text('{"format": "something-else", "version": 1}', encoding="utf-8")
    cases[other] = "not a Barrage game log"
    for bad, expected in cases.items():
        assert main(["replay", str(bad)]) == 1, bad
        out = capsys.readouterr()
        lines = [line for line in (out.out + out.err).splitlines() if line]
        assert len(lines) == 1 and expected in lines[0] and str(bad) in lines[0], lines


def test_a_side_the_game_does_not_have_is_refused(game, capsys):
    path, _ = game
    assert main(["replay", str(path), "--side", "west"]) == 2
    err = capsys.readouterr().err
    assert "main.py replay: error: --side west: the sides of this game are north and" in err
    assert main(["replay", str(path), "--turn", "99"]) == 2
    assert "main.py replay: error: --turn 99: turn 99 is not in this game" in (
        capsys.readouterr().err
    )
