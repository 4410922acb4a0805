"""Damage of a landed shell: rings, vertical damage, buildings, hills, water,
attack directions and the resolvers of every system (ART-25 .. ART-31, ART-35).

The boards are small sheets written here in the sheet format, so each test
shows the terrain it relies on.
"""

from __future__ import annotations

import copy

import pytest

from game.artillery.damage import (
    BatteryOrigin,
    DamageTarget,
    WarhammerTroops,
    apply_shell,
    attack_origin,
    blast,
    shielded_damage,
)
from game.board.area import PlayArea
from game.dice import Dice, ScriptedDice
from game.hexmath import Hex
from game.rules import battlesystem as bs
from game.rules import toysoldiers as ts
from game.rules.battletech import (
    CENTRE_TORSO,
    InfantryDamage,
    MechDamage,
    VehicleDamage,
)
from tests.sheet_factory import make_sheet


def one_sheet(
    hexes: dict[str, str] | None = None, buildings: dict[str, tuple[int, int]] | None = None
) -> PlayArea:
    return PlayArea.from_layout({(0, 0): make_sheet("test", hexes, buildings)})


def at(area: PlayArea, name: str) -> Hex:
    return area.hex_at((0, 0), name)


NORTH = BatteryOrigin.off_board((0, -3))


def mech(area: PlayArea, name: str, uid: str = "m", facing: int = 1, **kw: object) -> DamageTarget:
    return DamageTarget(uid, at(area, name), "battletech", "mech", facing, name=uid, **kw)  # type: ignore[arg-type]


# --- the ART-29 formula ------------------------------------------------------------------


def test_ART_29_worked_example_shielded_damage() -> None:
    """ART-29: 40 damage (third ring of Cruise Missile/90) against CF 19 destroys the
    building; the unit behind with ring damage 15 takes floor(21 / 40 * 15) = 7."""
    assert shielded_damage(40, 19, 15) == 7
    assert shielded_damage(18, 19, 15) == 0  # not destroyed: absorbs everything
    assert shielded_damage(19, 19, 15) == 0  # destroyed exactly: nothing left over
    assert shielded_damage(0, 0, 15) == 15  # rubble shields nothing
    with pytest.raises(ValueError, match="building CF must be a whole number"):
        shielded_damage(40, -1, 15)


def test_ART_29_worked_example_on_a_board() -> None:
    """ART-29 worked example on a sheet: Cruise Missile/90 bursts in 0805; the
    3-level building in 0807 (CF 19, ring 2: 40 damage) is destroyed, and the
    mech in 0808 behind it (ring 3: 15) takes 7."""
    area = one_sheet({"0807": "0#"}, {"0807": (19, 3)})
    found = blast(area, at(area, "0805"), "cruise_90", [mech(area, "0808")])
    (building,) = found.buildings
    assert (building.ring_damage, building.damage, building.cf_before, building.cf_after) == (
        40,
        40,
        19,
        0,
    )
    assert building.destroyed
    (exposure,) = found.units["m"]
    assert (exposure.distance, exposure.ring_damage, exposure.damage) == (3, 15, 7)
    assert exposure.shielded_by == (at(area, "0807"),)
    assert "floor(21/40 x 15) = 7" in exposure.reason


def test_ART_29_a_standing_building_absorbs_everything() -> None:
    """ART-29: a building that survives the blast shields the unit behind it completely."""
    area = one_sheet({"0807": "0#"}, {"0807": (50, 3)})
    found = blast(area, at(area, "0805"), "cruise_90", [mech(area, "0808")])
    assert found.buildings[0].cf_after == 10
    assert found.units["m"][0].damage == 0
    assert "stands" in found.units["m"][0].reason


def test_ART_29_a_building_shields_only_when_higher_than_the_unit() -> None:
    """ART-29: a 2-level building (top 2) is not higher than a standing mech
    (top 2) but is higher than a 1-level vehicle."""
    area = one_sheet({"0807": "0#"}, {"0807": (50, 2)})
    targets = [
        mech(area, "0808"),
        DamageTarget("v", at(area, "0808"), "battletech", "vehicle"),
    ]
    found = blast(area, at(area, "0805"), "cruise_90", targets)
    assert found.units["m"][0].damage == 15
    assert found.units["v"][0].damage == 0


