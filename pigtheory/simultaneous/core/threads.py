"""BLAS on one thread inside the solvers' many small matrix products: :func:`one_blas_thread`,
which lives in the runtime layer (:mod:`pigtheory.parallel`, where every task runs inside it)
and is re-exported here for the solvers' core."""

from __future__ import annotations

from ...parallel import one_blas_thread

__all__ = ["one_blas_thread"]
