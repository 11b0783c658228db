"""The same bits on any x86-64 CPU (issue 40): the two-dice solve, whose values feed the
sequential figures, and the one-die numpy engine, run under other CPU targets in fresh processes (OpenBLAS's kernel for
another core type, numba's generic CPU, numpy without its AVX2/FMA loops) gives the same
SHA-256 of its value and roll arrays as in this process."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.sequential import solve
from pigtheory.sequential.two_dice import solve_two_dice

_CHILD = """
import hashlib, sys
import numpy as np
from pigtheory import Rules
from pigtheory.sequential import solve
from pigtheory.sequential.two_dice import solve_two_dice
out = []
for goal, dice, dt in ((30, 2, False), (24, 2, True), (40, 1, False)):
    rules = Rules(goal=goal, dice=dice, double_trouble=dt)
    if dice == 1:
        runs = [solve(rules=rules, engine="numpy")]
    else:
        runs = [solve_two_dice(rules=rules, engine=e) for e in ["numpy"] + ["numba"] * (sys.argv[1] == "numba")]
    for s in runs:
        for a in (s.value, s.roll):
            out.append(hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest())
print(" ".join(out))
"""

TARGETS = {
    "OpenBLAS Prescott (SSE3)": {"OPENBLAS_CORETYPE": "Prescott"},
    "OpenBLAS Haswell (AVX2)": {"OPENBLAS_CORETYPE": "Haswell"},
    "OpenBLAS SkylakeX (AVX-512)": {"OPENBLAS_CORETYPE": "SkylakeX"},
    "numba generic, numpy without AVX2/FMA": {
        "NUMBA_CPU_NAME": "generic",
        "NPY_DISABLE_CPU_FEATURES": "AVX512F AVX512CD AVX512_SKX AVX2 FMA3",
    },
}


def _here(numba: bool) -> str:
    """The hashes in this process, of the numpy engine only: with ``numba``, the two-dice
    solves' compiled engine (its weighted sums and steps, :mod:`pigtheory.sequential.two_dice`)
    must give the numpy engine's bits under the other target too."""
    out = []
    for goal, dice, dt in ((30, 2, False), (24, 2, True), (40, 1, False)):
        rules = Rules(goal=goal, dice=dice, double_trouble=dt)
        s = solve(rules=rules, engine="numpy") if dice == 1 else solve_two_dice(rules=rules, engine="numpy")
        hashes = [hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest() for a in (s.value, s.roll)]
        out += hashes * (2 if numba and dice == 2 else 1)
    return " ".join(out)


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_the_two_dice_solve_has_the_same_bits_under_another_cpu_target(target, tmp_path):
    env = {**os.environ, **TARGETS[target], "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    env["PIGTHEORY_CACHE_DIR"] = str(tmp_path / "cache")
    numba = "NUMBA_CPU_NAME" in TARGETS[target]  # numba's generic CPU: its kernels too
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, "numba" if numba else "numpy"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert done.stdout.split() == _here(numba).split(), target
