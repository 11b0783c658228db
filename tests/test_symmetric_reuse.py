"""The reuse of continuations in the symmetric solvers (the view cache of
:mod:`pigtheory.simultaneous.core.symmetric_kernels`) against fresh sums: the same bits.

Every continuation entry is a sum over the others' outcome profiles; the cache keeps a whole
row per view column and, one own score down, sums only two entries again. These tests hold
the three ways of summing (whole row, any span, the pair of a cache hit) to a brute force
over the outcome profiles, and the whole solvers with the cache to the same solvers summing
every continuation afresh.
"""

import itertools

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.simultaneous import symmetric, symmetric_response
from pigtheory.simultaneous.core import symmetric_kernels as sk
from pigtheory.simultaneous.core.step import band_of


def _outcomes(rules, rng, others):
    """Random thresholds for the others at random scores; their outcome lists."""
    g = rules.goal
    band = band_of(rules)
    dest = np.zeros((others, g + 2), np.int64)
    prob = np.zeros((others, g + 2))
    lens = np.zeros(others, np.int64)
    for p in range(others):
        score = int(rng.integers(0, g))
        k = int(rng.integers(1, g - score + 1))
        lens[p] = sk.pure_outcomes(score, k, g, band, dest[p], prob[p])
    return dest, prob, lens


def _brute(t, g, dest, prob, lens, table, binom):
    """u[x] = sum over outcome profiles of their chance times the table at the sorted others."""
    u = np.zeros(g - t + 1)
    for idx in itertools.product(*(range(n) for n in lens)):
        pc = float(np.prod([prob[p, i] for p, i in enumerate(idx)]))
        scores = sorted(int(dest[p, i]) for p, i in enumerate(idx))
        row = table[int(sk.ranks(np.array(scores), binom))]
        if scores[-1] >= g:
            u[g - t] += pc * row[g]
        else:
            u += pc * row[t:]
    return u


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_spans_pairs_and_rows_are_the_same_sums(players):
    rules = Rules(goal=12, players=players)
    g, m = rules.goal, players - 1
    binom, others, _, _ = symmetric.layout(rules)
    rng = np.random.default_rng(players)
    table = rng.random((others.shape[0], g + 1))
    idx, buf = np.zeros(m, np.int64), np.zeros(m, np.int64)
    for _ in range(20):
        dest, prob, lens = _outcomes(rules, rng, m)
        t = int(rng.integers(0, g))
        u = np.zeros(g + 8)
        sk.continuation_row(t, g, m, dest, prob, lens, table, binom, u, idx, buf)
        np.testing.assert_allclose(u[: g - t + 1], _brute(t, g, dest, prob, lens, table, binom), rtol=1e-14)
        assert np.all(u[g - t + 1 :] == u[g - t])  # padded past the room
        row = np.full(g + 1, np.nan)
        lo = int(rng.integers(t, g + 1))
        sk.continuation_span(0, lo, g, g, m, dest, prob, lens, table, binom, row, idx, buf)
        np.testing.assert_array_equal(row[lo:], u[lo - t : g - t + 1])  # any span: the same bits
        if t + 1 <= g:
            pair = sk.continuation_pair(t, g, m, dest, prob, lens, table, binom, idx, buf)
            assert pair == (u[0], u[1])


RULES = [
    Rules(goal=14, die_faces=2, players=4),  # mixed states, three others
    Rules(goal=12, die_faces=2, players=3),  # mixed states, two others
    Rules(goal=30, players=4),
    Rules(goal=9, players=5),
]


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_the_solvers_with_the_view_cache_give_the_bits_of_fresh_sums(rules):
    cached = symmetric._solve(rules, 1e-12, "numba", False)
    fresh = symmetric._solve(rules, 1e-12, "numba", False, reuse=False)
    if rules.die_faces == 2:
        assert cached.n_mixed > 0  # the mixed solver's payoffs go through the cache too
    for a, b in [
        (cached.value.table, fresh.value.table),
        (cached.gain, fresh.gain),
        (cached.policy.actions, fresh.policy.actions),
        (cached.policy.mix_thresholds, fresh.policy.mix_thresholds),
        (cached.policy.mix_weights, fresh.policy.mix_weights),
        (cached.mixed_states, fresh.mixed_states),
    ]:
        np.testing.assert_array_equal(a, b)
    assert (cached.n_fallback, cached.largest_support) == (fresh.n_fallback, fresh.largest_support)
    kept = symmetric_response._respond(cached.policy, "numba", False)
    again = symmetric_response._respond(cached.policy, "numba", False, reuse=False)
    np.testing.assert_array_equal(kept.value.table, again.value.table)
    np.testing.assert_array_equal(kept.profile_table, again.profile_table)
    np.testing.assert_array_equal(kept.policy.actions, again.policy.actions)
    assert abs(kept.exploitability) <= 1e-12


def test_the_interpreted_engine_reuses_the_same_way():
    rules = Rules(goal=9, die_faces=2, players=4)
    compiled = symmetric._solve(rules, 1e-12, "numba", False)
    plain = symmetric._solve(rules, 1e-12, "numpy", False)
    np.testing.assert_array_equal(compiled.value.table, plain.value.table)
    np.testing.assert_array_equal(compiled.policy.actions, plain.policy.actions)
    fast = symmetric_response._respond(compiled.policy, "numba", False)
    slow = symmetric_response._respond(compiled.policy, "numpy", False)
    np.testing.assert_array_equal(fast.value.table, slow.value.table)
    np.testing.assert_array_equal(fast.profile_table, slow.profile_table)
