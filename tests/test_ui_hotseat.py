"""Hot-seat play keeps hidden information hidden (principle 6, ART-4, ART-9, ART-20).

Two players share the window. While the acting side needs none of its secrets
(moving, attacking) the window shows the table view, what both sides know,
with a banner saying whose move it is. When a side must see its secrets
(set-up, targeting, a secret sheet pick, or V) an opaque hand-over screen
("South to play: press Space") stands between the players; it draws nothing of
either side's view, and no input crosses it. Every screen is drawn from one
view only: rendered twice from games that differ only in a side's secrets
(where its hidden unit stands, where its guns are, which hexes it
pre-designated), the table and the other side's screen are the same to the
pixel, while revealing the hidden unit does change them at its hex.
"""

from __future__ import annotations

import os
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
from game.ui.app import App
from game.ui.game_screen import SEAT_GUARD, GameScreen
from game.ui.screens import HandOverScreen
from game.ui.seats import HOTSEAT, Seats
from game.ui.session import TABLE
from tests.test_ui_app import shot

ROOT = Path(__file__).resolve().parents[1]
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


def click(app: App, pos: tuple[int, int], frames: int = 3, times: int = 1) -> None:
    """``times`` clicks posted at once (a double or triple click), then the frames."""
    for _ in range(times):
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
    app.run_frames(frames)


def doc_shot(app: App, name: str) -> None:
    """A screenshot for the tests' folder, and for ``BARRAGE_SCREENSHOTS`` when set
    (``BARRAGE_SCREENSHOTS=docs/screenshots`` renews the README's pictures)."""
    shot(app, name)
    folder = os.environ.get("BARRAGE_SCREENSHOTS")
    if folder:
        app.screenshot(Path(folder) / name)


def take_seat(app: App) -> None:
    """The next player waits out the hand-over's guard, then presses Space."""
    assert isinstance(app.top, HandOverScreen)
    app.run_frames(int(HandOverScreen.GUARD * 60) + 2)
    press(app, pygame.K_SPACE)
    assert not isinstance(app.top, HandOverScreen)


def settle(app: App) -> None:
    """Frames enough for the table's guard after a change of side to pass."""
    app.run_frames(int(SEAT_GUARD * 60) + 2)


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


def table_screen(app: App, variant: str) -> tuple[GameScreen, bytes]:
    """The table of a secret game in turn 1's movement, north to move (no hand-over:
    moving needs no secret), looking at the hidden unit's starting hex."""
    state = secret_game(variant)
    game = app.open_game(state, Seats(HOTSEAT))
    app.run_frames(2)
    assert app.top is game and game.session.reader() == TABLE
    assert game.ctx.view.side == "north", "the table acts for the side to move"
    settle(app)
    game.set_zoom(4)
    game.camera.centre_on(new_game(DEFAULT_SCENARIO, 21).units[HIDDEN].hex)
    app.run_frames(3)
    return game, pixels(app)


def north_screen(app: App, variant: str) -> tuple[GameScreen, bytes]:
    """North's own screen of a secret game (V, then the hand-over), looking at the
    hidden unit's starting hex."""
    game, _ = table_screen(app, variant)
    press(app, pygame.K_v)
    assert isinstance(app.top, HandOverScreen) and app.top.side == "north"
    take_seat(app)
    assert app.top is game and game.session.reader() == "north"
    game.set_zoom(4)
    game.camera.centre_on(new_game(DEFAULT_SCENARIO, 21).units[HIDDEN].hex)
    app.run_frames(3)
    return game, pixels(app)


