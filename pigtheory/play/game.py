"""The rules of one game against a fixed opponent, move by move: the reference engine.

The browser runs the same rules in ``static/engine.js``; the tests play seeded games through
both and compare every event. Seat 0 is the person ("you"), seat 1 the opponent.

Moves
-----
A roll draws one face per die from the mover's stream (:mod:`pigtheory.play.rng`). With one
die the bust face ends the turn and loses the turn total; any other face adds its points.
With two dice one bust face ends the turn, two ("snake eyes") also send the mover's score to
0, and otherwise both faces add; under Double Trouble a double other than two bust faces
must roll again (hold is not allowed until the next roll).

Sequential play
    The mover rolls or holds; holding at turn total 0 passes (the solvers' model allows it).
    A free roll that brings score plus turn total to the goal wins at once (holding then is
    the only sensible move, and the solvers count such states as won).
Simultaneous play
    At the start of every turn the opponent draws its threshold (one generator output, even
    where its policy is pure). The person then plays a whole turn (at least one roll; hold at
    any turn total from 1; reaching the goal ends the turn), then the opponent rolls until its
    turn total reaches the threshold or it busts, and both turn totals are added at once
    (scores are capped at the goal). If both reach the goal in the same turn the game is a
    tie.

Events
------
Every move appends a plain dict (ints and strings only, so Python and JavaScript compare them
as JSON): ``turn``, ``who`` (``"you"``, ``"opponent"``, ``"both"``), ``action`` (``"roll"``,
``"hold"``, ``"choose"``, ``"resolve"``), ``dice`` (faces), ``outcome`` (``"score"``,
``"double"``, ``"bust"``, ``"reset"``, ``"goal"``, ``"hold"``, ``"pass"``, ``"choose"``,
``"next"``, ``"win"``, ``"tie"``), ``k`` (the mover's turn total after the move),
``scores`` (after the move) and, for ``choose``, ``threshold``; for ``resolve``, ``gains``.

References
----------
Neller & Presser, "Optimal play of the dice game Pig", UMAP Journal 25 (2004) (the rules);
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023) (simultaneous play and its tie rule);
Zhu & Ma, Stats 5 (2022) (two dice, Double Trouble).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..games import outcomes
from ..rules import ROLL_KINDS, Rules
from .rng import Mulberry32, streams

__all__ = ["OpponentTable", "Game", "face_points", "roll_outcome", "MODES"]

MODES = ("sequential", "simultaneous")
"""The two ways to play: taking turns, or everybody's turn at once."""


@dataclass(frozen=True, eq=False)
class OpponentTable:
    """An opponent's moves as integer tables, exactly as the web page stores them.

    Attributes
    ----------
    mode : {"sequential", "simultaneous"}
    rules : Rules
    roll : bool array ``(goal, goal, goal)``, sequential
        ``roll[own, other, k]``: roll (True) or hold where the opponent is free to choose.
    thresholds : int array ``(goal, goal, S)``, simultaneous
        At its state ``(own, other)`` the opponent holds at ``thresholds[own, other, s]``
        with probability ``weights[own, other, s] / 2**32``.
    weights : int array ``(goal, goal, S)``, simultaneous
        Those probabilities times ``2**32`` (summing to ``2**32`` at every state).
    """

    mode: str
    rules: Rules
    roll: np.ndarray | None = None
    thresholds: np.ndarray | None = None
    weights: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {self.mode!r}")
        g = self.rules.goal
        if self.mode == "sequential":
            if self.roll is None or np.shape(self.roll) != (g, g, g):
                raise ValueError(f"roll: a sequential opponent needs a bool table of shape {(g, g, g)}")
        else:
            th, w = self.thresholds, self.weights
            if th is None or w is None or np.shape(th) != np.shape(w) or np.shape(th)[:2] != (g, g):
                raise ValueError(
                    f"thresholds, weights: a simultaneous opponent needs two ({g}, {g}, S) tables"
                )


def face_points(rules: Rules) -> tuple[int, ...]:
    """Points of faces ``1..die_faces`` (0 for the bust face): :attr:`Rules.points_by_face
    <pigtheory.Rules.points_by_face>`.

    Examples
    --------
    >>> face_points(Rules())
    (0, 2, 3, 4, 5, 6)
    >>> face_points(Rules.piglet())
    (0, 1)
    """
    return rules.points_by_face


