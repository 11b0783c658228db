"""Game length in turns: exact chains against closed forms and the simulator."""

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory.length import game_length, single_player
from pigtheory.sequential import compare, solve
from pigtheory.sequential.play import play


def test_single_player_geometric():
    # Piglet, goal 3, hold at 3: a turn succeeds with probability 1/8 -> geometric
    d = single_player(3, rules=Rules.piglet(goal=3))
    t = np.arange(1, 40)
    assert np.allclose(d.pmf[1:40], (7 / 8) ** (t - 1) / 8, atol=1e-15)
    assert d.mean == pytest.approx(8.0, abs=1e-10)
    assert d.variance == pytest.approx((1 - 1 / 8) / (1 / 8) ** 2, abs=1e-8)


def test_pmf_sums_to_one_and_first_wins_matches_compare():
    for rules, n in (
        (Rules(goal=40), 12),
        (Rules(goal=40, dice=2), 10),
        (Rules(goal=30, dice=2, double_trouble=True), 9),
    ):
        d = game_length(hold_at(n), hold_at(n + 3), rules=rules)
        assert d.pmf.sum() + d.tail == pytest.approx(1.0, abs=1e-12)
        c = compare(hold_at(n), hold_at(n + 3), rules=rules)
        assert d.first_wins == pytest.approx(c.first, abs=1e-9)


@pytest.mark.parametrize(
    "rules", [Rules(goal=50), Rules(goal=50, dice=2), Rules(goal=40, dice=2, double_trouble=True)], ids=str
)
def test_mean_turns_against_simulator(rules):
    opt = solve(rules=rules)
    d = game_length(opt, hold_at(12), rules=rules)
    games = play(opt, hold_at(12), rules=rules, games=20_000, rng=2024)
    mean, se = games.mean_turns
    assert abs(mean - d.mean) < 4 * se
    p, se_p = games.first_win_rate
    assert abs(p - d.first_wins) < 4 * se_p


def test_single_player_against_simulator():
    rules = Rules(goal=60, dice=2)
    d = single_player(15, rules=rules)
    games = play(hold_at(15), np.zeros((60, 60, 60), dtype=bool), rules=rules, games=20_000, rng=7)
    # the opponent never rolls (passes at 0), so A's turns are the odd ones
    a_turns = (games.turns + 1) // 2
    se = a_turns.std(ddof=1) / np.sqrt(a_turns.size)
    assert abs(a_turns.mean() - d.mean) < 4 * se


def test_validation():
    with pytest.raises(ValueError, match="tol"):
        single_player(20, tol=0)
    with pytest.raises(ValueError, match="n must"):
        single_player(0)
    with pytest.raises(ValueError, match="games"):
        play(hold_at(3), hold_at(3), rules=Rules(goal=5), games=0)


def test_stopping_at_max_turns_warns_and_keeps_the_tail():
    from pigtheory.validation import ConvergenceWarning

    rules = Rules(goal=20)
    with pytest.warns(ConvergenceWarning, match="max_turns"):
        cut = single_player(20, rules=rules, max_turns=3)
    full = single_player(20, rules=rules)
    # the first turns agree, and what is not in the pmf is the tail
    assert np.allclose(cut.pmf, full.pmf[: cut.pmf.size], atol=1e-15)
    assert cut.tail == pytest.approx(1 - cut.pmf.sum(), abs=1e-12) and cut.tail > 0.1
    with pytest.warns(ConvergenceWarning):
        game_length(hold_at(5), hold_at(5), rules=rules, max_turns=2)
