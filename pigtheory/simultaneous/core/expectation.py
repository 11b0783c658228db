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
response (x runs over ``0..goal``) read this one function.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...policies import Mixture
from .levels import own_view

__all__ = ["continuation"]


def continuation(
    value: np.ndarray,
    states: np.ndarray,
    opponents: Sequence[Mixture],
    goal: int,
    own_gains: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``u[s, c] = E[V(min(i + x_c, g), min(j + Y, g))]`` and ``P(every opponent busts)``.

    Parameters
    ----------
    value : numpy.ndarray, shape ``(goal + 1,) * players``
        Values, own score first.
    states : int array, shape ``(players, ns)``
        The states, own score first, then the opponents in seat order.
    opponents : sequence of Mixture
        The ``players - 1`` opponents' policies (each read at its own view of the state).
    goal : int
    own_gains : int array, shape ``(ns, C)``, optional
        The player's gain of each column; default ``x = 0..goal`` (``C = goal + 1``).

    Returns
    -------
    u : numpy.ndarray, shape ``(ns, C)``
    opp_bust : numpy.ndarray, shape ``(ns,)``
    """
    n, ns = states.shape
    if own_gains is None:
        own_gains = np.broadcast_to(np.arange(goal + 1), (ns, goal + 1))
    cols = own_gains.shape[1]
    outs = [mix.outcomes(own_view(states, p + 1)) for p, mix in enumerate(opponents)]
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
