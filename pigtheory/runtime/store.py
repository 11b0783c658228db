"""A store of finished chunks on disk: what a solve too large for memory writes, level by level.

Layout
------
A store is a folder. ``store.json`` is its header: the format (``kind``, a name the solver
chooses, and its version), an id made when the store is created, the *solve* (every parameter
that decides the arrays: the rules first; a store of another solve is refused) and what the
solver adds (``extra``: block sizes, moves). The arrays are cut into *blocks* (a solver's unit of
dependence: one score level, say) and each block into chunks. One chunk is a set of ``.npy``
files, one per *part* (``value``, ``policy``, ...: ``<part>/<block>.<chunk>.npy``), and a seal,
``done/<block>.<chunk>.json``, written last: the store's id, the block and chunk, and the
SHA-256 and size of every part. A chunk is finished when its seal exists.

Trust
-----
Every file is written atomically (:func:`pigtheory.io.atomic_write`): a killed writer leaves
the previous state, never half a file. :meth:`ChunkStore.verify` checks a chunk against its
seal (the store's id, the parts' sizes and checksums); :meth:`ChunkStore.finished_chunks`
reports the finished chunks and, with ``verify=True``, removes every chunk whose seal does not
hold (a damaged file, a file copied from another store), so that it is solved again and never
read. The store's own files (a solver's indexes, which every task reads) have their SHA-256
in the header; :meth:`ChunkStore.damaged_files` names those that no longer match, and the
solver makes them again when it opens the store. A full disk while a chunk is written raises
:class:`StoreFull`, one line naming the folder; the chunks sealed before stay finished and a
later call resumes from them.

Reads
-----
:meth:`ChunkStore.read` memory-maps a part (read-only) with the shape and type the solver
knows, skipping the ``.npy`` header instead of parsing it: a task maps dozens of files, and
parsing cost more than mapping. Only the pages of the rows a reader touches come from disk.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import math
import mmap
import os
import re
import shutil
import stat
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib import format as npy_format

from ..guard import MemoryLimitError, format_bytes
from ..io import atomic_write, atomic_write_buffers
from ..io.policy_common import rules_from_dict
from ..rules import Rules
from ..validation import check_int, check_path

__all__ = ["ChunkStore", "StoreFull", "StoreMismatch", "disk_full", "check_disk"]

HEADER = "store.json"
"""Name of a store's header file."""


class StoreMismatch(ValueError):
    """The folder holds a store of another solve, another kind, or no store at all."""


class StoreFull(OSError):
    """The disk filled up while a chunk was written; the chunks sealed before stay usable."""


_OWN_FILE = re.compile(r"[A-Za-z0-9_]+(/[A-Za-z0-9_]+)*")
"""A name of a store's own file, inside its folder (:meth:`ChunkStore.damaged_files`)."""

_SHA256 = re.compile(r"[0-9a-f]{64}")
"""A SHA-256 as :meth:`ChunkStore.save` returns it."""


def _stem(block: int, chunk: int) -> str:
    """File name of a chunk's seal (and stem of its parts): ``<block>.<chunk>``."""
    return f"{block}.{chunk}"


def _npy_pieces(array: np.ndarray) -> tuple[bytes, memoryview]:
    """The header and the data of ``array`` as a ``.npy`` file (format 1.0, C order), the data
    a view of the array's memory (a copy only if it is not C-contiguous)."""
    array = np.ascontiguousarray(array)
    head = io.BytesIO()
    npy_format.write_array_header_1_0(head, npy_format.header_data_from_array_1_0(array))
    return head.getvalue(), memoryview(array.reshape(-1).view(np.uint8))  # type: ignore[arg-type]


def _sha256(*pieces: Any) -> str:
    h = hashlib.sha256()
    for piece in pieces:
        h.update(piece)
    return h.hexdigest()


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for piece in iter(lambda: f.read(1 << 20), b""):
            h.update(piece)
    return h.hexdigest()


