"""The plan of a chunked multiplayer equilibrium (:mod:`pigtheory.sequential.multiplayer.plan`): its counts
against brute-force enumeration and the solver's own group lists, its task count against a
chunked solve, and the CLI's ``--plan``."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.cli import main
from pigtheory.jit import compiled
from pigtheory.sequential import equilibrium
from pigtheory.sequential.multiplayer import group_kernels as gk
from pigtheory.sequential.multiplayer.plan import groups_by_sum, plan


def brute_groups(n, g):
    """Rotation classes of n-tuples in 0..g-1 by score sum, enumerated."""
    seen, out = set(), [0] * (n * (g - 1) + 1)
    for t in itertools.product(range(g), repeat=n):
        c = min(t[r:] + t[:r] for r in range(n))
        if c not in seen:
            seen.add(c)
            out[sum(c)] += 1
    return out


@pytest.mark.parametrize(("n", "g"), [(2, 7), (3, 6), (4, 5), (5, 4), (6, 3), (6, 4), (7, 3), (8, 2)])
def test_groups_by_sum_is_the_brute_force_count_and_the_solvers_own(n, g):
    counts = groups_by_sum(n, g)
    assert counts == brute_groups(n, g)
    order, starts = compiled(gk.level_order)(n, g)
    assert counts == np.diff(starts)[::-1].tolist()


def test_plan_counts_tuples_levels_and_tasks_as_a_solve_does(tmp_path):
    rules = Rules(players=4, goal=9)
    p = plan(rules=rules, chunk=10)
    assert p.tuples == 9**4 and p.levels == 4 * 8 + 1
    assert p.groups == sum(brute_groups(4, 9))
    assert p.tasks == sum(math.ceil(c / 10) for c in brute_groups(4, 9))
    eq = equilibrium(rules=rules, store=tmp_path / "s", chunk=10, progress=False)
    assert eq.n_tasks == p.tasks
    on_disk = sum(f.stat().st_size for f in (tmp_path / "s").rglob("*.npy"))
    assert 0.5 * p.disk_bytes < on_disk < 3 * p.disk_bytes  # small stores: .npy headers weigh


def test_more_workers_never_slow_the_plan_and_the_critical_path_bounds_it():
    rules = Rules(players=5, goal=40)
    walls = [plan(rules=rules, workers=w).wall_hours for w in (1, 2, 8, 64, 512)]
    assert all(a >= b for a, b in zip(walls, walls[1:], strict=False))
    p = plan(rules=rules, workers=10**6)
    assert p.wall_hours >= p.critical_path_hours * 0.999
    assert plan(rules=rules, workers=1).wall_hours >= plan(rules=rules).cpu_hours * 0.999


def test_worker_memory_sets_the_chunk_and_a_too_small_one_is_refused():
    rules = Rules(players=4, goal=100)
    small, big = plan(rules=rules, worker_memory="1G"), plan(rules=rules, worker_memory="4G")
    assert small.chunk < big.chunk and big.worker_memory_bytes <= 4 * 2**30
    assert small.worker_memory_bytes <= 2**30
    with pytest.raises(ValueError, match="worker_memory"):
        plan(rules=rules, worker_memory="10M")
    # 5 players to 100: one score sum of rank table and rows is over 4 GiB (refused in 4 GiB)
    with pytest.raises(ValueError, match="rank tables"):
        plan(rules=Rules(players=5, goal=100), worker_memory="4G")
    assert plan(rules=Rules(players=5, goal=100)).index_bytes > 4 * 2**30
    with pytest.raises(ValueError, match="workers"):
        plan(rules=rules, workers=0)


def test_cli_plan_prints_without_solving(capsys):
    assert main(["sequential", "--players", "5", "--goal", "100", "--plan", "--workers", "64", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tuples"] == 10**10 and out["levels"] == 496 and out["workers"] == 64
    assert main(["sequential", "--players", "6", "--goal", "100", "--plan"]) == 0
    assert "critical path" in capsys.readouterr().out


def test_cli_store_with_worker_memory_solves_in_the_plans_chunks(tmp_path, capsys):
    """``--store --worker-memory`` runs the tasks the plan counts for workers of that size (not
    the default chunks), with the in-memory solve's start values."""
    rules = Rules(players=4, goal=10)
    args = ["sequential", "--players", "4", "--goal", "10", "--json"]
    small = plan(rules=rules, worker_memory="300M")
    assert small.chunk != plan(rules=rules).chunk and small.tasks != plan(rules=rules).tasks
    assert main(args + ["--store", str(tmp_path / "s"), "--worker-memory", "300M"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tasks"] == small.tasks
    assert out["start_values"] == equilibrium(rules=rules, progress=False).start_values.tolist()
    assert main(args + ["--worker-memory", "300M"]) == 2  # neither --plan nor --store
    assert "--worker-memory" in capsys.readouterr().err


@pytest.mark.parametrize("size", ["banana", "-1G", "0", "1K"])
def test_cli_store_with_a_hostile_worker_memory_stops_before_any_work(tmp_path, capsys, size):
    """A size that is not one, or a worker too small for one task: exit 2 with one line naming
    --worker-memory or worker_memory, and no store folder made."""
    store = tmp_path / "s"
    args = ["sequential", "--players", "4", "--goal", "10", "--store", str(store), "--worker-memory", size]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "worker_memory" in err.replace("-", "_") and "Traceback" not in err
    assert not store.exists()


def test_chunked_array_checks_its_memory_limit(tmp_path):
    eq = equilibrium(rules=Rules(players=3, goal=6), store=tmp_path / "s", progress=False)
    with pytest.raises(ValueError, match="max_memory"):
        eq.array("value", max_memory="banana")
    from pigtheory.guard import MemoryLimitError

    with pytest.raises(MemoryLimitError, match="value array"):
        eq.array("value", max_memory=1000)
    assert eq.array("value", max_memory="1G").shape == (6, 6, 6, 3)
