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
    "roll_once",
    "threshold_pass",
    "threshold_pass_inline",
    "pass_above",
    "pass_above_inline",
    "stopping_step_inline",
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


@kernel(refcount=False, inline=True)
def roll_once(t, room, u0, roll, a, c):  # pragma: no cover - compiled
    """One roll from turn total ``t`` under a rule whose values from each total are ``a`` (the
    state's own value counted as 0) and bust chances ``c``: ``(p_bust u0 + sum_f p_f a[t +
    g_f], p_bust + sum_f p_f c[t + g_f])``, the totals capped at ``room`` (the goal), the faces
    added in order (the bits of every caller)."""
    ra = roll.p_bust * u0
    rc = roll.p_bust
    for f in range(roll.gains.shape[0]):
        to = t + roll.gains[f]
        if to > room:
            to = room
        ra += roll.probs[f] * a[to]
        rc += roll.probs[f] * c[to]
    return ra, rc


@kernel(refcount=False)
def stopping_step(u, u0, room, loop_p, v, roll, tie_tol, max_passes, a, c, new, rule):  # pragma: no cover
    """The best stopping rule at one state by policy iteration on its own value (Dinkelbach):
    ``u[x]`` for ``x = 1..room``, ``u0`` the bust's continuation without the self-loop,
    ``loop_p`` the chance the opponents all bust, ``v`` a value to start from, ``roll`` a
    :class:`Roll`, scratch ``a``, ``c`` (``room + 1``) and ``new`` (``room``). Writes the rule
    into ``rule[:room]`` (its previous contents are the first comparison); returns
    ``(value, passes)``."""
    passes = 0
    for it in range(1, max_passes + 1):
        a[room] = u[room]
        c[room] = 0.0
        loop = loop_p * v
        changed = False
        for t in range(room - 1, -1, -1):
            ra, rc = roll_once(t, room, u0, roll, a, c)
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


@kernel(refcount=False)
def _holds_from_k(u, u0, room, loop, roll, tie_tol, k):  # pragma: no cover - compiled
    """Holding beats rolling once, by :func:`stopping_step`'s comparison, at every turn total
    ``t = k .. room - 1`` (where "hold from k" holds, so a roll from t is worth ``p_bust u_0 +
    sum_f p_f u[t + g_f]``, bust chance ``p_bust``; ``u`` padded past the room, so ``u[t + g]``
    is the step's ``a[min(t + g, room)]``). Loops over unit-stride slices indexed from 0, the
    comparisons counted: no branch, so numba vectorises them; five gains (one die) unrolled."""
    p_bust, gains, probs = roll.p_bust, roll.gains, roll.probs
    base, stay = p_bust * u0, p_bust * loop
    lo = max(k, 1)
    ut = u[lo:room]
    rolls = 0
    if gains.shape[0] == 5:
        p0, p1, p2, p3, p4 = probs[0], probs[1], probs[2], probs[3], probs[4]
        y0, y1, y2 = u[lo + gains[0] :], u[lo + gains[1] :], u[lo + gains[2] :]
        y3, y4 = u[lo + gains[3] :], u[lo + gains[4] :]
        for s in range(room - lo):  # t = lo + s
            ra = base + p0 * y0[s] + p1 * y1[s] + p2 * y2[s] + p3 * y3[s] + p4 * y4[s]
            rolls += ra + stay > ut[s] + tie_tol
        return rolls == 0
    for s in range(room - lo):
        ra = base
        for f in range(gains.shape[0]):
            ra += probs[f] * u[lo + s + gains[f]]
        rolls += ra + stay > ut[s] + tie_tol
    return rolls == 0


