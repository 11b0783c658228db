"""A catalogue of bad (and big) inputs, run against two versions of pigtheory: what a new user
gets for each, through the Python API and through the command line.

Usage::

    git archive d85ef72 | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    python benchmarks/bad_inputs.py --before /tmp/before [--after .] [--only SUBSTRING]

Each case runs in a fresh process (the version's folder first on ``PYTHONPATH``, a scratch
working folder, a scratch cache, address space capped at ``--memory`` GiB, ``--timeout``
seconds) and its outcome is one of:

* ``clear error``: a ``ValueError`` (API), or a non-zero exit without a traceback (CLI); for
  the cases of damaged files, the message must also give the reason (the line, the field or
  what is wrong: each such case has a pattern), else the outcome is ``unclear error``;
* ``traceback``: another exception (API: ``TypeError``, ``KeyError``, ...), or a traceback on
  stderr (CLI);
* ``silent wrong``: no error where there should be one (the case lists why it is wrong);
* ``memory``: ``MemoryError``, killed, or still running at the timeout (it was growing);
* ``works``: the case asks for something that should work (a file format, an option) and it
  does; where it should work and gives a clear error instead, that is counted as ``refused``.

The script prints the count of each outcome before and after, for the API and the CLI, and
every case with its two outcomes. It is not a test (it needs the old tree) and not a
benchmark run by ``make bench``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIG = "1000000"


@dataclass(frozen=True)
class Case:
    id: str
    surface: str  # "api" or "cli"
    what: str
    run: str | tuple[str, ...]  # API: Python code; CLI: argv ({d} is the folder of the inputs)
    expect: str = "error"  # "error" or "works"
    reason: str = ""  # a clear error's message matches this (case-insensitive regex), if given


FILES = {
    "missing.json": "a missing file", "empty.json": "JSON {}", "malformed.json": "malformed JSON",
    "list.json": "a JSON list", "nan.json": "JSON with NaN", "ragged.csv": "a ragged CSV",
    "float.csv": "a CSV with 1.5", "nan.csv": "a CSV with nan", "headered.csv": "a CSV with a foreign header",
    "semicolon.csv": "a semicolon CSV", "fake.npy": "a fake .npy", "cut.npy": "a truncated .npy",
    "huge.npy": "a .npy claiming 8 TB", "zeros.npy": "a table of zeros", "small.npy": "a 3 x 3 table",
    "floats.npy": "a table of 2.5s", "folder.csv": "a folder", "junk.npz": "junk as .npz",
    "goal5.json": "a table for goal 5",
}  # fmt: skip
REASONS = {
    "missing.json": "no such file|not found|does not exist", "empty.json": "kind", "malformed.json": "line",
    "list.json": "object", "nan.json": "nan", "ragged.csv": "line", "float.csv": "1\\.5", "nan.csv": "nan",
    "headered.csv": "column|header", "semicolon.csv": ";", "fake.npy": "npy|numpy", "cut.npy": "truncated|holds",
    "huge.npy": "truncated|holds|memory", "zeros.npy": "threshold", "small.npy": "shape", "floats.npy": "integer",
    "folder.csv": "folder|not a file|directory", "junk.npz": "zip|npz|pigtheory file", "goal5.json": "goal 5|shape",
}  # fmt: skip


def _api() -> list[Case]:
    c = []

    def add(what: str, code: str, expect: str = "error", reason: str = "") -> None:
        c.append(Case(f"A{len(c) + 1:02d}", "api", what, code, expect, reason))

    for arg in ["goal=0", "goal=-1", "goal=1.5", "goal='100'", "players=1", "die_faces=1", "bust_face=7",
                "dice=3", "double_trouble=True", "face_points=(1, 2)", "goal=True"]:  # fmt: skip
        add(f"Rules({arg})", f"Rules({arg})")
    for n in ["0", "-3", "2.5", "'25'", "None"]:
        add(f"hold_at({n})", f"hold_at({n})")
    for k in ["0", "-1", "2.5", "'3'"]:
        add(f"turn_total({k})", f"turn_total({k})")
    add("turn_total(10**12)", "turn_total(10**12)")
    add("turn_total of Double Trouble", "turn_total(3, rules=Rules(dice=2, double_trouble=True))")
    br = "S.best_response(hold_at(25)"
    for kw in ["method='x'", "tol=0", "tol=float('nan')", "max_iter=0", "engine='gpu'", "rules='goal 100'",
               "rules=Rules(dice=2)", "progress='yes'", "strategies='all'"]:  # fmt: skip
        add(f"best_response({kw})", f"{br}, {kw})")
    add("best_response of a table of zeros", "S.best_response(np.zeros((100, 100), int))")
    add("best_response of a 3 x 3 table", "S.best_response(np.ones((3, 3), int))")
    add("best_response of a string", "S.best_response('hold at 25')")
    add("best_response, 2 opponents for 2 players", "S.best_response([hold_at(25)] * 2)")
    add("best_response, goal 10^6", f"{br}, rules=Rules(goal={BIG}))")
    add("best_response, 5 players", "S.best_response([hold_at(25)] * 4, rules=Rules(players=5))")
    add("best_response, 50 players", "S.best_response([hold_at(25)] * 49, rules=Rules(players=50))")
    add("win_probability, goal 10^6", f"S.win_probability(hold_at(25), hold_at(25), rules=Rules(goal={BIG}))")
    add("win_probability, 3 policies for 2 players", "S.win_probability(hold_at(25), [hold_at(1)] * 2)")
    add(
        "mixed weights summing to 0.9",
        "S.win_probability(MixedPolicy(np.full((1, 1, 1), 25), np.full((1, 1, 1), 0.9)), hold_at(25))",
    )
    add(
        "mixed negative weights",
        "S.win_probability(MixedPolicy(np.full((1, 1, 2), 25), np.array([[[1.5, -0.5]]])), hold_at(25))",
    )
    add("equilibrium, goal 10^6", f"S.equilibrium(rules=Rules(goal={BIG}))")
    add("equilibrium, 3 players", "S.equilibrium(rules=Rules(players=3))")
    add("equilibrium(tol=-1)", "S.equilibrium(tol=-1)")
    add("limit(n_max=10**7)", "S.limit(n_max=10**7)")
    add("limit(n_max=1)", "S.limit(n_max=1)")
    add("limit(n_max=2.5)", "S.limit(n_max=2.5)")
    add("stackelberg, goal 10^4", "S.stackelberg(rules=Rules(goal=10**4))")
    add("stackelberg(method='x')", "S.stackelberg(method='x')")
    add("self_play, goal 10^5", "S.self_play(rules=Rules(goal=10**5))")
    add("self_play(max_iter=0)", "S.self_play(max_iter=0)")
    add("self_play(order='up')", "S.self_play(order='up')")
    add("exploitability, goal 10^6", f"S.exploitability(hold_at(25), rules=Rules(goal={BIG}))")
    add(
        "reduced_best_response, 8 players",
        "S.reduced_best_response([hold_at(25)] * 7, rules=Rules(players=8))",
    )
    add("hold_at_sweep, goal 10^6", f"S.hold_at_sweep(range(20, 22), rules=Rules(goal={BIG}))")
    add("sequential.solve, goal 10^6", f"Q.solve(rules=Rules(goal={BIG}))")
    add("sequential.solve, 3 players", "Q.solve(rules=Rules(players=3))")
    add("sequential.solve(tol=0)", "Q.solve(tol=0)")
    add("sequential.solve, two dice, numba", "Q.solve(rules=Rules(dice=2), engine='numba')")
    add("sequential.compare, goal 10^5", "Q.compare(hold_at(20), hold_at(25), rules=Rules(goal=10**5))")
    add("sequential.compare of a string", "Q.compare('optimal', hold_at(20))")
    add("simulate 10^12 games", "simulate.play_simultaneous([hold_at(25)] * 2, games=10**12)")
    add("simulate 0 games", "simulate.play_simultaneous([hold_at(25)] * 2, games=0)")
    add("game_length, goal 10^5", "length.game_length(hold_at(20), hold_at(25), rules=Rules(goal=10**5))")
    add("load a missing file", "pigtheory.load(d / 'missing.npz')", reason=REASONS["missing.json"])
    add("load junk bytes as .npz", "pigtheory.load(d / 'junk.npz')", reason=REASONS["junk.npz"])
    for name in ("empty.json", "malformed.json", "ragged.csv", "fake.npy", "huge.npy"):
        add(f"load {FILES[name]}", f"pigtheory.load(d / '{name}')", reason=REASONS[name])
    add("save a policy as .txt", "hold_at(3).save(d / 'p.txt')")
    add(
        "save a policy as CSV, load it back",
        "assert (pigtheory.load(S.best_response(hold_at(3), rules=Rules(goal=9)).save(d / 'br.csv')).table == S.best_response(hold_at(3), rules=Rules(goal=9)).policy).all()",
        "works",
    )
    add(
        "save an equilibrium as JSON, load its mixed policy",
        "assert pigtheory.load(S.equilibrium(rules=Rules(goal=30)).save(d / 'eq.json')).weights.shape[:2] == (30, 30)",
        "works",
    )
    add(
        "save a sequential solution as .npy, compare with it",
        "r = Rules(goal=10); Q.solve(rules=r).save(d / 'roll.npy'); Q.compare(pigtheory.load(d / 'roll.npy'), hold_at(3), rules=r)",
        "works",
    )
    add("max_memory refuses a small solve", f"{br}, rules=Rules(goal=200), max_memory='1K')")
    # issue 40's kinds
    add(
        "Rules(dice=2.0) is Rules(dice=2)",
        "assert Rules(dice=2.0) == Rules(dice=2); Q.solve(rules=Rules(goal=10, dice=2.0))",
        "works",
    )
    add(
        "Rules(goal=100.0), hold_at(25.0)",
        f"{br[: -len('hold_at(25)')]}hold_at(25.0), rules=Rules(goal=100.0))",
        "works",
    )
    add("turn_total(3.0)", "turn_total(3.0)", "works")
    add("max_memory=1e99 is no limit", f"{br}, max_memory=1e99)", "works")
    add("max_memory=inf is no limit", f"{br}, max_memory=float('inf'))", "works")
    add(
        "a StoppingRule of shape (goal, goal)",
        "from pigtheory.stopping import StoppingRule; S.best_response(StoppingRule(np.arange(100) < 20 + 0 * np.arange(100)[:, None]))",
        "works",
    )
    add("load a folder named .npz", "pigtheory.load(d / 'folder.npz')", reason="folder")
    add("load a FIFO named .json", "pigtheory.load(d / 'fifo.json')", reason="fifo|pipe")
    add("load a FIFO named .npz", "pigtheory.load(d / 'fifo.npz')", reason="fifo|pipe")
    add(
        "an unreachable Dask scheduler",
        "from pigtheory.parallel import dask_client\nwith dask_client('tcp://127.0.0.1:9'): pass",
        reason="scheduler|127.0.0.1:9",
    )
    add(
        "a sweep whose tasks/ became a file",
        "import shutil; S.hold_at_table(goals=[6], ns=[3], out=d / 'sw_api'); shutil.rmtree(d / 'sw_api' / 'tasks'); "
        "(d / 'sw_api' / 'tasks').write_text('x'); S.hold_at_table(goals=[6], ns=[3], out=d / 'sw_api')",
        reason="tasks",
    )
    return c


def _cli() -> list[Case]:
    c = []

    def add(what: str, *argv: str, expect: str = "error", reason: str = "") -> None:
        c.append(Case(f"C{len(c) + 1:02d}", "cli", what, argv, expect, reason))

    add("no command")
    add("unknown command", "solve")
    add("--goal 0 (sequential)", "sequential", "--goal", "0")
    add("--goal 0 (compare optimal)", "compare", "optimal", "hold-at-20", "--goal", "0")
    add("--goal 0 (win-probability)", "win-probability", "hold-at-1", "hold-at-1", "--goal", "0")
    add("--goal -5", "best-response", "--opponent", "hold-at-25", "--goal", "-5")
    add("--goal x", "best-response", "--opponent", "hold-at-25", "--goal", "x")
    add("--goal 1.5", "equilibrium", "--goal", "1.5")
    add("--players 1", "win-probability", "hold-at-1", "hold-at-1", "--players", "1")
    add("--piglet --dice 2", "sequential", "--piglet", "--dice", "2")
    add("--piglet --double-trouble", "sequential", "--piglet", "--double-trouble")
    add("--double-trouble --dice 1", "sequential", "--double-trouble", "--dice", "1")
    add("--dice 3", "sequential", "--dice", "3")
    add("equilibrium --show -1", "equilibrium", "--show", "-1")
    add("limit --show 0", "limit", "--show", "0")
    add("limit --show above --n-max", "limit", "--n-max", "10", "--show", "50")
    add("limit --n-max 1", "limit", "--n-max", "1")
    add("best-response --tol 0", "best-response", "--opponent", "hold-at-25", "--tol", "0")
    add("best-response --tol nan", "best-response", "--opponent", "hold-at-25", "--tol", "nan")
    add("best-response --method x", "best-response", "--opponent", "hold-at-25", "--method", "x")
    add("best-response, no opponent", "best-response")
    add(
        "best-response, 1 opponent for 3 players",
        "best-response",
        "--opponent",
        "hold-at-25",
        "--players",
        "3",
    )
    add("self-play --max-iter 0", "self-play", "--max-iter", "0")
    add("turn-total 0", "turn-total", "0")
    add("turn-total -5", "turn-total", "-5")
    add("turn-total x", "turn-total", "x")
    add("hold-at-0", "win-probability", "hold-at-0", "hold-at-1")
    add("hold-at-x", "win-probability", "hold-at-x", "hold-at-1")
    add("win-probability, 1 policy", "win-probability", "hold-at-1")
    add("compare, unknown policy", "compare", "hold-at-4", "sometimes")
    add("compare scoring-turns-0", "compare", "hold-at-4", "scoring-turns-0")
    # resource guard
    add("win-probability --goal 10^6", "win-probability", "hold-at-25", "hold-at-25", "--goal", BIG)
    add("sequential --goal 10^6", "sequential", "--goal", BIG)
    add("equilibrium --goal 10^6", "equilibrium", "--goal", BIG)
    add("limit --n-max 10^7", "limit", "--n-max", "10000000")
    add("best-response, 5 players", "best-response", *["--opponent", "hold-at-25"] * 4, "--players", "5")
    add("best-response, 50 players", "best-response", *["--opponent", "hold-at-25"] * 49, "--players", "50")
    add("stackelberg --goal 10^4", "stackelberg", "--goal", "10000")
    add("self-play --goal 10^5", "self-play", "--goal", "100000")
    add("compare optimal --goal 10^5", "compare", "optimal", "hold-at-20", "--goal", "100000")
    add("exploitability --goal 10^6", "exploitability", "hold-at-25", "--goal", BIG)
    add("turn-total 10^12", "turn-total", "1000000000000")
    add("best-response --goal 10^6", "best-response", "--opponent", "hold-at-25", "--goal", BIG)
    # policy files
    for name, what in FILES.items():
        # a file that records its rules is read at them when the command line sets none (one
        # rule for every command since issue 40): the goal-5 table works at goal 5
        expect = "works" if name == "goal5.json" else "error"
        add(
            f"policy file: {what}",
            "best-response",
            "--opponent",
            f"{{d}}/{name}",
            expect=expect,
            reason=REASONS[name],
        )
    for name in ("missing.json", "empty.json", "malformed.json", "list.json"):
        add(f"exploitability of {FILES[name]}", "exploitability", f"{{d}}/{name}", reason=REASONS[name])
    add(
        "compare: a policy file of goal 5 (read at goal 5)",
        "compare",
        "{d}/goal5.json",
        "hold-at-3",
        expect="works",
    )
    # outputs checked before the solve (a goal too big to solve shows which comes first)
    add("--output x.txt", "best-response", "--opponent", "hold-at-25", "--output", "x.txt", "--goal", BIG)
    add("sequential --out x.txt", "sequential", "--out", "x.txt", "--goal", BIG)
    add("equilibrium --out eq.npy (a mixed policy)", "equilibrium", "--out", "eq.npy", "--goal", BIG)
    add("--out into a file's folder", "stackelberg", "--out", "{d}/ragged.csv/x.json", "--goal", BIG)
    add(
        "--out is a folder",
        "best-response",
        "--opponent",
        "hold-at-25",
        "--out",
        "{d}/folder.csv",
        "--goal",
        BIG,
    )
    add("limit --show 0, n_max 10^7", "limit", "--show", "0", "--n-max", "10000000")
    # what should work
    add("3-player CSV output", "best-response", "--opponent", "hold-at-4", "--opponent", "hold-at-5", "--goal", "8",
        "--players", "3", "--out", "p3.csv", expect="works")  # fmt: skip
    add("sequential --out roll.csv", "sequential", "--goal", "10", "--out", "roll.csv", expect="works")
    add(
        "compare reads a sequential --out file",
        "compare",
        "{d}/roll10.npy",
        "hold-at-4",
        "--goal",
        "10",
        expect="works",
    )
    add(
        "compare reads a threshold table",
        "compare",
        "{d}/hold5_goal20.csv",
        "hold-at-4",
        "--goal",
        "20",
        expect="works",
    )
    add("equilibrium --out eq.json", "equilibrium", "--goal", "20", "--out", "eq.json", expect="works")
    add("best-response --json", "best-response", "--opponent", "hold-at-25", "--json", expect="works")
    add("sequential --json", "sequential", "--goal", "20", "--json", expect="works")
    add("limit --json", "limit", "--n-max", "30", "--json", expect="works")
    add("--version", "--version", expect="works")
    add(
        "--max-memory 64M", "best-response", "--opponent", "hold-at-25", "--max-memory", "64M", expect="works"
    )
    add("best-response reads its own CSV", "best-response", "--opponent", "{d}/br100.csv", expect="works")
    # issue 40's kinds
    add(
        "--max-memory 1e99",
        "best-response",
        "--opponent",
        "hold-at-25",
        "--max-memory",
        "1e99",
        expect="works",
    )
    add("--goal 100.0", "best-response", "--opponent", "hold-at-25", "--goal", "100.0", expect="works")
    add("compare: a folder as a policy file", "compare", "{d}/folder.npz", "hold-at-3", reason="folder")
    add("exploitability: a FIFO as a policy file", "exploitability", "{d}/fifo.json", reason="fifo|pipe")
    add("play --opponent a folder", "play", "--opponent", "{d}/folder.npz", reason="folder")
    add("sweep --scheduler unreachable", "sweep", "--goals", "6", "--ns", "3", "--scheduler", "tcp://127.0.0.1:9",
        reason="scheduler")  # fmt: skip
    return c


CASES = _api() + _cli()

_API_RUNNER = """
import sys, traceback
import numpy as np
from pathlib import Path
import pigtheory
from pigtheory import Rules, hold_at, MixedPolicy, turn_total, simulate, length
from pigtheory import simultaneous as S, sequential as Q
d = Path(sys.argv[1])
try:
    exec(sys.argv[2])
    print("OUTCOME works")
