"""Model-based (certainty-equivalent) learners: their solves under the true die agree with the
exact solvers, and their policies from self-play rolls are scored exactly (against Monte Carlo)."""

from __future__ import annotations

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.learning import (
    model_based,
    model_based_details,
    model_based_simultaneous,
    monte_carlo_exploitability,
    solve_under_die,
)
from pigtheory.learning.model_based_simultaneous import threshold_gains
from pigtheory.referee import TASKS, score
from pigtheory.referee.evaluate import _model


@pytest.mark.parametrize("rules", [Rules(goal=12), Rules(goal=10, die_faces=4), Rules.piglet()])
def test_solve_under_the_true_die_is_the_optimal_solve(rules):
    from pigtheory.sequential import solve

    pvec, p_bust = _model(rules)
    roll, value = solve_under_die(rules.goal, pvec, p_bust)
    exact = solve(rules=rules, progress=False)
    g = rules.goal
    i, j, k = np.indices((g, g, g))
    live = i + k < g
    assert np.abs(value[live] - np.asarray(exact.value)[:g, :g, :g][live]).max() < 1e-12
    from pigtheory.referee import exploitability

    assert abs(exploitability(roll, rules=rules).exploitability) < 1e-12


def test_solve_under_die_refuses_bad_dice():
    with pytest.raises(ValueError, match="sum to 1"):
        solve_under_die(10, [0.5, 0.4], 0.2)
    with pytest.raises(ValueError, match="p_bust"):
        solve_under_die(10, [0.5, -0.5], 1.0)
    with pytest.raises(ValueError, match="goal"):
        solve_under_die(1, [0.5], 0.5)


def test_model_based_reaches_the_optimum_and_agrees_with_monte_carlo():
    t = TASKS["piglet"]
    cps = (30, 3000, 3 * 10**6)
    run, details = model_based_details(rules=t.rules, checkpoints=cps, rng=4)
    again = model_based(rules=t.rules, checkpoints=cps, rng=4)
    assert all(np.array_equal(a, b) for a, b in zip(run.policies, again.policies, strict=True))
    assert [d["rolls"] for d in details] == list(cps)
    assert all(abs(sum(d["die"]) - 1) < 1e-12 for d in details)
    exact = [score(p, t) for p in run.policies]
    assert exact[-1] < 1e-12 <= exact[0]  # the optimum once the die is known well enough
    est, se = monte_carlo_exploitability(run.policies[0], rules=t.rules, games=3000, rng=8)
    assert abs(est - exact[0]) < 4 * se


def test_threshold_gains_is_the_turn_distribution():
    from pigtheory.simultaneous.core.actions import threshold_matrix

    for rules in (Rules(goal=30), Rules(goal=15, die_faces=4)):
        pvec, p_bust = _model(rules)
        assert np.abs(threshold_gains(rules.goal, pvec, p_bust) - threshold_matrix(rules)).max() < 1e-15


def test_model_based_simultaneous_curve():
    rules = Rules(goal=15)
    from pigtheory.referee import simultaneous_exploitability

    run, details = model_based_simultaneous(rules=rules, checkpoints=(5, 10**5), rng=2)
    exact = [simultaneous_exploitability(p, rules=rules).exploitability for p in run.policies]
    assert exact[1] < 1e-12 < 1e-3 < exact[0]
    assert details[1]["rolls"] == 10**5 and details[1]["rounds"] > details[0]["rounds"]
    est, se = monte_carlo_exploitability(run.policies[0], rules=rules, games=3000, rng=3, simultaneous=True)
    assert abs(est - exact[0]) < 4 * se
