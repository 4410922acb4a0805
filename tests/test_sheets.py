"""The shipped map sheets and the sheet file parser (MAP-1, MAP-2, MAP-4, MAP-9).

Shipped sheets must load, be 15 x 17 hexes, cover every terrain category at
least twice, give every building a CF and a height, and keep to the edge
convention of docs/sheets.md: a road crossing north-south leaves at column 08
(rows 01 and 17), one crossing west-east at row 09 (columns 01 and 15), so
that roads run on from sheet to sheet. Rivers run edge to edge.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import numpy as np
import pytest

from game.board.sheet import (
    SHEET_COLS,
    SHEET_ROWS,
    SHEETS_DIR,
    Sheet,
    SheetError,
    available_sheets,
    format_xxyy,
    load_sheet,
    parse_sheet,
    parse_xxyy,
)
from game.board.terrain import BUILDING, CATEGORIES, WATER
from game.hexmath import distance, from_offset, neighbors, to_offset

SHEETS = available_sheets()
SHEET_IDS = sorted(SHEETS)

# Local 0-based (col, row) of the hexes where a road may cross a sheet edge.
NORTH_EXIT = (7, 0)  # 0801
SOUTH_EXIT = (7, 16)  # 0817
WEST_EXIT = (0, 8)  # 0109
EAST_EXIT = (14, 8)  # 1509
ROAD_EXITS = {NORTH_EXIT, SOUTH_EXIT, WEST_EXIT, EAST_EXIT}


def local_neighbours(col: int, row: int) -> list[tuple[int, int]]:
    """Neighbours inside one sheet; a sheet at grid (0, 0) has global = local offsets."""
    out = []
    for h in neighbors(from_offset(col, row)):
        c, r = to_offset(h)
        if 0 <= c < SHEET_COLS and 0 <= r < SHEET_ROWS:
            out.append((c, r))
    return out


def components(mask: np.ndarray) -> list[set[tuple[int, int]]]:
    """Connected groups of hexes where mask[row, col] is true."""
    seen: set[tuple[int, int]] = set()
    groups = []
    for r in range(SHEET_ROWS):
        for c in range(SHEET_COLS):
            if not mask[r, c] or (c, r) in seen:
                continue
            group = {(c, r)}
            queue = deque([(c, r)])
            while queue:
                for n in local_neighbours(*queue.popleft()):
                    if mask[n[1], n[0]] and n not in group:
                        group.add(n)
                        queue.append(n)
            seen |= group
            groups.append(group)
    return groups


def edges_touched(group: set[tuple[int, int]]) -> set[str]:
    touched = set()
    for c, r in group:
        if c == 0:
            touched.add("west")
        if c == SHEET_COLS - 1:
            touched.add("east")
        if r == 0:
            touched.add("north")
        if r == SHEET_ROWS - 1:
            touched.add("south")
    return touched


def names(cells: set[tuple[int, int]] | list[tuple[int, int]]) -> list[str]:
    return sorted(format_xxyy(c, r) for c, r in cells)


def global_offset(i: int, j: int, col: int, row: int) -> tuple[int, int]:
    """MAP-2: local hex (col, row) of the sheet at grid position (i, j), global odd-q."""
    return 15 * i + col, 17 * j + row + (col & 1) * (i & 1)


# --- the shipped sheets --------------------------------------------------------


def test_MAP_1_every_shipped_sheet_loads_and_is_15_by_17() -> None:
    """MAP-1: every file in maps/sheets loads; each sheet is 15 columns by 17 rows."""
    files = sorted(SHEETS_DIR.glob("*.toml"))
    assert len(files) >= 12
    assert len(SHEETS) == len(files)
    for sheet in SHEETS.values():
        assert sheet.path is not None and sheet.path.stem == sheet.id
        for array in (
            sheet.level,
            sheet.terrain,
            sheet.water_depth,
            sheet.road,
            sheet.building_cf,
            sheet.building_height,
        ):
            assert array.shape == (SHEET_ROWS, SHEET_COLS) == (17, 15)


def test_MAP_1_sheet_files_name_hexes_and_ids_sensibly() -> None:
    """MAP-1: ids are snake_case file names; names and descriptions are distinct."""
    for sheet in SHEETS.values():
        assert sheet.id.replace("_", "").isalnum() and sheet.id == sheet.id.lower()
        assert sheet.name.strip() and len(sheet.description) > 40
    assert len({s.name for s in SHEETS.values()}) == len(SHEETS)
    assert len({s.description for s in SHEETS.values()}) == len(SHEETS)


def test_MAP_4_MAP_9_at_least_two_sheets_per_category() -> None:
    """MAP-4, MAP-9: the sheet tables need a choice in every terrain category."""
    for category in CATEGORIES:
        ids = [s.id for s in SHEETS.values() if s.category == category]
        assert len(ids) >= 2, f"category {category} has only {ids}"


def test_MAP_4_every_building_has_cf_and_height() -> None:
    """MAP-4: a building hex carries a construction factor and a height; no other hex does."""
    cf_seen: set[int] = set()
    heights_seen: set[int] = set()
    for sheet in SHEETS.values():
        building = sheet.terrain == BUILDING
        assert (sheet.building_cf[building] >= 1).all(), sheet.id
        assert (sheet.building_cf[building] <= 150).all(), sheet.id
        assert (sheet.building_height[building] >= 1).all(), sheet.id
        assert (sheet.building_cf[~building] == 0).all(), sheet.id
        assert (sheet.building_height[~building] == 0).all(), sheet.id
        cf_seen |= {int(v) for v in sheet.building_cf[building]}
        heights_seen |= {int(v) for v in sheet.building_height[building]}
    # light, medium, heavy and hardened buildings, one to four levels and more
    assert {15, 40, 90, 120} <= cf_seen
    assert {1, 2, 3, 4} <= heights_seen


def test_MAP_4_terrain_arrays_agree() -> None:
    """MAP-4: water hexes have a depth, dry hexes none; urban sheets are built up."""
    for sheet in SHEETS.values():
        water = sheet.terrain == WATER
        assert (sheet.water_depth[water] >= 1).all(), sheet.id
        assert (sheet.water_depth[~water] == 0).all(), sheet.id
        if sheet.category == "urban":
            assert (sheet.terrain == BUILDING).sum() >= 40, sheet.id
        if sheet.category == "water":
            assert water.sum() >= 20, sheet.id


@pytest.mark.parametrize("sheet_id", SHEET_IDS)
def test_MAP_4_roads_run_edge_to_edge_at_the_convention_points(sheet_id: str) -> None:
    """MAP-4: a road meets the sheet edge only at 0801, 0817, 0109 or 1509, and every
    road hex belongs to a road network that reaches at least two of those exits."""
    sheet = SHEETS[sheet_id]
    assert sheet.road.any()
    for group in components(sheet.road):
        on_edge = {(c, r) for c, r in group if c in (0, SHEET_COLS - 1) or r in (0, SHEET_ROWS - 1)}
        assert on_edge <= ROAD_EXITS, f"{sheet_id}: road leaves at {names(on_edge - ROAD_EXITS)}"
        assert len(on_edge) >= 2, f"{sheet_id}: road {names(group)[:5]} is cut off"


@pytest.mark.parametrize("sheet_id", SHEET_IDS)
def test_MAP_4_rivers_are_connected_edge_to_edge(sheet_id: str) -> None:
    """MAP-4: water that reaches an edge is a river reaching another edge; water
    inside the sheet is a lake or pond. No water surface sits above its bank."""
    sheet = SHEETS[sheet_id]
    for group in components(sheet.terrain == WATER):
        touched = edges_touched(group)
        assert len(touched) != 1, f"{sheet_id}: water {names(group)[:5]} ends at one edge"
        for c, r in group:
            for nc, nr in local_neighbours(c, r):
                if sheet.terrain[nr, nc] != WATER:
                    assert sheet.level[nr, nc] >= sheet.level[r, c], (
                        f"{sheet_id}: {format_xxyy(c, r)} is above its bank"
                    )


def test_MAP_4_water_sheets_carry_a_river_with_a_bridge_and_a_lake() -> None:
    """MAP-4: a river crossing the sheet with a bridge (road over water) and a ford
    (depth 1 bank to bank, depth 2-3 mid-stream); a lake that does not touch the edge."""
    river = SHEETS["river_crossing"]
    rivers = [g for g in components(river.terrain == WATER) if {"west", "east"} <= edges_touched(g)]
    assert len(rivers) == 1
    assert (river.road & (river.terrain == WATER)).any()
    assert set(river.water_depth[river.terrain == WATER].tolist()) == {1, 2, 3}
    # the ford: 0306 and 0307 span the river at depth 1, with track ends on both banks
    assert river.water_depth[5, 2] == river.water_depth[6, 2] == 1
    assert river.road[4, 2] and river.road[7, 2]
    lake = SHEETS["lake_shore"]
    depths = lake.water_depth[lake.terrain == WATER]
    assert depths.max() == 3


@pytest.mark.parametrize("sheet_id", SHEET_IDS)
def test_MAP_4_levels_change_gradually(sheet_id: str) -> None:
    """MAP-4: no two neighbouring hexes differ by more than 2 levels (no cliffs)."""
    sheet = SHEETS[sheet_id]
    for r in range(SHEET_ROWS):
        for c in range(SHEET_COLS):
            for nc, nr in local_neighbours(c, r):
                step = abs(int(sheet.level[r, c]) - int(sheet.level[nr, nc]))
                assert step <= 2, f"{sheet_id}: {format_xxyy(c, r)}/{format_xxyy(nc, nr)}"


def test_MAP_4_hill_sheets_rise_and_quarry_sinks() -> None:
    """MAP-4: levels are used: hills reach 3 and 5, the quarry pit is below ground."""
    assert SHEETS["rolling_hills"].level.max() == 3
    assert SHEETS["high_pass"].level.max() == 5
    assert SHEETS["quarry_hamlet"].level.min() == -2


@pytest.mark.parametrize("i", [-1, 0, 1, 2])
def test_MAP_2_road_exits_meet_on_adjacent_sheets(i: int) -> None:
    """MAP-2: on the global lattice the east exit of one sheet touches the west exit
    of the next, and the south exit touches the north exit of the sheet below,
    whatever the parity of the sheet-grid column."""
    east = from_offset(*global_offset(i, 0, *EAST_EXIT))
    west = from_offset(*global_offset(i + 1, 0, *WEST_EXIT))
    assert distance(east, west) == 1
    south = from_offset(*global_offset(i, 0, *SOUTH_EXIT))
    north = from_offset(*global_offset(i, 1, *NORTH_EXIT))
    assert distance(south, north) == 1


@pytest.mark.parametrize("sheet_id", SHEET_IDS)
def test_MAP_4_sheet_tokens_write_back_to_the_same_sheet(sheet_id: str) -> None:
    """MAP-4: Sheet.token gives back tokens that parse to the same hex."""
    sheet = SHEETS[sheet_id]
    rows = [" ".join(sheet.token(c, r) for c in range(SHEET_COLS)) for r in range(SHEET_ROWS)]
    text = sheet.path.read_text(encoding="utf-8") if sheet.path else ""
    start, end = text.index("hexes = '''") + len("hexes = '''"), text.rindex("'''")
    again = parse_sheet(text[:start] + "\n" + "\n".join(rows) + "\n" + text[end:], sheet_id)
    for name in ("level", "terrain", "water_depth", "road", "building_cf", "building_height"):
        assert np.array_equal(getattr(again, name), getattr(sheet, name)), name


# --- malformed sheet files -------------------------------------------------------


def sheet_text(
    sheet_id: str = "test_sheet",
    rows: list[list[str]] | None = None,
    buildings: str = '"0808" = { cf = 40, height = 2 }',
    header: str | None = None,
) -> str:
    """A small valid sheet: clear ground, a road down column 08, a building at 0808."""
    if rows is None:
        rows = [["0."] * SHEET_COLS for _ in range(SHEET_ROWS)]
        for r in range(SHEET_ROWS):
            rows[r][7] = "0="
        rows[7][7] = "0#"
    if header is None:
        header = f'id = "{sheet_id}"\nname = "Test"\ncategory = "flat"\ndescription = "x"\n'
    grid = "\n".join(" ".join(f"{t:>4}" for t in row) for row in rows)
    return f"{header}hexes = '''\n{grid}\n'''\n\n[buildings]\n{buildings}\n"


def with_token(col: int, row: int, token: str) -> list[list[str]]:
    rows = [["0."] * SHEET_COLS for _ in range(SHEET_ROWS)]
    rows[7][7] = "0#"
    rows[row][col] = token
    return rows


def test_the_malformed_sheet_base_text_is_valid() -> None:
    """The base text of the malformed cases parses: every failure below is the edit."""
    sheet = parse_sheet(sheet_text(), "base.toml")
    assert sheet.building_cf[7, 7] == 40 and sheet.building_height[7, 7] == 2
    assert sheet.road[:, 7].sum() == SHEET_ROWS - 1
    assert isinstance(sheet, Sheet)


MALFORMED = [
    (
        "bad_toml",
        'id = "broken\nname = "x"\n',
        ["bad.toml: not valid TOML:", "line 1"],
    ),
    (
        "missing_key",
        sheet_text(header='id = "t"\ncategory = "flat"\n'),
        ['bad.toml: missing key "name"'],
    ),
    (
        "key_not_text",
        sheet_text(header='id = 7\nname = "x"\ncategory = "flat"\n'),
        ['bad.toml: "id" must be text'],
    ),
    (
        "description_not_text",
        sheet_text(header='id = "t"\nname = "x"\ncategory = "flat"\ndescription = 3\n'),
        ['bad.toml: "description" must be text'],
    ),
    (
        "unknown_category",
        sheet_text(header='id = "t"\nname = "x"\ncategory = "swamp"\n'),
        [
            'bad.toml: category "swamp" is not one of flat, hills, woods, urban, water, mixed',
        ],
    ),
    (
        "sixteen_rows",
        sheet_text(rows=[["0."] * SHEET_COLS for _ in range(16)], buildings=""),
        ["bad.toml: hexes has 16 rows; a sheet has 17"],
    ),
    (
        "row_of_fourteen",
        sheet_text(
            rows=[["0."] * (14 if r == 4 else SHEET_COLS) for r in range(SHEET_ROWS)],
            buildings="",
        ),
        ["bad.toml: hexes row 05 has 14 hexes; a sheet row has 15"],
    ),
    (
        "unknown_terrain_letter",
        sheet_text(rows=with_token(2, 4, "0q")),
        ['bad.toml: hex 0305: "0q" is not a terrain token', ". w W r ~N #"],
    ),
    (
        "two_digit_water_depth",
        sheet_text(rows=with_token(10, 12, "0~12")),
        ['bad.toml: hex 1113: "0~12" is not a terrain token'],
    ),
    (
        "level_out_of_range",
        sheet_text(rows=with_token(0, 0, "500.")),
        ["bad.toml: hex 0101: level 500 is outside -99..99"],
    ),
    (
        "building_without_entry",
        sheet_text(rows=with_token(3, 9, "1#")),
        ["bad.toml: building hexes 0410 have no entry in [buildings]"],
    ),
    (
        "entry_on_a_non_building_hex",
        sheet_text(buildings='"0808" = { cf = 40, height = 2 }\n"0101" = { cf = 15, height = 1 }'),
        ['bad.toml: buildings."0101": that hex is not a building (#)'],
    ),
    (
        "entry_not_a_table",
        sheet_text(buildings='"0808" = 40'),
        ['bad.toml: buildings."0808" must be { cf = N, height = N }'],
    ),
    (
        "cf_out_of_range",
        sheet_text(buildings='"0808" = { cf = 200, height = 2 }'),
        ['bad.toml: buildings."0808".cf must be a whole number 1-150'],
    ),
    (
        "cf_is_true",
        sheet_text(buildings='"0808" = { cf = true, height = 2 }'),
        ['bad.toml: buildings."0808".cf must be a whole number 1-150'],
    ),
    (
        "height_missing",
        sheet_text(buildings='"0808" = { cf = 40 }'),
        ['bad.toml: buildings."0808".height must be a whole number 1-10'],
    ),
    (
        "misspelt_building_key",
        sheet_text(buildings='"0808" = { cf = 40, height = 2, hieght = 3 }'),
        ['bad.toml: buildings."0808": unknown key hieght (a building has cf and height)'],
    ),
    (
        "bad_xxyy_key",
        sheet_text(buildings='"808" = { cf = 40, height = 2 }'),
        ['bad.toml: buildings.808: "808" is not a hex name: use four digits XXYY, e.g. "0709"'],
    ),
    (
        "xxyy_key_off_the_sheet",
        sheet_text(buildings='"1618" = { cf = 40, height = 2 }'),
        ['bad.toml: buildings.1618: "1618": column 16 is outside a sheet (01-15)'],
    ),
    (
        "xxyy_row_off_the_sheet",
        sheet_text(buildings='"0818" = { cf = 40, height = 2 }'),
        ['bad.toml: buildings.0818: "0818": row 18 is outside a sheet (01-17)'],
    ),
]


@pytest.mark.parametrize(("case", "text", "parts"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_MAP_1_MAP_4_malformed_sheet_names_file_place_and_reason(
    case: str, text: str, parts: list[str]
) -> None:
    """MAP-1, MAP-4: a malformed sheet raises SheetError naming the file, the hex
    (XXYY), row or key, and what is wrong."""
    with pytest.raises(SheetError) as info:
        parse_sheet(text, "bad.toml")
    message = str(info.value)
    for part in parts:
        assert part in message, f"{case}: {message!r}"


@pytest.mark.parametrize("name", [709, None, ("07", "09")])
def test_MAP_1_a_hex_name_that_is_not_text_is_refused_with_a_reason(name: object) -> None:
    """MAP-1: a hex name is four digits in quotes; a number or nothing is a ValueError
    saying so, not a TypeError from the pattern matcher."""
    with pytest.raises(ValueError, match="is not a hex name: use four digits XXYY in quotes"):
        parse_xxyy(name)  # type: ignore[arg-type]


def test_MAP_1_duplicate_sheet_id_in_a_folder(tmp_path: Path) -> None:
    """MAP-1: two files in one folder may not share an id; the error names both files."""
    (tmp_path / "a.toml").write_text(sheet_text("same"), encoding="utf-8")
    (tmp_path / "b.toml").write_text(sheet_text("same"), encoding="utf-8")
    with pytest.raises(SheetError) as info:
        available_sheets(tmp_path)
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'b.toml'}: sheet id 'same' is already used by ")
    assert message.endswith(str(tmp_path / "a.toml"))


def test_MAP_1_a_folder_of_good_sheets_loads(tmp_path: Path) -> None:
    """MAP-1: available_sheets reads any folder, keyed by id."""
    (tmp_path / "one.toml").write_text(sheet_text("one"), encoding="utf-8")
    (tmp_path / "two.toml").write_text(sheet_text("two"), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a sheet", encoding="utf-8")
    sheets = available_sheets(tmp_path)
    assert sorted(sheets) == ["one", "two"]
    assert sheets["two"].path == tmp_path / "two.toml"


def test_MAP_1_a_bad_file_in_a_folder_is_named(tmp_path: Path) -> None:
    """MAP-1: one malformed file stops the folder with that file's name and hex."""
    (tmp_path / "good.toml").write_text(sheet_text("good"), encoding="utf-8")
    (tmp_path / "marsh.toml").write_text(
        sheet_text("marsh", rows=with_token(14, 16, "0x")), encoding="utf-8"
    )
    with pytest.raises(SheetError) as info:
        available_sheets(tmp_path)
    assert str(info.value).startswith(f'{tmp_path / "marsh.toml"}: hex 1517: "0x" is not')


