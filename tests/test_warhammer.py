"""Warhammer shooting (WH-1..WH-10) and close-combat result (WHC-1, WHC-2)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from game.dice import Dice, DiceScriptError, ScriptedDice, batch_roll
from game.hexmath import Hex, neighbor
from game.rules.core import mean, variance
from game.rules.warhammer import (
    HARD_COVER,
    LONG_RANGE,
    MOVED,
    SOFT_COVER,
    STAND_AND_SHOOT,
    CombatResult,
    CombatSide,
    CombatUnit,
    ModelSight,
    armour_save_breakdown,
    armour_save_needed,
    as_modifiers,
    attacked_face,
    automatic_hits,
    automatic_hits_distribution,
    combat_result,
    contact_hexes,
    contact_side,
    firing_plan,
    hit_chance,
    hit_probability,
    hits_from_rolls,
    is_long_range,
    model_can_fire,
    restore_contact,
    roll_to_hit,
    save_chance,
    saves_from_rolls,
    shoot,
    shooting_modifiers,
    shot_chance,
    single_target,
    to_hit_needed,
    to_wound_needed,
    unsaved_chance,
    unsaved_wounds_distribution,
    ward_save_needed,
    wound_chance,
    wounds_from_rolls,
)

SAMPLES = 200_000


def assert_within_4_se(observed: float, p: Fraction, n: int = SAMPLES) -> None:
    """A sampled frequency agrees with an exact probability within 4 standard errors."""
    pf = float(p)
    se = math.sqrt(pf * (1 - pf) / n)
    assert abs(observed - pf) <= 4 * se + 1e-12, (observed, pf, se)


# --- WH-1: who fires -----------------------------------------------------------------


def test_WH_1_models_out_of_range_arc_or_sight_do_not_fire():
    """WH-1: out of range, out of the front arc or without LOS: the model does not fire."""
    plan = firing_plan(
        [
            ModelSight(10, True, True),  # short range for a 24" bow
            ModelSight(20, True, True),  # long range
            (30, True, True),  # out of range
            (5, False, True),  # outside the front arc
            (5, True, False),  # no line of sight
            (24, True, True),  # exactly at maximum range still fires
        ],
        max_range=24,
    )
    assert plan.short_range == (0,)
    assert plan.long_range == (1, 5)
    assert plan.firing == 3
    reasons = dict(plan.not_firing)
    assert reasons[2].startswith("out of range")
    assert reasons[3] == "target outside the front arc"
    assert reasons[4] == "no line of sight"
    assert "3 fire" in plan.describe() and "2 of them at long range" in plan.describe()


def test_WH_1_no_firing_into_close_combat():
    """WH-1: a target locked in close combat cannot be shot at by any model."""
    plan = firing_plan([(5, True, True)] * 4, 24, target_in_close_combat=True)
    assert plan.firing == 0
    assert {why for _, why in plan.not_firing} == {"no firing into close combat"}
    assert plan.groups() == []
    fires, why = model_can_fire(5, 24, True, True, target_in_close_combat=True)
    assert not fires and "close combat" in why


def test_WH_1_all_models_fire_at_one_target():
    """WH-1: a unit names one target for all its models."""
    assert single_target(["orcs", "orcs", "orcs"]) == "orcs"
    with pytest.raises(ValueError, match=r"WH-1.*goblins, orcs"):
        single_target(["orcs", "goblins"])
    with pytest.raises(ValueError, match="WH-1"):
        single_target([])


def test_WH_1_stand_and_shoot_may_fire_beyond_maximum_range():
    """WH-1 (source): a unit standing and shooting fires at a charger out of range,
    at -1 for stand and shoot and -1 for long range (WH-3)."""
    assert model_can_fire(30, 24, True, True, stand_and_shoot=True) == (True, "fires")
    assert not model_can_fire(30, 24, True, True)[0]
    plan = firing_plan([(30, True, True), (6, True, True)], 24, stand_and_shoot=True)
    groups = plan.groups([MOVED])
    assert groups == [(1, (MOVED, STAND_AND_SHOOT)), (1, (MOVED, STAND_AND_SHOOT, LONG_RANGE))]


def test_WH_1_bad_model_entry_is_named():
    with pytest.raises(ValueError, match="model 1 must be"):
        firing_plan([(5, True, True), (5, True)], 24)
    with pytest.raises(ValueError, match="maximum range is positive"):
        firing_plan([(5, True, True)], 0)
    with pytest.raises(ValueError, match="in_front_arc must be True or False"):
        firing_plan([(5, "yes", True)], 24)


# --- WH-2, WH-3, WH-4: to hit ----------------------------------------------------------


def test_WH_2_needed_roll_is_seven_minus_BS():
    """WH-2: BS 2 -> 5+, BS 3 -> 4+; a natural 1 always misses, so never below 2+."""
    assert to_hit_needed(2, 0) == 5
    assert to_hit_needed(3, 0) == 4
    assert [to_hit_needed(bs, 0) for bs in range(1, 7)] == [6, 5, 4, 3, 2, 2]
    assert to_hit_needed(10, 0) == 2
    assert to_hit_needed(4, +2) == 2
    assert hit_chance(6, 0) == Fraction(5, 6)
    assert not hits_from_rolls(2, 1)
    assert hits_from_rolls(2, 2)
    assert hit_probability(3, 0) == 0.5


def test_WH_2_one_die_per_shot_of_each_firing_model():
    """WH-2: one d6 per model, more when the weapon fires more."""
    dice = ScriptedDice([4, 1, 5, 6, 2, 3])
    (batch,) = roll_to_hit(dice, 3, 3, shots_per_model=2)
    assert batch.shots == 6 and batch.rolls == (4, 1, 5, 6, 2, 3) and batch.hits == 3
    assert dice.remaining == 0


def test_WH_3_modifiers_are_cumulative():
    """WH-3: moved -1, long range -1, stand and shoot -1, soft cover -1, hard cover -2."""
    mods = shooting_modifiers(moved=True, long_range=True, stand_and_shoot=True, cover="soft")
    assert sum(m.value for m in mods) == -4
    assert shooting_modifiers(cover="hard") == (HARD_COVER,)
    assert shooting_modifiers(cover="soft") == (SOFT_COVER,)
    assert shooting_modifiers() == ()
    assert to_hit_needed(3, sum(m.value for m in shooting_modifiers(moved=True, cover="hard"))) == 7
    with pytest.raises(ValueError, match="cover is one of none, soft, hard"):
        shooting_modifiers(cover="medium")


def test_WH_3_long_range_is_more_than_half_the_maximum_range():
    """WH-3 (source example): a short bow of 16" is long range beyond 8"."""
    assert not is_long_range(8, 16)
    assert is_long_range(8.5, 16)
    assert is_long_range(9, 16)
    with pytest.raises(ValueError, match="maximum range"):
        is_long_range(3, 0)


def test_WH_3_modifier_forms_agree():
    assert as_modifiers(-2) == as_modifiers({"modifiers": -2})
    assert as_modifiers([("moved", -1), LONG_RANGE]) == (MOVED, LONG_RANGE)
    assert as_modifiers({"moved": -1, "nothing": 0}) == (MOVED,)
    assert as_modifiers(("moved", -1)) == as_modifiers(MOVED) == (MOVED,)
    with pytest.raises(ValueError, match="a modifier is a Modifier or a"):
        as_modifiers([("moved", -1, 3)])
    with pytest.raises(ValueError, match="modifiers are a number"):
        as_modifiers("moved")


def test_WH_4_seven_plus_table():
    """WH-4: 7 -> a 6 then 4+, 8 -> then 5+, 9 -> then 6+, 10 or more: cannot hit."""
    assert to_hit_needed(1, -1) == 7
    assert to_hit_needed(1, -2) == 8
    assert to_hit_needed(1, -3) == 9
    assert to_hit_needed(1, -4) is None
    assert to_hit_needed(0, -5) is None
    assert hit_chance(1, -1) == Fraction(1, 6) * Fraction(3, 6)
    assert hit_chance(1, -2) == Fraction(1, 6) * Fraction(2, 6)
    assert hit_chance(1, -3) == Fraction(1, 6) * Fraction(1, 6)
    assert hit_chance(1, -4) == 0
    assert hit_probability(1, -3) == pytest.approx(1 / 36)
    # The second die decides only where the first shows a 6.
    assert hits_from_rolls(8, [6, 6, 6, 5], [5, 4, 6, 6]).tolist() == [True, False, True, False]


def test_WH_4_sixes_roll_again():
    """WH-4: needing 8+, roll the 6s again needing 5+ (source: "a 6, then 5 or more")."""
    dice = ScriptedDice([6, 3, 6, 1, 6, 5, 4, 6])
    (batch,) = roll_to_hit(dice, 5, 1, [MOVED, LONG_RANGE])
    assert batch.needed == 8
    assert batch.rolls == (6, 3, 6, 1, 6)
    assert batch.second_rolls == (5, 4, 6)
    assert batch.hits == 2
    assert dice.remaining == 0
    assert "a 6 then 5+" in batch.describe()
    assert [len(r.dice) for r in dice.records] == [5, 3]


def test_WH_4_ten_or_more_rolls_no_dice():
    """WH-4: needing 10+ cannot hit: nothing is rolled (empty script)."""
    dice = ScriptedDice([])
    (batch,) = roll_to_hit(dice, 10, 1, -4)
    assert batch.needed is None and batch.hits == 0 and batch.rolls == ()
    assert "cannot hit" in batch.describe()


def test_WH_5_parts_with_different_modifiers_roll_separately():
    """WH-5: three archers at short range need 4+, two at long range need 5+."""
    dice = ScriptedDice([4, 4, 3, 4, 5])
    batches = roll_to_hit(dice, [(3, ()), (2, [LONG_RANGE])], 3)
    assert [b.needed for b in batches] == [4, 5]
    assert [b.rolls for b in batches] == [(4, 4, 3), (4, 5)]
    assert [b.hits for b in batches] == [2, 1]
    assert [len(r.dice) for r in dice.records] == [3, 2]
    assert "need 5+" in dice.records[1].purpose


def test_WH_5_firing_plan_batches_feed_the_resolver():
    """WH-5 with WH-1: the plan's short and long batches roll apart in ``shoot``."""
    plan = firing_plan([(6, True, True)] * 3 + [(20, True, True)] * 2, 24)
    dice = ScriptedDice([4, 4, 3, 4, 5, 5, 5, 6])  # hits, then wounds
    result = shoot(dice, plan.groups(), 3, 0, 3, 4, "none")
    assert result.hits == 3 and result.wounds == 3 and result.unsaved == 3
    assert dice.remaining == 0


