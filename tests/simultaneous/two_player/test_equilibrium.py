"""Exact equilibrium, its certificate, exploitability, and the cycle game (nashpy).

The fast solver (one row and one column per state, 2 x 2 games in closed form) is checked
against a dense reference kept here: every state's whole stage game from the public
``stage_game``, pure saddle points of W, and elsewhere an LP (scipy) for the supports and
the equaliser equations on them, solved by Newton's method in v.
"""

import warnings

import nashpy
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from pigtheory import MixedPolicy, Rules, hold_at
from pigtheory.simultaneous import cycle_nash, equilibrium, exploitability, self_play
from pigtheory.simultaneous.core import extended, score_levels, stage_game, terminal_values
from pigtheory.simultaneous.core.stage import best_replies, stage_rows
from pigtheory.simultaneous.two_player.nash import is_equilibrium

RULES = Rules(goal=44)  # the smallest goals where the equilibrium mixes are in the 40s


@pytest.fixture(scope="module")
def eq():
    return equilibrium(rules=RULES)


def test_value_is_one_half_and_symmetric(eq):
    g = RULES.goal
    assert abs(eq.value[0, 0] - 0.5) <= 1e-12
    v = eq.value[:g, :g]
    assert np.abs(v + v.T - 1).max() <= 1e-12


def test_certificate_is_tight_and_contains_the_value(eq):
    g = RULES.goal
    assert eq.residual <= 1e-12
    assert np.all(eq.lower <= eq.value[:g, :g] + 1e-15)
    assert np.all(eq.value[:g, :g] <= eq.upper + 1e-15)


def test_it_mixes_somewhere_and_the_strategies_are_distributions(eq):
    assert len(eq.mixed_states) >= 1
    for s in eq.mixed_states:
        mix = eq.strategy(*s)
        assert len(mix) == eq.support_sizes[s] >= 2
        assert abs(sum(mix.values()) - 1) < 1e-12
        assert all(1 <= k <= RULES.goal - s[0] for k in mix)
    # The minimiser's strategy from the dual is the same strategy seen from the other seat.
    np.testing.assert_allclose(eq.opponent_policy.weights, eq.policy.weights, atol=1e-8)


def test_equilibrium_strategy_is_unexploitable(eq):
    assert abs(exploitability(eq, rules=RULES).exploitability) <= 1e-12
    # and a pure table is exploitable: hold at 25 at goal 100 gives the paper's 0.5231 - 1/2
    assert exploitability(hold_at(25)).exploitability == pytest.approx(0.0231, abs=5e-5)


def _around(ks, n):
    return np.unique(np.clip(np.concatenate([ks - 1, ks, ks + 1]), 0, n - 1))


