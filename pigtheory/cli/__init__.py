"""The ``pigtheory`` command.

Each family of commands lives in a module of its own, in ``pigtheory/cli/``, listed in ``_COMMAND_MODULES`` (adding
a family is one line there); its ``register(subparsers)`` adds parsers whose ``func(args)``
runs the command. Building the parser imports those small modules but neither numpy nor the
solvers, which a command imports when it runs: ``pigtheory --help`` starts at once.

A command checks everything before it starts to work: argparse checks types and ranges
(the helpers of :mod:`pigtheory.cli.args`), then the command checks what needs several arguments together (the
policies against the rules, the output file against what the command writes) inside
:func:`usage_checks`. Exit status:

* 0: done;
* 1: the command could not be carried out (the memory limit refuses the solve, a write
  fails, an unexpected error);
* 2: a usage error (a value out of range, options that exclude each other, an unreadable
  policy file, an output file the command cannot write, and any other input a solver refuses
  with ``ValueError``, the library's word for bad input).

Errors are one line on stderr (``pigtheory <command>: error: ...``); ``--debug`` adds the
traceback. ``--json`` prints the numbers of a command as one JSON object with labelled
fields instead of text.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Sequence

from .._version import __version__
from .args import (
    POLICY_FILES,
    POLICY_HELP,
    Parser,
    PolicyArgument,
    UsageError,
    add_common_arguments,
    add_method_arguments,
    add_out_argument,
    add_rules_arguments,
    add_strategies_argument,
    check_file_rules,
    emit,
    int_range,
    memory_size,
    output_file,
    parse_policy,
    policy_for,
    positive_float,
    read_policy_argument,
    rules_from,
    usage_checks,
    write_table,
)

__all__ = [
    "POLICY_FILES",
    "POLICY_HELP",
    "Parser",
    "PolicyArgument",
    "UsageError",
    "add_common_arguments",
    "add_method_arguments",
    "add_out_argument",
    "add_rules_arguments",
    "add_strategies_argument",
    "build_parser",
    "check_file_rules",
    "emit",
    "int_range",
    "main",
    "memory_size",
    "one_line",
    "output_file",
    "parse_policy",
    "policy_for",
    "positive_float",
    "read_policy_argument",
    "rules_from",
    "usage_checks",
    "write_table",
]

_COMMAND_MODULES = (
    "pigtheory.cli.basic",
    "pigtheory.cli.best_response",
    "pigtheory.cli.sequential",
    "pigtheory.cli.multiplayer",
    "pigtheory.cli.equilibrium",
    "pigtheory.cli.play",
    "pigtheory.cli.sweep",
    "pigtheory.cli.symmetric",
    "pigtheory.cli.cache",
    "pigtheory.cli.referee",
)


# --- the command --------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="pigtheory",
        description="Solve the dice game Pig and its variants exactly.",
        epilog="Exit status: 0 done, 1 failed (e.g. over the memory limit), 2 usage error. "
        "'pigtheory COMMAND --help' describes a command. Solves are cached in $PIGTHEORY_CACHE_DIR "
        "or the user's cache folder (~/.cache/pigtheory on Linux): 'pigtheory cache info' shows "
        "where and its size, 'pigtheory cache clear' empties it, --no-cache skips it.",
    )
    parser.add_argument("--version", action="version", version=f"pigtheory {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the cache of solves")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help="the command, one of:")
    for name in _COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def one_line(text: str) -> str:
    """``text`` with control characters (newlines in a file name, say) escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _fail(prog: str, message: str) -> None:
    print(one_line(f"{prog}: error: {message}"), file=sys.stderr)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush into a closed pipe
    prints nothing."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(argv)
    except UsageError as exc:
        print(one_line(str(exc)), file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else 0
    except OSError as exc:  # an argument's file could not be looked at
        from ..io.atomic import os_error_message

        print(one_line(f"pigtheory: error: {os_error_message(exc)}"), file=sys.stderr)
        return 2
    except (ValueError, OverflowError) as exc:
        print(one_line(f"pigtheory: error: {exc}"), file=sys.stderr)
        return 2
    prog = f"pigtheory {args.command}"
    debug = bool(getattr(args, "debug", False))
    from ..guard import MemoryLimitError

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if getattr(args, "no_cache", False):
                from ..io.cache import cache_disabled

                with cache_disabled():
                    status = int(args.func(args) or 0)
            else:
                status = int(args.func(args) or 0)
        except UsageError as exc:
            _fail(prog, f"{exc} (see {prog} --help)")
            status = 2
        except MemoryLimitError as exc:
            _fail(prog, str(exc))
            status = 1
        except ValueError as exc:  # the library's word for input it refuses: a usage error
            if debug:
                import traceback

                traceback.print_exc()
            _fail(prog, f"{exc} (see {prog} --help)")
            status = 2
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):  # the reader went away (| head): stop quietly
                _quiet_stdout()
                return 1
            if debug:
                import traceback

                traceback.print_exc()
            from ..io.atomic import os_error_message

            _fail(prog, os_error_message(exc))
            status = 1
        except ImportError as exc:  # an optional extra that is not installed names itself
            _fail(prog, str(exc))
            status = 1
        except KeyboardInterrupt:
            _fail(prog, "interrupted")
            status = 130
        except Exception as exc:
            if debug:
                import traceback

                traceback.print_exc()
            _fail(prog, f"internal error, {type(exc).__name__}: {exc} (--debug shows the traceback)")
            status = 1
    for w in caught:
        if issubclass(w.category, DeprecationWarning):
            continue
        print(one_line(f"{prog}: warning: {w.message}"), file=sys.stderr)
    return status
