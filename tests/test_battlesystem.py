"""BATTLESYSTEM resolver (RULES.md section 3, BS-1..BS-20): worked examples
with scripted dice, situation rules, exact odds against seeded Monte Carlo."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from game.board.terrain import CLEAR, HEAVY_WOODS, LIGHT_WOODS
from game.dice import Dice, ScriptedDice
from game.hexmath import Hex, distance
from game.rules.battlesystem import (
    HALF,
    HITS_TABLE,
    MAGICAL_VOLLEYS,
    THIRD,
    X1_5,
    X2,
    AttackDice,
    BattleUnit,
    InterveningUnit,
    MeleeSide,
    Modifier,
    Scale,
    SightLine,
    advantage_holder,
    armor_check,
    armor_checks_batch,
    armor_target,
    as_multiplier,
    attack,
    attack_dice_count,
    attack_hits_distribution,
    break_contact,
    contact_cells,
    expected_figures_removed,
    figures_removed_batch,
    figures_removed_by_hits,
    figures_removed_distribution,
    firing_figures,
    hit_stands_probability,
    hits_distribution,
    hits_for_roll,
    in_contact,
    in_front_arc,
    melee_advantage,
    melee_armor_modifiers,
    melee_attackers,
    melee_dice_multipliers,
    missile_armor_modifiers,
    missile_dice_count,
    modified_armor_rating,
    parse_attack_dice,
    plan_missile_fire,
    range_band,
    range_to_target,
    remove_casualties,
    resolve_attacks_batch,
    resolve_melee,
    resolve_missile_fire,
    roll_attacks_batch,
    sight,
    spend_magical_volley,
    surviving_hits_distribution,
    take_hits,
    woods_between,
)
from game.rules.core import mean, variance

# Two units in frontal contact: A faces north from (0,0), B faces south with
# its left (east) end on (3,-3); their four-wide front ranks touch.
A_ANCHOR = Hex(0, 0)
B_ANCHOR = Hex(3, -3)


def unit(unit_id: str = "a", side: str = "x", **kw) -> BattleUnit:
    base = dict(
        attack_dice="10",
        armor_rating=6,
        hits_per_figure=1,
        ranks=("OOOO",),
        anchor=A_ANCHOR,
        facing=1,
        weapon="sword",
    )
    base.update(kw)
    return BattleUnit(unit_id, side, **base)


def enemy(unit_id: str = "b", **kw) -> BattleUnit:
    kw.setdefault("anchor", B_ANCHOR)
    kw.setdefault("facing", 4)
    return unit(unit_id, "y", **kw)


def shooter(**kw) -> BattleUnit:
    kw.setdefault("ranks", ("OOO", "OOO", "OOO"))
    kw.setdefault("missile_ranges", (7, 14, 21))
    kw.setdefault("attack_dice", "6*4")
    return unit("archers", "x", **kw)


def target_at(h: Hex, **kw) -> BattleUnit:
    kw.setdefault("ranks", ("O",))
    return unit("targets", "y", anchor=h, facing=4, **kw)


# Shooter's front-rank centre is file 1 at (1,-1); a hex n straight north of it:
def north_of_centre(n: int) -> Hex:
    return Hex(1, -1 - n)


# --- BS-1, BS-2 --------------------------------------------------------------------


def test_BS_1_one_attack_die_per_attacker_rolled_exactly():
    """BS-1: exactly N dice are rolled for N attacks, of the unit's die type."""
    dice = Dice(7)
    roll = attack(dice, 23, 8)
    assert roll.count == 23
    assert [(r.sides, len(r.dice)) for r in dice.records] == [(8, 23)]
    assert attack(dice, 0, 12).hits == 0


def test_BS_2_battle_results_table():
    """BS-2: 1-3 -> 0; 4-5 -> 1; 6-9 -> 2; 10-11 -> 3; 12 -> 4."""
    assert [hits_for_roll(r) for r in range(1, 13)] == [0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 4]
    assert [int(HITS_TABLE[r]) for r in range(1, 13)] == [hits_for_roll(r) for r in range(1, 13)]


@pytest.mark.parametrize("bad", [0, 13, -1, 2.5, "6", True])
def test_BS_2_rolls_off_the_table_are_refused(bad):
    with pytest.raises(ValueError, match=r"1\.\.12|whole number"):
        hits_for_roll(bad)


def test_BS_2_eleven_trolls_score_17_hits():
    """BS-2 example: eleven trolls (AD d12) roll 1,3,3,4,5,6,8,8,9,11,12 -> 17 hits."""
    dice = ScriptedDice([(12, v) for v in (1, 3, 3, 4, 5, 6, 8, 8, 9, 11, 12)])
    roll = attack(dice, 11, "d12")
    assert roll.hits == 17
    assert roll.hits_per_attack == (0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 4)
    assert dice.remaining == 0
    assert str(roll).endswith("-> 17 hits")


def test_BS_2_per_die_odds_quoted_by_the_source():
    """BS-2: d4 misses 3 in 4 and never scores 2; d6 misses half the time and
    scores 2 one time in 6; d12 hits at least once 75% of the time."""
    d4 = attack_hits_distribution(4)
    assert d4 == {0: Fraction(3, 4), 1: Fraction(1, 4)}
    d6 = attack_hits_distribution(6)
    assert d6[0] == Fraction(1, 2) and d6[2] == Fraction(1, 6)
    d12 = attack_hits_distribution(12)
    assert 1 - d12[0] == Fraction(3, 4) and d12[4] == Fraction(1, 12)


# --- BS-3, BS-4 --------------------------------------------------------------------


