"""The group solver of the multiplayer equilibrium: each group's movers iterate best responses
around the cycle of rotations (:func:`settle`) from a few starts, and a level's groups are solved
on threads (:func:`solve_level`); the turn records and passes are :mod:`.group_kernels`'.
"""

from __future__ import annotations

import numpy as np

from ...jit import compiled, kernel, map_threads, thread_count
from .group_kernels import (
    _FNV,
    Mix,
    Scratch,
    best_turn,
    cyclic_values,
    group_info,
    hold_values,
    start_guess,
    turn_outcome,
)

__all__ = ["settle", "group_scratch", "solve_groups", "solve_level"]


@kernel
def _iterate(d, n, turn, max_passes, s, have_known):  # pragma: no cover - compiled
    """Best-response iteration of one group from the guesses ``s.y`` (:class:`~.group_kernels.Scratch` ``s``):
    every mover best responds to its value after a bust, the group's values follow exactly
    (:func:`~.group_kernels.cyclic_values`), until no choice changes by more than ``turn.tie`` (returns 0 and
    the passes), a profile comes back (1: a cycle) or ``max_passes`` passes (2). A mover whose
    choices did not change keeps its turn's outcome from the pass before.

    With ``have_known``, ``s.best_rolls`` is a profile an earlier start settled on. If a pass's
    best responses are that profile (and the pass changed a choice), the rest is known without
    computing it: the profile's values are a function of the profile alone, so the next pass
    sees the ``y`` at which the earlier start confirmed it, confirms it again and stops (the
    profile cannot have come earlier in this start: the pass after it would have stopped).
    Returns 3 and the passes the iteration would have taken; the values are the earlier
    start's. ``s.chg``: one flag per mover."""
    K, HVs, y, rolls, H, beta, Wg, v = s.K, s.HVs, s.y, s.rolls, s.H, s.beta, s.Wg, s.v
    reach, hist, known, chg = s.reach, s.hist, s.best_rolls, s.chg
    for it in range(max_passes):
        any_changed = False
        for r in range(d):
            chg[r] = best_turn(K[r], y[r], HVs[r], turn, rolls[r], v)
            if chg[r]:
                any_changed = True
        if it > 0 and not any_changed:
            return 0, it + 1
        if have_known:
            same = True
            for r in range(d):
                for k in range(K[r]):
                    if rolls[r, k] != known[r, k]:
                        same = False
                        break
                if not same:
                    break
            if same and it + 1 < max_passes:
                return 3, it + 2
        h = np.uint64(14695981039346656037)
        for r in range(d):
            if chg[r] or it == 0:
                beta[r] = turn_outcome(K[r], HVs[r], turn, rolls[r], Mix(-1, 0.0), reach, H[r])
            for k in range(K[r]):
                h = (h ^ np.uint64(rolls[r, k] + 2 * r + 7)) * _FNV
        for j in range(it):
            if hist[j] == h:
                return 1, it + 1
        hist[it] = h
        cyclic_values(H, beta, d, n, Wg)
        for r in range(d):
            y[r] = Wg[(r + 1) % d, n - 1]
    return 2, max_passes


@kernel
def settle(d, n, g, turn, search, s, guess):  # pragma: no cover - compiled
    """Best-response iteration of one group whose rotations ``s.rid``, ``s.first``, ``s.K`` and
    hold values ``s.HVs`` are set (:class:`~.group_kernels.Scratch` ``s``), from the first guesses
    ``guess[start, r]`` (``search.n_starts`` rows). Leaves the profile kept in ``s.best_rolls``
    and its values in ``s.best_W``; returns ``(status, passes)`` as :func:`solve_level`
    documents them. Reads no store of values: the in-memory solve and the chunked one
    (:mod:`pigtheory.sequential.multiplayer.chunk_kernels`) call it on the same numbers."""
    m = turn.pvec.size
    K, best_W, Wg, y = s.K, s.best_W, s.Wg, s.y
    rolls, best_rolls = s.rolls, s.best_rolls
    st = 0
    best_count = -1
    passes = 0
    for start in range(search.n_starts):
        for r in range(d):
            y[r] = guess[start, r]
            for k in range(g + m + 1):
                rolls[r, k] = False
        code, p = _iterate(d, n, turn, search.max_passes, s, best_count >= 0)
        passes += p
        if code == 3:  # the kept profile again, with its values: nothing to compare
            continue
        if code != 0:
            st = 2
            break
        count = 0
        for r in range(d):
            for k in range(K[r]):
                if rolls[r, k]:
                    count += 1
        if best_count >= 0:
            same = True
            for r in range(d):
                for k in range(K[r]):
                    if rolls[r, k] != best_rolls[r, k]:
                        same = False
            diff = 0.0
            for r in range(d):
                for o in range(n):
                    diff = max(diff, abs(Wg[r, o] - best_W[r, o]))
            if not same and diff > 1e-12:
                st = 1
            if count >= best_count:
                continue
        best_count = count
        for r in range(d):
            for k in range(K[r]):
                best_rolls[r, k] = rolls[r, k]
            for o in range(n):
                best_W[r, o] = Wg[r, o]
    return st, passes


