"""Compiled engine (numba) of the n-player best response to separable opponents.

The same exact backward induction as the numpy engine of
:func:`pigtheory.simultaneous.reduced_best_response`, state by state, over the reduced state
space only: no (goal + 1)^n array, no dense band of thresholds, no array of intermediate
expectations beyond a few slabs.

Shapes
------
Columns ``c = 0..S-1`` are the opponents' score tuples ``states[c]`` (shape ``(S, m)``, m the
number of opponents, lexicographic order; sorted tuples when the opponents are identical).
``vt[c, a]`` is the player's value at own score ``a`` (``0..goal``) and column c, ``pol_t[c, i]``
the threshold at own score ``i < goal`` (the transposes of ``ReducedSolution.value`` and
``.policy``). Opponent q's turn at score x lands on ``dest[q, x, o]`` with probability
``prob[q, x, o]`` (``dest == x`` the bust; one entry per destination, zero-padded).

Notes
-----
Let :math:`A_0 = V` and :math:`A_t(a, j) = \\sum_y P(Y_t = y \\mid j_t)\\, A_{t-1}(a, j + y e_t)`:
opponents 1..t have moved. :math:`W = A_m` is the expectation over all opponents' turns that
the player's action values need,

.. math:: V(i, j) = \\max_{1 \\le k \\le g - i} \\frac{P(X_k = 0)\\, W^0(i, j)
    + \\sum_{r < w} P(X_k = k + r)\\, W(\\min(i + k + r, g), j)}{1 - P(X_k = 0)\\, P(Y = 0 \\mid j)},

:math:`W^0` being W with :math:`V(i, j)` itself counted as 0 (the self-loop in closed form).
With identical opponents the tuples are sorted and the opponent that moves at stage t is the
largest of the first t (``states[c, t - 1]``); the moved score is put back in order among the
last m - t + 1, so every :math:`A_t` lives on the same sorted tuples (A_t is symmetric in its
first t and in its last m - t arguments).

Columns are solved in decreasing lexicographic order, which visits every successor tuple
(componentwise larger, still sorted) before the tuple. For a column, first every
:math:`A_t(\\cdot, j)` is written as ``part_t + coef_t V(., j)`` (its successors other than j are
known; ``coef_t`` is the chance that opponents 1..t all bust), then own scores go from
``goal - 1`` down to 0 (one column is a two-player problem: :math:`W(a, j)` for ``a > i`` is
known when ``V(i, j)`` is solved), and finally :math:`A_t(\\cdot, j)`, ``0 < t < m``, is stored in
slab t. :math:`A_{t+1}` reads :math:`A_t` only at tuples with the same first t scores, which
are solved consecutively; so slab t holds one vector per value of the last m - t scores,
``(goal + 1)^(m - t)`` rows of ``goal + 1``: 8 MB for four players at goal 100.

The functions below are kernels (:mod:`.jit`): plain Python until :func:`compiled` compiles
them.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (18)-(19), Algorithm 0.3.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..core.jit import compiled as jit_compiled
from ..core.jit import kernel
from ..core.step import threshold_step_inline

__all__ = ["Columns", "Moves", "Tables", "compiled", "slab_rows", "solve_column"]


def slab_rows(g: int, m: int) -> np.ndarray:
    """First row of slab t (t = 1..m-1) in one buffer; entry m is the total."""
    offs = np.zeros(m + 1, dtype=np.int64)
    for t in range(1, m):
        offs[t + 1] = offs[t] + (g + 1) ** (m - t)
    return offs


@kernel
def _rank(s, tab, symmetric):  # pragma: no cover - compiled
    """Column of the score tuple s (see :func:`pigtheory.simultaneous.nplayer.score_sets.rank_table`)."""
    m = s.shape[0]
    rank = 0
    prev = 0
    for p in range(m):
        rank += tab[m - 1 - p, s[p]]
        if symmetric:
            rank -= tab[m - 1 - p, prev]
            prev = s[p]
    return rank


@kernel
def _tail(s, start, base):  # pragma: no cover - compiled
    """Row of ``s[start:]`` in a slab: its digits in ``base``."""
    row = 0
    for q in range(start, s.shape[0]):
        row = row * base + s[q]
    return row


class Columns(NamedTuple):
    """The opponents' score tuples of the columns: ``states`` (``(S, m)``), their rank table
    ``tab`` (``pigtheory.simultaneous.nplayer.score_sets.rank_table``) and whether they are
    sorted (``symmetric``, identical opponents)."""

    states: np.ndarray
    tab: np.ndarray
    symmetric: bool


class Moves(NamedTuple):
    """Opponent q's turn from score x lands on ``dest[q, x, o]`` with ``prob[q, x, o]``."""

    dest: np.ndarray
    prob: np.ndarray


