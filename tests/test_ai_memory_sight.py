"""The AI's remembered sight (``Memory.sight``) when the map grows (MAP-5, MAP-6).

Laying a sheet changes no hex in play, so what a side worked out before is
carried over and only the hexes a line can reach through the new sheet, the new
hexes and those asked for the first time are worked out again. Whatever is
carried, every answer is exactly ``visible_from`` on the area as it is now.
"""

from __future__ import annotations

import numpy as np

from game.ai import memory as memory_module
from game.ai.memory import Memory
from game.board.area import PlayArea
from game.board.los import visible_from
from game.board.sheet import SHEET_COLS, SHEET_ROWS, Sheet, format_xxyy
from game.board.terrain import BUILDING
from game.hexmath import Hex
from tests.sheet_factory import make_sheet
from tests.test_los import random_sheet


def _questions(area: PlayArea) -> list[tuple]:
    """Viewers in the corner, the middle and off the area; heights down to 0 (an eye
    below level 0 on a depression); with and without a range; some hexes only."""
    viewers = [area.hex_at((0, 0), "0101"), area.hex_at((1, 0), "0809"), Hex(-3, 2)]
    viewers += [area.hexes()[k] for k in range(0, len(area), 97)]
    asked = []
    for v in viewers:
        for heights in ((2, 1), (0, 0), (1, 0)):
            asked.append((v, None, *heights, None))
            asked.append((v, 14, *heights, None))
        asked.append((v, None, 2, 1, "first sheet"))
    return asked


def _answer(memory: Memory, area: PlayArea, question: tuple) -> np.ndarray:
    viewer, max_range, vh, th, name = question
    among = None if name is None else (area.sheet_i % 2 == 0, name)
    return memory.sight(area, viewer, max_range, vh, th, among)


def _expected(area: PlayArea, question: tuple) -> np.ndarray:
    viewer, max_range, vh, th, name = question
    among = None if name is None else area.sheet_i % 2 == 0
    return visible_from(area, viewer, max_range, vh, th, among)


def test_MAP_5_remembered_sight_carried_over_a_sheet_laid_is_the_sight_now(monkeypatch) -> None:
    """MAP-5, MAP-6: after sheets are laid the remembered masks are carried over
    (most of them) and each equals visible_from on the grown area; after a building
    is demolished (it may have hidden hexes, ART-29) nothing is carried."""
    carried = []
    plain = memory_module._SightNotes.carried

    def counting(notes, key, among):
        mask = plain(notes, key, among)
        carried.append(mask is not None)
        return mask

    monkeypatch.setattr(memory_module._SightNotes, "carried", counting)
    area = PlayArea.from_layout({(0, 0): random_sheet(61, "a"), (1, 0): random_sheet(62, "b")})
    memory = Memory()
    questions = _questions(area)
    for snapshot_of in ([], [((2, 0), 63)], [((0, 1), 64), ((1, -1), 65)]):
        for pos, seed in snapshot_of:
            area.add_sheet(pos, random_sheet(seed, f"s{seed}"))
        now = area.snapshot()  # what a view holds: a copy per map revision
        for question in questions:
            assert np.array_equal(_answer(memory, now, question), _expected(now, question))
    assert sum(carried) > len(questions)  # carried over both times the map grew

    carried.clear()
    building = next(h for h, t in zip(area.hexes(), area.terrain, strict=True) if t == BUILDING)
    assert area.demolish(building)
    now = area.snapshot()
    for question in questions:
        assert np.array_equal(_answer(memory, now, question), _expected(now, question))
    assert not any(carried)


