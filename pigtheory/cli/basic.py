"""``pigtheory turn-total`` and ``pigtheory win-probability``."""

from __future__ import annotations

import argparse

from .args import (
    POLICY_HELP,
    UsageError,
    add_common_arguments,
    add_rules_arguments,
    emit,
    int_range,
    parse_policy,
    policy_for,
    rules_from,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "turn-total",
        help="distribution of X_k, the points of a hold-at-k turn",
        description="Distribution of X_k, the points a turn adds when the player holds at k (0 = bust).",
    )
    p.add_argument("k", type=int_range(1), help="the turn total at which the player holds (>= 1)")
    p.add_argument("--exact", action="store_true", help="exact fractions instead of floats")
    add_common_arguments(p)
    p.set_defaults(func=_turn_total)

    p = sub.add_parser(
        "win-probability",
        help="exact win probability of A at (0, 0, ...), policies fixed",
        description="Exact probability that player A wins from the start when every player's policy is fixed.",
    )
    p.add_argument("policy_a", type=parse_policy, help=f"player A's policy: {POLICY_HELP}")
    p.add_argument(
        "policy_b",
        type=parse_policy,
        nargs="+",
        help="the other players' policies in seat order (players - 1 of them)",
    )
    add_rules_arguments(p, files=True)
    add_common_arguments(p)
    p.set_defaults(func=_win_probability)


def _turn_total(args: argparse.Namespace) -> int:
    from ..guard import check_memory, turn_total_estimate
    from ..turn_totals import turn_total

    check_memory(turn_total_estimate(args.k, exact=args.exact), args.max_memory)
    pmf = turn_total(args.k, exact=args.exact).pmf
    emit(
        args,
        {
            "k": args.k,
            "exact": args.exact,
            "pmf": {str(g): str(p) if args.exact else float(p) for g, p in pmf.items()},
        },
        [f"{gain:4d}  {prob}" for gain, prob in pmf.items()],
    )
    return 0


def _win_probability(args: argparse.Namespace) -> int:
    rules = rules_from(args, files=[args.policy_a, *args.policy_b])
    if len(args.policy_b) != rules.players - 1:
        raise UsageError(
            f"{rules.players} players need {rules.players - 1} policies after policy A, got {len(args.policy_b)}"
        )
    a = policy_for(args.policy_a, rules, "policy_a")
    opps = [policy_for(b, rules, f"policy_b #{n}") for n, b in enumerate(args.policy_b, 1)]
    from ..simultaneous import win_probability

    value = win_probability(a, opps if len(opps) > 1 else opps[0], rules=rules, max_memory=args.max_memory)
    v = float(value[(0,) * rules.players])
    emit(
        args,
        {
            "rules": rules,
            "policies": [str(x) for x in (args.policy_a, *args.policy_b)],
            "state": [0] * rules.players,
            "win_probability": v,
        },
        [f"{v:.10f}"],
    )
    return 0
