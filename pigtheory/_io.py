"""Atomic file writes and the on-disk cache of expensive solves."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

__all__ = ["atomic_write", "cached_arrays", "cache_dir"]


def atomic_write(path: str | os.PathLike, write: Callable[[str], None]) -> Path:
    """Call ``write(tmp_path)`` then rename onto ``path``: readers never see half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp" + path.suffix, dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def cache_dir() -> Path:
    """Folder of cached solves: ``$PIGTHEORY_CACHE`` or ``.cache/`` of the working tree."""
    return Path(os.environ.get("PIGTHEORY_CACHE", Path.cwd() / ".cache"))


def cached_arrays(
    name: str, params: dict, compute: Callable[[], dict[str, np.ndarray]]
) -> dict[str, np.ndarray]:
    """Arrays from ``compute()``, cached as ``.npz`` keyed by ``name`` and ``params``.

    ``params`` must be JSON-serialisable; change it (e.g. add a version) when the computation
    changes. Set ``PIGTHEORY_NO_CACHE=1`` to always recompute.
    """
    key = hashlib.sha256(json.dumps(params, sort_keys=True, default=str).encode()).hexdigest()[:16]
    path = cache_dir() / f"{name}-{key}.npz"
    if path.exists() and not os.environ.get("PIGTHEORY_NO_CACHE"):
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    arrays = compute()
    atomic_write(path, lambda tmp: np.savez_compressed(tmp, **arrays))  # type: ignore[arg-type]
    return arrays
