"""Certified bounds of a multiplayer sequential profile's values, from its floating-point solution.

:func:`enclose_profile` turns the solver's float values ``W`` (and each seat's best-response
values ``U``) into rigorous enclosures ``[W - D, W + D]`` of the *exact* values of the profile
as played (the pure choices and the stored float mixing probabilities), with the exact roll
chances of the die, and into a rigorous upper bound of its NashConv. It runs over every tuple
of the game in compiled loops, so it scales to 4 players at goal 100 (10^8 tuples), where
ball arithmetic in Python (``analyses/certified.py``) would take days.

Notes
-----
Notation of :mod:`pigtheory.sequential.multiplayer.equilibrium`: tuple ``t`` (scores from the
mover), ``W_t[o]`` the start-of-turn win chance of the player ``o`` seats after the mover.

**The fixed point.** With the profile fixed, one turn of the mover at ``t`` ends in a hold at
turn total ``k`` (chance :math:`s_k`, next tuple :math:`t^{(k)}` one score sum up), in reaching
the goal (the mover wins), or in a bust (chance :math:`\\beta_t`, next tuple :math:`t^+`, the
same scores with the next mover). The exact values :math:`W^*` solve :math:`W^* = T(W^*)`,

.. math::

    T(W)_t[o] = \\textstyle\\sum_k s_k\\, W_{t^{(k)}}[o-1] + [o = 0]\\, P(\\text{goal})
        + \\beta_t W_{t^+}[o-1],

where :math:`s_k`, :math:`\\beta_t` are exact: products of the die's rational chances and the
float mixing probabilities (exact numbers, as played). Sequential Pig has no passing here, so
:math:`\\beta_t < 1` and around a rotation group's ``n`` turns :math:`\\rho = \\prod \\beta < 1`:
the fixed point is unique level by level (score sums never decrease).

**Residuals.** :math:`T(W)` is evaluated in interval arithmetic with outward rounding: every
float operation's result ``x >= 0`` is widened to ``fl(x (1 - 2^-51)) - 2^-1074`` (clipped at
0) and ``fl(x (1 + 2^-51)) + 2^-1074``. Round to nearest puts the exact result of the operation
within half an ulp of ``x`` (or ``2^-1075`` for subnormals); the multiplier moves a normal
``x`` by at least one ulp and the added ``2^-1074`` covers subnormals and zero, so each bound
holds whatever the rounding did. The die's chances enter as the floats next to them, widened
the same way. This gives :math:`r_t \\ge \\max_o |W_t[o] - T(W)_t[o]|`, an upper bound of the
residual, and upper bounds :math:`\\bar\\beta_t`, :math:`\\bar s_k` of the chances.

**Propagation.** The error :math:`e = W - W^*` satisfies :math:`e_t = (W - T(W))_t +
\\sum_k s_k e_{t^{(k)}} + \\beta_t e_{t^+}` (offsets shifted), so with bounds :math:`D` already
proved for the tuples one level or more up,

.. math::

    |e_t| \\le r_t + h_t + \\beta_t |e_{t^+}|, \\qquad h_t = \\textstyle\\sum_k \\bar s_k D_{t^{(k)}} .

Going ``n`` turns around the group back to ``t`` and solving for :math:`|e_t|`:
:math:`|e_t| \\le \\sum_{j<n} \\Phi_j (r + h)_{t_j} / (1 - \\bar\\rho) =: D_t`, with
:math:`t_j` the ``j``-th rotation, :math:`\\Phi_0 = 1`, :math:`\\Phi_{j+1} = \\Phi_j
\\bar\\beta_{t_j}` and :math:`\\bar\\rho = \\Phi_n < 1` (all rounded up). Since
:math:`h_t \\approx (1 - \\beta_t) \\max D`, the levels above enter through what is nearly a
convex combination (weight :math:`1 + O(u)`); the group's own residuals are amplified by at most
:math:`n / (1 - \\bar\\rho)`.

**Best responses and NashConv.** A lone deviator ``delta`` seats after the mover has the exact
value :math:`U^*`, the fixed point of the Bellman operator :math:`T^*`: the others' turns as
above, the deviator's own turn a maximum over its choices at every turn total (backward, in
intervals; the maximum of enclosures encloses the maximum). For the error
:math:`|T^* U - T^* U^*| \\le \\max_\\pi [\\textstyle\\sum_k s^\\pi_k |e_{t^{(k)}}| +
\\beta^\\pi |e_{t^+}|]`; with :math:`E_g` the largest bound over all tuples a hold of the
group's turns reaches and :math:`f = |e| - E_g`, :math:`f_t^+ \\le r_t + \\bar\\beta_t f^+_{t^+}`
where for the deviator :math:`\\bar\\beta` bounds the bust chance of *any* choice (rolling
everywhere, the largest). Around the cycle :math:`D^U_t = E_g + \\sum_j \\Phi_j r_{t_j} /
(1 - \\bar\\rho)`. Then :math:`\\text{NashConv} = \\sum_\\delta (U^*_0[\\delta] - W^*_0[\\delta])
\\le \\sum_\\delta (U_0[\\delta] + D^U_0 - W_0[\\delta] + D_0)`, rounded up.

What is certified is the profile *as played*: if a group's mixing probabilities solve
polynomial indifference equations, the floats stored are not their exact roots, but the bounds
hold for the profile that plays the stored floats, which is the profile whose values are quoted
and which is an :math:`\\varepsilon`-equilibrium with :math:`\\varepsilon` the NashConv bound.

References
----------
N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed. (SIAM 2002), ch. 2-3:
floating-point error bounds. M. L. Puterman, *Markov Decision Processes* (Wiley 1994), 6.2:
a-posteriori bounds from Bellman residuals. M. Lanctot et al. (NeurIPS 2017): NashConv.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ...jit import compiled, kernel, map_threads, thread_count
from .certificate_kernels import Policy, _mix_at, _unpack
from .group_kernels import group_info, hold_values, rotate

__all__ = ["ProfileBounds", "enclose_profile", "enclose_values"]

_UP = 1.0 + 2.0**-51
_DN = 1.0 - 2.0**-51
_TINY = 2.0**-1074


@kernel
def _up(x):  # pragma: no cover - compiled
    """An upper bound of the exact result of the float operation that gave ``x >= 0``."""
    return x * _UP + _TINY


@kernel
def _dn(x):  # pragma: no cover - compiled
    """A lower bound (>= 0) of the exact nonnegative result of the operation that gave ``x``."""
    y = x * _DN - _TINY
    return y if y > 0.0 else 0.0


@kernel
def _turn_bounds(
    K, roll, mixk, mixp, p_lo, p_hi, pb_lo, pb_hi, HV, HU, D, base, n, rl, rh, out
):  # pragma: no cover
    """Forward over one turn in intervals: ``out[0:n]``/``out[n:2n]`` bounds of the held and
    goal part of ``T(W)`` (hold values ``HV``), ``out[2n:3n]``/``out[3n:4n]`` the same for ``U``
    (``HU``, no goal term beyond offset 0), ``out[4n]``/``out[4n+1]`` bounds of the bust chance,
    ``out[4n+2]`` an upper bound of the hold-weighted error bounds ``sum_k s_k D[base + k]``."""
    m = p_lo.size
    for k in range(K + m):
        rl[k] = 0.0
        rh[k] = 0.0
    for i in range(4 * n + 3):
        out[i] = 0.0
    rl[0] = 1.0
    rh[0] = 1.0
    for k in range(K):
        lo, hi = rl[k], rh[k]
        if hi == 0.0:
            continue
        q = 1.0 if (roll[k] or k == 0) else 0.0
        if k == mixk and k > 0:
            q = mixp
        if q < 1.0:  # the mover holds here with chance (1 - q) * reach
            if q == 0.0:
                slo, shi = lo, hi
            else:
                slo, shi = _dn(_dn(1.0 - q) * lo), _up(_up(1.0 - q) * hi)
            for o in range(n):
                out[o] = _dn(out[o] + _dn(slo * HV[k, o]))
                out[n + o] = _up(out[n + o] + _up(shi * HV[k, o]))
                out[2 * n + o] = _dn(out[2 * n + o] + _dn(slo * HU[k, o]))
                out[3 * n + o] = _up(out[3 * n + o] + _up(shi * HU[k, o]))
            out[4 * n + 2] = _up(out[4 * n + 2] + _up(shi * D[base + k]))
        if q > 0.0:
            if q == 1.0:
                glo, ghi = lo, hi
            else:
                glo, ghi = _dn(q * lo), _up(q * hi)
            out[4 * n] = _dn(out[4 * n] + _dn(glo * pb_lo))
            out[4 * n + 1] = _up(out[4 * n + 1] + _up(ghi * pb_hi))
            for f in range(m):
                if p_hi[f] > 0.0:
                    rl[k + 1 + f] = _dn(rl[k + 1 + f] + _dn(glo * p_lo[f]))
                    rh[k + 1 + f] = _up(rh[k + 1 + f] + _up(ghi * p_hi[f]))
    for k in range(K, K + m):  # the goal: the mover wins
        out[0] = _dn(out[0] + rl[k])
        out[n] = _up(out[n] + rh[k])
        out[2 * n] = _dn(out[2 * n] + rl[k])
        out[3 * n] = _up(out[3 * n] + rh[k])


@kernel
def _deviator_turn(K, y, HU, p_lo, p_hi, pb_lo, pb_hi, vl, vh, rh):  # pragma: no cover - compiled
    """Bounds ``(lo, hi)`` of the deviator's best turn value from turn total 0 (backward, a
    maximum over roll and hold at every k >= 1; ``y`` its value after a bust), and an upper
    bound of the largest bust chance of any choice (rolling everywhere), third."""
    m = p_lo.size
    for k in range(K, K + m):
        vl[k] = 1.0
        vh[k] = 1.0
    for k in range(K - 1, -1, -1):
        lo = _dn(pb_lo * y)
        hi = _up(pb_hi * y)
        for f in range(m):
            if p_hi[f] > 0.0:
                lo = _dn(lo + _dn(p_lo[f] * vl[k + 1 + f]))
                hi = _up(hi + _up(p_hi[f] * vh[k + 1 + f]))
        if k >= 1 and HU[k, 0] > lo:
            lo = HU[k, 0]
        if k >= 1 and HU[k, 0] > hi:
            hi = HU[k, 0]
        vl[k], vh[k] = lo, hi
    for k in range(K + m):
        rh[k] = 0.0
    rh[0] = 1.0
    bust = 0.0
    for k in range(K):
        if rh[k] > 0.0:
            bust = _up(bust + _up(rh[k] * pb_hi))
            for f in range(m):
                if p_hi[f] > 0.0:
                    rh[k + 1 + f] = _up(rh[k + 1 + f] + _up(rh[k] * p_hi[f]))
    return vl[0], vh[0], min(bust, 1.0)


@kernel
def _residual(w, lo_part, hi_part, blo, bhi, wn):  # pragma: no cover - compiled
    """An upper bound of ``|w - T|`` for ``T`` in ``[lo_part + blo wn, hi_part + bhi wn]``."""
    tlo = _dn(lo_part + _dn(blo * wn))
    thi = _up(hi_part + _up(bhi * wn))
    res = 0.0
    a = w - tlo
    if a > 0.0:
        res = _up(a)
    b = thi - w
    if b > 0.0 and _up(b) > res:
        res = _up(b)
    return res


@kernel
def _cycle(vals, beta, d, n, r0, delta0, dev_beta):  # pragma: no cover - compiled
    """``sum_j Phi_j vals[t_j] / (1 - rho)`` around the n turns from rotation ``r0`` (upper
    bound; ``inf`` if ``rho`` may be 1). ``vals``, ``beta`` are ``(d, n)`` by rotation and the
    deviator's offset ``delta0 - j`` (column 0 of a profile-only cycle: ``delta0 = -1``)."""
    num = 0.0
    phi = 1.0
    for j in range(n):
        r = (r0 + j) % d
        c = 0 if delta0 < 0 else (delta0 - j) % n
        num = _up(num + _up(phi * vals[r, c]))
        b = dev_beta[r] if (delta0 >= 0 and c == 0) else beta[r, 0]
        phi = _up(phi * b)
    den = _dn(1.0 - phi) if phi < 1.0 else 0.0
    if den <= 0.0:
        return np.inf
    return _up(num / den)


