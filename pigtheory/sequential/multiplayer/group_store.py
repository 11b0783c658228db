"""The on-disk store of a chunked multiplayer equilibrium: rotation groups, level by level.

Blocks and chunks
-----------------
A :class:`~pigtheory.runtime.ChunkStore` (header with the solve's parameters, a seal per chunk
with the SHA-256 of its parts, memory-mapped reads). A *block* is one score sum ``s`` (the
runtime runs the highest block first, as the solve needs); its canonical groups (the smallest
flat index among a tuple's rotations, :func:`~.group_kernels.level_order`) are listed in
``index/<s>.npy`` (int64, ascending) and cut into chunks (:func:`cut`: of ``chunk`` groups, or
with the header's ``spread`` W > 1, a multiple of W chunks of equal size). Its *rank table*
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

The header's solve holds every parameter that decides these arrays and their files (rules,
passing, starts, passes, certify, enclose, chunk, and spread if not 1): a folder of another
solve is refused. Its ``files`` hold the SHA-256 of every group list and rank table: opening
the store writes a damaged or missing one again (``GroupStore._mend_index``), before any
task reads it.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable
from functools import cached_property, partial
from typing import Any

import numpy as np

from ...rules import Rules
from ...runtime import ChunkStore
from ...validation import check_int

__all__ = ["GroupStore", "FORMAT", "rotations", "canonical", "cut", "MIN_CHUNK"]

FORMAT = "pigtheory-sequential-groups"
"""The store's kind in its header."""

MIN_CHUNK = 16
"""The fewest groups a chunk holds: the least default chunk
(:func:`~.chunked.chunk_groups`), the least the plan tries, and the groups a worker needs
before :func:`cut` splits a sum for it."""

_INDEX: dict[tuple[str, str], dict[int, np.ndarray]] = {}
"""Group lists of the store this process last read (an index never changes once written)."""


def _group_lists(n: int, g: int) -> dict[int, np.ndarray]:
    """The canonical groups of every nonempty score sum, ascending
    (:func:`~.group_kernels.level_order`), highest sum first."""
    from ...jit import compiled
    from . import group_kernels as gk

    order, starts = compiled(gk.level_order)(n, g)
    top = n * (g - 1)
    return {top - L: np.ascontiguousarray(order[starts[L] : starts[L + 1]]) for L in range(starts.size - 1)}


def _rank_table(n: int, g: int, s: int, part: np.ndarray, wide: bool, cum: np.ndarray) -> np.ndarray:
    """The rank table of score sum ``s`` from its group list ``part``
    (:func:`~.chunk_kernels.rank_table`; ``cum`` its :func:`~.chunk_kernels.count_table`):
    int32, or int64 if ``wide`` (past 2**31 codes in some sum of the store)."""
    from ...jit import compiled
    from . import chunk_kernels as ck

    count = int(cum[n, s] - (cum[n, s - 1] if s else 0))
    table = np.full(count, -1, dtype=np.int64 if wide else np.int32)
    compiled(ck.rank_table)(np.ascontiguousarray(part), n, g, s, cum, table)
    return table


