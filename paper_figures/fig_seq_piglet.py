"""Piglet to 10, optimal play: the hold value for every (you, opponent), as on Neller's slide."""

from __future__ import annotations

import numpy as np

from analyses.neller.piglet import SLIDE
from paper_figures._common import plt, save
from pigtheory import Rules
from pigtheory.sequential import solve


def main() -> None:
    t = solve(rules=Rules.piglet(goal=10)).hold_thresholds()
    fig, ax = plt.subplots(figsize=(5.2, 4.6))
    ax.imshow(np.minimum(t, 4), cmap="Blues", vmin=0, vmax=5)
    for i in range(10):
        for j in range(10):
            differs = t[i, j] != SLIDE[i, j]
            label = f"{t[i, j]}" + (f"\n(slide {SLIDE[i, j]})" if differs else "")
            ax.text(
                j,
                i,
                label,
                ha="center",
                va="center",
                fontsize=7 if differs else 9,
                color="darkred" if differs else "black",
            )
    ax.set_xticks(range(10))
    ax.set_yticks(range(10))
    ax.set_xlabel("opponent's score")
    ax.set_ylabel("your score")
    ax.set_title("Piglet to 10: hold when the turn total reaches")
    save(fig, "seq_piglet")


if __name__ == "__main__":
    main()
