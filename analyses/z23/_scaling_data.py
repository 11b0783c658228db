"""Measurements behind the scaling claim (Z23.18) and figure: one exact best response per
(players, goal, solver), each in a fresh process, with its wall-clock and CPU time and the
process's peak resident memory; cached as plain arrays (:func:`pigtheory.io.cached_arrays`: these are
measurements of this machine, not results) in the cache folder.

Each child first solves a goal-8 case with each engine, so that loading the compiled engine
(about half a second and 100 MB in a fresh process, whatever the size) is not timed as part of
the solve. Each child
reads its own peak memory, ``VmHWM`` of ``/proc/self/status`` (Linux): the peak
``ru_maxrss`` of :func:`resource.getrusage` survives fork and exec, so a child started by a
large parent would report the parent's peak as its own. Elsewhere the child falls back on
``ru_maxrss`` (and the figure's memory panel is then only an upper bound).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

import pigtheory
from pigtheory.io import cached_arrays

# (players, goal, symmetric): the full solver while it fits in a few minutes, the symmetric
# one up to 4 players at goal 100 and 5 players at small goals.
CASES = [
    (2, 25, False),
    (2, 50, False),
    (2, 100, False),
    (3, 25, False),
    (3, 50, False),
    (3, 100, False),
    (3, 25, True),
    (3, 50, True),
    (3, 100, True),
    (4, 25, False),
    (4, 40, False),
    (4, 25, True),
    (4, 50, True),
    (4, 100, True),
    (5, 20, True),
    (5, 30, True),
]
FIELDS = (
    "players",
    "goal",
    "symmetric",
    "states",
    "full_states",
    "seconds",
    "cpu_seconds",
    "peak_mb",
    "base_mb",
)

_CHILD = """
import json, sys, time
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import reduced_best_response

def peak_mb():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 2**20 if sys.platform == "darwin" else rss / 1024

def solve(goal, engine="auto"):
    rules = Rules(goal=goal, players=players)
    opps = [hold_at(max(1, goal // 4))] * (players - 1)
    return reduced_best_response(opps, rules=rules, symmetric=symmetric, engine=engine)

players, goal, symmetric = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
for engine in ("numpy", "numba"):  # load both engines (numba: about half a second) before the clock
    try:
        solve(min(goal, 8), engine)
    except ValueError:  # numba not installed: "auto" uses numpy
        pass
base = peak_mb()
t0, c0 = time.perf_counter(), time.process_time()
sol = solve(goal)
t, c = time.perf_counter() - t0, time.process_time() - c0
peak = peak_mb()
print(json.dumps({"players": players, "goal": goal, "symmetric": int(sol.symmetric), "states": sol.n_states,
                  "full_states": goal**players, "seconds": t, "cpu_seconds": c, "peak_mb": peak, "base_mb": base}))
"""


def measure(players: int, goal: int, symmetric: bool) -> dict:
    """Solve once, in a fresh process, against ``players - 1`` opponents holding at goal / 4.

    ``peak_mb`` is the child's own peak resident memory, ``base_mb`` the same just before the
    solve (the interpreter and the imported libraries). The child runs from the folder that
    holds this pigtheory, so it imports the same one.
    """
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(players), str(goal), "1" if symmetric else "0"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(pigtheory.__file__).resolve().parents[1],
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def measurements(cases=CASES) -> list[dict]:
    """Every case's row (cached: timings are from the machine that first ran them)."""

    def compute():
        rows = [measure(*case) for case in cases]
        return {f: np.array([r[f] for r in rows]) for f in FIELDS}

    arr = cached_arrays("multiplayer_scaling", {"cases": [list(c) for c in cases], "version": 6}, compute)
    out = []
    for i in range(len(arr["players"])):
        row = {f: arr[f][i].item() for f in FIELDS}
        row["solver"] = "symmetric" if row["symmetric"] else "full"
        out.append(row)
    return out
