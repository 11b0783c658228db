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
Seat p's value is :func:`pigtheory.simultaneous.win_probabilities` at (0, 0) (ties count 1/2),
its best response :func:`pigtheory.simultaneous.best_response` against the other seat's policy
(exact backward induction over score sums, the both-bust self-loop in closed form). The gains,
NashConv and exploitability are those of :class:`~pigtheory.referee.Exploitability`; for one
policy played by both seats, the exploitability is :func:`pigtheory.simultaneous.exploitability`.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), eqs. (6)-(10), (12), Algorithm 0.1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import simultaneous
from ..rules import Rules
from ..validation import check_choice, check_simultaneous_rules
from .best_response import Exploitability

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
    check_simultaneous_rules(rules, players=2)
    check_choice("strategies", strategies, ("thresholds", "stopping"))
    if isinstance(profile, Sequence) and not isinstance(profile, (str, bytes)):
        if len(profile) != 2:
            raise ValueError(f"profile: 2 policies (one per seat), got {len(profile)}")
        pols = list(profile)
    else:
        pols = [profile, profile]
    value = np.asarray(simultaneous.win_probabilities(pols, rules=rules))[:, 0, 0]
    br = np.array(
        [
            float(
                simultaneous.best_response(
                    pols[1 - p], rules=rules, strategies=strategies, engine=engine
                ).value[0, 0]
            )
            for p in range(2)
        ]
    )
    gains = br - value
    nc = float(gains.sum())
    return Exploitability(value.copy(), br, gains, nc, nc / 2, nc, rules, None)
