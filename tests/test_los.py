"""Line of sight (MAP-5): the single-line rule and the whole-area numpy version agree."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.board import los
from game.board.area import PlayArea, sheet_hex
from game.board.los import (
    Sight,
    in_sight,
    line_of_sight,
    line_steps,
    visible_from,
    visible_hexes,
)
from game.board.sheet import SHEET_COLS, SHEET_ROWS, Sheet, format_xxyy
from game.hexmath import Hex, distance, distances, line, neighbors
from game.limits import AREA_SPAN_LIMIT
from tests.sheet_factory import make_sheet


def random_sheet(seed: int, sheet_id: str) -> Sheet:
    """Varied terrain: hills, depressions, light and heavy woods, buildings, water, roads."""
    rng = np.random.default_rng(seed)
    cells: dict[str, str] = {}
    buildings: dict[str, tuple[int, int]] = {}
    for c in range(SHEET_COLS):
        for r in range(SHEET_ROWS):
            name = format_xxyy(c, r)
            level = int(rng.choice([-2, -1, 0, 0, 0, 1, 1, 2, 3, 4]))
            kind = rng.choice([".", ".", ".", "w", "w", "W", "r", "~", "#"])
            if kind == "~":
                cells[name] = f"{level}~{int(rng.integers(1, 3))}"
            elif kind == "#":
                cells[name] = f"{level}#"
                buildings[name] = (int(rng.integers(10, 90)), int(rng.integers(1, 5)))
            else:
                cells[name] = f"{level}{kind}{'=' if rng.random() < 0.1 else ''}"
    return make_sheet(sheet_id, cells, buildings)


def one_sheet_area(cells: dict[str, str], buildings: dict | None = None) -> PlayArea:
    return PlayArea.from_layout({(0, 1): make_sheet("test", cells, buildings)})


def at(area: PlayArea, name: str, pos: tuple[int, int] = (0, 1)) -> Hex:
    return area.hex_at(pos, name)


def between(area: PlayArea, a: str, b: str) -> list[str]:
    """Names of the intervening hexes of the line from a to b (on sheet (0,1))."""
    return [area.name_of(h)[1] for h in line(at(area, a), at(area, b))[1:-1]]


# --- the rule, case by case -----------------------------------------------------------------


def test_MAP_5_open_ground_is_visible() -> None:
    """MAP-5: nothing between -> visible; the Sight carries the whole path."""
    area = one_sheet_area({})
    sight = line_of_sight(area, at(area, "0101"), at(area, "1517"))
    assert sight and sight.visible
    assert sight.blocking_hex is None
    assert sight.woods_count == 0
    assert sight.path[0] == at(area, "0101") and sight.path[-1] == at(area, "1517")
    assert len(sight.path) == distance(at(area, "0101"), at(area, "1517")) + 1
    assert "nothing between is higher than both ends" in sight.reason


def test_MAP_5_a_hill_higher_than_both_eye_levels_blocks() -> None:
    """MAP-5: hill at level 3 between a standing mech (eye 2) and a ground target (eye 1)."""
    area = one_sheet_area({})
    middle = between(area, "0801", "0813")[5]
    area = one_sheet_area({middle: "3."})
    sight = line_of_sight(area, at(area, "0801"), at(area, "0813"))
    assert not sight
    assert sight.blocking_hex == at(area, middle)
    assert sight.reason == (
        f"hill at level 3 in {middle} on sheet (0,1) is higher than both ends (eye levels 2 and 1)"
    )


def test_MAP_5_a_hill_as_high_as_the_higher_eye_does_not_block() -> None:
    """MAP-5: 'higher than both': a level-2 hill does not block a viewer whose eye is at 2."""
    area = one_sheet_area({"0807": "2."})
    assert line_of_sight(area, at(area, "0801"), at(area, "0813"))
    # A lower viewer (height 1) is blocked by the same hill.
    low = line_of_sight(area, at(area, "0801"), at(area, "0813"), viewer_height=1)
    assert not low and low.blocking_hex == at(area, "0807")


def test_MAP_5_woods_add_up_to_three_and_block() -> None:
    """MAP-5: light woods 1 + heavy woods 2 = 3 -> blocked at the hex that makes 3."""
    area = one_sheet_area({"0605": "0w", "0606": "0W"})
    sight = line_of_sight(area, at(area, "0603"), at(area, "0609"))
    assert between(area, "0603", "0609") == ["0604", "0605", "0606", "0607", "0608"]
    assert not sight
    assert sight.woods_count == 3
    assert sight.blocking_hex == at(area, "0606")
    assert sight.reason == "woods add up to 3 (0605, 0606 on sheet (0,1))"


def test_MAP_5_woods_below_three_do_not_block() -> None:
    """MAP-5: two light woods count 2: still visible, and the count is reported."""
    area = one_sheet_area({"0605": "0w", "0606": "0w"})
    sight = line_of_sight(area, at(area, "0603"), at(area, "0609"))
    assert sight
    assert sight.woods_count == 2
    assert sight.woods_hexes == (at(area, "0605"), at(area, "0606"))
    assert "woods count 2 (0605, 0606 on sheet (0,1)), below 3" in sight.reason


def test_MAP_5_woods_at_the_ends_do_not_count() -> None:
    """MAP-5: only intervening hexes count: a viewer and target standing in heavy woods
    on level ground see each other across open ground."""
    area = one_sheet_area({"0603": "0W", "0609": "0W"})
    assert line_of_sight(area, at(area, "0603"), at(area, "0609"), target_height=2)


def test_MAP_5_woods_higher_than_both_eyes_block_outright() -> None:
    """MAP-5: woods stand 2 levels: light woods on a level-1 hill (top 3) block alone."""
    area = one_sheet_area({"0606": "1w"})
    sight = line_of_sight(area, at(area, "0603"), at(area, "0609"))
    assert not sight
    assert sight.woods_count == 0
    assert sight.reason.startswith("light woods at level 1 in 0606 on sheet (0,1) (top 3)")


def test_MAP_5_a_building_blocks_by_its_height() -> None:
    """MAP-5: a building 3 levels high blocks; a building 1 level high does not."""
    tall = one_sheet_area({"0606": "0#"}, {"0606": (40, 3)})
    sight = line_of_sight(tall, at(tall, "0603"), at(tall, "0609"))
    assert not sight
    assert sight.reason.startswith("a building 3 levels high at level 0 in 0606 on sheet (0,1)")
    low = one_sheet_area({"0606": "0#"}, {"0606": (40, 1)})
    assert line_of_sight(low, at(low, "0603"), at(low, "0609"))


def test_MAP_5_a_viewer_on_a_hill_sees_over_a_lower_hill() -> None:
    """MAP-5: viewer on level 4 (eye 6); a level-3 hill between is not higher than both ends."""
    area = one_sheet_area({"0603": "4.", "0606": "3."})
    assert line_of_sight(area, at(area, "0603"), at(area, "0609"))
    # From the valley floor the same hill blocks.
    flat = one_sheet_area({"0606": "3."})
    assert not line_of_sight(flat, at(flat, "0603"), at(flat, "0609"))


def test_MAP_5_a_tall_target_is_seen_over_a_hill() -> None:
    """MAP-5: heights are parameters: a target 4 levels tall shows above a level-3 hill."""
    area = one_sheet_area({"0606": "3."})
    assert not line_of_sight(area, at(area, "0603"), at(area, "0609"))
    assert line_of_sight(area, at(area, "0603"), at(area, "0609"), target_height=4)


def test_MAP_5_blocking_hex_is_the_first_along_the_line() -> None:
    """MAP-5: with two blocking hills the first one seen from the viewer is named."""
    area = one_sheet_area({"0605": "5.", "0607": "4."})
    sight = line_of_sight(area, at(area, "0603"), at(area, "0609"))
    assert sight.blocking_hex == at(area, "0605")
    back = line_of_sight(area, at(area, "0609"), at(area, "0603"))
    assert back.blocking_hex == at(area, "0607")


def test_MAP_5_adjacent_and_same_hex_are_always_visible() -> None:
    """MAP-5: no intervening hex, nothing to block."""
    area = one_sheet_area({"0606": "9."})
    assert line_of_sight(area, at(area, "0606"), at(area, "0606"))
    assert line_of_sight(area, at(area, "0605"), at(area, "0606"))


def test_MAP_5_hexes_outside_the_area_are_open_level_0_ground() -> None:
    """MAP-5 decision: a line across a notch of a grown area crosses open level-0 ground:
    invisible to eyes below 0, no obstacle to eyes at 0 or above."""
    pit = {format_xxyy(c, r): "-5." for c in range(SHEET_COLS) for r in range(SHEET_ROWS)}
    area = PlayArea.from_layout(
        {
            (0, 0): make_sheet("pit", pit),
            (0, 1): make_sheet("pit", pit),
            (1, 1): make_sheet("p2", pit),
        }
    )
    a = area.hex_at((0, 0), "1505")
    b = area.hex_at((1, 1), "0512")
    path = line(a, b)
    outside = [h for h in path if not area.contains(h)]
    assert outside, "the line must cut across the empty sheet position (1,0)"
    sight = line_of_sight(area, a, b)
    assert not sight
    assert sight.blocking_hex == outside[0]
    assert "open ground at level 0 in" in sight.reason and "outside the play area" in sight.reason
    assert line_of_sight(area, a, b, viewer_height=5)
    assert visible_from(area, a)[area.index_of(b)] == sight.visible
    assert visible_from(area, a, viewer_height=5)[area.index_of(b)]


def test_MAP_5_heights_must_be_whole_numbers() -> None:
    area = one_sheet_area({})
    with pytest.raises(ValueError, match="viewer_height must be a whole number"):
        line_of_sight(area, at(area, "0101"), at(area, "0202"), viewer_height=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_range must be a whole number"):
        visible_from(area, at(area, "0101"), max_range=-1)


def test_MAP_5_sight_is_a_plain_answer() -> None:
    area = one_sheet_area({})
    sight = line_of_sight(area, (0, 17), (2, 17))
    assert isinstance(sight, Sight)
    assert sight.viewer == Hex(0, 17) and sight.viewer_eye == 2 and sight.target_eye == 1


# --- the numpy version agrees -----------------------------------------------------------------


@given(
    st.integers(-60, 60),
    st.integers(-60, 60),
)
def test_MAP_5_vectorized_line_steps_equal_hexmath_line(bq: int, br: int) -> None:
    """MAP-5: the numpy line has the same exact rounding and nudge as hexmath.line."""
    n = distance(Hex(0, 0), Hex(bq, br))
    q, r, valid = line_steps(np.array([bq]), np.array([br]), max(n + 2, 1))
    got = [Hex(int(a), int(b)) for a, b, v in zip(q[0], r[0], valid[0], strict=True) if v]
    assert got == line(Hex(0, 0), Hex(bq, br))[1:-1]


def test_MAP_5_vectorized_line_steps_equal_hexmath_line_on_every_near_and_far_line() -> None:
    """MAP-5: the hex around the nudged point, found from three floors, is
    hexmath.line's rounding: every line out to 30 hexes and far random ones."""
    q, r = los._ring_hexes(1, 30)
    rng = np.random.default_rng(5)
    q = np.concatenate([q, rng.integers(-1200, 1200, 60)])
    r = np.concatenate([r, rng.integers(-1200, 1200, 60)])
    n = distances(Hex(0, 0), q, r)
    sq, sr, valid = line_steps(q, r, int(n.max()))
    for k in range(q.size):
        end = Hex(int(q[k]), int(r[k]))
        got = [Hex(int(a), int(b)) for a, b in zip(sq[k][valid[k]], sr[k][valid[k]], strict=True)]
        assert got == line(Hex(0, 0), end)[1:-1], end
    for first in (1, 17, 40, 333):
        part = line_steps(q, r, 7, first)
        for whole, some in zip((sq, sr, valid), part, strict=True):
            assert np.array_equal(some, whole[:, first - 1 : first + 6])


