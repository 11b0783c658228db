"""The referee's horizon fast path: the bound on a game outlasting the horizon is sound (the
exact horizon solve never differs from the no-horizon one by more), the fast path stays within
it and says so, and the chunked layers give the bits of one call."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from pigtheory import Rules, hold_at, sequential
from pigtheory.referee import evaluate, exploitability, read_profile
from pigtheory.referee.horizon import HorizonNote, unfinished_bound
from pigtheory.sequential import pair_kernels as kernels


@pytest.mark.parametrize("goal,horizon", [(10, 20), (10, 40), (20, 60), (20, 150), (20, 300)])
@pytest.mark.parametrize("kind", ["thresholds", "optimal", "random"])
def test_bound_covers_the_horizon_for_every_seat(goal, horizon, kind):
    rules = Rules(goal=goal)
    if kind == "thresholds":
        profile = [hold_at(5), hold_at(3)]
    elif kind == "optimal":
        profile = sequential.solve(rules=rules)
    else:
        rng = np.random.default_rng(goal * horizon)
        profile = [rng.uniform(0.2, 1.0, (goal, goal, goal)) for _ in range(2)]
    tables = read_profile(profile, rules)
    bounds = [unfinished_bound(tables[1 - p], rules, horizon) for p in range(2)]
    exact = exploitability(profile, rules=rules, horizon=horizon, horizon_tol=0)
    free = exploitability(profile, rules=rules)
    for p in range(2):
        assert 0.0 <= bounds[p] <= 1.0
        assert abs(exact.best_response[p] - free.best_response[p]) <= bounds[p] / 2 + 1e-15
        assert abs(exact.value[p] - free.value[p]) <= bounds[p] / 2 + 1e-15
        assert abs(exact.gains[p] - free.gains[p]) <= bounds[p] + 1e-15
    # the profile's own draw chance is one of the games the bound covers
    assert evaluate(profile, rules=rules, horizon=horizon).draw <= min(bounds) + 1e-15


def test_bound_shrinks_with_the_horizon_and_a_staller_gets_none():
    rules = Rules(goal=20)
    always = np.ones((20, 20, 20))
    assert unfinished_bound(always, rules, 1000) < 1e-8
    assert unfinished_bound(np.zeros((20, 20, 20)), rules, 1000) == 1.0  # passes for ever
    shorter = unfinished_bound(always, rules, 100)
    assert unfinished_bound(always, rules, 200) <= shorter  # more moves, no larger bound


def test_fast_path_says_so_and_stays_within_its_bound():
    rules = Rules(goal=20)
    profile = [hold_at(5), hold_at(3)]
    with pytest.warns(HorizonNote, match="horizon=600"):
        fast = exploitability(profile, rules=rules, horizon=600, horizon_tol=1e-3)
    exact = exploitability(profile, rules=rules, horizon=600, horizon_tol=0)
    tables = read_profile(profile, rules)
    bound = max(unfinished_bound(tables[1 - p], rules, 600) for p in range(2))
    assert bound <= 1e-3
    assert fast.horizon == 600
    assert abs(fast.exploitability - exact.exploitability) <= bound + 1e-14  # and rounding
    with warnings.catch_warnings():
        warnings.simplefilter("error", HorizonNote)
        exploitability(profile, rules=rules, horizon=600, horizon_tol=0)  # no note: solved exactly


@pytest.mark.parametrize("bad", [-1e-3, 2.0, float("nan"), "x", True])
def test_horizon_tol_refused(bad):
    with pytest.raises(ValueError, match="horizon_tol"):
        exploitability(hold_at(5), rules=Rules(goal=10), horizon=20, horizon_tol=bad)


def test_chunked_layers_give_the_bits_of_one_call():
    g, horizon = 12, 37
    rules = Rules(goal=g)
    r = [np.ascontiguousarray(t, dtype=np.float64) for t in read_profile([hold_at(4), hold_at(6)], rules)]
    from pigtheory.referee.evaluate import _model

    die = kernels.Die(*_model(rules))
    one = [np.zeros((g, g, g)) for _ in range(2)]
    kernels.horizon_layers()(
        g, 1, horizon, die, r[0], r[1], 1.0, 0.0, 0.5, 1, *one, np.empty((g, g, g)), np.empty((g, g, g))
    )
    parts = [np.zeros((g, g, g)) for _ in range(2)]
    n0, n1 = np.empty((g, g, g)), np.empty((g, g, g))
    for lo, hi in [(1, 5), (6, 6), (7, 37)]:
        kernels.horizon_layers()(g, lo, hi, die, r[0], r[1], 1.0, 0.0, 0.5, 1, *parts, n0, n1)
    assert all(np.array_equal(a, b) for a, b in zip(one, parts, strict=True))
