"""Independent tasks run in this process, on any ``concurrent.futures`` executor, or on Dask.

Every sweep and batch entry point of pigtheory takes ``executor=``:

``None`` (the default)
    The tasks run one after another in the calling process.
a :class:`concurrent.futures.Executor`
    ``ProcessPoolExecutor(2)`` for the cores of one machine (a thread pool works too, and
    gains where the compiled kernels release the GIL).
a ``dask.distributed.Client``
    The tasks go to a Dask cluster: a ``LocalCluster`` or a scheduler on other machines.
    The workers must import the same pigtheory. Dask is an optional dependency (the extra
    ``pip install 'pigtheory[dask]'``); everything else here works without it.

A task is a callable with no arguments, usually ``functools.partial(function, *args,
**kwargs)`` of a module-level function, so that it pickles by name. Its inputs are rules,
thresholds and policies, never value arrays that the worker can rebuild, and its output is
small. :func:`run_tasks` returns the results in the order of the tasks whatever order they
finish in; :class:`TaskQueue` hands them back as they finish, for callers that submit more
work as results arrive (the chunked level solve) or write each result as it comes (the
resumable sweeps).

Notes
-----
Results do not depend on the executor, bit for bit. Every task runs inside
:func:`one_blas_thread` wherever it runs (Dask workers start
with one BLAS thread, a process pool inherits the parent's setting), and the solvers choose
their engine from the size of the problem alone (:func:`pigtheory.engine.choose_engine`), so a
task computes the same floating-point operations in the caller as in a worker.

Examples
--------
>>> from concurrent.futures import ThreadPoolExecutor
>>> from functools import partial
>>> tasks = [partial(pow, 2, k) for k in range(6)]
>>> run_tasks(tasks)
[1, 2, 4, 8, 16, 32]
>>> with ThreadPoolExecutor(2) as pool:
...     run_tasks(tasks, executor=pool) == run_tasks(tasks)
True
"""

from __future__ import annotations

import concurrent.futures as cf
import logging
import os
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from .progress import progress_bar
from .validation import check_int, check_progress, check_tol

__all__ = [
    "one_blas_thread",
    "idle_cores",
    "check_executor",
    "executor_kind",
    "run_tasks",
    "completed_tasks",
    "TaskQueue",
    "local_cluster",
    "dask_client",
]


# --- BLAS threads ---------------------------------------------------------------------------


def idle_cores(limit: int) -> int:
    """How many threads a compiled solver should start now: the cores this process may use,
    less those the other processes keep busy, between 1 and ``limit``.

    Notes
    -----
    ``os.getloadavg()[0]`` (the runnable processes averaged over the last minute, this one
    included) stands for the busy cores: ``idle = cores - load + 1``, rounded. On an idle
    2-core machine that is 2; with one other busy process, 1. A guess only: solvers whose result
    does not depend on their thread count use it, so it moves time, never bits. Threads that
    wait for a busy core burn CPU time (numba's parallel regions spin), hence the care.

    Examples
    --------
    >>> 1 <= idle_cores(4) <= 4
    True
    """
    limit = check_int("limit", limit, low=1, high=1 << 16)
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows
        return 1
    return max(1, min(limit, cores, int(cores - load + 1.5)))


# The solvers make thousands of small products (about 100 x 100). A second BLAS thread gains
# nothing there and, on a busy 2-core machine, waits for a time slice at every call: solves were
# measured 3-6x slower with threading on. one_blas_thread limits BLAS to one thread for the
# duration of a block and restores the previous setting afterwards, through threadpoolctl (no
# process-wide change survives the block).


