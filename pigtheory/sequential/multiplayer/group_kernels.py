"""Compiled loops (numba) of the multiplayer sequential solver: rotation groups, one turn, one group.

Plain functions marked as kernels (:mod:`pigtheory.jit`): the solvers call their compiled twins,
``compiled(fn)(...)`` (numba compiles them on first use and keeps the machine code on disk).
Shapes and notation are those of
:mod:`pigtheory.sequential.multiplayer.equilibrium`:

* a score tuple ``t = (t_0, ..., t_{n-1})`` (turn order from the mover) has the flat index
  ``sum_i t_i g**(n-1-i)`` (C order of an array of shape ``(g,) * n``);
* ``W[idx, o]``: win probability of the player ``o`` seats after the mover, at the start of the
  mover's turn (turn total 0);
* ``bits[idx, k // 8]`` bit ``k % 8`` (little-endian bit order, as ``numpy.packbits(...,
  bitorder="little")``): the mover rolls at turn total k.

The kernels take the turn model as one :class:`Turn`, a mover's mixed turn total as a
:class:`Mix`, the search limits as a :class:`Search`, a thread's work arrays as a
:class:`Scratch` and a candidate of the mixed solver as a :class:`Candidate`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...jit import kernel

__all__ = [
    "Turn",
    "Mix",
    "Search",
    "Scratch",
    "Candidate",
    "rotate",
    "level_order",
    "group_info",
    "hold_values",
    "turn_pass",
    "cyclic_values",
    "start_guess",
    "best_turn",
    "turn_outcome",
]

_FNV = np.uint64(1099511628211)


class Turn(NamedTuple):
    """The turn model every turn kernel reads.

    ``pvec[j]`` is the chance that a roll scores ``j + 1`` points (float64, length ``m``, the
    largest gain), ``p_bust`` the chance that it busts, ``allow_pass`` whether the mover may
    hold at turn total 0, and ``tie`` the tolerance within which a best response keeps its old
    choice (read only where a kernel chooses)."""

    pvec: np.ndarray
    p_bust: float
    allow_pass: bool
    tie: float


class Mix(NamedTuple):
    """A mover's one mixed turn total: it rolls with probability ``p`` at turn total ``k``
    (``k = -1``: nowhere, the policy is pure)."""

    k: int
    p: float


class Search(NamedTuple):
    """The limits of a group's best-response iteration (:func:`~.group_solver.solve_level`): at most
    ``max_passes`` passes from each of ``n_starts`` first guesses (1..3: extrapolated; 0; 1)."""

    max_passes: int
    n_starts: int


class Scratch(NamedTuple):
    """The work arrays of one thread of :func:`~.group_solver.solve_groups` (made by :func:`~.group_solver.group_scratch`),
    row r for rotation r of the group at hand.

    ``rid``, ``first`` (int64, ``(n,)``): as :func:`group_info` writes them; ``K`` (int64,
    ``(n,)``): live turn totals of each mover; ``HVs`` (``(n, g + m + 1, n)``): their hold
    values (:func:`hold_values`); ``best_W`` (``(n, n)``): the values of the profile kept;
    ``H`` (``(n, n)``), ``beta`` (``(n,)``): the turns' outcomes (:func:`turn_outcome`);
    ``Wg`` (``(n, n)``): the group's values (:func:`cyclic_values`); ``v``, ``reach``
    (``(g + m + 1,)``): one turn's own values and reach chances; ``y`` (``(n,)``): the movers'
    values after a bust; ``rolls``, ``best_rolls`` (bool, ``(n, g + m + 1)``): the profile of
    the iteration and the one kept; ``hist`` (uint64, ``(max_passes + 1,)``): the hashes of the
    profiles seen; ``chg`` (bool, ``(n,)``): which movers changed a choice in a pass; ``guess``
    (``(3, n)``): the first guesses of the movers' values after a bust, one row per start."""

    rid: np.ndarray
    first: np.ndarray
    K: np.ndarray
    HVs: np.ndarray
    best_W: np.ndarray
    H: np.ndarray
    beta: np.ndarray
    Wg: np.ndarray
    v: np.ndarray
    reach: np.ndarray
    y: np.ndarray
    rolls: np.ndarray
    best_rolls: np.ndarray
    hist: np.ndarray
    chg: np.ndarray
    guess: np.ndarray


class Candidate(NamedTuple):
    """A candidate of the mixed solver (:mod:`pigtheory.sequential.multiplayer.mixed_groups`) as the
    compiled kernels see it: the outcomes of the lower and upper ladder steps of every mover,
    ``H0``, ``H1`` (``(d, n)``) and ``b0``, ``b1`` (``(d,)``; equal for the pure movers), the
    mixing rotations ``mixr`` (int64) and their breakpoints ``ystar``."""

    H0: np.ndarray
    H1: np.ndarray
    b0: np.ndarray
    b1: np.ndarray
    mixr: np.ndarray
    ystar: np.ndarray


