"""The stage game of a symmetric equilibrium at one state, solved with its certificate.

Shapes
------
A state is a sorted score tuple ``s`` (``s[0] <= ... <= s[n-1] < goal``). Its *roles* are the
distinct scores: role r has score ``t[r]``, ``mult[r]`` players and, in a symmetric
equilibrium, one strategy that all of them use. ``orole[r, q]`` is the role of the q-th
other player seen from a player of role r, ``col[r]`` the column of its view
(:mod:`.symmetric_kernels`). Tables ``table``, ``act``, ``gain``, ``mix_th``, ``mix_w`` are
those of :mod:`.symmetric_kernels`.

Notes
-----
Every successor of s other than s itself has a larger colex rank, so when s is solved the
continuation ``u_r`` of each role against any actions of the others is known, and holding at
k has the stationary value :math:`a_r(k) / (1 - P(X_k = 0) B_r)` (everybody busts: the
self-loop in closed form, :mod:`.symmetric_kernels`). With mixed strategies
:math:`\\sigma` the self-loop couples the mix: writing :math:`b_r = \\sum_k \\sigma_r(k)
P(X_k = 0)` and :math:`B_r = \\prod_{q} b_{\\rho(q)}` over a role-r player's others,

.. math:: V_r = \\frac{\\sum_k \\sigma_r(k)\\, a_r(k; \\sigma_{-r})}{1 - b_r B_r},

the fixed point :math:`V_r = \\sum_k \\sigma_r(k) [a_r(k; \\sigma_{-r}) + P(X_k = 0) B_r V_r]`
of the one-state game in the state's own values. A player's best stationary reply at s is
the best threshold against :math:`\\sigma_{-r}` (:func:`~.symmetric_kernels.best_action`), and the
*certificate* of the state is the most any player gains by it,
:math:`\\varepsilon(s) = \\max_r (\\max_k a_r(k) / (1 - P(X_k = 0) B_r) - V_r)`.

1. **Pure search.** Best-response dynamics over roles (a role moves to its best threshold
   when it gains more than ``tie_tol``; the players of a role move together), from the actions
   of the nearest solved state (the lowest score that can be raised, raised by one). A pass in
   which no role moves is a pure equilibrium.
2. **Mixed.** If the dynamics cycle, the thresholds of the cycle are the candidates. The
   indifference conditions on a support :math:`S_r` of each role,

   .. math:: a_r(k; \\sigma_{-r}) - (1 - P(X_k = 0) B_r)\\, V_r = 0 \\ (k \\in S_r), \\qquad
             \\sum_{k \\in S_r} \\sigma_r(k) = 1,

   are solved for :math:`(\\sigma, V)` by Newton's method (exact Jacobian: the payoffs are
   multilinear in the other players' mixes, tabulated once per candidate set as
   :math:`a_r(\\cdot; k_{-r})` for every pure profile of the others' candidates). The
   systems are often ill-conditioned (neighbouring thresholds barely change the others'
   payoffs), so the solution of a too-large support may lie far outside the simplex: its most
   negative weight leaves the support; a profitable reply outside the support joins it (a
   double oracle). The certificate is then checked over *every* threshold.
3. **Support enumeration.** If that local search fails: every support profile over the first
   few candidates of each role, smallest first (Porter, Nudelman & Shoham), each by Newton's
   method from the uniform mix; the best profile's profitable replies then join the candidates
   (ahead of the rest) and the enumeration repeats.
4. **Fallback.** Fictitious play on the state (each role best-replies to the others' empirical
   mixes, any threshold, new thresholds joining the candidates) orders the candidates for
   steps 2 and 3 once more. The profile with the smallest certificate seen is kept, and its
   certificate reported.

References
----------
J. Nash, "Non-cooperative games", Annals of Mathematics 54 (1951) 286-295 (a symmetric game
has a symmetric equilibrium).
H. B. McMahan, G. J. Gordon & A. Blum, ICML 2003 (double oracle).
R. Porter, E. Nudelman & Y. Shoham, "Simple search methods for finding a Nash equilibrium",
Games and Economic Behavior 63 (2008) 642-662.
G. W. Brown, "Iterative solution of games by fictitious play" (1951).
"""

from __future__ import annotations

import threading
from functools import lru_cache
from types import FunctionType, SimpleNamespace
from typing import Any

import numpy as np

from . import symmetric_kernels
from .symmetric_kernels import action_values, best_action, continuation_row, pure_outcomes, rank

