"""The opening threshold of the symmetric equilibrium at (0, ..., 0) against the number of
players: two (the exact equilibrium), three and four (symmetric equilibria), and many (the
limit: everybody holds at the goal). Writes ``paper_figures/symmetric_opening.png``/``.pdf``."""

from __future__ import annotations

from analyses.z23._symmetric_data import GOAL, limit_from, symmetric, two_player_opening
from paper_figures._common import save
from pigtheory.plots import plot_opening


def main() -> None:
    openings = {
        2: two_player_opening(),
        3: symmetric(3)[0].strategy(0, 0, 0),
        4: symmetric(4)[0].strategy(0, 0, 0, 0),
    }
    save(plot_opening(openings, limit_from(), GOAL), "symmetric_opening")


if __name__ == "__main__":
    main()
