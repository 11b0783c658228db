"""OpenSpiel's move horizon with three players (and the n-player layers at two).

Independent checks: brute force over every history of moves up to the horizon (no memo, exact
probabilities, OpenSpiel's move counting as in ``tests/referee/test_referee.py``), the two-player
horizon kernel, the referee without a horizon, and OpenSpiel's own ``pig`` through
``expected_game_score.policy_value``.
"""

from __future__ import annotations

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.referee import best_response, evaluate, exploitability
from pigtheory.referee.best_response import _best_response, _best_response_horizon_n
from pigtheory.referee.evaluate import _evaluate_horizon_n, _evaluate_tables

PIGLET4 = Rules.piglet(goal=4, players=3)  # a coin: tails busts, heads scores 1
DIE3 = Rules(goal=5, die_faces=3, players=3)  # faces: 1 busts, 2 and 3 score


def _random_tables(rules: Rules, seed: int, low: float = 0.1, high: float = 0.9) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    shape = (rules.goal,) * (rules.players + 1)
    return [low + (high - low) * rng.random(shape) for _ in range(rules.players)]


def _faces(rules: Rules) -> tuple[float, list[tuple[float, int]]]:
    """``(p_bust, [(prob, points)])`` written out from the rules' definition (not the roll model)."""
    d = rules.die_faces
    if rules.face_points:  # Piglet: every face but the bust face scores its listed points
        return 1 / d, [(1 / d, pts) for pts in rules.face_points]
    return 1 / d, [(1 / d, f) for f in range(2, d + 1)]


def _brute_force(rules: Rules, horizon: int, tables: list[np.ndarray], responder: int | None = None):
    """Walk every history of at most ``horizon`` moves (a roll or a stop is one move; the horizon
    reached is a draw; the forced stop at the goal wins). Returns ``(wins, draw)`` with every seat
    following its table, or the responder's best score (win + draw / n) against the others."""
    n, g = rules.players, rules.goal
    p_bust, faces = _faces(rules)

    def view(scores, p):
        return tuple(scores[(p + d) % n] for d in range(n))

    def dec(scores, k, p, moves):
        """A vector: each seat's win probability, then the draw probability (or, responding, a
        scalar: the responder's score)."""
        if moves >= horizon:
            return np.r_[np.zeros(n), 1.0] if responder is None else 1.0 / n
        if scores[p] + k >= g:
            if responder is None:
                out = np.zeros(n + 1)
                out[p] = 1.0
                return out
            return 1.0 if p == responder else 0.0
        m = moves + 1
        nxt = (p + 1) % n
        roll = p_bust * dec(scores, 0, nxt, m)
        for q, pts in faces:
            roll = roll + q * dec(scores, k + pts, p, m)
        banked = list(scores)
        banked[p] += k
        hold = dec(tuple(banked), 0, nxt, m)
        if p == responder:
            return max(roll, hold)
        r = tables[p][view(scores, p) + (k,)]
        return r * roll + (1 - r) * hold

    return dec((0,) * n, 0, 0, 0)


@pytest.mark.parametrize(
    ("rules", "horizons"),
    [
        (PIGLET4, range(1, 11)),
        pytest.param(PIGLET4, (11, 12), marks=pytest.mark.slow),
        (DIE3, range(1, 9)),
        (Rules.piglet(goal=5, players=3), (6, 10)),
    ],
)
def test_evaluate_with_horizon_equals_brute_force_over_histories(rules, horizons):
    tables = _random_tables(rules, seed=3)
    n = rules.players
    for horizon in horizons:
        ev = evaluate(tables, rules=rules, horizon=horizon)
        got = _brute_force(rules, horizon, tables)
        np.testing.assert_allclose(ev.wins, got[:n], rtol=0, atol=1e-14)
        assert ev.draw == pytest.approx(got[n], abs=1e-14)
        np.testing.assert_allclose(ev.value_start, got[:n] + got[n] / n, rtol=0, atol=1e-14)
        assert ev.method == "exact-horizon" and ev.horizon == horizon
        assert ev.value_start.sum() == pytest.approx(1.0, abs=1e-13)
    assert 0.0 < ev.draw < 1.0 and np.all(ev.wins > 0)  # the horizons reach the interesting range


def test_horizon_one_and_two_are_draws():
    # one move: a roll's die is never read, a stop at 0 scores nothing; two: no single roll reaches 4
    for horizon in (1, 2):
        ev = evaluate(_random_tables(PIGLET4, seed=1), rules=PIGLET4, horizon=horizon)
        assert ev.draw == 1.0 and np.all(ev.wins == 0.0)


def test_every_state_value_equals_brute_force_from_that_state():
    rules, horizon = PIGLET4, 7
    tables = _random_tables(rules, seed=5)
    ev = evaluate(tables, rules=rules, horizon=horizon)
    # seat 1 to move, scores (seat 1, seat 2, seat 0) = (2, 0, 1), turn total 1: relabel the seats
    # so that seat 1 moves first from those scores
    shifted = [tables[1], tables[2], tables[0]]
    n, g = rules.players, rules.goal

    def from_state(start, k0):
        p_bust, faces = _faces(rules)

        def dec(scores, k, p, moves):
            if moves >= horizon:
                return np.r_[np.zeros(n), 1.0]
            if scores[p] + k >= g:
                out = np.zeros(n + 1)
                out[p] = 1.0
                return out
            m, nxt = moves + 1, (p + 1) % n
            roll = p_bust * dec(scores, 0, nxt, m)
            for q, pts in faces:
                roll = roll + q * dec(scores, k + pts, p, m)
            banked = list(scores)
            banked[p] += k
            r = shifted[p][tuple(scores[(p + d) % n] for d in range(n)) + (k,)]
            return r * roll + (1 - r) * dec(tuple(banked), 0, nxt, m)

        return dec(start, k0, 0, 0)

    got = from_state((2, 0, 1), 1)
    assert ev.value[1, 2, 0, 1, 1] == pytest.approx(got[0] + got[n] / n, abs=1e-14)
    assert np.isnan(ev.value[1, 3, 0, 0, 1])  # own + k >= goal


