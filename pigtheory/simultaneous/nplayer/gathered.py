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
The same recursion as the in-memory engine (:mod:`pigtheory.simultaneous.nplayer.kernels`), in
the same order of operations, so the two give the same bits:

.. math:: A_t(a, j) = \\sum_{y} P(Y_t = y \\mid j_t)\\, A_{t-1}(a, j + y e_t) =
    \\text{part}_t(a) + \\text{coef}_t\\, V(a, j),

the outcome that leaves the column where it is entering through :math:`\\text{coef}_t`; then
the column's own scores are solved from :math:`W = A_m` by
:func:`~pigtheory.simultaneous.nplayer.kernels.solve_column` (one threshold step per own score). Only where the rows come from
differs: slabs of the columns solved just before (lexicographic order) there, rows of
finished levels on disk here, read in place (no copy).

The function below is a kernel (:mod:`.jit`), plain Python until :func:`compiled` compiles it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..core.jit import compiled as jit_compiled
from ..core.jit import kernel
from .kernels import solve_column

__all__ = ["Gathered", "ChunkOut", "compiled"]


class Gathered(NamedTuple):
    """Where the rows of a chunk come from: ``sources`` (a ``numba.typed.List`` of read-only
    float arrays) and, per column, stage and outcome, the source ``src`` and row ``at``."""

    sources: Any
    src: np.ndarray
    at: np.ndarray


class ChunkOut(NamedTuple):
    """What a chunk solve writes: ``value[c, a]``, ``policy[c, i]``, ``partial[c, t - 1, a]``."""

    value: np.ndarray
    policy: np.ndarray
    partial: np.ndarray


@kernel
def _chunk(states, dest, prob, rows, band, tie_tol, out):  # pragma: no cover - compiled
    """Solve every column of a chunk (see the module Notes): ``rows`` a :class:`Gathered`,
    ``band`` a :class:`~.step.Band`, ``out`` a :class:`ChunkOut`."""
    sources, src, at = rows.sources, rows.src, rows.at
    value, policy, partial = out.value, out.policy, out.partial
    g = value.shape[1] - 1
    size, m = states.shape
    w = band.band_t.shape[0]
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
            solve_column(g, part[m], coef[m], band, tie_tol, u, inv, vals, v, policy[c])
        for t in range(1, m):
            dst = partial[c, t - 1]
            ct = coef[t]
            pt = part[t]
            for a in range(g + 1):
                dst[a] = pt[a] + ct * v[a]


def compiled() -> Any:
    """The compiled chunk solver (:func:`~.jit.compiled`; numba imported and the kernel
    compiled, or loaded from numba's disk cache, on the first call in a process).

    Call it as ``kernel(states, dest, prob, rows, band, tie_tol, out)`` with ``dest``, ``prob``
    one opponent's ``(goal + 1, w)`` move tables
    (:func:`pigtheory.simultaneous.nplayer.reduced.separable_moves`), ``rows`` a :class:`Gathered`
    and ``out`` a :class:`ChunkOut`.
    """
    return jit_compiled(_chunk)
