"""Benchmark: PigBench's scores at goal 100, two players, sequential (issue 39's targets).

Prints, in one process (medians of wall-clock time, kernels compiled before the clock):

* a full exact score (:func:`pigtheory.referee.score`: the exploitability of a tabular policy
  in self-play, one evaluation and one best-response solve) of a stochastic table (target
  <= 50 ms);
* a neural policy (a two-layer NumPy network, 64 hidden units) through the batched adapter
  (:func:`pigtheory.referee.agent_table`, batches of 65,536 observations) and scored, against the
  network's own forward passes over the same observations: the ratio (target <= 2).
"""

from __future__ import annotations

import numpy as np

from benchmarks._timing import median_time
from pigtheory.referee import agent_table, score
from pigtheory.referee.score import agent_observations


class Mlp:
    """A small batched network: observations -> (hold, roll) probabilities."""

    def __init__(self, seed: int = 0, hidden: int = 64) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = rng.normal(0, 0.1, (4, hidden))
        self.b1 = rng.normal(0, 0.1, hidden)
        self.w2 = rng.normal(0, 0.1, (hidden, 2))

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        h = np.tanh((obs / 100.0) @ self.w1 + self.b1)
        z = h @ self.w2
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)


def main(argv: list[str] | None = None) -> None:
    rng = np.random.default_rng(0)
    table = rng.random((100, 100, 100))
    score(table, "pig-100")  # compile
    t_tab = median_time(lambda: score(table, "pig-100"), 9)
    print(f"score of a tabular policy (goal 100, self-play): {1e3 * t_tab:.1f} ms (target <= 50 ms)")
    net = Mlp()
    obs, _ = agent_observations("pig-100")
    batch = 1 << 16
    t_fwd = median_time(lambda: [net(obs[lo : lo + batch]) for lo in range(0, obs.shape[0], batch)], 7)
    t_read = median_time(lambda: agent_table(net, "pig-100", batch_size=batch), 7)
    t_all = median_time(lambda: score(net, "pig-100", agent=True, batch_size=batch), 7)
    print(
        f"neural policy ({obs.shape[0]} states): forward passes {1e3 * t_fwd:.1f} ms, adapter {1e3 * t_read:.1f} ms "
        f"(ratio {t_read / t_fwd:.2f}, target <= 2), adapter + score {1e3 * t_all:.1f} ms"
    )


if __name__ == "__main__":
    main()
