"""Benchmark: the two-player simultaneous solvers of issue 4, against the exact best response.

Prints medians of wall-clock time at goal 100, in one process, each also as a multiple of
``best_response(hold_at(25))`` (the baseline, measured in the same run):

* ``equilibrium()`` (pure saddle checks, one LP per mixed state), with the number of LPs;
* ``stackelberg()`` exact;
* ``self_play()`` for 200 sweeps (``tol=-1`` turns the early stop off), paper's order.
"""

from __future__ import annotations

import time

from benchmarks._timing import median_time
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import best_response, equilibrium, self_play, stackelberg


def main() -> dict[str, float]:
    rules = Rules()
    t_br = median_time(lambda: best_response(hold_at(25), rules=rules), 11)
    t_eq = median_time(lambda: equilibrium(rules=rules), 3)
    eq = equilibrium(rules=rules)
    t_st = median_time(lambda: stackelberg(rules=rules), 3)
    t0 = time.perf_counter()
    sp = self_play(rules=rules, max_iter=200, tol=-1.0)
    t_sp = time.perf_counter() - t0
    print("two-player simultaneous Pig, goal 100 (median wall-clock)")
    print(f"  best_response(hold_at(25))   {t_br * 1e3:9.1f} ms   (baseline)")
    print(
        f"  equilibrium()                {t_eq * 1e3:9.1f} ms   {t_eq / t_br:7.1f} x   "
        f"({eq.n_lp} LPs, {len(eq.mixed_states)} mixed states)"
    )
    print(f"  stackelberg() exact          {t_st * 1e3:9.1f} ms   {t_st / t_br:7.1f} x")
    print(
        f"  self_play() {sp.iterations} sweeps        {t_sp * 1e3:9.1f} ms   {t_sp / t_br:7.1f} x   (one run)"
    )
    return {"best_response": t_br, "equilibrium": t_eq, "stackelberg": t_st, "self_play_200": t_sp}


if __name__ == "__main__":
    main()
