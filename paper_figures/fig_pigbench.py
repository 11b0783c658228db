"""PigBench's light leaderboard as curves: for every agent and task, the exact score (the referee)
against training (episodes, rounds per state or die rolls) and against wall time, sequential
tasks on the left, simultaneous ones on the right, beside the Monte Carlo estimate of
exploitability a win-rate study of 2000 games per seat would report (its 95% band). An exact
score of 0 (the optimum reached) is drawn at 1e-8. Reads the stored record
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
FLOOR = 1e-8
MARKERS = {"q-learning": "o", "openspiel-qlearner": "s", "model-based": "D"}


def main() -> None:
    record = json.loads(RECORD.read_text())
    runs = record["runs"]
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5))
    cmap = plt.get_cmap("tab20")
    for n, run in enumerate(runs):
        c = run["curve"]
        col = 1 if run["task"].startswith("simultaneous") else 0
        x = np.array([r["x"] for r in c], dtype=float)
        wall = np.maximum(stable([r["wall_s"] for r in c], 2), 1e-4)
        exact = np.maximum(stable([r["exact"] for r in c]), FLOOR)
        mc = stable([r["mc"] for r in c], 4)
        se = stable([r["mc_se"] for r in c], 4)
        color = cmap(n % 20)
        marker = MARKERS.get(run["agent"], "^")
        label = f"{run['agent']} on {run['task']} ({run['x_unit']})"
        axes[0, col].plot(x, exact, marker + "-", color=color, label=label, ms=4)
        lo = np.maximum(mc - 1.96 * se, FLOOR)
        hi = np.maximum(mc + 1.96 * se, FLOOR)
        mid = np.maximum(mc, FLOOR)
        axes[0, col].errorbar(
            x * 1.12, mid, yerr=[mid - lo, hi - mid], fmt="x", color=color, alpha=0.45, ms=4
        )
        axes[1, col].plot(wall, exact, marker + "-", color=color, ms=4)
    for col, what in enumerate(("sequential tasks", "simultaneous tasks")):
        axes[0, col].set(
            xscale="log", yscale="log", title=what, xlabel="training: episodes, rounds per state or die rolls"
        )
        axes[1, col].set(xscale="log", yscale="log", xlabel="wall time of the run (s)")
        axes[0, col].legend(fontsize=6.5, loc="lower left")
    axes[0, 0].set_ylabel("exploitability (lines exact, x Monte Carlo with 95% band)")
    axes[1, 0].set_ylabel("exact exploitability")
    fig.suptitle("PigBench (light): exact scores beside Monte Carlo estimates (0 drawn at 1e-8)")
    fig.tight_layout()
    save(fig, "pigbench")


if __name__ == "__main__":
    main()
