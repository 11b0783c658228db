"""Stopping rules: the action set of every roll-or-hold decision as a function of the turn total.

Shapes
------
A stopping rule at one state is a boolean vector ``roll[t]``, ``t = 0..goal - 1`` (the turn
total): roll again at t or hold. Rolling is forced at ``t = 0`` (holding would be no turn) and
holding is forced once ``own + t >= goal`` (the turn has reached the goal); entries outside
``1 <= t < goal - own`` are ignored. "Hold at k" is ``roll[t] = t < k``. At a batch of ``ns``
states the rules form an array ``(ns, goal)``; outcome distributions ``(ns, goal + 1)`` over the
points the turn adds, clipped at the goal (column 0 the bust).

Notes
-----
In simultaneous Pig a player does not see the others during its own turn, so a strategy at a
state is any rule of this kind (possibly randomised). With ``u[x]`` the continuation after a
gain x (the state's own value counted as 0, :func:`~pigtheory.simultaneous.core.continuation`)
and :math:`\\beta` the chance that every opponent busts, a rule with outcome distribution P is
worth, played at the state for ever,

.. math:: \\frac{a}{1 - c}, \\quad a = \\sum_x P(x)\\, u[x], \\quad c = P(0)\\, \\beta,

as for thresholds. The best rule is found by policy iteration on the state's own value v
(Dinkelbach's method for this ratio): for a given v, the best rule solves an optimal stopping
problem over t by backward induction,

.. math:: W_v(t) = \\max\\Big(u[t],\\; p_0 (u[0] + \\beta v) + \\sum_g p_g W_v(\\min(t + g, r))\\Big),
          \\qquad W_v(r) = u[r],

(``r = goal - own`` the room, p the roll distribution, no holding at t = 0); the rule's exact
value :math:`v' = a / (1 - c)` then replaces v. The map :math:`v \\mapsto W_v(0)` is convex,
piecewise linear and increasing with slope :math:`c < 1`, so its fixed point is unique and the
iteration climbs to it monotonically, ending as soon as the rule repeats (in practice one or
two passes when started from the best threshold's value). Ties hold (within ``TIE_TOL``), the
same rule as thresholds' "smallest k".

References
----------
W. Dinkelbach, "On nonlinear fractional programming", Management Science 13 (1967) 492-498.
T. W. Neller & C. G. M. Presser, "Optimal play of the dice game Pig" (2004): the roll/hold
decision per turn total. Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eq. (12) and the
"hold at n" restriction this action set lifts.
"""

from __future__ import annotations

import numpy as np

from ...engine import choose_engine
from ...rules import Rules
from ...stopping import rule_outcomes
from . import kernels
from .actions import TIE_TOL, register_action_set
from .step import Roll

__all__ = [
    "roll_distribution_arrays",
    "stopping_outcomes",
    "threshold_rule",
    "optimal_stopping",
    "StoppingRules",
]


def roll_distribution_arrays(rules: Rules) -> tuple[float, np.ndarray, np.ndarray]:
    """``(p_bust, gains, probs)`` of one roll: :meth:`Rules.roll_arrays
    <pigtheory.Rules.roll_arrays>` (the one roll model), under its older name."""
    return rules.roll_arrays()


def threshold_rule(k: np.ndarray, goal: int) -> np.ndarray:
    """The stopping rules of "hold at k" (one k per state): ``roll[s, t] = t < k[s]``.

    Examples
    --------
    >>> threshold_rule(np.array([2, 3]), 5).astype(int).tolist()
    [[1, 1, 0, 0, 0], [1, 1, 1, 0, 0]]
    """
    return np.arange(goal)[None, :] < np.asarray(k)[:, None]


