"""score(), the batched agent adapter and the training callback."""

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory.learning import q_learning
from pigtheory.referee import TASKS, ExactScoreCallback, agent_table, exploitability, score
from pigtheory.referee.score import agent_observations


def test_score_self_play_fast_path_equals_exploitability():
    rng = np.random.default_rng(0)
    for name in ("pig-20", "piglet"):
        t = TASKS[name]
        g = t.rules.goal
        for table in (rng.random((g, g, g)), rng.random((g, g, g)) < 0.5, hold_at(4)):
            assert score(table, t) == pytest.approx(
                exploitability(table, rules=t.rules).exploitability, abs=1e-14
            )
    t = TASKS["pig-20"]
    two = [rng.random((20, 20, 20)), hold_at(5)]
    assert score(two, t) == exploitability(two, rules=t.rules).exploitability
    run = q_learning(rules=t.rules, checkpoints=(50, 100), rng=0)
    assert score(run, t) == score(run.policies[-1], t)


class FakeNetwork:
    """A batched 'network': P(roll) a smooth function of the observation; counts its calls."""

    def __init__(self):
        self.calls = 0
        self.rows = 0

    def __call__(self, obs):
        assert obs.ndim == 2 and obs.dtype == np.int64
        self.calls += 1
        self.rows += obs.shape[0]
        p = 1.0 / (1.0 + np.exp((obs[:, 2] - 6.0 - 0.1 * (obs[:, 1] - obs[:, 0])) / 2.0))
        return np.stack([1.0 - p, p], axis=1)


def test_batched_adapter_counts_calls_and_equals_per_state_querying():
    t = TASKS["pig-20"]
    net = FakeNetwork()
    table = agent_table(net, t, batch_size=1000)
    obs, _ = agent_observations(t)
    assert net.calls == -(-obs.shape[0] // 1000) and net.rows == obs.shape[0]
    one = FakeNetwork()
    for i in range(20):
        for j in range(20):
            for k in range(20 - i):
                want = 1.0 if k == 0 else one(np.array([[i, j, k, 0]], dtype=np.int64))[0, 1]
                assert table[i, j, k] == want
    i, _, k = np.indices(table.shape)
    assert np.all(table[i + k >= 20] == 0)
    assert score(net, t, agent=True) == pytest.approx(
        exploitability(table, rules=t.rules).exploitability, abs=1e-15
    )


class FakeModel:
    """Stable-Baselines3's surface: predict(obs, deterministic) -> (actions, None), a logger."""

    def __init__(self):
        self.num_timesteps = 0
        self.logged = []
        self.logger = self

    def record(self, key, value):
        self.logged.append((key, value))

    def predict(self, obs, deterministic=True):
        return (obs[:, 2] < 5 + self.num_timesteps // 10).astype(np.int64), None


def test_callback_logs_exact_scores_every_n_steps():
    t = TASKS["piglet"]
    model = FakeModel()
    cb = ExactScoreCallback(t, every=10)
    cb.init_callback(model)
    for step in range(25):
        model.num_timesteps = step + 1
        assert cb.on_step() is True
    assert cb.n_calls == 25 and [h["step"] for h in cb.history] == [10, 20]
    # at step 10 the model holds at 6, at step 20 at 7 (its predict reads num_timesteps)
    want = [
        exploitability(hold_at(6), rules=t.rules).exploitability,
        exploitability(hold_at(7), rules=t.rules).exploitability,
    ]
    assert [h["score"] for h in cb.history] == pytest.approx(want, abs=1e-14)
    assert [v for _, v in model.logged] == [h["score"] for h in cb.history]
    assert model.logged[0][0] == "pigbench/exploitability"


def test_adapter_refusals():
    with pytest.raises(ValueError, match="sequential agents"):
        agent_table(lambda o: o[:, 0] * 0, "simultaneous-50")
    with pytest.raises(ValueError, match="batch_size"):
        agent_table(lambda o: o[:, 0] * 0, "piglet", batch_size=0)
    with pytest.raises(ValueError, match="shape"):
        agent_table(lambda o: np.zeros(3), "piglet")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        agent_table(lambda o: o[:, 0] + 2.0, "piglet")
    assert Rules.piglet() == TASKS["piglet"].rules
