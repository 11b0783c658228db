"""Model-based (certainty-equivalent) learning on two-player sequential Pig from self-play rolls.

Notes
-----
The learner knows the rules of play (scores, turn totals, holding, the goal) but not the die: it
plays self-play games with its current policy, counts the outcome of every roll it sees (a bust
or a gain of ``r`` points), and after ``N`` rolls solves the game exactly under the *estimated*
die :math:`\\hat p_r = n_r / N`, :math:`\\hat p_{bust} = n_0 / N` (the certainty-equivalence
principle of adaptive control; in reinforcement learning, model-based RL with a maximum
likelihood model, Kearns & Singh 1999). The solve is Neller & Presser's recursion, by score
sums from the end of the game backwards; the two states ``(i, j)`` and ``(j, i)`` of one sum are
coupled only through a bust or a pass at turn total 0, and are solved by iterating that pair to
its fixed point (a contraction unless both seats pass, where 1/2, the referee's draw, is kept):

.. math:: P(i, j, k) = \\max\\bigl(1 - P(j, i + k, 0),\\;
          \\hat p_{bust} (1 - P(j, i, 0)) + \\textstyle\\sum_r \\hat p_r P(i, j, k + r)\\bigr),

with :math:`P = 1` once ``i + k >= goal`` (ties: roll). The policy is then scored under the
*true* die by the referee.

Why it reaches the optimum exactly: the optimal policy of sequential Pig is pure (roll or hold
at every state), and the solve's values are continuous in the die. Once the estimated die puts
every decision's two values on the same side as the true die does, the learned policy *is* an
optimal policy and its exploitability is 0 to rounding; only the decisions whose two values
differ by less than the estimate's error, :math:`O(N^{-1/2})`, can be wrong, and a wrong one costs
at most its gap times the chance of reaching it.

References
----------
T. Neller & C. Presser, "Optimal play of the dice game Pig", UMAP Journal 25 (2004);
M. Kearns & S. Singh, "Finite-sample convergence rates for Q-learning and indirect algorithms",
NeurIPS 11 (1999) (indirect, model-based learning).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games.policy_tables import check_referee_rules
from ..guard import Estimate, check_memory
from ..jit import compiled, kernel
from ..referee.evaluate import _model
from ..rules import Rules
from .run import LearningRun, _checkpoints, _roll, _seed

__all__ = ["model_based", "model_based_details", "solve_under_die"]


@kernel
def _sample(g, pvec_cum, p_bust, roll, rolls, seed, counts):  # pragma: no cover - compiled
    """Self-play games of the table ``roll`` (both seats) until ``rolls`` rolls are seen; the
    outcome of each (0 a bust, else the gain) counted in ``counts``. Returns the decisions."""
    np.random.seed(seed)  # noqa: NPY002 - numba seeds its own generator
    seen = 0
    decisions = 0
    while seen < rolls:
        s = np.zeros(2, dtype=np.int64)
        p = 0
        k = 0
        passes = 0
        while seen < rolls:
            i = s[p]
            j = s[1 - p]
            decisions += 1
            if np.random.random() >= roll[i, j, k]:  # noqa: NPY002 - numba seeds its own generator
                passes = passes + 1 if k == 0 else 0
                if passes > 1000:  # both seats passing: a new game
                    break
                s[p] = i + k
                k = 0
                p = 1 - p
                continue
            passes = 0
            gain = _roll(pvec_cum, p_bust)
            counts[gain] += 1
            seen += 1
            if gain == 0:
                k = 0
                p = 1 - p
                continue
            k += gain
            if i + k >= g:
                break
    return decisions


@kernel
def _chain(g, pvec, p_bust, value, i, j, b):  # pragma: no cover - compiled
    """``value[i, j, k]`` for every k, given ``b = value[j, i, 0]`` (module Notes)."""
    w = pvec.size
    for k in range(g - i - 1, -1, -1):
        acc = p_bust * (1.0 - b)
        for r in range(1, w + 1):
            acc += pvec[r - 1] * (1.0 if i + k + r >= g else value[i, j, k + r])
        hold = 1.0 - b if k == 0 else 1.0 - value[j, i + k, 0]
        value[i, j, k] = acc if acc >= hold else hold
    return value[i, j, 0]


@kernel
def _solve(g, pvec, p_bust, value, max_iter):  # pragma: no cover - compiled
    """The optimal win probabilities under the die (``pvec``, ``p_bust``), by score sums from
    the end backwards (module Notes). Returns the most fixed-point rounds any pair took."""
    worst = 0
    for s in range(2 * g - 2, -1, -1):
        for i in range(max(0, s - g + 1), min(s, g - 1) + 1):
            j = s - i
            if i > j:
                continue
            a = 0.5
            b = 0.5
            for it in range(max_iter):
                a_new = _chain(g, pvec, p_bust, value, i, j, b)
                b_new = _chain(g, pvec, p_bust, value, j, i, a_new) if i != j else a_new
                done = a_new == a and b_new == b
                a, b = a_new, b_new
                if done:
                    worst = max(worst, it + 1)
                    break
            else:
                worst = max_iter
    return worst


def _policy(value, g, pvec, p_bust):
    """The roll table of the solve (ties roll): 1.0 where rolling is worth at least holding."""
    i, j, k = np.indices((g, g, g))
    live = i + k < g
    cont = np.where(live, value, 1.0)
    roll_v = p_bust * (1.0 - value[j, i, 0])
    for r in range(1, pvec.size + 1):
        nxt = k + r
        won = i + nxt >= g
        roll_v = roll_v + pvec[r - 1] * np.where(won, 1.0, cont[i, j, np.minimum(nxt, g - 1)])
    hold_v = np.where(k == 0, 1.0 - value[j, i, 0], 1.0 - value[j, np.minimum(i + k, g - 1), 0])
    hold_v = np.where(i + k >= g, 0.0, hold_v)
    return np.where(live & (roll_v >= hold_v), 1.0, 0.0)


def solve_under_die(
    goal: int, pvec: Any, p_bust: float, *, max_iter: int = 100_000
) -> tuple[np.ndarray, np.ndarray]:
    """The optimal two-player policy and win probabilities of sequential Pig under any die.

    Parameters
    ----------
    goal : int
        2..1000.
    pvec : array_like of float
        ``pvec[r - 1]`` = P(a roll adds r points), r = 1..len(pvec).
    p_bust : float
        P(a roll busts); ``p_bust + sum(pvec)`` must be 1 (to 1e-9).
    max_iter : int
        Fixed-point rounds per pair of states at most.

    Returns
    -------
    roll : numpy.ndarray, shape ``(goal, goal, goal)``
        1.0 where the mover rolls (ties roll), 0.0 where it holds (and where the game is won).
    value : numpy.ndarray, shape ``(goal, goal, goal)``
        The mover's optimal win probability at ``(own, other, turn total)``.
    """
    from ..validation import check_int

    g = check_int("goal", goal, low=2, high=1000)
    pv = np.ascontiguousarray(pvec, dtype=np.float64).ravel()
    if pv.size == 0 or np.any(pv < 0) or not np.isfinite(p_bust) or not 0 <= p_bust <= 1:
        raise ValueError(f"pvec, p_bust: probabilities with p_bust in [0, 1], got {pv!r:.80}, {p_bust!r}")
    if abs(pv.sum() + p_bust - 1.0) > 1e-9:
        raise ValueError(f"pvec, p_bust: must sum to 1, got {pv.sum() + p_bust!r}")
    check_memory(Estimate(f"solve under a die (goal {g})", g**3, 24 * g**3 + 10**6, "lower the goal"))
    value = np.zeros((g, g, g))
    compiled(_solve)(g, pv, float(p_bust), value, int(max_iter))
    return _policy(value, g, pv, float(p_bust)), value


def model_based(
    *, rules: Rules = Rules(), checkpoints: Any = (10**3, 10**4, 10**5), rng: Any = None
) -> LearningRun:
    """Certainty-equivalent learning from self-play rolls (module Notes).

    Self-play games of the current policy (first uniform random: roll with probability 1/2)
    are played with the true die until ``checkpoints[n]`` rolls have been seen in all; the game
    is then solved under the die estimated from those rolls, and the solved policy plays on.

    Parameters
    ----------
    rules : Rules
        One die, two players.
    checkpoints : sequence of int
        Increasing counts of rolls seen, at which the policy is re-solved and kept.
    rng : int or numpy.random.Generator, optional

    Returns
    -------
    LearningRun
        ``episodes`` = the rolls seen; the solved roll tables (0/1). The estimated dice and the
        decisions played: :func:`model_based_details`.
    """
    return _run(rules, checkpoints, rng)[0]


def _run(rules: Rules, checkpoints: Any, rng: Any) -> tuple[LearningRun, list[dict[str, Any]]]:
    check_referee_rules(rules, players=2)
    cps = _checkpoints(checkpoints)
    g = rules.goal
    pvec, p_bust = _model(rules)
    cum = np.cumsum(pvec)
    seed = _seed(rng)
    counts = np.zeros(pvec.size + 1, dtype=np.int64)
    table = np.full((g, g, g), 0.5)
    sample = compiled(_sample)
    done, decisions, policies, details = 0, 0, [], []
    for n, c in enumerate(cps):
        decisions += int(sample(g, cum, p_bust, table, int(c - done), seed + n, counts))
        done = int(c)
        est = counts / counts.sum()
        table, _ = solve_under_die(g, est[1:], float(est[0]))
        policies.append(table)
        details.append(dict(rolls=done, decisions=decisions, die=est.tolist()))
    return LearningRun(cps, policies, "model-based (certainty equivalent, self-play rolls)", rules), details


def model_based_details(*, rules: Rules = Rules(), checkpoints: Any = (10**3, 10**4, 10**5), rng: Any = None):
    """:func:`model_based` and, per checkpoint, ``{"rolls", "decisions", "die"}`` (the estimated
    probabilities of a bust and of each gain)."""
    return _run(rules, checkpoints, rng)