def test_ART_29_a_building_not_higher_than_the_hit_hex_shields_nothing() -> None:
    """ART-29: the building must be higher than the hit hex's level too."""
    area = one_sheet({"0805": "4.", "0807": "0#"}, {"0807": (50, 3)})
    found = blast(area, at(area, "0805"), "cruise_90", [mech(area, "0808")])
    assert found.units["m"][0].damage == 15


def test_ART_29_a_unit_inside_a_building_takes_full_damage_as_does_the_building() -> None:
    """ART-29: Long Tom in 0805; the building next door (CF 40) and the mech
    inside it both take the full ring-1 damage of 15."""
    area = one_sheet({"0806": "0#"}, {"0806": (40, 2)})
    found = blast(area, at(area, "0805"), "long_tom", [mech(area, "0806")])
    assert found.buildings[0].damage == 15
    assert found.buildings[0].cf_after == 25
    assert found.units["m"][0].damage == 15
    assert "inside the building" in found.units["m"][0].reason


def test_ART_29_building_in_the_hit_hex_takes_the_full_base_damage() -> None:
    """ART-29/ART-25: a building hex takes the damage like any unit (area effect)."""
    area = one_sheet({"0805": "0#"}, {"0805": (20, 1)})
    found = blast(area, at(area, "0805"), "long_tom", [])
    (b,) = found.buildings
    assert (b.distance, b.damage, b.cf_after, b.destroyed) == (0, 25, 0, True)


def test_ART_29_several_buildings_act_in_order_from_the_hit_hex() -> None:
    """ART-29 decision: buildings on the line pass on their share one after the
    other. Cruise Missile/120 (120/95/70/45/20) in 0805: the building in 0806
    (CF 50, 4 levels) takes 95 and lets 45/95 through; the 3-level one in 0807
    (CF 20), lower than the first, takes floor(45/95 x 70) = 33 and lets 13/33
    through; the mech in 0808 (ring 45) takes floor(13/33 x floor(45/95 x 45))
    = floor(13/33 x 21) = 8."""
    area = one_sheet({"0806": "0#", "0807": "0#"}, {"0806": (50, 4), "0807": (20, 3)})
    found = blast(area, at(area, "0805"), "cruise_120", [mech(area, "0808")])
    first, second = sorted(found.buildings, key=lambda b: b.distance)
    assert (first.damage, first.cf_after) == (95, 0)
    assert second.damage == shielded_damage(95, 50, 70) == 33
    assert second.cf_after == 0
    assert found.units["m"][0].damage == shielded_damage(33, 20, shielded_damage(95, 50, 45)) == 8
    assert found.units["m"][0].shielded_by == (at(area, "0806"), at(area, "0807"))


def test_ART_29_current_cf_zero_is_rubble() -> None:
    """ART-29: a building already destroyed (current CF 0) neither takes damage nor shields."""
    area = one_sheet({"0807": "0#"}, {"0807": (50, 3)})
    found = blast(area, at(area, "0805"), "cruise_90", [mech(area, "0808")], {at(area, "0807"): 0})
    assert found.buildings == ()
    assert found.units["m"][0].damage == 15


# --- hills, vertical damage, water ----------------------------------------------------------


def test_ART_30_a_hill_higher_than_both_shields_completely() -> None:
    """ART-30: a level-3 hill in 0807 between the hit hex (level 0) and a mech in
    0808 (top 2) shields it; a level-2 hill does not (not higher than the mech)."""
    area = one_sheet({"0807": "3."})
    found = blast(area, at(area, "0805"), "cruise_90", [mech(area, "0808")])
    assert found.units["m"][0].damage == 0
    assert "hill" in found.units["m"][0].reason
    low = one_sheet({"0807": "2."})
    assert blast(low, at(low, "0805"), "cruise_90", [mech(low, "0808")]).units["m"][0].damage == 15


