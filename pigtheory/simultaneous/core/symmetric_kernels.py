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
contiguous in x. The outcomes are summed last other fastest, except the one in which every
other busts (the view's own column, the *self* outcome), which is added last. Its entry at
own score t is the state itself: whatever the table holds there, 0 while the state is being
solved, which is the core's convention (the self-loop is solved in closed form by the action
values).

*Action values.* Holding at k: :math:`a_k = P(X_k = 0) u[0] + \\sum_r P(X_k = k + r)
u[\\min(k + r, g - t)]` and the stationary value :math:`a_k / (1 - P(X_k = 0) B)`, B the chance
that every other player busts (:class:`~pigtheory.simultaneous.core.Thresholds`).

*Reuse.* The continuation reads the table at own scores ``t..goal`` only, so the whole row
:math:`U_c[y] = \\sum_o \\prod_p P_p(o_p)\\, T[\\operatorname{rank}(d_o), y]` of a view column c
serves every own score t below it (``u[x] = U_c[t + x]``) while the others' actions stay the
same. The solvers visit the own scores of a column downwards, and at own t every entry
above t + 1 is already final; entry t + 1 read the state then being solved (the self
outcome) as 0. As that term comes last, entry t + 1 is completed by adding it
(:func:`continuation_pair`) and only entry t is summed over the outcomes. A :class:`ViewCache`
keeps one such row per column with the others' thresholds it was summed for; each entry is
summed over the same outcomes in the same order as a fresh row, so the reuse gives the same
bits (:func:`view_continuation`). In the four-player
equilibrium at goal 60 the others' thresholds are the same one own score up at 99.5% of views.
A row summed down to own score ``low > t`` serves as well: its entries above ``low`` are
final, and entries ``t..low`` are summed again. A column's row for other thresholds (the
others' thresholds went back and forth, or the mixed solver's candidate profiles) moves to
:data:`SPARES` spare rows kept by (column, thresholds), from which it comes back.

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

from .jit import compiled, kernel
from .step import first_within, largest, self_loop_values, threshold_step, threshold_values

