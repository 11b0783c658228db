"""One-die sequential Pig and Piglet: exact rationals, value iteration, policy shape."""

from fractions import Fraction

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.sequential import solve, solve_exact, value_iteration
from pigtheory.sequential.model import roll_model


def test_piglet_goal_2_hand_computed():
    # Solving Neller's six equations by hand (every state flips):
    # P110 = 2/3, P100 = 4/5, P010 = 2/5, P011 = 3/5, P000 = 4/7, P001 = 5/7.
    v = solve_exact(rules=Rules.piglet(goal=2))
    expected = {
        (1, 1, 0): Fraction(2, 3),
        (1, 0, 0): Fraction(4, 5),
        (0, 1, 0): Fraction(2, 5),
        (0, 1, 1): Fraction(3, 5),
        (0, 0, 0): Fraction(4, 7),
        (0, 0, 1): Fraction(5, 7),
    }
    assert v == expected
    sol = solve(rules=Rules.piglet(goal=2))
    assert sol.roll[sol.roll.shape[0] - 1, 0, 0]
    live = ~np.isnan(sol.value)
    assert np.all(sol.roll[live])  # N.2: always flip
    for key, p in expected.items():
        assert sol.value[key] == pytest.approx(float(p), abs=1e-15)


def _bellman_exact(v, rules):
    g = rules.goal
    model = roll_model(rules)

    def p(i, j, k):
        return Fraction(1) if i + k >= g else v[i, j, k]

    for (i, j, k), val in v.items():
        hold = 1 - (v[j, i + k, 0] if i + k < g else 0)
        roll = model.p_bust * (1 - v[j, i, 0]) + sum(q * p(i, j, k + gain) for gain, q in model.free)
        assert val == max(hold, roll), (i, j, k)


@pytest.mark.parametrize("rules", [Rules.piglet(goal=3), Rules.piglet(goal=5), Rules(goal=4)])
def test_exact_rationals_solve_the_equations(rules):
    v = solve_exact(rules=rules)
    _bellman_exact(v, rules)
    sol = solve(rules=rules)
    for key, p in v.items():
        assert sol.value[key] == pytest.approx(float(p), abs=1e-14)


def test_piglet_goal_3_hand_computed():
    # By hand, every state flips: P220 = (1 - P220)/2 + 1/2 = 2/3; with x = P210, y = P120:
    # x = (1 - y)/2 + 1/2 and y = (1 - x)/2 + P121/2, P121 = (1 - x)/2 + 1/2 (> hold 1/3),
    # so x = 4/5, y = 2/5, P121 = 3/5.
    v = solve_exact(rules=Rules.piglet(goal=3))
    assert v[2, 2, 0] == Fraction(2, 3)
    assert (v[2, 1, 0], v[1, 2, 0], v[1, 2, 1]) == (Fraction(4, 5), Fraction(2, 5), Fraction(3, 5))
    assert v[0, 0, 0] == Fraction(6, 11)


@pytest.mark.parametrize("rules", [Rules(goal=10), Rules(goal=25), Rules.piglet(goal=10)])
def test_exact_solver_agrees_with_value_iteration(rules):
    a = solve(rules=rules)
    b = value_iteration(rules=rules, tol=1e-14)
    assert np.array_equal(np.isnan(a.value), np.isnan(b.value))
    assert np.nanmax(np.abs(a.value - b.value)) < 1e-11
    assert np.array_equal(a.roll, b.roll)
    assert a.residual < 1e-12


def test_goal_100_first_player_and_non_threshold_policy():
    sol = solve(rules=Rules())
    # N.4: Neller & Presser's 0.5306
    assert sol.first_player_win == pytest.approx(0.5306, abs=5e-5)
    # At (0, 57) the optimal player holds at 29 but, past it, would roll again at 98:
    # the policy is not a threshold in the turn total.
    row = sol.roll[0, 57]
    assert row[28] and not row[29] and row[98]
    # the roll at (0, 57, 98) beats holding by a clear margin
    v = sol.value
    hold = 1 - v[57, 98, 0]
    roll = (1 / 6) * (1 - v[57, 0, 0]) + 5 / 6
    assert roll > hold + 1e-3
    # and the table satisfies the equations there
    assert v[0, 57, 98] == pytest.approx(max(hold, roll), abs=1e-14)


def test_symmetry_and_bounds():
    sol = solve(rules=Rules(goal=40))
    v = sol.value
    live = ~np.isnan(v)
    assert np.all((v[live] >= 0) & (v[live] <= 1))
    # more own score is never worse at the start of a turn
    v0 = v[:, :, 0]
    assert np.all(np.diff(v0, axis=0) >= -1e-12)
    assert np.all(np.diff(v0, axis=1) <= 1e-12)


def test_validation():
    with pytest.raises(ValueError, match="players"):
        solve(rules=Rules(players=3))
    with pytest.raises(ValueError, match="tol"):
        value_iteration(rules=Rules(goal=5), tol=0)
    with pytest.raises(ValueError, match="goal"):
        solve_exact(rules=Rules(goal=50))
