"""Certified classes of the equilibrium over stopping rules (issue 23) against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.optimize import linprog

from pigtheory import Rules
from pigtheory.simultaneous import stopping_equilibrium
from pigtheory.simultaneous.core.stopping_rules import optimal_stopping, stopping_outcomes, threshold_rule
from pigtheory.simultaneous.stopping import KINDS, StoppingClasses, certify_classes

TOL = 1e-9


def _every_rule(own: int, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Every deterministic rule at a score (roll at t for t < room) and its outcome distribution
    over the gains 0..room, and which of them are thresholds."""
    g = rules.goal
    room = g - own
    rolls = np.zeros((2 ** (room - 1), g), dtype=bool)
    for n, bits in enumerate(itertools.product([False, True], repeat=room - 1)):
        rolls[n, 0] = True
        rolls[n, 1:room] = bits
    dist = stopping_outcomes(rolls, np.full(len(rolls), own), rules)[:, : room + 1]
    thresholds = stopping_outcomes(threshold_rule(np.arange(1, room + 1), g), np.full(room, own), rules)
    return dist, thresholds[:, : room + 1]


def _payoffs(value: np.ndarray, i: int, j: int, g: int) -> np.ndarray:
    e = value[np.minimum(i + np.arange(g - i + 1), g)][:, np.minimum(j + np.arange(g - j + 1), g)].copy()
    e[0, 0] = 0.0
    return e


def _mixture_guarantee(n: np.ndarray) -> float:
    """max over mixtures x of rows of min over columns of x N (one LP over every column)."""
    rows, cols = n.shape
    res = linprog(
        np.r_[np.zeros(rows), -1.0],
        A_ub=np.c_[-n.T, np.ones(cols)],
        b_ub=np.zeros(cols),
        A_eq=np.r_[np.ones(rows), 0.0][None],
        b_eq=[1.0],
        bounds=[(0, None)] * rows + [(None, None)],
        method="highs",
    )
    return -float(res.fun)


def _classes_by_enumeration(eq) -> np.ndarray:
    """Every state's class with both players' deterministic rules listed: pure saddles from the
    matrix of exact values (the self-loop in closed form), threshold mixtures by an LP against
    every deterministic rule of the other player."""
    rules, g = eq.rules, eq.rules.goal
    value = np.asarray(eq.value)
    kind = np.zeros((g, g), dtype=int)
    cache = {own: _every_rule(own, rules) for own in range(g)}
    for i, j in itertools.product(range(g), repeat=2):
        (pa, ta), (pb, tb) = cache[i], cache[j]
        e, v = _payoffs(value, i, j, g), value[i, j]
        num = pa @ e @ pb.T
        u = num / (1.0 - np.outer(pa[:, 0], pb[:, 0]))  # A's value for every pair of rules
        u_ta = (ta @ e @ pb.T) / (1.0 - np.outer(ta[:, 0], pb[:, 0]))
        u_tb = (pa @ e @ tb.T) / (1.0 - np.outer(pa[:, 0], tb[:, 0]))
        t = u_ta.min(axis=1).max() >= v - TOL and u_tb.max(axis=0).min() <= v + TOL
        p = u.min(axis=1).max() >= v - TOL and u.max(axis=0).min() <= v + TOL
        m_lin = (ta @ (e_v := _with_loop(e, v)) @ pb.T) - v, (pa @ e_v @ tb.T) - v
        m = _mixture_guarantee(m_lin[0]) >= -TOL and _mixture_guarantee(-m_lin[1].T) >= -TOL
        kind[i, j] = 0 if t else 2 if p else 1 if m else 3
    return kind


def _with_loop(e: np.ndarray, v: float) -> np.ndarray:
    out = e.copy()
    out[0, 0] = v
    return out


@pytest.mark.parametrize(
    "rules",
    [Rules(goal=12, die_faces=3), Rules(goal=9, die_faces=3, bust_face=3), Rules.piglet(goal=8)],
    ids=str,
)
def test_classes_equal_enumeration_of_every_pair_of_rules(rules):
    eq = stopping_equilibrium(rules=rules)
    c = certify_classes(eq, tol=TOL)
    np.testing.assert_array_equal(c.kind, _classes_by_enumeration(eq))
    if rules.die_faces == 3 and rules.bust_face == 1:
        assert c.counts()[KINDS[2]] == 2  # not trivial: non-threshold saddles were found


def _small_side_answers(eq, i: int, j: int, p: int):
    """For the player p with the small room: its best deterministic rule's gap (every rule
    listed, the other's reply by optimal stopping) and the best gap of a mixture of its
    thresholds (double oracle: an LP against the other's replies found so far, until the exact
    reply gains nothing)."""
    rules, g = eq.rules, eq.rules.goal
    value = np.asarray(eq.value)
    e = _payoffs(value, i, j, g)
    if p == 1:  # B's view: its gain first, its payoff 1 - A's
        e = 1.0 - e.T
        e[0, 0] = 0.0
    own, opp = (i, j) if p == 0 else (j, i)
    v = value[i, j] if p == 0 else 1.0 - value[i, j]

    def worst(dists):  # the other player's exact best reply to each of p's distributions
        d = np.zeros((len(dists), g + 1))
        d[:, : dists.shape[1]] = dists
        u = d.sum(axis=1)[:, None] - d @ np.pad(e, ((0, g - e.shape[0] + 1), (0, 0)))
        u[:, 0] -= d[:, 0]
        w = np.zeros((len(d), g + 1))
        w[:, : u.shape[1]] = u
        w[:, u.shape[1] :] = u[:, -1:]
        val, roll, _ = optimal_stopping(w, np.full(len(d), opp), d[:, 0], rules)
        return 1.0 - val, roll

    pure, thresholds = _every_rule(own, rules)
    pure_gap = v - worst(pure)[0].max()
    replies = [worst(thresholds[:1])[1][0]]
    e_v = _with_loop(e, v)
    for _ in range(50):
        dist_b = stopping_outcomes(np.array(replies), np.full(len(replies), opp), rules)[:, : g - opp + 1]
        n = thresholds @ e_v @ dist_b.T - v
        rows, cols = n.shape
        res = linprog(
            np.r_[np.zeros(rows), -1.0],
            A_ub=np.c_[-n.T, np.ones(cols)],
            b_ub=np.zeros(cols),
            A_eq=np.r_[np.ones(rows), 0.0][None],
            b_eq=[1.0],
            bounds=[(0, None)] * rows + [(None, None)],
            method="highs",
        )
        x = res.x[:rows]
        val, roll = worst((x @ thresholds)[None])
        if any(np.array_equal(roll[0], r) for r in replies):
            break
        replies.append(roll[0])
    return pure_gap, float(v - val[0])


