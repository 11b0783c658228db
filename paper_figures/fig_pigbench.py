"""PigBench's light leaderboard as curves: for every agent and task, the exact score (the referee)
against training (episodes or rounds per state) and against wall time, beside the Monte Carlo
estimate of exploitability a win-rate study of 2000 games per seat would report (its 95% band).
An exact score of 0 (the optimum reached) is drawn at 1e-6. Reads the stored record
``benchmarks/records/pigbench.json`` (``make bench-learners``); writes
``paper_figures/pigbench.png`` and ``.pdf``.
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from paper_figures._common import save, stable

RECORD = Path(__file__).resolve().parent.parent / "benchmarks" / "records" / "pigbench.json"
FLOOR = 1e-6


def main() -> None:
    record = json.loads(RECORD.read_text())
    runs = record["runs"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for n, run in enumerate(runs):
        c = run["curve"]
        x = np.array([r["x"] for r in c], dtype=float)
        wall = stable([r["wall_s"] for r in c], 2)
        exact = np.maximum(stable([r["exact"] for r in c]), FLOOR)
        mc = stable([r["mc"] for r in c], 4)
        se = stable([r["mc_se"] for r in c], 4)
        color = f"C{n}"
        label = f"{run['agent']} on {run['task']}"
        axes[0].plot(x, exact, "o-", color=color, label=label)
        axes[0].errorbar(x * 1.08, np.maximum(mc, FLOOR), yerr=1.96 * se, fmt="x", color=color, alpha=0.6)
        axes[1].plot(wall, exact, "o-", color=color)
    axes[0].set(
        xscale="log", yscale="log", xlabel="episodes (Q-learners) or rounds per state (regret matching)"
    )
    axes[0].set_ylabel("exploitability (o exact, x Monte Carlo with 95% band)")
    axes[1].set(xscale="log", yscale="log", xlabel="wall time of the run (s)", ylabel="exact exploitability")
    axes[0].legend(fontsize=7)
    fig.suptitle("PigBench (light): exact scores beside Monte Carlo estimates")
    fig.tight_layout()
    save(fig, "pigbench")


if __name__ == "__main__":
    main()
