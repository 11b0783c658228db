"""OpenSpiel's own learners on its ``pig``, read back as pigtheory tables for the referee.

OpenSpiel is optional (``pip install pigtheory[rl]``): it is imported inside the functions.

References
----------
M. Lanctot et al., "OpenSpiel: a framework for reinforcement learning in games",
arXiv:1908.09453 (2019); C. J. C. H. Watkins, *Learning from delayed rewards* (1989).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..games.policy_tables import check_referee_rules
from ..guard import Estimate, check_memory
from .run import LearningRun, _checkpoints, _seed

__all__ = ["openspiel_q_learning", "openspiel_mcts"]


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
    from ..referee.openspiel import openspiel_rules, require_openspiel

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


def openspiel_mcts(
    game: Any,
    *,
    simulations: int = 100,
    rollouts: int = 1,
    uct_c: float = 2.0,
    rng: Any = None,
) -> LearningRun:
    """OpenSpiel's ``MCTSBot`` (UCT with random rollouts) read at every state of ``pig``.

    The bot searches afresh at each canonical state (:func:`~pigtheory.referee.openspiel.from_openspiel_policy`
    builds every state once) and plays the action of its most visited child; the table of those
    choices is the policy scored. Affordable at small goals only: one search of ``simulations``
    playouts per state, ``players * goal^(players + 1) / 2`` states.

    Parameters
    ----------
    game : pyspiel.Game
        OpenSpiel's ``pig``.
    simulations : int
        Playouts per search (1..10**6).
    rollouts : int
        Random rollouts per leaf evaluation (1..1000).
    uct_c : float
        The exploration constant of UCT (> 0).
    rng : int or numpy.random.Generator, optional

    Returns
    -------
    LearningRun
        One snapshot (``episodes`` = the simulations per state): the table of shape
        ``(players,) + (goal,) * (players + 1)`` of P(roll) by seat.

    References
    ----------
    L. Kocsis & C. Szepesvari, "Bandit based Monte-Carlo planning", ECML 2006 (UCT);
    M. Lanctot et al., "OpenSpiel", arXiv:1908.09453 (2019) (``MCTSBot``).
    """
    from ..referee.openspiel import from_openspiel_policy, openspiel_rules, require_openspiel
    from ..validation import check_int

    require_openspiel()
    rules, _ = openspiel_rules(game)
    simulations = check_int("simulations", simulations, low=1, high=10**6)
    rollouts = check_int("rollouts", rollouts, low=1, high=1000)
    ok = isinstance(uct_c, (int, float)) and not isinstance(uct_c, bool) and 0 < uct_c < float("inf")
    if not ok:
        raise ValueError(f"uct_c must be a positive number, got {uct_c!r:.80}")
    states = rules.players * rules.goal ** (rules.players + 1)
    check_memory(
        Estimate(f"MCTS read at every state ({rules})", states, 8 * states + 10**6, "lower winscore")
    )
    from open_spiel.python.algorithms import mcts

    seed = _seed(rng)
    state_rng = np.random.RandomState(seed)  # noqa: NPY002 - OpenSpiel's bots take a RandomState
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=state_rng)
    bot = mcts.MCTSBot(game, uct_c, simulations, evaluator, solve=False, random_state=state_rng)

    class _Searched:
        def action_probabilities(self, state: Any, player_id: Any = None) -> dict[int, float]:
            return {int(a): float(p) for a, p in bot.step_with_policy(state)[0]}

    table = from_openspiel_policy(game, _Searched())
    return LearningRun(
        np.array([simulations], dtype=np.int64),
        [table],
        f"OpenSpiel MCTSBot ({simulations} simulations)",
        rules,
    )
