"""Z22.6 — Double Trouble: past the goal after a double the turn total no longer matters.

Zhu & Ma, Stats 5 (2022), section 4: "as long as i + k >= 100, the probability of winning
with the next roll for a state (i, j, k, 1) does not depend on the exact value of k", giving
the boundary condition "P(i, j, k, 1) = (20 + 10 (1 - P(j, i, 0, 0)) + (1 - P(j, 0, 0, 0))) / 31,
for i + k >= 100".

We check it by solving Double Trouble twice: with the paper's boundary, and following the
forced rolls explicitly for 150 points past the goal (a double needs at least 4 points, so
what is cut off needs ~13 more doubles in a row, probability ~(5/36)^13 ~ 1e-11 per state,
and far less in value).
"""

from __future__ import annotations

import numpy as np

from analyses._claims import Row, exact, numeric, tiny
from analyses.z22._common import DT, SOURCE
from pigtheory.sequential.cache import cached_solve
from pigtheory.sequential.two_dice import solve_two_dice

CLAIMS = [("Z22.6", "section 4, eq. (6)", "boundary P(i,j,k,1) for i + k >= goal", 1e-12)]


def main() -> tuple[list[Row], str]:
    a = cached_solve(rules=DT)
    b = solve_two_dice(rules=DT, tol=1e-12, explicit_tail=150)
    diff = float(np.nanmax(np.abs(a.value - b.value)))
    same_policy = bool(np.array_equal(a.roll, b.roll))
    rows = [
        numeric(
            "Z22.6",
            SOURCE + ", section 4",
            "boundary value of (i, j, k, 1), i + k >= goal: largest value difference vs following the forced rolls",
            0.0,
            diff,
            1e-10,
            note="Double Trouble, goal 100; both solves iterated to 1e-12",
        ),
        exact(
            "Z22.6",
            SOURCE + ", section 4",
            "same optimal policy with the boundary as with explicit forced rolls",
            True,
            same_policy,
        ),
    ]
    # the difference is rounding level (a certificate): print the bound, not machine-dependent digits
    rows[0].ours = tiny(diff, digits=4)
    md = (
        "The argument holds. Two typos in the paper's Double Trouble equations are not followed: its hold value "
        "`P(i,j,k,0,hold) = 1 - P(j,i,0,0)` must read `1 - P(j,i+k,0,0)` (holding banks the turn total), and its "
        "boundary `P(i,j,k,0) = 0` for `i + k >= 100` must be 1 (the player holds and wins)."
    )
    return rows, md


if __name__ == "__main__":
    from analyses._claims import print_rows

    print_rows(main()[0])
