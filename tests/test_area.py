"""The play area: one global lattice, names, sides, growth (MAP-1, MAP-2, MAP-3, MAP-6)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.board.area import (
    AreaError,
    PlayArea,
    global_offset,
    locate,
    sheet_hex,
)
from game.board.los import line_of_sight
from game.board.sheet import SHEET_COLS, SHEET_ROWS, Sheet, format_xxyy
from game.board.terrain import BUILDING, CLEAR, HEAVY_WOODS, LIGHT_WOODS, ROUGH, WATER
from game.hexmath import Hex, distance, hex_to_pixel, line, neighbor, neighbors
from tests.sheet_factory import make_sheet

OPEN = make_sheet("open", category="flat")
CATALOGUE = {"open": OPEN, "rough": make_sheet("rough", {"0101": "1r"}, category="mixed")}


def grid_layout(cols: range, rows: range, sheet: str | Sheet = "open") -> dict:
    return {(i, j): sheet for i in cols for j in rows}


def local_neighbours(c: int, r: int) -> list[tuple[int, int]]:
    """MAP-1 on a printed sheet: odd (0-based) columns sit half a hex lower."""
    if c & 1:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r), (c + 1, r), (c - 1, r + 1), (c + 1, r + 1)]
    else:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c + 1, r - 1), (c - 1, r), (c + 1, r)]
    return [(a, b) for a, b in cand if 0 <= a < SHEET_COLS and 0 <= b < SHEET_ROWS]


# --- MAP-2: one lattice -----------------------------------------------------------------


@pytest.mark.parametrize("pos", [(0, 0), (1, 0), (-1, 0), (1, 1), (-1, -1), (3, -2)])
def test_MAP_2_every_neighbour_pair_inside_a_sheet_stays_adjacent(pos: tuple[int, int]) -> None:
    """MAP-2: a sheet's own adjacency is exact wherever it lies, odd i included."""
    for c, r in itertools.product(range(SHEET_COLS), range(SHEET_ROWS)):
        h = sheet_hex(pos, c, r)
        for c2, r2 in local_neighbours(c, r):
            assert distance(h, sheet_hex(pos, c2, r2)) == 1, (pos, c, r, c2, r2)
        # and nothing else on the sheet is adjacent
        adjacent = {
            (c2, r2)
            for c2, r2 in itertools.product(range(SHEET_COLS), range(SHEET_ROWS))
            if distance(h, sheet_hex(pos, c2, r2)) == 1
        }
        assert adjacent == set(local_neighbours(c, r))


@pytest.mark.parametrize("pos", [(0, 0), (1, 0), (-1, 0), (1, 1), (-1, -1)])
def test_MAP_1_odd_local_columns_sit_half_a_hex_lower_on_every_sheet(pos: tuple[int, int]) -> None:
    """MAP-1/MAP-2: 0201 is half a hex lower than 0101 and 0301 on every sheet position."""
    size = 1.0
    y = {c: hex_to_pixel(sheet_hex(pos, c, 0), size)[1] for c in range(3)}
    half = np.sqrt(3) / 2
    assert y[1] - y[0] == pytest.approx(half)
    assert y[2] == pytest.approx(y[0])


def test_MAP_2_mapping_formula_from_the_rules() -> None:
    """MAP-2: (c, r) on sheet (i, j) -> global offset (15i + c, 17j + r + (c & 1)(i & 1))."""
    assert global_offset((0, 0), 0, 0) == (0, 0)
    assert global_offset((1, 0), 0, 0) == (15, 0)
    assert global_offset((1, 0), 1, 0) == (16, 1)
    assert global_offset((-1, 2), 3, 4) == (-12, 34 + 4 + 1)
    assert global_offset((2, -1), 3, 4) == (33, -17 + 4)


@given(st.integers(-400, 400), st.integers(-400, 400))
def test_MAP_2_every_lattice_hex_belongs_to_exactly_one_sheet_position(q: int, r: int) -> None:
    """MAP-2: sheets tile the lattice without overlap or hole; locate inverts sheet_hex."""
    h = Hex(q, r)
    pos, c, rr = locate(h)
    assert 0 <= c < SHEET_COLS and 0 <= rr < SHEET_ROWS
    assert sheet_hex(pos, c, rr) == h


