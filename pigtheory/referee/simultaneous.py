"""The referee for two-player simultaneous Pig: exact exploitability of any profile, through
:mod:`pigtheory.simultaneous`.

Shapes
------
Policies are those of :mod:`pigtheory.policies` and :mod:`pigtheory.stopping`: threshold tables
``policy[i, j]`` (own score first), ``hold_at(n)``, mixed policies (a distribution over
thresholds per state, e.g. the exact equilibrium's), stopping rules ``roll[i, j, t]`` and random
stopping rules ``P(roll)[i, j, t]``.

Notes
-----
One function computes it: this is :func:`pigtheory.simultaneous.exploitability` under the
referee's name (issue 36: the same math once). Seat p's value is
:func:`pigtheory.simultaneous.win_probabilities` at (0, 0) (ties count 1/2; exactly 1/2 for one
policy played by both seats, by symmetry), its best response
:func:`pigtheory.simultaneous.best_response` against the other seat's policy.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), eqs. (6)-(10), (12), Algorithm 0.1.
"""

from __future__ import annotations

from typing import Any

from .. import simultaneous
from ..results import Exploitability
from ..rules import Rules

__all__ = ["simultaneous_exploitability"]


def simultaneous_exploitability(
    profile: Any, *, rules: Rules = Rules(), strategies: str = "thresholds", engine: str = "auto"
) -> Exploitability:
    """Each seat's best-response gain against a profile of simultaneous Pig, NashConv, mean.

    Parameters
    ----------
    profile : policy or list of two policies
        One policy for both seats, or one per seat.
    rules : Rules
        One die, two players.
    strategies : {"thresholds", "stopping"}
        What the best response may play: hold-at thresholds (the papers' game) or every stopping
        rule.
    engine : {"auto", "numba", "numpy"}

    Returns
    -------
    Exploitability
        ``horizon`` None.

    Examples
    --------
    >>> from pigtheory import hold_at
    >>> e = simultaneous_exploitability(hold_at(25), rules=Rules(goal=100))
    >>> round(e.exploitability, 4)
    0.0231
    """
    return simultaneous.exploitability(profile, rules=rules, strategies=strategies, engine=engine)