__all__ = ["MAX_CAND", "COUNTERS", "solve_states", "compiled", "interpreted"]

MAX_PASSES = 40
"""Best-response passes at a state before it is treated as mixed."""

MAX_CAND = 8
"""Candidate thresholds per role in the mixed solver (and the widest stored mix)."""

_MAX_ROUNDS = 30  # support changes per attempt
_FP_ITER = 600  # fictitious-play iterations of the fallback
_NEWTON_ITER = 60
_ENUM_ROUNDS = 4  # enumerations, each after the best profile's replies joined the candidates
_ENUM_CAND = 4  # candidates per role that the support enumeration combines (3 for 4+ roles)

COUNTERS = ("mix_entries", "pure", "mixed", "fallback", "largest_support", "passes", "mixed_views")
"""Meaning of the entries of the ``counts`` array of :func:`solve_states`."""


def _lin_solve(a, rhs, n):  # pragma: no cover - compiled
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
            for c in range(n):
                a[col, c], a[piv, c] = a[piv, c], a[col, c]
            rhs[col], rhs[piv] = rhs[piv], rhs[col]
        for r in range(col + 1, n):
            f = a[r, col] / a[col, col]
            if f != 0.0:
                for c in range(col, n):
                    a[r, c] -= f * a[col, c]
                rhs[r] -= f * rhs[col]
    for r in range(n - 1, -1, -1):
        acc = rhs[r]
        for c in range(r + 1, n):
            acc -= a[r, c] * rhs[c]
        rhs[r] = acc / a[r, r]
    return True


def _build_tensors(R, m, t, orole, cand, ncand, nc, ten, g, binom, bust, band, table, w):  # pragma: no cover
    """``ten[r, ci, k] = a_r(k; others' candidates ci)`` for every pure profile ci of a role-r
    player's others over their candidates (mixed radix, last other fastest)."""
    dest, prob, lens, u, num, vals, idx, buf, digits = w
    for r in range(R):
        room = g - t[r]
        count = 1
        for q in range(m):
            count *= ncand[orole[r, q]]
        nc[r] = count
        for ci in range(count):
            x = ci
            for q in range(m - 1, -1, -1):
                base = ncand[orole[r, q]]
                digits[q] = x % base
                x //= base
            opp_bust = 1.0
            for q in range(m):
                rr = orole[r, q]
                kq = cand[rr, digits[q]]
                lens[q] = pure_outcomes(t[rr], kq, g, bust, band, dest[q], prob[q])
                opp_bust *= bust[kq]
            continuation_row(t[r], g, m, dest, prob, lens, table, binom, u, idx, buf)
            action_values(u, room, opp_bust, bust, band, num, vals)
            for k in range(1, room + 1):
                ten[r, ci, k] = num[k]


def _evaluate(R, m, t, orole, cand, ncand, nc, ten, wts, g, bust, b, bb, acont, digits):  # pragma: no cover
    """``b[r]`` (a role's bust chance), ``bb[r]`` (all of a role-r player's others bust) and
    ``acont[r, k] = a_r(k; sigma_{-r})`` for every k, at the mixes ``wts``."""
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
        room = g - t[r]
        for k in range(1, room + 1):
            acont[r, k] = 0.0
        for ci in range(nc[r]):
            x = ci
            wgt = 1.0
            for q in range(m - 1, -1, -1):
                base = ncand[orole[r, q]]
                digits[q] = x % base
                x //= base
                wgt *= wts[orole[r, q], digits[q]]
            if wgt == 0.0:
                continue
            row = ten[r, ci]
            for k in range(1, room + 1):
                acont[r, k] += wgt * row[k]


def _certify(
    R, t, cand, ncand, wts, g, bust, b, bb, acont, tie_tol, vals, val, gain, reply
):  # pragma: no cover
    """Values of the roles under ``wts`` and the most each gains by its best threshold."""
    worst = 0.0
    for r in range(R):
        room = g - t[r]
        for k in range(1, room + 1):
            vals[k] = acont[r, k] / (1.0 - bust[k] * bb[r])
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


