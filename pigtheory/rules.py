"""Rules of a game of Pig: goal, the die (or dice, or coin), and the number of players.

A :class:`Rules` is frozen and hashable, so that tables derived from it (the turn-total
distributions of :mod:`pigtheory.turn_total`, solved games) can be cached by it.

One roll of the die ends the turn with probability ``p_bust`` (a bust face) or adds the
points of a scoring face. The default is the game of the papers: one six-sided die whose
face 1 busts, the other faces score their number of pips, goal 100, two players.

Variants
--------
``Rules(dice=2)``
    Two-dice Pig (Zhu & Ma, Stats 2022): a single 1 loses the turn total, two 1s ("snake
    eyes") lose the whole score; otherwise the sum of the dice is added.
``Rules(dice=2, double_trouble=True)``
    ... and a double other than two 1s must roll again.
``Rules.piglet(goal=10)``
    Neller & Presser's Piglet: a coin; heads scores one point, tails busts.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Rules"]


@dataclass(frozen=True)
class Rules:
    """The rules of one game of Pig.

    Parameters
    ----------
    goal : int
        Score that wins, ``goal >= 1``.
    die_faces : int
        Number of faces of each die, ``>= 2``.
    bust_face : int
        The face that busts (ends the turn with no points), ``1 <= bust_face <= die_faces``.
    players : int
        Number of players, ``>= 2``.
    dice : int
        Number of dice rolled at once, 1 or 2.
    double_trouble : bool
        Two dice only: a double other than two bust faces must roll again.
    face_points : tuple of int, optional
        Points scored by each non-bust face, in face order. Default: the face's number.
        Piglet's coin is ``die_faces=2, face_points=(1,)``.

    Examples
    --------
    >>> Rules().goal, Rules().p_bust
    (100, Fraction(1, 6))
    >>> Rules.piglet(goal=10).roll_distribution()
    {0: Fraction(1, 2), 1: Fraction(1, 2)}
    """

    goal: int = 100
    die_faces: int = 6
    bust_face: int = 1
    players: int = 2
    dice: int = 1
    double_trouble: bool = False
    face_points: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        for name in ("goal", "die_faces", "bust_face", "players", "dice"):
            value = getattr(self, name)  # numpy integers are integers too: stored as int
            if _is_numpy_int(value):
                object.__setattr__(self, name, int(value))
        if _is_numpy_bool(self.double_trouble):
            object.__setattr__(self, "double_trouble", bool(self.double_trouble))
        _check_int("goal", self.goal, 1)
        _check_int("die_faces", self.die_faces, 2)
        _check_int("players", self.players, 2)
        _check_int("bust_face", self.bust_face, 1, self.die_faces)
        if self.dice not in (1, 2) or isinstance(self.dice, bool):
            raise ValueError(f"dice must be 1 or 2, got {self.dice!r}")
        if not isinstance(self.double_trouble, bool):
            raise ValueError(f"double_trouble must be True or False, got {self.double_trouble!r}")
        if self.double_trouble and self.dice != 2:
            raise ValueError("double_trouble=True needs dice=2")
        if self.face_points is not None:
            points = tuple(self.face_points)
            if len(points) != self.die_faces - 1:
                raise ValueError(
                    f"face_points must give the points of the {self.die_faces - 1} non-bust "
                    f"faces, got {len(points)} values"
                )
            points = tuple(int(p) if _is_numpy_int(p) else p for p in points)
            for p in points:
                _check_int("face_points", p, 1)
            object.__setattr__(self, "face_points", points)

    @classmethod
    def piglet(cls, goal: int = 10, players: int = 2) -> Rules:
        """Neller & Presser's Piglet (slides, "Piglet"): flip a coin, heads scores 1, tails busts.

        Parameters
        ----------
        goal : int
            The slides' Piglet is played to 10 (and, "even simpler", to 2).
        players : int

        Returns
        -------
        Rules
            ``die_faces=2, bust_face=1, face_points=(1,)``.
        """
        return cls(goal=goal, die_faces=2, bust_face=1, players=players, face_points=(1,))

    def replace(self, **changes: object) -> Rules:
        """A copy with some fields changed (validated again): ``rules.replace(goal=50)``."""
        fields = {f: getattr(self, f) for f in self.__dataclass_fields__}
        fields.update(changes)
        return Rules(**fields)  # type: ignore[arg-type]

    @property
    def scoring_faces(self) -> tuple[int, ...]:
        """Points of each non-bust face of one die."""
        if self.face_points is not None:
            return self.face_points
        return tuple(f for f in range(1, self.die_faces + 1) if f != self.bust_face)

    @property
    def is_piglet(self) -> bool:
        """Whether these are Piglet's rules (one coin, heads scores 1), any goal and players."""
        return self.face_points == (1,) and self.die_faces == 2 and self.dice == 1

    @property
    def p_bust(self) -> Fraction:
        """Probability that one roll loses the turn total."""
        return self.roll_distribution()[0]

    @property
    def max_roll(self) -> int:
        """Largest number of points one roll adds."""
        return max(self.roll_distribution())

    def roll_distribution(self) -> dict[int, Fraction]:
        """Exact distribution of the points one roll adds to the turn total (0 = bust).

        With two dice, a roll with any bust face is a bust (0); the score-losing snake eyes
        and the forced re-roll of Double Trouble are not a property of one roll's points and
        are handled by the sequential solvers.
        """
        n = self.die_faces
        dist: dict[int, Fraction] = {0: Fraction(1, n)}
        single = {p: Fraction(0) for p in self.scoring_faces}
        for p in self.scoring_faces:
            single[p] += Fraction(1, n)
        if self.dice == 1:
            dist.update(single)
            return dict(sorted(dist.items()))
        dist = {0: 1 - (1 - Fraction(1, n)) ** 2}
        for a, pa in single.items():
            for b, pb in single.items():
                dist[a + b] = dist.get(a + b, Fraction(0)) + pa * pb
        return dict(sorted(dist.items()))

    def __str__(self) -> str:
        if self.is_piglet:
            game = "Piglet"
        elif self.dice == 2:
            game = "Double Trouble" if self.double_trouble else "two-dice Pig"
        else:
            game = f"one-die Pig (d{self.die_faces}, bust on {self.bust_face})"
        return f"{game}, goal {self.goal}, {self.players} players"


def _is_numpy_int(value: object) -> bool:
    """An integer of another type than int and bool (numpy's int64, ...)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (int, bool))


def _is_numpy_bool(value: object) -> bool:
    return type(value).__name__ == "bool" and type(value).__module__ == "numpy"


def _check_int(name: str, value: object, low: int, high: int | None = None) -> None:
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= low and (high is None or value <= high):
            return
    allowed = f">= {low}" if high is None else f"in {low}..{high}"
    raise ValueError(f"{name} must be an integer {allowed}, got {value!r}")
