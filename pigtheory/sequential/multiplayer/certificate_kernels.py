"""Compiled loops (numba) of the certificates of a multiplayer sequential equilibrium.

Plain functions marked as kernels (:mod:`pigtheory.jit`), called compiled by
:mod:`pigtheory.sequential.multiplayer.certificates`. Notation as in
:mod:`pigtheory.sequential.multiplayer.group_kernels`, whose :class:`~.group_kernels.Turn` and
:class:`~.group_kernels.Mix` the kernels take; the profile is one shared :class:`Policy`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...jit import compiled, kernel, map_threads, prange, thread_count
from .group_kernels import Mix, group_info, hold_values, rotate, turn_outcome

__all__ = ["Policy", "deviation_gains", "best_response_level"]


class Policy(NamedTuple):
    """One stationary policy shared by every seat: the pure choices ``bits[idx, k // 8]`` bit
    ``k % 8`` (uint8; :mod:`~pigtheory.sequential.multiplayer.group_kernels` notation) and the mixed states,
    three arrays sorted by tuple: ``mix_idx`` (int64, flat tuple index), ``mix_k`` (int64, turn
    total) and ``mix_p`` (roll probability there)."""

    bits: np.ndarray
    mix_idx: np.ndarray
    mix_k: np.ndarray
    mix_p: np.ndarray


@kernel
def _mix_at(idx, policy):  # pragma: no cover - compiled
    """The :class:`~.group_kernels.Mix` of ``policy`` at tuple ``idx``."""
    mix_idx = policy.mix_idx
    j = np.searchsorted(mix_idx, idx)
    if j < mix_idx.size and mix_idx[j] == idx:
        return Mix(policy.mix_k[j], policy.mix_p[j])
    return Mix(-1, 0.0)


@kernel
def _unpack(bits, idx, K, roll):  # pragma: no cover - compiled
    for k in range(K):
        roll[k] = (bits[idx, k >> 3] >> (k & 7)) & 1 == 1


@kernel
def _policy_gain(K, y, HV, turn, roll, mix, v):  # pragma: no cover - compiled
    """The mover's own value ``v[k]`` under ``roll`` (mixed as ``mix`` says) backward over the
    turn, and the largest one-shot gain ``max(roll value, hold value) - v[k]`` where it may
    hold (``m`` products per turn total)."""
    pvec, p_bust, allow_pass, _ = turn
    mixk, mixp = mix
    m = pvec.size
    for k in range(K, K + m):
        v[k] = 1.0
    gain = 0.0
    for k in range(K - 1, -1, -1):
        rv = p_bust * y
        for gg in range(m):
            rv += pvec[gg] * v[k + 1 + gg]
        hv = HV[k, 0] if k >= 1 else y
        can_hold = k >= 1 or allow_pass
        q = 1.0 if roll[k] else 0.0
        if k == mixk:
            q = mixp
        if not can_hold:
            q = 1.0
        v[k] = q * rv + (1.0 - q) * hv
        if can_hold:
            best = rv if rv > hv else hv
            if best - v[k] > gain:
                gain = best - v[k]
    return gain


@kernel(parallel=True)
def deviation_gains(n, g, turn, W, policy, gains):  # pragma: no cover - compiled
    """For every tuple: the largest one-shot gain of the mover over its turn totals under the
    :class:`Policy` ``policy``, given the stored values (``gains[idx]``); returns the largest
    violation of the stored start values' own equations ``W_r = H_r + beta_r S W_{r+1}`` (the
    turn's outcome computed forward, :func:`~pigtheory.sequential.multiplayer.group_kernels.turn_outcome`).
    Chunks of tuples in parallel."""
    m = turn.pvec.size
    total = g**n
    n_chunks = min(total, 256)
    resid_chunk = np.zeros(n_chunks)
    for c in prange(n_chunks):
        HV = np.zeros((g + m + 1, n))
        v = np.zeros(g + m + 1)
        reach = np.zeros(g + m + 1)
        H = np.zeros(n)
        roll = np.zeros(g + m + 1, dtype=np.bool_)
        resid = 0.0
        for idx in range((c * total) // n_chunks, ((c + 1) * total) // n_chunks):
            first = idx // g ** (n - 1)
            K = g - first
            hold_values(idx, first, n, g, W, HV)
            nxt = rotate(idx, 1, n, g)
            y = W[nxt, n - 1]
            _unpack(policy.bits, idx, K, roll)
            mix = _mix_at(idx, policy)
            gains[idx] = _policy_gain(K, y, HV, turn, roll, mix, v)
            beta = turn_outcome(K, HV, turn, roll, mix, reach, H)
            for o in range(n):
                dv = abs(H[o] + beta * W[nxt, (o - 1) % n] - W[idx, o])
                if dv > resid:
                    resid = dv
        resid_chunk[c] = resid
    return resid_chunk.max()


@kernel
def _improve(K, y, HVd, turn, roll, v):  # pragma: no cover - compiled
    """Policy improvement of the deviator's turn at ``y`` (its value after a bust): roll where
    rolling beats holding by more than ``turn.tie`` (at k = 0 passing, if allowed, where
    rolling is worse by more than ``turn.tie``), own values ``v`` carried backward. Returns
    whether a choice in ``roll`` changed."""
    pvec, p_bust, allow_pass, tie = turn
    m = pvec.size
    for k in range(K, K + m):
        v[k] = 1.0
    changed = False
    for k in range(K - 1, -1, -1):
        rv = p_bust * y
        for gg in range(m):
            rv += pvec[gg] * v[k + 1 + gg]
        if k >= 1:
            hv = HVd[k]
            c = rv > hv + tie
        elif allow_pass:
            hv = y
            c = rv >= hv - tie
        else:
            hv = y
            c = True
        if c != roll[k]:
            changed = True
            roll[k] = c
        v[k] = rv if c else hv
    return changed


@kernel
def _hold_chances(K, turn, roll, mix, reach, hold):  # pragma: no cover - compiled
    """Forward over one turn under ``roll`` (mixed as ``mix`` says): ``hold[k]`` the chance the
    mover holds at turn total k >= 1; returns the chance the turn ends in a bust or a pass."""
    pvec, p_bust, allow_pass, _ = turn
    mixk, mixp = mix
    m = pvec.size
    for k in range(K + m):
        reach[k] = 0.0
        hold[k] = 0.0
    reach[0] = 1.0
    out = 0.0
    for k in range(K):
        rk = reach[k]
        if rk == 0.0:
            continue
        q = 1.0 if roll[k] else 0.0
        if k == mixk:
            q = mixp
        if k == 0 and not allow_pass:
            q = 1.0
        if k >= 1:
            hold[k] = (1.0 - q) * rk
        else:
            out += (1.0 - q) * rk
        go = q * rk
        if go > 0.0:
            out += go * p_bust
            for gg in range(m):
                reach[k + 1 + gg] += go * pvec[gg]
    return out


def best_response_level(groups, n, g, turn, W, policy, U, gains, out):
    """``_best_response_range`` (compiled) over the groups ``groups`` of one level (a slice of
    :func:`~pigtheory.sequential.multiplayer.group_kernels.level_order`'s ``order``) in the
    :class:`~.group_kernels.Turn` ``turn``, the others following the :class:`Policy`
    ``policy``, in chunks on :func:`pigtheory.jit.thread_count` threads (the groups of a level
    are independent). ``out[0]`` counts passes; with ``gains`` of size ``g**n`` (size 0:
    skipped), the one-shot deviation gains of the level's tuples are written there (as
    :func:`deviation_gains` does) and ``out[1]`` keeps the largest residual."""
    count = groups.size
    workers = min(count, thread_count())
    n_chunks = 1 if workers <= 1 else min(count, 4 * workers)
    run = compiled(_best_response_range)

    def chunk(c):
        part = np.zeros(2)
        a, z = (c * count) // n_chunks, ((c + 1) * count) // n_chunks
        run(groups[a:z], n, g, turn, W, policy, U, gains, part)
        return part

    parts = map_threads(chunk, n_chunks)
    if parts:
        out[0] += sum(float(part[0]) for part in parts)
        out[1] = max(out[1], max(float(part[1]) for part in parts))


@kernel
def _best_response_range(groups, n, g, turn, W, policy, U, gains, out):  # pragma: no cover - compiled
    """Exact best-response values ``U[idx, delta]`` of a lone deviator ``delta`` seats after the
    mover, the others keeping the stored :class:`Policy` ``policy``, for the groups ``groups``
    (canonical flat indices) in the :class:`~.group_kernels.Turn` ``turn``. Around a
    group's n rotations the deviator moves once; its turn is a one-dimensional fixed point
    ``x = max_pi a_pi + b_pi (c + e x)`` solved by policy iteration. ``out[0]`` counts passes.

    With ``gains`` of size ``g**n``, also the one-shot deviation gains of the groups' tuples
    and the largest residual of their start values (into ``out[1]``), as
    :func:`deviation_gains` computes them: the turn's outcome comes from the same forward pass
    (the hold chances), summed in the same order, so the numbers are the same to the bit."""
    m = turn.pvec.size
    bits = policy.bits
    do_gains = gains.size > 0
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
    hold = np.zeros((n, g + m + 1))
    bust = np.zeros(n)
    tail = np.zeros((n, m))
    mixes = np.zeros(n, dtype=np.bool_)
    v = np.zeros(g + m + 1)
    for t in range(groups.size):
        idx = groups[t]
        d = group_info(idx, n, g, rid, first)
        # the movers' turns under the profile: the chance to hold at each k, to bust or pass,
        # and to reach the goal (``tail``, by the turn total reached)
        for r in range(n):
            K = g - first[r]
            _unpack(bits, rid[r], K, roll)
            mix = _mix_at(rid[r], policy)
            bust[r] = _hold_chances(K, turn, roll, mix, a, hold[r])
            mixes[r] = mix.k >= 0
            for j in range(m):
                tail[r, j] = a[K + j]
            if do_gains and r < d:
                # the one-shot gains and the residual of the start values at rotation r
                hold_values(rid[r], first[r], n, g, W, HV)
                nxt = rid[(r + 1) % n]
                y = W[nxt, n - 1]
                gains[rid[r]] = _policy_gain(K, y, HV, turn, roll, mix, v)
                for o in range(n):
                    h = 0.0
                    for k in range(1, K):
                        h += hold[r, k] * HV[k, o]
                    if o == 0:
                        for j in range(m):
                            h += tail[r, j]
                    dv = abs(h + bust[r] * W[nxt, (o - 1) % n] - W[rid[r], o])
                    if dv > out[1]:
                        out[1] = dv
        for p in range(n):  # the deviator's seat among the rotations: it moves at rotation p
            # the others' turns, as affine maps U_r = alpha_r + beta_r U_{r+1}
            for r in range(n):
                delta = (p - r) % n
                if delta == 0:
                    continue
                K = g - first[r]
                base = (rid[r] % g ** (n - 1)) * g + first[r]
                acc = 0.0
                for k in range(1, K):
                    acc += hold[r, k] * U[base + k, (delta - 1) % n]
                alpha[r] = acc
                beta[r] = bust[r]
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
            # policy iteration from the profile's own policy (usually confirmed at once): evaluate
            # the policy forward, x = (a0 + b0 c) / (1 - b0 e); improve it at y = c + e x
            _unpack(bits, rid[p], K, roll)
            a0 = 0.0
            b0 = 0.0
            x = 0.0
            for _it in range(200):
                if _it == 0 and not mixes[p]:
                    # the profile's own pure turn: its forward pass is the one above
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
            # values around the chain, from rotation p backwards
            Uc[p] = x
            nxt = x
            for s in range(n - 1, 0, -1):
                r = (p + s) % n
                Uc[r] = alpha[r] + beta[r] * nxt
                nxt = Uc[r]
            for r in range(n):
                U[rid[r], (p - r) % n] = Uc[r]
