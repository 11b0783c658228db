"""``pigtheory symmetric-equilibrium``: a symmetric equilibrium of n-player simultaneous Pig."""

from __future__ import annotations

import argparse
import json
import time

from .args import UsageError, add_rules_arguments, int_range, output_file, rules_from, usage_checks


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "symmetric-equilibrium",
        help="symmetric equilibrium of n-player simultaneous Pig, with its certificates",
    )
    add_rules_arguments(p)
    p.set_defaults(players=3)
    p.add_argument(
        "--no-exploitability",
        action="store_true",
        help="skip the global certificate (a best response over the whole game)",
    )
    p.add_argument(
        "--show",
        type=int_range(0, 10**6),
        default=5,
        help="list this many mixed states, 0..10**6 (default 5)",
    )
    p.add_argument(
        "--out", type=output_file((".npz",)), help="save the result (.npz; load it with pigtheory.load)"
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=_symmetric_equilibrium)


def _symmetric_equilibrium(args: argparse.Namespace) -> int:
    from ..simultaneous import symmetric_best_response, symmetric_equilibrium

    with usage_checks():
        rules = rules_from(args)
    if not 2 <= rules.players <= 5:
        raise UsageError(f"--players: symmetric equilibria are solved for 2..5 players, got {rules.players}")
    t0 = time.perf_counter()
    eq = symmetric_equilibrium(rules=rules)
    seconds = time.perf_counter() - t0
    n = rules.players
    start = (0,) * n
    summary: dict = {
        "players": n,
        "goal": rules.goal,
        "states": eq.n_states,
        "pure": eq.n_pure,
        "mixed": eq.n_mixed,
        "largest_support": eq.largest_support,
        "fallback": eq.n_fallback,
        "opening": {str(k): p for k, p in eq.strategy(*start).items()},
        "value_at_start": eq.at(*start)[0],
        "epsilon_start": eq.epsilon_start,
        "epsilon_max": eq.residual,
        "seconds": seconds,
    }
    if not args.no_exploitability:
        t0 = time.perf_counter()
        br = symmetric_best_response(eq)
        summary["exploitability"] = br.exploitability
        summary["largest_gain"] = br.largest_gain
        summary["certificate_seconds"] = time.perf_counter() - t0
    if args.out:
        summary["saved"] = str(eq.save(args.out))
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    opening = ", ".join(f"{k}: {p:.6f}" for k, p in eq.strategy(*start).items())
    print(f"players, goal         {n}, {rules.goal}")
    print(
        f"states                {eq.n_states} ({eq.n_pure} pure, {eq.n_mixed} mixed; largest support {eq.largest_support})"
    )
    print(f"opening at {start}  {{{opening}}}")
    print(f"value at the start    {summary['value_at_start']:.15f}")
    print(f"epsilon start / max   {eq.epsilon_start:.3e} / {eq.residual:.3e}")
    if "exploitability" in summary:
        print(
            f"exploitability        {summary['exploitability']:.3e} (largest gain {summary['largest_gain']:.3e})"
        )
    print(f"time                  {seconds:.2f} s")
    for s in eq.mixed_states[: args.show].tolist():
        mixes = "; ".join(
            f"{s[p]}: " + ", ".join(f"{k} {w:.4f}" for k, w in eq.strategy(*s[p:], *s[:p]).items())
            for p in range(n)
            if p == 0 or s[p] != s[p - 1]
        )
        print(f"  {tuple(s)}  {mixes}")
    if args.out:
        print(f"saved                 {summary['saved']}")
    return 0
