"""The one way pigtheory compiles its loops (numba): mark a plain function, ask for its twin.

A *kernel* is a plain Python function marked with :func:`kernel`: it runs as is (the
interpreted engines and the tests call it directly) and :func:`compiled` returns its compiled
twin, a numba dispatcher like ``numba.njit(cache=True, nogil=True)``. Every kernel it calls by
global name (another marked function, in any module) gets an *inner twin*, bound into the
twin's globals, so the plain functions stay plain and no module global is rebound.

Inner twins keep the compile time linear in the depth of the calls. Numba's own way compiles
every jitted callee into a library of its own (optimized, and turned into machine code) and
links a copy of that code into each caller, which optimizes it and generates machine code for
it again: along a chain of d kernels the innermost is compiled d times (the symmetric solver's
chains are 8 deep). An inner twin is typed and lowered to LLVM IR only, for argument types
without literal values (a constant argument, or a counter that starts at 0, would otherwise
compile a second specialisation of the callee and of everything it calls); the twin that
:func:`compiled` returns links the IR of all the kernels it reaches, optimizes it (numba's
module passes, run twice over the whole) and generates its machine code once, which numba's
disk cache then keeps. The first symmetric equilibrium of a fresh clone (4 players, goal 40)
compiles in 37 s of CPU instead of 106 s; the machine code is as fast. Inner twins are not
cached on disk (a cached caller holds their code) and cannot be called from Python. They rest
on numba's internals, so they are used only with the numba releases they are tested with
(:func:`linked`); with any other, or with ``PIGTHEORY_PLAIN_JIT=1``, every twin is a plain
``numba.njit`` dispatcher (the same results, a slower first compile).

A kernel marked ``@kernel(parallel=True)`` is compiled with ``parallel=True``; its parallel
loops are written ``for i in prange(n)`` with the :func:`prange` of this module, which is
``range`` in plain Python and ``numba.prange`` in the twin. A parallel kernel costs much more
to compile than a serial one: numba optimizes everything it calls again, twice (the loop body
and the driver). A heavy loop is therefore better a serial kernel run on chunks by
:func:`map_threads` (the twins release the GIL, ``nogil=True``): compiled once, and the same
machine code on one thread or many.

A kernel may call :func:`prefetch` (``a[i, j]`` wanted soon): nothing in plain Python, a
prefetch instruction in the twin. The symmetric solver asks for the next state's scattered
per-column entries while it solves the current one, so that their cache misses overlap.

A kernel marked ``@kernel(refcount=False)`` is compiled without numba's reference counting
(numba's ``_nrt=False``). A compiled kernel counts a reference to every array it takes when
it starts and releases it when it returns (two atomic operations per array, per call, in any
function that branches), and to every view it takes: in a small kernel called millions of times
with a dozen arrays (the symmetric solver's per-view step) that is a sixth of the time. A
kernel whose arrays are all held by its caller for the whole call needs none of it, so the
mark is for leaf kernels that neither allocate (numba refuses to compile an allocation without
reference counting) nor return or store an array (a returned view would reach its caller
uncounted: numba refuses a returned array, the twin a returned tuple that holds one). The
kernels it calls count as usual.

A kernel marked ``@kernel(inline=True)`` is inlined by numba where it is called (numba's
``inline="always"``: its code joins the caller's before typing, so the caller does not pass its
arguments, records included, through a call at every use). The shared threshold step is called
once per state in the n-player column solver, and through the call that solver took 1.4x the
time; :func:`~pigtheory.simultaneous.core.step.threshold_step_inline` is the same code marked
so (:func:`inlined`). Inlined into a kernel that counts references, its slices are counted too (slower than the
call), so the mark is for callees of kernels marked ``refcount=False``.

Numba's disk cache (``cache=True``) checks only the source file of the function it compiles;
a twin's name therefore carries a digest of the source files of every kernel it reaches (and
of the compile options, ``_OPTIONS``), so that an edit to a callee in another file
compiles its callers anew instead of loading stale machine code. Numba is imported on the first :func:`compiled` call (or :func:`threads`) and
nowhere else in the package: importing pigtheory never imports it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FunctionType
from typing import Any, TypeVar, cast, overload

__all__ = [
    "kernel",
    "inlined",
    "compiled",
    "linked",
    "LINKED_NUMBA",
    "prange",
    "prefetch",
    "max_threads",
    "threads",
    "thread_count",
    "map_threads",
    "typed_list",
]

F = TypeVar("F", bound=Callable[..., Any])

_MARK = "__pigtheory_kernel__"  # the attribute's value: the kernel's numba options
_LOCK = threading.RLock()
_TWINS: dict[tuple[str, str, bool], Any] = {}


@overload
def kernel(fn: F, /) -> F: ...


@overload
def kernel(*, parallel: bool = False, refcount: bool = True, inline: bool = False) -> Callable[[F], F]: ...


def kernel(fn: Any = None, /, *, parallel: bool = False, refcount: bool = True, inline: bool = False) -> Any:
    """Mark ``fn`` as a kernel: compilable by :func:`compiled`, callable as plain Python.

    Used bare (``@kernel``) or with options (``@kernel(parallel=True)``: the twin is compiled
    with numba's ``parallel=True`` and :func:`prange` becomes ``numba.prange`` in it;
    ``@kernel(refcount=False)``: the twin counts no array references, for leaf kernels that
    neither allocate nor return an array; ``@kernel(inline=True)``: numba inlines the twin
    where it is called; module Notes).

    Raises
    ------
    ValueError
        ``parallel``, ``refcount`` or ``inline`` is not True or False.
    """
    if not isinstance(parallel, bool):
        raise ValueError(f"parallel must be True or False, got {parallel!r}")
    if not isinstance(refcount, bool):
        raise ValueError(f"refcount must be True or False, got {refcount!r}")
    if not isinstance(inline, bool):
        raise ValueError(f"inline must be True or False, got {inline!r}")

    def mark(f: F) -> F:
        setattr(f, _MARK, {"parallel": parallel, "refcount": refcount, "inline": inline})
        return f

    return mark if fn is None else mark(fn)


def inlined(fn: Callable[..., Any], name: str, **callees: Any) -> Any:
    """A twin of the kernel ``fn`` (the same code object) marked ``refcount=False, inline=True``
    under ``name`` in ``fn``'s module, its calls by global name to the kernels named in
    ``callees`` going to those instead (their inlined twins): for the hot loop of a kernel
    marked ``refcount=False`` (module Notes), while ``fn`` itself stays a called kernel."""
    namespace = dict(fn.__globals__, **callees)
    twin = FunctionType(fn.__code__, namespace, name, fn.__defaults__, fn.__closure__)
    twin.__qualname__ = name
    twin.__doc__ = fn.__doc__
    return kernel(refcount=False, inline=True)(twin)


def prange(*args: int) -> range:
    """``range`` in a plain kernel; ``numba.prange`` (a parallel loop) in its compiled twin."""
    return range(*args)


def prefetch(a: Any, i: int, j: int) -> None:
    """Ask for entry ``a[i, j]`` of a two-dimensional array (``a[i]`` of a one-dimensional
    one; j is then not read) to be brought into the processor's caches, without waiting for
    it: nothing in a plain kernel, LLVM's ``llvm.prefetch`` (a read, kept close) in its
    compiled twin. A hint that changes no result; the entry must lie within the array."""


def _prefetch_intrinsic() -> Any:
    """The numba intrinsic a compiled twin calls for :func:`prefetch` (built once)."""
    if _PREFETCH:
        return _PREFETCH[0]
    from llvmlite import ir
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    @intrinsic  # type: ignore[misc]
    def hint(typingctx: Any, a: Any, i: Any, j: Any) -> Any:
        if not isinstance(a, types.Array) or a.ndim not in (1, 2):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            aty = signature.args[0]
            ary = context.make_array(aty)(context, builder, args[0])
            index = [context.cast(builder, args[k], signature.args[k], types.intp) for k in (1, 2)]
            ptr = cgutils.get_item_pointer(context, builder, aty, ary, index[: aty.ndim], wraparound=False)
            byte = ir.IntType(8).as_pointer()
            word = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [byte, word, word, word])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
            # a read (0), kept in every level of the caches (3), of data (1)
            builder.call(fn, [builder.bitcast(ptr, byte), word(0), word(3), word(1)])
            return context.get_dummy_value()

        return types.none(a, i, j), codegen

    _PREFETCH.append(hint)
    return hint


_PREFETCH: list[Any] = []


def _callees(fn: FunctionType) -> dict[str, FunctionType]:
    """The kernels ``fn`` calls by global name."""
    out = {}
    for name in fn.__code__.co_names:
        obj = fn.__globals__.get(name)
        if isinstance(obj, FunctionType) and getattr(obj, _MARK, False) and obj is not fn:
            out[name] = obj
    return out


def _files(fn: FunctionType, seen: set[int] | None = None) -> set[str]:
    """The source files of ``fn`` and of every kernel it reaches."""
    seen = set() if seen is None else seen
    if id(fn) in seen:
        return set()
    seen.add(id(fn))
    files = {fn.__code__.co_filename}
    for callee in _callees(fn).values():
        files |= _files(callee, seen)
    return files


_OPTIONS = {"error_model": "numpy"}
"""Options every twin is compiled with: numpy's error model (a float division by zero gives
inf or nan instead of raising, so numba need not test each divisor, and loops with a division
vectorise; no kernel divides by zero, so the numbers are the same)."""


def _digest(fn: FunctionType) -> str:
    """A digest of the source files of ``fn`` and of every kernel it reaches, and of
    ``_OPTIONS`` (12 hex digits)."""
    import hashlib  # only when compiling: the command line's import stays light

    h = hashlib.sha256(repr(sorted(_OPTIONS.items())).encode())
    for f in sorted(_files(fn)):
        h.update(Path(f).read_bytes())
    return h.hexdigest()[:12]


def compiled(fn: Callable[..., Any]) -> Any:
    """The compiled twin (like ``numba.njit(cache=True, nogil=True)``) of the kernel ``fn``.

    The first call for a kernel in a process imports numba and compiles it, or loads it from
    numba's disk cache; later calls return the same dispatcher. Safe to call from several
    threads.

    Raises
    ------
    TypeError
        ``fn`` is not marked with :func:`kernel`.
    """
    if not getattr(fn, _MARK, False):
        raise TypeError(f"fn: {getattr(fn, '__qualname__', fn)!r} is not marked as a kernel")
    with _LOCK:
        return _compile(cast(FunctionType, fn), inner=False)


def _compile(fn: FunctionType, inner: bool) -> Any:
    """The twin of ``fn`` (``inner``: the inner twin its callers' twins call)."""
    key = (fn.__module__, fn.__qualname__, inner)
    if key in _TWINS:
        return _TWINS[key]
    import numba

    namespace = dict(fn.__globals__)
    for name, callee in _callees(fn).items():
        namespace[name] = _compile(callee, inner=True)
    for name in fn.__code__.co_names:
        if namespace.get(name) is prange:
            namespace[name] = numba.prange
        elif namespace.get(name) is prefetch and not numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
            namespace[name] = _prefetch_intrinsic()
    twin = FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)
    twin.__qualname__ = f"{fn.__qualname__}_{_digest(fn)}"
    twin.__doc__ = fn.__doc__
    options = getattr(fn, _MARK)
    if not isinstance(options, dict):  # marked by hand (``fn.__pigtheory_kernel__ = True``)
        options = {}
    targetoptions: dict[str, Any] = {"nopython": True, "nogil": True, "boundscheck": None}
    targetoptions.update(_OPTIONS)
    if options.get("parallel"):
        targetoptions["parallel"] = True
    # said for every twin: a twin compiled while its caller compiles takes the caller's
    # setting unless it has its own
    targetoptions["_nrt"] = options.get("refcount", True)
    if options.get("inline"):
        targetoptions["inline"] = "always"
    if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
        dispatcher: Any = twin
    elif not linked():  # numba's own way: every twin a cached dispatcher of its own
        plain = {k: v for k, v in targetoptions.items() if k != "nopython"}  # njit's own
        dispatcher = numba.njit(cache=True, **plain)(twin)
    elif inner:
        targetoptions.update(no_cpython_wrapper=True, no_cfunc_wrapper=True)
        dispatcher = _numba_classes().InnerTwin(
            py_func=twin, locals={}, targetoptions=targetoptions, pipeline_class=_numba_classes().IROnly
        )
    else:
        dispatcher = _numba_classes().Twin(
            py_func=twin, locals={}, targetoptions=targetoptions, pipeline_class=_numba_classes().Entry
        )
        dispatcher.enable_caching()
    _TWINS[key] = dispatcher
    return dispatcher


