"""S.1, S.2 — Super Six, two players, 7 sticks: the optimal strategy.

Höhle, "Dynamic programming for Super Six gameplay" (blog, 2023): the 20-row table of the
states with at least 3 sticks in the lid (i, j, k, l, value, strategy, prob), e.g.
"5 1 1 0 0.09741652 FALSE 0.5487083"; and "The optimal strategy for a two player game is thus
to continue as long as only three pits are filled. If four slots are filled, one would only
continue, if the situation is 4/1/1. If 5 pits are filled, one should always stop".
"""

from __future__ import annotations

from analyses._claims import DIFFERS, REPRODUCED, Row, exact, tiny
from pigtheory.sequential.super_six import super_six

SOURCE = "Höhle, Super Six blog (2023)"
# (i, j, k, l): (value, continue, prob), as printed
PAPER = {
    (5, 1, 1, 1): (-0.09741652, True, 0.4512917), (5, 1, 1, 0): (0.09741652, False, 0.5487083),
    (4, 2, 1, 1): (-0.36297663, True, 0.3185117), (4, 2, 1, 0): (-0.31689982, False, 0.3415501),
    (4, 1, 2, 1): (0.31689982, True, 0.6584499), (4, 1, 2, 0): (0.36297663, False, 0.6814883),
    (4, 1, 1, 1): (0.04845936, True, 0.5242297), (4, 1, 1, 0): (0.04845936, True, 0.5242297),
    (3, 3, 1, 1): (-0.52748432, True, 0.2362578), (3, 3, 1, 0): (-0.52748432, True, 0.2362578),
    (3, 2, 2, 1): (0.02465027, True, 0.5123251), (3, 2, 2, 0): (0.02465027, True, 0.5123251),
    (3, 2, 1, 1): (-0.27737920, True, 0.3613104), (3, 2, 1, 0): (-0.27737920, True, 0.3613104),
    (3, 1, 3, 1): (0.58093392, True, 0.7904670), (3, 1, 3, 0): (0.58093392, True, 0.7904670),
    (3, 1, 2, 1): (0.42731097, True, 0.7136555), (3, 1, 2, 0): (0.42731097, True, 0.7136555),
    (3, 1, 1, 1): (0.22509739, True, 0.6125487), (3, 1, 1, 0): (0.22509739, True, 0.6125487),
}  # fmt: skip
CLAIMS = [("S.1", "table", PAPER, 5e-8), ("S.2", "strategy description", True, 0)]


def main() -> tuple[list[Row], str]:
    sol = super_six(7)
    table = sol.table()
    lines = [
        "| i j k l | paper value | ours | paper strategy | ours | paper prob | ours |",
        "|---|---|---|---|---|---|---|",
    ]
    agree, worst = 0, 0.0
    for i, j, k, forced, value, throw, prob in table:
        pv, pt, pp = PAPER[i, j, k, forced]
        err = max(abs(value - pv), abs(prob - pp))
        worst = max(worst, err)
        agree += err <= 5e-8 and throw == pt
        lines.append(
            f"| {i} {j} {k} {forced} | {pv:.8f} | {value:.8f} | {pt} | {throw} | {pp:.7f} | {prob:.7f} |"
        )
    s1 = Row(
        "S.1",
        SOURCE,
        "the 20 states with >= 3 sticks in the lid: value, strategy, win probability",
        "20 rows",
        f"{agree}/20 rows equal (largest difference {worst:.1e})",
        REPRODUCED if agree == len(PAPER) == len(table) else DIFFERS,
        f"value iteration (Gauss-Seidel) to {tiny(sol.residual, digits=1)}, {sol.iterations} sweeps",
    )
    free = [(i, j, k) for i, j, k, flag, *_ in sol.table(0) if flag == 0]
    described = all(
        bool(sol.policy[i, j, k, 0]) == (i <= 3 or (i == 4 and (j, k) == (1, 1))) for i, j, k in free
    )
    s2 = exact(
        "S.2",
        SOURCE,
        "continue with <= 3 pits filled; with 4 only at 4/1/1; with 5 always stop",
        True,
        described,
        note=f"checked at all {len(free)} free states with at most 7 sticks",
    )
    return [s1, s2], "\n".join(lines)


if __name__ == "__main__":
    from analyses._claims import print_rows

    print_rows(main()[0])
