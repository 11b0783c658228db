"""Policy files: every kind in every format it fits, round trips, rules recorded and checked,
and errors that name the file and the place in it."""

from __future__ import annotations

import json
import stat
from dataclasses import dataclass

import numpy as np
import pytest

import pigtheory
from pigtheory import MixedPolicy, Rules, ThresholdTable, hold_at
from pigtheory.io import (
    KINDS,
    PolicyKind,
    Saveable,
    read_policy,
    read_policy_file,
    register_kind,
    write_policy,
)
from pigtheory.policies.sequential import RollTable, roll_tables
from pigtheory.sequential import base_pace_race, compare, pace_race, scoring_turns, solve
from pigtheory.simultaneous import best_response, equilibrium, hold_at_sweep, limit, win_probability

R = Rules(goal=12)


def _same(a, b):
    if type(a) is not type(b):
        return False
    kind = pigtheory.io.kinds.kind_of(a)
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f, _ in kind.arrays) and all(
        getattr(a, p) == getattr(b, p) for p in kind.params
    )


POLICIES = {
    "hold_at": (hold_at(5), R),
    "threshold table": (ThresholdTable(best_response(hold_at(4), rules=R).policy), R),
    "own-score table": (ThresholdTable(np.minimum(4, 12 - np.arange(12))), R),
    "3 players": (ThresholdTable(best_response([hold_at(3)] * 2, rules=Rules(goal=7, players=3)).policy), Rules(goal=7, players=3)),
    "mixed": (equilibrium(rules=Rules(goal=30)).policy, Rules(goal=30)),
    "roll table": (RollTable(solve(rules=R).roll), R),
    "Double Trouble": (RollTable(solve(rules=Rules(goal=12, dice=2, double_trouble=True)).roll), Rules(goal=12, dice=2, double_trouble=True)),
    "scoring turns": (scoring_turns(3), R),
    "base pace race": (base_pace_race(4, 3, 2), R),
    "pace race": (pace_race(4, 2, 3), R),
}  # fmt: skip
TABLES = {"threshold table", "own-score table", "3 players", "roll table", "Double Trouble"}


@pytest.mark.parametrize("name", sorted(POLICIES))
@pytest.mark.parametrize("suffix", [".json", ".csv", ".npy"])
def test_round_trip(tmp_path, name, suffix):
    policy, rules = POLICIES[name]
    if name == "scoring turns" and suffix != ".json":
        return  # a counter policy has no table (test_a_counter_policy_has_no_table)
    if suffix == ".npy" and name == "mixed":
        with pytest.raises(ValueError, match="json or .csv"):
            write_policy(policy, tmp_path / "p.npy", rules=rules)
        return
    path = write_policy(policy, tmp_path / f"p{suffix}", rules=rules)
    back, recorded = read_policy_file(path, rules=rules)
    assert recorded == (None if suffix == ".npy" else rules)
    if suffix == ".json" or name in TABLES or name == "mixed":
        assert _same(back, policy)
    else:  # a parametric policy as a table: the same play
        if pigtheory.io.kinds.kind_of(policy).sequential:
            assert np.array_equal(roll_tables(back, rules), roll_tables(policy, rules))
        else:
            assert np.array_equal(back.table, policy.table(rules))


def test_a_counter_policy_has_no_table(tmp_path):
    for suffix in (".csv", ".npy"):
        with pytest.raises(ValueError, match="counter"):
            write_policy(scoring_turns(3), tmp_path / f"s{suffix}", rules=R)


def test_results_write_their_policy(tmp_path):
    sol = best_response(hold_at(4), rules=R)
    eq = equilibrium(rules=Rules(goal=20))
    seq = solve(rules=R)
    assert np.array_equal(pigtheory.load(sol.save(tmp_path / "br.csv")).table, sol.policy)
    mix = pigtheory.load(eq.save(tmp_path / "eq.json"))
    assert np.allclose(
        win_probability(mix, eq.policy, rules=Rules(goal=20)),
        win_probability(eq.policy, eq.policy, rules=Rules(goal=20)),
    )
    back = RollTable.load(seq.save(tmp_path / "roll.npy"))
    assert compare(back, seq, rules=R).average == pytest.approx(0.5, abs=1e-12)
    with pytest.raises(ValueError, match="threshold table"):  # one threshold per n, not per state
        hold_at_sweep(range(3, 5), rules=R).save(tmp_path / "sweep.json")
    with pytest.raises(ValueError, match="threshold table"):  # one row per n, not a state table
        limit(n_max=5, rules=R).save(tmp_path / "limit.json")
    with pytest.raises(ValueError, match="holds a ThresholdTable, expected a MixedPolicy"):
        MixedPolicy.load(tmp_path / "br.csv")


