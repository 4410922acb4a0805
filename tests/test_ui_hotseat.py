"""Hot-seat play keeps hidden information hidden (principle 6, ART-4, ART-9, ART-20).

Two players share the window. Whenever the acting side changes, an opaque
hand-over screen ("South to play: press Space") stands between them; it
draws nothing of either side's view. A side's screen is drawn from its own
view only: rendered twice from games that differ only in the other side's
secrets (where its hidden unit stands, where its guns are, which hexes it
pre-designated), the screens are the same to the pixel, while revealing the
hidden unit does change them at its hex.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.hexmath import Hex
from game.state import (
    DEFAULT_SCENARIO,
    Deploy,
    EndPhase,
    Hold,
    Predesignate,
    acting_side,
    apply,
    legal_commands,
    new_game,
)
from game.ui.app import HOTSEAT, App, Seats
from game.ui.game_screen import GameScreen
from game.ui.screens import HandOverScreen

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "tests" / "screenshots"
HIDDEN = "s-hunter-2"  # the south unit hidden on the board in these tests


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    window = App((1280, 800), ai_delay=0.0, autosave=False)
    pygame.event.clear()
    yield window
    window.shutdown()


def press(app: App, key: int, frames: int = 2) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))
    app.run_frames(frames)


def click(app: App, pos: tuple[int, int], frames: int = 3) -> None:
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
    app.run_frames(frames)


def pixels(app: App) -> bytes:
    return pygame.image.tobytes(app.window, "RGB")


def region(app: App, centre: tuple[int, int], half: int = 30) -> bytes:
    rect = pygame.Rect(0, 0, 2 * half, 2 * half)
    rect.center = centre
    rect.clamp_ip(app.window.get_rect())
    return pygame.image.tobytes(app.window.subsurface(rect).copy(), "RGB")


def secret_game(variant: str):
    """A game in turn 1's movement with north to act. South's unit ``HIDDEN`` is hidden
    on the board (ART-4); ``variant`` "b" gives south other secrets than "a": the hidden
    unit elsewhere, its guns deployed elsewhere, pre-designated hexes. "revealed": as
    "a" but the unit is not hidden."""
    state = new_game(DEFAULT_SCENARIO, 21)
    unit = state.units[HIDDEN]
    unit.hidden = variant != "revealed"
    apply(state, EndPhase("north"))
    if variant == "b":
        unit.hex = Hex(unit.hex.q + 2, unit.hex.r - 1)
        deploys = [c for c in legal_commands(state, "south") if isinstance(c, Deploy)]
        apply(state, deploys[len(deploys) // 2])
        predesignations = [c for c in legal_commands(state, "south") if isinstance(c, Predesignate)]
        apply(state, predesignations[7])
        apply(state, predesignations[40])
    apply(state, EndPhase("south"))
    # South's units hold until north is to move (the same commands in every variant).
    while acting_side(state) != "north":
        side = acting_side(state)
        mover = next(u for u in state.living(side) if u.hex is not None and not u.moved)
        apply(state, Hold(side, mover.id))
    return state


def north_screen(app: App, variant: str) -> tuple[GameScreen, bytes]:
    """North's screen of a secret game, after the hand-over, looking at the hidden unit's
    starting hex."""
    state = secret_game(variant)
    game = app.open_game(state, Seats(HOTSEAT))
    app.run_frames(1)
    assert isinstance(app.top, HandOverScreen) and app.top.side == "north"
    press(app, pygame.K_SPACE)
    assert app.top is game and game.ctx.view.side == "north"
    game.set_zoom(4)
    game.camera.centre_on(new_game(DEFAULT_SCENARIO, 21).units[HIDDEN].hex)
    app.run_frames(3)
    return game, pixels(app)


def test_hand_over_screen_appears_whenever_the_acting_side_changes(app):
    state = new_game(DEFAULT_SCENARIO, 5)
    game = app.open_game(state, Seats(HOTSEAT))
    app.run_frames(1)
    top = app.top
    assert isinstance(top, HandOverScreen) and top.side == "north", (
        "the first player takes the seat"
    )
    app.screenshot(SHOTS / "handover_north.png")
    press(app, pygame.K_SPACE)
    assert app.top is game and game.session.viewer() == "north"
    # North accepts its deployment: south is to act, so the hand-over comes at once.
    from tests.test_ui_app import button_named

    click(app, button_named(game.ui_manager, "Accept deployment").rect.center)
    assert state.phase == "setup" and acting_side(state) == "south"
    top = app.top
    assert isinstance(top, HandOverScreen) and top.side == "south"
    app.screenshot(SHOTS / "handover.png")
    # Nothing but the hand-over is drawn: the window is the hand-over alone.
    shown = pixels(app)
    alone = pygame.Surface(app.size)
    top.draw(alone)
    assert pygame.image.tobytes(alone, "RGB") == shown
    # The view stays north's until south's player presses Space.
    assert game.ctx.view.side == "north" and game.session.shown == "north"
    press(app, pygame.K_SPACE)
    assert app.top is game
    assert game.ctx.view.side == "south" and game.ctx.selected is None
    click(app, button_named(game.ui_manager, "Accept deployment").rect.center)
    assert state.phase == "movement"
    first = acting_side(state)
    if first == "south":
        assert app.top is game and game.ctx.view.side == "south"
    else:
        assert isinstance(app.top, HandOverScreen) and app.top.side == "north"


def test_hand_over_screen_shows_nothing_of_either_sides_secrets(app):
    """The hand-over pictures of two games that differ in south's secrets are the same."""
    pictures = []
    for variant in ("a", "b"):
        state = secret_game(variant)
        state_before = state.to_dict()
        app.open_game(state, Seats(HOTSEAT))
        app.run_frames(2)
        assert isinstance(app.top, HandOverScreen)
        pictures.append(pixels(app))
        assert state.to_dict() == state_before, "showing the hand-over changes nothing"
    assert pictures[0] == pictures[1]


