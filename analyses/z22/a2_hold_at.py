"""Z22.2, Z22.3 — two-dice Pig: the optimal policy against "hold at n", n = 10..35.

Zhu & Ma, Stats 5 (2022), Table A2: "Here the 'hold at 23' is the best choice with the
average winning chance against the optimal strategy being 0.4747 (= 1 - 0.5253)"; abstract:
"'hold at 23' is the best choice, with the average winning chance against the optimal
strategy being 0.4747".
"""

from __future__ import annotations

from typing import Any

from analyses._claims import Row, numeric
from analyses.z22._common import SOURCE, TABLE_A2, TWO, optimal_vs_hold_at, table_rows

CLAIMS = [
    ("Z22.2", "Table A2", "78 entries; best n = 23, average 0.5253", 5e-5),
    ("Z22.3", "abstract", 0.4747, 5e-5),
]


def main(executor: Any = None) -> tuple[list[Row], str]:
    rows = optimal_vs_hold_at(TWO, executor=executor)
    out, md, hold_avg, tol = table_rows(
        "Z22.2", SOURCE + ", Table A2", "two dice", rows, TABLE_A2, 23, 0.5253
    )
    out.append(
        numeric(
            "Z22.3",
            SOURCE + ", abstract",
            "hold at 23's average win against optimal",
            0.4747,
            hold_avg,
            tol,
            note="1 - the Table A2 average; same tolerance",
        )
    )
    return out, "Optimal vs hold at n, standard two-dice Pig, goal 100 (ours to 5 digits):\n\n" + md


if __name__ == "__main__":
    from analyses._claims import print_rows

    print_rows(main()[0])
