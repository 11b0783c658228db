"""Benchmark: symmetric equilibria of three- and four-player simultaneous Pig (issue 12).

Prints wall-clock and CPU time (CPU time is inflated less by a busy shared machine):

* three players at goal 100: ``symmetric_equilibrium`` (median of 3 runs after a warm-up that
  loads the compiled kernels) against the exact best response to two "hold at 25" opponents
  (Algorithm 0.3, the baseline, same process) as a ratio, with the certificates (epsilon at
  the start and the largest, target <= 1e-9 and <= 1e-6) and the global best response; then
  the peak resident memory of the solve in a child process;
* four players by goal (20, 40, ..., 100), each in a child process: time, CPU time, peak
  memory and the states left open (certificate above ``tol`` = 1e-12 after the wider search
  of :mod:`pigtheory.simultaneous.core.symmetric_stage`; issue 23 wants none), stopping after
  the first goal over 10 minutes. The issue-20 target for goal 100 is 30 s.

``python benchmarks/bench_symmetric.py --quick`` stops the four-player ladder at goal 60.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from benchmarks._timing import timed
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import best_response, symmetric_best_response, symmetric_equilibrium

ROOT = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 20.0
LIMIT_SECONDS = 600.0

_CHILD = """
import json, resource, sys, time
from pigtheory import Rules
from pigtheory.simultaneous import symmetric_equilibrium

def peak_mb():
    try:
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

players, goal = int(sys.argv[1]), int(sys.argv[2])
symmetric_equilibrium(rules=Rules(goal=8, players=players), engine="numba")  # load the kernels
base = peak_mb()
t0, c0 = time.perf_counter(), time.process_time()
eq = symmetric_equilibrium(rules=Rules(goal=goal, players=players))
seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
_, eps = eq.state_epsilon()
print(json.dumps({"seconds": seconds, "cpu": cpu, "base_mb": base,
                  "peak_mb": peak_mb(), "states": eq.n_states, "mixed": eq.n_mixed,
                  "epsilon_start": eq.epsilon_start, "epsilon_max": eq.residual,
                  "open": int((eps > 1e-12).sum())}))
"""


def _child(players: int, goal: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(players), str(goal)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> dict:
    quick = "--quick" in (sys.argv[1:] if argv is None else argv)
    rules = Rules(players=3)
    symmetric_equilibrium(rules=Rules(goal=8, players=3), engine="numba")  # compile or load
    t_base, _ = timed(lambda: best_response([hold_at(25)] * 2, rules=rules), 3)
    c_eq, _ = timed(lambda: symmetric_equilibrium(rules=rules), 3, clock=time.process_time)
    t_eq, eq = timed(lambda: symmetric_equilibrium(rules=rules), 3, warmup=False)
    t_br, br = timed(lambda: symmetric_best_response(eq), 1)
    mem = _child(3, 100)
    print("three players, goal 100")
    print(f"  best response to hold at 25 twice   {t_base:8.2f} s   (baseline)")
    print(
        f"  symmetric_equilibrium               {t_eq:8.2f} s   {t_eq / t_base:6.1f} x   cpu {c_eq:.2f} s   "
        f"target <= {TARGET_SECONDS:.0f} s: {'met' if t_eq <= TARGET_SECONDS else 'MISSED'}"
    )
    print(
        f"  peak memory (child process)         {mem['peak_mb']:8.0f} MB  ({mem['base_mb']:.0f} MB before the solve)"
    )
    print(
        f"  states {eq.n_states}, pure {eq.n_pure}, mixed {eq.n_mixed}, largest support {eq.largest_support}, "
        f"fallback {eq.n_fallback}"
    )
    print(
        f"  epsilon at (0, 0, 0) {eq.epsilon_start:.1e} (target <= 1e-9), largest {eq.residual:.1e} (target <= 1e-6)"
    )
    print(f"  global best response                {t_br:8.2f} s   exploitability {br.exploitability:.1e}")
    ladder = []
    print("four players (child processes)")
    print("   goal   states     mixed   seconds   cpu s   peak MB   eps start   eps max   open (eps > 1e-12)")
    for goal in (20, 40, 60) if quick else (20, 40, 60, 80, 100):
        row = _child(4, goal)
        ladder.append({"goal": goal, **row})
        print(
            f"  {goal:5d} {row['states']:8d} {row['mixed']:9d} {row['seconds']:9.1f} {row['cpu']:7.1f} "
            f"{row['peak_mb']:9.0f}   {row['epsilon_start']:.1e}     {row['epsilon_max']:.1e}   {row['open']:5d}",
            flush=True,
        )
        if row["seconds"] > LIMIT_SECONDS:
            break
    return {
        "baseline": t_base,
        "three_players": t_eq,
        "three_players_cpu": c_eq,
        "memory": mem,
        "four": ladder,
    }


if __name__ == "__main__":
    main()
