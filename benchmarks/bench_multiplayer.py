"""Benchmark: n-player exact best response, the 3-player grid, and the n-player limit.

Prints medians of wall-clock time (and CPU time, which a busy shared machine inflates less),
in one process:

* one 3-player best response at goal 100 (identical opponents, symmetric states; different
  opponents, full states), against the two-player best response at goal 100 as the baseline:
  the ratio of times beside the ratio of states (the paper's O(100^n));
* the 11 x 11 grid of Fig. 6 (66 solves on 2 processes, not cached);
* 4 players with identical opponents at goal 100: time, peak traced memory, states;
* ``limit(n_max=1000)``.

``python benchmarks/bench_multiplayer.py --quick`` skips the grid and the 4-player solve.
"""

from __future__ import annotations

import resource
import sys
import time
import tracemalloc

from benchmarks._timing import median_time
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import best_response, limit, reduced_best_response
from pigtheory.simultaneous.grid import hold_at_grid


def children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def main(quick: bool = False) -> dict[str, float]:
    out: dict[str, float] = {}
    r2, r3 = Rules(), Rules(players=3)
    t2 = median_time(lambda: best_response(hold_at(25), rules=r2), 5)
    t2_path = median_time(lambda: reduced_best_response([hold_at(25)], rules=r2), 5)
    t3_sym = median_time(lambda: reduced_best_response([hold_at(25)] * 2, rules=r3), 3)
    t3_full = median_time(lambda: reduced_best_response([hold_at(20), hold_at(30)], rules=r3), 3)
    t3_api = median_time(lambda: best_response([hold_at(25)] * 2, rules=r3), 3)
    c3_sym = median_time(lambda: reduced_best_response([hold_at(25)] * 2, rules=r3), 3, time.process_time)
    c3_full = median_time(
        lambda: reduced_best_response([hold_at(20), hold_at(30)], rules=r3), 3, time.process_time
    )
    s2 = reduced_best_response([hold_at(25)], rules=r2).n_states
    s3_sym = reduced_best_response([hold_at(25)] * 2, rules=r3).n_states
    s3_full = reduced_best_response([hold_at(20), hold_at(30)], rules=r3).n_states
    print("best response at goal 100 (median wall-clock)")
    print(f"  2 players, best_response (baseline)        {t2 * 1e3:9.1f} ms   {s2:>10,} states")
    print(f"  2 players, n-player path                   {t2_path * 1e3:9.1f} ms   {s2:>10,} states")
    print(
        f"  3 players, hold at 25 x 2 (symmetric)      {t3_sym * 1e3:9.1f} ms   {s3_sym:>10,} states, CPU {c3_sym * 1e3:.0f} ms"
    )
    print(f"  3 players, same via best_response (full)   {t3_api * 1e3:9.1f} ms   (expands the value array)")
    print(
        f"  3 players, hold at 20 and 30 (full)        {t3_full * 1e3:9.1f} ms   {s3_full:>10,} states, CPU {c3_full * 1e3:.0f} ms"
    )
    print(f"  ratio 3 / 2 players, time (full)           {t3_full / t2:9.1f} x   states x{s3_full / s2:.0f}")
    print(f"  ratio 3 / 2 players, time (symmetric)      {t3_sym / t2:9.1f} x   states x{s3_sym / s2:.0f}")
    out.update(t2_ms=t2 * 1e3, t3_sym_ms=t3_sym * 1e3, t3_full_ms=t3_full * 1e3, ratio_full=t3_full / t2)
    t_lim = median_time(lambda: limit(n_max=1000), 5)
    print(
        f"limit(n_max=1000)                            {t_lim * 1e3:9.1f} ms   smallest n = {limit(n_max=1000).smallest_n}"
    )
    out["limit_ms"] = t_lim * 1e3
    if quick:
        return out
    t0, c0 = time.perf_counter(), children_cpu()
    grid = hold_at_grid(workers=2, progress=False)
    t_grid, c_grid = time.perf_counter() - t0, children_cpu() - c0
    print(
        f"3-player grid 11 x 11 (66 solves, 2 procs)   {t_grid:9.1f} s    CPU {c_grid:.0f} s, best pair {grid.best_pair}"
    )
    tracemalloc.start()
    t0, c0 = time.perf_counter(), time.process_time()
    sol = reduced_best_response([hold_at(25)] * 3, rules=Rules(players=4))
    t4, c4 = time.perf_counter() - t0, time.process_time() - c0
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    print(
        f"4 players, hold at 25 x 3 (symmetric)       {t4:9.1f} s    CPU {c4:.0f} s, {sol.n_states:,} states "
        f"(full: {100**4:,}), peak {peak:.0f} MB, value {sol.at(0, 0, 0, 0):.6f}"
    )
    out.update(grid_s=t_grid, t4_s=t4, t4_peak_mb=peak)
    return out


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
