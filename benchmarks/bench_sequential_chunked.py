"""Benchmark: the chunked multiplayer sequential equilibrium (issue 37) against the in-memory one.

Targets, each a ratio measured in one run:

* 4 players at goal 50 (``--full``; goal 30 quick): chunked on a 2-worker Dask ``LocalCluster``
  against the in-memory solve with 2 threads: wall time <= 1.3x, peak memory per worker <= 1/3
  of the in-memory process's (same start values and NashConv, checked);
* 5 players at goal 30 (``--full``; goal 14 quick): the scheduler's and the store's overhead
  (reading rows, writing chunks, the client) <= 20% of the tasks' own CPU (solve + certify);
  and, for the whole cost of going out of core, the serial chunked solve against the serial
  in-memory one (which does the same reads of the levels above inside its own time);
* resume after a kill at half way: the rest costs <= 60% of a fresh solve (a solve stopped
  after half its tasks by a task that raises, then resumed on the same folder);

and the plan's prediction (:func:`pigtheory.sequential.plan`) against each measured run.
The in-memory solve runs in a child process (its peak resident memory alone: ``VmHWM``, which
starts again at exec, where ``ru_maxrss`` keeps the peak of the process that started it, as
``make bench``'s runner after the earlier benchmarks).

``python benchmarks/bench_sequential_chunked.py [--full]``
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pigtheory import Rules  # noqa: E402
from pigtheory.sequential import equilibrium  # noqa: E402
from pigtheory.sequential.multiplayer.plan import plan  # noqa: E402

_IN_MEMORY = """
import json, sys, time
from pigtheory import Rules
from pigtheory.runtime import peak_mb
from pigtheory.sequential import equilibrium
n, g, threads = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
t, c = time.perf_counter(), time.process_time()
eq = equilibrium(rules=Rules(players=n, goal=g), threads=threads, progress=False)
print(json.dumps({"wall": time.perf_counter() - t, "cpu": time.process_time() - c,
                  "peak_mb": peak_mb(),  # VmHWM: ru_maxrss would keep a large parent's peak across exec
                  "start": eq.start_values.tolist(), "nash_conv": eq.nash_conv}))
