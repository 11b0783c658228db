"""Three players, goal 100: the symmetric equilibrium's values along lines of states (one
leader, two trailers level). Writes ``paper_figures/symmetric_values.png``/``.pdf``."""

from __future__ import annotations

from analyses.z23._symmetric_data import symmetric
from paper_figures._common import save
from pigtheory.plots import plot_value_lines


def main() -> None:
    save(plot_value_lines(symmetric(3)[0], trailers=(0, 25, 50, 75)), "symmetric_values")


if __name__ == "__main__":
    main()
