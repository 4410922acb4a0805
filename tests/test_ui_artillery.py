"""Headless tests of the artillery, intelligence, LOS, mobile-map and attack layers.

Two ways in: a small harness (a ``GameSession``, a ``Camera``, a ``MapLayer``, a
``UiContext`` and ``make_layers``) that hands real pygame events to the layers
and draws them on a surface; and the game screen itself (``GameScreen``), where
a shell is plotted by events in plot mode and its arrival is played.

``test_screenshots_of_the_game_window`` saves pictures of the game window (plot
mode with the forecast and scatter diagram, an arrival with its rings, the sheet
picker, the LOS tool, the intel arrows); with ``BARRAGE_SCREENSHOTS=docs/screenshots``
they are the documentation's, otherwise they go to the test's temporary folder.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.artillery.detection import announced_side
from game.artillery.flight import flight_time, sheet_distance
from game.artillery.forecast import forecast
from game.artillery.tohit import artillery_target_number
from game.board.los import line_of_sight
from game.board.sheet import available_sheets
from game.hexmath import DIRECTIONS, Hex, distance, hex_to_pixel, neighbor
from game.rules import battletech as bt
from game.rules.core import probability_at_least
from game.state import (
    DEFAULT_SCENARIO,
    EndPhase,
    GameState,
    Hold,
    Move,
    PlotFire,
    Predesignate,
    acting_side,
    apply,
    legal_commands,
    new_game,
    player_view,
)
from game.state.model import Announcement
from game.state.queries import attack_odds, spotters_at
from game.ui.artillery_anim import shell_show
from game.ui.artillery_layers import ArtilleryLayers, make_layers
from game.ui.artillery_plot import (
    fire_queue,
    own_batteries,
    plot_preview,
    plotting_now,
)
from game.ui.camera import Camera
from game.ui.context import ATTACK, LOS, PLOT, SELECT, MarksUnder, UiContext
from game.ui.dialogs import (
    AmmunitionChoice,
    AttackDialog,
    DialogLayer,
    SheetPicker,
    ammunition_options,
)
from game.ui.intel_layer import SIDE_ANGLES, bearings, picker_of, their_knowledge
from game.ui.map_layer import MapLayer
from game.ui.session import GameSession
from game.ui.tour import hidden_by_a_hill
from game.ui.widgets import place_box
from tests.engine_fixtures import duel, end_phase, end_setup, game, hold_everything, mech

ROOT = Path(__file__).resolve().parents[1]
SIZE = (1280, 800)


# --- harness ----------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.init()
    screen = pygame.display.set_mode(SIZE)
    yield screen
    pygame.quit()


class Harness:
    """The layers of ``make_layers`` on a surface, with a session showing one side."""

    def __init__(
        self,
        state: GameState,
        shown: str,
        controllers: dict[str, object] | None = None,
        size: tuple[int, int] = SIZE,
    ) -> None:
        self.state = state
        players = controllers or {s: "human" for s in state.sides}
        self.session = GameSession(state, dict(players), shown=shown)
        self.map_layer = MapLayer(state.area)
        self.camera = Camera(size)
        self.camera.fit(self.map_layer.world_bounds())
        self.ctx = UiContext(self.session, self.camera, self.map_layer, self.session.view(), size)
        self.layers = make_layers(self.ctx)
        self.arts: ArtilleryLayers = self.ctx.artillery
        self.surface = pygame.Surface(size)

    def show(self, side: str) -> None:
        self.session.shown = side
        self.ctx.refresh()

    def event(self, event: pygame.event.Event) -> bool:
        return any(layer.handle_event(event, self.ctx) for layer in reversed(self.layers))

    def key(self, key: int, mod: int = 0) -> bool:
        return self.event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))

    def pos(self, h: Hex) -> tuple[int, int]:
        x, y = self.camera.hex_to_screen(h)
        return round(x), round(y)

    def hover(self, h: Hex) -> None:
        self.event(
            pygame.event.Event(pygame.MOUSEMOTION, pos=self.pos(h), rel=(0, 0), buttons=(0, 0, 0))
        )

    def click_at(self, pos: tuple[int, int]) -> bool:
        self.event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        down = self.event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        up = self.event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        return down or up

    def click(self, h: Hex) -> bool:
        return self.click_at(self.pos(h))

    def frame(self, dt: float = 1 / 60) -> pygame.Surface:
        for layer in self.layers:
            layer.update(dt, self.ctx)
        self.surface.fill((38, 42, 46))
        self.map_layer.draw(self.surface, self.camera)
        self.map_layer.draw_sides(self.surface, self.camera)
        for layer in self.layers:
            if isinstance(layer, MarksUnder):
                layer.draw_under(self.surface, self.ctx)
        for layer in self.layers:
            layer.draw_world(self.surface, self.ctx)
        for layer in self.layers:
            layer.draw_hud(self.surface, self.ctx)
        return self.surface


def to_targeting(state: GameState, side: str) -> None:
    """Set-up and movement pass (every unit holds); ``side`` is to plot."""
    end_setup(state)
    hold_everything(state)
    if acting_side(state) != side:
        end_phase(state)
    assert state.phase == "targeting" and acting_side(state) == side


def next_turn(state: GameState) -> None:
    """Every side ends what is left of the turn (holds, targeting, attacks)."""
    turn = state.turn
    while state.turn == turn and state.result is None:
        if state.phase == "movement":
            hold_everything(state)
        else:
            end_phase(state)


def land(state: GameState) -> None:
    """A shell plotted this turn (one turn of flight) lands: the rest of this turn, then
    the next turn up to its artillery phase and on to the turn after."""
    next_turn(state)
    next_turn(state)


def announce(state: GameState, aimed: Hex) -> None:
    """South's intelligence as successful detection rolls leave it (ART-24): the side of
    ``aimed`` toward the north guns, and one from a second hex (as a later turn adds)."""
    known = state.intel["south"].announcements
    guns = state.units["n-long-tom"].battery.offboard.position  # type: ignore[union-attr]
    for h in (aimed, state.area.hex_at((1, 1), "1206")):
        if not any(a.aimed == h for a in known):
            known.append(Announcement(2, h, announced_side(state.area, h, guns)))


def long_tom_hunt(seed: int = 3) -> GameState:
    return new_game(DEFAULT_SCENARIO, seed)


def unit_hex_of(state: GameState, unit_id: str) -> Hex:
    h = state.units[unit_id].hex
    assert h is not None
    return h


def seen_by(state: GameState, unit_id: str, visible: bool) -> Hex:
    """A hex of the area the unit sees (or does not see), some way off."""
    unit = state.units[unit_id]
    assert unit.hex is not None
    for h in state.area.hexes():
        if distance(h, unit.hex) < 6:
            continue
        sight = line_of_sight(state.area, unit.hex, h, unit.height)
        if bool(sight) == visible and (visible or sight.blocking_hex is not None):
            return h
    raise AssertionError(f"{unit_id} has no hex with visible={visible}")


# --- plot preview from the view ----------------------------------------------------------------


def test_ART_6_ART_7_plot_preview_shows_flight_time_and_arrival_turn_before_firing():
    """ART-5 .. ART-7: range in sheets, flight time and arrival turn are known before the
    shot is plotted, and the engine's plot agrees with the preview."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    view = player_view(state, "north")
    target = state.area.hex_at((0, 1), "0912")
    preview = plot_preview(view, "n-long-tom", target)
    origin = state.units["n-long-tom"].battery.offboard.position  # type: ignore[union-attr]
    sheets = sheet_distance(origin, (0, 1))
    assert preview.sheets == sheets == 6
    assert preview.flight == flight_time("long_tom", sheets) == 1
    assert preview.arrival_turn == state.turn + 1
    apply(state, PlotFire("north", "n-long-tom", 1, target, "standard"))
    plot = player_view(state, "north").plots[0]
    assert plot.arrival_turn == preview.arrival_turn


