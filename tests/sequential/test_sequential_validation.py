"""Sequential solvers: unfinished iterations warn, bad arguments name the parameter."""

import warnings

import pytest

from pigtheory import Rules, hold_at
from pigtheory.engine import numba_installed
from pigtheory.sequential import compare, play, solve, solve_exact, value_iteration
from pigtheory.sequential.cache import cached_solve
from pigtheory.sequential.one_die import solve_one_die
from pigtheory.sequential.super_six import super_six
from pigtheory.sequential.two_dice import solve_two_dice
from pigtheory.validation import ConvergenceWarning

TWO_DICE = Rules(goal=12, dice=2)


def _message(record):
    (w,) = [w for w in record if issubclass(w.category, ConvergenceWarning)]
    return str(w.message)


@pytest.mark.parametrize(
    "run",
    [
        lambda: value_iteration(rules=Rules(goal=10), max_iter=2),
        lambda: value_iteration(rules=TWO_DICE, max_iter=2),
        lambda: solve(rules=TWO_DICE, max_iter=2),
        lambda: solve_two_dice(rules=Rules(goal=12, dice=2, double_trouble=True), max_iter=2),
        lambda: compare(hold_at(4), hold_at(6), rules=TWO_DICE, max_iter=1),
        lambda: super_six(5, max_iter=1),
    ],
    ids=[
        "value_iteration",
        "value_iteration_two_dice",
        "solve_two_dice",
        "double_trouble",
        "compare",
        "super_six",
    ],
)
def test_max_iter_warns_with_residual_and_tol(run):
    with pytest.warns(ConvergenceWarning) as record:
        sol = run()
    text = _message(record)
    assert "max_iter=" in text and "tol=" in text
    assert sol.residual > 0
    assert f"{sol.residual:.3g}" in text


@pytest.mark.parametrize("engine", ["numpy", "numba"])
def test_one_die_max_passes_warns(engine):
    if engine == "numba" and not numba_installed():
        pytest.skip("numba is not installed")
    # at goal 100 some pairs of states need a second policy-iteration pass
    with pytest.warns(ConvergenceWarning, match="max_passes=1"):
        solve_one_die(rules=Rules(), engine=engine, max_passes=1)


def test_converged_runs_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        value_iteration(rules=Rules(goal=8))
        solve(rules=TWO_DICE)
        solve(rules=Rules(goal=30))
        compare(hold_at(4), hold_at(6), rules=TWO_DICE)
        super_six(4)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: solve(rules="goal 100"), "rules"),
        (lambda: solve(rules=Rules(players=3)), "players"),
        (lambda: solve(rules=Rules(goal=5), engine="gpu"), "engine"),
        (lambda: solve(rules=TWO_DICE, engine="numba"), "engine"),
        (lambda: solve(rules=TWO_DICE, tol=0), "tol"),
        (lambda: solve(rules=TWO_DICE, max_iter=0), "max_iter"),
        (lambda: solve(rules=Rules(goal=5), progress="yes"), "progress"),
        (lambda: solve_one_die(rules=Rules(goal=5), max_passes=0), "max_passes"),
        (lambda: solve_one_die(rules=TWO_DICE), "dice"),
        (lambda: value_iteration(rules=Rules(goal=5), tol=float("nan")), "tol"),
        (lambda: value_iteration(rules=Rules(goal=5), max_iter=1.5), "max_iter"),
        (lambda: solve_two_dice(rules=TWO_DICE, explicit_tail=-1), "explicit_tail"),
        (lambda: compare(hold_at(3), hold_at(3), rules=TWO_DICE, tol=-1), "tol"),
        (lambda: compare(hold_at(3), hold_at(3), rules=TWO_DICE, max_iter=0), "max_iter"),
        (lambda: super_six(5, tol=0), "tol"),
        (lambda: super_six(True), "sticks"),
        (lambda: play(hold_at(3), hold_at(3), rules=Rules(goal=5), games=0), "games"),
        (lambda: cached_solve(rules=Rules(goal=5), engine="fast"), "engine"),
    ],
)
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: solve(Rules(goal=5)),
        lambda: solve_one_die(Rules(goal=5)),
        lambda: value_iteration(Rules(goal=5)),
        lambda: solve_two_dice(TWO_DICE),
        lambda: solve_exact(Rules(goal=5)),
        lambda: compare(hold_at(3), hold_at(3), Rules(goal=5)),
        lambda: play(hold_at(3), hold_at(3), Rules(goal=5)),
        lambda: super_six(5, 1e-12),
    ],
)
def test_keywords_are_keyword_only(call):
    with pytest.raises(TypeError):
        call()
