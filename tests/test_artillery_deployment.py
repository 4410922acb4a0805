"""Off-board deployment (ART-1, ART-2, ART-4, ART-5), homing fire beyond range
(ART-15) and air-launched Arrow IV (ART-14)."""

from __future__ import annotations

import json

import pytest

from game.artillery.deployment import (
    DeploymentError,
    OffBoardPosition,
    air_flight_time,
    air_target_refusal,
    default_along,
    deploy,
    deployment_refusals,
    high_altitude_launch,
    high_altitude_sheets,
    low_altitude_launch,
    resolve_shot,
    shot_fate,
)
from game.board.area import PlayArea, sheet_hex
from game.board.sheet import parse_sheet
from game.dice import ScriptedDice
from game.hexmath import Hex
from tests.sheet_factory import sheet_text

CATALOGUE = {
    name: parse_sheet(sheet_text(sheet_id=name), name) for name in ("farm", "hills", "town")
}


def grid(cols: int, rows: int, home_edges: str = "north-south") -> PlayArea:
    layout = {(i, j): "farm" for i in range(cols) for j in range(rows)}
    return PlayArea.from_layout(layout, home_edges=home_edges, sheets=CATALOGUE)


def north_battery(area: PlayArea, direction: str = "behind", distance: int = 1, **kw: object):
    return deploy(
        area, "lt1", "north", direction, distance, "hills", "0909", sheets=CATALOGUE, **kw
    )  # type: ignore[arg-type]


def test_ART_2_distance_one_is_the_first_sheet_beyond_the_edge() -> None:
    """ART-1/ART-2: behind the north edge of a 2x2 area, distance 1 is sheet row -1,
    centred on column 0 by default; distance 3 is row -3."""
    area = grid(2, 2)
    assert default_along(area, "north") == 0
    assert north_battery(area).position == (0, -1)
    assert north_battery(area, distance=3).position == (0, -3)
    assert north_battery(area, "north", 2, along=1).position == (1, -2)
    assert north_battery(area).direction == "north"


def test_ART_1_never_behind_the_enemy_edge() -> None:
    """ART-1: a battery stands behind its own home edge or on a flank, never behind the enemy's."""
    area = grid(2, 2)
    with pytest.raises(DeploymentError, match="never behind the south edge, the enemy's"):
        north_battery(area, "south")


def test_ART_1_flank_positions_must_be_on_the_own_side_of_the_half_line() -> None:
    """ART-1 + MAP-3: on a 2x2 area north's half is sheet row 0 and above; on a
    3x3 area the middle row is on the half-line and belongs to neither side."""
    area = grid(2, 2)
    assert north_battery(area, "west", 2, along=0).position == (-2, 0)
    assert north_battery(area, "east", 2, along=-1).position == (3, -1)
    with pytest.raises(DeploymentError, match="is on south's side"):
        north_battery(area, "west", 2, along=1)
    square = grid(3, 3)
    with pytest.raises(DeploymentError, match="on the half-line, which belongs to neither side"):
        north_battery(square, "east", 1, along=1)


def test_ART_1_the_position_must_lie_beyond_the_declared_edge() -> None:
    """ART-1 decision: a battery declared behind the north edge must stand beyond
    the north edge (ART-27 attacks from that edge), with a hint of the legal range."""
    area = grid(2, 2)
    assert north_battery(area, along=-1).position == (-1, -1)
    with pytest.raises(DeploymentError, match="beyond the east edge rather than the north edge"):
        north_battery(area, along=5)
    assert any(
        "choose a column from -1 to 2" in r
        for r in deployment_refusals(
            area, "north", "north", 1, "hills", "0909", 5, sheets=CATALOGUE
        )
    )


def test_ART_2_sheet_and_hex_are_checked_and_every_reason_given() -> None:
    """ART-2: the declared sheet must exist and the hex must be a real XXYY."""
    area = grid(2, 2)
    reasons = deployment_refusals(area, "north", "north", 0, "castle", "1620", sheets=CATALOGUE)
    text = " | ".join(reasons)
    assert "distance is a whole number of sheets, 1 or more" in text
    assert 'no sheet "castle"' in text
    assert "column 16 is outside a sheet" in text
    assert len(reasons) == 3
    with pytest.raises(DeploymentError, match="not one of this area's sides"):
        deploy(area, "x", "east", "behind", 1, "farm", "0101", sheets=CATALOGUE)


