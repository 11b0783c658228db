"""Symmetric Markov equilibria of n-player simultaneous Pig over hold-at thresholds.

Shapes
------
A symmetric strategy reads the player's own score i and the multiset of the others' scores,
so it is stored compactly, by *view* ``[c, i]``: c is the column of the others' sorted scores
(``others[c]``, colex order, :mod:`pigtheory.simultaneous.core.symmetric_kernels`), i the
own score. ``value.table`` ``(S, goal + 1)``: the win probability of the player at
``(i, others[c])``; ``policy.actions`` ``(S, goal)``: its threshold, or ``-(1 + e)`` when it
mixes over ``policy.mix_thresholds[e]`` with ``policy.mix_weights[e]`` (0 where some other
player is at the goal); ``gain`` ``(S, goal)``: its certificate (below).
``S = C(goal + players - 1, players - 1)``: 5,151 columns for three players at goal 100,
176,851 for four.

``value`` is a :class:`ViewTable`: ``value[i, j, k]`` reads the player with score i, the others
having j and k (ties sharing 1/m), own score first, straight from the table; the full array
``(goal + 1,) * players`` (``numpy.asarray(value)``) and the policy as a
:class:`~pigtheory.policies.MixedPolicy` over ``(goal,) * players`` (``policy.to_mixed()``) are
built on request. For four players at goal 100 they take 0.8 GB and more: index single states,
or use :meth:`SymmetricEquilibrium.at` and :meth:`~SymmetricEquilibrium.strategy`.

Notes
-----
Scores never decrease, so the game is a DAG over sorted score tuples plus one self-loop per
state (everybody busts); players with equal scores are interchangeable. Backward induction
from the goal down solves, at each state s, the stage game among its *roles* (the distinct
scores; the players of a role share one strategy) with every successor's value known. Under
stationary mixed actions :math:`\\sigma` a player of role r is worth

.. math:: V_r(s) = \\frac{\\sum_k \\sigma_r(k)\\, a_r(k; \\sigma_{-r})}{1 - b_r B_r},

:math:`a_r` its expected value over every outcome but the double bust,
:math:`b_r = \\sum_k \\sigma_r(k) P(X_k = 0)` and :math:`B_r` the chance that all its others
bust: the fixed point of the one-state game in the state's own values. Pure equilibria come
from best-response search, mixed ones from the indifference conditions (Newton's method,
support enumeration, fictitious play as the last resort;
:mod:`pigtheory.simultaneous.core.symmetric_stage`).

*Threads.* With the compiled engine the states are solved on
:func:`pigtheory.jit.thread_count` threads (three players or more): thread j takes every
``threads``-th largest score and walks its states in the serial order, waiting where they
depend on another thread's (``_Pipeline``). The mix entries are then numbered as a
serial solve numbers them, so the result has the same bits on any number of threads
(``with pigtheory.jit.threads(1):`` runs it serially).

*Certificate.* ``gain[c, i]`` is the most the player at that view gains at the state by the
exact best stationary reply over every threshold, :math:`\\max_k a_r(k) / (1 - P(X_k = 0)
B_r) - V_r`; a state's epsilon is the largest over its players, and ``residual`` the largest
over all states. Since every successor is already an equilibrium, a profile whose epsilon is
0 everywhere is a subgame-perfect (Markov perfect) equilibrium (one-shot deviation principle);
the global check is :func:`~pigtheory.simultaneous.symmetric_best_response`.

References
----------
J. Nash, "Non-cooperative games", Annals of Mathematics 54 (1951) 286-295.
L. S. Shapley, "Stochastic games", PNAS 39 (1953) 1095-1100.
R. Porter, E. Nudelman & Y. Shoham, "Simple search methods for finding a Nash equilibrium",
Games and Economic Behavior 63 (2008) 642-662.
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): "Three players", eqs. (18)-(19),
Algorithm 0.3 (best responses only; no equilibrium of the three-player game).
"""

from __future__ import annotations

