"""Reading a profile of policies for simultaneous play (validated, as mixtures)."""

from __future__ import annotations

from typing import Any

from ...policies import Mixture
from ...rules import Rules
from ...stopping import RuleMixture, as_turn_policy
from ...validation import check_simultaneous_rules

__all__ = ["read_opponents", "read_mixtures"]


def read_opponents(opponents: Any, rules: Rules) -> list[Mixture | RuleMixture]:
    """The ``players - 1`` opponents' policies (one policy, or a list in seat order) as
    validated mixtures (thresholds) or rule mixtures (stopping rules).

    Parameters
    ----------
    opponents : policy or list of policies
        Anything :func:`pigtheory.stopping.as_turn_policy` reads; one policy for two players.
    rules : Rules

    Returns
    -------
    list of Mixture or RuleMixture
        ``rules.players - 1`` of them, in seat order; arrays broadcastable to
        ``(goal,) * players + (S,)`` (thresholds) or ``+ (goal,)`` (stopping rules).

    Raises
    ------
    ValueError
        Rules that are not one-die simultaneous Pig, the wrong number of opponents, or an
        unreadable policy.
    """
    check_simultaneous_rules(rules)
    opps = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents]
    if len(opps) != rules.players - 1:
        raise ValueError(
            f"opponents: {rules.players} players need {rules.players - 1} opponent policies, got {len(opps)}"
        )
    return [as_turn_policy(p, rules) for p in opps]


def read_mixtures(policy: Any, opponents: Any, rules: Rules) -> list[Mixture | RuleMixture]:
    """The player's own policy followed by :func:`read_opponents`: a list of ``players``
    mixtures, seat order starting with the player's own."""
    opps = read_opponents(opponents, rules)
    return [as_turn_policy(policy, rules), *opps]