def test_ART_30_a_hill_not_higher_than_the_hit_hex_does_not_shield() -> None:
    """ART-30: the hill must be higher than the hit hex's level as well."""
    area = one_sheet({"0805": "3.", "0807": "3."})
    found = blast(area, at(area, "0805"), "cruise_90", [mech(area, "0808")])
    assert found.units["m"][0].damage == 15


def test_ART_30_only_hexes_on_the_line_count() -> None:
    """ART-30: a hill beside the line does not shield."""
    area = one_sheet({"0907": "5."})
    found = blast(area, at(area, "0805"), "cruise_90", [mech(area, "0808")])
    assert found.units["m"][0].damage == 15


def test_ART_25_rings_fall_by_ten_per_hex_while_above_zero() -> None:
    """ART-25: Long Tom units at 0, 1 and 2 hexes take 25, 15 and 5; at 3 nothing."""
    area = one_sheet()
    targets = [mech(area, n, uid=n) for n in ("0805", "0806", "0807", "0808")]
    found = blast(area, at(area, "0805"), "long_tom", targets)
    assert {k: v[0].damage for k, v in found.units.items()} == {
        "0805": 25,
        "0806": 15,
        "0807": 5,
    }


def test_ART_28_vertical_damage_in_the_hit_hex_only() -> None:
    """ART-28: above the hit hex the damage falls by 10 per level (25 for cruise
    missiles); airborne units over ring hexes take nothing."""
    area = one_sheet()
    vtol = {"system": "battletech", "kind": "vehicle"}
    targets = [
        DamageTarget("a1", at(area, "0805"), altitude=1, **vtol),  # type: ignore[arg-type]
        DamageTarget("a2", at(area, "0805"), altitude=2, **vtol),  # type: ignore[arg-type]
        DamageTarget("a3", at(area, "0805"), altitude=3, **vtol),  # type: ignore[arg-type]
        DamageTarget("ring", at(area, "0806"), altitude=1, **vtol),  # type: ignore[arg-type]
    ]
    found = blast(area, at(area, "0805"), "long_tom", targets)
    assert {k: v[0].damage for k, v in found.units.items()} == {
        "a1": 15,
        "a2": 5,
        "a3": 0,
        "ring": 0,
    }
    cruise = blast(area, at(area, "0805"), "cruise_90", targets[1:2])
    assert cruise.units["a2"][0].damage == 40


def test_ART_28_a_standing_mech_takes_the_damage_once() -> None:
    """ART-28: a mech spanning two levels in the hit hex takes the base damage
    once: 25 from a Long Tom is five 5-point groups, five location rolls."""
    area = one_sheet()
    target = mech(area, "0805")
    dice = ScriptedDice([3, 4] * 5)
    out = apply_shell(
        dice,
        area,
        at(area, "0805"),
        "long_tom",
        [target],
        {"m": MechDamage.template("medium")},
        {},
        NORTH,
    )
    assert out.unit("m").damage == 25
    assert dice.remaining == 0
    assert len(out.rolls) == 5


def test_ART_31_submerged_units_next_to_a_dry_blast_take_nothing() -> None:
    """ART-31: the hit hex is dry; a mech fully under depth-2 water next to it
    takes nothing, one in depth-1 water (partly out) takes the ring damage."""
    area = one_sheet({"0806": "0~2", "0804": "0~1"})
    found = blast(
        area, at(area, "0805"), "long_tom", [mech(area, "0806", "deep"), mech(area, "0804", "wade")]
    )
    assert found.units["deep"][0].damage == 0
    assert "submerged" in found.units["deep"][0].reason
    assert found.units["wade"][0].damage == 15


def test_ART_31_a_water_blast_uses_the_building_rule() -> None:
    """ART-31 decision: when the hit hex is water, units in water hexes take the
    full damage of their ring, submerged or not, as units inside a building do."""
    area = one_sheet({"0805": "0~2", "0806": "0~2"})
    found = blast(
        area, at(area, "0805"), "long_tom", [mech(area, "0805", "in"), mech(area, "0806", "next")]
    )
    assert found.hit_water
    assert found.units["in"][0].damage == 25
    assert found.units["next"][0].damage == 15
    assert "ART-31" in found.units["next"][0].reason


