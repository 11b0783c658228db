"""Measured and predicted time of the chunked multiplayer sequential solve against the goal,
3 to 6 players (issue 37). The measured points are the stored records of
``analyses/records/seq_*_chunked.json`` (``benchmarks/record_sequential_chunked.py``): the CPU
seconds of the tasks and the client, and the wall time; the lines are the plan's CPU seconds
in the default chunks (:func:`pigtheory.sequential.plan`, its constants fitted to these
records: ``benchmarks/fit_plan_costs.py``), the bars its CPU seconds in each run's own chunks
(some runs used the chunks the plan gives 3 GiB workers, and its spread). Writes
``paper_figures/seq_chunked.png``/``.pdf``."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.pyplot as plt

from paper_figures._common import save, stable
from pigtheory import Rules
from pigtheory.sequential.multiplayer.plan import plan

RECORDS = Path(__file__).resolve().parent.parent / "analyses" / "records"
GOALS = {3: range(20, 101, 5), 4: range(10, 101, 5), 5: range(10, 61, 5), 6: range(8, 31, 2)}
COLOURS = {3: "tab:blue", 4: "tab:orange", 5: "tab:green", 6: "tab:red"}


def records() -> list[dict]:
    """The chunked records, sorted by players and goal."""
    out = [json.loads(p.read_text()) for p in sorted(RECORDS.glob("seq_*_chunked.json"))]
    return sorted(out, key=lambda r: (r["rules"]["players"], r["rules"]["goal"]))


def figure(recs: list[dict]):
    fig, ax = plt.subplots(figsize=(8.2, 4.4))
    for n, goals in GOALS.items():
        cpu = stable([plan(rules=Rules(players=n, goal=g)).cpu_hours * 3600 for g in goals], 4)
        ax.plot(list(goals), cpu, color=COLOURS[n], lw=1.2, label=f"{n} players: plan (CPU)")
        mine = [r for r in recs if r["rules"]["players"] == n]
        if mine:
            gs = [r["rules"]["goal"] for r in mine]
            ax.plot(gs, stable([r["measured"]["cpu_s"] for r in mine], 3), "o", color=COLOURS[n], ms=5)
            ax.plot(gs, stable([r["measured"]["wall_s"] for r in mine], 3), "x", color=COLOURS[n], ms=6)
            own = [
                plan(
                    rules=Rules(players=n, goal=r["rules"]["goal"]),
                    chunk=r["chunked"]["chunk"],
                    spread=r["chunked"].get("spread", 1),
                ).cpu_hours
                * 3600
                for r in mine
            ]
            ax.plot(gs, stable(own, 4), "_", color=COLOURS[n], ms=12, mew=1.5)
    ax.plot([], [], "ko", ms=5, label="measured CPU")
    ax.plot([], [], "kx", ms=6, label="measured wall (serial or 2 workers)")
    ax.plot([], [], "k_", ms=12, mew=1.5, label="plan (CPU) in the run's chunks")
    ax.set_yscale("log")
    ax.set_xlabel("goal")
    ax.set_ylabel("seconds")
    ax.set_title("Chunked multiplayer equilibrium: plan and measured runs")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # the points stay in view
    fig.subplots_adjust(right=0.72)
    return fig


def main() -> None:
    save(figure(records()), "seq_chunked")


if __name__ == "__main__":
    main()
