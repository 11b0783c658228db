"""Fixed opponents for the environments: any pigtheory policy, a policy file, or a callable.

Sequential opponents decide roll or hold at the canonical state ``(i, j, k)`` of the player to
move (own score i, the other's score j, turn total k; :mod:`pigtheory.sequential.model`).
Simultaneous opponents choose a threshold, or roll and hold by a stopping rule, at their
own-centric state ``(own, next seat, ...)`` (:mod:`pigtheory.policies`).

- ``"optimal"`` (sequential): the policy of :func:`pigtheory.sequential.solve`;
- an int n or :func:`pigtheory.hold_at`: hold at ``min(n, goal - own)``;
- a table or policy object: sequential, anything :func:`pigtheory.sequential.roll_table` reads;
  simultaneous, anything :func:`pigtheory.stopping.as_turn_policy` reads;
- a path (``.json``, ``.csv``, ``.npy``, ``.npz``): read by :func:`pigtheory.io.load_with_rules`;
  the rules it records must have the environment's goal;
- a callable: sequential ``f(i, j, k) -> P(roll)`` (a bool, or a probability for a
  stochastic policy; the referee's convention), simultaneous ``f(own, *others) -> k`` (hold at
  k).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..games import Dice
from ..rules import Rules
from ..stopping import RuleMixture, as_turn_policy

__all__ = ["SequentialOpponent", "SimultaneousOpponent", "sequential_opponent", "simultaneous_opponent"]


def _from_file(policy: Any, rules: Rules) -> Any:
    if isinstance(policy, (str, os.PathLike)) and Path(policy).suffix in (".json", ".csv", ".npy", ".npz"):
        from ..io import load_with_rules

        obj, file_rules = load_with_rules(policy)
        if file_rules is not None and file_rules.goal != rules.goal:
            raise ValueError(
                f"opponent: {policy} holds a policy for goal {file_rules.goal}, not {rules.goal}"
            )
        return obj
    return policy


def _is_callable_policy(policy: Any) -> bool:
    return callable(policy) and not isinstance(policy, type) and not hasattr(policy, "roll_table")


@dataclass(frozen=True, eq=False)
class SequentialOpponent:
    """A fixed sequential policy: roll or hold at ``(i, j, k)``, own score first.

    Attributes
    ----------
    table : numpy.ndarray of bool, shape ``(goal, goal, goal)``, or None
        ``table[i, j, k]``: roll; None for a callable policy. Read-only.
    decide : callable or None
        The callable ``f(i, j, k) -> P(roll)`` when there is no table.
    name : str
    """

    table: np.ndarray | None
    decide: Callable[[int, int, int], Any] | None
    name: str

    def rolls(self, i: int, j: int, k: int, rng: np.random.Generator | None = None) -> bool:
        """Whether the policy rolls at own score i, the other's score j, turn total k (a
        stochastic callable draws from ``rng``)."""
        if self.table is not None:
            return bool(self.table[i, j, k])
        assert self.decide is not None
        p = self.decide(i, j, k)
        if isinstance(p, (bool, np.bool_)) or p in (0, 1):
            return bool(p)
        p = float(p)
        if not 0.0 <= p <= 1.0 or rng is None:
            raise ValueError(f"opponent: P(roll) = {p!r} at {(i, j, k)}; a bool or a probability in [0, 1]")
        return bool(rng.random() < p)

    def roll_probability(self, i: int, j: int, k: int) -> float:
        """P(roll) at own score i, the other's score j, turn total k."""
        if self.table is not None:
            return float(self.table[i, j, k])
        assert self.decide is not None
        p = float(self.decide(i, j, k))
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"opponent: P(roll) = {p!r} at {(i, j, k)}; a bool or a probability in [0, 1]")
        return p


