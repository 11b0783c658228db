"""The PettingZoo environments: PettingZoo's own API and seed tests, and Monte Carlo through
them against pigtheory's exact win probabilities (within 4 standard errors)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402

from pigtheory import Rules, hold_at, sequential, simultaneous  # noqa: E402
from pigtheory.envs import pettingzoo_sequential as seq  # noqa: E402
from pigtheory.envs import pettingzoo_simultaneous as sim  # noqa: E402


def _strict():
    """Every warning is an error, except PettingZoo's note that an observation is all zeros
    (the start of a game is: all scores and the turn total are 0)."""
    ctx = warnings.catch_warnings()
    ctx.__enter__()
    warnings.simplefilter("error")
    warnings.filterwarnings("ignore", "Observation numpy array is all zeros")
    return ctx


SEQ = [
    {},
    {"rules": Rules(goal=12, players=10), "hold_at_zero": True},
    {"rules": Rules.piglet(goal=4, players=3), "max_steps": 9},
]
SIM = [
    {},
    {"rules": Rules(goal=10, players=4), "action": "roll"},
    {"rules": Rules.piglet(goal=5, players=3), "max_turns": 3},
]


@pytest.mark.parametrize("kwargs", SEQ)
def test_aec_sequential_passes_api_and_seed_tests(kwargs):
    ctx = _strict()
    try:
        api_test(seq.env(**kwargs), num_cycles=200)
        api_test(seq.raw_env(**kwargs), num_cycles=200)
        seed_test(lambda: seq.env(**kwargs), num_cycles=200)
    finally:
        ctx.__exit__(None, None, None)


@pytest.mark.parametrize("kwargs", SIM)
def test_parallel_simultaneous_passes_api_and_seed_tests(kwargs):
    ctx = _strict()
    try:
        parallel_api_test(sim.parallel_env(**kwargs), num_cycles=200)
        parallel_seed_test(lambda: sim.parallel_env(**kwargs), num_cycles=200)
        api_test(sim.env(**kwargs), num_cycles=200)
        seed_test(lambda: sim.env(**kwargs), num_cycles=200)
    finally:
        ctx.__exit__(None, None, None)


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="players"):
        seq.raw_env(rules=Rules(goal=10, players=11))
    with pytest.raises(ValueError, match="max_steps"):
        seq.raw_env(max_steps=0)
    with pytest.raises(ValueError, match="action"):
        sim.parallel_env(action="both")


def _aec_wins(e, holds, games, seed):
    """Win shares of each seat, every seat playing "hold at holds[p]"."""
    n = len(holds)
    wins = np.zeros((games, n))
    e.reset(seed=seed)
    for g in range(games):
        if g:
            e.reset()
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            p = int(agent.rsplit("_", 1)[1])
            wins[g, p] += reward
            if term or trunc:
                e.step(None)
                continue
            e.step(int(obs[n] < min(holds[p], e.unwrapped.rules.goal - obs[0])))
    return wins


@pytest.mark.parametrize("hold_at_zero", [False, True])
def test_aec_monte_carlo_agrees_with_compare(hold_at_zero):
    rules = Rules(goal=15)
    exact = sequential.compare(hold_at(5), hold_at(3), rules=rules).first
    wins = _aec_wins(seq.raw_env(rules=rules, hold_at_zero=hold_at_zero), (5, 3), 6000, seed=1)
    assert np.allclose(wins.sum(axis=1), 1)
    mean, se = wins[:, 0].mean(), wins[:, 0].std(ddof=1) / np.sqrt(len(wins))
    assert abs(mean - exact) < 4 * se, (mean, se, exact)


@pytest.mark.parametrize("action", ["threshold", "roll"])
@pytest.mark.parametrize("rules, holds", [(Rules(goal=10), (4, 2)), (Rules(goal=8, players=3), (3, 2, 5))])
def test_parallel_monte_carlo_agrees_with_win_probabilities(rules, holds, action):
    exact = simultaneous.win_probabilities([hold_at(k) for k in holds], rules=rules)[
        (slice(None),) + (0,) * rules.players
    ]
    e = sim.parallel_env(rules=rules, action=action)
    games = 6000
    wins = np.zeros((games, rules.players))
    obs, infos = e.reset(seed=2)
    for g in range(games):
        if g:
            obs, infos = e.reset()
        while e.agents:
            if action == "threshold":
                acts = {a: holds[p] for p, a in enumerate(e.possible_agents)}
            else:
                acts = {a: int(obs[a][-1] < holds[p]) for p, a in enumerate(e.possible_agents)}
            obs, rew, term, trunc, infos = e.step(acts)
            wins[g] += [rew[a] for a in e.possible_agents]
    assert np.allclose(wins.sum(axis=1), 1)
    mean, se = wins.mean(axis=0), wins.std(axis=0, ddof=1) / np.sqrt(games)
    assert np.all(np.abs(mean - exact) < 4 * se), (mean, se, exact)
