"""``pigtheory sweep``: best responses over goals, players, dice and "hold at n" opponents.

Every point is a task (:mod:`pigtheory.simultaneous.sweeps.resumable`); ``--workers N`` runs them on a Dask cluster
of N local processes, ``--scheduler ADDRESS`` on a running Dask scheduler. With ``--out`` each
finished task is written to its own file, and running the same command again resumes.
"""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from typing import Any

from .args import int_range

PRESETS: dict[str, dict[str, list[int]]] = {
    "table-s1": {"goals": [100], "ns": list(range(10, 41)), "players": [2]},
    "fig6": {"goals": [100], "ns": list(range(20, 31)), "players": [3]},
}
"""Named sweeps of the paper: Fig. 2 / Table S1 (two players) and Fig. 6 / Table S4 (three)."""


MAX_VALUES = 10_000
"""Most values one list option of a sweep may hold (each is a dimension of the sweep)."""


def parse_ints(text: str) -> list[int]:
    """``"10:40"`` (both ends), ``"10:40:5"``, ``"20,25,30"`` or a mix: ``"10:20,30"``; at most
    :data:`MAX_VALUES` values (checked before any list is built)."""
    out: list[int] = []
    try:
        for part in text.split(","):
            bits = [int(b) for b in part.split(":")]
            if len(bits) == 1:
                span: range | list[int] = bits
            elif len(bits) in (2, 3):
                step = bits[2] if len(bits) == 3 else 1
                if step < 1:
                    raise ValueError
                span = range(bits[0], bits[1] + 1, step)
            else:
                raise ValueError
            if len(out) + len(span) > MAX_VALUES:
                raise argparse.ArgumentTypeError(
                    f"at most {MAX_VALUES} values, got {text!r:.60} ({len(out) + len(span)} values)"
                )
            out.extend(span)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected integers like 10:40, 10:40:5 or 20,25,30; got {text!r:.60}"
        ) from None
    return out


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sweep",
        help="best responses to 'hold at n' opponents over goals, players and dice (resumable, Dask)",
        description="Best responses over goals, players, dice and 'hold at n' opponents. Every point is "
        "a task (module pigtheory.simultaneous.sweeps.resumable); --workers N runs them on a Dask cluster of N local "
        "processes, --scheduler ADDRESS on a running Dask scheduler. With --out each finished task "
        "is written to its own file, and running the same command again resumes.",
    )
    p.add_argument(
        "preset",
        nargs="?",
        choices=sorted(PRESETS),
        help="a sweep of the paper: table-s1 (two players, n = 10..40, Fig. 2 / Table S1) or fig6 "
        "(three players, n = 20..30, Fig. 6 / Table S4); the options below override its parts",
    )
    p.add_argument("--goals", type=parse_ints, help="goals, e.g. 10:500 (default 100)")
    p.add_argument("--ns", type=parse_ints, help="opponents' thresholds, e.g. 10:40")
    p.add_argument("--players", type=parse_ints, help="numbers of players, e.g. 2,3 (default 2)")
    p.add_argument("--faces", type=parse_ints, default=[6], help="die faces, e.g. 4:8 (default 6)")
    p.add_argument("--out", metavar="DIR", help="one file per task, an index and the table; resumes")
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers", type=int_range(1, 256), metavar="N", help="run on a local Dask cluster of N processes"
    )
    where.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask scheduler, e.g. tcp://host:8786")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="a progress bar")
    p.set_defaults(func=_sweep)


def _sweep(args: argparse.Namespace) -> int:
    from ..parallel import dask_client, local_cluster
    from ..simultaneous.sweeps import hold_at_table

    preset = PRESETS.get(args.preset or "", {})
    ns = args.ns or preset.get("ns")
    if ns is None:
        raise ValueError("ns: give --ns (e.g. --ns 10:40) or a preset")
    params: dict[str, Any] = {
        "goals": args.goals or preset.get("goals", [100]),
        "ns": ns,
        "players": args.players or preset.get("players", [2]),
        "die_faces": args.faces,
    }
    with ExitStack() as stack:
        executor = None
        if args.scheduler:
            executor = stack.enter_context(dask_client(args.scheduler))
        elif args.workers is not None:
            executor = stack.enter_context(local_cluster(args.workers))
        table = hold_at_table(**params, out=args.out, executor=executor, progress=args.progress)
    assert table.policy is not None  # a sweep table always records the thresholds
    rows = range(table.value.size)
    show = list(rows) if len(rows) <= 40 else list(rows[:20]) + [-1] + list(rows[-10:])
    print(f"{'goal':>5} {'players':>7} {'faces':>5}  {'opponents hold at':<20} {'value':>12} {'k':>4}")
    for r in show:
        if r < 0:
            print(f"{'...':>5}")
            continue
        ns_r = " ".join(map(str, table.thresholds[r, : table.players[r] - 1]))
        print(
            f"{table.goal[r]:5d} {table.players[r]:7d} {table.die_faces[r]:5d}  {ns_r:<20} "
            f"{table.value[r]:12.10f} {table.policy[r]:4d}"
        )
    if args.out:
        print(f"{table.value.size} tasks; table in {args.out}/table.csv and table.npz")
    return 0
