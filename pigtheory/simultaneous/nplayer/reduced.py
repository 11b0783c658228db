"""Fast exact best response for n-player simultaneous Pig (Algorithm 0.3), with symmetry.

Shapes
------
The opponents' scores ``j = (j1, ..., jm)`` (m = players - 1, each in ``0..goal``) are stored
as rows of ``states`` (shape ``(S, m)``): every tuple when the opponents differ, only sorted
tuples (multisets) when they play the same policy (eq. 19). ``value[i, s]`` is the player's
win probability at own score ``i`` (``0..goal``) and opponents' scores ``states[s]``;
``policy[i, s]`` its threshold (``i < goal``; 0 where an opponent is at the goal). Rows of
``states`` are in lexicographic order. :meth:`ReducedSolution.expand` gives the full arrays of
:func:`pigtheory.simultaneous.best_response` (which routes here when the fast path applies).

Memory: 4 players at goal 100 (identical opponents) have 176,851 columns; the reduced value
and policy take 160 MB, and the compiled engine needs nothing else worth counting (the numpy
engine peaks near 0.9 GB). :meth:`~ReducedSolution.expand` of that solution allocates the
full value and policy arrays, another 1.6 GB: keep the reduced form there, and use
:meth:`~ReducedSolution.at` or :meth:`~ReducedSolution.column` to read it.

Engines
-------
``engine="numba"`` (:mod:`pigtheory.simultaneous.nplayer.kernels`) solves column by column:
:math:`A_t` at one column at a time, kept only in slabs of the columns that share its first
t scores, and the thresholds by their band of ``w + 1`` non-zero probabilities. The numpy
engine (the reference) solves by blocks of own scores as described below. Both give the same
policies and values to rounding; ``"auto"`` picks by the work (:func:`pigtheory.engine.choose_engine`).

Notes
-----
When each opponent's policy depends on its own score only (``hold_at(n)``, own-score tables
and their mixtures), the opponents' joint turn Y is a product of independent one-score moves,
and the expectation

.. math:: W(a, j) = E[V(a, \\min(j + Y, g))]

is the same for every own score that leads to a: it is computed once per state, right after
the state is solved, and then shared by every lower own score (the generic solver recomputes
it per pair of states). It is applied one opponent at a time,

.. math:: A_t(a, j) = \\sum_y P(Y_t = y \\mid j_t)\\, A_{t-1}(a, j + y e_t), \\quad
    A_0 = V,\\; A_m = W,

so a state costs :math:`7m` look-ups instead of :math:`7^m`. With identical opponents
:math:`A_t` is symmetric in its first t and in its last m - t arguments, so it is stored over
a pair of multisets. Then, at state (i, j),

.. math:: V(i, j) = \\max_k \\frac{P(X_k = 0)\\, W^0(i, j) +
    \\sum_r P(X_k = k + r)\\, W(\\min(i + k + r, g), j)}{1 - P(X_k = 0)\\, P(Y = 0 \\mid j)},

:math:`W^0` being W with :math:`V(i, j)` itself set to 0 (the self-loop, solved exactly).
A threshold k above the room g - i only adds bust chance to "hold at g - i": its value
:math:`(b W^0 + (1 - b) W(g, j)) / (1 - b P(Y = 0))` falls with the bust chance b because
:math:`W^0 \\le P(\\text{no opponent finishes}) - P(Y = 0) \\le W(g, j) (1 - P(Y = 0))`, so
all k up to the block's largest room are compared without masking.
The numpy engine solves states in blocks of own scores, and within a block by decreasing
``i + sum(j)``: every successor other than the state itself is solved before it. Only the
current block's :math:`A_t`, 0 < t < m, are kept, which bounds memory.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (18)-(19), Algorithm 0.3, and the
4- and n-player paragraph (cost :math:`O(100^n)`).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from ...guard import check_memory, reduced_estimate
from ...progress import progress_bar
from ...results import Solution
from ...rules import Rules
from ...stopping import TurnPolicy
from ...validation import check_int, check_progress
from ..core import (
    TIE_TOL,
    choose_engine,
    read_opponents,
)
from ..core.step import band_of
from . import kernels as nplayer
from .reduced_numpy import solve_numpy as _solve_numpy
from .score_sets import rank_table, score_keys, score_tuples

__all__ = ["reduced_best_response", "ReducedSolution", "separable", "separable_moves"]


@dataclass(frozen=True, eq=False)
class ReducedSolution(Solution):
    """Best response stored over the opponents' reduced states (see the module docstring).

    Attributes
    ----------
    value : numpy.ndarray, shape ``(goal + 1, S)``
        ``value[i, s]``: win probability at own score i and opponents' scores ``states[s]``.
    policy : numpy.ndarray of int, shape ``(goal, S)``
        ``policy[i, s]``: the threshold there; 0 where some opponent is at the goal.
    iterations : int
        Score levels of the game's non-terminal states, ``players * (goal - 1) + 1`` (as for
        the generic solver), whatever the engine or block.
    residual : float
        0.0 (exact).
    method : str
    rules : Rules
    states : numpy.ndarray of int, shape ``(S, m)``, m = players - 1
        Opponents' scores of each column (seat order), rows in lexicographic order; sorted
        within a row (multisets, Zhu, Ma, Chen & Liu 2023 eq. (19)) when ``symmetric``.
    symmetric : bool
        Columns are multisets of the opponents' scores.
    n_states : int
        Non-terminal states solved: ``goal`` own scores times the non-terminal columns.
    """

    states: np.ndarray
    symmetric: bool
    n_states: int

    def _expected_shapes(self) -> dict[str, tuple[int, ...]]:
        g, s = self.rules.goal, len(self.states)
        return {"value": (g + 1, s), "policy": (g, s), "states": (s, self.rules.players - 1)}

    def column(self, opponents_scores: Any) -> np.ndarray:
        """Column of ``value`` holding the given opponents' scores.

        Parameters
        ----------
        opponents_scores : array_like of int, shape ``(..., m)``
            Opponents' scores in seat order (any order when ``symmetric``), each in
            ``0..goal``; the last axis is the opponents.

        Returns
        -------
        numpy.ndarray of int, shape ``(...)``
            Indices into the last axis of ``value`` and ``policy`` (rows of ``states``).
        """
        js = np.asarray(opponents_scores, dtype=np.int64)
        g, m = self.rules.goal, self.states.shape[1]
        if js.shape[-1:] != (m,) or np.any(js < 0) or np.any(js > g):
            raise ValueError(f"opponents_scores: {m} scores in 0..{g} expected, got shape {js.shape}")
        if self.symmetric:
            js = np.sort(js, axis=-1)
        return np.searchsorted(score_keys(self.states, g), score_keys(js, g))

    def at(self, own: int, *opponents_scores: int) -> float:
        """Win probability at own score ``own`` and the opponents' scores, in seat order."""
        return float(self.value[own, self.column(opponents_scores)])

    def expand(self) -> Solution:
        """The full arrays, as :func:`best_response` returns them.

        Returns
        -------
        Solution
            ``value`` of shape ``(goal + 1,) * players`` and ``policy`` ``(goal,) * players``,
            own score first (large: 1.6 GB for 4 players at goal 100, see the module docstring).
        """
        g, m = self.rules.goal, self.states.shape[1]
        full = np.indices((g + 1,) * m).reshape(m, -1).T
        cols = self.column(full).reshape((g + 1,) * m)
        value = self.value[:, cols]
        policy = self.policy[:, cols[(slice(0, g),) * m]].astype(np.int64)
        return Solution(value, policy, self.iterations, 0.0, self.method, self.rules)


