"""N.3, N.4 — size of Pig's equation system and the optimal first player's chance.

Neller & Presser, slides "Solving Pig": "505,000 such equations"; Neller & Presser (2004):
the optimal first player wins with probability 0.5306 at goal 100.
"""

from __future__ import annotations

import numpy as np

from analyses._claims import Row, exact, numeric, timed
from pigtheory import Rules
from pigtheory.sequential import solve, value_iteration

SOURCE = "Neller & Presser"
CLAIMS = [("N.3", "slides", 505_000, 0), ("N.4", "Neller & Presser 2004", 0.5306, 5e-5)]


def main() -> tuple[list[Row], str]:
    with timed("N.4: exact sequential solve, goal 100"):
        sol = solve(rules=Rules())
    states = int(np.sum(~np.isnan(sol.value)))
    check = value_iteration(rules=Rules(goal=30), tol=1e-13)
    small = solve(rules=Rules(goal=30))
    rows = [
        exact(
            "N.3", SOURCE + ", slides", "number of equations (states (i, j, k), i + k < 100)", 505_000, states
        ),
        numeric(
            "N.4",
            SOURCE + " (2004)",
            "optimal first player's win probability, goal 100",
            0.5306,
            sol.first_player_win,
            5e-5,
            note=f"exact backward induction by score levels ({sol.iterations} passes); "
            f"at goal 30 it matches value iteration to {np.nanmax(np.abs(check.value - small.value)):.0e}",
        ),
    ]
    return rows, f"First player's win probability, goal 100: {sol.first_player_win:.10f}."


if __name__ == "__main__":
    from analyses._claims import print_rows

    print_rows(main()[0])