def test_BS_3_dwarves_AR_6_keep_8_of_17_hits():
    """BS-3 example: 17 hits on dwarves AR 6; nine d10 of 6+ -> 8 hits stand."""
    saves = [6, 7, 8, 9, 10, 6, 7, 10, 9]
    rolls = [*saves, 1, 2, 3, 4, 5, 5, 4, 1]
    dice = ScriptedDice([(10, v) for v in rolls])
    check = armor_check(dice, 17, 6)
    assert (check.saved, check.standing) == (9, 8)
    assert dice.remaining == 0


def test_BS_3_bad_armor_check_inputs():
    with pytest.raises(ValueError, match="armour rating"):
        armor_check(Dice(1), 3, 11)
    with pytest.raises(ValueError, match="hits"):
        armor_check(Dice(1), -1, 6)


def test_BS_4_dwarves_three_hits_each_carry_leftover_hits():
    """BS-4 example: 8 hits on 3-hit dwarves -> 2 removed, 2 carried; 2 more
    hits later -> one more removed, 1 carried."""
    assert figures_removed_by_hits(8, 3) == (2, 2)
    assert figures_removed_by_hits(2, 3, carried=2) == (1, 1)
    dwarves = unit("dwarves", armor_rating=6, hits_per_figure=3, ranks=("OOOOOO",))
    first = take_hits(dwarves, 8, "rear")
    assert (len(first.removed), first.unit.carried_hits, first.unit.figures) == (2, 2, 4)
    second = take_hits(first.unit, 2, "rear")
    assert (len(second.removed), second.unit.carried_hits, second.unit.figures) == (1, 1, 3)


def test_BS_4_unit_destroyed_clears_the_counter():
    """BS-4: hits beyond the last figure go nowhere and the counter clears."""
    squad = unit(ranks=("OO",), hits_per_figure=3, carried_hits=1)
    result = take_hits(squad, 9)
    assert result.unit.figures == 0 and result.unit.carried_hits == 0
    assert result.hits_lost == 10 - 6


# --- BS-5 --------------------------------------------------------------------------


def block_unit() -> tuple[BattleUnit, frozenset]:
    """Three ranks of six in melee along their whole front."""
    block = unit("block", ranks=("OOOOOO",) * 3)
    return block, frozenset((0, f) for f in range(6))


def test_BS_5_casualties_from_the_rear_rank():
    """BS-5 example: five casualties all from the rear rank, leaving one there."""
    block, front = block_unit()
    out = remove_casualties(block, 5, "rear", front)
    assert out.unit.ranks == ("OOOOOO", "OOOOOO", "O.....")
    assert out.in_contact


def test_BS_5_owner_chooses_two_from_each_rear_rank_and_one_front():
    """BS-5 example: two from each rear rank and one from the front (front narrows to 5)."""
    block, front = block_unit()
    chosen = [(2, 5), (2, 4), (1, 5), (1, 4), (0, 5)]
    out = remove_casualties(block, 5, chosen, front)
    assert out.unit.ranks == ("OOOOO.", "OOOO..", "OOOO..")
    assert out.in_contact


def test_BS_5_all_from_the_front_still_in_contact_through_one_figure():
    """BS-5 example: five from the front rank; the one left keeps the contact."""
    block, front = block_unit()
    out = remove_casualties(block, 5, "front", front)
    assert out.unit.ranks[0].count("O") == 1
    assert out.in_contact


def test_BS_5_contact_lost_when_every_figure_in_contact_is_removed():
    """BS-5: removing every figure in contact ends the contact, also on the board."""
    a = unit(ranks=("OOOO", "OOOO"))
    b = enemy()
    touching = contact_cells(a, b)
    assert touching == {(0, f) for f in range(4)}
    out = remove_casualties(a, 4, "front", touching)
    assert not out.in_contact
    assert not in_contact(out.unit, b)
    kept = remove_casualties(a, 4, "keep_contact", touching)
    assert kept.in_contact and kept.unit.ranks == ("OOOO", "....")


def test_BS_5_bad_owner_choices_are_explained():
    block, front = block_unit()
    with pytest.raises(ValueError, match="no figure stands there"):
        remove_casualties(block, 1, [(5, 0)], front)
    with pytest.raises(ValueError, match="only 1"):
        remove_casualties(block, 2, [(0, 0)], front)
    with pytest.raises(ValueError, match="preference"):
        remove_casualties(block, 2, "middle", front)


# --- BS-6 --------------------------------------------------------------------------


def test_BS_6_notations_parse():
    """BS-6: 12, d12, 6*4, [12]8, 12+8."""
    assert parse_attack_dice("12").dice_for() == (12,)
    assert parse_attack_dice("d12").dice_for(missile=True) == (12,)
    mixed = parse_attack_dice("6*4")
    assert mixed.dice_for(missile=True) == (6,) and mixed.dice_for(melee_round=1) == (4,)
    lance = parse_attack_dice("[12]8")
    assert [lance.dice_for(melee_round=n) for n in (1, 2, 3)] == [(12,), (8,), (8,)]
    both = parse_attack_dice("12+8")
    assert both.dice_for() == (12, 8) and both.dice_for(missile=True) == (12, 8)
    assert isinstance(both, AttackDice)
    assert parse_attack_dice("6*[12]8").dice_for(missile=True) == (6,)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("20", "d20 is not an attack die"),
        ("12x", "not a die"),
        ("[12", "closing"),
        ("[12]", "followed by"),
        ("6*4*8", "only one"),
        ("[6]*4", "after the"),
        ("12+", "missing"),
    ],
)
def test_BS_6_bad_notation_says_what_is_wrong(text, why):
    with pytest.raises(ValueError, match=why):
        parse_attack_dice(text)


