"""Monte Carlo play of n-player sequential Pig, the die rolled face by face: a check of the exact
multiplayer solver that shares none of its code (no turn-total tables, no group algebra).

Every unfinished game makes one decision per step: the mover looks up its roll probability
at its own-centric state (own score, then the next players' in turn order, and its turn
total), draws, and either holds (banks the turn total, the next seat moves) or rolls one die
with ``numpy.random.Generator.integers`` (the bust face ends the turn, other faces add their
points). The first player to reach the goal wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...games import SequentialGame
from ...guard import check_memory, simulation_estimate
from ...results import Result
from ...rules import Rules
from ...validation import check_int
from .equilibrium import MultiplayerEquilibrium, MultiplayerPolicy, check_multiplayer_rules

__all__ = ["MultiplayerGames", "play_multiplayer"]


@dataclass(frozen=True, eq=False)
class MultiplayerGames(Result):
    """Simulated games of n-player sequential Pig.

    Attributes
    ----------
    wins : numpy.ndarray, shape ``(players,)``
        Share of games each seat (playing order) won.
    stderr : numpy.ndarray, shape ``(players,)``
        Standard error of each share.
    turns : numpy.ndarray of int, shape ``(games,)``
        Turns played in each game.
    games : int
    rules : Rules
    """

    wins: np.ndarray
    stderr: np.ndarray
    turns: np.ndarray
    games: int
    rules: Rules


def play_multiplayer(
    policy: Any,
    *,
    rules: Rules | None = None,
    games: int = 10_000,
    rng: Any = None,
    max_memory: Any = None,
) -> MultiplayerGames:
    """Play ``games`` games in which every seat follows the same own-centric policy.

    Parameters
    ----------
    policy : MultiplayerPolicy or MultiplayerEquilibrium
        The roll probabilities (an equilibrium's policy, mixing included).
    rules : Rules, optional
        Default: the policy's rules (must match them if given).
    games : int
        Number of games, ``>= 1``.
    rng : int or numpy.random.Generator, optional
    max_memory : int or str, optional
        Refuse before starting if the estimated memory is above this size (:mod:`pigtheory.guard`).

    Returns
    -------
    MultiplayerGames

    Examples
    --------
    >>> from pigtheory.sequential import equilibrium
    >>> eq = equilibrium(rules=Rules.piglet(goal=3, players=3))
    >>> sim = play_multiplayer(eq, games=4000, rng=1)
    >>> bool(np.all(np.abs(sim.wins - eq.start_values) < 4 * sim.stderr + 1e-9))
    True
    """
    if isinstance(policy, MultiplayerEquilibrium):
        policy = policy.policy
    if not isinstance(policy, MultiplayerPolicy):
        raise ValueError(
            f"policy must be a MultiplayerPolicy or MultiplayerEquilibrium, got {type(policy).__name__}"
        )
    if rules is None:
        rules = policy.rules
    check_multiplayer_rules(rules)
    if rules != policy.rules:
        raise ValueError(f"rules {rules} differ from the policy's {policy.rules}")
    games = check_int("games", games, low=1)
    check_memory(simulation_estimate(rules, games=games, width=2), max_memory)
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    n, g = rules.players, rules.goal
    table = policy.roll_table().astype(float)
    for row, p in zip(policy.mixed_states, policy.mixed_prob, strict=True):
        table[tuple(int(x) for x in row)] = p
    game = SequentialGame(rules)
    score = np.zeros((games, n), dtype=np.int64)
    mover = np.zeros(games, dtype=np.int64)
    k = np.zeros(games, dtype=np.int64)
    turns = np.ones(games, dtype=np.int64)
    winner = np.full(games, -1, dtype=np.int64)
    active = np.arange(games)
    seats = np.arange(n)
    while active.size:
        mv = mover[active]
        view = score[active[:, None], (mv[:, None] + seats[None, :]) % n]
        kk = k[active]
        p_roll = table[tuple(view.T) + (kk,)]
        rolls = gen.random(active.size) < p_roll
        # holds: bank, and win or pass the dice
        h = active[~rolls]
        score[h, mover[h]] += k[h]
        won = h[score[h, mover[h]] >= g]
        winner[won] = mover[won]
        nxt = h[score[h, mover[h]] < g]
        mover[nxt] = (mover[nxt] + 1) % n
        k[nxt] = 0
        turns[nxt] += 1
        # rolls, face by face, through the game model (reaching the goal wins at once: the
        # policy table ends at g)
        r = active[rolls]
        score[r, mover[r]], k[r], passed, won, _ = game.roll_many(
            score[r, mover[r]], k[r], game.sample(gen, r.size)
        )
        bust = r[passed]
        mover[bust] = (mover[bust] + 1) % n
        turns[bust] += 1
        reach = r[won]
        winner[reach] = mover[reach]
        active = active[winner[active] < 0]
    share = (winner[:, None] == seats[None, :]).astype(float)
    wins = share.mean(axis=0)
    stderr = share.std(axis=0, ddof=1) / np.sqrt(games) if games > 1 else np.full(n, np.nan)
    return MultiplayerGames(wins=wins, stderr=stderr, turns=turns, games=games, rules=rules)
