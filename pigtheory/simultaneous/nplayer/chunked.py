"""The n-player best response to identical opponents, solved level by level as chunk tasks,
with the finished levels in a store on disk: solves larger than one machine's memory.

Shapes
------
As :class:`~pigtheory.simultaneous.ReducedSolution`: a column is a sorted tuple of the m
opponents' scores, ``value(a, column)`` the player's win probability at own score a. The
values live in a :class:`~pigtheory.simultaneous.nplayer.level_store.LevelStore` folder (one file per
chunk of a level); :class:`ChunkedSolution` reads them from there, and
:meth:`ChunkedSolution.reduced` loads a small one into memory.

Notes
-----
With each opponent's turn depending on its own score only, the player's values at a column j
need :math:`A_t(\\cdot, j) = \\sum_y P(Y_t = y \\mid j_t)\\, A_{t-1}(\\cdot, j + y e_t)`,
:math:`A_0 = V`, :math:`W = A_m` (:mod:`pigtheory.simultaneous.nplayer.reduced`). Every tuple
:math:`j + y e_t` other than j itself has a larger opponents' score sum, so the columns of one
*level* (equal sum) depend only on higher levels, and on themselves through the everybody-busts
self-loop, which the column solve handles exactly. A level is cut into chunks of columns; a
chunk task

1. reads its columns from the store's index and the rows :math:`A_{t-1}(\\cdot, j + y e_t)` of
   the higher levels from their chunk files (memory-mapped, only the rows it needs),
2. solves every column (:func:`pigtheory.simultaneous.nplayer.gathered.compiled`: the arithmetic
   of the in-memory compiled engine, so the values are the same bits),
3. writes the chunk's values, policy and :math:`A_1 .. A_{m-1}`, and returns a few numbers

(:func:`~pigtheory.simultaneous.nplayer.chunk_task.solve_chunk`).

A chunk is submitted as soon as every block it reads is finished, highest levels first, so
levels overlap where the moves allow (an opponent holding at n only reads levels at least n
higher, besides the columns where some opponent has reached the goal). :math:`A_t` of a block
is deleted once every chunk that reads it is done; the values and policies stay. A solve that
stops (a killed job, a lost cluster) resumes from the finished chunks when called again on
the same folder.

Memory per task is the chunk's output, ``chunk * m * (goal + 1) * 8`` bytes (about 64 MB by
default), plus the pages of the rows it reads (memory-mapped, never copied): the whole solve
never sits in one process.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (18)-(19), Algorithm 0.3 and the
4- and n-player paragraph (cost :math:`O(100^n)`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import partial
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from ...engine import numba_installed
from ...guard import BASE_BYTES, FEWER, Estimate, check_memory, players_text, with_roll_model
from ...parallel import check_executor
from ...results import Result
from ...rules import Rules
from ...runtime import Plan, check_disk, run_chunks
from ...validation import check_int, check_path, check_progress, check_simultaneous_rules
from ..core import read_opponents
from .chunk_task import solve_chunk
from .level_store import LevelStore, block_id
from .reduced import ReducedSolution, separable_moves

__all__ = [
    "chunked_best_response",
    "ChunkedSolution",
    "chunk_columns",
    "store_summary",
    "estimate_memory",
    "estimate_disk",
]

_CHUNK_BYTES = 64 * 2**20
"""Default budget for one task's output (values and the A_t it writes)."""

_IN_FLIGHT = 64
"""Chunks submitted ahead of completion: enough to keep a cluster busy, few enough that the
highest levels go first."""


