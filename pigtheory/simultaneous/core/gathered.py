"""Compiled kernel of the chunked level solve: columns whose successors' rows were gathered.

Shapes
------
A chunk holds ``C`` columns, the sorted opponents' score tuples ``states[c]`` (shape
``(C, m)``). ``rows[c, t - 1, o]`` (shape ``(C, m, w, goal + 1)``) is
:math:`A_{t-1}` at the tuple that column c reaches when its stage-t opponent (position
``t - 1``) moves to ``dest[x, o]``, gathered from the store beforehand; rows that are never
read (probability 0, or the column itself) may hold anything. Out: ``value[c, a]`` (own score
``a = 0..goal``), ``policy[c, i]`` (``i < goal``) and ``partial[c, t - 1, a]``, the
:math:`A_t(a, \\cdot)` that lower columns read, ``t = 1..m - 1``.

Notes
-----
The same recursion as the in-memory engine (:mod:`pigtheory.simultaneous.core.nplayer`), in
the same order of operations, so the two give the same bits:

.. math:: A_t(a, j) = \\sum_{y} P(Y_t = y \\mid j_t)\\, A_{t-1}(a, j + y e_t) =
    \\text{part}_t(a) + \\text{coef}_t\\, V(a, j),

the outcome that leaves the column where it is entering through :math:`\\text{coef}_t`; then
the column's own scores are solved from :math:`W = A_m` by
:func:`~pigtheory.simultaneous.core.nplayer.column_solver`. Only where the rows come from
differs: slabs of the columns solved just before (lexicographic order) there, rows of
finished levels on disk here, read in place (no copy).

The function below is plain Python until :func:`compiled` compiles it
(``@njit(cache=True, nogil=True)``).
"""

from __future__ import annotations

import hashlib
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["compiled"]


def _chunk(
    goal, states, dest, prob, sources, src, at, bust, band_t, tie_tol, value, policy, partial
):  # pragma: no cover - compiled
    """Solve every column of a chunk (see the module Notes)."""
    g = goal
    size, m = states.shape
    w = band_t.shape[0]
    n_out = dest.shape[1]
    part = np.zeros((m + 1, g + 1))
    coef = np.ones(m + 1)
    u = np.empty(g + w + 1)
    inv = np.empty(g + 1)
    vals = np.empty(g + 1)
    for c in range(size):
        at_goal = 0
        for p in range(m):
            if states[c, p] == g:
                at_goal += 1
        for t in range(1, m + 1):
            x = states[c, t - 1]
            pt = part[t]
            prev = part[t - 1]
            for a in range(g + 1):
                pt[a] = 0.0
            coef[t] = 0.0
            for o in range(n_out):
                p = prob[x, o]
                if p == 0.0:
                    continue
                if dest[x, o] == x:
                    coef[t] = p * coef[t - 1]
                    for a in range(g + 1):
                        pt[a] += p * prev[a]
                    continue
                row = sources[src[c, t - 1, o]][at[c, t - 1, o]]
                for a in range(g + 1):
                    pt[a] += p * row[a]
        v = value[c]
        if at_goal > 0:
            for a in range(g):
                v[a] = 0.0
            v[g] = 1.0 / (1 + at_goal)
        else:
            _solve_column(g, part[m], coef[m], bust, band_t, tie_tol, u, inv, vals, v, policy[c])
        for t in range(1, m):
            dst = partial[c, t - 1]
            ct = coef[t]
            pt = part[t]
            for a in range(g + 1):
                dst[a] = pt[a] + ct * v[a]


def _solve_column(*args):  # pragma: no cover - replaced by the compiled column solver
    raise RuntimeError("call compiled() first")


_COMPILING = threading.Lock()


def compiled() -> Any:
    """The compiled chunk solver (numba imported and the kernel compiled, or loaded from
    numba's disk cache, on the first call in a process). Thread-safe.

    Call it as ``kernel(goal, states, dest, prob, sources, src, at, bust, band_t, tie_tol,
    value, policy, partial)`` with ``dest``, ``prob`` one opponent's ``(goal + 1, w)`` move
    tables (:func:`pigtheory.simultaneous.multiplayer.separable_moves`) and ``sources`` a
    ``numba.typed.List`` of read-only float arrays.
    """
    with _COMPILING:
        return _compile()


@lru_cache(maxsize=1)
def _compile() -> Any:
    from numba import njit

    from . import nplayer

    global _solve_column  # the kernel calls the column solver as a compiled global
    _solve_column = nplayer.column_solver()
    # numba's disk cache checks this file only; naming the kernel after the column solver's
    # file makes an edit there compile the kernel anew instead of loading a stale one
    digest = hashlib.sha256(Path(nplayer.__file__).read_bytes()).hexdigest()[:12]
    _chunk.__qualname__ = f"_chunk_{digest}"
    return njit(cache=True, nogil=True)(_chunk)
