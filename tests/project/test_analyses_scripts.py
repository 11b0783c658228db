"""The scripts of analyses/ and paper_figures/: they run as files and as modules without
editing sys.path, the claims report and results.json hold no run timings or measured memory,
the figures no timestamps, the report has a row for every claim, and the scaling measurement
reads each child's own peak memory."""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from analyses._claims import Row, record_table, record_time, recorded_times
from analyses.run_all import report, timings

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "analyses").rglob("*.py")) + sorted((ROOT / "paper_figures").rglob("*.py"))


def test_no_script_edits_sys_path():
    assert [p.relative_to(ROOT) for p in SCRIPTS if "sys.path" in p.read_text()] == []


def test_the_script_folders_are_packages_of_the_checkout_not_of_the_wheel():
    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    assert find["include"] == ["pigtheory*"]
    for folder in {p.parent for p in SCRIPTS}:
        assert (folder / "__init__.py").exists(), folder


@pytest.mark.parametrize(
    "argv", [["analyses/z23/turn_totals.py"], ["-m", "analyses.z23.turn_totals"], ["analyses/z23/limit.py"]]
)
def test_a_script_runs_as_file_or_module_from_any_folder(tmp_path, argv):
    # PYTHONPATH stands for the checkout's .pth file that `make` writes into .venv (the test
    # suite may run from a checkout whose install points elsewhere); the working folder is not
    # the checkout
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PIGTHEORY_CACHE_DIR": str(tmp_path / "cache")}
    if argv[0].endswith(".py"):
        argv = [str(ROOT / argv[0])]
    out = subprocess.run([sys.executable, *argv], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "reproduced" in out.stdout


def test_report_has_every_paper_and_refuses_rows_of_none():
    rows = [
        Row("V.1", "poster", "mean turns", "12.61", "12.61", "reproduced"),
        Row("V.2", "poster", "threshold", "20", "20", "reproduced"),
        Row("Z23.1", "paper", "X_3", "7/36", "7/36", "reproduced"),
    ]
    text = report(rows, {})
    assert "| V.1 |" in text and "| V.2 |" in text and "## Poster" in text
    with pytest.raises(ValueError, match="Q.1"):
        report([*rows, Row("Q.1", "?", "?", "1", "1", "reproduced")], {})


def test_the_committed_report_has_the_poster_rows_and_no_run_timings():
    text = (ROOT / "analyses" / "REPORT.md").read_text()
    assert re.search(r"^\| V\.1 \|", text, re.M) and re.search(r"^\| V\.2 \|", text, re.M)
    timing = re.compile(r"\b\d+(\.\d+)? s\b(?![a-z])|\bseconds\b|\| time \|")
    hits = [line for line in text.splitlines() if timing.search(line)]
    assert hits == []
    # nor measured memory (the scaling table reports the guard's estimate instead)
    assert [line for line in text.splitlines() if re.search(r"\bRSS\b|\bwall s\b|\bCPU s\b", line)] == []


TIMING = re.compile(
    r"\b\d+(\.\d+)? s\b(?![a-z])|\bseconds\b|\bminutes\b|\| time \||\bRSS\b|\bwall s\b|\bCPU s\b"
)
MEMORY = re.compile(r"(\S+ )?\d[\d,.]* ?(MB|GB|MiB|GiB)\b")


def _strings(node):
    if isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)
    elif isinstance(node, str):
        yield node


def test_the_committed_results_hold_no_measured_time_or_memory():
    # results.json is tracked and must regenerate byte for byte on another machine: no run
    # time, no measured memory (the guard's estimate is a formula of the rules, so it may stay)
    data = json.loads((ROOT / "analyses" / "results.json").read_text())
    texts = list(_strings(data))
    assert len(data["claims"]) > 100 and len(texts) > 500
    assert [t for t in texts if TIMING.search(t)] == []
    memory = [m.group(0) for t in texts for m in MEMORY.finditer(t)]
    assert [m for m in memory if not m.startswith("estimated ")] == []
    # the planted measurements a careless script would write are caught
    assert TIMING.search("solved (12.5 s)") and TIMING.search("in 3 seconds")
    assert not MEMORY.match("estimated 1,098 MiB").group(0).startswith("peak")
    assert MEMORY.search("peak 1,200 MB").group(0) == "peak 1,200 MB"