def test_ART_3_deployment_out_of_reach_of_the_whole_area() -> None:
    """ART-3: Arrow IV (IS) reaches 8 sheets; 9 sheets behind the edge is too far."""
    area = grid(2, 2)
    assert north_battery(area, distance=8, weapon_="arrow_iv_is").position == (0, -8)
    with pytest.raises(DeploymentError, match="reaches 8 sheets but the nearest sheet"):
        north_battery(area, distance=9, weapon_="arrow_iv_is")


def test_ART_2_battery_hex_on_the_global_lattice() -> None:
    """ART-2 + MAP-2: the battery's hex is its XXYY on its sheet position, off the area."""
    area = grid(2, 2)
    pos = north_battery(area, distance=3)
    assert pos.battery_hex == area.hex_0909((0, -3)) == sheet_hex((0, -3), 8, 8)
    assert not area.contains(pos.battery_hex)


def test_ART_5_sheet_distance_flight_time_and_range_from_the_battery() -> None:
    """ART-5: sheets counted as max(|di|, |dj|) from the battery's sheet to the
    target's; flight time and range follow (ART-6, ART-3)."""
    area = grid(2, 2)
    pos = north_battery(area, distance=3)  # at (0, -3)
    target = area.hex_at((1, 1), "0808")
    assert pos.sheets_to(area, target) == 4
    assert pos.flight_time_to(area, "long_tom", target) == 1
    far = north_battery(area, distance=8)
    assert far.sheets_to(area, target) == 9
    assert far.flight_time_to(area, "long_tom", target) == 2
    assert far.range_refusal(area, "arrow_iv_is", target) == (
        "Arrow IV (Inner Sphere) reaches 8 sheets; the target's sheet (1,1) is 9 sheets "
        "from the battery"
    )
    assert far.range_refusal(area, "arrow_iv_clan", target) is None


def test_ART_4_the_opponent_sees_nothing_and_saves_round_trip() -> None:
    """ART-4: position, sheet, hex, direction and distance are the owner's alone."""
    area = grid(2, 2)
    pos = north_battery(area, "west", 2, along=0)
    assert pos.view_for("south") is None
    assert pos.view_for("north") == pos.to_dict()
    data = json.loads(json.dumps(pos.to_dict()))
    assert OffBoardPosition.from_dict(data) == pos
    with pytest.raises(DeploymentError, match="missing position"):
        OffBoardPosition.from_dict({k: v for k, v in data.items() if k != "position"})


def test_MAP_10_the_declared_sheet_comes_into_play_with_the_battery() -> None:
    """MAP-10: a sheet placed on the battery's position must be its declared sheet;
    once it is in play the battery is on the board."""
    area = grid(2, 2)
    pos = north_battery(area)
    assert not pos.on_board(area)
    assert pos.placement_refusal((0, -1), "farm") is not None
    assert pos.placement_refusal((0, -1), "hills") is None
    assert pos.placement_refusal((1, -1), "farm") is None
    area.add_sheet((0, -1), CATALOGUE["hills"])
    assert pos.on_board(area)
    assert area.contains(pos.battery_hex)


def test_ART_1_west_east_home_edges_have_north_and_south_flanks() -> None:
    """ART-1: with west-east home edges the flanks are north and south."""
    area = grid(2, 2, "west-east")
    west = deploy(area, "a", "west", "north", 1, "farm", "0101", along=0, sheets=CATALOGUE)
    assert west.position == (0, -1)
    with pytest.raises(DeploymentError, match="is on east's side"):
        deploy(area, "a", "west", "north", 1, "farm", "0101", along=1, sheets=CATALOGUE)


# --- ART-15 ---------------------------------------------------------------------------------------


def test_ART_15_homing_beyond_maximum_range_misses_with_no_effect() -> None:
    """ART-15: homing Arrow IV 9 sheets out (range 8) is spent: no roll, no scatter."""
    fate = shot_fate("arrow_iv_is", "homing", 9, air_launched=True)
    assert not fate.fires and fate.beyond_range == 1
    dice = ScriptedDice([])
    outcome = resolve_shot(dice, fate, Hex(3, 3), 8, lambda h: True)
    assert outcome.no_effect and outcome.landing is None
    assert dice.records == []
    assert "misses with no effect and does not scatter (ART-15)" in outcome.account()


