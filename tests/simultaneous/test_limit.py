"""limit(): n - 1 players holding at the goal, the remaining player's best response."""

from fractions import Fraction

import numpy as np
import pytest

from pigtheory import Rules, hold_at, turn_total
from pigtheory.simultaneous import best_response, win_probability
from pigtheory.simultaneous.limit import limit


@pytest.mark.parametrize("players", [2, 3, 4])
def test_agrees_with_direct_best_response(players):
    goal = 7
    rules = Rules(goal=goal, players=players)
    direct = best_response([hold_at(goal)] * (players - 1), rules=rules)
    res = limit(n_max=5, rules=Rules(goal=goal))
    row = res.row(players)
    np.testing.assert_allclose(
        res.value[row], direct.value[(slice(0, goal),) + (0,) * (players - 1)], atol=1e-13
    )
    np.testing.assert_array_equal(res.policy[row], direct.policy[(slice(None),) + (0,) * (players - 1)])


def test_hold_at_goal_is_worth_one_over_n_and_deviation_is_consistent():
    res = limit(n_max=300)
    # Where no deviation pays, the best response value is 1/n (holding at the goal).
    quiet = res.deviation_value <= res.hold_value
    np.testing.assert_allclose(res.value[quiet, 0], res.hold_value[quiet], rtol=1e-12)
    np.testing.assert_allclose(res.value[:, 0], np.maximum(res.deviation_value, res.hold_value), rtol=1e-12)
    assert np.all(res.policy[quiet, 0] == 100)


def test_hold_value_matches_the_evaluator():
    goal, n = 6, 3
    v = win_probability(hold_at(goal), [hold_at(goal)] * (n - 1), rules=Rules(goal=goal, players=n))
    assert v[0, 0, 0] == pytest.approx(1 / n, abs=1e-14)


def test_p_finish_is_exact():
    exact = 1 - turn_total(100, exact=True).pmf[0]
    assert float(exact) == pytest.approx(limit(n_max=2).p_finish, rel=1e-12)
    assert Fraction(exact) > Fraction(1, 99)  # the paper's "1/99 < 1.02%"


def test_smallest_n_is_where_deviations_stop_paying():
    res = limit(n_max=200)
    assert res.smallest_n is not None
    k = res.row(res.smallest_n)
    assert np.all(res.deviation_value[k:] <= res.hold_value[k:] + 1e-13)
    assert res.deviation_value[k - 1] > res.hold_value[k - 1]


def test_none_when_deviation_still_pays():
    assert limit(n_max=10).smallest_n is None


@pytest.mark.parametrize("bad", [1, 0, -3, 2.5, True])
def test_bad_n_max(bad):
    with pytest.raises(ValueError, match="n_max"):
        limit(n_max=bad)


def test_bad_rules():
    with pytest.raises(ValueError, match="rules"):
        limit(rules=Rules(dice=2))


def test_cli_limit(capsys):
    from pigtheory.cli import main

    assert main(["limit", "--n-max", "70", "--show", "58", "59"]) == 0
    out = capsys.readouterr().out
    assert "smallest n from which nobody gains by deviating (n <= 70): 59" in out
    assert main(["limit", "--n-max", "1"]) == 2
