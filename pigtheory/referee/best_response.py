"""The exact best response of one seat to fixed sequential policies, and the exploitability,
NashConv and regret of a profile.

Shapes
------
``BestResponse.value[i, j, k]``: the responder's score when it is to move at own score i, the
opponent's j, turn total k; ``policy[i, j, k]`` True where it rolls (no horizon; with one, the
best response depends on the moves left and only its values are returned).

Notes
-----
Against fixed opponents the responder faces a Markov decision process. Its Bellman equation is
that of :mod:`pigtheory.referee.evaluate` with the responder's average of roll and hold replaced
by their maximum; on each level of equal score sum the responder's start value is a convex,
piecewise affine function of its partner state's start value, and policy iteration on the pair
gives the exact fixed point (:mod:`.kernels`). Ties go to holding for ``k >= 1`` and to rolling
at ``k = 0``, as in :func:`pigtheory.sequential.solve`.

With n >= 3 players the responder's MDP is solved by the kernel of the NashConv certificate of
:func:`pigtheory.sequential.equilibrium` (:func:`pigtheory.sequential.multiplayer.profile_kernels.profile_response_level`):
rotation groups of score tuples from the highest score sum down, the others' turns affine maps
of the responder's value, its own turn a one-dimensional fixed point solved by policy
iteration. ``value`` and ``policy`` then have shape ``(goal,) * (players + 1)``, the scores in
turn order from the responder; a game that never ends counts ``1/n`` (a draw). With a horizon
the responder maximises layer by layer over the moves left
(:func:`pigtheory.sequential.pair_kernels.horizon_n`); ``value`` is then its score with all ``horizon``
moves left.

NashConv is the sum over seats of what a best response gains over the profile,
:math:`\\sum_p (\\max_{\\pi'_p} v_p(\\pi'_p, \\pi_{-p}) - v_p(\\pi))`, and the exploitability here
its mean over seats, in win probability (a draw counting 1/n). OpenSpiel's ``exploitability``
measures the same in its returns (win 1, loss ``-1/(n - 1)``): ``nash_conv / (n - 1)``, twice
ours for two players.

References
----------
M. Lanctot et al., "A unified game-theoretic approach to multiagent reinforcement learning",
NeurIPS 2017 (NashConv); M. L. Puterman, *Markov Decision Processes* (1994), ch. 6 (policy
iteration).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..games.policy_tables import check_referee_rules, read_profile, roll_probabilities
from ..guard import check_memory
from ..results import Exploitability, Result
from ..rules import Rules
from ..sequential import pair_kernels as kernels
from ..validation import ConvergenceWarning, check_int
from .evaluate import (
    _dead,
    _dead_n,
    _evaluate_horizon_n,
    _evaluate_n,
    _evaluate_tables,
    _horizon_estimate,
    _horizon_seat,
    _model,
    check_horizon,
    evaluate,
    referee_estimate,
)

__all__ = ["BestResponse", "Exploitability", "best_response", "exploitability", "nash_conv", "regret"]


@dataclass(frozen=True, eq=False)
class BestResponse(Result):
    """The best response of one seat (see the module docstring).

    Attributes
    ----------
    value : numpy.ndarray, shape ``(goal, goal, goal)``
        The responder's score when it is to move at (i, j, k) (NaN where ``i + k >= goal``).
    policy : numpy.ndarray of bool or None
        ``policy[i, j, k]``: the responder rolls; None with a horizon (the best response then
        depends on the moves left).
    value_start : float
        The responder's score from the start of the game in its seat (``start`` is its
        deprecated old name; :class:`~pigtheory.simulate.Simulation`'s ``start`` is the
        starting scores).
    seat : int
    iterations : int
        Policy-iteration passes (no horizon) or layers of moves left.
    residual : float
        0.0 (exact up to rounding).
    method : str
    rules : Rules
    horizon : int or None
    """

    value: np.ndarray
    policy: Any
    value_start: float
    seat: int
    iterations: int
    residual: float
    method: str
    rules: Rules
    horizon: int | None

    @classmethod
    def _legacy_fields(cls, fields: dict[str, Any]) -> dict[str, Any]:
        """A file saved before ``start`` was renamed ``value_start``."""
        return {("value_start" if k == "start" else k): v for k, v in fields.items()}


def _check_seat(seat: Any, rules: Rules) -> int:
    return check_int("seat", seat, low=0, high=rules.players - 1)


def best_response(
    profile: Any,
    *,
    seat: int = 0,
    rules: Rules = Rules(),
    horizon: int | None = None,
    max_iter: int = 100,
    max_memory: Any = None,
) -> BestResponse:
    """The exact best response of ``seat`` to the other seats' fixed policies.

    Parameters
    ----------
    profile : policy or list of policies
        One policy for every seat or one per seat (the responder's own entry is ignored).
    seat : int
        The responding seat, ``0..players - 1`` (seat 0 moves first).
    rules : Rules
        One die, 2..10 players.
    horizon : int, optional
        OpenSpiel's move limit (a draw counts ``1/players``); None: no limit. Any number of
        players (the best response then depends on the moves left: ``policy`` is None).
    max_iter : int
        Policy-iteration passes per pair of states (>= 1); a pair that needs more warns with
        :class:`~pigtheory.validation.ConvergenceWarning` (three at most are seen at goal 100).
    max_memory : int or str, optional

    Returns
    -------
    BestResponse

    Examples
    --------
    >>> from pigtheory import hold_at, sequential
    >>> from pigtheory.referee import best_response, evaluate
    >>> br = best_response(hold_at(20), seat=0, rules=Rules(goal=30))
    >>> opt = sequential.solve(rules=Rules(goal=30))
    >>> bool(br.value_start > evaluate([opt, hold_at(20)], rules=Rules(goal=30)).value_start[0] - 1e-12)
    True
    """
    check_referee_rules(rules)
    horizon = check_horizon(horizon)
    seat = _check_seat(seat, rules)
    max_iter = check_int("max_iter", max_iter, low=1, high=10**6)
    if rules.players > 2 and horizon is not None:
        check_memory(_horizon_estimate(rules, horizon, targets=1), max_memory)
    check_memory(referee_estimate(rules), max_memory)
    tables = read_profile(profile, rules)
    if rules.players > 2:
        if horizon is not None:
            return _best_response_horizon_n(tables, seat, rules, horizon)
        return _best_response_n(tables, seat, rules, max_iter, turns=True)
    return _best_response(tables, seat, rules, horizon, max_iter)


def _best_response_n(tables: list[np.ndarray], seat: int, rules: Rules, max_iter: int, *, turns: bool):
    """n >= 3 players: the deviator's MDP by the multiplayer certificate's kernel (``_multiplayer``)."""
    from ._multiplayer import seat_turns, seat_values, stack_tables

    probs = stack_tables(tables, rules)
    U, out = seat_values(probs, seat, rules, follow=False, draw=1.0 / rules.players, max_iter=max_iter)
    if out[1]:
        warnings.warn(
            f"best response: {int(out[1])} turn(s) still changed choices after max_iter={max_iter} passes",
            ConvergenceWarning,
            stacklevel=3,
        )
    value: Any = None
    policy: Any = None
    if turns:
        value, policy = seat_turns(probs, seat, rules, U, follow=False)
    start = float(U[0, seat])
    return BestResponse(value, policy, start, seat, int(out[0]), 0.0, "exact", rules, None)


def _best_response_horizon_n(tables: list[np.ndarray], seat: int, rules: Rules, horizon: int) -> BestResponse:
    """Any number of players with OpenSpiel's horizon: the responder maximises its score (a draw
    worth ``1/n``) layer by layer over the moves left (:func:`pigtheory.sequential.pair_kernels.horizon_n`)."""
    from ._multiplayer import stack_tables

    n, g = rules.players, rules.goal
    probs = stack_tables(tables, rules)
    cur = _horizon_seat(probs, rules, horizon, seat, True, 1.0 / n)
    value = cur[seat].reshape((g,) * (n + 1))
    value[_dead_n(rules)] = np.nan
    return BestResponse(value, None, float(cur[0, 0, 0]), seat, horizon, 0.0, "exact-horizon", rules, horizon)


def _best_response(
    tables: list[np.ndarray], seat: int, rules: Rules, horizon: int | None, max_iter: int, full: bool = True
):
    """The best response of ``seat``; ``full=False``: its start value only (``value`` and
    ``policy`` are then scratch buffers, not filled at dead states)."""
    g = rules.goal
    pvec, p_bust = _model(rules)
    opp = np.ascontiguousarray(tables[1 - seat], dtype=np.float64)
    if horizon is None:
        w0 = np.empty((g, g, g))
        w1 = np.empty((g, g, g))
        choice = np.zeros((g, g, g), dtype=np.bool_) if full else np.empty((g, g, g), dtype=np.bool_)
        out = np.zeros(2)
        kernels.pair()(g, kernels.Die(pvec, p_bust), opp, opp, 1.0, 0.0, True, max_iter, w0, w1, choice, out)
        if out[1]:
            warnings.warn(
                f"best response: {int(out[1])} pair(s) of states still changed choices after "
                f"max_iter={max_iter} passes",
                ConvergenceWarning,
                stacklevel=3,
            )
        value = w0
        start = float(w0[0, 0, 0] if seat == 0 else w1[0, 0, 0])
        policy: Any = choice
        iterations, method = int(out[0]), "exact"
    else:
        # seat 0's score (win + draw / 2); seat 0 maximises it or seat 1 minimises it
        v0 = np.zeros((g, g, g))
        v1 = np.zeros((g, g, g))
        r = [np.ascontiguousarray(t, dtype=np.float64) for t in tables]
        kernels.run_horizon_layers(
            g, horizon, kernels.Die(pvec, p_bust), r[0], r[1], 1.0, 0.0, 0.5, 1 + seat, v0, v1
        )
        if seat == 0:
            value, start = v0, float(v0[0, 0, 0])
        else:
            value, start = 1.0 - v1, float(1.0 - v0[0, 0, 0])
        policy, iterations, method = None, horizon, "exact-horizon"
    if full:
        value = np.array(value)
        value[_dead(g)] = np.nan
    return BestResponse(value, policy, start, seat, iterations, 0.0, method, rules, horizon)


def exploitability(
    profile: Any,
    *,
    rules: Rules = Rules(),
    horizon: int | None = None,
    max_memory: Any = None,
    horizon_tol: float = 1e-12,
) -> Exploitability:
    """Each seat's best-response gain against a profile, their sum (NashConv) and mean.

    Parameters
    ----------
    profile : policy or list of policies
        One policy for every seat (self-play) or one per seat.
    rules : Rules
        One die, 2..10 players.
    horizon : int, optional
        OpenSpiel's move limit; None: no limit. Any number of players. The exact answer with a
        horizon H solves layers over the moves left, ``H goal^3 / 2 x faces`` decisions per
        solve and four solves with two players: about 100 s at goal 100 with OpenSpiel's
        ``pig`` (H = 1000), under a progress bar on a terminal. Two players: see ``horizon_tol``.
    max_memory : int or str, optional
    horizon_tol : float
        Two players with a horizon: where a bound valid for every policy shows that the horizon
        changes every number by at most ``horizon_tol`` (the chance that a game lasts more than
        ``horizon`` moves, whatever the responder plays, :func:`~pigtheory.referee.horizon.unfinished_bound`;
        about 1 s at goal 100),
        the numbers are those without the horizon, computed in milliseconds, and a
        :class:`~pigtheory.referee.horizon.HorizonNote` warning says so and gives the bound.
        0 always solves the horizon exactly.

    Returns
    -------
    Exploitability
        Never negative beyond rounding: the best response includes the profile's own policy.

    Notes
    -----
    The fast path with a horizon H (two players): a game not over after H moves is a draw
    (1/2) with the horizon and ends with some score in [0, 1] without it, so for every
    responder policy the two scores differ by at most ``epsilon / 2``, epsilon the chance
    that the game outlasts H against the fixed seat; so do the best responses' values and the
    profile's own. Each gain, and so the exploitability, moves by at most ``epsilon``; NashConv
    by at most ``2 epsilon`` (plus the solvers' rounding, about 1e-15). The bound holds for
    every responder, including one that stalls (passes for ever once it leads), so it is small
    only where the fixed seat itself makes steady progress whatever the score: at goal 100 with
    H = 1000 it is 5e-13 against "hold at 20" (the fast path: about 1 s instead of about 100 s),
    2e-5 against OpenSpiel's uniform random policy and shows nothing against the optimal policy,
    which plays for the win in one turn when far behind (the horizon is then solved).

    Examples
    --------
    >>> from pigtheory import sequential
    >>> from pigtheory.referee import exploitability
    >>> r = Rules(goal=20)
    >>> round(exploitability(sequential.solve(rules=r), rules=r).nash_conv, 12)
    0.0
    """
    check_referee_rules(rules)
    horizon = check_horizon(horizon)
    n = rules.players
    if n > 2 and horizon is not None:
        check_memory(_horizon_estimate(rules, horizon, targets=2 * n), max_memory)
    check_memory(referee_estimate(rules), max_memory)
    horizon_tol = check_horizon_tol(horizon_tol)
    tables = [np.ascontiguousarray(t, dtype=np.float64) for t in read_profile(profile, rules)]
    if n == 2 and horizon is not None and horizon_tol > 0.0:
        from .horizon import HorizonNote, unfinished_bound

        bound = unfinished_bound(tables[1], rules, horizon)  # seat 0 responding
        if bound <= horizon_tol:
            bound = max(bound, unfinished_bound(tables[0], rules, horizon))
        if bound <= horizon_tol:
            warnings.warn(
                f"exploitability: horizon={horizon} changes no number by more than {bound:.1e} (the "
                f"chance that a game outlasts it, for any best response, is at most that): computed "
                f"without the horizon; horizon_tol=0 solves it exactly",
                HorizonNote,
                stacklevel=2,
            )
            ev = _evaluate_tables(tables[0], tables[1], rules, None)
            br = np.array(
                [_best_response(tables, p, rules, None, 100, full=False).value_start for p in range(2)]
            )
            return Exploitability.of(ev.value_start, br, rules, horizon)  # the question asked
    if n > 2 and horizon is not None:
        ev = _evaluate_horizon_n(tables, rules, horizon)
        br = np.array([_best_response_horizon_n(tables, p, rules, horizon).value_start for p in range(n)])
    elif n > 2:
        ev = _evaluate_n(tables, rules, full=False)
        br = np.array([_best_response_n(tables, p, rules, 200, turns=False).value_start for p in range(n)])
    else:
        ev = _evaluate_tables(tables[0], tables[1], rules, horizon)
        br = np.array(
            [_best_response(tables, p, rules, horizon, 100, full=False).value_start for p in range(2)]
        )
    return Exploitability.of(ev.value_start, br, rules, horizon)


def check_horizon_tol(horizon_tol: Any) -> float:
    """``horizon_tol`` as a float in [0, 1] (a ``ValueError`` naming it otherwise)."""
    try:
        tol = float(horizon_tol)
    except (TypeError, ValueError):
        tol = float("nan")
    if isinstance(horizon_tol, bool) or not 0.0 <= tol <= 1.0:
        raise ValueError(f"horizon_tol must be a number in [0, 1], got {horizon_tol!r}")
    return tol


def nash_conv(profile: Any, *, rules: Rules = Rules(), horizon: int | None = None) -> float:
    """The sum over seats of the best-response gains (:func:`exploitability`'s ``nash_conv``).

    Parameters
    ----------
    profile : policy or list of policies
    rules : Rules
    horizon : int, optional

    Returns
    -------
    float
    """
    return exploitability(profile, rules=rules, horizon=horizon).nash_conv


def regret(policy: Any, *, rules: Rules = Rules(), optimum: Any = None) -> float:
    """What a policy concedes to optimal play: 1/2 minus its mean win probability against the
    optimum over both seats (Neller & Presser's measure: "t scoring turns concedes 3.3%").

    Parameters
    ----------
    policy : policy
        Any policy :func:`~pigtheory.referee.roll_probabilities` reads.
    rules : Rules
        One die, two players.
    optimum : policy, optional
        The optimal policy if already solved (default: :func:`pigtheory.sequential.solve`).

    Returns
    -------
    float
        ``>= 0`` up to rounding, 0 for an optimal policy.

    Examples
    --------
    >>> from pigtheory import hold_at
    >>> round(2 * regret(hold_at(20), rules=Rules(goal=100)), 3)  # the slides' "8.0%" advantage
    0.08
    """
    check_referee_rules(rules, players=2)
    if optimum is None:
        from ..sequential import solve

        optimum = solve(rules=rules)
    mine = roll_probabilities(policy, rules)
    best = roll_probabilities(optimum, rules)
    first = evaluate([mine, best], rules=rules).value_start[0]
    second = evaluate([best, mine], rules=rules).value_start[1]
    return float(0.5 - (first + second) / 2)
