"""Benchmark: sweeps on a 2-worker Dask LocalCluster against this process, and the chunked
5-player solve.

Prints, each in one run of this process (the machine's load average beside it, since the
cores may be shared):

* the 3-player 11 x 11 grid of Fig. 6 (66 exact best responses, goal 100) and the two-player
  sweep of Table S1 (31 best responses): serial here, then on a ``LocalCluster`` of 2 worker
  processes (one thread each), as a speed-up; both warm (numba's kernels loaded in every
  process before timing), the cluster's start-up given apart; the tables must be equal bit
  for bit;
* the chunked level solve (:func:`pigtheory.simultaneous.chunked_best_response`) of 5 players
  against "hold at 25" four times on the same 2-worker cluster, each worker capped at 4 GiB:
  wall-clock time, states, tasks, each worker's own peak resident memory (``VmHWM``), bytes
  on disk (the largest the scratch :math:`A_t` files reached, sampled), seconds per level; and
  from those, the numbers for goal 100 (states, bytes, tasks, CPU time per level).

``python benchmarks/bench_parallel.py [--goal G] [--skip-sweeps] [--keep DIR]``: the 5-player
goal (default 60, about a minute; ``--goal 100`` is the full showcase, several minutes), and
``--keep`` leaves the store in DIR.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import threading
import time
from collections import defaultdict
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from pigtheory import Rules, hold_at
from pigtheory.parallel import local_cluster
from pigtheory.simultaneous import chunked_best_response, hold_at_sweep
from pigtheory.simultaneous.nplayer.chunked import store_summary
from pigtheory.simultaneous.sweeps.grid import hold_at_grid
from pigtheory.simultaneous.sweeps.sweep import start_value

MB = 2**20


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def warm() -> None:
    """Load numba's kernels (two-player, n-player, chunked) in this process."""
    start_value((3,), rules=Rules(goal=8))
    start_value((3, 3), rules=Rules(goal=8, players=3), engine="numba")
    with tempfile.TemporaryDirectory() as folder:
        chunked_best_response([hold_at(3)] * 2, rules=Rules(goal=6, players=3), store=folder)


def timed(fn: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def sweeps(client: Any) -> dict[str, float]:
    out = {}
    for name, run in (
        ("3-player grid 11 x 11, goal 100 (66 solves)", lambda ex: hold_at_grid(executor=ex).value),
        (
            "2-player sweep n = 10..40, goal 100 (31 solves)",
            lambda ex: hold_at_sweep(range(10, 41), executor=ex).value,
        ),
    ):
        print(f"{name}  [{load()}]")
        c0 = time.process_time()
        t_serial, a = timed(lambda run=run: run(None))
        c_serial = time.process_time() - c0
        w0 = client.run(time.process_time)
        t_dask, b = timed(lambda run=run: run(client))
        w1 = client.run(time.process_time)
        busy = [w1[w] - w0[w] for w in w0]
        same = bool(np.array_equal(a, b))
        print(f"  serial, this process      {t_serial:8.2f} s   CPU {c_serial:.2f} s")
        print(
            f"  LocalCluster, 2 workers   {t_dask:8.2f} s   CPU per worker "
            + ", ".join(f"{c:.2f}" for c in busy)
            + f" s   speed-up {t_serial / t_dask:.2f} x   same bits: {same}"
        )
        # What two idle cores would give: the serial CPU over the busier worker's. On a shared
        # machine the wall-clock ratio can fall far below it (Linux shares the CPU between
        # sessions, not processes: a session's two workers get one session's share).
        print(f"  bound on 2 idle cores (serial CPU / busier worker's CPU): {c_serial / max(busy):.2f} x")
        out[name.split(",")[0]] = t_serial / t_dask
    print(f"  [{load()}]")
    return out


def _sample_partials(folder: Path, stop: threading.Event, peak: list[int]) -> None:
    while not stop.wait(0.5):
        sub = folder / "partial"
        try:
            peak[0] = max(peak[0], sum(f.stat().st_size for f in sub.glob("*.npy")))
        except OSError:
            pass  # a file removed while listed


def showcase(client: Any, goal: int, keep: str | None) -> dict[str, float]:
    players, m = 5, 4
    rules = Rules(goal=goal, players=players)
    folder = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="pig-chunked-"))
    stop, peak_partials = threading.Event(), [0]
    sampler = threading.Thread(target=_sample_partials, args=(folder, stop, peak_partials), daemon=True)
    print(f"5 players at goal {goal} against hold at 25 x 4, chunked on 2 workers  [{load()}]")
    sampler.start()
    try:
        t, sol = timed(
            lambda: chunked_best_response([hold_at(25)] * m, rules=rules, store=folder, executor=client)
        )
    finally:
        stop.set()
        sampler.join()
    summary = store_summary(folder)
    tasks = summary["tasks"]
    disk = summary["bytes"]
    per_worker: dict[int, float] = defaultdict(float)
    for r in tasks:
        per_worker[r["pid"]] = max(per_worker[r["pid"]], r["peak_mb"])
    by_level: dict[int, float] = defaultdict(float)
    for r in tasks:
        by_level[r["level"]] += r["seconds"]
    cpu = sum(r["seconds"] for r in tasks)
    levels = np.array(list(by_level.values()))
    print(f"  value at the start {sol.value_start:.10f}, threshold {sol.policy_start}")
    print(f"  wall-clock {t:8.1f} s, task seconds {cpu:.1f} (both workers)   [{load()}]")
    print(f"  states {sol.n_states:,} (full game {goal**players:,}), columns {sol.n_columns:,}")
    print(f"  tasks {sol.n_tasks:,} of {sol.chunk:,} columns at most, levels {len(by_level)}")
    print(
        "  peak resident memory per worker (VmHWM): " + ", ".join(f"{v:.0f} MB" for v in per_worker.values())
    )
    print(
        f"  on disk: values {disk['value'] / MB:.0f} MB, policies {disk['policy'] / MB:.0f} MB, "
        f"index {disk['index'] / MB:.0f} MB; scratch A_t at most {peak_partials[0] / MB:.0f} MB (sampled)"
    )
    print(
        f"  task seconds per level: median {np.median(levels):.2f}, max {levels.max():.2f}, "
        f"mean {levels.mean():.2f}"
    )
    for target in (5, 6):
        extrapolate(target, 100, players, goal, sol.n_states, cpu)
    if not keep:
        shutil.rmtree(folder, ignore_errors=True)
    return {"showcase_s": t, "showcase_peak_mb": max(per_worker.values()), "showcase_tasks": sol.n_tasks}


