"""Figures of sequential (turn-taking) Pig: results in, matplotlib Figure out."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

__all__ = ["plot_hold_boundary"]


def plot_hold_boundary(thresholds: np.ndarray, title: str) -> Figure:
    """Where the optimal player first holds: a surface and contours over the scores.

    Parameters
    ----------
    thresholds : array of shape (g, g)
        ``thresholds[i, j]``: the turn total at which the player with score ``i`` facing ``j``
        first holds (e.g. ``SequentialSolution.hold_thresholds()``).
    title : str
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        Left: the boundary as a surface over (i, j); right: its contours at turn totals 5 to 60.

    References
    ----------
    Neller, T. W. & Presser, C. G. M. (2004). Optimal play of the dice game Pig. *The UMAP
    Journal* 25(1), 25-47 (the "Pig sow-lution" figure).
    """
    thresholds = np.asarray(thresholds)
    if thresholds.ndim != 2 or thresholds.shape[0] != thresholds.shape[1]:
        raise ValueError(f"thresholds must be a square 2-d array, got shape {thresholds.shape}")
    g = thresholds.shape[0]
    i, j = np.meshgrid(np.arange(g), np.arange(g), indexing="ij")
    fig = Figure(figsize=(11, 4.8))
    ax = fig.add_subplot(1, 2, 1, projection="3d")
    ax.plot_surface(i, j, thresholds, cmap="viridis", linewidth=0, antialiased=False, rstride=2, cstride=2)
    ax.set_xlabel("player's score i")
    ax.set_ylabel("opponent's score j")
    ax.set_zlabel("hold at turn total k")
    ax.view_init(elev=28, azim=-130)
    ax2 = fig.add_subplot(1, 2, 2)
    cs = ax2.contour(j, i, thresholds, levels=[5, 10, 15, 20, 25, 30, 40, 50, 60], cmap="viridis")
    ax2.clabel(cs, fontsize=7)
    ax2.set_xlabel("opponent's score j")
    ax2.set_ylabel("player's score i")
    ax2.set_aspect("equal")
    fig.suptitle(title)
    return fig
