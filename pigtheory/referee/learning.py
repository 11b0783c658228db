"""Learners to score with the referee: tabular Q-learning on sequential Pig, OpenSpiel's own
tabular Q-learner on ``pig``, and self-play regret matching on simultaneous Pig; and a Monte
Carlo match of stochastic sequential tables (what learners are usually scored by).

Shapes
------
Sequential policies are the referee's tables ``roll[i, j, k]`` (:mod:`.profile`); the
simultaneous learner's policy is a :class:`~pigtheory.policies.MixedPolicy` over the thresholds
``1..goal - i`` at every state (own score first).

Notes
-----
*Q-learning* (Watkins 1989), one table shared by both seats (self-play), own-centric states,
episodic and undiscounted, the reward 1 for a win: after each decision of a player its pending
value is moved towards the target, the maximum of Q at the player's next decision state (or the
outcome when the game ends), :math:`Q(s, a) \\leftarrow Q(s, a) + \\alpha (t - Q(s, a))`, with
epsilon-greedy play. The learned policy is the greedy one (ties: roll).

*Regret matching per state* (Hart & Mas-Colell 2000) in self-play: at every state a sampled game
visits, each player updates its regrets over thresholds in the stage game
:math:`W = C + v D` of that state (:func:`pigtheory.simultaneous.core.stage.stage_game`), built
from the learner's own value estimates of the successor states (bootstrapped, never solved);
the state's value estimate is then the value of the current strategies,
:math:`v = x^\\top C y / (1 - x^\\top D y)`. The learned policy is the average strategy
(regret matching+ with linear averaging, Tammelin 2014).

References
----------
C. J. C. H. Watkins, *Learning from delayed rewards*, PhD thesis (1989); S. Hart & A. Mas-Colell,
"A simple adaptive procedure leading to correlated equilibrium", Econometrica 68 (2000);
O. Tammelin, "Solving large imperfect information games using CFR+", arXiv:1407.5042 (2014).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..guard import Estimate, check_memory, simulation_estimate
from ..jit import compiled, kernel
from ..policies import MixedPolicy
from ..results import Result
from ..rules import Rules
from ..validation import check_int, check_rng
from .evaluate import _model
from .profile import check_referee_rules, read_profile

__all__ = [
    "LearningRun",
    "q_learning",
    "regret_matching",
    "openspiel_q_learning",
    "play_matches",
    "monte_carlo_exploitability",
]


@dataclass(frozen=True, eq=False)
class LearningRun(Result):
    """Snapshots of a learner's policy during training.

    Attributes
    ----------
    episodes : numpy.ndarray of int
        Episodes (games) played at each snapshot.
    policies : list
        The learned policy at each snapshot: roll-probability tables (sequential) or
        :class:`~pigtheory.policies.MixedPolicy` (simultaneous).
    method : str
    rules : Rules
    """

    episodes: np.ndarray
    policies: list
    method: str
    rules: Rules


MAX_EPISODES = 10**9
"""Most episodes (or rounds) a learner may be asked for: past it, the request is a typo."""


def _checkpoints(checkpoints: Any, name: str = "checkpoints") -> np.ndarray:
    """Increasing counts in 1..MAX_EPISODES, as an int64 array (refused before any work)."""
    if isinstance(checkpoints, (str, bytes)) or not isinstance(checkpoints, (list, tuple, range, np.ndarray)):
        raise ValueError(f"{name} must be increasing counts in 1..{MAX_EPISODES}, got {checkpoints!r:.80}")
    values = [
        check_int(name, c, low=1, high=MAX_EPISODES) for c in np.asarray(checkpoints, dtype=object).ravel()
    ]
    c = np.asarray(values, dtype=np.int64)
    if c.size == 0 or np.any(np.diff(c) <= 0):
        raise ValueError(f"{name}: increasing counts in 1..{MAX_EPISODES}, got {checkpoints!r:.80}")
    return c


def _seed(rng: Any) -> int:
    return int(check_rng(rng).integers(2**31 - 1))


@kernel
def _roll(pvec_cum, p_bust):  # pragma: no cover - compiled
    """One roll from one uniform draw: 0 for a bust, else the points it adds
    (``pvec_cum[r]``: P(a scoring roll adds at most r + 1 points))."""
    u = np.random.random()  # noqa: NPY002 - numba seeds its own generator
    if u < p_bust:
        return 0
    for r in range(pvec_cum.size):
        if u < p_bust + pvec_cum[r]:
            return r + 1
    return 1


@kernel
def _q_train(q, g, pvec_cum, p_bust, episodes, alpha, eps, seed):  # pragma: no cover - compiled
    """``episodes`` self-play games of Q-learning on ``q[i, j, k, a]`` (a = 0 roll, 1 hold)."""
    np.random.seed(seed)  # noqa: NPY002 - numba seeds its own generator
    for _ in range(episodes):
        scores = np.zeros(2, dtype=np.int64)
        p = 0
        k = 0
        pend = np.full((2, 4), -1, dtype=np.int64)  # pending (i, j, k, a) per player
        winner = -1
        while winner < 0:
            i = scores[p]
            j = scores[1 - p]
            # the player's previous decision: its target is the best value here
            if pend[p, 0] >= 0:
                t = max(q[i, j, k, 0], q[i, j, k, 1])
                pi, pj, pk, pa = pend[p, 0], pend[p, 1], pend[p, 2], pend[p, 3]
                q[pi, pj, pk, pa] += alpha * (t - q[pi, pj, pk, pa])
            if np.random.random() < eps:  # noqa: NPY002 - numba seeds its own generator
                a = 0 if np.random.random() < 0.5 else 1  # noqa: NPY002 - numba seeds its own generator
            else:
                a = 0 if q[i, j, k, 0] >= q[i, j, k, 1] else 1
            pend[p, 0], pend[p, 1], pend[p, 2], pend[p, 3] = i, j, k, a
            if a == 1:
                scores[p] = i + k
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
                winner = p
        for pl in range(2):
            if pend[pl, 0] >= 0:
                t = 1.0 if pl == winner else 0.0
                pi, pj, pk, pa = pend[pl, 0], pend[pl, 1], pend[pl, 2], pend[pl, 3]
                q[pi, pj, pk, pa] += alpha * (t - q[pi, pj, pk, pa])


@kernel
def _play(g, pvec_cum, p_bust, roll0, roll1, games, seed, wins):  # pragma: no cover - compiled
    """``games`` games of two tables; ``wins[n]`` = 1 if seat 0 won game n."""
    np.random.seed(seed)  # noqa: NPY002 - numba seeds its own generator
    for n in range(games):
        s0 = 0
        s1 = 0
        p = 0
        k = 0
        while True:
            i = s0 if p == 0 else s1
            j = s1 if p == 0 else s0
            r = roll0[i, j, k] if p == 0 else roll1[i, j, k]
            if np.random.random() >= r:  # hold (a pass at k = 0)  # noqa: NPY002 - numba seeds its own generator
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


def q_learning(
    *,
    rules: Rules = Rules(goal=20),
    checkpoints: Any = (1000, 10_000),
    alpha: float = 0.1,
    epsilon: float = 0.1,
    rng: Any = None,
) -> LearningRun:
    """Tabular Q-learning in self-play on two-player sequential Pig (module Notes).

    Parameters
    ----------
    rules : Rules
        One die, two players (a small goal: the table has ``2 goal^3`` entries).
    checkpoints : sequence of int
        Increasing episode counts at which the greedy policy is kept.
    alpha : float
        Step size in (0, 1].
    epsilon : float
        Exploration rate in [0, 1].
    rng : int or numpy.random.Generator, optional

    Returns
    -------
    LearningRun
        The greedy roll tables (0/1 floats) at the checkpoints.
    """
    check_referee_rules(rules, players=2)
    cps = _checkpoints(checkpoints)
    for name, x, low_open in (("alpha", alpha, True), ("epsilon", epsilon, False)):
        ok = isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)
        if not ok or not ((0 < x <= 1) if low_open else (0 <= x <= 1)):
            span = "(0, 1]" if low_open else "[0, 1]"
            raise ValueError(f"{name} must be a number in {span}, got {x!r:.80}")
    g = rules.goal
    pvec, p_bust = _model(rules)
    q = np.full((g, g, g, 2), 0.5)
    train = compiled(_q_train)
    seed = _seed(rng)
    done, policies = 0, []
    for n, c in enumerate(cps):
        train(q, g, np.cumsum(pvec), p_bust, int(c - done), alpha, epsilon, seed + n)
        done = int(c)
        policies.append((q[..., 0] >= q[..., 1]).astype(float))
    return LearningRun(cps, policies, "q-learning (self-play)", rules)


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


@kernel
def _rm_stage(c, d, iterations, out_x, out_y):  # pragma: no cover - compiled
    """Regret matching+ self-play in the stage game ``W = C + v D`` (v the value of the average
    strategies so far, refreshed every few rounds: the self-loop); linear averaging. Returns the
    value of the average strategies."""
    n, m = c.shape
    rx = np.zeros(n)
    ry = np.zeros(m)
    x = np.full(n, 1.0 / n)
    y = np.full(m, 1.0 / m)
    ax = np.zeros(n)
    ay = np.zeros(m)
    wy = np.empty(n)
    xw = np.empty(m)
    v = 0.5
    for t in range(1, iterations + 1):
        for a in range(n):
            acc = 0.0
            for b in range(m):
                acc += (c[a, b] + v * d[a, b]) * y[b]
            wy[a] = acc
        for b in range(m):
            xw[b] = 0.0
        ex = 0.0
        for a in range(n):
            ex += x[a] * wy[a]
            for b in range(m):
                xw[b] += x[a] * (c[a, b] + v * d[a, b])
        sx = 0.0
        for a in range(n):
            rx[a] = max(rx[a] + wy[a] - ex, 0.0)
            sx += rx[a]
            ax[a] += t * x[a]
        sy = 0.0
        for b in range(m):
            ry[b] = max(ry[b] + ex - xw[b], 0.0)
            sy += ry[b]
            ay[b] += t * y[b]
        if sx > 0:
            for a in range(n):
                x[a] = rx[a] / sx
        if sy > 0:
            for b in range(m):
                y[b] = ry[b] / sy
        if t % 8 == 0 or t == iterations:
            num = 0.0
            den = 0.0
            for a in range(n):
                for b in range(m):
                    num += ax[a] * c[a, b] * ay[b]
                    den += ax[a] * d[a, b] * ay[b]
            norm = ax.sum() * ay.sum()
            v = num / (norm - den)
    out_x[:] = ax / ax.sum()
    out_y[:] = ay / ay.sum()
    return v


def regret_matching(*, rules: Rules = Rules(goal=50), iterations: Any = (10, 100, 1000)) -> LearningRun:
    """Regret matching+ self-play per state on two-player simultaneous Pig (module Notes).

    The two players at the states (i, j) and (j, i) play ``iterations`` rounds of regret
    matching+ against each other in that state's stage game; states are taken from the end of the
    game backwards, so that the successor values a stage game is built from are those of the
    learners' own average strategies (bootstrapped, never solved exactly).

    Parameters
    ----------
    rules : Rules
        One die, two players.
    iterations : sequence of int
        Increasing rounds per state; one run per entry (the snapshots).

    Returns
    -------
    LearningRun
        ``episodes`` = the rounds per state; :class:`~pigtheory.policies.MixedPolicy` average
        strategies (thresholds ``1..goal - i`` at every state).
    """
    from ..simultaneous.core import one_blas_thread
    from ..simultaneous.core.stage import extended, stage_game
    from ..validation import check_simultaneous_rules

    check_simultaneous_rules(rules, players=2)
    cps = _checkpoints(iterations, "iterations")
    g = rules.goal
    stage = compiled(_rm_stage)
    a = np.arange(1, g + 1)[None, None, :]
    th = np.broadcast_to(np.minimum(a, (g - np.arange(g))[:, None, None]), (g, g, g))
    policies = []
    with one_blas_thread():
        for t in cps:
            value = np.zeros((g + 1, g + 1))
            value[g, :g] = 1.0
            value[g, g] = 0.5
            w = np.zeros((g, g, g))
            for lev in range(2 * g - 2, -1, -1):
                ext = extended(value, rules)
                for i in range(max(0, lev - g + 1), min(lev, g - 1) + 1):
                    j = lev - i
                    if i > j:
                        continue
                    c, d = stage_game(ext, i, j, rules)
                    x = np.zeros(g - i)
                    y = np.zeros(g - j)
                    v = stage(np.ascontiguousarray(c), np.ascontiguousarray(d), int(t), x, y)
                    value[i, j], value[j, i] = v, 1.0 - v
                    w[i, j, : g - i] = x
                    w[j, i, : g - j] = y
                    if i == j:  # one player's view: the symmetric average of the two
                        w[i, i, : g - i] = (x + y) / 2
            policies.append(MixedPolicy(th, w, name=f"regret matching+, {t} rounds per state"))
    return LearningRun(cps, policies, "regret matching+ (self-play, per state)", rules)


def openspiel_q_learning(game: Any, *, checkpoints: Any = (500, 2000), rng: Any = None) -> LearningRun:
    """OpenSpiel's own ``tabular_qlearner.QLearner``, one per seat, trained in self-play on its
    ``rl_environment`` of ``pig``; each snapshot is read by the referee as a greedy policy.

    Parameters
    ----------
    game : pyspiel.Game
        OpenSpiel's ``pig`` (two players; a small winscore: the learner keys on observations).
    checkpoints : sequence of int
        Increasing episode counts at which the greedy policies are kept.
    rng : int, optional
        The environment's and the learners' seed.

    Returns
    -------
    LearningRun
        Tables of shape ``(2, goal, goal, goal)`` (one per seat; 0.5 where the learner has no
        preference, e.g. never visited).
    """
    from .openspiel import openspiel_rules, require_openspiel

    require_openspiel()
    rules, _ = openspiel_rules(game)
    check_referee_rules(rules, players=2)
    cps = _checkpoints(checkpoints)
    seed = _seed(rng)
    entries = 2 * cps.size * rules.goal**3
    check_memory(Estimate(f"Q-learning snapshots ({rules})", entries, 8 * entries + 10**6, "lower winscore"))

    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    np.random.seed(seed)  # noqa: NPY002 - the QLearner explores with the global one
    # the die's sampler seeded itself: Environment(game, seed=...) passes ``seed`` on as a game
    # setting, which a loaded game ignores (the runs were not reproducible)
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=2) for p in range(2)]
    g = rules.goal
    policies, done = [], 0
    for c in cps:
        for _ in range(int(c - done)):
            ts = env.reset()
            acted = set()
            while not ts.last():
                p = ts.observations["current_player"]
                out = agents[p].step(ts)
                acted.add(p)
                ts = env.step([out.action])
            for p in acted:
                agents[p].step(ts)
        done = int(c)
        tables = np.full((2, g, g, g), 0.5)
        for p in range(2):
            for key, qa in agents[p]._q_values.items():  # the learner's own table
                obs = np.array(json.loads(key)).reshape(3, g + 1)  # the learner keys on str(list)
                k, s0, s1 = (int(np.argmax(row)) for row in obs)
                own, opp = (s0, s1) if p == 0 else (s1, s0)
                if own + k >= g or max(own, opp) >= g:
                    continue
                r, h = qa.get(0, 0.0), qa.get(1, 0.0)
                tables[p, own, opp, k] = 1.0 if r > h else (0.0 if h > r else 0.5)
        idx = np.indices((g, g, g))
        tables[:, idx[0] + idx[2] >= g] = 0.0
        policies.append(tables)
    return LearningRun(cps, policies, "OpenSpiel tabular_qlearner (self-play)", rules)


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
    from .best_response import _best_response

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
