"""Fictitious self-play per state on two-player simultaneous Pig.

Notes
-----
*Fictitious play* (Brown 1951): in each round both players best-respond to the empirical
average of the other's past play, and the averages converge to an equilibrium in every
two-player zero-sum matrix game (Robinson 1951). Here it is played in the stage game
:math:`W = C + v D` of every state (:func:`pigtheory.simultaneous.core.stage.stage_game`), with
``v`` the value of the current averages (refreshed every 8 rounds: the self-loop), states from
the end of the game backwards, the successor values those of the learners' own averages
(:func:`pigtheory.learning.regret.per_state`). The averages start from uniform play (weight 1).
A round costs O(rows + columns): the products ``C y``, ``D y``, ``x C``, ``x D`` of the running
sums are updated by one column or row each. Ties in a best response go to the smallest
threshold.

Heinrich, Lanctot & Silver's *fictitious self-play* (2015) is the extensive-form version with
sampled best responses and averages; on a stage game (one decision each) its full-width form is
Brown's, which is what runs here.

References
----------
G. W. Brown, "Iterative solution of games by fictitious play", in *Activity Analysis of
Production and Allocation* (1951); J. Robinson, "An iterative method of solving a game",
Annals of Mathematics 54 (1951); J. Heinrich, M. Lanctot & D. Silver, "Fictitious self-play in
extensive-form games", ICML 2015.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..jit import compiled, kernel
from ..rules import Rules
from .regret import per_state
from .run import LearningRun

__all__ = ["fictitious_play"]


@kernel
def _fp_stage(c, d, iterations, out_x, out_y):  # pragma: no cover - compiled
    """Fictitious play in the stage game ``W = C + v D`` (module Notes). Returns the value of
    the average strategies."""
    n, m = c.shape
    ax = np.full(n, 1.0 / n)
    ay = np.full(m, 1.0 / m)
    cy = c @ ay  # C y, D y, x C, x D of the running sums
    dy = d @ ay
    xc = ax @ c
    xd = ax @ d
    total = 1.0
    v = 0.5
    for t in range(1, iterations + 1):
        best_a = 0
        best = cy[0] + v * dy[0]
        for a in range(1, n):
            u = cy[a] + v * dy[a]
            if u > best:
                best, best_a = u, a
        best_b = 0
        worst = xc[0] + v * xd[0]
        for b in range(1, m):
            u = xc[b] + v * xd[b]
            if u < worst:
                worst, best_b = u, b
        ax[best_a] += 1.0
        ay[best_b] += 1.0
        for a in range(n):
            cy[a] += c[a, best_b]
            dy[a] += d[a, best_b]
        for b in range(m):
            xc[b] += c[best_a, b]
            xd[b] += d[best_a, b]
        total += 1.0
        if t % 8 == 0 or t == iterations:
            num = 0.0
            den = 0.0
            for a in range(n):
                num += ax[a] * cy[a]
                den += ax[a] * dy[a]
            v = num / (total * total - den)
    out_x[:] = ax / total
    out_y[:] = ay / total
    return v


def fictitious_play(*, rules: Rules = Rules(goal=50), iterations: Any = (10, 100, 1000)) -> LearningRun:
    """Fictitious self-play per state on two-player simultaneous Pig (module Notes).

    Parameters
    ----------
    rules : Rules
        One die, two players.
    iterations : sequence of int
        Increasing rounds per state; one run per entry (the snapshots).

    Returns
    -------
    LearningRun
        ``episodes`` = the rounds per state; :class:`~pigtheory.policies.MixedPolicy` average
        strategies (thresholds ``1..goal - i`` at every state).
    """
    return per_state(rules, iterations, compiled(_fp_stage), "fictitious play")