def test_MAP_2_joins_between_sheets_are_seamless() -> None:
    """MAP-2: around the middle sheet of a 3x3 area every hex has all six neighbours,
    and each neighbour across a border lies on the adjacent sheet."""
    area = PlayArea.from_layout(grid_layout(range(-1, 2), range(-1, 2)), sheets=CATALOGUE)
    assert len(area) == 9 * SHEET_COLS * SHEET_ROWS
    assert len(set(area.hexes())) == len(area)  # no overlaps
    middle = [sheet_hex((0, 0), c, r) for c in range(15) for r in range(17)]
    for h in middle:
        for n in neighbors(h):
            assert area.contains(n)  # no holes
    # Across each border the neighbour is on the sheet one step that way.
    for c in range(SHEET_COLS):
        top, bottom = sheet_hex((0, 0), c, 0), sheet_hex((0, 0), c, 16)
        assert area.name_of(neighbor(top, 1)) == ((0, -1), format_xxyy(c, 16))
        assert area.name_of(neighbor(bottom, 4)) == ((0, 1), format_xxyy(c, 0))
    for r in range(SHEET_ROWS):
        # The middle sheet's west and east columns meet columns 15 and 01 of its neighbours.
        for d in (2, 3):
            pos, name = area.name_of(neighbor(sheet_hex((0, 0), 14, r), d))
            assert pos in {(1, -1), (1, 0), (1, 1)} and name[:2] == "01"
        for d in (5, 6):
            pos, name = area.name_of(neighbor(sheet_hex((0, 0), 0, r), d))
            assert pos in {(-1, -1), (-1, 0), (-1, 1)} and name[:2] == "15"


@pytest.mark.parametrize("i", [-2, -1, 0, 1])
def test_MAP_2_horizontal_join_neighbours_for_even_and_odd_sheet_columns(i: int) -> None:
    """MAP-2: the east column of sheet i meets the west column of sheet i+1 hex to hex;
    a sheet at odd i sits half a hex lower (the saw-tooth edge)."""
    for r in range(1, SHEET_ROWS - 1):
        h = sheet_hex((i, 0), 14, r)
        across = sorted(locate(neighbor(h, d)) for d in (2, 3))
        expected_rows = [r - 1, r] if i % 2 == 0 else [r, r + 1]
        assert across == [((i + 1, 0), 0, rr) for rr in expected_rows]


def test_MAP_2_a_line_across_three_sheets_has_no_gaps() -> None:
    """MAP-2/MAP-5: a hex line crosses sheet borders seamlessly."""
    area = PlayArea.from_layout(grid_layout(range(-1, 2), range(0, 1)), sheets=CATALOGUE)
    a = area.hex_at((-1, 0), "0105")
    b = area.hex_at((1, 0), "1512")
    path = line(a, b)
    assert all(distance(x, y) == 1 for x, y in itertools.pairwise(path))
    assert all(area.contains(h) for h in path)
    assert [p for p, _ in itertools.groupby(area.position_of(h) for h in path)] == [
        (-1, 0),
        (0, 0),
        (1, 0),
    ]


def test_MAP_1_xxyy_round_trips_on_every_hex_of_a_3x3_area() -> None:
    """MAP-1/MAP-2: hex_at and name_of are inverse on every hex of nine sheets."""
    area = PlayArea.from_layout(grid_layout(range(-1, 2), range(-1, 2)), sheets=CATALOGUE)
    seen = set()
    for pos in area.positions:
        for c in range(SHEET_COLS):
            for r in range(SHEET_ROWS):
                name = format_xxyy(c, r)
                h = area.hex_at(pos, name)
                assert area.name_of(h) == (pos, name)
                seen.add(h)
    assert len(seen) == len(area)


def test_MAP_2_index_grid_finds_every_hex_and_nothing_else() -> None:
    """MAP-2: the dense index grid gives each hex its array index; outside hexes give -1."""
    area = PlayArea.from_layout({(0, 0): "open", (1, 0): "open", (1, 1): "open"}, sheets=CATALOGUE)
    for k, h in enumerate(area.hexes()):
        assert area.index_of(h) == k
    assert np.array_equal(area.indices_of(area.q, area.r), np.arange(len(area)))
    outside = [area.hex_at((0, 0), "0117") + Hex(0, 1), sheet_hex((0, 1), 5, 5), Hex(500, -900)]
    assert [area.contains(h) for h in outside] == [False, False, False]
    assert area.indices_of(*np.array(outside).T).tolist() == [-1, -1, -1]


