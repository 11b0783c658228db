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

The band
--------
The action values of all thresholds read only the band of X_k, its ``w + 1`` non-zeros
``P(X_k = 0)`` and ``P(X_k = k + r)``, ``r < w`` (the dense matrix ``M[x, k - 1] = P(X_k = x)``
is about ``goal / (w + 1)`` times larger). The products are added one after the other, the
bust first, in the order of the compiled :func:`~.step.threshold_values`, and divided or
multiplied by the same self-loop factors; with the thresholds above a state's room masked,
the numpy engine gives the compiled engine's bits, which lets ``engine="auto"`` use either
(:func:`~pigtheory.engine.choose_engine`, ``same_bits``). The greedy choice is the first
maximum (``argmax``), and where a second threshold is within ``tie_tol`` of it (rare, and
checked by a second ``argmax``) the first one within, as :func:`~.actions.greedy`.

Flat rows
---------
Every entry of a level gets a row of ``L = goal + w`` thresholds (those above its room masked
with ``-inf``), and the rows of a level are one contiguous block, so that each operation of
the step (the band's products, the sum in the compiled order, the self-loop factors, the
mask, the choice) is one long numpy loop rather than one short loop per entry; the products
read the continuation ``u[k + r]`` of every entry as one run shifted by ``r`` (the thresholds
above the room read past their row, and are masked). The band is tiled once per ``rules``
(at most a few thousand rows: long levels are cut into pieces).

