"""``pigtheory site`` (the static play site) and ``pigtheory play`` (the game in a terminal)."""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import Any

from .args import UsageError, add_common_arguments, int_range, named_file, non_empty, usage_checks

MAX_GOAL = 1000
"""Largest goal the play site and the terminal game offer (a site's data grows as goal**3)."""
MULTI_GOAL = 50
"""The default goal of a multiplayer game (``pigtheory play --players N``): solved in seconds."""

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
    p.add_argument(
        "--multiplayer",
        action="append",
        type=_players_goal,
        metavar="N:G",
        help=f"a multiplayer game (N players, goal G) on the page multi.html (repeatable; default "
        f"{DEFAULT_MULTI}; append ':pass' to allow passing)",
    )
    p.add_argument("--no-multiplayer", action="store_true", help="no multiplayer page")
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
        "--mode",
        "--game",
        dest="mode",
        choices=("sequential", "simultaneous"),
        default=None,
        help="default: the opponent's (--players above 2: sequential)",
    )
    p.add_argument(
        "--players",
        type=int_range(2, 10),
        default=2,
        help="sequential play with 2..10 players (default 2); above 2 the other seats play the stationary "
        "equilibrium (pigtheory sequential --players N), mixing drawn from the seed",
    )
    p.add_argument(
        "--seat",
        type=int_range(1, 10),
        default=None,
        help="--players above 2: your seat, 1..N in playing order (default 1: you move first)",
    )
    p.add_argument(
        "--allow-pass",
        action="store_true",
        help="--players above 2: a player may hold with turn total 0 (OpenSpiel's pig)",
    )
    p.add_argument(
        "--seed", type=int_range(0, 2**32 - 1), default=None, help="0..2**32-1 (default random; printed)"
    )
    p.add_argument(
        "--goal",
        type=int_range(1, MAX_GOAL),
        default=None,
        help=f"1..{MAX_GOAL}; default 100 (Piglet 10; --players above 2: {MULTI_GOAL})",
    )
    p.add_argument(
        "--first",
        choices=("you", "opponent"),
        default=None,
        help="two-player sequential: who starts (default you)",
    )
    p.add_argument("--delay", type=_delay, default=None, help="seconds between the opponent's moves, 0..10")
    add_common_arguments(p, json_output=False)
    p.set_defaults(func=_play)


DEFAULT_MULTI = "3:50"
"""The site's multiplayer game unless ``--multiplayer`` says otherwise (its data is ~2 kB)."""


