"""Symmetric equilibria of n-player simultaneous Pig, checked by code that does not share their
kernels: the core's generic best response and evaluator (full state cube), the two-player
exact equilibrium, and the face-by-face simulator.

Standard-die games at small goals have pure equilibria only (holding at the room is best
everywhere); dice with two or three faces reach mixed states at goals 11-16, so those games
test the mixed solver at a size a fast test can afford.
"""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pigtheory
from pigtheory import Rules
from pigtheory.cli import main
from pigtheory.simulate import play_simultaneous
from pigtheory.simultaneous import (
    SymmetricEquilibrium,
    best_response,
    equilibrium,
    symmetric_best_response,
    symmetric_dynamics,
    symmetric_equilibrium,
    win_probabilities,
)
from pigtheory.simultaneous.symmetric import stage as symmetric_stage

SMALL = [Rules(goal=g, players=3) for g in range(3, 9)]
MIXED = [
    Rules(goal=12, die_faces=2, players=3),
    Rules(goal=14, die_faces=3, players=3),
    Rules(goal=14, die_faces=2, players=4),
]


def seat_values(value: np.ndarray) -> np.ndarray:
    """``out[p][s]``: player p's value at the seat-order state s, from own-first ``value``."""
    return np.stack([np.moveaxis(value, 0, p) for p in range(value.ndim)])


@pytest.fixture(scope="module")
def solved():
    return {r: symmetric_equilibrium(rules=r, engine="numba") for r in SMALL + MIXED}


@pytest.mark.parametrize("rules", SMALL + MIXED, ids=str)
def test_no_player_gains_by_an_exact_best_response_over_the_full_cube(solved, rules):
    eq = solved[rules]
    if rules in MIXED:
        assert eq.n_mixed > 0  # the case is here to exercise the mixed solver
    n = rules.players
    br = best_response([eq.policy] * (n - 1), rules=rules)  # generic core path, any thresholds
    gain = br.value - eq.value
    assert gain.max() <= 1e-10
    assert gain.min() >= -1e-12  # a best response is never worse than the equilibrium
    assert eq.residual <= 1e-12 and eq.epsilon_start <= 1e-12


@pytest.mark.parametrize("rules", SMALL + MIXED, ids=str)
def test_values_are_the_profiles_values_sum_to_one_and_ignore_the_opponents_order(solved, rules):
    eq = solved[rules]
    n = rules.players
    seats = win_probabilities([eq.policy] * n, rules=rules)  # the core's evaluator
    np.testing.assert_allclose(seats, seat_values(eq.value), rtol=0, atol=1e-13)
    np.testing.assert_allclose(seats.sum(axis=0), 1.0, rtol=0, atol=1e-13)
    mine = seats[0]
    for perm in ([0, 2, 1] + list(range(3, n)), [0] + list(range(2, n)) + [1]):
        np.testing.assert_allclose(np.transpose(mine, perm), mine, rtol=0, atol=1e-13)
    np.testing.assert_allclose(eq.at(*([0] * n)), 1.0 / n, rtol=0, atol=1e-13)


@pytest.mark.parametrize("goal", [45, 50])
def test_two_players_through_the_same_code_equal_the_exact_equilibrium(goal):
    rules = Rules(goal=goal)
    sym = symmetric_equilibrium(rules=rules, engine="numba")
    ref = equilibrium(rules=rules)
    np.testing.assert_allclose(sym.value, ref.value, rtol=0, atol=1e-13)
    assert sym.n_mixed > 0
    assert {tuple(s) for s in sym.mixed_states.tolist()} == {tuple(sorted(s)) for s in ref.mixed_states}
    for i, j in ref.mixed_states:
        ours, theirs = sym.strategy(i, j), ref.strategy(i, j)
        assert set(ours) == set(theirs)
        np.testing.assert_allclose([ours[k] for k in theirs], list(theirs.values()), atol=1e-9)


