"""Fig. 4 of Zhu et al. (2023): the best response's threshold against own score, B's score fixed.

B holds at 25; curves for B's score 0, 25, 50, 75 and 90. Writes
``paper_figures/best_response_actions.png`` and ``.pdf``.
"""

from __future__ import annotations

from paper_figures._common import save
from pigtheory import hold_at
from pigtheory.plots import plot_best_response_actions
from pigtheory.simultaneous import best_response


def main() -> None:
    fig = plot_best_response_actions(best_response(hold_at(25)), '"hold at 25"', (0, 25, 50, 75, 90))
    save(fig, "best_response_actions")


if __name__ == "__main__":
    main()
