"""The one compile idiom (:mod:`pigtheory.jit`): every numba use of the package goes through it,
parallel kernels get ``numba.prange``, a twin's name follows the source of every kernel it
reaches, so numba's disk cache never serves a caller compiled against an old callee, and a
callee is compiled into its callers' machine code once, for non-literal argument types."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from pigtheory import Rules, jit
from pigtheory.simultaneous.core.step import band_of, threshold_step, threshold_step_inline

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "pigtheory"


def numba_uses(source: str) -> list[str]:
    """Imports of numba (``import numba``, ``from numba... import``) and names ``njit`` in
    ``source``, as ``line: what``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [f"{node.lineno}: import {a.name}" for a in node.names if a.name.split(".")[0] == "numba"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numba":
            out.append(f"{node.lineno}: from {node.module}")
        elif isinstance(node, ast.Name) and node.id == "njit":
            out.append(f"{node.lineno}: njit")
    return out


def test_the_scan_finds_a_planted_numba_use():
    planted = "def f():\n    from numba.typed import List\n    import numba as nb\n    return njit\n"
    assert numba_uses(planted) == ["2: from numba.typed", "3: import numba", "4: njit"]
    assert numba_uses("x = 'from numba import njit'  # a string, not an import\n") == []


def test_every_numba_use_goes_through_pigtheory_jit():
    found = {
        str(path.relative_to(ROOT)): uses
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != PACKAGE / "jit.py" and (uses := numba_uses(path.read_text()))
    }
    assert found == {}
    assert numba_uses((PACKAGE / "jit.py").read_text())  # the one place that does


def test_importing_the_solvers_does_not_import_numba():
    code = (
        "import sys, pigtheory, pigtheory.sequential, pigtheory.referee, pigtheory.simultaneous, pigtheory.jit;"
        "import pigtheory.sequential.multiplayer.group_kernels, pigtheory.sequential.multiplayer.certificate_kernels;"
        "import pigtheory.sequential.multiplayer.profile_kernels, pigtheory.sequential.pair_kernels, pigtheory.learning;"
        "print('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


@jit.kernel
def _square(x):  # pragma: no cover - compiled
    return x * x


@jit.kernel(parallel=True)
def _sum_of_squares(n, out):  # pragma: no cover - compiled
    """``out[i] = i * i`` for i < n in a parallel loop; returns the sum (a reduction)."""
    total = 0
    for i in prange(n):
        out[i] = _square(i)
        total += out[i]
    return total


@jit.kernel(parallel=True)
def _parallel_squares(n, out):  # pragma: no cover - compiled
    for i in prange(n):
        out[i] = _square(i)


prange = jit.prange  # a kernel's own global name for it, rebound in the twin


def test_prange_is_range_in_python_and_a_parallel_loop_compiled():
    import numba

    n = 1000
    plain, twin = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    assert list(jit.prange(2, 7, 2)) == [2, 4, 6]
    _parallel_squares(n, plain)  # plain Python: prange is range
    compiled = jit.compiled(_parallel_squares)
    compiled(n, twin)
    assert np.array_equal(plain, np.arange(n) ** 2)
    assert np.array_equal(twin, plain)
    assert compiled.targetoptions["parallel"] is True
    assert compiled.py_func.__globals__["prange"] is numba.prange
    inner = compiled.py_func.__globals__["_square"]  # the inner twin: IR linked into its callers
    assert inner is not jit.compiled(_square) and inner.py_func.__code__ is _square.__code__
    if jit.linked():
        with pytest.raises(TypeError, match="inner twin"):
            inner(3)
    assert jit.compiled(_square)(3) == 9
    assert globals()["prange"] is jit.prange  # the module's own globals are not touched
    assert "parallel" not in jit.compiled(_square).targetoptions
    assert jit.compiled(_square).targetoptions["nogil"] is True


prefetch = jit.prefetch  # rebound in the twin, like prange


@jit.kernel(refcount=False)
def _prefetched_sum(a, b):  # pragma: no cover - compiled
    """The sum of a 2-D and a 1-D array, each entry asked for one step ahead."""
    s = 0.0
    for i in range(a.shape[0]):
        if i + 1 < a.shape[0]:
            prefetch(a, i + 1, 0)
            prefetch(b, i + 1, 0)
        for j in range(a.shape[1]):
            s += a[i, j]
        s += b[i]
    return s


def test_prefetch_is_a_hint_that_changes_no_result():
    rng = np.random.default_rng(3)
    a, b = rng.random((40, 7)), rng.random(40)
    assert jit.prefetch(a, 0, 0) is None  # plain Python: nothing
    want = _prefetched_sum(a, b)
    twin = jit.compiled(_prefetched_sum)
    assert twin(a, b) == want
    # the twin calls numba's intrinsic (LLVM's llvm.prefetch); the module keeps the plain one
    assert type(twin.py_func.__globals__["prefetch"]).__name__ == "_Intrinsic"
    assert globals()["prefetch"] is jit.prefetch


def test_a_parallel_reduction_gives_the_plain_sum():
    n = 500
    plain, twin = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    total = _sum_of_squares(n, plain)
    assert total == sum(i * i for i in range(n)) == plain.sum()
    assert jit.compiled(_sum_of_squares)(n, twin) == total
    assert np.array_equal(twin, plain)


@jit.kernel(refcount=False)
def _uncounted_total(a, b, out):  # pragma: no cover - compiled
    """``out[:] = a + b`` through views (no reference counted), and the sum of the squares of
    ``out`` through a counted kernel that allocates; returns ``(sum of out, that sum)``."""
    x, y, z = a[1:], b[1:], out[1:]
    out[0] = a[0] + b[0]
    for i in range(z.shape[0]):
        z[i] = x[i] + y[i]
    return out.sum(), _counted_squares(out)


@jit.kernel
def _counted_squares(v):  # pragma: no cover - compiled
    w = np.empty(v.shape[0])  # an allocation: needs reference counting
    for i in range(v.shape[0]):
        w[i] = v[i] * v[i]
    return w.sum()


@jit.kernel(refcount=False)
def _uncounted_alloc(n):  # pragma: no cover - compiled
    x = np.zeros(n)
    return x.sum()


@jit.kernel(refcount=False)
def _uncounted_view(a):  # pragma: no cover - compiled
    return a[1:], a.shape[0]


def test_an_uncounted_kernel_gives_the_plain_results_and_refuses_what_needs_counting():
    """refcount=False: the same numbers as plain Python, called many times (the arrays stay
    alive and intact); a counted callee keeps counting (its allocation works); an uncounted
    kernel that allocates does not compile, one that returns a view is refused (linked)."""
    rng = np.random.default_rng(0)
    a, b = rng.random(50), rng.random(50)
    plain = np.zeros(50)
    want = _uncounted_total(a, b, plain)
    twin = jit.compiled(_uncounted_total)
    assert twin.targetoptions["_nrt"] is False
    assert jit.compiled(_counted_squares).targetoptions["_nrt"] is True
    for _ in range(1000):
        out = np.zeros(50)
        got = twin(a, b, out)
    np.testing.assert_array_equal(out, plain)
    assert got == pytest.approx(want, rel=1e-12)
    assert got[1] == pytest.approx(float((plain**2).sum()), rel=1e-12)
    with pytest.raises(Exception, match="NRT required|Only accept returning of array"):
        jit.compiled(_uncounted_alloc)(3)
    if jit.linked():
        with pytest.raises(TypeError, match="refcount=False"):
            jit.compiled(_uncounted_view)(a)


def test_kernel_options_are_checked():
    with pytest.raises(ValueError, match="parallel"):
        jit.kernel(parallel="yes")
    with pytest.raises(ValueError, match="refcount"):
        jit.kernel(refcount=0)
    with pytest.raises(ValueError, match="inline"):
        jit.kernel(inline="always")
    with pytest.raises(ValueError, match="count"):
        with jit.threads(0):
            pass
    with pytest.raises(ValueError, match="count"):
        with jit.threads(jit.max_threads() + 1):
            pass


def test_threads_sets_and_restores_numbas_thread_count():
    import numba

    before = numba.get_num_threads()
    with jit.threads(1):
        assert numba.get_num_threads() == 1
    assert numba.get_num_threads() == before


def test_the_digest_covers_callees_in_other_files():
    from pigtheory.sequential.multiplayer import certificate_kernels, group_kernels, profile_kernels

    files = jit._files(certificate_kernels._best_response_range)
    assert files == {certificate_kernels.__file__, group_kernels.__file__}
    assert jit._files(profile_kernels.profile_response_level) == {
        profile_kernels.__file__,
        certificate_kernels.__file__,
        group_kernels.__file__,
    }
    twin = jit.compiled(group_kernels.rotate)
    assert twin.py_func.__qualname__ == f"rotate_{jit._digest(group_kernels.rotate)}"


@jit.kernel
def _ratio(a, b):  # pragma: no cover - compiled
    return a / b


def test_twins_use_numpys_error_model_and_the_digest_follows_the_options(monkeypatch):
    # no divisor test in the machine code: a float division by zero gives inf, not an error
    assert jit.compiled(_ratio)(1.0, 0.0) == np.inf
    with pytest.raises(ZeroDivisionError):
        _ratio(1.0, 0.0)  # the plain function is Python's
    before = jit._digest(_square)
    monkeypatch.setattr(jit, "_OPTIONS", {"error_model": "python"})
    assert jit._digest(_square) != before  # another option: other twin names, no stale cache


CALLEE = """
from pigtheory.jit import kernel

@kernel
def step(x):
    return x + {add}
"""

CALLER = """
from pigtheory.jit import kernel
from callee_mod import step

@kernel
def run(x):
    return step(x) * 10
"""

RUN = """
import sys
sys.path.insert(0, {where!r})
from pigtheory.jit import _digest, compiled
import caller_mod
print(compiled(caller_mod.run)(1), _digest(caller_mod.run))
"""


def test_an_edit_to_a_callee_in_another_file_compiles_the_caller_anew(tmp_path):
    """numba's cache checks only the caller's own file: without the digest in the twin's name
    the second process would load the caller compiled against the old callee (20, not 30)."""
    (tmp_path / "caller_mod.py").write_text(CALLER)

    def run(add: int) -> tuple[int, str]:
        (tmp_path / "callee_mod.py").write_text(CALLEE.format(add=add))
        code = textwrap.dedent(RUN.format(where=str(tmp_path)))
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}  # next to the source
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, env=env
        )
        value, digest = out.stdout.split()
        return int(value), digest

    first, d1 = run(1)
    assert first == 20
    assert any(tmp_path.rglob("*.nbi"))  # the caller was cached on disk
    second, d2 = run(2)
    assert second == 30
    assert d1 != d2


