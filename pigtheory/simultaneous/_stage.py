"""Stage games of two-player simultaneous Pig: the payoff of every threshold pair at a state.

Shapes
------
For a state ``(i, j)`` (A's score first) the stage game is a ``(goal - i) x (goal - j)``
matrix indexed ``[a - 1, b - 1]``: A holds at a, B holds at b. The values it reads come from
an *extended* value array (:func:`extended`) of shape ``(2 * goal + m + 1,) * 2`` whose rows
and columns beyond ``goal`` repeat the terminal row and column, so that clipping a score at
the goal is a plain slice.

Notes
-----
With :math:`X_a`, :math:`Y_b` the two turns' points (independent),

.. math:: M(v)[a, b] = C[a, b] + v\\, D[a, b], \\qquad D[a, b] = P(X_a = 0)\\, P(Y_b = 0),

where C sums :math:`V(\\min(i + x, g), \\min(j + y, g))` over every outcome except the double
bust, whose value is the unknown v of the state itself. Both players playing (a, b) for ever
gives :math:`W[a, b] = C[a, b] / (1 - D[a, b])`; a pure saddle point of W is a pure
equilibrium of the one-state stochastic game, and the pure maximin of W is the leader's
value when the leader commits first (Stackelberg).
"""

from __future__ import annotations

import ctypes
import glob
import os
from contextlib import contextmanager
from functools import lru_cache

import numpy as np

from ..rules import Rules
from ..turn_total import turn_total_table

__all__ = ["extended", "stage_game", "level_states", "pure_bounds", "single_thread_blas"]


def level_states(goal: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Non-terminal two-player states grouped by score sum, highest sum first."""
    out = []
    for d in range(2 * goal - 2, -1, -1):
        i = np.arange(max(0, d - goal + 1), min(d, goal - 1) + 1)
        out.append((i, d - i))
    return out


def extended(value: np.ndarray, rules: Rules) -> np.ndarray:
    """Copy of ``value`` padded so that ``ext[x, y] = value[min(x, g), min(y, g)]``."""
    g = rules.goal
    pad = g + turn_total_table(rules.replace(players=2)).width
    idx = np.minimum(np.arange(g + 1 + pad), g)
    return np.ascontiguousarray(value[np.ix_(idx, idx)])


def stage_game(ext: np.ndarray, i: int, j: int, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """``C`` and ``D`` of the stage game at ``(i, j)``, shapes ``(goal - i, goal - j)``.

    ``ext`` (see :func:`extended`) must be final at every state of larger score sum.
    ``C = P_A E P_B^T`` with ``P[k - 1, x] = P(X_k = x)`` and ``E[x, y]`` the value after
    gains (x, y), ``E[0, 0]`` (the double bust) set to 0: two small BLAS products (run them
    inside :func:`single_thread_blas`).
    """
    g = rules.goal
    gains, bust = _gain_matrix(rules)
    m = gains.shape[1] - g
    na, nb = g - i, g - j
    e = ext[i : i + na + m, j : j + nb + m].copy()
    e[0, 0] = 0.0
    c = gains[:na, : na + m] @ e @ gains[:nb, : nb + m].T
    return c, np.outer(bust[:na], bust[:nb])


@lru_cache(maxsize=16)
def _gain_matrix(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """``P[k - 1, x] = P(X_k = x)`` for k = 1..goal, x = 0..goal + m - 1 (unclipped)."""
    tab = turn_total_table(rules.replace(players=2))
    g, m = rules.goal, tab.width
    p = np.zeros((g, g + m))
    p[:, 0] = tab.bust[1:]
    ks = np.arange(1, g + 1)
    for r in range(m):
        p[ks - 1, ks + r] = tab.band[1:, r]
    bust = tab.bust[1:].copy()
    p.setflags(write=False)
    bust.setflags(write=False)
    return p, bust


@contextmanager
def single_thread_blas():
    """Run numpy's OpenBLAS on one thread inside the block (thousands of ~100 x 100 products
    are slower threaded, badly so on a busy machine); a no-op if the library is not found."""
    setter = getter = None
    try:
        for lib in glob.glob(os.path.join(os.path.dirname(np.__file__) + ".libs", "*openblas*")):
            dll = ctypes.CDLL(lib)
            for name in (
                "scipy_openblas_set_num_threads64_",
                "openblas_set_num_threads64_",
                "openblas_set_num_threads",
            ):
                if hasattr(dll, name):
                    setter = getattr(dll, name)
                    getter = getattr(dll, name.replace("set_", "get_"), None)
                    break
    except OSError:
        setter = None
    if setter is None or getter is None:
        yield
        return
    before = getter()
    setter(1)
    try:
        yield
    finally:
        setter(before)


def pure_bounds(w: np.ndarray) -> tuple[float, int, float, int]:
    """Pure maximin and minimax of ``w`` with the maximiser's and the minimiser's action
    indices (first on exact ties); ``maximin == minimax`` marks a pure saddle point."""
    rowmin = w.min(axis=1)
    colmax = w.max(axis=0)
    a = int(rowmin.argmax())
    b = int(colmax.argmin())
    return float(rowmin[a]), a, float(colmax[b]), b