def test_ART_11_ART_13_ART_16_preview_to_hit_uses_the_best_spotter_that_sees_the_hex():
    """ART-11/ART-13/ART-16: gunnery + 7 with the skill modifier of the best own unit
    that has the hex in line of sight now; no spotter, no modifier."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    view = player_view(state, "north")
    seen = seen_by(state, "n-spotter", True)
    preview = plot_preview(view, "n-long-tom", seen)
    spotters = preview.spotters
    assert [s.id for s in spotters] == [u.id for u in spotters_at(view, "north", seen)]
    assert "n-spotter" in [s.id for s in spotters]
    best = min(spotters, key=lambda s: (s.modifier + s.attacking, s.id))
    expected = artillery_target_number(4, spotter_gunnery=best.gunnery)
    assert preview.to_hit is not None and preview.to_hit.total == expected.total
    assert preview.to_hit.breakdown() == expected.breakdown()
    # The hit chance of the forecast is the exact chance of 2d6 reaching the number.
    assert preview.hit_probability == pytest.approx(
        float(probability_at_least(2, 6, expected.total))
    )
    unseen = [h for h in state.area.hexes() if not spotters_at(view, "north", h)]
    assert unseen, "every hex is seen"
    blind = plot_preview(view, "n-long-tom", unseen[0])
    assert blind.spotter is None and blind.to_hit.total == 11  # type: ignore[union-attr]
    assert any("cannot be adjusted" in line for line, _ in blind.lines(view.turn))


def test_ART_21_ART_19_preview_says_automatic_hit_on_pre_designated_and_auto_hit_hexes():
    """ART-21: a pre-designated hex hits automatically; ART-19: so does an auto-hit hex of
    the battery. The forecast then lands every shell in the hex."""
    state = long_tom_hunt()
    target = state.area.hex_at((0, 1), "0912")
    apply(state, Predesignate("north", target))
    to_targeting(state, "north")
    view = player_view(state, "north")
    preview = plot_preview(view, "n-long-tom", target)
    assert preview.automatic == "pre-designated hex"
    assert preview.to_hit is None and preview.hit_probability == 1.0
    assert preview.forecast is not None and preview.forecast.landing == {target: 1.0}
    other = neighbor(target, 1)
    state.units["n-long-tom"].battery.auto_hit.earn(other, state.turn)  # type: ignore[union-attr]
    view = player_view(state, "north")
    assert plot_preview(view, "n-long-tom", other).automatic == "auto-hit hex"
    assert any("Automatic hit" in line for line, _ in preview.lines(view.turn))


def test_ART_17_preview_counts_spotted_arrivals_of_that_battery_at_that_hex():
    """ART-17: each spotted arrival of the battery's shells at the hex gives -1 to its
    later shots there; the preview takes them from the view's own arrivals."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    seen = seen_by(state, "n-spotter", True)
    apply(state, PlotFire("north", "n-long-tom", 1, seen, "standard"))
    land(state)  # fired in turn 1, it lands in turn 2 under the spotter's eyes
    view = player_view(state, "north")
    assert [a for a in view.arrivals if a.spotted], "the arrival was not spotted"
    preview = plot_preview(view, "n-long-tom", seen)
    assert preview.adjustments == 1
    best = preview.spotter
    assert best is not None
    expected = artillery_target_number(4, spotter_gunnery=best.gunnery, adjustments=1)
    assert preview.to_hit.total == expected.total  # type: ignore[union-attr]
    assert plot_preview(view, "n-long-tom", neighbor(seen, 4)).adjustments == 0