def test_MAP_2_indices_of_any_hexes_are_their_single_indices() -> None:
    """MAP-2: the index grid read at once, for hexes in the area, in its notches,
    around its edges and far off it (any array shape and integer type), gives
    each the index ``index_of`` gives, on a grown area too."""
    area = PlayArea.from_layout({(0, 0): "open", (1, 0): "open", (1, 1): "open"}, sheets=CATALOGUE)
    rng = np.random.default_rng(5)
    for grown in (False, True):
        if grown:
            area.add_sheet((-1, 0), "open")
        q = np.concatenate([rng.integers(-40, 60, 400), [10**6, -(10**6), 0]])
        r = np.concatenate([rng.integers(-50, 70, 400), [0, 5, -(10**6)]])
        expected = [area.index_of(Hex(a, b)) for a, b in zip(q.tolist(), r.tolist(), strict=True)]
        assert 0 < sum(k >= 0 for k in expected) < len(expected)
        assert area.indices_of(q, r).tolist() == expected
        assert area.indices_of(q.astype(np.int32), r.astype(np.int32)).tolist() == expected
        square = area.indices_of(q[:400].reshape(20, 20), r[:400].reshape(20, 20))
        assert square.shape == (20, 20) and square.ravel().tolist() == expected[:400]


def test_MAP_4_area_terrain_arrays_follow_the_sheets() -> None:
    """MAP-4/MAP-5: whole-area arrays line up with q, r and carry LOS heights."""
    sheet = make_sheet(
        "mixed",
        {"0203": "2w", "0204": "1W", "0305": "3#=", "0406": "-1~2", "0507": "0r=", "0608": "4."},
        buildings={"0305": (40, 3)},
        category="mixed",
    )
    area = PlayArea.from_layout({(0, 0): OPEN, (1, 0): sheet, (1, -1): OPEN})
    idx = {name: area.index_of(area.hex_at((1, 0), name)) for name in ("0203", "0204", "0305")}
    assert area.terrain[idx["0203"]] == LIGHT_WOODS and area.woods[idx["0203"]] == 1
    assert area.terrain_height[idx["0203"]] == 2 and area.obstacle_top[idx["0203"]] == 4
    assert area.terrain[idx["0204"]] == HEAVY_WOODS and area.woods[idx["0204"]] == 2
    assert area.terrain[idx["0305"]] == BUILDING
    assert area.building_cf[idx["0305"]] == 40 and area.terrain_height[idx["0305"]] == 3
    assert area.road[idx["0305"]] and area.obstacle_top[idx["0305"]] == 6
    w = area.index_of(area.hex_at((1, 0), "0406"))
    assert area.terrain[w] == WATER and area.water_depth[w] == 2 and area.level[w] == -1
    # Every hex agrees with its own sheet's arrays.
    for k, h in enumerate(area.hexes()):
        pos, name = area.name_of(h)
        c, r = int(name[:2]) - 1, int(name[2:]) - 1
        s = area.sheet_at(pos)
        assert area.level[k] == s.level[r, c]
        assert area.terrain[k] == s.terrain[r, c]
        assert (area.q[k], area.r[k]) == tuple(h)
    assert area.terrain[area.index_of(area.hex_at((0, 0), "0203"))] == CLEAR


# --- MAP-3: sides and the half-line -------------------------------------------------------


def _sides_by_row(area: PlayArea, pos: tuple[int, int]) -> dict[int, set]:
    out: dict[int, set] = {}
    for c in range(SHEET_COLS):
        for r in range(SHEET_ROWS):
            out.setdefault(r, set()).add(area.side_of(sheet_hex(pos, c, r)))
    return out


def test_MAP_3_sides_on_a_2x2_area() -> None:
    """MAP-3: four sheets, north-south: the top two sheets are north, the bottom two south."""
    area = PlayArea.from_layout(grid_layout(range(2), range(2)), sheets=CATALOGUE)
    assert area.half_line == 1.0
    assert [area.side_of_position(p) for p in [(0, 0), (1, 0), (0, 1), (1, 1)]] == [
        "north",
        "north",
        "south",
        "south",
    ]
    for h in area.hexes():
        assert area.side_of(h) == area.side_of_position(area.position_of(h))
    assert int(area.side_mask(None).sum()) == 0
    assert int(area.side_mask("north").sum()) == int(area.side_mask("south").sum()) == 510


