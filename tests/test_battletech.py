"""BattleTech-style resolver: hit locations (ART-32), attack direction (ART-27),
damage in 5-point groups (ART-26) and direct fire (ART-32a).

Every roll comes from scripted dice, except the seeded Monte Carlo checks at
the end, which sample the resolver and compare it with its exact odds.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from game.dice import Dice, DiceScriptError, ScriptedDice
from game.hexmath import DIRECTIONS, Hex, line, neighbor, step
from game.rules.battletech import (
    ATTACK_DIRECTIONS,
    CLUSTER_HITS,
    DIRECT_FIRE_WEAPONS,
    MECH_LOCATIONS,
    MECH_TEMPLATES,
    MECH_TORSOS,
    VEHICLE_LOCATIONS,
    VEHICLE_TEMPLATES,
    InfantryDamage,
    MechDamage,
    VehicleDamage,
    apply_damage,
    attack_direction,
    attack_direction_from,
    batch_hits,
    batch_locations,
    cluster_distribution,
    damage_groups,
    damage_state_from_dict,
    direct_fire_refusal,
    direct_fire_target_number,
    direct_fire_weapon,
    entering_side,
    hit_chance,
    hit_location,
    hit_probability,
    location_distribution,
    location_names,
    range_band,
    roll_to_hit,
    target_movement_modifier,
    weapon_damage,
)
from game.rules.core import TargetNumber

CT, LT, RT, HD = "centre torso", "left torso", "right torso", "head"
LA, RA, LL, RL = "left arm", "right arm", "left leg", "right leg"

# ART-32 as printed in RULES.md, written out independently of the module.
MECH_FRONT_REAR = {2: CT, 3: RA, 4: RA, 5: RL, 6: RT, 7: CT, 8: LT, 9: LL, 10: LA, 11: LA, 12: HD}
MECH_LEFT = {2: LT, 3: LL, 4: LA, 5: LA, 6: LL, 7: LT, 8: CT, 9: RT, 10: RA, 11: RL, 12: HD}
MECH_RIGHT = {2: RT, 3: RL, 4: RA, 5: RA, 6: RL, 7: RT, 8: CT, 9: LT, 10: LA, 11: LL, 12: HD}
MECH_ROWS = [
    (direction, roll, loc)
    for direction, table in (
        ("front", MECH_FRONT_REAR),
        ("rear", MECH_FRONT_REAR),
        ("left", MECH_LEFT),
        ("right", MECH_RIGHT),
    )
    for roll, loc in table.items()
]

F, LS, RS, R, T = "front", "left side", "right side", "rear", "turret"
VEHICLE_TABLES = {
    "front": {2: F, 3: F, 4: F, 5: RS, 6: F, 7: F, 8: F, 9: LS, 10: T, 11: T, 12: T},
    "rear": {2: R, 3: R, 4: R, 5: LS, 6: R, 7: R, 8: R, 9: RS, 10: T, 11: T, 12: T},
    "left": {2: LS, 3: LS, 4: LS, 5: F, 6: LS, 7: LS, 8: LS, 9: R, 10: T, 11: T, 12: T},
    "right": {2: RS, 3: RS, 4: RS, 5: F, 6: RS, 7: RS, 8: RS, 9: R, 10: T, 11: T, 12: T},
}
VEHICLE_ROWS = [
    (d, roll, loc) for d, table in VEHICLE_TABLES.items() for roll, loc in table.items()
]

# Two dice whose sum is each roll 2..12 (scripted hit location rolls).
TWO_DICE = {
    2: (1, 1),
    3: (1, 2),
    4: (2, 2),
    5: (2, 3),
    6: (3, 3),
    7: (3, 4),
    8: (4, 4),
    9: (4, 5),
    10: (5, 5),
    11: (5, 6),
    12: (6, 6),
}


def rolls(*totals: int) -> ScriptedDice:
    """Scripted d6 pairs giving these 2d6 totals in order."""
    return ScriptedDice([(6, face) for total in totals for face in TWO_DICE[total]])


def small_mech(**changes: int) -> MechDamage:
    """A mech with small, distinct numbers, so transfers are easy to follow."""
    armour = {HD: 3, CT: 6, LT: 4, RT: 4, LA: 2, RA: 2, LL: 3, RL: 3}
    structure = {HD: 3, CT: 8, LT: 5, RT: 5, LA: 3, RA: 3, LL: 4, RL: 4}
    rear = {CT: 2, LT: 1, RT: 1}
    for key, value in changes.items():
        kind, _, loc = key.partition("_")
        loc = loc.replace("_", " ")
        {"armour": armour, "structure": structure, "rear": rear}[kind][loc] = value
    return MechDamage(armour, rear, structure)


def huge_mech() -> MechDamage:
    big = 10**9
    return MechDamage(
        dict.fromkeys(MECH_LOCATIONS, big),
        dict.fromkeys(MECH_TORSOS, big),
        dict.fromkeys(MECH_LOCATIONS, big),
    )


# --- ART-32 hit location tables -------------------------------------------------------


@pytest.mark.parametrize(("direction", "roll", "location"), MECH_ROWS)
def test_ART_32_mech_hit_location_table_row(direction: str, roll: int, location: str) -> None:
    """ART-32: every row of the front/rear, left and right mech tables."""
    assert hit_location("mech", direction, roll) == location


def test_ART_32_right_side_is_the_left_side_mirrored() -> None:
    mirror = {LT: RT, RT: LT, LA: RA, RA: LA, LL: RL, RL: LL}
    for roll in range(2, 13):
        left = hit_location("mech", "left", roll)
        assert hit_location("mech", "right", roll) == mirror.get(left, left)


@pytest.mark.parametrize(("direction", "roll", "location"), VEHICLE_ROWS)
def test_ART_32_vehicle_hit_location_table_row(direction: str, roll: int, location: str) -> None:
    """ART-32 decision: the standard vehicle table, every row (docs/battletech.md)."""
    assert hit_location("vehicle", direction, roll) == location


@pytest.mark.parametrize("direction", ATTACK_DIRECTIONS)
def test_ART_32_turret_results_on_a_turretless_vehicle_hit_the_facing_armour(
    direction: str,
) -> None:
    own = {"front": F, "rear": R, "left": LS, "right": RS}[direction]
    for roll in (10, 11, 12):
        assert hit_location("vehicle", direction, roll, has_turret=False) == own
    assert hit_location("vehicle", direction, 7, has_turret=False) == VEHICLE_TABLES[direction][7]


def test_ART_32_infantry_has_no_locations() -> None:
    assert hit_location("infantry", "left", 7) == "platoon"
    assert location_distribution("infantry", "rear") == {"platoon": Fraction(1)}
    assert location_names("infantry") == ("platoon",)


@pytest.mark.parametrize("roll", [1, 13, 2.5, True, "7"])
def test_ART_32_a_hit_location_roll_off_the_table_is_refused(roll: object) -> None:
    """ART-32: 2.5 once fell through the range check and failed inside the table."""
    with pytest.raises(ValueError, match=r"2d6, 2\.\.12, not "):
        hit_location("mech", "front", roll)  # type: ignore[arg-type]


def test_ART_32_location_distribution_is_exact() -> None:
    front = location_distribution("mech", "front")
    assert front[CT] == Fraction(7, 36)  # rolls 2 and 7
    assert front[LA] == Fraction(5, 36)  # 10, 11
    assert front[RA] == Fraction(5, 36)  # 3, 4
    assert front[HD] == Fraction(1, 36)
    left = location_distribution("mech", "left")
    assert left[LL] == Fraction(7, 36)  # 3 and 6
    assert left[LT] == Fraction(7, 36)  # 2 and 7
    assert left[LA] == Fraction(7, 36)  # 4, 5
    vehicle = location_distribution("vehicle", "left", has_turret=False)
    assert vehicle == {LS: Fraction(28, 36), F: Fraction(4, 36), R: Fraction(4, 36)}
    for kind in ("mech", "vehicle"):
        for direction in ATTACK_DIRECTIONS:
            assert sum(location_distribution(kind, direction).values()) == 1


def test_ART_32_tables_refuse_bad_input() -> None:
    with pytest.raises(ValueError, match=r"2d6, 2\.\.12, not 13"):
        hit_location("mech", "front", 13)
    with pytest.raises(ValueError, match="attack direction must be one of front, left"):
        hit_location("mech", "above", 7)
    with pytest.raises(ValueError, match="unit kind must be one of mech, vehicle, infantry"):
        location_distribution("ship", "front")


# --- to hit -----------------------------------------------------------------------------


def test_hit_probability_edges() -> None:
    """P(2d6 >= TN): certain at 2 or below, impossible above 12."""
    assert hit_probability(2) == 1.0
    assert hit_probability(-4) == 1.0
    assert hit_probability(12) == pytest.approx(1 / 36)
    assert hit_probability(13) == 0.0
    assert hit_probability(40) == 0.0
    assert hit_chance(8) == Fraction(15, 36)
    assert hit_chance(7) == Fraction(21, 36)
    assert hit_probability(TargetNumber("gunnery", 4).plus("indirect", 7)) == pytest.approx(3 / 36)
    assert isinstance(hit_probability(8), float)


def test_roll_to_hit_meets_the_number_exactly() -> None:
    result = roll_to_hit(rolls(8), 8, "medium laser")
    assert result.hit and result.margin == 0 and result.roll == 8
    assert str(result) == "2d6 = 8 vs 8: hit by 0"
    assert result.record.purpose == "medium laser"


def test_roll_to_hit_miss_carries_the_margin_of_failure() -> None:
    tn = TargetNumber("gunnery", 4).plus("indirect", 7)
    result = roll_to_hit(rolls(5), tn)
    assert not result.hit
    assert result.margin == -6
    assert result.target_number == 11 and result.target == tn
    assert str(result) == "2d6 = 5 vs 11: miss by 6"
    assert result.to_dict()["target"]["total"] == 11


def test_roll_to_hit_rolls_even_when_it_cannot_hit() -> None:
    """Artillery needs the margin for scatter (ART-12) even at a number above 12."""
    dice = rolls(12)
    result = roll_to_hit(dice, 14)
    assert not result.hit and result.margin == -2
    assert dice.remaining == 0


def test_roll_to_hit_refuses_a_non_number() -> None:
    with pytest.raises(TypeError, match="int or a TargetNumber, not str"):
        roll_to_hit(rolls(7), "8")  # type: ignore[arg-type]


# --- attack direction (ART-27, ART-32) ----------------------------------------------------

MECH_ARC = {0: "front", 1: "front", 2: "right", 3: "rear", 4: "left", 5: "front"}
VEHICLE_ARC = {0: "front", 1: "right", 2: "right", 3: "rear", 4: "left", 5: "left"}


@pytest.mark.parametrize("facing", range(1, 7))
@pytest.mark.parametrize("offset", range(6))
def test_ART_32_attack_direction_from_facing_and_entering_side(facing: int, offset: int) -> None:
    """ART-32: mechs see the facing side and its two neighbours as front, the
    rear-right and rear-left sides as right and left; vehicles only the facing
    side as front, both sides of each flank as that flank."""
    side = (facing - 1 + offset) % 6 + 1
    assert attack_direction(facing, side) == MECH_ARC[offset]
    assert attack_direction(facing, side, kind="vehicle") == VEHICLE_ARC[offset]


def test_ART_32_attack_direction_worked_cases() -> None:
    # Facing north: shots from the south-east side strike the right side.
    assert attack_direction(1, 3) == "right"
    assert attack_direction(1, 5) == "left"
    assert attack_direction(1, 4) == "rear"
    assert attack_direction(1, 2) == "front"
    # Facing south-west (5): the north-east side (2) is its back.
    assert attack_direction(5, 2) == "rear"


def test_attack_direction_refuses_bad_sides() -> None:
    with pytest.raises(ValueError, match=r"facing must be a direction 1\.\.6"):
        attack_direction(0, 1)
    with pytest.raises(ValueError, match=r"entering side must be a direction 1\.\.6"):
        attack_direction(1, 7)


@pytest.mark.parametrize("direction", range(1, 7))
def test_ART_27_entering_side_from_a_neighbour_and_from_afar(direction: int) -> None:
    target = Hex(3, -2)
    assert entering_side(target, neighbor(target, direction)) == direction
    assert entering_side(target, step(target, direction, 9)) == direction


def test_ART_27_entering_side_along_a_hex_corner_follows_the_line_nudge() -> None:
    """A line leaving exactly through a corner is settled by hexmath.line's nudge,
    the same way wherever the target stands."""
    corner_cases = {
        Hex(1, -2): 1,  # between north and north-east
        Hex(2, -1): 2,  # between north-east and south-east
        Hex(1, 1): 3,  # between south-east and south
        Hex(-1, 2): 5,  # between south and south-west
        Hex(-2, 1): 6,  # between south-west and north-west
        Hex(-1, -1): 1,  # between north-west and north
    }
    for offset, side in corner_cases.items():
        for target in (Hex(0, 0), Hex(5, -3), Hex(-7, 12)):
            attacker = Hex(target.q + offset.q, target.r + offset.r)
            assert entering_side(target, attacker) == side
            assert neighbor(target, side) == line(target, attacker)[1]


def distance_to(a: Hex, b: Hex) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def test_ART_27_entering_side_for_every_attacker_in_a_disk_is_a_side_toward_it() -> None:
    target = Hex(0, 0)
    for q in range(-6, 7):
        for r in range(-6, 7):
            attacker = Hex(q, r)
            if attacker == target:
                continue
            side = entering_side(target, attacker)
            # Stepping through that side brings the attack's origin one hex closer.
            d = DIRECTIONS[side]
            closer = Hex(target.q + d.q, target.r + d.r)
            assert distance_to(closer, attacker) == distance_to(target, attacker) - 1


def test_ART_27_offboard_shell_and_ring_units() -> None:
    """ART-27: off-board fire strikes the hit hex as if from the centre hex of
    the play-area edge; units in the ring hexes as if from the hit hex."""
    hit_hex = Hex(0, 0)
    north_edge_centre = Hex(0, -8)
    # A mech in the hit hex facing south takes the shell in its back.
    assert attack_direction_from(hit_hex, 4, north_edge_centre) == "rear"
    # A mech south-east of the hit hex, facing north: the blast comes from its
    # north-west side, one of its front sides.
    ring_unit = neighbor(hit_hex, 3)
    assert entering_side(ring_unit, hit_hex) == 6
    assert attack_direction_from(ring_unit, 1, hit_hex) == "front"
    # The same vehicle sees that side as its left flank.
    assert attack_direction_from(ring_unit, 1, hit_hex, kind="vehicle") == "left"


def test_entering_side_refuses_the_same_hex() -> None:
    with pytest.raises(ValueError, match="enters through no side"):
        entering_side(Hex(1, 1), Hex(1, 1))


# --- ART-26 damage groups ---------------------------------------------------------------


def test_ART_26_damage_splits_into_groups_of_five_with_a_smaller_last_group() -> None:
    assert damage_groups(12) == [5, 5, 2]
    assert damage_groups(25) == [5, 5, 5, 5, 5]
    assert damage_groups(4) == [4]
    assert damage_groups(0) == []
    assert damage_groups(20, group_size=8) == [8, 8, 4]


def test_ART_26_damage_groups_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="damage must be a whole number >= 0, not -1"):
        damage_groups(-1)
    with pytest.raises(ValueError, match="at least 1 point, not 0"):
        damage_groups(10, 0)


def test_ART_26_each_group_rolls_its_own_location() -> None:
    """ART-26: 12 damage = groups 5, 5, 2, three location rolls, each applied."""
    mech = MechDamage.template("medium")
    dice = rolls(10, 7, 3)
    result = apply_damage(mech, 12, "front", dice)
    assert dice.remaining == 0
    assert [g.amount for g in result.groups] == [5, 5, 2]
    assert [g.location for g in result.groups] == [LA, CT, RA]
    assert [r.total for r in result.rolls] == [10, 7, 3]
    assert result.lines == (
        "hit location (front): 2d6 = 10 (5+5) -> left arm",
        "5 to left arm: armour 16 -> 11",
        "hit location (front): 2d6 = 7 (3+4) -> centre torso",
        "5 to centre torso: armour 26 -> 21",
        "hit location (front): 2d6 = 3 (1+2) -> right arm",
        "2 to right arm: armour 16 -> 14",
    )
    assert result.account() == "\n".join(result.lines)
    assert result.state.armour[LA] == 11 and result.unapplied == 0 and not result.destroyed


def test_ART_26_artillery_ring_damage_of_25_is_five_groups() -> None:
    dice = rolls(2, 12, 6, 9, 11)
    result = apply_damage(MechDamage.template("assault"), 25, "left", dice)
    assert [g.location for g in result.groups] == [LT, HD, LL, RT, RL]
    assert result.state.armour[HD] == 4


def test_apply_damage_leaves_the_given_state_untouched() -> None:
    mech = MechDamage.template("light")
    before = mech.to_dict()
    result = apply_damage(mech, 10, "front", rolls(7, 7))
    assert mech.to_dict() == before
    assert result.state.armour[CT] == before["armour"][CT] - 10


def test_apply_damage_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="attack direction must be one of"):
        apply_damage(MechDamage.template("light"), 5, "top", rolls(7))
    with pytest.raises(ValueError, match="damage must be a whole number"):
        apply_damage(MechDamage.template("light"), -5, "front", rolls(7))
    with pytest.raises(TypeError, match="cannot damage a dict"):
        apply_damage({"armour": 3}, 5, "front", rolls(7))  # type: ignore[arg-type]


def test_scripted_dice_catch_a_missing_location_roll() -> None:
    with pytest.raises(DiceScriptError, match="ran out"):
        apply_damage(MechDamage.template("light"), 10, "front", rolls(7))


# --- ART-32 armour, structure, transfer -----------------------------------------------------


def test_ART_32_damage_goes_through_armour_then_structure() -> None:
    result = apply_damage(small_mech(), 4, "front", rolls(7), group_size=4)
    assert result.lines[1] == "4 to centre torso: armour 6 -> 2"
    result = apply_damage(result.state, 4, "front", rolls(7), group_size=4)
    assert result.lines[1] == "4 to centre torso: armour 2 -> 0, structure 8 -> 6"
    result = apply_damage(result.state, 4, "front", rolls(7), group_size=4)
    assert result.lines[1] == "4 to centre torso: structure 6 -> 2"


def test_ART_32_damage_past_an_arm_transfers_to_its_side_torso_then_the_centre() -> None:
    """ART-32: arm -> side torso -> centre torso."""
    result = apply_damage(small_mech(), 12, "front", rolls(10), group_size=12)
    assert result.lines == (
        "hit location (front): 2d6 = 10 (5+5) -> left arm",
        "12 to left arm: armour 2 -> 0, structure 3 -> 0; left arm destroyed; "
        "7 transfers to left torso",
        "7 to left torso: armour 4 -> 0, structure 5 -> 2",
    )
    result = apply_damage(small_mech(), 20, "front", rolls(10), group_size=20)
    assert result.lines[1:] == (
        "20 to left arm: armour 2 -> 0, structure 3 -> 0; left arm destroyed; "
        "15 transfers to left torso",
        "15 to left torso: armour 4 -> 0, structure 5 -> 0; left torso destroyed; "
        "6 transfers to centre torso",
        "6 to centre torso: armour 6 -> 0",
    )
    assert result.state.structure[LA] == 0 and result.state.structure[LT] == 0
    assert not result.destroyed


def test_ART_32_damage_past_a_leg_transfers_to_its_side_torso() -> None:
    result = apply_damage(small_mech(), 10, "front", rolls(5), group_size=10)
    assert result.lines[1:] == (
        "10 to right leg: armour 3 -> 0, structure 4 -> 0; right leg destroyed; "
        "3 transfers to right torso",
        "3 to right torso: armour 4 -> 1",
    )


def test_ART_32_later_hits_on_a_destroyed_location_transfer_inward() -> None:
    mech = small_mech(armour_left_arm=0, structure_left_arm=0)
    result = apply_damage(mech, 5, "front", rolls(11))
    assert result.lines[1:] == (
        "5 to left arm: already destroyed; transfers to left torso",
        "5 to left torso: armour 4 -> 0, structure 5 -> 4",
    )


def test_a_destroyed_side_torso_takes_its_arm_with_it() -> None:
    """Decision (docs/battletech.md): standard BattleTech, an arm falls with its torso."""
    result = apply_damage(small_mech(), 9, "front", rolls(6), group_size=9)
    assert result.lines[1] == (
        "9 to right torso: armour 4 -> 0, structure 5 -> 0; right torso destroyed, "
        "right arm lost with it"
    )
    assert result.state.structure[RA] == 0 and result.state.armour[RA] == 0
    follow = apply_damage(result.state, 5, "front", rolls(4))
    assert follow.lines[1:] == (
        "5 to right arm: already destroyed; transfers to right torso",
        "5 to right torso: already destroyed; transfers to centre torso",
        "5 to centre torso: armour 6 -> 1",
    )


def test_ART_32_mech_destroyed_when_head_structure_is_gone() -> None:
    dice = rolls(12)
    result = apply_damage(small_mech(), 6, "front", dice, group_size=6)
    assert dice.remaining == 0
    assert result.lines[1:] == (
        "6 to head: armour 3 -> 0, structure 3 -> 0; head destroyed",
        "mech destroyed: head structure gone",
    )
    assert result.destroyed and result.destroyed_reason == "head structure gone"
    assert result.state.destroyed and result.unapplied == 0


def test_ART_32_head_kill_loses_the_excess_and_skips_later_groups() -> None:
    dice = rolls(12, 12)
    result = apply_damage(small_mech(), 20, "front", dice)
    assert dice.remaining == 0
    assert result.lines == (
        "hit location (front): 2d6 = 12 (6+6) -> head",
        "5 to head: armour 3 -> 0, structure 3 -> 1",
        "hit location (front): 2d6 = 12 (6+6) -> head",
        "5 to head: structure 1 -> 0; head destroyed; 4 lost",
        "mech destroyed: head structure gone",
        "10 damage unapplied: the mech is already destroyed",
    )
    assert result.destroyed and result.destroyed_reason == "head structure gone"
    assert result.unapplied == 14


def test_ART_32_mech_destroyed_when_centre_torso_structure_is_gone() -> None:
    result = apply_damage(small_mech(), 16, "front", rolls(2), group_size=16)
    assert result.lines[1:] == (
        "16 to centre torso: armour 6 -> 0, structure 8 -> 0; centre torso destroyed; 2 lost",
        "mech destroyed: centre torso structure gone",
    )
    assert result.destroyed and result.unapplied == 2


def test_ART_32_transfer_chain_can_destroy_the_centre_torso() -> None:
    mech = small_mech(
        structure_left_arm=0,
        armour_left_arm=0,
        structure_left_torso=0,
        armour_left_torso=0,
        armour_centre_torso=0,
        structure_centre_torso=2,
    )
    result = apply_damage(mech, 5, "front", rolls(10))
    assert result.lines[-1] == "mech destroyed: centre torso structure gone"
    assert result.unapplied == 3


def test_ART_32_mech_survives_losing_limbs_and_side_torsos() -> None:
    mech = small_mech(
        structure_left_arm=0,
        structure_right_arm=0,
        structure_left_leg=0,
        structure_right_leg=0,
        structure_left_torso=0,
        structure_right_torso=0,
    )
    assert not mech.destroyed and mech.destroyed_reason is None


def test_damage_to_an_already_destroyed_mech_rolls_nothing() -> None:
    mech = small_mech(structure_centre_torso=0)
    dice = ScriptedDice([])
    result = apply_damage(mech, 10, "front", dice)
    assert result.groups == () and result.unapplied == 10
    assert result.lines == ("10 damage unapplied: the mech is already destroyed",)


# --- rear armour ----------------------------------------------------------------------------


def test_ART_32_rear_attacks_strike_torso_rear_armour() -> None:
    result = apply_damage(small_mech(), 5, "rear", rolls(7, 8, 6))
    assert result.lines == (
        "hit location (rear): 2d6 = 7 (3+4) -> centre torso (rear)",
        "5 to centre torso (rear): rear armour 2 -> 0, structure 8 -> 5",
    )
    assert result.state.armour[CT] == 6  # the front plate is untouched
    assert result.groups[0].rear


def test_ART_32_front_attacks_never_touch_rear_armour() -> None:
    result = apply_damage(small_mech(), 15, "front", rolls(7, 8, 6))
    assert result.state.rear_armour == {CT: 2, LT: 1, RT: 1}


def test_ART_32_rear_hit_on_an_arm_transfers_to_the_torso_rear_armour() -> None:
    result = apply_damage(small_mech(), 7, "rear", rolls(10), group_size=7)
    assert result.lines[1:] == (
        "7 to left arm: armour 2 -> 0, structure 3 -> 0; left arm destroyed; "
        "2 transfers to left torso",
        "2 to left torso (rear): rear armour 1 -> 0, structure 5 -> 4",
    )
    assert result.state.armour[LT] == 4


# --- vehicles and infantry --------------------------------------------------------------------


def test_ART_32_vehicle_destroyed_when_any_location_structure_is_gone() -> None:
    tank = VehicleDamage.template("light")
    assert tank.armour[T] == 8 and tank.structure[T] == 2
    dice = rolls(10, 11)
    result = apply_damage(tank, 15, "front", dice)
    assert dice.remaining == 0  # the third group is never rolled
    assert result.lines == (
        "hit location (front): 2d6 = 10 (5+5) -> turret",
        "5 to turret: armour 8 -> 3",
        "hit location (front): 2d6 = 11 (5+6) -> turret",
        "5 to turret: armour 3 -> 0, structure 2 -> 0; turret destroyed",
        "vehicle destroyed: turret structure gone",
        "5 damage unapplied: the vehicle is already destroyed",
    )
    assert result.destroyed and result.unapplied == 5
    big_hit = apply_damage(tank, 12, "rear", rolls(6), group_size=12)
    assert big_hit.lines[1:] == (
        "12 to rear: armour 6 -> 0, structure 2 -> 0; rear destroyed; 4 lost",
        "vehicle destroyed: rear structure gone",
    )
    assert big_hit.unapplied == 4


def test_ART_32_vehicle_side_attack_and_turretless_vehicle() -> None:
    tank = VehicleDamage.template("medium", has_turret=False)
    assert not tank.has_turret and T not in tank.armour
    result = apply_damage(tank, 10, "left", rolls(11, 5))
    assert [g.location for g in result.groups] == [LS, F]
    assert result.state.armour[LS] == 13 and result.state.armour[F] == 19


def test_ART_32_infantry_lose_a_trooper_per_damage_point_without_rolls() -> None:
    platoon = InfantryDamage.platoon()
    assert platoon.troopers == 28
    result = apply_damage(platoon, 12, "front", ScriptedDice([]))
    assert result.lines == (
        "5 to platoon: troopers 28 -> 23",
        "5 to platoon: troopers 23 -> 18",
        "2 to platoon: troopers 18 -> 16",
    )
    assert result.rolls == () and result.state.troopers == 16


def test_ART_32_infantry_destroyed_when_no_trooper_is_left() -> None:
    result = apply_damage(InfantryDamage.platoon(7), 15, "rear", ScriptedDice([]))
    assert result.lines == (
        "5 to platoon: troopers 7 -> 2",
        "5 to platoon: troopers 2 -> 0",
        "infantry destroyed: no trooper left",
        "5 damage unapplied: the infantry is already destroyed",
    )
    assert result.destroyed and result.unapplied == 8


# --- states as plain data -------------------------------------------------------------------


@pytest.mark.parametrize(
    "state",
    [
        MechDamage.template("heavy"),
        small_mech(structure_left_arm=0),
        VehicleDamage.template("assault"),
        VehicleDamage.template("light", has_turret=False),
        InfantryDamage(9, 28),
    ],
)
def test_damage_states_round_trip_through_json(state: object) -> None:
    data = json.loads(json.dumps(state.to_dict()))  # type: ignore[attr-defined]
    restored = damage_state_from_dict(data)
    assert restored == state
    assert type(restored) is type(state)


def test_damage_state_validation_names_the_problem() -> None:
    armour = dict.fromkeys(MECH_LOCATIONS, 5)
    structure = dict.fromkeys(MECH_LOCATIONS, 5)
    rear = dict.fromkeys(MECH_TORSOS, 2)
    del armour[HD]
    with pytest.raises(ValueError, match="mech armour is missing 'head'"):
        MechDamage(armour, rear, structure)
    with pytest.raises(ValueError, match="mech rear armour has unknown location 'left arm'"):
        MechDamage(dict.fromkeys(MECH_LOCATIONS, 5), {**rear, LA: 1}, structure)
    with pytest.raises(ValueError, match="mech structure of 'head' must be a whole number >= 0"):
        MechDamage(dict.fromkeys(MECH_LOCATIONS, 5), rear, {**structure, HD: -1})
    with pytest.raises(ValueError, match="vehicle structure is missing 'turret'"):
        VehicleDamage(dict.fromkeys(VEHICLE_LOCATIONS, 4), dict.fromkeys(VEHICLE_LOCATIONS[:4], 2))
    with pytest.raises(ValueError, match=r"a platoon has 0\.\.28 troopers, not 30"):
        InfantryDamage(30, 28)
    with pytest.raises(ValueError, match="saved damage state has kind 'ship'"):
        damage_state_from_dict({"kind": "ship"})
    with pytest.raises(ValueError, match="of kind 'vehicle', expected 'mech'"):
        MechDamage.from_dict(VehicleDamage.template("light").to_dict())
    with pytest.raises(ValueError, match="no mech template 'huge'; choose light, medium"):
        MechDamage.template("huge")


@pytest.mark.parametrize("weight_class", list(MECH_TEMPLATES))
def test_mech_templates_respect_the_standard_armour_maximum(weight_class: str) -> None:
    """Decision: armour at most twice the structure (9 on the head)."""
    mech = MechDamage.template(weight_class)
    assert mech.structure[HD] == 3 and mech.armour[HD] <= 9
    for loc in MECH_LOCATIONS[1:]:
        total = mech.armour[loc] + mech.rear_armour.get(loc, 0)
        assert 0 < total <= 2 * mech.structure[loc], loc
    for left, right in ((LT, RT), (LA, RA), (LL, RL)):
        assert mech.armour[left] == mech.armour[right]
        assert mech.structure[left] == mech.structure[right]


def test_templates_are_fresh_copies() -> None:
    a = MechDamage.template("medium")
    a.armour[CT] = 0
    assert MechDamage.template("medium").armour[CT] == 26
    structures = {name: VehicleDamage.template(name).structure[F] for name in VEHICLE_TEMPLATES}
    assert structures == {"light": 2, "medium": 5, "heavy": 7, "assault": 10}


# --- ART-32a direct fire ----------------------------------------------------------------------


def test_ART_32a_direct_fire_breakdown_names_every_modifier() -> None:
    tn = direct_fire_target_number(
        gunnery=4,
        range_hexes=5,
        weapon_ranges=(3, 6, 9),
        attacker_moved="walked",
        target_hexes_moved=5,
        light_woods=1,
        heavy_woods=1,
        spotting=True,
    )
    assert tn is not None
    assert tn.breakdown() == (
        "gunnery 4, medium range +2, attacker walked +1, target moved 5 hexes +2, "
        "light woods (1 hex) +1, heavy woods (1 hex) +2, spotting +1 = 13"
    )


def test_ART_32a_standing_shot_at_short_range_is_just_gunnery() -> None:
    tn = direct_fire_target_number(4, 3, (3, 6, 9))
    assert tn is not None and tn.breakdown() == "gunnery 4 = 4"


def test_ART_32a_long_range_ran_and_woods_counts() -> None:
    tn = direct_fire_target_number(3, 12, (5, 10, 15), "ran", 10, light_woods=2, heavy_woods=2)
    assert tn is not None
    assert tn.breakdown() == (
        "gunnery 3, long range +4, attacker ran +2, target moved 10 hexes +4, "
        "light woods (2 hexes) +2, heavy woods (2 hexes) +4 = 19"
    )
    assert hit_probability(tn) == 0.0


@pytest.mark.parametrize(
    ("hexes", "band"),
    [
        (1, "short"),
        (3, "short"),
        (4, "medium"),
        (6, "medium"),
        (7, "long"),
        (9, "long"),
        (10, None),
    ],
)
def test_ART_32a_range_bands(hexes: int, band: str | None) -> None:
    assert range_band(hexes, (3, 6, 9)) == band


def test_ART_32a_beyond_long_range_gives_no_number_and_a_reason() -> None:
    assert direct_fire_target_number(4, 10, (3, 6, 9)) is None
    assert direct_fire_refusal(10, (3, 6, 9)) == (
        "the target is 10 hexes away, beyond the weapon's long range of 9"
    )
    assert direct_fire_refusal(9, (3, 6, 9)) is None


@pytest.mark.parametrize(
    ("hexes", "modifier"),
    [(0, 0), (2, 0), (3, 1), (4, 1), (5, 2), (6, 2), (7, 3), (9, 3), (10, 4), (25, 4)],
)
def test_ART_32a_target_movement_modifier(hexes: int, modifier: int) -> None:
    assert target_movement_modifier(hexes) == modifier


def test_ART_32a_minimum_range_penalty() -> None:
    ac5 = direct_fire_weapon("ac5")
    tn = direct_fire_target_number(4, 2, ac5.ranges, minimum_range=ac5.minimum_range)
    assert tn is not None and tn.breakdown() == "gunnery 4, minimum range +2 = 6"
    tn = direct_fire_target_number(4, 4, ac5.ranges, minimum_range=ac5.minimum_range)
    assert tn is not None and tn.total == 4


def test_ART_32a_direct_fire_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="attacker movement must be one of stood, walked, ran"):
        direct_fire_target_number(4, 3, (3, 6, 9), attacker_moved="jumped")
    with pytest.raises(ValueError, match="short < medium < long, not 6/3/9"):
        direct_fire_target_number(4, 3, (6, 3, 9))
    with pytest.raises(ValueError, match="three whole numbers"):
        range_band(3, (3, 6))
    with pytest.raises(ValueError, match="at least 1 hex, not 0"):
        direct_fire_target_number(4, 0, (3, 6, 9))
    with pytest.raises(ValueError, match="hexes moved must be a whole number >= 0, not -1"):
        target_movement_modifier(-1)
    with pytest.raises(ValueError, match="light woods counts hexes"):
        direct_fire_target_number(4, 3, (3, 6, 9), light_woods=-1)


def test_ART_32a_weapon_table() -> None:
    """Decision (docs/battletech.md): the direct-fire weapons of the scenarios."""
    table = {w.id: (w.damage, w.ranges, w.minimum_range) for w in DIRECT_FIRE_WEAPONS.values()}
    assert table["medium_laser"] == (5, (3, 6, 9), 0)
    assert table["large_laser"] == (8, (5, 10, 15), 0)
    assert table["ac5"] == (5, (6, 12, 18), 3)
    assert table["ac10"] == (10, (5, 10, 15), 0)
    assert table["srm2"] == (4, (3, 6, 9), 0)
    assert table["lrm5"] == (5, (7, 14, 21), 6)
    assert direct_fire_weapon("Large Laser").id == "large_laser"
    with pytest.raises(
        ValueError, match="unknown direct-fire weapon 'railgun'; known: small_laser"
    ):
        direct_fire_weapon("railgun")


def test_ART_32a_a_laser_hit_lands_whole_in_one_location() -> None:
    dice = rolls(8)
    hit = weapon_damage("large_laser", ScriptedDice([]))
    assert (hit.damage, hit.group_size, hit.cluster_roll) == (8, 8, None)
    result = apply_damage(MechDamage.template("medium"), hit.damage, "front", dice, hit.group_size)
    assert result.lines[1] == "8 to left torso: armour 20 -> 12"


def test_ART_32a_missiles_roll_on_the_cluster_table() -> None:
    srm = weapon_damage("srm2", rolls(8))
    assert (srm.missiles_hit, srm.damage, srm.group_size) == (2, 4, 2)
    assert srm.cluster_roll is not None and srm.cluster_roll.purpose == "SRM-2 cluster hits"
    assert weapon_damage("srm2", rolls(7)).damage == 2
    lrm = weapon_damage("lrm5", rolls(9))
    assert (lrm.missiles_hit, lrm.damage) == (4, 4)
    assert cluster_distribution("srm2") == {2: Fraction(21, 36), 4: Fraction(15, 36)}
    lrm_dist = cluster_distribution("lrm5")
    assert sum(lrm_dist.values()) == 1
    assert lrm_dist[5] == Fraction(3, 36)
    assert cluster_distribution("ppc") == {10: Fraction(1)}
    assert set(CLUSTER_HITS) == {2, 5}


# --- seeded Monte Carlo against the exact odds ----------------------------------------------

SAMPLES = 200_000


def within_four_standard_errors(count: int, n: int, p: Fraction) -> bool:
    pf = float(p)
    if pf in (0.0, 1.0):
        return count == round(pf * n)
    se = (n * pf * (1 - pf)) ** 0.5
    return abs(count - n * pf) <= 4 * se


@pytest.mark.parametrize("kind", ["mech", "vehicle"])
@pytest.mark.parametrize("direction", ATTACK_DIRECTIONS)
def test_ART_32_sampled_locations_match_the_exact_distribution(kind: str, direction: str) -> None:
    """ART-32: 200,000 seeded samples of the location resolver within 4 SE of exact."""
    rng = Dice(3200 + ATTACK_DIRECTIONS.index(direction)).generator()
    sample = batch_locations(rng, kind, direction, SAMPLES)
    counts = np.bincount(sample, minlength=len(location_names(kind)))
    exact = location_distribution(kind, direction)
    for index, name in enumerate(location_names(kind)):
        p = exact.get(name, Fraction(0))
        assert within_four_standard_errors(int(counts[index]), SAMPLES, p), (name, counts[index])


def test_ART_32a_sampled_hits_match_hit_probability() -> None:
    rng = Dice(3232).generator()
    for tn in range(1, 15):
        hits = int(batch_hits(rng, tn, SAMPLES).sum())
        assert within_four_standard_errors(hits, SAMPLES, hit_chance(tn)), (tn, hits)


def test_ART_26_apply_damage_itself_hits_locations_at_the_exact_rates() -> None:
    """ART-26/ART-32: the one-group-at-a-time resolver (not the batch sampler),
    20,000 groups from the left on an indestructible mech, seeded."""
    n = 20_000
    result = apply_damage(huge_mech(), 5 * n, "left", Dice(2626))
    assert len(result.groups) == n and len(result.rolls) == n
    counts: dict[str, int] = {}
    for group in result.groups:
        counts[group.location] = counts.get(group.location, 0) + 1
    for name, p in location_distribution("mech", "left").items():
        assert within_four_standard_errors(counts.get(name, 0), n, p), name


def test_ART_32a_roll_to_hit_itself_matches_hit_probability() -> None:
    dice = Dice(3233)
    n = 20_000
    hits = sum(roll_to_hit(dice, 8).hit for _ in range(n))
    assert within_four_standard_errors(hits, n, hit_chance(8))
