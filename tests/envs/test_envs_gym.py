"""The Gymnasium environments: Gymnasium's own checker, seeds, and Monte Carlo through each
environment against pigtheory's exact win probabilities (within 4 standard errors)."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import pigtheory.envs  # noqa: E402,F401
from pigtheory import Rules, StoppingRule, hold_at, save, sequential, simultaneous  # noqa: E402
from pigtheory.envs.gym_sequential import HOLD, ROLL, SequentialPigEnv  # noqa: E402
from pigtheory.envs.gym_simultaneous import SimultaneousPigEnv  # noqa: E402
from pigtheory.envs.gym_vector import SequentialPigVectorEnv  # noqa: E402
from pigtheory.envs.registration import ENV_IDS  # noqa: E402

CONFIGS = [
    ("pigtheory/SequentialPig-v0", {}),
    ("pigtheory/SequentialPig-v0", {"opponent": "optimal", "rules": Rules(goal=15), "seat": None}),
    (
        "pigtheory/SequentialPig-v0",
        {"opponent": lambda i, j, k: k < 2, "rules": Rules.piglet(goal=3), "seat": 1},
    ),
    (
        "pigtheory/SequentialPig-v0",
        {"rules": Rules.piglet(goal=4), "hold_at_zero": True, "render_mode": "ansi"},
    ),
    ("pigtheory/SimultaneousPig-v0", {}),
    ("pigtheory/SimultaneousPig-v0", {"rules": Rules(goal=12, players=3), "opponents": [3, 5]}),
    ("pigtheory/SimultaneousPigRoll-v0", {"rules": Rules(goal=10), "render_mode": "ansi"}),
]


@pytest.mark.parametrize("env_id, kwargs", CONFIGS)
def test_check_env_passes_without_warnings(env_id, kwargs):
    env = gym.make(env_id, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=False)
        # the passive checker (gymnasium.make's wrapper) on a whole episode
        obs, info = env.reset(seed=3)
        done = False
        while not done:
            action = env.action_space.sample(info["action_mask"]) if info["action_mask"].any() else 1
            obs, reward, term, trunc, info = env.step(action)
            assert env.observation_space.contains(obs)
            done = term or trunc
    assert set(ENV_IDS) <= set(gym.envs.registry)


def _trajectory(env, seed, episodes=5, policy=None):
    out = []
    obs, info = env.reset(seed=seed)
    for _ in range(episodes):
        done = False
        while not done:
            a = policy(obs) if policy else (ROLL if obs[2] < 4 else HOLD)
            obs, r, term, trunc, info = env.step(a)
            out.append((tuple(obs.tolist()), r, info["state"]))
            done = term or trunc
        obs, info = env.reset()
    return out


def test_seeds_reproduce_episodes():
    make = lambda: SequentialPigEnv(5, rules=Rules(goal=20), seat=None)  # noqa: E731
    assert _trajectory(make(), 7) == _trajectory(make(), 7)
    assert _trajectory(make(), 7) != _trajectory(make(), 8)
    sim = lambda: SimultaneousPigEnv(4, rules=Rules(goal=20, players=3))  # noqa: E731
    pol = lambda obs: 5  # noqa: E731
    a = [(o, r) for o, r, _ in _trajectory(sim(), 1, policy=pol)]
    assert a == [(o, r) for o, r, _ in _trajectory(sim(), 1, policy=pol)]
    venv = lambda: SequentialPigVectorEnv(8, 5, rules=Rules(goal=20), seat=None)  # noqa: E731
    runs = []
    for _ in range(2):
        env = venv()
        obs, _ = env.reset(seed=4)
        trace = [obs]
        for _ in range(50):
            obs, *_ = env.step((obs[:, 2] < 6).astype(np.int64))
            trace.append(obs)
        runs.append(np.stack(trace))
    assert np.array_equal(*runs)


def test_opponent_from_a_policy_file_or_callable_plays_the_same_games(tmp_path):
    rules = Rules(goal=20)
    path = save(hold_at(5), tmp_path / "hold5.json")
    same = [
        SequentialPigEnv(o, rules=rules)
        for o in (5, hold_at(5), str(path), lambda i, j, k: k < min(5, 20 - i))
    ]
    runs = [_trajectory(env, 11) for env in same]
    assert all(r == runs[0] for r in runs)
    assert _trajectory(SequentialPigEnv(6, rules=rules), 11) != runs[0]


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="seat"):
        SequentialPigEnv(seat=2)
    with pytest.raises(ValueError, match="players"):
        SequentialPigEnv(rules=Rules(players=3))
    with pytest.raises(ValueError, match="dice"):
        SequentialPigEnv(rules=Rules(dice=2))
    with pytest.raises(ValueError, match="opponent"):
        SequentialPigEnv("best")
    with pytest.raises(ValueError, match="opponents"):
        SimultaneousPigEnv([2, 3], rules=Rules(goal=5))
    with pytest.raises(ValueError, match="action"):
        SimultaneousPigEnv(action="dice")
    env = SequentialPigEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(2)


def _mean_and_se(x):
    x = np.asarray(x, dtype=float)
    return x.mean(), x.std(ddof=1) / np.sqrt(x.size)


def _play(env, policy, episodes, seed):
    rewards = []
    obs, info = env.reset(seed=seed)
    for _ in range(episodes):
        total, done = 0.0, False
        while not done:
            obs, r, term, trunc, info = env.step(policy(obs, info))
            total += r
            done = term or trunc
        rewards.append(total)
        obs, info = env.reset()
    return _mean_and_se(rewards)


@pytest.mark.parametrize("seat", [0, 1, None])
def test_sequential_monte_carlo_agrees_with_compare(seat):
    rules = Rules.piglet(goal=6)
    optimal = sequential.solve(rules=rules)
    exact = sequential.compare(optimal, hold_at(2), rules=rules)
    target = {0: exact.first, 1: exact.second, None: exact.average}[seat]
    env = SequentialPigEnv(2, rules=rules, seat=seat)
    mean, se = _play(env, lambda obs, info: int(optimal.policy[info["state"]]), 6000, seed=seat or 5)
    assert abs(mean - target) < 4 * se, (mean, se, target)


def test_sequential_against_optimal_is_the_solved_value():
    # the optimal agent against the optimal opponent, first to move, wins with value[0, 0, 0]
    rules = Rules(goal=12)
    optimal = sequential.solve(rules=rules)
    env = SequentialPigEnv("optimal", rules=rules)
    mean, se = _play(env, lambda obs, info: int(optimal.policy[info["state"]]), 6000, seed=2)
    assert abs(mean - optimal.value[0, 0, 0]) < 4 * se


def test_vector_monte_carlo_agrees_with_compare():
    rules = Rules(goal=30)
    exact = sequential.compare(hold_at(8), hold_at(6), rules=rules).average
    env = SequentialPigVectorEnv(512, 6, rules=rules, seat=None)
    obs, info = env.reset(seed=1)
    wins = games = 0
    while games < 40_000:
        k_max = np.minimum(8, rules.goal - obs[:, 0])
        obs, r, term, trunc, info = env.step((obs[:, 2] < k_max).astype(np.int64))
        wins += r.sum()
        games += term.sum()
    p = wins / games
    assert abs(p - exact) < 4 * np.sqrt(p * (1 - p) / games), (p, exact)


@pytest.mark.parametrize(
    "rules, mine, theirs",
    [(Rules(goal=10), 4, [3]), (Rules(goal=8, players=3), 3, [2, 4]), (Rules.piglet(goal=5), 2, [3])],
)
def test_simultaneous_monte_carlo_agrees_with_win_probability(rules, mine, theirs):
    exact = simultaneous.win_probability(hold_at(mine), [hold_at(k) for k in theirs], rules=rules)
    target = exact[(0,) * rules.players]
    env = SimultaneousPigEnv([hold_at(k) for k in theirs], rules=rules)
    mean, se = _play(env, lambda obs, info: mine, 8000, seed=3)
    assert abs(mean - target) < 4 * se, (mean, se, target)
    # the same player, one roll-or-hold decision per roll
    env = SimultaneousPigEnv([hold_at(k) for k in theirs], rules=rules, action="roll")
    mean, se = _play(env, lambda obs, info: ROLL if obs[-1] < mine else HOLD, 8000, seed=4)
    assert abs(mean - target) < 4 * se, (mean, se, target)


def test_simultaneous_stopping_rule_and_mixed_opponents():
    rules = Rules(goal=8)
    rule = StoppingRule(np.broadcast_to(np.arange(8) % 3 != 2, (8, 8, 8)))  # holds at t = 2, 5
    mixed = simultaneous.equilibrium(rules=rules).policy
    for opp in (rule, mixed):
        target = simultaneous.win_probability(hold_at(3), opp, rules=rules)[0, 0]
        mean, se = _play(SimultaneousPigEnv(opp, rules=rules), lambda obs, info: 3, 8000, seed=6)
        assert abs(mean - target) < 4 * se, (str(opp), mean, se, target)


def test_pigtheory_imports_without_the_rl_extra():
    code = (
        "import sys\n"
        "for m in ('gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel'): sys.modules[m] = None\n"
        "import pigtheory, pigtheory.simultaneous, pigtheory.sequential, pigtheory.simulate\n"
        "try:\n"
        "    import pigtheory.envs\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pigtheory[rl]" in out.stdout and "gymnasium" in out.stdout


def test_agent_tables_read_the_agent_at_every_canonical_state():
    from pigtheory.envs.agents import sequential_agent_table, simultaneous_agent_table

    rules = Rules(goal=9)
    q = np.random.default_rng(0).random((10, 10, 9, 2))
    table = sequential_agent_table(q, rules=rules)
    i, _, k = np.indices((9, 9, 9))
    expect = ((q[:9, :9, :9, 1] > q[:9, :9, :9, 0]) | (k == 0)) & (i + k < 9)
    assert np.array_equal(table, expect)
    # the callable reading the same Q-table gives the same table, and compare scores it
    same = sequential_agent_table(lambda obs: int(q[tuple(obs[:3])][1] > q[tuple(obs[:3])][0]), rules=rules)
    assert np.array_equal(same, table)
    assert (
        sequential.compare(table, hold_at(3), rules=rules).first
        == sequential.compare(same, hold_at(3), rules=rules).first
    )
    with pytest.raises(ValueError, match="agent"):
        sequential_agent_table(q[:5], rules=rules)
    # a simultaneous agent holding at 3 everywhere is hold_at(3)
    rules3 = Rules(goal=7, players=3)
    agent = simultaneous_agent_table(lambda obs: 3, rules=rules3)
    ours = simultaneous.win_probability(agent, [hold_at(2), hold_at(4)], rules=rules3)
    theirs = simultaneous.win_probability(hold_at(3), [hold_at(2), hold_at(4)], rules=rules3)
    assert np.array_equal(ours, theirs)
    with pytest.raises(ValueError, match="threshold"):
        simultaneous_agent_table(lambda obs: 0, rules=rules3)


def test_stochastic_callable_opponent_scalar_and_vector_agree():
    # P(roll) = 1/2 once the turn total is 1 or more (the callable convention of the referee):
    # the scalar environment and the vector one are two implementations of the same game
    rules = Rules.piglet(goal=5)

    def opponent(i, j, k):
        return 1.0 if k == 0 else 0.5

    mean, se = _play(SequentialPigEnv(opponent, rules=rules), lambda obs, info: int(obs[2] < 2), 8000, seed=9)
    env = SequentialPigVectorEnv(256, opponent, rules=rules)
    obs, _ = env.reset(seed=9)
    wins = games = 0
    while games < 20_000:
        obs, r, term, trunc, _ = env.step((obs[:, 2] < 2).astype(np.int64))
        wins, games = wins + r.sum(), games + term.sum()
    p = wins / games
    se_v = np.sqrt(p * (1 - p) / games)
    assert abs(mean - p) < 4 * np.hypot(se, se_v), (mean, p)
