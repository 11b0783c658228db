"""Run the jobs of ``make claims`` and ``make figures`` on a pool of processes, in dependency order.

A :class:`Job` names a module-level function (``"package.module:function"``) and its
arguments, the jobs that must finish before it starts (``after``) and its expected cost in
seconds. :func:`run_jobs` runs them on ``workers`` processes: whenever a process is free it
starts, among the jobs whose ``after`` have all finished, the one heading the longest chain of
remaining work (the job's cost plus the costliest chain of jobs waiting for it, the classic
critical-path rule of list scheduling). With one worker the jobs run here, one after another,
in that same order.

The results come back by job name, so callers assemble their output in a fixed order whatever
order the jobs finished in (``analyses/run_all.py`` writes the report in module order, byte for
byte what a serial run writes).

Notes
-----
Jobs share their results through the cache of solves (:mod:`pigtheory.io`): a job that fills
an entry runs before the jobs that read it (their ``after``), so that no two processes solve
the same entry at once. Were they to, nothing would break: an entry is written to a temporary
file and renamed into place (:func:`pigtheory.io.atomic_write`), so a reader sees a whole
entry or none, and the solves are deterministic, so the second writer replaces the entry by
the same result. It would only cost the time of the second solve.

Worker processes are started fresh (``spawn``) and run each job with one BLAS thread
(:func:`pigtheory.parallel.one_blas_thread`): two jobs on two cores, not four threads fighting
for them. The solvers' results do not depend on the number of BLAS threads.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import importlib
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Job", "critical_path", "order", "makespan", "run_jobs"]


@dataclass(frozen=True)
class Job:
    """One unit of work: ``function(*args)`` of the module-level ``call`` ("module:function").

    Attributes
    ----------
    name : str
        Unique among the jobs of one run; the key of its result.
    call : str
        ``"package.module:function"``, imported by name in the worker.
    args : tuple
        Positional arguments (picklable).
    after : tuple of str
        Names of the jobs that must finish before this one starts.
    cost : float
        Expected seconds (a cold run on two cores); only the order of the jobs depends on it.
    """

    name: str
    call: str
    args: tuple = ()
    after: tuple[str, ...] = field(default=())
    cost: float = 1.0


def add_workers_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--workers N`` (also ``--jobs``, ``-j``): processes for ``what``, at least 1; default
    ``$PIGTHEORY_WORKERS`` or every core (the option of ``run_all`` and ``make_all``)."""

    def positive(text: str) -> int:
        n = int(text)
        if n < 1:
            raise argparse.ArgumentTypeError(f"must be >= 1, got {n}")
        return n

    parser.add_argument(
        "--workers",
        "--jobs",
        "-j",
        type=positive,
        default=int(os.environ.get("PIGTHEORY_WORKERS") or os.cpu_count() or 1),
        help=f"{what} (default: $PIGTHEORY_WORKERS or every core)",
    )


def _check(jobs: Sequence[Job]) -> dict[str, Job]:
    by_name: dict[str, Job] = {}
    for job in jobs:
        if job.name in by_name:
            raise ValueError(f"two jobs named {job.name!r}")
        if ":" not in job.call:
            raise ValueError(f"job {job.name!r}: call must be 'module:function', got {job.call!r}")
        by_name[job.name] = job
    for job in jobs:
        missing = [a for a in job.after if a not in by_name]
        if missing:
            raise ValueError(f"job {job.name!r} waits for unknown jobs {missing}")
    return by_name


def critical_path(jobs: Sequence[Job]) -> dict[str, float]:
    """For each job, its cost plus the costliest chain of the jobs that wait for it.

    Raises
    ------
    ValueError
        Duplicate names, unknown names in ``after``, or a cycle.
    """
    by_name = _check(jobs)
    waiting: dict[str, list[str]] = {name: [] for name in by_name}
    for job in jobs:
        for a in job.after:
            waiting[a].append(job.name)
    level: dict[str, float] = {}
    state: dict[str, int] = {}  # 1 visiting, 2 done

    def visit(name: str) -> float:
        if state.get(name) == 2:
            return level[name]
        if state.get(name) == 1:
            raise ValueError(f"the jobs wait for each other in a cycle through {name!r}")
        state[name] = 1
        rest = max((visit(w) for w in waiting[name]), default=0.0)
        level[name] = by_name[name].cost + rest
        state[name] = 2
        return level[name]

    for name in by_name:
        visit(name)
    return level


def order(jobs: Sequence[Job]) -> list[str]:
    """The order one worker runs the jobs in: of the jobs ready, the longest chain first
    (ties: the order of ``jobs``)."""
    return [job.name for job in _schedule(jobs, 1, lambda job: None)]


