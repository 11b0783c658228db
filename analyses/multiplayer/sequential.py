"""M.1 - M.6 — Multiplayer sequential Pig: stationary equilibria for 2 to 6 players (extension).

No paper has these numbers: Neller & Presser solved two players; Zhu & Ma (Stats 2022, last
paragraph) name "the optimal play strategies for multiple-player Pig games" as their next
step. :func:`pigtheory.sequential.equilibrium` solves the game rotation group by rotation group
(mixed where best responses cycle) and certifies the result (one-shot deviation gains,
NashConv). With two players the result is Neller & Presser's (0.5306 at goal 100).
"""

from __future__ import annotations

import numpy as np

from analyses._claims import EXTENSION, Row, tiny
from analyses.multiplayer._sequential_data import (
    COMMON_GOAL,
    GOALS,
    non_threshold_tuples,
    passing_states,
    solved,
)

SOURCE = "extension (Zhu & Ma 2022, last paragraph: multiplayer Pig open)"
CLAIMS = [
    ("M.1", SOURCE, "P(win) by seat at the start, n = 2..6", None),
    ("M.2", SOURCE, "first player's opening hold threshold by n", None),
    ("M.3", SOURCE, "groups that mix (3 players, goals 50 and 100)", None),
    ("M.4", SOURCE, "groups with several equilibria found", None),
    ("M.5", SOURCE, "is passing ever used (allow_pass)", None),
    ("M.6", SOURCE, "states where the policy is no threshold in the turn total", None),
]


def _fmt(v) -> str:
    return "(" + ", ".join(f"{x:.4f}" for x in v) + ")"


def main() -> tuple[list[Row], str]:
    rows, details = (
        [],
        [
            "| players | goal | P(win) by seat | opening threshold | mixed groups | several | NashConv |",
            "|---|---|---|---|---|---|---|",
        ],
    )
    seats, thresholds, common = [], [], []
    for n, goal in GOALS.items():
        eq = solved(n, goal)
        seats.append(f"n={n} goal {goal}: {_fmt(eq.start_values)}")
        thresholds.append(f"n={n}: {eq.opening_threshold} (goal {goal})")
        details.append(
            f"| {n} | {goal} | {_fmt(eq.start_values)} | {eq.opening_threshold} | {len(eq.mixed_groups)} | "
            f"{len(eq.several_groups)} | {tiny(eq.nash_conv)} |"
        )
        print(details[-1])
        c = solved(n, COMMON_GOAL)
        common.append(f"n={n}: first {c.start_values[0]:.4f} vs fair {1 / n:.4f}")
    rows.append(
        Row(
            "M.1",
            SOURCE,
            CLAIMS[0][2],
            "-",
            "; ".join(seats),
            EXTENSION,
            f"at the common goal {COMMON_GOAL}: " + "; ".join(common),
        )
    )
    rows.append(
        Row(
            "M.2",
            SOURCE,
            CLAIMS[1][2],
            "-",
            "; ".join(thresholds),
            EXTENSION,
            "two players at goal 100: Neller & Presser's optimal policy",
        )
    )
    e50, e100 = solved(3, 50), solved(3, 100)
    where = ", ".join(str(tuple(int(x) for x in t)) for t in e100.mixed_groups[:8])
    rows.append(
        Row(
            "M.3",
            SOURCE,
            CLAIMS[2][2],
            "-",
            f"goal 50: {len(e50.mixed_groups)}; goal 100: {len(e100.mixed_groups)}",
            EXTENSION,
            f"goal 100, e.g. {where}, ...; largest deviation gain {tiny(np.max(e100.deviation_gain))}, "
            f"NashConv {tiny(e100.nash_conv)}; mixing probabilities enclosed by Krawczyk's test in arb",
        )
    )
    rows.append(
        Row(
            "M.4",
            SOURCE,
            CLAIMS[3][2],
            "-",
            f"3 players goal 50: {len(e50.several_groups)}; goal 100: {len(e100.several_groups)}",
            EXTENSION,
            "the pick: pure before mixed, then the fewest rolling states",
        )
    )
    p50 = solved(3, 50, allow_pass=True)
    used = passing_states(p50)
    same = float(np.max(np.abs(p50.value - e50.value)))
    rows.append(
        Row(
            "M.5",
            SOURCE,
            CLAIMS[4][2],
            "-",
            f"3 players goal 50: passes at {used} score tuples",
            EXTENSION,
            f"largest change of a value against no passing: {tiny(same)}",
        )
    )
    nt = {n: non_threshold_tuples(solved(n, GOALS[n])) for n in (2, 3)}
    rows.append(
        Row(
            "M.6",
            SOURCE,
            CLAIMS[5][2],
            "-",
            "; ".join(f"n={n} goal {GOALS[n]}: {v} score tuples" for n, v in nt.items()),
            EXTENSION,
            "tuples where the mover holds at some turn total and rolls at a larger one",
        )
    )
    for r in rows:
        print(r.id, r.ours, "|", r.note)
    return rows, "\n".join(details)


if __name__ == "__main__":
    main()
