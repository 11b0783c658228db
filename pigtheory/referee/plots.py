"""Figures of the referee: learners' exact exploitability beside what Monte Carlo would report.

:func:`plot_learning` draws one panel per learner (exact exploitability over training, the Monte
Carlo estimate with its 95% band) and a last panel with the games a win-rate study needs to see
the exact gap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from ..validation import check_tol

__all__ = ["plot_learning", "games_to_resolve"]


def games_to_resolve(gap: np.ndarray, *, sd: float = 0.5, z: float = 2.0) -> np.ndarray:
    """Games a win-rate study needs before a gap in win probability is ``z`` standard errors
    away from zero: :math:`(z\\, \\sigma / \\text{gap})^2`, with :math:`\\sigma = 1/2` (the
    largest standard deviation of one game's result).

    Parameters
    ----------
    gap : numpy.ndarray
        Gaps in win probability (> 0).
    sd, z : float

    Returns
    -------
    numpy.ndarray
        ``inf`` where the gap is 0 or below (rounding).

    Examples
    --------
    >>> games_to_resolve(np.array([0.01]))
    array([10000.])
    """
    gap = _numbers("gap", gap)
    sd, z = check_tol(sd, "sd"), check_tol(z, "z")
    with np.errstate(divide="ignore"):
        return np.where(gap > 0, (z * sd / np.where(gap > 0, gap, 1.0)) ** 2, np.inf)


def plot_learning(panels: Sequence[dict]) -> Figure:
    """One panel per learner and a panel of the games needed.

    Parameters
    ----------
    panels : sequence of dict
        Each with ``title``, ``xlabel``, ``x`` (training steps), ``exact`` (exact
        exploitability), ``mc`` and ``mc_se`` (the Monte Carlo estimate and its standard
        error), and optionally ``extra`` = (label, values) drawn as a dashed line.

    Returns
    -------
    matplotlib.figure.Figure
    """
    _check_panels(panels)
    n = len(panels)
    fig = Figure(figsize=(4.2 * (n + 1), 3.8))
    axes = fig.subplots(1, n + 1)
    floor = 1e-6
    for ax, p in zip(axes, panels, strict=False):
        x = np.asarray(p["x"], dtype=float)
        exact = np.maximum(np.asarray(p["exact"], dtype=float), floor)
        mc = np.asarray(p["mc"], dtype=float)
        se = np.asarray(p["mc_se"], dtype=float)
        ax.fill_between(
            x,
            np.maximum(mc - 1.96 * se, floor),
            np.maximum(mc + 1.96 * se, floor),
            color="C1",
            alpha=0.25,
            label="Monte Carlo, 95% band",
        )
        ax.plot(x, np.maximum(mc, floor), "o", color="C1", ms=3)
        ax.plot(x, exact, "-o", color="C0", ms=3, label="exact exploitability")
        if "extra" in p:
            label, values = p["extra"]
            ax.plot(x, np.maximum(np.asarray(values, dtype=float), floor), "--", color="C2", label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(p["xlabel"])
        ax.set_title(p["title"], fontsize=10)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7, loc="lower left")
    axes[0].set_ylabel("exploitability (mean best-response gain)")
    ax = axes[-1]
    for c, p in enumerate(panels):
        exact = np.asarray(p["exact"], dtype=float)
        ax.plot(
            np.arange(1, exact.size + 1),
            games_to_resolve(exact),
            "-o",
            ms=3,
            color=f"C{c}",
            label=p["title"].split(":")[0],
        )
    ax.set_yscale("log")
    ax.set_xlabel("snapshot")
    ax.set_ylabel("games to see the exact gap (2 s.e.)")
    ax.set_title("what a win-rate study would need", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


MAX_PANELS = 20
"""Most learner panels one figure draws."""

_PANEL_ARRAYS = ("x", "exact", "mc", "mc_se")


def _numbers(name: str, values: Any, size: int | None = None) -> np.ndarray:
    """Real numbers (any shape, NaN and inf allowed) as a float array; ``size`` entries if given."""
    ok = not isinstance(values, (str, bytes, dict))
    if ok:
        try:
            arr = np.asarray(values)
        except (ValueError, TypeError):
            ok = False
        else:
            ok = arr.dtype.kind in "biuf" and arr.dtype != object
    if not ok:
        raise ValueError(f"{name} must be an array of real numbers, got {values!r:.80}")
    arr = arr.astype(float)
    if size is not None and (arr.ndim != 1 or arr.size != size):
        raise ValueError(f"{name} must be a 1-d array of {size} numbers (one per x), got shape {arr.shape}")
    return arr


def _check_panels(panels: Any) -> None:
    """``panels``: 1..MAX_PANELS dicts, each with a str ``title`` and ``xlabel``, 1-d ``x`` (> 0,
    finite: a log axis) and ``exact``, ``mc``, ``mc_se`` of its length, ``extra`` a (label,
    values) pair if given."""
    if isinstance(panels, (str, bytes, dict)) or not isinstance(panels, Sequence):
        raise ValueError(f"panels must be a list of dicts (one per learner), got {panels!r:.80}")
    if not 1 <= len(panels) <= MAX_PANELS:
        raise ValueError(f"panels must hold 1..{MAX_PANELS} panels, got {len(panels)}")
    for i, p in enumerate(panels):
        if not isinstance(p, dict):
            raise ValueError(f"panels[{i}] must be a dict, got {type(p).__name__}")
        missing = [key for key in ("title", "xlabel", *_PANEL_ARRAYS) if key not in p]
        if missing:
            raise ValueError(f"panels[{i}] lacks {', '.join(missing)}")
        for key in ("title", "xlabel"):
            if not isinstance(p[key], str):
                raise ValueError(f"panels[{i}]['{key}'] must be a str, got {p[key]!r:.80}")
        x = _numbers(f"panels[{i}]['x']", p["x"])
        if x.ndim != 1 or x.size == 0 or not np.all(np.isfinite(x)) or not np.all(x > 0):
            raise ValueError(f"panels[{i}]['x'] must be a 1-d array of finite numbers > 0 (a log axis)")
        for key in _PANEL_ARRAYS[1:]:
            _numbers(f"panels[{i}]['{key}']", p[key], x.size)
        if "extra" in p:
            extra = p["extra"]
            if not isinstance(extra, (tuple, list)) or len(extra) != 2 or not isinstance(extra[0], str):
                raise ValueError(f"panels[{i}]['extra'] must be a (label, values) pair, got {extra!r:.80}")
            _numbers(f"panels[{i}]['extra'] values", extra[1], x.size)