def test_MAP_5_vectorized_line_steps_on_ties() -> None:
    """MAP-5: lines along hex edges (ties at every other step) agree too."""
    ends = [Hex(2 * k, -k) for k in range(-8, 9)] + [Hex(k, k) for k in range(-8, 9)]
    ends += [Hex(-k, 2 * k) for k in range(-8, 9)]
    steps = 30
    q, r, valid = line_steps(np.array([h.q for h in ends]), np.array([h.r for h in ends]), steps)
    for row, end in enumerate(ends):
        got = [Hex(int(a), int(b)) for a, b, v in zip(q[row], r[row], valid[row], strict=True) if v]
        assert got == line(Hex(0, 0), end)[1:-1]


def _agree(area: PlayArea, viewer: Hex, vh: int, th: int, max_range: int | None = None) -> None:
    mask = visible_from(area, viewer, max_range=max_range, viewer_height=vh, target_height=th)
    assert mask.dtype == bool and mask.shape == (len(area),)
    for k, h in enumerate(area.hexes()):
        expected = line_of_sight(area, viewer, h, vh, th).visible
        if max_range is not None:
            expected = expected and distance(viewer, h) <= max_range
        assert bool(mask[k]) == expected, (viewer, h, vh, th)


_SEEDS = st.integers(0, 2**31 - 1)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    _SEEDS,
    st.sampled_from([{(0, 0), (1, 0)}, {(0, 0), (0, 1)}, {(-1, 0), (0, 0), (0, -1)}]),
    st.integers(0, 10_000),
    st.integers(1, 4),
    st.integers(0, 3),
)
def test_MAP_5_visible_from_agrees_with_line_of_sight_on_random_terrain(
    seed: int, positions: set, pick: int, vh: int, th: int
) -> None:
    """MAP-5: one rule: the numpy mask equals line_of_sight for every hex of random
    terrain (hills, pits, light/heavy woods sums, buildings), random viewer and heights."""
    layout = {pos: random_sheet(seed + k, f"r{k}") for k, pos in enumerate(sorted(positions))}
    area = PlayArea.from_layout(layout)
    viewer = area.hexes()[pick % len(area)]
    _agree(area, viewer, vh, th)


