"""The out-of-core runtime (:mod:`pigtheory.runtime`) on a toy level-by-level solve.

The toy: blocks 0..TOP are levels of a DAG, each cut into chunks; chunk k of block b holds
``values[b][k] = (b + 1) * (k + 1) + sum of every value of the blocks above b``, so each chunk
reads every higher block, like a score level reads the levels above it. The reference is the
same sum in memory; every path of the runtime (serial, threads, a Dask LocalCluster, resumed,
with damaged or foreign chunks) must give exactly its numbers.
"""

from __future__ import annotations

import errno
import hashlib
import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from pigtheory.runtime import ChunkStore, Plan, StoreFull, StoreMismatch, run_chunks

TOP = 4
CHUNKS = {b: 1 + b % 3 for b in range(TOP + 1)}
ROWS = 3
KIND = "toy-levels"
SOLVE = {"top": TOP, "chunks": {str(b): n for b, n in CHUNKS.items()}}


def _reference() -> dict[tuple[int, int], np.ndarray]:
    out: dict[tuple[int, int], np.ndarray] = {}
    above = 0.0
    for b in range(TOP, -1, -1):
        level = 0.0
        for k in range(CHUNKS[b]):
            out[b, k] = np.full(ROWS, (b + 1) * (k + 1) + above, dtype=np.float64)
            level += out[b, k].sum()
        above += level
    return out


def _solve_chunk(folder: str, block: int, chunk: int) -> float:
    """One task: read every chunk of the blocks above (memory-mapped), write this one."""
    store = ChunkStore(folder, KIND)
    above = sum(
        float(store.read("value", b, k, (ROWS,), np.float64).sum())
        for b in range(block + 1, TOP + 1)
        for k in range(CHUNKS[b])
    )
    store.write_chunk(
        block, chunk, {"value": np.full(ROWS, (block + 1) * (chunk + 1) + above, dtype=np.float64)}
    )
    return above


def _plan(store: ChunkStore) -> Plan:
    reads = {(b, k): set(range(b + 1, TOP + 1)) for b in CHUNKS for k in range(CHUNKS[b])}
    return Plan(reads, CHUNKS, store.finished_chunks(list(reads)))


def _run(folder, executor=None, calls=None) -> ChunkStore:
    store = ChunkStore.create(folder, KIND, SOLVE)
    plan = _plan(store)

    def task(block, chunk):
        if calls is not None:
            calls.append((block, chunk))
        return lambda: _solve_chunk(str(store.folder), block, chunk)

    run_chunks(plan, task, lambda key, result, free: None, executor=executor, progress=False)
    return store


def _values(store: ChunkStore) -> dict[tuple[int, int], np.ndarray]:
    return {
        (b, k): np.array(store.read("value", b, k, (ROWS,), np.float64))
        for b in CHUNKS
        for k in range(CHUNKS[b])
    }


def _assert_reference(store: ChunkStore) -> None:
    ref, got = _reference(), _values(store)
    assert ref.keys() == got.keys()
    for key in ref:
        assert np.array_equal(ref[key], got[key]), key


def test_serial_and_threads_give_the_in_memory_numbers(tmp_path):
    _assert_reference(_run(tmp_path / "serial"))
    with ThreadPoolExecutor(2) as pool:
        _assert_reference(_run(tmp_path / "threads", pool))


def test_a_dask_local_cluster_gives_the_same_numbers(tmp_path, client):
    # two worker processes, one thread each (conftest): the chunks are written and read by
    # other processes than the one that plans them
    _assert_reference(_run(tmp_path / "dask", client))


def test_every_chunk_runs_after_all_it_reads(tmp_path):
    calls: list[tuple[int, int]] = []
    _run(tmp_path / "s", calls=calls)
    assert sorted(calls) == sorted((b, k) for b in CHUNKS for k in range(CHUNKS[b]))
    position = {key: i for i, key in enumerate(calls)}
    for (b, _k), i in position.items():
        assert all(position[a, j] < i for a in range(b + 1, TOP + 1) for j in range(CHUNKS[a]))


