"""Simultaneous Pig for n players as a PettingZoo parallel environment.

``parallel_env()`` is the environment; ``env()`` and ``raw_env()`` are its AEC form
(PettingZoo's ``parallel_to_aec``, wrapped and not).

Shapes
------
Agents ``"player_0"`` ... ``"player_{n-1}"``. Observation of each agent: an int64 ``Box``
array ``[own, others...]`` (threshold actions) or ``[own, others..., own_turn_total]`` (roll
actions), the others in seat order after the agent; ``(own, others...)`` is the own-centric
state of :mod:`pigtheory.policies`. A player never sees the others' turn totals (they roll at
the same time).

Actions: ``action="threshold"`` (default): ``Discrete(goal, start=1)``, hold at
``min(k, goal - own)``; ``action="roll"``: ``HOLD = 0`` / ``ROLL = 1`` once per roll, every
player whose turn is still going acting in the same step. ``infos[agent]["action_mask"]``
(int8) marks the legal actions (all zero for a player whose turn has ended, whose action is
then ignored) and ``infos[agent]["state"]`` is the observation as a tuple.

Notes
-----
The rules of :mod:`pigtheory.envs.gym_simultaneous`: every player's turn is rolled face by
face, then all turn totals are added, scores clipped at the goal, and the m players at the goal
share the win (reward 1/m each, 0 for the others). ``max_turns`` (default none) truncates.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): the rules of simultaneous Pig.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games import SimultaneousGame
from ..rules import Rules
from ._pettingzoo import PigAgents
from ._support import missing

try:
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
    from pettingzoo.utils import parallel_to_aec, wrappers
except ImportError as err:  # pragma: no cover - the rl extra is missing
    raise ImportError(missing("pettingzoo")) from err

__all__ = ["SimultaneousPigParallel", "parallel_env", "env", "raw_env", "HOLD", "ROLL"]

HOLD = 0
"""Roll mode: end the turn, banking the turn total."""
ROLL = 1
"""Roll mode: roll once more."""


class SimultaneousPigParallel(PigAgents, ParallelEnv):
    """n-player simultaneous Pig, all players acting in every step (module docstring).

    Parameters
    ----------
    rules : Rules
        One die (or Piglet's coin), any number of players.
    action : {"threshold", "roll"}
        One action per turn (hold at k) or one per roll.
    max_turns : int, optional
        Truncate after this many turns (default: play to the end).
    render_mode : {None, "ansi"}

    Examples
    --------
    >>> from pigtheory import Rules
    >>> e = parallel_env(rules=Rules(goal=10))
    >>> obs, infos = e.reset(seed=0)
    >>> obs["player_1"].tolist(), int(infos["player_1"]["action_mask"].sum())
    ([0, 0], 10)
    """

    metadata = {"render_modes": ["ansi"], "name": "pigtheory_simultaneous_pig_v0"}

    def __init__(
        self,
        *,
        rules: Rules = Rules(),
        action: str = "threshold",
        max_turns: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        if action not in ("threshold", "roll"):
            raise ValueError(f"action must be 'threshold' or 'roll', got {action!r}")
        self._setup(rules, "max_turns", max_turns, render_mode)
        self.action = action
        self.max_turns = max_turns
        n, g = self._n, self._goal
        self.agents: list[str] = []
        if action == "threshold":
            self._obs_space = spaces.Box(0, g, shape=(n,), dtype=np.int64)
            self._act_space = spaces.Discrete(g, start=1)
        else:
            # the turn total reaches goal - own when a player's turn ends at the goal
            self._obs_space = spaces.Box(0, g, shape=(n + 1,), dtype=np.int64)
            self._act_space = spaces.Discrete(2)
        self._scores = [0] * n
        self._t = [0] * n
        self._rolling = [True] * n
        self._turns = 0

    def _observe(self, p: int) -> np.ndarray:
        n = self._n
        view = [self._scores[(p + q) % n] for q in range(n)]
        if self.action == "roll":
            view.append(self._t[p])
        return np.array(view, dtype=np.int64)

    def _info(self, p: int, over: bool) -> dict[str, Any]:
        g = self._goal
        if self.action == "threshold":
            mask = np.zeros(g, dtype=np.int8)
            if not over:
                mask[: g - self._scores[p]] = 1
        else:
            live = not over and self._rolling[p]
            mask = np.array([int(live and self._t[p] > 0), int(live)], dtype=np.int8)
        return {"action_mask": mask, "state": tuple(self._observe(p).tolist())}

    def _outputs(self, over: bool) -> tuple[dict, dict]:
        obs = {a: self._observe(p) for p, a in enumerate(self.possible_agents) if a in self.agents}
        infos = {a: self._info(p, over) for p, a in enumerate(self.possible_agents) if a in self.agents}
        return obs, infos

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """Start a game at scores 0."""
        self._seed(seed)
        self.agents = self.possible_agents[:]
        self._scores = [0] * self._n
        self._t = [0] * self._n
        self._rolling = [True] * self._n
        self._turns = 0
        return self._outputs(False)

    def _turn_gain(self, p: int, k: int) -> int:
        assert self._dice is not None
        room = self._goal - self._scores[p]
        k, t = min(k, room), 0
        while t < k:
            pts = self._dice.roll()
            if pts == 0:
                return 0
            t += pts
        return min(t, room)

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Threshold mode: everybody plays a whole turn. Roll mode: everybody still in the turn
        rolls (1) or holds (0); the turn ends when all have stopped."""
        assert self._dice is not None
        if not self.agents:
            raise RuntimeError("SimultaneousPigParallel: the game is over; call reset()")
        n, g = self._n, self._goal
        turn_over = True
        if self.action == "threshold":
            gains = []
            for p, a in enumerate(self.possible_agents):
                k = int(actions[a])
                if not 1 <= k <= g:
                    raise ValueError(f"actions[{a!r}] must be a threshold in 1..{g}, got {actions[a]!r}")
                gains.append(self._turn_gain(p, k))
        else:
            for p, a in enumerate(self.possible_agents):
                if not self._rolling[p]:
                    continue
                act = int(actions[a])
                if act not in (HOLD, ROLL):
                    raise ValueError(f"actions[{a!r}] must be 0 (hold) or 1 (roll), got {actions[a]!r}")
                if act == HOLD and self._t[p] > 0:
                    self._rolling[p] = False
                    continue
                pts = self._dice.roll()
                if pts == 0:
                    self._t[p], self._rolling[p] = 0, False
                else:
                    self._t[p] += pts
                    if self._scores[p] + self._t[p] >= g:
                        self._t[p], self._rolling[p] = g - self._scores[p], False
            turn_over = not any(self._rolling)
            gains = list(self._t)
        rewards = dict.fromkeys(self.agents, 0.0)
        over = trunc = False
        if turn_over:
            scores, shares = SimultaneousGame(self.rules).end_turn(self._scores, gains)
            self._scores = list(scores)
            self._t = [0] * n
            self._rolling = [True] * n
            self._turns += 1
            if shares is not None:
                over = True
                rewards = {a: shares[p] for p, a in enumerate(self.possible_agents)}
            elif self.max_turns is not None and self._turns >= self.max_turns:
                trunc = True
        obs, infos = self._outputs(over or trunc)
        terms = dict.fromkeys(self.agents, over)
        truncs = dict.fromkeys(self.agents, trunc)
        if over or trunc:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        """``"ansi"``: the scores in seat order (and the turn totals in roll mode)."""
        if self.render_mode != "ansi":
            return None
        extra = f", turn totals {tuple(self._t)}" if self.action == "roll" else ""
        return f"scores {tuple(self._scores)}{extra}"

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(**kwargs: Any) -> SimultaneousPigParallel:
    """The parallel environment (keywords as :class:`SimultaneousPigParallel`)."""
    return SimultaneousPigParallel(**kwargs)


def raw_env(**kwargs: Any) -> Any:
    """The AEC form of :func:`parallel_env`, without wrappers."""
    return parallel_to_aec(parallel_env(**kwargs))


def env(**kwargs: Any) -> Any:
    """The AEC form of :func:`parallel_env` with PettingZoo's order checks."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