def sequential_opponent(policy: Any, *, rules: Rules) -> SequentialOpponent:
    """Read a sequential opponent (module table) for two-player ``rules``.

    Parameters
    ----------
    policy : str, int, policy, path or callable
        ``"optimal"``, a policy :func:`pigtheory.sequential.roll_table` reads, a policy file, or
        ``f(i, j, k) -> P(roll)`` (True or 1: roll; a probability for a stochastic policy).
    rules : Rules

    Returns
    -------
    SequentialOpponent

    Examples
    --------
    >>> from pigtheory import Rules
    >>> opp = sequential_opponent(2, rules=Rules(goal=5))
    >>> opp.rolls(0, 0, 1), opp.rolls(0, 0, 2)
    (True, False)
    """
    from ..sequential import roll_table, solve

    if isinstance(policy, str) and policy == "optimal":
        table = roll_table(solve(rules=rules), rules)
        name = "optimal"
    else:
        policy = _from_file(policy, rules)
        if _is_callable_policy(policy):
            return SequentialOpponent(None, policy, getattr(policy, "__name__", "callable"))
        if isinstance(policy, str):
            raise ValueError(f"opponent: 'optimal', a policy or a policy file path, got {policy!r}")
        table = np.array(roll_table(policy, rules), dtype=bool)
        name = str(policy)
    table.setflags(write=False)
    return SequentialOpponent(table, None, name)


def _at(table: np.ndarray, state: tuple[int, ...]) -> np.ndarray:
    """The last-axis row of a broadcastable state table at one state."""
    return table[tuple(s if table.shape[d] > 1 else 0 for d, s in enumerate(state))]


@dataclass(frozen=True, eq=False)
class SimultaneousOpponent:
    """A fixed simultaneous policy, playing whole turns face by face.

    Attributes
    ----------
    policy : Mixture, RuleMixture or callable
        The thresholds or stopping rule (:func:`pigtheory.stopping.as_turn_policy`), or a
        callable ``f(own, *others) -> k`` on own-centric scores.
    name : str
    """

    policy: Any
    name: str

    def turn(self, state: tuple[int, ...], goal: int, dice: Dice, rng: np.random.Generator) -> int:
        """Points one turn adds at the own-centric ``state`` (0 for a bust), the gain clipped at
        ``goal - state[0]``."""
        own = state[0]
        room = goal - own
        pol = self.policy
        if isinstance(pol, RuleMixture):
            # a (goal, goal) rule reads the own score only: roll[own, t]
            row = pol.prob[own] if pol.prob.ndim == 2 else _at(pol.prob, state)
            t = 0
            while True:
                p = dice.roll()
                if p == 0:
                    return 0
                t += p
                if t >= room:
                    return room
                if not rng.random() < row[t]:
                    return t
        if callable(pol):
            k = int(pol(*state))
            if not 1 <= k:
                raise ValueError(f"opponent: the callable returned threshold {k} at {state}, not >= 1")
        else:
            ths = _at(pol.thresholds, state)
            if ths.shape[-1] == 1:
                k = int(ths[0])
            else:
                w = np.broadcast_to(_at(pol.weights, state), ths.shape)
                pick = int(np.searchsorted(np.cumsum(w), rng.random(), side="right"))
                k = int(ths[min(pick, ths.size - 1)])
        k = min(k, room)
        t = 0
        while t < k:
            p = dice.roll()
            if p == 0:
                return 0
            t += p
        return min(t, room)


def simultaneous_opponent(policy: Any, *, rules: Rules) -> SimultaneousOpponent:
    """Read a simultaneous opponent (module table) for ``rules``.

    Parameters
    ----------
    policy : int, policy, path or callable
        A policy :func:`pigtheory.stopping.as_turn_policy` reads (thresholds, mixed, stopping
        rules, a solver's result), a policy file, or ``f(own, *others) -> k`` (hold at k).
    rules : Rules

    Returns
    -------
    SimultaneousOpponent

    Examples
    --------
    >>> from pigtheory import Rules
    >>> simultaneous_opponent(20, rules=Rules()).name
    '20'
    """
    policy = _from_file(policy, rules)
    if _is_callable_policy(policy) and not hasattr(policy, "policy"):
        return SimultaneousOpponent(policy, getattr(policy, "__name__", "callable"))
    return SimultaneousOpponent(as_turn_policy(policy, rules), str(policy))
