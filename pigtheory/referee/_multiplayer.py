"""The referee with n >= 3 players: the multiplayer sequential machinery
(:mod:`pigtheory.sequential.multiplayer.profile_kernels`) on any profile of stochastic stationary
policies, one table per seat.

Shapes
------
A seat's table ``roll[t_0, t_1, ..., t_{n-1}, k]`` is seen by that seat when it moves (own
score first, the others in turn order, the turn total), as in :mod:`.profile`; flat, it is
``probs[s, idx, k]`` with ``idx`` the tuple's index in C order (the notation of
:mod:`pigtheory.sequential.multiplayer.equilibrium`). ``U[idx, delta]``: one seat's start-of-turn value at
tuple ``idx`` when the mover is ``delta`` seats before it.

Notes
-----
Fix one seat s. With the others' policies fixed, every state ``(tuple, k)`` with the mover
``delta`` seats before s has one value for s, and the rotation groups are solved from the
highest score sum down (:func:`~pigtheory.sequential.multiplayer.profile_kernels.profile_response_level`):
around a group the others' turns are affine maps of the value after them, and s's own turn is
either followed (evaluation, one division) or best responded to (policy iteration on a
one-dimensional fixed point). It is the method of the NashConv certificate of
:func:`pigtheory.sequential.equilibrium`, whose specialised kernel reads the equilibrium's packed
policy; on an equilibrium's policy the two give the same best-response values (tested). A cycle of turns that
nobody leaves (everybody passes or busts for sure) never ends: a draw, worth ``1/n`` to each.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..jit import compiled
from ..rules import Rules
from ..sequential.model import roll_model

__all__ = ["stack_tables", "seat_values", "seat_turns"]


def stack_tables(tables: list[np.ndarray], rules: Rules) -> np.ndarray:
    """``probs[s, idx, k]``, float64, C-contiguous: one table if every seat plays the same one."""
    n, g = rules.players, rules.goal
    if all(t is tables[0] for t in tables):
        return np.ascontiguousarray(np.asarray(tables[0], dtype=np.float64).reshape(1, g**n, g))
    return np.ascontiguousarray(np.stack(tables).astype(np.float64, copy=False).reshape(n, g**n, g))


def _model(rules: Rules) -> tuple[np.ndarray, float]:
    model = roll_model(rules)
    return np.ascontiguousarray(model.free_vector(), dtype=np.float64), float(model.p_bust)


def _turn(rules: Rules) -> Any:
    """The :class:`~pigtheory.sequential.multiplayer.group_kernels.Turn` of the referee's game (the mover
    may pass at turn total 0, as in OpenSpiel's ``pig``)."""
    from ..sequential.multiplayer.group_kernels import Turn

    return Turn(*_model(rules), True, 1e-13)


def _no_policy() -> Any:
    """An empty shared :class:`~pigtheory.sequential.multiplayer.certificate_kernels.Policy`: the kernels
    read the per-seat tables ``probs``."""
    from ..sequential.multiplayer.certificate_kernels import Policy

    return Policy(
        np.zeros((1, 1), dtype=np.uint8),
        np.zeros(0, dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        np.zeros(0),
    )


def seat_values(
    probs: np.ndarray, seat: int, rules: Rules, *, follow: bool, draw: float, max_iter: int = 200
) -> tuple[np.ndarray, np.ndarray]:
    """``(U, out)``: seat ``seat``'s start-of-turn values ``U[idx, delta]`` (its own policy
    followed, or its best response), and the kernel's counters [passes, groups stopped at
    ``max_iter``, cycles never left]."""
    from ..sequential.multiplayer import group_kernels as gk
    from ..sequential.multiplayer import profile_kernels as ck

    n, g = rules.players, rules.goal
    order, _ = compiled(gk.level_order)(n, g)
    U = np.zeros((g**n, n))
    out = np.zeros(3)
    dev = ck.Deviator(seat, follow, draw, max_iter)
    compiled(ck.profile_response_level)(order, n, g, _turn(rules), _no_policy(), probs, dev, U, out)
    return U, out


def seat_turns(probs: np.ndarray, seat: int, rules: Rules, U: np.ndarray, *, follow: bool) -> tuple[Any, Any]:
    """``(value, choice)`` of shape ``(goal,) * (players + 1)``: seat ``seat``'s value when it
    moves at every state (NaN where ``own + k >= goal``), and, best responding, its choices."""
    from ..sequential.multiplayer import profile_kernels as ck

    n, g = rules.players, rules.goal
    value = np.full((g**n, g), np.nan)
    choice = np.zeros((g**n, g), dtype=np.bool_)
    dev = ck.Deviator(seat, follow, 0.0, 0)  # (draw and max_passes: not read by turn_table)
    compiled(ck.turn_table)(n, g, _turn(rules), dev, _no_policy(), probs, U, value, choice)
    shape = (g,) * (n + 1)
    return value.reshape(shape), choice.reshape(shape)
