"""Symmetric value iteration ("self-play") of two-player simultaneous Pig, and its cycle.

Shapes
------
``value[i, j]`` (``(goal + 1, goal + 1)``): the iteration's estimate of A's win probability;
``policy[i, j]`` and every entry of ``history`` (``(goal, goal)``): A's threshold, own score
first. B's threshold at A's state (i, j) is always A's current ``policy[j, i]`` (eq. 14).

Notes
-----
One sweep of the paper's iteration (Algorithm 0.1 with :math:`\\pi_B := \\pi_A`) visits every
state once and sets

.. math:: q(i, j, k) = E_{Y}\\Big[p(i, j + Y) P(X_k = 0) + \\sum_r p(i + k + r, j + Y)
          P(X_k = k + r)\\Big], \\quad Y \\sim X_{\\pi(j, i)},

.. math:: p(i, j) \\leftarrow \\max_k q(i, j, k), \\qquad \\pi(i, j) \\leftarrow
          \\operatorname{argmax}_k q(i, j, k),

in place (Gauss-Seidel: later states see the new p and the new :math:`\\pi`). Which new
numbers a state sees depends on the order:

``order="increasing"``
    ``for i: for j:``, the paper's order (its worked example updates (47, 69) before (69, 47)
    in the same sweep): every successor of (i, j) comes later, so every p it reads is last
    sweep's; only B's threshold :math:`\\pi(j, i)` is new, for j < i. A sweep is two
    vectorised half-sweeps.
``order="decreasing"``
    every successor comes first (backward induction within the sweep, the self-loop still
    lagging one sweep); :math:`\\pi(j, i)` is new for j > i. Solved level by level.
``sweep="jacobi"``
    every state reads last sweep's p and :math:`\\pi`.

Ties in the argmax (within ``TIE_TOL`` of best_response) go to the smallest k. The sequence
of policies is hashed; a graph of transitions between distinct policies (networkx) finds the
cycle, and the run stops once the policy has repeated with the same period for three periods
and the values at the same phase agree to ``tol``.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): Algorithm 0.1, eq. (14), "Mixed-strategy
equilibrium" (the cycle :math:`\\pi_{l_1} \\to \\pi_{l_2} \\to \\pi_{l_1}`).
"""

from __future__ import annotations

import hashlib
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...guard import BASE_BYTES, Estimate, check_memory, with_roll_model
from ...policies import Mixture, as_mixture, hold_at
from ...progress import progress_bar
from ...results import Solution
from ...rules import Rules
from ...validation import (
    ConvergenceWarning,
    check_choice,
    check_int,
    check_number,
    check_progress,
    check_simultaneous_rules,
)
from ..core import Thresholds, continuation, one_blas_thread, score_levels, terminal_values

__all__ = ["SelfPlay", "self_play", "estimate_memory"]

_ORDERS = ("increasing", "decreasing")
_SWEEPS = ("gauss-seidel", "jacobi")


@dataclass(frozen=True, eq=False)
class SelfPlay(Solution):
    """Result of :func:`self_play`.

    Attributes
    ----------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
        The iteration's estimate p(i, j) after the last sweep (own score first).
    policy : numpy.ndarray of int, shape ``(goal, goal)``
        The threshold :math:`\\pi(i, j)` after the last sweep.
    iterations : int
        Sweeps run.
    residual : float
        ``max |p_t - p_{t - period}|`` at the end (the values' own convergence).
    method : str
    rules : Rules
    history : numpy.ndarray, shape ``(iterations + 1, goal, goal)``
        The policy after each sweep, ``history[0]`` the initial one.
    cycle : tuple of numpy.ndarray
        The policies on the final cycle, each ``(goal, goal)``, in the order visited (one if
        converged): the paper's :math:`\\pi_{l_1}, \\pi_{l_2}`.
    cycle_values : numpy.ndarray, shape ``(period, goal + 1, goal + 1)``
        The iteration's values p at the sweeps that produced the cycle's policies.
    period : int
        Length of the cycle (0 if no cycle was found within ``max_iter``).
    cyclic_states : tuple of (int, int)
        States whose threshold differs between the cycle's policies.
    settled : int
        The last sweep that changed a threshold outside ``cyclic_states``.
    converged : bool
        A fixed point: period 1 and ``residual <= tol``.
    value_mean_abs_diff : float
        Mean absolute difference between the first two cycle value arrays, over the
        non-terminal states (the paper's MAE).
    value_max_abs_diff : float
        The largest one.
    value_max_at : tuple of (int, int)
        Where the largest difference is.
    transitions : networkx.DiGraph
        Distinct policies (nodes: hash of the table, with ``first_seen`` sweep) and the
        observed transitions between them.
    coupling : networkx.Graph
        Cycling states, with an edge (i, j) -- (j, i) where both cycle (each one's threshold
        is the other's opponent).
    """

    history: np.ndarray
    cycle: tuple
    cycle_values: np.ndarray
    period: int
    cyclic_states: tuple
    settled: int
    converged: bool
    value_mean_abs_diff: float
    value_max_abs_diff: float
    value_max_at: tuple
    transitions: Any
    coupling: Any