def test_ART_3_ART_37_a_hex_off_the_play_area_is_counter_battery_fire():
    """ART-37: a hex beyond the map is previewed as counter-battery fire, with no map
    forecast; ART-3: beyond the gun's reach the card says why and nothing can fire."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    view = player_view(state, "north")
    outside = Hex(-40, -40)
    preview = plot_preview(view, "n-long-tom", outside)
    assert preview.counter_battery and preview.refusal is None and preview.forecast is None
    too_far = plot_preview(view, "n-long-tom", Hex(-4000, -4000))
    assert too_far.refusal is not None and "reaches 30 sheets" in too_far.refusal
    assert not too_far.can_fire
    with pytest.raises(ValueError, match="not an artillery unit of north"):
        plot_preview(view, "s-long-tom", outside)


def test_ART_12_ART_25_preview_forecast_is_the_exact_forecast_over_the_public_area():
    """ART-12/ART-25: the overlay is ``forecast`` on the view's area for the previewed
    number: landing probabilities (with the shells lost off the map) sum to one."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    view = player_view(state, "north")
    target = state.area.hex_at((0, 0), "0101")  # a corner: many shells fall off the map
    preview = plot_preview(view, "n-long-tom", target)
    assert preview.to_hit is not None
    direct = forecast(state.area, target, preview.to_hit.total, "long_tom")
    assert preview.forecast is not None
    assert preview.forecast.landing == direct.landing
    assert preview.forecast.lost == pytest.approx(direct.lost) and direct.lost > 0.3
    assert sum(preview.forecast.landing.values()) + preview.forecast.lost == pytest.approx(1.0)


def test_ART_9_fire_queue_lists_own_shells_by_arrival_turn_and_never_the_enemys():
    """ART-9: the fire queue holds the side's own shells, grouped by arrival turn; the
    enemy's plots are not in its view, so no incoming marker can show them."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    apply(state, PlotFire("north", "n-long-tom", 1, state.area.hex_at((0, 1), "0912"), "standard"))
    end_phase(state)
    apply(state, PlotFire("south", "s-long-tom", 1, state.area.hex_at((1, 0), "0804"), "standard"))
    north, south = player_view(state, "north"), player_view(state, "south")
    queue = fire_queue(north)
    assert [turn for turn, _ in queue] == [state.turn + 1]
    assert [p.battery for _, plots in queue for p in plots] == ["n-long-tom"]
    assert all(p.side == "south" for _, plots in fire_queue(south) for p in plots)
    harness = Harness(state, "north")
    harness.frame()
    assert "fire_queue" in harness.ctx.panels
    assert "incoming_banner" in harness.ctx.panels


# --- plot mode by events --------------------------------------------------------------------


def test_ART_10_plot_mode_by_events_fires_with_the_chosen_ammunition(tmp_path):
    """P enters plot mode, the hovered hex gets the forecast and scatter diagram, a click
    opens the ammunition choice (ART-10) and Enter sends the PlotFire."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    h = Harness(state, "north")
    target = state.area.hex_at((0, 1), "0910")
    h.camera.set_zoom(4)
    h.camera.centre_on(target)
    assert h.key(pygame.K_p)
    assert h.ctx.mode == PLOT and h.ctx.plot_battery == "n-long-tom"
    h.hover(target)
    assert h.ctx.hovered == target
    h.frame()
    pygame.image.save(h.surface, str(tmp_path / "plot_mode.png"))
    assert {"batteries"} <= set(h.ctx.panels)
    before = h.arts.plot.preview_computations
    for _ in range(30):
        h.hover(target)
        h.frame()
    assert h.arts.plot.preview_computations == before, "the preview is cached per hex"
    assert h.click(target)
    dialog = h.arts.dialogs.top
    assert isinstance(dialog, AmmunitionChoice)
    assert [o.ammo for o in dialog.options] == ["standard"]
    h.frame()
    assert h.key(pygame.K_RETURN)
    plots = h.ctx.view.plots
    assert [(p.battery, p.target, p.ammunition) for p in plots] == [
        ("n-long-tom", target, "standard")
    ]
    assert h.arts.dialogs.top is None
    # Every piece has a target now: a second click is refused with the reason.
    h.click(target)
    assert h.arts.dialogs.top is None
    assert "already has a target" in h.ctx.toasts[-1].text
    h.key(pygame.K_ESCAPE)
    assert h.ctx.mode == SELECT
    h.frame()
    assert "incoming_banner" in h.ctx.panels


def test_plot_mode_outside_the_targeting_phase_previews_but_does_not_fire():
    """The forecast is there in any phase (flight time before firing); firing waits for the
    side's targeting phase."""
    state = long_tom_hunt()
    end_setup(state)
    h = Harness(state, acting_side(state) or "north")
    h.show("north")
    h.key(pygame.K_p)
    target = state.area.hex_at((0, 1), "0910")
    h.hover(target)
    h.frame()
    assert h.arts.plot.preview(h.ctx) is not None
    h.click(target)
    assert h.arts.dialogs.top is None
    assert "targeting phase" in h.ctx.toasts[-1].text
    assert h.ctx.view.plots == []


