"""The exact equilibrium of two-player simultaneous Pig over hold-at thresholds.

Shapes
------
``value[i, j]`` (``(goal + 1, goal + 1)``): the equilibrium win probability of the player
whose score is i against the one whose score is j, at the start of a turn. ``policy``: a
:class:`~pigtheory.policies.MixedPolicy` own score first (the player at (i, j) draws its
threshold from ``policy.thresholds[i, j]`` with ``policy.weights[i, j]``);
``lower``/``upper`` (``(goal, goal)``): the certificate of every state.

Notes
-----
Each turn is a simultaneous move: A picks a threshold a, B picks b, then both turns are
played. The game is zero-sum with a single state that can repeat (both bust), so Shapley's
theorem for stochastic games gives, at every state,

.. math:: V(s) = \\operatorname{val}\\big(C_s + V(s)\\, D_s\\big),

with :math:`C_s, D_s` from :mod:`pigtheory.simultaneous.core.stage`. Scores never decrease, so
:math:`C_s` is known once the levels of larger score sum are solved, and V(s) is a 1-D fixed
point (val is monotone and 1-Lipschitz in v, and :math:`\\max D < 1`, so it is unique).

Per state:

1. **Pure saddle.** Both players repeating (a, b) gives :math:`W = C / (1 - D)`, and
   :math:`M(v)[a, b] \\ge v \\iff W[a, b] \\ge v`; so a pure saddle point of W is a pure
   equilibrium with value :math:`W[a, b]`. Most states have one.
2. **Otherwise** (Hoffman-Karp style): solve the matrix game :math:`M(v)` at the current
   v by linear programming (HiGHS) on a growing set of thresholds (double oracle: start
   from the pure maximin and minimax actions, add each side's best reply until neither
   gains), take the supports of the two optimal strategies,
   and solve the equaliser equations on those supports with Newton's method in v (exact up
   to rounding, since a fixed support makes the value a smooth function of v).
3. **Certificate.** A's mix x guarantees
   :math:`L(x) = \\min_b (xC)_b / (1 - (xD)_b)` (the opponent's best stationary reply to a
   stationary x), B's mix y concedes at most :math:`U(y) = \\max_a (Cy)_a / (1 - (Dy)_a)`;
   :math:`L \\le V(s) \\le U`. If the gap exceeds ``tol`` the LP is solved again at
   :math:`v = (L + U) / 2`.

References
----------
L. S. Shapley, "Stochastic games", PNAS 39 (1953) 1095-1100.
H. B. McMahan, G. J. Gordon & A. Blum, "Planning in the presence of cost functions
controlled by an adversary", ICML 2003 (double oracle).
A. J. Hoffman & R. M. Karp, "On nonterminating stochastic games", Management Science 12
(1966) 359-370.
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), "Mixed-strategy equilibrium" (the
question this answers exactly).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..guard import check_memory, equilibrium_estimate
from ..policies import MixedPolicy
from ..results import Result, freeze
from ..rules import Rules
from ..validation import check_int, check_simultaneous_rules, check_tol
from .core import extended, one_blas_thread, pure_bounds, score_levels, stage_game

__all__ = ["Equilibrium", "equilibrium", "solve_stage"]

_SUPPORT_TOL = 1e-9


@dataclass(frozen=True, eq=False)
class Equilibrium(Result):
    """Exact equilibrium of two-player simultaneous Pig (see the module docstring).

    Attributes
    ----------
    value, policy, iterations, residual, method, rules
        As for every solver; ``policy`` is a MixedPolicy (own score first), ``residual`` the
        largest certificate gap ``upper - lower``, ``iterations`` the number of score levels.
    opponent_policy : MixedPolicy
        The minimising player's optimal strategy from the dual, own score first (the
        opponent at A's state (i, j) uses ``opponent_policy[j, i]``); by symmetry it is an
        equilibrium strategy too.
    lower, upper : numpy.ndarray, shape ``(goal, goal)``
        Certificate: the value lies in ``[lower, upper]`` at every state.
    mixed_states : tuple of (int, int)
        States without a pure saddle point, where the equilibrium mixes.
    support_sizes : numpy.ndarray of int, shape ``(goal, goal)``
        Number of thresholds the player at each state mixes over (1 where pure).
    n_lp : int
        Linear programs solved (restricted games of the double oracle).
    """

    value: np.ndarray
    policy: MixedPolicy
    iterations: int
    residual: float
    method: str
    rules: Rules
    opponent_policy: MixedPolicy
    lower: np.ndarray
    upper: np.ndarray
    mixed_states: tuple
    support_sizes: np.ndarray
    n_lp: int

    def __post_init__(self) -> None:
        freeze(self)

    def strategy(self, i: int, j: int) -> dict[int, float]:
        """The mix of the player at state (i, j): ``{threshold: probability}``."""
        th, w = self.policy.thresholds[i, j], self.policy.weights[i, j]
        return {int(k): float(p) for k, p in zip(th, w, strict=True) if p > 0}


def equilibrium(
    *, rules: Rules = Rules(), tol: float = 1e-13, max_iter: int = 50, max_memory: Any = None
) -> Equilibrium:
    """Exact equilibrium (value and optimal mixed strategies) of two-player simultaneous Pig.

    Parameters
    ----------
    rules : Rules
        One die, two players.
    tol : float
        Largest accepted certificate gap ``upper - lower`` at a mixed state before another
        LP round (the gap actually reached is reported as ``residual``).
    max_iter : int
        LP rounds per mixed state at most.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    Equilibrium

    Examples
    --------
    >>> eq = equilibrium(rules=Rules(goal=10))
    >>> round(float(eq.value[0, 0]), 12), eq.residual < 1e-12
    (0.5, True)
    """
    check_memory(equilibrium_estimate(rules), max_memory)
    check_simultaneous_rules(rules, players=2)
    tol = check_tol(tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    g = rules.goal
    value = np.zeros((g + 1, g + 1))
    value[g, :g], value[:g, g], value[g, g] = 1.0, 0.0, 0.5
    ext = extended(value, rules)
    lower, upper = np.zeros((g, g)), np.zeros((g, g))
    mixes: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    pure_a = np.zeros((g, g), dtype=np.int64)
    pure_b = np.zeros((g, g), dtype=np.int64)
    n_lp = 0
    levels = score_levels(g, 2)
    with one_blas_thread():
        for _, (ii, jj) in levels:
            for i, j in zip(ii.tolist(), jj.tolist(), strict=True):
                c, d = stage_game(ext, i, j, rules)
                v, x, y, lo, hi, n = solve_stage(c, d, tol=tol, max_iter=max_iter)
                n_lp += n
                if isinstance(x, int):
                    pure_a[i, j], pure_b[i, j] = x + 1, y + 1
                else:
                    mixes[(i, j)] = (x, y)
                value[i, j] = v
                ext[i, j] = v
                lower[i, j], upper[i, j] = lo, hi
    policy, opponent, sizes = _policies(pure_a, pure_b, mixes, g)
    value.setflags(write=False)
    return Equilibrium(
        value=value,
        policy=policy,
        iterations=len(levels),
        residual=float((upper - lower).max()),
        method="exact",
        rules=rules,
        opponent_policy=opponent,
        lower=lower,
        upper=upper,
        mixed_states=tuple(sorted(mixes)),
        support_sizes=sizes,
        n_lp=n_lp,
    )


def solve_stage(c: np.ndarray, d: np.ndarray, tol: float = 1e-13, max_iter: int = 50):
    """Value of the one-state game ``v = val(C + v D)`` with optimal strategies.

    Returns ``(v, x, y, lower, upper, n_lp)``; at a pure saddle point ``x`` and ``y`` are
    the two action indices (ints, threshold - 1) and ``lower == upper == v``; otherwise the
    two mixed strategies (arrays).
    """
    w = c / (1.0 - d)
    maximin, a, minimax, b = pure_bounds(w)
    if maximin == minimax:
        return maximin, a, b, maximin, minimax, 0
    v = 0.5 * (maximin + minimax)
    best = None
    n_lp = 0
    rows, cols = {a}, {b}
    for _ in range(max_iter):
        x, y, k = _double_oracle(c + v * d - v, rows, cols)
        n_lp += k
        x, y, v_new = _polish(c, d, x, y, v)
        lo, hi = _certificate(c, d, x, y)
        if best is None or hi - lo < best[4] - best[3]:
            best = (min(max(v_new, lo), hi), x, y, lo, hi)
        if hi - lo <= tol:
            break
        v = 0.5 * (lo + hi)
    assert best is not None
    return best + (n_lp,)


def _double_oracle(m: np.ndarray, rows: set, cols: set, tol: float = 1e-13):
    """Optimal mixes of the matrix game m from LPs on a growing set of actions (McMahan,
    Gordon & Blum 2003): solve the restricted game, add each side's best reply in the full
    game, stop when neither improves. ``rows`` and ``cols`` are updated in place."""
    n = 0
    while True:
        r, c = np.array(sorted(rows)), np.array(sorted(cols))
        xs, ys = _matrix_game(m[np.ix_(r, c)])
        n += 1
        x, y = np.zeros(m.shape[0]), np.zeros(m.shape[1])
        x[r], y[c] = xs, ys
        value = x @ m @ y
        reply_row = int(np.argmax(m @ y))
        reply_col = int(np.argmin(x @ m))
        grow = False
        if (m @ y)[reply_row] > value + tol and reply_row not in rows:
            rows.add(reply_row)
            grow = True
        if (x @ m)[reply_col] < value - tol and reply_col not in cols:
            cols.add(reply_col)
            grow = True
        if not grow:
            return x, y, n


def _matrix_game(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Optimal mixes of the maximiser (rows) and minimiser (columns), by one HiGHS LP."""
    na, nb = m.shape
    # Payoff differences at mixed states can be ~1e-7, HiGHS's default feasibility tolerance:
    # rescale (the optimal mixes do not change) instead of tightening options (slow to parse).
    scale = float(np.abs(m).max())
    if scale > 0:
        m = m / scale
    obj = np.zeros(na + 1)
    obj[-1] = -1.0
    a_ub = np.hstack([-m.T, np.ones((nb, 1))])
    a_eq = np.ones((1, na + 1))
    a_eq[0, -1] = 0.0
    from scipy.optimize import linprog  # late: scipy.optimize costs ~0.6 s to import

    res = linprog(
        obj,
        A_ub=a_ub,
        b_ub=np.zeros(nb),
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * na + [(None, None)],
        method="highs",
    )
    if res.status != 0:
        raise RuntimeError(f"equilibrium: the stage LP failed ({res.message})")
    x = np.maximum(res.x[:na], 0.0)
    y = np.maximum(-res.ineqlin.marginals, 0.0)
    return x / x.sum(), y / y.sum()


