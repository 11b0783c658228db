"""Rows of the claims report: a published number beside ours, with an honest status.

Every analysis module ``analyses/<paper>/<claim>.py`` has a docstring that quotes and cites
the claim, a ``CLAIMS`` list of ``(id, source, paper value, tolerance)`` and a ``main()`` that
computes our numbers, prints them beside the paper's and returns a list of :class:`Row`
(or ``(rows, markdown)`` with extra detail for the report).

Wall-clock times are not results: they change from run to run and machine to machine, so they
never go into a row or the report's details (regenerating the report must leave it unchanged).
A script that wants to say how long something took calls :func:`record_time` (or
:func:`record_table` for a table of measurements); ``analyses/run_all.py`` writes those to
``analyses/TIMINGS.md``, which git ignores.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

REPRODUCED, DIFFERS, NOT_COMPUTABLE = "reproduced", "differs", "not computable"
EXTENSION = "extension"
"""Status of a row the paper has no number for (our own results beyond the papers)."""


@dataclass
class Row:
    id: str
    source: str
    claim: str
    paper: str
    ours: str
    status: str
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


_TIMES: list[tuple[str, float]] = []


def record_time(what: str, seconds: float) -> None:
    """Note that ``what`` took ``seconds`` (for ``analyses/TIMINGS.md``, not the report)."""
    _TIMES.append((what, float(seconds)))


@contextlib.contextmanager
def timed(what: str) -> Iterator[None]:
    """Record the wall-clock time of the ``with`` block under ``what``."""
    t0 = time.perf_counter()
    try:
        yield
    finally:
        record_time(what, time.perf_counter() - t0)


def recorded_times() -> list[tuple[str, float]]:
    """Every time recorded so far, in order."""
    return list(_TIMES)


_TABLES: dict[str, str] = {}


def record_table(title: str, markdown: str) -> None:
    """Keep a table of measurements (times, memory) for ``analyses/TIMINGS.md``, not the report."""
    _TABLES[title] = markdown


def recorded_tables() -> dict[str, str]:
    """Every table recorded so far, by title."""
    return dict(_TABLES)


def fmt(x: Any, digits: int = 4) -> str:
    if isinstance(x, float):
        if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e6):
            return f"{x:.{digits - 1}e}"
        return f"{x:.{digits}f}"
    if isinstance(x, (list, tuple)):
        return ", ".join(fmt(v, digits) for v in x)
    return str(x)


def numeric(
    id: str, source: str, claim: str, paper: float, ours: float, tol: float, note: str = "", digits: int = 4
) -> Row:
    """Compare one number: reproduced when ``|ours - paper| <= tol``."""
    ok = math.isfinite(ours) and abs(ours - paper) <= tol
    status = REPRODUCED if ok else DIFFERS
    extra = "" if ok else f"|ours - paper| = {abs(ours - paper):.2e} > {tol:g}"
    return Row(
        id,
        source,
        claim,
        fmt(paper, digits),
        fmt(ours, digits),
        status,
        "; ".join(s for s in (note, extra) if s),
    )


def exact(id: str, source: str, claim: str, paper: Any, ours: Any, note: str = "") -> Row:
    """Compare exactly (integers, fractions, tuples, qualitative statements as booleans)."""
    return Row(id, source, claim, fmt(paper), fmt(ours), REPRODUCED if paper == ours else DIFFERS, note)


def print_rows(rows: list[Row]) -> None:
    for r in rows:
        print(f"{r.id:8s} {r.status:15s} paper {r.paper:>24s}   ours {r.ours:>24s}   {r.claim}")
        if r.note:
            print(f"{'':8s} note: {r.note}")


ROUNDING_FLOOR = 1e-12
"""Below this size a residual, certificate or difference is floating-point rounding, not a result."""


def tiny(x: Any, *, floor: float = ROUNDING_FLOOR, digits: int = 2) -> str:
    """Format a residual, certificate gap or exploitability so the report regenerates byte for byte.

    Parameters
    ----------
    x : float
        The number (a residual, a certificate gap, an exploitability of an exact equilibrium,
        a difference between two methods).
    floor : float, default 1e-12
        Values with ``|x| < floor`` are printed as ``"< 1e-12"`` (sign dropped).
    digits : int, default 2
        Significant digits of the scientific format used at or above the floor.

    Returns
    -------
    str
        ``"< 1e-12"`` below the floor, else ``x`` in short scientific notation (``"6.5e-07"``).

    Notes
    -----
    A quantity that is zero in exact arithmetic comes out of floating point as some multiple
    of the unit roundoff (``2.2e-16``) whose digits, and sign, depend on the CPU, the BLAS,
    fused multiply-add and the order of summation. Printing it would make ``analyses/REPORT.md``
    differ from machine to machine although nothing changed, so below ``floor`` only the bound
    is printed: that is the certificate (``|x| < floor``) and it holds on every machine.
    Exact zeros get the same text, since another machine may not hit zero exactly.
    """
    if not isinstance(floor, (int, float)) or not (0 < floor < 1):
        raise ValueError(f"floor must be a number in (0, 1), got {floor!r}")
    if not isinstance(digits, int) or isinstance(digits, bool) or not 1 <= digits <= 17:
        raise ValueError(f"digits must be an integer in [1, 17], got {digits!r}")
    v = float(x)
    if math.isnan(v):
        return "nan"
    if abs(v) < floor:
        return f"< {floor:.0e}"
    return f"{v:.{digits - 1}e}"


def near(
    x: Any, target: Any, label: str | None = None, *, floor: float = ROUNDING_FLOOR, digits: int = 12
) -> str:
    """Format a value that equals an exact number ``target`` up to rounding.

    Parameters
    ----------
    x : float
        The computed value (e.g. ``0.499999999999997``).
    target : float or fractions.Fraction
        The exact value it should equal (e.g. ``Fraction(1, 2)``).
    label : str, optional
        How to write ``target`` (default ``str(target)``, so ``"1/2"`` for a Fraction).
    floor : float, default 1e-12
        Largest ``|x - target|`` still counted as rounding.
    digits : int, default 12
        Decimals printed when ``x`` is not within ``floor`` of ``target``.

    Returns
    -------
    str
        ``"1/2 to < 1e-12"`` when ``|x - target| < floor``, else ``x`` to ``digits`` decimals.

    Notes
    -----
    Fifteen printed digits of a float expose its last bits, which change between machines;
    the statement "equals 1/2 up to 1e-12" does not.
    """
    if not isinstance(digits, int) or isinstance(digits, bool) or not 1 <= digits <= 15:
        raise ValueError(f"digits must be an integer in [1, 15], got {digits!r}")
    v = float(x)
    if math.isfinite(v) and abs(v - float(target)) < floor:
        return f"{target if label is None else label} to {tiny(0.0, floor=floor)}"
    return f"{v:.{digits}f}"