def test_MAP_3_the_middle_sheets_of_a_3x3_area_belong_to_neither_side() -> None:
    """MAP-3: 3x3, north-south: the middle row of sheets has its centre on the line; its
    row 09 is on the line, rows 01-08 north and 10-17 south."""
    area = PlayArea.from_layout(grid_layout(range(3), range(3)), sheets=CATALOGUE)
    assert area.half_line == 1.5
    assert area.side_of_position((1, 0)) == "north"
    assert area.side_of_position((1, 1)) is None
    assert area.side_of_position((1, 2)) == "south"
    rows = _sides_by_row(area, (1, 1))
    assert all(rows[r] == {"north"} for r in range(8))
    assert rows[8] == {None}
    assert all(rows[r] == {"south"} for r in range(9, 17))
    assert int(area.side_mask(None).sum()) == 3 * SHEET_COLS
    mask = area.side_mask("north")
    north = [h for h, m in zip(area.hexes(), mask.tolist(), strict=True) if m]
    assert len(north) == 3 * 255 + 3 * 8 * SHEET_COLS
    assert all(area.side_of(h) == "north" for h in north)


def test_MAP_3_west_east_home_edges() -> None:
    """MAP-3: west-east home edges: the line runs north-south through column 08 of the
    middle column of a 3x3 area."""
    area = PlayArea.from_layout(
        grid_layout(range(3), range(3)), home_edges="west-east", sheets=CATALOGUE
    )
    assert area.sides == ("west", "east")
    assert area.side_of_position((0, 2)) == "west"
    assert area.side_of_position((1, 0)) is None
    assert area.side_of_position((2, 1)) == "east"
    for r in range(SHEET_ROWS):
        cols = [area.side_of(sheet_hex((1, 1), c, r)) for c in range(SHEET_COLS)]
        assert cols == ["west"] * 7 + [None] + ["east"] * 7
    two = PlayArea.from_layout(grid_layout(range(2), range(2)), "west-east", sheets=CATALOGUE)
    assert {two.side_of(h) for h in two.hexes() if two.position_of(h)[0] == 0} == {"west"}
    assert {two.side_of(h) for h in two.hexes() if two.position_of(h)[0] == 1} == {"east"}


def test_MAP_3_half_line_extends_past_the_area_and_stays_put_when_sheets_are_added() -> None:
    """MAP-3/MAP-7: the line is fixed by the starting layout and extends both ways."""
    area = PlayArea.from_layout(grid_layout(range(2), range(2)), sheets=CATALOGUE)
    assert area.side_of_position((9, 0)) == "north"
    assert area.side_of_position((-7, 3)) == "south"
    assert area.side_of(sheet_hex((-5, 1), 3, 3)) == "south"
    area.add_sheet((0, 2), "open")
    area.add_sheet((0, 3), "open")
    assert area.half_line == 1.0
    assert area.side_of_position((0, 1)) == "south"
    assert area.side_of_position((0, 0)) == "north"


@pytest.mark.parametrize("home_edges", ["north-south", "west-east"])
def test_MAP_3_free_positions_on_a_side_are_those_asked_one_by_one(home_edges: str) -> None:
    """MAP-3/MAP-6: ``free_on_side`` keeps, in order, the positions that hold no sheet
    and lie on the side's half, as ``has_sheet`` and ``side_of_position`` answer each
    (the middle row or column on the line: no side), after a sheet is laid too."""
    area = PlayArea.from_layout(grid_layout(range(3), range(3)), home_edges, sheets=CATALOGUE)
    square = [(i, j) for i in range(-4, 7) for j in range(6, -5, -1)]
    for laid in (None, (1, 3) if home_edges == "north-south" else (3, 1)):
        if laid is not None:
            area.add_sheet(laid, "open")
        for side in (*area.sides, None):
            expected = [
                p for p in square if not area.has_sheet(p) and area.side_of_position(p) == side
            ]
            assert area.free_on_side(square, side) == expected
            assert expected


# --- MAP-6: growth ------------------------------------------------------------------------