def disk_full(folder: str | os.PathLike) -> AbstractContextManager[None]:
    """A context in which a full disk (``ENOSPC``, ``EDQUOT``) becomes :class:`StoreFull`: one
    line naming ``folder``, the work finished before kept (``with disk_full(folder): ...``)."""
    return _disk_full(check_path("folder", folder))


@contextmanager
def _disk_full(folder: Path) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise StoreFull(
                exc.errno, f"store: the disk of {str(folder)!r} is full; what was finished so far is kept"
            ) from None
        raise


def _write(path: Path, write: Any, folder: Path) -> None:
    """:func:`atomic_write`, a full disk said in one line naming the store's folder."""
    with _disk_full(folder):
        atomic_write(path, write)


class ChunkStore:
    """A store in ``folder`` (module docstring), opened; :meth:`create` makes or reopens one.

    Parameters
    ----------
    folder : path-like
    kind : str, optional
        The format the caller expects (``StoreMismatch`` on first use if the header says
        another).
    """

    VERSION = 1
    """Version of the layout (header, parts, seals)."""

    def __init__(self, folder: str | os.PathLike, kind: str | None = None) -> None:
        self.folder = check_path("folder", folder)
        if kind is not None and not isinstance(kind, str):
            raise ValueError(f"kind must be a string, got {type(kind).__name__}")
        self._kind = kind

    @classmethod
    def create(
        cls,
        folder: str | os.PathLike,
        kind: str,
        solve: dict[str, Any],
        extra: dict[str, Any] | None = None,
        files: dict[str, str] | None = None,
    ) -> ChunkStore:
        """Open the store of ``solve`` in ``folder``, writing its header if the folder holds none.

        Parameters
        ----------
        folder : path-like
        kind : str
            The solver's format name (e.g. ``"pigtheory-level-store"``).
        solve : dict
            JSON: every parameter that decides the arrays. A store whose header holds another
            ``solve`` or ``kind`` is refused (:class:`StoreMismatch`), so that no chunk of
            another solve is ever read.
        extra : dict, optional
            JSON the solver keeps beside (sizes, tables); written with a new header only.
        files : dict, optional
            The SHA-256 of each file of the store's own (its indexes) by name, as
            :meth:`save` returns them; written with a new header only, and checked by
            :meth:`damaged_files`.

        Returns
        -------
        ChunkStore
        """
        if not isinstance(kind, str) or not kind:
            raise ValueError(f"kind must be a non-empty string, got {kind!r}")
        named = (("solve", solve), ("extra", extra if extra is not None else {}), ("files", files or {}))
        for name, value in named:
            if not isinstance(value, dict):
                raise ValueError(f"{name} must be a dict of JSON values, got {type(value).__name__}")
        for name, digest in (files or {}).items():
            if not (isinstance(name, str) and _OWN_FILE.fullmatch(name)):
                raise ValueError(f"files: {name!r:.80} is not the name of a file inside the store")
            if not (isinstance(digest, str) and _SHA256.fullmatch(digest)):
                raise ValueError(f"files[{name!r}]: expected a SHA-256 in hex, got {digest!r:.80}")
        store = cls(folder, kind)
        folder = store.folder
        try:
            canonical = json.loads(json.dumps(solve, allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"solve: not JSON of finite numbers ({exc})") from None
        if (folder / HEADER).exists():
            old = store.header
            if old["solve"] != canonical:
                differ = sorted(
                    k for k in set(old["solve"]) | set(canonical) if old["solve"].get(k) != canonical.get(k)
                )
                raise StoreMismatch(
                    f"store: {folder} holds another solve ({', '.join(differ)} differ); "
                    "use an empty folder, or the parameters it was made with"
                )
            return store
        header = {
            "format": kind,
            "format_version": cls.VERSION,
            "id": uuid.uuid4().hex,  # tells apart two stores made in turn in one folder
            "solve": canonical,
            "extra": extra or {},
        }
        if files:
            header["files"] = dict(files)
        folder.mkdir(parents=True, exist_ok=True)
        _write(folder / HEADER, lambda tmp: Path(tmp).write_text(json.dumps(header, indent=1) + "\n"), folder)
        store.__dict__.pop("header", None)
        return store

    @cached_property
    def header(self) -> dict[str, Any]:
        """The parsed header (:class:`StoreMismatch` if the folder holds no store of this kind)."""
        try:
            header = json.loads((self.folder / HEADER).read_text())
        except (OSError, ValueError) as exc:
            raise StoreMismatch(f"store: no store in {self.folder} ({exc})") from None
        if not isinstance(header, dict) or header.get("format_version") != self.VERSION:
            raise StoreMismatch(f"store: {self.folder} is not a store of version {self.VERSION}")
        if self._kind is not None and header.get("format") != self._kind:
            raise StoreMismatch(
                f"store: {self.folder} holds a {header.get('format')!r}, not a {self._kind!r}"
            )
        return header

    @property
    def solve(self) -> dict[str, Any]:
        """The solve's parameters, as written."""
        return self.header["solve"]

    @cached_property
    def rules(self) -> Rules:
        """The rules of the solve: the ``rules`` fields of :attr:`solve`, as every solver on the
        runtime writes them (:class:`StoreMismatch` if the header holds none)."""
        fields = self.solve.get("rules")
        if fields is None:
            raise StoreMismatch(f"store: {self.folder} records no rules")
        try:
            rules = rules_from_dict(fields, f"store {self.folder}: rules")
        except ValueError as exc:
            raise StoreMismatch(str(exc)) from None
        assert rules is not None
        return rules

    @property
    def extra(self) -> dict[str, Any]:
        """What the solver keeps beside the solve."""
        return self.header["extra"]

    # -- chunks ----------------------------------------------------------------------------

    def path(self, part: str, block: int, chunk: int) -> Path:
        """File of one part of one chunk."""
        return Path(self._name(part, block, chunk))

    def _name(self, part: str, block: int, chunk: int) -> str:
        """:meth:`path` as a string, built without ``pathlib`` (a task reads thousands)."""
        return f"{self._root}{part}{os.sep}{_stem(block, chunk)}.npy"

    def seal(self, block: int, chunk: int) -> Path:
        """File of one chunk's seal."""
        return self.folder / "done" / f"{_stem(block, chunk)}.json"

    def finished(self, block: int, chunk: int) -> bool:
        """Whether the chunk's seal exists (:meth:`verify` checks it)."""
        return self.seal(block, chunk).exists()

    def write_chunk(self, block: int, chunk: int, parts: dict[str, np.ndarray]) -> None:
        """Write a chunk's parts, then its seal (the finished mark) last.

        Raises
        ------
        StoreFull
            The disk filled up; nothing of this chunk is sealed.
        """
        files = {}
        with _disk_full(self.folder):
            for part, array in parts.items():
                # the .npy bytes are hashed from memory as they are written, not read back
                head, data = _npy_pieces(array)
                atomic_write_buffers(self.path(part, block, chunk), (head, data))
                files[part] = {"sha256": _sha256(head, data), "bytes": len(head) + data.nbytes}
            seal = {"store": self.header["id"], "block": int(block), "chunk": int(chunk), "parts": files}
            atomic_write_buffers(self.seal(block, chunk), [(json.dumps(seal) + "\n").encode()])

    def verify(self, block: int, chunk: int) -> str | None:
        """Why the chunk cannot be trusted (a sentence), or None if its seal holds: the seal is
        this store's and this chunk's, and every part it names has its size and SHA-256."""
        try:
            seal = json.loads(self.seal(block, chunk).read_text())
        except (OSError, ValueError) as exc:
            return f"its seal is unreadable ({exc})"
        if not isinstance(seal, dict) or seal.get("store") != self.header["id"]:
            return "its seal belongs to another store"
        if seal.get("block") != block or seal.get("chunk") != chunk:
            return "its seal names another chunk"
        parts = seal.get("parts")
        if not isinstance(parts, dict):
            return "its seal lists no parts"
        for part, want in parts.items():
            path = self.path(part, block, chunk)
            if not path.exists():
                if part in self.dropped_parts:
                    continue
                return f"{path.name} of {part} is missing"
            if path.stat().st_size != want.get("bytes") or _digest(path) != want.get("sha256"):
                return f"{part}/{path.name} does not match its checksum"
        return None

    dropped_parts: frozenset[str] = frozenset()
    """Parts a solver deletes once nothing reads them (missing is no damage)."""

    def finished_chunks(self, chunks: list[tuple[int, int]], *, verify: bool = True) -> set[tuple[int, int]]:
        """The finished ones of ``chunks``; with ``verify``, a chunk whose seal does not hold is
        removed (seal and parts) so that it is solved again, and is not among them."""
        done = set()
        for block, chunk in chunks:
            if not self.finished(block, chunk):
                continue
            if verify and self.verify(block, chunk) is not None:
                self.discard(block, chunk)
                continue
            done.add((block, chunk))
        return done

    def discard(self, block: int, chunk: int) -> None:
        """Remove a chunk's seal, then its parts."""
        self.seal(block, chunk).unlink(missing_ok=True)
        for sub in self.folder.iterdir():
            if sub.is_dir() and sub.name != "done":
                (sub / f"{_stem(block, chunk)}.npy").unlink(missing_ok=True)

    def read(self, part: str, block: int, chunk: int, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        """A part of a chunk, memory-mapped read-only, as an array of ``shape`` and ``dtype``
        (``_map``: a task maps thousands of these, every chunk its holds reach)."""
        return self._map(self._name(part, block, chunk), dtype, shape)

    @staticmethod
    def _map(name: str, dtype: Any, shape: tuple[int, ...] | None = None) -> np.ndarray:
        """The ``.npy`` file ``name`` memory-mapped read-only as an array of ``dtype`` and
        ``shape`` (``None``: one axis, as many items as the file holds).

        The file is opened with a plain descriptor and its header read from the mapping itself:
        14 µs a file, against 19.5 µs through ``pathlib`` and a buffered file, and 70 µs through
        ``numpy.load(mmap_mode="r")``, which parses the header's text as Python.

        Raises
        ------
        ValueError
            The file is empty, not a ``.npy`` file, of another dtype, or shorter than ``shape``.
        """
        fd = os.open(name, os.O_RDONLY)
        try:
            data = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file cannot be mapped
            raise ValueError(f"store: {name} is not a .npy file (it is empty)") from None
        finally:
            os.close(fd)
        head = data[:12]
        if len(head) < 12 or head[:6] != b"\x93NUMPY":
            raise ValueError(f"store: {name} is not a .npy file")
        size = 2 if head[6] == 1 else 4  # header length field: version 1, or 2 and 3
        offset = 8 + size + int.from_bytes(head[8 : 8 + size], "little")
        dtype = np.dtype(dtype)
        if f"'descr': '{dtype.str}'".encode() not in data[8 + size : offset]:
            raise ValueError(f"store: {name} does not hold {dtype} numbers")
        count = (len(data) - offset) // dtype.itemsize if shape is None else math.prod(shape)
        if offset + count * dtype.itemsize > len(data):
            raise ValueError(f"store: {name} is shorter than its array")
        return np.frombuffer(data, dtype=dtype, count=count, offset=offset).reshape(
            (count,) if shape is None else shape
        )

    @cached_property
    def _root(self) -> str:
        """The folder as a string ending in a separator (the chunk files' names are built on it)."""
        return os.path.join(str(self.folder), "")

    def save(self, name: str, array: np.ndarray) -> str:
        """Write a file of the store's own (an index), atomically: ``<name>.npy``. Returns its
        SHA-256 (hashed from memory as it is written), for :meth:`create`'s ``files``."""
        head, data = _npy_pieces(array)
        with _disk_full(self.folder):
            atomic_write_buffers(self.folder / f"{name}.npy", (head, data))
        return _sha256(head, data)

    def damaged_files(self) -> list[str]:
        """The files of the store's own (the header's ``files``) that are missing or no longer
        have the SHA-256 it records, by name: a solver makes them again before any task reads
        them. Empty for a header without ``files`` (a store of an earlier version)."""
        files = self.header.get("files", {})
        if not isinstance(files, dict) or not all(
            isinstance(name, str) and _OWN_FILE.fullmatch(name) for name in files
        ):
            raise StoreMismatch(f"store: {self.folder}: its header's files are not names of files in it")
        bad = []
        for name, want in sorted(files.items()):
            path = self.folder / f"{name}.npy"
            if not path.is_file() or _digest(path) != want:
                bad.append(name)
        return bad

    def mend_files(self, make: Callable[[list[str]], dict[str, Callable[[], np.ndarray]]]) -> list[str]:
        """Write again the files :meth:`damaged_files` names, before any task reads them, from
        ``make(names) -> {name: a function making its array}`` (one array in memory at once):
        made from the solve's parameters, each must have the SHA-256 the header records.
        Returns the names written. :class:`StoreMismatch` if ``make`` has no maker for a name
        (nothing is written) or a file made again still differs."""
        if not callable(make):
            raise ValueError(f"make must be a function of the damaged names, got {type(make).__name__}")
        bad = self.damaged_files()
        if not bad:
            return []
        makers = make(bad)
        for name in bad:
            if name not in makers:
                raise StoreMismatch(
                    f"store: {self.folder}: its header names {name}, which this solve does not "
                    "write; use an empty folder"
                )
        for name in bad:
            self.save(name, makers[name]())
        still = self.damaged_files()
        if still:
            raise StoreMismatch(
                f"store: {self.folder}: {', '.join(still)} made again still differ from the SHA-256 "
                "in its header; use an empty folder"
            )
        return bad

    def bytes_on_disk(self) -> dict[str, int]:
        """Bytes of each folder of files now in the store."""
        out = {}
        for sub in sorted(p for p in self.folder.iterdir() if p.is_dir()):
            out[sub.name] = sum(f.stat().st_size for f in sub.glob("[!.]*") if f.is_file())
        return out

    def remove(self) -> None:
        """Delete the whole store folder."""
        shutil.rmtree(self.folder, ignore_errors=True)


def check_disk(folder: Any, need: int, what: str) -> None:
    """Refuse, before any work, to write ``need`` bytes into ``folder`` if its file system has
    less room (the nearest existing parent is asked).

    ``need`` is the whole store's size: the bytes ``folder`` already holds (a store being
    resumed) count against it, so a resume asks only for the room its remaining chunks take.
    A refusal is a :class:`~pigtheory.guard.MemoryLimitError`; ``what`` names the solve in it."""
    folder = check_path("folder", folder)
    need = check_int("need", need, low=0)
    if not isinstance(what, str):
        raise ValueError(f"what must be a string naming the solve, got {what!r:.80}")
    path = folder
    while not path.exists() and path != path.parent:
        path = path.parent
    try:
        free = shutil.disk_usage(path).free
        held = _bytes_under(folder) if folder.is_dir() else 0
    except OSError:
        return  # no answer: the write will say
    if need - held > free:
        have = f" (it holds {format_bytes(held)} already)" if held else ""
        raise MemoryLimitError(
            f"{what}: needs about {format_bytes(need)} on disk in {str(folder)!r}{have}, but only "
            f"{format_bytes(free)} is free; lower the goal or the number of players, or use another store"
        )


def _bytes_under(folder: Path) -> int:
    """Bytes of the regular files under ``folder`` (symbolic links not followed)."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            st = os.lstat(os.path.join(root, name))
            if stat.S_ISREG(st.st_mode):
                total += st.st_size
    return total