CHAIN = """
from pigtheory.jit import kernel

@kernel
def leaf(k, x):
    return k * x + 1.0

@kernel
def middle(k, x):
    return leaf(k, x) * 2.0

@kernel
def top(x):
    total = middle(0, x)  # a constant argument
    r = 0
    for _ in range(3):
        total += middle(r, x)  # a counter that starts at 0
        r += 1
    return total
"""

CHAIN_RUN = """
import json, sys
sys.path.insert(0, {where!r})
from pigtheory import jit
import chain_mod
twin = jit.compiled(chain_mod.top)
value = twin(1.5)
libraries = jit._numba_classes().IRLibrary
inner = {{}}
for name in ("middle", "leaf"):
    disp = jit._compile(getattr(chain_mod, name), inner=True)
    inner[name] = [
        [str(t) for t in sig] + [isinstance(c.library, libraries), c.library._compiled_object is None]
        for sig, c in disp.overloads.items()
    ]
stats = twin.stats
print(json.dumps([value, chain_mod.top(1.5), inner, sum(stats.cache_hits.values()),
                  sum(stats.cache_misses.values())]))
"""


@pytest.mark.skipif(not jit.linked(), reason="inner twins: numba releases LINKED_NUMBA only")
def test_a_callee_is_compiled_once_into_its_callers_machine_code_and_cached_with_it(tmp_path):
    """The inner twins are typed once, for int64 (not again for the literal 0), stay LLVM IR
    (no machine code of their own), and the caller's disk cache holds their code: a second
    process loads the caller and compiles neither callee."""
    import json

    (tmp_path / "chain_mod.py").write_text(CHAIN)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    code = textwrap.dedent(CHAIN_RUN.format(where=str(tmp_path)))

    def run() -> list:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, env=env
        )
        return json.loads(out.stdout)

    value, plain, inner, hits, misses = run()
    assert value == plain == sum(2.0 * (k * 1.5 + 1.0) for k in (0, 0, 1, 2))
    assert inner == {
        "middle": [["int64", "float64", True, True]],
        "leaf": [["int64", "float64", True, True]],
    }
    assert (hits, misses) == (0, 1)
    value, plain, inner, hits, misses = run()
    assert value == plain
    assert inner == {"middle": [], "leaf": []}  # the cached caller holds their code
    assert (hits, misses) == (1, 0)


