"""Engines of the exact solvers: compiled loops (numba) or batched numpy, with the same answers.

``engine="numpy"`` is the reference: batched array operations, no compilation. ``"numba"``
runs the same backward induction as compiled loops (a loop costs nothing per state, where
numpy pays a fixed price per call); the kernels are compiled on first use and cached on disk
by numba (``cache=True``), so a later process only loads them. Loading still costs about
0.3-0.5 s (importing numba, about 0.15 s, and loading the cached kernels), which one small
solve does not earn back.

Notes
-----
``engine="auto"`` (the default) picks numba when it is installed and the solve's work
(``states x actions``) is at least :data:`NUMBA_WORK`, numpy otherwise, so that a one-off
command never pays for numba. A solver whose two engines give the same bits (the caller says
so with ``same_bits=True``; its engine-agreement test compares them bit for bit, with
SHA-256) is *tiered*: ``auto`` moves it to numba once the compiled engine is loaded, at no
cost to the caller's thread where possible:

1. the first such solve of a process runs numpy and loads nothing (a one-off command never
   imports numba);
2. the second one, when the caller passes ``load`` (a function that loads the solver's
   kernels, e.g. one tiny compiled solve), starts ``load`` in a background thread and still
   runs numpy; every later solve takes numba as soon as that thread has finished;
3. the :data:`NUMBA_WAIT_CALLS`-th such solve waits for that thread to finish (a process that
   has solved that often is taken to keep solving: it pays the rest of the load, about
   0.3 s with numba's cache warm, once, and every later call is compiled; the 10th call of a
   loop is then about 1 ms at goal 100 instead of about 9 ms);
4. whatever the thread does, once the process has spent :data:`NUMBA_LOAD_SECONDS` in such
   numpy solves (:func:`numpy_clock`), about what loading numba costs, ``auto`` takes numba
   (waiting for the load if it is still running): the rent-or-buy rule, so that a process
   that keeps solving pays at most about twice the cheaper choice even on one core. numba
   already imported by anything else (and no load running) counts as loaded.

The answer is then the same bits in any process; only the time differs. Every other solver
decides by the size of the solve alone, never by what the process did before, so that the
same call gives the same bits in any process (a sweep's workers included). Nothing is read
from the environment.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache

from .validation import check_choice

__all__ = [
    "ENGINES",
    "NUMBA_WORK",
    "NUMBA_LOAD_SECONDS",
    "NUMBA_WAIT_CALLS",
    "wait_for_loads",
    "numba_installed",
    "choose_engine",
    "numpy_clock",
]

ENGINES = ("auto", "numba", "numpy")
"""The values of every solver's ``engine=``: ``auto`` chooses by the size of the work."""

NUMBA_WORK = 3_000_000
"""``auto`` picks numba from this many state-action pairs on (about 20-50 ms of numpy work;
two players at goal 100 have 0.5 million, at goal 200 four million)."""

NUMBA_LOAD_SECONDS = 0.5
"""``auto`` with ``same_bits=True`` picks numba once the process has spent this long in numpy
solves that numba would have run (about the cost of importing numba and loading its cached
kernels)."""

NUMBA_WAIT_CALLS = 4
"""``auto`` with ``same_bits=True`` and a ``load``: the process's tiered numpy solve of this
number waits for the background load (started at the second) and takes numba; a script of
fewer calls never waits, a one-off command never loads numba."""

_NUMPY_SECONDS = [0.0]  # time spent in numpy solves that numba would have run, this process