@lru_cache(maxsize=1)
def _controller() -> Any:
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Context manager: BLAS on one thread inside the block.

    Examples
    --------
    >>> import numpy as np
    >>> with one_blas_thread():
    ...     float((np.ones((3, 3)) @ np.ones(3))[0])
    3.0
    """
    with _controller().limit(limits=1, user_api="blas"):
        yield


def executor_kind(executor: Any) -> str:
    """``"serial"``, ``"futures"`` or ``"dask"``; ValueError for anything else."""
    if executor is None:
        return "serial"
    if isinstance(executor, cf.Executor):
        return "futures"
    module = type(executor).__module__.split(".")[0]
    if module == "distributed" and hasattr(executor, "submit") and hasattr(executor, "loop"):
        return "dask"
    raise ValueError(
        "executor must be None, a concurrent.futures.Executor or a dask.distributed.Client, "
        f"got {type(executor).__name__}"
    )


def check_executor(executor: Any) -> Any:
    """``executor`` if it is one that :class:`TaskQueue` can run tasks on (see :func:`executor_kind`)."""
    executor_kind(executor)
    return executor


def _call(task: Callable[[], Any]) -> Any:
    """Run one task the same way wherever it runs: BLAS on one thread."""
    with one_blas_thread():
        return task()


class TaskQueue:
    """Submit tasks and take their results back as they finish, on any executor.

    Parameters
    ----------
    executor : None, concurrent.futures.Executor or dask.distributed.Client
        See the module docstring. ``None`` runs a task when its result is asked for, in the
        order of submission.

    Notes
    -----
    Used as a context manager, tasks still pending when the block exits (after an error,
    say) are cancelled. Each result is handed back once; the queue then drops its reference
    to the task, so a Dask cluster can release it.

    Examples
    --------
    >>> from functools import partial
    >>> with TaskQueue() as queue:
    ...     queue.submit(partial(divmod, 7, 2), tag="a")
    ...     queue.submit(partial(divmod, 9, 4), tag="b")
    ...     [queue.next_done() for _ in range(len(queue))]
    [('a', (3, 1)), ('b', (2, 1))]
    """

    def __init__(self, executor: Any = None) -> None:
        self.kind = executor_kind(executor)
        self.executor = executor
        self._serial: deque[tuple[Hashable, Callable[[], Any]]] = deque()
        self._pending: dict[Any, tuple[Hashable, Any]] = {}  # future (or Dask key) -> (tag, future)
        self._ready: deque[tuple[Hashable, Any]] = deque()
        self._dask_done: Any = None
        if self.kind == "dask":
            from distributed import as_completed

            self._dask_done = as_completed(loop=executor.loop, with_results=True)

    def __len__(self) -> int:
        """Tasks submitted whose result has not been handed back yet."""
        return len(self._serial) + len(self._pending) + len(self._ready)

    def submit(self, task: Callable[[], Any], tag: Hashable = None) -> None:
        """Queue ``task`` (a callable with no arguments); :meth:`next_done` returns ``tag`` with its result."""
        if not callable(task):
            raise ValueError(f"task must be callable, got {type(task).__name__}")
        if self.kind == "serial":
            self._serial.append((tag, task))
        elif self.kind == "futures":
            future = self.executor.submit(_call, task)
            self._pending[future] = (tag, future)
        else:
            future = self.executor.submit(_call, task, pure=False)
            self._pending[future.key] = (tag, future)
            self._dask_done.add(future)

    def next_done(self) -> tuple[Hashable, Any]:
        """``(tag, result)`` of a finished task (the next one in submission order when serial).

        Blocks until one is done; re-raises a task's exception. ``IndexError`` when nothing
        is pending.
        """
        if not len(self):
            raise IndexError("next_done: no task is pending")
        if self.kind == "serial":
            tag, task = self._serial.popleft()
            return tag, _call(task)
        if self.kind == "futures":
            if not self._ready:
                done, _ = cf.wait(list(self._pending), return_when=cf.FIRST_COMPLETED)
                self._ready.extend(self._pending.pop(future) for future in done)
            tag, future = self._ready.popleft()
            return tag, future.result()
        future, result = next(self._dask_done)
        return self._pending.pop(future.key)[0], result

    def cancel(self) -> None:
        """Forget every pending task, cancelling those not started."""
        self._serial.clear()
        self._ready.clear()
        futures = [future for _, future in self._pending.values()]
        if self.kind == "futures":
            for future in futures:
                future.cancel()
        elif self.kind == "dask" and futures:
            self._dask_done.clear()
            self.executor.cancel(futures)
        self._pending.clear()

    def __enter__(self) -> TaskQueue:
        return self

    def __exit__(self, *exc: object) -> None:
        if len(self):
            self.cancel()


def completed_tasks(tasks: Sequence[Callable[[], Any]], *, executor: Any = None) -> Iterator[tuple[int, Any]]:
    """``(position, result)`` of each task as it finishes (in order when ``executor`` is None)."""
    with TaskQueue(executor) as queue:
        for position, task in enumerate(tasks):
            queue.submit(task, tag=position)
        while len(queue):
            tag, result = queue.next_done()
            yield int(tag), result  # type: ignore[call-overload]


def run_tasks(
    tasks: Sequence[Callable[[], Any]],
    *,
    executor: Any = None,
    progress: bool | None = None,
    desc: str = "tasks",
) -> list[Any]:
    """Run every task and return the results in the order of ``tasks``.

    Parameters
    ----------
    tasks : sequence of callables
        Each called with no arguments (``functools.partial`` of a module-level function).
    executor : None, concurrent.futures.Executor or dask.distributed.Client
        Where the tasks run (module docstring); default: one after another, here.
    progress : bool, optional
        A bar on stderr advanced as each task finishes (default: when stderr is a terminal).
    desc : str
        The bar's label.

    Returns
    -------
    list
        ``result[t]`` of ``tasks[t]``.

    Raises
    ------
    ValueError
        An executor of another kind, or a task that is not callable.
    """
    check_progress(progress)
    tasks = list(tasks)
    results: list[Any] = [None] * len(tasks)
    with progress_bar(len(tasks), desc, progress) as bar:
        for position, result in completed_tasks(tasks, executor=executor):
            results[position] = result
            bar.update(1)
    return results


@contextmanager
def local_cluster(workers: int, *, memory_limit: str | None = None) -> Iterator[Any]:
    """A Dask ``LocalCluster`` of ``workers`` processes on this machine, and a client of it.

    One thread per worker (the solvers are single-threaded; processes sidestep the GIL),
    listening on 127.0.0.1 at free ports, no dashboard. Workers inherit this process's
    environment (``PYTHONPATH``, ``PIGTHEORY_CACHE_DIR``). ``memory_limit`` per worker (e.g.
    ``"4GiB"``): Dask's default otherwise (the machine's memory shared out). Workers are
    started fresh (spawned), so a script that starts a cluster keeps its work under
    ``if __name__ == "__main__":``, as with any process pool.

    Examples
    --------
    >>> from functools import partial
    >>> with local_cluster(1) as client:  # doctest: +SKIP
    ...     run_tasks([partial(abs, -2)], executor=client)
    [2]
    """
    workers = check_int("workers", workers, low=1)
    distributed = _distributed()
    Client, LocalCluster = distributed.Client, distributed.LocalCluster
    kwargs: dict[str, Any] = {} if memory_limit is None else {"memory_limit": memory_limit}
    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            scheduler_port=0,
            dashboard_address=None,
            # the scheduler's HTTP routes (health, metrics) would otherwise take port 8787
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.ERROR,
            **kwargs,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


@contextmanager
def dask_client(address: str, timeout: float = 10.0) -> Iterator[Any]:
    """A client of the running Dask scheduler at ``address`` (``tcp://host:8786``).

    Parameters
    ----------
    address : str
        The scheduler's address, ``tcp://host:port`` (or ``host:port``).
    timeout : float
        Seconds to wait for the scheduler to answer (Dask's own default is 30 s).

    Raises
    ------
    ValueError
        ``address`` is not an address, or no scheduler answered there within ``timeout``
        (one line naming the address and what to check, not Dask's raw ``OSError``).
    """
    if not isinstance(address, str) or not address.strip() or any(c.isspace() for c in address.strip()):
        raise ValueError(f"scheduler: expected an address such as tcp://host:8786, got {address!r:.80}")
    seconds = check_tol(timeout, "timeout")
    distributed = _distributed()
    try:
        client = distributed.Client(address, timeout=seconds)
    except (OSError, TimeoutError) as exc:
        raise ValueError(
            f"scheduler: no Dask scheduler answered at {address!r:.120} within {seconds:g} s "
            f"({type(exc).__name__}); start one there ('dask scheduler') or check the address and port"
        ) from None
    except (ValueError, TypeError) as exc:  # an address Dask cannot parse
        raise ValueError(f"scheduler: {address!r:.120} is not an address Dask reads ({exc})") from None
    with client:
        yield client


def _distributed() -> Any:
    """The ``distributed`` module, or ImportError naming the extra that installs it."""
    try:
        import distributed
    except ImportError as exc:
        raise ImportError(
            "a Dask cluster needs the optional dependency dask[distributed], "
            "which pigtheory's extra installs: pip install 'pigtheory[dask]'"
        ) from exc
    return distributed
