"""Multiplayer sequential Pig against equilibrium opponents: the person takes one seat.

The opponents at the other seats all follow one own-centric stationary policy, normally the
stationary equilibrium of :func:`pigtheory.sequential.equilibrium` with its mixing
probabilities; where the policy mixes they draw the choice from the shared seeded generator
(:mod:`pigtheory.play.rng`), so a seed and the person's moves give the same game in the
terminal and in the browser (``static/multi.js``).

Moves
-----
Seats are numbered 1..n in playing order (seat 1 moves first). The mover rolls one die from
its stream (the person's stream 0, every opponent's stream 1): the bust face ends the turn
and loses the turn total, another face adds its points, and reaching the goal wins at once.
Holding banks the turn total and hands the dice to the next seat; holding at turn total 0
(a pass) is allowed only when the policy's rules allow passing (OpenSpiel's ``pig``).

An opponent decides at own-centric state ``(t, k)`` (scores in turn order from itself, turn
total) with the integer roll weight ``w = roll_weight(p)`` of its roll probability ``p``:
``w = 2**32`` rolls and ``w = 0`` holds without drawing; otherwise one generator output
``u`` of stream 1 is drawn and it rolls iff ``u < w``.

Events
------
Plain dicts (ints and strings): ``seat`` (1..n), ``who`` (``"you"`` or ``"opponent"``),
``action`` (``"roll"``, ``"hold"``), ``dice``, ``outcome`` (``"score"``, ``"bust"``,
``"goal"``, ``"hold"``, ``"pass"``), ``k`` (the mover's turn total after the move) and
``scores`` (by seat, after the move).

Numbers
-------
With the equilibrium at hand (:class:`MultiplayerAnalyst`), the person's win probability at
the current state and the values of rolling and holding, all with every other seat playing
the equilibrium and the person playing it afterwards (so the best of the two moves is a best
response: the equilibrium's one-shot deviation property).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..games import outcomes
from ..policies.multiplayer import MultiplayerRollTable
from ..rules import Rules
from ..validation import check_int
from .rng import Mulberry32, streams

__all__ = [
    "ROLL_ALWAYS",
    "roll_weight",
    "MultiplayerOpponents",
    "multiplayer_opponents",
    "MultiplayerGame",
    "MultiplayerAnalyst",
    "MultiplayerReading",
]

ROLL_ALWAYS = 1 << 32
"""The roll weight of a sure roll (a roll probability of 1)."""


def roll_weight(p: float) -> int:
    """The integer roll weight of a roll probability: 0 and 1 exactly map to 0 and ``2**32``,
    anything strictly between to ``round(p * 2**32)`` kept inside ``1..2**32 - 1`` (a mixed
    choice stays mixed).

    Examples
    --------
    >>> roll_weight(0.0), roll_weight(1.0), roll_weight(0.5), roll_weight(1e-12)
    (0, 4294967296, 2147483648, 1)
    """
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise ValueError(f"p must be a probability in [0, 1], got {p!r:.80}")
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be a probability in [0, 1], got {p!r}")
    if p == 0.0:
        return 0
    if p == 1.0:
        return ROLL_ALWAYS
    return min(max(int(round(p * ROLL_ALWAYS)), 1), ROLL_ALWAYS - 1)


@dataclass(frozen=True, eq=False)
class MultiplayerOpponents:
    """The opponents of a multiplayer game: one own-centric policy for every other seat.

    Attributes
    ----------
    rules : Rules
        One die (or Piglet), ``rules.players`` players.
    policy : MultiplayerPolicy or MultiplayerRollTable
        Anything with ``roll_probability(scores)`` (scores in turn order from the mover).
    allow_pass : bool
    name : str
    equilibrium : MultiplayerEquilibrium or None
        The solved equilibrium, for the person's numbers (None: no numbers).
    """

    rules: Rules
    policy: Any
    allow_pass: bool = False
    name: str = "equilibrium"
    equilibrium: Any = None

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a pigtheory.Rules, got {type(self.rules).__name__}")
        if self.rules.dice != 1 or not 2 <= self.rules.players <= 10:
            raise ValueError(f"rules: one die (or Piglet) and 2..10 players expected, got {self.rules}")
        if not callable(getattr(self.policy, "roll_probability", None)):
            raise ValueError(
                f"policy: expected a MultiplayerPolicy or MultiplayerRollTable, got {self.policy!r:.80}"
            )
        if isinstance(self.policy, MultiplayerRollTable):
            self.policy.check(self.rules)
            if self.policy.allow_pass != self.allow_pass:
                raise ValueError("allow_pass differs from the policy's")
        elif getattr(self.policy, "rules", self.rules) != self.rules:
            raise ValueError(f"rules {self.rules} differ from the policy's {self.policy.rules}")

    @property
    def key(self) -> str:
        """A name for files and links: ``multi-3p-g50`` (``-pass`` with passing)."""
        return f"multi-{self.rules.players}p-g{self.rules.goal}" + ("-pass" if self.allow_pass else "")

    def weights(self, scores: Any) -> list[int]:
        """The roll weights (:func:`roll_weight`) at every live turn total of ``scores``."""
        return [roll_weight(p) for p in self.policy.roll_probability(scores)]


_CACHE_VERSION = 1


def multiplayer_opponents(
    *,
    rules: Rules | None = None,
    players: int = 3,
    goal: int = 50,
    allow_pass: bool = False,
    cache_dir: Any = None,
) -> MultiplayerOpponents:
    """Solve the stationary equilibrium (:func:`pigtheory.sequential.equilibrium`, cached) and
    make its policy the opponents.

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules(goal=goal, players=players)``.
    players : int
        2..10 (when ``rules`` is not given).
    goal : int
        >= 1 (when ``rules`` is not given).
    allow_pass : bool
    cache_dir : path-like, optional
        The cache folder (:func:`pigtheory.io.resolve_cache_dir`); the solve is saved there
        and reused.

    Returns
    -------
    MultiplayerOpponents
    """
    if rules is None:
        players = check_int("players", players, low=2, high=10)
        goal = check_int("goal", goal, low=1)
        rules = Rules(goal=goal, players=players)
    if not isinstance(allow_pass, bool):
        raise ValueError(f"allow_pass must be True or False, got {allow_pass!r}")
    from ..io import cached
    from ..sequential import MultiplayerEquilibrium, equilibrium

    params = {"rules": repr(rules), "allow_pass": allow_pass, "version": _CACHE_VERSION}
    eq = cached(
        "sequential-multiplayer",
        params,
        lambda: equilibrium(rules=rules, allow_pass=allow_pass, progress=False),
        cache_dir=cache_dir,
        expected=MultiplayerEquilibrium,
    )
    return MultiplayerOpponents(rules, eq.policy, allow_pass=allow_pass, equilibrium=eq)


class MultiplayerGame:
    """One game of n-player sequential Pig: the person at ``seat``, the policy at the others.

    Parameters
    ----------
    opponents : MultiplayerOpponents
    seat : int
        The person's seat, 1..n (1 moves first).
    seed : int
        ``0 <= seed < 2**32`` (:func:`pigtheory.play.streams`).

    Attributes
    ----------
    scores : list of int
        By seat (index 0 is seat 1).
    mover : int
        The seat (1..n) to move.
    k : int
    winner : int or None
        The winning seat.
    events : list of dict

    Examples
    --------
    >>> import numpy as np
    >>> from pigtheory.policies.multiplayer import MultiplayerRollTable
    >>> g = 6
    >>> k = np.arange(g)
    >>> p = np.broadcast_to((k < 2) & (np.arange(g)[:, None, None, None] + k < g), (g,) * 4)
    >>> opps = MultiplayerOpponents(Rules(goal=g, players=3), MultiplayerRollTable(p))
    >>> game = MultiplayerGame(opps, seat=2, seed=1)
    >>> game.play_opponents()[0]["seat"], game.to_move
    (1, 'you')
    """

    def __init__(self, opponents: MultiplayerOpponents, *, seat: int, seed: int) -> None:
        if not isinstance(opponents, MultiplayerOpponents):
            raise ValueError(f"opponents must be MultiplayerOpponents, got {opponents!r:.80}")
        n = opponents.rules.players
        self.seat = check_int("seat", seat, low=1, high=n)
        self.opponents = opponents
        self.rules = opponents.rules
        self.players = n
        self.seed = seed
        self._rng: tuple[Mulberry32, Mulberry32] = streams(seed)
        self.scores = [0] * n
        self.k = 0
        self.mover = 1
        self.winner: int | None = None
        self.events: list[dict[str, Any]] = []

    @property
    def to_move(self) -> str | None:
        """``"you"``, ``"opponent"``, or None once the game is over."""
        if self.winner is not None:
            return None
        return "you" if self.mover == self.seat else "opponent"

    @property
    def can_hold(self) -> bool:
        """The person may hold now (from turn total 1; at 0 only when passing is allowed)."""
        return self.to_move == "you" and (self.k > 0 or self.opponents.allow_pass)

    def view(self, seat: int | None = None) -> tuple[int, ...]:
        """The scores in turn order from ``seat`` (default the mover)."""
        s = (self.mover if seat is None else seat) - 1
        return tuple(self.scores[(s + i) % self.players] for i in range(self.players))

    def roll(self) -> dict[str, Any]:
        """The person rolls (``ValueError`` if it is not the person's move)."""
        self._expect()
        return self._roll(0)

    def hold(self) -> dict[str, Any]:
        """The person holds (or passes at 0 where allowed)."""
        self._expect()
        if not self.can_hold:
            raise ValueError("hold: a turn starts with a roll (passing is not allowed here)")
        return self._bank()

    def step_opponent(self) -> dict[str, Any]:
        """The opponent to move makes one move (``ValueError`` if it is the person's move)."""
        if self.to_move != "opponent":
            raise ValueError(f"step_opponent: it is not an opponent's move ({self.to_move or 'game over'})")
        w = roll_weight(float(self.opponents.policy.roll_probability(self.view())[self.k]))
        if w == ROLL_ALWAYS or (0 < w and self._rng[1].next_uint32() < w):
            return self._roll(1)
        return self._bank()

    def play_opponents(self) -> list[dict[str, Any]]:
        """Every opponent move until the person moves or the game ends; the events."""
        out = []
        while self.to_move == "opponent":
            out.append(self.step_opponent())
        return out

    def _expect(self) -> None:
        if self.to_move != "you":
            raise ValueError(f"it is not your move ({self.to_move or 'game over'})")

    def _log(self, action: str, **extra: Any) -> dict[str, Any]:
        event = {
            "seat": self.mover,
            "who": "you" if self.mover == self.seat else "opponent",
            "action": action,
            "dice": [],
            "k": self.k,
            "scores": list(self.scores),
            **extra,
        }
        self.events.append(event)
        return event

    def _roll(self, stream: int) -> dict[str, Any]:
        rules = self.rules
        face = 1 + self._rng[stream].below(rules.die_faces)
        table = outcomes(rules)  # the game model's outcome table: roll face - 1 of one die
        points = int(table.points[face - 1])
        if table.bust[face - 1]:
            self.k = 0
            event = self._log("roll", dice=[face], outcome="bust")
            self._next()
            return event
        self.k += points
        s = self.mover - 1
        if self.scores[s] + self.k >= rules.goal:
            self.scores[s] += self.k
            self.winner = self.mover
            return self._log("roll", dice=[face], outcome="goal")
        return self._log("roll", dice=[face], outcome="score")

    def _bank(self) -> dict[str, Any]:
        outcome = "hold" if self.k else "pass"
        self.scores[self.mover - 1] += self.k
        self.k = 0
        event = self._log("hold", outcome=outcome)
        self._next()
        return event

    def _next(self) -> None:
        self.k = 0
        self.mover = self.mover % self.players + 1


@dataclass(frozen=True)
class MultiplayerReading:
    """The person's numbers at one state (None where they do not apply).

    Attributes
    ----------
    value : float
        The person's win probability (everybody playing the equilibrium from here).
    roll, hold : float or None
        The person's win probability after rolling or holding now (its move only).
    advice : str or None
        ``"roll"`` or ``"hold"``: the better move (ties go to holding at ``k >= 1``).
    equilibrium_roll : float or None
        The equilibrium's own roll probability here.
    """

    value: float
    roll: float | None = None
    hold: float | None = None
    advice: str | None = None
    equilibrium_roll: float | None = None


class MultiplayerAnalyst:
    """The person's numbers from the equilibrium's values (module docstring).

    Parameters
    ----------
    opponents : MultiplayerOpponents
        With its ``equilibrium``.
    """

    def __init__(self, opponents: MultiplayerOpponents) -> None:
        eq = opponents.equilibrium
        if eq is None:
            raise ValueError("opponents: the numbers need the solved equilibrium (multiplayer_opponents)")
        self.eq = eq
        self.rules = opponents.rules
        self._turns: dict[tuple[int, ...], np.ndarray] = {}
        m = self.rules.roll_model()
        self._p_bust = float(m.p_bust)
        self._gains = [(int(k), float(p)) for k, p in m.free]

    def _turn(self, view: tuple[int, ...]) -> np.ndarray:
        if view not in self._turns:
            self._turns[view] = np.asarray(self.eq.turn_values(view))
        return self._turns[view]

    def _start(self, game: MultiplayerGame, scores: list[int], mover: int) -> float:
        """The person's value at the start of ``mover``'s turn with ``scores``."""
        n = game.players
        view = tuple(scores[(mover - 1 + i) % n] for i in range(n))
        return float(self.eq.value[view][(game.seat - mover) % n])

    def read(self, game: MultiplayerGame) -> MultiplayerReading:
        """The person's numbers at the game's current state."""
        n, g = game.players, self.rules.goal
        if game.winner is not None:
            return MultiplayerReading(value=1.0 if game.winner == game.seat else 0.0)
        view = game.view()
        off = (game.seat - game.mover) % n
        tv = self._turn(view)
        value = float(tv[game.k, off])
        if game.to_move != "you":
            return MultiplayerReading(value=value)
        nxt = game.mover % n + 1
        after = list(game.scores)
        after[game.seat - 1] += game.k
        hold = self._start(game, after, nxt) if game.can_hold else None
        roll = self._p_bust * self._start(game, game.scores, nxt)
        own = game.scores[game.seat - 1]
        for pts, p in self._gains:
            kk = game.k + pts
            roll += p * (1.0 if own + kk >= g else float(tv[kk, 0]))
        advice = "roll" if hold is None or roll > hold + 1e-13 else "hold"
        p_eq = float(game.opponents.policy.roll_probability(view)[game.k])
        return MultiplayerReading(value=value, roll=roll, hold=hold, advice=advice, equilibrium_roll=p_eq)
