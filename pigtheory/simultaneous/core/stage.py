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

One row of C needs no stage game (:func:`stage_rows`). With :math:`p_k = P(X_k = 0)` and the
band :math:`P(X_k = k + r)`, ``r = 0..w - 1``, A's half of the turn at threshold a is

.. math:: R[t] = \\sum_{r} P(X_a = a + r)\\, V(i + a + r, j + t), \\qquad
          F[t] = R[t] + p_a V(i, j + t),

and then :math:`C[a, b] = p_b R[0] + \\sum_r P(Y_b = b + r) F[b + r]` (the double bust, the
only term with :math:`V(i, j)`, is the :math:`p_a p_b` part left out of :math:`p_b R[0]`):
O(w goal) work for a whole row, against O(goal^2) for the dense product. A column of C is a
row of the same sums on the transposed values, with the players' roles swapped: column b at
(i, j) is ``stage_rows(ext.T, j, i, b)``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...engine import choose_engine
from ...rules import Rules
from ...turn_totals import TurnTotalTable, turn_total_table
from . import stage_kernels
from .actions import TIE_TOL, threshold_band, threshold_matrix, turn_width
from .matrix_game import pure_bounds
from .step import band_of

__all__ = ["extended", "stage_game", "stage_rows", "best_replies", "pure_bounds", "DiagonalStages"]


def extended(value: np.ndarray, rules: Rules) -> np.ndarray:
    """Copy of ``value`` padded so that ``ext[x, y] = value[min(x, g), min(y, g)]``.

    Parameters
    ----------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
        Two players' values, own score first.
    rules : Rules

    Returns
    -------
    numpy.ndarray, shape ``(2 goal + w + 1, 2 goal + w + 1)``
        C-contiguous; w the largest roll (:func:`turn_width`), so any score plus any gain
        indexes it without clipping.
    """
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

    ``C[a - 1, b - 1] + v D[a - 1, b - 1]`` is the right side of Zhu, Ma, Chen & Liu (2023)
    eq. (9) for A holding at a and B at b, with ``v = p(i, j)``:
    ``D[a - 1, b - 1] = P(X_a = 0) P(X_b = 0)``.

    Returns
    -------
    C, D : numpy.ndarray, shape ``(goal - i, goal - j)``
        Rows: A's thresholds ``1..goal - i``; columns: B's ``1..goal - j``.
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


@lru_cache(maxsize=16)
def _tables(rules: Rules) -> tuple[TurnTotalTable, np.ndarray]:
    """The turn totals of ``rules`` and their band transposed, ``band_t[r, k] = P(X_k = k + r)``."""
    return turn_total_table(rules.replace(players=2)), threshold_band(rules)[1]


def stage_rows(
    ext: np.ndarray, i: np.ndarray, j: np.ndarray, k: np.ndarray, rules: Rules, engine: str = "auto"
) -> np.ndarray:
    """Row ``k[s] - 1`` of ``C`` at the state ``(i[s], j[s])``, for a batch of states.

    Parameters
    ----------
    ext : numpy.ndarray
        Extended values (:func:`extended`), C-contiguous, final at every state of larger score
        sum than each of the states. Columns of C come from the transposed values: column b
        at (i, j) is row b at (j, i) of ``np.ascontiguousarray(ext.T)``.
    i, j, k : numpy.ndarray of int, shape ``(n,)``
        States and the row player's thresholds, ``1 <= k[s] <= goal - i[s]``.
    rules : Rules
    engine : {"auto", "numba", "numpy"}
        The same sums in the same order, so both engines give the same bits.

    Returns
    -------
    numpy.ndarray, shape ``(n, goal - min(j))``
        ``[s, b - 1]`` is ``C[k[s] - 1, b - 1]`` at ``(i[s], j[s])`` for ``b <= goal - j[s]``,
        0 beyond. Equal to :func:`stage_game`'s C up to rounding (other order of the sums).
    """
    return _rows(ext, i, j, k, rules, engine, False, TIE_TOL, True)[0]


