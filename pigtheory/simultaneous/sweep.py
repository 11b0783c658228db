"""The best response's value against every "hold at n" opponent (Fig. 2 and Table S1 of the paper).

For each n the exact best response to ``hold_at(n)`` is solved and its win probability at the
start of the game, ``value[0, 0]``, recorded. The curve's smallest value marks the hardest "hold
at n" opponent to exploit; its local minima are the n where both neighbours are easier.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): Fig. 2 (numbered Fig. 1 in the text) and
Supplementary Table S1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..guard import check_memory, sweep_estimate
from ..policies import hold_at
from ..progress import track
from ..results import Result
from ..rules import Rules
from ..validation import check_choice, check_progress, check_simultaneous_rules
from .best_response import best_response
from .core import ENGINES

__all__ = ["HoldAtSweep", "hold_at_sweep"]


@dataclass(frozen=True, eq=False)
class HoldAtSweep(Result):
    """Best-response values against "hold at n", one per n.

    Attributes
    ----------
    ns : numpy.ndarray of int
        The thresholds n of the opponent, ascending.
    values : numpy.ndarray of float
        ``values[t]``: the best response's win probability at (0, 0) against ``hold_at(ns[t])``.
    best_n : int
        The n with the smallest value: the "hold at n" opponent that concedes least.
    local_minima : tuple of int
        Every interior n whose value is strictly below both neighbours' in ``ns``.
    rules : Rules
    """

    ns: np.ndarray
    values: np.ndarray
    best_n: int
    local_minima: tuple[int, ...]
    rules: Rules

    def value(self, n: int) -> float:
        """The value against ``hold_at(n)``."""
        hits = np.flatnonzero(self.ns == n)
        if hits.size == 0:
            raise ValueError(f"n: {n} is not in the sweep ({self.ns.min()}..{self.ns.max()})")
        return float(self.values[hits[0]])


def hold_at_sweep(
    ns: Iterable[int],
    *,
    rules: Rules = Rules(),
    engine: str = "auto",
    progress: bool | None = None,
    max_memory: Any = None,
) -> HoldAtSweep:
    """Value at (0, 0) of the exact best response to ``hold_at(n)`` for every n in ``ns``.

    Parameters
    ----------
    ns : iterable of int
        Distinct opponent thresholds, each >= 1 (sorted here).
    rules : Rules
        Two players, one die.
    progress : bool, optional
        Progress bar on stderr (default: when stderr is a terminal).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    HoldAtSweep

    Notes
    -----
    ``values[n] = max_pi P(A wins from (0, 0) | A plays pi, B holds at n)``, each by the exact
    solver of :func:`best_response`. A local minimum is ``values[t] < values[t - 1]`` and
    ``values[t] < values[t + 1]``, neighbours taken in the sorted ``ns`` (the end points, with one
    neighbour, are never local minima).

    Examples
    --------
    >>> sw = hold_at_sweep(range(2, 9), rules=Rules(goal=20))
    >>> sw.best_n in sw.ns, bool(sw.values.min() == sw.value(sw.best_n))
    (True, True)
    """
    check_memory(sweep_estimate(rules), max_memory)
    check_simultaneous_rules(rules, players=2)
    check_choice("engine", engine, ENGINES)
    check_progress(progress)
    try:
        arr = np.array(sorted(int(n) for n in ns), dtype=np.int64)
    except (TypeError, ValueError):
        raise ValueError("ns must be an iterable of integers") from None
    if arr.size == 0 or arr[0] < 1 or np.any(np.diff(arr) == 0):
        raise ValueError(f"ns must hold distinct integers >= 1, got {arr.tolist()}")
    values = np.empty(arr.size)
    for t, n in enumerate(track(arr, desc="hold-at sweep", enabled=progress)):
        values[t] = best_response(hold_at(int(n)), rules=rules, engine=engine).value[0, 0]
    inner = (values[1:-1] < values[:-2]) & (values[1:-1] < values[2:])
    minima = tuple(int(n) for n in arr[1:-1][inner])
    return HoldAtSweep(arr, values, int(arr[int(np.argmin(values))]), minima, rules)
