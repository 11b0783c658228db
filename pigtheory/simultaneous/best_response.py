"""Best response to independent opponents in simultaneous Pig (Algorithms 0.1 and 0.3).

Shapes
------
``value[i, j1, ..., j_{n-1}]``: the responding player's win probability at the start of a
turn, own score first, opponents in seat order; indices run over ``0..goal`` (``goal`` =
reached, terminal). ``policy[i, j1, ...]``: the threshold k in ``1..goal - i`` at every
non-terminal state.

Notes
-----
With the opponents' policies fixed, the player faces a Markov decision process. At state s
with own score i, holding at k gives

.. math:: q(s, k) = P(X_k = 0)\\, U_s(0) + \\sum_{r} P(X_k = k + r)\\, U_s(\\min(k + r, g - i)),

where :math:`U_s(x) = E[V(\\min(i + x, g), \\min(j + Y, g))]` averages over the opponents'
simultaneous turn Y. Every successor of s but s itself (everyone busts, probability
:math:`c_k(s) = P(X_k = 0)\\, P(Y = 0)`) has a larger score sum, so the levels of equal score
sum are solved from the top down. At each state the self-loop makes a one-state MDP: a
stationary choice of k gives :math:`a_k / (1 - c_k)`, with :math:`a_k` the value of
:math:`q(s, k)` with :math:`V(s)` set to 0, and

.. math:: V(s) = \\max_k \\frac{a_k}{1 - c_k},

exactly, with no tolerance. Ties in the argmax (within ``TIE_TOL``) go to the smallest k.

Two players take a dedicated path (:mod:`._two_player`: batches of anti-diagonals, strided
views, the thresholds' values as one banded matrix product; or, when the optional numba is
installed, the same induction as compiled loops, :mod:`._two_player_jit`); more players take
the generic level-by-level path below. ``method="value_iteration"`` is the paper's Algorithm 0.1
(:mod:`._value_iteration`), kept as the paper's method and as an independent check.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (6)-(10) and (12), Algorithm 0.1
(two players), eqs. (18)-(19) and Algorithm 0.3 (three players).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._blas import one_blas_thread
from ..policies import Mixture
from ..results import Solution
from ..rules import Rules
from ._two_player import _geometry, best_response_two
from .evaluate import _own_view, _profile, score_levels, terminal_values

__all__ = ["best_response", "action_values", "greedy", "TIE_TOL"]

TIE_TOL = 1e-13
"""Actions whose value is within this of the best count as tied; the smallest k is chosen."""


def best_response(
    opponents: Any,
    rules: Rules = Rules(),
    method: str = "exact",
    tol: float = 1e-12,
    max_iter: int = 10_000,
    progress: bool | None = None,
) -> Solution:
    """Optimal policy against fixed, independent opponents, and its value.

    Parameters
    ----------
    opponents : policy or list of policies
        The opponent's policy (two players) or the ``players - 1`` opponents' policies in seat
        order: ``hold_at(n)``, threshold tables (own score first), mixed policies (eq. 12).
    rules : Rules
        One die, ``rules.players`` players.
    method : {"exact", "value_iteration"}
        ``"exact"`` (default): backward induction over score sums, the self-loop in closed
        form (module Notes); no tolerance involved. ``"value_iteration"``: the paper's
        Algorithm 0.1 as written (Algorithm 0.3 for three or more players: a generic
        sweep meant as a check on small goals), sweeps until the largest change of a sweep is
        below ``tol``.
    tol : float
        Value iteration: stop when the largest change of a sweep is below ``tol`` (> 0).
    max_iter : int
        Value iteration: at most this many sweeps (>= 1); if reached, a ``RuntimeWarning``.
    progress : bool, optional
        Value iteration: a progress bar on stderr (default: when stderr is a terminal).

    Returns
    -------
    Solution
        ``value`` of shape ``(goal + 1,) * players``, ``policy`` of shape ``(goal,) * players``
        (own score first). ``iterations`` is the number of score-sum levels (exact) or sweeps
        (value iteration); ``residual`` is 0.0 (exact) or the last sweep's largest change.
        Ties in the argmax (within ``TIE_TOL``) go to the smallest threshold k.

    Raises
    ------
    ValueError
        A policy that is not one (wrong table shape, thresholds outside ``1..goal - own``,
        weights not summing to 1), the wrong number of opponents, an unknown method, or
        ``tol <= 0`` / ``max_iter < 1``.

    References
    ----------
    Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (6)-(10), (12); Algorithm 0.1.

    Examples
    --------
    >>> sol = best_response(hold_at(3), Rules(goal=6))
    >>> bool(sol.value[0, 0] > win_probability(hold_at(3), hold_at(3), Rules(goal=6))[0, 0])
    True
    >>> vi = best_response(hold_at(3), Rules(goal=6), method="value_iteration")
    >>> bool(abs(vi.value - sol.value).max() < 1e-10)
    True
    """
    if method not in ("exact", "value_iteration"):
        raise ValueError(f"method must be 'exact' or 'value_iteration', got {method!r}")
    if method == "exact" and isinstance(rules, Rules) and rules.players >= 3:
        from .multiplayer import reduced_best_response, separable  # late: it imports this module

        if separable(opponents, rules):
            return reduced_best_response(opponents, rules).expand()
    opps = _profile(1, opponents, rules)[1:]
    if method == "value_iteration":
        if not (isinstance(tol, (int, float)) and tol > 0):
            raise ValueError(f"tol must be a number > 0, got {tol!r}")
        if not isinstance(max_iter, (int, np.integer)) or isinstance(max_iter, bool) or max_iter < 1:
            raise ValueError(f"max_iter must be an integer >= 1, got {max_iter!r}")
        from .._progress import progress_bar
        from ._value_iteration import value_iteration, value_iteration_n

        with progress_bar(int(max_iter), "value iteration", progress) as bar:
            if rules.players == 2:
                value, policy, sweeps, residual = value_iteration(
                    opps[0], rules, tol, int(max_iter), TIE_TOL, bar
                )
            else:
                value, policy, sweeps, residual = value_iteration_n(
                    opps, rules, tol, int(max_iter), TIE_TOL, bar
                )
        return Solution(value, policy, sweeps, residual, "value_iteration", rules)
    if rules.players == 2:
        value, policy = best_response_two(opps[0], rules, TIE_TOL)
        return Solution(value, policy, 2 * rules.goal - 1, 0.0, "exact", rules)
    value, policy, levels = _exact(opps, rules)
    return Solution(value, policy, levels, 0.0, "exact", rules)


def action_values(
    u: np.ndarray, own: np.ndarray, opp_bust: np.ndarray, rules: Rules
) -> tuple[np.ndarray, np.ndarray]:
    """Stationary values ``a_k / (1 - c_k)`` of every threshold k at a batch of states.

    Parameters
    ----------
    u : array, shape (ns, goal + 1)
        ``u[s, x] = E[V(min(i + x, g), opponents' next scores)]`` with ``V(s) = 0`` at the
        state itself; only ``x <= goal - i`` is read.
    own : int array, shape (ns,)
        The player's own score i at each state.
    opp_bust : array, shape (ns,)
        Probability that every opponent busts.

    Returns
    -------
    values : array, shape (ns, goal)
        Column k - 1 is threshold k; ``-inf`` where k > goal - i.
    self_loop : array, shape (ns, goal)
        ``c_k``, the probability that the state repeats.
    """
    g = rules.goal
    M = _geometry(rules.replace(players=2)).M  # M[x, k - 1] = P(X_k = x)
    # Gains past goal - i land on the goal: read u there.
    x = np.minimum(np.arange(M.shape[0])[None, :], (g - own)[:, None])
    with one_blas_thread():
        a = np.take_along_axis(u, x, axis=1) @ M
    c = M[0][None, :] * opp_bust[:, None]
    vals = a / (1.0 - c)
    vals[np.arange(1, g + 1)[None, :] > (g - own)[:, None]] = -np.inf
    return vals, c


def greedy(vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Best value and the smallest k within ``TIE_TOL`` of it, row by row."""
    best = vals.max(axis=1)
    k = np.argmax(vals >= (best - TIE_TOL)[:, None], axis=1) + 1
    return best, k


def continuation(
    value: np.ndarray, states: np.ndarray, opps: Sequence[Mixture], goal: int
) -> tuple[np.ndarray, np.ndarray]:
    """``u[s, x] = E[V(min(i + x, g), min(j + Y, g))]`` over the opponents' joint turn Y, and
    the probability that every opponent busts, at a batch of states (shape ``(players, ns)``).

    Whatever ``value`` holds at the state itself is used (0 in backward induction, the last
    sweep's value in value iteration).
    """
    n = states.shape[0]
    ns = states.shape[1]
    xs = np.arange(goal + 1)
    outs = [m.outcomes(_own_view(states, p + 1)) for p, m in enumerate(opps)]
    # Gather V(min(i + x, g), min(j + y, g)) over x and the opponents' joint outcome.
    idx = [np.minimum(states[0][:, None] + xs[None, :], goal).reshape((ns, goal + 1) + (1,) * (n - 1))]
    weight: Any = 1.0
    for p, (gains, probs) in enumerate(outs):
        shape = [ns, 1] + [1] * (n - 1)
        shape[2 + p] = gains.shape[1]
        idx.append(np.minimum(states[p + 1][:, None] + gains, goal).reshape(shape))
        weight = weight * probs.reshape(shape)
    u = (value[tuple(idx)] * weight).reshape(ns, goal + 1, -1).sum(axis=2)
    opp_bust = np.prod([probs[:, 0] for _, probs in outs], axis=0)
    return u, opp_bust


def _exact(opps: Sequence[Mixture], rules: Rules) -> tuple[np.ndarray, np.ndarray, int]:
    g, n = rules.goal, rules.players
    value = terminal_values(rules)
    policy = np.zeros((g,) * n, dtype=np.int64)
    levels = score_levels(g, n)
    for _, states in levels:
        u, opp_bust = continuation(value, states, opps, g)
        vals, _ = action_values(u, states[0], opp_bust, rules)
        best, k = greedy(vals)
        value[tuple(states)] = best
        policy[tuple(states)] = k
    value.setflags(write=False)
    policy.setflags(write=False)
    return value, policy, len(levels)
