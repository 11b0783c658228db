"""The on-disk store of a chunked multiplayer equilibrium: rotation groups, level by level.

Blocks and chunks
-----------------
A :class:`~pigtheory.runtime.ChunkStore` (header with the solve's parameters, a seal per chunk
with the SHA-256 of its parts, memory-mapped reads). A *block* is one score sum ``s`` (the
runtime runs the highest block first, as the solve needs); its canonical groups (the smallest
flat index among a tuple's rotations, :func:`~.group_kernels.level_order`) are listed in
``index/<s>.npy`` (int64, ascending) and cut into chunks of ``chunk`` groups. Its *rank table*
``index/rank<s>.npy`` (int32; int64 past 2**31 rows) gives for every tuple of the sum, at its
rank among them (:func:`~.chunk_kernels.tuple_rank`), ``p n + r``: the place p of its group in
the list and the rotation r that maps the group to it, so a reader finds a row by arithmetic
(:func:`~.chunk_kernels.rank_table`; written when the store is created, or when a store of an
earlier version without them is opened). The parts of a
chunk of ``G`` groups, rotation ``r`` of a group being its tuple rotated left by r (all n of
them; with ``d < n`` distinct rotations, rotation r repeats rotation ``r % d``):

``value``
    float64 ``(G, n, n)``: start values by rotation and offset;
``bits``
    uint8 ``(G, n, ceil(g / 8))``: roll bits by rotation;
``U``
    float64 ``(G, n, n)``: a lone deviator's best-response values (with ``certify``);
``gains``
    float64 ``(G, n)``: one-shot deviation gains by rotation (with ``certify``);
``mix_states``, ``mix_prob``, ``mix_bounds``, ``group_mixed``, ``group_how``, ``group_bounds``, ``several``
    the chunk's mixed states (rows ``(t_0, .., t_{n-1}, k)``), their roll probabilities and
    enclosures, its mixed groups, how they were solved and their value enclosures, the
    groups with several equilibria and their count (written only where the chunk has some);
``stats``
    float64 ``(2,)``: the chunk's best-response passes and the largest residual.

The header's solve holds every parameter that decides these arrays (rules, passing, starts,
passes, certify, enclose, chunk): a folder of another solve is refused.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from typing import Any

import numpy as np

from ...rules import Rules
from ...runtime import ChunkStore

__all__ = ["GroupStore", "FORMAT", "rotations", "canonical"]

FORMAT = "pigtheory-sequential-groups"
"""The store's kind in its header."""

_INDEX: dict[tuple[str, str], dict[int, np.ndarray]] = {}
"""Group lists of the store this process last read (an index never changes once written)."""


def rotations(idx: np.ndarray, n: int, g: int) -> np.ndarray:
    """Flat indices of every left rotation of the tuples ``idx``: shape ``idx.shape + (n,)``
    (:func:`~.group_kernels.rotate`, vectorised)."""
    idx = np.asarray(idx, dtype=np.int64)
    out = np.empty(idx.shape + (n,), dtype=np.int64)
    out[..., 0] = idx
    for r in range(1, n):
        p = g ** (n - r)
        out[..., r] = (idx % p) * g**r + idx // p
    return out


