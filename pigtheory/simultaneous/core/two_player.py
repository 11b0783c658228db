"""The two-player engines of the core: the best response by batches of anti-diagonals.

:func:`best_response_two` runs the numpy engine below or the compiled kernels of
:mod:`.kernels` (:mod:`pigtheory.engine` chooses); both solve the Bellman equation of
:mod:`.actions` exactly, the numpy one batched over states, the compiled one state by state.

Batches
-------
A batch holds the levels ``d0 .. d0 + m0 - 1`` of ``i + j``, with ``m0`` the smallest positive
roll (2 for a six-sided die). Each of the two turns adds 0, at least ``m0`` points, or reaches
the goal (a terminal state, known from the start), so every unknown successor of a state at
level d lies at a level ``>= d + m0``: the states of one batch depend only on earlier batches and
are solved together. Batch arrays have shape ``(m0, n, ...)``; entry ``(t, q)`` is the state
``i = ihi - q``, ``j = d0 + t - i``. Entries off the board (``j < 0`` or ``j >= goal``) carry zero
probabilities, so they compute exactly 0 and write it either into padding rows or into
``V(i, goal)``, whose terminal value is 0 anyway (``test_terminal_values`` guards this).

Strided views
-------------
Along a batch, ``W[j, i + x]`` (any table stored by B's score first) is one strided view with
steps ``(R, R - 1, 1)`` in ``(t, q, x)``, R the row length, so reading the continuation values
needs no fancy indexing. The action values of all thresholds read only the band of X_k, its
``w + 1`` non-zeros ``P(X_k = 0)`` and ``P(X_k = k + r)``, ``r < w`` (the dense matrix
``M[x, k - 1] = P(X_k = x)`` is about ``goal / (w + 1)`` times larger): the ``w + 1`` products
are stacked, the bust first, and summed along the stack one after the other, the order of the
compiled :func:`~.step.threshold_values`. With the thresholds above a state's room masked
and the same self-loop factors, the numpy engine gives the compiled engine's bits, which
lets ``engine="auto"`` use either (:func:`~pigtheory.engine.choose_engine`, ``same_bits``).

When B's turn does not depend on A's score (``hold_at``, a table by B's score only), the
continuation ``U[a, j] = E_Y[V(a, min(j + Y, g))]`` is itself a stored table: each new value
``V(i, j)`` enters ``U(i, j)`` as ``P(Y = 0 | j) V(i, j)`` on top of ``Z(i, j)``, the part with
``Y > 0``, which is known before the batch. The self-loop factors ``1 / (1 - P(Y = 0 | j) P(X_k = 0))``
then form a table by ``(j, k)``, read through another strided view. Otherwise (B's turn
depends on A's score) ``U`` is gathered per batch from the transposed value table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...engine import choose_engine, numpy_clock
from ...rules import Rules
from ...stopping import TurnPolicy
from ...turn_total import turn_total_table
from . import kernels
from .actions import TIE_TOL, greedy
from .step import Roll, band_of


@dataclass(frozen=True, eq=False)
class _Batch:
    d0: int
    ihi: int
    n: int
    K: int  # thresholds 1..K are evaluated (K = goal - lowest own score of the batch)
    start: int  # rows start .. start + m0 * n of the geometry's flat state arrays
    valid: np.ndarray  # (m0, n) bool: the entry is a non-terminal state


@dataclass(frozen=True, eq=False)
class _Geometry:
    goal: int
    m0: int
    width: int
    batches: tuple[_Batch, ...]
    i: np.ndarray  # own score of every batch entry, in batch order (clamped into the board)
    j: np.ndarray  # opponent score (clamped)
    valid: np.ndarray


@lru_cache(maxsize=8)
def batch_geometry(rules: Rules) -> _Geometry:
    """The batches of anti-diagonals of two-player Pig under ``rules`` (cached)."""
    g = rules.goal
    table = turn_total_table(rules.replace(players=2))
    w = table.width
    m0 = int(rules.roll_arrays()[1][0])  # the smallest positive roll
    batches, iis, jjs, oks = [], [], [], []
    start = 0
    d0 = 2 * g - 2 - m0 + 1
    while d0 + m0 - 1 >= 0:
        ilo = max(0, d0 - (g - 1))
        ihi = min(d0 + m0 - 1, g - 1)
        n = ihi - ilo + 1
        i = np.broadcast_to(ihi - np.arange(n), (m0, n))
        j = d0 + np.arange(m0)[:, None] - i
        valid = (j >= 0) & (j < g)
        valid.setflags(write=False)
        batches.append(_Batch(d0, ihi, n, g - ilo, start, valid))
        iis.append(i.ravel())
        jjs.append(np.clip(j, 0, g - 1).ravel())
        oks.append(valid.ravel())
        start += m0 * n
        d0 -= m0
    i_all, j_all, ok_all = (np.concatenate(a) for a in (iis, jjs, oks))
    for a in (i_all, j_all, ok_all):
        a.setflags(write=False)
    return _Geometry(g, m0, w, tuple(batches), i_all, j_all, ok_all)


def _view(
    buf: np.ndarray,
    row0: int,
    b: _Batch,
    m0: int,
    length: int,
    col_step: int = 1,
    col0: int = 0,
    shifts: int = 0,
) -> np.ndarray:
    """``view[t, q, x] = buf[row0 + j, col0 + i + x]`` at the batch entries (see the module
    docstring).

    With ``col_step = 0`` the column does not move with the state: ``buf[row0 + j, col0 + x]``.
    With ``shifts = w > 0``, ``view[r, t, q, x] = buf[row0 + j, i + 1 + r + x]`` for ``r < w``:
    the gains ``x + 1 + r`` of the band of X_{x + 1}.
    """
    R, s = buf.shape[1], buf.itemsize
    first = (row0 + b.d0 - b.ihi) * R + col_step * b.ihi + col0
    if shifts:
        return np.ndarray(
            (shifts, m0, b.n, length), buf.dtype, buf, (first + 1) * s, (s, R * s, (R - col_step) * s, s)
        )
    return np.ndarray((m0, b.n, length), buf.dtype, buf, first * s, (R * s, (R - col_step) * s, s))


def _sum_in_order(terms: np.ndarray) -> np.ndarray:
    """``terms[0] + terms[1] + ...`` added one after the other, as the compiled kernels add
    (``np.add.reduce`` may pair the terms when the summed axis becomes its inner loop, which
    changes the last bits: a die of span 7 showed it)."""
    total = terms[0].copy()
    for t in terms[1:]:
        total += t
    return total


def best_response_two(
    opp: TurnPolicy, rules: Rules, tie_tol: float = TIE_TOL, engine: str = "auto"
) -> tuple[np.ndarray, np.ndarray]:
    """Exact best response of A to B's policy ``opp``: ``(value (g+1, g+1), policy (g, g))``.

    Zhu, Ma, Chen & Liu (2023) eqs. (6)-(10) and (12) solved by backward induction (the
    engines of :func:`pigtheory.simultaneous.best_response` for two players).

    Parameters
    ----------
    opp : Mixture or RuleMixture
        B's policy as the solvers read it (:func:`read_opponents`).
    rules : Rules
        One die, two players.
    tie_tol : float
        The tie rule of :func:`greedy`.
    engine : {"auto", "numba", "numpy"}
        ``"numpy"`` (batched, this module), ``"numba"`` (compiled loops) or ``"auto"``
        (:func:`~pigtheory.engine.choose_engine`, by the work ``goal**3 / 2``, or numba in a
        warm process: the two engines give the same bits).

    Returns
    -------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
        ``value[i, j]``, A's score first.
    policy : numpy.ndarray of int, shape ``(goal, goal)``
        A's best threshold.
    """
    g = rules.goal
    if choose_engine(engine, g * g * g / 2, same_bits=True) == "numba":
        return _solve_jit(opp, rules, tie_tol)  # type: ignore[return-value]
    if engine == "numpy":
        return _solve(opp, rules, tie_tol)
    with numpy_clock():
        return _solve(opp, rules, tie_tol)


def _solve_jit(
    opp: TurnPolicy, rules: Rules, tie_tol: float, stopping: bool = False
) -> tuple[np.ndarray, ...]:
    """The compiled engine: ``(value, policy)``, or with ``stopping`` ``(value, roll,
    threshold_value, threshold_k)`` from the stopping kernels (the same setup)."""
    geo = batch_geometry(rules)
    g, w = geo.goal, geo.width
    V = np.zeros((g + 1, g + 1))
    V[g, :g], V[g, g] = 1.0, 0.5
    policy = np.zeros((g, g), dtype=np.int64)
    band = band_of(rules)
    if stopping:
        roll = Roll(*rules.roll_arrays())
        rule = np.zeros((g, g, g), dtype=bool)
        tval = np.zeros((g, g))
    if opp.reads_own_score_only():
        js = np.arange(g)
        gains, probs = opp.outcomes((js, np.zeros_like(js)))
        pb, pz = np.ascontiguousarray(probs[:, 0]), np.ascontiguousarray(probs[:, 1:])
        cz = np.ascontiguousarray(np.minimum(js[:, None] + gains[:, 1:], g))
        ut = np.zeros((g, 2 * g + w + 1))
        ut[:, g:] = (pb + (V[g][cz] * pz).sum(axis=1))[:, None]
        inv = 1.0 / (1.0 - pb[:, None] * band.bust[None, :])
        indep = kernels.Independent(inv, cz, pz, pb)
        if stopping:
            kernels.stopping_kernel("independent")(band, indep, roll, tie_tol, 100, V, ut, rule, tval, policy)
            return V, rule, tval, policy
        kernels.two_player_kernel(True)(band, indep, tie_tol, V, ut, policy)
        return V, policy
    ii, jj = np.indices((g, g))
    gains, probs = opp.outcomes((jj, ii))
    general = kernels.General(
        np.ascontiguousarray(probs), np.ascontiguousarray(np.minimum(jj[..., None] + gains, g))
    )
    vt = np.zeros((g + 1, 2 * g + w + 1))
    vt[:, g:] = V[g][:, None]
    if stopping:
        kernels.stopping_kernel("general")(band, general, roll, tie_tol, 100, vt, rule, tval, policy)
        V[:g, :] = vt[:, :g].T
        return V, rule, tval, policy
    kernels.two_player_kernel(False)(band, general, tie_tol, vt, policy)
    V[:g, :] = vt[:, :g].T
    return V, policy


def best_stopping_two(
    opp: TurnPolicy, rules: Rules, tie_tol: float = TIE_TOL
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Best response of A over every stopping rule, compiled (two players):
    ``(value (g+1, g+1), roll (g, g, g), threshold_value (g, g), threshold_k (g, g))``, the
    threshold columns being the best "hold at k" at each state against the same continuation.

    Returns
    -------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
    roll : numpy.ndarray of bool, shape ``(goal, goal, goal)``
        ``roll[i, j, t]``: roll at turn total t.
    threshold_value : numpy.ndarray, shape ``(goal, goal)``
    threshold_k : numpy.ndarray of int, shape ``(goal, goal)``
    """
    return _solve_jit(opp, rules, tie_tol, stopping=True)  # type: ignore[return-value]


