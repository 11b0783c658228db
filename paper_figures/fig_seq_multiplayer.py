"""Multiplayer sequential Pig: P(win) by seat for 2 to 5 players, and where the 3-player
equilibrium at goal 100 mixes (the groups whose best responses cycle), in the score space.

Writes ``paper_figures/seq_multiplayer.png`` and ``.pdf`` (equilibria cached by
``analyses/multiplayer/_sequential_data.py``).
"""

from __future__ import annotations

import numpy as np

from analyses.multiplayer._sequential_data import COMMON_GOAL, solved
from paper_figures._common import plt, save


def main() -> None:
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10.5, 4.4))
    for n in range(2, 6):
        v = solved(n, COMMON_GOAL).start_values
        ax.plot(range(1, n + 1), v * n, "o-", label=f"{n} players")
    ax.axhline(1.0, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("seat (playing order)")
    ax.set_ylabel("P(win) x number of players (1 = fair)")
    ax.set_title(f"Equilibrium win chances by seat, goal {COMMON_GOAL}")
    ax.legend(fontsize=8)
    eq = solved(3, 100)
    groups = eq.mixed_groups
    rows = np.array([np.roll(t, -r) for t in groups for r in range(3)])
    mixing = {tuple(int(x) for x in row[:3]) for row in eq.policy.mixed_states}
    mark = np.array([tuple(int(x) for x in row) in mixing for row in rows])
    sc = bx.scatter(
        rows[:, 1], rows[:, 2], c=rows[:, 0], cmap="viridis", s=np.where(mark, 36, 10), vmin=0, vmax=99
    )
    fig.colorbar(sc, ax=bx, label="mover's score")
    bx.set_xlim(0, 100)
    bx.set_ylim(0, 100)
    bx.set_xlabel("next player's score")
    bx.set_ylabel("last player's score")
    bx.set_title(
        f"3 players, goal 100: the {len(groups)} groups that mix\n(large: the rotations whose mover mixes)"
    )
    save(fig, "seq_multiplayer")


if __name__ == "__main__":
    main()
