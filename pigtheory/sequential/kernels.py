"""Compiled kernel (numba) of the one-die level pass: :func:`~.one_die.solve_one_die`, engine
``"numba"``.

The algorithm of :mod:`.one_die` (policy iteration on each level of equal score sum, the
values affine in the partner's start value), with two differences that only change the
speed: each pair of partner states (i, j), (j, i) is iterated on its own, since nothing else
on its level enters its equations; and the value and roll rows are written straight into the
result while the choices are checked. ``iterations`` still counts, per level, the passes of
its slowest pair, which is what the level-wide numpy engine counts.

The function below is a plain Python kernel until :func:`one_die` compiles it
(:func:`pigtheory.jit.compiled`: numba keeps the machine code on disk, so later processes only
load it). :func:`pigtheory.engine.choose_engine` decides when it is used.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..jit import compiled, kernel

__all__ = ["one_die", "load_time"]


@kernel
def _levels(
    g, s_hi, s_lo, pvec, p_bust, tie, max_passes, v0, value, roll, out
):  # pragma: no cover - compiled
    """Solve the levels ``s_hi`` down to ``s_lo`` of one-die sequential Pig in place.

    ``pvec[r]`` is the probability of a roll adding ``r + 1`` points; ``v0[j, s]`` the
    start-of-turn values, filled for the levels above ``s_hi`` (and 0 for ``s >= goal``);
    ``value`` (uninitialised) and ``roll`` (zeros) are the ``(g, g, g)`` results. ``out``
    accumulates ``[passes, unconverged pairs, largest near-tie gap]``.
    """
    m = pvec.size
    w = g + m + 1
    # Lane 0 is the state (i, j) with i <= j, lane 1 its partner (j, i) (the same state again
    # on the diagonal). Per lane: the affine coefficients in the partner's start value of the
    # value (a, b) and of rolling (ra, rb), and the choice. Both lanes run in one loop over k
    # so that their two dependency chains overlap; lane 1 runs on past its own last turn
    # total, where it holds and wins (a = 1, b = 0) as it should, and those rows are not kept.
    a = np.empty((2, w))
    b = np.empty((2, w))
    ra = np.empty((2, w))
    rb = np.empty((2, w))
    ch = np.zeros((2, w), dtype=np.bool_)
    y = np.empty(2)
    x = np.empty(2)
    p0 = pvec[0]
    for s in range(s_hi, s_lo - 1, -1):
        level_passes = 0
        for i in range(max(0, s - g + 1), s // 2 + 1):
            j = s - i
            top = g - i
            # extrapolate the partners' start values from the two levels above
            y[0] = min(max(2.0 * v0[j, i + 1] - v0[j, i + 2], 0.0), 1.0)
            y[1] = min(max(2.0 * v0[i, j + 1] - v0[i, j + 2], 0.0), 1.0)
            passes = 0
            worst = 0.0
            ok = False
            while not ok and passes < max_passes:
                passes += 1
                for L in range(2):
                    for k in range(top, top + m):
                        a[L, k] = 1.0
                        b[L, k] = 0.0
                y0, y1 = y[0], y[1]
                # the values one point up, kept out of memory (the loop's critical path)
                a0, b0, a1, b1 = 1.0, 0.0, 1.0, 0.0
                for k in range(top - 1, -1, -1):
                    s0a = p_bust
                    s0b = -p_bust
                    s1a = p_bust
                    s1b = -p_bust
                    for r in range(1, m):
                        q = pvec[r]
                        s0a += q * a[0, k + 1 + r]
                        s0b += q * b[0, k + 1 + r]
                        s1a += q * a[1, k + 1 + r]
                        s1b += q * b[1, k + 1 + r]
                    s0a += p0 * a0
                    s0b += p0 * b0
                    s1a += p0 * a1
                    s1b += p0 * b1
                    ra[0, k] = s0a
                    rb[0, k] = s0b
                    ra[1, k] = s1a
                    rb[1, k] = s1b
                    rv0 = s0a + s0b * y0
                    rv1 = s1a + s1b * y1
                    if k > 0:
                        h0 = 1.0 - v0[j, i + k]
                        h1 = 1.0 - v0[i, j + k]  # 1 past lane 1's last turn total
                        c0 = rv0 > h0 + tie
                        c1 = rv1 > h1 + tie
                        a0, b0 = (s0a, s0b) if c0 else (h0, 0.0)
                        a1, b1 = (s1a, s1b) if c1 else (h1, 0.0)
                    else:  # passing: roll on (near) ties
                        c0 = rv0 > 1.0 - y0 - tie
                        c1 = rv1 > 1.0 - y1 - tie
                        a0, b0 = (s0a, s0b) if c0 else (1.0, -1.0)
                        a1, b1 = (s1a, s1b) if c1 else (1.0, -1.0)
                    a[0, k] = a0
                    b[0, k] = b0
                    a[1, k] = a1
                    b[1, k] = b1
                    ch[0, k] = c0
                    ch[1, k] = c1
                # the pair's start values from the 2x2 system x0 = a0 + b0 x1, x1 = a1 + b1 x0
                x[0] = (a0 + b0 * a1) / (1.0 - b0 * b1)
                x[1] = (a1 + b1 * a0) / (1.0 - b1 * b0)
                y[0], y[1] = x[1], x[0]
                # Policy iteration stops when the choices are greedy at their own fixed point
                # (near-ties either way); the rows are written meanwhile.
                ok = True
                worst = 0.0
                for L in range(2 if i < j else 1):
                    ii, jj, yl = (i, j, y[0]) if L == 0 else (j, i, y[1])
                    for k in range(g - ii):
                        rv = ra[L, k] + rb[L, k] * yl
                        if k > 0:
                            gap = rv - (1.0 - v0[jj, ii + k])
                            c = gap > tie
                        else:
                            gap = rv - (1.0 - yl)
                            c = gap >= -tie
                        if c != ch[L, k]:
                            if abs(gap) >= tie:
                                ok = False
                            if abs(gap) > worst:
                                worst = abs(gap)
                        value[ii, jj, k] = a[L, k] + b[L, k] * yl
                        roll[ii, jj, k] = ch[L, k]
            v0[i, j] = x[0]
            v0[j, i] = x[1]
            for k in range(g - i, g):
                value[i, j, k] = np.nan
            for k in range(g - j, g):
                value[j, i, k] = np.nan
            if passes > level_passes:
                level_passes = passes
            if not ok:
                out[1] += 1
            if worst > out[2]:
                out[2] = worst
        out[0] += level_passes


@lru_cache(maxsize=1)
def one_die() -> Any:
    """The compiled level pass; the first call in a process imports numba and compiles it
    (seconds) or loads it from numba's disk cache.

    Returns
    -------
    callable
        The numba dispatcher of the level pass (called by
        :func:`~pigtheory.sequential.one_die.solve_one_die` with ``engine="numba"``).
    """
    return compiled(_levels)


def load_time() -> float:
    """Seconds this process spends importing numba and loading (or compiling) the kernel,
    measured by a first call on a tiny level; about 0.0 after the first call. For benchmarks.

    Returns
    -------
    float
        Wall-clock seconds.
    """
    import time

    t0 = time.perf_counter()
    g = 1
    out = np.zeros(3)
    value = np.empty((g, g, g))
    roll = np.zeros((g, g, g), dtype=np.bool_)
    one_die()(g, 0, 0, np.ones(1), 0.5, 1e-13, 50, np.zeros((g, 2 * g + 1)), value, roll, out)
    return time.perf_counter() - t0
