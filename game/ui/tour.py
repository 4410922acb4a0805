"""A tour of every screen of the window: the catalogue the layout test and the
screenshot script (scripts/screenshots.py) share.

Each scene brings a running ``App`` (headless or not) into one screen with real
posted events and engine commands, as a player would reach it: the menu and its
pages, the game screen in each phase, help, the legend, every dialog, the set-up
panel, plot mode, arrivals, intel, the LOS tool, the hot-seat hand-over, the
tutorial, a replay and the end screen. Games start from the shipped scenarios; the
other side is played by engine commands (holds and ends of phases) so every scene
is the same at every run.

``SCENES`` maps each scene's name (the screenshot's file name) to its function;
``show(app, name)`` plays it and leaves the window showing it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

import pygame

from game.hexmath import Hex, distance
from game.state import (
    EndPhase,
    GameState,
    Hold,
    PlotFire,
    Predesignate,
    Unit,
    acting_side,
    apply,
    legal_commands,
    new_game,
    save_game,
)
from game.state.model import MOVEMENT
from game.state.setup import MAPS_FOLDER
from game.ui.home import data_home, saves_dir
from game.ui.seats import HOTSEAT, SOLO, Seats

if TYPE_CHECKING:
    from game.ui.app import App
    from game.ui.game_screen import GameScreen

HUNT = str(MAPS_FOLDER / "long_tom_hunt.toml")

# --- events, as a player makes them ----------------------------------------------------------


def post(kind: int, **attrs: object) -> None:
    pygame.event.post(pygame.event.Event(kind, **attrs))


def hover(app: App, pos: tuple[float, float], frames: int = 2) -> None:
    post(pygame.MOUSEMOTION, pos=(int(pos[0]), int(pos[1])), rel=(0, 0), buttons=(0, 0, 0))
    app.run_frames(frames)


def click(app: App, pos: tuple[float, float], frames: int = 3) -> None:
    at = (int(pos[0]), int(pos[1]))
    post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=at, button=1)
    post(pygame.MOUSEBUTTONUP, pos=at, button=1)
    app.run_frames(frames)


def press(app: App, key: int, frames: int = 3, mod: int = 0) -> None:
    post(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)
    post(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0)
    app.run_frames(frames)


def click_button(app: App, manager: object, label: str, frames: int = 3) -> None:
    """Click the pygame-gui button of ``manager`` that shows ``label``."""
    for element in manager.get_sprite_group().sprites():  # type: ignore[attr-defined]
        if getattr(element, "text", None) == label and hasattr(element, "check_pressed"):
            click(app, element.rect.center, frames)
            return
    raise LookupError(f"no button {label!r} on this screen")


# --- games brought to a moment by engine commands --------------------------------------------


def step(state: GameState) -> None:
    """The acting side holds its next unit in movement, else ends its phase."""
    side = acting_side(state)
    assert side is not None, "the game is over"
    if state.phase == MOVEMENT:
        unit = next(u for u in state.living(side) if u.hex is not None and not u.moved)
        apply(state, Hold(side, unit.id))
    else:
        apply(state, EndPhase(side))


def advance(state: GameState, done: Callable[[GameState], bool], limit: int = 400) -> GameState:
    for _ in range(limit):
        if done(state):
            return state
        step(state)
    raise RuntimeError("the game did not reach the scene's moment")


def at(phase: str, side: str = "north", turn: int = 1) -> Callable[[GameState], bool]:
    return lambda s: (
        s.turn >= turn and s.phase == phase and acting_side(s) == side and s.pending_sheet is None
    )


def hunt(seed: int = 3) -> GameState:
    return new_game(HUNT, seed)


def play(
    app: App, state: GameState, seats: Seats | None = None, frames: int = 4, logs: bool = False
) -> GameScreen:
    """The game window of ``state``, north at the screen, south played by a stand-in
    that holds and ends its phases (the scene stays where it was brought); ``logs``:
    the finished game's log is kept, as the window keeps it."""
    from game.ui.game_screen import GameScreen, StandingController
    from game.ui.session import GameSession

    seats = seats or Seats(SOLO, "north")
    if seats.mode == SOLO:
        human = seats.human or "north"
        other = state.other(human)
        session = GameSession(state, {human: "human", other: StandingController()}, shown=human)
        if logs:
            from game.ui.home import logs_dir

            session.logs_dir = logs_dir()
        screen = app.replace_all(GameScreen(app, session, seats))
    else:
        screen = app.open_game(state, seats)
    app.run_frames(frames)
    return screen  # type: ignore[return-value]


