"""Compiled loops (numba) of one chunk task of the chunked multiplayer equilibrium.

The in-memory solver (:mod:`pigtheory.sequential.multiplayer.group_kernels`,
:mod:`pigtheory.sequential.multiplayer.certificate_kernels`) reads the values of the groups above from
one array over every score tuple. A chunk task has only the rows it needs, gathered from the
store (:mod:`pigtheory.sequential.multiplayer.chunk_task`):

* ``Wrows[t, r, k, o]``: the start value of offset o at the tuple reached when mover r of
  group t holds at turn total k (``1 <= k < g - first_r``), the row ``W[base_r + k]`` of the
  in-memory solve (``base_r`` as in :func:`~.group_kernels.hold_values`);
* ``Urows[t, r, k, delta]``: the lone deviator's best-response values there, the rows
  ``U[base_r + k]`` of ``certificate_kernels._best_response_range``;
* the group's own results by rotation, all n of them (rotation ``r`` of a group with ``d < n``
  distinct rotations is rotation ``r % d``): ``Wown[t, r, o]``, ``bits[t, r, k // 8]``,
  ``mixk[t, r]``/``mixp[t, r]`` (its mixed turn total, -1 if pure).

The loops are those of the in-memory kernels with the array reads replaced by these gathered
copies, in the same order of operations: the values are the same to the bit (tested on every
array, ``tests/sequential/multiplayer/test_chunked.py``).
"""

from __future__ import annotations

import numpy as np

from ...jit import kernel
from .certificate_kernels import _hold_chances, _improve, _policy_gain
from .group_kernels import Mix, group_info, rotate
from .group_solver import group_scratch, settle

__all__ = [
    "solve_chunk_groups",
    "certify_chunk_groups",
    "count_table",
    "tuple_rank",
    "rank_table",
    "hold_digits",
    "locate_holds",
    "holds_by_place",
    "copy_holds",
]


@kernel
def _hold_rows(Wrows_tr, K, n, HV):  # pragma: no cover - compiled
    """:func:`~.group_kernels.hold_values` from gathered rows: ``HV[k, 0] = W[nxt, n - 1]``,
    ``HV[k, o] = W[nxt, o - 1]``."""
    for k in range(1, K):
        HV[k, 0] = Wrows_tr[k, n - 1]
        for o in range(1, n):
            HV[k, o] = Wrows_tr[k, o - 1]


@kernel
def guess_from_rows(HV, first_r, g, kind):  # pragma: no cover - compiled
    """:func:`~.group_kernels.start_guess` from the hold values (``HV[k, 0]`` is the row
    ``W[base + k, n - 1]`` it reads)."""
    if kind == 1:
        return 0.0
    if kind == 2:
        return 1.0
    v1 = HV[1, 0] if first_r + 1 < g else 1.0
    v2 = HV[2, 0] if first_r + 2 < g else 1.0
    v = 2.0 * v1 - v2
    return min(max(v, 0.0), 1.0)


@kernel
def solve_chunk_groups(groups, n, g, turn, search, Wrows, Wout, bits, status):  # pragma: no cover - compiled
    """:func:`~.group_solver.solve_groups` on gathered rows: the groups ``groups`` (canonical
    flat indices, one level), their values by rotation into ``Wout[t, r, o]`` (all n
    rotations) and their roll bits into ``bits[t, r]``; ``status[t]`` as
    :func:`~.group_solver.solve_level` (2: nothing written). Returns the passes."""
    s = group_scratch(n, g, turn.pvec.size, search.max_passes)
    rid, first, K, HVs, best_W, best_rolls, guess = (
        s.rid,
        s.first,
        s.K,
        s.HVs,
        s.best_W,
        s.best_rolls,
        s.guess,
    )
    nb = bits.shape[2]
    passes = 0
    for t in range(groups.size):
        d = group_info(groups[t], n, g, rid, first)
        for r in range(d):
            K[r] = g - first[r]
            _hold_rows(Wrows[t, r], K[r], n, HVs[r])
            for start in range(search.n_starts):
                guess[start, r] = guess_from_rows(HVs[r], first[r], g, start)
        st, p = settle(d, n, g, turn, search, s, guess)
        status[t] = st
        passes += p
        if st == 2:
            continue
        for r in range(n):
            rr = r % d
            for o in range(n):
                Wout[t, r, o] = best_W[rr, o]
            for j in range(nb):
                bits[t, r, j] = 0
            for k in range(K[rr]):
                if best_rolls[rr, k]:
                    bits[t, r, k >> 3] |= np.uint8(1 << (k & 7))
    return passes


