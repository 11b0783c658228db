"""Exact evaluation of a profile of sequential policies: every seat's win probability, from the
start and from every state, with or without OpenSpiel's move horizon.

Shapes
------
``value[p, i, j, k]``: seat p's score (win probability, plus the draw probability divided by the
number of players) when seat p is to move with own score i, the other's score j and turn total
k (NaN where ``i + k >= goal``); with n players ``value[p, t_0, ..., t_{n-1}, k]``, the scores
seen by seat p in turn order (:mod:`pigtheory.games.policy_tables`). ``start[p]``: seat p's score from the start of
the game, seat 0 moving first. A draw is a game that reaches the horizon (or, without a horizon,
one that never ends: both seats passing for ever).

Notes
-----
With both policies fixed, P(seat 0 wins) solves the linear equations

.. math::

    x_0(i, j, k) = r_0 \\Big(p_1\\, x_1(j, i, 0) + \\sum_g p_g\\, x_0(i, j, k + g)\\Big)
                   + (1 - r_0)\\, x_1(j, i + k, 0),

(``x_0(i, j, k + g) = 1`` once ``i + k + g >= goal``; at ``k = 0`` stopping passes the turn) and
the same for seat 1 to move. Scores never decrease, so the score sums are solved from the end of
the game backwards, each pair of start values by a 2 x 2 system (:mod:`.kernels`): exact up to
rounding, no iteration. With OpenSpiel's ``horizon`` the state also carries the moves left and
the layers are computed in order of it (:func:`pigtheory.sequential.pair_kernels.horizon_layers`).

With n >= 3 players the state is the tuple of scores in turn order from the mover and the turn
total; with one seat's value as the unknown, the rotation groups of score tuples are solved from
the highest score sum down by the kernel of the NashConv certificate of
:func:`pigtheory.sequential.equilibrium`
(:func:`pigtheory.sequential.multiplayer.profile_kernels.profile_response_level`), once per seat, with the
per-seat tables of roll probabilities: exact up to rounding, ``O(n^3 goal^(n+1) w)`` work.
With OpenSpiel's horizon and n >= 3 players the state also carries the moves left and the
mover's seat: the layers over the moves left run once per seat for its win probability
(:func:`pigtheory.sequential.pair_kernels.horizon_n`), ``O(n^2 H goal^(n+1) w)`` work, checked against
``MAX_HORIZON_WORK`` and the memory limit before it starts; the draw is what no seat wins.

References
----------
Neller & Presser, "Optimal play of the dice game Pig", UMAP Journal 25 (2004) (the equations);
Neller & Presser, slides "Policy Comparison" (Algorithm 1), here solved exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..games.policy_tables import check_referee_rules, read_profile
from ..guard import Estimate, check_memory
from ..results import Result
from ..rules import Rules
from ..sequential import pair_kernels as kernels
from ..validation import check_int

__all__ = ["Evaluation", "evaluate", "check_horizon", "referee_estimate"]


@dataclass(frozen=True, eq=False)
class Evaluation(Result):
    """Exact evaluation of a profile (see the module docstring for the shapes).

    Attributes
    ----------
    value : numpy.ndarray, shape ``(players,) + (goal,) * (players + 1)``
        ``value[p, i, j, k]``: seat p's score when it is to move at (i, j, k) (with a horizon: at
        the start of the game's move count, i.e. with all ``horizon`` moves left); n players:
        ``value[p, t_0, ..., t_{n-1}, k]``.
    value_start : numpy.ndarray, shape ``(players,)``
        Each seat's score from the start (win probability + draw / players); they sum to 1
        (``start`` is its deprecated old name).
    wins : numpy.ndarray, shape ``(players,)``
        Each seat's win probability from the start (named as :class:`~pigtheory.simulate.Simulation`'s
        and ``MultiplayerGames``' Monte Carlo shares; ``win`` is its deprecated old name).
    draw : float
        The probability that the game reaches the horizon (or never ends).
    iterations : int
        Score levels (no horizon; ``n (goal - 1) + 1`` score sums with n players) or layers of
        moves left (with one).
    residual : float
        0.0: exact up to rounding.
    method : str
        ``"exact"`` or ``"exact-horizon"``.
    rules : Rules
    horizon : int or None
        OpenSpiel's move limit, None for the game without one.
    """

    value: np.ndarray
    value_start: np.ndarray
    wins: np.ndarray
    draw: float
    iterations: int
    residual: float
    method: str
    rules: Rules
    horizon: int | None

    @classmethod
    def _legacy_fields(cls, fields: dict[str, Any]) -> dict[str, Any]:
        """A file saved before ``win`` and ``start`` were renamed ``wins`` and ``value_start``."""
        old = {"win": "wins", "start": "value_start"}
        return {old.get(k, k): v for k, v in fields.items()}

    @property
    def openspiel_returns(self) -> np.ndarray:
        """Each seat's expected return in OpenSpiel's units (win 1, loss ``-1/(n-1)``, draw 0)."""
        n = self.rules.players
        return (n * self.value_start - 1.0) / (n - 1)


MAX_HORIZON = 10**6
"""Longest move limit the referee solves exactly (its work grows with the horizon)."""


def check_horizon(horizon: Any) -> int | None:
    """``horizon=``: None (no move limit) or an int >= 1."""
    return None if horizon is None else check_int("horizon", horizon, low=1, high=MAX_HORIZON)


def referee_estimate(rules: Any, *, tables: int = 8) -> Estimate | None:
    """Memory of a referee solve: ``tables`` float tables of ``goal**(players + 1)`` states."""
    if not isinstance(rules, Rules) or rules.players > 64:
        return None  # the solver's own check refuses more seats than the referee has
    states = rules.goal ** (rules.players + 1)
    return Estimate(f"referee ({rules})", states, 8 * tables * states + 10**6, "lower the goal")


MAX_HORIZON_WORK = 2 * 10**10
"""Most decisions (states x moves left x target seats) an n-player horizon solve may take."""


def _horizon_estimate(rules: Rules, horizon: int, *, targets: int) -> Estimate:
    """Memory of an n-player horizon solve (two layers of every mover's states, the values and
    their sum: ``5 n goal^(n+1)`` floats), after refusing one whose work ``targets x horizon x
    n goal^(n+1)`` decisions is above ``MAX_HORIZON_WORK`` (a ``ValueError`` on ``horizon``)."""
    n, g = rules.players, rules.goal
    states = n * g ** (n + 1)
    work = targets * horizon * states
    if work > MAX_HORIZON_WORK:
        raise ValueError(
            f"horizon: {n} players, goal {g} with horizon={horizon} is {work:.1e} decisions of work "
            f"({states:,} states x {horizon} moves left x {targets} seat(s)), above the limit of "
            f"{MAX_HORIZON_WORK:.0e}; lower the horizon or the goal"
        )
    return Estimate(f"referee with horizon ({rules})", states, 8 * 5 * states + 10**6, "lower the goal")


def _model(rules: Rules) -> tuple[np.ndarray, float]:
    """``(pvec, p_bust)``: the kernels' :class:`~pigtheory.sequential.pair_kernels.Die`."""
    return kernels.die(rules)