@with_roll_model(name="self play")
def estimate_memory(rules: Any, *, max_iter: Any = 200) -> Estimate | None:
    """:func:`~pigtheory.simultaneous.self_play`: every sweep's policy and value is kept."""
    if not isinstance(rules, Rules) or not isinstance(max_iter, int) or max_iter < 1:
        return None
    g = rules.goal
    states = (g + 1) ** 2
    return Estimate(
        f"self-play (goal {g}, up to {max_iter} sweeps)",
        states,
        (24 * max_iter + 300) * states + 48 * g**3 + BASE_BYTES,
        "lower the goal or max_iter",
    )


def self_play(
    *,
    rules: Rules = Rules(),
    order: str = "increasing",
    sweep: str = "gauss-seidel",
    max_iter: int = 200,
    init: Any = None,
    tol: float = 1e-12,
    progress: bool | None = None,
    max_memory: Any = None,
) -> SelfPlay:
    """The paper's symmetric iteration with cycle detection: Algorithm 0.1 of Zhu, Ma, Chen &
    Liu (2023) with B's policy set to A's after every update (eq. (14)), which cycles
    (section "Mixed-strategy equilibrium").

    Parameters
    ----------
    rules : Rules
        One die, two players.
    order : {"increasing", "decreasing"}
        Order of the states in a Gauss-Seidel sweep (see Notes of the module).
    sweep : {"gauss-seidel", "jacobi"}
        Update in place (the paper's) or from the last sweep's values and policy only.
    max_iter : int
        Sweeps at most (>= 1).
    init : policy, optional
        Initial policy (pure); default ``hold_at(25)``. The initial values are 0 at every
        non-terminal state.
    tol : float
        Values at the same phase of the cycle must agree to ``tol`` to stop early; a negative
        ``tol`` runs all ``max_iter`` sweeps (the cycle is still reported).
    progress : bool, optional
        Print the sweep count to stderr (default: when stderr is a terminal).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    SelfPlay
        ``value`` ``(goal + 1, goal + 1)``, ``policy`` ``(goal, goal)``, ``history``
        ``(iterations + 1, goal, goal)`` and the cycle found.

    Examples
    --------
    >>> sp = self_play(rules=Rules(goal=10))
    >>> sp.converged, sp.period, len(sp.cyclic_states)
    (True, 1, 0)
    """
    check_number("tol", tol)
    check_memory(estimate_memory(rules, max_iter=max_iter), max_memory)
    check_simultaneous_rules(rules, players=2)
    check_choice("order", order, _ORDERS)
    check_choice("sweep", sweep, _SWEEPS)
    max_iter = check_int("max_iter", max_iter, low=1)
    check_progress(progress)
    policy = np.array(as_mixture(hold_at(25) if init is None else init, rules).full_thresholds())
    value = terminal_values(rules)
    history = [policy.copy()]
    values = [value.copy()]
    hashes = [_digest(policy)]
    period = 0
    step = _sweeper(rules, order, sweep)
    with one_blas_thread(), progress_bar(max_iter, "self-play sweeps", progress) as bar:
        for _ in range(max_iter):
            step(value, policy)
            history.append(policy.copy())
            values.append(value.copy())
            hashes.append(_digest(policy))
            bar.update(1)
            period = _tail_period(hashes, values, tol)
            if period:
                break
    if not period and tol >= 0:  # a negative tol asks for every sweep: no stopping rule to miss
        warnings.warn(
            f"self_play: no cycle within max_iter={max_iter} sweeps; run more sweeps",
            ConvergenceWarning,
            stacklevel=2,
        )
    return _result(rules, order, sweep, history, values, hashes, period, tol)


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _digest(policy: np.ndarray) -> str:
    return hashlib.blake2b(np.ascontiguousarray(policy, dtype=np.int16).tobytes(), digest_size=16).hexdigest()


def _tail_period(hashes: list[str], values: list[np.ndarray], tol: float, max_period: int = 8) -> int:
    """Smallest P such that the last 3P policies repeat with period P and the values do too."""
    n = len(hashes)
    for p in range(1, max_period + 1):
        if n < 3 * p + 1:
            break
        if all(hashes[-1 - k] == hashes[-1 - k - p] for k in range(2 * p)):
            if max(float(np.abs(values[-1 - k] - values[-1 - k - p]).max()) for k in range(p)) <= tol:
                return p
    return 0