def extrapolate(players: int, goal: int, players0: int, goal0: int, states0: int, cpu0: float) -> None:
    """Print the size of a larger chunked solve, from one measured (``states0`` states,
    ``cpu0`` task seconds). Rough linear model: task CPU per state grows like the goal (the
    thresholds scanned per own score) times the opponents (the rows read per column)."""
    m, m0 = players - 1, players0 - 1
    states = goal * comb(goal - 1 + m, m)
    columns = comb(goal + m, m)
    chunk = (64 * MB) // (m * (goal + 1) * 8)  # the default
    levels = m * goal + 1
    cpu = cpu0 * states / states0 * (goal * m) / (goal0 * m0)
    kept = columns * ((goal + 1) * 8 + goal)  # values (float64) and policies (one byte)
    print(
        f"  {players} players at goal {goal}: states {states:,}, columns {columns:,}, values + policies "
        f"{kept / 2**30:.1f} GiB on disk, about {columns // chunk + 2 * levels:,} tasks of at most "
        f"{chunk:,} columns ({chunk * m * (goal + 1) * 8 / MB:.0f} MB out each), {levels} levels, "
        f"task CPU ~{cpu / 3600:.2f} h (~{cpu / levels:.0f} s per level, ~{cpu / 2 / 60:.0f} min on 2 workers)"
    )


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--goal", type=int, default=None, help="goal of the 5-player chunked solve (30; --full: 60)"
    )
    parser.add_argument("--full", action="store_true", help="the 5-player chunked solve at goal 60")
    parser.add_argument("--skip-sweeps", action="store_true")
    parser.add_argument("--keep", metavar="DIR", help="keep the 5-player store in DIR")
    args = parser.parse_args(argv or [])
    goal = args.goal if args.goal is not None else (60 if args.full else 30)
    out: dict[str, float] = {}
    warm()
    t0 = time.perf_counter()
    with local_cluster(2, memory_limit="4GiB") as client:
        client.run(warm)
        print(f"LocalCluster of 2 workers started and warmed in {time.perf_counter() - t0:.1f} s")
        if not args.skip_sweeps:
            out.update(sweeps(client))
        out.update(showcase(client, goal, args.keep))
    return out


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
