"""The compact form of a symmetric strategy and of its values: one table by *view* ``[c, i]``.

Shapes
------
c is the column of the others' sorted scores (``others[c]``, colex order,
:mod:`pigtheory.simultaneous.symmetric.kernels`), i the own score. :class:`ViewTable` holds a
value per view (``(S, goal + 1)``) and reads ``value[i, j, k]`` own score first;
:class:`SymmetricPolicy` holds a threshold per view (``(S, goal)``), or ``-(1 + e)`` where the
view mixes over ``mix_thresholds[e]`` with ``mix_weights[e]``. :func:`layout` gives the
layout's tables for a set of rules, :func:`full_columns` the columns of a full array.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from ...guard import Estimate, check_memory
from ...policies import MixedPolicy
from ...results import Saveable, freeze
from ...rules import Rules
from ...turn_totals import turn_total_table
from .kernels import binomials, multisets, ranks

__all__ = ["layout", "full_columns", "SymmetricPolicy", "ViewTable"]


@lru_cache(maxsize=8)
def layout(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(binom, others, bust, band)`` of the compact layout for ``rules`` (read-only, cached).

    Parameters
    ----------
    rules : Rules
        One die, ``players`` players.

    Returns
    -------
    binom : numpy.ndarray of int
        Binomial coefficients for ranking sorted score tuples
        (:func:`~pigtheory.simultaneous.symmetric.kernels.binomials`).
    others : numpy.ndarray of int, shape ``(S, players - 1)``
        The others' sorted scores of each column, in colex order.
    bust : numpy.ndarray, shape ``(goal + 1,)``
        ``P(X_k = 0)``.
    band : numpy.ndarray, shape ``(goal + 1, m)``
        ``P(X_k = k + r)`` (:func:`pigtheory.turn_total_table`).
    """
    g, n = rules.goal, rules.players
    tab = turn_total_table(rules.replace(players=2))
    out = (
        binomials(g, n),
        multisets(g + 1, n - 1),
        np.ascontiguousarray(tab.bust, dtype=float),
        np.ascontiguousarray(tab.band, dtype=float),
    )
    for a in out:
        a.setflags(write=False)
    return out


def full_columns(rules: Rules, size: int) -> np.ndarray:
    """Column of every tuple of the others' scores in ``0..size - 1``.

    Parameters
    ----------
    rules : Rules
    size : int
        Scores ``0..size - 1`` per other player (``goal + 1`` for values, ``goal`` for
        policies).

    Returns
    -------
    numpy.ndarray of int, shape ``(size,) * m``, m = players - 1
        ``cols[j, k, ...]``: the view column of the others' scores (j, k, ...), any order.
    """
    m = rules.players - 1
    tuples = np.indices((size,) * m).reshape(m, -1).T
    return ranks(tuples, layout(rules)[0]).reshape((size,) * m)


