"""Argument checks shared by every solver, and the one warning an unfinished iteration raises.

Every public entry point checks its arguments here before any work starts, so the same
mistake gets the same message everywhere: a :class:`ValueError` naming the parameter, the
allowed range and what was passed.

Examples
--------
>>> check_int("max_iter", 0, low=1)
Traceback (most recent call last):
...
ValueError: max_iter must be an integer >= 1, got 0
>>> check_choice("method", "iteration", ("exact", "value_iteration"))
Traceback (most recent call last):
...
ValueError: method must be one of 'exact', 'value_iteration'; got 'iteration'
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from .rules import Rules, integral

__all__ = [
    "ConvergenceWarning",
    "check_rules",
    "check_simultaneous_rules",
    "check_int",
    "check_tol",
    "check_choice",
    "check_progress",
    "check_rng",
    "check_path",
    "check_type",
    "check_ints",
    "check_number",
    "check_optional_path",
    "check_callable",
    "check_openspiel_game",
    "NAME_MAX",
]

NAME_MAX = 255
"""The longest file or folder name (in bytes) the common file systems take."""

METHODS = ("exact", "value_iteration")
"""The one ``method=`` vocabulary: backward induction, or the paper's iteration."""


class ConvergenceWarning(RuntimeWarning):
    """An iteration stopped at ``max_iter`` before its stopping rule was met.

    The result is returned (its ``residual`` says how far it got); raise ``max_iter`` or
    ``tol``, or use ``method="exact"`` where there is one.
    """


def check_rules(rules: Any) -> Rules:
    """``rules`` must be a :class:`~pigtheory.Rules`."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a pigtheory.Rules, got {type(rules).__name__}")
    return rules


def check_simultaneous_rules(rules: Any, players: int | None = None) -> Rules:
    """Rules of simultaneous Pig: one die (scores never decrease), and ``players`` if given."""
    check_rules(rules)
    if not rules.roll_model().simple:
        raise ValueError(
            "rules: simultaneous Pig is solved for one die (dice=1); two-dice scores can drop "
            "(snake eyes), see pigtheory.sequential"
        )
    if players is not None and rules.players != players:
        raise ValueError(f"rules.players must be {players} here, got {rules.players}")
    return rules


def check_int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """An integer (not a bool; an integral float such as ``2.0`` or ``1e6`` is one, through
    :func:`~pigtheory.rules.integral`) in ``low..high``; returns it as a Python int."""
    value = integral(value)
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if ok and low is not None and value < low:
        ok = False
    if ok and high is not None and value > high:
        ok = False
    if not ok:
        if low is not None and high is not None:
            span = f"in {low}..{high}"
        elif low is not None:
            span = f">= {low}"
        elif high is not None:
            span = f"<= {high}"
        else:
            span = ""
        raise ValueError(f"{name} must be an integer {span}, got {value!r}".replace("  ", " "))
    return int(value)


def check_tol(value: Any, name: str = "tol", allow_zero: bool = False) -> float:
    """A finite number > 0 (>= 0 with ``allow_zero``)."""
    ok = isinstance(value, (int, float, np.floating, np.integer)) and not isinstance(value, bool)
    if ok:
        v = float(value)
        ok = math.isfinite(v) and (v >= 0 if allow_zero else v > 0)
    if not ok:
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be a finite number {bound}, got {value!r}")
    return float(value)


def check_choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    """One of the strings in ``allowed``."""
    if not isinstance(value, str) or value not in allowed:
        listed = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")
    return value


def check_rng(rng: Any) -> np.random.Generator:
    """``rng=``: None (fresh entropy), an int seed >= 0, or a ``numpy.random.Generator``;
    returns the generator."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) and rng >= 0):
        return np.random.default_rng(rng)
    raise ValueError(f"rng must be an int seed >= 0, a numpy.random.Generator or None, got {rng!r:.80}")


def check_progress(value: Any) -> bool | None:
    """``progress=``: None (a bar when stderr is a terminal), True or False."""
    if value is not None and not isinstance(value, bool):
        raise ValueError(f"progress must be True, False or None, got {value!r}")
    return value


