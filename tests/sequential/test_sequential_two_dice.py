"""Two-dice Pig and Double Trouble: turn sweeps against plain value iteration, the boundary."""

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory.sequential import compare, solve, value_iteration
from pigtheory.sequential.model import roll_model
from pigtheory.sequential.two_dice import _Sweeps, solve_two_dice, turn_sweep


def test_roll_model_two_dice():
    m = roll_model(Rules(dice=2))
    total = m.p_bust + m.p_reset + sum(p for _, p in m.free + m.forced)
    assert total == 1
    assert m.p_reset * 36 == 1 and m.p_bust * 36 == 10
    dt = roll_model(Rules(dice=2, double_trouble=True))
    assert [g for g, _ in dt.forced] == [4, 6, 8, 10, 12]
    assert sum(p for _, p in dt.free) * 36 == 20


def test_turn_sweeps_agree_with_value_iteration():
    rules = Rules(goal=20, dice=2)
    a = solve(rules=rules, tol=1e-14)
    b = value_iteration(rules=rules, tol=1e-14)
    assert a.residual < 1e-14
    assert np.nanmax(np.abs(a.value - b.value)) < 1e-11
    assert np.array_equal(a.roll, b.roll)


def test_double_trouble_boundary_matches_explicit_forced_rolls():
    # Z22.6: past the goal after a double, the turn total no longer matters
    rules = Rules(goal=25, dice=2, double_trouble=True)
    a = solve_two_dice(rules=rules, tol=1e-14)
    b = solve_two_dice(rules=rules, tol=1e-14, explicit_tail=150)
    assert np.nanmax(np.abs(a.value - b.value)) < 1e-12
    assert np.array_equal(a.roll, b.roll)
    assert a.value.shape == (25, 25, 25, 2)
    assert np.all(a.roll[:, :, 1:, 1][~np.isnan(a.value[:, :, 1:, 1])])


def test_double_trouble_equations_hold():
    rules = Rules(goal=16, dice=2, double_trouble=True)
    sol = solve(rules=rules, tol=1e-14)
    v = sol.value
    g = rules.goal
    v0 = v[:, :, 0, 0]
    i, j, k = 3, 5, 6
    boundary = (20 + 10 * (1 - v0[j, i]) + (1 - v0[j, 0])) / 31

    def p(kk, ll):
        if i + kk >= g:
            return 1.0 if ll == 0 else boundary
        return v[i, j, kk, ll]

    roll = (10 * (1 - v0[j, i]) + (1 - v0[j, 0])) / 36
    for a in range(2, 7):
        for b in range(2, 7):
            roll += p(k + a + b, 1 if a == b else 0) / 36
    hold = 1 - v0[j, i + k]
    assert v[i, j, k, 0] == pytest.approx(max(hold, roll), abs=1e-12)
    assert v[i, j, k, 1] == pytest.approx(roll, abs=1e-12)


def test_two_dice_compare_and_best_response():
    rules = Rules(goal=30, dice=2, double_trouble=True)
    opt = solve(rules=rules, tol=1e-13)
    c = compare(opt, opt, rules=rules)
    assert c.first == pytest.approx(opt.first_player_win, abs=1e-10)
    assert c.first + c.second == pytest.approx(1, abs=1e-10)
    for n in (5, 10, 15, 20):
        assert compare(opt, hold_at(n), rules=rules).average > 0.5
        assert compare(hold_at(n), opt, rules=rules).first <= opt.first_player_win + 1e-10


def test_validation():
    with pytest.raises(ValueError, match="dice"):
        solve_two_dice(rules=Rules(goal=10))
    with pytest.raises(ValueError, match="tol"):
        solve(rules=Rules(goal=10, dice=2), tol=-1)


ENGINE_CASES = [
    (Rules(goal=21, dice=2), 0),
    (Rules(goal=17, dice=2, double_trouble=True), 0),
    (Rules(goal=17, dice=2, double_trouble=True), 23),
    (Rules(goal=11, dice=2, die_faces=4), 0),
]


@pytest.mark.parametrize(("rules", "tail"), ENGINE_CASES)
def test_the_compiled_sweep_gives_the_numpy_sweeps_bits(rules, tail):
    # the kernel does the numpy engine's elementwise steps after the same numpy sums: every
    # value, choice, sweep count and residual is the same to the bit, whichever path a turn
    # total takes (the finished rows, turn total 0, a tail, the full sweep)
    rng = np.random.default_rng(rules.goal + tail)
    v = rng.random((rules.goal, rules.goal))
    a = turn_sweep(v, rules, full=True, explicit_tail=tail, engine="numpy")
    b = turn_sweep(v, rules, full=True, explicit_tail=tail, engine="numba")
    assert np.array_equal(a[0], b[0])
    for x, y in zip(a[1], b[1], strict=True):
        assert (x is None and y is None) or np.array_equal(x, y)
    assert np.array_equal(turn_sweep(v, rules, explicit_tail=tail, engine="numba"), a[0])
    s = solve_two_dice(rules=rules, tol=1e-13, explicit_tail=tail, engine="numpy")
    t = solve_two_dice(rules=rules, tol=1e-13, explicit_tail=tail, engine="numba")
    assert (s.iterations, s.residual) == (t.iterations, t.residual)
    assert np.array_equal(s.value, t.value, equal_nan=True) and np.array_equal(s.roll, t.roll)
    # the solve keeps its work arrays from sweep to sweep: five sweeps that way give the bits
    # of five sweeps each from scratch
    for engine in ("numpy", "numba"):
        kept, fresh = _Sweeps(rules, tail, engine), v
        w = v
        for _ in range(5):
            w, fresh = kept(w, False), turn_sweep(fresh, rules, explicit_tail=tail, engine=engine)
            assert np.array_equal(w, fresh)


def test_two_dice_engine_is_checked():
    with pytest.raises(ValueError, match="engine"):
        solve_two_dice(rules=Rules(goal=10, dice=2), engine="gpu")