@kernel
def _unpack_row(bits_tr, K, roll):  # pragma: no cover - compiled
    for k in range(K):
        roll[k] = (bits_tr[k >> 3] >> (k & 7)) & 1 == 1


@kernel
def certify_chunk_groups(
    groups, n, g, turn, Wrows, Urows, Wown, bits, mixk, mixp, Uout, gains, out
):  # pragma: no cover - compiled
    """``certificate_kernels._best_response_range`` with gains, on gathered rows: the
    best-response values ``Uout[t, r, delta]`` of the groups' rotations, their one-shot
    deviation gains ``gains[t, r]``, ``out[0]`` passes and ``out[1]`` the largest residual of
    their start values (module docstring for the inputs)."""
    m = turn.pvec.size
    HV = np.zeros((g + m + 1, n))
    rid = np.zeros(n, dtype=np.int64)
    first = np.zeros(n, dtype=np.int64)
    HVd = np.zeros(g + m + 1)
    a = np.zeros(g + m + 1)
    b = np.zeros(g + m + 1)
    roll = np.zeros(g + m + 1, dtype=np.bool_)
    alpha = np.zeros(n)
    beta = np.zeros(n)
    Uc = np.zeros(n)
    Ug = np.zeros((n, n))
    hold = np.zeros((n, g + m + 1))
    bust = np.zeros(n)
    tail = np.zeros((n, m))
    mixes = np.zeros(n, dtype=np.bool_)
    v = np.zeros(g + m + 1)
    for t in range(groups.size):
        d = group_info(groups[t], n, g, rid, first)
        for r in range(n):
            K = g - first[r]
            _unpack_row(bits[t, r], K, roll)
            mix = Mix(mixk[t, r], mixp[t, r])
            bust[r] = _hold_chances(K, turn, roll, mix, a, hold[r])
            mixes[r] = mix.k >= 0
            for j in range(m):
                tail[r, j] = a[K + j]
            if r < d:
                _hold_rows(Wrows[t, r], K, n, HV)
                nx = (r + 1) % n
                y = Wown[t, nx, n - 1]
                gains[t, r] = _policy_gain(K, y, HV, turn, roll, mix, v)
                for o in range(n):
                    h = 0.0
                    for k in range(1, K):
                        h += hold[r, k] * HV[k, o]
                    if o == 0:
                        for j in range(m):
                            h += tail[r, j]
                    dv = abs(h + bust[r] * Wown[t, nx, (o - 1) % n] - Wown[t, r, o])
                    if dv > out[1]:
                        out[1] = dv
        for r in range(d, n):
            gains[t, r] = gains[t, r % d]
        for p in range(n):  # the deviator moves at rotation p
            for r in range(n):
                delta = (p - r) % n
                if delta == 0:
                    continue
                K = g - first[r]
                acc = 0.0
                for k in range(1, K):
                    acc += hold[r, k] * Urows[t, r, k, (delta - 1) % n]
                alpha[r] = acc
                beta[r] = bust[r]
            c = 0.0
            e = 1.0
            for s in range(n - 1, 0, -1):
                r = (p + s) % n
                c = alpha[r] + beta[r] * c
                e = beta[r] * e
            K = g - first[p]
            for k in range(1, K):
                HVd[k] = Urows[t, p, k, n - 1]
            _unpack_row(bits[t, p], K, roll)
            a0 = 0.0
            b0 = 0.0
            x = 0.0
            for _it in range(200):
                if _it == 0 and not mixes[p]:
                    b0 = bust[p]
                    a0 = 0.0
                    for k in range(1, K):
                        a0 += hold[p, k] * HVd[k]
                    for j in range(m):
                        a0 += tail[p, j]
                else:
                    b0 = _hold_chances(K, turn, roll, Mix(-1, 0.0), a, b)
                    a0 = 0.0
                    for k in range(1, K):
                        a0 += b[k] * HVd[k]
                    for k in range(K, K + m):
                        a0 += a[k]
                out[0] += 1
                den = 1.0 - b0 * e
                x = (a0 + b0 * c) / den if den > 0.0 else 0.0
                if not _improve(K, c + e * x, HVd, turn, roll, v):
                    break
            alpha[p] = a0
            beta[p] = b0
            Uc[p] = x
            nxt = x
            for s in range(n - 1, 0, -1):
                r = (p + s) % n
                Uc[r] = alpha[r] + beta[r] * nxt
                nxt = Uc[r]
            for r in range(n):
                Ug[r % d, (p - r) % n] = Uc[r]
        for r in range(n):
            for o in range(n):
                Uout[t, r, o] = Ug[r % d, o]


