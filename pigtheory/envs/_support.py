"""What every environment shares: the optional packages, the rules they accept, the die.

The environments roll the die face by face through the game model's outcome table
(:mod:`pigtheory.games`, derived from :meth:`pigtheory.Rules.roll_outcome`; never through the
X_k tables), so Monte Carlo through them is an independent check of the exact solvers, as
:mod:`pigtheory.simulate` is, and a die defined as a ``Rules`` subclass plays as the solvers
assume.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games import Dice, outcomes
from ..rules import Rules

EXTRA_HINT = "pip install 'pigtheory[rl]'"


def missing(package: str) -> str:
    """The message of the ImportError raised when a package of the ``rl`` extra is missing."""
    return f"pigtheory.envs needs {package}, which the 'rl' extra installs: {EXTRA_HINT}"


def check_env_rules(rules: Any, *, players: int | None = None) -> Rules:
    """Rules the environments play: one die (or Piglet's coin) whose rolls bust or score (no
    reset, no forced roll); ``players`` seats if given."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a pigtheory.Rules, got {type(rules).__name__}")
    if rules.dice != 1:
        raise ValueError(f"rules: the environments roll one die (dice=1), got dice={rules.dice}")
    if not outcomes(rules).simple:
        raise ValueError(
            f"rules: the environments play rolls that bust or score, {rules} has resets or forced rolls"
        )
    if players is not None and rules.players != players:
        raise ValueError(f"rules: this environment has {players} players, got players={rules.players}")
    return rules


def dice(rules: Rules, rng: np.random.Generator) -> Dice:
    """The die of an environment: the game model's rolls (:class:`pigtheory.games.Dice`), drawn
    from ``rng`` in blocks; the same generator state gives the same rolls."""
    return Dice(outcomes(rules), rng)
