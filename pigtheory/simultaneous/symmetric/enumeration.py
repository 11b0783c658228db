"""Support enumeration over the first few candidates of each role, smallest supports first
(step 3 of :mod:`.stage`).

References
----------
R. Porter, E. Nudelman & Y. Shoham, "Simple search methods for finding a Nash equilibrium",
Games and Economic Behavior 63 (2008) 642-662.
"""

from __future__ import annotations

import numpy as np

from ..core.jit import kernel
from .newton import newton_work, score, solve_support
from .payoffs import normalise

__all__ = ["ENUM_CAND", "enumerate_supports"]

ENUM_CAND = 4
"""Candidates per role that the enumeration combines (one fewer for four roles or more; the
ordinary :class:`~.payoffs.Limits`)."""


@kernel(refcount=False)
def _masks(code, R, top, masks):  # pragma: no cover - compiled
    """The supports of support profile ``code`` (mixed radix, the first role fastest): role r
    takes its candidates ``j < top[r]`` whose bit j of ``masks[r]`` (nonzero) is set; returns
    the profile's size (every role's support size, summed)."""
    x = code
    total = 0
    for r in range(R):
        base = (1 << top[r]) - 1
        masks[r] = x % base + 1
        x //= base
        for j in range(top[r]):
            total += (masks[r] >> j) & 1
    return total


@kernel
def enumerate_supports(R, m, x, lim):  # pragma: no cover - compiled
    """Support enumeration over the first few candidates of each role of
    :class:`~.payoffs.Mixed` ``x``, smallest supports first (Porter, Nudelman &
    Shoham): Newton's method on each support profile from the uniform mix, kept if its weights
    are a mix and its certificate holds (``lim.enum_cand`` candidates per role,
    :class:`~.payoffs.Limits`)."""
    ncand, wts, sup, tol = x.ncand, x.wts, x.sup, x.tol
    top = np.zeros(R, np.int64)
    most = 0
    combos = 1
    each = lim.enum_cand if R <= 3 else lim.enum_cand - 1
    for r in range(R):
        top[r] = min(ncand[r], each)
        most += top[r]
        combos *= (1 << top[r]) - 1
    wide = 1
    for r in range(R):
        wide = max(wide, top[r])
    nw = newton_work(wts.shape[0], wts.shape[1], m, wide**m)  # the others' supports' profiles
    masks = np.zeros(R, np.int64)
    # the codes in order of support size (a stable counting sort: increasing codes per size)
    sizes = np.empty(combos, np.int64)
    first = np.zeros(most + 2, np.int64)
    for code in range(combos):
        total = _masks(code, R, top, masks)
        sizes[code] = total
        first[total + 1] += 1
    for size in range(most + 1):
        first[size + 1] += first[size]
    order = np.empty(combos, np.int64)
    fill = first.copy()
    for code in range(combos):
        order[fill[sizes[code]]] = code
        fill[sizes[code]] += 1
    for at in range(first[R], first[most + 1]):
        _masks(order[at], R, top, masks)
        for r in range(R):
            cnt = 0
            for j in range(wts.shape[1]):
                sup[r, j] = j < top[r] and ((masks[r] >> j) & 1) == 1
                cnt += sup[r, j]
            for j in range(wts.shape[1]):
                wts[r, j] = 1.0 / cnt if sup[r, j] else 0.0
        if not solve_support(R, m, x, lim, nw):
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
            normalise(r, ncand, wts)
        if score(R, m, x) <= tol:
            return True
    return False
