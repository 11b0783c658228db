"""The out-of-core runtime: solves too large for one process's memory, cut into chunks.

Every exact solver here walks a DAG of score levels (scores never decrease), so a level's
states read only higher levels. A solve that does not fit in memory is the same solve cut into
*chunks* of one level's states, run as tasks on any executor, with the finished chunks on disk:

=========================  ==================================================================
:class:`ChunkStore`        the folder of finished chunks: a header with the solve's
                           parameters (another solve's store is refused), one file per part
                           of a chunk, a seal per chunk with the SHA-256 of its parts (a
                           damaged or foreign chunk is found and solved again), memory-mapped
                           reads, a full disk said in one line (:class:`StoreFull`)
:class:`Plan`              which chunks read which blocks, which may start
:func:`run_chunks`         submit each chunk once what it reads is finished, highest level
                           first, on any ``concurrent.futures`` executor or Dask client
                           (:mod:`pigtheory.parallel`); a stopped solve resumes from the
                           sealed chunks
:func:`run_tasks_resumably` independent tasks (a sweep's points), one sealed record per
                           finished task and an index; a stopped run resumes
:mod:`.records`            sealed JSON records (a sweep's tasks): a checksum per file
:func:`disk_full`          a full disk (``ENOSPC``) met in a block said as :class:`StoreFull`
=========================  ==================================================================

The n-player best response (:func:`pigtheory.simultaneous.chunked_best_response`) and the
resumable sweeps (:func:`pigtheory.simultaneous.hold_at_table`) run on it; a solver brings only
what a chunk computes and which blocks it reads.
"""

from .records import DamagedRecord, read_record, write_record
from .schedule import IN_FLIGHT, Plan, run_chunks
from .store import ChunkStore, StoreFull, StoreMismatch, disk_full
from .tasks import run_tasks_resumably

__all__ = [
    "ChunkStore",
    "StoreFull",
    "StoreMismatch",
    "Plan",
    "run_chunks",
    "IN_FLIGHT",
    "run_tasks_resumably",
    "disk_full",
    "DamagedRecord",
    "read_record",
    "write_record",
]
