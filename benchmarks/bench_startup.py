"""Start-up time: ``import pigtheory`` and ``pigtheory --help``, each in a fresh interpreter.

The baseline is ``python -c pass`` timed in the same run (the interpreter and ``site``, which
includes the editable install's import hook). Targets (issue 13): ``pigtheory --help`` within
0.1 s and ``import pigtheory`` within 0.2 s, wall clock. The line "the solvers" imports the
simultaneous and sequential solvers (numpy, scipy, numba's loader): what a command that
solves pays once, for comparison.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPEAT = 15

CASES = [
    ("python -c pass", ["-c", "pass"], None),
    ("import pigtheory", ["-c", "import pigtheory"], 0.2),
    ("pigtheory --help", ["-m", "pigtheory", "--help"], 0.1),
    ("pigtheory --version", ["-m", "pigtheory", "--version"], 0.1),
    ("the solvers", ["-c", "import pigtheory.simultaneous, pigtheory.sequential"], None),
]


def wall(args: list[str], repeat: int = REPEAT) -> float:
    """Median wall-clock seconds of ``python args`` run from the repository root (whose
    ``pigtheory`` comes first on the path), after one untimed run (disk cache)."""
    times = []
    for n in range(repeat + 1):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
        if n:
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    base = None
    for name, args, target in CASES:
        seconds = wall(args)
        base = base or seconds
        verdict = (
            ""
            if target is None
            else f"   target <= {target:.1f} s: {'ok' if seconds <= target else 'MISSED'}"
        )
        print(
            f"{name:24s} {seconds * 1e3:8.1f} ms   ratio {seconds / base:6.2f} (python -c pass){verdict}",
            flush=True,
        )


if __name__ == "__main__":
    main()
