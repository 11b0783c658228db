"""Super Six for two players, solved by value iteration (Höhle's blog post, 7 sticks).

Shapes
------
``value[i, j, k, l]``: the probability that the player to move wins, with ``i`` sticks in
the lid (0..5), ``j`` sticks in the mover's hand, ``k`` in the opponent's, ``l = 1`` if the
mover must throw (first throw of the turn) and 0 if it may stop; NaN where ``i + j + k``
exceeds the number of sticks or a hand is empty. ``policy[i, j, k, l]`` is True where the
player throws.

Notes
-----
A throw shows a six with probability 1/6 (a stick from the hand goes down the middle hole),
a free pit with probability ``(5 - i)/6`` (a stick goes into the lid) or an occupied pit with
probability ``i/6`` (the player takes that stick and the turn passes, the opponent to throw).
Stopping passes the turn. A player whose hand is empty wins. With P the mover's win
probability:

.. math::

    Q_{\\text{throw}}(i,j,k) &= \\tfrac16 W(i, j-1, k) + \\tfrac{5-i}{6} W(i+1, j-1, k)
        + \\tfrac{i}{6}\\,(1 - P(i-1, k, j+1, 1)), \\\\
    P(i,j,k,0) &= \\max(Q_{\\text{throw}},\\; 1 - P(i, k, j, 1)), \\qquad
    P(i,j,k,1) = Q_{\\text{throw}},

with ``W(i, 0, k) = 1`` and ``W = P(., ., ., 0)`` otherwise. Sweeps (Gauss-Seidel) run
until the largest change is below ``tol``. The post's rewards +-1 are ``2 P - 1``.

References
----------
M. Höhle, "Dynamic programming for Super Six gameplay" (blog post, 2023), the table of
states with at least 3 sticks in the lid and the strategy description.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..guard import BASE_BYTES, Estimate, check_memory
from ..results import Result
from ..validation import ConvergenceWarning, check_int, check_tol

__all__ = ["SuperSixRules", "SuperSixSolution", "super_six", "estimate_memory"]


@dataclass(frozen=True)
class SuperSixRules:
    """The rules of Super Six (Höhle 2023): two players, one six-sided die, a lid with five
    pits and a middle hole, and ``sticks`` sticks in play. Not a game of Pig, so not a
    :class:`~pigtheory.Rules`: the one thing that varies is the number of sticks.

    Attributes
    ----------
    sticks : int
        Sticks in play (lid and both hands), ``>= 2``.
    """

    sticks: int = 7

    def __post_init__(self) -> None:
        check_int("sticks", self.sticks, low=2)


@dataclass(frozen=True, eq=False)
class SuperSixSolution(Result):
    """Optimal two-player Super Six (see the module docstring for shapes).

    Attributes
    ----------
    value : numpy.ndarray, shape ``(6, sticks + 1, sticks + 1, 2)``
        ``value[i, j, k, l]``: the mover's win probability with i sticks in the lid, j in the
        mover's hand, k in the opponent's, ``l = 1`` when the mover must throw; NaN off the
        states of the game.
    policy : numpy.ndarray of bool, same shape
        True where the mover throws.
    iterations : int
        Sweeps.
    residual : float
        The last sweep's largest change.
    method : str
        ``"value_iteration"``.
    rules : SuperSixRules
        The game solved (its ``sticks``; before issue 20 a field ``sticks`` of the result).
    """

    value: np.ndarray
    policy: np.ndarray
    iterations: int
    residual: float
    method: str
    rules: SuperSixRules

    def __post_init__(self) -> None:
        self.value.setflags(write=False)
        self.policy.setflags(write=False)

    @property
    def sticks(self) -> int:
        """Sticks in play: ``rules.sticks``."""
        return self.rules.sticks

    @classmethod
    def _legacy_fields(cls, fields: dict) -> dict:
        """The fields of a file saved before issue 20 (``sticks`` instead of ``rules``)."""
        fields = dict(fields)
        if "sticks" in fields:
            fields["rules"] = SuperSixRules(int(fields.pop("sticks")))
        return fields

    def table(self, min_lid: int = 3) -> list[tuple[int, int, int, int, float, bool, float]]:
        """Rows ``(i, j, k, l, reward value 2P - 1, throw, P)`` for states with at least
        ``min_lid`` sticks in the lid, in the post's order (i, j, k, l descending): the table
        of Höhle's "Results" section.

        Parameters
        ----------
        min_lid : int
            Fewest sticks in the lid (the post lists 3 and more).

        Returns
        -------
        list of tuple
            ``(i, j, k, l, 2 P - 1, throw, P)`` per state.
        """
        rows = []
        for i, j, k, forced in sorted(_states(self.sticks), reverse=True):
            if i >= min_lid:
                p = float(self.value[i, j, k, forced])
                rows.append((i, j, k, forced, 2 * p - 1, bool(self.policy[i, j, k, forced]), p))
        return rows


def _states(sticks: int) -> list[tuple[int, int, int, int]]:
    return [
        (i, j, k, forced)
        for i in range(6)
        for j in range(1, sticks + 1)
        for k in range(1, sticks + 1)
        for forced in (0, 1)
        if i + j + k <= sticks
    ]


def estimate_memory(sticks: Any) -> Estimate | None:
    """:func:`pigtheory.sequential.super_six`: two float tables and the list of states
    (a Python tuple each) over ``6 * (sticks + 1) ** 2 * 2`` states."""
    if not isinstance(sticks, int) or isinstance(sticks, bool) or sticks < 2:
        return None
    states = 12 * (sticks + 1) ** 2
    return Estimate(f"Super Six ({sticks} sticks)", states, 160 * states + BASE_BYTES, "use fewer sticks")


def super_six(
    sticks: int = 7, *, tol: float = 1e-15, max_iter: int = 100_000, max_memory: Any = None
) -> SuperSixSolution:
    """Solve two-player Super Six with at most ``sticks`` sticks in play.

    The Bellman equations and value iteration (Algorithm 1) of Höhle's post (module Notes),
    swept Gauss-Seidel.

    Parameters
    ----------
    sticks : int
        Total number of sticks (lid and both hands), ``>= 2``.
    tol : float
        Stop when the largest change of a sweep is below ``tol`` (> 0).
    max_iter : int
        At most this many sweeps (>= 1); stopping there warns with
        :class:`~pigtheory.validation.ConvergenceWarning`.

    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    SuperSixSolution
        ``value`` and ``policy`` of shape ``(6, sticks + 1, sticks + 1, 2)``.

    Examples
    --------
    >>> sol = super_six(7)
    >>> i, j, k, l, u, throw, p = sol.table()[1]
    >>> (i, j, k, l), throw, round(p, 7)
    ((5, 1, 1, 0), False, 0.5487083)
    """
    sticks = check_int("sticks", sticks, low=2)
    tol = check_tol(tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    check_memory(estimate_memory(sticks), max_memory)
    n = sticks
    states = _states(n)
    p = np.full((6, n + 1, n + 1, 2), np.nan)
    for s in states:
        p[s] = 0.5
    throw = np.zeros(p.shape, dtype=bool)

    def w(i: int, j: int, k: int) -> float:
        return 1.0 if j == 0 else p[i, j, k, 0]

    residual, it = np.inf, 0
    while residual >= tol and it < max_iter:
        residual = 0.0
        for i, j, k, forced in states:
            q = w(i, j - 1, k) / 6
            if i < 5:
                q += (5 - i) / 6 * w(i + 1, j - 1, k)
            if i > 0:
                q += i / 6 * (1.0 - p[i - 1, k, j + 1, 1])
            if forced:
                new, go = q, True
            else:
                stop = 1.0 - p[i, k, j, 1]
                new, go = max(q, stop), q > stop
            residual = max(residual, abs(new - p[i, j, k, forced]))
            p[i, j, k, forced] = new
            throw[i, j, k, forced] = go
        it += 1
    if residual >= tol:
        warnings.warn(
            f"value iteration stopped after max_iter={max_iter} sweeps with largest change "
            f"{residual:.3g} >= tol={tol:g}",
            ConvergenceWarning,
            stacklevel=2,
        )
    return SuperSixSolution(p, throw, it, float(residual), "value_iteration", SuperSixRules(n))
