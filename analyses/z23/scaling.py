"""Cost of the n-player best response (claim Z23.18).

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), paragraph after Algorithm 0.3: "the
computational costs increase as the number of players increases, with the computational
complexity being O(100^n), where n is the number of players."

Ours: one exact best response (opponents hold at goal / 4) per (players, goal), with the full
state space and with the symmetric (multiset) one (``analyses/z23/_scaling_data.py``). The
report gives what does not depend on the machine: the states solved (goal^n score tuples, or
goal times the multisets of the opponents' scores), the candidate thresholds compared (at own
score i the player compares the g - i turn totals 1..g - i: g (g + 1) / 2 per column of
opponents' scores, so the work is of order g^(n+1), 100 times more per added player at goal
100, as the paper says, divided by about (n - 1)! when the opponents play the same policy) and
the memory estimate of :func:`pigtheory.guard.reduced_estimate`. The measured wall-clock and CPU
times and peak memory of the same solves (each in a fresh process) go to the git-ignored
``analyses/TIMINGS.md``.
"""

from __future__ import annotations

import numpy as np

from analyses._claims import DIFFERS, REPRODUCED, Row, print_rows, record_table
from analyses.z23._scaling_data import measurements
from pigtheory import Rules
from pigtheory.guard import reduced_estimate

SOURCE = "Zhu et al. 2023 (Sci. Rep.), Three players ... (4 and n players)"
CLAIMS = [("Z23.18", SOURCE, "O(100^n)", None)]


def counted(rows: list[dict]) -> list[dict]:
    """Each row with its machine-independent costs: ``candidates`` (thresholds compared) and
    ``memory_mb`` (the guard's estimate, MiB)."""
    out = []
    for r in rows:
        g = r["goal"]
        columns, rem = divmod(r["states"], g)  # non-terminal states: g own scores x columns
        if rem:
            raise ValueError(f"states {r['states']} is not a multiple of the goal {g}")
        est = reduced_estimate(Rules(goal=g, players=r["players"]), symmetric=r["solver"] == "symmetric")
        out.append({**r, "candidates": columns * g * (g + 1) // 2, "memory_mb": est.bytes / 2**20})
    return out


def _find(rows, players, goal, solver):
    return next((r for r in rows if (r["players"], r["goal"], r["solver"]) == (players, goal, solver)), None)


def main():
    rows = counted(measurements())
    full2, full3 = _find(rows, 2, 100, "full"), _find(rows, 3, 100, "full")
    sym3, sym4 = _find(rows, 3, 100, "symmetric"), _find(rows, 4, 100, "symmetric")
    full_exact = all(r["states"] == r["full_states"] for r in rows if r["solver"] == "full")
    s_ratio = full3["states"] / full2["states"]
    w_ratio = full3["candidates"] / full2["candidates"]
    s_ratio_sym = sym4["states"] / sym3["states"]
    ok = full_exact and s_ratio == 100 and w_ratio == 100
    note = (
        f"Counted, not timed: the full solver solves exactly goal^n non-terminal states ({'yes' if full_exact else 'NO'} "
        f"for all {sum(r['solver'] == 'full' for r in rows)} full solves) and compares goal (goal + 1) / 2 candidate "
        f"thresholds per column of opponents' scores, so the work is goal^n (goal + 1) / 2 = O(100^(n+1)) "
        f"operations in O(100^n) memory at goal 100. At goal 100, 2 -> 3 players (full): states x{s_ratio:.0f}, "
        f"candidates x{w_ratio:.0f}; 3 -> 4 players (symmetric, identical opponents): states x{s_ratio_sym:.1f} "
        f"(about 100 / 3 by the multisets), {sym4['states']:,} states and an estimated {sym4['memory_mb']:,.0f} MiB for "
        f"4 players. Measured times and memory: analyses/TIMINGS.md (not under version control)"
    )
    out = [
        Row(
            "Z23.18",
            SOURCE,
            "cost of an n-player best response",
            "O(100^n)",
            f"states = 100^n, work = 100^n x 50.5 (x{s_ratio:.0f} per player)",
            REPRODUCED if ok else DIFFERS,
            note,
        )
    ]
    lines = [
        "| players | goal | solver | states solved | goal^n | candidate thresholds | memory estimate MiB |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['players']} | {r['goal']} | {r['solver']} | {r['states']:,} | {r['full_states']:,} | "
            f"{r['candidates']:,} | {r['memory_mb']:,.1f} |"
        )
    md = (
        'Exact best response against identical "hold at goal/4" opponents: states solved, candidate '
        "thresholds compared and the memory estimate of `pigtheory.guard` (machine-independent; the "
        "measured times and memory are in `analyses/TIMINGS.md`).\n\n" + "\n".join(lines)
    )
    record_table("Cost of one exact best response (analyses/z23/scaling.py)", measured_table(rows))
    print_rows(out)
    return out, md


def measured_table(rows: list[dict]) -> str:
    """The measured times and peak memory, and how CPU time grows with the states (this machine)."""
    big = [r for r in rows if r["states"] >= 1e5 and r["cpu_seconds"] > 0]
    slope = (
        float(np.polyfit(np.log([r["states"] for r in big]), np.log([r["cpu_seconds"] for r in big]), 1)[0])
        if len(big) >= 2
        else float("nan")
    )
    lines = [
        f"CPU time grows like states^{slope:.2f} over the {len(big)} solves with >= 1e5 states "
        "(each solve in a fresh process; cached, so the times are those of the run that filled the cache).",
        "",
        "| players | goal | solver | states solved | wall s | CPU s | peak RSS MB (before solve) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['players']} | {r['goal']} | {r['solver']} | {r['states']:,} | {r['seconds']:.2f} | "
            f"{r['cpu_seconds']:.2f} | {r['peak_mb']:.0f} ({r['base_mb']:.0f}) |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
