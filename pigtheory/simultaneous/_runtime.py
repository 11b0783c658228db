"""Small runtime helpers of the n-player solvers: one BLAS thread, a progress bar."""

from __future__ import annotations

import contextlib
import ctypes
import sys
import time
from collections.abc import Iterator

__all__: list[str] = []


@contextlib.contextmanager
def _one_blas_thread() -> Iterator[None]:
    """Run OpenBLAS single-threaded: the products here are small and many, and threads
    spinning between them slow the solve down several times on a busy 2-core machine (and
    the grid already runs one process per core). A no-op when the library is not found."""
    lib = None
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower()}
        for path in paths:
            cand = ctypes.CDLL(path)
            for prefix in ("scipy_openblas_", "openblas_"):
                for suffix in ("64_", ""):
                    if hasattr(cand, f"{prefix}set_num_threads{suffix}"):
                        lib = (
                            getattr(cand, f"{prefix}set_num_threads{suffix}"),
                            getattr(cand, f"{prefix}get_num_threads{suffix}"),
                        )
                        break
                if lib:
                    break
    except OSError:
        lib = None
    if lib is None:
        yield
        return
    before = lib[1]()
    lib[0](1)
    try:
        yield
    finally:
        lib[0](before)


def _bar(progress: bool | None):
    enabled = sys.stderr.isatty() if progress is None else bool(progress)

    def show(done: int, total: int, t0: float) -> None:
        if enabled:
            width = 30
            fill = int(width * done / max(total, 1))
            sys.stderr.write(
                f"\rbest response [{'#' * fill}{'.' * (width - fill)}] {done}/{total} {time.perf_counter() - t0:5.1f} s"
            )
            if done >= total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    return show
