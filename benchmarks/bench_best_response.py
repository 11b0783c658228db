"""Benchmark: the exact best response to "hold at 25" against value iteration (Algorithm 0.1).

Prints, in one process (medians of wall-clock time):

* goal 100: the exact solver with each engine (numpy, numba, auto) against the paper's value
  iteration, both as it ran before the core (the fixed yardstick of ``benchmarks/_baseline.py``)
  and as the library runs it now; the generic level-by-level loop over the core;
* what numba costs a new process: importing it and loading the kernels, from a cold and from
  a warm on-disk cache;
* a one-off command line call (``pigtheory best-response --opponent hold-at-25``), ``pigtheory
  --help`` and ``import pigtheory``, each in fresh processes;
* goals 100 .. 400 (``--full``: .. 1000): time and peak memory (each goal in its own child
  process) and the growth exponent of time in the goal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks._baseline import value_iteration_hold_at
from benchmarks._timing import median_time
from pigtheory import Rules, as_mixture, hold_at
from pigtheory.engine import choose_engine
from pigtheory.simultaneous import best_response
from pigtheory.simultaneous.best_response import best_response_levels
from pigtheory.simultaneous.core import best_response_two, read_opponents

ROOT = Path(__file__).resolve().parent.parent
PIGTHEORY = Path(sys.executable).with_name("pigtheory")

_CHILD = """
import json, resource, sys, time
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import best_response
g = int(sys.argv[1])
for engine in ("numpy", "numba"):  # tables and compiled kernels loaded before the clock starts
    best_response(hold_at(25), rules=Rules(goal=20), engine=engine)
t0 = time.perf_counter()
sol = best_response(hold_at(25), rules=Rules(goal=g))
dt = time.perf_counter() - t0
print(json.dumps({"seconds": dt, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "value": float(sol.value[0, 0])}))
"""


def _fresh(args: list[str], repeat: int, env: dict | None = None) -> float:
    """Median wall-clock seconds of running ``args`` in a new process."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True, env=env, cwd=ROOT)
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def _load_time(cache: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    script = str(Path(__file__).resolve().parent / "_compile.py")
    out = subprocess.run([sys.executable, script], check=True, capture_output=True, text=True, env=env)
    return float(out.stdout.strip())


def main(argv: list[str] | None = None) -> dict[str, float]:
    full = "--full" in (sys.argv[1:] if argv is None else argv)
    rules = Rules()
    opp = hold_at(25)
    mix = as_mixture(opp, rules)
    t_base = median_time(lambda: value_iteration_hold_at(25, rules), 3)
    sweeps = value_iteration_hold_at(25, rules)[2]
    t_vi = median_time(lambda: best_response(opp, rules=rules, method="value_iteration", progress=False), 3)
    generic = read_opponents(opp, rules)
    t_generic = median_time(lambda: best_response_levels(generic, rules), 3)
    t_engine = {
        e: median_time(lambda e=e: best_response_two(mix, rules, engine=e), 21) for e in ("numpy", "numba")
    }
    t_auto = median_time(lambda: best_response(opp, rules=rules), 21)
    print("best response to hold at 25, goal 100 (median wall-clock, one process)")
    print(
        f"  value iteration, before the core   {t_base * 1e3:9.2f} ms   ({sweeps} sweeps to 1e-12; the baseline)"
    )
    print(f"  value iteration, the library's     {t_vi * 1e3:9.2f} ms   (one loop over the core, any n)")
    print(f"  exact, generic level loop          {t_generic * 1e3:9.2f} ms")
    for e, t in t_engine.items():
        print(
            f"  exact, {e:5s} engine                {t * 1e3:9.2f} ms   baseline / this = {t_base / t:6.1f} x"
        )
    # auto picks numba in this process (numba is loaded: the engines give the same bits)
    picked = choose_engine("auto", rules.goal**3 / 2, same_bits=True)
    print(
        f"  exact, engine='auto' ({picked} here)  {t_auto * 1e3:8.2f} ms   baseline / this = {t_base / t_auto:6.1f} x"
    )
    print("  target: >= 200 x the paper's value iteration with the default install")

    with tempfile.TemporaryDirectory() as cache:
        cold = _load_time(cache)
        warm = _load_time(cache)
    print("numba in a new process: import and kernels")
    print(f"  cold cache (compile)               {cold:9.2f} s")
    print(f"  warm cache (load)                  {warm:9.2f} s")

    t_cli = _fresh([str(PIGTHEORY), "best-response", "--opponent", "hold-at-25"], 5)
    t_help = _fresh([str(PIGTHEORY), "--help"], 5)
    t_import = _fresh([sys.executable, "-c", "import pigtheory"], 5)
    print("one-off commands (median of 5 fresh processes)")
    print(f"  pigtheory best-response --opponent hold-at-25  {t_cli:6.2f} s   (target: <= 0.23 s)")
    print(f"  pigtheory --help                               {t_help:6.2f} s")
    print(f"  python -c 'import pigtheory'                   {t_import:6.2f} s")

    goals = (100, 200, 400, 1000) if full else (100, 200, 400)  # --full: goal 1000 too
    rows = []
    for g in goals:
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, str(g)], check=True, capture_output=True, text=True, cwd=ROOT
        )
        rows.append(json.loads(out.stdout))
    slope = float(np.polyfit(np.log(goals), np.log([r["seconds"] for r in rows]), 1)[0])
    print("exact best response by goal, engine='auto' (one child process per goal)")
    for g, r in zip(goals, rows, strict=True):
        print(
            f"  goal {g:5d}   {r['seconds'] * 1e3:9.1f} ms   peak {r['peak_mb']:7.0f} MB   V(0, 0) = {r['value']:.6f}"
        )
    print(f"  growth exponent (time ~ goal^p)  p = {slope:.2f}")
    return {
        "baseline_ms": t_base * 1e3,
        "numba_ms": t_engine["numba"] * 1e3,
        "ratio_numba": t_base / t_engine["numba"],
        "cli_s": t_cli,
        "exponent": slope,
    }


if __name__ == "__main__":
    main(sys.argv[1:])
