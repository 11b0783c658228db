"""Entry points that take another library's objects check them before any work.

OpenSpiel's games and policies, an environment's agents, a learner's figure panels, a stopping
rule's raw arrays, and objects that misbehave where a string or a policy is expected (a class
instead of an instance, an object whose ``==`` raises): each is refused with a ValueError that
names the argument, and the valid objects still give the same answers.
"""

from __future__ import annotations

import numpy as np
import pytest

from pigtheory import HoldAt, Rules, hold_at, sequential, simultaneous
from pigtheory.envs.agents import sequential_agent_table, simultaneous_agent_table
from pigtheory.guard import MemoryLimitError
from pigtheory.referee import evaluate
from pigtheory.referee.plots import games_to_resolve, plot_learning
from pigtheory.stopping import rule_outcomes
from pigtheory.validation import check_callable

SMALL = Rules(goal=6)


# --- OpenSpiel ---------------------------------------------------------------------------------


@pytest.fixture
def pyspiel():
    return pytest.importorskip("pyspiel")


def test_a_game_must_be_openspiels_pig_with_sane_parameters(pyspiel):
    from pigtheory.referee.openspiel import openspiel_rules
    from pigtheory.validation import check_openspiel_game

    game = pyspiel.load_game("pig", {"winscore": 6})
    assert check_openspiel_game("game", game) is game
    assert openspiel_rules(game) == (SMALL, 1000)
    with pytest.raises(ValueError, match=r"game must be a pyspiel\.Game .* got str"):
        openspiel_rules("pig")
    with pytest.raises(ValueError, match="game must be OpenSpiel's 'pig', got the game 'tic_tac_toe'"):
        openspiel_rules(pyspiel.load_game("tic_tac_toe"))
    # pyspiel loads these without a word; they are not games of Pig
    for params, word in (
        ({"winscore": 0}, "winscore must be in 1..1000000, got 0"),
        ({"winscore": -3}, "winscore must be in 1..1000000, got -3"),
        ({"players": 11}, "players must be in 2..10, got 11"),
        ({"diceoutcomes": 1}, "diceoutcomes must be in 2..10000, got 1"),
        ({"horizon": 0}, "horizon must be in 1..2147483647, got 0"),
    ):
        with pytest.raises(ValueError, match=word):
            openspiel_rules(pyspiel.load_game("pig", params))


class _CountingPolicy:
    """An OpenSpiel-like policy that counts its queries (always rolls)."""

    def __init__(self):
        self.queries = 0

    def action_probabilities(self, state, player_id=None):
        self.queries += 1
        return {0: 1.0, 1: 0.0}


def test_reading_an_openspiel_policy_checks_it_and_its_size_first(pyspiel):
    from pigtheory.referee.openspiel import from_openspiel_policy

    with pytest.raises(ValueError, match="policy.action_probabilities must be a callable"):
        from_openspiel_policy(pyspiel.load_game("pig", {"winscore": 6}), hold_at(3))
    big = pyspiel.load_game("pig", {"players": 10, "winscore": 30})  # 10 * 30**11 table entries
    pol = _CountingPolicy()
    with pytest.raises(MemoryLimitError, match="OpenSpiel policy table"):
        from_openspiel_policy(big, pol)
    assert pol.queries == 0  # refused before the first query
    table = from_openspiel_policy(pyspiel.load_game("pig", {"winscore": 4}), pol)
    assert pol.queries > 0 and table[0, 0, 0, 0] == 1.0 and table[0, 3, 0, 1] == 0.0  # 3 + 1 wins


def test_a_bot_checks_its_seat_and_generator(pyspiel):
    from pigtheory.referee.baselines import openspiel_bot

    game = pyspiel.load_game("pig", {"winscore": 6})
    with pytest.raises(ValueError, match=r"player_id must be an integer in 0\.\.1, got 2"):
        openspiel_bot(hold_at(3), game, player_id=2)
    with pytest.raises(ValueError, match="rng must be"):
        openspiel_bot(hold_at(3), game, player_id=0, rng="seed")
    bot = openspiel_bot(hold_at(3), game, player_id=1, rng=np.random.default_rng(0))
    assert bot.player_id() == 1 and bot.step(game.new_initial_state()) == 0  # rolls at 0 (hold at 3)


