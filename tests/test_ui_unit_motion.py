"""Moves on the map, driven in the real window (SDL dummy driver): a counter slides
hex by hex along its path over the frames, at once with animations off, to its end
at a click; enemy moves play in the engine's order and leave fading trails of the
hexes the side saw, and only those; a hot-seat seat sees no trail from the other
seat's screen. Screenshots go to the test's folder; the trails of the enemy's moves
(trails.png) to ``BARRAGE_SCREENSHOTS`` when it is set (docs/screenshots)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pygame
import pytest

from game.hexmath import Hex, distance, line
from game.state import EndPhase, Fly, Hold, acting_side, apply, legal_commands, new_game
from game.state.model import GameState
from game.ui.app import App
from game.ui.game_screen import GameScreen
from game.ui.screens import HandOverScreen
from game.ui.seats import HOTSEAT, SOLO, Seats
from game.ui.session import GameSession
from game.ui.unit_motion import HEX_SECONDS, MoveShow, reader_of, trail_fade
from tests.test_aircraft import AIR, until_north_flies
from tests.test_ui_app import click, post, press, run_until

ROOT = Path(__file__).resolve().parents[1]
HUNT = ROOT / "maps" / "long_tom_hunt.toml"
AIR_STRIKE = ROOT / "maps" / "air_strike.toml"


def started(path: Path = HUNT, seed: int = 12) -> GameState:
    state = new_game(path, seed)
    for side in state.sides:
        apply(state, EndPhase(side))
    return state


def drawn_hex(game: GameScreen, uid: str) -> Hex | None:
    """The hex under the centre of the counter as drawn in the last frame."""
    at = game.units.drawn_at.get(uid)
    return None if at is None else game.camera.screen_to_hex(*at)


def watch(app: App, game: GameScreen, uid: str, frames: int) -> list[tuple[int, int]]:
    """The counter's drawn centre, frame by frame."""
    seen = []
    for _ in range(frames):
        app.run_frames(1)
        seen.append(game.units.drawn_at[uid])
    return seen


def plan_long_move(app: App, game: GameScreen, uid: str) -> tuple[Hex, tuple[Hex, ...]]:
    """Select the unit and plan, by clicks, a move of three hexes or more in view."""
    unit = game.session.state.units[uid]
    game.set_zoom(4)
    game.camera.centre_on(unit.hex)
    app.run_frames(2)
    click(app, game.hex_to_screen(unit.hex))
    reach = game.units.reach(game.ctx)
    w, h = app.size
    target = next(
        hx
        for hx, route in sorted(reach.items(), key=lambda kv: -len(kv[1].path))
        if 3 <= len(route.path) <= 6
        and all(
            200 < game.hex_to_screen(p)[0] < w - 200 and 80 < game.hex_to_screen(p)[1] < h - 80
            for p in route.path
        )
    )
    click(app, game.hex_to_screen(target))
    plan = game.units.plan
    assert plan is not None and plan.to == target
    return target, reach.route(target, plan.facing).path


@pytest.fixture
def solo(app: App):
    """North's first move of Long Tom Hunt, south the easy AI."""
    state = started()
    game = app.open_game(state, Seats(SOLO, "north", "easy"))
    run_until(app, lambda: acting_side(state) == "north")
    return state, game


def test_an_own_move_slides_hex_by_hex_along_the_planned_path(app, solo):
    """The move is the engine's at once; the counter follows the path the player planned,
    hex after hex in order, taking HEX_SECONDS a hex at speed 1."""
    state, game = solo
    uid = "n-hunter-1"
    target, path = plan_long_move(app, game, uid)
    click(app, game.hex_to_screen(target), frames=0)  # the second click sends the move
    app.run_frames(1)
    assert state.units[uid].hex == target, "the engine moved it at once"
    assert game.units.busy
    frames = round(HEX_SECONDS * (len(path) - 1) * 60) + 4
    centres = watch(app, game, uid, frames)
    hexes = [game.camera.screen_to_hex(*c) for c in centres]
    visited = [h for k, h in enumerate(hexes) if k == 0 or h != hexes[k - 1]]
    assert visited == list(path[1:]) or visited == list(path), visited
    assert len(set(centres)) > len(path), "it slides between hex centres, not jumps"
    assert game.units.motion.showing(uid) is None and drawn_hex(game, uid) == target


