"""Benchmark: the two-player simultaneous solvers of issue 4, against the exact best response.

Prints medians of wall-clock time, in one process, each also as a multiple of
``best_response(hold_at(25))`` at goal 100 (the baseline, measured in the same run):

* ``equilibrium()`` at goals 100 and 200 (one row and one column per state, 2 x 2 games in
  closed form), with the number of LPs, the mixed states and the target of the issue (measured
  on a shared 2-core machine: 0.25 s at goal 100, 1 s at goal 200; the solver they replaced,
  dense stage games and HiGHS LPs, took 0.8-1.9 s with 418 LPs at goal 100 and 6.8-7.8 s with
  934 LPs at goal 200 there);
* ``stackelberg()`` exact at goal 100;
* ``self_play()`` for 200 sweeps (``tol=-1`` turns the early stop off), paper's order.

Goal 1000 and the growth of time with the goal: ``bench_equilibrium_scaling.py``.
"""

from __future__ import annotations

import time

from benchmarks._timing import median_time, timed
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import best_response, equilibrium, self_play, stackelberg

TARGETS = {100: 0.25, 200: 1.0}
"""Seconds the issue asks for, by goal (on the 2-core machine it was written on)."""


def main() -> dict[str, float]:
    rules = Rules()
    t_br = median_time(lambda: best_response(hold_at(25), rules=rules), 11)
    out = {"best_response": t_br}
    print("two-player simultaneous Pig (median wall-clock)")
    print(f"  best_response(hold_at(25)), goal 100   {t_br * 1e3:9.1f} ms   (baseline)")
    for goal, target in TARGETS.items():
        t_eq, eq = timed(lambda goal=goal: equilibrium(rules=Rules(goal=goal)), 5)
        out[f"equilibrium_{goal}"] = t_eq
        print(
            f"  equilibrium(), goal {goal}               {t_eq * 1e3:9.1f} ms   {t_eq / t_br:7.1f} x   "
            f"target {target:.2f} s ({target / t_br:.0f} x)   {eq.n_lp} LPs, {len(eq.mixed_states)} mixed states"
        )
    t_st = median_time(lambda: stackelberg(rules=rules), 3)
    out["stackelberg"] = t_st
    print(f"  stackelberg() exact, goal 100          {t_st * 1e3:9.1f} ms   {t_st / t_br:7.1f} x")
    t0 = time.perf_counter()
    sp = self_play(rules=rules, max_iter=200, tol=-1.0)
    t_sp = time.perf_counter() - t0
    out["self_play_200"] = t_sp
    print(
        f"  self_play() {sp.iterations} sweeps, goal 100      {t_sp * 1e3:9.1f} ms   {t_sp / t_br:7.1f} x   (one run)"
    )
    return out


if __name__ == "__main__":
    main()