@kernel(refcount=False)
def _rolls_below_k(band, u, u0, loop, tie_tol, k, r):  # pragma: no cover - compiled
    r"""Rolling beats holding, by :func:`stopping_step`'s comparison, at every turn total
    ``t = 1 .. k - 1`` when the rule holds on ``k .. k + w - 1`` (w landing totals): from t it
    rolls on to k as "hold at k - t" does from 0, the landing totals moved by t, worth
    :math:`P(X_{k-t} = 0)\, u_0 + \sum_r P(X_{k-t} = k - t + r)\, u[k + r]` with bust chance
    :math:`P(X_{k-t} = 0)`: no backward chain, loops over unit-stride slices (vectorised);
    six landing totals (one die) unrolled. ``r`` is scratch of ``k``."""
    bust, band_t = band.bust, band.band_t
    for s in range(k - 1):  # u[t] for t = k - 1 down to 1, in the order of m = k - t
        r[s] = u[k - 1 - s]
    bm = bust[1:]
    holds = 0
    if band_t.shape[0] == 6:
        x0, x1, x2, x3, x4, x5 = u[k], u[k + 1], u[k + 2], u[k + 3], u[k + 4], u[k + 5]
        b0, b1, b2 = band_t[0, 1:], band_t[1, 1:], band_t[2, 1:]
        b3, b4, b5 = band_t[3, 1:], band_t[4, 1:], band_t[5, 1:]
        for s in range(k - 1):  # m = s + 1, t = k - m
            ra = bm[s] * u0 + b0[s] * x0 + b1[s] * x1 + b2[s] * x2 + b3[s] * x3 + b4[s] * x4 + b5[s] * x5
            holds += not ra + bm[s] * loop > r[s] + tie_tol
        return holds == 0
    for s in range(k - 1):
        ra = bm[s] * u0
        for q in range(band_t.shape[0]):
            ra += band_t[q, 1 + s] * u[k + q]
        holds += not ra + bm[s] * loop > r[s] + tie_tol
    return holds == 0


@kernel(refcount=False)
def threshold_pass(band, u, u0, room, loop_p, v, roll, tie_tol, k, r):  # pragma: no cover - compiled
    """Whether the rule "roll below k, hold from k" (value ``v``, the threshold step's) is its
    own improvement: :func:`stopping_step`'s first pass from it would change no turn total.
    Then it is the best stopping rule at the state and ``v`` its value; otherwise the caller
    tries :func:`pass_above`, then runs :func:`stopping_step`. ``u`` padded past the room as
    for :func:`threshold_step`; ``r`` is scratch of ``room + 1``.

    Under that rule the pass needs no backward chain (``_holds_from_k``,
    ``_rolls_below_k``); its comparisons are :func:`stopping_step`'s (roll where it beats
    holding by more than ``tie_tol``, the self-loop worth ``loop_p v``)."""
    loop = loop_p * v
    return _holds_from_k(u, u0, room, loop, roll, tie_tol, k) and _rolls_below_k(
        band, u, u0, loop, tie_tol, k, r
    )


@kernel(refcount=False)
def pass_above(band, u, u0, room, loop_p, v, roll, tie_tol, k, a, c, new, rule, r):  # pragma: no cover
    """Where :func:`threshold_pass` fails above the landing totals: :func:`stopping_step`'s
    first pass from "roll below k, hold from k" run backward over ``t = room - 1 .. k`` (its
    code, so its decisions); if it holds on ``k .. k + w - 1`` (every total a turn can reach)
    and ``_rolls_below_k``, the state plays as hold at k, worth ``v``, and the new rule
    differs only at totals no turn reaches: the second pass of :func:`stopping_step` would
    change nothing. Writes those decisions into ``rule`` (scratch ``new``, ``a``, ``c`` as
    :func:`stopping_step`'s) and returns True; False (``rule`` untouched) where the caller must
    run :func:`stopping_step`."""
    w = band.band_t.shape[0]
    loop = loop_p * v
    a[room] = u[room]
    c[room] = 0.0
    for t in range(room - 1, k - 1, -1):
        ra, rc = roll_once(t, room, u0, roll, a, c)
        go = ra + rc * loop > u[t] + tie_tol
        if go:
            if t < k + w:
                return False
            a[t] = ra
            c[t] = rc
        else:
            a[t] = u[t]
            c[t] = 0.0
        new[t] = go
    if not _rolls_below_k(band, u, u0, loop, tie_tol, k, r):
        return False
    for t in range(k + w, room):
        rule[t] = new[t]
    return True


_six_gains_inline = inlined(_six_gains, "_six_gains_inline")
threshold_step_inline = inlined(threshold_step, "threshold_step_inline", _six_gains=_six_gains_inline)
_holds_inline = inlined(_holds_from_k, "_holds_inline")
_rolls_inline = inlined(_rolls_below_k, "_rolls_inline")
threshold_pass_inline = inlined(
    threshold_pass, "threshold_pass_inline", _holds_from_k=_holds_inline, _rolls_below_k=_rolls_inline
)
pass_above_inline = inlined(pass_above, "pass_above_inline", _rolls_below_k=_rolls_inline)
stopping_step_inline = inlined(stopping_step, "stopping_step_inline")
"""The threshold step inlined into its caller: :func:`threshold_step` itself (the same code,
so the same bits), for the per-state loop of a kernel marked ``refcount=False``; the n-player
column solver took 1.4x the time through the call (3 players at goal 100)."""
