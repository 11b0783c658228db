"""Figures of n-player simultaneous Pig (three players and more; the limit): results in, a
matplotlib Figure out.

Each function takes a solver result (or a table of measurements) and returns a
:class:`matplotlib.figure.Figure`; saving is the caller's business (``paper_figures/``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

__all__ = ["plot_three_player_grid", "plot_scaling", "plot_limit"]


def plot_three_player_grid(grid: Any) -> Figure:
    """Surface and table of the best-response value against "hold at n1" and "hold at n2".

    ``grid`` is a :class:`pigtheory.simultaneous.sweeps.sweep.HoldAtTable` from
    :func:`~pigtheory.simultaneous.sweeps.grid.hold_at_grid` (Zhu, Ma, Chen & Liu 2023, Fig. 6 /
    Table S4): ``value[a, b]`` of shape ``(len(ns), len(ns))``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ns, value = np.asarray(grid.ns), np.asarray(grid.value)
    fig = Figure(figsize=(12, 5))
    ax = fig.add_subplot(1, 2, 1, projection="3d")
    x, y = np.meshgrid(ns, ns, indexing="ij")
    ax.plot_surface(x, y, value, cmap="viridis", edgecolor="k", linewidth=0.2)
    a, b = grid.best_pair
    ax.scatter([a], [b], [value[list(ns).index(a), list(ns).index(b)]], color="red", s=30, depthshade=False)
    ax.set_xlabel("opponent 1 holds at $n_1$")
    ax.set_ylabel("opponent 2 holds at $n_2$")
    ax.set_zlabel("best-response win probability")
    ax.view_init(elev=40, azim=-60)
    ax2 = fig.add_subplot(1, 2, 2)
    im = ax2.imshow(
        value, origin="lower", cmap="viridis", extent=(ns[0] - 0.5, ns[-1] + 0.5, ns[0] - 0.5, ns[-1] + 0.5)
    )
    for i, n1 in enumerate(ns):
        for j, n2 in enumerate(ns):
            light = value[i, j] > value.min() + 0.6 * np.ptp(value)
            ax2.text(
                n2,
                n1,
                f"{value[i, j]:.3f}",
                ha="center",
                va="center",
                fontsize=5,
                color="k" if light else "w",
            )
    ax2.plot([b], [a], "s", mfc="none", mec="red", ms=14)
    ax2.set_xlabel("$n_2$")
    ax2.set_ylabel("$n_1$")
    ax2.set_title(f"least for the responder: ({a}, {b}), {value[list(ns).index(a), list(ns).index(b)]:.4f}")
    fig.colorbar(im, ax=ax2, shrink=0.8)
    fig.suptitle(f"Three players, goal {grid.rules.goal}: best response at (0, 0, 0)")
    return fig


def plot_scaling(
    rows: Sequence[dict],
    *,
    panels: Sequence[tuple[str, str]] = (
        ("candidates", "candidate thresholds compared"),
        ("memory_mb", "estimated memory (MiB, pigtheory.guard)"),
    ),
) -> Figure:
    """The cost of one exact best response against the number of states solved, one panel per
    quantity.

    ``rows``: dicts with ``players``, ``goal``, ``states``, ``solver`` ("full" or "symmetric")
    and the keys of ``panels``. The default panels are what does not depend on the machine:
    the candidate thresholds the best response compares and the memory estimate of
    :mod:`pigtheory.guard`; ``panels=(("cpu_seconds", "CPU time (s)"), ("peak_mb", "peak
    resident memory (MB)"))`` draws measurements instead. The paper's cost claim,
    :math:`O(100^n)`, is in its 4- and n-player paragraph (Zhu, Ma, Chen & Liu 2023).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = Figure(figsize=(11, 4.5))
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    markers = {2: "o", 3: "s", 4: "^", 5: "D"}
    for ax, (key, label) in zip(axes, panels, strict=True):
        for solver, fill in (("full", "full"), ("symmetric", "none")):
            for n, mk in markers.items():
                pts = [r for r in rows if r["players"] == n and r["solver"] == solver]
                if not pts:
                    continue
                xs = [r["states"] for r in pts]
                ys = [r[key] for r in pts]
                ax.loglog(xs, ys, mk, fillstyle=fill, color=f"C{n - 2}", label=f"{n} players, {solver}", ms=7)
                for r in pts:
                    ax.annotate(
                        str(r["goal"]),
                        (r["states"], r[key]),
                        fontsize=6,
                        xytext=(3, 3),
                        textcoords="offset points",
                    )
        ax.set_xlabel("non-terminal states solved")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
    xs_all = np.array([r["states"] for r in rows], dtype=float)
    ref = np.geomspace(xs_all.min(), xs_all.max(), 10)
    y = np.array([r[panels[0][0]] for r in rows], dtype=float)
    big = xs_all >= 1e5
    axes[0].loglog(ref, ref * np.median(y[big] / xs_all[big]), "k--", lw=0.8, label="proportional to states")
    axes[0].legend(fontsize=7)
    fig.suptitle("Cost of one exact best response (labels: goal)")
    return fig


def plot_limit(res: Any, paper_n: int | None = 99) -> Figure:
    """n times the best deviation's value against n: above 1 a deviation from "everybody holds
    at the goal" pays. ``res`` is a :class:`pigtheory.simultaneous.LimitAnalysis`.

    Parameters
    ----------
    res : LimitAnalysis
        ``n`` and ``deviation_value``, shape ``(n_max - 1,)``.
    paper_n : int or None
        The paper's "n >= 99" (Zhu, Ma, Chen & Liu 2023, "Infinite number of players"), drawn
        as a guide; None for none.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = Figure(figsize=(7, 4.5))
    ax = fig.subplots()
    n = np.asarray(res.n)
    ax.plot(n, n * np.asarray(res.deviation_value), "C0-", label="n x best deviation value")
    ax.axhline(1.0, color="k", lw=0.8, label="n x 1/n (everybody holds at the goal)")
    if res.smallest_n is not None:
        ax.axvline(res.smallest_n, color="C2", ls="--", label=f"smallest n = {res.smallest_n} (exact)")
    if paper_n is not None:
        ax.axvline(paper_n, color="C3", ls=":", label=f"paper: n >= {paper_n}")
    ax.set_xscale("log")
    ax.set_xlabel("number of players n")
    ax.set_ylabel("n x win probability")
    ax.set_title(f"Goal {res.rules.goal}: deviating from holding at the goal")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    return fig
