"""Toy soldiers, virtual shooting (RULES.md section 6, TS-1..TS-13)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from game.dice import Dice, ScriptedDice, batch_roll
from game.rules.core import mean
from game.rules.toysoldiers import (
    DEFAULT_GUN_TYPES,
    Gun,
    IllegalAction,
    ShooterProfile,
    ShooterTurn,
    ShootingPhase,
    Warrior,
    aim,
    assign_crew,
    blocked_by_close_enemy,
    can_repair,
    capture_gun,
    chance_breakdown,
    disable_gun,
    effective_range,
    expected_kills_and_wounds,
    fire_after_manoeuvre,
    fire_virtual_shot,
    hit_chance,
    initiative_tie_probability,
    kill_limit,
    knocked_down_odds,
    knocked_down_result,
    obstacles_block,
    one_target_odds,
    parse_profile,
    real_shot_odds,
    real_shot_result,
    repair_by_turn,
    repair_gun,
    repair_odds,
    repair_result,
    roll_knocked_down,
    roll_shooting_initiative,
    shooting_bonus_distribution,
    shot_odds,
    virtual_hit_result,
    volley_odds,
)

SAMPLES = 200_000
ALL_TYPES = DEFAULT_GUN_TYPES


def within_four_se(observed: float, p: Fraction, n: int = SAMPLES) -> bool:
    pf = float(p)
    se = (pf * (1 - pf) / n) ** 0.5
    # A probability of exactly 0 or 1 must be met exactly.
    return abs(observed - pf) <= 4 * se if se > 0 else observed == pf


def make_warrior(wid: str, owner: str = "Red", **kw: object) -> Warrior:
    return Warrior(warrior_id=wid, name=kw.pop("name", wid), owner=owner, **kw)  # type: ignore[arg-type]


def make_gun(owner: str = "Red", **kw: object) -> Gun:
    base = {
        "gun_id": "g1",
        "name": "6-pounder",
        "owner": owner,
        "gun_type": "cannon",
        "profile": parse_profile("6/4 - 1"),
        "crew": "gunner",
    }
    base.update(kw)
    return Gun(**base)  # type: ignore[arg-type]


GUNNER = Warrior("gunner", "Gunner Petrov", "Red", qualified=("cannon",))


def open_phase(bonus_red: int = 3, bonus_blue: int = 2, first: str = "Red") -> ShootingPhase:
    phase = ShootingPhase(
        players=("Red", "Blue"),
        bonuses={"Red": bonus_red, "Blue": bonus_blue},
        initiative_winner="Red",
        spent={"Red": 0, "Blue": 0},
    )
    phase.choose_order("Red", fire_first=(first == "Red"))
    return phase


# ---------------------------------------------------------------------------
# TS-12: the four worked examples, with the source's numbers


def test_TS_12_example_1_four_three_two_at_armour_1_four_steps() -> None:
    """TS-12 (1): 4/3-2 at armour 1, 4 steps -> C' 2, hits on 1-2."""
    profile = parse_profile("4/3 – 2")
    assert (profile.range, profile.chance, profile.shots) == (4, 3, 2)
    chance = hit_chance(profile, armour=1, distance=4)
    assert chance == 2
    hits = [r for r in range(1, 7) if virtual_hit_result(chance, r) != "miss"]
    assert hits == [1, 2]


def test_TS_12_example_2_indirect_at_armour_3_is_immune() -> None:
    """TS-12 (2): 5/3-1 Н at armour 3, 3 steps -> C' 0, the target cannot be hurt."""
    profile = parse_profile("5/3 – 1 Н")
    assert profile.indirect
    assert hit_chance(profile, armour=3, distance=3) == 0
    assert all(virtual_hit_result(0, r) == "miss" for r in range(1, 7))


def test_TS_12_example_3_armour_piercing_from_a_tower_at_seven_steps() -> None:
    """TS-12 (3): 6/5-1 ББ from a tower at armour 3, 7 steps: in range (6+3),
    C' = 5 - 3 + 1 + 1 = 4, hits on 1-4."""
    profile = parse_profile("6/5 – 1 ББ")
    assert profile.armour_piercing
    assert hit_chance(profile, armour=3, distance=7) is None  # out of range without the tower
    assert effective_range(profile, tower=True) == 9
    chance = hit_chance(profile, armour=3, distance=7, tower=True)
    assert chance == 4
    number = chance_breakdown(profile, 3, tower=True)
    assert number.breakdown() == "chance 5, armour -3, armour piercing +1, tower +1 = 4"
    hits = [r for r in range(1, 7) if virtual_hit_result(chance, r) != "miss"]
    assert hits == [1, 2, 3, 4]


def test_TS_12_example_4_chance_three_roll_two_is_wounded() -> None:
    """TS-12 (4) and TS-7: C' 3, roll 2 -> wounded (the example's split)."""
    assert virtual_hit_result(3, 2) == "wounded"
    assert virtual_hit_result(3, 2, split="example") == "wounded"


