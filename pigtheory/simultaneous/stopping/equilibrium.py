"""The exact equilibrium of two-player simultaneous Pig over every stopping rule.

Shapes
------
``value[i, j]`` (``(goal + 1, goal + 1)``): the equilibrium win probability of the player with
score i against the one with score j, at the start of a turn. ``policy``: a
:class:`~pigtheory.stopping.RandomStoppingRule`, ``policy.prob[i, j, t]`` = the chance that the
player at (i, j) rolls again at turn total t. ``lower``/``upper`` and ``kind``
(``(goal, goal)``): the certificate and the class of every state (:data:`KINDS`).

Notes
-----
A strategy at a state is a (randomised) stopping rule; what it does to the game is its
outcome distribution P over the gains ``0..room`` (0 the bust). The distributions of all
randomised rules form a polytope, the realization plans of the turn: with :math:`r_t` the
chance of rolling at t and :math:`h_t` of holding there,

.. math:: r_0 = 1, \\quad r_t + h_t = \\sum_g p_g\\, r_{t - g} \\; (1 \\le t < R), \\quad
          P(0) = p_0 \\sum_t r_t, \\; P(t) = h_t, \\; P(R) = \\sum_t r_t \\sum_{g \\ge R - t} p_g,

all linear, and any plan is played by the behavioural rule ``P(roll at t) = r_t / reach_t``
(the dice are Markov in t), so a state's game is bilinear over two polytopes,

.. math:: V(s) = \\operatorname{val}\\big(P_A^\\top E(V(s))\\, P_B\\big), \\qquad
          E[x, y] = V(\\min(i + x, g), \\min(j + y, g)),

with :math:`E[0, 0] = V(s)` itself (both bust): a 1-D fixed point per state, as for thresholds
(:mod:`pigtheory.simultaneous.two_player.equilibrium`). Per score level, all states at once:

1. **Best-response dynamics over rules** (the optimal stopping of
   :mod:`pigtheory.simultaneous.core.stopping_rules`, which solves the self-loop exactly): from B
   holding at 20, A's best rule, B's best rule against it, and so on. A's rule guarantees
   :math:`L = 1 - v_B^*` (B's best stationary reply), B's concedes at most
   :math:`U = v_A^*`; :math:`L \\le V(s) \\le U`, and ``U == L`` is a pure saddle point.
2. Where none appears: the threshold stage game's equilibrium (threshold mixes) against the
   same continuation, certified against *every* rule by the same best replies; when
   :math:`U - L \\le` ``tol`` a threshold mixture suffices.
3. Otherwise the sequence-form linear program over the two plan polytopes (HiGHS), at a guess
   of V(s) that the certificate then brackets, repeated at :math:`(L + U) / 2` until the gap
   is below ``tol``.

References
----------
D. Koller, N. Megiddo & B. von Stengel, "Efficient computation of equilibria for extensive
two-person games", Games and Economic Behavior 14 (1996) 247-259 (realization plans).
L. S. Shapley, "Stochastic games", PNAS 39 (1953) 1095-1100.
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): the equilibrium over "hold at n" that this
one lifts to all strategies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...engine import choose_engine
from ...guard import check_memory, equilibrium_estimate
from ...results import Result
from ...rules import Rules
from ...stopping import RandomStoppingRule, is_threshold_rule
from ...turn_totals import turn_total_table
from ...validation import check_int, check_simultaneous_rules, check_tol
from ..core import extended, one_blas_thread, score_levels, stage_game, terminal_values, threshold_matrix
from ..core.matrix_game import pure_bounds, solve_stage, solve_with_oracles
from ..core.stopping_rules import optimal_stopping, stopping_outcomes, threshold_rule

__all__ = ["StoppingEquilibrium", "stopping_equilibrium", "KINDS"]

KINDS = (
    "pure threshold saddle",
    "threshold mixture suffices",
    "pure saddle only with a non-threshold rule",
    "needs mixing and non-threshold rules",
)
"""The classes of states, in the order of :attr:`StoppingEquilibrium.kind`'s codes 0..3."""

_DYNAMICS = 8  # rounds of best-response dynamics before a state counts as mixed


