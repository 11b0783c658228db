"""The game in a terminal: plain text in, plain text out (works over ssh and through pipes).

Each line of input is one command: ``r`` roll, ``h`` hold, ``b`` show the best move (and what
rolling and holding are worth; it plays nothing), ``q`` quit, ``?`` help (whole words work
too). After every move the game prints the state and the live numbers of
:class:`~pigtheory.play.analysis.Analyst`; the opponent's turns are printed roll by roll
(with ``delay``, one move at a time: keys typed at a terminal meanwhile are discarded, not
played as the next moves). Turns are numbered 1, 2, 3, ... for each player, in sequential
play too. The end of the input ends the game. The same seed and the same moves give the same
game as the web page.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..rules import Rules
from .analysis import COSTLY, Analyst, Reading
from .game import Game
from .opponents import Opponent

__all__ = ["play_terminal", "TerminalGame", "describe"]

_COMMANDS = {"r": "roll", "roll": "roll", "h": "hold", "hold": "hold", "b": "best", "best": "best"}
_HELP = "r = roll, h = hold, b = show the best move, q = quit, ? = this help"


@dataclass
class TerminalGame:
    """What happened: the game, the person's moves and what they gave away.

    Attributes
    ----------
    game : Game
        The game, as it ended (or as it was left).
    moves : list of str
        The person's moves, ``"roll"`` or ``"hold"``.
    costs : list of float
        What each move gave away (:meth:`~pigtheory.play.Analyst.cost`).
    quit : bool
        The person left before the end.
    """

    game: Game
    moves: list[str] = field(default_factory=list)
    costs: list[float] = field(default_factory=list)
    quit: bool = False

    @property
    def total_cost(self) -> float:
        """Win probability given away over the whole game (the sum of ``costs``)."""
        return sum(self.costs)


def _turn_number(game: Game) -> int:
    """The turn's number for the person: :attr:`Game.turn` counts both players' turns in
    sequential play (the person's are 1, 3, 5 or 2, 4, 6), each player's turn is number 1, 2,
    3, ..."""
    return (game.turn + 1) // 2 if game.mode == "sequential" else game.turn


def _discard_typeahead(stream: TextIO) -> None:
    """Drop what was typed at a terminal and not yet read (keys pressed while the opponent's
    turn was shown); a pipe or a file is left alone (its lines are the moves)."""
    try:
        if not stream.isatty():
            return
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    try:
        import termios

        termios.tcflush(fd, termios.TCIFLUSH)
    except ImportError:  # pragma: no cover - Windows
        import msvcrt

        while msvcrt.kbhit():  # type: ignore[attr-defined]
            msvcrt.getwch()  # type: ignore[attr-defined]
    except OSError:  # pragma: no cover - not a real terminal after all
        pass


def _pct(x: float | None) -> str:
    return "  -   " if x is None else f"{100 * x:6.2f}%"


def describe(event: dict[str, Any], mode: str = "sequential", rules: Rules | None = None) -> str:
    """One line for one event of :class:`~pigtheory.play.game.Game` (a coin's faces, as in
    Piglet, read heads and tails)."""
    who = "you" if event["who"] == "you" else "opponent"
    coin = rules is not None and rules.die_faces == 2
    bust = rules.bust_face if rules is not None else 0
    dice = "-".join(("tails" if d == bust else "heads") if coin else str(d) for d in event["dice"])
    out, k, scores = event["outcome"], event["k"], event["scores"]
    if event["action"] == "choose":
        return ""
    if event["action"] == "resolve":
        gains = event["gains"]
        line = f"turn over: you +{gains[0]}, opponent +{gains[1]} -> you {scores[0]}, opponent {scores[1]}"
        return line + {"tie": " (both reached the goal: a tie)", "win": ""}.get(out, "")
    if event["action"] == "hold":
        if out == "pass":
            return f"{who} pass{'es' if who != 'you' else ''}"
        verb = "hold" if who == "you" else "holds"
        if mode == "simultaneous":  # the points are added when both turns are over
            return f"{who} {verb} at {k}"
        return f"{who} {verb} at {k} -> {scores[0 if who == 'you' else 1]}"
    verb = "roll" if who == "you" else "rolls"
    text = {
        "bust": "bust, the turn total is lost",
        "reset": "snake eyes: the score goes back to 0",
        "double": f"a double, must roll again: turn total {k}",
        "goal": f"turn total {k}: the goal is reached",
        "score": f"turn total {k}",
    }[out]
    return f"{who} {verb} {dice}: {text}"


class _Session:
    def __init__(self, opp: Opponent, seed: int, first: str, out: TextIO, delay: float) -> None:
        self.opp = opp
        self.analyst = Analyst(opp)
        self.result = TerminalGame(Game(opp.table, seed=seed, first=first))
        self.out = out
        self.delay = delay

    @property
    def game(self) -> Game:
        return self.result.game

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def status(self, reading: Reading) -> None:
        g = self.game
        mine = "your turn total" if g.to_move == "you" else "its turn total"
        self.say(f"Turn {_turn_number(g)}: you {g.scores[0]}, opponent {g.scores[1]}; {mine} {g.k}")
        line = f"  win {_pct(reading.value)}"
        if reading.who == "you":
            line += f"   roll {_pct(reading.roll)}   hold {_pct(reading.hold)}   best: {reading.advice}"
        self.say(line)

    def opponent_turn(self) -> None:
        g = self.game
        while g.to_move == "opponent":
            before = len(g.events)
            g.step_opponent()
            for event in g.events[before:]:
                line = describe(event, g.mode, g.rules)
                if line:
                    if g.winner is None and g.to_move == "opponent":
                        line += f"   (your chances {_pct(self.analyst.read(g).value).strip()})"
                    self.say("  " + line)
            if self.delay:
                time.sleep(self.delay)

    def show_best(self) -> None:
        """``b``: the best move and what each move is worth; nothing is played."""
        reading = self.analyst.read(self.game)
        best = reading.advice or "roll"
        line = f"  best move: {best}"
        if reading.roll is not None and reading.hold is not None:
            line += (
                f" (win {_pct(reading.roll).strip()} if you roll, {_pct(reading.hold).strip()} if you hold)"
            )
        self.say(line)

    def move(self, command: str) -> None:
        g = self.game
        reading = self.analyst.read(g)
        if command == "hold" and not g.can_hold:
            self.say(
                "  you cannot hold now: " + ("a double must be rolled again" if g.forced else "roll first")
            )
            return
        cost = self.analyst.cost(reading, command)
        self.result.moves.append(command)
        self.result.costs.append(cost)
        before = len(g.events)
        g.roll() if command == "roll" else g.hold()
        for event in g.events[before:]:
            line = describe(event, g.mode, g.rules)
            if line:
                self.say("  " + line)
        if cost >= COSTLY:
            self.say(
                f"  (that gave away {100 * cost:.2f} percentage points of win probability; best was {reading.advice})"
            )


def play_terminal(
    opponent: Opponent,
    *,
    seed: int | None = None,
    first: str = "you",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    delay: float = 0.0,
) -> TerminalGame:
    """Play one game against ``opponent`` in a terminal.

    Parameters
    ----------
    opponent : Opponent
    seed : int, optional
        ``0 <= seed < 2**32``; default a random seed (printed, so the game can be replayed).
    first : {"you", "opponent"}
        Sequential play: who starts.
    stdin, stdout : text streams
        Default the process's own.
    delay : float
        Seconds between the opponent's moves (0: print at once, as for pipes). With a delay,
        keys typed at a terminal during the opponent's turn are discarded.

    Returns
    -------
    TerminalGame
    """
    if not isinstance(opponent, Opponent):
        raise ValueError(
            f"opponent must be an Opponent (pigtheory.play.opponent(name) makes one), got {opponent!r:.80}"
        )
    if seed is not None and not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**32):
        raise ValueError(f"seed must be an integer in 0..2**32-1, got {seed!r:.80}")
    if first not in ("you", "opponent"):
        raise ValueError(f"first must be 'you' or 'opponent', got {first!r:.80}")
    if not isinstance(delay, (int, float)) or isinstance(delay, bool) or not 0 <= delay <= 10:
        raise ValueError(f"delay must be a number of seconds in 0..10, got {delay!r:.80}")
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    s = _Session(opponent, seed, first, stdout, delay)
    g = s.game
    s.say(f"You against {opponent.name}: {opponent.rules}, {opponent.mode} play, seed {seed}.")
    s.say(opponent.about)
    s.say(f"Commands: {_HELP}. 'win' is your chance of winning if you play best from here.")
    if opponent.mode == "simultaneous":
        s.say("Both players take their turn at once: you roll first, then the opponent's turn is shown.")
    s.say()
    show_status = True
    while g.winner is None:
        if g.to_move == "opponent":
            s.opponent_turn()
            if delay:
                _discard_typeahead(stdin)
            continue
        if show_status:
            s.status(s.analyst.read(g))
        show_status = True
        print("> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            s.say()
            s.say("(end of input)")
            s.result.quit = True
            break
        word = line.strip().lower()
        if word in ("q", "quit", "exit"):
            s.result.quit = True
            break
        if word not in _COMMANDS:
            s.say(f"  {_HELP}")
            continue
        if _COMMANDS[word] == "best":
            s.show_best()
            show_status = False  # the same state: only the prompt again
            continue
        s.move(_COMMANDS[word])
    n_costly = sum(c >= COSTLY for c in s.result.costs)
    if g.winner is not None:
        verdict = {"you": "you win", "opponent": "the opponent wins", "tie": "a tie"}[g.winner]
        n = _turn_number(g)
        turns = f"{n} turn" + ("s" if n != 1 else "")
        s.say(f"Game over after {turns}: {verdict} ({g.scores[0]} to {g.scores[1]}).")
    else:
        s.say(f"Game left at you {g.scores[0]}, opponent {g.scores[1]}.")
    s.say(
        f"Your moves gave away {100 * s.result.total_cost:.2f} percentage points of win probability in total "
        f"({n_costly} of {len(s.result.moves)} moves differed from the best response). Seed {seed}."
    )
    return s.result
