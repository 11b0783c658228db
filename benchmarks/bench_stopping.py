"""Benchmark: strategies beyond thresholds (stopping rules), against the threshold solvers.

Prints, in one process, at goal 100 (medians of wall-clock time):

* the best response to hold at 25 over every stopping rule against the threshold best
  response (target: at most 3x the threshold best response in the same run), both with the
  default engine and with numba forced;
* the equilibrium over every stopping rule, including the class of every state, against the
  threshold equilibrium (target: at most 5 s), with its LP count.
"""

from __future__ import annotations

from benchmarks._timing import median_time
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import best_response, equilibrium, stopping_equilibrium


def main() -> dict[str, float]:
    rules = Rules()
    opp = hold_at(25)
    stopping_equilibrium(rules=Rules(goal=30), engine="numba")  # load the compiled kernels
    t_thr = median_time(lambda: best_response(opp, rules=rules), 11)
    t_thr_nb = median_time(lambda: best_response(opp, rules=rules, engine="numba"), 11)
    t_stop = median_time(lambda: best_response(opp, rules=rules, strategies="stopping"), 11)
    t_eq = median_time(lambda: equilibrium(rules=rules), 5)
    t_seq = median_time(lambda: stopping_equilibrium(rules=rules), 3)
    eq = stopping_equilibrium(rules=rules)
    print("stopping rules, goal 100 (median wall-clock, one process)")
    print(f"  threshold best response (default engine)   {t_thr * 1e3:8.1f} ms   (baseline)")
    print(f"  threshold best response (numba)            {t_thr_nb * 1e3:8.1f} ms")
    print(
        f"  stopping-rule best response                {t_stop * 1e3:8.1f} ms   "
        f"{t_stop / t_thr:5.1f} x the baseline (target <= 3 x); {t_stop / t_thr_nb:5.1f} x numba thresholds"
    )
    print(f"  threshold equilibrium                      {t_eq * 1e3:8.1f} ms")
    print(
        f"  stopping-rule equilibrium, classified      {t_seq * 1e3:8.1f} ms   "
        f"{t_seq / t_eq:5.0f} x the threshold equilibrium (target <= 5 s); {eq.n_lp} LPs"
    )
    for name, count in eq.counts().items():
        print(f"    {name:45s} {count:6d}")
    return {"stopping_br_ratio": t_stop / t_thr, "stopping_equilibrium_s": t_seq}


if __name__ == "__main__":
    main()
