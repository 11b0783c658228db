"""Plain value iteration of the sequential Pig equations over every state at once.

The method of the papers, kept as the baseline of the benchmarks and as an independent check
of the exact one-die solver and of the two-dice turn sweeps. Shapes as in
:mod:`pigtheory.sequential.model`; one die or two dice (not Double Trouble).

Notes
-----
Every sweep applies, to all states at once (Jacobi), with bust probability ``p``, snake-eyes
probability ``q`` (two dice; 0 for one die) and gain probabilities ``p_g``:

.. math::

    P_{i,j,k} \\leftarrow \\max\\Big(1 - P_{j,i+k,0},\\;
      p (1 - P_{j,i,0}) + q (1 - P_{j,0,0}) + \\sum_g p_g P_{i,j,k+g}\\Big),

with :math:`P_{i,j,k} = 1` for ``i + k >= goal``, from all zeros, until the largest change
of a sweep is below ``tol``.

References
----------
Neller & Presser, "Optimal play of the dice game Pig" (2004), value iteration (slides
"Value Iteration"); Zhu & Ma, Stats 5 (2022), Algorithm 1 and section 3.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..guard import check_memory, sequential_estimate
from ..progress import ProgressBar
from ..rules import Rules
from ..validation import ConvergenceWarning, check_int, check_progress, check_tol
from .model import SequentialSolution, check_rules

__all__ = ["value_iteration"]


def value_iteration(
    *,
    rules: Rules = Rules(),
    tol: float = 1e-12,
    max_iter: int = 100_000,
    progress: bool | None = None,
    max_memory: Any = None,
) -> SequentialSolution:
    """Optimal sequential play by plain (Jacobi) value iteration over all states.

    The method of Neller & Presser (slides "Value Iteration", on the equations of "Pig
    Probabilities") and of Zhu & Ma (2022), Algorithm 1 (section 3, two dice).

    Parameters
    ----------
    rules : Rules
        One or two dice; Double Trouble is not supported here (``ValueError``).
    tol : float
        Stop when the largest change of a sweep is below ``tol`` (> 0).
    max_iter : int
        Most sweeps (>= 1); stopping there warns with
        :class:`~pigtheory.validation.ConvergenceWarning`.
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    SequentialSolution
        ``value[i, j, k]`` and ``policy[i, j, k]`` of shape ``(goal, goal, goal)``;
        ``iterations`` = sweeps, ``residual`` = the last sweep's largest change.

    Examples
    --------
    >>> sol = value_iteration(rules=Rules.piglet(goal=2))
    >>> round(sol.first_player_win, 9)
    0.571428571
    """
    check_memory(sequential_estimate(rules), max_memory)
    check_rules(rules)
    if rules.roll_model().forced:
        raise ValueError("rules.double_trouble: use pigtheory.sequential.solve for Double Trouble")
    tol = check_tol(tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    check_progress(progress)
    g = rules.goal
    model = rules.roll_model()
    pb, pr = float(model.p_bust), float(model.p_reset)
    gains = [(gain, float(p)) for gain, p in model.free]
    m = model.max_gain
    i = np.arange(g)[:, None, None]
    k = np.arange(g)[None, None, :]
    live = (i + k) < g
    p = np.where(live, 0.0, 1.0) * np.ones((g, g, g))
    p = np.concatenate([p, np.ones((g, g, m))], axis=2)
    # hold[i, j, k] = 1 - P[j, i + k, 0]: gather from a padded start table (0 beyond the goal)
    flat_idx = ((np.arange(g)[None, :, None] * (2 * g)) + (i + k)).ravel()
    bar = ProgressBar(max_iter, "value iteration", progress)
    residual, sweeps = np.inf, 0
    while residual >= tol and sweeps < max_iter:
        v0 = np.zeros((g, 2 * g))
        v0[:, :g] = p[:, :, 0]
        hold = 1.0 - v0.ravel()[flat_idx].reshape(g, g, g)
        roll = (pb * (1.0 - v0[:, :g].T) + pr * (1.0 - v0[:, 0])[None, :])[:, :, None] + sum(
            q * p[:, :, gain : gain + g] for gain, q in gains
        )
        new = np.where(live, np.maximum(hold, roll), 1.0)
        residual = float(np.max(np.abs(new - p[:, :, :g])))
        p[:, :, :g] = new
        sweeps += 1
        bar.update()
    bar.close()
    if residual >= tol:
        warnings.warn(
            f"value iteration stopped after max_iter={max_iter} sweeps with largest change "
            f"{residual:.3g} >= tol={tol:g}",
            ConvergenceWarning,
            stacklevel=2,
        )
    v0 = np.zeros((g, 2 * g))
    v0[:, :g] = p[:, :, 0]
    hold = 1.0 - v0.ravel()[flat_idx].reshape(g, g, g)
    roll_v = (pb * (1.0 - v0[:, :g].T) + pr * (1.0 - v0[:, 0])[None, :])[:, :, None] + sum(
        q * p[:, :, gain : gain + g] for gain, q in gains
    )
    value = np.where(live, p[:, :, :g], np.nan)
    # k = 0: holding is passing, roll on ties (as the exact solver does)
    roll = live & ((roll_v > hold + 1e-13) | ((k == 0) & (roll_v >= hold - 1e-13)))
    return SequentialSolution(value, roll, sweeps, residual, "value_iteration", rules)
