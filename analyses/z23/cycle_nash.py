"""The two cyclic policies against each other and against "hold at 25"; Table 3 (claims
Z23.8, Z23.10, Z23.11).

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), "Mixed-strategy equilibrium":

* Z23.8: "For state (0, 0) which is at beginning of the game, the winning probability of one
  against the other is very close to 0.5, with error less than 10^-6."
* Z23.10: "if we use either pi_l1 or pi_l2 against 'hold at 25' strategy [...] the winning
  rate is 0.5192".
* Z23.11: Table 3, payoffs (0.5, 0.5) on the diagonal and (1, 0) off it ("preferred by value
  iteration"), and "the mixed-strategy equilibrium is (P(pi_l1) = 0.5, P(pi_l1) = 0.5)".

Ours: the cycle of :func:`pigtheory.simultaneous.self_play` (paper's order), exact win
probabilities (:func:`pigtheory.simultaneous.win_probability`), and
:func:`pigtheory.simultaneous.cycle_nash` (nashpy support enumeration and linear program) on
both the paper's "preferred" matrix and the real matrix of win probabilities.
"""

from __future__ import annotations

import numpy as np

from analyses._claims import Row, exact, fmt, numeric, print_rows
from analyses.z23._equilibrium_data import RULES, self_play_data
from pigtheory import hold_at
from pigtheory.simultaneous import win_probability
from pigtheory.simultaneous.two_player.nash import is_equilibrium, support_enumeration, zero_sum_lp

SOURCE = "Zhu et al. 2023 (Sci. Rep.), Mixed-strategy equilibrium"
HALF, ERROR = 0.5, 1e-6
VS_HOLD_25 = 0.5192
TABLE_3_EQ = (0.5, 0.5)

CLAIMS = [
    ("Z23.8", SOURCE, HALF, ERROR),
    ("Z23.10", SOURCE, VS_HOLD_25, 5e-5),
    ("Z23.11", SOURCE + ", Table 3", TABLE_3_EQ, 1e-9),
]


def main() -> tuple[list[Row], str]:
    cycle = list(self_play_data().cycle)
    real = np.array([[win_probability(a, b, rules=RULES)[0, 0] for b in cycle] for a in cycle])
    off = [real[0, 1], real[1, 0]]
    rows = [
        numeric(
            "Z23.8",
            SOURCE,
            "one cyclic policy against the other at (0, 0)",
            HALF,
            off[0],
            ERROR,
            digits=7,
            note=f"the other way round {off[1]:.7f}",
        ),
    ]
    h25 = [float(win_probability(p, hold_at(25), rules=RULES)[0, 0]) for p in cycle]
    for n, v in enumerate(h25, 1):
        rows.append(
            numeric(
                "Z23.10",
                SOURCE,
                f"cyclic policy {n} against hold at 25",
                VS_HOLD_25,
                v,
                5e-5,
                note="exact evaluation; the paper's 0.5192 is 1e-4 above both"
                if abs(v - VS_HOLD_25) > 5e-5
                else "",
            )
        )
    preferred = np.array([[0.5, 1.0], [1.0, 0.5]])
    pref_eq = support_enumeration(preferred, 1e-9)
    pref_lp = zero_sum_lp(preferred)
    ok = len(pref_eq) == 1 and all(np.allclose(s, [0.5, 0.5]) for s in pref_eq[0] + pref_lp)
    rows.append(
        exact(
            "Z23.11",
            SOURCE + ", Table 3",
            "mixed equilibrium of the 'preferred' payoff matrix (P(pi_l1) for A, B)",
            TABLE_3_EQ,
            tuple(float(s[0]) for s in pref_eq[0]) if ok else "none",
            note="nashpy support enumeration (the only equilibrium) and linear program agree",
        )
    )
    real_eq = support_enumeration(real, 1e-12)
    real_lp = zero_sum_lp(real)
    rows.append(
        Row(
            "Z23.11",
            SOURCE + ", Table 3",
            "equilibrium of the game between the two cycle policies with exact win probabilities as "
            "payoffs (P(pi_1) for A, B)",
            "(0.5, 0.5)",
            "; ".join(f"({fmt(float(r[0]))}, {fmt(float(c[0]))})" for r, c in real_eq),
            "differs",
            "with exact win probabilities the cycle game is not Table 3: policy 2 beats policy 1 by "
            f"{real[1, 0] - 0.5:.2e}, so both players pick it (a pure equilibrium, P(pi_1) = 0); LP agrees: "
            f"{np.round(real_lp[0], 9).tolist()}; checked with tolerance: {all(is_equilibrium(real, r, c, 1e-12) for r, c in real_eq)}",
        )
    )
    md = (
        "Real cycle game (row policy's win probability from (0, 0)):\n\n"
        f"| | policy 1 | policy 2 |\n|---|---|---|\n| policy 1 | {real[0, 0]:.10f} | {real[0, 1]:.10f} |\n"
        f"| policy 2 | {real[1, 0]:.10f} | {real[1, 1]:.10f} |\n\n"
        f"Against hold at 25: {h25[0]:.6f} and {h25[1]:.6f}."
    )
    return rows, md


if __name__ == "__main__":
    r, md = main()
    print_rows(r)
    print(md)