def test_ammunition_choice_keys_and_buttons():
    """ART-10: number keys choose, an empty type cannot be chosen, Esc cancels."""
    fired: list[str] = []
    options = ammunition_options("arrow_iv_is", {"standard": None, "homing": 0})
    assert [o.available for o in options] == [True, False]
    dialog = AmmunitionChoice(["Arrow IV -> 0101"], options, fired.append, "homing")
    host = DialogLayer()
    host.open(dialog)
    ctx = Harness(long_tom_hunt(), "north").ctx
    assert dialog.selected == "standard"
    host.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, mod=0), ctx)
    assert dialog.selected == "standard"
    host.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0), ctx)
    assert host.top is None and fired == []
    with pytest.raises(ValueError, match="at least one ammunition"):
        AmmunitionChoice([], [], fired.append)


# --- arrivals ---------------------------------------------------------------------------------


def test_ART_12_ART_25_each_arrival_is_animated_with_rings_and_damage():
    """ART-11/ART-12/ART-25: a shell at a pre-designated hex under an enemy mech lands:
    the animation plays that plot, its rings carry the weapon's values and the unit hit
    shows its damage; the engine's state holds the damage."""
    state = long_tom_hunt()
    target = unit_hex_of(state, "s-hunter-1")
    apply(state, Predesignate("north", target))
    to_targeting(state, "north")
    h = Harness(state, "north")
    h.frame()
    apply(state, PlotFire("north", "n-long-tom", 1, target, "standard"))
    plot_id = player_view(state, "north").plots[0].id
    land(state)
    h.ctx.refresh()
    h.camera.set_zoom(4)
    anim = h.arts.animation
    h.frame()
    assert anim.busy
    show = anim.playing.show  # type: ignore[union-attr]
    assert show.plot_id == plot_id and show.landing == target and show.hit
    assert show.rings == (25, 15, 5)
    hit = {d["unit"]: d["damage"] for d in show.damage}
    assert hit.get("s-hunter-1") == 25
    for _ in range(int(3.4 * 60)):
        h.frame()
    assert "arrival" in h.ctx.cards
    for _ in range(int(2.0 * 60)):
        h.frame()
    assert anim.played_plots == [plot_id] and not anim.busy
    assert (
        state.units["s-hunter-1"].damage != new_game(DEFAULT_SCENARIO, 3).units["s-hunter-1"].damage
    )


def test_ART_12_scattered_shell_show_names_roll_margin_and_direction():
    """ART-12: a missed shell's show carries the roll, the margin and the d6 direction,
    and its path runs straight from the aimed hex to the landing hex."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    target = state.area.hex_at((0, 1), "0812")
    apply(state, PlotFire("north", "n-long-tom", 1, target, "standard"))
    land(state)
    events = [e for e in player_view(state, "north").log if e.kind == "arrival"]
    assert len(events) == 1
    show = shell_show(events[0])
    if show.hit:
        assert show.path == () and "HIT" in show.verdict()
    else:
        assert show.direction in DIRECTIONS
        assert len(show.path) == show.margin and show.path[-1] == show.landing
        assert distance(show.aimed, show.landing) == show.margin
        assert f"miss by {show.margin}" in show.verdict()
    assert show.rolls and "to hit" in show.rolls[0].purpose
    # The side that did not fire sees the same landing (the arrival is public).
    south = [e for e in player_view(state, "south").log if e.kind == "arrival"]
    assert shell_show(south[0]).landing == show.landing


def test_ART_9_both_sides_see_the_landing_but_only_the_firing_side_saw_the_plot():
    """ART-9: before arrival only north's view holds the shell (its marker, its tooltip);
    once it lands both sides' animations play the same landing."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    target = state.area.hex_at((0, 1), "0812")
    north, south = Harness(state, "north"), Harness(state, "south")
    north.frame()
    south.frame()
    apply(state, PlotFire("north", "n-long-tom", 1, target, "standard"))
    north.ctx.refresh()
    south.ctx.refresh()
    assert north.arts.plot.tooltip_lines(target, north.ctx)
    assert south.arts.plot.tooltip_lines(target, south.ctx) == []
    south.frame()
    assert "incoming_banner" not in south.ctx.panels
    land(state)
    for h in (north, south):
        h.ctx.refresh()
        h.frame()
        assert h.arts.animation.playing is not None
    a = north.arts.animation.playing.show  # type: ignore[union-attr]
    b = south.arts.animation.playing.show  # type: ignore[union-attr]
    assert (a.aimed, a.landing, a.roll) == (b.aimed, b.landing, b.roll)
    assert a.plot_id == b.plot_id == 1 and b.side == "north"