def test_the_compiled_and_the_interpreted_engines_agree():
    rules = Rules(goal=12, die_faces=2, players=3)
    fast = symmetric_equilibrium(rules=rules, engine="numba")
    slow = symmetric_equilibrium(rules=rules, engine="numpy")
    np.testing.assert_allclose(fast.value.table, slow.value.table, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(fast.policy.actions, slow.policy.actions)
    np.testing.assert_allclose(fast.policy.mix_weights, slow.policy.mix_weights, atol=1e-15)


def test_newton_gives_up_hopeless_solves_only_in_the_ordinary_search(monkeypatch):
    # With a patience of one step the ordinary search gives up nearly every Newton solve, so
    # more states need the fallback; the wider search (no patience) still certifies them.
    rules = Rules(goal=14, die_faces=2, players=4)
    reference = symmetric_equilibrium(rules=rules, engine="numpy")
    assert symmetric_stage.ORDINARY.patience > 0 and symmetric_stage.WIDE.patience == 0
    monkeypatch.setattr(symmetric_stage, "ORDINARY", symmetric_stage.ORDINARY._replace(patience=1))
    impatient = symmetric_equilibrium(rules=rules, engine="numpy")
    assert impatient.n_fallback > reference.n_fallback
    assert impatient.residual <= 1e-12 and impatient.n_mixed == reference.n_mixed
    np.testing.assert_allclose(impatient.value.table, reference.value.table, rtol=0, atol=1e-12)


def test_the_wider_search_closes_states_the_ordinary_search_leaves_open(monkeypatch):
    # An ordinary search of one candidate per role cannot mix: the mixed states stay open
    # (certificate above tol) unless the wider search of step 5 re-solves them.
    rules = Rules(goal=12, die_faces=2, players=3)
    reference = symmetric_equilibrium(rules=rules, engine="numpy")
    assert reference.n_mixed > 0
    crippled = symmetric_stage.Limits(1, 1, 1, 1, 60, 1)
    monkeypatch.setattr(symmetric_stage, "ORDINARY", crippled)
    monkeypatch.setattr(symmetric_stage, "WIDE", crippled)
    open_ = symmetric_equilibrium(rules=rules, engine="numpy")
    assert open_.n_mixed == 0 and open_.residual > 1e-6
    monkeypatch.setattr(symmetric_stage, "WIDE", symmetric_stage.Limits(12, 5, 10, 80, 200, 6000))
    closed = symmetric_equilibrium(rules=rules, engine="numpy")
    assert closed.residual <= 1e-12 and closed.n_mixed == reference.n_mixed
    np.testing.assert_allclose(closed.value.table, reference.value.table, rtol=0, atol=1e-12)


@pytest.mark.parametrize("rules", MIXED[:2] + [Rules(goal=45)], ids=str)
def test_global_certificate_and_the_profiles_own_values(solved, rules):
    eq = solved[rules] if rules in solved else symmetric_equilibrium(rules=rules, engine="numba")
    br = symmetric_best_response(eq, engine="numba")
    assert abs(br.exploitability) <= 1e-12
    assert -1e-13 <= br.largest_gain <= 1e-12
    np.testing.assert_allclose(br.profile_table, eq.value.table, rtol=0, atol=1e-13)
    generic = best_response([eq.policy] * (rules.players - 1), rules=rules)
    np.testing.assert_allclose(br.value, generic.value, rtol=0, atol=1e-13)


def test_exploitability_of_hold_at_matches_the_generic_best_response():
    rules = Rules(goal=10, players=3)
    run = symmetric_dynamics("best_response", rules=rules, max_iter=1, start=2, engine="numba")
    generic = best_response([pigtheory.hold_at(2)] * 2, rules=rules)
    assert run.epsilon[0] == pytest.approx(generic.value[0, 0, 0] - 1 / 3, abs=1e-13)
    assert run.epsilon[0] > 0.05


@pytest.mark.parametrize("method", ["damped", "fictitious_play"])
def test_dynamics_mix_policies_state_by_state_and_measure_them_exactly(method):
    rules = Rules(goal=12, die_faces=2, players=3)
    run = symmetric_dynamics(method, rules=rules, max_iter=3, start=2, engine="numba")
    assert run.policy.mix_weights.shape[0] > 0  # the averaged policy really mixes
    generic = best_response([run.policy.to_mixed()] * 2, rules=rules)
    assert run.epsilon[-1] == pytest.approx(generic.value[0, 0, 0] - 1 / 3, abs=1e-13)
    assert np.all(run.epsilon >= -1e-13) and np.all(run.largest_gain >= run.epsilon - 1e-13)


@pytest.mark.parametrize("rules", [MIXED[0], Rules(goal=20, players=3)], ids=str)
def test_monte_carlo_of_the_equilibrium_profile_is_fair(solved, rules):
    eq = solved[rules] if rules in solved else symmetric_equilibrium(rules=rules, engine="numba")
    sim = play_simultaneous([eq.policy] * 3, rules, games=20_000, rng=12)
    assert np.all(np.abs(sim.wins - 1 / 3) <= 4 * sim.stderr)


@pytest.mark.slow
def test_three_players_at_goal_100():
    rules = Rules(players=3)
    eq = symmetric_equilibrium(rules=rules)
    assert eq.epsilon_start <= 1e-9 and eq.residual <= 1e-6
    assert eq.n_mixed > 0 and eq.n_pure + eq.n_mixed == eq.n_states == 171_700
    br = symmetric_best_response(eq)
    assert abs(br.exploitability) <= 1e-9
    assert np.abs(br.profile_table - eq.value.table).max() <= 1e-12  # stored values are the profile's
    sim = play_simultaneous([eq.policy] * 3, rules, games=40_000, rng=3)
    assert np.all(np.abs(sim.wins - 1 / 3) <= 4 * sim.stderr)


@settings(max_examples=12, deadline=None)
@given(
    goal=st.integers(3, 14),
    faces=st.integers(2, 6),
    players=st.integers(2, 4),
)
def test_any_small_game_is_solved_with_a_certificate(goal, faces, players):
    rules = Rules(goal=goal, die_faces=faces, players=players)
    eq = symmetric_equilibrium(rules=rules, engine="numba")
    assert eq.residual <= 1e-12
    np.testing.assert_allclose(seat_values(eq.value).sum(axis=0), 1.0, rtol=0, atol=1e-13)
    assert np.all((eq.value >= -1e-15) & (eq.value <= 1 + 1e-15))
    assert eq.n_pure + eq.n_mixed == eq.n_states


def test_save_and_load(tmp_path, solved):
    eq = solved[MIXED[0]]
    path = eq.save(tmp_path / "eq.npz")
    back = SymmetricEquilibrium.load(path)
    assert isinstance(pigtheory.load(path), SymmetricEquilibrium)
    np.testing.assert_array_equal(back.value.table, eq.value.table)
    np.testing.assert_array_equal(back.value, eq.value)
    np.testing.assert_array_equal(back.policy.weights, eq.policy.weights)
    assert back.mixed_states.tolist() == eq.mixed_states.tolist()
    assert (back.n_states, back.n_mixed, back.residual) == (eq.n_states, eq.n_mixed, eq.residual)
    assert not back.value.table.flags.writeable


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"rules": Rules(goal=5, players=6)}, "players"),
        ({"rules": Rules(goal=5, dice=2, players=3)}, "one die"),
        ({"tol": 0.0}, "tol"),
        ({"engine": "gpu"}, "engine"),
        ({"strategies": "stopping"}, "strategies"),
    ],
)
def test_bad_input_is_refused_before_any_work(kwargs, match):
    with pytest.raises(ValueError, match=match):
        symmetric_equilibrium(**kwargs)