def test_json_layout(tmp_path):
    path = write_policy(hold_at(3), tmp_path / "h.json", rules=Rules(goal=4))
    doc = json.loads(path.read_text())
    assert doc["format"] == "pigtheory-policy" and doc["version"] == 1 and doc["kind"] == "hold_at"
    assert doc["rules"]["goal"] == 4 and doc["params"] == {"n": 3}
    path = write_policy(
        ThresholdTable(hold_at(3).table(Rules(goal=4))), tmp_path / "t.json", rules=Rules(goal=4)
    )
    doc = json.loads(path.read_text())
    assert doc["axes"] == ["own", "other"] and doc["arrays"]["table"][3] == [1, 1, 1, 1]


def test_csv_layout_and_hand_written_files(tmp_path):
    path = write_policy(equilibrium(rules=Rules(goal=40)).policy, tmp_path / "eq.csv", rules=Rules(goal=40))
    lines = [x for x in path.read_text().splitlines() if not x.startswith("#")]
    assert lines[0] == "own,other,threshold,weight"
    assert len(lines) - 1 >= 40 * 40  # one row per threshold played, at least one per state
    hand = tmp_path / "hand.csv"  # no comments, rows in any order
    rows = [f"{i},{j},{min(2, 3 - i)}" for j in range(3) for i in range(3)]
    hand.write_text("own,other,threshold\n" + "\n".join(reversed(rows)) + "\n")
    assert np.array_equal(read_policy(hand, rules=Rules(goal=3)).table, hold_at(2).table(Rules(goal=3)))
    bare = tmp_path / "bare.csv"  # numpy.savetxt of a table
    np.savetxt(bare, hold_at(2).table(Rules(goal=3)), fmt="%d", delimiter=",")
    assert np.array_equal(read_policy(bare).table, hold_at(2).table(Rules(goal=3)))


def test_rules_are_recorded_and_checked(tmp_path):
    path = write_policy(hold_at(3), tmp_path / "t.csv", rules=Rules(goal=6))
    with pytest.raises(ValueError, match="t.csv: a policy for .*goal 6.*goal 7"):
        read_policy(path, rules=Rules(goal=7))
    with pytest.raises(ValueError, match="t.csv: a policy for"):  # another die, same goal
        read_policy(path, rules=Rules(goal=6, die_faces=8))
    table = tmp_path / "table.npy"
    np.save(table, np.full((5, 5), 4))  # 4 > 5 - own from own = 2 on: not a table of goal 5
    with pytest.raises(ValueError, match="table.npy: policy: thresholds must lie in 1..goal - own"):
        read_policy(table)


@pytest.mark.parametrize(
    "text, words",
    [
        ("[1, 2]", ["expected a JSON object"]),
        ('{"kind": "threshold_table"}', ["field version"]),
        ('{"kind": "nope", "version": 1}', ["field kind", "unknown policy kind 'nope'"]),
        ('{"kind": "hold_at", "version": 2, "params": {"n": 3}}', ["field version", "1..1"]),
        ('{"kind": "hold_at", "version": 1, "params": {"n": 0}}', ["n must be an integer in 1..", "got 0"]),
        ('{"kind": "hold_at", "version": 1, "params": {"m": 3}}', ["field params.m"]),
        ('{"kind": "threshold_table", "version": 1, "arrays": {}}', ["field arrays.table is missing"]),
        ('{"kind": "threshold_table", "version": 1, "arrays": {"table": [[1, 1], [1]]}}', ["arrays.table", "rows of different lengths"]),
        ('{"kind": "threshold_table", "version": 1, "arrays": {"table": [[1, true], [1, 1]]}}', ["arrays.table", "true/false"]),
        ('{"kind": "threshold_table", "version": 1, "arrays": {"table": [[1, 1.5], [1, 1]]}}', ["arrays.table", "1.5"]),
        ('{"kind": "threshold_table", "version": 1, "arrays": {"table": [[1, NaN], [1, 1]]}}', ["NaN is not a number JSON allows"]),
        ('{"kind": "threshold_table", "version": 1, "rules": {"goal": 0}, "arrays": {"table": [[1]]}}', ["field rules", "goal must be an integer >= 1"]),
        ('{"kind": "threshold_table", "version": 1, "rules": {"gaol": 2}, "arrays": {"table": [[1]]}}', ["field rules.gaol"]),
        ('{"kind": "mixed", "version": 1, "arrays": {"thresholds": [[[1]]], "weights": [[[0.5]]]}}', ["sum to 1"]),
        ('{\n "kind": "hold_at",\n "version": 1,,\n}', ["line 3"]),
        ("", ["line 1", "invalid JSON"]),
        ('{"format": "other", "kind": "hold_at", "version": 1, "params": {"n": 3}}', ["field format: expected 'pigtheory-policy', got 'other'"]),
        ('{"kind": "hold_at", "version": 1, "params": {"n": 3}, "colour": 1}', ["unknown field 'colour'"]),
        ('{"kind": "hold_at", "version": 1, "params": [3]}', ["field params: expected an object, got a list"]),
        ('{"kind": "hold_at", "version": 1, "params": {"n": "3"}}', ["field params.n: expected an integer, got a string"]),
        ('{"kind": "threshold_table", "version": 1, "arrays": [1]}', ["field arrays: expected an object, got a list"]),
        ('{"kind": "threshold_table", "version": 1, "arrays": {"table": []}}', ["field arrays.table: expected a non-empty"]),
        ('{"kind": "threshold_table", "version": 1, "arrays": {"table": [[1, 1e400], [1, 1]]}}', ["arrays.table: expected finite numbers"]),
        ('{"kind": "threshold_table", "version": 1, "name": 3, "arrays": {"table": [[1]]}}', ["field name: expected a string, got a number"]),
        ('{"kind": "threshold_table", "version": 1, "rules": [1], "arrays": {"table": [[1]]}}', ["field rules: expected an object of rules fields or null, got a list"]),
    ],
)  # fmt: skip
def test_json_errors_name_the_file_and_field(tmp_path, text, words):
    path = tmp_path / "policy.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="policy.json") as info:
        read_policy(path)
    for w in words:
        assert w in str(info.value)