def test_MAP_6_add_sheet_at_negative_positions_keeps_existing_hex_names() -> None:
    """MAP-2/MAP-6: positions are never re-indexed; old hexes keep hex and name."""
    area = PlayArea.from_layout({(0, 0): "open", (1, 0): "open"}, sheets=CATALOGUE)
    before = {h: area.name_of(h) for h in area.hexes()}
    area.add_sheet((-1, 0), "rough")
    area.add_sheet((-1, -1), "open")
    assert area.positions == ((0, 0), (1, 0), (-1, 0), (-1, -1))
    assert len(area) == 4 * SHEET_COLS * SHEET_ROWS
    for h, name in before.items():
        assert area.name_of(h) == name
    assert area.revision == 2
    h = area.hex_at((-1, 0), "0101")
    assert area.obstacle_top[area.index_of(h)] == 1  # the rough sheet's 1r
    assert area.name_of(h) == ((-1, 0), "0101")


def test_MAP_6_hex_index_after_sheets_are_laid_and_in_snapshots() -> None:
    """MAP-2/MAP-6: a laid sheet's hexes go at the end of the arrays, so the hex index
    and the list of hexes built before go on with them; a snapshot taken before
    still answers for its own smaller area, and a building demolished (ART-29)
    keeps every index."""
    area = PlayArea.from_layout({(0, 0): "open", (1, 0): "open"}, sheets=CATALOGUE)
    old_hexes = area.hexes()
    assert area.index_of(old_hexes[-1]) == len(old_hexes) - 1
    before = area.snapshot()
    area.add_sheet((0, 1), "rough")
    area.add_sheet((-1, 0), "open")
    fresh = PlayArea.from_layout(
        {(0, 0): "open", (1, 0): "open", (0, 1): "rough", (-1, 0): "open"}, sheets=CATALOGUE
    )
    rows = sorted(zip(area.q.tolist(), area.r.tolist(), strict=True))
    assert rows == sorted(zip(fresh.q.tolist(), fresh.r.tolist(), strict=True))
    assert area.hexes()[: len(old_hexes)] == old_hexes
    for k, h in enumerate(area.hexes()):
        assert area.index_of(h) == k and Hex(int(area.q[k]), int(area.r[k])) == h
    new_hex = area.hex_at((0, 1), "0808")
    assert before.index_of(new_hex) == -1 and not before.contains(new_hex)
    assert before.hexes() == old_hexes and len(before) == len(old_hexes)
    town = make_sheet("town", {"0805": "0#"}, buildings={"0805": (40, 3)})
    ruined = PlayArea.from_layout({(0, 0): town}, sheets={"town": town})
    building = ruined.hex_at((0, 0), "0805")
    listed = ruined.hexes()
    assert ruined.demolish(building)
    assert ruined.hexes() == listed
    assert [ruined.index_of(h) for h in listed] == list(range(len(listed)))


def test_MAP_6_add_sheet_refuses_taken_detached_and_unknown_positions() -> None:
    """MAP-6: a new sheet must share an edge with the area, on a free position."""
    area = PlayArea.from_layout({(0, 0): "open"}, sheets=CATALOGUE)
    with pytest.raises(AreaError, match=r"already holds sheet 'open'"):
        area.add_sheet((0, 0), "open")
    with pytest.raises(AreaError, match=r"does not touch the play area"):
        area.add_sheet((1, 1), "open")
    with pytest.raises(AreaError, match=r'unknown sheet id "swamp"'):
        area.add_sheet((1, 0), "swamp")
    with pytest.raises(AreaError, match="pair of whole numbers"):
        area.add_sheet((1.5, 0), "open")  # type: ignore[arg-type]
    assert area.positions == ((0, 0),)


def test_MAP_6_free_positions_by_edge() -> None:
    """MAP-6: the free sheet positions next to the area, overall and beyond each edge."""
    area = PlayArea.from_layout({(0, 0): "open", (1, 0): "open", (1, 1): "open"}, sheets=CATALOGUE)
    assert area.free_positions("north") == [(0, -1), (1, -1)]
    assert area.free_positions("south") == [(0, 1), (1, 2)]
    assert area.free_positions("west") == [(-1, 0), (0, 1)]
    assert area.free_positions("east") == [(2, 0), (2, 1)]
    assert set(area.free_positions()) == {(0, -1), (1, -1), (-1, 0), (2, 0), (0, 1), (2, 1), (1, 2)}
    west = area.edge_hexes("west")
    assert len(west) == 2 * SHEET_ROWS
    beyond = {area.position_of(neighbor(h, d)) for h in west for d in (5, 6)}
    assert beyond <= {(-1, -1), (-1, 0), (-1, 1), (0, 1), (0, 2)}
    assert not any(area.has_sheet(p) for p in beyond)


