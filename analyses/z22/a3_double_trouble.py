"""Z22.4 — Double Trouble: the optimal policy against "hold at n", n = 10..35.

Zhu & Ma, Stats 5 (2022), Table A3: "Here the 'hold at 18' is the best choice with the
average winning chance against the optimal strategy being 0.4733 (= 1 - 0.5267)".
"""

from __future__ import annotations

from typing import Any

from analyses._claims import Row, numeric
from analyses.z22._common import DT, SOURCE, TABLE_A3, optimal_vs_hold_at, table_rows

CLAIMS = [("Z22.4", "Table A3", "78 entries; best n = 18, average 0.5267 (0.4733)", 5e-5)]


def main(executor: Any = None) -> tuple[list[Row], str]:
    rows = optimal_vs_hold_at(DT, executor=executor)
    out, md, hold_avg, tol = table_rows(
        "Z22.4", SOURCE + ", Table A3", "Double Trouble", rows, TABLE_A3, 18, 0.5267
    )
    out.append(
        numeric(
            "Z22.4",
            SOURCE + ", abstract",
            "Double Trouble: hold at 18's average win against optimal",
            0.4733,
            hold_avg,
            tol,
            note="1 - the Table A3 average; same tolerance",
        )
    )
    return out, "Optimal vs hold at n, Double Trouble, goal 100 (ours to 5 digits):\n\n" + md


if __name__ == "__main__":
    from analyses._claims import print_rows

    print_rows(main()[0])