@pytest.mark.parametrize("horizon", [1, 3, 8, 12, 30])
def test_two_players_through_the_n_player_layers_equal_the_two_player_kernel(horizon):
    rules = Rules(goal=6, die_faces=3)
    tables = _random_tables(rules, seed=11)
    a = _evaluate_tables(tables[0], tables[1], rules, horizon)
    b = _evaluate_horizon_n(tables, rules, horizon)
    np.testing.assert_allclose(b.value, a.value, rtol=0, atol=1e-14)
    np.testing.assert_allclose(b.wins, a.wins, rtol=0, atol=1e-14)
    assert b.draw == pytest.approx(a.draw, abs=1e-14)
    for seat in (0, 1):
        x = _best_response(tables, seat, rules, horizon, 100)
        y = _best_response_horizon_n(tables, seat, rules, horizon)
        assert y.value_start == pytest.approx(x.value_start, abs=1e-14)
        np.testing.assert_allclose(y.value, x.value, rtol=0, atol=1e-14)


def test_large_horizon_approaches_the_game_without_one():
    rules = Rules(goal=6, die_faces=3, players=3)
    tables = _random_tables(rules, seed=2)
    no = evaluate(tables, rules=rules)
    prev = 1.0
    for horizon in (5, 10, 20, 40, 80, 300):
        ev = evaluate(tables, rules=rules, horizon=horizon)
        assert ev.draw <= prev + 1e-15
        prev = ev.draw
        # every history won within the horizon is won without it: the wins only grow
        assert np.all(ev.wins <= no.wins + 1e-13)
        assert np.all(no.wins - ev.wins <= ev.draw + 1e-13)
        assert np.all(np.abs(ev.value_start - no.value_start) <= ev.draw + 1e-13)
    assert ev.draw < 1e-12
    np.testing.assert_allclose(ev.value, no.value, rtol=0, atol=1e-10)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_best_response_with_horizon_beats_random_policies_and_equals_brute_force(seat):
    rules = PIGLET4
    tables = _random_tables(rules, seed=7)
    n = rules.players
    for horizon in (3, 6, 9):
        br = best_response(tables, seat=seat, rules=rules, horizon=horizon)
        assert br.policy is None and br.method == "exact-horizon"
        assert br.value_start == pytest.approx(
            _brute_force(rules, horizon, tables, responder=seat), abs=1e-14
        )
        for s in range(4):
            mine = list(tables)
            mine[seat] = _random_tables(rules, seed=100 + s, low=0.0, high=1.0)[0]
            on = evaluate(mine, rules=rules, horizon=horizon).value_start[seat]
            assert br.value_start >= on - 1e-14
        assert br.value_start <= 1.0 and br.value_start >= 0.0
        assert br.value.shape == (rules.goal,) * (n + 1)


def test_exploitability_with_horizon_is_never_negative():
    for rules in (PIGLET4, DIE3):
        for seed in range(3):
            tables = _random_tables(rules, seed=seed, low=0.0, high=1.0)
            for horizon in (1, 4, 9, 25):
                e = exploitability(tables, rules=rules, horizon=horizon)
                assert np.all(e.gains >= -1e-13)
                assert e.nash_conv >= -1e-13 and e.horizon == horizon
                ev = evaluate(tables, rules=rules, horizon=horizon)
                np.testing.assert_allclose(e.value, ev.value_start, atol=1e-14)
    # a single move is a draw whatever anybody does: nothing to gain
    assert exploitability(tables, rules=DIE3, horizon=1).nash_conv == 0.0


def test_horizon_guard_refuses_large_solves_before_they_start():
    with pytest.raises(ValueError, match="horizon.*decisions of work"):
        evaluate(np.full((40,) * 4, 0.5), rules=Rules(goal=40, players=3), horizon=10**6)
    from pigtheory.guard import MemoryLimitError

    with pytest.raises(MemoryLimitError, match="referee with horizon"):
        best_response(np.full((30,) * 4, 0.5), rules=Rules(goal=30, players=3), horizon=5, max_memory="1M")


def test_agrees_with_openspiel_policy_value_on_three_player_pig():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import policy as osp
    from open_spiel.python.algorithms import expected_game_score

    from pigtheory.referee.openspiel import openspiel_rules

    for params in (
        {"players": 3, "winscore": 4, "piglet": True, "diceoutcomes": 2, "horizon": 9},
        {"players": 3, "winscore": 5, "diceoutcomes": 3, "horizon": 7},
    ):
        game = pyspiel.load_game("pig", params)
        rules, horizon = openspiel_rules(game)
        uniform = osp.UniformRandomPolicy(game)
        theirs = expected_game_score.policy_value(game.new_initial_state(), [uniform] * 3)
        ours = evaluate(uniform, rules=rules, horizon=horizon)
        np.testing.assert_allclose(ours.openspiel_returns, theirs, rtol=0, atol=1e-12)
        assert 0.0 < ours.draw < 1.0
