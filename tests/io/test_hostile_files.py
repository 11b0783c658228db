"""What the tool writes and reuses is verified: sealed records, the resumable sweep, the cache.

Each test damages a file the way a crash, a disk or a person would, and checks that the damage
is found, reported and repaired (never reused as a result), and that intact work is kept.
"""

from __future__ import annotations

import json
import os
import time
import warnings

import numpy as np
import pytest

import pigtheory
from pigtheory import Rules, hold_at
from pigtheory.io import cached
from pigtheory.runtime.records import DamagedRecord, read_record, write_record
from pigtheory.simultaneous import best_response
from pigtheory.simultaneous.sweeps.resumable import hold_at_table

SWEEP = {"goals": [10, 12], "ns": [3, 5]}


def test_a_record_finds_damage_and_edits(tmp_path):
    path = write_record(tmp_path / "r.json", {"value": 0.25, "policy": 3})
    assert read_record(path) == {"value": 0.25, "policy": 3}
    doc = json.loads(path.read_text())
    for edit in ({"value": 0.123}, {"policy": 2.7}, {"extra": 1}):
        path.write_text(json.dumps({**doc, **edit}))
        with pytest.raises(DamagedRecord, match="checksum does not match"):
            read_record(path)
    for text, words in (
        ("[1, 2]", "JSON object"),
        ('{"value": 0.25}', "no checksum"),
        ('{"va', "unreadable"),
    ):
        path.write_text(text)
        with pytest.raises(DamagedRecord, match=words):
            read_record(path)
    with pytest.raises(ValueError, match="sha256"):
        write_record(tmp_path / "x.json", {"sha256": "0"})


@pytest.fixture
def finished_sweep(tmp_path):
    table = hold_at_table(**SWEEP, out=tmp_path)
    return tmp_path, table


def _mtimes(folder):
    return {p.name: p.stat().st_mtime_ns for p in (folder / "tasks").glob("*.json")}


@pytest.mark.parametrize(
    "damage",
    [
        lambda doc: {**doc, "value": 0.123},  # an edited number, checksum left as it was
        lambda doc: {**doc, "value": float("nan")},
        lambda doc: {**doc, "policy": 2.7},
        lambda doc: [doc],  # a list
        lambda doc: {k: v for k, v in doc.items() if k != "value"},  # a missing value
    ],
)
def test_a_damaged_task_file_is_reported_and_solved_again(finished_sweep, damage):
    folder, table = finished_sweep
    victim = sorted((folder / "tasks").glob("*.json"))[0]
    doc = json.loads(victim.read_text())
    victim.write_text(json.dumps(damage(doc)))
    before = _mtimes(folder)
    time.sleep(0.01)
    with pytest.warns(UserWarning, match=f"{victim.stem}|{victim.name}"):
        again = hold_at_table(**SWEEP, out=folder)
    assert np.array_equal(again.value, table.value) and np.array_equal(again.policy, table.policy)
    after = _mtimes(folder)
    assert after[victim.name] != before[victim.name]  # solved and written again
    assert all(after[n] == t for n, t in before.items() if n != victim.name)  # the rest reused
    read_record(victim)  # sealed again


def test_a_task_file_with_a_valid_checksum_but_impossible_numbers_is_refused(finished_sweep):
    """Someone recomputed the checksum after editing: the fields are still checked."""
    folder, table = finished_sweep
    victim = sorted((folder / "tasks").glob("*.json"))[0]
    doc = read_record(victim)
    write_record(victim, {**doc, "value": 1.5})
    with pytest.warns(UserWarning, match="not a win probability"):
        again = hold_at_table(**SWEEP, out=folder)
    assert np.array_equal(again.value, table.value)


def test_a_truncated_index_keeps_the_finished_work(finished_sweep):
    folder, table = finished_sweep
    index = folder / "index.json"
    index.write_text(index.read_text()[:40])
    before = _mtimes(folder)
    with pytest.warns(UserWarning, match="index.json"):
        again = hold_at_table(**SWEEP, out=folder)
    assert _mtimes(folder) == before  # nothing solved again
    assert np.array_equal(again.value, table.value)
    read_record(index)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hold_at_table(**SWEEP, out=folder)  # a clean resume says nothing
    with pytest.raises(ValueError, match="another sweep"):
        hold_at_table(goals=[10], ns=[4], out=folder)


