"""Scale runs of multiplayer sequential Pig (issue 21): one large solve, or the largest goal that
finishes within a time budget. Not part of ``make claims`` (minutes to hours; the leading
underscore keeps it out of ``analyses/run_all.py``).

Usage (from the repository root)::

    python -m analyses.multiplayer._scale_runs --players 4 --goal 100 --out runs/
    python -m analyses.multiplayer._scale_runs --players 5 --budget 600 --first-goal 20

The first form prints the memory estimate of :mod:`pigtheory.guard` (and refuses, like the
solver, past ``--max-memory``), solves, and reports wall-clock and CPU time, the peak resident
memory (``resource.getrusage``), the start values by seat, the opening threshold, the mixed
groups and the groups with several equilibria, the largest one-shot deviation gains (pure and
mixing tuples apart) and NashConv. With ``--out`` it writes a JSON summary and, with
``--save``, the start values and the packed roll bits as ``.npy`` files (``numpy.load(...,
mmap_mode="r")`` reads them without loading them), reporting their size on disk.

The second form solves goals from ``--first-goal`` up while the next goal's predicted CPU
time stays within ``--budget`` seconds: the cost of a goal is about ``goal ** (n + 1)``
(``goal ** n`` tuples, turns of up to ``goal`` turn totals), scaled from the last goal solved.

Memory: every score tuple holds ``8 n`` bytes of values, ``ceil(goal / 8)`` of roll bits and,
for the certificates, ``8 + 8 n`` more (deviation gains; the best-response values, freed before
the result is built): 4 players at goal 100 (10^8 tuples) need about 8.8 GB, in RAM on a
24 GiB machine. All levels stay in memory because a hold reaches up to ``goal - 1`` levels
above (a finished level is read until the levels ``goal`` below it are solved).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import time
from pathlib import Path

import numpy as np

from pigtheory import Rules
from pigtheory.guard import format_bytes, sequential_equilibrium_estimate
from pigtheory.sequential import equilibrium


def _peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def solve(n: int, goal: int, *, threads=1, certify=True, max_memory=None, out=None, save=False) -> dict:
    """Solve one game and return (and print) its summary."""
    rules = Rules(goal=goal, players=n)
    est = sequential_equilibrium_estimate(rules, certify=certify)
    print(f"{rules}: {goal**n:,} score tuples; estimated peak {format_bytes(est.bytes)}", flush=True)
    w0, c0 = time.perf_counter(), time.process_time()
    eq = equilibrium(rules=rules, certify=certify, max_memory=max_memory, threads=threads, progress=False)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    gains = np.array(eq.deviation_gain)
    mixed = np.zeros(gains.shape, dtype=bool)
    for row in eq.policy.mixed_states:
        mixed[tuple(int(x) for x in row[:n])] = True
    summary = {
        "players": n,
        "goal": goal,
        "tuples": goal**n,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "peak_rss_bytes": _peak_rss(),
        "estimate_bytes": est.bytes,
        "start_values": [float(v) for v in eq.start_values],
        "opening_threshold": eq.opening_threshold,
        "mixed_groups": int(len(eq.mixed_groups)),
        "several_groups": int(len(eq.several_groups)),
        "group_how": sorted(set(eq.group_how)),
        "max_gain_pure": float(np.nanmax(np.where(mixed, 0.0, gains))) if certify else None,
        "max_gain_mixed": float(np.nanmax(np.where(mixed, gains, 0.0))) if certify else None,
        "nash_conv": float(eq.nash_conv),
        "residual": float(eq.residual),
    }
    print(
        f"  wall {wall:.1f} s, cpu {cpu:.1f} s, peak RSS {format_bytes(summary['peak_rss_bytes'])}\n"
        f"  start values by seat {np.round(eq.start_values, 5).tolist()}, opening threshold "
        f"{eq.opening_threshold}, mixed groups {summary['mixed_groups']}, several "
        f"{summary['several_groups']}, max gain pure {summary['max_gain_pure']}, mixed "
        f"{summary['max_gain_mixed']}, NashConv {eq.nash_conv:.1e}",
        flush=True,
    )
    if out is not None:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        stem = f"seq_{n}p_goal{goal}"
        if save:
            need = eq.value.nbytes + eq.policy.roll_bits.nbytes
            free = shutil.disk_usage(out).free
            if need > free // 2:
                raise SystemExit(f"--save needs {format_bytes(need)}, {format_bytes(free)} free in {out}")
            np.save(out / f"{stem}_value.npy", eq.value)
            np.save(out / f"{stem}_roll_bits.npy", eq.policy.roll_bits)
            summary["disk_bytes"] = sum(
                (out / f"{stem}_{p}.npy").stat().st_size for p in ("value", "roll_bits")
            )
            print(f"  saved {format_bytes(summary['disk_bytes'])} to {out}")
        (out / f"{stem}.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def ladder(n: int, first_goal: int, budget: float, **kw) -> list[dict]:
    """Goals from ``first_goal`` up while the predicted CPU time of the next stays in ``budget``."""
    done = [solve(n, first_goal, **kw)]
    while done[-1]["cpu_s"] <= budget:
        goal, cpu = done[-1]["goal"], max(done[-1]["cpu_s"], 0.1)
        fits = [h for h in range(goal + 1, 2 * goal + 1) if cpu * (h / goal) ** (n + 1) <= budget]
        if not fits:
            print(f"  goal {goal + 1} predicted past the budget of {budget:.0f} s: stop", flush=True)
            break
        done.append(solve(n, fits[-1], **kw))
    return done


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--goal", type=int, help="one solve at this goal")
    parser.add_argument("--budget", type=float, help="CPU seconds: the largest goal that fits")
    parser.add_argument("--first-goal", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--no-certify", action="store_true")
    parser.add_argument("--max-memory")
    parser.add_argument("--out")
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args(argv)
    kw = dict(threads=args.threads, certify=not args.no_certify, max_memory=args.max_memory, out=args.out)
    if args.goal is not None:
        solve(args.players, args.goal, save=args.save, **kw)
    elif args.budget is not None:
        ladder(args.players, args.first_goal, args.budget, **kw)
    else:
        parser.error("give --goal or --budget")


if __name__ == "__main__":
    main()
