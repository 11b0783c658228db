"""A new user's first hour (issue 40): which game a command answers, one rule for policy names
and for the rules a file records, across the commands."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory.cli import main


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def roll_files(tmp_path, capsys):
    """The optimal sequential roll table of goal 20, as ``pigtheory sequential --out`` writes it."""
    paths = {}
    for suffix in (".json", ".csv", ".npy"):
        paths[suffix] = tmp_path / f"roll{suffix}"
        assert _run(capsys, "sequential", "--goal", "20", "--out", paths[suffix])[0] == 0
    return paths


def test_exploitability_says_its_game_and_refuses_a_sequential_table(roll_files, capsys):
    status, out, _ = _run(capsys, "exploitability", "--help")
    assert status == 0 and "simultaneous" in out.lower() and "pigtheory referee" in out
    for suffix in (".json", ".csv"):
        status, _, err = _run(capsys, "exploitability", roll_files[suffix])
        assert status == 2 and err.count("\n") == 1
        assert "sequential" in err and f"pigtheory referee {roll_files[suffix]}" in err
    status, out, err = _run(capsys, "exploitability", roll_files[".npy"], "--goal", "20")
    assert status == 0 and "pigtheory referee" in err and "stopping rule" in err  # read, and said how
    status, out, err = _run(capsys, "exploitability", "hold-at-5", "--goal", "20", "--json")
    record = json.loads(out)
    assert status == 0 and record["game"] == "simultaneous" and "1/2" in record["measure"]


def test_compare_reads_the_goal_its_file_records(roll_files, capsys):
    from pigtheory.sequential import compare, solve

    rules = Rules(goal=20)
    want = compare(solve(rules=rules), hold_at(10), rules=rules)
    for suffix in (".json", ".csv"):  # (a bare .npy records no rules)
        status, out, _ = _run(capsys, "compare", roll_files[suffix], "hold-at-10", "--json")
        got = json.loads(out)
        assert status == 0 and got["rules"]["goal"] == 20
        assert got["first"] == pytest.approx(want.first, abs=1e-12)
    status, _, err = _run(capsys, "compare", roll_files[".json"], "hold-at-10", "--goal", "30")
    assert status == 2 and "goal 20" in err and "goal 30" in err


def test_optimal_is_a_policy_of_every_simultaneous_command(capsys):
    """``optimal`` (the equilibrium in simultaneous Pig) is taken where ``compare`` takes it."""
    from pigtheory.simultaneous import equilibrium, exploitability, win_probability

    rules = Rules(goal=15)
    eq = equilibrium(rules=rules).policy
    status, out, _ = _run(capsys, "win-probability", "optimal", "hold-at-5", "--goal", "15", "--json")
    want = win_probability(eq, hold_at(5), rules=rules)[0, 0]
    assert status == 0 and json.loads(out)["win_probability"] == pytest.approx(want, abs=1e-12)
    status, out, _ = _run(capsys, "exploitability", "equilibrium", "--goal", "15", "--json")
    value = next(iter(json.loads(out)["exploitability"].values()))
    assert (
        status == 0
        and value == pytest.approx(exploitability(eq, rules=rules).exploitability, abs=1e-12)
        and abs(value) < 1e-9
    )
    assert _run(capsys, "best-response", "--opponent", "optimal", "--goal", "15")[0] == 0
    assert _run(capsys, "compare", "optimal", "hold-at-5", "--goal", "15")[0] == 0
    status, _, err = _run(capsys, "win-probability", "optimal", "hold-at-5", "hold-at-5", "--players", "3")
    assert status == 2 and "two players" in err


def test_optimal_against_itself_wins_half_the_games(capsys):
    """The equilibrium against itself wins half the games from the start (a property check of
    what 'optimal' resolves to)."""
    status, out, _ = _run(capsys, "win-probability", "optimal", "optimal", "--goal", "12", "--json")
    assert status == 0 and np.isclose(json.loads(out)["win_probability"], 0.5, atol=1e-12)


def test_the_cache_is_said_shown_skipped_and_cleared(tmp_path, monkeypatch, capsys):
    """The first write into the user's cache folder says where it is (once); ``cache info``
    gives its folder and size; ``--no-cache`` neither reads nor writes it; ``cache clear``
    empties it."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("PIGTHEORY_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    folder = tmp_path / ".cache" / "pigtheory"
    status, _, err = _run(capsys, "compare", "optimal", "hold-at-5", "--goal", "12")
    assert status == 0 and err.count("keeping solves in") == 1 and str(folder) in err
    status, _, err = _run(capsys, "compare", "optimal", "hold-at-6", "--goal", "12")
    assert status == 0 and "keeping solves" not in err  # once
    status, out, _ = _run(capsys, "cache", "info", "--json")
    info = json.loads(out)
    assert status == 0 and info["folder"] == str(folder) and info["entries"] >= 1
    assert info["bytes"] == sum(p.stat().st_size for p in folder.glob("*.npz"))
    assert _run(capsys, "compare", "optimal", "hold-at-5", "--goal", "13", "--no-cache")[0] == 0
    assert _run(capsys, "--no-cache", "compare", "optimal", "hold-at-5", "--goal", "14")[0] == 0
    assert json.loads(_run(capsys, "cache", "info", "--json")[1])["entries"] == info["entries"]
    status, out, _ = _run(capsys, "cache", "clear")
    assert status == 0 and "removed" in out and not list(folder.glob("*.npz"))
    status, out, _ = _run(capsys, "--help")
    assert "cache" in out and "--no-cache" in out


def test_a_saved_bare_table_records_the_rules_of_its_shape(tmp_path, capsys):
    """save(ndarray) records the rules its shape gives (with a warning saying so), and every
    command then reads the file at them; an invalid table records none (as before)."""
    import warnings

    import pigtheory
    from pigtheory.io import load_with_rules
    from pigtheory.simultaneous import exploitability

    table = np.minimum(5, 20 - np.arange(20))[:, None] * np.ones((20, 20), dtype=np.int64)
    with pytest.warns(UserWarning, match="records the rules"):
        path = pigtheory.save(table, tmp_path / "t.json")
    assert load_with_rules(path)[1] == Rules(goal=20)
    status, out, _ = _run(capsys, "exploitability", path, "--json")
    got = next(iter(json.loads(out)["exploitability"].values()))
    assert status == 0 and got == pytest.approx(
        exploitability(hold_at(5), rules=Rules(goal=20)).exploitability, abs=1e-12
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # given rules: nothing inferred, nothing said
        pigtheory.save(table, tmp_path / "r.csv", rules=Rules(goal=20))
        pigtheory.save(np.full((20, 20), 5), tmp_path / "bad.json")  # invalid at goal 20: no rules
    assert load_with_rules(tmp_path / "r.csv")[1] == Rules(goal=20)
