"""``pigtheory equilibrium``, ``self-play``, ``stackelberg`` and ``exploitability``."""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from .args import (
    MAX_ITER,
    POLICY_HELP,
    UsageError,
    add_common_arguments,
    add_method_arguments,
    add_out_argument,
    add_rules_arguments,
    add_strategies_argument,
    emit,
    int_range,
    method_options,
    parse_policy,
    policy_for,
    rules_from,
    usage_checks,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "equilibrium",
        help="exact equilibrium of two-player simultaneous Pig",
        description="The exact equilibrium (value and optimal mixed strategies) of two-player simultaneous Pig.",
    )
    add_rules_arguments(p, players=False)
    p.add_argument(
        "--show",
        type=int_range(0, 10**6),
        default=10,
        help="list this many mixed states, 0..10**6 (default 10)",
    )
    add_strategies_argument(p, "the players'")
    add_out_argument(p, "player A's equilibrium (mixed) policy", suffixes=(".json", ".csv"))
    add_common_arguments(p)
    p.set_defaults(func=_equilibrium)

    p = sub.add_parser(
        "self-play",
        help="the paper's symmetric value iteration and its cycle",
        description="Symmetric value iteration (both players take the best response to the current policy).",
    )
    add_rules_arguments(p, players=False)
    p.add_argument(
        "--order",
        choices=("increasing", "decreasing"),
        default="increasing",
        help="order of the score sums swept",
    )
    p.add_argument(
        "--sweep",
        choices=("gauss-seidel", "jacobi"),
        default="gauss-seidel",
        help="use new values at once (gauss-seidel) or after the sweep (jacobi)",
    )
    p.add_argument(
        "--max-iter", type=int_range(1, MAX_ITER), default=200, help="at most this many sweeps (default 200)"
    )
    add_out_argument(p, "the cycle's policies (FILE_1, FILE_2, ... before the suffix)")
    add_common_arguments(p)
    p.set_defaults(func=_self_play)

    p = sub.add_parser(
        "stackelberg",
        help="Stackelberg value iteration (Algorithm 0.2)",
        description="The leader commits to a policy, the follower answers: the paper's Algorithm 0.2.",
    )
    add_rules_arguments(p, players=False)
    add_method_arguments(p, tol=1e-10, max_iter=1000)
    add_out_argument(p, "the leader's policy")
    add_common_arguments(p)
    p.set_defaults(func=_stackelberg)

    p = sub.add_parser(
        "exploitability",
        help="simultaneous Pig: a best response's win probability against a policy, minus 1/2",
        description="Exploitability in SIMULTANEOUS Pig (both players decide their turn at once, "
        "thresholds or stopping rules): the best response's win probability against the policy, "
        "minus 1/2 (0 for an equilibrium). A sequential policy (a roll table of ordinary Pig, "
        "such as 'pigtheory sequential --out' writes) is refused: score it with "
        "'pigtheory referee FILE'.",
    )
    p.add_argument(
        "policy",
        help=f"{POLICY_HELP}, a published table by name (webapp-simultaneous-easy|normal|hard), "
        "webapp for all three, or a JSON file of published tables "
        '{"tables": {name: rows}} (each is evaluated)',
    )
    add_rules_arguments(p, players=False, files=True)
    add_strategies_argument(p, "the exploiter's")
    add_common_arguments(p)
    p.set_defaults(func=_exploitability)


