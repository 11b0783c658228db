"""Algorithms 0.1 and 0.3 of Zhu et al. (2023): value iteration against independent opponents.

Sweeps over the states (i, j) in ascending order, updating in place, until the largest change
of a sweep falls below ``tol``:

.. math:: p(i, j) \\leftarrow \\max_k \\sum_{\\Delta j} P(Y = \\Delta j)
          \\Big[ p(i, j + \\Delta j) P(X_k = 0) + \\sum_r p(i + k + r, j + \\Delta j) P(X_k = k + r) \\Big].

In ascending order the in-place (Gauss-Seidel) sweep reads, at every state, only states with
scores at least as large, none of which the sweep has reached yet: every read sees the previous
sweep's value. One in-place sweep in that order is therefore exactly one synchronous sweep, and
is computed as one for all states at once. The state itself appears on the right (both players
bust), so unlike the exact solver this iterates the self-loop instead of solving it.

With n players (Algorithm 0.3, :func:`value_iteration_n`) the same holds for the ascending
lexicographic order over ``(i, j1, ..., j_{n-1})``: a state reads only states whose every score
is at least as large. That sweep is generic (any opponent policies) and chunked over states to
bound memory; it is the check of the exact n-player solvers, meant for small goals.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..policies import Mixture
from ..rules import Rules
from ..validation import ConvergenceWarning
from .core import (
    Thresholds,
    continuation,
    independent_of_own,
    one_blas_thread,
    terminal_values,
    threshold_matrix,
    turn_width,
)

_CHUNK_FLOATS = 4_000_000  # gathered values per chunk of states (about 32 MB)


def value_iteration(
    opp: Mixture, rules: Rules, tol: float, max_iter: int, tie_tol: float, bar: Any
) -> tuple[np.ndarray, np.ndarray, int, float]:
    """``(value, policy, sweeps, residual)``; ``bar.update(1)`` after each sweep."""
    with one_blas_thread():
        return _iterate(opp, rules, tol, max_iter, tie_tol, bar)


def _iterate(
    opp: Mixture, rules: Rules, tol: float, max_iter: int, tie_tol: float, bar: Any
) -> tuple[np.ndarray, np.ndarray, int, float]:
    g, w, M = rules.goal, turn_width(rules), threshold_matrix(rules)
    L = g + w
    p = terminal_values(rules)
    own = np.arange(g)
    bad = np.arange(1, g + 1)[None, None, :] > (g - own)[:, None, None]  # k > goal - i
    indep = independent_of_own(opp)
    # Continuation tables by B's score first; own scores past the goal repeat the goal row.
    ut = np.zeros((g + 1, 2 * g + w))
    if indep:
        js = np.arange(g)
        gains, probs = opp.outcomes((js, np.zeros_like(js)))
        pb, pz = probs[:, 0], probs[:, 1:]
        cz = np.minimum(js[:, None] + gains[:, 1:], g)
    else:
        ii, jj = np.indices((g, g))
        gains, probs = opp.outcomes((jj, ii))
        cols = np.minimum(jj[..., None] + gains, g)
    residual, sweeps = np.inf, 0
    policy = np.ones((g, g), dtype=np.int64)
    while sweeps < max_iter:
        if indep:
            z = (p[:, cz] * pz).sum(axis=2)  # (own a, B's score j)
            ut[:g, : g + 1] = (pb * p[:, :g] + z).T
            ut[:g, g + 1 :] = ut[:g, g : g + 1]
            win = np.lib.stride_tricks.sliding_window_view(ut[:g], L, axis=1)[:, :g]
            q = np.matmul(win.transpose(1, 0, 2), M)
        else:
            ut[:, : g + 1] = p.T
            ut[:, g + 1 :] = ut[:, g : g + 1]
            win = np.lib.stride_tricks.sliding_window_view(ut, L, axis=1)
            gathered = win[cols, ii[..., None]]  # (i, j, outcome, x)
            u = np.matmul(probs[..., None, :], gathered)[..., 0, :]
            q = np.matmul(u, M)
        np.copyto(q, -np.inf, where=bad)
        best = q.max(axis=2)
        change = float(np.abs(best - p[:g, :g]).max())
        p[:g, :g] = best
        sweeps += 1
        residual = change
        bar.update(1)
        if change < tol:
            policy = np.argmax(q >= (best - tie_tol)[..., None], axis=2) + 1
            break
    else:
        policy = np.argmax(q >= (best - tie_tol)[..., None], axis=2) + 1
        warnings.warn(
            f"value iteration stopped after max_iter={max_iter} sweeps with largest change {residual:.3g} >= tol={tol:g}",
            ConvergenceWarning,
            stacklevel=4,
        )
    return p, policy, sweeps, residual


def value_iteration_n(
    opps: Sequence[Mixture], rules: Rules, tol: float, max_iter: int, tie_tol: float, bar: Any
) -> tuple[np.ndarray, np.ndarray, int, float]:
    """Algorithm 0.3 for any number of players: ``(value, policy, sweeps, residual)``."""
    g, n = rules.goal, rules.players
    actions = Thresholds(rules)
    value = terminal_values(rules)
    states = np.indices((g,) * n).reshape(n, -1)
    per_state = (g + 1) * int(np.prod([m.outcomes(tuple(s[:1] for s in states))[0].shape[-1] for m in opps]))
    chunks = np.array_split(np.arange(states.shape[1]), max(1, states.shape[1] * per_state // _CHUNK_FLOATS))
    no_bust = np.zeros(states.shape[1])
    best = np.empty(states.shape[1])
    policy = np.ones(states.shape[1], dtype=np.int64)
    residual, sweeps = np.inf, 0
    while sweeps < max_iter and residual >= tol:
        for part in chunks:
            u, _ = continuation(value, states[:, part], opps, g)
            vals, _ = actions.action_values(u, states[0, part], no_bust[part])
            best[part] = vals.max(axis=1)
            policy[part] = np.argmax(vals >= (best[part] - tie_tol)[:, None], axis=1) + 1
        residual = float(np.abs(best - value[tuple(states)]).max())
        value[tuple(states)] = best
        sweeps += 1
        bar.update(1)
    if residual >= tol:
        warnings.warn(
            f"value iteration stopped after max_iter={max_iter} sweeps with largest change {residual:.3g} >= tol={tol:g}",
            ConvergenceWarning,
            stacklevel=4,
        )
    return value, policy.reshape((g,) * n), sweeps, residual
