"""``pigtheory sequential`` and ``pigtheory compare`` (turn-taking Pig)."""

from __future__ import annotations

import argparse
import re
import time
from typing import Any

from .cli import write_table
from .policies import hold_at
from .rules import Rules

_POLICY_HELP = "optimal, hold-at-N, scoring-turns-T, base-pace-race[-B-P-E], pace-race[-C-D-E]"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sequential", help="optimal sequential play (one die, Piglet, two dice, Double Trouble)"
    )
    _rules_args(p)
    p.add_argument(
        "--tol", type=float, default=1e-12, help="two dice: stop when a sweep changes less (default 1e-12)"
    )
    p.add_argument("--out", help="write the roll table (.npy) here")
    p.set_defaults(func=_sequential)

    p = sub.add_parser("compare", help="exact win probabilities of policy A against policy B (Algorithm 1)")
    p.add_argument("policy_a", help=_POLICY_HELP)
    p.add_argument("policy_b", help=_POLICY_HELP)
    _rules_args(p)
    p.set_defaults(func=_compare)


def _rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--goal", type=int, default=None, help="score that wins (default 100; Piglet 10)")
    p.add_argument("--dice", type=int, default=1, choices=(1, 2), help="number of dice (default 1)")
    p.add_argument(
        "--double-trouble", action="store_true", help="two dice: a non-ones double must roll again"
    )
    p.add_argument("--piglet", action="store_true", help="Neller's coin game")


def _rules(args: argparse.Namespace) -> Rules:
    if args.piglet:
        return Rules.piglet(goal=args.goal or 10)
    return Rules(goal=args.goal or 100, dice=args.dice, double_trouble=args.double_trouble)


def _solve(rules: Rules, tol: float = 1e-12) -> Any:
    from .sequential.cache import cached_solve

    return cached_solve(rules=rules, tol=tol)


def parse_sequential_policy(text: str, rules: Rules) -> Any:
    from .sequential import base_pace_race, pace_race, scoring_turns

    if text == "optimal":
        return _solve(rules)
    patterns = [
        (r"hold-at-(\d+)", lambda n: hold_at(n)),
        (r"scoring-turns-(\d+)", lambda t: scoring_turns(t)),
        (
            r"base-pace-race(?:-(\d+)-(\d+)-(\d+))?",
            lambda *a: base_pace_race(*a) if a[0] is not None else base_pace_race(),
        ),
        (r"pace-race(?:-(\d+)-(\d+)-(\d+))?", lambda *a: pace_race(*a) if a[0] is not None else pace_race()),
    ]
    for pattern, make in patterns:
        m = re.fullmatch(pattern, text)
        if m:
            return make(*(int(g) if g is not None else None for g in m.groups()))
    raise ValueError(f"policy must be one of {_POLICY_HELP}, got {text!r}")


def _sequential(args: argparse.Namespace) -> int:
    rules = _rules(args)
    t0 = time.perf_counter()
    from .sequential import solve

    sol = solve(rules=rules, tol=args.tol)
    dt = time.perf_counter() - t0
    print(f"{rules}")
    print(f"first player's win probability (both optimal): {sol.first_player_win:.10f}")
    print(f"method: {sol.method}; iterations {sol.iterations}; residual {sol.residual:.1e}; {dt:.2f} s")
    if args.out:
        import numpy as np

        write_table(np.asarray(sol.roll, dtype=np.int8), args.out)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from .sequential import compare

    rules = _rules(args)
    a = parse_sequential_policy(args.policy_a, rules)
    b = parse_sequential_policy(args.policy_b, rules)
    c = compare(a, b, rules=rules)
    print(f"{rules}: {args.policy_a} against {args.policy_b}")
    print(f"A first  {c.first:.6f}")
    print(f"A second {c.second:.6f}")
    print(f"average  {c.average:.6f}")
    if c.iterations:
        print(f"({c.iterations} iterations, residual {c.residual:.1e})")
    return 0
