"""Benchmark: multiplayer sequential Pig, :func:`pigtheory.sequential.equilibrium` against plain
best-response value iteration over all states.

For 3 players at goal 100 and 4 players at goal 50 (``--quick``: 3 players at goal 50 and 4
players at goal 20), after one warm-up solve at a small goal (which loads the compiled kernels):

* the solver's wall-clock and CPU time with one thread (``--parallel``: also with every thread
  of numba; the groups of one score-sum level are solved in parallel), its peak traced memory
  (``tracemalloc``, numpy's arrays included; the one-thread run) and this process's peak
  resident memory;
* the baseline in the same process and for the same CPU time as the one-thread solve:
  Jacobi sweeps of best responses over every score tuple at once (each mover best responds to
  the current start-of-turn values, compiled with numba like the solver), reporting the
  sweeps done, the last sweep's largest change and the largest distance of its values from
  the equilibrium's; and the ratio solve time / one sweep. In the groups where best
  responses cycle (3 players at goal 100) this iteration cannot converge;
* with ``--before REV``: the solver of an earlier git revision (its ``pigtheory`` package
  unpacked under another name), timed in the same process, and the ratio of the CPU times.

The machine may be shared: compare the CPU times, and the ratios within one run.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
import tracemalloc
from io import BytesIO
from pathlib import Path

import numpy as np

from pigtheory import Rules, sequential
from pigtheory.jit import compiled, kernel, max_threads
from pigtheory.sequential.model import roll_model
from pigtheory.sequential.multiplayer.group_kernels import Mix, Turn, hold_values, rotate, turn_pass


@kernel
def _sweep(n, g, turn, W, Wn):  # pragma: no cover - compiled
    m = turn.pvec.size
    HV = np.zeros((g + m + 1, n))
    A = np.zeros((g + m + 1, n))
    b = np.zeros(g + m + 1)
    roll = np.zeros(g + m + 1, dtype=np.bool_)
    change = 0.0
    for idx in range(g**n):
        first = idx // g ** (n - 1)
        hold_values(idx, first, n, g, W, HV)
        nxt = rotate(idx, 1, n, g)
        turn_pass(g - first, W[nxt, n - 1], HV, turn, 0, roll, roll, Mix(-1, 0.0), A, b)
        for o in range(n):
            v = A[0, o] + b[0] * W[nxt, (o - 1) % n]
            change = max(change, abs(v - W[idx, o]))
            Wn[idx, o] = v
    return change


def baseline(rules: Rules, seconds: float, target: np.ndarray) -> tuple[int, float, float, float]:
    """Sweeps of plain best-response value iteration done in ``seconds`` of CPU time (at least
    one): (sweeps, last change, largest distance from ``target``, CPU seconds per sweep)."""
    n, g = rules.players, rules.goal
    model = roll_model(rules)
    turn = Turn(model.free_vector(), float(model.p_bust), False, 1e-13)
    W = np.zeros((g**n, n))
    Wn = np.zeros_like(W)
    sweeps, change = 0, np.inf
    t0 = time.process_time()
    while sweeps == 0 or time.process_time() - t0 < seconds:
        change = compiled(_sweep)(n, g, turn, W, Wn)
        W, Wn = Wn, W
        sweeps += 1
    per = (time.process_time() - t0) / sweeps
    return sweeps, float(change), float(np.max(np.abs(W - target.reshape(g**n, n)))), per


def _solve(fn, rules: Rules, trace: bool = False, **kw):
    if trace:
        tracemalloc.start()
    w0, c0 = time.perf_counter(), time.process_time()
    eq = fn(rules=rules, progress=False, **kw)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    peak = 0.0
    if trace:
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return eq, wall, cpu, peak


def load_before(rev: str):
    """``equilibrium`` of revision ``rev``: its ``pigtheory`` unpacked as ``pigtheory_before``."""
    root = Path(__file__).resolve().parent.parent
    data = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", rev, "pigtheory"], check=True, capture_output=True
    ).stdout
    tmp = Path(tempfile.mkdtemp(prefix="pigtheory_before_"))
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(tmp, filter="data")
    (tmp / "pigtheory").rename(tmp / "pigtheory_before")
    sys.path.insert(0, str(tmp))
    old = importlib.import_module("pigtheory_before")
    solve = importlib.import_module("pigtheory_before.sequential.equilibrium").equilibrium

    def run(*, rules, **kw):
        same = old.Rules(**{f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if f.init})
        return solve(rules=same, **kw)

    return run


def run(rules: Rules, before=None, parallel: bool = False) -> None:
    cores = max_threads()
    eq, wall1, cpu1, traced = _solve(sequential.equilibrium, rules, trace=True, threads=1)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10
    print(
        f"{rules}: 1 thread   wall {wall1:6.1f} s  cpu {cpu1:6.1f} s  peak traced {traced:6.0f} MiB  "
        f"peak RSS (process) {rss:6.0f} MiB"
    )
    print(
        f"  start {np.round(eq.start_values, 5).tolist()}  opening threshold {eq.opening_threshold}  "
        f"mixed groups {len(eq.mixed_groups)}  several {len(eq.several_groups)}  "
        f"max gain {np.nanmax(eq.deviation_gain):.1e}  NashConv {eq.nash_conv:.1e}"
    )
    best = cpu1
    if parallel and cores > 1:
        eq2, wall2, cpu2, _ = _solve(sequential.equilibrium, rules, threads=cores)
        same = np.array_equal(eq2.value, eq.value) and np.array_equal(
            eq2.policy.roll_bits, eq.policy.roll_bits
        )
        print(
            f"  {cores} threads  wall {wall2:6.1f} s  cpu {cpu2:6.1f} s  "
            f"(wall ratio 1 thread / {cores}: {wall1 / wall2:.2f}; same arrays: {same})"
        )
    if before is not None:
        eqb, wallb, cpub, _ = _solve(before, rules)
        dv = float(np.max(np.abs(np.asarray(eqb.value) - eq.value)))
        print(
            f"  before    wall {wallb:6.1f} s  cpu {cpub:6.1f} s  -> CPU ratio before / now (1 thread) "
            f"{cpub / cpu1:.2f}x; largest value difference {dv:.1e}"
        )
    sweeps, change, dist, per = baseline(rules, best, eq.value)
    print(
        f"  baseline (best-response value iteration, the same {best:.1f} s of CPU): {sweeps} sweeps, last "
        f"change {change:.2e}, distance from the equilibrium {dist:.2e}; one sweep {per:.2f} s CPU, "
        f"the solve (1 thread) = {best / per:.1f} sweeps"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 players at goal 50, 4 players at goal 20")
    parser.add_argument("--before", metavar="REV", help="also time the solver of this git revision")
    parser.add_argument("--parallel", action="store_true", help="also time every thread of numba")
    parser.add_argument("--case", action="append", metavar="N:GOAL", help="players:goal (repeatable)")
    args = parser.parse_args([] if argv is None else argv)
    before = load_before(args.before) if args.before else None
    for rules in (Rules(goal=10, players=3), Rules(goal=6, players=4)):  # load the kernels
        sequential.equilibrium(rules=rules, progress=False, threads=1)
        if args.parallel:
            sequential.equilibrium(rules=rules, progress=False, threads=max_threads())
        if before is not None:
            before(rules=rules, progress=False)
    baseline(Rules(goal=5, players=3), 0.0, np.zeros((5,) * 3 + (3,)))
    if args.case:
        cases = [Rules(players=int(c.split(":")[0]), goal=int(c.split(":")[1])) for c in args.case]
    elif args.quick:
        cases = [Rules(goal=50, players=3), Rules(goal=20, players=4)]
    else:
        cases = [Rules(goal=100, players=3), Rules(goal=50, players=4)]
    for rules in cases:
        run(rules, before, args.parallel)


if __name__ == "__main__":
    main(sys.argv[1:])
