"""The questions :func:`~.certify.certify_classes` asks of one state of the stopping-rule
equilibrium, answered exactly: the guarantee of every rule against the state's equilibrium
matrix, the gap of one rule, the best deterministic rule (a mixed-integer program over the
roll/hold decisions of a turn) and the best mixture of rules (a linear program), with HiGHS.

Shapes and the classes are those of :mod:`.certify`.
"""

from __future__ import annotations

import warnings

import numpy as np

from ...rules import Rules
from ..core.stopping_rules import (
    optimal_stopping,
    roll_distribution_arrays,
    stopping_outcomes,
    threshold_rule,
)
from .equilibrium import plan_matrices

_MILP_OPTIONS = {
    "mip_rel_gap": 0.0,
    "mip_abs_gap": 0.0,  # HiGHS stops at an absolute gap of 1e-6 by default: too coarse here
    "mip_feasibility_tolerance": 1e-10,
    "primal_feasibility_tolerance": 1e-10,
    "dual_feasibility_tolerance": 1e-10,
}


def guarantees(e: np.ndarray, p_own: np.ndarray, own_opp: np.ndarray, rules: Rules, engine: str, as_b: bool):
    """Exact best-reply values of the *other* player against outcome distributions ``p_own``
    (ns, nk, goal + 1) of A (``as_b=False``: B replies, returns A's guarantee ``1 - v_B``) or of
    B (``as_b=True``: A replies, returns B's concession ``v_A``). ``e`` (ns, goal + 1, goal + 1)
    are A's payoffs with ``e[:, 0, 0] = 0``."""
    ns, nk, w = p_own.shape
    if not as_b:  # B replies to A's distributions: u[y] = sum_x P_A(x) (1 - e[x, y])
        u = p_own.sum(axis=2)[:, :, None] - np.einsum("skx,sxy->sky", p_own, e)
        u[:, :, 0] -= p_own[:, :, 0]
    else:  # A replies to B's: u[x] = sum_y e[x, y] P_B(y)
        u = np.einsum("sxy,sky->skx", e, p_own)
    own = np.repeat(own_opp, nk)
    val, _, _ = optimal_stopping(u.reshape(ns * nk, w), own, p_own[:, :, 0].ravel(), rules, engine=engine)
    val = val.reshape(ns, nk)
    return val if as_b else 1.0 - val


def rule_gap(e, roll, v, i, j, p, rules, engine) -> float:
    """Exact gap of one deterministic rule of player p at state (i, j)."""
    own, opp = (i, j) if p == 0 else (j, i)
    dist = stopping_outcomes(roll[None], np.array([own]), rules, engine=engine)
    val = guarantees(e[None], dist[None], np.array([opp]), rules, engine, as_b=p == 1)[0, 0]
    return float(v - val) if p == 0 else float(val - v)


def _rule_gaps(e, rolls, v, i, j, p, rules, engine) -> np.ndarray:
    """Exact gaps of the deterministic rules ``rolls`` (n, goal) of player p at state (i, j)."""
    own, opp = (i, j) if p == 0 else (j, i)
    dist = stopping_outcomes(rolls, np.full(len(rolls), own), rules, engine=engine)
    val = guarantees(e[None], dist[None], np.array([opp]), rules, engine, as_b=p == 1)[0]
    return (v - val) if p == 0 else (val - v)


def local_rule(e, v, i, j, p, rules, engine, tol) -> tuple[np.ndarray, float] | None:
    """An optimal deterministic rule of player p found by a local search, or None.

    The optimal non-threshold rules seen in Pig roll below some k and hold on a window of
    turn totals ``k <= t < m``; above it they roll again (totals a roll jumps to over the
    window), or roll on an island of one to three totals and hold from there on, with at
    most a few exceptions. So every such rule is judged first (one batch, each by its exact
    reply), then the search moves to the best rule that differs at one turn
    total while that lowers the gap. A rule whose gap is within ``tol`` answers the pure
    question "yes" exactly as the MILP's rule would (its gap is exact); a search that stalls
    above ``tol`` proves nothing, and the MILP decides."""
    g = rules.goal
    room = g - (i if p == 0 else j)
    t = np.arange(g)[None, :]
    lo, hi = np.triu_indices(room + 1, 1)  # hold at lo <= t < hi, lo >= 1
    keep = lo >= 1
    lo, hi = lo[keep, None], hi[keep, None]
    windows = (t < lo) | (t >= hi)
    # or the threshold "hold at lo" with an island of 1-3 rolls at hi <= t < hi + w (hi - lo <= 12)
    near = (hi - lo <= 12) & (hi < room)
    a, b = lo[near, None], hi[near, None]
    islands = [(t < a) | ((t >= b) & (t < b + w)) for w in (1, 2, 3)]
    cand = np.concatenate([windows, *islands])
    gaps = _rule_gaps(e, cand, v, i, j, p, rules, engine)
    best = int(np.argmin(gaps))
    roll, gap = cand[best], float(gaps[best])
    flips = np.arange(1, room)
    for _ in range(room):
        if gap <= tol or not flips.size:
            break
        cand = np.repeat(roll[None], flips.size, axis=0)
        cand[np.arange(flips.size), flips] ^= True
        gaps = _rule_gaps(e, cand, v, i, j, p, rules, engine)
        best = int(np.argmin(gaps))
        if not gaps[best] < gap:
            break
        roll, gap = cand[best], float(gaps[best])
    return (_shown(roll, room, rules), gap) if gap <= tol else None


