"""The set-up phase in the game window: re-deploying off-board batteries (ART-1, ART-2)
and picking pre-designated hexes (ART-20 .. ART-22), driven by real pygame events
through the game screen (SDL dummy driver).

The helpers of the layer (directions, the draft moved on the sheet grid, the
engine's reasons, the reach to the play area, the ART-22 allowance) are tested
on their own first; then the window: re-deploy to a flank and see the view and
the minimap follow, a refused position with the engine's reason, three hexes
picked and one removed, the over-limit refusal, Accept deployment into turn 1,
hot-seat (each side sets up after its hand-over and sees only its own), a
scenario without pre-designation, and the keyboard in the dialog.

``test_screenshots_of_the_setup_phase`` saves ``setup_deploy.png`` and
``setup_predesignate.png``: with ``BARRAGE_SCREENSHOTS=docs/screenshots`` the
documentation's, otherwise into the test's temporary folder.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

import pygame
import pytest

from game.hexmath import Hex, hex_to_pixel
from game.state import (
    DEFAULT_SCENARIO,
    Deploy,
    IllegalCommand,
    Predesignate,
    apply,
    new_game,
    player_view,
)
from game.state.engine import deployment_refusal
from game.ui import widgets as ui
from game.ui.app import App
from game.ui.context import SELECT
from game.ui.game_screen import GameScreen, StandingController
from game.ui.screens import HandOverScreen
from game.ui.seats import HOTSEAT, Seats
from game.ui.session import GameSession
from game.ui.setup_layer import (
    PREDESIGNATE,
    DeployDialog,
    Draft,
    SetupLayer,
    allowance,
    deployment_reasons,
    directions,
    draft_at,
    draft_of,
    predesignation_check,
    reach_to_area,
)
from tests.test_ui_hotseat import take_seat

ROOT = Path(__file__).resolve().parents[1]
SIZE = (1280, 800)
BRIDGE = ROOT / "maps" / "burning_bridge.toml"


# --- harness -----------------------------------------------------------------------------------


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    window = App(SIZE, ai_delay=0.0, autosave=False)
    pygame.event.clear()
    yield window
    window.shutdown()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = os.environ.get("BARRAGE_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path / "shots"
    if not path.is_absolute():
        path = ROOT / path
    path.mkdir(parents=True, exist_ok=True)
    return path


def post(kind: int, **attrs) -> None:
    pygame.event.post(pygame.event.Event(kind, **attrs))


def move_mouse(app: App, pos: tuple[int, int], frames: int = 2) -> None:
    post(pygame.MOUSEMOTION, pos=(int(pos[0]), int(pos[1])), rel=(0, 0), buttons=(0, 0, 0))
    app.run_frames(frames)


def click(app: App, pos: tuple[float, float], button: int = 1, frames: int = 2) -> None:
    at = (round(pos[0]), round(pos[1]))
    post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=at, button=button)
    post(pygame.MOUSEBUTTONUP, pos=at, button=button)
    app.run_frames(frames)


def press(app: App, key: int, mod: int = 0, frames: int = 2) -> None:
    post(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)
    post(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0)
    app.run_frames(frames)


def button_named(manager, text: str):
    for element in manager.get_sprite_group().sprites():
        if getattr(element, "text", None) == text and hasattr(element, "check_pressed"):
            return element
    names = [getattr(e, "text", "") for e in manager.get_sprite_group().sprites()]
    raise AssertionError(f"no button {text!r}; buttons: {names}")


def solo(app: App, state, side: str = "north") -> GameScreen:
    """The game window of ``state`` with ``side`` at the screen and a stand-in opponent
    (it accepts its deployment at once)."""
    other = state.other(side)
    session = GameSession(state, {side: "human", other: StandingController()}, shown=side)
    screen = app.replace_all(GameScreen(app, session, Seats(mode="solo", human=side)))
    app.run_frames(3)
    return screen


def setup_layer(screen: GameScreen) -> SetupLayer:
    layer = screen.ctx.setup
    assert isinstance(layer, SetupLayer) and layer in screen.layers
    return layer


def control(layer: SetupLayer, kind: str, value=None) -> pygame.Rect:
    """The panel's control of an action, where it was drawn last frame."""
    for rect, action in layer.controls:
        if action[0] == kind and (value is None or action[1] == value):
            return rect
    raise AssertionError(f"no control {kind} {value}; controls: {layer.controls}")


