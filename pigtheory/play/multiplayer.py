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

import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

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
    "play_terminal_multiplayer",
    "MultiplayerTerminalGame",
    "pack_multiplayer",
    "read_multiplayer_data",
    "site_estimate",
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


@dataclass
class MultiplayerTerminalGame:
    """What happened in a terminal game: the game, the person's moves, whether it quit."""

    game: MultiplayerGame
    moves: list[str] = field(default_factory=list)
    quit: bool = False


_COMMANDS = {"r": "roll", "roll": "roll", "h": "hold", "hold": "hold", "b": "best", "best": "best"}
_HELP = "r = roll, h = hold, b = show the best move, q = quit, ? = this help"


def _who(game: MultiplayerGame, seat: int) -> str:
    return "you" if seat == game.seat else f"seat {seat}"


def _describe(game: MultiplayerGame, e: dict[str, Any]) -> str:
    who = _who(game, e["seat"])
    you = e["who"] == "you"
    coin = game.rules.die_faces == 2
    if e["action"] == "hold":
        if e["outcome"] == "pass":
            return f"{who} pass{'' if you else 'es'}"
        return f"{who} hold{'' if you else 's'} -> {e['scores'][e['seat'] - 1]}"
    face = e["dice"][0]
    shown = ("tails" if outcomes(game.rules).bust[face - 1] else "heads") if coin else str(face)
    text = {
        "bust": "bust, the turn total is lost",
        "goal": f"turn total {e['k']}: the goal is reached",
        "score": f"turn total {e['k']}",
    }[e["outcome"]]
    return f"{who} roll{'' if you else 's'} {shown}: {text}"


def _pct(x: float | None) -> str:
    return "  -   " if x is None else f"{100 * x:6.2f}%"


