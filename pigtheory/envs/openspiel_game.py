"""Simultaneous Pig as an OpenSpiel game: ``pyspiel.load_game("pigtheory_simultaneous_pig")``.

Importing this module registers the game with ``pyspiel.register_game``; OpenSpiel's Python
algorithms that accept simultaneous-move games (``expected_game_score.policy_value``,
``pyspiel.random_sim_test``, ``pyspiel.convert_to_turn_based`` and what runs on that) run on it.

Parameters
----------
``players`` (2..10, default 2), ``goal`` (default 100), ``die_faces`` (default 6, face 1
busts, face f scores f), ``piglet`` (default False: Piglet's coin, overriding ``die_faces``),
``horizon`` (turns, default 1000: a game still running after that many turns ends in a draw,
``1/players`` each, as OpenSpiel's own ``pig`` does), ``chance`` (``"turn"``, default: one
chance node per player draws the points of its whole turn; ``"roll"``: one chance node per roll
of the die).

Notes
-----
Each turn is one simultaneous node, at which every player picks action ``a`` in
``0..goal - own - 1`` ("hold at a + 1"), then chance nodes roll the players' turns in seat order,
then the scores are added, clipped at the goal. At a terminal state the m players at the goal
get 1/m each and the others 0 (``utility_sum`` 1). With ``chance="turn"`` the chance outcome is
the points the turn adds, clipped at ``goal - own`` (their distribution is the game model's
forward recursion over turn totals, :meth:`pigtheory.games.SimultaneousGame.turn_distribution`,
not read from :mod:`pigtheory.turn_totals`); with ``chance="roll"`` it is the roll (0-based, the
face of one die), read in the game model's outcome table. ``SimultaneousPigGame(rules=...)``
plays any :class:`~pigtheory.Rules`, a die defined as a subclass included.

Observation and information state strings, and an observation tensor ``[own, others...,
turns played]`` (own-centric, as every pigtheory table), are Markov: they include the number of
turns played, which matters once the horizon can be reached.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): the rules of simultaneous Pig; Lanctot et
al., "OpenSpiel: a framework for reinforcement learning in games" (2019).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..games import SimultaneousGame
from ..rules import Rules
from ._support import missing

try:
    import pyspiel
except ImportError as err:  # pragma: no cover - the rl extra is missing
    raise ImportError(missing("open-spiel (pyspiel)")) from err

__all__ = ["GAME_TYPE", "SimultaneousPigGame", "SimultaneousPigState", "rules_of"]

_DEFAULTS = {"players": 2, "goal": 100, "die_faces": 6, "piglet": False, "horizon": 1000, "chance": "turn"}

GAME_TYPE = pyspiel.GameType(
    short_name="pigtheory_simultaneous_pig",
    long_name="Simultaneous Pig (pigtheory)",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)
"""The game's OpenSpiel type (registered under ``"pigtheory_simultaneous_pig"``)."""


def rules_of(params: dict[str, Any]) -> Rules:
    """The :class:`~pigtheory.Rules` of the game's parameters (validated)."""
    if not isinstance(params, dict) or not {"players", "goal", "piglet", "die_faces"} <= set(params):
        raise ValueError(
            f"params must be a dict with players, goal, piglet and die_faces, got {params!r:.80}"
        )
    try:
        players, goal = int(params["players"]), int(params["goal"])
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"params: players and goal must be integers, got {params!r:.80}") from None
    if not 2 <= players <= 10:
        raise ValueError(f"players must be in 2..10, got {players}")
    if params["piglet"]:
        return Rules.piglet(goal=goal, players=players)
    return Rules(goal=goal, die_faces=int(params["die_faces"]), players=players)


class _Spec:
    """What states read of their game; shared, never copied (OpenSpiel deep-copies states).

    The rolls and turns are the game model's (:class:`pigtheory.games.SimultaneousGame`).
    """

    def __init__(self, rules: Rules, horizon: int, chance: str) -> None:
        self.rules, self.horizon, self.chance = rules, horizon, chance
        self.game = SimultaneousGame(rules)
        table = self.game.outcomes
        self.points = tuple(
            0 if b else p for b, p in zip(table.bust.tolist(), table.points.tolist(), strict=True)
        )
        self.roll_outcomes = [(r, float(table.probability)) for r in range(table.rolls)]
        self.turn_outcomes = functools.lru_cache(maxsize=None)(self._turn_outcomes)

    def __deepcopy__(self, memo: dict) -> _Spec:
        return self

    def _turn_outcomes(self, k: int, room: int) -> tuple[tuple[int, float], ...]:
        """``(gain, probability)`` of a "hold at k" turn, gains clipped at ``room`` (0: a bust)."""
        return tuple((x, float(p)) for x, p in self.game.turn_distribution(k, room).items())


