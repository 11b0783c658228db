"""Where a policy loses: per-state diagnostics against a fixed opponent (by default the optimum).

Shapes
------
Every array has a leading seat axis: ``occupancy[s, i, j, k]`` is the expected number of visits
of the policy's decision state (own score i, opponent j, turn total k) when it plays seat s
(seat 0 moves first) against the opponent; ``advantage``, ``disagreement`` and ``value_error``
are per state, own score first.

Notes
-----
Let :math:`V^*` and :math:`Q^*` be the best response's values against the opponent (for the
optimum as opponent: the optimal values, the optimum being a best response to itself in every
subgame) and :math:`d^\\pi` the occupancy of the policy's states. The performance-difference
identity of Markov decision processes,

.. math::

    V^*(s_0) - V^\\pi(s_0) = \\sum_s d^\\pi(s)\\, \\big(V^*(s) - Q^*(s, \\pi(s))\\big),

splits what the policy loses in a seat into the states where it loses it: ``advantage`` is the
bracket (>= 0), ``loss`` the sum. ``disagreement`` is :math:`|\\pi(s) - \\pi_{\\text{ref}}(s)|`
in P(roll), ``value_error`` :math:`V^*(s) - V^\\pi(s)`; their occupancy-weighted means are the
scalar fields.

References
----------
S. Kakade & J. Langford, "Approximately optimal approximate reinforcement learning", ICML 2002
(the performance-difference lemma).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..games.policy_tables import check_referee_rules, roll_probabilities
from ..results import Result
from ..rules import Rules
from ..sequential import pair_kernels as kernels
from .best_response import _best_response
from .evaluate import _dead, _evaluate_tables, _model

__all__ = ["Diagnostics", "diagnose"]


@dataclass(frozen=True, eq=False)
class Diagnostics(Result):
    """Per-state diagnostics of a policy (see the module docstring).

    Attributes
    ----------
    occupancy : numpy.ndarray, shape ``(2, goal, goal, goal)``
        Expected visits of each of the policy's decision states, per seat.
    advantage : numpy.ndarray, shape ``(2, goal, goal, goal)``
        ``V*(s) - Q*(s, pi(s))``: what the policy's action at s costs, the best response's
        values following.
    disagreement : float
        Occupancy-weighted mean of ``|pi(s) - reference(s)|`` over both seats.
    value_error : float
        Occupancy-weighted mean of ``V*(s) - V^pi(s)`` over both seats.
    loss : numpy.ndarray, shape ``(2,)``
        ``sum_s occupancy * advantage`` per seat: the best response's gain over the policy in
        that seat, exactly.
    state_disagreement : numpy.ndarray, shape ``(goal, goal, goal)``
        ``|pi(s) - reference(s)|`` in P(roll).
    state_value_error : numpy.ndarray, shape ``(2, goal, goal, goal)``
        ``V*(s) - V^pi(s)`` per seat.
    rules : Rules
    """

    occupancy: np.ndarray
    advantage: np.ndarray
    disagreement: float
    value_error: float
    loss: np.ndarray
    state_disagreement: np.ndarray
    state_value_error: np.ndarray
    rules: Rules


def diagnose(
    policy: Any, *, opponent: Any = None, reference: Any = None, rules: Rules = Rules()
) -> Diagnostics:
    """Occupancy, per-state loss, action disagreement and value error of a policy.

    Parameters
    ----------
    policy : policy
        Any policy :func:`~pigtheory.referee.roll_probabilities` reads.
    opponent : policy, optional
        The fixed opponent (default: the optimum, :func:`pigtheory.sequential.solve`).
    reference : policy, optional
        The policy to compare actions with (default: the best response to ``opponent``, which
        for the default opponent is the optimum).
    rules : Rules
        One die, two players.

    Returns
    -------
    Diagnostics
    """
    check_referee_rules(rules, players=2)
    g = rules.goal
    if opponent is None:
        from ..sequential import solve

        opponent = solve(rules=rules)
    mine = np.ascontiguousarray(roll_probabilities(policy, rules), dtype=np.float64)
    opp = np.ascontiguousarray(roll_probabilities(opponent, rules), dtype=np.float64)
    pvec, p_bust = _model(rules)
    br = _best_response([opp, opp], 0, rules, None, 100)
    # the best response's values: responder to move (w0) and opponent to move (w1, own first)
    w0 = np.nan_to_num(np.asarray(br.value))
    w1 = np.zeros((g, g, g))
    ev_br = _evaluate_tables(np.ascontiguousarray(br.policy, dtype=np.float64), opp, rules, None)
    w1[:] = np.nan_to_num(1.0 - ev_br.value[1])
    i = np.arange(g)[:, None, None]
    j = np.arange(g)[None, :, None]
    k = np.arange(g)[None, None, :]
    dead = _dead(g)
    start1 = w1[:, :, 0]  # start1[j, i]
    roll_q = p_bust * start1.T[:, :, None] * np.ones((1, 1, g))
    for r, p in enumerate(pvec):
        kk = k + r + 1
        ahead = np.where(i + kk >= g, 1.0, w0[i, j, np.minimum(kk, g - 1)])
        roll_q = roll_q + p * ahead
    hold_q = np.where(k == 0, start1.T[:, :, None], start1[j, np.minimum(i + k, g - 1)])
    q_pi = mine * roll_q + (1 - mine) * hold_q
    advantage = np.where(dead, 0.0, w0 - q_pi)
    ref = br.policy.astype(float) if reference is None else roll_probabilities(reference, rules)
    dis = np.where(dead, 0.0, np.abs(mine - ref))
    occ = np.zeros((2, g, g, g))
    scratch = np.zeros((g, g, g))
    kernel = kernels.occupancy_pair()
    kernel(g, kernels.Die(pvec, p_bust), mine, opp, 0, occ[0], scratch)
    kernel(g, kernels.Die(pvec, p_bust), opp, mine, 0, scratch, occ[1])
    occ[:, dead] = 0.0
    ev = [_evaluate_tables(mine, opp, rules, None), _evaluate_tables(opp, mine, rules, None)]
    v_pi = np.stack([ev[0].value[0], ev[1].value[1]])
    verr = np.where(dead, 0.0, w0[None] - np.nan_to_num(v_pi))
    adv = np.stack([advantage, advantage])
    loss = (occ * adv).sum(axis=(1, 2, 3))
    total = occ.sum()
    return Diagnostics(
        occ,
        adv,
        float((occ * dis[None]).sum() / total),
        float((occ * verr).sum() / total),
        loss,
        dis,
        verr,
        rules,
    )
