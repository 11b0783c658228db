"""Sequential Pig: the one-die level pass (numba and numpy engines), value iteration, two dice.

Targets (the "core" issue): one die, optimal play at goal 100 in at most 20 ms and at goal 500
in at most 1.5 s, against the numpy engine timed in the same process; peak memory at goal 500
per engine; the first-call cost of the compiled kernel (cold compile and disk-cache load, each
in a fresh process). Issue 6: the exact solver at least 20x faster than plain vectorised value
iteration of Neller's equations. Two dice and Double Trouble: time and sweeps.

The numpy engine at goal 500 runs first, before numba is imported, so that this process's peak
resident memory right after it is that engine's peak; the numba engine's peak is read from a
fresh process. By default the numpy engine at goal 500 is left out (``--full`` runs it).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._timing import timed  # noqa: E402
from pigtheory import Rules  # noqa: E402
from pigtheory.engine import choose_engine  # noqa: E402
from pigtheory.sequential import solve, value_iteration  # noqa: E402

_CHILD = """
import json, sys, time
from benchmarks.bench_sequential import peak_mb
from pigtheory import Rules
from pigtheory.sequential import kernels, solve
load = kernels.load_time()
t0 = time.perf_counter()
sol = solve(rules=Rules(goal=int(sys.argv[1])), engine="numba", progress=False)
first = time.perf_counter() - t0
print(json.dumps({"load": load, "first": first, "peak_mb": peak_mb()}))
"""


def _child(goal: int, cache_dir: str | None = None) -> dict[str, float]:
    """Import, kernel load (or compile, with an empty cache folder) and one numba solve, in a
    fresh process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(goal)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def peak_mb() -> float:
    """This process's peak resident memory (MB): ``VmHWM`` where Linux has it, since
    ``ru_maxrss`` survives ``exec`` and so reports a parent's size in a child."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _one_die(goal: int, engine: str, repeat: int, warmup: bool = True):
    return timed(lambda: solve(rules=Rules(goal=goal), engine=engine, progress=False), repeat, warmup=warmup)


def main(argv: list[str] | None = None) -> None:
    full = "--full" in (sys.argv[1:] if argv is None else argv)  # the numpy engine at goal 500 too
    before = peak_mb()
    if full:
        t_np500, np500 = _one_die(500, "numpy", 1, warmup=False)
        peak_np500 = peak_mb()
        del np500

    from pigtheory.sequential import kernels

    load = kernels.load_time()
    print(f"numba kernel, first call in this process (import numba + load or compile): {load:.2f} s")
    with tempfile.TemporaryDirectory() as empty:
        cold = _child(1, cache_dir=empty)
    warm = _child(1)
    print(
        f"  fresh process: cold compile {cold['load']:.2f} s, load from numba's disk cache "
        f"{warm['load']:.2f} s"
    )

    t_np100, ref = _one_die(100, "numpy", 5)
    t_nb100, fast = _one_die(100, "numba", 21)
    diff = float(np.nanmax(np.abs(ref.value - fast.value)))
    auto = choose_engine("auto", 100 * 100 * 101)
    print(
        f"one die, goal 100: numpy {t_np100 * 1e3:7.1f} ms   numba {t_nb100 * 1e3:6.1f} ms   "
        f"ratio {t_np100 / t_nb100:5.1f}x   (target <= 20 ms; auto picks {auto}); "
        f"max |difference| {diff:.1e}, same choices: {bool(np.array_equal(ref.roll, fast.roll))}"
    )
    t_nb500, _ = _one_die(500, "numba", 3)
    del _
    fresh = _child(500)
    if full:
        print(
            f"one die, goal 500: numpy {t_np500:7.2f} s    numba {t_nb500:6.2f} s    "
            f"ratio {t_np500 / t_nb500:5.1f}x   (target <= 1.5 s; numba: median of 3 after one more)"
        )
        print(
            f"  peak resident memory at goal 500: numpy {peak_np500:.0f} MB (this process, "
            f"{before:.0f} MB before), numba {fresh['peak_mb']:.0f} MB (fresh process, numba "
            f"imported; its first solve {fresh['first']:.2f} s); the result arrays alone take "
            f"{500**3 * 9 / 2**20:.0f} MB"
        )
    else:
        print(
            f"one die, goal 500: numba {t_nb500:6.2f} s   (target <= 1.5 s; median of 3 after one more; "
            f"the numpy engine at goal 500: --full)"
        )
        print(
            f"  peak resident memory at goal 500: numba {fresh['peak_mb']:.0f} MB (fresh process, numba "
            f"imported; its first solve {fresh['first']:.2f} s); the result arrays alone take "
            f"{500**3 * 9 / 2**20:.0f} MB"
        )

    rules = Rules()
    t_vi, vi = timed(lambda: value_iteration(rules=rules, tol=1e-12, progress=False), 1, warmup=False)
    diff = float(np.nanmax(np.abs(ref.value - vi.value)))
    print(f"one die, goal 100: plain value iteration  {t_vi:.2f} s ({vi.iterations} sweeps to 1e-12)")
    print(
        f"  speed-up over it: numpy {t_vi / t_np100:.0f}x, numba {t_vi / t_nb100:.0f}x "
        f"(target >= 20x); max |difference| {diff:.1e}; policies equal: "
        f"{bool(np.array_equal(ref.roll, vi.roll))}"
    )
    for r in (Rules(dice=2), Rules(dice=2, double_trouble=True)):
        t, sol = timed(lambda r=r: solve(rules=r, tol=1e-12, progress=False), 1, warmup=False)
        print(
            f"{r}: {t:.1f} s, {sol.iterations} whole-turn sweeps, residual {sol.residual:.1e}, "
            f"first player {sol.first_player_win:.6f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