def evaluate(
    profile: Any, *, rules: Rules = Rules(), horizon: int | None = None, max_memory: Any = None
) -> Evaluation:
    """Every seat's exact win probability under a fixed profile of sequential policies.

    Parameters
    ----------
    profile : policy or list of policies
        One policy for every seat or one per seat in seat order (seat 0 moves first): tables,
        callables ``f(i, j, k) -> P(roll)``, pigtheory policies, OpenSpiel policies
        (:mod:`pigtheory.games.policy_tables`); stochastic policies are evaluated exactly.
    rules : Rules
        One die, 2..10 players (``rules.players``).
    horizon : int, optional
        OpenSpiel's ``horizon``: every roll and every stop is a move, and a game whose last move
        is not a win is a draw. None: no limit (pigtheory's game; OpenSpiel's with an
        unreachable horizon). Any number of players (a draw is worth ``1/players``).
    max_memory : int or str, optional
        Refuse the solve before it starts if its estimated memory is above this size.

    Returns
    -------
    Evaluation

    Notes
    -----
    Without a horizon: backward induction over score sums with each pair of start values from a
    2 x 2 linear system (module Notes), ``O(goal^3 w)`` for w faces. With a horizon H: layers
    over the moves left, ``O(H goal^3 w)`` work and ``O(goal^3)`` memory. With n >= 3 players:
    the rotation groups of the multiplayer solver, one pass per seat (module Notes); with a
    horizon, the layers over the moves left once per seat, ``O(n^2 H goal^(n+1) w)`` work and
    ``O(n goal^(n+1))`` memory.

    Examples
    --------
    >>> from pigtheory import sequential
    >>> from pigtheory.referee import evaluate
    >>> ev = evaluate(sequential.solve(rules=Rules.piglet(goal=2)), rules=Rules.piglet(goal=2))
    >>> [round(float(x), 6) for x in ev.value_start]  # Neller & Presser's 4/7
    [0.571429, 0.428571]
    """
    check_referee_rules(rules)
    horizon = check_horizon(horizon)
    if rules.players > 2 and horizon is not None:
        check_memory(_horizon_estimate(rules, horizon, targets=rules.players), max_memory)
    check_memory(referee_estimate(rules), max_memory)
    tables = read_profile(profile, rules)
    if rules.players > 2:
        if horizon is not None:
            return _evaluate_horizon_n(tables, rules, horizon)
        return _evaluate_n(tables, rules)
    r0, r1 = (np.ascontiguousarray(t, dtype=np.float64) for t in tables)
    return _evaluate_tables(r0, r1, rules, horizon)