# ---------------------------------------------------------------------------
# TS-3: profiles


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5/3 - 1 Н", ShooterProfile(5, 3, 1, indirect=True)),
        ("6/5 - 1 ББ", ShooterProfile(6, 5, 1, armour_piercing=True)),
        ("4/3-2", ShooterProfile(4, 3, 2)),
        ("5/3 – 1 N", ShooterProfile(5, 3, 1, indirect=True)),
        ("5/3 — 1 n", ShooterProfile(5, 3, 1, indirect=True)),
        ("5/3 - 1 н", ShooterProfile(5, 3, 1, indirect=True)),
        ("5/3-1H", ShooterProfile(5, 3, 1, indirect=True)),
        ("3/4 - 1 Б", ShooterProfile(3, 4, 1, close_range=True)),
        ("3/4 - 1 b", ShooterProfile(3, 4, 1, close_range=True)),
        ("6/5 - 1 BB", ShooterProfile(6, 5, 1, armour_piercing=True)),
        ("6/5 - 1 бб", ShooterProfile(6, 5, 1, armour_piercing=True)),
        ("  12 / 4 – 3  Н, ББ ", ShooterProfile(12, 4, 3, indirect=True, armour_piercing=True)),
        ("2/3 - 2 Б ББ", ShooterProfile(2, 3, 2, close_range=True, armour_piercing=True)),
        ("5/3−1", ShooterProfile(5, 3, 1)),
    ],
)
def test_TS_3_profile_spellings(text: str, expected: ShooterProfile) -> None:
    """TS-3: Cyrillic and Latin flags, any case; hyphen, en dash or em dash, spaces optional."""
    assert parse_profile(text) == expected


def test_TS_3_profile_prints_in_the_armlist_form_and_round_trips() -> None:
    """TS-3: the profile prints as R/C - N with Cyrillic flags and reads back the same."""
    profile = parse_profile("5/3 – 1 n bb b")
    assert str(profile) == "5/3 - 1 Н Б ББ"
    assert parse_profile(str(profile)) == profile
    assert ShooterProfile.from_dict(profile.to_dict()) == profile
    assert ShooterProfile.from_dict("4/3-2") == ShooterProfile(4, 3, 2)


def test_TS_3_profile_is_frozen() -> None:
    """TS-3: the parsed profile is an immutable value."""
    profile = parse_profile("4/3-2")
    with pytest.raises(AttributeError):
        profile.range = 7  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("5-3-1", "no '/'"),
        ("5/3 1 Н", "no dash"),
        ("5/3 -", "number of shots is missing"),
        ("5/x - 1", "hit chance 'x'"),
        ("x/3 - 1", "range 'x'"),
        ("5/3 - 1 X", "unknown flag 'X'"),
        ("5/3 - 1 НББ", "unknown flag 'НББ'"),
        ("5/3 - 1 Н N", "given twice"),
        ("0/3 - 1", "range must be at least 1"),
        ("5/0 - 1", "hit chance must be at least 1"),
        ("5/3 - 0", "number of shots must be at least 1"),
    ],
)
def test_TS_3_bad_profiles_name_the_text_and_the_fault(text: str, words: str) -> None:
    """TS-3: a malformed profile is a ValueError quoting the text and saying what is wrong."""
    with pytest.raises(ValueError) as info:
        parse_profile(text)
    assert repr(text) in str(info.value)
    assert words in str(info.value)


def test_TS_3_profile_must_be_text() -> None:
    """TS-3: a number instead of a profile is refused with the expected form."""
    with pytest.raises(ValueError, match="must be text"):
        parse_profile(53)  # type: ignore[arg-type]


def test_TS_3_indirect_fire_passes_over_low_obstacles_only() -> None:
    """TS-3: Н fires over obstacles up to 2 steps high; direct fire needs a clear line."""
    indirect, direct = parse_profile("5/3 - 1 Н"), parse_profile("5/3 - 1")
    assert not obstacles_block(indirect, [1, 2])
    assert obstacles_block(indirect, [2, 3])
    assert obstacles_block(direct, [1])
    assert not obstacles_block(direct, [0, 0])
    assert not obstacles_block(direct, [])
    with pytest.raises(ValueError, match="0 or more"):
        obstacles_block(direct, [-1])


# ---------------------------------------------------------------------------
# TS-4, TS-5: range and chance


def test_TS_4_roll_equal_to_the_chance_hits() -> None:
    """TS-4: the examples count "up to and including" C'."""
    for chance in range(1, 7):
        assert virtual_hit_result(chance, chance) != "miss"
        if chance < 6:
            assert virtual_hit_result(chance, chance + 1) == "miss"


def test_TS_4_out_of_range_is_none_and_immune_is_zero() -> None:
    """TS-4: None beyond the range, 0 when C' <= 0 (never negative)."""
    profile = parse_profile("4/3-2")
    assert hit_chance(profile, 0, 4) == 3
    assert hit_chance(profile, 0, 5) is None
    assert hit_chance(profile, 5, 2) == 0
    assert hit_chance(profile, 0, 0) == 3
    with pytest.raises(ValueError, match="distance"):
        hit_chance(profile, 0, -1)
    with pytest.raises(ValueError, match="armour"):
        hit_chance(profile, -1, 2)


def test_TS_4_chance_above_six_always_hits() -> None:
    """TS-4: a chance of 7 hits on every roll; the kill/wound split still uses 7."""
    profile = parse_profile("6/6 - 1")
    chance = hit_chance(profile, 0, 3, tower=True)
    assert chance == 7
    assert [virtual_hit_result(chance, r) for r in range(1, 7)] == ["killed"] * 3 + ["wounded"] * 3


def test_TS_5_wall_adds_range_only_and_tower_adds_range_and_chance() -> None:
    """TS-5: fortress wall range +3; tower range +3 and chance +1; not cumulative."""
    profile = parse_profile("5/3 - 1")
    assert hit_chance(profile, 0, 8) is None
    assert hit_chance(profile, 0, 8, wall=True) == 3
    assert hit_chance(profile, 0, 9, wall=True) is None
    assert hit_chance(profile, 0, 8, tower=True) == 4
    assert effective_range(profile, tower=True, wall=True) == 8


def test_TS_5_target_on_a_wall_gains_one_armour() -> None:
    """TS-5: a wall covering part of the target's body: armour +1."""
    profile = parse_profile("5/3 - 1")
    assert hit_chance(profile, 1, 3) == 2
    assert hit_chance(profile, 1, 3, target_on_wall=True) == 1
    number = chance_breakdown(profile, 1, target_on_wall=True)
    assert number.breakdown() == "chance 3, armour -1, target on a wall -1 = 1"


