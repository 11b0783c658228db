"""Shared plumbing of the figure scripts: Agg backend, byte-stable PNG and PDF, atomic writes."""

from __future__ import annotations

from pathlib import Path

import matplotlib

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
