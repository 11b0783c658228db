"""What every command of :mod:`pigtheory.cli` shares: argument types (checked by argparse, none of
them imports numpy, so that ``pigtheory --help`` starts at once), the shared options, the policy
arguments and their rules, :func:`usage_checks` and :func:`emit`."""

from __future__ import annotations

import argparse
import contextlib
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:  # the rules load dataclasses and fractions: only when a command runs
    from ..rules import Rules

POLICY_FILES = (".json", ".csv", ".npy")
"""Suffixes of policy files (:mod:`pigtheory.io.policy_files`)."""

POLICY_HELP = "hold-at-N, optimal (the equilibrium), or a policy file (.json, .csv, .npy, or a result's .npz)"


class UsageError(Exception):
    """The command line is wrong: exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, raised as :class:`UsageError`."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message} (see {self.prog} --help)")


# --- argument types (no numpy here: --help must not load it) -------------------------------


def int_range(low: int | None = None, high: int | None = None) -> Any:
    """An argparse type: an integer in ``low..high``."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            try:  # an integral float (100.0, 1e6) is an integer, as in the Python API
                number = float(text)
            except ValueError:
                number = math.nan
            if not (math.isfinite(number) and number.is_integer()):
                raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
            value = int(number)
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"in {low}..{high}" if high is not None else f">= {low}"
            raise argparse.ArgumentTypeError(f"must be an integer {span}, got {value}")
        return value

    parse.__name__ = "integer"
    return parse


def positive_float(text: str) -> float:
    """An argparse type: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return value


def tolerance(text: str) -> float:
    """An argparse type: a tolerance on probabilities, a finite number in (0, 1)."""
    value = positive_float(text)
    if value >= 1:
        raise argparse.ArgumentTypeError(f"must be a number in (0, 1), got {text!r}")
    return value


MAX_ITER = 10**9
"""The most sweeps any ``--max-iter`` asks for (a bound, not a count to reach)."""


def non_empty(text: str) -> str:
    """An argparse type: text that is not empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


def memory_size(text: str) -> str:
    """An argparse type: a memory size such as ``512M`` or ``4G`` (kept as text)."""
    from ..guard import parse_memory

    try:
        parse_memory(text, "--max-memory")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def output_file(suffixes: Sequence[str]) -> Any:
    """An argparse type: a file name ending in one of ``suffixes`` that can be written."""

    def parse(text: str) -> str:
        if Path(text).suffix not in suffixes:
            raise argparse.ArgumentTypeError(f"must end in {', '.join(suffixes)}, got {text!r}")
        from ..io.atomic import check_writable

        try:
            check_writable(text, "file")
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        return text

    parse.__name__ = "file name"
    return parse


class PolicyArgument:
    """A policy named on the command line: the ``policy``, the ``text`` that named it and the
    ``rules`` its file records (None for ``hold-at-N`` and files without rules).

    Solvers read it like a result (through its ``policy``); error messages name ``text``.
    """

    __slots__ = ("text", "policy", "rules")

    def __init__(self, text: str, policy: Any, rules: Any = None) -> None:
        self.text, self.policy, self.rules = text, policy, rules

    def __str__(self) -> str:
        return self.text


OPTIMAL_NAMES = ("optimal", "equilibrium")
"""Names of the optimal policy on the command line: in simultaneous Pig (two players, zero-sum)
the equilibrium's mixed policy, solved for the command's rules; in sequential Pig (``compare``)
the optimal roll table."""

OPTIMAL_SIMULTANEOUS = "the simultaneous equilibrium"  # resolved by policy_for, once rules are known


def parse_policy(text: str) -> PolicyArgument:
    """An argparse type: ``hold-at-N`` or a policy file (any kind; checked against the rules
    later, by :func:`policy_for`)."""
    if text in OPTIMAL_NAMES:
        return PolicyArgument(text, OPTIMAL_SIMULTANEOUS)
    if text.startswith("hold-at-"):
        n = text.removeprefix("hold-at-")
        if not n.isdigit() or int(n) < 1:
            raise argparse.ArgumentTypeError(f"hold-at-N needs an integer N >= 1, got {text!r}")
        from ..policies import hold_at

        try:
            return PolicyArgument(text, hold_at(int(n)))
        except ValueError as exc:  # N past 2**62: the reason, not argparse's "invalid value"
            raise argparse.ArgumentTypeError(str(exc)) from None
    return read_policy_argument(text)


