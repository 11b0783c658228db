"""The game's rules: the Python engine by hand, and the Python and JavaScript engines against
each other (every event and every number of seeded games, through node)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pigtheory import Rules
from pigtheory.play import Game, Mulberry32, OpponentTable, quantize_weights, read_site_data, streams
from pigtheory.play.game import face_points, roll_outcome
from tests.play_support import node, play_reference, run_node_games

# --- the generator ------------------------------------------------------------------------


def test_mulberry32_is_the_published_generator():
    # outputs of the reference JavaScript one-liner (Ettinger's mulberry32) for seed 1 and 0
    one, zero = Mulberry32(1), Mulberry32(0)
    assert [one.next_uint32() for _ in range(3)] == [2693262067, 11749833, 2265367787]
    assert [zero.next_uint32() for _ in range(2)] == [1144304738, 1416247]


def test_streams_differ_and_repeat():
    a, b = streams(42)
    first = [a.next_uint32() for _ in range(5)]
    assert first != [b.next_uint32() for _ in range(5)]
    again = streams(42)[0]
    assert [again.next_uint32() for _ in range(5)] == first


@pytest.mark.parametrize("n", [2, 6, 7])
def test_die_is_uniform(n):
    rng = Mulberry32(2024)
    counts = np.bincount([rng.below(n) for _ in range(60_000)], minlength=n)
    expected = 60_000 / n
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert counts.size == n and chi2 < 30  # 99.99% quantile of chi2 with n - 1 <= 6 dof is ~27.9


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6).filter(lambda w: sum(w) > 1e-3))
def test_quantized_weights_sum_to_two_to_the_32(w):
    w = np.array(w) / sum(w)
    q = quantize_weights(w)
    assert int(q.sum()) == 1 << 32
    assert np.all(np.abs(q - w * 2.0**32) < 1.001)
    assert np.all(q[w == 0] == 0)


def test_pick_follows_the_weights():
    weights = quantize_weights(np.array([0.2, 0.0, 0.8]))
    rng = Mulberry32(9)
    picks = np.bincount([rng.pick(weights) for _ in range(20_000)], minlength=3)
    assert picks[1] == 0 and abs(picks[0] / 20_000 - 0.2) < 0.015


# --- the Python engine ---------------------------------------------------------------------


def _always(rules: Rules, roll: bool) -> OpponentTable:
    g = rules.goal
    return OpponentTable("sequential", rules, roll=np.full((g, g, g), roll))


def test_faces_and_outcomes():
    assert face_points(Rules(die_faces=8, bust_face=3)) == (1, 2, 0, 4, 5, 6, 7, 8)
    two = Rules(dice=2)
    assert roll_outcome((1, 4), two) == ("bust", 0)
    assert roll_outcome((5, 5), two) == ("score", 10)
    assert roll_outcome((5, 5), Rules(dice=2, double_trouble=True)) == ("double", 10)


def test_sequential_turn_passes_after_hold_and_bust():
    rules = Rules(goal=50)
    game = Game(_always(rules, False), seed=11)
    while game.to_move == "you":
        event = game.roll()
        if event["outcome"] == "bust":
            assert game.to_move == "opponent" and game.scores == [0, 0]
            break
        if game.k >= 6:
            k = game.k
            game.hold()
            assert game.scores == [k, 0] and game.to_move == "opponent" and game.events[-1]["k"] == k
            break
    game.step_opponent()  # it passes (holds at 0): the turn comes back
    assert game.events[-1]["outcome"] == "pass" and game.to_move == "you"


def test_sequential_goal_wins_at_once():
    rules = Rules(goal=3)
    game = Game(_always(rules, True), seed=0, first="opponent")
    game.play_opponent()
    while game.winner is None:
        game.roll() if game.to_move == "you" else game.play_opponent()
    last = game.events[-1]
    assert last["outcome"] == "goal" and game.scores[0 if game.winner == "you" else 1] == 3


def test_double_trouble_forbids_holding_after_a_double():
    rules = Rules(goal=100, dice=2, double_trouble=True)
    for seed in range(200):
        game = Game(_always(rules, True), seed=seed)
        game.roll()
        if game.events[-1]["outcome"] == "double":
            assert game.forced and not game.can_hold
            with pytest.raises(ValueError, match="hold"):
                game.hold()
            return
    pytest.fail("no double in 200 first rolls")


def test_snake_eyes_resets_the_score():
    rules = Rules(goal=100, dice=2)
    for seed in range(2000):
        game = Game(_always(rules, False), seed=seed)
        game.scores[0] = 40
        game.roll()
        if game.events[-1]["outcome"] == "reset":
            assert game.scores[0] == 0 and game.to_move == "opponent"
            return
    pytest.fail("no snake eyes")


def test_simultaneous_tie_when_both_reach_the_goal():
    rules = Rules(goal=4)
    th = np.ones((4, 4, 1), dtype=np.int64) * np.minimum(4, 4 - np.arange(4))[:, None, None]
    opp = OpponentTable("simultaneous", rules, thresholds=th, weights=np.full((4, 4, 1), 1 << 32))
    outcomes = set()
    for seed in range(300):
        game = Game(opp, seed=seed)
        assert game.events[0]["action"] == "choose" and not game.can_hold  # roll at least once
        while game.winner is None:
            game.roll() if game.to_move == "you" else game.play_opponent()
        last = [e for e in game.events if e["action"] == "resolve"][-1]
        outcomes.add(last["outcome"])
        if last["outcome"] == "tie":
            assert game.winner == "tie" and game.scores == [4, 4]
    assert outcomes == {"win", "tie"}


def test_moves_out_of_turn_are_refused():
    rules = Rules(goal=10)
    game = Game(_always(rules, True), seed=1, first="opponent")
    with pytest.raises(ValueError, match="not your move"):
        game.roll()
    with pytest.raises(ValueError, match="first"):
        Game(_always(rules, True), seed=1, first="nobody")


# --- Python and JavaScript agree --------------------------------------------------------


def test_site_data_round_trip(site):
    folder, opps = site
    for key, opp in opps.items():
        data = read_site_data(folder / "data" / f"{key}.js")
        resp = opp.response
        g = opp.rules.goal
        if opp.mode == "sequential":
            assert np.array_equal(data["opponent_roll"], opp.table.roll)
            best = resp.policy[..., 0] if resp.policy.ndim == 4 else resp.policy
            assert np.array_equal(data.get("best_roll", data["opponent_roll"]), best)
            start = resp.value[..., 0, 0] if resp.value.ndim == 4 else resp.value[:, :, 0]
        else:
            assert np.array_equal(data["best_roll"], resp.policy.roll)
            start = resp.value[:g, :g]
        assert np.max(np.abs(data["value"] - start)) <= 2.0**-25


@pytest.mark.skipif(node() is None, reason="node is not installed: the JavaScript engine cannot run")
def test_javascript_plays_the_same_games(site):
    folder, opps = site
    specs = [
        {"key": key, "seed": seed, "first": "you" if seed % 2 else "opponent"}
        for key in opps
        for seed in (1, 2, 3, 4, 2**32 - 1)
    ]
    games = run_node_games(folder, specs)
    assert len(games) == len(specs)
    checked = 0
    for spec, js in zip(specs, games, strict=True):
        opp = opps[spec["key"]]
        game, readings = play_reference(opp, spec["seed"], spec["first"])
        assert js["events"] == game.events, spec
        assert len(js["readings"]) == len(readings)
        for py, jr in zip(readings, js["readings"], strict=True):
            assert (jr["who"], jr["advice"]) == (py.who, py.advice), spec
            for field in ("value", "roll", "hold"):
                x = getattr(py, field)
                assert (jr[field] is None) == (x is None), (spec, field)
                if x is not None:
                    # the page's values are rounded to 2**-24 (3e-8); the passes add no more
                    assert jr[field] == pytest.approx(x, abs=2e-7), (spec, field)
                    checked += 1
    assert checked > 500
