"""``make bench`` (``benchmarks/run_all.py``): which benchmarks run, and with which sizes."""

from __future__ import annotations

import ast
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks import run_all  # noqa: E402


def _fake(monkeypatch, mains: dict[str, object]) -> None:
    def load(name):
        return types.SimpleNamespace(main=mains[name.rsplit(".", 1)[-1]])

    monkeypatch.setattr(run_all.importlib, "import_module", load)


@pytest.mark.parametrize("full", [False, True])
def test_each_benchmark_gets_its_sizes(monkeypatch, full):
    got = {}

    def with_argv(argv=None):
        got["argv"] = argv

    def with_quick_flag(argv=None):
        got["flag"] = argv

    def with_quick(quick=False):
        got["quick"] = quick

    def plain():
        got["plain"] = True

    _fake(
        monkeypatch,
        {"bench_a": with_argv, "bench_symmetric": with_quick_flag, "bench_b": with_quick, "bench_c": plain},
    )
    for name in ("bench_a", "bench_symmetric", "bench_b", "bench_c"):
        run_all.run(f"benchmarks.{name}", full)
    assert got == {
        "argv": ["--full"] if full else [],
        "flag": [] if full else ["--quick"],
        "quick": not full,
        "plain": True,
    }


def test_selection_and_skip():
    every = run_all.benchmarks()
    assert "benchmarks.bench_best_response" in every and every == sorted(every)
    assert run_all.benchmarks(["best_response"]) == ["benchmarks.bench_best_response"]
    kept = run_all.benchmarks(None, ["symmetric", "sequential_multiplayer"])
    assert "benchmarks.bench_symmetric" not in kept and "benchmarks.bench_sequential_multiplayer" not in kept
    assert len(kept) == len(every) - 2


def test_main_passes_full_and_skip(monkeypatch, capsys):
    ran = []
    monkeypatch.setattr(run_all, "run", lambda name, full: ran.append((name, full)))
    assert run_all.main(["--full", "--skip", "best_response", "best_response", "bench_guard"]) == 0
    assert ran == [("benchmarks.bench_guard", True)]
    assert run_all.main(["no_such_benchmark"]) == 1


def test_every_benchmark_main_takes_a_size_or_has_one():
    """Every ``main`` takes ``argv`` (``--full``, or ``--quick`` for those listed in
    QUICK_FLAG) or ``quick``, or takes nothing; read from the source, nothing is run."""
    for path in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        tree = ast.parse(path.read_text())
        mains = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main"]
        assert len(mains) == 1, path.name
        names = [a.arg for a in mains[0].args.args]
        assert names in ([], ["argv"], ["quick"]), (path.name, names)
        if path.stem in run_all.QUICK_FLAG:
            assert "--quick" in path.read_text(), path.name