def test_ART_31_a_unit_on_the_surface_is_not_submerged() -> None:
    """ART-31: ``submerged=False`` keeps a hovercraft on the water surface: it is hit."""
    area = one_sheet({"0806": "0~3"})
    hover = DamageTarget("h", at(area, "0806"), "battletech", "vehicle", submerged=False)
    found = blast(area, at(area, "0805"), "long_tom", [hover])
    assert found.units["h"][0].damage == 15


def test_ART_31_submerged_unit_height_counts_from_the_bottom_for_hills() -> None:
    """ART-30/ART-31: a unit on the bottom of deep water stands lower, so a hill
    of level 1 shields it from a burst on level 0 (in a water blast, where the
    submerged rule does not already protect it)."""
    area = one_sheet({"0805": "0~1", "0807": "1.", "0808": "0~3"})
    found = blast(area, at(area, "0805"), "cruise_90", [mech(area, "0808")])
    assert found.units["m"][0].damage == 0


def test_a_shell_off_the_play_area_is_lost() -> None:
    """ART-12: a landing hex outside the area deals nothing."""
    area = one_sheet()
    off = Hex(-5, 0)
    out = apply_shell(
        ScriptedDice([]),
        area,
        off,
        "long_tom",
        [mech(area, "0101")],
        {"m": MechDamage.template("light")},
        {},
        NORTH,
    )
    assert out.lost and out.units == () and "lost" in out.account


# --- attack directions and BattleTech damage (ART-26, ART-27) ---------------------------------


def test_ART_27_off_board_battery_attacks_the_hit_hex_from_the_edge_centre() -> None:
    """ART-27: a battery north of the area attacks the hit hex from 0801, the
    centre of the north edge; west of it, from 0109."""
    area = one_sheet()
    assert attack_origin(area, at(area, "0808"), NORTH)[0] == at(area, "0801")
    west = BatteryOrigin.off_board((-2, 0))
    assert attack_origin(area, at(area, "0808"), west)[0] == at(area, "0109")
    on_board = BatteryOrigin.on_board(at(area, "0302"))
    assert attack_origin(area, at(area, "0808"), on_board)[0] == at(area, "0302")


def test_ART_26_ART_27_hit_hex_mech_facing_away_is_hit_in_the_rear() -> None:
    """ART-26/ART-27: a mech in the hit hex 0808 facing south, attacked from the
    north edge centre: the rear table, rear armour; 25 damage in five groups."""
    area = one_sheet()
    state = MechDamage.template("medium")
    before = copy.deepcopy(state)
    dice = ScriptedDice([3, 4] * 5)  # 7: centre torso every time
    out = apply_shell(
        dice,
        area,
        at(area, "0808"),
        "long_tom",
        [mech(area, "0808", facing=4)],
        {"m": state},
        {},
        NORTH,
    )
    hit = out.unit("m")
    assert hit.attack_direction == "rear"
    assert hit.entering_side == 1
    after = out.unit_states["m"]
    # Rear CT armour 8, then 17 into structure of 18.
    assert after.rear_armour[CENTRE_TORSO] == 0
    assert after.structure[CENTRE_TORSO] == 1
    assert state == before  # the given state is untouched
    assert "from the north" in out.account


def test_ART_27_ring_units_are_attacked_from_the_hit_hex() -> None:
    """ART-27: a mech in 0809 just south of the hit hex 0808, facing north, is
    attacked from the hit hex: front; facing south it is attacked in the rear;
    facing south-east the blast comes in on its rear-left side, south-west its rear-right."""
    area = one_sheet()
    for facing, expected in ((1, "front"), (4, "rear"), (2, "front"), (3, "left"), (5, "right")):
        out = apply_shell(
            ScriptedDice([3, 4] * 3),
            area,
            at(area, "0808"),
            "long_tom",
            [mech(area, "0809", facing=facing)],
            {"m": MechDamage.template("heavy")},
            {},
            NORTH,
        )
        assert out.unit("m").attack_direction == expected, facing
        assert out.unit("m").damage == 15


