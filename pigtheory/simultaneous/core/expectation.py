"""The continuation expectation against independent opponents.

Notes
-----
At state ``s = (i, j_1, ..., j_m)`` (own score first), the opponents' turns
:math:`Y = (Y_1, \\dots, Y_m)` are independent, each drawn from its own policy at its own view
of s. After the player's own turn adds x,

.. math:: u(s, x) = E_Y\\big[V(\\min(i + x, g), \\min(j + Y, g))\\big],

and :math:`P(Y = 0) = \\prod_p P(Y_p = 0)` is the chance that every opponent busts. Whatever
``value`` holds at s itself is used: 0 during backward induction (the self-loop is then solved
in closed form by the action set), the previous sweep's value in value iteration.

Both the evaluation of a fixed profile (x runs over the player's own outcomes) and the best
response (x runs over ``0..goal``) read this one function. With two players and every own
gain, ``u(s, .)`` for one opponent outcome y is a contiguous run of the transposed,
goal-padded value table, so the gather copies whole rows (about 10x faster than gathering
element by element); the sums are the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...stopping import TurnPolicy
from .levels import own_view

__all__ = ["continuation"]


def continuation(
    value: np.ndarray,
    states: np.ndarray,
    opponents: Sequence[TurnPolicy],
    goal: int,
    own_gains: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``u[s, c] = E[V(min(i + x_c, g), min(j + Y, g))]`` and ``P(every opponent busts)``.

    The expectation over the opponents' turns :math:`E_{j'}` of Zhu, Ma, Chen & Liu (2023)
    eq. (7) (with eq. (8), or the mix of eq. (12)); :math:`E_{j_1', j_2'}` of eq. (18) for
    more players.

    Parameters
    ----------
    value : numpy.ndarray, shape ``(goal + 1,) * players``
        Values, own score first.
    states : int array, shape ``(players, ns)``
        The states, own score first, then the opponents in seat order.
    opponents : sequence of Mixture or RuleMixture
        The ``players - 1`` opponents' policies (each read at its own view of the state),
        as :func:`~pigtheory.simultaneous.core.read_opponents` returns them.
    goal : int
    own_gains : int array, shape ``(ns, C)``, optional
        The player's gain of each column; default ``x = 0..goal`` (``C = goal + 1``).

    Returns
    -------
    u : numpy.ndarray, shape ``(ns, C)``
        ``u[s, c]``: the expected value after the player's gain ``x_c`` (column 0 the bust),
        whatever ``value`` holds at s itself included (module Notes).
    opp_bust : numpy.ndarray, shape ``(ns,)``
        :math:`P(Y = 0)`, every opponent busting.
    """
    n, ns = states.shape
    outs = [mix.outcomes(own_view(states, p + 1)) for p, mix in enumerate(opponents)]
    if own_gains is None and n == 2:
        return _rows_two_players(value, states, outs[0], goal)
    if own_gains is None:
        own_gains = np.broadcast_to(np.arange(goal + 1), (ns, goal + 1))
    cols = own_gains.shape[1]
    idx = [np.minimum(states[0][:, None] + own_gains, goal).reshape((ns, cols) + (1,) * (n - 1))]
    weight: Any = 1.0
    for p, (gains, probs) in enumerate(outs):
        shape = [ns, 1] + [1] * (n - 1)
        shape[2 + p] = gains.shape[1]
        idx.append(np.minimum(states[p + 1][:, None] + gains, goal).reshape(shape))
        weight = weight * probs.reshape(shape)
    u = (value[tuple(idx)] * weight).reshape(ns, cols, -1).sum(axis=2)
    opp_bust = np.prod([probs[:, 0] for _, probs in outs], axis=0) if outs else np.ones(ns)
    return u, opp_bust


def _rows_two_players(
    value: np.ndarray, states: np.ndarray, outcome: tuple[np.ndarray, np.ndarray], goal: int
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`continuation` for two players and every own gain, by rows (module Notes)."""
    gains, probs = outcome
    g = goal
    i, j = states
    # padded[j, a] = V(min(a, g), j): rows past the goal repeat the terminal row
    padded = np.empty((g + 1, 2 * g + 1))
    padded[:, : g + 1] = value.T
    padded[:, g + 1 :] = value[g][:, None]
    cols = np.minimum(j[:, None] + gains, g)
    if i.size > 2 * g and _by_opponent_score(i, j, gains, probs):
        # The opponent's move depends on j alone (and every j appears): first average over Y
        # once per (j, a), then every state reads one row of that table.
        first = np.unique(j, return_index=True)[1]
        table = np.zeros((g + 1, 2 * g + 1))
        table[j[first]] = np.einsum("jy,jya->ja", probs[first], padded[cols[first]])
        windows = np.lib.stride_tricks.sliding_window_view(table, g + 1, axis=1)
        return windows[j, i], probs[:, 0].copy()
    windows = np.lib.stride_tricks.sliding_window_view(padded, g + 1, axis=1)
    rows = windows[cols, i[:, None]]  # (ns, outcomes, g + 1)
    u = np.matmul(probs[:, None, :], rows)[:, 0, :]
    return u, probs[:, 0].copy()


def _by_opponent_score(i: np.ndarray, j: np.ndarray, gains: np.ndarray, probs: np.ndarray) -> bool:
    """Whether the opponent's outcome at each state is the same for every state with its j."""
    order = np.argsort(j, kind="stable")
    js = j[order]
    same = js[1:] == js[:-1]
    if not same.any():
        return False
    g_sorted, p_sorted = gains[order], probs[order]
    return bool(
        np.array_equal(g_sorted[1:][same], g_sorted[:-1][same])
        and np.array_equal(p_sorted[1:][same], p_sorted[:-1][same])
    )
