"""The game model's solver blocks: ``evaluate`` and ``best_response`` of each kind of play are
the exact solvers with the game's rules (the same bits), and a best response is worth at least
what the profile gives its seat."""

from __future__ import annotations

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory import referee as R
from pigtheory import simultaneous as S
from pigtheory.games import SequentialGame, SimultaneousGame


@pytest.mark.parametrize("rules", [Rules(goal=20), Rules(goal=12, die_faces=4), Rules(goal=8, players=3)])
def test_sequential_blocks_are_the_referees_solvers(rules):
    game = SequentialGame(rules)
    profile = [_hold_table(rules, 3 + 2 * i) for i in range(rules.players)]
    ev = game.evaluate(profile)
    want = R.evaluate(profile, rules=rules)
    assert np.array_equal(ev.value_start, want.value_start)
    assert ev.value_start.sum() == pytest.approx(1.0, abs=1e-12)
    for seat in range(rules.players):
        br = game.best_response(profile, seat)
        assert np.array_equal(br.value_start, R.best_response(profile, seat=seat, rules=rules).value_start)
        assert br.value_start >= ev.value_start[seat] - 1e-12


def _hold_table(rules, t):
    """P(roll) = 1 while the turn total is below t, at every score (the canonical array)."""
    k = np.arange(rules.goal)
    return np.broadcast_to((k < t).astype(float), (rules.goal,) * (rules.players + 1)).copy()


def test_sequential_best_response_gains_against_a_weak_seat():
    """Against hold-at-5 the best response of seat 1 is worth strictly more than hold-at-5."""
    game = SequentialGame(Rules(goal=20))
    ev = game.evaluate(hold_at(5))
    assert game.best_response(hold_at(5), 1).value_start > ev.value_start[1] + 1e-3


@pytest.mark.parametrize("players", [2, 3])
def test_simultaneous_blocks_are_the_family_solvers(players):
    rules = Rules(goal=12, players=players)
    game = SimultaneousGame(rules)
    profile = [hold_at(4 + 3 * i) for i in range(players)]
    v = game.evaluate(profile)
    assert np.array_equal(v, S.win_probabilities(profile, rules=rules))
    start = (0,) * players
    assert sum(v[(p,) + start] for p in range(players)) == pytest.approx(1.0, abs=1e-12)
    for seat in range(players):
        others = [profile[(seat + j) % players] for j in range(1, players)]
        br = game.best_response(profile, seat)
        want = S.best_response(others[0] if players == 2 else others, rules=rules)
        assert np.array_equal(br.value, want.value)
        assert br.value[start] >= v[(seat,) + start] - 1e-12  # the response's frame: own score first


def test_simultaneous_one_policy_for_every_seat():
    game = SimultaneousGame(Rules(goal=15))
    assert np.array_equal(game.evaluate(hold_at(6)), game.evaluate([hold_at(6), hold_at(6)]))
    v = game.evaluate(hold_at(6))
    assert v[0, 0, 0] == pytest.approx(0.5, abs=1e-12)  # symmetry: one policy, two seats


@pytest.mark.parametrize(
    "seat, profile, match",
    [
        (2, [hold_at(3)] * 2, "seat"),
        (-1, [hold_at(3)] * 2, "seat"),
        (0, [hold_at(3)] * 3, "one policy per seat"),
    ],
)
def test_simultaneous_best_response_checks_its_arguments(seat, profile, match):
    with pytest.raises(ValueError, match=match):
        SimultaneousGame(Rules(goal=10)).best_response(profile, seat)


HOSTILE = ["1", -1, 2.5, 10**30, float("nan"), True, None, [0]]


@pytest.mark.parametrize("seat", HOSTILE)
def test_a_hostile_seat_is_refused_by_name_in_both_models(seat):
    for game, profile in (
        (SequentialGame(Rules(goal=10)), hold_at(3)),
        (SimultaneousGame(Rules(goal=10)), hold_at(3)),
    ):
        with pytest.raises(ValueError, match="seat"):
            game.best_response(profile, seat)


@pytest.mark.parametrize("profile", ["hold at 3", 3.5, None, [hold_at(3)] * 5, {"n": 3}])
def test_a_hostile_profile_is_a_clear_error_in_both_models(profile):
    for game in (SequentialGame(Rules(goal=10)), SimultaneousGame(Rules(goal=10))):
        with pytest.raises(ValueError):
            game.evaluate(profile)
        with pytest.raises(ValueError):
            game.best_response(profile, 0)
