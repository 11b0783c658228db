"""Three players, both opponents independent (claims Z23.15, Z23.16).

Zhu, Ma, Chen & Liu, "Optimal strategy of the simultaneous dice game Pig for multiplayers",
Scientific Reports 13 (2023), "Three players with independent strategies" (eqs. 18-19,
Algorithm 0.3):

* Z23.15: "if pi_B1 = pi_B2 = 25, i.e. both two opponents adopt the 'hold at 25' strategy, the
  winning probability of the corresponding optimal strategy for player A is 35.90%."
* Z23.16: "If pi_B1 = 20 and pi_B2 = 30, the winning probability for player A adopting the
  corresponding optimal strategy increases to 39.55%."

Ours: :func:`pigtheory.simultaneous.best_response` (exact backward induction over the score
DAG, the separable fast path; checked against the generic solver in the tests), value at
(0, 0, 0). A percentage printed to 2 decimals is reproduced within 0.005 points (5e-5).
"""

from __future__ import annotations

from analyses._claims import numeric, print_rows, timed
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import best_response, win_probability

SOURCE = "Zhu et al. 2023 (Sci. Rep.), Three players with independent strategies"
TOL = 5e-5
CLAIMS = [
    ("Z23.15", SOURCE, 0.3590, TOL),
    ("Z23.16", SOURCE, 0.3955, TOL),
]


def main():
    rules = Rules(players=3)
    rows, lines = [], []
    cases = {"Z23.15": (25, 25), "Z23.16": (20, 30)}
    for cid, source, paper, tol in CLAIMS:
        n1, n2 = cases[cid]
        with timed(f"{cid}: 3-player best response to hold at {n1} and {n2}"):
            sol = best_response([hold_at(n1), hold_at(n2)], rules=rules)
        ours = float(sol.value[0, 0, 0])
        plain = float(win_probability(hold_at(25), [hold_at(n1), hold_at(n2)], rules=rules)[0, 0, 0])
        rows.append(
            numeric(
                cid,
                source,
                f"3 players, opponents hold at {n1} and {n2}: best-response win probability",
                paper,
                ours,
                tol,
                note=f"first threshold {int(sol.policy[0, 0, 0])}",
            )
        )
        lines.append(f"| {n1}, {n2} | {ours:.6f} | {int(sol.policy[0, 0, 0])} | {plain:.6f} |")
    md = "\n".join(
        [
            'Best response of player A at (0, 0, 0) against two "hold at n" opponents, exact.',
            "",
            "| opponents hold at | best response | its threshold at (0, 0, 0) | A holding at 25 instead |",
            "|---|---|---|---|",
            *lines,
        ]
    )
    print_rows(rows)
    return rows, md


if __name__ == "__main__":
    main()
