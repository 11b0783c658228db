"""The ``pigtheory`` command: turn-total and win-probability."""

import subprocess
import sys

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory.cli import main
from pigtheory.simultaneous import win_probability


def test_turn_total_exact(capsys):
    assert main(["turn-total", "3", "--exact"]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert "   0  7/36" in lines and "   8  1/36" in lines


def test_turn_total_float(capsys):
    assert main(["turn-total", "25"]) == 0
    first = capsys.readouterr().out.split("\n")[0].split()
    assert first[0] == "0" and abs(float(first[1]) - 0.7004) < 5e-5


def test_win_probability(capsys):
    assert main(["win-probability", "hold-at-1", "hold-at-3", "--goal", "3"]) == 0
    assert float(capsys.readouterr().out) == pytest.approx(37453 / 87362, abs=1e-10)


def test_win_probability_three_players(capsys):
    assert (
        main(["win-probability", "hold-at-4", "hold-at-6", "hold-at-9", "--goal", "12", "--players", "3"])
        == 0
    )
    want = win_probability(hold_at(4), [hold_at(6), hold_at(9)], rules=Rules(goal=12, players=3))[0, 0, 0]
    assert float(capsys.readouterr().out) == pytest.approx(want, abs=1e-10)


def test_policy_from_npy_file(tmp_path, capsys):
    path = tmp_path / "a.npy"
    np.save(path, hold_at(5).table(Rules(goal=10)))
    assert main(["win-probability", str(path), "hold-at-5", "--goal", "10"]) == 0
    assert float(capsys.readouterr().out) == pytest.approx(0.5, abs=1e-10)


def test_bad_goal_is_a_clean_error(capsys):
    assert main(["win-probability", "hold-at-1", "hold-at-1", "--goal", "0"]) == 2
    assert "goal" in capsys.readouterr().err


def test_bad_policy_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit):
        main(["win-probability", "hold-at-zero", "hold-at-1"])
    assert "policy" in capsys.readouterr().err


def test_console_entry_point_runs():
    out = subprocess.run(
        [sys.executable, "-m", "pigtheory.cli", "turn-total", "1", "--exact"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "   0  1/6" in out
