"""What the two PettingZoo environments share: the checks of their keywords, their agents, one
observation space and one action space for every agent, and the die seeded at reset."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..games import Dice
from ..rules import Rules
from ._support import check_env_rules, dice, missing

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
except ImportError as err:  # pragma: no cover - the rl extra is missing
    raise ImportError(missing("gymnasium")) from err

__all__ = ["PigAgents"]


class PigAgents:
    """Mixin of the PettingZoo environments (put before ``AECEnv`` / ``ParallelEnv``).

    :meth:`_setup` checks the rules, the step or turn limit and the render mode, and names the
    agents ``player_0 .. player_{n-1}``; the subclass sets ``_obs_space`` and ``_act_space``;
    :meth:`_seed` makes the generator and the die at a reset with a seed (or the first one).
    """

    rules: Rules
    render_mode: str | None
    possible_agents: list[str]
    _obs_space: Any
    _act_space: Any

    def _setup(self, rules: Any, limit_name: str, limit: Any, render_mode: Any) -> None:
        self.rules = check_env_rules(rules)
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
            raise ValueError(f"{limit_name} must be None or an integer >= 1, got {limit!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self._n, self._goal = rules.players, rules.goal
        self.possible_agents = [f"player_{p}" for p in range(rules.players)]
        self._np_random: np.random.Generator | None = None
        self._dice: Dice | None = None

    def _seed(self, seed: int | None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
            self._dice = dice(self.rules, self._np_random)

    @functools.cache  # noqa: B019 - one space object per agent, as PettingZoo asks
    def observation_space(self, agent: str) -> spaces.Box:
        """Every agent's observation space (an int64 ``Box``, see the environment)."""
        return self._obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Discrete:
        """Every agent's action space (a ``Discrete``, see the environment)."""
        return self._act_space
