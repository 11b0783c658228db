"""What every environment shares: the optional packages, the rules they accept, the die.

The environments roll the die face by face (never through the X_k tables), so Monte Carlo
through them is an independent check of the exact solvers, as :mod:`pigtheory.simulate` is.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..rules import Rules

EXTRA_HINT = "pip install 'pigtheory[rl]'"


def missing(package: str) -> str:
    """The message of the ImportError raised when a package of the ``rl`` extra is missing."""
    return f"pigtheory.envs needs {package}, which the 'rl' extra installs: {EXTRA_HINT}"


def check_env_rules(rules: Any, *, players: int | None = None) -> Rules:
    """Rules the environments play: one die (or Piglet's coin); ``players`` seats if given."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a pigtheory.Rules, got {type(rules).__name__}")
    if rules.dice != 1:
        raise ValueError(f"rules: the environments roll one die (dice=1), got dice={rules.dice}")
    if players is not None and rules.players != players:
        raise ValueError(f"rules: this environment has {players} players, got players={rules.players}")
    return rules


def face_points(rules: Rules) -> np.ndarray:
    """``points[f]`` for the faces ``f = 0..die_faces - 1`` (face ``f + 1``): 0 on the bust face."""
    points = np.zeros(rules.die_faces, dtype=np.int64)
    others = [f for f in range(rules.die_faces) if f != rules.bust_face - 1]
    points[others] = rules.scoring_faces
    return points


class Dice:
    """One die rolled face by face from a generator, the faces drawn in blocks.

    Parameters
    ----------
    rules : Rules
    rng : numpy.random.Generator
        The environment's generator; the same generator state gives the same rolls.
    block : int
        Faces drawn at a time (drawing one at a time costs a microsecond each).
    """

    __slots__ = ("_points", "_rng", "_block", "_buf", "_pos", "_faces")

    def __init__(self, rules: Rules, rng: np.random.Generator, block: int = 1024) -> None:
        self._points = face_points(rules)
        self._faces = rules.die_faces
        self._rng = rng
        self._block = block
        self._buf: list[int] = []
        self._pos = 0

    def roll(self) -> int:
        """Points of one roll; 0 is a bust."""
        if self._pos == len(self._buf):
            self._buf = self._points[self._rng.integers(0, self._faces, size=self._block)].tolist()
            self._pos = 0
        p = self._buf[self._pos]
        self._pos += 1
        return p
