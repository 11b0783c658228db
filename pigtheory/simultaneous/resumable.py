"""Resumable sweeps of best responses as independent tasks: one result file per task, an index.

A researcher's sweep is a product of parameters: every goal, every number of players, every
die, every choice of "hold at n" opponents. Each point is one exact best response, solved as a
task (:func:`~pigtheory.simultaneous.sweep.start_value`: its value and threshold at the start,
every score 0) wherever ``executor=`` says (:mod:`pigtheory.parallel`). With ``out=`` each
finished task is written at once to its own file, so a sweep that is stopped (a killed job, a
lost cluster) resumes where it stopped when run again with the same ``out``.

Shapes
------
:class:`SweepTable` has one row per task: ``goal[r]``, ``players[r]``, ``die_faces[r]``,
``thresholds[r, :players[r] - 1]`` (the opponents' n in ascending order; 0 pads the unused
columns), ``value[r]`` and ``policy[r]`` (the best response's threshold at the start).

Files (``out``)
---------------
``index.json``
    The sweep's parameters and every task's id, written first.
``tasks/<id>.json``
    One per finished task: its parameters and its two numbers (written atomically).
``table.npz`` and ``table.csv``
    The whole table, once every task is done (:meth:`~pigtheory.results.Saveable.save`, and for spreadsheets).

Notes
-----
In simultaneous play the start (every score 0) is the same state whatever the seats, so the
value there depends only on the multiset of the opponents' thresholds: with p players the
sweep solves every multiset of ``p - 1`` thresholds from ``ns`` (for three players, the pairs
``n1 <= n2`` of Fig. 6). The numbers are the same, bit for bit, whatever runs the tasks and
however often the sweep was resumed.

Examples
--------
>>> from pigtheory.simultaneous import hold_at_sweep, hold_at_table
>>> table = hold_at_table(goals=[20, 30], ns=[4, 6])
>>> sweep = hold_at_sweep([4, 6], rules=Rules(goal=30))
>>> table.value.size, bool(table.value[table.row(goal=30, thresholds=(6,))] == sweep.value(6))
(4, True)
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import numpy as np

from ..io import atomic_write
from ..parallel import TaskQueue, check_executor
from ..progress import progress_bar
from ..results import Result
from ..rules import Rules
from ..validation import check_int, check_progress
from .sweep import start_value

__all__ = ["SweepTable", "hold_at_table", "sweep_tasks"]

FORMAT = "pigtheory-sweep"


@dataclass(frozen=True, eq=False)
class SweepTable(Result):
    """Best-response values at the start against "hold at n" opponents, one row per task
    (see the module docstring for the shapes).

    Attributes
    ----------
    goal : numpy.ndarray of int, shape ``(R,)``
        The goal of row r.
    players : numpy.ndarray of int, shape ``(R,)``
    die_faces : numpy.ndarray of int, shape ``(R,)``
    thresholds : numpy.ndarray of int, shape ``(R, P - 1)``
        The opponents' n, ascending, in ``thresholds[r, :players[r] - 1]`` (0 pads the rest;
        P the most players of the sweep).
    value : numpy.ndarray, shape ``(R,)``
        The best response's win probability at the start, every score 0 (for two players:
        the curve of Zhu, Ma, Chen & Liu 2023, Fig. 2 / Table S1; three: Fig. 6 / Table S4).
    policy : numpy.ndarray of int, shape ``(R,)``
        Its threshold there.
    method : str
    """

    goal: np.ndarray
    players: np.ndarray
    die_faces: np.ndarray
    thresholds: np.ndarray
    value: np.ndarray
    policy: np.ndarray
    method: str

    def row(self, *, goal: int, thresholds: tuple[int, ...], die_faces: int = 6) -> int:
        """Row of a task (thresholds in any order); ``ValueError`` if the sweep has none.

        Parameters
        ----------
        goal : int
        thresholds : tuple of int
            The opponents' n, one per opponent.
        die_faces : int

        Returns
        -------
        int
            The row r of every array.
        """
        ns = sorted(int(n) for n in thresholds)
        padded = ns + [0] * (self.thresholds.shape[1] - len(ns))
        hits = np.flatnonzero(
            (self.goal == goal)
            & (self.players == len(ns) + 1)
            & (self.die_faces == die_faces)
            & np.all(self.thresholds == padded, axis=1)
        )
        if hits.size == 0:
            raise ValueError(f"no task with goal={goal}, thresholds={tuple(ns)}, die_faces={die_faces}")
        return int(hits[0])


def sweep_tasks(
    goals: Iterable[int], ns: Iterable[int], players: Iterable[int] = (2,), die_faces: Iterable[int] = (6,)
) -> list[dict[str, Any]]:
    """The tasks of a sweep, in a fixed order, each ``{"id", "goal", "players", "die_faces",
    "thresholds"}``; thresholds outside ``1..goal`` are left out of that goal's tasks."""
    goals = sorted({check_int("goals", g, low=1) for g in goals})
    ns = sorted({check_int("ns", n, low=1) for n in ns})
    players = sorted({check_int("players", p, low=2) for p in players})
    die_faces = sorted({check_int("die_faces", f, low=2) for f in die_faces})
    if not (goals and ns and players and die_faces):
        raise ValueError("goals, ns, players and die_faces must each hold at least one value")
    tasks = []
    for f in die_faces:
        for p in players:
            for g in goals:
                for combo in combinations_with_replacement([n for n in ns if n <= g], p - 1):
                    tid = f"g{g}-p{p}-f{f}-n{'-'.join(map(str, combo))}"
                    tasks.append({"id": tid, "goal": g, "players": p, "die_faces": f, "thresholds": combo})
    if not tasks:
        raise ValueError("ns: no threshold is <= any goal")
    return tasks


