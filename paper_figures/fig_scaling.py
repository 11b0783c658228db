"""Time and memory of one exact n-player best response against the number of states
(Zhu et al. 2023: O(100^n)). Writes ``paper_figures/scaling.png``/``.pdf``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyses.z23._scaling_data import measurements  # noqa: E402
from paper_figures._common import save  # noqa: E402
from pigtheory.plots_multiplayer import scaling_figure  # noqa: E402


def main() -> None:
    save(scaling_figure(measurements()), "scaling")


if __name__ == "__main__":
    main()
