"""Stopping rules (issue 11): outcome distributions and the optimal rule, against brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pigtheory import Rules, turn_total
from pigtheory.simultaneous.core.stopping_rules import optimal_stopping, stopping_outcomes, threshold_rule


def _outcomes_by_sequences(roll: tuple[bool, ...], room: int, rules: Rules) -> dict[int, Fraction]:
    """The turn's gain distribution by walking every sequence of rolls (exact rationals)."""
    dist = rules.roll_distribution()
    out: dict[int, Fraction] = {}

    def walk(t: int, p: Fraction) -> None:
        if t >= room:
            out[room] = out.get(room, Fraction(0)) + p
            return
        if t > 0 and not roll[t]:
            out[t] = out.get(t, Fraction(0)) + p
            return
        for gain, q in dist.items():
            if gain == 0:
                out[0] = out.get(0, Fraction(0)) + p * q
            else:
                walk(t + gain, p * q)

    walk(0, Fraction(1))
    return out


@pytest.mark.parametrize("rules", [Rules(goal=7), Rules(goal=6, die_faces=4), Rules.piglet(goal=6)], ids=str)
def test_outcomes_of_every_rule_equal_the_sequence_walk(rules):
    g = rules.goal
    for own in range(g):
        room = g - own
        for bits in itertools.product([False, True], repeat=max(room - 1, 0)):
            roll = np.zeros(g, dtype=bool)
            roll[1:room] = bits
            want = _outcomes_by_sequences(tuple(roll), room, rules)
            for engine in ("numpy", "numba"):
                got = stopping_outcomes(roll[None, :], np.array([own]), rules, engine=engine)[0]
                for x in range(g + 1):
                    assert got[x] == pytest.approx(float(want.get(x, 0)), abs=1e-15)


def test_a_threshold_rule_has_the_distribution_of_x_k():
    rules = Rules(goal=40)
    k = np.arange(1, 41)
    got = stopping_outcomes(threshold_rule(k, 40), np.zeros(40, dtype=np.int64), rules)
    for kk in (1, 3, 25, 40):
        want = np.zeros(41)
        for x, p in turn_total(kk, rules).pmf.items():
            want[min(x, 40)] += p  # gains past the goal land on it
        np.testing.assert_allclose(got[kk - 1], want, atol=1e-15)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(
        [Rules(goal=6), Rules(goal=5, die_faces=4), Rules.piglet(goal=6), Rules(goal=6, die_faces=3)]
    ),
    st.integers(0, 2**16),
)
def test_optimal_stopping_equals_brute_force_over_every_rule(rules, seed):
    """The policy iteration's value against the best ratio a / (1 - c) over all 2^(room-1)
    deterministic rules, for random continuations (busting worth at most reaching the goal)."""
    g = rules.goal
    rng = np.random.default_rng(seed)
    own = np.arange(g)
    u = rng.random((g, g + 1))
    opp_bust = rng.random(g) * 0.9
    for s in range(g):
        u[s, g - s :] = u[s, g - s]
    for engine in ("numpy", "numba"):
        value, roll, _ = optimal_stopping(u, own, opp_bust, rules, engine=engine)
        for s in range(g):
            room = g - s
            best = -np.inf
            for bits in itertools.product([False, True], repeat=room - 1):
                r = np.zeros(g, dtype=bool)
                r[1:room] = bits
                p = stopping_outcomes(r[None, :], own[s : s + 1], rules, engine="numpy")[0]
                best = max(best, float(p @ u[s]) / (1 - p[0] * opp_bust[s]))
            assert value[s] == pytest.approx(best, abs=1e-12)
            p = stopping_outcomes(roll[s : s + 1], own[s : s + 1], rules, engine="numpy")[0]
            assert float(p @ u[s]) / (1 - p[0] * opp_bust[s]) == pytest.approx(value[s], abs=1e-14)


# --- the best response over stopping rules (strategies="stopping") ---------------------------

