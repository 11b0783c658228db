"""The cache of expensive solves: result files keyed by a hash of their parameters.

Entries are named ``<name>-<key>.npz`` with ``key`` a hash of the JSON of their parameters,
in the folder :func:`resolve_cache_dir` picks: the ``cache_dir`` argument of the cached
function, else ``$PIGTHEORY_CACHE_DIR`` (read at every call), else the user's cache folder
(``platformdirs.user_cache_dir("pigtheory")``), never the working directory.
``PIGTHEORY_NO_CACHE=1`` (read at every call) recomputes and overwrites every entry. An entry
that cannot be loaded (damaged, or written for fields that have since changed), or that holds
a result of other rules than its parameters name, is recomputed and replaced; a folder that
cannot be used (read-only, full, a name too long) warns and returns the result uncached; the
temporary files of a write that was killed are removed by a later call.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import hashlib
import json
import os
import re
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..validation import check_path, check_type
from .archive import load_archive as load
from .archive import save_archive as save
from .archive import write_npz
from .atomic import atomic_write, check_writable

__all__ = [
    "resolve_cache_dir",
    "cache_path",
    "cached",
    "cached_arrays",
    "cache_disabled",
    "cache_info",
    "clear_cache",
    "CacheNotice",
]

T = TypeVar("T")

_NAME = re.compile(r"[A-Za-z0-9_.-]+")


def resolve_cache_dir(cache_dir: str | os.PathLike | None = None) -> Path:
    """The folder of cached solves.

    ``cache_dir`` if given, else ``$PIGTHEORY_CACHE_DIR`` (read now, not at import), else the
    user's cache folder, ``platformdirs.user_cache_dir("pigtheory")``. Never the working
    directory unless asked for.
    """
    if cache_dir is not None:
        # a name too long is not refused here: a cache that cannot be used costs the cache
        return check_path("cache_dir", cache_dir, lengths=False)
    env = os.environ.get("PIGTHEORY_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs  # late: only code that caches needs it

    return Path(platformdirs.user_cache_dir("pigtheory"))


def _jsonable(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {"type": type(obj).__name__, **{f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}}
    if isinstance(obj, (np.integer, np.floating, np.bool_, np.ndarray)):
        return obj.tolist()
    if isinstance(obj, (tuple, set, frozenset)):
        return sorted(obj) if isinstance(obj, (set, frozenset)) else list(obj)
    if isinstance(obj, os.PathLike):
        return os.fspath(obj)
    raise TypeError(type(obj).__name__)


def cache_path(name: str, params: dict, *, cache_dir: str | os.PathLike | None = None) -> Path:
    """Where the cache entry ``name`` with parameters ``params`` lives.

    Parameters
    ----------
    name : str
        Letters, digits, ``_``, ``-`` and ``.`` only.
    params : dict
        JSON-serialisable (rules and other dataclasses, numpy scalars and arrays are
        converted); change it (e.g. a version number) when the computation changes.
    cache_dir : path-like, optional
        See :func:`resolve_cache_dir`.

    Returns
    -------
    pathlib.Path
        ``<cache folder>/<name>-<16 hex digits of the parameters' hash>.npz``.
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"name must be letters, digits, '_', '-' or '.', got {name!r}")
    try:
        text = json.dumps(params, sort_keys=True, default=_jsonable)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"params must be JSON-serialisable ({exc})") from None
    key = hashlib.sha256(text.encode()).hexdigest()[:16]
    return resolve_cache_dir(cache_dir) / f"{name}-{key}.npz"


def _recompute() -> bool:
    return os.environ.get("PIGTHEORY_NO_CACHE", "") not in ("", "0")


_DISABLED = [0]  # nesting depth of cache_disabled()
_ENTRY = re.compile(r"[A-Za-z0-9_.-]+-[0-9a-f]{16}\.npz")


class CacheNotice(UserWarning):
    """The first write into the user's cache folder (said once: the folder then exists)."""


@contextlib.contextmanager
def cache_disabled() -> Iterator[None]:
    """Within: :func:`cached` and :func:`cached_arrays` compute, and neither read nor write
    the cache (the command line's ``--no-cache``)."""
    _DISABLED[0] += 1
    try:
        yield
    finally:
        _DISABLED[0] -= 1


def _notice(path: Path, cache_dir: Any) -> None:
    """Say where solves are kept, the first time the user's cache folder is made."""
    if cache_dir is not None or os.environ.get("PIGTHEORY_CACHE_DIR") or path.parent.exists():
        return
    warnings.warn(
        CacheNotice(
            f"cache: keeping solves in {path.parent} (reused by later commands; "
            "'pigtheory cache info' shows its size, 'pigtheory cache clear' empties it, "
            "--no-cache skips it, PIGTHEORY_CACHE_DIR moves it)"
        ),
        stacklevel=3,
    )


def cache_info(cache_dir: str | os.PathLike | None = None) -> dict[str, Any]:
    """The cache folder, its entries and their size: ``{"folder", "entries", "bytes"}``."""
    folder = resolve_cache_dir(cache_dir)
    entries, size = 0, 0
    if folder.is_dir():
        for entry in os.scandir(folder):
            if _ENTRY.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                entries += 1
                size += entry.stat(follow_symlinks=False).st_size
    return {"folder": str(folder), "entries": entries, "bytes": size}