def test_recorded_times_go_to_the_timings_file_only():
    record_time("a solve", 1.25)
    assert ("a solve", 1.25) in recorded_times()
    record_table("Measured things", "| what | s |\n|---|---|\n| x | 0.25 |")
    text = timings({"analyses.z23.limit": 0.5})
    assert "| a solve | 1.25 |" in text and "`analyses.z23.limit`" in text
    assert "## Measured things\n\n| what | s |" in text and "| x | 0.25 |" in text


@pytest.mark.parametrize("symmetric", [False, True])
def test_scaling_counts_are_those_of_the_solve(symmetric):
    # the tracked scaling table counts, it does not time: the states and candidate thresholds
    # of a small solve counted state by state, and the guard's estimate
    from analyses.z23.scaling import counted
    from pigtheory import Rules, hold_at
    from pigtheory.guard import reduced_estimate
    from pigtheory.simultaneous import reduced_best_response

    goal, players = 7, 3
    sol = reduced_best_response(
        [hold_at(2)] * 2, rules=Rules(goal=goal, players=players), symmetric=symmetric
    )
    live = (sol.states < goal).all(axis=1)  # columns where no opponent has won
    candidates = sum(goal - i for i in range(goal) for _ in range(int(live.sum())))
    row = {
        "players": players,
        "goal": goal,
        "solver": "symmetric" if symmetric else "full",
        "states": sol.n_states,
    }
    (out,) = counted([row])
    assert out["candidates"] == candidates
    assert sol.n_states == goal * int(live.sum())
    est = reduced_estimate(Rules(goal=goal, players=players), symmetric=symmetric)
    assert out["memory_mb"] == est.bytes / 2**20


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="VmHWM is Linux only")
def test_scaling_children_report_their_own_peak(tmp_path):
    from analyses.z23._scaling_data import measure

    ballast = np.ones(400 * 2**20 // 8)  # 400 MB resident in the parent
    ballast[::512] += 1
    row = measure(2, 8, False)
    assert row["base_mb"] < 300 and row["peak_mb"] >= row["base_mb"]
    del ballast


def test_figures_draw_rounded_values_not_the_last_bits():
    from paper_figures._common import stable

    x = np.array([[0.524541837161, 3.0e-16], [-2.5, 0.0]])
    ulps = x * (1 + 4 * np.finfo(float).eps)  # what another BLAS kernel or engine might give
    assert not np.array_equal(x, ulps)
    assert np.array_equal(stable(x), stable(ulps)) and stable(x).shape == (2, 2)
    assert stable([0.1234567891234, 123456789012.0]).tolist() == [0.123456789, 123456789000.0]
    assert stable([0.1234567891234], digits=3).tolist() == [0.123]


def _png_chunks(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, i = [], 8
    while i < len(data):
        (n,) = struct.unpack(">I", data[i : i + 4])
        chunks.append(data[i + 4 : i + 8])
        i += 12 + n
    return chunks


STAMPS = (b"/CreationDate", b"/ModDate", b"/Producer", b"/Creator")


def test_figures_carry_no_timestamp_or_software_version(tmp_path, monkeypatch):
    # a date or the matplotlib version in a PNG or PDF changes its bytes on every run or machine
    import matplotlib.pyplot as plt

    from paper_figures import _common

    monkeypatch.setattr(_common, "HERE", tmp_path)
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    png, pdf = _common.save(fig, "probe")
    assert not {b"tIME", b"tEXt", b"iTXt", b"zTXt"} & set(_png_chunks(png.read_bytes()))
    assert not [s for s in STAMPS if s in pdf.read_bytes()]
    # and so are the committed figures
    tracked = sorted((ROOT / "paper_figures").glob("*.p[nd][gf]"))
    assert len(tracked) >= 40
    for path in tracked:
        data = path.read_bytes()
        if path.suffix == ".png":
            assert b"tIME" not in _png_chunks(data) and b"tEXt" not in _png_chunks(data), path.name
        else:
            assert [s for s in STAMPS if s in data] == [], path.name
