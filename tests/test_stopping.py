"""Stopping rules (issue 11): outcome distributions and the optimal rule, against brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pigtheory import Rules, turn_total
from pigtheory.simultaneous.core.stopping import optimal_stopping, stopping_outcomes, threshold_rule


def _outcomes_by_sequences(roll: tuple[bool, ...], room: int, rules: Rules) -> dict[int, Fraction]:
    """The turn's gain distribution by walking every sequence of rolls (exact rationals)."""
    dist = rules.roll_distribution()
    out: dict[int, Fraction] = {}

    def walk(t: int, p: Fraction) -> None:
        if t >= room:
            out[room] = out.get(room, Fraction(0)) + p
            return
        if t > 0 and not roll[t]:
            out[t] = out.get(t, Fraction(0)) + p
            return
        for gain, q in dist.items():
            if gain == 0:
                out[0] = out.get(0, Fraction(0)) + p * q
            else:
                walk(t + gain, p * q)

    walk(0, Fraction(1))
    return out


@pytest.mark.parametrize("rules", [Rules(goal=7), Rules(goal=6, die_faces=4), Rules.piglet(goal=6)], ids=str)
def test_outcomes_of_every_rule_equal_the_sequence_walk(rules):
    g = rules.goal
    for own in range(g):
        room = g - own
        for bits in itertools.product([False, True], repeat=max(room - 1, 0)):
            roll = np.zeros(g, dtype=bool)
            roll[1:room] = bits
            want = _outcomes_by_sequences(tuple(roll), room, rules)
            for engine in ("numpy", "numba"):
                got = stopping_outcomes(roll[None, :], np.array([own]), rules, engine=engine)[0]
                for x in range(g + 1):
                    assert got[x] == pytest.approx(float(want.get(x, 0)), abs=1e-15)


def test_a_threshold_rule_has_the_distribution_of_x_k():
    rules = Rules(goal=40)
    k = np.arange(1, 41)
    got = stopping_outcomes(threshold_rule(k, 40), np.zeros(40, dtype=np.int64), rules)
    for kk in (1, 3, 25, 40):
        want = np.zeros(41)
        for x, p in turn_total(kk, rules).pmf.items():
            want[min(x, 40)] += p  # gains past the goal land on it
        np.testing.assert_allclose(got[kk - 1], want, atol=1e-15)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(
        [Rules(goal=6), Rules(goal=5, die_faces=4), Rules.piglet(goal=6), Rules(goal=6, die_faces=3)]
    ),
    st.integers(0, 2**16),
)
def test_optimal_stopping_equals_brute_force_over_every_rule(rules, seed):
    """The policy iteration's value against the best ratio a / (1 - c) over all 2^(room-1)
    deterministic rules, for random continuations (busting worth at most reaching the goal)."""
    g = rules.goal
    rng = np.random.default_rng(seed)
    own = np.arange(g)
    u = rng.random((g, g + 1))
    opp_bust = rng.random(g) * 0.9
    for s in range(g):
        u[s, g - s :] = u[s, g - s]
    for engine in ("numpy", "numba"):
        value, roll, _ = optimal_stopping(u, own, opp_bust, rules, engine=engine)
        for s in range(g):
            room = g - s
            best = -np.inf
            for bits in itertools.product([False, True], repeat=room - 1):
                r = np.zeros(g, dtype=bool)
                r[1:room] = bits
                p = stopping_outcomes(r[None, :], own[s : s + 1], rules, engine="numpy")[0]
                best = max(best, float(p @ u[s]) / (1 - p[0] * opp_bust[s]))
            assert value[s] == pytest.approx(best, abs=1e-12)
            p = stopping_outcomes(roll[s : s + 1], own[s : s + 1], rules, engine="numpy")[0]
            assert float(p @ u[s]) / (1 - p[0] * opp_bust[s]) == pytest.approx(value[s], abs=1e-14)
