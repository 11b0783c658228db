"""The compile idiom of the core: :mod:`pigtheory.jit` (re-exported here, where the kernels of
the simultaneous core import it from)."""

from __future__ import annotations

from ...jit import compiled, inlined, kernel, prange, prefetch

__all__ = ["kernel", "inlined", "compiled", "prange", "prefetch"]