def _newton(
    R, m, t, orole, cand, ncand, nc, ten, wts, sup, val, g, bust, b, bb, acont, digits, jac, rhs
):  # pragma: no cover
    """Solve the indifference conditions on the supports ``sup`` (bool ``[r, j]``) for the
    weights ``wts`` and values ``val``, in place. Returns True on convergence."""
    # variable numbering: the support weights of role 0, its value, then role 1, ...
    off = np.zeros(R + 1, np.int64)
    pos = np.full((R, wts.shape[1]), -1, np.int64)
    for r in range(R):
        c = off[r]
        for j in range(ncand[r]):
            if sup[r, j]:
                pos[r, j] = c
                c += 1
        off[r + 1] = c + 1  # + the value
    nvar = off[R]
    _evaluate(R, m, t, orole, cand, ncand, nc, ten, wts, g, bust, b, bb, acont, digits)
    for r in range(R):  # start the values from the weights
        a = 0.0
        for j in range(ncand[r]):
            a += wts[r, j] * acont[r, cand[r, j]]
        val[r] = a / (1.0 - b[r] * bb[r])
    last = np.inf
    for _ in range(_NEWTON_ITER):
        _evaluate(R, m, t, orole, cand, ncand, nc, ten, wts, g, bust, b, bb, acont, digits)
        for i in range(nvar):
            rhs[i] = 0.0
            for j in range(nvar):
                jac[i, j] = 0.0
        resid = 0.0
        for r in range(R):
            vr = off[r + 1] - 1
            tot = 0.0
            for j in range(ncand[r]):
                if not sup[r, j]:
                    continue
                row = pos[r, j]
                k = cand[r, j]
                f = acont[r, k] - (1.0 - bust[k] * bb[r]) * val[r]
                rhs[row] = -f
                resid = max(resid, abs(f))
                jac[row, vr] = -(1.0 - bust[k] * bb[r])
                tot += wts[r, j]
                jac[vr, row] = 1.0
            rhs[vr] = -(tot - 1.0)
            resid = max(resid, abs(tot - 1.0))
            # derivatives through the others' mixes: payoffs (tensor) and the all-bust term
            for ci in range(nc[r]):
                x = ci
                for q in range(m - 1, -1, -1):
                    base = ncand[orole[r, q]]
                    digits[q] = x % base
                    x //= base
                for q in range(m):
                    rr = orole[r, q]
                    col = pos[rr, digits[q]]
                    if col < 0:
                        continue
                    coef = 1.0
                    for q2 in range(m):
                        if q2 != q:
                            coef *= wts[orole[r, q2], digits[q2]]
                    if coef == 0.0:
                        continue
                    for j in range(ncand[r]):
                        if sup[r, j]:
                            jac[pos[r, j], col] += coef * ten[r, ci, cand[r, j]]
            for q in range(m):
                rr = orole[r, q]
                rest = 1.0
                for q2 in range(m):
                    if q2 != q:
                        rest *= b[orole[r, q2]]
                for j2 in range(ncand[rr]):
                    col = pos[rr, j2]
                    if col < 0:
                        continue
                    d_bb = bust[cand[rr, j2]] * rest
                    for j in range(ncand[r]):
                        if sup[r, j]:
                            jac[pos[r, j], col] += bust[cand[r, j]] * val[r] * d_bb
        # converged, or stalled at the rounding level of an ill-conditioned system
        if resid < 1e-15 or (resid < 1e-13 and resid > 0.5 * last):
            return True
        last = resid
        if not _lin_solve(jac, rhs, nvar):
            return False
        for r in range(R):
            for j in range(ncand[r]):
                if sup[r, j]:
                    wts[r, j] += rhs[pos[r, j]]
                    if not abs(wts[r, j]) < 1e6:  # diverging (or nan)
                        return False
            val[r] += rhs[off[r + 1] - 1]
    return last < 1e-12


def _add_candidate(r, k, cand, ncand):  # pragma: no cover - compiled
    """``(index, new)`` of threshold k among role r's candidates, adding it if it is new and
    there is room (index -1 if there is none)."""
    for j in range(ncand[r]):
        if cand[r, j] == k:
            return j, False
    if ncand[r] >= cand.shape[1]:
        return -1, False
    cand[r, ncand[r]] = k
    ncand[r] += 1
    return ncand[r] - 1, True


