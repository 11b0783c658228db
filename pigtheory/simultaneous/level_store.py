"""The on-disk store of a chunked level solve: finished levels in chunk files, not in memory.

Shapes
------
Columns are the opponents' sorted score tuples (multisets, as in
:class:`~pigtheory.simultaneous.ReducedSolution`). A *block* holds the columns of one level
(score sum e) of one kind, live (every score below the goal) or ended (some opponent at the
goal); its id is ``2 e + ended``. A block's columns, in lexicographic order, are cut into
chunks of ``chunk`` columns, chunk k holding columns ``k * chunk ..``. Per chunk:

``value/<block>.<k>.npy``
    float64 ``(n, goal + 1)``: ``value[c, a]`` at own score a;
``policy/<block>.<k>.npy``
    uint ``(n, goal)``: the threshold at own score ``i < goal`` (0 for ended columns);
``partial/<block>.<k>.npy``
    float64 ``(n, m - 1, goal + 1)``: :math:`A_1 .. A_{m-1}`, read by lower levels only, and
    removed once none is left to read it;

with ``index/<block>.npy`` (int16 ``(size, m)``, the block's columns) and ``store.json`` (the
rules, the chunk size, one opponent's destinations and probabilities per score, and the size of
every block). A chunk is finished when its policy file exists: each file is written atomically,
the policy last.

Notes
-----
Any folder that every worker reaches works: a local disk for a ``LocalCluster``, a shared
file system for a cluster of machines. Readers memory-map the chunk files and copy out only
the rows they need.
"""

from __future__ import annotations

import dataclasses
import json
import mmap
import os
import shutil
import uuid
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ..io import atomic_write
from ..rules import Rules
from ._score_sets import score_keys

__all__ = ["LevelStore", "block_id", "block_name"]

FORMAT = "pigtheory-level-store"
FORMAT_VERSION = 1


def block_id(level: int | np.ndarray, ended: bool | np.ndarray) -> Any:
    """Id of the block of a level's live (``ended`` False) or ended columns: ``2 * level + ended``
    (int or int array, broadcast)."""
    return 2 * np.asarray(level, dtype=np.int64) + np.asarray(ended, dtype=np.int64)


def block_name(block: int) -> str:
    """``L<level>-live`` or ``L<level>-ended``."""
    return f"L{block // 2}-{'ended' if block % 2 else 'live'}"


_KEYS: dict[tuple[str, str], dict[int, np.ndarray]] = {}
"""Block keys of the store this process last read: the index never changes once written."""


def _save_npy(path: Path, array: np.ndarray) -> None:
    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            np.save(f, array)

    atomic_write(path, write)


