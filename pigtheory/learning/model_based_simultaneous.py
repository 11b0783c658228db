"""Model-based (certainty-equivalent) learning on two-player simultaneous Pig from self-play rolls.

Notes
-----
As :mod:`pigtheory.learning.model_based` for sequential play: the learner plays self-play games
of simultaneous Pig (both players choose a threshold at every state from their current mixed
policy, then roll until they reach it or bust), counts the outcome of every roll, and after
``N`` rolls solves the game exactly under the estimated die. The solve follows the exact solver's
recursion, the stage game :math:`M(v) = C + v D` at every state from the end of the game
backwards (Zhu, Ma, Chen & Liu 2023), with the distribution of a turn's points at threshold k,
:math:`P(X_k = x)`, computed from the estimated die:

.. math:: r(0) = 1,\\; r(t) = \\sum_{s} \\hat p_s\\, r(t - s)\\ (t \\ge 1), \\qquad
          P(X_k = 0) = \\hat p_{bust} \\sum_{t < k} r(t), \\qquad
          P(X_k = x) = \\sum_{t < k \\le x} r(t)\\, \\hat p_{x - t}\\ (x \\ge k),

(r(t): the chance that a turn's total passes through t), and every stage game solved with its
self-loop (:func:`pigtheory.simultaneous.core.matrix_game.solve_stage`). The equilibrium mixes
at a few states: there the learned mixture is off by :math:`O(N^{-1/2})` and the
exploitability with it; where the equilibrium is a pure saddle point it is exact once the
estimate keeps the saddle point (the sequential argument).

References
----------
H. Zhu, D. Ma, J. Chen & Z. Liu, simultaneous Pig (2023) (the stage games, eq. (9)-(12));
M. Kearns & S. Singh, NeurIPS 11 (1999) (indirect, model-based learning).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..jit import compiled, kernel
from ..policies import MixedPolicy
from ..referee.evaluate import _model
from ..rules import Rules
from .run import LearningRun, _checkpoints, _roll, _seed

__all__ = ["model_based_simultaneous", "threshold_gains"]


@kernel
def _sample(g, pvec_cum, p_bust, th, wcum, rolls, seed, counts):  # pragma: no cover - compiled
    """Self-play games of simultaneous Pig (thresholds ``th[i, j, s]`` drawn with the cumulative
    weights ``wcum[i, j, s]``) until ``rolls`` rolls are seen, counted in ``counts``. Returns
    the rounds played."""
    np.random.seed(seed)  # noqa: NPY002 - numba seeds its own generator
    seen = 0
    rounds = 0
    score = np.zeros(2, dtype=np.int64)
    while seen < rolls:
        score[0] = 0
        score[1] = 0
        while seen < rolls and score[0] < g and score[1] < g:
            rounds += 1
            gain = np.zeros(2, dtype=np.int64)
            for p in range(2):
                i = score[p]
                j = score[1 - p]
                u = np.random.random()  # noqa: NPY002 - numba seeds its own generator
                s = 0
                while s < wcum.shape[2] - 1 and u >= wcum[i, j, s]:
                    s += 1
                h = th[i, j, s]
                t = 0
                while t < h and seen < rolls:
                    r = _roll(pvec_cum, p_bust)
                    counts[r] += 1
                    seen += 1
                    if r == 0:
                        t = 0
                        break
                    t += r
                gain[p] = t
            score[0] += gain[0]
            score[1] += gain[1]
    return rounds


def threshold_gains(goal: int, pvec: np.ndarray, p_bust: float) -> np.ndarray:
    """``M[x, k - 1] = P(X_k = x)`` under the die (``pvec[r - 1]`` = P(gain r), ``p_bust``),
    shape ``(goal + w, goal)`` with ``w = len(pvec)`` (module Notes); under the rules' die it is
    :func:`pigtheory.simultaneous.core.actions.threshold_matrix`."""
    g, w = goal, pvec.size
    reach = np.zeros(g)
    reach[0] = 1.0
    for t in range(1, g):
        s = np.arange(1, min(w, t) + 1)
        reach[t] = float(np.dot(pvec[s - 1], reach[t - s]))
    m = np.zeros((g + w, g))
    m[0] = p_bust * np.cumsum(reach)
    for k in range(1, g + 1):
        for t in range(max(0, k - w), k):
            r = np.arange(k - t, w + 1)
            m[t + r, k - 1] += reach[t] * pvec[r - 1]
    return m


def _solve(rules: Rules, pvec: np.ndarray, p_bust: float) -> MixedPolicy:
    """The equilibrium under the die, as a mixed policy over thresholds (module Notes)."""
    from ..simultaneous.core import one_blas_thread
    from ..simultaneous.core.matrix_game import solve_stage
    from ..simultaneous.core.stage import extended

    g = rules.goal
    gains = threshold_gains(g, pvec, p_bust).T  # gains[k - 1, x]
    bust = gains[:, 0]
    m = gains.shape[1] - g
    value = np.zeros((g + 1, g + 1))
    value[g, :g] = 1.0
    value[g, g] = 0.5
    a = np.arange(1, g + 1)[None, None, :]
    th = np.broadcast_to(np.minimum(a, (g - np.arange(g))[:, None, None]), (g, g, g))
    w = np.zeros((g, g, g))
    with one_blas_thread():
        for lev in range(2 * g - 2, -1, -1):
            ext = extended(value, rules)
            for i in range(max(0, lev - g + 1), min(lev, g - 1) + 1):
                j = lev - i
                if i > j:
                    continue
                na, nb = g - i, g - j
                e = ext[i : i + na + m, j : j + nb + m].copy()
                e[0, 0] = 0.0
                c = gains[:na, : na + m] @ e @ gains[:nb, : nb + m].T
                v, x, y, *_ = solve_stage(c, np.outer(bust[:na], bust[:nb]))
                if np.ndim(x) == 0:  # a pure saddle point: the two indices
                    x, y = np.eye(na)[int(x)], np.eye(nb)[int(y)]
                value[i, j], value[j, i] = v, 1.0 - v
                w[i, j, :na] = x
                w[j, i, :nb] = y
                if i == j:  # one player's view: the symmetric average of the two
                    w[i, i, :na] = (x + y) / 2
    return MixedPolicy(th, w, name="model-based equilibrium")


def model_based_simultaneous(
    *, rules: Rules = Rules(), checkpoints: Any = (10**3, 10**4, 10**5), rng: Any = None
) -> tuple[LearningRun, list[dict[str, Any]]]:
    """Certainty-equivalent learning on simultaneous Pig from self-play rolls (module Notes).

    Self-play games of the current policy (first uniform random thresholds) are played with the
    true die until ``checkpoints[n]`` rolls have been seen in all; the game is then solved under
    the die estimated from those rolls, and the solved policy plays on.

    Parameters
    ----------
    rules : Rules
        One die, two players.
    checkpoints : sequence of int
        Increasing counts of rolls seen, at which the policy is re-solved and kept.
    rng : int or numpy.random.Generator, optional

    Returns
    -------
    run : LearningRun
        ``episodes`` = the rolls seen; :class:`~pigtheory.policies.MixedPolicy` equilibria of the
        estimated game.
    details : list of dict
        Per checkpoint ``{"rolls", "rounds", "die"}`` (the estimated P(bust), P(gain r)).
    """
    from ..validation import check_simultaneous_rules

    check_simultaneous_rules(rules, players=2)
    cps = _checkpoints(checkpoints)
    g = rules.goal
    pvec, p_bust = _model(rules)
    cum = np.cumsum(pvec)
    seed = _seed(rng)
    counts = np.zeros(pvec.size + 1, dtype=np.int64)
    th = np.ascontiguousarray(
        np.broadcast_to(
            np.minimum(np.arange(1, g + 1)[None, None, :], (g - np.arange(g))[:, None, None]), (g, g, g)
        ),
        dtype=np.int64,
    )
    wcum = np.cumsum(np.where(th == np.arange(1, g + 1), 1.0, 0.0), axis=2)
    wcum /= wcum[..., -1:]
    sample = compiled(_sample)
    done, rounds, policies, details = 0, 0, [], []
    for n, c in enumerate(cps):
        rounds += int(sample(g, cum, p_bust, th, wcum, int(c - done), seed + n, counts))
        done = int(c)
        est = counts / counts.sum()
        pol = _solve(rules, est[1:], float(est[0]))
        policies.append(pol)
        wcum = np.cumsum(np.asarray(pol.weights), axis=2)
        wcum /= wcum[..., -1:]
        details.append(dict(rolls=done, rounds=rounds, die=est.tolist()))
    return LearningRun(cps, policies, "model-based (certainty equivalent, self-play rolls)", rules), details
