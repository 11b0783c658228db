"""The opening threshold of the symmetric equilibrium at (0, ..., 0) against the number of
players: two (the exact equilibrium), three and four (symmetric equilibria), and many (the
limit: everybody holds at the goal). Writes ``paper_figures/symmetric_opening.png``/``.pdf``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyses.z23._symmetric_data import GOAL, limit_from, symmetric, two_player_opening  # noqa: E402
from paper_figures._common import save  # noqa: E402
from pigtheory.plots_symmetric import opening_figure  # noqa: E402


def main() -> None:
    openings = {
        2: two_player_opening(),
        3: symmetric(3)[0].strategy(0, 0, 0),
        4: symmetric(4)[0].strategy(0, 0, 0, 0),
    }
    save(opening_figure(openings, limit_from(), GOAL), "symmetric_opening")


if __name__ == "__main__":
    main()
