"""N.5 - N.8 — the optimal player's advantage over practical policies (one die, goal 100).

Neller & Presser, slides "Hold at n": "n = 25 -> optimal advantage = 4.2%; n = 20 -> optimal
advantage = 8.0%"; "t Scoring Turns": "t = 4 -> optimal advantage = 3.3%"; "Score Base, Keep
Pace, End Race": "b = 19, p = 14, and e = 31 -> optimal advantage = 1.9%"; "Keep Pace and End
Race": "c = 21, d = 8, e = 29, and rounding division for hold value -> optimal advantage =
0.922%".

The advantage is the optimal player's average win probability (first and second, Algorithm 1)
minus the other player's: 2 * average - 1. Computed exactly (level-by-level solution of the
policy-comparison equations; "t scoring turns" keeps a count of scoring turns in the state).
"""

from __future__ import annotations

from analyses._claims import Row, numeric
from pigtheory import Rules, hold_at
from pigtheory.sequential import base_pace_race, compare, pace_race, scoring_turns, solve

SOURCE = "Neller & Presser, slides"
CASES = [
    ("N.5", "hold at 25", hold_at(25), 0.042, 5e-4),
    ("N.5", "hold at 20", hold_at(20), 0.080, 5e-4),
    ("N.6", "t scoring turns, t = 4", scoring_turns(4), 0.033, 5e-4),
    (
        "N.7",
        "score base, keep pace, end race (b = 19, p = 14, e = 31)",
        base_pace_race(19, 14, 31),
        0.019,
        5e-4,
    ),
    (
        "N.8",
        "keep pace and end race (c = 21, d = 8, e = 29, rounded division)",
        pace_race(21, 8, 29),
        0.00922,
        5e-6,
    ),
]
CLAIMS = [(cid, SOURCE, paper, tol) for cid, _, _, paper, tol in CASES]


def main() -> tuple[list[Row], str]:
    rules = Rules()
    opt = solve(rules=rules)
    rows, lines = (
        [],
        ["| policy | optimal first | optimal second | average | advantage |", "|---|---|---|---|---|"],
    )
    for cid, name, policy, paper, tol in CASES:
        c = compare(opt, policy, rules=rules)
        adv = 2 * c.average - 1
        rows.append(
            numeric(
                cid,
                SOURCE,
                f"optimal advantage over {name}",
                paper,
                adv,
                tol,
                digits=5,
                note="advantage = 2 x average - 1, exact",
            )
        )
        lines.append(f"| {name} | {c.first:.5f} | {c.second:.5f} | {c.average:.5f} | {100 * adv:.3f}% |")
    return rows, "\n".join(lines)


if __name__ == "__main__":
    from analyses._claims import print_rows

    print_rows(main()[0])
