"""Environment step throughput, single core: pigtheory's Gymnasium, PettingZoo and OpenSpiel
environments against OpenSpiel's own ``pig`` (C++, stepped from Python), in one process.

Target (issue 22): >= 100,000 steps/s for the Gymnasium sequential environment against a table
opponent (the vector form if that is what it takes). PettingZoo has no Pig of its own; its row is
pigtheory's AEC environment. Every environment plays goal 100 with the same agent, "roll with
probability 0.8, else hold" from pre-drawn coins (no observation parsing in the loop), and the
opponent of the Gymnasium environments is the optimal roll table. A "step" is one call of
``step`` (``apply_action`` for OpenSpiel, whose die rolls are chance steps of their own).
"decisions/s" counts the decisions the loop makes: for OpenSpiel and PettingZoo those of both
players; for the Gymnasium environments the agent's only, the opponent's whole turns being
played inside ``step`` (so the Gymnasium rows undercount the work done). The ratio is
decisions/s against OpenSpiel's.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pigtheory import Rules  # noqa: E402

SECONDS = 1.5


def _coins(n: int, seed: int = 0) -> list[int]:
    return (np.random.default_rng(seed).random(n) < 0.8).astype(int).tolist()


def gym_scalar(opponent, wrapped: bool) -> tuple[float, float]:
    """(steps/s, decisions/s) of one SequentialPigEnv."""
    import gymnasium as gym

    import pigtheory.envs  # noqa: F401

    env = gym.make("pigtheory/SequentialPig-v0", opponent=opponent) if wrapped else None
    if env is None:
        from pigtheory.envs.gym_sequential import SequentialPigEnv

        env = SequentialPigEnv(opponent)
    coins = _coins(1 << 20)
    env.reset(seed=0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < SECONDS:
        for _ in range(10_000):
            obs, r, term, trunc, info = env.step(coins[steps & 0xFFFFF])
            steps += 1
            if term:
                env.reset()
    dt = time.perf_counter() - t0
    return steps / dt, steps / dt


def gym_vector(opponent, num_envs: int) -> tuple[float, float]:
    """(steps/s, agent decisions/s) of SequentialPigVectorEnv with ``num_envs`` games."""
    import gymnasium as gym

    import pigtheory.envs  # noqa: F401

    env = gym.make_vec(
        "pigtheory/SequentialPig-v0",
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        opponent=opponent,
    )
    rng = np.random.default_rng(0)
    acts = (rng.random((64, num_envs)) < 0.8).astype(np.int64)
    env.reset(seed=0)
    calls = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < SECONDS:
        for a in acts:
            env.step(a)
            calls += 1
    dt = time.perf_counter() - t0
    return calls * num_envs / dt, calls * num_envs / dt


def pettingzoo_aec(wrapped: bool) -> tuple[float, float]:
    """(steps/s, decisions/s) of the AEC environment, two players."""
    from pigtheory.envs import pettingzoo_sequential as seq

    env = seq.env() if wrapped else seq.raw_env()
    coins = _coins(1 << 20)
    env.reset(seed=0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < SECONDS:
        for _ in range(10_000):
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                if not env.agents:
                    env.reset()
                continue
            env.step(coins[steps & 0xFFFFF])
            steps += 1
    dt = time.perf_counter() - t0
    return steps / dt, steps / dt


def openspiel_pig() -> tuple[float, float]:
    """(apply_action calls/s, decisions/s) of ``pyspiel.load_game("pig")``; chance outcomes are
    the die's faces, drawn uniformly from pre-drawn numbers."""
    import pyspiel

    game = pyspiel.load_game("pig")
    coins = [1 - c for c in _coins(1 << 20)]  # pig: 0 rolls, 1 stops
    faces = np.random.default_rng(1).integers(0, 6, 1 << 20).tolist()
    state = game.new_initial_state()
    calls = decisions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < SECONDS:
        for _ in range(10_000):
            if state.is_terminal():
                state = game.new_initial_state()
            if state.is_chance_node():
                state.apply_action(faces[calls & 0xFFFFF])
            else:
                state.apply_action(coins[decisions & 0xFFFFF])
                decisions += 1
            calls += 1
    dt = time.perf_counter() - t0
    return calls / dt, decisions / dt


def main() -> None:
    from pigtheory.sequential import roll_table, solve

    table = roll_table(solve(rules=Rules()), Rules())
    rows = [
        ("Gymnasium SequentialPigEnv (raw)", gym_scalar(table, wrapped=False)),
        ("Gymnasium SequentialPig-v0 (gymnasium.make)", gym_scalar(table, wrapped=True)),
        ("Gymnasium vector, 256 games", gym_vector(table, 256)),
        ("Gymnasium vector, 4096 games", gym_vector(table, 4096)),
        ("PettingZoo AEC (raw_env)", pettingzoo_aec(wrapped=False)),
        ("PettingZoo AEC (env, wrapped)", pettingzoo_aec(wrapped=True)),
        ("OpenSpiel pig (C++)", openspiel_pig()),
    ]
    base = rows[-1][1][1]
    print(f"{'environment':46s} {'steps/s':>12s} {'decisions/s':>12s} {'vs OpenSpiel':>13s}")
    for name, (steps, decisions) in rows:
        print(f"{name:46s} {steps:12,.0f} {decisions:12,.0f} {decisions / base:12.2f}x")
    best = max(r[1][0] for r in rows[:4])
    print(
        f"target: >= 100,000 steps/s for the Gymnasium sequential environment: {best:,.0f} ({'met' if best >= 1e5 else 'NOT met'})"
    )


if __name__ == "__main__":
    main()
