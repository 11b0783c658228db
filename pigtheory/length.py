"""How long a game of Pig lasts, in turns: exact distributions from absorbing Markov chains.

Notes
-----
Between two fixed sequential policies a game is a Markov chain over the start-of-turn states
(mover's score i, other's score j), the movers alternating. With ``T`` the mover's turn
matrix (:func:`pigtheory.sequential.turns.turn_matrix`: the mover's score after the turn, or
the goal), the probability mass ``d_t[i, j]`` of being at the start of turn ``t + 1`` evolves
as

.. math:: d_{t+1}[j, s] = \\sum_i d_t[i, j]\\, T[i, j, s], \\qquad
    P(\\text{game ends at turn } t + 1) = \\sum_{i,j} d_t[i, j]\\, T[i, j, \\text{goal}],

starting from ``d_0 = \\delta_{(0, 0)}``. It is iterated until the mass still playing is below
``tol``; the mean and standard deviation follow from the distribution. A single player
holding at n alone is the same chain over its own score only.

References
----------
Zhu & Ma, Stats 5 (2022), Table 1 (mean and sd of the number of turns, 10^7 simulated games);
the single-player poster (turns to reach 100 holding at 17..26, 10^5 simulated games).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .guard import BASE_BYTES, Estimate, check_memory, with_roll_model
from .policies import HoldAt
from .policies.sequential import roll_table
from .results import Result
from .rules import Rules
from .sequential.model import check_rules
from .sequential.turns import turn_matrix
from .validation import ConvergenceWarning, check_int, check_tol

__all__ = ["TurnDistribution", "game_length", "single_player", "estimate_memory"]


@dataclass(frozen=True, eq=False)
class TurnDistribution(Result):
    """Distribution of a number of turns.

    Attributes
    ----------
    pmf : numpy.ndarray, shape ``(T + 1,)``
        ``pmf[t]`` = P(exactly t turns), ``t = 0..T`` (``pmf[0] = 0``), T the turns iterated.
    tail : float
        Probability mass not yet absorbed when the iteration stopped (below ``tol``).
    first_wins : float
        Games between two players: probability that the first player wins (NaN alone).
    rules : Rules
    """

    pmf: np.ndarray
    tail: float
    first_wins: float
    rules: Rules

    @property
    def mean(self) -> float:
        """Expected number of turns (of the mass absorbed, ``pmf`` renormalised)."""
        t = np.arange(self.pmf.size)
        return float(t @ self.pmf / self.pmf.sum())

    @property
    def variance(self) -> float:
        """Variance of the number of turns."""
        t = np.arange(self.pmf.size)
        return float(((t - self.mean) ** 2) @ self.pmf / self.pmf.sum())

    @property
    def sd(self) -> float:
        """Standard deviation of the number of turns (Zhu & Ma 2022, Table 1's parentheses)."""
        return float(np.sqrt(self.variance))

    @property
    def median(self) -> int:
        """The smallest t with P(turns <= t) >= 1/2."""
        return int(np.searchsorted(np.cumsum(self.pmf), 0.5 * self.pmf.sum()))


def _check_tol(tol: float, max_turns: int) -> None:
    if check_tol(tol) >= 1:
        raise ValueError(f"tol must be in (0, 1), got {tol!r}")
    check_int("max_turns", max_turns, low=1)


@with_roll_model(name="game length")
def estimate_memory(rules: Any) -> Estimate | None:
    """:func:`pigtheory.length.game_length`: both players' turn matrices."""
    if not isinstance(rules, Rules):
        return None
    g = rules.goal
    return Estimate(f"game length ({rules})", g**3, 52 * g**3 + BASE_BYTES, "lower the goal")


def game_length(
    policy_a: Any,
    policy_b: Any,
    *,
    rules: Rules = Rules(),
    tol: float = 1e-15,
    max_turns: int = 20_000,
    max_memory: Any = None,
) -> TurnDistribution:
    """Exact distribution of the number of turns (both players') of a sequential game, A first.

    Parameters
    ----------
    policy_a, policy_b
        Sequential policies (solutions, ``hold_at(n)``, practical policies without a
        counter, roll tables); A moves first.
    rules : Rules
    tol : float
        Stop when the mass of unfinished games is below ``tol``.
    max_turns : int
        Stop after this many turns at most (the mass left is reported as ``tail``).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    TurnDistribution
        ``pmf`` over the total turns of both players (the quantity of Zhu & Ma 2022, Table 1,
        there from 10^7 simulated games) and ``first_wins``.

    Examples
    --------
    >>> from pigtheory import hold_at
    >>> d = game_length(hold_at(2), hold_at(2), rules=Rules.piglet(goal=2))
    >>> round(d.mean, 6), round(d.first_wins, 6)  # a turn scores 2 with probability 1/4
    (4.0, 0.571429)
    """
    check_memory(estimate_memory(rules), max_memory)
    check_rules(rules)
    _check_tol(tol, max_turns)
    mats = [turn_matrix(roll_table(p, rules), rules) for p in (policy_a, policy_b)]
    g = rules.goal
    d = np.zeros((g, g))
    d[0, 0] = 1.0
    pmf = [0.0]
    first = 0.0
    left = 1.0
    t = 0
    while left >= tol and t < max_turns:
        mat = mats[t % 2]
        end = float(np.einsum("ij,ij->", d, mat[:, :, g]))
        d = np.einsum("ij,ijs->js", d, mat[:, :, :g])
        pmf.append(end)
        if t % 2 == 0:
            first += end
        t += 1
        left = float(d.sum())
    _warn_unfinished(left, tol, max_turns)
    return TurnDistribution(np.array(pmf), left, first, rules)


def single_player(
    n: int, *, rules: Rules = Rules(), tol: float = 1e-15, max_turns: int = 20_000, max_memory: Any = None
) -> TurnDistribution:
    """Exact distribution of the number of turns one player needs to reach the goal holding at n.

    Parameters
    ----------
    n : int
        Hold as soon as the turn total reaches ``min(n, goal - score)``.
    rules : Rules
        Any die or dice (snake eyes resets the score; Double Trouble forces re-rolls).
    tol, max_turns
        As for :func:`game_length`.

    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    TurnDistribution
        ``first_wins`` is NaN. The single-player poster's table ("Results of different
        'hold' thresholds", n = 17..26, 10^5 simulated games) estimates this distribution's
        ``mean``, ``median`` and ``sd`` (its column labelled "Variance" holds standard
        deviations).

    Examples
    --------
    >>> d = single_player(1, rules=Rules.piglet(goal=1))
    >>> round(d.mean, 6), d.median  # geometric with p = 1/2
    (2.0, 1)
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a pigtheory.Rules, got {type(rules).__name__}")
    _check_tol(tol, max_turns)
    policy = HoldAt(n)
    rules2 = rules.replace(players=2)
    check_memory(estimate_memory(rules2), max_memory)
    mat = turn_matrix(roll_table(policy, rules2), rules2)[:, 0, :]  # the opponent plays no part
    g = rules.goal
    d = np.zeros(g)
    d[0] = 1.0
    pmf = [0.0]
    left, t = 1.0, 0
    while left >= tol and t < max_turns:
        pmf.append(float(d @ mat[:, g]))
        d = d @ mat[:, :g]
        left = float(d.sum())
        t += 1
    _warn_unfinished(left, tol, max_turns)
    return TurnDistribution(np.array(pmf), left, float("nan"), rules)


def _warn_unfinished(left: float, tol: float, max_turns: int) -> None:
    if left >= tol:
        warnings.warn(
            f"max_turns: stopped after {max_turns} turns with {left:.2e} of the games unfinished "
            f"(tol {tol:g}); the distribution's tail holds it",
            ConvergenceWarning,
            stacklevel=3,
        )
