"""Deprecated: the sequential best response moved to :mod:`pigtheory.sequential.best_response`
(``sequential_best_response`` is now :func:`pigtheory.sequential.best_response`). This shim
warns on import and goes in a later release.
"""

from __future__ import annotations

from .._compat import moved, renamed
from ..sequential.best_response import SequentialResponse, opponent_turn_values

__all__ = ["SequentialResponse", "opponent_turn_values"]

moved(__name__, "pigtheory.sequential.best_response")
__getattr__ = renamed(
    __name__, {"sequential_best_response": "pigtheory.sequential.best_response:best_response"}
)
