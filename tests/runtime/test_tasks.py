"""Resumable independent tasks (:func:`pigtheory.runtime.run_tasks_resumably`) on a toy sweep.

The toy: task i asks for ``i ** 2 + 1 / (i + 1)``; every path (serial, threads, Dask, resumed,
after damage) must return exactly those numbers, and a resumed run must solve only the tasks
whose records are missing or cannot be trusted.
"""

from __future__ import annotations

import errno
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest

from pigtheory.runtime import StoreFull, run_tasks_resumably

TASKS = [{"id": f"t{i}", "i": i} for i in range(7)]
KIND = "toy-sweep"


def _solve(task):
    return {**task, "value": task["i"] ** 2 + 1 / (task["i"] + 1)}


def _check(record, task):
    if record.get("i") != task["i"] or not isinstance(record.get("value"), float):
        raise ValueError(f"task {task['id']}: not its record")
    return record


def _run(folder=None, executor=None, calls=None, **kw):
    def solve(task):
        if calls is not None:
            calls.append(task["id"])
        return _solve(task)

    return run_tasks_resumably(
        TASKS, solve if executor is None else _solve, folder=folder, kind=KIND, check=_check,
        executor=executor, progress=False, **kw,
    )  # fmt: skip


def _expected():
    return {t["id"]: _solve(t) for t in TASKS}


def test_every_executor_gives_the_same_records(tmp_path, client):
    assert _run() == _expected()
    with ThreadPoolExecutor(2) as pool:
        assert _run(tmp_path / "threads", pool) == _expected()
    assert _run(tmp_path / "dask", client) == _expected()


def test_a_resumed_run_solves_only_the_missing_tasks(tmp_path):
    calls: list[str] = []
    _run(tmp_path, calls=calls)
    assert sorted(calls) == sorted(t["id"] for t in TASKS)
    for tid in ("t2", "t5"):
        (tmp_path / "tasks" / f"{tid}.json").unlink()
    calls.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a clean resume says nothing
        assert _run(tmp_path, calls=calls) == _expected()
    assert sorted(calls) == ["t2", "t5"]


def test_damaged_or_rejected_records_are_solved_again_never_returned(tmp_path):
    _run(tmp_path)
    path = tmp_path / "tasks" / "t3.json"
    path.write_text(path.read_text().replace('"i": 3', '"i": 4'))  # edited: the checksum fails
    calls: list[str] = []
    with pytest.warns(UserWarning, match="t3.json.*checksum.*running the task again"):
        assert _run(tmp_path, calls=calls) == _expected()
    assert calls == ["t3"]

    def strict(record, task):
        if task["id"] == "t1":
            raise ValueError("task t1: value out of range")
        return record

    calls.clear()
    with pytest.warns(UserWarning, match="t1: value out of range"):
        run_tasks_resumably(
            TASKS, lambda t: calls.append(t["id"]) or _solve(t), folder=tmp_path, kind=KIND, check=strict
        )
    assert calls == ["t1"]


def test_a_damaged_index_is_rewritten_and_the_finished_tasks_kept(tmp_path):
    _run(tmp_path)
    (tmp_path / "index.json").write_text("{not json")
    calls: list[str] = []
    with pytest.warns(UserWarning, match="writing it again"):
        assert _run(tmp_path, calls=calls) == _expected()
    assert calls == []


def test_a_folder_of_another_run_is_refused_naming_the_parameter(tmp_path):
    _run(tmp_path)
    with pytest.raises(ValueError, match=r"^out: .* holds another sweep"):
        run_tasks_resumably(TASKS[:3], _solve, folder=tmp_path, kind=KIND, label="sweep", param="out")
    with pytest.raises(ValueError, match="another"):
        run_tasks_resumably(TASKS, _solve, folder=tmp_path, kind="other-kind")


def test_a_full_disk_stops_in_one_line_and_keeps_the_records_written(tmp_path, monkeypatch):
    import pigtheory.runtime.records as records

    real, count = records.atomic_write, {"n": 0}

    def filling(path, write, **kw):
        count["n"] += 1
        if count["n"] > 4:  # the index and three tasks
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, write, **kw)

    monkeypatch.setattr(records, "atomic_write", filling)
    with pytest.raises(StoreFull) as info:
        _run(tmp_path)
    message = str(info.value)
    assert "\n" not in message and str(tmp_path) in message and "full" in message
    kept = sorted(p.stem for p in (tmp_path / "tasks").glob("*.json"))
    assert len(kept) == 3
    monkeypatch.setattr(records, "atomic_write", real)
    calls: list[str] = []
    assert _run(tmp_path, calls=calls) == _expected()
    assert sorted(calls) == sorted(set(_expected()) - set(kept))


def test_bad_arguments_are_refused_before_any_task(tmp_path):
    with pytest.raises(ValueError, match="unique string 'id'"):
        run_tasks_resumably([{"id": "a"}, {"id": "a"}], _solve, kind=KIND)
    with pytest.raises(ValueError, match="unique string 'id'"):
        run_tasks_resumably([{"id": "../x"}], _solve, kind=KIND)
    with pytest.raises(ValueError, match="solve must be callable"):
        run_tasks_resumably(TASKS, None, kind=KIND)
    with pytest.raises(ValueError, match="executor"):
        run_tasks_resumably(TASKS, _solve, kind=KIND, executor="twelve")
    assert not any(tmp_path.iterdir())
