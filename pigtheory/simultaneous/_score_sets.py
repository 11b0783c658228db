"""Opponents' score tuples for the n-player solver: every tuple, or multisets (eq. 19).

The solver applies the opponents' moves one opponent at a time; the intermediate arrays
:math:`A_t` are symmetric in their first t and in their last m - t arguments when the
opponents play the same policy, so their states are pairs of multisets (first group sorted,
second group sorted). A state is looked up by its key (the scores as digits in base
goal + 1) in the sorted keys of its stage.
"""

from __future__ import annotations

import itertools

import numpy as np

__all__: list[str] = []


def _keys(states: np.ndarray, g: int) -> np.ndarray:
    m = states.shape[-1]
    return (states * (g + 1) ** np.arange(m - 1, -1, -1)).sum(axis=-1)


def _multisets(g: int, size: int) -> np.ndarray:
    if size == 0:
        return np.zeros((1, 0), dtype=np.int64)
    return np.array(list(itertools.combinations_with_replacement(range(g + 1), size)), dtype=np.int64)


class _Stage:
    """The state space of A_t: rows of scores, their keys (ascending), and by-sum order."""

    def __init__(self, states: np.ndarray, g: int) -> None:
        keys = _keys(states, g)
        order = np.argsort(keys, kind="stable")
        self.states, self.keys = states[order], keys[order]
        live = np.flatnonzero((self.states < g).all(axis=1))
        sums = self.states[live].sum(axis=1)
        by_sum = np.argsort(sums, kind="stable")
        self.live = live[by_sum]
        self.sums = sums[by_sum]
        self.top_sum = self.states.shape[1] * (g - 1)
        self.start = np.searchsorted(self.sums, np.arange(self.top_sum + 2))

    def range_of_sums(self, low: int, high: int) -> tuple[int, int]:
        """Positions in ``live`` of the states whose scores sum to ``low..high``."""
        low, high = max(low, 0), min(high, self.top_sum)
        if low > high:
            return 0, 0
        return int(self.start[low]), int(self.start[high + 1])


def _stages(g: int, m: int, symmetric: bool) -> list[_Stage]:
    if not symmetric:
        full = _Stage(np.indices((g + 1,) * m).reshape(m, -1).T.copy(), g)
        return [full] * m
    out = []
    for t in range(m):
        first, second = _multisets(g, t), _multisets(g, m - t)
        both = np.hstack([np.repeat(first, len(second), axis=0), np.tile(second, (len(first), 1))])
        out.append(_Stage(both, g))
    return out


def _successors(
    stage: _Stage, target: _Stage, t: int, moves: tuple[np.ndarray, np.ndarray], g: int, symmetric: bool
) -> tuple[np.ndarray, np.ndarray]:
    """For A_t's states: the A_{t-1} columns after opponent t (position t - 1) moves."""
    new, probs = moves
    e = stage.states[:, t - 1]
    nxt = np.repeat(stage.states[:, None, :], new.shape[1], axis=1)
    nxt[:, :, t - 1] = new[e]
    if symmetric:
        nxt[:, :, t - 1 :] = np.sort(nxt[:, :, t - 1 :], axis=2)
    succ = np.searchsorted(target.keys, _keys(nxt, g))
    return succ, probs[e]
