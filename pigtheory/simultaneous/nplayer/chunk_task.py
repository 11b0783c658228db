"""One task of the chunked level solve: read the rows a chunk needs, solve it, write it.

Shapes
------
See :mod:`pigtheory.simultaneous.nplayer.chunked` (the columns) and
:mod:`pigtheory.simultaneous.nplayer.gathered` (``sources``, ``src``, ``at``: where each row read
lies). The task's inputs are the store's folder and the chunk's name; everything else (rules,
the opponents' moves, the columns, the rows of higher levels) it reads from the store, and it
returns a few numbers, so that a cluster moves names, not arrays.
"""

from __future__ import annotations

import os
import socket
import time
from typing import Any

import numpy as np

from ...jit import typed_list
from ...runtime import peak_mb
from ..core import TIE_TOL
from ..core.step import band_of
from . import gathered
from .level_store import LevelStore, block_id

__all__ = ["solve_chunk"]


def solve_chunk(folder: str, block: int, k: int) -> dict[str, Any]:
    """The task: solve chunk k of a block from the store in ``folder`` and write it there.

    Parameters
    ----------
    folder : str
        The :class:`~pigtheory.simultaneous.nplayer.level_store.LevelStore` folder (every block the
        chunk reads is finished).
    block : int
        :func:`~pigtheory.simultaneous.nplayer.level_store.block_id` of the level and kind.
    k : int
        The chunk.

    Returns
    -------
    dict
        A few numbers for the record: the columns solved, seconds (in all, and finding the
        rows read, solving, writing), the worker's peak resident memory (``VmHWM``, MB), its
        process id and host.
    """
    t0 = time.perf_counter()
    st = LevelStore(folder)
    rules = st.rules
    g, m = rules.goal, rules.players - 1
    dest, prob = st.moves
    states = st.columns(block, k)
    sources, src, at = _sources(st, states, dest, prob)
    t1 = time.perf_counter()
    n = states.shape[0]
    value = np.zeros((n, g + 1))
    policy = np.zeros((n, g), dtype=np.min_scalar_type(g))
    partials = np.zeros((n, m - 1, g + 1))
    kernel = gathered.compiled()
    kernel(
        states,
        dest,
        prob,
        gathered.Gathered(sources, src, at),
        band_of(rules),
        TIE_TOL,
        gathered.ChunkOut(value, policy, partials),
    )
    del sources  # unmaps the files read
    t2 = time.perf_counter()
    st.write_chunk(block, k, value, policy, partials)
    t3 = time.perf_counter()
    return {
        "level": block // 2,
        "columns": n,
        "seconds": t3 - t0,
        "read_s": t1 - t0,
        "solve_s": t2 - t1,
        "write_s": t3 - t2,
        "peak_mb": peak_mb(),
        "pid": os.getpid(),
        "host": socket.gethostname(),
    }


def _sources(
    st: LevelStore, states: np.ndarray, dest: np.ndarray, prob: np.ndarray
) -> tuple[Any, np.ndarray, np.ndarray]:
    """``(sources, src, at)`` of the kernel (:mod:`.gathered`): the chunk files a chunk
    reads, memory-mapped, and where each row it needs lies in them."""
    g = st.rules.goal
    n, m = states.shape
    # every move that leaves its column: column c, stage t, outcome o, and the tuple reached
    parts = []
    for t in range(1, m + 1):
        x = states[:, t - 1]
        cs, os_ = np.nonzero((prob[x] > 0) & (dest[x] != x[:, None]))
        nxt = states[cs].copy()
        nxt[:, t - 1] = dest[x[cs], os_]
        nxt[:, t - 1 :] = np.sort(nxt[:, t - 1 :], axis=1)
        parts.append((cs, np.full(cs.size, t), os_, nxt))
    cs, ts, os_, nxt = (np.concatenate(p) for p in zip(*parts, strict=True))
    blocks = block_id(nxt.sum(axis=1), nxt[:, -1] == g)
    where = np.empty(cs.size, dtype=np.int64)
    row = np.empty(cs.size, dtype=np.int64)
    for b in np.unique(blocks):
        sel = np.flatnonzero(blocks == b)
        where[sel], row[sel] = st.locate(int(b), nxt[sel])
    # one source per file: (block, chunk) of V for stage 1, of the A_t file for later stages
    span = int(where.max(initial=0)) + 1
    files, inverse = np.unique((blocks * span + where) * 2 + (ts > 1), return_inverse=True)
    sources = typed_list()
    unread = np.zeros((1, g + 1))
    unread.setflags(write=False)
    sources.append(unread)  # entry 0: never read; types the list (read-only rows) when empty
    for key in files.tolist():
        b, ch, later = key // 2 // span, key // 2 % span, key % 2
        sources.append(st.read("partial" if later else "value", b, ch).reshape(-1, g + 1))
    src = np.zeros((n, m, dest.shape[1]), dtype=np.int64)
    at = np.zeros_like(src)
    src[cs, ts - 1, os_] = inverse.ravel() + 1
    at[cs, ts - 1, os_] = np.where(ts == 1, row, row * (m - 1) + ts - 2)
    return sources, src, at
