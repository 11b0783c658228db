"""``pigtheory referee``: score a policy file exactly (value, best-response gains, exploitability,
NashConv) on a PigBench task or on rules given on the command line."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from .args import (
    UsageError,
    add_common_arguments,
    add_rules_arguments,
    emit,
    int_range,
    output_file,
    parse_policy,
)

_STATE = re.compile(r"Scores:((?: -?\d+)+), Turn total: (\d+)\nCurrent player: (\d+)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "referee",
        help="score a policy file exactly: value, best-response gains, exploitability, NashConv",
        description="Score a policy exactly on a PigBench task (--task) or on the rules given "
        "(--goal, --players, --horizon): the value from the start, each seat's best-response gain, "
        "the exploitability and NashConv. FILE: a pigtheory policy or result file (.json, .csv, "
        ".npy, .npz), a NumPy table of P(roll) (.npy, shape (goal,) * (players + 1)) or an "
        "OpenSpiel TabularPolicy saved as its to_dict() in JSON.",
    )
    p.add_argument("file", metavar="FILE", help="the policy file")
    p.add_argument("--task", default=None, metavar="NAME", help="a PigBench task (pigtheory.referee.tasks)")
    add_rules_arguments(p)
    p.add_argument("--horizon", type=int_range(1, 10**6), default=None, help="OpenSpiel's move limit")
    p.add_argument(
        "--against",
        default=None,
        metavar="OPPONENT",
        help="also the policy's value against optimal, hold-at-K or a policy FILE (mean over both seats)",
    )
    p.add_argument(
        "--out",
        default=None,
        type=output_file((".json",)),
        metavar="FILE",
        help="write the scores as JSON to FILE",
    )
    add_common_arguments(p)
    p.set_defaults(func=_referee)


def _openspiel_dict(data: Any, rules: Any) -> Any:
    """An OpenSpiel ``TabularPolicy.to_dict()`` of ``pig`` as the referee's table (two players)."""
    import numpy as np

    n, g = rules.players, rules.goal
    table = np.zeros((g,) * (n + 1))
    seen = 0
    for key, pairs in data.items():
        m = _STATE.match(key)
        if m is None:
            raise ValueError(f"an OpenSpiel policy of pig: a key {key[:60]!r} is not a pig state")
        scores = [int(s) for s in m.group(1).split()]
        k, p = int(m.group(2)), int(m.group(3))
        if len(scores) != n:
            raise ValueError(f"an OpenSpiel policy of {len(scores)} players, the rules have {n}")
        own = scores[p]
        if own + k >= g or max(scores) >= g:
            continue
        probs = {int(a): float(q) for a, q in pairs}
        table[(own,) + tuple(scores[(p + q) % n] for q in range(1, n)) + (k,)] = probs.get(0, 0.0)
        seen += 1
    if not seen:
        raise ValueError("an OpenSpiel policy of pig with no live state")
    return table


def _read(text: str, rules: Any) -> Any:
    """The policy of ``text``: hold-at-K, optimal, or a file (module docstring)."""
    import numpy as np

    if text == "optimal":
        return "optimal"
    path = Path(text)
    try:
        if path.suffix == ".npy":
            arr = np.load(path, allow_pickle=False)
            if arr.dtype.kind == "f":
                return arr
        elif path.suffix == ".json":
            data = json.loads(path.read_text())
            if (
                isinstance(data, dict)
                and data
                and all(isinstance(k, str) and k.startswith("Scores:") for k in data)
            ):
                return _openspiel_dict(data, rules)
    except (OSError, ValueError) as exc:
        raise UsageError(f"{text:.120}: cannot read it ({exc})") from None
    try:
        arg = parse_policy(text)
    except argparse.ArgumentTypeError as exc:
        raise UsageError(str(exc)) from None
    if arg.rules is not None and (arg.rules.goal, arg.rules.players) != (rules.goal, rules.players):
        raise UsageError(f"{text}: a policy for {arg.rules}, but the rules scored are {rules}")
    return arg.policy


def _referee(args: argparse.Namespace) -> int:
    from ..referee.tasks import Task, task
    from ..rules import Rules

    if args.task is not None and (args.goal, args.players, args.horizon) != (None, None, None):
        raise UsageError("--task fixes the game: give --task or --goal/--players/--horizon, not both")
    try:
        if args.task is not None:
            t = task(args.task)
        else:
            rules = Rules(goal=args.goal or 100, players=args.players or 2)
            measure = "nash_conv" if rules.players > 2 else "exploitability"
            t = Task("custom", rules, "sequential", measure, args.horizon, description=str(rules))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.against is not None and t.rules.players != 2:
        raise UsageError("--against: two players only")
    policy = _read(args.file, t.rules)
    against = None if args.against is None else _read(args.against, t.rules)
    if isinstance(policy, str):
        policy = t.optimum() if t.play == "sequential" else t.optimum().policy
    if isinstance(against, str):
        against = t.optimum() if t.play == "sequential" else t.optimum().policy
    e = t.exploitability(policy)
    fields: dict[str, Any] = {
        "task": t.name,
        "game": t.description,
        "play": t.play,
        "rules": t.rules,
        "horizon": t.horizon,
        "measure": t.measure,
        "value": e.value,
        "best_response": e.best_response,
        "gains": e.gains,
        "exploitability": e.exploitability,
        "nash_conv": e.nash_conv,
        "openspiel_exploitability": e.openspiel_exploitability,
    }
    lines = [
        f"game: {t.description} ({t.name}); measure: {t.measure}",
        "value from the start (self-play): " + ", ".join(f"seat {p} {v:.10f}" for p, v in enumerate(e.value)),
        "best-response gain: " + ", ".join(f"seat {p} {v:.10f}" for p, v in enumerate(e.gains)),
        f"exploitability: {e.exploitability:.10f}  NashConv: {e.nash_conv:.10f}",
    ]
    if against is not None:
        if t.play == "simultaneous":
            import numpy as np

            from ..simultaneous import win_probabilities

            first = float(np.asarray(win_probabilities([policy, against], rules=t.rules))[0, 0, 0])
            second = float(np.asarray(win_probabilities([against, policy], rules=t.rules))[1, 0, 0])
        else:
            from ..referee.evaluate import evaluate

            first = float(evaluate([policy, against], rules=t.rules, horizon=t.horizon).value_start[0])
            second = float(evaluate([against, policy], rules=t.rules, horizon=t.horizon).value_start[1])
        fields["against"] = {
            "opponent": args.against,
            "first": first,
            "second": second,
            "mean": (first + second) / 2,
        }
        lines.append(
            f"value against {args.against}: {(first + second) / 2:.10f} (first {first:.10f}, second {second:.10f})"
        )
    if args.out:
        from ..io import atomic_write
        from .args import _plain

        text = json.dumps(_plain(fields), allow_nan=False, indent=1)

        def write(tmp: str) -> None:
            Path(tmp).write_text(text)

        atomic_write(args.out, write)
    emit(args, fields, lines)
    return 0
