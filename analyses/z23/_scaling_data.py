"""Measurements behind the scaling claim (Z23.18) and figure: one exact best response per
(players, goal, solver), timed and with its peak traced memory; cached in ``.cache/``."""

from __future__ import annotations

import gc
import time
import tracemalloc

from pigtheory import Rules, hold_at
from pigtheory._io import cached_arrays
from pigtheory.simultaneous import reduced_best_response

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
FIELDS = ("players", "goal", "symmetric", "states", "full_states", "seconds", "peak_mb")


def measure(players: int, goal: int, symmetric: bool) -> dict:
    """Solve once against ``players - 1`` opponents holding at goal / 4; time and peak memory."""
    rules = Rules(goal=goal, players=players)
    opps = [hold_at(max(1, goal // 4))] * (players - 1)
    gc.collect()
    tracemalloc.start()
    t0 = time.perf_counter()
    sol = reduced_best_response(opps, rules, symmetric=symmetric)
    seconds = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {
        "players": players,
        "goal": goal,
        "symmetric": int(sol.symmetric),
        "states": sol.n_states,
        "full_states": goal**players,
        "seconds": seconds,
        "peak_mb": peak / 2**20,
    }


def measurements(cases=CASES) -> list[dict]:
    """Every case's row (cached: timings are from the machine that first ran them)."""
    import numpy as np

    def compute():
        rows = [measure(*case) for case in cases]
        return {f: np.array([r[f] for r in rows]) for f in FIELDS}

    arr = cached_arrays("multiplayer_scaling", {"cases": [list(c) for c in cases], "version": 1}, compute)
    out = []
    for i in range(len(arr["players"])):
        row = {f: arr[f][i].item() for f in FIELDS}
        row["solver"] = "symmetric" if row["symmetric"] else "full"
        out.append(row)
    return out
