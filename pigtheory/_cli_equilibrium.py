"""``pigtheory equilibrium``, ``self-play``, ``stackelberg`` and ``exploitability``."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from .cli import add_rules_arguments, parse_policy, rules_from, write_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("equilibrium", help="exact equilibrium of two-player simultaneous Pig")
    add_rules_arguments(p, players=False)
    p.add_argument("--show", type=int, default=10, help="list this many mixed states (default 10)")
    p.set_defaults(func=_equilibrium)

    p = sub.add_parser("self-play", help="the paper's symmetric value iteration and its cycle")
    add_rules_arguments(p, players=False)
    p.add_argument("--order", choices=("increasing", "decreasing"), default="increasing")
    p.add_argument("--sweep", choices=("gauss-seidel", "jacobi"), default="gauss-seidel")
    p.add_argument("--max-iter", type=int, default=200)
    p.add_argument("--out", help="write the cycle's policies as PREFIX_1.npy, PREFIX_2.npy, ...")
    p.set_defaults(func=_self_play)

    p = sub.add_parser("stackelberg", help="Stackelberg value iteration (Algorithm 0.2)")
    add_rules_arguments(p, players=False)
    p.add_argument("--method", choices=("exact", "value_iteration"), default="exact")
    p.add_argument("--out", help="write the leader's policy (.npy or .csv)")
    p.set_defaults(func=_stackelberg)

    p = sub.add_parser("exploitability", help="best-response gain against a policy, minus 1/2")
    p.add_argument("policy", help="hold-at-N, a .npy/.csv table, or a .json file of tables")
    add_rules_arguments(p, players=False)
    p.set_defaults(func=_exploitability)


def _equilibrium(args: argparse.Namespace) -> int:
    from .simultaneous import equilibrium

    t0 = time.perf_counter()
    eq = equilibrium(rules=rules_from(args))
    dt = time.perf_counter() - t0
    print(f"value at (0, 0)       {eq.value[0, 0]:.15f}")
    print(f"mixed states          {len(eq.mixed_states)} (largest support {int(eq.support_sizes.max())})")
    print(f"certificate gap       {eq.residual:.3e}")
    print(f"linear programs       {eq.n_lp}")
    print(f"time                  {dt:.2f} s")
    for s in eq.mixed_states[: args.show]:
        mix = ", ".join(f"{k}: {p:.6f}" for k, p in eq.strategy(*s).items())
        print(f"  {s}: {{{mix}}}")
    return 0


def _self_play(args: argparse.Namespace) -> int:
    from .simultaneous import self_play

    sp = self_play(rules=rules_from(args), order=args.order, sweep=args.sweep, max_iter=args.max_iter)
    print(f"method                {sp.method}")
    print(f"sweeps                {sp.iterations}")
    print(f"converged             {sp.converged}")
    print(f"period                {sp.period}")
    print(f"cycling states        {len(sp.cyclic_states)}")
    print(f"others fixed after    {sp.settled} sweeps")
    print(
        f"value MAE / max diff  {sp.value_mean_abs_diff:.4e} / {sp.value_max_abs_diff:.4e} at {sp.value_max_at}"
    )
    if args.out:
        for n, pol in enumerate(sp.cycle, 1):
            write_table(np.asarray(pol), f"{args.out}_{n}.npy")
    return 0


def _stackelberg(args: argparse.Namespace) -> int:
    from .simultaneous import stackelberg

    st = stackelberg(rules=rules_from(args), method=args.method)
    sizes = np.unique(np.abs(st.differences), return_counts=True)
    print(f"leader / follower     {st.leader_value:.10f} / {st.follower_value:.10f}")
    print(f"policies differ at    {len(st.differing_states)} states")
    print("by                    " + ", ".join(f"{int(k)}: {int(c)}" for k, c in zip(*sizes, strict=True)))
    if args.out:
        write_table(np.asarray(st.leader_policy), args.out)
    return 0


def _exploitability(args: argparse.Namespace) -> int:
    from .policies import ThresholdTable
    from .simultaneous import exploitability

    rules = rules_from(args)
    if args.policy.endswith(".json"):
        data = json.loads(Path(args.policy).read_text())
        tables = data["tables"] if isinstance(data, dict) and "tables" in data else {"policy": data}
        own = np.arange(rules.goal)[:, None]
        for name, rows in tables.items():
            t = np.clip(np.asarray(rows, dtype=np.int64), 1, rules.goal - own)
            print(f"{name:28s} {exploitability(ThresholdTable(t), rules=rules):.10f}")
        return 0
    try:
        policy = parse_policy(args.policy)
    except argparse.ArgumentTypeError as exc:
        raise ValueError(f"policy: {exc}") from None
    print(f"{exploitability(policy, rules=rules):.10f}")
    return 0
