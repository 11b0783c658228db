"""``pigtheory best-response``: the best response to fixed, independent opponents."""

from __future__ import annotations

import argparse

from .cli import add_rules_arguments, parse_policy, rules_from, write_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "best-response",
        help="best response to independent opponents (Algorithm 0.1); prints the value at (0, 0, ...)",
    )
    p.add_argument(
        "--opponent",
        type=parse_policy,
        action="append",
        required=True,
        metavar="POLICY",
        help="hold-at-N or a .npy/.csv threshold table; give it players - 1 times (seat order)",
    )
    add_rules_arguments(p)
    p.add_argument("--method", choices=("exact", "value_iteration"), default="exact")
    p.add_argument("--tol", type=float, default=1e-12, help="value iteration: stop below this change")
    p.add_argument(
        "--output", metavar="FILE", help="write the policy table to a .csv (2 players) or .npy file"
    )
    p.set_defaults(func=_best_response)


def _best_response(args: argparse.Namespace) -> int:
    from .simultaneous import best_response

    rules = rules_from(args)
    opps = args.opponent if len(args.opponent) > 1 else args.opponent[0]
    sol = best_response(opps, rules=rules, method=args.method, tol=args.tol)
    print(f"{sol.value[(0,) * rules.players]:.10f}")
    if args.output:
        write_table(sol.policy, args.output)
    return 0
