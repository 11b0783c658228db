"""Turn-based (AEC) sequential Pig for 2 to 10 players, as a PettingZoo environment.

``env()`` is the environment with PettingZoo's usual wrappers, ``raw_env()`` without them.

Shapes
------
Agents ``"player_0"`` ... ``"player_{n-1}"`` in turn order, ``player_0`` first. The
observation of every agent is an int64 array ``[own, others..., turn_total, mover]``
(an int64 ``Box`` from 0 to ``[goal] * n + [goal - 1, n - 1]``): its own banked score, the others' in turn
order starting with the next seat, the turn total of the player to move, and the mover
relative to the observer (0: itself, q: q seats later). For the mover, ``obs[:n + 1]`` is the
canonical state ``(i, j..., k)`` of sequential Pig (:mod:`pigtheory.sequential.model`).

Actions ``HOLD = 0`` and ``ROLL = 1``; ``infos[agent]["action_mask"]`` (int8, shape ``(2,)``) is
zero for everybody but the mover, and forbids holding at turn total 0 unless
``hold_at_zero=True`` (OpenSpiel's rule; an illegal hold plays as a roll).
``infos[agent]["state"]`` is the observation as a tuple without the mover field.

Notes
-----
The mover rolls face by face: a bust passes the die with nothing, a hold banks the turn total
and passes the die, and reaching the goal (``own + turn_total >= goal``) wins at once. The
winner's reward is 1 and everybody else's 0, so expected returns are win probabilities.
``max_steps`` (default none) truncates the game for everybody after that many decisions.

References
----------
Neller & Presser, slides "Pig Probabilities"; OpenSpiel's ``pig`` (its ``players`` and the
turn-total-0 hold).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..rules import Rules
from ._pettingzoo import PigAgents
from ._support import missing

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # pragma: no cover - the rl extra is missing
    raise ImportError(missing("pettingzoo")) from err

__all__ = ["SequentialPigAEC", "env", "raw_env", "HOLD", "ROLL", "MAX_PLAYERS"]

HOLD = 0
"""Bank the turn total and pass the die."""
ROLL = 1
"""Roll the die once."""
MAX_PLAYERS = 10
"""The most players (as OpenSpiel's ``pig``)."""


class SequentialPigAEC(PigAgents, AECEnv):
    """n-player sequential Pig, one decision per step (module docstring).

    Parameters
    ----------
    rules : Rules
        One die (or Piglet's coin); ``rules.players`` in 2..10.
    hold_at_zero : bool
        Holding at turn total 0 is legal (and passes the die), as in OpenSpiel's ``pig``.
    max_steps : int, optional
        Truncate after this many decisions (default: play to the end).
    render_mode : {None, "ansi"}

    Examples
    --------
    >>> from pigtheory import Rules
    >>> e = raw_env(rules=Rules(goal=10, players=3))
    >>> e.reset(seed=0)
    >>> e.agent_selection, e.observe("player_1").tolist()
    ('player_0', [0, 0, 0, 0, 2])
    """

    metadata = {"render_modes": ["ansi"], "name": "pigtheory_sequential_pig_v0", "is_parallelizable": False}

    def __init__(
        self,
        *,
        rules: Rules = Rules(),
        hold_at_zero: bool = False,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if isinstance(rules, Rules) and rules.players > MAX_PLAYERS:
            raise ValueError(f"rules: players must be in 2..{MAX_PLAYERS}, got {rules.players}")
        if not isinstance(hold_at_zero, bool):
            raise ValueError(f"hold_at_zero must be True or False, got {hold_at_zero!r}")
        self._setup(rules, "max_steps", max_steps, render_mode)
        self.hold_at_zero = hold_at_zero
        self.max_steps = max_steps
        n, g = self._n, self._goal
        self._seats = {a: p for p, a in enumerate(self.possible_agents)}
        high = np.array([g] * n + [g - 1, n - 1], dtype=np.int64)
        self._obs_space = spaces.Box(0, high, dtype=np.int64)
        self._act_space = spaces.Discrete(2)
        self._scores = [0] * n
        self._k = 0
        self._mover = 0
        self._steps = 0

    def observe(self, agent: str) -> np.ndarray:
        """The agent's observation (module docstring)."""
        p = self._seats[agent]
        sc = self._scores
        return np.array(sc[p:] + sc[:p] + [self._k, (self._mover - p) % self._n], dtype=np.int64)

    def _infos(self, over: bool) -> None:
        sc, k = self._scores, self._k
        legal = (int(k > 0 or self.hold_at_zero), 1)
        for a in self.agents:
            p = self._seats[a]
            mask = np.array(legal if not over and p == self._mover else (0, 0), dtype=np.int8)
            self.infos[a] = {"action_mask": mask, "state": tuple(sc[p:] + sc[:p]) + (k,)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: scores 0, ``player_0`` to move."""
        self._seed(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._scores = [0] * self._n
        self._k = 0
        self._mover = 0
        self._steps = 0
        self.agent_selection = self.agents[0]
        self._infos(False)

    def step(self, action: Any) -> None:
        """The mover holds (0) or rolls (1); a finished agent steps with None."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._dice is not None
        a = int(action)
        if a not in (HOLD, ROLL):
            raise ValueError(f"action must be 0 (hold) or 1 (roll), got {action!r}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._steps += 1
        over = False
        p = self._mover
        if a == ROLL or (self._k == 0 and not self.hold_at_zero):
            pts = self._dice.roll()
            if pts == 0:
                self._pass()
            else:
                self._k += pts
                if self._scores[p] + self._k >= self._goal:
                    self._scores[p], self._k, over = self._goal, 0, True
                    self.rewards[agent] = 1.0
                    self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._scores[p] += self._k
            self._pass()
        if not over and self.max_steps is not None and self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
            over = True
        self.agent_selection = self.possible_agents[self._mover]
        self._infos(over)
        self._accumulate_rewards()

    def _pass(self) -> None:
        self._k = 0
        self._mover = (self._mover + 1) % self._n

    def render(self) -> str | None:
        """``"ansi"``: the scores in seat order, the mover and its turn total."""
        if self.render_mode != "ansi":
            return None
        return f"scores {tuple(self._scores)}, player_{self._mover} to move, turn total {self._k}"

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**kwargs: Any) -> SequentialPigAEC:
    """The AEC environment without wrappers (keywords as :class:`SequentialPigAEC`)."""
    return SequentialPigAEC(**kwargs)


def env(**kwargs: Any) -> Any:
    """The AEC environment with PettingZoo's out-of-bounds and order checks."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
