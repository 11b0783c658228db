"""The light agents at small sizes: their exact scores against Monte Carlo within 4 standard
errors, seeds reproduce runs."""

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.learning import (
    cfr_plus,
    fictitious_play,
    monte_carlo_exploitability,
    openspiel_mcts,
    play_matches,
    q_learning,
    regret_matching,
)
from pigtheory.referee import TASKS, evaluate, score


def test_q_learning_curve_against_monte_carlo():
    t = TASKS["piglet"]
    run = q_learning(rules=t.rules, checkpoints=(30, 300), rng=5)
    again = q_learning(rules=t.rules, checkpoints=(30, 300), rng=5)
    assert all(np.array_equal(a, b) for a, b in zip(run.policies, again.policies, strict=True))
    for n, pol in enumerate(run.policies):
        exact = score(pol, t)
        est, se = monte_carlo_exploitability(pol, rules=t.rules, games=3000, rng=20 + n)
        assert exact >= -1e-12 and abs(est - exact) < 4 * se


@pytest.mark.slow
def test_q_learning_long_curve_against_monte_carlo():
    t = TASKS["pig-20"]
    run = q_learning(rules=t.rules, checkpoints=(1000, 30_000, 300_000), rng=6)
    for n, pol in enumerate(run.policies):
        exact = score(pol, t)
        est, se = monte_carlo_exploitability(pol, rules=t.rules, games=20_000, rng=40 + n)
        assert exact >= -1e-12 and abs(est - exact) < 4 * se


def test_play_matches_ends_a_sure_endless_game_at_once():
    # both seats pass at turn total 0 from the start: the referee's draw, 1/2, without 10**6 moves
    rules = Rules.piglet(goal=4)
    table = np.zeros((4, 4, 4))
    w = play_matches([table, table], rules=rules, games=100_000, rng=1)
    assert np.all(w == 0.5) and evaluate([table, table], rules=rules).value_start[0] == 0.5
    # a seat that rolls at (0, 0, 0) with probability 1/2: the game ends unless it passes
    other = table.copy()
    other[..., 1:] = 1.0
    other[0, 0, 0] = 0.5
    w = play_matches([other, table], rules=rules, games=20_000, rng=2)
    v = evaluate([other, table], rules=rules).value_start[0]
    assert abs(w.mean() - v) <= 4 * w.std(ddof=1) / np.sqrt(w.size)


def test_regret_matching_curve_against_monte_carlo():
    rules = Rules(goal=12)
    run = regret_matching(rules=rules, iterations=(3, 30))
    from pigtheory.referee import simultaneous_exploitability

    exact = [simultaneous_exploitability(p, rules=rules).exploitability for p in run.policies]
    assert exact[1] < exact[0]
    est, se = monte_carlo_exploitability(run.policies[0], rules=rules, games=3000, rng=7, simultaneous=True)
    assert abs(est - exact[0]) < 4 * se


def test_openspiel_mcts_read_at_every_state():
    pytest.importorskip("pyspiel")
    from pigtheory.referee.openspiel import openspiel_game

    rules = Rules.piglet(goal=4)
    game = openspiel_game(rules)
    run = openspiel_mcts(game, simulations=20, rng=3)
    table = run.policies[0]
    assert table.shape == (2, 4, 4, 4)
    assert np.array_equal(table, openspiel_mcts(game, simulations=20, rng=3).policies[0])
    # its exact value from the start against Monte Carlo play of the same tables
    v = evaluate(list(table), rules=rules).value_start[0]
    w = play_matches(list(table), rules=rules, games=4000, rng=1)
    assert abs(w.mean() - v) <= 4 * w.std(ddof=1) / np.sqrt(w.size) + 1e-12  # a sure result: no spread
    with pytest.raises(ValueError, match="simulations"):
        openspiel_mcts(game, simulations=0)


@pytest.mark.slow
def test_openspiel_mcts_read_at_every_state_larger():
    pytest.importorskip("pyspiel")
    from pigtheory.referee.openspiel import openspiel_game

    rules = Rules.piglet(goal=6)
    run = openspiel_mcts(openspiel_game(rules), simulations=50, rng=4)
    table = run.policies[0]
    assert table.shape == (2, 6, 6, 6) and set(np.unique(table)) <= {0.0, 1.0}
    v = evaluate(list(table), rules=rules).value_start[0]
    w = play_matches(list(table), rules=rules, games=20_000, rng=2)
    assert abs(w.mean() - v) <= 4 * w.std(ddof=1) / np.sqrt(w.size) + 1e-12


@pytest.mark.parametrize("learner", [cfr_plus, fictitious_play])
def test_stage_game_learners_curve_against_exact_and_monte_carlo(learner):
    from pigtheory.referee import simultaneous_exploitability

    rules = Rules(goal=12)
    run = learner(rules=rules, iterations=(3, 30, 300))
    again = learner(rules=rules, iterations=(3, 30, 300))
    assert all(
        np.array_equal(a.weights, b.weights) for a, b in zip(run.policies, again.policies, strict=True)
    )
    exact = [simultaneous_exploitability(p, rules=rules).exploitability for p in run.policies]
    assert exact[2] < exact[1] < exact[0] and exact[2] > -1e-12
    assert all(np.allclose(np.asarray(p.weights).sum(axis=2), 1.0) for p in run.policies)
    est, se = monte_carlo_exploitability(run.policies[0], rules=rules, games=3000, rng=9, simultaneous=True)
    assert abs(est - exact[0]) < 4 * se


def test_cfr_plus_is_regret_matching_with_alternation():
    # on a state whose stage game has a pure saddle point every learner must find it; CFR+ and
    # regret matching+ differ (alternation) yet both converge, CFR+ at least as fast here
    from pigtheory.referee import simultaneous_exploitability

    rules = Rules(goal=20)
    rm = regret_matching(rules=rules, iterations=(200,)).policies[0]
    cfr = cfr_plus(rules=rules, iterations=(200,)).policies[0]
    assert not np.array_equal(rm.weights, cfr.weights)
    e_rm = simultaneous_exploitability(rm, rules=rules).exploitability
    e_cfr = simultaneous_exploitability(cfr, rules=rules).exploitability
    assert 0 <= e_cfr <= e_rm < 1e-3
    with pytest.raises(ValueError, match="iterations"):
        fictitious_play(rules=rules, iterations=(10, 5))
