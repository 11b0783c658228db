"""Policy comparison (Algorithm 1, exact) and the practical policies."""

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory.sequential import base_pace_race, compare, pace_race, roll_table, scoring_turns, solve
from pigtheory.sequential.turns import turn_matrix


@pytest.mark.parametrize("rules", [Rules(goal=30), Rules.piglet(goal=8), Rules(goal=30, dice=2)])
def test_same_policy_first_plus_second_is_one(rules):
    for pol in (hold_at(4), hold_at(11)):
        c = compare(pol, pol, rules=rules)
        assert c.first + c.second == pytest.approx(1.0, abs=1e-12)
        assert c.average == pytest.approx(0.5, abs=1e-12)


def test_turn_matrix_rows_sum_to_one():
    for rules in (Rules(goal=20), Rules(goal=20, dice=2), Rules(goal=20, dice=2, double_trouble=True)):
        t = turn_matrix(roll_table(hold_at(9), rules), rules)
        assert np.allclose(t.sum(axis=2), 1.0, atol=1e-12)
        assert np.all(t >= 0)


def test_optimal_beats_every_hold_at():
    rules = Rules(goal=40)
    opt = solve(rules=rules)
    assert compare(opt, opt, rules=rules).first == pytest.approx(opt.first_player_win, abs=1e-13)
    for n in range(1, 41, 3):
        c = compare(opt, hold_at(n), rules=rules)
        assert c.average > 0.5
        # zero-sum: deviating from optimal against optimal never gains, first or second
        dev = compare(hold_at(n), opt, rules=rules)
        assert dev.first <= opt.first_player_win + 1e-12
        assert dev.second <= 1 - opt.first_player_win + 1e-12


def test_exact_compare_agrees_with_iteration_for_one_die():
    rules = Rules(goal=30)
    exact = compare(hold_at(8), hold_at(13), rules=rules)
    it = compare(hold_at(8), hold_at(13), rules=rules, method="value_iteration", tol=1e-14)
    assert it.residual < 1e-14 and it.iterations > 1 and it.method == "value_iteration"
    assert exact.method == "exact" and exact.iterations == 2 * rules.goal - 1
    assert np.max(np.abs(it.value_a - exact.value_a)) < 1e-12
    assert np.max(np.abs(it.value_b - exact.value_b)) < 1e-12


def test_counter_policy_order_does_not_matter():
    rules = Rules(goal=30)
    a = compare(scoring_turns(3), hold_at(10), rules=rules)
    b = compare(hold_at(10), scoring_turns(3), rules=rules)
    assert a.first == pytest.approx(1 - b.second, abs=1e-13)
    assert a.second == pytest.approx(1 - b.first, abs=1e-13)


def test_practical_policy_rules():
    r = Rules()
    t = pace_race().roll_table(r)[0]
    # difference 12 -> nearest multiple of 8 is 16 -> hold at 23; 4 -> halfway: the greater 8
    assert t[50, 62, 22] and not t[50, 62, 23]
    assert t[50, 54, 21] and not t[50, 54, 22]
    assert t[10, 71, 80]  # the opponent is within 29 of the goal: roll for it
    b = base_pace_race().roll_table(r)[0]
    assert b[0, 0, 18] and not b[0, 0, 19]
    assert b[10, 40, 15] and not b[10, 50, 27] and b[10, 50, 25]
    s = scoring_turns(4).roll_table(r)
    assert s.shape == (4, 100, 100, 100)
    assert s[0, 0, 0, 24] and not s[0, 0, 0, 25]
    assert s[3, 40, 0, 59] and not s[2, 40, 0, 30]  # the last turn goes for the goal


def test_bad_policies():
    with pytest.raises(ValueError, match="shape"):
        compare(np.zeros((3, 3, 3), dtype=bool), hold_at(3), rules=Rules(goal=5))
    with pytest.raises(ValueError, match="counter"):
        compare(scoring_turns(2), scoring_turns(3), rules=Rules(goal=10))
    with pytest.raises(ValueError, match="integer"):
        pace_race(d=0)