class LevelStore:
    """A chunked store in ``folder`` (see the module docstring); opened, or created by
    :meth:`create`."""

    def __init__(self, folder: str | os.PathLike) -> None:
        self.folder = Path(folder)

    @classmethod
    def create(
        cls, folder: str | os.PathLike, rules: Rules, dest: np.ndarray, prob: np.ndarray, chunk: int
    ) -> LevelStore:
        """Open the store in ``folder``, writing its parameters, index and moves if it is new.

        Parameters
        ----------
        folder : path-like
        rules : Rules
            One die, ``players`` players (``players - 1`` identical opponents).
        dest, prob : numpy.ndarray, shape ``(goal + 1, O)``
            One opponent's move: its new score and the probability, from each score
            (:func:`~pigtheory.simultaneous.multiplayer.separable_moves` for one opponent).
        chunk : int
            Columns per chunk.

        Returns
        -------
        LevelStore

        Raises
        ------
        ValueError
            ``folder`` holds a store of another solve (other rules, opponents or chunk size):
            finished chunks are reused only for the same solve.
        """
        folder = Path(folder)
        solve = {
            "rules": dataclasses.asdict(rules),
            "chunk": int(chunk),
            "moves": {"dest": dest.tolist(), "prob": prob.tolist()},
        }
        path = folder / "store.json"
        if path.exists():
            old = cls(folder).manifest
            if old["solve"] != json.loads(json.dumps(solve)):
                raise ValueError(
                    f"store: {folder} holds another solve (rules, opponents or chunk differ); "
                    "use an empty folder"
                )
            return cls(folder)
        from ._score_sets import multisets

        g, m = rules.goal, rules.players - 1
        states = multisets(g, m)
        blocks = block_id(states.sum(axis=1), states[:, -1] == g)  # sorted tuples: last is largest
        order = np.argsort(blocks, kind="stable")  # lexicographic within a block
        states, blocks = states[order], blocks[order]
        cuts = np.flatnonzero(np.diff(blocks)) + 1
        sizes = {}
        for part in np.split(np.arange(blocks.size), cuts):
            b = int(blocks[part[0]])
            sizes[b] = part.size
            _save_npy(folder / "index" / f"{block_name(b)}.npy", states[part].astype(np.int16))
        manifest = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "id": uuid.uuid4().hex,  # tells apart two stores made in turn in one folder
            "solve": solve,
            "blocks": {str(b): n for b, n in sorted(sizes.items())},
        }

        def write(tmp: str) -> None:
            Path(tmp).write_text(json.dumps(manifest, indent=1) + "\n")

        atomic_write(path, write)
        return cls(folder)

    # -- parameters ------------------------------------------------------------------------

    @cached_property
    def manifest(self) -> dict:
        """The parsed ``store.json`` (``ValueError`` if the folder holds no store)."""
        try:
            manifest = json.loads((self.folder / "store.json").read_text())
        except (OSError, ValueError) as exc:
            raise ValueError(f"store: no chunked store in {self.folder} ({exc})") from None
        if manifest.get("format") != FORMAT or manifest.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"store: {self.folder} is not a {FORMAT} (version {FORMAT_VERSION})")
        return manifest

    @cached_property
    def rules(self) -> Rules:
        """The rules of the solve."""
        fields = dict(self.manifest["solve"]["rules"])
        if fields.get("face_points") is not None:
            fields["face_points"] = tuple(fields["face_points"])
        return Rules(**fields)

    @property
    def chunk(self) -> int:
        """Columns per chunk."""
        return int(self.manifest["solve"]["chunk"])

    @cached_property
    def moves(self) -> tuple[np.ndarray, np.ndarray]:
        """One opponent's ``dest[x, o]`` and ``prob[x, o]``, shape ``(goal + 1, O)``: its new
        score and the probability, from score x."""
        mv = self.manifest["solve"]["moves"]
        return np.array(mv["dest"], dtype=np.int64), np.array(mv["prob"], dtype=np.float64)

    @cached_property
    def sizes(self) -> dict[int, int]:
        """Columns per block."""
        return {int(b): int(n) for b, n in self.manifest["blocks"].items()}

    def n_chunks(self, block: int) -> int:
        """Chunks of ``block`` (the last one may be short)."""
        return -(-self.sizes[block] // self.chunk)

    # -- files -----------------------------------------------------------------------------

    def path(self, kind: str, block: int, chunk: int) -> Path:
        """File of ``kind`` (``"value"``, ``"policy"``, ``"partial"``) of one chunk."""
        return self.folder / kind / f"{block_name(block)}.{chunk}.npy"

    def columns(self, block: int, chunk: int | None = None) -> np.ndarray:
        """The columns of a block, or of one of its chunks: int64, shape ``(n, players - 1)``,
        each row the opponents' sorted scores, rows in lexicographic order."""
        states = np.load(self.folder / "index" / f"{block_name(block)}.npy")
        if chunk is not None:
            states = states[chunk * self.chunk : (chunk + 1) * self.chunk]
        return states.astype(np.int64)

    def keys(self, block: int) -> np.ndarray:
        """Sorted keys (``pigtheory.simultaneous._score_sets.score_keys``) of a block's
        columns; kept for the process's later tasks on the same store (a worker solves many
        chunks, each reading dozens of blocks)."""
        cache = _KEYS.get((str(self.folder), self.manifest["id"]))
        if cache is None:
            _KEYS.clear()  # one store at a time
            cache = _KEYS[(str(self.folder), self.manifest["id"])] = {}
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

    def finished(self, block: int, chunk: int) -> bool:
        """Whether the chunk is solved (its policy file, written last, exists)."""
        return self.path("policy", block, chunk).exists()

    def write_chunk(
        self, block: int, chunk: int, value: np.ndarray, policy: np.ndarray, partial: np.ndarray
    ) -> None:
        """Write one solved chunk, the policy (the finished mark) last."""
        if partial.shape[1]:
            _save_npy(self.path("partial", block, chunk), partial)
        _save_npy(self.path("value", block, chunk), value)
        _save_npy(self.path("policy", block, chunk), policy)

    def read(self, kind: str, block: int, chunk: int) -> np.ndarray:
        """A chunk file, memory-mapped (read-only): ``"value"`` float64 ``(n, goal + 1)``,
        ``"policy"`` uint ``(n, goal)``, ``"partial"`` float64 ``(n, players - 2, goal + 1)``, n
        the chunk's columns.

        The arrays' shapes and types are the store's own, so the ``.npy`` header is only
        skipped, not parsed: a task maps dozens of files, and parsing cost more than mapping.
        """
        g, m = self.rules.goal, self.rules.players - 1
        rows = min(self.chunk, self.sizes[block] - chunk * self.chunk)
        shape = {"value": (rows, g + 1), "policy": (rows, g), "partial": (rows, m - 1, g + 1)}[kind]
        dtype = np.min_scalar_type(g) if kind == "policy" else np.dtype(np.float64)
        with open(self.path(kind, block, chunk), "rb") as f:
            head = f.read(12)
            if head[:6] != b"\x93NUMPY":
                raise ValueError(f"store: {f.name} is not a .npy file")
            size = 2 if head[6] == 1 else 4  # header length field: version 1, or 2 and 3
            offset = 8 + size + int.from_bytes(head[8 : 8 + size], "little")
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        return np.frombuffer(data, dtype=dtype, count=int(np.prod(shape)), offset=offset).reshape(shape)

    def drop_partials(self, block: int) -> None:
        """Remove a block's :math:`A_t` files (no level left to read them)."""
        for k in range(self.n_chunks(block)):
            self.path("partial", block, k).unlink(missing_ok=True)

    def bytes_on_disk(self) -> dict[str, int]:
        """Bytes of each kind of file now in the store."""
        out = {}
        for kind in ("index", "value", "policy", "partial"):
            sub = self.folder / kind
            out[kind] = sum(f.stat().st_size for f in sub.glob("[!.]*.npy")) if sub.exists() else 0
        return out

    def remove(self) -> None:
        """Delete the whole store folder."""
        shutil.rmtree(self.folder, ignore_errors=True)