def test_WH_6_five_archers_two_hits_then_one_at_minus_one():
    """WH-6: five BS3 archers roll 1,2,2,4,6 -> two hits; at -1 the same rolls -> one hit."""
    (batch,) = roll_to_hit(ScriptedDice([1, 2, 2, 4, 6]), 5, 3)
    assert batch.needed == 4 and batch.hits == 2
    (batch,) = roll_to_hit(ScriptedDice([1, 2, 2, 4, 6]), 5, 3, -1)
    assert batch.needed == 5 and batch.hits == 1


def test_WH_6_the_volley_in_full_with_its_account():
    """WH-6/WH-7: the two hits of the example roll to wound against orcs (5+)."""
    dice = ScriptedDice([1, 2, 2, 4, 6, 5, 4, 3])
    result = shoot(dice, 5, 3, 0, 3, 4, "light", shooter="Empire archers", target="Orcs")
    assert result.hits == 2 and result.wound_needed == 5 and result.wounds == 1
    assert result.armour_needed == 6 and result.armour_rolls == (3,) and result.unsaved == 1
    assert dice.remaining == 0
    text = result.text()
    assert "rolled 1, 2, 2, 4, 6: 2 hits" in text
    assert "need 5+" in text


# --- WH-7: to wound -----------------------------------------------------------------------