@settings(max_examples=6, deadline=None)
@given(_SEEDS, st.integers(0, 10_000), st.integers(0, 25))
def test_MAP_5_visible_from_agrees_within_a_range(seed: int, pick: int, max_range: int) -> None:
    """MAP-5: with max_range, farther hexes are False and nearer ones follow the rule."""
    area = PlayArea.from_layout(
        {(0, 0): random_sheet(seed, "a"), (1, 0): random_sheet(seed + 1, "b")}
    )
    viewer = area.hexes()[pick % len(area)]
    _agree(area, viewer, 2, 1, max_range)


@settings(max_examples=8, deadline=None)
@given(_SEEDS, st.integers(0, 10_000), st.integers(1, 4), st.integers(0, 3))
def test_MAP_5_in_sight_agrees_with_line_of_sight(seed: int, pick: int, vh: int, th: int) -> None:
    """MAP-5: the yes/no answer read from the table equals line_of_sight, from every
    hex to a sample of hexes (the off-area notch and a viewer outside included)."""
    area = PlayArea.from_layout(
        {(0, 0): random_sheet(seed, "a"), (1, 0): random_sheet(seed + 1, "b")}
    )
    hexes = area.hexes()
    viewer = hexes[pick % len(hexes)]
    visible_from(area, viewer)  # the table is built: lines are read from it
    outside = [Hex(-3, 2), sheet_hex((0, 1), 4, 4)]
    for target in [*hexes[::7], *outside]:
        for a, b in ((viewer, target), (target, viewer)):
            assert in_sight(area, a, b, vh, th) == line_of_sight(area, a, b, vh, th).visible