from pigtheory import hold_at  # noqa: E402
from pigtheory.simultaneous import best_response, win_probability  # noqa: E402
from pigtheory.stopping import RandomStoppingRule, StoppingRule  # noqa: E402
from tests.bellman import stopping_residual  # noqa: E402
from tests.simultaneous.test_core import one_die_rules, random_policy  # noqa: E402


@settings(max_examples=8, deadline=None)
@given(one_die_rules(max_goal=7), st.integers(0, 2**16), st.sampled_from(["own", "table", "mixed"]))
def test_stopping_best_response_solves_its_bellman_equation_over_every_rule(rules, seed, kind):
    opp = random_policy(rules, seed, kind)
    for engine in ("numpy", "numba"):
        sol = best_response(opp, rules=rules, strategies="stopping", engine=engine)
        assert stopping_residual(sol.value, rules, [opp]) < 1e-12


@settings(max_examples=4, deadline=None)
@given(one_die_rules(players=3, max_goal=5), st.integers(0, 2**16))
def test_three_player_stopping_best_response_solves_its_bellman_equation(rules, seed):
    opps = [random_policy(rules, seed, "table"), random_policy(rules, seed + 1, "own")]
    sol = best_response(opps, rules=rules, strategies="stopping")
    assert stopping_residual(sol.value, rules, opps) < 1e-12


@settings(max_examples=10, deadline=None)
@given(one_die_rules(max_goal=40), st.integers(0, 2**16), st.sampled_from(["own", "table", "mixed"]))
def test_stopping_dominates_thresholds_and_the_engines_agree(rules, seed, kind):
    opp = random_policy(rules, seed, kind)
    thr = best_response(opp, rules=rules)
    a = best_response(opp, rules=rules, strategies="stopping", engine="numpy")
    b = best_response(opp, rules=rules, strategies="stopping", engine="numba")
    # (values near 1 whose self-loop is nearly certain amplify rounding by 1 / (1 - c): 1e-11)
    assert np.all(a.value >= thr.value - 1e-11)
    assert np.abs(a.value - b.value).max() < 1e-12
    assert np.array_equal(a.policy.roll, b.policy.roll) and np.array_equal(a.non_threshold, b.non_threshold)
    assert np.all(a.gain >= -1e-11)  # the same amplified rounding as above
    assert not np.any(
        (a.gain > 1e-12) & ~a.non_threshold
    )  # beating every threshold takes a non-threshold rule
    if not a.non_threshold.any():  # the optimum is a threshold everywhere: the same game as thresholds
        assert np.abs(a.value - thr.value).max() < 1e-12


@pytest.mark.parametrize(
    "rules, opp",
    [(Rules(), hold_at(25)), (Rules(goal=60), "table"), (Rules.piglet(goal=30), "mixed")],
    ids=["hold-at-25", "table", "piglet-mixed"],
)
def test_the_compiled_stopping_response_judges_only_the_states_its_first_pass_moved(rules, opp):
    """The two-player kernel marks a state settled when one pass from its best threshold's rule
    changed nothing; there the rule is that threshold exactly, and the classification of every
    state equals judging each one's rule afresh."""
    from pigtheory.simultaneous.core import best_stopping_two
    from pigtheory.simultaneous.core.profile import read_opponents
    from pigtheory.stopping import is_threshold_rule

    opp = random_policy(rules, 7, opp) if isinstance(opp, str) else opp
    g = rules.goal
    value, roll, t_value, t_k, passes = best_stopping_two(read_opponents([opp], rules)[0], rules)
    settled = passes == 1
    assert settled.any() and (~settled).any()  # both kinds occur: the test reads both branches
    t = np.arange(g)
    room = g - np.arange(g)[:, None, None]
    assert np.array_equal(roll[settled], ((t < t_k[..., None]) & (t < room))[settled])
    sol = best_response(opp, rules=rules, strategies="stopping", engine="numba")
    own = np.indices((g, g))[0].ravel()
    judged = ~is_threshold_rule(roll.reshape(-1, g), own, rules).reshape(g, g)
    assert np.array_equal(sol.non_threshold, judged)
    assert np.array_equal(sol.policy.roll, roll)