def _supports(
    R, m, t, orole, cand, ncand, nc, ten, wts, sup, g, binom, bust, band, table, tie_tol, tol, w, s
):  # pragma: no cover
    """Step 2 of the module Notes from the supports ``sup`` and weights ``wts``; keeps the best
    profile seen in ``s`` (its weights, values, gains and the largest gain ``s_best[0]``)."""
    (
        b,
        bb,
        acont,
        digits,
        jac,
        rhs,
        vals,
        val,
        gain,
        reply,
        best_w,
        best_th,
        best_val,
        best_gain,
        s_best,
        best_reply,
    ) = s
    for _ in range(_MAX_ROUNDS):
        ok = _newton(
            R, m, t, orole, cand, ncand, nc, ten, wts, sup, val, g, bust, b, bb, acont, digits, jac, rhs
        )
        if not ok:
            return False
        worst_r, worst_j, worst_w = -1, -1, -1e-13
        for r in range(R):
            for j in range(ncand[r]):
                if sup[r, j] and wts[r, j] < worst_w:
                    worst_r, worst_j, worst_w = r, j, wts[r, j]
        if worst_r >= 0:  # a threshold with a negative weight leaves the support
            sup[worst_r, worst_j] = False
            wts[worst_r, worst_j] = 0.0
            left = 0
            for j in range(ncand[worst_r]):
                if sup[worst_r, j]:
                    left += 1
            if left == 0:
                return False
            for j in range(ncand[worst_r]):
                if sup[worst_r, j]:
                    wts[worst_r, j] = max(wts[worst_r, j], 0.0)
            _normalise(worst_r, ncand, wts)
            continue
        for r in range(R):
            for j in range(ncand[r]):
                if wts[r, j] < 0.0:
                    wts[r, j] = 0.0
                    sup[r, j] = False
            _normalise(r, ncand, wts)
        _evaluate(R, m, t, orole, cand, ncand, nc, ten, wts, g, bust, b, bb, acont, digits)
        worst = _certify(R, t, cand, ncand, wts, g, bust, b, bb, acont, tie_tol, vals, val, gain, reply)
        _keep(R, ncand, wts, val, gain, reply, worst, s, cand)
        if worst <= tol:
            return True
        # the largest gain's reply joins its role's support
        rstar = 0
        for r in range(R):
            if gain[r] > gain[rstar]:
                rstar = r
        j, new = _add_candidate(rstar, reply[rstar], cand, ncand)
        if j < 0 or sup[rstar, j]:
            return False
        if new:  # the payoff tensors of every role grow
            _build_tensors(R, m, t, orole, cand, ncand, nc, ten, g, binom, bust, band, table, w)
        sup[rstar, j] = True
        wts[rstar, j] = 0.05
        _normalise(rstar, ncand, wts)
    return False


def _normalise(r, ncand, wts):  # pragma: no cover - compiled
    tot = 0.0
    for j in range(ncand[r]):
        tot += wts[r, j]
    for j in range(ncand[r]):
        wts[r, j] /= tot


def _keep(R, ncand, wts, val, gain, reply, worst, s, cand):  # pragma: no cover - compiled
    """Remember the profile (weights, their thresholds, values, gains, best replies) if its
    largest gain is the smallest so far."""
    best_w, best_th, best_val, best_gain, s_best, best_reply = s[10], s[11], s[12], s[13], s[14], s[15]
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


def _refocus(R, cand, ncand, wts, s, tol):  # pragma: no cover - compiled
    """Order each role's candidates as the best profile so far uses them (its support by
    weight, weights under 1% not counted, then the best reply of a role that gains more than
    ``tol``, then the rest), the replies joining the candidates; returns whether any reply was
    new."""
    best_w, best_th, best_gain, best_reply = s[10], s[11], s[13], s[15]
    grown = False
    for r in range(R):
        for j in range(ncand[r]):
            wts[r, j] = 0.0
            for q in range(best_w.shape[1]):
                # weights under 1% (the tail of fictitious play) rank with the unused ones
                if best_th[r, q] == cand[r, j] and best_w[r, q] >= 0.01:
                    wts[r, j] = best_w[r, q]
        if best_gain[r] > tol:
            j, new = _add_candidate(r, best_reply[r], cand, ncand)
            if j >= 0 and wts[r, j] == 0.0:
                wts[r, j] = 1e-9
            grown = grown or new
    _by_weight(R, cand, ncand, wts)
    return grown


