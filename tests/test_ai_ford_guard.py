"""Normal's Wardens keep the bridge end on Hold the Ford: the regiment standing on the
hex the enemy must hold stays there rather than step out of a losing melee round (BS-9
.. BS-12; the hold_hex victory condition of docs/scenarios.md)."""

from __future__ import annotations

from dataclasses import replace

from game.ai.manoeuvre import KEPT_HEX_WORTH, movement_candidates
from game.ai.personality import level
from game.state import acting_side, apply, legal_commands
from game.state.commands import Attack, Command, Move
from game.state.model import GameState
from tests.test_ai_charges import RIVER, ford_with_knights_near_the_spears
from tests.test_ai_figures import board_of
from tests.test_engine_systems import place


def _until(state: GameState, phase: str, side: str) -> None:
    """Every side stands and ends its phases until ``side`` acts in ``phase``."""
    while state.phase != phase or acting_side(state) != side:
        acting = acting_side(state)
        assert acting is not None
        apply(
            state,
            next(c for c in legal_commands(state, acting) if not isinstance(c, Move | Attack)),
        )


def _ends_on(c: Command, here: object) -> object:
    return c.to if isinstance(c, Move) else here


def test_BS_9_BS_12_normal_keeps_the_bridge_end_with_a_spent_regiment() -> None:
    """BS-9: every pair of regiments side by side fights a round a turn, both striking
    at once, so the Spears' last three figures on the bridge end would lose a round to
    the Pikes, the Knights and the Foot round them. Weighing those rounds alone
    (``guards_by_melee_rounds``), normal's Spears step off the hex, and the Marchers step
    on; keeping the hex (``keeps_the_guarded_hex``) counts ending the move there
    ``KEPT_HEX_WORTH`` more, so they stay: no unit enters an enemy's hex, so the Marchers
    cannot hold it while the Spears stand there. Easy and hard do not keep it so (their
    rounds weigh nothing or lightly)."""
    state, spears_at = ford_with_knights_near_the_spears()
    place(state, "n-knights", state.area.hex_at(RIVER, "0711"), facing=2)
    place(state, "n-pikes", state.area.hex_at(RIVER, "0810"), facing=4)
    place(state, "n-foot", state.area.hex_at(RIVER, "0911"), facing=5)
    state.units["s-spears"].damage["unit"]["ranks"] = ["OOO...", "......", "......"]
    _until(state, "movement", "south")
    legal = [c for c in legal_commands(state, "south") if getattr(c, "unit", "") == "s-spears"]
    normal = level("normal")
    assert normal.keeps_the_guarded_hex and normal.guards_by_melee_rounds
    assert not level("easy").keeps_the_guarded_hex and not level("hard").keeps_the_guarded_hex
    without = movement_candidates(
        board_of(state, "south", replace(normal, keeps_the_guarded_hex=False)), legal
    )
    kept = movement_candidates(board_of(state, "south", normal), legal)
    before = {c.command: c.score for c in without}
    for c in kept:
        on_hex = _ends_on(c.command, spears_at) == spears_at
        assert c.score == before[c.command] + (KEPT_HEX_WORTH if on_hex else 0.0)
    best_without = max(without, key=lambda c: c.score).command
    best_kept = max(kept, key=lambda c: c.score).command
    assert _ends_on(best_without, spears_at) != spears_at
    assert _ends_on(best_kept, spears_at) == spears_at
