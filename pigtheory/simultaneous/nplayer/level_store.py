"""The on-disk store of a chunked level solve: finished levels in chunk files, not in memory.

Shapes
------
Columns are the opponents' sorted score tuples (multisets, as in
:class:`~pigtheory.simultaneous.ReducedSolution`). A *block* holds the columns of one level
(score sum e) of one kind, live (every score below the goal) or ended (some opponent at the
goal); its id is ``2 e + ended``. A block's columns, in lexicographic order, are cut into
chunks of ``chunk`` columns, chunk k holding columns ``k * chunk ..``. The store is a
:class:`~pigtheory.runtime.ChunkStore` (header, seals, checksums, memory-mapped reads); the
parts of a chunk are

``value``
    float64 ``(n, goal + 1)``: ``value[c, a]`` at own score a;
``policy``
    uint ``(n, goal)``: the threshold at own score ``i < goal`` (0 for ended columns);
``partial``
    float64 ``(n, m - 1, goal + 1)``: :math:`A_1 .. A_{m-1}`, read by lower levels only, and
    removed once none is left to read it;

with ``index/columns.npy`` (int16 ``(columns, m)``): every block's columns, the blocks in the
order of their ids, one file for the store (a file per block cost a file creation each, the
largest part of a small solve's writing). The header's solve holds the rules, the chunk size
and one opponent's destinations and probabilities per score; its extra, the size of every
block; its files, the SHA-256 of the index, which opening the store writes again if it is
damaged or missing.

Notes
-----
Any folder that every worker reaches works: a local disk for a ``LocalCluster``, a shared
file system for a cluster of machines. Readers memory-map the chunk files and copy out only
the rows they need.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from ...rules import Rules
from ...runtime import ChunkStore
from .score_sets import multisets, score_keys

__all__ = ["LevelStore", "block_id", "block_name"]

FORMAT = "pigtheory-level-store"


def block_id(level: int | np.ndarray, ended: bool | np.ndarray) -> Any:
    """Id of the block of a level's live (``ended`` False) or ended columns: ``2 * level + ended``
    (int or int array, broadcast)."""
    return 2 * np.asarray(level, dtype=np.int64) + np.asarray(ended, dtype=np.int64)


def block_name(block: int) -> str:
    """``L<level>-live`` or ``L<level>-ended``."""
    return f"L{block // 2}-{'ended' if block % 2 else 'live'}"


_KEYS: dict[tuple[str, str], dict[int, np.ndarray]] = {}
"""Block keys of the store this process last read: the index never changes once written."""


def _columns(rules: Rules) -> tuple[np.ndarray, dict[int, int]]:
    """Every block's columns (int16, the blocks in the order of their ids, lexicographic
    within one) and the columns of each block."""
    g, m = rules.goal, rules.players - 1
    states = multisets(g, m)
    blocks = block_id(states.sum(axis=1), states[:, -1] == g)  # sorted tuples: last is largest
    order = np.argsort(blocks, kind="stable")  # lexicographic within a block
    states, blocks = states[order], blocks[order]
    ids, counts = np.unique(blocks, return_counts=True)
    return states.astype(np.int16), {int(b): int(n) for b, n in zip(ids, counts, strict=True)}


class LevelStore(ChunkStore):
    """A chunked store of the n-player best response in ``folder`` (see the module docstring);
    opened, or created by :meth:`create`."""

    dropped_parts = frozenset({"partial"})

    def __init__(self, folder: Any, kind: str | None = FORMAT) -> None:
        super().__init__(folder, kind)

    @classmethod
    def create(  # type: ignore[override]
        cls, folder: Any, rules: Rules, dest: np.ndarray, prob: np.ndarray, chunk: int
    ) -> LevelStore:
        """Open the store in ``folder``, writing its parameters, index and moves if it is new.

        Parameters
        ----------
        folder : path-like
        rules : Rules
            One die, ``players`` players (``players - 1`` identical opponents).
        dest, prob : numpy.ndarray, shape ``(goal + 1, O)``
            One opponent's move: its new score and the probability, from each score
            (:func:`~pigtheory.simultaneous.nplayer.reduced.separable_moves` for one opponent).
        chunk : int
            Columns per chunk.

        Returns
        -------
        LevelStore

        Raises
        ------
        pigtheory.runtime.StoreMismatch
            ``folder`` holds a store of another solve (other rules, opponents or chunk size):
            finished chunks are reused only for the same solve (a ``ValueError``).
        """
        import dataclasses

        solve = {
            "rules": dataclasses.asdict(rules),
            "chunk": int(chunk),
            "moves": {"dest": dest.tolist(), "prob": prob.tolist()},
            "index": "columns",  # one index file (a store of a file per block is another layout)
        }
        probe = cls(folder)
        if (probe.folder / "store.json").exists():
            ChunkStore.create(folder, FORMAT, solve)  # refuses another solve
            probe._mend_index(rules)
            return probe
        states, sizes = _columns(rules)
        files = {"index/columns": probe.save("index/columns", states)}
        extra = {"blocks": {str(b): n for b, n in sorted(sizes.items())}}
        ChunkStore.create(folder, FORMAT, solve, extra, files)
        return cls(folder)

    def _mend_index(self, rules: Rules) -> None:
        """Write ``index/columns.npy`` again if it is missing or no longer has the SHA-256 the
        header records, before any task reads it
        (:meth:`~pigtheory.runtime.ChunkStore.mend_files`)."""
        if self.mend_files(lambda names: {"index/columns": lambda: _columns(rules)[0]}):
            _KEYS.clear()

    # -- parameters ------------------------------------------------------------------------

    @property
    def chunk(self) -> int:
        """Columns per chunk."""
        return int(self.solve["chunk"])

    @cached_property
    def moves(self) -> tuple[np.ndarray, np.ndarray]:
        """One opponent's ``dest[x, o]`` and ``prob[x, o]``, shape ``(goal + 1, O)``: its new
        score and the probability, from score x."""
        mv = self.solve["moves"]
        return np.array(mv["dest"], dtype=np.int64), np.array(mv["prob"], dtype=np.float64)

    @cached_property
    def sizes(self) -> dict[int, int]:
        """Columns per block."""
        return {int(b): int(n) for b, n in self.extra["blocks"].items()}

    @cached_property
    def starts(self) -> dict[int, int]:
        """First row of each block in ``index/columns.npy`` (blocks in the order of their ids)."""
        ids = sorted(self.sizes)
        ends = np.cumsum([self.sizes[b] for b in ids])
        return {b: int(e) - self.sizes[b] for b, e in zip(ids, ends, strict=True)}

    def n_chunks(self, block: int) -> int:
        """Chunks of ``block`` (the last one may be short)."""
        return -(-self.sizes[block] // self.chunk)

    # -- files -----------------------------------------------------------------------------

    def columns(self, block: int, chunk: int | None = None) -> np.ndarray:
        """The columns of a block, or of one of its chunks: int64, shape ``(n, players - 1)``,
        each row the opponents' sorted scores, rows in lexicographic order."""
        start = self.starts[block]
        index = np.load(self.folder / "index" / "columns.npy", mmap_mode="r")
        states = index[start : start + self.sizes[block]]
        if chunk is not None:
            states = states[chunk * self.chunk : (chunk + 1) * self.chunk]
        return states.astype(np.int64)

    def keys(self, block: int) -> np.ndarray:
        """Sorted keys (``pigtheory.simultaneous.nplayer.score_sets.score_keys``) of a block's
        columns; kept for the process's later tasks on the same store (a worker solves many
        chunks, each reading dozens of blocks)."""
        cache = _KEYS.get((str(self.folder), self.header["id"]))
        if cache is None:
            _KEYS.clear()  # one store at a time
            cache = _KEYS[(str(self.folder), self.header["id"])] = {}
        if block not in cache:
            cache[block] = score_keys(self.columns(block), self.rules.goal)
        return cache[block]

    def locate(self, block: int, tuples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(chunk, row)`` of each sorted tuple (rows of ``tuples``, shape ``(n, players - 1)``)
        in ``block``: two int arrays of shape ``(n,)``; ``ValueError`` if one is missing."""
        keys = self.keys(block)
        want = score_keys(tuples, self.rules.goal)
        pos = np.searchsorted(keys, want)
        if np.any(pos >= keys.size) or np.any(keys[np.minimum(pos, keys.size - 1)] != want):
            raise ValueError(f"store: a tuple is missing from block {block_name(block)}")
        return pos // self.chunk, pos % self.chunk

    def write_chunk(  # type: ignore[override]
        self, block: int, chunk: int, value: np.ndarray, policy: np.ndarray, partial: np.ndarray
    ) -> None:
        """Write one solved chunk, its seal last (:meth:`pigtheory.runtime.ChunkStore.write_chunk`)."""
        parts = {"partial": partial} if partial.shape[1] else {}
        super().write_chunk(block, chunk, {**parts, "value": value, "policy": policy})

    def read(self, kind: str, block: int, chunk: int) -> np.ndarray:  # type: ignore[override]
        """A chunk file, memory-mapped (read-only): ``"value"`` float64 ``(n, goal + 1)``,
        ``"policy"`` uint ``(n, goal)``, ``"partial"`` float64 ``(n, players - 2, goal + 1)``, n
        the chunk's columns."""
        g, m = self.rules.goal, self.rules.players - 1
        rows = min(self.chunk, self.sizes[block] - chunk * self.chunk)
        shape = {"value": (rows, g + 1), "policy": (rows, g), "partial": (rows, m - 1, g + 1)}[kind]
        dtype = np.min_scalar_type(g) if kind == "policy" else np.dtype(np.float64)
        return super().read(kind, block, chunk, shape, dtype)

    def drop_partials(self, block: int) -> None:
        """Remove a block's :math:`A_t` files (no level left to read them)."""
        for k in range(self.n_chunks(block)):
            self.path("partial", block, k).unlink(missing_ok=True)
