"""Confidence intervals for the summary: Wilson intervals for win rates, mean ± 95% CI."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054
# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion; (0, 1) when there are no trials."""
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def t95(degrees: int) -> float:
    """Two-sided 95% quantile of Student's t (normal beyond 30 degrees of freedom)."""
    if degrees < 1:
        raise ValueError(f"degrees of freedom must be 1 or more, not {degrees}")
    return _T95[degrees - 1] if degrees <= len(_T95) else Z95


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """(mean, half-width of its 95% confidence interval); half-width 0 for one value."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    m = math.fsum(values) / n
    if n == 1:
        return (m, 0.0)
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    return (m, t95(n - 1) * math.sqrt(var / n))


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    data = sorted(values)
    k = (len(data) - 1) * q / 100.0
    lo = math.floor(k)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (k - lo)
