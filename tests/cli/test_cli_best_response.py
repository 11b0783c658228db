"""``pigtheory best-response``."""

from __future__ import annotations

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory.cli import main
from pigtheory.io import read_policy
from pigtheory.simultaneous import best_response


def test_prints_the_value_at_the_start(capsys):
    assert main(["best-response", "--opponent", "hold-at-25"]) == 0
    assert float(capsys.readouterr().out) == pytest.approx(best_response(hold_at(25)).value[0, 0], abs=1e-10)


@pytest.mark.parametrize("suffix", [".csv", ".npy", ".json"])
def test_writes_the_policy(tmp_path, capsys, suffix):
    out = tmp_path / f"policy{suffix}"
    assert main(["best-response", "--opponent", "hold-at-4", "--goal", "12", "--out", str(out)]) == 0
    want = best_response(hold_at(4), rules=Rules(goal=12)).policy
    assert np.array_equal(read_policy(out, rules=Rules(goal=12)).table, want)
    if suffix == ".npy":  # a plain table numpy reads as it is
        assert np.array_equal(np.load(out), want)
    if suffix == ".csv":  # own, other, threshold: one row per state
        lines = [r for r in out.read_text().splitlines() if not r.startswith("#")]
        assert lines[0] == "own,other,threshold"
        rows = np.loadtxt(lines[1:], delimiter=",", dtype=np.int64)
        assert np.array_equal(rows[:, 2].reshape(12, 12), want)


def test_value_iteration_and_table_opponent(tmp_path, capsys):
    opp = tmp_path / "opp.npy"
    np.save(opp, np.minimum(3, 10 - np.arange(10))[:, None] * np.ones((10, 10), dtype=np.int64))
    assert main(["best-response", "--opponent", str(opp), "--goal", "10", "--method", "value_iteration"]) == 0
    vi = float(capsys.readouterr().out)
    assert vi == pytest.approx(best_response(hold_at(3), rules=Rules(goal=10)).value[0, 0], abs=1e-10)


def test_three_players_take_two_opponents(tmp_path, capsys):
    out = tmp_path / "p.npy"
    argv = [
        "best-response",
        "--opponent",
        "hold-at-4",
        "--opponent",
        "hold-at-5",
        "--goal",
        "10",
        "--players",
        "3",
    ]
    assert main([*argv, "--output", str(out)]) == 0
    sol = best_response([hold_at(4), hold_at(5)], rules=Rules(goal=10, players=3))
    assert float(capsys.readouterr().out) == pytest.approx(sol.value[0, 0, 0], abs=1e-10)
    assert np.array_equal(np.load(out), sol.policy)


def test_errors(capsys):
    assert main(["best-response", "--opponent", "hold-at-4", "--goal", "10", "--players", "3"]) == 2
    assert "opponent" in capsys.readouterr().err
    assert main(["best-response", "--opponent", "hold-at-x"]) == 2
    assert "hold-at-x" in capsys.readouterr().err
    assert main(["best-response"]) == 2
    assert "--opponent" in capsys.readouterr().err
