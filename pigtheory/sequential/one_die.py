"""Optimal play of one-die sequential Pig (and Piglet), exact, from the end of the game backwards.

Shapes are those of :mod:`pigtheory.sequential.model`: ``value[i, j, k]``, ``roll[i, j, k]``.

Notes
-----
Neller & Presser's equations, with ``p`` the bust probability and ``p_g`` that of a roll
adding ``g`` points:

.. math::

    P_{i,j,k} = \\max\\Big(1 - P_{j,i+k,0},\\;
        p\\,(1 - P_{j,i,0}) + \\sum_g p_g\\, P_{i,j,k+g}\\Big),
    \\qquad P_{i,j,k} = 1 \\text{ if } i + k \\ge \\text{goal}.

Scores never decrease, so with the score sum ``s = i + j`` the hold term lies on a higher
level ``s + k`` and only the bust term ``1 - P_{j,i,0}`` stays on level ``s``. Levels are
solved from ``s = 2 (goal - 1)`` down to 0. On one level, and for a guessed value
``y = P_{j,i,0}`` of the partner state, every ``P_{i,j,k}`` is an affine function ``a + b y``
of ``y`` once the roll/hold choices are fixed; a backward pass over k gives ``a``, ``b`` and
the choices, and the two start values of each pair (i, j), (j, i) then follow from a 2x2
linear system. This is policy iteration restricted to the level: repeated until the choices
no longer change (one pass for most pairs, at most four seen), after which the values solve the
equations exactly (up to rounding). Ties go to holding for ``k >= 1`` and to rolling at
``k = 0``, within ``1e-13``.

Two engines run this algorithm: ``"numpy"`` (the reference) handles every pair of a level at
once with batched array operations; ``"numba"`` (:mod:`pigtheory.sequential.kernels`) runs
each pair on its own in compiled loops and writes the result arrays directly, with no
temporaries beyond one column per pair. The two give the same choices and the same values to
rounding (tested to 1e-12).

:func:`solve_exact` runs the same algorithm in rational arithmetic for small goals.

References
----------
T. W. Neller and C. G. M. Presser, "Optimal play of the dice game Pig", The UMAP Journal 25
(2004); "Perspectives on perfect and practical play of Pig" (slides: "Pig probabilities",
"Solving Pig": "solve groups of interdependent probabilities from game end backward").
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np

from ..engine import choose_engine
from ..progress import progress_bar
from ..rules import Rules
from ..validation import ConvergenceWarning, check_int, check_progress
from .model import SequentialSolution, check_rules

__all__ = ["solve_one_die", "solve_exact"]

_TIE = 1e-13


def _check(rules: Rules) -> None:
    check_rules(rules)
    if not rules.roll_model().simple:
        raise ValueError(
            f"rules.dice must be 1 for the one-die solver (no snake eyes, no forced roll), got {rules.dice}"
        )


def _level_pass(y, hold, pvec, p_bust):
    """One backward pass over k for all pairs of a level, at guessed partner values ``y``.

    ``hold[k]`` is the hold value of turn total k >= 1 (1 beyond the goal). Returns ``ab``
    (k, 2, n): the affine coefficients in ``y`` of every state's value under the greedy
    choices, ``acc`` (k, 2, n): those of rolling, and ``choice`` (k, n).

    Each state carries three lanes, ``(a, b, v)``: the coefficients and the value
    ``v = a + b y`` itself, so that one reduction gives a roll's coefficients and the value
    the choice compares. ``v`` is used for the choice only; the returned coefficients are
    reduced from ``a`` and ``b`` alone, in the same order as before. ``v`` can differ from
    ``a + b y`` in the last bit, so a choice could flip only where roll and hold are within
    rounding of the 1e-13 tie margin; the values and choices kept their SHA-256 at goals 10,
    30, 61, 100 and 200.
    """
    kk, n = hold.shape
    m = pvec.size
    flat = np.zeros((kk + m, 3 * n))
    flat[kk:, :n] = 1.0  # beyond the goal: a won state, worth 1
    flat[kk:, 2 * n :] = 1.0
    # a state holds (or passes) unless its roll is chosen below: a = hold, b = 0, v = hold
    flat[:kk, :n] = hold
    flat[:kk, 2 * n :] = hold
    flat[0, :n], flat[0, n : 2 * n], flat[0, 2 * n :] = 1.0, -1.0, 1.0 - y  # k = 0: pass, 1 - y
    hv_tie = hold + _TIE
    # k = 0: roll on (near) ties, i.e. roll iff rv > (1 - y) - tie
    hv_tie[0] = 1.0 - y - _TIE
    choice = np.zeros((kk, n), dtype=bool)
    accs = np.zeros((kk, 3 * n))
    # the products of the m rolls, then the bust term as a last row of weight 1: reducing the
    # rows in order gives (p_1 f_1 + ... + p_m f_m) + base, the order of weighted_rows (two_dice)
    # followed by the bust term, the same bits on any CPU, in one call
    prod = np.empty((m + 1, 3 * n))
    prod[m, :n], prod[m, n : 2 * n], prod[m, 2 * n :] = p_bust, -p_bust, p_bust * (1.0 - y)
    terms = prod[:m]
    pcol = pvec[:, None]
    # (k, 3, n) views made once: the loop runs goal^2 times per pass, and numpy's per-call
    # cost is most of its time at these sizes
    flat3, accs3 = flat.reshape(kk + m, 3, n), accs.reshape(kk, 3, n)
    rv = accs[:, 2 * n :]
    for k in range(kk - 1, -1, -1):
        np.multiply(flat[k + 1 : k + 1 + m], pcol, out=terms)
        np.add.reduce(prod, axis=0, out=accs[k])
        np.copyto(flat3[k], accs3[k], where=np.greater(rv[k], hv_tie[k], out=choice[k]))
    return flat3[:kk, :2], accs3[:, :2], choice


def _greedy(acc, hold, y):
    """Roll/hold choices and roll - hold gaps at partner values ``y``, successors' policy fixed."""
    rv = acc[:, 0] + acc[:, 1] * y
    hv = hold.copy()
    hv[0] = 1.0 - y
    gap = rv - hv
    choice = gap > _TIE
    choice[0] = gap[0] >= -_TIE
    return choice, gap


