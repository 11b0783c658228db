"""The building blocks of Newton's method in the symmetric stage solver
(:mod:`pigtheory.simultaneous.symmetric.newton`, :mod:`~.payoffs`), run as
plain Python: the live profiles against a scan of every profile, the payoffs at a mix against
a dense sum, the linear solve against numpy's.
"""

import itertools

import numpy as np
import pytest

from pigtheory.simultaneous.core.step import Band
from pigtheory.simultaneous.symmetric import newton as sn
from pigtheory.simultaneous.symmetric import payoffs as sp


def _roles(rng, n):
    """Random roles of ``n`` players: ``R`` roles, each player's others' roles ``orole``."""
    R = int(rng.integers(1, n + 1))
    role = np.sort(np.concatenate([np.arange(R), rng.integers(0, R, n - R)]))
    first = [int(np.flatnonzero(role == r)[0]) for r in range(R)]
    orole = np.array([[role[p] for p in range(n) if p != first[r]] for r in range(R)], np.int64)
    return R, orole


@pytest.mark.parametrize("seed", range(6))
def test_live_profiles_are_the_scanned_ones_in_order(seed):
    rng = np.random.default_rng(seed)
    n, width = 4, 5
    m = n - 1
    R, orole = _roles(rng, n)
    ncand = rng.integers(1, width + 1, R).astype(np.int64)
    sup = np.zeros((R, width), np.bool_)
    wts = np.zeros((R, width))
    for r in range(R):
        sup[r, : ncand[r]] = rng.random(ncand[r]) < 0.5
        wts[r, : ncand[r]] = np.where(rng.random(ncand[r]) < 0.3, rng.random(ncand[r]), 0.0)
    nw = sn.newton_work(R, width, m, width**m)
    nvar = sn.live_sets(R, ncand, wts, sup, nw)
    assert nvar == int(sup.sum()) + R
    for r in range(R):
        nw.nlive[r] = int(np.prod([nw.nl[orole[r, q]] for q in range(m)]))
    sn.live_profiles(R, m, orole, ncand, nw, nw.live, nw.ldig)
    for r in range(R):
        bases = [int(ncand[orole[r, q]]) for q in range(m)]
        want = []
        for ci, digs in enumerate(itertools.product(*(range(b) for b in bases))):
            if all(sup[orole[r, q], d] or wts[orole[r, q], d] != 0.0 for q, d in enumerate(digs)):
                want.append((ci, digs))
        assert [int(c) for c in nw.live[r, : nw.nlive[r]]] == [c for c, _ in want]
        assert [tuple(int(d) for d in nw.ldig[r, i]) for i in range(nw.nlive[r])] == [d for _, d in want]


@pytest.mark.parametrize("seed", range(4))
def test_evaluate_is_the_dense_sum_over_the_others_profiles(seed):
    rng = np.random.default_rng(10 + seed)
    n, width, g = 4, 4, 9
    m = n - 1
    R, orole = _roles(rng, n)
    t = rng.integers(0, g, R).astype(np.int64)
    ncand = rng.integers(1, width + 1, R).astype(np.int64)
    cand = np.ones((R, width), np.int64)
    wts = np.zeros((R, width))
    for r in range(R):
        ncand[r] = min(ncand[r], g - t[r])
        cand[r, : ncand[r]] = rng.choice(np.arange(1, g - t[r] + 1), ncand[r], replace=False)
        wts[r, : ncand[r]] = rng.random(ncand[r]) * (rng.random(ncand[r]) < 0.8)
    nc = np.array([np.prod([ncand[orole[r, q]] for q in range(m)]) for r in range(R)], np.int64)
    ten = rng.random((R, int(nc.max()), g + 1))
    bust = rng.random(g + 1) * 0.5
    b, bb, acont = np.zeros(R), np.zeros(R), np.zeros((R, g + 1))
    none = np.zeros(0)
    band = Band(bust, np.zeros((1, g + 1)), np.zeros((g + 1, 1)))
    s = sp.Scratch(b, bb, acont, np.zeros(m, np.int64), *([none] * 12))
    x = sp.Mixed(t, orole, cand, ncand, wts, none, ten, nc, g, none, band, none, 0.0, 0.0, None, s)
    sp.evaluate(R, m, x)
    for r in range(R):
        mix = [wts[orole[r, q], : ncand[orole[r, q]]] for q in range(m)]
        weights = np.array([np.prod(p) for p in itertools.product(*mix)])
        room = g - t[r]
        np.testing.assert_allclose(
            acont[r, 1 : room + 1], weights @ ten[r, : nc[r], 1 : room + 1], rtol=1e-12
        )
        assert b[r] == pytest.approx(float(wts[r, : ncand[r]] @ bust[cand[r, : ncand[r]]]), rel=1e-12)
    for r in range(R):
        assert bb[r] == pytest.approx(float(np.prod([b[orole[r, q]] for q in range(m)])), rel=1e-12)


@pytest.mark.parametrize("n", [1, 2, 5, 11])
def test_lin_solve_agrees_with_numpy_and_refuses_a_singular_system(n):
    rng = np.random.default_rng(n)
    size = 16
    for _ in range(5):
        a = np.zeros((size, size))
        a[:n, :n] = rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.6) + np.diag(rng.normal(size=n) * 0.1)
        a[:n, :n][rng.permutation(n)] += np.eye(n)  # nonsingular, pivoting needed
        rhs = np.zeros(size)
        rhs[:n] = rng.normal(size=n)
        want = np.linalg.solve(a[:n, :n], rhs[:n])
        assert sp.lin_solve(a.copy(), rhs, n)
        np.testing.assert_allclose(rhs[:n], want, rtol=1e-9, atol=1e-12)
    a = rng.normal(size=(size, size))
    a[n - 1, :n] = 0.0  # a zero row
    assert not sp.lin_solve(a, rng.normal(size=size), n)
