"""What the hunters' scoring keeps from one decision to the next (the belief over the
enemy guns' positions, the searched hexes, the hexes to search, the count of hexes to
search next to each end, the shell penalties of the hexes) is at every decision what
is worked out anew from the memory's notes, as turns pass, own units end their moves
next to new hexes (ART-4), enemy shells land (ART-6, ART-9) and sheets are laid
(MAP-6)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import TypeVar

import numpy as np

from game.ai import Policy
from game.ai.candidates import Board
from game.ai.hunt import Belief, beliefs, goal_position, search_indices, searched_shares
from game.ai.manoeuvre import OWN_SHELL_WEIGHT, _common_penalties, _Ends, _fresh_next_to
from game.ai.memory import EnemyShell, SheetPosition
from game.dice import Dice
from game.hexmath import distance, distances
from game.state import acting_side, apply, legal_commands, new_game, player_view
from game.state.commands import Command
from game.state.legal import LegalCommands

T = TypeVar("T")

LONG_TOM_HUNT = str(Path(__file__).resolve().parents[1] / "maps" / "long_tom_hunt.toml")


def _decisions(turns: int) -> Iterator[tuple[Board, Mapping[str, list[Command]]]]:
    """A normal-normal game of Long Tom Hunt up to ``turns``: each decision outside
    the set-up, read with the deciding policy's memory (what it kept so far), and the
    moves of each unit to move (worked out when read)."""
    state = new_game(LONG_TOM_HUNT, 11)
    policies = {"north": Policy("normal"), "south": Policy("normal")}
    dice = Dice(3)
    while state.turn <= turns and state.result is None:
        side = acting_side(state)
        view = player_view(state, side)
        policy = policies[side]
        legal = legal_commands(state, side)
        if view.phase != "setup" and view.pending_sheet is None:
            policy.memory.observe(view)
            board = Board.read(view, policy.memory, policy.level, policy.personality)
            yield board, LegalCommands.read(legal).by_unit() if view.phase == "movement" else {}
        apply(state, policy.choose(view, legal, dice))


def _anew(board: Board, read: Callable[[], T]) -> T:
    """``read()`` with the board's memory keeping nothing: worked out from its notes
    alone (what it kept is put back after)."""
    memory = board.memory
    kept, memory.notes = memory.notes, {}
    try:
        return read()
    finally:
        memory.notes = kept


def _hunt_reads(
    board: Board, origin: SheetPosition
) -> tuple[
    list[Belief],
    list[SheetPosition | None],
    dict[SheetPosition, float],
    dict[SheetPosition, np.ndarray],
]:
    """What the hunters read of the memory: the beliefs, the sheets a hunter at
    ``origin`` heads for (nearest likely and by the posterior), the searched shares of
    the candidate sheets in play and the hexes still to search on each."""
    view, memory = board.view, board.memory
    known = beliefs(view, memory, True)
    in_play = [p for p in known[0].weights if view.area.has_sheet(p)]
    return (
        known,
        [known[0].best()] + [goal_position(known[0], origin, by) for by in (False, True)],
        searched_shares(view, memory, in_play),
        {pos: search_indices(view, memory, pos) for pos in in_play},
    )


def test_ART_4_ART_6_the_belief_and_hexes_to_search_kept_are_those_worked_out_anew() -> None:
    """ART-4, ART-6, ART-24, MAP-6, MAP-10: at every decision the belief over the enemy
    guns' positions (its weights, likeliest position and the sheet a hunter heads for),
    the searched shares of the candidate sheets in play and the hexes still to search
    on them are what a memory that kept nothing works out from the same notes."""
    checked = searched = 0
    for board, _ in _decisions(8):
        origin = board.area.position_of(next(iter(board.own.values())).hex)
        kept, goals, shares, search = _hunt_reads(board, origin)
        fresh, fresh_goals, fresh_shares, fresh_search = _anew(
            board, partial(_hunt_reads, board, origin)
        )
        assert [(b.battery, b.weights, b.known_hex) for b in kept] == [
            (b.battery, b.weights, b.known_hex) for b in fresh
        ]
        assert goals == fresh_goals
        assert shares == fresh_shares
        assert sorted(search) == sorted(fresh_search)
        for pos, idx in search.items():
            assert np.array_equal(idx, fresh_search[pos])
            searched += int(idx.size)
        checked += 1
    assert checked > 50 and searched > 0


def test_ART_4_ART_25_hunters_kept_counts_and_penalties_are_those_worked_out_anew() -> None:
    """ART-4, ART-19, ART-25: for every unit's moves at every movement decision, the
    count of hexes to search at and next to each end (read from the counts kept for
    the turn's hexes to search) and the penalties of shells and crowding (read from
    the shell penalties kept for the turn) are those counted anew end by end."""
    counted = crowded = 0
    for board, moves in _decisions(8):
        area = board.area
        belief = beliefs(board.view, board.memory, True)[0]
        in_play = [p for p in belief.weights if area.has_sheet(p)]
        for uid, options in moves.items():
            here = board.hex_of(uid)
            ends = _Ends.of_options(area, options, here)
            for pos in in_play[:2]:
                idx = search_indices(board.view, board.memory, pos)
                if not idx.size:
                    continue
                to_search = {(int(area.q[k]), int(area.r[k])) for k in idx.tolist()}
                expected = [
                    sum(
                        (h.q + dq, h.r + dr) in to_search
                        for dq, dr in ((0, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
                    )
                    for h in ends.hexes
                ]
                assert _fresh_next_to(board, ends, idx).tolist() == expected
                counted += sum(expected)
            danger = board.shell_danger()
            inside = ends.inside
            i = ends.index[inside]
            expected_penalty = np.zeros(ends.index.size, dtype=np.float64)
            expected_penalty[inside] = 4.0 * danger[i] * board.personality.exposure_weight
            expected_penalty[inside] += OWN_SHELL_WEIGHT * board.own_shells_landing()[i]
            for other, u in board.own.items():
                if other != uid and u.battery is None and u.hex is not None:
                    near = distances(u.hex, ends.q, ends.r) <= 1
                    expected_penalty[near] += 1.5
                    crowded += int(near.sum())
            got = _common_penalties(board, uid, ends, danger)
            assert got.tobytes() == expected_penalty.tobytes()
    assert counted > 0 and crowded > 0


def test_ART_19_ART_25_shell_danger_carried_over_sheets_laid_is_the_danger_anew() -> None:
    """ART-19, ART-25, MAP-6: the danger near where enemy shells were aimed lately, kept
    for the decisions of a turn and, when sheets are laid, worked out on the new sheets
    alone, is at every decision the danger worked out anew on the whole map."""
    carried = shelled = 0
    for board, _ in _decisions(10):
        held = board.memory.notes.get("shell_danger")
        danger = board.shell_danger()
        carried += held is not None and held[0][1] != board.area.revision
        fresh = _anew(board, board.shell_danger)
        assert danger.tobytes() == fresh.tobytes()
        shelled += bool(fresh.any())
    assert carried > 0 and shelled > 0


def test_ART_19_MAP_6_shell_danger_on_a_sheet_laid_by_the_shells_is_the_danger_anew() -> None:
    """ART-19, MAP-6: shells aimed at the edge where a sheet is then laid: the danger
    carried over to the grown map, worked out on the new sheet alone, is the danger
    worked out anew, on the new sheet's hexes next to the aimed hex as well."""
    state = new_game(LONG_TOM_HUNT, 11)
    view = player_view(state, "north")
    policy = Policy("normal")
    memory = policy.memory
    memory.observe(view)
    area = view.area
    grown = area.snapshot()
    grown.add_sheet(area.free_positions()[0], next(iter(area.catalogue.values())))
    assert grown.grew_from(area)
    new = np.arange(len(area), len(grown))
    # The area hex nearest the new sheet, aimed at this turn.
    first = grown.hexes()[int(new[0])]
    aimed = min(area.hexes(), key=lambda h: (distance(h, first), h))
    weapon = next(u.battery.weapon for u in view.units.values() if u.battery is not None)
    memory.enemy_shells.append(EnemyShell(1, weapon, aimed, view.turn - 1, view.turn))
    Board.read(view, memory, policy.level, policy.personality).shell_danger()
    board = Board.read(replace(view, area=grown), memory, policy.level, policy.personality)
    danger = board.shell_danger()
    fresh = _anew(board, board.shell_danger)
    assert danger.tobytes() == fresh.tobytes()
    assert fresh[new].any()


