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
from functools import lru_cache
from typing import Any

import numpy as np

from ..policies import Mixture, as_mixture
from ..rules import Rules

__all__ = ["win_probability", "win_probabilities", "terminal_values", "score_levels"]


def _check_rules(rules: Rules) -> None:
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a pigtheory.Rules, got {type(rules).__name__}")
    if rules.dice != 1:
        raise ValueError(
            "rules: simultaneous Pig is solved for one die (dice=1); two-dice scores can drop "
            "(snake eyes), see pigtheory.sequential"
        )


@lru_cache(maxsize=16)
def score_levels(goal: int, players: int) -> tuple[tuple[int, np.ndarray], ...]:
    """Non-terminal states grouped by score sum, highest sum first.

    Returns ``((d, states), ...)`` with ``states`` an int array of shape ``(players, ns)``.
    """
    idx = np.indices((goal,) * players).reshape(players, -1)
    total = idx.sum(axis=0)
    order = np.argsort(-total, kind="stable")
    idx, total = idx[:, order], total[order]
    cuts = np.flatnonzero(np.diff(total)) + 1
    out = []
    for part in np.split(np.arange(total.size), cuts):
        states = idx[:, part]
        states.setflags(write=False)
        out.append((int(total[part[0]]), states))
    return tuple(out)


def terminal_values(rules: Rules) -> np.ndarray:
    """Value array with the terminal states filled in (player 0's share) and zeros elsewhere."""
    g, n = rules.goal, rules.players
    idx = np.indices((g + 1,) * n)
    at_goal = (idx == g).sum(axis=0)
    return np.where(idx[0] == g, 1.0 / np.maximum(at_goal, 1), 0.0)


def _own_view(states: np.ndarray, p: int) -> tuple[np.ndarray, ...]:
    """Player p's own-centric coordinates: own score, then the seats after it, cyclically."""
    n = states.shape[0]
    return tuple(states[(p + q) % n] for q in range(n))


def _expectation(
    value: np.ndarray, states: np.ndarray, outs: Sequence[tuple[np.ndarray, np.ndarray]], goal: int
) -> tuple[np.ndarray, np.ndarray]:
    """E[V(min(s + X, g))] over the joint outcome at each state, and the bust-all probability."""
    n = len(outs)
    idx = []
    weight: Any = 1.0
    for p, (gains, probs) in enumerate(outs):
        shape = [gains.shape[0]] + [1] * n
        shape[1 + p] = gains.shape[1]
        idx.append(np.minimum(states[p][:, None] + gains, goal).reshape(shape))
        weight = weight * probs.reshape(shape)
    total = (value[tuple(idx)] * weight).reshape(states.shape[1], -1).sum(axis=1)
    bust_all = np.prod([probs[:, 0] for _, probs in outs], axis=0)
    return total, bust_all


def _profile(policy: Any, opponents: Any, rules: Rules) -> list[Mixture]:
    _check_rules(rules)
    if isinstance(opponents, (list, tuple)):
        opps = list(opponents)
    else:
        opps = [opponents]
    if len(opps) == 1 and rules.players > 2:
        raise ValueError(
            f"opponents: {rules.players} players need {rules.players - 1} opponent policies, got 1"
        )
    if len(opps) != rules.players - 1:
        raise ValueError(
            f"opponents: {rules.players} players need {rules.players - 1} opponent policies, got {len(opps)}"
        )
    return [as_mixture(p, rules) for p in [policy, *opps]]


def win_probability(policy_a: Any, policy_b: Any, rules: Rules = Rules()) -> np.ndarray:
    """Exact win probability of player A at every state, all policies fixed.

    Parameters
    ----------
    policy_a : policy
        Player A's policy (anything :func:`pigtheory.policies.as_mixture` reads).
    policy_b : policy or list of policies
        The opponent's policy, or the ``players - 1`` opponents' policies in seat order.
    rules : Rules
        One die; ``rules.players`` players.

    Returns
    -------
    numpy.ndarray, shape ``(goal + 1,) * players``
        ``value[i, j]`` = A's win probability at the start of a turn at scores (i, j), ties
        (m players reaching the goal in the same turn) counting 1/m. Read-only.

    Notes
    -----
    Backward induction over score sums, with the everybody-busts self-loop solved in closed
    form; see the module docstring. No tolerance is involved.

    Examples
    --------
    >>> v = win_probability(hold_at(1), hold_at(1), Rules(goal=2))
    >>> from fractions import Fraction
    >>> Fraction(float(v[0, 0])).limit_denominator(1000)
    Fraction(1, 2)
    """
    mixes = _profile(policy_a, policy_b, rules)
    return _evaluate(mixes, rules)


def win_probabilities(profile: Sequence[Any], rules: Rules = Rules()) -> np.ndarray:
    """Every player's exact win probability: shape ``(players,) + (goal + 1,) * players``.

    ``out[p][s]`` is player p's win probability at the absolute state s (seat order). The
    players' values sum to 1 at every state.
    """
    if len(profile) != rules.players:
        raise ValueError(
            f"profile: {rules.players} players need {rules.players} policies, got {len(profile)}"
        )
    mixes = _profile(profile[0], list(profile[1:]), rules)
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


def _evaluate(mixes: Sequence[Mixture], rules: Rules) -> np.ndarray:
    g, n = rules.goal, rules.players
    value = terminal_values(rules)
    for _, states in score_levels(g, n):
        outs = [m.outcomes(_own_view(states, p)) for p, m in enumerate(mixes)]
        total, bust_all = _expectation(value, states, outs, g)
        value[tuple(states)] = total / (1.0 - bust_all)
    value.setflags(write=False)
    return value
