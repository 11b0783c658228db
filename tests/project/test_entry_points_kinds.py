"""The kinds of bad input of issue 40, each walked over every public entry point and command
line command (the walk and its helpers are :mod:`tests.project.test_entry_points`'): integral floats,
huge finite limits, documented shapes, killed writes, full disks, special files, edited
folders and unreachable schedulers."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from tests.project.test_entry_points import (
    CLI_CASES,
    CLI_VALID,
    OVERRIDE,
    SIZES,
    SMALL,
    VALID,
    _arguments,
    _call,
    _cli_base,
    _refuses_or_accepts,
    _required,
    covered,
    entry_points,
)

# --- the kinds of issue 40: integral floats, huge finite limits, documented shapes ---------


def _int_arguments() -> list[tuple[str, str]]:
    """``(entry, argument)`` where the walk's valid value is a plain int (not a bool)."""
    import pathlib

    tmp = pathlib.Path("/nonexistent")  # the int makers ignore the folder
    out = []
    for entry, fn in covered().items():
        sig = inspect.signature(fn)
        required = {p.name for p in _required(fn)}
        for name in sig.parameters:
            make = OVERRIDE.get(entry, {}).get(name) or (VALID if name in required else SIZES).get(name)
            if make is None or name in ("out", "store", "path", "cache_dir"):
                continue
            value = make(tmp)
            if isinstance(value, int) and not isinstance(value, bool):
                out.append((entry, name))
    return out


INT_CASES = _int_arguments()


def test_the_integer_walk_finds_the_integer_arguments():
    assert ("pigtheory.turn_total", "k") in INT_CASES and len(INT_CASES) >= 10, INT_CASES


@pytest.mark.parametrize("entry, param", INT_CASES, ids=[f"{e}:{a}" for e, a in INT_CASES])
def test_an_integral_float_is_the_integer(entry, param, tmp_path, monkeypatch):
    """Where an int is valid, the same number as a float (``6.0``, ``np.float64(6)``) is
    accepted as it (one converter, :func:`pigtheory.rules.integral`); ``6.5`` is refused with
    a ValueError naming the argument, or accepted where the argument takes any number."""
    monkeypatch.chdir(tmp_path)
    fn = entry_points()[entry]
    base = _arguments(fn, tmp_path, entry)
    good = base[param]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            _call(fn, base)  # the int is valid: the float must be too
        except ValueError:
            pytest.skip("the walk's small arguments are not a valid call here")
        for value in (float(good), np.float64(good)):
            try:
                _call(fn, {**base, param: value})
            except ValueError as exc:  # a clear refusal is allowed (it names the argument)
                assert param in str(exc) and "integer" in str(exc), (entry, str(exc))
            except Exception as exc:  # noqa: BLE001 - the point of the test
                pytest.fail(f"{entry}({param}={value!r}) raised {type(exc).__name__}: {exc}")
        _refuses_or_accepts(entry, fn, {**base, param: good + 0.5}, f"{param}={good + 0.5}", param)


def test_rules_read_integral_floats_as_ints():
    r = Rules(goal=20.0, dice=2.0, players=2.0, die_faces=np.float64(6))
    assert r == Rules(goal=20, dice=2) and all(
        type(getattr(r, f)) is int for f in ("goal", "dice", "players")
    )
    assert hash(r) == hash(Rules(goal=20, dice=2))
    for bad in (20.5, float("nan"), float("inf"), "20", True):
        with pytest.raises(ValueError, match="goal"):
            Rules(goal=bad)


MEMORY_CASES = [e for e, fn in covered().items() if "max_memory" in inspect.signature(fn).parameters]


@pytest.mark.parametrize("entry", MEMORY_CASES)
def test_a_huge_finite_memory_limit_means_no_limit(entry, tmp_path, monkeypatch):
    """``max_memory=1e99`` (and inf, ``"none"``) is no limit: the small call runs as without one."""
    monkeypatch.chdir(tmp_path)
    fn = entry_points()[entry]
    base = _arguments(fn, tmp_path, entry)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            _call(fn, base)
        except ValueError:
            pytest.skip("the walk's small arguments are not a valid call here")
        for limit in (1e99, float("inf"), "none", 10**40):
            _call(fn, {**base, "max_memory": limit})


def test_the_memory_walk_finds_the_solvers():
    assert "pigtheory.simultaneous.best_response" in MEMORY_CASES and len(MEMORY_CASES) >= 8, MEMORY_CASES


POLICY_ARGS = ("policy", "policy_a", "policy_b", "opponent", "opponents")
POLICY_CASES = [
    (e, p) for e, fn in covered().items() for p in inspect.signature(fn).parameters if p in POLICY_ARGS
]