def test_hand_over_screen_comes_when_a_side_must_see_its_secrets(app):
    """Set-up needs each side's secrets: a hand-over before each; movement does not:
    the table, with whose move it is."""
    state = new_game(DEFAULT_SCENARIO, 5)
    game = app.open_game(state, Seats(HOTSEAT))
    app.run_frames(1)
    top = app.top
    assert isinstance(top, HandOverScreen) and top.side == "north", (
        "the first player takes the seat"
    )
    shot(app, "handover_north.png")
    take_seat(app)
    assert app.top is game and game.session.viewer() == "north"
    # North accepts its deployment: south is to act, so the hand-over comes at once.
    from tests.test_ui_app import button_named

    click(app, button_named(game.ui_manager, "Accept deployment").rect.center)
    assert state.phase == "setup" and acting_side(state) == "south"
    top = app.top
    assert isinstance(top, HandOverScreen) and top.side == "south"
    app.run_frames(int(HandOverScreen.GUARD * 60) + 2)
    doc_shot(app, "handover.png")
    # Nothing but the hand-over is drawn: the window is the hand-over alone.
    shown = pixels(app)
    alone = pygame.Surface(app.size)
    top.draw(alone)
    assert pygame.image.tobytes(alone, "RGB") == shown
    # The view stays north's until south's player takes the seat.
    assert game.ctx.view.side == "north" and game.session.shown == "north"
    take_seat(app)
    assert app.top is game
    assert game.ctx.view.side == "south" and game.ctx.selected is None
    click(app, button_named(game.ui_manager, "Accept deployment").rect.center)
    assert state.phase == "movement"
    assert app.top is game and game.session.reader() == TABLE
    assert game.ctx.view.side == acting_side(state)
    assert game.seat_banner() == f"{acting_side(state).capitalize()}'s move"  # type: ignore[union-attr]
    settle(app)
    press(app, pygame.K_HOME)
    app.run_frames(3)
    doc_shot(app, "hotseat_table.png")


def test_hand_over_screen_shows_nothing_of_either_sides_secrets(app):
    """The hand-over pictures of two games that differ in south's secrets are the same."""
    pictures = []
    for variant in ("a", "b"):
        state = secret_game(variant)
        state_before = state.to_dict()
        game = app.open_game(state, Seats(HOTSEAT))
        app.run_frames(2)
        press(app, pygame.K_v)  # north asks for its own view
        assert isinstance(app.top, HandOverScreen)
        app.run_frames(2)
        pictures.append(pixels(app))
        assert game.session.shown == TABLE
        assert state.to_dict() == state_before, "showing the hand-over changes nothing"
    assert pictures[0] == pictures[1]


def test_the_table_is_the_same_whatever_south_keeps_secret(app):
    """ART-4/ART-9/ART-20: the table view draws nothing of south's hidden unit, its
    guns' position or its pre-designated hexes: the same to the pixel."""
    game_a, screen_a = table_screen(app, "a")
    assert HIDDEN not in game_a.units.drawn and HIDDEN not in game_a.ctx.view.units
    drawn_a = list(game_a.units.drawn)
    game_b, screen_b = table_screen(app, "b")
    assert sorted(drawn_a) == sorted(game_b.units.drawn)
    assert screen_a == screen_b, "south's secrets changed the table"
    shot(app, "hotseat_table_identity.png")


def test_north_screen_is_the_same_whatever_south_keeps_secret(app):
    """ART-4/ART-9/ART-20: south's hidden unit, its guns' position and its pre-designated
    hexes leave no trace on north's own screen; the units layer never draws the hidden unit."""
    game_a, screen_a = north_screen(app, "a")
    assert HIDDEN not in game_a.units.drawn
    assert HIDDEN not in game_a.ctx.view.units
    drawn_a = list(game_a.units.drawn)
    game_b, screen_b = north_screen(app, "b")
    assert HIDDEN not in game_b.units.drawn
    assert sorted(drawn_a) == sorted(game_b.units.drawn)
    assert screen_a == screen_b, "south's secrets changed north's screen"
    shot(app, "hotseat_north_view.png")


def test_revealing_the_hidden_unit_changes_the_pixels_at_its_hex(app):
    """The checks above can see a unit: revealed, it is drawn at its hex, on the table
    and on north's own screen."""
    for screen in (table_screen, north_screen):
        game, hidden = screen(app, "a")
        h = game.session.state.units[HIDDEN].hex
        patch_hidden = region(app, game.hex_to_screen(h))
        game, revealed = screen(app, "revealed")
        assert HIDDEN in game.units.drawn
        assert region(app, game.hex_to_screen(h)) != patch_hidden
        assert hidden != revealed


