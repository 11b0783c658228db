"""Resumable sweeps of best responses as independent tasks: one result file per task, an index.

A researcher's sweep is a product of parameters: every goal, every number of players, every
die, every choice of "hold at n" opponents. Each point is one exact best response, solved as a
task (:func:`~pigtheory.simultaneous.sweeps.sweep.start_value`: its value and threshold at the start,
every score 0) wherever ``executor=`` says (:mod:`pigtheory.parallel`). With ``out=`` each
finished task is written at once to its own file, so a sweep that is stopped (a killed job, a
lost cluster) resumes where it stopped when run again with the same ``out``.

Shapes
------
:func:`hold_at_table` returns a :class:`~pigtheory.simultaneous.sweeps.sweep.HoldAtTable` with one
row per task: ``goal[r]``, ``players[r]``, ``die_faces[r]``, ``thresholds[r, :players[r] - 1]``
(the opponents' n in ascending order; 0 pads the unused columns), ``value[r]`` and
``policy[r]`` (the best response's threshold at the start); ``rules`` is the first row's
(``rules_at(r)`` any row's).

Files (``out``)
---------------
``index.json``
    The sweep's parameters and every task's id, written first.
``tasks/<id>.json``
    One per finished task: its parameters and its two numbers (written atomically).
``table.npz`` and ``table.csv``
    The whole table, once every task is done (:meth:`~pigtheory.results.Saveable.save`, and for spreadsheets).

The runtime runs the tasks and keeps the files (:func:`pigtheory.runtime.run_tasks_resumably`);
the index and the task files are sealed records (:mod:`pigtheory.runtime.records`: JSON with a
SHA-256 of their fields). A resumed sweep reuses a task file only if its checksum holds and
its fields are its task's parameters, a win probability and a threshold; anything else is
reported (a warning) and solved again, never reported as a result.

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
>>> table.value.size, bool(table.value[table.row(goal=30, thresholds=(6,))] == sweep.at(6))
(4, True)
"""

from __future__ import annotations

import csv
import os
from bisect import bisect_right
from collections.abc import Iterable
from itertools import combinations_with_replacement, islice
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from ...guard import check_memory, reduced_estimate
from ...io import atomic_write
from ...io.atomic import check_writable
from ...parallel import check_executor
from ...rules import Rules
from ...runtime import run_tasks_resumably
from ...validation import check_int, check_optional_path, check_progress
from .sweep import HoldAtTable, start_value

__all__ = ["hold_at_table", "sweep_tasks"]


FORMAT = "pigtheory-sweep"


MAX_TASKS = 1_000_000
"""Most tasks one sweep may have (each writes a file with ``out=``)."""


def _bounded(name: str, values: Iterable[int]) -> list[Any]:
    """The values of one dimension, at most :data:`MAX_TASKS` of them (checked before a huge
    range is read, so that ``range(1, 10**9)`` is refused at once)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ValueError(f"{name} must be an iterable of integers, got {values!r:.80}")
    out = list(islice(values, MAX_TASKS + 1))
    if len(out) > MAX_TASKS:
        raise ValueError(f"{name}: more than {MAX_TASKS:,} values; sweep fewer")
    return out


def _task_count(goals: list[int], ns: list[int], players: list[int]) -> int:
    """Tasks per die: the multisets of ``players - 1`` thresholds ``<= goal``, summed over goals
    and players, counted only up to just past :data:`MAX_TASKS` (sorted lists; each step adds at
    least one task, so a million goals by a million thresholds is refused at once, not after
    10**12 comparisons)."""
    count = 0
    live = [g for g in goals if g >= ns[0]]  # a goal below every threshold has no task
    for p in players:
        for g in live:
            m = bisect_right(ns, g)  # thresholds <= g, at least one
            k = min(p - 1, m - 1)
            count += comb(m + p - 2, k) if k < 20 else MAX_TASKS + 1  # C(n, >= 20) > 10**6 here
            if count > MAX_TASKS:
                return count
    return count


def sweep_tasks(
    goals: Iterable[int], ns: Iterable[int], players: Iterable[int] = (2,), die_faces: Iterable[int] = (6,)
) -> list[dict[str, Any]]:
    """The tasks of a sweep, in a fixed order, each ``{"id", "goal", "players", "die_faces",
    "thresholds"}``; thresholds outside ``1..goal`` are left out of that goal's tasks."""
    goals = sorted({check_int("goals", g, low=1) for g in _bounded("goals", goals)})
    ns = sorted({check_int("ns", n, low=1) for n in _bounded("ns", ns)})
    players = sorted({check_int("players", p, low=2) for p in _bounded("players", players)})
    die_faces = sorted({check_int("die_faces", f, low=2) for f in _bounded("die_faces", die_faces)})
    if not (goals and ns and players and die_faces):
        raise ValueError("goals, ns, players and die_faces must each hold at least one value")
    count = _task_count(goals, ns, players) * len(die_faces)
    if count > MAX_TASKS:
        raise ValueError(f"the sweep has more than {MAX_TASKS:,} tasks; sweep fewer values")
    if count == 0:
        raise ValueError("ns: no threshold is <= any goal")
    tasks = []
    for f in die_faces:
        for p in players:
            for g in goals:
                for combo in combinations_with_replacement([n for n in ns if n <= g], p - 1):
                    tid = f"g{g}-p{p}-f{f}-n{'-'.join(map(str, combo))}"
                    tasks.append({"id": tid, "goal": g, "players": p, "die_faces": f, "thresholds": combo})
    return tasks


