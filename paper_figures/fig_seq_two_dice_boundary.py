"""Two-dice Pig, optimal play: the roll/hold boundary (Zhu & Ma 2022, Figures 2-4)."""

from __future__ import annotations

from paper_figures._common import save
from pigtheory import Rules
from pigtheory.plots import plot_hold_boundary
from pigtheory.sequential.cache import cached_solve


def main() -> None:
    sol = cached_solve(rules=Rules(dice=2))
    fig = plot_hold_boundary(
        sol.hold_thresholds(), "Two-dice Pig, goal 100: where the optimal player first holds"
    )
    save(fig, "seq_two_dice_boundary")


if __name__ == "__main__":
    main()
