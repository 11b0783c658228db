"""Compiled engine (numba) of the n-player best response to opponents that read every score.

Opponents whose thresholds (or mixes of thresholds) depend on the whole state, a symmetric
equilibrium's policy for one, have no product structure for
:mod:`~pigtheory.simultaneous.nplayer.kernels` to exploit. This engine solves their best
response state by state, with the same Bellman step as every compiled engine
(:func:`~.step.threshold_step`), and never forms the product of the opponents' outcomes as
an array: each state accumulates its continuation in one vector. Memory is the value table
(``(goal + 1)^(players - 1)`` rows of ``2 goal + w + 1``), the policy, and the opponents'
policies as given.

Shapes
------
``th[u, f, e]`` and ``wt[u, f, e]``: the thresholds and weights of distinct opponent policy u
at the state whose own-centric scores (the opponent's own first, then the seats after it,
cyclically) have the flat index f in ``(goal,) * players``; ``which[q]`` is the policy of
opponent q. ``vt[r, a]``: the player's value at own score a (``0..goal``) and the opponents'
scores of flat index r in ``(goal + 1,) * m``.

Notes
-----
At state ``s = (i, j_1, .., j_m)`` (all below the goal) opponent q's turn from ``j_q`` lands on
``d`` with probability :math:`P_q(d)` (its mix of X_k, merged by destination), and

.. math:: u[x] = \\sum_{d_1, \\dots, d_m} \\prod_q P_q(d_q)\\; V(\\min(i + x, g), d),

with :math:`V(s) = 0` while s is solved (the self-loop in closed form, :mod:`.step`).

States are solved column by column (the opponents' scores j, by decreasing flat index), and
within a column by decreasing own score i: every successor (componentwise larger, not equal)
comes first. Along a column the opponents' joint turn changes only where one of their mixes
does (at about one own score in eight for the three-player symmetric equilibrium at goal 100),
so it is expanded once per *run* of equal mixes, not per state: at the run's first state,
:math:`W(a) = E[V(a, j + Y)]` for every solved own score ``a > i``; at each state of the run
the part of :math:`W(i)` without the state itself (one term per joint outcome), the threshold
step on ``W[i:]``, and :math:`W(i)` completed with the state's new value. The run's
continuation costs the joint outcomes times the room once, instead of at every state. The
joint outcomes are listed first (in the order of the opponents' destinations) and added four
per pass over the own scores, each to the running sum in turn: the same sums, in the same
order, as one pass per outcome, with a quarter of the passes. The self-loop factors
:math:`1 / (1 - P(X_k = 0) B)` are kept while B (everybody busts) stays the same.

The compiled solve reads the policy, its own full arrays (no copy) and the value rows
``goal + 1`` wide; its memory is the value table, the policy as returned, and scratch of the
size of one column.

Three players against one policy that is the same at (own, a, b) and (own, b, a) (a symmetric
equilibrium's) have :math:`V(i, j_1, j_2) = V(i, j_2, j_1)`: only the columns
:math:`j_1 \\le j_2` are solved and each is copied to its mirror image (whose successors' twins
all come earlier in the order above). The last opponent then reads its row at
:math:`(j_2, j_1, i)`, the same row as :math:`(j_2, i, j_1)`, where consecutive own scores i
are adjacent in memory.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (12), (18)-(19).
"""

from __future__ import annotations

import weakref
from typing import Any, NamedTuple

import numpy as np

from ...rules import Rules
from ..core.jit import compiled as jit_compiled
from ..core.jit import kernel
from ..core.step import _six_gains, band_of, threshold_step

__all__ = ["Opponents", "opponent_arrays", "best_response_general"]


class Opponents(NamedTuple):
    """The opponents' threshold mixes (module Shapes): ``th``, ``wt`` and ``which``; ``mirror``:
    three players against one policy that is the same at (own, a, b) and (own, b, a)."""

    th: np.ndarray
    wt: np.ndarray
    which: np.ndarray
    mirror: bool


_MIRRORED: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()
"""Whether a Mixture (read-only arrays) is symmetric in the others' scores, once found."""


