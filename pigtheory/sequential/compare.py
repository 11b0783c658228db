"""Exact comparison of two sequential policies: Neller & Presser's Algorithm 1, solved.

Shapes
------
``value_a[c, i, j]``: A's probability of winning when A is about to start a turn at own
score i, B's score j, A's counter c (:mod:`pigtheory.policies.sequential`); ``value_b[c, j, i]``
the same for B about to start a turn at own score j, A's score i.

Notes
-----
Let ``T_A`` and ``T_B`` be the turn matrices (:mod:`pigtheory.sequential.turns`) and
``P^A``, ``P^B`` each player's win probability at the start of its own turn. Then

.. math::

    P^A_{i,j} = \\sum_s T_A[i, j, s]\\, (1 - P^B_{j,s}), \\qquad
    P^B_{j,i} = \\sum_s T_B[j, i, s]\\, (1 - P^A_{i,s}),

with :math:`P_{\\cdot, \\text{goal}} = 0`. A goes first with probability ``P^A_{0,0}`` and
second with ``1 - P^B_{0,0}``; Algorithm 1 returns their mean.

With one die a turn ends at the mover's score or above, so the score sum never falls: levels
of equal sum are solved from the end backwards, each pair (A at (i, j), B at (j, i)) by a
2x2 linear system, exactly. Two policies without a counter go through the compiled two-player
engine (:func:`pigtheory.sequential.pair_kernels.pair`, the referee's evaluation, turn total by
turn total); a policy with a counter ("t scoring turns") through the turn matrices, level by
level (:func:`start_values`), because the engine has no axis for the counter. With two dice (snake eyes sends a score to 0) the equations are
iterated, alternating the two players (Gauss-Seidel), until the largest change is below
``tol``; the residual is reported.

References
----------
Neller & Presser, slides "Policy Comparison" (Algorithm 1) and "Evaluating Policies";
Zhu & Ma, Stats 5 (2022), Tables A2 and A3.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..guard import check_memory, compare_estimate
from ..policies.sequential import roll_tables
from ..results import Result
from ..rules import Rules
from ..validation import ConvergenceWarning, check_choice, check_int, check_tol
from . import pair_kernels
from .model import check_rules
from .turns import turn_matrix

__all__ = ["Comparison", "compare", "start_values"]


@dataclass(frozen=True, eq=False)
class Comparison(Result):
    """A's win probability against B going ``first``, ``second`` and their ``average``
    (the number Neller & Presser's Algorithm 1, slides "Policy Comparison", returns).

    Attributes
    ----------
    first : float
        A's win probability when A moves first.
    second : float
        A's win probability when B moves first.
    average : float
        Their mean.
    value_a : numpy.ndarray, shape ``(C, goal, goal)``
        ``value_a[c, i, j]``: A's win probability at the start of its own turn, own score i,
        B's score j; c the counter of the policy that keeps one (C = 1 if neither does).
    value_b : numpy.ndarray, shape ``(C, goal, goal)``
        ``value_b[c, j, i]``: B's, at the start of B's turn, own score j, A's score i.
    iterations : int
        Score levels ``2 goal - 1`` (exact) or sweeps (value iteration).
    residual : float
        0.0 (exact) or the last sweep's largest change.
    method : str
        ``"exact"`` or ``"value_iteration"``.
    rules : Rules
    """

    first: float
    second: float
    average: float
    value_a: np.ndarray
    value_b: np.ndarray
    iterations: int
    residual: float
    method: str
    rules: Rules

    def __post_init__(self) -> None:
        for a in (self.value_a, self.value_b):
            a.setflags(write=False)


def compare(
    policy_a: Any,
    policy_b: Any,
    *,
    rules: Rules = Rules(),
    method: str | None = None,
    tol: float = 1e-13,
    max_iter: int = 100_000,
    max_memory: Any = None,
) -> Comparison:
    """Win probabilities of policy A against policy B, A first, A second and the average.

    Neller & Presser's policy comparison (slides "Policy Comparison", Algorithm 1): each
    player's start-of-turn equations (module Notes), solved exactly for one die instead of by
    the algorithm's sweeps.

    Parameters
    ----------
    policy_a, policy_b
        Sequential solutions, ``hold_at(n)``, practical policies, or bool roll tables
        (anything :func:`~pigtheory.sequential.roll_table` reads); at most one of them may keep
        a counter (:func:`~pigtheory.sequential.scoring_turns`), and only with one die.
    rules : Rules
    method : {"exact", "value_iteration"}, optional
        ``"exact"`` (one die only, the default there): level by level, each pair of start
        values from a 2x2 linear system; ``"value_iteration"`` (the default and only method
        for two dice): Gauss-Seidel sweeps of the turn equations.
    tol, max_iter
        Value iteration: stop iterating when the largest change is below ``tol`` (> 0), after at
        most ``max_iter`` sweeps (>= 1; stopping there warns with
        :class:`~pigtheory.validation.ConvergenceWarning`).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    Comparison
        ``first``, ``second``, ``average``; ``value_a`` and ``value_b`` of shape
        ``(C, goal, goal)``.

    Examples
    --------
    >>> from pigtheory import hold_at
    >>> c = compare(hold_at(3), hold_at(3), rules=Rules(goal=6))
    >>> round(c.first + c.second, 12)
    1.0
    """
    check_memory(compare_estimate(rules, policies=(policy_a, policy_b)), max_memory)
    check_rules(rules)
    if method is None:
        method = "exact" if rules.roll_model().simple else "value_iteration"
    check_choice("method", method, ("exact", "value_iteration"))
    if method == "exact" and not rules.roll_model().simple:
        raise ValueError("method: 'exact' needs one die (two-dice scores can drop); use 'value_iteration'")
    tol = check_tol(tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    ta = roll_tables(policy_a, rules)
    tb = roll_tables(policy_b, rules)
    if ta.shape[0] > 1 and tb.shape[0] > 1:
        raise ValueError("policy: only one of the two policies may keep a counter")
    swap = tb.shape[0] > 1
    if swap:
        ta, tb = tb, ta
    exact_pair = method == "exact" and ta.shape[0] == 1 and _pair_values(ta[0], tb[0], rules)
    if exact_pair:
        va, vb = exact_pair
        iterations, residual = 2 * rules.goal - 1, 0.0
    elif method == "exact":
        va, vb = start_values([turn_matrix(t, rules) for t in ta], turn_matrix(tb[0], rules), rules)
        iterations, residual = 2 * rules.goal - 1, 0.0
    else:
        mats_a = [turn_matrix(t, rules) for t in ta]
        mat_b = turn_matrix(tb[0], rules)
        if len(mats_a) > 1:
            raise ValueError("policy: counters are supported with one die only")
        va, vb, iterations, residual = _iterate(mats_a[0], mat_b, rules, tol, max_iter)
        if residual >= tol:
            warnings.warn(
                f"policy comparison stopped after max_iter={max_iter} sweeps with largest change "
                f"{residual:.3g} >= tol={tol:g}",
                ConvergenceWarning,
                stacklevel=2,
            )
    first, second = float(va[0, 0, 0]), 1.0 - float(vb[0, 0, 0])
    if swap:  # we solved "B against A"
        first, second = 1.0 - second, 1.0 - first
        va, vb = vb, va
    return Comparison(first, second, (first + second) / 2, va, vb, iterations, residual, method, rules)


def _pair_values(ra: np.ndarray, rb: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray] | None:
    """One die, no counter: ``(P^A[None], P^B[None])`` from the compiled two-player engine
    (:func:`pigtheory.sequential.pair_kernels.pair`, the referee's evaluation), each player's
    win probability solved as its own outcome; None if some pair of states loops for ever
    (both players pass), where :func:`start_values` decides."""
    g = rules.goal
    die = pair_kernels.die(rules)
    r0 = np.ascontiguousarray(ra, dtype=np.float64)
    r1 = np.ascontiguousarray(rb, dtype=np.float64)
    kernel = pair_kernels.pair()
    none = np.zeros((1, 1, 1), dtype=np.bool_)
    out = np.zeros(2)
    x = np.empty((2, g, g, g))
    y = np.empty((2, g, g, g))
    kernel(g, die, r0, r1, 1.0, 0.0, False, 1, x[0], x[1], none, out)  # A wins
    kernel(g, die, r0, r1, 0.0, 1.0, False, 1, y[0], y[1], none, out)  # B wins
    if out[0]:
        return None
    return np.ascontiguousarray(x[0, :, :, 0])[None], np.ascontiguousarray(y[1, :, :, 0])[None]


def start_values(mats_a: list[np.ndarray], mat_b: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Exact ``P^A[c, i, j]`` and ``P^B[c, j, i]`` for one die, level by level.

    Parameters
    ----------
    mats_a : list of numpy.ndarray, each of shape ``(goal, goal, goal + 1)``
        ``mats_a[c]`` is A's turn matrix with counter c
        (:func:`~pigtheory.sequential.turn_matrix`); a scoring turn moves the counter to
        ``min(c + 1, C - 1)``.
    mat_b : numpy.ndarray, shape ``(goal, goal, goal + 1)``
        B's turn matrix.
    rules : Rules
        One die.

    Returns
    -------
    value_a, value_b : numpy.ndarray, shape ``(C, goal, goal)``
        A's and B's win probabilities at the start of their own turns, own score first.
    """
    g = rules.goal
    nc = len(mats_a)
    # padded start tables; column goal means "the other player has won" (value 0)
    pa = np.zeros((nc, g, g + 1))
    pb = np.zeros((nc, g, g + 1))
    cols = np.arange(g + 1)
    for s in range(2 * g - 2, -1, -1):
        i = np.arange(max(0, s - g + 1), min(s, g - 1) + 1)
        j = s - i
        for c in range(nc - 1, -1, -1):
            up = min(c + 1, nc - 1)
            ta = mats_a[c][i, j]  # (n, g + 1) over A's score after the turn
            stay_a = ta[np.arange(i.size), i]
            # A scores: B moves with A's counter advanced; A stays: same counter
            after_a = np.where(cols[None, :] > i[:, None], 1.0 - pb[up, j], 1.0)
            ca = np.sum(ta * after_a, axis=1)  # includes stay_a * 1 (B's value there unknown)
            tb = mat_b[j, i]  # B to move at (j, i)
            stay_b = tb[np.arange(i.size), j]
            cb = np.sum(tb * np.where(cols[None, :] == j[:, None], 1.0, 1.0 - pa[c, i]), axis=1)
            # x = ca - stay_a * y,  y = cb - stay_b * x
            x = (ca - stay_a * cb) / (1.0 - stay_a * stay_b)
            y = cb - stay_b * x
            pa[c, i, j] = x
            pb[c, j, i] = y
    return pa[:, :, :g], pb[:, :, :g]


def _iterate(ta: np.ndarray, tb: np.ndarray, rules: Rules, tol: float, max_iter: int):
    g = rules.goal
    pa = np.zeros((g, g + 1))
    pb = np.zeros((g, g + 1))
    residual, it = np.inf, 0
    while residual >= tol and it < max_iter:
        # pa[i, j] = sum_s ta[i, j, s] (1 - pb[j, s]);  pb likewise with the new pa
        new_a = np.einsum("ijs,js->ij", ta, 1.0 - pb)
        delta = np.max(np.abs(new_a - pa[:, :g]))
        pa[:, :g] = new_a
        new_b = np.einsum("ijs,js->ij", tb, 1.0 - pa)
        delta = max(delta, np.max(np.abs(new_b - pb[:, :g])))
        pb[:, :g] = new_b
        residual, it = float(delta), it + 1
    return pa[None, :, :g], pb[None, :, :g], it, residual