def test_BS_6_twelve_plus_eight_counts_hits_per_die():
    """BS-6 example: 12+8 rolling 11 and 5 -> 3 + 1 = 4 hits; 12 and 7 -> 4 + 2 = 6."""
    roll = attack(ScriptedDice([(12, 11), (8, 5)]), 1, "12+8")
    assert roll.hits == 4
    roll = attack(ScriptedDice([(12, 12), (8, 7)]), 1, "12+8")
    assert roll.hits == 6
    two = attack(ScriptedDice([(12, 11), (12, 12), (8, 5), (8, 7)]), 2, (12, 8))
    assert two.hits_per_attack == (4, 6)


def test_BS_6_situational_dice_must_be_chosen_first():
    with pytest.raises(ValueError, match="dice_for"):
        attack(Dice(1), 3, "[12]8")


def test_BS_6_lance_die_first_round_then_sword_then_lance_at_new_contact():
    """BS-6: [12]8 rolls d12 in the first round, d8 from the second consecutive
    round, d12 again at the next contact."""
    knights = unit("knights", attack_dice="[12]8", ranks=("O",), hits_per_figure=50)
    foes = enemy("foes", ranks=("O",), anchor=Hex(0, -1), hits_per_figure=50, attack_dice="4")
    # each round: knight AD, foe armour check (0 or more), foe AD, knight checks
    first = resolve_melee(ScriptedDice([(12, 1), (4, 1)]), MeleeSide(knights), MeleeSide(foes))
    assert first.a.melee_round == 1 and first.a.melee_opponent == "foes"
    second = resolve_melee(ScriptedDice([(8, 1), (4, 1)]), MeleeSide(first.a), MeleeSide(first.b))
    assert second.a.melee_round == 2
    again = break_contact(second.a)
    third = resolve_melee(ScriptedDice([(12, 1), (4, 1)]), MeleeSide(again), MeleeSide(second.b))
    assert third.strikes[0].roll.sides == (12,)


# --- BS-7 --------------------------------------------------------------------------


def test_BS_7_multipliers_round_fractions_up():
    """BS-7 examples: 7 x 1.5 = 11; 5 x 1.5 = 8 (and 6 x 1.5 = 9)."""
    assert attack_dice_count(7, 1.5) == 11
    assert attack_dice_count(5, X1_5) == 8
    assert attack_dice_count(6, "x1,5") == 9
    assert attack_dice_count(7, HALF) == 4


def test_BS_7_a_third_is_exact_not_point_33():
    """BS-7/BS-18: x0.33 is one AD per three figures: 100 figures -> 34, 300 -> 100."""
    assert as_multiplier(0.33) == THIRD and as_multiplier("0.33") == THIRD
    assert attack_dice_count(100, 0.33) == 34
    assert attack_dice_count(300, "0.33") == 100
    assert attack_dice_count(3, THIRD) == 1


def test_BS_7_bad_multipliers_and_counts():
    with pytest.raises(ValueError, match="positive"):
        as_multiplier(0)
    with pytest.raises(ValueError, match="not a number"):
        as_multiplier("lots")
    with pytest.raises(ValueError, match="figures"):
        attack_dice_count(-1, 2)


# --- BS-8, BS-19 ---------------------------------------------------------------------


def test_BS_8_armor_modifiers_add_up_within_2_to_10():
    """BS-8: cumulative modifiers; AR never above 10 nor below 2."""
    assert modified_armor_rating(6, [2, 4]) == 10
    assert modified_armor_rating(4, [-2, -2, -2]) == 2
    assert modified_armor_rating(5, [Modifier("flank", 2), Modifier("wall", -2)]) == 5
    target = armor_target(9, [Modifier("rear", 4)])
    assert target.total == 10 and "limit 2..10" in target.breakdown()
    with pytest.raises(ValueError, match=r"2\.\.10"):
        modified_armor_rating(11, [])


def test_BS_19_large_lower_target_in_fog_nets_minus_one():
    """BS-19 example: large target, lower, in fog -> +1 +1 -3 = -1."""
    mods = missile_armor_modifiers(target_lower=True, target_large=True, screened=True)
    assert [m.value for m in mods] == [1, 1, -3]
    assert modified_armor_rating(6, mods, missile=True) == 5


def test_BS_19_only_the_best_bonus_counts_against_missiles():
    """BS-19: wall (-2) and arrow slits (-4) give -4, not -6; penalties add up."""
    assert modified_armor_rating(8, [-2, -4], missile=True) == 4
    assert modified_armor_rating(8, [-2, -4], missile=False) == 2
    assert modified_armor_rating(5, [1, 1, -3, -2], missile=True) == 4
    with pytest.raises(ValueError, match="cover"):
        missile_armor_modifiers(cover="tree")


# --- BS-9 --------------------------------------------------------------------------


def test_BS_9_irregular_only_figures_in_contact_attack():
    """BS-9: irregular formation, only figures in contact."""
    wide = unit(ranks=("OOOOOO", "OOOOOO"), formation="irregular")
    assert melee_attackers(wide, [(0, 2), (0, 3)]).full == ((0, 2), (0, 3))


def test_BS_9_regular_adds_one_figure_either_side():
    """BS-9: regular formation, also one figure either side of those in contact."""
    wide = unit(ranks=("OOOOOO", "OOOOOO"))
    who = melee_attackers(wide, [(0, 2), (0, 3)])
    assert who.full == ((0, 1), (0, 2), (0, 3), (0, 4)) and who.half == ()
    assert who.dice_count() == 4