def stopping_outcomes(roll: np.ndarray, own: np.ndarray, rules: Rules, engine: str = "auto") -> np.ndarray:
    """Distribution of the points a turn adds under each stopping rule, by forward recursion.

    Parameters
    ----------
    roll : array, shape ``(ns, goal)``
        A pure rule (bool: roll at t) or a behavioural one (float: the chance of rolling at t).
    own : int array, shape ``(ns,)``
        The player's score at each state.

    Returns
    -------
    numpy.ndarray, shape ``(ns, goal + 1)``
        ``P[s, x]``, x the gain clipped at ``goal - own`` (column 0 the bust); rows sum to 1.

    Notes
    -----
    The compiled kernel where the engine picks numba, else the numpy reference
    :func:`pigtheory.stopping.rule_outcomes` (its Notes give the recursion).

    Examples
    --------
    >>> rules = Rules(goal=4, die_faces=2)  # a coin: heads scores 2, tails busts
    >>> stopping_outcomes(threshold_rule(np.array([3]), 4), np.array([0]), rules).tolist()
    [[0.75, 0.0, 0.0, 0.0, 0.25]]
    """
    g = rules.goal
    p_bust, gains, probs = rules.roll_arrays()
    go_prob = np.ascontiguousarray(roll, dtype=float)
    own = np.ascontiguousarray(own, dtype=np.int64)
    ns = own.size
    if choose_engine(engine, ns * g * gains.size) == "numba":
        out = np.empty((ns, g + 1))
        kernels.stopping_kernel("outcomes")(go_prob, own, Roll(p_bust, gains, probs), out)
        return out
    return rule_outcomes(go_prob, own, rules)


def optimal_stopping(
    u: np.ndarray,
    own: np.ndarray,
    opp_bust: np.ndarray,
    rules: Rules,
    start: np.ndarray | None = None,
    tie_tol: float = TIE_TOL,
    max_passes: int = 100,
    engine: str = "auto",
) -> tuple[np.ndarray, np.ndarray, int]:
    """The best stopping rule at each state, with the self-loop solved exactly (module Notes).

    Parameters
    ----------
    u : array, shape ``(ns, goal + 1)``
        Continuation after each gain, the state's own value counted as 0; constant from
        ``x = goal - own`` on.
    own : int array, shape ``(ns,)``
    opp_bust : array, shape ``(ns,)``
        Chance that every opponent busts.
    start : array, shape ``(ns,)``, optional
        A value known to be achievable (e.g. the best threshold's); the iteration starts there.

    Returns
    -------
    value : numpy.ndarray, shape ``(ns,)``
        ``a / (1 - c)`` of the best rule.
    roll : bool numpy.ndarray, shape ``(ns, goal)``
    passes : int
        Backward passes over t until no rule changed (the most any state needed).
    """
    g = rules.goal
    p_bust, gains, probs = rules.roll_arrays()
    own = np.ascontiguousarray(own, dtype=np.int64)
    ns = own.size
    if choose_engine(engine, ns * g * gains.size) == "numba":
        value = np.empty(ns)
        roll_out = np.zeros((ns, g), dtype=bool)
        used = np.zeros(ns, dtype=np.int64)
        first = np.zeros(ns) if start is None else np.ascontiguousarray(start, dtype=float)
        kernels.stopping_kernel("optimal_stopping")(
            np.ascontiguousarray(u, dtype=float),
            own,
            np.ascontiguousarray(opp_bust, dtype=float),
            first,
            Roll(p_bust, gains, probs),
            tie_tol,
            max_passes,
            value,
            roll_out,
            used,
        )
        return value, roll_out, int(used.max(initial=0))
    room = g - own
    big = int(room.max())
    rows = np.arange(ns)
    u_room = u[rows, room]
    v = np.zeros(ns) if start is None else np.array(start, dtype=float)
    roll = np.zeros((ns, g), dtype=bool)
    passes = 0
    for passes in range(1, max_passes + 1):  # noqa: B007 (reported)
        # A[t], C[t]: the chosen rule's value from t with v(s) = 0 and its chance of busting
        a_t = np.zeros((ns, big + 1))
        c_t = np.zeros((ns, big + 1))
        a_t[rows, room] = u_room
        new = np.zeros((ns, g), dtype=bool)
        loop = opp_bust * v  # what a bust is worth beyond u[0]: the state repeats
        for t in range(big - 1, -1, -1):
            live = t < room
            roll_a = p_bust * u[:, 0]
            roll_c = np.full(ns, p_bust)
            for gain, p in zip(gains.tolist(), probs.tolist(), strict=True):
                to = np.minimum(t + gain, room)
                roll_a = roll_a + p * a_t[rows, to]
                roll_c = roll_c + p * c_t[rows, to]
            roll_w = roll_a + roll_c * loop
            hold_w = u[:, t] if t > 0 else np.full(ns, -np.inf)
            go = live & (roll_w > hold_w + tie_tol)
            stay = live & ~go
            a_t[go, t], c_t[go, t] = roll_a[go], roll_c[go]
            a_t[stay, t], c_t[stay, t] = u[stay, t], 0.0
            new[:, t] = go
        v = a_t[:, 0] / (1.0 - c_t[:, 0] * opp_bust)
        if np.array_equal(new, roll):
            break
        roll = new
    return v, roll, passes


