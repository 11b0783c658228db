"""Monte Carlo play of sequential Pig between two fixed policies (validation, turn counts).

Many games are played at once, one decision of every unfinished game per step, so a few
hundred thousand games take seconds. The exact counterparts are
:func:`pigtheory.sequential.compare` (who wins) and :func:`pigtheory.length.game_length`
(how many turns); the simulator checks both.

References
----------
Zhu & Ma, Stats 5 (2022), Table 1 (10^7 simulated games).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..games import SequentialGame
from ..guard import check_memory, simulation_estimate
from ..policies.sequential import roll_table
from ..results import Result
from ..rules import Rules
from ..validation import check_int, check_rng
from .model import check_rules

__all__ = ["Games", "play"]


@dataclass(frozen=True, eq=False)
class Games(Result):
    """Simulated games: ``first_won[g]`` (the first player won game g) and ``turns[g]``.

    Attributes
    ----------
    first_won : numpy.ndarray of bool, shape ``(games,)``
        The first player (A) won game g.
    turns : numpy.ndarray of int, shape ``(games,)``
        Turns played in game g, both players' counted (Zhu & Ma 2022, Table 1's "number of
        turns").
    rules : Rules
    """

    first_won: np.ndarray
    turns: np.ndarray
    rules: Rules

    def __post_init__(self) -> None:
        self.first_won.setflags(write=False)
        self.turns.setflags(write=False)

    @property
    def first_win_rate(self) -> tuple[float, float]:
        """Share of games the first player won and its standard error."""
        p = float(self.first_won.mean())
        return p, float(np.sqrt(p * (1 - p) / self.first_won.size))

    @property
    def mean_turns(self) -> tuple[float, float]:
        """Mean number of turns and its standard error."""
        t = self.turns.astype(float)
        return float(t.mean()), float(t.std(ddof=1) / np.sqrt(t.size))


def play(
    policy_a: Any,
    policy_b: Any,
    *,
    rules: Rules = Rules(),
    games: int = 10_000,
    rng: Any = None,
    max_memory: Any = None,
) -> Games:
    """Play ``games`` sequential games, A moving first.

    Parameters
    ----------
    policy_a, policy_b
        Sequential policies without a counter (solutions, ``hold_at(n)``, roll tables).
    rules : Rules
    games : int
        Number of games, ``>= 1``.
    rng : int or numpy.random.Generator, optional
        Seed or generator; the same seed plays the same games.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    Games
        ``first_won`` and ``turns`` of shape ``(games,)``.

    Examples
    --------
    >>> from pigtheory import hold_at
    >>> g = play(hold_at(2), hold_at(2), rules=Rules.piglet(goal=2), games=2000, rng=1)
    >>> 0.5 < g.first_win_rate[0] < 0.65
    True
    """
    check_memory(simulation_estimate(rules, games=games), max_memory)
    check_rules(rules)
    games = check_int("games", games, low=1)
    gen = check_rng(rng)
    g = rules.goal
    game = SequentialGame(rules)
    tables = np.stack([roll_table(policy_a, rules), roll_table(policy_b, rules)])
    score = np.zeros((games, 2), dtype=np.int64)
    mover = np.zeros(games, dtype=np.int64)
    k = np.zeros(games, dtype=np.int64)
    forced = np.zeros(games, dtype=bool)
    turns = np.ones(games, dtype=np.int64)
    first_won = np.zeros(games, dtype=bool)
    active = np.arange(games)
    while active.size:
        mv = mover[active]
        own = score[active, mv]
        opp = score[active, 1 - mv]
        kk = k[active]
        # a forced roll (Double Trouble) may stand at or above the goal: the table ends at g - 1
        wants = tables[mv, np.minimum(own, g - 1), opp, np.minimum(kk, g - 1)]
        rolls = forced[active] | wants
        # holds: bank the turn total, pass the dice (the game model's transition)
        h = active[~rolls]
        score[h, mover[h]], _ = game.hold_many(score[h, mover[h]], k[h])
        # rolls, face by face
        at = np.flatnonzero(rolls)
        r = active[at]
        own_r = own[at]
        new_own, k[r], busts, won, forced[r] = game.roll_many(own_r, kk[at], game.sample(gen, r.size))
        moved = new_own != own_r  # a reset (snake eyes) or a win
        score[r[moved], mv[at][moved]] = new_own[moved]
        ended = np.concatenate([h, r[busts]])
        mover[ended] = 1 - mover[ended]
        k[ended] = 0
        forced[ended] = False
        turns[ended] += 1
        if won.any():
            w = r[won]
            first_won[w] = mover[w] == 0
            keep = np.ones(active.size, dtype=bool)
            keep[at[won]] = False
            active = active[keep]
    return Games(first_won, turns, rules)