@kernel
def _bounds_range(
    groups, n, g, W, U, with_u, bits, policy, p_lo, p_hi, pb_lo, pb_hi, DV, DU, stats
):  # pragma: no cover
    """:math:`D` and :math:`D^U` (module Notes) for the groups ``groups`` of one level;
    ``stats`` keeps the largest residuals of ``W`` and ``U`` and of ``1 / (1 - rho)``."""
    m = p_lo.size
    size = g + m + 1
    rid = np.zeros(n, dtype=np.int64)
    first = np.zeros(n, dtype=np.int64)
    HV = np.zeros((size, n))
    HU = np.zeros((size, n))
    rl = np.zeros(size)
    rh = np.zeros(size)
    vl = np.zeros(size)
    vh = np.zeros(size)
    roll = np.zeros(size, dtype=np.bool_)
    out = np.zeros(4 * n + 3)
    rv = np.zeros((n, n))  # residual + hold errors of W, by rotation (column 0)
    bv = np.zeros((n, n))
    ru = np.zeros((n, n))  # residuals of U by rotation and deviator offset
    dev_beta = np.zeros(n)
    ones = np.ones((n, n))
    for idx in groups:
        d = group_info(idx, n, g, rid, first)
        eg = 0.0
        for r in range(d):
            ri = rid[r]
            K = g - first[r]
            base = (ri % g ** (n - 1)) * g + first[r]
            hold_values(ri, first[r], n, g, W, HV)
            if with_u:
                hold_values(ri, first[r], n, g, U, HU)
                for k in range(1, K):
                    if DU[base + k] > eg:
                        eg = DU[base + k]
            nxt = rotate(ri, 1, n, g)
            _unpack(bits, ri, K, roll)
            mixk, mixp = _mix_at(ri, policy)
            _turn_bounds(K, roll, mixk, mixp, p_lo, p_hi, pb_lo, pb_hi, HV, HU, DV, base, n, rl, rh, out)
            blo, bhi = out[4 * n], min(out[4 * n + 1], 1.0)
            res = 0.0
            for o in range(n):
                x = _residual(W[ri, o], out[o], out[n + o], blo, bhi, W[nxt, (o - 1) % n])
                res = max(res, x)
            stats[0] = max(stats[0], res)
            rv[r, 0] = _up(res + out[4 * n + 2])
            bv[r, 0] = bhi
            if with_u:
                for dl in range(1, n):
                    ru[r, dl] = _residual(
                        U[ri, dl], out[2 * n + dl], out[3 * n + dl], blo, bhi, U[nxt, (dl - 1) % n]
                    )
                lo, hi, bmax = _deviator_turn(K, U[nxt, n - 1], HU, p_lo, p_hi, pb_lo, pb_hi, vl, vh, rh)
                dev_beta[r] = bmax
                x = 0.0
                if U[ri, 0] - lo > 0.0:
                    x = _up(U[ri, 0] - lo)
                if hi - U[ri, 0] > 0.0 and _up(hi - U[ri, 0]) > x:
                    x = _up(hi - U[ri, 0])
                ru[r, 0] = x
                for dl in range(n):
                    stats[1] = max(stats[1], ru[r, dl])
        for r0 in range(d):
            dv = _cycle(rv, bv, d, n, r0, -1, dev_beta)
            DV[rid[r0]] = dv
            amp = _cycle(ones, bv, d, n, r0, -1, dev_beta)
            stats[2] = max(stats[2], amp)
            if with_u:
                worst = 0.0
                for dl in range(n):
                    x = _cycle(ru, bv, d, n, r0, dl, dev_beta)
                    worst = max(worst, x)
                    stats[3] = max(stats[3], _cycle(ones, bv, d, n, r0, dl, dev_beta))
                DU[rid[r0]] = _up(eg + worst)


