"""Sweeps on executors: in this process, a process pool and a Dask LocalCluster give the same
bits (pigtheory.parallel, hold_at_sweep, the grid, best_responses, the sweep table)."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from pathlib import Path

import numpy as np
import pytest

import pigtheory
from pigtheory import Rules, hold_at
from pigtheory.parallel import TaskQueue, executor_kind, run_tasks
from pigtheory.simultaneous import best_response, best_responses, hold_at_sweep
from pigtheory.simultaneous.sweeps.grid import hold_at_grid
from pigtheory.simultaneous.sweeps.resumable import hold_at_table, sweep_tasks
from pigtheory.simultaneous.sweeps.sweep import start_value

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]


def _where_pigtheory() -> str:
    return pigtheory.__file__


def test_dask_workers_import_this_checkout(client):
    files = client.run(_where_pigtheory)
    assert len(files) == 2
    assert all(Path(f).resolve().is_relative_to(ROOT) for f in files.values())


def test_executor_kinds(client, pool):
    assert executor_kind(None) == "serial"
    assert executor_kind(pool) == "futures"
    assert executor_kind(client) == "dask"
    with pytest.raises(ValueError, match="executor"):
        executor_kind(4)
    with pytest.raises(ValueError, match="executor"):
        hold_at_sweep([3], rules=Rules(goal=10), executor="dask")


def test_results_come_back_in_task_order_whatever_finishes_first(client, pool):
    # the first tasks are the slowest, so they finish last on a pool
    tasks = [partial(start_value, (n,), rules=Rules(goal=g)) for g, n in ((60, 20), (40, 10), (10, 3))]
    want = [start_value(t.args[0], **t.keywords) for t in tasks]
    for executor in (None, pool, client):
        assert run_tasks(tasks, executor=executor) == want


def test_task_errors_reach_the_caller(client, pool):
    tasks = [partial(int, "12"), partial(int, "twelve")]
    for executor in (None, pool, client):
        with pytest.raises(ValueError, match="twelve"):
            run_tasks(tasks, executor=executor)


def test_queue_bookkeeping():
    with TaskQueue() as queue:
        with pytest.raises(IndexError):
            queue.next_done()
        with pytest.raises(ValueError, match="callable"):
            queue.submit(3)
        queue.submit(partial(abs, -1), tag="x")
        assert len(queue) == 1
    assert len(queue) == 0  # cancelled on exit


def test_hold_at_sweep_same_bits_on_every_executor(client, pool):
    rules = Rules(goal=40)
    serial = hold_at_sweep(range(5, 16), rules=rules)
    for executor in (pool, client, ThreadPoolExecutor(2)):
        other = hold_at_sweep(range(5, 16), rules=rules, executor=executor)
        assert np.array_equal(other.value, serial.value)
        assert other.best_n == serial.best_n and other.local_minima == serial.local_minima
    assert serial.at(9) == best_response(hold_at(9), rules=rules).value[0, 0]


def test_grid_same_bits_on_every_executor(client):
    rules = Rules(goal=18, players=3)
    serial = hold_at_grid([3, 5, 8], rules=rules)
    on_dask = hold_at_grid([3, 5, 8], rules=rules, executor=client)
    assert np.array_equal(on_dask.value, serial.value) and np.array_equal(on_dask.policy, serial.policy)
    old = hold_at_grid([3, 5, 8], rules=rules, workers=2)  # the older form of a process pool
    assert np.array_equal(old.value, serial.value)
    assert np.array_equal(serial.value, serial.value.T)
    full = best_response([hold_at(3), hold_at(8)], rules=rules)
    assert serial.value[0, 2] == pytest.approx(full.value[0, 0, 0], abs=1e-14)
    with pytest.raises(ValueError, match="not both"):
        hold_at_grid([3], rules=rules, workers=2, executor=client)


def test_best_responses_over_goals_and_opponents(client, pool):
    goals = [Rules(goal=g) for g in (15, 25, 35)]
    serial = best_responses([hold_at(6)] * 3, rules=goals)
    for executor in (pool, client):
        other = best_responses([hold_at(6)] * 3, rules=goals, executor=executor)
        for a, b in zip(serial, other, strict=True):
            assert np.array_equal(a.value, b.value) and np.array_equal(a.policy, b.policy)
    alone = best_response(hold_at(6), rules=goals[1])
    assert np.array_equal(serial[1].value, alone.value)
    three = Rules(goal=12, players=3)
    pair = best_responses([[hold_at(3), hold_at(5)], [hold_at(4), hold_at(4)]], rules=three, executor=client)
    assert np.array_equal(pair[0].value, best_response([hold_at(3), hold_at(5)], rules=three).value)
    with pytest.raises(ValueError, match="one per entry"):
        best_responses([hold_at(6)] * 2, rules=goals)
    with pytest.raises(ValueError, match="opponents"):
        best_responses([[hold_at(6)] * 2], rules=Rules(goal=10))  # two opponents, two players


def test_sweep_table_same_bits_and_matches_the_solvers(client, pool, tmp_path):
    params = {"goals": [20, 30], "ns": [4, 7], "players": [2, 3], "die_faces": [6, 4]}
    serial = hold_at_table(**params)
    assert serial.value.size == len(sweep_tasks(**params)) == 2 * 2 * (2 + 3)
    for executor in (pool, client):
        other = hold_at_table(**params, executor=executor, out=tmp_path / executor_kind(executor))
        assert np.array_equal(other.value, serial.value) and np.array_equal(other.policy, serial.policy)
    r = serial.row(goal=30, thresholds=(7, 4), die_faces=4)
    v, k = start_value((4, 7), rules=Rules(goal=30, players=3, die_faces=4))
    assert (serial.value[r], serial.policy[r]) == (v, k)
    loaded = pigtheory.load(tmp_path / "dask" / "table.npz")
    assert np.array_equal(loaded.value, serial.value)
    assert (tmp_path / "dask" / "table.csv").read_text().count("\n") == serial.value.size + 1


def test_sweep_folder_of_another_sweep_is_refused(tmp_path):
    hold_at_table(goals=[10], ns=[3], out=tmp_path)
    with pytest.raises(ValueError, match="another sweep"):
        hold_at_table(goals=[10], ns=[4], out=tmp_path)
    with pytest.raises(ValueError, match="ns"):
        hold_at_table(goals=[10], ns=[0])


def test_claims_two_dice_tasks_same_on_a_pool(monkeypatch, tmp_path):
    """make claims' two-dice solves (Table A1) and comparisons (Table A2) on a process pool."""
    from analyses.z22 import _common

    monkeypatch.setenv("PIGTHEORY_CACHE_DIR", str(tmp_path))  # before the pool forks
    serial = _common.first_player_wins([12, 10], tol=1e-10)
    rows = _common.optimal_vs_hold_at(Rules(goal=15, dice=2))
    monkeypatch.setenv("PIGTHEORY_NO_CACHE", "1")
    with ProcessPoolExecutor(2) as pool:
        assert _common.first_player_wins([10, 12], tol=1e-10, executor=pool) == serial
        assert np.array_equal(_common.optimal_vs_hold_at(Rules(goal=15, dice=2), executor=pool), rows)
    assert rows.shape == (len(_common.NS), 4) and np.all((rows[:, 1:] > 0) & (rows[:, 1:] < 1))


def test_sweep_command_on_a_local_cluster(tmp_path, capsys):
    from pigtheory.cli import main

    args = ["sweep", "--goals", "12:16:4", "--ns", "3:4", "--players", "3", "--out", str(tmp_path)]
    assert main(args + ["--workers", "2", "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["goal", "players", "faces"] and len(lines) == 1 + 6 + 1
    table = pigtheory.load(tmp_path / "table.npz")
    assert table.goal.tolist() == [12, 12, 12, 16, 16, 16]
    v, k = start_value((3, 4), rules=Rules(goal=16, players=3))
    assert (table.value[4], table.policy[4]) == (v, k)
    assert f"{v:12.10f}" in lines[5]
    assert main(["sweep", "--ns", "3:x"]) == 2  # a usage error: exit status 2, one line