def open_dialog(app: App, layer: SetupLayer, battery: str) -> DeployDialog:
    click(app, control(layer, "deploy", battery).center)
    dialog = layer.dialogs.top
    assert isinstance(dialog, DeployDialog) and dialog.battery == battery
    return dialog


def direction_button(dialog: DeployDialog, edge: str) -> pygame.Rect:
    return next(b.rect for b, e in dialog.direction_buttons if e == edge)


def sheet_row(dialog: DeployDialog, sheet_id: str) -> pygame.Rect:
    """The list row of a sheet (scrolled into view by the wheel when needed)."""
    k = next(n for n, s in enumerate(dialog.sheets) if s.id == sheet_id)
    row = k - dialog.scroll
    room = dialog.list_rect.h // dialog.ROW
    assert 0 <= row < room, "the sheet's row is scrolled out of view"
    return pygame.Rect(
        dialog.list_rect.x, dialog.list_rect.y + row * dialog.ROW, dialog.list_rect.w, dialog.ROW
    )


def picture_point(dialog: DeployDialog, xxyy: str) -> tuple[float, float]:
    """The centre of a hex in the dialog's sheet picture."""
    return dialog.hex_point(int(xxyy[:2]) - 1, int(xxyy[2:]) - 1)


def clear_hexes(screen: GameScreen, count: int) -> list[Hex]:
    """``count`` hexes of the area in view and clear of every panel, on different sheets
    first, each well inside its sheet."""
    ctx = screen.ctx
    area = screen.session.state.area
    w, h = SIZE
    free = []
    for hx in area.hexes():
        x, y = screen.hex_to_screen(hx)
        _, name = area.name_of(hx)
        col, row = int(name[:2]), int(name[2:])
        if (
            60 < x < w - 60
            and 90 < y < h - 60
            and not ui.over_panel(ctx, (round(x), round(y)))
            and 3 <= col <= 13
            and 3 <= row <= 15
            and (col + row) % 4 == 0
        ):
            free.append(hx)
    by_sheet: dict[tuple[int, int], list[Hex]] = {}
    for hx in free:
        by_sheet.setdefault(area.position_of(hx), []).append(hx)
    out: list[Hex] = []
    while len(out) < count and any(by_sheet.values()):
        for found in by_sheet.values():
            if found and len(out) < count:
                out.append(found.pop(len(found) // 2))
    assert len(out) == count, "not enough clear hexes in view"
    return out


def whole_area(screen: GameScreen) -> None:
    """Zoom so that the whole 2x2 area is in view below the top bar."""
    area = screen.session.state.area
    a = hex_to_pixel(area.hex_at((0, 0), "0101"), 1.0)
    b = hex_to_pixel(area.hex_at((1, 1), "1517"), 1.0)
    screen.set_zoom(2)
    screen.camera.centre_on_world((a[0] + b[0]) / 2 + 8, (a[1] + b[1]) / 2 - 1)


# --- the helpers ------------------------------------------------------------------------------


def test_ART_1_a_battery_stands_behind_its_home_edge_or_on_a_flank():
    """ART-1: the directions offered are the own home edge and the two flanks."""
    state = new_game(DEFAULT_SCENARIO, 3)
    assert [e for e, _ in directions(player_view(state, "north"))] == ["north", "west", "east"]
    assert [e for e, _ in directions(player_view(state, "south"))] == ["south", "west", "east"]
    bridge = new_game(BRIDGE, 3)
    assert [e for e, _ in directions(player_view(bridge, "west"))] == ["west", "north", "south"]


def test_ART_2_a_click_on_the_sheet_grid_gives_direction_distance_and_along():
    """ART-2: distance 1 is the first sheet beyond the edge; along is the sheet column
    (north/south) or row (west/east); inside the area's extent there is no off-board spot."""
    state = new_game(DEFAULT_SCENARIO, 3)
    area = state.area  # sheets (0..1, 0..1)
    draft = draft_of(player_view(state, "north").units["n-long-tom"])
    assert draft == Draft("n-long-tom", "north", 1, 5, "high_pass", "0807")
    assert draft_at(area, draft, (-3, 0)) == Draft("n-long-tom", "west", 0, 3, "high_pass", "0807")
    assert draft_at(area, draft, (0, -1)) == Draft("n-long-tom", "north", 0, 1, "high_pass", "0807")
    assert draft_at(area, draft, (4, 1)).direction == "east"  # type: ignore[union-attr]
    assert draft_at(area, draft, (2, 1)).distance == 1  # type: ignore[union-attr]
    assert draft_at(area, draft, (1, 1)) is None
    for pos in [(-3, 0), (0, -1), (4, 1), (-2, -2)]:
        moved = draft_at(area, draft, pos)
        assert moved is not None and moved.position(area) == pos


def test_ART_1_ART_3_the_dialogs_reasons_are_the_engines():
    """The reasons shown for a draft are the engine's own (its rule run over the view):
    an empty list exactly when ``apply`` accepts the ``Deploy``."""
    state = new_game(DEFAULT_SCENARIO, 3)
    view = player_view(state, "north")
    cases = [
        Draft("n-long-tom", "west", 0, 4, "deep_forest", "1008"),  # legal
        Draft("n-long-tom", "west", 1, 4, "deep_forest", "1008"),  # south's half (ART-1)
        Draft("n-long-tom", "south", 0, 2, "deep_forest", "1008"),  # the enemy's edge
        Draft("n-long-tom", "north", 9, 4, "deep_forest", "1008"),  # beyond the east edge
        Draft("n-long-tom", "north", 1, 31, "deep_forest", "1008"),  # out of range (ART-3)
        Draft("n-long-tom", "north", 1, 2, "no_such_sheet", "1008"),  # unknown sheet (ART-2)
        Draft("n-long-tom", "north", 1, 2, "deep_forest", "1618"),  # no such hex
    ]
    for draft in cases:
        engine = deployment_refusal(state, "north", draft.command("north"))
        shown = deployment_reasons(view, draft)
        assert shown == ([] if engine is None else [engine])
        trial = new_game(DEFAULT_SCENARIO, 3)
        if engine is None:
            apply(trial, draft.command("north"))
        else:
            with pytest.raises(IllegalCommand, match=r"ART-|sheet|hex|column"):
                apply(trial, draft.command("north"))
    assert "ART-3" in deployment_reasons(view, cases[4])[0]
    assert "ART-1" in deployment_reasons(view, cases[1])[0]


def test_MAP_10_a_second_battery_at_the_same_position_shares_its_sheet():
    """MAP-10 as the engine has it: batteries at one sheet position stand on one sheet, in
    different hexes; the dialog's reasons say so from the view alone."""
    state = new_game(DEFAULT_SCENARIO, 3)
    second = copy.deepcopy(state.units["n-long-tom"])
    second.id, second.name = "n-long-tom-2", "Second Long Tom"
    state.units[second.id] = second  # at (1,-5) on high_pass 0807, like the first
    view = player_view(state, "north")
    other_sheet = Draft("n-long-tom", "north", 1, 5, "deep_forest", "0807")
    same_hex = Draft("n-long-tom", "north", 1, 5, "high_pass", "0807")
    beside = Draft("n-long-tom", "north", 1, 5, "high_pass", "0808")
    for draft in (other_sheet, same_hex, beside):
        engine = deployment_refusal(state, "north", draft.command("north"))
        assert deployment_reasons(view, draft) == ([] if engine is None else [engine])
    assert "MAP-10" in deployment_reasons(view, other_sheet)[0]
    assert "already stands in hex 0807" in deployment_reasons(view, same_hex)[0]
    assert deployment_reasons(view, beside) == []


def test_ART_3_ART_5_ART_6_reach_from_the_draft_to_the_play_area():
    """ART-5: sheets counted as max(|di|, |dj|); ART-6: flight 1 turn for 1-8 sheets,
    3 for 16-21; ART-3: Arrow IV (Inner Sphere) reaches 8 sheets."""
    area = new_game(DEFAULT_SCENARIO, 3).area  # sheets (0,0), (1,0), (0,1), (1,1)
    tom = reach_to_area(area, "long_tom", (1, -5))
    assert sorted(tom.distances) == [5, 5, 6, 6] and set(tom.flights) == {1}
    assert tom.lines()[0].startswith("From sheet (1,-5) the play area is 5 to 6 sheets away")
    assert "every sheet in range" in tom.lines()[0]
    assert tom.lines()[1] == "Flight time 1 turn to every sheet in range (ART-6)."
    far = reach_to_area(area, "long_tom", (0, -16))
    assert sorted(far.distances) == [16, 16, 17, 17] and set(far.flights) == {3}
    edge = reach_to_area(area, "long_tom", (0, -15))
    assert sorted(edge.flights) == [2, 2, 3, 3]
    assert edge.lines()[1] == "Flight time 2 to 3 turns, nearest to farthest (ART-6)."
    arrow = reach_to_area(area, "arrow_iv_is", (0, -8))
    assert arrow.in_range == 2 and "2 of 4 in range" in arrow.lines()[0]
    none = reach_to_area(area, "arrow_iv_is", (0, -10))
    assert none.in_range == 0 and "no sheet in range" in none.lines()[0]
    assert none.lines()[1:] == []


def test_ART_22_allowance_and_the_check_before_a_click():
    """ART-22: one field artillery unit on four sheets may pre-designate 5 * 1 * ceil(4/4)
    = 5 hexes; the check before a click gives the engine's refusal for a sixth."""
    state = new_game(DEFAULT_SCENARIO, 3)
    area = state.area
    chosen = [area.hex_at((0, 0), n) for n in ("0404", "0606", "0808")]
    chosen += [area.hex_at((1, 1), n) for n in ("0404", "0606")]
    for h in chosen:
        apply(state, Predesignate("north", h))
    view = player_view(state, "north")
    found = allowance(view)
    assert (found.units, found.sheets, found.limit, found.used) == (1, 4, 5, 5)
    assert found.per_sheet == {(0, 0): 3, (1, 1): 2}
    assert found.left_on((1, 0)) == 0
    sixth = area.hex_at((1, 0), "0808")
    why = predesignation_check(view, sixth)
    with pytest.raises(IllegalCommand) as refused:
        apply(state, Predesignate("north", sixth))
    assert why == str(refused.value) and "allow 5 (ART-22)" in why
    assert predesignation_check(view, chosen[0]) is None  # a chosen hex: a click removes it
    assert "play area" in str(predesignation_check(view, Hex(-40, 0)))
    # ART-4: south's view holds none of north's hexes.
    assert allowance(player_view(state, "south")).chosen == ()


def test_the_sheet_picture_finds_every_hex_at_any_scale():
    """A click on the sheet's picture names the hex under it, painted at full size or
    scaled down for a small window (the picture never prints a sheet position)."""
    from game.ui.setup_layer import PAINT_MIN, SheetPicture

    for picture in (SheetPicture(16, 1.0), SheetPicture(PAINT_MIN, 0.8)):
        for col in range(15):
            for row in range(17):
                assert picture.hex_at(picture.centre(col, row)) == (col, row)
        assert picture.hex_at((-5.0, -5.0)) is None
    small = SheetPicture.fitting((300, 380))
    assert small.size == PAINT_MIN and small.scale < 1.0
    assert small.dimensions[0] <= 300 and small.dimensions[1] <= 380
    big = SheetPicture.fitting((420, 560))
    assert big.scale == 1.0 and big.dimensions[0] <= 420 and big.dimensions[1] <= 560
    wider = SheetPicture(big.size + 1, 1.0).dimensions
    assert wider[0] > 420 or wider[1] > 560, "the largest size that fits"


# --- the window ---------------------------------------------------------------------------------


def test_ART_1_ART_2_redeploy_to_a_flank_then_pick_hexes_and_accept_into_turn_1(app):
    """The whole set-up by events: re-deploy the Long Tom to the west flank on another
    sheet and hex (the view and the minimap follow), a refused position with the engine's
    reason, three pre-designated hexes and one removed, the over-limit refusal (ART-22),
    then Accept deployment: turn 1 starts with the new position and hexes in the engine."""
    state = new_game(DEFAULT_SCENARIO, 3)
    screen = solo(app, state)
    ctx = screen.ctx
    layer = setup_layer(screen)
    assert layer.rect.w > 0 and ctx.panels["setup"] == layer.rect
    # --- re-deploy (ART-1, ART-2) ---
    dialog = open_dialog(app, layer, "n-long-tom")
    app.run_frames(1)
    assert dialog.draft == draft_of(ctx.view.units["n-long-tom"])
    click(app, direction_button(dialog, "west").center)
    assert (dialog.draft.direction, dialog.draft.along) == ("west", 0)
    click(app, dialog.steps["distance-"].rect.center)
    assert dialog.draft.distance == 4
    click(app, sheet_row(dialog, "deep_forest").center)
    click(app, picture_point(dialog, "1008"))
    assert (dialog.draft.sheet, dialog.draft.xxyy) == ("deep_forest", "1008")
    assert dialog.reasons(ctx.view) == []
    # A refused position: row 1 lies on south's half of the line.
    click(app, dialog.steps["along+"].rect.center)
    engine = deployment_refusal(state, "north", dialog.draft.command("north"))
    assert engine is not None and "ART-1" in engine
    assert dialog.reasons(ctx.view) == [engine]  # shown before sending
    click(app, dialog.deploy.rect.center)
    assert not dialog.closed and dialog.refusal == [engine]
    assert any(t.error and t.text == engine for t in ctx.toasts)
    assert state.units["n-long-tom"].battery.offboard.direction == "north"  # type: ignore[union-attr]
    # Back to row 0 by a click on the sheet grid, then Deploy.
    click(app, dialog.cell_rect(ctx.view, (-4, 0)).center)
    assert dialog.draft == Draft("n-long-tom", "west", 0, 4, "deep_forest", "1008")
    assert dialog.refusal == []
    old_view = ctx.view
    click(app, dialog.deploy.rect.center)
    assert dialog.closed and layer.dialogs.top is None
    off = state.units["n-long-tom"].battery.offboard
    assert off is not None
    assert (off.direction, off.along, off.distance, off.position) == ("west", 0, 4, (-4, 0))
    assert (off.sheet, off.xxyy) == ("deep_forest", "1008")
    assert ctx.view is not old_view
    assert ctx.view.units["n-long-tom"].battery.offboard.position == (-4, 0)
    intel = ctx.artillery.intel
    x0 = intel.minimap_bounds(ctx.view)[0]
    assert x0 < intel.minimap_bounds(old_view)[0], "the minimap reaches out to the west flank"
    app.run_frames(2)
    assert "At (-4,0): 4 sheets beyond the west edge, sheet row 0" in _panel_text(layer, ctx)
    # --- pre-designated hexes (ART-20 .. ART-22) ---
    press(app, pygame.K_r)
    assert ctx.mode == PREDESIGNATE
    whole_area(screen)
    app.run_frames(2)
    hexes = clear_hexes(screen, 6)
    for h in hexes[:3]:
        click(app, screen.hex_to_screen(h))
    assert state.predesignated["north"] == hexes[:3]
    click(app, screen.hex_to_screen(hexes[1]))  # a chosen hex: the click removes it
    assert state.predesignated["north"] == [hexes[0], hexes[2]]
    assert allowance(ctx.view).used == 2
    for h in (hexes[1], hexes[3], hexes[4]):
        click(app, screen.hex_to_screen(h))
    assert len(state.predesignated["north"]) == 5
    click(app, screen.hex_to_screen(hexes[5]))  # the sixth
    assert len(state.predesignated["north"]) == 5
    assert layer.refusal is not None and "allow 5 (ART-22)" in layer.refusal
    assert f"Refused: {layer.refusal}" in " ".join(_panel_text(layer, ctx))
    # The panel's remove button takes one out again.
    click(app, control(layer, "remove", hexes[4]).center)
    assert hexes[4] not in state.predesignated["north"] and layer.refusal is None
    press(app, pygame.K_ESCAPE)
    assert ctx.mode == SELECT and app.game is screen
    # --- accept: turn 1 ---
    button = button_named(screen.ui_manager, "Accept deployment")
    click(app, button.rect.center, frames=4)
    for _ in range(30):
        if state.turn == 1:
            break
        app.run_frames(1)
    assert state.turn == 1 and state.phase == "movement"
    off = state.units["n-long-tom"].battery.offboard
    assert off is not None and (off.direction, off.position, off.xxyy) == ("west", (-4, 0), "1008")
    assert state.predesignated["north"] == [hexes[0], hexes[2], hexes[1], hexes[3]]
    app.run_frames(2)
    assert layer.rect.w == 0 and "setup" not in ctx.panels


def _panel_text(layer: SetupLayer, ctx) -> list[str]:
    """The lines of the set-up panel's current tab."""
    lines = (
        layer._hex_lines(ctx, 360) if ctx.mode == PREDESIGNATE else layer._battery_lines(ctx, 360)
    )
    out = []
    for kind, payload in lines:
        if kind in ("text", "head"):
            out.append(payload[0])
        elif kind == "grid":
            out += [cell[0] for cell in payload]
    return out


def test_in_the_smallest_window_the_dialog_fits_below_the_top_bar(tmp_path, monkeypatch):
    """At the window's minimum size the dialog lies inside the window and below the top
    bar (whose Accept deployment button must not sit on it); a click on its picture still
    picks the hex."""
    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    small = App((960, 600), ai_delay=0.0, autosave=False)
    try:
        state = new_game(DEFAULT_SCENARIO, 3)
        screen = solo(small, state)
        dialog = open_dialog(small, setup_layer(screen), "n-long-tom")
        small.run_frames(1)
        window = small.window.get_rect()
        bar = screen.phase_bar.rect
        assert window.contains(dialog.rect) and dialog.rect.top >= bar.bottom
        for rect in [b.rect for b, _ in dialog.direction_buttons] + [dialog.picture_rect]:
            assert dialog.rect.contains(rect)
        click(small, picture_point(dialog, "0312"))
        assert dialog.draft.xxyy == "0312"
    finally:
        small.shutdown()


def test_the_dialog_by_keyboard_and_cancel_changes_nothing(app):
    """B opens the dialog; PageDown picks the next sheet, digits type the hex, arrows move
    it; Esc closes it and nothing was sent."""
    state = new_game(DEFAULT_SCENARIO, 3)
    screen = solo(app, state)
    layer = setup_layer(screen)
    press(app, pygame.K_b)
    dialog = layer.dialogs.top
    assert isinstance(dialog, DeployDialog)
    first = dialog.draft.sheet
    press(app, pygame.K_PAGEDOWN)
    assert dialog.draft.sheet != first
    for key in (pygame.K_1, pygame.K_2, pygame.K_0, pygame.K_3):
        press(app, key, frames=1)
    assert dialog.draft.xxyy == "1203"
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_DOWN)
    assert dialog.draft.xxyy == "1304"
    for key in (pygame.K_1, pygame.K_6, pygame.K_0, pygame.K_1):
        press(app, key, frames=1)
    assert dialog.draft.xxyy == "1304" and "1601" in dialog.message  # no column 16
    log = len(state.log)
    press(app, pygame.K_ESCAPE)
    assert layer.dialogs.top is None and app.game is screen  # Esc closed the dialog only
    assert len(state.log) == log
    assert state.units["n-long-tom"].battery.offboard.sheet == "high_pass"  # type: ignore[union-attr]


def test_ART_4_hot_seat_each_side_sets_up_after_its_hand_over_and_sees_only_its_own(app):
    """Hot-seat: north sets up after its hand-over; then the hand-over screen (nothing of
    either side) and south's set-up shows only south's battery and none of north's hexes."""
    state = new_game(DEFAULT_SCENARIO, 21)
    screen = app.open_game(state, Seats(HOTSEAT))
    app.run_frames(2)
    assert isinstance(app.top, HandOverScreen) and app.top.side == "north"
    layer = setup_layer(screen)
    take_seat(app)
    app.run_frames(2)
    ctx = screen.ctx
    assert layer.rect.w > 0
    dialog = open_dialog(app, layer, "n-long-tom")
    click(app, direction_button(dialog, "east").center)
    click(app, dialog.deploy.rect.center)
    assert state.units["n-long-tom"].battery.offboard.direction == "east"  # type: ignore[union-attr]
    press(app, pygame.K_r)
    whole_area(screen)
    app.run_frames(2)
    mine = clear_hexes(screen, 2)
    for h in mine:
        click(app, screen.hex_to_screen(h))
    assert state.predesignated["north"] == mine
    click(app, button_named(screen.ui_manager, "Accept deployment").rect.center, frames=3)
    assert isinstance(app.top, HandOverScreen) and app.top.side == "south"
    take_seat(app)
    app.run_frames(2)
    assert ctx.view.side == "south" and ctx.mode == SELECT and layer.refusal is None
    assert [u.id for u in ctx.view.own_units() if u.battery is not None] == ["s-long-tom"]
    assert "n-long-tom" not in ctx.view.units
    assert allowance(ctx.view).chosen == ()
    assert list(layer.controls) and all(a[1] != "n-long-tom" for _, a in layer.controls)
    dialog = open_dialog(app, layer, "s-long-tom")
    assert [e for _, e in dialog.direction_buttons] == ["south", "west", "east"]
    assert dialog.legal_cells(ctx.view)  # the grid knows only south's batteries
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_r)
    whole_area(screen)
    app.run_frames(2)
    theirs = clear_hexes(screen, 1)[0]
    click(app, screen.hex_to_screen(theirs))
    assert state.predesignated["south"] == [theirs]
    assert state.predesignated["north"] == mine


