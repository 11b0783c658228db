"""Multiplayer sequential Pig from the stored records: P(win) by seat at the largest goal recorded
for each number of players, the first mover's advantage against the number of players, and the
first player's opening threshold against the goal. Reads ``analyses/records/`` (``python -m
analyses.verify_large``), no solve.

Writes ``paper_figures/seq_seats.png`` and ``.pdf``.
"""

from __future__ import annotations

import json

from analyses.verify_large import RECORDS
from paper_figures._common import plt, save


def recorded() -> list[dict]:
    """Every recorded (not planned) record."""
    recs = [json.loads(p.read_text()) for p in sorted(RECORDS.glob("*.json"))]
    return [r for r in recs if r["status"] == "recorded"]


def largest_recorded() -> dict[int, dict]:
    """For each number of players, the recorded record of the largest goal."""
    best: dict[int, dict] = {}
    for rec in recorded():
        n, goal = rec["rules"]["players"], rec["rules"]["goal"]
        if n not in best or goal > best[n]["rules"]["goal"]:
            best[n] = rec
    return dict(sorted(best.items()))


def main() -> None:
    recs = largest_recorded()
    fig, (ax, bx, cx) = plt.subplots(1, 3, figsize=(15, 4.2))
    for n, rec in recs.items():
        v = rec["start_values"]
        ax.plot(range(1, n + 1), v, "o-", label=f"{n} players, goal {rec['rules']['goal']}")
        ax.hlines(1 / n, 0.8, n + 0.2, colors=ax.lines[-1].get_color(), lw=0.8, ls=":")
    ax.set_xlabel("seat (playing order)")
    ax.set_ylabel("P(win) at the start (dotted: fair share 1/n)")
    ax.set_title("Equilibrium win chances by seat")
    ax.set_xticks(range(1, max(recs) + 1))
    ax.legend(fontsize=8)
    ns = list(recs)
    adv = [recs[n]["start_values"][0] * n for n in ns]
    bx.plot(ns, adv, "s-", color="C3")
    for n, a in zip(ns, adv, strict=True):
        bx.annotate(
            f"goal {recs[n]['rules']['goal']}", (n, a), textcoords="offset points", xytext=(4, 6), fontsize=8
        )
    bx.axhline(1.0, color="grey", lw=0.8, ls=":")
    bx.margins(x=0.15, y=0.12)
    bx.set_xticks(ns)
    bx.set_xlabel("players n")
    bx.set_ylabel("first seat's P(win) x n (1 = fair)")
    bx.set_title("First mover's advantage")
    by_n: dict[int, list[tuple[int, int]]] = {}
    for rec in recorded():
        by_n.setdefault(rec["rules"]["players"], []).append((rec["rules"]["goal"], rec["opening_threshold"]))
    for n, pts in sorted(by_n.items()):
        pts.sort()
        cx.plot([g for g, _ in pts], [t for _, t in pts], "o-", label=f"{n} players")
    top = max(g for pts in by_n.values() for g, _ in pts)
    cx.plot([0, top], [0, top], color="grey", lw=0.8, ls=":", label="the goal (roll to win)")
    cx.set_xlabel("goal")
    cx.set_ylabel("first player's opening threshold")
    cx.set_title("Opening threshold against the goal")
    cx.legend(fontsize=8)
    save(fig, "seq_seats")


if __name__ == "__main__":
    main()