def test_animation_skips_with_keys_and_a_side_first_seen_does_not_replay_history():
    """Space ends the shell on show, Esc the rest; a loaded game (a side seen for the first
    time) starts with nothing to play."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    target = state.area.hex_at((0, 1), "0812")
    h = Harness(state, "north")
    h.frame()
    apply(state, PlotFire("north", "n-long-tom", 1, target, "standard"))
    land(state)
    h.ctx.refresh()
    h.frame()
    assert h.arts.animation.busy
    assert h.key(pygame.K_SPACE)
    assert not h.arts.animation.busy and h.arts.animation.played_plots == [1]
    assert not h.key(pygame.K_SPACE)  # nothing playing: the key is not taken
    fresh = Harness(state, "north")
    fresh.frame()
    assert not fresh.arts.animation.busy and fresh.arts.animation.played_plots == []
    with pytest.raises(ValueError, match="arrival event"):
        shell_show(player_view(state, "north").log[0])


# --- line of sight ------------------------------------------------------------------------------


def test_MAP_5_los_tool_draws_the_engine_line_with_the_blocking_hex():
    """MAP-5: with a unit selected, L shows the line to the hovered hex: the tool's answer
    is ``line_of_sight`` itself, blocked lines name their hex and reason; cached."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    h = Harness(state, "north")
    assert h.key(pygame.K_l)  # no unit selected: a hint, no mode
    assert h.ctx.mode == SELECT and "Select one of your units" in h.ctx.toasts[-1].text
    h.ctx.selected = "n-spotter"
    assert h.key(pygame.K_l)
    assert h.ctx.mode == LOS
    assert not h.key(pygame.K_l, pygame.KMOD_CTRL)  # Ctrl+L is the game screen's (load)
    blocked = seen_by(state, "n-spotter", False)
    h.camera.set_zoom(3)
    h.camera.centre_on(blocked)
    h.hover(blocked)
    sight = h.arts.los.sight(h.ctx)
    spotter = state.units["n-spotter"]
    assert sight == line_of_sight(state.area, spotter.hex, blocked, spotter.height)
    assert not sight and sight.blocking_hex is not None and sight.reason
    h.frame()
    assert "los" in h.ctx.cards
    count = h.arts.los.computations
    for _ in range(10):
        h.frame()
    assert h.arts.los.computations == count
    visible = seen_by(state, "n-spotter", True)
    assert h.arts.los.sight(h.ctx, visible)
    h.key(pygame.K_ESCAPE)
    assert h.ctx.mode == SELECT


# --- intelligence -------------------------------------------------------------------------------


def test_ART_24_announced_directions_are_drawn_as_sectors_from_the_aimed_hex():
    """ART-24: each announcement (turn, aimed hex, side) becomes a bearing on that hex's
    side with its turn, in the intel panel and on the minimap; the firing side reads
    what the enemy learned of its guns."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    aimed = state.area.hex_at((0, 1), "0812")
    apply(state, PlotFire("north", "n-long-tom", 1, aimed, "standard"))
    land(state)
    announce(state, aimed)
    h = Harness(state, "south")
    h.camera.set_zoom(2)
    h.camera.centre_on(aimed)
    found = bearings(h.ctx.view)
    guns = state.units["n-long-tom"].battery.offboard.position  # type: ignore[union-attr]
    second = state.area.hex_at((1, 1), "1206")
    assert [(b.aimed, b.side) for b in found] == [
        (aimed, announced_side(state.area, aimed, guns)),
        (second, announced_side(state.area, second, guns)),
    ]
    assert SIDE_ANGLES[1] == pytest.approx(-1.5707963, abs=1e-6)  # north is up the screen
    assert h.key(pygame.K_i)
    assert h.key(pygame.K_m)  # the minimap opens from its tab
    h.frame()
    assert {"intel", "minimap"} <= set(h.ctx.panels)
    assert h.arts.intel.tooltip_lines(aimed, h.ctx)
    north = player_view(state, "north")
    if any("side" in e.data for e in north.log if e.kind == "detection"):
        assert their_knowledge(north)
    # A click on the minimap moves the camera there.
    before = (h.camera.cx, h.camera.cy)
    mini = h.arts.intel.minimap.rect
    assert h.click_at((mini.x + 5, mini.y + 5))
    assert (h.camera.cx, h.camera.cy) != before


def test_ART_1_minimap_shows_own_off_board_batteries_only():
    """ART-1/ART-4: the minimap's bounds take the side's own off-board batteries; the
    enemy's are not in the view, so they cannot be drawn."""
    state = long_tom_hunt()
    end_setup(state)
    h = Harness(state, "north")
    h.frame()
    bounds = h.arts.intel.minimap_bounds(h.ctx.view)
    area_top = h.map_layer.world_bounds()[1]
    assert bounds[1] < area_top - 100  # five sheets north of the map
    assert [u.id for u in own_batteries(h.ctx.view)] == ["n-long-tom"]
    assert "s-long-tom" not in h.ctx.view.units


# --- mobile maps ----------------------------------------------------------------------------------


def mobile_duel() -> GameState:
    data = duel(
        mobile_maps=True,
        sheet_table="similar",
        extra_units=[mech("n-scout", "north", (0, 0), "1405", 3, walk=6)],
    )
    state = game(data, seed=2)
    end_setup(state)
    return state


