"""One-die sequential Pig: the compiled engine against the numpy reference, and both against
Neller & Presser's equations on random small rules."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pigtheory import Rules
from pigtheory.engine import numba_installed
from pigtheory.sequential import solve
from pigtheory.sequential.model import roll_model
from pigtheory.sequential.one_die import solve_one_die

needs_numba = pytest.mark.skipif(not numba_installed(), reason="numba is not installed")

DICE = {
    "piglet": {"die_faces": 2, "face_points": (1,)},
    "d4": {"die_faces": 4},
    "d6": {"die_faces": 6},
}


def bellman_violation(sol, rules):
    """Largest ``|P - max(hold, roll)|`` over the live states, and the largest amount by which
    the chosen action falls short of the other one (both 0 for an exact, greedy solution).

    Neller & Presser: ``P[i, j, k] = max(1 - P[j, i + k, 0], p (1 - P[j, i, 0]) + sum_g p_g
    P[i, j, k + g])`` with ``P = 1`` once ``i + k >= goal``; at k = 0 holding is passing.
    """
    g = rules.goal
    model = roll_model(rules)
    m = model.max_gain
    v = np.asarray(sol.value)
    ii = np.arange(g)[:, None, None]
    kk = np.arange(g)[None, None, :]
    live = np.broadcast_to(ii + kk < g, v.shape)
    assert np.array_equal(np.isnan(v), ~live)
    p = np.concatenate([np.where(live, v, 1.0), np.ones((g, g, m))], axis=2)
    start = np.zeros((g, 2 * g))  # start[j, s] = P[j, s, 0], 0 once s >= goal
    start[:, :g] = p[:, :, 0]
    hold = 1.0 - start[np.arange(g)[None, :, None], ii + kk]
    roll = float(model.p_bust) * (1.0 - start[:, :g].T)[:, :, None]
    for gain, q in model.free:
        roll = roll + float(q) * p[:, :, gain : gain + g]
    best = np.maximum(hold, roll)
    violation = np.max(np.abs(v - best)[live], initial=0.0)
    chosen = np.where(sol.roll, roll, hold)
    shortfall = np.max((best - chosen)[live], initial=0.0)
    assert not np.any(sol.roll & ~live)
    return float(violation), float(shortfall)


def _rules(die, goal):
    return Rules(goal=goal, **DICE[die])


@needs_numba
@settings(max_examples=25, deadline=None)
@given(die=st.sampled_from(sorted(DICE)), goal=st.integers(3, 60))
def test_engines_agree(die, goal):
    rules = _rules(die, goal)
    ref = solve(rules=rules, engine="numpy")
    fast = solve(rules=rules, engine="numba")
    assert np.array_equal(np.isnan(ref.value), np.isnan(fast.value))
    assert np.nanmax(np.abs(ref.value - fast.value)) < 1e-12
    assert np.array_equal(ref.roll, fast.roll)
    assert fast.iterations == ref.iterations
    assert fast.method == ref.method
    assert fast.residual < 1e-12 and ref.residual < 1e-12


@needs_numba
@pytest.mark.parametrize("goal", [100, 137])
def test_engines_agree_at_larger_goals(goal):
    rules = Rules(goal=goal)
    ref = solve_one_die(rules=rules, engine="numpy")
    fast = solve_one_die(rules=rules, engine="numba")
    assert np.nanmax(np.abs(ref.value - fast.value)) < 1e-12
    assert np.array_equal(ref.roll, fast.roll)
    assert fast.first_player_win == pytest.approx(ref.first_player_win, abs=1e-14)


@st.composite
def small_rules(draw):
    faces = draw(st.integers(2, 6))
    bust = draw(st.integers(1, faces))
    points = tuple(draw(st.lists(st.integers(1, 7), min_size=faces - 1, max_size=faces - 1)))
    return Rules(goal=draw(st.integers(1, 30)), die_faces=faces, bust_face=bust, face_points=points)


@settings(max_examples=40, deadline=None)
@given(rules=small_rules())
def test_level_pass_solves_the_equations(rules):
    engines = ["numpy", "numba"] if numba_installed() else ["numpy"]
    for engine in engines:
        sol = solve_one_die(rules=rules, engine=engine)
        violation, shortfall = bellman_violation(sol, rules)
        assert violation < 1e-12, engine
        assert shortfall < 1e-12, engine
        live = ~np.isnan(sol.value)
        assert np.all((sol.value[live] >= 0) & (sol.value[live] <= 1))


def test_goal_100_solves_the_equations():
    rules = Rules()
    violation, shortfall = bellman_violation(solve(rules=rules), rules)
    assert violation < 1e-12 and shortfall < 1e-12


def test_auto_is_one_of_the_engines():
    rules = Rules(goal=20)
    auto = solve(rules=rules)
    ref = solve(rules=rules, engine="numpy")
    assert np.nanmax(np.abs(auto.value - ref.value)) < 1e-12
    assert np.array_equal(auto.roll, ref.roll)


@pytest.mark.parametrize("engine", ["numpy", pytest.param("numba", marks=needs_numba)])
def test_progress_bar_counts_every_level(engine, capsys):
    goal = 120  # the compiled engine reports in chunks from goal 100 on
    solve_one_die(rules=Rules(goal=goal), engine=engine, progress=True)
    err = capsys.readouterr().err
    assert "sequential one die" in err and f"{2 * goal - 1}/{2 * goal - 1}" in err
    solve_one_die(rules=Rules(goal=10), engine=engine, progress=False)
    assert capsys.readouterr().err == ""