def _own_moves(mix: TurnPolicy, rules: Rules) -> tuple[np.ndarray, np.ndarray] | None:
    """New score and probability per outcome column at own score 0..goal, or None when the
    policy looks at other players' scores."""
    g, n = rules.goal, rules.players
    if not mix.reads_own_score_only():
        return None
    own = np.arange(g)
    gains, probs = mix.outcomes(tuple([own] + [np.zeros_like(own)] * (n - 1)))
    new = np.vstack([own[:, None] + gains, np.full((1, gains.shape[1]), g)])
    stay = np.zeros((1, probs.shape[1]))
    stay[0, 0] = 1.0  # an opponent at the goal stays there
    return new, np.vstack([probs, stay])


def separable(opponents: Any, rules: Rules) -> bool:
    """Whether every opponent's policy depends on its own score only (the fast path applies).

    Parameters
    ----------
    opponents : policy or list of policies
        ``rules.players - 1`` policies, in seat order.
    rules : Rules

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        A wrong number of opponents or an unreadable policy.
    """
    opps = read_opponents(opponents, rules)
    return all(_own_moves(m, rules) is not None for m in opps)


def separable_moves(opponents: Any, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """``dest[q, x, o]``, ``prob[q, x, o]``: opponent q's new score after a turn from score x,
    each destination once (clipped outcomes merged), as the compiled engine reads them.

    Parameters
    ----------
    opponents : policy or list of policies
        ``rules.players - 1`` policies reading their own score only, in seat order.
    rules : Rules

    Returns
    -------
    dest : numpy.ndarray of int, shape ``(players - 1, goal + 1, O)``
        New score of opponent q from score x (``0..goal``; from the goal it stays there),
        O destinations per score, padded.
    prob : numpy.ndarray, shape ``(players - 1, goal + 1, O)``
        Their probabilities (0 in the padding).

    Raises
    ------
    ValueError
        An opponent whose policy reads other scores.
    """
    read = [_own_moves(mix, rules) for mix in read_opponents(opponents, rules)]
    moves = [mv for mv in read if mv is not None]
    if len(moves) < len(read):
        raise ValueError(
            "opponents: the fast path needs policies that depend on the opponent's own score only"
        )
    return _destinations(moves, rules.goal)


def reduced_best_response(
    opponents: Any,
    *,
    rules: Rules = Rules(),
    symmetric: bool | None = None,
    block: int | None = None,
    engine: str = "auto",
    progress: bool | None = None,
    max_memory: Any = None,
) -> ReducedSolution:
    """Exact best response to opponents whose policies depend on their own score only.

    The best response of Zhu, Ma, Chen & Liu (2023) Algorithm 0.3 and eqs. (18)-(19), for any
    number of players, solved by backward induction over score sums instead of sweeps, with
    the opponents' joint move factored one opponent at a time (module Notes).

    Parameters
    ----------
    opponents : policy or list of policies
        ``rules.players - 1`` policies in seat order, each reading only its own score.
    rules : Rules
        One die, ``players >= 2``.
    symmetric : bool, optional
        Store the opponents' scores as multisets; default: when all opponents play the same.
    block : int, optional
        numpy engine: own scores per block, 1..goal (memory vs. speed); default from a memory
        budget.
        The compiled engine has no blocks and ignores it.
    engine : {"auto", "numba", "numpy"}
        Compiled column by column, or batched numpy (same answers to rounding); ``"auto"``
        decides by the work, states times thresholds (:func:`pigtheory.engine.choose_engine`).
    progress : bool, optional
        Show a bar on stderr; default when stderr is a terminal.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    ReducedSolution
        ``value[i, s]`` of shape ``(goal + 1, S)`` and ``policy[i, s]`` of shape ``(goal, S)``
        over own score i and the opponents' scores ``states[s]`` (``(S, players - 1)``);
        :meth:`ReducedSolution.expand` gives the ``(goal + 1,) * players`` arrays.

    Raises
    ------
    ValueError
        An opponent whose policy reads other scores, the wrong number of opponents,
        ``symmetric=True`` with different opponents, ``block`` outside 1..goal, or an unknown engine.

    Examples
    --------
    >>> sol = reduced_best_response([hold_at(4), hold_at(4)], rules=Rules(goal=8, players=3))
    >>> full = best_response([hold_at(4)] * 2, rules=Rules(goal=8, players=3))
    >>> bool(abs(sol.at(0, 0, 0) - full.value[0, 0, 0]) < 1e-12)
    True
    """
    check_memory(reduced_estimate(rules, opponents=opponents, symmetric=symmetric), max_memory)
    opps = read_opponents(opponents, rules)
    check_progress(progress)
    if symmetric is not None and not isinstance(symmetric, (bool, np.bool_)):
        raise ValueError(f"symmetric must be True, False or None, got {symmetric!r}")
    if block is not None:
        block = check_int("block", block, low=1, high=rules.goal)  # own scores: at most goal
    read = [_own_moves(mix, rules) for mix in opps]
    moves = [mv for mv in read if mv is not None]
    if len(moves) < len(read):
        raise ValueError(
            "opponents: the fast path needs policies that depend on the opponent's own score only"
        )
    g, m = rules.goal, len(opps)
    same = all(np.array_equal(mv[0], moves[0][0]) and np.array_equal(mv[1], moves[0][1]) for mv in moves)
    if symmetric is None:
        symmetric = same
    elif symmetric and not same:
        raise ValueError("symmetric: only when every opponent plays the same policy")
    symmetric = bool(symmetric) and m > 1
    live = comb(g - 1 + m, m) if symmetric else g**m
    if choose_engine(engine, g * live * (g + 1) / 2) == "numba":
        states = score_tuples(g, m, symmetric)
        value, policy = _solve_compiled(moves, states, symmetric, rules, progress)
    else:
        states, value, policy = _solve_numpy(moves, symmetric, block, rules, progress)
    value.setflags(write=False)
    return ReducedSolution(
        value,
        policy,
        (m + 1) * (g - 1) + 1,
        0.0,
        "exact-separable" + ("-symmetric" if symmetric else ""),
        rules,
        states,
        symmetric,
        g * live,
    )


def _destinations(moves: list[tuple[np.ndarray, np.ndarray]], g: int) -> tuple[np.ndarray, np.ndarray]:
    """``dest[q, x, o]``, ``prob[q, x, o]``: opponent q's new scores from score x, each once
    (outcomes clipped at the goal merged), zero-padded to the same count."""
    dense = np.zeros((len(moves), g + 1, g + 1))
    for p, (new, probs) in enumerate(moves):
        np.add.at(dense[p], (np.arange(g + 1)[:, None], new), probs)
    mask = dense > 0
    width = int(mask.sum(axis=2).max())
    slot = np.cumsum(mask, axis=2) - 1
    who, src, dst = np.nonzero(mask)
    dest = np.zeros((len(moves), g + 1, width), dtype=np.int64)
    prob = np.zeros((len(moves), g + 1, width))
    dest[who, src, slot[who, src, dst]] = dst
    prob[who, src, slot[who, src, dst]] = dense[who, src, dst]
    return dest, prob


def _solve_compiled(
    moves: list[tuple[np.ndarray, np.ndarray]],
    states: np.ndarray,
    symmetric: bool,
    rules: Rules,
    progress: bool | None,
) -> tuple[np.ndarray, np.ndarray]:
    """The compiled engine (:mod:`.kernels`): ``(value, policy)`` as transposed views."""
    g, (size, m) = rules.goal, states.shape
    dest, prob = _destinations(moves, g)
    offs = nplayer.slab_rows(g, m)
    slabs = np.zeros((int(offs[m]), g + 1))
    vt = np.zeros((size, g + 1))
    pol_t = np.zeros((size, g), dtype=np.min_scalar_type(g))
    cols = nplayer.Columns(states, rank_table(g, m, symmetric), symmetric)
    moves_rec, out, band = nplayer.Moves(dest, prob), nplayer.Tables(vt, pol_t, slabs, offs), band_of(rules)
    kernel = nplayer.compiled()
    cuts = np.linspace(size, 0, min(size, 100) + 1).round().astype(np.int64)
    with progress_bar(len(cuts) - 1, "best response", progress) as bar:
        for hi, lo in zip(cuts[:-1], cuts[1:], strict=True):
            kernel(hi, lo, cols, moves_rec, band, TIE_TOL, out)
            bar.update(1)
    return vt.T, pol_t.T