def _sweeper(rules: Rules, order: str, sweep: str):
    """The sweep of the chosen order: a function ``step(value, policy)`` updating both in place.

    Each update is the core's Bellman step at a batch of states: the continuation against B,
    whose threshold at A's state (i, j) is A's own current ``policy[j, i]`` (a live view, so a
    Gauss-Seidel sweep sees the thresholds it has already changed), then the thresholds'
    values with the state's own value read from the last sweep (no closed-form self-loop:
    this is the paper's iteration, not backward induction), then greedy.
    """
    g = rules.goal
    own = np.arange(g)
    actions = Thresholds(rules)

    def update(value: np.ndarray, opponent: Mixture, i: np.ndarray, j: np.ndarray):
        u, _ = continuation(value, np.stack([i, j]), [opponent], g)
        return actions.best(u, i, np.zeros(i.size))

    ii, jj = np.meshgrid(own, own, indexing="ij")
    upper = ii <= jj  # includes the diagonal: B's threshold there is this sweep's old one
    lower = ~upper

    def live(policy: np.ndarray) -> Mixture:
        # thresholds produced by greedy are valid (1..goal - own): no validation needed
        return Mixture(policy[..., None], np.ones((1, 1, 1)), rules)

    def jacobi(value, policy):
        best, k = update(value, live(policy), ii.ravel(), jj.ravel())
        value[ii.ravel(), jj.ravel()] = best
        policy[ii.ravel(), jj.ravel()] = k

    def increasing(value, policy):
        opponent = live(policy)
        for mask in (upper, lower):
            i, j = ii[mask], jj[mask]
            best, k = update(value, opponent, i, j)
            # p is read only at successors (all later in this order): safe to write now.
            value[i, j] = best
            policy[i, j] = k

    levels = score_levels(g, 2)

    def decreasing(value, policy):
        opponent = live(policy)
        for _, (i0, j0) in levels:
            for sel in (i0 > j0, i0 <= j0):
                i, j = i0[sel], j0[sel]
                if i.size:
                    best, k = update(value, opponent, i, j)
                    value[i, j] = best
                    policy[i, j] = k

    if sweep == "jacobi":
        return jacobi
    return increasing if order == "increasing" else decreasing


def _result(rules, order, sweep, history, values, hashes, period, tol) -> SelfPlay:
    import networkx as nx  # here, not at import: only self-play needs it

    g = rules.goal
    graph = nx.DiGraph()
    for t, h in enumerate(hashes):
        if h not in graph:
            graph.add_node(h, first_seen=t)
        if t:
            graph.add_edge(hashes[t - 1], h)
    if period:
        # the cycle is the sequence's own last period (a policy can recur with other values)
        start = len(hashes) - period
        cycle = tuple(_readonly(h.copy()) for h in history[start : start + period])
        cycle_values = np.stack(values[start : start + period])
    else:
        cycle, cycle_values = (), np.empty((0, g + 1, g + 1))
    stack = np.stack(cycle) if cycle else np.stack(history[-2:])
    cyclic = np.any(stack != stack[0], axis=0)
    states = tuple((int(a), int(b)) for a, b in np.argwhere(cyclic))
    settled = 0
    for t in range(1, len(history)):
        if np.any((history[t] != history[t - 1]) & ~cyclic):
            settled = t
    coupling = nx.Graph()
    coupling.add_nodes_from(states)
    coupling.add_edges_from(((a, b), (b, a)) for a, b in states if cyclic[b, a] and a < b)
    if cycle_values.shape[0] >= 2:
        diff = np.abs(cycle_values[0] - cycle_values[1])[:g, :g]
        at = np.unravel_index(int(diff.argmax()), diff.shape)
        mean_d, max_d, where = float(diff.mean()), float(diff.max()), (int(at[0]), int(at[1]))
    else:
        mean_d, max_d, where = 0.0, 0.0, (0, 0)
    residual = float(np.abs(values[-1] - values[-1 - max(period, 1)]).max())
    return SelfPlay(
        value=values[-1],
        policy=history[-1],
        iterations=len(history) - 1,
        residual=residual,
        method=f"self-play ({sweep}, {order})" if sweep == "gauss-seidel" else "self-play (jacobi)",
        rules=rules,
        history=np.stack(history).astype(np.int16),
        cycle=cycle,
        cycle_values=cycle_values,
        period=period,
        cyclic_states=states,
        settled=settled,
        converged=period == 1 and residual <= tol,
        value_mean_abs_diff=mean_d,
        value_max_abs_diff=max_d,
        value_max_at=where,
        transitions=graph,
        coupling=coupling,
    )
