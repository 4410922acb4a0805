"""Artillery weapons, flight time, to-hit, scatter and the exact forecast."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.artillery.flight import arrival_turn, flight_time, range_refusal, sheet_distance
from game.artillery.forecast import (
    expected_damage,
    expected_damage_at,
    forecast,
    landing_distribution,
)
from game.artillery.scatter import resolve_shell, resolve_shells
from game.artillery.tohit import (
    air_altitude_modifier,
    artillery_target_number,
    detection_target_number,
    spotter_modifier,
)
from game.artillery.weapons import WEAPONS, ammunition, ring_damage, weapon
from game.dice import ScriptedDice
from game.hexmath import Hex, disk, neighbor


@dataclass
class DiskArea:
    """A round stand-in play area for forecasts."""

    center: Hex
    radius: int

    def __post_init__(self) -> None:
        hexes = disk(self.center, self.radius)
        self._set = set(hexes)
        self.q = np.array([h.q for h in hexes], np.int32)
        self.r = np.array([h.r for h in hexes], np.int32)

    def contains(self, h: Hex) -> bool:
        return h in self._set


def test_ART_3_ranges_in_sheets() -> None:
    """ART-3: maximum ranges of every weapon, in sheets."""
    expected = {
        "arrow_iv_is": 8,
        "arrow_iv_clan": 9,
        "thumper": 21,
        "sniper": 18,
        "long_tom": 30,
        "cruise_50": 50,
        "cruise_70": 90,
        "cruise_90": 120,
        "cruise_120": 150,
    }
    assert {k: w.max_range_sheets for k, w in WEAPONS.items()} == expected


def test_ART_25_damage_rings_long_tom_and_cruise_90() -> None:
    """ART-25: Long Tom rings 25/15/5; Cruise Missile/90 rings 90/65/40/15."""
    assert WEAPONS["long_tom"].rings() == (25, 15, 5)
    assert [ring_damage("long_tom", d) for d in range(5)] == [25, 15, 5, 0, 0]
    assert WEAPONS["cruise_90"].rings() == (90, 65, 40, 15)
    assert [ring_damage("cruise_90", d) for d in range(5)] == [90, 65, 40, 15, 0]
    assert WEAPONS["thumper"].rings() == (15, 5)
    assert WEAPONS["arrow_iv_is"].rings() == (20, 10)


def test_ART_10_ammunition_is_chosen_per_weapon_with_a_reason() -> None:
    """ART-10: standard for every weapon; homing only for Arrow IV."""
    for w in WEAPONS.values():
        assert ammunition(w, "standard").id == "standard"
    assert ammunition(WEAPONS["arrow_iv_is"], "homing").homing
    with pytest.raises(ValueError, match="Long Tom cannot fire homing"):
        ammunition(WEAPONS["long_tom"], "homing")
    with pytest.raises(ValueError, match="no artillery weapon 'howitzer'"):
        weapon("howitzer")


@pytest.mark.parametrize(
    ("sheets", "turns"),
    [(0, 0), (1, 1), (8, 1), (9, 2), (15, 2), (16, 3), (21, 3), (22, 4), (26, 4), (27, 5), (30, 5)],
)
def test_ART_6_flight_time_table(sheets: int, turns: int) -> None:
    """ART-6: flight time by distance in sheets for Long Tom (and the other guns)."""
    assert flight_time("long_tom", sheets) == turns


def test_ART_6_cruise_missile_flight_time() -> None:
    """ART-6: cruise missiles fly 1 + floor(sheets / 5) turns; at 50 sheets, 11."""
    assert flight_time("cruise_50", 50) == 11
    assert flight_time("cruise_120", 4) == 1
    assert flight_time("cruise_120", 5) == 2


def test_ART_6_beyond_the_table_is_an_error() -> None:
    with pytest.raises(ValueError, match="ends at 30"):
        flight_time("long_tom", 31)


@pytest.mark.parametrize("sheets", [2.5, -1, "3", True])
def test_ART_6_a_distance_that_is_not_whole_sheets_is_refused(sheets: object) -> None:
    """ART-5/ART-6: 2.5 sheets once flew 1 turn as if it were a distance."""
    with pytest.raises(ValueError, match="whole number of sheets, 0 or more"):
        flight_time("long_tom", sheets)  # type: ignore[arg-type]


@pytest.mark.parametrize("distance", [1.5, -1, "1"])
def test_ART_25_ring_damage_needs_a_whole_distance(distance: object) -> None:
    with pytest.raises(ValueError, match="whole number of hexes, 0 or more"):
        ring_damage("long_tom", distance)  # type: ignore[arg-type]


def test_ART_5_sheet_distance_and_ART_7_arrival_turn() -> None:
    """ART-5: max(|di|, |dj|); ART-7: arrival = fired + flight time."""
    assert sheet_distance((0, 0), (3, -16)) == 16
    assert sheet_distance((-2, 1), (-2, 1)) == 0
    assert arrival_turn(1, "long_tom", 16) == 4


def test_ART_3_range_refusal_names_weapon_reach_and_distance() -> None:
    """ART-3: a shot beyond range is refused with the reason in words."""
    reason = range_refusal("thumper", (0, 0), (0, -23), "0707")
    assert reason == "Thumper reaches 21 sheets; 0707 on sheet (0,-23) is 23 away"
    assert range_refusal("thumper", (0, 0), (0, -21)) is None


@pytest.mark.parametrize(
    ("gunnery", "mod"), [(0, -2), (1, -1), (2, -1), (3, 0), (4, 0), (5, 0), (6, 1), (7, 1), (8, 2)]
)
def test_ART_13_spotter_modifier_rounds_fractions_down(gunnery: int, mod: int) -> None:
    """ART-13: -1 per 2 points below 4, +1 per 2 above, fractions rounded down."""
    assert spotter_modifier(gunnery) == mod


def test_ART_11_to_hit_breakdown_with_spotter_adjustment_and_ART_18() -> None:
    """ART-11/13/17/18: gunnery + 7 + spotter + adjusted fire + spotter attacking."""
    tn = artillery_target_number(4, spotter_gunnery=2, adjustments=2, spotter_attacking=True)
    assert tn.total == 4 + 7 - 1 - 2 + 1
    assert tn.breakdown() == (
        "gunnery 4, indirect +7, spotter (gunnery 2) -1, adjusted fire -2, spotter attacking +1 = 9"
    )
    assert artillery_target_number(4).breakdown() == "gunnery 4, indirect +7 = 11"


def test_ART_23_detection_target_number_worked_example() -> None:
    """ART-23: gunnery 2 -> 2 + 5 - 1 = 6."""
    assert detection_target_number(2) == 6
    assert detection_target_number(4) == 9


def test_ART_14_air_launched_altitude_modifiers() -> None:
    """ART-14: altitude 4-6 +1, 7-9 +2, 10 and above no attack."""
    assert [air_altitude_modifier(a) for a in (1, 3, 4, 6, 7, 9)] == [0, 0, 1, 1, 2, 2]
    assert air_altitude_modifier(10) is None
    with pytest.raises(ValueError, match="altitude 12"):
        artillery_target_number(4, altitude=12)


def test_ART_11_hit_on_roll_at_or_above_target_number() -> None:
    """ART-11: 2d6 >= to-hit number hits the aimed hex."""
    dice = ScriptedDice([4, 4])
    shell = resolve_shell(dice, Hex(3, 3), 8, lambda h: True)
    assert shell.hit and shell.landing == Hex(3, 3) and shell.margin == 0
    assert shell.account() == "2d6 = 8 vs 8: hit on (3,3)"
    assert dice.remaining == 0


def test_ART_12_miss_scatters_margin_hexes_in_the_d6_direction() -> None:
    """ART-12: roll 5 vs 8 misses by 3; d6 = 2 scatters 3 hexes north-east."""
    dice = ScriptedDice([2, 3, (6, 2)])
    shell = resolve_shell(dice, Hex(0, 0), 8, lambda h: True)
    assert not shell.hit and shell.margin == 3 and shell.direction == 2
    assert shell.landing == Hex(3, -3)
    assert shell.account() == (
        "2d6 = 5 vs 8: miss by 3, scatter 3 hexes north-east (d6 = 2), lands in (3,-3)"
    )


def test_ART_12_scatter_off_the_area_is_lost() -> None:
    """ART-12: a landing hex outside the play area is recorded as lost."""
    area = DiskArea(Hex(0, 0), 2)
    shell = resolve_shell(ScriptedDice([1, 1, (6, 4)]), Hex(0, 0), 10, area.contains)
    assert shell.lost and shell.landing == Hex(0, 8)
    assert "lost" in shell.account()


def test_ART_21_automatic_hit_needs_no_roll() -> None:
    """ART-19/ART-21: an automatic hit rolls nothing and names why."""
    dice = ScriptedDice([])
    shell = resolve_shell(dice, Hex(1, 1), None, lambda h: True, automatic="pre-designated hex")
    assert shell.hit and shell.roll is None
    assert shell.account() == "hits (1,1) automatically (pre-designated hex)"


@given(
    q=st.integers(-200, 200),
    r=st.integers(-200, 200),
    direction=st.integers(1, 6),
    tn=st.integers(3, 14),
    a=st.integers(1, 6),
    b=st.integers(1, 6),
)
def test_ART_12_scatter_stays_on_the_straight_line_of_its_direction(
    q: int, r: int, direction: int, tn: int, a: int, b: int
) -> None:
    """ART-12: the landing hex is the margin-th repeated neighbour, negatives included."""
    aimed = Hex(q, r)
    shell = resolve_shell(ScriptedDice([a, b, (6, direction)]), aimed, tn, lambda h: True)
    if a + b >= tn:
        assert shell.landing == aimed
        return
    h = aimed
    walked = []
    for _ in range(tn - a - b):
        h = neighbor(h, direction)
        walked.append(h)
    assert shell.landing == h
    assert list(shell.path) == walked


def test_forecast_landing_probabilities_sum_to_one() -> None:
    """ART-11/ART-12: landing plus lost is a whole distribution."""
    area = DiskArea(Hex(0, 0), 6)
    fc = forecast(area, Hex(2, -1), 9, "long_tom")
    assert fc.hit_probability == pytest.approx(10 / 36)
    assert sum(fc.landing.values()) + fc.lost == pytest.approx(1.0)
    assert fc.lost > 0
    assert fc.landing[Hex(2, -1)] == pytest.approx(10 / 36)
    exact = landing_distribution(Hex(0, 0), 9)
    assert sum(exact.values()) == 1


def test_forecast_expected_damage_from_rings() -> None:
    """ART-25: an automatic hit's expected damage is exactly the rings."""
    area = DiskArea(Hex(0, 0), 5)
    fc = forecast(area, Hex(0, 0), None, "long_tom")
    assert fc.hit_probability == 1.0 and fc.lost == 0.0
    assert fc.expected_damage[Hex(0, 0)] == 25
    assert fc.expected_damage[Hex(1, 0)] == 15
    assert fc.expected_damage[Hex(0, 2)] == 5
    assert Hex(0, 3) not in fc.expected_damage