def test_ART_15_homing_within_range_is_resolved_normally() -> None:
    """ART-15: within range a homing shot rolls to hit and scatters like any shell."""
    fate = shot_fate("arrow_iv_is", "homing", 8)
    assert fate.fires
    outcome = resolve_shot(ScriptedDice([2, 2, 4]), fate, Hex(3, 3), 8, lambda h: True)
    assert outcome.landing is not None
    assert outcome.landing.margin == 4
    assert outcome.landing.landing == Hex(3, 7)


def test_ART_3_ground_fire_beyond_range_cannot_be_plotted() -> None:
    """ART-3: a standard shell fired from the ground beyond range is refused outright."""
    with pytest.raises(ValueError, match="out of range"):
        shot_fate("long_tom", "standard", 31)
    with pytest.raises(ValueError, match="cannot fire homing"):
        shot_fate("long_tom", "homing", 3)


# --- ART-14 ---------------------------------------------------------------------------------------


def test_ART_14_high_altitude_worked_example_row_3() -> None:
    """ART-14 worked example: Arrow IV (IS) from row 3 of the high-altitude map is
    18 sheets away, flight time 3, 10 sheets beyond range: +10, and +3 for high
    altitude (gunnery 4: 4 + 7 + 10 + 3 = 24, an automatic miss that still scatters)."""
    launch = high_altitude_launch("arrow_iv_is", 4, 3)
    assert (launch.sheets, launch.flight_time, launch.beyond_range) == (18, 3, 10)
    assert launch.to_hit_number == 24
    assert "beyond maximum range +10" in launch.to_hit.breakdown()
    assert "high altitude +3" in launch.to_hit.breakdown()
    # It still lands somewhere: the margin of failure is the scatter distance.
    fate = shot_fate("arrow_iv_is", "standard", launch.sheets, air_launched=True)
    outcome = resolve_shot(ScriptedDice([6, 6, 1]), fate, Hex(0, 0), launch.to_hit, lambda h: True)
    assert outcome.landing is not None and outcome.landing.margin == 12


def test_ART_14_high_altitude_rows_and_the_ground_row() -> None:
    """ART-14: only the ground row and rows 1-4; each atmospheric hex is 6 sheets;
    decision: the ground row counts as 1 sheet (one turn to come down)."""
    assert [high_altitude_sheets(r) for r in range(5)] == [1, 6, 12, 18, 24]
    clan = high_altitude_launch("arrow_iv_clan", 3, 1)
    assert (clan.sheets, clan.flight_time, clan.beyond_range, clan.to_hit_number) == (
        6,
        1,
        0,
        13,
    )
    with pytest.raises(ValueError, match="rows 1-4"):
        high_altitude_sheets(5)
    with pytest.raises(ValueError, match="only Arrow IV can be fired from the air"):
        high_altitude_launch("long_tom", 4, 1)


def test_ART_14_low_altitude_modifiers_and_flight_time() -> None:
    """ART-14: altitude 1-3 +0, 4-6 +1, 7-9 +2 (the source's "5-9" read as 7-9);
    from 1-8 the shell arrives next turn, from 9 in two turns; 10+ no attack."""
    assert [air_flight_time(a) for a in (1, 8, 9)] == [1, 1, 2]
    for altitude, mod in ((3, 0), (5, 1), (7, 2), (9, 2)):
        launch = low_altitude_launch("arrow_iv_is", 4, altitude)
        assert launch.to_hit_number == 11 + mod
    assert low_altitude_launch("arrow_iv_is", 4, 9).flight_time == 2
    with pytest.raises(ValueError, match="altitude 10"):
        air_flight_time(10)
    with pytest.raises(ValueError, match="altitude 10"):
        low_altitude_launch("arrow_iv_is", 4, 10)


def test_ART_14_target_on_the_sheet_under_the_attacker() -> None:
    """ART-14: an air-launched Arrow IV hits only the sheet under the attacker."""
    assert air_target_refusal((1, 0), (1, 0)) is None
    assert "under the attacker (0,0)" in str(air_target_refusal((0, 0), (1, 0)))
