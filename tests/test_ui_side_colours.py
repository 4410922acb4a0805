"""One colour per side everywhere: the minimap paints each side's units in the side's own
colour (the map's), whoever watches, and frames "yours" instead of recolouring them."""

from __future__ import annotations

import pygame
import pytest

from game.ui import theme
from tests.test_ui_artillery import SIZE, Harness, long_tom_hunt, to_targeting


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.init()
    yield pygame.display.set_mode(SIZE)
    pygame.quit()


def minimap_circles(h: Harness, monkeypatch) -> list[tuple]:
    """Every circle drawn in one frame (the minimap is painted afresh for a new view):
    (colour, centre, radius, width)."""
    drawn: list[tuple] = []
    real = pygame.draw.circle

    def circle(surface, colour, centre, radius, width=0, *args, **kwargs):
        if tuple(colour)[:3] != theme.INTEL:  # not the announced sectors' origins
            drawn.append((tuple(colour)[:3], tuple(centre), radius, width))
        return real(surface, colour, centre, radius, width, *args, **kwargs)

    monkeypatch.setattr(pygame.draw, "circle", circle)
    h.frame()
    monkeypatch.setattr(pygame.draw, "circle", real)
    return drawn


@pytest.mark.parametrize("watcher", ["north", "south"])
def test_each_side_has_its_own_colour_on_the_minimap_and_yours_are_framed(watcher, monkeypatch):
    state = long_tom_hunt()
    to_targeting(state, "north")
    h = Harness(state, watcher)
    h.ctx.refresh()
    assert h.key(pygame.K_m)  # the minimap opens from its tab
    view = h.ctx.view
    on_board = [u for u in view.units.values() if u.hex is not None and not u.destroyed]
    drawn = minimap_circles(h, monkeypatch)
    dots = [(c, p) for c, p, r, w in drawn if r == 3 and w == 0]
    frames = [p for c, p, r, w in drawn if r == 5 and w == 1 and c == theme.OWN_FRAME]
    colours = {c for c, _ in dots}
    own = theme.side_colour(watcher)
    assert own in colours
    assert colours <= {theme.side_colour(s) for s in state.sides}
    mine = [u for u in on_board if u.side == watcher]
    assert len(frames) == len(mine) > 0
    assert {p for c, p in dots if c == own} == set(frames), "a frame around each own dot"
    assert watcher == "north" or theme.side_colour("south") == (204, 64, 52)


@pytest.mark.parametrize("size", [8, 30], ids=["far disc", "near counter"])
def test_a_counter_keeps_its_side_colour_and_yours_gets_a_white_frame(size):
    from game.ui.units_layer import render_counter

    blue = theme.side_colour("north")
    theirs = render_counter(size, blue, "mech", 1, 1.0)
    mine = render_counter(size, blue, "mech", 1, 1.0, own=True)
    assert theirs.get_size() == mine.get_size()
    centre = theirs.get_rect().center
    assert theirs.get_at(centre)[:3] == mine.get_at(centre)[:3]

    def white(image: pygame.Surface) -> int:
        w, h = image.get_size()
        return sum(
            image.get_at((x, y))[:3] == theme.OWN_FRAME and image.get_at((x, y))[3] > 0
            for x in range(w)
            for y in range(h)
        )

    assert white(mine) > white(theirs) + size