class Tables(NamedTuple):
    """What the column solver writes: ``vt[c, a]`` (values), ``pol_t[c, i]`` (thresholds),
    the slabs of :math:`A_t` and their first rows ``offs`` (:func:`slab_rows`)."""

    vt: np.ndarray
    pol_t: np.ndarray
    slabs: np.ndarray
    offs: np.ndarray


@kernel(refcount=False)
def solve_column(g, z, cm, band, tie_tol, u, inv, vals, v, pol):  # pragma: no cover - compiled
    """Own scores ``g - 1 .. 0`` of one live column: ``W = z + cm V``, ``u`` its scratch copy
    padded past the goal; writes ``v`` (values) and ``pol`` (thresholds), one
    :func:`~.step.threshold_step` per own score."""
    w = band.band_t.shape[0]
    bust = band.bust
    v[g] = 1.0
    top = z[g] + cm
    for a in range(g, g + w + 1):
        u[a] = top
    for k in range(1, g + 1):
        inv[k] = 1.0 / (1.0 - bust[k] * cm)
    for i in range(g - 1, -1, -1):
        best, k_best = threshold_step_inline(band, u[i:], z[i], g - i, 0.0, inv, False, tie_tol, vals)
        v[i] = best
        pol[i] = k_best
        u[i] = z[i] + cm * best


@kernel
def _columns(c_hi, c_lo, cols, moves, band, tie_tol, out):  # pragma: no cover - compiled
    """Solve columns ``c_hi - 1`` down to ``c_lo`` (see the module Notes): ``cols`` a
    :class:`Columns`, ``moves`` a :class:`Moves`, ``band`` a :class:`~.step.Band`, ``out`` the
    :class:`Tables` written."""
    states, tab, symmetric = cols.states, cols.tab, cols.symmetric
    dest, prob = moves.dest, moves.prob
    vt, pol_t, slabs, offs = out.vt, out.pol_t, out.slabs, out.offs
    g = vt.shape[1] - 1
    m = states.shape[1]
    w = band.band_t.shape[0]
    n_out = dest.shape[2]
    part = np.zeros((m + 1, g + 1))
    coef = np.ones(m + 1)
    cur = np.empty(m, np.int64)
    nxt = np.empty(m, np.int64)
    u = np.empty(g + w + 1)
    inv = np.empty(g + 1)
    vals = np.empty(g + 1)
    for c in range(c_hi - 1, c_lo - 1, -1):
        at_goal = 0
        for p in range(m):
            cur[p] = states[c, p]
            if cur[p] == g:
                at_goal += 1
        for t in range(1, m + 1):
            q = t - 1
            x = cur[q]
            pt = part[t]
            prev = part[t - 1]
            for a in range(g + 1):
                pt[a] = 0.0
            coef[t] = 0.0
            for o in range(n_out):
                p = prob[q, x, o]
                if p == 0.0:
                    continue
                d = dest[q, x, o]
                if d == x:  # the column itself: its unknown V enters through coef
                    coef[t] = p * coef[t - 1]
                    for a in range(g + 1):
                        pt[a] += p * prev[a]
                    continue
                for r in range(m):
                    nxt[r] = cur[r]
                r = q
                if symmetric:
                    while r + 1 < m and nxt[r + 1] < d:
                        nxt[r] = nxt[r + 1]
                        r += 1
                nxt[r] = d
                if t == 1:
                    row = vt[_rank(nxt, tab, symmetric)]
                else:
                    row = slabs[offs[t - 1] + _tail(nxt, q, g + 1)]
                for a in range(g + 1):
                    pt[a] += p * row[a]
        v = vt[c]
        if at_goal > 0:
            for a in range(g):
                v[a] = 0.0
            v[g] = 1.0 / (1 + at_goal)
        else:
            solve_column(g, part[m], coef[m], band, tie_tol, u, inv, vals, v, pol_t[c])
        for t in range(1, m):
            dst = slabs[offs[t] + _tail(cur, t, g + 1)]
            ct = coef[t]
            pt = part[t]
            for a in range(g + 1):
                dst[a] = pt[a] + ct * v[a]


def compiled() -> Any:
    """The compiled column solver (:func:`~.jit.compiled`): the first call in a process
    imports numba and compiles it (seconds) or loads it from numba's disk cache.

    Call it as ``kernel(c_hi, c_lo, cols, moves, band, tie_tol, out)`` (``_columns``): it
    solves columns ``c_hi - 1`` down to ``c_lo``, all columns above ``c_hi - 1`` having been
    solved by earlier calls on the same arrays.
    """
    return jit_compiled(_columns)