def test_MAP_6_MAP_7_MAP_9_exits_and_the_sheet_picker():
    """MAP-6: the selected unit's exits are drawn beyond the edge with the side that picks
    (MAP-7); moving out opens the picker for that side with the sheets of the similar
    table (MAP-9); the chosen sheet joins the map and the minimap."""
    state = mobile_duel()
    while acting_side(state) != "north":
        side = acting_side(state)
        apply(state, next(c for c in legal_commands(state, side) if isinstance(c, Hold)))
    h = Harness(state, "north")
    h.ctx.selected = "n-scout"
    exits = h.arts.mobile.exits(h.ctx)
    assert exits and all(not state.area.contains(x) for x in exits)
    east = [x for x, r in exits.items() if r.exit_to == (1, 0)]
    assert east, f"no exit east: {[r.exit_to for r in exits.values()]}"
    assert picker_of(h.ctx.view, (1, 0)) == "you pick it"
    h.camera.set_zoom(3)
    h.camera.centre_on(east[0])
    h.frame()
    assert h.arts.mobile.take_exit(h.ctx, east[0])
    pending = h.ctx.view.pending_sheet
    assert pending is not None and pending.picker == "north"
    h.frame()
    picker = h.arts.dialogs.top
    assert isinstance(picker, SheetPicker)
    flat = sorted(k for k, s in available_sheets().items() if s.category == "flat")
    assert [s.id for s in picker.sheets] == flat == list(pending.allowed or ())
    h.frame()
    choice = picker.cells[-1].center
    assert h.click_at(choice)
    assert picker.selected == len(flat) - 1
    assert h.key(pygame.K_RETURN)
    assert h.ctx.view.pending_sheet is None
    assert state.area.sheet_at((1, 0)).id == flat[-1]
    assert h.arts.mobile.picked == [flat[-1]]
    h.frame()
    assert (1, 0) in h.arts.mobile.flash and (1, 0) in h.arts.intel.flash


def test_MAP_7_the_other_side_waits_and_sees_no_picker():
    """MAP-7: only the picker gets the dialog; the sheets allowed are not in the other
    side's view."""
    state = mobile_duel()
    while acting_side(state) != "north":
        side = acting_side(state)
        apply(state, next(c for c in legal_commands(state, side) if isinstance(c, Hold)))
    exits = [
        c
        for c in legal_commands(state, "north")
        if isinstance(c, Move) and c.unit == "n-scout" and not state.area.contains(c.to)
    ]
    apply(state, exits[0])
    h = Harness(state, "south")
    h.frame()
    assert h.arts.dialogs.top is None
    assert h.ctx.view.pending_sheet is not None
    assert h.ctx.view.pending_sheet.allowed is None


def test_watching_the_ai_the_screen_offers_no_command_for_an_ai_side():
    """Watching AI against AI, the view on screen is an AI's: no sheet picker opens for
    it, plot mode refuses to fire for it and the attack dialog's Fire stays disabled
    (the AI gives its own commands)."""
    from game.ui.game_screen import StandingController

    ais = {"north": StandingController(), "south": StandingController()}
    state = mobile_duel()
    while acting_side(state) != "north":
        side = acting_side(state)
        apply(state, next(c for c in legal_commands(state, side) if isinstance(c, Hold)))
    out = next(
        c
        for c in legal_commands(state, "north")
        if isinstance(c, Move) and c.unit == "n-scout" and not state.area.contains(c.to)
    )
    apply(state, out)
    h = Harness(state, "north", ais)
    h.session.watch = "north"
    h.frame()
    assert h.ctx.view.pending_sheet is not None
    assert h.ctx.view.pending_sheet.picker == "north"
    assert h.arts.dialogs.top is None, "no sheet picker for the AI's sheet"
    assert not h.ctx.may_act()

    state = attack_duel()
    h = Harness(state, "north", ais)
    h.session.watch = "north"
    h.ctx.refresh()
    h.ctx.selected = "n-close"
    assert h.key(pygame.K_f)
    h.frame()
    assert h.click(unit_hex_of(state, "s-mech"))
    dialog = h.arts.dialogs.top
    assert isinstance(dialog, AttackDialog) and dialog.options
    assert not any(b.enabled for b in dialog.buttons)

    state = long_tom_hunt()
    to_targeting(state, "north")
    h = Harness(state, "north", ais)
    h.session.watch = "north"
    h.ctx.refresh()
    assert plotting_now(h.ctx) == "north is played by the AI"
    assert Harness(state, "north").ctx.may_act()


# --- attacks ------------------------------------------------------------------------------------


def attack_duel() -> GameState:
    data = duel(extra_units=[mech("n-close", "north", (0, 1), "0810", 4)])
    state = game(data, seed=4)
    end_setup(state)
    hold_everything(state)
    while state.phase != "attack":
        end_phase(state)
    while acting_side(state) != "north":
        end_phase(state)
    return state


def test_ART_32a_attack_dialog_odds_are_the_resolvers_and_the_result_is_shown_roll_by_roll():
    """ART-32a: the dialog's to-hit number and chance are the engine's for the same shot;
    Fire sends the Attack and the dialog then lists the log entry with every roll."""
    from game.state.combat.battletech import target_number

    state = attack_duel()
    h = Harness(state, "north")
    h.ctx.selected = "n-close"
    assert h.key(pygame.K_f)
    assert h.ctx.mode == ATTACK
    h.frame()
    target = unit_hex_of(state, "s-mech")
    assert h.click(target)
    dialog = h.arts.dialogs.top
    assert isinstance(dialog, AttackDialog)
    laser = next(o for o in dialog.options if o.weapon == "medium_laser")
    engine_tn = target_number(state, state.units["n-close"], state.units["s-mech"], "medium_laser")
    assert laser.refusal is None
    assert laser.chance == pytest.approx(bt.hit_probability(engine_tn))
    assert engine_tn.breakdown() in laser.lines[0]
    h.frame()
    button = dialog.buttons[dialog.options.index(laser)]
    assert button.enabled
    assert h.click_at(button.rect.center)
    assert dialog.results and dialog.results[0].kind == "attack"
    assert dialog.results[0].rolls
    assert state.units["n-close"].weapons_fired == ["medium_laser"]
    h.frame()
    h.key(pygame.K_ESCAPE)
    assert h.arts.dialogs.top is None


