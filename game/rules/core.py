"""Shared pieces of every resolver: target numbers with a readable breakdown,
and exact probability distributions of dice (design principle 7).

Exact means ``fractions.Fraction`` all the way; callers turn the final figure
into a float for display. Distributions are dicts ``value -> probability``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import comb, lcm
from typing import TypeVar

from game.dice import is_whole

Distribution = dict[int, Fraction]


@dataclass(frozen=True)
class Modifier:
    """A named part of a target number, e.g. ``Modifier("spotter", -1)``."""

    name: str
    value: int

    def __str__(self) -> str:
        return f"{self.name} {self.value:+d}"


@dataclass(frozen=True)
class TargetNumber:
    """A base value plus named modifiers; ``total`` is what the dice must meet.

    ``str()`` gives the breakdown players read, e.g.
    ``"gunnery 4, indirect +7, spotter -1, adjusted -2 = 8"``.
    """

    base_name: str
    base: int
    modifiers: tuple[Modifier, ...] = field(default_factory=tuple)

    @property
    def total(self) -> int:
        return self.base + sum(m.value for m in self.modifiers)

    def plus(self, name: str, value: int) -> TargetNumber:
        """This target number with one more modifier (zero modifiers are kept out)."""
        if value == 0:
            return self
        return TargetNumber(self.base_name, self.base, (*self.modifiers, Modifier(name, value)))

    def breakdown(self) -> str:
        parts = [f"{self.base_name} {self.base}", *(str(m) for m in self.modifiers)]
        return f"{', '.join(parts)} = {self.total}"

    def __str__(self) -> str:
        return self.breakdown()

    def to_dict(self) -> dict[str, object]:
        return {
            "base_name": self.base_name,
            "base": self.base,
            "modifiers": [[m.name, m.value] for m in self.modifiers],
            "total": self.total,
        }


def _check_count(count: int, what: str) -> int:
    if not is_whole(count) or count < 0:
        raise ValueError(f"{what} is a whole number 0 or more, not {count!r}")
    return int(count)


def _check_dice(count: int, sides: int) -> None:
    if not (is_whole(count) and is_whole(sides)) or count < 0 or sides < 1:
        raise ValueError(f"cannot roll {count}d{sides}")


def uniform(sides: int) -> Distribution:
    """One die with ``sides`` faces."""
    _check_dice(1, sides)
    p = Fraction(1, sides)
    return dict.fromkeys(range(1, sides + 1), p)


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Distribution:
    """Distribution of the sum of two independent variables."""
    out: Distribution = {}
    for va, pa in a.items():
        for vb, pb in b.items():
            out[va + vb] = out.get(va + vb, Fraction(0)) + pa * pb
    return out


@cache
def _sum_distribution(count: int, sides: int) -> tuple[tuple[int, Fraction], ...]:
    dist: Distribution = {0: Fraction(1)}
    die = uniform(sides)
    for _ in range(count):
        dist = convolve(dist, die)
    return tuple(sorted(dist.items()))


def sum_distribution(count: int, sides: int) -> Distribution:
    """Exact distribution of the sum of ``count`` dice with ``sides`` sides."""
    _check_dice(count, sides)
    return dict(_sum_distribution(count, sides))


def probability_at_least(count: int, sides: int, target: int) -> Fraction:
    """P(sum of count d<sides> >= target), exactly."""
    _check_dice(count, sides)
    return sum((p for v, p in _sum_distribution(count, sides) if v >= target), Fraction(0))


def pool_distribution(count: int, per_die: Mapping[int, Fraction]) -> Distribution:
    """Distribution of the total over ``count`` independent dice, each scoring
    by ``per_die`` (e.g. hits per attack die); exact, by repeated squaring."""
    # A negative count would never reach 0 by shifting: refuse it.
    n = _check_count(count, "the number of dice in a pool")
    return power(dict(per_die), n, convolve, {0: Fraction(1)})


Summed = TypeVar("Summed")


def power(base: Summed, n: int, product: Callable[[Summed, Summed], Summed], one: Summed) -> Summed:
    """The sum of ``n`` independent draws of ``base`` (``product`` sums two; ``one`` is
    the sum of none), by repeated squaring: about log2(n) products, not n."""
    result = one
    while n:
        if n & 1:
            result = product(result, base)
        n >>= 1
        if n:
            base = product(base, base)
    return result


def binomial(n: int, p: Fraction) -> Distribution:
    """Number of successes in n independent trials of probability p, exactly."""
    _check_count(n, "the number of trials")
    if not 0 <= p <= 1:
        raise ValueError(f"a probability lies in 0..1, not {p}")
    q = 1 - p
    return {k: comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)}


def compose_binomial(counts: Mapping[int, Fraction], p: Fraction) -> Distribution:
    """Each of a random number of trials (``counts``) succeeds with probability p:
    the distribution of successes (e.g. hits surviving armour checks).

    Worked in whole numbers over one common denominator and made into fractions
    once per outcome: the same exact answer as summing fractions term by term,
    without reducing every partial sum (the AI asks for many of these)."""
    if not 0 <= p <= 1:
        raise ValueError(f"a probability lies in 0..1, not {p}")
    if not counts:
        return {}
    p = Fraction(p)
    a, c = p.numerator, p.denominator
    b = c - a
    top = max(_check_count(n, "the number of trials") for n in counts)
    den = lcm(*(Fraction(pn).denominator for pn in counts.values()))
    totals = [0] * (top + 1)
    for n, pn in counts.items():
        pn = Fraction(pn)
        # pn * C(n, k) p^k q^(n-k) over the denominator den * c^top.
        scale = pn.numerator * (den // pn.denominator) * c ** (top - n)
        for k in range(n + 1):
            totals[k] += scale * comb(n, k) * a**k * b ** (n - k)
    whole = den * c**top
    return {k: Fraction(t, whole) for k, t in enumerate(totals)}


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((v * p for v, p in dist.items()), Fraction(0))


def variance(dist: Mapping[int, Fraction]) -> Fraction:
    m = mean(dist)
    return sum(((v - m) ** 2 * p for v, p in dist.items()), Fraction(0))


def total_probability(parts: Iterable[Fraction]) -> Fraction:
    return sum(parts, Fraction(0))


def percent(p: float | Fraction) -> str:
    """A probability as players read it: 58%, <1%, 100%."""
    value = float(p) * 100
    if 0 < value < 1:
        return "<1%"
    if 99 < value < 100:
        return ">99%"
    return f"{value:.0f}%"
