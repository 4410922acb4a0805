"""The window's safety nets in the movement phase, driven headless with posted input:
a planned move can be undone before it is sent (Backspace, Ctrl+Z, the Undo button),
and "End movement" asks before it holds units that have not moved yet."""

from __future__ import annotations

import pygame

from game.state import EndPhase, Hold, acting_side, apply, new_game
from game.state.model import state_hash
from game.ui.game_screen import GameScreen
from game.ui.seats import HOTSEAT, SOLO, Seats
from game.ui.widgets import ConfirmDialog
from tests.test_ui_app import (
    SCENARIO,
    button_named,
    click,
    plan_a_move,
    press,
    run_until,
    shot,
)


def movement_game(app, seed: int = 12, seats: Seats | None = None) -> GameScreen:
    """Long Tom Hunt past set-up, north (the window's side) to move."""
    state = new_game(SCENARIO, seed)
    apply(state, EndPhase("north"))
    apply(state, EndPhase("south"))
    while acting_side(state) != "north":  # south's first units hold
        mover = next(u for u in state.living("south") if u.hex is not None and not u.moved)
        apply(state, Hold("south", mover.id))
    game = app.open_game(state, seats or Seats(SOLO, "north", "easy"))
    run_until(app, lambda: acting_side(state) == "north" and game.ctx.view.side == "north")
    app.run_frames(2)
    return game


def question(game: GameScreen) -> ConfirmDialog | None:
    """The "End movement" question, if it is open."""
    dialog = game.ctx.dialogs.showing(ConfirmDialog) if game.ctx.dialogs else None
    return dialog if isinstance(dialog, ConfirmDialog) else None


def test_a_planned_move_is_undone_before_it_is_sent_by_key_and_by_button(app):
    """Backspace, Ctrl+Z and the Undo button drop the planned move: the unit stays
    where it was, unmoved and selected; no command reaches the engine."""
    game = movement_game(app)
    state = game.session.state
    before, commands = state_hash(state), len(state.commands)
    start = state.units["n-hunter-1"].hex

    uid, _ = plan_a_move(app, game)
    shot(app, "undo_planned_move.png")
    button = game.units.undo_button
    assert button.rect.w > 0, "the Undo button shows under the planned move"
    press(app, pygame.K_BACKSPACE)
    assert game.units.plan is None and game.ctx.selected == uid
    assert game.units.undo_button.rect.w == 0, "no plan, no Undo button"

    plan_a_move(app, game)
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert game.units.plan is None and game.ctx.selected == uid

    plan_a_move(app, game)
    click(app, game.units.undo_button.rect.center)
    assert game.units.plan is None and game.ctx.selected == uid

    unit = state.units[uid]
    assert unit.hex == start and not unit.moved
    assert len(state.commands) == commands and state_hash(state) == before

    # Nothing planned: undo says a move made is final and sends nothing.
    press(app, pygame.K_BACKSPACE)
    assert len(state.commands) == commands
    assert any("final" in toast.text for toast in game.ctx.toasts)


def test_a_move_sent_is_not_undone(app):
    """Once the planned move is confirmed it is the engine's: undo does not take it back."""
    game = movement_game(app)
    state = game.session.state
    uid, target = plan_a_move(app, game)
    click(app, game.hex_to_screen(target))  # the second click sends the move
    commands = len(state.commands)
    assert state.units[uid].hex == target and state.units[uid].moved
    press(app, pygame.K_BACKSPACE)
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert state.units[uid].hex == target and len(state.commands) == commands


