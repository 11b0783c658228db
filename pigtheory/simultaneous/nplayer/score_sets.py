"""Opponents' score tuples for the n-player solver: every tuple, or multisets (eq. 19).

A column of the reduced solution is a tuple of the opponents' scores: every tuple in
``0..goal`` when the opponents differ, only the sorted ones (multisets) when they play the
same policy. Columns are in lexicographic order, i.e. sorted by their key (the scores as the
digits of a number in base goal + 1, the first opponent's the most significant);
:func:`score_rank` gives a tuple's column without a search.

The numpy engine applies the opponents' moves one opponent at a time; its intermediate arrays
:math:`A_t` are symmetric in their first t and in their last m - t arguments when the
opponents play the same policy, so their states are pairs of multisets (first group sorted,
second group sorted), looked up by key in the sorted keys of their :class:`Stage`.

Examples
--------
>>> multisets(2, 2).tolist()
[[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]]
>>> tab = rank_table(2, 2, symmetric=True)
>>> [score_rank(s, tab, True) for s in multisets(2, 2)]
[0, 1, 2, 3, 4, 5]
"""

from __future__ import annotations

from math import comb

import numpy as np

__all__ = [
    "score_keys",
    "multisets",
    "score_tuples",
    "rank_table",
    "score_rank",
    "Stage",
    "stages",
    "successors",
]


def score_keys(states: np.ndarray, g: int) -> np.ndarray:
    """Key of each row of scores (last axis): its digits in base ``g + 1``."""
    m = states.shape[-1]
    return (states * (g + 1) ** np.arange(m - 1, -1, -1)).sum(axis=-1)


def multisets(g: int, size: int) -> np.ndarray:
    """Every sorted tuple of ``size`` scores in ``0..g``, in lexicographic order: ``(S, size)``."""
    if size == 0:
        return np.zeros((1, 0), dtype=np.int64)
    rest = multisets(g, size - 1)
    # rest is in lexicographic order, so the rows whose first score is >= v form a suffix.
    starts = np.searchsorted(rest[:, 0], np.arange(g + 1)) if size > 1 else np.zeros(g + 1, dtype=np.int64)
    parts = []
    for v in range(g + 1):
        tail = rest[starts[v] :]
        parts.append(np.hstack([np.full((tail.shape[0], 1), v, dtype=np.int64), tail]))
    return np.vstack(parts)


def score_tuples(g: int, m: int, symmetric: bool) -> np.ndarray:
    """The columns: multisets (``symmetric``) or every tuple, in lexicographic order, ``(S, m)``."""
    if symmetric:
        return multisets(g, m)
    return np.indices((g + 1,) * m).reshape(m, -1).T.copy()


def rank_table(g: int, m: int, symmetric: bool) -> np.ndarray:
    """``tab[L, v]``: how many columns come before one whose remaining L + 1 scores start at v.

    For every tuple, ``v (g + 1)^L``. For multisets, the number of sorted tuples of length
    ``L + 1`` with a first score in ``lo..v - 1`` is ``tab[L, v] - tab[L, lo]``, where
    ``tab[L, v] = sum_{u < v} C(g - u + L, L)`` (the sorted tails of length L over ``u..g``).
    """
    tab = np.zeros((max(m, 1), g + 2), dtype=np.int64)
    for length in range(m):
        if symmetric:
            counts = [comb(g - u + length, length) for u in range(g + 1)]
            tab[length, 1:] = np.cumsum(counts)
        else:
            tab[length] = np.arange(g + 2) * (g + 1) ** length
    return tab


def score_rank(scores: np.ndarray, tab: np.ndarray, symmetric: bool) -> int:
    """Column of a tuple of scores (sorted when ``symmetric``); the compiled kernel has a copy."""
    m = len(scores)
    rank, prev = 0, 0
    for p, s in enumerate(scores):
        rank += int(tab[m - 1 - p, s])
        if symmetric:
            rank -= int(tab[m - 1 - p, prev])
            prev = int(s)
    return rank


class Stage:
    """The state space of A_t: rows of scores, their keys (ascending), and by-sum order."""

    def __init__(self, states: np.ndarray, g: int) -> None:
        keys = score_keys(states, g)
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


def stages(g: int, m: int, symmetric: bool) -> list[Stage]:
    """The state spaces of A_0 (the columns) .. A_{m-1} of the numpy engine."""
    if not symmetric:
        return [Stage(score_tuples(g, m, False), g)] * m
    out = []
    for t in range(m):
        first, second = multisets(g, t), multisets(g, m - t)
        both = np.hstack([np.repeat(first, len(second), axis=0), np.tile(second, (len(first), 1))])
        out.append(Stage(both, g))
    return out


def successors(
    stage: Stage, target: Stage, t: int, moves: tuple[np.ndarray, np.ndarray], g: int, symmetric: bool
) -> tuple[np.ndarray, np.ndarray]:
    """For A_t's states: the A_{t-1} columns after opponent t (position t - 1) moves."""
    new, probs = moves
    e = stage.states[:, t - 1]
    nxt = np.repeat(stage.states[:, None, :], new.shape[1], axis=1)
    nxt[:, :, t - 1] = new[e]
    if symmetric:
        nxt[:, :, t - 1 :] = np.sort(nxt[:, :, t - 1 :], axis=2)
    succ = np.searchsorted(target.keys, score_keys(nxt, g))
    return succ, probs[e]
