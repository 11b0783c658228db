"""Stackelberg value iteration for two-player simultaneous Pig (the paper's Algorithm 0.2).

Shapes
------
``value[i, j]`` (``(goal + 1, goal + 1)``): the leader A's win probability. ``leader_policy``
and ``follower_policy`` (``(goal, goal)``) are both own score first: at A's state (i, j) the
leader holds at ``leader_policy[i, j]`` and the follower B at ``follower_policy[j, i]``. The
paper compares the two tables entry by entry in this form (they would be equal if the game
had a pure equilibrium everywhere).

Notes
-----
At each state the leader commits to a threshold a, the follower answers with the b that
minimises A's value (eq. 17), and the leader picks the a whose answer is best for A (eq. 16):

.. math:: V(s) = \\max_a \\min_b \\big(C_s[a, b] + V(s)\\, D_s[a, b]\\big)
          = \\max_a \\min_b W_s[a, b], \\qquad W = C / (1 - D),

(stage game of :mod:`pigtheory.simultaneous.core.stage`; the second form because
:math:`C + vD \\ge v \\iff W \\ge v`). ``method="exact"`` solves it level by level from the
goal down, with no tolerance. All states of one score sum are independent and solved together
(:class:`~pigtheory.simultaneous.core.stage.DiagonalStages`: stage games from banded products,
O(m) work per entry instead of O(goal)). ``method="value_iteration"`` is Algorithm 0.2 as printed:
sweeps in the paper's order (i ascending, then j ascending), updating p(i, j) in place with the
double-bust term read from the current p(i, j), until the largest change is below ``tol``.
Ties go to the smallest threshold (leader) and the smallest answer (follower).

Since :math:`\\max_a\\min_b \\le \\operatorname{val} \\le \\min_b\\max_a`, the leader's value is
at most the equilibrium value, with equality where the stage game has a pure saddle point.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (15)-(17), Algorithm 0.2, Fig. 5,
Supplementary Table S3.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...guard import BASE_BYTES, Estimate, check_memory, with_roll_model
from ...progress import progress_bar
from ...results import Solution
from ...rules import Rules
from ...validation import (
    ConvergenceWarning,
    check_choice,
    check_int,
    check_progress,
    check_simultaneous_rules,
    check_tol,
)
from ..core import (
    TIE_TOL,
    DiagonalStages,
    extended,
    one_blas_thread,
    score_levels,
    terminal_values,
    threshold_matrix,
)

__all__ = ["Stackelberg", "stackelberg", "estimate_memory"]


@dataclass(frozen=True, eq=False)
class Stackelberg(Solution):
    """Result of :func:`stackelberg` (Zhu, Ma, Chen & Liu 2023, eqs. (15)-(17), Algorithm 0.2).

    Attributes
    ----------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
        The leader A's win probability ``value[i, j]`` at A's score i and B's score j.
    policy : numpy.ndarray of int, shape ``(goal, goal)``
        The leader's policy (the same array as ``leader_policy``).
    iterations : int
        Score levels (exact) or sweeps (iteration).
    residual : float
        The last sweep's largest change (0.0 when exact).
    method : str
        ``"exact"`` or ``"value_iteration"``.
    rules : Rules
    leader_policy : numpy.ndarray of int, shape ``(goal, goal)``
        :math:`\\pi_A`, own score first (see the module docstring).
    follower_policy : numpy.ndarray of int, shape ``(goal, goal)``
        :math:`\\pi_B`, own score first.
    leader_value : float
        The leader's win probability at (0, 0).
    follower_value : float
        The follower's.
    differing_states : tuple of (int, int)
        States where ``leader_policy != follower_policy``.
    differences : numpy.ndarray of int, shape ``(len(differing_states),)``
        ``follower_policy - leader_policy`` at those states, in the same order (the paper's
        Supplementary Table S3).
    """

    leader_policy: np.ndarray
    follower_policy: np.ndarray
    leader_value: float
    follower_value: float
    differing_states: tuple
    differences: np.ndarray


@with_roll_model(name="stackelberg")
def estimate_memory(rules: Any, *, method: str = "exact") -> Estimate | None:
    """:func:`~pigtheory.simultaneous.stackelberg`: the follower's answer to every leader
    threshold at a whole score level at once (thresholds by states)."""
    if not isinstance(rules, Rules):
        return None
    g = rules.goal
    states = (g + 1) ** 2
    need = 120 * states + 48 * g**3 + BASE_BYTES
    return Estimate(f"Stackelberg ({method}, goal {g})", states, need, "lower the goal")


def stackelberg(
    *,
    rules: Rules = Rules(),
    method: str = "exact",
    tol: float = 1e-10,
    max_iter: int = 1000,
    progress: bool | None = None,
    max_memory: Any = None,
) -> Stackelberg:
    """Leader-follower (Stackelberg) policies of two-player simultaneous Pig: the policies
    :math:`\\pi_A` (eq. (16)) and :math:`\\pi_B` (eq. (17)) of Zhu, Ma, Chen & Liu (2023), the
    paper's SVIMA, Algorithm 0.2.

    Parameters
    ----------
    rules : Rules
        One die, two players.
    method : {"exact", "value_iteration"}
        Backward induction over score sums, or the paper's value iteration (Algorithm 0.2).
    tol, max_iter : float, int
        Stopping rule of the iteration: largest change of a sweep below ``tol``.
    progress : bool, optional
        Iteration only: print the sweep count and change to stderr (default: when stderr
        is a terminal).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    Stackelberg
        ``value`` of shape ``(goal + 1, goal + 1)``; ``leader_policy`` and ``follower_policy``
        of shape ``(goal, goal)``, each own score first.

    Examples
    --------
    >>> st = stackelberg(rules=Rules(goal=20))
    >>> round(st.leader_value, 12), st.differing_states
    (0.5, ())
    """
    check_memory(estimate_memory(rules, method=method), max_memory)
    check_simultaneous_rules(rules, players=2)
    check_choice("method", method, ("exact", "value_iteration"))
    tol = check_tol(tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    check_progress(progress)
    g = rules.goal
    lead = np.zeros((g, g), dtype=np.int64)
    follow_at = np.zeros((g, g), dtype=np.int64)  # the follower's answer at A's state
    with one_blas_thread():
        if method == "exact":
            value, iterations = _exact(rules, lead, follow_at)
            residual = 0.0
        else:
            value, iterations, residual = _iterate(rules, tol, max_iter, lead, follow_at, progress)
    follower = follow_at.T.copy()
    diff = follower - lead
    states = tuple((int(a), int(b)) for a, b in np.argwhere(diff != 0))
    value.setflags(write=False)
    return Stackelberg(
        value=value,
        policy=lead,
        iterations=iterations,
        residual=residual,
        method=method,
        rules=rules,
        leader_policy=lead,
        follower_policy=follower,
        leader_value=float(value[0, 0]),
        follower_value=float(1.0 - value[0, 0]),
        differing_states=states,
        differences=diff[diff != 0],
    )


def _exact(rules, lead, follow_at):
    """Backward induction over score sums, all states of a sum batched."""
    g = rules.goal
    value = terminal_values(rules)
    stages = DiagonalStages(extended(value, rules), rules)
    for d, _ in score_levels(g, 2):
        w, i, a_ok = stages.games(d)
        v, a, b = _commit_many(w, a_ok)
        stages.settle(v)
        value[i, d - i] = v
        lead[i, d - i], follow_at[i, d - i] = a, b
    return value, 2 * g - 1


def _commit_many(w, a_ok):
    """:func:`_commit` of every state ``s`` of ``w[:, s, :]`` over its valid rows ``a_ok``;
    invalid columns of ``w`` must already hold +inf."""
    rowmin = np.where(a_ok, w.min(axis=2), -np.inf)
    best = rowmin.max(axis=0)
    a = np.argmax(rowmin >= best - TIE_TOL, axis=0)
    s = np.arange(w.shape[1])
    row = w[a, s]
    b = np.argmax(row <= row.min(axis=1)[:, None] + TIE_TOL, axis=1)
    return row[s, b], a + 1, b + 1


def _commit(m: np.ndarray) -> tuple[float, int, int]:
    """Leader's max-min over the rows of m, its row and the follower's answer (1-based)."""
    rowmin = m.min(axis=1)
    best = rowmin.max()
    a = int(np.argmax(rowmin >= best - TIE_TOL))
    row = m[a]
    b = int(np.argmax(row <= row.min() + TIE_TOL))
    return float(row[b]), a + 1, b + 1


def _iterate(rules, tol, max_iter, lead, follow_at, progress):
    """Algorithm 0.2: in-place sweeps in the paper's order.

    Each state's stage game is :func:`~pigtheory.simultaneous.core.stage.stage_game`'s, with
    the same products of the same arrays (so the same bits), written out here so that what
    does not change from state to state (the X_k matrix, the double-bust products) is taken
    once instead of at each of the 10,000 states of each sweep."""
    g = rules.goal
    value = terminal_values(rules)
    ext = extended(value, rules)
    gains = threshold_matrix(rules).T  # gains[k - 1, x] = P(X_k = x), as in stage_game
    m = gains.shape[1] - g
    both_bust = np.outer(gains[:, 0], gains[:, 0])  # D of the state (i, j): its corner
    order = [(i, j) for i in range(g) for j in range(g)]
    residual = np.inf
    sweeps = 0
    with progress_bar(max_iter, "Stackelberg sweeps", progress) as bar:
        while residual >= tol and sweeps < max_iter:
            residual = 0.0
            for i, j in order:
                na, nb = g - i, g - j
                e = ext[i : i + na + m, j : j + nb + m].copy()
                e[0, 0] = 0.0
                c = gains[:na, : na + m] @ e @ gains[:nb, : nb + m].T
                # eq. (17) for every leader action, then eq. (16), with the current p(i, j)
                v, a, b = _commit(c + ext[i, j] * both_bust[:na, :nb])
                residual = max(residual, abs(v - ext[i, j]))
                ext[i, j] = v
                lead[i, j], follow_at[i, j] = a, b
            sweeps += 1
            bar.update(1)
    if residual >= tol:
        warnings.warn(
            f"stackelberg: stopped after max_iter={max_iter} sweeps with largest change {residual:.3g} >= tol={tol:g}",
            ConvergenceWarning,
            stacklevel=3,
        )
    value[:g, :g] = ext[:g, :g]
    return value, sweeps, float(residual)
