"""Verified enclosures (arb ball arithmetic, python-flint) of the mixed groups' equilibria.

For a group whose equilibrium mixes, the turns of the picked candidate are recomputed in ball
arithmetic at 200 bits: the roll probabilities of the die exactly, the hold values (the start
values of the groups above, as the solver stored them) as balls of radius ``eps`` (default
``1e-13``: the stored values' own equations hold to about ``1e-16``, and the levels above
add their rounding). The
breakpoints ``y*`` of the mixing movers follow as balls and the indifference equations are
evaluated in balls, with their Jacobian (forward differentiation); Krawczyk's test on a small box around the float solution proves that
the box holds exactly one solution and gives a ball around it, and the group's values follow.
The float solution must lie inside (checked by :func:`enclose_group`'s caller; tested).

What this certifies: the mixing probabilities and values of the group, for values of the groups
above within ``eps`` of the stored ones (not a bound of the whole game's rounding, which would
need the enclosure carried through every level). Groups solved by Newton's
method (three or more mixing movers) and symmetric groups (fewer distinct rotations than
players, where the equations have degree ``n / d`` in each unknown) are enclosed the same
way: the Jacobian over the box comes from forward differentiation in ball arithmetic.

References
----------
R. Krawczyk, "Newton-Algorithmen zur Bestimmung von Nullstellen mit Fehlerschranken",
Computing 4 (1969). F. Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic", IEEE
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


class _Dual:
    """An arb ball with its gradient (forward-mode differentiation): evaluated on a box, the
    gradient is an enclosure of the Jacobian over the box."""

    __slots__ = ("v", "d")

    def __init__(self, v, d):
        self.v, self.d = v, d

    @staticmethod
    def _lift(x, mu):
        return x if isinstance(x, _Dual) else _Dual(x, [0] * mu)

    def __add__(self, o):
        o = self._lift(o, len(self.d))
        return _Dual(self.v + o.v, [a + b for a, b in zip(self.d, o.d, strict=True)])

    __radd__ = __add__

    def __neg__(self):
        return _Dual(-self.v, [-a for a in self.d])

    def __sub__(self, o):
        return self + (-self._lift(o, len(self.d)))

    def __rsub__(self, o):
        return (-self) + o

    def __mul__(self, o):
        o = self._lift(o, len(self.d))
        return _Dual(self.v * o.v, [self.v * b + o.v * a for a, b in zip(self.d, o.d, strict=True)])

    __rmul__ = __mul__

    def __truediv__(self, o):
        o = self._lift(o, len(self.d))
        w = self.v / o.v
        return _Dual(w, [(a - w * b) / o.v for a, b in zip(self.d, o.d, strict=True)])

    def __rtruediv__(self, o):
        return self._lift(o, len(self.d)) / self


def _krawczyk(flint, F, qhat):
    """A ball vector proven (Krawczyk's test) to hold the unique root of ``F`` (residuals of
    a list of ``_Dual`` unknowns) near ``qhat``, or None.

    With ``Y`` the inverse of the Jacobian at ``qhat`` (floats) and ``J(X)`` an enclosure of the
    Jacobian over the box ``X`` (forward differentiation in ball arithmetic),
    ``K = qhat - Y F(qhat) + (I - Y J(X)) (X - qhat)``; ``K`` inside ``X`` proves one root in
    ``X``, and it lies in ``K``."""
    mu = qhat.size

    def unknowns(balls):
        return [
            _Dual(x, [flint.arb(1) if i == j else flint.arb(0) for j in range(mu)])
            for i, x in enumerate(balls)
        ]

    pt = [flint.arb(float(v)) for v in qhat]
    Fp = F(unknowns(pt))
    Jm = np.array([[float(v.mid()) for v in f.d] for f in Fp])
    try:
        Y = np.linalg.inv(Jm)
    except np.linalg.LinAlgError:
        return None
    if not np.all(np.isfinite(Y)):
        return None
    Ya = [[flint.arb(float(v)) for v in row] for row in Y]
    Fq = [f.v for f in Fp]
    for delta in (1e-12, 1e-10, 1e-8, 1e-6, 1e-4):
        X = [flint.arb(float(v), delta) for v in qhat]
        JX = [f.d for f in F(unknowns(X))]
        K = []
        for i in range(mu):
            v = pt[i] - sum((Ya[i][j] * Fq[j] for j in range(mu)), flint.arb(0))
            for j in range(mu):
                m_ij = (flint.arb(1) if i == j else flint.arb(0)) - sum(
                    (Ya[i][h] * JX[h][j] for h in range(mu)), flint.arb(0)
                )
                v += m_ij * (X[j] - pt[j])
            K.append(v)
        if all(X[i].contains(K[i]) for i in range(mu)):
            return K
    return None


def enclose_group(prob, steps, q_float, p_exact, eps=1e-13):
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
    if mu == 0:
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
            # (y - y*) times 1 - prod(beta) > 0: the same roots; with d = n it is N - y* D,
            # multi-affine in q
            return [x * (1 - prod) for x in res], H, beta

        q = _krawczyk(flint, lambda x: residual(x)[0], np.asarray(q_float, dtype=float))
        if q is None:
            return None
        _, H, beta = residual(q)
        W = _values(flint, H, beta, prob.d, prob.n)
        q_lo = np.array([float(x.lower()) for x in q])
        q_hi = np.array([float(x.upper()) for x in q])
        W_lo = np.array([[float(x.lower()) for x in row] for row in W])
        W_hi = np.array([[float(x.upper()) for x in row] for row in W])
        return q_lo, q_hi, W_lo, W_hi
    finally:
        flint.ctx.prec = old
