"""Figure: the turn-total distributions X_k of Table 2 (k = 20..25 and 100).

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), Table 2. Lines and bars are ours
(:func:`pigtheory.turn_total`); black crosses are the paper's printed values, for comparison.

Writes ``paper_figures/turn_totals.png`` and ``.pdf``.
"""

from __future__ import annotations

import numpy as np

from analyses.z23.turn_totals import TABLE_2
from paper_figures._common import plt, save
from pigtheory import turn_total

KS = (20, 21, 22, 23, 24, 25)


def main() -> None:
    fig, (ax_b, ax_k, ax_100) = plt.subplots(
        1, 3, figsize=(13, 4.2), gridspec_kw={"width_ratios": [1.0, 1.6, 1.0]}
    )
    colors = plt.cm.viridis(np.linspace(0.0, 0.85, len(KS)))

    ks = (*KS, 100)
    busts = [turn_total(k).pmf[0] for k in ks]
    ax_b.bar([str(k) for k in ks], busts, color=[*colors, "0.45"])
    ax_b.plot([str(k) for k in ks], [TABLE_2[k][0] for k in ks], "kx", label="paper (Table 2)")
    ax_b.set_ylim(0.5, 1.0)
    ax_b.set_xlabel("k (hold at k)")
    ax_b.set_ylabel("P(X_k = 0)")
    ax_b.set_title("(a) probability of a bust")
    ax_b.legend(loc="upper left", frameon=False)

    for k, c in zip(KS, colors, strict=True):
        pmf = turn_total(k).pmf
        gains = np.arange(k, k + 6)
        ax_k.plot(gains, [pmf.get(int(g), 0.0) for g in gains], "o-", color=c, label=f"k = {k}")
        ax_k.plot(gains, TABLE_2[k][1:], "kx", ms=5, label="paper (Table 2)" if k == KS[-1] else None)
    ax_k.set_xlabel("points scored in the turn, s")
    ax_k.set_ylabel("P(X_k = s)")
    ax_k.set_title("(b) scoring outcomes, k = 20..25")
    ax_k.set_xticks(range(KS[0], KS[-1] + 6))
    ax_k.set_ylim(0, 0.105)
    ax_k.legend(loc="lower left", frameon=False, fontsize=9)

    pmf = turn_total(100).pmf
    gains = np.arange(100, 106)
    ax_100.bar(gains, [pmf[int(g)] for g in gains], color="0.45", label="ours")
    ax_100.plot(gains, TABLE_2[100][1:], "kx", label="paper (Table 2)")
    ax_100.set_xlabel("points scored in the turn, s")
    ax_100.set_ylabel("P(X_100 = s)")
    ax_100.set_xticks(gains)
    ax_100.set_title(f"(c) k = 100: P(X_100 ≥ 100) = {1 - pmf[0]:.2%}")
    ax_100.legend(frameon=False)

    for ax in (ax_b, ax_k, ax_100):
        ax.grid(axis="y", alpha=0.3)
        ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle('Turn totals X_k of "hold at k", one six-sided die (Table 2 of Zhu et al., Sci. Rep. 2023)')
    fig.tight_layout()
    save(fig, "turn_totals")


if __name__ == "__main__":
    main()