def test_openspiel_q_learning_checks_the_game_and_the_snapshots_size(pyspiel):
    from pigtheory.learning import openspiel_q_learning

    with pytest.raises(ValueError, match="game must be OpenSpiel's 'pig'"):
        openspiel_q_learning(pyspiel.load_game("tic_tac_toe"))
    with pytest.raises(MemoryLimitError, match="Q-learning snapshots"):
        openspiel_q_learning(pyspiel.load_game("pig", {"winscore": 100_000}))


# --- the learning figure -------------------------------------------------------------------------


def _panel(**change):
    panel = {
        "title": "t",
        "xlabel": "x",
        "x": [1, 10],
        "exact": [0.1, 0.01],
        "mc": [0.1, 0.0],
        "mc_se": [0.01] * 2,
    }
    return {**panel, **change}


def test_the_learning_figure_checks_its_panels():
    assert len(plot_learning([_panel(), _panel(extra=("tabular", [0.2, 0.1]))]).axes) == 3
    for panels, word in (
        ("panels", "panels must be a list of dicts"),
        ([], r"panels must hold 1\.\.20 panels, got 0"),
        ([{"title": "t"}], "panels\\[0\\] lacks xlabel, x, exact, mc, mc_se"),
        ([_panel(exact=[0.1])], r"panels\[0\]\['exact'\] must be a 1-d array of 2 numbers"),
        ([_panel(x=[0, 10])], r"panels\[0\]\['x'\] must be a 1-d array of finite numbers > 0"),
        ([_panel(mc=["a", "b"])], r"panels\[0\]\['mc'\] must be an array of real numbers"),
        ([_panel(title=3)], r"panels\[0\]\['title'\] must be a str"),
        ([_panel(extra=[0.1, 0.2])], r"panels\[0\]\['extra'\] must be a \(label, values\) pair"),
    ):
        with pytest.raises(ValueError, match=word):
            plot_learning(panels)


def test_games_to_resolve_checks_its_numbers():
    assert games_to_resolve(np.array([0.01, 0.0])).tolist() == [10000.0, np.inf]
    assert games_to_resolve([0.1], sd=1.0, z=1.0).tolist() == pytest.approx([100.0])
    for kwargs, word in (
        ({"gap": "0.1"}, "gap must be an array of real numbers"),
        ({"gap": [object()]}, "gap must be an array of real numbers"),
        ({"gap": [0.1], "sd": -1}, "sd must be a finite number > 0"),
        ({"gap": [0.1], "z": float("nan")}, "z must be a finite number > 0"),
    ):
        with pytest.raises(ValueError, match=word):
            games_to_resolve(**kwargs)


# --- agents of the environments -----------------------------------------------------------------


def test_an_agents_answers_are_checked_where_it_gives_them():
    want = sequential.roll_table(hold_at(4), Rules(goal=10))
    got = sequential_agent_table(lambda obs: 1.0 if obs[2] < 4 else np.int64(0), rules=Rules(goal=10))
    assert (got == want).all()  # 1.0 and numpy integers are actions
    for answer in (1.7, None, "roll", 2):
        with pytest.raises(ValueError, match=r"agent: returned .* at state \(0, 0, 0\)"):
            sequential_agent_table(lambda obs, a=answer: a, rules=SMALL)
    q = np.zeros((6, 6, 6, 2))
    q[2, 1, 3] = np.nan
    with pytest.raises(ValueError, match="Q-table holds NaN"):
        sequential_agent_table(q, rules=SMALL)
    with pytest.raises(ValueError, match="Q-table holds real numbers"):
        sequential_agent_table(np.zeros((6, 6, 6, 2), dtype=object), rules=SMALL)
    with pytest.raises(ValueError, match="this environment has 2 players"):
        sequential_agent_table(lambda obs: 1, rules=Rules(goal=6, players=3))
    with pytest.raises(ValueError, match="rules must be a pigtheory.Rules"):
        sequential_agent_table(lambda obs: 1, rules="goal 6")


def test_a_simultaneous_agent_is_checked_before_its_table_is_built():
    calls = []
    table = simultaneous_agent_table(lambda obs: calls.append(1) or 3, rules=SMALL)
    assert table.table[0, 0] == 3 and table.table[5, 0] == 1 and len(calls) == 36
    with pytest.raises(ValueError, match="agent: a callable"):
        simultaneous_agent_table(3, rules=SMALL)
    with pytest.raises(ValueError, match=r"agent: returned 'x' at state \(0, 0\)"):
        simultaneous_agent_table(lambda obs: "x", rules=SMALL)
    with pytest.raises(ValueError, match="roll one die"):
        simultaneous_agent_table(lambda obs: 3, rules=Rules(goal=6, dice=2))
    with pytest.raises(MemoryLimitError, match="threshold table"):
        simultaneous_agent_table(lambda obs: calls.append(1) or 3, rules=Rules(goal=100_000))
    assert len(calls) == 36  # refused before the agent was asked


