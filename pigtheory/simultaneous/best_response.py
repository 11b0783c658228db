"""Best response to independent opponents in simultaneous Pig (Algorithms 0.1 and 0.3).

Shapes
------
``value[i, j1, ..., j_{n-1}]``: the responding player's win probability at the start of a
turn, own score first, opponents in seat order; indices run over ``0..goal`` (``goal`` =
reached, terminal). ``policy[i, j1, ...]``: the threshold k in ``1..goal - i`` at every
non-terminal state.

Notes
-----
With the opponents' policies fixed, the player faces a Markov decision process. At state s
with own score i, holding at k gives

.. math:: q(s, k) = P(X_k = 0)\\, U_s(0) + \\sum_{r} P(X_k = k + r)\\, U_s(\\min(k + r, g - i)),

where :math:`U_s(x) = E[V(\\min(i + x, g), \\min(j + Y, g))]` averages over the opponents'
simultaneous turn Y. Every successor of s but s itself (everyone busts, probability
:math:`c_k(s) = P(X_k = 0)\\, P(Y = 0)`) has a larger score sum, so the levels of equal score
sum are solved from the top down. At each state the self-loop makes a one-state MDP: a
stationary choice of k gives :math:`a_k / (1 - c_k)`, with :math:`a_k` the value of
:math:`q(s, k)` with :math:`V(s)` set to 0, and

.. math:: V(s) = \\max_k \\frac{a_k}{1 - c_k},

exactly, with no tolerance. Ties in the argmax (within ``TIE_TOL``) go to the smallest k.

The solve is a loop over the core (:mod:`pigtheory.simultaneous.core`): score levels, the
continuation against the opponents, the action set's values with the self-loop, greedy.
Two players run the core's two-player engines (numpy batched or numba compiled, ``engine=``);
when every opponent's policy reads its own score only, more players take the separable path
of :mod:`.multiplayer`. ``method="value_iteration"`` is the paper's Algorithm 0.1 (0.3 for
more players, ``pigtheory.simultaneous._value_iteration``), kept as the paper's method and as an independent
check.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (6)-(10) and (12), Algorithm 0.1
(two players), eqs. (18)-(19) and Algorithm 0.3 (three players).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..guard import best_response_estimate, check_memory
from ..policies import Mixture
from ..results import Solution
from ..rules import Rules
from ..stopping import TurnPolicy
from ..validation import METHODS, check_choice, check_int, check_progress, check_tol
from .core import (
    ACTION_SETS,
    TIE_TOL,
    action_set,
    best_response_two,
    best_stopping_two,
    choose_engine,
    continuation,
    one_blas_thread,
    read_opponents,
    score_levels,
    terminal_values,
    turn_width,
)
from .core.stopping_rules import threshold_rules

__all__ = [
    "best_response",
    "best_response_levels",
    "best_response_stopping",
    "StoppingSolution",
    "turn_values",
]


def best_response(
    opponents: Any,
    *,
    rules: Rules = Rules(),
    method: str = "exact",
    strategies: str = "thresholds",
    tol: float = 1e-12,
    max_iter: int = 10_000,
    engine: str = "auto",
    progress: bool | None = None,
    max_memory: Any = None,
) -> Solution:
    """Optimal policy against fixed, independent opponents, and its value.

    Parameters
    ----------
    opponents : policy or list of policies
        The opponent's policy (two players) or the ``players - 1`` opponents' policies in seat
        order: ``hold_at(n)``, threshold tables (own score first), mixed policies (eq. 12).
    rules : Rules
        One die, ``rules.players`` players.
    method : {"exact", "value_iteration"}
        ``"exact"`` (default): backward induction over score sums, the self-loop in closed
        form (module Notes); no tolerance involved. ``"value_iteration"``: the paper's
        Algorithm 0.1 as written (Algorithm 0.3 for three or more players: a generic
        sweep meant as a check on small goals), sweeps until the largest change of a sweep is
        below ``tol``.
    strategies : str
        The action set: "thresholds", "hold at k" (the papers' restriction), "stopping",
        every stopping rule (any roll/hold decision per turn total; then a
        :class:`StoppingSolution`, exact only), or the name of an action set registered with
        :func:`~pigtheory.simultaneous.core.register_action_set` (exact only; the policy is the
        action set's policy kind).
    tol : float
        Value iteration: stop when the largest change of a sweep is below ``tol`` (> 0).
    max_iter : int
        Value iteration: at most this many sweeps (>= 1); if reached, a
        :class:`~pigtheory.validation.ConvergenceWarning`.
    engine : {"auto", "numba", "numpy"}
        Exact method: compiled loops or batched numpy (same answers to rounding; for two
        players the same bits); ``"auto"`` decides by the size of the solve, and for two
        players also takes numba in a warm process (:mod:`pigtheory.engine`).
    progress : bool, optional
        Value iteration: a progress bar on stderr (default: when stderr is a terminal).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    Solution
        ``value`` of shape ``(goal + 1,) * players``, ``policy`` of shape ``(goal,) * players``
        (own score first). ``iterations`` is the number of score-sum levels (exact) or sweeps
        (value iteration); ``residual`` is 0.0 (exact) or the last sweep's largest change.
        Ties in the argmax (within ``TIE_TOL``) go to the smallest threshold k.

    Raises
    ------
    ValueError
        A policy that is not one (wrong table shape, thresholds outside ``1..goal - own``,
        weights not summing to 1), the wrong number of opponents, an unknown method, engine or
        strategy class, or ``tol <= 0`` / ``max_iter < 1``.

    References
    ----------
    Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (6)-(10), (12); Algorithm 0.1
    (two players); eqs. (18)-(19) and Algorithm 0.3 (three or more players).

    Examples
    --------
    >>> sol = best_response(hold_at(3), rules=Rules(goal=6))
    >>> bool(sol.value[0, 0] > win_probability(hold_at(3), hold_at(3), rules=Rules(goal=6))[0, 0])
    True
    >>> vi = best_response(hold_at(3), rules=Rules(goal=6), method="value_iteration")
    >>> bool(abs(vi.value - sol.value).max() < 1e-10)
    True
    """
    check_memory(best_response_estimate(rules, method=method, strategies=strategies), max_memory)
    check_choice("method", method, METHODS)
    opps = read_opponents(opponents, rules)
    check_choice("strategies", strategies, tuple(ACTION_SETS))
    tol = check_tol(tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    check_choice("engine", engine, ("auto", "numba", "numpy"))
    check_progress(progress)
    if strategies == "stopping":
        if method != "exact":
            raise ValueError("method: the best response over stopping rules is 'exact' only")
        # one engine for the whole solve, by its total work: states x turn totals x faces
        work = rules.goal ** (rules.players + 1) * rules.die_faces
        chosen = choose_engine(engine, work)
        if chosen == "numba" and rules.players == 2:
            return _stopping_two(opps[0], rules)  # no action set: the kernels are the stopping step
        return best_response_stopping(opps, rules, action_set("stopping", rules, chosen))
    # thresholds: built by the level loop if it runs (the two-player engines do not need it)
    actions = None if strategies == "thresholds" else action_set(strategies, rules, engine)
    if strategies != "thresholds":  # a registered action set: the generic loop over the core
        if method != "exact":
            raise ValueError(f"method: the best response over {strategies!r} is 'exact' only")
        value, table, levels = best_response_levels(opps, rules, actions)
        wrap = getattr(actions, "policy", None)
        return Solution(value, wrap(table) if callable(wrap) else table, levels, 0.0, "exact", rules)
    if method == "value_iteration":
        from ..progress import progress_bar
        from ._value_iteration import value_iteration

        with progress_bar(max_iter, "value iteration", progress) as bar:
            value, policy, sweeps, residual = value_iteration(opps, rules, tol, max_iter, TIE_TOL, bar)
        return Solution(value, policy, sweeps, residual, "value_iteration", rules)
    if rules.players == 2:
        value, policy = best_response_two(opps[0], rules, TIE_TOL, engine)
        return Solution(value, policy, 2 * rules.goal - 1, 0.0, "exact", rules)
    from .nplayer.reduced import reduced_best_response, separable

    if separable(opps, rules):
        return reduced_best_response(opps, rules=rules, engine=engine, progress=progress).expand()
    g, n = rules.goal, rules.players
    if all(isinstance(o, Mixture) for o in opps):
        # states x own gains x the opponents' joint outcomes (w + 1 each)
        work = g**n * (g / 2) * (turn_width(rules) + 1) ** (n - 1)
        if choose_engine(engine, work) == "numba":
            from .nplayer.general import best_response_general, opponent_arrays

            value, policy = best_response_general(opponent_arrays(opps, rules), rules, TIE_TOL)
            value.setflags(write=False)
            policy.setflags(write=False)
            return Solution(value, policy, n * (g - 1) + 1, 0.0, "exact", rules)
    value, policy, levels = best_response_levels(opps, rules, actions)
    return Solution(value, policy, levels, 0.0, "exact", rules)


def best_response_levels(
    opponents: Sequence[TurnPolicy], rules: Rules, actions: Any = None
) -> tuple[np.ndarray, np.ndarray, int]:
    """The generic exact best response: ``(value, policy, levels)``, any opponents.

    One loop over the core: for every score level from the top, the continuation against the
    opponents, then the action set's best action with the self-loop in closed form. The
    reference for every faster path. The Bellman equation solved is Zhu, Ma, Chen & Liu
    (2023) eqs. (6)-(7) and (12) (eq. (18) for more players), solved exactly instead of by
    Algorithm 0.1's sweeps.

    Parameters
    ----------
    opponents : sequence of Mixture or RuleMixture
        The ``players - 1`` opponents' policies as the solvers read them
        (:func:`~pigtheory.simultaneous.core.read_opponents`), in seat order.
    rules : Rules
    actions : action set, optional
        Default: the thresholds ``1..goal - own``
        (:func:`~pigtheory.simultaneous.core.action_set`).

    Returns
    -------
    value : numpy.ndarray, shape ``(goal + 1,) * players``
        Win probability at the start of a turn, own score first (terminal states included).
    policy : numpy.ndarray of int, shape ``(goal,) * players``
        The best threshold at every non-terminal state.
    levels : int
        Score levels solved, ``players * (goal - 1) + 1``.
    """
    g, n = rules.goal, rules.players
    actions = action_set("thresholds", rules) if actions is None else actions
    value = terminal_values(rules)
    policy = np.zeros((g,) * n, dtype=np.int64)
    levels = score_levels(g, n)
    for _, states in levels:
        u, opp_bust = continuation(value, states, opponents, g)
        best, k = actions.best(u, states[0], opp_bust)
        value[tuple(states)] = best
        policy[tuple(states)] = k
    value.setflags(write=False)
    policy.setflags(write=False)
    return value, policy, len(levels)


@dataclass(frozen=True, eq=False)
class StoppingSolution(Solution):
    """Best response over every stopping rule (``strategies="stopping"``).

    Attributes
    ----------
    value : numpy.ndarray, shape ``(goal + 1,) * players``
        The best response's win probability (as for thresholds).
    policy : StoppingRule
        ``policy.roll[state..., t]``: roll at turn total t.
    iterations : int
        Score levels.
    residual : float
        0.0 (exact).
    method : str
        ``"exact"``.
    rules : Rules
    threshold_value : numpy.ndarray, shape ``(goal,) * players``
        At each state, the best *threshold*'s value against the same continuation (the
        stopping-rule values of the later states): what restricting this one state to
        "hold at k" would leave.
    threshold_policy : numpy.ndarray of int, shape ``(goal,) * players``
        That threshold.
    non_threshold : numpy.ndarray of bool, shape ``(goal,) * players``
        States where the optimal rule is not "hold at k" for any k.
    gain : numpy.ndarray, shape ``(goal,) * players``
        ``value - threshold_value`` (>= 0; > 0 only where the optimum beats every threshold).
    """

    threshold_value: np.ndarray
    threshold_policy: np.ndarray
    non_threshold: np.ndarray
    gain: np.ndarray

    @property
    def non_threshold_states(self) -> tuple[tuple[int, ...], ...]:
        """The states of :attr:`non_threshold`, in lexicographic order."""
        return tuple(tuple(int(x) for x in s) for s in np.argwhere(self.non_threshold))


def _stopping_two(opp: Any, rules: Rules) -> StoppingSolution:
    """Two players, compiled: the stopping kernels of the core fuse the continuation and the
    optimal stopping at each state."""

    g = rules.goal
    value, roll, t_value, t_policy, passes = best_stopping_two(opp, rules)
    return _stopping_solution(
        value, roll, t_value, t_policy, 2 * g - 1, rules, settled=passes == 1, judge_rules=threshold_rules
    )


def _stopping_solution(
    value: np.ndarray,
    roll: np.ndarray,
    t_value: np.ndarray,
    t_policy: np.ndarray,
    levels: int,
    rules: Rules,
    settled: np.ndarray | None = None,
    judge_rules: Any = None,
) -> StoppingSolution:
    """The result of either path: where the best rule is no threshold, and its gain there.
    ``settled`` marks states whose rule is known to be "hold at ``t_policy``" (the compiled
    path's first pass changed nothing there); only the others are judged, by ``judge_rules``
    (:func:`~pigtheory.stopping.is_threshold_rule` or its compiled twin)."""
    from ..stopping import StoppingRule, is_threshold_rule

    g, n = rules.goal, rules.players
    own = np.indices((g,) * n)[0].ravel()
    non_threshold = np.zeros((g,) * n, dtype=bool)
    judge = np.arange(own.size) if settled is None else np.flatnonzero(~settled.ravel())
    rows = roll.reshape(-1, g)
    if judge.size:
        # A rule that rolls below its best threshold k and holds on k .. k + (largest gain) - 1
        # never reaches a higher total (where the pass may have changed it): it plays as hold
        # at k. Only the others need is_threshold_rule's walk over the totals they reach.
        k = t_policy.reshape(-1)[judge][:, None]
        t = np.arange(g)[None, :]
        live = (t >= 1) & (t < g - own[judge][:, None]) & (t < k + int(rules.roll_arrays()[1].max()))
        plays = ~((rows[judge] != (t < k)) & live).any(axis=1)
        judge = judge[~plays]
    non_threshold.ravel()[judge] = ~(judge_rules or is_threshold_rule)(rows[judge], own[judge], rules)
    gain = value[(slice(0, g),) * n] - t_value
    best = StoppingRule(roll, "best response over stopping rules")
    return StoppingSolution(value, best, levels, 0.0, "exact", rules, t_value, t_policy, non_threshold, gain)


def best_response_stopping(opponents: Sequence[Any], rules: Rules, actions: Any = None) -> StoppingSolution:
    """Exact best response over every stopping rule (any number of players, any opponents).

    A loop over the core: for every score level from the top, the continuation against the
    opponents, then the optimal stopping rule at each state with the self-loop solved by
    policy iteration (:mod:`pigtheory.simultaneous.core.stopping_rules`), started from the best
    threshold's value. The papers restrict strategies to "hold at k"; this action set is an
    extension, with no equation of its own there (the continuation is still eq. (7) / (18) of
    Zhu, Ma, Chen & Liu 2023).

    Parameters
    ----------
    opponents : sequence of policies
        The ``players - 1`` opponents' policies as the solvers read them, in seat order.
    rules : Rules
    actions : action set, optional
        Default: ``action_set("stopping", rules)``.

    Returns
    -------
    StoppingSolution
        ``value`` of shape ``(goal + 1,) * players``; ``policy.roll`` of shape
        ``(goal,) * players + (goal,)``.
    """
    g, n = rules.goal, rules.players
    actions = action_set("stopping", rules) if actions is None else actions
    value = terminal_values(rules)
    roll = np.zeros((g,) * n + (g,), dtype=bool)
    t_value = np.zeros((g,) * n)
    t_policy = np.zeros((g,) * n, dtype=np.int64)
    levels = score_levels(g, n)
    with one_blas_thread():
        for _, states in levels:
            u, opp_bust = continuation(value, states, opponents, g)
            best, rows, tv, k = actions.best_and_threshold(u, states[0], opp_bust)
            at = tuple(states)
            value[at] = best
            roll[at] = rows
            t_value[at], t_policy[at] = tv, k
    return _stopping_solution(value, roll, t_value, t_policy, len(levels), rules)


def turn_values(value: np.ndarray, opponent: Any, i: int, j: int, *, rules: Rules) -> dict[str, np.ndarray]:
    """Hold and roll values at every turn total of the responder's turn at state (i, j).

    What a person deciding roll by roll sees: against a fixed opponent, with the responder's
    start-of-turn values ``value`` (those of the best stopping rule,
    ``best_response(opponent, rules=rules, strategies="stopping").value``), the value of holding
    and of rolling once more at every turn total of one turn.

    Parameters
    ----------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
        The responder's values at the start of a turn, own score first (``goal``: reached).
    opponent : policy
        The opponent's policy (anything :func:`pigtheory.as_mixture` reads).
    i, j : int
        The scores at the start of the turn, responder first.
    rules : Rules
        Two players.

    Returns
    -------
    dict of numpy.ndarray, each of length ``goal - i + 1`` over the turn total t
        ``"hold"``: the win probability of holding with t points (``u(t)``; t = 0 is a bust);
        ``"roll"``: of rolling once more and then playing best (NaN from ``t = goal - i``);
        ``"best"``: ``Q(t)``, the larger of the two where both are allowed.

    Notes
    -----
    With ``u(t)`` the continuation of holding with turn total t against the opponent (Zhu, Ma,
    Chen & Liu 2023, eqs. (7)-(9) and (12); ``u(0)`` counts the state's own value), the value of
    the best play from turn total t is

    .. math:: Q(t) = \\max\\Big(u(t),\\; p_1\\, u(0) + \\sum_g p_g\\, Q(\\min(t + g, r))\\Big),
              \\qquad Q(r) = u(r), \\qquad Q(0) = V(i, j)

    (r = goal - i; no holding at t = 0). Ties hold (within ``TIE_TOL``).

    References
    ----------
    Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), eqs. (6)-(12).
    """
    from .core.stopping_rules import roll_distribution_arrays

    if rules.players != 2:
        raise ValueError(f"rules.players must be 2 here, got {rules.players}")
    g = rules.goal
    check_int("i", i, low=0, high=g - 1)
    check_int("j", j, low=0, high=g - 1)
    mix = read_opponents(opponent, rules)
    states = np.array([[i], [j]])
    u = continuation(value, states, mix, g)[0][0]
    room = g - i
    p_bust, gains, probs = roll_distribution_arrays(rules)
    best = np.empty(room + 1)
    roll = np.full(room + 1, np.nan)
    best[room] = u[room]
    for t in range(room - 1, -1, -1):
        roll[t] = p_bust * u[0] + sum(
            p * best[min(t + gain, room)] for gain, p in zip(gains.tolist(), probs.tolist(), strict=True)
        )
        best[t] = roll[t] if (t == 0 or roll[t] > u[t] + TIE_TOL) else u[t]
    return {"hold": u[: room + 1].copy(), "roll": roll, "best": best}
