"""The public artillery API, used through ``import game.artillery`` on a real PlayArea."""

from __future__ import annotations

import math

import pytest

import game.artillery as art
from game.board.area import PlayArea
from game.board.sheet import parse_sheet
from game.dice import ScriptedDice
from game.hexmath import distance
from game.rules.battletech import MechDamage
from tests.sheet_factory import sheet_text

SHEETS = {"plain": parse_sheet(sheet_text(sheet_id="plain"), "plain")}


def square(n: int = 2) -> PlayArea:
    return PlayArea.from_layout(
        {(i, j): "plain" for i in range(n) for j in range(n)}, sheets=SHEETS
    )


def test_public_names_are_exported() -> None:
    for name in (
        "WEAPONS",
        "flight_time",
        "ring_damage",
        "spotter_modifier",
        "detection_target_number",
        "shielded_damage",
        "announced_side",
        "forecast",
        "apply_shell",
        "deploy",
    ):
        assert hasattr(art, name), name
    assert set(art.__all__) <= set(dir(art))


def test_ART_3_ART_6_ART_25_weapons_by_name() -> None:
    """ART-3 ranges, ART-6 flight time and ART-25 rings through the package names."""
    assert art.WEAPONS["long_tom"].max_range_sheets == 30
    assert art.flight_time("long_tom", 16) == 3
    assert art.flight_time("cruise_90", 12) == 3
    assert art.ring_damage("cruise_90", 2) == 40
    assert art.ring_damage("arrow_iv_is", 2) == 0


def test_ART_13_ART_23_modifiers_by_name() -> None:
    """ART-13 spotter modifier and the ART-23 worked example (gunnery 2 -> 6)."""
    assert [art.spotter_modifier(g) for g in (0, 2, 3, 4, 5, 6, 8)] == [-2, -1, 0, 0, 0, 1, 2]
    assert art.detection_target_number(2) == 6


def test_ART_29_worked_example_by_name() -> None:
    """ART-29: floor(21 / 40 * 15) = 7."""
    assert art.shielded_damage(40, 19, 15) == 7
    assert art.shielded_damage(10, 19, 15) == 0


@pytest.mark.parametrize(
    ("battery", "side"),
    [
        ((0, -3), 1),  # north: straight up the column
        ((0, 4), 4),  # south: straight down
        # Due west or east a battery lies between two sides of a flat-top hex;
        # the exact line from 0909 to 0909 leans toward the south by half a row
        # (23 steps one way, 22 the other), so it leaves through the south-west
        # and south-east sides.
        ((-3, 0), 5),
        ((3, 0), 3),
    ],
)
def test_ART_24_announced_side_on_a_2x2_area(battery: tuple[int, int], side: int) -> None:
    """ART-24: the announced side is crossed by the line from the target hex to
    hex 0909 of the battery's sheet (batteries north, south, west, east)."""
    area = square()
    target = area.hex_at((0, 0), "0909")
    assert art.announced_side(area, target, battery) == side


def test_ART_24_announced_side_from_another_target() -> None:
    """ART-24: from 1515 of the south-east sheet to 0909 of sheet (0,-2) the line
    runs 47 hexes north and 21 north-west: it leaves through the north side."""
    area = square()
    target = area.hex_at((1, 1), "1515")
    assert art.announced_side(area, target, (0, -2)) == 1


@pytest.mark.parametrize("tn", [None, 2, 7, 10, 13])
def test_forecast_on_a_real_area_sums_to_one(tn: int | None) -> None:
    """ART-11/ART-12: landing probabilities plus the lost share sum to 1 on a real area."""
    area = square()
    target = area.hex_at((0, 0), "0203")  # near the north-west corner: misses fall off
    fc = art.forecast(area, target, tn, "long_tom")
    assert math.isclose(sum(fc.landing.values()) + fc.lost, 1.0, abs_tol=1e-12)
    assert all(area.contains(h) for h in fc.landing)
    if tn is None:
        assert fc.landing == {target: 1.0}
        assert fc.expected_damage[target] == 25.0
    if tn is not None and tn >= 10:
        assert fc.lost > 0


def test_forecast_expected_damage_matches_rings_of_landing_hexes() -> None:
    """ART-25: expected damage in a hex is the sum over landings of P x ring damage."""
    area = square()
    target = area.hex_at((1, 1), "0808")
    fc = art.forecast(area, target, 8, "cruise_90")
    probe = area.hex_at((1, 1), "0810")
    expected = sum(
        p * art.ring_damage("cruise_90", distance(h, probe)) for h, p in fc.landing.items()
    )
    assert math.isclose(fc.expected_damage[probe], expected)
    assert math.isclose(sum(fc.landing.values()) + fc.lost, 1.0)


def test_apply_shell_through_the_package_on_a_real_area() -> None:
    """ART-26/ART-27 through the package: a Thumper in the hit hex, battery south."""
    area = square()
    landing = area.hex_at((1, 0), "0808")
    target = art.DamageTarget("hbk", landing, name="Hunchback HBK-4G", facing=4)
    out = art.apply_shell(
        ScriptedDice([3, 4, 3, 4, 3, 4]),
        area,
        landing,
        "thumper",
        [target],
        {"hbk": MechDamage.template("medium")},
        {},
        art.BatteryOrigin.off_board((1, 3)),
    )
    hit = out.unit("hbk")
    assert hit.damage == 15
    assert hit.attack_direction == "front"  # facing south, fired from the south edge
    assert out.account.splitlines()[1].startswith("Hunchback HBK-4G in 0808 on sheet (1,0)")