def _polish(c: np.ndarray, d: np.ndarray, x: np.ndarray, y: np.ndarray, v: float):
    """Equalise on the LP's supports and solve the 1-D fixed point by Newton's method."""
    sa = np.flatnonzero(x > _SUPPORT_TOL)
    sb = np.flatnonzero(y > _SUPPORT_TOL)
    if sa.size != sb.size:
        return x, y, v
    cs, ds = c[np.ix_(sa, sb)], d[np.ix_(sa, sb)]
    n = sa.size
    kkt = np.zeros((n + 1, n + 1))
    kkt[n, :n] = 1.0
    kkt[:n, n] = -1.0
    rhs = np.zeros(n + 1)
    rhs[n] = 1.0
    try:
        for _ in range(30):
            m = cs + v * ds
            kkt[:n, :n] = m.T
            xs = np.linalg.solve(kkt, rhs)
            kkt[:n, :n] = m
            ys = np.linalg.solve(kkt, rhs)
            step = (xs[n] - v) / (xs[:n] @ ds @ ys[:n] - 1.0)
            v -= step
            if abs(step) <= 1e-17:
                break
    except np.linalg.LinAlgError:
        return x, y, v
    if xs[:n].min() < 0 or ys[:n].min() < 0:
        return x, y, v
    xf, yf = np.zeros_like(x), np.zeros_like(y)
    xf[sa], yf[sb] = xs[:n], ys[:n]
    return xf / xf.sum(), yf / yf.sum(), float(v)


