"""The compiled n-player best response to opponents that read every score, and the compile idiom.

The compiled engine (:mod:`pigtheory.simultaneous.nplayer.general`) against the numpy
reference (the generic level loop, which expands the opponents' joint outcomes): the same
policies and values to 1e-12, for mixed opponents of three and four players.
"""

from __future__ import annotations

import numpy as np
import pytest

from pigtheory import MixedPolicy, Rules, hold_at
from pigtheory.simultaneous import best_response, symmetric_equilibrium
from pigtheory.simultaneous.core import jit


def _random_mixed(rules: Rules, seed: int) -> MixedPolicy:
    """A policy mixing two thresholds at every state, both reading every score."""
    g, n = rules.goal, rules.players
    rng = np.random.default_rng(seed)
    room = (g - np.arange(g)).reshape((g,) + (1,) * (n - 1) + (1,))
    th = np.minimum(rng.integers(1, 8, size=(g,) * n + (2,)), room)
    w = rng.random((g,) * n + (2,))
    w /= w.sum(axis=-1, keepdims=True)
    return MixedPolicy(th, w, "random mix")


@pytest.mark.parametrize(("players", "goal"), [(3, 14), (4, 7)])
def test_mixed_opponents_engines_agree(players, goal):
    rules = Rules(goal=goal, players=players)
    opps = [_random_mixed(rules, s) for s in range(players - 2)] + [hold_at(3)]
    ref = best_response(opps, rules=rules, engine="numpy")
    fast = best_response(opps, rules=rules, engine="numba")
    assert np.abs(ref.value - fast.value).max() < 1e-12
    assert np.array_equal(ref.policy, fast.policy)
    assert ref.iterations == fast.iterations


