"""Timing helper shared by the benchmarks: the median of repeated wall-clock (or CPU) runs."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np


def timed(
    fn: Callable[[], Any],
    repeat: int,
    clock: Callable[[], float] = time.perf_counter,
    warmup: bool = True,
) -> tuple[float, Any]:
    """``(median seconds, last result)`` of ``repeat`` calls; ``warmup`` makes one untimed call
    first (turn-total tables, batch geometry and numba caches)."""
    if warmup:
        fn()
    times, out = [], None
    for _ in range(repeat):
        t0 = clock()
        out = fn()
        times.append(clock() - t0)
    return float(np.median(times)), out


def median_time(fn: Callable[[], Any], repeat: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """Median seconds of ``repeat`` calls after one warm-up call."""
    return timed(fn, repeat, clock)[0]