def _equilibrium(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    from ..simultaneous import equilibrium

    t0 = time.perf_counter()
    eq = equilibrium(rules=rules, strategies=args.strategies, max_memory=args.max_memory)
    dt = time.perf_counter() - t0
    if args.out:
        from ..io import write_policy

        write_policy(eq.policy, args.out, rules=rules)
    if args.strategies == "stopping":
        counts = eq.counts()
        lines = [f"value at (0, 0)       {eq.value[0, 0]:.15f}", f"certificate gap       {eq.residual:.3e}"]
        lines += [f"linear programs       {eq.n_lp}", f"time                  {dt:.2f} s"]
        lines += [f"  {name:45s} {c}" for name, c in counts.items()]
        fields = {"rules": rules, "strategies": "stopping", "value": float(eq.value[0, 0])}
        fields.update({"certificate_gap": eq.residual, "linear_programs": eq.n_lp, "classes": counts})
        emit(args, {**fields, "out": args.out}, lines)
        return 0
    shown = list(eq.mixed_states[: args.show])
    mixes = {s: eq.strategy(*s) for s in shown}
    lines = [
        f"value at (0, 0)       {eq.value[0, 0]:.15f}",
        f"mixed states          {len(eq.mixed_states)} (largest support {int(eq.support_sizes.max())})",
        f"certificate gap       {eq.residual:.3e}",
        f"linear programs       {eq.n_lp}",
        f"time                  {dt:.2f} s",
    ]
    for s, mix in mixes.items():
        lines.append(f"  {s}: {{{', '.join(f'{k}: {p:.6f}' for k, p in mix.items())}}}")
    emit(
        args,
        {
            "rules": rules,
            "value": float(eq.value[0, 0]),
            "mixed_states": len(eq.mixed_states),
            "largest_support": int(eq.support_sizes.max()),
            "certificate_gap": eq.residual,
            "linear_programs": eq.n_lp,
            "shown": [
                {"state": list(s), "strategy": {str(k): float(p) for k, p in mix.items()}}
                for s, mix in mixes.items()
            ],
            "out": args.out,
        },
        lines,
    )
    return 0


def _numbered(out: str, n: int) -> Path:
    path = Path(out)
    return path.with_name(f"{path.stem}_{n}{path.suffix}")


def _self_play(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    if args.out:
        with usage_checks():
            from ..io import check_writable

            check_writable(_numbered(args.out, 1), "--out")
    from ..simultaneous import self_play

    sp = self_play(
        rules=rules, order=args.order, sweep=args.sweep, max_iter=args.max_iter, max_memory=args.max_memory
    )
    written = []
    if args.out:
        from ..io import write_policy
        from ..policies import ThresholdTable

        for n, pol in enumerate(sp.cycle, 1):
            written.append(
                str(
                    write_policy(
                        ThresholdTable(pol, name=f"self-play cycle policy {n}"),
                        _numbered(args.out, n),
                        rules=rules,
                    )
                )
            )
    lines = [
        f"method                {sp.method}",
        f"sweeps                {sp.iterations}",
        f"converged             {sp.converged}",
        f"period                {sp.period}",
        f"cycling states        {len(sp.cyclic_states)}",
        f"others fixed after    {sp.settled} sweeps",
        f"value MAE / max diff  {sp.value_mean_abs_diff:.4e} / {sp.value_max_abs_diff:.4e} at {sp.value_max_at}",
    ]
    emit(
        args,
        {
            "rules": rules,
            "method": sp.method,
            "sweeps": sp.iterations,
            "converged": bool(sp.converged),
            "period": sp.period,
            "cycling_states": len(sp.cyclic_states),
            "settled_after": sp.settled,
            "value_mean_abs_diff": sp.value_mean_abs_diff,
            "value_max_abs_diff": sp.value_max_abs_diff,
            "value_max_at": list(sp.value_max_at),
            "out": written,
        },
        lines,
    )
    return 0


def _stackelberg(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    import numpy as np

    from ..simultaneous import stackelberg

    st = stackelberg(rules=rules, **method_options(args))
    if args.out:
        from ..io import write_policy
        from ..policies import ThresholdTable

        write_policy(ThresholdTable(st.leader_policy, name="Stackelberg leader"), args.out, rules=rules)
    sizes = np.unique(np.abs(st.differences), return_counts=True)
    by = {int(k): int(c) for k, c in zip(*sizes, strict=True)}
    emit(
        args,
        {
            "rules": rules,
            "method": st.method,
            "leader_value": st.leader_value,
            "follower_value": st.follower_value,
            "differing_states": len(st.differing_states),
            "differences_by_size": {str(k): c for k, c in by.items()},
            "out": args.out,
        },
        [
            f"leader / follower     {st.leader_value:.10f} / {st.follower_value:.10f}",
            f"policies differ at    {len(st.differing_states)} states",
            "by                    " + ", ".join(f"{k}: {c}" for k, c in by.items()),
        ],
    )
    return 0


def _published_tables(path: Path) -> bool:
    """A JSON file of published tables (``{"tables": ...}``) rather than a policy file."""
    if path.suffix != ".json" or not path.is_file() or path.stat().st_size > 50 * 2**20:
        return False
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return isinstance(data, dict) and "tables" in data and "kind" not in data


def _named_tables(text: str) -> dict[str, Any]:
    """Published tables named on the command line (``webapp-simultaneous-hard``, an older name
    such as ``action_simul_hard``, or ``webapp`` for the three simultaneous ones); empty if the
    text names none."""
    from ..published import SIMULTANEOUS_TABLES, published_table, table_name

    if text == "webapp":
        return {name: published_table(name) for name in SIMULTANEOUS_TABLES}
    if Path(text).suffix or not text.startswith(("webapp-", "action_")):
        return {}
    try:
        name = table_name(text, mode="simultaneous")
    except ValueError as exc:
        raise UsageError(f"policy: {exc}") from None
    if name not in SIMULTANEOUS_TABLES:
        raise UsageError(f"policy: {name} plays sequential Pig; exploitability is of simultaneous play")
    return {name: published_table(name)}


def _exploitability(args: argparse.Namespace) -> int:
    from ..validation import check_path  # numpy: not at import (help stays light)

    policies: dict[str, Any] = {}
    with usage_checks():
        named = _named_tables(args.policy)
        published = not named and _published_tables(check_path("policy", args.policy))
        if not named and not published:
            try:
                policies = {args.policy: parse_policy(args.policy)}
            except argparse.ArgumentTypeError as exc:
                raise UsageError(f"policy: {exc}") from None
        rules = rules_from(args, files=list(policies.values()))
        if named:
            policies = named
        if published:
            from ..published import SIMULTANEOUS_TABLES, webapp_policies

            policies = dict(webapp_policies(args.policy, rules=rules).tables)
            # The web app's file also holds its sequential tables: policies of another game.
            simultaneous = {name: pol for name, pol in policies.items() if name in SIMULTANEOUS_TABLES}
            if simultaneous and len(simultaneous) < len(policies):
                other = ", ".join(name for name in policies if name not in simultaneous)
                warnings.warn(
                    f"left out the web app's sequential tables ({other}): they play "
                    "sequential Pig, and exploitability is of simultaneous play",
                    stacklevel=1,
                )
                policies = simultaneous
        for name, pol in policies.items():
            _refuse_sequential(name, pol, rules)
        policies = {name: policy_for(pol, rules, name) for name, pol in policies.items()}
    from ..simultaneous import exploitability

    values = {
        name: exploitability(
            pol, rules=rules, strategies=args.strategies, max_memory=args.max_memory
        ).exploitability
        for name, pol in policies.items()
    }
    if len(values) == 1:
        lines = [f"{next(iter(values.values())):.10f}"]
    else:
        lines = [f"{name:28s} {v:.10f}" for name, v in values.items()]
    measure = "simultaneous Pig: best response's win probability - 1/2"
    if not getattr(args, "json", False):
        print(
            f"pigtheory exploitability: note: exploitability in {measure} ({rules.goal} points, {args.strategies})",
            file=sys.stderr,
        )
    emit(args, {"rules": rules, "game": "simultaneous", "measure": measure, "exploitability": values}, lines)
    return 0


_SEQUENTIAL_HINT = (
    "this command scores a policy of simultaneous Pig (best response's win probability - 1/2); "
    "score a sequential policy with 'pigtheory referee {file}'"
)


def _refuse_sequential(name: str, policy: Any, rules: Any) -> None:
    """A file that records a sequential policy (a roll table of ordinary Pig, a sequential
    solution) fits another game: a usage error naming the command that scores it. A bare
    ``.npy`` boolean table records no kind: read as a stopping rule ``roll[own, other, t]``,
    with a warning naming the sequential reading."""
    from ..policies.sequential import RollTable

    inner = getattr(policy, "policy", policy)
    if not isinstance(inner, RollTable):
        return
    if Path(name).suffix == ".npy":
        warnings.warn(
            f"{name}: a bare boolean table, read as a simultaneous stopping rule roll[own, other, t]; "
            + _SEQUENTIAL_HINT.format(file=name),
            stacklevel=2,
        )
        return
    raise UsageError(f"policy: {name} holds a sequential roll table; " + _SEQUENTIAL_HINT.format(file=name))
