"""Measurements behind the scaling claim (Z23.18) and figure: one exact best response per
(players, goal, solver), each in a fresh process, with its wall-clock and CPU time and the
process's peak resident memory; cached as plain arrays (:func:`pigtheory.io.cached_arrays`: these are
measurements of this machine, not results) in the cache folder."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

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
import json, resource, sys, time
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import reduced_best_response
players, goal, symmetric = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
rules = Rules(goal=goal, players=players)
opps = [hold_at(max(1, goal // 4))] * (players - 1)
t0, c0 = time.perf_counter(), time.process_time()
sol = reduced_best_response(opps, rules=rules, symmetric=symmetric)
t, c = time.perf_counter() - t0, time.process_time() - c0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"players": players, "goal": goal, "symmetric": int(sol.symmetric), "states": sol.n_states,
                  "full_states": goal**players, "seconds": t, "cpu_seconds": c, "peak_mb": peak, "base_mb": base}))
"""


def measure(players: int, goal: int, symmetric: bool) -> dict:
    """Solve once, in a fresh process, against ``players - 1`` opponents holding at goal / 4.

    ``peak_mb`` is the process's peak resident memory, ``base_mb`` the same just before the
    solve (the interpreter and the imported libraries).
    """
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(players), str(goal), "1" if symmetric else "0"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def measurements(cases=CASES) -> list[dict]:
    """Every case's row (cached: timings are from the machine that first ran them)."""

    def compute():
        rows = [measure(*case) for case in cases]
        return {f: np.array([r[f] for r in rows]) for f in FIELDS}

    arr = cached_arrays("multiplayer_scaling", {"cases": [list(c) for c in cases], "version": 3}, compute)
    out = []
    for i in range(len(arr["players"])):
        row = {f: arr[f][i].item() for f in FIELDS}
        row["solver"] = "symmetric" if row["symmetric"] else "full"
        out.append(row)
    return out
