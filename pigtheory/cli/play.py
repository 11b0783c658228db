"""``pigtheory site`` (the static play site) and ``pigtheory play`` (the game in a terminal)."""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

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
    p.add_argument("--out", default="pigtheory-site", help="folder to write (default pigtheory-site)")
    p.add_argument(
        "--goal", type=int, nargs="+", default=[100], help="goal(s) of the opponents (default 100)"
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
        type=int,
        nargs="*",
        default=[20, 25],
        metavar="N",
        help="hold-at-N opponents (default 20 25)",
    )
    p.add_argument("--no-webapp", action="store_true", help="leave out the web app's published tables")
    p.add_argument("--title", default="Play Pig", help="the page's title")
    p.set_defaults(func=_site)

    p = sub.add_parser(
        "play",
        help="play Pig in the terminal against a solved policy",
        description="Play one game in the terminal, with your exact win probability and the best move "
        "after every roll. Commands: r roll, h hold, b best move, q quit.",
    )
    p.add_argument("--opponent", default=None, metavar="NAME|FILE", help=_OPPONENTS_HELP)
    p.add_argument(
        "--mode", choices=("sequential", "simultaneous"), default=None, help="default: the opponent's"
    )
    p.add_argument("--seed", type=int, default=None, help="0..2**32-1 (default random; printed)")
    p.add_argument("--goal", type=int, default=None, help="default 100 (Piglet 10)")
    p.add_argument("--first", choices=("you", "opponent"), default="you", help="sequential: who starts")
    p.add_argument("--delay", type=float, default=None, help="seconds between the opponent's moves")
    p.set_defaults(func=_play)


def _pick_mode(name: str, mode: str | None) -> list[str]:
    """The modes in which ``name`` is an opponent (all of them when ``mode`` is not given)."""
    from ..play import NAMES

    if mode:
        return [mode]
    generic = re.sub(r"\d+$", "N", name)  # hold-at-25 -> hold-at-N
    return [m for m, names in NAMES.items() if generic in names] or ["sequential"]


def _site(args: argparse.Namespace) -> int:
    from ..play import build_site, default_opponents, opponent, opponents_from_file

    t0 = time.perf_counter()
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
    for path in args.policy:
        opps += opponents_from_file(path)
    built = build_site(args.out, opps, title=args.title)
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
    from ..play import opponent, opponents_from_file, play_terminal
    from .args import usage_checks

    name = args.opponent or ("equilibrium" if args.mode == "simultaneous" else "optimal")
    with usage_checks():  # an unknown opponent or an unreadable file is a usage error
        if Path(name).is_file():
            opp = opponents_from_file(name, mode=args.mode, goal=args.goal)[0]
        else:
            mode = _pick_mode(name, args.mode)[0]
            opp = opponent(name, mode=mode, goal=args.goal)
    delay = args.delay if args.delay is not None else (0.4 if sys.stdout.isatty() else 0.0)
    play_terminal(opp, seed=args.seed, first=args.first, delay=delay)
    return 0
