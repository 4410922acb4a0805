"""Timing helpers shared by the benchmark scripts."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(fn: Callable[[], object], repeat: int = 20, number: int = 1) -> float:
    """Median wall time of ``number`` calls of fn, over ``repeat`` runs, per call."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"
