"""Engines of the exact solvers: compiled loops (numba) or batched numpy, with the same answers.

``engine="numpy"`` is the reference: batched array operations, no compilation. ``"numba"``
runs the same backward induction as compiled loops (a loop costs nothing per state, where
numpy pays a fixed price per call); the kernels are compiled on first use and cached on disk
by numba (``cache=True``), so a later process only loads them. Loading still costs about
0.3-0.5 s (importing numba), which one small solve does not earn back.

``engine="auto"`` (the default) picks numba when it is installed and the solve's work
(``states x actions``) is at least :data:`NUMBA_WORK`, numpy otherwise, so that a one-off
command never pays for numba. A solver whose two engines give the same bits (the caller says
so with ``same_bits=True``; its engine-agreement test compares them bit for bit) may also
switch to numba once the process is *warm*: numba is already imported, or the process has
spent :data:`NUMBA_LOAD_SECONDS` in such numpy solves (:func:`numpy_clock`), about what loading
numba costs, so a process that keeps solving pays at most about twice the cheaper choice
(the rent-or-buy rule). The answer is then the same in any process; only the time differs.
Every other solver decides by the size of the solve alone, never by what the process did
before, so that the same call gives the same bits in any process (a sweep's workers
included). Nothing is read from the environment.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from .validation import check_choice

__all__ = ["ENGINES", "NUMBA_WORK", "NUMBA_LOAD_SECONDS", "numba_installed", "choose_engine", "numpy_clock"]

ENGINES = ("auto", "numba", "numpy")
"""The values of every solver's ``engine=``: ``auto`` chooses by the size of the work."""

NUMBA_WORK = 3_000_000
"""``auto`` picks numba from this many state-action pairs on (about 20-50 ms of numpy work;
two players at goal 100 have 0.5 million, at goal 200 four million)."""

NUMBA_LOAD_SECONDS = 0.5
"""``auto`` with ``same_bits=True`` picks numba once the process has spent this long in numpy
solves that numba would have run (about the cost of importing numba and loading its cached
kernels)."""

_NUMPY_SECONDS = [0.0]  # time spent in numpy solves that numba would have run, this process


@lru_cache(maxsize=1)
def numba_installed() -> bool:
    """Whether numba can be imported (it is not imported here)."""
    return importlib.util.find_spec("numba") is not None


def choose_engine(engine: str, work: float, *, same_bits: bool = False) -> str:
    """``"numba"`` or ``"numpy"`` for a solve of ``work`` state-action pairs.

    Parameters
    ----------
    engine : {"auto", "numba", "numpy"}
        ``"auto"``: numba (when installed) from :data:`NUMBA_WORK` pairs on, else numpy (and
        numba in a warm process when ``same_bits``, see the module docstring).
    work : float
        The solve's size in state-action pairs (each solver says how it counts them).
    same_bits : bool
        The caller's two engines give the same bits, so ``auto`` may use numba in a warm
        process (numba imported, or :data:`NUMBA_LOAD_SECONDS` spent in :func:`numpy_clock`).

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
    if same_bits and ("numba" in sys.modules or _NUMPY_SECONDS[0] >= NUMBA_LOAD_SECONDS):
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
