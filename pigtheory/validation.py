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
from typing import Any

import numpy as np

from .rules import Rules

__all__ = [
    "ConvergenceWarning",
    "check_rules",
    "check_simultaneous_rules",
    "check_int",
    "check_tol",
    "check_choice",
    "check_progress",
]

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
    """An integer (not a bool) in ``low..high``; returns it as a Python int."""
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


def check_progress(value: Any) -> bool | None:
    """``progress=``: None (a bar when stderr is a terminal), True or False."""
    if value is not None and not isinstance(value, bool):
        raise ValueError(f"progress must be True, False or None, got {value!r}")
    return value
