"""Headless tests of the phase bar in the game window: while shells land it names
the artillery phase and the shell on show, and the AI waits until they have been
seen (or skipped)."""

from __future__ import annotations

import pygame
import pytest

from game.state import DEFAULT_SCENARIO, EndPhase, GameState, Hold, PlotFire, new_game
from game.ui.session import GameSession
from tests.test_ui_artillery import to_targeting, unit_hex_of

SIZES = [(1024, 700), (1280, 800)]


def post_key(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def south_moves(state: GameState, after: int) -> list[str]:
    """South's units that moved or held after the ``after``-th event of the log."""
    return [
        e.data["unit"]
        for e in state.log[after:]
        if e.kind in ("move", "hold") and state.units[e.data["unit"]].side == "south"
    ]


@pytest.mark.parametrize("size", SIZES)
def test_during_arrivals_the_bar_names_the_shell_and_the_ai_waits(window, shots, size):
    """North's shell lands at the end of its turn: the bar reads "Turn 1 · Artillery ·
    shell 1 of 1" (not the next turn's movement), south's AI, first to move in the next
    turn, makes no move while the shell is on show, and moves once Esc skips the rest."""
    state = new_game(DEFAULT_SCENARIO, 3)
    target = unit_hex_of(state, "s-hunter-1")
    to_targeting(state, "north")
    app, screen = window(state, size)
    ctx = screen.ctx
    arts = ctx.artillery
    assert arts is not None
    ctx.submit(PlotFire("north", "n-long-tom", 1, target, "standard"))
    landed_at = None
    for _ in range(400):
        if arts.animation.busy:
            break
        if landed_at is None and any(e.kind == "arrival" for e in state.log):
            landed_at = len(state.log)
        if session_north_acts(screen):
            north_passes(screen)
        app.run_frames(1)
    assert arts.animation.busy, "no shell landed"
    arrivals = [i for i, e in enumerate(state.log) if e.kind == "arrival"]
    turn = state.log[arrivals[-1]].turn
    shells = sum(1 for i in arrivals if state.log[i].turn == turn)
    after = arrivals[-1] + 1
    for _ in range(30):
        app.run_frames(1)
        bar = screen.phase_bar
        assert bar.phase_text.startswith(f"Turn {turn}")
        assert f"Artillery  ·  shell 1 of {shells}" in bar.phase_text
        assert south_moves(state, after) == []
    # The log waits with the bar: nothing of the next turn (its initiative roll).
    held = [text for text, _ in screen.log_panel._lines]
    assert held and not any(text.startswith(f"T{turn + 1} ") for text in held)
    # The engine is in the next turn already, and south (which lost the initiative)
    # moves first in it: only the window holds its AI back.
    assert state.turn == turn + 1 and state.initiative["loser"] == "south"
    assert set(screen.phase_bar.buttons) >= {"next_shell", "skip_arrivals"}
    rect = screen.phase_bar.buttons["skip_arrivals"].rect
    assert screen.phase_bar.rect.contains(rect)
    app.screenshot(shots / f"phase_bar_arrivals_{size[0]}x{size[1]}.png")
    post_key(pygame.K_ESCAPE)
    app.run_frames(3)
    assert not arts.animation.busy and app.game is screen  # Esc skipped, no pause menu
    assert "Artillery" not in screen.phase_bar.phase_text
    shown = [text for text, _ in screen.log_panel._lines]
    assert any(text.startswith(f"T{turn + 1} ") for text in shown)
    for _ in range(60):
        if south_moves(state, after):
            break
        app.run_frames(1)
    assert south_moves(state, after)


def session_north_acts(screen) -> bool:
    session: GameSession = screen.session
    return session.acting() == "north" and screen.ctx.view.side == "north"


def north_passes(screen) -> None:
    """North holds its next unit in the movement phase, or ends any other phase."""
    ctx = screen.ctx
    if ctx.view.phase == "movement":
        left = [u for u in ctx.view.own_units() if u.hex and not u.moved]
        ctx.submit(Hold("north", left[0].id))
    else:
        ctx.submit(EndPhase("north"))


def to_phase(app, screen, phase: str) -> None:
    """North holds and ends phases until it is to act in ``phase``."""
    for _ in range(400):
        if session_north_acts(screen) and not screen.layers_busy():
            if screen.ctx.view.phase == phase:
                return
            north_passes(screen)
        app.run_frames(1)
    raise AssertionError(f"north never came to the {phase} phase")


def click(pos: tuple[int, int]) -> None:
    hover(pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def hover(pos: tuple[int, int]) -> None:
    pygame.mouse.set_pos(pos)
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_bar_names_each_phases_actions_with_their_keys(window, shots, size):
    """Movement, targeting and attacks each show their actions with the key; the
    buttons stay inside the bar and right of its words; clicking "P plot a shell"
    enters plot mode as P does, and again leaves it."""
    from game.ui.context import PLOT, SELECT

    state = new_game(DEFAULT_SCENARIO, 3)
    app, screen = window(state, size)
    bar = screen.phase_bar
    wanted = {
        "movement": ["H hold", "L line of sight", "End movement"],
        "targeting": ["P plot a shell", "L line of sight", "End targeting"],
        "attack": ["F attack", "L line of sight", "End attacks"],
    }
    for phase, labels in wanted.items():
        to_phase(app, screen, phase)
        app.run_frames(2)
        shown = [b.text for b in bar.buttons.values()]
        assert all(label in shown for label in labels), (phase, shown)
        for button in bar.buttons.values():
            assert bar.rect.contains(button.rect), button.text
            assert button.rect.x > bar.text_end, (button.text, bar.text_end)
        app.screenshot(shots / f"phase_bar_{phase}_{size[0]}x{size[1]}.png")
        if phase == "targeting":
            plot = bar.buttons["key:p"]
            # The press comes back as the button's event, and that posts the key.
            click(plot.rect.center)
            app.run_frames(4)
            assert screen.ctx.mode == PLOT
            click(plot.rect.center)
            app.run_frames(4)
            assert screen.ctx.mode == SELECT


def test_every_bar_button_has_a_tooltip_shown_on_hover(window, shots):
    """Each button of the bar carries a tooltip naming what it does; resting the
    mouse on "P plot a shell" shows it."""
    state = new_game(DEFAULT_SCENARIO, 3)
    app, screen = window(state, (1280, 800))
    to_phase(app, screen, "targeting")
    app.run_frames(2)
    bar = screen.phase_bar
    for button in bar.buttons.values():
        assert button.tool_tip_text, button.text
    plot = bar.buttons["key:p"]
    assert "(P)" in plot.tool_tip_text
    hover(plot.rect.center)
    app.run_frames(90)
    assert plot.tool_tip is not None
    app.screenshot(shots / "phase_bar_tooltip.png")


def test_K_toggles_the_legend_of_reach_tints_and_terrain(window, shots):
    """K shows the legend (in the help's keys too) inside the window, below the bar and
    clear of the other panels; K again hides it."""
    from game.ui.legend import MOVES, REACH, TERRAIN
    from game.ui.widgets import STRIP_HEIGHT

    for size in SIZES:
        state = new_game(DEFAULT_SCENARIO, 3)
        app, screen = window(state, size)
        keys = dict(screen.help_sections())["Legend"]
        assert ("K, click its tab", "legend: reach tints, trails of moves and terrain") in keys
        assert not screen.legend.shown
        post_key(pygame.K_k)
        app.run_frames(2)
        legend = screen.legend
        assert legend.shown and screen.ctx.panels["legend"] == legend.rect
        window_rect = pygame.Rect(0, 0, *size)
        assert window_rect.contains(legend.rect)
        assert legend.rect.top >= screen.phase_bar.rect.bottom
        others = {k: r for k, r in screen.ctx.panels.items() if k != "legend"}
        assert others and not any(legend.rect.colliderect(r) for r in others.values())
        assert len(REACH) == 3 and len(TERRAIN) >= 6 and "trail" in MOVES[0][1]
        app.screenshot(shots / f"legend_{size[0]}x{size[1]}.png")
        post_key(pygame.K_k)
        app.run_frames(2)
        # Folded to its tab at the bottom right.
        assert not legend.shown and screen.ctx.panels["legend"] == legend.rect
        assert legend.rect.h == STRIP_HEIGHT and legend.rect.right == size[0] - 10


def test_the_log_stops_before_the_shells_still_to_land():
    """Three shells land in turn 2: while the first is on show the log ends before the
    second's arrival; once all have been shown it holds everything, turn 3 too."""
    from types import SimpleNamespace

    from game.ui.artillery_anim import ArrivalAnimation

    def event(kind: str, turn: int) -> SimpleNamespace:
        return SimpleNamespace(kind=kind, turn=turn)

    log = [event("move", 2), *[event("arrival", 2), event("damage", 2)] * 3, event("initiative", 3)]
    animation = ArrivalAnimation()
    ctx = SimpleNamespace(view=SimpleNamespace(log=log))
    animation.progress = lambda ctx: (2, 1, 3)  # the first of three on show
    animation.queue = ["second", "third"]
    assert animation.log_shown(ctx) == 3  # the move, the first arrival and its damage
    animation.queue = ["third"]
    assert animation.log_shown(ctx) == 5
    animation.queue = []
    assert animation.log_shown(ctx) == 7  # not the next turn's initiative
    animation.progress = lambda ctx: None
    assert animation.log_shown(ctx) == 8
