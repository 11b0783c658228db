"""Best response in sequential Pig to an opponent whose roll table is fixed.

With the opponent's moves fixed, sequential Pig is a Markov decision process for the other
player (the responder); its optimal values are the responder's win probabilities when it
plays as well as possible against that opponent: the numbers the play site shows.

Shapes
------
``value[i, j, k]`` and ``policy[i, j, k]`` (roll = True): the responder to move with own score
i, the opponent's score j, turn total k (NaN / False where ``i + k >= goal``: a win).
``opponent_value[j, i, k]``: the responder's win probability while the *opponent* is to move
at its own score j, the responder's score i and the opponent's turn total k (own score first,
as always for the mover). Double Trouble adds the forced-roll flag ``l`` as a last axis, as in
:mod:`pigtheory.sequential.model`.

Notes
-----
Write ``V[i, j]`` for ``value[i, j, 0]`` and ``W[j, i]`` for ``opponent_value[j, i, 0]``. The
opponent's turn from (j, i) ends at its score s with probability ``T[j, i, s]`` (its turn
matrix, :func:`pigtheory.sequential.turn_matrix`; ``s = goal``: it won), so

.. math:: W_{j,i} = \\sum_s T[j, i, s]\\, V_{i,s}, \\qquad V_{i,\\text{goal}} = 0,

and the responder's turn is the optimal stopping problem of :mod:`pigtheory.sequential.two_dice`
with ``1 - W`` in place of the optimal opponent's values:

.. math:: P_{i,j,k} = \\max\\Big(W_{j,i+k},\\; p\\, W_{j,i} + q\\, W_{j,0} + \\sum_g p_g P_{i,j,k+g}\\Big),
          \\qquad P_{i,j,k} = 1 \\text{ for } i + k \\ge \\text{goal},

(p the bust, q the snake-eyes probability, holding at k = 0 a pass worth :math:`W_{j,i}`).

``method="exact"`` (one die): scores never fall, so the states of equal score sum
``s = i + j`` are solved from the end backwards. On a level, ``W[j, i] = a + b V[i, j]`` with
``b = T[j, i, j]`` (the opponent's turn ends where it started) and, for fixed roll/hold
choices, ``V[i, j] = alpha + beta W[j, i]`` from one backward pass over k; the pair is a 2x2
linear system. The choices are then made greedy at the new ``W[j, i]`` and the pair solved
again until they repeat (policy iteration on one number; one or two passes). Unlike the
optimal game, the pairs of a level do not interact: the opponent's choices are fixed. This is
the compiled engine :func:`pigtheory.sequential.pair_kernels.pair` that the referee's best
response runs too (one engine for both, issue 36).

``method="value_iteration"`` (any dice; the only method for two dice): alternate whole
turns, ``W`` from ``V`` by the turn matrix and ``V`` from ``W`` by one backward pass
(:func:`pigtheory.sequential.two_dice.turn_sweep`), until ``V`` changes by less than ``tol``.

Either way the choices follow the solvers' tie rule at the solved values: hold on ties at
``k >= 1``, roll on ties at ``k = 0`` (within ``1e-13``).

References
----------
Neller & Presser, "Optimal play of the dice game Pig" (2004) (the equations; policy
comparison, slides "Policy Comparison"); Zhu & Ma, Stats 5 (2022), section 3 and eqs. (3), (4), (6) (two dice,
Double Trouble and its boundary after a double past the goal).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..policies.sequential import roll_table
from ..results import Result
from ..rules import Rules
from ..validation import METHODS, ConvergenceWarning, check_choice, check_int, check_tol
from . import pair_kernels
from .model import check_rules, roll_model
from .turns import turn_matrix
from .two_dice import turn_sweep

__all__ = ["SequentialResponse", "best_response", "opponent_turn_values"]


@dataclass(frozen=True, eq=False)
class SequentialResponse(Result):
    """The best response to a fixed sequential opponent (see the module docstring for shapes).

    Attributes
    ----------
    value : numpy.ndarray, shape ``(goal, goal, goal)`` (Double Trouble: ``+ (2,)``)
        The responder's win probability ``value[i, j, k]`` when it is to move at own score i,
        opponent j, turn total k.
    policy : numpy.ndarray of bool, same shape
        Its roll table ``policy[i, j, k]`` (True: roll).
    opponent_value : numpy.ndarray, same shape
        ``opponent_value[j, i, k]``: the responder's win probability when the opponent is to
        move at its own score j, the responder's score i, its turn total k.
    opponent : numpy.ndarray of bool, shape ``(goal, goal, goal)``
        The opponent's roll table (own score first), as solved against.
    iterations : int
        Score levels (exact) or whole-turn sweeps (value iteration).
    residual : float
        0.0 (exact, up to rounding) or the last sweep's largest change.
    method : str
    rules : Rules
    """

    value: np.ndarray
    policy: np.ndarray
    opponent_value: np.ndarray
    opponent: np.ndarray
    iterations: int
    residual: float
    method: str
    rules: Rules

    @property
    def first_player_win(self) -> float:
        """The responder's win probability moving first from (0, 0)."""
        return float(self.value[(0, 0, 0) + (0,) * (self.value.ndim - 3)])

    @property
    def second_player_win(self) -> float:
        """The responder's win probability when the opponent moves first."""
        return float(self.opponent_value[(0, 0, 0) + (0,) * (self.value.ndim - 3)])


