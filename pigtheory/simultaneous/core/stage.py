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

from ...rules import Rules
from ...turn_total import turn_total_table
from .actions import threshold_matrix, turn_width

__all__ = ["extended", "stage_game", "pure_bounds", "DiagonalStages"]


def extended(value: np.ndarray, rules: Rules) -> np.ndarray:
    """Copy of ``value`` padded so that ``ext[x, y] = value[min(x, g), min(y, g)]``."""
    g = rules.goal
    pad = g + turn_width(rules)
    idx = np.minimum(np.arange(g + 1 + pad), g)
    return np.ascontiguousarray(value[np.ix_(idx, idx)])


def stage_game(ext: np.ndarray, i: int, j: int, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """``C`` and ``D`` of the stage game at ``(i, j)``, shapes ``(goal - i, goal - j)``.

    ``ext`` (see :func:`extended`) must be final at every state of larger score sum.
    ``C = P_A E P_B^T`` with ``P[k - 1, x] = P(X_k = x)`` and ``E[x, y]`` the value after
    gains (x, y), ``E[0, 0]`` (the double bust) set to 0: two small BLAS products (run them
    inside :func:`~pigtheory.simultaneous.core.one_blas_thread`).
    """
    g = rules.goal
    gains = threshold_matrix(rules).T  # gains[k - 1, x] = P(X_k = x)
    bust = gains[:, 0]
    m = gains.shape[1] - g
    na, nb = g - i, g - j
    e = ext[i : i + na + m, j : j + nb + m].copy()
    e[0, 0] = 0.0
    c = gains[:na, : na + m] @ e @ gains[:nb, : nb + m].T
    return c, np.outer(bust[:na], bust[:nb])


def pure_bounds(w: np.ndarray) -> tuple[float, int, float, int]:
    """Pure maximin and minimax of ``w`` with the maximiser's and the minimiser's action
    indices (first on exact ties); ``maximin == minimax`` marks a pure saddle point."""
    rowmin = w.min(axis=1)
    colmax = w.max(axis=0)
    a = int(rowmin.argmax())
    b = int(colmax.argmin())
    return float(rowmin[a]), a, float(colmax[b]), b


class DiagonalStages:
    """Stage games of all states of one score sum at once, for backward induction.

    The solver walks the score sums d from the top down. :meth:`games` gives ``W = C / (1 - D)``
    of every state of sum d, stacked and padded to one shape; once the solver has their
    values it hands them to :meth:`settle`, which must happen before the next sum.

    Notes
    -----
    ``P_A`` has only m + 1 non-zeros per row (bust, and ``a .. a + m - 1``), so the dense
    products of :func:`stage_game` are mostly zeros. With the B-side half-products

    .. math:: H_j[u, b] = P(Y_b = 0)\\, V(u, j) + \\sum_{s} P(Y_b = b + s)\\, V(u, j + b + s),

    which depend on the state only through ``(u, j)`` and are kept for every settled state,

    .. math:: C[a, b] = P(X_a = 0)\\, H^0[b] + \\sum_{r} P(X_a = a + r)\\, H_j[i + a + r, b],

    where :math:`H^0` is :math:`H_j[i, \\cdot]` without the double bust. Stored by score sum
    (``h[u + j, u, b - 1]``), the rows ``H_j[i + t, :]`` of all states of one sum lie side by
    side in memory, so for a block of leader thresholds the second sum is one small BLAS
    product (a band of width m times those rows) for the whole score sum: O(m + block) per
    entry instead of O(goal). The sums run in another order than the dense products of
    :func:`stage_game`, so entries agree with it to rounding (~1e-16), not bit for bit.
    """

    _BLOCK = 8  # leader thresholds per BLAS product: the band wastes (block + m - 1) / m

    def __init__(self, ext: np.ndarray, rules: Rules) -> None:
        tab = turn_total_table(rules.replace(players=2))
        g, m, blk = rules.goal, tab.width, self._BLOCK
        self.goal, self.m, self.ext = g, m, ext
        self.bust = np.ascontiguousarray(tab.bust[1:])  # [k - 1]
        self.bandT = np.ascontiguousarray(tab.band[1:].T)  # [r, k - 1]
        self.recip = 1.0 / (1.0 - np.outer(self.bust, self.bust))
        # band[a - 1, a - 1 + r] = P(X_a = a + r)
        self.band = np.zeros((g, g + m - 1))
        for r in range(m):
            self.band[np.arange(g), np.arange(g) + r] = self.bandT[r]
        # h[u + j, u, b - 1] = H_j[u, b]; rows u >= goal are terminal and known now; padded
        # thresholds of a block read up to u = goal + block + m - 2
        rows = g + blk + m
        self.h = np.zeros((rows + g, rows, g))
        top = np.concatenate([self._half(np.array([g]), np.array([jj])) for jj in range(g)])
        top += self.bust[None, :] * ext[g, :g, None]
        for u in range(g, rows):
            self.h[u : u + g, u, :] = top
        self._last: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._w = np.empty(0)
        self._tmp = np.empty(0)

    def _half(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """``H^0[s, b - 1]`` for consecutive states ``(i[s], j[s])`` of one sum (i ascending),
        no bust term."""
        ext, g = self.ext, self.goal
        e0, e1 = ext.strides
        # rows[s, r, b - 1] = ext[i_s, j_s + 1 + r + b - 1]
        rows = np.ndarray(
            (len(i), self.m, g), ext.dtype, ext, int(i[0]) * e0 + (int(j[0]) + 1) * e1, (e0 - e1, e1, e1)
        )
        return np.einsum("rb,srb->sb", self.bandT, rows)

    def games(self, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``W`` for the states ``i = lo..hi`` of sum d, ``j = d - i``, as ``(na, n, goal)``
        (``na = goal - lo``): ``W[a - 1, s, b - 1]`` for state ``i = lo + s``, +inf beyond
        ``b = goal - j``, meaningless beyond ``a = goal - i``; also ``i`` and the valid mask
        ``a_ok`` ``(na, n)``. ``W`` lives in a buffer that the next call overwrites."""
        g, h, m, blk = self.goal, self.h, self.m, self._BLOCK
        lo, hi = max(0, d - g + 1), min(d, g - 1)
        i = np.arange(lo, hi + 1)
        j = d - i
        n, na = len(i), g - lo
        h0 = self._half(i, j)
        self._last = (i, j, h0)
        # +inf in the columns beyond goal - j (P(X_a = 0) > 0): no follower picks them
        h0_inf = np.where(np.arange(1, g + 1)[None, :] <= (g - j)[:, None], h0, np.inf)
        if self._w.size < na * n * g:
            self._w = np.empty(na * n * g)
            self._tmp = np.empty(blk * n * g)
        w = self._w[: na * n * g].reshape(na, n, g)
        sp, su, _ = h.strides
        for a0 in range(1, na + 1, blk):
            a1 = min(a0 + blk, na + 1)
            ns = min(n, g - a0 - lo + 1)  # states with goal - i >= a0
            k = a1 - a0 + m - 1
            # rows[t, s * g + b - 1] = h[d + a0 + t, lo + a0 + t + s, b - 1] = H_j[i + a0 + t, b]
            rows = np.ndarray((k, ns * g), h.dtype, h, (d + a0) * sp + (lo + a0) * su, (sp + su, h.itemsize))
            out = w[a0 - 1 : a1 - 1, :ns, :]
            np.matmul(self.band[a0 - 1 : a1 - 1, a0 - 1 : a0 - 1 + k], rows, out=out.reshape(a1 - a0, ns * g))
            tmp = self._tmp[: (a1 - a0) * ns * g].reshape(a1 - a0, ns, g)
            np.multiply(self.bust[a0 - 1 : a1 - 1, None, None], h0_inf[None, :ns, :], out=tmp)
            out += tmp
            out *= self.recip[a0 - 1 : a1 - 1, None, :]
        a_ok = np.arange(1, na + 1)[:, None] <= (g - i)[None, :]
        return w, i, a_ok

    def settle(self, values: np.ndarray) -> None:
        """Record the values of the states of the last :meth:`games` call."""
        if self._last is None:
            raise RuntimeError("DiagonalStages.settle called before games()")
        i, j, h0 = self._last
        self.ext[i, j] = values
        self.h[i + j, i, :] = self.bust[None, :] * values[:, None] + h0
