"""Z23.3 and Z23.4: the best response against "hold at n", and the local minima of its win rate.

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), section "Optimal strategy given independent
opponent strategy", Fig. 2 (called Fig. 1 in the text) and Supplementary Table S1:

    "Figure 1 indicates that n = 25 is the best scenario as the winning probability of the
    corresponding optimal strategy is the lowest among all these choices of n, but the winning
    rate is still above 50%. One interesting fact is that there are several local minimums,
    namely n = 16, 20, 25, 33, which are exactly 100/6, 100/5, 100/4, 100/3."

and, in the section on the cyclic policies, "the winning rate of the corresponding optimal
strategy against 'hold at 25' is 0.5231".

Ours: the exact best response (backward induction, the self-loop in closed form) against
``hold_at(n)`` for n = 10..40, goal 100; the value at (0, 0). A local minimum is an n whose value
is strictly below both neighbours'.
"""

from __future__ import annotations

from analyses._claims import DIFFERS, REPRODUCED, Row, exact, numeric, print_rows, tiny
from analyses.z23._equilibrium_data import sweep_data
from pigtheory import hold_at
from pigtheory.simultaneous import best_response

SOURCE = "Z23 Fig. 2 / Table S1"
CLAIMS = [
    ("Z23.3", SOURCE, "best n = 25", 0),
    ("Z23.3", SOURCE, "win rate 0.5231 against hold at 25", 5e-5),
    ("Z23.4", SOURCE, "local minima n = 16, 20, 25, 33", 0),
]
PAPER_BEST_N, PAPER_RATE, PAPER_MINIMA = 25, 0.5231, (16, 20, 25, 33)


def main() -> tuple[list[Row], str]:
    sweep = sweep_data()
    rows = [
        exact("Z23.3", SOURCE, "hardest 'hold at n' to exploit (best n)", PAPER_BEST_N, sweep.best_n),
        numeric(
            "Z23.3",
            SOURCE,
            "best response's win rate at (0, 0) against hold at 25",
            PAPER_RATE,
            sweep.at(25),
            5e-5,
            note=f"ours {sweep.at(25):.6f}",
        ),
    ]
    ours = set(sweep.local_minima)
    for n in PAPER_MINIMA:
        around = ", ".join(f"{m}: {sweep.at(m):.5f}" for m in (n - 1, n, n + 1))
        ok = n in ours
        if not ok:
            # A second, independent method (the paper's own Algorithm 0.1) at the three n.
            vi = [best_response(hold_at(m), method="value_iteration").value[0, 0] for m in (n - 1, n, n + 1)]
            gap = max(abs(v - sweep.at(m)) for v, m in zip(vi, (n - 1, n, n + 1), strict=True))
            nearest = min(ours, key=lambda m: abs(m - n))
        rows.append(
            Row(
                "Z23.4",
                SOURCE,
                f"n = {n} is a local minimum of the curve",
                f"local minimum at {n}",
                f"local minimum at {n}" if ok else "not a local minimum",
                REPRODUCED if ok else DIFFERS,
                ""
                if ok
                else (
                    f"values at n-1, n, n+1 = {around}; our local minimum is at {nearest}. Value "
                    f"iteration (Algorithm 0.1) gives the same values (largest difference {tiny(gap)}); "
                    "the paper's Table S1 numbers are not in the source text, so the cause is unknown"
                ),
            )
        )
    extra = sorted(ours - set(PAPER_MINIMA))
    rows.append(
        Row(
            "Z23.4",
            SOURCE,
            "the set of local minima over n = 10..40",
            ", ".join(map(str, PAPER_MINIMA)),
            ", ".join(map(str, sweep.local_minima)),
            REPRODUCED if tuple(sweep.local_minima) == PAPER_MINIMA else DIFFERS,
            f"ours also: {extra}" if extra else "",
        )
    )
    print_rows(rows)
    md = [
        "Best response's win probability at (0, 0) against B holding at n (goal 100, exact solver);",
        "local minima marked *.",
        "",
        "| n | value | | n | value |",
        "|---|---|---|---|---|",
    ]
    half = (len(sweep.ns) + 1) // 2
    cells = [
        f"{n}{'*' if n in ours else ''} | {v:.6f}"
        for n, v in zip(sweep.ns.tolist(), sweep.value.tolist(), strict=True)
    ]
    for a in range(half):
        b = cells[a + half] if a + half < len(cells) else " | "
        md.append(f"| {cells[a]} | | {b} |")
    return rows, "\n".join(md)


if __name__ == "__main__":
    main()
