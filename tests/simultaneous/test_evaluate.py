"""Exact win probabilities of fixed policies in simultaneous Pig.

Small goals are checked against rationals derived here from first principles (turns enumerated
roll by roll, the game's linear equations solved with sympy), independently of the solver.
"""

from fractions import Fraction
from itertools import product

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from pigtheory import MixedPolicy, Rules, hold_at
from pigtheory.simulate import play_simultaneous as simulate_games
from pigtheory.simultaneous import win_probabilities, win_probability

F = Fraction


def _turn(k, room):
    """Exact distribution of a hold-at-k turn's points, clipped to ``room``, rolling a d6."""
    dist: dict[int, Fraction] = {}

    def roll(total, p):
        if total >= k:
            dist[min(total, room)] = dist.get(min(total, room), F(0)) + p
            return
        dist[0] = dist.get(0, F(0)) + p / 6
        for face in range(2, 7):
            roll(total + face, p / 6)

    roll(0, F(1))
    return dist


def _exact_two_player(table_a, table_b, goal):
    """A's win probability at every non-terminal state, as sympy Rationals.

    ``table_x[own][other]`` is the threshold; one linear equation per state.
    """
    V = {s: sympy.Symbol(f"v_{s[0]}_{s[1]}") for s in product(range(goal), repeat=2)}

    def value(i, j):
        if i >= goal:
            return sympy.Rational(1, 2) if j >= goal else sympy.Integer(1)
        return sympy.Integer(0) if j >= goal else V[(i, j)]

    eqs = []
    for i, j in V:
        da = _turn(table_a[i][j], goal - i)
        db = _turn(table_b[j][i], goal - j)
        rhs = sum(
            sympy.Rational(pa.numerator, pa.denominator)
            * sympy.Rational(pb.numerator, pb.denominator)
            * value(i + ga, j + gb)
            for (ga, pa), (gb, pb) in product(da.items(), db.items())
        )
        eqs.append(sympy.Eq(V[(i, j)], rhs))
    sol = sympy.solve(eqs, list(V.values()), dict=True)[0]
    return {s: sol[v] for s, v in V.items()}


def _hold(n, goal):
    return [[min(n, goal - i)] * goal for i in range(goal)]


def test_goal_2_is_a_coin_flip_whatever_the_policies():
    # Goal 2: every scoring roll reaches the goal, so both players reach it with 5/6 per turn.
    v = win_probability(hold_at(1), hold_at(2), rules=Rules(goal=2))
    assert v[0, 0] == pytest.approx(0.5, abs=1e-15)
    assert v[1, 0] == pytest.approx(float(F(5, 6) * (F(1, 6) + F(5, 12)) / (1 - F(1, 36))), abs=1e-15)


def test_goal_3_hand_computed():
    # A holds at 1, B at 3 (Rules(goal=3)). B's turn from 0: bust 1/6 + (roll 2, then 1) 1/36 = 7/36,
    # else the goal. A from 0: bust 1/6, score 2 w.p. 1/6, goal 4/6; from 2: goal 5/6.
    # V(2,0) = 5/6 (7/36 + 29/72) / (1 - 7/216) = 215/418;
    # V(0,0) = (4/6 * 43/72 + 7/216 * V(2,0)) / (1 - 7/216) = 37453/87362.
    v = win_probability(hold_at(1), hold_at(3), rules=Rules(goal=3))
    assert v[2, 0] == pytest.approx(215 / 418, abs=1e-15)
    assert v[0, 0] == pytest.approx(37453 / 87362, abs=1e-15)


@pytest.mark.parametrize("goal", [2, 3, 4])
def test_small_goals_equal_first_principles_rationals(goal):
    for na, nb in product(range(1, goal + 1), repeat=2):
        exact = _exact_two_player(_hold(na, goal), _hold(nb, goal), goal)
        v = win_probability(hold_at(na), hold_at(nb), rules=Rules(goal=goal))
        for (i, j), x in exact.items():
            assert v[i, j] == pytest.approx(float(x), abs=1e-14), (na, nb, i, j)


def test_goal_3_exact_value_is_the_hand_computed_rational():
    exact = _exact_two_player(_hold(1, 3), _hold(3, 3), 3)
    assert exact[(0, 0)] == sympy.Rational(37453, 87362)


def test_state_dependent_table_goal_4():
    # An irregular pure policy: thresholds depend on both scores.
    ta = [[(i + 2 * j) % (4 - i) + 1 for j in range(4)] for i in range(4)]
    tb = [[(3 * i + j) % (4 - i) + 1 for j in range(4)] for i in range(4)]
    exact = _exact_two_player(ta, tb, 4)
    v = win_probability(np.array(ta), np.array(tb), rules=Rules(goal=4))
    for (i, j), x in exact.items():
        assert v[i, j] == pytest.approx(float(x), abs=1e-14)


def test_terminal_values():
    v = win_probability(hold_at(5), hold_at(7), rules=Rules(goal=10))
    assert v[10, 10] == 0.5 and np.all(v[10, :10] == 1) and np.all(v[:10, 10] == 0)
    assert not v.flags.writeable


@pytest.mark.parametrize("goal", [30, 100])
def test_policy_against_itself_is_symmetric(goal):
    v = win_probability(hold_at(20), hold_at(20), rules=Rules(goal=goal))
    np.testing.assert_allclose(v + v.T, 1.0, atol=1e-12)


def test_mixed_policy_against_itself_is_symmetric():
    r = Rules(goal=40)
    mixed = MixedPolicy.of([(hold_at(10), 0.3), (hold_at(25), 0.7)], r)
    v = win_probability(mixed, mixed, rules=r)
    np.testing.assert_allclose(v + v.T, 1.0, atol=1e-12)