def test_TS_5_armour_piercing_lowers_armour_but_not_below_zero() -> None:
    """TS-5: ББ: target armour -1 (Decision: an unarmoured target gains nothing)."""
    piercing = parse_profile("5/3 - 1 ББ")
    assert hit_chance(piercing, 2, 3) == 2
    assert hit_chance(piercing, 0, 3) == 3
    # On a wall an unarmoured target has armour 1, which the piercing shot removes.
    assert hit_chance(piercing, 0, 3, target_on_wall=True) == 3


# ---------------------------------------------------------------------------
# TS-6: enemy within 1 step


def test_TS_6_enemy_within_one_step_stops_fire_except_close_range_weapons() -> None:
    """TS-6: a gun or shooter cannot fire with an enemy within 1 step, except a Б weapon."""
    plain, close = parse_profile("5/3 - 1"), parse_profile("2/3 - 1 Б")
    assert blocked_by_close_enemy(plain, [4, 1, 6])
    assert blocked_by_close_enemy(plain, [0])
    assert not blocked_by_close_enemy(plain, [2, 3])
    assert not blocked_by_close_enemy(plain, [])
    assert not blocked_by_close_enemy(close, [1, 1])


def test_TS_6_aim_refuses_with_the_reason() -> None:
    """TS-6: the refusal names the distance and the exception."""
    shooter = make_warrior("archer", profile=parse_profile("5/3 - 1"))
    target = make_warrior("orc", owner="Blue")
    with pytest.raises(IllegalAction, match=r"1 step from archer; only a close-range \(Б\)"):
        aim(shooter, target, 3, enemy_distances=[1, 3])
    pistol = replace(shooter, profile=parse_profile("2/3 - 1 Б"))
    assert aim(pistol, target, 1, enemy_distances=[1]).chance == 3


# ---------------------------------------------------------------------------
# TS-7: halves


def test_TS_7_split_table_for_every_chance() -> None:
    """TS-7: example split kills on roll <= floor(C'/2); text split on roll <= ceil(C'/2)."""
    assert [kill_limit(c) for c in range(0, 8)] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert [kill_limit(c, "text") for c in range(0, 8)] == [0, 1, 1, 2, 2, 3, 3, 4]
    assert virtual_hit_result(3, 2, split="text") == "killed"
    assert virtual_hit_result(3, 1) == "killed"
    assert virtual_hit_result(1, 1) == "wounded"
    assert virtual_hit_result(1, 1, split="text") == "killed"
    assert virtual_hit_result(4, 2) == "killed"
    assert virtual_hit_result(4, 3) == "wounded"
    assert virtual_hit_result(4, 5) == "miss"


def test_TS_7_bad_inputs_are_refused() -> None:
    """TS-7: rolls outside 1-6 and unknown split options are errors."""
    with pytest.raises(ValueError, match="1 to 6"):
        virtual_hit_result(3, 7)
    with pytest.raises(ValueError, match="1 to 6"):
        virtual_hit_result(3, 0)
    with pytest.raises(ValueError, match="'example' or 'text'"):
        virtual_hit_result(3, 2, split="rounded")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# TS-8: real shooting


def test_TS_8_real_shot_roll_one_two_kills() -> None:
    """TS-8: physical fire decided by a die: 1-2 killed, more wounded."""
    assert [real_shot_result(r) for r in range(1, 7)] == ["killed"] * 2 + ["wounded"] * 4
    assert real_shot_odds() == {"killed": Fraction(1, 3), "wounded": Fraction(2, 3)}


def test_TS_8_knocked_down_figures() -> None:
    """TS-8: face up killed, face down wounded, standing light wound, unclear d6 1-3/4-6."""
    assert knocked_down_result("face_up") == "killed"
    assert knocked_down_result("face_down") == "wounded"
    assert knocked_down_result("standing") == "light_wound"
    assert [knocked_down_result("unclear", r) for r in range(1, 7)] == ["killed"] * 3 + [
        "wounded"
    ] * 3
    with pytest.raises(ValueError, match="needs a d6"):
        knocked_down_result("unclear")
    with pytest.raises(ValueError, match="falls"):
        knocked_down_result("sideways")  # type: ignore[arg-type]
    dice = ScriptedDice([(6, 4)])
    assert roll_knocked_down("unclear", dice, "Ivan") == "wounded"
    assert dice.records[0].purpose == "unclear fall of Ivan"
    assert roll_knocked_down("face_up", ScriptedDice([])) == "killed"
    assert knocked_down_odds("unclear") == {"killed": Fraction(1, 2), "wounded": Fraction(1, 2)}
    assert knocked_down_odds("standing") == {"light_wound": Fraction(1)}


def test_TS_8_light_wound_keeps_fighting() -> None:
    """TS-8: a lightly wounded warrior stays on the board; a wounded one goes to hospital."""
    assert make_warrior("a", status="light_wound").on_board
    assert not make_warrior("a", status="wounded").on_board
    assert not make_warrior("a", status="killed").on_board
    with pytest.raises(ValueError, match="status"):
        make_warrior("a", status="dazed")


# ---------------------------------------------------------------------------
# TS-9: disabled guns and repair


def test_TS_9_repair_table() -> None:
    """TS-9: d6 1-2 lost, 3-4 continues, 5-6 repaired."""
    assert [repair_result(r) for r in range(1, 7)] == [
        "lost",
        "lost",
        "continues",
        "continues",
        "repaired",
        "repaired",
    ]
    with pytest.raises(ValueError):
        repair_result(7)


