"""The one way the core compiles its kernels (numba): mark a plain function, ask for its twin.

A *kernel* is a plain Python function marked with :func:`kernel`: it runs as is (the
interpreted engines call it directly) and :func:`compiled` returns its compiled twin. Every
kernel it calls by global name (another marked function, in any module) is compiled first
and bound into the twin's globals, so the plain functions stay plain and no module global is
rebound.

Numba's disk cache (``cache=True``) checks only the source file of the function it compiles;
a twin's name therefore carries a digest of the source files of every kernel it reaches, so
that an edit to a shared step (:mod:`.step`) compiles its callers anew instead of loading
stale machine code. Numba is imported on the first :func:`compiled` call and nowhere else.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from types import FunctionType
from typing import Any, TypeVar, cast

__all__ = ["kernel", "compiled"]

F = TypeVar("F", bound=Callable[..., Any])

_MARK = "__pigtheory_kernel__"
_LOCK = threading.RLock()
_TWINS: dict[tuple[str, str], Any] = {}


def kernel(fn: F) -> F:
    """Mark ``fn`` as a kernel: compilable by :func:`compiled`, callable as plain Python."""
    setattr(fn, _MARK, True)
    return fn


def _callees(fn: FunctionType) -> dict[str, FunctionType]:
    """The kernels ``fn`` calls by global name."""
    out = {}
    for name in fn.__code__.co_names:
        obj = fn.__globals__.get(name)
        if isinstance(obj, FunctionType) and getattr(obj, _MARK, False) and obj is not fn:
            out[name] = obj
    return out


def _files(fn: FunctionType, seen: set[int] | None = None) -> set[str]:
    """The source files of ``fn`` and of every kernel it reaches."""
    seen = set() if seen is None else seen
    if id(fn) in seen:
        return set()
    seen.add(id(fn))
    files = {fn.__code__.co_filename}
    for callee in _callees(fn).values():
        files |= _files(callee, seen)
    return files


def _digest(fn: FunctionType) -> str:
    import hashlib  # only when compiling: the command line's import stays light

    h = hashlib.sha256()
    for f in sorted(_files(fn)):
        h.update(Path(f).read_bytes())
    return h.hexdigest()[:12]


def compiled(fn: Callable[..., Any]) -> Any:
    """The compiled twin (``numba.njit(cache=True, nogil=True)``) of the kernel ``fn``.

    The first call for a kernel in a process imports numba and compiles it, or loads it from
    numba's disk cache; later calls return the same dispatcher. Safe to call from several
    threads.

    Raises
    ------
    TypeError
        ``fn`` is not marked with :func:`kernel`.
    """
    if not getattr(fn, _MARK, False):
        raise TypeError(f"fn: {getattr(fn, '__qualname__', fn)!r} is not marked as a kernel")
    with _LOCK:
        return _compile(cast(FunctionType, fn))


def _compile(fn: FunctionType) -> Any:
    key = (fn.__module__, fn.__qualname__)
    if key in _TWINS:
        return _TWINS[key]
    from numba import njit

    namespace = dict(fn.__globals__)
    for name, callee in _callees(fn).items():
        namespace[name] = _compile(callee)
    twin = FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)
    twin.__qualname__ = f"{fn.__qualname__}_{_digest(fn)}"
    twin.__doc__ = fn.__doc__
    dispatcher = njit(cache=True, nogil=True)(twin)
    _TWINS[key] = dispatcher
    return dispatcher
