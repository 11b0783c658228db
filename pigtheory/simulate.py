"""Monte Carlo play of Pig, rolling the dice face by face: an independent check of the exact code.

Nothing here reads the X_k tables of :mod:`pigtheory.turn_totals`: every turn is played out
roll by roll, the dice drawn face by face with ``numpy.random.Generator.integers`` and read by
the rules' own roll rule (:meth:`pigtheory.Rules.sample_rolls`), so agreement with the exact
solvers within a few standard errors tests the recursion (eq. 11) and the backward induction
at once.

Shapes
------
``scores``: int array ``(games, players)`` in seat order. Player p looks its policy up at its
own-centric state ``(scores[p], scores[p + 1], ..., scores[p - 1])`` (own score first, then
the seats after it, cyclically), as :mod:`pigtheory.simultaneous.evaluate` does.

Notes
-----
Simultaneous Pig: at the start of every turn each player draws a threshold k from its policy at
its state (a mixed policy draws afresh at every state and turn, eq. 12 of the paper), rolls
until the turn total is ``>= k`` or a bust face comes up, and then all turn totals are added
at once, scores clipped at the goal. The game ends when somebody reaches the goal; the m
players at the goal share the win, 1/m each. With ``x_g`` player p's share in game g, the
estimate is the sample mean and its standard error ``sd(x) / sqrt(games)``.

References
----------
Zhu, Ma, Chen & Liu, "Optimal strategy of the simultaneous dice game Pig for multiplayers",
Scientific Reports 13 (2023): rules of simultaneous Pig, eqs. (10)-(12).

Examples
--------
>>> from pigtheory import Rules, hold_at
>>> sim = play_simultaneous([hold_at(2), hold_at(2)], Rules(goal=10), games=2000, rng=1)
>>> round(float(sim.wins.sum()), 12)
1.0
>>> bool(abs(sim.wins[0] - 0.5) < 4 * sim.stderr[0] + 1e-12)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .games import outcomes
from .guard import check_memory, simulation_estimate
from .policies import Mixture, take_at_states
from .progress import progress_bar
from .results import Result
from .rules import Rules
from .stopping import RuleMixture, as_turn_policy
from .validation import check_int, check_ints, check_rng, check_rules

__all__ = ["Simulation", "play_simultaneous", "turn_totals"]


@dataclass(frozen=True, eq=False)
class Simulation(Result):
    """Outcome of many simulated games.

    Attributes
    ----------
    wins : numpy.ndarray, shape (players,)
        Mean win share of each seat (ties split 1/m); sums to 1.
    stderr : numpy.ndarray, shape (players,)
        Standard error of each mean.
    turns_mean : float
        Mean number of turns per game.
    turns_sd : float
        Their standard deviation.
    turns : numpy.ndarray of int, shape (games,)
        Turns of every game.
    games : int
    start : tuple of int
        Starting scores, seat order.
    method : str
    rules : Rules
    """

    wins: np.ndarray
    stderr: np.ndarray
    turns_mean: float
    turns_sd: float
    turns: np.ndarray
    games: int
    start: tuple[int, ...]
    method: str
    rules: Rules

    @property
    def value(self) -> np.ndarray:
        """Alias of :attr:`wins` (the field name the solvers' results use)."""
        return self.wins


def _generator(rng: Any) -> np.random.Generator:
    return check_rng(rng)


def _positive(name: str, value: Any) -> int:
    return check_int(name, value, low=1, high=2**62)


def _roll(rules: Rules, rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``(bust, points)`` of ``size`` rolls drawn face by face, read in the game model's
    outcome table (:class:`pigtheory.games.Outcomes`, the draws of :meth:`Rules.sample_rolls`);
    a reset (snake eyes) ends the turn like a bust."""
    table = outcomes(rules)
    rolls = table.sample(rng, size)
    return table.bust[rolls], table.points[rolls]


def _play_turns(k: np.ndarray, rules: Rules, rng: np.random.Generator) -> np.ndarray:
    """Gains of independent hold-at-k turns (k >= 1 each), rolled face by face."""
    total = np.zeros(k.shape, dtype=np.int64)
    rolling = np.flatnonzero(np.ones(k.shape, dtype=bool))
    flat_k = k.ravel()
    flat = total.ravel()
    while rolling.size:
        bust, pts = _roll(rules, rng, rolling.size)
        flat[rolling[bust]] = 0
        keep = rolling[~bust]
        flat[keep] += pts[~bust]
        rolling = keep[flat[keep] < flat_k[keep]]
    return total


def _play_rule_turns(prob: np.ndarray, own: np.ndarray, rules: Rules, rng: np.random.Generator) -> np.ndarray:
    """Gains of independent stopping-rule turns, rolled face by face: at turn total t the
    player at own score ``own[r]`` rolls again with probability ``prob[r, t]`` (always at
    t = 0), and holds on reaching the goal."""
    goal = rules.goal
    total = np.zeros(own.shape, dtype=np.int64)
    rolling = np.arange(own.size)
    while rolling.size:
        bust, pts = _roll(rules, rng, rolling.size)
        total[rolling[bust]] = 0
        keep = rolling[~bust]
        total[keep] += pts[~bust]
        open_ = keep[own[keep] + total[keep] < goal]
        go = rng.random(open_.size) < prob[open_, total[open_]]
        rolling = open_[go]
    return total


def turn_totals(
    k: int, n: int, rules: Rules = Rules(), rng: Any = None, *, max_memory: Any = None
) -> np.ndarray:
    """Points of ``n`` independent "hold at k" turns, rolled face by face.

    Parameters
    ----------
    k : int
        Hold as soon as the turn total is >= k; ``k >= 1``.
    n : int
        Number of turns, ``>= 1``.
    rules : Rules
        The die: one or two dice (a bust face on either die busts), Piglet's coin.
    rng : int, numpy.random.Generator or None
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    numpy.ndarray of int, shape (n,)
        0 for a bust, else the turn total (``k .. k + max_roll - 1``).

    Examples
    --------
    >>> x = turn_totals(3, 10_000, rng=0)
    >>> sorted(set(x.tolist()))
    [0, 3, 4, 5, 6, 7, 8]
    """
    check_rules(rules)
    check_memory(simulation_estimate(rules, games=n), max_memory)
    k = _positive("k", k)
    n = _positive("n", n)
    if rules.roll_model().forced:
        raise ValueError("rules: Double Trouble's forced re-rolls are not a hold-at-k turn")
    return _play_turns(np.full(n, k, dtype=np.int64), rules, _generator(rng))


def _sample_thresholds(mix: Mixture, view: tuple[np.ndarray, ...], rng: np.random.Generator) -> np.ndarray:
    th = take_at_states(mix.thresholds, view)
    if mix.is_pure:
        return np.broadcast_to(th[..., 0], view[0].shape).astype(np.int64)
    w = take_at_states(mix.weights, view)
    th, w = np.broadcast_arrays(th, w)
    u = np.asarray(rng.random(th.shape[0]))
    # First component whose cumulative weight exceeds u; clip guards rounding at the top.
    pick = np.minimum((np.cumsum(w, axis=1) <= u[:, None]).sum(axis=1), th.shape[1] - 1)
    return th[np.arange(th.shape[0]), pick].astype(np.int64)


def play_simultaneous(
    profile: Sequence[Any],
    rules: Rules = Rules(),
    games: int = 100_000,
    rng: Any = None,
    start: Sequence[int] | None = None,
    max_turns: int = 100_000,
    progress: bool | None = None,
    *,
    max_memory: Any = None,
) -> Simulation:
    """Play ``games`` games of simultaneous Pig with one policy per seat.

    Parameters
    ----------
    profile : sequence of policies, length ``rules.players``
        Anything :func:`pigtheory.policies.as_mixture` reads, in seat order.
    rules : Rules
        One die (or Piglet's coin); any number of players.
    games : int
        Number of games, ``>= 1``; all are played at once (vectorised).
    rng : int, numpy.random.Generator or None
        Seed or generator; a fixed int gives the same result every run.
    start : sequence of int, optional
        Starting scores in seat order, each in ``0..goal - 1``; default all 0.
    max_turns : int
        Give up (``RuntimeError``) if some game is still running after this many turns.
    progress : bool or None
        Show a bar of finished games on stderr; ``None``: only when stderr is a terminal.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    Simulation

    Raises
    ------
    ValueError
        A profile of the wrong length, a bad policy, ``games``, ``max_turns`` or ``start``.
    RuntimeError
        Some game is still running after ``max_turns`` turns.
    """
    check_rules(rules)
    check_memory(simulation_estimate(rules, games=games), max_memory)
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a pigtheory.Rules, got {type(rules).__name__}")
    if not rules.roll_model().simple:
        raise ValueError(
            "rules: simultaneous Pig is played with one die (dice=1: no snake eyes, no forced roll)"
        )
    n, goal = rules.players, rules.goal
    if isinstance(profile, (str, bytes)) or not hasattr(profile, "__len__") or len(profile) != n:
        raise ValueError(f"profile: {n} players need a sequence of {n} policies, got {profile!r}")
    games = _positive("games", games)
    max_turns = _positive("max_turns", max_turns)
    if start is None:
        start = (0,) * n
    start = tuple(check_ints("start", start, low=0, high=goal - 1))
    if len(start) != n or any(not 0 <= s < goal for s in start):
        raise ValueError(f"start: {n} scores each in 0..{goal - 1} needed, got {start!r}")
    mixes = [as_turn_policy(p, rules) for p in profile]
    gen = _generator(rng)

    scores = np.tile(np.array(start, dtype=np.int64), (games, 1))
    turns = np.zeros(games, dtype=np.int64)
    shares = np.zeros((games, n))
    live = np.arange(games)
    with progress_bar(games, "simulate", progress) as bar:
        for turn in range(1, max_turns + 1):
            s = scores[live]
            k = np.empty_like(s)
            gains = np.zeros_like(s)
            for p, mix in enumerate(mixes):
                view = tuple(s[:, (p + q) % n] for q in range(n))
                if isinstance(mix, RuleMixture):
                    rows = np.broadcast_to(mix.prob, (goal,) * n + (goal,))[view]
                    gains[:, p] = _play_rule_turns(rows, s[:, p], rules, gen)
                    k[:, p] = 0
                else:
                    k[:, p] = _sample_thresholds(mix, view, gen)
            threshold_seats = [p for p, mix in enumerate(mixes) if not isinstance(mix, RuleMixture)]
            if threshold_seats:
                gains[:, threshold_seats] = _play_turns(k[:, threshold_seats], rules, gen)
            s = np.minimum(s + gains, goal)
            scores[live] = s
            at_goal = s == goal
            over = at_goal.any(axis=1)
            ended = live[over]
            shares[ended] = at_goal[over] / at_goal[over].sum(axis=1, keepdims=True)
            turns[ended] = turn
            live = live[~over]
            bar.update(int(ended.size))
            if not live.size:
                break
    if live.size:
        raise RuntimeError(
            f"simulate: {live.size} of {games} games still running after max_turns={max_turns} turns; "
            "raise max_turns"
        )
    sd = shares.std(axis=0, ddof=1) if games > 1 else np.full(n, np.nan)
    return Simulation(
        wins=shares.mean(axis=0),
        stderr=sd / np.sqrt(games),
        turns_mean=float(turns.mean()),
        turns_sd=float(turns.std(ddof=1)) if games > 1 else float("nan"),
        turns=turns,
        games=games,
        start=start,
        method="monte carlo, dice rolled face by face",
        rules=rules,
    )
