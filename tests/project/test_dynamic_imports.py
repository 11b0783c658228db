"""No module imports another through a string across layers, where import-linter cannot see it.

import-linter and grimp read ``import`` statements; ``importlib.import_module(name)`` and
``__import__(name)`` are calls they never see. A dynamic import is allowed only where it is
listed below with its reason; a literal target must not be a higher layer than its importer
(the package root is above every layer); and the tables the lazy packages load from must name
their own submodules only. A planted call in a lower layer must be caught.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "pigtheory"

ALLOWED = {
    "pigtheory": "lazy package attributes (PEP 562): 'import pigtheory' loads neither numpy nor a "
    "solver; the root sits above every layer",
    "pigtheory._lazy": "lazy package attributes of the packages that name their own submodules in "
    "_LAZY (simultaneous, sequential)",
    "pigtheory.envs": "lazy submodules: the environments need optional packages (gymnasium, "
    "pettingzoo, open_spiel) that 'import pigtheory.envs' must not require",
    "pigtheory.cli": "command registration: the pigtheory.cli.* modules of _COMMAND_MODULES (same "
    "layer), imported when the parser is built",
    "pigtheory.io.kinds": "a policy file names its kind; the kind's class (pigtheory.policies, a "
    "layer below) is imported by its registered name, None if this pigtheory lacks it",
    "pigtheory.io.archive": "a result file names its type by module; only modules of pigtheory are "
    "imported (checked first), the type a dataclass of the family",
}


def _layers() -> dict[str, int]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    height = {}
    for h, row in enumerate(reversed(contract["layers"])):
        for name in re.split(r"[:|]", row):
            height[name.strip().strip("()")] = h
    return height


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_dynamic(call: ast.Call) -> bool:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id in ("__import__", "import_module")
    return isinstance(f, ast.Attribute) and f.attr in ("import_module", "__import__")


def _target(call: ast.Call, importer: str, is_package: bool) -> str | None:
    """The absolute module a call imports, when its argument is a literal string (else None)."""
    if not call.args or not isinstance(call.args[0], ast.Constant) or not isinstance(call.args[0].value, str):
        return None
    name = call.args[0].value
    if not name.startswith("."):
        return name
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    level = len(name) - len(name.lstrip("."))
    base = base[: len(base) - (level - 1)]
    return ".".join(base + [name.lstrip(".")]) if name.lstrip(".") else ".".join(base)


def dynamic_import_problems(sources: dict[str, tuple[str, bool]]) -> list[str]:
    """Problems in ``{module: (source, is_package)}``: dynamic imports not allowed, literal ones
    that go up a layer, and allowed entries that no longer have one."""
    height, problems, seen = _layers(), [], set()
    for module, (source, is_package) in sorted(sources.items()):
        for node in ast.walk(ast.parse(source)):
            if not (isinstance(node, ast.Call) and _is_dynamic(node)):
                continue
            seen.add(module)
            where = f"{module}:{node.lineno}"
            if module not in ALLOWED:
                problems.append(f"{where}: a dynamic import not listed in ALLOWED (with its reason)")
                continue
            target = _target(node, module, is_package)
            parts_a, parts_b = module.split("."), (target or "").split(".")
            if target and target.startswith("pigtheory.") and len(parts_a) > 1:
                a, b = height.get(parts_a[1]), height.get(parts_b[1])
                if a is not None and b is not None and b > a:
                    problems.append(f"{where}: imports {target}, a higher layer, by name")
    problems += [f"{m}: listed in ALLOWED but has no dynamic import" for m in sorted(set(ALLOWED) - seen)]
    return problems


def _sources() -> dict[str, tuple[str, bool]]:
    return {
        _module_name(p): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
        for p in sorted(PACKAGE.rglob("*.py"))
    }


def test_every_dynamic_import_is_listed_with_its_reason_and_goes_no_layer_up():
    assert dynamic_import_problems(_sources()) == []
    assert all(len(reason) > 30 for reason in ALLOWED.values())


def test_a_planted_dynamic_import_is_caught():
    sources = _sources()
    text, is_package = sources["pigtheory.results"]
    sources["pigtheory.results"] = (
        text + "\nimport importlib\nimportlib.import_module('pigtheory.io')\n",
        is_package,
    )
    assert any(
        p.startswith("pigtheory.results:") and "not listed" in p for p in dynamic_import_problems(sources)
    )
    text, is_package = sources["pigtheory.io.kinds"]
    sources["pigtheory.io.kinds"] = (text + "\nimportlib.import_module('pigtheory.cli.basic')\n", is_package)
    assert any("pigtheory.io.kinds" in p and "higher layer" in p for p in dynamic_import_problems(sources))
    del sources["pigtheory.cli"]
    assert "pigtheory.cli: listed in ALLOWED but has no dynamic import" in dynamic_import_problems(sources)


@pytest.mark.parametrize(
    ("package", "table"),
    [("pigtheory", "_LAZY"), ("pigtheory", "_SUBMODULES"), ("pigtheory.simultaneous", "_LAZY"),
     ("pigtheory.sequential", "_LAZY"),
     ("pigtheory.cli", "_COMMAND_MODULES")],
)  # fmt: skip
def test_the_lazy_tables_name_only_their_own_submodules(package, table):
    import importlib

    values = getattr(importlib.import_module(package), table)
    names = values.values() if isinstance(values, dict) else values
    for name in names:
        full = name if name.startswith("pigtheory") else f"{package}.{name.lstrip('.')}"
        assert full.startswith(package + "."), (table, name)
        assert importlib.util.find_spec(full) is not None, (table, name)


def test_the_results_reach_the_file_formats_through_the_root_not_by_name(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys\nfrom pigtheory.policies import hold_at\n"
        "assert 'pigtheory.io' not in sys.modules\n"
        f"path = hold_at(3).save({str(tmp_path / 'h.json')!r})\n"
        "assert 'pigtheory.io' in sys.modules\n"
        "print(type(hold_at(3)).load(path) == hold_at(3))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_the_solvers_import_no_runtime_and_no_file_format():
    """``import pigtheory.simultaneous, pigtheory.sequential`` (what a command that solves in
    memory pays) loads neither the out-of-core runtime nor the file formats; the chunked names
    come on first use."""
    import subprocess
    import sys

    code = (
        "import sys\nimport pigtheory.simultaneous, pigtheory.sequential\n"
        "print(sorted(m for m in sys.modules if m.startswith(('pigtheory.runtime', 'pigtheory.io', "
        "'pigtheory.sequential.multiplayer.chunked'))))\n"
        "from pigtheory.sequential import ChunkedEquilibrium, plan\n"
        "print('pigtheory.runtime' in sys.modules, plan.__module__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["[]", "True pigtheory.sequential.multiplayer.plan"]