def test_the_counter_is_shown_mid_way_and_the_screenshot_shows_it(app, solo, tmp_path):
    _, game = solo
    uid = "n-hunter-1"
    target, path = plan_long_move(app, game, uid)
    click(app, game.hex_to_screen(target), frames=0)
    app.run_frames(round(HEX_SECONDS * 60 * 1.5))
    here = drawn_hex(game, uid)
    assert here in path[1:-1], "between its start and its end, on its path"
    app.screenshot(tmp_path / "own_move_mid.png")


def test_animations_off_show_the_move_at_once(app, solo):
    _, game = solo
    app.settings.animation_speed = 0.0
    uid = "n-hunter-1"
    target, _ = plan_long_move(app, game, uid)
    click(app, game.hex_to_screen(target), frames=1)
    assert game.units.motion.showing(uid) is None and drawn_hex(game, uid) == target


@pytest.mark.parametrize("skip", ["click", "key"])
def test_a_click_or_a_key_ends_the_move_on_show(app, solo, skip):
    _, game = solo
    uid = "n-hunter-1"
    target, _ = plan_long_move(app, game, uid)
    click(app, game.hex_to_screen(target), frames=2)
    assert game.units.motion.showing(uid) is not None and drawn_hex(game, uid) != target
    # Zooming with the wheel is no click: the move plays on.
    post(pygame.MOUSEBUTTONDOWN, pos=(640, 400), button=4)
    post(pygame.MOUSEWHEEL, x=0, y=1, flipped=False)
    app.run_frames(1)
    assert game.units.motion.showing(uid) is not None
    if skip == "click":
        post(pygame.MOUSEBUTTONDOWN, pos=(5, 300), button=1)
        app.run_frames(1)
    else:
        press(app, pygame.K_F2, frames=1)
    assert game.units.motion.showing(uid) is None and drawn_hex(game, uid) == target


def hold_north(state: GameState, game: GameScreen) -> None:
    """North holds its next unit (as its player would with H)."""
    hold = next(c for c in legal_commands(state, "north") if isinstance(c, Hold))
    game.ctx.submit(hold)