def _same(a, b) -> bool:
    """Two results equal in every array and number they hold (recursively)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        try:  # a table that reads the own score only may be kept in broadcast form
            x, y = np.broadcast_arrays(np.asarray(a), np.asarray(b))
        except ValueError:
            return False
        return np.array_equal(x, y, equal_nan=True)
    if isinstance(a, (int, float, str, type(None))):
        return a == b or (a != a and b != b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    fields = getattr(a, "__dataclass_fields__", None)
    if fields:
        return all(_same(getattr(a, f), getattr(b, f)) for f in fields if f not in ("policy", "name"))
    return True


@pytest.mark.parametrize("entry, param", POLICY_CASES, ids=[f"{e}:{a}" for e, a in POLICY_CASES])
def test_a_documented_shape_is_taken_wherever_the_class_is(entry, param, tmp_path, monkeypatch):
    """A :class:`~pigtheory.StoppingRule` of shape ``(goal, goal)`` (documented: own score and
    turn total) gives what its full-shape twin gives, in every policy-taking entry point
    (or both are refused with a ValueError)."""
    from pigtheory.stopping import StoppingRule

    monkeypatch.chdir(tmp_path)
    fn = entry_points()[entry]
    base = _arguments(fn, tmp_path, entry)
    rules = base.get("rules", SMALL)
    if not isinstance(rules, Rules) or rules.players != 2 or rules.dice != 1:
        pytest.skip("two-player one-die rules only")
    full = StoppingRule.from_policy(hold_at(3), rules)
    two = StoppingRule(full.roll[:, 0, :].copy())
    outcomes = []
    for pol in (full, two):
        value = [pol] if param == "opponents" and isinstance(base[param], list) else pol
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                outcomes.append(("ok", _call(fn, {**base, param: value})))
            except ValueError as exc:
                outcomes.append(("refused", str(exc)))
            except Exception as exc:  # noqa: BLE001 - the point of the test
                pytest.fail(f"{entry}({param}=StoppingRule) raised {type(exc).__name__}: {exc}")
    (k1, r1), (k2, r2) = outcomes
    assert k1 == k2, (entry, outcomes)
    if k1 == "ok":
        assert _same(r1, r2), entry


def _commands_with(option: str) -> list[str]:
    return sorted({c for c, a in CLI_CASES if a == option})


@pytest.mark.parametrize("command", _commands_with("--max-memory"))
def test_every_command_takes_a_huge_memory_limit_as_none(command, tmp_path, monkeypatch, capsys):
    """``--max-memory 1e99`` (and ``none``) runs the command as without a limit."""
    from pigtheory.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    positionals, options = _cli_base(command, "--max-memory")
    argv0 = [command, *(CLI_VALID[p] for p in positionals), *options]
    for limit in ("1e99", "none"):
        assert main([*argv0, "--max-memory", limit]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("command", _commands_with("--goal"))
def test_every_command_reads_an_integral_goal_as_the_integer(command, tmp_path, monkeypatch, capsys):
    """``--goal 6.0`` is ``--goal 6``; ``--goal 6.5`` one line and exit 2."""
    from pigtheory.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    positionals, options = _cli_base(command, "--goal")
    argv0 = [command, *(CLI_VALID[p] for p in positionals), *options]
    assert main([*argv0, "--goal", "6.0"]) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main([*argv0, "--goal", "6.5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--goal" in err and "6.5" in err


# --- issue 40: killed writes, full disks, special files, edited folders, schedulers ---------

OUTPUT_CASES = [(c, a) for c, a in CLI_CASES if a in ("--out", "--output")]
FOLDER_OUTPUTS = {"site", "sweep"}
_KILLED = """
import os, signal, sys
from pigtheory.io import atomic_write
def write(tmp):
    with open(tmp, "w") as f:
        f.write("half")
        f.flush()
    os.kill(os.getpid(), signal.SIGKILL)
