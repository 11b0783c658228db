"""Simultaneous Pig against fixed opponents, as a Gymnasium environment.

Registered as ``"pigtheory/SimultaneousPig-v0"`` (one action per turn: hold at k) and
``"pigtheory/SimultaneousPigRoll-v0"`` (one roll-or-hold action per roll, ``action="roll"``).

Shapes
------
The agent sits in seat 0 of ``rules.players``. Observation: int64 array ``[own, others...]``
(threshold actions) or ``[own, others..., turn_total]`` (roll actions), the others in seat
order after the agent: ``MultiDiscrete([goal + 1] * players (+ [goal]))``. ``(own,
others...)`` is the own-centric state every simultaneous policy table is indexed by
(:mod:`pigtheory.policies`): ``table[tuple(obs[:players])]``.

Actions: threshold mode ``Discrete(goal, start=1)``, hold at ``min(k, goal - own)`` (any k is
accepted, as "hold at n" is read everywhere in pigtheory); roll mode ``HOLD = 0``, ``ROLL = 1``.

``info``: ``"action_mask"`` (int8; threshold mode length goal, 1 for k in ``1..goal - own``;
roll mode length 2, holding is illegal at turn total 0), ``"state"`` (the own-centric score
tuple), ``"scores"`` (seat order).

Notes
-----
All players play the turn at once without seeing each other; each opponent plays its whole
turn face by face by its policy at its own-centric state (a mixed policy draws its threshold
afresh each turn), then all turn totals are added, scores clipped at the goal. The game ends
when somebody reaches the goal; the m players there share the win. The reward is the agent's
share (1, 1/m or 0), so expected returns are :func:`pigtheory.simultaneous.win_probability`.
In roll mode the agent's turn ends at a bust, a hold, or on reaching the goal; the opponents'
turns are rolled when it ends (they see nothing of it, so when they are rolled does not
matter).

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): the rules of simultaneous Pig.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games import Dice, SimultaneousGame
from ..rules import Rules
from ..validation import check_rules
from ._support import check_env_rules, dice, missing
from .opponents import SimultaneousOpponent, simultaneous_opponent

try:
    import gymnasium as gym
    from gymnasium import spaces
except ImportError as err:  # pragma: no cover - the rl extra is missing
    raise ImportError(missing("gymnasium")) from err

__all__ = ["SimultaneousPigEnv", "env_opponents"]


def env_opponents(opponents: Any, rules: Rules) -> list[SimultaneousOpponent]:
    """One policy for every opponent, or a list of ``players - 1`` in seat order."""
    check_rules(rules)
    n = rules.players
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != n - 1:
            raise ValueError(f"opponents: {n} players need {n - 1} opponents' policies, got {len(opponents)}")
        return [simultaneous_opponent(p, rules=rules) for p in opponents]
    return [simultaneous_opponent(opponents, rules=rules)] * (n - 1)


class SimultaneousPigEnv(gym.Env):
    """Simultaneous Pig against ``players - 1`` fixed opponents (module docstring).

    Parameters
    ----------
    opponents : policy, path or callable, or a sequence of them
        One for every opponent, or ``players - 1`` in seat order: anything
        :func:`pigtheory.envs.opponents.simultaneous_opponent` reads. Default: hold at 20.
    rules : Rules
        One die (or Piglet), any number of players.
    action : {"threshold", "roll"}
        One action per turn (hold at k) or one per roll.
    render_mode : {None, "ansi"}

    Examples
    --------
    >>> from pigtheory import Rules
    >>> env = SimultaneousPigEnv(2, rules=Rules(goal=4))
    >>> obs, info = env.reset(seed=0)
    >>> obs.tolist(), info["action_mask"].tolist()
    ([0, 0], [1, 1, 1, 1])
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        opponents: Any = 20,
        *,
        rules: Rules = Rules(),
        action: str = "threshold",
        render_mode: str | None = None,
    ) -> None:
        self.rules = check_env_rules(rules)
        if action not in ("threshold", "roll"):
            raise ValueError(f"action must be 'threshold' or 'roll', got {action!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.opponents = env_opponents(opponents, rules)
        self._game = SimultaneousGame(rules)
        self.action = action
        self.render_mode = render_mode
        g, n = rules.goal, rules.players
        self._goal, self._n = g, n
        if action == "threshold":
            self.observation_space = spaces.MultiDiscrete([g + 1] * n)
            self.action_space = spaces.Discrete(g, start=1)
        else:
            self.observation_space = spaces.MultiDiscrete([g + 1] * n + [g])
            self.action_space = spaces.Discrete(2)
        self._dice: Dice | None = None
        self._scores = [0] * n
        self._t = 0
        self._over = True

    def _obs(self) -> np.ndarray:
        extra = [self._t] if self.action == "roll" else []
        return np.array(self._scores + extra, dtype=np.int64)

    def _info(self) -> dict[str, Any]:
        g, own = self._goal, self._scores[0]
        if self.action == "threshold":
            mask = np.zeros(g, dtype=np.int8)
            if not self._over:
                mask[: g - own] = 1
        else:
            mask = np.array([int(self._t > 0 and not self._over), int(not self._over)], dtype=np.int8)
        return {"action_mask": mask, "state": tuple(self._scores), "scores": tuple(self._scores)}

    def _finish_turn(self, gain: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        assert self._dice is not None
        n, s = self._n, self._scores
        gains = [gain]
        for p, opp in enumerate(self.opponents, start=1):
            view = tuple(s[(p + q) % n] for q in range(n))
            gains.append(opp.turn(view, self._goal, self._dice, self.np_random))
        scores, shares = self._game.end_turn(s, gains)
        self._scores = list(scores)
        self._t = 0
        if shares is None:
            return self._obs(), 0.0, False, False, self._info()
        self._over = True
        return self._obs(), shares[0], True, False, self._info()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game at scores 0."""
        super().reset(seed=seed)
        if self._dice is None or seed is not None:
            self._dice = dice(self.rules, self.np_random)
        self._scores = [0] * self._n
        self._t = 0
        self._over = False
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Threshold mode: play a whole turn, holding at ``min(action, goal - own)``. Roll mode:
        roll once (1) or hold (0; at turn total 0 it rolls)."""
        if self._dice is None or self._over:
            raise RuntimeError("SimultaneousPigEnv: call reset() before step() (and after the game ends)")
        a = int(action)
        room = self._goal - self._scores[0]
        if self.action == "threshold":
            if a < 1 or a > self._goal:
                raise ValueError(f"action must be a threshold in 1..{self._goal}, got {action!r}")
            k, t = min(a, room), 0
            while t < k:
                p = self._dice.roll()
                if p == 0:
                    t = 0
                    break
                t += p
            return self._finish_turn(min(t, room))
        if a not in (0, 1):
            raise ValueError(f"action must be 0 (hold) or 1 (roll), got {action!r}")
        if a == 0 and self._t > 0:
            return self._finish_turn(self._t)
        p = self._dice.roll()
        if p == 0:
            return self._finish_turn(0)
        self._t += p
        if self._t >= room:
            return self._finish_turn(room)
        return self._obs(), 0.0, False, False, self._info()

    def render(self) -> str | None:
        """``"ansi"``: the scores in seat order (the agent first) and the turn total."""
        if self.render_mode != "ansi":
            return None
        return f"scores {tuple(self._scores)}, turn total {self._t}"