@kernel
def count_table(n, g):  # pragma: no cover - compiled
    """``cum[e, x]``: the e-tuples of scores in ``0..g-1`` with sum at most x (e = 0 .. n,
    x = 0 .. n (g - 1)), the counts of the combinatorial number system of :func:`tuple_rank`."""
    top = n * (g - 1)
    N = np.zeros((n + 1, top + 1), dtype=np.int64)
    N[0, 0] = 1
    for e in range(1, n + 1):
        for x in range(top + 1):
            c = 0
            for v in range(min(x, g - 1) + 1):
                c += N[e - 1, x - v]
            N[e, x] = c
    cum = np.zeros((n + 1, top + 1), dtype=np.int64)
    for e in range(n + 1):
        c = 0
        for x in range(top + 1):
            c += N[e, x]
            cum[e, x] = c
    return cum


@kernel
def tuple_rank(digits, n, s, cum):  # pragma: no cover - compiled
    """The place of the tuple ``digits`` (``t_0 .. t_{n-1}``, sum s) among the tuples of sum s
    in ascending flat index: ``sum_i #{tuples of sum s agreeing on t_0 .. t_{i-1}, with a
    smaller t_i}`` = ``sum_i cum[n-1-i, rem_i] - cum[n-1-i, rem_i - t_i]``, ``rem_i = s -
    t_0 - .. - t_{i-1}`` (``cum`` from :func:`count_table`)."""
    rank = 0
    rem = s
    for i in range(n - 1):
        e = n - 1 - i
        x = digits[i]
        if x > 0:
            rank += cum[e, rem] - (cum[e, rem - x] if rem - x >= 0 else 0)
        rem -= x
    return rank


@kernel
def rank_table(groups, n, g, s, cum, table):  # pragma: no cover - compiled
    """``table[tuple_rank(t)] = p n + r`` for every tuple t of score sum s: the place p of its
    group among the canonical groups ``groups`` of that sum and a rotation r with ``rotate(
    groups[p], r) == t`` (rotations with the same tuple hold the same rows)."""
    digits = np.zeros(n, dtype=np.int64)
    for p in range(groups.size):
        for r in range(n):
            x = rotate(groups[p], r, n, g)
            for i in range(n - 1, -1, -1):
                digits[i] = x % g
                x //= g
            table[tuple_rank(digits, n, s, cum)] = p * n + r


@kernel
def hold_digits(rid, first, n, g, digits):  # pragma: no cover - compiled
    """``digits[t, r]``: the scores of the tuple ``base`` of rotation r of group t (``base`` as
    in :func:`~.group_kernels.hold_values`: the others' scores in turn order, then the mover's;
    a hold at turn total k adds k to the last)."""
    for t in range(rid.shape[0]):
        for r in range(n):
            x = (rid[t, r] % g ** (n - 1)) * g + first[t, r]
            for i in range(n - 1, -1, -1):
                digits[t, r, i] = x % g
                x //= g