def _certificate(c: np.ndarray, d: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    lo = float(((x @ c) / (1.0 - x @ d)).min())
    hi = float(((c @ y) / (1.0 - d @ y)).max())
    return lo, hi


def _policies(pure_a, pure_b, mixes, g):
    """MixedPolicy tables (own score first) of both players, padded with weight-0 entries."""
    width = max(
        [1]
        + [int((x > 0).sum()) for x, _ in mixes.values()]
        + [int((y > 0).sum()) for _, y in mixes.values()]
    )
    th_a = np.ones((g, g, width), dtype=np.int64)
    w_a = np.zeros((g, g, width))
    th_b, w_b = th_a.copy(), w_a.copy()
    th_a[:, :, 0] = np.maximum(pure_a, 1)
    th_b[:, :, 0] = np.maximum(pure_b.T, 1)
    w_a[:, :, 0] = 1.0
    w_b[:, :, 0] = 1.0
    sizes = np.ones((g, g), dtype=np.int64)
    for (i, j), (x, y) in mixes.items():
        for th, w, mix, at in ((th_a, w_a, x, (i, j)), (th_b, w_b, y, (j, i))):
            ks = np.flatnonzero(mix > 0)
            th[at] = 1
            w[at] = 0.0
            th[at][: ks.size] = ks + 1
            w[at][: ks.size] = mix[ks] / mix[ks].sum()
        sizes[i, j] = int((x > 0).sum())
    own = np.arange(g)[:, None, None]
    th_a, th_b = np.minimum(th_a, g - own), np.minimum(th_b, g - own)
    return (
        MixedPolicy(th_a, w_a, "equilibrium"),
        MixedPolicy(th_b, w_b, "equilibrium (dual)"),
        sizes,
    )
