"""The numpy engine of the two-player best response (:func:`~.two_player.best_response_two`
with ``engine="numpy"``): whole score levels at once, the opponent's turn outcomes as a band of
gains, the same arithmetic as the compiled step (:mod:`.step`) in the same order, so both
engines give the same bits. Shapes and Notes are :mod:`.two_player`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...rules import Rules
from ...stopping import TurnPolicy
from ...turn_totals import turn_total_table
from .step import band_of


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


def solve(opp: TurnPolicy, rules: Rules, tie_tol: float) -> tuple[np.ndarray, np.ndarray]:
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
