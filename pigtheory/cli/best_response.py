"""``pigtheory best-response``: the best response to fixed, independent opponents."""

from __future__ import annotations

import argparse

from .args import (
    POLICY_HELP,
    UsageError,
    add_common_arguments,
    add_method_arguments,
    add_out_argument,
    add_rules_arguments,
    add_strategies_argument,
    emit,
    method_options,
    parse_policy,
    policy_for,
    rules_from,
    write_table,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "best-response",
        help="best response to independent opponents (Algorithm 0.1); prints the value at (0, 0, ...)",
        description="The best response to fixed, independent opponents and its win probability from the start.",
    )
    p.add_argument(
        "--opponent",
        type=parse_policy,
        action="append",
        required=True,
        metavar="POLICY",
        help=f"an opponent's policy, {POLICY_HELP}; give it players - 1 times (seat order)",
    )
    add_rules_arguments(p, files=True)
    add_method_arguments(p, tol=1e-12, max_iter=10_000)
    add_strategies_argument(p, "the players'")
    add_out_argument(p, "the best response's threshold table (or stopping rule)", aliases=("--output",))
    add_common_arguments(p)
    p.set_defaults(func=_best_response)


def _best_response(args: argparse.Namespace) -> int:
    rules = rules_from(args, files=args.opponent)
    if len(args.opponent) != rules.players - 1:
        raise UsageError(
            f"--opponent: {rules.players} players need {rules.players - 1} opponents, got {len(args.opponent)}"
        )
    opps = [policy_for(o, rules, f"--opponent #{n}") for n, o in enumerate(args.opponent, 1)]
    if args.strategies == "stopping" and args.method != "exact":
        raise UsageError(
            "--strategies stopping: the best response over stopping rules is --method exact only"
        )
    from ..simultaneous import best_response

    sol = best_response(
        opps if len(opps) > 1 else opps[0],
        rules=rules,
        strategies=args.strategies,
        **method_options(args),
    )
    v = float(sol.value[(0,) * rules.players])
    if args.strategies == "stopping":  # the first turn total at which the best rule holds
        row = sol.policy.roll[(0,) * rules.players]
        holds = [t for t in range(1, rules.goal) if not row[t]]
        first = holds[0] if holds else rules.goal
    else:
        import numpy as np

        first = int(np.asarray(getattr(sol.policy, "table", sol.policy))[(0,) * rules.players])
    if args.out:
        write_table(sol, args.out)
    emit(
        args,
        {
            "rules": rules,
            "opponents": [str(o) for o in args.opponent],
            "method": sol.method,
            "strategies": args.strategies,
            "win_probability": v,
            ("first_hold_at_start" if args.strategies == "stopping" else "threshold_at_start"): first,
            "iterations": sol.iterations,
            "residual": sol.residual,
            "out": args.out,
        },
        [f"{v:.10f}"],
    )
    return 0