def test_MAP_5_visible_from_among_some_hexes_answers_those_alone() -> None:
    """MAP-5: asked about some hexes only, the mask is the full one on those, False
    elsewhere, for a viewer inside the grid and one outside it; a wrong mask is refused."""
    area = PlayArea.from_layout({(0, 0): random_sheet(41, "a"), (1, 0): random_sheet(42, "b")})
    among = area.sheet_i == 1
    for viewer in (area.hex_at((0, 0), "0305"), Hex(-3, 2)):
        full = visible_from(area, viewer)
        assert np.array_equal(visible_from(area, viewer, among=among), full & among)
    with pytest.raises(ValueError, match="among must be a mask of the 510 area hexes"):
        visible_from(area, area.hexes()[0], among=np.ones(3, dtype=bool))


def test_MAP_5_visible_from_a_viewer_outside_the_area_agrees() -> None:
    """MAP-5: a viewer off the area (ground level 0) takes the line-by-line path; same rule."""
    area = PlayArea.from_layout({(0, 0): random_sheet(7, "a")})
    for viewer in (sheet_hex((1, 0), 3, 4), sheet_hex((0, -1), 7, 16), Hex(-3, 2)):
        assert not area.contains(viewer)
        _agree(area, viewer, 2, 1)


def test_MAP_5_a_viewers_disk_within_range_agrees(monkeypatch) -> None:
    """MAP-5: a range whose disk is smaller than the area is read off the sight grid
    (the hexes within range only): same masks as line_of_sight for viewers inside
    the area, on its edge and off it, with the table built out
    to the range, half built and ending short of it (lines drawn on the spot)."""
    positions = [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1)]
    area = PlayArea.from_layout(
        {pos: random_sheet(71 + k, f"s{k}") for k, pos in enumerate(positions)}
    )
    notch = sheet_hex((0, 1), 4, 4)  # off the area, within its sight grid
    viewers = [area.hex_at((1, 0), "0809"), area.hex_at((0, 0), "0101"), Hex(-3, 2), notch]
    assert not area.contains(notch) and not area.contains(Hex(-3, 2))
    for max_range in (1, 2, 9, 17, 18):
        assert los._ring_start(max_range + 1) <= len(area)  # the disk path
        for viewer in viewers:
            _agree(area, viewer, 2, 1, max_range)
    _fresh_lines(monkeypatch, GROW_ENTRIES=700)
    for viewer in viewers:
        _agree(area, viewer, 3, 0, max_range=18)
    _fresh_lines(monkeypatch, TABLE_RADIUS=6)
    for viewer in viewers:
        _agree(area, viewer, 1, 1, max_range=18)


def test_MAP_5_the_line_by_line_path_agrees_with_the_tables() -> None:
    """MAP-5: the line-by-line path (viewers off the grid) gives the table's mask."""
    area = PlayArea.from_layout({(0, 0): random_sheet(3, "a"), (1, 0): random_sheet(4, "b")})
    for k in (0, 17, 200, 400, 509):
        v = area.hexes()[k]
        assert np.array_equal(los._visible_from_lines(area, v, None, 2, 1), visible_from(area, v))


