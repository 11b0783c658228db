"""``pigtheory site`` (the static play site) and ``pigtheory play`` (the game in a terminal)."""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import Any

from .args import add_common_arguments, int_range, non_empty, usage_checks

MAX_GOAL = 1000
"""Largest goal the play site and the terminal game offer (a site's data grows as goal**3)."""

_OPPONENTS_HELP = (
    "sequential: optimal, optimal-two-dice, optimal-double-trouble, optimal-piglet, hold-at-N, "
    "webapp-easy|normal|hard; simultaneous: equilibrium, stackelberg, br-hold-at-N, hold-at-N, "
    "webapp-easy|normal|hard; or a policy file (.json, .csv, .npy, or a result's .npz)"
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "site",
        help="build the static play site (HTML, CSS, JavaScript, data)",
        description="Build a self-contained static site to play Pig against solved policies, with the "
        "solver's numbers live. Open DIR/index.html in a browser (file:// works) or serve DIR.",
    )
    p.add_argument(
        "--out",
        default="pigtheory-site",
        help="folder to write (default pigtheory-site): a new or empty folder, or a site built before",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="also write into a folder that holds other files (they are left alone)",
    )
    p.add_argument(
        "--goal",
        type=int_range(1, MAX_GOAL),
        nargs="+",
        default=[100],
        help=f"goal(s) of the opponents, 1..{MAX_GOAL} (default 100)",
    )
    p.add_argument(
        "--opponent",
        action="append",
        metavar="[MODE:]NAME",
        help="only these opponents (repeatable; default the full set); " + _OPPONENTS_HELP,
    )
    p.add_argument(
        "--policy", action="append", default=[], metavar="FILE", help="add the policy in FILE (repeatable)"
    )
    p.add_argument(
        "--hold-at",
        type=int_range(1, MAX_GOAL),
        nargs="*",
        default=[20, 25],
        metavar="N",
        help="hold-at-N opponents (default 20 25)",
    )
    p.add_argument("--no-webapp", action="store_true", help="leave out the web app's published tables")
    p.add_argument("--title", default="Play Pig", help="the page's title (1 to 200 characters)")
    add_common_arguments(p, json_output=False)
    p.set_defaults(func=_site)

    p = sub.add_parser(
        "play",
        help="play Pig in the terminal against a solved policy",
        description="Play one game in the terminal, with your exact win probability and the best move "
        "after every roll. Commands: r roll, h hold, b best move, q quit.",
    )
    p.add_argument("--opponent", type=non_empty, default=None, metavar="NAME|FILE", help=_OPPONENTS_HELP)
    p.add_argument(
        "--mode", choices=("sequential", "simultaneous"), default=None, help="default: the opponent's"
    )
    p.add_argument(
        "--seed", type=int_range(0, 2**32 - 1), default=None, help="0..2**32-1 (default random; printed)"
    )
    p.add_argument(
        "--goal", type=int_range(1, MAX_GOAL), default=None, help=f"1..{MAX_GOAL}; default 100 (Piglet 10)"
    )
    p.add_argument("--first", choices=("you", "opponent"), default="you", help="sequential: who starts")
    p.add_argument("--delay", type=_delay, default=None, help="seconds between the opponent's moves, 0..10")
    add_common_arguments(p, json_output=False)
    p.set_defaults(func=_play)


def _delay(text: str) -> float:
    """An argparse type: a number of seconds in 0..10 (not inf or nan)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 <= value <= 10:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"must be a number of seconds in 0..10, got {text}")
    return value


def _pick_mode(name: str, mode: str | None) -> list[str]:
    """The modes in which ``name`` is an opponent (all of them when ``mode`` is not given)."""
    from ..play import NAMES

    if mode:
        return [mode]
    generic = re.sub(r"\d+$", "N", name)  # hold-at-25 -> hold-at-N
    return [m for m, names in NAMES.items() if generic in names] or ["sequential"]


def _site_estimate(goals: list[int]) -> Any:
    """The largest solve a site for these goals needs: sequential play and the equilibrium."""
    from ..guard import equilibrium_estimate, sequential_estimate
    from ..rules import Rules

    estimates = [
        e for g in goals for e in (sequential_estimate(Rules(goal=g)), equilibrium_estimate(Rules(goal=g)))
    ]
    return max((e for e in estimates if e is not None), key=lambda e: e.bytes, default=None)


def _site(args: argparse.Namespace) -> int:
    from ..guard import check_memory
    from ..play import build_site, default_opponents, opponent, opponents_from_file
    from ..play.site import check_site_folder

    t0 = time.perf_counter()
    with usage_checks():  # every argument and the output folder before any solve
        check_site_folder(args.out, force=args.force)
        if not 0 < len(args.title) <= 200:
            raise ValueError(f"--title: expected 1 to 200 characters, got {len(args.title)}")
        from_files = [o for path in args.policy for o in opponents_from_file(path)]
    check_memory(_site_estimate(args.goal), args.max_memory)
    if args.opponent:
        opps = []
        for spec in args.opponent:
            mode, _, name = spec.rpartition(":")
            for goal in args.goal:
                for m in _pick_mode(name, mode or None):
                    opps.append(opponent(name, mode=m, goal=goal if name != "optimal-piglet" else None))
        opps = list({o.key: o for o in opps}.values())
    else:
        print("solving the opponents (cached after the first build) ...", file=sys.stderr, flush=True)
        opps = default_opponents(args.goal, hold_at_n=args.hold_at, webapp=not args.no_webapp)
    opps += from_files
    built = build_site(args.out, opps, title=args.title, force=args.force)
    dt = time.perf_counter() - t0
    data = sum(v for k, v in built.sizes.items() if k.startswith("data/"))
    print(f"wrote {built.out}/ ({len(opps)} opponents) in {dt:.1f} s")
    print(
        f"  total {built.total_bytes / 1024:.0f} kB: page {(built.total_bytes - data) / 1024:.0f} kB, data {data / 1024:.0f} kB"
    )
    for name, size in sorted(built.sizes.items()):
        print(f"  {size / 1024:8.1f} kB  {name}")
    print(f"open {Path(built.out).resolve() / 'index.html'}")
    return 0


def _play(args: argparse.Namespace) -> int:
    from ..guard import check_memory
    from ..play import opponent, opponents_from_file, play_terminal
    from ..validation import check_path

    check_memory(_site_estimate([args.goal or 100]), args.max_memory)
    name = args.opponent or ("equilibrium" if args.mode == "simultaneous" else "optimal")
    with usage_checks():  # an unknown opponent or an unreadable file is a usage error
        if check_path("--opponent", name).is_file():
            opp = opponents_from_file(name, mode=args.mode, goal=args.goal)[0]
        else:
            mode = _pick_mode(name, args.mode)[0]
            opp = opponent(name, mode=mode, goal=args.goal)
    delay = args.delay if args.delay is not None else (0.4 if sys.stdout.isatty() else 0.0)
    play_terminal(opp, seed=args.seed, first=args.first, delay=delay)
    return 0