def test_MAP_2_from_layout_errors_are_clear() -> None:
    with pytest.raises(AreaError, match=r'sheet position \(0,1\): unknown sheet id "nope"'):
        PlayArea.from_layout({(0, 0): "open", (0, 1): "nope"}, sheets=CATALOGUE)
    with pytest.raises(AreaError, match="joined edge to edge"):
        PlayArea.from_layout({(0, 0): "open", (2, 0): "open"}, sheets=CATALOGUE)
    with pytest.raises(AreaError, match="home edges"):
        PlayArea.from_layout({(0, 0): "open"}, home_edges="up-down", sheets=CATALOGUE)
    with pytest.raises(AreaError, match="non-empty"):
        PlayArea.from_layout({}, sheets=CATALOGUE)
    area = PlayArea.from_layout({(0, 0): "open"}, sheets=CATALOGUE)
    with pytest.raises(AreaError, match=r"no sheet at \(3,3\)"):
        area.hex_at((3, 3), "0101")
    with pytest.raises(ValueError, match="column 16 is outside a sheet"):
        area.hex_at((0, 0), "1601")
    with pytest.raises(ValueError, match=r"not in the play area .*0101 on sheet position \(1,0\)"):
        area.name_of(sheet_hex((1, 0), 0, 0))
    with pytest.raises(AreaError, match="no sheet at position"):
        area.sheet_at((5, 5))


# --- edges, centre hexes, 0909 ------------------------------------------------------------


def test_ART_27_edge_centre_hexes_of_one_sheet() -> None:
    """ART-27: the centre hex of each play-area edge of a single sheet."""
    area = PlayArea.from_layout({(0, 0): "open"}, sheets=CATALOGUE)
    names = {edge: area.name_of(area.edge_centre(edge))[1] for edge in area_edges()}
    assert names == {"north": "0801", "south": "0817", "west": "0109", "east": "1509"}


def area_edges() -> tuple[str, ...]:
    return ("north", "south", "west", "east")


def test_ART_27_edge_centre_of_larger_and_grown_areas() -> None:
    """ART-27: 2x2: the middle of 30 columns falls between 1501 of (0,0) and 0101 of (1,0);
    the western one is taken. A grown, stepped north edge: its middle on the outermost sheet."""
    area = PlayArea.from_layout(grid_layout(range(2), range(2)), sheets=CATALOGUE)
    assert area.name_of(area.edge_centre("north")) == ((0, 0), "1501")
    assert area.name_of(area.edge_centre("west")) == ((0, 0), "0117")
    assert area.name_of(area.edge_centre("east")) == ((1, 0), "1517")
    assert area.name_of(area.edge_centre("south")) == ((0, 1), "1517")
    grown = PlayArea.from_layout(grid_layout(range(3), range(1)), sheets=CATALOGUE)
    grown.add_sheet((1, -1), "open")
    assert grown.name_of(grown.edge_centre("north")) == ((1, -1), "0801")
    assert {grown.position_of(h) for h in grown.outer_edge_hexes("north")} == {
        (0, 0),
        (1, -1),
        (2, 0),
    }


def test_ART_27_edge_beyond_an_off_board_position() -> None:
    """ART-27: which edge an off-board sheet position lies beyond (diagonals: home axis)."""
    area = PlayArea.from_layout(grid_layout(range(2), range(2)), sheets=CATALOGUE)
    assert area.edge_beyond((0, -3)) == "north"
    assert area.edge_beyond((1, 5)) == "south"
    assert area.edge_beyond((-2, 1)) == "west"
    assert area.edge_beyond((4, 0)) == "east"
    assert area.edge_beyond((-2, -2)) == "north"
    assert area.edge_beyond((-3, -2)) == "west"
    we = PlayArea.from_layout(grid_layout(range(2), range(2)), "west-east", sheets=CATALOGUE)
    assert we.edge_beyond((-2, -2)) == "west"
    with pytest.raises(AreaError, match="beyond no edge"):
        area.edge_beyond((1, 1))


