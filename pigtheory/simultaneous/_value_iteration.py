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

With n players (Algorithm 0.3) the same holds for the ascending lexicographic order over
``(i, j1, ..., j_{n-1})``: a state reads only states whose every score is at least as large.

A sweep is the core's Bellman step (:mod:`pigtheory.simultaneous.core`) applied to every state
at once with the state's own value read from the last sweep instead of solved: the
continuation against the opponents, the thresholds' values with no self-loop term, greedy.
States are taken in chunks to bound memory.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..rules import Rules
from ..stopping import TurnPolicy
from ..validation import ConvergenceWarning
from .core import Thresholds, continuation, one_blas_thread, terminal_values

__all__ = ["value_iteration"]

_CHUNK_FLOATS = 4_000_000  # gathered values per chunk of states (about 32 MB)


def value_iteration(
    opps: Sequence[TurnPolicy], rules: Rules, tol: float, max_iter: int, tie_tol: float, bar: Any
) -> tuple[np.ndarray, np.ndarray, int, float]:
    """Algorithms 0.1 and 0.3 for any number of players: ``(value, policy, sweeps, residual)``.

    Warns with :class:`~pigtheory.validation.ConvergenceWarning` when ``max_iter`` sweeps end
    with a change still ``>= tol``; ``bar.update(1)`` after each sweep.
    """
    g, n = rules.goal, rules.players
    actions = Thresholds(rules)
    value = terminal_values(rules)
    states = np.indices((g,) * n).reshape(n, -1)
    sizes = [m.outcomes(tuple(s[:1] for s in states))[0].shape[-1] for m in opps]
    per_state = (g + 1) * (sum(sizes) if n == 2 else int(np.prod(sizes)))
    chunks = np.array_split(np.arange(states.shape[1]), max(1, states.shape[1] * per_state // _CHUNK_FLOATS))
    no_bust = np.zeros(states.shape[1])
    best = np.empty(states.shape[1])
    policy = np.ones(states.shape[1], dtype=np.int64)
    residual, sweeps = np.inf, 0
    with one_blas_thread():
        while sweeps < max_iter and residual >= tol:
            for part in chunks:
                u, _ = continuation(value, states[:, part], opps, g)
                best[part], policy[part] = actions.best(u, states[0, part], no_bust[part], tie_tol)
            residual = float(np.abs(best - value[tuple(states)]).max())
            value[tuple(states)] = best
            sweeps += 1
            bar.update(1)
    if residual >= tol:
        warnings.warn(
            f"value iteration stopped after max_iter={max_iter} sweeps with largest change "
            f"{residual:.3g} >= tol={tol:g}",
            ConvergenceWarning,
            stacklevel=4,
        )
    return value, policy.reshape((g,) * n), sweeps, residual
