"""The 3-player grid: best response against "hold at n1" and "hold at n2" (claim Z23.17).

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), "Three players with independent
strategies", Figure 6 and Supplementary Table S4: "We exam different opponents' strategy
combinations with n ranges from 20 to 30. Not surprisingly, the best combination is that both
opponents B1 and B2 adopt the 'hold at 25'", i.e. the pair (n1, n2) that leaves player A's
best response the smallest win probability is (25, 25).

Ours: :func:`pigtheory.simultaneous.sweeps.grid.hold_at_grid`, 66 exact best responses (pairs
n1 <= n2; the value at (0, 0, 0) is symmetric in the opponents), cached in the cache folder.
Table S4 itself is not in our sources, so only the argmin is compared; the full table is
printed below and drawn in ``paper_figures/three_player_grid.png``.
"""

from __future__ import annotations

from analyses._claims import exact, print_rows, record_time
from analyses.z23._equilibrium_data import grid_data, grid_seconds

SOURCE = "Zhu et al. 2023 (Sci. Rep.), Fig. 6 / Table S4"
CLAIMS = [("Z23.17", SOURCE, (25, 25), 0)]


def main():
    grid = grid_data()
    ns = [int(n) for n in grid.ns]
    i = ns.index(grid.best_pair[0])
    j = ns.index(grid.best_pair[1])
    second = sorted(
        (float(grid.value[a, b]), (ns[a], ns[b])) for a in range(len(ns)) for b in range(a, len(ns))
    )[1]
    record_time("Z23.17: 3-player grid of best responses (when the cache entry was made)", grid_seconds())
    rows = [
        exact(
            "Z23.17",
            SOURCE,
            "3 players, opponents hold at n1, n2 in 20..30: pair minimising A's best response",
            CLAIMS[0][2],
            grid.best_pair,
            note=f"A's best response there {grid.value[i, j]:.4f}; runner-up {second[1]} with {second[0]:.4f}; "
            "grid solved on 2 processes (cached)",
        )
    ]
    head = "| n1 \\ n2 | " + " | ".join(str(n) for n in ns) + " |"
    lines = [head, "|" + "---|" * (len(ns) + 1)]
    for a, n1 in enumerate(ns):
        cells = [
            f"**{grid.value[a, b]:.4f}**" if (n1, ns[b]) == grid.best_pair else f"{grid.value[a, b]:.4f}"
            for b in range(len(ns))
        ]
        lines.append(f"| {n1} | " + " | ".join(cells) + " |")
    md = "Best-response win probability of A at (0, 0, 0) (our Table S4):\n\n" + "\n".join(lines)
    print_rows(rows)
    return rows, md


if __name__ == "__main__":
    main()
