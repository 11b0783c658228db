"""Packaging: the wheel holds pigtheory alone with its licence and citation, Dask is an optional
extra that nothing else needs, the lock file pins every dependency of the dev install, and
(slow) the wheel built from the tracked files lists one top-level package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest
import setuptools
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_wheel_holds_pigtheory_alone():
    find = PROJECT["tool"]["setuptools"]["packages"]["find"]
    packages = setuptools.find_packages(str(ROOT), include=find["include"])
    assert "pigtheory" in packages and "pigtheory.simultaneous" in packages
    assert {p.split(".")[0] for p in packages} == {"pigtheory"}
    # the checkout's script packages exist but stay out of it
    assert (ROOT / "analyses" / "__init__.py").exists() and (ROOT / "paper_figures" / "__init__.py").exists()


def test_licence_and_citation_travel_with_the_wheel():
    project = PROJECT["project"]
    assert project["license"] == "MIT"
    assert set(project["license-files"]) == {"LICENSE", "CITATION.cff"}
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert "license: MIT" in (ROOT / "CITATION.cff").read_text()


def _names(reqs: list[str]) -> set[str]:
    return {canonicalize_name(Requirement(r).name) for r in reqs}


def test_dask_is_an_extra_of_its_own_and_of_dev():
    extras = PROJECT["project"]["optional-dependencies"]
    assert "dask" not in _names(PROJECT["project"]["dependencies"])
    assert _names(extras["dask"]) == {"dask"} and "distributed" in Requirement(extras["dask"][0]).extras
    assert extras["dask"][0] in extras["dev"]


def test_the_lock_pins_every_dependency_of_the_dev_install_within_its_range():
    pins = {}
    for line in (ROOT / "requirements" / "dev.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    wanted = [
        Requirement(r)
        for r in PROJECT["project"]["dependencies"] + PROJECT["project"]["optional-dependencies"]["dev"]
    ]
    missing = [str(r) for r in wanted if canonicalize_name(r.name) not in pins]
    assert missing == [], "requirements/dev.lock is stale: run `make lock`"
    outside = [
        str(r) for r in wanted if not r.specifier.contains(pins[canonicalize_name(r.name)], prereleases=True)
    ]
    assert outside == [], "requirements/dev.lock is stale: run `make lock`"
    assert "pigtheory" not in pins


NO_DASK = textwrap.dedent(
    """
    import importlib, pkgutil, sys
    from concurrent.futures import ThreadPoolExecutor

    class Block:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("dask", "distributed"):
                raise ModuleNotFoundError(f"No module named {name!r}")

    sys.meta_path.insert(0, Block())
    import pigtheory
    from pigtheory import Rules
    from pigtheory.parallel import local_cluster, dask_client
    from pigtheory.simultaneous import hold_at_sweep

    for m in pkgutil.walk_packages(pigtheory.__path__, "pigtheory."):
        if not m.name.endswith("__main__"):  # python -m pigtheory: runs the command line
            importlib.import_module(m.name)
    serial = hold_at_sweep([3, 5], rules=Rules(goal=12))
    with ThreadPoolExecutor(2) as pool:
        pooled = hold_at_sweep([3, 5], rules=Rules(goal=12), executor=pool)
    assert serial.value.tolist() == pooled.value.tolist() and len(serial.value) == 2
    for make in (lambda: local_cluster(1), lambda: dask_client("tcp://127.0.0.1:1")):
        try:
            with make():
                pass
        except ImportError as exc:
            assert "pigtheory[dask]" in str(exc), exc
        else:
            raise AssertionError("no ImportError")
    assert not any(n.split(".")[0] in ("dask", "distributed") for n in sys.modules)
    print("ok")
    """
)


def test_pigtheory_works_without_dask_and_names_the_extra_for_a_cluster(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PIGTHEORY_CACHE_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", NO_DASK], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


@pytest.mark.parametrize("argv", [["sweep", "--ns", "3", "--goals", "10", "--workers", "1"]])
def test_the_command_line_names_the_extra_without_dask(tmp_path, argv):
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('dask', 'distributed'):\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from pigtheory.cli import main\n"
        f"raise SystemExit(main({argv!r}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PIGTHEORY_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode != 0
    assert "pigtheory[dask]" in out.stderr


@pytest.mark.slow
def test_the_built_wheel_lists_one_top_level_package(tmp_path):
    # build from a copy of the tracked files, so that no build/ or egg-info of the checkout (whose
    # stale modules setuptools would pack) takes part and the checkout is left untouched
    try:
        files = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout.split(b"\0")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    src = tmp_path / "src"
    for name in filter(None, files):
        path = ROOT / os.fsdecode(name)
        if path.is_file():
            (src / os.fsdecode(name)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, src / os.fsdecode(name))
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(src)],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0 and "No matching distribution found for setuptools" in out.stderr:
        pytest.skip("no package index for the build backend")
    assert out.returncode == 0, out.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("pigtheory-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = z.read(f"{info}/METADATA").decode()
        entry_points = z.read(f"{info}/entry_points.txt").decode()
    assert {n.split("/")[0] for n in names} == {"pigtheory", info}
    # exactly the tracked modules and data of pigtheory, nothing else of the checkout
    tracked = {os.fsdecode(n) for n in files if n.startswith(b"pigtheory/")}
    assert {n for n in names if not n.startswith(info)} == tracked
    assert {f"{info}/licenses/LICENSE", f"{info}/licenses/CITATION.cff"} <= set(names)
    assert "License-Expression: MIT" in metadata
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert [r for r in requires if "dask" in r and "extra ==" not in r] == []
    assert "pigtheory = pigtheory.cli:main" in entry_points