def _chances(rules, pvec):
    """Float bounds of the die's exact chances: ``(p_lo, p_hi, pb_lo, pb_hi)``."""
    from ..model import roll_model

    model = roll_model(rules)
    free = dict(model.free)
    exact = [Fraction(free.get(k, 0)) for k in range(1, pvec.size + 1)]
    up, dn = compiled(_up), compiled(_dn)
    p_lo = np.array([dn(float(p)) if p else 0.0 for p in exact])
    p_hi = np.array([up(float(p)) if p else 0.0 for p in exact])
    pb = Fraction(model.p_bust)
    return p_lo, p_hi, dn(float(pb)), up(float(pb))


@dataclass(frozen=True)
class ProfileBounds:
    """Certified bounds of a profile (module Notes).

    Attributes
    ----------
    start_value, start_radius : numpy.ndarray, float
        The float start values by seat and ``D`` at the start: the exact values lie in
        ``[start_value - start_radius, start_value + start_radius]``.
    value_radius : numpy.ndarray
        ``D`` for every tuple (flat, ``g**n``).
    best_response_value, best_response_radius : numpy.ndarray, float or None
        Each seat's float best-response value at the start and ``D^U`` there.
    nash_conv_upper : float or None
        A certified upper bound of NashConv at the start.
    max_residual, max_br_residual, max_amplification, max_br_amplification : float
        The largest residual bounds of ``W`` and ``U``, and the largest amplification of a
        group's own residuals, ``sum_j Phi_j / (1 - rho)`` (at most ``n / (1 - rho)``).
    """

    start_value: np.ndarray
    start_radius: float
    value_radius: np.ndarray
    best_response_value: np.ndarray | None
    best_response_radius: float | None
    nash_conv_upper: float | None
    max_residual: float
    max_br_residual: float
    max_amplification: float
    max_br_amplification: float