def test_WH_7_wound_table():
    """WH-7: S = T 4+, S = T+1 3+, S >= T+2 2+, S = T-1 5+, S <= T-2 6+."""
    for s in range(1, 11):
        for t in range(1, 11):
            if s == t:
                want = 4
            elif s == t + 1:
                want = 3
            elif s >= t + 2:
                want = 2
            elif s == t - 1:
                want = 5
            else:
                want = 6
            assert to_wound_needed(s, t) == want, (s, t)


def test_WH_7_bow_and_crossbow_against_orcs():
    """WH-7 (source example): bow S3 vs orcs T4 -> 5+; crossbow S4 -> 4+."""
    assert to_wound_needed(3, 4) == 5
    assert to_wound_needed(4, 4) == 4
    assert wound_chance(3, 4) == Fraction(1, 3)
    assert wound_chance(4, 4) == Fraction(1, 2)


def test_WH_7_a_one_always_fails_and_a_six_always_wounds():
    """WH-7: even S10 against T1 fails on a 1; even S1 against T10 wounds on a 6."""
    assert wounds_from_rolls(to_wound_needed(10, 1), [1, 2]).tolist() == [False, True]
    assert wounds_from_rolls(to_wound_needed(1, 10), [5, 6]).tolist() == [False, True]
    dice = ScriptedDice([4, 6, 6, 1])
    result = shoot(dice, 2, 3, 0, 1, 10, "none")
    assert result.hits == 2 and result.wound_rolls == (6, 1) and result.wounds == 1


def test_WH_7_bad_profile_is_refused_before_any_roll():
    dice = ScriptedDice([])
    with pytest.raises(ValueError, match="shoot: Strength must be at least 1"):
        shoot(dice, 5, 3, 0, 0, 4)
    with pytest.raises(ValueError, match="Toughness must be a whole number"):
        shoot(dice, 5, 3, 0, 3, "four")
    with pytest.raises(ValueError, match="armour is 'none', 'light', 'heavy'"):
        shoot(dice, 5, 3, 0, 3, 4, "plate")
    with pytest.raises(ValueError, match=r"ward save is a roll of 1\.\.6"):
        shoot(dice, 5, 3, 0, 3, 4, ward=7)
    with pytest.raises(ValueError, match="batch 1 must be a"):
        shoot(dice, [(3, ()), 2], 3, 0, 3, 4)
    with pytest.raises(ValueError, match="BS must be at least 0"):
        shoot(dice, 5, -1, 0, 3, 4)
    assert dice.records == []


# --- WH-8: armour saves ---------------------------------------------------------------------


def test_WH_8_black_orc_heavy_armour_and_shield():
    """WH-8 (source example): a black orc in heavy armour saves on 5+; taking up a
    shield improves it to 4+."""
    assert armour_save_needed("heavy", False, False, 3) == 5
    assert armour_save_needed("heavy", True, False, 3) == 4
    assert armour_save_breakdown("heavy", True, False, 3) == "heavy armour 5+, shield +1 = 4+"


