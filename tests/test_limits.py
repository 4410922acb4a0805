"""The limits of game/limits.py, enforced alike by scenario checks, the play area and
play; hex names of ASCII digits compared as places (MAP-1, MAP-2, MAP-6, MAP-10, MOV-2)."""

from __future__ import annotations

import copy
import os
import tomllib
from pathlib import Path

import pytest

from game.board.area import AreaError, PlayArea
from game.board.movement import mover_for, reachable
from game.board.sheet import SheetError, available_sheets, load_sheet, parse_xxyy
from game.limits import (
    AREA_SHEETS_LIMIT,
    AREA_SPAN_LIMIT,
    BATTERIES_LIMIT,
    NESTING_LIMIT,
    SHEET_POSITION_LIMIT,
    UNITS_LIMIT,
)
from game.scenario import ScenarioError, load_scenario, scenario_from_dict, validate_file
from game.state import IllegalCommand, apply, legal_commands, new_game
from game.state.commands import Deploy

REPO = Path(__file__).resolve().parents[1]
HUNT = REPO / "maps" / "long_tom_hunt.toml"


def hunt() -> dict:
    return tomllib.loads(HUNT.read_text(encoding="utf-8"))


def problems(data: dict) -> str:
    with pytest.raises(ScenarioError) as caught:
        scenario_from_dict(data, "hunt.toml")
    return str(caught.value)


# --- sheet positions and the size of the area ------------------------------------------


def test_sheet_position_far_out_is_refused_by_the_scenario_check() -> None:
    """A layout at [200000000, 0] passed validate and overflowed int32 in play."""
    data = hunt()
    data["layout"][1]["position"] = [200_000_000, 0]
    text = problems(data)
    assert "layout[1].position [200000000, 0]" in text
    assert f"-{SHEET_POSITION_LIMIT}..{SHEET_POSITION_LIMIT}" in text


def test_play_area_refuses_a_position_beyond_the_limit() -> None:
    sheet = next(iter(available_sheets().values()))
    with pytest.raises(AreaError, match="too far out"):
        PlayArea([((SHEET_POSITION_LIMIT + 1, 0), sheet)])


def test_layout_over_the_sheet_limit_is_refused_by_the_scenario_check() -> None:
    """MAP-2: a 1,404-sheet row validated, then the movement search refused it in play."""
    data = hunt()
    data["layout"] = [{"position": [i, 0], "sheet": "farmland"} for i in range(-700, 704)]
    assert f"a play area holds at most {AREA_SHEETS_LIMIT} sheets, not 1404" in problems(data)


def test_layout_wider_than_the_span_limit_is_refused() -> None:
    data = hunt()
    row = [{"position": [i, 0], "sheet": "farmland"} for i in range(AREA_SPAN_LIMIT + 1)]
    data["layout"] = row
    assert f"spans at most {AREA_SPAN_LIMIT} sheets east to west" in problems(data)


def test_play_area_refuses_too_many_sheets_and_too_wide_a_span() -> None:
    sheet = next(iter(available_sheets().values()))
    too_many = [((i, j), sheet) for i in range(17) for j in range(16)]  # 272 sheets
    with pytest.raises(AreaError, match=f"at most {AREA_SHEETS_LIMIT} sheets"):
        PlayArea(too_many)
    area = PlayArea([((i, 0), sheet) for i in range(AREA_SPAN_LIMIT)])
    with pytest.raises(AreaError, match=f"spans at most {AREA_SPAN_LIMIT} sheets"):
        area.add_sheet((AREA_SPAN_LIMIT, 0), sheet)


def test_MAP_6_no_exit_where_the_area_may_not_grow() -> None:
    """MAP-6: a unit may leave only toward a position where a sheet can be laid: at the
    span limit the far edges are no exits, the near ones still are."""
    sheet = available_sheets()["farmland"]
    area = PlayArea([((i, 0), sheet) for i in range(AREA_SPAN_LIMIT)])
    assert not area.may_grow_to((AREA_SPAN_LIMIT, 0))
    assert not area.may_grow_to((-1, 0))
    assert area.may_grow_to((0, 1))
    mech = mover_for("battletech", {"type": "mech", "walk": 8})
    east = reachable(area, area.hex_at((AREA_SPAN_LIMIT - 1, 0), "1409"), 2, mech, exits=True)
    assert not any(r.exit_to == (AREA_SPAN_LIMIT, 0) for r in east.exits().values())
    south = reachable(area, area.hex_at((0, 0), "0816"), 4, mech, exits=True)
    assert any(r.exit_to == (0, 1) for r in south.exits().values())


def test_deploy_far_out_is_refused_at_once() -> None:
    """ART-2: a Deploy 10 million sheets out searched every column along the edge
    (seconds; a billion hung the game) before refusing; now the limit refuses it first."""
    state = new_game(HUNT, 1)
    side = state.active
    deploy = next(c for c in legal_commands(state, side) if isinstance(c, Deploy))
    far = Deploy(side, deploy.battery, deploy.direction, 10**9 + 5, 10**9, deploy.sheet, "0807")
    with pytest.raises(IllegalCommand, match="too far out"):
        apply(state, far)


