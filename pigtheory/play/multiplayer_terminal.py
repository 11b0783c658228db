"""The terminal game of multiplayer sequential Pig: a person in one seat, equilibrium (or file)
opponents in the others, the best move on request (:class:`~.multiplayer.MultiplayerGame`)."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..games import outcomes
from ..validation import check_int
from .multiplayer import (
    MultiplayerAnalyst,
    MultiplayerGame,
    MultiplayerOpponents,
)

__all__ = ["MultiplayerTerminalGame", "play_terminal_multiplayer"]


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
