"""Benchmark: symmetric equilibria of three- and four-player simultaneous Pig (issue 12).

Prints wall-clock and CPU time (CPU time is inflated less by a busy shared machine):

* three players at goal 100: ``symmetric_equilibrium`` (median of 3 runs after a warm-up that
  loads the compiled kernels) against the exact best response to two "hold at 25" opponents
  (Algorithm 0.3, the baseline, same process) as a ratio, with the certificates (epsilon at
  the start and the largest, target <= 1e-9 and <= 1e-6) and the global best response; then
  the peak resident memory of the solve in a child process;
* four players by goal (20, 40, ..., 100), each in a child process: time, CPU time, peak
  memory and the states left open (certificate above ``tol`` = 1e-12 after the wider search
  of :mod:`pigtheory.simultaneous.symmetric.stage`; issue 23 wants none), stopping after
  the first goal over 10 minutes. The issue-20 target for goal 100 is 30 s.

First, the issue-20 target: four players at goal 100 (``--quick``: goal 60), the equilibrium
and its global certificate (Z23.S5, Z23.S6), each timed (CPU and wall) against the same solver
summing every continuation afresh, without the view cache of
:mod:`pigtheory.simultaneous.symmetric.kernels` (the code before issue 20's reuse, run in
the same process), with a check that both give the same bits.

Then the best response to a wide mix (issue 20: what the whole-game dynamics of
``analyses/z23`` compute at every iteration): three players at goal 100 (``--quick``: 60),
the damped dynamics run for five iterations (CPU per iteration), and the exact best response
to its last policy (mixes of up to six thresholds) against the same kernel summing every
continuation afresh (``reuse=False``, the reference), with a check that both give the same bits.

``python benchmarks/bench_symmetric.py --quick`` (or ``PIGTHEORY_BENCH_QUICK=1``, for
``make bench``) solves the first part at goal 60 and skips the four-player ladder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks._timing import timed
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import (
    best_response,
    symmetric_best_response,
    symmetric_dynamics,
    symmetric_equilibrium,
)
from pigtheory.simultaneous.symmetric.equilibrium import _solve
from pigtheory.simultaneous.symmetric.response import _respond

ROOT = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 20.0
LIMIT_SECONDS = 600.0
FOUR_PLAYER_TARGET = 30.0  # issue 20: the four-player equilibrium at goal 100

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


def _clocked(fn):
    """``(cpu seconds, wall seconds, result)`` of one call."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return time.process_time() - c0, time.perf_counter() - t0, out


def four_players(goal: int) -> dict:
    """The four-player equilibrium and its certificate, with and without the view cache."""
    rules = Rules(goal=goal, players=4)
    small = _solve(Rules(goal=8, players=4), 1e-12, "numba", False)  # compile or load
    for reuse in (True, False):  # the certificate's kernels too, both paths
        _respond(small.policy, "numba", False, reuse=reuse)
    c_new, w_new, eq = _clocked(lambda: _solve(rules, 1e-12, "numba", False))
    c_old, w_old, ref = _clocked(lambda: _solve(rules, 1e-12, "numba", False, reuse=False))
    same = all(
        np.array_equal(a, b)
        for a, b in [
            (eq.value.table, ref.value.table),
            (eq.gain, ref.gain),
            (eq.policy.actions, ref.policy.actions),
            (eq.policy.mix_weights, ref.policy.mix_weights),
        ]
    )
    cb_new, wb_new, br = _clocked(lambda: _respond(eq.policy, "numba", False))
    cb_old, wb_old, br_ref = _clocked(lambda: _respond(eq.policy, "numba", False, reuse=False))
    same_br = np.array_equal(br.value.table, br_ref.value.table) and np.array_equal(
        br.profile_table, br_ref.profile_table
    )
    _, eps = eq.state_epsilon()
    print(f"four players, goal {goal} (CPU seconds; wall in brackets; fresh sums = no view cache)")
    print(
        f"  equilibrium   {c_new:8.1f} ({w_new:.1f})   fresh sums {c_old:8.1f} ({w_old:.1f})   "
        f"{c_old / c_new:5.1f} x   same bits: {same}"
    )
    print(
        f"  certificate   {cb_new:8.1f} ({wb_new:.1f})   fresh sums {cb_old:8.1f} ({wb_old:.1f})   "
        f"{cb_old / cb_new:5.1f} x   same bits: {same_br}"
    )
    if goal == 100:
        print(
            f"  target: equilibrium <= {FOUR_PLAYER_TARGET:.0f} s: "
            f"{'met' if c_new <= FOUR_PLAYER_TARGET else 'MISSED'} ({c_new:.0f} s CPU)"
        )
    print(
        f"  mixed states {eq.n_mixed}, fallback {eq.n_fallback}, largest support {eq.largest_support}, "
        f"open (eps > 1e-12) {int((eps > 1e-12).sum())}, exploitability {br.exploitability:.1e}"
    )
    return {
        "goal": goal,
        "cpu": c_new,
        "wall": w_new,
        "fresh_cpu": c_old,
        "certificate_cpu": cb_new,
        "fresh_certificate_cpu": cb_old,
        "same": same and same_br,
    }


