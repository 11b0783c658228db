"""Building blocks of the symmetric solvers of n-player simultaneous Pig, as compilable loops.

A symmetric profile (every player uses the same rule, which reads the player's own score and
the multiset of the others' scores) has values and strategies that depend on the same two
things, so every table here is indexed ``[c, i]``: i the player's own score (``0..goal``), c
the *column* of the others' scores, the colex rank of their sorted tuple.

Shapes
------
``others``: int array ``(S, m)``, ``m = players - 1``: row c is the sorted tuple of the others'
scores (each in ``0..goal``) whose colex rank is c (:func:`multisets`); ``S = C(goal + m, m)``.
``table[c, i]`` (``(S, goal + 1)``): a value; ``act[c, i]`` (``(S, goal)``): the threshold of the
player at ``(i, others[c])`` if pure, ``-(1 + e)`` if it mixes with weights ``mix_w[e]`` over
``mix_th[e]``, 0 where the state is terminal (some other player at the goal).

Notes
-----
*Colex rank.* A sorted tuple :math:`a_0 \\le \\dots \\le a_{m-1}` of scores is a multiset;
:math:`b_q = a_q + q` is strictly increasing, and the colexicographic rank of such b is
:math:`\\sum_q \\binom{a_q + q}{q + 1}` (the combinatorial number system). It does not depend
on the goal, and a tuple that is componentwise larger has a larger rank: solving states by
decreasing rank visits every successor first (scores never decrease).

*Continuation.* For a player at own score t whose others' turns end on the scores
``dest[p, o]`` with probabilities ``prob[p, o]`` (one list per other player, independent),

.. math:: u[x] = \\sum_{o_1, \\dots, o_m} \\prod_p P_p(o_p)\\; T[\\operatorname{rank}(\\operatorname{sort}(d_{o})),\\, \\min(t + x, g)],

for the own gains ``x = 0..goal - t``: each outcome of the others adds one row of the table,
contiguous in x. The entry of the state itself (everybody busts) is whatever the table holds
there: 0 while the state is being solved, which is the core's convention (the self-loop is
solved in closed form by the action values).

*Action values.* Holding at k: :math:`a_k = P(X_k = 0) u[0] + \\sum_r P(X_k = k + r)
u[\\min(k + r, g - t)]` and the stationary value :math:`a_k / (1 - P(X_k = 0) B)`, B the chance
that every other player busts (:class:`~pigtheory.simultaneous.core.Thresholds`).

*Reuse.* The continuation reads the table at own scores ``t..goal`` only, so the whole row
:math:`U_c[y] = \\sum_o \\prod_p P_p(o_p)\\, T[\\operatorname{rank}(d_o), y]` of a view column c
serves every own score t below it (``u[x] = U_c[t + x]``) while the others' actions stay the
same. The solvers visit the own scores of a column downwards, and at own t every entry
above t + 1 is already final; entry t + 1 read the state then being solved (everybody busts)
as 0, so it is summed again. A :class:`ViewCache` keeps one such row per column with the
others' thresholds it was summed for; each entry is summed over the same outcomes in the same
order as a fresh row, so the reuse gives the same bits (:func:`view_continuation`). In the four-player
equilibrium at goal 60 the others' thresholds are the same one own score up at 99.5% of views.

The functions are kernels (:mod:`.jit`): plain Python until
:func:`~pigtheory.simultaneous.core.symmetric_stage.compiled` compiles them with numba (the same
code runs interpreted for ``engine="numpy"``).

References
----------
D. E. Knuth, The Art of Computer Programming 4A, 7.2.1.3 (the combinatorial number system).
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (18)-(19).
"""

from __future__ import annotations

from math import comb
from typing import NamedTuple

import numpy as np

from .jit import kernel
from .step import first_within, largest, self_loop_values, threshold_values

__all__ = [
    "Strategy",
    "Response",
    "binomials",
    "multisets",
    "ranks",
    "terminal_table",
    "rank",
    "pure_outcomes",
    "mixed_outcomes",
    "strategy_outcomes",
    "ViewCache",
    "view_cache",
    "continuation_span",
    "continuation_pair",
    "continuation_row",
    "view_continuation",
    "action_values",
    "best_action",
    "respond_columns",
]


class Strategy(NamedTuple):
    """A symmetric strategy by view: ``act[c, i]`` (a threshold, or ``-(1 + e)`` for mix e)
    and the mix tables ``mix_th``, ``mix_w``."""

    act: np.ndarray
    mix_th: np.ndarray
    mix_w: np.ndarray