def play_terminal_multiplayer(
    opponents: MultiplayerOpponents,
    *,
    seat: int = 1,
    seed: int | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    delay: float = 0.0,
) -> MultiplayerTerminalGame:
    """Play one multiplayer game in a terminal: the person at ``seat``, the policy elsewhere.

    Parameters
    ----------
    opponents : MultiplayerOpponents
    seat : int
        1..n (1 moves first).
    seed : int, optional
        ``0 <= seed < 2**32``; default a random seed (printed).
    stdin, stdout : text streams
    delay : float
        Seconds between the opponents' moves, 0..10.

    Returns
    -------
    MultiplayerTerminalGame
    """
    if not isinstance(opponents, MultiplayerOpponents):
        raise ValueError(f"opponents must be MultiplayerOpponents, got {opponents!r:.80}")
    seat = check_int("seat", seat, low=1, high=opponents.rules.players)
    if seed is not None and not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**32):
        raise ValueError(f"seed must be an integer in 0..2**32-1, got {seed!r:.80}")
    if not isinstance(delay, (int, float)) or isinstance(delay, bool) or not 0 <= delay <= 10:
        raise ValueError(f"delay must be a number of seconds in 0..10, got {delay!r:.80}")
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    game = MultiplayerGame(opponents, seat=seat, seed=seed)
    analyst = MultiplayerAnalyst(opponents) if opponents.equilibrium is not None else None
    result = MultiplayerTerminalGame(game)
    n = game.players

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    def scoreline() -> str:
        return ", ".join(f"{_who(game, s + 1)} {game.scores[s]}" for s in range(n))

    say(
        f"You at seat {seat} of {n} against the {opponents.name} ({opponents.rules}"
        + (", passing allowed" if opponents.allow_pass else "")
        + f"), seed {seed}."
    )
    say("Every other seat plays the stationary equilibrium, drawing its mixed choices from the seed.")
    say(f"Commands: {_HELP}.")
    say()
    show = True
    while game.winner is None:
        if game.to_move == "opponent":
            before = len(game.events)
            game.step_opponent()
            for e in game.events[before:]:
                say("  " + _describe(game, e))
            if delay:
                time.sleep(delay)
            show = True
            continue
        reading = analyst.read(game) if analyst else None
        if show:
            say(f"Seat {seat} (you) to move: {scoreline()}; your turn total {game.k}")
            if reading is not None:
                say(
                    f"  win {_pct(reading.value)}   roll {_pct(reading.roll)}   hold {_pct(reading.hold)}"
                    f"   best: {reading.advice}"
                )
        show = True
        print("> ", end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            say()
            say("(end of input)")
            result.quit = True
            break
        word = line.strip().lower()
        if word in ("q", "quit", "exit"):
            result.quit = True
            break
        if word not in _COMMANDS:
            say(f"  {_HELP}")
            show = False
            continue
        command = _COMMANDS[word]
        if command == "best":
            if reading is None:
                say("  no numbers for this policy (it was not solved here)")
            else:
                say(
                    f"  best move: {reading.advice} (the equilibrium rolls with probability {reading.equilibrium_roll:.4f})"
                )
            show = False
            continue
        if command == "hold" and not game.can_hold:
            say("  you cannot hold now: roll first")
            show = False
            continue
        result.moves.append(command)
        before = len(game.events)
        game.roll() if command == "roll" else game.hold()
        for e in game.events[before:]:
            say("  " + _describe(game, e))
    if game.winner is not None:
        verdict = "you win" if game.winner == seat else f"seat {game.winner} wins"
        say(f"Game over: {verdict} ({scoreline()}). Seed {seed}.")
    else:
        say(f"Game left at {scoreline()}. Seed {seed}.")
    return result


# --- the play site's data ------------------------------------------------------------------


def _slice_prob(policy: Any, t0: int, rules: Rules) -> np.ndarray:
    """The roll probabilities of every state with own score ``t0``: shape ``(g,) * (n - 1) + (g,)``."""
    if isinstance(policy, MultiplayerRollTable):
        return np.asarray(policy.prob[t0], dtype=float)
    g = rules.goal
    out = np.unpackbits(policy.roll_bits[t0], axis=-1, bitorder="little")[..., :g].astype(float)
    ms = np.asarray(policy.mixed_states)
    hit = ms[:, 0] == t0
    if hit.any():
        out[tuple(ms[hit, 1:].T)] = np.asarray(policy.mixed_prob)[hit]
    return out


def site_estimate(rules: Rules) -> Any:
    """The memory the site's data of one multiplayer game needs beyond the solve: one own
    score's slice of the table at a time, and the switch counts and offsets of every tuple."""
    from ..guard import Estimate
    from ..validation import check_rules

    check_rules(rules)
    n, g = rules.players, rules.goal
    return Estimate(
        f"play site data of the multiplayer game ({rules})",
        g ** (n + 1),
        16 * g**n + 24 * g ** (n - 1) * g,
        "a smaller goal or fewer players for the site's multiplayer game",
    )


def pack_multiplayer(opponents: MultiplayerOpponents) -> dict[str, Any]:
    """The JSON object of a multiplayer game's data file on the play site.

    The roll table is run-length coded along the turn total: for every score tuple ``t``
    (own-centric, C order over ``(goal,) * n``) ``switches[t]`` counts the turn totals
    ``k < goal - t_0`` at which rolling (roll probability 1) and not rolling change, starting
    from rolling before ``k = 0``; ``switch_k`` lists those turn totals tuple after tuple. A
    threshold policy has one switch per tuple (none where it rolls on to the goal). States where
    the policy mixes are listed apart: ``mixed_state`` (``t_flat * goal + k``) and
    ``mixed_weight`` (:func:`roll_weight`, ``1 .. 2**32 - 1``). Arrays as in
    :mod:`pigtheory.play.site` (one gzip stream, base64).

    Returns
    -------
    dict
        ``{"key", "name", "rules", "players", "allowPass", "start", "sections", "blob"}``.
    """
    import base64
    import gzip

    if not isinstance(opponents, MultiplayerOpponents):
        raise ValueError(f"opponents must be MultiplayerOpponents, got {opponents!r:.80}")
    rules = opponents.rules
    n, g = rules.players, rules.goal
    if g ** (n + 1) >= 2**32:
        raise ValueError(
            f"rules: the site's multiplayer game needs goal ** (players + 1) < 2**32, got {rules}"
        )
    from ..guard import check_memory

    check_memory(site_estimate(rules))
    switches = np.zeros((g,) * n, dtype=np.int64)
    ks: list[np.ndarray] = []
    m_state: list[np.ndarray] = []
    m_weight: list[int] = []
    kk = np.arange(g)
    for t0 in range(g):
        prob = _slice_prob(opponents.policy, t0, rules)
        live = kk < g - t0
        roll = (prob == 1.0) & live
        prev = np.concatenate([np.ones(roll.shape[:-1] + (1,), dtype=bool), roll[..., :-1]], axis=-1)
        sw = (roll != prev) & live
        switches[t0] = sw.sum(axis=-1)
        ks.append(np.nonzero(sw)[-1])  # C order: tuple after tuple, k increasing
        mixed = (prob > 0) & (prob < 1) & live
        if mixed.any():
            idx = np.argwhere(mixed)
            flat = np.ravel_multi_index(tuple(idx[:, :-1].T), (g,) * (n - 1)) + t0 * g ** (n - 1)
            m_state.append(flat.astype(np.int64) * g + idx[:, -1])
            m_weight += [roll_weight(p) for p in prob[mixed].tolist()]
    switch_k = np.concatenate(ks) if ks else np.zeros(0, dtype=np.int64)
    mixed_state = np.concatenate(m_state) if m_state else np.zeros(0, dtype=np.int64)
    chunks: list[bytes] = []
    sections: dict[str, dict[str, Any]] = {}
    offset = 0

    def add(name: str, a: np.ndarray, dtype: str) -> None:
        nonlocal offset
        pad = -offset % 4
        chunks.append(b"\0" * pad)
        offset += pad
        data = np.ascontiguousarray(a, dtype={"u8": "<u1", "u16": "<u2", "u32": "<u4"}[dtype]).tobytes()
        sections[name] = {"offset": offset, "length": int(a.size), "dtype": dtype, "shape": list(a.shape)}
        chunks.append(data)
        offset += len(data)

    small = "u8" if g < 256 else "u16"
    add("switches", switches, "u8" if int(switches.max(initial=0)) < 256 else "u16")
    add("switch_k", switch_k, small)
    add("mixed_state", mixed_state, "u32")
    add("mixed_weight", np.array(m_weight, dtype=np.int64), "u32")
    blob = gzip.compress(b"".join(chunks), compresslevel=9, mtime=0)
    eq = opponents.equilibrium
    start = [round(float(x), 6) for x in eq.start_values] if eq is not None else None
    return {
        "key": opponents.key,
        "name": opponents.name,
        "label": str(rules) + (", passing allowed" if opponents.allow_pass else ""),
        "players": n,
        "allowPass": bool(opponents.allow_pass),
        "rules": {
            "goal": g,
            "dieFaces": rules.die_faces,
            "bustFace": rules.bust_face,
            # the game model's outcome table ([kind, points] of every roll): multi.js reads a
            # roll only through it
            "rolls": outcomes(rules).to_json(),
        },
        "start": start,
        "sections": sections,
        "blob": base64.b64encode(blob).decode("ascii"),
    }


def read_multiplayer_data(path: Any) -> dict[str, Any]:
    """Decode a multiplayer game's data file of a built site (for the tests).

    Returns
    -------
    dict
        The file's fields, its sections as arrays, and ``prob``: the roll probability at every
        live state rebuilt from them (``weight / 2**32`` where it mixes; NaN where
        ``t_0 + k >= goal``).
    """
    import base64
    import gzip
    import json

    from ..validation import check_path

    path = check_path("path", path)
    try:
        text = path.read_text(encoding="utf-8")
        obj = json.loads(text[text.index("(") + 1 : text.rindex(")")])
        raw = gzip.decompress(base64.b64decode(obj["blob"]))
        arrays = {}
        for name, sec in obj["sections"].items():
            dtype = {"u8": "<u1", "u16": "<u2", "u32": "<u4"}[sec["dtype"]]
            arrays[name] = np.frombuffer(raw, dtype, sec["length"], sec["offset"]).reshape(sec["shape"])
        n, g = int(obj["players"]), int(obj["rules"]["goal"])
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, EOFError, AttributeError) as exc:
        raise ValueError(
            f"{path}: not a multiplayer game's data file of a built site: {type(exc).__name__}: {exc}"
        ) from None
    prob = np.full((g,) * (n + 1), np.nan)
    sw_counts = arrays["switches"].reshape(-1).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(sw_counts)])
    for flat in range(g**n):
        t = np.unravel_index(flat, (g,) * n)
        live = g - int(t[0])
        row = np.ones(live)
        for s in arrays["switch_k"][starts[flat] : starts[flat + 1]].tolist():
            row[s:] = 1.0 - row[s]
        prob[t][:live] = row
    for st, w in zip(arrays["mixed_state"].tolist(), arrays["mixed_weight"].tolist(), strict=True):
        flat, k = divmod(int(st), g)
        prob[np.unravel_index(flat, (g,) * n) + (k,)] = w / ROLL_ALWAYS
    return {**obj, **arrays, "prob": prob}
