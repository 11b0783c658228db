"""The reuse of continuations in the symmetric solvers (the view cache of
:mod:`pigtheory.simultaneous.symmetric.kernels`) against fresh sums: the same bits.

Every continuation entry is a sum over the others' outcome profiles; the cache keeps a whole
row per view column and, one own score down, sums one entry again and completes the one above
it with its last term. These tests hold
the three ways of summing (whole row, any span, the pair of a cache hit) to a brute force
over the outcome profiles, and the whole solvers with the cache to the same solvers summing
every continuation afresh.
"""

import itertools

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.simultaneous.core.step import band_of
from pigtheory.simultaneous.symmetric import continuation as sc
from pigtheory.simultaneous.symmetric import equilibrium as symmetric
from pigtheory.simultaneous.symmetric import kernels as sk
from pigtheory.simultaneous.symmetric import respond as sr
from pigtheory.simultaneous.symmetric import response as symmetric_response


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


def _solving(table, t, m, dest, binom):
    """The table while the state at own score t is solved (the others' outcome in which
    every one busts, their first, reads it): 0 there."""
    out = table.copy()
    out[int(sk.ranks(np.sort(dest[:m, 0]), binom)), t] = 0.0
    return out


def _pair(t, g, m, dest, prob, lens, table, binom, idx, buf):
    """continuation_pair as a cache hit calls it: entry t + 1 as summed at own score t + 1,
    while the state then being solved (the self outcome: every other busts) read 0."""
    own = int(sk.ranks(np.sort(dest[:m, 0]), binom))
    then = table.copy()
    then[own, t + 1] = 0.0
    row = np.zeros(g + 1)
    sc.continuation_span(0, t + 1, g, g, sc.Others(m, dest, prob, lens, idx, buf), then, binom, row)
    return sc.continuation_pair(t, g, sc.Others(m, dest, prob, lens, idx, buf), table, binom, row[t + 1])


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
    solved = rng.random((others.shape[0], g + 1))
    idx, buf = np.zeros(m, np.int64), np.zeros(m, np.int64)
    for _ in range(20):
        dest, prob, lens = _outcomes(rules, rng, m)
        t = int(rng.integers(0, g))
        table = _solving(solved, t, m, dest, binom)
        u = np.zeros(g + 8)
        sc.continuation_row(t, g, sc.Others(m, dest, prob, lens, idx, buf), table, binom, u)
        np.testing.assert_allclose(u[: g - t + 1], _brute(t, g, dest, prob, lens, table, binom), rtol=1e-14)
        assert np.all(u[g - t + 1 :] == u[g - t])  # padded past the room
        row = np.full(g + 1, np.nan)
        lo = int(rng.integers(t, g + 1))
        sc.continuation_span(0, lo, g, g, sc.Others(m, dest, prob, lens, idx, buf), table, binom, row)
        np.testing.assert_array_equal(row[lo:], u[lo - t : g - t + 1])  # any span: the same bits
        if t + 1 <= g:
            pair = _pair(t, g, m, dest, prob, lens, table, binom, idx, buf)
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