class Response(NamedTuple):
    """What :func:`respond_columns` writes: best-response values ``br``, thresholds ``br_act``
    and the strategy's own values ``ev``."""

    br: np.ndarray
    br_act: np.ndarray
    ev: np.ndarray


class ViewCache(NamedTuple):
    """Continuation rows kept by view column (module Notes, *Reuse*): ``rows[c, y]`` (``(S,
    goal + 1)``), the others' thresholds ``keys[c]`` (``(S, m)``) they were summed for and the
    lowest own score ``low[c]`` summed (-1: none). Zero rows: no reuse."""

    rows: np.ndarray
    keys: np.ndarray
    low: np.ndarray


def view_cache(columns: int, goal: int, others: int) -> ViewCache:
    """An empty :class:`ViewCache` of ``columns`` columns (0: no reuse), ``others`` others."""
    return ViewCache(
        np.zeros((columns, goal + 1)),
        np.zeros((columns, max(others, 1)), dtype=np.int64),
        np.full(columns, -1, dtype=np.int64),
    )


def binomials(goal: int, players: int) -> np.ndarray:
    """``binom[a, q] = C(a, q)`` for ``a <= goal + players``, ``q <= players``."""
    out = np.zeros((goal + players + 1, players + 1), dtype=np.int64)
    for a in range(goal + players + 1):
        for q in range(players + 1):
            out[a, q] = comb(a, q)
    return out


def multisets(values: int, size: int) -> np.ndarray:
    """Every sorted tuple of ``size`` numbers in ``0..values - 1``, by increasing colex rank.

    The tuples whose largest number is at most ``top`` come first, ``C(top + size - 1,
    size - 1)`` of them followed by ``top``, so each size is built from the previous one with
    one gather (no recursion: four players at goal 100 have 4.4 million tuples).

    Examples
    --------
    >>> multisets(3, 2).tolist()
    [[0, 0], [0, 1], [1, 1], [0, 2], [1, 2], [2, 2]]
    """
    cur = np.zeros((1, 0), dtype=np.int64)
    for k in range(size):
        counts = np.array([comb(top + k, k) for top in range(values)], dtype=np.int64)
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        rows = np.arange(int(counts.sum()), dtype=np.int64) - starts  # 0..count-1 per top
        last = np.repeat(np.arange(values, dtype=np.int64), counts)
        cur = np.hstack([cur[rows], last[:, None]])
    return cur


