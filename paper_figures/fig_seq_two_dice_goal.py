"""Two-dice Pig: the first player's win probability, both optimal, against the goal
(Zhu & Ma 2022, Figure 5 and Table A1)."""

from __future__ import annotations

from analyses.z22.a1_first_player import TABLE_A1, first_player
from paper_figures._common import plt, save, stable


def main() -> None:
    goals = sorted(TABLE_A1)
    ours = stable([first_player(g)[0] for g in goals])  # not the last bits of value iteration
    fig, ax = plt.subplots(figsize=(6.5, 4))
    ax.plot(goals, ours, marker="o", label="ours (value iteration, residual < 1e-10)")
    ax.plot(goals, [TABLE_A1[g] for g in goals], "x", color="C3", label="paper, Table A1")
    ax.plot([100], [0.5218], "+", color="black", markersize=10, label="paper's text: 52.18% at 100")
    ax.set_xlabel("goal")
    ax.set_ylabel("first player's win probability")
    ax.set_title("Two-dice Pig, both players optimal")
    ax.legend(fontsize=8)
    save(fig, "seq_two_dice_goal")


if __name__ == "__main__":
    main()
