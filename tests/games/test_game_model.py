"""The game model (pigtheory.games): the outcome table's exact probabilities and the transition
against hand-worked cases for one die, two dice (snake eyes), Double Trouble and Piglet."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pigtheory import Rules, turn_total
from pigtheory.games import HOLD, ROLL, SequentialGame, SimultaneousGame, State, outcomes

RULES = [
    Rules(goal=20),
    Rules(goal=20, dice=2),
    Rules(goal=20, dice=2, double_trouble=True),
    Rules.piglet(goal=5),
]


def _roll(rules: Rules, *faces: int) -> int:
    r = 0
    for f in faces:
        r = r * rules.die_faces + f - 1
    return r


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_the_probabilities_sum_to_one_and_are_the_roll_model(rules):
    t = outcomes(rules)
    exact = t.exact()
    assert sum(exact.values()) == 1 and all(isinstance(p, Fraction) for p in exact.values())
    m = rules.roll_model()
    by_kind = {
        kind: sum((p for (k, _), p in exact.items() if k == kind), Fraction(0)) for kind in ("bust", "reset")
    }
    assert (by_kind["bust"], by_kind["reset"]) == (m.p_bust, m.p_reset)
    assert tuple((x, p) for (k, x), p in exact.items() if k == "score") == m.free
    assert tuple((x, p) for (k, x), p in exact.items() if k == "double") == m.forced
    assert [t.faces(r) for r in range(t.rolls)][:2] == [(1,) * rules.dice, (1,) * (rules.dice - 1) + (2,)]


def test_one_die_by_hand():
    game = SequentialGame(Rules(goal=10))
    s = game.start()
    assert game.legal_actions(s) == (ROLL,) and game.legal_actions(s, hold_at_zero=True) == (HOLD, ROLL)
    s = game.step(s, ROLL, _roll(game.rules, 4))
    assert s == State((0, 0), 0, 4, False) and game.legal_actions(s) == (HOLD, ROLL)
    assert game.step(s, ROLL, _roll(game.rules, 1)) == State((0, 0), 1, 0, False)  # bust
    s = game.step(s, HOLD)
    assert s == State((4, 0), 1, 0, False)
    s = game.step(State((4, 7), 1, 0), ROLL, _roll(game.rules, 3))
    assert s == State((4, 10), 1, 0, False) and game.is_terminal(s) and game.winner(s) == 1
    assert game.legal_actions(s) == ()
    with pytest.raises(ValueError, match="roll must be"):
        game.step(game.start(), ROLL, 6)


def test_two_dice_snake_eyes_resets_the_score():
    rules = Rules(goal=50, dice=2)
    game = SequentialGame(rules)
    at = State((30, 12), 0, 8)
    assert game.step(at, ROLL, _roll(rules, 1, 1)) == State((0, 12), 1, 0, False)
    assert game.step(at, ROLL, _roll(rules, 1, 5)) == State((30, 12), 1, 0, False)
    assert game.step(at, ROLL, _roll(rules, 3, 3)) == State((30, 12), 0, 14, False)  # no double rule
    own, k, passed, won, forced = game.roll_many(
        np.array([30, 30, 45]),
        np.array([8, 8, 0]),
        np.array([_roll(rules, 1, 1), _roll(rules, 2, 5), _roll(rules, 2, 3)]),
    )
    assert own.tolist() == [0, 30, 50] and k.tolist() == [0, 15, 0]
    assert (
        passed.tolist() == [True, False, False] and won.tolist() == [False, False, True] and not forced.any()
    )


def test_double_trouble_must_roll_again():
    rules = Rules(goal=20, dice=2, double_trouble=True)
    game = SequentialGame(rules)
    s = game.step(State((15, 0), 0, 0), ROLL, _roll(rules, 4, 4))
    assert s == State((15, 0), 0, 8, True)  # at the goal, but a double must be rolled again
    assert game.legal_actions(s) == (ROLL,) and not game.is_terminal(s)
    assert game.step(s, ROLL, _roll(rules, 2, 3)) == State((20, 0), 0, 0, False)
    assert game.step(s, ROLL, _roll(rules, 6, 1)) == State((15, 0), 1, 0, False)
    with pytest.raises(ValueError, match="not legal"):
        game.step(s, HOLD)


def test_piglet_and_the_simultaneous_turn():
    rules = Rules.piglet(goal=3)
    game = SimultaneousGame(rules)
    assert outcomes(rules).exact() == {("bust", 0): Fraction(1, 2), ("score", 1): Fraction(1, 2)}
    assert game.turn_distribution(2, 3) == {0: Fraction(3, 4), 2: Fraction(1, 4)}
    assert game.turn_distribution(3, 1) == {0: Fraction(7, 8), 1: Fraction(1, 8)}  # clipped at the room
    assert game.end_turn((2, 2), (1, 1)) == ((3, 3), (0.5, 0.5))
    assert game.end_turn((0, 2), (1, 0)) == ((1, 2), None)
    seq = SequentialGame(rules)
    assert seq.step(State((2, 0), 0, 0), ROLL, 1) == State((3, 0), 0, 0, False)
    assert seq.step(State((2, 0), 0, 0), ROLL, 0) == State((2, 0), 1, 0, False)


@pytest.mark.parametrize("rules", RULES[:2] + RULES[3:], ids=str)  # X_k is not defined for Double Trouble
@pytest.mark.parametrize("part", [0.0, 0.4, 1.0])
def test_the_turn_recursion_is_turn_total(rules, part):
    k = max(1, round(part * rules.goal))
    unclipped = SimultaneousGame(rules).turn_distribution(k, 10**9)
    assert unclipped == turn_total(k, rules, exact=True).pmf


def test_step_many_is_step():
    rules = Rules(goal=15, dice=2, double_trouble=True)
    game = SequentialGame(rules)
    rng = np.random.default_rng(0)
    own, k = rng.integers(0, 15, 500), rng.integers(0, 10, 500)
    actions, rolls = rng.integers(0, 2, 500), game.sample(rng, 500)
    new_own, new_k, passed, won, forced = game.step_many(own, k, actions, rolls)
    for g in range(500):
        s = State((int(own[g]), 0), 0, int(k[g]))
        t = game.step(s, int(actions[g]), int(rolls[g]))
        assert (t.scores[0], t.k, t.forced) == (new_own[g], new_k[g], forced[g])
        assert (t.mover == 1) == bool(passed[g] and not won[g]) and game.is_terminal(t) == won[g]


def test_sample_is_the_rules_sampler():
    rules = Rules(goal=20, dice=2)
    rolls = outcomes(rules).sample(np.random.default_rng(4), 1000)
    kind, points = rules.sample_rolls(np.random.default_rng(4), 1000)
    assert (outcomes(rules).kind[rolls] == kind).all() and (outcomes(rules).points[rolls] == points).all()


@pytest.mark.parametrize(
    "rules", [Rules(goal=12), Rules(goal=12, dice=2), Rules(goal=12, dice=2, double_trouble=True)]
)
def test_roll_at_and_hold_at_in_place_are_roll_many_and_hold_many(rules):
    """The vector environment's in-place steps, with and without the outputs it leaves out."""
    game = SequentialGame(rules)
    rng = np.random.default_rng(3)
    own0 = rng.integers(0, 12, size=200)
    k0 = rng.integers(0, 12 - own0)
    rolls = game.sample(rng, 200)
    want_own, want_k, passed, won, forced = game.roll_many(own0, k0, rolls)
    at = np.arange(200)
    for flags in ({}, {"passed": False}, {"going": False}):
        own, k = own0.copy(), k0.copy()
        busted, wins, going, must = game.roll_at(own, k, at, rolls, **flags)
        assert np.array_equal(np.sort(wins), at[won]) and np.array_equal(np.sort(must), at[forced])
        assert (busted is None) == (flags.get("passed") is False)
        assert (going is None) == (flags.get("going") is False)
        if busted is not None:
            assert np.array_equal(np.sort(busted), at[passed])
            own[busted], k[busted] = want_own[busted], 0  # the caller passes the dice
        if going is not None:
            assert np.array_equal(np.sort(going), at[~passed & ~won])
        assert np.array_equal(own, want_own)
        assert np.array_equal(k[~passed], want_k[~passed])
    live = own0 + k0 < 12
    for clear in (True, False):
        own, k = own0.copy(), k0.copy()
        game.hold_at(own, k, at[live], clear=clear)
        banked, _ = game.hold_many(own0, k0)
        assert np.array_equal(own[live], banked[live]) and np.array_equal(own[~live], own0[~live])
        assert np.array_equal(k[live], 0 * k0[live] if clear else k0[live])


def test_roll_at_and_hold_at_refuse_flags_that_are_not_booleans():
    game = SequentialGame(Rules(goal=12))
    own, k, at = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64), np.arange(3)
    for kw in ({"passed": "no"}, {"going": 0}, {"passed": None}):
        with pytest.raises(ValueError, match="True or False"):
            game.roll_at(own, k, at, np.zeros(3, dtype=np.int64), **kw)
    with pytest.raises(ValueError, match="clear"):
        game.hold_at(own, k, at, clear=1)