def _fresh_lines(monkeypatch, **settings: int) -> None:
    """A new relative-line table built with other settings, for this test only."""
    for name, value in settings.items():
        monkeypatch.setattr(los, name, value)
    monkeypatch.setattr(los, "_LINES", los._RelativeLines())


def test_MAP_5_lines_beyond_the_table_are_computed_on_the_spot(monkeypatch) -> None:
    """MAP-5: with a table of radius 5 (far lines drawn per call) the mask still agrees."""
    _fresh_lines(monkeypatch, TABLE_RADIUS=5)
    area = PlayArea.from_layout({(0, 0): random_sheet(5, "a"), (0, 1): random_sheet(6, "b")})
    for viewer in (area.hex_at((0, 0), "0101"), area.hex_at((0, 1), "0809")):
        _agree(area, viewer, 2, 1)
        _agree(area, viewer, 3, 0, max_range=12)
    assert los._LINES.radius == 5


def test_MAP_5_steps_past_those_the_table_holds_are_drawn_on_the_spot(monkeypatch) -> None:
    """MAP-5: a table holding the first chunk of each line only (4 steps) gives the
    same masks and yes/no answers as line_of_sight on lines many chunks long."""
    _fresh_lines(monkeypatch, TABLE_CHUNKS=1, CHUNK_STEPS=4)
    area = PlayArea.from_layout({(0, 0): random_sheet(61, "a"), (1, 0): random_sheet(62, "b")})
    hexes = area.hexes()
    for viewer in (area.hex_at((0, 0), "0101"), area.hex_at((1, 0), "0809")):
        _agree(area, viewer, 2, 1)
        _agree(area, viewer, 1, 0, max_range=14)
        for target in hexes[::5]:
            expected = line_of_sight(area, viewer, target).visible
            assert in_sight(area, viewer, target) == expected
    assert len(los._LINES.segment_of) == 1 and los._LINES.radius > 20


def test_MAP_5_one_relative_table_serves_every_area_and_only_grows() -> None:
    """MAP-5: lines are translation invariant: the table built for one area answers
    another, and a growing area appends rings to it without rebuilding what exists."""
    lines = los._LINES
    small = PlayArea.from_layout({(0, 0): random_sheet(31, "a")})
    visible_from(small, small.hex_at((0, 0), "0808"))
    built = lines.radius
    before = [
        lines.steps(k, np.arange(los._chunk_start(k), los._ring_start(built + 1)))
        for k in range(len(lines.segment_of))
    ]
    other = PlayArea.from_layout({(4, -2): random_sheet(32, "b"), (5, -2): random_sheet(33, "c")})
    _agree(other, other.hex_at((4, -2), "1501"), 2, 1)
    assert lines is los._LINES and lines.radius >= built
    for k, old in enumerate(before):
        now = lines.steps(k, np.arange(los._chunk_start(k), los._ring_start(built + 1)))
        assert np.array_equal(now, old)


def test_MAP_5_the_table_grows_a_bounded_step_at_a_time() -> None:
    """MAP-5: one call adds about GROW_ENTRIES line steps at most, whole rings or
    part of one (no long pause in a new process or when a mobile map grows)."""
    lines = los._RelativeLines()
    for _ in range(3):
        before = lines.rows
        lines.grow(250)
        held = los.TABLE_CHUNKS * los.CHUNK_STEPS  # steps of a line the table holds
        added = sum(min(los._ring_of(row) - 1, held) for row in range(before, lines.rows))
        assert before < lines.rows and added <= los.GROW_ENTRIES
    assert lines.radius < 250
    assert los._ring_start(lines.radius + 1) <= lines.rows < los._ring_start(lines.radius + 2)
    lines.grow(12, budget=10**9)
    assert lines.radius >= 12


def test_MAP_5_visible_from_agrees_with_a_table_grown_part_of_a_ring_at_a_time(
    monkeypatch,
) -> None:
    """MAP-5: with rows built a few dozen at a time (rings half built), every call
    still gives line_of_sight's mask, and the table ends holding every ring asked."""
    _fresh_lines(monkeypatch, GROW_ENTRIES=700)
    area = PlayArea.from_layout({(0, 0): random_sheet(51, "a"), (1, 0): random_sheet(52, "b")})
    viewer = area.hex_at((0, 0), "0101")
    far = int(distances(viewer, area.q, area.r).max())
    half_built = []
    for _ in range(4):
        _agree(area, viewer, 2, 1)
        rows = los._LINES.rows
        half_built.append(rows != los._ring_start(los._ring_of(rows)))
    assert any(half_built)
    while los._LINES.radius < far:
        visible_from(area, viewer)
    _agree(area, viewer, 2, 1)


