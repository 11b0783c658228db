"""V.1, V.2 — one player alone: turns to reach 100 holding at n.

Poster "Pig: a dice game of strategic chance" (Veliz, 2024), "Results of different 'hold'
thresholds", single-player heuristic strategy, n = 100,000 simulated games: threshold, mean,
median, "variance" for 17..26, e.g. "20 12.61 12 4.43"; heuristic: "E(X R) = 5 * 4 = 20 ...
'Roll' while T < 20; 'Hold' when T >= 20".

Ours are exact (absorbing Markov chain over the player's score,
:func:`pigtheory.length.single_player`). The poster's "variance" column matches our standard
deviation (the variance is its square, ~16-29 turns^2), so it is compared with the sd.
"""

from __future__ import annotations

import math
from fractions import Fraction

from analyses._claims import Row, exact, numeric
from pigtheory import turn_total
from pigtheory.length import single_player

SOURCE = "Veliz poster (2024)"
GAMES = 100_000
PAPER = {17: (13.06, 12, 4.03), 18: (12.96, 12, 4.25), 19: (12.64, 12, 4.38), 20: (12.61, 12, 4.43),
         21: (12.80, 12, 4.58), 22: (13.00, 12, 4.81), 23: (12.96, 12, 5.06), 24: (12.73, 12, 5.23),
         25: (12.70, 12, 5.28), 26: (12.80, 12, 5.39)}  # fmt: skip
CLAIMS = [("V.1", "results table", PAPER, "4 MC SE + 0.005"), ("V.2", "heuristic strategy", 20, 0)]


def main() -> tuple[list[Row], str]:
    rows = []
    lines = [
        "| n | paper mean | ours | paper median | ours | paper 'variance' | our sd | our variance |",
        "|---|---|---|---|---|---|---|---|",
    ]
    worst_z = 0.0
    for n, (mean_p, med_p, var_p) in PAPER.items():
        d = single_player(n)
        se_m, se_sd = d.sd / math.sqrt(GAMES), d.sd / math.sqrt(2 * GAMES)
        rows.append(
            numeric(
                "V.1",
                SOURCE,
                f"hold at {n}: mean turns to 100",
                mean_p,
                d.mean,
                4 * se_m + 0.005,
                note=f"exact; a 1e5-game mean has SE {se_m:.3f}",
            )
        )
        rows.append(exact("V.1", SOURCE, f"hold at {n}: median turns", med_p, d.median))
        rows.append(
            numeric(
                "V.1",
                SOURCE,
                f"hold at {n}: 'variance' (compared with our sd)",
                var_p,
                d.sd,
                4 * se_sd + 0.005,
                note=f"the column labelled variance is the standard deviation (our variance is {d.variance:.2f}); exact sd; SE of a 1e5-game sd ~{se_sd:.3f}",
            )
        )
        worst_z = max(worst_z, abs(d.mean - mean_p) / se_m)
        lines.append(
            f"| {n} | {mean_p:.2f} | {d.mean:.3f} | {med_p} | {d.median} | {var_p:.2f} | {d.sd:.3f} | {d.variance:.2f} |"
        )
    means = {k: turn_total(k, exact=True).mean() for k in range(15, 26)}
    best = max(means.values())
    argmax = sorted(k for k, m in means.items() if m == best)
    rows.append(
        exact(
            "V.2",
            SOURCE,
            "threshold that maximises the expected points of a turn, E[X_k]",
            20,
            argmax[0],
            note=f"exact: E[X_k] is largest at k in {argmax} (E = {Fraction(best)} = {float(best):.4f}); "
            "rolling at turn total t gains 20/6 - t/6 in expectation, zero at t = 20, so holding at 20 and at 21 tie",
        )
    )
    md = (
        "Exact single-player turn counts, goal 100 (means within "
        f"{worst_z:.1f} standard errors of the poster's 1e5-game estimates):\n\n" + "\n".join(lines)
    )
    return rows, md


if __name__ == "__main__":
    from analyses._claims import print_rows

    print_rows(main()[0])