def test_ART_20_a_scenario_without_pre_designation_says_so(app):
    """ART-20: Burning Bridge does not allow pre-designated hexes: the tab says so, and a
    click on the map is refused by the engine with that reason. West's directions are its
    home edge and the north and south flanks."""
    state = new_game(BRIDGE, 5)
    side = state.sides[0]
    screen = solo(app, state, side)
    ctx = screen.ctx
    layer = setup_layer(screen)
    battery = next(u.id for u in state.living(side) if u.battery is not None)
    dialog = open_dialog(app, layer, battery)
    assert [e for _, e in dialog.direction_buttons] == [side, "north", "south"]
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_r)
    assert ctx.mode == PREDESIGNATE
    assert any("does not allow" in t.text for t in ctx.toasts)
    assert "does not allow pre-designated hexes (ART-20)" in " ".join(_panel_text(layer, ctx))
    h = state.area.hexes()[len(state.area.hexes()) // 2]
    screen.camera.centre_on(h)
    app.run_frames(2)
    click(app, screen.hex_to_screen(h))
    assert state.predesignated.get(side, []) == []
    assert layer.refusal is not None and "ART-20" in layer.refusal


def test_the_panel_only_shows_while_the_side_on_screen_sets_up(app):
    """Once both sides have accepted, the panel and the hex picking are gone; a battery on
    the board is listed as such and has no Re-deploy button."""
    state = new_game(DEFAULT_SCENARIO, 3)
    screen = solo(app, state)
    layer = setup_layer(screen)
    assert [a for _, a in layer.controls if a[0] == "deploy"] == [("deploy", "n-long-tom")]
    unit = state.units["n-long-tom"]
    assert unit.battery is not None and unit.battery.offboard is not None
    saved = unit.battery.offboard
    unit.battery.offboard = None  # as if its sheet had come into play (MAP-10)
    unit.hex = state.area.hex_at((0, 0), "0303")
    screen.ctx.refresh()
    app.run_frames(2)
    assert not [a for _, a in layer.controls if a[0] == "deploy"]
    assert any("cannot be re-deployed" in line for line in _panel_text(layer, screen.ctx))
    unit.battery.offboard, unit.hex = saved, None
    screen.ctx.refresh()
    press(app, pygame.K_r)
    assert screen.ctx.mode == PREDESIGNATE
    apply(state, Deploy("north", "n-long-tom", "north", 1, 5, "high_pass", "0807"))
    click(app, button_named(screen.ui_manager, "Accept deployment").rect.center, frames=4)
    assert state.turn == 1
    assert screen.ctx.mode == SELECT and layer.rect.w == 0


def test_the_setup_dialog_opens_in_the_screens_one_dialog_host(app):
    """The game screen makes its layers by name: the set-up layer and the artillery
    layers share one dialog host, the topmost layer, so the deployment dialog takes
    the events while it is open and deploys."""
    state = new_game(DEFAULT_SCENARIO, 3)
    screen = solo(app, state)
    layer = setup_layer(screen)
    assert screen.ctx.artillery is not None
    assert layer.dialogs is screen.ctx.dialogs is screen.ctx.artillery.dialogs
    assert screen.layers[-1] is layer.dialogs
    dialog = open_dialog(app, layer, "n-long-tom")
    app.run_frames(1)
    click(app, direction_button(dialog, "east").center)
    press(app, pygame.K_RETURN)
    assert dialog.closed and layer.dialogs.top is None
    assert state.units["n-long-tom"].battery.offboard.direction == "east"  # type: ignore[union-attr]


# --- screenshots --------------------------------------------------------------------------------


def test_screenshots_of_the_setup_phase(app, shots):
    """The deployment dialog with a flank position, its sheet and hex and the reach; the
    map with pre-designated hexes, the allowance panel and the hovered hex's preview."""
    state = new_game(DEFAULT_SCENARIO, 3)
    screen = solo(app, state)
    ctx = screen.ctx
    layer = setup_layer(screen)
    dialog = open_dialog(app, layer, "n-long-tom")
    click(app, direction_button(dialog, "west").center)
    click(app, dialog.steps["distance-"].rect.center)
    click(app, sheet_row(dialog, "deep_forest").center)
    click(app, picture_point(dialog, "1008"))
    move_mouse(app, dialog.cell_rect(ctx.view, (-2, -1)).center)
    assert dialog.hover_cell == (-2, -1)
    ctx.toasts.clear()
    app.run_frames(2)
    app.screenshot(shots / "setup_deploy.png")
    click(app, dialog.deploy.rect.center)
    assert dialog.closed
    # Pre-designated hexes on north's two sheets; a sixth is refused (ART-22).
    press(app, pygame.K_r)
    area = state.area
    screen.set_zoom(3)
    x, y = hex_to_pixel(area.hex_at((0, 0), "1509"), 1.0)
    screen.camera.centre_on_world(x + 2.5, y + 1.5)
    app.run_frames(2)
    names = [
        ((0, 0), "0907"),
        ((0, 0), "1211"),
        ((1, 0), "0406"),
        ((1, 0), "0710"),
        ((0, 0), "0612"),
        ((1, 0), "0513"),
    ]
    hexes = [area.hex_at(pos, name) for pos, name in names]
    for h in hexes:
        at = screen.hex_to_screen(h)
        assert not ui.over_panel(ctx, at) and 0 < at[0] < SIZE[0] and 60 < at[1] < 580
        click(app, at)
    assert state.predesignated["north"] == hexes[:5]
    assert layer.refusal is not None and "ART-22" in layer.refusal
    ctx.toasts.clear()
    move_mouse(app, screen.hex_to_screen(hexes[5]), frames=30)
    assert ctx.hovered == hexes[5]
    app.screenshot(shots / "setup_predesignate.png")
    for name in ("setup_deploy.png", "setup_predesignate.png"):
        assert pygame.image.load(str(shots / name)).get_size() == SIZE
