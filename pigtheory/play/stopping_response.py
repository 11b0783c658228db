"""Deprecated: the play site's best response is :func:`pigtheory.simultaneous.best_response` with
``strategies="stopping"`` (a :class:`~pigtheory.simultaneous.best_response.StoppingSolution`,
whose ``policy.roll`` is the old ``policy``), and :func:`turn_values` moved to
:mod:`pigtheory.simultaneous.best_response`. This shim warns on import and goes in a later
release.
"""

from __future__ import annotations

import warnings
from typing import Any

from .._compat import moved, renamed
from ..rules import Rules
from ..simultaneous.best_response import StoppingSolution, best_response, turn_values

__all__ = ["stopping_best_response", "turn_values"]

moved(__name__, "pigtheory.simultaneous.best_response")
__getattr__ = renamed(__name__, {"StoppingResponse": "pigtheory.simultaneous.best_response:StoppingSolution"})


def stopping_best_response(
    opponent: Any, *, rules: Rules = Rules(), engine: str = "auto"
) -> StoppingSolution:
    """Deprecated: ``best_response(opponent, rules=rules, strategies="stopping", engine=engine)``.

    Parameters
    ----------
    opponent : policy
    rules : Rules
        Two players.
    engine : {"auto", "numba", "numpy"}

    Returns
    -------
    StoppingSolution
        Its ``policy`` is a :class:`~pigtheory.stopping.StoppingRule`: ``policy.roll`` is the
        bool table that ``StoppingResponse.policy`` was.
    """
    warnings.warn(
        "stopping_best_response is deprecated: use pigtheory.simultaneous.best_response"
        '(opponent, rules=rules, strategies="stopping")',
        DeprecationWarning,
        stacklevel=2,
    )
    if rules.players != 2:
        raise ValueError(f"rules.players must be 2 here, got {rules.players}")
    sol = best_response(opponent, rules=rules, strategies="stopping", engine=engine)
    assert isinstance(sol, StoppingSolution)
    return sol
