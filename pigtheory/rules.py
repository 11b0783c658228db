"""Rules of a game of Pig: goal, the die (or dice, or coin), and the number of players.

A :class:`Rules` is frozen and hashable, so that tables derived from it (the turn-total
distributions of :mod:`pigtheory.turn_totals`, solved games) can be cached by it.

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

The roll model
--------------
:meth:`Rules.roll_outcome` is the one rule of a roll: the faces shown -> ``(kind, points)``.
Everything else is derived from it, and every solver reads only the derived forms:
:meth:`~Rules.roll_codes` (the outcome of each of the ``die_faces ** dice`` equally likely
rolls; the web page's data carries it), :meth:`~Rules.roll_model` (exact probabilities of a
bust, a reset, free and forced gains: the sequential solvers), :meth:`~Rules.roll_distribution`
and :meth:`~Rules.roll_arrays` (the points one roll adds, 0 = bust: turn totals, stopping rules,
simultaneous play) and :meth:`~Rules.sample_rolls` (the Monte Carlo simulators). A new die or
variant is a subclass that overrides :meth:`~Rules.roll_outcome` (and, if it has parameters,
adds fields):

>>> class DoubleDie(Rules):
...     def roll_outcome(self, faces):
...         kind, points = super().roll_outcome(faces)
...         return kind, 2 * points
>>> DoubleDie(goal=20).roll_distribution()[12], DoubleDie(goal=20).max_roll
(Fraction(1, 6), 12)
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

__all__ = ["Rules", "RollModel", "RollCodes", "ROLL_KINDS", "BUST", "RESET", "SCORE", "DOUBLE", "integral"]

ROLL_KINDS = ("bust", "reset", "score", "double")
"""The outcomes of one roll (:meth:`Rules.roll_outcome`), in the order of their codes."""
BUST, RESET, SCORE, DOUBLE = range(4)
"""Codes of ``ROLL_KINDS`` in the arrays of :class:`RollCodes` and :meth:`Rules.sample_rolls`."""


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
            value = getattr(self, name)  # numpy integers and integral floats: stored as int
            if type(value) is not int:  # the common case, a plain int, converts to itself
                converted = integral(value)
                if converted is not value:
                    object.__setattr__(self, name, converted)
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
            points = tuple(integral(p) for p in points)  # type: ignore[misc]  # checked below
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
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

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

    @property
    def points_by_face(self) -> tuple[int, ...]:
        """Points of faces ``1..die_faces`` of one die, 0 on the bust face.

        Examples
        --------
        >>> Rules().points_by_face, Rules.piglet().points_by_face
        ((0, 2, 3, 4, 5, 6), (0, 1))
        """
        scoring = iter(self.scoring_faces)
        return tuple(0 if f == self.bust_face else next(scoring) for f in range(1, self.die_faces + 1))

    def roll_outcome(self, faces: tuple[int, ...]) -> tuple[str, int]:
        """What one roll showing ``faces`` does: ``(kind, points)``, the one rule of a roll.

        Every exact model (:meth:`roll_model`, :meth:`roll_distribution`), the sampler
        (:meth:`sample_rolls`), the play engine and the web page's data read a roll through
        this method, so a new die or variant is a subclass that overrides it.

        Parameters
        ----------
        faces : tuple of int
            One face per die, each in ``1..die_faces``.

        Returns
        -------
        kind : str
            One of ``ROLL_KINDS``: ``"bust"`` (the turn total is lost), ``"reset"``
            (two dice, both bust faces: the score is lost too), ``"score"`` (the points are
            added, the player may hold) or ``"double"`` (Double Trouble, a double of scoring
            faces: added, and the player must roll again).
        points : int
            Points added (0 for a bust or reset).

        Examples
        --------
        >>> Rules(dice=2).roll_outcome((1, 1)), Rules(dice=2, double_trouble=True).roll_outcome((3, 3))
        (('reset', 0), ('double', 6))
        """
        pts = self.points_by_face
        busts = sum(f == self.bust_face for f in faces)
        if busts == 2:
            return "reset", 0
        if busts == 1:
            return "bust", 0
        gain = sum(pts[f - 1] for f in faces)
        if self.double_trouble and len(faces) == 2 and faces[0] == faces[1]:
            return "double", gain
        return "score", gain

    def describe_roll(self) -> str:
        """One sentence on what a roll does, for people (the web page shows it); a subclass
        with another roll rule overrides it.

        Examples
        --------
        >>> Rules(dice=2, double_trouble=True).describe_roll()
        'A single 1 loses the turn total, two 1s also the score. Any other double must be rolled again.'
        """
        if self.is_piglet:
            return "Heads scores 1, tails loses the turn total."
        bust = self.bust_face
        if self.dice == 2:
            text = f"A single {bust} loses the turn total, two {bust}s also the score."
            return text + (" Any other double must be rolled again." if self.double_trouble else "")
        if self.face_points is None:
            return f"A {bust} loses the turn total; any other face adds its points."
        return (
            f"A {bust} loses the turn total; the other faces score {', '.join(map(str, self.scoring_faces))}."
        )

    def roll_codes(self) -> RollCodes:
        """:meth:`roll_outcome` of every equally likely roll (cached): see :class:`RollCodes`."""
        return _roll_codes(self)

    def roll_model(self) -> RollModel:
        """Exact probabilities of the outcomes of one roll (cached): see :class:`RollModel`.

        The count of the equally likely rolls of :meth:`roll_codes` by outcome; for two dice
        a bust is one bust face (10/36 with six faces), a reset two (1/36), as in Zhu & Ma
        (2022), section 1 and Figure 1.

        Examples
        --------
        >>> m = Rules(dice=2, double_trouble=True).roll_model()
        >>> str(m.p_bust), str(m.p_reset), str(sum(p for _, p in m.forced))
        ('5/18', '1/36', '5/36')
        """
        return _roll_model(self)

    def roll_distribution(self) -> dict[int, Fraction]:
        """Exact distribution of the points one roll adds to the turn total (0 = bust).

        :meth:`roll_model` with a reset counted as a bust and a forced gain as a gain: the
        one-turn view of turn totals and simultaneous play (the score-losing snake eyes and
        the forced re-roll of Double Trouble are handled by the sequential solvers).
        """
        m = self.roll_model()
        dist: dict[int, Fraction] = {0: m.p_bust + m.p_reset}
        for g, p in m.free + m.forced:
            dist[g] = dist.get(g, Fraction(0)) + p
        return dict(sorted(dist.items()))

    def roll_arrays(self) -> tuple[float, np.ndarray, np.ndarray]:
        """:meth:`roll_distribution` as floats: ``(p_bust, gains, probs)`` (cached, read-only).

        Returns
        -------
        p_bust : float
        gains : numpy.ndarray of int, shape ``(n,)``
            The points a scoring roll adds, ascending.
        probs : numpy.ndarray, shape ``(n,)``
            Their probabilities.
        """
        return _roll_arrays(self)

    def sample_rolls(self, rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
        """``size`` independent rolls, the dice drawn face by face: ``(kind, points)``.

        The faces are uniform draws of ``rng.integers``; their outcome is looked up in
        :meth:`roll_codes`, the same table :meth:`roll_model` counts, so Monte Carlo play
        checks the exact solvers against the roll rule itself.

        Returns
        -------
        kind : numpy.ndarray of int, shape ``(size,)``
            Index into ``ROLL_KINDS`` (``BUST``, ``RESET``, ``SCORE``, ``DOUBLE``).
        points : numpy.ndarray of int, shape ``(size,)``
        """
        table = self.roll_codes()
        faces = rng.integers(0, self.die_faces, size=(size, self.dice))
        index = faces @ (self.die_faces ** np.arange(self.dice - 1, -1, -1))
        return table.kind[index], table.points[index]

    def __str__(self) -> str:
        if self.is_piglet:
            game = "Piglet"
        elif self.dice == 2:
            game = "Double Trouble" if self.double_trouble else "two-dice Pig"
        else:
            game = f"one-die Pig (d{self.die_faces}, bust on {self.bust_face})"
        if type(self) is not Rules:  # a die of one's own: its class names its roll rule
            game = f"{type(self).__name__} ({game})"
        return f"{game}, goal {self.goal}, {self.players} players"


def _is_numpy_int(value: object) -> bool:
    """An integer of another type than int and bool (numpy's int64, ...)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (int, bool))


def integral(value: object) -> object:
    """The one converter of integer arguments: ``value`` as a Python int where it is an
    integer of another type (numpy's int64) or a finite float with an integral value
    (``2.0``, ``np.float64(100)``, ``1e6``); anything else (bools, ``2.5``, strings, nan) is
    returned unchanged, for the caller's check to refuse with its own message.

    Examples
    --------
    >>> integral(2.0), integral(np.int64(3)), integral(2.5), integral(True)
    (2, 3, 2.5, True)
    """
    if isinstance(value, bool) or type(value).__name__ == "bool":
        return value
    if _is_numpy_int(value):
        return int(value)  # type: ignore[call-overload]
    if isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer():
        return int(value)
    return value


def _is_numpy_bool(value: object) -> bool:
    return type(value).__name__ == "bool" and type(value).__module__ == "numpy"


def _check_int(name: str, value: object, low: int, high: int | None = None) -> None:
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= low and (high is None or value <= high):
            return
    allowed = f">= {low}" if high is None else f"in {low}..{high}"
    raise ValueError(f"{name} must be an integer {allowed}, got {value!r}")


@dataclass(frozen=True)
class RollModel:
    """Probabilities of the outcomes of one roll (exact fractions): :meth:`Rules.roll_model`.

    Attributes
    ----------
    p_bust : Fraction
        A bust: the turn total is lost.
    p_reset : Fraction
        A reset (two dice: snake eyes): the score is lost too.
    free : tuple of (gain, Fraction)
        Gains after which the player may hold, ascending.
    forced : tuple of (gain, Fraction)
        Gains after which the player must roll again (Double Trouble doubles), ascending.
    """

    p_bust: Fraction
    p_reset: Fraction
    free: tuple[tuple[int, Fraction], ...]
    forced: tuple[tuple[int, Fraction], ...]

    @property
    def max_gain(self) -> int:
        """Largest points one roll adds."""
        return max(g for g, _ in self.free + self.forced)

    @property
    def simple(self) -> bool:
        """No reset and no forced roll: a turn is "roll or hold" after every roll and scores
        never drop (one die, Piglet's coin): what the exact one-die solver, turn totals and
        simultaneous play need."""
        return self.p_reset == 0 and not self.forced

    def free_vector(self) -> np.ndarray:
        """``vec[g - 1]`` = probability of a free gain of g points, g = 1..max_gain: float,
        shape ``(max_gain,)``."""
        return _vector(self.free, self.max_gain)

    def forced_vector(self) -> np.ndarray:
        """``vec[g - 1]`` = probability of a forced gain (a non-ones double) of g points: float,
        shape ``(max_gain,)``, zeros without Double Trouble."""
        return _vector(self.forced, self.max_gain)


@dataclass(frozen=True, eq=False)
class RollCodes:
    """:meth:`Rules.roll_outcome` of every roll, the rolls numbered in base ``die_faces``.

    Roll r shows faces ``(f_1, ..., f_dice)`` with ``r = sum((f_d - 1) * die_faces **
    (dice - d))``; all ``die_faces ** dice`` rolls are equally likely.

    Attributes
    ----------
    kind : numpy.ndarray of int, shape ``(die_faces ** dice,)``
        Codes of ``ROLL_KINDS``.
    points : numpy.ndarray of int, shape ``(die_faces ** dice,)``
    """

    kind: np.ndarray
    points: np.ndarray


def _vector(pairs: tuple[tuple[int, Fraction], ...], m: int) -> np.ndarray:
    v = np.zeros(m)
    for g, p in pairs:
        v[g - 1] += float(p)
    return v


def _rolls(rules: Rules) -> list[tuple[int, ...]]:
    return list(itertools.product(range(1, rules.die_faces + 1), repeat=rules.dice))


@lru_cache(maxsize=256)
def _roll_codes(rules: Rules) -> RollCodes:
    kinds, points = [], []
    for faces in _rolls(rules):
        kind, gain = rules.roll_outcome(faces)
        if kind not in ROLL_KINDS:
            raise ValueError(f"roll_outcome{faces}: kind must be one of {ROLL_KINDS}, got {kind!r}")
        scores = kind in ("score", "double")
        if not isinstance(gain, int) or isinstance(gain, bool) or (gain < 1 if scores else gain != 0):
            raise ValueError(
                f"roll_outcome{faces}: points must be an integer >= 1 for a {kind!r} roll"
                f"{'' if scores else ' (0 for a bust or reset)'}, got {gain!r}"
            )
        kinds.append(ROLL_KINDS.index(kind))
        points.append(gain)
    kind_a, points_a = np.array(kinds, dtype=np.int64), np.array(points, dtype=np.int64)
    kind_a.setflags(write=False)
    points_a.setflags(write=False)
    return RollCodes(kind_a, points_a)


@lru_cache(maxsize=256)
def _roll_model(rules: Rules) -> RollModel:
    table = rules.roll_codes()
    one = Fraction(1, table.kind.size)
    count: dict[int, dict[int, Fraction]] = {k: {} for k in range(len(ROLL_KINDS))}
    for kind, gain in zip(table.kind.tolist(), table.points.tolist(), strict=True):
        count[kind][gain] = count[kind].get(gain, Fraction(0)) + one
    if not count[SCORE] and not count[DOUBLE]:
        raise ValueError("rules: no roll scores (roll_outcome never returns 'score' or 'double')")
    return RollModel(
        p_bust=sum(count[BUST].values(), Fraction(0)),
        p_reset=sum(count[RESET].values(), Fraction(0)),
        free=tuple(sorted(count[SCORE].items())),
        forced=tuple(sorted(count[DOUBLE].items())),
    )


@lru_cache(maxsize=256)
def _roll_arrays(rules: Rules) -> tuple[float, np.ndarray, np.ndarray]:
    dist = rules.roll_distribution()
    gains = np.array(sorted(g for g in dist if g > 0), dtype=np.int64)
    probs = np.array([float(dist[g]) for g in gains.tolist()])
    gains.setflags(write=False)
    probs.setflags(write=False)
    return float(dist.get(0, 0)), gains, probs