def _rows(g, value, n_axes=2):
    return "".join(",".join(map(str, idx)) + f",{value(idx)}\n" for idx in np.ndindex(*(g,) * n_axes))


@pytest.mark.parametrize(
    "text, words",
    [
        ("own,other,threshold\n0,0,1\x00\n", "a binary file, expected CSV text"),
        ("own,own,threshold\n0,0,1\n", "line 1: a column appears twice"),
        ("threshold,own,other\n1,0,0\n", "line 1: the header lists the axes (own first), then the values"),
        ("own,other,threshold\n", "no data rows after the header"),
        ("own,other,threshold\n" + _rows(3, lambda i: 1).replace("2,2,1", "-1,2,1"), "data row 9: negative index"),
        ("own,other,threshold\n" + "".join(f"{i},{j},1\n" for i in range(3) for j in range(2)), "column other: runs 0..1, expected 0..2 like own"),
        ("own,other,threshold\n" + _rows(3, lambda i: 1) + "0,0,1\n", "10 data rows, but a full table of shape (3, 3) has 9"),
        ("own,other,turn_total,roll\n" + _rows(2, lambda i: 2 if i == (0, 0, 0) else 1, 3), "column roll: expected 0 or 1"),
        ("own,other,turn_total,threshold,weight\n0,0,0,1,1\n", "a mixed policy's axes are the players' scores only"),
        ("own,other,threshold,weight\n-1,0,1,1\n0,0,1,1\n", "negative scores"),
        ("own,other,threshold,weight\n0,0,1,1\n1,1,1,1\n", "2 rows cannot cover the 4 states of goal 2"),
        ("# params: [1]\nown,other,threshold\n0,0,1\n", "line 1: '# params:' must be followed by a JSON object of integers"),
        ("# kind: mixed\nown,other,threshold\n0,0,1\n", "line 2: a mixed has value columns threshold,weight"),
    ],
)  # fmt: skip
def test_csv_errors_name_the_file_and_what_is_wrong(tmp_path, text, words):
    path = tmp_path / "policy.csv"
    path.write_bytes(text.encode())
    with pytest.raises(ValueError, match="policy.csv") as info:
        read_policy(path)
    assert words in str(info.value)


@pytest.mark.parametrize(
    "write, words",
    [
        (lambda p: np.save(p, np.array([[1, None]], dtype=object), allow_pickle=True), "an array of Python objects"),
        (lambda p: np.save(p, np.zeros((0, 0), dtype=np.int64)), "an array of shape (0, 0); expected a table"),
        (lambda p: np.save(p, np.int64(3)), "an array of shape (); expected a table"),
        (lambda p: np.save(p, np.full((2, 2), 1.5)), "a float64 array; expected integers (thresholds) or booleans"),
    ],
)  # fmt: skip
def test_npy_errors_name_the_file_and_what_is_wrong(tmp_path, write, words):
    path = tmp_path / "policy.npy"
    write(path)
    with pytest.raises(ValueError, match="policy.npy") as info:
        read_policy(path)
    assert words in str(info.value)