def test_BS_9_spears_second_rank_half_pikes_third_rank_too():
    """BS-9: spears/polearms: second rank at 0.5 AD each, rounded up; pikes: third rank too."""
    spears = unit(ranks=("OOOOOO",) * 3, weapon="spear")
    who = melee_attackers(spears, [(0, 2)])
    assert who.full == ((0, 1), (0, 2), (0, 3))
    assert who.half == ((1, 1), (1, 2), (1, 3))
    assert who.base_dice == 3 + 2
    pikes = unit(ranks=("OOOOOO",) * 3, weapon="pike")
    assert melee_attackers(pikes, [(0, 2)]).base_dice == 3 + math.ceil(6 / 2)
    irregular = unit(ranks=("OOOOOO",) * 3, weapon="pike", formation="irregular")
    assert melee_attackers(irregular, [(0, 2)]).base_dice == 1


def test_BS_9_routed_and_fired_figures_do_not_melee():
    """BS-9: routed units do not attack; figures that fired this turn do not melee."""
    routed = unit(status="routed")
    assert melee_attackers(routed, [(0, 0), (0, 1)]).full == ()
    fired = unit(ranks=("OFFO",))
    assert melee_attackers(fired, [(0, 1), (0, 2)]).full == ((0, 0), (0, 3))
    assert melee_attackers(fired.start_turn(), [(0, 1)]).full == ((0, 0), (0, 1), (0, 2))


def test_BS_9_melee_is_simultaneous():
    """BS-9: both sides attack with their figures before either removes casualties."""
    a = unit(attack_dice="12", armor_rating=5)
    b = enemy(attack_dice="6", armor_rating=7)
    script = (
        [(12, 12), (12, 12), (12, 1), (12, 1)]  # a: 8 hits
        + [(10, v) for v in (1, 1, 1, 1, 10, 10, 10, 10)]  # b saves 4: 4 stand
        + [(6, 6), (6, 6), (6, 1), (6, 1)]  # b: 4 hits, though it is wiped out
        + [(10, v) for v in (1, 1, 9, 9)]  # a saves 2: 2 stand
    )
    dice = ScriptedDice(script)
    out = resolve_melee(dice, MeleeSide(a), MeleeSide(b))
    assert dice.remaining == 0
    assert out.b.figures == 0 and out.a.figures == 2
    assert not out.in_contact and out.a.melee_round == 0
    assert [s.dice_count for s in out.strikes] == [4, 4]


def test_BS_9_melee_needs_contact():
    a = unit()
    far = enemy(anchor=Hex(20, -20))
    with pytest.raises(ValueError, match="not in contact"):
        resolve_melee(Dice(1), MeleeSide(a), MeleeSide(far))


# --- BS-10 -------------------------------------------------------------------------


def test_BS_10_melee_advantage_conditions():
    """BS-10: good status, facing, and pikes / long weapons / rear / larger size."""
    pikes, swords = unit(weapon="pike"), enemy(weapon="sword")
    assert melee_advantage(pikes, swords) == "pikes against no pikes"
    assert melee_advantage(pikes, enemy(weapon="pike")) is None
    assert melee_advantage(unit(weapon="halberd"), swords) is not None
    assert melee_advantage(unit(weapon="spear"), enemy(weapon="lance")) is None
    assert melee_advantage(unit(), swords, all_from_rear=True) == "attacking from the rear"
    assert melee_advantage(unit(size="man"), enemy(size="small")) == "same weapons, larger figures"
    assert melee_advantage(unit(size="small"), enemy(size="man")) is None
    assert melee_advantage(unit(weapon="spear"), enemy(size="large", weapon="club")) is not None
    assert melee_advantage(pikes, swords, facing_enemy=False) is None
    assert melee_advantage(unit(weapon="pike", status="shaken"), swords) is None


def test_BS_10_advantage_goes_to_one_side_only():
    """BS-10: when both units (or neither) qualify the round stays simultaneous."""
    pikes, swords = unit(weapon="pike"), enemy(weapon="sword")
    assert advantage_holder(pikes, swords) == "a"
    assert advantage_holder(swords, pikes) == "a"
    assert advantage_holder(pikes, swords, a_facing=False) is None
    assert advantage_holder(pikes, enemy(weapon="pike")) is None
    assert advantage_holder(pikes, swords, b_from_rear=True) is None


def test_BS_10_advantage_strikes_first_and_a_routed_enemy_does_not_answer():
    """BS-10: the unit with advantage attacks first; if the enemy routs it does not attack."""
    a = unit(attack_dice="12", weapon="pike")
    b = enemy(attack_dice="6", armor_rating=10)
    pikes_attack = [(12, 6), (12, 1), (12, 1), (12, 1)]  # 2 hits
    script = [*pikes_attack, (10, 5), (10, 5)]  # both stand: 2 of 4 removed
    dice = ScriptedDice(script)

    def routs(u: BattleUnit) -> BattleUnit:
        return BattleUnit.from_dict({**u.to_dict(), "status": "routed"})

    out = resolve_melee(dice, MeleeSide(a), MeleeSide(b), advantage="a", morale=routs)
    assert dice.remaining == 0 and len(out.strikes) == 1
    assert out.b.figures == 2 and out.b.status == "routed"