def _evaluate_n(tables: list[np.ndarray], rules: Rules, full: bool = True) -> Evaluation:
    """n >= 3 players: every seat's values by the multiplayer sequential kernel (``_multiplayer``);
    ``full=False``: the start values only (``value`` is then None)."""
    from ._multiplayer import seat_turns, seat_values, stack_tables

    n, g = rules.players, rules.goal
    probs = stack_tables(tables, rules)
    value: Any = np.empty((n,) + (g,) * (n + 1)) if full else None
    win = np.empty(n)
    start = np.empty(n)
    for s in range(n):
        U, out = seat_values(probs, s, rules, follow=True, draw=0.0)
        win[s] = U[0, s]
        if out[2]:  # some cycle of turns is never left: count its draws 1/n
            U, _ = seat_values(probs, s, rules, follow=True, draw=1.0 / n)
        start[s] = U[0, s]
        if value is not None:
            value[s] = seat_turns(probs, s, rules, U, follow=True)[0]
    draw = float(max(0.0, 1.0 - win.sum()))
    return Evaluation(value, start, win, draw, n * (g - 1) + 1, 0.0, "exact", rules, None)


def _horizon_seat(
    probs: np.ndarray, rules: Rules, horizon: int, target: int, respond: bool, draw: float
) -> np.ndarray:
    """Layer ``horizon`` of :func:`pigtheory.sequential.pair_kernels.horizon_n`: ``cur[m, idx, k]``."""
    n, g = rules.players, rules.goal
    pvec, p_bust = _model(rules)
    cur = np.empty((n, g**n, g))
    prev = np.empty((n, g**n, g))
    kernels.horizon_n()(n, g, horizon, kernels.Die(pvec, p_bust), probs, target, respond, draw, cur, prev)
    return cur