@pytest.mark.parametrize(
    ("method", "rules"),
    [("damped", Rules(goal=30, players=3)), ("fictitious_play", Rules(goal=16, players=4))],
    ids=str,
)
def test_the_best_response_to_wide_mixes_gives_the_bits_of_fresh_sums(method, rules):
    """Dynamics mix the start with every best response so far: mixes of up to five
    thresholds, changing from one own score to the next, so that the others' outcomes (kept
    while their codes are), the outcome lists and the strategy's own entries (summed over
    its thresholds only) are all exercised against whole rows summed afresh."""
    run = symmetric_response.symmetric_dynamics(method, rules=rules, max_iter=4, start=3, engine="numba")
    policy = run.policy
    assert policy.mix_weights.shape[1] >= 3 and (policy.actions < 0).mean() > 0.2
    kept = symmetric_response._respond(policy, "numba", False)
    again = symmetric_response._respond(policy, "numba", False, reuse=False)
    np.testing.assert_array_equal(kept.value.table, again.value.table)
    np.testing.assert_array_equal(kept.profile_table, again.profile_table)
    np.testing.assert_array_equal(kept.policy.actions, again.policy.actions)
    assert kept.largest_gain == run.largest_gain[-1] and kept.largest_gain > 0


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


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_outcome_lists_give_the_bits_of_the_nested_sums(players):
    """The certificate sums a view's outcome profiles from a list made once per view: every
    entry has the bits of continuation_span/continuation_pair, for two tables at once."""
    rules = Rules(goal=12, players=players)
    g, m = rules.goal, players - 1
    binom, others, _, _ = symmetric.layout(rules)
    rng = np.random.default_rng(10 + players)
    tables = rng.random((2, others.shape[0], g + 1))
    idx, buf = np.zeros(m, np.int64), np.zeros(m, np.int64)
    short = sr.outcome_space(1)
    for _ in range(20):
        dest, prob, lens = _outcomes(rules, rng, m)
        t = int(rng.integers(0, g))
        first, second = (_solving(tab, t, m, dest, binom) for tab in tables)
        assert sr.outcome_list(g, sc.Others(m, dest, prob, lens, idx, buf), binom, short) == (
            -1 if np.prod(lens) > 1 else 1
        )
        outs = sr.outcome_space(int(np.prod(lens)))
        n = sr.outcome_list(g, sc.Others(m, dest, prob, lens, idx, buf), binom, outs)
        assert 0 < n <= np.prod(lens)
        rows = {}
        for name, table in (("first", first), ("second", second)):
            want, got = np.zeros(g + 1), np.zeros(g + 1)
            sc.continuation_span(0, t, g, g, sc.Others(m, dest, prob, lens, idx, buf), table, binom, want)
            sr.list_span(n, outs, 0, t, g, g, table, got)
            np.testing.assert_array_equal(got[t:], want[t:])
            for lo in range(t, g + 1):  # short spans (no slices) and long ones: the same bits
                hi = min(lo + int(rng.integers(0, 12)), g)
                part = np.full(g + 1, np.nan)
                sr.list_span(n, outs, 0, lo, hi, g, table, part)
                np.testing.assert_array_equal(part[lo : hi + 1], want[lo : hi + 1])
                assert np.isnan(part[:lo]).all() and np.isnan(part[hi + 1 :]).all()
            rows[name] = want
        if t + 1 <= g:
            a = _pair(t, g, m, dest, prob, lens, first, binom, idx, buf)
            b = _pair(t, g, m, dest, prob, lens, second, binom, idx, buf)
            lo2 = int(rng.integers(t + 1, g + 1))
            hi2 = int(rng.integers(lo2 - 1, g + 1))  # lo2 - 1: no entries
            one, two = np.full(g + 1, np.nan), np.full(g + 1, np.nan)
            pair = sr.list_pair_span(n, outs, t, g, first, second, two, lo2, hi2)
            sr.list_spans(n, outs, t, g, first, one, second, two, lo2, hi2)
            assert pair == a and one[t] == a[0] and one[t + 1] == a[1] and two[t] == b[0]
            np.testing.assert_array_equal(one[t:], rows["first"][t:])
            np.testing.assert_array_equal(two[lo2 : hi2 + 1], rows["second"][lo2 : hi2 + 1])
            assert np.isnan(two[t + 1 : lo2]).all() and np.isnan(two[hi2 + 1 :]).all()


def test_a_cover_plan_sums_each_missing_entry_once():
    """cover_plan against sets: after summing its spans every wanted entry is valid, the valid
    entries stay contiguous, and no entry valid before is summed again (unless the wanted
    entries lie apart from them, when they replace them)."""
    rng = np.random.default_rng(7)
    for _ in range(2000):
        lo, hi = sorted(int(x) for x in rng.integers(0, 30, 2))
        low, high = (int(x) for x in rng.integers(0, 30, 2))  # low > high: none valid
        a, b, c, d, low2, high2 = sr.cover_plan(lo, hi, low, high)
        valid = set(range(low, high + 1))
        summed = list(range(a, b + 1)) + list(range(c, d + 1))
        after = set(range(low2, high2 + 1))
        assert len(summed) == len(set(summed))
        assert set(range(lo, hi + 1)) <= after
        apart = not valid or hi < low - 1 or lo > high + 1
        assert after == (set(range(lo, hi + 1)) if apart else valid | set(summed))
        assert apart or not (valid & set(summed))
        assert set(summed) <= set(range(lo, hi + 1))


def test_one_threshold_value_has_the_bits_of_the_whole_step():
    """threshold_value (the certificate's value of the profile's own threshold) against
    action_values' numerators, interpreted and compiled, on a six-face and a two-face die."""
    from pigtheory.simultaneous.core.jit import compiled

    rng = np.random.default_rng(3)
    for rules in (Rules(goal=40), Rules(goal=25, die_faces=2)):
        g = rules.goal
        band = band_of(rules)
        fns = [
            (sr.threshold_value, sr.action_values),
            (compiled(sr.threshold_value), compiled(sr.action_values)),
        ]
        for _ in range(10):
            row = rng.random(g + 1)
            i = int(rng.integers(0, g))
            room = g - i
            u = np.concatenate([row[i:], np.full(band.band_t.shape[0] + 1, row[g])])
            for one, step in fns:
                num, vals = np.zeros(g + 1), np.zeros(g + 1)
                step(u, room, 0.3, band, num, vals)
                got = np.array([one(band, row, i, g, k) for k in range(1, room + 1)])
                np.testing.assert_array_equal(got, num[1 : room + 1])