@dataclass(frozen=True, eq=False)
class SymmetricPolicy(Saveable):
    """A symmetric (mixed) policy in the compact layout of the module docstring.

    Attributes
    ----------
    actions : numpy.ndarray of int, shape ``(S, goal)``
        ``actions[c, i]``: the threshold of the player with own score i facing the others'
        scores of column c; ``-(1 + e)`` when it mixes over row e of the mix tables; 0 where
        some other player is at the goal.
    mix_thresholds : numpy.ndarray of int, shape ``(E, W)``
        Row e: the thresholds of mix e.
    mix_weights : numpy.ndarray, shape ``(E, W)``
        Their probabilities (weight-0 padding).
    rules : Rules
    name : str
    """

    actions: np.ndarray
    mix_thresholds: np.ndarray
    mix_weights: np.ndarray
    rules: Rules
    name: str = "symmetric policy"

    def __post_init__(self) -> None:
        freeze(self)

    def column(self, others: Any) -> int:
        """Column (the first index of ``actions``) of the others' scores (any order, each in
        ``0..goal``)."""
        o = np.asarray(others, dtype=np.int64)
        g, m = self.rules.goal, self.rules.players - 1
        if o.shape != (m,) or np.any(o < 0) or np.any(o > g):
            raise ValueError(f"others: {m} scores in 0..{g} expected, got {others!r}")
        return int(ranks(o, layout(self.rules)[0]))

    def strategy(self, own: int, *others: int) -> dict[int, float]:
        """``{threshold: probability}`` of the player with score ``own`` facing ``others``."""
        if not 0 <= own < self.rules.goal:
            raise ValueError(f"own: a score in 0..{self.rules.goal - 1} expected, got {own!r}")
        code = int(self.actions[self.column(others), own])
        if code == 0:
            raise ValueError(f"state {(own, *others)}: terminal (some player has reached the goal)")
        if code > 0:
            return {code: 1.0}
        e = -code - 1
        return {
            int(k): float(p)
            for k, p in zip(self.mix_thresholds[e], self.mix_weights[e], strict=True)
            if p > 0
        }

    @cached_property
    def _mixed(self) -> MixedPolicy:
        g = self.rules.goal
        codes = np.moveaxis(self.actions[full_columns(self.rules, g)], -1, 0)
        used = self.mix_weights > 0
        width = max(1, int(used.sum(axis=1).max())) if used.size else 1
        # one row per code: the mixes (code -(1 + e) -> row e), then "threshold k" (code k ->
        # row E + k), so that the full arrays are one gather
        n_mix = self.mix_thresholds.shape[0]
        th_rows = np.ones((n_mix + g + 1, width), dtype=np.int64)
        w_rows = np.zeros((n_mix + g + 1, width))
        th_rows[:n_mix] = self.mix_thresholds[:, :width]
        w_rows[:n_mix] = self.mix_weights[:, :width]
        th_rows[n_mix:, 0] = np.arange(g + 1)
        w_rows[n_mix:, 0] = 1.0
        row = np.where(codes > 0, n_mix + codes, -codes - 1)
        row[row < 0] += n_mix
        return MixedPolicy(th_rows[row], w_rows[row], self.name)

    @property
    def thresholds(self) -> np.ndarray:
        """``thresholds`` of :meth:`to_mixed` (built on first use), as a MixedPolicy has them."""
        return self._mixed.thresholds

    @property
    def weights(self) -> np.ndarray:
        """``weights`` of :meth:`to_mixed` (built on first use), as a MixedPolicy has them."""
        return self._mixed.weights

    def to_mixed(self) -> MixedPolicy:
        """The same policy as a :class:`~pigtheory.policies.MixedPolicy` over
        ``(goal,) * players`` (own score first), what every solver and the simulator read.

        Returns
        -------
        MixedPolicy
            ``thresholds`` and ``weights`` of shape ``(goal,) * players + (W,)``; built on the
            first call and shared by later ones (it is immutable).
        """
        return self._mixed


@dataclass(frozen=True, eq=False)
class ViewTable(np.lib.mixins.NDArrayOperatorsMixin):
    """An array over every state, own score first, stored by view (module Shapes).

    ``view[i, j, k, ...]`` is the entry of the player with own score i facing the others'
    scores j, k, ... (any order): ``table[c, i]`` with c the column of the sorted others. An
    index of one score per player reads the table directly; anything else (a slice,
    ``numpy.asarray(view)``, arithmetic) builds the full array, ``(size,) * players``, first
    (checked against the memory guard).

    Attributes
    ----------
    table : numpy.ndarray, shape ``(S, size)``
        By view: ``table[c, i]``.
    rules : Rules
    """

    table: np.ndarray
    rules: Rules

    def __post_init__(self) -> None:
        freeze(self)

    @property
    def shape(self) -> tuple[int, ...]:
        """``(size,) * players``: the full array's shape."""
        return (self.table.shape[1],) * self.rules.players

    @property
    def ndim(self) -> int:
        """``players``."""
        return self.rules.players

    @property
    def dtype(self) -> np.dtype:
        """The table's dtype."""
        return self.table.dtype

    def __len__(self) -> int:
        return self.table.shape[1]

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        size = self.table.shape[1]
        n = self.rules.players
        check_memory(
            Estimate(
                f"full array of a symmetric result (goal {self.rules.goal}, {n} players)",
                size**n,
                self.table.itemsize * size**n,
                "index one state at a time (view[i, j, ...]) or read view.table, stored by view",
            )
        )
        full = np.moveaxis(self.table[full_columns(self.rules, size)], -1, 0)
        return full if dtype is None else full.astype(dtype)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """Arithmetic and comparisons (``a - b``, ``a >= 0``) on the full arrays."""
        args = [np.asarray(x) if isinstance(x, ViewTable) else x for x in inputs]
        return getattr(ufunc, method)(*args, **kwargs)

    def __getitem__(self, key: Any) -> Any:
        n, size = self.rules.players, self.table.shape[1]
        if isinstance(key, tuple) and len(key) == n and all(isinstance(k, (int, np.integer)) for k in key):
            if any(not -size <= k < size for k in key):
                raise IndexError(f"index {key} out of range for shape {self.shape}")
            own, *others = (int(k) % size for k in key)
            return self.table[int(ranks(np.array(others), layout(self.rules)[0])), own]
        return np.asarray(self)[key]

    def __repr__(self) -> str:
        return f"ViewTable(shape={self.shape}, stored by view as {self.table.shape})"