# --- the cache ----------------------------------------------------------------------------


def _solve(goal):
    return best_response(hold_at(4), rules=Rules(goal=goal))


def test_a_cache_entry_holding_another_rules_result_is_replaced(tmp_path):
    path = pigtheory.io.cache_path("br", {"rules": Rules(goal=8)}, cache_dir=tmp_path)
    _solve(9).save(path)  # a valid result, but not the one this entry is for
    got = cached("br", {"rules": Rules(goal=8)}, lambda: _solve(8), cache_dir=tmp_path)
    assert got.rules == Rules(goal=8)
    assert pigtheory.load(path).rules == Rules(goal=8)  # replaced, so the next run is right too


@pytest.mark.parametrize("key", [Rules(goal=8), repr(Rules(goal=8))], ids=["rules", "repr"])
def test_a_cache_entry_keyed_by_its_rules_or_their_repr_is_loaded_not_solved_again(tmp_path, key):
    # the sequential solves key their entries by repr(rules): a load compared the Rules it
    # recorded with that string, found them different and solved every entry again
    calls = []

    def solve():
        calls.append(1)
        return _solve(8)

    first = cached("br", {"rules": key}, solve, cache_dir=tmp_path)
    again = cached("br", {"rules": key}, solve, cache_dir=tmp_path)
    assert len(calls) == 1
    assert np.array_equal(again.value, first.value) and again.rules == Rules(goal=8)
    other = repr(Rules(goal=9)) if isinstance(key, str) else Rules(goal=9)
    _solve(9).save(pigtheory.io.cache_path("br", {"rules": other}, cache_dir=tmp_path))
    assert cached("br", {"rules": other}, lambda: _solve(9), cache_dir=tmp_path).rules == Rules(goal=9)
    path = pigtheory.io.cache_path("br", {"rules": key}, cache_dir=tmp_path)
    _solve(9).save(path)  # another rules' result under this key: replaced
    assert cached("br", {"rules": key}, solve, cache_dir=tmp_path).rules == Rules(goal=8)
    assert len(calls) == 2


def test_a_killed_cache_write_leaves_no_temporary_file_for_long(tmp_path):
    path = pigtheory.io.cache_path("br", {"rules": Rules(goal=8)}, cache_dir=tmp_path)
    stale = tmp_path / f".{path.name}.abc123.tmp.npz"
    fresh = tmp_path / f".{path.name}.def456.tmp.npz"
    stale.write_bytes(b"half a file")
    fresh.write_bytes(b"another process is writing this one now")
    old = time.time() - 2 * 3600
    os.utime(stale, (old, old))
    cached("br", {"rules": Rules(goal=8)}, lambda: _solve(8), cache_dir=tmp_path)
    assert not stale.exists() and fresh.exists()


def test_a_cache_folder_that_cannot_exist_costs_the_cache_not_the_result(tmp_path):
    too_long = tmp_path / ("x" * 300)
    with pytest.warns(UserWarning, match="cache"):
        got = cached("br", {"rules": Rules(goal=8)}, lambda: _solve(8), cache_dir=too_long)
    assert got.rules == Rules(goal=8)
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    with pytest.warns(UserWarning, match="cache"):
        cached("br", {"rules": Rules(goal=8)}, lambda: _solve(8), cache_dir=blocked / "sub")


# --- the play site --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_opponent():
    from pigtheory.play import opponent

    return opponent("optimal", mode="sequential", goal=8)


def test_the_site_never_overwrites_what_a_user_owns(tmp_path, small_opponent):
    from pigtheory.play import build_site

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "index.html").write_text("my page")
    with pytest.raises(ValueError, match="not a pigtheory site"):
        build_site(mine, [small_opponent])
    assert (mine / "index.html").read_text() == "my page"
    for bad in ("", tmp_path / "mine" / "index.html"):
        with pytest.raises(ValueError, match="out"):
            build_site(bad, [small_opponent])
    (mine / "notes.txt").write_text("my notes")
    build_site(mine, [small_opponent], force=True)  # beside my files; same names replaced
    assert (mine / "notes.txt").read_text() == "my notes"
    assert (mine / "data" / "catalog.js").exists() and "my page" not in (mine / "index.html").read_text()


