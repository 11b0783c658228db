"""One player alone, goal 100: exact distributions of the number of turns holding at 17..26
(the poster's PMFs, there from 100,000 simulated games)."""

from __future__ import annotations

from paper_figures._common import plt, save, stable
from pigtheory.length import single_player


def main() -> None:
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    cmap = plt.get_cmap("viridis")
    for idx, n in enumerate(range(17, 27)):
        d = single_player(n)
        t = range(d.pmf.size)
        ax.plot(
            t,
            stable(d.pmf),  # 9 digits: the same figure whatever the CPU's summation order
            marker="o",
            markersize=2.5,
            linewidth=1,
            color=cmap(idx / 9),
            label=f"hold at {n}: mean {d.mean:.2f}, sd {d.sd:.2f}",
        )
    ax.set_xlim(0, 40)
    ax.set_xlabel("turns to reach 100")
    ax.set_ylabel("probability")
    ax.set_title("Single player, one die: turns to reach 100 (exact)")
    ax.legend(fontsize=7, loc="center right")
    save(fig, "seq_single_player")


if __name__ == "__main__":
    main()
