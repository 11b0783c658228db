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

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ...guard import Estimate, best_response_estimate, check_memory, with_roll_model
from ...parallel import check_executor, run_tasks
from ...policies import hold_at
from ...results import Result, Solution
from ...rules import Rules
from ...validation import check_choice, check_int, check_ints, check_progress, check_simultaneous_rules
from ..best_response import best_response
from ..core import ENGINES, read_opponents

__all__ = ["HoldAtTable", "hold_at_sweep", "start_value", "best_responses", "estimate_memory"]


@dataclass(frozen=True, eq=False)
class HoldAtTable(Result):
    """Value at the start (every score 0) of the exact best response to "hold at n" opponents:
    the one table type of :func:`hold_at_sweep` (one opponent, an axis of n),
    :func:`~pigtheory.simultaneous.sweeps.grid.hold_at_grid` (two opponents, a grid of n1 x n2) and
    :func:`~pigtheory.simultaneous.hold_at_table` (a row per task over goals, players and dice).

    Every array but ``ns`` is indexed by cell, ``value.shape``: ``(N,)`` for a sweep, ``(N, N)``
    for a grid, ``(R,)`` for a table of R tasks.

    Attributes
    ----------
    value : numpy.ndarray of float
        The best response's win probability at the start (Zhu, Ma, Chen & Liu 2023: Fig. 2 /
        Table S1 for two players, Fig. 6 / Table S4 for three).
    policy : numpy.ndarray of int or None
        The best response's threshold at the start (``None``: not recorded).
    rules : Rules
        The rules solved. A table over several goals, player counts or dice holds the rules of
        its first cell here; :meth:`rules_at` gives every cell's (they differ only in
        ``goal``, ``players`` and ``die_faces``).
    ns : numpy.ndarray of int, shape ``(N,)``
        The opponents' thresholds, ascending and distinct: the axis of a sweep or a grid.
    thresholds : numpy.ndarray of int, shape ``value.shape + (P - 1,)``
        The opponents' n in each cell, one per opponent (0 pads a cell with fewer opponents
        than the table's most, P - 1). A grid's ``thresholds[a, b]`` is ``(ns[a], ns[b])``.
    goal, players, die_faces : numpy.ndarray of int, shape ``value.shape``
        Each cell's rules (see ``rules``).
    method : str
    """

    value: np.ndarray
    policy: np.ndarray | None
    rules: Rules
    ns: np.ndarray
    thresholds: np.ndarray
    goal: np.ndarray
    players: np.ndarray
    die_faces: np.ndarray
    method: str = "exact"

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a pigtheory.Rules, got {type(self.rules).__name__}")
        if not isinstance(self.value, np.ndarray) or not isinstance(self.thresholds, np.ndarray):
            raise ValueError("value and thresholds must be numpy arrays")
        if self.thresholds.ndim != self.value.ndim + 1:
            raise ValueError(
                f"thresholds: shape value.shape + (opponents,) = {self.value.shape} + (P - 1,), "
                f"got {self.thresholds.shape}"
            )
        super().__post_init__()

    def _expected_shapes(self) -> dict[str, tuple[int, ...]]:
        cells = self.value.shape
        shapes = {name: cells for name in ("policy", "goal", "players", "die_faces")}
        shapes["thresholds"] = cells + self.thresholds.shape[-1:]
        shapes["ns"] = (int(np.unique(self.thresholds[self.thresholds > 0]).size),)
        return shapes

    @classmethod
    def of_rules(
        cls, value: np.ndarray, policy: np.ndarray | None, rules: Rules, thresholds: np.ndarray, method: str
    ) -> HoldAtTable:
        """A table whose every cell has the same ``rules`` (a sweep or a grid).

        Parameters
        ----------
        value, policy : numpy.ndarray
            By cell.
        rules : Rules
        thresholds : numpy.ndarray of int, shape ``value.shape + (rules.players - 1,)``
        method : str

        Returns
        -------
        HoldAtTable
        """
        value = np.asarray(value, dtype=np.float64)
        thresholds = np.asarray(thresholds, dtype=np.int64)
        ns = np.unique(thresholds[thresholds > 0])
        return cls(
            value=value,
            policy=None if policy is None else np.asarray(policy, dtype=np.int64),
            rules=rules,
            ns=ns,
            thresholds=thresholds,
            goal=np.full(value.shape, rules.goal, dtype=np.int64),
            players=np.full(value.shape, rules.players, dtype=np.int64),
            die_faces=np.full(value.shape, rules.die_faces, dtype=np.int64),
            method=method,
        )

    def rules_at(self, cell: int | tuple[int, ...]) -> Rules:
        """The rules of one cell (an index into ``value``)."""
        return dataclasses.replace(
            self.rules,
            goal=int(self.goal[cell]),
            players=int(self.players[cell]),
            die_faces=int(self.die_faces[cell]),
        )

    def row(
        self, *, thresholds: Sequence[int], goal: int | None = None, die_faces: int | None = None
    ) -> int | tuple[int, ...]:
        """The cell of a task: the index into ``value`` (an int for a sweep or a table, a pair
        for a grid).

        Parameters
        ----------
        thresholds : sequence of int
            The opponents' n, one per opponent, in any order.
        goal, die_faces : int, optional
            Default: any (the first cell that matches).

        Returns
        -------
        int or tuple of int

        Raises
        ------
        ValueError
            The table has no such cell.
        """
        ns = sorted(int(n) for n in thresholds)
        width = self.thresholds.shape[-1]
        if len(ns) > width:
            raise ValueError(f"thresholds: at most {width} opponents in this table, got {len(ns)}")
        padded = np.array(ns + [0] * (width - len(ns)), dtype=np.int64)
        hit = (self.players == len(ns) + 1) & np.all(
            np.sort(self.thresholds, axis=-1) == np.sort(padded), axis=-1
        )
        if goal is not None:
            hit &= self.goal == goal
        if die_faces is not None:
            hit &= self.die_faces == die_faces
        where = np.argwhere(hit)
        if where.size == 0:
            raise ValueError(f"no task with goal={goal}, thresholds={tuple(ns)}, die_faces={die_faces}")
        cell = tuple(int(i) for i in where[0])
        return cell[0] if len(cell) == 1 else cell

    def at(self, *thresholds: int, goal: int | None = None, die_faces: int | None = None) -> float:
        """The value against opponents holding at ``thresholds`` (one n per opponent).

        Examples
        --------
        >>> sweep = hold_at_sweep([3, 5], rules=Rules(goal=10))
        >>> bool(sweep.at(5) == sweep.value[1])
        True
        """
        return float(self.value[self.row(thresholds=thresholds, goal=goal, die_faces=die_faces)])

    def _single(self, opponents: int, what: str) -> None:
        if (
            self.value.ndim != opponents
            or self.thresholds.shape[-1] != opponents
            or self.goal.min() != self.goal.max()
        ):
            raise ValueError(
                f"{what} is defined for a table over n with {opponents} opponent(s) and one goal"
            )

    @property
    def best_n(self) -> int:
        """Of a sweep (one opponent): the n with the smallest value, the "hold at n" opponent that
        concedes least."""
        self._single(1, "best_n")
        return int(self.thresholds[int(np.argmin(self.value)), 0])

    @property
    def local_minima(self) -> tuple[int, ...]:
        """Of a sweep: every interior n whose value is strictly below both neighbours' (the end
        points, with one neighbour, never are)."""
        self._single(1, "local_minima")
        v = np.asarray(self.value)
        inner = (v[1:-1] < v[:-2]) & (v[1:-1] < v[2:])
        return tuple(int(n) for n in self.thresholds[1:-1, 0][inner])

    @property
    def best_pair(self) -> tuple[int, int]:
        """Of a grid (two opponents): the pair n1 <= n2 that leaves the responder the least."""
        self._single(2, "best_pair")
        v = np.asarray(self.value)
        upper = np.where(np.triu(np.ones_like(v, dtype=bool)), v, np.inf)
        a, b = np.unravel_index(int(np.argmin(upper)), v.shape)
        return int(self.thresholds[a, b, 0]), int(self.thresholds[a, b, 1])

    @property
    def n_solves(self) -> int:
        """Number of best responses solved: one per distinct task (a grid solves each pair
        n1 <= n2 once)."""
        keys = np.concatenate(
            [
                np.stack([self.goal, self.players, self.die_faces], axis=-1).reshape(-1, 3),
                np.sort(self.thresholds, axis=-1).reshape(-1, self.thresholds.shape[-1]),
            ],
            axis=1,
        )
        return int(np.unique(keys, axis=0).shape[0])

    def to_frame(self) -> Any:
        """One row per cell (``pandas``, the extra ``pigtheory[pandas]``): the opponents'
        thresholds ``n1``, ``n2``, ... (0 where a cell has fewer opponents), then ``value``,
        ``policy``, ``goal``, ``players`` and ``die_faces``.

        Examples
        --------
        >>> hold_at_sweep([3, 5], rules=Rules(goal=10)).to_frame().columns.tolist()
        ['n1', 'value', 'policy', 'goal', 'players', 'die_faces']
        """
        frame = super().to_frame()  # by cell, in the order of value.ravel()
        keep = [c for c in ("value", "policy", "goal", "players", "die_faces") if c in frame.columns]
        frame = frame[keep]
        th = self.thresholds.reshape(self.value.size, -1)
        for q in range(th.shape[1]):
            frame.insert(q, f"n{q + 1}", th[:, q])
        return frame