When B's turn does not depend on A's score (``hold_at``, a table by B's score only), the
continuation ``U[a, j] = E_Y[V(a, min(j + Y, g))]`` is itself a stored table: each new value
``V(i, j)`` enters ``U(i, j)`` as ``P(Y = 0 | j) V(i, j)`` on top of ``Z(i, j)``, the part with
``Y > 0``, which is known before the batch (for several batches at once: a batch reads ``V``
only from levels at least B's smallest gain higher). Its rows have ``R = L + 1`` numbers: the
entries of a level, ``i`` falling by 1 as ``j`` rises by 1, then start exactly ``L`` numbers
apart, and the level's continuations are read in place. Otherwise (B's turn depends on A's
score) each entry's continuation is gathered from the value table into its row, B's outcomes
added in the compiled kernel's order.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...engine import choose_engine, numpy_clock
from ...rules import Rules
from ...stopping import TurnPolicy
from ...turn_total import turn_total_table
from . import kernels
from .actions import TIE_TOL
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
        The tie rule of :func:`~.actions.greedy`.
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
    threshold_value, threshold_k, passes)`` from the stopping kernels (the same setup)."""
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
        passes = np.zeros((g, g), dtype=np.int64)
    if opp.reads_own_score_only():
        indep, ut0 = _independent_setup(opp, rules, w)
        ut = ut0.copy()
        if stopping:
            kernels.stopping_kernel("independent")(
                band, indep, roll, tie_tol, 100, V, ut, rule, tval, policy, passes
            )
            return V, rule, tval, policy, passes
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
        kernels.stopping_kernel("general")(band, general, roll, tie_tol, 100, vt, rule, tval, policy, passes)
        V[:g, :] = vt[:, :g].T
        return V, rule, tval, policy, passes
    kernels.two_player_kernel(False)(band, general, tie_tol, vt, policy)
    V[:g, :] = vt[:, :g].T
    return V, policy


_SETUPS: dict[tuple, tuple[kernels.Independent, np.ndarray]] = {}
""":func:`_independent_setup` by opponent (small policies: "hold at n", tables by own score)."""

_SETUPS_LOCK = threading.Lock()
_SETUP_KEY_ELEMENTS = 4096  # policies with at most this many numbers are remembered by value


def _independent_setup(opp: TurnPolicy, rules: Rules, w: int) -> tuple[kernels.Independent, np.ndarray]:
    """The compiled engine's record of an opponent whose turn reads its own score only, and the
    continuation table's start (terminal values past the goal): built once per small opponent
    policy (by its arrays' values) and rules; the kernel only reads the record."""
    th, wt = getattr(opp, "thresholds", None), getattr(opp, "weights", None)
    key = None
    if isinstance(th, np.ndarray) and isinstance(wt, np.ndarray) and th.size + wt.size <= _SETUP_KEY_ELEMENTS:
        key = (rules, th.shape, th.dtype.str, th.tobytes(), wt.shape, wt.dtype.str, wt.tobytes())
        known = _SETUPS.get(key)
        if known is not None:
            return known
    g = rules.goal
    band = band_of(rules)
    js = np.arange(g)
    gains, probs = opp.outcomes((js, np.zeros_like(js)))
    pb, pz = np.ascontiguousarray(probs[:, 0]), np.ascontiguousarray(probs[:, 1:])
    cz = np.ascontiguousarray(np.minimum(js[:, None] + gains[:, 1:], g))
    at_goal = np.zeros(g + 1)
    at_goal[:g], at_goal[g] = 1.0, 0.5  # V(goal, j)
    ut = np.zeros((g, 2 * g + w + 1))
    ut[:, g:] = (pb + (at_goal[cz] * pz).sum(axis=1))[:, None]
    inv = 1.0 / (1.0 - pb[:, None] * band.bust[None, :])
    setup = (kernels.Independent(inv, cz, pz, pb), ut)
    if key is not None:
        with _SETUPS_LOCK:
            while len(_SETUPS) >= 32:
                _SETUPS.pop(next(iter(_SETUPS)))
            _SETUPS[key] = setup
    return setup


def best_stopping_two(
    opp: TurnPolicy, rules: Rules, tie_tol: float = TIE_TOL
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Best response of A over every stopping rule, compiled (two players):
    ``(value (g+1, g+1), roll (g, g, g), threshold_value (g, g), threshold_k (g, g), passes
    (g, g))``, the threshold columns being the best "hold at k" at each state against the
    same continuation.

    Returns
    -------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
    roll : numpy.ndarray of bool, shape ``(goal, goal, goal)``
        ``roll[i, j, t]``: roll at turn total t.
    threshold_value : numpy.ndarray, shape ``(goal, goal)``
    threshold_k : numpy.ndarray of int, shape ``(goal, goal)``
    passes : numpy.ndarray of int, shape ``(goal, goal)``
        Policy-iteration passes at each state (:func:`~.step.stopping_step`, started from the
        rule of ``threshold_k``): 1 where that rule was already optimal, so ``roll`` there is
        "hold at ``threshold_k``" exactly.
    """
    return _solve_jit(opp, rules, tie_tol, stopping=True)  # type: ignore[return-value]


def _solve(opp: TurnPolicy, rules: Rules, tie_tol: float) -> tuple[np.ndarray, np.ndarray]:
    if opp.reads_own_score_only():
        return _solve_independent(opp, rules, tie_tol)
    return _solve_general(opp, rules, tie_tol)


@dataclass(frozen=True, eq=False)
class _FlatPlan:
    """The flat layout of :func:`_solve_independent` for one ``rules`` (module docstring, "Flat
    rows"): row length ``L`` of the work arrays, ``R = L + 1`` of the tables, the mask by room,
    the band tiled over ``rows`` rows, the bust row, every entry's flat position in a table, and
    one tuple of offsets per piece (a batch, or part of a batch of more than ``rows`` rows)."""

    L: int
    R: int
    rows: int
    mask: np.ndarray  # mask[room * L + k - 1]: 0 for k <= room, -inf above
    tile: np.ndarray  # tile[r, q * L + k - 1] = P(X_k = k + r) (0 for k > goal), q < rows
    bust: np.ndarray  # bust[k - 1] = P(X_k = 0) (0 for k > goal)
    pos: np.ndarray  # every entry's flat position (m0 + j) * R + i in a table
    own: np.ndarray  # i
    opp: np.ndarray  # j clipped into the board
    ok: np.ndarray  # the entry is on the board
    pieces: tuple[tuple[int, ...], ...]


_TILE_ELEMENTS = 1 << 16  # rows of the band tile: at most this many elements per gain


@lru_cache(maxsize=4)
def _flat_plan(rules: Rules) -> _FlatPlan:
    geo = batch_geometry(rules)
    g, m0, w = geo.goal, geo.m0, geo.width
    L = g + w
    R = L + 1
    band = band_of(rules)
    k = np.arange(1, L + 1)
    mask = np.where(k[None, :] > np.arange(g + 1)[:, None], -np.inf, 0.0).reshape(-1)
    nmax = max(b.n for b in geo.batches)
    rows = max(1, min(nmax, _TILE_ELEMENTS // L))
    tiled = np.zeros((w, rows, L))
    tiled[:, :, :g] = band.band_t[:, None, 1:]
    tile = tiled.reshape(w, rows * L)
    bust = np.zeros(L)
    bust[:g] = band.bust[1:]
    pos_parts, pieces = [], []
    e = 0  # entries are numbered piece by piece, (t, q) in each
    for b in geo.batches:
        for q0 in range(0, b.n, rows):
            q1 = min(b.n, q0 + rows)
            i = b.ihi - np.arange(q0, q1)
            j = b.d0 + np.arange(m0)[:, None] - i[None, :]
            pos_parts.append(((m0 + j) * R + i).ravel())
            i0 = b.ihi - q0  # own score of the piece's first row
            row0 = m0 + b.d0 - i0  # table row of entry (t = 0, q = q0)
            n = q1 - q0
            pieces.append(
                (
                    e,
                    e + m0 * n,
                    n * L,
                    (g - i0) * L,  # mask offset: rows of rooms g - i0, g - i0 + 1, ...
                    (row0 * R + i0 + 1) * 8,  # byte offset of u[1] of entry (0, q0) in ut
                    row0 * L * 8,  # byte offset of the self-loop factors of entry (0, q0)
                )
            )
            e += m0 * n
    pos = np.concatenate(pos_parts)
    own, jj = pos % R, pos // R - m0
    ok = (jj >= 0) & (jj < g)
    opp = np.clip(jj, 0, g - 1)
    for a in (mask, tile, bust, pos, own, opp, ok):
        a.setflags(write=False)
    return _FlatPlan(L, R, rows, mask, tile, bust, pos, own, opp, ok, tuple(pieces))


def _add_gains(
    acc: np.ndarray, src: np.ndarray, tile: np.ndarray, tile3: np.ndarray, tbuf: np.ndarray
) -> None:
    """``acc += tile[r] * src[r]`` for the gains r = 0..w-1, one after the other (the compiled
    kernel's order, so the same bits): all products at once when the work buffer ``tbuf``
    holds them, else one gain at a time."""
    w, m0, nl = src.shape
    if tbuf.size >= w * m0 * nl:
        terms = tbuf[: w * m0 * nl].reshape(w, m0, nl)
        np.multiply(tile3[:, :, :nl], src, out=terms)
        for r in range(w):
            acc += terms[r]
    else:
        term = tbuf[: m0 * nl].reshape(m0, nl)
        for r in range(w):
            np.multiply(tile[r, :nl], src[r], out=term)
            acc += term


def _greedy_rows(
    acc3: np.ndarray, abuf: np.ndarray, rowoff: np.ndarray, ok: np.ndarray, tie_tol: float
) -> tuple[np.ndarray, np.ndarray]:
    """The greedy choice of every row of ``acc3`` (a view of the flat ``abuf``, row r starting
    at ``rowoff[r]``): its largest value and the first threshold k (1-based) within ``tie_tol``
    of it. The first maximum answers unless a second entry lies within ``tie_tol`` (rows with
    ``ok``); only those rows are searched again. ``abuf`` is left as it was found."""
    am = acc3.argmax(axis=1)
    at = am + rowoff
    best = abuf[at]
    thr = best - tie_tol
    abuf[at] = -np.inf
    second = acc3.argmax(axis=1)
    second += rowoff
    near = abuf[second] >= thr
    near &= ok
    am += 1
    abuf[at] = best
    if near.any():
        sel = np.flatnonzero(near)
        am[sel] = np.argmax(acc3[sel] >= thr[sel, None], axis=1) + 1
    return best, am


def _solve_independent(opp: TurnPolicy, rules: Rules, tie_tol: float) -> tuple[np.ndarray, np.ndarray]:
    """The numpy engine when B's turn reads B's score only (module docstring, "Flat rows")."""
    geo, plan = batch_geometry(rules), _flat_plan(rules)
    g, m0, w = geo.goal, geo.m0, geo.width
    L, R = plan.L, plan.R
    G = g + 1
    nrows = G + 2 * m0
    js = np.arange(g)
    gains, probs = opp.outcomes((js, np.zeros_like(js)))
    pb = probs[:, 0]
    cz, pz = np.minimum(js[:, None] + gains[:, 1:], g), probs[:, 1:]
    # V by B's score first (vt[m0 + j, i] = V(i, j)) and U (ut[m0 + j, a] = E_Y[V(a, j + Y)]),
    # both with rows of R: the padding columns from the goal on hold the terminal values
    vtf = np.zeros(nrows * R)
    vt = vtf.reshape(nrows, R)
    vt[m0 : m0 + g, g:] = 1.0
    vt[m0 + g, g:] = 0.5
    polf = np.zeros(nrows * R, dtype=np.int64)
    utf = np.zeros((nrows + 1) * R + w)  # a spare row: flat reads of masked thresholds run past
    ut = utf[: nrows * R].reshape(nrows, R)
    ut[m0 : m0 + g, g:] = (pb + (vt[m0 + cz, g] * pz).sum(axis=1))[:, None]
    # the factors 1 / (1 - P(Y = 0) P(X_k = 0)), as the compiled kernel forms them, by (j, k - 1)
    inv = np.ones((nrows, L))
    inv[m0 : m0 + g, :g] = 1.0 / (1.0 - pb[:, None] * band_of(rules).bust[None, 1:])
    # Z(i, j) = sum over Y > 0 of P(Y) V(i, j + Y), in the compiled kernel's order, for several
    # batches at once: a batch reads V only from levels at least the smallest gain of B higher
    live = (pz > 0) & (cz < g)
    lag = max(1, int(gains[:, 1:][live].min()) // m0) if live.any() else len(geo.batches)
    czt = np.ascontiguousarray(((m0 + cz) * R).T)  # (outcomes, j)
    pzt = np.ascontiguousarray(pz.T)
    own, jc, ok = plan.own, plan.opp, plan.ok
    pb_all = pb[jc] * ok
    tile, mask, bust, pos = plan.tile, plan.mask, plan.bust, plan.pos
    rows = plan.rows
    size = m0 * rows * L
    abuf = np.empty(size)
    tbuf = np.empty(size if w * size > 1 << 18 else w * size)
    tile3 = tile.reshape(w, 1, -1)
    rowoff = np.arange(m0 * rows) * L
    ndarray, multiply = np.ndarray, np.multiply
    R8, L8 = R * 8, L * 8
    zlo = zhi = 0
    z_all = np.empty(0)
    starts = [piece[0] for piece in plan.pieces]
    for nb, (e0, e1, nl, mo, first, irow) in enumerate(plan.pieces):
        if e1 > zhi:  # the Z of the next `lag` pieces' entries
            zlo, zhi = e0, starts[nb + lag] if nb + lag < len(starts) else pos.size
            jz = jc[zlo:zhi]
            zz = vtf[czt[:, jz] + own[zlo:zhi]]
            zz *= pzt[:, jz]
            zz *= ok[zlo:zhi]
            z_all = zz[0]
            for r in range(1, zz.shape[0]):
                z_all += zz[r]
        z = z_all[e0 - zlo : e1 - zlo]
        N = e1 - e0
        acc3 = abuf[: N * L].reshape(N, L)
        multiply(z[:, None], bust, out=acc3)
        acc = acc3.reshape(m0, nl)
        acc += mask[mo : mo + nl]
        src = ndarray((w, m0, nl), float, utf, first, (8, R8, 8))
        _add_gains(acc, src, tile, tile3, tbuf)
        acc *= ndarray((m0, nl), float, inv, irow, (L8, 8))
        # greedy: the first maximum; where another threshold is within tie_tol, the first such
        best, am = _greedy_rows(acc3, abuf, rowoff[:N], ok[e0:e1], tie_tol)
        p = pos[e0:e1]
        vtf[p] = best
        polf[p] = am
        best *= pb_all[e0:e1]
        best += z
        utf[p] = best
    value = vt[m0 : m0 + G, :G].T.copy()
    policy = polf.reshape(nrows, R)[m0 : m0 + g, :g].T.copy()
    return value, policy


def _solve_general(opp: TurnPolicy, rules: Rules, tie_tol: float) -> tuple[np.ndarray, np.ndarray]:
    """The numpy engine for any opponent: B's continuation of each entry gathered per level
    into rows of ``L`` (module docstring), then the flat rows of :func:`_solve_independent`."""
    geo, plan = batch_geometry(rules), _flat_plan(rules)
    g, m0, w = geo.goal, geo.m0, geo.width
    L = plan.L
    G = g + 1
    cols = 2 * g + w + 2
    vt = np.zeros((G + 2 * m0, cols))  # vt[m0 + c, a] = V(a, c); columns past the goal terminal
    vt[m0 : m0 + g, g:] = 1.0
    vt[m0 + g, g:] = 0.5
    vtf = vt.reshape(-1)
    polf = np.zeros(vt.size, dtype=np.int64)
    own, jc, ok = plan.own, plan.opp, plan.ok
    pos = (plan.pos // plan.R) * cols + own  # the entries' places in vt
    ii, jj = np.indices((g, g))
    gains, probs = opp.outcomes((jj, ii))
    # outcome first: P(Y) and the row of vt it lands on, every entry (zero off the board)
    p_all = np.ascontiguousarray(np.moveaxis(probs[own, jc], -1, 0))
    p_all *= ok
    c_all = np.ascontiguousarray(np.moveaxis(m0 + np.minimum(jj[..., None] + gains, g)[own, jc], -1, 0))
    win = np.lib.stride_tricks.sliding_window_view(vt, L, axis=1)
    tile, mask, bust = plan.tile, plan.mask, plan.bust
    rows = plan.rows
    size = m0 * rows * L
    abuf = np.empty(size)
    ubuf = np.zeros(size + w + 1)  # rows u[x], x < L; masked thresholds read past the last row
    dbuf = np.empty(size)
    tbuf = np.empty(size if w * size > 1 << 18 else w * size)
    tile3 = tile.reshape(w, 1, -1)
    rowoff = np.arange(m0 * rows) * L
    ndarray, multiply = np.ndarray, np.multiply
    for e0, e1, nl, mo, _, _ in plan.pieces:
        N = e1 - e0
        # u[e, x] = sum over B's outcomes of P(Y) V(i + x, j + Y), added in the kernel's order
        # (only x < the piece's largest room + w: the columns after that feed masked thresholds)
        width = min(L, mo // L + nl // L - 1 + w)
        gathered = win[c_all[:, e0:e1], own[None, e0:e1], :width]  # (outcomes, N, width)
        gathered *= p_all[:, e0:e1, None]
        u = ubuf[: N * L].reshape(N, L)
        part = u[:, :width]
        np.copyto(part, gathered[0])
        for r in range(1, gathered.shape[0]):
            part += gathered[r]
        acc3 = abuf[: N * L].reshape(N, L)
        multiply(u[:, :1], bust, out=acc3)
        acc = acc3.reshape(m0, nl)
        acc += mask[mo : mo + nl]
        src = ndarray((w, m0, nl), float, ubuf, 8, (8, nl * 8, 8))
        _add_gains(acc, src, tile, tile3, tbuf)
        # the self-loop: a_k / (1 - P(X_k = 0) P(Y = 0)), as the compiled kernel divides
        den = dbuf[: N * L].reshape(N, L)
        multiply(p_all[0, e0:e1, None], bust, out=den)
        np.subtract(1.0, den, out=den)
        acc3 /= den
        best, am = _greedy_rows(acc3, abuf, rowoff[:N], ok[e0:e1], tie_tol)
        p = pos[e0:e1]
        vtf[p] = best
        polf[p] = am
    value = vt[m0 : m0 + G, :G].T.copy()
    policy = polf.reshape(vt.shape)[m0 : m0 + g, :g].T.copy()
    return value, policy
