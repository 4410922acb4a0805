"""The shared resolver core: target numbers with a breakdown, and exact dice
distributions checked against brute-force enumeration (design principle 7)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from game.rules.core import (
    Modifier,
    TargetNumber,
    binomial,
    compose_binomial,
    convolve,
    mean,
    pool_distribution,
    probability_at_least,
    sum_distribution,
    total_probability,
    uniform,
    variance,
)


def enumerate_sums(count: int, sides: int) -> dict[int, Fraction]:
    outcomes = Counter(sum(faces) for faces in itertools.product(range(1, sides + 1), repeat=count))
    n = sides**count
    return {v: Fraction(c, n) for v, c in outcomes.items()}


# --- target numbers ----------------------------------------------------------------


def test_target_number_breakdown_reads_like_the_log() -> None:
    """ART-13 style: every modifier named, signed, and the total at the end."""
    tn = TargetNumber("gunnery", 4).plus("indirect", 7).plus("spotter", -1).plus("adjusted", -2)
    assert tn.breakdown() == "gunnery 4, indirect +7, spotter -1, adjusted -2 = 8"
    assert str(tn) == tn.breakdown()
    assert tn.total == 8


def test_zero_modifiers_are_left_out_of_the_breakdown() -> None:
    tn = TargetNumber("gunnery", 4).plus("indirect", 7).plus("spotter", 0).plus("woods", 0)
    assert tn.modifiers == (Modifier("indirect", 7),)
    assert tn.breakdown() == "gunnery 4, indirect +7 = 11"


def test_target_number_without_modifiers() -> None:
    assert TargetNumber("gunnery", 3).breakdown() == "gunnery 3 = 3"


def test_plus_returns_a_new_target_number() -> None:
    base = TargetNumber("gunnery", 4)
    more = base.plus("walked", 1)
    assert base.total == 4 and base.modifiers == ()
    assert more.total == 5


def test_modifier_shows_its_sign() -> None:
    assert str(Modifier("spotter", -1)) == "spotter -1"
    assert str(Modifier("indirect", 7)) == "indirect +7"


def test_target_number_to_dict_is_plain_data() -> None:
    tn = TargetNumber("gunnery", 4).plus("indirect", 7).plus("spotter", -1)
    assert tn.to_dict() == {
        "base_name": "gunnery",
        "base": 4,
        "modifiers": [["indirect", 7], ["spotter", -1]],
        "total": 10,
    }


# --- sums of dice -------------------------------------------------------------------


def test_two_d6_distribution_is_exact() -> None:
    dist = sum_distribution(2, 6)
    assert dist == {
        2: Fraction(1, 36),
        3: Fraction(2, 36),
        4: Fraction(3, 36),
        5: Fraction(4, 36),
        6: Fraction(5, 36),
        7: Fraction(6, 36),
        8: Fraction(5, 36),
        9: Fraction(4, 36),
        10: Fraction(3, 36),
        11: Fraction(2, 36),
        12: Fraction(1, 36),
    }
    assert total_probability(dist.values()) == 1


@pytest.mark.parametrize(("count", "sides"), [(0, 6), (1, 6), (3, 6), (2, 10), (4, 4), (3, 8)])
def test_sum_distribution_matches_enumeration(count: int, sides: int) -> None:
    assert sum_distribution(count, sides) == enumerate_sums(count, sides)


def test_sum_distribution_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="cannot roll -1d6"):
        sum_distribution(-1, 6)
    with pytest.raises(ValueError, match="cannot roll 2d0"):
        sum_distribution(2, 0)


def test_negative_or_fractional_dice_counts_are_refused_everywhere() -> None:
    """A negative pool once looped for ever (its count never shifted down to 0);
    every exact distribution now refuses a count that is not a whole number >= 0."""
    with pytest.raises(ValueError, match="pool is a whole number 0 or more, not -1"):
        pool_distribution(-1, {1: Fraction(1)})
    with pytest.raises(ValueError, match="trials is a whole number 0 or more, not -2"):
        binomial(-2, Fraction(1, 2))
    with pytest.raises(ValueError, match=r"a probability lies in 0\.\.1"):
        binomial(3, Fraction(3, 2))
    with pytest.raises(ValueError, match="cannot roll -1d6"):
        probability_at_least(-1, 6, 3)
    with pytest.raises(ValueError, match=r"cannot roll 2\.0d6"):
        sum_distribution(2.0, 6)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cannot roll 1d0"):
        uniform(0)


def test_sum_distribution_returns_a_copy_callers_may_change() -> None:
    dist = sum_distribution(2, 6)
    dist[7] = Fraction(0)
    assert sum_distribution(2, 6)[7] == Fraction(1, 6)


def test_uniform_and_convolve() -> None:
    assert uniform(4) == dict.fromkeys(range(1, 5), Fraction(1, 4))
    assert convolve(uniform(6), uniform(6)) == sum_distribution(2, 6)


def test_probability_at_least_edges() -> None:
    assert probability_at_least(2, 6, 2) == 1
    assert probability_at_least(2, 6, -5) == 1
    assert probability_at_least(2, 6, 12) == Fraction(1, 36)
    assert probability_at_least(2, 6, 13) == 0
    assert probability_at_least(2, 6, 8) == Fraction(15, 36)
    assert probability_at_least(2, 6, 7) == Fraction(21, 36)
    assert probability_at_least(1, 6, 4) == Fraction(1, 2)
    assert probability_at_least(0, 6, 0) == 1
    assert probability_at_least(0, 6, 1) == 0


@pytest.mark.parametrize("target", range(0, 20))
def test_probability_at_least_matches_enumeration_for_3d6(target: int) -> None:
    faces = list(itertools.product(range(1, 7), repeat=3))
    expected = Fraction(sum(1 for f in faces if sum(f) >= target), len(faces))
    assert probability_at_least(3, 6, target) == expected


# --- pools --------------------------------------------------------------------------


def brute_force_pool(count: int, per_die: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for combo in itertools.product(per_die.items(), repeat=count):
        total = sum(v for v, _ in combo)
        p = Fraction(1)
        for _, pv in combo:
            p *= pv
        out[total] = out.get(total, Fraction(0)) + p
    return out


HITS_ON_D10 = {0: Fraction(7, 10), 1: Fraction(2, 10), 2: Fraction(1, 10)}


@pytest.mark.parametrize("count", [0, 1, 2, 3, 5, 6])
def test_pool_distribution_matches_enumeration(count: int) -> None:
    assert pool_distribution(count, HITS_ON_D10) == brute_force_pool(count, HITS_ON_D10)


def test_pool_of_d6_faces_is_the_sum_of_dice() -> None:
    assert pool_distribution(4, uniform(6)) == sum_distribution(4, 6)


# --- binomials ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "p"), [(0, Fraction(1, 3)), (1, Fraction(1, 2)), (7, Fraction(1, 6))]
)
def test_binomial_sums_to_one_and_matches_enumeration(n: int, p: Fraction) -> None:
    dist = binomial(n, p)
    assert total_probability(dist.values()) == 1
    expected: dict[int, Fraction] = {}
    for trials in itertools.product((True, False), repeat=n):
        k = sum(trials)
        prob = Fraction(1)
        for t in trials:
            prob *= p if t else 1 - p
        expected[k] = expected.get(k, Fraction(0)) + prob
    assert dist == expected
    assert mean(dist) == n * p
    assert variance(dist) == n * p * (1 - p)


def test_binomial_with_certain_trials() -> None:
    assert binomial(3, Fraction(1)) == {0: 0, 1: 0, 2: 0, 3: 1}
    assert binomial(3, Fraction(0))[0] == 1


def test_compose_binomial_matches_enumeration() -> None:
    """A d3 number of trials, each succeeding on 1 in 3 (e.g. hits, then saves)."""
    counts = {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    p = Fraction(1, 3)
    dist = compose_binomial(counts, p)
    assert total_probability(dist.values()) == 1
    expected: dict[int, Fraction] = {}
    for n, pn in counts.items():
        for trials in itertools.product((True, False), repeat=n):
            prob = pn
            for t in trials:
                prob *= p if t else 1 - p
            expected[sum(trials)] = expected.get(sum(trials), Fraction(0)) + prob
    assert dist == expected
    # Mean of a compound binomial: E[N] * p.
    assert mean(dist) == mean(counts) * p


def test_compose_binomial_of_a_pool_sums_to_one() -> None:
    hits = pool_distribution(5, HITS_ON_D10)
    saved = compose_binomial(hits, Fraction(2, 3))
    assert total_probability(saved.values()) == 1
    assert mean(saved) == mean(hits) * Fraction(2, 3)


def test_mean_and_variance_of_two_d6() -> None:
    dist = sum_distribution(2, 6)
    assert mean(dist) == 7
    assert variance(dist) == Fraction(35, 6)


def test_compose_binomial_is_the_sum_of_its_binomials_term_by_term() -> None:
    """BS-3's standing hits: the whole-number working gives exactly the sum, outcome
    by outcome, of each trial count's binomial weighted by that count's chance."""

    rng = random.Random(11)
    for _ in range(200):
        ns = rng.sample(range(0, 30), rng.randint(1, 8))
        weights = [rng.randint(1, 40) for _ in ns]
        scale = sum(weights) * rng.choice((1, 6, 10))
        counts = {n: Fraction(w, scale) for n, w in zip(ns, weights, strict=True)}
        p = Fraction(rng.randint(0, 10), 10)
        expected: dict[int, Fraction] = {}
        for n, pn in counts.items():
            for k, pk in binomial(n, p).items():
                expected[k] = expected.get(k, Fraction(0)) + pn * pk
        got = compose_binomial(counts, p)
        assert got == expected and list(got) == list(expected)
