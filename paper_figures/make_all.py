"""Regenerate every figure: run ``main()`` of each ``paper_figures/fig_*.py``.

``python paper_figures/make_all.py [substring ...]`` runs only the matching scripts.
"""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    for path in sorted(HERE.glob("fig_*.py")):
        if argv and not any(a in path.stem for a in argv):
            continue
        t0 = time.perf_counter()
        importlib.import_module(f"paper_figures.{path.stem}").main()
        print(f"{path.stem}: {time.perf_counter() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
