"""The chunked level solve equals the in-memory solve; sweeps and solves killed midway resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from pigtheory import MixedPolicy, Rules, hold_at
from pigtheory.cli import main
from pigtheory.simultaneous import ChunkedSolution, chunked_best_response, reduced_best_response
from pigtheory.simultaneous.nplayer.level_store import LevelStore
from pigtheory.simultaneous.sweeps.resumable import hold_at_table

pytest.importorskip("distributed")
pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parents[2]


def _same(chunked: ChunkedSolution, opponents, rules: Rules) -> None:
    """Bit for bit the in-memory compiled solve; to rounding the numpy engine."""
    mem = reduced_best_response(opponents, rules=rules, engine="numba")
    red = chunked.reduced()
    assert np.array_equal(red.states, mem.states)
    assert np.array_equal(red.value, mem.value)
    assert np.array_equal(red.policy, mem.policy)
    ref = reduced_best_response(opponents, rules=rules, engine="numpy")
    assert np.abs(red.value - ref.value).max() < 1e-13
    assert chunked.value_start == mem.at(0, *[0] * (rules.players - 1))
    assert chunked.n_states == mem.n_states and chunked.iterations == mem.iterations


@pytest.mark.parametrize(("players", "goal", "n", "chunk"), [(3, 18, 5, 4), (4, 14, 4, 6)])
def test_chunked_equals_in_memory_on_a_local_cluster(client, tmp_path, players, goal, n, chunk):
    rules = Rules(goal=goal, players=players)
    opps = [hold_at(n)] * (players - 1)
    sol = chunked_best_response(opps, rules=rules, store=tmp_path, chunk=chunk, executor=client)
    _same(sol, opps, rules)
    store = LevelStore(tmp_path)
    chunks = [store.n_chunks(b) for b in store.sizes]
    assert sol.n_tasks == sum(chunks) and max(chunks) >= 2  # levels cut into several chunks
    assert sol.at(3, 7, 1, *[0] * (players - 3)) == sol.reduced().at(3, 1, 7, *[0] * (players - 3))
    assert not any((tmp_path / "partial").glob("*.npy"))  # A_t removed once read
    records = [json.loads(line) for line in (tmp_path / "tasks.jsonl").read_text().splitlines()]
    assert len(records) == sol.n_tasks and len({r["pid"] for r in records}) <= 2


def test_chunked_serial_and_pool_and_mixed_own_score_policy(tmp_path):
    rules = Rules(goal=12, players=3)
    mixed = MixedPolicy.of([(hold_at(3), 0.25), (hold_at(5), 0.75)], rules=rules)
    opps = [mixed, mixed]
    serial = chunked_best_response(opps, rules=rules, store=tmp_path / "a", chunk=9)
    _same(serial, opps, rules)
    with ProcessPoolExecutor(2) as pool:
        pooled = chunked_best_response(opps, rules=rules, store=tmp_path / "b", chunk=9, executor=pool)
    assert np.array_equal(pooled.reduced().value, serial.reduced().value)


def test_a_damaged_column_index_is_made_again_before_any_task_reads_it(tmp_path):
    rules = Rules(goal=12, players=3)
    opps = [hold_at(4)] * 2
    chunked_best_response(opps, rules=rules, store=tmp_path, chunk=9)
    store = LevelStore(tmp_path)
    path = tmp_path / "index" / "columns.npy"
    np.save(path, np.load(path)[::-1].copy())  # the same size and type, the columns reordered
    assert store.damaged_files() == ["index/columns"]
    for b in store.sizes:
        for c in range(store.n_chunks(b)):
            store.discard(b, c)
    again = chunked_best_response(opps, rules=rules, store=tmp_path, chunk=9)
    assert LevelStore(tmp_path).damaged_files() == []
    _same(again, opps, rules)


def test_chunked_input_errors(tmp_path):
    rules = Rules(goal=10, players=3)
    with pytest.raises(ValueError, match="same policy"):
        chunked_best_response([hold_at(3), hold_at(4)], rules=rules, store=tmp_path)
    reads_others = np.ones((10,) * 3, dtype=np.int64)
    reads_others[:, 5:, :] = 2  # holds later once the next player has 5
    with pytest.raises(ValueError, match="own score"):
        chunked_best_response([reads_others] * 2, rules=rules, store=tmp_path)
    with pytest.raises(ValueError, match="chunk"):
        chunked_best_response([hold_at(3)] * 2, rules=rules, store=tmp_path, chunk=0)
    chunked_best_response([hold_at(3)] * 2, rules=rules, store=tmp_path, chunk=5)
    with pytest.raises(ValueError, match="another solve"):
        chunked_best_response([hold_at(4)] * 2, rules=rules, store=tmp_path, chunk=5)


def _kill_when(proc: subprocess.Popen, ready, timeout: float = 60.0) -> None:
    """SIGKILL ``proc`` as soon as ``ready()`` (it must still be running then)."""
    t0 = time.monotonic()
    while not ready():
        assert proc.poll() is None, "finished before it could be killed: make the job larger"
        assert time.monotonic() - t0 < timeout
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def test_sweep_killed_midway_resumes_with_the_same_table(tmp_path):
    args = ["sweep", "--goals", "60:100:10", "--ns", "10:30", "--out", str(tmp_path)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "pigtheory.cli", *args], cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL
    )
    tasks = tmp_path / "tasks"
    _kill_when(proc, lambda: tasks.exists() and len(list(tasks.glob("[!.]*.json"))) >= 3)
    before = {f.name: f.stat().st_mtime_ns for f in tasks.glob("[!.]*.json")}  # not temporary files
    assert 3 <= len(before) < 5 * 21 and not (tmp_path / "table.npz").exists()
    assert main(args + ["--no-progress"]) == 0
    after = {f.name: f.stat().st_mtime_ns for f in tasks.glob("[!.]*.json")}
    assert len(after) == 5 * 21
    assert all(after[name] == t for name, t in before.items())  # finished tasks were not rerun
    table = hold_at_table(goals=range(60, 101, 10), ns=range(10, 31), out=tmp_path)
    fresh = hold_at_table(goals=range(60, 101, 10), ns=range(10, 31))
    assert np.array_equal(table.value, fresh.value) and np.array_equal(table.policy, fresh.policy)


_SOLVE = """
import sys
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import chunked_best_response
chunked_best_response([hold_at(6)] * 3, rules=Rules(goal=20, players=4), store=sys.argv[1], chunk=8)
"""


def test_chunked_solve_killed_midway_resumes_with_the_same_values(client, tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", _SOLVE, str(tmp_path)], cwd=ROOT, env=_env())
    seals = tmp_path / "done"  # a chunk is finished once sealed (its parts are written first)
    _kill_when(proc, lambda: seals.exists() and len(list(seals.glob("[!.]*.json"))) >= 40)
    finished = {f.name: f.stat().st_mtime_ns for f in seals.glob("[!.]*.json")}
    rules = Rules(goal=20, players=4)
    sol = chunked_best_response([hold_at(6)] * 3, rules=rules, store=tmp_path, chunk=8, executor=client)
    assert len(finished) < sol.n_tasks
    assert all((seals / name).stat().st_mtime_ns == t for name, t in finished.items())  # not solved again
    _same(sol, [hold_at(6)] * 3, rules)
