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

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (6)-(10) and (12), Algorithm 0.1
(two players), eqs. (18)-(19) and Algorithm 0.3 (three players).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..policies import Mixture
from ..results import Solution
from ..rules import Rules
from ..turn_total import turn_total_table
from .evaluate import _own_view, _profile, score_levels, terminal_values

__all__ = ["best_response", "action_values", "TIE_TOL"]

TIE_TOL = 1e-13
"""Actions whose value is within this of the best count as tied; the smallest k is chosen."""


def best_response(
    opponents: Any,
    rules: Rules = Rules(),
    method: str = "exact",
    tol: float = 1e-12,
    max_iter: int = 10_000,
) -> Solution:
    """Optimal policy against fixed, independent opponents, and its value.

    Parameters
    ----------
    opponents : policy or list of policies
        The opponent's policy (two players) or the ``players - 1`` opponents' policies in seat
        order: ``hold_at(n)``, threshold tables (own score first), mixed policies (eq. 12).
    rules : Rules
        One die, ``rules.players`` players.
    method : {"exact"}
        ``"exact"``: backward induction over score sums (see Notes of the module).
    tol, max_iter : float, int
        Used by iterative methods.

    Returns
    -------
    Solution
        ``value`` of shape ``(goal + 1,) * players``, ``policy`` of shape ``(goal,) * players``.

    Examples
    --------
    >>> sol = best_response(hold_at(3), Rules(goal=6))
    >>> bool(sol.value[0, 0] > win_probability(hold_at(3), hold_at(3), Rules(goal=6))[0, 0])
    True
    """
    if method != "exact":
        raise ValueError(f"method must be 'exact', got {method!r}")
    if isinstance(rules, Rules) and rules.players >= 3:
        from .multiplayer import reduced_best_response, separable  # late: it imports this module

        if separable(opponents, rules):
            return reduced_best_response(opponents, rules).expand()
    opps = _profile(1, opponents, rules)[1:]
    value, policy, levels = _exact(opps, rules)
    return Solution(value, policy, levels, 0.0, "exact", rules)


def action_values(u: np.ndarray, own: np.ndarray, opp_bust: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
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
    table = turn_total_table(rules.replace(players=2))
    ks = np.arange(1, g + 1)
    room = (g - own)[:, None, None]
    gains = np.minimum(ks[None, :, None] + np.arange(table.width)[None, None, :], room)
    rows = np.arange(u.shape[0])[:, None, None]
    a = table.bust[1:][None, :] * u[:, :1] + (table.band[1:][None] * u[rows, gains]).sum(axis=2)
    c = table.bust[1:][None, :] * opp_bust[:, None]
    vals = a / (1.0 - c)
    vals[ks[None, :] > (g - own)[:, None]] = -np.inf
    return vals, c


def greedy(vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Best value and the smallest k within ``TIE_TOL`` of it, row by row."""
    best = vals.max(axis=1)
    k = np.argmax(vals >= (best - TIE_TOL)[:, None], axis=1) + 1
    return best, k


def _exact(opps: Sequence[Mixture], rules: Rules) -> tuple[np.ndarray, np.ndarray, int]:
    g, n = rules.goal, rules.players
    value = terminal_values(rules)
    policy = np.zeros((g,) * n, dtype=np.int64)
    xs = np.arange(g + 1)
    levels = score_levels(g, n)
    for _, states in levels:
        ns = states.shape[1]
        outs = [m.outcomes(_own_view(states, p + 1)) for p, m in enumerate(opps)]
        # Gather V(min(i + x, g), min(j + y, g)) over x and the opponents' joint outcome.
        idx = [np.minimum(states[0][:, None] + xs[None, :], g).reshape((ns, g + 1) + (1,) * (n - 1))]
        weight = 1.0
        for p, (gains, probs) in enumerate(outs):
            shape = [ns, 1] + [1] * (n - 1)
            shape[2 + p] = gains.shape[1]
            idx.append(np.minimum(states[p + 1][:, None] + gains, g).reshape(shape))
            weight = weight * probs.reshape(shape)
        u = (value[tuple(idx)] * weight).reshape(ns, g + 1, -1).sum(axis=2)
        opp_bust = np.prod([probs[:, 0] for _, probs in outs], axis=0)
        vals, _ = action_values(u, states[0], opp_bust, rules)
        best, k = greedy(vals)
        value[tuple(states)] = best
        policy[tuple(states)] = k
    value.setflags(write=False)
    policy.setflags(write=False)
    return value, policy, len(levels)
