"""A 2 x 2 one-state game that can repeat, ``v = val(C + v D)``, in closed form.

Shapes
------
``c``, ``d``: ``(2, 2)``, the row player maximising, ``d`` the chance that the state repeats
(as in :mod:`.matrix_game`); strategies ``x``, ``y``: ``(2,)``.

Notes
-----
The value is the root of :math:`f(v) = \\operatorname{val}(M(v)) - v`, :math:`M(v) = C + vD`
(:mod:`.matrix_game`). If :math:`W = C / (1 - D)` has a pure saddle point, that is the
equilibrium. Otherwise the equilibrium of :math:`M(v)` at the root is completely mixed, with
the equalising strategies

.. math:: x \\propto (m_{11} - m_{10},\\; m_{00} - m_{01}), \\qquad
          y \\propto (m_{11} - m_{01},\\; m_{00} - m_{10}),

and :math:`\\operatorname{val} M = \\det M / s(M)` with
:math:`s(M) = m_{00} + m_{11} - m_{01} - m_{10}`. So :math:`v\\, s(M(v)) = \\det M(v)`, a
quadratic in v:

.. math:: (\\det D - s(D))\\, v^2 + (c_{00} d_{11} + d_{00} c_{11} - c_{01} d_{10} - d_{01} c_{10}
          - s(C))\\, v + \\det C = 0,

with one root between the pure maximin and minimax of W (``det D = 0`` when D has rank one,
as in Pig). Its cancellation-free solution starts Newton's method on f, with
:math:`f' = x D y - 1` and :math:`\\operatorname{val} M = m_{10} + x_0 (m_{00} - m_{10})`, each
strategy normalised by its own sum; one or two steps reach rounding. (Dividing by
:math:`s(M)` instead loses up to three digits in Pig, where the four payoffs agree to 1e-3.)

Every game of simultaneous Pig solved so far that mixes does so over two thresholds each
(``equilibrium().mixed_states`` lists the states at goal 100), so this replaces a linear
program per state.

References
----------
G. Owen, *Game Theory*, 3rd ed., Academic Press 1995, section II.3 (2 x 2 games).
L. S. Shapley, "Stochastic games", PNAS 39 (1953) 1095-1100.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["solve_2x2"]

_NEWTON_STEPS = 8


def solve_2x2(c: ArrayLike, d: ArrayLike) -> tuple[float, np.ndarray, np.ndarray] | None:
    """Root of ``v = val(C + v D)`` for a 2 x 2 game, with optimal strategies, in closed form.

    Returns ``(v, x, y)``; at a pure saddle point of ``W = C / (1 - D)`` the strategies are
    pure (first saddle point on exact ties). Returns None when rounding leaves the mixed
    solution outside the simplex (a game within rounding of a pure one): solve it another
    way.

    Examples
    --------
    >>> c = np.array([[0.0, 0.9], [0.9, 0.0]])  # matching pennies that repeats on a match
    >>> v, x, y = solve_2x2(c, np.array([[0.5, 0.0], [0.0, 0.5]]))
    >>> round(v, 12), x.round(12).tolist()
    (0.5, [0.5, 0.5])
    """
    (c00, c01), (c10, c11) = np.asarray(c, dtype=float).tolist()
    (d00, d01), (d10, d11) = np.asarray(d, dtype=float).tolist()
    w00, w01, w10, w11 = c00 / (1.0 - d00), c01 / (1.0 - d01), c10 / (1.0 - d10), c11 / (1.0 - d11)
    # pure maximin (rows) and minimax (columns), first on ties as in pure_bounds
    r0, r1 = min(w00, w01), min(w10, w11)
    k0, k1 = max(w00, w10), max(w01, w11)
    lo, a = (r0, 0) if r0 >= r1 else (r1, 1)
    hi, b = (k0, 0) if k0 <= k1 else (k1, 1)
    if lo == hi:
        return lo, np.eye(2)[a], np.eye(2)[b]
    a2 = d00 * d11 - d01 * d10 - (d00 + d11 - d01 - d10)
    a1 = c00 * d11 + d00 * c11 - c01 * d10 - d01 * c10 - (c00 + c11 - c01 - c10)
    a0 = c00 * c11 - c01 * c10
    try:
        v = _root_between(a2, a1, a0, lo, hi)
        for _ in range(_NEWTON_STEPS):
            x0, y0, val = _equalisers(c00 + v * d00, c01 + v * d01, c10 + v * d10, c11 + v * d11)
            slope = x0 * (y0 * d00 + (1 - y0) * d01) + (1 - x0) * (y0 * d10 + (1 - y0) * d11) - 1.0
            step = (val - v) / slope
            v = min(max(v - step, lo), hi)
            if abs(step) <= 4e-17 * max(abs(v), 1.0):
                break
        x0, y0, _ = _equalisers(c00 + v * d00, c01 + v * d01, c10 + v * d10, c11 + v * d11)
    except ZeroDivisionError:  # two equal rows or columns: no completely mixed solution
        return None
    if not (0.0 <= x0 <= 1.0 and 0.0 <= y0 <= 1.0):
        return None
    return v, np.array([x0, 1.0 - x0]), np.array([y0, 1.0 - y0])


def _root_between(a2: float, a1: float, a0: float, lo: float, hi: float) -> float:
    """The root of ``a2 v^2 + a1 v + a0`` nearest to ``[lo, hi]``, clipped into it (the
    midpoint if no root is real); the quadratic formula in its cancellation-free form."""
    mid = 0.5 * (lo + hi)
    if a2 == 0.0:
        roots = [-a0 / a1] if a1 != 0.0 else []
    else:
        disc = a1 * a1 - 4.0 * a2 * a0
        if disc < 0.0:
            return mid
        t = -0.5 * (a1 + math.copysign(math.sqrt(disc), a1))
        roots = [t / a2] + ([a0 / t] if t != 0.0 else [])
    if not roots:
        return mid
    best = min(roots, key=lambda r: max(lo - r, r - hi, 0.0))
    return min(max(best, lo), hi)


def _equalisers(m00: float, m01: float, m10: float, m11: float) -> tuple[float, float, float]:
    """First weights ``x0``, ``y0`` of the equalising strategies of a 2 x 2 matrix, and its
    mixed value ``m10 + x0 (m00 - m10)``; each weight is normalised by its own pair's sum
    (not by ``m00 + m11 - m01 - m10``, which cancels differently)."""
    u, t = m11 - m10, m00 - m01
    x0 = u / (u + t)
    u, t = m11 - m01, m00 - m10
    y0 = u / (u + t)
    return x0, y0, m10 + x0 * (m00 - m10)
