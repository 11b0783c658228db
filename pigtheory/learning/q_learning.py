"""Tabular Q-learning in self-play on two-player sequential Pig.

Notes
-----
*Q-learning* (Watkins 1989), one table shared by both seats (self-play), own-centric states,
episodic and undiscounted, the reward 1 for a win: after each decision of a player its pending
value is moved towards the target, the maximum of Q at the player's next decision state (or the
outcome when the game ends), :math:`Q(s, a) \\leftarrow Q(s, a) + \\alpha (t - Q(s, a))`, with
epsilon-greedy play. The learned policy is the greedy one (ties: roll).

References
----------
C. J. C. H. Watkins, *Learning from delayed rewards*, PhD thesis (1989).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games.policy_tables import check_referee_rules
from ..jit import compiled, kernel
from ..referee.evaluate import _model
from ..rules import Rules
from .run import LearningRun, _checkpoints, _roll, _seed

__all__ = ["q_learning"]


MAX_MOVES = 10**6
"""Moves after which a self-play episode ends as a draw (1/2 each): only a game in which both
seats pass at turn total 0 for ever (``epsilon=0``) gets there."""


@kernel
def _q_train(q, g, pvec_cum, p_bust, episodes, alpha, eps, seed):  # pragma: no cover - compiled
    """``episodes`` self-play games of Q-learning on ``q[i, j, k, a]`` (a = 0 roll, 1 hold)."""
    np.random.seed(seed)  # noqa: NPY002 - numba seeds its own generator
    for _ in range(episodes):
        scores = np.zeros(2, dtype=np.int64)
        p = 0
        k = 0
        pend = np.full((2, 4), -1, dtype=np.int64)  # pending (i, j, k, a) per player
        winner = -1
        moves = 0
        while winner < 0:
            moves += 1
            if moves > MAX_MOVES:  # only both seats passing at k = 0 for ever gets here: a draw
                winner = 2
                break
            i = scores[p]
            j = scores[1 - p]
            # the player's previous decision: its target is the best value here
            if pend[p, 0] >= 0:
                t = max(q[i, j, k, 0], q[i, j, k, 1])
                pi, pj, pk, pa = pend[p, 0], pend[p, 1], pend[p, 2], pend[p, 3]
                q[pi, pj, pk, pa] += alpha * (t - q[pi, pj, pk, pa])
            if np.random.random() < eps:  # noqa: NPY002 - numba seeds its own generator
                a = 0 if np.random.random() < 0.5 else 1  # noqa: NPY002 - numba seeds its own generator
            else:
                a = 0 if q[i, j, k, 0] >= q[i, j, k, 1] else 1
            pend[p, 0], pend[p, 1], pend[p, 2], pend[p, 3] = i, j, k, a
            if a == 1:
                scores[p] = i + k
                k = 0
                p = 1 - p
                continue
            gain = _roll(pvec_cum, p_bust)
            if gain == 0:  # a bust
                k = 0
                p = 1 - p
                continue
            k += gain
            if i + k >= g:
                winner = p
        for pl in range(2):
            if pend[pl, 0] >= 0:
                t = 0.5 if winner == 2 else (1.0 if pl == winner else 0.0)
                pi, pj, pk, pa = pend[pl, 0], pend[pl, 1], pend[pl, 2], pend[pl, 3]
                q[pi, pj, pk, pa] += alpha * (t - q[pi, pj, pk, pa])


def q_learning(
    *,
    rules: Rules = Rules(goal=20),
    checkpoints: Any = (1000, 10_000),
    alpha: float = 0.1,
    epsilon: float = 0.1,
    rng: Any = None,
) -> LearningRun:
    """Tabular Q-learning in self-play on two-player sequential Pig (module Notes).

    Parameters
    ----------
    rules : Rules
        One die, two players (a small goal: the table has ``2 goal^3`` entries).
    checkpoints : sequence of int
        Increasing episode counts at which the greedy policy is kept.
    alpha : float
        Step size in (0, 1].
    epsilon : float
        Exploration rate in [0, 1]. With 0 both greedy seats may pass at turn total 0 for ever:
        such an episode ends after ``MAX_MOVES`` (10**6) moves as a draw worth 1/2.
    rng : int or numpy.random.Generator, optional

    Returns
    -------
    LearningRun
        The greedy roll tables (0/1 floats) at the checkpoints.
    """
    check_referee_rules(rules, players=2)
    cps = _checkpoints(checkpoints)
    for name, x, low_open in (("alpha", alpha, True), ("epsilon", epsilon, False)):
        ok = isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)
        if not ok or not ((0 < x <= 1) if low_open else (0 <= x <= 1)):
            span = "(0, 1]" if low_open else "[0, 1]"
            raise ValueError(f"{name} must be a number in {span}, got {x!r:.80}")
    g = rules.goal
    pvec, p_bust = _model(rules)
    q = np.full((g, g, g, 2), 0.5)
    train = compiled(_q_train)
    seed = _seed(rng)
    done, policies = 0, []
    for n, c in enumerate(cps):
        train(q, g, np.cumsum(pvec), p_bust, int(c - done), alpha, epsilon, seed + n)
        done = int(c)
        policies.append((q[..., 0] >= q[..., 1]).astype(float))
    return LearningRun(cps, policies, "q-learning (self-play)", rules)