def test_WH_8_black_orcs_under_fire():
    """WH-8: archers hit black orcs (heavy armour, shield: 4+), then crossbows
    (Strength 4 worsens the save to 5+)."""
    # hits 4, 5, 6 (the 1 misses); to wound 6, 5, 6 at 5+: three wounds; saves 4, 3, 5.
    dice = ScriptedDice([4, 5, 6, 1, 6, 5, 6, 4, 3, 5])
    result = shoot(dice, 4, 3, 0, 3, 4, "heavy", shield=True, target="Black orcs")
    assert result.hits == 3 and result.wounds == 3 and result.armour_needed == 4
    assert result.armour_rolls == (4, 3, 5) and result.armour_saved == 2
    assert result.unsaved == 1
    assert dice.remaining == 0
    crossbows = ScriptedDice([4, 4, 4, 4, 4, 5])
    result = shoot(crossbows, 2, 3, 0, 4, 4, "heavy", shield=True, target="Black orcs")
    assert result.armour_needed == 5
    assert result.armour_rolls == (4, 5) and result.armour_saved == 1 and result.unsaved == 1
    assert "Strength 4 -1 = 5+" in result.text()


def test_WH_8_save_table():
    """WH-8: light 6+, light+shield 5+, heavy 5+, heavy+shield 4+, mount +1, none: none."""
    assert armour_save_needed("none", False, False, 3) is None
    assert armour_save_needed("light", False, False, 3) == 6
    assert armour_save_needed("light", True, False, 3) == 5
    assert armour_save_needed("heavy", False, False, 3) == 5
    assert armour_save_needed("heavy", True, False, 3) == 4
    assert armour_save_needed("heavy", True, True, 3) == 3
    assert armour_save_needed("light", False, True, 3) == 6 - 1
    assert armour_save_needed(4, False, False, 3) == 4


def test_WH_8_no_armour_with_a_shield_or_a_mount_decision():
    """WH-8 decision: no armour counts as 7+, so a shield or a mount alone gives 6+."""
    assert armour_save_needed("none", True, False, 3) == 6
    assert armour_save_needed("none", False, True, 3) == 6
    assert armour_save_needed("none", True, True, 3) == 5
    assert armour_save_needed("none", True, False, 4) is None


def test_WH_8_strength_worsens_the_save():
    """WH-8 decision: S4 -1, S5 -2, S6 -3 (S - 3); S3 and below change nothing."""
    assert [armour_save_needed("heavy", True, True, s) for s in range(1, 8)] == [
        3,
        3,
        3,
        4,
        5,
        6,
        None,
    ]
    assert armour_save_needed("heavy", False, False, 6) is None
    assert (
        armour_save_breakdown("light", False, False, 4)
        == "light armour 6+, Strength 4 -1 = no save"
    )


def test_WH_8_never_better_than_1_plus_and_a_1_fails():
    """WH-8: a save may reach 1+ but no better, and a rolled 1 still fails."""
    assert armour_save_needed(2, True, True, 3) == 1
    assert armour_save_needed(1, True, True, 3) == 1
    assert saves_from_rolls(1, [1, 2]).tolist() == [False, True]
    assert save_chance(1) == save_chance(2) == Fraction(5, 6)
    assert "a 1 still fails" in armour_save_breakdown(2, True, True, 3)
    dice = ScriptedDice([5, 4, 1])
    result = shoot(dice, 1, 3, 0, 3, 3, 2, shield=True, mount=True)
    assert result.armour_needed == 1 and result.armour_saved == 0 and result.unsaved == 1


def test_WH_8_no_save_rolls_no_dice():
    """WH-8: without a save the wounds stand and nothing is rolled for them."""
    dice = ScriptedDice([4, 4])
    result = shoot(dice, 1, 3, 0, 3, 3, "none")
    assert result.unsaved == 1 and result.armour_rolls == ()
    assert "no armour = no save" in result.text()


# --- WH-9, WH-10 ------------------------------------------------------------------------------


def test_WH_9_ward_saves_are_never_modified_by_strength():
    """WH-9: a 5+ ward save is 5+ against Strength 3 and against Strength 10."""
    assert ward_save_needed(5) == 5
    weak = unsaved_chance(3, 4, "none", ward=5)
    strong = unsaved_chance(10, 4, "none", ward=5)
    assert weak / wound_chance(3, 4) == strong / wound_chance(10, 4) == Fraction(2, 3)
    # S10 removes heavy armour entirely, the ward save is still rolled at 5+.
    dice = ScriptedDice([4, 4, 3, 2, 5, 1])
    result = shoot(dice, 2, 3, 0, 10, 4, "heavy", ward=5)
    assert result.armour_needed is None and result.armour_rolls == ()
    assert result.ward_needed == 5 and result.ward_rolls == (5, 1)
    assert result.ward_saved == 1 and result.unsaved == 1
    assert dice.remaining == 0
    assert "never modified by Strength" in result.text()


def test_WH_9_ward_after_armour_only_for_wounds_left():
    """WH-9: the ward save is rolled for the wounds the armour did not stop."""
    dice = ScriptedDice([5, 5, 5, 6, 6, 6, 4, 2, 1, 6, 3])
    result = shoot(dice, 3, 3, 0, 3, 4, "heavy", shield=True, ward=6)
    assert result.armour_rolls == (4, 2, 1) and result.armour_saved == 1
    assert result.ward_rolls == (6, 3) and result.ward_saved == 1 and result.unsaved == 1
    assert [r.purpose.split(":")[0] for r in dice.records] == [
        "to hit (BS 3, no modifiers)",
        "to wound (S3 vs T4)",
        "armour save",
        "ward save",
    ]


