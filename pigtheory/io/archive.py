"""Result and policy archives: one ``.npz`` file holding the arrays and the metadata as JSON.

Format
------
A result or a policy is saved as one ``.npz`` archive (numpy's zip of ``.npy`` members, so
``numpy.load(path)`` opens it without pigtheory):

* every numpy array of the object is a member named by where it sits: ``value``,
  ``policy.thresholds`` (an array inside a nested policy), ``cycle.0`` (the first array of a
  tuple), ...;
* the member ``pigtheory.json`` is a 0-d string array holding the metadata as JSON::

      {"format": "pigtheory", "format_version": 1, "pigtheory_version": "0.1.0",
       "type": "Equilibrium", "module": "pigtheory.simultaneous.two_player.equilibrium",
       "fields": {"value": {"$array": "value"}, "iterations": 199, "method": "exact",
                  "rules": {"$object": "Rules", "module": "pigtheory.rules",
                            "fields": {"goal": 100, "die_faces": 6, ...}}, ...}}

  Scalars (int, float, str, bool, None; numpy scalars become Python numbers) are plain
  JSON; everything else is tagged:
  ``{"$array": member}``, ``{"$tuple": [...]}``, ``{"$dict": {...}}`` (string keys),
  ``{"$float": "nan"}`` (non-finite floats, so the JSON stays strict),
  ``{"$object": type, "module": ..., "fields": {...}}`` (the rules and nested policies:
  any dataclass of the package) and ``{"$graph": "DiGraph", "nodes": [[node, attrs], ...],
  "edges": [[u, v, attrs], ...], "graph": attrs}`` (networkx graphs as node and edge lists).

A type whose fields were renamed reads files of its old names through a classmethod
``_legacy_fields(fields) -> fields`` (e.g. the symmetric results before issue 20); a type
whose module moved inside its family loads from the package that exports it (the type is
looked up in the module the file names, then in each package above it).

Loading never unpickles (``allow_pickle=False``) and builds only dataclasses defined in
pigtheory, through their constructors (which validate and make arrays read-only). A file
that cannot be read, or holds another type than the one asked for, raises ``ValueError``
naming the file.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from ..validation import check_path, check_type
from .atomic import atomic_write, check_readable_file, check_writable

__all__ = ["FORMAT_VERSION", "META", "save_archive", "load_archive", "is_package_dataclass"]

FORMAT_VERSION = 1
"""Version of the archive layout; a file with a larger number is refused."""

META = "pigtheory.json"
"""Name of the archive member holding the metadata."""


def save_archive(obj: Any, path: str | os.PathLike, *, compress: bool = True) -> Path:
    """Save a result or a policy to ``path`` (see the module docstring for the format).

    Parameters
    ----------
    obj : result or policy
        Any dataclass of pigtheory whose fields are arrays, scalars, strings, tuples, lists,
        dicts with string keys, rules, nested policies or networkx graphs.
    path : path-like
        Must end in ``.npz``.
    compress : bool
        Deflate the arrays that deflating shrinks (by a tenth or more; tables of values barely
        shrink and are stored).

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        ``path`` does not end in ``.npz``, or ``obj`` holds something the format cannot
        store (named by its place in ``obj``).
    """
    path = check_writable(path, "path")  # a folder, a file in the way: before the work
    if path.suffix != ".npz":
        raise ValueError(f"path: pigtheory files end in .npz, got {str(path)!r}")
    if not is_package_dataclass(type(obj)):
        raise ValueError(f"obj: only pigtheory results and policies can be saved, got {type(obj).__name__}")
    arrays: dict[str, np.ndarray] = {}
    encoded = _encode(obj, "", arrays)
    from .._version import __version__

    meta = {
        "format": "pigtheory",
        "format_version": FORMAT_VERSION,
        "pigtheory_version": __version__,
        "type": encoded["$object"],
        "module": encoded["module"],
        "fields": encoded["fields"],
    }
    members = {META: np.array(json.dumps(meta, allow_nan=False))}
    members.update(arrays)

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            write_npz(f, members, compress=compress)

    return atomic_write(path, write)


_SAMPLE = 1 << 20  # bytes of an array tried for deflating


def _deflates(a: np.ndarray) -> bool:
    """Whether deflating ``a`` pays: its first MiB shrinks by a tenth or more."""
    import zlib

    sample = np.ascontiguousarray(a.flat[: max(1, _SAMPLE // max(a.itemsize, 1))]).tobytes()
    return len(sample) < 4096 or len(zlib.compress(sample, 1)) <= 0.9 * len(sample)


def write_npz(file: Any, arrays: dict[str, np.ndarray], *, compress: bool = True) -> None:
    """Write ``arrays`` to the open binary ``file`` as an ``.npz`` archive (what
    :func:`numpy.savez` writes, read by :func:`numpy.load`), the same bytes for the same arrays.

    With ``compress``, a member is deflated when that shrinks its first MiB by a tenth or
    more: tables of values barely shrink (a 4-player table of 143 MB deflates to 129 MB, at
    about 11 s of CPU to write and 2 s more to read), while gains, actions and policies mostly
    zero shrink a hundredfold. The others are stored. Members carry a fixed date, so that the
    file depends on the arrays alone.
    """
    import zipfile

    with zipfile.ZipFile(file, mode="w", allowZip64=True) as zf:
        for name, value in arrays.items():
            a = np.asanyarray(value)
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED if compress and _deflates(a) else zipfile.ZIP_STORED
            with zf.open(info, "w", force_zip64=True) as member:
                np.lib.format.write_array(member, a, allow_pickle=False)


def is_package_dataclass(cls: type) -> bool:
    """Whether ``cls`` is a dataclass defined in pigtheory (a type an archive may hold)."""
    return dataclasses.is_dataclass(cls) and cls.__module__.split(".")[0] == "pigtheory"


def _is_graph(obj: Any) -> bool:
    return type(obj).__module__.startswith("networkx.") and hasattr(obj, "is_directed")


def _member(key: str, arrays: dict[str, np.ndarray]) -> str:
    """An unused member name for the array at ``key``."""
    name, n = key or "array", 0
    while name in arrays or name == META:
        n += 1
        name = f"{key}#{n}"
    return name


def _encode(obj: Any, key: str, arrays: dict[str, np.ndarray]) -> Any:
    """JSON form of ``obj``; its arrays go into ``arrays`` under names derived from ``key``."""
    where = key or "obj"
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        x = float(obj)
        return x if math.isfinite(x) else {"$float": repr(x)}
    if isinstance(obj, np.ndarray):
        if obj.dtype.hasobject:
            raise ValueError(f"{where}: an array of Python objects cannot be saved (it would need pickle)")
        name = _member(key, arrays)
        arrays[name] = obj
        return {"$array": name}
    prefix = f"{key}." if key else ""
    if isinstance(obj, tuple):
        return {"$tuple": [_encode(v, f"{prefix}{i}", arrays) for i, v in enumerate(obj)]}
    if isinstance(obj, list):
        return [_encode(v, f"{prefix}{i}", arrays) for i, v in enumerate(obj)]
    if isinstance(obj, dict):
        if not all(isinstance(k, str) for k in obj):
            raise ValueError(f"{where}: only dicts with string keys can be saved")
        return {"$dict": {k: _encode(v, f"{prefix}{k}", arrays) for k, v in obj.items()}}
    if is_package_dataclass(type(obj)):
        fields = {
            f.name: _encode(getattr(obj, f.name), f"{prefix}{f.name}", arrays)
            for f in dataclasses.fields(obj)
            if f.init
        }
        return {"$object": type(obj).__qualname__, "module": type(obj).__module__, "fields": fields}
    if _is_graph(obj):
        if obj.is_multigraph():
            raise ValueError(f"{where}: multigraphs cannot be saved")
        return {
            "$graph": "DiGraph" if obj.is_directed() else "Graph",
            "graph": _encode(dict(obj.graph), f"{prefix}graph", arrays),
            "nodes": [
                [
                    _encode(n, f"{prefix}nodes.{i}", arrays),
                    _encode(dict(a), f"{prefix}nodes.{i}.attrs", arrays),
                ]
                for i, (n, a) in enumerate(obj.nodes(data=True))
            ],
            "edges": [
                [
                    _encode(u, f"{prefix}edges.{i}.u", arrays),
                    _encode(v, f"{prefix}edges.{i}.v", arrays),
                    _encode(dict(a), f"{prefix}edges.{i}.attrs", arrays),
                ]
                for i, (u, v, a) in enumerate(obj.edges(data=True))
            ],
        }
    raise ValueError(f"{where}: cannot save a {type(obj).__name__}")


def load_archive(path: str | os.PathLike, *, expected: type | None = None) -> Any:
    """Read a result or a policy saved by :func:`save_archive`.

    Parameters
    ----------
    path : path-like
    expected : type, optional
        Raise unless the file holds this type or a subclass of it.

    Returns
    -------
    result or policy
        The object, of the type that was saved, with its arrays (read-only) of the shapes
        they were saved with.

    Raises
    ------
    ValueError
        The file is missing or unreadable, is not a pigtheory file, was written by a newer
        file format, holds another type than ``expected``, or its fields do not fit the type;
        the message names the file.
    """
    path = check_path("path", path)
    check_type("expected", expected)
    meta, arrays = _read(path)
    cls = _resolve(meta.get("type"), meta.get("module"), path)
    if expected is not None and not (isinstance(cls, type) and issubclass(cls, expected)):
        raise ValueError(f"{path}: holds {meta.get('type')}, expected {expected.__name__}")
    top = {"$object": meta["type"], "module": meta.get("module"), "fields": meta.get("fields")}
    try:
        return _decode(top, arrays, path)
    except (KeyError, TypeError, AttributeError, IndexError, RecursionError) as exc:
        raise ValueError(f"{path}: damaged metadata ({type(exc).__name__}: {exc})") from None


def _read(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    check_readable_file(path, "a pigtheory .npz file")
    _check_unpacked_size(path)
    try:
        # our own handle: numpy leaves its file open when a damaged archive fails to open
        with open(path, "rb") as fid:
            data = np.load(fid, allow_pickle=False)
            if not hasattr(data, "files"):  # an array: no archive to close
                raise ValueError("a single .npy array, not an .npz archive")
            with data:
                meta, arrays = _members(data)
    except Exception as exc:
        raise ValueError(f"{path}: not a readable pigtheory file ({exc})") from exc
    if not isinstance(meta, dict) or meta.get("format") != "pigtheory":
        raise ValueError(f"{path}: not a pigtheory file (its metadata has no format 'pigtheory')")
    version = meta.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ValueError(
            f"{path}: file format version {version!r}; this pigtheory reads versions up to {FORMAT_VERSION}"
        )
    return meta, arrays


def _members(data: Any) -> tuple[Any, dict[str, np.ndarray]]:
    """The metadata (parsed JSON) and the arrays of an open ``.npz`` archive."""
    if META not in data.files:
        raise ValueError(f"no {META!r} member (a plain numpy archive?)")
    arrays = {k: data[k] for k in data.files if k != META}
    return json.loads(str(data[META][()])), arrays


def _check_unpacked_size(path: Path) -> None:
    """Refuse an archive whose members would not fit in memory, or claim more than they hold.

    Every member's ``.npy`` header (shape and dtype) is read before any of its data: a member
    that claims more bytes than the zip says it unpacks to is damaged (or crafted), and the
    sum of the claims must fit in memory. Nothing is allocated for the data until both hold.
    """
    import zipfile

    from ..guard import check_file_size

    try:
        z = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # not a zip: np.load in _read says what it is
    with z:
        infos = z.infolist()
        total = sum(info.file_size for info in infos)
        check_file_size(path, total, factor=1.0)
        claimed = 0
        for info in infos:
            if not info.filename.endswith(".npy"):
                continue
            claim = _member_claim(z, info)
            if claim is None:
                continue  # np.load reports the damage with its own words
            if claim > info.file_size:
                raise ValueError(
                    f"{path}: member {info.filename!r} claims {claim} bytes of data but unpacks to "
                    f"{info.file_size} (a damaged or crafted file)"
                )
            claimed += claim
        check_file_size(path, claimed, factor=1.0)


def _member_claim(z: Any, info: Any) -> int | None:
    """Bytes of data the ``.npy`` header of one archive member claims, or None if unreadable."""
    try:
        with z.open(info) as f:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, _, dtype = np.lib.format.read_array_header_1_0(f)
            else:
                shape, _, dtype = np.lib.format.read_array_header_2_0(f)
    except Exception:  # noqa: BLE001 - any unreadable header is left to np.load's message
        return None
    return int(np.prod(shape, dtype=object)) * dtype.itemsize


def _find_type(module: str, name: str) -> Any:
    """``module.name``, or the same name exported by a package above ``module``: a type keeps
    loading when its module moves inside its family (``pigtheory.simultaneous.symmetric_response``
    became ``pigtheory.simultaneous.symmetric.response``; ``pigtheory.simultaneous`` exports the
    type under its one public name). None if no such module or attribute."""
    parts = module.split(".")
    for depth in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:depth]))
            for part in name.split("."):
                obj = getattr(obj, part)
        except (ImportError, AttributeError):
            continue
        return obj
    return None


def _resolve(name: Any, module: Any, path: Path) -> type:
    """The pigtheory dataclass called ``name`` in ``module`` (only pigtheory modules load)."""
    if not isinstance(name, str) or not isinstance(module, str):
        raise ValueError(f"{path}: the metadata names no type")
    if module.split(".")[0] != "pigtheory":
        raise ValueError(f"{path}: type {module}.{name} is not part of pigtheory")
    obj = _find_type(module, name)
    if obj is None:
        raise ValueError(f"{path}: unknown type {module}.{name} (saved by another pigtheory version?)")
    if not (isinstance(obj, type) and is_package_dataclass(obj)):
        raise ValueError(f"{path}: {module}.{name} is not a pigtheory result or policy")
    return obj


def _decode(node: Any, arrays: dict[str, np.ndarray], path: Path) -> Any:
    if isinstance(node, list):
        return [_decode(v, arrays, path) for v in node]
    if not isinstance(node, dict):
        return node
    if "$array" in node:
        try:
            return arrays[node["$array"]]
        except KeyError:
            raise ValueError(f"{path}: member {node['$array']!r} is missing") from None
    if "$tuple" in node:
        return tuple(_decode(v, arrays, path) for v in node["$tuple"])
    if "$dict" in node:
        return {k: _decode(v, arrays, path) for k, v in node["$dict"].items()}
    if "$float" in node:
        return float(node["$float"])
    if "$object" in node:
        cls = _resolve(node["$object"], node.get("module"), path)
        raw = node.get("fields")
        if not isinstance(raw, dict):
            raise ValueError(f"{path}: a {cls.__name__} without fields")
        fields = {k: _decode(v, arrays, path) for k, v in raw.items()}
        legacy = getattr(cls, "_legacy_fields", None)
        if legacy is not None:  # a file saved under a type's earlier field names
            fields = legacy(fields)
        wanted = sorted(f.name for f in dataclasses.fields(cls) if f.init)
        try:
            return cls(**fields)
        except TypeError:
            raise ValueError(
                f"{path}: a {cls.__name__} has fields {wanted}, the file has {sorted(fields)}"
            ) from None
        except ValueError as exc:
            raise ValueError(f"{path}: the stored {cls.__name__} is not valid ({exc})") from exc
    if "$graph" in node:
        return _graph(node, arrays, path)
    raise ValueError(f"{path}: unknown entry {sorted(node)} in the metadata")


def _graph(node: dict, arrays: dict[str, np.ndarray], path: Path) -> Any:
    import networkx as nx  # late: only self-play results hold graphs

    kinds = {"Graph": nx.Graph, "DiGraph": nx.DiGraph}
    if node["$graph"] not in kinds:
        raise ValueError(f"{path}: unknown graph kind {node['$graph']!r}")
    graph = kinds[node["$graph"]]()
    graph.graph.update(_decode(node.get("graph", {"$dict": {}}), arrays, path))
    for n, attrs in node["nodes"]:
        graph.add_node(_decode(n, arrays, path), **_decode(attrs, arrays, path))
    for u, v, attrs in node["edges"]:
        graph.add_edge(_decode(u, arrays, path), _decode(v, arrays, path), **_decode(attrs, arrays, path))
    return graph
