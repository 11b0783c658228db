"""The ``pigtheory`` command: results, and every finding of issue 13 (bad input, big input,
files), each with the command line a new user tried."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory.cli import build_parser, main
from pigtheory.io import read_policy
from pigtheory.sequential import compare, solve
from pigtheory.simultaneous import best_response, equilibrium, win_probability

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    """``(status, stdout, stderr)`` of ``pigtheory argv``."""
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def assert_usage_error(capsys, argv, *words):
    status, out, err = run(capsys, *argv)
    assert status == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err
    return err


def assert_refused(capsys, argv):
    """The memory guard refuses at once: status 1, one line with the estimate and the limit."""
    t0 = time.perf_counter()
    status, out, err = run(capsys, *argv)
    assert time.perf_counter() - t0 < 5
    assert status == 1 and out == "", err
    assert err.count("\n") == 1 and "memory limit" in err and "--max-memory" in err, err
    return err


# --- results ------------------------------------------------------------------------------


def test_turn_total_exact(capsys):
    status, out, _ = run(capsys, "turn-total", "3", "--exact")
    assert status == 0 and "   0  7/36" in out.split("\n") and "   8  1/36" in out.split("\n")


def test_win_probability(capsys):
    status, out, _ = run(capsys, "win-probability", "hold-at-1", "hold-at-3", "--goal", "3")
    assert status == 0 and float(out) == pytest.approx(37453 / 87362, abs=1e-10)


def test_win_probability_three_players(capsys):
    status, out, _ = run(
        capsys, "win-probability", "hold-at-4", "hold-at-6", "hold-at-9", "--goal", "12", "--players", "3"
    )
    want = win_probability(hold_at(4), [hold_at(6), hold_at(9)], rules=Rules(goal=12, players=3))[0, 0, 0]
    assert status == 0 and float(out) == pytest.approx(want, abs=1e-10)


@pytest.mark.parametrize("suffix", [".json", ".csv", ".npz"])
def test_a_file_that_records_its_rules_sets_them(capsys, tmp_path, suffix):
    from pigtheory import save
    from pigtheory.simultaneous import exploitability

    rules = Rules(goal=14)
    sol = best_response(hold_at(5), rules=rules)
    path = save(sol, tmp_path / f"br{suffix}")
    status, out, err = run(capsys, "exploitability", path, "--json")
    assert status == 0, err
    got = json.loads(out)
    assert got["rules"]["goal"] == 14
    assert got["exploitability"][str(path)] == pytest.approx(
        exploitability(sol, rules=rules).exploitability, abs=1e-12
    )
    status, out, _ = run(capsys, "win-probability", "hold-at-5", path)
    assert status == 0 and float(out) == pytest.approx(
        win_probability(hold_at(5), sol, rules=rules)[0, 0], abs=1e-10
    )
    assert_usage_error(capsys, ["best-response", "--opponent", path, "--goal", "15"], "goal 14", "goal 15")


def test_a_file_without_rules_takes_the_command_line_goal(capsys, tmp_path):
    from pigtheory import ThresholdTable
    from pigtheory.simultaneous import exploitability

    table = np.repeat(np.minimum(3, np.arange(14, 0, -1))[:, None], 14, axis=1)  # hold at 3, goal 14
    np.save(tmp_path / "t.npy", table)
    status, out, _ = run(capsys, "exploitability", tmp_path / "t.npy", "--goal", "14")
    want = exploitability(ThresholdTable(table), rules=Rules(goal=14)).exploitability
    assert status == 0 and want > 0.01 and float(out) == pytest.approx(want, abs=1e-9)
    assert_usage_error(capsys, ["exploitability", tmp_path / "t.npy"], "goal 100")  # default 100: wrong shape


def test_exploitability_of_the_web_app_file_scores_its_simultaneous_tables(capsys):
    from pigtheory.published import SIMULTANEOUS_TABLES, webapp_json_path, webapp_policies
    from pigtheory.simultaneous import exploitability

    status, out, err = run(capsys, "exploitability", webapp_json_path(), "--json")
    assert status == 0
    got = json.loads(out)["exploitability"]
    assert sorted(got) == sorted(SIMULTANEOUS_TABLES)
    assert "warning: left out the web app's sequential tables" in err
    hard = webapp_policies().tables["webapp-simultaneous-hard"]
    assert got["webapp-simultaneous-hard"] == pytest.approx(exploitability(hard).exploitability, abs=1e-12)


@pytest.mark.parametrize("name", ["webapp-simultaneous-hard", "action_simul_hard"])
def test_exploitability_takes_a_published_table_by_name(capsys, name):
    from pigtheory.published import published_table
    from pigtheory.simultaneous import exploitability

    status, out, _ = run(capsys, "exploitability", name, "--json")
    assert status == 0
    got = json.loads(out)["exploitability"]
    assert list(got) == ["webapp-simultaneous-hard"]
    expected = exploitability(published_table("webapp-simultaneous-hard")).exploitability
    assert got["webapp-simultaneous-hard"] == pytest.approx(expected, abs=1e-12)
    status, out, _ = run(capsys, "exploitability", "webapp", "--json")
    assert status == 0 and len(json.loads(out)["exploitability"]) == 3
    status, _, err = run(capsys, "exploitability", "webapp-sequential-hard")
    assert status != 0 and "sequential" in err


def test_console_entry_point_runs():
    out = subprocess.run(
        [sys.executable, "-m", "pigtheory", "turn-total", "1", "--exact"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    assert "   0  1/6" in out


# --- silent wrong answers -----------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["sequential", "--goal", "0"],
        ["compare", "optimal", "hold-at-20", "--goal", "0"],
        ["win-probability", "hold-at-1", "hold-at-1", "--goal", "0"],
    ],
)
def test_goal_zero_is_refused_not_goal_100(capsys, argv):
    assert_usage_error(capsys, argv, "--goal", ">= 1")


@pytest.mark.parametrize("extra", [["--dice", "2"], ["--double-trouble"], ["--dice", "1"]])
def test_piglet_refuses_dice_options(capsys, extra):
    assert_usage_error(capsys, ["sequential", "--piglet", *extra], "--piglet")


def test_double_trouble_means_two_dice(capsys, tmp_path, monkeypatch):
    assert_usage_error(capsys, ["sequential", "--double-trouble", "--dice", "1"], "--double-trouble")
    status, out, _ = run(capsys, "sequential", "--double-trouble", "--goal", "10", "--json")
    assert status == 0 and json.loads(out)["rules"]["double_trouble"] is True


def test_equilibrium_show_negative_is_refused(capsys):
    assert_usage_error(capsys, ["equilibrium", "--show", "-1"], "--show", "in 0..")


def test_equilibrium_show_lists_that_many(capsys):
    status, out, _ = run(capsys, "equilibrium", "--goal", "30", "--show", "1", "--json")
    data = json.loads(out)
    assert status == 0 and len(data["shown"]) == min(1, data["mixed_states"])


# --- no resource guard --------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["win-probability", "hold-at-25", "hold-at-25", "--goal", "1000000"],
        ["sequential", "--goal", "1000000"],
        ["equilibrium", "--goal", "1000000"],
        ["limit", "--n-max", "10000000"],
        ["best-response", *["--opponent", "hold-at-25"] * 4, "--players", "5"],
        ["best-response", *["--opponent", "hold-at-25"] * 49, "--players", "50"],
        ["compare", "optimal", "hold-at-20", "--goal", "100000"],
        ["turn-total", "1000000000000"],
    ],
)
def test_big_inputs_are_refused_before_allocating(capsys, argv):
    assert_refused(capsys, argv)


def test_max_memory_option(capsys):
    err = assert_refused(capsys, ["best-response", "--opponent", "hold-at-25", "--max-memory", "1K"])
    assert "max_memory=1K" in err
    assert_usage_error(
        capsys, ["best-response", "--opponent", "hold-at-25", "--max-memory", "lots"], "--max-memory"
    )
    status, _, _ = run(
        capsys, "best-response", "--opponent", "hold-at-5", "--goal", "10", "--max-memory", "64M"
    )
    assert status == 0


# --- policy files -------------------------------------------------------------------------


def test_missing_file_names_it(capsys):
    assert_usage_error(
        capsys, ["best-response", "--opponent", "no/such.json"], "no/such.json", "no such file"
    )


def test_json_without_kind(capsys, tmp_path):
    path = tmp_path / "empty.json"
    path.write_text("{}")
    assert_usage_error(capsys, ["win-probability", str(path), "hold-at-5"], "empty.json", "kind")


def test_malformed_json_names_the_file_and_line(capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{\n "kind": "threshold_table",\n "version": 1,\n "arrays": {"table": [[1, 2],, ]}\n}')
    assert_usage_error(capsys, ["exploitability", str(path)], "bad.json", "line 4")


@pytest.mark.parametrize(
    "text, words",
    [
        ("own,other,threshold\n0,0,1\n0,1\n", ["line 3", "2 values, expected 3"]),
        ("own,other,threshold\n0,0,1\n0,1,1.5\n", ["line 3", "threshold", "'1.5' is not an integer"]),
        ("own,other,threshold\n0,0,nan\n", ["line 2", "'nan'"]),
        ("own;other;threshold\n0;0;1\n", ["';'"]),
        ("a,b,c\n0,0,1\n", ["unknown column 'a'"]),
        ("1,2\n3\n", ["line 2"]),
        ("own,other,threshold\n0,0,1\n", []),  # goal 1: valid, but the command solves goal 100
    ],
)
def test_bad_csv_says_why(capsys, tmp_path, text, words):
    path = tmp_path / "table.csv"
    path.write_text(text)
    assert_usage_error(capsys, ["win-probability", str(path), "hold-at-5"], "table.csv", *words)


def test_fake_npy_says_why(capsys, tmp_path):
    fake = tmp_path / "fake.npy"
    fake.write_bytes(b"not numpy at all")
    assert_usage_error(capsys, ["best-response", "--opponent", str(fake)], "fake.npy", ".npy")
    cut = tmp_path / "cut.npy"
    np.save(cut, np.ones((100, 100), dtype=np.int64))
    cut.write_bytes(cut.read_bytes()[:-100])
    assert_usage_error(capsys, ["best-response", "--opponent", str(cut)], "cut.npy", "truncated")


def test_huge_npy_header_is_refused_without_allocating(capsys, tmp_path):
    path = tmp_path / "huge.npy"
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": "<i8", "fortran_order": False, "shape": (10**6, 10**6)}
        )
    assert_usage_error(capsys, ["best-response", "--opponent", str(path)], "huge.npy", "holds 0 bytes")


def test_sequential_out_round_trips_through_compare(capsys, tmp_path):
    for suffix in (".npy", ".json", ".csv"):
        out = tmp_path / f"roll{suffix}"
        assert run(capsys, "sequential", "--goal", "12", "--dice", "2", "--out", out)[0] == 0
        status, text, _ = run(capsys, "compare", out, "hold-at-4", "--goal", "12", "--dice", "2", "--json")
        rules = Rules(goal=12, dice=2)
        want = compare(solve(rules=rules), hold_at(4), rules=rules)
        assert status == 0 and json.loads(text)["average"] == pytest.approx(want.average, abs=1e-12)


def test_compare_takes_threshold_tables(capsys, tmp_path):
    from pigtheory.io import write_policy

    path = tmp_path / "t.csv"

    write_policy(hold_at(5), path, rules=Rules(goal=20))
    status, out, _ = run(capsys, "compare", path, "hold-at-5", "--goal", "20", "--json")
    assert status == 0 and json.loads(out)["average"] == pytest.approx(0.5, abs=1e-12)
    assert_usage_error(capsys, ["compare", str(path), "hold-at-5", "--goal", "21"], "t.csv")


def test_equilibrium_exports_its_mixed_policy(capsys, tmp_path):
    out = tmp_path / "eq.json"
    assert run(capsys, "equilibrium", "--goal", "40", "--out", out)[0] == 0
    policy = read_policy(out, rules=Rules(goal=40))
    assert np.allclose(policy.weights, equilibrium(rules=Rules(goal=40)).policy.weights)
    status, text, _ = run(capsys, "exploitability", out, "--goal", "40", "--json")
    assert status == 0 and abs(json.loads(text)["exploitability"][str(out)]) < 1e-12


def test_every_format_is_accepted_by_every_policy_command(capsys, tmp_path):
    rules = Rules(goal=15)
    sol = best_response(hold_at(4), rules=rules)
    for suffix in (".json", ".csv", ".npy", ".npz"):
        path = sol.save(tmp_path / f"br{suffix}")
        status, out, _ = run(capsys, "win-probability", path, "hold-at-4", "--goal", "15", "--json")
        assert status == 0 and json.loads(out)["win_probability"] == pytest.approx(sol.value[0, 0], abs=1e-12)
        assert run(capsys, "best-response", "--opponent", path, "--goal", "15")[0] == 0
        assert run(capsys, "exploitability", path, "--goal", "15")[0] == 0


# --- late checks --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, word",
    [
        (["best-response", "--opponent", "hold-at-25", "--output", "x.txt"], "x.txt"),
        (["sequential", "--out", "x.txt"], "x.txt"),
        (["equilibrium", "--out", "eq.npy"], "eq.npy"),
        (["stackelberg", "--out", "README.md/leader.json"], "not a folder"),
        (["limit", "--show", "0"], "--show"),
        (["limit", "--n-max", "10", "--show", "11"], "--show"),
    ],
)
def test_outputs_and_shows_are_checked_before_the_solve(capsys, monkeypatch, argv, word):
    # a goal too large to solve: had the solve started first, the guard would answer (status 1)
    monkeypatch.chdir(ROOT)
    assert_usage_error(capsys, argv + ["--goal", "1000000"], word)


def test_three_player_csv_and_sequential_csv_are_written(capsys, tmp_path):
    out = tmp_path / "p3.csv"
    argv = [
        "best-response",
        "--opponent",
        "hold-at-4",
        "--opponent",
        "hold-at-5",
        "--goal",
        "8",
        "--players",
        "3",
    ]
    assert run(capsys, *argv, "--out", out)[0] == 0
    sol = best_response([hold_at(4), hold_at(5)], rules=Rules(goal=8, players=3))
    assert np.array_equal(read_policy(out, rules=Rules(goal=8, players=3)).table, sol.policy)
    assert run(capsys, "sequential", "--goal", "8", "--out", tmp_path / "roll.csv")[0] == 0
    roll = read_policy(tmp_path / "roll.csv", rules=Rules(goal=8)).roll
    assert np.array_equal(roll, solve(rules=Rules(goal=8)).roll)


# --- housekeeping -------------------------------------------------------------------------


def test_cache_is_not_made_in_the_working_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PIGTHEORY_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert run(capsys, "compare", "optimal", "hold-at-4", "--goal", "9")[0] == 0
    assert not (tmp_path / ".cache").exists()
    assert list((tmp_path / "xdg").rglob("sequential-*.npz"))


@pytest.mark.parametrize("suffix", [".json", ".csv", ".npy"])
def test_exported_files_are_0644_whatever_the_umask(capsys, tmp_path, suffix):
    old = os.umask(0o077)
    try:
        out = tmp_path / f"p{suffix}"
        assert run(capsys, "best-response", "--opponent", "hold-at-4", "--goal", "10", "--out", out)[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


# --- the command line's contract ----------------------------------------------------------


def test_version(capsys):
    status, out, _ = run(capsys, "--version")
    assert status == 0 and out.startswith("pigtheory ")


def _actions():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, type(parser._subparsers._group_actions[0])))
    for name, p in sub.choices.items():
        for action in p._actions:
            yield name, action


def test_every_argument_has_help():
    missing = [
        (name, action.dest)
        for name, action in _actions()
        if action.dest != "help" and not action.help and action.help != "==SUPPRESS=="
    ]
    assert missing == []


@pytest.mark.parametrize(
    "argv",
    [
        ["turn-total", "5"],
        ["win-probability", "hold-at-3", "hold-at-4", "--goal", "10"],
        ["best-response", "--opponent", "hold-at-3", "--goal", "10"],
        ["sequential", "--goal", "10"],
        ["compare", "hold-at-3", "hold-at-4", "--goal", "10"],
        ["limit", "--n-max", "20", "--goal", "10"],
        ["equilibrium", "--goal", "10"],
        ["self-play", "--goal", "10"],
        ["stackelberg", "--goal", "10"],
        ["exploitability", "hold-at-4", "--goal", "10"],
    ],
)
def test_json_on_every_command(capsys, argv):
    status, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    assert status == 0 and isinstance(data, dict) and len(data) >= 2
    assert any(isinstance(v, float) for v in _leaves(data.values()))


def _leaves(values):
    for v in values:
        if isinstance(v, dict):
            yield from _leaves(v.values())
        elif isinstance(v, list):
            yield from _leaves(v)
        else:
            yield v


def test_errors_are_one_line_and_debug_shows_the_traceback(capsys, tmp_path):
    target = tmp_path / "folder.json"
    target.mkdir()
    assert_usage_error(capsys, ["best-response", "--opponent", "hold-at-3", "--out", str(target)], "folder")
    status, _, err = run(capsys, "best-response", "--opponent", "hold-at-3", "--goal", "12", "--players", "3")
    assert status == 2 and err.count("\n") == 1 and "2 opponents" in err
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK not really")
    status, _, err = run(capsys, "--debug", "win-probability", str(bad), "hold-at-3")
    assert status == 2 and "bad.npz" in err


def test_help_does_not_load_numpy_or_the_solvers():
    code = (
        "import sys\nfrom pigtheory.cli import build_parser\nbuild_parser().format_help()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'scipy', 'numba')"
        " or m.startswith(('pigtheory.simultaneous', 'pigtheory.sequential'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_compare_reads_the_int8_roll_tables_of_pigtheory_0_1(capsys, tmp_path):
    old = tmp_path / "old.npy"  # what `sequential --out` wrote before: 0/1 as int8
    np.save(old, np.asarray(solve(rules=Rules(goal=10)).roll, dtype=np.int8))
    status, out, _ = run(capsys, "compare", old, "optimal", "--goal", "10", "--json")
    assert status == 0 and json.loads(out)["average"] == pytest.approx(0.5, abs=1e-12)


@pytest.mark.parametrize("suffix", [".json", ".csv", ".npy"])
def test_a_stopping_rule_the_cli_writes_is_read_back_by_every_command(capsys, tmp_path, suffix):
    """best-response --strategies stopping --out FILE, then FILE as a policy of win-probability,
    best-response and exploitability: the same numbers as the library gives for the rule."""
    from pigtheory import load
    from pigtheory.simultaneous import exploitability

    path = str(tmp_path / f"rule{suffix}")
    code, _, err = run(
        capsys,
        "best-response",
        "--opponent",
        "hold-at-4",
        "--goal",
        "8",
        "--strategies",
        "stopping",
        "--out",
        path,
    )
    assert code == 0, err
    rule = best_response(hold_at(4), rules=Rules(goal=8), strategies="stopping").policy
    want = {
        "win-probability": win_probability(rule, hold_at(4), rules=Rules(goal=8))[0, 0],
        "best-response": best_response(rule, rules=Rules(goal=8)).value[0, 0],
        "exploitability": exploitability(rule, rules=Rules(goal=8), strategies="stopping").exploitability,
    }
    args = {
        "win-probability": [path, "hold-at-4"],
        "best-response": ["--opponent", path],
        "exploitability": [path, "--strategies", "stopping"],
    }
    for command, value in want.items():
        code, out, err = run(capsys, command, *args[command], "--goal", "8", "--json")
        assert code == 0, (command, err)
        numbers = list(_floats(json.loads(out)))
        assert any(abs(v - value) < 1e-12 for v in numbers), (command, out, value)
    assert load(path) is not None


def _floats(doc):
    """Every float in a JSON document, however nested."""
    if isinstance(doc, float):
        yield doc
    elif isinstance(doc, dict):
        for v in doc.values():
            yield from _floats(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from _floats(v)