def test_TS_9_shell_hit_disables_a_gun_which_cannot_fire() -> None:
    """TS-9: a gun hit by a shell is on its side and may not fire."""
    gun = disable_gun(make_gun())
    assert gun.status == "disabled"
    assert disable_gun(replace(gun, status="lost")).status == "lost"
    target = make_warrior("orc", owner="Blue")
    with pytest.raises(IllegalAction, match="disabled and cannot fire"):
        aim(gun, target, 3, crew=GUNNER)


def test_TS_9_repair_needs_a_mechanic_of_all_four_gun_types() -> None:
    """TS-9: only a warrior qualified on all four gun types repairs."""
    gun = disable_gun(make_gun())
    gunner = GUNNER
    mechanic = make_warrior("mech", name="Mechanic Sidorov", qualified=ALL_TYPES)
    assert can_repair(mechanic)
    assert not can_repair(gunner)
    with pytest.raises(IllegalAction, match=r"all 4 gun types, and is not on howitzer"):
        repair_gun(gun, gunner, ScriptedDice([]), turn=3, distance=1)
    with pytest.raises(IllegalAction, match="within 1 step"):
        repair_gun(gun, mechanic, ScriptedDice([]), turn=3, distance=2)
    with pytest.raises(IllegalAction, match="nothing to repair"):
        repair_gun(make_gun(), mechanic, ScriptedDice([]), turn=3, distance=1)


def test_TS_9_repair_rolls_through_to_firing_next_turn() -> None:
    """TS-9: 3-4 repair goes on, 5-6 repaired and fires from the next turn, 1-2 lost."""
    mechanic = make_warrior("mech", name="Mechanic Sidorov", qualified=ALL_TYPES)
    gun = disable_gun(make_gun())
    dice = ScriptedDice([(6, 3), (6, 6)])
    first = repair_gun(gun, mechanic, dice, turn=3, distance=1)
    assert first.outcome == "continues" and first.gun.status == "repairing"
    assert (
        first.account == "Mechanic Sidorov repairs the 6-pounder: d6 3 -> repair goes on next turn"
    )
    second = repair_gun(first.gun, mechanic, dice, turn=4, distance=0)
    assert second.outcome == "repaired"
    assert second.gun.status == "ready" and second.gun.ready_turn == 5
    assert dice.remaining == 0
    target = make_warrior("orc", owner="Blue")
    with pytest.raises(IllegalAction, match="may fire from turn 5"):
        aim(second.gun, target, 3, crew=GUNNER, turn=4)
    assert aim(second.gun, target, 3, crew=GUNNER, turn=5).chance == 4
    lost = repair_gun(gun, mechanic, ScriptedDice([2]), turn=3, distance=1)
    assert lost.outcome == "lost" and lost.gun.status == "lost" and lost.gun.crew is None


def test_TS_9_repair_odds_are_exact() -> None:
    """TS-9: one roll is a third each; a repair carried on to the end succeeds half the time."""
    odds = repair_odds()
    assert (odds.lost, odds.continues, odds.repaired) == (Fraction(1, 3),) * 3
    assert odds.eventually_repaired == Fraction(1, 2)
    assert odds.expected_rolls == Fraction(3, 2)
    after_two = repair_by_turn(2)
    assert after_two == {
        "lost": Fraction(4, 9),
        "continues": Fraction(1, 9),
        "repaired": Fraction(4, 9),
    }
    assert sum(repair_by_turn(5).values()) == 1


def test_TS_9_repair_odds_agree_with_monte_carlo() -> None:
    """TS-9: 200,000 repairs rolled to the end through repair_result agree with 1/2."""
    rng = Dice(909).generator()
    table = np.array(["", *(repair_result(r) for r in range(1, 7))], dtype=object)
    rolls = batch_roll(rng, (SAMPLES, 12), 6)
    outcome = table[rolls]
    decided = outcome != "continues"
    first = decided.argmax(axis=1)
    settled = decided.any(axis=1)
    ends = outcome[np.arange(SAMPLES), first]
    repaired = np.mean((ends == "repaired") & settled)
    exact = repair_odds().eventually_repaired * (1 - repair_by_turn(12)["continues"])
    assert within_four_se(repaired, exact)


def test_TS_5_armour_piercing_fire_disables_a_gun() -> None:
    """TS-5/TS-9: only ББ fire can disable a gun; a hit turns it on its side."""
    rifle = make_warrior("sniper", owner="Blue", profile=parse_profile("6/3 - 1 ББ"))
    musket = make_warrior("musket", owner="Blue", profile=parse_profile("6/3 - 1"))
    gun = make_gun()
    with pytest.raises(IllegalAction, match="only armour-piercing"):
        aim(musket, gun, 3)
    phase = open_phase(first="Blue")
    shot = fire_virtual_shot(phase, rifle, gun, 3, ScriptedDice([3]))
    assert shot.result != "miss"
    assert shot.target_after.status == "disabled"
    assert shot.account.endswith("d6 3 -> hit: the gun is disabled")
    with pytest.raises(IllegalAction, match="already disabled"):
        aim(rifle, shot.target_after, 3)


# ---------------------------------------------------------------------------
# TS-10: capture


def test_TS_10_unguarded_gun_is_captured_without_a_fight() -> None:
    """TS-10: within 1 step and no enemy warrior within 1 step of the gun: captured."""
    gun = make_gun(owner="Blue")
    captor = make_warrior("scout", owner="Red", name="Scout Orlov")
    taken = capture_gun(gun, captor, captor_distance=1, guard_distances={"Blue guard": 2})
    assert taken.owner == "Red"
    assert taken.crew is None
    assert taken.status == gun.status


