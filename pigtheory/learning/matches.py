"""Monte Carlo matches of stochastic sequential tables, what learners are usually scored by,
and the Monte Carlo estimate of a profile's exploitability a win-rate study would report.

The transition is written here (``_play``) until the game model (``pigtheory.games``) owns it;
``_play`` should then call it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games.policy_tables import check_referee_rules, read_profile
from ..guard import check_memory, simulation_estimate
from ..jit import compiled, kernel
from ..referee.evaluate import _model
from ..rules import Rules
from ..validation import check_int, check_rng
from .run import _roll, _seed

__all__ = ["play_matches", "monte_carlo_exploitability"]


@kernel
def _play(g, pvec_cum, p_bust, roll0, roll1, games, seed, wins):  # pragma: no cover - compiled
    """``games`` games of two tables; ``wins[n]`` = 1 if seat 0 won game n, 1/2 for a game that
    never ends (the referee's draw): at once when a seat passes at turn total 0 where both seats
    pass with probability 1, else when still running after 10**6 decisions."""
    np.random.seed(seed)  # noqa: NPY002 - numba seeds its own generator
    for n in range(games):
        s0 = 0
        s1 = 0
        p = 0
        k = 0
        moves = 0
        while True:
            moves += 1
            if moves > 1_000_000:
                wins[n] = 0.5
                break
            i = s0 if p == 0 else s1
            j = s1 if p == 0 else s0
            r = roll0[i, j, k] if p == 0 else roll1[i, j, k]
            if np.random.random() >= r:  # hold (a pass at k = 0)  # noqa: NPY002 - numba seeds its own generator
                if k == 0 and r == 0.0 and (roll1[j, i, 0] if p == 0 else roll0[j, i, 0]) == 0.0:
                    wins[n] = 0.5  # both seats pass here for sure: the game never ends
                    break
                if p == 0:
                    s0 += k
                else:
                    s1 += k
                k = 0
                p = 1 - p
                continue
            gain = _roll(pvec_cum, p_bust)
            if gain == 0:  # a bust
                k = 0
                p = 1 - p
                continue
            k += gain
            if i + k >= g:
                wins[n] = 1.0 if p == 0 else 0.0
                break


def play_matches(profile: Any, *, rules: Rules = Rules(), games: int = 1000, rng: Any = None) -> np.ndarray:
    """Monte Carlo: seat 0's result (1 win, 0 loss) in ``games`` simulated games of a profile.

    Parameters
    ----------
    profile : policy or list of two policies
        Anything :func:`~pigtheory.referee.read_profile` reads (stochastic tables sampled).
    rules : Rules
    games : int
        >= 1.
    rng : int or numpy.random.Generator, optional

    Returns
    -------
    numpy.ndarray of float, shape ``(games,)``
    """
    check_referee_rules(rules, players=2)
    games = check_int("games", games, low=1)
    check_memory(simulation_estimate(rules, games=games))  # one result per game: refused if it cannot fit
    r0, r1 = (np.ascontiguousarray(t, dtype=np.float64) for t in read_profile(profile, rules))
    pvec, p_bust = _model(rules)
    wins = np.zeros(games)
    compiled(_play)(rules.goal, np.cumsum(pvec), p_bust, r0, r1, games, _seed(rng), wins)
    return wins


def monte_carlo_exploitability(
    profile: Any, *, rules: Rules = Rules(), games: int = 2000, rng: Any = None, simultaneous: bool = False
) -> tuple[float, float]:
    """What a win-rate study would report for a profile's exploitability: the exact best
    responses play ``games`` simulated games against it (half in each seat), and their mean win
    rate minus the on-policy one is returned with its standard error.

    Parameters
    ----------
    profile : policy or list of two policies
        Sequential (anything :func:`~pigtheory.referee.read_profile` reads) or, with
        ``simultaneous=True``, simultaneous policies (thresholds, mixed, stopping rules).
    rules : Rules
    games : int
        Games per seat (>= 2).
    rng : int or numpy.random.Generator, optional
    simultaneous : bool

    Returns
    -------
    estimate, stderr : float
        Estimates :class:`~pigtheory.referee.Exploitability`'s ``exploitability`` (the mean gain);
        the exact number lies within a few standard errors.
    """
    games = check_int("games", games, low=2)
    check_memory(simulation_estimate(rules, games=games))  # before the best responses are solved
    gen = check_rng(rng)
    if simultaneous:
        from .. import simultaneous as sim
        from ..simulate import play_simultaneous

        pols = list(profile) if isinstance(profile, (list, tuple)) else [profile, profile]
        gains, var = 0.0, 0.0
        for p in range(2):
            br = sim.best_response(pols[1 - p], rules=rules).policy
            mine = [pols[0], pols[1]]
            mine[p] = br
            s = play_simultaneous(mine, rules=rules, games=games, rng=gen)
            on = play_simultaneous(pols, rules=rules, games=games, rng=gen)
            gains += s.wins[p] - on.wins[p]
            var += s.stderr[p] ** 2 + on.stderr[p] ** 2
        return gains / 2, float(np.sqrt(var) / 2)
    from ..referee.best_response import _best_response

    tables = [np.ascontiguousarray(t, dtype=np.float64) for t in read_profile(profile, rules)]
    gains, var = 0.0, 0.0
    for p in range(2):
        br = _best_response(tables, p, rules, None, 100).policy.astype(float)
        mine = list(tables)
        mine[p] = br
        w = play_matches(mine, rules=rules, games=games, rng=gen)
        o = play_matches(tables, rules=rules, games=games, rng=gen)
        if p == 1:
            w, o = 1.0 - w, 1.0 - o
        gains += w.mean() - o.mean()
        var += w.var(ddof=1) / games + o.var(ddof=1) / games
    return float(gains / 2), float(np.sqrt(var) / 2)
