"""Cached optimal sequential solutions (``.npz`` in the git-ignored cache folder).

Two-dice solves take seconds to minutes; analyses, figures and the command line reuse them.
"""

from __future__ import annotations

import numpy as np

from .._io import cached_arrays
from ..engine import ENGINES
from ..rules import Rules
from ..validation import check_choice
from . import solve
from .model import SequentialSolution

__all__ = ["cached_solve"]

_VERSION = 1


def cached_solve(
    *, rules: Rules, tol: float = 1e-12, engine: str = "auto", progress: bool | None = None
) -> SequentialSolution:
    """:func:`pigtheory.sequential.solve`, cached by ``rules`` and ``tol`` (not by ``engine``:
    the engines give the same solution)."""
    check_choice("engine", engine, ENGINES)
    params = {"rules": repr(rules), "tol": tol, "version": _VERSION}

    def compute() -> dict[str, np.ndarray]:
        sol = solve(rules=rules, tol=tol, engine=engine, progress=progress)
        return {
            "value": np.asarray(sol.value),
            "roll": np.asarray(sol.roll),
            "meta": np.array([sol.iterations, sol.residual]),
            "method": np.array(sol.method),
        }

    a = cached_arrays("sequential", params, compute)
    return SequentialSolution(
        a["value"].copy(), a["roll"].copy(), int(a["meta"][0]), float(a["meta"][1]), str(a["method"]), rules
    )
