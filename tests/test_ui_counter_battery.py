"""Counter-battery fire in the window (ART-37): plot mode over the sheet grid
beyond the map, the candidate positions with their odds, the preview card, and
the click that sends the shot. With ``BARRAGE_SCREENSHOTS=docs/screenshots`` the
picture is the documentation's, otherwise it goes to the test's temporary folder.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.artillery.detection import announced_side
from game.hexmath import Hex
from game.state import DEFAULT_SCENARIO, GameState, acting_side, new_game, player_view
from game.state.model import Announcement
from game.state.setup import lattice_hex
from game.ui.artillery_plot import plot_preview
from game.ui.context import PLOT
from tests.engine_fixtures import end_phase, end_setup, hold_everything

ROOT = Path(__file__).resolve().parents[1]
SIZE = (1280, 800)


def detected(seed: int = 3) -> tuple[GameState, tuple[int, int]]:
    """The default scenario in north's targeting phase, south's Long Tom announced
    from 0808 of sheet (0,1) (ART-24): the side toward its real position."""
    state = new_game(DEFAULT_SCENARIO, seed)
    end_setup(state)
    hold_everything(state)
    if acting_side(state) != "north":
        end_phase(state)
    gun = state.units["s-long-tom"].battery.offboard  # type: ignore[union-attr]
    assert gun is not None
    aimed = state.area.hex_at((0, 1), "0808")
    side = announced_side(state.area, aimed, gun.position)
    state.intel["north"].announcements.append(Announcement(1, aimed, side))
    return state, gun.position


def test_ART_37_the_preview_of_a_shot_beyond_the_map_shows_every_candidate() -> None:
    """ART-37: hovering 0909 of the gun's position gives a counter-battery preview:
    gunnery 4 + 7 = 11, no spotter, the candidates agreeing with the announced side
    with their odds (each a gun-there share times 10/36 for a Long Tom)."""
    state, pos = detected()
    view = player_view(state, "north")
    preview = plot_preview(view, "n-long-tom", lattice_hex(pos, "0909"))
    assert preview.counter_battery and preview.refusal is None and preview.can_fire
    assert preview.to_hit is not None and preview.to_hit.total == 11
    assert preview.candidates
    for row in preview.candidates:
        assert row.chance == pytest.approx(row.belief * 10 / 36) or row.flight is None
    text = "\n".join(line for line, _ in preview.lines(view.turn))
    assert "Counter-battery (ART-37)" in text and "chance to hit it" in text
    assert "You will learn only whether an enemy battery was hit." in text


def test_ART_37_plot_a_counter_battery_shot_from_the_sheet_grid(tmp_path, monkeypatch, shots):
    """ART-37 in the window: plot mode, the candidate positions outlined beyond the
    map with their odds, hover a hex there, click, choose the ammunition: the shot is
    plotted at that off-board hex. Screenshot: counter_battery_plot.png."""
    from game.ui.app import App
    from game.ui.game_screen import GameScreen, StandingController
    from game.ui.seats import Seats
    from game.ui.session import GameSession

    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    app = App(SIZE, ai_delay=0.0, autosave=False)
    pygame.event.clear()
    try:
        state, pos = detected()
        session = GameSession(
            state, {"north": "human", "south": StandingController()}, shown="north"
        )
        screen = app.replace_all(GameScreen(app, session, Seats(mode="solo", human="north")))
        app.run_frames(2)
        aim = lattice_hex(pos, "0909")
        screen.set_zoom(1)
        screen.camera.centre_on(
            Hex(
                (aim.q + state.area.hex_at((0, 1), "0809").q) // 2,
                (aim.r + state.area.hex_at((0, 1), "0809").r) // 2,
            )
        )
        pygame.event.post(
            pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="", scancode=0)
        )
        app.run_frames(2)
        at = screen.hex_to_screen(aim)
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
        )
        app.run_frames(3)
        arts = screen.ctx.artillery
        preview = arts.plot.preview(screen.ctx)
        assert screen.ctx.mode == PLOT and preview is not None and preview.counter_battery
        app.screenshot(shots / "counter_battery_plot.png")
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=at, button=1))
        app.run_frames(3)
        pygame.event.post(
            pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="", scancode=0)
        )
        app.run_frames(3)
        [plot] = state.queue.plots
        assert plot.target == aim and not state.area.contains(plot.target)
    finally:
        app.shutdown()