def test_MAP_1_unreadable_sheet_files(tmp_path: Path) -> None:
    """MAP-1: a missing file, a folder and a non-UTF-8 file each give a SheetError."""
    missing = tmp_path / "missing.toml"
    with pytest.raises(SheetError) as info:
        load_sheet(missing)
    assert str(info.value) == f"{missing}: cannot read: No such file or directory"
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(SheetError) as info:
        load_sheet(folder)
    assert str(info.value) == f"{folder}: cannot read: Is a directory"
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b'id = "x"\n\xff\xfe')
    with pytest.raises(SheetError) as info:
        load_sheet(binary)
    assert str(info.value) == f"{binary}: not UTF-8 text (byte 9)"


def test_MAP_4_token_forms() -> None:
    """MAP-4: negative levels, water depths, roads, bridges and the short road form."""
    rows = [["0."] * SHEET_COLS for _ in range(SHEET_ROWS)]
    rows[0][0] = "-2r"
    rows[0][1] = "0~3"
    rows[0][2] = "0~2="
    rows[0][3] = "1="
    rows[0][4] = "2W="
    rows[0][5] = "3w"
    rows[0][6] = "4#"
    sheet = parse_sheet(sheet_text(rows=rows, buildings='"0701" = { cf = 120, height = 4 }'))
    assert sheet.level[0, :7].tolist() == [-2, 0, 0, 1, 2, 3, 4]
    assert sheet.water_depth[0, :3].tolist() == [0, 3, 2]
    assert sheet.road[0, :7].tolist() == [False, False, True, True, True, False, False]
    assert [sheet.token(c, 0) for c in range(7)] == ["-2r", "0~3", "0~2=", "1.=", "2W=", "3w", "4#"]
    assert sheet.building_cf[0, 6] == 120 and sheet.building_height[0, 6] == 4


