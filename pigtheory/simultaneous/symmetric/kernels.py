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

The functions are kernels (:mod:`pigtheory.jit`): plain Python until
:func:`~pigtheory.simultaneous.symmetric.stage.compiled` compiles them with numba (the same
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

from ..core.jit import compiled, kernel

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
]


class Strategy(NamedTuple):
    """A symmetric strategy by view: ``act[c, i]`` (a threshold, or ``-(1 + e)`` for mix e)
    and the mix tables ``mix_th``, ``mix_w``."""

    act: np.ndarray
    mix_th: np.ndarray
    mix_w: np.ndarray


class Response(NamedTuple):
    """What :func:`~.respond.respond_columns` writes: best-response values ``br``, thresholds ``br_act``
    and the strategy's own values ``ev``."""

    br: np.ndarray
    br_act: np.ndarray
    ev: np.ndarray


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
def sorted_rank(m, dest, idx, buf, binom):  # pragma: no cover - compiled
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
def next_profile(m, lens, idx):  # pragma: no cover - compiled
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
def profile_chance(m, prob, idx):  # pragma: no cover - compiled
    """The chance of the others' outcome profile ``idx``: the product of theirs, first other
    first (the order every summing loop uses, so the same number)."""
    pc = 1.0
    for p in range(m):
        pc *= prob[p, idx[p]]
    return pc


@kernel(refcount=False)
def self_outcome(m, dest, prob, idx, buf, binom):  # pragma: no cover - compiled
    """``(chance, column)`` of the others' outcome in which every one busts (their first
    outcome, :func:`pure_outcomes`), which the summing loops add last; leaves ``idx`` at it."""
    for p in range(m):
        idx[p] = 0
    return profile_chance(m, prob, idx), sorted_rank(m, dest, idx, buf, binom)
