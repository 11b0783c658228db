"""Three players, goal 100: the map of the states where the symmetric equilibrium mixes.
Writes ``paper_figures/symmetric_mixed.png``/``.pdf``."""

from __future__ import annotations

from analyses.z23._symmetric_data import symmetric
from paper_figures._common import save
from pigtheory.plots_symmetric import mixed_states_figure


def main() -> None:
    save(mixed_states_figure(symmetric(3)[0]), "symmetric_mixed")


if __name__ == "__main__":
    main()