def enclose_values(*, W, U, bits, mix_states, mix_prob, rules, pvec, order, starts):
    """``(DV, DU, stats)``: the bounds ``D`` (of ``W``) and ``D^U`` (of ``U``, or ``None``)
    for every flat tuple, level by level (arrays as :mod:`~.certificates` takes them)."""
    from .certificates import _mix_arrays

    n, g = rules.players, rules.goal
    p_lo, p_hi, pb_lo, pb_hi = _chances(rules, pvec)
    policy = Policy(bits, *_mix_arrays(mix_states, mix_prob, n, g))
    with_u = U is not None
    Uarr = U if with_u else np.zeros((1, n))
    DV = np.zeros(g**n)
    DU = np.zeros(g**n if with_u else 1)
    stats = np.zeros(4)
    run = compiled(_bounds_range)
    for L in range(starts.size - 1):
        groups = order[starts[L] : starts[L + 1]]
        count = groups.size
        if count == 0:
            continue
        n_chunks = 1 if thread_count() <= 1 else min(count, 4 * thread_count())

        def chunk(c, groups=groups, count=count, n_chunks=n_chunks):
            part = np.zeros(4)
            a, z = (c * count) // n_chunks, ((c + 1) * count) // n_chunks
            run(groups[a:z], n, g, W, Uarr, with_u, bits, policy, p_lo, p_hi, pb_lo, pb_hi, DV, DU, part)
            return part

        for part in map_threads(chunk, n_chunks):
            stats = np.maximum(stats, part)
    return DV, (DU if with_u else None), stats