class _Tier:
    """The tiered state of this process: tiered numpy solves seen, and the background loads
    (one per ``load`` function) with whether they finished."""

    def __init__(self) -> None:
        self.calls = 0
        self.lock = threading.Lock()
        self.loads: dict[Callable[[], object], threading.Thread] = {}
        self.ready: set[Callable[[], object]] = set()

    def start(self, load: Callable[[], object]) -> None:
        with self.lock:
            if load in self.loads:
                return
            thread = threading.Thread(
                target=self._run, args=(load,), name="pigtheory-numba-load", daemon=True
            )
            self.loads[load] = thread
        thread.start()

    def _run(self, load: Callable[[], object]) -> None:
        try:
            load()
        except Exception:  # noqa: BLE001 - a failed load leaves the rent-or-buy rule in charge
            return
        self.ready.add(load)

    def loading(self) -> bool:
        return any(t.is_alive() for t in self.loads.values())

    def wait(self) -> None:
        for thread in list(self.loads.values()):
            thread.join()


_TIER = _Tier()


def wait_for_loads() -> None:
    """Wait until the compiled kernels this process is loading in the background are loaded
    (nothing to wait for if no tiered solve started a load). For a measurement of a solve
    alone: the load's own memory and time (numba's import, about 50 MB once per process) are
    not the solve's.

    >>> wait_for_loads()
    """
    _TIER.wait()


@lru_cache(maxsize=1)
def numba_installed() -> bool:
    """Whether numba can be imported (it is not imported here)."""
    return importlib.util.find_spec("numba") is not None


def choose_engine(
    engine: str, work: float, *, same_bits: bool = False, load: Callable[[], object] | None = None
) -> str:
    """``"numba"`` or ``"numpy"`` for a solve of ``work`` state-action pairs.

    Parameters
    ----------
    engine : {"auto", "numba", "numpy"}
        ``"auto"``: numba (when installed) from :data:`NUMBA_WORK` pairs on, else numpy (and
        numba once loaded when ``same_bits``, see the module's Notes).
    work : float
        The solve's size in state-action pairs (each solver says how it counts them).
    same_bits : bool
        The caller's two engines give the same bits, so ``auto`` may use numba once it is
        loaded (a background ``load``, numba imported, or :data:`NUMBA_LOAD_SECONDS` spent in
        :func:`numpy_clock`; the :data:`NUMBA_WAIT_CALLS`-th tiered solve waits for the load).
    load : callable, optional
        With ``same_bits``: loads the caller's compiled kernels (the same function object at
        every call); run once, in a background thread, from the process's second tiered
        numpy solve on.

    Returns
    -------
    str
        ``"numba"`` or ``"numpy"``.

    Raises
    ------
    ValueError
        An unknown engine, or ``"numba"`` when numba is not installed.

    Examples
    --------
    >>> choose_engine("numpy", 10**9), choose_engine("auto", 10)
    ('numpy', 'numpy')
    """
    check_choice("engine", engine, ENGINES)
    if engine == "numba":
        if not numba_installed():
            raise ValueError("engine: 'numba' needs the numba package (pip install numba)")
        return "numba"
    if engine == "numpy" or not numba_installed():
        return "numpy"
    if work >= NUMBA_WORK:
        return "numba"
    if not same_bits:
        return "numpy"
    if (load is not None and load in _TIER.ready) or ("numba" in sys.modules and not _TIER.loading()):
        return "numba"
    if _NUMPY_SECONDS[0] >= NUMBA_LOAD_SECONDS:
        _TIER.wait()
        return "numba"
    _TIER.calls += 1
    if load is not None and _TIER.calls >= 2:
        _TIER.start(load)
        if _TIER.calls >= NUMBA_WAIT_CALLS:
            _TIER.loads[load].join()
            if load in _TIER.ready:  # a failed load leaves the rent-or-buy rule in charge
                return "numba"
    return "numpy"


@contextmanager
def numpy_clock() -> Iterator[None]:
    """Count the time of the enclosed numpy solve towards a warm process (:func:`choose_engine`
    with ``same_bits=True``): wrap the numpy solves that ``auto`` chose and numba could run."""
    t0 = time.perf_counter()
    try:
        yield
    finally:
        _NUMPY_SECONDS[0] += time.perf_counter() - t0
