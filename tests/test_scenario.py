"""Scenario files: loading, the data they give, and every problem reported (MAP-2, MAP-3,
ART-1, ART-2, ART-3, ART-20, ART-22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.scenario import (
    Scenario,
    ScenarioError,
    load_scenario,
    parse_scenario,
    predesignated_limit,
    scenario_from_dict,
    validate_file,
)
from game.scenario.model import battery_position, side_of_position

REPO = Path(__file__).resolve().parents[1]

FLAT_ROW = " ".join(["0."] * 15)


def sheet_text(sheet_id: str, category: str = "flat") -> str:
    rows = "\n".join([FLAT_ROW] * 17)
    return (
        f'id = "{sheet_id}"\nname = "{sheet_id.title()}"\ncategory = "{category}"\n'
        f'hexes = """\n{rows}\n"""\n'
    )


def write_sheets(folder: Path) -> Path:
    """Three plain sheets a test scenario can name."""
    folder.mkdir(parents=True, exist_ok=True)
    for sheet_id, category in (("farmland", "flat"), ("hills", "hills"), ("woods", "woods")):
        (folder / f"{sheet_id}.toml").write_text(sheet_text(sheet_id, category), encoding="utf-8")
    return folder


BASE = """\
[scenario]
name = "Test Hunt"
briefing = "Find the guns before they find you."
home_edges = "north-south"
turns = 12

[options]
mobile_maps = true
sheet_table = "similar"
predesignated_hexes = true

[[layout]]
position = [0, 0]
sheet = "farmland"

[[layout]]
position = [1, 0]
sheet = "hills"

[[layout]]
position = [0, 1]
sheet = "woods"

[[layout]]
position = [1, 1]
sheet = "farmland"

[[sides]]
name = "north"
label = "Northern Lancers"
controller = "human"

[templates.locust]
system = "battletech"
type = "mech"
model = "Locust LCT-1V"
tonnage = 20
gunnery = 4
piloting = 5
walk = 8

[templates.locust.armour]
head = 8
centre_torso = 10
left_torso = 8
right_torso = 8
left_arm = 4
right_arm = 4
left_leg = 8
right_leg = 8

[templates.locust.rear_armour]
centre_torso = 2
left_torso = 2
right_torso = 2

[templates.locust.structure]
head = 3
centre_torso = 6
left_torso = 5
right_torso = 5
left_arm = 3
right_arm = 3
left_leg = 4
right_leg = 4

[[units]]
id = "n-spotter"
side = "north"
name = "Spotter Locust"
sheet = [0, 0]
hex = "0705"
facing = 4
profile = { template = "locust", gunnery = 3 }

[[units]]
id = "s-platoon"
side = "south"
sheet = [1, 1]
hex = "0712"
facing = 1
[units.profile]
system = "battletech"
type = "infantry"
gunnery = 4
walk = 1
troopers = 28

[[artillery]]
id = "n-longtom"
side = "north"
weapon = "long_tom"
pieces = 2
gunnery = 4
direction = "north"
along = 1
distance = 5
sheet = "hills"
hex = "0809"

[[artillery]]
id = "s-longtom"
side = "south"
weapon = "long_tom"
gunnery = 3
direction = "east"
along = 1
distance = 3
sheet = "woods"
hex = "1010"

[[predesignated]]
side = "north"
sheet = [1, 1]
hex = "0808"

[[victory]]
type = "destroy_artillery"
side = "north"

[[victory]]
type = "hold_hex"
side = "south"
sheet = [0, 1]
hex = "0909"
turns = 3
"""


@pytest.fixture
def sheets(tmp_path: Path) -> Path:
    return write_sheets(tmp_path / "sheets")


def edit(old: str, new: str, text: str = BASE) -> str:
    """The base scenario with one piece changed (the piece must be there)."""
    assert old in text, old
    return text.replace(old, new, 1)


def problems(tmp_path: Path, sheets: Path, text: str, name: str = "hunt.toml") -> list[str]:
    """The lines of the ScenarioError a file raises (it must raise one)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path, sheets_dir=sheets)
    assert str(caught.value) == "\n".join(caught.value.lines)
    assert validate_file(path, sheets) == caught.value.lines
    return caught.value.lines


def only(lines: list[str], *parts: str) -> str:
    """The one line that holds all the parts."""
    found = [ln for ln in lines if all(p in ln for p in parts)]
    assert len(found) == 1, (parts, lines)
    return found[0]


# --------------------------------------------------------------------------
# A valid scenario and the data it gives.