def test_BS_10_advantage_enemy_answers_with_its_survivors():
    """BS-10: casualties of the first strike are gone before the enemy strikes back."""
    a = unit(attack_dice="12", weapon="pike")
    b = enemy(attack_dice="6", armor_rating=10)
    pikes_attack = [(12, 6), (12, 1), (12, 1), (12, 1)]
    checks = [(10, 5), (10, 5)]
    answer = [(6, 1), (6, 1)]  # the two survivors in contact strike back
    script = [*pikes_attack, *checks, *answer]
    dice = ScriptedDice(script)
    out = resolve_melee(dice, MeleeSide(a), MeleeSide(b), advantage="a")
    assert dice.remaining == 0
    assert [s.dice_count for s in out.strikes] == [4, 2]
    with pytest.raises(ValueError, match="advantage"):
        resolve_melee(Dice(1), MeleeSide(a), MeleeSide(b), advantage="c")


# --- BS-11, BS-12 ------------------------------------------------------------------


def test_BS_11_melee_armor_modifiers():
    """BS-11: -2 higher, -2 preferred terrain, -2 cover, +2 lower, +2 flank, +4 rear."""
    mods = melee_armor_modifiers(
        higher_ground=True, preferred_terrain=True, behind_cover=True, flank=True, rear=True
    )
    assert [m.value for m in mods] == [-2, -2, -2, 2, 4]
    assert modified_armor_rating(6, melee_armor_modifiers(lower_ground=True, flank=True)) == 10
    with pytest.raises(ValueError, match="both higher and lower"):
        melee_armor_modifiers(higher_ground=True, lower_ground=True)


def test_BS_11_modifiers_reach_the_armor_checks_in_melee():
    """BS-11: a unit hit in the flank checks armour against AR + 2."""
    a = unit(attack_dice="12")
    b = enemy(armor_rating=5)
    dice = ScriptedDice([(12, 4)] * 4 + [(10, 6)] * 4 + [(10, 1)] * 4)
    flanked = MeleeSide(b, armor_modifiers=melee_armor_modifiers(flank=True))
    out = resolve_melee(dice, MeleeSide(a), flanked)
    assert out.strikes[0].check.armor_rating == 7 and out.strikes[0].standing == 4


def test_BS_12_melee_dice_multipliers():
    """BS-12: x2 charging cavalry, x1.5 charging infantry (5 figures -> 8 AD),
    x2 spears set against a charge."""
    assert melee_dice_multipliers(unit(troops="cavalry"), charged=True) == (X2,)
    infantry = unit(ranks=("OOOOO",))
    mult = melee_dice_multipliers(infantry, charged=True)
    assert melee_attackers(infantry, [(0, f) for f in range(5)]).dice_count(*mult) == 8
    assert melee_dice_multipliers(unit(weapon="pike"), set_against_charge=True) == (X2,)
    with pytest.raises(ValueError, match="spears, pikes or polearms"):
        melee_dice_multipliers(unit(weapon="sword"), set_against_charge=True)


# --- BS-13 -------------------------------------------------------------------------


def test_BS_13_front_arc_is_ninety_degrees():
    """BS-13: a figure fires within 45 degrees either side of its facing."""
    here = Hex(0, 0)
    assert in_front_arc(here, 1, Hex(0, -5))
    assert in_front_arc(here, 1, Hex(1, -2))  # 30 degrees off north
    assert not in_front_arc(here, 1, Hex(1, -1))  # north-east neighbour: 60 degrees
    assert not in_front_arc(here, 1, Hex(0, 3))
    assert in_front_arc(here, 2, Hex(1, -1))
    assert not in_front_arc(here, 1, here)


def test_BS_13_only_first_two_ranks_fire_and_range_is_measured_once():
    """BS-13: 3x3 archers fire with 6 figures; range from the front-rank centre."""
    archers = shooter()
    target = target_at(north_of_centre(10))
    assert firing_figures(archers, target) == tuple((r, f) for r in (0, 1) for f in range(3))
    assert range_to_target(archers, target) == 10
    plan = plan_missile_fire(archers, target)
    assert plan.allowed and plan.band == "medium" and plan.dice_count == 3
    assert plan.sides == (6,)


def test_BS_13_range_bands_and_nothing_beyond_long():
    """BS-13: longbow 7/14/21: 7 short, 7.5 medium, 21 long, beyond 21 no fire."""
    bow = (7, 14, 21)
    assert range_band(7, bow) == "short"
    assert range_band(Fraction(15, 2), bow) == "medium"
    assert range_band(14, bow) == "medium"
    assert range_band(21, bow) == "long"
    assert range_band(22, bow) is None
    plan = plan_missile_fire(shooter(), target_at(north_of_centre(22)))
    assert not plan.allowed and "out of range" in plan.reason


def test_BS_13_even_frontage_measures_from_between_the_middle_figures():
    archers = shooter(ranks=("OOOO",))
    target = target_at(Hex(1, -8))
    d1 = distance(archers.cell_hex((0, 1)), Hex(1, -8))
    d2 = distance(archers.cell_hex((0, 2)), Hex(1, -8))
    assert range_to_target(archers, target) == Fraction(d1 + d2, 2)


def test_BS_13_no_fire_in_melee_or_into_a_friendly_melee_or_behind():
    """BS-13: no fire while in melee or at an enemy in melee with a friendly unit."""
    archers, target = shooter(), target_at(north_of_centre(5))
    assert "in melee" in plan_missile_fire(archers, target, shooter_in_melee=True).reason
    plan = plan_missile_fire(archers, target, target_in_melee_with_friend=True)
    assert not plan.allowed and "friendly" in plan.reason
    behind = target_at(Hex(1, 5))
    assert "front arc" in plan_missile_fire(archers, behind).reason
    assert "no missile" in plan_missile_fire(unit(), target).reason


