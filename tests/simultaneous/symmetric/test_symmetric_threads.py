"""The symmetric equilibrium on several threads (:class:`pigtheory.simultaneous.symmetric.pipeline.Pipeline`).

The threads walk the states in runs (largest and second largest score fixed); a run waits
for the runs of the other threads it can depend on. These tests check the rule against brute
force (it orders every successor and every state sharing a view column), the schedule itself
(every successor finished first, no view column shared by two runs at once, with more threads
than the machine has and random delays) and the solver's output on one and two threads: the
same bits.
"""

import random
import threading
import time

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.jit import max_threads, threads
from pigtheory.simultaneous import symmetric_equilibrium
from pigtheory.simultaneous.symmetric import pipeline
from pigtheory.simultaneous.symmetric.kernels import descending_multisets, multisets


def _layout(goal, players):
    """The states in the solver's order, each one's run, the states each one depends on (its
    successors, by brute force) and its view columns (others' sorted scores)."""
    states = multisets(goal, players)[::-1].copy()
    top, second, bounds = pipeline.runs(states)
    run_of = np.repeat(np.arange(top.size), np.diff(bounds))
    successors = [np.flatnonzero(np.all(states >= s, axis=1) & np.any(states > s, axis=1)) for s in states]
    columns = [{tuple(np.delete(s, p)) for p in range(players)} for s in states]
    return states, run_of, successors, columns


CASES = [(9, 4, 2), (9, 4, 3), (8, 4, 5), (12, 3, 4), (6, 5, 2)]


@pytest.mark.parametrize(("goal", "players", "workers"), CASES)
def test_the_rule_orders_every_successor_and_every_state_sharing_a_column(goal, players, workers):
    # the rule: a state of run (y, x) waits for every state of largest score z, y < z < y +
    # workers, whose second score is at least x; on its own thread it comes after the states
    # before it. What surely ends before it starts: its ancestors in the graph of those two
    # orders (the graph's transitive closure, by boolean matrix products)
    states, run_of, successors, columns = _layout(goal, players)
    n = states.shape[0]
    y, x = states[:, -1], states[:, -2]
    thread = (y.max() - y) % workers
    before = np.zeros((n, n), dtype=bool)  # before[t, s]: t ends before s starts
    for s in range(n):
        before[:, s] = (y > y[s]) & (y < y[s] + workers) & (x >= x[s])
        earlier = np.flatnonzero((thread == thread[s]) & (np.arange(n) < s))
        if earlier.size:
            before[earlier[-1], s] = True
    while True:
        closed = before | ((before.astype(np.float32) @ before.astype(np.float32)) > 0)
        if (closed == before).all():
            break
        before = closed
    assert not before.diagonal().any()  # no state waits for itself: no deadlock
    missing = []
    for s in range(n):
        for t in successors[s]:
            if not before[t, s]:
                missing.append(("successor", states[s].tolist(), states[t].tolist()))
        for t in range(s + 1, n):
            if columns[s] & columns[t] and not (before[t, s] or before[s, t]):
                missing.append(("column", states[s].tolist(), states[t].tolist()))
    assert not missing, missing[:5]


@pytest.mark.parametrize(("goal", "players", "workers"), CASES)
def test_the_schedule_finishes_every_successor_first_and_shares_no_column(goal, players, workers):
    states, run_of, successors, columns = _layout(goal, players)
    lock = threading.Condition()
    finished = np.zeros(states.shape[0], dtype=bool)
    running, errors, calls = {}, [], []
    rng = random.Random(goal * 100 + workers * 10 + players)

    def solve(lo, hi, own):
        whole = np.flatnonzero(run_of == run_of[lo])
        assert own == "scratch" and (lo, hi) == (whole[0], whole[-1] + 1)  # one run, all of it
        mine = set().union(*columns[lo:hi])
        with lock:
            calls.append((lo, hi))
            for s in range(lo, hi):
                later = successors[s][(successors[s] < lo) | (successors[s] >= hi)]
                if not finished[later].all():
                    errors.append(f"state {states[s].tolist()} started before a successor")
            for (a, b), theirs in running.items():
                if mine & theirs:
                    errors.append(f"runs {a}..{b} and {lo}..{hi} share a view column")
            running[(lo, hi)] = mine
        time.sleep(rng.random() * 2e-4)
        with lock:
            del running[(lo, hi)]
            finished[lo:hi] = True

    pipeline.Pipeline(states, workers, lock).run(solve, lambda: "scratch")
    assert not errors, errors[:5]
    assert finished.all()
    assert sum(hi - lo for lo, hi in calls) == states.shape[0]  # each state once


def test_a_failing_run_stops_every_thread_and_raises():
    states = descending_multisets(8, 4)
    calls = []

    def solve(lo, hi, own):
        calls.append(lo)
        if len(calls) == 5:
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        pipeline.Pipeline(states, 2, threading.Condition()).run(solve, lambda: None)
    assert len(calls) < pipeline.runs(states)[0].size  # the others stopped too


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
