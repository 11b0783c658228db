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

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from analyses._claims import DIFFERS, REPRODUCED, Row, print_rows  # noqa: E402
from analyses.z23._scaling_data import measurements  # noqa: E402

SOURCE = "Zhu et al. 2023 (Sci. Rep.), Three players ... (4 and n players)"
CLAIMS = [("Z23.18", SOURCE, "O(100^n)", None)]


def _find(rows, players, goal, solver):
    return next((r for r in rows if (r["players"], r["goal"], r["solver"]) == (players, goal, solver)), None)


def main():
    rows = measurements()
    full2, full3 = _find(rows, 2, 100, "full"), _find(rows, 3, 100, "full")
    sym3, sym4 = _find(rows, 3, 100, "symmetric"), _find(rows, 4, 100, "symmetric")
    t_ratio = full3["seconds"] / full2["seconds"]
    s_ratio = full3["states"] / full2["states"]
    t_ratio_sym = sym4["seconds"] / sym3["seconds"]
    s_ratio_sym = sym4["states"] / sym3["states"]
    # Growth in the goal at fixed n: slope of log(time) against log(goal).
    slopes = {}
    for n in (2, 3, 4):
        pts = [r for r in rows if r["players"] == n and r["solver"] == ("full" if n < 4 else "symmetric")]
        if len(pts) >= 2:
            g = np.log([r["goal"] for r in pts])
            t = np.log([r["seconds"] for r in pts])
            slopes[n] = float(np.polyfit(g, t, 1)[0])
    consistent = 10 <= t_ratio <= 1000
    note = (
        f"at goal 100, 2 -> 3 players (full): states x{s_ratio:.0f}, time x{t_ratio:.0f}; 3 -> 4 players "
        f"(symmetric): states x{s_ratio_sym:.0f}, time x{t_ratio_sym:.0f}. Time grows with the goal as g^"
        + ", g^".join(f"{s:.1f} (n = {n})" for n, s in slopes.items())
        + " (states x thresholds would be g^(n+1); numpy vectorisation flattens small sizes)"
    )
    out = [
        Row(
            "Z23.18",
            SOURCE,
            "cost of an n-player best response",
            "O(100^n)",
            f"x{t_ratio:.0f} per player at goal 100",
            REPRODUCED if consistent else DIFFERS,
            note,
        )
    ]
    lines = [
        "| players | goal | solver | states solved | goal^n | seconds | peak MB |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['players']} | {r['goal']} | {r['solver']} | {r['states']:,} | {r['full_states']:,} | {r['seconds']:.2f} | {r['peak_mb']:.0f} |"
        )
    md = (
        'Exact best response against identical "hold at goal/4" opponents (times from the first run; cached).\n\n'
        + "\n".join(lines)
    )
    print_rows(out)
    return out, md


if __name__ == "__main__":
    main()