def test_south_sees_its_own_hidden_unit_only_behind_a_hand_over(app):
    state = secret_game("a")
    game = app.open_game(state, Seats(HOTSEAT))
    app.run_frames(1)
    settle(app)
    press(app, pygame.K_TAB)  # north selects a unit at the table
    uid = game.ctx.selected
    assert uid is not None and uid.startswith("n-")
    press(app, pygame.K_h)  # ... and holds it: south is to move, at the table
    assert state.units[uid].moved
    assert acting_side(state) == "south", "units alternate (ART-33)"
    assert app.top is game and game.session.reader() == TABLE
    assert game.ctx.view.side == "south" and game.ctx.selected is None
    settle(app)
    game.camera.centre_on(state.units[HIDDEN].hex)
    app.run_frames(2)
    assert HIDDEN not in game.units.drawn, "the table does not show south's hidden unit"
    press(app, pygame.K_v)
    take_seat(app)
    assert game.session.reader() == "south"
    app.run_frames(2)
    assert HIDDEN in game.units.drawn, "south sees its own hidden unit"
    press(app, pygame.K_v)  # back to the table, no hand-over needed
    assert app.top is game and game.session.reader() == TABLE


def test_end_movement_holds_a_sides_units_at_the_table(app):
    """After north's "End movement" its remaining units hold as their moves come;
    no hand-over comes in the movement phase at all."""
    from tests.test_ui_app import button_named, confirm_if_asked

    state = secret_game("a")
    game = app.open_game(state, Seats(HOTSEAT))
    app.run_frames(1)
    settle(app)
    click(app, button_named(game.ui_manager, "End movement").rect.center)
    assert confirm_if_asked(app, game), "north's units had not moved: the player is asked"
    seen = []
    for _ in range(60):
        top = app.top
        if isinstance(top, HandOverScreen):
            seen.append((top.side, state.phase))
            take_seat(app)
        elif state.phase == "movement" and acting_side(state) == "south":
            settle(app)
            press(app, pygame.K_h) if game.ctx.selected else press(app, pygame.K_TAB)
        else:
            break
    assert state.phase == "targeting"
    assert [s for s in seen if s[1] == "movement"] == [], f"hand-overs: {seen}"
    north_holds = [c for c in state.commands if c["kind"] == "hold" and c["side"] == "north"]
    assert len(north_holds) == 4


# --- no input crosses a change of seat ---------------------------------------------------------


class Frames:
    """Records, for every frame drawn, what was on top and whose screen it showed."""

    def __init__(self, app: App, game: GameScreen) -> None:
        self.wrong: list[str] = []
        draw = app.draw

        def recording() -> None:
            draw()
            top = app.top
            if top is game:
                session = game.session
                reader, acting = session.reader(), session.acting()
                if reader not in (TABLE, acting) and acting is not None:
                    self.wrong.append(f"{reader}'s screen drawn while {acting} acts")

        app.draw = recording  # type: ignore[method-assign]


def burst(app: App, game: GameScreen, how: str, label: str) -> str:
    """Post a burst meant for one button at once: 2 or 3 clicks on it, or a key held
    down (its repeats). Returns the side it was meant for."""
    from tests.test_ui_app import button_named

    side = game.session.acting()
    assert side is not None
    if how.startswith("click"):
        pos = button_named(game.ui_manager, label).rect.center
        click(app, pos, frames=6, times=int(how[-1]))
    else:
        key, mod = {"hold": (pygame.K_h, 0), "end": (pygame.K_RETURN, pygame.KMOD_CTRL)}[how]
        for _ in range(5):  # a held key: its first press and its repeats
            event = dict(key=key, mod=mod, unicode="", scancode=0)
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, **event))
        app.run_frames(6)
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode=""))
        app.run_frames(2)
    return side


