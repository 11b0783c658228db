"""Fig. 5 of Zhu et al. (2023): contours of the Stackelberg decisions.

"The contour surfaces of the Stackelberg equilibrium decisions": the turn total at which the
leader (left) and the follower (right) hold at every state, own score first. Ours: the exact
:func:`pigtheory.simultaneous.stackelberg` (the same policies as the paper's iteration).
Writes ``paper_figures/stackelberg.png`` and ``.pdf``.
"""

from __future__ import annotations

from analyses.z23._equilibrium_data import stackelberg_data
from paper_figures._common import save
from pigtheory.plots import plot_stackelberg


def main() -> None:
    d = stackelberg_data("exact")
    save(plot_stackelberg(d.leader_policy, d.follower_policy), "stackelberg")


if __name__ == "__main__":
    main()