import functools
import os
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import comb
from typing import Any

import numpy as np

from ..engine import ENGINES, choose_engine
from ..guard import BASE_BYTES, FEWER, Estimate, check_memory, players_text, with_roll_model
from ..jit import thread_count
from ..policies import MixedPolicy
from ..progress import progress_bar
from ..results import Result, Saveable, freeze
from ..rules import Rules
from ..turn_total import turn_total_table
from ..validation import check_choice, check_progress, check_simultaneous_rules, check_tol
from .core import TIE_TOL, symmetric_stage
from .core.step import band_of
from .core.symmetric_kernels import (
    SPARES,
    binomials,
    descending_multisets,
    multisets,
    ranks,
    terminal_table,
    view_cache,
)

__all__ = [
    "estimate_memory",
    "SymmetricPolicy",
    "ViewTable",
    "SymmetricEquilibrium",
    "symmetric_equilibrium",
    "layout",
    "full_columns",
]

_CHUNK = 2048  # states per kernel call at most (progress bar steps)
_INTERPRETED_COST = 100  # interpreted loops cost about this many numpy state-action pairs


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
        (:func:`~pigtheory.simultaneous.core.symmetric_kernels.binomials`).
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


def _deprecated(old: str, new: str) -> None:
    warnings.warn(f"{old} is deprecated; use {new}", DeprecationWarning, stacklevel=3)


@dataclass(frozen=True, eq=False)
class SymmetricEquilibrium(Result):
    """A symmetric Markov equilibrium of n-player simultaneous Pig (module docstring).

    The papers solve best responses only for three players (Zhu, Ma, Chen & Liu 2023,
    Algorithm 0.3, eqs. (18)-(19)); an equilibrium of the n-player game has no equation there.

    Attributes
    ----------
    value : ViewTable
        ``value[i, j, ...]``: the win probability of the player with score i, the others
        having j, ... (any order), ties sharing 1/m; shape ``(goal + 1,) * players``, stored
        by view (``value.table[c, i]``, module Shapes).
    gain : numpy.ndarray, shape ``(S, goal)``
        Certificates by view.
    policy : SymmetricPolicy
        The equilibrium strategy, compact (by view); ``policy.to_mixed()`` is the
        :class:`~pigtheory.policies.MixedPolicy` over ``(goal,) * players``.
    mixed_states : numpy.ndarray of int, shape ``(K, players)``
        The sorted states at which some player mixes.
    iterations : int
        Score levels of the backward induction, ``players * (goal - 1) + 1``.
    residual : float
        The largest certificate (epsilon) over all states.
    method : str
    rules : Rules
    n_states : int
        Sorted non-terminal states.
    n_pure : int
        Those with a pure equilibrium.
    n_mixed : int
        Those with a mixed one.
    n_fallback : int
        States whose mixed equilibrium needed fictitious play (their epsilon says how well
        it ended).
    largest_support : int
        The most thresholds any player mixes over.
    epsilon_start : float
        The certificate at ``(0, ..., 0)``.

    ``table`` and ``strategy_table`` (the names before issue 20) are deprecated properties:
    ``value.table`` and ``policy``.
    """

    value: ViewTable
    gain: np.ndarray
    policy: SymmetricPolicy
    mixed_states: np.ndarray
    iterations: int
    residual: float
    method: str
    rules: Rules
    n_states: int
    n_pure: int
    n_mixed: int
    n_fallback: int
    largest_support: int
    epsilon_start: float

    @property
    def table(self) -> np.ndarray:
        """Deprecated: ``value.table``, the values by view ``(S, goal + 1)``."""
        _deprecated("SymmetricEquilibrium.table", "value.table (value[i, j, ...] reads it by state)")
        return self.value.table

    @property
    def strategy_table(self) -> SymmetricPolicy:
        """Deprecated: ``policy``."""
        _deprecated("SymmetricEquilibrium.strategy_table", "policy")
        return self.policy

    @classmethod
    def _legacy_fields(cls, fields: dict[str, Any]) -> dict[str, Any]:
        """The fields of a file saved before issue 20 (``table``, ``strategy_table``)."""
        fields = dict(fields)
        if "table" in fields:
            fields["value"] = ViewTable(fields.pop("table"), fields["rules"])
        if "strategy_table" in fields:
            fields["policy"] = fields.pop("strategy_table")
        return fields

    def at(self, *scores: int) -> tuple[float, ...]:
        """The players' win probabilities at the state ``scores`` (seat order)."""
        self._check_state(scores)
        return tuple(
            float(self.value.table[self.policy.column(scores[:p] + scores[p + 1 :]), scores[p]])
            for p in range(len(scores))
        )

    def strategy(self, *scores: int) -> dict[int, float]:
        """``{threshold: probability}`` of the first player of ``scores`` (own score first)."""
        self._check_state(scores)
        return self.policy.strategy(scores[0], *scores[1:])

    def epsilon_at(self, *scores: int) -> float:
        """The state's certificate: the most any of its players gains by a best reply there."""
        self._check_state(scores)
        if max(scores) >= self.rules.goal:
            return 0.0
        cols = [self.policy.column(scores[:p] + scores[p + 1 :]) for p in range(len(scores))]
        return float(max(self.gain[c, s] for c, s in zip(cols, scores, strict=True)))

    def state_epsilon(self) -> tuple[np.ndarray, np.ndarray]:
        """``(states, epsilon)``: every sorted non-terminal state ``(N, players)`` (colex
        order) and its certificate ``(N,)``."""
        n = self.rules.players
        states = multisets(self.rules.goal, n)
        binom = layout(self.rules)[0]
        eps = np.zeros(states.shape[0])
        for p in range(n):
            cols = ranks(np.delete(states, p, axis=1), binom)
            np.maximum(eps, self.gain[cols, states[:, p]], out=eps)
        return states, eps

    def _check_state(self, scores: tuple[int, ...]) -> None:
        g, n = self.rules.goal, self.rules.players
        if len(scores) != n or any(not isinstance(s, (int, np.integer)) or not 0 <= s <= g for s in scores):
            raise ValueError(f"scores: {n} scores in 0..{g} expected, got {scores!r}")