def test_BS_13_volley_marks_firers_who_then_do_not_melee():
    """BS-9/BS-13: figures that fired are marked and sit out this turn's melee."""
    archers, target = shooter(), target_at(north_of_centre(3), ranks=("OOO",))
    plan = plan_missile_fire(archers, target)
    assert plan.band == "short" and plan.dice_count == 6
    dice = ScriptedDice([(6, 6)] * 6 + [(10, 1)] * 12)
    out = resolve_missile_fire(dice, plan, archers, target)
    assert out.strike.roll.hits == 12 and out.strike.standing == 12
    assert out.target.figures == 0 and out.strike.casualties.hits_lost == 9
    assert out.shooter.ranks == ("FFF", "FFF", "OOO")
    assert melee_attackers(out.shooter, [(0, 1)]).full == ()


# --- BS-14 -------------------------------------------------------------------------


def test_BS_14_two_magical_volleys_then_ordinary_missiles():
    """BS-14: magical missiles last two volleys by default; ordinary ones never run out."""
    assert MAGICAL_VOLLEYS == 2
    archers = shooter(magical_volleys=MAGICAL_VOLLEYS)
    target = target_at(north_of_centre(3), hits_per_figure=99)
    dice = Dice(5)
    for _ in range(2):
        plan = plan_missile_fire(archers, target, magical=True)
        assert plan.allowed
        archers = resolve_missile_fire(dice, plan, archers, target).shooter
    assert archers.magical_volleys == 0
    assert "no magical volleys" in plan_missile_fire(archers, target, magical=True).reason
    for _ in range(5):
        assert plan_missile_fire(archers, target).allowed
    with pytest.raises(ValueError, match="no magical volleys"):
        spend_magical_volley(archers)


# --- BS-15 -------------------------------------------------------------------------


def test_BS_15_line_of_sight_blockers():
    """BS-15: hills (unless on high ground), 2" dense / 6" light woods, walls, units."""
    assert not sight(SightLine(hill_between=True)).visible
    assert sight(SightLine(hill_between=True, target_on_high_ground=True)).visible
    assert sight(SightLine(hill_between=True, shooter_on_high_ground=True)).visible
    assert not sight(SightLine(dense_woods=Fraction(2))).visible
    assert sight(SightLine(dense_woods=Fraction(1))).screened
    assert not sight(SightLine(light_woods=Fraction(6))).visible
    thin = sight(SightLine(light_woods=Fraction(5)))
    assert thin.visible and thin.screened
    assert not sight(SightLine(wall_between=True)).visible
    enemy_unit = InterveningUnit(friendly=False, distance_to_shooter=3, distance_to_target=3)
    assert "enemy" in sight(SightLine(units_between=(enemy_unit,))).reason


def test_BS_15_woods_counted_along_the_hex_line():
    """BS-15/BS-20: each woods hex between shooter and target is one inch."""
    terrain = [CLEAR, HEAVY_WOODS, LIGHT_WOODS, LIGHT_WOODS, CLEAR]
    assert woods_between(terrain) == (1, 2)
    assert woods_between(terrain, Scale(inches_per_hex=Fraction(2))) == (2, 4)


def test_BS_15_screening_woods_and_blocked_figures_in_the_plan():
    """BS-15/BS-19: thin woods screen (-3 AR); figures whose line is blocked do not fire."""
    archers, target = shooter(), target_at(north_of_centre(3), armor_rating=7)
    plan = plan_missile_fire(archers, target, sight_of=SightLine(dense_woods=Fraction(1)))
    assert plan.armor.total == 4
    half_blocked = plan_missile_fire(
        archers, target, sight_of=lambda cell: SightLine(wall_between=cell[1] == 0)
    )
    assert len(half_blocked.direct) == 4
    blocked = plan_missile_fire(archers, target, sight_of=SightLine(wall_between=True))
    assert not blocked.allowed and "wall" in blocked.reason


def test_BS_15_excess_hits_are_lost_beyond_the_figures_in_sight():
    """BS-15: casualties only among target figures in sight; excess hits are lost."""
    target = unit("t", ranks=("OOOOOO",), hits_per_figure=2)
    out = take_hits(target, 9, "front", figures_in_sight=2)
    assert out.unit.figures == 4 and out.unit.carried_hits == 0 and out.hits_lost == 5
    plan = plan_missile_fire(shooter(), target_at(north_of_centre(3)), figures_in_sight=0)
    assert not plan.allowed and "in sight" in plan.reason


# --- BS-16, BS-17, BS-18 -----------------------------------------------------------


def test_BS_16_firing_down_extends_every_band_up_to_three_inches():
    """BS-16: longbow 7/14/21 two inches down becomes 9/16/23; at most +3."""
    bow = (7, 14, 21)
    assert [range_band(d, bow, 2) for d in (9, 10, 16, 17, 23, 24)] == [
        "short",
        "medium",
        "medium",
        "long",
        "long",
        None,
    ]
    assert range_band(24, bow, 5) == "long" and range_band(25, bow, 5) is None
    plan = plan_missile_fire(shooter(), target_at(north_of_centre(23)), height_difference=2)
    assert plan.band == "long" and plan.dice_count == 2
    assert "target lower" in plan.armor.breakdown()


def test_BS_16_BS_20_height_in_levels_goes_through_the_scale():
    """BS-16/BS-20: a volley's height difference is in board levels; the scale turns
    it into inches (it was taken as inches whatever the scale said)."""
    far = target_at(north_of_centre(9))
    assert plan_missile_fire(shooter(), far, height_difference=1).band == "medium"
    tall = Scale(inches_per_level=Fraction(2))
    assert plan_missile_fire(shooter(), far, height_difference=1, scale=tall).band == "short"