def test_valid_scenario_loads_with_its_data(tmp_path: Path, sheets: Path) -> None:
    path = tmp_path / "hunt.toml"
    path.write_text(BASE, encoding="utf-8")
    s = load_scenario(path, sheets_dir=sheets)
    assert isinstance(s, Scenario)
    assert (s.id, s.name, s.turns, s.home_edges) == ("hunt", "Test Hunt", 12, "north-south")
    assert s.options.mobile_maps and s.options.predesignated_hexes
    assert s.options.sheet_table == "similar"
    assert [(p.position, p.sheet) for p in s.layout] == [
        ((0, 0), "farmland"),
        ((1, 0), "hills"),
        ((0, 1), "woods"),
        ((1, 1), "farmland"),
    ]
    assert [(x.name, x.label, x.controller) for x in s.sides] == [
        ("north", "Northern Lancers", "human"),
        ("south", "South", "any"),
    ]
    spotter, platoon = s.units
    assert (spotter.id, spotter.side, spotter.name, spotter.sheet, spotter.hex, spotter.facing) == (
        "n-spotter",
        "north",
        "Spotter Locust",
        (0, 0),
        "0705",
        4,
    )
    # The template gives the profile; the unit's own keys win.
    assert spotter.system == "battletech" and spotter.type == "mech"
    assert spotter.profile["gunnery"] == 3 and spotter.profile["piloting"] == 5
    assert spotter.profile["rear_armour"]["centre_torso"] == 2
    assert platoon.name == "s-platoon" and platoon.profile["troopers"] == 28
    north_gun, south_gun = s.artillery
    assert (north_gun.weapon, north_gun.pieces, north_gun.gunnery) == ("long_tom", 2, 4)
    assert (south_gun.pieces, south_gun.direction, south_gun.sheet, south_gun.hex) == (
        1,
        "east",
        "woods",
        "1010",
    )
    assert s.predesignated[0].sheet == (1, 1) and s.predesignated[0].hex == "0808"
    assert [v.type for v in s.victory] == ["destroy_artillery", "hold_hex"]
    assert s.victory[1].params == {"sheet": (0, 1), "hex": "0909", "turns": 3}


def test_ART_2_battery_positions_are_sheets_beyond_the_edge(tmp_path: Path, sheets: Path) -> None:
    """ART-2: distance 1 is the first sheet beyond the edge; ``along`` is the lane."""
    s = parse_scenario(BASE, "hunt.toml", sheets)
    assert s.battery_position(s.artillery[0]) == (1, -5)  # 5 sheets north of row 0
    assert s.battery_position(s.artillery[1]) == (4, 1)  # 3 sheets east of column 1
    area = [(0, 0), (1, 0), (0, 1), (1, 1)]
    assert battery_position(area, "north", 0, 1) == (0, -1)
    assert battery_position(area, "south", 1, 1) == (1, 2)
    assert battery_position(area, "west", 0, 2) == (-2, 0)