def enclose_profile(eq, *, best_response: bool = True, max_memory=None) -> ProfileBounds:
    """Certified bounds of a :class:`~.result.MultiplayerEquilibrium`'s values and NashConv.

    Parameters
    ----------
    eq : MultiplayerEquilibrium
        Sequential Pig without passing (``eq.allow_pass`` False).
    best_response : bool
        Also bound each seat's exact best-response value and NashConv (computes ``U``:
        ``g**n * n`` more floats).
    max_memory : int or str, optional
        The guard's limit for what this adds to ``eq`` (:func:`pigtheory.guard.check_memory`).

    Returns
    -------
    ProfileBounds
    """
    from ...guard import Estimate, check_memory
    from ..model import roll_model
    from . import group_kernels as gk
    from .certificates import best_response_values
    from .result import MultiplayerEquilibrium

    if not isinstance(eq, MultiplayerEquilibrium):
        raise ValueError(
            f"eq must be a MultiplayerEquilibrium (pigtheory.sequential.equilibrium), got {type(eq).__name__}"
        )
    if eq.allow_pass:
        raise ValueError("eq.allow_pass=True: only games without passing are enclosed (rho < 1)")
    if not isinstance(best_response, bool):
        raise ValueError(f"best_response={best_response!r}: must be True or False")
    rules = eq.rules
    n, g = rules.players, rules.goal
    extra = g**n * ((8 * n if best_response else 0) + 16) + 8 * g**n // n
    check_memory(
        Estimate(f"certified bounds ({n} players, goal {g})", g**n, extra, "use best_response=False"),
        max_memory,
    )
    model = roll_model(rules)
    pvec = np.ascontiguousarray(model.free_vector(), dtype=np.float64)
    W = np.ascontiguousarray(eq.value.reshape(g**n, n))
    bits = np.ascontiguousarray(eq.policy.roll_bits.reshape(g**n, -1))
    order, starts = compiled(gk.level_order)(n, g)
    kw = dict(bits=bits, mix_states=eq.policy.mixed_states, mix_prob=eq.policy.mixed_prob, n=n, g=g)
    U = None
    if best_response:
        U = best_response_values(
            order=order, starts=starts, W=W, pvec=pvec, p_bust=float(model.p_bust), allow_pass=False, **kw
        )
    DV, DU, stats = enclose_values(
        W=W,
        U=U,
        bits=bits,
        mix_states=kw["mix_states"],
        mix_prob=kw["mix_prob"],
        rules=rules,
        pvec=pvec,
        order=order,
        starts=starts,
    )
    nc = None
    if U is not None:  # exact rational sum of the float bounds, rounded up once
        exact = sum(
            Fraction(float(U[0, s]))
            + Fraction(float(DU[0]))
            - Fraction(float(W[0, s]))
            + Fraction(float(DV[0]))
            for s in range(n)
        )
        nc = float(exact)
        if Fraction(nc) < exact:
            nc = math.nextafter(nc, math.inf)
    return ProfileBounds(
        start_value=W[0].copy(),
        start_radius=float(DV[0]),
        value_radius=DV,
        best_response_value=None if U is None else U[0].copy(),
        best_response_radius=None if DU is None else float(DU[0]),
        nash_conv_upper=nc,
        max_residual=float(stats[0]),
        max_br_residual=float(stats[1]),
        max_amplification=float(stats[2]),
        max_br_amplification=float(stats[3]),
    )
