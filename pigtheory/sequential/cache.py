"""Cached optimal sequential solutions, saved and loaded through :mod:`pigtheory.io`.

Two-dice solves take seconds to minutes; analyses, figures and the command line reuse them.
The cache folder is ``cache_dir`` if given, else ``$PIGTHEORY_CACHE_DIR``, else the user's
cache directory (:func:`pigtheory.io.resolve_cache_dir`).
"""

from __future__ import annotations

import os

from ..engine import ENGINES
from ..io import cached
from ..rules import Rules
from ..validation import check_choice
from . import solve
from .model import SequentialSolution

__all__ = ["cached_solve"]

_VERSION = 2


def cached_solve(
    *,
    rules: Rules,
    tol: float = 1e-12,
    engine: str = "auto",
    progress: bool | None = None,
    cache_dir: str | os.PathLike | None = None,
) -> SequentialSolution:
    """:func:`pigtheory.sequential.solve`, cached by ``rules`` and ``tol`` (not by ``engine``:
    the engines give the same solution).

    Parameters
    ----------
    rules, tol, engine, progress
        As for :func:`pigtheory.sequential.solve` (``max_iter`` is its default).
    cache_dir : path-like, optional
        See :func:`pigtheory.io.resolve_cache_dir`.

    Returns
    -------
    SequentialSolution
        ``value`` and ``policy`` of shape ``(goal, goal, goal)`` (Double Trouble:
        ``(goal, goal, goal, 2)``).
    """
    check_choice("engine", engine, ENGINES)
    params = {"rules": repr(rules), "tol": tol, "version": _VERSION}
    return cached(
        "sequential",
        params,
        lambda: solve(rules=rules, tol=tol, engine=engine, progress=progress),
        cache_dir=cache_dir,
        expected=SequentialSolution,
    )
