"""Run numpy's BLAS on one thread inside a block.

The solvers make thousands of small matrix products (about 100 x 100). A second OpenBLAS
thread gains nothing there and, on a busy 2-core machine, waits for a time slice at every
call: the benchmarks measured solves 3-6x slower with threading on. Where the OpenBLAS that
numpy loaded is found, :func:`one_blas_thread` sets it to one thread (per calling thread when
the library offers ``openblas_set_num_threads_local``, else process-wide) and restores the
old setting afterwards; elsewhere it does nothing.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

__all__ = ["one_blas_thread"]

_GLOBAL_NAMES = ("scipy_openblas_{}_num_threads64_", "openblas_{}_num_threads64_", "openblas_{}_num_threads")


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Context manager: BLAS on one thread inside the block (a no-op without OpenBLAS)."""
    swap = _thread_setter()
    if swap is None:
        yield
        return
    old = swap(1)
    try:
        yield
    finally:
        swap(old)


@lru_cache(maxsize=1)
def _thread_setter() -> Callable[[int], int] | None:
    """``swap(n) -> previous n`` for the OpenBLAS loaded in this process, or None."""
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower()})
    except OSError:
        return None
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        local = getattr(lib, "openblas_set_num_threads_local", None)
        if local is not None:
            local.argtypes, local.restype = [ctypes.c_int], ctypes.c_int
            return local
        for name in _GLOBAL_NAMES:
            setter = getattr(lib, name.format("set"), None)
            getter = getattr(lib, name.format("get"), None)
            if setter is not None and getter is not None:
                return _global_swap(setter, getter)
    return None


def _global_swap(setter: Any, getter: Any) -> Callable[[int], int]:
    setter.argtypes, setter.restype, getter.restype = [ctypes.c_int], None, ctypes.c_int

    def swap(n: int) -> int:
        old = int(getter())
        setter(n)
        return old

    return swap
