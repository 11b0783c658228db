"""Many games of sequential Pig against a fixed table opponent at once: a Gymnasium vector env.

``gymnasium.make_vec("pigtheory/SequentialPig-v0", num_envs=n,
vectorization_mode="vector_entry_point", opponent=...)`` builds it. Each of the ``n`` games is
the game of :class:`~pigtheory.envs.gym_sequential.SequentialPigEnv` (same observation, actions,
rewards, masks and Notes), stepped together over numpy arrays, which is what it takes to step
at millions of decisions a second from Python.

Shapes
------
Observations ``(n, 4)`` int64 (rows as in :mod:`pigtheory.envs.gym_sequential`); actions ``(n,)``;
rewards, terminations, truncations ``(n,)``; ``infos["action_mask"]`` ``(n, 2)`` int8 and
``infos["state"]`` ``(n, 3)`` (the canonical ``(i, j, k)`` of each game).

Notes
-----
Autoreset is Gymnasium's default, ``AutoresetMode.NEXT_STEP``: the step after a game ends
starts a new one in that slot (its action is ignored, reward 0). A callable opponent is read
once into a table of P(roll), ``goal ** 3`` calls (a stochastic one draws against it). The dice are drawn from one generator for all
games, so a seed reproduces the whole batch (not a single game of the scalar environment).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games import SequentialGame
from ..rules import Rules
from ._support import check_env_rules, missing
from .opponents import sequential_opponent

try:
    import gymnasium as gym
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError as err:  # pragma: no cover - the rl extra is missing
    raise ImportError(missing("gymnasium")) from err

__all__ = ["SequentialPigVectorEnv"]


class SequentialPigVectorEnv(VectorEnv):
    """``num_envs`` games of sequential Pig against one fixed opponent (module docstring).

    Parameters
    ----------
    num_envs : int
        Games stepped together, ``>= 1``.
    opponent, rules, seat, hold_at_zero
        As for :class:`~pigtheory.envs.gym_sequential.SequentialPigEnv`; a callable opponent is
        tabulated first.

    Examples
    --------
    >>> from pigtheory import Rules
    >>> env = SequentialPigVectorEnv(3, 2, rules=Rules(goal=10))
    >>> obs, infos = env.reset(seed=0)
    >>> obs.shape, infos["action_mask"][0].tolist()
    ((3, 4), [0, 1])
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        opponent: Any = 20,
        *,
        rules: Rules = Rules(),
        seat: int | None = 0,
        hold_at_zero: bool = False,
        render_mode: str | None = None,
    ) -> None:
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        self.rules = check_env_rules(rules, players=2)
        if seat not in (0, 1, None) or isinstance(seat, bool):
            raise ValueError(f"seat must be 0, 1 or None, got {seat!r}")
        if not isinstance(hold_at_zero, bool):
            raise ValueError(f"hold_at_zero must be True or False, got {hold_at_zero!r}")
        if render_mode is not None:
            raise ValueError(f"render_mode: the vector environment does not render, got {render_mode!r}")
        opp = sequential_opponent(opponent, rules=rules)
        g = rules.goal
        if opp.table is None:
            i, j, k = np.indices((g, g, g))
            live = i + k < g
            prob = np.zeros((g, g, g))
            prob[live] = [
                opp.roll_probability(int(a), int(b), int(c))
                for a, b, c in zip(i[live], j[live], k[live], strict=True)
            ]
        else:
            prob = opp.table.astype(float)
        self.opponent = opp
        if not hold_at_zero:
            prob[:, :, 0] = 1.0
        # a deterministic opponent is read as booleans; a stochastic one draws against P(roll)
        self._stochastic = bool(np.any((prob > 0) & (prob < 1)))
        self._table = prob if self._stochastic else prob > 0.5
        self.num_envs = int(num_envs)
        self.seat = seat
        self.hold_at_zero = hold_at_zero
        self.render_mode = None
        self._goal = g
        self._game = SequentialGame(rules)
        self._sample = self._game.outcomes.sample
        self.single_observation_space = spaces.MultiDiscrete([g + 1, g + 1, g, 2])
        self.single_action_space = spaces.Discrete(2)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self._own = np.zeros(n, dtype=np.int64)
        self._other = np.zeros(n, dtype=np.int64)
        self._k = np.zeros(n, dtype=np.int64)
        self._seat = np.zeros(n, dtype=np.int64)
        self._over = np.zeros(n, dtype=bool)
        self._autoreset = np.zeros(n, dtype=bool)
        self._np_random: np.random.Generator | None = None

    def _roll(self, size: int) -> np.ndarray:
        return self._sample(self.np_random, size)

    def _opponent_turns(self, games: np.ndarray) -> np.ndarray:
        """Play the opponent's turn in ``games``; a bool array: the opponent reached the goal."""
        j = self._other[games]
        i = self._own[games]
        k = np.zeros(games.size, dtype=np.int64)
        won = np.zeros(games.size, dtype=bool)
        active = np.arange(games.size)
        table, game = self._table, self._game
        while active.size:
            go = table[j[active], i[active], k[active]]
            if self._stochastic:
                go = self.np_random.random(active.size) < go
            stop = active[~go]
            game.hold_at(j, k, stop, clear=False)  # their turn totals are not read again
            active = active[go]
            _, done, active, _ = game.roll_at(j, k, active, self._roll(active.size), passed=False)
            won[done] = True
        self._other[games] = j
        return won

    def _start(self, games: np.ndarray) -> None:
        self._own[games] = 0
        self._other[games] = 0
        self._k[games] = 0
        if self.seat is None:
            self._seat[games] = self.np_random.integers(0, 2, size=games.size)
        else:
            self._seat[games] = self.seat
        self._over[games] = False
        second = games[self._seat[games] == 1]
        self._over[second] = self._opponent_turns(second)

    def _obs(self) -> np.ndarray:
        return np.stack([self._own, self._other, self._k, np.zeros_like(self._k)], axis=1)

    def _infos(self) -> dict[str, Any]:
        mask = np.ones((self.num_envs, 2), dtype=np.int8)
        if not self.hold_at_zero:
            mask[self._k == 0, 0] = 0
        mask[self._over] = 0
        return {"action_mask": mask, "state": np.stack([self._own, self._other, self._k], axis=1)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game; ``seed`` (an int) seeds the one generator of the batch."""
        if seed is not None:
            self._np_random, self._np_random_seed = gym.utils.seeding.np_random(seed)
        self._start(np.arange(self.num_envs))
        self._autoreset[:] = False
        return self._obs(), self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision in every game: ``actions[g]`` is 0 (hold) or 1 (roll)."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.isin(a, (0, 1)).all():
            raise ValueError(
                f"actions must be {self.num_envs} values of 0 (hold) or 1 (roll), got {actions!r}"
            )
        reward = np.zeros(self.num_envs)
        term = np.zeros(self.num_envs, dtype=bool)
        restart = np.flatnonzero(self._autoreset)
        live = ~self._autoreset
        finished = live & self._over  # the opponent won before the agent's first move
        term |= finished
        live &= ~finished
        roll = live & ((a == 1) | ((self._k == 0) & (not self.hold_at_zero)))
        hold = live & ~roll
        rolling = np.flatnonzero(roll)
        busted, wins, _, _ = self._game.roll_at(
            self._own, self._k, rolling, self._roll(rolling.size), going=False
        )
        self._over[wins] = True
        reward[wins] = 1.0
        term[wins] = True
        holding = np.flatnonzero(hold)
        self._game.hold_at(self._own, self._k, holding, clear=False)  # zeroed with the passed below
        passed = np.concatenate([holding, busted])
        self._k[passed] = 0
        lost = passed[self._opponent_turns(passed)]
        self._over[lost] = True
        term[lost] = True
        if restart.size:
            self._start(restart)
        self._autoreset = term
        return self._obs(), reward, term, np.zeros(self.num_envs, dtype=bool), self._infos()