@register_action_set
class StoppingRules:
    """The action set of every stopping rule (module Notes), beside :class:`.Thresholds`.

    :meth:`best` returns the best rule's value and the rule itself (a bool row over the turn
    totals per state); :meth:`best_and_threshold` also the best threshold's value and k at
    the same states (the iteration starts from it), so a solver can say where, and by how
    much, the optimum is not a threshold.
    """

    name = "stopping"

    def __init__(self, rules: Rules, engine: str = "auto") -> None:
        from .actions import Thresholds

        self.rules = rules
        self.engine = engine
        self.thresholds = Thresholds(rules)

    def best_and_threshold(
        self, u: np.ndarray, own: np.ndarray, opp_bust: np.ndarray, tie_tol: float = TIE_TOL
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(value, roll, threshold_value, k)`` at each state.

        Parameters
        ----------
        u, own, opp_bust, tie_tol
            As for :meth:`~pigtheory.simultaneous.core.Thresholds.action_values`: ``u``
            ``(ns, goal + 1)``, ``own`` and ``opp_bust`` ``(ns,)``.

        Returns
        -------
        value : numpy.ndarray, shape ``(ns,)``
            The best stopping rule's value.
        roll : numpy.ndarray of bool, shape ``(ns, goal)``
            That rule: roll at turn total t.
        threshold_value : numpy.ndarray, shape ``(ns,)``
            The best threshold's value.
        k : numpy.ndarray of int, shape ``(ns,)``
            That threshold.
        """
        t_value, k = self.thresholds.best(u, own, opp_bust, tie_tol)
        value, roll, _ = optimal_stopping(
            u, own, opp_bust, self.rules, start=t_value, tie_tol=tie_tol, engine=self.engine
        )
        return value, roll, t_value, k

    def best(
        self, u: np.ndarray, own: np.ndarray, opp_bust: np.ndarray, tie_tol: float = TIE_TOL
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(value, roll)`` of the best stopping rule at each state: shapes ``(ns,)`` and
        ``(ns, goal)`` (:meth:`best_and_threshold`)."""
        value, roll, _, _ = self.best_and_threshold(u, own, opp_bust, tie_tol)
        return value, roll


def threshold_rules(roll: np.ndarray, own: np.ndarray, rules: Rules) -> np.ndarray:
    """:func:`pigtheory.stopping.is_threshold_rule` with its walk over the turn totals each
    rule reaches compiled (the same booleans; for the compiled solvers, which have numba
    loaded: numpy's walk takes a step per turn total, about 0.5 ms at goal 100)."""
    from ...stopping import _is_threshold_rule

    return _is_threshold_rule(roll, own, rules, _reached_compiled)


def _reached_compiled(roll: np.ndarray, stop: np.ndarray, rules: Rules) -> np.ndarray:
    """:func:`pigtheory.stopping._reached`, compiled."""
    _, gains, _ = rules.roll_arrays()
    ns, goal = roll.shape
    t = np.arange(goal)[None, :]
    goes_on = np.ascontiguousarray((roll | (t == 0)) & (t < stop))
    out = np.zeros((ns, goal), dtype=bool)
    kernels.stopping_kernel("reached")(goes_on, np.ascontiguousarray(gains, dtype=np.int64), out)
    return out