def read_policy_argument(text: str, kind: str | None = None) -> PolicyArgument:
    """A policy file named on the command line (a result's ``.npz``: its policy)."""
    path = Path(text)
    if path.suffix not in POLICY_FILES + (".npz",):
        raise argparse.ArgumentTypeError(
            f"expected hold-at-N or a policy file ending in .json, .csv, .npy or .npz, got {text!r}"
        )
    try:
        from ..io import load_with_rules
        from ..io.policy_files import policy_of

        obj, rules = load_with_rules(path, kind=kind)
        return PolicyArgument(text, policy_of(obj), rules)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    except OSError as exc:  # a name too long, a loop of links, no permission
        raise argparse.ArgumentTypeError(f"{text:.120}: cannot read it ({exc.strerror or exc})") from None


def check_file_rules(arg: PolicyArgument, rules: Rules) -> None:
    """A policy file that records rules must record these (usage error otherwise)."""
    if arg.rules is not None and arg.rules != rules:
        raise UsageError(f"{arg.text}: a policy for {arg.rules}, but the command's rules are {rules}")


# --- shared options -----------------------------------------------------------------------


def add_rules_arguments(p: argparse.ArgumentParser, players: bool = True, files: bool = False) -> None:
    """``--goal`` and (unless ``players=False``) ``--players``; with ``files=True`` the command
    takes policy files, and their recorded rules are the default (see :func:`rules_from`)."""
    known = ", or what the policy files record" if files else ""
    p.add_argument("--goal", type=int_range(1), default=None, help=f"score that wins (default 100{known})")
    if players:
        p.add_argument(
            "--players", type=int_range(2), default=None, help=f"number of players (default 2{known})"
        )


def add_common_arguments(p: argparse.ArgumentParser, json_output: bool = True) -> None:
    """``--json`` (if the command prints numbers), ``--max-memory`` and ``--debug``."""
    if json_output:
        p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.add_argument(
        "--max-memory",
        type=memory_size,
        default=None,
        metavar="SIZE",
        help="refuse solves estimated above SIZE (e.g. 4G; default: half the available memory)",
    )
    p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks")
    p.add_argument(
        "--no-cache",
        action="store_true",
        default=argparse.SUPPRESS,
        help="neither read nor write the cache of solves ('pigtheory cache info' shows it)",
    )


def add_out_argument(
    p: argparse.ArgumentParser, what: str, suffixes: Sequence[str] = POLICY_FILES, aliases: Sequence[str] = ()
) -> None:
    """``--out FILE`` writing ``what`` as a policy file."""
    p.add_argument(
        "--out",
        *aliases,
        type=output_file(suffixes),
        metavar="FILE",
        help=f"write {what} to FILE ({', '.join(suffixes)}; see 'Policy files' in the README)",
    )


def rules_from(args: argparse.Namespace, files: Sequence[Any] = (), **extra: Any) -> Rules:
    """The rules of the command line (a bad combination is a usage error).

    ``--goal`` and ``--players`` when given; else the rules that the first of ``files`` (policy
    arguments) records, if any does; else the defaults (goal 100, two players). A file whose
    rules differ from the result is refused later, by :func:`policy_for`."""
    import dataclasses

    from ..rules import Rules

    recorded = [f.rules for f in files if isinstance(f, PolicyArgument) and f.rules is not None]
    kw: dict[str, Any] = {}
    if args.goal is not None:
        kw["goal"] = args.goal
    if getattr(args, "players", None) is not None:
        kw["players"] = args.players
    kw.update(extra)
    try:
        return dataclasses.replace(recorded[0], **kw) if recorded else Rules(**kw)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