def test_north_screen_is_the_same_whatever_south_keeps_secret(app):
    """ART-4/ART-9/ART-20: south's hidden unit, its guns' position and its pre-designated
    hexes leave no trace on north's screen; the units layer never draws the hidden unit."""
    game_a, screen_a = north_screen(app, "a")
    assert HIDDEN not in game_a.units.drawn
    assert HIDDEN not in game_a.ctx.view.units
    drawn_a = list(game_a.units.drawn)
    game_b, screen_b = north_screen(app, "b")
    assert HIDDEN not in game_b.units.drawn
    assert sorted(drawn_a) == sorted(game_b.units.drawn)
    assert screen_a == screen_b, "south's secrets changed north's screen"
    app.screenshot(SHOTS / "hotseat_north_view.png")


def test_revealing_the_hidden_unit_changes_the_pixels_at_its_hex(app):
    """The check above can see a unit: revealed, it is drawn at its hex."""
    game, hidden = north_screen(app, "a")
    h = game.session.state.units[HIDDEN].hex
    at = game.hex_to_screen(h)
    patch_hidden = region(app, at)
    game, revealed = north_screen(app, "revealed")
    assert HIDDEN in game.units.drawn
    assert region(app, game.hex_to_screen(h)) != patch_hidden
    assert hidden != revealed


def test_south_sees_its_own_hidden_unit_and_north_loses_its_selection_at_hand_over(app):
    state = secret_game("a")
    game = app.open_game(state, Seats(HOTSEAT))
    app.run_frames(1)
    press(app, pygame.K_SPACE)
    press(app, pygame.K_TAB)  # north selects a unit
    uid = game.ctx.selected
    assert uid is not None and uid.startswith("n-")
    press(app, pygame.K_h)  # ... and holds it: south is to act
    assert state.units[uid].moved
    assert acting_side(state) == "south", "units alternate (ART-33)"
    assert isinstance(app.top, HandOverScreen) and app.top.side == "south"
    press(app, pygame.K_SPACE)
    assert game.ctx.view.side == "south"
    assert game.ctx.selected is None, "north's selection does not follow the seat"
    game.camera.centre_on(state.units[HIDDEN].hex)
    app.run_frames(2)
    assert HIDDEN in game.units.drawn, "south sees its own hidden unit"


def test_end_movement_holds_a_sides_units_without_handing_the_seat_back(app):
    """After north's "End movement" its remaining units hold as their moves come; the
    seat stays with south meanwhile (no hand-over that would only show north a hold)."""
    from tests.test_ui_app import button_named

    state = secret_game("a")
    game = app.open_game(state, Seats(HOTSEAT))
    app.run_frames(1)
    press(app, pygame.K_SPACE)
    click(app, button_named(game.ui_manager, "End movement").rect.center)
    seen = []
    for _ in range(40):
        top = app.top
        if isinstance(top, HandOverScreen):
            seen.append((top.side, state.phase))
            press(app, pygame.K_SPACE)
        elif state.phase == "movement" and acting_side(state) == "south":
            press(app, pygame.K_h) if game.ctx.selected else press(app, pygame.K_TAB)
        else:
            break
    assert state.phase == "targeting"
    assert ("north", "movement") not in seen, f"hand-overs: {seen}"
    assert ("south", "movement") in seen
    north_holds = [c for c in state.commands if c["kind"] == "hold" and c["side"] == "north"]
    assert len(north_holds) == 4
