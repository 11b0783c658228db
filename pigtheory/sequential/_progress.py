"""A tiny stderr progress bar (the sequential solvers' own; no shared one existed yet)."""

from __future__ import annotations

import sys


class Progress:
    """``Progress(total, label, show)``; ``show=None`` means "when stderr is a terminal"."""

    def __init__(self, total: int, label: str, show: bool | None = None) -> None:
        self.total, self.label, self.done = max(int(total), 1), label, 0
        self.show = sys.stderr.isatty() if show is None else bool(show)
        self._last = -1

    def update(self, n: int = 1) -> None:
        self.done += n
        if not self.show:
            return
        pct = int(100 * self.done / self.total)
        if pct != self._last:
            self._last = pct
            bar = "#" * (pct // 4)
            sys.stderr.write(f"\r{self.label}: [{bar:<25s}] {pct:3d}%")
            sys.stderr.flush()

    def close(self) -> None:
        if self.show:
            sys.stderr.write("\n")
            sys.stderr.flush()