def test_mixed_classes_agree_with_enumeration_of_the_smaller_player():
    rules = Rules(goal=30, die_faces=3)  # has states of all four classes, each with one small room
    eq = stopping_equilibrium(rules=rules)
    c = certify_classes(eq, tol=TOL)
    assert all(n > 0 for n in c.counts().values())
    g = rules.goal
    compared = {"pure": 0, "mixture": 0}
    for i, j in np.argwhere(c.kind % 2 == 1).tolist():  # classes 1 and 3: no pure saddle
        p = int(g - i > g - j)  # the player with the smaller room
        assert min(g - i, g - j) <= 8
        pure_gap, mix_gap = _small_side_answers(eq, i, j, p)
        if not np.isnan(c.pure_gap[i, j, p]):
            assert (pure_gap <= TOL) == (c.pure_gap[i, j, p] <= TOL)
            assert c.pure_gap[i, j, p] == pytest.approx(pure_gap, abs=1e-12)
            compared["pure"] += 1
        if not np.isnan(c.mixture_gap[i, j, p]):
            assert (mix_gap <= TOL) == (c.mixture_gap[i, j, p] <= TOL)
            compared["mixture"] += 1
        if c.kind[i, j] == 1:  # both players have an optimal threshold mixture
            assert mix_gap <= TOL
            assert np.all(c.mixture_gap[i, j] <= TOL)
    assert compared["pure"] >= 4 and compared["mixture"] >= 4, compared


def test_certificates_hold_and_the_bounds_bracket_the_gaps():
    eq = stopping_equilibrium(rules=Rules(goal=30, die_faces=3))
    c = certify_classes(eq, tol=TOL)
    assert isinstance(c, StoppingClasses) and c.iterations == 900
    with np.errstate(invalid="ignore"):
        asked = ~np.isnan(c.pure_bound)
        # the MILP's bound never exceeds the gap of the rule it returns (it bounds every rule)
        assert np.all(c.pure_bound[asked] <= c.pure_gap[asked] + 1e-12)
        mixed = ~np.isnan(c.mixture_bound)
        assert np.all(c.mixture_bound[mixed] <= c.mixture_gap[mixed] + 1e-12)
        # a threshold is a deterministic rule and a mixture of thresholds
        assert np.all(c.pure_gap[asked] <= c.threshold_gap[asked] + 1e-12)
    m = c.margins()
    assert m["threshold: largest yes"] < 1e-12 and m["pure rule: largest yes"] < 1e-12
    assert m["pure rule: smallest no"] > 1e3 * TOL and m["threshold mixture: smallest no"] > 1e3 * TOL
    # the classes partition the states; mixture weights are distributions where asked
    assert sum(c.counts().values()) == 900
    w = c.mixture.sum(axis=-1)
    np.testing.assert_allclose(w[mixed], 1.0, atol=1e-9)


def test_the_local_search_answers_as_the_milp_would(monkeypatch):
    """The search for an optimal non-threshold rule only saves MILPs: with it turned off every
    class and every margin is the same, and each rule it found is optimal by its exact reply."""
    import pigtheory.simultaneous.stopping.certify as certify
    from pigtheory.simultaneous.stopping import programs

    eq = stopping_equilibrium(rules=Rules(goal=30, die_faces=3))
    fast = certify_classes(eq, tol=TOL)
    monkeypatch.setattr(certify, "local_rule", lambda *args: None)
    milp = certify_classes(eq, tol=TOL)
    assert fast.n_milp < milp.n_milp
    np.testing.assert_array_equal(fast.kind, milp.kind)
    assert fast.margins()["pure rule: smallest no"] == milp.margins()["pure rule: smallest no"]
    with np.errstate(invalid="ignore"):
        found = np.isnan(fast.pure_bound) & (fast.pure_gap <= TOL) & (fast.threshold_gap > TOL)
        assert found.sum() == milp.n_milp - fast.n_milp
    for i, j, p in np.argwhere(found).tolist():  # no threshold is optimal there: the rule is not one
        room = 30 - (i, j)[p]
        shown = [programs._shown(r, room, eq.rules) for r in threshold_rule(np.arange(1, room + 1), 30)]
        assert not any(np.array_equal(fast.pure_rule[i, j, p], r) for r in shown)


def test_bad_input_is_refused():
    eq = stopping_equilibrium(rules=Rules(goal=5))
    with pytest.raises(ValueError, match="eq"):
        certify_classes(eq.value)
    with pytest.raises(ValueError, match="tol"):
        certify_classes(eq, tol=-1.0)