def test_a_resumed_solve_runs_only_the_unfinished_chunks(tmp_path):
    store = _run(tmp_path / "s")
    for key in ((0, 0), (1, 1)):
        store.discard(*key)  # as if killed before these were sealed
    calls: list[tuple[int, int]] = []
    _assert_reference(_run(tmp_path / "s", calls=calls))
    assert sorted(calls) == [(0, 0), (1, 1)]


def test_a_damaged_or_foreign_chunk_is_solved_again_never_read(tmp_path):
    store = _run(tmp_path / "s")
    path = store.path("value", 2, 0)
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0xFF  # one flipped byte in the data
    path.write_bytes(bytes(raw))
    assert "checksum" in store.verify(2, 0)
    other = _run(tmp_path / "other")  # the same solve, another store: its seal names another id
    (store.folder / "done" / "3.0.json").write_text(other.seal(3, 0).read_text())
    assert "another store" in store.verify(3, 0)
    calls: list[tuple[int, int]] = []
    _assert_reference(_run(tmp_path / "s", calls=calls))
    assert (2, 0) in calls and (3, 0) in calls
    assert all(store.verify(b, k) is None for b in CHUNKS for k in range(CHUNKS[b]))


def test_a_chunk_copied_over_another_is_solved_again(tmp_path):
    """A chunk's seal and parts copied onto another chunk's names (a file moved by hand): every
    checksum holds, but the seal names the chunk it came from, so the copy is not read."""
    store = _run(tmp_path / "s")
    for sub in store.folder.iterdir():
        src, dst = sub / "1.0.npy", sub / "1.1.npy"
        if src.exists():
            dst.write_bytes(src.read_bytes())
    store.seal(1, 1).write_text(store.seal(1, 0).read_text())
    assert "another chunk" in store.verify(1, 1)
    calls: list[tuple[int, int]] = []
    _assert_reference(_run(tmp_path / "s", calls=calls))
    assert calls == [(1, 1)]


def test_the_stores_own_files_carry_their_sha256_in_the_header(tmp_path):
    """:meth:`ChunkStore.save` returns the SHA-256 of the file it wrote; a header made with
    them names every file of the store's own that goes missing or changes."""
    probe = ChunkStore(tmp_path / "s")
    a, b = np.arange(12, dtype=np.int64), np.arange(5, dtype=np.int16)
    files = {"index/a": probe.save("index/a", a), "index/b": probe.save("index/b", b)}
    assert files["index/a"] == hashlib.sha256((tmp_path / "s" / "index" / "a.npy").read_bytes()).hexdigest()
    assert np.array_equal(np.load(tmp_path / "s" / "index" / "a.npy"), a)
    store = ChunkStore.create(tmp_path / "s", KIND, SOLVE, {"blocks": 1}, files)
    assert store.damaged_files() == []
    raw = bytearray((tmp_path / "s" / "index" / "a.npy").read_bytes())
    raw[-1] ^= 0x01
    (tmp_path / "s" / "index" / "a.npy").write_bytes(bytes(raw))
    assert store.damaged_files() == ["index/a"]
    (tmp_path / "s" / "index" / "b.npy").unlink()
    assert store.damaged_files() == ["index/a", "index/b"]
    with pytest.raises(ValueError, match="make must be a function of the damaged names"):
        store.mend_files({"index/a": a})  # type: ignore[arg-type]
    with pytest.raises(StoreMismatch, match="names index/b, which this solve does not write"):
        store.mend_files(lambda names: {"index/a": lambda: a})
    assert store.damaged_files() == ["index/a", "index/b"]  # nothing written
    with pytest.raises(StoreMismatch, match="index/b made again still differ"):
        store.mend_files(lambda names: {"index/a": lambda: a, "index/b": lambda: b + 1})
    fixed = store.mend_files(lambda names: {"index/a": lambda: a, "index/b": lambda: b})
    assert fixed == ["index/b"]  # index/a came out right the time before
    assert store.damaged_files() == [] and store.mend_files(lambda names: {}) == []
    # a header without files (a store of an earlier version): nothing to check
    assert _run(tmp_path / "old").damaged_files() == []
    with pytest.raises(ValueError, match="files must be a dict"):
        ChunkStore.create(tmp_path / "t", KIND, SOLVE, None, ["index/a"])  # type: ignore[arg-type]
    for hostile, words in (
        ({"../outside": "0" * 64}, "is not the name of a file inside the store"),
        ({"": "0" * 64}, "is not the name of a file inside the store"),
        ({"index/a": "zz"}, r"files\['index/a'\]: expected a SHA-256 in hex"),
        ({"index/a": 3}, r"files\['index/a'\]: expected a SHA-256 in hex"),
    ):
        with pytest.raises(ValueError, match=words):
            ChunkStore.create(tmp_path / "t", KIND, SOLVE, None, hostile)
    assert not (tmp_path / "t").exists()
    for hostile in ({"../../outside": "0" * 64}, {"/etc/passwd": "0" * 64}, ["index/a"]):
        header = json.loads((tmp_path / "s" / "store.json").read_text())
        header["files"] = hostile
        (tmp_path / "s" / "store.json").write_text(json.dumps(header))
        with pytest.raises(StoreMismatch, match="not names of files in it"):
            ChunkStore(tmp_path / "s").damaged_files()


