"""Z22.1 — first player's win probability in two-dice Pig, both optimal, goals 80..200.

Zhu & Ma, Stats 5 (2022), Table A1: "80: 0.5245, 90: 0.5218, 100: 0.5196, 110: 0.5176,
120: 0.5159, 130: 0.5144, 140: 0.5130, 150: 0.5119, 160: 0.5108, 180: 0.5091, 200: 0.5076";
the text of section 3 says instead "When the goal is 100, the winning probability for
Player A is 52.18%" (Table A1's value for goal 90).
"""

from __future__ import annotations

from typing import Any

from analyses._claims import Row, numeric
from analyses.z22._common import SOURCE, first_player_wins

TABLE_A1 = {80: 0.5245, 90: 0.5218, 100: 0.5196, 110: 0.5176, 120: 0.5159, 130: 0.5144,
            140: 0.5130, 150: 0.5119, 160: 0.5108, 180: 0.5091, 200: 0.5076}  # fmt: skip
CLAIMS = [("Z22.1", "Table A1", TABLE_A1, 5e-5), ("Z22.1", "section 3 text, goal 100", 0.5218, 5e-5)]
TOL = 1e-10  # sweeps stop below this change; ample for four digits


def first_player(goal: int) -> tuple[float, int, float]:
    return first_player_wins([goal], tol=TOL)[goal]


def main(executor: Any = None) -> tuple[list[Row], str]:
    rows, lines = [], ["| goal | paper | ours | sweeps | residual |", "|---|---|---|---|---|"]
    ours = {}
    solved = first_player_wins(TABLE_A1, tol=TOL, executor=executor)
    for goal, paper in TABLE_A1.items():
        p, it, res = solved[goal]
        ours[goal] = p
        rows.append(
            numeric(
                "Z22.1",
                SOURCE + ", Table A1",
                f"first player's win, both optimal, goal {goal}",
                paper,
                p,
                5e-5,
            )
        )
        lines.append(f"| {goal} | {paper:.4f} | {p:.6f} | {it} | {res:.1e} |")
    rows.append(
        numeric(
            "Z22.1",
            SOURCE + ", section 3",
            "text: first player's win at goal 100 is 52.18%",
            0.5218,
            ours[100],
            5e-5,
            note="the text contradicts the paper's own Table A1 (0.5196 at goal 100, 0.5218 is its goal-90 entry); we reproduce the table",
        )
    )
    md = "Whole-turn value iteration (`pigtheory.sequential.solve`, tol 1e-10), cached.\n\n" + "\n".join(
        lines
    )
    return rows, md


if __name__ == "__main__":
    from analyses._claims import print_rows

    print_rows(main()[0])