def test_a_stopping_rule_of_hold_at_k_is_hold_at_k():
    for rules in (Rules(goal=30), Rules(goal=10, players=3), Rules.piglet(goal=12)):
        rule = StoppingRule.from_policy(hold_at(4), rules)
        opps = [hold_at(6)] * (rules.players - 1)
        rule_opps = [StoppingRule.from_policy(hold_at(6), rules)] * (rules.players - 1)
        a = win_probability(hold_at(4), opps, rules=rules)
        assert np.abs(win_probability(rule, opps, rules=rules) - a).max() < 1e-14
        assert np.abs(win_probability(hold_at(4), rule_opps, rules=rules) - a).max() < 1e-14
        x, y = best_response(opps, rules=rules), best_response(rule_opps, rules=rules)
        assert np.abs(x.value - y.value).max() < 1e-14 and np.array_equal(x.policy, y.policy)


def test_random_stopping_rules_mix_their_pure_rules():
    """A rule that randomises at one turn total only (reached at most once per turn) has the
    outcome distribution of the mix of its two pure rules, state by state."""
    rules = Rules(goal=20)
    g = rules.goal
    low = StoppingRule.from_policy(hold_at(5), rules).roll
    high = low.copy()
    high[..., 5] = True  # also rolls at 5 (then holds at 6 or more)
    mid = RandomStoppingRule(np.where(high & ~low, 0.3, low.astype(float)))
    from pigtheory.stopping import as_turn_policy

    states = (np.arange(g), np.zeros(g, dtype=np.int64))
    _, p_mid = as_turn_policy(mid, rules).outcomes(states)
    _, p_low = as_turn_policy(StoppingRule(low), rules).outcomes(states)
    _, p_high = as_turn_policy(StoppingRule(high), rules).outcomes(states)
    np.testing.assert_allclose(p_mid, 0.7 * p_low + 0.3 * p_high, atol=1e-15)


def test_monte_carlo_of_the_stopping_best_response_against_hold_at_25():
    from pigtheory.simulate import play_simultaneous

    rules = Rules()
    br = best_response(hold_at(25), rules=rules, strategies="stopping")
    sim = play_simultaneous([br.policy, hold_at(25)], rules=rules, games=40_000, rng=11)
    assert abs(sim.wins[0] - br.value[0, 0]) < 4 * sim.stderr[0]


# --- the equilibrium over stopping rules ------------------------------------------------------

from pigtheory.simultaneous import equilibrium as threshold_equilibrium  # noqa: E402
from pigtheory.simultaneous import exploitability  # noqa: E402
from pigtheory.simultaneous.core import terminal_values as _terminal  # noqa: E402
from pigtheory.simultaneous.stopping import KINDS, stopping_equilibrium  # noqa: E402
from pigtheory.simultaneous.two_player.equilibrium import solve_stage  # noqa: E402


def _brute_force_equilibrium(rules):
    """Backward induction where each state's stage game lists every pair of deterministic rules
    (their outcome distributions by the sequence walk), solved as v = val(C + v D) by the
    threshold equilibrium's matrix-game solver: no realization plans, no optimal stopping."""
    g = rules.goal
    value = _terminal(rules)
    rules_of = {}
    for room in range(1, g + 1):
        dists = []
        for bits in itertools.product([False, True], repeat=room - 1):
            roll = (False,) + bits
            d = _outcomes_by_sequences(roll + (False,) * (g - room), room, rules)
            dists.append(np.array([float(d.get(x, 0)) for x in range(room + 1)]))
        rules_of[room] = np.array(dists)
    for s in range(2 * g - 2, -1, -1):
        for i in range(max(0, s - g + 1), min(s, g - 1) + 1):
            j = s - i
            pa, pb = rules_of[g - i], rules_of[g - j]
            e = value[np.minimum(i + np.arange(g - i + 1), g)][
                :, np.minimum(j + np.arange(g - j + 1), g)
            ].copy()
            e[0, 0] = 0.0
            c = pa @ e @ pb.T
            d = np.outer(pa[:, 0], pb[:, 0])
            value[i, j] = solve_stage(c, d)[0]
    return value