except ValueError as exc:
    print("OUTCOME clear", str(exc)[:300].replace(chr(10), " "))
except MemoryError as exc:
    print("OUTCOME memory", type(exc).__name__)
except Exception as exc:
    print("OUTCOME traceback", type(exc).__name__, str(exc)[:200].replace(chr(10), " "))
"""

_CLI_RUNNER = """
import sys
from pigtheory.cli import main
sys.argv = ["pigtheory", *sys.argv[1:]]
sys.exit(main())
"""


def make_inputs(d: Path, root: Path) -> None:
    """The files the cases name, written with numpy and plain text only (no pigtheory)."""
    import numpy as np

    (d / "empty.json").write_text("{}")
    (d / "malformed.json").write_text('{"kind": "threshold_table", "table": [[1, 2],, ]}')
    (d / "list.json").write_text("[[25, 25], [25, 25]]")
    (d / "nan.json").write_text(
        '{"format": "pigtheory-policy", "version": 1, "kind": "threshold_table", "arrays": {"table": [[NaN]]}}'
    )
    (d / "ragged.csv").write_text("25,25,25\n25,25\n")
    (d / "float.csv").write_text("\n".join(",".join(["1.5"] * 100) for _ in range(100)) + "\n")
    (d / "nan.csv").write_text("\n".join(",".join(["nan"] * 100) for _ in range(100)) + "\n")
    (d / "headered.csv").write_text("a,b\n" + "\n".join(",".join(["25"] * 100) for _ in range(100)) + "\n")
    (d / "semicolon.csv").write_text("\n".join(";".join(["25"] * 100) for _ in range(100)) + "\n")
    (d / "fake.npy").write_bytes(b"this is not numpy")
    np.save(d / "cut.npy", np.full((100, 100), 25))
    (d / "cut.npy").write_bytes((d / "cut.npy").read_bytes()[:-500])
    with open(d / "huge.npy", "wb") as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": "<i8", "fortran_order": False, "shape": (10**6, 10**6)}
        )
    np.save(d / "zeros.npy", np.zeros((100, 100), dtype=np.int64))
    np.save(d / "small.npy", np.ones((3, 3), dtype=np.int64))
    np.save(d / "floats.npy", np.full((100, 100), 2.5))
    (d / "folder.csv").mkdir()
    (d / "folder.npz").mkdir()
    os.mkfifo(d / "fifo.json")
    os.mkfifo(d / "fifo.npz")
    (d / "junk.npz").write_bytes(b"PK\x03\x04 junk")
    goal5 = np.minimum(3, 5 - np.arange(5))[:, None] * np.ones((5, 5), dtype=np.int64)
    (d / "goal5.json").write_text(json.dumps({
        "format": "pigtheory-policy", "version": 1, "kind": "threshold_table",
        "rules": {"goal": 5, "die_faces": 6, "bust_face": 1, "players": 2, "dice": 1, "double_trouble": False, "face_points": None},
        "arrays": {"table": goal5.tolist()},
    }))  # fmt: skip
    # valid inputs, written by the version under test's own command (what a user would have)
    env = _env(root, d)
    for argv in (["sequential", "--goal", "10", "--out", str(d / "roll10.npy")],
                 ["best-response", "--opponent", "hold-at-25", "--out", str(d / "br100.csv")]):  # fmt: skip
        subprocess.run([sys.executable, "-c", _CLI_RUNNER, *argv], env=env, cwd=d, capture_output=True)
    hold5 = np.minimum(5, 20 - np.arange(20))[:, None] * np.ones((20, 20), dtype=np.int64)
    np.savetxt(d / "hold5_goal20.csv", hold5, fmt="%d", delimiter=",")


def _env(root: Path, d: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIGTHEORY")}
    env["PYTHONPATH"] = str(root)
    env["PIGTHEORY_CACHE_DIR"] = str(d / "cache")
    return env


def _limit(gib: float):
    def cap() -> None:
        size = int(gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return cap


def run(case: Case, root: Path, d: Path, timeout: float, gib: float) -> str:
    work = Path(tempfile.mkdtemp(dir=d, prefix=f"{case.id}-"))
    if case.surface == "api":
        cmd = [sys.executable, "-c", _API_RUNNER, str(d), str(case.run)]
    else:
        cmd = [sys.executable, "-c", _CLI_RUNNER, *(a.replace("{d}", str(d)) for a in case.run)]
    try:
        out = subprocess.run(
            cmd,
            env=_env(root, d),
            cwd=work,
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=_limit(gib),
        )
    except subprocess.TimeoutExpired:
        return "memory"
    err = out.stderr
    message = err
    if case.surface == "api":
        line = next((x for x in out.stdout.splitlines() if x.startswith("OUTCOME")), "OUTCOME memory")
        kind, message = line.split()[1], line
        if "MemoryError" in err or out.returncode < 0:
            kind = "memory"
    elif out.returncode < 0 or "MemoryError" in err:
        kind = "memory"
    elif "Traceback" in err:
        kind = "traceback"
    else:
        kind = "works" if out.returncode == 0 else "clear"
    if kind == "works":
        return "works" if case.expect == "works" else "silent wrong"
    if kind == "clear":
        if case.expect == "works":
            return "refused"
        if case.reason and not re.search(case.reason, message, re.IGNORECASE):
            return "unclear error"
        return "clear error"
    return kind


OUTCOMES = ("clear error", "works", "unclear error", "traceback", "silent wrong", "memory", "refused")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="folder of the old version (holds pigtheory/)")
    ap.add_argument(
        "--after", type=Path, default=ROOT, help="folder of the new version (default: this checkout)"
    )
    ap.add_argument("--only", default="", help="run only cases whose id or text contains this")
    ap.add_argument("--timeout", type=float, default=90.0, help="seconds per case (default 90)")
    ap.add_argument("--memory", type=float, default=6.0, help="address space per case, GiB (default 6)")
    ap.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    args = ap.parse_args(argv)
    cases = [c for c in CASES if args.only in c.id or args.only in c.what]
    results: dict[str, dict[str, str]] = {}
    for label, root in (("before", args.before.resolve()), ("after", args.after.resolve())):
        d = Path(tempfile.mkdtemp(prefix=f"bad-inputs-{label}-"))
        make_inputs(d, root)
        with ThreadPoolExecutor(args.jobs) as pool:
            outcomes = list(pool.map(lambda c, r=root, d=d: run(c, r, d, args.timeout, args.memory), cases))
        results[label] = {c.id: o for c, o in zip(cases, outcomes, strict=True)}
    print(
        f"{len(cases)} cases: {sum(c.surface == 'api' for c in cases)} API, {sum(c.surface == 'cli' for c in cases)} CLI\n"
    )
    print("| outcome | API before | API after | CLI before | CLI after |")
    print("|---|---|---|---|---|")
    for outcome in OUTCOMES:
        counts = []
        for surface in ("api", "cli"):
            for label in ("before", "after"):
                counts.append(
                    sum(1 for c in cases if c.surface == surface and results[label][c.id] == outcome)
                )
        print(f"| {outcome} | " + " | ".join(str(n) for n in counts) + " |")
    print("\n| id | input | before | after |")
    print("|---|---|---|---|")
    for c in cases:
        b, a = results["before"][c.id], results["after"][c.id]
        mark = "" if b == a else " *"
        print(f"| {c.id} | {c.what} | {b} | {a}{mark} |")
    bad = Counter(
        results["after"][c.id] for c in cases if results["after"][c.id] not in ("clear error", "works")
    )
    print(f"\nafter: {sum(bad.values())} cases neither a clear error nor working: {dict(bad)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