def test_MAP_1_the_example_in_docs_sheets_md_is_a_good_sheet() -> None:
    """MAP-1: the complete example of docs/sheets.md parses and keeps the conventions."""
    doc = (SHEETS_DIR.parents[1] / "docs" / "sheets.md").read_text(encoding="utf-8")
    example = doc.split("## A complete example", 1)[1].split("```toml\n", 1)[1].split("```")[0]
    sheet = parse_sheet(example, "docs/sheets.md")
    assert sheet.id == "example_crossing" and sheet.category == "flat"
    assert sheet.building_cf[7, 8] == 40 and sheet.water_depth[13, 11] == 2
    for group in components(sheet.road):
        assert {(c, r) for c, r in group if c in (0, 14) or r in (0, 16)} == ROAD_EXITS


def test_MAP_9_docs_list_every_shipped_sheet_under_its_category() -> None:
    """MAP-9: the category table of docs/sheets.md names every shipped sheet."""
    doc = (SHEETS_DIR.parents[1] / "docs" / "sheets.md").read_text(encoding="utf-8")
    rows = {
        line.split("|")[1].strip().strip("`"): line
        for line in doc.splitlines()
        if line.startswith("| `") and line.split("|")[1].strip().strip("`") in CATEGORIES
    }
    assert sorted(rows) == sorted(CATEGORIES)
    for sheet in SHEETS.values():
        assert f"`{sheet.id}` ({sheet.name})" in rows[sheet.category], sheet.id
