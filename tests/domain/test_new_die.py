"""A new die defined here, in the test, and every exact solver run on it (issue 20).

``DoubleDie`` is a :class:`~pigtheory.Rules` subclass whose faces score double (1 busts, 2..6
score 4..12): it overrides the one roll rule, :meth:`Rules.roll_outcome`, and nothing else. The
exact solvers (turn totals, simultaneous win probability and best response, the sequential
solver, stopping rules) are checked against brute forces written here from the faces alone,
and the Monte Carlo simulators (which roll the dice face by face) against the exact values
within 4 standard errors.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import numpy as np
import pytest

from pigtheory import Rules, hold_at, sequential, turn_total
from pigtheory.play import Opponent, OpponentTable, build_site
from pigtheory.simulate import play_simultaneous, turn_totals
from pigtheory.simultaneous import best_response, win_probability
from pigtheory.stopping import rule_outcomes
from tests.play_support import node, play_reference, run_node_games


class DoubleDie(Rules):
    """One six-sided die whose faces score double their pips; a 1 busts."""

    def roll_outcome(self, faces: tuple[int, ...]) -> tuple[str, int]:
        kind, points = super().roll_outcome(faces)
        return kind, 2 * points

    def describe_roll(self) -> str:
        return "A 1 loses the turn total; any other face scores twice its pips."


FACES = {1: 0, 2: 4, 3: 6, 4: 8, 5: 10, 6: 12}  # the die, written out: 0 = bust


@functools.cache
def _turn_brute(k: int) -> dict[int, Fraction]:
    """X_k by enumerating roll sequences: roll until the total is >= k or a bust."""
    out: dict[int, Fraction] = {}

    def go(total: int, p: Fraction) -> None:
        if total >= k:
            out[total] = out.get(total, Fraction(0)) + p
            return
        for pts in FACES.values():
            if pts == 0:
                out[0] = out.get(0, Fraction(0)) + p / 6
            else:
                go(total + pts, p / 6)

    go(0, Fraction(1))
    return out


def test_the_roll_model_is_the_doubled_die():
    r = DoubleDie(goal=20)
    assert r != Rules(goal=20) and r.replace(goal=30) == DoubleDie(goal=30)
    assert r.roll_distribution() == {0: Fraction(1, 6), **{2 * f: Fraction(1, 6) for f in range(2, 7)}}
    m = r.roll_model()
    assert (m.p_bust, m.p_reset, m.forced, m.max_gain) == (Fraction(1, 6), 0, (), 12)
    assert r.roll_table().points.tolist() == list(FACES.values())


@pytest.mark.parametrize("k", [1, 4, 9, 13, 20])
def test_turn_total_matches_enumeration(k):
    rules = DoubleDie(goal=30)
    exact = turn_total(k, rules, exact=True).pmf
    assert exact == _turn_brute(k)
    floats = turn_total(k, rules).pmf
    assert floats.keys() == exact.keys()
    assert max(abs(floats[g] - float(p)) for g, p in exact.items()) < 1e-14
    assert all(g % 2 == 0 and g >= k for g in exact if g > 0)  # the doubled die scores even points


def test_turn_totals_sampled_face_by_face_agree():
    rules = DoubleDie(goal=30)
    k, n = 13, 40_000
    x = turn_totals(k, n, rules, rng=5)
    pmf = _turn_brute(k)
    assert set(x.tolist()) <= set(pmf)
    for g, p in pmf.items():
        share = float(np.mean(x == g))
        se = np.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(share - float(p)) < 4 * se, g


def _simultaneous_brute(goal: int, k0: int | None, k1: int) -> float:
    """Win probability of player 0 (ties count 1/2) when both hold at fixed thresholds (and at
    the goal: a player holds as soon as its score plus turn total reaches it), score pair by
    score pair backwards (each state's self-loop is the two busts; every other move raises a
    score). ``k0=None``: player 0 picks the best threshold at every state."""
    v = np.zeros((goal + 1, goal + 1))
    for i in range(goal, -1, -1):
        for j in range(goal, -1, -1):
            if i == goal or j == goal:
                v[i, j] = 0.5 if i == j else float(i == goal)
                continue
            opp = _turn_brute(min(k1, goal - j))
            best = -1.0
            for k in range(1, goal - i + 1) if k0 is None else [min(k0, goal - i)]:
                stay, acc = 0.0, 0.0
                for (a, pa), (b, pb) in itertools.product(_turn_brute(k).items(), opp.items()):
                    p = float(pa * pb)
                    ni, nj = min(i + a, goal), min(j + b, goal)
                    if (ni, nj) == (i, j):
                        stay += p
                    else:
                        acc += p * v[ni, nj]
                best = max(best, acc / (1 - stay))
            v[i, j] = best
    return float(v[0, 0])


@pytest.mark.parametrize(("k0", "k1"), [(4, 4), (9, 13), (20, 5)])
def test_simultaneous_win_probability_matches_brute_force(k0, k1):
    rules = DoubleDie(goal=24)
    got = win_probability(hold_at(k0), hold_at(k1), rules=rules)
    assert got[0, 0] == pytest.approx(_simultaneous_brute(24, k0, k1), abs=1e-12)


def test_simultaneous_monte_carlo_agrees():
    rules = DoubleDie(goal=24)
    exact = _simultaneous_brute(24, 9, 13)
    sim = play_simultaneous([hold_at(9), hold_at(13)], rules, games=20_000, rng=3)
    assert abs(sim.wins[0] - exact) < 4 * sim.stderr[0]


def test_simultaneous_best_response_matches_brute_force():
    """Its value is the brute force's best threshold state by state, and evaluating its policy
    gives that value back."""
    rules = DoubleDie(goal=16)
    br = best_response(hold_at(7), rules=rules)
    assert br.value[0, 0] == pytest.approx(_simultaneous_brute(16, None, 7), abs=1e-12)
    again = win_probability(br.policy, hold_at(7), rules=rules)
    assert again[0, 0] == pytest.approx(br.value[0, 0], abs=1e-12)


def _sequential_brute(goal: int) -> float:
    """Optimal sequential Pig by value iteration over (i, j, k), written from the faces."""
    v = np.zeros((goal, goal, goal))

    def val(i, j, k):  # the mover's value; a turn total reaching the goal wins
        return 1.0 if i + k >= goal else v[i, j, k]

    for _ in range(2000):
        new = np.zeros_like(v)
        for i, j in itertools.product(range(goal), range(goal)):
            for k in range(goal - i):
                roll = sum((1 - v[j, i, 0]) if p == 0 else val(i, j, k + p) for p in FACES.values()) / 6
                hold = 1 - v[j, i + k, 0] if k > 0 else 0.0
                new[i, j, k] = max(roll, hold)
        if np.max(np.abs(new - v)) < 1e-14:
            break
        v = new
    return float(v[0, 0, 0])


def test_sequential_solve_matches_value_iteration():
    goal = 14
    sol = sequential.solve(rules=DoubleDie(goal=goal))
    assert sol.method == "exact"
    assert sol.first_player_win == pytest.approx(_sequential_brute(goal), abs=1e-10)


def test_sequential_play_agrees_with_the_solution():
    rules = DoubleDie(goal=14)
    sol = sequential.solve(rules=rules)
    games = sequential.play(sol, sol, rules=rules, games=20_000, rng=7)
    p, se = games.first_win_rate
    assert abs(p - sol.first_player_win) < 4 * se


def test_stopping_rule_outcomes_match_enumeration():
    """A stopping rule that rolls at even totals below 10 and at 13: its turn, enumerated."""
    rules = DoubleDie(goal=20)
    roll = (np.arange(20) < 10) & (np.arange(20) % 2 == 0)
    roll[13] = True
    got = rule_outcomes(roll[None, :], np.array([3]), rules)[0]
    room = 17
    want = np.zeros(21)

    def go(t, p):
        if t >= room:
            want[room] += p
        elif t > 0 and not roll[t]:
            want[t] += p
        else:
            for pts in FACES.values():
                if pts == 0:
                    want[0] += p / 6
                else:
                    go(t + pts, p / 6)

    go(0, 1.0)
    assert np.allclose(got, want, atol=1e-15, rtol=0)


def test_a_new_die_cannot_be_written_to_a_policy_file():
    from pigtheory.io.policy_common import rules_to_dict

    with pytest.raises(ValueError, match="DoubleDie"):
        rules_to_dict(DoubleDie(goal=10))


@pytest.mark.skipif(node() is None, reason="node is not installed: the JavaScript engine cannot run")
def test_the_web_page_plays_the_new_die_without_a_javascript_change(tmp_path):
    """The page's engine and analyst read the roll rule from the site's data: seeded games on
    the doubled die are the same games, with the same readings, in Python and JavaScript."""
    rules = DoubleDie(goal=14)
    sol = sequential.solve(rules=rules)
    g = rules.goal
    th = np.minimum(6, g - np.arange(g))[:, None, None] * np.ones((1, g, 1), dtype=np.int64)
    one = np.full((g, g, 1), 1 << 32, dtype=np.int64)
    opps = [  # built directly: the opponents' file cache cannot record a die defined in a test
        Opponent(
            "sequential-optimal",
            "Optimal",
            "test",
            "sequential",
            rules,
            OpponentTable("sequential", rules, roll=sol.policy),
            sequential.best_response(sol.policy, rules=rules),
            sol.policy,
        ),
        Opponent(
            "simultaneous-hold-at-6",
            "Hold at 6",
            "test",
            "simultaneous",
            rules,
            OpponentTable("simultaneous", rules, thresholds=th, weights=one),
            best_response(hold_at(6), rules=rules, strategies="stopping"),
            hold_at(6),
        ),
    ]
    site = tmp_path / "site"
    build_site(site, opps, title="new die")
    assert "scores twice its pips" in (site / "data" / "catalog.js").read_text()
    specs = [
        {"key": o.key, "seed": s, "first": "you" if s % 2 else "opponent"} for o in opps for s in (1, 2, 3)
    ]
    games = run_node_games(site, specs)
    checked = 0
    for spec, js in zip(specs, games, strict=True):
        opp = next(o for o in opps if o.key == spec["key"])
        game, readings = play_reference(opp, spec["seed"], spec["first"])
        assert js["events"] == game.events, spec
        assert any(e["dice"] and e["k"] % 2 == 0 and e["k"] >= 4 for e in game.events)
        for py, jr in zip(readings, js["readings"], strict=True):
            assert (jr["who"], jr["advice"]) == (py.who, py.advice), spec
            for field in ("value", "roll", "hold"):
                x = getattr(py, field)
                assert (jr[field] is None) == (x is None), (spec, field)
                if x is not None:
                    assert jr[field] == pytest.approx(x, abs=2e-7), (spec, field)
                    checked += 1
    assert checked > 20
