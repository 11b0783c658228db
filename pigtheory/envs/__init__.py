"""Learning environments for Pig: Gymnasium, PettingZoo and OpenSpiel (the ``rl`` extra).

Importing :mod:`pigtheory.envs` registers the Gymnasium ids below (it needs ``gymnasium``:
``pip install 'pigtheory[rl]'``). The PettingZoo and OpenSpiel modules are imported when used.

- ``"pigtheory/SequentialPig-v0"``: :class:`~pigtheory.envs.gym_sequential.SequentialPigEnv`,
  two-player sequential Pig against a fixed opponent; its vector form
  :class:`~pigtheory.envs.gym_vector.SequentialPigVectorEnv` through ``gymnasium.make_vec``.
- ``"pigtheory/SimultaneousPig-v0"``: :class:`~pigtheory.envs.gym_simultaneous.SimultaneousPigEnv`,
  simultaneous Pig against fixed opponents, one action per turn (hold at k).
- ``"pigtheory/SimultaneousPigRoll-v0"``: the same, one roll-or-hold action per roll.
- :mod:`pigtheory.envs.pettingzoo_sequential`: AEC n-player sequential Pig, ``env()``,
  ``raw_env()``.
- :mod:`pigtheory.envs.pettingzoo_simultaneous`: parallel simultaneous Pig, ``parallel_env()``,
  ``env()``, ``raw_env()``.
- :mod:`pigtheory.envs.openspiel_game`: ``"pigtheory_simultaneous_pig"`` for
  ``pyspiel.load_game``.
- :mod:`pigtheory.envs.agents`: an agent's table or callable as a pigtheory policy, read at every
  canonical state, for the exact solvers to score.

Every observation is Markov and relative to its observer: own score first, then the others' in
turn order, then the turn total (and whose move it is, in sequential play); every ``info`` has an
``"action_mask"`` and the canonical state pigtheory's tables are indexed by (``"state"``).
Rewards are win shares (1 for a win, 1/m for an m-way tie in simultaneous play, 0 otherwise), so
expected returns are the win probabilities pigtheory computes exactly.
"""

from __future__ import annotations

import importlib
from typing import Any

from .registration import ENV_IDS, register_envs

__all__ = ["ENV_IDS", "register_envs"]

register_envs()


def __getattr__(name: str) -> Any:
    if name in (
        "agents",
        "gym_sequential",
        "gym_simultaneous",
        "gym_vector",
        "opponents",
        "registration",
        "pettingzoo_sequential",
        "pettingzoo_simultaneous",
        "openspiel_game",
    ):
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'pigtheory.envs' has no attribute {name!r}")