@with_roll_model(name="sweep")
def estimate_memory(rules: Any) -> Estimate | None:
    """:func:`~pigtheory.simultaneous.hold_at_sweep`: one two-player best response at a time."""
    one = best_response_estimate(rules)
    if one is None:
        return None
    return Estimate(f"hold-at sweep (goal {rules.goal})", one.states, one.bytes, one.hint)


def hold_at_sweep(
    ns: Iterable[int],
    *,
    rules: Rules = Rules(),
    engine: str = "auto",
    progress: bool | None = None,
    executor: Any = None,
    max_memory: Any = None,
) -> HoldAtTable:
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
    HoldAtTable
        ``value`` and ``policy`` of shape ``(len(ns),)``, one cell per n of ``ns`` (ascending);
        ``best_n`` and ``local_minima`` read the curve, ``at(n)`` one value.

    Notes
    -----
    ``value[t] = max_pi P(A wins from (0, 0) | A plays pi, B holds at ns[t])``, each by the
    exact solver of :func:`best_response`: the curve of Zhu, Ma, Chen & Liu (2023) Fig. 2
    (numbered Fig. 1 in its text) and Supplementary Table S1, there by Algorithm 0.1. A local
    minimum is ``value[t] < value[t - 1]`` and ``value[t] < value[t + 1]``, neighbours taken in the sorted ``ns`` (the end points, with one
    neighbour, are never local minima).

    Examples
    --------
    >>> sw = hold_at_sweep(range(2, 9), rules=Rules(goal=20))
    >>> sw.best_n in sw.ns, bool(sw.value.min() == sw.at(sw.best_n))
    (True, True)
    """
    check_memory(estimate_memory(rules), max_memory)
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
    value = np.array([v for v, _ in done])
    policy = np.array([k for _, k in done], dtype=np.int64)
    return HoldAtTable.of_rules(value, policy, rules, arr[:, None], "exact")


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
    from ..nplayer.reduced import reduced_best_response

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
