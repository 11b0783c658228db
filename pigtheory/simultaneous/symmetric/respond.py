"""The symmetric best response's kernels: the others' outcome profiles as a list, the
action values of one own score and the best action, and :func:`respond_columns`, the
best response of whole columns.

Shapes are those of :mod:`.kernels`.

Notes
-----
*Action values.* Holding at k: :math:`a_k = P(X_k = 0) u[0] + \\sum_r P(X_k = k + r)
u[\\min(k + r, g - t)]` and the stationary value :math:`a_k / (1 - P(X_k = 0) B)`, B the chance
that every other player busts (:class:`~pigtheory.simultaneous.core.Thresholds`).

The functions are kernels, compiled with those of :mod:`.kernels` (its Notes; references
there).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import kernel
from ..core.step import first_within, largest, self_loop_values, threshold_step, threshold_values
from .continuation import Others
from .kernels import next_profile, profile_chance, rank, self_outcome, sorted_rank, strategy_outcomes

__all__ = [
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


class Outcomes(NamedTuple):
    """The others' outcome profiles of one view as a list (:func:`outcome_list`): the column
    ``rank[j]`` of the j-th profile with a nonzero chance ``chance[j]``, and ``top[j]``
    whether it puts some other player at the goal (in the order of
    :func:`~.continuation.continuation_span`: last other fastest)."""

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
    """Fill the :class:`Outcomes` ``out`` with the outcome profiles of the :class:`~.continuation.Others`
    ``o`` (their chance, column and whether one reaches the goal) in the order and with the
    products of :func:`~.continuation.continuation_span`; returns their number, or -1 if ``out`` is too short
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
        while next_profile(m, lens, idx):  # from the second outcome: the self outcome comes last
            pc = profile_chance(m, prob, idx)
            if pc != 0.0:
                ranks[n] = sorted_rank(m, dest, idx, buf, binom)
                chance[n] = pc
                top[n] = buf[m - 1] >= g
                n += 1
    pc, r = self_outcome(m, dest, prob, idx, buf, binom)
    if pc != 0.0:
        ranks[n] = r
        chance[n] = pc
        top[n] = buf[m - 1] >= g
        n += 1
    return n


@kernel(refcount=False)
def list_span(n, outs, t, lo, hi, g, table, out):  # pragma: no cover - compiled
    """:func:`~.continuation.continuation_span` over the first n profiles of the :class:`Outcomes`
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
    """Entries t and t + 1 of the continuation of ``first`` (:func:`~.continuation.continuation_pair`, the
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
    threshold step of :mod:`.step` (``u`` padded past the room, :func:`~.continuation.continuation_row`)."""
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
    both tables come prefilled with the terminal entries (:func:`~.kernels.terminal_table`). Within a
    column own scores go from ``goal - 1`` down, so every successor is solved first (the
    state's own entry is 0 until then: the self-loop in closed form). ``strategy`` is a
    :class:`~.kernels.Strategy`, ``out`` a :class:`~.kernels.Response`. With ``reuse`` the continuations of a
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
