"""Best response in simultaneous Pig when the responder decides roll by roll.

A person at the table does not pick a threshold: after every roll it sees its own turn total
and rolls again or holds. In simultaneous Pig it sees nothing of the opponent's turn, so its
strategy at a state is a stopping rule, a roll-or-hold choice for every turn total (the
action set of :mod:`pigtheory.simultaneous.core.stopping_rules`). Thresholds ("hold at k") are the
special case the papers solve; the best stopping rule can do slightly better, and the play
site shows the person this exact best response.

Shapes
------
``value[i, j]`` (``(goal + 1, goal + 1)``, own score first, ``goal`` = reached) and
``policy[i, j, t]`` (bool, ``(goal, goal, goal)``): roll at turn total t; forced at t = 0,
False from ``t = goal - i`` on (the turn has reached the goal).

Notes
-----
The solve is :func:`pigtheory.simultaneous.best_response` with ``strategies="stopping"``
(the levels of equal score sum from the goal down; at every state the best stopping rule
with the everybody-busts self-loop solved exactly). Within a turn, with ``u`` now counting the state's
own value, the value of the best play from turn total t is

.. math:: Q(t) = \\max\\Big(u(t),\\; p_1\\, u(0) + \\sum_g p_g\\, Q(\\min(t + g, r))\\Big),
          \\qquad Q(r) = u(r), \\qquad Q(0) = V(i, j)

(r = goal - i; no holding at t = 0): :func:`turn_values`. Ties hold (within ``1e-13``).

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), eqs. (6)-(12) (simultaneous Pig against an
independent opponent); W. Dinkelbach, Management Science 13 (1967) 492-498.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..results import Result
from ..rules import Rules
from ..simultaneous.best_response import best_response
from ..simultaneous.core import TIE_TOL, continuation, read_opponents
from ..simultaneous.core.stopping_rules import roll_distribution_arrays

__all__ = ["StoppingResponse", "stopping_best_response", "turn_values"]


@dataclass(frozen=True, eq=False)
class StoppingResponse(Result):
    """The best stopping rule against a fixed simultaneous opponent (see the module docstring).

    Attributes
    ----------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
        ``value[i, j]``: the responder's win probability at the start of a turn, own score i,
        the opponent's j (``goal``: reached).
    policy : numpy.ndarray of bool, shape ``(goal, goal, goal)``
        ``policy[i, j, t]``: roll at turn total t.
    iterations : int
        Score levels.
    residual : float
        0.0: exact up to rounding.
    method : str
    rules : Rules
    """

    value: np.ndarray
    policy: np.ndarray
    iterations: int
    residual: float
    method: str
    rules: Rules


def stopping_best_response(
    opponent: Any, *, rules: Rules = Rules(), engine: str = "auto"
) -> StoppingResponse:
    """The exact best response over stopping rules to a fixed opponent (two players, one die).

    Parameters
    ----------
    opponent : policy
        Anything :func:`pigtheory.as_mixture` reads (hold at n, threshold tables, mixed
        policies such as the equilibrium's), own score first.
    rules : Rules
    engine : {"auto", "numba", "numpy"}
        Of the stopping step.

    Returns
    -------
    StoppingResponse
        ``value`` ``(goal + 1, goal + 1)`` and ``policy`` ``(goal, goal, goal)``. The
        continuation is that of Zhu, Ma, Chen & Liu (2023) eqs. (7)-(9) and (12) against the
        fixed opponent; the action set, every stopping rule, extends their "hold at k".

    Examples
    --------
    >>> from pigtheory import hold_at
    >>> from pigtheory.simultaneous import best_response
    >>> br = stopping_best_response(hold_at(4), rules=Rules(goal=12))
    >>> bool((br.value >= best_response(hold_at(4), rules=Rules(goal=12)).value - 1e-12).all())
    True
    """
    if getattr(rules, "players", 2) != 2:
        raise ValueError(f"rules.players must be 2 here, got {rules.players}")
    sol = best_response(opponent, rules=rules, strategies="stopping", engine=engine)
    return StoppingResponse(sol.value, sol.policy.roll, sol.iterations, 0.0, "exact", rules)


def turn_values(value: np.ndarray, opponent: Any, i: int, j: int, *, rules: Rules) -> dict[str, np.ndarray]:
    """Hold and roll values at every turn total of the responder's turn at state (i, j).

    Parameters
    ----------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
        The responder's values (:attr:`StoppingResponse.value`).
    opponent : policy
        The opponent's policy, as for :func:`stopping_best_response`.
    i, j : int
        The scores at the start of the turn, responder first.
    rules : Rules

    Returns
    -------
    dict of numpy.ndarray, each of length ``goal - i + 1`` over the turn total t
        ``"hold"``: the win probability of holding with t points (``u(t)``; t = 0 is a bust);
        ``"roll"``: of rolling once more and then playing best (NaN from ``t = goal - i``);
        ``"best"``: ``Q(t)``, the larger of the two where both are allowed.
    """
    g = rules.goal
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
