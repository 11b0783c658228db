"""Figures of the two-player simultaneous game: Stackelberg policies, cycling and mixed states.

Functions take arrays (results in) and return a matplotlib Figure (no files written). Arrays
are indexed ``[i, j]``: A's (own) score first, the opponent's second.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), Fig. 5 (Stackelberg decisions) and the
"Mixed-strategy equilibrium" section (cycling states).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from matplotlib.figure import Figure

__all__ = ["plot_stackelberg", "plot_cycling_states", "plot_equilibrium_mixing"]


def plot_stackelberg(leader: np.ndarray, follower: np.ndarray) -> Figure:
    """Filled contours of the leader's and the follower's thresholds (cf. the paper's Fig. 5).

    Both tables own score first, shape ``(goal, goal)``; axes: the player's own score (x) and
    the opponent's (y), colour: the turn total to hold at.
    """
    fig = Figure(figsize=(10, 4.4))
    axes = fig.subplots(1, 2, sharey=True)
    top = int(max(np.max(leader), np.max(follower)))
    levels = np.unique(np.concatenate([np.arange(0, 41, 2), np.linspace(40, top + 1, 8).round()]))
    for ax, table, title in zip(axes, (leader, follower), ("leader (A)", "follower (B)"), strict=True):
        g = table.shape[0]
        cs = ax.contourf(np.arange(g), np.arange(g), np.asarray(table).T, levels=levels, cmap="viridis")
        ax.set_title(f"Stackelberg {title}: hold at k")
        ax.set_xlabel("own score i")
        ax.set_aspect("equal")
    axes[0].set_ylabel("opponent's score j")
    fig.colorbar(cs, ax=axes, shrink=0.85, label="turn total k to hold at")
    return fig


def plot_cycling_states(
    goal: int, cyclic: Iterable[tuple[int, int]], mixed: Iterable[tuple[int, int]]
) -> Figure:
    """Map over (i, j) of the states that cycle in self-play and of those where the exact
    equilibrium mixes (the paper's cycle: "Mixed-strategy equilibrium", 141 states).

    Parameters
    ----------
    goal : int
    cyclic : iterable of (int, int)
        :attr:`~pigtheory.simultaneous.SelfPlay.cyclic_states`.
    mixed : iterable of (int, int)
        :attr:`~pigtheory.simultaneous.Equilibrium.mixed_states`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    cyc = np.array(sorted(cyclic)).reshape(-1, 2)
    mix = np.array(sorted(mixed)).reshape(-1, 2)
    fig = Figure(figsize=(5.6, 5.2))
    ax = fig.subplots()
    ax.scatter(
        cyc[:, 0],
        cyc[:, 1],
        s=26,
        facecolors="none",
        edgecolors="tab:red",
        linewidths=0.9,
        label=f"threshold cycles in self-play ({len(cyc)})",
    )
    ax.scatter(mix[:, 0], mix[:, 1], s=7, color="tab:blue", label=f"equilibrium mixes ({len(mix)})")
    ax.plot([0, goal - 1], [0, goal - 1], color="0.8", lw=0.8, zorder=0)
    ax.set_xlim(-1, goal)
    ax.set_ylim(-1, goal)
    ax.set_aspect("equal")
    ax.set_xlabel("own score i")
    ax.set_ylabel("opponent's score j")
    ax.set_title(f"Where pure play fails (goal {goal})")
    ax.legend(loc="lower left", fontsize=8, framealpha=0.9)
    return fig


def plot_equilibrium_mixing(thresholds: np.ndarray, weights: np.ndarray) -> Figure:
    """Where the equilibrium mixes: the lower threshold of each mix (x: own score, y:
    opponent's), coloured by the probability of the higher one; right: the mixed thresholds
    against the own score.

    Parameters
    ----------
    thresholds, weights : numpy.ndarray, shape ``(goal, goal, W)``
        An equilibrium's ``policy.thresholds`` and ``policy.weights`` (own score first).

    Returns
    -------
    matplotlib.figure.Figure
    """
    th, w = np.asarray(thresholds), np.asarray(weights)
    support = (w > 0).sum(axis=2)
    states = np.argwhere(support > 1)
    fig = Figure(figsize=(10.5, 4.4))
    left, right = fig.subplots(1, 2)
    hi_p, lo_k, hi_k = [], [], []
    for i, j in states:
        ks = th[i, j][w[i, j] > 0]
        ps = w[i, j][w[i, j] > 0]
        order = np.argsort(ks)
        ks, ps = ks[order], ps[order]
        lo_k.append(ks[0])
        hi_k.append(ks[-1])
        hi_p.append(ps[-1])
    g = th.shape[0]
    sc = left.scatter(states[:, 0], states[:, 1], c=hi_p, cmap="coolwarm", vmin=0, vmax=1, s=14)
    fig.colorbar(sc, ax=left, label="probability of the higher threshold")
    left.set_xlim(-1, g)
    left.set_ylim(-1, g)
    left.set_aspect("equal")
    left.set_xlabel("own score i")
    left.set_ylabel("opponent's score j")
    left.set_title(f"Equilibrium mixes at {len(states)} states")
    right.vlines(states[:, 0], lo_k, hi_k, color="0.6", lw=0.8)
    right.scatter(states[:, 0], lo_k, s=10, color="tab:blue", label="lower threshold")
    right.scatter(states[:, 0], hi_k, s=10, color="tab:orange", label="higher threshold")
    right.set_xlabel("own score i")
    right.set_ylabel("turn total k")
    right.set_title("The thresholds mixed")
    right.legend(fontsize=8)
    return fig