def test_BS_16_high_ground_or_size_sees_over_a_nearby_unit():
    """BS-16: an intervening unit closer to the shooter than to the target is
    ignored from high ground, or by larger troops over smaller ones."""
    near = InterveningUnit(friendly=False, size="man", distance_to_shooter=2, distance_to_target=8)
    far = InterveningUnit(friendly=False, size="man", distance_to_shooter=8, distance_to_target=2)
    assert sight(SightLine(shooter_on_high_ground=True, units_between=(near,))).visible
    assert not sight(SightLine(shooter_on_high_ground=True, units_between=(far,))).visible
    assert sight(SightLine(units_between=(near,)), shooter_size="large").visible
    assert not sight(SightLine(units_between=(near,)), shooter_size="man").visible
    small = InterveningUnit(
        friendly=False, size="small", distance_to_shooter=2, distance_to_target=8
    )
    assert sight(SightLine(units_between=(small,)), shooter_size="man").visible


def test_BS_17_indirect_fire_over_friends_only_and_not_near_the_target():
    """BS-17: indirect fire only over a friendly unit not nearer the target than the shooter."""
    friend = InterveningUnit(friendly=True, distance_to_shooter=2, distance_to_target=6)
    over = sight(SightLine(units_between=(friend,)))
    assert over.visible and over.indirect
    close = InterveningUnit(friendly=True, distance_to_shooter=6, distance_to_target=2)
    assert not sight(SightLine(units_between=(close,))).visible
    foe = InterveningUnit(friendly=False, distance_to_shooter=2, distance_to_target=6)
    assert not sight(SightLine(units_between=(foe,))).visible


def test_BS_17_indirect_firers_roll_half_the_dice():
    """BS-17/BS-18: six figures at short range over a friendly unit roll 3 AD."""
    friend = InterveningUnit(friendly=True, distance_to_shooter=1, distance_to_target=2)
    plan = plan_missile_fire(
        shooter(), target_at(north_of_centre(4)), sight_of=SightLine(units_between=(friend,))
    )
    assert plan.band == "short" and len(plan.indirect) == 6 and plan.dice_count == 3


def test_BS_18_missile_dice_by_range_band():
    """BS-18: short normal, medium x0.5, long x0.33 (one AD per three), indirect x0.5."""
    assert missile_dice_count(12, 0, "short") == 12
    assert missile_dice_count(12, 0, "medium") == 6
    assert missile_dice_count(12, 0, "long") == 4
    assert missile_dice_count(7, 0, "long") == 3
    assert missile_dice_count(0, 12, "short") == 6
    assert missile_dice_count(0, 5, "medium") == 2
    assert missile_dice_count(3, 3, "medium") == 2 + 1
    with pytest.raises(ValueError, match="range band"):
        missile_dice_count(3, 0, "point blank")


def test_BS_19_plan_applies_large_lower_and_fog():
    """BS-19 example through a volley plan: large target below, in fog -> AR - 1."""
    target = target_at(north_of_centre(5), size="large", armor_rating=6)
    plan = plan_missile_fire(shooter(), target, height_difference=1, screened=True)
    assert plan.armor.total == 5
    assert plan.armor.breakdown() == (
        "AR 6, target lower +1, target larger than man-size +1, screened -3 = 5"
    )


# --- BS-20 -------------------------------------------------------------------------


def test_BS_20_one_hex_is_one_inch_unless_the_scenario_says_otherwise():
    """BS-20: default one hex = one inch; a scale of 2 inches per hex doubles ranges."""
    archers, target = shooter(), target_at(north_of_centre(5))
    assert range_to_target(archers, target) == 5
    assert plan_missile_fire(archers, target).band == "short"
    wide = Scale(inches_per_hex=Fraction(2))
    assert range_to_target(archers, target, wide) == 10
    assert plan_missile_fire(archers, target, scale=wide).band == "medium"
    with pytest.raises(ValueError, match="positive"):
        Scale(inches_per_hex=Fraction(0))


# --- unit state --------------------------------------------------------------------


def test_unit_round_trips_through_json():
    u = shooter(carried_hits=0, magical_volleys=2, status="shaken", ranks=("OFO", "O.O"))
    back = BattleUnit.from_dict(json.loads(json.dumps(u.to_dict())))
    assert back == u


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"armor_rating": 1}, "armor_rating"),
        ({"ranks": ("OOO", "OO")}, "as wide"),
        ({"ranks": ("OXO",)}, "not 'X'"),
        ({"ranks": "OOOO"}, r"ranks are a list of strings.*not 'OOOO'"),
        ({"ranks": 4}, "ranks are a list of strings"),
        ({"attack_dice": "d20"}, "unit 'u'.*d20"),
        ({"formation": "square"}, "formation"),
        ({"carried_hits": 1}, "carried_hits"),
        ({"missile_ranges": (14, 7, 21)}, "grow"),
        ({"facing": 7}, "facing"),
    ],
)
def test_bad_unit_data_is_explained(changes, why):
    data = unit("u").to_dict()
    data.update(changes)
    with pytest.raises(ValueError, match=why):
        BattleUnit.from_dict(data)


def test_unknown_or_missing_unit_fields():
    data = unit("u").to_dict()
    with pytest.raises(ValueError, match="unknown field"):
        BattleUnit.from_dict({**data, "morale": 3})
    del data["ranks"]
    with pytest.raises(ValueError, match="missing ranks"):
        BattleUnit.from_dict(data)