def test_MAP_5_ring_of_a_row() -> None:
    """MAP-5: each row of the table belongs to the ring of its distance."""
    q, r = los._ring_hexes(2, 9)
    rows = np.arange(los._ring_start(2), los._ring_start(10))
    assert [los._ring_of(int(k)) for k in rows] == distances(Hex(0, 0), q, r).tolist()


def test_MAP_5_table_lines_stay_within_one_hex_of_their_ends() -> None:
    """MAP-5: every relative line keeps each axial coordinate within one of its ends'
    range, the one-cell margin of the sight grid the gather relies on."""
    lines = los._RelativeLines()
    lines.grow(128, budget=10**9)
    limit, side = lines.limit, 2 * lines.limit + 1
    q, r = los._ring_hexes(2, lines.radius)
    rows = lines.row_of[(q + limit) * side + (r + limit)]
    assert np.array_equal(rows, np.arange(los._ring_start(2), los._ring_start(lines.radius + 1)))
    for k in range(len(lines.segment_of)):
        sel = rows >= los._chunk_start(k)
        deltas = lines.steps(k, rows[sel])
        sq, sr = np.divmod(deltas + los._PAD, los._STRIDE)
        sr -= los._PAD
        used = deltas != los._PAD
        eq, er = q[sel][:, None], r[sel][:, None]
        assert not np.any(used & ((sq < np.minimum(eq, 0) - 1) | (sq > np.maximum(eq, 0) + 1)))
        assert not np.any(used & ((sr < np.minimum(er, 0) - 1) | (sr > np.maximum(er, 0) + 1)))


def test_MAP_5_visible_from_follows_the_area_when_it_grows() -> None:
    """MAP-5/MAP-6: after add_sheet the mask covers the new hexes and still agrees."""
    area = PlayArea.from_layout({(0, 0): random_sheet(11, "a")})
    viewer = area.hex_at((0, 0), "0808")
    assert visible_from(area, viewer).shape == (len(area),)
    area.add_sheet((-1, 0), random_sheet(12, "b"))
    area.add_sheet((-1, -1), random_sheet(13, "c"))
    _agree(area, viewer, 2, 1)
    assert visible_hexes(area, viewer) == [
        h for h, seen in zip(area.hexes(), visible_from(area, viewer).tolist(), strict=True) if seen
    ]


@pytest.mark.parametrize("steps", [1, 5, 11, 16])
def test_MAP_5_visible_from_agrees_whatever_the_chunk_of_steps(monkeypatch, steps: int) -> None:
    """MAP-5: gathering the lines a few steps at a time, dropping the blocked ones,
    gives the same mask as line_of_sight."""
    _fresh_lines(monkeypatch, CHUNK_STEPS=steps)
    area = PlayArea.from_layout({(0, 0): random_sheet(21, "a"), (1, 0): random_sheet(22, "b")})
    for viewer in (area.hex_at((0, 0), "0101"), area.hex_at((1, 0), "0809")):
        _agree(area, viewer, 2, 1)
        _agree(area, viewer, 1, 0, max_range=9)


@pytest.mark.parametrize("at_once", [0, 200, 10**9])
def test_MAP_5_the_rest_of_the_open_lines_drawn_at_once_agrees(monkeypatch, at_once: int) -> None:
    """MAP-5: the steps left of the lines still open after a chunk, drawn in one go
    (``_REST_AT_ONCE`` line steps at most) rather than chunk by chunk, give the
    same mask as line_of_sight, within the table and beyond what it holds."""
    _fresh_lines(monkeypatch, TABLE_CHUNKS=2, CHUNK_STEPS=4, _REST_AT_ONCE=at_once)
    area = PlayArea.from_layout({(0, 0): random_sheet(23, "a"), (1, 0): random_sheet(24, "b")})
    for viewer in (area.hex_at((0, 0), "0101"), area.hex_at((1, 0), "0809")):
        _agree(area, viewer, 2, 1)
        _agree(area, viewer, 1, 0, max_range=13)
        full = visible_from(area, viewer)
        for among in (area.sheet_i == 1, np.arange(len(area)) % 37 == 0):
            assert np.array_equal(visible_from(area, viewer, among=among), full & among)


