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

with :math:`C_s, D_s` from :mod:`pigtheory.simultaneous.core.stage` and
:math:`D_s[a, b] = P(X_a = 0) P(Y_b = 0)` of rank one. Scores never decrease, so :math:`C_s`
is known once the levels of larger score sum are solved, and V(s) is the root of a 1-D fixed
point (:mod:`pigtheory.simultaneous.core.matrix_game`). No stage game is built; the states of
one score sum are solved together, in three steps:

1. **Warm-started saddle check.** Guess A's threshold a from the state (i, j + 1), which
   has the same own score (its largest weight where it mixed). Row a of C gives B's best
   reply b (the first minimiser of row a of :math:`W = C / (1 - D)`), column b gives A's
   best reply; if that is a again, (a, b) is a pure saddle point of W and
   :math:`V(s) = W[a, b]`, certified by the row and the column themselves (the row's minimum
   and the column's maximum are the same entry). A row or a column costs O(w goal)
   (:func:`~pigtheory.simultaneous.core.stage.best_replies`; w the largest roll), not the
   O(goal^2) of a stage game. Otherwise a moves to A's reply and the check runs again, up to
   four rounds, all states of the sum batched.
2. **Double oracle on rows and columns** for the states left (those that mix, and a few
   pure ones whose guesses did not settle), starting from the rows and columns of step 1:
   solve the game restricted to them (a pure saddle point, else a 2 x 2 sub-game in closed
   form, else linear programs: :func:`~pigtheory.simultaneous.core.matrix_game.solve_small`),
   certify the restricted strategies on the whole game,
   :math:`L(x) = \\min_b (xC)_b / (1 - (xD)_b) \\le V(s) \\le U(y) = \\max_a (Cy)_a / (1 - (Dy)_a)`,
   and add the two best replies until neither is new (the gap is then rounding).
3. **Dense fallback.** If the double oracle stops with a gap ``U - L`` above ``tol`` (it has
   not, up to goal 1000), the whole stage game is built and solved by Hoffman-Karp iteration
   on v with HiGHS LPs (:func:`solve_stage`).

Work: O(w goal) per state and round, O(w goal^3) in all, against the goal^2 entries of a
dense stage game per state; memory O(goal^2).

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

from ...engine import ENGINES, choose_engine
from ...guard import check_memory, equilibrium_estimate
from ...policies import MixedPolicy
from ...results import Result, freeze
from ...rules import Rules
from ...turn_totals import turn_total_table
from ...validation import check_choice, check_int, check_simultaneous_rules, check_tol
from ..core import STRATEGIES, extended, one_blas_thread, score_levels, stage_game, terminal_values
from ..core.matrix_game import StageSolution, solve_stage, solve_with_oracles
from ..core.stage import best_replies, stage_rows

__all__ = ["Equilibrium", "equilibrium", "solve_stage"]

_ROUNDS = 4
"""Batched saddle-check rounds per score sum before a state gets its own double oracle."""


@dataclass(frozen=True, eq=False)
class Equilibrium(Result):
    """Exact equilibrium of two-player simultaneous Pig (see the module docstring).

    Attributes
    ----------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
        ``value[i, j]``: the equilibrium win probability of the player with score i against
        score j at the start of a turn (terminal rows and columns included).
    policy : MixedPolicy
        ``policy.thresholds[i, j, s]`` with probability ``policy.weights[i, j, s]``, shape
        ``(goal, goal, W)`` (W the largest support, weight-0 padding), own score first.
    iterations : int
        The number of score levels.
    residual : float
        The largest certificate gap ``upper - lower``.
    method : str
        ``"exact"``.
    rules : Rules
    opponent_policy : MixedPolicy
        The minimising player's optimal strategy from the dual, own score first (the
        opponent at A's state (i, j) uses ``opponent_policy[j, i]``); by symmetry it is an
        equilibrium strategy too.
    lower : numpy.ndarray, shape ``(goal, goal)``
        Certificate: the value lies in ``[lower, upper]`` at every state.
    upper : numpy.ndarray, shape ``(goal, goal)``
    mixed_states : tuple of (int, int)
        States without a pure saddle point, where the equilibrium mixes.
    support_sizes : numpy.ndarray of int, shape ``(goal, goal)``
        Number of thresholds the player at each state mixes over (1 where pure).
    n_lp : int
        Linear programs solved: restricted games that no 2 x 2 sub-game solves, and the
        dense fallback (none at goals 100 and 200).
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
        """The mix of the player at state (i, j): ``{threshold: probability}`` (weights > 0)."""
        th, w = self.policy.thresholds[i, j], self.policy.weights[i, j]
        return {int(k): float(p) for k, p in zip(th, w, strict=True) if p > 0}


def equilibrium(
    *,
    rules: Rules = Rules(),
    strategies: str = "thresholds",
    tol: float = 1e-13,
    max_iter: int = 50,
    engine: str = "auto",
    max_memory: Any = None,
) -> Any:
    """Exact equilibrium (value and optimal mixed strategies) of two-player simultaneous Pig.

    Parameters
    ----------
    rules : Rules
        One die, two players.
    strategies : {"thresholds", "stopping"}
        "hold at k" (the papers' strategies), or every stopping rule: then the result is a
        :class:`~pigtheory.simultaneous.stopping.equilibrium.StoppingEquilibrium` from
        :func:`~pigtheory.simultaneous.stopping.equilibrium.stopping_equilibrium` (``tol`` at
        least 1e-12 there: its certificate sums two optimal-stopping replies).
    tol : float
        Largest accepted certificate gap ``upper - lower`` at a state before the double oracle
        adds best replies (the gap actually reached is reported as ``residual``).
    max_iter : int
        Double-oracle rounds per state at most (and LP rounds of the dense fallback).
    engine : {"auto", "numba", "numpy"}
        Rows and columns of the stage games by compiled loops or batched numpy, with the same
        bits; ``"auto"`` decides by the size of the dense stage games (:mod:`pigtheory.engine`).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    Equilibrium or StoppingEquilibrium
        Thresholds: an :class:`Equilibrium`, ``value`` of shape ``(goal + 1, goal + 1)``, the
        mixed ``policy`` ``(goal, goal, W)`` and the certificate ``lower``/``upper``
        ``(goal, goal)``. Stopping rules: a ``StoppingEquilibrium``.

    Notes
    -----
    The game of Zhu, Ma, Chen & Liu (2023), section "Mixed-strategy equilibrium" (both
    players optimal, eq. (14)), where their value iteration cycles and Table 3 mixes the two
    cycling policies. Solved here as a stochastic game (Shapley 1953), state by state from the
    top score level, each stage a zero-sum matrix game (module Notes); the paper has no
    equation for it.

    Examples
    --------
    >>> eq = equilibrium(rules=Rules(goal=10))
    >>> round(float(eq.value[0, 0]), 12), eq.residual < 1e-12
    (0.5, True)
    """
    check_memory(equilibrium_estimate(rules, strategies=strategies), max_memory)
    check_simultaneous_rules(rules, players=2)
    check_choice("strategies", strategies, STRATEGIES)
    tol = check_tol(tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    check_choice("engine", engine, ENGINES)
    if strategies == "stopping":
        from ..stopping import stopping_equilibrium

        return stopping_equilibrium(rules=rules, tol=max(tol, 1e-12), engine=engine, max_memory=max_memory)
    g = rules.goal
    # work: state x joint-action pairs, the entries of the dense stage games this replaces
    engine = choose_engine(engine, g**4 / 4)
    value = terminal_values(rules)
    ext = extended(value, rules)
    ext_t = np.ascontiguousarray(ext.T)
    bust = turn_total_table(rules.replace(players=2)).bust  # bust[k] = P(X_k = 0)
    lower, upper = np.zeros((g, g)), np.zeros((g, g))
    # the threshold pair each state played (largest weights where it mixed): warm starts
    act_a = np.ones((g, g), dtype=np.int64)
    act_b = np.ones((g, g), dtype=np.int64)
    mixes: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    n_lp = 0
    levels = score_levels(g, 2)
    with one_blas_thread():
        for _, (i, j) in levels:
            guess = _warm_start(act_a, i, j, g)
            v, lo, hi, a, b, settled, tried = _saddle_rounds(ext, ext_t, i, j, guess, rules, engine, tol)
            known = _known_lines(ext, ext_t, i, j, tried, rules, engine) if tried else {}
            for s, (rows, cols) in known.items():
                si, sj = int(i[s]), int(j[s])
                sol = _solve_state(ext, ext_t, bust, si, sj, rows, cols, rules, engine, tol, max_iter)
                n_lp += sol.n_lp
                v[s], lo[s], hi[s] = sol.value, sol.lower, sol.upper
                a[s], b[s] = int(sol.x.argmax()) + 1, int(sol.y.argmax()) + 1
                if np.count_nonzero(sol.x) > 1 or np.count_nonzero(sol.y) > 1:
                    mixes[(si, sj)] = (sol.x, sol.y)
            value[i, j] = v
            ext[i, j] = v
            ext_t[j, i] = v
            lower[i, j], upper[i, j] = lo, hi
            act_a[i, j], act_b[i, j] = a, b
    policy, opponent, sizes = _policies(act_a, act_b, mixes, g)
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


def _warm_start(act_a, i, j, g):
    """A's guesses at the states (i, j) of one sum: the threshold A played at (i, j + 1)
    (the same own score), or at (i + 1, j) on the last column, clipped to ``goal - i``."""
    up = j + 1 < g
    return np.minimum(act_a[np.where(up, i, np.minimum(i + 1, g - 1)), np.where(up, j + 1, j)], g - i)


def _saddle_rounds(ext, ext_t, i, j, a, rules, engine, tol):
    """Step 1 of the module docstring, batched over the states of one sum, from A's guesses
    ``a`` (thresholds). Returns ``value``, ``lower``, ``upper`` and the thresholds of both
    players (filled where settled), the mask of settled states, and for each state left the
    thresholds tried, ``{s: (A's, B's)}``."""
    n = len(i)
    v, lo, hi = np.zeros(n), np.zeros(n), np.zeros(n)
    a, b = a.copy(), np.ones(n, dtype=np.int64)
    settled = np.zeros(n, dtype=bool)
    tried: dict[int, tuple[set, set]] = {}
    todo = np.arange(n)
    for _ in range(_ROUNDS):
        ii, jj, aa = i[todo], j[todo], a[todo]
        # Exact first optimisers (no tie tolerance): a reply 1e-13 worse than the best would
        # pass the check below and shift the value by as much (Piglet has such near-ties).
        bb, val = best_replies(ext, ii, jj, aa, rules, engine, tie_tol=0.0)  # min of row a
        reply, top = best_replies(ext_t, jj, ii, bb, rules, engine, largest=True, tie_tol=0.0)
        ok = (reply == aa) & (top - val <= tol)
        done = todo[ok]
        v[done] = lo[done] = val[ok]
        hi[done] = np.maximum(top, val)[ok]  # the maximum of column b
        settled[done] = True
        b[todo] = bb
        for t in np.flatnonzero(~ok).tolist():
            got = tried.setdefault(int(todo[t]), (set(), set()))
            got[0].add(int(aa[t]))
            got[1].add(int(bb[t]))
        a[todo] = reply
        todo = todo[~ok]
        if todo.size == 0:
            break
    return v, lo, hi, a, b, settled, {s: t for s, t in tried.items() if not settled[s]}


def _known_lines(ext, ext_t, i, j, tried, rules, engine):
    """The rows (A's thresholds tried) and columns (B's) of C at the states left by step 1,
    computed in one batch each: ``{s: ({a - 1: row}, {b - 1: column})}``."""
    g = rules.goal
    pairs_a = [(s, k) for s, (ks, _) in tried.items() for k in sorted(ks)]
    pairs_b = [(s, k) for s, (_, ks) in tried.items() for k in sorted(ks)]
    sa, ka = np.array(pairs_a, dtype=np.int64).T
    sb, kb = np.array(pairs_b, dtype=np.int64).T
    rows = stage_rows(ext, i[sa], j[sa], ka, rules, engine)
    cols = stage_rows(ext_t, j[sb], i[sb], kb, rules, engine)
    known: dict[int, tuple[dict, dict]] = {s: ({}, {}) for s in tried}
    for t, (s, k) in enumerate(pairs_a):
        known[s][0][k - 1] = rows[t, : g - j[s]]
    for t, (s, k) in enumerate(pairs_b):
        known[s][1][k - 1] = cols[t, : g - i[s]]
    return known


def _solve_state(ext, ext_t, bust, i, j, rows, cols, rules, engine, tol, max_iter) -> StageSolution:
    """Steps 2 and 3 of the module docstring at one state, from the rows and columns known."""
    g = rules.goal
    si, sj = np.array([i]), np.array([j])

    def row(k: int) -> np.ndarray:
        return stage_rows(ext, si, sj, np.array([k + 1]), rules, engine)[0, : g - j]

    def col(k: int) -> np.ndarray:
        return stage_rows(ext_t, sj, si, np.array([k + 1]), rules, engine)[0, : g - i]

    p, q = bust[1 : g - i + 1], bust[1 : g - j + 1]
    sol = solve_with_oracles(row, col, p, q, rows, cols, tol=tol, max_iter=max_iter)
    if sol.upper - sol.lower <= tol:
        return sol
    c, d = stage_game(ext, i, j, rules)
    v, x, y, lo, hi, n = solve_stage(c, d, tol=tol, max_iter=max_iter)
    if isinstance(x, int):
        x, y = np.eye(g - i)[x], np.eye(g - j)[y]
    return StageSolution(v, x, y, lo, hi, sol.n_lp + n)


def _policies(act_a, act_b, mixes, g):
    """MixedPolicy tables (own score first) of both players, padded with weight-0 entries."""
    width = max(
        [1]
        + [int((x > 0).sum()) for x, _ in mixes.values()]
        + [int((y > 0).sum()) for _, y in mixes.values()]
    )
    th_a = np.ones((g, g, width), dtype=np.int64)
    w_a = np.zeros((g, g, width))
    th_b, w_b = th_a.copy(), w_a.copy()
    th_a[:, :, 0] = act_a
    th_b[:, :, 0] = act_b.T
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
