"""Exact win probabilities of a fixed policy profile in simultaneous Pig.

Shapes
------
``value[s0, s1, ..., s_{n-1}]``: player 0's probability of winning from the start of a turn
at scores ``(s0, ..., s_{n-1})``; every index runs over ``0..goal``, ``goal`` standing for
"reached the goal" (scores are clipped there). Terminal states (some score at the goal) have
value ``1/m`` if player 0 is one of the m players at the goal, else 0.

Notes
-----
All players choose a threshold at the start of the turn and play it out without seeing each
other. With X_p the points player p's turn adds (distribution from its policy at its own
state),

.. math:: V(s) = E[V(\\min(s + X, g))],

and since no score decreases, every successor of s other than s itself (everybody busts, with
probability :math:`c(s) = \\prod_p P(X_p = 0)`) has a larger score sum. Processing the levels
``sum(s) = d`` from the top down gives the exact solution, the self-loop in closed form:

.. math:: V(s) = \\frac{\\sum_{x \\ne 0} P(X = x)\\, V(\\min(s + x, g))}{1 - c(s)}.

States on one level do not depend on each other, so each level is one vectorised step.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), eqs. (6)-(10) and (18).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..guard import check_memory, win_probability_estimate
from ..rules import Rules
from ..stopping import TurnPolicy
from .core import continuation, own_view, read_mixtures, score_levels, self_loop, terminal_values

__all__ = ["win_probability", "win_probabilities"]


def win_probability(
    policy_a: Any, policy_b: Any, *, rules: Rules = Rules(), max_memory: Any = None
) -> np.ndarray:
    """Exact win probability of player A at every state, all policies fixed.

    Parameters
    ----------
    policy_a : policy
        Player A's policy (anything :func:`pigtheory.policies.as_mixture` reads).
    policy_b : policy or list of policies
        The opponent's policy, or the ``players - 1`` opponents' policies in seat order.
    rules : Rules
        One die; ``rules.players`` players.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    numpy.ndarray, shape ``(goal + 1,) * players``
        ``value[i, j]`` = A's win probability at the start of a turn at scores (i, j), ties
        (m players reaching the goal in the same turn) counting 1/m. Read-only.

    Notes
    -----
    The policy evaluation of Zhu, Ma, Chen & Liu (2023) eq. (3), with q from eqs. (7)-(9) at
    A's own threshold (mixed policies: eq. (12)) and the terminal values of eq. (10); eq. (18)
    for more players. Solved by backward induction over score sums, with the
    everybody-busts self-loop in closed form (module docstring): no tolerance is involved.

    Examples
    --------
    >>> v = win_probability(hold_at(1), hold_at(1), rules=Rules(goal=2))
    >>> from fractions import Fraction
    >>> Fraction(float(v[0, 0])).limit_denominator(1000)
    Fraction(1, 2)
    """
    check_memory(win_probability_estimate(rules), max_memory)
    mixes = read_mixtures(policy_a, policy_b, rules)
    return _evaluate(mixes, rules)


def win_probabilities(
    profile: Sequence[Any], *, rules: Rules = Rules(), max_memory: Any = None
) -> np.ndarray:
    """Every player's exact win probability: shape ``(players,) + (goal + 1,) * players``.

    Parameters
    ----------
    profile : list of policies
        One policy per seat, ``rules.players`` of them.
    rules : Rules
        One die; ``rules.players`` players.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    numpy.ndarray, shape ``(players,) + (goal + 1,) * players``
        ``out[p][s]`` is player p's win probability at the absolute state s (scores in seat
        order, not own score first). The players' values sum to 1 at every state. Read-only.

    Notes
    -----
    One :func:`win_probability` per seat, each with the seats rotated so that player p comes
    first (Zhu, Ma, Chen & Liu 2023, eqs. (6)-(10) for two players, (18) for more).
    """
    check_memory(win_probability_estimate(rules), max_memory)
    if not isinstance(profile, (list, tuple)) or len(profile) != getattr(rules, "players", 0):
        raise ValueError(f"profile: a list of rules.players policies, got {profile!r}")
    mixes = read_mixtures(profile[0], list(profile[1:]), rules)
    out = []
    n = rules.players
    for p in range(n):
        rotated = [mixes[(p + q) % n] for q in range(n)]
        v = _evaluate(rotated, rules)
        # v is indexed in p's own-centric order; move axes back to seat order.
        out.append(np.moveaxis(v, list(range(n)), [(p + q) % n for q in range(n)]))
    res = np.stack(out)
    res.setflags(write=False)
    return res


def merged_outcomes(gains: np.ndarray, probs: np.ndarray, goal: int) -> tuple[np.ndarray, np.ndarray]:
    """A turn's outcomes ``(gains, probs)`` (``(ns, C)``, gains in ``0..goal``) with equal gains
    merged, when that makes them narrower: ``(0..goal, P(gain))`` per state, each
    probability summed in column order (:func:`numpy.bincount`); else as given.

    A mix over S thresholds lists ``1 + 6 S`` outcomes, most of them the same gains: the
    expectation over both players' turns then reads ``(goal + 1) ** 2`` entries per state
    instead of ``(1 + 6 S) ** 2``. The bust stays column 0 (every other gain is at least 1)."""
    ns, width = gains.shape
    if width <= goal + 1:
        return gains, probs
    flat = (np.arange(ns)[:, None] * (goal + 1) + gains).ravel()
    dense = np.bincount(flat, weights=probs.ravel(), minlength=ns * (goal + 1)).reshape(ns, goal + 1)
    return np.broadcast_to(np.arange(goal + 1), (ns, goal + 1)), dense


class _Merged:
    """A policy whose :meth:`outcomes` come merged (:func:`merged_outcomes`)."""

    def __init__(self, policy: TurnPolicy, goal: int) -> None:
        self.policy, self.goal = policy, goal

    def outcomes(self, states: Any) -> tuple[np.ndarray, np.ndarray]:
        gains, probs = self.policy.outcomes(states)
        return merged_outcomes(
            gains.reshape(-1, gains.shape[-1]), probs.reshape(-1, probs.shape[-1]), self.goal
        )


def _evaluate(mixes: Sequence[TurnPolicy], rules: Rules) -> np.ndarray:
    """Backward induction of the fixed profile ``mixes`` (own policy first); wide mixes'
    outcomes are merged by gain (:func:`merged_outcomes`)."""
    g, n = rules.goal, rules.players
    value = terminal_values(rules)
    opponents: Any = [_Merged(mix, g) for mix in mixes[1:]]
    for _, states in score_levels(g, n):
        gains, probs = merged_outcomes(*mixes[0].outcomes(own_view(states, 0)), g)
        u, opp_bust = continuation(value, states, opponents, g, own_gains=gains)
        a = (u * probs).sum(axis=1)
        value[tuple(states)] = self_loop(a, probs[:, 0] * opp_bust)
    value.setflags(write=False)
    return value
