"""Fig. 3 of Zhu et al. (2023): the best response's thresholds against "hold at 25" over (i, j).

Writes ``paper_figures/best_response_contour.png`` and ``.pdf``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paper_figures._common import save  # noqa: E402
from pigtheory import hold_at  # noqa: E402
from pigtheory.plots import plot_best_response_contour  # noqa: E402
from pigtheory.simultaneous import best_response  # noqa: E402


def main() -> None:
    save(plot_best_response_contour(best_response(hold_at(25)), '"hold at 25"'), "best_response_contour")


if __name__ == "__main__":
    main()