def solve_one_die(
    *,
    rules: Rules = Rules(),
    engine: str = "auto",
    progress: bool | None = None,
    max_passes: int = 50,
) -> SequentialSolution:
    """Optimal two-player sequential Pig with one die (any faces, Piglet's coin), exactly.

    Neller & Presser's equations (slides "Pig Probabilities"; Piglet: "Assume Rationality")
    solved level by level from the end of the game (module Notes), as their slide "Solving
    Pig" suggests, instead of by value iteration.

    Parameters
    ----------
    rules : Rules
        ``dice=1``, ``players=2``.
    engine : {"auto", "numba", "numpy"}
        The level pass as compiled loops or as batched numpy (the reference); the same
        values to rounding and the same choices. ``"auto"`` decides by the size of the solve,
        ``goal**2 (goal + 1)`` state-action pairs (:func:`pigtheory.engine.choose_engine`;
        numba from goal 144 on with ``NUMBA_WORK`` = 3 million).
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal).
    max_passes : int
        Cap on the policy-iteration passes per pair of partner states (one is usual, four the
        most seen up to goal 500); reaching it warns with
        :class:`~pigtheory.validation.ConvergenceWarning`.

    Returns
    -------
    SequentialSolution
        ``value[i, j, k]`` and ``policy[i, j, k]`` (True: roll), shape ``(goal, goal, goal)``,
        NaN / False where ``i + k >= goal``; ``iterations`` = total passes over all levels (a level counts the passes of its
        slowest pair); ``residual`` = the largest violation of the equations left (rounding
        only: near-ties the choices may take either way).

    Examples
    --------
    >>> sol = solve_one_die(rules=Rules.piglet(goal=2))
    >>> round(sol.first_player_win, 10), 4 / 7
    (0.5714285714, 0.5714285714285714)
    """
    _check(rules)
    max_passes = check_int("max_passes", max_passes, low=1)
    check_progress(progress)
    g = rules.goal
    if choose_engine(engine, g * g * (g + 1)) == "numba":
        value, roll, passes, residual, stuck = _levels_numba(rules, progress, max_passes)
    else:
        value, roll, passes, residual, stuck = _levels_numpy(rules, progress, max_passes)
    if stuck:
        warnings.warn(
            f"policy iteration stopped at max_passes={max_passes} on {stuck} pair(s) of states "
            f"with largest violation {residual:.3g} >= tie tolerance {_TIE:g}",
            ConvergenceWarning,
            stacklevel=2,
        )
    return SequentialSolution(value, roll, passes, residual, "exact", rules)


