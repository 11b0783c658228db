"""Policies: hold-at-n clipping, threshold tables, mixed policies, and the outcome form."""

import numpy as np
import pytest

from pigtheory import MixedPolicy, Rules, ThresholdTable, as_mixture, hold_at, turn_total

R = Rules(goal=30)


def test_hold_at_clips_to_the_room_left():
    t = hold_at(25).table(R)
    assert t.shape == (30, 30)
    assert t[0, 0] == 25 and t[5, 17] == 25 and t[10, 3] == 20 and t[29, 0] == 1
    assert np.array_equal(t, np.minimum(25, 30 - np.arange(30))[:, None].repeat(30, axis=1))


def test_hold_at_three_players_table_shape():
    assert hold_at(5).table(Rules(goal=8, players=3)).shape == (8, 8, 8)


@pytest.mark.parametrize("n", [0, -1, 2.5, True])
def test_hold_at_bad_n(n):
    with pytest.raises(ValueError, match="n must be"):
        hold_at(n)


def test_int_and_array_are_read_as_policies():
    a = as_mixture(7, R)
    b = as_mixture(hold_at(7), R)
    c = as_mixture(hold_at(7).table(R), R)
    assert np.array_equal(a.full_thresholds(), b.full_thresholds())
    assert np.array_equal(b.full_thresholds(), c.full_thresholds())


def test_object_with_a_policy_attribute():
    class Result:
        policy = hold_at(4).table(R)

    assert np.array_equal(as_mixture(Result(), R).full_thresholds(), hold_at(4).table(R))


def test_threshold_table_out_of_range_names_the_state():
    table = hold_at(25).table(R)
    table[12, 3] = 19  # room is 18
    with pytest.raises(ValueError, match=r"thresholds.*\(12, 3\).*1\.\.18"):
        as_mixture(ThresholdTable(table), R)
    clipped = as_mixture(ThresholdTable(table, clip=True), R).full_thresholds()
    assert clipped[12, 3] == 18


def test_threshold_zero_is_rejected_even_with_clip():
    table = hold_at(3).table(R)
    table[0, 0] = 0
    with pytest.raises(ValueError, match="thresholds"):
        as_mixture(ThresholdTable(table, clip=True), R)


def test_one_dimensional_table_depends_on_own_score_only():
    mix = as_mixture(ThresholdTable(np.minimum(10, 30 - np.arange(30))), R)
    assert np.array_equal(mix.full_thresholds(), hold_at(10).table(R))


@pytest.mark.parametrize("shape", [(29, 30), (30, 30, 30), (31,)])
def test_wrong_shape_names_the_policy(shape):
    with pytest.raises(ValueError, match="policy: a threshold table"):
        as_mixture(ThresholdTable(np.ones(shape, dtype=int)), R)


def test_non_integer_table():
    with pytest.raises(ValueError, match="integers"):
        ThresholdTable(np.full((30, 30), 1.5))


def test_mixed_weights_must_sum_to_one():
    th = np.stack([hold_at(20).table(R), hold_at(10).table(R)], axis=-1)
    with pytest.raises(ValueError, match="weights"):
        as_mixture(MixedPolicy(th, np.full(th.shape, 0.4)), R)
    with pytest.raises(ValueError, match="weights"):
        as_mixture(MixedPolicy(th, np.stack([np.full((30, 30), 1.5), np.full((30, 30), -0.5)], axis=-1)), R)
    with pytest.raises(ValueError, match="shape"):
        as_mixture(MixedPolicy(th[:5], np.full(th[:5].shape, 0.5)), R)


def test_mixed_policy_outcomes_are_the_weighted_average():
    mixed = as_mixture(MixedPolicy.of([(hold_at(20), 0.25), (hold_at(8), 0.75)], R), R)
    assert not mixed.is_pure
    states = (np.array([0, 5, 15, 27]), np.array([3, 0, 29, 1]))
    gains, probs = mixed.outcomes(states)
    for s in range(4):
        ours = np.bincount(gains[s], weights=probs[s], minlength=31)
        want = np.zeros(31)
        for n, w in ((20, 0.25), (8, 0.75)):
            room = 30 - states[0][s]
            for g, p in turn_total(min(n, room)).pmf.items():
                want[min(g, room)] += w * p
        np.testing.assert_allclose(ours, want, atol=1e-15)


def test_state_dependent_weights():
    w = np.zeros((30, 30))
    w[:15] = 1.0  # hold at 20 when own score < 15, else hold at 8
    mix = as_mixture(MixedPolicy.of([(hold_at(20), w), (hold_at(8), 1 - w)], R), R)
    g, p = mix.outcomes((np.array([3, 20]), np.array([0, 0])))
    assert p[0][g[0] == 20].sum() == pytest.approx(turn_total(20).pmf[20])
    assert p[1][g[1] == 8].sum() == pytest.approx(turn_total(8).pmf[8])


def test_outcomes_conserve_probability_everywhere():
    for policy in (hold_at(25), hold_at(1), MixedPolicy.of([(hold_at(3), 0.5), (hold_at(30), 0.5)], R)):
        gains, probs = as_mixture(policy, R).outcomes()
        np.testing.assert_allclose(probs.sum(axis=-1), 1.0, atol=1e-14)
        own = np.arange(30).reshape(30, 1, 1)
        assert np.all(gains <= 30 - own) and np.all(gains >= 0)


def test_mixture_for_other_rules_is_refused():
    with pytest.raises(ValueError, match="other rules"):
        as_mixture(as_mixture(hold_at(3), R), Rules(goal=31))


def test_unreadable_policy():
    with pytest.raises(ValueError, match="cannot read"):
        as_mixture("hold at 3", R)
