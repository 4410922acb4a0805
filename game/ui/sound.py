"""Sound effects of the game screen: a gun firing, a shell incoming, its impact, a hit on
armour, a unit destroyed, the seat changing hands (assets/sounds, made by
scripts/make_sounds.py).

The sounds follow the log the shown side reads (``ctx.view.log``), so a side hears only
what it is told: a plotted shell and a direct-fire attack sound when they are logged; an
arrived shell sounds with its show in the arrival animation (incoming as the show starts,
the impact as the shell bursts, a destroyed unit as the damage appears).

Where no audio device exists (the SDL dummy driver, a mixer that does not start) the game
runs silently: every play is then a no-op. Ctrl+M mutes and unmutes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from game.ui.artillery_anim import BLAST_END, SCATTER_END, ArrivalAnimation
from game.ui.context import UiContext

SOUNDS_DIR = Path(__file__).resolve().parents[2] / "assets" / "sounds"
NAMES = ("gun", "incoming", "impact", "armour", "destroyed", "handover")
DEFAULT_VOLUME = 0.6


class SoundBoard:
    """The loaded effects, the volume and the mute switch; silent when there is no mixer."""

    def __init__(self, volume: float = DEFAULT_VOLUME, muted: bool = False) -> None:
        self.volume = min(1.0, max(0.0, volume))
        self.muted = muted
        self.sounds: dict[str, Any] = {}
        self.problem: str | None = None  # why the game is silent, for the log
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=22_050, size=-16, channels=1)
            for name in NAMES:
                self.sounds[name] = pygame.mixer.Sound(str(SOUNDS_DIR / f"{name}.wav"))
        except (pygame.error, OSError) as exc:
            # No audio device, or no sound files: play nothing rather than fail.
            self.sounds = {}
            self.problem = str(exc) or type(exc).__name__

    @property
    def audible(self) -> bool:
        return bool(self.sounds) and not self.muted and self.volume > 0

    def play(self, name: str) -> bool:
        """Play one effect; False when nothing sounds (muted, silent, unknown name)."""
        sound = self.sounds.get(name)
        if sound is None or not self.audible:
            return False
        sound.set_volume(self.volume)
        sound.play()
        return True

    def set_volume(self, volume: float) -> None:
        self.volume = min(1.0, max(0.0, volume))

    def toggle_mute(self) -> bool:
        self.muted = not self.muted
        return self.muted


def arrival_sounds(damage: Any) -> list[tuple[float, str]]:
    """The effects of one arrived shell's show, at their seconds into the show."""
    out = [(0.0, "incoming"), (SCATTER_END, "impact")]
    if any(isinstance(d, dict) and d.get("destroyed") for d in damage or ()):
        out.append((BLAST_END, "destroyed"))
    return out


def event_sounds(kind: str, data: Any) -> list[str]:
    """The effects of one log entry a side reads, in the order they sound (an arrival's
    own effects come with its show: ``arrival_sounds``)."""
    data = data if isinstance(data, dict) else {}
    if kind == "plot":
        return ["gun"]
    if kind == "attack":
        if data.get("destroyed"):
            return ["gun", "destroyed"]
        return ["gun", "armour"] if data.get("hit") else ["gun"]
    return []


class SoundLayer:
    """Plays the effects of the log entries the shown side has not heard yet."""

    title = "Sound"

    def __init__(self, board: SoundBoard) -> None:
        self.board = board
        self.heard = 0  # log entries already sounded (or there before the screen opened)
        self.side: str | None = None
        self.show: object = None  # the arrival show being heard
        self.show_sounds: list[tuple[float, str]] = []

    def keys(self) -> list[tuple[str, str]]:
        return [("Ctrl+M", "sound on / off")]

    def reset(self, ctx: UiContext) -> None:
        """A new view (a hand-over, a load): its past is not played again; in hot-seat a
        new side in the seat is the hand-over sound."""
        if self.side is not None and ctx.view.side != self.side and ctx.session.hot_seat:
            self.board.play("handover")
        self.heard = len(ctx.view.log)
        self.side = ctx.view.side
        self.show, self.show_sounds = None, []

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        if (
            event.type == pygame.KEYDOWN
            and event.key == pygame.K_m
            and event.mod & pygame.KMOD_CTRL
        ):
            muted = self.board.toggle_mute()
            if self.board.problem and not muted:
                ctx.notify(f"Sound on, but no audio device: {self.board.problem}")
            else:
                ctx.notify("Sound off" if muted else "Sound on")
            return True
        return False

    def update(self, dt: float, ctx: UiContext) -> None:
        log = ctx.view.log
        if ctx.view.side != self.side or len(log) < self.heard:
            self.reset(ctx)
            return
        wanted: list[str] = []
        for entry in log[self.heard :]:
            wanted += [n for n in event_sounds(entry.kind, entry.data) if n not in wanted]
        self.heard = len(log)
        wanted += self._arrival(ctx)
        for name in wanted:
            self.board.play(name)

    def _arrival(self, ctx: UiContext) -> list[str]:
        """The effects due now in the arrival show on screen."""
        layers = ctx.artillery
        animation = getattr(layers, "animation", None)
        playing = animation.playing if isinstance(animation, ArrivalAnimation) else None
        if playing is None:
            self.show, self.show_sounds = None, []
            return []
        if playing.show is not self.show:
            self.show = playing.show
            self.show_sounds = arrival_sounds(playing.show.damage)
        due = [name for at, name in self.show_sounds if at <= playing.t]
        self.show_sounds = [(at, name) for at, name in self.show_sounds if at > playing.t]
        return due

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        return None

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        return None


def make_layers(ctx: UiContext) -> list[Any]:
    """The sound layer of the game screen, playing on ``ctx.sound`` (made when the screen
    has none: the game screen hands over the window's one board, so mute and volume
    last from game to game)."""
    if ctx.sound is None:
        ctx.sound = SoundBoard()
    layer = SoundLayer(ctx.sound)
    layer.reset(ctx)
    return [layer]