def test_MAP_5_the_shared_runs_are_exactly_each_rows_own_steps() -> None:
    """MAP-5: a chunk keeps each distinct run of steps once; every row reads back
    exactly the steps of its own line, and rows share runs (far fewer runs than rows)."""
    lines = los._RelativeLines()
    lines.grow(128, budget=10**9)
    limit, side = lines.limit, 2 * lines.limit + 1
    q, r = los._ring_hexes(2, lines.radius)
    rows = lines.row_of[(q + limit) * side + (r + limit)]
    for k in range(len(lines.segment_of)):
        sel = rows >= los._chunk_start(k)
        own = los._deltas(q[sel], r[sel], k * los.CHUNK_STEPS + 1, los.CHUNK_STEPS)
        assert np.array_equal(lines.steps(k, rows[sel]), own)
    assert len(lines._keys[0]) * 20 < los._ring_start(lines.radius + 1)


def test_MAP_5_runs_longer_than_a_key_holds_are_refused() -> None:
    """MAP-5: a run's key packs its steps in 64 bits; longer runs are a clear error."""
    deltas = los._deltas(np.array([40]), np.array([-3]), 1, 30)
    with pytest.raises(ValueError, match="runs of 30 steps within 256 hexes need longer keys"):
        los._run_keys(deltas, 256)


def _area_beyond_the_limits(monkeypatch, layout: dict) -> PlayArea:
    """An area larger than game/limits.py allows (sight must not rest on the limit)."""
    monkeypatch.setattr("game.board.area.area_refusal", lambda positions: None)
    return PlayArea.from_layout(layout)


def _agree_sampled(area: PlayArea, viewer: Hex, every: int) -> None:
    """visible_from (asked about every ``every``-th hex and the hexes within 20) and
    in_sight against the exact line."""
    hexes = area.hexes()
    asked = np.zeros(len(area), dtype=bool)
    asked[::every] = True
    asked |= distances(viewer, area.q, area.r) <= 20
    mask = visible_from(area, viewer, among=asked)
    for k in np.flatnonzero(asked).tolist():
        expected = line_of_sight(area, viewer, hexes[k]).visible
        assert bool(mask[k]) == expected, (viewer, hexes[k])
    for k in range(0, len(hexes), every):
        assert in_sight(area, viewer, hexes[k]) == bool(mask[k]), (viewer, hexes[k])


def test_MAP_5_sight_on_an_area_taller_than_the_sight_grid(monkeypatch) -> None:
    """MAP-5: an area 130 sheets tall spans more axial rows than a column of the
    sight grid holds (``_PAD``; the old grid held 1,024): sight there is drawn line
    by line and still follows the exact line, from both ends and the middle."""
    sheets = [random_sheet(60 + k, f"t{k}") for k in range(4)]
    area = _area_beyond_the_limits(monkeypatch, {(0, j): sheets[j % 4] for j in range(130)})
    assert int(area.r.max() - area.r.min()) > los._PAD
    for viewer in (area.hex_at((0, 0), "0101"), area.hex_at((0, 64), "0809")):
        _agree_sampled(area, viewer, 331)
    _agree_sampled(area, area.hex_at((0, 129), "1517"), 331)


def test_MAP_5_every_allowed_area_is_answered_from_the_sight_grid(monkeypatch) -> None:
    """MAP-5: the allowed area with the most axial rows (a staircase of sheets up
    to the north-east across the whole 48 x 48 span: each column of hexes sits half
    a hex lower than the one before) spans more rows than the old 1,024-row grid
    held, and still fits a column of the sight grid, so sight there is read from
    the tables; an area 70 sheets tall is too."""
    stairs = {(k // 2 + k % 2, -(k // 2)): random_sheet(70 + k % 3, f"s{k % 3}") for k in range(95)}
    area = PlayArea.from_layout(stairs)
    assert (AREA_SPAN_LIMIT - 1, 1 - AREA_SPAN_LIMIT) in area.positions
    assert los._grids(area).height > 1024  # more rows than the old grid held
    tall = _area_beyond_the_limits(
        monkeypatch, {(0, j): random_sheet(80 + j % 3, f"u{j % 3}") for j in range(70)}
    )
    for big in (area, tall):
        assert los._grids(big).height <= los._PAD
        monkeypatch.setattr(los, "_visible_from_lines", None)  # the line-by-line path is not used
        corner = big.hexes()[0]
        mask = visible_from(big, corner)
        monkeypatch.undo()
        hexes = big.hexes()
        for k in range(0, len(hexes), 97):
            assert bool(mask[k]) == line_of_sight(big, corner, hexes[k]).visible


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"CHUNK_STEPS": 4, "TABLE_CHUNKS": 2},
        {"CHUNK_STEPS": 4, "TABLE_CHUNKS": 1, "_REST_AT_ONCE": 40},
        {"GROW_ENTRIES": 400},
        {"TABLE_RADIUS": 7},
        {"_AT_ONCE_LINES": 0},
        {"_AT_ONCE_LINES": 1 << 20, "CHUNK_STEPS": 4},
    ],
)
def test_MAP_5_hexes_asked_a_few_at_a_time_agree_with_line_of_sight(monkeypatch, settings) -> None:
    """MAP-5: a few hexes asked (``among``: a handful to a few hundred, with and
    without a range) and a viewer's small disk are read whole line by line
    (``_few_asked``, ``_disk_seen``): the same answer as line_of_sight for every
    hex, for random viewers (one in the notch off the area), heights and masks,
    whatever the table holds (short chunks, few of them, half built, a small
    radius with far lines drawn), the lines read in two goes or all at once."""
    _fresh_lines(monkeypatch, **settings)
    rng = np.random.default_rng(sum(settings.values()) + 5)
    area = PlayArea.from_layout(
        {
            (0, 0): random_sheet(91, "a"),
            (1, 0): random_sheet(92, "b"),
            (1, 1): random_sheet(93, "c"),
        }
    )
    hexes = area.hexes()
    notch = sheet_hex((0, 1), 4, 4)
    assert not area.contains(notch)
    for k in range(14):
        viewer = notch if k == 0 else hexes[int(rng.integers(len(hexes)))]
        vh, th = int(rng.integers(0, 5)), int(rng.integers(0, 4))
        max_range = None if k % 3 else int(rng.integers(0, 30))
        among = rng.random(len(area)) < rng.choice([0.004, 0.03, 0.3])
        if k % 5 == 4:  # the whole disk within a short range
            among, max_range = None, int(rng.integers(0, 16))
        mask = visible_from(area, viewer, max_range, vh, th, among)
        for i, h in enumerate(hexes):
            asked = (among is None or among[i]) and (
                max_range is None or distance(viewer, h) <= max_range
            )
            expected = asked and line_of_sight(area, viewer, h, vh, th).visible
            assert bool(mask[i]) == expected, (viewer, h, vh, th, max_range)