def test_ART_35_other_systems_odds_run_on_the_view():
    """ART-35: a BATTLESYSTEM volley's odds come from the engine's plan run over the side's
    view; units of different systems cannot attack each other directly."""
    from tests.engine_fixtures import regiment, scenario_dict

    data = scenario_dict(
        {(0, 0): "farmland"},
        [
            {
                **regiment("n-reg", "north", (0, 0), "0805", 4),
                "profile": {
                    **regiment("x", "north", (0, 0), "0805")["profile"],
                    "missile_ranges": [3, 6, 9],
                },
            },
            regiment("s-reg", "south", (0, 0), "0809", 1),
            mech("s-mech", "south", (0, 0), "0812", 1),
        ],
    )
    state = game(data, seed=1)
    end_setup(state)
    view = player_view(state, "north")
    odds = {o.weapon: o for o in attack_odds(view, "n-reg", "s-reg")}
    assert set(odds) == {"missile", "melee"}
    assert odds["melee"].refusal is not None  # not in contact
    missile = odds["missile"]
    assert missile.refusal is not None or any("figures removed" in line for line in missile.lines)
    cross = attack_odds(view, "n-reg", "s-mech")
    assert cross[0].refusal and "its own kind" in cross[0].refusal
    with pytest.raises(ValueError, match="not an enemy unit"):
        attack_odds(view, "n-reg", "n-reg")


# --- layout and contract --------------------------------------------------------------------------


def test_make_layers_returns_the_layers_in_drawing_order_with_their_keys():
    """The dialog host is last (first to see events); every layer lists its keys."""
    h = Harness(long_tom_hunt(), "north")
    assert isinstance(h.layers[-1], DialogLayer)
    assert h.layers == h.arts.in_order()
    for layer in h.layers:
        listed = layer.keys()
        assert listed
        for key, what in listed:
            assert key and what
        for hook in ("handle_event", "update", "draw_world", "draw_hud", "reset"):
            assert callable(getattr(layer, hook))


def test_place_box_keeps_panels_clear_of_the_game_screens_panels():
    h = Harness(long_tom_hunt(), "north")
    log = pygame.Rect(10, 590, 470, 200)
    h.ctx.hud = {"log": log, "phase_bar": pygame.Rect(0, 0, 1280, 46)}
    box = place_box(h.ctx, (400, 150), "test")
    assert not box.colliderect(log) and box.top >= 46 and h.surface.get_rect().contains(box)