def test_WH_10_automatic_hits_skip_the_roll_to_hit():
    """WH-10 (source): a fireball's D6 hits of Strength 4 go straight to wounding."""
    dice = ScriptedDice([3, 4, 1, 6, 6, 2])
    hits = dice.d6("fireball: number of hits")
    result = automatic_hits(dice, hits, 4, 3, "light", shooter="Fireball", target="Goblins")
    assert result.automatic and result.batches == ()
    assert result.hits == 3 and result.wound_rolls == (4, 1, 6) and result.wounds == 2
    # S4 against light armour: no save is left.
    assert result.armour_needed is None and result.unsaved == 2
    assert dice.remaining == 2
    assert "no roll to hit (WH-10)" in result.text()
    assert not any(r.purpose.startswith("to hit") for r in dice.records)


# --- every roll recorded, serializable -------------------------------------------------------


def test_every_roll_is_recorded_with_its_purpose_and_the_result_serializes():
    dice = Dice(7)
    result = shoot(dice, [(4, ()), (3, [LONG_RANGE])], 2, [MOVED], 4, 3, "heavy", ward=6)
    rolled = [d for r in dice.records for d in r.dice]
    recorded = [
        *(d for b in result.batches for d in (*b.rolls, *b.second_rolls)),
        *result.wound_rolls,
        *result.armour_rolls,
        *result.ward_rolls,
    ]
    assert sorted(rolled) == sorted(recorded)
    data = result.to_dict()
    assert data["unsaved"] == result.unsaved
    assert data["batches"][1]["modifiers"] == [["moved", -1], ["long range", -1]]


# --- exact odds against the resolver ---------------------------------------------------------


def _exhaustive_single_shot(bs, mods, strength, toughness, armour, **kw) -> Fraction:
    """Run ``shoot`` for one shot on every sequence of dice faces it can ask for;
    the weight of the sequences that end in an unsaved wound is its exact chance."""
    total = Fraction(0)
    pending: list[list[int]] = [[]]
    while pending:
        script = pending.pop()
        try:
            result = shoot(ScriptedDice(script), 1, bs, mods, strength, toughness, armour, **kw)
        except DiceScriptError:
            pending.extend([*script, face] for face in range(1, 7))
            continue
        total += result.unsaved * Fraction(1, 6 ** len(script))
    return total


@pytest.mark.parametrize(
    ("bs", "mods", "strength", "toughness", "armour", "kw"),
    [
        (3, 0, 3, 4, "heavy", {"shield": True}),
        (1, -2, 4, 3, "light", {"ward": 5}),
        (2, -1, 5, 5, 2, {"mount": True, "ward": 4}),
        (4, +1, 3, 3, "none", {}),
        (1, -4, 6, 3, "none", {}),
    ],
)
def test_WH_2_to_WH_9_resolver_matches_exact_odds_on_every_die_sequence(
    bs, mods, strength, toughness, armour, kw
):
    """WH-2..WH-9: ``shot_chance`` equals the resolver's own outcome, weighted over
    every possible sequence of dice (exact, no sampling)."""
    exact = shot_chance(bs, mods, strength, toughness, armour, **kw)
    assert _exhaustive_single_shot(bs, mods, strength, toughness, armour, **kw) == exact


@pytest.mark.parametrize(("bs", "total"), [(3, 0), (2, -1), (5, +1), (1, -1), (1, -2), (1, -3)])
def test_WH_4_hit_chance_agrees_with_a_seeded_sample(bs, total):
    """WH-2/WH-4: ``hit_chance`` against 200,000 sampled shots through ``hits_from_rolls``."""
    rng = Dice(100 + bs * 10 - total).generator()
    first = batch_roll(rng, SAMPLES, 6)
    second = batch_roll(rng, SAMPLES, 6)
    hits = hits_from_rolls(to_hit_needed(bs, total), first, second)
    assert_within_4_se(hits.mean(), hit_chance(bs, total))


@pytest.mark.parametrize(("strength", "toughness"), [(3, 4), (4, 4), (5, 3), (2, 6), (9, 3)])
def test_WH_7_wound_chance_agrees_with_a_seeded_sample(strength, toughness):
    """WH-7: ``wound_chance`` against 200,000 sampled rolls through ``wounds_from_rolls``."""
    rng = Dice(strength * 11 + toughness).generator()
    rolls = batch_roll(rng, SAMPLES, 6)
    wounds = wounds_from_rolls(to_wound_needed(strength, toughness), rolls)
    assert_within_4_se(wounds.mean(), wound_chance(strength, toughness))


@pytest.mark.parametrize("needed", [1, 2, 4, 6, None])
def test_WH_8_save_chance_agrees_with_a_seeded_sample(needed):
    """WH-8/WH-9: ``save_chance`` against 200,000 sampled saves through ``saves_from_rolls``."""
    rng = Dice(needed or 9).generator()
    saves = saves_from_rolls(needed, batch_roll(rng, SAMPLES, 6))
    assert_within_4_se(saves.mean(), save_chance(needed))