def _centred(e: np.ndarray, v: float, i: int, j: int, p: int, g: int) -> tuple[np.ndarray, float, int, int]:
    """Player p's payoff matrix ``M(V) - V`` (own gain first, rows 0..own room), scaled to
    largest entry 1, its scale and the two rooms."""
    ra, rb = g - i, g - j
    m = e[: ra + 1, : rb + 1].copy()
    m[0, 0] = v
    m -= v
    if p == 1:
        m, ra, rb = -m.T, rb, ra
    scale = float(np.abs(m).max()) or 1.0
    return m / scale, scale, ra, rb


def pure_milp(e, v, i, j, p, rules) -> tuple[np.ndarray, float]:
    """The MILP of the module Notes for player p: its rule (roll at t) and the certified lower
    bound on every deterministic rule's gap (``-z*``, from the dual bound)."""
    from scipy.optimize import Bounds, LinearConstraint, milp  # late: slow to import

    g = rules.goal
    m, scale, ra, rb = _centred(e, v, i, j, p, g)
    fa, fa_vec, ga = plan_matrices(ra, rules)
    fb, _, gb = plan_matrices(rb, rules)
    na, nb, mb, nx = fa.shape[1], fb.shape[1], fb.shape[0], ra - 1
    n = na + nx + mb  # [w (r_0..r_{R-1}, h_1..h_{R-1}), x_1..x_{R-1}, lambda]
    rows = [
        LinearConstraint(np.hstack([fa, np.zeros((fa.shape[0], nx + mb))]), fa_vec, fa_vec),
        LinearConstraint(np.hstack([-(gb.T @ m.T @ ga), np.zeros((nb, nx)), fb.T]), -np.inf, 0.0),
    ]
    if nx:
        link = np.zeros((2 * nx, n))
        tx = np.arange(nx)
        link[tx, 1 + tx] = 1.0  # r_t - x_t <= 0
        link[tx, na + tx] = -1.0
        link[nx + tx, ra + tx] = 1.0  # h_t + x_t <= 1
        link[nx + tx, na + tx] = 1.0
        rows.append(LinearConstraint(link, -np.inf, np.concatenate([np.zeros(nx), np.ones(nx)])))
    c = np.zeros(n)
    c[na + nx] = -1.0
    lo = np.concatenate([np.zeros(na + nx), np.full(mb, -np.inf)])
    hi = np.concatenate([np.full(na, np.inf), np.ones(nx), np.full(mb, np.inf)])
    integrality = np.concatenate([np.zeros(na), np.ones(nx), np.zeros(mb)])
    with warnings.catch_warnings():  # HiGHS options that scipy passes on verbatim (with a warning)
        warnings.simplefilter("ignore", RuntimeWarning)
        res = milp(c, integrality=integrality, bounds=Bounds(lo, hi), constraints=rows, options=_MILP_OPTIONS)
    if res.status != 0 or res.x is None:
        raise RuntimeError(f"certify_classes: the MILP at ({i}, {j}) failed ({res.message})")
    x = res.x[na : na + nx] > 0.5
    roll = np.zeros(g, dtype=bool)
    roll[0] = True
    roll[1:ra] = x
    z_upper = -float(res.mip_dual_bound) * scale
    return _shown(roll, ra, rules), -z_upper


def _shown(roll: np.ndarray, room: int, rules: Rules) -> np.ndarray:
    """``roll`` with every turn total the rule never reaches shown as "hold" (the same rule)."""
    roll = roll.copy()
    _, gains, _ = roll_distribution_arrays(rules)
    reached = np.zeros(rules.goal + int(gains.max()) + 1, dtype=bool)
    reached[0] = True
    for t in range(room):
        roll[t] &= reached[t]
        if roll[t]:
            reached[t + gains] = True
    return roll


def _threshold_outcomes(own: int, room: int, rules: Rules) -> np.ndarray:
    """``P[x, k - 1]``: outcome x = 0..room of "hold at k", k = 1..room, shape (room + 1, room)."""
    k = np.arange(1, room + 1)
    return stopping_outcomes(threshold_rule(k, rules.goal), np.full(room, own), rules)[:, : room + 1].T


def mixture_reply_gap(e, w, v, i, j, p, rules, engine) -> float:
    """Exact gap of the mixture ``w`` (weights of k = 1..room) of player p's thresholds."""
    g = rules.goal
    own, opp = (i, j) if p == 0 else (j, i)
    dist = np.zeros(g + 1)
    dist[: g - own + 1] = _threshold_outcomes(own, g - own, rules) @ w
    val = guarantees(e[None], dist[None, None], np.array([opp]), rules, engine, as_b=p == 1)[0, 0]
    return float(v - val) if p == 0 else float(val - v)


def mixture_lp(e, v, i, j, p, rules) -> tuple[np.ndarray, float]:
    """The best mixture of player p's thresholds (weights of k = 1..room) and the certified
    lower bound ``-z*`` on every mixture's gap (the LP's optimum)."""
    from scipy.optimize import linprog  # late: slow to import

    g = rules.goal
    m, scale, ra, rb = _centred(e, v, i, j, p, g)
    fb, _, gb = plan_matrices(rb, rules)
    own = i if p == 0 else j
    dist = _threshold_outcomes(own, ra, rules)
    mb = fb.shape[0]
    a_ub = np.hstack([-(gb.T @ m.T @ dist), fb.T])
    a_eq = np.concatenate([np.ones(ra), np.zeros(mb)])[None]
    obj = np.zeros(ra + mb)
    obj[ra] = -1.0
    res = linprog(
        obj,
        A_ub=a_ub,
        b_ub=np.zeros(a_ub.shape[0]),
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * ra + [(None, None)] * mb,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if res.status != 0:
        raise RuntimeError(f"certify_classes: the threshold-mixture LP at ({i}, {j}) failed ({res.message})")
    w = np.maximum(res.x[:ra], 0.0)
    return w / w.sum(), float(res.fun) * scale