def test_TS_10_guarded_gun_needs_a_melee_won_first() -> None:
    """TS-10: a guard within 1 step: the captor must win a melee first."""
    gun = make_gun(owner="Blue")
    captor = make_warrior("scout", owner="Red", name="Scout Orlov")
    with pytest.raises(IllegalAction, match="guarded by Blue guard within 1 step"):
        capture_gun(gun, captor, 1, {"Blue guard": 1})
    assert capture_gun(gun, captor, 1, {"Blue guard": 1}, won_melee=True).owner == "Red"
    with pytest.raises(IllegalAction, match="must come within 1 step"):
        capture_gun(gun, captor, 2, {})
    with pytest.raises(IllegalAction, match="already belongs"):
        capture_gun(make_gun(owner="Red"), captor, 1, {})


def test_TS_10_a_captured_disabled_gun_stays_disabled_and_can_be_repaired_by_the_captor() -> None:
    """TS-10/TS-9: the gun belongs to the captor, in the state it was in."""
    gun = disable_gun(make_gun(owner="Blue"))
    captor = make_warrior("mech", owner="Red", qualified=ALL_TYPES)
    taken = capture_gun(gun, captor, 1, {})
    assert taken.status == "disabled"
    assert repair_gun(taken, captor, ScriptedDice([5]), turn=2, distance=1).outcome == "repaired"


# ---------------------------------------------------------------------------
# TS-11: crew


def test_TS_11_only_qualified_warriors_crew_a_gun() -> None:
    """TS-11: an unqualified crew is forbidden with a clear reason."""
    gun = make_gun(crew=None)
    rookie = make_warrior("rookie", name="Private Ivanov", qualified=("mortar",))
    with pytest.raises(IllegalAction, match="not qualified for cannon guns and may not crew"):
        assign_crew(gun, rookie, distance=1)
    crewed = assign_crew(gun, GUNNER, distance=1)
    assert crewed.crew == "gunner"
    with pytest.raises(IllegalAction, match="within 1 step"):
        assign_crew(gun, GUNNER, distance=3)
    with pytest.raises(IllegalAction, match="belongs to Blue"):
        assign_crew(make_gun(owner="Blue", crew=None), GUNNER, distance=1)


def test_TS_11_gun_without_a_fit_qualified_crew_cannot_fire() -> None:
    """TS-11: no crew, a dead crew, or a crew that lost its qualification: no shot."""
    target = make_warrior("orc", owner="Blue")
    with pytest.raises(IllegalAction, match="has no crew"):
        aim(make_gun(crew=None), target, 3)
    with pytest.raises(IllegalAction, match="has no crew"):
        aim(make_gun(), target, 3)
    with pytest.raises(IllegalAction, match="is killed"):
        aim(make_gun(), target, 3, crew=replace(GUNNER, status="killed"))
    with pytest.raises(IllegalAction, match="not qualified"):
        aim(make_gun(), target, 3, crew=replace(GUNNER, qualified=()))
    with pytest.raises(IllegalAction, match="is not the crew"):
        aim(make_gun(), target, 3, crew=make_warrior("other", qualified=("cannon",)))


# ---------------------------------------------------------------------------
# TS-1: initiative


def test_TS_1_each_player_rolls_all_the_game_dice_and_the_sum_is_the_bonus() -> None:
    """TS-1: the sums are the bonuses; the higher sum wins and chooses the order."""
    dice = ScriptedDice([(6, 4), (10, 7), (6, 2), (10, 3)])
    roll = roll_shooting_initiative(dice, ("Red", "Blue"), game_dice=(6, 10))
    assert roll.rolls == ((4, 7), (2, 3))
    assert roll.bonuses == {"Red": 11, "Blue": 5}
    assert roll.winner == "Red"
    assert roll.account == "shooting bonus: Red 4+7 = 11, Blue 2+3 = 5 -> Red has the initiative"
    assert dice.remaining == 0
    phase = ShootingPhase.from_initiative(roll)
    with pytest.raises(IllegalAction, match="only Red, who won the shooting initiative"):
        phase.choose_order("Blue", fire_first=True)
    phase.choose_order("Red", fire_first=False)
    assert phase.order == ("Blue", "Red")
    assert phase.firing == "Blue"
    with pytest.raises(IllegalAction, match="already chosen"):
        phase.choose_order("Red", fire_first=True)


def test_TS_1_ties_keep_the_bonuses_and_a_roll_off_decides() -> None:
    """TS-1 Decision: on a tie the bonuses stand; all the game's dice are rolled
    again, as often as needed, only to decide the initiative."""
    dice = ScriptedDice([3, 4, 5, 2, 1, 1, 2, 6])
    roll = roll_shooting_initiative(dice, ("Red", "Blue"), game_dice=(6, 6))
    assert roll.bonuses == {"Red": 7, "Blue": 7}
    assert roll.roll_offs == ((2, 8),)
    assert roll.winner == "Blue"
    assert "tie, roll-off Red 2 vs Blue 8" in roll.account


def test_TS_1_bonus_distribution_is_exact() -> None:
    """TS-1: the bonus of 2d6 is the 2d6 sum; tie chance 73/648."""
    dist = shooting_bonus_distribution((6, 6))
    assert dist[7] == Fraction(1, 6)
    assert mean(dist) == 7
    assert initiative_tie_probability((6, 6)) == Fraction(146, 1296)
    assert initiative_tie_probability((6,)) == Fraction(1, 6)
    with pytest.raises(ValueError, match="not listed"):
        shooting_bonus_distribution(())
    with pytest.raises(ValueError, match="at least 2 sides"):
        roll_shooting_initiative(ScriptedDice([]), ("Red", "Blue"), (6, 1))
    with pytest.raises(ValueError, match="two players"):
        roll_shooting_initiative(ScriptedDice([]), ("Red", "Red"), (6,))