def test_hot_seat_reset_drops_the_side_that_left():
    """A hand-over (the game screen calls ``reset``) closes dialogs and stops the show."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    h = Harness(state, "north")
    h.key(pygame.K_p)
    h.click(state.area.hex_at((0, 1), "0910"))
    assert h.arts.dialogs.top is not None
    for layer in h.layers:
        layer.reset(h.ctx)
    assert h.arts.dialogs.top is None and not h.arts.animation.busy


# --- through the game screen ----------------------------------------------------------------------


def test_end_to_end_plot_by_events_then_the_arrival_is_played_in_the_game_screen(
    tmp_path, monkeypatch, shots
):
    """The game window: plot mode by key, mouse and Enter in the targeting phase; the turn
    ends; the arrival of that plot id is played by the animation layer and the engine
    records its landing."""
    from game.ui.app import App
    from game.ui.game_screen import GameScreen, StandingController
    from game.ui.seats import Seats

    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    app = App(SIZE, ai_delay=0.0, autosave=False)
    pygame.event.clear()
    try:
        state = new_game(DEFAULT_SCENARIO, 3)
        session = GameSession(
            state, {"north": "human", "south": StandingController()}, shown="north"
        )
        screen = app.replace_all(GameScreen(app, session, Seats(mode="solo", human="north")))
        ctx = screen.ctx
        arts: ArtilleryLayers = ctx.artillery
        assert arts.plot in screen.layers and screen.layers[-1] is arts.dialogs

        def north_to_act() -> bool:
            return session.acting() == "north" and ctx.view.side == "north"

        def post(kind: int, **attrs) -> None:
            pygame.event.post(pygame.event.Event(kind, **attrs))

        def run_until(done, frames: int = 900) -> None:
            for _ in range(frames):
                if done():
                    return
                if north_to_act() and not arts.animation.busy:
                    view = ctx.view
                    if view.phase in ("setup", "targeting", "attack") and not (
                        view.phase == "targeting" and not view.plots and not arts.animation.played
                    ):
                        ctx.submit(EndPhase("north"))
                    elif view.phase == "movement":
                        left = [u for u in view.own_units() if u.hex and not u.moved]
                        ctx.submit(Hold("north", left[0].id))
                app.run_frames(1)
            assert done(), "the game did not get there"

        run_until(lambda: north_to_act() and ctx.view.phase == "targeting")
        target = ctx.view.area.hex_at((0, 1), "0812")
        screen.set_zoom(4)
        screen.camera.centre_on(target)
        app.run_frames(2)
        pos = screen.hex_to_screen(target)
        post(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p", scancode=0)
        post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        app.run_frames(2)
        assert ctx.mode == PLOT and ctx.hovered == target
        post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        app.run_frames(2)
        assert isinstance(arts.dialogs.top, AmmunitionChoice)
        post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
        app.run_frames(2)
        plots = ctx.view.plots
        assert len(plots) == 1 and plots[0].target == target
        plot_id = plots[0].id
        post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
        app.run_frames(2)
        assert ctx.mode == SELECT and app.game is screen  # Esc left plot mode, no pause
        run_until(lambda: plot_id in arts.animation.played_plots, 2400)
        landed = [a for a in state.queue.arrivals if a.plot_id == plot_id]
        assert len(landed) == 1
        assert arts.animation.played[-1].landing == landed[0].landing
    finally:
        app.shutdown()


def test_screenshots_of_the_game_window(tmp_path, monkeypatch, shots):
    """The layers in the finished window: plot mode with the forecast and the scatter
    diagram, an arrival with its rings, the LOS tool, the intel arrows, the sheet picker."""
    from game.ui.app import App
    from game.ui.game_screen import GameScreen, StandingController
    from game.ui.seats import Seats

    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    app = App(SIZE, ai_delay=0.0, autosave=False)
    pygame.event.clear()

    def window(state: GameState, side: str) -> GameScreen:
        other = state.other(side)
        session = GameSession(state, {side: "human", other: StandingController()}, shown=side)
        screen = app.replace_all(GameScreen(app, session, Seats(mode="solo", human=side)))
        app.run_frames(2)
        return screen

    def hover(screen: GameScreen, h: Hex) -> None:
        pos = screen.hex_to_screen(h)
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        )
        app.run_frames(2)

    def key(k: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
        app.run_frames(2)

    try:
        # Plot mode: a spotted hex south of the creek, the forecast and the diagram.
        state = long_tom_hunt()
        target = unit_hex_of(state, "s-hunter-1")
        apply(state, Predesignate("north", target))
        to_targeting(state, "north")
        screen = window(state, "north")
        arts: ArtilleryLayers = screen.ctx.artillery
        aim = state.area.hex_at((0, 1), "0807")
        screen.set_zoom(4)
        screen.camera.centre_on(aim)
        key(pygame.K_p)
        hover(screen, aim)
        assert screen.ctx.mode == PLOT and arts.plot.preview(screen.ctx) is not None
        app.screenshot(shots / "plot_mode_forecast.png")
        key(pygame.K_ESCAPE)

        # An arrival: the pre-designated hex under the Hunchback, rings and damage.
        screen.ctx.submit(PlotFire("north", "n-long-tom", 1, target, "standard"))
        plot_id = screen.ctx.view.plots[0].id
        for _ in range(3000):
            playing = arts.animation.playing
            if playing is not None and playing.show.plot_id == plot_id and playing.t > 3.3:
                break
            if screen.session.acting() == "north" and not arts.animation.busy:
                view = screen.ctx.view
                if view.phase == "movement":
                    left = [u for u in view.own_units() if u.hex and not u.moved]
                    screen.ctx.submit(Hold("north", left[0].id))
                else:
                    screen.ctx.submit(EndPhase("north"))
            app.run_frames(1)
        assert arts.animation.playing is not None
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 400), rel=(0, 0), buttons=(0, 0, 0))
        )
        app.run_frames(1)
        app.screenshot(shots / "arrival_rings.png")
        key(pygame.K_ESCAPE)

        # The LOS tool: the rifles' line over the hill to the south-west.
        platoon = state.units["n-platoon"]
        assert platoon.hex is not None
        aim = hidden_by_a_hill(state, platoon)
        screen.ctx.selected = "n-platoon"
        screen.set_zoom(4)
        (ax, ay), (bx, by) = hex_to_pixel(platoon.hex, 1.0), hex_to_pixel(aim, 1.0)
        screen.camera.centre_on_world((ax + bx) / 2, (ay + by) / 2)
        key(pygame.K_l)
        hover(screen, aim)
        assert screen.ctx.hovered == aim
        assert screen.ctx.mode == LOS
        sight = arts.los.sight(screen.ctx)
        assert sight is not None and not sight and sight.blocking_hex is not None
        app.screenshot(shots / "los_tool.png")
        key(pygame.K_ESCAPE)

        # Intel: south's view of where the north guns lie.
        announce(state, target)
        screen = window(state, "south")
        screen.set_zoom(3)
        screen.camera.centre_on(target)
        key(pygame.K_i)
        app.screenshot(shots / "intel_arrows.png")

        # Mobile maps: the Lancer Hound drives off the north-east sheet; north picks.
        mobile = long_tom_hunt()
        end_setup(mobile)
        while acting_side(mobile) != "north":
            side = acting_side(mobile)
            apply(mobile, next(c for c in legal_commands(mobile, side) if isinstance(c, Hold)))
        screen = window(mobile, "north")
        arts = screen.ctx.artillery
        screen.ctx.selected = "n-hunter-1"
        exits = arts.mobile.exits(screen.ctx)
        ours = [
            x for x, r in exits.items() if picker_of(screen.ctx.view, r.exit_to) == "you pick it"
        ]
        assert ours, "the Lancer Hound has no exit onto north's half"
        screen.set_zoom(3)
        screen.camera.centre_on(ours[0])
        app.run_frames(2)
        app.screenshot(shots / "exits.png")
        assert arts.mobile.take_exit(screen.ctx, ours[0])
        app.run_frames(3)
        assert isinstance(arts.dialogs.top, SheetPicker)
        app.screenshot(shots / "sheet_picker.png")
    finally:
        app.shutdown()
    for name in (
        "plot_mode_forecast",
        "arrival_rings",
        "los_tool",
        "intel_arrows",
        "exits",
        "sheet_picker",
    ):
        assert (shots / f"{name}.png").stat().st_size > 10_000