def test_enemy_moves_play_in_the_engines_order_and_leave_fading_trails(app, solo, shots, tmp_path):
    """Each move of the AI plays in turn, from where north saw the unit to where it
    stands; its trail then shows the hexes passed, and fades out over about a turn."""
    state, game = solo
    game.set_zoom(3)
    game.camera.centre_on(state.units["s-hunter-1"].hex)
    game.units.motion.finish()  # the AI's first move, made as the game opened
    played: list[MoveShow] = []
    before = {u.id: u.hex for u in state.units.values()}
    logged = len(game.ctx.view.log)
    mid_shot = False
    for _ in range(4000):
        if state.phase != "movement":
            break
        if acting_side(state) == "north" and not game.units.busy:
            hold_north(state, game)
        app.run_frames(1)
        show = game.units.motion.playing
        if show is not None and (not played or played[-1] is not show):
            played.append(show)
        if show is not None and show.side == "south" and not mid_shot and game.units.motion.t > 0.3:
            app.screenshot(tmp_path / "enemy_move_mid.png")
            mid_shot = True
    run_until(app, lambda: not game.units.busy)
    moved = [e.data["unit"] for e in game.ctx.view.log[logged:] if e.kind == "move"]
    assert moved and [s.unit for s in played] == moved, "in the engine's order"
    trails = {s.unit: s for s in game.units.motion.trails_for(game.ctx.view)}
    this_turn = [e.data["unit"] for e in game.ctx.view.log if e.kind == "move" and e.turn == 1]
    assert set(trails) == {u for u in this_turn if state.units[u].side == "south"}
    for uid, show in trails.items():
        hexes = show.hexes
        assert hexes[0] == before[uid] or uid not in moved
        assert hexes[-1] == state.units[uid].hex
        assert all(distance(a, b) == 1 for a, b in pairwise(hexes))
        assert all(state.area.contains(h) for h in hexes)
    app.run_frames(2)
    app.screenshot(shots / "trails.png")
    assert set(game.units.trails_drawn) == set(trails)
    # The phases go by: each trail fades as they pass, and is gone within a turn
    # (or replaced by the unit's next move).
    fades = []
    first = next(iter(trails))

    def still_shown() -> dict[str, MoveShow]:
        view = game.ctx.view
        now = {s.unit: s for s in game.units.motion.trails_for(view)}
        return {
            uid: show
            for uid, show in trails.items()
            if now.get(uid) is show and trail_fade(show, view) > 0
        }

    while still_shown():
        view = game.ctx.view
        for uid, show in still_shown().items():
            assert game.units.trails_drawn[uid] == round(40 + 200 * trail_fade(show, view))
        if first in still_shown():
            fades.append(trail_fade(trails[first], view))
        if acting_side(state) == "north":
            if state.phase == "movement":
                hold_north(state, game)
            else:
                game.ctx.submit(EndPhase("north"))
        app.run_frames(3)
        run_until(app, lambda: not game.units.busy)
    for uid, show in trails.items():
        current = {s.unit: s for s in game.units.motion.trails_for(game.ctx.view)}.get(uid)
        assert current is not show or uid not in game.units.trails_drawn, "faded out"
    # Three quarters in the targeting phase after the moves, then less at each phase.
    assert fades[:2] == [0.75, 0.5] and fades == sorted(fades, reverse=True)
    assert state.turn == 2


def test_the_ai_waits_for_its_move_to_be_shown(home):
    """With the window's AI delay the next AI command waits until the move on show ends."""
    app = App((1280, 800), ai_delay=0.05)
    pygame.event.clear()
    try:
        state = started()
        game = app.open_game(state, Seats(SOLO, "north", "easy"))
        game.phase_bar.auto_hold["north"] = state.turn  # "End movement": north holds
        waited = False
        for _ in range(3000):
            if state.phase != "movement":
                break
            show = game.units.motion.playing
            busy = show is not None and show.side == "south" and acting_side(state) == "south"
            commands = len(state.commands)
            app.run_frames(1)
            if busy and game.units.motion.playing is show:
                assert len(state.commands) == commands, "no command while its move is shown"
                waited = True
        assert waited, "an AI move was shown while the AI had its next command to give"
    finally:
        app.shutdown()


class Pilot:
    """North's side in the flight test: flies the aircraft as told, then holds."""

    def __init__(self, flight: Fly) -> None:
        self.flight: Fly | None = flight

    def choose(self, view, legal, dice):
        flight, self.flight = self.flight, None
        return flight or next(c for c in legal if isinstance(c, Hold | EndPhase))


