"""Run every benchmark: ``main()`` of each ``benchmarks/bench_*.py``.

``python benchmarks/run_all.py [--full] [--skip SUBSTRING ...] [SUBSTRING ...]`` runs the
files whose name contains one of the substrings (all by default), except those named after
``--skip``. Benchmarks print medians and ratios against a baseline run in the same process,
so numbers from different machines are comparable as ratios.

By default each benchmark runs its quick sizes, so that the whole run (``make bench``) takes
about 10-15 minutes on a 2-core machine and still prints every target with its baseline;
``--full`` runs the large sizes as well (goal 1000 scalings, the four-player symmetric
equilibrium at goal 100, every memory case of the guard: hours). A benchmark takes the sizes
through its ``main``: ``main(argv)`` gets ``["--full"]`` (or ``["--quick"]`` if that is the
flag it knows), ``main(quick=...)`` its flag, a plain ``main()`` has one size only.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

QUICK_FLAG = {"bench_symmetric": "--quick", "bench_sequential_multiplayer": "--quick"}
"""Benchmarks whose ``main(argv)`` runs the large sizes unless given ``--quick``."""


def benchmarks(only: list[str] | None = None, skip: list[str] | None = None) -> list[str]:
    """Module names of the selected ``bench_*.py`` files, sorted."""
    names = []
    for path in sorted(HERE.glob("bench_*.py")):
        if only and not any(o in path.stem for o in only):
            continue
        if skip and any(s in path.stem for s in skip):
            continue
        names.append(f"benchmarks.{path.stem}")
    return names


def run(name: str, full: bool) -> None:
    """``main`` of the benchmark module ``name`` with its quick or full sizes."""
    main = importlib.import_module(name).main
    params = inspect.signature(main).parameters
    stem = name.rsplit(".", 1)[-1]
    if "argv" in params:
        if stem in QUICK_FLAG:
            main([] if full else [QUICK_FLAG[stem]])
        else:
            main(["--full"] if full else [])
    elif "quick" in params:
        main(quick=not full)
    else:
        main()


def main(argv: list[str]) -> int:
    full = "--full" in argv
    skip, only, rest = [], [], iter(a for a in argv if a != "--full")
    for a in rest:
        if a == "--skip":
            skip.append(next(rest, ""))
        else:
            only.append(a)
    names = benchmarks(only or None, [s for s in skip if s] or None)
    if not names:
        print(f"no benchmark matches {argv!r}", file=sys.stderr)
        return 1
    print(f"# sizes: {'full' if full else 'quick (--full for the large sizes)'}", flush=True)
    total = time.perf_counter()
    for name in names:
        print(f"## {name}", flush=True)
        t0 = time.perf_counter()
        run(name, full)
        print(f"## {name}: {time.perf_counter() - t0:.1f} s\n", flush=True)
    print(f"# all benchmarks: {time.perf_counter() - total:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
