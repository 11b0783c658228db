"""A tiny stderr progress bar for solvers that run longer than a few seconds.

``progress=None`` (the default everywhere) shows the bar only when stderr is a terminal, so
logs, tests and ``make`` output stay clean; ``True`` / ``False`` force it on or off.

Examples
--------
>>> import io
>>> out = io.StringIO()
>>> with progress_bar(4, "levels", enabled=True, stream=out, min_interval=0) as bar:
...     bar.update(4)
>>> "levels" in out.getvalue() and "4/4" in out.getvalue()
True
>>> list(track(range(3), enabled=False))
[0, 1, 2]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import IO, TypeVar

__all__ = ["ProgressBar", "progress_bar", "track", "is_enabled"]

T = TypeVar("T")


def is_enabled(progress: bool | None, stream: IO[str] | None = None) -> bool:
    """``progress`` if given, else whether ``stream`` (default stderr) is a terminal."""
    if progress is not None:
        return bool(progress)
    stream = sys.stderr if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class ProgressBar:
    """``[#####     ] done/total  elapsed`` on one line of ``stream``, redrawn at most every
    ``min_interval`` seconds. A disabled bar does nothing (cheap to call in inner loops)."""

    def __init__(
        self,
        total: int,
        desc: str = "",
        enabled: bool | None = None,
        stream: IO[str] | None = None,
        width: int = 30,
        min_interval: float = 0.1,
    ) -> None:
        self.total = max(int(total), 0)
        self.desc = desc
        self.stream = sys.stderr if stream is None else stream
        self.enabled = is_enabled(enabled, self.stream)
        self.width = width
        self.min_interval = min_interval
        self.done = 0
        self._start = time.perf_counter()
        self._last = -float("inf")

    def update(self, n: int = 1) -> None:
        """Advance by ``n`` steps."""
        self.done += n
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._last >= self.min_interval or self.done >= self.total:
            self._last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        frac = min(self.done / self.total, 1.0) if self.total else 1.0
        filled = int(round(frac * self.width))
        bar = "#" * filled + " " * (self.width - filled)
        label = f"{self.desc}: " if self.desc else ""
        self.stream.write(f"\r{label}[{bar}] {self.done}/{self.total} {now - self._start:.1f}s")
        self.stream.flush()

    def close(self) -> None:
        """Draw the final state and end the line."""
        if self.enabled:
            self._draw(time.perf_counter())
            self.stream.write("\n")
            self.stream.flush()
            self.enabled = False

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def progress_bar(
    total: int,
    desc: str = "",
    enabled: bool | None = None,
    stream: IO[str] | None = None,
    min_interval: float = 0.1,
) -> ProgressBar:
    """A :class:`ProgressBar`; use as ``with progress_bar(n, "sweeps", progress) as bar:``."""
    return ProgressBar(total, desc, enabled, stream, min_interval=min_interval)


def track(
    iterable: Iterable[T],
    total: int | None = None,
    desc: str = "",
    enabled: bool | None = None,
    stream: IO[str] | None = None,
) -> Iterator[T]:
    """Yield from ``iterable``, advancing a bar by one per item."""
    if total is None:
        try:
            total = len(iterable)  # type: ignore[arg-type]
        except TypeError:
            total = 0
    with progress_bar(total, desc, enabled, stream) as bar:
        for item in iterable:
            yield item
            bar.update(1)
