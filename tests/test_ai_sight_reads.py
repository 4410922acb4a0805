"""The AI's reads of sight at the hexes its moves end in (MAP-5), as the map grows
(MAP-6) and units move: each is what ``visible_from`` on the area of the decision
gives there, however much of it the policy's memory kept from decisions before."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from game.ai.candidates import ENEMY_REACH, Board
from game.ai.hunt import beliefs, candidate_positions, searched_mask, searched_shares
from game.ai.manoeuvre import WATCH_RANGE, _seen_from
from game.ai.memory import Memory
from game.board.los import visible_from
from game.hexmath import distances
from game.state.view import PlayerView
from tests.test_ai_kept_hunt import _decisions


def _movement_boards(turns: int) -> Iterator[Board]:
    """A normal-normal game of Long Tom Hunt up to ``turns``: each movement decision's
    board, read with the deciding policy's memory (what it kept so far)."""
    for board, _ in _decisions(turns):
        if board.view.phase == "movement":
            yield board


def _some_hexes(board: Board, rng: np.random.Generator) -> np.ndarray:
    """Area indices round an own unit (as a move's ends are) and scattered far off."""
    area = board.area
    here = next(iter(board.own.values())).hex
    assert here is not None
    near = np.flatnonzero(distances(here, area.q, area.r) <= 8)
    far = rng.choice(len(area), size=40, replace=False)
    return np.concatenate([near, far])


def test_MAP_5_enemy_sight_at_the_ends_is_the_enemy_units_sight_there() -> None:
    """MAP-5, MAP-6: ``Board.enemy_sight_at`` counts at the hexes asked the enemy units
    within ``ENEMY_REACH`` that see them, as ``visible_from`` on the map of each
    decision does (sheets laid, enemies moved, the memory's sight kept from before);
    skipping the enemies far from every hex asked changes no count."""
    rng = np.random.default_rng(3)
    skipped = asked = 0
    for board in _movement_boards(5):
        at = _some_hexes(board, rng)
        for height in (1, 2):
            expected = np.zeros(at.size, dtype=np.int32)
            for uid in sorted(board.enemies):
                e = board.enemies[uid]
                assert e.hex is not None
                seen = visible_from(board.area, e.hex, ENEMY_REACH, e.height, height)
                expected += seen[at]
            assert np.array_equal(board.enemy_sight_at(height, at), expected)
            # A few hexes near an own unit, as one unit's moves: far enemies skipped.
            ends = at[:5]
            q, r = board.area.q[ends], board.area.r[ends]
            skipped += sum(
                int(distances(e.hex, q, r).min()) > ENEMY_REACH for e in board.enemies.values()
            )
            asked += len(board.enemies)
            assert np.array_equal(board.enemy_sight_at(height, ends), expected[:5])
    assert 0 < skipped < asked  # enemies both far and near


def test_MAP_5_a_spotters_watch_at_its_ends_is_the_sight_there() -> None:
    """MAP-5, MAP-6: the spotter's watch (``_seen_from``: which of its ends see a hex
    within ``WATCH_RANGE``) is ``visible_from`` that hex read backward on the map of
    each decision, for hexes near and far, as the memory gathers the ends asked."""
    rng = np.random.default_rng(4)
    seen = 0
    for board in _movement_boards(5):
        area = board.area
        at = _some_hexes(board, rng)
        for height in (1, 2):
            seen_from = _seen_from(board, at, height)
            watched = [e.hex for e in board.enemies.values() if e.hex is not None]
            # Hexes about the watch's range from the nearest ends, and beyond.
            here = next(iter(board.own.values())).hex
            assert here is not None
            d = distances(here, area.q, area.r)
            band = np.flatnonzero((d >= WATCH_RANGE) & (d <= WATCH_RANGE + 10))
            picked = rng.choice(band, size=min(8, band.size), replace=False)
            watched += [area.hexes()[k] for k in picked]
            for h in watched:
                expected = visible_from(area, h, WATCH_RANGE, 1, height)[at]
                assert np.array_equal(seen_from(h), expected)
                seen += int(expected.sum())
    assert seen > 0


def _searched_anew(view: PlayerView, memory: Memory) -> np.ndarray:
    """``searched_mask`` by its definition, worked out from nothing on the area as it
    is now: next to an own unit at the end of a move, or on a sheet the guns may
    stand on that was in play in a turn the enemy guns fired, seen by an own unit
    from where it stood that turn (ART-4)."""
    area = view.area
    mask = np.zeros(len(area), dtype=bool)
    for h in memory.searched:
        if area.contains(h):
            mask[area.index_of(h)] = True
    candidates = set(candidate_positions(view, memory))
    sheet_of = [area.positions[k] for k in area.sheet_index.tolist()]
    for turn in {s.fired_turn for s in memory.enemy_shells}:
        sheets = set(memory.area_after_movement.get(turn, ())) & candidates
        on = np.array([pos in sheets for pos in sheet_of], dtype=bool)
        for h, height in memory.own_after_movement.get(turn, {}).values():
            mask |= visible_from(area, h, None, height, 1, on)
    return mask


def test_ART_4_searched_hexes_read_on_the_sheets_asked_are_those_worked_out_anew() -> None:
    """ART-4, MAP-5, MAP-6: ``searched_mask`` read on the sheets asked (the positions
    the guns may still stand on, a sheet the hunters head for, every candidate sheet)
    and the searched shares of those sheets are what the definition gives worked out
    anew, as sheets are laid turn after turn and the hunters' memory carries what it
    saw."""
    checked = seen = 0
    for board in _movement_boards(7):
        view, memory = board.view, board.memory
        if not memory.enemy_shells:
            continue
        area = view.area
        expected = _searched_anew(view, memory)
        in_play = [p for p in candidate_positions(view, memory) if area.has_sheet(p)]
        weights = beliefs(view, memory, True)[0].weights
        asked = [[p for p in weights if area.has_sheet(p)], in_play, in_play[:1]]
        for positions in asked:
            on = np.isin(area.sheet_index, [area.positions.index(p) for p in positions])
            got = searched_mask(view, memory, positions)
            assert np.array_equal(got[on], expected[on])
            shares = searched_shares(view, memory, positions)
            assert sorted(shares) == sorted(positions)
            for pos in positions:
                k = area.positions.index(pos)
                share = expected[area.sheet_index == k].sum() / (area.sheet_index == k).sum()
                assert shares[pos] == share
            checked += 1
            seen += int(expected[on].sum())
    assert checked and seen


def test_ART_19_ART_25_shell_danger_kept_for_a_turn_is_the_danger_worked_out_anew() -> None:
    """ART-19, ART-25: the danger near where enemy shells were aimed lately, kept by
    the memory for the decisions of a turn on one map, is at every decision the
    danger worked out anew from the shells the side has seen land."""
    kept = shelled = 0
    for board in _movement_boards(8):
        held = board.memory.notes.get("shell_danger")
        danger = board.shell_danger()
        kept += held is not None and held[1] is danger
        board.memory.notes.pop("shell_danger")
        fresh = board.shell_danger()
        assert fresh is not danger
        assert np.array_equal(danger, fresh)
        shelled += bool(fresh.any())
    assert kept > 0 and shelled > 0