def test_no_click_or_key_repeat_crosses_a_change_of_seat_in_any_phase(app):
    """Principle 6: double and triple clicks and key repeats on every phase button of
    every phase act once, for the side they were meant for; the rest is dropped, no
    screen of the other side is drawn and no hand-over is taken by them."""
    state = new_game(DEFAULT_SCENARIO, 33)
    game = app.open_game(state, Seats(HOTSEAT))
    frames = Frames(app, game)
    app.run_frames(2)
    ended: set[str] = set()

    def act(how: str, label: str) -> None:
        from tests.test_ui_app import confirm_if_asked

        before = len(state.commands)
        side = burst(app, game, how, label)
        if label == "End movement":
            confirm_if_asked(app, game)  # one question for the whole burst
        sent = state.commands[before:]
        assert sent, f"{how} on {label!r} sent nothing"
        if label == "End movement":
            # Its units hold as their moves come, with those of a side that ended before.
            ended.add(side)
            assert {c["side"] for c in sent} <= ended and sent[0]["side"] == side, sent
            assert {c["kind"] for c in sent} == {"hold"}
        else:
            assert [c["side"] for c in sent] == [side], f"{how} on {label!r}: {sent}"

    def seat() -> None:
        if isinstance(app.top, HandOverScreen):
            take_seat(app)
        settle(app)

    seat()
    act("click3", "Accept deployment")  # north
    assert isinstance(app.top, HandOverScreen) and app.top.side == "south"
    app.run_frames(int(HandOverScreen.GUARD * 60) + 2)
    assert isinstance(app.top, HandOverScreen), "the clicks did not take the seat"
    seat()
    act("click2", "Accept deployment")  # south
    assert state.phase == "movement" and game.session.reader() == TABLE
    for how in ("click3", "hold", "click2"):
        seat()
        press(app, pygame.K_TAB)
        act(how, "H hold")
    seat()
    act("click2", "End movement")
    while state.phase == "movement":
        seat()
        act("click3", "End movement")
    assert state.phase == "targeting"
    seat()
    act("click2", "End targeting")
    assert isinstance(app.top, HandOverScreen)
    seat()
    act("end", "End targeting")  # Ctrl+Return held down
    assert state.phase == "attack"
    seat()
    act("click3", "End attacks")
    seat()
    act("end", "End attacks")
    assert state.turn == 2 and state.phase == "movement"
    assert frames.wrong == []


def test_the_hand_over_takes_only_space_or_its_own_button_after_its_guard(app):
    """A click anywhere, a key held from before the hand-over and Space within the
    guard do not take the seat; a fresh Space press, or the hand-over's own button, do."""
    state = new_game(DEFAULT_SCENARIO, 34)
    app.open_game(state, Seats(HOTSEAT))
    app.run_frames(1)
    top = app.top
    assert isinstance(top, HandOverScreen)
    space = dict(key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, **space))  # held from the start
    app.run_frames(int(HandOverScreen.GUARD * 60) + 2)
    for _ in range(3):  # its repeats after the guard
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, **space))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, **space))
    click(app, (40, 40), times=3)
    app.run_frames(2)
    assert app.top is top, "a held key or a click took the seat"
    click(app, top.take.rect.center)
    app.run_frames(2)
    assert app.top is not top and app.game.session.shown == "north"  # type: ignore[union-attr]


def test_a_scripted_hot_seat_long_tom_hunt_hands_over_at_most_3_times_a_turn() -> None:
    """Hand-overs only when a secret is needed: set-up and targeting (and a secret sheet
    pick); moving and attacking happen at the table. Before the table view, every
    change of the acting side handed over: about 11 a turn in Long Tom Hunt."""
    from game.bench.handovers import scripted_hot_seat

    result = scripted_hot_seat(seed=3, turns=4)
    assert result.turns == 4
    assert result.per_turn <= 3, f"{result.handovers} hand-overs in {result.turns} turns"
    assert result.old_per_turn > 8, "the old rule, counted in the same game"


def test_watching_with_no_side_chosen_shows_the_table_all_along(app):
    """Watch mode with no side: the table view, never one side's then the other's
    (it used to flip between them at every change of the acting side)."""
    from game.ui.seats import WATCH

    state = new_game(DEFAULT_SCENARIO, 7)
    game = app.open_game(state, Seats(WATCH))
    readers, actors = set(), set()
    # The AI thinks for a fixed time a frame (AI_BUDGET): on a loaded machine turn 2
    # takes more frames to come, so the frames are bounded loosely.
    for _ in range(5000):
        app.run_frames(1)
        readers.add(game.ctx.view.side)
        actors.add(state.active)
        if state.turn >= 2 and state.phase == "targeting":
            break
    assert readers == {TABLE} and {"north", "south"} <= actors
    assert game.ctx.view.plots == [] and game.ctx.view.predesignated == ()
