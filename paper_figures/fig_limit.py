"""n players against everybody holding at 100: n x (best deviation) against n, with 1 and the
exact threshold marked (Zhu et al. 2023, "Infinite number of players"). Writes
``paper_figures/limit.png``/``.pdf``."""

from __future__ import annotations

from paper_figures._common import save
from pigtheory.plots import plot_limit
from pigtheory.simultaneous import limit


def main() -> None:
    save(plot_limit(limit(n_max=1000)), "limit")


if __name__ == "__main__":
    main()
