"""Sequential (turn-taking) Pig: one die, Piglet, two dice and Double Trouble.

Shapes: ``value[i, j, k]`` and ``roll[i, j, k]`` for the player to move (own score i,
opponent j, turn total k); Double Trouble adds the forced-roll flag ``l`` as a last axis.
See :mod:`pigtheory.sequential.model`.
"""

from __future__ import annotations

from ..rules import Rules
from .compare import Comparison, compare
from .model import SequentialSolution
from .one_die import solve_exact, solve_one_die
from .play import Games, play
from .policies import base_pace_race, pace_race, roll_table, scoring_turns
from .super_six import super_six
from .turns import turn_matrix
from .value_iteration import value_iteration

__all__ = [
    "solve",
    "compare",
    "Comparison",
    "SequentialSolution",
    "solve_exact",
    "value_iteration",
    "roll_table",
    "scoring_turns",
    "base_pace_race",
    "pace_race",
    "play",
    "Games",
    "super_six",
    "turn_matrix",
]


def solve(
    rules: Rules = Rules(), tol: float = 1e-12, max_iter: int = 100_000, progress: bool | None = None
) -> SequentialSolution:
    """Optimal two-player sequential play.

    One die (and Piglet): exact backward induction by score levels
    (:func:`~pigtheory.sequential.one_die.solve_one_die`; ``tol`` and ``max_iter`` unused).
    Two dice and Double Trouble: value iteration by whole turns until the largest change of
    the start-of-turn values is below ``tol`` (:mod:`pigtheory.sequential.two_dice`).

    Examples
    --------
    >>> round(solve(Rules.piglet(goal=2)).first_player_win, 6)
    0.571429
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a pigtheory.Rules, got {type(rules).__name__}")
    if rules.dice == 1:
        return solve_one_die(rules, progress=progress)
    from .two_dice import solve_two_dice

    return solve_two_dice(rules, tol=tol, max_iter=max_iter, progress=progress)
