"""Stage games of two-player simultaneous Pig: the payoff of every threshold pair at a state.

Shapes
------
For a state ``(i, j)`` (A's score first) the stage game is a ``(goal - i) x (goal - j)``
matrix indexed ``[a - 1, b - 1]``: A holds at a, B holds at b. The values it reads come from
an *extended* value array (:func:`extended`) of shape ``(2 * goal + m + 1,) * 2`` whose rows
and columns beyond ``goal`` repeat the terminal row and column, so that clipping a score at
the goal is a plain slice.

Notes
-----
With :math:`X_a`, :math:`Y_b` the two turns' points (independent),

.. math:: M(v)[a, b] = C[a, b] + v\\, D[a, b], \\qquad D[a, b] = P(X_a = 0)\\, P(Y_b = 0),

where C sums :math:`V(\\min(i + x, g), \\min(j + y, g))` over every outcome except the double
bust, whose value is the unknown v of the state itself. Both players playing (a, b) for ever
gives :math:`W[a, b] = C[a, b] / (1 - D[a, b])`; a pure saddle point of W is a pure
equilibrium of the one-state stochastic game, and the pure maximin of W is the leader's
value when the leader commits first (Stackelberg).
"""

from __future__ import annotations

import numpy as np

from ..rules import Rules
from ..turn_total import turn_total_table

__all__ = ["extended", "stage_game", "level_states", "pure_bounds"]


def level_states(goal: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Non-terminal two-player states grouped by score sum, highest sum first."""
    out = []
    for d in range(2 * goal - 2, -1, -1):
        i = np.arange(max(0, d - goal + 1), min(d, goal - 1) + 1)
        out.append((i, d - i))
    return out


def extended(value: np.ndarray, rules: Rules) -> np.ndarray:
    """Copy of ``value`` padded so that ``ext[x, y] = value[min(x, g), min(y, g)]``."""
    g = rules.goal
    pad = g + turn_total_table(rules.replace(players=2)).width
    idx = np.minimum(np.arange(g + 1 + pad), g)
    return np.ascontiguousarray(value[np.ix_(idx, idx)])


def stage_game(ext: np.ndarray, i: int, j: int, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """``C`` and ``D`` of the stage game at ``(i, j)``, shapes ``(goal - i, goal - j)``.

    ``ext`` (see :func:`extended`) must be final at every state of larger score sum.
    """
    g = rules.goal
    tab = turn_total_table(rules.replace(players=2))
    m = tab.width
    na, nb = g - i, g - j
    band_a, band_b = tab.band[1 : na + 1], tab.band[1 : nb + 1]
    # t[a, y]: A's turn averaged out, B's gain y still open; A's bust at y = 0 is the self-loop.
    t = tab.bust[1 : na + 1, None] * ext[i, j : j + nb + m]
    t[:, 0] = 0.0
    for r in range(m):
        t += band_a[:, r, None] * ext[i + 1 + r : i + 1 + r + na, j : j + nb + m]
    c = tab.bust[None, 1 : nb + 1] * t[:, :1]
    for r in range(m):
        c += band_b[None, :, r] * t[:, 1 + r : 1 + r + nb]
    d = np.outer(tab.bust[1 : na + 1], tab.bust[1 : nb + 1])
    return c, d


def pure_bounds(w: np.ndarray) -> tuple[float, int, float, int]:
    """Pure maximin and minimax of ``w`` with the maximiser's and the minimiser's action
    indices (first on exact ties); ``maximin == minimax`` marks a pure saddle point."""
    rowmin = w.min(axis=1)
    colmax = w.max(axis=0)
    a = int(rowmin.argmax())
    b = int(colmax.argmin())
    return float(rowmin[a]), a, float(colmax[b]), b
