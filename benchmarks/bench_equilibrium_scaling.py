"""Benchmark: the exact equilibrium from goal 100 to goal 1000 (time, memory, growth).

Prints, for ``equilibrium()`` at goals 100, 200 and 400 (``--full``: also 700 and 1000), the wall-clock time of
one solve (after a warm-up that loads the compiled kernels; goal 100 as a median of 5), also
as a multiple of ``best_response(hold_at(25))`` at goal 100 measured in the same run; the
growth exponent p of time ~ goal^p (least-squares slope of log time against log goal, and the
slope between the two largest goals, where fixed costs matter least); and
the peak memory of the largest goal's solve, measured in a child process: tracemalloc's peak
(the arrays and objects the solve allocates) and the child's peak resident set size before
and after the solve (``ru_maxrss``: the whole process, interpreter and libraries included).
The work is O(w goal^3) (one row and one column of a stage game per state and round, each
O(w goal), w the largest roll), the memory O(goal^2).
"""

from __future__ import annotations

import multiprocessing
import resource
import sys
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from benchmarks._timing import median_time
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import best_response, equilibrium

GOALS = (100, 200, 400, 700, 1000)
QUICK_GOALS = (100, 200, 400)  # the default; --full: GOALS


def _max_rss_mb() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 2**20 if sys.platform == "darwin" else rss / 2**10  # bytes on macOS, KiB elsewhere


def peak_memory(goal: int) -> dict[str, float]:
    """Run in a fresh process: the equilibrium at ``goal`` under tracemalloc."""
    equilibrium(rules=Rules(goal=60))  # load the kernels and the tables first
    before = _max_rss_mb()
    tracemalloc.start()
    t0 = time.perf_counter()
    eq = equilibrium(rules=Rules(goal=goal))
    seconds = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "seconds_traced": seconds,
        "tracemalloc_peak_mb": peak / 2**20,
        "rss_before_mb": before,
        "rss_after_mb": _max_rss_mb(),
        "mixed_states": len(eq.mixed_states),
        "n_lp": eq.n_lp,
        "residual": eq.residual,
    }


def main(argv: list[str] | None = None) -> dict[str, float]:
    goals = GOALS if "--full" in (sys.argv[1:] if argv is None else argv) else QUICK_GOALS
    t_br = median_time(lambda: best_response(hold_at(25), rules=Rules()), 11)
    equilibrium(rules=Rules(goal=60))
    times = []
    print("equilibrium() by goal (wall-clock; goal 100 a median of 5, the others one run)")
    print(f"  best_response(hold_at(25)), goal 100  {t_br * 1e3:10.1f} ms   (baseline)")
    for goal in goals:
        if goal == 100:
            t = median_time(lambda: equilibrium(rules=Rules(goal=100)), 5)
        else:
            t0 = time.perf_counter()
            equilibrium(rules=Rules(goal=goal))
            t = time.perf_counter() - t0
        times.append(t)
        print(f"  goal {goal:4d}                            {t:10.2f} s    {t / t_br:9.0f} x")
    slope = float(np.polyfit(np.log(goals), np.log(times), 1)[0])
    top = float(np.log(times[-1] / times[-2]) / np.log(goals[-1] / goals[-2]))
    print(f"  growth exponent (time ~ goal^p, goals {goals[0]}..{goals[-1]})  p = {slope:.2f}")
    print(f"  local exponent, goals {goals[-2]}..{goals[-1]}                p = {top:.2f}")
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        mem = pool.submit(peak_memory, goals[-1]).result()
    print(f"goal {goals[-1]} in a child process")
    print(f"  tracemalloc peak of the solve         {mem['tracemalloc_peak_mb']:10.1f} MB")
    print(
        f"  peak RSS before / after the solve     {mem['rss_before_mb']:10.1f} / {mem['rss_after_mb']:.1f} MB"
    )
    print(
        f"  time under tracemalloc                {mem['seconds_traced']:10.2f} s    "
        f"({mem['mixed_states']} mixed states, {mem['n_lp']} LPs, residual {mem['residual']:.1e})"
    )
    return {
        "best_response": t_br,
        "exponent": slope,
        "exponent_top": top,
        **{f"goal_{g}": t for g, t in zip(goals, times, strict=True)},
        **mem,
    }


if __name__ == "__main__":
    main(sys.argv[1:])
