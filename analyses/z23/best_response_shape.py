"""Z23.5: the shape of the best response to "hold at 25" (Figs. 3 and 4), made measurable.

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), section "Optimal strategy given independent
opponent strategy", on Figs. 3 and 4 (called Figs. 2 and 3 in the text):

    "the corresponding optimal strategy acts increasingly more aggressively as the opponent
    player B's score approaches 100, especially when player A's score is relatively low. [...]
    There are some 'jump points' which show the significant changes in actions when player A's
    score only perturbs a little. This phenomenon is more obvious when the opponent player B's
    score is closer to 100. [...] Those points are typically around 50 and 75".

Measured on the exact best response to ``hold_at(25)`` at goal 100 (k = the threshold A holds at):

1. *More aggressive as B nears 100, especially for low A:* ``m_low(j)``, the mean k over A's
   scores i < 50, rises with B's score j (Spearman rank correlation > 0.9, and its mean over
   j in 90..99 exceeds that over j in 0..9), and rises more than ``m_high(j)`` (i >= 50) does.
2. *Jumps near A = 50 and 75:* a jump is a one-step rise of k by at least 2 as A's score grows
   (elsewhere k falls or rises by at most 1 per point). Over the curves for B's score 0, 25, 50,
   75 and 90, some jump lies within 5 points of A = 50 and some within 5 points of A = 75.
3. *More obvious as B nears 100:* the largest rise of k in one step grows with B's score over
   0, 25, 50 and 75 (at 90, A already holds at the goal, ``k = 100 - i``, at every score).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import spearmanr

from analyses._claims import DIFFERS, REPRODUCED, Row, print_rows
from pigtheory import hold_at
from pigtheory.simultaneous import best_response

SOURCE = "Z23 Figs. 3-4"
CLAIMS = [
    ("Z23.5", SOURCE, "more aggressive as B nears 100, especially for low A", None),
    ("Z23.5", SOURCE, "jump points near A = 50 and 75", None),
    ("Z23.5", SOURCE, "jumps more obvious as B nears 100", None),
]
B_SCORES = (0, 25, 50, 75, 90)
JUMP = 2


def jumps(column: np.ndarray) -> list[tuple[int, int, int]]:
    """``(i, k before, k at i)`` for every rise of at least ``JUMP`` from score i - 1 to i."""
    d = np.diff(column)
    return [(int(i) + 1, int(column[i]), int(column[i + 1])) for i in np.flatnonzero(d >= JUMP)]


def main() -> tuple[list[Row], str]:
    policy = best_response(hold_at(25)).policy
    g = policy.shape[0]
    js = np.arange(g)
    m_low, m_high = policy[: g // 2].mean(axis=0), policy[g // 2 :].mean(axis=0)
    rho = float(spearmanr(js, m_low).statistic)
    first, last = float(m_low[:10].mean()), float(m_low[-10:].mean())
    rise_low = last - first
    rise_high = float(m_high[-10:].mean() - m_high[:10].mean())
    ok1 = rho > 0.9 and last > first and rise_low > rise_high
    rows = [
        Row(
            "Z23.5",
            SOURCE,
            "more aggressive as B nears 100, especially for low A",
            "qualitative",
            f"mean k (i<50): {first:.1f} at j 0-9 -> {last:.1f} at j 90-99, rank corr {rho:.3f}; "
            f"rise {rise_low:.1f} (i<50) vs {rise_high:.1f} (i>=50)",
            REPRODUCED if ok1 else DIFFERS,
            "k <= 100 - i caps the rise for i >= 50, so part of the contrast is mechanical",
        )
    ]
    per_j = {j: jumps(policy[:, j]) for j in B_SCORES}
    at = sorted({i for js_ in per_j.values() for i, _, _ in js_})
    near50 = [i for i in at if abs(i - 50) <= 5]
    near75 = [i for i in at if abs(i - 75) <= 5]
    elsewhere = [i for i in at if i not in near50 + near75]
    ok2 = bool(near50) and bool(near75)
    listing = "; ".join(
        f"B={j}: " + (", ".join(f"i={i} ({a}->{b})" for i, a, b in per_j[j]) or "none") for j in B_SCORES
    )
    rows.append(
        Row(
            "Z23.5",
            SOURCE,
            "jump points near A = 50 and 75",
            "around 50 and 75",
            f"near 50: {near50}, near 75: {near75}",
            REPRODUCED if ok2 else DIFFERS,
            f"jumps (rise >= {JUMP}): {listing}" + (f"; also elsewhere: {elsewhere}" if elsewhere else ""),
        )
    )
    biggest = {j: int(max(np.diff(policy[:, j]).max(), 0)) for j in B_SCORES}
    seq = [biggest[j] for j in B_SCORES[:4]]
    ok3 = all(a <= b for a, b in zip(seq, seq[1:], strict=False)) and seq[-1] > seq[0]
    rows.append(
        Row(
            "Z23.5",
            SOURCE,
            "jumps more obvious as B nears 100",
            "qualitative",
            "largest one-step rise of k: " + ", ".join(f"B={j}: {biggest[j]}" for j in B_SCORES),
            REPRODUCED if ok3 else DIFFERS,
            "at B=90, A holds at 100 - i everywhere" if np.all(policy[:, 90] == g - js) else "",
        )
    )
    print_rows(rows)
    md = [
        "Mean threshold of the best response to hold at 25, by B's score (deciles), over A's scores",
        "below and above 50:",
        "",
        "| B's score | mean k, i < 50 | mean k, i >= 50 |",
        "|---|---|---|",
    ]
    for b in range(0, g, 10):
        md.append(f"| {b}-{b + 9} | {m_low[b : b + 10].mean():.1f} | {m_high[b : b + 10].mean():.1f} |")
    md += ["", "Thresholds at selected states (A's score i down, B's score across):", ""]
    md.append("| i | " + " | ".join(f"B={j}" for j in B_SCORES) + " |")
    md.append("|---|" + "---|" * len(B_SCORES))
    for i in range(0, g, 5):
        md.append(f"| {i} | " + " | ".join(str(int(policy[i, j])) for j in B_SCORES) + " |")
    return rows, "\n".join(md)


if __name__ == "__main__":
    main()
