"""The mixed search of one state's stage game: the supports tried, the candidates of a cycle of
best responses, the certificate checked again (steps 2-4 of :mod:`.stage`'s Notes).
"""

from __future__ import annotations

import numpy as np

from ..core.jit import kernel
from .enumeration import enumerate_supports
from .fictitious import fictitious_play
from .newton import supports
from .payoffs import (
    add_candidate,
    build_tensors,
    by_weight,
    certify,
    evaluate,
    normalise,
    refocus,
)


@kernel(refcount=False)
def solve_mixed(R, m, x, lim):  # pragma: no cover - compiled
    """Steps 2 and 3 of the module Notes at the state of :class:`~.payoffs.Mixed` ``x`` within the
    :class:`~.payoffs.Limits` ``lim``; returns 1 (certified without the fallback) or
    2 (fictitious play was needed; the certificate of the best profile found says how well)."""
    cand, ncand, wts, sup = x.cand, x.ncand, x.wts, x.sup
    x.s.s_best[0] = np.inf
    build_tensors(R, m, x)
    for r in range(R):
        for j in range(sup.shape[1]):
            sup[r, j] = j < ncand[r] and wts[r, j] > 0.0
    if supports(R, m, x, lim):
        return 1
    for _ in range(lim.enum_rounds):
        if enumerate_supports(R, m, x, lim):
            return 1
        grown = refocus(R, x, lim.cand)
        # the candidates were reordered, perhaps grown: the tensors follow them
        build_tensors(R, m, x)
        if not grown:
            break
    for r in range(R):  # fallback: fictitious play from a uniform mix of the candidates
        for j in range(wts.shape[1]):
            wts[r, j] = 1.0 / ncand[r] if j < ncand[r] else 0.0
    fictitious_play(R, m, x, lim)
    by_weight(R, cand, ncand, wts)
    build_tensors(R, m, x)
    for r in range(R):
        for j in range(wts.shape[1]):
            sup[r, j] = j < ncand[r] and wts[r, j] >= 0.02
            if not sup[r, j]:
                wts[r, j] = 0.0
        normalise(r, ncand, wts)
    if supports(R, m, x, lim):
        return 2
    for _ in range(lim.enum_rounds):
        if enumerate_supports(R, m, x, lim):
            break
        grown = refocus(R, x, lim.cand)
        build_tensors(R, m, x)
        if not grown:
            break
    return 2


@kernel(refcount=False)
def cycle_candidates(R, hist, cycle_from, last, cand, ncand, wts, cap):  # pragma: no cover
    """The thresholds of passes ``cycle_from..last`` of ``hist`` as each role's candidates,
    weighted by how often they were played (at most ``cap`` per role)."""
    for r in range(R):
        ncand[r] = 0
        for j in range(wts.shape[1]):
            wts[r, j] = 0.0
        for it in range(cycle_from, last + 1):
            j, _ = add_candidate(r, hist[it, r], cand, ncand, cap)
            if j >= 0:
                wts[r, j] += 1.0
        normalise(r, ncand, wts)


@kernel(refcount=False)
def recertify(R, m, x):  # pragma: no cover - compiled
    """Values and certificates of the best profile kept in the scratch ``s`` of
    :class:`~.payoffs.Mixed` ``x``, recomputed from fresh tensors on its supports (whatever path found
    it) and stored back in ``s``; returns its largest gain."""
    cand, ncand, wts, s = x.cand, x.ncand, x.wts, x.s
    best_w, best_th, best_val, best_gain = s.best_w, s.best_th, s.best_val, s.best_gain
    width = wts.shape[1]
    for r in range(R):
        ncand[r] = 0
        for j in range(width):
            if best_w[r, j] > 0.0:
                cand[r, ncand[r]] = best_th[r, j]
                wts[r, ncand[r]] = best_w[r, j]
                ncand[r] += 1
        for j in range(ncand[r], width):
            wts[r, j] = 0.0
    build_tensors(R, m, x)
    evaluate(R, m, x)
    worst = certify(R, x, best_val, best_gain)
    for r in range(R):
        for j in range(width):
            best_w[r, j] = wts[r, j] if j < ncand[r] else 0.0
            best_th[r, j] = cand[r, j] if j < ncand[r] else 1
    s.s_best[0] = worst
    return worst


@kernel(refcount=False)
def search(R, m, hist, cycle_from, last, x, lim):  # pragma: no cover - compiled
    """Steps 2-4 of the module Notes at the state of :class:`~.payoffs.Mixed` ``x``, within the
    :class:`~.payoffs.Limits` ``lim``, from the thresholds of the best-response
    cycle (passes ``cycle_from..last`` of ``hist``): returns the status of
    :func:`solve_mixed` and the largest gain of the best profile, which ``recertify``
    leaves in ``x.s``."""
    cycle_candidates(R, hist, cycle_from, last, x.cand, x.ncand, x.wts, lim.cand)
    status = solve_mixed(R, m, x, lim)
    return status, recertify(R, m, x)