@with_roll_model(name="symmetric")
def estimate_memory(rules: Any) -> Estimate | None:
    """:func:`~pigtheory.simultaneous.symmetric_equilibrium` and ``symmetric_dynamics``: the
    value, action, gain and start tables over (own score, multiset of the others' scores), the
    view cache of the continuations (one row per column), each thread's spare rows and payoff
    tensors (one thread per core), and the full value array ``value[i, j, ...]`` the result
    builds when asked."""
    if not isinstance(rules, Rules):
        return None
    g, n = rules.goal, rules.players
    states = (g + 1) ** n
    width = symmetric_stage.scratch_width(n)
    gains = band_of(rules).band_t.shape[0]  # the view cache's rows are padded for them
    per_thread = 8 * SPARES * (g + gains + n + 2) + 16 * n * width ** (n - 1) * (g + 1)
    need = 8 * states + (30 * (g + 1) + 8 * (gains - 1) + 8 * n) * comb(g + n - 1, n - 1) + BASE_BYTES
    need += per_thread * (os.cpu_count() or 1)
    return Estimate(f"symmetric equilibrium ({players_text(rules)})", states, need, FEWER)


def symmetric_equilibrium(
    *,
    rules: Rules = Rules(players=3),
    strategies: str = "thresholds",
    tol: float = 1e-12,
    engine: str = "auto",
    progress: bool | None = None,
    max_memory: Any = None,
) -> SymmetricEquilibrium:
    """A symmetric Markov equilibrium of n-player simultaneous Pig, with its certificate.

    Parameters
    ----------
    rules : Rules
        One die, 2 to 5 players (two players give the zero-sum game of
        :func:`~pigtheory.simultaneous.equilibrium`).
    strategies : {"thresholds"}
        The action set: hold at k, ``k = 1..goal - own``.
    tol : float
        A mixed state is accepted once its certificate (the most any player gains by a best
        reply there) is at most ``tol`` (> 0); otherwise more supports are tried, and the
        best profile found is kept with its certificate.
    engine : {"auto", "numba", "numpy"}
        ``"numba"``: compiled loops (the first call compiles for about 40 s of CPU, then numba's
        disk cache loads them); ``"numpy"``: the same loops interpreted (slow; small goals);
        ``"auto"``: numba unless the goal is tiny.
    progress : bool, optional
        A progress bar of the states solved (default: when stderr is a terminal).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    SymmetricEquilibrium
        ``table`` ``(S, goal + 1)`` and ``gain`` ``(S, goal)`` by view ``[c, i]``
        (``S = C(goal + players - 1, players - 1)``); ``value`` ``(goal + 1,) * players`` on
        request.

    Raises
    ------
    ValueError
        Rules that are not one-die simultaneous Pig or have more than 5 players, an unknown
        strategy class or engine, ``tol <= 0``.

    Examples
    --------
    >>> eq = symmetric_equilibrium(rules=Rules(goal=8, players=3))
    >>> [round(v, 12) for v in eq.at(0, 0, 0)], eq.strategy(0, 0, 0), eq.residual < 1e-12
    ([0.333333333333, 0.333333333333, 0.333333333333], {8: 1.0}, True)
    """
    check_simultaneous_rules(rules)
    if rules.players > 5:
        raise ValueError(f"rules.players must be in 2..5 here, got {rules.players}")
    check_choice("strategies", strategies, ("thresholds",))
    tol = check_tol(tol)
    check_choice("engine", engine, ENGINES)
    check_progress(progress)
    check_memory(estimate_memory(rules), max_memory)
    return _solve(rules, tol, engine, progress)


