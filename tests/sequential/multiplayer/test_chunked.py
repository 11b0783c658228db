"""The chunked multiplayer equilibrium (:mod:`pigtheory.sequential.multiplayer.chunked`) against the
in-memory solve: the same bits on every array (values, roll bits, mixing probabilities,
enclosures, gains, NashConv) serially, on threads and on a Dask LocalCluster; its lookups; and
its faults (kill -9 and resume, damaged and foreign chunks, a store of other rules, a full disk).
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.runtime import StoreFull, StoreMismatch
from pigtheory.sequential import equilibrium
from pigtheory.sequential.multiplayer import group_store
from pigtheory.sequential.multiplayer.group_store import GroupStore

CASES = {
    "3p-g12": (Rules(players=3, goal=12), False, 8),
    "4p-g8": (Rules(players=4, goal=8), False, 8),
    "4p-g8-pass": (Rules(players=4, goal=8), True, 8),
    "5p-g6": (Rules(players=5, goal=6), False, 16),
    "3p-g30-d4": (Rules(players=3, goal=30, die_faces=4), False, 64),  # a quadratic mixed group
    "3p-g20-d3": (Rules(players=3, goal=20, die_faces=3), False, 32),  # a symmetric mixed group
    # 4 players who hold short of the goal: at goals up to 24 with a 6-face die the hold rows
    # decide no bit (all of them scaled by 1 + 1e-7 change nothing), here they do
    "4p-g16-d3": (Rules(players=4, goal=16, die_faces=3), False, 64),
}

ARRAYS = (
    "value",
    "mixed_groups",
    "several_groups",
    "several_counts",
    "mixed_enclosure",
    "value_enclosure",
    "deviation_gain",
    "seat_gain",
)


@cache
def in_memory(name):
    rules, allow_pass, _ = CASES[name]
    return equilibrium(rules=rules, allow_pass=allow_pass, threads=1, progress=False)


def chunked(name, folder, executor=None, spread=1):
    rules, allow_pass, chunk = CASES[name]
    return equilibrium(
        rules=rules,
        allow_pass=allow_pass,
        store=folder,
        chunk=chunk,
        executor=executor,
        spread=spread,
        progress=False,
    )


def assert_same_bits(name, ch):
    mem, full = in_memory(name), ch.in_memory()
    for field in ARRAYS:
        a, b = getattr(mem, field), getattr(full, field)
        assert a.shape == b.shape and a.dtype == b.dtype, field
        assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f"), field
    for field in ("roll_bits", "mixed_states", "mixed_prob"):
        assert np.array_equal(getattr(mem.policy, field), getattr(full.policy, field)), field
    assert mem.group_how == full.group_how == ch.group_how
    assert mem.nash_conv == ch.nash_conv == full.nash_conv
    assert mem.residual == ch.residual and mem.iterations == ch.iterations
    assert np.array_equal(mem.start_values, ch.start_values)


@pytest.mark.parametrize("name", sorted(CASES))
def test_serial_chunked_solve_is_the_in_memory_solve_bit_for_bit(tmp_path, name):
    ch = chunked(name, tmp_path / "s")
    assert_same_bits(name, ch)
    assert ch.n_tasks > 1


@pytest.mark.parametrize("name", ["3p-g30-d4", "3p-g20-d3", "4p-g16-d3"])
def test_without_the_certificate_the_same_bits(tmp_path, name):
    """``certify=False``: a task gathers the value rows alone (one part, not two), and the
    values, roll bits and mixing are still the in-memory solve's; no gains are stored. Cases
    where play holds short of the goal: at goals 8 and 12 it never does, and rows all scaled by
    1 + 1e-7 change no bit there (checked), where they fail every case here."""
    rules, allow_pass, chunk = CASES[name]
    kw = dict(rules=rules, allow_pass=allow_pass, certify=False, progress=False)
    mem = equilibrium(threads=1, **kw)
    ch = equilibrium(store=tmp_path / "u", chunk=chunk, **kw)
    full = ch.in_memory()
    assert np.array_equal(mem.value, full.value)
    for field in ("roll_bits", "mixed_states", "mixed_prob"):
        assert np.array_equal(getattr(mem.policy, field), getattr(full.policy, field)), field
    assert np.array_equal(mem.start_values, ch.start_values)
    assert np.isnan(ch.nash_conv) and np.isnan(mem.nash_conv)
    assert np.array_equal(mem.start_values, in_memory(name).start_values)  # the certificate changes no value
    with pytest.raises(ValueError, match="certify=False"):
        ch.array("gains")


def test_the_mixed_cases_do_mix():
    """The cases above cover the mixed solver and its enclosures (else they test less)."""
    assert in_memory("3p-g30-d4").group_how == ("closed form (quadratic)",)
    assert in_memory("3p-g30-d4").several_groups.shape[0] >= 1
    assert in_memory("3p-g20-d3").group_how[0].startswith("polynomial roots")
    assert np.all(np.isfinite(in_memory("3p-g20-d3").mixed_enclosure))


@pytest.mark.parametrize("name", ["4p-g8-pass", "3p-g30-d4"])
def test_a_thread_pool_gives_the_same_bits(tmp_path, name):
    with ThreadPoolExecutor(2) as pool:
        assert_same_bits(name, chunked(name, tmp_path / "t", executor=pool))


@pytest.mark.parametrize("name", ["4p-g8", "3p-g20-d3"])
def test_a_dask_local_cluster_gives_the_same_bits(tmp_path, client, name):
    assert_same_bits(name, chunked(name, tmp_path / "d", executor=client))


@pytest.mark.parametrize(("name", "spread"), [("5p-g6", 3), ("3p-g30-d4", 2), ("4p-g8-pass", 5)])
def test_score_sums_cut_for_the_workers_give_the_same_bits(tmp_path, name, spread):
    """``spread``: other chunks (more tasks, of equal size within a sum), the same numbers; on a
    thread pool of that many workers."""
    with ThreadPoolExecutor(spread) as pool:
        ch = chunked(name, tmp_path / "w", executor=pool, spread=spread)
    assert_same_bits(name, ch)
    assert ch.spread == spread and ch.n_tasks > chunked(name, tmp_path / "one").n_tasks
    st = GroupStore(tmp_path / "w")
    for s, size in st.sizes.items():
        rows = [st.rows(s, c) for c in range(st.n_chunks(s))]
        assert sum(rows) == size and min(rows) > 0 and max(rows) <= CASES[name][2]
        assert np.array_equal(np.concatenate([st.groups(s, c) for c in range(st.n_chunks(s))]), st.groups(s))
        assert len(set(rows[:-1])) <= 1 and rows[-1] <= rows[0]  # equal, the last within
    with pytest.raises(StoreMismatch, match="another solve.*spread"):
        chunked(name, tmp_path / "w", spread=1)


def test_lookups_read_the_store_as_the_in_memory_result(tmp_path):
    name = "3p-g30-d4"
    mem, ch = in_memory(name), chunked(name, tmp_path / "s")
    g, n = mem.rules.goal, mem.rules.players
    rng = np.random.default_rng(3)
    tuples = [tuple(t) for t in rng.integers(0, g, size=(40, n))] + [
        tuple(s[:n]) for s in mem.policy.mixed_states
    ]
    for t in tuples:
        assert np.array_equal(ch.value_at(t), mem.value[t])
        assert np.array_equal(ch.policy.roll_probability(t), mem.policy.roll_probability(t))
        assert ch.policy.hold_threshold(t) == mem.policy.hold_threshold(t)
    assert ch.opening_threshold == mem.opening_threshold
    assert 0 < ch.start_values.sum() <= 1 + 1e-12
    with pytest.raises(ValueError, match="scores"):
        ch.value_at((0,) * (n + 1))
    pytest.importorskip("pandas")
    assert len(ch.in_memory().to_frame()) == len(mem.to_frame())


def test_one_array_whole_is_the_in_memory_array(tmp_path):
    """``array(part)``: what a large store's digests read, one part at a time."""
    name = "3p-g30-d4"
    mem, ch = in_memory(name), chunked(name, tmp_path / "s")
    assert np.array_equal(ch.array("value"), mem.value)
    assert np.array_equal(ch.array("bits"), mem.policy.roll_bits)
    assert np.array_equal(ch.array("gains"), mem.deviation_gain, equal_nan=True)
    with pytest.raises(ValueError, match="part must be one of value, bits, gains"):
        ch.array("roll_bits")


