"""Optimal play of two-dice Pig and Double Trouble: value iteration by whole turns.

Shapes as in :mod:`pigtheory.sequential.model`: ``value[i, j, k]`` (two dice) or
``value[i, j, k, l]`` (Double Trouble, ``l = 1`` just after a non-ones double).

Notes
-----
Snake eyes sends a score back to 0, so the game is not a DAG and is solved by iteration. The
unknowns iterated are the start-of-turn values :math:`V_{i,j} = P_{i,j,0}`; one sweep plays
a whole turn backwards over the turn total for every (i, j) at once, given V:

.. math::

    R_{i,j,k} &= \\tfrac{10}{36}(1 - V_{j,i}) + \\tfrac{1}{36}(1 - V_{j,0})
        + \\sum_{m \\ne n} \\tfrac{1}{36} P_{i,j,k+m+n,0}
        + \\sum_{m} \\tfrac{1}{36} P_{i,j,k+2m,\\,l(m)} \\\\
    P_{i,j,k,0} &= \\max(1 - V_{j,i+k},\\; R_{i,j,k}), \\qquad P_{i,j,k,1} = R_{i,j,k},

(m, n = 2..6) with ``l(m) = 1`` for Double Trouble and 0 otherwise, ``P_{i,j,k,0} = 1`` for
``i + k >= goal`` and, for Double Trouble, the paper's boundary

.. math:: P_{i,j,k,1} = \\frac{20 + 10 (1 - V_{j,i}) + (1 - V_{j,0})}{31},
    \\qquad i + k \\ge \\text{goal}:

past the goal after a double the player rolls until a roll without a 1 and without a double
(probability 20/36) lets it hold and win; a double (5/36) changes nothing. Then
:math:`V \\leftarrow P_{\\cdot,\\cdot,0,0}`. Within a sweep every turn is solved exactly, so a
sweep moves information by a whole turn; the sweeps stop when the largest change of V is
below ``tol`` (reported as ``residual``).

References
----------
Zhu & Ma, "Deriving the optimal strategy for the two dice Pig game via reinforcement
learning", Stats 5 (2022) 805-818: section 3 (the two-dice update; its equation numbers are
not in our copy of the text), Algorithm 1, section 4 eqs. (3), (4) and (6).
Paper typos not followed: its Double Trouble hold value ``1 - P(j, i, 0, 0)`` is
``1 - P(j, i + k, 0, 0)`` here, and its boundary ``P(i, j, k, 0) = 0`` for ``i + k >= 100``
is a win (1) here.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..progress import ProgressBar
from ..rules import Rules
from ..validation import ConvergenceWarning, check_int, check_progress, check_tol
from .model import SequentialSolution, check_rules

__all__ = ["solve_two_dice", "turn_sweep"]

_TIE = 1e-13


def turn_sweep(v: np.ndarray, rules: Rules, full: bool = False, explicit_tail: int = 0):
    """One whole-turn backward pass given start values ``v[i, j]`` (module Notes).

    Parameters
    ----------
    v : numpy.ndarray, shape ``(goal, goal)``
        Start-of-turn values :math:`V_{i,j} = P_{i,j,0}` of the player to move.
    rules : Rules
        Two dice, with or without Double Trouble.
    full : bool
        Also return the turn's values and choices.
    explicit_tail : int
        Double Trouble: ``> 0`` replaces the paper's boundary (Zhu & Ma 2022, eq. (6)) by the
        forced rolls themselves, followed for ``explicit_tail`` points past the goal (an
        independent check of the boundary).

    Returns
    -------
    numpy.ndarray, shape ``(goal, goal)``
        The new start values; with ``full=True`` a pair ``(new, (p0, p1, roll))``, ``p0``,
        ``p1`` and ``roll`` of shape ``(goal, goal, goal)`` over (i, j, k): the values with
        ``l = 0`` and ``l = 1`` (``p1`` None unless Double Trouble) and the choice to roll.
    """
    g = rules.goal
    model = rules.roll_model()
    m = model.max_gain
    pfree, pforced = model.free_vector(), model.forced_vector()
    dt = bool(pforced.any())
    q_free, q_double = float(pfree.sum()), float(pforced.sum())
    ii = np.arange(g)[:, None]
    vpad_t = np.zeros((2 * g + m + 1, g))
    vpad_t[:g] = v.T  # vpad_t[s, j] = V[j, s], 0 once s >= goal
    const = float(model.p_bust) * (1.0 - v.T) + float(model.p_reset) * (1.0 - v[:, 0])[None, :]
    kk = g + explicit_tail + m + 1
    p0 = np.empty((kk, g, g))
    k_all = np.arange(kk)[:, None, None]
    done = (ii[None] + k_all) >= g
    p0[:] = np.where(done, 1.0, 0.0)
    # p1 (after a double) is used only for Double Trouble; always allocated for simplicity
    p1 = np.empty((kk, g, g) if dt else (1, 1, 1))
    if dt:
        boundary = (q_free + const) / (1.0 - q_double)
        p1[:] = np.where(done, boundary[None], 0.0)
    roll = np.zeros((g, g, g) if full else (1, 1, 1), dtype=bool)
    f0 = p0.reshape(kk, g * g)
    f1 = p1.reshape(p1.shape[0], -1)
    assert np.shares_memory(f0, p0) and np.shares_memory(f1, p1)
    if dt and explicit_tail:
        p1[g + explicit_tail :] = 0.0  # beyond the followed tail: needs ~tail/12 more doubles
    tail = explicit_tail if dt else 0
    for k in range(g - 1 + tail, -1, -1):
        # only own scores i < goal - k are still playing (all rows when following the tail)
        rows = g if tail else g - k
        # (flattened over (i, j): the first rows are one strided block, no copy)
        r = const[:rows] + (pfree @ f0[k + 1 : k + 1 + m, : rows * g]).reshape(rows, g)
        if dt:
            r += (pforced @ f1[k + 1 : k + 1 + m, : rows * g]).reshape(rows, g)
            if tail:
                p1[k] = r
                if k >= g:
                    continue
        live = ii[:rows] + k < g
        if k:
            hold = 1.0 - vpad_t[k : k + rows]
            ch = r > hold + _TIE
        else:
            hold = 1.0 - v.T
            ch = r >= hold - _TIE
        p0[k, :rows] = np.where(live, np.where(ch, r, hold), 1.0)
        if dt and not tail:
            p1[k, :rows] = r
        if full:
            roll[:rows, :, k] = ch & live
    if not full:
        return p0[0].copy()

    def ijk(a):
        return np.ascontiguousarray(a[:g].transpose(1, 2, 0))

    return p0[0].copy(), (ijk(p0), ijk(p1) if dt else None, roll)


def solve_two_dice(
    *,
    rules: Rules = Rules(dice=2),
    tol: float = 1e-12,
    max_iter: int = 100_000,
    progress: bool | None = None,
    explicit_tail: int = 0,
) -> SequentialSolution:
    """Optimal sequential two-dice Pig (or Double Trouble) by whole-turn value iteration.

    The equations of Zhu & Ma (2022), section 3 (two dice, Algorithm 1) and section 4
    (Double Trouble: eqs. (3)-(4) with the boundary (6)), iterated by whole turns.

    Parameters
    ----------
    rules : Rules
        ``dice=2``; ``double_trouble`` as wanted.
    tol : float
        Stop when the largest change of the start-of-turn values in a sweep is below ``tol``.
    max_iter : int
        Most sweeps (>= 1); stopping there warns with
        :class:`~pigtheory.validation.ConvergenceWarning`.
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).
    explicit_tail : int
        Double Trouble: follow the forced rolls this many points past the goal instead of
        using the paper's boundary value (a check of Zhu & Ma's argument; 0 = boundary).

    Returns
    -------
    SequentialSolution
        ``value[i, j, k]`` and ``policy[i, j, k]``, shape ``(goal, goal, goal)`` (Double
        Trouble: ``value[i, j, k, l]``, ``(goal, goal, goal, 2)``), ``iterations`` = sweeps,
        ``residual`` = the last sweep's largest change.

    Examples
    --------
    >>> sol = solve_two_dice(rules=Rules(goal=12, dice=2))
    >>> sol.residual < 1e-12, 0.5 < sol.first_player_win < 1
    (True, True)
    """
    check_rules(rules)
    if rules.dice != 2:
        raise ValueError(f"rules.dice must be 2 for the two-dice solver, got {rules.dice}")
    tol = check_tol(tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    check_progress(progress)
    explicit_tail = check_int("explicit_tail", explicit_tail, low=0)
    g = rules.goal
    v = np.zeros((g, g))
    residual, sweeps = np.inf, 0
    bar = ProgressBar(max(1, int(-np.log10(tol)) * 10), "sequential two dice", progress)
    shown = 0
    while residual >= tol and sweeps < max_iter:
        new = turn_sweep(v, rules, explicit_tail=explicit_tail)
        residual = float(np.max(np.abs(new - v)))
        v = new
        sweeps += 1
        level = min(bar.total, int(max(0.0, -np.log10(max(residual, 1e-300))) * 10))
        if level > shown:
            bar.update(level - shown)
            shown = level
    bar.close()
    if residual >= tol:
        warnings.warn(
            f"whole-turn value iteration stopped after max_iter={max_iter} sweeps with largest "
            f"change {residual:.3g} >= tol={tol:g}",
            ConvergenceWarning,
            stacklevel=2,
        )
    _, (p0, p1, roll) = turn_sweep(v, rules, full=True, explicit_tail=explicit_tail)
    live = (np.arange(g)[:, None, None] + np.arange(g)[None, None, :]) < g
    value = np.where(live, p0, np.nan)
    if p1 is not None:
        forced = np.where(live, p1, np.nan)
        forced[:, :, 0] = np.nan  # no double has been rolled at turn total 0
        value = np.stack([value, forced], axis=-1)
        roll = np.stack([roll, live.repeat(g, axis=1) & (np.arange(g) > 0)], axis=-1)
    return SequentialSolution(value, roll, sweeps, residual, "value_iteration", rules)
