"""Figures of symmetric equilibria of n-player simultaneous Pig: results in, Figure out.

Each function takes solver results (:mod:`pigtheory.simultaneous.symmetric` and
:mod:`~pigtheory.simultaneous.symmetric.response`) and returns a
:class:`matplotlib.figure.Figure`; saving is the caller's business (``paper_figures/``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

__all__ = ["plot_opening", "plot_value_lines", "plot_mixed_states", "plot_dynamics"]


def plot_opening(openings: Mapping[int, Mapping[int, float]], limit_from: int, goal: int) -> Figure:
    """The opening threshold at ``(0, ..., 0)`` against the number of players.

    Parameters
    ----------
    openings : {players: {threshold: probability}}
        The equilibrium's opening mix for each number of players solved.
    limit_from : int
        The number of players from which everybody holding at the goal is an equilibrium
        (:func:`pigtheory.simultaneous.limit`); drawn as the limit.
    goal : int
    """
    fig = Figure(figsize=(6.4, 4.2))
    ax = fig.subplots()
    ns = sorted(openings)
    for n in ns:
        mix = openings[n]
        for k, p in sorted(mix.items()):
            ax.scatter([n], [k], s=30 + 170 * p, color="C0", zorder=3)
            label = f"{k}" if p == 1 else f"{k} ({p:.2f})"
            ax.annotate(label, (n, k), textcoords="offset points", xytext=(9, -3), fontsize=9)
    tops = [max(openings[n].items(), key=lambda kp: kp[1])[0] for n in ns]
    ax.plot(ns, tops, color="C0", lw=1, alpha=0.6)
    x_lim = max(ns) + 2
    ax.scatter([x_lim], [goal], s=200, color="C3", marker="s", zorder=3)
    ax.annotate(
        f"hold at {goal}\n(an equilibrium for\n{limit_from} players and more)",
        (x_lim, goal),
        textcoords="offset points",
        xytext=(-10, -46),
        fontsize=8,
        ha="right",
    )
    ax.plot([max(ns), x_lim], [tops[-1], goal], color="C3", lw=1, ls=":")
    ax.set_xticks(ns + [x_lim])
    ax.set_xticklabels([str(n) for n in ns] + [f"{limit_from}+"])
    ax.set_xlabel("players")
    ax.set_ylabel("threshold at the start (0, ..., 0)")
    ax.set_ylim(0, goal * 1.08)
    ax.set_title(f"Symmetric equilibrium: the opening threshold, goal {goal}")
    fig.tight_layout()
    return fig


def plot_value_lines(eq: Any, trailers: Sequence[int]) -> Figure:
    """One leader and two trailers (three players): the leader's and each trailer's win
    probability as the leader's score grows, for each trailers' score in ``trailers``."""
    g = eq.rules.goal
    fig = Figure(figsize=(10.5, 4.2))
    axes = fig.subplots(1, 2, sharex=True)
    for idx, t in enumerate(trailers):
        lead = np.arange(t, g)
        leader = np.array([eq.at(int(s), t, t)[0] for s in lead])
        axes[0].plot(lead, leader, color=f"C{idx}", label=f"trailers at {t}")
        axes[1].plot(lead, (1 - leader) / 2, color=f"C{idx}", label=f"trailers at {t}")
    axes[0].axhline(1 / 3, color="0.6", lw=0.8, ls="--")
    axes[1].axhline(1 / 3, color="0.6", lw=0.8, ls="--")
    axes[0].set_ylabel("leader's win probability")
    axes[1].set_ylabel("each trailer's win probability")
    for ax in axes:
        ax.set_xlabel("leader's score")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8, loc="lower right")
    fig.suptitle(f"Three players, goal {g}: values along states (leader, t, t) at the start of a turn")
    fig.tight_layout()
    return fig


def plot_mixed_states(eq: Any) -> Figure:
    """Where a three-player equilibrium mixes: each mixed sorted state (low, mid, high) as a
    point (low, mid) coloured by the leader's score, with the number of players mixing."""
    g = eq.rules.goal
    states = np.asarray(eq.mixed_states)
    fig = Figure(figsize=(11, 4.6))
    axes = fig.subplots(1, 2)
    sc = axes[0].scatter(states[:, 0], states[:, 1], c=states[:, 2], s=6, cmap="viridis", vmin=0, vmax=g)
    fig.colorbar(sc, ax=axes[0], label="highest score")
    axes[0].set_xlabel("lowest score")
    axes[0].set_ylabel("middle score")
    axes[0].set_xlim(-1, g)
    axes[0].set_ylim(-1, g)
    axes[0].set_title(f"{len(states)} mixed states of {eq.n_states}")
    axes[1].hist(states.sum(axis=1), bins=np.arange(0, 3 * g, 5), color="C1")
    axes[1].set_xlabel("score sum")
    axes[1].set_ylabel("mixed states")
    axes[1].set_title(f"largest support {eq.largest_support}")
    fig.suptitle(f"Three players, goal {g}: where the symmetric equilibrium mixes")
    fig.tight_layout()
    return fig


def plot_dynamics(
    runs: Mapping[str, Any],
    exact: float,
    seconds: Mapping[str, float] | None = None,
    *,
    floor: float = 1e-17,
) -> Figure:
    """Exploitability over the iterations of whole-game dynamics, beside backward induction.

    Parameters
    ----------
    runs : {label: SymmetricDynamics}
    exact : float
        Exploitability of the backward-induction equilibrium (drawn at its absolute value).
    seconds : {label: float} or None
        Wall-clock seconds of each run (and of ``"backward induction"``) for the legend; None
        (for a figure that must not depend on the machine) leaves them out.
    floor : float
        Exploitabilities below ``floor`` are drawn at ``floor``, the bottom of the log scale.
        Above 1e-17, this also hides the rounding noise of exact methods (a few units of
        1e-16, whose last bits differ between machines), so that the figure is the same
        everywhere.
    """
    floor = float(floor)
    if not 0.0 < floor < 1.0:
        raise ValueError(f"floor must be in (0, 1), got {floor!r}")
    fig = Figure(figsize=(7, 4.4))
    ax = fig.subplots()

    def timing(label: str, fmt: str) -> str:
        return "" if seconds is None else fmt.format(seconds[label])

    for idx, (label, run) in enumerate(runs.items()):
        eps = np.abs(np.asarray(run.epsilon, dtype=float))
        eps = np.where(eps < floor, floor, eps)
        ax.semilogy(
            np.arange(eps.size),
            eps,
            "o-",
            ms=3,
            color=f"C{idx}",
            label=f"{label}{timing(label, ' ({:.0f} s)')}",
        )
    shown = f"{exact:.1e}" if abs(exact) >= floor else f"below {floor:.0e}"
    ax.axhline(
        max(abs(exact), floor),
        color="k",
        lw=1.2,
        ls="--",
        label=f"backward induction: {shown}"
        + timing("backward induction", " ({:.0f} s with its certificate)"),
    )
    ax.set_ylim(min(floor, 1e-17), 1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("iteration (one exact best response each)")
    ax.set_ylabel("exploitability at the start")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="center right")
    ax.set_title("Three players, goal 100: the obvious methods against backward induction")
    fig.tight_layout()
    return fig
