"""Simultaneous Pig as an OpenSpiel game: OpenSpiel's own checks, and its exact values (by
OpenSpiel's ``policy_value`` and by a memoised walk over the game's own transitions) against
:func:`pigtheory.simultaneous.win_probabilities`."""

from __future__ import annotations

import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import expected_game_score  # noqa: E402

import pigtheory.envs.openspiel_game  # noqa: E402,F401
from pigtheory import Rules, as_mixture, hold_at, simultaneous  # noqa: E402

NAME = "pigtheory_simultaneous_pig"


class ProfilePolicy(os_policy.Policy):
    """pigtheory threshold policies (one per seat) as an OpenSpiel policy: action a = hold at a + 1."""

    def __init__(self, game, profile, rules):
        super().__init__(game, list(range(rules.players)))
        self.mixes = [as_mixture(p, rules) for p in profile]

    def action_probabilities(self, state, player_id=None):
        view = state.own_view(player_id)
        mix = self.mixes[player_id]
        idx = lambda arr: arr[tuple(s if arr.shape[d] > 1 else 0 for d, s in enumerate(view))]  # noqa: E731
        th, w = np.broadcast_arrays(idx(mix.thresholds), idx(mix.weights))
        out: dict[int, float] = {}
        for k, p in zip(th.tolist(), w.tolist(), strict=True):
            if p > 0:
                out[k - 1] = out.get(k - 1, 0.0) + p
        return out


def memo_values(game, pol):
    """Every player's expected return from the start, over the game's own transitions (a DAG:
    states are keyed by their full string, which includes the turn count)."""
    memo: dict[str, np.ndarray] = {}

    def value(state):
        if state.is_terminal():
            return np.array(state.returns())
        key = str(state)
        if key not in memo:
            if state.is_chance_node():
                pairs = state.chance_outcomes()
            else:
                pairs = os_policy.joint_action_probabilities(state, pol)
            memo[key] = sum(p * value(os_policy.child(state, a)) for a, p in pairs)
        return memo[key]

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        return value(game.new_initial_state())
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"goal": 10, "players": 3, "chance": "roll"},
        {"goal": 6, "piglet": True, "horizon": 3, "players": 10},
    ],
)
def test_openspiel_random_simulation_and_turn_based_conversion(params):
    game = pyspiel.load_game(NAME, params)
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)
    turn_based = pyspiel.convert_to_turn_based(game)
    rng = np.random.default_rng(0)
    state = turn_based.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert sum(state.returns()) == pytest.approx(1.0)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS


def test_turn_outcomes_are_the_hold_at_k_distribution_clipped_at_the_goal():
    game = pyspiel.load_game(NAME, {"goal": 6})
    from pigtheory import turn_total

    x = turn_total(3, Rules(goal=6)).pmf
    expect = {0: x[0], 3: x[3], 4: x[4], 5: x[5], 6: x[6] + x[7] + x[8]}
    got = dict(game.turn_outcomes(3, 6))
    assert got.keys() == expect.keys()
    assert all(abs(got[g] - expect[g]) < 1e-15 for g in got)


def _profiles():
    piglet = Rules.piglet(goal=4)
    eq = simultaneous.equilibrium(rules=piglet).policy  # mixed at some states
    return [
        (piglet, [hold_at(1), hold_at(2)]),
        (piglet, [eq, eq]),
        (Rules(goal=5), [hold_at(2), hold_at(4)]),
        (Rules.piglet(goal=3, players=3), [hold_at(1), hold_at(2), hold_at(3)]),
    ]


@pytest.mark.parametrize("chance", ["turn", "roll"])
@pytest.mark.parametrize("rules, profile", _profiles())
def test_openspiel_values_agree_with_win_probabilities(rules, profile, chance):
    params = {"goal": rules.goal, "players": rules.players, "piglet": rules.is_piglet, "horizon": 80}
    game = pyspiel.load_game(NAME, {**params, "chance": chance})
    got = memo_values(game, ProfilePolicy(game, profile, rules))
    exact = simultaneous.win_probabilities(profile, rules=rules)[(slice(None),) + (0,) * rules.players]
    # the horizon (a draw) is reached with probability far below 1e-12 here
    assert np.allclose(got, exact, rtol=0, atol=1e-12), (got, exact)


def test_openspiel_policy_value_agrees_with_the_memoised_walk():
    rules = Rules.piglet(goal=3)
    profile = [hold_at(1), hold_at(2)]
    game = pyspiel.load_game(NAME, {"goal": 3, "piglet": True, "horizon": 4})
    pol = ProfilePolicy(game, profile, rules)
    tree = expected_game_score.policy_value(game.new_initial_state(), pol)
    assert np.allclose(tree, memo_values(game, pol), rtol=0, atol=1e-14)
    # the horizon matters at 4 turns: the draw share moves the values off the exact ones
    exact = simultaneous.win_probabilities(profile, rules=rules)[:, 0, 0]
    assert not np.allclose(tree, exact, atol=1e-6)
    assert sum(tree) == pytest.approx(1.0)


def test_bad_parameters_raise():
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game(NAME, {"players": 11})
    with pytest.raises(Exception, match="chance"):
        pyspiel.load_game(NAME, {"chance": "dice"})


def test_openspiel_cfr_runs_on_the_turn_based_conversion():
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.convert_to_turn_based(pyspiel.load_game(NAME, {"goal": 2, "piglet": True, "horizon": 2}))
    uniform = exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game))
    solver = cfr.CFRSolver(game)
    for _ in range(10):
        solver.evaluate_and_update_policy()
    learned = exploitability.nash_conv(game, solver.average_policy())
    assert -1e-12 <= learned < uniform / 5, (learned, uniform)
