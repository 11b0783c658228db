"""The resource guard's estimates against measured peak memory.

Each case runs in a fresh process: the solve twice (compiling numba code, filling caches,
starting the default engine's background load of numba, which is then waited for: its memory
is once per process, not the solve's), then the peak resident memory is reset (``/proc/self/clear_refs``) and the same solve runs
again; "measured" is the larger of the second run's peak above the resident memory before it
(``VmHWM`` minus ``VmRSS``, from ``/proc/self/status``; with ``MALLOC_MMAP_THRESHOLD_`` fixed,
so that glibc returns large blocks and does not serve the second run from the first one's
freed memory) and of its peak traced by :mod:`tracemalloc` (numpy reports its arrays there).
"estimate" is :mod:`pigtheory.guard`'s number for the solve. A ratio estimate / measured below 1 would let a solve start that needs
more than the guard thinks; the guard's constants keep it above 1 with room (Linux only).

``python benchmarks/bench_guard.py [--full] [substring ...]`` runs the cases whose name
contains one of the substrings; ``make bench`` runs the small goals (about two minutes),
``--full`` adds the large ones (goal 400, the 150s: half an hour or more).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# name, estimator call, solve call (both Python expressions over `rules` and `g`)
CASES = [
    ("best response", "best_response_estimate(rules)", "S.best_response(hold_at(g // 4), rules=rules)"),
    ("best response, VI", "best_response_estimate(rules, method='value_iteration')",
     "S.best_response(hold_at(g // 4), rules=rules, method='value_iteration', tol=1e-9)"),
    ("best response, 3 players", "best_response_estimate(rules3)", "S.best_response([hold_at(g // 4)] * 2, rules=rules3)"),
    ("win probability", "win_probability_estimate(rules)", "S.win_probability(hold_at(g // 4), hold_at(g // 5), rules=rules)"),
    ("equilibrium", "equilibrium_estimate(rules)", "S.equilibrium(rules=rules)"),
    ("stackelberg", "stackelberg_estimate(rules)", "S.stackelberg(rules=rules)"),
    ("self-play", "self_play_estimate(rules, max_iter=30)", "S.self_play(rules=rules, max_iter=30)"),
    ("exploitability", "best_response_estimate(rules)", "S.exploitability(hold_at(g // 4), rules=rules)"),
    ("limit", "limit_estimate(rules, n_max=20 * g)", "S.limit(n_max=20 * g, rules=rules)"),
    ("reduced, 4 players", "reduced_estimate(rules4, opponents=hold_at(g // 4))",
     "S.reduced_best_response([hold_at(g // 4)] * 3, rules=rules4)"),
    ("sequential", "sequential_estimate(rules)", "Q.solve(rules=rules)"),
    ("sequential, two dice", "sequential_estimate(rules2)", "Q.solve(rules=rules2, tol=1e-9)"),
    ("compare", "compare_estimate(rules, policies=(hold_at(1), hold_at(1)))",
     "Q.compare(hold_at(g // 4), hold_at(g // 5), rules=rules)"),
    ("game length", "game_length_estimate(rules)", "game_length(hold_at(g // 4), hold_at(g // 5), rules=rules)"),
]  # fmt: skip
GOALS = {
    "best response, VI": (50, 100),
    "best response, 3 players": (20, 40),
    "self-play": (50, 100),
    "equilibrium": (50, 100, 150),
    "stackelberg": (50, 100, 150),
    "reduced, 4 players": (20, 40),
    "sequential, two dice": (30, 60),
}
DEFAULT_GOALS = (100, 200, 400)
QUICK = 100  # make bench: goals up to this one

_CHILD = """
import gc, json, sys, tracemalloc
from pigtheory import Rules, hold_at, guard
from pigtheory import simultaneous as S, sequential as Q
from pigtheory.length import game_length
from pigtheory.guard import *
from pigtheory.engine import wait_for_loads
from pigtheory.simultaneous.two_player.stackelberg import estimate_memory as stackelberg_estimate
from pigtheory.simultaneous.two_player.self_play import estimate_memory as self_play_estimate
from pigtheory.simultaneous.limit import estimate_memory as limit_estimate
from pigtheory.length import estimate_memory as game_length_estimate

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024

est_code, solve_code, g = sys.argv[1], sys.argv[2], int(sys.argv[3])
rules, rules2 = Rules(goal=g), Rules(goal=g, dice=2)
rules3, rules4 = Rules(goal=g, players=3), Rules(goal=g, players=4)
estimate = eval(est_code)
eval(solve_code)
eval(solve_code)  # a second solve: the tiered engine's background load starts here
wait_for_loads()  # numba's import (about 50 MB, once per process) is not the solve's memory
gc.collect()
before = status("VmRSS")
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
tracemalloc.start()
eval(solve_code)
traced = tracemalloc.get_traced_memory()[1]
print(json.dumps({"estimate": estimate.bytes, "measured": max(status("VmHWM") - before, traced)}))
"""


def measure(estimate: str, solve: str, goal: int) -> dict:
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "131072", "MALLOC_TRIM_THRESHOLD_": "131072"}
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", _CHILD, estimate, solve, str(goal)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    if not Path("/proc/self/clear_refs").exists():
        print("bench_guard: needs Linux (/proc/self/clear_refs); skipped")
        return
    argv = list(argv or [])
    full = "--full" in argv
    only = [a for a in argv if a != "--full"]
    print(f"{'solve':28s} {'goal':>5s} {'estimate':>10s} {'measured':>10s} {'ratio':>7s}")
    worst = float("inf")
    for name, estimate, solve in CASES:
        if only and not any(a in name for a in only):
            continue
        for goal in GOALS.get(name, DEFAULT_GOALS):
            if not full and goal > QUICK:
                continue
            r = measure(estimate, solve, goal)
            ratio = r["estimate"] / max(r["measured"], 1)
            worst = min(worst, ratio) if r["measured"] > 2**20 else worst
            print(
                f"{name:28s} {goal:5d} {r['estimate'] / 2**20:8.1f} MB {r['measured'] / 2**20:8.1f} MB {ratio:7.2f}",
                flush=True,
            )
    print(f"smallest ratio (measured above 1 MB): {worst:.2f} (must stay above 1)")


if __name__ == "__main__":
    main(sys.argv[1:])