def _runs(states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(top, second, bounds)``: the runs of the states (sorted tuples, by decreasing colex
    rank) that share their largest score ``top`` and second largest ``second``; run j is
    ``states[bounds[j]:bounds[j + 1]]``."""
    key = states[:, -1] * (int(states.max()) + 1) + states[:, -2]
    starts = np.concatenate([[0], np.flatnonzero(np.diff(key)) + 1]).astype(np.int64)
    bounds = np.concatenate([starts, [states.shape[0]]]).astype(np.int64)
    return states[starts, -1], states[starts, -2], bounds


class _Pipeline:
    """The states of a symmetric solve on several threads, in the serial order within each.

    A state's successors (other than itself) are componentwise at least as large sorted
    tuples, so a state with largest score y depends on states whose largest score is y or more
    only, and of those with largest score y + 1 only on the runs (:func:`_runs`) whose second
    largest score is at least its own. Thread j takes the largest scores y with ``(top - y) %
    workers == j`` in turn and walks each one's runs by decreasing second score, as the serial
    solve does; before the run of second score x it waits until each of the next
    ``workers - 1`` larger scores (the other threads') has finished its run of second score x.
    The threads then never touch a view column at the same time (the state of a column with own
    score y + 1 that another thread needs is finished first), so they share the view cache's
    rows; each has its own spares.
    """

    def __init__(self, states: np.ndarray, workers: int, lock: threading.Condition) -> None:
        self.top, self.second, self.bounds = _runs(states)
        self.workers = workers
        self.lock = lock
        self.highest = int(self.top[0])
        # done[y]: the second score of the last run finished with largest score y (y + 1: none)
        self.done = np.arange(self.highest + 1) + 1
        self.failed = False

    def _ready(self, y: int, x: int) -> bool:
        return self.failed or all(
            self.done[z] <= x for z in range(y + 1, min(y + self.workers, self.highest + 1))
        )

    def _work(self, j: int, solve: Any, scratch: Any) -> None:
        own = scratch()
        runs = np.flatnonzero((self.highest - self.top) % self.workers == j)
        try:
            for r in runs:
                y, x = int(self.top[r]), int(self.second[r])
                with self.lock:
                    self.lock.wait_for(functools.partial(self._ready, y, x))
                    if self.failed:
                        return
                solve(int(self.bounds[r]), int(self.bounds[r + 1]), own)
                with self.lock:
                    self.done[y] = x
                    self.lock.notify_all()
        except BaseException:
            with self.lock:
                self.failed = True
                self.lock.notify_all()
            raise

    def run(self, solve: Any, scratch: Any) -> None:
        """``solve(lo, hi, scratch)`` for every run, on ``workers`` threads, each with its own
        ``scratch()``."""
        with ThreadPoolExecutor(self.workers) as pool:
            futures = [pool.submit(self._work, j, solve, scratch) for j in range(self.workers)]
            try:
                for f in futures:
                    f.result()
            except BaseException:
                with self.lock:
                    self.failed = True
                    self.lock.notify_all()
                raise


class _Merged:
    """The mix entries of every kernel call, with the counters summed (the largest support:
    its maximum); :meth:`tables` numbers the entries in the order of a serial solve. (The
    solver starts each state from ``lead``, so no code in ``actions`` is read before then.)"""

    def __init__(self, width: int) -> None:
        self.width = width
        self.th: list[np.ndarray] = []
        self.w: list[np.ndarray] = []
        self.at: list[np.ndarray] = []
        self.visited: list[np.ndarray] = []
        self.counts = np.zeros(len(symmetric_stage.COUNTERS), dtype=np.int64)

    def add(
        self, th: np.ndarray, w: np.ndarray, where: np.ndarray, visited: np.ndarray, counts: np.ndarray
    ) -> None:
        """One call's mix entries (thresholds, weights, views), the states it searched for a
        mix and its counters (copied: the call's tables are reused)."""
        for kept, part in ((self.th, th), (self.w, w), (self.at, where), (self.visited, visited)):
            if part.shape[0]:
                kept.append(part.copy())
        largest = max(self.counts[4], counts[4])
        self.counts += counts
        self.counts[4] = largest

    def tables(
        self, actions: np.ndarray, others: np.ndarray, binom: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(mix_th, mix_w, counts, visited)``, the entries numbered (in ``actions`` too) in
        the order of a serial solve: by decreasing colex rank of the state, then by own score
        (the output does not depend on the runs, calls or threads)."""
        visited = np.concatenate(self.visited) if self.visited else np.zeros(0, dtype=np.int64)
        if not self.th:
            return np.ones((0, self.width), dtype=np.int64), np.zeros((0, self.width)), self.counts, visited
        th, w, at = np.concatenate(self.th), np.concatenate(self.w), np.concatenate(self.at)
        rank = ranks(np.column_stack([others[at[:, 0]], at[:, 1]]), binom)
        order = np.lexsort((at[:, 1], -rank))
        new = np.empty(order.size, dtype=np.int64)
        new[order] = np.arange(order.size)
        actions[at[:, 0], at[:, 1]] = -(1 + new)
        return th[order], w[order], self.counts, visited


def _solve(
    rules: Rules, tol: float, engine: str, progress: bool | None, reuse: bool = True
) -> SymmetricEquilibrium:
    """:func:`symmetric_equilibrium` on checked inputs; ``reuse=False`` sums every continuation
    afresh instead of through the view cache (the reference the tests hold the cache to)."""
    g, n = rules.goal, rules.players
    binom, others, _, _ = layout(rules)
    band = band_of(rules)
    work = comb(g + n - 1, n) * g * _INTERPRETED_COST
    engine = choose_engine(engine, work)
    kernel = symmetric_stage.compiled() if engine == "numba" else symmetric_stage.interpreted()
    states = descending_multisets(g, n, engine)  # decreasing colex rank: successors first
    table = terminal_table(others, g)
    actions = np.zeros((others.shape[0], g), dtype=np.int32)
    gain = np.zeros((others.shape[0], g))
    lead = np.zeros((others.shape[0], g), dtype=np.int16)  # where each state's search starts
    workers = thread_count() if kernel is not symmetric_stage.interpreted() and n >= 3 else 1
    # one view cache; each thread keeps its own spares (the rows: :class:`_Pipeline`)
    gains = band.band_t.shape[0]
    shared = view_cache(others.shape[0] if reuse else 0, g, n - 1, 0, gains=gains)
    spares = SPARES if reuse else 0
    merged = _Merged(symmetric_stage.WIDTH)
    cap = n * _CHUNK + n  # every role of every state of a call may mix
    lock = threading.Condition()

    def scratch() -> tuple[symmetric_stage.StageScratch, symmetric_stage.StageTables]:
        own = view_cache(min(1, shared.rows.shape[0]), g, n - 1, spares, gains=gains)
        views = shared._replace(
            spare=own.spare, spare_keys=own.spare_keys, spare_low=own.spare_low, spare_col=own.spare_col
        )
        tables = symmetric_stage.StageTables(
            table,
            actions,
            gain,
            np.ones((cap, symmetric_stage.WIDTH), dtype=np.int64),
            np.zeros((cap, symmetric_stage.WIDTH)),
            np.zeros((cap, 2), dtype=np.int64),
            np.zeros(len(symmetric_stage.COUNTERS), dtype=np.int64),
            np.zeros(_CHUNK + 1, dtype=np.int64),
            lead,
        )
        return symmetric_stage.stage_scratch(n, g, band, views), tables

    def solve_run(lo: int, hi: int, own: tuple[Any, Any], bar: Any) -> None:
        """States ``lo..hi - 1`` in calls of at most ``_CHUNK``, each merged when it ends, on
        the scratch and tables ``own``."""
        scr, part = own
        for a in range(lo, hi, _CHUNK):
            z = min(a + _CHUNK, hi)
            part.counts[:] = 0
            reached = kernel.solve_states(a, z, states, g, binom, band, TIE_TOL, tol, part, scr)
            assert reached == z, "the mix tables hold every role of every state of a call"
            e, v = int(part.counts[0]), int(part.counts[2])
            with lock:
                merged.add(part.mix_th[:e], part.mix_w[:e], part.mix_at[:e], part.mixed[:v], part.counts)
                bar.update(z - a)

    with progress_bar(states.shape[0], "symmetric equilibrium", progress) as bar:
        if workers == 1:
            solve_run(0, states.shape[0], scratch(), bar)
        else:
            _Pipeline(states, workers, lock).run(lambda lo, hi, own: solve_run(lo, hi, own, bar), scratch)
    mix_th, mix_w, counts, visited = merged.tables(actions, others, binom)
    e = int(counts[0])
    width = max(1, int((mix_w[:e] > 0).sum(axis=1).max())) if e else 1
    strategy = SymmetricPolicy(
        actions, mix_th[:e, :width].copy(), mix_w[:e, :width].copy(), rules, "symmetric equilibrium"
    )
    candidates = states[visited]
    candidates = candidates[np.argsort(ranks(candidates, binom))]  # by increasing colex rank
    mixed = np.zeros(candidates.shape[0], dtype=bool)
    for p in range(n):  # a state the mixed solver visited may still have ended pure
        cols = ranks(np.delete(candidates, p, axis=1), binom)
        mixed |= actions[cols, candidates[:, p]] < 0
    mixed_states = candidates[mixed].copy()
    return SymmetricEquilibrium(
        value=ViewTable(table, rules),
        gain=gain,
        policy=strategy,
        mixed_states=mixed_states,
        iterations=n * (g - 1) + 1,
        residual=float(gain.max()),
        method="exact",
        rules=rules,
        n_states=int(states.shape[0]),
        n_pure=int(states.shape[0] - mixed_states.shape[0]),
        n_mixed=int(mixed_states.shape[0]),
        n_fallback=int(counts[3]),
        largest_support=width,
        epsilon_start=float(gain[0, 0]),  # the view of (0, ..., 0): column 0, own score 0
    )