def ranks(tuples: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """Colex rank of each row (sorted first) of an int array ``(..., m)``."""
    a = np.sort(np.asarray(tuples, dtype=np.int64), axis=-1)
    q = np.arange(a.shape[-1])
    return binom[a + q, q + 1].sum(axis=-1)


def terminal_table(others: np.ndarray, goal: int) -> np.ndarray:
    """A value table with the terminal entries filled in and zeros elsewhere: own score at the
    goal shares the win with the others there, ``1 / (1 + #others at the goal)``."""
    at_goal = (others == goal).sum(axis=1)
    table = np.zeros((others.shape[0], goal + 1))
    table[:, goal] = 1.0 / (1 + at_goal)
    return table


# --- compiled helpers (plain Python until compiled()) --------------------------------------


@kernel
def rank(vals, m, binom):  # pragma: no cover - compiled
    """Colex rank of the sorted ``vals[:m]``."""
    r = 0
    for q in range(m):
        r += binom[vals[q] + q, q + 1]
    return r


@kernel
def pure_outcomes(t, k, g, band, dest, prob):  # pragma: no cover - compiled
    """New scores and probabilities of "hold at k" from score t (equal ones merged); returns
    the number of outcomes."""
    bust = band.bust
    dest[0] = t
    prob[0] = bust[k]
    n_out = 1
    for d in range(band.band.shape[1]):
        p = band.band[k, d]
        if p == 0.0:
            continue
        v = min(t + k + d, g)
        if n_out > 1 and dest[n_out - 1] == v:
            prob[n_out - 1] += p
        else:
            dest[n_out] = v
            prob[n_out] = p
            n_out += 1
    return n_out


@kernel
def mixed_outcomes(t, ks, ws, ns, g, band, acc, dest, prob):  # pragma: no cover - compiled
    """Outcomes of a mix of thresholds ``ks[:ns]`` with weights ``ws[:ns]`` (merged by new
    score through the scratch array ``acc``); returns the number of outcomes."""
    bust = band.bust
    for v in range(t, g + 1):
        acc[v] = 0.0
    for j in range(ns):
        k, wj = ks[j], ws[j]
        if wj == 0.0:
            continue
        acc[t] += wj * bust[k]
        for d in range(band.band.shape[1]):
            acc[min(t + k + d, g)] += wj * band.band[k, d]
    n_out = 0
    for v in range(t, g + 1):
        if acc[v] != 0.0:
            dest[n_out] = v
            prob[n_out] = acc[v]
            n_out += 1
    return n_out


@kernel
def strategy_outcomes(t, code, mix_th, mix_w, g, band, acc, dest, prob):  # pragma: no cover
    """Outcomes of the stored strategy ``code`` (a threshold, or ``-(1 + e)`` for mix e), and
    the chance of a bust; returns ``(n_out, bust_probability)``."""
    bust = band.bust
    if code > 0:
        n_out = pure_outcomes(t, code, g, band, dest, prob)
        return n_out, bust[code]
    e = -code - 1
    ks, ws = mix_th[e], mix_w[e]
    n_out = mixed_outcomes(t, ks, ws, ks.shape[0], g, band, acc, dest, prob)
    b = 0.0
    for j in range(ks.shape[0]):
        if ws[j] != 0.0:
            b += ws[j] * bust[ks[j]]
    return n_out, b


@kernel
def _sorted_rank(m, dest, idx, buf, binom):  # pragma: no cover - compiled
    """Colex rank of the others' new scores ``dest[p, idx[p]]``, sorted into ``buf``."""
    for p in range(m):  # insertion sort
        v = dest[p, idx[p]]
        q = p
        while q > 0 and buf[q - 1] > v:
            buf[q] = buf[q - 1]
            q -= 1
        buf[q] = v
    return rank(buf, m, binom)


@kernel
def _next(m, lens, idx):  # pragma: no cover - compiled
    """The next outcome profile ``idx`` (last other fastest); False after the last."""
    p = m - 1
    while p >= 0:
        idx[p] += 1
        if idx[p] < lens[p]:
            return True
        idx[p] = 0
        p -= 1
    return False


@kernel
def continuation_span(t, lo, hi, g, m, dest, prob, lens, table, binom, out, idx, buf):  # pragma: no cover
    """``out[y - t]`` for the entries ``y = lo..hi`` (``t <= lo <= hi <= goal``) of the
    continuation of :func:`continuation_row`, each summed over the others' outcomes in the
    same order (last other fastest) with the same products, so that any span of it has the
    bits of the whole row. An outcome with some other player at the goal adds the goal's
    entry only. Three others get nested loops (a branch-free sort, the partial products
    hoisted: the same numbers)."""
    for y in range(lo, hi + 1):
        out[y - t] = 0.0
    if m == 3:
        for a in range(lens[0]):
            pa, va = prob[0, a], dest[0, a]
            for b in range(lens[1]):
                pab, vb = pa * prob[1, b], dest[1, b]
                small, big = min(va, vb), max(va, vb)
                for c in range(lens[2]):
                    pc = pab * prob[2, c]
                    if pc == 0.0:
                        continue
                    vc = dest[2, c]
                    x0, x2 = min(small, vc), max(big, vc)
                    r = binom[x0, 1] + binom[va + vb + vc - x0 - x2 + 1, 2] + binom[x2 + 2, 3]
                    if x2 >= g:
                        if hi == g:
                            out[g - t] += pc * table[r, g]
                    else:
                        for y in range(lo, hi + 1):
                            out[y - t] += pc * table[r, y]
        return
    for p in range(m):
        idx[p] = 0
    while True:
        pc = 1.0
        for p in range(m):
            pc *= prob[p, idx[p]]
        if pc != 0.0:
            r = _sorted_rank(m, dest, idx, buf, binom)
            if buf[m - 1] >= g:
                if hi == g:
                    out[g - t] += pc * table[r, g]
            else:
                for y in range(lo, hi + 1):
                    out[y - t] += pc * table[r, y]
        if not _next(m, lens, idx):
            return


@kernel
def continuation_pair(t, g, m, dest, prob, lens, table, binom, idx, buf):  # pragma: no cover
    """Entries t and t + 1 of the continuation (:func:`continuation_span`, the same bits)
    summed in registers: what a view cache hit needs (:func:`view_continuation`)."""
    e0 = 0.0
    e1 = 0.0
    top = t + 1 == g
    if m == 3:
        for a in range(lens[0]):
            pa, va = prob[0, a], dest[0, a]
            for b in range(lens[1]):
                pab, vb = pa * prob[1, b], dest[1, b]
                small, big = min(va, vb), max(va, vb)
                for c in range(lens[2]):
                    pc = pab * prob[2, c]
                    if pc == 0.0:
                        continue
                    vc = dest[2, c]
                    x0, x2 = min(small, vc), max(big, vc)
                    r = binom[x0, 1] + binom[va + vb + vc - x0 - x2 + 1, 2] + binom[x2 + 2, 3]
                    if x2 >= g:
                        if top:
                            e1 += pc * table[r, g]
                    else:
                        e0 += pc * table[r, t]
                        e1 += pc * table[r, t + 1]
        return e0, e1
    for p in range(m):
        idx[p] = 0
    while True:
        pc = 1.0
        for p in range(m):
            pc *= prob[p, idx[p]]
        if pc != 0.0:
            r = _sorted_rank(m, dest, idx, buf, binom)
            if buf[m - 1] >= g:
                if top:
                    e1 += pc * table[r, g]
            else:
                e0 += pc * table[r, t]
                e1 += pc * table[r, t + 1]
        if not _next(m, lens, idx):
            return e0, e1


@kernel
def continuation_row(t, g, m, dest, prob, lens, table, binom, u, idx, buf):  # pragma: no cover
    """``u[x]``, ``x = 0..goal - t``, for a player at own score t whose m others end their
    turns on ``dest[p, :lens[p]]`` with ``prob[p, :lens[p]]`` (module Notes); past the room
    ``u`` repeats ``u[goal - t]`` to its end (the padding of :mod:`.step`). An outcome that
    puts another player at the goal reads one entry, the own goal's (every other entry of a
    terminal column is 0, :func:`terminal_table`), so only ``u[goal - t]`` changes."""
    room = g - t
    continuation_span(t, t, g, g, m, dest, prob, lens, table, binom, u, idx, buf)
    for x in range(room + 1, u.shape[0]):
        u[x] = u[room]


@kernel
def view_continuation(
    t, c, key, g, m, dest, prob, lens, table, binom, u, idx, buf, cache
):  # pragma: no cover
    """:func:`continuation_row` of the view ``(t, others[c])`` whose others play the pure
    thresholds ``key[:m]`` (their outcomes ``dest``/``prob``), through the
    :class:`ViewCache` ``cache`` (module Notes, *Reuse*): the same bits, computed in two
    entries instead of ``goal - t + 1`` when the view one own score up had the same key."""
    rows, keys, low = cache.rows, cache.keys, cache.low
    if rows.shape[0] == 0:
        continuation_row(t, g, m, dest, prob, lens, table, binom, u, idx, buf)
        return
    same = low[c] == t or low[c] == t + 1
    for q in range(m):
        if keys[c, q] != key[q]:
            same = False
    row = rows[c]
    if not same:
        continuation_span(0, t, g, g, m, dest, prob, lens, table, binom, row, idx, buf)
        for q in range(m):
            keys[c, q] = key[q]
        low[c] = t
    elif low[c] == t + 1:  # entry t + 1 read the state then being solved as 0: again
        row[t], row[t + 1] = continuation_pair(t, g, m, dest, prob, lens, table, binom, idx, buf)
        low[c] = t
    room = g - t
    for x in range(room + 1):
        u[x] = row[t + x]
    for x in range(room + 1, u.shape[0]):
        u[x] = u[room]


@kernel
def action_values(u, room, opp_bust, band, num, vals):  # pragma: no cover - compiled
    """``num[k] = a_k`` and ``vals[k] = a_k / (1 - P(X_k = 0) B)`` for ``k = 1..room``: the
    threshold step of :mod:`.step` (``u`` padded past the room, :func:`continuation_row`)."""
    threshold_values(band, u, u[0], room, num)
    self_loop_values(num, room, band.bust, opp_bust, num, True, vals)


@kernel
def best_action(vals, room, tie_tol):  # pragma: no cover - compiled
    """``(best value, first k within tie_tol of it)`` over ``vals[1..room]`` (:mod:`.step`)."""
    best = largest(vals, room)
    return best, first_within(vals, room, best, tie_tol)


@kernel
def respond_columns(
    c_hi, c_lo, g, others, binom, band, tie_tol, strategy, out, reuse
):  # pragma: no cover - compiled
    """Best response of one player against the others playing the symmetric strategy
    ``act``/``mix_th``/``mix_w``, and the value of playing that strategy itself.

    Solves columns ``c_hi - 1`` down to ``c_lo`` of ``br`` (best-response values), ``br_act``
    (its thresholds) and ``ev`` (the value of the player when it, too, plays the strategy);
    both tables come prefilled with the terminal entries (:func:`terminal_table`). Within a
    column own scores go from ``goal - 1`` down, so every successor is solved first (the
    state's own entry is 0 until then: the self-loop in closed form). ``strategy`` is a
    :class:`Strategy`, ``out`` a :class:`Response`. With ``reuse`` the continuations of a
    column are kept from one own score to the next while the others' outcomes stay the same
    (module Notes, *Reuse*: the same bits).
    """
    bust = band.bust
    act, mix_th, mix_w = strategy.act, strategy.mix_th, strategy.mix_w
    br, br_act, ev = out.br, out.br_act, out.ev
    m = others.shape[1]
    n_out = g + 2
    dest = np.zeros((m, n_out), np.int64)
    prob = np.zeros((m, n_out))
    lens = np.zeros(m, np.int64)
    acc = np.zeros(g + 1)
    u = np.zeros(g + band.band_t.shape[0] + 1)
    num = np.zeros(g + 1)
    vals = np.zeros(g + 1)
    idx = np.zeros(m, np.int64)
    buf = np.zeros(m, np.int64)
    view = np.zeros(m, np.int64)
    # the column's continuation rows (module Notes, *Reuse*) and the outcomes they were summed for
    row_br = np.zeros(g + 1)
    row_ev = np.zeros(g + 1)
    seen_dest = np.zeros((m, n_out), np.int64)
    seen_prob = np.zeros((m, n_out))
    seen_lens = np.zeros(m, np.int64)
    b_last = 1.0
    for c in range(c_hi - 1, c_lo - 1, -1):
        if others[c, m - 1] >= g:
            continue  # terminal column, prefilled
        for i in range(g - 1, -1, -1):
            opp_bust = 1.0
            for p in range(m):
                o = others[c, p]
                if p > 0 and others[c, p - 1] == o:  # same score, same strategy
                    for e in range(lens[p - 1]):
                        dest[p, e] = dest[p - 1, e]
                        prob[p, e] = prob[p - 1, e]
                    lens[p] = lens[p - 1]
                    opp_bust *= b_last
                    continue
                # the view of the other player at o: the responder's i among the rest
                q = 0
                placed = False
                for r in range(m):
                    if r == p:
                        continue
                    if not placed and i <= others[c, r]:
                        view[q] = i
                        q += 1
                        placed = True
                    view[q] = others[c, r]
                    q += 1
                if not placed:
                    view[q] = i
                code = act[rank(view, m, binom), o]
                lens[p], b_last = strategy_outcomes(o, code, mix_th, mix_w, g, band, acc, dest[p], prob[p])
                opp_bust *= b_last
            own_code = act[c, i]
            room = g - i
            same = i < g - 1 and reuse
            for p in range(m):
                if not same or seen_lens[p] != lens[p]:
                    same = False
                    break
                for e in range(lens[p]):
                    if seen_dest[p, e] != dest[p, e] or seen_prob[p, e] != prob[p, e]:
                        same = False
                        break
            if same:  # the others play as one own score up: entries i and i + 1 again
                row_br[i], row_br[i + 1] = continuation_pair(i, g, m, dest, prob, lens, br, binom, idx, buf)
                row_ev[i], row_ev[i + 1] = continuation_pair(i, g, m, dest, prob, lens, ev, binom, idx, buf)
            else:
                continuation_span(0, i, g, g, m, dest, prob, lens, br, binom, row_br, idx, buf)
                continuation_span(0, i, g, g, m, dest, prob, lens, ev, binom, row_ev, idx, buf)
                for p in range(m):
                    seen_lens[p] = lens[p]
                    for e in range(lens[p]):
                        seen_dest[p, e] = dest[p, e]
                        seen_prob[p, e] = prob[p, e]
            for x in range(room + 1):
                u[x] = row_br[i + x]
            for x in range(room + 1, u.shape[0]):
                u[x] = u[room]
            action_values(u, room, opp_bust, band, num, vals)
            best, k = best_action(vals, room, tie_tol)
            br[c, i] = best
            br_act[c, i] = k
            # the same for the strategy itself, on its own values
            for x in range(room + 1):
                u[x] = row_ev[i + x]
            for x in range(room + 1, u.shape[0]):
                u[x] = u[room]
            action_values(u, room, opp_bust, band, num, vals)
            if own_code > 0:
                ev[c, i] = vals[own_code]
            else:
                e = -own_code - 1
                a = 0.0
                b = 0.0
                for j in range(mix_th.shape[1]):
                    wj = mix_w[e, j]
                    if wj != 0.0:
                        a += wj * num[mix_th[e, j]]
                        b += wj * bust[mix_th[e, j]]
                ev[c, i] = a / (1.0 - b * opp_bust)
