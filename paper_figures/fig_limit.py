"""n players against everybody holding at 100: n x (best deviation) against n, with 1 and the
exact threshold marked (Zhu et al. 2023, "Infinite number of players"). Writes
``paper_figures/limit.png``/``.pdf``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paper_figures._common import save  # noqa: E402
from pigtheory.plots_multiplayer import limit_figure  # noqa: E402
from pigtheory.simultaneous import limit  # noqa: E402


def main() -> None:
    save(limit_figure(limit(n_max=1000)), "limit")


if __name__ == "__main__":
    main()
