"""The package's declared layering (pyproject.toml, ``[tool.importlinter]``) holds: checked by
import-linter itself, and again by a small check of our own on the same import graph (every
import counted, those inside functions too), which must also catch a planted violation."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def _contract(kind: str) -> dict:
    (found,) = [c for c in CONFIG["contracts"] if c["type"] == kind]
    return found


def _layers() -> dict[str, int]:
    """Top-level part of the package -> its layer's height (0 at the bottom)."""
    rows = _contract("layers")["layers"]
    height = {}
    for h, row in enumerate(reversed(rows)):
        for name in re.split(r"[:|]", row):
            height[name.strip().strip("()")] = h
    return height


def _ignored() -> set[tuple[str, str]]:
    out = set()
    for contract in CONFIG["contracts"]:
        for line in contract.get("ignore_imports", []):
            a, b = (x.strip() for x in line.split("->"))
            out.add((a, b))
    return out


def _part(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None  # None: the package root (lazy re-exports)


def layering_problems(graph: grimp.ImportGraph) -> list[str]:
    """Imports that go up a layer, parts of the package in no layer, and cycles between parts."""
    height, ignored = _layers(), _ignored()
    problems, edges = [], {}
    for importer in sorted(graph.modules):
        a = _part(importer)
        if a is None:
            continue
        if a not in height:
            problems.append(f"{importer}: part {a!r} is in no layer")
            continue
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            b = _part(imported)
            if b is None or b == a or (importer, imported) in ignored:
                continue
            edges.setdefault(a, set()).add(b)
            if height[b] > height[a]:
                problems.append(f"{importer} -> {imported}: up from layer {height[a]} to {height[b]}")
    # cycles between parts: depth-first search for a back edge
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                problems.append("cycle: " + " -> ".join(path[path.index(nxt) :] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    return problems


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("pigtheory", cache_dir=None)


def test_import_linter_contracts_are_kept():
    from importlinter.application.use_cases import lint_imports
    from importlinter.configuration import configure

    configure()
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), cache_dir=None, no_logo=True)


def test_our_check_agrees_on_the_same_graph(graph):
    assert layering_problems(graph) == []


def test_the_check_catches_an_upward_import_and_a_cycle(graph):
    graph.add_import(importer="pigtheory.rules", imported="pigtheory.cli.args")
    graph.add_import(importer="pigtheory.sequential.model", imported="pigtheory.length")
    problems = layering_problems(graph)
    assert any(p.startswith("pigtheory.rules -> pigtheory.cli.args: up from layer") for p in problems)
    assert any(p.startswith("cycle:") and "length" in p and "sequential" in p for p in problems)


def test_every_part_of_the_package_has_a_layer():
    package = ROOT / "pigtheory"
    parts = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    parts |= {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    height = _layers()
    assert parts <= set(height), sorted(parts - set(height))
    # the declared order: domain < files and runtime < solvers < applications
    assert height["rules"] < height["policies"] < height["io"] < height["simultaneous"] < height["cli"]
    assert height["guard"] < height["engine"] == height["parallel"] < height["length"] == height["sequential"]
    assert height["play"] == height["plots"] > height["simulate"]


MAX_LINES = 500
"""Issue 36: no module of the package over this many lines (split a family's module, do not
grow it)."""


def test_no_module_is_over_500_lines():
    sizes = {
        str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in (ROOT / "pigtheory").rglob("*.py")
    }
    assert len(sizes) > 100  # the walk found the package
    assert {p: n for p, n in sizes.items() if n > MAX_LINES} == {}