def test_expected_damage_is_the_forecasts_damage_array() -> None:
    """ART-25: the damage alone, as the AI weighs its aims, is the forecast's to the
    last bit: in the middle, by the edge (shells lost off the area), off the area,
    automatic hits and long odds."""
    area = DiskArea(Hex(0, 0), 6)
    aims = [(Hex(0, 0), 8), (Hex(5, -1), 10), (Hex(6, 0), None), (Hex(12, 0), 7), (Hex(2, 2), 12)]
    for aimed, tn in aims:
        for weapon_id in ("long_tom", "thumper", "arrow_iv_is"):
            whole = forecast(area, aimed, tn, weapon_id).damage_array
            alone = expected_damage(area, aimed, tn, weapon_id)
            assert alone.tobytes() == whole.tobytes(), (aimed, tn, weapon_id)
    centre = int(np.flatnonzero((area.q == 0) & (area.r == 0))[0])
    assert expected_damage(area, Hex(0, 0), None, "long_tom")[centre] == 25
    assert not expected_damage(area, Hex(40, 0), 8, "long_tom").any()


def test_expected_damage_at_some_hexes_is_the_whole_arrays() -> None:
    """ART-25: the damage read at a few area hexes alone (the AI's exact check of its
    best aims) is the whole array's there, to the last bit: hexes in the rings, far
    out of them, by the edge, aims off the area, automatic hits and long odds."""
    area = DiskArea(Hex(0, 0), 6)
    every = np.arange(len(area.q))
    picked = np.array([0, 5, len(area.q) - 1, 17, 17, 40, 3], dtype=np.int64)
    aims = [(Hex(0, 0), 8), (Hex(5, -1), 10), (Hex(6, 0), None), (Hex(12, 0), 7), (Hex(2, 2), 12)]
    for aimed, tn in aims:
        for weapon_id in ("long_tom", "thumper", "arrow_iv_is"):
            whole = expected_damage(area, aimed, tn, weapon_id)
            for at in (every, picked, picked[:0]):
                some = expected_damage_at(area, aimed, tn, weapon_id, at)
                assert some.tobytes() == whole[at].tobytes(), (aimed, tn, weapon_id)