def test_a_site_is_replaced_whole_and_a_failed_build_changes_nothing(tmp_path, small_opponent):
    from pigtheory.play import build_site, opponent

    out = tmp_path / "site"
    build_site(out, [small_opponent])
    other = opponent("hold-at-N".replace("N", "3"), mode="sequential", goal=8)
    build_site(out, [other])
    assert not (out / "data" / f"{small_opponent.key}.js").exists()  # the old build is gone whole
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    import pigtheory.play.site as site

    real = site.pack_opponent

    def exploding(opp):
        if opp.key == other.key:
            raise RuntimeError("a solve that fails half way")
        return real(opp)

    site.pack_opponent = exploding
    try:
        with pytest.raises(RuntimeError, match="half way"):
            build_site(out, [small_opponent, other])
    finally:
        site.pack_opponent = real
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no temporary folder left


def test_the_title_is_escaped(tmp_path, small_opponent):
    from pigtheory.play import build_site

    title = '</title><script>alert("pig")</script>&'
    build_site(tmp_path / "s", [small_opponent], title=title)
    page = (tmp_path / "s" / "index.html").read_text()
    assert "<script>alert" not in page and "&lt;/title&gt;&lt;script&gt;" in page
    for bad in ("", "x" * 201, 7):
        with pytest.raises(ValueError, match="title"):
            build_site(tmp_path / "t", [small_opponent], title=bad)


def test_read_site_data_refuses_what_is_not_a_data_file(tmp_path):
    from pigtheory.play import read_site_data

    (tmp_path / "x.js").write_text("PigSite.register({});")
    for path in (tmp_path / "missing.js", tmp_path / "x.js"):
        with pytest.raises(ValueError, match="not an opponent's data file"):
            read_site_data(path)


