"""Optional compiled kernels (numba) for the two-player best response.

The same backward induction as :mod:`._two_player`, state by state over the levels of
``i + j`` from the top, with plain loops instead of batched array operations: a loop costs
nothing per state here, while numpy pays a fixed price per call. Used when numba is installed
(``pip install pigtheory[fast]``) unless ``PIGTHEORY_NUMBA=0``; the numpy path is the fallback
and the reference (tests check that both agree).
"""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache
from typing import Any

import numpy as np

AVAILABLE = importlib.util.find_spec("numba") is not None and os.environ.get("PIGTHEORY_NUMBA", "1") != "0"
"""numba is installed and not disabled; numba itself is imported on first use only."""


def _independent(g, bust, band, inv, cz, pz, pb, tie_tol, V, UT, policy):  # pragma: no cover - compiled
    """B's turn depends on B's score only. ``UT[j, a] = E_Y[V(a, j + Y)]`` (columns past the
    goal already hold the terminal values); ``V`` holds the terminal values, zeros elsewhere;
    ``inv[j, k] = 1 / (1 - P(X_k = 0) P(Y = 0 | j))``; ``band[k, r] = P(X_k = k + r)``."""
    w = band.shape[1]
    vals = np.empty(g + 1)
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            room = g - i
            z = 0.0
            for r in range(pz.shape[1]):
                z += pz[j, r] * V[i, cz[j, r]]
            # Until solved, V(i, j) counts as 0: the self-loop is in the denominator (inv).
            # One accumulator per k: independent chains that the CPU overlaps.
            best = -np.inf
            for k in range(1, room + 1):
                a = bust[k] * z
                for r in range(w):
                    a += band[k, r] * UT[j, i + k + r]
                v = a * inv[j, k]
                vals[k] = v
                if v > best:
                    best = v
            kk = 1
            for k in range(1, room + 1):
                if vals[k] >= best - tie_tol:
                    kk = k
                    break
            V[i, j] = best
            policy[i, j] = kk
            UT[j, i] = z + pb[j] * best


def _general(g, bust, band, P, C, tie_tol, VT, policy):  # pragma: no cover - compiled
    """B's turn may depend on A's score: ``P[i, j, r]``, ``C[i, j, r]`` give B's outcomes (column
    0 the bust) and the columns they land on. ``VT[c, a] = V(a, c)``, terminal past the goal."""
    w = band.shape[1]
    R = P.shape[2]
    u = np.empty(g + w + 1)
    vals = np.empty(g + 1)
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            room = g - i
            for x in range(room + 1):
                u[x] = 0.0
            for r in range(R):
                p = P[i, j, r]
                c = C[i, j, r]
                for x in range(room + 1):
                    u[x] += p * VT[c, i + x]
            for x in range(room + 1, room + w):
                u[x] = u[room]
            pb = P[i, j, 0]
            best = -np.inf
            for k in range(1, room + 1):
                a = bust[k] * u[0]
                for r in range(w):
                    a += band[k, r] * u[k + r]
                v = a / (1.0 - bust[k] * pb)
                vals[k] = v
                if v > best:
                    best = v
            kk = 1
            for k in range(1, room + 1):
                if vals[k] >= best - tie_tol:
                    kk = k
                    break
            VT[j, i] = best
            policy[i, j] = kk


@lru_cache(maxsize=1)
def kernels() -> tuple[Any, Any]:
    """The compiled ``(independent, general)`` kernels; the first call compiles them (seconds,
    then cached on disk by numba)."""
    from numba import njit

    return njit(cache=True, nogil=True)(_independent), njit(cache=True, nogil=True)(_general)