class SimultaneousPigGame(pyspiel.Game):
    """The game: rules, horizon and chance granularity from the parameters (module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None, *, rules: Rules | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        if rules is None:
            rules = rules_of(params)
        elif not isinstance(rules, Rules) or not 2 <= rules.players <= 10:
            raise ValueError(f"rules must be a pigtheory.Rules of 2..10 players, got {rules!r:.80}")
        else:  # a die of one's own (a Rules subclass): the parameters say its goal and players
            params.update(players=rules.players, goal=rules.goal, die_faces=rules.die_faces, piglet=False)
        horizon = int(params["horizon"])
        if horizon < 1:
            raise ValueError(f"horizon must be >= 1, got {horizon}")
        chance = str(params["chance"])
        if chance not in ("turn", "roll"):
            raise ValueError(f"chance must be 'turn' or 'roll', got {chance!r}")
        g, n, faces = rules.goal, rules.players, rules.die_faces
        per_turn = n if chance == "turn" else n * g  # a player's turn is at most goal rolls
        super().__init__(
            GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=g,
                max_chance_outcomes=g + 1 if chance == "turn" else faces**rules.dice,
                num_players=n,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=1.0,
                max_game_length=horizon * (1 + per_turn),
            ),
            params,
        )
        # attributes after the base class's __init__
        self.rules, self.horizon, self.chance = rules, horizon, chance
        self.spec = _Spec(rules, horizon, chance)

    def turn_outcomes(self, k: int, room: int) -> tuple[tuple[int, float], ...]:
        """``(gain, probability)`` of a "hold at k" turn, gains clipped at ``room`` (0: a bust),
        exact fractions rounded to floats."""
        return self.spec.turn_outcomes(k, room)

    def new_initial_state(self) -> SimultaneousPigState:
        """Scores 0, every player about to choose."""
        return SimultaneousPigState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of observation strings and tensors (module docstring)."""
        return _Observer(self, params)


class SimultaneousPigState(pyspiel.State):
    """A state: the scores, the turns played, and within a turn the thresholds and rolls."""

    def __init__(self, game: SimultaneousPigGame) -> None:
        super().__init__(game)
        self._spec = game.spec
        n = game.rules.players
        self.scores = [0] * n
        self.turns = 0
        self.holds: list[int] = []  # thresholds of this turn (clipped), once chosen
        self.gains: list[int] = []  # points of this turn of seats 0..len - 1
        self.total = 0  # chance="roll": the turn total of the player rolling
        self._over = False
        self._returns = [0.0] * n

    # -- whose move ----------------------------------------------------------------------
    def current_player(self) -> int:
        """``SIMULTANEOUS`` at the start of a turn, ``CHANCE`` within it, or ``TERMINAL``."""
        if self._over:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if self.holds else pyspiel.PlayerId.SIMULTANEOUS

    def _legal_actions(self, player: int) -> list[int]:
        """Hold at ``a + 1`` for ``a`` in ``0..goal - own - 1``."""
        if self._over or self.holds:
            return []
        return list(range(self._spec.rules.goal - self.scores[player]))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next player's whole turn (``chance="turn"``) or the next face of the die."""
        p = len(self.gains)
        if self._spec.chance == "turn":
            room = self._spec.rules.goal - self.scores[p]
            return list(self._spec.turn_outcomes(self.holds[p], room))
        return list(self._spec.roll_outcomes)

    # -- moves ---------------------------------------------------------------------------
    def _apply_actions(self, actions: list[int]) -> None:
        g = self._spec.rules.goal
        self.holds = [min(int(a) + 1, g - s) for a, s in zip(actions, self.scores, strict=True)]
        self.gains, self.total = [], 0

    def _apply_action(self, action: int) -> None:
        p = len(self.gains)
        room = self._spec.rules.goal - self.scores[p]
        if self._spec.chance == "turn":
            self.gains.append(int(action))
        else:
            x = self._spec.points[action]
            if x == 0:
                self.gains.append(0)
                self.total = 0
            else:
                self.total += x
                if self.total >= self.holds[p]:
                    self.gains.append(min(self.total, room))
                    self.total = 0
        if len(self.gains) == len(self.scores):
            self._end_turn()

    def _end_turn(self) -> None:
        g, n = self._spec.rules.goal, len(self.scores)
        self.scores = [min(s + x, g) for s, x in zip(self.scores, self.gains, strict=True)]
        self.holds, self.gains = [], []
        self.turns += 1
        winners = [p for p in range(n) if self.scores[p] == g]
        if winners:
            self._over = True
            self._returns = [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]
        elif self.turns >= self._spec.horizon:
            self._over = True
            self._returns = [1.0 / n] * n

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"gain {action}" if self._spec.chance == "turn" else f"face {action + 1}"
        return f"hold at {action + 1}"

    # -- outcome -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """Somebody reached the goal, or the horizon."""
        return self._over

    def returns(self) -> list[float]:
        """Win shares at a terminal state (1/players each at the horizon), else zeros."""
        return list(self._returns)

    def own_view(self, player: int) -> tuple[int, ...]:
        """The scores seen by ``player``: own first, then the next seats."""
        n = len(self.scores)
        return tuple(self.scores[(player + q) % n] for q in range(n))

    def __str__(self) -> str:
        text = f"scores {tuple(self.scores)}, turn {self.turns}"
        if self.holds:
            text += f", holds {tuple(self.holds)}, gains {tuple(self.gains)}, total {self.total}"
        return text


class _Observer:
    """OpenSpiel's PyObserver: ``[own, others..., turns]`` and its string, both Markov."""

    def __init__(self, game: SimultaneousPigGame, params: Any) -> None:
        n = game.rules.players
        self.tensor = np.zeros(n + 1, np.float32)
        self.dict = {"scores": self.tensor[:n], "turns": self.tensor[n:]}

    def set_from(self, state: SimultaneousPigState, player: int) -> None:
        n = len(state.scores)
        self.tensor[:n] = state.own_view(player)
        self.tensor[n] = state.turns

    def string_from(self, state: SimultaneousPigState, player: int) -> str:
        text = f"p{player} scores {state.own_view(player)} turn {state.turns}"
        if state.holds:  # within the turn everything is public: perfect information
            text += f" holds {tuple(state.holds)} gains {tuple(state.gains)} total {state.total}"
        return text


pyspiel.register_game(GAME_TYPE, SimultaneousPigGame)
