"""Deprecated: use :mod:`pigtheory.io`. Kept only until ``sequential/cache.py`` imports from it."""

from __future__ import annotations

from .io import atomic_write, cached_arrays

__all__ = ["atomic_write", "cached_arrays"]