def opponent_arrays(mixtures: list[Any], rules: Rules) -> Opponents:
    """The :class:`Opponents` record of threshold mixtures (:class:`~pigtheory.policies.Mixture`),
    each distinct policy once (no copy when its arrays are already full and contiguous; whether
    such a policy is symmetric in the others' scores is then found once per Mixture)."""
    g, n = rules.goal, rules.players
    distinct: list[Any] = []
    which = np.zeros(len(mixtures), dtype=np.int64)
    for q, mix in enumerate(mixtures):
        for u, other in enumerate(distinct):
            if (
                other is mix
                or (other.thresholds is mix.thresholds and other.weights is mix.weights)
                or (
                    np.array_equal(other.thresholds, mix.thresholds)
                    and np.array_equal(other.weights, mix.weights)
                )
            ):
                which[q] = u
                break
        else:
            which[q] = len(distinct)
            distinct.append(mix)
    full = (g,) * n
    if len(distinct) == 1:  # one policy as it is, when its arrays are already full and contiguous
        t, w = distinct[0].thresholds, distinct[0].weights
        if (
            t.shape[:-1] == full
            and w.shape == t.shape
            and t.dtype == np.int64
            and w.dtype == np.float64
            and t.flags.c_contiguous
            and w.flags.c_contiguous
        ):
            th, wt = t.reshape(1, g**n, -1), w.reshape(1, g**n, -1)
            if n != 3 or which[0] != which[1]:
                return Opponents(th, wt, which, False)
            mirror = _MIRRORED.get(distinct[0])
            if mirror is None:
                mirror = _MIRRORED[distinct[0]] = bool(jit_compiled(_mirrored)(th[0], wt[0], g))
            return Opponents(th, wt, which, mirror)
    width = max(mix.thresholds.shape[-1] for mix in distinct)
    th = np.ones((len(distinct), g**n, width), dtype=np.int64)
    wt = np.zeros((len(distinct), g**n, width))
    for u, mix in enumerate(distinct):
        t, w = np.broadcast_arrays(mix.thresholds, mix.weights)
        s = t.shape[-1]
        th[u, :, :s] = np.broadcast_to(t, (g,) * n + (s,)).reshape(g**n, s)
        wt[u, :, :s] = np.broadcast_to(w, (g,) * n + (s,)).reshape(g**n, s)
    mirror = n == 3 and bool(which[0] == which[1]) and bool(jit_compiled(_mirrored)(th[0], wt[0], g))
    return Opponents(th, wt, which, mirror)


@kernel
def _outcomes(x, th_row, wt_row, g, band, acc, dest, prob):  # pragma: no cover - compiled
    """An opponent at score x mixing ``th_row`` with ``wt_row``: its new scores ``dest`` (in
    increasing order) and their probabilities ``prob`` (merged by score through ``acc``);
    returns ``(count, bust)``. Only the scores its thresholds reach are cleared and read."""
    bust, tab = band.bust, band.band
    w = tab.shape[1]
    low, top = g + 1, x
    for e in range(th_row.shape[0]):
        if wt_row[e] != 0.0:
            low = min(low, x + th_row[e])
            top = max(top, min(x + th_row[e] + w - 1, g))
    for v in range(low, top + 1):
        acc[v] = 0.0
    b = 0.0
    for e in range(th_row.shape[0]):
        we = wt_row[e]
        if we == 0.0:
            continue
        k = th_row[e]
        b += we * bust[k]
        for r in range(w):
            d = x + k + r
            if d > g:
                d = g
            acc[d] += we * tab[k, r]
    count = 0
    if b != 0.0:  # the bust keeps the score x, below every scoring outcome
        dest[0] = x
        prob[0] = b
        count = 1
    for v in range(low, top + 1):
        if acc[v] != 0.0:
            dest[count] = v
            prob[count] = acc[v]
            count += 1
    return count, b


@kernel
def _same_rows(opps, views, prev_views, m):  # pragma: no cover - compiled
    """Whether every opponent's threshold mix at the views ``views`` equals the one at
    ``prev_views`` (then the opponents' joint turn is the same)."""
    for q in range(m):
        pol = opps.which[q]
        a, b = views[q], prev_views[q]
        if a == b:
            continue
        for e in range(opps.th.shape[2]):
            if opps.th[pol, a, e] != opps.th[pol, b, e] or opps.wt[pol, a, e] != opps.wt[pol, b, e]:
                return False
    return True


