"""pigtheory's policies (the optimum, equilibria, any table) as OpenSpiel policies and bots for
``pig``, so that they serve as baselines in OpenSpiel's own evaluation.

OpenSpiel is optional: ``pyspiel`` is imported only inside the functions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games.policy_tables import read_profile
from ..rules import Rules
from ..validation import check_int, check_rng
from .openspiel import PigtheoryPolicyBase, _parse, openspiel_rules, require_openspiel

__all__ = ["to_openspiel_policy", "openspiel_bot"]


def _policy_class() -> type:
    require_openspiel()
    from open_spiel.python import policy as osp

    class PigtheoryPolicy(osp.Policy, PigtheoryPolicyBase):
        """A profile of pigtheory tables as an OpenSpiel policy for ``pig`` (all seats)."""

        def __init__(self, game: Any, tables: list[np.ndarray], rules: Rules) -> None:
            super().__init__(game, list(range(game.num_players())))
            self.tables = tables
            self.rules = rules

        def roll_probability(self, state: Any) -> float:
            """P(roll) of the player to move at an OpenSpiel state (0 where it must stop)."""
            scores, k, p = _parse(state)
            n, g = self.rules.players, self.rules.goal
            own = scores[p]
            if own + k >= g:
                return 0.0
            others = tuple(scores[(p + q) % n] for q in range(1, n))
            return float(self.tables[p][(own,) + others + (k,)])

        def action_probabilities(self, state: Any, player_id: Any = None) -> dict[int, float]:
            legal = state.legal_actions()
            if legal == [1]:
                return {1: 1.0}
            r = self.roll_probability(state)
            return {0: r, 1: 1.0 - r}

    return PigtheoryPolicy


def to_openspiel_policy(profile: Any, game: Any) -> Any:
    """A pigtheory policy (or one per seat) as an OpenSpiel policy for ``pig``.

    Parameters
    ----------
    profile : policy or list of policies
        Anything :func:`pigtheory.referee.read_profile` reads: the optimum
        (:func:`pigtheory.sequential.solve`), ``hold_at(n)``, tables, callables.
    game : pyspiel.Game
        OpenSpiel's ``pig`` of the same rules.

    Returns
    -------
    open_spiel.python.policy.Policy
        ``action_probabilities(state)`` gives ``{0: P(roll), 1: P(stop)}`` (``{1: 1.0}`` where
        stopping is forced); usable by OpenSpiel's ``PolicyBot`` and its evaluation.

    Examples
    --------
    >>> from pigtheory import hold_at
    >>> import pyspiel
    >>> game = pyspiel.load_game("pig", {"winscore": 10})
    >>> pol = to_openspiel_policy(hold_at(4), game)
    >>> pol.action_probabilities(game.new_initial_state())
    {0: 1.0, 1: 0.0}
    """
    rules, _ = openspiel_rules(game)
    tables = read_profile(profile, rules)
    return _policy_class()(game, tables, rules)


def openspiel_bot(profile: Any, game: Any, *, player_id: int, rng: Any = None) -> Any:
    """A ``pyspiel.Bot`` that plays a pigtheory policy in OpenSpiel's ``pig``.

    Parameters
    ----------
    profile : policy or list of policies
        As :func:`to_openspiel_policy`.
    game : pyspiel.Game
    player_id : int
        The bot's seat.
    rng : int or numpy.random.Generator, optional
        Draws of stochastic policies.

    Returns
    -------
    pyspiel.Bot
        With ``step(state)``, ``step_with_policy(state)``, ``restart_at(state)``; for
        ``open_spiel.python.algorithms.evaluate_bots``.
    """
    pyspiel = require_openspiel()
    rules, _ = openspiel_rules(game)
    check_int("player_id", player_id, low=0, high=rules.players - 1)
    gen = check_rng(rng)
    pol = to_openspiel_policy(profile, game)

    class PigtheoryBot(pyspiel.Bot):  # type: ignore[name-defined,misc]
        """Plays a pigtheory policy (samples stochastic ones)."""

        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)

        def player_id(self) -> int:
            return player_id

        def restart_at(self, state: Any) -> None:
            pass

        def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
            probs = pol.action_probabilities(state)
            actions = list(probs)
            p = np.array([probs[a] for a in actions])
            return list(probs.items()), int(actions[int(gen.choice(len(actions), p=p / p.sum()))])

        def step(self, state: Any) -> int:
            return self.step_with_policy(state)[1]

    return PigtheoryBot()
