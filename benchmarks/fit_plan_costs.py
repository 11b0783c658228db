"""Refit the plan's time constants (:data:`pigtheory.sequential.multiplayer.plan.COSTS`) from the
chunked runs' records, and print the plan against every run (issue 37).

``python benchmarks/fit_plan_costs.py [--records DIR] [--check] [--json]``

Reads ``analyses/records/seq_*_chunked.json`` (``benchmarks/record_sequential_chunked.py``),
fits ``task_s``, ``unit_ns``, ``file_us`` and ``hold_ns`` to the tasks' CPU seconds
(:func:`~pigtheory.sequential.multiplayer.plan.fit_costs`), and prints for each run the
measured CPU and disk against the plan's (with the run's own chunk size), the fit's error, and
the error with the run left out of the fit. ``--check`` exits 1 if the committed constants are
not the fit's (to 0.5%): records added or changed without refitting. Records of another machine
(a cluster's nodes) give that machine's constants.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pigtheory import Rules  # noqa: E402
from pigtheory.sequential.multiplayer.plan import COSTS, FITTED, fit_costs, plan  # noqa: E402


def runs_of(folder: Path) -> list[dict]:
    """The records' runs: players, goal, chunk and spread, the tasks' CPU, the whole CPU, the disk."""
    out = []
    for path in sorted(folder.glob("seq_*_chunked.json")):
        rec = json.loads(path.read_text())
        ch = rec["chunked"]
        out.append(
            {
                "name": rec["name"],
                "players": rec["rules"]["players"],
                "goal": rec["rules"]["goal"],
                "chunk": ch["chunk"],
                "spread": int(ch.get("spread", 1)),
                "cpu_s": ch["task_cpu_s"],
                "total_cpu_s": rec["measured"]["cpu_s"],
                "disk_bytes": ch["disk_bytes"],
                "workers": max(1, int(ch.get("workers") or 0)),
                "wall_s": rec["measured"]["wall_s"],
            }
        )
    return sorted(out, key=lambda r: (r["players"], r["goal"]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", default=str(ROOT / "analyses" / "records"))
    ap.add_argument("--check", action="store_true", help="exit 1 unless COSTS are the fit's")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    runs = runs_of(Path(args.records))
    costs, errors = fit_costs(runs)
    left_out = [fit_costs(runs[:i] + runs[i + 1 :]) for i in range(len(runs))]
    rows = []
    for i, run in enumerate(runs):
        # the left-out fit's error on this run: its costs, this run's work
        loo_costs = left_out[i][0]
        saved = {k: COSTS[k] for k in FITTED}
        COSTS.update(loo_costs)
        try:
            loo = plan(
                rules=Rules(players=run["players"], goal=run["goal"]),
                chunk=run["chunk"],
                spread=run["spread"],
            )
        finally:
            COSTS.update(saved)
        p = plan(
            rules=Rules(players=run["players"], goal=run["goal"]),
            chunk=run["chunk"],
            workers=run["workers"],
            spread=run["spread"],
        )
        rows.append(
            {
                "run": f"{run['players']}p goal {run['goal']}",
                "chunk": run["chunk"],
                "cpu_s": run["total_cpu_s"],
                "plan_cpu_s": round(p.cpu_hours * 3600, 1),
                "cpu_error": round(p.cpu_hours * 3600 / run["total_cpu_s"] - 1, 3),
                "fit_error": round(errors[i], 3),
                "left_out_error": round(loo.cpu_hours * 3600 / run["total_cpu_s"] - 1, 3),
                "disk_error": round(p.disk_bytes / run["disk_bytes"] - 1, 4),
                "workers": run["workers"],
                "wall_s": run["wall_s"],
                "plan_wall_s": round(p.wall_hours * 3600, 1),
                "files_opened": p.files_opened,
            }
        )
    drift = {k: costs[k] / COSTS[k] - 1 for k in FITTED}
    if args.json:
        print(json.dumps({"fit": costs, "committed": {k: COSTS[k] for k in FITTED}, "runs": rows}, indent=1))
    else:
        print("fit: " + ", ".join(f"{k} {costs[k]:.4g} (committed {COSTS[k]:.4g})" for k in FITTED))
        print(
            "| run | chunk | CPU measured | plan | error | fit error | left out | workers | wall measured | plan "
            "| disk error | files opened (plan) |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(
                f"| {r['run']} | {r['chunk']:,} | {r['cpu_s']:,.1f} s | {r['plan_cpu_s']:,.1f} s | "
                f"{r['cpu_error']:+.0%} | {r['fit_error']:+.0%} | {r['left_out_error']:+.0%} | {r['workers']} | "
                f"{r['wall_s']:,.1f} s | {r['plan_wall_s']:,.1f} s | {r['disk_error']:+.1%} | {r['files_opened']:.3g} |"
            )
    if args.check and any(abs(d) > 0.005 for d in drift.values()):
        print("COSTS are not the records' fit: " + ", ".join(f"{k} {d:+.2%}" for k, d in drift.items()))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