def _fictitious_play(
    R, m, t, orole, cand, ncand, nc, ten, wts, g, binom, bust, band, table, tie_tol, w, s
):  # pragma: no cover
    """Fictitious play on the state from ``wts``; leaves the empirical mixes in ``wts``."""
    (
        b,
        bb,
        acont,
        digits,
        jac,
        rhs,
        vals,
        val,
        gain,
        reply,
        best_w,
        best_th,
        best_val,
        best_gain,
        s_best,
        best_reply,
    ) = s
    cnt = np.zeros_like(wts)
    for r in range(R):
        for j in range(ncand[r]):
            cnt[r, j] = wts[r, j]
    for _ in range(_FP_ITER):
        _evaluate(R, m, t, orole, cand, ncand, nc, ten, wts, g, bust, b, bb, acont, digits)
        worst = _certify(R, t, cand, ncand, wts, g, bust, b, bb, acont, tie_tol, vals, val, gain, reply)
        _keep(R, ncand, wts, val, gain, reply, worst, s, cand)
        grown = False
        for r in range(R):
            j, new = _add_candidate(r, reply[r], cand, ncand)
            if j < 0:
                continue  # no room for another candidate: this role stays as it is
            grown = grown or new
            cnt[r, j] += 1.0
        if grown:
            _build_tensors(R, m, t, orole, cand, ncand, nc, ten, g, binom, bust, band, table, w)
        for r in range(R):
            tot = 0.0
            for j in range(ncand[r]):
                tot += cnt[r, j]
            for j in range(ncand[r]):
                wts[r, j] = cnt[r, j] / tot


def _enumerate(R, m, t, orole, cand, ncand, nc, ten, wts, sup, g, bust, tie_tol, tol, s):  # pragma: no cover
    """Support enumeration over the first few candidates of each role, smallest supports
    first (Porter, Nudelman & Shoham): Newton's method on each support profile from the
    uniform mix, kept if its weights are a mix and its certificate holds."""
    (
        b,
        bb,
        acont,
        digits,
        jac,
        rhs,
        vals,
        val,
        gain,
        reply,
        best_w,
        best_th,
        best_val,
        best_gain,
        s_best,
        best_reply,
    ) = s
    lim = np.zeros(R, np.int64)
    most = 0
    combos = 1
    each = _ENUM_CAND if R <= 3 else _ENUM_CAND - 1
    for r in range(R):
        lim[r] = min(ncand[r], each)
        most += lim[r]
        combos *= (1 << lim[r]) - 1
    masks = np.zeros(R, np.int64)
    for size in range(R, most + 1):
        for code in range(combos):
            x = code
            total = 0
            for r in range(R):
                base = (1 << lim[r]) - 1
                masks[r] = x % base + 1
                x //= base
                for j in range(lim[r]):
                    total += (masks[r] >> j) & 1
            if total != size:
                continue
            for r in range(R):
                cnt = 0
                for j in range(wts.shape[1]):
                    sup[r, j] = j < lim[r] and ((masks[r] >> j) & 1) == 1
                    cnt += sup[r, j]
                for j in range(wts.shape[1]):
                    wts[r, j] = 1.0 / cnt if sup[r, j] else 0.0
            if not _newton(
                R, m, t, orole, cand, ncand, nc, ten, wts, sup, val, g, bust, b, bb, acont, digits, jac, rhs
            ):
                continue
            mix = True
            for r in range(R):
                for j in range(ncand[r]):
                    if sup[r, j] and wts[r, j] < -1e-13:
                        mix = False
            if not mix:
                continue
            for r in range(R):
                for j in range(ncand[r]):
                    wts[r, j] = max(wts[r, j], 0.0)
                _normalise(r, ncand, wts)
            _evaluate(R, m, t, orole, cand, ncand, nc, ten, wts, g, bust, b, bb, acont, digits)
            worst = _certify(R, t, cand, ncand, wts, g, bust, b, bb, acont, tie_tol, vals, val, gain, reply)
            _keep(R, ncand, wts, val, gain, reply, worst, s, cand)
            if worst <= tol:
                return True
    return False


def _by_weight(R, cand, ncand, wts):  # pragma: no cover - compiled
    """Sort each role's candidates by decreasing weight (insertion sort, stable)."""
    for r in range(R):
        for j in range(1, ncand[r]):
            kj, wj = cand[r, j], wts[r, j]
            q = j
            while q > 0 and wts[r, q - 1] < wj:
                cand[r, q], wts[r, q] = cand[r, q - 1], wts[r, q - 1]
                q -= 1
            cand[r, q], wts[r, q] = kj, wj