# --- units, batteries, turns --------------------------------------------------------------


def test_units_and_batteries_over_the_limits_are_refused() -> None:
    data = hunt()
    unit = data["units"][0]
    data["units"] = [dict(unit, id=f"u{k}") for k in range(UNITS_LIMIT + 1)]
    battery = data["artillery"][0]
    data["artillery"] = [dict(battery, id=f"b{k}") for k in range(BATTERIES_LIMIT + 1)]
    text = problems(data)
    assert f"units: {UNITS_LIMIT + 1} entries; a scenario has at most {UNITS_LIMIT}" in text
    assert f"artillery: {BATTERIES_LIMIT + 1} entries; a scenario has at most" in text


def test_scenario_without_units_is_refused() -> None:
    """A scenario with no units validated and ended on turn 1 with both sides winning."""
    data = hunt()
    data.pop("units")
    data.pop("artillery")
    data.pop("predesignated", None)
    assert "the scenario has no units and no artillery" in problems(data)


def test_set_up_legal_commands_within_the_battery_limit() -> None:
    """300 batteries made each set-up legal_commands take over a second; the limit keeps
    set-up to BATTERIES_LIMIT batteries, and such a scenario loads and lists its set-up."""
    data = hunt()
    north = next(b for b in data["artillery"] if b["side"] == "north")
    data["artillery"] = [
        dict(north, id=f"gun{k}", hex=f"{1 + k % 15:02d}{1 + k // 15:02d}")
        for k in range(BATTERIES_LIMIT)
    ]
    data.pop("predesignated", None)
    state = new_game(scenario_from_dict(data, "many_guns.toml"), 3)
    deploys = [c for c in legal_commands(state, "north") if isinstance(c, Deploy)]
    assert {c.battery for c in deploys} == {f"gun{k}" for k in range(BATTERIES_LIMIT)}


# --- hex names (MAP-1) ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["０３０５", "0305\n", "٠٣٠٥", " 0305", "+305", "03 5"])
def test_MAP_1_hex_names_are_four_ascii_digits(name: str) -> None:
    with pytest.raises(ValueError, match="not a hex name"):
        parse_xxyy(name)


def test_MOV_2_full_width_digits_do_not_put_two_enemies_in_one_hex() -> None:
    """MOV-2: "０３０５" matched \\d and int(), and the duplicate check compared text."""
    data = hunt()
    north = next(u for u in data["units"] if u["side"] == "north")
    south = copy.deepcopy(next(u for u in data["units"] if u["side"] == "south"))
    south.update(id="intruder", sheet=north["sheet"], hex=north["hex"])
    wide = "".join(chr(ord(c) + 0xFEE0) for c in north["hex"])
    data["units"].append(dict(south, hex=wide))
    assert "is not a hex name" in problems(data)
    data["units"][-1]["hex"] = north["hex"]
    assert "enemy units never share a hex (MOV-2)" in problems(data)


def test_MAP_10_deploy_with_full_width_digits_is_refused() -> None:
    """MAP-10: a Deploy naming its hex in full-width digits put two batteries in one hex."""
    state = new_game(HUNT, 5)
    side = state.active
    deploy = next(c for c in legal_commands(state, side) if isinstance(c, Deploy))
    wide = "".join(chr(ord(c) + 0xFEE0) for c in deploy.xxyy)
    moved = Deploy(
        side, deploy.battery, deploy.direction, deploy.along, deploy.distance, deploy.sheet, wide
    )
    with pytest.raises(IllegalCommand, match="not a hex name"):
        apply(state, moved)


# --- files: size, nesting, what they are ------------------------------------------------------


def test_deeply_nested_toml_is_a_clear_error(tmp_path: Path) -> None:
    """validate gave a RecursionError traceback for a deeply nested TOML file."""
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    (line,) = validate_file(path)
    assert line == f"{path}: tables and arrays nest more than {NESTING_LIMIT} levels deep"
    shallow = tmp_path / "shallow.toml"
    shallow.write_text("x = " + "[" * 40 + "]" * 40 + "\n", encoding="utf-8")
    assert "nest more than" in validate_file(shallow)[0]


def test_devices_and_fifos_are_refused_without_reading(tmp_path: Path) -> None:
    """validate /dev/zero ran out of memory; a FIFO hung the read."""
    (line,) = validate_file("/dev/zero")
    assert line == "/dev/zero: cannot read: not a plain file (a pipe, a socket or a device)"
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    assert validate_file(fifo) == [
        f"{fifo}: cannot read: not a plain file (a pipe, a socket or a device)"
    ]
    with pytest.raises(ScenarioError, match="not a plain file"):
        load_scenario(fifo)
    with pytest.raises(SheetError, match="not a plain file"):
        load_sheet(fifo)


def test_files_over_the_size_limit_are_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * 1_100_000 + "\n", encoding="utf-8")
    (line,) = validate_file(big)
    assert "larger than 1,000,000 bytes" in line
