"""Best responses to every pair of "hold at n" opponents: the 3-player grid (Fig. 6, Table S4).

Shapes
------
``value[a, b]``: the best-response win probability at (0, 0, 0) of the third player when the
opponents hold at ``ns[a]`` and ``ns[b]``; ``policy[a, b]`` its threshold there.

Notes
-----
Seats do not matter in simultaneous play, so the value at (0, 0, 0) is symmetric in the two
opponents: only the pairs ``ns[a] <= ns[b]`` are solved, and the table is mirrored. Solves are
independent tasks (:func:`~pigtheory.simultaneous.sweeps.sweep.start_value`), run where ``executor=``
says (:mod:`pigtheory.parallel`): in this process, a process pool or a Dask cluster.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), Figure 6 and Supplementary Table S4.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

import numpy as np

from ...guard import Estimate, best_response_estimate, check_memory, players_text, with_roll_model
from ...io import cached
from ...parallel import check_executor, run_tasks
from ...rules import Rules
from ...validation import check_ints, check_optional_path, check_progress, check_rules
from .sweep import HoldAtTable, start_value

__all__ = ["hold_at_grid", "cached_hold_at_grid", "estimate_memory"]


@with_roll_model(name="grid")
def estimate_memory(rules: Any, *, workers: int | None = 1) -> Estimate | None:
    """:func:`~pigtheory.simultaneous.sweeps.grid.hold_at_grid`: a best response per worker at once."""
    one = best_response_estimate(rules)
    if one is None:
        return None
    w = max(int(workers), 1) if isinstance(workers, int) else 1
    return Estimate(f"hold-at grid ({w} workers, {players_text(rules)})", one.states, w * one.bytes, one.hint)


def hold_at_grid(
    ns: Iterable[int] = range(20, 31),
    *,
    rules: Rules = Rules(players=3),  # noqa: B008 (frozen)
    workers: int | None = None,
    progress: bool | None = None,
    executor: Any = None,
    max_memory: Any = None,
) -> HoldAtTable:
    """Solve the best response to every pair of "hold at n" opponents, n in ``ns``.

    Parameters
    ----------
    ns : iterable of int
        Thresholds, each ``>= 1``.
    rules : Rules
        ``players`` must be 3.
    workers : int, optional
        The older form of ``executor=ProcessPoolExecutor(workers)``, kept for existing
        scripts: a pool of that many processes (``1``: in this process). Give one or the
        other.
    progress : bool, optional
        Show a bar on stderr, advanced as each solve finishes; default when stderr is a terminal.
    executor : None, concurrent.futures.Executor or dask.distributed.Client
        Where the solves run (:mod:`pigtheory.parallel`); default: one after another, here.
        The table is the same, bit for bit, whichever runs it.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    HoldAtTable
        ``value`` and ``policy`` of shape ``(len(ns), len(ns))``, ``thresholds[a, b] =
        (ns[a], ns[b])``; ``best_pair`` the pair n1 <= n2 that concedes least.

    Examples
    --------
    >>> grid = hold_at_grid([2, 3], rules=Rules(goal=8, players=3))
    >>> bool(grid.value[0, 1] == grid.value[1, 0])
    True
    """
    check_rules(rules)
    ns = check_ints("ns", ns, low=1, high=10**6)
    check_memory(estimate_memory(rules, workers=workers), max_memory)
    ns_arr = np.array(sorted(set(int(n) for n in ns)), dtype=np.int64)
    if ns_arr.size == 0 or ns_arr[0] < 1:
        raise ValueError(f"ns must be non-empty thresholds >= 1, got {list(ns_arr)}")
    if rules.players != 3:
        raise ValueError(f"rules: the grid is for 3 players, got players={rules.players}")
    check_progress(progress)
    check_executor(executor)
    if workers is not None:
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise ValueError(f"workers must be an integer >= 1, got {workers!r}")
        if executor is not None:
            raise ValueError("workers: give either workers or executor, not both")
        if workers > 1:
            with ProcessPoolExecutor(workers) as pool:
                return hold_at_grid(ns_arr, rules=rules, progress=progress, executor=pool)
    pairs = [(int(a), int(b)) for i, a in enumerate(ns_arr) for b in ns_arr[i:]]
    tasks = [partial(start_value, pair, rules=rules) for pair in pairs]
    done = run_tasks(tasks, executor=executor, progress=progress, desc="grid")
    pos = {int(n): i for i, n in enumerate(ns_arr)}
    value = np.zeros((ns_arr.size, ns_arr.size))
    policy = np.zeros((ns_arr.size, ns_arr.size), dtype=np.int64)
    for (a, b), (v, k) in zip(pairs, done, strict=True):
        value[pos[a], pos[b]] = value[pos[b], pos[a]] = v
        policy[pos[a], pos[b]] = policy[pos[b], pos[a]] = k
    grid_pairs = np.stack(np.meshgrid(ns_arr, ns_arr, indexing="ij"), axis=-1)
    return HoldAtTable.of_rules(value, policy, rules, grid_pairs, "exact-separable")


def cached_hold_at_grid(
    ns: Iterable[int] = range(20, 31),
    *,
    rules: Rules = Rules(players=3),  # noqa: B008 (frozen)
    workers: int | None = None,
    progress: bool | None = None,
    executor: Any = None,
    cache_dir: str | os.PathLike | None = None,
) -> HoldAtTable:
    """:func:`hold_at_grid`, saved in the cache folder and loaded from it by its parameters
    (not by ``workers`` or ``executor``: the table is the same whichever runs it).

    Parameters
    ----------
    ns, rules, workers, progress, executor
        As for :func:`hold_at_grid`.
    cache_dir : path-like, optional
        See :func:`pigtheory.io.resolve_cache_dir` (default ``$PIGTHEORY_CACHE_DIR`` or the
        user's cache folder).

    Returns
    -------
    HoldAtTable
    """
    check_rules(rules)
    ns = check_ints("ns", ns, low=1, high=10**6)
    check_optional_path("cache_dir", cache_dir)
    ns_list = sorted(set(int(n) for n in ns))
    params = {"ns": ns_list, "rules": rules, "version": 3}
    return cached(
        "hold_at_grid",
        params,
        lambda: hold_at_grid(ns_list, rules=rules, workers=workers, progress=progress, executor=executor),
        cache_dir=cache_dir,
        expected=HoldAtTable,
    )