def _solve(task: dict[str, Any]) -> dict[str, Any]:
    rules = Rules(goal=task["goal"], players=task["players"], die_faces=task["die_faces"])
    value, k = start_value(tuple(task["thresholds"]), rules=rules)
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
) -> HoldAtTable:
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
    HoldAtTable
        One row per task (:func:`sweep_tasks`' order): arrays of shape ``(R,)``, and
        ``thresholds`` ``(R, max(players) - 1)``.

    Raises
    ------
    ValueError
        A parameter out of range, or ``out`` holding another sweep.
    """
    out_path = check_optional_path("out", out)
    if out_path is not None:
        check_writable(Path(out_path) / "index.json", "out")  # a file, a link to nowhere: now, not later
    tasks = sweep_tasks(goals, ns, players, die_faces)
    largest = max(tasks, key=lambda t: (t["goal"] + 1) ** t["players"] * t["die_faces"])
    rules = Rules(goal=largest["goal"], players=largest["players"], die_faces=largest["die_faces"])
    check_memory(reduced_estimate(rules, symmetric=True), None)  # the largest task, before any
    check_executor(executor)
    check_progress(progress)
    rows = run_tasks_resumably(
        [{**t, "thresholds": list(t["thresholds"])} for t in tasks],
        _solve,
        folder=out_path,
        kind=FORMAT,
        check=_checked_row,
        executor=executor,
        progress=progress,
        label="sweep",
        param="out",
    )
    table = _table([rows[t["id"]] for t in tasks])
    if out_path is not None:
        folder = Path(out_path)
        table.save(folder / "table.npz")
        atomic_write(folder / "table.csv", lambda tmp: _write_csv(tmp, table))
    return table


def _checked_row(row: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
    """A finished task's file, checked as strictly as a policy file: its task's parameters, a
    win probability in [0, 1] and a threshold in ``1..goal``."""
    for key, want in task.items():
        if row.get(key) != want:
            raise ValueError(f"task {task['id']}: field {key} is {row.get(key)!r}, expected {want!r}")
    value, k = row.get("value"), row.get("policy")
    if not isinstance(value, float) or not 0.0 <= value <= 1.0:
        raise ValueError(f"task {task['id']}: value {value!r} is not a win probability")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= task["goal"]:
        raise ValueError(f"task {task['id']}: policy {k!r} is not a threshold in 1..{task['goal']}")
    return row


def _table(rows: list[dict[str, Any]]) -> HoldAtTable:
    width = max(r["players"] for r in rows) - 1
    th = np.zeros((len(rows), width), dtype=np.int64)
    for i, r in enumerate(rows):
        th[i, : len(r["thresholds"])] = r["thresholds"]
    first = rows[0]
    return HoldAtTable(
        rules=Rules(goal=first["goal"], players=first["players"], die_faces=first["die_faces"]),
        ns=np.unique(th[th > 0]),
        goal=np.array([r["goal"] for r in rows], dtype=np.int64),
        players=np.array([r["players"] for r in rows], dtype=np.int64),
        die_faces=np.array([r["die_faces"] for r in rows], dtype=np.int64),
        thresholds=th,
        value=np.array([r["value"] for r in rows], dtype=np.float64),
        policy=np.array([r["policy"] for r in rows], dtype=np.int64),
        method="exact",
    )


def _write_csv(path: str, table: HoldAtTable) -> None:
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["goal", "players", "die_faces", "thresholds", "value", "policy"])
        assert table.policy is not None  # a sweep table always records the thresholds
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
