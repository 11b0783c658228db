"""N.1, N.2 — Piglet, solved.

Neller & Presser, slides "Piglet Solved": for the coin game to 10, the optimal "hold at" value
for each (you, opponent) score, a 10 x 10 table (row 0: "2 2 2 2 2 2 2 2 3 10", ...); and for
Piglet to 2, "(For our equations, always FLIP)".
"""

from __future__ import annotations

import numpy as np

from analyses._claims import DIFFERS, REPRODUCED, Row, exact
from pigtheory import Rules
from pigtheory.sequential import solve, solve_exact

SOURCE = "Neller & Presser, slides"
SLIDE = np.array([
    [2, 2, 2, 2, 2, 2, 2, 2, 3, 10],
    [1, 2, 2, 2, 2, 2, 2, 3, 3, 9],
    [1, 1, 2, 2, 2, 2, 2, 3, 3, 8],
    [1, 1, 1, 2, 2, 2, 2, 3, 3, 7],
    [1, 1, 1, 1, 2, 2, 2, 2, 2, 6],
    [1, 1, 1, 1, 1, 2, 2, 2, 2, 5],
    [1, 1, 1, 1, 1, 1, 2, 2, 2, 4],
    [1, 1, 1, 1, 1, 1, 1, 1, 3, 3],
    [1, 1, 1, 1, 1, 1, 1, 2, 2, 2],
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
])  # fmt: skip
CLAIMS = [("N.1", "Piglet Solved", "hold-value table, goal 10", 0), ("N.2", "Piglet to 2", "always flip", 0)]


def main() -> tuple[list[Row], str]:
    rules = Rules.piglet(goal=10)
    sol = solve(rules=rules)
    ours = sol.hold_thresholds()
    bad = np.argwhere(ours != SLIDE)
    v = solve_exact(rules=rules)
    notes = []
    for i, j in bad:
        k = int(ours[i, j])
        hold = 1 - v[j, i + k, 0]
        flip = (1 - v[j, i, 0]) / 2 + (v[i, j, k + 1] if i + k + 1 < 10 else 1) / 2
        notes.append(
            f"(you {i}, opponent {j}): slide {SLIDE[i, j]}, ours {k}: at turn total {k} holding wins "
            f"{float(hold):.4f} and flipping {float(flip):.4f} (exact rationals)"
        )
    row = Row(
        "N.1",
        SOURCE + ", Piglet Solved",
        "Piglet to 10: optimal hold value for every (you, opponent)",
        "10x10 table",
        f"{100 - len(bad)}/100 cells equal",
        REPRODUCED if not len(bad) else DIFFERS,
        "; ".join(notes) + ("; the slide's other 98 cells agree" if len(bad) else ""),
    )
    two = solve(rules=Rules.piglet(goal=2))
    always = bool(np.all(two.roll[~np.isnan(two.value)]))
    exact2 = solve_exact(rules=Rules.piglet(goal=2))
    rows = [
        row,
        exact(
            "N.2",
            SOURCE + ", Piglet",
            "Piglet to 2: always flip",
            True,
            always,
            note=f"P(0,0,0) = {exact2[0, 0, 0]} exactly",
        ),
    ]
    lines = [
        "Ours (rows: you, columns: opponent):",
        "",
        "| you \\ opp | " + " | ".join(map(str, range(10))) + " |",
        "|---" * 11 + "|",
    ]
    for i in range(10):
        lines.append(
            f"| {i} | "
            + " | ".join(f"**{x}**" if x != SLIDE[i, j] else str(x) for j, x in enumerate(ours[i]))
            + " |"
        )
    lines.append("")
    lines.append(f"First player's win probability, both optimal: {v[0, 0, 0]} = {float(v[0, 0, 0]):.6f}.")
    return rows, "\n".join(lines)


if __name__ == "__main__":
    from analyses._claims import print_rows

    print_rows(main()[0])