def _sample_unsaved(rng, shots, needed_hit, strength, toughness, armour, **kw) -> np.ndarray:
    """Unsaved wounds per volley of ``shots`` shots, each stage decided by the
    resolver's own functions; shape (SAMPLES,)."""
    shape = (SAMPLES, shots)
    hit = hits_from_rolls(needed_hit, batch_roll(rng, shape, 6), batch_roll(rng, shape, 6))
    wound = wounds_from_rolls(to_wound_needed(strength, toughness), batch_roll(rng, shape, 6))
    armour_needed = armour_save_needed(
        armour, kw.get("shield", False), kw.get("mount", False), strength
    )
    saved = saves_from_rolls(armour_needed, batch_roll(rng, shape, 6))
    warded = saves_from_rolls(ward_save_needed(kw.get("ward")), batch_roll(rng, shape, 6))
    return (hit & wound & ~saved & ~warded).sum(axis=1)


def test_shot_chance_agrees_with_a_seeded_sample():
    """WH-2..WH-9: one shot hits, wounds, beats armour and ward, against a sample."""
    rng = Dice(2024).generator()
    unsaved = _sample_unsaved(rng, 1, to_hit_needed(2, -1), 4, 3, "light", shield=True, ward=6)
    assert_within_4_se(unsaved.mean(), shot_chance(2, -1, 4, 3, "light", shield=True, ward=6))


@pytest.mark.parametrize(
    ("shots", "bs", "total", "strength", "toughness", "armour", "kw"),
    [
        (10, 3, 0, 3, 4, "heavy", {"shield": True}),
        (8, 4, -1, 4, 4, "light", {"ward": 5}),
        (12, 2, -2, 5, 4, "none", {}),
    ],
)
def test_unsaved_wounds_distribution_agrees_with_a_seeded_sample(
    shots, bs, total, strength, toughness, armour, kw
):
    """WH-2..WH-9: the binomial of unsaved wounds for N shots, value by value."""
    exact = unsaved_wounds_distribution(shots, bs, total, strength, toughness, armour, **kw)
    assert sum(exact.values()) == 1
    p = shot_chance(bs, total, strength, toughness, armour, **kw)
    assert mean(exact) == shots * p and variance(exact) == shots * p * (1 - p)
    rng = Dice(shots * 1000 + bs).generator()
    needed = to_hit_needed(bs, total)
    counts = np.bincount(
        _sample_unsaved(rng, shots, needed, strength, toughness, armour, **kw),
        minlength=shots + 1,
    )
    for k in range(shots + 1):
        assert_within_4_se(counts[k] / SAMPLES, exact.get(k, Fraction(0)))


def test_WH_5_batches_distribution_agrees_with_a_seeded_sample():
    """WH-5: batches with different modifiers convolve their own binomials."""
    groups = [(6, ()), (4, [LONG_RANGE]), (3, [LONG_RANGE, SOFT_COVER])]
    exact = unsaved_wounds_distribution(groups, 3, [MOVED], 3, 3, "light")
    rng = Dice(55).generator()
    total = np.zeros(SAMPLES, dtype=np.int64)
    for count, own in groups:
        needed = to_hit_needed(3, -1 + sum(m.value for m in as_modifiers(own)))
        total += _sample_unsaved(rng, count, needed, 3, 3, "light")
    counts = np.bincount(total, minlength=14)
    for k in range(14):
        assert_within_4_se(counts[k] / SAMPLES, exact.get(k, Fraction(0)))


def test_WH_10_automatic_hits_distribution_agrees_with_a_seeded_sample():
    """WH-10: automatic hits as shots that always hit."""
    exact = automatic_hits_distribution(6, 4, 3, "heavy", ward=6)
    rng = Dice(77).generator()
    shape = (SAMPLES, 6)
    wound = wounds_from_rolls(to_wound_needed(4, 3), batch_roll(rng, shape, 6))
    saved = saves_from_rolls(
        armour_save_needed("heavy", False, False, 4), batch_roll(rng, shape, 6)
    )
    warded = saves_from_rolls(ward_save_needed(6), batch_roll(rng, shape, 6))
    unsaved = (wound & ~saved & ~warded).sum(axis=1)
    counts = np.bincount(unsaved, minlength=7)
    for k in range(7):
        assert_within_4_se(counts[k] / SAMPLES, exact[k])


def test_shoot_with_seeded_dice_matches_the_exact_mean():
    """The resolver itself, run 3,000 times with seeded dice, averages the exact mean."""
    dice = Dice(31337)
    runs = 3000
    args = ([(5, ()), (5, [LONG_RANGE])], 3, [MOVED], 4, 4, "light")
    kw = {"shield": True, "ward": 6}
    values = [shoot(dice, *args, **kw).unsaved for _ in range(runs)]
    exact = unsaved_wounds_distribution(*args, **kw)
    se = math.sqrt(float(variance(exact)) / runs)
    assert abs(sum(values) / runs - float(mean(exact))) <= 4 * se


# --- WHC-1: close-combat result -----------------------------------------------------------------


def _side(name, wounds=0, units=(), **kw) -> CombatSide:
    return CombatSide(name, tuple(units), wounds, **kw)


def _items(result: CombatResult, index: int) -> dict[str, int]:
    return dict(result.scores[index].items)