def _blocky_mixed(rules: Rules, seed: int, block: int, symmetric: bool) -> MixedPolicy:
    """Mixes of two thresholds that read every score but change only every ``block`` points of
    the others' scores: long runs along the responder's own score (where the compiled engine
    reuses the opponents' joint turn), the same at (own, a, b) and (own, b, a) if ``symmetric``."""
    g = rules.goal
    rng = np.random.default_rng(seed)
    nb = -(-g // block)
    th = rng.integers(1, 9, size=(g, nb, nb, 2))
    w = rng.random((g, nb, nb, 2)) + 0.1
    if symmetric:
        th, w = np.minimum(th, th.transpose(0, 2, 1, 3)), w + w.transpose(0, 2, 1, 3)
    w /= w.sum(axis=-1, keepdims=True)
    cut = np.arange(g) // block
    th = th[:, cut][:, :, cut]
    w = w[:, cut][:, :, cut]
    th = np.minimum(th, (g - np.arange(g))[:, None, None, None])
    return MixedPolicy(th, w, "blocky mix")


@pytest.mark.parametrize("symmetric", [True, False])
def test_runs_of_equal_mixes_and_mirrored_columns_agree_with_the_reference(symmetric):
    """Opponents whose mixes stay equal over runs of the responder's own score (the compiled
    engine expands their joint turn once per run; with one symmetric policy it solves half the
    columns and mirrors them): the numpy reference's values to 1e-12 and its policy."""
    rules = Rules(goal=21, players=3)
    pol = _blocky_mixed(rules, 3, 4, symmetric)
    ref = best_response([pol, pol], rules=rules, engine="numpy")
    fast = best_response([pol, pol], rules=rules, engine="numba")
    assert np.abs(ref.value - fast.value).max() < 1e-12
    assert np.array_equal(ref.policy, fast.policy)
    if symmetric:  # the responder's value is symmetric in the two opponents' scores
        assert np.array_equal(fast.value, fast.value.transpose(0, 2, 1))


def test_mixed_policies_are_read_without_copies():
    """The solvers read a MixedPolicy's own (read-only) arrays, and a compact symmetric
    policy expands once: a three-player equilibrium's policy is ~50 MB at goal 100."""
    from pigtheory import as_mixture

    rules = Rules(goal=9, players=3)
    pol = _blocky_mixed(rules, 1, 3, True)
    mix = as_mixture(pol, rules)
    assert mix.thresholds is pol.thresholds and mix.weights is pol.weights
    eq = symmetric_equilibrium(rules=rules).policy
    assert eq.to_mixed() is eq.to_mixed()
    assert as_mixture(eq, rules).thresholds is eq.thresholds


def test_symmetric_equilibrium_policy_is_a_best_response_to_itself():
    # against two copies of a symmetric equilibrium's policy, no deviation gains at the start
    rules = Rules(goal=16, players=3)
    eq = symmetric_equilibrium(rules=rules)
    br = best_response([eq.policy, eq.policy], rules=rules, engine="numba")
    ref = best_response([eq.policy, eq.policy], rules=rules, engine="numpy")
    assert np.abs(br.value - ref.value).max() < 1e-12
    assert abs(br.value[0, 0, 0] - eq.at(0, 0, 0)[0]) < 1e-9


def test_compiled_needs_a_kernel():
    def plain(x):
        return x

    with pytest.raises(TypeError, match="kernel"):
        jit.compiled(plain)


@jit.kernel
def twice(x):  # pragma: no cover - compiled
    return 2 * x


@jit.kernel
def four_times(x):  # pragma: no cover - compiled
    return twice(twice(x))


def test_kernel_runs_as_plain_python_and_compiled_alike():
    assert four_times(3) == 12  # plain Python: the helper is the plain function
    assert jit.compiled(four_times)(3) == 12
    assert four_times.__globals__["twice"] is twice  # compiling rebinds nothing


@pytest.mark.parametrize(("values", "size"), [(1, 1), (5, 1), (4, 3), (9, 4), (6, 5)])
def test_multisets_are_every_sorted_tuple_by_increasing_colex_rank(values, size):
    from itertools import combinations_with_replacement
    from math import comb

    from pigtheory.simultaneous.symmetric.kernels import binomials, multisets, ranks

    got = multisets(values, size)
    assert got.shape == (comb(values + size - 1, size), size)
    assert sorted(map(tuple, got.tolist())) == sorted(combinations_with_replacement(range(values), size))
    r = ranks(got, binomials(values, size + 1))
    assert np.array_equal(r, np.arange(got.shape[0]))  # colex rank = position


@pytest.mark.parametrize(("values", "size"), [(1, 1), (1, 4), (5, 1), (4, 3), (9, 4), (6, 5)])
@pytest.mark.parametrize("engine", ["numba", "numpy"])
def test_descending_multisets_are_every_sorted_tuple_by_decreasing_colex_rank(values, size, engine):
    # the odometer against the gathers of multisets and against colex ranks counted down
    from math import comb

    from pigtheory.simultaneous.symmetric.kernels import (
        binomials,
        descending_multisets,
        multisets,
        ranks,
    )

    got = descending_multisets(values, size, engine)
    assert got.dtype == np.int64 and got.shape == (comb(values + size - 1, size), size)
    assert np.array_equal(got, multisets(values, size)[::-1])
    r = ranks(got, binomials(values, size + 1))
    assert np.array_equal(r, np.arange(got.shape[0])[::-1])


def _mixing_symmetric_policy(rules: Rules, seed: int):
    """The symmetric equilibrium's compact policy with a third of its states changed to mixes
    of three rows (thresholds 1-3): a compact policy that mixes and reads every score."""
    from pigtheory.simultaneous.symmetric import SymmetricPolicy

    eq = symmetric_equilibrium(rules=rules).policy
    rng = np.random.default_rng(seed)
    actions = np.array(eq.actions)
    own = np.arange(rules.goal)[None, :]
    pick = (actions > 0) & (own <= rules.goal - 3) & (rng.random(actions.shape) < 0.33)
    actions[pick] = -1 - rng.integers(0, 3, size=int(pick.sum()))
    th = np.array([[1, 2, 1], [2, 3, 1], [3, 1, 1]])
    w = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [0.75, 0.25, 0.0]])
    return SymmetricPolicy(actions, th, w, rules, "mixing")


def test_a_mixed_policy_is_validated_once_and_its_mixture_is_the_fresh_one():
    """as_mixture remembers the Mixture of a MixedPolicy by rules: the same object on every
    call (no validation again), equal to the Mixture of a fresh copy of the policy; the
    compact policy's full arrays (one gather) hold its strategy at every state."""
    from pigtheory import as_mixture

    rules = Rules(goal=11, players=3)
    pol = _mixing_symmetric_policy(rules, 0)
    first = as_mixture(pol, rules)
    assert as_mixture(pol, rules) is first and as_mixture(pol.to_mixed(), rules) is first
    copy = MixedPolicy(np.array(pol.thresholds), np.array(pol.weights))
    fresh = as_mixture(copy, rules)
    assert fresh is not first
    assert np.array_equal(fresh.thresholds, first.thresholds)
    assert np.array_equal(fresh.weights, first.weights)
    assert fresh.reads_own_score_only() is first.reads_own_score_only() is False
    mixed = 0
    for own, a, b in np.ndindex(rules.goal, rules.goal, rules.goal):
        ks, ps = pol.thresholds[own, a, b], pol.weights[own, a, b]
        mix: dict[int, float] = {}
        for k, p in zip(ks.tolist(), ps.tolist(), strict=True):
            if p > 0:
                mix[k] = mix.get(k, 0.0) + p
        assert mix == pol.strategy(own, a, b)
        mixed += len(mix) > 1
    assert mixed > 100
    other = Rules(goal=11, players=3, die_faces=5)
    assert as_mixture(pol.to_mixed(), other) is not first  # remembered by rules