# --- a stopping rule's raw arrays -----------------------------------------------------------------


def test_rule_outcomes_checks_its_arrays():
    rules = Rules(goal=4, die_faces=2)
    assert rule_outcomes(np.arange(4)[None, :] < 3, [0], rules).tolist() == [[0.75, 0.0, 0.0, 0.0, 0.25]]
    for roll, own, word in (
        (np.ones((1, 3)), [0], r"roll must have shape \(states, goal\) = \(ns, 4\)"),
        (np.ones((1, 4)), [4], r"own: scores are in 0\.\.3, got 4\.\.4"),
        (np.ones((1, 4)), [-1], r"own: scores are in 0\.\.3"),
        (np.ones((1, 4)), [0.5], "own must be a 1-d integer array of 1 scores"),
        (np.ones((2, 4)), [0], "own must be a 1-d integer array of 2 scores"),
        (np.full((1, 4), 1.5), [0], r"chances of rolling are in \[0, 1\]"),
        (np.full((1, 4), np.nan), [0], r"chances of rolling are in \[0, 1\]"),
        ("roll", [0], "roll must be an array of numbers"),
        (np.array([["a"] * 4]), [0], "roll must be an array of numbers"),
    ):
        with pytest.raises(ValueError, match=word):
            rule_outcomes(roll, own, rules)
    with pytest.raises(ValueError, match="rules must be a pigtheory.Rules"):
        rule_outcomes(np.ones((1, 4)), [0], "rules")


# --- objects that misbehave where a policy or a word is expected -------------------------------


def test_a_policy_class_is_not_a_policy():
    for call in (
        lambda: sequential.roll_table(HoldAt, SMALL),
        lambda: sequential.compare(HoldAt, hold_at(3), rules=SMALL),
        lambda: evaluate(HoldAt, rules=SMALL),
    ):
        with pytest.raises(ValueError, match="the class HoldAt, not a policy"):
            call()


def test_a_callable_policy_that_answers_garbage_is_named_with_the_state():
    with pytest.raises(ValueError, match=r"policy: the callable returned None at state \(0, 0, 0\)"):
        evaluate(lambda i, j, k: None, rules=SMALL)
    # a callable that answers numbers is still read: "roll below 3" is hold_at(3)
    a = evaluate(lambda i, j, k: float(k < 3), rules=SMALL).value
    b = evaluate(hold_at(3), rules=SMALL).value
    assert np.allclose(a, b, equal_nan=True) and np.isfinite(a[0, 0, 0, 0])


class _Touchy:
    """An object whose ``==`` raises, as pybind11 objects (pyspiel's games) do with a str."""

    def __eq__(self, other):
        raise TypeError("incompatible function arguments")

    __hash__ = object.__hash__


def test_an_object_whose_equality_raises_is_refused_by_name():
    from pigtheory.games.policy_tables import check_referee_rules
    from pigtheory.play import opponent

    for call, word in (
        (
            lambda: simultaneous.best_response(hold_at(3), rules=SMALL, method=_Touchy()),
            "method must be one of",
        ),
        (lambda: simultaneous.best_response(hold_at(3), rules=SMALL, strategies=_Touchy()), "strategies"),
        (lambda: simultaneous.equilibrium(rules=SMALL, strategies=_Touchy()), "strategies must be one of"),
        (lambda: simultaneous.exploitability(hold_at(3), rules=SMALL, strategies=_Touchy()), "strategies"),
        (lambda: opponent("hold-at-3", mode=_Touchy(), goal=6), "mode must be one of"),
        (lambda: check_referee_rules(SMALL, players=_Touchy()), "players must be an integer"),
    ):
        with pytest.raises(ValueError, match=word):
            call()


def test_check_callable():
    f = check_callable("agent", len)
    assert f is len
    with pytest.raises(ValueError, match=r"agent must be a callable \(obs -> action\), got int"):
        check_callable("agent", 3, "obs -> action")
