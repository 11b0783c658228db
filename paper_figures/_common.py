"""Shared plumbing of the figure scripts: Agg backend, byte-stable PNG and PDF, atomic writes.

Byte-stable means the same bytes on any machine with the locked versions
(``requirements/dev.lock``): no timestamps or software versions in the files, no measured
times in a picture, and no dependence on the last bits of a floating-point result, which
differ between machines (BLAS kernels chosen by the CPU, numpy's CPU-dispatched functions,
the engine whose solve filled the cache): :func:`stable` rounds what is drawn far above those
bits and far below what a figure can show."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np

from pigtheory.io import atomic_write

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

HERE = Path(__file__).resolve().parent

plt.rcParams.update({"svg.hashsalt": "pigtheory", "figure.dpi": 100, "savefig.dpi": 150})


def save(fig, name: str) -> list[Path]:
    """Write ``paper_figures/<name>.png`` and ``.pdf`` without timestamps; close the figure."""
    out = []
    for ext, meta in (
        ("png", {"Software": None}),
        ("pdf", {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}),
    ):
        path = HERE / f"{name}.{ext}"
        atomic_write(
            path,
            lambda tmp, ext=ext, meta=meta: fig.savefig(tmp, format=ext, metadata=meta, bbox_inches="tight"),
        )
        out.append(path)
    plt.close(fig)
    return out


def stable(values, digits: int = 9) -> np.ndarray:
    """``values`` rounded to ``digits`` significant digits (float64 array, same shape).

    The decimal rounding is Python's own (correctly rounded, the same on every platform), so
    two results that differ only in their last bits draw the same figure.
    """
    a = np.asarray(values, dtype=float)
    return np.array([float(f"{x:.{digits}g}") for x in a.ravel()]).reshape(a.shape)
