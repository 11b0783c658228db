"""Resumable independent tasks: one sealed record per finished task, an index, resume.

A sweep of many small solves (one per parameter point) needs none of the chunk store's
arrays: each task's result is a few numbers. :func:`run_tasks_resumably` runs such tasks on
any executor and, with a ``folder``, writes each result as it comes back, so that a stopped
run (a killed job, a lost cluster) resumes where it stopped when called again on the same
folder.

Files (``folder``)
------------------
``index.json``
    The run's format name and every task (its id and parameters), written first.
``tasks/<id>.json``
    One per finished task: the task's parameters and its result fields.

Both are sealed records (:mod:`pigtheory.runtime.records`: JSON with a SHA-256 of their
fields), written atomically. A resumed run reuses a task file only if its checksum holds and
the caller's ``check`` accepts it (its task's parameters, results in range); anything else is
reported (a warning) and the task run again, never returned as a result. A damaged index is
written again (the task files are checked against their own tasks, so finished work is kept);
an index of another run is refused. A full disk raises :class:`~pigtheory.runtime.StoreFull`,
one line naming the folder; the task files written before stay and a later call resumes from
them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from ..parallel import TaskQueue, check_executor
from ..progress import progress_bar
from ..validation import check_optional_path, check_progress
from .records import DamagedRecord, read_record, write_record
from .store import disk_full

__all__ = ["run_tasks_resumably"]

Task = dict[str, Any]


def _call(solve: Callable[[Task], Task], task: Task) -> Task:
    return solve(task)


def run_tasks_resumably(
    tasks: list[Task],
    solve: Callable[[Task], Task],
    *,
    folder: str | Path | None = None,
    kind: str,
    check: Callable[[Task, Task], Task] | None = None,
    executor: Any = None,
    progress: bool | None = None,
    label: str = "tasks",
    param: str = "folder",
) -> dict[str, Task]:
    """Run every task not finished in ``folder``; the results by task id.

    Parameters
    ----------
    tasks : list of dict
        JSON objects, each with a unique string ``"id"`` (a file name: no ``/``).
    solve : callable
        ``solve(task)`` returns the task's record (a JSON object, finite numbers only);
        picklable for a process pool or Dask.
    folder : path-like, optional
        Where the index and one record per finished task go (module docstring); without it
        nothing is written and every task runs.
    kind : str
        The run's format name, kept in the index: a folder of another kind or other tasks is
        refused.
    check : callable, optional
        ``check(record, task)`` returns the record of a finished task read back from
        ``folder``, or raises ``ValueError`` saying why it cannot be reused (it is then run
        again). Default: reuse any record whose checksum holds.
    executor : None, concurrent.futures.Executor or dask.distributed.Client
        Where the tasks run (:mod:`pigtheory.parallel`).
    progress : bool, optional
        A bar on stderr (default: when stderr is a terminal).
    label : str
        Names the run in warnings, errors and the bar.
    param : str
        The caller's name for ``folder``, in the error that refuses another run's folder.

    Returns
    -------
    dict
        ``{task id: record}`` for every task.

    Raises
    ------
    ValueError
        Tasks without unique string ids, or ``folder`` holding another run (before any task).
    pigtheory.runtime.StoreFull
        The disk of ``folder`` filled up (the records written before are kept).
    """
    if not isinstance(tasks, list) or not all(isinstance(t, dict) for t in tasks):
        raise ValueError("tasks must be a list of dicts")
    ids = [t.get("id") for t in tasks]
    if not all(isinstance(i, str) and i and "/" not in i for i in ids) or len(set(ids)) != len(ids):
        raise ValueError("tasks: every task needs a unique string 'id' without '/'")
    for name, fn in (("solve", solve), ("check", check if check is not None else solve)):
        if not callable(fn):
            raise ValueError(f"{name} must be callable, got {type(fn).__name__}")
    for name, text in (("kind", kind), ("label", label), ("param", param)):
        if not isinstance(text, str) or not text:
            raise ValueError(f"{name} must be a non-empty string, got {text!r:.40}")
    check_executor(executor)
    check_progress(progress)
    where = check_optional_path("folder", folder)
    done: dict[str, Task] = {}
    if where is not None:
        done = _open(where, tasks, kind, check, label, param)
    todo = [t for t in tasks if t["id"] not in done]
    with TaskQueue(executor) as queue, progress_bar(len(tasks), label, progress) as bar:
        bar.update(len(tasks) - len(todo))
        for task in todo:
            queue.submit(partial(_call, solve, task), tag=task["id"])
        while len(queue):
            tid, record = queue.next_done()
            done[str(tid)] = record
            if where is not None:
                _write(where / "tasks" / f"{tid}.json", record, where)
            bar.update(1)
    return done


def _write(path: Path, record: Task, folder: Path) -> None:
    with disk_full(folder):
        write_record(path, record)


def _open(
    folder: Path,
    tasks: list[Task],
    kind: str,
    check: Callable[[Task, Task], Task] | None,
    label: str,
    param: str,
) -> dict[str, Task]:
    """Write the index of a new run, or check an old one's and read its finished tasks."""
    index: dict[str, Any] = {"format": kind, "tasks": tasks}
    path = folder / "index.json"
    if path.exists():
        try:
            old = read_record(path)
        except DamagedRecord as exc:
            warnings.warn(f"{label}: {exc}; writing it again (finished tasks are kept)", stacklevel=4)
            _write(path, index, folder)
        else:
            if old != index:
                raise ValueError(f"{param}: {folder} holds another {label}; use an empty folder")
    else:
        _write(path, index, folder)
    wanted = {t["id"]: t for t in tasks}
    done = {}
    for file in (folder / "tasks").glob("[!.]*.json"):  # not the temporary files of a killed run
        task = wanted.get(file.stem)
        if task is None:
            continue
        try:
            record = read_record(file)
            done[file.stem] = check(record, task) if check is not None else record
        except ValueError as exc:
            warnings.warn(f"{label}: {exc}; running the task again", stacklevel=4)
    return done
