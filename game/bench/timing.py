"""Timing helpers shared by the benchmark scripts."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(
    fn: Callable[[], object],
    repeat: int = 20,
    number: int = 1,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Median wall time of ``number`` calls of fn, over ``repeat`` runs, per call
    (``clock=time.process_time``: this process's CPU time, what a machine shared
    with other work still measures fairly)."""
    times = []
    for _ in range(repeat):
        start = clock()
        for _ in range(number):
            fn()
        times.append((clock() - start) / number)
    return statistics.median(times)


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"
