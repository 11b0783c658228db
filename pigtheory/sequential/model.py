"""One roll of sequential Pig as the solvers see it, and the result type of the solvers.

Shapes
------
Sequential states are seen by the player to move: ``value[i, j, k]`` is that player's
probability of winning with own score ``i``, opponent's score ``j`` and turn total ``k``
(``0 <= i, j, k < goal``); ``roll[i, j, k]`` is True where the player rolls. States with
``i + k >= goal`` are wins (hold) and are stored as NaN / False. Double Trouble adds the last
axis ``l`` of the paper's state (i, j, k, l): ``value[i, j, k, 1]`` is the value just after a
non-ones double, when the player must roll again (``roll[..., 1]`` is True).

A roll ends in one of four ways: a bust (the turn total is lost), a reset (two dice only:
snake eyes, the whole score is lost), a free gain (the points are added and the player may
hold) or a forced gain (Double Trouble: a non-ones double, added, and the player must roll).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..results import Solution
from ..rules import Rules
from ..validation import check_rules as _check_rules

__all__ = ["RollModel", "roll_model", "SequentialSolution", "check_rules"]


@dataclass(frozen=True)
class RollModel:
    """Probabilities of the outcomes of one roll (exact fractions).

    Attributes
    ----------
    p_bust : Fraction
        A bust: the turn total is lost.
    p_reset : Fraction
        A reset (two dice: snake eyes): the score is lost too.
    free : tuple of (gain, Fraction)
        Gains after which the player may hold.
    forced : tuple of (gain, Fraction)
        Gains after which the player must roll again (Double Trouble doubles).
    """

    p_bust: Fraction
    p_reset: Fraction
    free: tuple[tuple[int, Fraction], ...]
    forced: tuple[tuple[int, Fraction], ...]

    @property
    def max_gain(self) -> int:
        """Largest points one roll adds."""
        return max(g for g, _ in self.free + self.forced)

    def free_vector(self) -> np.ndarray:
        """``vec[g - 1]`` = probability of a free gain of g points, g = 1..max_gain: float,
        shape ``(max_gain,)``."""
        return _vector(self.free, self.max_gain)

    def forced_vector(self) -> np.ndarray:
        """``vec[g - 1]`` = probability of a forced gain (a non-ones double) of g points: float,
        shape ``(max_gain,)``, zeros without Double Trouble."""
        return _vector(self.forced, self.max_gain)


def _vector(pairs: tuple[tuple[int, Fraction], ...], m: int) -> np.ndarray:
    v = np.zeros(m)
    for g, p in pairs:
        v[g - 1] += float(p)
    return v


def roll_model(rules: Rules) -> RollModel:
    """The outcomes of one roll under ``rules``.

    Parameters
    ----------
    rules : Rules
        One die, two dice or Double Trouble.

    Returns
    -------
    RollModel
        Exact probabilities: for two dice, a bust is one bust face (10/36 with six faces),
        a reset two (1/36), as in Zhu & Ma (2022), section 1 and Figure 1.

    Examples
    --------
    >>> m = roll_model(Rules(dice=2, double_trouble=True))
    >>> str(m.p_bust), str(m.p_reset), str(sum(p for _, p in m.forced))
    ('5/18', '1/36', '5/36')
    """
    n = rules.die_faces
    one = Fraction(1, n)
    points = rules.scoring_faces
    if rules.dice == 1:
        free: dict[int, Fraction] = {}
        for p in points:
            free[p] = free.get(p, Fraction(0)) + one
        return RollModel(one, Fraction(0), tuple(sorted(free.items())), ())
    free = {}
    forced: dict[int, Fraction] = {}
    for a, pa in enumerate(points):
        for b, pb in enumerate(points):
            target = forced if (rules.double_trouble and a == b) else free
            target[pa + pb] = target.get(pa + pb, Fraction(0)) + one * one
    return RollModel(
        2 * one * (1 - one), one * one, tuple(sorted(free.items())), tuple(sorted(forced.items()))
    )


def check_rules(rules: Rules) -> Rules:
    """Rules of sequential Pig: a :class:`~pigtheory.Rules` with two players.

    Returns
    -------
    Rules
        ``rules`` itself; ``ValueError`` unless valid with two players.
    """
    _check_rules(rules)
    if rules.players != 2:
        raise ValueError(f"rules.players must be 2 for sequential Pig, got {rules.players}")
    return rules


class SequentialSolution(Solution):
    """Optimal sequential play: ``value[i, j, k]`` and ``policy`` (= ``roll``), see the module
    docstring for shapes. ``residual`` is 0 up to rounding for the exact one-die solver.

    Attributes
    ----------
    value : numpy.ndarray, shape ``(goal, goal, goal)`` or ``(goal, goal, goal, 2)``
        ``value[i, j, k]``: win probability of the player to move at own score i, opponent's
        score j, turn total k (NaN where ``i + k >= goal``); Double Trouble adds ``l``.
    policy : numpy.ndarray of bool, same shape
        True where the player rolls.
    iterations : int
        Passes (exact) or sweeps (value iteration).
    residual : float
        The largest change of the last sweep, or equation violation left (exact).
    method : str
        ``"exact"`` or ``"value_iteration"``.
    rules : Rules
    """

    _frame_axes = ("own", "other", "turn_total", "l")  # to_frame's state columns

    @property
    def roll(self) -> np.ndarray:
        """The same array as ``policy``: ``roll[i, j, k]`` True where the player rolls."""
        return self.policy

    @property
    def first_player_win(self) -> float:
        """Win probability of the first player at the start of the game."""
        return float(self.value[(0, 0, 0) + (0,) * (self.value.ndim - 3)])

    def hold_thresholds(self) -> np.ndarray:
        """``t[i, j]``: the smallest turn total k >= 1 at which the player holds (``goal - i``
        if the player rolls on to the goal); the hold-value tables of Neller & Presser.

        Returns
        -------
        numpy.ndarray of int, shape ``(goal, goal)``
            Own score first; Double Trouble: of the free choice (``l = 0``).
        """
        roll = self.policy[..., 0] if self.policy.ndim == 4 else self.policy
        g = self.rules.goal
        k = np.arange(g + 1)
        roll = np.concatenate([roll, np.zeros((g, g, 1), dtype=bool)], axis=2)
        holds = ~roll & (k[None, None, :] >= 1)
        holds |= k[None, None, :] >= (g - np.arange(g))[:, None, None]
        return np.argmax(holds, axis=2)