_CLASSES: list[Any] = []

LINKED_NUMBA = ("0.68",)
"""The numba releases (major.minor) the inner twins are tested with: they subclass numba's
dispatcher, compiler and code library and override some of their private methods."""


def linked() -> bool:
    """Whether twins link their callees' IR (inner twins, module Notes): numba is one of
    :data:`LINKED_NUMBA` and ``PIGTHEORY_PLAIN_JIT`` is unset or ``0``. Otherwise every twin is
    a plain ``numba.njit(cache=True, nogil=True)`` dispatcher, as numba compiles by itself
    (the same machine code, compiled more slowly). Imports numba."""
    import os

    import numba

    if os.environ.get("PIGTHEORY_PLAIN_JIT", "0") not in ("", "0"):
        return False
    return ".".join(numba.__version__.split(".")[:2]) in LINKED_NUMBA


def _numba_classes() -> Any:
    """The numba subclasses behind the twins, made on first use (numba is imported only then).

    ``Twin``: numba's CPU dispatcher, but a call from another compiled kernel compiles it for
    argument types without literal values, and a kernel marked ``refcount=False`` that returns
    an array is refused. ``InnerTwin``: a ``Twin`` compiled by ``IROnly``,
    numba's compiler writing into an ``IRLibrary``: the code library of a kernel lowered to
    LLVM IR, with its own callees' IR linked in, but neither optimized as a whole nor turned
    into machine code; the library that links it does both, once. ``Entry``: numba's compiler
    for the twins :func:`compiled` returns, writing into an ``EntryLibrary``, which runs
    numba's module optimization twice on the linked code (as numba's way ran it on each
    callee's code before linking it, and again in the caller: one run over raw IR gave about
    10% slower machine code for the symmetric solver). ``IRLibrary.codegen`` sets
    no environment pointer (numba's ``set_env``), since no machine code holds one: the linked
    copies of a callee's environment stay null, as they are in every caller numba loads from
    its disk cache.
    """
    if _CLASSES:
        return _CLASSES[0]
    from types import SimpleNamespace

    from numba.core import types
    from numba.core.codegen import JITCodeLibrary
    from numba.core.compiler import Compiler
    from numba.core.registry import CPUDispatcher

    def holds_array(ty: Any) -> bool:
        if isinstance(ty, types.Array):
            return True
        return isinstance(ty, types.BaseTuple) and any(holds_array(t) for t in getattr(ty, "types", ()))

    class Twin(CPUDispatcher):  # type: ignore[misc]
        def get_call_template(self, args: Any, kws: Any) -> Any:
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
            return super().get_call_template(args, kws)

        def add_overload(self, cres: Any) -> None:
            if self.targetoptions.get("_nrt") is False and holds_array(cres.signature.return_type):
                raise TypeError(
                    f"{self.py_func.__qualname__} returns an array: a kernel marked refcount=False "
                    "may not (its caller would get a reference nobody counted)"
                )
            super().add_overload(cres)

    class InnerTwin(Twin):
        def __call__(self, *args: Any, **kws: Any) -> Any:
            raise TypeError(f"{self.py_func.__qualname__} is an inner twin: call compiled(fn) instead")

    class _NoEnv:
        def __init__(self, codegen: Any) -> None:
            self._codegen = codegen

        def set_env(self, env_name: str, env: Any) -> None:
            pass

        def __getattr__(self, name: str) -> Any:
            return getattr(self._codegen, name)

    class IRLibrary(JITCodeLibrary):  # type: ignore[misc]
        @property
        def codegen(self) -> Any:
            return _NoEnv(self._codegen)

        def _optimize_final_module(self) -> None:
            pass  # the library linking this one optimizes it

        def _finalize_final_module(self) -> None:
            self._finalize_dynamic_globals()
            self._verify_declare_only_symbols()
            self._finalized = True  # not added to the execution engine: no machine code

    class EntryLibrary(JITCodeLibrary):  # type: ignore[misc]
        def _optimize_final_module(self) -> None:
            super()._optimize_final_module()
            super()._optimize_final_module()

    def pipeline(name: str, library_class: type) -> type:
        """A numba compiler whose code goes into a fresh ``library_class``."""

        def compile_extra(self: Any, func: Any) -> Any:
            if self.state.library is None:
                codegen = self.state.targetctx.codegen()
                self.state.library = library_class(codegen, func.__qualname__)
                self.state.library.enable_object_caching()
            return Compiler.compile_extra(self, func)

        return type(name, (Compiler,), {"compile_extra": compile_extra})

    IROnly = pipeline("IROnly", IRLibrary)
    Entry = pipeline("Entry", EntryLibrary)

    _CLASSES.append(
        SimpleNamespace(Twin=Twin, InnerTwin=InnerTwin, IROnly=IROnly, IRLibrary=IRLibrary, Entry=Entry)
    )
    return _CLASSES[0]