@kernel
def _solve_group(idx, n, g, turn, search, W, bits, s):  # pragma: no cover - compiled
    """One group of :func:`solve_level` with the :class:`~.group_kernels.Scratch` ``s`` of its thread. Returns
    ``(status, passes)``."""
    rid, first, K, HVs, best_W = s.rid, s.first, s.K, s.HVs, s.best_W
    best_rolls, guess = s.best_rolls, s.guess
    d = group_info(idx, n, g, rid, first)
    for r in range(d):
        K[r] = g - first[r]
        hold_values(rid[r], first[r], n, g, W, HVs[r])
        for start in range(search.n_starts):
            guess[start, r] = start_guess(rid[r], first[r], n, g, W, start)
    st, passes = settle(d, n, g, turn, search, s, guess)
    if st == 2:
        return st, passes
    nb = bits.shape[1]
    for r in range(d):
        ri = rid[r]
        for o in range(n):
            W[ri, o] = best_W[r, o]
        for j in range(nb):
            bits[ri, j] = 0
        for k in range(K[r]):
            if best_rolls[r, k]:
                bits[ri, k >> 3] |= np.uint8(1 << (k & 7))
    return st, passes


@kernel
def group_scratch(n, g, m, max_passes):  # pragma: no cover - compiled
    """A fresh :class:`~.group_kernels.Scratch` for groups of ``n`` players at goal ``g`` with the largest
    gain ``m`` and at most ``max_passes`` passes per start (zeros)."""
    return Scratch(
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros((n, g + m + 1, n)),
        np.zeros((n, n)),
        np.zeros((n, n)),
        np.zeros(n),
        np.zeros((n, n)),
        np.zeros(g + m + 1),
        np.zeros(g + m + 1),
        np.zeros(n),
        np.zeros((n, g + m + 1), dtype=np.bool_),
        np.zeros((n, g + m + 1), dtype=np.bool_),
        np.zeros(max_passes + 1, dtype=np.uint64),
        np.zeros(n, dtype=np.bool_),
        np.zeros((3, n)),
    )


@kernel
def solve_groups(groups, n, g, turn, search, W, bits, status):  # pragma: no cover - compiled
    """:func:`solve_level` on the groups ``groups`` (their canonical flat indices), with
    scratch arrays of their own (``status[t]`` for ``groups[t]``). Returns the passes. One
    serial kernel: :func:`solve_level` runs it on chunks of a level, on one thread or many."""
    s = group_scratch(n, g, turn.pvec.size, search.max_passes)
    passes = 0
    for t in range(groups.size):
        st, p = _solve_group(groups[t], n, g, turn, search, W, bits, s)
        status[t] = st
        passes += p
    return passes


def solve_level(groups, n, g, turn, search, W, bits, status):
    """Solve the groups ``groups`` (the canonical flat indices of one score-sum level, a slice
    of :func:`~.group_kernels.level_order`'s ``order``) by best-response iteration in the :class:`~.group_kernels.Turn`
    ``turn``, from ``search.n_starts`` first guesses (extrapolated; 0; 1) with at most
    ``search.max_passes`` passes each (:class:`~.group_kernels.Search`), writing ``W`` and ``bits`` of every
    rotation. ``status[t]`` for ``groups[t]``: 0 every start reached the same pure
    equilibrium; 1 several pure equilibria (the one with the fewest rolling states written);
    2 some start did not settle (nothing written: the group goes to the mixed solver).
    Returns the passes.

    The groups of one level are independent (a hold leaves for a higher level, a bust stays in
    the group): on several threads (:func:`pigtheory.jit.thread_count`) they are split into
    chunks solved in parallel by the compiled :func:`solve_groups`
    (:func:`pigtheory.jit.map_threads`), each chunk with its own scratch arrays."""
    count = groups.size
    workers = min(count, thread_count())
    n_chunks = 1 if workers <= 1 else min(count, 4 * workers)
    run = compiled(solve_groups)

    def chunk(c):
        a = (c * count) // n_chunks
        z = ((c + 1) * count) // n_chunks
        return run(groups[a:z], n, g, turn, search, W, bits, status[a:z])

    return int(sum(map_threads(chunk, n_chunks)))
