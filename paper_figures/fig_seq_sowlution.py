"""One-die Pig, optimal play: the roll/hold boundary (Neller & Presser's "Pig sow-lution").

For every (own score i, opponent's score j) the turn total at which the optimal player first
holds, as a surface and as contours.
"""

from __future__ import annotations

import numpy as np

from paper_figures._common import plt, save
from pigtheory import Rules
from pigtheory.sequential import solve


def boundary_figure(thresholds: np.ndarray, title: str):
    g = thresholds.shape[0]
    i, j = np.meshgrid(np.arange(g), np.arange(g), indexing="ij")
    fig = plt.figure(figsize=(11, 4.8))
    ax = fig.add_subplot(1, 2, 1, projection="3d")
    ax.plot_surface(i, j, thresholds, cmap="viridis", linewidth=0, antialiased=False, rstride=2, cstride=2)
    ax.set_xlabel("player's score i")
    ax.set_ylabel("opponent's score j")
    ax.set_zlabel("hold at turn total k")
    ax.view_init(elev=28, azim=-130)
    ax2 = fig.add_subplot(1, 2, 2)
    cs = ax2.contour(j, i, thresholds, levels=[5, 10, 15, 20, 25, 30, 40, 50, 60], cmap="viridis")
    ax2.clabel(cs, fontsize=7)
    ax2.set_xlabel("opponent's score j")
    ax2.set_ylabel("player's score i")
    ax2.set_aspect("equal")
    fig.suptitle(title)
    return fig


def main() -> None:
    sol = solve(rules=Rules())
    fig = boundary_figure(
        sol.hold_thresholds(), "One-die Pig, goal 100: where the optimal player first holds"
    )
    save(fig, "seq_sowlution")


if __name__ == "__main__":
    main()
