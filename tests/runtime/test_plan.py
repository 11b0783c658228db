"""The runtime's plan (:class:`pigtheory.runtime.Plan`) when chunks read single chunks of the
levels above, as a level solve whose rows read only some rows above does.

The toy: level b has ``CHUNKS`` chunks; chunk k of level b reads chunks k and k + 1 (mod
``CHUNKS``) of level b + 1 only, and holds ``(b + 1) * (k + 1) + `` the sum of what it reads. The
reference is the same recursion in memory; serial, threads and a Dask cluster must give its
numbers, and every chunk must start after the chunks it names, not after their whole level.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from pigtheory.runtime import ChunkStore, Plan, run_chunks

TOP, CHUNKS, ROWS, KIND = 4, 3, 2, "toy-chunk-reads"


def _reads(b: int, k: int) -> set[tuple[int, int]]:
    return set() if b == TOP else {(b + 1, k), (b + 1, (k + 1) % CHUNKS)}


def _reference() -> dict[tuple[int, int], float]:
    out: dict[tuple[int, int], float] = {}
    for b in range(TOP, -1, -1):
        for k in range(CHUNKS):
            out[b, k] = (b + 1) * (k + 1) + sum(ROWS * out[d] for d in _reads(b, k))
    return out


def _solve(folder: str, b: int, k: int) -> None:
    store = ChunkStore(folder, KIND)
    above = sum(float(store.read("value", *d, (ROWS,), np.float64).sum()) for d in _reads(b, k))
    store.write_chunk(b, k, {"value": np.full(ROWS, (b + 1) * (k + 1) + above, dtype=np.float64)})


def _run(folder, executor=None, calls=None) -> ChunkStore:
    store = ChunkStore.create(folder, KIND, {"top": TOP, "chunks": CHUNKS})
    reads = {(b, k): _reads(b, k) for b in range(TOP + 1) for k in range(CHUNKS)}
    plan = Plan(reads, dict.fromkeys(range(TOP + 1), CHUNKS), store.finished_chunks(list(reads)))

    def task(b, k):
        if calls is not None:
            calls.append((b, k))
        return lambda: _solve(str(store.folder), b, k)

    run_chunks(plan, task, lambda *a: None, executor=executor, progress=False)
    return store


def _check(store: ChunkStore) -> None:
    for (b, k), want in _reference().items():
        assert np.array_equal(store.read("value", b, k, (ROWS,), np.float64), np.full(ROWS, want)), (b, k)


def test_chunk_reads_give_the_in_memory_numbers_on_every_executor(tmp_path, client):
    _check(_run(tmp_path / "serial"))
    with ThreadPoolExecutor(2) as pool:
        _check(_run(tmp_path / "threads", pool))
    _check(_run(tmp_path / "dask", client))


def test_a_chunk_starts_once_the_chunks_it_names_are_done_not_their_whole_level():
    reads = {(1, 0): set(), (1, 1): set(), (1, 2): set(), (0, 0): {(1, 0)}, (0, 1): {1}}
    plan = Plan(reads, {0: 2, 1: 3})
    assert sorted(plan.pop() for _ in range(3)) == [(1, 0), (1, 1), (1, 2)]
    assert plan.finish((1, 0)) == []  # level 1 unfinished: nothing to free
    assert plan.pop() == (0, 0)  # its one chunk is done; level 1 is not
    assert not plan.ready  # (0, 1) reads all of level 1
    plan.finish((1, 1))
    assert not plan.ready
    plan.finish((1, 2))
    assert plan.pop() == (0, 1)
    plan.finish((0, 0))
    assert sorted(plan.finish((0, 1))) == [0, 1]
    assert plan.todo == 0 and sorted(plan.unneeded()) == [0, 1]


def test_order_and_resume_with_chunk_reads(tmp_path):
    calls: list[tuple[int, int]] = []
    store = _run(tmp_path / "s", calls=calls)
    position = {key: i for i, key in enumerate(calls)}
    for key, i in position.items():
        assert all(position[d] < i for d in _reads(*key))
    store.discard(0, 1)
    store.discard(2, 2)
    again: list[tuple[int, int]] = []
    _check(_run(tmp_path / "s", calls=again))
    assert sorted(again) == [(0, 1), (2, 2)]


def test_plan_refuses_chunks_it_does_not_know():
    with pytest.raises(ValueError, match="chunks"):
        Plan({(0, 0): {(1, 5)}, (1, 0): set()}, {0: 1, 1: 1})
    with pytest.raises(ValueError, match="not in chunks_per_block"):
        Plan({(0, 0): {(7, 0)}}, {0: 1})
