"""Compilation cost of the two-player kernels: a benchmark helper (it was
``pigtheory.engine.compile_time``; the engine choice does not reach into the solvers)."""

from __future__ import annotations

import time

import numpy as np

from pigtheory.policies import hold_at
from pigtheory.rules import Rules
from pigtheory.simultaneous.core import best_response_two, read_opponents


def compile_time() -> float:
    """Seconds this process spends importing numba and compiling (or loading from numba's disk
    cache) the two-player kernels, by one tiny solve with each; about 0 after the first call."""
    rules = Rules(goal=4)
    t0 = time.perf_counter()
    for opponent in (hold_at(2), np.ones((4, 4), dtype=np.int64)):  # the two kernels
        best_response_two(read_opponents(opponent, rules)[0], rules, engine="numba")
    return time.perf_counter() - t0


if __name__ == "__main__":
    print(compile_time())
