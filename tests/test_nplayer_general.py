"""The compiled n-player best response to opponents that read every score, and the compile idiom.

The compiled engine (:mod:`pigtheory.simultaneous.core.nplayer_general`) against the numpy
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

    from pigtheory.simultaneous.core.symmetric_kernels import binomials, multisets, ranks

    got = multisets(values, size)
    assert got.shape == (comb(values + size - 1, size), size)
    assert sorted(map(tuple, got.tolist())) == sorted(combinations_with_replacement(range(values), size))
    r = ranks(got, binomials(values, size + 1))
    assert np.array_equal(r, np.arange(got.shape[0]))  # colex rank = position