def test_end_movement_with_units_not_moved_asks_first_cancel_keeps_the_phase(app):
    """ "End movement" with four units not moved opens the question; Esc and Cancel
    leave the phase and every unit as they were; Enter (or Confirm) holds them."""
    game = movement_game(app)
    state = game.session.state
    commands = len(state.commands)
    waiting = len(game.units.movable_units(game.ctx))
    assert waiting == 4

    press(app, pygame.K_RETURN, mod=pygame.KMOD_CTRL)  # the phase key
    dialog = question(game)
    assert dialog is not None
    assert dialog.question == "4 units have not moved: end movement and hold them?"
    shot(app, "end_movement_question.png")
    press(app, pygame.K_ESCAPE)
    assert question(game) is None
    assert app.top is game, "Esc closed the question, not opened the pause menu"
    app.run_frames(5)
    assert state.phase == "movement" and len(state.commands) == commands
    assert "north" not in game.phase_bar.auto_hold

    click(app, button_named(game.ui_manager, "End movement").rect.center, frames=3)
    dialog = question(game)
    assert dialog is not None
    click(app, dialog.cancel_button.rect.center)
    app.run_frames(5)
    assert question(game) is None
    assert state.phase == "movement" and len(state.commands) == commands

    click(app, button_named(game.ui_manager, "End movement").rect.center, frames=3)
    dialog = question(game)
    click(app, dialog.confirm_button.rect.center)
    assert dialog.confirmed
    run_until(app, lambda: state.phase != "movement")
    holds = [c for c in state.commands if c["kind"] == "hold" and c["side"] == "north"]
    assert len(holds) == waiting


def test_enter_confirms_the_question(app):
    game = movement_game(app)
    state = game.session.state
    click(app, button_named(game.ui_manager, "End movement").rect.center, frames=3)
    assert question(game) is not None
    press(app, pygame.K_RETURN)
    run_until(app, lambda: state.phase != "movement")
    assert state.phase == "targeting"


def test_end_movement_asks_nothing_when_no_unit_is_left_to_move(app):
    """No unit of the side left to move: "End movement" ends at once, no question."""
    game = movement_game(app)
    state = game.session.state
    for unit in state.living("north"):
        unit.moved = True  # every north unit has had its move this turn
    game.ctx.refresh()
    app.run_frames(2)
    assert game.units.movable_units(game.ctx) == []
    assert game.phase_bar.press(game.ctx, "end_movement")
    assert question(game) is None
    assert game.phase_bar.auto_hold["north"] == state.turn


def test_hot_seat_the_question_is_put_to_the_side_at_the_seat(app):
    """Hot-seat, at the table: the side to move is asked about its own units, and
    confirming holds only its units; the other side, at its move, is asked about its own."""
    from tests.test_ui_hotseat import settle

    game = movement_game(app, seats=Seats(HOTSEAT))
    settle(app)
    state = game.session.state
    commands = len(state.commands)
    north = len(game.units.movable_units(game.ctx))
    press(app, pygame.K_RETURN, mod=pygame.KMOD_CTRL)
    dialog = question(game)
    assert dialog is not None
    assert dialog.question.startswith(f"{north} units have not moved")
    press(app, pygame.K_RETURN)
    assert game.phase_bar.auto_hold == {"north": state.turn}
    run_until(app, lambda: acting_side(state) == "south" or state.phase != "movement")
    assert state.phase == "movement", "south still has its moves"
    assert question(game) is None, "south is asked nothing yet"
    assert [c["side"] for c in state.commands[commands:]] == ["north"]
    settle(app)
    assert game.ctx.view.side == "south"
    south = len(game.units.movable_units(game.ctx))
    press(app, pygame.K_RETURN, mod=pygame.KMOD_CTRL)
    dialog = question(game)
    assert dialog is not None
    assert dialog.question.startswith(f"{south} unit")
    press(app, pygame.K_ESCAPE)
    assert "south" not in game.phase_bar.auto_hold and acting_side(state) == "south"


def test_the_help_lists_the_undo_keys_and_the_question(app):
    """F1 help names the undo keys and says "End movement" asks first."""
    game = movement_game(app)
    rows = [row for _, entries in game.help_sections() for row in entries]
    assert ("Backspace / Ctrl+Z", "undo the planned move before it is sent") in rows
    assert any(key == "End movement button" and "asks first" in what for key, what in rows)
