"""The referee with OpenSpiel's ``pig``: its values, its failing best-response tools, conversions
both ways, bots and Monte Carlo through OpenSpiel's own game loop."""

from __future__ import annotations

import re
import subprocess
import sys
import types

import numpy as np
import pytest

from pigtheory import Rules, hold_at, sequential
from pigtheory.referee import evaluate, exploitability, roll_probabilities
from pigtheory.referee.baselines import openspiel_bot, to_openspiel_policy
from pigtheory.referee.openspiel import from_openspiel_policy, openspiel_game, openspiel_rules

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import policy as osp  # noqa: E402

_STATE = re.compile(r"Scores: (\d+) (\d+), Turn total: (\d+)\nCurrent player: (\d)\n$")


class _Wrapped:
    """An OpenSpiel-style policy the referee cannot read back without querying states."""

    def __init__(self, inner):
        self.inner = inner

    def action_probabilities(self, state, player_id=None):
        return self.inner.action_probabilities(state)


def _value_iteration():
    # value_iteration imports lp_solver, which imports cvxpy (an undeclared dependency of
    # open_spiel, used for simultaneous nodes only): pig is sequential, a stub suffices
    if "cvxpy" not in sys.modules:
        try:
            import cvxpy  # noqa: F401
        except ImportError:
            stub = types.ModuleType("cvxpy")
            stub.ECOS = "ECOS"
            sys.modules["cvxpy"] = stub
    from open_spiel.python.algorithms.value_iteration import value_iteration

    return value_iteration


def test_values_agree_with_openspiel_value_iteration_at_winscore_20():
    value_iteration = _value_iteration()
    game = pyspiel.load_game("pig", {"winscore": 20})
    values = value_iteration(game, depth_limit=-1, threshold=1e-6, cyclic_game=True)
    opt = sequential.solve(rules=Rules(goal=20))
    ev = evaluate(opt, rules=Rules(goal=20))
    compared, worst = 0, 0.0
    for key, v in values.items():
        m = _STATE.match(key)
        if m is None:
            continue  # chance nodes and terminal states
        a, b, k, p = map(int, m.groups())
        if max(a, b) >= 20:
            continue
        own, opp = (a, b) if p == 0 else (b, a)
        mover = 1.0 if own + k >= 20 else ev.value[p, own, opp, k]
        ours = 2 * mover - 1 if p == 0 else 1 - 2 * mover  # player 0's return
        worst = max(worst, abs(v - ours))
        compared += 1
    # every decision state but the unreachable scores of 1
    assert compared > 10_000
    assert worst < 1e-5  # value iteration stopped at changes below 1e-6


def test_openspiel_best_response_tools_fail_on_pig_and_the_referee_does_not():
    game = pyspiel.load_game("pig", {"winscore": 6, "piglet": True, "diceoutcomes": 2, "horizon": 8})
    from open_spiel.python.algorithms import exploitability as os_exploitability

    with pytest.raises(pyspiel.SpielError, match="InformationStateString"):
        os_exploitability.exploitability(game, osp.UniformRandomPolicy(game))
    with pytest.raises(pyspiel.SpielError, match="InformationStateString"):
        os_exploitability.nash_conv(game, osp.UniformRandomPolicy(game))
    uniform = pyspiel.UniformPolicy()
    tbr = pyspiel.TabularBestResponseMDP(game, uniform).exploitability()
    assert tbr.exploitability == pytest.approx(-0.0001220703125)  # negative: keyed on the observation
    rules, horizon = openspiel_rules(game)
    ours = exploitability(osp.UniformRandomPolicy(game), rules=rules, horizon=horizon)
    assert ours.openspiel_exploitability == pytest.approx(0.01348876953125, abs=1e-14)
    assert np.all(ours.gains > 0)


def test_rules_round_trip():
    for rules in (Rules(goal=30), Rules(goal=12, die_faces=4, players=3), Rules.piglet(goal=6)):
        got, horizon = openspiel_rules(openspiel_game(rules, horizon=50))
        assert got == rules and horizon == 50
    with pytest.raises(ValueError, match="face 1"):
        openspiel_game(Rules(goal=10, bust_face=2))
    with pytest.raises(ValueError, match="pig"):
        openspiel_rules(pyspiel.load_game("tic_tac_toe"))