def test_a_flight_off_the_map_leaves_a_trail_of_the_hexes_seen_only(app, tmp_path):
    """ART-36: south watches north's aircraft fly off the map. Its counter slides over
    the hexes of the map and is gone at the edge; the trail holds the hexes of the map
    it was seen on, never the part of the flight beyond the edge."""
    state = started(AIR_STRIKE, 4)
    until_north_flies(state)
    air = state.units[AIR]
    start = air.hex
    assert start is not None
    # A hex beyond the edge within a turn's flight, the line to it crossing the map.
    beyond = next(
        h
        for h in sorted(
            (Hex(start.q + dq, start.r + dr) for dq in range(-9, 10) for dr in range(-9, 10)),
            key=lambda h: (-sum(state.area.contains(p) for p in line(start, h)), h),
        )
        if distance(start, h) <= 9 and not state.area.contains(h)
    )
    flown = line(start, beyond)
    inside = [h for h in flown if state.area.contains(h)]
    assert 2 < len(inside) < len(flown)
    # North's pilot flies it there, as the AI would (the window steps it).
    pilot = Fly("north", AIR, beyond, int(air.altitude))
    session = GameSession(state, {"north": Pilot(pilot), "south": "human"}, shown="south")
    game = app.replace_all(GameScreen(app, session, Seats(SOLO, "south")))
    game.set_zoom(3)
    game.camera.centre_on(inside[len(inside) // 2])
    seen: list[Hex | None] = []
    for _ in range(round(HEX_SECONDS * 60 * len(flown)) + 6):
        app.run_frames(1)
        seen.append(drawn_hex(game, AIR))
        if len(seen) == 12:
            app.screenshot(tmp_path / "flight_off_the_map.png")
    shown = [h for h in seen if h is not None]
    assert shown and set(shown) <= set(inside), "drawn only over hexes of the map"
    assert seen[-1] is None, "gone once off the map"
    trail = game.units.motion.trails[reader_of(game.ctx.view)][AIR]
    assert list(trail.hexes) == inside, "the hexes it was seen on, and no others"
    assert AIR in game.units.trails_drawn


def test_hot_seat_seats_see_only_trails_from_their_own_screens(app, tmp_path):
    """At the table both players see each side's last moves; behind a hand-over a seat
    sees the trails of the other side's units it saw itself, never its own units' and
    never what was recorded from the other seat's screen."""
    state = started(HUNT, 5)
    game = app.open_game(state, Seats(HOTSEAT))
    game.set_zoom(2)
    game.camera.centre_on(state.area.hex_at((0, 1), "0801"))
    app.run_frames(2)
    assert game.ctx.view.table
    while state.phase == "movement":
        side = acting_side(state)
        assert side is not None
        moves = [c for c in legal_commands(state, side) if type(c).__name__ == "Move"]
        command = moves[len(moves) // 2] if moves else legal_commands(state, side)[0]
        moving = bool(moves) and state.units[command.unit].hex != command.to
        game.ctx.submit(command)
        app.run_frames(3)
        if moving and state.phase == "movement" and state.pending_sheet is None:
            # The move plays on at the table, now the other side's to act.
            assert game.units.motion.showing(command.unit) is not None
        if state.phase == "movement" and app.top is game:
            run_until(app, lambda: not game.units.busy)
            app.run_frames(1)
            at_table = set(game.units.trails_drawn)
            assert at_table == set(game.units.motion.trails["table"]), "both see every trail"
            if state.pending_sheet is None:
                app.screenshot(tmp_path / "hotseat_table_trails.png")
    table_trails = dict(game.units.motion.trails.get("table", {}))
    sides = {state.units[u].side for u in table_trails}
    assert sides == {"north", "south"}, "the table saw both sides move"
    assert {state.units[u].side for u in at_table} == {"north", "south"}
    mover = next(u for u in table_trails if state.units[u].side == "north")
    end = state.units[mover].hex
    far = line(end, Hex(end.q + 3, end.r))
    for seat in ("north", "south"):

        def seated(seat: str = seat) -> bool:
            return game.ctx.view.side == seat and not game.ctx.view.table

        run_until(app, lambda: app.top is not game or seated(), 200)
        if isinstance(app.top, HandOverScreen):
            app.run_frames(int(HandOverScreen.GUARD * 60) + 2)
            press(app, pygame.K_SPACE, frames=3)  # the seat takes the hand-over
        run_until(app, seated, 200)
        app.run_frames(2)
        drawn = set(game.units.trails_drawn)
        own_log_moves = {
            e.data["unit"] for e in game.ctx.view.log if e.kind == "move" and e.turn == 1
        }
        assert drawn, f"{seat} sees the other side's moves"
        assert all(state.units[u].side != seat for u in drawn), "never its own units"
        assert drawn <= own_log_moves, "only moves in its own log"
        memory = game.units.motion.trails[seat]
        assert all(memory[u].hexes == table_trails[u].hexes for u in drawn)
        if seat == "north":
            # Something only north's screen recorded of a north unit (its secret).
            secret = MoveShow(mover, "north", tuple((h, 1) for h in far), 1, "targeting")
            memory[mover] = secret
        else:
            assert mover in drawn, "south sees the north unit's last move"
            assert memory[mover].hexes == table_trails[mover].hexes != secret.hexes
        app.screenshot(tmp_path / f"hotseat_{seat}_trails.png")
        game.ctx.submit(EndPhase(seat))
        app.run_frames(3)


def test_a_stretch_the_side_did_not_see_is_neither_drawn_nor_slid_across():
    """Hexes the side did not see split a trail in two and the counter crosses them
    at once: the line never runs over them."""
    a, b, c, d, e = (Hex(q, 0) for q in range(5))
    show = MoveShow("u", "south", ((a, 2), (b, 2), (d, 2), (e, 3)), 1, "movement")
    assert show.runs() == [[a, b], [d, e]]
    assert show.seconds == pytest.approx(2 * HEX_SECONDS)
    assert show.at(HEX_SECONDS * 0.5) == (0, pytest.approx(0.5))
    assert show.at(HEX_SECONDS * 1.5)[0] == 2, "over the unseen stretch in no time"
    assert c not in show.hexes


def test_animations_off_land_the_shells_at_once_too(app):
    """Settings' "Off" is for every animation: the arrival of a shell is counted as
    seen in the frame it lands, and the game goes on (the AI does not wait)."""
    from game.state import PlotFire

    state = started(HUNT, 5)
    while state.turn < 2 or state.phase != "targeting" or acting_side(state) != "north":
        side = acting_side(state)
        if state.phase == "movement":
            apply(state, next(c for c in legal_commands(state, side) if isinstance(c, Hold)))
            continue
        if state.phase == "targeting" and state.turn == 1 and side == "north":
            target = state.units["s-spotter"].hex
            apply(state, PlotFire("north", "n-long-tom", 1, target, "standard"))
        apply(state, EndPhase(side))
    app.settings.animation_speed = 0.0
    game = app.open_game(state, Seats(SOLO, "north", "easy"))
    app.run_frames(3)
    for phase in ("targeting", "attack"):  # the shells land after the attacks
        run_until(app, lambda p=phase: state.phase == p and acting_side(state) == "north", 120)
        press(app, pygame.K_RETURN, mod=pygame.KMOD_CTRL, frames=3)  # north ends it
    run_until(app, lambda: any(e.kind == "arrival" for e in state.log), 60)
    app.run_frames(2)
    animation = game.ctx.artillery.animation
    assert not animation.busy and len(animation.played) == 1
    run_until(app, lambda: state.turn == 3 and acting_side(state) == "north", 240)


def test_a_move_after_falling_back_starts_where_the_unit_fell_back_to():
    """WHC-1: a unit that broke fell back a hex in the attack event (its data names
    the hex); its next move is read from there, not from where the side's last view
    showed it."""
    from game.hexmath import neighbors
    from game.state import Event, player_view
    from game.ui.unit_motion import moves_seen

    state = started()
    view = player_view(state, "north")
    unit = view.units["s-hunter-1"]
    taken = {u.hex for u in view.units.values()}
    free = [h for h in neighbors(unit.hex) if state.area.contains(h) and h not in taken]
    fell = free[0]
    on = next(
        h for h in neighbors(fell) if state.area.contains(h) and h not in taken and h != unit.hex
    )
    events = [
        Event(
            1,
            "attack",
            "attack",
            "it breaks and falls back",
            None,
            {"broken": unit.id, "fell_back": [fell.q, fell.r]},
        ),
        Event(
            2,
            "movement",
            "move",
            "it moves",
            None,
            {"unit": unit.id, "to": [on.q, on.r], "facing": unit.facing},
        ),
    ]
    (show,) = moves_seen(view, view, events)
    assert show.hexes[0] == fell and show.hexes[-1] == on
