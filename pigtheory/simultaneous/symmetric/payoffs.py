"""The symmetric stage game at one state: payoff tensors, the certificate, the scratch record.

The building blocks that the stage solvers of :mod:`.stage` share (best-response
dynamics, Newton's method on supports, support enumeration, fictitious play): the payoff
tensors ``a_r(k; others' candidates)``, their value at mixes, the certificate of a profile,
the candidate lists of each role, and :class:`Scratch`, the arrays every solver works in.
Shapes and the mathematics are in :mod:`.stage`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import kernel
from ..core.step import Band
from .continuation import Others, ViewCache, view_continuation
from .kernels import pure_outcomes
from .respond import action_values, best_action

__all__ = [
    "Limits",
    "Work",
    "tensor_row",
    "forget_tensors",
    "Scratch",
    "Mixed",
    "lin_solve",
    "build_tensors",
    "evaluate",
    "next_digits",
    "bust_chances",
    "certify",
    "add_candidate",
    "normalise",
    "keep",
    "by_weight",
    "refocus",
]


class Limits(NamedTuple):
    """How far the mixed solvers search at one state: ``cand`` candidate thresholds per role
    (at most the width of the scratch arrays), ``enum_cand`` of them combined by the support
    enumeration (one fewer for four roles or more), ``enum_rounds`` enumerations, ``max_rounds``
    support changes of the double oracle, ``newton_iter`` Newton steps per support profile,
    ``fp_iter`` fictitious-play iterations (:mod:`.stage`) and the ``patience`` of
    Newton's method (:func:`~.newton.newton`; 0: every solve takes its
    ``newton_iter`` steps)."""

    cand: int
    enum_cand: int
    enum_rounds: int
    max_rounds: int
    newton_iter: int
    fp_iter: int
    patience: int = 0


class Work(NamedTuple):
    """Scratch of one continuation: the others' outcomes ``dest``, ``prob`` (``(m, goal + 2)``)
    and their counts ``lens``, the continuation ``u`` (``goal + w + 1``), the numerators
    ``num`` and values ``vals`` of the thresholds (``goal + 1``), index scratch ``idx``,
    ``buf``, ``digits`` (``m``), and the payoffs kept at the state (:func:`tensor_row`):
    ``known[r, j]`` the j-th threshold role r has had as a candidate (``nk[r]`` of them),
    ``pool[r, code]`` the payoffs of a role-r player against the others' known thresholds
    numbered ``code`` (radix ``known.shape[1]``), ``cached[r, code]`` whether computed; the
    view column ``col[r]`` of each role, the others' thresholds ``key`` (``m``) of a
    continuation and the :class:`~.continuation.ViewCache` ``views`` it goes through."""

    dest: np.ndarray
    prob: np.ndarray
    lens: np.ndarray
    u: np.ndarray
    num: np.ndarray
    vals: np.ndarray
    idx: np.ndarray
    buf: np.ndarray
    digits: np.ndarray
    known: np.ndarray
    nk: np.ndarray
    cached: np.ndarray
    pool: np.ndarray
    col: np.ndarray
    key: np.ndarray
    views: ViewCache


class Scratch(NamedTuple):
    """The state of the mixed solvers at one state (n roles at most, ``C`` = MAX_CAND):
    ``b[r]`` a role's bust chance, ``bb[r]`` that all of a role-r player's others bust,
    ``acont[r, k] = a_r(k; sigma_{-r})``, ``digits`` (mixed-radix scratch), ``jac``/``rhs``
    (Newton's system), ``vals`` (threshold values), ``val``, ``gain``, ``reply`` (each role's
    value, gain and best reply under the current mix) and the best profile seen:
    ``best_w``, ``best_th`` (``(n, C)``), ``best_val``, ``best_gain``, ``best_reply`` and its
    largest gain ``s_best[0]``."""

    b: np.ndarray
    bb: np.ndarray
    acont: np.ndarray
    digits: np.ndarray
    jac: np.ndarray
    rhs: np.ndarray
    vals: np.ndarray
    val: np.ndarray
    gain: np.ndarray
    reply: np.ndarray
    best_w: np.ndarray
    best_th: np.ndarray
    best_val: np.ndarray
    best_gain: np.ndarray
    s_best: np.ndarray
    best_reply: np.ndarray


class Mixed(NamedTuple):
    """What the stage solvers work on at one state (:mod:`.stage`: the
    best-response dynamics and the mixed search), the one record their kernels take: the
    roles' scores ``t`` and others' roles ``orole``, the
    candidates ``cand``/``ncand``, weights ``wts`` and supports ``sup``, the payoff tensors
    ``ten``/``nc``, the game (``g``, ``binom``, ``band``, ``table``), the tolerances
    ``tie_tol``, ``tol`` and the scratch ``w`` (:class:`Work`), ``s`` (:class:`Scratch`).
    The number of roles R and of a player's others m come beside it."""

    t: np.ndarray
    orole: np.ndarray
    cand: np.ndarray
    ncand: np.ndarray
    wts: np.ndarray
    sup: np.ndarray
    ten: np.ndarray
    nc: np.ndarray
    g: int
    binom: np.ndarray
    band: Band
    table: np.ndarray
    tie_tol: float
    tol: float
    w: Work
    s: Scratch