def test_ART_24_a_revealed_gun_destroyed_or_moved_within_the_turn_is_read_anew() -> None:
    """ART-24, MAP-10: the beliefs kept for a turn follow a revealed enemy gun that is
    destroyed (no longer hunted) or moves (hunted where it now stands) before the turn
    is out, as a memory that kept nothing reads them."""
    state = new_game(LONG_TOM_HUNT, 11)
    policies, dice = {"north": Policy("normal"), "south": Policy("normal")}, Dice(3)
    while state.phase == "setup" or acting_side(state) != "north":
        side = acting_side(state)
        legal = legal_commands(state, side)
        apply(state, policies[side].choose(player_view(state, side), legal, dice))
    policy = policies["north"]
    view = player_view(state, "north")
    policy.memory.observe(view)
    gun = next(u for u in state.units.values() if u.side == "south" and u.battery is not None)
    there, elsewhere = view.area.hexes()[40], view.area.hexes()[200]
    seen = replace(player_view(state, "south").units[gun.id], hex=there, destroyed=False)
    for changed, expected in (
        (seen, [there]),
        (replace(seen, destroyed=True), []),
        (replace(seen, hex=elsewhere), [elsewhere]),
    ):
        now = replace(view, units={**view.units, gun.id: changed})
        known = [b.known_hex for b in beliefs(now, policy.memory, True) if b.battery == gun.id]
        assert known == expected
        fresh = _anew(
            SimpleNamespace(memory=policy.memory), partial(beliefs, now, policy.memory, True)
        )
        assert [b.known_hex for b in fresh if b.battery == gun.id] == expected