def test_a_link_to_nowhere_or_a_loop_is_refused_before_any_work(tmp_path, monkeypatch, capsys):
    from pigtheory.cli import main
    from pigtheory.io.atomic import check_writable

    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    for parent in ("loop", "dangling"):
        with pytest.raises(ValueError, match="is a symbolic link that leads nowhere"):
            check_writable(tmp_path / parent / "x.npz", "out")
    assert check_writable(tmp_path / "new" / "x.npz", "out") == tmp_path / "new" / "x.npz"

    def no_solve(*args, **kwargs):
        raise AssertionError("the solve started before the output path was checked")

    monkeypatch.setattr("pigtheory.simultaneous.symmetric_equilibrium", no_solve)
    monkeypatch.setattr("pigtheory.simultaneous.sweeps.resumable.start_value", no_solve)
    for argv in (
        ["symmetric-equilibrium", "--out", str(tmp_path / "loop" / "x.npz")],
        ["sweep", "--goals", "6", "--ns", "3", "--out", str(tmp_path / "dangling" / "sweep")],
        ["sweep", "--goals", "6", "--ns", "3", "--out", str(tmp_path / "loop")],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "symbolic link that leads nowhere" in err, err
    (tmp_path / "afile").write_text("mine")
    assert main(["sweep", "--goals", "6", "--ns", "3", "--out", str(tmp_path / "afile")]) == 2
    assert "is not a folder" in capsys.readouterr().err and (tmp_path / "afile").read_text() == "mine"


def test_a_huge_sweep_is_counted_without_listing_it():
    from math import comb

    from pigtheory.simultaneous.sweeps.resumable import sweep_tasks

    # a million goals by a million thresholds: refused at once (the count stops past 10**6),
    # and goals below every threshold cost nothing, whatever the players
    with pytest.raises(ValueError, match="more than 1,000,000 tasks"):
        sweep_tasks(range(1, 10**6), range(1, 10**6))
    with pytest.raises(ValueError, match="no threshold is <= any goal"):
        sweep_tasks(range(1, 10**6), [10**7], range(2, 10**6))
    with pytest.raises(ValueError, match="more than 1,000,000 tasks"):
        sweep_tasks([10**5], range(1, 10**5), [10**5])
    # the count of a small sweep is the brute-force one: C(m + p - 2, p - 1) per goal and players
    goals, ns, players, faces = [5, 10, 30], [2, 3, 7, 12, 40], [2, 3, 4], [6, 8]
    brute = sum(comb(sum(n <= g for n in ns) + p - 2, p - 1) for g in goals for p in players) * len(faces)
    assert len(sweep_tasks(goals, ns, players, faces)) == brute == 124


def test_a_policy_name_over_255_bytes_is_named_by_its_argument(tmp_path, monkeypatch, capsys):
    from pigtheory.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    long = str(tmp_path / ("x" * 300 + ".json"))
    for argv, label in (
        (["exploitability", long], "policy"),
        (["play", "--opponent", long, "--seed", "1", "--goal", "6"], "--opponent"),
        (["win-probability", long, "hold-at-3", "--goal", "6"], "path"),
        (["best-response", "--opponent", long, "--goal", "6"], "path"),
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert f"{label}: a file or folder name of 305 bytes; at most 255" in err and "Errno" not in err, err


def test_saving_onto_a_folder_or_under_a_file_is_refused_before_writing(tmp_path):
    sol = best_response(hold_at(3), rules=Rules(goal=6))
    (tmp_path / "dir.npz").mkdir()
    (tmp_path / "dir.json").mkdir()
    (tmp_path / "f").write_text("mine")
    for obj, path, word in (
        (sol, tmp_path / "dir.npz", "is a folder, expected a file name"),
        (hold_at(3), tmp_path / "dir.json", "is a folder, expected a file name"),
        (sol, tmp_path / "f" / "x.npz", "is not a folder"),
        (hold_at(3), tmp_path / "f" / "x.csv", "is not a folder"),
    ):
        with pytest.raises(ValueError, match=word):
            pigtheory.save(obj, path)
    assert (tmp_path / "f").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.json", "dir.npz", "f"]  # no temporary left
    assert not any((tmp_path / "dir.npz").iterdir())


def test_a_threshold_in_hold_at_past_2_62_is_a_usage_error_with_the_reason(capsys):
    from pigtheory.cli import main

    assert main(["best-response", "--opponent", "hold-at-" + "9" * 30, "--goal", "6"]) == 2
    err = capsys.readouterr().err
    assert "hold_at: n must be an integer in 1..4611686018427387904" in err and "invalid" not in err, err


def test_a_square_table_with_column_labels_reads_as_r_and_pandas_write_it(tmp_path):
    table = np.minimum(3, 6 - np.arange(6))[:, None] * np.ones((6, 6), dtype=np.int64)
    table[0, 5] = 2  # not symmetric: rows are own scores
    r_text = '"",' + ",".join(f'"V{j + 1}"' for j in range(6)) + "\r\n"
    r_text += "".join(f'"{i + 1}",' + ",".join(map(str, row)) + "\r\n" for i, row in enumerate(table))
    (tmp_path / "r.csv").write_text(
        r_text, encoding="utf-8-sig"
    )  # R's write.csv(m, fileEncoding = "UTF-8-BOM")
    pandas_text = "," + ",".join(map(str, range(6))) + "\n"
    pandas_text += "".join(f"{i}," + ",".join(map(str, row)) + "\n" for i, row in enumerate(table))
    (tmp_path / "p.csv").write_text(pandas_text)  # pandas.DataFrame(m).to_csv()
    for name in ("r.csv", "p.csv"):
        got = pigtheory.io.read_policy(tmp_path / name)
        assert isinstance(got, pigtheory.ThresholdTable) and (got.table == table).all(), name
    # labels that are not a column sequence are data: 7 rows of 6 are no square table
    (tmp_path / "bad.csv").write_text(pandas_text.replace(",0,1,", ",0,7,", 1))
    with pytest.raises(ValueError, match="got 7 rows of 6 values"):
        pigtheory.io.read_policy(tmp_path / "bad.csv")