def _solve_mixed(
    R, m, t, orole, cand, ncand, wts, g, binom, bust, band, table, tie_tol, tol, w, s, ten, nc, sup
):  # pragma: no cover
    """Steps 2 and 3 of the module Notes; returns 1 (certified without the fallback) or 2
    (fictitious play was needed; the certificate of the best profile found says how well)."""
    s_best = s[14]
    s_best[0] = np.inf
    _build_tensors(R, m, t, orole, cand, ncand, nc, ten, g, binom, bust, band, table, w)
    for r in range(R):
        for j in range(sup.shape[1]):
            sup[r, j] = j < ncand[r] and wts[r, j] > 0.0
    if _supports(
        R, m, t, orole, cand, ncand, nc, ten, wts, sup, g, binom, bust, band, table, tie_tol, tol, w, s
    ):
        return 1
    for _ in range(_ENUM_ROUNDS):
        if _enumerate(R, m, t, orole, cand, ncand, nc, ten, wts, sup, g, bust, tie_tol, tol, s):
            return 1
        grown = _refocus(R, cand, ncand, wts, s, tol)
        # the candidates were reordered, perhaps grown: the tensors follow them
        _build_tensors(R, m, t, orole, cand, ncand, nc, ten, g, binom, bust, band, table, w)
        if not grown:
            break
    for r in range(R):  # fallback: fictitious play from a uniform mix of the candidates
        for j in range(wts.shape[1]):
            wts[r, j] = 1.0 / ncand[r] if j < ncand[r] else 0.0
    _fictitious_play(R, m, t, orole, cand, ncand, nc, ten, wts, g, binom, bust, band, table, tie_tol, w, s)
    _by_weight(R, cand, ncand, wts)
    _build_tensors(R, m, t, orole, cand, ncand, nc, ten, g, binom, bust, band, table, w)
    for r in range(R):
        for j in range(wts.shape[1]):
            sup[r, j] = j < ncand[r] and wts[r, j] >= 0.02
            if not sup[r, j]:
                wts[r, j] = 0.0
        _normalise(r, ncand, wts)
    if _supports(
        R, m, t, orole, cand, ncand, nc, ten, wts, sup, g, binom, bust, band, table, tie_tol, tol, w, s
    ):
        return 2
    for _ in range(_ENUM_ROUNDS):
        if _enumerate(R, m, t, orole, cand, ncand, nc, ten, wts, sup, g, bust, tie_tol, tol, s):
            break
        grown = _refocus(R, cand, ncand, wts, s, tol)
        _build_tensors(R, m, t, orole, cand, ncand, nc, ten, g, binom, bust, band, table, w)
        if not grown:
            break
    return 2