atomic_write(sys.argv[1], write)
"""


def _output_argv(command: str, option: str, tmp_path) -> tuple[list[str], object]:
    positionals, options = _cli_base(command, option)
    suffix = ".npz" if command == "symmetric-equilibrium" else ".json"
    target = tmp_path / "out" if command in FOLDER_OUTPUTS else tmp_path / f"result{suffix}"
    if command == "self-play":  # a cycle found, so that the file is written
        options = [o if o != "5" else "500" for o in options]
    argv = [command, *(CLI_VALID[p] for p in positionals), *options, option, str(target)]
    return argv, target


def _temporaries(folder) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*.pigtheory-*.tmp*"))


def test_the_output_walk_finds_the_writers():
    assert len(OUTPUT_CASES) >= 7 and ("sweep", "--out") in OUTPUT_CASES, OUTPUT_CASES


@pytest.mark.parametrize("command, option", OUTPUT_CASES, ids=[f"{c}:{a}" for c, a in OUTPUT_CASES])
def test_a_killed_write_is_cleaned_by_the_next_command(command, option, tmp_path, monkeypatch, capsys):
    """A write killed by SIGKILL leaves its temporary; the next command writing into that
    folder removes it (its process is gone), and leaves none of its own."""
    import subprocess
    import sys

    from pigtheory.cli import main

    if command == "site":
        pytest.skip("the site is built in a new hidden folder of its own, renamed whole onto --out")
    monkeypatch.chdir(tmp_path)
    argv, target = _output_argv(command, option, tmp_path)
    folder = target if command in FOLDER_OUTPUTS else target.parent
    folder.mkdir(exist_ok=True)
    done = subprocess.run([sys.executable, "-c", _KILLED, str(folder / "x.json")], check=False)
    assert done.returncode == -9
    assert len(_temporaries(folder)) == 1  # what a killed write leaves
    assert main(argv) == 0, capsys.readouterr().err
    assert _temporaries(tmp_path) == []


class _FullDisk:
    """``os`` for :mod:`pigtheory.io.atomic` on a disk that fills up during the write."""

    def __getattr__(self, name):
        return getattr(__import__("os"), name)

    @staticmethod
    def chmod(path, mode):
        import errno

        raise OSError(errno.ENOSPC, "No space left on device", str(path))


@pytest.mark.parametrize("command, option", OUTPUT_CASES, ids=[f"{c}:{a}" for c, a in OUTPUT_CASES])
def test_a_full_disk_is_one_line(command, option, tmp_path, monkeypatch, capsys):
    """The disk filling up during any command's write: exit 1, one line saying the disk is
    full and naming the file, no traceback, no temporary left."""
    import pigtheory.io.atomic as atomic
    from pigtheory.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(atomic, "os", _FullDisk())
    argv, _ = _output_argv(command, option, tmp_path)
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 1, err
    errors = [line for line in err.splitlines() if "error" in line]  # (progress lines may come first)
    assert len(errors) == 1 and "disk is full" in errors[0] and "Traceback" not in err, err
    assert err.splitlines()[-1] == errors[0]
    assert _temporaries(tmp_path) == []


POLICY_FILE_CASES = [
    (c, a) for c, a in CLI_CASES if a in ("policy", "policy_a", "policy_b", "--opponent", "opponent")
]


@pytest.mark.parametrize("special", ["folder", "fifo"])
@pytest.mark.parametrize("command, arg", POLICY_FILE_CASES, ids=[f"{c}:{a}" for c, a in POLICY_FILE_CASES])
def test_a_special_file_is_named_for_what_it_is(command, arg, special, tmp_path, monkeypatch, capsys):
    """A folder or a named pipe given where a policy file goes: one line saying which (not
    'no such file'), exit 1 or 2; reading a FIFO never blocks."""
    import os

    from pigtheory.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    path = tmp_path / "policy.json"
    if special == "folder":
        path.mkdir()
    else:
        os.mkfifo(path)
    positionals, options = _cli_base(command, arg)
    if arg in positionals:
        argv = [command, *(str(path) if p == arg else CLI_VALID[p] for p in positionals), *options]
    else:
        argv = [command, *(CLI_VALID[p] for p in positionals), *options, arg, str(path)]
    status = main(argv)
    err = capsys.readouterr().err
    assert status in (1, 2) and err.count("\n") == 1, err
    assert ("folder" if special == "folder" else "FIFO") in err and "no such file" not in err, err


def test_a_sweep_whose_tasks_folder_became_a_file_is_refused(tmp_path, capsys):
    """An edited output folder (``tasks/`` replaced by a file): one line naming it, before work."""
    from pigtheory.cli import main
    from pigtheory.simultaneous.sweeps.resumable import hold_at_table

    out = tmp_path / "sweep"
    assert main(["sweep", "--goals", "6", "--ns", "3", "--out", str(out)]) == 0
    capsys.readouterr()
    import shutil

    shutil.rmtree(out / "tasks")
    (out / "tasks").write_text("not a folder")
    assert main(["sweep", "--goals", "6", "--ns", "3", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tasks" in err and "not a folder" in err, err
    with pytest.raises(ValueError, match="tasks"):
        hold_at_table(goals=[6], ns=[3], out=out)


def test_an_unreachable_scheduler_is_one_line(monkeypatch, capsys):
    """No Dask scheduler at the address: a ValueError naming it within the timeout (Dask's
    own is 30 s), and one line from ``pigtheory sweep --scheduler``."""
    pytest.importorskip("distributed")
    import functools
    import time

    import pigtheory.parallel as parallel
    from pigtheory.cli import main

    t0 = time.perf_counter()
    with pytest.raises(ValueError, match="127.0.0.1:9"), parallel.dask_client("tcp://127.0.0.1:9", timeout=1):
        pass
    assert time.perf_counter() - t0 < 15
    for bad in ("not an address", "ftp://x:1", 8786):
        with pytest.raises(ValueError, match="scheduler"), parallel.dask_client(bad, timeout=1):
            pass
    monkeypatch.setattr(parallel, "dask_client", functools.partial(parallel.dask_client, timeout=1))
    status = main(["sweep", "--goals", "6", "--ns", "3", "--scheduler", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "scheduler" in err, err
