"""Compiled kernel (numba) of :func:`~pigtheory.simultaneous.core.stage.stage_rows`.

One row of a stage game per state, with plain loops over the band of the turn totals. The
loops add the same terms in the same order as the numpy engine of
:func:`~pigtheory.simultaneous.core.stage.stage_rows` (products are not fused), so the two
engines give the same bits. The function is a kernel (:mod:`.jit`): ``compiled_rows()``
compiles it on first use.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .jit import compiled, kernel


@kernel
def _rows(ext, i, j, k, band, goal, largest, tie_tol, store, out, reply, best):  # pragma: no cover - compiled
    """``best[s]``, the minimum (``largest``: maximum) over b of
    ``W[k_s - 1, b - 1] = C / (1 - P(X_k = 0) P(Y_b = 0))`` at the state ``(i_s, j_s)``,
    ``b = 1..goal - j_s``, and ``reply[s]`` the first b within ``tie_tol`` of it; with
    ``store``, also ``out[s, b - 1] = C[k_s - 1, b - 1]`` and zeros beyond ``goal - j_s``.
    ``band`` is the :class:`~.step.Band` (``bust[k] = P(X_k = 0)``, ``band_t[r, k] =
    P(X_k = k + r)``). See ``stage_rows`` for the sums."""
    bust, band_t = band.bust, band.band_t
    w = band_t.shape[0]
    half = np.empty(goal + w + 1)
    full = np.empty(goal + w + 1)
    o = np.empty(goal + 1)
    wv = np.empty(goal + 1)
    for s in range(i.shape[0]):
        ii, jj, kk = i[s], j[s], k[s]
        nb = goal - jj
        t_end = nb + w
        for t in range(t_end):
            half[t] = 0.0
        for r in range(w):
            p = band_t[r, kk]
            row = ii + kk + r
            for t in range(t_end):
                half[t] += p * ext[row, jj + t]
        pk = bust[kk]
        for t in range(t_end):
            full[t] = half[t] + pk * ext[ii, jj + t]
        h0 = half[0]
        for b in range(1, nb + 1):
            o[b] = bust[b] * h0
        for r in range(w):
            br = band_t[r]
            for b in range(1, nb + 1):
                o[b] += br[b] * full[b + r]
        top = -np.inf if largest else np.inf
        for b in range(1, nb + 1):
            wv[b] = o[b] / (1.0 - pk * bust[b])
            if (wv[b] > top) if largest else (wv[b] < top):
                top = wv[b]
        at = 1
        for b in range(1, nb + 1):
            if (wv[b] >= top - tie_tol) if largest else (wv[b] <= top + tie_tol):
                at = b
                break
        reply[s] = at
        best[s] = top
        if store:
            for b in range(1, nb + 1):
                out[s, b - 1] = o[b]
            for b in range(nb, out.shape[1]):
                out[s, b] = 0.0


def compiled_rows() -> Any:
    """The compiled row kernel (:func:`~.jit.compiled`); the first call in a process imports
    numba and compiles it (seconds) or loads it from numba's disk cache."""
    return compiled(_rows)