def test_ART_24_hex_0909_of_any_sheet_position() -> None:
    """ART-24: hex 0909 of a sheet position, in the play area or off the board."""
    area = PlayArea.from_layout({(0, 0): "open"}, sheets=CATALOGUE)
    assert area.hex_0909((0, 0)) == area.hex_at((0, 0), "0909")
    far = area.hex_0909((3, -4))
    assert locate(far) == ((3, -4), 8, 8)
    assert not area.contains(far)
    assert area.position_of(far) == (3, -4)
    assert area.label(far) == "0909 of sheet position (3,-4), outside the play area"


def test_ART_5_position_of_any_hex_gives_the_sheet_that_would_hold_it() -> None:
    """ART-5/MAP-2: sheet positions of hexes off the area (artillery distances in sheets)."""
    area = PlayArea.from_layout({(0, 0): "open"}, sheets=CATALOGUE)
    for pos in [(-1, 0), (2, 5), (-3, -3), (1, -1)]:
        for c, r in [(0, 0), (14, 16), (7, 8), (1, 16)]:
            assert area.position_of(sheet_hex(pos, c, r)) == pos


def test_MAP_2_kept_sheet_places_answer_as_worked_out_anew() -> None:
    """MAP-2, MAP-3, ART-24: ``locate``, ``hex_0909`` and ``side_of_position`` keep their
    answers (pure geometry, a half-line that never moves); asked again, after the
    area grew and of hexes given as lists, they answer as worked out from scratch."""
    import game.board.area as area_module

    area = PlayArea.from_layout(grid_layout(range(2), range(2)), sheets=CATALOGUE)
    hexes = [
        sheet_hex((i, j), c, r) for i in (-3, 0, 2) for j in (-2, 1) for c, r in ((0, 0), (7, 8))
    ]
    positions = [(i, j) for i in range(-4, 5) for j in range(-4, 5)]

    def fresh() -> tuple[list, list, list]:
        area_module._LOCATED.clear()
        area_module._HEXES_0909.clear()
        area._position_sides.clear()
        return answers()

    def answers() -> tuple[list, list, list]:
        return (
            [locate(h) for h in hexes] + [locate([h.q, h.r]) for h in hexes],
            [area.hex_0909(p) for p in positions],
            [area.side_of_position(p) for p in positions],
        )

    worked_out = fresh()
    assert answers() == worked_out == answers()
    area.add_sheet((0, 2), "open")
    assert answers() == fresh()
    assert area.side_of_position((0, 1)) == "south"
    with pytest.raises(AreaError):
        area.hex_0909((True, 0))


# --- plain data --------------------------------------------------------------------------------


def test_MAP_6_to_dict_from_dict_round_trip_of_a_grown_area() -> None:
    """MAP-6: saves keep layout order, home edges and the half-line of the start."""
    area = PlayArea.from_layout(grid_layout(range(2), range(2)), "west-east", sheets=CATALOGUE)
    area.add_sheet((2, 1), "rough")
    area.add_sheet((3, 1), "open")
    data = area.to_dict()
    assert data == {
        "sheets": [
            {"position": [0, 0], "sheet": "open"},
            {"position": [1, 0], "sheet": "open"},
            {"position": [0, 1], "sheet": "open"},
            {"position": [1, 1], "sheet": "open"},
            {"position": [2, 1], "sheet": "rough"},
            {"position": [3, 1], "sheet": "open"},
        ],
        "home_edges": "west-east",
        "half_line": 1.0,
        "rubble": [],
    }
    back = PlayArea.from_dict(data, sheets=CATALOGUE)
    assert back.positions == area.positions
    assert back.half_line == 1.0
    assert np.array_equal(back.q, area.q) and np.array_equal(back.obstacle_top, area.obstacle_top)
    assert back.side_of_position((2, 1)) == "east"


def test_MAP_6_from_dict_errors_are_clear() -> None:
    with pytest.raises(AreaError, match='missing key "half_line"'):
        PlayArea.from_dict({"sheets": [], "home_edges": "north-south"}, sheets=CATALOGUE)
    with pytest.raises(AreaError, match="whole or half number"):
        PlayArea.from_dict(
            {
                "sheets": [{"position": [0, 0], "sheet": "open"}],
                "home_edges": "north-south",
                "half_line": 0.25,
            },
            sheets=CATALOGUE,
        )
    with pytest.raises(AreaError, match=r"sheets\[0\].position must be a pair"):
        PlayArea.from_dict(
            {
                "sheets": [{"position": "a1", "sheet": "open"}],
                "home_edges": "north-south",
                "half_line": 0.5,
            },
            sheets=CATALOGUE,
        )


