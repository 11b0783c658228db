"""Symmetric Markov equilibria of n-player simultaneous Pig over hold-at thresholds.

Shapes
------
A symmetric strategy reads the player's own score i and the multiset of the others' scores,
so it is stored compactly, by *view* ``[c, i]``: c is the column of the others' sorted scores
(``others[c]``, colex order, :mod:`pigtheory.simultaneous.symmetric.kernels`), i the
own score. ``value.table`` ``(S, goal + 1)``: the win probability of the player at
``(i, others[c])``; ``policy.actions`` ``(S, goal)``: its threshold, or ``-(1 + e)`` when it
mixes over ``policy.mix_thresholds[e]`` with ``policy.mix_weights[e]`` (0 where some other
player is at the goal); ``gain`` ``(S, goal)``: its certificate (below).
``S = C(goal + players - 1, players - 1)``: 5,151 columns for three players at goal 100,
176,851 for four.

``value`` is a :class:`~.policy.ViewTable`: ``value[i, j, k]`` reads the player with score i, the others
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
:mod:`pigtheory.simultaneous.symmetric.stage`).

*Threads.* With the compiled engine the states are solved on
:func:`pigtheory.jit.thread_count` threads (three players or more): thread j takes every
``threads``-th largest score and walks its states in the serial order, waiting where they
depend on another thread's (:class:`~.pipeline.Pipeline`). The mix entries are then numbered as a
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

import os
import threading
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from ...engine import ENGINES, choose_engine
from ...guard import BASE_BYTES, FEWER, Estimate, check_memory, players_text, with_roll_model
from ...jit import thread_count
from ...progress import progress_bar
from ...results import Result
from ...rules import Rules
from ...validation import check_choice, check_progress, check_simultaneous_rules, check_tol
from ..core import TIE_TOL
from ..core.step import band_of
from . import stage as symmetric_stage
from .continuation import SPARES, view_cache
from .kernels import descending_multisets, multisets, ranks, terminal_table
from .pipeline import Merged, Pipeline
from .policy import SymmetricPolicy, ViewTable, layout

__all__ = ["estimate_memory", "SymmetricEquilibrium", "symmetric_equilibrium"]

_CHUNK = 2048  # states per kernel call at most (progress bar steps)
_INTERPRETED_COST = 100  # interpreted loops cost about this many numpy state-action pairs


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
    merged = Merged(symmetric_stage.WIDTH)
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
            Pipeline(states, workers, lock).run(lambda lo, hi, own: solve_run(lo, hi, own, bar), scratch)
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
