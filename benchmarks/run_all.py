"""Run every benchmark: ``main()`` of each ``benchmarks/bench_*.py``.

``python benchmarks/run_all.py [substring ...]`` runs only the files whose name contains one
of the substrings. Benchmarks print medians and ratios against a baseline run in the same
process, so numbers from different machines are comparable as ratios.
"""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def benchmarks(only: list[str] | None = None) -> list[str]:
    """Module names of the selected ``bench_*.py`` files, sorted."""
    names = []
    for path in sorted(HERE.glob("bench_*.py")):
        if only and not any(o in path.stem for o in only):
            continue
        names.append(f"benchmarks.{path.stem}")
    return names


def main(argv: list[str]) -> int:
    names = benchmarks(argv or None)
    if not names:
        print(f"no benchmark matches {argv!r}", file=sys.stderr)
        return 1
    for name in names:
        print(f"## {name}", flush=True)
        t0 = time.perf_counter()
        importlib.import_module(name).main()
        print(f"## {name}: {time.perf_counter() - t0:.1f} s\n", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
