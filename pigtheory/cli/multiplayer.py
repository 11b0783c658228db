"""``pigtheory limit``: everybody holds at the goal, n = 2 .. n_max players."""

from __future__ import annotations

import argparse

from .args import (
    UsageError,
    add_common_arguments,
    add_rules_arguments,
    add_strategies_argument,
    emit,
    int_range,
    rules_from,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "limit",
        help="is everybody holding at the goal an n-player equilibrium? (n = 2..n_max)",
        description="For n = 2..n_max players: does anybody gain by not holding at the goal when all others do?",
    )
    p.add_argument(
        "--n-max", type=int_range(2), default=200, help="largest number of players, >= 2 (default 200)"
    )
    p.add_argument(
        "--show",
        type=int_range(2),
        nargs="+",
        default=None,
        metavar="N",
        help="numbers of players to tabulate, each in 2..n_max (default: a few)",
    )
    add_rules_arguments(p, players=False)
    add_strategies_argument(p, "the deviator's")
    add_common_arguments(p)
    p.set_defaults(func=_limit)


def _limit(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    bad = [n for n in args.show or () if n > args.n_max]
    if bad:
        raise UsageError(f"--show: {bad[0]} players is above --n-max {args.n_max}")
    from ..simultaneous import limit

    res = limit(n_max=args.n_max, rules=rules, strategies=args.strategies, max_memory=args.max_memory)
    g = res.rules.goal
    show = args.show or sorted(
        {n for n in (2, 3, 5, 10, 20, 50, res.smallest_n or 0, 99, 100, args.n_max) if 2 <= n <= args.n_max}
    )
    rows = []
    lines = [f"P(X_{g} >= {g}) = {res.p_finish:.6f}  (holding at the goal from 0 finishes in one turn)"]
    if res.smallest_n is None:
        lines.append(f"a deviation from holding at the goal still pays at n = {args.n_max}")
    else:
        lines.append(f"smallest n from which nobody gains by deviating (n <= {args.n_max}): {res.smallest_n}")
    lines.append(f"{'n':>6} {'1/n':>10} {'best dev.':>10} {'its k':>6} {'n x dev.':>9}  deviation pays")
    for n in show:
        r = res.row(n)
        hold, dev, k = (
            float(res.hold_value[r]),
            float(res.deviation_value[r]),
            int(res.deviation_threshold[r]),
        )
        pays = dev - hold > 1e-13  # the solvers' tie tolerance: 1/n is reached to rounding
        rows.append(
            {"n": n, "hold_value": hold, "deviation_value": dev, "deviation_threshold": k, "pays": pays}
        )
        lines.append(f"{n:6d} {hold:10.6f} {dev:10.6f} {k:6d} {n * dev:9.4f}  {'yes' if pays else 'no'}")
    emit(
        args,
        {
            "rules": rules,
            "n_max": args.n_max,
            "p_finish": res.p_finish,
            "smallest_n": res.smallest_n,
            "rows": rows,
        },
        lines,
    )
    return 0