@kernel(refcount=False)
def lin_solve(a, rhs, n):  # pragma: no cover - compiled
    """Solve ``a[:n, :n] x = rhs[:n]`` in place (partial pivoting); False if singular."""
    for col in range(n):
        piv = col
        big = abs(a[col, col])
        for r in range(col + 1, n):
            if abs(a[r, col]) > big:
                big = abs(a[r, col])
                piv = r
        if big < 1e-300:
            return False
        if piv != col:
            for c in range(col, n):  # (the entries left of the pivot are never read again)
                a[col, c], a[piv, c] = a[piv, c], a[col, c]
            rhs[col], rhs[piv] = rhs[piv], rhs[col]
        for r in range(col + 1, n):
            f = a[r, col] / a[col, col]
            if f != 0.0:
                for c in range(col + 1, n):
                    a[r, c] -= f * a[col, c]
                rhs[r] -= f * rhs[col]
    for r in range(n - 1, -1, -1):
        acc = rhs[r]
        for c in range(r + 1, n):
            acc -= a[r, c] * rhs[c]
        rhs[r] = acc / a[r, r]
    return True


@kernel
def tensor_row(r, digits, m, x):  # pragma: no cover - compiled
    """``a_r(.; others' candidates digits)`` at the state of :class:`Mixed` ``x``: a row of
    ``w.pool[r]``, computed on the first request at the state (:class:`Work`: the thresholds
    each role has had as candidates at the state are numbered in order of appearance, which
    never changes while candidates are added or reordered), or ``w.num`` when a role has had
    more thresholds than the pool numbers."""
    t, orole, cand, g, binom, band, table, w = x.t, x.orole, x.cand, x.g, x.binom, x.band, x.table, x.w
    known, nk, cached, pool = w.known, w.nk, w.cached, w.pool
    radix = known.shape[1]
    code = 0
    for q in range(m):
        rr = orole[r, q]
        kq = cand[rr, digits[q]]
        j = 0
        while j < nk[rr] and known[rr, j] != kq:
            j += 1
        if j == nk[rr]:
            if j == radix:
                code = -1
                break
            known[rr, j] = kq
            nk[rr] += 1
        code = code * radix + j
    if code < 0 or not cached[r, code]:
        bust = band.bust
        dest, prob, lens, u, num, vals, idx, buf = w.dest, w.prob, w.lens, w.u, w.num, w.vals, w.idx, w.buf
        opp_bust = 1.0
        for q in range(m):
            rr = orole[r, q]
            kq = cand[rr, digits[q]]
            w.key[q] = kq
            lens[q] = pure_outcomes(t[rr], kq, g, band, dest[q], prob[q])
            opp_bust *= bust[kq]
        them = Others(m, dest, prob, lens, idx, buf)
        view_continuation(t[r], w.col[r], w.key, g, them, table, binom, u, w.views)
        action_values(u, g - t[r], opp_bust, band, num, vals)
        if code < 0:
            return num
        row = pool[r, code]
        for k in range(1, g - t[r] + 1):
            row[k] = num[k]
        cached[r, code] = True
    return pool[r, code]


