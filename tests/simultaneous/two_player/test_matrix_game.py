"""One-state games that repeat, v = val(C + v D): closed-form 2 x 2, small games, oracles
(modules matrix_game and two_by_two of the core).

References: the root of a 2 x 2 game found in exact rationals (bisection), nashpy's
support enumeration on the matrix game at the returned v, and the dense LP route
(``solve_stage``, HiGHS) on random games.
"""

import warnings
from fractions import Fraction

import nashpy
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pigtheory.simultaneous.core.matrix_game import (
    certificate,
    pure_bounds,
    solve_small,
    solve_stage,
    solve_with_oracles,
)
from pigtheory.simultaneous.core.two_by_two import solve_2x2

unit = st.floats(0.0, 1.0, allow_nan=False)
bust = st.floats(0.0, 0.95, allow_nan=False)


def _bounds(c, d, x, y):
    """The certificate, computed here from its definition, and checked against the module's."""
    lo = min((x @ c[:, b]) / (1 - x @ d[:, b]) for b in range(c.shape[1]))
    hi = max((c[a] @ y) / (1 - d[a] @ y) for a in range(c.shape[0]))
    # values reach 1 / (1 - 0.9) = 10: rounding is relative to their size
    assert certificate(c, d, x, y) == pytest.approx((lo, hi), rel=1e-14, abs=1e-15)
    return lo, hi


