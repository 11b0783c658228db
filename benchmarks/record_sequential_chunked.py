"""Record one chunked multiplayer sequential solve (issue 37): its numbers, the plan's prediction,
and the SHA-256 of its arrays, as a record of ``analyses/records`` (read by
``make verify-large``, which checks the arrays against an in-memory solve where one fits).

``python benchmarks/record_sequential_chunked.py PLAYERS GOAL [--workers W] [--worker-memory 3GiB]
[--plan-chunks] [--compare] [--keep DIR [--resume]]``

* ``--workers 0``: serial, in this process (the tasks' own timings give the overhead);
  ``W >= 1``: a Dask ``LocalCluster`` of W one-thread workers with ``--worker-memory`` each;
* ``--plan-chunks``: chunks of the size the plan gives workers of ``--worker-memory`` (filling
  half of one: fewer, larger tasks, fewer chunk files per score sum), as ``pigtheory sequential
  --store --worker-memory`` does; without it, the default chunks (64 MiB of gathered rows);
* ``--compare``: also the in-memory solve with 2 threads in a child process (its wall time, peak
  memory, and whether the start values and NashConv are the same bits);
* the arrays' SHA-256 (``value``, ``roll_bits``: the digests of ``analyses.verify_large``) come
  from the store, each array loaded whole in this process in turn (skipped with ``--no-hash``;
  ``--max-memory 16G`` lets an array past half the available memory be read: 11.6 GiB of values
  at 5 players goal 50).

* ``--resume`` (with ``--keep``): solve on in a store that a killed run left (its finished
  chunks are kept and not solved again); the tasks' CPU and peak memory then count every run's
  tasks (``tasks.jsonl`` keeps them all), the wall time only this run's (the record says
  ``"resumed": true``).

Records are written as ``analyses/records/seq_<n>p_goal<g>_chunked.json``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def _load_avg() -> list[float]:
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except OSError:  # pragma: no cover
        return []


def run(
    n: int,
    g: int,
    workers: int,
    worker_memory: str,
    compare: bool,
    keep: str | None,
    hashes: bool,
    resume: bool = False,
    plan_chunks: bool = False,
    max_memory: str | None = None,
) -> dict:
    from bench_sequential_chunked import in_memory

    import pigtheory
    from analyses.verify_large import _machine, array_sha256
    from pigtheory import Rules
    from pigtheory.sequential import equilibrium
    from pigtheory.sequential.multiplayer.plan import plan

    rules = Rules(players=n, goal=g)
    folder = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="seqchunk-"))
    if not resume:
        shutil.rmtree(folder, ignore_errors=True)
    pl = plan(rules=rules, workers=max(workers, 1), worker_memory=worker_memory if plan_chunks else None)
    chunk = pl.chunk if plan_chunks else None
    spread = pl.spread if plan_chunks else 1
    load0 = _load_avg()
    t, c = time.perf_counter(), time.process_time()
    if workers:
        import distributed

        with (
            distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, memory_limit=worker_memory, dashboard_address=None
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            eq = equilibrium(
                rules=rules, store=folder, executor=client, chunk=chunk, spread=spread, progress=False
            )
    else:
        eq = equilibrium(rules=rules, store=folder, chunk=chunk, spread=spread, progress=False)
    wall, client_cpu = time.perf_counter() - t, time.process_time() - c
    load1 = _load_avg()
    recs = [json.loads(x) for x in (folder / "tasks.jsonl").read_text().splitlines()]
    task = {
        k: sum(r[k] for r in recs) for k in ("cpu_s", "read_s", "solve_s", "certify_s", "write_s", "seconds")
    }
    peak = {}
    for r in recs:
        peak[r["pid"]] = max(peak.get(r["pid"], 0.0), r["peak_mb"])
    disk = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    start = [float(v) for v in eq.start_values]
    out = {
        "format": 1,
        "name": f"seq_{n}p_goal{g}_chunked",
        "status": "recorded",
        "command": f"python benchmarks/record_sequential_chunked.py {n} {g} --workers {workers}"
        + (f" --worker-memory {worker_memory}" if workers or plan_chunks else "")
        + (" --plan-chunks" if plan_chunks else "")
        + (" --compare" if compare else "")
        + (f" --max-memory {max_memory}" if max_memory else ""),
        "rules": {"game": "sequential", "players": n, "goal": g, "die_faces": 6, "bust_face": 1},
        "package_version": pigtheory.__version__,
        "start_values": [round(v, 12) for v in start],
        "start_values_hex": [v.hex() for v in start],
        "opening_threshold": int(eq.opening_threshold),
        "mixed_groups": int(len(eq.mixed_groups)),
        "several_groups": int(len(eq.several_groups)),
        "certificate": {
            "nash_conv": float(eq.nash_conv),
            "max_deviation_gain": float(np.nanmax(eq.seat_gain)),
        },
        "chunked": {
            "resumed": resume,  # the wall time is then only the last run's
            "tuples": g**n,
            "workers": workers,
            "worker_memory": worker_memory if workers else None,
            "tasks": len(recs),
            "chunk": int(eq.chunk),
            **({"spread": int(eq.spread)} if eq.spread != 1 else {}),
            "disk_bytes": disk,
            "peak_mb_per_worker": round(max(peak.values()), 1),
            "task_cpu_s": round(task["cpu_s"], 2),
            "task_read_s": round(task["read_s"], 2),
            "task_write_s": round(task["write_s"], 2),
            "task_solve_certify_s": round(task["solve_s"] + task["certify_s"], 2),
            "client_cpu_s": round(client_cpu, 2),
            "overhead": round(
                (wall * max(workers, 1) - task["solve_s"] - task["certify_s"])
                / (task["solve_s"] + task["certify_s"]),
                3,
            )
            if not workers
            else None,
            "load_average": [load0, load1],
        },
        "predicted": {
            "wall_s": round(pl.wall_hours * 3600, 1),
            "cpu_s": round(pl.cpu_hours * 3600, 1),
            "disk_bytes": pl.disk_bytes,
            "worker_memory_bytes": pl.worker_memory_bytes,
            "tasks": pl.tasks,
        },
        # serial: the tasks ran in this process, whose CPU time counts them already
        "measured": {
            "wall_s": round(wall, 1),
            "cpu_s": round(task["cpu_s"] + client_cpu if workers else client_cpu, 1),
            # the largest process of the solve (a worker's, or the serial process's), as
            # verify_large's records give the peak of their one process
            "peak_rss_bytes": int(max(peak.values()) * 2**20),
            "machine": _machine(),
        },
        "sha256": {},
    }
    if compare:
        mem = in_memory(n, g)
        out["in_memory"] = {
            "threads": 2,
            "wall_s": round(mem["wall"], 1),
            "cpu_s": round(mem["cpu"], 1),
            "peak_mb": round(mem["peak_mb"], 1),
            "same_start_values": bool(np.array_equal(mem["start"], start)),
            "same_nash_conv": bool(mem["nash_conv"] == eq.nash_conv),
            "wall_ratio": round(wall / mem["wall"], 2),
            "memory_ratio": round(max(peak.values()) / mem["peak_mb"], 2),
        }
    if hashes:  # one array whole at a time (5 players at goal 50: 12.5 GB of values)
        out["sha256"] = {"value": array_sha256(eq.array("value", max_memory=max_memory))}
        out["sha256"]["roll_bits"] = array_sha256(eq.array("bits", max_memory=max_memory))
        out["certificate"]["max_deviation_gain"] = float(np.nanmax(eq.array("gains", max_memory=max_memory)))
    if not keep:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("players", type=int)
    ap.add_argument("goal", type=int)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--worker-memory", default="3GiB")
    ap.add_argument("--plan-chunks", action="store_true")
    ap.add_argument("--max-memory", default=None, help="for the digests: the largest array read whole")
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--keep", default=None)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--no-hash", dest="hashes", action="store_false")
    ap.add_argument("--out", default=str(ROOT / "analyses" / "records"))
    a = ap.parse_args(argv)
    if a.resume and not a.keep:
        ap.error("--resume needs --keep DIR (the store to solve on in)")
    rec = run(
        a.players,
        a.goal,
        a.workers,
        a.worker_memory,
        a.compare,
        a.keep,
        a.hashes,
        a.resume,
        a.plan_chunks,
        a.max_memory,
    )
    path = Path(a.out) / f"{rec['name']}.json"
    path.write_text(json.dumps(rec, indent=1, sort_keys=True) + "\n")
    print(
        json.dumps(
            {k: rec[k] for k in ("name", "start_values", "chunked", "predicted", "measured")}, indent=1
        )
    )
    if "in_memory" in rec:
        print(json.dumps(rec["in_memory"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