def test_MAP_5_a_viewer_asked_about_its_own_hex_among_a_few_sees_it(monkeypatch) -> None:
    """MAP-5: a few hexes asked at once (``_few_asked`` reading every line whole) with
    the viewer's own hex and its neighbours among them: each answered as
    line_of_sight answers it (the own hex and the next ones always seen, nothing
    between), whatever lies on the far lines of a table built to its edge (the
    own hex has no row of its own), for many viewers on rough random ground."""
    _fresh_lines(monkeypatch, TABLE_RADIUS=40)
    los._LINES.grow(40, budget=1 << 30)
    rng = np.random.default_rng(41)
    area = PlayArea.from_layout({(0, 0): random_sheet(94, "d"), (1, 0): random_sheet(95, "e")})
    hexes = area.hexes()
    index = {h: i for i, h in enumerate(hexes)}
    for _ in range(60):
        viewer = hexes[int(rng.integers(len(hexes)))]
        near = [viewer, *(h for h in neighbors(viewer) if h in index)]
        far = [hexes[int(k)] for k in rng.integers(len(hexes), size=3)]
        among = np.zeros(len(area), dtype=bool)
        among[[index[h] for h in (*near, *far)]] = True
        mask = visible_from(area, viewer, 12, 1, 0, among)
        for h in near:
            assert mask[index[h]], (viewer, h)
        for h in far:
            expected = distance(viewer, h) <= 12 and line_of_sight(area, viewer, h, 1, 0).visible
            assert bool(mask[index[h]]) == expected, (viewer, h)


def test_MAP_5_line_steps_in_single_precision_equal_double_precision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MAP-5: the lines worked out in single precision (where ``_line_hexes`` judges it
    exact) are those of double precision: every step of every line out to 160
    hexes, read as the table and the draws read them, and lines of some 500 hexes,
    at the edge of the precision's margin, read to their end."""
    q, r = los._ring_hexes(1, 160)
    far_q, far_r = los._ring_hexes(495, 500)
    pick = np.random.default_rng(11).choice(far_q.size, 400, replace=False)
    far_q, far_r = far_q[pick], far_r[pick]
    asked = [(q, r, first, los.CHUNK_STEPS) for first in range(1, 161, los.CHUNK_STEPS)]
    asked += [(q, r, 1, 160), (far_q, far_r, 1, 250), (far_q, far_r, 251, 250)]
    for bq, br, first, steps in asked:
        ends = los._line_ends(bq, br)
        assert int(ends[3].max()) * (4 * (first + steps) + 2) <= los._SINGLE_EXACT
        single = los._line_hexes(ends, first, steps)
        monkeypatch.setattr(los, "_SINGLE_EXACT", -1)  # double precision only
        double = los._line_hexes(ends, first, steps)
        monkeypatch.undo()
        for a, b in zip(single, double, strict=True):
            assert np.array_equal(a, b), (first, steps)