def test_a_store_of_another_solve_is_refused_with_what_differs(tmp_path):
    _run(tmp_path / "s")
    with pytest.raises(StoreMismatch, match="top differ"):
        ChunkStore.create(tmp_path / "s", KIND, {**SOLVE, "top": TOP + 1})
    with pytest.raises(StoreMismatch, match="not a 'other-kind'"):
        _ = ChunkStore(tmp_path / "s", "other-kind").header
    with pytest.raises(ValueError, match="kind must be a string, got int"):
        ChunkStore(tmp_path / "s", 3)  # type: ignore[arg-type]
    header = json.loads((tmp_path / "s" / "store.json").read_text())
    (tmp_path / "s" / "store.json").write_text(json.dumps({**header, "format_version": 99}))
    with pytest.raises(StoreMismatch, match="is not a store of version 1"):
        _ = ChunkStore(tmp_path / "s").header
    (tmp_path / "s" / "store.json").write_text("[1]")
    with pytest.raises(StoreMismatch, match="is not a store of version 1"):
        _ = ChunkStore(tmp_path / "s").header
    (tmp_path / "s" / "store.json").write_text(json.dumps(header))  # the toy records no rules
    with pytest.raises(StoreMismatch, match="records no rules"):
        _ = ChunkStore(tmp_path / "s").rules
    for kind in ("", None):
        with pytest.raises(ValueError, match="kind must be a non-empty string"):
            ChunkStore.create(tmp_path / "t", kind, SOLVE)  # type: ignore[arg-type]
    assert not (tmp_path / "t").exists()
    with pytest.raises(StoreMismatch, match="no store"):
        _ = ChunkStore(tmp_path / "empty", KIND).header


def test_a_full_disk_stops_in_one_line_and_keeps_the_sealed_chunks(tmp_path, monkeypatch):
    import pigtheory.runtime.store as store_module

    real = store_module.atomic_write_buffers
    count = {"n": 0}

    def filling(path, buffers, **kw):
        if "value" in str(path):
            count["n"] += 1
            if count["n"] > 4:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, buffers, **kw)

    monkeypatch.setattr(store_module, "atomic_write_buffers", filling)
    with pytest.raises(StoreFull) as info:
        _run(tmp_path / "s")
    message = str(info.value)
    assert "\n" not in message and str(tmp_path / "s") in message and "full" in message
    store = ChunkStore(tmp_path / "s", KIND)
    sealed = [(b, k) for b in CHUNKS for k in range(CHUNKS[b]) if store.finished(b, k)]
    assert len(sealed) == 4 and all(store.verify(*key) is None for key in sealed)
    monkeypatch.setattr(store_module, "atomic_write_buffers", real)
    calls: list[tuple[int, int]] = []
    _assert_reference(_run(tmp_path / "s", calls=calls))
    assert not set(calls) & set(sealed)


def test_plan_refuses_blocks_it_does_not_know_and_reports_cycles(tmp_path):
    with pytest.raises(ValueError, match="not in chunks_per_block"):
        Plan({(0, 0): {7}}, {0: 1})
    cyclic = Plan({(0, 0): {1}, (1, 0): {0}}, {0: 1, 1: 1})
    with pytest.raises(RuntimeError, match="could never start"):
        run_chunks(cyclic, lambda b, k: lambda: None, lambda *a: None, progress=False)