def mixed_response(goal: int, iterations: int = 5) -> dict:
    """The damped dynamics (three players) and the best response to its last, mixed policy,
    with and without the reuse of continuations (the same bits)."""
    rules = Rules(goal=goal, players=3)
    small = symmetric_dynamics("damped", rules=Rules(goal=8, players=3), max_iter=2, engine="numba")
    for reuse in (True, False):  # compile or load both paths
        _respond(small.policy, "numba", False, reuse=reuse)
    c_run, w_run, run = _clocked(
        lambda: symmetric_dynamics("damped", rules=rules, max_iter=iterations, engine="numba", progress=False)
    )
    policy = run.policy
    c_new, w_new, br = _clocked(lambda: _respond(policy, "numba", False))
    c_old, w_old, ref = _clocked(lambda: _respond(policy, "numba", False, reuse=False))
    same = all(
        np.array_equal(a, b)
        for a, b in [
            (br.value.table, ref.value.table),
            (br.profile_table, ref.profile_table),
            (br.policy.actions, ref.policy.actions),
        ]
    )
    print(f"best response to a mixed policy, three players, goal {goal} (CPU seconds; wall in brackets)")
    print(
        f"  damped dynamics, {iterations} iterations   {c_run:8.1f} ({w_run:.1f})   "
        f"{c_run / (iterations + 1):.2f} per best response"
    )
    print(
        f"  best response to its last policy   {c_new:8.2f} ({w_new:.2f})   fresh sums {c_old:8.2f} ({w_old:.2f})   "
        f"{c_old / c_new:5.1f} x   same bits: {same}   "
        f"(mixed views {int((policy.actions < 0).sum())}, widest mix {policy.mix_thresholds.shape[1]})"
    )
    return {
        "goal": goal,
        "dynamics_cpu": c_run,
        "iterations": iterations,
        "response_cpu": c_new,
        "fresh_response_cpu": c_old,
        "same": same,
    }


def main(argv: list[str] | None = None) -> dict:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args or os.environ.get("PIGTHEORY_BENCH_QUICK") == "1"
    four = four_players(60 if quick else 100)
    mixed = mixed_response(60 if quick else 100)
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
    if not quick:
        print("four players (child processes)")
        print(
            "   goal   states     mixed   seconds   cpu s   peak MB   eps start   eps max   open (eps > 1e-12)"
        )
    for goal in () if quick else (20, 40, 60, 80, 100):
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
        "four_players": four,
        "mixed_response": mixed,
        "baseline": t_base,
        "three_players": t_eq,
        "three_players_cpu": c_eq,
        "memory": mem,
        "four": ladder,
    }


if __name__ == "__main__":
    main()
