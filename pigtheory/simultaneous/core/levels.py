"""The score DAG of simultaneous Pig: levels of equal score sum, and the terminal values.

Shapes
------
A state of n-player simultaneous Pig is a score vector ``s = (s_0, ..., s_{n-1})`` with every
score in ``0..goal``, ``goal`` standing for "reached the goal". Value arrays have shape
``(goal + 1,) * n``, indexed own score first, then the seats after the player's own,
cyclically (:func:`own_view`).

Notes
-----
Scores never decrease in one-die Pig, so every successor of a non-terminal state ``s`` other
than ``s`` itself (everybody busts) has a larger score sum ``|s|``. Solving the levels
``|s| = d`` from ``d = n (goal - 1)`` down to 0 visits every successor before the state; the
states of one level do not depend on each other.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...rules import Rules

__all__ = ["score_levels", "terminal_values", "own_view"]


@lru_cache(maxsize=16)
def score_levels(goal: int, players: int) -> tuple[tuple[int, np.ndarray], ...]:
    """Non-terminal states grouped by score sum, highest sum first.

    Returns
    -------
    tuple of (d, states)
        ``states`` is a read-only int array of shape ``(players, ns)``: the states whose
        scores (each in ``0..goal - 1``) sum to d. Within a level, states are in
        lexicographic order (for two players: own score ascending).

    Examples
    --------
    >>> [(d, s.tolist()) for d, s in score_levels(2, 2)]
    [(2, [[1], [1]]), (1, [[0, 1], [1, 0]]), (0, [[0], [0]])]
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
    """A fresh value array with the terminal states filled in and zeros elsewhere.

    At a terminal state (some score at the goal) player 0 gets ``1/m`` if it is one of the
    m players at the goal, else 0: Zhu, Ma, Chen & Liu (2023) eq. (10) for two players, and
    their reward 1/m for m winners in general.

    Parameters
    ----------
    rules : Rules

    Returns
    -------
    numpy.ndarray, shape ``(goal + 1,) * players``
        Own score first (writable: the solvers fill in the other states).

    Examples
    --------
    >>> terminal_values(Rules(goal=2)).tolist()
    [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 0.5]]
    """
    g, n = rules.goal, rules.players
    idx = np.indices((g + 1,) * n)
    at_goal = (idx == g).sum(axis=0)
    return np.where(idx[0] == g, 1.0 / np.maximum(at_goal, 1), 0.0)


def own_view(states: np.ndarray, p: int) -> tuple[np.ndarray, ...]:
    """Player p's own-centric coordinates of ``states`` (shape ``(n, ns)``): own score, then
    the seats after p, cyclically.

    Returns
    -------
    tuple of n int arrays, each of shape ``(ns,)``
        ``(states[p], states[p + 1], ..., states[p - 1])`` (seats mod n).
    """
    n = states.shape[0]
    return tuple(states[(p + q) % n] for q in range(n))
