"""Best responses to every pair of "hold at n" opponents: the 3-player grid (Fig. 6, Table S4).

Shapes
------
``value[a, b]``: the best-response win probability at (0, 0, 0) of the third player when the
opponents hold at ``ns[a]`` and ``ns[b]``; ``policy[a, b]`` its threshold there.

Notes
-----
Seats do not matter in simultaneous play, so the value at (0, 0, 0) is symmetric in the two
opponents: only the pairs ``ns[a] <= ns[b]`` are solved, and the table is mirrored. Solves are
independent and run in a pool of processes (each solve keeps one BLAS thread).

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), Figure 6 and Supplementary Table S4.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..guard import check_memory, grid_estimate
from ..io import cached
from ..policies import hold_at
from ..results import Result
from ..rules import Rules
from .multiplayer import reduced_best_response

__all__ = ["hold_at_grid", "HoldAtGrid", "cached_hold_at_grid"]


@dataclass(frozen=True, eq=False)
class HoldAtGrid(Result):
    """Best-response values at (0, 0, 0) against "hold at n1" and "hold at n2".

    Attributes
    ----------
    value : numpy.ndarray, shape (len(ns), len(ns))
    policy : numpy.ndarray of int, same shape: the best response's threshold at (0, 0, 0)
    residual : float
        0.0 (every solve is exact).
    method : str
    rules : Rules
    ns : numpy.ndarray
    best_pair : tuple of int
        The opponents' pair (n1 <= n2) that leaves the responder the least.
    """

    value: np.ndarray
    policy: np.ndarray
    residual: float
    method: str
    rules: Rules
    ns: np.ndarray
    best_pair: tuple[int, int]

    @property
    def n_pairs(self) -> int:
        """Number of best responses solved (pairs n1 <= n2)."""
        return self.ns.size * (self.ns.size + 1) // 2


def _solve(pair: tuple[int, int], rules: Rules) -> tuple[int, int, float, int]:
    sol = reduced_best_response([hold_at(pair[0]), hold_at(pair[1])], rules=rules)
    col = sol.column([0, 0])
    return pair[0], pair[1], float(sol.value[0, col]), int(sol.policy[0, col])


def hold_at_grid(
    ns: Iterable[int] = range(20, 31),
    rules: Rules = Rules(players=3),  # noqa: B008 (frozen)
    workers: int = 2,
    progress: bool | None = None,
    *,
    max_memory: Any = None,
) -> HoldAtGrid:
    """Solve the best response to every pair of "hold at n" opponents, n in ``ns``.

    Parameters
    ----------
    ns : iterable of int
        Thresholds, each ``>= 1``.
    rules : Rules
        ``players`` must be 3.
    workers : int
        Processes (``1``: solve in this process).
    progress : bool, optional
        Show a bar on stderr; default when stderr is a terminal.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    HoldAtGrid

    Examples
    --------
    >>> grid = hold_at_grid([2, 3], Rules(goal=8, players=3), workers=1)
    >>> bool(grid.value[0, 1] == grid.value[1, 0])
    True
    """
    check_memory(grid_estimate(rules, workers=workers), max_memory)
    ns_arr = np.array(sorted(set(int(n) for n in ns)), dtype=np.int64)
    if ns_arr.size == 0 or ns_arr[0] < 1:
        raise ValueError(f"ns must be non-empty thresholds >= 1, got {list(ns_arr)}")
    if rules.players != 3:
        raise ValueError(f"rules: the grid is for 3 players, got players={rules.players}")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an integer >= 1, got {workers!r}")
    pairs = [(int(a), int(b)) for i, a in enumerate(ns_arr) for b in ns_arr[i:]]
    pos = {int(n): i for i, n in enumerate(ns_arr)}
    value = np.zeros((ns_arr.size, ns_arr.size))
    policy = np.zeros((ns_arr.size, ns_arr.size), dtype=np.int64)
    enabled = sys.stderr.isatty() if progress is None else bool(progress)
    t0 = time.perf_counter()

    def record(done: int, res: tuple[int, int, float, int]) -> None:
        a, b, v, k = res
        value[pos[a], pos[b]] = value[pos[b], pos[a]] = v
        policy[pos[a], pos[b]] = policy[pos[b], pos[a]] = k
        if enabled:
            fill = 30 * done // len(pairs)
            sys.stderr.write(
                f"\rgrid [{'#' * fill}{'.' * (30 - fill)}] {done}/{len(pairs)} {time.perf_counter() - t0:5.1f} s"
            )
            sys.stderr.write("\n" if done == len(pairs) else "")
            sys.stderr.flush()

    if workers == 1:
        for done, pair in enumerate(pairs, 1):
            record(done, _solve(pair, rules))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_solve, pair, rules) for pair in pairs]
            for done, fut in enumerate(as_completed(futures), 1):
                record(done, fut.result())
    a, b = np.unravel_index(
        np.argmin(np.where(np.triu(np.ones_like(value, bool)), value, np.inf)), value.shape
    )
    return HoldAtGrid(
        value=value,
        policy=policy,
        residual=0.0,
        method="exact-separable",
        rules=rules,
        ns=ns_arr,
        best_pair=(int(ns_arr[a]), int(ns_arr[b])),
    )


def cached_hold_at_grid(
    ns: Iterable[int] = range(20, 31),
    rules: Rules = Rules(players=3),  # noqa: B008 (frozen)
    workers: int = 2,
    progress: bool | None = None,
    *,
    cache_dir: str | os.PathLike | None = None,
) -> HoldAtGrid:
    """:func:`hold_at_grid`, saved in the cache folder and loaded from it by its parameters.

    ``cache_dir``: see :func:`pigtheory.io.resolve_cache_dir` (default ``$PIGTHEORY_CACHE_DIR``
    or the user's cache folder).
    """
    ns_list = sorted(set(int(n) for n in ns))
    params = {"ns": ns_list, "rules": rules, "version": 3}
    return cached(
        "hold_at_grid",
        params,
        lambda: hold_at_grid(ns_list, rules, workers, progress),
        cache_dir=cache_dir,
        expected=HoldAtGrid,
    )
