"""``pigtheory turn-total`` and ``pigtheory win-probability``."""

from __future__ import annotations

import argparse

from .cli import add_rules_arguments, parse_policy, rules_from
from .turn_total import turn_total


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("turn-total", help="distribution of X_k, the points of a hold-at-k turn")
    p.add_argument("k", type=int)
    p.add_argument("--exact", action="store_true", help="exact fractions")
    p.set_defaults(func=_turn_total)

    p = sub.add_parser("win-probability", help="exact win probability of A at (0, 0, ...), policies fixed")
    p.add_argument("policy_a", type=parse_policy)
    p.add_argument("policy_b", type=parse_policy, nargs="+")
    add_rules_arguments(p)
    p.set_defaults(func=_win_probability)


def _turn_total(args: argparse.Namespace) -> int:
    for gain, prob in turn_total(args.k, exact=args.exact).pmf.items():
        print(f"{gain:4d}  {prob}")
    return 0


def _win_probability(args: argparse.Namespace) -> int:
    from .simultaneous import win_probability

    rules = rules_from(args)
    opp = args.policy_b if len(args.policy_b) > 1 else args.policy_b[0]
    v = win_probability(args.policy_a, opp, rules=rules)
    print(f"{v[(0,) * rules.players]:.10f}")
    return 0