__all__ = [
    "Strategy",
    "Response",
    "binomials",
    "multisets",
    "descending_multisets",
    "ranks",
    "terminal_table",
    "rank",
    "rank3",
    "pure_outcomes",
    "mixed_outcomes",
    "strategy_outcomes",
    "ViewCache",
    "SPARES",
    "view_cache",
    "Others",
    "continuation_span",
    "continuation_pair",
    "continuation_row",
    "view_row",
    "view_continuation",
    "Outcomes",
    "outcome_space",
    "outcome_list",
    "list_span",
    "list_spans",
    "list_pair_span",
    "cover_plan",
    "threshold_value",
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
    goal + w)``, w the gains of a roll: the entries past the goal repeat entry ``goal``, the
    padding of :mod:`.step`), the others' thresholds ``keys[c]`` (``(S, m)``) they were summed
    for and the lowest own score ``low[c]`` summed (-1: none), and the spare rows (as wide).
    Zero rows: no reuse."""

    rows: np.ndarray
    keys: np.ndarray
    low: np.ndarray
    spare: np.ndarray
    spare_keys: np.ndarray
    spare_low: np.ndarray
    spare_col: np.ndarray


SPARES = 1 << 13
"""Spare rows of a :class:`ViewCache` (a power of 2): rows of a column summed for other
thresholds than its current ones, kept by (column, thresholds)."""


def view_cache(columns: int, goal: int, others: int, spares: int = SPARES, *, gains: int) -> ViewCache:
    """An empty :class:`ViewCache` of ``columns`` columns (0: no reuse), ``others`` others,
    ``spares`` spare rows (a power of 2; 0: none) and rows padded for ``gains`` gains of a
    roll (the width w of the :class:`~.step.Band`: rows of ``goal + gains`` entries)."""
    if spares & (spares - 1):
        raise ValueError(f"spares must be 0 or a power of 2, got {spares}")
    if gains < 1:
        raise ValueError(f"gains must be at least 1, got {gains}")
    spares = spares if columns else 0
    width = max(others, 1)
    return ViewCache(
        np.zeros((columns, goal + gains)),
        np.zeros((columns, width), dtype=np.int64),
        np.full(columns, -1, dtype=np.int64),
        np.zeros((spares, goal + gains)),
        np.zeros((spares, width), dtype=np.int64),
        np.full(spares, -1, dtype=np.int64),
        np.full(spares, -1, dtype=np.int64),
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


def descending_multisets(values: int, size: int, engine: str = "numba") -> np.ndarray:
    """:func:`multisets` in reverse order (by decreasing colex rank, the order in which the
    symmetric solver walks the states), written in one pass by ``_fill_descending``:
    compiled (``engine="numba"``; four players at goal 100 take about 0.2 s, mostly the first
    touch of the 141 MB, against about 1 s for the gathers of :func:`multisets` and the
    reversed copy), or as plain Python (``"numpy"``: small sizes).

    Examples
    --------
    >>> descending_multisets(3, 2, "numpy").tolist()
    [[2, 2], [1, 2], [0, 2], [1, 1], [0, 1], [0, 0]]
    """
    out = np.empty((comb(values + size - 1, size), size), dtype=np.int64)
    if values > 0 and size > 0:
        (compiled(_fill_descending) if engine == "numba" else _fill_descending)(values, out)
    return out


@kernel(refcount=False)
def _fill_descending(values, out):  # pragma: no cover - compiled
    """Every sorted tuple of ``out.shape[1]`` numbers in ``0..values - 1`` into the rows of
    ``out``, by decreasing colex rank: the first is all ``values - 1``; each next one lowers
    the first nonzero number by one and sets every number before it to the same (the
    largest tuple that is smaller: an odometer)."""
    size = out.shape[1]
    for p in range(size):
        out[0, p] = values - 1
    for i in range(1, out.shape[0]):
        q = 0
        while out[i - 1, q] == 0:
            q += 1
        v = out[i - 1, q] - 1
        for p in range(q + 1):
            out[i, p] = v
        for p in range(q + 1, size):
            out[i, p] = out[i - 1, p]


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


@kernel(refcount=False)
def rank(vals, m, binom):  # pragma: no cover - compiled
    """Colex rank of the sorted ``vals[:m]``."""
    r = 0
    for q in range(m):
        r += binom[vals[q] + q, q + 1]
    return r


@kernel(refcount=False)
def rank3(x0, x1, x2):  # pragma: no cover - compiled
    """Colex rank of the sorted triple ``x0 <= x1 <= x2``: :math:`x_0 + \\binom{x_1 + 1}{2} +
    \\binom{x_2 + 2}{3}` in integer arithmetic (the numbers of :func:`rank`, no table read)."""
    return x0 + (x1 + 1) * x1 // 2 + (x2 + 2) * (x2 + 1) * x2 // 6


@kernel(refcount=False)
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


@kernel(refcount=False)
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


@kernel(refcount=False)
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


@kernel(refcount=False)
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


@kernel(refcount=False)
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


@kernel(refcount=False)
def _chance(m, prob, idx):  # pragma: no cover - compiled
    """The chance of the others' outcome profile ``idx``: the product of theirs, first other
    first (the order every summing loop uses, so the same number)."""
    pc = 1.0
    for p in range(m):
        pc *= prob[p, idx[p]]
    return pc


@kernel(refcount=False)
def _self_outcome(m, dest, prob, idx, buf, binom):  # pragma: no cover - compiled
    """``(chance, column)`` of the others' outcome in which every one busts (their first
    outcome, :func:`pure_outcomes`), which the summing loops add last; leaves ``idx`` at it."""
    for p in range(m):
        idx[p] = 0
    return _chance(m, prob, idx), _sorted_rank(m, dest, idx, buf, binom)


class Others(NamedTuple):
    """The ``m`` others of one view and where their turns end: other p on
    ``dest[p, :lens[p]]`` with the chances ``prob[p, :lens[p]]`` (:func:`pure_outcomes`,
    :func:`strategy_outcomes`), with the odometer scratch ``idx`` and ``buf`` (``m`` each) of
    the sums over their outcome profiles (:func:`continuation_span`)."""

    m: int
    dest: np.ndarray
    prob: np.ndarray
    lens: np.ndarray
    idx: np.ndarray
    buf: np.ndarray


@kernel(refcount=False)
def _add_row(pc, r, top, t, lo, hi, g, table, out, dst):  # pragma: no cover - compiled
    """One outcome's term of :func:`continuation_span`: chance ``pc`` times row r of the table
    over ``lo..hi`` into ``dst`` (``out[lo - t:]``), or, if it puts some other player at the
    goal (``top``), times its goal entry into ``out[g - t]`` alone (when the span reaches it)."""
    if top:
        if hi == g:
            out[g - t] += pc * table[r, g]
        return
    src = table[r, lo : hi + 1]
    for y in range(dst.shape[0]):
        dst[y] += pc * src[y]


@kernel(refcount=False)
def continuation_span(t, lo, hi, g, o, table, binom, out):  # pragma: no cover - compiled
    """``out[y - t]`` for the entries ``y = lo..hi`` (``t <= lo <= hi <= goal``) of the
    continuation of :func:`continuation_row`, each summed over the outcomes of the
    :class:`Others` ``o`` in the
    same order (last other fastest) with the same products, so that any span of it has the
    bits of the whole row; the self outcome (every other busts) comes last (module Notes).
    An outcome with some other player at the goal adds the goal's entry only. Three others
    get nested loops (a branch-free sort, the partial products hoisted: the same numbers).
    The inner loop runs over one-dimensional slices (of ``out`` and a row of ``table``),
    which numba vectorises: each entry's sum is unchanged."""
    m, dest, prob, lens, idx, buf = o.m, o.dest, o.prob, o.lens, o.idx, o.buf
    dst = out[lo - t : hi - t + 1]
    for y in range(dst.shape[0]):
        dst[y] = 0.0
    if m == 3:
        d2, p2 = dest[2], prob[2]
        for a in range(lens[0]):
            pa, va = prob[0, a], dest[0, a]
            for b in range(lens[1]):
                pab, vb = pa * prob[1, b], dest[1, b]
                small, big = min(va, vb), max(va, vb)
                for c in range(1 if a == 0 and b == 0 else 0, lens[2]):
                    pc = pab * p2[c]
                    if pc == 0.0:
                        continue
                    vc = d2[c]
                    x0, x2 = min(small, vc), max(big, vc)
                    r = rank3(x0, va + vb + vc - x0 - x2, x2)
                    if x2 >= g:
                        if hi == g:
                            out[g - t] += pc * table[r, g]
                    else:
                        src = table[r, lo : hi + 1]
                        for y in range(dst.shape[0]):
                            dst[y] += pc * src[y]
    else:
        for p in range(m):
            idx[p] = 0
        while _next(m, lens, idx):  # from the second outcome: the self outcome comes last
            pc = _chance(m, prob, idx)
            if pc != 0.0:
                r = _sorted_rank(m, dest, idx, buf, binom)
                _add_row(pc, r, buf[m - 1] >= g, t, lo, hi, g, table, out, dst)
    pc, r = _self_outcome(m, dest, prob, idx, buf, binom)
    if pc != 0.0:
        _add_row(pc, r, buf[m - 1] >= g, t, lo, hi, g, table, out, dst)


