"""The vectorised a-posteriori enclosure of multiplayer sequential profiles against arb balls.

On small games every value of the profile is recomputed from the rules in python-flint's ball
arithmetic (the die's chances exact, the stored mixing probabilities as exact numbers): each
ball must lie inside ``[W - D, W + D]``. The best-response bounds are checked the same way
against the arb value of the deviator's policy read off the float best response (a lower
bound of the exact best response, which the upper bound must not undercut).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from flint import arb, ctx, fmpq

from pigtheory import Rules
from pigtheory.jit import compiled
from pigtheory.sequential import equilibrium
from pigtheory.sequential.multiplayer import group_kernels as gk
from pigtheory.sequential.multiplayer.certificates import best_response_values
from pigtheory.sequential.multiplayer.certify_float import enclose_profile

ctx.prec = 200
SIXTH = arb(fmpq(1, 6))
FACES = (2, 3, 4, 5, 6)


def _exact(x: float) -> arb:
    q = Fraction(x)
    return arb(fmpq(q.numerator, q.denominator))


def _hold(t, k):
    return t[1:] + (t[0] + k,)


def _bust(t):
    return t[1:] + (t[0],)


def _groups(n, g):
    """Canonical tuples (lexicographically smallest rotation) by score sum, highest first."""
    seen, out = set(), []
    for t in sorted(np.ndindex(*(g,) * n), key=lambda t: -sum(t)):
        rots = []
        for r in range(n):
            u = t[r:] + t[:r]
            if u in rots:
                break
            rots.append(u)
        if min(rots) == t and t not in seen:
            seen.add(t)
            out.append(rots)
    return out


def _turn(t, g, q, value):
    """(H, beta): ``H`` = the turn's holds and goal weighted by ``value(hold tuple)`` (a
    callable giving a list), in arb; ``q[k]`` the roll probability."""
    K = g - t[0]
    reach = [arb(0)] * (K + 7)
    reach[0] = arb(1)
    H = None
    beta = arb(0)
    for k in range(K):
        if reach[k] == 0:
            continue
        if k >= 1 and q[k] != 1:
            hv = value(_hold(t, k))
            term = [(1 - q[k]) * reach[k] * x for x in hv]
            H = term if H is None else [a + b for a, b in zip(H, term, strict=True)]
        go = q[k] * reach[k]
        beta += go * SIXTH
        for f in FACES:
            reach[k + f] += go * SIXTH
    return H, beta, sum(reach[K:], arb(0))


def arb_profile(eq):
    """Every tuple's values of the profile, in arb: ``{t: [W_t[o] for o]}``."""
    n, g = eq.rules.players, eq.rules.goal
    Wa: dict = {}
    for rots in _groups(n, g):
        d = len(rots)
        Hs, Bs = [], []
        for t in rots:
            q = [_exact(x) for x in eq.policy.roll_probability(t)]
            q[0] = arb(1)
            H, beta, goal = _turn(t, g, q, lambda u: [Wa[u][(o - 1) % n] for o in range(n)])
            H = H or [arb(0)] * n
            H[0] += goal
            Hs.append(H)
            Bs.append(beta)
        for r0 in range(d):
            num, prod = [arb(0)] * n, arb(1)
            for j in range(n):
                r = (r0 + j) % d
                num = [num[o] + prod * Hs[r][(o - j) % n] for o in range(n)]
                prod *= Bs[r]
            Wa[rots[r0]] = [x / (1 - prod) for x in num]
    return Wa


def arb_deviator(eq, U):
    """The arb value ``{(t, delta): x}`` of the deviator who plays the float best response's
    choices (roll where its float roll value beats holding)."""
    n, g = eq.rules.players, eq.rules.goal
    Uf = U.reshape((g,) * n + (n,))

    def dev_policy(t):
        K = g - t[0]
        y = Uf[_bust(t)][n - 1]
        v = [1.0] * (K + 7)
        q = [arb(1)] * K
        for k in range(K - 1, -1, -1):
            rv = y / 6 + sum(v[k + f] for f in FACES) / 6
            hv = Uf[_hold(t, k)][n - 1] if k >= 1 else -1.0
            q[k] = arb(1) if rv > hv else arb(0)
            v[k] = max(rv, hv)
        return q

    X: dict = {}
    for rots in _groups(n, g):
        d = len(rots)
        parts = {}
        for r, t in enumerate(rots):
            qp = [_exact(x) for x in eq.policy.roll_probability(t)]
            qp[0] = arb(1)
            qd = dev_policy(t)
            for dl in range(n):
                H, beta, goal = _turn(t, g, qd if dl == 0 else qp, lambda u, dl=dl: [X[(u, (dl - 1) % n)]])
                h = (H[0] if H else arb(0)) + (goal if dl == 0 else 0)
                parts[(r, dl)] = (h, beta)
        for r0 in range(d):
            for d0 in range(n):
                num, prod = arb(0), arb(1)
                for j in range(n):
                    h, beta = parts[((r0 + j) % d, (d0 - j) % n)]
                    num += prod * h
                    prod *= beta
                X[(rots[r0], d0)] = num / (1 - prod)
    return X


