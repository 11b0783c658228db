"""The out-of-core runtime: solves too large for one process's memory, cut into chunks.

Every exact solver here walks a DAG of score levels (scores never decrease), so a level's
states read only higher levels. A solve that does not fit in memory is the same solve cut into
*chunks* of one level's states, run as tasks on any executor, with the finished chunks on disk.
The runtime holds what does not depend on the game; a solver brings what a chunk computes and
what it reads.

API
---
Store of finished chunks (:mod:`pigtheory.runtime.store`):

``ChunkStore.create(folder, kind, solve, extra=None, files=None) -> ChunkStore``
    Open the store of ``solve`` (JSON: every parameter that decides the arrays, the rules
    first) in ``folder``, writing its header (format ``kind``, layout version, a fresh id,
    the SHA-256 of the store's own ``files``) if new; a header of another solve or kind
    raises :class:`StoreMismatch` naming what differs. ``ChunkStore(folder, kind)`` opens
    one; ``.header``, ``.solve``, ``.extra``.
``store.write_chunk(block, chunk, {part: array}) -> None``
    Each part atomically (``<part>/<block>.<chunk>.npy``), then the seal (SHA-256 and size of
    every part) last: a chunk is finished when its seal exists.
``store.read(part, block, chunk, shape, dtype) -> numpy.ndarray``
    A part memory-mapped read-only (only the pages of the rows touched are read).
``store.finished_chunks(keys, verify=True) -> set``
    The finished ones of ``keys``; a chunk whose seal does not hold (damaged part, seal of
    another store) is removed so that it is solved again, never read.
``store.verify(block, chunk) -> str | None``, ``store.discard(block, chunk)``, ``store.save(name, array) -> str``, ``store.damaged_files() -> list``, ``store.mend_files(make) -> list``, ``store.bytes_on_disk()``, ``store.remove()``
    One chunk's trust (why not, or None); remove one chunk; a file of the store's own (an
    index), its SHA-256 returned for the header; those of the header's files that are
    missing or changed; the same written again from the solver's ``make(names)`` (a maker
    per name), refused if one comes out different; bytes per folder; the whole store.
``StoreFull``, ``disk_full(folder)``
    A full disk (``ENOSPC``, ``EDQUOT``) met while writing, as one line naming the folder
    (an ``OSError``); the chunks sealed before stay finished. ``check_disk(folder, need,
    what)`` refuses before any work when the disk has less room than the estimate (less
    what the folder already holds: a resumed store).

Scheduling (:mod:`pigtheory.runtime.schedule`):

``Plan(reads, chunks_per_block, done=())``
    ``reads[(block, chunk)]`` is the set of what the chunk reads: a block (an int, every chunk
    of it) or one chunk ``(block, chunk)`` of another block; ``done`` the chunks already
    finished (``store.finished_chunks``). ``.n_tasks``, ``.todo``, ``.unneeded()``.
``run_chunks(plan, task, on_done, *, executor=None, progress=None, label="chunks", in_flight=8) -> None``
    Submit ``task(block, chunk)`` (a picklable zero-argument callable that solves and writes
    the chunk) as soon as what it reads is finished, highest block first, at most
    ``in_flight`` at a time, on ``None`` (here), any ``concurrent.futures`` executor or a
    ``dask.distributed.Client`` (:class:`TaskQueue`, :func:`check_executor`);
    ``on_done((block, chunk), result, free)`` runs here as each finishes, ``free`` the blocks
    nothing unfinished reads any more.
``peak_mb() -> float``
    The peak resident memory of this process (a worker), which a chunk task reports with its
    timings.

Independent tasks (:mod:`pigtheory.runtime.tasks`, :mod:`pigtheory.runtime.records`):

``run_tasks_resumably(tasks, solve, *, folder=None, kind, check=None, executor=None, progress=None, label="tasks", param="folder") -> dict``
    Every task (a JSON object with a unique ``"id"``) not finished in ``folder`` through
    ``solve(task) -> record``; one sealed record per finished task, an index; records that
    fail their checksum or ``check(record, task)`` are solved again.
``write_record(path, fields)``, ``read_record(path)``, ``DamagedRecord``
    JSON files with a SHA-256 of their fields.

A level-by-level solve
----------------------
Give each level (a score sum, say) a block id that sorts the levels in the order they are
solved, the first one highest; cut each block's rows into chunks; then ::

    store = ChunkStore.create(folder, "my-solver", {"rules": ..., "chunk": rows})
    reads = {(b, k): {...} for b in blocks for k in range(n_chunks[b])}
    plan = Plan(reads, n_chunks, store.finished_chunks(list(reads)))
    run_chunks(plan, lambda b, k: partial(solve_chunk, folder, b, k), on_done, executor=ex)

where ``solve_chunk`` opens ``ChunkStore(folder, "my-solver")``, reads the rows it needs
with ``store.read`` and ends with ``store.write_chunk``. Killed at any point, the same call
on the same folder resumes: sealed chunks are verified and skipped, the rest solved. The
order of submission changes no number: a chunk reads only sealed chunks.

Users
-----
The n-player best response (:func:`pigtheory.simultaneous.chunked_best_response`, its
:class:`~pigtheory.simultaneous.nplayer.level_store.LevelStore` a :class:`ChunkStore`) and the
resumable sweep (:func:`pigtheory.simultaneous.hold_at_table`).
"""

from ..parallel import TaskQueue, check_executor
from .records import DamagedRecord, read_record, write_record
from .schedule import IN_FLIGHT, Plan, peak_mb, run_chunks
from .store import ChunkStore, StoreFull, StoreMismatch, check_disk, disk_full
from .tasks import run_tasks_resumably

__all__ = [
    "ChunkStore",
    "StoreFull",
    "StoreMismatch",
    "Plan",
    "run_chunks",
    "IN_FLIGHT",
    "peak_mb",
    "run_tasks_resumably",
    "disk_full",
    "check_disk",
    "TaskQueue",
    "check_executor",
    "DamagedRecord",
    "read_record",
    "write_record",
]