def test_the_header_holds_the_solve_and_a_fresh_id(tmp_path):
    a = ChunkStore.create(tmp_path / "a", KIND, SOLVE, {"note": 1})
    b = ChunkStore.create(tmp_path / "b", KIND, SOLVE)
    header = json.loads((a.folder / "store.json").read_text())
    assert header["solve"] == SOLVE and header["extra"] == {"note": 1}
    assert a.header["id"] != b.header["id"]


def test_check_disk_counts_what_a_resumed_store_already_holds(tmp_path, monkeypatch):
    """A resume asks only for the room its remaining chunks take; a fresh folder asks for all."""
    import shutil
    from collections import namedtuple

    from pigtheory.guard import MemoryLimitError
    from pigtheory.runtime import check_disk

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 0, 1000))
    store = tmp_path / "store"
    with pytest.raises(MemoryLimitError, match="needs about .* on disk in .*only"):
        check_disk(store, 1500, "solve")
    (store / "sub").mkdir(parents=True)
    (store / "sub" / "chunk").write_bytes(b"x" * 600)
    check_disk(store, 1500, "solve")  # 900 still to write, 1000 free
    with pytest.raises(MemoryLimitError, match="holds 600 B already"):
        check_disk(store, 1700, "solve")
    with pytest.raises(ValueError, match="what must be a string naming the solve"):
        check_disk(store, 1500, 3)  # type: ignore[arg-type]


def test_a_chunk_is_written_as_npy_files_whose_seal_holds_for_any_array_layout(tmp_path):
    """The seal's checksums are taken from memory while writing: they must be the files'."""
    store = ChunkStore.create(tmp_path / "s", KIND, SOLVE)
    parts = {
        "empty": np.zeros((0, 3)),
        "strided": np.arange(12.0).reshape(3, 4)[:, ::2],  # not contiguous
        "bits": np.array([[True, False], [False, True]]),
        "small": np.arange(5, dtype=np.int8),
    }
    store.write_chunk(1, 0, parts)
    assert store.verify(1, 0) is None
    for part, array in parts.items():
        assert np.array_equal(np.load(store.path(part, 1, 0)), array)
        assert np.array_equal(store.read(part, 1, 0, array.shape, array.dtype), array)
    with open(store.path("strided", 1, 0), "r+b") as f:  # one byte changed: the seal no longer holds
        f.seek(-1, 2)
        last = f.read(1)
        f.seek(-1, 2)
        f.write(bytes([last[0] ^ 1]))
    assert "checksum" in store.verify(1, 0)


@pytest.mark.parametrize("content", [b"", b"\x93NUM", b"not a numpy file at all"])
def test_read_refuses_a_part_that_is_not_a_npy_file(tmp_path, content):
    store = ChunkStore.create(tmp_path / "s", KIND, SOLVE)
    store.write_chunk(1, 0, {"value": np.arange(3.0)})
    assert np.array_equal(store.read("value", 1, 0, (3,), np.float64), np.arange(3.0))
    store.path("value", 1, 0).write_bytes(content)
    with pytest.raises(ValueError, match="not a .npy file"):
        store.read("value", 1, 0, (3,), np.float64)


def test_read_refuses_a_part_of_another_dtype_or_cut_short(tmp_path):
    store = ChunkStore.create(tmp_path / "s", KIND, SOLVE)
    store.write_chunk(1, 0, {"value": np.arange(4.0)})
    path = store.path("value", 1, 0)
    whole = path.read_bytes()
    with pytest.raises(ValueError, match="does not hold int32"):
        store.read("value", 1, 0, (4,), np.int32)
    with pytest.raises(ValueError, match="shorter than its array"):
        store.read("value", 1, 0, (5,), np.float64)
    path.write_bytes(whole[:-8])  # the last number cut off
    with pytest.raises(ValueError, match="shorter than its array"):
        store.read("value", 1, 0, (4,), np.float64)
    assert np.array_equal(store.read("value", 1, 0, (3,), np.float64), np.arange(3.0))
