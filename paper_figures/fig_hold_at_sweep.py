"""Fig. 2 of Zhu et al. (2023): the best response's win rate against "hold at n", n = 10..40.

Writes ``paper_figures/hold_at_sweep.png`` and ``.pdf``. The paper's local minima (16, 20, 25,
33; text of the section "Optimal strategy given independent opponent strategy") are drawn as
guides beside ours.
"""

from __future__ import annotations

from analyses.z23._equilibrium_data import sweep_data
from paper_figures._common import save
from pigtheory.plots import plot_hold_at_sweep

PAPER_MINIMA = (16, 20, 25, 33)


def main() -> None:
    sweep = sweep_data()  # the claims' sweep (Z23.3, Z23.4), cached
    save(plot_hold_at_sweep(sweep, paper_minima=PAPER_MINIMA), "hold_at_sweep")


if __name__ == "__main__":
    main()