@dataclass(frozen=True, eq=False)
class StoppingEquilibrium(Result):
    """Equilibrium over every stopping rule (see the module docstring).

    Attributes
    ----------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
        ``value[i, j]``: the equilibrium win probability of the player with score i against
        score j at the start of a turn.
    policy : RandomStoppingRule
        The player at (i, j) rolls at turn total t with probability ``policy.prob[i, j, t]``,
        shape ``(goal, goal, goal)``.
    iterations : int
        Score levels.
    residual : float
        The largest certificate gap ``upper - lower``.
    method : str
        ``"exact"``.
    rules : Rules
    lower : numpy.ndarray, shape ``(goal, goal)``
        Certificate: the value lies in ``[lower, upper]``.
    upper : numpy.ndarray, shape ``(goal, goal)``
    kind : numpy.ndarray of int, shape ``(goal, goal)``
        Class of each state as the solver found it, an index into
        :data:`~pigtheory.simultaneous.stopping.equilibrium.KINDS`: the dynamics can miss a
        saddle point that exists (and report a saddle of non-threshold rules where a threshold
        one exists too); :func:`~pigtheory.simultaneous.certify_classes` decides every class
        exhaustively.
    n_lp : int
        Linear programs solved.
    """

    value: np.ndarray
    policy: RandomStoppingRule
    iterations: int
    residual: float
    method: str
    rules: Rules
    lower: np.ndarray
    upper: np.ndarray
    kind: np.ndarray
    n_lp: int

    def counts(self) -> dict[str, int]:
        """Number of states of each class: ``{name in KINDS: count}``."""
        return {name: int((self.kind == c).sum()) for c, name in enumerate(KINDS)}


