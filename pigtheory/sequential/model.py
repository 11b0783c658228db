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
hold) or a forced gain (Double Trouble: a non-ones double, added, and the player must roll):
:meth:`pigtheory.Rules.roll_model`, re-exported here as :class:`RollModel` and
:func:`roll_model`.
"""

from __future__ import annotations

import numpy as np

from ..results import Solution, score_shape
from ..rules import RollModel, Rules
from ..validation import check_rules as _check_rules

__all__ = ["RollModel", "roll_model", "SequentialSolution", "check_rules"]


def roll_model(rules: Rules) -> RollModel:
    """The outcomes of one roll under ``rules``: :meth:`Rules.roll_model
    <pigtheory.Rules.roll_model>`, the one roll model every solver reads.

    Parameters
    ----------
    rules : Rules
        One die, two dice, Double Trouble, or any :class:`~pigtheory.Rules` subclass that
        overrides :meth:`~pigtheory.Rules.roll_outcome`.

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
    return rules.roll_model()


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

    def _expected_shapes(self) -> dict[str, tuple[int, ...]]:
        g = self.rules.goal
        shape = score_shape(self.rules, g, (g, 2) if self.rules.double_trouble else (g,))
        return {"value": shape, "policy": shape}

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