def solve_states(
    lo, hi, states, g, binom, bust, band, tie_tol, tol, table, act, gain, mix_th, mix_w, counts, mixed
):  # pragma: no cover
    """Solve ``states[lo:hi]`` (in that order, every successor solved before) into the tables.

    ``counts`` (see :data:`COUNTERS`) and ``mixed`` (the indices of the mixed states) are
    updated. Returns the index of the first state not solved: ``hi``, or less when the mix
    tables ``mix_th``/``mix_w`` or ``mixed`` are full (grow them and call again from there).
    """
    n = states.shape[1]
    m = n - 1
    L = g + 2
    dest = np.zeros((max(m, 1), L), np.int64)
    prob = np.zeros((max(m, 1), L))
    lens = np.zeros(max(m, 1), np.int64)
    u = np.zeros(g + 1)
    num = np.zeros(g + 1)
    vals = np.zeros(g + 1)
    idx = np.zeros(max(m, 1), np.int64)
    buf = np.zeros(max(m, 1), np.int64)
    digits = np.zeros(max(m, 1), np.int64)
    w = (dest, prob, lens, u, num, vals, idx, buf, digits)
    t = np.zeros(n, np.int64)
    mult = np.zeros(n, np.int64)
    first = np.zeros(n, np.int64)
    role_of = np.zeros(n, np.int64)
    col = np.zeros(n, np.int64)
    orole = np.zeros((n, max(m, 1)), np.int64)
    view = np.zeros(max(m, 1), np.int64)
    k = np.zeros(n, np.int64)
    hist = np.zeros((MAX_PASSES, n), np.int64)
    val = np.zeros(n)
    gn = np.zeros(n)
    cand = np.zeros((n, MAX_CAND), np.int64)
    ncand = np.zeros(n, np.int64)
    wts = np.zeros((n, MAX_CAND))
    sup = np.zeros((n, MAX_CAND), np.bool_)
    nvar = n * (MAX_CAND + 1)
    ten = np.zeros((n, MAX_CAND**m, g + 1))
    nc = np.zeros(n, np.int64)
    s = (
        np.zeros(n),  # b
        np.zeros(n),  # bb
        np.zeros((n, g + 1)),  # acont
        digits,
        np.zeros((nvar, nvar)),  # jac
        np.zeros(nvar),  # rhs
        vals,
        np.zeros(n),  # val
        np.zeros(n),  # gain
        np.zeros(n, np.int64),  # reply
        np.zeros((n, MAX_CAND)),  # best weights
        np.ones((n, MAX_CAND), np.int64),  # their thresholds
        np.zeros(n),  # best values
        np.zeros(n),  # best gains
        np.zeros(1),  # smallest largest gain
        np.zeros(n, np.int64),  # best replies at the best profile
    )
    for si in range(lo, hi):
        if counts[0] + n > mix_th.shape[0] or counts[2] >= mixed.shape[0]:
            return si
        st = states[si]
        R = 0
        for p in range(n):
            if p == 0 or st[p] != st[p - 1]:
                t[R] = st[p]
                mult[R] = 1
                first[R] = p
                R += 1
            else:
                mult[R - 1] += 1
            role_of[p] = R - 1
        for r in range(R):
            q = 0
            for p in range(n):
                if p != first[r]:
                    view[q] = st[p]
                    orole[r, q] = role_of[p]
                    q += 1
            col[r] = rank(view, m, binom)
        # start from the nearest solved state: raise the lowest score that can be raised
        raised = -1
        for p in range(n):
            if (p < n - 1 and st[p] + 1 <= st[p + 1]) or (p == n - 1 and st[p] + 1 < g):
                raised = p
                break
        for r in range(R):
            p0 = first[r]
            if raised < 0:
                k[r] = 1
                continue
            q = 0
            for p in range(n):
                if p != p0:
                    view[q] = st[p] + (1 if p == raised else 0)
                    q += 1
            own = st[p0] + (1 if p0 == raised else 0)
            code = act[rank(view, m, binom), own]
            if code < 0:
                e = -code - 1
                kb, wb = 1, -1.0
                for j in range(mix_th.shape[1]):
                    if mix_w[e, j] > wb:
                        kb, wb = mix_th[e, j], mix_w[e, j]
                code = kb
            k[r] = max(1, min(code, g - t[r]))
        # 1. pure search
        cycle_from = -1
        last = 0
        passes = 0
        converged = False
        for it in range(MAX_PASSES):
            passes += 1
            changed = False
            for r in range(R):
                opp_bust = 1.0
                for q in range(m):
                    rr = orole[r, q]
                    lens[q] = pure_outcomes(t[rr], k[rr], g, bust, band, dest[q], prob[q])
                    opp_bust *= bust[k[rr]]
                room = g - t[r]
                continuation_row(t[r], g, m, dest, prob, lens, table, binom, u, idx, buf)
                action_values(u, room, opp_bust, bust, band, num, vals)
                best, kb = best_action(vals, room, tie_tol)
                cur = vals[k[r]]
                if cur < best - tie_tol:
                    k[r] = kb
                    changed = True
                else:
                    val[r] = cur
                    gn[r] = best - cur
            for r in range(R):
                hist[it, r] = k[r]
            if not changed:
                converged = True
                break
            for q in range(it):
                same = True
                for r in range(R):
                    if hist[q, r] != k[r]:
                        same = False
                        break
                if same:
                    cycle_from = q + 1
                    break
            if cycle_from >= 0:
                last = it
                break
        counts[5] += passes
        if converged:
            counts[1] += 1
            for r in range(R):
                table[col[r], t[r]] = val[r]
                act[col[r], t[r]] = k[r]
                gain[col[r], t[r]] = gn[r]
            continue
        # 2. and 3. mixed: the cycle's thresholds are the candidates, weighted by frequency
        if cycle_from < 0:
            cycle_from = max(0, MAX_PASSES - 8)
            last = MAX_PASSES - 1
        for r in range(R):
            ncand[r] = 0
            for j in range(MAX_CAND):
                wts[r, j] = 0.0
            for it in range(cycle_from, last + 1):
                j, _ = _add_candidate(r, hist[it, r], cand, ncand)
                if j >= 0:
                    wts[r, j] += 1.0
            _normalise(r, ncand, wts)
        status = _solve_mixed(
            R, m, t, orole, cand, ncand, wts, g, binom, bust, band, table, tie_tol, tol, w, s, ten, nc, sup
        )
        best_w, best_th, best_val, best_gain = s[10], s[11], s[12], s[13]
        # The values and certificates stored are those of the strategies stored, recomputed
        # from fresh tensors on their supports (whatever path found them).
        for r in range(R):
            ncand[r] = 0
            for j in range(MAX_CAND):
                if best_w[r, j] > 0.0:
                    cand[r, ncand[r]] = best_th[r, j]
                    wts[r, ncand[r]] = best_w[r, j]
                    ncand[r] += 1
            for j in range(ncand[r], MAX_CAND):
                wts[r, j] = 0.0
        _build_tensors(R, m, t, orole, cand, ncand, nc, ten, g, binom, bust, band, table, w)
        _evaluate(R, m, t, orole, cand, ncand, nc, ten, wts, g, bust, s[0], s[1], s[2], digits)
        _certify(R, t, cand, ncand, wts, g, bust, s[0], s[1], s[2], tie_tol, vals, best_val, best_gain, s[9])
        for r in range(R):
            for j in range(MAX_CAND):
                best_w[r, j] = wts[r, j] if j < ncand[r] else 0.0
                best_th[r, j] = cand[r, j] if j < ncand[r] else 1
        counts[2] += 1
        if status == 2:
            counts[3] += 1
        mixed[counts[2] - 1] = si
        for r in range(R):
            size = 0
            kpure = 0
            for j in range(MAX_CAND):
                if best_w[r, j] > 0.0:
                    size += 1
                    kpure = best_th[r, j]
            table[col[r], t[r]] = best_val[r]
            gain[col[r], t[r]] = best_gain[r]
            if size == 1:
                act[col[r], t[r]] = kpure
                continue
            e = counts[0]
            counts[0] += 1
            counts[6] += 1
            if size > counts[4]:
                counts[4] = size
            q = 0
            for j in range(MAX_CAND):
                mix_th[e, j] = 1
                mix_w[e, j] = 0.0
            for j in range(MAX_CAND):
                if best_w[r, j] > 0.0:
                    mix_th[e, q] = best_th[r, j]
                    mix_w[e, q] = best_w[r, j]
                    q += 1
            act[col[r], t[r]] = -(1 + e)
    return hi


