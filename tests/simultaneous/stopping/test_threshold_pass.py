"""The stopping kernels' shortcuts against the policy iteration they stand for.

At each state the two-player stopping kernels start from the best threshold k. Where
:func:`~pigtheory.simultaneous.core.step.threshold_pass` says "hold at k" is already the best
stopping rule, :func:`~pigtheory.simultaneous.core.step.stopping_step` must end after one pass
with that rule; where :func:`~pigtheory.simultaneous.core.step.pass_above` says the state plays
as hold at k with other decisions only at totals no turn reaches, the step must end after two
passes with exactly the rule it wrote; where both say no, the step's first pass must change a
total a turn can reach. Checked on every state of real solves (the plain kernels, uncompiled:
the states they see are the compiled ones'), against the step itself, with counts that show
each branch is taken.
"""

from __future__ import annotations

import numpy as np

import pigtheory.simultaneous.core.kernels as K
from pigtheory import Rules, hold_at
from pigtheory.simultaneous.core import read_opponents
from pigtheory.simultaneous.core.step import (
    Roll,
    band_of,
    pass_above,
    stopping_step,
    threshold_pass,
    threshold_step,
)
from pigtheory.simultaneous.core.two_player import _solve_jit
from tests.simultaneous.test_core import random_policy


def _states(opp, rules, monkeypatch):
    """Every state's arguments as the independent-opponent kernel passes them (plain Python)."""
    seen = []

    def spy(band, u, u0, room, loop_p, v, roll, tie_tol, k, r):
        seen.append((np.array(u), u0, room, loop_p, v, k))
        return threshold_pass(band, u, u0, room, loop_p, v, roll, tie_tol, k, r)

    monkeypatch.setattr(K, "threshold_pass_inline", spy)
    monkeypatch.setattr(K, "stopping_kernel", lambda name: {"independent": K._stop_independent}[name])
    _solve_jit(read_opponents([opp], rules)[0], rules, 1e-12, stopping=True)
    return seen


def test_the_shortcuts_agree_with_the_policy_iteration(monkeypatch):
    counts = {"threshold": 0, "above": 0, "neither": 0}
    for rules, opp in [
        (Rules(goal=40), hold_at(12)),
        (Rules(goal=30), "own"),
        (Rules.piglet(goal=16), hold_at(4)),
    ]:
        opp = random_policy(rules, 5, opp) if isinstance(opp, str) else opp
        _check_states(rules, opp, monkeypatch, counts)
    assert min(counts.values()) > 0, counts  # every branch was taken


def _check_states(rules, opp, monkeypatch, counts):
    band, roll = band_of(rules), Roll(*rules.roll_arrays())
    g, w, tie = rules.goal, band.band_t.shape[0], 1e-12
    for u, u0, room, loop_p, v, k in _states(opp, rules, monkeypatch):
        vals = np.empty(g + 1)
        assert threshold_step(band, u, u0, room, loop_p, vals, True, tie, vals)[1] >= 1
        start = np.arange(g) < k
        rule = start.copy()
        a, c, new = np.empty(g + 1), np.empty(g + 1), np.empty(g, dtype=bool)
        value, passes = stopping_step(u, u0, room, loop_p, v, roll, tie, 100, a, c, new, rule)
        above = start.copy()
        if threshold_pass(band, u, u0, room, loop_p, v, roll, tie, k, np.empty(g + 1)):
            counts["threshold"] += 1
            assert passes == 1 and np.array_equal(rule, start)
            assert abs(value - v) < 1e-14
        elif pass_above(band, u, u0, room, loop_p, v, roll, tie, k, a, c, new, above, np.empty(g + 1)):
            counts["above"] += 1
            assert passes == 2 and np.array_equal(rule, above)
            assert not np.array_equal(above, start) and np.array_equal(above[: k + w], start[: k + w])
            assert abs(value - v) < 1e-14
        else:
            counts["neither"] += 1
            assert passes >= 2  # the step's first pass changed the rule


def test_the_compiled_judge_is_is_threshold_rule():
    """``threshold_rules`` (the walk over reached totals compiled) gives is_threshold_rule's
    booleans, on rules built to need the walk (a threshold with changes past the reach)."""
    from pigtheory.simultaneous.core.stopping_rules import threshold_rules
    from pigtheory.stopping import is_threshold_rule

    rng = np.random.default_rng(11)
    kinds = set()
    for rules in (Rules(goal=40), Rules.piglet(goal=20), Rules(goal=30, dice=2)):
        g = rules.goal
        k = rng.integers(1, g, size=400)
        roll = np.arange(g)[None, :] < k[:, None]
        flip = rng.random((400, g)) < 0.2
        roll = roll ^ flip
        own = rng.integers(0, g, size=400)
        want = is_threshold_rule(roll, own, rules)
        assert np.array_equal(threshold_rules(roll, own, rules), want)
        kinds |= set(want.tolist())
    assert kinds == {True, False}  # (every rule of Piglet is one: a turn reaches every total)
