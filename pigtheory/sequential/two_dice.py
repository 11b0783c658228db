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
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from ..engine import ENGINES, choose_engine
from ..jit import compiled, kernel
from ..parallel import one_blas_thread
from ..progress import ProgressBar
from ..rules import Rules
from ..validation import ConvergenceWarning, check_choice, check_int, check_progress, check_tol
from .model import SequentialSolution, check_rules

__all__ = ["solve_two_dice", "turn_sweep"]

_TIE = 1e-13


def weighted_rows(p: np.ndarray, block: np.ndarray, out: np.ndarray, scratch: np.ndarray) -> np.ndarray:
    """``out = sum_r p[r] * block[r]`` over the rows of a 2-D ``block``, added in the fixed order
    ``r = 0, 1, ...`` by elementwise numpy operations (no fused multiply-add), so the same bits on
    any CPU; ``scratch`` (contiguous, at least ``len(p)`` times ``block``'s width) holds the products.

    Notes
    -----
    A BLAS matrix-vector product (``p @ block``) picks its kernel by the CPU (OpenBLAS's
    ``DYNAMIC_ARCH``: Haswell, SkylakeX, Zen, ...), and the kernels add the products in other
    orders and fuse them differently: the two-dice values changed in their last bits from one
    CPU to another, and near-tied thresholds then flipped in figures. Here the products are
    taken in one call and a reduction over the outer axis adds the rows one after the other
    (pairwise summation applies to the inner axis only): every entry is the same sequence of
    rounded products and sums whatever the CPU.
    """
    rows, width = len(p), block.shape[1]
    buf = scratch.reshape(-1)[: rows * width].reshape(rows, width)  # contiguous products
    prod = np.multiply(block[:rows], p[:, None], out=buf)
    return np.add.reduce(prod, axis=0, out=out)


class SweepArrays(NamedTuple):
    """The arrays of one sweep (:func:`turn_sweep`) that its compiled step (``_settle``) reads
    and writes, over own score i and opponent score j: ``const[i, j]`` (the bust and reset
    terms), ``boundary[i, j]`` (Double Trouble: the value after a double past the goal), the
    roll sums of the turn total at hand ``x[i * goal + j]`` (and ``y`` after a double),
    ``vpad_t[s, j] = V[j, s]`` (0 once ``s >= goal``), the values ``p0[k, i, j]`` (and ``p1``
    after a double) and the choices ``roll[i, j, k]`` (written with ``full``)."""

    const: np.ndarray
    boundary: np.ndarray
    x: np.ndarray
    y: np.ndarray
    vpad_t: np.ndarray
    p0: np.ndarray
    p1: np.ndarray
    roll: np.ndarray