def test_WHC_1_wounds_caused_decide_and_higher_total_wins():
    """WHC-1: +1 per unsaved wound caused this round; the higher total wins."""
    result = combat_result(_side("Empire", 3), _side("Orcs", 1))
    assert result.winners == ("Empire",) and result.losers == ("Orcs",)
    assert result.margin == 2 and not result.tie
    assert result.won("Empire") and not result.won("Orcs")
    assert "Empire wins 3 to 1, by 2" in result.reason


def test_WHC_1_wounds_on_units_that_died_still_count():
    """WHC-1: wounds on units that fell out or were wiped out count; a side with
    no unit left still scores the wounds it caused."""
    result = combat_result(_side("Empire", 4), _side("Goblins", 1, units=()))
    assert result.scores[0].total == 4 and result.scores[1].total == 1


def test_WHC_1_overkill_in_a_challenge_at_most_plus_3():
    """WHC-1 (source: 5 wounds on a one-wound champion: 1 kills, 3 count, 1 lost)."""
    result = combat_result(_side("Vampires", 1, overkill=4), _side("Empire", 0))
    assert result.scores[0].total == 1 + 3
    assert "at most +3" in result.scores[0].describe()
    result = combat_result(_side("Vampires", 1, overkill=2), _side("Empire", 0))
    assert result.scores[0].total == 3


def test_WHC_1_charge_plus_1_downhill_plus_2():
    """WHC-1: charge +1, charging down from a hill +2, once per side."""
    charge = combat_result(_side("Knights", 0, charge="charge"), _side("Orcs", 0))
    assert _items(charge, 0)["charge"] == 1 and charge.scores[0].total == 1
    downhill = combat_result(_side("Knights", 0, charge="downhill"), _side("Orcs", 0))
    assert _items(downhill, 0)["charge down from a hill"] == 2
    with pytest.raises(ValueError, match="charge is one of none, charge, downhill"):
        _side("Knights", charge="yes")


def test_WHC_1_rank_bonus_best_unit_only_at_most_plus_3():
    """WHC-1: +1 per rank after the first, at most +3, only the side's best unit."""
    ranks = [
        combat_result(_side("A", 0, [CombatUnit("a", n)]), _side("B")).scores[0].total
        for n in range(0, 7)
    ]
    assert ranks == [0, 0, 1, 2, 3, 3, 3]
    both = combat_result(_side("A", 0, [CombatUnit("a", 3), CombatUnit("b", 4)]), _side("B"))
    assert both.scores[0].total == 3
    assert "ranks (b, 4 ranks)" in both.scores[0].describe()
    capped = combat_result(_side("A", 0, [CombatUnit("a", 6)]), _side("B"))
    assert "at most +3" in capped.scores[0].describe()


def test_WHC_1_standard_once_per_side_and_battle_standard_apart():
    """WHC-1: a standard +1 however many; the army battle standard +1 of its own,
    and it is not also a standard (source)."""
    two = [CombatUnit("a", standard=True), CombatUnit("b", standard=True)]
    assert combat_result(_side("A", 0, two), _side("B")).scores[0].total == 1
    bsb_only = [CombatUnit("a", battle_standard=True)]
    result = combat_result(_side("A", 0, bsb_only), _side("B"))
    assert _items(result, 0) == {"wounds caused": 0, "army battle standard": 1}
    both = [CombatUnit("a", standard=True, battle_standard=True), CombatUnit("b", standard=True)]
    assert combat_result(_side("A", 0, both), _side("B")).scores[0].total == 2


def test_WHC_1_flank_plus_1_or_2_rear_plus_2_or_3():
    """WHC-1: flank +1 (+2 with a full rank), rear +2 (+3 with a full rank)."""

    def score(*units):
        return combat_result(_side("A", 0, units), _side("B")).scores[0].total

    assert score(CombatUnit("wolves", 0, attacking="flank")) == 1
    assert score(CombatUnit("knights", 1, attacking="flank")) == 2
    assert score(CombatUnit("wolves", 0, attacking="rear")) == 2
    assert score(CombatUnit("knights", 1, attacking="rear")) == 3
    # one flank bonus per side, the better one counts
    assert score(CombatUnit("w", 0, attacking="flank"), CombatUnit("k", 1, attacking="flank")) == 2
    # flank and rear from different units both count
    assert score(CombatUnit("w", 0, attacking="flank"), CombatUnit("k", 1, attacking="rear")) == 4
    with pytest.raises(ValueError, match="attacking is one of front, flank, rear"):
        CombatUnit("x", attacking="side")


def test_WHC_1_every_bonus_together():
    """WHC-1: all items at their caps add up."""
    units = [
        CombatUnit("Halberdiers", 6, standard=True, battle_standard=True),
        CombatUnit("Knights", 1, attacking="rear", standard=True),
        CombatUnit("Outriders", 0, attacking="flank"),
    ]
    side = _side("Empire", 5, units, overkill=9, charge="downhill")
    result = combat_result(side, _side("Orcs", 2))
    assert result.scores[0].total == 5 + 3 + 2 + 3 + 1 + 1 + 1 + 3
    assert result.margin == 19 - 2


