"""The ``pigtheory`` command.

Each family of solvers adds its subcommands from a module of its own (listed in
``_COMMAND_MODULES``), each with a ``register(subparsers)`` that adds parsers whose
``func(args)`` runs the command; this module holds the shared parsing helpers.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .policies import hold_at
from .rules import Rules

_COMMAND_MODULES = (
    "pigtheory._cli_basic",
    "pigtheory._cli_best_response",
    "pigtheory._cli_sequential",
    "pigtheory._cli_multiplayer",
    "pigtheory._cli_equilibrium",
    "pigtheory._cli_play",
    "pigtheory._cli_sweep",
    "pigtheory._cli_symmetric",
)


def parse_policy(text: str) -> Any:
    """``hold-at-N`` or a file ``.npy`` / ``.csv`` holding a threshold table."""
    if text.startswith("hold-at-"):
        try:
            return hold_at(int(text.removeprefix("hold-at-")))
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    path = Path(text)
    if path.suffix == ".npy" and path.exists():
        return np.load(path)
    if path.suffix == ".csv" and path.exists():
        return np.loadtxt(path, delimiter=",", dtype=np.int64, ndmin=2)
    raise argparse.ArgumentTypeError(f"policy must be hold-at-N or an existing .npy/.csv file, got {text!r}")


def add_rules_arguments(p: argparse.ArgumentParser, players: bool = True) -> None:
    p.add_argument("--goal", type=int, default=100, help="score that wins (default 100)")
    if players:
        p.add_argument("--players", type=int, default=2, help="number of players (default 2)")


def rules_from(args: argparse.Namespace, **extra: Any) -> Rules:
    kw: dict[str, Any] = {"goal": args.goal}
    if hasattr(args, "players"):
        kw["players"] = args.players
    kw.update(extra)
    return Rules(**kw)


def write_table(table: np.ndarray, path: str) -> None:
    """Write an int table as ``.npy`` or ``.csv`` (2-D only), atomically."""
    from .io import atomic_write

    if path.endswith(".npy"):
        atomic_write(path, lambda tmp: np.save(open(tmp, "wb"), table))
    elif path.endswith(".csv"):
        if table.ndim != 2:
            raise SystemExit("CSV output needs a 2-D table; use .npy")
        atomic_write(path, lambda tmp: np.savetxt(tmp, table, fmt="%d", delimiter=","))
    else:
        raise SystemExit(f"output file must end in .npy or .csv, got {path!r}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pigtheory", description="Solve the dice game Pig and its variants."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name in _COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except ValueError as exc:
        print(f"pigtheory: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