def best_response(
    opponent: Any,
    *,
    rules: Rules = Rules(),
    method: str | None = None,
    tol: float = 1e-13,
    max_iter: int = 100_000,
) -> SequentialResponse:
    """The optimal policy against a fixed sequential opponent, and its values.

    Parameters
    ----------
    opponent : policy
        Anything :func:`pigtheory.sequential.roll_table` reads: a sequential solution,
        ``hold_at(n)``, the practical policies, a bool roll table ``(goal,) * 3``.
    rules : Rules
        Two players; one die, two dice or Double Trouble.
    method : {"exact", "value_iteration"}, optional
        Default ``"exact"`` for one die, ``"value_iteration"`` for two dice (the only one there).
    tol, max_iter
        Value iteration: stop when the start-of-turn values change by less than ``tol``, after
        at most ``max_iter`` sweeps (then :class:`~pigtheory.validation.ConvergenceWarning`).

    Returns
    -------
    SequentialResponse
        ``value``, ``policy`` and ``opponent_value`` of shape ``(goal, goal, goal)`` (Double
        Trouble: ``(goal, goal, goal, 2)``): the Markov decision process of the module Notes,
        on Neller & Presser's equations (slides "Pig Probabilities") with the opponent's
        choices fixed, as in their policy comparison (Algorithm 1).

    Raises
    ------
    ValueError
        Unreadable policy or rules, an unknown method, ``"exact"`` with two dice, or an
        opponent that passes (holds at turn total 0) somewhere: against it the game can loop
        for ever and is not supported.

    Examples
    --------
    >>> from pigtheory import hold_at
    >>> from pigtheory.sequential import best_response, compare
    >>> br = best_response(hold_at(4), rules=Rules(goal=12))
    >>> bool(br.first_player_win >= compare(hold_at(5), hold_at(4), rules=Rules(goal=12)).first)
    True
    """
    check_rules(rules)
    if method is None:
        method = "exact" if rules.dice == 1 else "value_iteration"
    check_choice("method", method, METHODS)
    if method == "exact" and rules.dice != 1:
        raise ValueError("method: 'exact' needs one die (two-dice scores can drop); use 'value_iteration'")
    tol = check_tol(tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    roll = np.array(roll_table(opponent, rules), dtype=bool)
    g = rules.goal
    if not roll[:, :, 0].all():
        n = int((~roll[:, :, 0]).sum())
        raise ValueError(f"opponent: passes (holds at turn total 0) at {n} state(s); not supported")
    if method == "exact":
        value, opp_value, policy = _exact(roll, rules)
        return SequentialResponse(value, policy, opp_value, roll, 2 * g - 1, 0.0, method, rules)
    v, iterations, residual = _iterate(turn_matrix(roll, rules), rules, tol, max_iter)
    q0, q1 = opponent_turn_values(v, roll, rules)
    w = q0[:, :, 0]
    _, (p0, p1, choice) = turn_sweep(1.0 - w, rules, full=True)
    live = (np.arange(g)[:, None, None] + np.arange(g)[None, None, :]) < g
    value = np.where(live, p0, np.nan)
    opp_value = np.where(live, q0, np.nan)
    policy = choice
    if rules.double_trouble:
        assert p1 is not None and q1 is not None
        forced = np.where(live, p1, np.nan)
        forced[:, :, 0] = np.nan  # no double has been rolled at turn total 0
        opp_forced = np.where(live, q1, np.nan)
        opp_forced[:, :, 0] = np.nan
        value = np.stack([value, forced], axis=-1)
        opp_value = np.stack([opp_value, opp_forced], axis=-1)
        policy = np.stack([choice, live.repeat(g, axis=1) & (np.arange(g) > 0)], axis=-1)
    return SequentialResponse(value, policy, opp_value, roll, iterations, residual, method, rules)


def opponent_turn_values(
    v: np.ndarray, roll: np.ndarray, rules: Rules
) -> tuple[np.ndarray, np.ndarray | None]:
    """The responder's win probability during the opponent's turn, given the responder's
    start-of-turn values ``v[i, j]``.

    Parameters
    ----------
    v : numpy.ndarray, shape ``(goal, goal)``
        ``v[i, j]``: the responder's value at the start of its own turn, own score first.
    roll : numpy.ndarray of bool, shape ``(goal, goal, goal)``
        The opponent's roll table ``roll[j, i, k]`` (its own score first).
    rules : Rules

    Returns
    -------
    q0, q1 : numpy.ndarray, shape ``(goal, goal, goal)``, or None
        Indexed ``[j, i, k]`` (the opponent's own score first): ``q0`` where the opponent is
        free, ``q1`` just after a double (Double Trouble; None otherwise). Entries with
        ``j + k >= goal`` are 0 for ``q0`` (the opponent has won) and, for ``q1``, the value of
        the forced rolls past the goal.
    """
    g = rules.goal
    model = roll_model(rules)
    m = model.max_gain
    pfree, pforced = model.free_vector(), model.forced_vector()
    dt = bool(pforced.any())
    pb, pr = float(model.p_bust), float(model.p_reset)
    vt = v.T  # vt[j, i] = V[i, j]: the opponent busts, the responder moves at (i, j)
    const = pb * vt + pr * v[:, 0][None, :]  # a bust, or snake eyes sending j to 0
    vpad = np.zeros((g, 2 * g + m + 1))
    vpad[:, :g] = v  # vpad[i, s] = V[i, s], 0 once the opponent reaches the goal
    kk = g + m + 1
    jj = np.arange(g)[:, None]
    q0 = np.zeros((kk, g, g))
    q1 = np.zeros((kk, g, g))
    if dt:
        # past the goal after a double the opponent rolls until a free roll (it wins) or a bust
        q1[:] = (const / (1.0 - float(pforced.sum())))[None]
    for k in range(g - 1, -1, -1):
        r = const + np.tensordot(pfree, q0[k + 1 : k + 1 + m], axes=1)
        if dt:
            r += np.tensordot(pforced, q1[k + 1 : k + 1 + m], axes=1)
        live = jj + k < g
        hold = vpad[:, jj[:, 0] + k].T  # hold[j, i] = V[i, j + k] (a pass at k = 0)
        q0[k] = np.where(live, np.where(roll[:, :, k], r, hold), 0.0)
        if dt:
            q1[k] = np.where(live, r, q1[k])
    out0 = np.ascontiguousarray(q0[:g].transpose(1, 2, 0))
    out1 = np.ascontiguousarray(q1[:g].transpose(1, 2, 0)) if dt else None
    return out0, out1


def _exact(roll: np.ndarray, rules: Rules, max_passes: int = 100) -> tuple[np.ndarray, ...]:
    """One die: ``(value, opponent_value, policy)`` from the compiled two-player engine
    (:func:`pigtheory.sequential.pair_kernels.pair`, the responder as seat 0), the one that the
    referee's best response runs too (module Notes)."""
    g = rules.goal
    die = pair_kernels.die(rules)
    opp = np.ascontiguousarray(roll, dtype=np.float64)
    w0 = np.empty((g, g, g))
    w1 = np.empty((g, g, g))
    choice = np.zeros((g, g, g), dtype=np.bool_)
    out = np.zeros(2)
    pair_kernels.pair()(g, die, opp, opp, 1.0, 0.0, True, max_passes, w0, w1, choice, out)
    if out[1]:
        warnings.warn(
            f"best_response: the roll/hold choices kept changing on {int(out[1])} pair(s) of states "
            "(near-ties); values there are exact only up to such ties",
            ConvergenceWarning,
            stacklevel=3,
        )
    live = (np.arange(g)[:, None, None] + np.arange(g)[None, None, :]) < g
    return np.where(live, w0, np.nan), np.where(live, w1, np.nan), choice


def _iterate(mat: np.ndarray, rules: Rules, tol: float, max_iter: int) -> tuple[np.ndarray, int, float]:
    """Start values by alternating whole turns (any dice)."""
    g = rules.goal
    v = np.zeros((g, g))
    vpad = np.zeros((g, g + 1))
    residual, sweeps = np.inf, 0
    while residual >= tol and sweeps < max_iter:
        vpad[:, :g] = v
        w = np.einsum("jis,is->ji", mat, vpad)  # W[j, i] = sum_s T[j, i, s] V[i, s]
        new = turn_sweep(1.0 - w, rules)
        residual = float(np.max(np.abs(new - v)))
        v = new
        sweeps += 1
    if residual >= tol:
        warnings.warn(
            f"best_response stopped after max_iter={max_iter} sweeps with largest "
            f"change {residual:.3g} >= tol={tol:g}",
            ConvergenceWarning,
            stacklevel=3,
        )
    return v, sweeps, residual
