"""Monte Carlo simulator: reproducibility, conservation, validation, known turn counts."""

from fractions import Fraction

import numpy as np
import pytest

from pigtheory import MixedPolicy, Rules, hold_at
from pigtheory.simulate import Simulation, play_simultaneous, turn_totals
from pigtheory.simultaneous import win_probabilities, win_probability

R = Rules(goal=20)


def test_seeded_runs_repeat():
    a = play_simultaneous([hold_at(5), hold_at(8)], R, games=5000, rng=3)
    b = play_simultaneous([hold_at(5), hold_at(8)], R, games=5000, rng=np.random.default_rng(3))
    assert np.array_equal(a.wins, b.wins) and np.array_equal(a.turns, b.turns)
    c = play_simultaneous([hold_at(5), hold_at(8)], R, games=5000, rng=4)
    assert not np.array_equal(a.turns, c.turns)


def test_result_is_frozen_and_consistent():
    sim = play_simultaneous([hold_at(5), hold_at(8)], R, games=3000, rng=1)
    assert isinstance(sim, Simulation) and sim.games == 3000 and sim.start == (0, 0)
    assert sim.wins.sum() == pytest.approx(1.0)
    assert sim.value is sim.wins
    assert sim.turns.min() >= 1 and sim.turns_mean == pytest.approx(sim.turns.mean())
    assert sim.turns_sd == pytest.approx(sim.turns.std(ddof=1))
    assert not sim.wins.flags.writeable and not sim.turns.flags.writeable
    with pytest.raises(AttributeError):
        sim.games = 1  # type: ignore[misc]


def test_goal_2_turn_count_is_geometric():
    # Every scoring roll reaches goal 2, so a game lasts until somebody scores:
    # P(game continues after a turn) = (1/6)^2, mean turns 36/35, win shares 1/2 by symmetry.
    sim = play_simultaneous([hold_at(1), hold_at(1)], Rules(goal=2), games=100_000, rng=9)
    mean = 36 / 35
    sd = np.sqrt((1 / 36) / (35 / 36) ** 2)
    assert abs(sim.turns_mean - mean) < 4 * sd / np.sqrt(sim.games)
    assert abs(sim.wins[0] - 0.5) < 4 * sim.stderr[0]


def test_ties_are_split():
    # Goal 2, both hold at 1: P(tie) per game = (25/36) / (35/36) = 5/7, so each seat's share
    # takes the values 0, 1/2 and 1, and the standard error reflects that.
    sim = play_simultaneous([hold_at(1), hold_at(1)], Rules(goal=2), games=50_000, rng=10)
    p_tie = float(Fraction(5, 7))
    sd_exact = np.sqrt((1 - p_tie) * 0.25)  # share - 1/2 is +-1/2 without a tie, 0 with one
    assert sim.stderr[0] * np.sqrt(sim.games) == pytest.approx(sd_exact, rel=0.02)


def test_start_scores():
    r = Rules(goal=3)
    sim = play_simultaneous([hold_at(1), hold_at(3)], r, games=100_000, rng=12, start=(2, 0))
    v = win_probability(hold_at(1), hold_at(3), rules=r)[2, 0]
    assert abs(sim.wins[0] - v) < 4 * sim.stderr[0]


def test_mixed_policy_draws_per_turn():
    # A 50/50 mix of "hold at 1" and "hold at 3" at goal 3 differs from both pure policies.
    r = Rules(goal=3)
    mixed = MixedPolicy.of([(hold_at(1), 0.5), (hold_at(3), 0.5)], r)
    sim = play_simultaneous([mixed, hold_at(2)], r, games=200_000, rng=13)
    exact = win_probability(mixed, hold_at(2), rules=r)[0, 0]
    assert abs(sim.wins[0] - exact) < 4 * sim.stderr[0]


def test_seat_order_and_own_centric_states():
    # Player 1 (B) uses a table that depends on whether A is ahead; the simulator must look
    # it up at (B's score, A's score).
    r = Rules(goal=12)
    table = hold_at(6).table(r)
    own, other = np.indices(table.shape)
    table = np.where(other > own, np.minimum(12 - own, 11), np.minimum(2, 12 - own))
    exact = win_probability(hold_at(4), table, rules=r)[0, 0]
    sim = play_simultaneous([hold_at(4), table], r, games=200_000, rng=14)
    assert abs(sim.wins[0] - exact) < 4 * sim.stderr[0]


def test_four_players():
    r = Rules(goal=15, players=4)
    sim = play_simultaneous([hold_at(3), hold_at(6), hold_at(9), hold_at(15)], r, games=20_000, rng=15)
    assert sim.wins.shape == (4,) and sim.wins.sum() == pytest.approx(1.0)


def test_max_turns_gives_a_clear_error():
    with pytest.raises(RuntimeError, match="max_turns=1"):
        play_simultaneous([hold_at(100), hold_at(100)], games=200, rng=0, max_turns=1)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"profile": [hold_at(3)]}, "profile"),
        ({"profile": hold_at(3)}, "profile"),
        ({"games": 0}, "games"),
        ({"max_turns": 0}, "max_turns"),
        ({"start": (0, 20)}, "start"),
        ({"start": (0,)}, "start"),
        ({"rng": "seed"}, "rng"),
        ({"rules": Rules(goal=20, dice=2)}, "rules"),
        ({"rules": "goal 20"}, "rules"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, name):
    args = {"profile": [hold_at(3), hold_at(4)], "rules": R, "games": 10, "rng": 0}
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        play_simultaneous(**args)


def test_turn_totals_validation():
    with pytest.raises(ValueError, match="k must"):
        turn_totals(0, 10)
    with pytest.raises(ValueError, match="n must"):
        turn_totals(3, 0)
    with pytest.raises(ValueError, match="Double Trouble"):
        turn_totals(3, 10, rules=Rules(dice=2, double_trouble=True))


def test_turn_totals_support():
    x = turn_totals(10, 50_000, rules=Rules.piglet(), rng=1)
    assert set(np.unique(x).tolist()) == {0, 10}
    assert abs((x == 10).mean() - 2.0**-10) < 4 * np.sqrt(2.0**-10 / 50_000)


def test_three_players_tables_that_read_both_opponents():
    # Seat order matters: each table is indexed (own, next seat, seat after that).
    g = 15
    r = Rules(goal=g, players=3)
    own, nxt, last = np.indices((g, g, g))
    t0 = np.minimum(np.where(nxt > last, 10, 3), g - own)
    t1 = np.minimum(np.where(last > own, 12, 2), g - own)
    profile = [t0, t1, hold_at(5)]
    exact = win_probabilities(profile, rules=r)[:, 0, 0, 0]
    sim = play_simultaneous(profile, r, games=200_000, rng=97)
    assert np.all(np.abs(sim.wins - exact) < 4 * sim.stderr)


def test_bust_face_six_and_piglet_agree_with_exact():
    for r, a, b in ((Rules(goal=30, bust_face=6), 8, 14), (Rules.piglet(goal=10), 2, 5)):
        exact = win_probability(hold_at(a), hold_at(b), rules=r)[0, 0]
        sim = play_simultaneous([hold_at(a), hold_at(b)], r, games=100_000, rng=96)
        assert abs(sim.wins[0] - exact) < 4 * sim.stderr[0]
