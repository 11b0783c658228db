"""Exact equilibrium, its certificate, exploitability, and the cycle game (nashpy)."""

import warnings

import nashpy
import numpy as np
import pytest

from pigtheory import MixedPolicy, Rules, hold_at
from pigtheory.simultaneous import cycle_nash, equilibrium, exploitability, self_play
from pigtheory.simultaneous.core import extended, stage_game
from pigtheory.simultaneous.nash import is_equilibrium

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
    assert abs(exploitability(eq, rules=RULES)) <= 1e-12
    # and a pure table is exploitable: hold at 25 at goal 100 gives the paper's 0.5231 - 1/2
    assert exploitability(hold_at(25)) == pytest.approx(0.0231, abs=5e-5)


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
    worst = max(exploitability(p, rules=RULES) for p in sp.cycle)
    assert -1e-12 <= exploitability(mix, rules=RULES) <= worst + 1e-12


def test_bad_rules():
    with pytest.raises(ValueError, match="players"):
        equilibrium(rules=Rules(goal=10, players=3))


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
    assert eq.residual <= 1e-12 and abs(exploitability(eq, rules=rules)) <= 1e-12
    assert len(eq.mixed_states) > 0
    sp = self_play(rules=rules)
    assert sp.period == 2
    # every state where the equilibrium mixes is a state where self-play cycles
    assert set(eq.mixed_states) <= set(sp.cyclic_states)
    for p in sp.cycle:
        assert exploitability(p, rules=rules) > 1e-7