def test_WHC_1_a_tie_means_both_sides_won():
    """WHC-1: equal totals: both sides won, unless a musician breaks the tie."""
    result = combat_result(_side("A", 2), _side("B", 2))
    assert result.tie and result.winners == ("A", "B") and result.losers == ()
    assert result.margin == 0 and "both sides won" in result.reason


def test_WHC_1_musician_wins_a_tie_if_the_other_side_has_none():
    """WHC-1 decision: a side with a musician wins a tie if the other side has none."""
    drums = [CombatUnit("a", musician=True)]
    result = combat_result(_side("A", 2), _side("B", 2, drums))
    assert result.winners == ("B",) and result.losers == ("A",) and result.margin == 1
    assert "only B has a musician" in result.reason
    both = combat_result(_side("A", 2, drums), _side("B", 2, drums))
    assert both.winners == ("A", "B") and "both have a musician" in both.reason


def test_WHC_1_musician_does_not_change_a_decided_combat():
    result = combat_result(_side("A", 2, [CombatUnit("a", musician=True)]), _side("B", 3))
    assert result.winners == ("B",) and result.margin == 1


def test_WHC_1_state_is_plain_data():
    side = _side("Empire", 2, [CombatUnit("Swordsmen", 3, standard=True)], charge="charge")
    assert CombatSide.from_dict(side.to_dict()) == side
    result = combat_result(side, _side("Orcs", 1))
    data = result.to_dict()
    assert data["scores"][0]["total"] == result.scores[0].total
    assert data["winners"] == ["Empire"]
    assert "Empire:" in result.text()
    with pytest.raises(ValueError, match="different names"):
        combat_result(side, side)
    with pytest.raises(ValueError, match="wounds_caused must be at least 0"):
        _side("A", -1)


# --- WHC-2: restoring contact ------------------------------------------------------------------

ORIGIN = Hex(0, 0)


def test_WHC_2_sides_of_a_unit_on_a_hex():
    """WHC-2: facing north, the hexsides are front, two right, rear, two left."""
    sides = [contact_side(ORIGIN, 1, neighbor(ORIGIN, d)) for d in range(1, 7)]
    assert sides == ["front", "right flank", "right flank", "rear", "left flank", "left flank"]
    assert contact_side(ORIGIN, 4, neighbor(ORIGIN, 4)) == "front"
    assert attacked_face(neighbor(ORIGIN, 3), ORIGIN, 1) == "flank"
    assert attacked_face(neighbor(ORIGIN, 4), ORIGIN, 1) == "rear"
    with pytest.raises(ValueError, match="not adjacent"):
        contact_side(ORIGIN, 1, Hex(2, 0))
    with pytest.raises(ValueError, match=r"facing is a direction 1\.\.6"):
        contact_side(ORIGIN, 7, Hex(1, 0))


def test_WHC_2_moves_to_the_nearest_free_hex_keeping_the_facing_side():
    """WHC-2: a unit that fought with its front touches an enemy again with its
    front, though a nearer hex would touch that enemy with its flank."""
    enemy = Hex(2, -1)
    free = lambda h: h != enemy  # noqa: E731
    assert restore_contact(ORIGIN, 1, "front", [enemy], free) == Hex(2, 0)
    assert contact_hexes(ORIGIN, 1, "right flank", [enemy], free) == [Hex(1, -1), Hex(1, 0)]
    assert restore_contact(ORIGIN, 1, "flank", [enemy], free) == Hex(1, -1)


def test_WHC_2_still_in_contact_stays():
    enemy = neighbor(ORIGIN, 1)
    assert restore_contact(ORIGIN, 1, "front", [enemy], lambda h: True) == ORIGIN


def test_WHC_2_no_free_hex_means_falling_out_of_combat():
    """WHC-2: when the only fitting hex is taken the unit falls out of the combat."""
    enemy = Hex(2, -1)
    taken = {enemy, Hex(2, 0)}
    assert restore_contact(ORIGIN, 1, "front", [enemy], lambda h: h not in taken) is None


def test_WHC_2_no_moving_through_other_units():
    """WHC-2: the move goes through free hexes only; a detour longer than the
    search allows drops the unit, a longer allowance finds the way round."""
    enemy = Hex(0, -3)
    target = Hex(0, -2)  # the hex whose front touches the enemy
    wall = {Hex(0, -1), Hex(1, -1), Hex(-1, 0), Hex(1, -2), Hex(-1, -1)}
    free = lambda h: h != enemy and h not in wall  # noqa: E731
    assert restore_contact(ORIGIN, 1, "front", [enemy], free) is None
    assert restore_contact(ORIGIN, 1, "front", [enemy], free, max_steps=8) == target
    assert restore_contact(ORIGIN, 1, "front", [enemy], lambda h: h != enemy) == target


def test_WHC_2_bad_input_is_named():
    with pytest.raises(ValueError, match="at least one enemy"):
        restore_contact(ORIGIN, 1, "front", [], lambda h: True)
    with pytest.raises(ValueError, match="side is one of"):
        restore_contact(ORIGIN, 1, "back", [Hex(3, 0)], lambda h: True)
    with pytest.raises(ValueError, match="is_free must be a function"):
        restore_contact(ORIGIN, 1, "front", [Hex(3, 0)], None)
