"""Published numbers, with their sources (the claims report has all of them)."""

import pytest

from pigtheory import Rules, hold_at
from pigtheory.sequential import base_pace_race, compare, pace_race, scoring_turns, solve


@pytest.fixture(scope="module")
def optimal():
    return solve(rules=Rules())


@pytest.mark.parametrize(
    "policy, advantage, tol",
    [
        (hold_at(25), 0.042, 5e-4),  # Neller & Presser, slides "Hold at n"
        (hold_at(20), 0.080, 5e-4),
        (scoring_turns(4), 0.033, 5e-4),  # slides "t Scoring Turns"
        (base_pace_race(19, 14, 31), 0.019, 5e-4),  # slides "Score Base, Keep Pace, End Race"
        (pace_race(21, 8, 29), 0.00922, 5e-6),  # slides "Keep Pace and End Race"
    ],
    ids=str,
)
def test_neller_presser_advantages(optimal, policy, advantage, tol):
    c = compare(optimal, policy, rules=Rules())
    assert 2 * c.average - 1 == pytest.approx(advantage, abs=tol)


@pytest.mark.slow
def test_zhu_ma_two_dice_hold_at_23():
    # Zhu & Ma, Stats 5 (2022), Table A1 (goal 100) and Table A2 (hold at 23)
    rules = Rules(dice=2)
    opt = solve(rules=rules)
    assert opt.first_player_win == pytest.approx(0.5196, abs=5e-5)
    c = compare(opt, hold_at(23), rules=rules)
    assert (c.first, c.second, c.average) == pytest.approx((0.5444, 0.5061, 0.5253), abs=5e-4)
