"""Sound: the effects are the script's output, they play on the engine's events and the
arrival shows, Ctrl+M mutes, and the game runs silently where no audio device exists."""

from __future__ import annotations

import os
import runpy
import wave
from pathlib import Path

import pygame
import pytest

from game.state import PlotFire, Predesignate, apply
from game.ui import sound as snd
from game.ui.sound import NAMES, SOUNDS_DIR, SoundBoard, SoundLayer, make_layers
from tests.test_ui_app import run_main
from tests.test_ui_artillery import (
    Harness,
    attack_duel,
    land,
    long_tom_hunt,
    to_targeting,
    unit_hex_of,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.init()
    yield pygame.display.set_mode((1280, 800))
    pygame.quit()


class Heard:
    """Stands in for a pygame Sound: records what was played at which volume."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name, self.log, self.volume = name, log, 1.0

    def set_volume(self, volume: float) -> None:
        self.volume = volume

    def play(self) -> None:
        self.log.append(self.name)


def listening(layer: SoundLayer) -> list[str]:
    heard: list[str] = []
    layer.board.sounds = {name: Heard(name, heard) for name in NAMES}
    layer.board.problem = None
    return heard


def test_the_sound_files_are_what_the_script_makes_small_mono_22khz(tmp_path, capsys):
    runpy.run_path(str(ROOT / "scripts" / "make_sounds.py"))["main"](tmp_path)
    for name in NAMES:
        committed = SOUNDS_DIR / f"{name}.wav"
        assert committed.read_bytes() == (tmp_path / f"{name}.wav").read_bytes(), name
        with wave.open(str(committed)) as w:
            assert (w.getnchannels(), w.getframerate()) == (1, 22_050)
            assert 0.1 <= w.getnframes() / w.getframerate() <= 0.7
        assert committed.stat().st_size < 16_000


def test_a_direct_fire_hit_sounds_the_gun_and_the_armour_once():
    state = attack_duel()
    h = Harness(state, "north")
    layer = make_layers(h.ctx)[0]
    heard = listening(layer)
    layer.update(1 / 60, h.ctx)
    assert heard == [], "the log before the screen opened is not played"
    h.ctx.selected = "n-close"
    h.key(pygame.K_f)
    h.frame()
    h.click(unit_hex_of(state, "s-mech"))
    h.key(pygame.K_RETURN)  # Enter fires the attack the dialog offers
    attack = next(e for e in h.ctx.view.log[::-1] if e.kind == "attack")
    layer.update(1 / 60, h.ctx)
    assert heard == (["gun", "armour"] if attack.data.get("hit") else ["gun"])
    layer.update(1 / 60, h.ctx)
    assert len(heard) in (1, 2), "each entry sounds once"


def test_ART_12_an_arrival_sounds_incoming_then_impact_with_its_show():
    """ART-12: the shell's show in the arrival animation carries its sounds: incoming
    as it starts, the impact as the shell bursts, not before."""
    state = long_tom_hunt()
    target = unit_hex_of(state, "s-hunter-1")
    apply(state, Predesignate("north", target))
    to_targeting(state, "north")
    h = Harness(state, "north")
    layer = make_layers(h.ctx)[0]
    heard = listening(layer)
    h.frame()
    apply(state, PlotFire("north", "n-long-tom", 1, target, "standard"))
    h.ctx.refresh()
    layer.update(1 / 60, h.ctx)
    assert heard == ["gun"]
    land(state)
    h.ctx.refresh()
    h.frame()
    layer.update(1 / 60, h.ctx)
    assert heard[1:] == ["incoming"]
    for _ in range(int(snd.SCATTER_END * 60) + 2):
        h.frame()
        layer.update(1 / 60, h.ctx)
    assert heard[1:3] == ["incoming", "impact"]
    assert heard.count("incoming") == 1


def test_ctrl_m_mutes_and_a_muted_board_plays_nothing():
    state = attack_duel()
    h = Harness(state, "north")
    layer = make_layers(h.ctx)[0]
    heard = listening(layer)
    ctrl_m = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m, mod=pygame.KMOD_LCTRL)
    assert layer.handle_event(ctrl_m, h.ctx)
    assert layer.board.muted and not layer.board.play("gun") and heard == []
    assert h.ctx.toasts and h.ctx.toasts[-1].text == "Sound off"
    assert layer.handle_event(ctrl_m, h.ctx) and not layer.board.muted
    layer.board.set_volume(0.25)
    assert layer.board.play("gun") and heard == ["gun"]
    assert layer.board.sounds["gun"].volume == 0.25
    plain_m = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m, mod=0)
    assert not layer.handle_event(plain_m, h.ctx), "M alone stays the sheet grid's"


def test_a_mixer_that_does_not_start_leaves_the_game_silent(monkeypatch):
    def no_device(*args, **kwargs):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    board = SoundBoard()
    assert board.sounds == {} and board.problem == "no audio device"
    assert not board.play("gun")


def test_the_dummy_audio_driver_loads_every_effect():
    board = SoundBoard()
    assert set(board.sounds) == set(NAMES), board.problem
    assert board.play("impact")


@pytest.mark.parametrize("driver", ["dummy", "no-such-audio-driver"])
def test_the_game_window_runs_without_an_audio_device(driver, tmp_path):
    env = dict(
        os.environ,
        BARRAGE_HOME=str(tmp_path / "home"),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER=driver,
    )
    scenario = str(ROOT / "maps" / "long_tom_hunt.toml")
    done = run_main("--scenario", scenario, "--frames", "3", env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_a_hot_seat_hand_over_sounds_once_and_the_new_side_hears_no_old_news():
    state = attack_duel()
    h = Harness(state, "north")
    assert h.session.hot_seat
    layer = make_layers(h.ctx)[0]
    heard = listening(layer)
    h.show("south")
    layer.update(1 / 60, h.ctx)
    layer.update(1 / 60, h.ctx)
    assert heard == ["handover"]


def test_mute_lasts_from_one_game_to_the_next_in_the_same_window(tmp_path, monkeypatch):
    from game.ui.app import App
    from game.ui.seats import Seats

    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path))
    app = App((1024, 700), ai_delay=0.0, autosave=False)
    try:
        scenario = str(ROOT / "maps" / "long_tom_hunt.toml")
        first = app.start_game(scenario, Seats("hotseat"), 1)
        board = first.ctx.sound
        assert app.sound is board
        board.toggle_mute()
        second = app.start_game(scenario, Seats("hotseat"), 2)
        assert second.ctx.sound is board and board.muted
    finally:
        app.shutdown()
