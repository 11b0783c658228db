"""Three players, goal 100: the symmetric equilibrium's values along lines of states (one
leader, two trailers level). Writes ``paper_figures/symmetric_values.png``/``.pdf``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyses.z23._symmetric_data import symmetric  # noqa: E402
from paper_figures._common import save  # noqa: E402
from pigtheory.plots_symmetric import value_lines_figure  # noqa: E402


def main() -> None:
    save(value_lines_figure(symmetric(3)[0], trailers=(0, 25, 50, 75)), "symmetric_values")


if __name__ == "__main__":
    main()
