"""The map's label placer (game/ui/labels.py): properties of the placement on made-up
labels, and the real game window in crowded scenes (shells plotted on neighbouring
hexes, several announced directions, the home edge and the half-line under the top
bar) at 1024x700 and 1280x800: no two map labels overlap and none lies under a panel.
"""

from __future__ import annotations

import math
import random

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.artillery.plots import Plot
from game.hexmath import neighbor
from game.ui import labels, tour
from game.ui.labels import Label, LabelPlacer, Spot, along, around, frame_obstacles, place
from game.ui.tour import crowded

BOUNDS = pygame.Rect(0, 0, 400, 300)
TEXTS = ("LANDS TURN 3", "T2: guns south-west", "North home edge", "half-line", "7", "+")


@pytest.fixture(scope="module", autouse=True)
def fonts_ready():
    pygame.init()
    yield
    pygame.quit()


def _labels(draw) -> list[Label]:
    count = draw(st.integers(1, 24))
    out = []
    for _ in range(count):
        at = (draw(st.integers(0, 400)), draw(st.integers(0, 300)))
        gap = draw(st.integers(4, 30))
        first = draw(st.sampled_from(list(labels.COMPASS)))
        out.append(
            Label(
                draw(st.sampled_from(TEXTS)),
                (float(at[0]), float(at[1])),
                around(gap, first),
                draw(st.integers(0, 3)),
                fill=(90, 40, 10) if draw(st.booleans()) else None,
            )
        )
    return out


@st.composite
def scenes(draw) -> tuple[list[Label], list[pygame.Rect]]:
    obstacles = [
        pygame.Rect(
            draw(st.integers(-20, 380)),
            draw(st.integers(-20, 280)),
            draw(st.integers(10, 160)),
            draw(st.integers(10, 120)),
        )
        for _ in range(draw(st.integers(0, 3)))
    ]
    return _labels(draw), obstacles


@given(scenes())
def test_placed_labels_never_overlap_each_other_nor_an_obstacle_and_stay_in_bounds(scene):
    found, obstacles = scene
    placement = place(found, BOUNDS, obstacles)
    rects = [p.box for p in placement.shown()]
    for n, rect in enumerate(rects):
        assert BOUNDS.contains(rect)
        assert rect.collidelist(obstacles) < 0
        assert rect.collidelist(rects[n + 1 :]) < 0
    # Every label is placed or dropped, once.
    assert len(placement.placed) + len(placement.dropped) == len(set(found))


@given(scenes(), st.randoms())
def test_the_same_labels_in_any_order_are_placed_the_same_way(scene, rnd):
    """No flicker: the layers may post their labels in any order."""
    found, obstacles = scene
    shuffled = list(found)
    rnd.shuffle(shuffled)
    assert place(found, BOUNDS, obstacles) == place(shuffled, BOUNDS, obstacles)


@given(scenes(), st.integers(0, 3))
def test_a_label_never_gives_way_to_a_less_important_one(scene, cut):
    """Taking away every label below a priority changes nothing of the others."""
    found, obstacles = scene
    whole = place(found, BOUNDS, obstacles)
    kept = place([lb for lb in found if lb.priority >= cut], BOUNDS, obstacles)
    assert [p for p in whole.placed if p.label.priority >= cut] == kept.placed
    assert [lb for lb in whole.dropped if lb.priority >= cut] == kept.dropped


def test_spots_around_a_point_start_where_asked_and_lead_back_once_moved():
    spots = around(10, labels.facing(math.pi / 2))  # an arrow pointing down: below first
    assert [s.anchor for s in spots[:3]] == ["midtop", "topright", "topleft"]
    assert spots[0] == Spot(0.0, 10.0, "midtop", False)
    assert all(s.leader for s in spots[1:]) and len(spots) == 16
    assert labels.facing(0) == "right" and labels.facing(-math.pi / 2) == "above"
    assert labels.spread(5, 5) == [0.0, 5, -5, 10, -10]


def test_priorities_go_first_then_top_to_bottom():
    spots = (Spot(0, 0),)
    low = Label("half-line", (100.0, 100.0), spots, labels.HALF_LINE)
    high = Label("LANDS TURN 3", (100.0, 100.0), spots, labels.SHELL)
    placement = place([low, high], BOUNDS)
    assert [p.label for p in placement.placed] == [high]
    assert placement.dropped == [low]


def test_a_displaced_label_takes_its_next_spot_with_a_leader_line():
    first = Label("LANDS TURN 2", (200.0, 150.0), around(10, "above"), labels.SHELL)
    second = Label("LANDS TURN 3", (200.0, 150.0), around(10, "above"), labels.SHELL - 1)
    placement = place([first, second], BOUNDS)
    a, b = placement.placed
    assert a.label == first and not a.leader and a.box.midbottom == (200, 140)
    assert b.label == second and b.leader and not a.box.colliderect(b.box)


def test_no_leader_line_runs_under_a_panel():
    """The point named lies under a panel: only a spot without a leader may name it."""
    panel = pygame.Rect(150, 100, 100, 100)
    label = Label("LANDS TURN 2", (200.0, 150.0), around(60, "above"), labels.SHELL)
    placed = place([label], BOUNDS, [panel]).placed[0]
    assert not placed.leader and placed.box.midbottom == (200, 90)
    moved = Label("LANDS TURN 2", (200.0, 150.0), (Spot(0, -100), Spot(0, 60, leader=True)), 1)
    assert place([moved], BOUNDS, [panel, pygame.Rect(0, 0, 400, 60)]).placed == []


