"""Compiled engine (numba) of the n-player best response to opponents that read every score.

Opponents whose thresholds (or mixes of thresholds) depend on the whole state, a symmetric
equilibrium's policy for one, have no product structure for
:mod:`~pigtheory.simultaneous.core.nplayer` to exploit. This engine solves their best
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
opponent q. ``vt[r, a]``: the player's value at own score a (columns past the goal repeat
the value at the goal) and the opponents' scores of flat index r in ``(goal + 1,) * m``.

Notes
-----
At state ``s = (i, j_1, .., j_m)`` (all below the goal) opponent q's turn from ``j_q`` lands on
``d`` with probability :math:`P_q(d)` (its mix of X_k, merged by destination), and

.. math:: u[x] = \\sum_{d_1, \\dots, d_m} \\prod_q P_q(d_q)\\; V(\\min(i + x, g), d),

with :math:`V(s) = 0` while s is solved (the self-loop in closed form, :mod:`.step`). States are
solved by decreasing flat index: every successor (componentwise larger, not equal) comes first.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (12), (18)-(19).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...rules import Rules
from .jit import compiled as jit_compiled
from .jit import kernel
from .levels import terminal_values
from .step import band_of, threshold_step

__all__ = ["Opponents", "opponent_arrays", "best_response_general"]


class Opponents(NamedTuple):
    """The opponents' threshold mixes (module Shapes): ``th``, ``wt`` and ``which``."""

    th: np.ndarray
    wt: np.ndarray
    which: np.ndarray


def opponent_arrays(mixtures: list[Any], rules: Rules) -> Opponents:
    """The :class:`Opponents` record of threshold mixtures (:class:`~pigtheory.policies.Mixture`),
    each distinct policy once (no copy when its arrays are already full and contiguous)."""
    g, n = rules.goal, rules.players
    distinct: list[Any] = []
    which = np.zeros(len(mixtures), dtype=np.int64)
    for q, mix in enumerate(mixtures):
        for u, other in enumerate(distinct):
            if other is mix or (
                np.array_equal(other.thresholds, mix.thresholds)
                and np.array_equal(other.weights, mix.weights)
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
            return Opponents(t.reshape(1, g**n, -1), w.reshape(1, g**n, -1), which)
    width = max(mix.thresholds.shape[-1] for mix in distinct)
    th = np.ones((len(distinct), g**n, width), dtype=np.int64)
    wt = np.zeros((len(distinct), g**n, width))
    for u, mix in enumerate(distinct):
        t, w = np.broadcast_arrays(mix.thresholds, mix.weights)
        s = t.shape[-1]
        th[u, :, :s] = np.broadcast_to(t, (g,) * n + (s,)).reshape(g**n, s)
        wt[u, :, :s] = np.broadcast_to(w, (g,) * n + (s,)).reshape(g**n, s)
    return Opponents(th, wt, which)


@kernel
def _outcomes(x, th_row, wt_row, g, band, acc, dest, prob):  # pragma: no cover - compiled
    """An opponent at score x mixing ``th_row`` with ``wt_row``: its new scores ``dest`` and
    their probabilities ``prob`` (merged by score through ``acc``); returns ``(count, bust)``."""
    bust, tab = band.bust, band.band
    for v in range(x, g + 1):
        acc[v] = 0.0
    b = 0.0
    for e in range(th_row.shape[0]):
        we = wt_row[e]
        if we == 0.0:
            continue
        k = th_row[e]
        b += we * bust[k]
        for r in range(tab.shape[1]):
            d = x + k + r
            if d > g:
                d = g
            acc[d] += we * tab[k, r]
    acc[x] += b
    count = 0
    for v in range(x, g + 1):
        if acc[v] != 0.0:
            dest[count] = v
            prob[count] = acc[v]
            count += 1
    return count, b


@kernel
def _solve(g, n, opps, band, tie_tol, vt, policy):  # pragma: no cover - compiled
    """Every non-terminal state by decreasing flat index (module Notes)."""
    m = n - 1
    w = band.band_t.shape[0]
    G = g + 1
    s = np.zeros(n, np.int64)
    acc = np.zeros(g + 1)
    dest = np.zeros((m, g + 1), np.int64)
    prob = np.zeros((m, g + 1))
    lens = np.zeros(m, np.int64)
    idx = np.zeros(m, np.int64)
    u = np.zeros(g + w + 1)
    vals = np.zeros(g + 1)
    total = g**n
    for f in range(total - 1, -1, -1):
        rest = f
        for p in range(n - 1, -1, -1):
            s[p] = rest % g
            rest //= g
        i = s[0]
        room = g - i
        opp_bust = 1.0
        for q in range(1, n):
            view = 0
            for t in range(n):
                view = view * g + s[(q + t) % n]
            pol = opps.which[q - 1]
            lens[q - 1], b = _outcomes(
                s[q], opps.th[pol, view], opps.wt[pol, view], g, band, acc, dest[q - 1], prob[q - 1]
            )
            opp_bust *= b
        for x in range(room + 1):
            u[x] = 0.0
        for q in range(m):
            idx[q] = 0
        while True:
            pc = 1.0
            row = 0
            for q in range(m):
                pc *= prob[q, idx[q]]
                row = row * G + dest[q, idx[q]]
            if pc != 0.0:
                vr = vt[row]
                for x in range(room + 1):
                    u[x] += pc * vr[i + x]
            q = m - 1
            while q >= 0:
                idx[q] += 1
                if idx[q] < lens[q]:
                    break
                idx[q] = 0
                q -= 1
            if q < 0:
                break
        for x in range(room + 1, room + w):
            u[x] = u[room]
        best, k = threshold_step(band, u, u[0], room, opp_bust, vals, True, tie_tol, vals, vals)
        own_row = 0
        for q in range(1, n):
            own_row = own_row * G + s[q]
        vt[own_row, i] = best
        policy[f] = k


def best_response_general(opps: Opponents, rules: Rules, tie_tol: float) -> tuple[np.ndarray, np.ndarray]:
    """``(value (goal + 1,) * players, policy (goal,) * players)``: the exact best response to
    the threshold mixes ``opps`` (own score first), compiled (module Notes)."""
    g, n = rules.goal, rules.players
    G, m = g + 1, n - 1
    band = band_of(rules)
    w = band.band_t.shape[0]
    term = terminal_values(rules)  # own score first
    vt = np.zeros((G**m, 2 * g + w + 1))
    vt[:, :G] = term.reshape(G, G**m).T
    vt[:, G:] = vt[:, g : g + 1]
    policy = np.zeros(g**n, dtype=np.int64)
    jit_compiled(_solve)(g, n, opps, band, tie_tol, vt, policy)
    value = np.ascontiguousarray(vt[:, :G].T).reshape((G,) * n)
    return value, policy.reshape((g,) * n)
