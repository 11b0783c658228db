"""Chunk tasks submitted as soon as what they read is finished, highest block first.

A solve cut into chunks names, for every chunk ``(block, chunk)``, what it reads: whole
*blocks* (every chunk of them must be finished first) or single chunks of other blocks. :class:`Plan` keeps which chunks are finished, how many
chunks of each block are left, which chunks may start, and how many unfinished chunks still read
each block (so that a solver may delete what nothing will read again). :func:`run_chunks`
drives a plan on any executor (:class:`pigtheory.parallel.TaskQueue`: none, a
``concurrent.futures`` executor or a ``dask.distributed.Client``): it keeps a few tasks in
flight, submits each chunk whose blocks are finished, larger blocks first (in a DAG over
score levels the highest level is the one that unblocks most), and hands each result to the
solver as it comes back. Order of submission changes nothing in the results: each chunk reads
only finished, sealed chunks.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from ..parallel import TaskQueue, check_executor
from ..progress import progress_bar
from ..validation import check_int, check_progress

__all__ = ["Plan", "run_chunks", "IN_FLIGHT", "peak_mb"]

Key = tuple[int, int]

IN_FLIGHT = 8
"""Tasks submitted ahead of the results (enough to keep a few workers busy; each holds a chunk)."""


class Plan:
    """Which chunks read which blocks or chunks, which are finished, and which may start.

    Parameters
    ----------
    reads : dict
        ``(block, chunk) -> set`` of what the chunk reads (not itself): a block (an int: every
        chunk of it) or one chunk of a block (a ``(block, chunk)`` pair). A level solve whose
        rows read only some rows of the levels above names those chunks and starts sooner.
    chunks_per_block : dict
        ``block -> number of chunks``.
    done : iterable of (block, chunk)
        The chunks already finished (a resumed solve).
    """

    def __init__(
        self,
        reads: Mapping[Key, AbstractSet[int | Key]],
        chunks_per_block: dict[int, int],
        done: Iterable[Key] = (),
    ) -> None:
        if not isinstance(reads, dict) or not isinstance(chunks_per_block, dict):
            raise ValueError("reads and chunks_per_block must be dicts")
        whole: dict[Key, set[int]] = {}  # blocks read whole
        parts: dict[Key, set[Key]] = {}  # single chunks read
        for key, deps in reads.items():
            whole[key] = {d for d in deps if not isinstance(d, tuple)}
            parts[key] = {(int(d[0]), int(d[1])) for d in deps if isinstance(d, tuple)}
        unknown = (
            {d for deps in whole.values() for d in deps}
            | {b for deps in parts.values() for b, _ in deps}
            | {b for b, _ in reads}
        ) - set(chunks_per_block)
        if unknown:
            raise ValueError(f"reads: blocks {sorted(unknown)[:5]} are not in chunks_per_block")
        wrong = [(b, k) for deps in parts.values() for b, k in deps if not 0 <= k < chunks_per_block[b]]
        if wrong:
            raise ValueError(f"reads: chunks {sorted(wrong)[:5]} are not in chunks_per_block")
        self.reads = {key: whole[key] | {b for b, _ in parts[key]} for key in reads}  # blocks touched
        self.readers: dict[int, list[Key]] = {b: [] for b in chunks_per_block}  # read whole
        self.chunk_readers: dict[Key, list[Key]] = {}
        for key in reads:
            for d in whole[key]:
                self.readers[d].append(key)
            for c in parts[key]:
                self.chunk_readers.setdefault(c, []).append(key)
        touching: dict[int, list[Key]] = {b: [] for b in chunks_per_block}
        for key, blocks in self.reads.items():
            for b in blocks:
                touching[b].append(key)
        self.done = set(done)
        self.n_tasks = len(reads)
        self.todo = self.n_tasks - len(self.done)
        self.left = dict(chunks_per_block)  # unfinished chunks per block
        for block, _ in self.done:
            self.left[block] -= 1
        self.unread = {b: sum(r not in self.done for r in rs) for b, rs in touching.items()}
        self.waiting = {
            key: sum(self.left[d] > 0 for d in whole[key]) + sum(c not in self.done for c in parts[key])
            for key in reads
        }
        self.ready: list[tuple[int, int, int]] = []
        for key, n in self.waiting.items():
            if n == 0 and key not in self.done:
                heapq.heappush(self.ready, (-key[0], key[0], key[1]))

    def pop(self) -> Key:
        """The next chunk to start (highest block first)."""
        _, block, k = heapq.heappop(self.ready)
        return block, k

    def _unblock(self, readers: list[Key]) -> None:
        for r in readers:
            self.waiting[r] -= 1
            if self.waiting[r] == 0 and r not in self.done:
                heapq.heappush(self.ready, (-r[0], r[0], r[1]))

    def finish(self, key: Key) -> list[int]:
        """Mark ``key`` finished; returns the blocks that no unfinished chunk reads any more and
        that are finished themselves (their read-only parts may go)."""
        block, _ = key
        self.done.add(key)
        self.todo -= 1
        self.left[block] -= 1
        self._unblock(self.chunk_readers.get(key, []))
        if self.left[block] == 0:
            self._unblock(self.readers[block])
        for d in self.reads[key]:
            self.unread[d] -= 1
        return [b for b in self.reads[key] | {block} if self.left[b] == 0 and self.unread[b] == 0]

    def unneeded(self) -> list[int]:
        """Blocks finished and read by no unfinished chunk (after a resume)."""
        return [b for b in self.left if self.left[b] == 0 and self.unread[b] == 0]


def run_chunks(
    plan: Plan,
    task: Callable[[int, int], Callable[[], Any]],
    on_done: Callable[[Key, Any, list[int]], None],
    *,
    executor: Any = None,
    progress: bool | None = None,
    label: str = "chunks",
    in_flight: int = IN_FLIGHT,
) -> None:
    """Run every unfinished chunk of ``plan``, each once what it reads is finished.

    Parameters
    ----------
    plan : Plan
    task : callable
        ``task(block, chunk)`` returns the zero-argument callable that solves and writes the
        chunk (picklable for a process pool or Dask) and returns a small result.
    on_done : callable
        ``on_done((block, chunk), result, free)``, in the caller's process, as each chunk
        finishes: ``free`` the blocks nothing unfinished reads any more (:meth:`Plan.finish`).
    executor : None, concurrent.futures.Executor or dask.distributed.Client
    progress : bool, optional
        A bar on stderr (default: when stderr is a terminal).

    Raises
    ------
    RuntimeError
        Some chunks could never start (what they read never finishes: a cycle in ``reads``).
    ValueError
        An argument of the wrong kind (before any task is submitted).
    """
    if not isinstance(plan, Plan):
        raise ValueError(f"plan must be a pigtheory.runtime.Plan, got {type(plan).__name__}")
    for name, fn in (("task", task), ("on_done", on_done)):
        if not callable(fn):
            raise ValueError(f"{name} must be callable, got {type(fn).__name__}")
    if not isinstance(label, str):
        raise ValueError(f"label must be a string, got {type(label).__name__}")
    check_int("in_flight", in_flight, low=1)
    check_executor(executor)
    check_progress(progress)
    with TaskQueue(executor) as queue, progress_bar(plan.n_tasks, label, progress) as bar:
        bar.update(plan.n_tasks - plan.todo)
        while plan.ready or len(queue):
            while plan.ready and len(queue) < in_flight:
                block, k = plan.pop()
                queue.submit(task(block, k), tag=(block, k))
            tag, result = queue.next_done()
            key = (int(tag[0]), int(tag[1]))  # type: ignore[index]
            on_done(key, result, plan.finish(key))
            bar.update(1)
    if plan.todo:
        raise RuntimeError(f"{label}: {plan.todo} chunks could never start (a dependency cycle?)")


def peak_mb() -> float:
    """This process's peak resident memory (``VmHWM``) in MB, which a chunk task reports with
    its timings; NaN where ``/proc`` is missing."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")