@dataclass(frozen=True, eq=False)
class ChunkedSolution(Result):
    """A best response whose values stay in a chunked store on disk.

    Attributes
    ----------
    store : str
        The store folder (:class:`~pigtheory.simultaneous.nplayer.level_store.LevelStore`).
    value_start : float
        Win probability at the start, every score 0 (the values of the other states stay in
        the store: ``value[c, a]`` per chunk file, :meth:`at` and :meth:`reduced` read them).
    policy_start : int
        The threshold there.
    iterations : int
        Score levels of the game's non-terminal states, ``players * (goal - 1) + 1`` (as for
        :class:`~pigtheory.simultaneous.ReducedSolution`).
    residual : float
        0.0 (exact).
    method : str
    rules : Rules
    n_states : int
        Non-terminal states solved: ``goal`` own scores times the live columns.
    n_columns : int
        Columns, live and ended.
    n_tasks : int
        Chunks (tasks) of the solve.
    chunk : int
        Columns per chunk.
    """

    store: str
    value_start: float
    policy_start: int
    iterations: int
    residual: float
    method: str
    rules: Rules
    n_states: int
    n_columns: int
    n_tasks: int
    chunk: int

    def at(self, own: int, *opponents_scores: int) -> float:
        """Win probability at own score ``own`` and the opponents' scores (any order).

        Parameters
        ----------
        own : int
            In ``0..goal``.
        *opponents_scores : int
            The ``players - 1`` opponents' scores, each in ``0..goal``.

        Returns
        -------
        float
        """
        st = LevelStore(self.store)
        g, m = self.rules.goal, self.rules.players - 1
        js = np.sort(np.asarray(opponents_scores, dtype=np.int64))
        if js.shape != (m,) or np.any(js < 0) or np.any(js > g) or not 0 <= own <= g:
            raise ValueError(f"scores: own and {m} opponents' scores in 0..{g} expected")
        block = int(block_id(js.sum(), js[-1] == g))
        chunk, row = st.locate(block, js[None, :])
        return float(st.read("value", block, int(chunk[0]))[row[0], own])

    def reduced(self) -> ReducedSolution:
        """The whole solution in memory, as :func:`reduced_best_response` returns it (small
        goals: this is the memory the chunked solve avoids).

        Returns
        -------
        ReducedSolution
            Symmetric (multiset columns): ``value`` of shape ``(goal + 1, S)``, ``policy``
            ``(goal, S)``, ``states`` ``(S, players - 1)``.
        """
        from .score_sets import multisets, score_keys

        st = LevelStore(self.store)
        g, m = self.rules.goal, self.rules.players - 1
        states = multisets(g, m)
        keys = score_keys(states, g)
        value = np.zeros((g + 1, keys.size))
        policy = np.zeros((g, keys.size), dtype=np.min_scalar_type(g))
        for block in st.sizes:
            cols = np.searchsorted(keys, st.keys(block))
            for k in range(st.n_chunks(block)):
                part = cols[k * st.chunk : (k + 1) * st.chunk]
                value[:, part] = st.read("value", block, k).T
                policy[:, part] = st.read("policy", block, k).T
        method = self.method.removesuffix("-chunked")
        return ReducedSolution(
            value, policy, self.iterations, 0.0, method, self.rules, states, True, self.n_states
        )