def test_ART_27_on_board_battery_in_the_hit_hex_attacks_from_the_front() -> None:
    """ART-27 decision: an on-board battery whose shell lands in its own hex has
    no line to the target; the attack counts as from the front."""
    area = one_sheet()
    out = apply_shell(
        ScriptedDice([3, 4] * 4),
        area,
        at(area, "0808"),
        "arrow_iv_is",
        [mech(area, "0808", facing=4)],
        {"m": MechDamage.template("heavy")},
        {},
        BatteryOrigin.on_board(at(area, "0808")),
    )
    assert out.unit("m").attack_direction == "front"
    assert out.unit("m").entering_side is None


def test_ART_27_unit_on_the_edge_centre_is_attacked_from_beyond_the_edge() -> None:
    """ART-27 decision: a unit standing on the edge centre hex itself is attacked
    from the battery's sheet beyond that edge."""
    area = one_sheet()
    out = apply_shell(
        ScriptedDice([3, 4] * 4),
        area,
        at(area, "0801"),
        "arrow_iv_is",
        [mech(area, "0801", facing=1)],
        {"m": MechDamage.template("heavy")},
        {},
        NORTH,
    )
    assert out.unit("m").attack_direction == "front"
    assert out.unit("m").entering_side == 1


def test_ART_26_vehicles_and_infantry_take_groups_too() -> None:
    """ART-26: a vehicle rolls one location per 5-point group; an infantry platoon
    loses a trooper per point and rolls nothing."""
    area = one_sheet()
    targets = [
        DamageTarget("v", at(area, "0806"), "battletech", "vehicle", 1),
        DamageTarget("i", at(area, "0804"), "battletech", "infantry", 1),
    ]
    dice = ScriptedDice([3, 4, 3, 4, 3, 4])
    out = apply_shell(
        dice,
        area,
        at(area, "0805"),
        "long_tom",
        targets,
        {"v": VehicleDamage.template("medium"), "i": InfantryDamage.platoon(28)},
        {},
        NORTH,
    )
    assert dice.remaining == 0
    assert out.unit_states["i"].troopers == 13
    assert out.unit("v").damage == 15
    assert len(out.unit("v").rolls) == 3
    assert out.unit("i").rolls == ()


def test_apply_shell_reports_destroyed_units_and_buildings() -> None:
    """ART-29 + ART-32: the log names what was destroyed; building CFs come back changed."""
    area = one_sheet({"0806": "0#"}, {"0806": (10, 1)})
    light = MechDamage.template("light")
    # Head hits (12): armour 8 and structure 3 are gone in the third group of 5.
    dice = ScriptedDice([6, 6, 6, 6, 6, 6, 6, 6, 6, 6])
    cf_in = {at(area, "0806"): 10}
    out = apply_shell(
        dice, area, at(area, "0805"), "long_tom", [mech(area, "0805")], {"m": light}, cf_in, NORTH
    )
    assert out.destroyed_units == ("m",)
    assert out.destroyed_buildings == (at(area, "0806"),)
    assert out.building_cf[at(area, "0806")] == 0
    assert cf_in[at(area, "0806")] == 10
    assert "destroyed" in out.account
    assert dice.remaining == 4  # no location is rolled for a destroyed mech


# --- the other systems (ART-35) -----------------------------------------------------------------


def test_ART_35_battlesystem_unit_each_figure_hex_takes_its_ring() -> None:
    """ART-35: every hex a BATTLESYSTEM figure stands in takes its own ring; each
    5-point group is one hit with a d10 armour check (BS-3)."""
    area = one_sheet()
    unit = bs.BattleUnit(
        "orcs", "south", "8", 7, 1, ("OO",), anchor=at(area, "0805"), facing=1, name="Orcs"
    )
    target = DamageTarget.for_battle_unit(unit)
    assert len(target.hexes) == 2
    found = blast(area, at(area, "0805"), "long_tom", [target])
    damages = sorted(e.damage for e in found.units["orcs"])
    assert damages == [15, 25]
    # 5 hits for the hit hex, 3 for the ring hex: all roll 1 (below AR 7: they stand).
    dice = ScriptedDice([(10, 1)] * 8)
    out = apply_shell(dice, area, at(area, "0805"), "long_tom", [target], {"orcs": unit}, {}, NORTH)
    assert dice.remaining == 0
    assert out.unit_states["orcs"].figures == 0
    assert out.destroyed_units == ("orcs",)


