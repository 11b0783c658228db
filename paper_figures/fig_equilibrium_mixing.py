"""The exact equilibrium's mixing (no figure in Zhu et al. 2023, which stops at the cycle):
at every state without a pure saddle point, the two thresholds mixed and the probability of
the higher one. Writes ``paper_figures/equilibrium_mixing.png`` and ``.pdf``.
"""

from __future__ import annotations

from analyses.z23._equilibrium_data import equilibrium_data
from paper_figures._common import save
from pigtheory.plots import plot_equilibrium_mixing


def main() -> None:
    mix = equilibrium_data().policy
    save(plot_equilibrium_mixing(mix.thresholds, mix.weights), "equilibrium_mixing")


if __name__ == "__main__":
    main()