def chunk_columns(rules: Rules, budget: int = _CHUNK_BYTES) -> int:
    """Default columns per chunk: a task's values and :math:`A_t` within ``budget`` bytes.

    Parameters
    ----------
    rules : Rules
    budget : int
        Bytes of float64 output per task (default 64 MiB).

    Returns
    -------
    int
        At least 64.
    """
    m, g = rules.players - 1, rules.goal
    return int(max(64, budget // (m * (g + 1) * 8)))


@with_roll_model(name="chunked")
def estimate_memory(rules: Any, *, chunk: int) -> Estimate | None:
    """:func:`~pigtheory.simultaneous.chunked_best_response`: the memory of one chunk of
    columns and its score level (the store itself is on disk, see :func:`estimate_disk`)."""
    if not isinstance(rules, Rules) or not isinstance(chunk, int):
        return None
    g, n = rules.goal, rules.players
    level = comb(g + n - 2, n - 2)  # the columns of one score level (multisets of the others)
    need = 8 * (g + 1) * chunk * (n + 3) + 8 * g * g * n + 8 * n * level + BASE_BYTES
    return Estimate(
        f"chunked best response ({players_text(rules)}, chunks of {chunk})", (g + 1) * chunk, need, FEWER
    )


def estimate_disk(rules: Any) -> int:
    """Bytes the store of a chunked best response holds when done: value and policy of every
    reduced state (own score times the multisets of the opponents' scores)."""
    g, n = rules.goal, rules.players
    return 16 * (g + 1) * comb(g + n - 1, n - 1)


def chunked_best_response(
    opponents: Any,
    *,
    rules: Rules = Rules(players=4),
    store: str | os.PathLike,
    chunk: int | None = None,
    executor: Any = None,
    progress: bool | None = None,
    keep_partials: bool = False,
    max_memory: Any = None,
) -> ChunkedSolution:
    """Exact best response to identical opponents, level by level in chunk tasks, the values
    kept in a store on disk (module Notes): Zhu, Ma, Chen & Liu (2023) Algorithm 0.3 and
    eqs. (18)-(19), as :func:`reduced_best_response` solves it, for more players.

    Parameters
    ----------
    opponents : policy or list of policies
        ``rules.players - 1`` copies of one policy that reads the opponent's own score only
        (``hold_at(n)``, an own-score table, their mixtures).
    rules : Rules
        One die, ``players >= 2``.
    store : path-like
        Folder of the store: created if new; a folder holding this same solve resumes it
        (finished chunks are kept). Every worker must reach it.
    chunk : int, optional
        Columns per task (default :func:`~pigtheory.simultaneous.nplayer.chunked.chunk_columns`: about
        64 MB of output per task).
    executor : None, concurrent.futures.Executor or dask.distributed.Client
        Where the chunks run (:mod:`pigtheory.parallel`); default: one after another, here.
    progress : bool, optional
        A bar on stderr, advanced as each chunk finishes (default: when stderr is a terminal).
    keep_partials : bool
        Keep every level's :math:`A_t` files instead of deleting them when no longer read.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if one chunk's estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).
        The store's size on disk is checked against the free space likewise.

    Returns
    -------
    ChunkedSolution
        Its :meth:`~ChunkedSolution.reduced` equals :func:`reduced_best_response` with the
        compiled engine, bit for bit.

    Raises
    ------
    ValueError
        Opponents that differ or read other scores, the wrong number of them, ``chunk < 1``,
        numba missing, or a store of another solve in ``store``.

    Examples
    --------
    >>> import tempfile
    >>> rules = Rules(goal=8, players=3)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     sol = chunked_best_response([hold_at(3)] * 2, rules=rules, store=folder, chunk=10)
    ...     mem = reduced_best_response([hold_at(3)] * 2, rules=rules, engine="numba")
    ...     bool(np.array_equal(sol.reduced().value, mem.value)), sol.at(0, 0, 0) == sol.value_start
    (True, True)
    """
    check_path("store", store)
    check_simultaneous_rules(rules)
    if rules.players < 2:
        raise ValueError(f"rules.players must be >= 2, got {rules.players}")
    if chunk is not None:
        chunk = check_int("chunk", chunk, low=1)
    check_memory(estimate_memory(rules, chunk=chunk or chunk_columns(rules)), max_memory)
    check_disk(store, estimate_disk(rules), f"chunked best response ({rules})")
    opps = read_opponents(opponents, rules)
    dest_all, prob_all = separable_moves(opps, rules)
    if any(
        not (np.array_equal(dest_all[q], dest_all[0]) and np.array_equal(prob_all[q], prob_all[0]))
        for q in range(len(opps))
    ):
        raise ValueError("opponents: the chunked solve needs every opponent to play the same policy")
    chunk = chunk_columns(rules) if chunk is None else chunk
    check_executor(executor)
    check_progress(progress)
    if not isinstance(keep_partials, bool):
        raise ValueError(f"keep_partials must be True or False, got {keep_partials!r}")
    if not numba_installed():
        raise ValueError("the chunked solve needs numba (pip install numba)")
    st = LevelStore.create(store, rules, dest_all[0], prob_all[0], chunk)
    reads = {
        (block, k): _blocks_read(st, block, st.columns(block, k))
        for block in st.sizes
        for k in range(st.n_chunks(block))
    }
    plan = Plan(reads, {b: st.n_chunks(b) for b in st.sizes}, st.finished_chunks(list(reads)))
    if not keep_partials:  # a stopped run may have left some that nothing will read again
        for b in plan.unneeded():
            st.drop_partials(b)
    with (st.folder / "tasks.jsonl").open("a") as log:

        def done(key: tuple[int, int], stats: dict, free: list[int]) -> None:
            log.write(json.dumps({"block": key[0], "chunk": key[1], **stats}) + "\n")
            log.flush()
            if not keep_partials:
                for b in free:
                    st.drop_partials(b)

        run_chunks(
            plan,
            lambda block, k: partial(solve_chunk, str(st.folder), block, k),
            done,
            executor=executor,
            progress=progress,
            label="chunked levels",
            in_flight=_IN_FLIGHT,
        )
    g, m = rules.goal, rules.players - 1
    start = st.read("value", 0, 0)[0, 0], st.read("policy", 0, 0)[0, 0]
    return ChunkedSolution(
        store=str(st.folder),
        value_start=float(start[0]),
        policy_start=int(start[1]),
        iterations=(m + 1) * (g - 1) + 1,
        residual=0.0,
        method="exact-separable-symmetric-chunked",
        rules=rules,
        n_states=g * comb(g - 1 + m, m),
        n_columns=sum(st.sizes.values()),
        n_tasks=plan.n_tasks,
        chunk=chunk,
    )


def _blocks_read(st: LevelStore, block: int, cols: np.ndarray) -> set[int]:
    """Blocks whose chunk files a chunk of ``block`` with columns ``cols`` reads: its
    columns' moves to higher levels."""
    g = st.rules.goal
    dest, prob = st.moves
    x = np.unique(cols)
    d = dest[x]
    moves = (prob[x] > 0) & (d != x[:, None])
    reached = block_id(block // 2 + (d - x[:, None])[moves], (block % 2 == 1) | (d[moves] == g))
    return set(np.unique(reached).tolist())


def store_summary(folder: str | os.PathLike) -> dict[str, Any]:
    """Bytes on disk and the task records of a store (for benchmarks).

    Parameters
    ----------
    folder : path-like
        A :class:`~pigtheory.simultaneous.nplayer.level_store.LevelStore` folder.

    Returns
    -------
    dict
        ``{"bytes": int, "tasks": list of dict}``, one record per finished task (from
        ``tasks.jsonl``).
    """
    st = LevelStore(folder)
    path = Path(folder) / "tasks.jsonl"
    tasks = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    return {"bytes": st.bytes_on_disk(), "tasks": tasks}