def clear_cache(cache_dir: str | os.PathLike | None = None) -> dict[str, Any]:
    """Remove the cache's entries (and temporaries of killed writes); other files in the
    folder are left. Returns :func:`cache_info`'s record of what was removed."""
    from .atomic import sweep_temporaries

    folder = resolve_cache_dir(cache_dir)
    removed, size = 0, 0
    if folder.is_dir():
        sweep_temporaries(folder)
        for entry in os.scandir(folder):
            if _ENTRY.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                try:
                    n = entry.stat(follow_symlinks=False).st_size
                    os.unlink(entry.path)
                except OSError:
                    continue
                removed += 1
                size += n
    return {"folder": str(folder), "entries": removed, "bytes": size}


def cached(
    name: str,
    params: dict,
    compute: Callable[[], T],
    *,
    cache_dir: str | os.PathLike | None = None,
    expected: type | None = None,
) -> T:
    """The result of ``compute()``, saved in the cache and loaded from it the next time.

    Parameters
    ----------
    name, params, cache_dir
        The entry: see :func:`cache_path`.
    compute : callable
        Returns a result or a policy (anything :func:`save` accepts).
    expected : type, optional
        The type the entry must hold; an entry of another type is recomputed.

    Returns
    -------
    result or policy
        What ``compute()`` returned, or the saved copy of it (arrays read-only then).

    Notes
    -----
    ``PIGTHEORY_NO_CACHE=1`` recomputes (and rewrites the entry). An entry that cannot be
    loaded is recomputed and replaced.
    """
    check_type("expected", expected)
    _check_compute(compute)
    path = cache_path(name, params, cache_dir=cache_dir)
    if _DISABLED[0]:
        return compute()
    try:
        exists = path.exists() and not _recompute()
        _remove_stale_temporaries(path)
    except OSError as exc:  # a name too long, a file where a folder should be: no cache, still a result
        warnings.warn(f"cache: cannot use {path} ({exc}); the result is not cached", stacklevel=2)
        return compute()
    if exists:
        try:
            found = load(path, expected=expected)
        except ValueError:
            pass  # damaged or stale (fields changed): solve again and replace it
        else:
            if _fits(found, params):
                return found  # else: another computation's result under this name; replace it
    result = compute()
    try:
        check_writable(path, "cache entry")  # a file where a folder should be, no permission
        writable = True
    except ValueError as exc:
        writable = False
        warnings.warn(f"cache: could not write {path} ({exc}); the result is not cached", stacklevel=2)
    try:
        if writable:
            _notice(path, cache_dir)
            save(result, path)
    except OSError as exc:  # a read-only or full cache folder costs a recomputation, not the result
        warnings.warn(f"cache: could not write {path} ({exc}); the result is not cached", stacklevel=2)
    return result


def _check_compute(compute: Any) -> None:
    if not callable(compute):
        raise ValueError(f"compute must be a callable, got {type(compute).__name__}")


STALE_SECONDS = 3600
"""A temporary file of the cache older than this was left by a killed write (none takes an
hour); younger ones may be another process's write in progress and are left alone."""


def _remove_stale_temporaries(path: Path) -> None:
    """Remove what killed writes of this entry left (:func:`~pigtheory.io.atomic_write`'s
    temporary names, ``.<name>.<random>.tmp<suffix>``)."""
    folder = path.parent
    if not folder.is_dir():
        return
    now = time.time()
    for tmp in folder.glob(f".{glob.escape(path.name)}.*.tmp*"):
        try:
            if now - tmp.stat().st_mtime > STALE_SECONDS:
                tmp.unlink()
        except OSError:
            pass  # removed meanwhile, or not ours to remove


def _fits(found: Any, params: dict) -> bool:
    """Whether a loaded entry is the computation ``params`` describes, as far as it can tell:
    an entry whose recorded rules are not the parameters' rules is another computation's.
    The parameters may name the rules as a :class:`~pigtheory.rules.Rules` or as its
    ``repr`` (as the sequential solves' entries do)."""
    rules = params.get("rules") if isinstance(params, dict) else None
    recorded = getattr(found, "rules", None)
    if rules is None or recorded is None:
        return True
    if isinstance(rules, str):
        return repr(recorded) == rules
    return bool(recorded == rules)


def cached_arrays(
    name: str,
    params: dict,
    compute: Callable[[], dict[str, np.ndarray]],
    *,
    cache_dir: str | os.PathLike | None = None,
) -> dict[str, np.ndarray]:
    """Plain arrays from ``compute()``, cached as an ``.npz`` (for data that is no result,
    such as measurements); see :func:`cached` for ``name``, ``params`` and ``cache_dir``.

    Returns
    -------
    dict of str to numpy.ndarray
        What ``compute()`` returned, or the saved copy of it.
    """
    _check_compute(compute)
    path = cache_path(name, params, cache_dir=cache_dir)
    if _DISABLED[0]:
        return compute()
    try:
        exists = path.exists() and not _recompute()
        _remove_stale_temporaries(path)
    except OSError as exc:
        warnings.warn(f"cache: cannot use {path} ({exc}); the arrays are not cached", stacklevel=2)
        return compute()
    if exists:
        try:
            with open(path, "rb") as fid, np.load(fid, allow_pickle=False) as data:
                return {k: data[k] for k in data.files}
        except Exception:
            pass  # a damaged entry is recomputed
    arrays = compute()
    if not isinstance(arrays, dict) or not all(isinstance(k, str) for k in arrays):
        raise ValueError(f"compute must return a dict of str to arrays, got {type(arrays).__name__}")

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            write_npz(f, arrays)

    try:
        _notice(path, cache_dir)
        atomic_write(path, write)
    except OSError as exc:
        warnings.warn(f"cache: could not write {path} ({exc}); the arrays are not cached", stacklevel=2)
    return arrays
