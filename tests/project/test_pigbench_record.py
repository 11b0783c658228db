"""The stored PigBench leaderboard (``benchmarks/records/pigbench.json``, ``make bench-learners``):
its Monte Carlo numbers agree with the exact ones, the referee re-scores its references, and the
docs page shows the table generated from it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.pigbench_learners import OUT, leaderboard_table  # noqa: E402

RECORD = json.loads(OUT.read_text())


def test_monte_carlo_estimates_bracket_the_exact_scores():
    # every checkpoint of every run: the win-rate study's estimate of exploitability lies within
    # 4 standard errors of the referee's exact number (two independent methods agree)
    rows = [(r["agent"], r["task"], c) for r in RECORD["runs"] for c in r["curve"]]
    assert len(rows) >= 20
    for agent, task, c in rows:
        assert c["exact"] > -1e-12, (agent, task, c)
        assert abs(c["mc"] - c["exact"]) <= 4 * c["mc_se"] + 1e-12, (agent, task, c)
        assert 0.0 <= c["win_vs_bot"] <= 1.0 and c["wall_s"] >= 0.0
    for r in RECORD["runs"]:
        xs = [c["x"] for c in r["curve"]]
        assert xs == sorted(set(xs)), r["agent"]


@pytest.mark.parametrize("name", ["piglet", "pig-20"])
def test_record_references_are_the_referees(name):
    from pigtheory.referee import TASKS

    stored = RECORD["references"][name]
    now = TASKS[name].reference()
    assert stored["best_hold_at_k"] == now["best_hold_at_k"]
    for key in ("optimal_value", "uniform_random", "best_hold_at", "keep_pace_end_race"):
        assert stored[key] == pytest.approx(now[key], abs=1e-12), key


def test_docs_page_shows_the_recorded_leaderboard():
    page = (ROOT / "docs" / "howto" / "pigbench.md").read_text(encoding="utf-8")
    assert leaderboard_table(RECORD) in page
    assert RECORD["load_average_1_5_15_min"]["start"] and RECORD["versions"]["cpus"] >= 1