def check_path(name: str, value: Any, lengths: bool = True) -> Path:
    """A file or folder name: a ``str`` or ``os.PathLike`` (not empty, no NUL byte, and with
    ``lengths`` no part longer than :data:`NAME_MAX` bytes); returns it as a
    :class:`~pathlib.Path`.

    >>> check_path("path", 3)
    Traceback (most recent call last):
    ...
    ValueError: path must be a file name (str or os.PathLike), got 3
    """
    if isinstance(value, os.PathLike) and not isinstance(value, (str, bytes)):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a file name (str or os.PathLike), got {value!r:.80}")
    if not value:
        raise ValueError(f"{name} must be a file name, got ''")
    if "\0" in value:
        raise ValueError(f"{name}: a file name cannot hold a NUL character, got {value!r:.80}")
    path = Path(value)
    for part in path.parts if lengths else ():
        size = len(os.fsencode(part))
        if size > NAME_MAX:
            raise ValueError(f"{name}: a file or folder name of {size} bytes; at most {NAME_MAX}")
    return path


def check_type(name: str, value: Any) -> type | None:
    """``expected=``: None or a class (such as ``pigtheory.HoldAt``)."""
    if value is not None and not isinstance(value, type):
        raise ValueError(f"{name} must be a type (such as pigtheory.HoldAt) or None, got {value!r:.80}")
    return value


def check_optional_path(name: str, value: Any) -> Path | None:
    """None, or a file or folder name (:func:`check_path`)."""
    return None if value is None else check_path(name, value)


def check_ints(
    name: str, values: Any, low: int | None = None, high: int | None = None, max_len: int = 10_000
) -> list[int]:
    """A list, tuple, range or 1-d integer array of integers in ``low..high`` (at most
    ``max_len`` of them, at least one); returns them as a list of Python ints."""
    if isinstance(values, np.ndarray) and values.ndim == 1:
        values = values.tolist()
    if not isinstance(values, (list, tuple, range)):
        raise ValueError(f"{name} must be a list of integers, got {values!r:.80}")
    if not 1 <= len(values) <= max_len:
        raise ValueError(f"{name} must hold 1..{max_len} integers, got {len(values)}")
    return [check_int(f"{name}[{i}]", v, low, high) for i, v in enumerate(values)]


def check_number(name: str, value: Any) -> float:
    """A finite real number (any sign; not a bool)."""
    ok = isinstance(value, (int, float, np.floating, np.integer)) and not isinstance(value, bool)
    if not ok or not math.isfinite(float(value)):
        raise ValueError(f"{name} must be a finite number, got {value!r:.80}")
    return float(value)


def check_callable(name: str, value: Any, what: str = "") -> Any:
    """A callable (a function, a lambda, an object with ``__call__``); ``what`` says what it
    is called with and returns, for the message."""
    if not callable(value):
        shown = f" ({what})" if what else ""
        raise ValueError(f"{name} must be a callable{shown}, got {type(value).__name__}")
    return value


_PIG_PARAMETERS = {
    "players": (2, 10),
    "winscore": (1, 10**6),
    "diceoutcomes": (2, 10**4),
    "horizon": (1, 2**31 - 1),
}
"""Ranges of OpenSpiel's ``pig`` parameters that make a game (``pyspiel.load_game`` takes any
integer: ``winscore`` 0 or -3, ``diceoutcomes`` 0, ``players`` 11 load without a word)."""


def check_openspiel_game(name: str, value: Any, short_name: str = "pig") -> Any:
    """An OpenSpiel game, ``pyspiel.load_game(short_name, {...})``; for ``pig``, its
    parameters in range (players 2..10, winscore 1..10**6, diceoutcomes 2..10**4, horizon
    1..2**31-1). Returns it.

    ``pyspiel`` is imported here only (OpenSpiel is optional): without it an ImportError
    names the extra.
    """
    try:
        import pyspiel
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "this function needs OpenSpiel: pip install 'pigtheory[rl]' (or pip install open-spiel)"
        ) from exc
    if not isinstance(value, pyspiel.Game):
        raise ValueError(
            f"{name} must be a pyspiel.Game (pyspiel.load_game({short_name!r}, ...)), got {type(value).__name__}"
        )
    got = value.get_type().short_name
    if got != short_name:
        raise ValueError(f"{name} must be OpenSpiel's {short_name!r}, got the game {got!r}")
    if short_name == "pig":
        params = value.get_parameters()
        for key, (low, high) in _PIG_PARAMETERS.items():
            v = params.get(key)
            if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
                raise ValueError(
                    f"{name}: OpenSpiel's pig parameter {key} must be in {low}..{high}, got {v!r}"
                )
    return value