@kernel(refcount=False)
def build_tensors(R, m, x):  # pragma: no cover - compiled
    """``ten[r, ci, k] = a_r(k; others' candidates ci)`` for every pure profile ci of a role-r
    player's others over their candidates (mixed radix, last other fastest), at the state of
    :class:`Mixed` ``x``; each profile's payoffs are computed once per state
    (:func:`tensor_row`)."""
    t, orole, ncand, nc, ten, g = x.t, x.orole, x.ncand, x.nc, x.ten, x.g
    digits = x.w.digits
    for r in range(R):
        room = g - t[r]
        count = 1
        for q in range(m):
            count *= ncand[orole[r, q]]
        nc[r] = count
        for q in range(m):
            digits[q] = 0
        for ci in range(count):  # digits: ci in the mixed radix of the others' candidates
            row = tensor_row(r, digits, m, x)
            for k in range(1, room + 1):
                ten[r, ci, k] = row[k]
            next_digits(digits, m, orole[r], ncand)  # the next ci


@kernel(refcount=False)
def forget_tensors(w):  # pragma: no cover - compiled
    """Start a new state: no payoffs kept (:func:`tensor_row`)."""
    for r in range(w.cached.shape[0]):
        w.nk[r] = 0
        for j in range(w.cached.shape[1]):
            w.cached[r, j] = False


@kernel(refcount=False)
def next_digits(digits, m, oroles, sizes):  # pragma: no cover - compiled
    """Advance the odometer ``digits[:m]`` (the last fastest; digit q counts up to
    ``sizes[oroles[q]]``); False after the last profile, with every digit back at 0."""
    q = m - 1
    while q >= 0:
        digits[q] += 1
        if digits[q] < sizes[oroles[q]]:
            return True
        digits[q] = 0
        q -= 1
    return False


@kernel(refcount=False)
def bust_chances(R, m, x):  # pragma: no cover - compiled
    """``s.b[r]``, the chance that a role-r player busts at the mixes ``wts``, and
    ``s.bb[r]``, the chance that all of its others bust (:class:`Mixed` ``x``)."""
    orole, cand, ncand, wts, bust, b, bb = x.orole, x.cand, x.ncand, x.wts, x.band.bust, x.s.b, x.s.bb
    for r in range(R):
        s = 0.0
        for j in range(ncand[r]):
            s += wts[r, j] * bust[cand[r, j]]
        b[r] = s
    for r in range(R):
        p = 1.0
        for q in range(m):
            p *= b[orole[r, q]]
        bb[r] = p


@kernel(refcount=False)
def evaluate(R, m, x):  # pragma: no cover - compiled
    """In the scratch ``s`` of :class:`Mixed` ``x``: ``b[r]`` (a role's bust chance),
    ``bb[r]`` (all of a role-r player's others bust) and ``acont[r, k] = a_r(k; sigma_{-r})``
    for every k, at the mixes ``wts``."""
    t, orole, ncand, nc, ten, wts, g = x.t, x.orole, x.ncand, x.nc, x.ten, x.wts, x.g
    acont, digits = x.s.acont, x.s.digits
    bust_chances(R, m, x)
    for r in range(R):
        room = g - t[r]
        dst = acont[r, 1 : room + 1]  # one-dimensional slices: numba vectorises the sums
        for k in range(room):
            dst[k] = 0.0
        for q in range(m):
            digits[q] = 0
        for ci in range(nc[r]):  # digits: ci in the mixed radix of the others' candidates
            wgt = 1.0
            for q in range(m - 1, -1, -1):
                wgt *= wts[orole[r, q], digits[q]]
            if wgt != 0.0:
                src = ten[r, ci, 1 : room + 1]
                for k in range(room):
                    dst[k] += wgt * src[k]
            next_digits(digits, m, orole[r], ncand)  # the next ci


@kernel(refcount=False)
def certify(R, x, val, gain):  # pragma: no cover - compiled
    """Values ``val`` of the roles under ``wts`` and the most each gains by its best threshold,
    ``gain`` (its reply in ``s.reply``), from the payoffs :func:`evaluate` left in the scratch
    ``s`` of :class:`Mixed` ``x``; returns the largest gain."""
    t, cand, ncand, wts, g, bust, tie_tol = x.t, x.cand, x.ncand, x.wts, x.g, x.band.bust, x.tie_tol
    b, bb, acont, vals, reply = x.s.b, x.s.bb, x.s.acont, x.s.vals, x.s.reply
    worst = 0.0
    for r in range(R):
        room = g - t[r]
        src, out, bk, br = acont[r, 1 : room + 1], vals[1 : room + 1], bust[1 : room + 1], bb[r]
        for k in range(room):
            out[k] = src[k] / (1.0 - bk[k] * br)
        best, kb = best_action(vals, room, tie_tol)
        a = 0.0
        for j in range(ncand[r]):
            if wts[r, j] != 0.0:
                a += wts[r, j] * acont[r, cand[r, j]]
        val[r] = a / (1.0 - b[r] * bb[r])
        gain[r] = best - val[r]
        reply[r] = kb
        if gain[r] > worst:
            worst = gain[r]
    return worst


