"""The table helpers of the policies: a state's index in a broadcastable table, the own
scores, entries at many states, and the checks of a threshold table (integers, within
``1..goal - own``, of a shape the rules allow). Shapes are :mod:`pigtheory.policies`'.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..rules import Rules

__all__ = [
    "state_index",
    "own_scores",
    "take_at_states",
    "state_shape_ok",
    "validate_thresholds",
    "integer_array",
    "readonly",
]


def state_index(shape: tuple[int, ...], scores: tuple[int, ...]) -> tuple[int, ...]:
    """Index of a state in a table of ``shape`` (axes of length 1 broadcast), checked."""
    if len(scores) != len(shape):
        raise ValueError(f"scores: {len(shape)} scores expected (own first), got {scores!r}")
    out = []
    for s, n in zip(scores, shape, strict=True):
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool) or s < 0:
            raise ValueError(f"scores: non-negative integers expected, got {scores!r}")
        if n > 1 and s >= n:
            raise ValueError(f"scores: {s} is past the table (scores 0..{n - 1})")
        out.append(0 if n == 1 else int(s))
    return tuple(out)


def own_scores(rules: Rules) -> np.ndarray:
    return np.arange(rules.goal).reshape((rules.goal,) + (1,) * (rules.players - 1))


def take_at_states(arr: np.ndarray, states: tuple[np.ndarray, ...]) -> np.ndarray:
    """Entries of a broadcastable state table (last axis: components, e.g. a mixture's
    thresholds) at the given states; axes of length 1 broadcast.

    Parameters
    ----------
    arr : numpy.ndarray, shape ``(goal or 1,) * players + (S,)``
    states : tuple of int arrays, one per player (own score first)
        Broadcast together to ``states_shape``.

    Returns
    -------
    numpy.ndarray, shape ``states_shape + (S,)``
    """
    idx = tuple(
        np.asarray(s) if arr.shape[d] > 1 else np.zeros_like(np.asarray(s)) for d, s in enumerate(states)
    )
    return arr[idx]


def state_shape_ok(shape: tuple[int, ...], rules: Rules) -> bool:
    full = (rules.goal,) * rules.players
    return shape in (full, (rules.goal,))


def validate_thresholds(th: np.ndarray, rules: Rules, clip: bool) -> np.ndarray:
    own = own_scores(rules).reshape((rules.goal,) + (1,) * (th.ndim - 1))
    room = rules.goal - own
    if clip:
        th = np.minimum(th, room)
    if np.any(th < 1) or np.any(th > room):
        bad = np.argwhere((th < 1) | (th > np.broadcast_to(room, th.shape)))[0]
        raise ValueError(
            f"policy: thresholds must lie in 1..goal - own score; at state {tuple(int(b) for b in bad[:-1])} "
            f"the threshold is {int(th[tuple(bad)])} (allowed 1..{rules.goal - int(bad[0])})"
        )
    return th


def integer_array(name: str, values: Any) -> np.ndarray:
    """``values`` as an int64 array; booleans, fractions and non-numbers are refused."""
    a = np.array(values)
    integral = a.dtype.kind in "iu" or (
        a.dtype.kind == "f" and bool(np.all(np.isfinite(a))) and bool(np.all(a == np.round(a)))
    )
    if not integral:
        kind = "booleans" if a.dtype.kind == "b" else f"values of type {a.dtype}"
        if a.dtype.kind == "f":
            kind = "non-integer numbers"
        raise ValueError(f"policy: {name} must hold integers (thresholds), got {kind}")
    return a.astype(np.int64, copy=False)  # a is already a copy


def readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a