def test_map_threads_keeps_the_order_and_the_innermost_count():
    top = jit.max_threads()
    assert jit.thread_count() == top
    with jit.threads(1):
        assert jit.thread_count() == 1
        with jit.threads(top):
            assert jit.thread_count() == top
            assert jit.map_threads(lambda i: i * i, 50) == [i * i for i in range(50)]
        assert jit.thread_count() == 1
        assert jit.map_threads(lambda i: -i, 3) == [0, -1, -2]
    assert jit.thread_count() == top
    assert jit.map_threads(lambda i: i, 0) == []


def test_the_level_solver_gives_the_same_bits_on_one_thread_and_on_chunks():
    """The level solver's chunks (several threads) and one serial call (one thread) write the
    same values, choices, statuses and passes."""
    from pigtheory import Rules
    from pigtheory.sequential.model import roll_model
    from pigtheory.sequential.multiplayer import group_kernels as gk
    from pigtheory.sequential.multiplayer import group_solver as gs

    rules = Rules(goal=14, players=3)
    n, g = rules.players, rules.goal
    model = roll_model(rules)
    turn = gk.Turn(np.ascontiguousarray(model.free_vector(), dtype=float), float(model.p_bust), False, 1e-13)
    order, starts = jit.compiled(gk.level_order)(n, g)
    runs = []
    for count in (1, 2):
        W, bits = np.zeros((g**n, n)), np.zeros((g**n, (g + 7) // 8), dtype=np.uint8)
        status, passes = np.zeros(order.size, dtype=np.int8), 0
        with jit.threads(min(count, jit.max_threads())):
            for L in range(starts.size - 1):
                lo, hi = int(starts[L]), int(starts[L + 1])
                passes += gs.solve_level(order[lo:hi], n, g, turn, gk.Search(60, 3), W, bits, status[lo:hi])
        runs.append((W, bits, status, passes))
    for a, b in zip(*runs, strict=True):
        assert np.array_equal(a, b)
    assert runs[0][3] > order.size  # every group took a pass at least


PLAIN_RUN = """
import json, sys
sys.path.insert(0, {where!r})
from pigtheory import jit
import chain_mod
twin = jit.compiled(chain_mod.top)
middle = twin.py_func.__globals__["middle"]
print(json.dumps([jit.linked(), twin(1.5), chain_mod.top(1.5), middle(2, 1.5), type(twin).__name__]))
"""


def test_plain_numba_dispatchers_when_inner_twins_are_switched_off(tmp_path):
    """``PIGTHEORY_PLAIN_JIT=1`` (and any numba release outside ``LINKED_NUMBA``) compiles every
    twin as numba's own cached dispatcher: the same results, callees callable from Python."""
    import json

    (tmp_path / "chain_mod.py").write_text(CHAIN)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PIGTHEORY_PLAIN_JIT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(PLAIN_RUN.format(where=str(tmp_path)))],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    )
    linked, value, plain, middle, kind = json.loads(out.stdout)
    assert linked is False and kind == "CPUDispatcher"
    assert "RuntimeWarning" not in out.stderr  # numba warns of options it ignores
    assert value == plain == sum(2.0 * (k * 1.5 + 1.0) for k in (0, 0, 1, 2))
    assert middle == 2.0 * (2 * 1.5 + 1.0)