def cut(groups: int, chunk: int, spread: int = 1) -> tuple[int, int]:
    """``(chunks, span)``: how a score sum of ``groups`` groups is cut into tasks of at most
    ``chunk`` groups, ``span`` each (the last may be short).

    With ``spread`` 1: ``k = ceil(groups / chunk)`` chunks of ``chunk`` groups. With ``spread``
    W > 1, the workers a solve runs on, a sum of at least ``W MIN_CHUNK`` groups is cut into
    chunks of ``ceil(groups / (W ceil(k / W)))`` groups: W ceil(k / W) chunks of equal size (a
    few fewer where the rounding up leaves nothing for the last ones), so that each round of
    the sum's tasks keeps all W workers busy. The score sums are a chain (a sum's tasks wait for
    the sum above), and a sum of fewer chunks than workers, or a short last chunk, leaves
    workers waiting. A smaller sum is cut as with spread 1.

    Raises
    ------
    ValueError
        ``groups`` is not an integer >= 0, or ``chunk`` or ``spread`` not one >= 1.

    Examples
    --------
    >>> cut(21600, 5242), cut(21600, 5242, spread=2), cut(20, 5242, spread=2)
    ((5, 5242), (6, 3600), (1, 5242))
    """
    groups, chunk = check_int("groups", groups, low=0), check_int("chunk", chunk, low=1)
    spread = check_int("spread", spread, low=1)
    k = -(-groups // chunk)
    if spread == 1 or groups < spread * MIN_CHUNK:
        return k, chunk
    span = -(-groups // (spread * -(-k // spread)))
    return -(-groups // span), span


def _wide(sizes: dict[int, int], n: int) -> bool:
    """Whether a store's rank tables need int64: a code ``p n + r`` reaches 2**31 in some sum."""
    return max(sizes.values(), default=0) * n >= 2**31


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
        cls, folder: Any, rules: Rules, options: dict[str, Any], chunk: int, spread: int = 1
    ) -> GroupStore:
        """Open the store of this solve in ``folder``, writing its header and group lists if new.
        ``spread``: the workers whose rounds the chunks are cut for (:func:`cut`; part of the
        solve, as ``chunk`` is).

        Raises
        ------
        pigtheory.runtime.StoreMismatch
            ``folder`` holds another solve (other rules, options or chunk size).
        """
        solve = {"rules": dataclasses.asdict(rules), **options, "chunk": int(chunk)}
        if spread != 1:  # a store of spread 1 has no key (stores of earlier versions)
            solve["spread"] = int(spread)
        probe = cls(folder)
        if (probe.folder / "store.json").exists():
            ChunkStore.create(folder, FORMAT, solve)  # refuses another solve
            st = cls(folder)
            st._mend_index()
            missing = [s for s in st.sizes if not (st.folder / "index" / f"rank{s}.npy").exists()]
            if missing:  # a store of an earlier version: its rank tables
                st.save_ranks(rules.players, rules.goal, {s: st.groups(s) for s in missing}, st._wide)
            return st
        n, g = rules.players, rules.goal
        lists = _group_lists(n, g)
        sizes = {s: int(part.size) for s, part in lists.items()}
        files = {f"index/{s}": probe.save(f"index/{s}", part) for s, part in lists.items()}
        files.update(probe.save_ranks(n, g, lists, _wide(sizes, n)))
        extra = {"sizes": {str(s): k for s, k in sorted(sizes.items())}}
        ChunkStore.create(folder, FORMAT, solve, extra, files)
        return cls(folder)

    def _mend_index(self) -> None:
        """Make again every index file (group list, rank table) that is missing or no longer has
        the SHA-256 the header records, before any task reads it
        (:meth:`~pigtheory.runtime.ChunkStore.mend_files`: the index is a function of the rules,
        so a file made again that still differs refuses the store)."""
        if self.mend_files(self._index_files):
            _INDEX.clear()  # a list this process read before may be a damaged one

    def _index_files(self, names: list[str]) -> dict[str, Callable[[], np.ndarray]]:
        """The group lists and rank tables among ``names`` (``index/<s>``, ``index/rank<s>``), each
        a function making it from the rules; a name of neither is left out."""
        from ...jit import compiled
        from . import chunk_kernels as ck

        sums: tuple[list[int], list[int]] = ([], [])  # the group lists and rank tables to make
        for name in names:
            m = re.fullmatch(r"index/(rank)?(\d+)", name)
            if m is not None and int(m[2]) in self.sizes:
                sums[m[1] is not None].append(int(m[2]))
        n, g = self.rules.players, self.rules.goal
        # a damaged group list: all of them made again; else the tables are made from the files
        group_list = _group_lists(n, g).__getitem__ if sums[0] else self.groups
        cum = compiled(ck.count_table)(n, g)

        def table(s: int) -> np.ndarray:
            return _rank_table(n, g, s, group_list(s), self._wide, cum)

        out: dict[str, Callable[[], np.ndarray]] = {f"index/{s}": partial(group_list, s) for s in sums[0]}
        out.update((f"index/rank{s}", partial(table, s)) for s in sums[1])
        return out

    def save_ranks(self, n: int, g: int, lists: dict[int, np.ndarray], wide: bool) -> dict[str, str]:
        """Write the rank table of every score sum of ``lists`` (``index/rank<s>.npy``,
        ``_rank_table``), one at a time. Returns their SHA-256 by name."""
        from ...jit import compiled
        from . import chunk_kernels as ck

        cum = compiled(ck.count_table)(n, g)
        return {
            f"index/rank{s}": self.save(f"index/rank{s}", _rank_table(n, g, s, part, wide, cum))
            for s, part in lists.items()
        }

    def rank_table(self, block: int) -> np.ndarray:
        """The rank table of score sum ``block`` (memory-mapped): the group's place and rotation,
        ``p n + r``, of every tuple of that sum by its rank (:func:`~.chunk_kernels.tuple_rank`)."""
        return self._map(f"{self._root}index{os.sep}rank{block}.npy", np.int64 if self._wide else np.int32)

    @cached_property
    def _wide(self) -> bool:
        """Whether the rank tables are int64 (:meth:`save_ranks`)."""
        return _wide(self.sizes, self.rules.players)

    @property
    def chunk(self) -> int:
        """Groups per chunk."""
        return int(self.solve["chunk"])

    @cached_property
    def sizes(self) -> dict[int, int]:
        """Groups per score sum."""
        return {int(s): int(k) for s, k in self.extra["sizes"].items()}

    @property
    def spread(self) -> int:
        """The workers the chunks were cut for (:func:`cut`)."""
        return int(self.solve.get("spread", 1))

    def n_chunks(self, block: int) -> int:
        """Chunks of score sum ``block``."""
        return cut(self.sizes[block], self.chunk, self.spread)[0]

    def span(self, block: int) -> int:
        """Groups per chunk of score sum ``block`` (its last chunk may be short)."""
        return cut(self.sizes[block], self.chunk, self.spread)[1]

    def rows(self, block: int, chunk: int) -> int:
        """Groups in one chunk (the last of a block may be short)."""
        span = self.span(block)
        return min(span, self.sizes[block] - chunk * span)

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
            span = self.span(block)
            out = out[chunk * span : (chunk + 1) * span]
        return out

    def locate(self, block: int, groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(chunk, row)`` of canonical groups of one block."""
        pos = np.searchsorted(self.groups(block), groups)
        span = self.span(block)
        return pos // span, pos % span

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