def test_a_store_of_other_rules_is_refused(tmp_path):
    chunked("4p-g8", tmp_path / "s")
    with pytest.raises(StoreMismatch, match="another solve.*rules"):
        equilibrium(rules=Rules(players=4, goal=9), store=tmp_path / "s", chunk=8, progress=False)
    with pytest.raises(StoreMismatch, match="another solve.*allow_pass"):
        equilibrium(
            rules=Rules(players=4, goal=8), allow_pass=True, store=tmp_path / "s", chunk=8, progress=False
        )


def _sealed(folder):
    return sorted((folder / "done").glob("[!.]*.json"))  # not a killed writer's temporary file


def _log(folder):
    return [json.loads(x) for x in (folder / "tasks.jsonl").read_text().splitlines()]


def test_damaged_and_foreign_chunks_are_solved_again_never_read(tmp_path):
    name = "4p-g8"
    a, b = tmp_path / "a", tmp_path / "b"
    chunked(name, a)
    chunked(name, b)
    st = GroupStore(a)
    top = max(st.sizes)
    # damage: one byte of a high level's values (read by every level below)
    path = st.path("value", top - 1, 0)
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0xFF
    path.write_bytes(bytes(raw))
    # foreign: another store's chunk and seal (the same solve, another store id)
    mid = sorted(st.sizes)[len(st.sizes) // 2]
    for part in ("value", "bits", "U", "gains"):
        os.replace(GroupStore(b).path(part, mid, 0), st.path(part, mid, 0))
    os.replace(GroupStore(b).seal(mid, 0), st.seal(mid, 0))
    before = len(_log(a))
    assert_same_bits(name, chunked(name, a))
    redone = {(r["block"], r["chunk"]) for r in _log(a)[before:]}
    assert redone == {(top - 1, 0), (mid, 0)}


def _damage(path):
    raw = np.load(path)
    np.save(path, raw[::-1].copy())  # the same size and type, every row in another place


def test_a_damaged_or_missing_index_file_is_made_again_before_any_task_reads_it(tmp_path):
    """The group lists and rank tables every task reads have their SHA-256 in the header: a
    resumed solve writes the damaged or missing ones again before the chunks that read them
    run, and gets the in-memory bits (here, without the check, the damaged table changes
    them: the players of this case hold short of the goal, so the rows read decide bits)."""
    name = "3p-g20-d3"
    folder = tmp_path / "s"
    chunked(name, folder)
    st = GroupStore(folder)
    sums = sorted(st.sizes)
    mid = sums[len(sums) // 2]
    _damage(folder / "index" / f"{mid}.npy")  # a group list the chunks of mid solve
    _damage(folder / "index" / f"rank{mid + 2}.npy")  # a rank table the chunks below read
    (folder / "index" / f"rank{mid + 3}.npy").unlink()
    assert st.damaged_files() == sorted([f"index/{mid}", f"index/rank{mid + 2}", f"index/rank{mid + 3}"])
    for s in sums[: sums.index(mid) + 1]:  # every chunk at or below mid solved again
        for c in range(st.n_chunks(s)):
            st.discard(s, c)
    group_store._INDEX.clear()  # as a new process: no group list read before
    again = chunked(name, folder)
    assert GroupStore(folder).damaged_files() == []
    assert_same_bits(name, again)


def test_an_index_that_cannot_be_made_again_refuses_the_store(tmp_path):
    """A header whose SHA-256 of an index file no file of these rules has (a header edited by
    hand): the store is refused, naming the file, and nothing is solved."""
    folder = tmp_path / "s"
    chunked("4p-g8", folder)
    header = json.loads((folder / "store.json").read_text())
    name = sorted(header["files"])[0]
    header["files"][name] = "0" * 64
    (folder / "store.json").write_text(json.dumps(header))
    before = len(_log(folder))
    with pytest.raises(StoreMismatch, match=name):
        chunked("4p-g8", folder)
    header["files"] = {"index/rank999": "0" * 64}  # a file this solve does not write
    (folder / "store.json").write_text(json.dumps(header))
    with pytest.raises(StoreMismatch, match="index/rank999, which this solve does not write"):
        chunked("4p-g8", folder)
    assert len(_log(folder)) == before and not (folder / "index" / "rank999.npy").exists()


def test_the_certificate_reads_the_best_response_rows_of_the_sums_above(tmp_path):
    """At an equilibrium a lone deviator's best-response values equal the equilibrium's, so a
    task that read its hold rows of ``U`` from the ``value`` files would pass every bit-for-bit
    test. Here every ``U`` above the lowest score sum is scaled by 1 + 1e-6 (and sealed again):
    solving the lowest sum again must change its ``U`` and leave its values and roll bits
    (players who hold short of the goal: with a 6-face die at goal 12 the first player rolls
    on to the goal, and the rows above decide nothing there)."""
    folder = tmp_path / "s"
    chunked("3p-g20-d3", folder)
    st = GroupStore(folder)
    low = min(st.sizes)
    before = {p: np.array(st.read_part(p, low, 0)) for p in ("value", "bits", "U")}
    for s in st.sizes:
        for c in range(st.n_chunks(s) if s > low else 0):
            names = json.loads(st.seal(s, c).read_text())["parts"]
            parts = {p: np.array(st.read_part(p, s, c)) for p in names}
            parts["U"] = parts["U"] * (1 + 1e-6)
            st.write_chunk(s, c, parts)
    st.discard(low, 0)
    chunked("3p-g20-d3", folder)
    after = {p: np.array(GroupStore(folder).read_part(p, low, 0)) for p in ("value", "bits", "U")}
    assert np.array_equal(before["value"], after["value"]) and np.array_equal(before["bits"], after["bits"])
    assert not np.array_equal(before["U"], after["U"])
    assert np.abs(after["U"] / before["U"] - 1).max() < 2e-6


def test_a_full_disk_stops_in_one_line_and_keeps_the_finished_chunks(tmp_path, monkeypatch):
    import pigtheory.runtime.store as store_module

    real = store_module.atomic_write_buffers
    count = {"n": 0}

    def filling(path, buffers, **kw):
        if "/value/" in str(path):
            count["n"] += 1
            if count["n"] > 5:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, buffers, **kw)

    monkeypatch.setattr(store_module, "atomic_write_buffers", filling)
    folder = tmp_path / "s"
    with pytest.raises(StoreFull) as info:
        chunked("4p-g8", folder)
    message = str(info.value)
    assert "\n" not in message and str(folder) in message and "full" in message
    st = GroupStore(folder)
    sealed = [(int(p.stem.split(".")[0]), int(p.stem.split(".")[1])) for p in _sealed(folder)]
    assert len(sealed) == 5 and all(st.verify(*key) is None for key in sealed)
    monkeypatch.setattr(store_module, "atomic_write_buffers", real)
    before = len(_log(folder))
    assert_same_bits("4p-g8", chunked("4p-g8", folder))
    assert not {(r["block"], r["chunk"]) for r in _log(folder)[before:]} & set(sealed)


_KILLED = """
import sys, time
import pigtheory.sequential.multiplayer.chunk_task as ct
from pigtheory import Rules
from pigtheory.sequential import equilibrium
real = ct.solve_chunk
def slow(*args):
    time.sleep(0.05)
    return real(*args)
ct.solve_chunk = slow
equilibrium(rules=Rules(players=4, goal=8), store=sys.argv[1], chunk=8, progress=False)
"""


def test_kill_9_of_the_client_resumes_from_the_finished_chunks(tmp_path):
    folder = tmp_path / "s"
    chunked("4p-g8", tmp_path / "fresh")
    n_tasks = len(_sealed(tmp_path / "fresh"))
    proc = subprocess.Popen([sys.executable, "-c", _KILLED, str(folder)])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(_sealed(folder)) < n_tasks // 3:
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    sealed = {tuple(int(x) for x in p.stem.split(".")) for p in _sealed(folder)}
    assert 0 < len(sealed) < n_tasks
    before = len(_log(folder)) if (folder / "tasks.jsonl").exists() else 0
    assert_same_bits("4p-g8", chunked("4p-g8", folder))
    resolved = {(r["block"], r["chunk"]) for r in _log(folder)[before:]}
    assert len(resolved) == n_tasks - len(sealed) and not resolved & sealed


def _slow_tasks():  # run on each Dask worker: its chunk tasks take 50 ms more
    import pigtheory.sequential.multiplayer.chunk_task as ct

    real = ct.solve_chunk

    def slow(*args):
        time.sleep(0.05)
        return real(*args)

    ct.solve_chunk = slow


def test_kill_9_of_a_dask_worker_mid_solve_gives_the_same_bits(tmp_path):
    """One of two Dask workers killed with SIGKILL while the solve runs: its nanny starts it
    again, Dask gives the lost task to a worker, and the solve ends with the in-memory bits;
    no chunk sealed before the kill is solved again."""
    distributed = pytest.importorskip("distributed")
    import threading

    folder = tmp_path / "s"
    chunked("4p-g8", tmp_path / "fresh")
    n_tasks = len(_sealed(tmp_path / "fresh"))
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        client.run(_slow_tasks)
        victim = sorted(client.run(os.getpid).values())[0]
        killed: dict[str, object] = {}

        def kill_when_a_third_is_sealed():
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and len(_sealed(folder)) < n_tasks // 3:
                time.sleep(0.005)
            killed["sealed"] = {tuple(int(x) for x in p.stem.split(".")) for p in _sealed(folder)}
            os.kill(victim, signal.SIGKILL)

        watcher = threading.Thread(target=kill_when_a_third_is_sealed)
        watcher.start()
        try:
            eq = chunked("4p-g8", folder, executor=client)
        finally:
            watcher.join()
        assert victim not in client.run(os.getpid).values()  # the worker was killed
    sealed = killed["sealed"]
    assert 0 < len(sealed) < n_tasks
    assert_same_bits("4p-g8", eq)
    log = _log(folder)
    assert len(log) >= n_tasks and {(r["block"], r["chunk"]) for r in log} == {
        tuple(int(x) for x in p.stem.split(".")) for p in _sealed(tmp_path / "fresh")
    }
    assert all(sum((r["block"], r["chunk"]) == key for r in log) == 1 for key in sealed)


def test_lookups_refuse_scores_outside_the_game(tmp_path):
    """The chunked result's and its policy's lookups name the scores they take, for tuples of
    the wrong length or with a score outside 0..goal - 1 (numpy's index error before)."""
    eq = chunked("3p-g12", tmp_path / "s")
    for bad in ((12, 0, 0), (0, -1, 0), (0, 0)):
        for lookup in (eq.value_at, eq.policy.roll_probability):
            with pytest.raises(ValueError, match=r"scores: 3 scores each in 0\.\.11 needed"):
                lookup(bad)


def test_bad_arguments_are_refused_before_any_work(tmp_path):
    with pytest.raises(ValueError, match="store="):
        equilibrium(rules=Rules(players=3, goal=6), chunk=4)
    with pytest.raises(ValueError, match="chunk"):
        equilibrium(rules=Rules(players=3, goal=6), store=tmp_path / "s", chunk=0)
    with pytest.raises(ValueError, match="store="):
        equilibrium(rules=Rules(players=3, goal=6), spread=2)
    for bad in (0, 2.5, "2", True):
        with pytest.raises(ValueError, match="spread"):
            equilibrium(rules=Rules(players=3, goal=6), store=tmp_path / "s", spread=bad)
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("chunk", [2, 1000])
def test_the_copied_hold_rows_are_the_stores_rows_found_another_way(tmp_path, chunk):
    """``hold_rows`` (rank tables, holds sorted by their rows' places, rows copied from the
    mapped files) gives, for every hold ``1 <= k < g - first`` of every rotation of every group,
    the row that ``GroupStore.gather`` finds for the held tuple by another route (canonical
    rotation and a binary search of the group list, Python), and zeros elsewhere; in chunks of 2
    groups (many files a sum, out of order) and of 1,000 (one file a sum)."""
    from pigtheory.sequential.multiplayer import chunk_task

    equilibrium(rules=Rules(players=4, goal=8), store=tmp_path / "s", chunk=chunk, progress=False)
    st = GroupStore(tmp_path / "s")
    n, g = 4, 8
    checked = 0
    for block in range(4, 16):
        for c in range(0, st.n_chunks(block), 3):
            groups = np.ascontiguousarray(st.groups(block, c))
            rid, first = chunk_task._layout(groups, n, g)
            rows = chunk_task.hold_rows(st, ("value", "U"), rid, first)
            want = [np.zeros_like(rows[0]), np.zeros_like(rows[1])]
            for t in range(groups.size):
                for r in range(n):
                    # the tuple before the hold: the others' scores in turn order, the mover's last
                    x = int(rid[t, r]) % g ** (n - 1) * g + int(first[t, r])
                    for k in range(1, g - int(first[t, r])):
                        for part, out in zip(("value", "U"), want, strict=True):
                            out[t, r, k] = st.gather(part, np.array([x + k]))[0]
                        checked += 1
            assert all(np.array_equal(a, b) for a, b in zip(rows, want, strict=True))
    assert checked > 500


@pytest.mark.parametrize("top", [1, 2000, 5_000_000])
def test_holds_by_place_is_a_stable_sort_of_the_holds_by_place(top):
    """Its radix passes (11 bits each: one, two or three here) against numpy's stable sort."""
    from pigtheory.jit import compiled
    from pigtheory.sequential.multiplayer import chunk_kernels as ck

    rng = np.random.default_rng(top)
    n, g, k = 4, 30, 7
    first = rng.integers(0, g, size=(500, n))
    pos = rng.integers(0, top, size=(500, n))
    order = compiled(ck.holds_by_place)(first, n, g, k, pos)
    held = np.flatnonzero((k < g - first).ravel())
    want = held[np.argsort(pos.ravel()[held], kind="stable")]
    assert 0 < held.size < first.size and np.array_equal(order, want)
