"""The compiled Bellman step of every compiled engine: one threshold step, one stopping step.

Every compiled solver of simultaneous Pig (two players, n players, the chunked level solve,
the symmetric solvers) solves a state with these kernels, so the arithmetic of a state is
written once. Their numpy reference is :class:`~pigtheory.simultaneous.core.Thresholds`
(``best`` with :func:`~pigtheory.simultaneous.core.greedy`) and
:func:`~pigtheory.simultaneous.core.stopping_rules.optimal_stopping`; the engine-agreement
tests hold the two to each other.

Inputs
------
:class:`Band` holds the X_k of "hold at k" (:func:`~pigtheory.simultaneous.core.threshold_band`),
:class:`Roll` one roll of the die; both are plain named tuples of arrays (numba passes them
as records). :func:`band_of` builds the first for a :class:`~pigtheory.Rules`; ``Roll(*rules.roll_arrays())``
the second.

Conventions
-----------
``u`` is a continuation vector of the state's player indexed by the gain x: ``u[x]`` for
``x = 0..room`` and padded past the room (``u[x] = u[room]`` up to ``room + w - 1``), ``u0``
the bust's continuation with the state's own value counted as 0. Arrays indexed by k carry
threshold k at entry k (entry 0 unused).

Notes
-----
Threshold step, for ``k = 1..room``:

.. math:: a_k = P(X_k = 0)\\, u_0 + \\sum_{r < w} P(X_k = k + r)\\, u[k + r], \\qquad
          v_k = \\frac{a_k}{1 - P(X_k = 0)\\, B},

B the chance that every opponent busts: the self-loop in closed form (divided, or multiplied
by factors the caller tabulated once for many states). The step returns the largest
:math:`v_k` and the first k within ``tie_tol`` of it. The terms are added in this order and
the products are not fused, so a caller gets the same bits whichever engine it runs.

The stopping step is the policy iteration of
:func:`~pigtheory.simultaneous.core.stopping_rules.optimal_stopping` at one state.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (6)-(12), (18)-(19).
W. Dinkelbach, "On nonlinear fractional programming", Management Science 13 (1967) 492-498.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ...rules import Rules
from .actions import threshold_band
from .jit import inlined, kernel

__all__ = [
    "Band",
    "Roll",
    "band_of",
    "threshold_values",
    "self_loop_values",
    "largest",
    "first_within",
    "threshold_step",
    "threshold_step_inline",
    "stopping_step",
]


class Band(NamedTuple):
    """X_k of "hold at k": ``bust[k] = P(X_k = 0)`` (shape ``(goal + 1,)``), ``band_t[r, k] =
    P(X_k = k + r)`` (shape ``(w, goal + 1)``) and its transpose ``band`` (``(goal + 1, w)``)."""

    bust: np.ndarray
    band_t: np.ndarray
    band: np.ndarray


class Roll(NamedTuple):
    """One roll: the bust chance ``p_bust`` and the scoring ``gains`` with their ``probs``."""

    p_bust: float
    gains: np.ndarray
    probs: np.ndarray


@lru_cache(maxsize=16)
def band_of(rules: Rules) -> Band:
    """The :class:`Band` of ``rules`` (contiguous, read-only arrays; cached)."""
    bust, band_t = threshold_band(rules)
    band = np.ascontiguousarray(band_t.T)
    band.setflags(write=False)
    return Band(np.ascontiguousarray(bust, dtype=float), band_t, band)


@kernel(refcount=False)
def threshold_values(band, u, u0, room, num):  # pragma: no cover - compiled
    """``num[k] = a_k`` for ``k = 1..room`` (module Notes). Entry ``k - 1`` of the slices taken
    from 1 is threshold k: the loops run over unit-stride slices, which numba vectorises. Six
    gains (one die) get an unrolled body."""
    bust, band_t = band.bust, band.band_t
    w = band_t.shape[0]
    bs, nn = bust[1:], num[1:]
    if w == 6:
        b0, b1, b2, b3, b4, b5 = (
            band_t[0, 1:],
            band_t[1, 1:],
            band_t[2, 1:],
            band_t[3, 1:],
            band_t[4, 1:],
            band_t[5, 1:],
        )
        x0, x1, x2, x3, x4, x5 = u[1:], u[2:], u[3:], u[4:], u[5:], u[6:]
        for k in range(room):
            nn[k] = (
                bs[k] * u0
                + b0[k] * x0[k]
                + b1[k] * x1[k]
                + b2[k] * x2[k]
                + b3[k] * x3[k]
                + b4[k] * x4[k]
                + b5[k] * x5[k]
            )
    else:
        for k in range(room):
            nn[k] = bs[k] * u0
        for r in range(w):
            br, ur = band_t[r, 1:], u[1 + r :]
            for k in range(room):
                nn[k] += br[k] * ur[k]


@kernel(refcount=False)
def self_loop_values(num, room, bust, opp_bust, inv, divide, vals):  # pragma: no cover - compiled
    """The stationary values ``vals[k]``, ``k = 1..room``: ``num[k] / (1 - P(X_k = 0) B)``
    with ``divide`` (B = ``opp_bust``), else ``num[k] * inv[k]`` with the factors tabulated
    by the caller (``inv[k] = 1 / (1 - P(X_k = 0) B)``). ``vals`` may be ``num``."""
    nn, vv = num[1:], vals[1:]
    if divide:
        bs = bust[1:]
        for k in range(room):
            vv[k] = nn[k] / (1.0 - bs[k] * opp_bust)
    else:
        ss = inv[1:]
        for k in range(room):
            vv[k] = nn[k] * ss[k]


@kernel(refcount=False)
def largest(vals, room):  # pragma: no cover - compiled
    """``max(vals[1..room])`` with four running maxima: the same number, without waiting on
    each comparison in turn."""
    m0 = m1 = m2 = m3 = vals[1]
    k = 2
    while k + 4 <= room + 1:
        m0 = max(m0, vals[k])
        m1 = max(m1, vals[k + 1])
        m2 = max(m2, vals[k + 2])
        m3 = max(m3, vals[k + 3])
        k += 4
    while k <= room:
        m0 = max(m0, vals[k])
        k += 1
    return max(max(m0, m1), max(m2, m3))


@kernel(refcount=False)
def first_within(vals, room, best, tie_tol):  # pragma: no cover - compiled
    """The first (smallest) ``k <= room`` with ``vals[k] >= best - tie_tol`` (1 if none)."""
    for k in range(1, room + 1):
        if vals[k] >= best - tie_tol:
            return k
    return 1


@kernel(refcount=False)
def _six_gains(band, u, u0, room, opp_bust, inv, divide, tie_tol, vals):  # pragma: no cover - compiled
    """:func:`threshold_step` for a band of six gains: the values and self-loops in one loop
    (the same operations in the same order, so the same bits), then the same choice."""
    bust, band_t = band.bust, band.band_t
    bs, vv = bust[1:], vals[1:]
    b0, b1, b2, b3, b4, b5 = (
        band_t[0, 1:],
        band_t[1, 1:],
        band_t[2, 1:],
        band_t[3, 1:],
        band_t[4, 1:],
        band_t[5, 1:],
    )
    x0, x1, x2, x3, x4, x5 = u[1:], u[2:], u[3:], u[4:], u[5:], u[6:]
    if divide:
        for k in range(room):
            vv[k] = (
                bs[k] * u0
                + b0[k] * x0[k]
                + b1[k] * x1[k]
                + b2[k] * x2[k]
                + b3[k] * x3[k]
                + b4[k] * x4[k]
                + b5[k] * x5[k]
            ) / (1.0 - bs[k] * opp_bust)
    else:
        ss = inv[1:]
        for k in range(room):
            vv[k] = (
                bs[k] * u0
                + b0[k] * x0[k]
                + b1[k] * x1[k]
                + b2[k] * x2[k]
                + b3[k] * x3[k]
                + b4[k] * x4[k]
                + b5[k] * x5[k]
            ) * ss[k]
    best = largest(vals, room)
    return best, first_within(vals, room, best, tie_tol)


@kernel(refcount=False)
def threshold_step(band, u, u0, room, opp_bust, inv, divide, tie_tol, vals):  # pragma: no cover
    """The threshold step (module Notes): fills ``vals[1..room]`` with the stationary values
    (:func:`threshold_values`, then :func:`self_loop_values` in place) and returns ``(best
    value, first k within tie_tol)``. Six gains (one die) take one fused loop."""
    if band.band_t.shape[0] == 6:
        return _six_gains(band, u, u0, room, opp_bust, inv, divide, tie_tol, vals)
    threshold_values(band, u, u0, room, vals)
    self_loop_values(vals, room, band.bust, opp_bust, inv, divide, vals)
    best = largest(vals, room)
    return best, first_within(vals, room, best, tie_tol)


@kernel(refcount=False)
def stopping_step(u, u0, room, loop_p, v, roll, tie_tol, max_passes, a, c, new, rule):  # pragma: no cover
    """The best stopping rule at one state by policy iteration on its own value (Dinkelbach):
    ``u[x]`` for ``x = 1..room``, ``u0`` the bust's continuation without the self-loop,
    ``loop_p`` the chance the opponents all bust, ``v`` a value to start from, ``roll`` a
    :class:`Roll`, scratch ``a``, ``c`` (``room + 1``) and ``new`` (``room``). Writes the rule
    into ``rule[:room]`` (its previous contents are the first comparison); returns
    ``(value, passes)``."""
    p_bust, gains, probs = roll.p_bust, roll.gains, roll.probs
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


_six_gains_inline = inlined(_six_gains, "_six_gains_inline")
threshold_step_inline = inlined(threshold_step, "threshold_step_inline", _six_gains=_six_gains_inline)
"""The threshold step inlined into its caller: :func:`threshold_step` itself (the same code,
so the same bits), for the per-state loop of a kernel marked ``refcount=False``; the n-player
column solver took 1.4x the time through the call (3 players at goal 100)."""
