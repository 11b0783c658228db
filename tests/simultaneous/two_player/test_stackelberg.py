"""Stackelberg value iteration (Algorithm 0.2): exact vs brute force, vs the equilibrium."""

from fractions import Fraction

import numpy as np
import pytest

from pigtheory import Rules, turn_total
from pigtheory.simultaneous import equilibrium, stackelberg, win_probability
from pigtheory.simultaneous.core import TIE_TOL, extended, score_levels, stage_game, terminal_values


def _brute_force(goal):
    """Leader's max-min per state from explicit turn-total pmfs, in exact rationals."""
    v = {}

    def val(i, j):
        if i >= goal and j >= goal:
            return Fraction(1, 2)
        if i >= goal:
            return Fraction(1)
        if j >= goal:
            return Fraction(0)
        return v[i, j]

    for d in range(2 * goal - 2, -1, -1):
        for i in range(max(0, d - goal + 1), min(d, goal - 1) + 1):
            j = d - i
            best = None
            for a in range(1, goal - i + 1):
                worst = None
                for b in range(1, goal - j + 1):
                    pa, pb = turn_total(a, exact=True).pmf, turn_total(b, exact=True).pmf
                    rest = sum(
                        (p * q * val(i + x, j + y) for x, p in pa.items() for y, q in pb.items() if x or y),
                        start=Fraction(0),
                    )
                    w = rest / (1 - pa[0] * pb[0])
                    worst = w if worst is None else min(worst, w)
                best = worst if best is None else max(best, worst)
            v[i, j] = best
    return v


def test_exact_agrees_with_brute_force_in_rationals():
    goal = 6
    st = stackelberg(rules=Rules(goal=goal))
    bf = _brute_force(goal)
    for (i, j), w in bf.items():
        assert st.value[i, j] == pytest.approx(float(w), abs=1e-14)


def test_leader_value_between_pure_maximin_and_equilibrium():
    rules = Rules(goal=48)
    st, eq = stackelberg(rules=rules), equilibrium(rules=rules)
    g = rules.goal
    assert np.all(st.value[:g, :g] <= eq.value[:g, :g] + 1e-12)
    pure = np.ones((g, g), dtype=bool)
    for s in eq.mixed_states:
        pure[s] = False
    np.testing.assert_allclose(st.value[:g, :g][pure], eq.value[:g, :g][pure], atol=1e-12)
    # where the equilibrium mixes, committing to a pure threshold costs the leader something
    assert all(st.value[s] < eq.value[s] for s in eq.mixed_states)
    assert st.leader_value + st.follower_value == pytest.approx(1.0, abs=1e-15)


def test_value_is_what_the_two_policies_get():
    rules = Rules(goal=48)
    st = stackelberg(rules=rules)
    wp = win_probability(st.leader_policy, st.follower_policy, rules=rules)
    np.testing.assert_allclose(wp, st.value, atol=1e-12)
    diff = st.follower_policy - st.leader_policy
    assert st.differing_states == tuple(map(tuple, np.argwhere(diff != 0).tolist()))


def test_paper_iteration_converges_to_the_exact_solution():
    rules = Rules(goal=20)
    it = stackelberg(rules=rules, method="value_iteration", tol=1e-13)
    ex = stackelberg(rules=rules)
    assert it.residual < 1e-13
    np.testing.assert_allclose(it.value, ex.value, atol=1e-11)
    np.testing.assert_array_equal(it.leader_policy, ex.leader_policy)
    assert ex.leader_value == pytest.approx(0.5, abs=1e-13) and ex.differing_states == ()


def test_paper_iteration_is_the_per_state_stage_game_sweep_bit_for_bit():
    # the iteration writes stage_game's products out (taking the X_k matrix and the
    # double-bust products once): the same products of the same arrays, the same bits
    from pigtheory.simultaneous.two_player.stackelberg import _commit

    rules = Rules(goal=16)
    g = rules.goal
    ext = extended(terminal_values(rules), rules)
    lead = np.zeros((g, g), dtype=np.int64)
    follow = np.zeros((g, g), dtype=np.int64)
    sweeps, residual = 0, np.inf
    while residual >= 1e-12:
        residual = 0.0
        for i in range(g):
            for j in range(g):
                c, d = stage_game(ext, i, j, rules)
                v, a, b = _commit(c + ext[i, j] * d)
                residual = max(residual, abs(v - ext[i, j]))
                ext[i, j] = v
                lead[i, j], follow[i, j] = a, b
        sweeps += 1
    it = stackelberg(rules=rules, method="value_iteration", tol=1e-12)
    assert (it.iterations, it.residual) == (sweeps, residual)
    assert np.array_equal(it.value[:g, :g], ext[:g, :g])
    assert np.array_equal(it.leader_policy, lead) and np.array_equal(it.follower_policy, follow.T)


def test_bad_method():
    with pytest.raises(ValueError, match="method"):
        stackelberg(rules=Rules(goal=5), method="guess")


@pytest.mark.slow
def test_goal_100_paper_iteration_matches_exact():
    it = stackelberg(rules=Rules(), method="value_iteration", tol=1e-10)
    ex = stackelberg(rules=Rules())
    np.testing.assert_array_equal(it.leader_policy, ex.leader_policy)
    np.testing.assert_array_equal(it.follower_policy, ex.follower_policy)
    np.testing.assert_allclose(it.value, ex.value, atol=1e-9)


def _per_state_reference(rules):
    """Leader-follower backward induction state by state over dense stage games (the core's
    ``stage_game``): the reference for the batched solver."""
    g = rules.goal
    value = terminal_values(rules)
    ext = extended(value, rules)
    lead, follow = np.zeros((g, g), dtype=np.int64), np.zeros((g, g), dtype=np.int64)
    for _, (ii, jj) in score_levels(g, 2):
        for i, j in zip(ii.tolist(), jj.tolist(), strict=True):
            c, d = stage_game(ext, i, j, rules)
            w = c / (1.0 - d)
            rowmin = w.min(axis=1)
            a = int(np.argmax(rowmin >= rowmin.max() - TIE_TOL))
            b = int(np.argmax(w[a] <= w[a].min() + TIE_TOL))
            ext[i, j] = value[i, j] = w[a, b]
            lead[i, j], follow[i, j] = a + 1, b + 1
    return value, lead, follow


@pytest.mark.parametrize(
    "rules", [Rules(goal=30), Rules(goal=100), Rules.piglet(goal=40), Rules(goal=25, die_faces=4)], ids=str
)
def test_batched_induction_matches_the_per_state_reference(rules):
    """The batched solver against the dense per-state loop it replaced: the same policies at
    every state (ties and the follower's answer included), values equal to rounding."""
    v0, lead0, follow0 = _per_state_reference(rules)
    st = stackelberg(rules=rules)
    np.testing.assert_array_equal(st.leader_policy, lead0)
    np.testing.assert_array_equal(st.follower_policy, follow0.T)
    np.testing.assert_allclose(st.value, v0, rtol=0, atol=1e-14)  # measured: <= 1.4e-15