def test_inner_twins_only_with_a_tested_numba(monkeypatch):
    import numba

    monkeypatch.delenv("PIGTHEORY_PLAIN_JIT", raising=False)
    assert jit.linked() == (".".join(numba.__version__.split(".")[:2]) in jit.LINKED_NUMBA)
    monkeypatch.setattr(numba, "__version__", "0.1.0")
    assert not jit.linked()


@jit.kernel(refcount=False)
def _steps_inlined(band, rows, z, tie_tol, vals, best, ks):  # pragma: no cover - compiled
    for i in range(rows.shape[0]):
        best[i], ks[i] = threshold_step_inline(
            band, rows[i], z[i], rows.shape[1] - 8, 0.3, vals, True, tie_tol, vals
        )


@jit.kernel(refcount=False)
def _steps_called(band, rows, z, tie_tol, vals, best, ks):  # pragma: no cover - compiled
    for i in range(rows.shape[0]):
        best[i], ks[i] = threshold_step(
            band, rows[i], z[i], rows.shape[1] - 8, 0.3, vals, True, tie_tol, vals
        )


@pytest.mark.parametrize("faces", [6, 4])
def test_the_inlined_threshold_step_is_the_step(faces):
    """``threshold_step_inline`` (numba inlines it: ``kernel(inline=True)``) runs the code
    of ``threshold_step``: the same values and thresholds, bit for bit, compiled and plain, for
    one die (the fused six-gain loop) and a four-faced one (the general loop)."""
    rules = Rules(goal=40, die_faces=faces)
    band = band_of(rules)
    rng = np.random.default_rng(faces)
    rows = rng.random((200, rules.goal + 8))
    z = rng.random(200)
    out = {}
    for name, fn in (("inlined", _steps_inlined), ("called", _steps_called)):
        for how, run in (("plain", fn), ("compiled", jit.compiled(fn))):
            best, ks, vals = np.zeros(200), np.zeros(200, np.int64), np.zeros(rules.goal + 1)
            run(band, rows, z, 1e-13, vals, best, ks)
            out[name, how] = (best, ks)
    want = out["called", "plain"]
    for key, (best, ks) in out.items():
        np.testing.assert_array_equal(best, want[0], err_msg=str(key))
        np.testing.assert_array_equal(ks, want[1], err_msg=str(key))
    assert jit.compiled(threshold_step_inline).targetoptions.get("inline") == "always"
