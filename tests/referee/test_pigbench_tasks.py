"""PigBench tasks: the registry and its reference numbers against independent computations."""

import numpy as np
import pytest

from pigtheory import Rules, hold_at, sequential
from pigtheory.learning import monte_carlo_exploitability
from pigtheory.referee import TASKS, exploitability, task
from pigtheory.referee.tasks import task_names


def test_registry_names_and_refusal():
    assert task_names() == [
        "pig-20",
        "pig-50",
        "pig-100",
        "piglet",
        "pig-3p-30",
        "simultaneous-50",
        "simultaneous-100",
        "openspiel-pig",
    ]
    assert TASKS["pig-3p-30"].measure == "nash_conv" and TASKS["openspiel-pig"].horizon == 1000
    assert task(TASKS["piglet"]) is TASKS["piglet"]
    with pytest.raises(ValueError, match="task must be one of"):
        task("pig-7")


def test_reference_numbers_piglet_and_pig20():
    for name in ("piglet", "pig-20"):
        t = TASKS[name]
        ref = t.reference()
        # the optimal value is the solver's own win probability from the start
        sol = sequential.solve(rules=t.rules)
        assert ref["optimal_value"] == pytest.approx(float(sol.value[0, 0, 0]), abs=1e-10)
        assert abs(ref["optimum_measure"]) < 1e-12
        # the best hold-at-k is the least exploitable threshold, checked one by one
        holds = [exploitability(hold_at(k), rules=t.rules).exploitability for k in range(1, t.rules.goal)]
        assert ref["best_hold_at"] == pytest.approx(min(holds), abs=1e-15)
        assert ref["best_hold_at_k"] == 1 + int(np.argmin(holds))
        # baselines lose something, uniform random the most
        assert ref["uniform_random"] > ref["keep_pace_end_race"] > 0
        assert ref["uniform_random"] > ref["best_hold_at"] > 0


def test_uniform_random_exploitability_against_monte_carlo():
    t = TASKS["pig-20"]
    exact = t.reference()["uniform_random"]
    est, se = monte_carlo_exploitability(t.uniform_random(), rules=t.rules, games=4000, rng=3)
    assert abs(est - exact) < 4 * se
    est, se = monte_carlo_exploitability(t.keep_pace_end_race(), rules=t.rules, games=4000, rng=4)
    assert abs(est - t.reference()["keep_pace_end_race"]) < 4 * se


def test_keep_pace_end_race_is_the_papers_rule_at_goal_100():
    roll = TASKS["pig-100"].keep_pace_end_race()
    a = lambda i, j, k: bool(roll(np.array(i), np.array(j), np.array(k)))  # noqa: E731
    # deficit 20: halfway between 16 and 24, the greater -> hold at 24; deficit 12 -> 16 -> 23
    assert a(30, 50, 23) and not a(30, 50, 24)
    assert a(30, 42, 22) and not a(30, 42, 23)
    assert a(50, 30, 18) and not a(50, 30, 19)  # ahead by 20: 21 - 2
    assert a(10, 71, 60) and a(71, 10, 28)  # someone within 29 of the goal: roll on
    assert a(0, 0, 0)


def test_simultaneous_baselines_are_valid_policies():
    t = TASKS["simultaneous-50"]
    from pigtheory.policies import as_mixture

    for pol in (t.uniform_random(), t.keep_pace_end_race(), t.hold_at(20)):
        as_mixture(pol, t.rules)  # refuses thresholds out of 1..goal - i or weights not summing to 1
    mix = as_mixture(t.uniform_random(), t.rules)
    assert np.allclose(mix.weights.sum(axis=-1), 1.0)


@pytest.mark.slow
def test_three_player_reference():
    ref = TASKS["pig-3p-30"].reference()
    assert abs(ref["optimum_measure"]) < 1e-9 < ref["best_hold_at"] < ref["uniform_random"]
    assert Rules(goal=30, players=3) == TASKS["pig-3p-30"].rules
