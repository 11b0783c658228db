"""Best response to a symmetric profile, exploitability, and the whole-game dynamics.

Shapes
------
As in :mod:`pigtheory.simultaneous.symmetric`: tables by view ``[c, i]``, ``(S, goal + 1)``.
When every other player uses the same symmetric policy, they are interchangeable for the
responder too, so its values depend on its own score and the *multiset* of theirs: the
compact layout holds the best response over the full (unsorted) state cube exactly.

Notes
-----
*Best response.* With the others' (possibly mixed) actions fixed at every state, one player
faces a Markov decision process; by backward induction over the views (columns by decreasing
colex rank, own scores from the top) with the self-loop in closed form,

.. math:: V^*(i, J) = \\max_k \\frac{P(X_k = 0)\\, u^0 + \\sum_r P(X_k = k + r)\\,
          u(\\min(k + r, g - i))}{1 - P(X_k = 0)\\, P(\\text{all others bust})},

:math:`u(x) = E[V^*(i + x, J + Y)]` over the others' turns Y (each drawn from the policy at
its own view, which includes the responder's score). The same pass evaluates the profile
itself (the responder keeping the policy). The *exploitability* of a symmetric profile is
:math:`V^*(0, \\dots, 0) - 1/n`; it is 0 exactly for a symmetric equilibrium.

*Dynamics on the whole game* (the obvious methods, for comparison). From a start policy
:math:`\\pi_0`, each iteration computes the exact best response :math:`\\beta_t` to
:math:`\\pi_t` played by all the others, then

* ``"best_response"``: :math:`\\pi_{t+1} = \\beta_t` (the paper's self-play, for n players);
* ``"damped"``: :math:`\\pi_{t+1} = (1 - \\alpha) \\pi_t + \\alpha \\beta_t`, state by state;
* ``"fictitious_play"``: :math:`\\pi_{t+1}` = the average of :math:`\\pi_0, \\beta_0, \\dots,
  \\beta_t`, state by state (each player best-responds to the others' empirical play).

Their exploitability is recorded at every iteration.

References
----------
G. W. Brown, "Iterative solution of games by fictitious play", in Activity Analysis of
Production and Allocation (1951) 374-376.
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): Algorithm 0.3 (best response against
independent opponents) and "Mixed-strategy equilibrium" (self-play does not converge).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...engine import ENGINES, choose_engine
from ...guard import check_memory
from ...policies import HoldAt, hold_at
from ...progress import progress_bar
from ...results import Result
from ...rules import Rules
from ...validation import check_choice, check_int, check_progress, check_simultaneous_rules
from ..core import TIE_TOL
from ..core.step import band_of
from . import stage as symmetric_stage
from .equilibrium import (
    SymmetricEquilibrium,
    SymmetricPolicy,
    ViewTable,
    estimate_memory,
    layout,
)
from .kernels import Response, Strategy, terminal_table

__all__ = ["SymmetricBestResponse", "symmetric_best_response", "SymmetricDynamics", "symmetric_dynamics"]

_DYNAMICS = ("best_response", "damped", "fictitious_play")
_COLUMNS = 200  # columns per kernel call (progress bar steps)


@dataclass(frozen=True, eq=False)
class SymmetricBestResponse(Result):
    """Exact best response of one player against all others playing a symmetric profile
    (Zhu, Ma, Chen & Liu 2023, Algorithm 0.3 and eqs. (18)-(19), solved by backward induction).

    Attributes
    ----------
    value : ViewTable
        The best response's win probability, ``value[i, j, ...]`` own score first, shape
        ``(goal + 1,) * players``; stored by view: ``value.table[c, i]`` at own score i facing
        the others' sorted scores of column c (:mod:`pigtheory.simultaneous.symmetric`).
    policy : SymmetricPolicy
        The best response, pure: ``policy.actions[c, i]`` its threshold by view (0 where the
        state is terminal); ``policy.to_mixed()`` over ``(goal,) * players``.
    profile_table : numpy.ndarray, shape ``(S, goal + 1)``
        The player's win probability when it keeps the profile's policy too.
    iterations : int
        Score levels, ``players * (goal - 1) + 1``.
    residual : float
        0.0 (exact backward induction).
    method : str
    rules : Rules
    exploitability : float
        Best response at ``(0, ..., 0)`` minus ``1 / players``.
    largest_gain : float
        The most the best response gains over the profile at any state.

    ``table`` and ``thresholds`` (the names before issue 20) are deprecated properties:
    ``value.table`` and ``policy.actions``.
    """

    value: ViewTable
    policy: SymmetricPolicy
    profile_table: np.ndarray
    iterations: int
    residual: float
    method: str
    rules: Rules
    exploitability: float
    largest_gain: float

    @classmethod
    def _legacy_fields(cls, fields: dict[str, Any]) -> dict[str, Any]:
        """The fields of a file saved before issue 20 (``table``, ``thresholds``)."""
        fields = dict(fields)
        if "table" in fields:
            fields["value"] = ViewTable(fields.pop("table"), fields["rules"])
        if "thresholds" in fields:
            fields["policy"] = _pure(fields.pop("thresholds"), fields["rules"])
        return fields


def _pure(actions: np.ndarray, rules: Rules) -> SymmetricPolicy:
    """The pure symmetric policy of a threshold table by view."""
    return SymmetricPolicy(
        np.asarray(actions), np.ones((0, 1), dtype=np.int64), np.zeros((0, 1)), rules, "best response"
    )


def _strategy_of(profile: Any) -> SymmetricPolicy:
    if isinstance(profile, SymmetricEquilibrium):
        return profile.policy
    if isinstance(profile, SymmetricPolicy):
        return profile
    raise ValueError(
        f"profile: a SymmetricEquilibrium or SymmetricPolicy expected, got {type(profile).__name__}"
    )


def symmetric_best_response(
    profile: Any, *, engine: str = "auto", progress: bool | None = None
) -> SymmetricBestResponse:
    """Exact best response of one player when every other player uses ``profile``.

    Parameters
    ----------
    profile : SymmetricEquilibrium or SymmetricPolicy
        The others' policy (its rules are the game's).
    engine : {"auto", "numba", "numpy"}
        As for :func:`~pigtheory.simultaneous.symmetric_equilibrium`.
    progress : bool, optional
        A progress bar of the columns solved (default: when stderr is a terminal).

    Returns
    -------
    SymmetricBestResponse
        ``table`` ``(S, goal + 1)`` and ``thresholds`` ``(S, goal)`` by view; its
        ``exploitability`` is the global certificate of an equilibrium.

    Examples
    --------
    >>> from pigtheory.simultaneous import symmetric_equilibrium
    >>> br = symmetric_best_response(symmetric_equilibrium(rules=Rules(goal=8, players=3)))
    >>> abs(br.exploitability) < 1e-12, br.largest_gain < 1e-12
    (True, True)
    """
    strategy = _strategy_of(profile)
    check_choice("engine", engine, ENGINES)
    check_progress(progress)
    return _respond(strategy, engine, progress)


def _read_only(a: np.ndarray, dtype: Any) -> np.ndarray:
    """``a`` as a C-contiguous array of ``dtype`` that the kernel sees read-only (a view when
    no copy is needed). Numba compiles a kernel once per argument types, and whether an array
    is writable is part of its type: a policy's frozen tables and a writable one (or the
    placeholder of a policy without mixes) would each compile the best response again, for
    several seconds on a fresh install."""
    out = np.ascontiguousarray(a, dtype=dtype).view()
    out.flags.writeable = False
    return out


def _respond(
    strategy: SymmetricPolicy, engine: str, progress: bool | None, reuse: bool = True
) -> SymmetricBestResponse:
    """:func:`symmetric_best_response` on checked inputs; ``reuse=False`` sums every
    continuation afresh (the reference the tests hold the column reuse to)."""
    rules = strategy.rules
    g, n = rules.goal, rules.players
    binom, others, _, _ = layout(rules)
    band = band_of(rules)
    columns = others.shape[0]
    work = columns * g * g * 100
    kernel = (
        symmetric_stage.compiled()
        if choose_engine(engine, work) == "numba"
        else symmetric_stage.interpreted()
    )
    br = terminal_table(others, g)
    ev = br.copy()
    br_act = np.zeros((columns, g), dtype=np.int32)
    mix_th, mix_w = strategy.mix_thresholds, strategy.mix_weights
    if mix_th.shape[0] == 0:
        mix_th, mix_w = np.ones((1, 1)), np.zeros((1, 1))
    act, mix_th, mix_w = (
        _read_only(strategy.actions, np.int32),
        _read_only(mix_th, np.int64),
        _read_only(mix_w, float),
    )
    with progress_bar(columns, "best response", progress) as bar:
        for hi in range(columns, 0, -_COLUMNS):
            lo = max(0, hi - _COLUMNS)
            kernel.respond_columns(
                hi,
                lo,
                g,
                others,
                binom,
                band,
                TIE_TOL,
                Strategy(act, mix_th, mix_w),
                Response(br, br_act, ev),
                reuse,
            )
            bar.update(hi - lo)
    live = (others < g).all(axis=1)
    return SymmetricBestResponse(
        value=ViewTable(br, rules),
        policy=_pure(br_act, rules),
        profile_table=ev,
        iterations=n * (g - 1) + 1,
        residual=0.0,
        method="exact",
        rules=rules,
        exploitability=float(br[0, 0] - 1.0 / n),
        largest_gain=float((br[live, :g] - ev[live, :g]).max()),
    )


@dataclass(frozen=True, eq=False)
class SymmetricDynamics(Result):
    """A run of best-response dynamics or fictitious play on the whole game.

    Attributes
    ----------
    epsilon : numpy.ndarray, shape ``(iterations + 1,)``
        Exploitability of the policy at each iteration (the start first).
    largest_gain : numpy.ndarray, shape ``(iterations + 1,)``
        The most a best response gains over that policy at any state.
    policy : SymmetricPolicy
        The last policy.
    iterations : int
    residual : float
        The last exploitability.
    method : str
        ``"best_response"``, ``"damped"`` or ``"fictitious_play"``.
    rules : Rules
    damping : float
        The step size of ``"damped"`` (1.0 for best response, 0.0 where unused).
    """

    epsilon: np.ndarray
    largest_gain: np.ndarray
    policy: SymmetricPolicy
    iterations: int
    residual: float
    method: str
    rules: Rules
    damping: float


def _start_actions(start: Any, rules: Rules) -> np.ndarray:
    g = rules.goal
    if isinstance(start, (int, np.integer)) and not isinstance(start, bool):
        start = hold_at(int(start))
    if not isinstance(start, HoldAt):
        raise ValueError(f"start: a hold_at(n) policy or an int n expected, got {start!r}")
    others = layout(rules)[1]
    act = np.broadcast_to(np.minimum(start.n, g - np.arange(g)), (others.shape[0], g)).astype(np.int32)
    act[(others == g).any(axis=1)] = 0
    return act


def _mixture(history: np.ndarray, weights: np.ndarray, rules: Rules, name: str) -> SymmetricPolicy:
    """The view-by-view mixture of the pure action tables ``history[t]`` with ``weights[t]``.

    Each view's thresholds are sorted (stably) and equal ones merged, their weights added in
    the sorted order; a view whose history never changed keeps its threshold. The views that
    vary are laid out one per row, so that every sort, run and sum is along contiguous rows.
    """
    keep = weights > 0
    history, weights = history[keep], weights[keep] / weights[keep].sum()
    flat = history.reshape(history.shape[0], -1)
    actions = flat[-1].copy()
    varies = np.flatnonzero((flat != flat[:1]).any(axis=0))
    sub = np.ascontiguousarray(flat[:, varies].T)  # (views that vary, steps)
    order = np.argsort(sub, axis=1, kind="stable")
    ks = np.take_along_axis(sub, order, axis=1)
    ws = weights[order]
    new = np.empty(ks.shape, dtype=bool)  # a new threshold starts a run
    new[:, 0] = True
    np.not_equal(ks[:, 1:], ks[:, :-1], out=new[:, 1:])
    at = np.cumsum(new.ravel()).reshape(ks.shape)  # runs counted over all views, then
    first = at[:, 0].copy()
    width = int((at[:, -1] - first).max()) + 1 if varies.size else 1
    rows = np.arange(varies.size)
    at -= (first - rows * width)[:, None]  # the run's entry in the mix tables
    mix_th = np.ones(varies.size * width, dtype=np.int64)
    mix_th[at.ravel()] = ks.ravel()
    # bincount adds in the order given: a run's weights in the sorted order, from 0.0
    mix_w = np.bincount(at.ravel(), weights=ws.ravel(), minlength=varies.size * width).astype(
        float, copy=False
    )
    actions[varies] = -(1 + rows)
    return SymmetricPolicy(
        actions.reshape(history.shape[1:]), mix_th.reshape(-1, width), mix_w.reshape(-1, width), rules, name
    )


MAX_DYNAMICS_ITER = 10_000
"""The most iterations :func:`symmetric_dynamics` runs (each is an exact best response, and
every one is kept in the history)."""


def symmetric_dynamics(
    method: str = "fictitious_play",
    *,
    rules: Rules = Rules(players=3),
    max_iter: int = 30,
    damping: float = 0.5,
    start: Any = 25,
    engine: str = "auto",
    progress: bool | None = None,
    max_memory: Any = None,
) -> SymmetricDynamics:
    """Best-response dynamics or fictitious play on the whole game (module Notes).

    These are the obvious ways to look for a symmetric equilibrium; they are here to show
    how they fare against backward induction (:func:`~pigtheory.simultaneous.symmetric_equilibrium`). Plain best-response
    dynamics is the whole-game analogue of the paper's self-play, which cycles for two players
    (Zhu, Ma, Chen & Liu 2023, "Mixed-strategy equilibrium"); fictitious play is Brown's (1951).

    Parameters
    ----------
    method : {"best_response", "damped", "fictitious_play"}
        Each step plays the exact best response to the last policy (``"best_response"``), mixes
        it into the last policy with weight ``damping`` (``"damped"``), or plays the uniform
        average of the start and every best response so far (``"fictitious_play"``).
    rules : Rules
        One die, 2 to 5 players.
    max_iter : int
        Iterations (1..10,000): exact best responses computed, besides the last evaluation. The
        run never "converges" in the sense of a stopping rule, so no warning is raised.
    damping : float
        ``"damped"``: the weight of the new best response, in (0, 1).
    start : int or HoldAt
        The first policy, "hold at n" (default 25).
    engine, progress
        As for :func:`symmetric_best_response` (the bar counts iterations).

    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    SymmetricDynamics
        ``epsilon`` and ``largest_gain`` of shape ``(iterations + 1,)``, the start first.

    Examples
    --------
    >>> run = symmetric_dynamics("best_response", rules=Rules(goal=8, players=3), max_iter=3, start=2)
    >>> run.epsilon.shape, bool(run.epsilon[0] > 0.05), bool(abs(run.epsilon[-1]) < 1e-12)
    ((4,), True, True)
    """
    check_choice("method", method, _DYNAMICS)
    check_simultaneous_rules(rules)
    if rules.players > 5:
        raise ValueError(f"rules.players must be in 2..5 here, got {rules.players}")
    max_iter = check_int("max_iter", max_iter, low=1, high=MAX_DYNAMICS_ITER)
    check_choice("engine", engine, ENGINES)
    if not isinstance(damping, (int, float)) or isinstance(damping, bool) or not 0 < damping < 1:
        raise ValueError(f"damping must be a number in (0, 1), got {damping!r}")
    check_progress(progress)
    check_memory(estimate_memory(rules), max_memory)
    history = [_start_actions(start, rules)]
    epsilon, largest = [], []
    policy = SymmetricPolicy(history[0], np.ones((0, 1), dtype=np.int64), np.zeros((0, 1)), rules, "start")
    with progress_bar(max_iter + 1, f"{method} dynamics", progress) as bar:
        for t in range(max_iter + 1):
            br = symmetric_best_response(policy, engine=engine, progress=False)
            epsilon.append(br.exploitability)
            largest.append(br.largest_gain)
            bar.update(1)
            if t == max_iter:
                break
            history.append(np.asarray(br.policy.actions))
            steps = len(history)
            if method == "best_response":
                weights = np.zeros(steps)
                weights[-1] = 1.0
            elif method == "damped":
                weights = damping * (1 - damping) ** np.arange(steps - 1, -1, -1, dtype=float)
                weights[0] = (1 - damping) ** (steps - 1)
            else:
                weights = np.ones(steps)
            policy = _mixture(np.stack(history), weights, rules, f"{method}, iteration {t + 1}")
    return SymmetricDynamics(
        epsilon=np.array(epsilon),
        largest_gain=np.array(largest),
        policy=policy,
        iterations=max_iter,
        residual=float(epsilon[-1]),
        method=method,
        rules=rules,
        damping=float(damping) if method == "damped" else (1.0 if method == "best_response" else 0.0),
    )