def test_ranks_zigzag_so_every_neighbour_touches():
    """Docs: files step facing+1, facing+2 in turn; ranks one hex behind."""
    u = unit(ranks=("OOOOO", "OOOOO"), facing=2, anchor=Hex(4, 4))
    hexes = u.figure_hexes()
    for (r, f), h in hexes.items():
        if f + 1 < 5:
            assert distance(h, hexes[(r, f + 1)]) == 1
        if r == 0:
            assert distance(h, hexes[(1, f)]) == 1
    assert len(set(hexes.values())) == 10


# --- exact odds against the vectorized resolver -------------------------------------

SAMPLES = 200_000


def assert_matches(samples: np.ndarray, dist: dict[int, Fraction]) -> None:
    """Every outcome expected 10+ times within 4 standard errors, the rarer
    ones pooled, and the mean within 4 standard errors."""
    n = len(samples)
    assert sum(dist.values()) == 1
    values, counts = np.unique(samples, return_counts=True)
    observed = dict(zip(values.tolist(), counts.tolist(), strict=True))
    assert set(observed) <= set(dist)
    rare_p, rare_seen = 0.0, 0
    for k, p in dist.items():
        pf = float(p)
        if pf * n < 10:
            rare_p += pf
            rare_seen += observed.get(k, 0)
            continue
        se = math.sqrt(pf * (1 - pf) / n)
        assert abs(observed.get(k, 0) / n - pf) <= 4 * se, (k, observed.get(k, 0) / n, pf)
    se = math.sqrt(max(rare_p * (1 - rare_p), 1e-12) / n)
    assert abs(rare_seen / n - rare_p) <= 4 * se + 1 / n
    sd = math.sqrt(float(variance(dist)))
    assert abs(float(samples.mean()) - float(mean(dist))) <= 4 * sd / math.sqrt(n)


def test_BS_2_exact_hits_distribution_matches_monte_carlo():
    """BS-1/BS-2: exact hits of 10 d12 vs 200,000 vectorized attacks."""
    rng = Dice(2101).generator()
    assert_matches(roll_attacks_batch(rng, SAMPLES, 10, 12), hits_distribution(10, 12))


def test_BS_6_exact_twelve_plus_eight_matches_monte_carlo():
    """BS-6: exact hits of 4 attacks of 12+8 vs 200,000 vectorized attacks."""
    rng = Dice(2102).generator()
    dist = hits_distribution(4, "12+8")
    assert max(dist) == 4 * (4 + 2)  # a d8 never scores more than 2
    assert_matches(roll_attacks_batch(rng, SAMPLES, 4, "12+8"), dist)


def test_BS_3_exact_surviving_hits_match_monte_carlo():
    """BS-3: hits standing after armour checks (8 d10 vs AR 6) vs 200,000 samples."""
    rng = Dice(2103).generator()
    batch = resolve_attacks_batch(rng, SAMPLES, 8, 10, 6)
    assert (batch.standing <= batch.hits).all()
    assert_matches(batch.standing, surviving_hits_distribution(8, 10, 6))


def test_BS_4_exact_figures_removed_match_monte_carlo():
    """BS-4: figures removed (3 hits each, 2 carried, 4 figures) vs 200,000 samples."""
    rng = Dice(2104).generator()
    batch = resolve_attacks_batch(rng, SAMPLES, 9, 12, 5)
    removed, carried = figures_removed_batch(batch.standing, 3, carried=2, figures=4)
    assert (carried < 3).all()
    dist = figures_removed_distribution(9, 12, 5, 3, carried=2, figures=4)
    assert_matches(removed, dist)
    expected = expected_figures_removed(9, 12, 5, 3, carried=2, figures=4)
    assert expected == mean(dist)
    sd = math.sqrt(float(variance(dist)))
    assert abs(removed.mean() - float(expected)) <= 4 * sd / math.sqrt(SAMPLES)


def test_exact_odds_known_values():
    """BS-3: a hit stands on a d10 below the AR; means are exact fractions."""
    assert hit_stands_probability(6) == Fraction(1, 2)
    assert hit_stands_probability(2) == Fraction(1, 10)
    assert mean(hits_distribution(11, 12)) == 11 * Fraction(20, 12)
    assert mean(surviving_hits_distribution(11, 12, 6)) == 11 * Fraction(20, 12) / 2
    assert hits_distribution(0, 8) == {0: 1}
    with pytest.raises(ValueError, match="armour rating"):
        surviving_hits_distribution(3, 8, 12)


def test_vectorized_armor_checks_roll_one_d10_per_hit():
    """BS-3: the batch rolls exactly one d10 per hit, in order, from the generator."""
    hits = np.array([3, 0, 5, 1])
    got = armor_checks_batch(np.random.default_rng(9), hits, 6)
    d10 = np.random.default_rng(9).integers(1, 11, size=9, dtype=np.int8)
    stands = d10 < 6
    want = [stands[0:3].sum(), 0, stands[3:8].sum(), stands[8:9].sum()]
    assert got.tolist() == want


def test_vectorized_table_matches_the_scalar_resolver():
    """BS-2: the batch reads hits through the same table as ``attack``."""
    rng = np.random.default_rng(4)
    hits = roll_attacks_batch(rng, 1, 12, 12)
    rolls = np.random.default_rng(4).integers(1, 13, size=(1, 12), dtype=np.int8)[0]
    scripted = attack(ScriptedDice(rolls.tolist()), 12, 12)
    assert int(hits[0]) == scripted.hits