def test_MAP_3_half_line_splits_the_play_area_between_the_sides() -> None:
    """MAP-3: a sheet belongs to the side its centre lies on; on the line, to neither."""
    two_by_two = [(0, 0), (1, 0), (0, 1), (1, 1)]
    assert side_of_position(two_by_two, "north-south", (0, 0)) == "north"
    assert side_of_position(two_by_two, "north-south", (1, 1)) == "south"
    assert side_of_position(two_by_two, "north-south", (7, -4)) == "north"  # past the area
    three_rows = [(0, 0), (0, 1), (0, 2)]
    assert side_of_position(three_rows, "north-south", (5, 1)) is None
    assert side_of_position(three_rows, "north-south", (5, 2)) == "south"
    west_east = [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert side_of_position(west_east, "west-east", (1, 9)) == "west"
    assert side_of_position(west_east, "west-east", (2, 9)) == "east"


def test_ART_22_predesignated_limit_per_unit_per_four_sheets_capped_per_sheet() -> None:
    """ART-22: 5 per unit per four sheets (twelve sheets -> 15 per unit), at most 5 per sheet."""
    assert predesignated_limit(1, 4) == 5
    assert predesignated_limit(1, 12) == 15
    assert predesignated_limit(2, 12) == 30
    assert predesignated_limit(1, 5) == 10  # ceil(5 / 4) = 2
    assert predesignated_limit(3, 1) == 5  # one sheet never holds more than 5
    assert predesignated_limit(0, 4) == 0


def test_ART_22_scenario_computes_the_limit_of_each_side(sheets: Path) -> None:
    """ART-22: with 4 sheets and one battery each, each side may pick 5 hexes."""
    s = parse_scenario(BASE, "hunt.toml", sheets)
    assert s.predesignated_limit("north") == 5
    assert s.predesignated_limit("south") == 5


def test_to_dict_reads_back_to_the_same_scenario(sheets: Path) -> None:
    s = parse_scenario(BASE, "hunt.toml", sheets)
    data = s.to_dict()
    assert data["layout"][0] == {"position": [0, 0], "sheet": "farmland"}
    assert scenario_from_dict(data, "hunt.toml", sheets) == s


def test_profiles_of_all_four_systems_load(sheets: Path) -> None:
    """ART-35: units of every system share the board, each with its own profile."""
    extra = """
[[units]]
id = "dwarves"
side = "north"
sheet = [0, 0]
hex = "0101"
facing = 3
[units.profile]
system = "battlesystem"
type = "infantry"
figures = 20
ad = "6*4"
ar = 6
hits_per_figure = 3
move = 6
missile_ranges = [7, 14, 21]

[[units]]
id = "archers"
side = "south"
sheet = [1, 1]
hex = "1517"
facing = 6
[units.profile]
system = "warhammer"
type = "infantry"
models = 10
move = 4
bs = 3
t = 3
w = 1
armour = "light"
shield = true
weapon_strength = 3
weapon_range = 24

[[units]]
id = "gunners"
side = "south"
sheet = [1, 0]
hex = "0303"
facing = 2
[units.profile]
system = "toysoldiers"
type = "gun"
gun_type = "cannon"
armour = 1
shooter = "6/5-1 ББ"

[[units]]
id = "scout-car"
side = "north"
sheet = [1, 0]
hex = "1001"
facing = 4
[units.profile]
system = "battletech"
type = "vehicle"
gunnery = 4
piloting = 5
walk = 6
armour = { front = 10, left_side = 8, right_side = 8, rear = 5 }
structure = { front = 2, left_side = 2, right_side = 2, rear = 2 }
"""
    s = parse_scenario(BASE + extra, "hunt.toml", sheets)
    by_id = {u.id: u for u in s.units}
    assert by_id["dwarves"].profile["ad"] == "6*4"
    assert by_id["dwarves"].profile["formation"] == "regular"  # default filled in
    assert by_id["archers"].profile["armour"] == "light"
    assert by_id["archers"].profile["mount"] is False
    assert by_id["gunners"].profile["shooter"] == "6/5-1 ББ"
    assert by_id["scout-car"].profile["motive"] == "tracked"  # a vehicle without turret
    assert "motive" not in by_id["n-spotter"].profile  # only vehicles have a motive


# --------------------------------------------------------------------------
# Shipped scenarios.

SHIPPED = sorted((REPO / "maps").glob("*.toml"))


def test_the_default_scenario_is_shipped() -> None:
    assert REPO / "maps" / "long_tom_hunt.toml" in SHIPPED


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_scenario_loads(path: Path) -> None:
    s = load_scenario(path)
    assert s.layout and s.units and s.briefing


def test_long_tom_hunt_matches_its_brief() -> None:
    """The default scenario: 2x2 sheets, mobile maps, a hidden Long Tom per side 3-8 sheets out."""
    s = load_scenario(REPO / "maps" / "long_tom_hunt.toml")
    assert s.name == "Long Tom Hunt"
    assert sorted(p.position for p in s.layout) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert s.options.mobile_maps and s.options.predesignated_hexes
    for side in s.side_names():
        guns = [b for b in s.artillery if b.side == side]
        assert guns and all(b.weapon == "long_tom" and 3 <= b.distance <= 8 for b in guns)
        assert {u.type for u in s.units if u.side == side} >= {"mech", "vehicle", "infantry"}


def test_build_area_places_units_on_the_play_area() -> None:
    area_module = pytest.importorskip("game.board.area")
    s = load_scenario(REPO / "maps" / "long_tom_hunt.toml")
    area = s.build_area()
    assert isinstance(area, area_module.PlayArea)
    for unit in s.units:
        h = area.hex_at(unit.sheet, unit.hex)
        assert area.side_of_position(unit.sheet) == s.side_of_position(unit.sheet)
        assert h is not None
    for p in s.layout:
        assert area.side_of_position(p.position) == s.side_of_position(p.position)


# --------------------------------------------------------------------------
# Malformed files: every problem named, with the file and the key path.


def test_toml_syntax_error_names_line_and_column(tmp_path: Path, sheets: Path) -> None:
    lines = problems(tmp_path, sheets, edit("turns = 12", "turns 12"))
    assert len(lines) == 1
    assert lines[0].startswith(f"{tmp_path / 'hunt.toml'}: not valid TOML: ")
    assert "(at line 5, column 7)" in lines[0]


def test_missing_file_is_one_clear_line(tmp_path: Path, sheets: Path) -> None:
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(ScenarioError) as caught:
        load_scenario(missing, sheets_dir=sheets)
    assert caught.value.lines == [f"{missing}: cannot read: No such file or directory"]


def test_file_that_is_not_utf8(tmp_path: Path, sheets: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(b'[scenario]\nname = "Caf\xe9"\n')
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path, sheets_dir=sheets)
    assert caught.value.lines == [
        f"{path}: not UTF-8 text (byte 0xe9 at offset 22); save the file as UTF-8"
    ]


def test_unknown_sheet_id_lists_the_known_sheets(tmp_path: Path, sheets: Path) -> None:
    lines = problems(tmp_path, sheets, edit('sheet = "woods"', 'sheet = "wods"'))
    assert lines == [
        f'{tmp_path / "hunt.toml"}: layout[2].sheet "wods": no such sheet '
        '(did you mean "woods"?) (known: farmland, hills, woods)'
    ]


def test_MAP_2_two_sheets_at_one_position(tmp_path: Path, sheets: Path) -> None:
    """MAP-2: one sheet per sheet-grid position."""
    lines = problems(tmp_path, sheets, edit("position = [1, 1]", "position = [1, 0]"))
    line = only(lines, "layout[3].position [1, 0]")
    assert line.endswith("two sheets at one position (layout[1] is there already)")


def test_MAP_2_layout_must_be_connected(tmp_path: Path, sheets: Path) -> None:
    """MAP-2: sheets join edge to edge; touching at a corner is not joined."""
    text = edit("position = [1, 0]", "position = [2, 2]")
    lines = problems(tmp_path, sheets, text)
    line = only(lines, "layout[1].position [2, 2]", "not connected")
    assert "does not join the sheet at [0, 0] edge to edge (MAP-2)" in line


def test_unit_hex_outside_a_sheet(tmp_path: Path, sheets: Path) -> None:
    lines = problems(tmp_path, sheets, edit('hex = "0705"', 'hex = "1618"'))
    assert lines == [
        f'{tmp_path / "hunt.toml"}: units[0].hex "1618": column 16 is outside a sheet (01-15)'
    ]


def test_unit_hex_that_is_not_a_hex_name(tmp_path: Path, sheets: Path) -> None:
    lines = problems(tmp_path, sheets, edit('hex = "0712"', 'hex = "7-12"'))
    only(lines, 'units[1].hex "7-12" is not a hex name: use four digits XXYY')


def test_unit_on_a_position_without_sheet(tmp_path: Path, sheets: Path) -> None:
    lines = problems(
        tmp_path, sheets, edit('sheet = [1, 1]\nhex = "0712"', 'sheet = [2, 1]\nhex = "0712"')
    )
    line = only(lines, "units[1].sheet [2, 1]: no sheet at that position")
    assert "(sheets are at [0, 0], [1, 0], [0, 1], [1, 1])" in line


def test_duplicate_ids_across_units_and_artillery(tmp_path: Path, sheets: Path) -> None:
    text = edit('id = "s-platoon"', 'id = "n-spotter"')
    text = edit('id = "s-longtom"', 'id = "n-spotter"', text)
    lines = problems(tmp_path, sheets, text)
    only(lines, 'units[1].id "n-spotter": duplicate id (units[0] has it already)')
    only(lines, 'artillery[1].id "n-spotter": duplicate id (units[0] has it already)')


def test_unknown_profile_key_suggests_the_right_one(tmp_path: Path, sheets: Path) -> None:
    lines = problems(tmp_path, sheets, edit("troopers = 28", "troopers = 28\nwalk_mp = 3"))
    line = only(lines, 'units[1].profile.walk_mp: unknown key (did you mean "walk"?)')
    assert "(known: system, type, template, model, points, gunnery," in line


def test_profile_key_of_another_unit_type(tmp_path: Path, sheets: Path) -> None:
    lines = problems(tmp_path, sheets, edit("troopers = 28", "troopers = 28\ntonnage = 5"))
    only(lines, "units[1].profile.tonnage: does not apply to a infantry (only to mech, vehicle)")


def test_facing_outside_the_scatter_numbering(tmp_path: Path, sheets: Path) -> None:
    lines = problems(tmp_path, sheets, edit("facing = 1", "facing = 7"))
    only(lines, "units[1].facing 7: must be a whole number 1-6 (1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW)")


def test_missing_required_keys(tmp_path: Path, sheets: Path) -> None:
    text = edit("turns = 12\n", "")
    text = edit("walk = 1\n", "", text)
    lines = problems(tmp_path, sheets, text)
    only(lines, 'scenario: missing key "turns" (the turn limit)')
    only(lines, 'units[1].profile: missing key "walk" (walking MP (MOV-1))')


def test_true_is_not_a_number(tmp_path: Path, sheets: Path) -> None:
    lines = problems(tmp_path, sheets, edit("turns = 12", "turns = true"))
    only(lines, "scenario.turns true: must be a whole number 1-999 (the turn limit)")


def test_unknown_system_suggests_the_right_one(tmp_path: Path, sheets: Path) -> None:
    lines = problems(
        tmp_path,
        sheets,
        edit('system = "battletech"\ntype = "infantry"', 'system = "battletek"\ntype = "infantry"'),
    )
    only(
        lines,
        'units[1].profile.system "battletek": must be one of battletech, battlesystem, '
        'warhammer, toysoldiers (did you mean "battletech"?)',
    )


def test_mech_armour_locations_checked(tmp_path: Path, sheets: Path) -> None:
    """ART-32: a mech has eight locations plus rear armour on the torsos."""
    text = edit("left_arm = 4\nright_arm = 4\n", "left_arm = 4\nright_arn = 4\n")
    lines = problems(tmp_path, sheets, text)
    only(
        lines,
        "templates.locust.armour.right_arn: a mech has no such location "
        '(did you mean "right_arm"?)',
    )
    only(lines, "templates.locust.armour: missing locations right_arm (a mech has head,")


def test_armour_may_come_from_a_weight_class(tmp_path: Path, sheets: Path) -> None:
    """ART-32: armour and structure may be given or come from a standard weight class."""
    extra = (
        '\n[[units]]\nid = "brawler"\nside = "south"\nsheet = [1, 1]\nhex = "0101"\n'
        'facing = 1\n[units.profile]\nsystem = "battletech"\ntype = "mech"\n'
        'weight_class = "medium"\ngunnery = 4\npiloting = 5\nwalk = 5\n'
        'weapons = ["medium_laser", "srm2"]\n'
    )
    s = parse_scenario(BASE + extra, "hunt.toml", sheets)
    brawler = s.units[-1]
    assert brawler.profile["weight_class"] == "medium" and "armour" not in brawler.profile
    lines = problems(tmp_path, sheets, BASE + extra.replace('weight_class = "medium"\n', ""))
    only(lines, 'units[2].profile: missing key "armour"')
    only(lines, 'units[2].profile: missing key "rear_armour"')
    lines = problems(tmp_path, sheets, BASE + extra.replace('"srm2"', '"srm3"'))
    only(lines, 'units[2].profile.weapons ["medium_laser", "srm3"]: unknown weapon "srm3"')


def test_profile_choices_match_the_resolvers() -> None:
    """ART-35: the scenario's profile words are the ones the resolvers accept."""
    from game.rules import battlesystem, battletech, toysoldiers, warhammer
    from game.scenario import model

    # ART-36: an aircraft is a scenario type of its own, damaged as a vehicle.
    assert (*battletech.UNIT_KINDS, "aerospace") == model.BATTLETECH_TYPES
    assert tuple(n.replace("_", " ") for n in model.MECH_LOCATIONS) == battletech.MECH_LOCATIONS
    assert tuple(n.replace("_", " ") for n in model.MECH_TORSOS) == battletech.MECH_TORSOS
    vehicle = model.VEHICLE_LOCATIONS + model.VEHICLE_OPTIONAL
    assert tuple(n.replace("_", " ") for n in vehicle) == battletech.VEHICLE_LOCATIONS
    assert tuple(battletech.MECH_TEMPLATES) == model.WEIGHT_CLASSES
    assert tuple(battletech.VEHICLE_TEMPLATES) == model.WEIGHT_CLASSES
    assert model.BATTLESYSTEM_TROOPS == battlesystem.TROOPS
    bs = model.PROFILE_FIELDS["battlesystem"]
    assert bs["size"].choices == battlesystem.SIZES
    assert bs["formation"].choices == battlesystem.FORMATIONS
    assert set(model.BATTLESYSTEM_WEAPONS) == {"other"} | battlesystem.LONG_WEAPONS | set(
        battlesystem.REACH_WEAPONS
    )
    wh_armour = model.PROFILE_FIELDS["warhammer"]["armour"].choices
    assert set(wh_armour) == set(warhammer.ARMOUR_SAVES)
    assert model.GUN_TYPES == toysoldiers.DEFAULT_GUN_TYPES


def test_unknown_template(tmp_path: Path, sheets: Path) -> None:
    lines = problems(tmp_path, sheets, edit('template = "locust"', 'template = "lcust"'))
    only(lines, 'units[0].profile.template "lcust": no such template (did you mean "locust"?)')


def test_side_that_is_not_a_home_edge(tmp_path: Path, sheets: Path) -> None:
    """MAP-3: the sides are the two home edges."""
    lines = problems(tmp_path, sheets, edit('side = "south"', 'side = "west"'))
    only(
        lines,
        'units[1].side "west": not a side of a north-south scenario (sides: north, south;',
    )


def test_ART_1_battery_behind_the_enemy_edge(tmp_path: Path, sheets: Path) -> None:
    """ART-1: behind his own home edge, or left or right; never behind the enemy's edge."""
    lines = problems(tmp_path, sheets, edit('direction = "east"', 'direction = "north"'))
    only(
        lines,
        'artillery[1].direction "north": ART-1: a battery stands behind its own home edge '
        "(south) or on a flank (west, east), never behind the enemy's edge",
    )


def test_ART_1_flank_battery_on_the_other_side_of_the_half_line(
    tmp_path: Path, sheets: Path
) -> None:
    """ART-1: left and right positions must be on his side of the half-line."""
    lines = problems(tmp_path, sheets, edit("along = 1\ndistance = 3", "along = 0\ndistance = 3"))
    only(
        lines,
        "artillery[1].along 0: ART-1: a battery on the east flank must stand on its own side "
        "of the half-line; this is on north's side (south's side: rows j >= 1)",
    )


def test_ART_1_flank_battery_on_the_half_line_itself(tmp_path: Path, sheets: Path) -> None:
    """MAP-3/ART-1: with three rows the middle row lies on the line and belongs to nobody."""
    text = edit(
        "[[sides]]",
        '[[layout]]\nposition = [0, 2]\nsheet = "hills"\n\n[[layout]]\nposition = [1, 2]\n'
        'sheet = "hills"\n\n[[sides]]',
    )
    lines = problems(tmp_path, sheets, text)
    only(
        lines, "artillery[1].along 1: ART-1", "this is on the half-line (south's side: rows j >= 2)"
    )


def test_ART_2_distance_below_one(tmp_path: Path, sheets: Path) -> None:
    """ART-2: distance 1 is the first sheet beyond the edge; 0 would be on the board."""
    lines = problems(tmp_path, sheets, edit("distance = 5", "distance = 0"))
    only(
        lines,
        "artillery[0].distance 0: must be a whole number 1-200 "
        "(sheets beyond the edge; 1 = the first sheet)",
    )


def test_ART_3_unknown_weapon(tmp_path: Path, sheets: Path) -> None:
    lines = problems(tmp_path, sheets, edit('weapon = "long_tom"', 'weapon = "longtom"'))
    line = only(lines, 'artillery[0].weapon "longtom": must be one of arrow_iv_is, arrow_iv_clan,')
    assert line.endswith('(did you mean "long_tom"?)')


def test_ART_3_battery_beyond_its_weapon_range(tmp_path: Path, sheets: Path) -> None:
    """ART-3: a Thumper reaches 21 sheets."""
    text = edit('weapon = "long_tom"\npieces = 2', 'weapon = "thumper"\npieces = 2')
    text = edit("distance = 5", "distance = 22", text)
    lines = problems(tmp_path, sheets, text)
    only(
        lines,
        "artillery[0].distance 22: ART-3: a thumper reaches 21 sheets, but the nearest sheet "
        "of the play area is 22 sheets away",
    )


def test_two_batteries_on_one_position_with_different_sheets(tmp_path: Path, sheets: Path) -> None:
    """MAP-10: the sheet at an artillery position is the one declared for it."""
    extra = (
        '\n[[artillery]]\nid = "n-second"\nside = "north"\nweapon = "sniper"\ngunnery = 4\n'
        'direction = "north"\nalong = 1\ndistance = 5\nsheet = "woods"\nhex = "0101"\n'
    )
    lines = problems(tmp_path, sheets, BASE + extra)
    only(
        lines, 'artillery[2].sheet "woods": artillery[0] stands at the same sheet position [1, -5]'
    )


def test_MAP_10_two_batteries_on_one_position_in_the_same_hex(tmp_path: Path, sheets: Path) -> None:
    """MAP-10: batteries sharing a sheet position stand on its one sheet in different
    hexes, as deployment in play demands; a file putting two in one hex is refused."""
    extra = (
        '\n[[artillery]]\nid = "n-second"\nside = "north"\nweapon = "sniper"\ngunnery = 4\n'
        'direction = "north"\nalong = 1\ndistance = 5\nsheet = "hills"\nhex = "0809"\n'
    )
    lines = problems(tmp_path, sheets, BASE + extra)
    only(
        lines,
        'artillery[2].hex "0809": artillery[0] already stands in this hex of sheet "hills" '
        "at [1, -5]; batteries sharing a sheet position stand in different hexes (MAP-10)",
    )
    fine = extra.replace('hex = "0809"', 'hex = "0810"')
    path = tmp_path / "fine.toml"
    path.write_text(BASE + fine, encoding="utf-8")
    s = load_scenario(path, sheets_dir=sheets)
    assert {s.battery_position(b) for b in s.artillery if b.side == "north"} == {(1, -5)}


def test_ART_2_battery_along_a_column_beyond_another_edge(tmp_path: Path, sheets: Path) -> None:
    """ART-2/ART-27: "north, column 9, 1 sheet out" lies beyond the east edge of a 2x2
    area; the file is refused as deployment in play refuses it, naming the columns
    that stay behind the north edge."""
    lines = problems(tmp_path, sheets, edit("along = 1\ndistance = 5", "along = 9\ndistance = 1"))
    only(
        lines,
        "artillery[0].along 9: ART-2: sheet column 9 at distance 1 puts the battery at (9,-1), "
        "beyond the east edge rather than the north edge; at this distance choose a column "
        "from -1 to 2",
    )


def test_ART_20_predesignated_hexes_need_the_option(tmp_path: Path, sheets: Path) -> None:
    lines = problems(
        tmp_path, sheets, edit("predesignated_hexes = true", "predesignated_hexes = false")
    )
    only(
        lines,
        "predesignated: the scenario lists pre-designated hexes but "
        "options.predesignated_hexes is false (ART-20)",
    )


def test_ART_20_only_a_side_with_artillery_predesignates(tmp_path: Path, sheets: Path) -> None:
    start = BASE.index('[[artillery]]\nid = "s-longtom"')
    end = BASE.index("[[predesignated]]")
    text = BASE[:start] + BASE[end:]
    text = edit('side = "north"\nsheet = [1, 1]', 'side = "south"\nsheet = [1, 1]', text)
    lines = problems(tmp_path, sheets, text)
    only(lines, 'predesignated[0].side "south": ART-20: only a side with off-board artillery')


def test_ART_22_too_many_predesignated_hexes(tmp_path: Path, sheets: Path) -> None:
    """ART-22: one battery on four sheets allows 5 hexes; and never 6 on one sheet."""
    extra = "".join(
        f'\n[[predesignated]]\nside = "north"\nsheet = [0, 1]\nhex = "01{row:02d}"\n'
        for row in range(1, 7)
    )
    lines = problems(tmp_path, sheets, BASE + extra)
    only(lines, "predesignated: north lists 7 hexes; ART-22 allows 5")
    only(
        lines, "predesignated: north lists 6 hexes on the sheet at [0, 1]; ART-22 allows at most 5"
    )


def test_unknown_table_suggests_the_right_one(tmp_path: Path, sheets: Path) -> None:
    lines = problems(tmp_path, sheets, edit("[options]", "[option]"))
    only(lines, 'option: unknown table (did you mean "options"?) (known: scenario, options,')


def test_array_written_as_a_single_table(tmp_path: Path, sheets: Path) -> None:
    start = BASE.index("[[victory]]")
    text = BASE[:start] + '[victory]\ntype = "survive"\nside = "south"\n'
    lines = problems(tmp_path, sheets, text)
    only(lines, "victory: must be an array of tables: write each entry as [[victory]]")


def test_victory_condition_checked_by_its_type(tmp_path: Path, sheets: Path) -> None:
    text = edit('type = "destroy_artillery"', 'type = "destroy_artilery"')
    text = edit("turns = 3", "turns = 3\nhexes = 2", text)
    lines = problems(tmp_path, sheets, text)
    only(lines, 'victory[0].type "destroy_artilery": must be one of destroy_artillery,')
    only(lines, "victory[1].hexes: unknown key", '(did you mean "hex"?)')


def test_battlesystem_attack_die_notation(tmp_path: Path, sheets: Path) -> None:
    """BS-1, BS-6: attack dice are d4-d12 in the notations 6*4, [12]8, 12+8."""
    extra = (
        '\n[[units]]\nid = "trolls"\nside = "south"\nsheet = [1, 1]\nhex = "0101"\nfacing = 1\n'
        'profile = { system = "battlesystem", type = "infantry", figures = 11, ad = "7", '
        "ar = 5, hits_per_figure = 4, move = 9 }\n"
    )
    lines = problems(tmp_path, sheets, BASE + extra)
    only(
        lines,
        "units[2].profile.ad \"7\": attack dice '7': d7 is not an attack die "
        "(d4, d6, d8, d10, d12)",
    )


def test_toy_soldier_shooter_profile(tmp_path: Path, sheets: Path) -> None:
    """TS-3: a gun needs a shooter profile R/C - N [flags]."""
    extra = (
        '\n[[units]]\nid = "gun"\nside = "south"\nsheet = [1, 1]\nhex = "0101"\nfacing = 1\n'
        'profile = { system = "toysoldiers", type = "gun", gun_type = "cannon", shooter = "5-3" }\n'
    )
    lines = problems(tmp_path, sheets, BASE + extra)
    only(lines, 'units[2].profile.shooter "5-3": shooter profile', "(TS-3)")


def test_broken_sheet_file_is_reported_where_it_is_named(tmp_path: Path, sheets: Path) -> None:
    (sheets / "hills.toml").write_text('id = "hills"\nname = "Hills"\n', encoding="utf-8")
    lines = problems(tmp_path, sheets, BASE)
    only(lines, 'layout[1].sheet "hills": the sheet file does not load:', 'missing key "category"')


def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path, sheets: Path) -> None:
    text = edit('sheet = "woods"', 'sheet = "wods"')
    text = edit('hex = "0705"', 'hex = "1618"', text)
    text = edit("facing = 1", "facing = 0", text)
    text = edit('weapon = "long_tom"', 'weapon = "cannon"', text)
    text = edit("turns = 12", "turns = 0", text)
    lines = problems(tmp_path, sheets, text)
    assert len(lines) == 5
    assert all(ln.startswith(f"{tmp_path / 'hunt.toml'}: ") for ln in lines)


