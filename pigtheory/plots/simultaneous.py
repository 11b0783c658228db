"""Figure functions: solver results in, a matplotlib ``Figure`` out.

The scripts in ``paper_figures/`` call these and save the result; nothing here writes files or
solves games. Each family of results keeps its functions in one block below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure

if TYPE_CHECKING:
    from ..results import Solution
    from ..simultaneous.sweeps import HoldAtTable

__all__ = [
    "plot_hold_at_sweep",
    "plot_best_response_contour",
    "plot_best_response_actions",
]


# --- Simultaneous Pig: best response to an independent opponent (Zhu et al. 2023, Figs. 2-4) ---


def plot_hold_at_sweep(sweep: HoldAtTable, paper_minima: Sequence[int] = ()) -> Figure:
    """The best response's win probability at (0, 0) against "hold at n", over n (Zhu, Ma, Chen
    & Liu 2023, Fig. 2, numbered Fig. 1 in its text).

    Local minima of the curve are marked; ``paper_minima`` (the n the paper names) are drawn as
    vertical guides so that agreement or disagreement is visible.

    Parameters
    ----------
    sweep : HoldAtTable
        A sweep over n: ``ns`` and ``value``, shape ``(N,)``
        (:func:`pigtheory.simultaneous.hold_at_sweep`).
    paper_minima : sequence of int

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = Figure(figsize=(7.0, 4.2))
    ax = fig.add_subplot()
    ax.plot(
        sweep.ns,
        np.asarray(sweep.value),
        "o-",
        color="tab:blue",
        ms=4,
        lw=1.2,
        label="best response vs hold at n",
    )
    mins = [n for n in sweep.local_minima]
    if mins:
        ax.plot(mins, [sweep.at(n) for n in mins], "v", color="tab:red", ms=9, label="local minima (ours)")
        for n in mins:
            ax.annotate(
                str(n),
                (n, sweep.at(n)),
                textcoords="offset points",
                xytext=(0, -16),
                ha="center",
                color="tab:red",
            )
    for t, n in enumerate(paper_minima):
        ax.axvline(n, color="0.6", ls=":", lw=1, label="local minima (paper)" if t == 0 else None)
    ax.axhline(0.5, color="0.3", lw=0.8, ls="--")
    ax.set_xlabel('opponent B holds at n ("hold at n")')
    ax.set_ylabel("A's win probability at (0, 0)")
    g = sweep.rules.goal
    ax.set_title(
        f'Best response to "hold at n": best n = {sweep.best_n}, win rate {sweep.at(sweep.best_n):.4f} (goal {g})'
    )
    ax.set_xticks(sweep.ns[:: -(-len(sweep.ns) // 16)])
    ax.grid(alpha=0.3)
    ax.legend(loc="upper center", fontsize=9)
    return fig


def plot_best_response_contour(solution: Solution, opponent: str) -> Figure:
    """Filled contours of the best response's threshold over (B's score j, A's score i) (Zhu, Ma,
    Chen & Liu 2023, Fig. 3).

    Parameters
    ----------
    solution : Solution
        Two players: ``policy[i, j]`` of shape ``(goal, goal)``, A's score first.
    opponent : str
        The opponent's name, for the title.

    Returns
    -------
    matplotlib.figure.Figure
    """
    policy = np.asarray(solution.policy)
    g = policy.shape[0]
    fig = Figure(figsize=(6.4, 5.4))
    ax = fig.add_subplot()
    levels = np.unique(np.concatenate([[0], np.arange(5, policy.max() + 5, 5), [policy.max() + 1]]))
    cs = ax.contourf(np.arange(g), np.arange(g), policy, levels=levels, cmap="viridis")
    fig.colorbar(cs, ax=ax, label="A holds at k")
    ax.set_xlabel("B's score j")
    ax.set_ylabel("A's score i")
    ax.set_title(f"Best response to {opponent}: threshold k at (i, j)")
    ax.set_aspect("equal")
    return fig


def plot_best_response_actions(
    solution: Solution, opponent: str, opponent_scores: Sequence[int] = (0, 25, 50, 75, 90)
) -> Figure:
    """The best response's threshold against A's own score, one curve per B's score (Zhu, Ma,
    Chen & Liu 2023, Fig. 4).

    Parameters
    ----------
    solution : Solution
        Two players: ``policy[i, j]`` of shape ``(goal, goal)``, A's score first.
    opponent : str
        The opponent's name, for the title.
    opponent_scores : sequence of int
        The B scores j drawn, each below the goal.

    Returns
    -------
    matplotlib.figure.Figure
    """
    policy = np.asarray(solution.policy)
    g = policy.shape[0]
    fig = Figure(figsize=(7.0, 4.4))
    ax = fig.add_subplot()
    own = np.arange(g)
    ax.plot(own, g - own, color="0.75", lw=3, label="goal - i (play for the goal)")
    for j in opponent_scores:
        ax.step(own, policy[:, j], where="mid", lw=1.3, label=f"B's score {j}")
    ax.set_xlabel("A's score i")
    ax.set_ylabel("A holds at k")
    ax.set_ylim(0, min(g, int(policy[:, list(opponent_scores)].max()) + 10))
    ax.set_title(f"Best response to {opponent}: threshold vs own score")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9)
    return fig


# --- end of the simultaneous best-response block ---
