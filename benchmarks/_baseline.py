"""Fixed yardsticks for the benchmarks: solvers as they ran before the core (issue 10).

:func:`value_iteration_hold_at` is the paper's Algorithm 0.1 against a "hold at n" opponent in
the batched form pigtheory used before its solvers shared one core: the opponent's move
averaged once per sweep over its own score, every threshold's value of every state in one
matrix product, the policy read only when the sweeps stop. It is the fastest value iteration
we have had, so ratios against it are the conservative ones; the library's own value iteration
(now one generic loop over the core, for any number of players) is reported beside it.
"""

from __future__ import annotations

import numpy as np

from pigtheory import Rules, as_mixture, hold_at
from pigtheory.simultaneous.core import one_blas_thread, terminal_values, threshold_matrix, turn_width


def value_iteration_hold_at(n: int, rules: Rules, tol: float = 1e-12, max_iter: int = 10_000):
    """``(value, policy, sweeps)`` of Algorithm 0.1 against ``hold_at(n)``, sweeps until the
    largest change is below ``tol``."""
    g, w, M = rules.goal, turn_width(rules), threshold_matrix(rules)
    length = g + w
    p = terminal_values(rules)
    too_big = np.arange(1, g + 1)[None, None, :] > (g - np.arange(g))[:, None, None]
    js = np.arange(g)
    gains, probs = as_mixture(hold_at(n), rules).outcomes((js, np.zeros_like(js)))
    stay, moves = probs[:, 0], probs[:, 1:]
    lands = np.minimum(js[:, None] + gains[:, 1:], g)
    table = np.zeros((g + 1, 2 * g + w))  # table[j, a]: E_Y[p(a, j + Y)], a past the goal = goal
    sweeps = 0
    with one_blas_thread():
        while sweeps < max_iter:
            moved = (p[:, lands] * moves).sum(axis=2)
            table[:g, : g + 1] = (stay * p[:, :g] + moved).T
            table[:g, g + 1 :] = table[:g, g : g + 1]
            windows = np.lib.stride_tricks.sliding_window_view(table[:g], length, axis=1)[:, :g]
            q = np.matmul(windows.transpose(1, 0, 2), M)
            np.copyto(q, -np.inf, where=too_big)
            best = q.max(axis=2)
            change = float(np.abs(best - p[:g, :g]).max())
            p[:g, :g] = best
            sweeps += 1
            if change < tol:
                break
    policy = np.argmax(q >= (best - 1e-13)[..., None], axis=2) + 1
    return p, policy, sweeps
