"""Strategies beyond "hold at n" (no figure in Zhu et al. 2023, whose strategies are all
thresholds): the class of every state in the equilibrium over stopping rules, a best response
to hold at 25 that is no threshold, and the equilibrium's randomised rule at a state that needs
both mixing and non-threshold rules. Writes ``paper_figures/stopping_rules.png`` and ``.pdf``.
"""

from __future__ import annotations

import numpy as np

from analyses.z23.stopping_rules import stopping_equilibrium_data
from paper_figures._common import save
from pigtheory import Rules, hold_at
from pigtheory.plots import plot_stopping_rules
from pigtheory.simultaneous import best_response
from pigtheory.simultaneous.stopping import KINDS


def main() -> None:
    eq = stopping_equilibrium_data()
    br = best_response(hold_at(25), rules=Rules(), strategies="stopping")
    ex = np.unravel_index(int(np.argmax(br.gain)), br.gain.shape)
    mixed = np.argwhere(eq.kind == 3)
    # the state of that class closest to the start of the game
    ms = tuple(int(v) for v in mixed[np.argmin(mixed.sum(axis=1))])
    fig = plot_stopping_rules(
        eq.kind,
        KINDS,
        br.policy.roll[ex],
        int(br.threshold_policy[ex]),
        (int(ex[0]), int(ex[1])),
        eq.policy.prob[ms],
        ms,
    )
    save(fig, "stopping_rules")


if __name__ == "__main__":
    main()
