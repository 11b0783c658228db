"""Three players, goal 100: the map of the states where the symmetric equilibrium mixes.
Writes ``paper_figures/symmetric_mixed.png``/``.pdf``."""

from __future__ import annotations

from analyses.z23._symmetric_data import symmetric
from paper_figures._common import save
from pigtheory.plots import plot_mixed_states


def main() -> None:
    save(plot_mixed_states(symmetric(3)[0]), "symmetric_mixed")


if __name__ == "__main__":
    main()