def _levels_numba(rules: Rules, progress: bool | None, max_passes: int):
    """The compiled engine: levels in a few chunks, so that a progress bar can move."""
    from .kernels import one_die

    kernel = one_die()
    g = rules.goal
    model = rules.roll_model()
    pvec = np.ascontiguousarray(model.free_vector(), dtype=np.float64)
    p_bust = float(model.p_bust)
    v0 = np.zeros((g, 2 * g + 1))
    value = np.empty((g, g, g))  # every entry is written (NaN where i + k >= goal)
    roll = np.zeros((g, g, g), dtype=np.bool_)
    out = np.zeros(3)
    n_levels = 2 * g - 1
    chunks = 1 if g < 100 else 50
    edges = np.linspace(n_levels, 0, chunks + 1).round().astype(int)  # levels s = edge - 1 ...
    with progress_bar(n_levels, "sequential one die", progress) as bar:
        for hi, lo in zip(edges[:-1], edges[1:], strict=True):
            if hi > lo:
                kernel(g, int(hi) - 1, int(lo), pvec, p_bust, _TIE, max_passes, v0, value, roll, out)
                bar.update(int(hi - lo))
    return value, roll, int(out[0]), float(out[2]), int(out[1])


def _levels_numpy(rules: Rules, progress: bool | None, max_passes: int):
    """The reference engine: every pair of a level at once, one batched pass per iteration."""
    g = rules.goal
    model = rules.roll_model()
    pvec = model.free_vector()
    p_bust = float(model.p_bust)
    v0 = np.zeros((g, 2 * g + 1))  # v0[j, s]: start-of-turn values; s >= goal means "lost" (0)
    value = np.full((g, g, g), np.nan)
    roll = np.zeros((g, g, g), dtype=bool)
    ks = np.arange(g)
    passes, residual, stuck = 0, 0.0, 0
    with progress_bar(2 * g - 1, "sequential one die", progress) as bar:
        for s in range(2 * g - 2, -1, -1):
            i = np.arange(max(0, s - g + 1), min(s, g - 1) + 1)
            j = s - i
            partner = i.size - 1 - np.arange(i.size)
            top = g - i[0]  # no state of this level has a larger turn total
            hold = 1.0 - v0[j[None, :], i[None, :] + ks[:top, None]]
            # extrapolate the partner's start value from the two levels above
            y = np.clip(2.0 * v0[j, i + 1] - v0[j, i + 2], 0.0, 1.0)
            for _ in range(max_passes):
                ab, acc, choice = _level_pass(y, hold, pvec, p_bust)
                passes += 1
                a, b = ab[0, 0], ab[0, 1]
                x = (a + b * a[partner]) / (1.0 - b * b[partner])
                y = x[partner]
                # Policy iteration: stop when the choices are greedy at their own fixed point.
                new_choice, gap = _greedy(acc, hold, y)
                settled = (new_choice == choice) | (np.abs(gap) < _TIE)
                if np.all(settled):
                    break
            else:
                bad = ~np.all(settled, axis=0)
                stuck += int(np.count_nonzero((bad | bad[partner])[: (i.size + 1) // 2]))
            # what is left: equations violated by near-ties the choices may take either way
            residual = max(residual, float(np.max(np.abs(gap[new_choice != choice]), initial=0.0)))
            vals = ab[:, 0, :] + ab[:, 1, :] * y  # (k, n)
            v0[i, j] = vals[0]
            # state (i, j, k) exists for k < goal - i: one masked block per level, not a
            # copy per pair (NaN / False where i + k >= goal, as initialised)
            inside = ks[None, :top] < (g - i)[:, None]
            value[i, j, :top] = np.where(inside, vals.T, np.nan)
            roll[i, j, :top] = inside & choice.T
            bar.update()
    return value, roll, passes, residual, stuck


def solve_exact(*, rules: Rules) -> dict[tuple[int, int, int], Fraction]:
    """Exact rational values ``{(i, j, k): P}`` of one-die sequential Pig for a small goal.

    The algorithm of :func:`solve_one_die` in :class:`fractions.Fraction` arithmetic; the
    roll/hold choices are compared exactly (ties: hold for k >= 1, roll at k = 0).

    Parameters
    ----------
    rules : Rules
        One die (or Piglet's coin), two players, ``goal <= 30``.

    Returns
    -------
    dict of (int, int, int) to Fraction
        ``P_{i,j,k}`` of Neller & Presser's equations (slides "Pig Probabilities") for every
        state ``0 <= i, j, k``, ``i + k < goal``, ``j < goal``: the player to move's win
        probability.

    Examples
    --------
    >>> v = solve_exact(rules=Rules.piglet(goal=2))
    >>> v[0, 0, 0], v[1, 1, 0]
    (Fraction(4, 7), Fraction(2, 3))
    """
    _check(rules)
    if rules.goal > 30:
        raise ValueError(f"rules.goal must be <= 30 for exact rational solving, got {rules.goal}")
    g = rules.goal
    model = rules.roll_model()
    one = Fraction(1)
    v: dict[tuple[int, int, int], Fraction] = {}

    def start(j: int, s: int) -> Fraction:
        return Fraction(0) if s >= g else v[j, s, 0]

    def column(i: int, j: int, y: Fraction) -> tuple[list[tuple[Fraction, Fraction]], list[bool]]:
        ab: dict[int, tuple[Fraction, Fraction]] = {}
        choices = []
        for k in range(g - 1 - i, -1, -1):
            a = model.p_bust
            b = -model.p_bust
            for gain, p in model.free:
                ga, gb = ab.get(k + gain, (one, Fraction(0)))
                a, b = a + p * ga, b + p * gb
            if k:
                h = one - start(j, i + k)
                ch = a + b * y > h
                ab[k] = (a, b) if ch else (h, Fraction(0))
            else:
                ch = a + b * y >= one - y
                ab[k] = (a, b) if ch else (one, -one)
            choices.append(ch)
        return [ab[k] for k in range(g - i)], choices

    for s in range(2 * g - 2, -1, -1):
        pairs = [(i, s - i) for i in range(max(0, s - g + 1), min(s, g - 1) + 1)]
        y = {p: Fraction(1, 2) for p in pairs}
        prev: dict | None = None
        while True:
            cols = {(i, j): column(i, j, y[i, j]) for i, j in pairs}
            x = {}
            for i, j in pairs:
                a, b = cols[i, j][0][0]
                a2, b2 = cols[j, i][0][0]
                x[i, j] = (a + b * a2) / (1 - b * b2)
            choices = {p: c[1] for p, c in cols.items()}
            if choices == prev:
                break
            prev = choices
            y = {(i, j): x[j, i] for i, j in pairs}
        for i, j in pairs:
            for k, (a, b) in enumerate(cols[i, j][0]):
                v[i, j, k] = a + b * x[j, i]
    return v