"""


def in_memory(n: int, g: int, threads: int = 2) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _IN_MEMORY, str(n), str(g), str(threads)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def records(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "tasks.jsonl").read_text().splitlines()]


WORKER_MEMORY = "3GiB"
"""The workers' memory the plan's chunks are sized for (``--worker-memory`` of the CLI)."""


def plan_chunk(n: int, g: int, workers: int = 1) -> tuple[int, int]:
    """The plan's chunk and spread for ``workers`` workers of :data:`WORKER_MEMORY` (the least
    predicted wall time among chunks filling at most half of one, the score sums cut for one
    worker or for all; on one worker, the largest)."""
    p = plan(rules=Rules(players=n, goal=g), workers=workers, worker_memory=WORKER_MEMORY)
    return p.chunk, p.spread


def _chunks_text(chunk: int | None, spread: int = 1) -> str:
    if chunk is None:
        return "the default, 64 MiB of gathered rows"
    cut = f", the score sums cut for {spread} workers" if spread > 1 else ""
    return f"the plan's for {WORKER_MEMORY} workers, {chunk} groups{cut}"


def chunked(n: int, g: int, folder: Path, executor=None, chunk: int | None = None, spread: int = 1) -> dict:
    t, c = time.perf_counter(), time.process_time()
    eq = equilibrium(
        rules=Rules(players=n, goal=g),
        store=folder,
        executor=executor,
        chunk=chunk,
        spread=spread,
        progress=False,
    )
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    recs = records(folder)
    disk = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    return {
        "wall": wall,
        "client_cpu": cpu,
        "tasks": len(recs),
        "task_cpu": sum(r["cpu_s"] for r in recs),
        "compute_s": sum(r["solve_s"] + r["certify_s"] for r in recs),
        "io_s": sum(r["read_s"] + r["write_s"] for r in recs),
        "task_s": sum(r["seconds"] for r in recs),
        "peak_mb": max(r["peak_mb"] for r in recs),
        "disk": disk,
        "start": eq.start_values.tolist(),
        "nash_conv": eq.nash_conv,
        "opening": eq.opening_threshold,
        "mixed": len(eq.mixed_groups),
    }


def cluster_vs_memory(n: int, g: int, chunk: int | None = None, spread: int = 1) -> None:
    import distributed

    mem = in_memory(n, g)
    with (
        tempfile.TemporaryDirectory() as d,
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        ch = chunked(n, g, Path(d), client, chunk, spread)
    print(f"[chunks: {_chunks_text(chunk, spread)}]")
    p = plan(rules=Rules(players=n, goal=g), workers=2, chunk=chunk, spread=spread)  # the chunks solved in
    same = np.array_equal(mem["start"], ch["start"]) and mem["nash_conv"] == ch["nash_conv"]
    print(f"{n} players goal {g}: in memory (2 threads) {mem['wall']:.1f} s wall, {mem['peak_mb']:.0f} MB;")
    print(
        f"  chunked on a 2-worker LocalCluster {ch['wall']:.1f} s wall, {ch['peak_mb']:.0f} MB per worker, "
        f"{ch['tasks']} tasks, {ch['disk'] / 2**20:.0f} MiB on disk; same start values and NashConv: {same}"
    )
    print(
        f"  ratios: wall {ch['wall'] / mem['wall']:.2f}x (target <= 1.3), memory per worker "
        f"{ch['peak_mb'] / mem['peak_mb']:.2f} (target <= 0.33)"
    )
    print(
        f"  plan: {p.wall_hours * 3600:.1f} s wall on 2 workers, {p.cpu_hours * 3600:.1f} s CPU "
        f"(measured task CPU {ch['task_cpu']:.1f} s), {p.disk_bytes / 2**20:.0f} MiB disk, "
        f"{p.worker_memory_bytes / 2**20:.0f} MiB per worker"
    )
    print(
        "  start values",
        [round(x, 6) for x in ch["start"]],
        "opening",
        ch["opening"],
        "mixed groups",
        ch["mixed"],
    )


_SERIAL: dict[tuple[int, int], dict] = {}
"""The serial in-memory solve of each game :func:`overhead` compares against, made once."""


def overhead(n: int, g: int, chunk: int | None = None) -> None:
    with tempfile.TemporaryDirectory() as d:
        ch = chunked(n, g, Path(d), chunk=chunk)
    print(f"[chunks: {_chunks_text(chunk)}]")
    own = ch["compute_s"]
    over = ch["wall"] - own
    print(
        f"{n} players goal {g}, serial: wall {ch['wall']:.1f} s, tasks' solve + certify {own:.1f} s, "
        f"reading and writing {ch['io_s']:.1f} s, the rest (client, scheduler) {over - ch['io_s']:.1f} s: "
        f"overhead {over / own:.0%} of the tasks' own time (target <= 20%)"
    )
    # the whole cost of going out of core: against the in-memory solve, serial (solved once)
    if (n, g) not in _SERIAL:
        _SERIAL[n, g] = in_memory(n, g, threads=1)
    mem = _SERIAL[n, g]
    print(
        f"  in memory, 1 thread: {mem['wall']:.1f} s wall; the chunked solve takes "
        f"{ch['wall'] / mem['wall']:.2f}x (the gather's reads are inside the in-memory solve's own time)"
    )


def resume(n: int, g: int) -> None:
    import pigtheory.sequential.multiplayer.chunk_task as ct

    with tempfile.TemporaryDirectory() as d:
        fresh = chunked(n, g, Path(d) / "fresh")
        real, count = ct.solve_chunk, {"n": 0}

        def stopping(*args):
            count["n"] += 1
            if count["n"] > fresh["tasks"] // 2:
                raise KeyboardInterrupt
            return real(*args)

        ct.solve_chunk = stopping
        try:
            equilibrium(rules=Rules(players=n, goal=g), store=Path(d) / "r", progress=False)
        except KeyboardInterrupt:
            pass
        finally:
            ct.solve_chunk = real
        t = time.perf_counter()
        equilibrium(rules=Rules(players=n, goal=g), store=Path(d) / "r", progress=False)
        rest = time.perf_counter() - t
    print(
        f"{n} players goal {g}: stopped after half the tasks, the rest took {rest:.1f} s against "
        f"{fresh['wall']:.1f} s fresh: {rest / fresh['wall']:.0%} (target <= 60%)"
    )


def main(argv: list[str] | None = None) -> None:
    full = "--full" in (argv if argv is not None else sys.argv[1:])
    print(f"[peak memory so far {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB]")
    g4, g5 = (50, 30) if full else (30, 14)
    cluster_vs_memory(4, g4)
    cluster_vs_memory(4, g4, *plan_chunk(4, g4, workers=2))
    overhead(5, g5)
    overhead(5, g5, plan_chunk(5, g5)[0])  # one worker: spread 1
    resume(4, 50 if full else 30)


if __name__ == "__main__":
    main()