def _nash_values(m):
    """Values of the matrix game m at nashpy's equilibria by support enumeration (exact linear
    solves; none for some degenerate games)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        eqs = list(nashpy.Game(m, -m).support_enumeration())
    return [float(x @ m @ y) for x, y in eqs]


def test_2x2_closed_form_matches_the_root_in_rationals():
    """The root of v s(M(v)) = det M(v) between the pure bounds, by bisection in exact
    rationals (a sign change of an exact polynomial), against the floating closed form."""
    f = Fraction
    c = [[f(1, 2), f(1, 3)], [f(1, 5), f(3, 4)]]
    p, q = [f(1, 3), f(1, 2)], [f(1, 4), f(1, 6)]
    d = [[pa * qb for qb in q] for pa in p]

    def excess(v):  # v s(M) - det M, M = C + v D
        m = [[c[a][b] + v * d[a][b] for b in range(2)] for a in range(2)]
        return v * (m[0][0] + m[1][1] - m[0][1] - m[1][0]) - (m[0][0] * m[1][1] - m[0][1] * m[1][0])

    w = [[c[a][b] / (1 - d[a][b]) for b in range(2)] for a in range(2)]
    lo = max(min(w[0]), min(w[1]))
    hi = min(max(w[0][0], w[1][0]), max(w[0][1], w[1][1]))
    assert lo < hi and excess(lo) * excess(hi) < 0  # no saddle point, one root inside
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if excess(lo) * excess(mid) > 0 else (lo, mid)
    sol = solve_2x2(np.array(c, dtype=float), np.array(d, dtype=float))
    assert sol is not None
    assert abs(sol[0] - float(lo)) <= 1e-15


@settings(max_examples=60, deadline=None)
@given(
    st.lists(unit, min_size=4, max_size=4),
    st.lists(bust, min_size=2, max_size=2),
    st.lists(bust, min_size=2, max_size=2),
)
def test_2x2_agrees_with_nashpy_and_is_certified(cs, p, q):
    c, d = np.array(cs).reshape(2, 2), np.outer(p, q)
    sol = solve_2x2(c, d)
    assume(sol is not None)
    v, x, y = sol
    assert x.min() >= 0 and y.min() >= 0 and abs(x.sum() - 1) < 1e-15 and abs(y.sum() - 1) < 1e-15
    # v is the fixed point: the value of the matrix game C + v D is v
    values = _nash_values(c + v * d)
    assert not values or any(abs(val - v) <= 1e-12 for val in values)
    lo, hi = _bounds(c, d, x, y)
    eps = 16 * np.finfo(float).eps * max(1.0, abs(v))  # a few roundings of values up to about 10
    assert lo <= v + eps and v <= hi + eps and hi - lo <= 1e-13


def test_2x2_agrees_with_the_lp_route():
    """Against the dense LP route on well-scaled random games (HiGHS's tolerances are absolute:
    at payoffs of 1e-10 the LP route is the less accurate of the two)."""
    rng = np.random.default_rng(7)
    mixed = 0
    for _ in range(60):
        c, d = rng.random((2, 2)), np.outer(rng.uniform(0, 0.9, 2), rng.uniform(0, 0.9, 2))
        v, x, y = solve_2x2(c, d)
        mixed += x.min() > 0
        assert solve_stage(c, d)[0] == pytest.approx(v, abs=1e-12)
    assert mixed >= 10


@settings(max_examples=40, deadline=None)
@given(st.lists(unit, min_size=4, max_size=4), st.lists(unit, min_size=4, max_size=4))
def test_2x2_with_a_general_self_loop(cs, ds):
    c, d = np.array(cs).reshape(2, 2), 0.9 * np.array(ds).reshape(2, 2)
    sol = solve_2x2(c, d)
    assume(sol is not None)
    v, x, y = sol
    lo, hi = _bounds(c, d, x, y)
    # v reaches 1 / (1 - 0.9) = 10: rounding is relative to its size (a few ulps)
    eps = 16 * np.finfo(float).eps * max(1.0, abs(v))
    assert lo <= v + eps and v <= hi + eps and hi - lo <= 1e-12
    values = _nash_values(c + v * d)
    assert not values or any(abs(val - v) <= 1e-12 for val in values)


@pytest.mark.parametrize("eps", [1e-9, 1e-12, 1e-14, 1e-15, 1e-16, 0.0])
def test_2x2_near_degenerate_games(eps):
    """Within eps of a pure saddle point, and with two equal rows: a certified answer or None,
    never an exception or a strategy outside the simplex."""
    p, q = np.array([0.3, 0.4]), np.array([0.5, 0.2])
    d = np.outer(p, q)
    w = np.array([[0.6, 0.6 - eps], [0.6 - 2 * eps, 0.6 + eps]])  # mixes for eps > 0
    for c in (w * (1 - d), np.array([[0.5, 0.4], [0.5, 0.4]]) + eps):
        sol = solve_2x2(c, d)
        if sol is None:
            continue
        v, x, y = sol
        assert 0 <= x.min() and 0 <= y.min()
        lo, hi = _bounds(c, d, x, y)
        assert lo <= v + 1e-15 and v <= hi + 1e-15 and hi - lo <= 1e-14
        maximin, _, minimax, _ = pure_bounds(c / (1 - d))
        assert maximin - 1e-15 <= v <= minimax + 1e-15


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 2), (5, 5)])
def test_small_games_agree_with_the_lp(shape):
    rng = np.random.default_rng(sum(shape))
    for _ in range(6):
        c = rng.random(shape)
        d = np.outer(rng.uniform(0, 0.9, shape[0]), rng.uniform(0, 0.9, shape[1]))
        v, x, y, _ = solve_small(c, d)
        lo, hi = _bounds(c, d, x, y)
        assert hi - lo <= 1e-12 and lo <= v + 1e-15 and v <= hi + 1e-15
        assert solve_stage(c, d)[0] == pytest.approx(v, abs=1e-12)


def test_small_game_with_a_larger_support_needs_lps():
    """Rock-paper-scissors where a draw repeats or ends drawn (1/2) with even chances: support
    3, no 2 x 2 sub-game certifies; value 1/2 by symmetry."""
    c = np.array([[0.25, 0.0, 1.0], [1.0, 0.25, 0.0], [0.0, 1.0, 0.25]])
    d = 0.5 * np.eye(3)
    v, x, y, n_lp = solve_small(c, d)
    assert n_lp > 0
    assert v == pytest.approx(0.5, abs=1e-12)
    np.testing.assert_allclose(x, 1 / 3, atol=1e-9)


@pytest.mark.parametrize("seed", range(8))
def test_oracles_agree_with_the_dense_solve(seed):
    """Rows and columns only, from a poor start, against the whole matrix."""
    rng = np.random.default_rng(seed)
    na, nb = rng.integers(3, 30, size=2)
    # nearly flat payoffs with a little noise: equilibria that mix, as in Pig
    c = 0.5 + 0.05 * rng.random((na, nb))
    p, q = rng.uniform(0.1, 0.9, na), rng.uniform(0.1, 0.9, nb)
    d = np.outer(p, q)
    calls = []

    def row(a):
        calls.append(a)
        return c[a]

    a0, b0 = int(rng.integers(na)), int(rng.integers(nb))
    sol = solve_with_oracles(row, lambda b: c[:, b], p, q, {a0: c[a0]}, {b0: c[:, b0]})
    assert sol.upper - sol.lower <= 1e-13
    assert sol.lower <= sol.value <= sol.upper
    assert sol.value == pytest.approx(solve_stage(c, d)[0], abs=1e-12)
    lo, hi = _bounds(c, d, sol.x, sol.y)
    assert hi - lo <= 1e-13
    assert len(set(calls)) == len(calls)  # no row is computed twice