_COMPILING = threading.Lock()
_KERNEL_HELPERS = (
    "rank",
    "pure_outcomes",
    "mixed_outcomes",
    "strategy_outcomes",
    "continuation_row",
    "action_values",
    "best_action",
)
_STAGE_HELPERS = (
    "_lin_solve",
    "_build_tensors",
    "_evaluate",
    "_certify",
    "_newton",
    "_add_candidate",
    "_normalise",
    "_keep",
    "_refocus",
    "_supports",
    "_fictitious_play",
    "_enumerate",
    "_by_weight",
    "_solve_mixed",
)
_PLAIN = SimpleNamespace(solve_states=solve_states, respond_columns=symmetric_kernels.respond_columns)


def interpreted() -> SimpleNamespace:
    """The two entry points, ``solve_states`` and ``respond_columns``, as plain Python."""
    return _PLAIN


def compiled() -> SimpleNamespace:
    """The two entry points compiled by numba (``@njit(cache=True)``): the first call of each
    in a process compiles it (about a minute) or loads numba's disk cache. Safe to call from
    several threads."""
    with _COMPILING:
        return _compile()


@lru_cache(maxsize=1)
def _compile() -> SimpleNamespace:
    from numba import njit

    jit = njit(cache=True, nogil=True)
    # A caller finds its callees by global name when it is compiled; compile copies of the
    # functions whose globals name the compiled helpers, so that the plain Python functions
    # (the interpreted engine) stay plain.
    kernel_ns = dict(vars(symmetric_kernels))
    stage_ns = dict(globals())

    def clone(fn: Any, ns: dict) -> Any:
        return FunctionType(fn.__code__, ns, fn.__name__, fn.__defaults__, fn.__closure__)

    for name in _KERNEL_HELPERS:
        fn = jit(clone(getattr(symmetric_kernels, name), kernel_ns))
        kernel_ns[name] = fn
        if name in stage_ns:
            stage_ns[name] = fn
    for name in _STAGE_HELPERS:
        stage_ns[name] = jit(clone(stage_ns[name], stage_ns))
    return SimpleNamespace(
        solve_states=jit(clone(_PLAIN.solve_states, stage_ns)),
        respond_columns=jit(clone(_PLAIN.respond_columns, kernel_ns)),
    )
