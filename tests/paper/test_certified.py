"""Verified enclosures: arb balls contain the exact rationals on small games; the stored file."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from flint import arb, fmpq

from analyses import certified as cert
from pigtheory import Rules, hold_at
from pigtheory.sequential import solve
from pigtheory.simultaneous import best_response


def _contains(ball, q: Fraction) -> bool:
    return ball.contains(arb(fmpq(q.numerator, q.denominator)))


@pytest.mark.parametrize("goal", [6, 15, 25])
def test_sequential_ball_contains_the_exact_rational(goal):
    roll = solve(rules=Rules(goal=goal, players=2)).policy.tolist()
    exact, gain_q = cert.sequential_policy_value(roll, goal, cert.Exact)
    balls, gain_b = cert.sequential_policy_value(roll, goal, cert.Balls())
    assert all(_contains(balls[s], exact[s]) for s in exact)
    assert all(float(2 * balls[s].rad()) < 1e-40 for s in balls)
    # the two players' start values of a pair: each in [0, 1]
    assert all(0 <= exact[s] <= 1 for s in exact)
    # the solver's policy is optimal: no one-shot deviation gains (exactly)
    assert gain_q <= 0 and gain_b == pytest.approx(gain_q, abs=1e-30)


def test_a_bad_policy_shows_a_gain():
    goal = 12
    roll = solve(rules=Rules(goal=goal, players=2)).policy.copy()
    roll[0, 0, 0] = False  # pass at the very start: the other action (roll) gains
    _, gain = cert.sequential_policy_value(roll.tolist(), goal, cert.Exact)
    assert gain > 0.01


def test_turn_distribution_is_a_law():
    for k, room in ((1, 100), (20, 100), (25, 7), (100, 100)):
        law = cert.turn_distribution(k, room)
        assert sum(law.values()) == 1
        stop = min(k, room)
        assert all(x == 0 or stop <= x <= stop + 5 for x in law) and max(law) == stop + 5
    assert cert.turn_distribution(1, 100) == {0: Fraction(1, 6), **{r: Fraction(1, 6) for r in range(2, 7)}}


@pytest.mark.parametrize(("n", "goal"), [(3, 8), (5, 20)])
def test_simultaneous_best_response_ball_contains_the_exact_value(n, goal):
    exact = cert.simultaneous_best_response(n, goal, cert.Exact)
    ball = cert.simultaneous_best_response(n, goal, cert.Balls())
    assert _contains(ball, exact)
    assert float(exact) == pytest.approx(
        best_response(hold_at(n), rules=Rules(goal=goal)).value[0, 0], abs=1e-12
    )


def test_stored_enclosures_agree_with_the_solvers_and_are_narrow():
    data = json.loads(cert.OUT.read_text())
    by_key = {e["key"]: e for e in data["enclosures"]}
    assert {"seq2_start", "br25", "sim_eq_start"} <= set(by_key)
    for e in data["enclosures"]:  # a NashConv row's "width" is its upper bound, [0, bound]
        assert float(e["width"]) <= (1e-9 if e["key"].endswith("_nashconv") else cert.MAX_WIDTH)
    seats = [by_key[f"seq3_seat{s}"] for s in (1, 2, 3)]
    assert sum(float(e["value"]) for e in seats) == pytest.approx(1, abs=1e-12)
    assert all(e["enclosure"].startswith(f"[{e['value']} +/- ") for e in seats)
    seq = arb(by_key["seq2_start"]["enclosure"])
    assert seq.contains(arb(repr(float(solve(rules=Rules(goal=100, players=2)).value[0, 0, 0])))) or (
        abs(float(seq.mid()) - solve(rules=Rules(goal=100, players=2)).value[0, 0, 0]) < 1e-13
    )
    br = float(arb(by_key["br25"]["enclosure"]).mid())
    assert br == pytest.approx(best_response(hold_at(25), rules=Rules()).value[0, 0], abs=1e-13)
    assert float(by_key["seq2_start"]["bellman_gain_upper"]) <= 0


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="goal=1"):
        cert.sequential_policy_value([], 1, cert.Exact)
    with pytest.raises(ValueError, match="n=0"):
        cert.simultaneous_best_response(0, 10, cert.Exact)


def test_report_cells_name_the_certified_rows():
    cells = cert.certified_cells()
    assert cert.certified_cell(
        cells, "Z23.3", "best response's win rate at (0, 0) against hold at 25"
    ).startswith("arb")
    assert cert.certified_cell(cells, "Z23.3", "hardest 'hold at n' to exploit (best n)") == ""
    assert (
        cert.certified_cell(cells, "Z23.N3", "equilibrium value at (0, 0); certificate gap; symmetry")
        == "exact"
    )


@pytest.mark.slow
def test_the_stored_file_recomputes():
    assert cert.main(["--check"]) == 0


def test_report_tables_regenerate_byte_for_byte_with_the_certified_column():
    """The committed REPORT.md's tables are what run_all.report writes from results.json now."""
    from analyses._claims import Row
    from analyses.run_all import report

    root = cert.OUT.parent
    rows = [Row(**c) for c in json.loads((root / "results.json").read_text())["claims"]]
    text = report(rows, {})
    assert text == report(rows, {})
    committed = (root / "REPORT.md").read_text()
    assert committed.startswith(text) and committed[len(text) :].startswith("## Details")
    assert "| status | certified | note |" in text and text.count("| arb, width ") == 2
