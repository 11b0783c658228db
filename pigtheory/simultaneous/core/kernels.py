"""Compiled kernels (numba) of the core: the two-player best response, optimal stopping.

The same backward induction as :mod:`.two_player` (the numpy engine), state by state over
the levels of ``i + j`` from the top, with plain loops instead of batched array operations.
The functions below are plain Python until ``two_player()`` compiles them (``cache=True``:
numba keeps the machine code on disk, so later processes only load it); numba is imported
there and nowhere else. :mod:`.engine` decides when they are used.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np


def _values(vals, room, bust, band_t, u, u0, scale, divide):  # pragma: no cover - compiled
    """``vals[k] = (P(X_k = 0) u0 + sum_r P(X_k = k + r) u[k + r]) * scale[k]`` (or ``/``),
    k = 1..room, and the largest of them. One die's six faces get an unrolled body so that
    the loop over k vectorises."""
    w = band_t.shape[0]
    if w == 6:
        b0, b1, b2, b3, b4, b5 = band_t[0], band_t[1], band_t[2], band_t[3], band_t[4], band_t[5]
        for k in range(1, room + 1):
            a = (
                bust[k] * u0
                + b0[k] * u[k]
                + b1[k] * u[k + 1]
                + b2[k] * u[k + 2]
                + b3[k] * u[k + 3]
                + b4[k] * u[k + 4]
                + b5[k] * u[k + 5]
            )
            vals[k] = a / scale[k] if divide else a * scale[k]
    else:
        for k in range(1, room + 1):
            a = bust[k] * u0
            for r in range(w):
                a += band_t[r, k] * u[k + r]
            vals[k] = a / scale[k] if divide else a * scale[k]
    best = -np.inf
    for k in range(1, room + 1):
        if vals[k] > best:
            best = vals[k]
    return best


def _first_within(vals, room, best, tie_tol):  # pragma: no cover - compiled
    for k in range(1, room + 1):
        if vals[k] >= best - tie_tol:
            return k
    return 1


def _independent(g, bust, band_t, inv, cz, pz, pb, tie_tol, V, UT, policy):  # pragma: no cover - compiled
    """B's turn depends on B's score only. ``UT[j, a] = E_Y[V(a, j + Y)]`` (columns past the
    goal already hold the terminal values); ``V`` holds the terminal values, zeros elsewhere;
    ``inv[j, k] = 1 / (1 - P(X_k = 0) P(Y = 0 | j))``; ``band_t[r, k] = P(X_k = k + r)``."""
    vals = np.empty(g + 1)
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            room = g - i
            z = 0.0
            for r in range(pz.shape[1]):
                z += pz[j, r] * V[i, cz[j, r]]
            # Until solved, V(i, j) counts as 0: the self-loop is in the denominator (inv).
            best = _values(vals, room, bust, band_t, UT[j, i:], z, inv[j], False)
            V[i, j] = best
            policy[i, j] = _first_within(vals, room, best, tie_tol)
            UT[j, i] = z + pb[j] * best


def _continuation(u, den, P, C, VT, bust, i, j, room, w):  # pragma: no cover - compiled
    """At state (i, j) against a general opponent (``P``, ``C`` as in :func:`_general`):
    ``u[x] = sum_r P[i, j, r] VT[C[i, j, r], i + x]``, padded past the room, and the self-loop
    denominators ``den[k] = 1 - P(X_k = 0) P(opponent busts)``."""
    for x in range(room + 1):
        u[x] = 0.0
    for r in range(P.shape[2]):
        p = P[i, j, r]
        c = C[i, j, r]
        for x in range(room + 1):
            u[x] += p * VT[c, i + x]
    for x in range(room + 1, room + w):
        u[x] = u[room]
    for k in range(1, room + 1):
        den[k] = 1.0 - bust[k] * P[i, j, 0]


def _general(g, bust, band_t, P, C, tie_tol, VT, policy):  # pragma: no cover - compiled
    """B's turn may depend on A's score: ``P[i, j, r]``, ``C[i, j, r]`` give B's outcomes (column
    0 the bust) and the columns they land on. ``VT[c, a] = V(a, c)``, terminal past the goal."""
    w = band_t.shape[0]
    u = np.empty(g + w + 1)
    den = np.empty(g + 1)
    vals = np.empty(g + 1)
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            room = g - i
            _continuation(u, den, P, C, VT, bust, i, j, room, w)
            best = _values(vals, room, bust, band_t, u, u[0], den, True)
            VT[j, i] = best
            policy[i, j] = _first_within(vals, room, best, tie_tol)


def _stop_one(
    u, u0, room, loop_p, v, p_bust, gains, probs, tie_tol, max_passes, a, c, new, rule
):  # pragma: no cover - compiled
    """Optimal stopping at one state (:mod:`.stopping`): ``u[x]`` for ``x = 1..room``, ``u0``
    the bust's continuation without the self-loop, ``loop_p`` the chance the opponents all
    bust, ``v`` a value to start from. Writes the rule into ``rule[:room]`` (its previous
    contents are the first comparison); returns ``(value, passes)``."""
    passes = 0
    for it in range(1, max_passes + 1):
        a[room] = u[room]
        c[room] = 0.0
        loop = loop_p * v
        changed = False
        for t in range(room - 1, -1, -1):
            ra = p_bust * u0
            rc = p_bust
            for f in range(gains.shape[0]):
                to = t + gains[f]
                if to > room:
                    to = room
                ra += probs[f] * a[to]
                rc += probs[f] * c[to]
            go = True
            if t > 0:
                go = ra + rc * loop > u[t] + tie_tol
            if go:
                a[t] = ra
                c[t] = rc
            else:
                a[t] = u[t]
                c[t] = 0.0
            new[t] = go
            if go != rule[t]:
                changed = True
        for t in range(room):
            rule[t] = new[t]
        v = a[0] / (1.0 - c[0] * loop_p)
        passes = it
        if not changed:
            break
    return v, passes


def _stopping(
    u, own, opp_bust, start, p_bust, gains, probs, tie_tol, max_passes, value, roll, passes
):  # pragma: no cover - compiled
    """:func:`~pigtheory.simultaneous.core.stopping.optimal_stopping`, state by state."""
    ns, width = u.shape
    g = width - 1
    a = np.empty(g + 1)
    c = np.empty(g + 1)
    new = np.empty(g, dtype=np.bool_)
    for s in range(ns):
        room = g - own[s]
        for t in range(g):
            roll[s, t] = False
        value[s], passes[s] = _stop_one(
            u[s],
            u[s, 0],
            room,
            opp_bust[s],
            start[s],
            p_bust,
            gains,
            probs,
            tie_tol,
            max_passes,
            a,
            c,
            new,
            roll[s],
        )


def _stop_independent(
    g, bust, band_t, inv, cz, pz, pb, p_bust, gains, probs, tie_tol, max_passes, V, UT, roll, tval, tk
):  # pragma: no cover - compiled
    """Two players, B's turn by B's score only: :func:`_independent` with the best stopping
    rule at every state (started from the best threshold, whose value and k are kept)."""
    vals = np.empty(g + 1)
    a = np.empty(g + 1)
    c = np.empty(g + 1)
    new = np.empty(g, dtype=np.bool_)
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            room = g - i
            z = 0.0
            for r in range(pz.shape[1]):
                z += pz[j, r] * V[i, cz[j, r]]
            row = UT[j, i:]
            t_best = _values(vals, room, bust, band_t, row, z, inv[j], False)
            tval[i, j] = t_best
            k = _first_within(vals, room, t_best, tie_tol)
            tk[i, j] = k
            for t in range(k):  # start from the best threshold's rule: one pass if it is optimal
                roll[i, j, t] = True
            best, _ = _stop_one(
                row, z, room, pb[j], t_best, p_bust, gains, probs, tie_tol, max_passes, a, c, new, roll[i, j]
            )
            V[i, j] = best
            UT[j, i] = z + pb[j] * best


def _stop_general(
    g, bust, band_t, P, C, p_bust, gains, probs, tie_tol, max_passes, VT, roll, tval, tk
):  # pragma: no cover - compiled
    """Two players, any opponent: :func:`_general` with the best stopping rule at every state."""
    w = band_t.shape[0]
    u = np.empty(g + w + 1)
    den = np.empty(g + 1)
    vals = np.empty(g + 1)
    a = np.empty(g + 1)
    c = np.empty(g + 1)
    new = np.empty(g, dtype=np.bool_)
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            room = g - i
            _continuation(u, den, P, C, VT, bust, i, j, room, w)
            t_best = _values(vals, room, bust, band_t, u, u[0], den, True)
            tval[i, j] = t_best
            k = _first_within(vals, room, t_best, tie_tol)
            tk[i, j] = k
            for t in range(k):
                roll[i, j, t] = True
            best, _ = _stop_one(
                u,
                u[0],
                room,
                P[i, j, 0],
                t_best,
                p_bust,
                gains,
                probs,
                tie_tol,
                max_passes,
                a,
                c,
                new,
                roll[i, j],
            )
            VT[j, i] = best


def _stopping_outcomes(prob, own, p_bust, gains, probs, out):  # pragma: no cover - compiled
    """:func:`~pigtheory.simultaneous.core.stopping.stopping_outcomes`, state by state
    (``prob[s, t]``: the chance of rolling at t; 0 or 1 for a pure rule)."""
    ns, g = prob.shape
    reach = np.empty(g + 1)
    for s in range(ns):
        room = g - own[s]
        for t in range(g + 1):
            reach[t] = 0.0
            out[s, t] = 0.0
        reach[0] = 1.0
        for t in range(room):
            m = reach[t]
            if m == 0.0:
                continue
            go = m if t == 0 else prob[s, t] * m
            if t > 0:
                out[s, t] += m - go
            out[s, 0] += p_bust * go
            for f in range(gains.shape[0]):
                to = t + gains[f]
                if to >= room:
                    out[s, room] += probs[f] * go
                else:
                    reach[to] += probs[f] * go


@lru_cache(maxsize=1)
def stopping() -> tuple[Any, Any, Any, Any]:
    """The compiled ``(optimal_stopping, stopping_outcomes, two-player independent, two-player
    general)`` stopping kernels; they call the helpers ``two_player()`` compiles."""
    from numba import njit

    two_player()
    global _stop_one
    _stop_one = njit(cache=True, nogil=True)(_stop_one)
    jit = njit(cache=True, nogil=True)
    return jit(_stopping), jit(_stopping_outcomes), jit(_stop_independent), jit(_stop_general)


@lru_cache(maxsize=1)
def two_player() -> tuple[Any, Any]:
    """The compiled ``(independent, general)`` two-player kernels; the first call in a process
    imports numba and compiles them (seconds) or loads them from numba's disk cache."""
    from numba import njit

    global _values, _first_within, _continuation  # the kernels call the compiled helpers
    _values = njit(cache=True, nogil=True)(_values)
    _first_within = njit(cache=True, nogil=True)(_first_within)
    _continuation = njit(cache=True, nogil=True)(_continuation)
    return njit(cache=True, nogil=True)(_independent), njit(cache=True, nogil=True)(_general)
