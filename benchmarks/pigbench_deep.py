"""PigBench's deep RL agent, a stored record: Stable-Baselines3's PPO on the Gymnasium
environment of sequential Pig, scored exactly while it trains.

Needs the optional extra ``bench`` (``pip install -e .[bench]``: Stable-Baselines3 and torch, in
a venv of its own; never in the default install or ``dev``). Writes
``benchmarks/records/pigbench_deep.json`` (versions, seeds, hyperparameters, load average, the
curve): ``python -m benchmarks.pigbench_deep [--steps N] [--task pig-50]``.

The agent: PPO (Schulman et al. 2017; Stable-Baselines3's implementation, Raffin et al. 2021),
an MLP policy on the observation ``[own, other, turn_total, mover]`` scaled to [0, 1], trained in
the environment ``pigtheory/SequentialPig-v0`` against the task's optimal policy, its seat drawn
at random each game (training against a fixed opponent, not self-play: what a Stable-Baselines3
user does). Every ``--every`` steps :class:`pigtheory.referee.ExactScoreCallback` reads the
network's action probabilities at every state in batches (the batched adapter) and logs the
exact exploitability of the policy played in both seats; beside it, the Monte Carlo estimate a
win-rate study would report at the last checkpoint.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).parent / "records" / "pigbench_deep.json"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--task", default="pig-50")
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--every", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)

    import gymnasium as gym
    import stable_baselines3
    import torch
    from stable_baselines3 import PPO

    import pigtheory.envs  # noqa: F401 - registers the environments
    from pigtheory import __version__
    from pigtheory.io import atomic_write
    from pigtheory.learning import monte_carlo_exploitability
    from pigtheory.referee import ExactScoreCallback, agent_table, task

    torch.set_num_threads(1)
    t = task(args.task)
    g = t.rules.goal

    class Scaled(gym.ObservationWrapper):
        """Observations scaled to [0, 1] (the network's input)."""

        def __init__(self, env):
            super().__init__(env)
            self.observation_space = gym.spaces.Box(0.0, 1.0, (4,), dtype=np.float32)

        def observation(self, obs):
            return (np.asarray(obs, dtype=np.float32) / np.array([g, g, g, 1], dtype=np.float32)).astype(
                np.float32
            )

    env = Scaled(gym.make("pigtheory/SequentialPig-v0", opponent="optimal", rules=t.rules, seat=None))
    env.reset(seed=args.seed)
    hyper = dict(n_steps=2048, batch_size=256, learning_rate=3e-4, gamma=1.0, ent_coef=0.0)
    model = PPO("MlpPolicy", env, seed=args.seed, verbose=0, device="cpu", **hyper)

    def probs(obs: np.ndarray) -> np.ndarray:
        x = torch.as_tensor(obs / np.array([g, g, g, 1]), dtype=torch.float32)
        with torch.no_grad():
            return model.policy.get_distribution(x).distribution.probs.numpy()

    walls: list[float] = []

    def to_policy(_model):
        walls.append(time.perf_counter() - t0)  # the run so far, earlier scorings included
        return agent_table(probs, t)

    cb = ExactScoreCallback(t, every=args.every, model=model, to_policy=to_policy)
    load_start = os.getloadavg()
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=cb.as_sb3())
    curve = [
        dict(x=int(h["timesteps"]), exact=float(h["score"]), wall_s=w)
        for h, w in zip(cb.history, walls, strict=True)
    ]
    wall = time.perf_counter() - t0
    table = agent_table(probs, t)
    est, se = monte_carlo_exploitability(table, rules=t.rules, games=2000, rng=args.seed)
    record = dict(
        what="PigBench deep RL agent (benchmarks/pigbench_deep.py): Stable-Baselines3 PPO",
        task=t.name,
        agent="sb3-ppo (vs optimal opponent)",
        seed=args.seed,
        steps=args.steps,
        every=args.every,
        hyperparameters=hyper,
        versions=dict(
            pigtheory=__version__,
            python=sys.version.split()[0],
            numpy=np.__version__,
            torch=torch.__version__,
            stable_baselines3=stable_baselines3.__version__,
            gymnasium=gym.__version__,
            machine=platform.machine(),
            cpus=os.cpu_count(),
        ),
        load_average_1_5_15_min=dict(start=list(load_start), end=list(os.getloadavg())),
        x_unit="environment steps (agent decisions)",
        curve=curve,
        final=dict(exact=curve[-1]["exact"] if curve else None, mc=est, mc_se=se),
        total_wall_s=wall,
    )
    text = json.dumps(record, indent=1) + "\n"
    atomic_write(OUT, lambda tmp: Path(tmp).write_text(text))
    for row in curve:
        print(f"{row['x']:>9} steps  exact exploitability {row['exact']:.4e}")
    print(f"final: MC estimate {est:+.4f} +- {se:.4f}; {wall:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