def test_a_mixing_compact_policy_agrees_with_the_reference():
    """Two copies of a compact symmetric policy that mixes (the mirrored columns, the last
    opponent's row read at (j2, j1, i)): the numpy reference's values and policy."""
    rules = Rules(goal=11, players=3)
    pol = _mixing_symmetric_policy(rules, 1)
    ref = best_response([pol, pol], rules=rules, engine="numpy")
    fast = best_response([pol, pol], rules=rules, engine="numba")
    assert np.abs(ref.value - fast.value).max() < 1e-12
    assert np.array_equal(ref.policy, fast.policy)


@pytest.mark.parametrize("faces", [6, 4])
def test_compiled_values_solve_the_bellman_equation_by_brute_force(faces):
    """The compiled best response to two copies of a mixing compact policy is a fixed point of
    the Bellman equation summed over every joint outcome in plain Python (tests/bellman.py)."""
    from tests.bellman import residual

    rules = Rules(goal=7, players=3, die_faces=faces)
    pol = _mixing_symmetric_policy(rules, 2)
    fast = best_response([pol, pol], rules=rules, engine="numba")
    assert residual(fast.value, rules, "best_response", [pol, pol]) < 1e-12


def test_a_bad_mixed_policy_is_refused_every_time():
    """Nothing is remembered for a policy that fails validation."""
    from pigtheory import as_mixture

    rules = Rules(goal=6, players=3)
    th = np.full((6, 6, 6, 1), 5)  # above the room at own score 2 and up
    bad = MixedPolicy(th, np.ones(th.shape))
    for _ in range(2):
        with pytest.raises(ValueError, match="thresholds must lie"):
            as_mixture(bad, rules)


@pytest.mark.parametrize(("players", "goal", "faces", "block"), [(3, 17, 6, 3), (4, 9, 6, 2), (3, 12, 4, 3)])
def test_runs_of_mixes_agree_with_the_reference_for_three_and_four_players(players, goal, faces, block):
    """Blocky mixes (long runs of equal joint turns, several outcomes per opponent) for 3 and 4
    players and a four-sided die (the generic step): the numpy reference's values to 1e-12 and
    its policy."""
    rules = Rules(goal=goal, players=players, die_faces=faces)
    three = Rules(goal=goal, players=3)
    base = _blocky_mixed(three, players + faces, block, True)
    if players == 4:  # the same blocks, read at (own, a, b, c) through (own, a, b)
        th = np.broadcast_to(base.thresholds[:, :, :, None], (goal,) * 4 + base.thresholds.shape[-1:])
        w = np.broadcast_to(base.weights[:, :, :, None], th.shape)
        base = MixedPolicy(np.array(th), np.array(w), "blocky mix")
    opps = [base] * (players - 1)
    ref = best_response(opps, rules=rules, engine="numpy")
    fast = best_response(opps, rules=rules, engine="numba")
    assert np.abs(ref.value - fast.value).max() < 1e-12
    assert np.array_equal(ref.policy, fast.policy)


def test_repeated_calls_give_the_same_bits():
    """The remembered Mixture, mirror flag and self-loop factors change nothing: a second call,
    and a call on a fresh copy of the policy, give the first call's bits."""
    rules = Rules(goal=19, players=3)
    pol = _blocky_mixed(rules, 11, 2, True)
    first = best_response([pol, pol], rules=rules, engine="numba")
    again = best_response([pol, pol], rules=rules, engine="numba")
    copy = MixedPolicy(np.array(pol.thresholds), np.array(pol.weights))
    fresh = best_response([copy, copy], rules=rules, engine="numba")
    for other in (again, fresh):
        assert np.array_equal(first.value, other.value)
        assert np.array_equal(first.policy, other.policy)