def canonical(idx: np.ndarray, n: int, g: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(group, rotation, score sum)`` of the tuples ``idx``: the canonical tuple of each one's
    group and the rotation r with ``rotate(group, r) == idx``."""
    rots = rotations(idx, n, g)
    j = np.argmin(rots, axis=-1)
    group = np.take_along_axis(rots, j[..., None], axis=-1)[..., 0]
    total = np.zeros_like(group)
    x = group.copy()
    for _ in range(n):
        total += x % g
        x //= g
    return group, (n - j) % n, total


_EMPTY = {
    "mix_states": lambda n: np.zeros((0, n + 1), dtype=np.int64),
    "mix_prob": lambda n: np.zeros(0),
    "mix_bounds": lambda n: np.zeros((0, 2)),
    "group_mixed": lambda n: np.zeros((0, n), dtype=np.int64),
    "group_how": lambda n: np.zeros(0, dtype="<U64"),
    "group_bounds": lambda n: np.zeros((0, n, n, 2)),
    "several": lambda n: np.zeros((0, n + 1), dtype=np.int64),
}
"""The small parts a chunk writes only when it has some (empty arrays of their shapes)."""


class GroupStore(ChunkStore):
    """The store of one chunked equilibrium (module docstring); :meth:`create` makes it."""

    def __init__(self, folder: Any, kind: str | None = FORMAT) -> None:
        super().__init__(folder, kind)

    @classmethod
    def create(  # type: ignore[override]
        cls, folder: Any, rules: Rules, options: dict[str, Any], chunk: int
    ) -> GroupStore:
        """Open the store of this solve in ``folder``, writing its header and group lists if new.

        Raises
        ------
        pigtheory.runtime.StoreMismatch
            ``folder`` holds another solve (other rules, options or chunk size).
        """
        from ...jit import compiled
        from . import group_kernels as gk

        solve = {"rules": dataclasses.asdict(rules), **options, "chunk": int(chunk)}
        probe = cls(folder)
        if (probe.folder / "store.json").exists():
            ChunkStore.create(folder, FORMAT, solve)  # refuses another solve
            st = cls(folder)
            missing = [s for s in st.sizes if not (st.folder / "index" / f"rank{s}.npy").exists()]
            if missing:  # a store of an earlier version: its rank tables
                st.save_ranks(rules.players, rules.goal, {s: st.groups(s) for s in missing})
            return st
        n, g = rules.players, rules.goal
        order, starts = compiled(gk.level_order)(n, g)
        top = n * (g - 1)
        sizes = {}
        for L in range(starts.size - 1):
            s = top - L
            part = order[starts[L] : starts[L + 1]]
            sizes[s] = int(part.size)
            probe.save(f"index/{s}", np.ascontiguousarray(part))
        probe.save_ranks(n, g, {s: order[starts[top - s] : starts[top - s + 1]] for s in sizes})
        ChunkStore.create(folder, FORMAT, solve, {"sizes": {str(s): k for s, k in sorted(sizes.items())}})
        return cls(folder)

    def save_ranks(self, n: int, g: int, lists: dict[int, np.ndarray]) -> None:
        """Write the rank table of every score sum (``index/rank<s>.npy``,
        :func:`~.chunk_kernels.rank_table`): int32 (int64 past 2**31 rows)."""
        from ...jit import compiled
        from . import chunk_kernels as ck

        cum = compiled(ck.count_table)(n, g)
        wide = max((x.size for x in lists.values()), default=0) * n >= 2**31
        for s, part in lists.items():
            count = int(cum[n, s] - (cum[n, s - 1] if s else 0))
            table = np.full(count, -1, dtype=np.int64 if wide else np.int32)
            compiled(ck.rank_table)(np.ascontiguousarray(part), n, g, s, cum, table)
            self.save(f"index/rank{s}", table)

    def rank_table(self, block: int) -> np.ndarray:
        """The rank table of score sum ``block`` (memory-mapped): the group's place and rotation,
        ``p n + r``, of every tuple of that sum by its rank (:func:`~.chunk_kernels.tuple_rank`)."""
        return np.load(self.folder / "index" / f"rank{block}.npy", mmap_mode="r")

    @property
    def chunk(self) -> int:
        """Groups per chunk."""
        return int(self.solve["chunk"])

    @cached_property
    def sizes(self) -> dict[int, int]:
        """Groups per score sum."""
        return {int(s): int(k) for s, k in self.extra["sizes"].items()}

    def n_chunks(self, block: int) -> int:
        """Chunks of score sum ``block``."""
        return -(-self.sizes[block] // self.chunk)

    def rows(self, block: int, chunk: int) -> int:
        """Groups in one chunk (the last of a block may be short)."""
        return min(self.chunk, self.sizes[block] - chunk * self.chunk)

    def groups(self, block: int, chunk: int | None = None) -> np.ndarray:
        """Canonical flat indices of a block's groups (ascending), or of one of its chunks."""
        key = (str(self.folder), self.header["id"])
        cache = _INDEX.get(key)
        if cache is None:
            _INDEX.clear()
            cache = _INDEX[key] = {}
        if block not in cache:
            cache[block] = np.load(self.folder / "index" / f"{block}.npy")
        out = cache[block]
        if chunk is not None:
            out = out[chunk * self.chunk : (chunk + 1) * self.chunk]
        return out

    def locate(self, block: int, groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(chunk, row)`` of canonical groups of one block."""
        pos = np.searchsorted(self.groups(block), groups)
        return pos // self.chunk, pos % self.chunk

    def read_part(self, part: str, block: int, chunk: int) -> np.ndarray:
        """``value``/``U`` (float64 ``(G, n, n)``), ``bits`` (uint8) or ``gains`` of a chunk,
        memory-mapped read-only; the small parts (``mix_*``, ``group_*``, ``several``) loaded."""
        n, g = self.rules.players, self.rules.goal
        G = self.rows(block, chunk)
        shapes = {"value": (G, n, n), "U": (G, n, n), "bits": (G, n, (g + 7) // 8), "gains": (G, n)}
        if part in shapes:
            dtype = np.uint8 if part == "bits" else np.float64
            return self.read(part, block, chunk, shapes[part], dtype)
        path = self.path(part, block, chunk)
        if not path.exists():  # a small part a chunk had nothing of (checked against its seal)
            return _EMPTY[part](n)
        return np.load(path, allow_pickle=False)

    def gather(self, part: str, tuples: np.ndarray) -> np.ndarray:
        """Rows ``part[t]`` (``value`` or ``U``: shape ``(len(tuples), n)``) of finished tuples,
        for lookups (a chunk task gathers its rows in compiled code,
        :func:`pigtheory.sequential.multiplayer.chunk_task.hold_rows`)."""
        n, g = self.rules.players, self.rules.goal
        group, rot, total = canonical(np.asarray(tuples, dtype=np.int64), n, g)
        out = np.empty((group.size, n))
        for i in range(group.size):
            chunk, row = self.locate(int(total[i]), group[i : i + 1])
            out[i] = self.read_part(part, int(total[i]), int(chunk[0]))[row[0], rot[i]]
        return out
