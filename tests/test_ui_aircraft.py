"""Aircraft in the window (ART-14, ART-36): the aircraft drawn with its altitude and
its last flight, flown by a click, and an air-launched Arrow IV aimed in plot mode
with its forecast. With ``BARRAGE_SCREENSHOTS=docs/screenshots`` the picture is the
documentation's, otherwise it goes to the test's temporary folder."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.state import Fly, Hold, acting_side, apply, legal_commands, new_game
from game.ui.context import PLOT
from tests.engine_fixtures import end_phase, end_setup

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "maps" / "air_strike.toml"
SIZE = (1280, 800)
AIR = "n-sparrowhawk"


def post(kind: int, **attrs) -> None:
    pygame.event.post(pygame.event.Event(kind, **attrs))


def test_ART_36_fly_the_aircraft_and_aim_its_arrow_iv_in_the_window(tmp_path, monkeypatch, shots):
    """ART-36: with the Sparrowhawk selected in the movement phase a click flies it
    (the engine's Fly) and "]" plans a higher altitude; in plot mode a hex of the
    sheet under it shows the ART-14 preview (altitude modifier, flight 1 turn) and
    the forecast. Screenshot: air_attack.png, the aircraft with its altitude badge
    and the dashed path of its flight."""
    from game.ui.app import App
    from game.ui.game_screen import GameScreen, StandingController
    from game.ui.seats import Seats
    from game.ui.session import GameSession

    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    app = App(SIZE, ai_delay=0.0, autosave=False)
    pygame.event.clear()
    try:
        state = new_game(SCENARIO, 4)
        end_setup(state)
        while True:  # everyone else holds until the aircraft is north's to move
            side = acting_side(state)
            assert side is not None
            holds = [
                c for c in legal_commands(state, side) if isinstance(c, Hold) and c.unit != AIR
            ]
            if side == "north" and not holds:
                break
            apply(state, holds[0])
        assert acting_side(state) == "north" and not state.units[AIR].moved
        session = GameSession(
            state, {"north": "human", "south": StandingController()}, shown="north"
        )
        screen = app.replace_all(GameScreen(app, session, Seats(mode="solo", human="north")))
        app.run_frames(2)
        air = state.units[AIR]
        screen.set_zoom(3)
        screen.camera.centre_on(air.hex)
        app.run_frames(1)
        screen.ctx.selected = AIR
        post(pygame.KEYDOWN, key=pygame.K_RIGHTBRACKET, mod=0, unicode="]", scancode=0)
        app.run_frames(2)
        goal = state.area.hex_at((0, 0), "0809")
        at = screen.hex_to_screen(goal)
        post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            post(kind, pos=at, button=1)
        app.run_frames(3)
        assert air.hex == goal and air.altitude == 4
        # The rest hold; north aims in plot mode at a hex of the sheet under it.
        while state.phase == "movement":
            side = acting_side(state)
            apply(state, next(c for c in legal_commands(state, side) if isinstance(c, Hold)))  # type: ignore[arg-type]
        if acting_side(state) != "north":
            end_phase(state)
        app.run_frames(2)
        screen.camera.centre_on(state.area.hex_at((0, 0), "0811"))
        post(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p", scancode=0)
        app.run_frames(2)
        screen.ctx.plot_battery = AIR
        target = state.area.hex_at((0, 0), "0613")
        post(pygame.MOUSEMOTION, pos=screen.hex_to_screen(target), rel=(0, 0), buttons=(0, 0, 0))
        app.run_frames(3)
        preview = screen.ctx.artillery.plot.preview(screen.ctx)
        assert screen.ctx.mode == PLOT and preview is not None and preview.refusal is None
        assert preview.flight == 1 and preview.forecast is not None
        assert (
            preview.to_hit is not None
            and ["altitude 4", 1] in preview.to_hit.to_dict()["modifiers"]
        )
        app.screenshot(shots / "air_attack.png")
        assert [c["kind"] for c in state.commands].count(Fly.kind) == 1
    finally:
        app.shutdown()