@kernel
def locate_holds(digits, first, n, g, s, k, cum, table, chunk, pos, rot, need):  # pragma: no cover - compiled
    """Where the rows of the holds at turn total k lie in a store: for rotation r of group t
    (score sum s) with ``k < g - first[t, r]``, the tuple ``base + k`` has score sum ``s + k``,
    its group's place ``pos[t, r]`` among the canonical groups of that sum and rotation
    ``rot[t, r]`` (``rotate(group, rot) == tuple``), read from that sum's rank table
    (:func:`rank_table`) at the tuple's rank (:func:`tuple_rank`): arithmetic, no search.
    ``need[pos // chunk]`` is set for every chunk file read (``chunk``: the groups per chunk
    of sum ``s + k``, :func:`~.group_store.cut`)."""
    for t in range(digits.shape[0]):
        for r in range(n):
            if k >= g - first[t, r]:
                continue
            dg = digits[t, r]
            dg[n - 1] += k
            code = table[tuple_rank(dg, n, s + k, cum)]
            dg[n - 1] -= k
            p = code // n
            pos[t, r] = p
            rot[t, r] = code - p * n
            need[p // chunk] = True


@kernel
def _copy_row(src, src2, row, j, out, out2, h, k, n, parts):  # pragma: no cover - compiled
    """One hold's row of each part: ``out[h, k] = src[row, j]`` (and ``out2`` from ``src2``)."""
    for o in range(n):
        out[h, k, o] = src[row, j, o]
    if parts == 2:
        for o in range(n):
            out2[h, k, o] = src2[row, j, o]


@kernel
def holds_by_place(first, n, g, k, pos):  # pragma: no cover - compiled
    """The holds at turn total k (``t n + r`` for rotation r of group t, ``k < g - first[t,
    r]``) in ascending order of their places ``pos[t, r]`` (a stable LSD radix sort, 11 bits
    a pass: two passes below 4 million groups a score sum). A hold ``h = t n + r`` is its own
    index into the flat ``pos`` (C order), so the passes read its place without dividing:
    at 4 players goal 50 (serial, default chunks, 153 million holds) sorting took 3.6 s
    reading ``pos[h // n, h % n]``, 0.67 s reading ``pos.ravel()[h]``."""
    flat = pos.ravel()
    firsts = first.ravel()
    size = flat.size
    m = 0
    top = 0
    for h in range(size):
        if k < g - firsts[h]:
            m += 1
            top = max(top, flat[h])
    order = np.empty(m, dtype=np.int64)
    spare = np.empty(m, dtype=np.int64)
    i = 0
    for h in range(size):
        if k < g - firsts[h]:
            order[i] = h
            i += 1
    count = np.zeros(2049, dtype=np.int64)
    shift = 0
    while (top >> shift) > 0:
        count[:] = 0
        for i in range(m):
            count[((flat[order[i]] >> shift) & 2047) + 1] += 1
        for b in range(2048):
            count[b + 1] += count[b]
        for i in range(m):
            h = order[i]
            b = (flat[h] >> shift) & 2047
            spare[count[b]] = h
            count[b] += 1
        order, spare = spare, order
        shift += 11
    return order


@kernel
def copy_holds(
    first, n, g, k, pos, rot, chunk, fid, sources, sources2, out, out2, parts
):  # pragma: no cover - compiled
    """``out[t, r, k] = sources[fid[pos // chunk]][pos % chunk, rot]`` for every hold at turn
    total k located by :func:`locate_holds` (the rows of one part from its memory-mapped chunk
    files of sum ``s + k``), and the same from ``sources2`` into ``out2`` when ``parts`` is 2
    (``value`` and ``U``: the same places, located once).

    The holds are taken in the order of their rows' places (:func:`holds_by_place`), so the
    files are read one after the other, each from its start to its end, and a file is taken
    from the list once: the reads run forward through memory and the scattered accesses are
    the writes. Measured (5 players, serial, copying alone): goal 22 in the default chunks
    4.1 s sorting by file then scanning each file's holds in group order, against 3.4 s in
    the order of places; goal 25 in chunks of 68,702 groups 6.9 s scanning the holds once per
    file (one to six files a sum), against 5.6 s."""
    order = holds_by_place(first, n, g, k, pos)
    places = pos.ravel()
    rots = rot.ravel()
    rows = (out.shape[0] * n, g, n)  # hold h = t n + r is row h: no division
    flat = out.reshape(rows)
    flat2 = out2.reshape(rows)
    low = 0  # the current file's first place; the places ascend, so files change forward
    high = -1
    src = sources[0]
    src2 = sources2[0]
    for i in range(order.size):
        h = order[i]
        p = places[h]
        if p >= high:
            c = p // chunk
            low = c * chunk
            high = low + chunk
            src = sources[fid[c]]
            src2 = sources2[fid[c]]
        _copy_row(src, src2, p - low, rots[h], flat, flat2, h, k, n, parts)
