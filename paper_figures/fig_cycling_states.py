"""Where pure play fails in simultaneous Pig (no figure in Zhu et al. 2023; their "141
states involving cyclic changes" drawn): the states whose threshold cycles in self-play (the
paper's order) and those where the exact equilibrium mixes.
Writes ``paper_figures/cycling_states.png`` and ``.pdf``.
"""

from __future__ import annotations

import numpy as np

from analyses.z23._equilibrium_data import equilibrium_data, self_play_data
from paper_figures._common import save
from pigtheory.plots import plot_cycling_states


def main() -> None:
    cyclic = list(self_play_data().cyclic_states)
    mixed = [tuple(map(int, s)) for s in np.argwhere(equilibrium_data().support_sizes > 1)]
    save(plot_cycling_states(100, cyclic, mixed), "cycling_states")


if __name__ == "__main__":
    main()