def _solve(opp: TurnPolicy, rules: Rules, tie_tol: float) -> tuple[np.ndarray, np.ndarray]:
    geo = batch_geometry(rules)
    g, m0, w = geo.goal, geo.m0, geo.width
    G = g + 1
    band = band_of(rules)
    bust, band_t = band.bust, band.band_t[:, None, None, :]
    own, opp_j, ok = geo.i, geo.j, geo.valid
    # Tables by B's score first, m0 padding rows on both sides for batch entries off the board;
    # columns run past the goal, where they repeat the terminal value.
    shape = (G + 2 * m0, 2 * g + w + 2)
    vt = np.zeros(shape)
    vt[m0 : m0 + g, g:] = 1.0
    vt[m0 + g, g:] = 0.5
    pol = np.zeros(shape, dtype=np.int64)
    indep = opp.reads_own_score_only()
    if indep:
        js = np.arange(g)
        gains, probs = opp.outcomes((js, np.zeros_like(js)))
        pb = probs[:, 0]
        cz, pz = np.minimum(js[:, None] + gains[:, 1:], g), probs[:, 1:]
        ut = np.zeros(shape)
        ut[m0 : m0 + g, g:] = (pb + (vt[m0 + cz, g] * pz).sum(axis=1))[:, None]
        # the factors 1 / (1 - P(Y = 0) P(X_k = 0)), as the compiled kernel forms them
        tbuf = np.ones((G + 2 * m0, g + 1))
        tbuf[m0 : m0 + g] = 1.0 / (1.0 - pb[:, None] * bust[None, :])
        # Z(i, j) = sum over Y > 0 of P(Y) V(i, j + Y): flat positions in vt and weights, by
        # outcome first (summed along that axis: in the compiled kernel's order).
        fz = np.take(np.ascontiguousarray((cz - js[:, None]).T), opp_j, axis=1)
        fz *= shape[1]
        fz += (m0 + opp_j) * shape[1] + own
        wz = np.take(np.ascontiguousarray(pz.T), opp_j, axis=1)
        wz *= ok
        pb_all = pb[opp_j] * ok
    else:
        ii, jj = np.indices((g, g))
        gains, probs = opp.outcomes((jj, ii))
        p_all = np.where(ok[:, None], probs[own, opp_j], 0.0)
        c_all = m0 + np.minimum(jj[..., None] + gains, g)[own, opp_j]
        p_all = np.ascontiguousarray(np.moveaxis(p_all, -1, 0)[..., None])  # outcome first
    flat = vt.reshape(-1)
    for b in geo.batches:
        s0, s1 = b.start, b.start + m0 * b.n
        K, L = b.K, b.K + w
        terms = np.empty((w + 1, m0, b.n, K))
        if indep:
            zd = _sum_in_order(flat[fz[:, s0:s1]] * wz[:, s0:s1]).reshape(m0, b.n)
            np.multiply(zd[..., None], bust[1 : K + 1], out=terms[0])
            np.multiply(band_t[..., 1 : K + 1], _view(ut, m0, b, m0, K, shifts=w), out=terms[1:])
            vals = _sum_in_order(terms)
            vals *= _view(tbuf, m0, b, m0, K, col_step=0, col0=1)
        else:
            p = p_all[:, s0:s1].reshape(-1, m0, b.n, 1)
            win = np.lib.stride_tricks.sliding_window_view(vt, L, axis=1)
            gathered = win[c_all[s0:s1], own[s0:s1, None]]  # (entries, outcomes, L)
            gathered = np.moveaxis(gathered.reshape(m0, b.n, -1, L), 2, 0)
            gathered *= p
            u = np.add.reduce(gathered, axis=0)
            np.multiply(u[..., :1], bust[1 : K + 1], out=terms[0])
            np.multiply(band_t[..., 1 : K + 1], _shifted(u, K, w), out=terms[1:])
            vals = _sum_in_order(terms)
            vals /= 1.0 - bust[1 : K + 1] * p[0]
        # thresholds above an entry's room (k > goal - i) are not actions there
        np.copyto(vals, -np.inf, where=_too_big(g, b.ihi, b.n, K))
        best, k = greedy(vals.reshape(-1, K), tie_tol)
        best = best.reshape(m0, b.n)
        _view(vt, m0, b, m0, 1)[..., 0] = best
        _view(pol, m0, b, m0, 1)[..., 0] = k.reshape(m0, b.n)
        if indep:
            _view(ut, m0, b, m0, 1)[..., 0] = zd + pb_all[s0:s1].reshape(m0, b.n) * best
    value = vt[m0 : m0 + G, :G].T.copy()
    policy = pol[m0 : m0 + g, :g].T.copy()
    return value, policy


def _shifted(u: np.ndarray, K: int, w: int) -> np.ndarray:
    """``out[r, ..., k - 1] = u[..., k + r]`` (r < w, k = 1..K): a view."""
    s = u.strides
    return np.ndarray((w,) + u.shape[:-1] + (K,), u.dtype, u, s[-1], (s[-1],) + s)


@lru_cache(maxsize=512)
def _too_big(g: int, ihi: int, n: int, K: int) -> np.ndarray:
    """``mask[q, k - 1]``: threshold k is above the room ``goal - i`` of own score ``i = ihi - q``."""
    room = g - (ihi - np.arange(n))
    mask = np.arange(1, K + 1)[None, :] > room[:, None]
    mask.setflags(write=False)
    return mask
