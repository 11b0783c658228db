"""One-die Pig: the optimal player's win probability against "hold at n" and against
"t scoring turns" (Neller & Presser, slides "Hold at n" Figure 2 and "t Scoring Turns" Figure 4),
exact."""

from __future__ import annotations

import numpy as np

from paper_figures._common import plt, save, stable
from pigtheory import Rules, hold_at
from pigtheory.io import cached_arrays
from pigtheory.sequential import compare, scoring_turns, solve


def _curves() -> dict[str, np.ndarray]:
    rules = Rules()
    opt = solve(rules=rules)
    hold = [(n, *_fsa(compare(opt, hold_at(n), rules=rules))) for n in range(10, 41)]
    turns = [(t, *_fsa(compare(opt, scoring_turns(t), rules=rules))) for t in range(1, 11)]
    return {"hold": np.array(hold), "turns": np.array(turns)}


def _fsa(c) -> tuple[float, float, float]:
    return c.first, c.second, c.average


def main() -> None:
    data = cached_arrays("fig_seq_one_die_practical", {"version": 1}, _curves)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, key, xlabel in (
        (axes[0], "hold", "opponent holds at n"),
        (axes[1], "turns", "opponent plans t scoring turns"),
    ):
        rows = stable(data[key])
        for col, label in ((1, "optimal goes first"), (2, "optimal goes second"), (3, "average")):
            ax.plot(rows[:, 0], rows[:, col], marker="o", markersize=3, label=label)
        best = rows[rows[:, 3].argmin()]
        ax.set_title(f"best: {int(best[0])}, optimal advantage {100 * (2 * best[3] - 1):.1f}%")
        ax.axhline(0.5, color="black", linewidth=0.6)
        ax.set_xlabel(xlabel)
    axes[0].set_ylabel("optimal player's win probability")
    axes[0].legend(fontsize=8)
    save(fig, "seq_one_die_practical")


if __name__ == "__main__":
    main()
