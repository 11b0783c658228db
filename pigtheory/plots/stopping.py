"""Figures of strategies beyond thresholds: stopping rules in simultaneous Pig.

Functions take arrays (results in) and return a matplotlib Figure (no files written). State
arrays are indexed ``[i, j]``: own score first, the opponent's second; rules ``[t]`` over the
turn total.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

__all__ = ["plot_stopping_rules"]

_CLASS_COLOURS = ("#e8e8e8", "#7fb3d5", "#f0b27a", "#c0392b")


def plot_stopping_rules(
    kind: np.ndarray,
    kind_names: Sequence[str],
    example_roll: np.ndarray,
    example_threshold: int,
    example_state: tuple[int, int],
    mixed_prob: np.ndarray,
    mixed_state: tuple[int, int],
) -> Figure:
    """Three panels: the class of every state of the equilibrium over stopping rules; one
    best response that is no threshold (its roll set against t beside the best threshold's);
    the equilibrium's randomised rule at a state that needs both mixing and non-threshold
    rules (``P(roll | t)``).

    Parameters
    ----------
    kind : int array, shape (goal, goal)
        Class codes, indices into ``kind_names``.
    example_roll : bool array, shape (goal,)
        The non-threshold rule at ``example_state`` (own score first).
    example_threshold : int
        The best threshold there.
    mixed_prob : array, shape (goal,)
        ``P(roll at t)`` at ``mixed_state``.
    """
    fig = Figure(figsize=(14, 4.4))
    ax0, ax1, ax2 = fig.subplots(1, 3)
    g = kind.shape[0]
    cmap = ListedColormap(list(_CLASS_COLOURS[: len(kind_names)]))
    ax0.imshow(np.asarray(kind).T, origin="lower", cmap=cmap, vmin=-0.5, vmax=len(kind_names) - 0.5)
    counts = [int((kind == c).sum()) for c in range(len(kind_names))]
    handles = [
        ax0.scatter([], [], marker="s", s=60, color=_CLASS_COLOURS[c], label=f"{name} ({counts[c]})")
        for c, name in enumerate(kind_names)
    ]
    ax0.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.14), fontsize=7, frameon=False)
    ax0.set_xlabel("own score i")
    ax0.set_ylabel("opponent's score j")
    ax0.set_title("equilibrium over stopping rules: class of each state", fontsize=9)

    i, j = example_state
    room = g - i
    t = np.arange(1, room)
    ax1.step(
        t, np.asarray(example_roll)[1:room].astype(int), where="mid", label="best rule: roll (1) / hold (0)"
    )
    ax1.step(
        t,
        (t < example_threshold).astype(int) * 0.9,
        where="mid",
        ls="--",
        label=f"best threshold: hold at {example_threshold}",
    )
    ax1.set_xlabel("turn total t")
    ax1.set_yticks([0, 1], ["hold", "roll"])
    ax1.set_title(f"best response to hold at 25 at ({i}, {j}): no threshold", fontsize=9)
    ax1.legend(fontsize=7, loc="center right")

    i, j = mixed_state
    room = g - i
    t = np.arange(1, room)
    ax2.plot(t, np.asarray(mixed_prob)[1:room], marker=".")
    ax2.set_ylim(-0.05, 1.05)
    ax2.set_xlabel("turn total t")
    ax2.set_ylabel("P(roll at t)")
    ax2.set_title(f"equilibrium's randomised rule at ({i}, {j})", fontsize=9)
    return fig
