"""Benchmark: n-player exact best response (both engines), the 3-player grid, the n-player limit.

Prints medians of wall-clock time (and CPU time, which a busy shared machine inflates less):

* the compiled kernel's first call: a cold compile (an empty numba cache) and a load from the
  cache, each in a fresh process;
* 3 players at goal 100 against "hold at 25" twice (symmetric states) and "hold at 20 and 30"
  (full states): the compiled engine against the numpy engine (the baseline), in this process,
  as a ratio; beside them the two-player best response at goal 100 and the ratio of states (the
  paper's O(100^n));
* 4 players at goal 100 against "hold at 25" three times: each engine's peak resident memory
  in a child process (the child's own high-water mark, before and after the solve), then both
  engines' times in this process (ratio);
* the 11 x 11 grid of Fig. 6 (66 solves on 2 processes, not cached) and ``limit(n_max=1000)``.

``python benchmarks/bench_multiplayer.py --quick`` skips the grid and the 4-player numpy runs.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks._timing import median_time
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import best_response, limit, reduced_best_response
from pigtheory.simultaneous.sweeps.grid import hold_at_grid

ROOT = Path(__file__).resolve().parent.parent

_FIRST_CALL = """
import time
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import reduced_best_response
t0 = time.perf_counter()
reduced_best_response([hold_at(3)] * 2, rules=Rules(goal=6, players=3), engine="numba")
print(time.perf_counter() - t0)
"""

_PEAK = """
import json, resource, sys, time
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import reduced_best_response

def peak_mb():
    # VmHWM restarts at exec; ru_maxrss keeps the high-water mark of the process that forked us.
    try:
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

players, goal, engine = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
opps = [hold_at(25)] * (players - 1)
reduced_best_response([hold_at(3)] * (players - 1), rules=Rules(goal=6, players=players), engine=engine)
base = peak_mb()
t0, c0 = time.perf_counter(), time.process_time()
sol = reduced_best_response(opps, rules=Rules(goal=goal, players=players), engine=engine)
seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
peak = peak_mb()
print(json.dumps({"seconds": seconds, "cpu": cpu, "base_mb": base, "peak_mb": peak,
                  "value": sol.at(0, *([0] * (players - 1)))}))
"""


def _child(code: str, *args: str, env: dict[str, str] | None = None) -> str:
    """Run ``code`` in a fresh interpreter (the repository on its path); its stdout."""
    full = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True, env=full, cwd=ROOT
    )
    return out.stdout.strip()


def first_call_seconds() -> tuple[float, float]:
    """``(compile, load)``: the first compiled solve in a process, with an empty numba cache
    and then with the cache that the first run wrote (numba's import included in both)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {"NUMBA_CACHE_DIR": cache}
        cold = float(_child(_FIRST_CALL, env=env))
        warm = float(_child(_FIRST_CALL, env=env))
    return cold, warm


def peak_memory(players: int, goal: int, engine: str) -> dict[str, float]:
    """One solve against ``players - 1`` "hold at 25" in a child: time, and peak resident
    memory before (``base_mb``: interpreter, libraries, compiled kernels) and after it."""
    return json.loads(_child(_PEAK, str(players), str(goal), engine))


def wall_and_cpu(fn: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """Medians of wall-clock and CPU seconds of ``repeat`` calls after one warm-up call, and
    the last result."""
    fn()
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return float(np.median(walls)), float(np.median(cpus)), out


def children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def main(quick: bool = False) -> dict[str, float]:
    out: dict[str, float] = {}
    cold, warm = first_call_seconds()
    print(f"compiled n-player kernel, first call: compile {cold:.2f} s, load from cache {warm:.2f} s")
    out.update(compile_s=cold, load_s=warm)
    # Children first, while this process is small (a child forked from a large parent would
    # otherwise start from the parent's size on some systems).
    engines = ("numba",) if quick else ("numba", "numpy")
    for engine in engines:
        mem = peak_memory(4, 100, engine)
        print(
            f"4 players, {engine:5s} in a child: peak {mem['peak_mb']:.0f} MB, {mem['peak_mb'] - mem['base_mb']:.0f} MB "
            f"over the {mem['base_mb']:.0f} MB before the solve; {mem['seconds']:.2f} s"
        )
        out[f"peak4_{engine}_mb"] = mem["peak_mb"]
        out[f"solve4_{engine}_mb"] = mem["peak_mb"] - mem["base_mb"]

    r2, r3 = Rules(), Rules(players=3)
    sym3, full3 = [hold_at(25)] * 2, [hold_at(20), hold_at(30)]
    t2 = median_time(lambda: best_response(hold_at(25), rules=r2), 5)
    s2 = reduced_best_response([hold_at(25)], rules=r2).n_states
    print("best response at goal 100 (median wall-clock; CPU in brackets)")
    print(f"  2 players, best_response (reference)       {t2 * 1e3:9.1f} ms   {s2:>10,} states")
    for name, opps in (("hold at 25 x 2 (symmetric)", sym3), ("hold at 20 and 30 (full)", full3)):
        times = {}
        for engine in ("numpy", "numba"):
            t, c, sol = wall_and_cpu(lambda e=engine, o=opps: reduced_best_response(o, rules=r3, engine=e), 5)
            times[engine] = t
            print(
                f"  3 players, {name:27s} {engine:5s} {t * 1e3:7.1f} ms ({c * 1e3:.0f})  "
                f"{sol.n_states:>10,} states, value {sol.at(0, 0, 0):.6f}"
            )
        ratio = times["numba"] / times["numpy"]
        print(
            f"  3 players, {name:27s} numba / numpy {ratio:.3f}   3 / 2 players (numba) {times['numba'] / t2:.1f} x"
        )
        out[f"t3_{'sym' if opps is sym3 else 'full'}_ms"] = times["numba"] * 1e3
        out[f"ratio3_{'sym' if opps is sym3 else 'full'}"] = ratio
    t3_api = median_time(lambda: best_response(sym3, rules=r3), 3)
    print(
        f"  3 players, same via best_response          {t3_api * 1e3:9.1f} ms   (auto engine, expands the value array)"
    )
    out.update(t2_ms=t2 * 1e3)

    r4, opps4 = Rules(players=4), [hold_at(25)] * 3
    t4, c4, sol4 = wall_and_cpu(lambda: reduced_best_response(opps4, rules=r4, engine="numba"), 3)
    print(
        f"4 players, hold at 25 x 3 (symmetric), numba  {t4:7.2f} s ({c4:.2f})  {sol4.n_states:,} states "
        f"(full: {100**4:,}), value {sol4.at(0, 0, 0, 0):.6f}"
    )
    out.update(t4_s=t4)
    del sol4
    if not quick:
        t0, c0 = time.perf_counter(), time.process_time()
        reduced_best_response(opps4, rules=r4, engine="numpy")
        t4_np, c4_np = time.perf_counter() - t0, time.process_time() - c0
        print(f"4 players, hold at 25 x 3 (symmetric), numpy  {t4_np:7.2f} s ({c4_np:.2f})  one run")
        print(f"4 players, numba / numpy                      {t4 / t4_np:7.3f}")
        out.update(t4_numpy_s=t4_np, ratio4=t4 / t4_np)
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
    out.update(grid_s=t_grid)
    return out


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
