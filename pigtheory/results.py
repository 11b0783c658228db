"""Result types shared by the solvers: frozen dataclasses of read-only arrays."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from .rules import Rules

__all__ = ["Solution", "freeze"]


def freeze(obj: Any) -> None:
    """Make every numpy array field of a dataclass instance read-only."""
    for f in fields(obj):
        v = getattr(obj, f.name)
        if isinstance(v, np.ndarray):
            v.setflags(write=False)


@dataclass(frozen=True, eq=False)
class Solution:
    """An optimal (or best-response) policy with its value.

    Attributes
    ----------
    value : numpy.ndarray
        Win probability of the player at the start of a turn; shape ``(goal + 1,) * players``
        for simultaneous play, index ``goal`` meaning "has reached the goal" (terminal).
    policy : numpy.ndarray of int
        Threshold at every non-terminal state, shape ``(goal,) * players``, own score first.
    iterations : int
        Sweeps (value iteration) or backward-induction levels (exact).
    residual : float
        Largest change of the last sweep (value iteration); 0.0 for exact methods.
    method : str
    rules : Rules
    """

    value: np.ndarray
    policy: np.ndarray
    iterations: int
    residual: float
    method: str
    rules: Rules

    def __post_init__(self) -> None:
        freeze(self)
