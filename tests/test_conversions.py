"""Artillery damage against BATTLESYSTEM, Warhammer and toy-soldier units (ART-35)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from game.artillery.weapons import WEAPONS
from game.dice import Dice, ScriptedDice
from game.rules import battlesystem as bs
from game.rules import toysoldiers as ts
from game.rules import warhammer as wh
from game.rules.conversions import (
    STANDARD_RING_DAMAGES,
    TABLES_PATH,
    artillery_on_battle_unit,
    battlesystem_ring_damage,
    battlesystem_ring_odds,
    conversion_markdown,
    conversion_rows,
    load_conversion_tables,
    models_removed_by_wounds,
    parse_conversion_tables,
    toysoldier_ring_damage,
    toysoldier_ring_odds,
    warhammer_ring_damage,
    warhammer_ring_odds,
)
from game.rules.core import binomial

DOCS = Path(__file__).resolve().parents[1] / "docs" / "artillery-conversions.md"
RUNS = 20_000


def within_four_se(count: int, p: Fraction, n: int = RUNS) -> bool:
    pf = float(p)
    se = (pf * (1 - pf) / n) ** 0.5
    observed = count / n
    return abs(observed - pf) <= 4 * se if se > 0 else observed == pf


# ---------------------------------------------------------------------------
# The tables


def test_ART_35_tables_are_data_with_the_rules_formulas() -> None:
    """ART-35: BS hits = ring // 5; WH hits = ring // 5 of Strength min(10, ring // 5);
    toy soldiers chance = ring // 5 - armour; guns disabled in the hit hex only."""
    tables = load_conversion_tables()
    assert tables.battlesystem.group_size == 5
    assert tables.toysoldiers.split == "example"
    assert tables.toysoldiers.gun_disabled_within == 0
    for ring in range(0, 130):
        assert tables.battlesystem.hits(ring) == ring // 5
        assert tables.warhammer.hits(ring) == ring // 5
        assert tables.warhammer.strength(ring) == min(10, ring // 5)
        assert tables.toysoldiers.base_chance(ring) == ring // 5
        assert tables.toysoldiers.chance(ring, 2) == max(0, ring // 5 - 2)
    assert conversion_rows("warhammer", (15, 50, 65, 120)) == [
        (15, 3, 3),
        (50, 10, 10),
        (65, 13, 10),
        (120, 24, 10),
    ]
    assert conversion_rows("battlesystem", (25, 7, 4)) == [(25, 5), (7, 1), (4, 0)]
    assert conversion_rows("toysoldiers", (25, 90)) == [(25, 5), (90, 18)]


def test_ART_35_standard_rings_cover_every_weapon() -> None:
    """ART-35/ART-25: the printed tables list every ring of every standard weapon."""
    rings = {d for w in WEAPONS.values() for d in w.rings()}
    assert rings == set(STANDARD_RING_DAMAGES)


@pytest.mark.parametrize("system", ["battlesystem", "warhammer", "toysoldiers"])
def test_ART_35_docs_print_the_tables_from_the_data(system: str) -> None:
    """ART-35: docs/artillery-conversions.md shows exactly the tables the code uses."""
    assert conversion_markdown(system) in DOCS.read_text(encoding="utf-8")


def test_ART_35_table_file_errors_name_file_table_and_key(tmp_path: Path) -> None:
    """ART-35: a broken table file is refused with the place and the fix."""
    good = TABLES_PATH.read_text(encoding="utf-8")
    assert parse_conversion_tables(good) == load_conversion_tables()
    with pytest.raises(ValueError, match=r"x\.toml: \[warhammer\] strength_max is missing"):
        parse_conversion_tables(good.replace("strength_max = 10", ""), "x.toml")
    with pytest.raises(ValueError, match=r"\[battlesystem\] group_size must be a whole number 1"):
        parse_conversion_tables(good.replace("group_size = 5  ", "group_size = 0  ", 1))
    with pytest.raises(ValueError, match=r"\[toysoldiers\] split must be"):
        parse_conversion_tables(good.replace('split = "example"', 'split = "half"'))
    with pytest.raises(ValueError, match=r"the \[toysoldiers\] table is missing"):
        parse_conversion_tables(good.replace("[toysoldiers]", "[toys]"))
    with pytest.raises(ValueError, match="not valid TOML"):
        parse_conversion_tables("[battlesystem\n")
    with pytest.raises(ValueError, match="cannot read the conversion tables"):
        load_conversion_tables(tmp_path / "missing.toml")
    other = tmp_path / "halved.toml"
    other.write_text(good.replace("chance_divisor = 5", "chance_divisor = 10"), encoding="utf-8")
    assert load_conversion_tables(other).toysoldiers.base_chance(25) == 2


def test_ART_35_partial_groups_are_lost_and_bad_damage_refused() -> None:
    """ART-35 Decision: only full 5-point groups count; 4 points roll nothing."""
    dice = ScriptedDice([])
    result = battlesystem_ring_damage(dice, 4, 6, 3)
    assert result.hits == 0 and result.armor_rolls == () and dice.records == []
    assert "0 hits (less than 5 points)" in result.account
    quiet = warhammer_ring_damage(dice, 4, 3)
    assert quiet.hits == 0 and quiet.shooting is None and quiet.models_removed == 0
    assert toysoldier_ring_damage(dice, 4, [0]).figures[0].roll is None
    for bad in (-5, 2.5, True):
        with pytest.raises(ValueError, match="ring damage"):
            battlesystem_ring_damage(dice, bad, 6, 3)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# BATTLESYSTEM


def test_ART_35_battlesystem_long_tom_ring_on_dwarves() -> None:
    """ART-35 with BS-3/BS-4: Long Tom ring 15 is 3 hits; d10 7,2,9 vs AR 6: one stands."""
    dice = ScriptedDice([(10, 7), (10, 2), (10, 9)])
    result = battlesystem_ring_damage(
        dice, 15, armor_rating=6, hits_per_figure=3, weapon="Long Tom", target="Dwarf regiment"
    )
    assert result.hits == 3
    assert result.armor_rolls == (7, 2, 9)
    assert result.standing == 1
    assert (result.figures_removed, result.carried) == (0, 1)
    assert result.account == (
        "Long Tom ring 15 on Dwarf regiment: 3 hits, armor checks 7,2,9 vs AR 6 -> "
        "1 hit stands; 0 figures removed, 1 hit carried"
    )
    assert dice.remaining == 0
    assert dice.records[0].purpose == "Long Tom ring 15: armor check AR 6"


def test_ART_35_battlesystem_hit_hex_with_carried_hits() -> None:
    """ART-35 with BS-4: carried hits add up; 5 hits, 4 stand, +2 carried -> 2 figures, 0 left."""
    dice = ScriptedDice([1, 2, 3, 10, 4])
    result = battlesystem_ring_damage(dice, 25, 6, 3, carried=2)
    assert result.standing == 4
    assert (result.figures_removed, result.carried) == (2, 0)
    assert result.account.endswith("2 figures removed, 0 hits carried (with 2 carried before)")
    capped = battlesystem_ring_damage(ScriptedDice([1] * 5), 25, 6, 1, figures=3)
    assert (capped.figures_removed, capped.carried) == (3, 0)


def test_ART_35_battlesystem_armor_modifiers_go_through_bs_8() -> None:
    """ART-35 with BS-8: optional AR modifiers, clamped to 2..10."""
    result = battlesystem_ring_damage(ScriptedDice([9]), 5, 6, 1, armor_modifiers=[("flank", 5)])
    assert result.armor_rating == 10
    assert result.standing == 1
    with pytest.raises(ValueError, match="armour rating"):
        battlesystem_ring_damage(ScriptedDice([]), 5, 11, 1)
    with pytest.raises(ValueError, match="carried"):
        battlesystem_ring_damage(ScriptedDice([]), 5, 6, 2, carried=2)


def test_ART_35_battlesystem_on_a_battle_unit_removes_figures() -> None:
    """ART-35 with BS-4/BS-5: the unit loses figures and keeps carried hits."""
    unit = bs.BattleUnit(
        "dwarves", "Red", "8", 6, 3, ("OOOO", "OOOO"), name="Dwarf regiment", carried_hits=1
    )
    dice = ScriptedDice([1, 2, 3, 4, 9])  # 5 hits at AR 6: four stand
    done = artillery_on_battle_unit(dice, 25, unit, weapon="Long Tom")
    assert done.ring.standing == 4
    assert done.ring.figures_removed == 1 and done.ring.carried == 2
    assert done.unit.figures == 7
    assert done.unit.carried_hits == 2
    assert done.ring.account.startswith("Long Tom ring 25 on Dwarf regiment: 5 hits")


def test_ART_35_battlesystem_exact_odds() -> None:
    """ART-35 with BS-3: standing hits are binomial with (AR - 1)/10; figures follow BS-4."""
    odds = battlesystem_ring_odds(15, 6, 3)
    assert odds.through == binomial(3, Fraction(1, 2))
    assert odds.casualties == {0: Fraction(7, 8), 1: Fraction(1, 8)}
    assert odds.expected_casualties == Fraction(1, 8)
    assert odds.expected_through == Fraction(3, 2)
    carried = battlesystem_ring_odds(25, 8, 2, carried=1)
    assert sum(carried.casualties.values()) == 1
    assert carried.casualties[3] == Fraction(7, 10) ** 5
    assert battlesystem_ring_odds(4, 6, 1).casualties == {0: Fraction(1)}


def test_ART_35_battlesystem_odds_agree_with_monte_carlo() -> None:
    """ART-35: 20,000 seeded rings through the resolver agree with the exact odds."""
    dice = Dice(35)
    odds = battlesystem_ring_odds(25, 7, 2, carried=1, figures=3)
    counts: dict[int, int] = {}
    for _ in range(RUNS):
        r = battlesystem_ring_damage(dice, 25, 7, 2, carried=1, figures=3)
        counts[r.figures_removed] = counts.get(r.figures_removed, 0) + 1
    assert set(counts) <= set(odds.casualties)
    for k, p in odds.casualties.items():
        assert within_four_se(counts.get(k, 0), p), k


# ---------------------------------------------------------------------------
# Warhammer


def test_ART_35_warhammer_ring_is_automatic_hits_of_ring_strength() -> None:
    """ART-35 with WH-7/WH-8/WH-10: ring 15 = 3 hits of S3; T4 wounds on 5+;
    heavy armour 5+ unmodified at S3."""
    dice = ScriptedDice([5, 2, 6, 5, 1])
    result = warhammer_ring_damage(dice, 15, 4, "heavy", weapon="Long Tom", target="Orc boyz")
    assert (result.hits, result.strength) == (3, 3)
    assert result.shooting is not None
    assert result.shooting.wound_needed == wh.to_wound_needed(3, 4) == 5
    assert result.shooting.wound_rolls == (5, 2, 6)
    assert result.shooting.armour_needed == wh.armour_save_needed("heavy", False, False, 3) == 5
    assert result.shooting.armour_rolls == (5, 1)
    assert result.unsaved == 1 and result.models_removed == 1
    lines = result.account.splitlines()
    assert lines[0] == "Long Tom ring 15 on Orc boyz: 3 hits of Strength 3"
    assert "to wound S3 vs T4: need 5+; rolled 5, 2, 6: 2 wounds" in result.account
    assert lines[-1] == "  1 model removed"
    assert dice.remaining == 0


def test_ART_35_warhammer_strength_worsens_the_save_and_caps_at_ten() -> None:
    """ART-35 with WH-8: ring 25 is S5 (heavy + shield 4+ -> 6+); ring 65 is S10, no save."""
    five = warhammer_ring_damage(
        ScriptedDice([6] * 5 + [6, 5, 5, 5, 5]), 25, 4, "heavy", shield=True
    )
    assert five.strength == 5
    assert five.shooting is not None and five.shooting.armour_needed == 6
    assert five.unsaved == 4
    ten = warhammer_ring_damage(ScriptedDice([2] * 13), 65, 5, "heavy", shield=True)
    assert (ten.hits, ten.strength) == (13, 10)
    assert ten.shooting is not None and ten.shooting.armour_needed is None
    assert ten.shooting.armour_rolls == ()
    assert ten.unsaved == 13
    warded = warhammer_ring_damage(ScriptedDice([6, 4]), 5, 1, ward=4)
    assert warded.shooting is not None and warded.shooting.ward_saved == 1
    assert warded.unsaved == 0


def test_ART_35_warhammer_multi_wound_models() -> None:
    """ART-35 Decision: unsaved wounds remove whole models, the rest is carried."""
    assert models_removed_by_wounds(7, 3) == (2, 1)
    assert models_removed_by_wounds(7, 3, carried=2) == (3, 0)
    assert models_removed_by_wounds(7, 3, models=2) == (2, 0)
    with pytest.raises(ValueError, match="fewer than the wounds of one model"):
        models_removed_by_wounds(1, 2, carried=2)
    result = warhammer_ring_damage(ScriptedDice([6, 6, 6, 6]), 20, 3, wounds_per_model=3)
    assert (result.unsaved, result.models_removed, result.wounds_carried) == (4, 1, 1)
    assert result.account.endswith("1 model removed, 1 wound carried")


def test_ART_35_warhammer_exact_odds() -> None:
    """ART-35: ring 15 on T4 without armour: each hit gets through with 1/3."""
    odds = warhammer_ring_odds(15, 4)
    assert odds.through == binomial(3, Fraction(1, 3))
    assert odds.casualties == odds.through
    heavy = warhammer_ring_odds(25, 4, "heavy", shield=True)
    # S5 vs T4 wounds on 3+ (2/3); the 6+ save fails 5/6.
    assert heavy.expected_through == 5 * Fraction(2, 3) * Fraction(5, 6)
    big = warhammer_ring_odds(20, 3, wounds_per_model=3, models=1)
    assert set(big.casualties) == {0, 1}
    assert warhammer_ring_odds(3, 3).casualties == {0: Fraction(1)}


def test_ART_35_warhammer_odds_agree_with_monte_carlo() -> None:
    """ART-35: 20,000 seeded rings through the resolver agree with the exact odds."""
    dice = Dice(350)
    kwargs = {"shield": True, "wounds_per_model": 2, "models": 3}
    odds = warhammer_ring_odds(25, 4, "light", **kwargs)  # type: ignore[arg-type]
    counts: dict[int, int] = {}
    for _ in range(RUNS):
        r = warhammer_ring_damage(dice, 25, 4, "light", **kwargs)  # type: ignore[arg-type]
        counts[r.models_removed] = counts.get(r.models_removed, 0) + 1
    for k, p in odds.casualties.items():
        assert within_four_se(counts.get(k, 0), p), k


# ---------------------------------------------------------------------------
# Toy soldiers


def test_ART_35_toy_soldiers_in_the_hit_hex() -> None:
    """ART-35 with TS-7/TS-9: Long Tom hit hex (25): chance 5 - armour; a gun is disabled."""
    ivan = ts.Warrior("ivan", "Ivan", "Red", armour=1)
    gunner = ts.Warrior("gunner", "gunner", "Red", qualified=("cannon",))
    knight = ts.Warrior("knight", "Knight", "Red", armour=5)
    gun = ts.Gun("g1", "6-pounder", "Red", "cannon", ts.parse_profile("6/4 - 1"), crew="gunner")
    dice = ScriptedDice([(6, 2), (6, 3)])
    result = toysoldier_ring_damage(dice, 25, [ivan, gunner, knight], [gun], weapon="Long Tom")
    assert [(f.chance, f.roll, f.result) for f in result.figures] == [
        (4, 2, "killed"),
        (5, 3, "wounded"),
        (0, None, "miss"),
    ]
    assert [w.status for w in result.warriors_after] == ["killed", "wounded", "fighting"]
    assert result.guns_after[0].status == "disabled"
    assert (result.killed, result.wounded) == (1, 1)
    assert result.account == (
        "Long Tom ring 25 (hit hex): chance 5 - armour; Ivan (armour 1) needs 4 or less, "
        "d6 2: killed; gunner (armour 0) needs 5 or less, d6 3: wounded; Knight (armour 5) "
        "cannot be hurt; disabled: 6-pounder"
    )
    assert dice.remaining == 0


def test_ART_35_toy_soldiers_outer_ring_spares_guns_and_uses_the_split() -> None:
    """ART-35 with TS-7/TS-9: ring 15 one hex out: chance 3; guns untouched;
    the text split kills C' 3 on a 2."""
    gun = ts.Gun("g1", "6-pounder", "Red", "cannon", ts.parse_profile("6/4 - 1"))
    example = toysoldier_ring_damage(ScriptedDice([2]), 15, [0], [gun], distance=1)
    assert example.figures[0].result == "wounded"
    assert example.guns_after == (gun,) and example.guns_disabled == ()
    text = toysoldier_ring_damage(ScriptedDice([2]), 15, [0], distance=1, split="text")
    assert text.figures[0].result == "killed"
    repairing = ts.Gun("g2", "mortar", "Red", "mortar", ts.parse_profile("5/3 - 1 Н"), "repairing")
    lost = ts.Gun("g3", "old gun", "Red", "cannon", ts.parse_profile("5/3 - 1"), "lost")
    hit = toysoldier_ring_damage(ScriptedDice([]), 15, [], [repairing, lost])
    assert [g.status for g in hit.guns_after] == ["disabled", "lost"]


def test_ART_35_toy_soldiers_refuse_bad_figures() -> None:
    """ART-35: figures are Warriors on the board or plain armour numbers."""
    dead = ts.Warrior("x", "Ivan", "Red", status="killed")
    with pytest.raises(ValueError, match="Ivan is killed and not on the board"):
        toysoldier_ring_damage(ScriptedDice([]), 25, [dead])
    with pytest.raises(ValueError, match="figure 2: give a Warrior or its armour"):
        toysoldier_ring_damage(ScriptedDice([]), 25, [0, -1])
    with pytest.raises(ValueError, match="distance from the hit hex"):
        toysoldier_ring_damage(ScriptedDice([]), 25, [0], distance=-1)


def test_ART_35_toy_soldier_exact_odds() -> None:
    """ART-35 with TS-7: ring 25 on armour 1 (C' 4: kill 2/6, wound 2/6) and armour 3
    (C' 2: kill 1/6, wound 1/6)."""
    odds = toysoldier_ring_odds(25, [1, 3])
    assert odds.per_figure[0] == ts.shot_odds(4)
    assert odds.joint[(2, 0)] == Fraction(2, 6) * Fraction(1, 6)
    assert odds.joint[(0, 0)] == Fraction(2, 6) * Fraction(4, 6)
    assert sum(odds.joint.values()) == 1
    assert odds.expected_killed == Fraction(1, 2)
    assert odds.expected_wounded == Fraction(1, 2)
    assert sum(k * p for k, p in odds.killed.items()) == odds.expected_killed
    assert toysoldier_ring_odds(90, [0, 2]).killed == {2: Fraction(1)}
    assert toysoldier_ring_odds(15, [0], split="text").per_figure[0].killed == Fraction(1, 3)


def test_ART_35_toy_soldier_odds_agree_with_monte_carlo() -> None:
    """ART-35: 20,000 seeded rings through the resolver agree with the exact odds."""
    dice = Dice(3500)
    armours = [0, 1, 2]
    odds = toysoldier_ring_odds(25, armours)
    counts: dict[tuple[int, int], int] = {}
    for _ in range(RUNS):
        r = toysoldier_ring_damage(dice, 25, armours)
        key = (r.killed, r.wounded)
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) <= set(odds.joint)
    for key, p in odds.joint.items():
        assert within_four_se(counts.get(key, 0), p), key
