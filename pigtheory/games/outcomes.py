"""The outcome table of one roll: every equally likely roll, what it does, and how it is drawn.

The table is :meth:`pigtheory.Rules.roll_table` (the rules' one roll rule,
:meth:`~pigtheory.Rules.roll_outcome`, applied to every roll) read as flags: roll ``r`` (the
faces ``(f_1, ..., f_d)`` numbered ``r = sum((f_i - 1) * faces ** (d - i))``) adds
``points[r]``, ends the turn if ``bust[r]``, also loses the score if ``reset[r]`` and must be
rolled again if ``again[r]``. All ``faces ** dice`` rolls have probability ``faces ** -dice``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from ..rules import BUST, DOUBLE, RESET, ROLL_KINDS, Rules

__all__ = ["Outcomes", "outcomes", "Dice"]


@dataclass(frozen=True, eq=False)
class Outcomes:
    """The outcome of every equally likely roll of ``rules`` (module docstring).

    Attributes
    ----------
    rules : Rules
    kind : numpy.ndarray of int, shape ``(rolls,)``
        Codes of ``ROLL_KINDS`` (bust, reset, score, double).
    points, bust, reset, again : numpy.ndarray, shape ``(rolls,)``
        Points added (0 on a bust or reset); the turn ends; the score is lost too (two dice,
        snake eyes); the player must roll again (Double Trouble).
    probability : Fraction
        Of each roll, ``1 / rolls``.
    """

    rules: Rules
    kind: np.ndarray
    points: np.ndarray
    bust: np.ndarray
    reset: np.ndarray
    again: np.ndarray
    probability: Fraction

    @property
    def rolls(self) -> int:
        """Number of equally likely rolls, ``die_faces ** dice``."""
        return int(self.kind.size)

    @property
    def simple(self) -> bool:
        """No reset and no forced roll: every roll either busts or adds points the player may
        bank (one die, Piglet's coin): :attr:`pigtheory.rules.RollModel.simple`."""
        return not (self.reset.any() or self.again.any())

    def faces(self, roll: int) -> tuple[int, ...]:
        """The faces shown by roll ``roll``, one per die."""
        n, out = self.rules.die_faces, []
        for _ in range(self.rules.dice):
            roll, f = divmod(roll, n)
            out.append(f + 1)
        return tuple(reversed(out))

    def exact(self) -> dict[tuple[str, int], Fraction]:
        """``(kind, points) -> probability``, exact; the probabilities sum to 1."""
        out: dict[tuple[str, int], Fraction] = {}
        for k, p in zip(self.kind.tolist(), self.points.tolist(), strict=True):
            key = (ROLL_KINDS[k], p)
            out[key] = out.get(key, Fraction(0)) + self.probability
        return dict(sorted(out.items()))

    def to_json(self) -> list[list[Any]]:
        """``[kind, points]`` of every roll in roll order: the table the web pages read."""
        return [[ROLL_KINDS[k], p] for k, p in zip(self.kind.tolist(), self.points.tolist(), strict=True)]

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` independent rolls (indices into the table), the dice drawn face by face.

        The same draws as :meth:`pigtheory.Rules.sample_rolls` (``rng.integers(0,
        die_faces)`` per die, die after die), so a seed gives the same rolls everywhere.
        """
        rules = self.rules
        if rules.dice == 1:
            return rng.integers(0, rules.die_faces, size=size)
        n = rules.die_faces
        faces = rng.integers(0, n, size=(size, rules.dice))
        return faces @ (n ** np.arange(rules.dice - 1, -1, -1))


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@lru_cache(maxsize=256)
def outcomes(rules: Rules) -> Outcomes:
    """The :class:`Outcomes` of ``rules`` (cached by the rules)."""
    table = rules.roll_table()
    kind = table.kind
    return Outcomes(
        rules=rules,
        kind=kind,
        points=table.points,
        bust=_frozen((kind == BUST) | (kind == RESET)),
        reset=_frozen(kind == RESET),
        again=_frozen(kind == DOUBLE),
        probability=Fraction(1, int(kind.size)),
    )


class Dice:
    """Rolls of a simple game (:attr:`Outcomes.simple`) from a generator, drawn in blocks.

    :meth:`roll` returns the points of the next roll, 0 on a bust: the scalar environments'
    die. The rolls are :meth:`Outcomes.sample`'s, ``block`` at a time (one draw at a time
    costs a microsecond each); the same generator state gives the same rolls.
    """

    __slots__ = ("_points", "_rng", "_block", "_buf", "_pos", "_table")

    def __init__(self, table: Outcomes, rng: np.random.Generator, block: int = 1024) -> None:
        if not table.simple:
            raise ValueError(f"rules: Dice rolls games without resets or forced rolls, got {table.rules}")
        self._table = table
        self._points = table.points
        self._rng = rng
        self._block = block
        self._buf: list[int] = []
        self._pos = 0

    def roll(self) -> int:
        """Points of one roll; 0 is a bust."""
        if self._pos == len(self._buf):
            self._buf = self._points[self._table.sample(self._rng, self._block)].tolist()
            self._pos = 0
        p = self._buf[self._pos]
        self._pos += 1
        return p
