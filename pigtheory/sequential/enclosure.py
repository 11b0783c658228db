"""Verified enclosures (arb ball arithmetic, python-flint) of the mixed groups' equilibria.

For a group whose equilibrium mixes, the turns of the picked candidate are recomputed in ball
arithmetic at 200 bits: the roll probabilities of the die exactly, the hold values (the start
values of the groups above, as the solver stored them) as balls of radius ``eps`` (default
``1e-12``: the stored values' own equations hold to about ``1e-16``, and the levels above
add their rounding). The
breakpoints ``y*`` of the mixing movers, the coefficients of the indifference equations, their
solution (the closed form: linear, or the root of the quadratic resultant) and the group's
values follow as balls that contain the exact solution of those equations for those inputs.
The float solution must lie inside (checked by :func:`enclose_group`'s caller; tested).

What this certifies: the mixing probabilities and values of the group, for values of the groups
above within ``eps`` of the stored ones (not a bound of the whole game's rounding, which would
need the enclosure carried through every level). Groups solved by Newton's
method (three or more mixing movers, or symmetric groups) are not enclosed here (NaN).

References
----------
F. Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic", IEEE
Transactions on Computers 66 (2017).
"""

from __future__ import annotations

import numpy as np

__all__ = ["enclose_group"]

_PREC = 200


def _turn(flint, prob, r, roll, pv, pb, eps):
    """(H, beta, Ra, Rb): the turn's outcome and the own roll-value forms ``Ra + Rb y`` per k."""
    n = prob.n
    K = int(prob.K[r])
    m = len(pv)
    zero, one = flint.arb(0), flint.arb(1)
    A = [[one if o == 0 else zero for o in range(n)] for _ in range(K + m)]
    b = [zero] * (K + m)
    Ra, Rb = [zero] * K, [zero] * K
    for k in range(K - 1, -1, -1):
        ar = [sum((pv[gg] * A[k + 1 + gg][o] for gg in range(m)), zero) for o in range(n)]
        br = pb + sum((pv[gg] * b[k + 1 + gg] for gg in range(m)), zero)
        Ra[k], Rb[k] = ar[0], br
        if roll[k] or (k == 0 and not prob.allow_pass):
            A[k], b[k] = ar, br
        elif k >= 1:
            A[k], b[k] = [flint.arb(float(prob.HV[r, k, o]), eps) for o in range(n)], zero
        else:
            A[k], b[k] = [zero] * n, one
    return A[0], b[0], Ra, Rb


def _values(flint, H, beta, d, n):
    W = []
    for r0 in range(d):
        num = [flint.arb(0)] * n
        prod = flint.arb(1)
        for t in range(n):
            r = (r0 + t) % d
            num = [num[o] + prod * H[r][(o - t) % n] for o in range(n)]
            prod = prod * beta[r]
        W.append([x / (1 - prod) for x in num])
    return W


def enclose_group(prob, steps, q_float, p_exact, eps=1e-12):
    """Balls around the mixing probabilities and values of one mixed group.

    Parameters
    ----------
    prob : GroupProblem
    steps : list of (roll_lo, roll_hi or None, k or None)
        Per rotation: the ladder step (and the next one and the turn total where they differ,
        for a mixing mover).
    q_float : sequence of float
        The float mixing probabilities (weight of the upper step), mixing movers in order;
        used only to pick the root of the quadratic.
    p_exact : tuple of (Fraction, sequence of Fraction)
        The bust probability and the probabilities of gains 1..m, exactly.
    eps : float
        Radius of the hold values' balls.

    Returns
    -------
    (q_lo, q_hi, W_lo, W_hi) or None
        Bounds of the weights of the upper steps and of the values ``W[r, o]`` (shape
        ``(d, n)``); None where the group is not enclosed here.
    """
    import flint

    mixing = [r for r, s in enumerate(steps) if s[1] is not None]
    mu = len(mixing)
    if prob.d != prob.n or mu not in (1, 2):
        return None
    old = flint.ctx.prec
    flint.ctx.prec = _PREC
    try:
        pb = flint.arb(flint.fmpq(p_exact[0].numerator, p_exact[0].denominator))
        pv = [flint.arb(flint.fmpq(x.numerator, x.denominator)) for x in p_exact[1]]
        lo_out, hi_out, ystar = [], [], {}
        for r, (roll_lo, roll_hi, k) in enumerate(steps):
            H0, b0, Ra, Rb = _turn(flint, prob, r, roll_lo, pv, pb, eps)
            lo_out.append((H0, b0))
            if roll_hi is not None:
                H1, b1, _, _ = _turn(flint, prob, r, roll_hi, pv, pb, eps)
                hi_out.append((H1, b1))
                if k >= 1:
                    ystar[r] = (flint.arb(float(prob.HV[r, k, 0]), eps) - Ra[k]) / Rb[k]
                else:
                    ystar[r] = Ra[0] / (1 - Rb[0])
            else:
                hi_out.append(None)

        def residual(q):
            H, beta = [], []
            for r in range(prob.d):
                H0, b0 = lo_out[r]
                if r in mixing:
                    qr = q[mixing.index(r)]
                    H1, b1 = hi_out[r]
                    H.append([(1 - qr) * x + qr * y for x, y in zip(H0, H1, strict=True)])
                    beta.append((1 - qr) * b0 + qr * b1)
                else:
                    H.append(H0)
                    beta.append(b0)
            num_W = _values(flint, H, beta, prob.d, prob.n)
            res = [num_W[(r + 1) % prob.d][prob.n - 1] - ystar[r] for r in mixing]
            prod = flint.arb(1)
            for x in beta:
                prod *= x
            # N - y* D = (y - y*) D: multi-affine in q
            return [x * (1 - prod) for x in res], H, beta

        zero, one = flint.arb(0), flint.arb(1)
        if mu == 1:
            c0 = residual([zero])[0][0]
            c1 = residual([one])[0][0] - c0
            q = [-c0 / c1]
        else:
            corner = {(u, v): residual([flint.arb(u), flint.arb(v)])[0] for u in (0, 1) for v in (0, 1)}
            a = corner[0, 0]
            bq = [corner[1, 0][i] - a[i] for i in range(2)]
            cq = [corner[0, 1][i] - a[i] for i in range(2)]
            dq = [corner[1, 1][i] - a[i] - bq[i] - cq[i] for i in range(2)]
            p2 = bq[0] * dq[1] - bq[1] * dq[0]
            p1 = a[0] * dq[1] + bq[0] * cq[1] - a[1] * dq[0] - bq[1] * cq[0]
            p0 = a[0] * cq[1] - a[1] * cq[0]
            disc = p1 * p1 - 4 * p2 * p0
            roots = [(-p1 + s * disc.sqrt()) / (2 * p2) for s in (1, -1)]
            q1 = min(roots, key=lambda z: abs(float(z.mid()) - q_float[0]))
            den = [cq[i] + dq[i] * q1 for i in range(2)]
            i = 0 if abs(float(den[0].mid())) >= abs(float(den[1].mid())) else 1
            q = [q1, -(a[i] + bq[i] * q1) / den[i]]
        _, H, beta = residual(q)
        W = _values(flint, H, beta, prob.d, prob.n)
        q_lo = np.array([float(x.lower()) for x in q])
        q_hi = np.array([float(x.upper()) for x in q])
        W_lo = np.array([[float(x.lower()) for x in row] for row in W])
        W_hi = np.array([[float(x.upper()) for x in row] for row in W])
        return q_lo, q_hi, W_lo, W_hi
    finally:
        flint.ctx.prec = old
