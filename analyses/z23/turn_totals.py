"""Turn-total distributions X_k of "hold at k" (claims Z23.1, Z23.2, Z23.19).

Zhu, Ma, Chen & Liu, "Optimal strategy of the simultaneous dice game Pig for multiplayers",
Scientific Reports 13 (2023):

* Z23.1, "Distribution calculation", worked example after eq. (11): the distribution of X_3
  is "7/36, if i in {0, 4, 5, 6}", "1/36, if i = 7", "1/6, if i = 3", "1/36, if i = 8".
* Z23.2, Table 2: "Detailed probability distributions for X_20, X_21, X_22, X_23, X_24, X_25,
  X_100", columns 0, k, k+1, ..., k+5, printed to 4 decimals.
* Z23.19, "Results" (n players): "a player using the strategy 'hold at 100' will have
  1 - 0.9898 = 1.02% chance to win the game in one turn", i.e. P(X_100 >= 100) = 1.02%.

Ours: :func:`pigtheory.turn_total` (exact fractions for Z23.1, the float table otherwise).
A printed 4-decimal cell is reproduced when ours is within 5e-5 of it (half a unit of the last
printed digit); a percentage printed to 2 decimals, within 0.005 percentage points.
"""

from __future__ import annotations

from fractions import Fraction

from analyses._claims import DIFFERS, REPRODUCED, Row, exact, numeric, print_rows
from pigtheory import turn_total, turn_total_table

SOURCE = "Zhu et al. 2023 (Sci. Rep.)"
F = Fraction

# Quoted from the paper (worked example and Table 2); compared, never used as results.
X3_PAPER = {0: F(7, 36), 4: F(7, 36), 5: F(7, 36), 6: F(7, 36), 3: F(1, 6), 7: F(1, 36), 8: F(1, 36)}
TABLE_2 = {
    20: (0.6245, 0.0997, 0.0950, 0.0742, 0.0542, 0.0352, 0.0172),
    21: (0.6412, 0.0950, 0.0908, 0.0708, 0.0518, 0.0338, 0.0166),
    22: (0.6570, 0.0908, 0.0866, 0.0676, 0.0496, 0.0325, 0.0158),
    23: (0.6721, 0.0866, 0.0828, 0.0648, 0.0476, 0.0310, 0.0151),
    24: (0.6866, 0.0828, 0.0792, 0.0620, 0.0454, 0.0296, 0.0144),
    25: (0.7004, 0.0792, 0.0758, 0.0592, 0.0434, 0.0282, 0.0138),
    100: (0.9898, 0.0027, 0.0026, 0.0020, 0.0015, 0.0010, 0.0005),
}
CELL_TOL = 5e-5
WIN_IN_ONE_TURN_PERCENT = 1.02
PERCENT_TOL = 0.005

CLAIMS = [
    ("Z23.1", SOURCE + ", worked example after eq. (11)", X3_PAPER, 0),
    ("Z23.2", SOURCE + ", Table 2", TABLE_2, CELL_TOL),
    ("Z23.19", SOURCE + ", Results (n players)", WIN_IN_ONE_TURN_PERCENT, PERCENT_TOL),
]

_COLUMNS = ("0", "k", "k+1", "k+2", "k+3", "k+4", "k+5")


def _row_of(k: int) -> list[float]:
    t = turn_total_table()
    return [float(t.bust[k])] + [float(p) for p in t.band[k][: len(_COLUMNS) - 1]]


def _x3_row() -> Row:
    ours = turn_total(3, exact=True).pmf
    order = (0, 4, 5, 6, 3, 7, 8)
    paper = tuple(X3_PAPER[g] for g in order)
    mine = tuple(ours.get(g, F(0)) for g in order)
    row = exact(
        "Z23.1",
        CLAIMS[0][1],
        "X_3 exactly: P(0), P(4), P(5), P(6); P(3); P(7); P(8)",
        paper,
        mine,
        note="exact fractions; ours has no other gains" if set(ours) == set(X3_PAPER) else "support differs",
    )
    if set(ours) != set(X3_PAPER):
        row.status = DIFFERS
    return row


def _table_2() -> tuple[Row, list[str]]:
    differing = []
    worst = 0.0
    lines = [
        "Table 2: P(X_k = 0), P(X_k = k), ..., P(X_k = k + 5). Each cell: paper / ours (6 decimals).",
        "",
        "| k | " + " | ".join(_COLUMNS) + " |",
        "|---|" + "---|" * len(_COLUMNS),
    ]
    for k, paper in TABLE_2.items():
        ours = _row_of(k)
        cells = []
        for col, p, o in zip(_COLUMNS, paper, ours, strict=True):
            worst = max(worst, abs(o - p))
            flag = ""
            if abs(o - p) > CELL_TOL:
                differing.append(f"X_{k}[{col}]: paper {p:.4f}, ours {o:.6f}")
                flag = " **(differs)**"
            cells.append(f"{p:.4f} / {o:.6f}{flag}")
        lines.append(f"| X_{k} | " + " | ".join(cells) + " |")
    n_cells = sum(len(v) for v in TABLE_2.values())
    status = REPRODUCED if not differing else DIFFERS
    note = f"largest |ours - paper| = {worst:.1e} (tolerance {CELL_TOL:g} per cell)"
    if differing:
        note += "; differing cells: " + "; ".join(differing)
    row = Row(
        "Z23.2",
        CLAIMS[1][1],
        "Table 2: X_20..X_25 and X_100, columns 0, k..k+5 (4 decimals)",
        f"{n_cells} cells, e.g. X_25: " + " ".join(f"{p:.4f}" for p in TABLE_2[25]),
        f"{n_cells - len(differing)}/{n_cells} cells within {CELL_TOL:g}; X_25: "
        + " ".join(f"{p:.4f}" for p in _row_of(25)),
        status,
        note,
    )
    return row, lines


def _win_in_one_turn() -> tuple[Row, str]:
    ex = 1 - turn_total(100, exact=True).pmf[0]
    ours = 100 * float(ex)
    row = numeric(
        "Z23.19",
        CLAIMS[2][1],
        "P(X_100 >= 100), in percent: hold at 100 wins in one turn",
        WIN_IN_ONE_TURN_PERCENT,
        ours,
        PERCENT_TOL,
        note="printed to 2 decimals",
    )
    return (
        row,
        f"P(X_100 >= 100) = 1 - P(X_100 = 0) = {float(ex):.10f} (exact rational with a {len(str(ex.denominator))}-digit denominator).",
    )


def main() -> tuple[list[Row], str]:
    z1 = _x3_row()
    z2, table = _table_2()
    z19, line = _win_in_one_turn()
    rows = [z1, z2, z19]
    print_rows(rows)
    x3 = ", ".join(f"P({g}) = {p}" for g, p in turn_total(3, exact=True).pmf.items())
    details = "\n".join([f"X_3 (exact): {x3}.", "", *table, "", line])
    return rows, details


if __name__ == "__main__":
    main()
