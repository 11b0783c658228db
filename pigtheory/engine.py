"""Engines of the exact solvers: compiled loops (numba) or batched numpy, with the same answers.

``engine="numpy"`` is the reference: batched array operations, no compilation. ``"numba"``
runs the same backward induction as compiled loops (a loop costs nothing per state, where
numpy pays a fixed price per call); the kernels are compiled on first use and cached on disk
by numba (``cache=True``), so a later process only loads them. Loading still costs about
0.3-0.5 s (importing numba), which one small solve does not earn back.

``engine="auto"`` (the default) therefore decides by the size of the solve alone, never by
what the process did before, so that the same call gives the same bits in any process (a
sweep's workers included): numba when it is installed and the solve's work (``states x
actions``) is at least :data:`NUMBA_WORK`, numpy otherwise. Nothing is read from the
environment.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache

from .validation import check_choice

__all__ = ["ENGINES", "NUMBA_WORK", "numba_installed", "choose_engine"]

ENGINES = ("auto", "numba", "numpy")
"""The values of every solver's ``engine=``: ``auto`` chooses by the size of the work."""

NUMBA_WORK = 3_000_000
"""``auto`` picks numba from this many state-action pairs on (about 20-50 ms of numpy work;
two players at goal 100 have 0.5 million, at goal 200 four million)."""


@lru_cache(maxsize=1)
def numba_installed() -> bool:
    """Whether numba can be imported (it is not imported here)."""
    return importlib.util.find_spec("numba") is not None


def choose_engine(engine: str, work: float) -> str:
    """``"numba"`` or ``"numpy"`` for a solve of ``work`` state-action pairs.

    Parameters
    ----------
    engine : {"auto", "numba", "numpy"}
        ``"auto"``: numba (when installed) from :data:`NUMBA_WORK` pairs on, else numpy.
    work : float
        The solve's size in state-action pairs (each solver says how it counts them).

    Returns
    -------
    str
        ``"numba"`` or ``"numpy"``.

    Raises
    ------
    ValueError
        An unknown engine, or ``"numba"`` when numba is not installed.
    """
    check_choice("engine", engine, ENGINES)
    if engine == "numba":
        if not numba_installed():
            raise ValueError("engine: 'numba' needs the numba package (pip install numba)")
        return "numba"
    if engine == "numpy":
        return "numpy"
    return "numba" if numba_installed() and work >= NUMBA_WORK else "numpy"