def makespan(jobs: Sequence[Job], workers: int) -> tuple[float, dict[str, tuple[int, float, float]]]:
    """The schedule :func:`run_jobs` makes if every job takes exactly its ``cost``: the total
    time and, for each job, its worker, start and end (for estimates; nothing measured).
    """
    level = critical_path(jobs)
    rank = {job.name: k for k, job in enumerate(jobs)}
    left = {job.name: set(job.after) for job in jobs}
    ready = [job for job in jobs if not left[job.name]]
    free = [0.0] * workers  # when each worker is next free
    running: list[tuple[float, int, Job]] = []
    plan: dict[str, tuple[int, float, float]] = {}
    now = 0.0
    while ready or running:
        for w in range(workers):
            if ready and free[w] <= now and all(r[1] != w for r in running):
                job = _pick(ready, level, rank)
                plan[job.name] = (w, now, now + job.cost)
                running.append((now + job.cost, w, job))
        running.sort(key=lambda r: (r[0], r[1]))
        end, w, job = running.pop(0)
        now, free[w] = end, end
        for other in jobs:
            if job.name in left[other.name]:
                left[other.name].discard(job.name)
                if not left[other.name]:
                    ready.append(other)
    return now, plan


def _pick(ready: list[Job], level: dict[str, float], rank: dict[str, int]) -> Job:
    job = max(ready, key=lambda j: (level[j.name], -rank[j.name]))
    ready.remove(job)
    return job


def _schedule(jobs: Sequence[Job], workers: int, submit: Callable[[Job], Any]) -> list[Job]:
    """Serial walk used by :func:`order` (``submit`` returns at once): the start order."""
    level = critical_path(jobs)
    rank = {job.name: k for k, job in enumerate(jobs)}
    left = {job.name: set(job.after) for job in jobs}
    ready = [job for job in jobs if not left[job.name]]
    started: list[Job] = []
    while ready:
        job = _pick(ready, level, rank)
        submit(job)
        started.append(job)
        for other in jobs:
            if job.name in left[other.name]:
                left[other.name].discard(job.name)
                if not left[other.name]:
                    ready.append(other)
    return started


def call(target: str, args: tuple = ()) -> Any:
    """Import ``module`` of ``"module:function"`` and return ``function(*args)``."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)(*args)


def _in_worker(target: str, args: tuple) -> tuple[Any, float, float]:
    from pigtheory.parallel import one_blas_thread

    t0, c0 = time.perf_counter(), time.process_time()
    with one_blas_thread():
        result = call(target, args)
    return result, time.perf_counter() - t0, time.process_time() - c0


def run_jobs(
    jobs: Iterable[Job],
    *,
    workers: int = 1,
    log: Callable[[str], None] | None = print,
) -> dict[str, tuple[Any, float]]:
    """Run every job, each after the jobs it waits for, on ``workers`` processes.

    Parameters
    ----------
    jobs : iterable of Job
    workers : int
        Processes (>= 1); 1 runs the jobs here, one after another.
    log : callable, optional
        Called with a line as each job finishes (name, wall-clock and CPU seconds); None
        for silence.

    Returns
    -------
    dict
        ``{name: (result, seconds)}`` for every job.

    Raises
    ------
    ValueError
        Bad jobs (see :func:`critical_path`) or ``workers < 1``.
    Exception
        The first exception a job raised (the jobs already running are waited for, no new one
        is started).
    """
    jobs = list(jobs)
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be an int >= 1, got {workers!r}")
    level = critical_path(jobs)
    results: dict[str, tuple[Any, float]] = {}

    def done(name: str, value: Any, seconds: float, cpu: float) -> None:
        results[name] = (value, seconds)
        if log is not None:
            log(f"# {name}: {seconds:.1f} s (CPU {cpu:.1f} s)")

    if workers == 1:
        for job in _schedule(jobs, 1, lambda job: None):
            t0, c0 = time.perf_counter(), time.process_time()
            value = call(job.call, job.args)
            done(job.name, value, time.perf_counter() - t0, time.process_time() - c0)
        return results

    rank = {job.name: k for k, job in enumerate(jobs)}
    left = {job.name: set(job.after) for job in jobs}
    ready = [job for job in jobs if not left[job.name]]
    running: dict[cf.Future, Job] = {}
    failed: BaseException | None = None
    context = multiprocessing.get_context("spawn")  # fresh workers, whatever threads this process has
    with cf.ProcessPoolExecutor(workers, mp_context=context) as pool:
        while ready or running:
            while ready and len(running) < workers and failed is None:
                job = _pick(ready, level, rank)
                running[pool.submit(_in_worker, job.call, job.args)] = job
            if not running:
                break
            finished, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                job = running.pop(future)
                try:
                    value, seconds, cpu = future.result()
                except BaseException as exc:  # noqa: BLE001 (re-raised below, after the others stop)
                    if failed is None:
                        failed = exc
                        exc.add_note(f"in job {job.name!r} ({job.call}{job.args!r})")
                    continue
                done(job.name, value, seconds, cpu)
                for other in jobs:
                    if job.name in left[other.name]:
                        left[other.name].discard(job.name)
                        if not left[other.name]:
                            ready.append(other)
            if failed is not None:
                ready.clear()
    if failed is not None:
        raise failed
    return results
