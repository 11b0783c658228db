"""An agent of the environments as a pigtheory policy: its table or callable, read at every
canonical state, so that the exact solvers (and the referee) can score it.

Shapes
------
Sequential: the agent's observation at the canonical state ``(i, j, k)`` is ``[i, j, k, 0]``
(:mod:`pigtheory.envs.gym_sequential`); the result is a roll table ``roll[i, j, k]`` of shape
``(goal, goal, goal)``, True where the agent rolls, which
:func:`pigtheory.sequential.compare` and :func:`pigtheory.sequential.roll_table` read.
Simultaneous (threshold actions): the observation at the own-centric state ``s`` is ``s``
itself; the result is a :class:`~pigtheory.ThresholdTable` of shape ``(goal,) * players``.

Examples
--------
>>> from pigtheory import Rules, hold_at, sequential
>>> rules = Rules(goal=10)
>>> table = sequential_agent_table(lambda obs: int(obs[2] < 4), rules=rules)
>>> bool((table == sequential.roll_table(hold_at(4), rules)).all())
True
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from ..guard import Estimate, check_memory
from ..policies import ThresholdTable
from ..rules import Rules
from ._support import check_env_rules

__all__ = ["sequential_agent_table", "simultaneous_agent_table"]


def sequential_agent_table(agent: Callable[[np.ndarray], Any] | np.ndarray, *, rules: Rules) -> np.ndarray:
    """The roll table of a sequential agent (module Shapes).

    Parameters
    ----------
    agent : callable or numpy.ndarray
        ``agent(obs) -> action`` (0 hold, 1 roll) on observations ``[i, j, k, 0]``, or action
        values ``q[i, j, k, a]`` of shape at least ``(goal, goal, goal, 2)`` (a Q-table over the
        observation's first three fields), read greedily (roll where ``q[..., 1] > q[..., 0]``).
    rules : Rules
        Two players.

    Returns
    -------
    numpy.ndarray of bool, shape ``(goal, goal, goal)``
        True where the agent rolls; at ``k = 0`` it rolls (holding there is illegal and plays as
        a roll), and where ``i + k >= goal`` (a win) the table is False. Read-only.
    """
    check_env_rules(rules, players=2)
    g = rules.goal
    check_memory(Estimate(f"agent's roll table ({rules})", g**3, 64 * g**3 + 10**6, "lower the goal"))
    if isinstance(agent, np.ndarray) and agent.dtype.kind not in "biuf":
        raise ValueError(f"agent: a Q-table holds real numbers, got dtype {agent.dtype}")
    i, j, k = np.indices((g, g, g))
    live = i + k < g
    if isinstance(agent, np.ndarray):
        q = np.asarray(agent, dtype=float)
        if q.ndim != 4 or q.shape[3] != 2 or any(q.shape[d] < g for d in range(3)):
            raise ValueError(f"agent: a Q-table of shape (goal, goal, goal, 2) or larger, got {q.shape}")
        q = q[:g, :g, :g]
        if np.isnan(q[live]).any():
            raise ValueError("agent: the Q-table holds NaN at a state where the agent must choose")
        roll = q[..., 1] > q[..., 0]
    elif callable(agent):
        roll = np.zeros((g, g, g), dtype=bool)
        for a, b, c in zip(i[live], j[live], k[live], strict=True):
            act = _agent_int(agent(np.array([a, b, c, 0], dtype=np.int64)), (a, b, c), "actions are 0 and 1")
            if act not in (0, 1):
                raise ValueError(
                    f"agent: returned action {act!r} at state {(int(a), int(b), int(c))}; actions are 0 and 1"
                )
            roll[a, b, c] = act == 1
    else:
        raise ValueError(f"agent: a callable or a Q-table, got {type(agent).__name__}")
    roll = (roll | (k == 0)) & live
    roll.setflags(write=False)
    return roll


def simultaneous_agent_table(
    agent: Callable[[np.ndarray], Any], *, rules: Rules, name: str = "agent"
) -> ThresholdTable:
    """The threshold table of a simultaneous agent with threshold actions (module Shapes).

    Parameters
    ----------
    agent : callable
        ``agent(obs) -> k`` on observations ``[own, others...]``.
    rules : Rules
    name : str
        The table's name.

    Returns
    -------
    ThresholdTable
        ``table[s] = min(agent(s), goal - own)`` at every own-centric state ``s``.
    """
    if not callable(agent):
        raise ValueError(f"agent: a callable obs -> threshold, got {type(agent).__name__}")
    check_env_rules(rules)
    if not isinstance(name, str):
        raise ValueError(f"name must be a str, got {name!r:.80}")
    g, n = rules.goal, rules.players
    check_memory(Estimate(f"agent's threshold table ({rules})", g**n, 16 * g**n + 10**6, "lower the goal"))
    table = np.zeros((g,) * n, dtype=np.int64)
    for s in np.ndindex(*table.shape):
        k = _agent_int(agent(np.array(s, dtype=np.int64)), s, "thresholds are integers >= 1")
        if k < 1:
            raise ValueError(f"agent: returned threshold {k} at state {s}; thresholds are >= 1")
        table[s] = min(k, g - s[0])
    return ThresholdTable(table, name=name)


def _agent_int(value: Any, state: tuple, allowed: str) -> int:
    """An agent's answer as an int: an integer (numpy's too), or a float that is one (1.0);
    anything else (1.7, None, 'roll') is refused with the state it was asked at."""
    try:
        return operator.index(value)
    except TypeError:
        pass
    try:
        f = float(value)
    except (TypeError, ValueError):
        f = None
    if f is not None and f.is_integer():
        return int(f)
    raise ValueError(f"agent: returned {value!r:.40} at state {tuple(int(x) for x in state)}; {allowed}")
