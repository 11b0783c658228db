"""Self-play regret matching+ per state on two-player simultaneous Pig.

Notes
-----
*Regret matching per state* (Hart & Mas-Colell 2000) in self-play: at every state a sampled game
visits, each player updates its regrets over thresholds in the stage game
:math:`W = C + v D` of that state (:func:`pigtheory.simultaneous.core.stage.stage_game`), built
from the learner's own value estimates of the successor states (bootstrapped, never solved);
the state's value estimate is then the value of the current strategies,
:math:`v = x^\\top C y / (1 - x^\\top D y)`. The learned policy is the average strategy
(regret matching+ with linear averaging, Tammelin 2014).

References
----------
S. Hart & A. Mas-Colell, "A simple adaptive procedure leading to correlated equilibrium",
Econometrica 68 (2000); O. Tammelin, "Solving large imperfect information games using CFR+",
arXiv:1407.5042 (2014).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..jit import compiled, kernel
from ..policies import MixedPolicy
from ..rules import Rules
from .run import LearningRun, _checkpoints

__all__ = ["regret_matching", "cfr_plus", "per_state"]


@kernel
def _rm_stage(c, d, iterations, alternating, out_x, out_y):  # pragma: no cover - compiled
    """Regret matching+ self-play in the stage game ``W = C + v D`` (v the value of the average
    strategies so far, refreshed every few rounds: the self-loop); linear averaging. With
    ``alternating`` the column player answers the row player's new strategy (CFR+'s alternating
    updates), else both update at once. Returns the value of the average strategies."""
    n, m = c.shape
    rx = np.zeros(n)
    ry = np.zeros(m)
    x = np.full(n, 1.0 / n)
    y = np.full(m, 1.0 / m)
    ax = np.zeros(n)
    ay = np.zeros(m)
    wy = np.empty(n)
    xw = np.empty(m)
    v = 0.5
    for t in range(1, iterations + 1):
        for a in range(n):
            acc = 0.0
            for b in range(m):
                acc += (c[a, b] + v * d[a, b]) * y[b]
            wy[a] = acc
        for b in range(m):
            xw[b] = 0.0
        ex = 0.0
        for a in range(n):
            ex += x[a] * wy[a]
            for b in range(m):
                xw[b] += x[a] * (c[a, b] + v * d[a, b])
        sx = 0.0
        for a in range(n):
            rx[a] = max(rx[a] + wy[a] - ex, 0.0)
            sx += rx[a]
            ax[a] += t * x[a]
        if alternating:
            if sx > 0:
                for a in range(n):
                    x[a] = rx[a] / sx
            for b in range(m):
                xw[b] = 0.0
            ex = 0.0
            for a in range(n):
                for b in range(m):
                    xw[b] += x[a] * (c[a, b] + v * d[a, b])
            for b in range(m):
                ex += xw[b] * y[b]
        sy = 0.0
        for b in range(m):
            ry[b] = max(ry[b] + ex - xw[b], 0.0)
            sy += ry[b]
            ay[b] += t * y[b]
        if sx > 0 and not alternating:
            for a in range(n):
                x[a] = rx[a] / sx
        if sy > 0:
            for b in range(m):
                y[b] = ry[b] / sy
        if t % 8 == 0 or t == iterations:
            num = 0.0
            den = 0.0
            for a in range(n):
                for b in range(m):
                    num += ax[a] * c[a, b] * ay[b]
                    den += ax[a] * d[a, b] * ay[b]
            norm = ax.sum() * ay.sum()
            v = num / (norm - den)
    out_x[:] = ax / ax.sum()
    out_y[:] = ay / ay.sum()
    return v


def regret_matching(*, rules: Rules = Rules(goal=50), iterations: Any = (10, 100, 1000)) -> LearningRun:
    """Regret matching+ self-play per state on two-player simultaneous Pig (module Notes).

    The two players at the states (i, j) and (j, i) play ``iterations`` rounds of regret
    matching+ against each other in that state's stage game; states are taken from the end of the
    game backwards, so that the successor values a stage game is built from are those of the
    learners' own average strategies (bootstrapped, never solved exactly).

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
    stage = compiled(_rm_stage)
    return per_state(
        rules,
        iterations,
        lambda c, d, t, x, y: stage(c, d, t, False, x, y),
        "regret matching+",
    )


def cfr_plus(*, rules: Rules = Rules(goal=50), iterations: Any = (10, 100, 1000)) -> LearningRun:
    """CFR+ per state on two-player simultaneous Pig: :func:`regret_matching` with CFR+'s
    alternating updates (the column player's regrets against the row player's new strategy),
    regret matching+ and linear averaging (Tammelin 2014; Tammelin, Burch, Johanson & Bowling
    2015). Each stage game is one decision of each player, so CFR+ on it is regret matching+
    with alternation; the states are solved from the end of the game backwards as in
    :func:`regret_matching`.

    Parameters
    ----------
    rules : Rules
        One die, two players.
    iterations : sequence of int
        Increasing rounds per state; one run per entry.

    Returns
    -------
    LearningRun
        As :func:`regret_matching`.

    References
    ----------
    O. Tammelin, "Solving large imperfect information games using CFR+", arXiv:1407.5042
    (2014); O. Tammelin, N. Burch, M. Johanson & M. Bowling, "Solving heads-up limit Texas
    hold'em", IJCAI 2015.
    """
    stage = compiled(_rm_stage)
    return per_state(rules, iterations, lambda c, d, t, x, y: stage(c, d, t, True, x, y), "CFR+")


def per_state(rules: Rules, iterations: Any, stage: Any, name: str) -> LearningRun:
    """Run ``stage(c, d, rounds, x, y) -> v`` (a self-play learner on one stage game, its average
    strategies written to x and y) at every state of simultaneous Pig, from the end of the game
    backwards, once per entry of ``iterations``; the policies as mixtures over thresholds."""
    from ..simultaneous.core import one_blas_thread
    from ..simultaneous.core.stage import extended, stage_game
    from ..validation import check_simultaneous_rules

    check_simultaneous_rules(rules, players=2)
    cps = _checkpoints(iterations, "iterations")
    g = rules.goal
    a = np.arange(1, g + 1)[None, None, :]
    th = np.broadcast_to(np.minimum(a, (g - np.arange(g))[:, None, None]), (g, g, g))
    policies = []
    with one_blas_thread():
        for t in cps:
            value = np.zeros((g + 1, g + 1))
            value[g, :g] = 1.0
            value[g, g] = 0.5
            w = np.zeros((g, g, g))
            for lev in range(2 * g - 2, -1, -1):
                ext = extended(value, rules)
                for i in range(max(0, lev - g + 1), min(lev, g - 1) + 1):
                    j = lev - i
                    if i > j:
                        continue
                    c, d = stage_game(ext, i, j, rules)
                    x = np.zeros(g - i)
                    y = np.zeros(g - j)
                    v = stage(np.ascontiguousarray(c), np.ascontiguousarray(d), int(t), x, y)
                    value[i, j], value[j, i] = v, 1.0 - v
                    w[i, j, : g - i] = x
                    w[j, i, : g - j] = y
                    if i == j:  # one player's view: the symmetric average of the two
                        w[i, i, : g - i] = (x + y) / 2
            policies.append(MixedPolicy(th, w, name=f"{name}, {t} rounds per state"))
    return LearningRun(cps, policies, f"{name} (self-play, per state)", rules)