def test_stage_lp_agrees_with_nashpy_support_enumeration(eq):
    """nashpy on a window of thresholds around our support, extended and checked on the full game."""
    ext = extended(np.array(eq.value), RULES)
    for i, j in eq.mixed_states:
        c, d = stage_game(ext, i, j, RULES)
        m = c + eq.value[i, j] * d
        mine = np.zeros(m.shape[0])
        for k, p in eq.strategy(i, j).items():
            mine[k - 1] = p
        rows = _around(np.flatnonzero(mine), m.shape[0])
        cols = _around(np.array([k - 1 for k in eq.strategy(j, i)]), m.shape[1])
        sub = m[np.ix_(rows, cols)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            found = list(nashpy.Game(sub, -sub).support_enumeration(tol=1e-12))
        assert found, (i, j)
        matched = False
        for row, col in found:
            x, y = np.zeros(m.shape[0]), np.zeros(m.shape[1])
            x[rows], y[cols] = row, col
            assert x @ m @ y == pytest.approx(eq.value[i, j], abs=1e-12)
            # an equilibrium of the window that is one of the whole stage game
            assert (m @ y).max() <= eq.value[i, j] + 1e-12 and (x @ m).min() >= eq.value[i, j] - 1e-12
            matched |= np.allclose(x, mine, atol=1e-8)
        assert matched, (i, j)


def test_cycle_game_of_self_play():
    sp = self_play(rules=RULES)
    cn = cycle_nash(sp)
    np.testing.assert_array_equal(cn.preferred, [[0.5, 1.0], [1.0, 0.5]])
    for mix in cn.preferred_lp:
        np.testing.assert_allclose(mix, [0.5, 0.5], atol=1e-9)
    assert len(cn.preferred_equilibria) == 1
    np.testing.assert_allclose(cn.real + cn.real.T, 1.0, atol=1e-12)
    for row, col in cn.real_equilibria + (cn.real_lp,):
        assert is_equilibrium(cn.real, row, col, 1e-9)
    # A 50/50 state-by-state mixture of the cycle is no worse than the worse of the two.
    mix = MixedPolicy.of([(sp.cycle[0], 0.5), (sp.cycle[1], 0.5)], RULES)
    worst = max(exploitability(p, rules=RULES).exploitability for p in sp.cycle)
    assert -1e-12 <= exploitability(mix, rules=RULES).exploitability <= worst + 1e-12


def test_bad_rules():
    with pytest.raises(ValueError, match="players"):
        equilibrium(rules=Rules(goal=10, players=3))


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"tol": 0.0}, "tol"),
        ({"tol": float("nan")}, "tol"),
        ({"max_iter": 0}, "max_iter"),
        ({"max_iter": 2.5}, "max_iter"),
        ({"engine": "fortran"}, "engine"),
        ({"rules": "goal 10"}, "rules"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        equilibrium(**{"rules": Rules(goal=6), **kwargs})


def _maximin_lp(m):
    """The maximiser's optimal mix of the matrix game m (HiGHS, payoffs scaled to 1)."""
    na, nb = m.shape
    res = linprog(
        np.r_[np.zeros(na), -1.0],
        A_ub=np.hstack([-m.T / np.abs(m).max(), np.ones((nb, 1))]),
        b_ub=np.zeros(nb),
        A_eq=np.r_[np.ones(na), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * na + [(None, None)],
    )
    return res.x[:na]


def _equalise(m, d, v):
    """Newton's method in v on the equaliser equations of a square support."""
    n = m.shape[0]
    kkt = np.block([[np.zeros((n, n)), -np.ones((n, 1))], [np.ones((1, n)), np.zeros((1, 1))]])
    rhs = np.r_[np.zeros(n), 1.0]
    for _ in range(60):
        mv = m + v * d
        kkt[:n, :n] = mv.T
        x = np.linalg.solve(kkt, rhs)
        kkt[:n, :n] = mv
        y = np.linalg.solve(kkt, rhs)
        step = (x[n] - v) / (x[:n] @ d @ y[:n] - 1.0)
        v -= step
        if abs(step) < 1e-17:
            break
    return v, x[:n], y[:n]


def _distinct(rows):
    """Indices of the rows that differ (by more than 1e-14) from every earlier row."""
    keep = []
    for r in range(len(rows)):
        if all(np.abs(rows[r] - rows[q]).max() > 1e-14 for q in keep):
            keep.append(r)
    return keep


def _dense_reference(rules):
    """Value, the mixed states with their support sizes, and the states within rounding of a
    pure saddle point (W's pure maximin and minimax differ, by at most 1e-14: which side
    rounding puts them on is not a property of the game), from dense stage games."""
    g = rules.goal
    ext = extended(terminal_values(rules), rules)
    mixed, ties = {}, set()
    for _, (ii, jj) in score_levels(g, 2):
        for i, j in zip(ii.tolist(), jj.tolist(), strict=True):
            c, d = stage_game(ext, i, j, rules)
            w = c / (1 - d)
            lo, hi = w.min(axis=1).max(), w.max(axis=0).min()
            v = lo
            if lo != hi and hi - lo <= 1e-14:
                ties.add((i, j))
            elif lo != hi:
                # thresholds with the same turn totals are one action (dice whose faces
                # score alike): keep the first of each, or the LP's supports may not match
                ra, rb = _distinct(np.hstack([c, d])), _distinct(np.hstack([c.T, d.T]))
                c, d = c[np.ix_(ra, rb)], d[np.ix_(ra, rb)]
                v = 0.5 * (lo + hi)
                for _ in range(3):  # supports at v, then the exact root on them
                    m = c + v * d - v  # payoffs differ by ~1e-7 near 0 and 1: centre them
                    sa = np.flatnonzero(_maximin_lp(m) > 1e-9)
                    sb = np.flatnonzero(_maximin_lp(-m.T) > 1e-9)
                    assert sa.size == sb.size, (i, j)
                    v, x, y = _equalise(c[np.ix_(sa, sb)], d[np.ix_(sa, sb)], v)
                mixed[(i, j)] = sa.size
            ext[i, j] = v
    return ext[: g + 1, : g + 1], mixed, ties


@pytest.mark.parametrize(
    "rules",
    [Rules(goal=44), Rules(goal=30, die_faces=4), Rules.piglet(goal=24)],
    ids=str,
)
def test_fast_solver_agrees_with_dense_stage_games(rules):
    g = rules.goal
    eq = equilibrium(rules=rules)
    value, mixed, ties = _dense_reference(rules)
    np.testing.assert_allclose(eq.value, value, rtol=0, atol=1e-13)
    assert eq.mixed_states == tuple(sorted(mixed)) and not ties
    for s, size in mixed.items():
        assert eq.support_sizes[s] == size
    assert eq.residual <= 1e-13
    # At pure states A's threshold guarantees the value (the dense W's row minimum).
    ext = extended(np.array(eq.value), rules)
    for i in range(0, g, 3):
        for j in range(g):
            if (i, j) not in mixed:
                c, d = stage_game(ext, i, j, rules)
                k = eq.policy.thresholds[i, j, 0]
                assert (c[k - 1] / (1 - d[k - 1])).min() >= eq.value[i, j] - 1e-13


@settings(max_examples=10, deadline=None)
@given(
    goal=st.integers(1, 36),
    points=st.lists(st.integers(1, 9), min_size=1, max_size=6),
    bust_face=st.integers(1, 7),
)
def test_fast_solver_agrees_with_dense_stage_games_on_any_die(goal, points, bust_face):
    rules = Rules(
        goal=goal, die_faces=len(points) + 1, bust_face=min(bust_face, len(points) + 1), face_points=points
    )
    eq = equilibrium(rules=rules)
    value, mixed, ties = _dense_reference(rules)
    np.testing.assert_allclose(eq.value, value, rtol=0, atol=1e-13)
    assert set(mixed) <= set(eq.mixed_states) <= set(mixed) | ties
    assert all(eq.support_sizes[s] == size for s, size in mixed.items())
    assert eq.residual <= 1e-13


@pytest.mark.parametrize("rules", [Rules(goal=44), Rules.piglet(goal=60)], ids=str)
def test_engines_give_the_same_bits(rules):
    from pigtheory.simultaneous.core import numba_installed

    if not numba_installed():
        pytest.skip("numba is not installed")
    a, b = equilibrium(rules=rules, engine="numpy"), equilibrium(rules=rules, engine="numba")
    for field in ("value", "lower", "upper", "support_sizes"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert np.array_equal(a.policy.thresholds, b.policy.thresholds)
    assert np.array_equal(a.policy.weights, b.policy.weights)
    assert a.mixed_states == b.mixed_states


@pytest.mark.parametrize(
    "rules", [Rules(goal=23), Rules(goal=17, die_faces=4), Rules.piglet(goal=11)], ids=str
)
@pytest.mark.parametrize("engine", ["numpy", "numba"])
def test_rows_columns_and_replies_match_the_stage_game(rules, engine):
    from pigtheory.simultaneous.core import numba_installed

    if engine == "numba" and not numba_installed():
        pytest.skip("numba is not installed")
    g = rules.goal
    rng = np.random.default_rng(g)
    ext = extended(rng.random((g + 1, g + 1)), rules)
    ext_t = np.ascontiguousarray(ext.T)
    for _, (i, j) in score_levels(g, 2)[:: max(1, g // 6)]:
        a, b = rng.integers(1, g - i + 1), rng.integers(1, g - j + 1)
        rows, cols = stage_rows(ext, i, j, a, rules, engine), stage_rows(ext_t, j, i, b, rules, engine)
        reply_b, low = best_replies(ext, i, j, a, rules, engine, tie_tol=0.0)
        reply_a, high = best_replies(ext_t, j, i, b, rules, engine, largest=True, tie_tol=0.0)
        for s in range(len(i)):
            c, d = stage_game(ext, i[s], j[s], rules)
            w = c / (1 - d)
            np.testing.assert_allclose(rows[s, : g - j[s]], c[a[s] - 1], rtol=0, atol=1e-15)
            np.testing.assert_allclose(cols[s, : g - i[s]], c[:, b[s] - 1], rtol=0, atol=1e-15)
            assert not rows[s, g - j[s] :].any()
            row_w, col_w = w[a[s] - 1], w[:, b[s] - 1]
            assert reply_b[s] == row_w.argmin() + 1 and reply_a[s] == col_w.argmax() + 1
            assert low[s] == pytest.approx(row_w.min(), abs=1e-15)
            assert high[s] == pytest.approx(col_w.max(), abs=1e-15)


def test_cli_commands(capsys, tmp_path):
    from pigtheory.cli import main

    assert main(["equilibrium", "--goal", "20"]) == 0
    assert "mixed states          0" in capsys.readouterr().out
    assert main(["self-play", "--goal", "20"]) == 0
    assert "converged             True" in capsys.readouterr().out
    out = tmp_path / "leader.npy"
    assert main(["stackelberg", "--goal", "20", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["exploitability", str(out), "--goal", "20"]) == 0
    assert abs(float(capsys.readouterr().out)) < 1e-12
    assert main(["exploitability", "nonsense", "--goal", "20"]) == 2


@pytest.mark.slow
def test_goal_100_equilibrium_and_exploitabilities():
    rules = Rules()
    eq = equilibrium(rules=rules)
    v = eq.value[:100, :100]
    assert abs(eq.value[0, 0] - 0.5) <= 1e-12 and np.abs(v + v.T - 1).max() <= 1e-12
    assert eq.residual <= 1e-13 and abs(exploitability(eq, rules=rules).exploitability) <= 1e-12
    # 136 states mix, each over two thresholds, all solved in closed form (no LP)
    assert len(eq.mixed_states) == 136
    assert all(eq.support_sizes[s] == 2 for s in eq.mixed_states)
    assert eq.n_lp == 0
    sp = self_play(rules=rules)
    assert sp.period == 2
    # every state where the equilibrium mixes is a state where self-play cycles
    assert set(eq.mixed_states) <= set(sp.cyclic_states)
    for p in sp.cycle:
        assert exploitability(p, rules=rules).exploitability > 1e-7


@pytest.mark.slow
def test_goal_200_equilibrium():
    rules = Rules(goal=200)
    eq = equilibrium(rules=rules)
    v = eq.value[:200, :200]
    assert abs(eq.value[0, 0] - 0.5) <= 1e-12 and np.abs(v + v.T - 1).max() <= 1e-12
    assert eq.residual <= 1e-13 and abs(exploitability(eq, rules=rules).exploitability) <= 1e-12
    assert len(eq.mixed_states) == 282 and all(eq.support_sizes[s] == 2 for s in eq.mixed_states)