def roll_outcome(faces: tuple[int, ...], rules: Rules) -> tuple[str, int]:
    """``(kind, points)`` of one roll: kind ``"bust"``, ``"reset"`` (snake eyes), ``"double"``
    (Double Trouble: must roll again) or ``"score"``, read in the game model's outcome table
    (:class:`pigtheory.games.Outcomes`, :meth:`Rules.roll_outcome
    <pigtheory.Rules.roll_outcome>` of every roll), the table the web page's data carries.

    Examples
    --------
    >>> roll_outcome((1, 1), Rules(dice=2)), roll_outcome((3, 3), Rules(dice=2, double_trouble=True))
    (('reset', 0), ('double', 6))
    """
    if len(faces) != rules.dice:
        raise ValueError(f"faces must be {rules.dice} values (one per die), got {tuple(faces)}")
    table = outcomes(rules)
    roll = 0
    for f in faces:
        if not 1 <= f <= rules.die_faces:
            raise ValueError(f"faces must be in 1..{rules.die_faces}, got {tuple(faces)}")
        roll = roll * rules.die_faces + f - 1
    return ROLL_KINDS[int(table.kind[roll])], int(table.points[roll])


class Game:
    """One game of Pig between the person (seat 0) and a fixed opponent (seat 1).

    Parameters
    ----------
    opponent : OpponentTable
    seed : int
        ``0 <= seed < 2**32``: the two dice streams (:func:`pigtheory.play.streams`).
    first : {"you", "opponent"}
        Sequential play: who moves first (simultaneous play has no first mover).

    Attributes
    ----------
    scores : list of int
        ``[yours, the opponent's]``.
    k : int
        The turn total of the player now rolling.
    forced : bool
        Double Trouble: the mover has just rolled a double and must roll.
    to_move : {"you", "opponent", None}
        Whose move it is (None once the game is over).
    winner : {"you", "opponent", "tie", None}
    events : list of dict
        Every move so far (see the module docstring).

    Examples
    --------
    >>> rules = Rules(goal=10)
    >>> always_rolls = OpponentTable("sequential", rules, roll=np.ones((10, 10, 10), dtype=bool))
    >>> game = Game(always_rolls, seed=3)
    >>> event = game.roll()
    >>> event["who"], event["action"], event["dice"][0] in range(1, 7), event is game.events[-1]
    ('you', 'roll', True, True)
    """

    def __init__(self, opponent: OpponentTable, *, seed: int, first: str = "you") -> None:
        if first not in ("you", "opponent"):
            raise ValueError(f"first must be 'you' or 'opponent', got {first!r}")
        self.opponent = opponent
        self.rules = opponent.rules
        self.mode = opponent.mode
        self.seed = seed
        self._rng: tuple[Mulberry32, Mulberry32] = streams(seed)
        self.scores = [0, 0]
        self.k = 0
        self.forced = False
        self.turn = 1
        self.winner: str | None = None
        self.events: list[dict[str, Any]] = []
        self.threshold = 0
        self.gain = 0  # simultaneous: the person's points this turn, once the turn is over
        self._mover = 0 if (first == "you" or self.mode == "simultaneous") else 1
        if self.mode == "simultaneous":
            self._choose()

    # --- what the person may do ---------------------------------------------------------

    @property
    def to_move(self) -> str | None:
        """``"you"``, ``"opponent"``, or None once the game is over."""
        if self.winner is not None:
            return None
        return "you" if self._mover == 0 else "opponent"

    @property
    def can_hold(self) -> bool:
        """The person may hold now (sequential: unless forced; simultaneous: from 1 point)."""
        if self.to_move != "you":
            return False
        return self.k >= 1 if self.mode == "simultaneous" else not self.forced

    def roll(self) -> dict[str, Any]:
        """The person rolls; returns the event (also appended to ``events``), ``ValueError``
        if it is not the person's move."""
        self._expect("you")
        return self._roll(0)

    def hold(self) -> dict[str, Any]:
        """The person holds (sequential: at turn total 0, passes); returns the event, ``ValueError``
        where holding is not allowed (:attr:`can_hold`)."""
        self._expect("you")
        if not self.can_hold:
            raise ValueError("hold: not allowed now (" + self._why_not() + ")")
        if self.mode == "simultaneous":
            return self._end_own_turn("hold")
        return self._bank(0)

    def step_opponent(self) -> dict[str, Any]:
        """One move of the opponent; returns the event."""
        self._expect("opponent")
        g = self.rules.goal
        own, other = self.scores[1], self.scores[0]
        if self.mode == "simultaneous":
            if self.k >= self.threshold or own + self.k >= g:
                event = self._log("opponent", "hold", outcome="hold")
                return self._resolve(event)
            return self._roll(1)
        if self.forced or bool(self.opponent.roll[own, other, self.k]):  # type: ignore[index]
            return self._roll(1)
        return self._bank(1)

    def play_opponent(self) -> list[dict[str, Any]]:
        """The opponent's moves until it is the person's turn or the game is over; returns their
        events, in order."""
        start = len(self.events)
        while self.to_move == "opponent":
            self.step_opponent()
        return self.events[start:]

    # --- the rules ----------------------------------------------------------------------

    def _expect(self, who: str) -> None:
        if self.to_move != who:
            state = "the game is over" if self.winner else f"it is {self.to_move}'s move"
            raise ValueError(f"{who}: not your move ({state})")

    def _why_not(self) -> str:
        return "a double must be rolled again" if self.forced else "roll at least once first"

    def _log(self, who: str, action: str, **extra: Any) -> dict[str, Any]:
        event = {"turn": self.turn, "who": who, "action": action, "dice": [], "k": self.k}
        event.update(extra)
        event["scores"] = list(self.scores)
        self.events.append(event)
        return event

    def _choose(self) -> None:
        """Simultaneous: the opponent draws this turn's threshold (one output, always)."""
        own, other = self.scores[1], self.scores[0]
        th, w = self.opponent.thresholds, self.opponent.weights
        s = self._rng[1].pick([int(x) for x in w[own, other]])  # type: ignore[index]
        self.threshold = int(th[own, other, s])  # type: ignore[index]
        self._log("opponent", "choose", outcome="choose", threshold=self.threshold)

    def _roll(self, seat: int) -> dict[str, Any]:
        rules = self.rules
        who = "you" if seat == 0 else "opponent"
        faces = tuple(1 + self._rng[seat].below(rules.die_faces) for _ in range(rules.dice))
        kind, points = roll_outcome(faces, rules)
        if kind in ("bust", "reset"):
            self.k = 0
            self.forced = False
            if kind == "reset":
                self.scores[seat] = 0
            event = self._log(who, "roll", dice=list(faces), outcome=kind)
            if self.mode == "simultaneous":
                return self._end_own_turn(None) if seat == 0 else self._resolve(event)
            return self._pass_dice(event)
        self.k += points
        self.forced = kind == "double"
        reached = self.scores[seat] + self.k >= rules.goal
        if reached and not self.forced:
            if self.mode == "simultaneous":
                event = self._log(who, "roll", dice=list(faces), outcome="goal")
                return self._end_own_turn(None) if seat == 0 else event
            self.scores[seat] = rules.goal
            self.winner = who
            self._mover = -1
            return self._log(who, "roll", dice=list(faces), outcome="goal")
        return self._log(who, "roll", dice=list(faces), outcome=kind)

    def _bank(self, seat: int) -> dict[str, Any]:
        """Sequential hold: add the turn total, pass the dice."""
        who = "you" if seat == 0 else "opponent"
        outcome = "hold" if self.k else "pass"
        self.scores[seat] += self.k
        return self._pass_dice(self._log(who, "hold", outcome=outcome))

    def _pass_dice(self, event: dict[str, Any]) -> dict[str, Any]:
        self._mover = 1 - self._mover
        self.turn += 1
        self.k = 0
        self.forced = False
        return event

    def _end_own_turn(self, action: str | None) -> dict[str, Any]:
        """Simultaneous: the person's turn is over (held, reached the goal or busted)."""
        self.gain = self.k
        event = self._log("you", "hold", outcome="hold") if action == "hold" else self.events[-1]
        self._mover = 1
        self.k = 0
        return event

    def _resolve(self, event: dict[str, Any]) -> dict[str, Any]:
        """Simultaneous: add both turn totals and decide the game."""
        g = self.rules.goal
        gains = [self.gain, self.k]
        self.scores = [min(s + x, g) for s, x in zip(self.scores, gains, strict=True)]
        self.k = 0
        self.gain = 0
        done = [s >= g for s in self.scores]
        if all(done):
            self.winner, outcome = "tie", "tie"
        elif any(done):
            self.winner, outcome = ("you" if done[0] else "opponent"), "win"
        else:
            outcome = "next"
        self._log("both", "resolve", outcome=outcome, gains=gains)
        if self.winner is None:
            self.turn += 1
            self._mover = 0
            self._choose()
        else:
            self._mover = -1
        return event