def best_replies(
    ext: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    k: np.ndarray,
    rules: Rules,
    engine: str = "auto",
    largest: bool = False,
    tie_tol: float = TIE_TOL,
) -> tuple[np.ndarray, np.ndarray]:
    """The column player's best replies to rows of C (:func:`stage_rows`, same parameters).

    Returns ``(reply, value)``: ``value[s]`` is the minimum (``largest``: maximum, the row
    player's reply when the rows are columns of C from the transposed values) of
    ``W[k[s] - 1, b - 1] = C / (1 - P(X_k = 0) P(Y_b = 0))`` over ``b = 1..goal - j[s]``, and
    ``reply[s]`` the first b (1-based) within ``tie_tol`` of it (the core's tie rule). The
    compiled engine keeps no rows: O(goal) memory, whatever the batch.

    Examples
    --------
    >>> from pigtheory.simultaneous.core import terminal_values
    >>> rules = Rules(goal=3)
    >>> ext = extended(terminal_values(rules), rules)
    >>> reply, value = best_replies(ext, np.array([2]), np.array([2]), np.array([1]), rules)
    >>> reply.tolist(), round(float(value[0]), 12)  # at 2-2, hold at 1 against hold at 1
    ([1], 0.5)
    """
    return _rows(ext, i, j, k, rules, engine, largest, tie_tol, False)[1:]


def _rows(ext, i, j, k, rules, engine, largest, tie_tol, store):
    """Rows of C (when ``store``, else None), best replies and their values."""
    tab, band_t = _tables(rules)
    g, w = rules.goal, tab.width
    n = len(i)
    nb = g - int(j.min()) if n else 0
    if choose_engine(engine, n * g) == "numba":
        out = np.empty((n, nb) if store else (0, 0))
        reply, value = np.empty(n, dtype=np.int64), np.empty(n)
        kernel = stage_kernels.compiled_rows()
        kernel(ext, i, j, k, band_of(rules), g, largest, tie_tol, store, out, reply, value)
        return (out if store else None), reply, value
    flat, stride = ext.reshape(-1), ext.shape[1]
    cols = j[:, None] + np.arange(nb + w)
    band_k = tab.band[k]
    half = np.zeros((n, nb + w))
    for r in range(w):
        half += band_k[:, r, None] * flat[((i + k + r) * stride)[:, None] + cols]
    full = half + tab.bust[k][:, None] * flat[(i * stride)[:, None] + cols]
    out = tab.bust[None, 1 : nb + 1] * half[:, :1]
    for r in range(w):
        out += tab.band[None, 1 : nb + 1, r] * full[:, 1 + r : 1 + r + nb]
    beyond = np.arange(1, nb + 1)[None, :] > (g - j)[:, None]
    out[beyond] = 0.0
    # 0 / 0 where both turns bust for sure in floating point (Piglet, k > 53): never chosen,
    # as in the compiled loop, where comparisons with nan are false
    with np.errstate(invalid="ignore", divide="ignore"):
        wv = out / (1.0 - tab.bust[k, None] * tab.bust[None, 1 : nb + 1])
    if largest:
        wv[beyond] = -np.inf
        value = np.fmax.reduce(wv, axis=1)
        reply = np.argmax(wv >= (value - tie_tol)[:, None], axis=1)
    else:
        wv[beyond] = np.inf
        value = np.fmin.reduce(wv, axis=1)
        reply = np.argmax(wv <= (value + tie_tol)[:, None], axis=1)
    return (out if store else None), reply + 1, value


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
        ``a_ok`` ``(na, n)``. ``W`` lives in a buffer that the next call overwrites.

        Returns
        -------
        W : numpy.ndarray, shape ``(na, n, goal)``
        i : numpy.ndarray of int, shape ``(n,)``
        a_ok : numpy.ndarray of bool, shape ``(na, n)``
        """
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
        """Record the values of the states of the last :meth:`games` call: ``values`` of shape
        ``(n,)``, in the order of its ``i``."""
        if self._last is None:
            raise RuntimeError("DiagonalStages.settle called before games()")
        i, j, h0 = self._last
        self.ext[i, j] = values
        self.h[i + j, i, :] = self.bust[None, :] * values[:, None] + h0
