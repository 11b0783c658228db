"""Benchmark: exact best response to "hold at 25" against value iteration (Algorithm 0.1).

Prints medians of wall-clock time, in one process:

* goal 100: the exact solver, the paper's value iteration (the baseline) and their ratio; also
  the generic level-by-level solver (the n-player path) as a second baseline, and both engines
  of the two-player solver (numpy, and numba when installed: ``pip install pigtheory[fast]``);
* the exact solver at goals 100, 200 and 400 and the growth exponent of time in the goal
  (least-squares slope of log time against log goal).
"""

from __future__ import annotations

import numpy as np

from benchmarks._timing import median_time
from pigtheory import Rules, as_mixture, hold_at
from pigtheory.simultaneous import best_response
from pigtheory.simultaneous.best_response import best_response_levels
from pigtheory.simultaneous.core import best_response_two, read_opponents


def main() -> dict[str, float]:
    rules = Rules()
    opp = hold_at(25)
    t_exact = median_time(lambda: best_response(opp, rules=rules), 21)
    t_vi = median_time(lambda: best_response(opp, rules=rules, method="value_iteration", progress=False), 3)
    generic = read_opponents(opp, rules)
    t_generic = median_time(lambda: best_response_levels(generic, rules), 3)
    sweeps = best_response(opp, rules=rules, method="value_iteration", progress=False).iterations
    mix = as_mixture(opp, rules)
    engines = ["numpy", "numba"]
    t_engine = {e: median_time(lambda e=e: best_response_two(mix, rules, engine=e), 21) for e in engines}
    print("best response to hold at 25, goal 100 (median wall-clock)")
    print(f"  exact (default engine: {engines[-1]:5s})   {t_exact * 1e3:9.2f} ms")
    for e, t in t_engine.items():
        print(f"  exact, {e} engine               {t * 1e3:9.2f} ms")
    print(f"  value iteration (Alg. 0.1)      {t_vi * 1e3:9.2f} ms   ({sweeps} sweeps, tol 1e-12)")
    print(f"  exact, generic level-by-level   {t_generic * 1e3:9.2f} ms")
    print(f"  ratio value iteration / exact   {t_vi / t_exact:9.1f} x")
    for e, t in t_engine.items():
        print(f"  ratio value iteration / {e:5s}   {t_vi / t:9.1f} x")
    print(f"  ratio generic / exact           {t_generic / t_exact:9.1f} x")
    goals = (100, 200, 400)
    times = [
        median_time(lambda g=g: best_response(opp, rules=Rules(goal=g)), r)
        for g, r in zip(goals, (21, 7, 3), strict=True)
    ]
    slope = float(np.polyfit(np.log(goals), np.log(times), 1)[0])
    print(f"exact solver ({engines[-1]} engine) against hold at 25 by goal (median wall-clock)")
    for g, t in zip(goals, times, strict=True):
        print(f"  goal {g:4d}                       {t * 1e3:9.2f} ms")
    print(f"  growth exponent (time ~ goal^p)  p = {slope:.2f}")
    return {"exact_ms": t_exact * 1e3, "vi_ms": t_vi * 1e3, "ratio": t_vi / t_exact, "exponent": slope}


if __name__ == "__main__":
    main()
