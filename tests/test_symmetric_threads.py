"""The symmetric equilibrium on several threads (:class:`pigtheory.simultaneous.symmetric._Pipeline`).

The threads walk the states in runs (largest and second largest score fixed); a run waits
for the runs of the other threads it can depend on. These tests check the schedule itself
against brute force (every successor finished first, no view column shared by two runs at
once, with more threads than the machine has and random delays) and the solver's output on
one and two threads: the same bits.
"""

import itertools
import random
import threading
import time

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.jit import max_threads, threads
from pigtheory.simultaneous import symmetric, symmetric_equilibrium
from pigtheory.simultaneous.core.symmetric_kernels import multisets


def _dominates(a, b):
    """Whether sorted tuple a is a successor of b (componentwise at least, not equal)."""
    return bool(np.all(a >= b) and np.any(a > b))


@pytest.mark.parametrize(("goal", "players", "workers"), [(9, 4, 2), (9, 4, 3), (8, 4, 5), (12, 3, 4)])
def test_the_schedule_finishes_every_successor_first_and_shares_no_column(goal, players, workers):
    states = multisets(goal, players)[::-1].copy()
    top, second, bounds = symmetric._runs(states)
    run_of = np.repeat(np.arange(top.size), np.diff(bounds))
    # the runs each run depends on (some state of it has a successor there), by brute force
    needs = [set() for _ in range(top.size)]
    for i, j in itertools.product(range(states.shape[0]), repeat=2):
        if run_of[i] != run_of[j] and _dominates(states[j], states[i]):
            needs[run_of[i]].add(int(run_of[j]))
    # the view columns (others' sorted scores) of each run's states
    columns = [
        {tuple(np.delete(states[s], p)) for s in range(bounds[r], bounds[r + 1]) for p in range(players)}
        for r in range(top.size)
    ]
    lock = threading.Condition()
    finished, running, errors = set(), set(), []
    rng = random.Random(goal * 10 + workers)

    def solve(lo, hi, own):
        r = int(run_of[lo])
        assert hi == bounds[r + 1] and own == "scratch"
        with lock:
            if not needs[r] <= finished:
                errors.append(f"run {r} started before {sorted(needs[r] - finished)}")
            for other in running:
                if columns[r] & columns[other]:
                    errors.append(f"runs {r} and {other} share a view column")
            running.add(r)
        time.sleep(rng.random() * 2e-4)
        with lock:
            running.discard(r)
            finished.add(r)

    symmetric._Pipeline(states, workers, lock).run(solve, lambda: "scratch")
    assert not errors, errors[:5]
    assert finished == set(range(top.size))


def test_a_failing_run_stops_every_thread_and_raises():
    states = multisets(8, 4)[::-1].copy()
    calls = []

    def solve(lo, hi, own):
        calls.append(lo)
        if len(calls) == 5:
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        symmetric._Pipeline(states, 2, threading.Condition()).run(solve, lambda: None)
    assert len(calls) < symmetric._runs(states)[0].size  # the others stopped too


@pytest.mark.skipif(max_threads() < 2, reason="one core: the threaded path is the serial one")
@pytest.mark.parametrize(
    "rules", [Rules(goal=14, die_faces=2, players=4), Rules(goal=30, players=4), Rules(goal=20, players=3)]
)
def test_two_threads_give_the_bits_of_one(rules):
    with threads(1):
        one = symmetric_equilibrium(rules=rules, progress=False)
    with threads(2):
        two = symmetric_equilibrium(rules=rules, progress=False)
    for a, b in (
        (one.value.table, two.value.table),
        (one.gain, two.gain),
        (one.policy.actions, two.policy.actions),
        (one.policy.mix_thresholds, two.policy.mix_thresholds),
        (one.policy.mix_weights, two.policy.mix_weights),
        (one.mixed_states, two.mixed_states),
    ):
        np.testing.assert_array_equal(a, b)
    assert (one.n_mixed, one.n_fallback, one.largest_support) == (
        two.n_mixed,
        two.n_fallback,
        two.largest_support,
    )
    if rules.die_faces == 2:
        assert one.n_mixed > 0  # the mix tables were renumbered, not just empty