def stopping_equilibrium(
    *,
    rules: Rules = Rules(),
    tol: float = 1e-12,
    max_iter: int = 60,
    engine: str = "auto",
    max_memory: Any = None,
) -> StoppingEquilibrium:
    """Exact equilibrium of two-player simultaneous Pig when a strategy may be any stopping rule.

    The papers restrict strategies to "hold at k"; this lifts the equilibrium of
    :func:`~pigtheory.simultaneous.equilibrium` (Zhu, Ma, Chen & Liu 2023, "Mixed-strategy
    equilibrium") to every stopping rule. There is no equation of the paper for it; the
    method is in the module Notes.

    Parameters
    ----------
    rules : Rules
        One die, two players.
    tol : float
        Largest accepted certificate gap at a state before another round (the gap reached
        is reported as ``residual``).
    max_iter : int
        Linear programs per state at most.
    engine : {"auto", "numba", "numpy"}
        For the optimal-stopping replies.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    StoppingEquilibrium
        ``value`` ``(goal + 1, goal + 1)``; ``policy.prob`` ``(goal, goal, goal)``; ``lower``,
        ``upper`` and ``kind`` ``(goal, goal)``.

    Examples
    --------
    >>> eq = stopping_equilibrium(rules=Rules(goal=8))
    >>> round(float(eq.value[0, 0]), 12), bool(eq.residual < 1e-12)
    (0.5, True)
    """
    check_memory(equilibrium_estimate(rules, strategies="stopping"), max_memory)
    check_simultaneous_rules(rules, players=2)
    tol = check_tol(tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    g = rules.goal
    # numpy pays per call in the loop over turn totals: count that in the work estimate
    engine = choose_engine(engine, g**3 * rules.die_faces * 50)
    value = terminal_values(rules)
    ext = extended(value, rules)
    prob = np.zeros((g, g, g))
    lower, upper = np.zeros((g, g)), np.zeros((g, g))
    kind = np.zeros((g, g), dtype=np.int64)
    n_lp = 0
    levels = score_levels(g, 2)
    with one_blas_thread():
        for _, (ii, jj) in levels:
            out = _level(ext, ii, jj, rules, tol, max_iter, engine)
            v, pa, lo, hi, kd, lps = out
            n_lp += lps
            value[ii, jj] = v
            ext[ii, jj] = v
            prob[ii, jj] = pa
            lower[ii, jj], upper[ii, jj] = lo, hi
            kind[ii, jj] = kd
    value.setflags(write=False)
    return StoppingEquilibrium(
        value,
        RandomStoppingRule(prob, "equilibrium over stopping rules"),
        len(levels),
        float((upper - lower).max()),
        "exact",
        rules,
        lower,
        upper,
        kind,
        n_lp,
    )


def stage_payoffs(ext: np.ndarray, ii: np.ndarray, jj: np.ndarray, g: int) -> np.ndarray:
    """``E[s, x, y] = V(min(i + x, g), min(j + y, g))`` for x, y in 0..g, ``E[s, 0, 0] = 0``."""
    windows = np.lib.stride_tricks.sliding_window_view(ext, (g + 1, g + 1))
    e = windows[ii, jj].copy()
    e[:, 0, 0] = 0.0
    return e


def _reply(e: np.ndarray, p_opp: np.ndarray, own: np.ndarray, rules: Rules, engine: str, as_b: bool = False):
    """Best stopping rule against the opponent's outcome distribution ``p_opp`` (ns, g + 1), the
    self-loop solved exactly: its value, its rule and the rule's outcome distribution.

    ``e[s, x, y]`` are A's payoffs (A's gain x first, ``e[s, 0, 0] = 0``). A replies with
    ``u[x] = sum_y e[x, y] P_B(y)``; B (``as_b``) with ``u[y] = sum_x P_A(x) (1 - e[x, y])``,
    the double bust left out of ``u[0]`` (it is the self-loop)."""
    if as_b:
        u = p_opp.sum(axis=1)[:, None] - np.matmul(p_opp[:, None, :], e)[:, 0, :]
        u[:, 0] -= p_opp[:, 0]
    else:
        u = np.matmul(e, p_opp[:, :, None])[:, :, 0]
    opp_bust = p_opp[:, 0].copy()
    v, roll, _ = optimal_stopping(u, own, opp_bust, rules, engine=engine)
    return v, roll, stopping_outcomes(roll, own, rules, engine=engine)


def _level(ext, ii, jj, rules, tol, max_iter, engine):
    g = rules.goal
    ns = ii.size
    e_a = stage_payoffs(ext, ii, jj, g)  # to A, A's gain first
    # Start: B holds at 20 (or at its room); then alternate best replies.
    roll_b = threshold_rule(np.minimum(20, g - jj), g)
    p_b = stopping_outcomes(roll_b, jj, rules, engine=engine)
    done = np.zeros(ns, dtype=bool)
    v_out = np.zeros(ns)
    lo_out, hi_out = np.zeros(ns), np.zeros(ns)
    prob_a = np.zeros((ns, g))
    kind = np.zeros(ns, dtype=np.int64)
    live = np.arange(ns)  # states still without a saddle point
    for _ in range(_DYNAMICS):
        ea, ia, jb = e_a[live], ii[live], jj[live]
        hi, roll_a, p_a = _reply(ea, p_b, ia, rules, engine)  # U of B's rule
        v_b, roll_b_next, p_b_next = _reply(ea, p_a, jb, rules, engine, as_b=True)
        lo = 1.0 - v_b  # L of A's rule
        # U(B's rule) == L(A's rule): the pair (A's reply, B's rule) is a saddle point
        saddle = hi - lo <= tol
        s = live[saddle]
        v_out[s] = 0.5 * (hi[saddle] + lo[saddle])
        lo_out[s], hi_out[s] = lo[saddle], hi[saddle]
        prob_a[s] = roll_a[saddle]
        both = is_threshold_rule(roll_a[saddle], ia[saddle], rules) & is_threshold_rule(
            roll_b[saddle], jb[saddle], rules
        )
        kind[s] = np.where(both, 0, 2)
        done[s] = True
        keep = ~saddle
        live = live[keep]
        if not live.size:
            break
        roll_b, p_b = roll_b_next[keep], p_b_next[keep]
    n_lp = 0
    for s in np.flatnonzero(~done):
        res = _mixed_state(ext, int(ii[s]), int(jj[s]), e_a[s], rules, tol, max_iter, engine)
        v_out[s], prob_a[s], lo_out[s], hi_out[s], kind[s], lps = res
        n_lp += lps
    return v_out, prob_a, lo_out, hi_out, kind, n_lp


def _mixed_state(ext, i, j, e_a, rules, tol, max_iter, engine):
    """A state without a pure saddle point: threshold mixes if they are certified against every
    rule, else the sequence-form LP."""
    g = rules.goal
    own_a, own_b = np.array([i]), np.array([j])
    c, d = stage_game(ext, i, j, rules)
    bust = turn_total_table(rules).bust  # bust[k] = P(X_k = 0)
    x, y = _threshold_equilibrium(c, d, bust[1 : g - i + 1], bust[1 : g - j + 1])
    p_a = _threshold_mix(x, i, rules)
    p_b = _threshold_mix(y, j, rules)
    lo, hi = _bounds(e_a, p_a, p_b, own_a, own_b, rules, engine)
    if hi - lo <= tol:
        return 0.5 * (lo + hi), _behaviour(p_a, x, i, rules), lo, hi, 1, 0
    v = 0.5 * (lo + hi)
    best: tuple[float, float, float, np.ndarray | None] = (v, lo, hi, None)
    n_lp = 0
    for _ in range(max_iter):
        plan_a, plan_b = _plan_lp(e_a, v, g - i, g - j, rules)
        n_lp += 1
        pa_full = _pad(_outcomes_of_plan(plan_a, g - i, rules), g)
        pb_full = _pad(_outcomes_of_plan(plan_b, g - j, rules), g)
        lo, hi = _bounds(e_a, pa_full, pb_full, own_a, own_b, rules, engine)
        if best[3] is None or hi - lo < best[2] - best[1]:
            best = (0.5 * (lo + hi), lo, hi, plan_a)
        if hi - lo <= tol:
            break
        v = 0.5 * (lo + hi)
    v, lo, hi, plan = best
    prob = _plan_behaviour(plan, g - i, g) if plan is not None else _behaviour(p_a, x, i, rules)
    return v, prob, lo, hi, 3, n_lp


def _threshold_equilibrium(
    c: np.ndarray, d: np.ndarray, p: np.ndarray, q: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Mixes of the threshold stage game ``v = val(C + v D)``, ``D = outer(p, q)``: the double
    oracle on rows and columns with 2 x 2 closed forms; the dense LP route only if its
    certificate stays open."""
    _, a, _, b = pure_bounds(c / (1.0 - d))
    sol = solve_with_oracles(lambda k: c[k], lambda k: c[:, k], p, q, {a: c[a]}, {b: c[:, b]})
    if sol.upper - sol.lower <= 1e-13:
        return sol.x, sol.y
    _, x, y, _, _, _ = solve_stage(c, d)
    if isinstance(x, (int, np.integer)):
        return np.eye(c.shape[0])[x], np.eye(c.shape[1])[y]
    return x, y


def _bounds(e_a, p_a, p_b, own_a, own_b, rules, engine):
    """``(L, U)``: what A's distribution guarantees and what B's concedes, against every rule."""
    v_a, _, _ = _reply(e_a[None], p_b[None], own_a, rules, engine)
    v_b, _, _ = _reply(e_a[None], p_a[None], own_b, rules, engine, as_b=True)
    return float(1.0 - v_b[0]), float(v_a[0])


def _threshold_mix(weights: np.ndarray | int, own: int, rules: Rules) -> np.ndarray:
    """Outcome distribution (gains 0..goal, clipped) of a mix of thresholds (index k - 1)."""
    g = rules.goal
    if isinstance(weights, (int, np.integer)):
        w = np.zeros(g - own)
        w[int(weights)] = 1.0
    else:
        w = np.asarray(weights, dtype=float)
    room = g - own
    x = threshold_matrix(rules)[:, :room] @ w[:room]  # P(gain x), x = 0..goal + w - 1, unclipped
    out = np.zeros(g + 1)
    out[:room] = x[:room]
    out[room] = x[room:].sum()  # gains past the room reach the goal
    return out


def _behaviour(p_dist: np.ndarray, weights, own: int, rules: Rules) -> np.ndarray:
    """``P(roll at t)`` of a threshold mix, as a behavioural rule with the same outcomes."""
    g = rules.goal
    room = g - own
    p_bust, gains, probs = rules.roll_arrays()
    hold = p_dist[:room].copy()  # P(hold at t) for 1 <= t < room
    hold[0] = 0.0
    reach = np.zeros(g + 1)
    reach[0] = 1.0
    prob = np.zeros(g)
    for t in range(room):
        if reach[t] <= 0:
            continue
        r = max(reach[t] - hold[t], 0.0)
        prob[t] = min(r / reach[t], 1.0)
        for gain, p in zip(gains.tolist(), probs.tolist(), strict=True):
            if t + gain < room:
                reach[t + gain] += p * r
    return prob


def _pad(p: np.ndarray, g: int) -> np.ndarray:
    out = np.zeros(g + 1)
    out[: p.size] = p
    return out


def plan_matrices(room: int, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``F, f, G`` of a player's realization plans (module Notes): variables ``r_0..r_{R-1},
    h_1..h_{R-1}``; ``F w = f``; outcomes ``P = G w`` over gains ``0..R``."""
    p_bust, gains, probs = rules.roll_arrays()
    n = 2 * room - 1
    f_mat = np.zeros((room, n))
    f_vec = np.zeros(room)
    f_mat[0, 0] = 1.0
    f_vec[0] = 1.0
    for t in range(1, room):
        f_mat[t, t] = 1.0  # r_t
        f_mat[t, room - 1 + t] = 1.0  # h_t
        for gain, p in zip(gains.tolist(), probs.tolist(), strict=True):
            if t - gain >= 0:
                f_mat[t, t - gain] -= p
    g_mat = np.zeros((room + 1, n))
    g_mat[0, :room] = p_bust
    for t in range(1, room):
        g_mat[t, room - 1 + t] = 1.0
    for t in range(room):
        g_mat[room, t] = sum(
            p for gain, p in zip(gains.tolist(), probs.tolist(), strict=True) if t + gain >= room
        )
    return f_mat, f_vec, g_mat


def _plan_lp(
    e_a: np.ndarray, v: float, room_a: int, room_b: int, rules: Rules
) -> tuple[np.ndarray, np.ndarray]:
    """Optimal realization plans of both players in the game ``P_A^T M P_B`` with ``M = E``
    and ``M[0, 0] = v`` (one HiGHS LP; B's plan from the duals)."""
    from scipy.optimize import linprog  # late: scipy.optimize is slow to import

    fa, fa_vec, ga = plan_matrices(room_a, rules)
    fb, _, gb = plan_matrices(room_b, rules)
    m = e_a[: room_a + 1, : room_b + 1].copy()
    m[0, 0] = v
    m -= v  # centred and rescaled: payoff differences can be ~1e-7
    scale = float(np.abs(m).max()) or 1.0
    m /= scale
    na, nb, mb = fa.shape[1], fb.shape[1], fb.shape[0]
    # variables [w_A (na), lambda (mb)]: max lambda_0 s.t. F_B^T lambda <= G_B^T M^T G_A w_A
    a_ub = np.hstack([-(gb.T @ m.T @ ga), fb.T])
    a_eq = np.hstack([fa, np.zeros((fa.shape[0], mb))])
    obj = np.zeros(na + mb)
    obj[na] = -1.0
    res = linprog(
        obj,
        A_ub=a_ub,
        b_ub=np.zeros(nb),
        A_eq=a_eq,
        b_eq=fa_vec,
        bounds=[(0, None)] * na + [(None, None)] * mb,
        method="highs",
    )
    if res.status != 0:
        raise RuntimeError(f"stopping_equilibrium: the plan LP failed ({res.message})")
    plan_a = np.maximum(res.x[:na], 0.0)
    plan_b = np.maximum(-res.ineqlin.marginals, 0.0)
    return plan_a, plan_b


def _outcomes_of_plan(plan: np.ndarray, room: int, rules: Rules) -> np.ndarray:
    _, _, g_mat = plan_matrices(room, rules)
    p = np.maximum(g_mat @ plan, 0.0)
    return p / p.sum()


def _plan_behaviour(plan: np.ndarray, room: int, g: int) -> np.ndarray:
    """``P(roll at t) = r_t / (r_t + h_t)`` of a realization plan (module Notes)."""
    r = plan[:room]
    h = np.concatenate([[0.0], plan[room:]])
    reach = r + h
    prob = np.zeros(g)
    with np.errstate(invalid="ignore", divide="ignore"):
        prob[:room] = np.where(reach > 0, r / reach, 1.0)
    prob[0] = 1.0
    return np.clip(prob, 0.0, 1.0)
