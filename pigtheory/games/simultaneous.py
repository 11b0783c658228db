"""Simultaneous Pig: every player plays its turn at once; the one transition of that kind of play.

Simultaneous state
------------------
The scores in seat order, a tuple; the start is all zeros. Within a turn each player has its own
turn total ``k`` (its turn is unseen by the others until the turn ends).

Simultaneous transition
-----------------------
A roll is read as the simultaneous solvers read it (:meth:`pigtheory.Rules.roll_distribution`):
roll ``r`` busts (``k <- 0``, the turn is over) if ``bust[r]`` (a reset counts as a bust: scores
do not drop), else ``k <- k + points[r]`` (a double is a plain gain). A "hold at t" turn rolls
while ``0 < k < t``; its gain ``X_t`` has

    P(X_t = x) = sum over roll sequences from 0 reaching x >= t without a bust of prod 1/rolls,

clipped at ``room = goal - own`` (:meth:`SimultaneousGame.turn_distribution`). When every
player's turn is over the gains are added, scores clipped at the goal; the game ends when a
score reaches the goal, the ``m`` players there sharing the win (``1/m`` each).

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): the rules of simultaneous Pig.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from .. import _wiring
from ..rules import Rules
from ..validation import check_int
from .outcomes import Dice, Outcomes, outcomes

__all__ = ["SimultaneousGame"]


class SimultaneousGame:
    """Simultaneous Pig under ``rules`` (module docstring).

    Examples
    --------
    >>> from pigtheory import Rules
    >>> game = SimultaneousGame(Rules.piglet(goal=2))
    >>> game.turn_distribution(2, 2)
    {0: Fraction(3, 4), 2: Fraction(1, 4)}
    >>> game.end_turn((1, 0), (1, 0))
    ((2, 0), (1.0, 0.0))
    """

    def __init__(self, rules: Rules) -> None:
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a pigtheory.Rules, got {type(rules).__name__}")
        self.rules = rules
        self.goal = rules.goal
        self.outcomes: Outcomes = outcomes(rules)
        self._turns = lru_cache(maxsize=None)(self._turn_distribution)

    def evaluate(self, profile: Any, **options: Any) -> np.ndarray:
        """Every seat's exact win probability at every state under a fixed profile (one policy
        for every seat, or a list of one per seat in seat order): the value that solves the
        game's Bellman equation with every policy fixed, :func:`pigtheory.simultaneous.win_probabilities`
        with this game's rules (``options``: ``max_memory``). Shape
        ``(players,) + (goal + 1,) * players``, scores in seat order.

        >>> from pigtheory import Rules, hold_at
        >>> v = SimultaneousGame(Rules(goal=20)).evaluate([hold_at(10), hold_at(15)])
        >>> round(float(v[0, 0, 0] + v[1, 0, 0]), 12)
        1.0
        """
        if not isinstance(profile, (list, tuple)):
            profile = [profile] * self.rules.players
        return _wiring.game_solver("simultaneous", "evaluate")(list(profile), rules=self.rules, **options)

    def best_response(self, profile: Any, seat: int = 0, **options: Any) -> Any:
        """The exact best response of ``seat`` to the other seats' policies in ``profile`` (one
        per seat in seat order; the responder's own entry is ignored; or one policy for every
        seat): the maximum over the action set of the Bellman step, solved by backward
        induction (:func:`pigtheory.simultaneous.best_response` with this game's rules, the
        opponents in turn order from the seat after ``seat``; ``options``: that function's
        ``method``, ``strategies``, ``engine``, ``max_memory`` and the others). The policy it
        returns reads the responder's own score first."""
        n = self.rules.players
        seat = check_int("seat", seat, low=0, high=n - 1)
        if not isinstance(profile, (list, tuple)):
            profile = [profile] * n
        elif len(profile) != n:
            raise ValueError(f"profile must hold one policy per seat ({n}), got {len(profile)}")
        others = [profile[(seat + j) % n] for j in range(1, n)]
        return _wiring.game_solver("simultaneous", "best_response")(
            others[0] if n == 2 else others, rules=self.rules, **options
        )

    def start(self) -> tuple[int, ...]:
        """All scores 0."""
        return (0,) * self.rules.players

    def is_terminal(self, scores: tuple[int, ...]) -> bool:
        """Whether a score has reached the goal."""
        return max(scores) >= self.goal

    def shares(self, scores: tuple[int, ...]) -> tuple[float, ...] | None:
        """Each seat's share of the win (``1/m`` for the ``m`` at the goal), None if not over."""
        at_goal = [s >= self.goal for s in scores]
        m = sum(at_goal)
        return tuple(1.0 / m if a else 0.0 for a in at_goal) if m else None

    def end_turn(
        self, scores: tuple[int, ...] | list[int], gains: tuple[int, ...] | list[int]
    ) -> tuple[tuple[int, ...], tuple[float, ...] | None]:
        """Add the turn's gains (clipped at the goal): the new scores and :meth:`shares`."""
        new = tuple(min(s + x, self.goal) for s, x in zip(scores, gains, strict=True))
        return new, self.shares(new)

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` rolls (indices of :attr:`outcomes`): :meth:`Outcomes.sample`."""
        return self.outcomes.sample(rng, size)

    def dice(self, rng: np.random.Generator) -> Dice:
        """A scalar die drawing from ``rng`` (simple games only)."""
        return Dice(self.outcomes, rng)

    def roll(self, k: int, roll: int) -> int:
        """A turn total after roll ``roll``: 0 on a bust (the turn is over)."""
        t = self.outcomes
        return 0 if t.bust[roll] else k + int(t.points[roll])

    def roll_many(self, k: np.ndarray, rolls: np.ndarray) -> np.ndarray:
        """:meth:`roll` of many turn totals at once (a new array; 0 where the roll busts)."""
        t = self.outcomes
        return np.where(t.bust[rolls], 0, k + t.points[rolls])

    def turn_distribution(self, t: int, room: int) -> dict[int, Fraction]:
        """``gain -> probability`` of a "hold at t" turn, the gain clipped at ``room`` (0: bust).

        The forward recursion over turn totals, from the outcome table alone (an independent
        check of :func:`pigtheory.turn_total`); cached. A fresh dict at every call.
        """
        return dict(self._turns(t, room))

    def _turn_distribution(self, t: int, room: int) -> dict[int, Fraction]:
        q = self.outcomes.probability
        steps: dict[int, Fraction] = {}
        for b, p in zip(self.outcomes.bust.tolist(), self.outcomes.points.tolist(), strict=True):
            steps[0 if b else p] = steps.get(0 if b else p, Fraction(0)) + q
        reach = {0: Fraction(1)}
        final: dict[int, Fraction] = {}
        for k in range(max(t, 1)):
            p = reach.pop(k, None)
            if p is None:
                continue
            for x, px in steps.items():
                if x == 0:
                    final[0] = final.get(0, Fraction(0)) + p * px
                elif k + x >= t:
                    y = min(k + x, room)
                    final[y] = final.get(y, Fraction(0)) + p * px
                else:
                    reach[k + x] = reach.get(k + x, Fraction(0)) + p * px
        return dict(sorted(final.items()))