@kernel
def rotate(idx, r, n, g):  # pragma: no cover - compiled
    """Flat index of the tuple rotated left by ``r`` (the seat ``r`` places later moves)."""
    if r == 0:
        return idx
    p = g ** (n - r)
    return (idx % p) * g**r + idx // p


@kernel
def _canonical_sum(idx, n, g):  # pragma: no cover - compiled
    """The score sum of tuple ``idx`` if it is canonical (no rotation has a smaller flat
    index), else -1."""
    for r in range(1, n):
        if rotate(idx, r, n, g) < idx:
            return -1
    x = idx
    s = 0
    for _i in range(n):
        s += x % g
        x //= g
    return s


@kernel
def level_order(n, g):  # pragma: no cover - compiled
    """Canonical tuples (smallest flat index among their rotations), by score sum descending.

    Returns ``order`` (int64) and ``starts`` (int64, length ``n (g - 1) + 2``): the canonical
    tuples of score sum ``s`` are ``order[starts[top - s]:starts[top - s + 1]]`` with
    ``top = n (g - 1)``.
    """
    total = g**n
    top = n * (g - 1)
    counts = np.zeros(top + 2, dtype=np.int64)
    for idx in range(total):
        s = _canonical_sum(idx, n, g)
        if s >= 0:
            counts[top - s + 1] += 1
    starts = np.cumsum(counts)
    fill = starts[:-1].copy()
    order = np.empty(starts[-1], dtype=np.int64)
    for idx in range(total):
        s = _canonical_sum(idx, n, g)
        if s >= 0:
            order[fill[top - s]] = idx
            fill[top - s] += 1
    return order, starts


@kernel
def group_info(idx, n, g, rid, first):  # pragma: no cover - compiled
    """Rotations of a group: ``rid[r]`` the flat index of rotation r (r < n), ``first[r]``
    the mover's score there; returns the period d (the number of distinct rotations)."""
    d = n
    for r in range(n):
        rid[r] = rotate(idx, r, n, g)
        first[r] = rid[r] // g ** (n - 1)
    for r in range(1, n):
        if rid[r] == idx:
            d = r
            break
    return d


@kernel
def hold_values(rid_r, first_r, n, g, W, HV):  # pragma: no cover - compiled
    """``HV[k, o]``: value of the player ``o`` seats after the mover when the mover holds at
    turn total k (1 <= k < g - first_r); the next tuple is one level up and solved."""
    base = (rid_r % g ** (n - 1)) * g + first_r
    for k in range(1, g - first_r):
        nxt = base + k
        HV[k, 0] = W[nxt, n - 1]
        for o in range(1, n):
            HV[k, o] = W[nxt, o - 1]


@kernel
def turn_pass(K, y, HV, turn, mode, roll, prev, mix, A, b):  # pragma: no cover - compiled
    """One backward pass over the turn totals ``K - 1 .. 0`` of one mover, in the :class:`Turn`
    ``turn``.

    ``y`` is the mover's own value after a bust (the next rotation's value at offset n - 1).
    ``mode`` 0: choose the best response at ``y`` and write ``roll``; where the choice differs
    from ``prev`` by less than ``turn.tie`` the old choice is kept (``prev`` may be ``roll``).
    ``mode`` 1: evaluate ``roll`` as given, mixed as the :class:`Mix` ``mix`` says.
    ``A[k, o]``, ``b[k]``: value of offset o at turn total k is
    ``A[k, o] + b[k] * W_next[o - 1]`` (``b`` the chance the turn ends in a bust or pass).

    Returns ``(changed, gain)``: whether a choice changed by more than ``turn.tie`` (mode 0)
    and the largest one-shot deviation gain of the mover over the turn (its own value).
    """
    pvec, p_bust, allow_pass, tie = turn
    mixk, mixp = mix
    n = A.shape[1]
    m = pvec.size
    for k in range(K, K + m):
        for o in range(n):
            A[k, o] = 0.0
        A[k, 0] = 1.0
        b[k] = 0.0
    changed = False
    gain = 0.0
    for k in range(K - 1, -1, -1):
        br = p_bust
        for gg in range(m):
            br += pvec[gg] * b[k + 1 + gg]
        ar0 = 0.0
        for gg in range(m):
            ar0 += pvec[gg] * A[k + 1 + gg, 0]
        rv = ar0 + br * y
        can_hold = k >= 1 or allow_pass
        if k >= 1:
            hv = HV[k, 0]
        else:
            hv = y
        if mode == 0:
            if not can_hold:
                c = True
            elif k >= 1:
                c = rv > hv + tie
                if c != prev[k] and abs(rv - hv) <= tie:
                    c = prev[k]
            else:
                c = rv >= hv - tie
                if c != prev[k] and abs(rv - hv) <= tie:
                    c = prev[k]
            if c != prev[k]:
                changed = True
            roll[k] = c
            q = 1.0 if c else 0.0
        else:
            q = 1.0 if roll[k] else 0.0
            if k == mixk:
                q = mixp
            if not can_hold:
                q = 1.0
        # value of the chosen (mixed) action
        for o in range(n):
            ar = 0.0
            for gg in range(m):
                ar += pvec[gg] * A[k + 1 + gg, o]
            if k >= 1:
                ho = HV[k, o]
            else:
                ho = 0.0
            A[k, o] = q * ar + (1.0 - q) * ho
        if k >= 1:
            b[k] = q * br
        else:
            b[k] = q * br + (1.0 - q)
        if can_hold:
            own = A[k, 0] + b[k] * y
            best = rv if rv > hv else hv
            if best - own > gain:
                gain = best - own
    return changed, gain