def test_MAP_3_build_area_agrees_on_the_sides(sheets: Path) -> None:
    """MAP-2, MAP-3: the play area built from a scenario has its layout and half-line."""
    area_module = pytest.importorskip("game.board.area")
    s = parse_scenario(BASE, "hunt.toml", sheets)
    area = s.build_area(sheets)
    assert isinstance(area, area_module.PlayArea)
    assert sorted(area.positions) == sorted(s.positions)
    for pos in [*s.positions, (0, -3), (4, 1), (9, 2)]:
        assert area.side_of_position(pos) == s.side_of_position(pos)
    for unit in s.units:
        assert area.name_of(area.hex_at(unit.sheet, unit.hex)) == (unit.sheet, unit.hex)


def test_full_example_of_the_documentation_loads(tmp_path: Path) -> None:
    """docs/scenarios.md: the full example is a valid scenario."""
    doc = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = doc.split("## Full example", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    folder = tmp_path / "sheets"
    folder.mkdir()
    for sheet_id in ("farmland", "river_ford", "hills"):
        (folder / f"{sheet_id}.toml").write_text(sheet_text(sheet_id), encoding="utf-8")
    s = parse_scenario(example, "ridge_watch.toml", folder)
    assert s.name == "Ridge Watch" and s.predesignated_limit("north") == 5
    assert s.units[0].profile["gunnery"] == 3 and s.units[0].profile["weight_class"] == "light"
    assert s.battery_position(s.artillery[0]) == (0, -4)


def test_missing_keys_of_units_and_batteries_are_reported_not_raised(
    tmp_path: Path, sheets: Path
) -> None:
    text = edit('hex = "0705"\n', "")
    text = edit("along = 1\ndistance = 5\n", "distance = 5\n", text)
    lines = problems(tmp_path, sheets, text)
    only(lines, 'units[0]: missing key "hex"')
    only(lines, 'artillery[0]: missing key "along"')


def test_values_of_the_wrong_kind_are_reported_not_raised(tmp_path: Path, sheets: Path) -> None:
    text = edit('template = "locust"', "template = [1, 2]")
    text = edit('type = "destroy_artillery"', "type = []", text)
    text = edit("position = [0, 1]", 'position = "0, 1"', text)
    lines = problems(tmp_path, sheets, text)
    only(lines, "units[0].profile.template [1, 2]: must be a template name in quotes")
    only(lines, "victory[0].type []: must be one of destroy_artillery,")
    only(lines, 'layout[2].position "0, 1": must be a sheet position [i, j] (two whole numbers)')


def test_sheet_file_that_is_not_utf8_is_reported_where_it_is_named(
    tmp_path: Path, sheets: Path
) -> None:
    (sheets / "woods.toml").write_bytes(b"\xff" + sheet_text("woods").encode())
    lines = problems(tmp_path, sheets, BASE)
    only(lines, 'layout[2].sheet "woods": the sheet file does not load:', "not UTF-8 text")


def test_MOV_2_enemy_units_never_share_a_hex(tmp_path: Path, sheets: Path) -> None:
    """MOV-2: a unit may not end in a hex with an enemy unit; friends may stack."""
    text = edit('sheet = [1, 1]\nhex = "0712"', 'sheet = [0, 0]\nhex = "0705"')
    lines = problems(tmp_path, sheets, text)
    assert lines == [
        f'{tmp_path / "hunt.toml"}: units[1].hex "0705": units[0] of north already stands in '
        "this hex of the sheet at [0, 0]; enemy units never share a hex (MOV-2)"
    ]
    friends = edit(
        'side = "south"\nsheet = [1, 1]\nhex = "0712"',
        'side = "north"\nsheet = [0, 0]\nhex = "0705"',
    )
    assert len(parse_scenario(friends, "hunt.toml", sheets).units) == 2
