"""The symmetric equilibrium's states on several threads, in the serial order's bits.

Thread j takes every ``threads``-th largest score and walks its states in the serial order,
waiting where they depend on another thread's (:class:`Pipeline`); :class:`Merged` then numbers
the mix entries as a serial solve numbers them, so the result has the same bits on any number of
threads (:mod:`.equilibrium`, *Threads*).
"""

from __future__ import annotations

import functools
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from . import stage as symmetric_stage
from .kernels import ranks


def runs(states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(top, second, bounds)``: the runs of the states (sorted tuples, by decreasing colex
    rank) that share their largest score ``top`` and second largest ``second``; run j is
    ``states[bounds[j]:bounds[j + 1]]``."""
    key = states[:, -1] * (int(states.max()) + 1) + states[:, -2]
    starts = np.concatenate([[0], np.flatnonzero(np.diff(key)) + 1]).astype(np.int64)
    bounds = np.concatenate([starts, [states.shape[0]]]).astype(np.int64)
    return states[starts, -1], states[starts, -2], bounds


class Pipeline:
    """The states of a symmetric solve on several threads, in the serial order within each.

    A state's successors (other than itself) are componentwise at least as large sorted
    tuples, so a state with largest score y depends on states whose largest score is y or more
    only, and of those with largest score y + 1 only on the runs (:func:`runs`) whose second
    largest score is at least its own. Thread j takes the largest scores y with ``(top - y) %
    workers == j`` in turn and walks each one's runs by decreasing second score, as the serial
    solve does; before the run of second score x it waits until each of the next
    ``workers - 1`` larger scores (the other threads') has finished its run of second score x.
    The threads then never touch a view column at the same time (the state of a column with own
    score y + 1 that another thread needs is finished first), so they share the view cache's
    rows; each has its own spares.
    """

    def __init__(self, states: np.ndarray, workers: int, lock: threading.Condition) -> None:
        self.top, self.second, self.bounds = runs(states)
        self.workers = workers
        self.lock = lock
        self.highest = int(self.top[0])
        # done[y]: the second score of the last run finished with largest score y (y + 1: none)
        self.done = np.arange(self.highest + 1) + 1
        self.failed = False

    def _ready(self, y: int, x: int) -> bool:
        return self.failed or all(
            self.done[z] <= x for z in range(y + 1, min(y + self.workers, self.highest + 1))
        )

    def _work(self, j: int, solve: Any, scratch: Any) -> None:
        own = scratch()
        runs = np.flatnonzero((self.highest - self.top) % self.workers == j)
        try:
            for r in runs:
                y, x = int(self.top[r]), int(self.second[r])
                with self.lock:
                    self.lock.wait_for(functools.partial(self._ready, y, x))
                    if self.failed:
                        return
                solve(int(self.bounds[r]), int(self.bounds[r + 1]), own)
                with self.lock:
                    self.done[y] = x
                    self.lock.notify_all()
        except BaseException:
            with self.lock:
                self.failed = True
                self.lock.notify_all()
            raise

    def run(self, solve: Any, scratch: Any) -> None:
        """``solve(lo, hi, scratch)`` for every run, on ``workers`` threads, each with its own
        ``scratch()``."""
        with ThreadPoolExecutor(self.workers) as pool:
            futures = [pool.submit(self._work, j, solve, scratch) for j in range(self.workers)]
            try:
                for f in futures:
                    f.result()
            except BaseException:
                with self.lock:
                    self.failed = True
                    self.lock.notify_all()
                raise


class Merged:
    """The mix entries of every kernel call, with the counters summed (the largest support:
    its maximum); :meth:`tables` numbers the entries in the order of a serial solve. (The
    solver starts each state from ``lead``, so no code in ``actions`` is read before then.)"""

    def __init__(self, width: int) -> None:
        self.width = width
        self.th: list[np.ndarray] = []
        self.w: list[np.ndarray] = []
        self.at: list[np.ndarray] = []
        self.visited: list[np.ndarray] = []
        self.counts = np.zeros(len(symmetric_stage.COUNTERS), dtype=np.int64)

    def add(
        self, th: np.ndarray, w: np.ndarray, where: np.ndarray, visited: np.ndarray, counts: np.ndarray
    ) -> None:
        """One call's mix entries (thresholds, weights, views), the states it searched for a
        mix and its counters (copied: the call's tables are reused)."""
        for kept, part in ((self.th, th), (self.w, w), (self.at, where), (self.visited, visited)):
            if part.shape[0]:
                kept.append(part.copy())
        largest = max(self.counts[4], counts[4])
        self.counts += counts
        self.counts[4] = largest

    def tables(
        self, actions: np.ndarray, others: np.ndarray, binom: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(mix_th, mix_w, counts, visited)``, the entries numbered (in ``actions`` too) in
        the order of a serial solve: by decreasing colex rank of the state, then by own score
        (the output does not depend on the runs, calls or threads)."""
        visited = np.concatenate(self.visited) if self.visited else np.zeros(0, dtype=np.int64)
        if not self.th:
            return np.ones((0, self.width), dtype=np.int64), np.zeros((0, self.width)), self.counts, visited
        th, w, at = np.concatenate(self.th), np.concatenate(self.w), np.concatenate(self.at)
        rank = ranks(np.column_stack([others[at[:, 0]], at[:, 1]]), binom)
        order = np.lexsort((at[:, 1], -rank))
        new = np.empty(order.size, dtype=np.int64)
        new[order] = np.arange(order.size)
        actions[at[:, 0], at[:, 1]] = -(1 + new)
        return th[order], w[order], self.counts, visited