@pytest.mark.parametrize("spares", [1, 1 << 13])
def test_a_spare_row_comes_back_with_its_bits(spares):
    """Column c summed for thresholds A, then B (A goes to the spares), then A one own score
    down (two entries again), B two down (entries 8..10 again), A: each row comes back from
    the spares with the bits of a fresh one; with one spare slot every row shares it (the two
    trade places)."""
    rules = Rules(goal=20, players=4)
    g, m = rules.goal, 3
    binom, others, _, _ = symmetric.layout(rules)
    band = band_of(rules)
    rng = np.random.default_rng(5)
    table = rng.random((others.shape[0], g + 1))
    cache = sc.view_cache(others.shape[0], g, m, spares, gains=band.band_t.shape[0])
    c = int(sk.ranks(np.array([3, 5, 8]), binom))
    table[c, :11] = 0.0  # the column's states at own scores 10 and below: not solved yet
    scores = others[c]
    idx, buf = np.zeros(m, np.int64), np.zeros(m, np.int64)
    u, fresh = np.zeros(g + 8), np.zeros(g + 8)

    def outcomes(key):
        dest, prob = np.zeros((m, g + 2), np.int64), np.zeros((m, g + 2))
        lens = np.array(
            [
                sk.pure_outcomes(int(o), int(k), g, band, dest[p], prob[p])
                for p, (o, k) in enumerate(zip(scores, key, strict=True))
            ]
        )
        return dest, prob, lens

    key_a, key_b = np.array([4, 6, 2]), np.array([5, 6, 2])
    steps = [(10, key_a), (10, key_b), (9, key_a), (8, key_b), (8, key_a)]
    solved = rng.random(g + 1)
    for t, key in steps:
        table[c, t + 1] = solved[t + 1]  # the state one own score up is solved (the value kept)
        dest, prob, lens = outcomes(key)
        sc.view_continuation(t, c, key, g, sc.Others(m, dest, prob, lens, idx, buf), table, binom, u, cache)
        sc.continuation_row(t, g, sc.Others(m, dest, prob, lens, idx, buf), table, binom, fresh)
        np.testing.assert_array_equal(u, fresh)
        assert list(cache.keys[c]) == list(key) and cache.low[c] == t
    # the row of A at 9 is read from the spares: a mark put on the spare shows in it
    cache = sc.view_cache(others.shape[0], g, m, spares, gains=band.band_t.shape[0])
    table[c, :11] = 0.0
    for t, key in steps[:2]:
        sc.view_continuation(t, c, key, g, sc.Others(m, *outcomes(key), idx, buf), table, binom, u, cache)
    (slot,) = np.flatnonzero(cache.spare_col == c)
    cache.spare[slot, 12:] += 1.0
    table[c, 10] = solved[10]
    dest, prob, lens = outcomes(key_a)
    sc.view_continuation(9, c, key_a, g, sc.Others(m, dest, prob, lens, idx, buf), table, binom, u, cache)
    sc.continuation_row(9, g, sc.Others(m, dest, prob, lens, idx, buf), table, binom, fresh)
    np.testing.assert_array_equal(u[: 12 - 9], fresh[: 12 - 9])
    np.testing.assert_array_equal(u[12 - 9 : g - 9 + 1], fresh[12 - 9 : g - 9 + 1] + 1.0)
    with pytest.raises(ValueError, match="spares"):
        sc.view_cache(4, g, m, 3, gains=6)


def test_the_solver_gives_the_same_bits_with_any_number_of_spares(monkeypatch):
    """The spare rows change which sums are reused, never the bits: a game with mixed states
    (where the candidate profiles change the others' thresholds at a view) solved with no
    spares, one shared slot and the default."""
    rules = Rules(goal=14, die_faces=2, players=4)
    runs = []
    for spares in (0, 1, sc.SPARES):
        monkeypatch.setattr(symmetric, "SPARES", spares)
        runs.append(symmetric._solve(rules, 1e-12, "numba", False))
    assert runs[0].n_mixed > 0
    for other in runs[1:]:
        np.testing.assert_array_equal(other.value.table, runs[0].value.table)
        np.testing.assert_array_equal(other.gain, runs[0].gain)
        np.testing.assert_array_equal(other.policy.actions, runs[0].policy.actions)
        np.testing.assert_array_equal(other.policy.mix_weights, runs[0].policy.mix_weights)


def test_the_triple_rank_in_integers_is_the_table_rank():
    binom = sk.binomials(130, 4)
    triples = np.array([t for t in itertools.combinations_with_replacement(range(0, 131, 3), 3)])
    got = [sk.rank3(int(a), int(b), int(c)) for a, b, c in triples]
    assert got == sk.ranks(triples, binom).tolist()