def _evaluate_horizon_n(tables: list[np.ndarray], rules: Rules, horizon: int) -> Evaluation:
    """Any number of players with OpenSpiel's horizon: each seat's win probability by the layers
    over the moves left (:func:`pigtheory.sequential.pair_kernels.horizon_n`), the draw (the horizon
    reached) the rest, worth ``1/n`` to each seat."""
    from ._multiplayer import stack_tables

    n, g = rules.players, rules.goal
    probs = stack_tables(tables, rules)
    own = np.empty((n, g**n, g))  # own[s]: seat s's win probability when it moves
    total = np.zeros((n, g**n, g))  # total[m]: P(some seat wins) when seat m moves
    win = np.empty(n)
    for s in range(n):
        cur = _horizon_seat(probs, rules, horizon, s, False, 0.0)
        own[s] = cur[s]
        total += cur
        win[s] = cur[0, 0, 0]
    draws = np.clip(1.0 - total, 0.0, 1.0)
    value = (own + draws / n).reshape((n,) + (g,) * (n + 1))
    dead = _dead_n(rules)
    value[:, dead] = np.nan
    draw = float(draws[0, 0, 0])
    start = win + draw / n
    return Evaluation(value, start, win, draw, horizon, 0.0, "exact-horizon", rules, horizon)


def _dead_n(rules: Rules) -> np.ndarray:
    """``own + k >= goal`` over the shape ``(goal,) * (players + 1)``."""
    n, g = rules.players, rules.goal
    own = np.arange(g).reshape((g,) + (1,) * n)
    k = np.arange(g).reshape((1,) * n + (g,))
    return np.broadcast_to(own + k >= g, (g,) * (n + 1))


def _evaluate_tables(r0: np.ndarray, r1: np.ndarray, rules: Rules, horizon: int | None) -> Evaluation:
    g = rules.goal
    pvec, p_bust = _model(rules)
    dead = _dead(g)
    # x[0][i, j, k]: P(seat 0 wins) with seat 0 to move; x[1][j, i, k]: the same, seat 1 to move
    x = np.full((2, g, g, g), np.nan)
    if horizon is None:
        kernel = kernels.pair()
        out = np.zeros(2)
        no_choice = np.zeros((1, 1, 1), dtype=np.bool_)
        kernel(g, kernels.Die(pvec, p_bust), r0, r1, 1.0, 0.0, False, 1, x[0], x[1], no_choice, out)
        iterations, method = 2 * g - 1, "exact"
        if out[0] == 0:  # the game ends with probability 1 from every state: no draws
            value = x
            value[1] = 1.0 - x[1]
            win = np.array([x[0, 0, 0, 0], 1.0 - x[0, 0, 0, 0]])
            return Evaluation(value, win.copy(), win, 0.0, iterations, 0.0, method, rules, horizon)
        y = np.full((2, g, g, g), np.nan)
        kernel(g, kernels.Die(pvec, p_bust), r0, r1, 0.0, 1.0, False, 1, y[0], y[1], no_choice, out)
    else:
        y = np.zeros((2, g, g, g))
        x[:] = 0.0
        die = kernels.Die(pvec, p_bust)
        kernels.run_horizon_layers(g, horizon, die, r0, r1, 1.0, 0.0, 0.0, 0, x[0], x[1])
        kernels.run_horizon_layers(g, horizon, die, r0, r1, 0.0, 1.0, 0.0, 0, y[0], y[1])
        iterations, method = horizon, "exact-horizon"
    draws = np.clip(1.0 - x - y, 0.0, 1.0)
    value = np.stack([x[0] + draws[0] / 2, y[1] + draws[1] / 2])
    value[:, dead] = np.nan
    win = np.array([x[0, 0, 0, 0], y[0, 0, 0, 0]])
    draw = float(draws[0, 0, 0, 0])
    start = win + draw / 2
    return Evaluation(value, start, win, draw, iterations, 0.0, method, rules, horizon)


def _dead(g: int) -> np.ndarray:
    i = np.arange(g)[:, None, None]
    k = np.arange(g)[None, None, :]
    return np.broadcast_to(i + k >= g, (g, g, g))
