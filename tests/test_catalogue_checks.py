"""A scenario is checked with the whole folder of sheets it draws from (MAP-7): a broken
sheet file or two files with one id there is found by ``validate``, and ``simulate``
reports it in one line instead of a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import main
from game.board import sheet as sheet_module
from game.scenario import validate_file

ROOT = Path(__file__).resolve().parents[1]
HUNT = ROOT / "maps" / "long_tom_hunt.toml"


@pytest.fixture
def sheets(tmp_path) -> Path:
    """A copy of the shipped sheets, to spoil."""
    folder = tmp_path / "sheets"
    shutil.copytree(ROOT / "maps" / "sheets", folder)
    return folder


def test_a_broken_sheet_the_scenario_does_not_name_is_found(sheets) -> None:
    (sheets / "zz_broken.toml").write_text('id = "zz_broken"\nname = 5\n', encoding="utf-8")
    lines = validate_file(HUNT, sheets)
    assert lines == [
        f'{HUNT}: the sheets it draws from: {sheets / "zz_broken.toml"}: "name" must be text'
    ]


def test_two_sheet_files_with_one_id_are_found(sheets) -> None:
    text = (sheets / "farmland.toml").read_text(encoding="utf-8")
    (sheets / "zz_farmland_copy.toml").write_text(text, encoding="utf-8")
    (line,) = validate_file(HUNT, sheets)
    assert "sheet id 'farmland' is already used by" in line
    assert str(sheets / "zz_farmland_copy.toml") in line


def test_simulate_reports_a_broken_catalogue_in_one_line(sheets, tmp_path, monkeypatch, capsys):
    """simulate crashed with a SheetError traceback when a sheet file was broken."""
    (sheets / "zz_broken.toml").write_text("hexes = [[[", encoding="utf-8")
    monkeypatch.setenv(sheet_module.SHEETS_ENV, str(sheets))
    code = main.main(
        ["simulate", str(HUNT), "--games", "1", "--out", str(tmp_path / "out"), "--quiet"]
    )
    err = capsys.readouterr().err
    assert code == 1  # a file that is not valid (game/cli.py)
    assert err.startswith("simulate: cannot load the scenario: ")
    assert "zz_broken.toml: not valid TOML" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
