"""The game model: the rules of play, once per kind of play (issue 36).

:class:`SequentialGame` (players take turns) and :class:`SimultaneousGame` (every player plays
its turn at once) are the only transitions of their kind of play; both read the
:class:`Outcomes` of one roll, derived from :meth:`pigtheory.Rules.roll_outcome` (through
:meth:`~pigtheory.Rules.roll_codes`), so a die defined as a :class:`~pigtheory.Rules` subclass
plays the same in the solvers, the simulators, the environments, the OpenSpiel game and the web
pages (whose JavaScript reads :meth:`Outcomes.to_json`). The canonical policy array of sequential
play, P(roll) at every state, and its one converter from every policy type are
:meth:`SequentialGame.policy_table` (:mod:`pigtheory.games.policy_tables`); the referee, the
learners and the match simulator read policies through it. See ``docs/explanation/game-model.md``.
"""

from __future__ import annotations

from .outcomes import Dice, Outcomes, outcomes
from .sequential import HOLD, ROLL, SequentialGame, State
from .simultaneous import SimultaneousGame

__all__ = ["Outcomes", "outcomes", "Dice", "SequentialGame", "SimultaneousGame", "State", "HOLD", "ROLL"]