def _solve(task: dict[str, Any]) -> dict[str, Any]:
    rules = Rules(goal=task["goal"], players=task["players"], die_faces=task["die_faces"])
    value, k = start_value(task["thresholds"], rules=rules)
    return {**task, "thresholds": list(task["thresholds"]), "value": value, "policy": k}


def hold_at_table(
    *,
    goals: Iterable[int],
    ns: Iterable[int],
    players: Iterable[int] = (2,),
    die_faces: Iterable[int] = (6,),
    out: str | os.PathLike | None = None,
    executor: Any = None,
    progress: bool | None = None,
) -> SweepTable:
    """Best response to every choice of "hold at n" opponents, for every goal, number of
    players and die: its value and threshold at the start.

    Parameters
    ----------
    goals, ns, players, die_faces : iterables of int
        The sweep is their product (module Notes): goals >= 1, thresholds ``ns`` >= 1 (those
        above a goal are skipped there), players >= 2, faces >= 2 (face 1 busts).
    out : path-like, optional
        Folder for one file per task, the index and the table (module docstring). A folder
        that holds part of the same sweep is resumed: its finished tasks are not run again.
    executor : None, concurrent.futures.Executor or dask.distributed.Client
        Where the tasks run (:mod:`pigtheory.parallel`); default: one after another, here.
    progress : bool, optional
        A bar on stderr, advanced as each task finishes (default: when stderr is a terminal).

    Returns
    -------
    SweepTable
        One row per task (:func:`sweep_tasks`' order): arrays of shape ``(R,)``, and
        ``thresholds`` ``(R, max(players) - 1)``.

    Raises
    ------
    ValueError
        A parameter out of range, or ``out`` holding another sweep.
    """
    tasks = sweep_tasks(goals, ns, players, die_faces)
    check_executor(executor)
    check_progress(progress)
    folder = Path(out) if out is not None else None
    done: dict[str, dict[str, Any]] = {}
    if folder is not None:
        done = _open(folder, tasks)
    todo = [t for t in tasks if t["id"] not in done]
    with TaskQueue(executor) as queue, progress_bar(len(tasks), "sweep", progress) as bar:
        bar.update(len(tasks) - len(todo))
        for task in todo:
            queue.submit(partial(_solve, task), tag=task["id"])
        while len(queue):
            tid, row = queue.next_done()
            done[str(tid)] = row
            if folder is not None:
                _write_json(folder / "tasks" / f"{tid}.json", row)
            bar.update(1)
    table = _table([done[t["id"]] for t in tasks])
    if folder is not None:
        table.save(folder / "table.npz")
        atomic_write(folder / "table.csv", lambda tmp: _write_csv(tmp, table))
    return table


def _write_json(path: Path, obj: Any) -> None:
    def write(tmp: str) -> None:
        Path(tmp).write_text(json.dumps(obj, indent=1) + "\n")

    atomic_write(path, write)


def _open(folder: Path, tasks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Write the index of a new sweep, or check an old one's and read its finished tasks."""
    index: dict[str, Any] = {
        "format": FORMAT,
        "tasks": [{**t, "thresholds": list(t["thresholds"])} for t in tasks],
    }
    path = folder / "index.json"
    if path.exists():
        try:
            old = json.loads(path.read_text())
        except ValueError:
            old = None
        if old != index:
            raise ValueError(f"out: {folder} holds another sweep; use an empty folder")
    else:
        _write_json(path, index)
    wanted = {t["id"]: t for t in index["tasks"]}
    done = {}
    for file in (folder / "tasks").glob("[!.]*.json"):  # not the temporary files of a killed run
        try:
            row = json.loads(file.read_text())
        except ValueError:
            continue  # unreadable: run the task again
        task = wanted.get(file.stem)
        if task is not None and all(row.get(k) == v for k, v in task.items()):
            done[file.stem] = row
    return done


def _table(rows: list[dict[str, Any]]) -> SweepTable:
    width = max(r["players"] for r in rows) - 1
    th = np.zeros((len(rows), width), dtype=np.int64)
    for i, r in enumerate(rows):
        th[i, : len(r["thresholds"])] = r["thresholds"]
    return SweepTable(
        goal=np.array([r["goal"] for r in rows], dtype=np.int64),
        players=np.array([r["players"] for r in rows], dtype=np.int64),
        die_faces=np.array([r["die_faces"] for r in rows], dtype=np.int64),
        thresholds=th,
        value=np.array([r["value"] for r in rows], dtype=np.float64),
        policy=np.array([r["policy"] for r in rows], dtype=np.int64),
        method="exact",
    )


def _write_csv(path: str, table: SweepTable) -> None:
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["goal", "players", "die_faces", "thresholds", "value", "policy"])
        for r in range(table.value.size):
            ns = table.thresholds[r, : table.players[r] - 1]
            out.writerow(
                [
                    table.goal[r],
                    table.players[r],
                    table.die_faces[r],
                    " ".join(map(str, ns)),
                    repr(float(table.value[r])),
                    table.policy[r],
                ]
            )
