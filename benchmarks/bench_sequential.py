"""Sequential Pig: exact one-die solver against plain value iteration; two-dice sweeps.

Target (issue 6): one-die optimal play at goal 100, exact and at least 20x faster than plain
vectorised value iteration of Neller's equations run in the same process. Two dice and
Double Trouble: time and sweeps, well under a minute each.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import timed  # noqa: E402
from pigtheory import Rules  # noqa: E402
from pigtheory.sequential import solve, value_iteration  # noqa: E402


def main() -> None:
    rules = Rules()
    t_exact, exact = timed(lambda: solve(rules, progress=False), 5, warmup=False)
    t_vi, vi = timed(lambda: value_iteration(rules, tol=1e-12, progress=False), 1, warmup=False)
    diff = float(np.nanmax(np.abs(exact.value - vi.value)))
    print(
        f"one die, goal 100: exact by score levels  median {t_exact:.3f} s ({exact.iterations} level passes)"
    )
    print(f"one die, goal 100: plain value iteration  {t_vi:.2f} s ({vi.iterations} sweeps to 1e-12)")
    print(
        f"  speed-up {t_vi / t_exact:.1f}x (target >= 20x); max |difference| {diff:.1e}; "
        f"policies equal: {bool(np.array_equal(exact.roll, vi.roll))}"
    )
    for r in (Rules(dice=2), Rules(dice=2, double_trouble=True)):
        t, sol = timed(lambda r=r: solve(r, tol=1e-12, progress=False), 1, warmup=False)
        print(
            f"{r}: {t:.1f} s, {sol.iterations} whole-turn sweeps, residual {sol.residual:.1e}, "
            f"first player {sol.first_player_win:.6f}"
        )


if __name__ == "__main__":
    main()
