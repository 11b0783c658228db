"""Benchmark: multiplayer sequential Pig, :func:`pigtheory.sequential.equilibrium` against plain
best-response value iteration over all states.

For 3 players at goal 100 and 4 players at goal 50 (``--quick``: 3 players at goal 50 only):

* the solver's wall-clock and CPU time (after one warm-up solve at a small goal, which loads
  the compiled kernels), with ``starts=1`` and the default ``starts=3``, and its peak resident
  memory (this process's high-water mark);
* the baseline in the same process and for the same wall-clock time: Jacobi sweeps of best
  responses over every score tuple at once (each mover best responds to the current
  start-of-turn values, compiled with numba like the solver), reporting the sweeps done, the
  last sweep's largest change and the largest distance of its start values from the
  equilibrium's. In the groups where best responses cycle this iteration cannot converge.

The machine may be shared: compare the CPU times, and the ratios within one run.
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np
from numba import njit

from pigtheory import Rules, sequential
from pigtheory.sequential import group_kernels as gk
from pigtheory.sequential.model import roll_model


@njit(cache=True)
def _sweep(n, g, pvec, p_bust, W, Wn):  # pragma: no cover - compiled
    m = pvec.size
    HV = np.zeros((g + m + 1, n))
    A = np.zeros((g + m + 1, n))
    b = np.zeros(g + m + 1)
    roll = np.zeros(g + m + 1, dtype=np.bool_)
    change = 0.0
    for idx in range(g**n):
        first = idx // g ** (n - 1)
        gk.hold_values(idx, first, n, g, W, HV)
        nxt = gk.rotate(idx, 1, n, g)
        gk.turn_pass(g - first, W[nxt, n - 1], HV, pvec, p_bust, False, 1e-13, 0, roll, roll, -1, 0.0, A, b)
        for o in range(n):
            v = A[0, o] + b[0] * W[nxt, (o - 1) % n]
            change = max(change, abs(v - W[idx, o]))
            Wn[idx, o] = v
    return change


def baseline(rules: Rules, seconds: float, target: np.ndarray) -> tuple[int, float, float]:
    """Sweeps of plain best-response value iteration done in ``seconds``: (sweeps, last
    change, largest distance from ``target``)."""
    n, g = rules.players, rules.goal
    model = roll_model(rules)
    pvec, pb = model.free_vector(), float(model.p_bust)
    W = np.zeros((g**n, n))
    Wn = np.zeros_like(W)
    sweeps, change = 0, np.inf
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        change = _sweep(n, g, pvec, pb, W, Wn)
        W, Wn = Wn, W
        sweeps += 1
    return sweeps, float(change), float(np.max(np.abs(W - target.reshape(g**n, n))))


def run(rules: Rules) -> None:
    for starts in (1, 3):
        w0, c0 = time.perf_counter(), time.process_time()
        eq = sequential.equilibrium(rules=rules, starts=starts, progress=False)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10
        print(
            f"{rules}: starts={starts} wall {wall:6.1f} s  cpu {cpu:6.1f} s  peak RSS {peak:6.0f} MiB  "
            f"start {np.round(eq.start_values, 5).tolist()}  mixed groups {len(eq.mixed_groups)}  "
            f"several {len(eq.several_groups)}  NashConv {eq.nash_conv:.1e}"
        )
    sweeps, change, dist = baseline(rules, wall, eq.value)
    print(
        f"  baseline (best-response value iteration, same {wall:.1f} s): {sweeps} sweeps, last change "
        f"{change:.2e}, distance from the equilibrium {dist:.2e}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 players at goal 50 only")
    args = parser.parse_args()
    sequential.equilibrium(rules=Rules(goal=10, players=3), progress=False)  # load the kernels
    baseline(Rules(goal=5, players=3), 0.0, np.zeros((5,) * 3 + (3,)))
    cases = (
        [Rules(goal=50, players=3)] if args.quick else [Rules(goal=100, players=3), Rules(goal=50, players=4)]
    )
    for rules in cases:
        run(rules)


if __name__ == "__main__":
    main()
