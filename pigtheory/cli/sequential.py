"""``pigtheory sequential`` and ``pigtheory compare`` (turn-taking Pig)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .args import (
    MAX_ITER,
    POLICY_FILES,
    UsageError,
    add_common_arguments,
    add_out_argument,
    check_file_rules,
    emit,
    int_range,
    read_policy_argument,
    tolerance,
)

if TYPE_CHECKING:
    from ..rules import Rules

_POLICY_HELP = (
    "optimal, hold-at-N, scoring-turns-T, base-pace-race[-B-P-E], pace-race[-C-D-E], "
    "or a policy file (.json, .csv, .npy: a roll table or a threshold table; a result's .npz)"
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sequential",
        help="optimal sequential play (one die, Piglet, two dice, Double Trouble; 2..10 players)",
        description=(
            "Optimal play of two-player sequential (turn-taking) Pig and the first player's chance; "
            "with --players N (3..10) or --allow-pass, a stationary equilibrium of N-player "
            "sequential Pig (one die or Piglet) with its certificates."
        ),
    )
    _rules_args(p)
    p.add_argument("--players", type=int_range(2, 10), default=2, help="number of players, 2..10 (default 2)")
    p.add_argument(
        "--allow-pass",
        action="store_true",
        help="a player may hold with turn total 0 (OpenSpiel's pig); one die or Piglet",
    )
    p.add_argument(
        "--tol",
        type=tolerance,
        default=1e-12,
        help="two dice: stop when a sweep changes less (default 1e-12)",
    )
    p.add_argument(
        "--max-iter",
        type=int_range(1, MAX_ITER),
        default=100_000,
        help="two dice: at most this many sweeps (default 100000)",
    )
    p.add_argument(
        "--plan",
        action="store_true",
        help="N players: print the plan of a chunked solve (tuples, disk, memory per worker, tasks, "
        "levels, critical path, CPU and wall time) and stop, nothing solved",
    )
    p.add_argument(
        "--store",
        metavar="FOLDER",
        help="N players: solve out of core, the arrays in this folder (resumed if it holds this solve)",
    )
    p.add_argument(
        "--workers",
        type=int_range(1, 10**6),
        default=1,
        help="with --store: worker processes here (default 1); with --plan: workers of the plan",
    )
    p.add_argument(
        "--worker-memory",
        metavar="SIZE",
        help="with --plan or --store: memory of one worker (e.g. 3G); the chunks the plan predicts "
        "fastest on --workers workers, filling at most half of one, the score sums cut for one worker "
        "or for all (default: 64 MiB of gathered rows, not cut for the workers)",
    )
    add_out_argument(
        p,
        "the optimal roll table (N players: the equilibrium policy with its mixing probabilities; "
        ".npz compact, .json and .csv the dense table prob[own, other1, ..., turn_total])",
        POLICY_FILES + (".npz",),
    )
    add_common_arguments(p)
    p.set_defaults(func=_sequential)

    p = sub.add_parser(
        "compare",
        help="exact win probabilities of policy A against policy B (Algorithm 1)",
        description="Exact win probabilities of policy A against policy B in sequential Pig, A first and second.",
    )
    p.add_argument("policy_a", help=f"player A's policy: {_POLICY_HELP}")
    p.add_argument("policy_b", help="player B's policy (the same forms)")
    _rules_args(p)
    p.add_argument(
        "--tol",
        type=tolerance,
        default=1e-13,
        help="two dice: iterate the comparison until a sweep changes less (default 1e-13)",
    )
    add_common_arguments(p)
    p.set_defaults(func=_compare)


def _rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--goal", type=int_range(1), default=None, help="score that wins (default 100; Piglet 10)")
    p.add_argument("--dice", type=int, choices=(1, 2), default=None, help="number of dice (default 1)")
    p.add_argument(
        "--double-trouble",
        action="store_true",
        help="two dice, and a non-ones double must roll again (implies --dice 2)",
    )
    p.add_argument(
        "--piglet", action="store_true", help="Neller's coin game (not with --dice or --double-trouble)"
    )


def _rules(args: argparse.Namespace) -> Rules:
    if args.piglet and (args.dice is not None or args.double_trouble):
        raise UsageError("--piglet is a coin game: it takes no --dice or --double-trouble")
    if args.double_trouble and args.dice == 1:
        raise UsageError("--double-trouble is a two-dice game: drop --dice 1")
    from ..rules import Rules

    goal = args.goal if args.goal is not None else (10 if args.piglet else 100)
    if args.piglet:
        return Rules.piglet(goal=goal)
    dice = 2 if args.double_trouble else (args.dice or 1)
    return Rules(goal=goal, dice=dice, double_trouble=args.double_trouble)


def _check_solve(rules: Rules, max_memory: Any) -> None:
    from ..guard import check_memory, sequential_estimate

    check_memory(sequential_estimate(rules), max_memory)


OPTIMAL = "optimal"


def parse_sequential_policy(text: str, rules: Rules) -> Any:
    """A policy of the command line for sequential play, checked against ``rules``
    (``"optimal"`` stays the string :data:`OPTIMAL`: it is solved only once all is checked)."""
    from ..policies.sequential import roll_tables
    from ..sequential import base_pace_race, pace_race, scoring_turns

    if text == OPTIMAL:
        return OPTIMAL
    patterns: list[tuple[str, Any]] = [
        (r"hold-at-(\d+)", lambda n: n),
        (r"scoring-turns-(\d+)", scoring_turns),
        (r"base-pace-race(?:-(\d+)-(\d+)-(\d+))?", base_pace_race),
        (r"pace-race(?:-(\d+)-(\d+)-(\d+))?", pace_race),
    ]
    for pattern, make in patterns:
        m = re.fullmatch(pattern, text)
        if m:
            values = [int(g) for g in m.groups() if g is not None]
            try:
                policy = make(*values)
                if isinstance(policy, int):
                    from ..policies import hold_at

                    policy = hold_at(policy)
            except ValueError as exc:
                raise UsageError(f"policy {text!r}: {exc}") from None
            return policy
    if re.fullmatch(r"[a-z-]+(-\d+)*", text) and not text.endswith((".json", ".csv", ".npy", ".npz")):
        raise UsageError(f"policy must be {_POLICY_HELP}; got {text!r}")
    try:
        arg = read_policy_argument(text, kind="roll_table")
    except argparse.ArgumentTypeError as exc:
        raise UsageError(str(exc)) from None
    check_file_rules(arg, rules)
    policy = arg.policy
    try:
        roll_tables(policy, rules)
    except ValueError as exc:
        raise UsageError(f"{text}: {exc}") from None
    return policy


def _sequential(args: argparse.Namespace) -> int:
    rules = _rules(args)
    if args.worker_memory is not None and not args.plan and args.store is None:
        raise UsageError("--worker-memory is for --plan or --store (the memory of one worker)")
    if args.plan or args.store is not None:
        if args.store is not None and not args.plan:
            from ..validation import check_path

            check_path("--store", args.store)
        if args.players < 3 and not args.allow_pass:
            raise UsageError("--plan and --store are for --players 3..10 (or --allow-pass)")
        if rules.dice != 1:
            raise UsageError("--plan and --store are for one die or --piglet (not --dice 2)")
        rules = rules.replace(players=args.players)
        return _plan(args, rules) if args.plan else _chunked(args, rules)
    if args.players > 2 or args.allow_pass:
        return _multiplayer(args, rules.replace(players=args.players))
    if args.out and args.out.endswith(".npz"):
        raise UsageError("--out: the two-player roll table is written as .json, .csv or .npy")
    from ..sequential import solve

    sol = solve(rules=rules, tol=args.tol, max_iter=args.max_iter, max_memory=args.max_memory)
    if args.out:
        from ..io import write_policy

        write_policy(sol, args.out)
    emit(
        args,
        {
            "rules": rules,
            "first_player_win": sol.first_player_win,
            "method": sol.method,
            "iterations": sol.iterations,
            "residual": sol.residual,
            "out": args.out,
        },
        [
            f"{rules}",
            f"first player's win probability (both optimal): {sol.first_player_win:.10f}",
            f"method: {sol.method}; iterations {sol.iterations}; residual {sol.residual:.1e}",
        ],
    )
    return 0


def _multiplayer(args: argparse.Namespace, rules: Rules) -> int:
    if rules.dice != 1:
        raise UsageError("--players above 2 and --allow-pass are for one die or --piglet (not --dice 2)")
    if args.out and args.out.endswith(".npy"):
        raise UsageError(
            "--out: the n-player policy (roll probabilities with their mixing) is written as .json, "
            ".csv (the dense table) or .npz (compact)"
        )
    from ..guard import check_memory, sequential_equilibrium_estimate

    check_memory(sequential_equilibrium_estimate(rules), args.max_memory)
    if args.out and not args.out.endswith(".npz"):
        _check_policy_file_size(rules, args.out, args.max_memory)
    from ..sequential import equilibrium

    eq = equilibrium(rules=rules, allow_pass=args.allow_pass, max_memory=args.max_memory)
    if args.out:
        from ..io import save

        save(eq.policy, args.out)
    sv = [float(x) for x in eq.start_values]
    emit(
        args,
        {
            "rules": rules,
            "allow_pass": args.allow_pass,
            "start_values": sv,
            "opening_threshold": eq.opening_threshold,
            "mixed_groups": eq.mixed_groups.tolist(),
            "n_mixed_groups": len(eq.mixed_groups),
            "n_mixed_states": len(eq.policy.mixed_states),
            "several_groups": len(eq.several_groups),
            "seat_gain": [float(x) for x in eq.seat_gain],
            "max_deviation_gain": float(eq.deviation_gain.max()),
            "nash_conv": eq.nash_conv,
            "method": eq.method,
            "out": args.out,
        },
        [
            f"{rules}" + (", passing allowed" if args.allow_pass else ""),
            "win probability by seat (stationary equilibrium): " + ", ".join(f"{v:.6f}" for v in sv),
            f"first player's opening hold threshold: {eq.opening_threshold}",
            f"groups that mix: {len(eq.mixed_groups)}; groups with several equilibria found: {len(eq.several_groups)}",
            f"largest one-shot deviation gain {float(eq.deviation_gain.max()):.1e}; NashConv {eq.nash_conv:.1e}",
        ],
    )
    return 0


def _plan(args: argparse.Namespace, rules: Rules) -> int:
    from ..sequential.multiplayer.plan import plan

    try:
        p = plan(rules=rules, workers=args.workers, worker_memory=args.worker_memory)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    emit(args, {"rules": rules, **p.as_dict()}, p.text().splitlines())
    return 0


def _chunked(args: argparse.Namespace, rules: Rules) -> int:
    from concurrent.futures import ProcessPoolExecutor

    from ..sequential import equilibrium

    if args.out:
        raise UsageError("--out: a chunked solve keeps its arrays in --store")
    chunk, spread = None, 1
    if args.worker_memory is not None:  # the plan's chunks for workers of this size
        from ..sequential.multiplayer.plan import plan

        try:
            p = plan(rules=rules, workers=args.workers, worker_memory=args.worker_memory)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        chunk, spread = p.chunk, p.spread
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        eq = equilibrium(
            rules=rules,
            allow_pass=args.allow_pass,
            store=args.store,
            executor=pool,
            chunk=chunk,
            spread=spread,
            max_memory=args.max_memory,
        )
    finally:
        if pool is not None:
            pool.shutdown()
    sv = [float(x) for x in eq.start_values]
    emit(
        args,
        {
            "rules": rules,
            "allow_pass": args.allow_pass,
            "store": eq.store,
            "start_values": sv,
            "opening_threshold": eq.opening_threshold,
            "n_mixed_groups": len(eq.mixed_groups),
            "n_mixed_states": len(eq.mixed_states),
            "several_groups": len(eq.several_groups),
            "seat_gain": [float(x) for x in eq.seat_gain],
            "nash_conv": eq.nash_conv,
            "tasks": eq.n_tasks,
        },
        [
            f"{rules}" + (", passing allowed" if args.allow_pass else "") + f" (chunked, store {eq.store})",
            "win probability by seat (stationary equilibrium): " + ", ".join(f"{v:.6f}" for v in sv),
            f"first player's opening hold threshold: {eq.opening_threshold}",
            f"groups that mix: {len(eq.mixed_groups)}; groups with several equilibria found: {len(eq.several_groups)}",
            f"NashConv {eq.nash_conv:.1e} ({eq.n_tasks} tasks)",
        ],
    )
    return 0


def _check_policy_file_size(rules: Rules, out: str, max_memory: Any) -> None:
    """The dense table of a .json or .csv policy file must fit the memory limit (checked
    before the solve)."""
    from ..guard import Estimate, check_memory

    n, g = rules.players, rules.goal
    entries = g ** (n + 1)
    per = 8 + (64 if out.endswith(".json") else 8 * (2 * n + 4))
    check_memory(
        Estimate(
            f"multiplayer policy file ({rules}, {out})",
            entries,
            per * entries,
            "write the compact policy as .npz (--out policy.npz)",
        ),
        max_memory,
    )


def _recorded_rules(args: argparse.Namespace, texts: Sequence[str]) -> Rules | None:
    """The rules the first policy file among ``texts`` records, when the command line sets no
    rules (no --goal, --dice, --double-trouble, --piglet): one rule for every command, as
    :func:`~.args.rules_from` (a file of goal 20 is read at goal 20)."""
    if args.goal is not None or args.dice is not None or args.double_trouble or args.piglet:
        return None
    for text in texts:
        if Path(text).suffix in (".json", ".csv", ".npy", ".npz") and Path(text).is_file():
            try:
                recorded = read_policy_argument(text, kind="roll_table").rules
            except argparse.ArgumentTypeError:
                continue  # the file's own reading reports it, with the rules in force
            if recorded is not None:
                return recorded
    return None


def _compare(args: argparse.Namespace) -> int:
    rules = _recorded_rules(args, (args.policy_a, args.policy_b)) or _rules(args)
    from ..guard import check_memory, compare_estimate

    a = parse_sequential_policy(args.policy_a, rules)
    b = parse_sequential_policy(args.policy_b, rules)
    check_memory(compare_estimate(rules), args.max_memory)
    if any(x is OPTIMAL for x in (a, b)):
        from ..sequential.cache import cached_solve

        _check_solve(rules, args.max_memory)
        optimal = cached_solve(rules=rules)
        a, b = (optimal if x is OPTIMAL else x for x in (a, b))
    from ..sequential import compare

    c = compare(a, b, rules=rules, tol=args.tol, max_memory=args.max_memory)
    lines = [
        f"{rules}: {args.policy_a} against {args.policy_b}",
        f"A first  {c.first:.6f}",
        f"A second {c.second:.6f}",
        f"average  {c.average:.6f}",
    ]
    if c.iterations:
        lines.append(f"({c.iterations} iterations, residual {c.residual:.1e})")
    emit(
        args,
        {
            "rules": rules,
            "policy_a": args.policy_a,
            "policy_b": args.policy_b,
            "first": c.first,
            "second": c.second,
            "average": c.average,
            "method": c.method,
            "iterations": c.iterations,
            "residual": c.residual,
        },
        lines,
    )
    return 0
