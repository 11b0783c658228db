"""``pigtheory limit``: everybody holds at the goal, n = 2 .. n_max players."""

from __future__ import annotations

import argparse

from .cli import add_rules_arguments, rules_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "limit", help="is everybody holding at the goal an n-player equilibrium? (n = 2..n_max)"
    )
    p.add_argument("--n-max", type=int, default=200, help="largest number of players (default 200)")
    p.add_argument("--show", type=int, nargs="*", default=None, help="players to tabulate (default: a few)")
    add_rules_arguments(p, players=False)
    p.set_defaults(func=_limit)


def _limit(args: argparse.Namespace) -> int:
    from .simultaneous import limit

    res = limit(n_max=args.n_max, rules=rules_from(args))
    g = res.rules.goal
    print(f"P(X_{g} >= {g}) = {res.p_finish:.6f}  (holding at the goal from 0 finishes in one turn)")
    if res.smallest_n is None:
        print(f"a deviation from holding at the goal still pays at n = {args.n_max}")
    else:
        print(f"smallest n from which nobody gains by deviating (n <= {args.n_max}): {res.smallest_n}")
    show = args.show or sorted(
        {n for n in (2, 3, 5, 10, 20, 50, res.smallest_n or 0, 99, 100, args.n_max) if 2 <= n <= args.n_max}
    )
    print(f"{'n':>6} {'1/n':>10} {'best dev.':>10} {'its k':>6} {'n x dev.':>9}  deviation pays")
    for n in show:
        r = res.row(n)
        dev = res.deviation_value[r]
        print(
            f"{n:6d} {res.hold_value[r]:10.6f} {dev:10.6f} {res.deviation_threshold[r]:6d} {n * dev:9.4f}  {'yes' if dev > res.hold_value[r] else 'no'}"
        )
    return 0