@kernel
def cyclic_values(H, beta, d, n, Wg):  # pragma: no cover - compiled
    """Start-of-turn values of a group from its turns: ``W_r[o] = H_r[o] + beta_r W_{r+1}[o-1]``
    around the n rotations (rotation r + d is rotation r again). A game that never ends (every
    turn passes for sure) is won by nobody: 0."""
    for r0 in range(d):
        prod = 1.0
        for o in range(n):
            Wg[r0, o] = 0.0
        for t in range(n):
            r = (r0 + t) % d
            for o in range(n):
                Wg[r0, o] += prod * H[r, (o - t) % n]
            prod *= beta[r]
        den = 1.0 - prod
        for o in range(n):
            Wg[r0, o] = Wg[r0, o] / den if den > 0.0 else 0.0


@kernel
def start_guess(rid_r, first_r, n, g, W, kind):  # pragma: no cover - compiled
    """A first guess of the mover's value after a bust: extrapolated from the tuples one and
    two points above (kind 0), or 0 (kind 1), or 1 (kind 2)."""
    if kind == 1:
        return 0.0
    if kind == 2:
        return 1.0
    base = (rid_r % g ** (n - 1)) * g + first_r
    v1 = W[base + 1, n - 1] if first_r + 1 < g else 1.0
    v2 = W[base + 2, n - 1] if first_r + 2 < g else 1.0
    v = 2.0 * v1 - v2
    return min(max(v, 0.0), 1.0)


@kernel
def best_turn(K, y, HV, turn, roll, v):  # pragma: no cover - compiled
    """The mover's best response at ``y`` (its value after a bust or pass), from turn total
    ``K - 1`` down to 0, with the tie rule of :func:`turn_pass` (mode 0; the old choice in
    ``roll`` is kept where the two actions differ by at most ``turn.tie``). Only the mover's own
    value is carried: ``v[k] = max(roll value, hold value)``, one pass of ``m`` products per
    turn total (the values of the other players follow from :func:`turn_outcome`, and only
    where the choice changed). Returns whether a choice changed."""
    pvec, p_bust, allow_pass, tie = turn
    m = pvec.size
    for k in range(K, K + m):
        v[k] = 1.0
    changed = False
    for k in range(K - 1, -1, -1):
        rv = p_bust * y
        for gg in range(m):
            rv += pvec[gg] * v[k + 1 + gg]
        old = roll[k]
        if k >= 1:
            hv = HV[k, 0]
            c = rv > hv + tie
        elif allow_pass:
            hv = y
            c = rv >= hv - tie
        else:
            hv = y
            c = True
        if c != old and (k >= 1 or allow_pass) and abs(rv - hv) <= tie:
            c = old
        if c != old:
            changed = True
        roll[k] = c
        v[k] = rv if c else hv
    return changed


@kernel
def turn_outcome(K, HV, turn, roll, mix, reach, H):  # pragma: no cover - compiled
    """The outcome of one turn under ``roll`` (mixed as the :class:`Mix` ``mix`` says),
    forward over the turn totals: ``H[o]``, the value of offset o summed over the holds and the
    goal, and the returned ``beta``, the chance the turn ends in a bust or a pass (then the next
    rotation moves). ``reach[k]`` is left holding the chance of reaching turn total k.
    ``m + n`` products per turn total."""
    pvec, p_bust, allow_pass, _ = turn
    mixk, mixp = mix
    n = H.shape[0]
    m = pvec.size
    for k in range(K + m):
        reach[k] = 0.0
    for o in range(n):
        H[o] = 0.0
    reach[0] = 1.0
    beta = 0.0
    for k in range(K):
        rk = reach[k]
        if rk == 0.0:
            continue
        q = 1.0 if roll[k] else 0.0
        if k == mixk:
            q = mixp
        if k == 0 and not allow_pass:
            q = 1.0
        stay = (1.0 - q) * rk
        if stay > 0.0:
            if k >= 1:
                for o in range(n):
                    H[o] += stay * HV[k, o]
            else:
                beta += stay
        go = q * rk
        if go > 0.0:
            beta += go * p_bust
            for gg in range(m):
                reach[k + 1 + gg] += go * pvec[gg]
    for k in range(K, K + m):
        H[0] += reach[k]
    return beta
