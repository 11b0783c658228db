"""Every name a benchmark reads from a pigtheory module exists: ``make bench`` is not part of
``make test``, so a moved function (``symmetric._solve`` after the family became a package)
would otherwise surface only when someone runs the benchmarks."""

from __future__ import annotations

import ast
import importlib
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "benchmarks").glob("*.py"))


def _modules_bound(tree: ast.Module) -> dict[str, types.ModuleType]:
    """Names the file binds to pigtheory modules at its top level (``import a.b as c``,
    ``from a import b`` where b is a module)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("pigtheory") and a.asname:
                    out[a.asname] = importlib.import_module(a.name)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pigtheory"):
            parent = importlib.import_module(node.module)
            for a in node.names:
                obj = getattr(parent, a.name, None)
                if isinstance(obj, types.ModuleType):
                    out[a.asname or a.name] = obj
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_module_attribute_a_benchmark_reads_exists(path):
    tree = ast.parse(path.read_text())
    modules = _modules_bound(tree)
    missing = sorted(
        {
            f"{node.value.id}.{node.attr} (line {node.lineno})"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and not hasattr(modules[node.value.id], node.attr)
        }
    )
    assert not missing, missing


def test_the_check_sees_a_missing_name():
    tree = ast.parse("from pigtheory.simultaneous import symmetric\nsymmetric._solve(1)\n")
    modules = _modules_bound(tree)
    assert "symmetric" in modules and not hasattr(modules["symmetric"], "_solve")