def _players_goal(text: str) -> tuple[int, int, bool]:
    """An argparse type: ``N:G`` or ``N:G:pass``, N players in 2..10 and goal G in 1..MAX_GOAL."""
    parts = text.split(":")
    allow_pass = len(parts) == 3 and parts[2] == "pass"
    try:
        if len(parts) not in (2, 3) or (len(parts) == 3 and not allow_pass):
            raise ValueError
        n, g = int(parts[0]), int(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N:G or N:G:pass (e.g. 3:50), got {text!r}") from None
    if not 2 <= n <= 10 or not 1 <= g <= MAX_GOAL:
        raise argparse.ArgumentTypeError(f"players 2..10 and goal 1..{MAX_GOAL} expected, got {text!r}")
    return n, g, allow_pass


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
        if args.no_multiplayer and args.multiplayer:
            raise ValueError("--no-multiplayer and --multiplayer contradict each other")
        multi = [] if args.no_multiplayer else (args.multiplayer or [_players_goal(DEFAULT_MULTI)])
        multi = list(dict.fromkeys(multi))
        from ..guard import sequential_equilibrium_estimate
        from ..play.multiplayer_site import site_estimate
        from ..rules import Rules

        for n, g, _ in multi:
            if g ** (n + 1) >= 2**32:
                raise ValueError(
                    f"--multiplayer {n}:{g}: too large for the page (goal ** (players + 1) < 2**32)"
                )
            check_memory(sequential_equilibrium_estimate(Rules(goal=g, players=n)), args.max_memory)
            check_memory(site_estimate(Rules(goal=g, players=n)), args.max_memory)
    check_memory(_site_estimate(args.goal), args.max_memory)
    if args.opponent:
        opps = []
        for spec in args.opponent:
            mode, _, name = spec.rpartition(":")
            with usage_checks():
                named_file("--opponent", name)
            for goal in args.goal:
                for m in _pick_mode(name, mode or None):
                    opps.append(opponent(name, mode=m, goal=goal if name != "optimal-piglet" else None))
        opps = list({o.key: o for o in opps}.values())
    else:
        print("solving the opponents (cached after the first build) ...", file=sys.stderr, flush=True)
        opps = default_opponents(args.goal, hold_at_n=args.hold_at, webapp=not args.no_webapp)
    opps += from_files
    from ..play.multiplayer import multiplayer_opponents

    if multi:
        print("solving the multiplayer equilibria ...", file=sys.stderr, flush=True)
    games = [multiplayer_opponents(players=n, goal=g, allow_pass=ap) for n, g, ap in multi]
    built = build_site(args.out, opps, title=args.title, force=args.force, multiplayer=games)
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

    if args.players > 2:
        return _play_multiplayer(args)
    if args.seat is not None or args.allow_pass:
        raise UsageError("--seat and --allow-pass are for games of more than two players (--players 3..10)")

    check_memory(_site_estimate([args.goal or 100]), args.max_memory)
    name = args.opponent or ("equilibrium" if args.mode == "simultaneous" else "optimal")
    with usage_checks():  # an unknown opponent or an unreadable file is a usage error
        if named_file("--opponent", name):
            opp = opponents_from_file(name, mode=args.mode, goal=args.goal)[0]
        else:
            mode = _pick_mode(name, args.mode)[0]
            opp = opponent(name, mode=mode, goal=args.goal)
    delay = args.delay if args.delay is not None else (0.4 if sys.stdout.isatty() else 0.0)
    play_terminal(opp, seed=args.seed, first=args.first or "you", delay=delay)
    return 0


def _play_multiplayer(args: argparse.Namespace) -> int:
    """``pigtheory play --players N``: the person at one seat, the equilibrium at the others."""
    from ..guard import check_memory, sequential_equilibrium_estimate
    from ..play.multiplayer import MultiplayerOpponents, multiplayer_opponents
    from ..play.multiplayer_terminal import play_terminal_multiplayer
    from ..rules import Rules

    n = args.players
    with usage_checks():  # every argument before the solve
        if args.mode == "simultaneous":
            raise ValueError("--players above 2 is sequential play (drop --mode simultaneous)")
        if args.first is not None:
            raise ValueError("--first is for two players; with --players N choose your seat with --seat 1..N")
        seat = args.seat if args.seat is not None else 1
        if seat > n:
            raise ValueError(f"--seat: 1..{n} for {n} players, got {seat}")
        policy_file = None
        if args.opponent not in (None, "equilibrium"):
            if not named_file("--opponent", args.opponent):
                raise ValueError(
                    f"--opponent: with --players N the opponents play the equilibrium, or a multiplayer "
                    f"policy file (.json, .csv, .npz); got {args.opponent!r}"
                )
            policy_file = _multiplayer_policy_file(args.opponent, n, args.goal, args.allow_pass)
    delay = args.delay if args.delay is not None else (0.4 if sys.stdout.isatty() else 0.0)
    if policy_file is not None:
        opps = policy_file
    else:
        rules = Rules(goal=args.goal or MULTI_GOAL, players=n)
        check_memory(sequential_equilibrium_estimate(rules), args.max_memory)
        print(f"solving the {n}-player equilibrium ({rules}) ...", file=sys.stderr, flush=True)
        opps = multiplayer_opponents(rules=rules, allow_pass=args.allow_pass)
    assert isinstance(opps, MultiplayerOpponents)
    play_terminal_multiplayer(opps, seat=seat, seed=args.seed, delay=delay)
    return 0


def _multiplayer_policy_file(path: str, players: int, goal: int | None, allow_pass: bool) -> Any:
    """The opponents of a saved multiplayer policy (``ValueError`` if the file holds none, or
    one for other players, goal or passing)."""
    from ..io import load_with_rules
    from ..play.multiplayer import MultiplayerOpponents
    from ..policies.multiplayer import MultiplayerRollTable
    from ..rules import Rules

    policy, rules = load_with_rules(path)
    if hasattr(policy, "roll_bits"):  # the compact policy of an .npz
        policy = MultiplayerRollTable.from_policy(policy, name=Path(path).stem)
    if not isinstance(policy, MultiplayerRollTable):
        raise ValueError(f"--opponent: {path} holds a {type(policy).__name__}, not a multiplayer policy")
    rules = rules or Rules(goal=policy.goal, players=policy.players)
    if rules.players != players:
        raise ValueError(f"--opponent: {path} is a policy for {rules.players} players, not {players}")
    if goal is not None and rules.goal != goal:
        raise ValueError(f"--opponent: {path} is a policy for goal {rules.goal}, not {goal}")
    if policy.allow_pass != allow_pass:
        raise ValueError(f"--opponent: {path} {'allows' if policy.allow_pass else 'does not allow'} passing")
    return MultiplayerOpponents(rules, policy, allow_pass=policy.allow_pass, name=policy.name)
