"""``pigtheory referee FILE``: exact scores of policy files, errors in one line with status 2."""

import json

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory.cli import main
from pigtheory.referee import exploitability, roll_probabilities


def _run(capsys, *argv):
    status = main(["referee", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def test_numpy_table_on_a_task(tmp_path, capsys):
    table = np.random.default_rng(1).random((20, 20, 20))
    np.save(tmp_path / "t.npy", table)
    status, out, _ = _run(capsys, tmp_path / "t.npy", "--task", "pig-20", "--json")
    assert status == 0
    got = json.loads(out)
    want = exploitability(table, rules=Rules(goal=20))
    assert got["exploitability"] == pytest.approx(want.exploitability, abs=1e-14)
    assert got["nash_conv"] == pytest.approx(want.nash_conv, abs=1e-14)
    assert got["measure"] == "exploitability" and got["task"] == "pig-20"
    status, out, _ = _run(capsys, tmp_path / "t.npy", "--task", "pig-20")
    assert "exploitability:" in out and "goal 20" in out and "best-response gain" in out


def test_against_and_out(tmp_path, capsys):
    status, out, _ = _run(
        capsys, "hold-at-4", "--goal", "15", "--against", "optimal", "--out", tmp_path / "s.json"
    )
    assert status == 0 and "value against optimal" in out
    rec = json.loads((tmp_path / "s.json").read_text())
    from pigtheory.referee import regret

    # the mean value against the optimum is 1/2 minus the regret
    assert rec["against"]["mean"] == pytest.approx(0.5 - regret(hold_at(4), rules=Rules(goal=15)), abs=1e-12)


def test_openspiel_tabular_policy_dict(tmp_path, capsys):
    """An OpenSpiel TabularPolicy.to_dict() of pig (keys are its state strings; action 0 rolls)."""
    rules = Rules(goal=10)
    table = roll_probabilities(hold_at(3), rules)
    d = {}
    for s0 in range(10):
        for s1 in range(10):
            for k in range(10):
                for p in range(2):
                    own, opp = (s0, s1) if p == 0 else (s1, s0)
                    if own + k < 10:
                        r = float(table[own, opp, k])
                        d[f"Scores: {s0} {s1}, Turn total: {k}\nCurrent player: {p}\n"] = [[0, r], [1, 1 - r]]
    (tmp_path / "os.json").write_text(json.dumps(d))
    status, out, _ = _run(capsys, tmp_path / "os.json", "--goal", "10", "--json")
    assert status == 0
    assert json.loads(out)["exploitability"] == pytest.approx(
        exploitability(hold_at(3), rules=rules).exploitability, abs=1e-14
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["missing.npy", "--task", "pig-20"],
        ["hold-at-4", "--task", "pig-7"],
        ["hold-at-4", "--task", "pig-20", "--goal", "30"],
        ["BAD.npy", "--goal", "30"],
        ["hold-at-0", "--goal", "30"],
        ["hold-at-4", "--goal", "20", "--players", "3", "--against", "optimal"],
    ],
)
def test_errors_are_one_line_status_2(tmp_path, capsys, argv):
    np.save(tmp_path / "BAD.npy", np.full((20, 20, 20), 0.5))
    argv = [str(tmp_path / a) if a.endswith(".npy") else a for a in argv]
    status, out, err = _run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("pigtheory referee: error:")