@kernel
def _views(s, n, g, mirror, views):  # pragma: no cover - compiled
    """``views[q - 1]``: the flat index of state ``s`` as opponent q sees it (its own score
    first, then the seats after it, cyclically). With ``mirror`` (three players, a policy the
    same at (own, a, b) and (own, b, a)) the last opponent reads the same row at (j2, j1, i),
    where the rows of consecutive own scores i are adjacent in memory."""
    if mirror:
        views[0] = (s[1] * g + s[2]) * g + s[0]
        views[1] = (s[2] * g + s[1]) * g + s[0]
        return
    for q in range(1, n):
        view = 0
        p = q
        for _ in range(n):
            view = view * g + s[p]
            p += 1
            if p == n:
                p = 0
        views[q - 1] = view


@kernel
def _expand(lo, g, pcs, rows, count, vt, other):  # pragma: no cover - compiled
    """``other[a] = sum_c pcs[c] vt[rows[c], a]`` for ``a = lo..g``, the terms added in the
    order of c (``count >= 1``): four terms per pass over ``a``, each added to the running sum
    in turn, so the sums are those of one pass per term."""
    r0 = vt[rows[0]]
    p0 = pcs[0]
    for a in range(lo, g + 1):
        other[a] = p0 * r0[a]
    c = 1
    while c + 4 <= count:
        p0, p1, p2, p3 = pcs[c], pcs[c + 1], pcs[c + 2], pcs[c + 3]
        r0, r1, r2, r3 = vt[rows[c]], vt[rows[c + 1]], vt[rows[c + 2]], vt[rows[c + 3]]
        for a in range(lo, g + 1):
            other[a] = (((other[a] + p0 * r0[a]) + p1 * r1[a]) + p2 * r2[a]) + p3 * r3[a]
        c += 4
    while c < count:
        p0 = pcs[c]
        r0 = vt[rows[c]]
        for a in range(lo, g + 1):
            other[a] = other[a] + p0 * r0[a]
        c += 1