def max_threads() -> int:
    """The most threads a parallel kernel may use: numba's ``NUMBA_NUM_THREADS`` (by default
    the cores). Imports numba."""
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]


_OPEN = threading.local()  # .counts: this thread's open ``threads`` blocks, innermost last


def _counts() -> list[int]:
    if not hasattr(_OPEN, "counts"):
        _OPEN.counts = []
    return cast(list[int], _OPEN.counts)


def thread_count() -> int:
    """The threads of :func:`map_threads` and of the parallel kernels: the count of this
    thread's innermost :func:`threads` block, else :func:`max_threads`."""
    counts = _counts()
    return counts[-1] if counts else max_threads()


def map_threads(fn: Callable[[int], Any], count: int) -> list[Any]:
    """``[fn(0), ..., fn(count - 1)]``, the calls spread over :func:`thread_count` threads (in
    the caller's thread when that is 1). ``fn`` should spend its time in compiled twins, which
    release the GIL; the calls must be independent (any order gives the same results)."""
    workers = min(count, thread_count())
    if workers <= 1:
        return [fn(i) for i in range(count)]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, range(count)))


@contextmanager
def threads(count: int) -> Iterator[None]:
    """Run :func:`map_threads` and the parallel kernels called inside the ``with`` block on
    ``count`` threads (1 .. :func:`max_threads`; numba's ``set_num_threads``), restoring the
    count after.

    Raises
    ------
    ValueError
        ``count`` is outside 1 .. :func:`max_threads`.
    """
    import numba

    top = max_threads()
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= top:
        raise ValueError(f"count must be an integer in 1..{top}, got {count!r}")
    before = numba.get_num_threads()
    numba.set_num_threads(count)
    _counts().append(count)
    try:
        yield
    finally:
        _counts().pop()
        numba.set_num_threads(before)


def typed_list(items: Any = ()) -> Any:
    """A ``numba.typed.List`` of ``items`` (a list a kernel can take whose items are arrays of
    different sizes). Imports numba."""
    from numba.typed import List

    out = List()
    for item in items:
        out.append(item)
    return out