def test_MAP_5_a_demolished_building_is_rubble_that_no_longer_blocks_sight() -> None:
    """MAP-5/ART-29: a building destroyed in play becomes rough ground at its level;
    sight passes over it, and the rubble survives saves and sheet growth."""
    town = make_sheet("town", {"0805": "0#"}, buildings={"0805": (40, 3)})
    area = PlayArea.from_layout({(0, 0): town}, sheets={"town": town})
    viewer, target = area.hex_at((0, 0), "0803"), area.hex_at((0, 0), "0807")
    assert not line_of_sight(area, viewer, target)
    revision = area.revision
    assert area.demolish(area.hex_at((0, 0), "0805"))
    assert area.revision > revision
    assert line_of_sight(area, viewer, target)
    i = area.index_of(area.hex_at((0, 0), "0805"))
    assert (int(area.terrain[i]), int(area.building_cf[i]), int(area.terrain_height[i])) == (
        ROUGH,
        0,
        0,
    )
    assert not area.demolish(area.hex_at((0, 0), "0805"))  # already rubble
    assert not area.demolish(area.hex_at((0, 0), "0101"))  # never a building
    restored = PlayArea.from_dict(area.to_dict(), sheets={"town": town})
    assert restored.rubble == area.rubble
    assert line_of_sight(restored, viewer, target)


def test_MAP_5_sight_terrain_lists_follow_the_area_as_it_changes() -> None:
    """MAP-5: the plain lists of level, obstacle top and woods read hex by hex along
    a line are the arrays' own after a building is demolished and a sheet laid,
    and a snapshot taken before keeps the lists of its time."""
    town = make_sheet("town", {"0805": "0#", "0806": "1W"}, buildings={"0805": (40, 3)})
    area = PlayArea.from_layout({(0, 0): town}, sheets={"town": town, "open": CATALOGUE["open"]})

    def arrays(a: PlayArea) -> tuple[list[int], list[int], list[int]]:
        return a.level.tolist(), a.obstacle_top.tolist(), a.woods.tolist()

    assert area.sight_terrain() == arrays(area)
    before = area.snapshot()
    assert area.demolish(area.hex_at((0, 0), "0805"))
    area.add_sheet((1, 0), "open")
    assert area.sight_terrain() == arrays(area) and len(area.sight_terrain()[0]) == len(area)
    assert before.sight_terrain() == arrays(before) != arrays(area)


def test_MAP_6_a_sheet_laid_appends_the_arrays_a_whole_build_would_make() -> None:
    """MAP-6: laying a sheet appends its hexes to the area arrays instead of making
    them all again; every array (values and types), the index grid and the hex
    lookups equal those of the same sheets and rubble built at once (ART-29)."""
    town = make_sheet(
        "town", {"0805": "0#", "0806": "1W", "0307": "2w"}, buildings={"0805": (40, 3)}
    )
    catalogue = {"town": town, **CATALOGUE}
    area = PlayArea.from_layout({(0, 0): town}, sheets=catalogue)
    area.index_of(area.hexes()[0])
    assert area.demolish(area.hex_at((0, 0), "0805"))
    for pos, sheet in (((1, 0), "town"), ((1, -1), "open"), ((-1, 0), "town"), ((0, 1), "open")):
        area.add_sheet(pos, sheet)
        whole = PlayArea.from_dict(area.to_dict(), sheets=catalogue)
        for name in (
            *("q", "r", "col", "row", "sheet_index", "sheet_i", "sheet_j", "local_col"),
            *("local_row", "level", "terrain", "water_depth", "road", "building_cf"),
            *("terrain_height", "woods", "obstacle_top", "grid"),
        ):
            mine, built = getattr(area, name), getattr(whole, name)
            assert mine.dtype == built.dtype and np.array_equal(mine, built), name
            assert not mine.flags.writeable
        assert area.grid_origin == whole.grid_origin and area.hexes() == whole.hexes()
        assert all(area.index_of(h) == k for k, h in enumerate(whole.hexes()))
        assert area.sheet_bounds() == whole.sheet_bounds()
