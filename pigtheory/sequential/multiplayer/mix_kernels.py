"""The mixed group's kernels: the closed-form values of a group in which movers mix (numerator
and denominator around the cycle of rotations), the indifference residuals of a candidate, and
Newton's method on them (:mod:`.mixed_groups` drives them; the turn records are
:mod:`.group_kernels`').
"""

from __future__ import annotations

import numpy as np

from ...jit import kernel


@kernel
def num_den(H, beta, d, n, N):  # pragma: no cover - compiled
    """Numerators ``N[r0, o]`` of the group's values from the turns' outcomes ``H``, ``beta``
    (the sum of :func:`~.group_kernels.cyclic_values` before the division); returns the denominator
    ``1 - prod(beta)`` around the n rotations."""
    prod0 = 1.0
    for r0 in range(d):
        prod = 1.0
        for o in range(n):
            N[r0, o] = 0.0
        for t in range(n):
            r = (r0 + t) % d
            for o in range(n):
                N[r0, o] += prod * H[r, (o - t) % n]
            prod *= beta[r]
        if r0 == 0:
            prod0 = prod
    return 1.0 - prod0


@kernel
def mix_residuals(cand, q, n, H, beta, N, res):  # pragma: no cover - compiled
    """Indifference residuals ``N_r(q) - y*_r D(q)`` of the mixing movers ``mixr`` of the
    :class:`Candidate` ``cand`` (rotation r mixes its lower and upper ladder steps with weight
    ``q[i]`` on the upper one; the pure movers have ``H1 = H0``): writes ``res``, the mixed
    outcomes ``H``, ``beta`` and the numerators ``N``; returns ``D``."""
    H0, H1, b0, b1, mixr, ystar = cand
    d = H0.shape[0]
    for r in range(d):
        for o in range(n):
            H[r, o] = H0[r, o]
        beta[r] = b0[r]
    for i in range(mixr.size):
        r = mixr[i]
        qi = q[i]
        for o in range(n):
            H[r, o] = (1.0 - qi) * H0[r, o] + qi * H1[r, o]
        beta[r] = (1.0 - qi) * b0[r] + qi * b1[r]
    D = num_den(H, beta, d, n, N)
    for i in range(mixr.size):
        r = mixr[i]
        res[i] = N[(r + 1) % d, n - 1] - ystar[i] * D
    return D


@kernel
def _solve_small(J, rhs, x):  # pragma: no cover - compiled
    """Gaussian elimination with partial pivoting of a small dense system (``J`` is
    overwritten); returns False if it is singular."""
    mu = rhs.size
    for i in range(mu):
        x[i] = rhs[i]
    for c in range(mu):
        p = c
        for r in range(c + 1, mu):
            if abs(J[r, c]) > abs(J[p, c]):
                p = r
        if J[p, c] == 0.0:
            return False
        if p != c:
            for k in range(mu):
                J[c, k], J[p, k] = J[p, k], J[c, k]
            x[c], x[p] = x[p], x[c]
        for r in range(c + 1, mu):
            f = J[r, c] / J[c, c]
            for k in range(c, mu):
                J[r, k] -= f * J[c, k]
            x[r] -= f * x[c]
    for c in range(mu - 1, -1, -1):
        s = x[c]
        for k in range(c + 1, mu):
            s -= J[c, k] * x[k]
        x[c] = s / J[c, c]
    return True


@kernel
def mix_newton(cand, n, q, iters):  # pragma: no cover - compiled
    """Newton's method on the indifference equations of :func:`mix_residuals` (the
    :class:`Candidate` ``cand``) from ``q`` (overwritten), with a forward-difference Jacobian
    (step 1e-7), until the residuals are below 1e-17, a step below 1e-15, or ``iters`` steps.
    Returns 0, or 1 if an iterate was not finite (no solution from this start)."""
    d = cand.H0.shape[0]
    mu = q.size
    H = np.zeros((d, n))
    beta = np.zeros(d)
    N = np.zeros((d, n))
    res = np.zeros(mu)
    res2 = np.zeros(mu)
    dq = np.zeros(mu)
    J = np.zeros((mu, mu))
    step = np.zeros(mu)
    h = 1e-7
    for _ in range(iters):
        mix_residuals(cand, q, n, H, beta, N, res)
        big = 0.0
        for i in range(mu):
            big = max(big, abs(res[i]))
        if big < 1e-17:
            break
        for i in range(mu):
            for k in range(mu):
                dq[k] = q[k]
            dq[i] += h
            mix_residuals(cand, dq, n, H, beta, N, res2)
            for k in range(mu):
                J[k, i] = (res2[k] - res[k]) / h
        if not _solve_small(J, res, step):
            return 0
        big = 0.0
        for i in range(mu):
            q[i] -= step[i]
            if not np.isfinite(q[i]):
                return 1
            big = max(big, abs(step[i]))
        if big < 1e-15:
            break
    return 0