@kernel(refcount=False)
def continuation_pair(t, g, o, table, binom, prev):  # pragma: no cover - compiled
    """Entries t and t + 1 of the continuation (:func:`continuation_span`, the same bits) of
    the state being solved at own score t against the :class:`Others` ``o``: what a view cache hit needs
    (:func:`view_continuation`). ``prev`` is entry t + 1 as summed while own score t + 1 was
    being solved, its last term (the self outcome) read as 0 there: that term is added to it.
    Entry t is summed in a register; its self term is the state being solved, 0 in the table
    (module Notes), so it is not read (adding 0 changes no bit). The self term's entry t + 1,
    in the view's own row, is read first: it is the load most likely to miss the caches."""
    m, dest, prob, lens, idx, buf = o.m, o.dest, o.prob, o.lens, o.idx, o.buf
    pself, rself = _self_outcome(m, dest, prob, idx, buf, binom)
    top = buf[m - 1] >= g  # (not a state the solvers visit: some other at the goal)
    then = table[rself, g] if top else table[rself, t + 1]
    e0 = 0.0
    if m == 3:
        # the third other's scores increase with c: the sorted triple is (vc, small, big),
        # then (small, vc, big), then (small, big, vc), so its rank is a base plus one term
        d2, p2, n2 = dest[2], prob[2], lens[2]
        for a in range(lens[0]):
            pa, va = prob[0, a], dest[0, a]
            for b in range(lens[1]):
                pab, vb = pa * prob[1, b], dest[1, b]
                small, big = min(va, vb), max(va, vb)
                if big >= g:  # some other at the goal: entry t reads nothing
                    continue
                c = 1 if a == 0 and b == 0 else 0
                base = (small + 1) * small // 2 + (big + 2) * (big + 1) * big // 6
                while c < n2 and d2[c] <= small:
                    pc = pab * p2[c]
                    if pc != 0.0:
                        e0 += pc * table[base + d2[c], t]
                    c += 1
                base = small + (big + 2) * (big + 1) * big // 6
                while c < n2 and d2[c] <= big:
                    vc = d2[c]
                    pc = pab * p2[c]
                    if pc != 0.0:
                        e0 += pc * table[base + (vc + 1) * vc // 2, t]
                    c += 1
                base = small + (big + 1) * big // 2
                while c < n2 and d2[c] < g:
                    vc = d2[c]
                    pc = pab * p2[c]
                    if pc != 0.0:
                        e0 += pc * table[base + (vc + 2) * (vc + 1) * vc // 6, t]
                    c += 1
    else:
        for p in range(m):
            idx[p] = 0
        while _next(m, lens, idx):  # from the second outcome: the self outcome comes last
            pc = _chance(m, prob, idx)
            if pc != 0.0:
                r = _sorted_rank(m, dest, idx, buf, binom)
                if buf[m - 1] < g:
                    e0 += pc * table[r, t]
    if pself == 0.0 or (top and t + 1 < g):
        return e0, prev
    return e0, prev + pself * then


@kernel(refcount=False)
def continuation_row(t, g, o, table, binom, u):  # pragma: no cover - compiled
    """``u[x]``, ``x = 0..goal - t``, for a player at own score t whose m others end their
    turns on ``dest[p, :lens[p]]`` with ``prob[p, :lens[p]]`` (the :class:`Others` ``o``,
    module Notes); past the room
    ``u`` repeats ``u[goal - t]`` to its end (the padding of :mod:`.step`). An outcome that
    puts another player at the goal reads one entry, the own goal's (every other entry of a
    terminal column is 0, :func:`terminal_table`), so only ``u[goal - t]`` changes."""
    room = g - t
    continuation_span(t, t, g, g, o, table, binom, u)
    for x in range(room + 1, u.shape[0]):
        u[x] = u[room]


@kernel(refcount=False)
def _holds(keys, low, key, m, t):  # pragma: no cover - compiled
    """Whether a row summed for the others' thresholds ``keys`` down to own score ``low``
    serves own score t for ``key`` (module Notes, *Reuse*): its entries above ``low`` are
    final, so any ``low >= t`` does."""
    if low < t:
        return False
    for q in range(m):
        if keys[q] != key[q]:
            return False
    return True


@kernel(refcount=False)
def _slot(c, key, m, size):  # pragma: no cover - compiled
    """The spare slot of column c with the others' thresholds ``key`` (``size`` a power of 2)."""
    h = c
    for q in range(m):
        h = h * 31 + key[q]
    return (h ^ (h >> 13)) & (size - 1)


@kernel(refcount=False)
def _to_spare(c, h, cache):  # pragma: no cover - compiled
    """Copy column c's row, thresholds and lowest own score into spare slot h."""
    rows, spare, keys, spare_keys = cache.rows, cache.spare, cache.keys, cache.spare_keys
    for y in range(rows.shape[1]):
        spare[h, y] = rows[c, y]
    for q in range(keys.shape[1]):
        spare_keys[h, q] = keys[c, q]
    cache.spare_low[h] = cache.low[c]
    cache.spare_col[h] = c


@kernel(refcount=False)
def _from_spare(c, key, m, t, cache):  # pragma: no cover - compiled
    """Bring the spare row of column c with thresholds ``key`` back into ``rows[c]`` if it
    serves own score t (its slot then takes the row it replaces); returns whether it did."""
    size = cache.spare.shape[0]
    h = _slot(c, key, m, size)
    if cache.spare_col[h] != c or not _holds(cache.spare_keys[h], cache.spare_low[h], key, m, t):
        return False
    rows, keys, low = cache.rows, cache.keys, cache.low
    if low[c] >= 0 and _slot(c, keys[c], m, size) == h:  # the two trade places
        for y in range(rows.shape[1]):
            rows[c, y], cache.spare[h, y] = cache.spare[h, y], rows[c, y]
        for q in range(keys.shape[1]):
            keys[c, q], cache.spare_keys[h, q] = cache.spare_keys[h, q], keys[c, q]
        low[c], cache.spare_low[h] = cache.spare_low[h], low[c]
        return True
    if low[c] >= 0:
        h2 = _slot(c, keys[c], m, size)
        _to_spare(c, h2, cache)
    for y in range(rows.shape[1]):
        rows[c, y] = cache.spare[h, y]
    for q in range(keys.shape[1]):
        keys[c, q] = cache.spare_keys[h, q]
    low[c] = cache.spare_low[h]
    cache.spare_col[h] = -1
    return True


@kernel(refcount=False)
def view_row(t, c, key, g, o, table, binom, u, cache):  # pragma: no cover - compiled
    """Bring the continuation of the view ``(t, others[c])`` whose others play the pure
    thresholds ``key[:m]`` (their outcomes: the :class:`Others` ``o``) up to date in a row indexed by
    own score, which holds ``u[x]`` of :func:`continuation_row` at ``row[t + x]``, padded
    past the room like ``u`` (``row[y] = row[goal]`` for ``y > goal``): the row
    ``cache.rows[c]`` of the :class:`ViewCache` ``cache`` (module Notes, *Reuse*: the same
    bits as a fresh row, in one entry and one term instead of ``goal - t + 1`` entries when
    the view one own score up had the same key, :func:`continuation_pair`), or with no cache (zero rows) ``u``, its entries ``t..goal``
    summed afresh (:func:`continuation_span`). A caller reads the row where it is, ``row[t:]``
    being the ``u`` of :func:`~.step.threshold_step`: no copy."""
    m = o.m
    rows, keys, low = cache.rows, cache.keys, cache.low
    if rows.shape[0] == 0:
        continuation_span(0, t, g, g, o, table, binom, u)
        for y in range(g + 1, u.shape[0]):
            u[y] = u[g]
        return
    same = _holds(cache.keys[c], low[c], key, m, t)
    if not same and cache.spare.shape[0] > 0:
        same = _from_spare(c, key, m, t, cache)
    row = rows[c]
    if not same:
        if low[c] >= 0 and cache.spare.shape[0] > 0:  # the row goes to the spares
            _to_spare(c, _slot(c, keys[c], m, cache.spare.shape[0]), cache)
        continuation_span(0, t, g, g, o, table, binom, row)
        for q in range(m):
            keys[c, q] = key[q]
        low[c] = t
    elif low[c] == t + 1:  # entry t + 1 read the state then being solved as 0: completed
        row[t], row[t + 1] = continuation_pair(t, g, o, table, binom, row[t + 1])
        low[c] = t
    elif low[c] > t:  # a row from further up (a spare): entries t..low again
        continuation_span(0, t, low[c], g, o, table, binom, row)
        low[c] = t
    for y in range(g + 1, row.shape[0]):  # the padding follows entry g
        row[y] = row[g]


@kernel
def view_continuation(t, c, key, g, o, table, binom, u, cache):  # pragma: no cover - compiled
    """:func:`continuation_row` of the view ``(t, others[c])`` whose others play the pure
    thresholds ``key[:m]`` (their outcomes: the :class:`Others` ``o``), through the
    :class:`ViewCache` ``cache``: :func:`view_row` copied into ``u``, padded past the room
    (the same bits)."""
    if cache.rows.shape[0] == 0:
        continuation_row(t, g, o, table, binom, u)
        return
    view_row(t, c, key, g, o, table, binom, u, cache)
    row = cache.rows[c]
    room = g - t
    for x in range(room + 1):
        u[x] = row[t + x]
    for x in range(room + 1, u.shape[0]):
        u[x] = u[room]


class Outcomes(NamedTuple):
    """The others' outcome profiles of one view as a list (:func:`outcome_list`): the column
    ``rank[j]`` of the j-th profile with a nonzero chance ``chance[j]``, and ``top[j]``
    whether it puts some other player at the goal (in the order of
    :func:`continuation_span`: last other fastest)."""

    rank: np.ndarray
    chance: np.ndarray
    top: np.ndarray


@kernel
def outcome_space(length):  # pragma: no cover - compiled
    """An empty :class:`Outcomes` with room for ``length`` profiles (grown by the caller
    when a view has more, :func:`outcome_list`)."""
    return Outcomes(np.zeros(length, np.int64), np.zeros(length), np.zeros(length, np.bool_))


@kernel(refcount=False)
def outcome_list(g, o, binom, out):  # pragma: no cover - compiled
    """Fill the :class:`Outcomes` ``out`` with the outcome profiles of the :class:`Others`
    ``o`` (their chance, column and whether one reaches the goal) in the order and with the
    products of :func:`continuation_span`; returns their number, or -1 if ``out`` is too short
    (the caller grows it: at most ``prod(lens)`` profiles)."""
    m, dest, prob, lens, idx, buf = o.m, o.dest, o.prob, o.lens, o.idx, o.buf
    total = 1
    for p in range(m):
        total *= lens[p]
    if total > out.rank.shape[0]:
        return -1
    ranks, chance, top = out.rank, out.chance, out.top
    n = 0
    if m == 2:  # the general loop's products and ranks, in nested loops
        for a in range(lens[0]):
            pa, va = prob[0, a], dest[0, a]
            for b in range(1 if a == 0 else 0, lens[1]):
                pc = pa * prob[1, b]
                if pc == 0.0:
                    continue
                vb = dest[1, b]
                ranks[n] = binom[min(va, vb), 1] + binom[max(va, vb) + 1, 2]
                chance[n] = pc
                top[n] = max(va, vb) >= g
                n += 1
    elif m == 3:
        for a in range(lens[0]):
            pa, va = prob[0, a], dest[0, a]
            for b in range(lens[1]):
                pab, vb = pa * prob[1, b], dest[1, b]
                small, big = min(va, vb), max(va, vb)
                for c in range(1 if a == 0 and b == 0 else 0, lens[2]):
                    pc = pab * prob[2, c]
                    if pc == 0.0:
                        continue
                    vc = dest[2, c]
                    x0, x2 = min(small, vc), max(big, vc)
                    ranks[n] = binom[x0, 1] + binom[va + vb + vc - x0 - x2 + 1, 2] + binom[x2 + 2, 3]
                    chance[n] = pc
                    top[n] = x2 >= g
                    n += 1
    else:
        for p in range(m):
            idx[p] = 0
        while _next(m, lens, idx):  # from the second outcome: the self outcome comes last
            pc = _chance(m, prob, idx)
            if pc != 0.0:
                ranks[n] = _sorted_rank(m, dest, idx, buf, binom)
                chance[n] = pc
                top[n] = buf[m - 1] >= g
                n += 1
    pc, r = _self_outcome(m, dest, prob, idx, buf, binom)
    if pc != 0.0:
        ranks[n] = r
        chance[n] = pc
        top[n] = buf[m - 1] >= g
        n += 1
    return n


@kernel(refcount=False)
def list_span(n, outs, t, lo, hi, g, table, out):  # pragma: no cover - compiled
    """:func:`continuation_span` over the first n profiles of the :class:`Outcomes`
    ``outs``: the same sums in the same order, so the same bits. The inner loop runs over
    one-dimensional slices (``out`` and a row of ``table``), which numba vectorises."""
    dst = out[lo - t : hi - t + 1]
    for y in range(dst.shape[0]):
        dst[y] = 0.0
    ranks, chance, top = outs.rank, outs.chance, outs.top
    if hi - lo < 8:  # a few entries: no slices (their set-up costs more than the sums)
        for j in range(n):
            pc, r = chance[j], ranks[j]
            if top[j]:
                if hi == g:
                    out[g - t] += pc * table[r, g]
            else:
                for y in range(lo, hi + 1):
                    out[y - t] += pc * table[r, y]
        return
    for j in range(n):
        pc, r = chance[j], ranks[j]
        if top[j]:
            if hi == g:
                out[g - t] += pc * table[r, g]
        else:
            src = table[r, lo : hi + 1]
            for y in range(dst.shape[0]):
                dst[y] += pc * src[y]


@kernel(refcount=False)
def list_spans(n, outs, t, g, first, row1, second, row2, lo2, hi2):  # pragma: no cover - compiled
    """In one pass over the first n profiles of the :class:`Outcomes` ``outs``: entries
    ``t..goal`` of the continuation ``row1`` of ``first`` and entries t and ``lo2..hi2``
    (``t < lo2``; none if ``lo2 > hi2``) of the continuation ``row2`` of ``second``, each
    with the bits of :func:`list_span`."""
    dst = row1[t : g + 1]
    for y in range(dst.shape[0]):
        dst[y] = 0.0
    row2[t] = 0.0
    for y in range(lo2, hi2 + 1):
        row2[y] = 0.0
    top2 = lo2 <= hi2 and hi2 == g
    ranks, chance, top = outs.rank, outs.chance, outs.top
    for j in range(n):
        pc, r = chance[j], ranks[j]
        if top[j]:
            row1[g] += pc * first[r, g]
            if top2:
                row2[g] += pc * second[r, g]
        else:
            src = first[r, t : g + 1]
            for y in range(dst.shape[0]):
                dst[y] += pc * src[y]
            row2[t] += pc * second[r, t]
            for y in range(lo2, hi2 + 1):
                row2[y] += pc * second[r, y]


@kernel(refcount=False)
def list_pair_span(n, outs, t, g, first, second, row2, lo2, hi2):  # pragma: no cover - compiled
    """Entries t and t + 1 of the continuation of ``first`` (:func:`continuation_pair`, the
    same bits), returned, and entries t and ``lo2..hi2`` (``t < lo2``; none if ``lo2 >
    hi2``) of the continuation ``row2`` of ``second`` (:func:`list_span`, the same bits),
    in one pass over the first n profiles of the :class:`Outcomes` ``outs``."""
    a0 = 0.0
    a1 = 0.0
    row2[t] = 0.0
    for y in range(lo2, hi2 + 1):
        row2[y] = 0.0
    at_top = t + 1 == g
    top2 = lo2 <= hi2 and hi2 == g
    ranks, chance, top = outs.rank, outs.chance, outs.top
    for j in range(n):
        pc, r = chance[j], ranks[j]
        if top[j]:
            if at_top:
                a1 += pc * first[r, g]
            if top2:
                row2[g] += pc * second[r, g]
        else:
            a0 += pc * first[r, t]
            a1 += pc * first[r, t + 1]
            row2[t] += pc * second[r, t]
            for y in range(lo2, hi2 + 1):
                row2[y] += pc * second[r, y]
    return a0, a1


@kernel(refcount=False)
def cover_plan(lo, hi, low, high):  # pragma: no cover - compiled
    """Which entries to sum so that ``lo..hi`` are valid where ``low..high`` are (empty if
    ``low > high``): ``(a, b, c, d, low', high')``, the spans ``a..b`` and ``c..d`` (empty if
    reversed) and the valid entries after (contiguous; a span apart from the valid one
    replaces it)."""
    if low > high or hi < low - 1 or lo > high + 1:
        return lo, hi, 1, 0, lo, hi
    a, b, c, d = 1, 0, 1, 0
    if lo < low:
        a, b = lo, low - 1
    if hi > high:
        c, d = high + 1, hi
    return a, b, c, d, min(lo, low), max(hi, high)


@kernel(refcount=False)
def threshold_value(band, row, i, g, k):  # pragma: no cover - compiled
    """``a_k`` of :func:`action_values` for one threshold k, read straight from a
    continuation row (``u[x] = row[min(i + x, goal)]``): the operations of
    :func:`~.step.threshold_values` in the same order, so the same bits."""
    band_t = band.band_t
    acc = band.bust[k] * row[i]
    for r in range(band_t.shape[0]):
        acc += band_t[r, k] * row[min(i + k + r, g)]
    return acc


@kernel(refcount=False)
def action_values(u, room, opp_bust, band, num, vals):  # pragma: no cover - compiled
    """``num[k] = a_k`` and ``vals[k] = a_k / (1 - P(X_k = 0) B)`` for ``k = 1..room``: the
    threshold step of :mod:`.step` (``u`` padded past the room, :func:`continuation_row`)."""
    threshold_values(band, u, u[0], room, num)
    self_loop_values(num, room, band.bust, opp_bust, num, True, vals)


@kernel(refcount=False)
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
    (module Notes, *Reuse*: the same bits): the others' outcomes are built again only when
    their codes change, their profiles listed once per change of the outcomes
    (:func:`outcome_list`), and both tables summed in one pass over the list
    (:func:`list_spans`, :func:`list_pair_span`). The strategy's own value is taken at its own
    thresholds only (:func:`threshold_value`), which read entry i and the entries ``i + k_lo
    .. i + k_hi + 5`` of its continuation (``k_lo..k_hi`` the thresholds it plays, six gains
    of one die): only those are summed, each once per outcome list (:func:`cover_plan`).
    Every entry is summed over the same profiles in the same order as a whole row, so the
    results have the bits of ``reuse=False``, the reference, which builds the outcomes and
    sums both whole rows afresh at every state.
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
    vals = np.zeros(g + 1)
    idx = np.zeros(m, np.int64)
    buf = np.zeros(m, np.int64)
    view = np.zeros(m, np.int64)
    codes = np.zeros(m, np.int64)
    opp_bust = 1.0
    # the column's continuation rows (module Notes, *Reuse*) and the outcomes they were summed for
    row_br = np.zeros(g + band.band_t.shape[0] + 1)
    row_ev = np.zeros(g + 1)
    seen_dest = np.zeros((m, n_out), np.int64)
    seen_prob = np.zeros((m, n_out))
    seen_lens = np.zeros(m, np.int64)
    them = Others(m, dest, prob, lens, idx, buf)
    outs = outcome_space(7**m)  # the outcome profiles of the others (grown for mixes)
    n_list = 0
    b_last = 1.0
    width = band.band_t.shape[0]
    ev_low, ev_high = g + 1, g  # the entries of row_ev above own score i summed for the outcomes
    n_lo, n_hi = g + 1, g
    for c in range(c_hi - 1, c_lo - 1, -1):
        if others[c, m - 1] >= g:
            continue  # terminal column, prefilled
        for i in range(g - 1, -1, -1):
            # the others' codes at their views (the responder's i among the rest)
            kept = i < g - 1 and reuse  # their outcomes are those of i + 1 while the codes are
            for p in range(m):
                o = others[c, p]
                if p > 0 and others[c, p - 1] == o:  # same score, same strategy
                    codes[p] = codes[p - 1]
                    continue
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
                if code != codes[p]:
                    kept = False
                codes[p] = code
            if not kept:
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
                    lens[p], b_last = strategy_outcomes(
                        o, codes[p], mix_th, mix_w, g, band, acc, dest[p], prob[p]
                    )
                    opp_bust *= b_last
            own_code = act[c, i]
            room = g - i
            same = i < g - 1 and reuse
            for p in range(m):
                if kept:
                    break
                if not same or seen_lens[p] != lens[p]:
                    same = False
                    break
                for e in range(lens[p]):
                    if seen_dest[p, e] != dest[p, e] or seen_prob[p, e] != prob[p, e]:
                        same = False
                        break
            if not same:  # the others' outcomes changed: list them again
                n_list = outcome_list(g, them, binom, outs)
                if n_list < 0:  # more profiles than the list holds: grow it
                    total = 1
                    for p in range(m):
                        total *= lens[p]
                    outs = outcome_space(2 * total)
                    n_list = outcome_list(g, them, binom, outs)
                for p in range(m):
                    seen_lens[p] = lens[p]
                    for e in range(lens[p]):
                        seen_dest[p, e] = dest[p, e]
                        seen_prob[p, e] = prob[p, e]
            if not reuse:  # the reference: both rows whole, summed afresh
                list_span(n_list, outs, 0, i, g, g, br, row_br)
                list_span(n_list, outs, 0, i, g, g, ev, row_ev)
            else:
                # the strategy's own value reads entry i and the gains of its thresholds only:
                # entries n_lo..n_hi, summed once for the outcomes (valid: ev_low..ev_high)
                if own_code > 0:
                    k_lo = own_code
                    k_hi = own_code
                else:
                    e = -own_code - 1
                    k_lo = g + 1
                    k_hi = 0
                    for j in range(mix_th.shape[1]):
                        if mix_w[e, j] != 0.0:
                            k_lo = min(k_lo, mix_th[e, j])
                            k_hi = max(k_hi, mix_th[e, j])
                n_lo, n_hi = g + 1, g
                if k_lo <= k_hi:
                    n_lo, n_hi = min(i + k_lo, g), min(i + k_hi + width - 1, g)
                if not same:
                    ev_low, ev_high = g + 1, g  # no entry valid for these outcomes yet
                s1, e1, s2, e2, ev_low, ev_high = cover_plan(n_lo, n_hi, ev_low, ev_high)
                if same:  # the others play as one own score up: entries i and i + 1 again
                    row_br[i], row_br[i + 1] = list_pair_span(n_list, outs, i, g, br, ev, row_ev, s1, e1)
                else:
                    list_spans(n_list, outs, i, g, br, row_br, ev, row_ev, s1, e1)
                if s2 <= e2:
                    list_span(n_list, outs, 0, s2, e2, g, ev, row_ev)
            # the continuation padded past the room: row_br from i on (its tail holds entry g)
            for x in range(g + 1, row_br.shape[0]):
                row_br[x] = row_br[g]
            best, k = threshold_step(band, row_br[i:], row_br[i], room, opp_bust, vals, True, tie_tol, vals)
            br[c, i] = best
            br_act[c, i] = k
            # the strategy itself, at its own thresholds only (the same operations)
            if own_code > 0:
                ev[c, i] = threshold_value(band, row_ev, i, g, own_code) / (1.0 - bust[own_code] * opp_bust)
            else:
                e = -own_code - 1
                a = 0.0
                b = 0.0
                for j in range(mix_th.shape[1]):
                    wj = mix_w[e, j]
                    if wj != 0.0:
                        a += wj * threshold_value(band, row_ev, i, g, mix_th[e, j])
                        b += wj * bust[mix_th[e, j]]
                ev[c, i] = a / (1.0 - b * opp_bust)