def test_ART_35_warhammer_troops_take_strength_hits() -> None:
    """ART-35: ring 15 = three hits of Strength 3 against T3 (wound on 4+), no armour."""
    area = one_sheet()
    troops = WarhammerTroops("Spearmen", toughness=3, models=10)
    target = DamageTarget("sp", at(area, "0806"), "warhammer", "infantry")
    dice = ScriptedDice([4, 1, 6])
    out = apply_shell(dice, area, at(area, "0805"), "long_tom", [target], {"sp": troops}, {}, NORTH)
    assert dice.remaining == 0
    assert out.unit_states["sp"].models == 8
    assert troops.models == 10
    assert "Strength 3" in out.account


def test_ART_35_toy_soldiers_and_a_gun_in_the_hit_hex() -> None:
    """ART-35: a warrior in the hit hex (25 -> chance 5 - armour 1 = 4) is hit on
    d6 <= 4; a gun in the hit hex is disabled (TS-9)."""
    area = one_sheet()
    warrior = ts.Warrior("w1", "Grenadier", "south", armour=1)
    gun = ts.Gun("g1", "Cannon", "south", "cannon", ts.parse_profile("6/3 - 2"))
    targets = [
        DamageTarget("w1", at(area, "0805"), "toysoldiers", "warrior"),
        DamageTarget("g1", at(area, "0805"), "toysoldiers", "gun"),
    ]
    dice = ScriptedDice([1])
    out = apply_shell(
        dice, area, at(area, "0805"), "long_tom", targets, {"w1": warrior, "g1": gun}, {}, NORTH
    )
    assert dice.remaining == 0
    assert out.unit_states["w1"].status == "killed"
    assert out.unit_states["g1"].status == "disabled"
    assert out.destroyed_units == ("w1",)


def test_apply_shell_resolves_nearest_first_and_records_every_roll() -> None:
    """ART-34: units are resolved nearest first, so the dice run in a fixed order."""
    area = one_sheet()
    targets = [mech(area, "0806", "far"), mech(area, "0805", "near")]
    dice = Dice(7)
    out = apply_shell(
        dice,
        area,
        at(area, "0805"),
        "long_tom",
        targets,
        {"far": MechDamage.template("assault"), "near": MechDamage.template("assault")},
        {},
        NORTH,
    )
    assert [u.target for u in out.units] == ["near", "far"]
    assert len(out.rolls) == 5 + 3
    assert out.rolls == tuple(dice.records)
    assert out.unit("near").rolls == out.rolls[:5]


def test_damage_inputs_are_checked_with_reasons() -> None:
    area = one_sheet()
    t = mech(area, "0805")
    with pytest.raises(ValueError, match="no damage state given for m"):
        apply_shell(Dice(1), area, at(area, "0805"), "long_tom", [t], {}, {}, NORTH)
    with pytest.raises(TypeError, match="must be a MechDamage"):
        apply_shell(Dice(1), area, at(area, "0805"), "long_tom", [t], {"m": 3}, {}, NORTH)
    with pytest.raises(ValueError, match="is a mech but its damage state is a vehicle"):
        apply_shell(
            Dice(1),
            area,
            at(area, "0805"),
            "long_tom",
            [t],
            {"m": VehicleDamage.template("light")},
            {},
            NORTH,
        )
    with pytest.raises(ValueError, match="unique"):
        blast(area, at(area, "0805"), "long_tom", [t, t])
    with pytest.raises(ValueError, match="system must be one of"):
        DamageTarget("x", Hex(0, 0), "chess")
    with pytest.raises(ValueError, match="outside the play area"):
        blast(area, at(area, "0101"), "long_tom", [DamageTarget("x", Hex(-1, 0))])
    with pytest.raises(ValueError, match="either off-board"):
        BatteryOrigin()
