"""Two-dice Pig and Double Trouble: the optimal policy against "hold at n", going first,
going second and on average (Zhu & Ma 2022, Figures 6 and 8)."""

from __future__ import annotations

from analyses.z22._common import DT, TABLE_A2, TABLE_A3, TWO, optimal_vs_hold_at
from paper_figures._common import plt, save


def main() -> None:
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, rules, paper, title in (
        (axes[0], TWO, TABLE_A2, "standard two-dice Pig"),
        (axes[1], DT, TABLE_A3, "Double Trouble"),
    ):
        rows = optimal_vs_hold_at(rules)
        n = rows[:, 0]
        for col, label, color in (
            (1, "optimal goes first", "C0"),
            (2, "optimal goes second", "C1"),
            (3, "average", "C2"),
        ):
            ax.plot(n, rows[:, col], marker="o", markersize=3, color=color, label=f"{label} (exact)")
            ax.plot(n, [paper[int(x)][col - 1] for x in n], "x", color=color, markersize=4, alpha=0.7)
        best = rows[rows[:, 3].argmin()]
        ax.axvline(best[0], color="gray", linewidth=0.8, linestyle=":")
        ax.axhline(0.5, color="black", linewidth=0.6)
        ax.set_title(f"{title}: best n = {int(best[0])}")
        ax.set_xlabel("opponent holds at n")
    axes[0].set_ylabel("optimal player's win probability")
    axes[0].plot([], [], "x", color="gray", label="paper (Tables A2, A3)")
    axes[0].legend(fontsize=8)
    save(fig, "seq_hold_at")


if __name__ == "__main__":
    main()
