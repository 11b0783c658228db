"""X_k, the points of a hold-at-k turn: the paper's worked example, Table 2, exactness, Monte Carlo.

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), "Distribution calculation", eq. (11),
Table 1 (the recursion) and Table 2 (X_20..X_25, X_100).
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pigtheory import Rules, turn_total, turn_total_table
from pigtheory.simulate import turn_totals

F = Fraction

# Table 2 as printed: P(X_k = 0), P(X_k = k), ..., P(X_k = k + 5).
TABLE_2 = {
    20: [0.6245, 0.0997, 0.0950, 0.0742, 0.0542, 0.0352, 0.0172],
    21: [0.6412, 0.0950, 0.0908, 0.0708, 0.0518, 0.0338, 0.0166],
    22: [0.6570, 0.0908, 0.0866, 0.0676, 0.0496, 0.0325, 0.0158],
    23: [0.6721, 0.0866, 0.0828, 0.0648, 0.0476, 0.0310, 0.0151],
    24: [0.6866, 0.0828, 0.0792, 0.0620, 0.0454, 0.0296, 0.0144],
    25: [0.7004, 0.0792, 0.0758, 0.0592, 0.0434, 0.0282, 0.0138],
    100: [0.9898, 0.0027, 0.0026, 0.0020, 0.0015, 0.0010, 0.0005],
}

DICE = [
    Rules(),
    Rules(die_faces=4),
    Rules(die_faces=8),
    Rules(die_faces=6, bust_face=6),
    Rules.piglet(),
    Rules(dice=2),
    Rules(die_faces=3, face_points=(5, 7)),
]


def test_x3_is_the_papers_worked_example():
    pmf = turn_total(3, exact=True).pmf
    assert pmf == {0: F(7, 36), 3: F(1, 6), 4: F(7, 36), 5: F(7, 36), 6: F(7, 36), 7: F(1, 36), 8: F(1, 36)}
    assert all(isinstance(p, Fraction) for p in pmf.values())


def test_x1_and_x2():
    sixth = F(1, 6)
    assert turn_total(1, exact=True).pmf == {0: sixth, 2: sixth, 3: sixth, 4: sixth, 5: sixth, 6: sixth}
    assert turn_total(2, exact=True).pmf == turn_total(1, exact=True).pmf


def _table1_recursion(k_max):
    """Eq. (11) / Table 1 literally: X_{k+1} from X_k, one six-sided die, as dicts."""
    x = {0: F(1, 6), 1: F(0), 2: F(1, 6), 3: F(1, 6), 4: F(1, 6), 5: F(1, 6), 6: F(1, 6)}
    out = {1: x}
    for k in range(1, k_max):
        p_k = x.get(k, F(0))
        nxt = {0: x[0] + p_k / 6, k + 1: x.get(k + 1, F(0))}
        for i in range(k + 2, k + 6):
            nxt[i] = x.get(i, F(0)) + p_k / 6
        nxt[k + 6] = p_k / 6
        x = nxt
        out[k + 1] = x
    return out


def test_agrees_with_table1_recursion():
    for k, x in _table1_recursion(40).items():
        assert turn_total(k, exact=True).pmf == {g: p for g, p in x.items() if p}


@pytest.mark.parametrize("rules", DICE, ids=str)
def test_exact_sums_to_one(rules):
    for k in (1, 2, 3, 7, 20, 41):
        t = turn_total(k, rules=rules, exact=True)
        assert sum(t.probs, F(0)) == 1
        assert t.support[0] == 0 or rules.p_bust == 0
        assert all(k <= g < k + rules.max_roll for g in t.support[1:])


@pytest.mark.parametrize("k", sorted(TABLE_2))
def test_table_2_within_half_a_unit_of_the_last_digit(k):
    t = turn_total_table()
    ours = np.concatenate([[t.bust[k]], t.band[k]])
    np.testing.assert_allclose(ours, TABLE_2[k], rtol=0, atol=5e-5)


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(die_faces=4), Rules.piglet(goal=100), Rules(dice=2)], ids=str
)
def test_float_table_matches_exact(rules):
    table = turn_total_table(rules)
    width = table.width
    for k in range(1, rules.goal + 1):
        pmf = turn_total(k, rules=rules, exact=True).pmf
        exact = np.array([float(pmf.get(0, 0))] + [float(pmf.get(k + r, 0)) for r in range(width)])
        got = np.concatenate([[table.bust[k]], table.band[k]])
        np.testing.assert_allclose(got, exact, rtol=0, atol=1e-15)


def test_table_rows_sum_to_one_and_are_read_only():
    t = turn_total_table()
    np.testing.assert_allclose(t.bust + t.band.sum(axis=1), 1.0, atol=1e-15)
    assert t.bust[0] == 1.0 and not t.bust.flags.writeable and not t.band.flags.writeable
    assert turn_total_table() is t  # built once per Rules


def test_float_distribution_beyond_goal():
    # k above the rules' goal still works (the table is rebuilt with a larger goal).
    assert turn_total(150, rules=Rules(goal=100)).pmf[0] == pytest.approx(
        float(turn_total(150, exact=True).pmf[0])
    )


def test_mean_of_x1():
    assert turn_total(1, exact=True).mean() == F(20, 6)


@pytest.mark.parametrize("k", [25, 100])
def test_monte_carlo_million_turns_within_4_se(k):
    n = 10**6
    x = turn_totals(k, n, rng=20230101 + k)
    pmf = turn_total(k).pmf
    for gain, p in pmf.items():
        freq = np.count_nonzero(x == gain) / n
        se = np.sqrt(p * (1 - p) / n)
        assert abs(freq - p) < 4 * se, (gain, freq, p)
    assert set(np.unique(x).tolist()) <= set(pmf)


@pytest.mark.parametrize("rules", [Rules.piglet(), Rules(dice=2), Rules(die_faces=4, bust_face=2)], ids=str)
def test_monte_carlo_other_dice(rules):
    n, k = 200_000, 9
    x = turn_totals(k, n, rules=rules, rng=7)
    for gain, p in turn_total(k, rules=rules).pmf.items():
        se = np.sqrt(p * (1 - p) / n)
        assert abs(np.count_nonzero(x == gain) / n - p) < 4 * se


@pytest.mark.parametrize("k", [0, -3, 2.0, True, "3"])
def test_bad_k(k):
    with pytest.raises(ValueError, match="k must be"):
        turn_total(k)


def test_double_trouble_is_refused():
    with pytest.raises(ValueError, match="Double Trouble"):
        turn_total(5, rules=Rules(dice=2, double_trouble=True))
    with pytest.raises(ValueError, match="Double Trouble"):
        turn_total_table(Rules(dice=2, double_trouble=True))


@settings(max_examples=40, deadline=None)
@given(faces=st.integers(2, 9), bust=st.integers(1, 9), k=st.integers(1, 30))
def test_property_exact_distribution(faces, bust, k):
    rules = Rules(die_faces=faces, bust_face=min(bust, faces))
    t = turn_total(k, rules=rules, exact=True)
    assert sum(t.probs, F(0)) == 1
    assert all(0 < p <= 1 for p in t.probs)
    # A higher threshold busts at least as often.
    assert turn_total(k + 1, rules=rules, exact=True).pmf[0] >= t.pmf[0]