def _best_response(eq):
    n, g = eq.rules.players, eq.rules.goal
    order, starts = compiled(gk.level_order)(n, g)
    return best_response_values(
        order=order,
        starts=starts,
        W=np.ascontiguousarray(eq.value.reshape(g**n, n)),
        bits=np.ascontiguousarray(eq.policy.roll_bits.reshape(g**n, -1)),
        mix_states=eq.policy.mixed_states,
        mix_prob=eq.policy.mixed_prob,
        n=n,
        g=g,
        pvec=np.array([0.0] + [1 / 6] * 5),
        p_bust=1 / 6,
        allow_pass=False,
    )


def _inside(ball: arb, mid: float, rad: float) -> bool:
    return float(ball.lower()) >= mid - rad and float(ball.upper()) <= mid + rad


@pytest.mark.parametrize(
    ("n", "goal"), [(2, 44), (3, 15), (4, 7), pytest.param(3, 47, marks=pytest.mark.slow)]
)
def test_enclosure_contains_the_arb_balls(n, goal):
    """Goals where the equilibrium holds somewhere (2 players at 44, 3 at 47) and where it
    rolls to the goal everywhere but cycles through 3 and 4 rotations (3 at 15, 4 at 7)."""
    eq = equilibrium(rules=Rules(goal=goal, players=n), progress=False)
    b = enclose_profile(eq)
    Wa = arb_profile(eq)
    W = eq.value
    for t, balls in Wa.items():
        D = float(b.value_radius[np.ravel_multi_index(t, (goal,) * n)])
        assert D < 1e-12
        for o in range(n):
            assert _inside(balls[o], float(W[t][o]), D), (t, o)
            assert float(balls[o].rad()) < 1e-40
    assert np.all(b.start_radius >= 0) and b.start_radius < 1e-13
    # NashConv: the bound covers the float value and the arb deviators stay under it
    assert eq.nash_conv <= b.nash_conv_upper < 1e-9
    U = _best_response(eq)
    X = arb_deviator(eq, U)
    for dl in range(n):
        lower_br = X[((0,) * n, dl)]
        assert float(lower_br.lower()) <= b.best_response_value[dl] + b.best_response_radius
        assert _inside(lower_br, b.best_response_value[dl], b.best_response_radius)
        assert float(lower_br.upper()) >= float(Wa[(0,) * n][dl].lower()) - 1e-15  # BR >= profile


def test_a_mixed_profile_is_enclosed_as_played():
    """Small games do not mix, so mix one: roll with probability 0.37, 0.61, 0.05 (not dyadic)
    at the hold threshold of three tuples; the values are the arb values rounded to floats."""
    n, goal = 2, 44
    eq = equilibrium(rules=Rules(goal=goal, players=n), progress=False)
    held = [t for t in np.ndindex(*(goal,) * n) if eq.policy.hold_threshold(t) < goal - t[0]]
    rows = [t + (eq.policy.hold_threshold(t),) for t in (held[0], held[len(held) // 2], held[-1])]
    pol = dataclasses.replace(
        eq.policy, mixed_states=np.array(rows, dtype=np.int64), mixed_prob=np.array([0.37, 0.61, 0.05])
    )
    mixed = dataclasses.replace(eq, policy=pol)
    Wa = arb_profile(mixed)
    W = np.zeros_like(eq.value)
    for t, balls in Wa.items():
        W[t] = [float(x.mid()) for x in balls]
    mixed = dataclasses.replace(mixed, value=W)
    assert abs(W[0, 0, 0] - eq.value[0, 0, 0]) > 1e-6  # the mixing matters
    b = enclose_profile(mixed)
    D = b.value_radius.reshape((goal,) * n)
    for t, balls in Wa.items():
        assert D[t] < 1e-13
        assert all(_inside(balls[o], float(W[t][o]), float(D[t])) for o in range(n))
    # not an equilibrium any more: the certified NashConv bound shows a real gain
    assert b.nash_conv_upper > 1e-6


def test_a_perturbed_value_widens_the_enclosure():
    """Moving one stored value by 1e-9 must move the bound there (and at the start, which
    holds into it) past the move."""
    n, goal = 2, 44
    eq = equilibrium(rules=Rules(goal=goal, players=n), progress=False)
    t = (0, eq.opening_threshold)  # where the first player's opening hold leads
    W = eq.value.copy()
    W[t] += np.array([1e-9, -1e-9])
    bad = dataclasses.replace(eq, value=W)
    b = enclose_profile(bad, best_response=False)
    Wa = arb_profile(eq)
    D = b.value_radius.reshape((goal,) * n)
    assert D[t] >= 1e-9
    assert all(_inside(Wa[t][o], float(W[t][o]), float(D[t])) for o in range(n))
    assert D[0, 0] > 1e-11  # the error reaches the start through the holds
    assert all(_inside(Wa[(0, 0)][o], float(W[0, 0, o]), float(D[0, 0])) for o in range(n))
    assert b.nash_conv_upper is None and b.best_response_radius is None


def test_rejects_passing():
    eq = equilibrium(rules=Rules(goal=6, players=3), progress=False)
    with pytest.raises(ValueError, match="allow_pass"):
        enclose_profile(dataclasses.replace(eq, allow_pass=True))
    with pytest.raises(ValueError, match="best_response"):
        enclose_profile(eq, best_response=1)
