"""The continuation sums of the symmetric solvers: one view's expectation over the others'
turns, summed once and reused down a column (:class:`ViewCache`).

Shapes are those of :mod:`.kernels`.

Notes
-----
*Continuation.* For a player at own score t whose others' turns end on the scores
``dest[p, o]`` with probabilities ``prob[p, o]`` (one list per other player, independent),

.. math:: u[x] = \\sum_{o_1, \\dots, o_m} \\prod_p P_p(o_p)\\; T[\\operatorname{rank}(\\operatorname{sort}(d_{o})),\\, \\min(t + x, g)],

for the own gains ``x = 0..goal - t``: each outcome of the others adds one row of the table,
contiguous in x. The outcomes are summed last other fastest, except the one in which every
other busts (the view's own column, the *self* outcome), which is added last. Its entry at
own score t is the state itself: whatever the table holds there, 0 while the state is being
solved, which is the core's convention (the self-loop is solved in closed form by the action
values).

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

The functions are kernels, compiled with those of :mod:`.kernels` (its Notes; references
there).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import kernel
from .kernels import next_profile, profile_chance, rank3, self_outcome, sorted_rank

__all__ = [
    "ViewCache",
    "SPARES",
    "view_cache",
    "Others",
    "continuation_span",
    "continuation_pair",
    "continuation_row",
    "view_row",
    "view_continuation",
]


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


class Others(NamedTuple):
    """The ``m`` others of one view and where their turns end: other p on
    ``dest[p, :lens[p]]`` with the chances ``prob[p, :lens[p]]`` (:func:`~.kernels.pure_outcomes`,
    :func:`~.kernels.strategy_outcomes`), with the odometer scratch ``idx`` and ``buf`` (``m`` each) of
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
        while next_profile(m, lens, idx):  # from the second outcome: the self outcome comes last
            pc = profile_chance(m, prob, idx)
            if pc != 0.0:
                r = sorted_rank(m, dest, idx, buf, binom)
                _add_row(pc, r, buf[m - 1] >= g, t, lo, hi, g, table, out, dst)
    pc, r = self_outcome(m, dest, prob, idx, buf, binom)
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
    pself, rself = self_outcome(m, dest, prob, idx, buf, binom)
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
        while next_profile(m, lens, idx):  # from the second outcome: the self outcome comes last
            pc = profile_chance(m, prob, idx)
            if pc != 0.0:
                r = sorted_rank(m, dest, idx, buf, binom)
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
    terminal column is 0, :func:`~.kernels.terminal_table`), so only ``u[goal - t]`` changes."""
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