@kernel(refcount=False)
def add_candidate(r, k, cand, ncand, cap):  # pragma: no cover - compiled
    """``(index, new)`` of threshold k among role r's candidates, adding it if it is new and
    there is room for it among ``cap`` (index -1 if there is none)."""
    for j in range(ncand[r]):
        if cand[r, j] == k:
            return j, False
    if ncand[r] >= min(cap, cand.shape[1]):
        return -1, False
    cand[r, ncand[r]] = k
    ncand[r] += 1
    return ncand[r] - 1, True


@kernel(refcount=False)
def normalise(r, ncand, wts):  # pragma: no cover - compiled
    """Scale role r's weights to sum to 1."""
    tot = 0.0
    for j in range(ncand[r]):
        tot += wts[r, j]
    for j in range(ncand[r]):
        wts[r, j] /= tot


@kernel(refcount=False)
def keep(R, x, worst):  # pragma: no cover - compiled
    """Remember the profile of :class:`Mixed` ``x`` (weights, their thresholds, and the values,
    gains and best replies :func:`certify` left in ``s``) if its largest gain ``worst`` is the
    smallest so far."""
    ncand, wts, cand, s = x.ncand, x.wts, x.cand, x.s
    val, gain, reply = s.val, s.gain, s.reply
    best_w, best_th, best_val, best_gain, s_best, best_reply = (
        s.best_w,
        s.best_th,
        s.best_val,
        s.best_gain,
        s.s_best,
        s.best_reply,
    )
    if worst >= s_best[0]:
        return
    s_best[0] = worst
    for r in range(R):
        for j in range(best_w.shape[1]):
            best_w[r, j] = 0.0
            best_th[r, j] = 1
        for j in range(ncand[r]):
            best_w[r, j] = wts[r, j]
            best_th[r, j] = cand[r, j]
        best_val[r] = val[r]
        best_gain[r] = gain[r]
        best_reply[r] = reply[r]


@kernel(refcount=False)
def by_weight(R, cand, ncand, wts):  # pragma: no cover - compiled
    """Sort each role's candidates by decreasing weight (insertion sort, stable)."""
    for r in range(R):
        for j in range(1, ncand[r]):
            kj, wj = cand[r, j], wts[r, j]
            q = j
            while q > 0 and wts[r, q - 1] < wj:
                cand[r, q], wts[r, q] = cand[r, q - 1], wts[r, q - 1]
                q -= 1
            cand[r, q], wts[r, q] = kj, wj


@kernel(refcount=False)
def refocus(R, x, cap):  # pragma: no cover - compiled
    """Order each role's candidates as the best profile so far uses them (its support by
    weight, weights under 1% not counted, then the best reply of a role that gains more than
    ``tol``, then the rest), the replies joining the candidates (at most ``cap``); returns
    whether any reply was new (:class:`Mixed` ``x``)."""
    cand, ncand, wts, s, tol = x.cand, x.ncand, x.wts, x.s, x.tol
    best_w, best_th, best_gain, best_reply = s.best_w, s.best_th, s.best_gain, s.best_reply
    grown = False
    for r in range(R):
        for j in range(ncand[r]):
            wts[r, j] = 0.0
            for q in range(best_w.shape[1]):
                # weights under 1% (the tail of fictitious play) rank with the unused ones
                if best_th[r, q] == cand[r, j] and best_w[r, q] >= 0.01:
                    wts[r, j] = best_w[r, q]
        if best_gain[r] > tol:
            j, new = add_candidate(r, best_reply[r], cand, ncand, cap)
            if j >= 0 and wts[r, j] == 0.0:
                wts[r, j] = 1e-9
            grown = grown or new
    by_weight(R, cand, ncand, wts)
    return grown
