"""Newton's method on the indifference conditions of a support profile, and the double
oracle around it (step 2 of :mod:`.stage`).

References
----------
H. B. McMahan, G. J. Gordon & A. Blum, ICML 2003 (double oracle).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import kernel
from .payoffs import (
    add_candidate,
    build_tensors,
    bust_chances,
    certify,
    evaluate,
    keep,
    lin_solve,
    next_digits,
    normalise,
)

__all__ = [
    "NEWTON_ITER",
    "PATIENCE",
    "MAX_ROUNDS",
    "Unknowns",
    "newton_work",
    "live_sets",
    "live_profiles",
    "live_candidates",
    "newton",
    "solve_support",
    "score",
    "supports",
]

NEWTON_ITER = 60
"""Newton steps on one support profile (the ordinary :class:`~.payoffs.Limits`)."""

PATIENCE = 20
"""Newton steps after which the ordinary search gives up a solve whose residual is still above
1e-6 (above 1e-2 after half as many): :func:`newton`."""

MAX_ROUNDS = 30
"""Support changes per attempt of the double oracle (the ordinary limits)."""


class Unknowns(NamedTuple):
    """Newton's scratch (:func:`newton_work`), rewritten by every :func:`newton` call: the
    numbering of the unknowns ``off``, ``pos``, the supported and the live candidates ``ns``,
    ``sj``, ``nl``, ``lj`` (:func:`live_sets`), the rows ``srow`` and thresholds ``sk`` of the
    supported ones, the live profiles ``nlive``, ``live``, ``ldig`` (:func:`live_profiles`;
    ``live.shape[1]`` of them at most, or :func:`newton` takes room of its own), the weights
    ``pw`` and unknowns ``pcol`` of their digits, the odometer ``idx`` and a row ``bv``."""

    off: np.ndarray
    pos: np.ndarray
    ns: np.ndarray
    sj: np.ndarray
    nl: np.ndarray
    lj: np.ndarray
    srow: np.ndarray
    sk: np.ndarray
    nlive: np.ndarray
    live: np.ndarray
    ldig: np.ndarray
    pw: np.ndarray
    pcol: np.ndarray
    idx: np.ndarray
    bv: np.ndarray


@kernel
def newton_work(n, width, m, most):  # pragma: no cover - compiled
    """A fresh :class:`Unknowns` for ``n`` roles of ``width`` candidates, ``m`` others each,
    room for ``most`` live profiles per role."""
    return Unknowns(
        np.zeros(n + 1, np.int64),
        np.zeros((n, width), np.int64),
        np.zeros(n, np.int64),
        np.zeros((n, width), np.int64),
        np.zeros(n, np.int64),
        np.zeros((n, width), np.int64),
        np.zeros((n, width), np.int64),
        np.zeros((n, width), np.int64),
        np.zeros(n, np.int64),
        np.zeros((n, max(most, 1)), np.int64),
        np.zeros((n, max(most, 1), m), np.int64),
        np.zeros((n, max(most, 1), m)),
        np.zeros((n, max(most, 1), m), np.int64),
        np.zeros(m, np.int64),
        np.zeros(width),
    )


@kernel(refcount=False)
def live_sets(R, ncand, wts, sup, nw):  # pragma: no cover - compiled
    """The unknowns of Newton's method on the supports ``sup`` and the live candidates of each
    role, in the :class:`Unknowns` ``nw``: ``pos[r, j]`` the variable of weight j of role r (-1
    outside the support; the support weights of role 0, its value, then role 1, ...: role r's
    value is ``off[r + 1] - 1``), ``sj[r, :ns[r]]`` its supported candidates and
    ``lj[r, :nl[r]]`` its live ones (in the support or of nonzero weight), both increasing;
    returns the number of unknowns."""
    off, pos, ns, sj, nl, lj = nw.off, nw.pos, nw.ns, nw.sj, nw.nl, nw.lj
    for r in range(R):
        c = off[r]
        ns[r] = 0
        nl[r] = 0
        for j in range(pos.shape[1]):
            pos[r, j] = -1
        for j in range(ncand[r]):
            if sup[r, j]:
                pos[r, j] = c
                c += 1
                sj[r, ns[r]] = j
                ns[r] += 1
            if sup[r, j] or wts[r, j] != 0.0:
                lj[r, nl[r]] = j
                nl[r] += 1
        off[r + 1] = c + 1  # + the value
    return off[R]


@kernel(refcount=False)
def live_profiles(R, m, orole, ncand, nw, live, ldig):  # pragma: no cover - compiled
    """The pure profiles of each role's others that can weigh anything: ``live[r, :count[r]]``
    the indices ci (increasing) of ``ten[r]`` whose every other's candidate is live
    (:func:`live_sets`, in the :class:`Unknowns` ``nw``), ``ldig[r, i]`` the digits of the
    i-th (``count = nw.nlive``: ``count[r]`` the product of the others' numbers of live
    candidates).

    Every other profile has an other whose weight is 0 and who is outside its support, so it
    adds nothing to :func:`~.payoffs.evaluate` or to Newton's Jacobian: summing over
    the live ones, in the same order, gives the same numbers. They are visited as an odometer
    over the others' live candidates (the digits ``idx``), the last other fastest: in
    increasing ci."""
    nl, lj, count, idx = nw.nl, nw.lj, nw.nlive, nw.idx
    for r in range(R):
        for q in range(m):
            idx[q] = 0
        for i in range(count[r]):
            ci = 0
            for q in range(m):
                rr = orole[r, q]
                d = lj[rr, idx[q]]
                ldig[r, i, q] = d
                ci = ci * ncand[rr] + d
            live[r, i] = ci
            next_digits(idx, m, orole[r], nl)


@kernel(refcount=False)
def live_candidates(R, m, x, nw, live, ldig, pw):  # pragma: no cover - compiled
    """:func:`~.payoffs.evaluate` at each role's live candidates only
    (:func:`live_sets`) and over the live profiles only (:func:`live_profiles`): the same sums
    in the same order, so the same numbers there (what Newton's method reads: the others have
    zero weights); the other entries of ``acont`` are left as they were. ``pw[r, i, q]`` the
    weight of the q-th digit of the i-th live profile (:class:`~.payoffs.Mixed`
    ``x``, :class:`Unknowns` ``nw``)."""
    orole, cand, ten, wts, acont = x.orole, x.cand, x.ten, x.wts, x.s.acont
    count, nl, lj = nw.nlive, nw.nl, nw.lj
    bust_chances(R, m, x)
    for r in range(R):
        for a in range(nl[r]):
            acont[r, cand[r, lj[r, a]]] = 0.0
        for i in range(count[r]):
            wgt = 1.0
            for q in range(m - 1, -1, -1):
                y = wts[orole[r, q], ldig[r, i, q]]
                pw[r, i, q] = y
                wgt *= y
            if wgt == 0.0:
                continue
            ci = live[r, i]
            for a in range(nl[r]):
                k = cand[r, lj[r, a]]
                acont[r, k] += wgt * ten[r, ci, k]


@kernel
def newton(R, m, x, iters, patience, nw):  # pragma: no cover - compiled
    """Solve the indifference conditions on the supports ``sup`` (bool ``[r, j]``) for the
    weights ``wts`` and values ``s.val`` of :class:`~.payoffs.Mixed` ``x``, in
    place, in at most ``iters`` steps, in the scratch ``nw`` (:class:`Unknowns`). Returns True
    on convergence. Only the others' live profiles
    are visited (:func:`live_profiles`: the weights outside the supports do not change here),
    and only the nonzero entries of the Jacobian are written.

    With ``patience`` p > 0 a solve whose largest residual is still above 1e-2 after p / 2
    steps, or above 1e-6 after p, is given up (returns False). In the four-player equilibrium
    at goal 80 (60 steps, no patience) 25,197 of the 27,236 solves that took every step
    failed, and of those that converged only 0.3% were above these residuals then; the
    solves given up were 68% of all Newton steps."""
    orole, cand, ncand, ten, wts, sup, bust = x.orole, x.cand, x.ncand, x.ten, x.wts, x.sup, x.band.bust
    val, b, bb, acont, jac, rhs = x.s.val, x.s.b, x.s.bb, x.s.acont, x.s.jac, x.s.rhs
    off, pos, ns, sj, nl, lj, srow, sk, count, bv = (
        nw.off,
        nw.pos,
        nw.ns,
        nw.sj,
        nw.nl,
        nw.lj,
        nw.srow,
        nw.sk,
        nw.nlive,
        nw.bv,
    )
    nvar = live_sets(R, ncand, wts, sup, nw)
    most = 1
    for r in range(R):
        n = 1
        for q in range(m):
            n *= nl[orole[r, q]]
        count[r] = n
        most = max(most, n)
    live, ldig, pw, pcol = nw.live, nw.ldig, nw.pw, nw.pcol
    if most > live.shape[1]:  # more live profiles than the scratch holds
        live = np.empty((R, most), np.int64)
        ldig = np.empty((R, most, m), np.int64)
        pw = np.empty((R, most, m))
        pcol = np.empty((R, most, m), np.int64)
    live_profiles(R, m, orole, ncand, nw, live, ldig)
    for r in range(R):
        for i in range(count[r]):
            for q in range(m):
                pcol[r, i, q] = pos[orole[r, q], ldig[r, i, q]]
    for r in range(R):  # the Jacobian's row and the threshold of each supported candidate
        for a in range(ns[r]):
            srow[r, a] = pos[r, sj[r, a]]
            sk[r, a] = cand[r, sj[r, a]]
    live_candidates(R, m, x, nw, live, ldig, pw)
    for r in range(R):  # start the values from the weights (the others are 0)
        a = 0.0
        for i in range(nl[r]):
            j = lj[r, i]
            a += wts[r, j] * acont[r, cand[r, j]]
        val[r] = a / (1.0 - b[r] * bb[r])
    last = np.inf
    for it in range(iters):
        if it > 0:  # (the first step's mixes are the ones just evaluated)
            live_candidates(R, m, x, nw, live, ldig, pw)
        resid = 0.0
        for r in range(R):
            vr = off[r + 1] - 1
            tot = 0.0
            for a in range(ns[r]):
                k = sk[r, a]
                f = acont[r, k] - (1.0 - bust[k] * bb[r]) * val[r]
                rhs[srow[r, a]] = -f
                resid = max(resid, abs(f))
                tot += wts[r, sj[r, a]]
            rhs[vr] = -(tot - 1.0)
            resid = max(resid, abs(tot - 1.0))
        # converged, or stalled at the rounding level of an ill-conditioned system
        if resid < 1e-15 or (resid < 1e-13 and resid > 0.5 * last):
            return True
        if patience > 0 and ((it >= patience and resid > 1e-6) or (2 * it >= patience and resid > 1e-2)):
            return False
        last = resid
        for i in range(nvar):
            for j in range(nvar):
                jac[i, j] = 0.0
        for r in range(R):
            vr = off[r + 1] - 1
            for a in range(ns[r]):
                k = sk[r, a]
                jac[srow[r, a], vr] = -(1.0 - bust[k] * bb[r])
                jac[vr, srow[r, a]] = 1.0
            # derivatives through the others' mixes: payoffs (tensor) and the all-bust term
            for i in range(count[r]):
                ci = live[r, i]
                for q in range(m):
                    col = pcol[r, i, q]
                    if col < 0:
                        continue
                    coef = 1.0
                    for q2 in range(m):
                        if q2 != q:
                            coef *= pw[r, i, q2]
                    if coef == 0.0:
                        continue
                    for a in range(ns[r]):
                        jac[srow[r, a], col] += coef * ten[r, ci, sk[r, a]]
            for a in range(ns[r]):
                bv[a] = bust[sk[r, a]] * val[r]
            for q in range(m):
                rr = orole[r, q]
                rest = 1.0
                for q2 in range(m):
                    if q2 != q:
                        rest *= b[orole[r, q2]]
                for a2 in range(ns[rr]):
                    col = pos[rr, sj[rr, a2]]
                    d_bb = bust[sk[rr, a2]] * rest
                    for a in range(ns[r]):
                        jac[srow[r, a], col] += bv[a] * d_bb
        if not lin_solve(jac, rhs, nvar):
            return False
        for r in range(R):
            for a in range(ns[r]):
                j = sj[r, a]
                wts[r, j] += rhs[srow[r, a]]
                if not abs(wts[r, j]) < 1e6:  # diverging (or nan)
                    return False
            val[r] += rhs[off[r + 1] - 1]
    return last < 1e-12


@kernel(refcount=False)
def solve_support(R, m, x, lim, nw):  # pragma: no cover - compiled
    """:func:`newton` on the supports ``sup`` of :class:`~.payoffs.Mixed` ``x``, in
    the scratch ``nw`` (:class:`Unknowns`), within the :class:`~.payoffs.Limits`
    ``lim`` (its steps and patience): its weights ``wts`` and values ``s.val``."""
    return newton(R, m, x, lim.newton_iter, lim.patience, nw)


@kernel(refcount=False)
def score(R, m, x):  # pragma: no cover - compiled
    """The values and certificate (every threshold) of the profile ``wts`` of
    :class:`~.payoffs.Mixed` ``x``, in its scratch ``s``, kept if its largest gain
    is the smallest so far; returns that largest gain."""
    evaluate(R, m, x)
    worst = certify(R, x, x.s.val, x.s.gain)
    keep(R, x, worst)
    return worst


@kernel(refcount=False)
def supports(R, m, x, lim):  # pragma: no cover - compiled
    """Step 2 of the module Notes from the supports ``sup`` and weights ``wts`` of
    :class:`~.payoffs.Mixed` ``x``, within the :class:`~.payoffs.Limits`
    ``lim``; keeps the best profile seen in ``s`` (its weights, values, gains and the largest
    gain ``s_best[0]``)."""
    cand, ncand, nc, wts, sup, tol = x.cand, x.ncand, x.nc, x.wts, x.sup, x.tol
    gain, reply = x.s.gain, x.s.reply
    most = 1
    for r in range(R):
        most = max(most, nc[r])
    nw = newton_work(wts.shape[0], wts.shape[1], m, most)
    for _ in range(lim.max_rounds):
        if not solve_support(R, m, x, lim, nw):
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
            normalise(worst_r, ncand, wts)
            continue
        for r in range(R):
            for j in range(ncand[r]):
                if wts[r, j] < 0.0:
                    wts[r, j] = 0.0
                    sup[r, j] = False
            normalise(r, ncand, wts)
        if score(R, m, x) <= tol:
            return True
        # the largest gain's reply joins its role's support
        rstar = 0
        for r in range(R):
            if gain[r] > gain[rstar]:
                rstar = r
        j, new = add_candidate(rstar, reply[rstar], cand, ncand, lim.cand)
        if j < 0 or sup[rstar, j]:
            return False
        if new:  # the payoff tensors of every role grow
            build_tensors(R, m, x)
        sup[rstar, j] = True
        wts[rstar, j] = 0.05
        normalise(rstar, ncand, wts)
    return False