def test_monte_carlo_agrees_at_the_start():
    v = win_probability(hold_at(25), hold_at(20))
    sim = simulate_games([hold_at(25), hold_at(20)], games=200_000, rng=2023)
    assert abs(sim.wins[0] - v[0, 0]) < 4 * sim.stderr[0]


def test_monte_carlo_agrees_for_a_mixed_policy():
    r = Rules(goal=30)
    mixed = MixedPolicy.of([(hold_at(4), 0.5), (hold_at(20), 0.5)], r)
    v = win_probability(mixed, hold_at(10), rules=r)
    sim = simulate_games([mixed, hold_at(10)], rules=r, games=100_000, rng=5)
    assert abs(sim.wins[0] - v[0, 0]) < 4 * sim.stderr[0]


def test_three_players_shares_sum_to_one():
    r = Rules(goal=25, players=3)
    profile = [hold_at(8), hold_at(12), hold_at(20)]
    w = win_probabilities(profile, rules=r)
    assert w.shape == (3, 26, 26, 26)
    np.testing.assert_allclose(w.sum(axis=0), 1.0, atol=1e-12)
    sim = simulate_games(profile, rules=r, games=100_000, rng=11)
    for p in range(3):
        assert abs(sim.wins[p] - w[p, 0, 0, 0]) < 4 * sim.stderr[p]


def test_three_players_first_seat_matches_win_probability():
    r = Rules(goal=20, players=3)
    profile = [hold_at(5), hold_at(9), hold_at(14)]
    np.testing.assert_allclose(
        win_probabilities(profile, rules=r)[0], win_probability(profile[0], profile[1:], rules=r)
    )


def test_bad_profiles():
    with pytest.raises(ValueError, match="opponents"):
        win_probability(hold_at(3), hold_at(3), rules=Rules(goal=10, players=3))
    with pytest.raises(ValueError, match="rules"):
        win_probability(hold_at(3), hold_at(3), rules=Rules(goal=10, dice=2))
    with pytest.raises(ValueError, match="profile"):
        win_probabilities([hold_at(3)], rules=Rules(goal=10))


@settings(max_examples=25, deadline=None)
@given(goal=st.integers(2, 25), na=st.integers(1, 30), nb=st.integers(1, 30))
def test_property_probabilities_and_swap_symmetry(goal, na, nb):
    r = Rules(goal=goal)
    ab = win_probability(hold_at(na), hold_at(nb), rules=r)
    ba = win_probability(hold_at(nb), hold_at(na), rules=r)
    assert np.all((ab >= -1e-15) & (ab <= 1 + 1e-15))
    np.testing.assert_allclose(ab + ba.T, 1.0, atol=1e-12)


def test_wide_mixes_are_merged_by_gain_and_keep_the_exact_values():
    """A mix over every threshold lists 1 + 6 S outcomes, more than the goal + 1 gains there
    are: the evaluation merges them (``merged_outcomes``). The values still equal the exact
    rationals of the linear system with the mixed turn distributions."""
    from pigtheory.policies import as_mixture
    from pigtheory.simultaneous.evaluate import merged_outcomes

    goal = 4
    weights = [F(1, 10), F(2, 10), F(3, 10), F(4, 10)]  # thresholds 1..4 (clipped to the room)
    th = np.broadcast_to(np.arange(1, goal + 1), (goal, goal, goal)).copy()
    th = np.minimum(th, goal - np.arange(goal)[:, None, None])
    w = np.broadcast_to(np.array([float(x) for x in weights]), (goal, goal, goal)).copy()
    mix = MixedPolicy(th, w)
    gains, probs = as_mixture(mix, Rules(goal=goal)).outcomes((np.array([0, 1]), np.array([0, 2])))
    assert gains.shape[-1] == 1 + 6 * goal > goal + 1
    g2, p2 = merged_outcomes(gains, probs, goal)
    assert g2.shape == (2, goal + 1)
    for s in range(2):  # each gain's probability is the sum over the columns with that gain
        for x in range(goal + 1):
            assert p2[s, x] == pytest.approx(probs[s][gains[s] == x].sum(), abs=1e-16)
        assert p2[s, 0] == probs[s, 0]  # the bust stays column 0
    # exact values: the turn distribution is the weighted sum of the hold-at ones
    V = {s: sympy.Symbol(f"v_{s[0]}_{s[1]}") for s in product(range(goal), repeat=2)}

    def value(i, j):
        if i >= goal:
            return sympy.Rational(1, 2) if j >= goal else sympy.Integer(1)
        return sympy.Integer(0) if j >= goal else V[(i, j)]

    def turn(own):
        dist: dict[int, Fraction] = {}
        for k, wk in zip(range(1, goal + 1), weights, strict=True):
            for gain, p in _turn(min(k, goal - own), goal - own).items():
                dist[gain] = dist.get(gain, F(0)) + wk * p
        return dist

    eqs = [
        sympy.Eq(
            V[(i, j)],
            sum(
                sympy.Rational((pa * pb).numerator, (pa * pb).denominator) * value(i + ga, j + gb)
                for (ga, pa), (gb, pb) in product(turn(i).items(), turn(j).items())
            ),
        )
        for i, j in V
    ]
    exact = sympy.solve(eqs, list(V.values()), dict=True)[0]
    v = win_probability(mix, mix, rules=Rules(goal=goal))
    for (i, j), sym in V.items():
        assert v[i, j] == pytest.approx(float(exact[sym]), abs=1e-14)
