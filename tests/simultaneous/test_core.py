"""The exact core: every solver satisfies its own Bellman equation, every engine agrees with
the reference engine, and the building blocks do what their docstrings say."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pigtheory import MixedPolicy, Rules, ThresholdTable, hold_at
from pigtheory import engine as engine_module
from pigtheory.engine import NUMBA_WORK, choose_engine
from pigtheory.simultaneous import best_response, limit, stackelberg, win_probabilities, win_probability
from pigtheory.simultaneous.best_response import best_response_levels
from pigtheory.simultaneous.core import (
    best_response_two,
    continuation,
    read_opponents,
    score_levels,
    terminal_values,
    threshold_matrix,
)
from tests.bellman import residual

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def one_die_rules(draw, players=2, max_goal=15):
    """Random one-die rules: goal 3..max_goal, 2..8 faces, any bust face, sometimes custom points."""
    faces = draw(st.integers(2, 8))
    bust = draw(st.integers(1, faces))
    goal = draw(st.integers(3, max_goal))
    if draw(st.booleans()):
        points = tuple(draw(st.lists(st.integers(1, 6), min_size=faces - 1, max_size=faces - 1)))
        return Rules(goal=goal, die_faces=faces, bust_face=bust, players=players, face_points=points)
    return Rules(goal=goal, die_faces=faces, bust_face=bust, players=players)


def random_policy(rules: Rules, seed: int, kind: str):
    """A random threshold table, an own-score table, or a state-by-state mix of two tables."""
    rng = np.random.default_rng(seed)
    g, n = rules.goal, rules.players
    room = (g - np.arange(g)).reshape((g,) + (1,) * (n - 1))

    def table(shape):
        return np.minimum(rng.integers(1, g + 1, shape), room.reshape((g,) + (1,) * (len(shape) - 1)))

    if kind == "own":
        return ThresholdTable(table((g,)))
    if kind == "table":
        return ThresholdTable(table((g,) * n))
    w = rng.random((g,) * n)
    return MixedPolicy.of([(table((g,) * n), w), (table((g,) * n), 1 - w)], rules)


@SETTINGS
@given(one_die_rules(), st.integers(0, 2**16), st.sampled_from(["own", "table", "mixed"]))
def test_best_response_solves_its_bellman_equation(rules, seed, kind):
    opp = random_policy(rules, seed, kind)
    for engine in ("numpy", "numba"):
        sol = best_response(opp, rules=rules, engine=engine)
        assert residual(sol.value, rules, "best_response", [opp]) < 1e-12


@SETTINGS
@given(one_die_rules(), st.integers(0, 2**16), st.sampled_from(["own", "table", "mixed"]))
def test_win_probability_solves_its_bellman_equation(rules, seed, kind):
    a, b = random_policy(rules, seed, kind), random_policy(rules, seed + 1, "table")
    v = win_probability(a, b, rules=rules)
    assert residual(v, rules, "evaluate", [a, b]) < 1e-12


@settings(max_examples=6, deadline=None)
@given(
    one_die_rules(players=3, max_goal=7), st.integers(0, 2**16), st.sampled_from(["own", "table", "mixed"])
)
def test_three_players_solve_their_bellman_equations(rules, seed, kind):
    opps = [random_policy(rules, seed, kind), random_policy(rules, seed + 1, "own")]
    sol = best_response(opps, rules=rules)  # the separable path when both read their own score
    assert residual(sol.value, rules, "best_response", opps) < 1e-12
    profile = [random_policy(rules, seed + 2, "table"), *opps]
    values = win_probabilities(profile, rules=rules)
    assert residual(values[0], rules, "evaluate", profile) < 1e-12
    np.testing.assert_allclose(values.sum(axis=0), 1.0, atol=1e-12)  # someone wins


@settings(max_examples=6, deadline=None)
@given(one_die_rules(max_goal=10))
def test_stackelberg_solves_its_max_min_equation(rules):
    st_ = stackelberg(rules=rules)
    assert residual(st_.value, rules, "maxmin") < 1e-12


def test_value_iteration_is_a_fixed_point_to_its_tolerance():
    rules = Rules(goal=9, die_faces=5)
    vi = best_response(hold_at(4), rules=rules, method="value_iteration", tol=1e-13)
    assert residual(vi.value, rules, "best_response", [hold_at(4)]) < 1e-11


def test_limit_solves_its_one_dimensional_bellman_equation():
    """V_n(i) = max_k [P(finish) T_n + q_n sum_x P(X_k = x) V_n(i + x)] with the self-loop on
    the right-hand side, checked by a direct sum over X_k for every n and i."""
    from pigtheory import turn_total

    rules = Rules(goal=12)
    res = limit(n_max=6, rules=rules)
    g = rules.goal
    for row, n in enumerate(res.n.tolist()):
        p = res.p_finish
        q = (1 - p) ** (n - 1)
        share = (1 - (1 - p) ** n) / (n * p)
        v = res.value[row]
        for i in range(g):
            best = -1.0
            for k in range(1, g - i + 1):
                tot = 0.0
                for x, px in turn_total(k, rules).pmf.items():
                    if x == 0:
                        tot += px * q * v[i]
                    elif i + x >= g:
                        tot += px * share
                    else:
                        tot += px * q * v[i + x]
                best = max(best, tot)
            assert abs(best - v[i]) < 1e-12


@SETTINGS
@given(one_die_rules(max_goal=40), st.integers(0, 2**16), st.sampled_from(["own", "table", "mixed"]))
def test_engines_agree_with_the_numpy_reference(rules, seed, kind):
    """numba against numpy (the reference), bit for bit (what lets ``auto`` switch engines in a
    warm process), and both against the generic level loop."""
    opp = read_opponents(random_policy(rules, seed, kind), rules)
    v_np, p_np = best_response_two(opp[0], rules, engine="numpy")
    v_nb, p_nb = best_response_two(opp[0], rules, engine="numba")
    v_gen, p_gen, _ = best_response_levels(opp, rules)
    assert np.array_equal(v_np, v_nb)
    assert np.abs(v_np - v_gen).max() < 1e-12
    assert np.array_equal(p_np, p_nb) and np.array_equal(p_np, p_gen)


def test_engine_choice_is_by_size_only():
    assert choose_engine("numpy", 10**12) == "numpy"
    assert choose_engine("numba", 1) == "numba"
    assert choose_engine("auto", NUMBA_WORK - 1) == "numpy"
    assert choose_engine("auto", NUMBA_WORK) == "numba"
    with pytest.raises(ValueError, match="engine"):
        choose_engine("fortran", 1)
    with pytest.raises(ValueError, match="engine"):
        best_response(hold_at(3), rules=Rules(goal=6), engine="cuda")


def test_auto_switches_to_numba_only_in_a_warm_process_and_only_with_same_bits(monkeypatch):
    """Below NUMBA_WORK, ``auto`` stays numpy in a cold process; with ``same_bits`` it takes
    numba once numba is imported or NUMBA_LOAD_SECONDS were spent in numpy solves."""
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    monkeypatch.setattr(engine_module, "_NUMPY_SECONDS", [0.0])
    assert choose_engine("auto", 10, same_bits=True) == "numpy"
    with engine_module.numpy_clock():
        time.sleep(0.01)
    assert 0.01 <= engine_module._NUMPY_SECONDS[0] < engine_module.NUMBA_LOAD_SECONDS
    assert choose_engine("auto", 10, same_bits=True) == "numpy"
    engine_module._NUMPY_SECONDS[0] = engine_module.NUMBA_LOAD_SECONDS
    assert choose_engine("auto", 10, same_bits=True) == "numba"
    assert choose_engine("auto", 10) == "numpy"  # engines that differ in the last bits: size only
    assert choose_engine("numpy", 10, same_bits=True) == "numpy"
    engine_module._NUMPY_SECONDS[0] = 0.0
    import numba  # noqa: F401

    monkeypatch.setitem(sys.modules, "numba", sys.modules["numba"])
    assert choose_engine("auto", 10, same_bits=True) == "numba"


def test_a_small_best_response_does_not_import_numba():
    """A one-off goal-100 two-player best response (the command line's) runs numpy only."""
    code = (
        "import sys; from pigtheory import Rules, hold_at; "
        "from pigtheory.simultaneous import best_response; "
        "best_response(hold_at(25), rules=Rules()); print('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_levels_cover_every_non_terminal_state_once_from_the_top():
    for goal, players in ((5, 2), (4, 3), (3, 4)):
        levels = score_levels(goal, players)
        sums = [d for d, _ in levels]
        assert sums == sorted(sums, reverse=True) and sums[0] == players * (goal - 1) and sums[-1] == 0
        seen = np.concatenate([s for _, s in levels], axis=1)
        assert seen.shape[1] == goal**players
        assert len({tuple(c) for c in seen.T.tolist()}) == goal**players
        for d, s in levels:
            assert np.all(s.sum(axis=0) == d) and not s.flags.writeable


def test_threshold_matrix_is_the_turn_total_distribution():
    from pigtheory import turn_total

    rules = Rules(goal=20, die_faces=4, face_points=(2, 3, 5))
    m = threshold_matrix(rules)
    np.testing.assert_allclose(m.sum(axis=0), 1.0, atol=1e-15)
    for k in (1, 7, 20):
        for x, p in turn_total(k, rules).pmf.items():
            assert m[x, k - 1] == pytest.approx(p, abs=1e-15)
    assert not m.flags.writeable


def test_continuation_two_player_rows_equal_the_generic_gather():
    """The row-copy path (two players, every own gain) against the element-wise gather that
    the evaluation uses (own gains given explicitly), on an opponent that reads both scores."""
    rules = Rules(goal=15)
    g = rules.goal
    rng = np.random.default_rng(3)
    value = terminal_values(rules)
    value[:g, :g] = rng.random((g, g))
    opp = read_opponents(random_policy(rules, 5, "mixed"), rules)
    states = np.indices((g, g)).reshape(2, -1)
    u, bust = continuation(value, states, opp, g)
    xs = np.broadcast_to(np.arange(g + 1), (states.shape[1], g + 1))
    u2, bust2 = continuation(value, states, opp, g, own_gains=xs)
    np.testing.assert_allclose(u, u2, atol=1e-15)
    np.testing.assert_allclose(bust, bust2, atol=0)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: __import__("pigtheory").simultaneous.exploitability(hold_at(3), rules="goal 10"), "rules"),
        (lambda: __import__("pigtheory").simultaneous.hold_at_sweep([3], rules=None), "rules"),
        (
            lambda: __import__("pigtheory").simultaneous.equilibrium(rules=Rules(goal=6), max_iter=0),
            "max_iter",
        ),
        (lambda: __import__("pigtheory").simultaneous.equilibrium(rules=Rules(goal=6), tol=-1), "tol"),
        (lambda: stackelberg(rules=Rules(goal=6), method="iteration"), "method"),
        (lambda: best_response(hold_at(3), rules=Rules(goal=6), method="policy_iteration"), "method"),
        (lambda: best_response(hold_at(3), rules=Rules(goal=6), strategies="anything"), "strategies"),
        (lambda: best_response(hold_at(3), rules=Rules(goal=6), max_iter=True), "max_iter"),
        (lambda: best_response(hold_at(3), rules=Rules(goal=6), progress="yes"), "progress"),
        (lambda: limit(n_max=1), "n_max"),
        (
            lambda: __import__("pigtheory").simultaneous.self_play(rules=Rules(goal=6), order="sideways"),
            "order",
        ),
    ],
)
def test_every_bad_argument_is_a_value_error_naming_it(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_unfinished_iterations_warn():
    from pigtheory.simultaneous import self_play
    from pigtheory.validation import ConvergenceWarning

    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        best_response(hold_at(3), rules=Rules(goal=8), method="value_iteration", max_iter=2)
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        stackelberg(rules=Rules(goal=8), method="value_iteration", max_iter=1)
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        self_play(rules=Rules(goal=8), max_iter=1)


def test_solver_arguments_are_keyword_only():
    with pytest.raises(TypeError):
        best_response(hold_at(3), Rules(goal=6))  # type: ignore[misc]
    with pytest.raises(TypeError):
        win_probability(hold_at(3), hold_at(3), Rules(goal=6))  # type: ignore[misc]


@pytest.mark.parametrize("faces", range(2, 12))
def test_numpy_engine_gives_the_compiled_bits_over_dice(faces, monkeypatch):
    """The numpy engine (flat rows for opponents by their own score, gathered otherwise) against
    the compiled kernels, bit for bit: every bust face class, hold-at, own-score, mixed and
    full-table opponents, and a band tile of a few rows (batches cut into pieces)."""
    from pigtheory.simultaneous.core import numba_installed
    from pigtheory.simultaneous.core import two_player_numpy as two_player

    if not numba_installed():
        pytest.skip("numba is not installed")
    rng = np.random.default_rng(faces)
    for tile in (None, 3 * (23 + faces)):
        if tile is not None:
            monkeypatch.setattr(two_player, "_TILE_ELEMENTS", tile)
            two_player._flat_plan.cache_clear()
        for bust in sorted({1, faces, (faces + 1) // 2}):
            rules = Rules(goal=23, die_faces=faces, bust_face=bust)
            g = rules.goal
            room = g - np.arange(g)
            own = np.minimum(rng.integers(1, g + 1, g), room)
            mixed = MixedPolicy.of([(hold_at(2), 0.3), (ThresholdTable(own), 0.7)], rules)
            table = np.minimum(rng.integers(1, g + 1, (g, g)), room[:, None])
            for opp in (hold_at(int(rng.integers(1, g))), ThresholdTable(own), mixed, table):
                mix = read_opponents(opp, rules)[0]
                v_np, p_np = best_response_two(mix, rules, engine="numpy")
                v_nb, p_nb = best_response_two(mix, rules, engine="numba")
                assert np.array_equal(v_np, v_nb) and np.array_equal(p_np, p_nb), (rules, opp, tile)
    two_player._flat_plan.cache_clear()
