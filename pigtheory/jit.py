"""The one way pigtheory compiles its loops (numba): mark a plain function, ask for its twin.

A *kernel* is a plain Python function marked with :func:`kernel`: it runs as is (the
interpreted engines and the tests call it directly) and :func:`compiled` returns its compiled
twin, ``numba.njit(cache=True, nogil=True)``. Every kernel it calls by global name (another
marked function, in any module) is compiled first and bound into the twin's globals, so the
plain functions stay plain and no module global is rebound.

A kernel marked ``@kernel(parallel=True)`` is compiled with ``parallel=True``; its parallel
loops are written ``for i in prange(n)`` with the :func:`prange` of this module, which is
``range`` in plain Python and ``numba.prange`` in the twin. A parallel kernel costs much more
to compile than a serial one: numba optimizes everything it calls again, twice (the loop body
and the driver). A heavy loop is therefore better a serial kernel run on chunks by
:func:`map_threads` (the twins release the GIL, ``nogil=True``): compiled once, and the same
machine code on one thread or many.

Numba's disk cache (``cache=True``) checks only the source file of the function it compiles;
a twin's name therefore carries a digest of the source files of every kernel it reaches, so
that an edit to a callee in another file compiles its callers anew instead of loading stale
machine code. Numba is imported on the first :func:`compiled` call (or :func:`threads`) and
nowhere else in the package: importing pigtheory never imports it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FunctionType
from typing import Any, TypeVar, cast, overload

__all__ = [
    "kernel",
    "compiled",
    "prange",
    "max_threads",
    "threads",
    "thread_count",
    "map_threads",
    "typed_list",
]

F = TypeVar("F", bound=Callable[..., Any])

_MARK = "__pigtheory_kernel__"  # the attribute's value: the kernel's numba options
_LOCK = threading.RLock()
_TWINS: dict[tuple[str, str], Any] = {}


@overload
def kernel(fn: F, /) -> F: ...


@overload
def kernel(*, parallel: bool = False) -> Callable[[F], F]: ...


def kernel(fn: Any = None, /, *, parallel: bool = False) -> Any:
    """Mark ``fn`` as a kernel: compilable by :func:`compiled`, callable as plain Python.

    Used bare (``@kernel``) or with options (``@kernel(parallel=True)``: the twin is compiled
    with numba's ``parallel=True`` and :func:`prange` becomes ``numba.prange`` in it).

    Raises
    ------
    ValueError
        ``parallel`` is not True or False.
    """
    if not isinstance(parallel, bool):
        raise ValueError(f"parallel must be True or False, got {parallel!r}")

    def mark(f: F) -> F:
        setattr(f, _MARK, {"parallel": parallel})
        return f

    return mark if fn is None else mark(fn)


def prange(*args: int) -> range:
    """``range`` in a plain kernel; ``numba.prange`` (a parallel loop) in its compiled twin."""
    return range(*args)


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
    """A digest of the source files of ``fn`` and of every kernel it reaches (12 hex digits)."""
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
    import numba

    namespace = dict(fn.__globals__)
    for name, callee in _callees(fn).items():
        namespace[name] = _compile(callee)
    for name in fn.__code__.co_names:
        if namespace.get(name) is prange:
            namespace[name] = numba.prange
    twin = FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)
    twin.__qualname__ = f"{fn.__qualname__}_{_digest(fn)}"
    twin.__doc__ = fn.__doc__
    options = getattr(fn, _MARK)
    if not isinstance(options, dict):  # marked by hand (``fn.__pigtheory_kernel__ = True``)
        options = {}
    targetoptions = {"nopython": True, "nogil": True, "boundscheck": None}
    if options.get("parallel"):
        targetoptions["parallel"] = True
    dispatcher = _twin_class()(py_func=twin, locals={}, targetoptions=targetoptions)
    dispatcher.enable_caching()
    _TWINS[key] = dispatcher
    return dispatcher


_TWIN_CLASS: list[Any] = []


def _twin_class() -> Any:
    if not _TWIN_CLASS:
        from numba.core import types
        from numba.core.registry import CPUDispatcher

        class Twin(CPUDispatcher):
            def get_call_template(self, args: Any, kws: Any) -> Any:
                args = tuple(types.unliteral(a) for a in args)
                kws = {k: types.unliteral(v) for k, v in kws.items()}
                return super().get_call_template(args, kws)

        _TWIN_CLASS.append(Twin)
    return _TWIN_CLASS[0]


def max_threads() -> int:
    """The most threads a parallel kernel may use: numba's ``NUMBA_NUM_THREADS`` (by default
    the cores). Imports numba."""
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]


_OPEN = threading.local()  # .counts: this thread's open ``threads`` blocks, innermost last


def _counts() -> list[int]:
    if not hasattr(_OPEN, "counts"):
        _OPEN.counts = []
    return cast(list[int], _OPEN.counts)


def thread_count() -> int:
    """The threads of :func:`map_threads` and of the parallel kernels: the count of this
    thread's innermost :func:`threads` block, else :func:`max_threads`."""
    counts = _counts()
    return counts[-1] if counts else max_threads()


def map_threads(fn: Callable[[int], Any], count: int) -> list[Any]:
    """``[fn(0), ..., fn(count - 1)]``, the calls spread over :func:`thread_count` threads (in
    the caller's thread when that is 1). ``fn`` should spend its time in compiled twins, which
    release the GIL; the calls must be independent (any order gives the same results)."""
    workers = min(count, thread_count())
    if workers <= 1:
        return [fn(i) for i in range(count)]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, range(count)))


@contextmanager
def threads(count: int) -> Iterator[None]:
    """Run :func:`map_threads` and the parallel kernels called inside the ``with`` block on
    ``count`` threads (1 .. :func:`max_threads`; numba's ``set_num_threads``), restoring the
    count after.

    Raises
    ------
    ValueError
        ``count`` is outside 1 .. :func:`max_threads`.
    """
    import numba

    top = max_threads()
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= top:
        raise ValueError(f"count must be an integer in 1..{top}, got {count!r}")
    before = numba.get_num_threads()
    numba.set_num_threads(count)
    _counts().append(count)
    try:
        yield
    finally:
        _counts().pop()
        numba.set_num_threads(before)


def typed_list(items: Any = ()) -> Any:
    """A ``numba.typed.List`` of ``items`` (a list a kernel can take whose items are arrays of
    different sizes). Imports numba."""
    from numba.typed import List

    out = List()
    for item in items:
        out.append(item)
    return out