@contextlib.contextmanager
def usage_checks() -> Iterator[None]:
    """Checks before the work: a ``ValueError`` inside is a usage error (exit status 2)."""
    try:
        yield
    except UsageError:
        raise
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def policy_for(policy: Any, rules: Rules, label: str) -> Any:
    """Check a simultaneous policy against the rules before any work (usage error if invalid);
    returns the policy (a :class:`PolicyArgument` is unwrapped and names itself)."""
    from ..policies.sequential import RollTable
    from ..stopping import StoppingRule, as_turn_policy

    if isinstance(policy, PolicyArgument):
        check_file_rules(policy, rules)
        label, policy = policy.text, policy.policy
    if policy is OPTIMAL_SIMULTANEOUS:
        if rules.players != 2:
            raise UsageError(f"{label}: 'optimal' (the equilibrium) is solved for two players here")
        from ..simultaneous import equilibrium

        return equilibrium(rules=rules).policy
    if isinstance(policy, RollTable):  # a bare bool table (.npy) in simultaneous play: roll[..., t]
        policy = StoppingRule(policy.roll, name=str(policy))
    try:
        as_turn_policy(policy, rules)  # thresholds or stopping rules, as every solver reads them
    except ValueError as exc:
        raise UsageError(f"{label}: {exc}") from None
    return policy


def write_table(table: Any, path: str, rules: Rules | None = None) -> None:
    """Write a policy (or a bare table) as a policy file; the suffix picks the format."""
    from ..io import write_policy

    write_policy(table, path, rules=rules)


def add_method_arguments(p: argparse.ArgumentParser, *, tol: float, max_iter: int) -> None:
    """``--method exact|value_iteration`` with the iteration's ``--tol`` and ``--max-iter``."""
    p.add_argument(
        "--method",
        choices=("exact", "value_iteration"),
        default="exact",
        help="exact backward induction (default) or the paper's value iteration",
    )
    p.add_argument(
        "--tol",
        type=tolerance,
        default=tol,
        help=f"value iteration: stop below this change (default {tol:g})",
    )
    p.add_argument(
        "--max-iter",
        type=int_range(1, MAX_ITER),
        default=max_iter,
        help="value iteration: at most this many sweeps",
    )


def method_options(args: argparse.Namespace) -> dict[str, Any]:
    """The solver keywords of :func:`add_method_arguments` and ``--max-memory``, as parsed:
    ``method``, ``tol``, ``max_iter`` and ``max_memory``."""
    return {"method": args.method, "tol": args.tol, "max_iter": args.max_iter, "max_memory": args.max_memory}


class _ActionSetNames:
    """The names of the registered action sets, read when argparse asks (so that importing
    the command line does not import the solvers)."""

    def _names(self) -> tuple[str, ...]:
        from ..simultaneous.core import ACTION_SETS

        return tuple(ACTION_SETS)

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Any:
        return iter(self._names())


def add_strategies_argument(p: argparse.ArgumentParser, whose: str = "the") -> None:
    """``--strategies thresholds|stopping|...``: the strategy class of a simultaneous solver
    (every registered action set, :func:`pigtheory.simultaneous.core.register_action_set`)."""
    p.add_argument(
        "--strategies",
        choices=_ActionSetNames(),  # type: ignore[arg-type]
        metavar="{thresholds,stopping,...}",
        default="thresholds",
        help=f"{whose} strategies: hold-at-k thresholds (default) or every stopping rule",
    )


def emit(args: argparse.Namespace, fields: dict[str, Any], lines: Sequence[str]) -> None:
    """Print ``fields`` as JSON with ``--json``, else the text ``lines``."""
    if getattr(args, "json", False):
        import json

        print(json.dumps(_plain(fields), allow_nan=False))
    else:
        for line in lines:
            print(line)


def _plain(x: Any) -> Any:
    """JSON-ready: numpy scalars and arrays as Python numbers and lists, rules as a dict."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    from ..rules import Rules

    if isinstance(x, Rules):
        from ..io.policy_files import rules_to_dict

        return rules_to_dict(x)
    if hasattr(x, "tolist"):
        return _plain(x.tolist())
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def named_file(option: str, name: str) -> bool:
    """Whether ``name`` (an opponent's name or a policy file) names a readable file; a folder,
    a named pipe or a link to nowhere of that name is refused as what it is (``ValueError``),
    not read as an unknown name or waited on."""
    import os

    from ..io.atomic import check_readable_file
    from ..validation import check_path

    path = check_path(option, name)
    if not os.path.lexists(path):
        return False
    try:
        check_readable_file(path, "a policy file")
    except ValueError as exc:
        raise ValueError(f"{option}: {exc}") from None
    return True