def test_soft_obstacles_are_avoided_while_another_spot_is_free():
    label = Label("DANGER CLOSE", (200.0, 150.0), around(12, "below"), labels.ALERT)
    counter = label.rect_at(label.spots[0])
    placed = place([label], BOUNDS, soft=[counter]).placed[0]
    assert not placed.box.colliderect(counter)
    # Nowhere else to go: the label stands over the soft obstacle rather than vanish.
    everywhere = pygame.Rect(BOUNDS)
    placed = place([label], BOUNDS, soft=[everywhere]).placed[0]
    assert placed.box == counter


def test_labels_with_no_room_fold_into_one_badge_per_neighbourhood():
    spots = (Spot(0, 0),)
    here = [Label(f"T{k}: guns west", (100.0, 100.0 + k), spots, 60) for k in range(4)]
    there = Label("T9: guns west", (330.0, 240.0), (Spot(0, -20),), 60)
    placement = place([*here, there], BOUNDS, [pygame.Rect(280, 200, 120, 30)])
    assert len(placement.placed) == 1
    assert sorted(p.label.text for p in placement.folds) == ["+1", "+3"]


def test_the_placer_places_once_for_the_same_frame_and_draws_every_label():
    surface = pygame.Surface(BOUNDS.size)
    placer = LabelPlacer()
    for frame in range(2):
        surface.fill((0, 0, 0))
        placer.begin(BOUNDS)
        placer.add(
            Label(
                "North home edge", (200.0, 30.0), along([(0, -14), (0, 24)]), 30, fill=(0, 0, 200)
            )
        )
        placer.hold()
        placement = placer.finish(surface, [pygame.Rect(0, 0, 400, 40)])
        if frame == 0:
            first = placement
    assert placement is first  # the same labels over the same panels: placed once
    (placed,) = placement.placed
    assert placed.box.top >= 40  # pushed below the bar
    assert surface.get_at(placed.box.center)[:3] != (0, 0, 0)


# --- the game window ------------------------------------------------------------------------


def assert_placed_apart(screen) -> list[str]:
    """The labels of the last frame: inside the map, clear of each other and of the
    panels and the top bar; their texts."""
    ctx = screen.ctx
    shown = screen.labels.last.shown()
    panels = frame_obstacles(ctx)
    rects = [p.box for p in shown]
    for n, (placed, rect) in enumerate(zip(shown, rects, strict=True)):
        assert ctx.map_rect.contains(rect), placed.label.text
        assert rect.collidelist(panels) < 0, (placed.label.text, rect, panels)
        clash = rect.collidelist(rects[n + 1 :])
        assert clash < 0, (placed.label.text, shown[n + 1 + clash].label.text)
    return [p.label.text for p in shown]


@pytest.fixture
def window(request, tmp_path, monkeypatch):
    """A headless game window of the size the test is parametrized with (1024x700 by
    default); its saves and settings in the test's own folder."""
    from game.ui.app import App

    monkeypatch.setenv("BARRAGE_HOME", str(tmp_path / "home"))
    app = App(getattr(request, "param", (1024, 700)), ai_delay=0.0, autosave=False)
    pygame.event.clear()
    yield app
    app.shutdown()


@pytest.mark.parametrize("window", [(1024, 700), (1280, 800)], indirect=True)
def test_crowded_map_labels_do_not_pile_up_nor_hide_under_panels(window, shots):
    """The tour's crowded scene (four shells on neighbouring hexes, four announced
    directions, the intel panel open), then the north home edge and the half-line
    brought right under the top bar."""
    app, size = window, window.size
    state, aimed = crowded()
    screen = tour.play(app, state)
    tour.look_at(app, screen, aimed, 3)
    tour.press(app, pygame.K_i)
    texts = assert_placed_apart(screen)
    app.screenshot(shots / f"labels_crowded_{size[0]}.png")
    assert sum(t.startswith("LANDS TURN") for t in texts) == 4
    folded = sum(int(t[1:]) for t in texts if t.startswith("+"))
    assert sum(t.startswith("T") and "guns" in t for t in texts) + folded >= 4
    # The home edge right under the top bar: its name still shows, clear of the bar.
    bar = screen.ctx.hud["phase_bar"]
    edge_y = screen.camera.hex_to_screen(state.area.hex_at((0, 0), "0801"))[1]
    screen.camera.pan(0, edge_y - bar.bottom - screen.camera.size)
    app.run_frames(3)
    texts = assert_placed_apart(screen)
    app.screenshot(shots / f"labels_top_edge_{size[0]}.png")
    assert "North home edge" in texts
    # The half-line under the top bar.
    line_y = screen.camera.hex_to_screen(state.area.hex_at((0, 1), "0801"))[1]
    screen.camera.pan(0, line_y - bar.bottom - screen.camera.size * 2)
    app.run_frames(3)
    texts = assert_placed_apart(screen)
    app.screenshot(shots / f"labels_half_line_{size[0]}.png")
    assert "half-line" in texts
    # The four shells are now off the top of the view: one arrow at the edge, under
    # the bar, with their arrival turns and count.
    assert "T2 T3 x4" in texts


def test_random_crowds_of_labels_in_the_window_keep_apart(window):
    """Many shells on a random cluster of hexes, panned about: every frame's labels
    stay apart and off the panels."""
    rnd = random.Random(7)
    state, aimed = crowded()
    hexes = [aimed]
    for _ in range(8):
        hexes.append(neighbor(rnd.choice(hexes), rnd.randint(1, 6)))
    for k, h in enumerate(hexes):
        state.queue.add(Plot(0, "north", "n-long-tom", 1, 1, h, "standard", 2 + k % 3))
    screen = tour.play(window, state)
    screen.set_zoom(3)
    for _ in range(6):
        screen.camera.centre_on(aimed)
        screen.camera.pan(rnd.randint(-300, 300), rnd.randint(-250, 250))
        window.run_frames(2)
        assert_placed_apart(screen)
