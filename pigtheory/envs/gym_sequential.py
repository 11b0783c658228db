"""Sequential Pig against a fixed opponent, as a Gymnasium environment.

Registered as ``"pigtheory/SequentialPig-v0"`` (:mod:`pigtheory.envs`).

Shapes
------
Observation: int64 array ``[own, other, turn_total, mover]`` (``MultiDiscrete([goal + 1,
goal + 1, goal, 2])``): the agent's banked score, the opponent's, the agent's turn total, and
whose move it is relative to the agent (0: the agent; it is always 0 when the agent is asked
to act). ``(own, other, turn_total)`` is the canonical sequential state ``(i, j, k)`` of
:mod:`pigtheory.sequential.model`, so ``policy[obs[0], obs[1], obs[2]]`` reads a
:class:`~pigtheory.sequential.SequentialSolution` directly.

Actions: ``HOLD = 0``, ``ROLL = 1`` (OpenSpiel's ``pig`` numbers them the other way round).

``info``: ``"action_mask"`` (int8, shape ``(2,)``: 1 where the action is legal), ``"state"``
(the canonical ``(i, j, k)``), ``"scores"`` (seat order), ``"seat"`` (the agent's seat, 0 =
first to move).

Notes
-----
The agent rolls the die face by face; a bust ends its turn with nothing, a hold banks the turn
total, and reaching the goal (``own + turn_total >= goal``) wins at once (holding is the only
sensible move there). Then the opponent plays its whole turn, face by face, by its policy at
its own canonical state. Holding with a turn total of 0 is illegal (the mask says so) and
plays as a roll, unless ``hold_at_zero=True`` (OpenSpiel's rule: the turn passes).

Reward 1 for a win, 0 otherwise, so the expected return from a state is the agent's win
probability there: ``value[i, j, k]`` of :func:`pigtheory.sequential.solve` against an optimal
opponent, :func:`pigtheory.sequential.compare` against any fixed one.

If the opponent moves first and wins its opening turn (possible against a policy that rolls
on, or at a small goal) the game is over before the agent moves: :meth:`SequentialPigEnv.reset` returns that
final state with an all-zero mask, and the first :meth:`SequentialPigEnv.step`, whatever the action, ends the
episode with reward 0.

References
----------
Neller & Presser, slides "Pig Probabilities" (the state (i, j, k) and its equations).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games import Dice
from ..rules import Rules
from ._support import check_env_rules, dice, missing
from .opponents import sequential_opponent

try:
    import gymnasium as gym
    from gymnasium import spaces
except ImportError as err:  # pragma: no cover - the rl extra is missing
    raise ImportError(missing("gymnasium")) from err

__all__ = ["SequentialPigEnv", "HOLD", "ROLL"]

HOLD = 0
"""The action that banks the turn total and passes the die."""
ROLL = 1
"""The action that rolls the die once."""


def _mask(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int8)


_MASK_ROLL = _mask(0, 1)
_MASK_BOTH = _mask(1, 1)
_MASK_NONE = _mask(0, 0)


class SequentialPigEnv(gym.Env):
    """Two-player sequential Pig against a fixed opponent (module docstring).

    Parameters
    ----------
    opponent : str, int, policy, path or callable
        ``"optimal"``, an int n (hold at n), any policy
        :func:`pigtheory.sequential.roll_table` reads, a policy file, or ``f(i, j, k) ->
        P(roll)`` (:mod:`pigtheory.envs.opponents`). Default: hold at 20.
    rules : Rules
        Two players, one die (or Piglet's coin).
    seat : {0, 1, None}
        The agent's seat: 0 moves first, 1 second, None a fair coin at every reset.
    hold_at_zero : bool
        Allow holding with a turn total of 0 (OpenSpiel's ``pig``): the turn passes.
    render_mode : {None, "ansi"}

    Examples
    --------
    >>> from pigtheory import Rules
    >>> env = SequentialPigEnv(2, rules=Rules(goal=10))
    >>> obs, info = env.reset(seed=0)
    >>> obs.tolist(), info["action_mask"].tolist()
    ([0, 0, 0, 0], [0, 1])
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        opponent: Any = 20,
        *,
        rules: Rules = Rules(),
        seat: int | None = 0,
        hold_at_zero: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.rules = check_env_rules(rules, players=2)
        if seat not in (0, 1, None) or isinstance(seat, bool):
            raise ValueError(f"seat must be 0, 1 or None, got {seat!r}")
        if not isinstance(hold_at_zero, bool):
            raise ValueError(f"hold_at_zero must be True or False, got {hold_at_zero!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.opponent = sequential_opponent(opponent, rules=rules)
        self.seat = seat
        self.hold_at_zero = hold_at_zero
        self.render_mode = render_mode
        g = rules.goal
        self.observation_space = spaces.MultiDiscrete([g + 1, g + 1, g, 2])
        self.action_space = spaces.Discrete(2)
        self._goal = g
        self._dice: Dice | None = None
        self._own = self._other = self._k = 0
        self._agent_seat = 0
        self._over = True

    # -- the game ------------------------------------------------------------------------
    def _opponent_turn(self) -> bool:
        """Play the opponent's whole turn; True if it reached the goal."""
        assert self._dice is not None
        opp, rolls = self.opponent, self._dice.roll
        j, i, goal = self._other, self._own, self._goal
        k = 0
        while True:
            # a turn total of 0 forces a roll unless holding there is allowed
            if (k or self.hold_at_zero) and not opp.rolls(j, i, k, self.np_random):
                self._other = j + k
                return False
            p = rolls()
            if p == 0:
                return False
            k += p
            if j + k >= goal:
                self._other = goal
                return True

    def _obs(self) -> np.ndarray:
        return np.array([self._own, self._other, self._k, 0], dtype=np.int64)

    def _info(self) -> dict[str, Any]:
        if self._over:
            mask = _MASK_NONE
        else:
            mask = _MASK_BOTH if self._k or self.hold_at_zero else _MASK_ROLL
        scores = (self._own, self._other) if self._agent_seat == 0 else (self._other, self._own)
        return {
            "action_mask": mask.copy(),  # fresh data on every call (Gymnasium's checker)
            "state": (self._own, self._other, self._k),
            "scores": scores,
            "seat": self._agent_seat,
        }

    # -- the Gymnasium API ---------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game; the opponent plays its opening turn first if the agent sits second."""
        super().reset(seed=seed)
        if self._dice is None or seed is not None:
            self._dice = dice(self.rules, self.np_random)
        self._own = self._other = self._k = 0
        self._over = False
        seat = self.seat if self.seat is not None else int(self.np_random.integers(2))
        self._agent_seat = seat
        if seat == 1:
            self._over = self._opponent_turn()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """One decision of the agent: hold (0) or roll (1); see the module Notes."""
        if self._dice is None:
            raise RuntimeError("SequentialPigEnv: call reset() before step()")
        a = int(action)
        if a not in (HOLD, ROLL):
            raise ValueError(f"action must be 0 (hold) or 1 (roll), got {action!r}")
        if self._over:  # the opponent won before the agent's first move
            return self._obs(), 0.0, True, False, self._info()
        if a == ROLL or (self._k == 0 and not self.hold_at_zero):
            p = self._dice.roll()
            if p:
                self._k += p
                if self._own + self._k >= self._goal:
                    self._own, self._k, self._over = self._goal, 0, True
                    return self._obs(), 1.0, True, False, self._info()
                return self._obs(), 0.0, False, False, self._info()
        else:
            self._own += self._k
        self._k = 0
        self._over = self._opponent_turn()
        return self._obs(), 0.0, self._over, False, self._info()

    def render(self) -> str | None:
        """``"ansi"``: one line with both scores and the turn total."""
        if self.render_mode != "ansi":
            return None
        return f"agent {self._own} (+{self._k}) vs opponent {self._other} [{self.opponent.name}]"