@kernel
def _solve(g, n, opps, band, tie_tol, mirror, vt, policy_t):  # pragma: no cover - compiled
    """Every non-terminal state, column by column, a run of equal mixes at a time (module
    Notes); ``policy_t[c, i]`` the threshold at own score i and column c."""
    m = n - 1
    w = band.band_t.shape[0]
    G = g + 1
    s = np.zeros(n, np.int64)
    acc = np.zeros(g + 1)
    dest = np.zeros((m, g + 1), np.int64)
    prob = np.zeros((m, g + 1))
    lens = np.zeros(m, np.int64)
    idx = np.zeros(m, np.int64)
    views = np.zeros(m, np.int64)
    run_views = np.zeros(m, np.int64)
    most = min(g + 1, opps.th.shape[2] * w + 1) ** m
    pcs = np.zeros(most)  # the joint outcomes of a run other than "everybody busts"
    rows = np.zeros(most, np.int64)
    other = np.zeros(g + 1)  # E[V(a, j + Y)] without the outcome j (everybody busts)
    wv = np.zeros(2 * g + w + 1)  # W(a) = E[V(a, j + Y)] at the solved own scores a > i
    inv = np.zeros(g + 1)
    inv_p = -1.0  # inv[1..inv_top] holds 1 / (1 - P(X_k = 0) inv_p)
    inv_top = 0
    vals = np.zeros(g + 1)
    total = g**m
    for c in range(total - 1, -1, -1):
        rest = c
        col_row = 0
        scale = 1
        for p in range(n - 1, 0, -1):
            s[p] = rest % g
            rest //= g
            col_row += s[p] * scale
            scale *= G
        if mirror and s[1] > s[2]:
            continue  # its mirror image (j2, j1) is solved, and copied here
        vc = vt[col_row]
        pol = policy_t[c]
        hi = g - 1
        while hi >= 0:
            # the run: own scores hi down to lo where every opponent mixes as at (hi, j)
            s[0] = hi
            _views(s, n, g, mirror, run_views)
            lo = hi
            while lo > 0:
                s[0] = lo - 1
                _views(s, n, g, mirror, views)
                if not _same_rows(opps, views, run_views, m):
                    break
                lo -= 1
            # the opponents' joint turn, expanded once for the run
            self_p = 1.0
            for q in range(m):
                u = opps.which[q]
                lens[q], b = _outcomes(
                    s[q + 1],
                    opps.th[u, run_views[q]],
                    opps.wt[u, run_views[q]],
                    g,
                    band,
                    acc,
                    dest[q],
                    prob[q],
                )
                self_p *= b
                idx[q] = 0
            count = 0
            while True:
                pc = 1.0
                row = 0
                for q in range(m):
                    pc *= prob[q, idx[q]]
                    row = row * G + dest[q, idx[q]]
                if pc != 0.0 and row != col_row:
                    pcs[count] = pc
                    rows[count] = row
                    count += 1
                q = m - 1
                while q >= 0:
                    idx[q] += 1
                    if idx[q] < lens[q]:
                        break
                    idx[q] = 0
                    q -= 1
                if q < 0:
                    break
            if count > 0:
                _expand(lo, g, pcs, rows, count, vt, other)
            else:
                for a in range(lo, g + 1):
                    other[a] = 0.0
            for a in range(hi + 1, g + 1):
                wv[a] = other[a] + self_p * vc[a]
            for a in range(g + 1, g + w + 1):
                wv[a] = wv[g]
            if self_p != inv_p:
                inv_p = self_p
                inv_top = 0
            for k in range(inv_top + 1, g - lo + 1):
                inv[k] = 1.0 / (1.0 - band.bust[k] * self_p)
            inv_top = max(inv_top, g - lo)
            for i in range(hi, lo - 1, -1):
                if w == 6:  # one die: the fused step threshold_step dispatches to, called directly
                    best, k = _six_gains(band, wv[i:], other[i], g - i, 0.0, inv, False, tie_tol, vals)
                else:
                    best, k = threshold_step(band, wv[i:], other[i], g - i, 0.0, inv, False, tie_tol, vals)
                vc[i] = best
                wv[i] = other[i] + self_p * best
                pol[i] = k
            hi = lo - 1
        if mirror and s[1] < s[2]:
            twin = s[2] * G + s[1]
            for a in range(g):
                vt[twin, a] = vc[a]
            tc = s[2] * g + s[1]
            for i in range(g):
                policy_t[tc, i] = pol[i]


def best_response_general(opps: Opponents, rules: Rules, tie_tol: float) -> tuple[np.ndarray, np.ndarray]:
    """``(value (goal + 1,) * players, policy (goal,) * players)``: the exact best response to
    the threshold mixes ``opps`` (own score first), compiled (module Notes).

    Three players against the same policy, symmetric in the scores of the two players it
    faces (a symmetric equilibrium's), solve only the columns ``j1 <= j2`` (module Notes)."""
    g, n = rules.goal, rules.players
    G, m = g + 1, n - 1
    band = band_of(rules)
    # the terminal values (terminal_values, by the opponents' scores first): at own score g,
    # 1 / (1 + the opponents at the goal); elsewhere 0 until solved
    at_goal = (np.indices((G,) * m).reshape(m, -1) == g).sum(axis=0)
    vt = np.zeros((G**m, G))
    vt[:, g] = 1.0 / (1 + at_goal)
    policy_t = np.zeros((g**m, g), dtype=np.int64)
    jit_compiled(_solve)(g, n, opps, band, tie_tol, opps.mirror, vt, policy_t)
    value = np.ascontiguousarray(vt.T).reshape((G,) * n)
    return value, np.ascontiguousarray(policy_t.T).reshape((g,) * n)


@kernel
def _mirrored(th, wt, g):  # pragma: no cover - compiled
    """Whether ``th`` and ``wt`` (rows by the flat index of (own, a, b)) are the same at (own,
    a, b) and (own, b, a)."""
    for x in range(g):
        for a in range(g):
            for b in range(a + 1, g):
                r1 = (x * g + a) * g + b
                r2 = (x * g + b) * g + a
                for e in range(th.shape[1]):
                    if th[r1, e] != th[r2, e] or wt[r1, e] != wt[r2, e]:
                        return False
    return True