# ---------------------------------------------------------------------------
# TS-2: budget


def test_TS_2_each_gun_fires_once_a_phase() -> None:
    """TS-2: a one-shot gun that has fired is refused with its name."""
    gun = make_gun()
    target = make_warrior("orc", owner="Blue")
    phase = open_phase(bonus_red=5)
    fire_virtual_shot(phase, gun, target, 3, ScriptedDice([6]), crew=GUNNER)
    assert phase.remaining("Red") == 4
    with pytest.raises(IllegalAction, match="the 6-pounder has already fired this phase"):
        fire_virtual_shot(phase, gun, target, 3, ScriptedDice([6]), crew=GUNNER)
    assert phase.remaining("Red") == 4


def test_TS_2_profile_shots_allow_more_and_each_costs_a_point() -> None:
    """TS-2: N shots in the profile; each shot costs 1 point of the bonus."""
    shooter = make_warrior("mg", profile=parse_profile("4/3 - 2"))
    target = make_warrior("orc", owner="Blue")
    phase = open_phase(bonus_red=2)
    dice = ScriptedDice([6, 6])
    fire_virtual_shot(phase, shooter, target, 4, dice)
    fire_virtual_shot(phase, shooter, target, 4, dice)
    assert phase.remaining("Red") == 0
    with pytest.raises(IllegalAction, match="already fired its 2 shots this phase"):
        fire_virtual_shot(phase, shooter, target, 4, dice)


def test_TS_2_budget_runs_out_across_guns_and_leftover_points_are_lost() -> None:
    """TS-2: the bonus is spent across guns; the total may not exceed it; leftovers are lost."""
    target = make_warrior("orc", owner="Blue")
    a = make_warrior("a", profile=parse_profile("4/3 - 1"))
    b = make_warrior("b", profile=parse_profile("4/3 - 1"))
    c = make_warrior("c", profile=parse_profile("4/3 - 1"))
    phase = open_phase(bonus_red=2, bonus_blue=4)
    dice = ScriptedDice([6, 6])
    fire_virtual_shot(phase, a, target, 2, dice)
    fire_virtual_shot(phase, b, target, 2, dice)
    with pytest.raises(IllegalAction, match="Red has no shooting points left"):
        fire_virtual_shot(phase, c, target, 2, dice)
    assert phase.end_fire("Red") == 0
    assert phase.firing == "Blue"
    blue = make_warrior("blue", owner="Blue", profile=parse_profile("4/3 - 1"))
    fire_virtual_shot(phase, blue, a, 2, ScriptedDice([6]))
    assert phase.end_fire("Blue") == 3
    assert phase.finished
    with pytest.raises(IllegalAction, match="phase is over"):
        fire_virtual_shot(phase, blue, a, 2, ScriptedDice([6]))


def test_TS_2_order_and_ownership_are_checked() -> None:
    """TS-2: only the side whose turn it is fires, only its own shooters, after the choice."""
    target = make_warrior("orc", owner="Blue")
    blue = make_warrior("blue", owner="Blue", profile=parse_profile("4/3 - 1"))
    phase = ShootingPhase(("Red", "Blue"), {"Red": 3, "Blue": 3}, "Red")
    with pytest.raises(IllegalAction, match="Red must first choose who fires first"):
        phase.check_shot("Red", make_warrior("a", profile=parse_profile("4/3 - 1")))
    phase.choose_order("Red", fire_first=True)
    with pytest.raises(IllegalAction, match="it is Red's turn to fire, not Blue's"):
        fire_virtual_shot(phase, blue, target, 2, ScriptedDice([6]))
    with pytest.raises(IllegalAction, match="belongs to Blue, not Red"):
        phase.check_shot("Red", blue)
    with pytest.raises(IllegalAction, match="not a player"):
        phase.remaining("Green")
    with pytest.raises(IllegalAction, match="Blue is not firing now"):
        phase.end_fire("Blue")


def test_TS_2_a_refused_shot_spends_nothing_and_rolls_nothing() -> None:
    """TS-2: validation comes before the point is spent and before any die is rolled."""
    shooter = make_warrior("archer", profile=parse_profile("3/3 - 1"))
    target = make_warrior("orc", owner="Blue")
    phase = open_phase()
    dice = ScriptedDice([])
    with pytest.raises(IllegalAction, match="reaches 3 steps"):
        fire_virtual_shot(phase, shooter, target, 5, dice)
    with pytest.raises(IllegalAction, match=r"cannot hurt orc: chance 3, armour -3 = 0"):
        fire_virtual_shot(phase, shooter, replace(target, armour=3), 2, dice)
    assert phase.remaining("Red") == 3
    assert phase.shots == {}
    assert dice.records == []


def test_TS_2_phase_state_round_trips() -> None:
    """TS-2: the phase is plain data."""
    phase = open_phase(bonus_red=4)
    shooter = make_warrior("mg", profile=parse_profile("4/3 - 2"))
    fire_virtual_shot(phase, shooter, make_warrior("orc", owner="Blue"), 2, ScriptedDice([6]))
    data = phase.to_dict()
    again = ShootingPhase.from_dict(data)
    assert again == phase
    assert again.to_dict() == data


# ---------------------------------------------------------------------------
# The whole virtual shot


