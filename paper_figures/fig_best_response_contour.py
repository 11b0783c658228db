"""Fig. 3 of Zhu et al. (2023): the best response's thresholds against "hold at 25" over (i, j).

Writes ``paper_figures/best_response_contour.png`` and ``.pdf``.
"""

from __future__ import annotations

from paper_figures._common import save
from pigtheory import hold_at
from pigtheory.plots import plot_best_response_contour
from pigtheory.simultaneous import best_response


def main() -> None:
    save(plot_best_response_contour(best_response(hold_at(25)), '"hold at 25"'), "best_response_contour")


if __name__ == "__main__":
    main()