def test_from_openspiel_policy_round_trip_of_the_optimum():
    rules = Rules(goal=20)
    game = openspiel_game(rules)
    opt = sequential.solve(rules=rules)
    pol = to_openspiel_policy(opt, game)
    direct = from_openspiel_policy(game, pol)  # read back without queries
    queried = from_openspiel_policy(game, _Wrapped(pol))
    reachable = np.ones((20, 20, 20), dtype=bool)
    reachable[1] = reachable[:, 1] = reachable[:, :, 1] = False  # no score or turn total of 1
    reachable &= ~np.isnan(opt.value)
    for p in (0, 1):
        assert np.array_equal(queried[p][reachable], opt.policy[reachable].astype(float))
        assert np.array_equal(direct[p], opt.policy.astype(float))
    # the referee reads the OpenSpiel policy itself and agrees with the optimum
    ev = evaluate(pol, rules=rules)
    assert ev.value_start[0] == pytest.approx(opt.first_player_win, abs=1e-13)


def test_from_openspiel_policy_reads_any_players_and_piglet():
    game = pyspiel.load_game("pig", {"winscore": 5, "players": 3, "piglet": True})
    t = from_openspiel_policy(game, osp.UniformRandomPolicy(game))
    assert t.shape == (3, 5, 5, 5, 5)
    idx = np.indices((5,) * 4)
    live = idx[0] + idx[-1] < 5
    assert np.all(t[:, live] == 0.5) and np.all(t[:, ~live] == 0.0)
    seat_rule = osp.FirstActionPolicy(game)  # always roll (action 0) where legal
    assert np.all(from_openspiel_policy(game, seat_rule)[:, live] == 1.0)


def test_uniform_openspiel_policy_equals_the_half_table():
    rules = Rules(goal=15)
    game = openspiel_game(rules)
    a = evaluate(osp.UniformRandomPolicy(game), rules=rules)
    b = evaluate(np.where(roll_probabilities(hold_at(100), rules) > 0, 0.5, 0.0), rules=rules)
    assert np.allclose(a.value, b.value, equal_nan=True, atol=1e-14)


def test_bots_in_openspiel_evaluate_bots_agree_with_the_exact_value():
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    rules = Rules(goal=20)
    game = openspiel_game(rules)
    bots = [
        openspiel_bot(hold_at(5), game, player_id=0, rng=1),
        openspiel_bot(hold_at(8), game, player_id=1, rng=2),
    ]
    rng = np.random.RandomState(7)
    returns = np.array([evaluate_bots(game.new_initial_state(), bots, rng)[0] for _ in range(2000)])
    exact = evaluate([hold_at(5), hold_at(8)], rules=rules, horizon=1000).openspiel_returns[0]
    se = returns.std(ddof=1) / np.sqrt(returns.size)
    assert abs(returns.mean() - exact) < 4 * se


def test_a_stochastic_bot_samples_its_probabilities():
    rules = Rules(goal=10)
    game = openspiel_game(rules)
    bot = openspiel_bot(np.full((10, 10, 10), 0.25), game, player_id=0, rng=3)
    state = game.new_initial_state()
    probs, _ = bot.step_with_policy(state)
    assert dict(probs) == {0: 0.25, 1: 0.75}
    rolls = np.mean([bot.step(state) == 0 for _ in range(4000)])
    assert abs(rolls - 0.25) < 4 * np.sqrt(0.25 * 0.75 / 4000)


def test_pigtheory_imports_and_evaluates_without_open_spiel():
    code = (
        "import sys; sys.modules['pyspiel'] = None; sys.modules['open_spiel'] = None\n"
        "from pigtheory import referee, hold_at, Rules\n"
        "print(round(float(referee.evaluate(hold_at(3), rules=Rules(goal=8)).value_start[0]), 6))\n"
        "from pigtheory.referee.openspiel import openspiel_game\n"
        "try:\n    openspiel_game(Rules(goal=8))\nexcept ImportError as e:\n    print('ImportError', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "ImportError" in out and "pigtheory[rl]" in out


def test_openspiel_q_learning_is_reproducible_from_its_seed():
    # the learners explore with numpy's global generator and the environment draws the dice
    # from its own sampler: both must follow rng=, or a regenerated figure changes
    from pigtheory.learning import openspiel_q_learning

    game = openspiel_game(Rules(goal=6))
    runs = [openspiel_q_learning(game, checkpoints=(60, 200), rng=seed) for seed in (3, 3, 4)]
    for a, b in zip(runs[0].policies, runs[1].policies, strict=True):
        assert np.array_equal(a, b)
    # the seed decides something: another seed learns other tables
    assert any(not np.array_equal(a, c) for a, c in zip(runs[0].policies, runs[2].policies, strict=True))