def turn_sweep(
    v: np.ndarray, rules: Rules, full: bool = False, explicit_tail: int = 0, *, engine: str = "numpy"
):
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
    engine : {"numpy", "numba", "auto"}
        Who does each turn total's roll sums and the step after them (adding the constant
        terms, comparing with holding, storing): numpy, or compiled loops that take the same
        operations in the same order (``_weighted_rows``, ``_settle``), so both give
        the same bits. ``"auto"`` picks by the size
        (:func:`pigtheory.engine.choose_engine`).

    Returns
    -------
    numpy.ndarray, shape ``(goal, goal)``
        The new start values; with ``full=True`` a pair ``(new, (p0, p1, roll))``, ``p0``,
        ``p1`` and ``roll`` of shape ``(goal, goal, goal)`` over (i, j, k): the values with
        ``l = 0`` and ``l = 1`` (``p1`` None unless Double Trouble) and the choice to roll.
    """
    return _Sweeps(rules, explicit_tail, engine)(v, full)


class _Sweeps:
    """The sweeps of one solve (:func:`turn_sweep`), with their work arrays kept from sweep to
    sweep: the entries of finished rows (``i + k >= goal``, value 1) are written once."""

    def __init__(self, rules: Rules, explicit_tail: int, engine: str) -> None:
        g = self.g = rules.goal
        model = self.model = rules.roll_model()
        m = self.m = model.max_gain
        self.pfree, self.pforced = model.free_vector(), model.forced_vector()
        dt = self.dt = bool(self.pforced.any())
        self.tail = explicit_tail if dt else 0
        kk = self.kk = g + explicit_tail + m + 1
        self.settle = _compiled() if choose_engine(engine, g**3, same_bits=True) == "numba" else None
        self.ii = np.arange(g)[:, None]
        self.done = (self.ii[None] + np.arange(kk)[:, None, None]) >= g
        # p1 (after a double) is used only for Double Trouble; always allocated for simplicity
        self.p0 = np.empty((kk, g, g))
        self.p0[:] = np.where(self.done, 1.0, 0.0)  # (the sweeps write the live entries only)
        self.p1 = np.empty((kk, g, g) if dt else (1, 1, 1))
        self.f0 = self.p0.reshape(kk, g * g)
        self.f1 = self.p1.reshape(self.p1.shape[0], -1)
        assert np.shares_memory(self.f0, self.p0) and np.shares_memory(self.f1, self.p1)
        self.vpad_t = np.zeros((2 * g + m + 1, g))
        self.x = np.empty(g * g)
        self.y = np.empty(g * g if dt else 1)
        # the numpy engine's products (the compiled sums need none)
        self.scratch = np.empty(0 if self.settle else max(self.pfree.size, self.pforced.size) * g * g)

    def __call__(self, v: np.ndarray, full: bool):
        g, m, dt, tail = self.g, self.m, self.dt, self.tail
        model, pfree, pforced, ii = self.model, self.pfree, self.pforced, self.ii
        p0, p1, f0, f1, vpad_t, settle = self.p0, self.p1, self.f0, self.f1, self.vpad_t, self.settle
        q_free, q_double = float(pfree.sum()), float(pforced.sum())
        vpad_t[:g] = v.T  # vpad_t[s, j] = V[j, s], 0 once s >= goal
        const = float(model.p_bust) * (1.0 - v.T) + float(model.p_reset) * (1.0 - v[:, 0])[None, :]
        boundary = np.ascontiguousarray((q_free + const) / (1.0 - q_double) if dt else const)
        if dt and settle is None:
            p1[:] = np.where(self.done, boundary[None], 0.0)
        elif dt:  # the kernel writes the finished rows of turn totals k < goal
            p1[g:] = boundary[None]
        if dt and tail:
            p1[g + tail :] = 0.0  # beyond the followed tail: needs ~tail/12 more doubles
        roll = np.zeros((g, g, g) if full else (1, 1, 1), dtype=bool)
        c = np.ascontiguousarray(const)
        x, y = self.x, self.y
        arrays = SweepArrays(c, boundary, x, y, vpad_t, p0, p1, roll)
        for k in range(g - 1 + tail, -1, -1):
            # only own scores i < goal - k are still playing (all rows when following the tail)
            rows = g if tail else g - k
            n = rows * g
            if settle is not None:  # the same operations, in the same order, compiled
                general, live, live_dt, weighted = settle
                weighted(pfree, f0, k + 1, x[:n])
                if dt:
                    weighted(pforced, f1, k + 1, y[:n])
                if full or tail or not k:
                    general(k, rows, g, arrays, dt, tail, full, _TIE)
                elif dt:
                    live_dt(k, rows, g, arrays, _TIE)
                else:
                    live(k, rows, g, arrays, _TIE)
                continue
            # (flattened over (i, j): the first rows are one strided block, no copy)
            r = const[:rows] + weighted_rows(pfree, f0[k + 1 : k + 1 + m, :n], x[:n], self.scratch).reshape(
                rows, g
            )
            if dt:
                r += weighted_rows(pforced, f1[k + 1 : k + 1 + m, :n], y[:n], self.scratch).reshape(rows, g)
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


@kernel
def _settle(k, rows, g, arrays, dt, tail, full, tie):  # pragma: no cover - compiled
    """Turn total ``k`` of :func:`turn_sweep` for own scores ``i < rows``, given the roll sums
    ``x`` (and ``y`` after a double, Double Trouble) of the :class:`SweepArrays` ``arrays``:
    the numpy engine's elementwise steps, in its order, in one loop (the same bits; no
    temporary arrays). Double Trouble without a tail: the finished rows ``i >= rows``
    (``i + k >= goal``) after a double get their boundary value here too, which the numpy
    engine writes before the sweep."""
    const, boundary, x, y, vpad_t, p0, p1, roll = arrays
    for i in range(rows):
        live = i + k < g
        for j in range(g):
            r = const[i, j] + x[i * g + j]
            if dt:
                r = r + y[i * g + j]
                if tail:
                    p1[k, i, j] = r
            if tail and k >= g:
                continue
            hold = 1.0 - vpad_t[k + i, j]
            if k:
                ch = r > hold + tie
            else:
                ch = r >= hold - tie
            if live:
                p0[k, i, j] = r if ch else hold
            else:
                p0[k, i, j] = 1.0
            if dt and not tail:
                p1[k, i, j] = r
            if full:
                roll[i, j, k] = ch and live
    if dt and not tail:
        for i in range(rows, g):
            for j in range(g):
                p1[k, i, j] = boundary[i, j]


@kernel
def _settle_live(k, rows, g, arrays, tie):  # pragma: no cover - compiled
    """:func:`_settle` for two dice at turn total ``k > 0``, without the roll choices: the
    common case, as one branch-free loop."""
    const, x, vpad_t, p0 = arrays.const, arrays.x, arrays.vpad_t, arrays.p0
    for i in range(rows):
        for j in range(g):
            r = const[i, j] + x[i * g + j]
            hold = 1.0 - vpad_t[k + i, j]
            p0[k, i, j] = r if r > hold + tie else hold


@kernel
def _settle_live_dt(k, rows, g, arrays, tie):  # pragma: no cover - compiled
    """:func:`_settle` for Double Trouble at turn total ``k > 0``, without a tail or the
    roll choices."""
    const, boundary, x, y, vpad_t, p0, p1, _ = arrays
    for i in range(rows):
        for j in range(g):
            r = const[i, j] + x[i * g + j]
            r = r + y[i * g + j]
            hold = 1.0 - vpad_t[k + i, j]
            p0[k, i, j] = r if r > hold + tie else hold
            p1[k, i, j] = r
    for i in range(rows, g):
        for j in range(g):
            p1[k, i, j] = boundary[i, j]


@kernel
def _weighted_rows(p, flat, first, out):  # pragma: no cover - compiled
    """:func:`weighted_rows` of ``block = flat[first : first + len(p), :out.size]`` in one
    compiled pass: ``out[w] = p[0] block[0, w]``, then ``out[w] += p[r] block[r, w]`` for
    r = 1, 2, ... in order, each product rounded and then added (numba fuses no multiply-add
    unless asked), which is numpy's sequence of operations there: the same bits, without the
    products' scratch array. A row of weight 0 is skipped: adding ``0 * b = +0`` leaves every
    sum as it is, since the values are finite and no sum is ``-0``."""
    n = out.size
    started = False
    for r in range(p.size):
        pr = p[r]
        if pr == 0.0:
            continue
        row = flat[first + r]
        if not started:
            for w in range(n):
                out[w] = pr * row[w]
            started = True
        else:
            for w in range(n):
                out[w] = out[w] + pr * row[w]
    if not started:
        out[:] = 0.0


@lru_cache(maxsize=1)
def _compiled() -> Any:
    """:func:`_settle`, its two special cases and :func:`_weighted_rows` compiled
    (:func:`pigtheory.jit.compiled`)."""
    return tuple(compiled(f) for f in (_settle, _settle_live, _settle_live_dt, _weighted_rows))


def solve_two_dice(
    *,
    rules: Rules = Rules(dice=2),
    tol: float = 1e-12,
    max_iter: int = 100_000,
    progress: bool | None = None,
    explicit_tail: int = 0,
    engine: str = "auto",
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
    engine : {"auto", "numba", "numpy"}
        Who does each sweep's elementwise step (:func:`turn_sweep`); every engine gives the
        same bits. ``"auto"``: compiled from goal 32 on (``goal**3`` cells a sweep, about
        ``3 * goal`` sweeps; :func:`pigtheory.engine.choose_engine`) and in a process where
        numba is loaded.

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
    check_choice("engine", engine, ENGINES)
    g = rules.goal
    # the whole solve's work: goal**3 cells a sweep, about 3 * goal sweeps
    engine = choose_engine(engine, 3.0 * g**4, same_bits=True)
    v = np.zeros((g, g))
    sweep = _Sweeps(rules, explicit_tail, engine)
    residual, sweeps = np.inf, 0
    bar = ProgressBar(max(1, int(-np.log10(tol)) * 10), "sequential two dice", progress)
    shown = 0
    # each sweep is goal-many short products (12 rows): BLAS threads only spin on them (goal
    # 200 on 2 cores took 5x the CPU time with them)
    with one_blas_thread():
        while residual >= tol and sweeps < max_iter:
            new = sweep(v, False)
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
    with one_blas_thread():
        _, (p0, p1, roll) = sweep(v, True)
    live = (np.arange(g)[:, None, None] + np.arange(g)[None, None, :]) < g
    value = np.where(live, p0, np.nan)
    if p1 is not None:
        forced = np.where(live, p1, np.nan)
        forced[:, :, 0] = np.nan  # no double has been rolled at turn total 0
        value = np.stack([value, forced], axis=-1)
        roll = np.stack([roll, live.repeat(g, axis=1) & (np.arange(g) > 0)], axis=-1)
    return SequentialSolution(value, roll, sweeps, residual, "value_iteration", rules)
