"""Cost of the n-player best response (claim Z23.18).

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), paragraph after Algorithm 0.3: "the
computational costs increase as the number of players increases, with the computational
complexity being O(100^n), where n is the number of players."

Ours: one exact best response (opponents hold at goal / 4) per (players, goal), with the full
state space and with the symmetric (multiset) one, timed and with its peak traced memory
(``analyses/z23/_scaling_data.py``; cached, so the times are those of the machine that first
ran them). The states are the goal^n score tuples (g^n); at each the player compares up to
g - i thresholds, so the work is of order g^(n+1): 100 times more per added player at goal
100, as the paper says, divided by (n - 1)! when the opponents play the same policy.
"""

from __future__ import annotations

import numpy as np

from analyses._claims import DIFFERS, REPRODUCED, Row, print_rows
from analyses.z23._scaling_data import measurements

SOURCE = "Zhu et al. 2023 (Sci. Rep.), Three players ... (4 and n players)"
CLAIMS = [("Z23.18", SOURCE, "O(100^n)", None)]


def _find(rows, players, goal, solver):
    return next((r for r in rows if (r["players"], r["goal"], r["solver"]) == (players, goal, solver)), None)


def main():
    rows = measurements()
    full2, full3 = _find(rows, 2, 100, "full"), _find(rows, 3, 100, "full")
    sym3, sym4 = _find(rows, 3, 100, "symmetric"), _find(rows, 4, 100, "symmetric")
    t_ratio = full3["cpu_seconds"] / full2["cpu_seconds"]
    s_ratio = full3["states"] / full2["states"]
    t_ratio_sym = sym4["cpu_seconds"] / sym3["cpu_seconds"]
    s_ratio_sym = sym4["states"] / sym3["states"]
    # Once the work is large enough to vectorise (>= 1e5 states), CPU time against states solved.
    big = [r for r in rows if r["states"] >= 1e5]
    slope = float(
        np.polyfit(np.log([r["states"] for r in big]), np.log([r["cpu_seconds"] for r in big]), 1)[0]
    )
    linear = 0.7 <= slope <= 1.3
    note = (
        f"CPU time grows like states^{slope:.2f} over the {len(big)} solves with >= 1e5 states, and the states are "
        f"goal^n (full) or about goal^n / (n - 1)! (identical opponents): O(100^n) at goal 100. Measured at goal 100: "
        f"2 -> 3 players (full) states x{s_ratio:.0f}, CPU time x{t_ratio:.0f} (the 2-player solve is too small "
        f"to vectorise); 3 -> 4 players (symmetric) states x{s_ratio_sym:.0f}, CPU time x{t_ratio_sym:.0f}, "
        f"{sym4['cpu_seconds']:.0f} s and {sym4['peak_mb']:.0f} MB peak resident memory for 4 players"
    )
    out = [
        Row(
            "Z23.18",
            SOURCE,
            "cost of an n-player best response",
            "O(100^n)",
            f"time ~ states^{slope:.2f}, states = 100^n",
            REPRODUCED if linear else DIFFERS,
            note,
        )
    ]
    lines = [
        "| players | goal | solver | states solved | goal^n | wall s | CPU s | peak RSS MB (before solve) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['players']} | {r['goal']} | {r['solver']} | {r['states']:,} | {r['full_states']:,} | "
            f"{r['seconds']:.2f} | {r['cpu_seconds']:.2f} | {r['peak_mb']:.0f} ({r['base_mb']:.0f}) |"
        )
    md = (
        'Exact best response against identical "hold at goal/4" opponents, each in a fresh process '
        "(times from the machine that first ran them, a shared 2-core box; cached).\n\n" + "\n".join(lines)
    )
    print_rows(out)
    return out, md


if __name__ == "__main__":
    main()
