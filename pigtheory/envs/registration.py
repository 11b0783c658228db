"""The Gymnasium ids of the environments, registered when :mod:`pigtheory.envs` is imported.

Examples
--------
>>> import gymnasium as gym
>>> import pigtheory.envs
>>> env = gym.make("pigtheory/SequentialPig-v0", opponent=20)
>>> env.unwrapped.rules.goal
100
"""

from __future__ import annotations

from ._support import missing

try:
    import gymnasium as gym
except ImportError as err:  # pragma: no cover - the rl extra is missing
    raise ImportError(missing("gymnasium")) from err

__all__ = ["ENV_IDS", "register_envs"]

ENV_IDS = (
    "pigtheory/SequentialPig-v0",
    "pigtheory/SimultaneousPig-v0",
    "pigtheory/SimultaneousPigRoll-v0",
)
"""The registered Gymnasium ids."""


def register_envs() -> None:
    """Register :data:`ENV_IDS` with Gymnasium (again: nothing happens)."""
    registered = gym.envs.registry
    if ENV_IDS[0] not in registered:
        gym.register(
            ENV_IDS[0],
            entry_point="pigtheory.envs.gym_sequential:SequentialPigEnv",
            vector_entry_point="pigtheory.envs.gym_vector:SequentialPigVectorEnv",
        )
    if ENV_IDS[1] not in registered:
        gym.register(ENV_IDS[1], entry_point="pigtheory.envs.gym_simultaneous:SimultaneousPigEnv")
    if ENV_IDS[2] not in registered:
        gym.register(
            ENV_IDS[2],
            entry_point="pigtheory.envs.gym_simultaneous:SimultaneousPigEnv",
            kwargs={"action": "roll"},
        )
