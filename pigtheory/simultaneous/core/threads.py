"""BLAS on one thread inside the solvers' many small matrix products (threadpoolctl).

The solvers make thousands of small products (about 100 x 100). A second BLAS thread gains
nothing there and, on a busy 2-core machine, waits for a time slice at every call: solves were
measured 3-6x slower with threading on. :func:`one_blas_thread` limits BLAS to one thread for
the duration of a block and restores the previous setting afterwards, through threadpoolctl
(no process-wide change survives the block).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

__all__ = ["one_blas_thread"]


@lru_cache(maxsize=1)
def _controller() -> Any:
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Context manager: BLAS on one thread inside the block.

    Examples
    --------
    >>> import numpy as np
    >>> with one_blas_thread():
    ...     float((np.ones((3, 3)) @ np.ones(3))[0])
    3.0
    """
    with _controller().limit(limits=1, user_api="blas"):
        yield