def test_TS_4_TS_7_virtual_shot_kills_and_reports() -> None:
    """TS-4/TS-7: a shot rolls one d6, applies the result and says what happened."""
    shooter = make_warrior("archer", name="Archer Lev", profile=parse_profile("4/3 - 2"))
    target = make_warrior("orc", owner="Blue", name="Orc Gazh", armour=1)
    phase = open_phase()
    dice = ScriptedDice([(6, 1)])
    shot = fire_virtual_shot(phase, shooter, target, 4, dice)
    assert shot.roll == 1 and shot.result == "killed"
    assert shot.target_after.status == "killed"
    assert shot.account == (
        "Archer Lev at Orc Gazh, 4 steps: chance 3, armour -1 = 2; "
        "d6 1 -> killed (a roll of 1 or less kills)"
    )
    assert dice.records[0].purpose == "Archer Lev fires at Orc Gazh"
    wounded = fire_virtual_shot(phase, shooter, target, 4, ScriptedDice([2]))
    assert wounded.result == "wounded" and wounded.target_after.status == "wounded"
    with pytest.raises(IllegalAction, match="Orc Gazh is killed and not on the board"):
        aim(shooter, shot.target_after, 4)


def test_TS_7_text_split_option_through_the_resolver() -> None:
    """TS-7: the scenario may choose the text's split: C' 3, roll 2 kills."""
    shooter = make_warrior("archer", profile=parse_profile("5/3 - 1"))
    target = make_warrior("orc", owner="Blue")
    shot = fire_virtual_shot(open_phase(), shooter, target, 2, ScriptedDice([2]), split="text")
    assert shot.result == "killed"
    with pytest.raises(ValueError, match="'example' or 'text'"):
        fire_virtual_shot(open_phase(), shooter, target, 2, ScriptedDice([2]), split="half")  # type: ignore[arg-type]


def test_TS_4_own_side_and_blocked_lines_are_refused() -> None:
    """TS-4/TS-3: no fire at one's own side, nor through obstacles direct fire cannot pass."""
    shooter = make_warrior("archer", profile=parse_profile("5/3 - 1"))
    with pytest.raises(IllegalAction, match="own side"):
        aim(shooter, make_warrior("friend"), 2)
    with pytest.raises(IllegalAction, match="only indirect"):
        aim(shooter, make_warrior("orc", owner="Blue"), 2, obstacle_heights=[1])
    mortar = replace(shooter, profile=parse_profile("5/3 - 1 Н"))
    assert aim(mortar, make_warrior("orc", owner="Blue"), 2, obstacle_heights=[2]).chance == 3
    with pytest.raises(IllegalAction, match="up to 2 steps"):
        aim(mortar, make_warrior("orc", owner="Blue"), 2, obstacle_heights=[3])
    with pytest.raises(IllegalAction, match="no shooting profile"):
        aim(make_warrior("cook"), make_warrior("orc", owner="Blue"), 2)


# ---------------------------------------------------------------------------
# TS-13: fire after a manoeuvre


def test_TS_13_fire_after_manoeuvre_forbids_melee_that_turn() -> None:
    """TS-13: by agreement a shooter may fire right after its manoeuvre; no melee then."""
    shooter = make_warrior("archer", profile=parse_profile("5/3 - 1"))
    target = make_warrior("orc", owner="Blue")
    turn = ShooterTurn("archer")
    with pytest.raises(IllegalAction, match="both sides must agree"):
        fire_after_manoeuvre(turn, shooter, target, 2, ScriptedDice([]), option_agreed=False)
    shot = fire_after_manoeuvre(turn, shooter, target, 2, ScriptedDice([5]), option_agreed=True)
    assert shot.result == "miss"
    assert turn.fired_after_manoeuvre
    with pytest.raises(IllegalAction, match="may not declare melee this turn"):
        turn.declare_melee("archer")
    with pytest.raises(IllegalAction, match="already fired all its shots"):
        fire_after_manoeuvre(turn, shooter, target, 2, ScriptedDice([5]), option_agreed=True)
    assert ShooterTurn.from_dict(turn.to_dict()) == turn


def test_TS_13_melee_declared_first_forbids_manoeuvre_fire() -> None:
    """TS-13: a shooter that declared melee may not fire after its manoeuvre."""
    shooter = make_warrior("archer", profile=parse_profile("5/3 - 1"))
    turn = ShooterTurn("archer")
    turn.declare_melee("archer")
    with pytest.raises(IllegalAction, match="declared melee"):
        fire_after_manoeuvre(
            turn,
            shooter,
            make_warrior("orc", owner="Blue"),
            2,
            ScriptedDice([]),
            option_agreed=True,
        )


def test_TS_13_manoeuvre_shots_count_against_the_phase() -> None:
    """TS-13 Decision: shots fired after the manoeuvre are part of the shooter's N a turn."""
    shooter = make_warrior("archer", profile=parse_profile("5/3 - 1"))
    turn = ShooterTurn("archer")
    fire_after_manoeuvre(
        turn, shooter, make_warrior("orc", owner="Blue"), 2, ScriptedDice([6]), option_agreed=True
    )
    roll = roll_shooting_initiative(ScriptedDice([5, 1]), ("Red", "Blue"), (6,))
    phase = ShootingPhase.from_initiative(roll, {turn.shooter_id: turn.manoeuvre_shots})
    phase.choose_order("Red", fire_first=True)
    with pytest.raises(IllegalAction, match="already fired this phase"):
        phase.check_shot("Red", shooter)


# ---------------------------------------------------------------------------
# Serializable state


def test_TS_9_TS_11_guns_and_warriors_are_plain_data() -> None:
    """TS-9/TS-11: guns and warriors round-trip through to_dict/from_dict."""
    gun = replace(disable_gun(make_gun()), ready_turn=4, armour=1)
    assert Gun.from_dict(gun.to_dict()) == gun
    warrior = make_warrior(
        "w", armour=2, profile=parse_profile("5/3 - 1 Н ББ"), qualified=("cannon", "mortar")
    )
    assert Warrior.from_dict(warrior.to_dict()) == warrior
    assert Warrior.from_dict(make_warrior("x").to_dict()).profile is None
    with pytest.raises(ValueError, match="status"):
        Gun.from_dict({**gun.to_dict(), "status": "broken"})