def test_an_area_grew_from_another_only_by_sheets_laid() -> None:
    """MAP-6: an area grew from its earlier copy when sheets were laid and nothing
    else changed; not from itself, nor after a building was demolished."""
    area = PlayArea.from_layout({(0, 0): random_sheet(71, "a")})
    before = area.snapshot()
    assert not area.grew_from(before)
    area.add_sheet((1, 0), random_sheet(72, "b"))
    assert area.grew_from(before) and not before.grew_from(area)
    grown = area.snapshot()
    building = next(h for h, t in zip(area.hexes(), area.terrain, strict=True) if t == BUILDING)
    area.demolish(building)
    area.add_sheet((2, 0), random_sheet(73, "c"))
    assert not area.grew_from(grown)


def _low_sheet(sheet_id: str) -> Sheet:
    """A sheet of clear ground all at level -2."""
    cells = {format_xxyy(c, r): "-2." for c in range(SHEET_COLS) for r in range(SHEET_ROWS)}
    return make_sheet(sheet_id, cells, {})


def test_MAP_5_an_eye_below_level_0_is_worked_out_again_when_a_sheet_is_laid() -> None:
    """MAP-5: off the area is open ground at level 0, higher than an eye down in a
    depression: lines along the edge were blocked there. The new sheet's lower
    ground opens them, so such a viewer's sight is worked out anew, not carried."""
    area = PlayArea.from_layout({(0, 0): _low_sheet("low a")})
    memory = Memory()
    viewer = area.hex_at((0, 0), "0101")
    first = area.snapshot()
    before = memory.sight(first, viewer, None, 0, 0)
    area.add_sheet((0, -1), _low_sheet("low b"))
    now = area.snapshot()
    after = memory.sight(now, viewer, None, 0, 0)
    expected = visible_from(now, viewer, None, 0, 0)
    assert np.array_equal(after, expected)
    old = now.indices_of(first.q, first.r)
    assert np.any(expected[old] & ~before)  # some hex of the first sheet came into sight


def test_MAP_5_sight_among_the_hexes_asked_is_the_sight_now_as_the_map_grows(
    monkeypatch,
) -> None:
    """MAP-5, MAP-6, ART-29: ``Memory.sight_among`` gathers the hexes asked of a viewer
    (shrinking and shifting sets, as the aimed hexes and the unsearched hexes are)
    and is carried over a sheet laid with the rest of the remembered sight; read on
    the hexes asked, it is ``visible_from`` on the area as it is now: after sheets
    are laid, after a building falls, from viewers that moved."""
    carried = []
    plain = memory_module._SightNotes.carried

    def counting(notes, key, among):
        mask = plain(notes, key, among)
        carried.append(key[-1] == memory_module.ASKED and mask is not None)
        return mask

    monkeypatch.setattr(memory_module._SightNotes, "carried", counting)
    area = PlayArea.from_layout({(0, 0): random_sheet(81, "a"), (1, 0): random_sheet(82, "b")})
    memory = Memory()
    rng = np.random.default_rng(5)

    def check(now: PlayArea, viewers: list[Hex]) -> None:
        for viewer in viewers:
            for height in (2, 1, 0):
                for _ in range(3):
                    wanted = rng.random(len(now)) < 0.05
                    got = memory.sight_among(now, viewer, height, wanted)
                    expected = visible_from(now, viewer, None, height, 1, wanted)
                    assert np.array_equal(got[wanted], expected[wanted])

    viewers = [area.hex_at((0, 0), "0101"), area.hex_at((1, 0), "0809"), Hex(-3, 2)]
    for laid in ([], [((2, 0), 83)], [((0, 1), 84)]):
        for pos, seed in laid:
            area.add_sheet(pos, random_sheet(seed, f"s{seed}"))
        now = area.snapshot()
        check(now, viewers)
        viewers = [*viewers[1:], now.hexes()[len(now) // 3]]  # a unit moves
    assert sum(carried) >= 2 * 3  # carried over both times the map grew
    carried.clear()
    building = next(h for h, t in zip(area.hexes(), area.terrain, strict=True) if t == BUILDING)
    assert area.demolish(building)
    check(area.snapshot(), viewers)
    assert not any(carried)
