"""Compiled loops (numba) of the exact referee with n players: any profile of stochastic
stationary policies of multiplayer sequential Pig, evaluated or best-responded to by one seat.

Notation as in :mod:`pigtheory.sequential.multiplayer.group_kernels`, whose
:class:`~.group_kernels.Turn` the kernels take. A profile is either one table of roll
probabilities per seat, ``probs[seat, idx, k]`` (the referee, :mod:`pigtheory.referee`), or,
when ``probs`` holds no table, one shared :class:`~.certificate_kernels.Policy` (pure choices
in packed bits, its mixed states in three arrays sorted by tuple).
:func:`profile_response_level` evaluates the profile for one seat (a :class:`Deviator` that
follows) or computes that seat's exact best response to the others, level by level.

The equilibrium's own certificate (:mod:`pigtheory.sequential.multiplayer.certificate_kernels`) uses a
faster specialised kernel for its shared pure policy; the two agree (tested). It is kept apart
because it is about twice as fast on the certificate's work (4 players at goal 30: 0.9-1.0 s
against 1.8 s, one thread): the shared policy lets it compute each mover's turn once per group
and forward (the chance to hold at each turn total), not once per deviator and backward; it
starts the deviator's policy iteration from the profile's own policy, and it computes the
one-shot gains in the same pass. This kernel serves per-seat tables, evaluation and
never-ending cycles; giving it those shortcuts would change the referee's values by rounding.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...jit import kernel
from .certificate_kernels import _mix_at
from .group_kernels import group_info, rotate

__all__ = ["Deviator", "policy_row", "profile_response_level", "turn_table"]


class Deviator(NamedTuple):
    """The player whose values the kernels compute: seat ``seat``; ``follow`` True: it plays
    its own policy (evaluation), False: it best responds, by policy iteration of at most
    ``max_passes`` passes per turn; ``draw``: what a cycle of turns never left is worth to it."""

    seat: int
    follow: bool
    draw: float
    max_passes: int


@kernel
def policy_row(idx, K, seat, policy, probs, q):  # pragma: no cover - compiled
    """The mover's roll probabilities ``q[0:K]`` at tuple ``idx``. Two sources: ``probs`` with
    ``S >= 1`` tables (``probs[seat % S, idx, k]``, one table per seat of the mover, or one for
    everybody), or, when ``probs`` holds no table (``S == 0``), the shared
    :class:`~.certificate_kernels.Policy` ``policy`` (its pure choices and its mixed state)."""
    bits = policy.bits
    S = probs.shape[0]
    if S > 0:
        s = seat % S
        for k in range(K):
            q[k] = probs[s, idx, k]
        return
    for k in range(K):
        q[k] = 1.0 if (bits[idx, k >> 3] >> (k & 7)) & 1 == 1 else 0.0
    mk, mp = _mix_at(idx, policy)
    if mk >= 0:
        q[mk] = mp


@kernel
def _chain_turn(K, HVd, win, turn, mode, roll, q, y, a, b):  # pragma: no cover - compiled
    """One turn seen by one player (the deviator): its value ``a[k] + b[k] * y`` at turn total
    k, ``y`` its value after a bust. Mode 0: the deviator moves and best responds (writes
    ``roll``; ties within ``turn.tie`` hold); mode 1: the mover rolls with probability ``q[k]``.
    ``win``: what the deviator gets when the mover reaches the goal (1 if it is the mover,
    else 0)."""
    pvec, p_bust, allow_pass, tie = turn
    m = pvec.size
    for k in range(K, K + m):
        a[k] = win
        b[k] = 0.0
    for k in range(K - 1, -1, -1):
        ar = 0.0
        br = p_bust
        for gg in range(m):
            ar += pvec[gg] * a[k + 1 + gg]
            br += pvec[gg] * b[k + 1 + gg]
        if k >= 1:
            ha = HVd[k]
            hb = 0.0
        else:
            ha = 0.0
            hb = 1.0
        can_hold = k >= 1 or allow_pass
        if mode == 0:
            if not can_hold:
                p = 1.0
            elif k >= 1:
                p = 1.0 if ar + br * y > ha + tie else 0.0
            else:
                p = 1.0 if ar + br * y >= y - tie else 0.0
            roll[k] = p > 0.5
        else:
            p = q[k] if can_hold else 1.0
        a[k] = p * ar + (1.0 - p) * ha
        b[k] = p * br + (1.0 - p) * hb
    return a[0], b[0]


@kernel
def profile_response_level(groups, n, g, turn, policy, probs, dev, U, out):  # pragma: no cover - compiled
    """Values ``U[idx, delta]`` of one player ``delta`` seats after the mover (the
    :class:`Deviator` ``dev``), the others following their policies (:func:`policy_row` of
    ``policy`` and ``probs``), in the :class:`~.group_kernels.Turn` ``turn``, for the groups
    ``groups`` (canonical flat indices, groups of higher score sum first, as
    :func:`~pigtheory.sequential.multiplayer.group_kernels.level_order` lists them).

    The deviator is seat ``dev.seat``: the mover at ``delta`` is seat ``seat - delta`` (mod n),
    which matters only for per-seat tables. ``dev.follow`` False: the deviator best responds;
    around a group's n rotations it moves once, and its turn is a one-dimensional fixed point
    ``x = max_pi a_pi + b_pi (c + e x)`` solved by policy iteration (at most
    ``dev.max_passes``). ``dev.follow`` True: it plays its own policy and
    ``x = (a + b c) / (1 - b e)`` (evaluation). A cycle the play never leaves (every turn busts
    or passes for sure) is worth ``dev.draw``. ``out`` accumulates [passes, groups stopped at
    max_passes, cycles never left]."""
    seat, follow, draw, max_passes = dev
    m = turn.pvec.size
    rid = np.zeros(n, dtype=np.int64)
    first = np.zeros(n, dtype=np.int64)
    HVd = np.zeros(g + m + 1)
    a = np.zeros(g + m + 1)
    b = np.zeros(g + m + 1)
    q = np.zeros(g + m + 1)
    roll = np.zeros(g + m + 1, dtype=np.bool_)
    prev = np.zeros(g + m + 1, dtype=np.bool_)
    alpha = np.zeros(n)
    beta = np.zeros(n)
    Uc = np.zeros(n)
    for t in range(groups.size):
        idx = groups[t]
        group_info(idx, n, g, rid, first)
        for p in range(n):  # the deviator's place among the rotations: it moves at rotation p
            # the others' turns, as affine maps U_r = alpha_r + beta_r U_{r+1}
            for r in range(n):
                delta = (p - r) % n
                if delta == 0:
                    continue
                K = g - first[r]
                base = (rid[r] % g ** (n - 1)) * g + first[r]
                for k in range(1, K):
                    HVd[k] = U[base + k, (delta - 1) % n]
                policy_row(rid[r], K, seat - delta, policy, probs, q)
                alpha[r], beta[r] = _chain_turn(K, HVd, 0.0, turn, 1, roll, q, 0.0, a, b)
            # compose the others from rotation p + 1 around to p: U_{p+1} = c + e U_p
            c = 0.0
            e = 1.0
            for s in range(n - 1, 0, -1):
                r = (p + s) % n
                c = alpha[r] + beta[r] * c
                e = beta[r] * e
            # the deviator's own turn at rotation p
            K = g - first[p]
            base = (rid[p] % g ** (n - 1)) * g + first[p]
            for k in range(1, K):
                HVd[k] = U[base + k, n - 1]
            if follow:
                policy_row(rid[p], K, seat, policy, probs, q)
                a0, b0 = _chain_turn(K, HVd, 1.0, turn, 1, roll, q, 0.0, a, b)
                den = 1.0 - b0 * e
                if den > 1e-300:
                    x = (a0 + b0 * c) / den
                else:
                    x = draw
                    out[2] += 1
            else:
                x = 0.5
                for k in range(g + m + 1):
                    prev[k] = False
                for it in range(max_passes):
                    y = c + e * x
                    a0, b0 = _chain_turn(K, HVd, 1.0, turn, 0, roll, q, y, a, b)
                    out[0] += 1
                    den = 1.0 - b0 * e
                    xn = (a0 + b0 * c) / den if den > 1e-300 else draw
                    same = it > 0
                    for k in range(K):
                        if roll[k] != prev[k]:
                            same = False
                        prev[k] = roll[k]
                    x = xn
                    if same:
                        break
                    if it == max_passes - 1:
                        out[1] += 1
            # values around the chain, from rotation p backwards
            Uc[p] = x
            nxt = x
            for s in range(n - 1, 0, -1):
                r = (p + s) % n
                Uc[r] = alpha[r] + beta[r] * nxt
                nxt = Uc[r]
            for r in range(n):
                U[rid[r], (p - r) % n] = Uc[r]


@kernel
def turn_table(n, g, turn, dev, policy, probs, U, value, choice):  # pragma: no cover - compiled
    """The :class:`Deviator` ``dev``'s value ``value[idx, k]`` when it is the mover at tuple
    ``idx`` with turn total k, from its start-of-turn values ``U``
    (:func:`profile_response_level`): it best responds (its choices in ``choice[idx, k]``), or,
    with ``dev.follow``, follows seat ``dev.seat``'s policy (``dev.draw`` and
    ``dev.max_passes`` are not read). Entries with ``t_0 + k >= g`` are left as they are."""
    seat = dev.seat
    mode = 1 if dev.follow else 0
    m = turn.pvec.size
    HVd = np.zeros(g + m + 1)
    a = np.zeros(g + m + 1)
    b = np.zeros(g + m + 1)
    q = np.zeros(g + m + 1)
    roll = np.zeros(g + m + 1, dtype=np.bool_)
    for idx in range(g**n):
        first = idx // g ** (n - 1)
        K = g - first
        base = (idx % g ** (n - 1)) * g + first
        for k in range(1, K):
            HVd[k] = U[base + k, n - 1]
        y = U[rotate(idx, 1, n, g), n - 1]
        if mode == 1:
            policy_row(idx, K, seat, policy, probs, q)
        _chain_turn(K, HVd, 1.0, turn, mode, roll, q, y, a, b)
        for k in range(K):
            value[idx, k] = a[k] + b[k] * y
            choice[idx, k] = roll[k]