# ---------------------------------------------------------------------------
# Exact odds and Monte Carlo


def test_TS_4_TS_7_single_shot_odds_are_exact() -> None:
    """TS-4/TS-7: one shot at C' 4 kills 2/6 and wounds 2/6; at C' 3 1/6 and 2/6 (example)."""
    assert shot_odds(4) == shot_odds(4, "text")
    assert (shot_odds(4).killed, shot_odds(4).wounded) == (Fraction(1, 3), Fraction(1, 3))
    assert (shot_odds(3).killed, shot_odds(3).wounded) == (Fraction(1, 6), Fraction(1, 3))
    assert (shot_odds(3, "text").killed, shot_odds(3, "text").wounded) == (
        Fraction(1, 3),
        Fraction(1, 6),
    )
    assert shot_odds(0).miss == 1
    assert shot_odds(8).hit == 1 and shot_odds(8).killed == Fraction(2, 3)
    for chance in range(-1, 9):
        for split in ("example", "text"):
            odds = shot_odds(chance, split)
            assert odds.killed + odds.wounded + odds.miss == 1
            # The odds are the resolver's own table counted exactly.
            results = [virtual_hit_result(chance, r, split) for r in range(1, 7)]
            assert odds.killed == Fraction(results.count("killed"), 6)
            assert odds.wounded == Fraction(results.count("wounded"), 6)


def test_TS_2_TS_7_volley_and_one_target_odds_are_exact() -> None:
    """TS-2/TS-7: two shots at C' 2 (example): each kills 1/6, wounds 1/6."""
    dist = volley_odds(2, 2)
    assert sum(dist.values()) == 1
    assert dist[(0, 0)] == Fraction(4, 9)
    assert dist[(1, 1)] == Fraction(2, 36)
    assert dist[(2, 0)] == Fraction(1, 36)
    kills, wounds = expected_kills_and_wounds(2, 2)
    assert (kills, wounds) == (Fraction(1, 3), Fraction(1, 3))
    assert sum(k * p for (k, _), p in dist.items()) == kills
    one = one_target_odds(2, 2)
    assert one.miss == Fraction(4, 9)
    assert one.killed == one.wounded == Fraction(5, 18)
    assert one_target_odds(0, 3).miss == 1
    with pytest.raises(ValueError):
        volley_odds(2, -1)


SPLIT_CASES = [(c, s) for c in (1, 2, 3, 4, 5, 7) for s in ("example", "text")]


def _outcome_table(chance: int, split: str) -> np.ndarray:
    """The resolver's own result for each d6 face (index 0 unused): 0 miss, 1 wound, 2 kill."""
    code = {"miss": 0, "wounded": 1, "killed": 2}
    return np.array([0, *(code[virtual_hit_result(chance, r, split)] for r in range(1, 7))])


@pytest.mark.parametrize(("chance", "split"), SPLIT_CASES)
def test_TS_7_single_shot_odds_agree_with_monte_carlo(chance: int, split: str) -> None:
    """TS-4/TS-7: 200,000 seeded shots through virtual_hit_result agree within 4 SE."""
    rng = Dice(1000 + chance).generator()
    outcome = _outcome_table(chance, split)[batch_roll(rng, SAMPLES, 6)]
    odds = shot_odds(chance, split)  # type: ignore[arg-type]
    assert within_four_se(np.mean(outcome == 2), odds.killed)
    assert within_four_se(np.mean(outcome == 1), odds.wounded)
    assert within_four_se(np.mean(outcome == 0), odds.miss)


@pytest.mark.parametrize(("chance", "shots", "split"), [(2, 2, "example"), (3, 3, "text")])
def test_TS_2_volley_odds_agree_with_monte_carlo(chance: int, shots: int, split: str) -> None:
    """TS-2/TS-7: N shots at N figures and at one figure, 200,000 samples, within 4 SE."""
    rng = Dice(77 + shots).generator()
    outcome = _outcome_table(chance, split)[batch_roll(rng, (SAMPLES, shots), 6)]
    kills = (outcome == 2).sum(axis=1)
    wounds = (outcome == 1).sum(axis=1)
    for (k, w), p in volley_odds(chance, shots, split).items():  # type: ignore[arg-type]
        assert within_four_se(np.mean((kills == k) & (wounds == w)), p), (k, w)
    hit = outcome > 0
    first = np.where(hit.any(axis=1), outcome[np.arange(SAMPLES), hit.argmax(axis=1)], 0)
    one = one_target_odds(chance, shots, split)  # type: ignore[arg-type]
    assert within_four_se(np.mean(first == 2), one.killed)
    assert within_four_se(np.mean(first == 1), one.wounded)
    assert within_four_se(np.mean(first == 0), one.miss)


def test_TS_1_bonus_distribution_agrees_with_monte_carlo() -> None:
    """TS-1: the bonus of (6, 10) over 200,000 seeded rolls agrees within 4 SE."""
    rng = Dice(5).generator()
    sums = batch_roll(rng, SAMPLES, 6).astype(int) + batch_roll(rng, SAMPLES, 10)
    for value, p in shooting_bonus_distribution((6, 10)).items():
        assert within_four_se(np.mean(sums == value), p), value


def test_TS_4_seeded_resolver_runs_are_reproducible() -> None:
    """TS-4: the same seed fires the same shots."""
    shooter = make_warrior("mg", profile=parse_profile("4/4 - 9"))
    target = make_warrior("orc", owner="Blue")

    def run(seed: int) -> list[str]:
        dice = Dice(seed)
        phase = open_phase(bonus_red=9)
        return [fire_virtual_shot(phase, shooter, target, 2, dice).result for _ in range(9)]

    assert run(3) == run(3)