def look_at(app: App, screen: GameScreen, h: Hex, zoom: int = 4) -> tuple[int, int]:
    screen.set_zoom(zoom)
    screen.camera.centre_on(h)
    app.run_frames(2)
    return screen.hex_to_screen(h)


# --- the scenes -----------------------------------------------------------------------------


def menu(app: App) -> None:
    app.open_menu()
    app.run_frames(4)


def finished_game(seed: int = 9) -> GameState:
    """Long Tom Hunt cut to one turn, south's gun already lost: north wins at its end."""
    state = hunt(seed)
    state.turn_limit = 1
    state.units["s-long-tom"].destroyed = True
    return advance(state, lambda s: s.result is not None)


def menu_replays(app: App) -> None:
    """The Replays page with a finished game's log."""
    from game.ui.game_logs import keep_log
    from game.ui.home import logs_dir

    keep_log(finished_game(), logs_dir())
    menu(app)
    click_button(app, app.top.manager, "Replays")  # type: ignore[union-attr]


def menu_settings(app: App) -> None:
    menu(app)
    click_button(app, app.top.manager, "Settings")  # type: ignore[union-attr]


def setup_panel(app: App) -> None:
    """Set-up: the panel of north's guns and pre-designation."""
    play(app, hunt())


def setup_deploy(app: App) -> None:
    """The deployment dialog: the Long Tom re-deployed to the west flank, one sheet
    nearer, on Deep Forest, a hex picked and another hovered."""
    screen = play(app, hunt())
    layer = screen.ctx.setup
    rect = next(r for r, action in layer.controls if action[:2] == ("deploy", "n-long-tom"))
    click(app, rect.center)
    dialog = layer.dialogs.top
    click(app, next(b.rect for b, edge in dialog.direction_buttons if edge == "west").center)
    click(app, dialog.steps["distance-"].rect.center)
    row = next(n for n, sheet in enumerate(dialog.sheets) if sheet.id == "deep_forest")
    room = dialog.list_rect.h // dialog.ROW
    if row - dialog.scroll >= room:  # the wheel brings the sheet's row into view
        hover(app, dialog.list_rect.center)
        for _ in range(row - dialog.scroll - room + 1):
            post(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0, precise_y=-1.0)
        app.run_frames(2)
    top = dialog.list_rect.y + (row - dialog.scroll) * dialog.ROW
    click(app, (dialog.list_rect.centerx, top + dialog.ROW // 2))
    click(app, dialog.hex_point(9, 7))
    hover(app, dialog.cell_rect(screen.ctx.view, (-2, -1)).center, 3)


def setup_predesignate(app: App) -> None:
    """Pre-designation (R): five hexes chosen on north's two sheets, a sixth clicked and
    refused (ART-22), the mouse resting on it."""
    from game.hexmath import hex_to_pixel

    state = hunt()
    screen = play(app, state)
    press(app, pygame.K_r)
    area = state.area
    names = [((0, 0), "0907"), ((0, 0), "1211"), ((1, 0), "0406"), ((1, 0), "0710")]
    for pos, name in [*names, ((0, 0), "0612")]:
        screen.ctx.submit(Predesignate("north", area.hex_at(pos, name)))
    screen.set_zoom(3)
    x, y = hex_to_pixel(area.hex_at((0, 0), "1509"), 1.0)
    screen.camera.centre_on_world(x + 2.5, y + 1.5)
    app.run_frames(2)
    sixth = screen.hex_to_screen(area.hex_at((1, 0), "0513"))
    click(app, sixth)
    hover(app, sixth, 30)


def movement(app: App) -> None:
    """Near zoom in turn 4's movement: the Lancer Hound selected by a click, its reach
    shown, the mouse resting on a hex it can reach (the hex's tooltip)."""
    state = played(4)
    screen = play(app, state)
    unit = state.units["n-hunter-1"]
    click(app, look_at(app, screen, unit.hex))
    reach = screen.units.reach(screen.ctx)
    if reach is not None:
        costs = reach.costs()
        south = [h for h, c in costs.items() if c <= 6 and h.r > unit.hex.r] or list(costs)
        goal = max(south, key=lambda h: (costs[h], h.q, h.r))
        hover(app, screen.hex_to_screen(goal), 30)


@cache
def _played(turns: int, seed: int = 3) -> GameState:
    from game.ai import make_policy
    from game.dice import Dice
    from game.state import player_view

    state = hunt(seed)
    policies = {side: make_policy("easy") for side in state.sides}
    dice = {side: Dice(seed * 10 + k) for k, side in enumerate(state.sides)}
    while not at(MOVEMENT, turn=turns)(state) and state.result is None:
        side = acting_side(state)
        view = player_view(state, side)
        apply(state, policies[side].choose(view, legal_commands(state, side), dice[side]))
    return state


def played(turns: int) -> GameState:
    """Long Tom Hunt played by the easy AI on both sides up to north's move of turn
    ``turns`` (played once, a copy each time)."""
    return copy.deepcopy(_played(turns))


def battle_far(app: App) -> None:
    """The whole area after three turns of play, at the farthest zoom: shells in
    flight, the fire queue, the announced direction of the enemy guns."""
    state = played(4)
    screen = play(app, state)
    screen.set_zoom(1)
    screen.camera.fit(screen.map_layer.world_bounds())
    app.run_frames(3)


def targeting(app: App) -> None:
    state = advance(hunt(), at("targeting"))
    play(app, state)


def attack(app: App) -> None:
    state = advance(hunt(), at("attack"))
    play(app, state)


def end_movement_confirm(app: App) -> None:
    """End movement with units not moved: the question before they all hold."""
    state = advance(hunt(), at(MOVEMENT))
    screen = play(app, state)
    click_button(app, screen.ui_manager, "End movement")


def plot_mode_forecast(app: App) -> None:
    """Plot mode (P) with the forecast of a hex near south's guns."""
    state = advance(hunt(), at("targeting"))
    screen = play(app, state)
    aim = state.area.hex_at((0, 1), "0807")
    look_at(app, screen, aim)
    press(app, pygame.K_p)
    hover(app, screen.hex_to_screen(aim), 4)


def arrival_rings(app: App) -> None:
    """A shell landing: its rings, the damage, the arrival card."""
    state = hunt()
    target = state.units["s-hunter-1"].hex
    apply(state, Predesignate("north", target))
    advance(state, at("targeting"))
    apply(state, PlotFire("north", "n-long-tom", 1, target, "standard"))
    screen = play(app, state)
    look_at(app, screen, target)
    arts = screen.ctx.artillery
    for _ in range(3000):
        playing = arts.animation.playing
        if playing is not None and playing.t > 3.3:
            break
        if screen.session.acting() == "north" and not arts.animation.busy:
            step(state)
            screen.ctx.refresh()
        app.run_frames(1)
    hover(app, (5, app.size[1] // 2), 1)


def intel_arrows(app: App) -> None:
    """South's intel (I): the announced directions of north's guns."""
    from game.artillery.detection import announced_side
    from game.state.model import Announcement

    state = advance(hunt(), at(MOVEMENT, "south", 2))
    guns = state.units["n-long-tom"].battery.offboard.position  # type: ignore[union-attr]
    known = state.intel["south"].announcements
    for h in (state.area.hex_at((0, 1), "0807"), state.area.hex_at((1, 1), "1206")):
        known.append(Announcement(2, h, announced_side(state.area, h, guns)))
    screen = play(app, state, Seats(SOLO, "south"))
    look_at(app, screen, known[0].aimed, 3)
    press(app, pygame.K_i)


def crowded(seed: int = 3) -> tuple[GameState, Hex]:
    """Long Tom Hunt in north's first move, with four north shells in flight to
    neighbouring hexes just under the north home edge and four announced directions
    of the south guns there; and the first shell's hex."""
    from game.artillery.detection import announced_side
    from game.artillery.plots import Plot
    from game.hexmath import neighbor
    from game.state.model import Announcement

    state = advance(hunt(seed), at(MOVEMENT))
    aimed = state.area.hex_at((0, 0), "0804")
    for k, d in enumerate((0, 2, 3, 4)):
        target = aimed if d == 0 else neighbor(aimed, d)
        state.queue.add(Plot(0, "north", "n-long-tom", 1, 1, target, "standard", 2 + k % 2))
    guns = state.units["s-long-tom"].battery.offboard.position  # type: ignore[union-attr]
    known = state.intel["north"].announcements
    for turn, name in enumerate(["0805", "0905", "0705", "0806"], start=1):
        h = state.area.hex_at((0, 0), name)
        known.append(Announcement(turn, h, announced_side(state.area, h, guns)))
    return state, aimed


def map_labels(app: App) -> None:
    """Labels in a crowd: four shells on neighbouring hexes and four announced
    directions under the north home edge, the intel panel open (I)."""
    state, aimed = crowded()
    screen = play(app, state)
    look_at(app, screen, aimed, 3)
    press(app, pygame.K_i)


def hidden_by_a_hill(state: GameState, unit: Unit) -> Hex:
    """A hex 7 to 12 hexes from ``unit`` that a hill higher than both ends hides from
    it, the farthest south-west of them."""
    from game.board.los import line_of_sight

    assert unit.hex is not None
    blocked = [
        h
        for h in state.area.hexes()
        if 7 <= distance(h, unit.hex) <= 12
        and not (sight := line_of_sight(state.area, unit.hex, h, unit.height))
        and "higher than both" in sight.reason
    ]
    return max(blocked, key=lambda h: (h.r + h.q / 2, -h.q))


def los_tool(app: App) -> None:
    """The line-of-sight tool (L): the rifles' line over a hill, blocked, its hex
    marked."""
    from game.hexmath import hex_to_pixel

    state = advance(hunt(), at(MOVEMENT))
    screen = play(app, state)
    platoon = state.units["n-platoon"]
    aim = hidden_by_a_hill(state, platoon)
    screen.ctx.selected = platoon.id
    screen.set_zoom(4)
    (ax, ay), (bx, by) = hex_to_pixel(platoon.hex, 1.0), hex_to_pixel(aim, 1.0)
    screen.camera.centre_on_world((ax + bx) / 2, (ay + by) / 2)
    press(app, pygame.K_l)
    hover(app, screen.hex_to_screen(aim), 4)


def help_(app: App) -> None:
    state = advance(hunt(), at(MOVEMENT))
    play(app, state)
    press(app, pygame.K_F1)


def legend(app: App) -> None:
    state = advance(hunt(), at(MOVEMENT))
    play(app, state)
    press(app, pygame.K_k)


def pause(app: App) -> None:
    state = advance(hunt(), at(MOVEMENT))
    play(app, state)
    press(app, pygame.K_ESCAPE)


def settings_in_game(app: App) -> None:
    pause(app)
    click_button(app, app.top.manager, "Settings")  # type: ignore[union-attr]


def save_dialog(app: App) -> None:
    state = advance(hunt(), at(MOVEMENT))
    play(app, state)
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)


def load_dialog(app: App) -> None:
    state = advance(hunt(), at(MOVEMENT))
    folder = saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    save_game(state, folder / "a battle.json")
    play(app, state)
    press(app, pygame.K_l, mod=pygame.KMOD_CTRL)


def attack_dialog(app: App) -> None:
    """The attack dialog (F, then a click on the enemy): the odds of each weapon."""
    state = hunt()
    mover, enemy = state.units["n-hunter-1"], state.units["s-hunter-1"]
    assert enemy.hex is not None
    enemy.hidden = False
    mover.hex = Hex(enemy.hex.q, enemy.hex.r - 3)
    advance(state, at("attack"))
    screen = play(app, state)
    screen.ctx.selected = mover.id
    look_at(app, screen, enemy.hex)
    press(app, pygame.K_f)
    click(app, screen.hex_to_screen(enemy.hex))


def exits(app: App) -> None:
    """A mobile map: the exits of north's Lancer Hound off the play area."""
    _to_exit(app)


def _to_exit(app: App) -> tuple[GameScreen, Hex]:
    from game.ui.intel_layer import picker_of

    state = advance(hunt(), at(MOVEMENT))
    screen = play(app, state)
    screen.ctx.selected = "n-hunter-1"
    arts = screen.ctx.artillery
    found = arts.mobile.exits(screen.ctx)
    ours = [x for x, r in found.items() if picker_of(screen.ctx.view, r.exit_to) == "you pick it"]
    look_at(app, screen, ours[0], 3)
    return screen, ours[0]


def sheet_picker(app: App) -> None:
    """The Lancer Hound drives off the play area and north picks the new sheet."""
    screen, exit_hex = _to_exit(app)
    screen.ctx.artillery.mobile.take_exit(screen.ctx, exit_hex)
    app.run_frames(3)


def counter_battery_plot(app: App) -> None:
    """Counter-battery fire (ART-37): south's guns announced, north aims beyond the map."""
    from game.artillery.detection import announced_side
    from game.state.model import Announcement
    from game.state.setup import lattice_hex

    state = advance(hunt(), at("targeting"))
    gun = state.units["s-long-tom"].battery.offboard  # type: ignore[union-attr]
    aimed = state.area.hex_at((0, 1), "0808")
    side = announced_side(state.area, aimed, gun.position)
    state.intel["north"].announcements.append(Announcement(1, aimed, side))
    screen = play(app, state)
    aim = lattice_hex(gun.position, "0909")
    near = state.area.hex_at((0, 1), "0809")
    screen.set_zoom(1)
    screen.camera.centre_on(Hex((aim.q + near.q) // 2, (aim.r + near.r) // 2))
    press(app, pygame.K_p)
    hover(app, screen.hex_to_screen(aim), 4)


def air_attack(app: App) -> None:
    """An aircraft (ART-36) flown up, then aiming its Arrow IV in plot mode."""
    state = new_game(MAPS_FOLDER / "air_strike.toml", 4)
    air = "n-sparrowhawk"
    advance(state, lambda s: s.phase == MOVEMENT)
    while True:  # everyone else holds until the aircraft is north's to move
        side = acting_side(state)
        holds = [c for c in legal_commands(state, side) if isinstance(c, Hold) and c.unit != air]
        if side == "north" and not holds:
            break
        apply(state, holds[0])
    screen = play(app, state)
    look_at(app, screen, state.units[air].hex, 3)
    screen.ctx.selected = air
    post(pygame.KEYDOWN, key=pygame.K_RIGHTBRACKET, mod=0, unicode="]", scancode=0)
    app.run_frames(2)
    click(app, screen.hex_to_screen(state.area.hex_at((0, 0), "0809")))
    advance(state, at("targeting"))
    screen.ctx.refresh()
    screen.camera.centre_on(state.area.hex_at((0, 0), "0811"))
    press(app, pygame.K_p)
    screen.ctx.plot_battery = air
    hover(app, screen.hex_to_screen(state.area.hex_at((0, 0), "0613")), 4)


def counters_figures(app: App) -> None:
    """Burning Bridge's regiments at the zoom that names them: foot, missile troops,
    cavalry and a monster, each with its symbol."""
    from game.ui.camera import ZOOM_SIZES
    from game.ui.units_layer import NAME_SIZE

    state = new_game(MAPS_FOLDER / "burning_bridge.toml", 1)
    advance(state, lambda s: s.phase != "setup")
    screen = play(app, state, Seats(SOLO, "west"))
    screen.set_zoom(ZOOM_SIZES.index(NAME_SIZE))
    screen.camera.centre_on(state.units["w-knights"].hex)
    app.run_frames(2)


def handover(app: App) -> None:
    """Hot-seat: the hand-over before south's set-up."""
    state = hunt(5)
    apply(state, EndPhase("north"))
    play(app, state, Seats(HOTSEAT))
    app.run_frames(60)


def hotseat_table(app: App) -> None:
    """Hot-seat at the table: both players look, the banner says whose move it is."""
    state = advance(hunt(5), at(MOVEMENT))
    screen = play(app, state, Seats(HOTSEAT))
    press(app, pygame.K_HOME)
    screen.ctx.toasts.clear()


def wait_for(app: App, done: Callable[[], bool], limit: int = 1500) -> None:
    for _ in range(limit):
        if done():
            return
        app.run_frames(1)
    raise RuntimeError("the window did not reach the scene's moment")


def tutorial(app: App) -> None:
    """The tutorial's third lesson, the reach tints: the deployment accepted and the
    tank moved, the scout selected, the mouse on a hex of the running tint."""
    from game.ui.tutorial import open_tutorial

    screen = open_tutorial(app, fresh=True)
    state = screen.session.state
    app.run_frames(2)

    def north_moves() -> bool:
        return (
            acting_side(state) == "north"
            and state.phase == MOVEMENT
            and state.pending_sheet is None
            and not screen.layers_busy()
        )

    click_button(app, screen.ui_manager, "Accept deployment")
    wait_for(app, north_moves)
    tank = state.units["n-tank"]
    click(app, look_at(app, screen, tank.hex, 3))
    goal = screen.hex_to_screen(state.area.hex_at((0, 0), "0911"))
    click(app, goal)
    click(app, goal)
    wait_for(app, north_moves)
    scout = state.units["n-scout"]
    click(app, look_at(app, screen, scout.hex, 3))
    reach = screen.units.reach(screen.ctx)
    walk = reach.mover.walk_mp
    home = state.area.position_of(scout.hex)
    _, run_to = min(
        (c, h) for h, c in reach.costs().items() if c > walk and state.area.position_of(h) == home
    )
    hover(app, screen.hex_to_screen(run_to), 4)


def replay(app: App) -> None:
    """The umpire's replay of a short game, a shell landing."""
    state = hunt()
    target = state.units["s-hunter-1"].hex
    advance(state, at("targeting"))
    apply(state, PlotFire("north", "n-long-tom", 1, target, "standard"))
    advance(state, at(MOVEMENT, turn=3))
    path = data_home() / "replay.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    save_game(state, path)
    screen = app.open_replay(path)
    app.run_frames(2)
    timeline = screen.timeline
    landing = next(
        k
        for k in range(1, timeline.last + 1)
        if any(e.kind == "arrival" for e in timeline.step_events(timeline.state_at(k), k))
    )
    screen.go(landing - 1)
    screen.game.set_zoom(4)
    app.run_frames(2)
    press(app, pygame.K_PERIOD, frames=150)


def end_screen(app: App) -> None:
    """The end of a game whose log is kept: with its "Watch the replay" button."""
    play(app, finished_game(), logs=True)


SCENES: dict[str, Callable[[App], None]] = {
    "menu": menu,
    "menu_replays": menu_replays,
    "menu_settings": menu_settings,
    "setup_panel": setup_panel,
    "setup_deploy": setup_deploy,
    "setup_predesignate": setup_predesignate,
    "battle_near": movement,
    "battle_far": battle_far,
    "targeting": targeting,
    "attack": attack,
    "end_movement_confirm": end_movement_confirm,
    "plot_mode_forecast": plot_mode_forecast,
    "arrival_rings": arrival_rings,
    "intel_arrows": intel_arrows,
    "map_labels": map_labels,
    "los_tool": los_tool,
    "help": help_,
    "legend": legend,
    "pause": pause,
    "settings_in_game": settings_in_game,
    "save_dialog": save_dialog,
    "load_dialog": load_dialog,
    "attack_dialog": attack_dialog,
    "exits": exits,
    "sheet_picker": sheet_picker,
    "counter_battery_plot": counter_battery_plot,
    "air_attack": air_attack,
    "counters_figures": counters_figures,
    "handover": handover,
    "hotseat_table": hotseat_table,
    "tutorial": tutorial,
    "replay": replay,
    "end_screen": end_screen,
}


def show(app: App, name: str) -> None:
    """Play scene ``name`` on ``app``; the window shows it afterwards. Every scene
    starts with the panels as they open at first (a scene that opens one, as the
    legend's does, would otherwise leave it open for the next: the choice lasts)."""
    pygame.event.clear()
    app.settings.panels.clear()
    SCENES[name](app)
    game = app.game
    if game is not None:
        game.ctx.toasts.clear()
    app.run_frames(1)


def fresh_frame(app: App, record: object | None = None) -> None:
    """Draw the window once more, every cached picture of the map drawn anew (so a
    ``fonts`` recorder sees the labels composed into it), without an update."""
    game = app.game
    if game is not None:
        game.redraw_map()
    if record is not None:
        record.new_frame()  # type: ignore[attr-defined]
    app.draw()