def test_forecast_matches_100000_resolved_shells_chi_square() -> None:
    """ART-11/ART-12: 100,000 seeded shells match the forecast (chi-square, p > 0.001)."""
    area = DiskArea(Hex(0, 0), 7)
    aimed = Hex(1, -1)
    tn = 8
    fc = forecast(area, aimed, tn, "thumper")
    batch = resolve_shells(np.random.default_rng(12345), aimed, tn, 100_000)
    counts: dict[Hex, int] = {}
    lost = 0
    for q, r in zip(batch.landing_q.tolist(), batch.landing_r.tolist(), strict=True):
        h = Hex(q, r)
        if area.contains(h):
            counts[h] = counts.get(h, 0) + 1
        else:
            lost += 1
    cells = [(counts.get(h, 0), p) for h, p in fc.landing.items()] + [(lost, fc.lost)]
    chi2 = sum((obs - 100_000 * p) ** 2 / (100_000 * p) for obs, p in cells if p > 0)
    dof = sum(1 for _, p in cells if p > 0) - 1
    # Wilson-Hilferty approximation of the chi-square 0.999 quantile.
    z = 3.090
    limit = dof * (1 - 2 / (9 * dof) + z * (2 / (9 * dof)) ** 0.5) ** 3
    assert chi2 < limit, (chi2, dof, limit)
