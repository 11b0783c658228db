"""Figure 6 of Zhu et al. 2023: the best response against "hold at n1" and "hold at n2",
n1, n2 in 20..30 (three players). Writes ``paper_figures/three_player_grid.png``/``.pdf``."""

from __future__ import annotations

from analyses.z23._equilibrium_data import grid_data
from paper_figures._common import save
from pigtheory.plots import plot_three_player_grid


def main() -> None:
    save(plot_three_player_grid(grid_data()), "three_player_grid")


if __name__ == "__main__":
    main()