@pytest.mark.parametrize(
    "rules", [Rules(goal=9, die_faces=3, bust_face=3), Rules(goal=6), Rules.piglet(goal=7)], ids=str
)
def test_stopping_equilibrium_equals_brute_force_over_every_rule(rules):
    eq = stopping_equilibrium(rules=rules)
    np.testing.assert_allclose(eq.value, _brute_force_equilibrium(rules), atol=1e-12, rtol=0)
    if rules.die_faces == 3:
        assert eq.counts()[KINDS[2]] > 0  # the case is not trivial: some saddles need non-threshold rules


def test_stopping_equilibrium_is_certified_and_unexploitable():
    rules = Rules(goal=45)  # has states of every computed kind, LP states included
    eq = stopping_equilibrium(rules=rules)
    g = rules.goal
    assert eq.counts()[KINDS[3]] > 0 and eq.n_lp > 0
    # lower and upper come from two replies summed differently: they cross by rounding (~1e-15)
    assert eq.residual < 1e-12 and np.all(eq.lower <= eq.value[:g, :g] + 1e-14)
    assert np.all(eq.value[:g, :g] <= eq.upper + 1e-14)
    np.testing.assert_allclose(eq.value[:g, :g] + eq.value[:g, :g].T, 1.0, atol=1e-12)
    reply = best_response(eq.policy, rules=rules, strategies="stopping")
    np.testing.assert_allclose(reply.value, eq.value, atol=1e-12, rtol=0)
    assert abs(exploitability(eq.policy, rules=rules, strategies="stopping").exploitability) < 1e-12
    # thresholds are a restriction: a stopping rule beats the threshold equilibrium at some states
    thr = threshold_equilibrium(rules=rules)
    gain = best_response(thr, rules=rules, strategies="stopping").value - thr.value
    assert gain.min() > -1e-14 and gain.max() > 1e-9


def test_where_every_state_is_a_threshold_saddle_the_two_equilibria_agree():
    rules = Rules(goal=30)
    eq = stopping_equilibrium(rules=rules)
    assert eq.counts()[KINDS[0]] == 30 * 30
    np.testing.assert_allclose(eq.value, threshold_equilibrium(rules=rules).value, atol=1e-14)


def test_the_command_line_takes_strategies_stopping(capsys):
    import json

    from pigtheory.cli import main

    assert (
        main(
            ["best-response", "--opponent", "hold-at-4", "--goal", "20", "--strategies", "stopping", "--json"]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    want = best_response(hold_at(4), rules=Rules(goal=20), strategies="stopping").value[0, 0]
    assert out["strategies"] == "stopping" and out["win_probability"] == pytest.approx(want, abs=1e-12)
    assert main(["equilibrium", "--goal", "45", "--strategies", "stopping", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["classes"][KINDS[3]] > 0 and out["certificate_gap"] < 1e-12
    assert main(["exploitability", "hold-at-25", "--goal", "30", "--strategies", "stopping", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (
        out["exploitability"]["hold-at-25"]
        >= exploitability(hold_at(25), rules=Rules(goal=30)).exploitability - 1e-15
    )
    assert main(["limit", "--n-max", "12", "--strategies", "stopping", "--goal", "30", "--json"]) == 0
    assert (
        main(
            [
                "best-response",
                "--opponent",
                "hold-at-4",
                "--strategies",
                "stopping",
                "--method",
                "value_iteration",
            ]
        )
        == 2
    )
