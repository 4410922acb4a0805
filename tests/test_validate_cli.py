"""``python main.py validate FILE...``: "ok" or every problem, exit 0/1, never a traceback
(MAP-2, MAP-3, ART-1, ART-2, ART-3, ART-20, ART-22)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_scenario import BASE, edit, sheet_text, write_sheets

REPO = Path(__file__).resolve().parents[1]


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, str(REPO / "main.py"), *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result


def test_shipped_scenarios_and_sheets_are_ok() -> None:
    files = sorted((REPO / "maps").glob("*.toml")) + sorted((REPO / "maps/sheets").glob("*.toml"))
    assert files
    result = run("validate", *files)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines() == [f"{f}: ok" for f in files]


def test_relative_paths_from_the_repository() -> None:
    result = run("validate", "maps/long_tom_hunt.toml")
    assert (result.returncode, result.stdout) == (0, "maps/long_tom_hunt.toml: ok\n")


def test_good_file_with_other_sheets_folder(tmp_path: Path) -> None:
    sheets = write_sheets(tmp_path / "sheets")
    path = tmp_path / "hunt.toml"
    path.write_text(BASE, encoding="utf-8")
    result = run("validate", "--sheets", sheets, path)
    assert (result.returncode, result.stdout) == (0, f"{path}: ok\n")


def test_one_bad_file_among_good_ones_fails_the_run(tmp_path: Path) -> None:
    sheets = write_sheets(tmp_path / "sheets")
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(BASE, encoding="utf-8")
    bad.write_text(edit("facing = 1", "facing = 9"), encoding="utf-8")
    result = run("validate", "--sheets", sheets, good, bad)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{good}: ok",
        f"{bad}: units[1].facing 9: must be a whole number 1-6 (1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW)",
    ]


# Each case: (name, change to the base scenario, a part of the expected message).
CASES = [
    ("toml_syntax", ("turns = 12", "turns 12"), "not valid TOML: "),
    (
        "unknown_sheet",
        ('sheet = "woods"', 'sheet = "wods"'),
        'layout[2].sheet "wods": no such sheet',
    ),
    (
        "MAP_2_same_position",
        ("position = [1, 1]", "position = [1, 0]"),
        "layout[3].position [1, 0]: two sheets at one position",
    ),
    (
        "MAP_2_not_connected",
        ("position = [1, 0]", "position = [2, 2]"),
        "layout[1].position [2, 2]: the layout is not connected",
    ),
    (
        "hex_outside_sheet",
        ('hex = "0705"', 'hex = "1618"'),
        'units[0].hex "1618": column 16 is outside a sheet (01-15)',
    ),
    (
        "unit_without_sheet",
        ('sheet = [0, 0]\nhex = "0705"', 'sheet = [5, 5]\nhex = "0705"'),
        "units[0].sheet [5, 5]: no sheet at that position",
    ),
    (
        "duplicate_id",
        ('id = "s-platoon"', 'id = "n-spotter"'),
        'units[1].id "n-spotter": duplicate id',
    ),
    (
        "profile_typo",
        ("troopers = 28", "troopes = 28"),
        'units[1].profile.troopes: unknown key (did you mean "troopers"?)',
    ),
    (
        "MAP_3_side_not_a_home_edge",
        ('side = "south"\nsheet = [1, 1]', 'side = "east"\nsheet = [1, 1]'),
        'units[1].side "east": not a side of a north-south scenario',
    ),
    (
        "ART_1_enemy_edge",
        ('direction = "east"', 'direction = "north"'),
        'artillery[1].direction "north": ART-1: a battery stands behind its own home edge',
    ),
    (
        "ART_1_flank_wrong_half",
        ("along = 1\ndistance = 3", "along = -2\ndistance = 3"),
        "artillery[1].along -2: ART-1: a battery on the east flank must stand on its own side",
    ),
    (
        "ART_2_distance_zero",
        ("distance = 5", "distance = 0"),
        "artillery[0].distance 0: must be a whole number 1-200",
    ),
    (
        "ART_3_unknown_weapon",
        ('weapon = "long_tom"', 'weapon = "howitzer"'),
        'artillery[0].weapon "howitzer": must be one of arrow_iv_is,',
    ),
    (
        "ART_3_out_of_range",
        ("distance = 5", "distance = 31"),
        "artillery[0].distance 31: ART-3: a long_tom reaches 30 sheets",
    ),
    (
        "ART_20_option_off",
        ("predesignated_hexes = true", "predesignated_hexes = false"),
        "predesignated: the scenario lists pre-designated hexes but "
        "options.predesignated_hexes is false (ART-20)",
    ),
    (
        "unknown_system",
        ('system = "battletech"\ntype = "infantry"', 'system = "mechwarrior"\ntype = "infantry"'),
        'units[1].profile.system "mechwarrior": must be one of battletech,',
    ),
    (
        "missing_name",
        ('name = "Test Hunt"\n', ""),
        'scenario: missing key "name"',
    ),
    (
        "bad_home_edges",
        ('home_edges = "north-south"', 'home_edges = "north-east"'),
        'scenario.home_edges "north-east": must be one of north-south, west-east',
    ),
]


@pytest.mark.parametrize(("change", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_scenario_fails_with_its_message(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    sheets = write_sheets(tmp_path / "sheets")
    path = tmp_path / "hunt.toml"
    path.write_text(edit(*change), encoding="utf-8")
    result = run("validate", "--sheets", sheets, path)
    assert result.returncode == 1
    assert f"{path}: {message}" in result.stdout
    assert f"{path}: ok" not in result.stdout


def test_ART_22_too_many_predesignated_hexes(tmp_path: Path) -> None:
    """ART-22: one battery on four sheets allows five pre-designated hexes."""
    sheets = write_sheets(tmp_path / "sheets")
    extra = "".join(
        f'\n[[predesignated]]\nside = "north"\nsheet = [{n % 2}, 0]\nhex = "01{n + 1:02d}"\n'
        for n in range(5)
    )
    path = tmp_path / "greedy.toml"
    path.write_text(BASE + extra, encoding="utf-8")
    result = run("validate", "--sheets", sheets, path)
    assert result.returncode == 1
    assert f"{path}: predesignated: north lists 6 hexes; ART-22 allows 5" in result.stdout


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    result = run("validate", path)
    assert (result.returncode, result.stdout) == (
        1,
        f"{path}: cannot read: No such file or directory\n",
    )


def test_folder_given_as_a_file(tmp_path: Path) -> None:
    result = run("validate", tmp_path)
    assert result.returncode == 1
    assert result.stdout == f"{tmp_path}: cannot read: Is a directory\n"


def test_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe[scenario]\n")
    result = run("validate", path)
    assert result.returncode == 1
    assert result.stdout == (
        f"{path}: not UTF-8 text (byte 0xff at offset 0); save the file as UTF-8\n"
    )


def test_empty_scenario_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.toml"
    path.write_text("", encoding="utf-8")
    result = run("validate", path)
    assert result.returncode == 1
    assert f"{path}: missing table [scenario]" in result.stdout
    assert f"{path}: missing [[layout]]" in result.stdout


def test_malformed_sheet_file_in_a_sheets_folder(tmp_path: Path) -> None:
    folder = tmp_path / "sheets"
    folder.mkdir()
    path = folder / "marsh.toml"
    path.write_text(sheet_text("marsh").replace(' 0. 0.\n"""', ' 0. 0q\n"""'), encoding="utf-8")
    result = run("validate", path)
    assert result.returncode == 1
    assert result.stdout == (
        f'{path}: hex 1517: "0q" is not a terrain token (level, then one of . w W r ~N #, '
        "then an optional = for a road)\n"
    )


def test_sheet_recognised_by_its_content_outside_sheets_folder(tmp_path: Path) -> None:
    path = tmp_path / "plain.toml"
    path.write_text(sheet_text("plain").replace('category = "flat"', 'category = "moon"'))
    result = run("validate", path)
    assert result.returncode == 1
    assert f'{path}: category "moon" is not one of flat,' in result.stdout


def test_sheet_whose_id_is_not_its_file_name(tmp_path: Path) -> None:
    folder = tmp_path / "sheets"
    folder.mkdir()
    path = folder / "marsh.toml"
    path.write_text(sheet_text("swamp"), encoding="utf-8")
    result = run("validate", path)
    assert result.returncode == 1
    assert result.stdout.startswith(f'{path}: id "swamp" differs from the file name;')


def test_good_sheet_file(tmp_path: Path) -> None:
    path = write_sheets(tmp_path / "sheets") / "hills.toml"
    result = run("validate", path)
    assert (result.returncode, result.stdout) == (0, f"{path}: ok\n")


def test_help_lists_the_window_options_and_the_other_commands() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert "--scenario FILE" in result.stdout
    assert "python main.py validate" in result.stdout
    assert "python main.py simulate" in result.stdout


def test_validate_without_files_is_a_usage_error() -> None:
    result = run("validate")
    assert result.returncode == 2
    assert "the following arguments are required: FILE" in result.stderr
