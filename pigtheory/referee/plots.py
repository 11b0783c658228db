"""Figures of the referee: learners' exact exploitability beside what Monte Carlo would report.

:func:`plot_learning` draws one panel per learner (exact exploitability over training, the Monte
Carlo estimate with its 95% band) and a last panel with the games a win-rate study needs to see
the exact gap.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

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
    gap = np.asarray(gap, dtype=float)
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
