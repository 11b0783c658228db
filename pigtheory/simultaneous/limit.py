"""n-player simultaneous Pig when everybody else holds at the goal (n -> infinity).

Shapes
------
``value[t, i]`` and ``policy[t, i]``: the remaining player's best-response win probability and
threshold at own score ``i`` (``0 <= i < goal``) in the game of ``n[t]`` players, the other
``n[t] - 1`` players still at score 0 and holding at the goal. ``n = 2 .. n_max``.

Notes
-----
A player who holds at the goal from score 0 either busts (and stays at 0) or finishes in one
turn, with probability :math:`p = P(X_g \\ge g)` (1.02% at goal 100: the paper's "Infinite
number of players"; claim Z23.19 of ``analyses/REPORT.md``). So while the game lasts, the
n - 1 opponents are all at 0 and the remaining player's state is its own score i. In one turn
the number M of opponents who finish is Binomial(n - 1, p); if the player finishes too it
shares the win, and

.. math:: T_n = E\\left[\\frac{1}{1 + M}\\right] = \\frac{1 - (1 - p)^n}{n p}.

The game goes on only if no opponent finishes, probability :math:`q_n = (1 - p)^{n - 1}`.
Holding at k from score i finishes with :math:`f(i, k) = P(i + X_k \\ge g)`, and

.. math:: V_n(i) = \\max_{1 \\le k \\le g - i}
    \\frac{f(i, k)\\, T_n + q_n \\sum_{0 < x < g - i} P(X_k = x)\\, V_n(i + x)}{1 - q_n P(X_k = 0)},

the denominator solving the self-loop (everybody busts) exactly. Scores only grow, so this is
exact backward induction from ``i = g - 1`` down to 0. Holding at the goal from 0 gives
:math:`p T_n / (1 - q_n (1 - p)) = 1/n`, as symmetry demands. The best deviation is the best
stationary policy whose threshold at score 0 is below the goal; everybody holding at the goal
is a symmetric Nash equilibrium of the n-player game exactly when it is worth at most 1/n.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), section "Infinite number of players"
(1.02%, "n >= 99"), and Table 2 (P(X_100 = 0) = 0.9898).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..guard import BASE_BYTES, Estimate, check_memory, with_roll_model
from ..results import Solution
from ..rules import Rules
from ..turn_totals import turn_total_table
from ..validation import check_int, check_simultaneous_rules
from .core import TIE_TOL, action_set

__all__ = ["limit", "LimitAnalysis", "estimate_memory"]


@dataclass(frozen=True, eq=False)
class LimitAnalysis(Solution):
    """Best responses to n - 1 players who hold at the goal, for n = 2 .. n_max.

    Attributes
    ----------
    value : numpy.ndarray, shape ``(n_max - 1, goal)``
        ``value[t, i]``: the best response's value at own score i (the opponents at 0), in
        the game of ``n[t]`` players; row t is n = t + 2 (:meth:`row`).
    policy : numpy.ndarray of int, shape ``(n_max - 1, goal)``
        ``policy[t, i]``: its threshold.
    iterations : int
        Backward-induction steps (one per own score).
    residual : float
        0.0 (exact).
    method : str
        ``"exact"``.
    rules : Rules
    n : numpy.ndarray of int, shape ``(n_max - 1,)``
        ``2 .. n_max``.
    hold_value : numpy.ndarray, shape ``(n_max - 1,)``
        1/n, the value of holding at the goal when everybody does.
    deviation_value : numpy.ndarray, shape ``(n_max - 1,)``
        Thresholds: the best value at score 0 of a policy whose first threshold is below the
        goal. Stopping rules: the best response's value at score 0 over every stopping rule
        (1/n exactly when holding at the goal is a best response).
    deviation_threshold : numpy.ndarray of int, shape ``(n_max - 1,)``
        Thresholds: that policy's threshold at score 0. Stopping rules: the first turn total
        at which the best rule at score 0 holds (the goal if it rolls until the goal).
    p_finish : float
        :math:`P(X_g \\ge g)`: holding at the goal from 0 finishes in one turn.
    smallest_n : int or None
        Smallest n0 such that for every n in n0 .. n_max no policy beats holding at the goal
        (by more than ``TIE_TOL``); None if a deviation still pays at ``n_max``.
    strategies : str
        ``"thresholds"`` or ``"stopping"``: the deviator's strategy class.
    roll : numpy.ndarray of bool, shape ``(n_max - 1, goal, goal)``, or None
        Stopping rules only: the best rule ``roll[row, i, t]`` at own score i.
    """

    n: np.ndarray
    hold_value: np.ndarray
    deviation_value: np.ndarray
    deviation_threshold: np.ndarray
    p_finish: float
    smallest_n: int | None
    strategies: str = "thresholds"

    def _expected_shapes(self) -> dict[str, tuple[int, ...]]:
        m = (len(self.n), self.rules.goal)
        return {"value": m, "policy": m}

    roll: np.ndarray | None = None

    def row(self, n: int) -> int:
        """Row of the tables that belongs to n players."""
        if not 2 <= n <= int(self.n[-1]):
            raise ValueError(f"n must lie in 2..{int(self.n[-1])}, got {n}")
        return n - 2


@with_roll_model(name="limit")
def estimate_memory(rules: Any, *, n_max: Any) -> Estimate | None:
    """:func:`~pigtheory.simultaneous.limit`: arrays of one row per n and one column per score."""
    if not isinstance(rules, Rules) or not isinstance(n_max, int) or n_max < 2:
        return None
    g = rules.goal
    rows = n_max - 1
    width = len(rules.roll_distribution())
    return Estimate(
        f"limit (n = 2..{n_max}, goal {g})",
        rows * g,
        rows * (g + 1) * (40 + 16 * width) + BASE_BYTES,
        "lower n_max or the goal",
    )


def limit(
    n_max: int = 200, *, rules: Rules = Rules(), strategies: str = "thresholds", max_memory: Any = None
) -> LimitAnalysis:
    """Is "everybody holds at the goal" an equilibrium of n-player simultaneous Pig?

    Parameters
    ----------
    n_max : int
        Largest number of players, ``>= 2``; every n in ``2 .. n_max`` is solved.
    rules : Rules
        The die and the goal (``rules.players`` is ignored: n varies).
    strategies : {"thresholds", "stopping"}
        The deviator's strategies: "hold at k", or every stopping rule (a roll/hold choice
        per turn total, :mod:`pigtheory.simultaneous.core.stopping_rules`).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    LimitAnalysis
        Tables of shape ``(n_max - 1, goal)`` (one row per n) and vectors of shape
        ``(n_max - 1,)``.

    Notes
    -----
    See the module docstring: the opponents never leave score 0 while the game lasts, so the
    best response is a one-dimensional backward induction over the player's own score, done
    for all n at once. Exact up to floating-point rounding; no iteration. The question is that
    of Zhu, Ma, Chen & Liu (2023), section "Infinite number of players" (an argument without a
    numbered equation; its P(X_100 = 0) = 0.9898 is Table 2).

    Examples
    --------
    >>> res = limit(n_max=120)
    >>> round(res.p_finish, 4)
    0.0102
    >>> bool(res.deviation_value[res.row(3)] > 1 / 3)
    True
    """
    check_memory(estimate_memory(rules, n_max=n_max), max_memory)
    n_max = check_int("n_max", n_max, low=2)
    check_simultaneous_rules(rules)
    actions = action_set(strategies, rules)
    g = rules.goal
    p = 1.0 - float(turn_total_table(rules.replace(players=2)).bust[g])
    if p <= 0.0:
        raise ValueError(
            "rules: holding at the goal never finishes in one turn; the analysis needs p_finish > 0"
        )
    ns = np.arange(2, n_max + 1)
    q = np.exp((ns - 1) * np.log1p(-p))  # no opponent finishes
    share = -np.expm1(ns * np.log1p(-p)) / (ns * p)  # E[1 / (1 + Binomial(n - 1, p))]
    # One row per n. u[t, x]: the continuation after gaining x from score i (module Notes):
    # 0 on a bust (the state itself, or somebody else won), q V(i + x) below the room, the
    # share of the win from the room on.
    value = np.zeros((ns.size, g))
    policy = np.zeros((ns.size, g), dtype=np.int64)
    roll = np.zeros((ns.size, g, g), dtype=bool) if strategies == "stopping" else None
    u = np.empty((ns.size, g + 1))
    for i in range(g - 1, -1, -1):
        room = g - i
        u[:, 0] = 0.0
        u[:, 1:room] = q[:, None] * value[:, i + 1 : g]
        u[:, room:] = share[:, None]
        own = np.full(ns.size, i)
        value[:, i], choice = actions.best(u, own, q)
        if roll is None:
            policy[:, i] = choice
        else:
            roll[:, i] = choice
            holds = (np.arange(g)[None, :] >= 1) & (np.arange(g)[None, :] < room) & ~choice
            policy[:, i] = np.where(holds.any(axis=1), np.argmax(holds, axis=1), room)
    if roll is not None:
        deviation = value[:, 0].copy()
        dev_k = policy[:, 0].copy()
    elif g > 1:
        # the best policy whose first threshold is below the goal: best over k < g at score 0
        vals = actions.action_values(u, np.zeros(ns.size, dtype=np.int64), q)[:, : g - 1]
        deviation = vals.max(axis=1)
        dev_k = np.argmax(vals, axis=1) + 1
    else:
        deviation = np.full(ns.size, -np.inf)
        dev_k = np.zeros(ns.size, dtype=np.int64)
    hold = 1.0 / ns
    beats = deviation - hold > TIE_TOL
    smallest = None if beats[-1] else int(ns[np.flatnonzero(beats)[-1] + 1]) if beats.any() else 2
    return LimitAnalysis(
        value=value,
        policy=policy,
        iterations=g,
        residual=0.0,
        method="exact",
        rules=rules,
        n=ns,
        hold_value=hold,
        deviation_value=deviation,
        deviation_threshold=dev_k,
        p_finish=p,
        smallest_n=smallest,
        strategies=strategies,
        roll=roll,
    )