def test_an_npz_that_is_no_pigtheory_archive_is_named_as_such(tmp_path):
    """A plain .npy saved under the .npz name, and a numpy archive without pigtheory's metadata,
    are refused in words (the first used to show numpy's context-manager error)."""
    single = tmp_path / "single.npz"
    with open(single, "wb") as f:
        np.save(f, np.ones(3))
    with pytest.raises(
        ValueError,
        match=r"single.npz: not a readable pigtheory file \(a single .npy array, not an .npz archive\)",
    ):
        pigtheory.load(single)
    plain = tmp_path / "plain.npz"
    np.savez(plain, a=np.ones(3))
    with pytest.raises(ValueError, match="plain.npz: .*no 'pigtheory.json' member"):
        pigtheory.load(plain)
    with pytest.raises(ValueError, match="pigtheory files end in .npz"):
        pigtheory.load(tmp_path / "p.zip")


def test_files_are_atomic_and_0644(tmp_path):
    path = write_policy(hold_at(3), tmp_path / "sub" / "p.csv", rules=R)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    with pytest.raises(ValueError, match="thresholds must lie"):  # a failed write leaves nothing
        write_policy(ThresholdTable(np.zeros((12, 12), dtype=int)), tmp_path / "sub" / "bad.csv", rules=R)
    assert [p.name for p in (tmp_path / "sub").iterdir()] == ["p.csv"]


@dataclass(frozen=True, eq=False)
class _Stopping(Saveable):
    """A stand-in for a policy class that joins the file format later."""

    roll: np.ndarray
    name: str = "stand-in"


def test_a_new_kind_is_one_registration(tmp_path, monkeypatch):
    monkeypatch.setitem(KINDS, "stand_in", KINDS["stopping_rule"])
    register_kind(
        PolicyKind(
            "stand_in", f"{__name__}:_Stopping", (("roll", "bool"),), (), ("turn_total",), check="stopping"
        )
    )
    roll = np.arange(6)[None, None, :] < np.full((6, 6, 1), 3)
    for suffix in (".json", ".csv"):
        path = write_policy(_Stopping(roll), tmp_path / f"s{suffix}")
        back = read_policy(path)
        assert isinstance(back, _Stopping) and np.array_equal(back.roll, roll)
    assert "turn_total" in (tmp_path / "s.csv").read_text()


def _asymmetric_table(rules):
    """A threshold table that differs from its transpose (so axis order matters)."""
    g = rules.goal
    own, other = np.indices((g, g))
    return ThresholdTable(np.clip(1 + own // 2 + other // 3, 1, g - own))


def test_json_axes_are_honoured_or_refused(tmp_path):
    """A file whose arrays are stored ``[other, own]`` and say so reads as own score first; axis
    names that are not the kind's are refused, never ignored."""
    rules = Rules(goal=8)
    table = _asymmetric_table(rules)
    doc = json.loads(write_policy(table, tmp_path / "t.json", rules=rules).read_text())
    doc["arrays"]["table"] = np.array(doc["arrays"]["table"]).T.tolist()
    doc["axes"] = ["other", "own"]
    (tmp_path / "swapped.json").write_text(json.dumps(doc))
    back = read_policy(tmp_path / "swapped.json", rules=rules)
    assert np.array_equal(back.table, table.table)
    for axes in (["own", "turn_total"], ["own"], ["own", "own"], "own,other", [1, 2]):
        doc["axes"] = axes
        (tmp_path / "bad.json").write_text(json.dumps(doc))
        with pytest.raises(ValueError, match="field axes"):
            read_policy(tmp_path / "bad.json", rules=rules)


@pytest.mark.parametrize("dialect", ["quoted", "r_write_csv", "crlf_bom"])
def test_csv_as_common_tools_write_it(tmp_path, dialect):
    """Quoted headers (pandas with quoting, R's write.csv with its row-name column), CRLF line
    ends and a byte-order mark (Excel) read as the plain file does."""
    rules = Rules(goal=8)
    table = _asymmetric_table(rules)
    lines = write_policy(table, tmp_path / "t.csv", rules=rules).read_text().splitlines()
    comments = [x for x in lines if x.startswith("#")]
    header, *body = [x for x in lines if not x.startswith("#")]
    if dialect == "quoted":
        rows = [",".join(f'"{c}"' for c in header.split(","))] + body
        text = "\n".join(comments + rows) + "\n"
    elif dialect == "r_write_csv":
        rows = ['"",' + ",".join(f'"{c}"' for c in header.split(","))]
        rows += [f'"{n}",{row}' for n, row in enumerate(body, 1)]
        text = "\n".join(comments + rows) + "\n"
    else:
        text = "\ufeff" + "\r\n".join(comments + [header] + body) + "\r\n"
    (tmp_path / "x.csv").write_bytes(text.encode("utf-8"))
    back = read_policy(tmp_path / "x.csv", rules=rules)
    assert np.array_equal(back.table, table.table)
