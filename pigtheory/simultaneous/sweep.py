"""Sweeps of best responses: against every "hold at n" opponent (Fig. 2 and Table S1 of the
paper), and over any list of opponents or rules.

For each n the exact best response to ``hold_at(n)`` is solved and its win probability at the
start of the game, ``value[0, 0]``, recorded. The curve's smallest value marks the hardest "hold
at n" opponent to exploit; its local minima are the n where both neighbours are easier.

The solves are independent tasks: ``executor=`` runs them on a process pool or a Dask cluster
(:mod:`pigtheory.parallel`), each task sending rules and thresholds and returning two numbers
(:func:`start_value`) or one solution (:func:`best_responses`); the results are the same, bit
for bit, as in this process.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): Fig. 2 (numbered Fig. 1 in the text) and
Supplementary Table S1.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ..guard import check_memory, sweep_estimate
from ..parallel import check_executor, run_tasks
from ..policies import hold_at
from ..results import Result, Solution
from ..rules import Rules
from ..validation import check_choice, check_int, check_ints, check_progress, check_simultaneous_rules
from .best_response import best_response
from .core import ENGINES, read_opponents

__all__ = ["HoldAtSweep", "hold_at_sweep", "start_value", "best_responses"]


@dataclass(frozen=True, eq=False)
class HoldAtSweep(Result):
    """Best-response values against "hold at n", one per n.

    Attributes
    ----------
    ns : numpy.ndarray of int, shape ``(N,)``
        The thresholds n of the opponent, ascending.
    values : numpy.ndarray of float, shape ``(N,)``
        ``values[t]``: the best response's win probability at (0, 0) against ``hold_at(ns[t])``
        (Zhu, Ma, Chen & Liu 2023, Fig. 2 and Supplementary Table S1).
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
    executor: Any = None,
    max_memory: Any = None,
) -> HoldAtSweep:
    """Value at (0, 0) of the exact best response to ``hold_at(n)`` for every n in ``ns``.

    Parameters
    ----------
    ns : iterable of int
        Distinct opponent thresholds, each >= 1 (sorted here).
    rules : Rules
        Two players, one die.
    engine : {"auto", "numba", "numpy"}
        See :func:`best_response`.
    progress : bool, optional
        Progress bar on stderr, advanced as each solve finishes (default: when stderr is a
        terminal).
    executor : None, concurrent.futures.Executor or dask.distributed.Client
        Where the solves run (:mod:`pigtheory.parallel`); default: one after another, here.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    HoldAtSweep
        ``ns`` and ``values`` of shape ``(len(ns),)``, ``ns`` ascending.

    Notes
    -----
    ``values[t] = max_pi P(A wins from (0, 0) | A plays pi, B holds at ns[t])``, each by the
    exact solver of :func:`best_response`: the curve of Zhu, Ma, Chen & Liu (2023) Fig. 2
    (numbered Fig. 1 in its text) and Supplementary Table S1, there by Algorithm 0.1. A local minimum is ``values[t] < values[t - 1]`` and
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
    check_executor(executor)
    try:
        arr = np.array(sorted(int(n) for n in ns), dtype=np.int64)
    except (TypeError, ValueError):
        raise ValueError("ns must be an iterable of integers") from None
    if arr.size == 0 or arr[0] < 1 or np.any(np.diff(arr) == 0):
        raise ValueError(f"ns must hold distinct integers >= 1, got {arr.tolist()}")
    tasks = [partial(start_value, (int(n),), rules=rules, engine=engine) for n in arr]
    done = run_tasks(tasks, executor=executor, progress=progress, desc="hold-at sweep")
    values = np.array([value for value, _ in done])
    inner = (values[1:-1] < values[:-2]) & (values[1:-1] < values[2:])
    minima = tuple(int(n) for n in arr[1:-1][inner])
    return HoldAtSweep(arr, values, int(arr[int(np.argmin(values))]), minima, rules)


def start_value(thresholds: Sequence[int], *, rules: Rules, engine: str = "auto") -> tuple[float, int]:
    """Value and threshold at the start (every score 0) of the exact best response to
    opponents holding at ``thresholds`` (one per opponent, in seat order).

    The task of every hold-at sweep: two players solve :func:`best_response`, more players
    the separable :func:`~pigtheory.simultaneous.reduced_best_response`.

    Parameters
    ----------
    thresholds : sequence of int
        ``rules.players - 1`` thresholds n, each >= 1: opponent q holds at ``thresholds[q]``.
    rules : Rules
        One die.
    engine : {"auto", "numba", "numpy"}

    Returns
    -------
    value : float
        The best response's win probability at ``(0, ..., 0)``.
    threshold : int
        Its threshold there.

    Examples
    --------
    >>> v, k = start_value((4,), rules=Rules(goal=10))
    >>> bool(v == best_response(hold_at(4), rules=Rules(goal=10)).value[0, 0]), k >= 1
    (True, True)
    """
    thresholds = check_ints("thresholds", thresholds, low=1)
    check_simultaneous_rules(rules)
    ns = [check_int("thresholds", n, low=1) for n in thresholds]
    if len(ns) != rules.players - 1:
        raise ValueError(f"thresholds: {rules.players - 1} expected (one per opponent), got {len(ns)}")
    if rules.players == 2:
        sol = best_response(hold_at(ns[0]), rules=rules, engine=engine, progress=False)
        return float(sol.value[0, 0]), int(sol.policy[0, 0])
    from .multiplayer import reduced_best_response

    reduced = reduced_best_response([hold_at(n) for n in ns], rules=rules, engine=engine, progress=False)
    col = reduced.column([0] * len(ns))
    return float(reduced.value[0, col]), int(reduced.policy[0, col])


def best_responses(
    opponents_list: Sequence[Any],
    *,
    rules: Rules | Sequence[Rules] = Rules(),
    engine: str = "auto",
    progress: bool | None = None,
    executor: Any = None,
) -> list[Solution]:
    """:func:`best_response` to each of several opponents (or under each of several rules).

    Parameters
    ----------
    opponents_list : sequence
        One entry per solve: what :func:`best_response` takes as ``opponents`` (a policy, or
        a list of ``players - 1`` policies).
    rules : Rules or sequence of Rules
        The same rules for every solve, or one per entry of ``opponents_list`` (a sweep over
        goals, dice or players).
    engine : {"auto", "numba", "numpy"}
        See :func:`best_response`.
    progress : bool, optional
        A bar on stderr, advanced as each solve finishes (default: when stderr is a terminal).
    executor : None, concurrent.futures.Executor or dask.distributed.Client
        Where the solves run (:mod:`pigtheory.parallel`); default: one after another, here.

    Returns
    -------
    list of Solution
        In the order of ``opponents_list``; each equal, bit for bit, to the solve run alone
        (``value`` of shape ``(goal + 1,) * players``, ``policy`` ``(goal,) * players``, for
        its own rules).

    Examples
    --------
    >>> goals = [Rules(goal=g) for g in (10, 20)]
    >>> sols = best_responses([hold_at(5)] * 2, rules=goals)
    >>> [s.rules.goal for s in sols], bool(sols[1].value[0, 0] > 0.5)
    ([10, 20], True)
    """
    check_choice("engine", engine, ENGINES)
    check_progress(progress)
    check_executor(executor)
    if not isinstance(opponents_list, (list, tuple)):
        raise ValueError(f"opponents_list must be a list (one entry per solve), got {opponents_list!r:.80}")
    opponents_list = list(opponents_list)
    if not isinstance(rules, (Rules, list, tuple)):
        raise ValueError(f"rules must be a pigtheory.Rules or a list of them, got {rules!r:.80}")
    if isinstance(rules, Rules):
        rules_list = [rules] * len(opponents_list)
    else:
        rules_list = list(rules)
        if len(rules_list) != len(opponents_list):
            raise ValueError(
                f"rules: one Rules or one per entry of opponents_list ({len(opponents_list)}), "
                f"got {len(rules_list)}"
            )
    for opp, r in zip(opponents_list, rules_list, strict=True):
        read_opponents(opp, check_simultaneous_rules(r))  # bad input fails here, not in a worker
    tasks = [
        partial(best_response, opp, rules=r, engine=engine, progress=False)
        for opp, r in zip(opponents_list, rules_list, strict=True)
    ]
    return run_tasks(tasks, executor=executor, progress=progress, desc="best responses")