def test_bad_input_to_the_response_and_the_dynamics():
    with pytest.raises(ValueError, match="profile"):
        symmetric_best_response(pigtheory.hold_at(3))
    with pytest.raises(ValueError, match="method"):
        symmetric_dynamics("newton")
    with pytest.raises(ValueError, match="damping"):
        symmetric_dynamics("damped", damping=1.5)
    with pytest.raises(ValueError, match="start"):
        symmetric_dynamics(start="hold at 25")
    eq = symmetric_equilibrium(rules=Rules(goal=4, players=3))
    with pytest.raises(ValueError, match="scores"):
        eq.at(0, 0)
    with pytest.raises(ValueError, match="terminal"):
        eq.strategy(0, 4, 1)


def test_cli_json_and_saved_result(tmp_path, capsys):
    out = tmp_path / "eq.npz"
    assert main(["symmetric-equilibrium", "--goal", "10", "--json", "--out", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["players"], summary["states"], summary["pure"] + summary["mixed"]) == (3, 220, 220)
    assert summary["value_at_start"] == pytest.approx(1 / 3, abs=1e-13)
    assert abs(summary["exploitability"]) <= 1e-12 and summary["epsilon_max"] <= 1e-12
    eq = pigtheory.load(out)
    assert eq.at(0, 0, 0)[0] == summary["value_at_start"]
    assert summary["opening"] == {str(k): p for k, p in eq.strategy(0, 0, 0).items()}


def test_cli_text_four_players(capsys):
    assert main(["symmetric-equilibrium", "--goal", "6", "--players", "4", "--no-exploitability"]) == 0
    text = capsys.readouterr().out
    assert "states                126 (126 pure, 0 mixed" in text
    assert "exploitability" not in text


def test_cli_reports_bad_rules(capsys):
    assert main(["symmetric-equilibrium", "--goal", "5", "--players", "7"]) == 2
    assert "players" in capsys.readouterr().err


def test_the_best_response_compiles_once_for_every_kind_of_policy():
    # numba compiles a kernel once per argument types, and whether an array is writable is
    # part of its type: a policy without mixes (a placeholder mix table), one with mixes
    # (frozen tables) and one whose actions are int64 must all run the same compiled code
    from pigtheory.simultaneous.symmetric import SymmetricPolicy

    kernel = symmetric_stage.compiled().respond_columns
    plain = symmetric_equilibrium(rules=Rules(goal=8, players=4), engine="numba").policy
    mixed = symmetric_equilibrium(rules=Rules(goal=14, die_faces=2, players=4), engine="numba").policy
    assert plain.mix_thresholds.shape[0] == 0 and mixed.mix_thresholds.shape[0] > 0
    wide = SymmetricPolicy(
        np.asarray(mixed.actions, dtype=np.int64),
        mixed.mix_thresholds,
        mixed.mix_weights,
        mixed.rules,
        "int64",
    )
    symmetric_best_response(plain, engine="numba")
    before = set(kernel.signatures)
    first = symmetric_best_response(mixed, engine="numba")
    again = symmetric_best_response(wide, engine="numba")
    assert set(kernel.signatures) == before
    np.testing.assert_array_equal(first.value.table, again.value.table)
